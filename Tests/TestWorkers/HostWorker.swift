import CaptureMode
import Dispatch
import Domain
import Foundation
import PostgresStorage
import Storage
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One "host" of PostgresStorageTests' MultiHostTests: a process of its own with its own folder
/// (staging, cache), 8 sessions committing at once — every tenth commit with a photo, every
/// fifth answering a request. Exits 0 when every commit went in, 1 when some failed (printed),
/// 2 when its variables are incomplete, 3 when the store cannot be opened.
enum HostWorker {
    static func run(environment: [String: String]) -> Never {
        typealias Variable = TestWorker.Variable
        guard let url = environment[Variable.hostURL], let folder = environment[Variable.hostFolder],
            let start = environment[Variable.hostStart], let name = environment[Variable.hostName],
            let commits = environment[Variable.hostCommitsPerSession].flatMap(Int.init)
        else {
            print("host worker: missing variables")
            exit(2)
        }
        let store: PostgresStore
        do {
            store = try PostgresStore.open(
                PostgresLocation(url: url, environment: [:]), folder: URL(fileURLWithPath: folder), listen: true,
                maximumConnections: 8)
        } catch {
            print("host worker \(name): open: \(error)")
            exit(3)
        }
        let photo = folder + "/photo.png"
        _ = FileManager.default.createFile(atPath: photo, contents: Data(DemoPNG.encode(width: 8, height: 8) { x, y in (UInt8(x), UInt8(y), 7) }))
        while access(start, F_OK) != 0 { usleep(200) }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { session in
            for index in 0..<commits {
                do throws(StorageError) {
                    var requestID: Int64?
                    if index % 5 == 0 {
                        requestID = try store.addRequest(
                            title: "\(name) \(session) \(index)", body: "", kind: .note, now: Date(), createdBy: name, requester: nil)
                    }
                    if index % 10 == 0 {
                        let staging = try store.beginStaging()
                        let staged = try staging.stage(fileAt: photo, originalName: "photo.png", maxBytes: 1 << 20)
                        try store.commitCapture(
                            CaptureSubmission(kind: .photos, requestID: requestID, photos: [staged]), staging: staging, now: Date(),
                            capturedBy: name)
                    } else {
                        try store.commitCapture(
                            CaptureSubmission(kind: .note, note: "\(name) \(session) \(index)", requestID: requestID), staging: nil,
                            now: Date(), capturedBy: name)
                    }
                } catch {
                    failures.withLock { $0.append(error.message) }
                }
            }
        }
        store.close()
        let found = failures.withLock { $0 }
        print("host worker \(name): \(8 * commits - found.count) commits, \(found.count) failures \(found.prefix(3))")
        exit(found.isEmpty ? 0 : 1)
    }
}
