import ArgumentParser
import Domain
import Foundation
import Logging
import Storage
import TabShell

/// Ends a command's output: a reader that closed the pipe (`| head`) ends the command quietly
/// with status 141, as if SIGPIPE had ended it, which is what shells expect of a Unix tool.
public func finishing(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch OutputSink.OutputError.closedByReader {
        throw ExitStatus.brokenPipe
    } catch let error as OutputSink.OutputError {
        throw Failure(error.sentence)
    }
}

/// Writes `text` as a command's whole output, through ``finishing(_:)``.
public func finishing(_ context: CommandContext, writing text: String) throws {
    try finishing {
        try context.output.write(text)
        try context.output.finish()
    }
}

/// Exit statuses with a meaning of their own.
public enum ExitStatus {
    /// 128 + SIGPIPE: the reader went away.
    public static let brokenPipe = ExitCode(128 + SIGPIPE)
}

/// The bytes of an import's FILE, or of standard input for `-`, refused past `maximumBytes`
/// (`inbox import`, `history import`); `source` names it in sentences. A pipe or a process
/// substitution (`<(curl …)`) is read like standard input: at most one byte past the limit, so
/// the import itself says it is too large.
func readImportFile(_ file: String, source: String, maximumBytes: Int, context: CommandContext) throws -> Data {
    if file == "-" { return try context.readInput() }
    func refused(_ code: Int32) -> Failure { Failure("Cannot read \(source): \(DurableFiles.reason(errno: code)).") }
    let descriptor = open((file as NSString).expandingTildeInPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw refused(errno) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw refused(errno) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw refused(EISDIR) }
    if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > maximumBytes {
        throw Failure("\(source) is larger than \(maximumBytes >> 20) MiB; nothing was imported.")
    }
    guard let data = readBounded(descriptor, limit: maximumBytes) else { throw refused(errno) }
    return data
}

/// What `descriptor` holds up to its end, read at most one byte past `limit`: enough to refuse
/// a too-big input without holding all of it. Nil when a read fails (errno says why).
func readBounded(_ descriptor: Int32, limit: Int) -> Data? {
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while data.count <= limit {
        let count = chunk.withUnsafeMutableBytes { DurableFiles.readFully(descriptor, into: $0, count: $0.count) }
        guard count >= 0 else { return nil }
        data.append(contentsOf: chunk[..<count])
        if count < chunk.count { break }  // the end
    }
    return data
}

/// A refused import (`inbox import`, `history import`): its first problems printed on standard
/// error (enough to fix a file: a wrong key is usually wrong in every entry) with a count of the
/// rest, the refusal logged as "`logName` refused", and the failure it ends with: "3 problems in
/// FILE; nothing was imported.", or "More than 1,000 problems in FILE; …" when the list was cut.
func importRefusal(_ problems: [ImportProblem], source: String, logName: String, context: CommandContext, logger: Logger) -> Failure {
    for problem in problems.prefix(importProblemsShown) { context.warn("\(source): \(problem)") }
    if ImportLimits.isCut(problems) {
        context.warn("\(source): … and more: the file was read no further.")
    } else if problems.count > importProblemsShown {
        context.warn("\(source): … and \(problems.count - importProblemsShown) more.")
    }
    logger.warning("\(logName) refused", metadata: ["problems": "\(problems.count)", "file": "\(source)"])
    let count =
        ImportLimits.isCut(problems)
        ? "More than \(Count.noun(ImportLimits.maximumProblems, "problem"))" : Count.noun(problems.count, "problem")
    return Failure("\(count) in \(source); nothing was imported.")
}

/// How many problems of a refused import file are listed (all are counted).
let importProblemsShown = 20
