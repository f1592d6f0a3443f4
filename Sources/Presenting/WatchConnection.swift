import Foundation

/// The watcher's side: connected to a presentation by its code, reading its frames.
public final class WatchConnection: @unchecked Sendable {
    public let code: WatchCode
    private let fd: Int32
    private var reader = PresentFrameReader()
    private var isClosed = false

    /// Connects to the presentation `code` names and tells it who watches (`name`: the person
    /// `serve` says, else the user's name), or says in one sentence why not.
    public init(code: WatchCode, directory: PresentDirectory, name: String = NSUserName()) throws(PresentError) {
        guard let fd = UnixSocket.connect(to: directory.socketPath(for: code)) else {
            throw PresentError("No presentation has the code \(code); check the code on the presenter's screen.")
        }
        self.code = code
        self.fd = fd
        if let hello = PresentFrame.hello(name: name).encoded() { _ = UnixSocket.writeAll(fd, hello) }
    }

    deinit {
        leave()
    }

    /// Leaves the presentation (the room counts one watcher less).
    public func leave() {
        guard !isClosed else { return }
        isClosed = true
        close(fd)
    }

    /// The descriptor to wait on (readable: call `read`).
    public var descriptor: Int32 { fd }

    /// What one read brought.
    public enum News: Equatable, Sendable {
        /// Newest state first is not promised: the last one is the one to draw.
        case states([Data])
        /// The presenter left (or the connection broke, which is the same to a watcher).
        case ended
        /// The presentation takes no more watchers.
        case full
    }

    /// Reads what is waiting (blocks until something is when nothing is).
    public func read() -> News {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count < 0, errno == EINTR || errno == EAGAIN { return .states([]) }
        guard count > 0 else { return .ended }
        let frames: [PresentFrame]
        do {
            frames = try reader.append(Data(buffer[0..<count]))
        } catch {
            return .ended
        }
        var states: [Data] = []
        for frame in frames {
            switch frame.kind {
            case .state: states.append(frame.payload)
            case .ended: return .ended
            case .full: return .full
            case .hello: continue
            }
        }
        return .states(states)
    }
}
