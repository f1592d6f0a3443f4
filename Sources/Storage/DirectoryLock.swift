import Foundation

/// The exclusive `flock` on `<staging dir>/lock` that says "this folder belongs to a live
/// capture". The kernel drops it when its process dies, however it dies, so a folder whose lock
/// can be taken has no owner left.
///
/// The rule every party follows: whoever holds the lock *and* finds that the path `lock` still
/// names the file it locked owns the folder. An owner removing the folder unlinks `lock` last and
/// releases it after `rmdir`, so a party that locked the old file in between sees the mismatch and
/// backs off instead of adopting a folder that is going away.
final class DirectoryLock {
    /// The name of the lock file inside the folder it guards.
    static let fileName = "lock"

    enum Outcome {
        /// The caller now owns the folder.
        case acquired(DirectoryLock)
        /// A live process (possibly this one) holds the lock.
        case busy
        /// The folder or its lock file is gone or going away.
        case gone
    }

    let directory: String
    private var fd: Int32

    private init(directory: String, fd: Int32) {
        self.directory = directory
        self.fd = fd
    }

    /// How long a lock that another process holds may be waited for. A lock this process
    /// released is never seen held: `release()` unlocks the open file description explicitly,
    /// so a child forked while the descriptor was open (posix_spawn from another thread: the
    /// test runner's end-to-end tests spawn tmux every 50 ms) and still holding a copy of it
    /// until its exec holds no lock — closing our descriptor alone would leave the flock alive
    /// in that copy, which once outlasted a 100 ms grace on a loaded 2-core CI run.
    static let releaseGrace: Duration = .milliseconds(500)

    /// Tries to own `directory` without blocking (looking again for `grace` while the lock is
    /// held); creates the lock file (0600) if needed.
    static func acquire(_ directory: String, grace: Duration = .zero) -> Outcome {
        let path = directory + "/" + fileName
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .gone }
        let deadline = ContinuousClock.now.advanced(by: grace)
        var result: Int32
        while true {
            repeat { result = flock(fd, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
            guard result != 0, errno == EWOULDBLOCK, ContinuousClock.now < deadline else { break }
            usleep(5_000)
        }
        guard result == 0 else {
            _ = close(fd)
            return .busy
        }
        var locked = stat(), named = stat()
        guard fstat(fd, &locked) == 0, lstat(path, &named) == 0,
            locked.st_dev == named.st_dev, locked.st_ino == named.st_ino
        else {
            _ = close(fd)
            return .gone
        }
        return .acquired(DirectoryLock(directory: directory, fd: fd))
    }

    var isHeld: Bool { fd >= 0 }

    /// Releases the lock. Calling it again does nothing. The unlock comes before the close:
    /// `flock` belongs to the open file description, which a forked child's inherited copy of
    /// the descriptor shares until its exec, and `LOCK_UN` releases it for every copy at once.
    func release() {
        guard fd >= 0 else { return }
        _ = flock(fd, LOCK_UN)
        _ = close(fd)
        fd = -1
    }

    /// Removes the folder and everything in it, the lock file last, then releases the lock.
    @discardableResult
    func removeDirectory() -> Bool {
        let removed = DurableFiles.removeTree(directory, lockName: Self.fileName)
        release()
        return removed
    }

    deinit {
        release()
    }
}
