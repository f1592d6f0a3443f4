import ArgumentParser
import Domain
import Foundation
import Recording
import TabShell
import TabShellCommands

/// `tabshell replay FILE`: plays a recording (`serve --record`, `--record`, or asciinema's own
/// v2 casts) in this terminal, with no network and no database.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a recording (asciicast v2, as serve --record and --record write) in this terminal.",
        discussion: """
            Plays at the recorded speed, pauses longer than the idle limit shortened to it. Keys: space pauses and \
            resumes, → skips the current pause, q or Ctrl-C quits; it ends by itself at the end. What a cast could \
            use against the terminal playing it is not played: OSC (clipboard, titles, links), DCS, APC, PM and \
            SOS strings, queries whose answers would be typed back, mouse and key modes (docs/ssh-server.md, \
            "Recording and replay"). Files over 64 MiB, lines over 1 MiB and casts of more than a million events \
            are refused.
            """
    )

    @Argument(help: ArgumentHelp("The cast to play.", valueName: "file"), completion: .file(extensions: ["cast"]))
    var file: String

    @Option(
        help: ArgumentHelp(
            "Pauses longer than this many seconds play as this long (default: 3, or the cast's own idle_time_limit when smaller).",
            valueName: "seconds"))
    var idleLimit: Double?

    @Option(help: ArgumentHelp("Play faster (2) or slower (0.5).", valueName: "factor"))
    var speed = 1.0

    func validate() throws {
        if let idleLimit, !(0.01...86400).contains(idleLimit) {
            throw ValidationError("--idle-limit must be between 0.01 and 86400 seconds.")
        }
        if !(0.1...100).contains(speed) {
            throw ValidationError("--speed must be between 0.1 and 100.")
        }
    }

    func run() throws {
        let cast: Cast
        do {
            cast = try CastReader.read(path: file)
        } catch {
            throw Failure(Self.sentence(for: error, file: file))
        }
        let limit = idleLimit ?? min(CastPlayback.defaultIdleLimit, cast.header.idleTimeLimit ?? CastPlayback.defaultIdleLimit)
        switch try CastPlayer.play(cast, idleLimit: limit, speed: speed) {
        case .finished, .quit: return
        case .signal(let signal): throw ExitCode(128 + signal)
        case .terminalGone: throw ExitCode(129)
        }
    }

    /// One sentence with the file as its subject: `No such file: FILE.`, `FILE is not an asciicast
    /// recording: …` for the whole file, `FILE cannot be replayed: line 3: …` for one line.
    static func sentence(for error: CastReadError, file: String) -> String {
        let name = Sanitizer(unicode: true).line(file)
        if error == .noSuchFile { return "No such file: \(name)." }
        if let line = error.line { return "\(name) cannot be replayed: line \(line): \(error.sentence)." }
        // The reader says what the whole file is as "it is …": the file's name takes its place.
        let predicate = error.sentence.hasPrefix("it ") ? String(error.sentence.dropFirst(3)) : "cannot be replayed: \(error.sentence)"
        return "\(name) \(predicate)."
    }
}

/// `--record`, for the app (a file for this session) and for `serve` (a folder for its
/// sessions). argument-parser hands an option to both only when both declare the same type.
struct RecordOption: ParsableArguments {
    @Option(
        name: .customLong("record"),
        help: ArgumentHelp(
            "Record as asciicast v2, for tabshell replay: the app records this session into FILE (made 0600; an existing file is never overwritten); serve records terminal sessions into the folder DIR, as its overview says.",
            valueName: "file|dir"),
        completion: .file())
    var path: String?
}
