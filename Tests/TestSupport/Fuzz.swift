import Foundation

/// A seeded source of hostile inputs for the fuzz tests (shared by SSHServerTests and
/// CommandTests): random bytes, words from a
/// list of what parsers trip on, and mutations of valid inputs. `TABSHELL_FUZZ_SEED` replays a
/// run (the seed is printed); `TABSHELL_FUZZ_COUNT` and `TABSHELL_FUZZ_SECONDS` bound each
/// target (defaults: 3000 inputs or 2 seconds, whichever comes first; `make fuzz` runs longer).
public struct Fuzz {
    private var random: SplitMix64
    public let seed: UInt64

    public init(_ target: String) {
        let environment = ProcessInfo.processInfo.environment
        seed = environment["TABSHELL_FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1..<(1 << 48))
        random = SplitMix64(seed: seed ^ UInt64(truncatingIfNeeded: target.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }))
        print("fuzz \(target): seed \(seed) (replay with TABSHELL_FUZZ_SEED=\(seed))")
    }

    public static var count: Int {
        ProcessInfo.processInfo.environment["TABSHELL_FUZZ_COUNT"].flatMap(Int.init) ?? 3000
    }

    public static var seconds: Double {
        ProcessInfo.processInfo.environment["TABSHELL_FUZZ_SECONDS"].flatMap(Double.init) ?? 2
    }

    /// Calls `body` with new inputs until the count or the time is used up; returns how many ran.
    /// Each call must take under `slowest` (bounded time per input).
    @discardableResult
    public mutating func run(slowest: Duration = .seconds(1), _ body: (inout Fuzz) throws -> Void) rethrows -> (runs: Int, slow: Int) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(Self.seconds * 1000)))
        var runs = 0
        var slow = 0
        while runs < Self.count, clock.now < deadline {
            let started = clock.now
            try body(&self)
            if clock.now - started > slowest { slow += 1 }
            runs += 1
        }
        return (runs, slow)
    }

    public mutating func next() -> UInt64 { random.next() }

    public mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// What parsers trip on: quotes, escapes, NUL and other controls, C1, bidi marks, line
    /// separators, long runs, key types, options.
    public static let hostileWords: [String] = [
        "", " ", "\t", "\n", "\r", "\0", "\u{1B}", "\u{1B}[31m", "\u{7}", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}",
        "\u{2066}", "\u{200F}", "\u{2028}", "\u{FEFF}", "é", "ß", "👩‍💻", "\u{301}", "'", "\"", "\\", "\\\"", "'\"'",
        "$HOME", "`id`", "$(id)", ";", "|", "&&", ">", "<", "*", "?", "~", "#", "=", ",", "--", "-", "--title",
        "--title=", "--body", "--kind", "--limit", "--json", "--format", "--db", "--as", "--output", "inbox", "add",
        "list", "import", "history", "export", "photos", "remove", "ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa",
        "AAAAC3NzaC1lZDI1NTE5AAAA", "command=\"x\"", "restrict", "from=\"*\"", "no-pty", "LANG", "LC_ALL", "C.UTF-8",
        "xterm-256color", "../..", "/", "%00", "%n", "\u{FFFD}", String(repeating: "a", count: 300),
        String(repeating: "\"", count: 50), String(repeating: "\\", count: 51),
    ]

    /// A random string: bytes decoded as UTF-8, hostile words, or a mix.
    public mutating func text(maxWords: Int = 12) -> String {
        switch below(3) {
        case 0:
            let bytes = (0..<below(200)).map { _ in UInt8(truncatingIfNeeded: next()) }
            return String(decoding: bytes, as: UTF8.self)
        case 1:
            return (0..<below(maxWords) + 1).map { _ in pick(Self.hostileWords) }.joined(separator: pick(["", " ", "\t"]))
        default:
            var scalars = String.UnicodeScalarView()
            for _ in 0..<below(60) {
                let value = pick([UInt32(below(0x80)), UInt32(below(0xA0)), UInt32(0x2000 + below(0x80)), UInt32(below(0x11_0000))])
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
            return String(scalars)
        }
    }

    /// `valid` changed a few times: characters inserted, deleted, replaced, chunks repeated.
    public mutating func mutate(_ valid: String) -> String {
        var characters = Array(valid)
        for _ in 0..<below(4) + 1 {
            let at = below(characters.count + 1)
            switch below(4) {
            case 0: characters.insert(contentsOf: Array(pick(Self.hostileWords)), at: at)
            case 1 where at < characters.count: characters.remove(at: at)
            case 2 where at < characters.count: characters[at] = Character(Unicode.Scalar(UInt8(below(0x80))))
            default:
                let end = min(characters.count, at + below(20))
                characters.insert(contentsOf: characters[at..<end], at: at)
            }
        }
        return String(characters)
    }
}
