import CaptureMode
import Foundation
import Logging
import Storage
import TabShell

/// Copies photos into this capture's staging directory on a background thread, so a large
/// file never freezes the screen; progress and results come back through the mailbox.
final class PhotoStager {
    private let database: AppDatabase
    private let mailbox: Mailbox
    private let wake: @Sendable () -> Void
    private let logger: Logger

    init(database: AppDatabase, mailbox: Mailbox, wake: @escaping @Sendable () -> Void, logger: Logger) {
        self.database = database
        self.mailbox = mailbox
        self.wake = wake
        self.logger = logger
    }

    func stage(_ path: String) -> [AppAction] {
        [.capture(.photoStagingFailed("Photo capture is not available in this build."))]
    }

    func remove(_ photo: StagedPhoto) {}

    func discard() {}
}
