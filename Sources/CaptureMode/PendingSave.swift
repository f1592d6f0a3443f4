import Foundation

/// Done's save from Done until the store answers. The store's answer can take as long as the
/// database does (a server that stopped answering: its 10 s timeout), so meanwhile the capture
/// says what is going on: a tick of the runtime's timers each second (`.saveWaited`) counts the
/// wait, which the message line shows once it passes `patienceSeconds`; a key the save does not
/// allow is answered with a sentence (`reply`) instead of nothing.
public struct PendingSave: Equatable, Sendable {
    /// Which Done this is (`CaptureState.saveToken`): a tick of an earlier one does not count.
    public let token: Int
    /// Whole seconds waited, as the ticks counted them.
    public var waitedSeconds = 0
    /// The answer to the last key the save refused or explained, and the second it was given.
    public var reply: Reply?
    public var repliedAt = 0

    /// How long a save waits before the message line says how long it has waited.
    public static let patienceSeconds = 3
    /// How often the wait is counted.
    public static let tickMilliseconds = 1000
    /// How long a reply stays on the message line (the wait goes on counting beside it).
    public static let replySeconds = 3

    public init(token: Int) {
        self.token = token
    }

    /// What a key pressed while saving is told.
    public enum Reply: Equatable, Sendable {
        /// Esc (Close): nothing closes while saving; the work is safe.
        case closeWaits
        /// A key that would change the capture being saved.
        case captureLocked
        /// Done, or Enter on review, again.
        case alreadySaving

        public var sentence: String {
            switch self {
            case .closeWaits: "Esc waits: saving is under way; your capture is safe as a draft"
            case .captureLocked: "the capture cannot change while it is being saved"
            case .alreadySaving: "Done is already saving this capture"
            }
        }
    }

    /// The reply still showing at the wait counted now, if any.
    public var currentReply: Reply? {
        guard let reply, waitedSeconds < repliedAt + Self.replySeconds else { return nil }
        return reply
    }

    /// The message line while saving: "Saving…", the wait once it is long ("Saving… 7 s — the
    /// database has not answered; your capture is kept as a draft"), and a reply to a key.
    public func line(ellipsis: String) -> String {
        let saving = "Saving\(ellipsis)"
        let waited = waitedSeconds >= Self.patienceSeconds
        switch (currentReply, waited) {
        case let (reply?, true): return "\(saving) \(waitedSeconds) s — \(reply.sentence)"
        case let (reply?, false): return "\(saving) — \(reply.sentence)"
        case (nil, true): return "\(saving) \(waitedSeconds) s — the database has not answered; your capture is kept as a draft"
        case (nil, false): return saving
        }
    }
}
