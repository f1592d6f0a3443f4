import Foundation
import TestSupport
import Testing

@testable import Storage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("The staging folder's lock")
struct DirectoryLockTests {
    @Test func aReleasedLockIsFreeWhileAChildStillHoldsACopyOfItsDescriptor() throws {
        // Given a held lock whose descriptor a child process inherited (as a child forked by
        // another thread between its fork and its exec does)
        let temp = try TemporaryFolder(prefix: "DirectoryLock")
        guard case .acquired(let lock) = DirectoryLock.acquire(temp.path) else {
            Issue.record("the lock of a new folder was not acquired")
            return
        }
        let descriptor = try #require(Self.descriptor(naming: temp.path("lock")))
        let flags = fcntl(descriptor, F_GETFD)
        _ = fcntl(descriptor, F_SETFD, flags & ~FD_CLOEXEC)
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
        defer { for argument in argv { free(argument) } }
        let spawned = posix_spawn(&child, "/bin/sleep", nil, nil, argv, environ)
        _ = fcntl(descriptor, F_SETFD, flags)
        try #require(spawned == 0)
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(child, &status, 0)
        }

        // When this process releases it
        lock.release()

        // Then another owner takes it at once, with no grace, while the child still lives
        guard case .acquired(let next) = DirectoryLock.acquire(temp.path) else {
            Issue.record("a released lock still looked held through the child's copy of its descriptor")
            return
        }
        #expect(kill(child, 0) == 0)
        next.release()
    }

    /// This process's descriptor open on `path`, found through /proc/self/fd.
    static func descriptor(naming path: String) -> Int32? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        for entry in entries {
            guard let number = Int32(entry),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                target == path
            else { continue }
            return number
        }
        return nil
    }
}
