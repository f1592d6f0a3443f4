import ArgumentParser
import Domain
import Foundation
import Storage
import TabShell

#if canImport(Glibc)
import Glibc
#endif

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
/// (`inbox import`, `history import`); `source` names it in sentences.
func readImportFile(_ file: String, source: String, maximumBytes: Int, context: CommandContext) throws -> Data {
    do {
        if file == "-" { return try context.readInput() }
        let path = (file as NSString).expandingTildeInPath
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes[.size] as? Int, size > maximumBytes {
            throw Failure("\(source) is larger than \(maximumBytes >> 20) MiB; nothing was imported.")
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch let failure as Failure {
        throw failure
    } catch {
        throw Failure("Cannot read \(source): \((error as NSError).localizedDescription)")
    }
}

/// Prints the first problems of a refused import (enough to fix a file: a wrong key is usually
/// wrong in every entry) and a count of the rest, on standard error.
func warnProblems(_ problems: [ImportProblem], source: String, context: CommandContext) {
    for problem in problems.prefix(importProblemsShown) { context.warn("\(source): \(problem)") }
    if ImportLimits.isCut(problems) {
        context.warn("\(source): … and more: the file was read no further.")
    } else if problems.count > importProblemsShown {
        context.warn("\(source): … and \(problems.count - importProblemsShown) more.")
    }
}

/// The sentence a refused import ends with: "3 problems in FILE; nothing was imported.", or
/// "More than 1,000 problems in FILE; …" when the list was cut.
func refusedImport(_ problems: [ImportProblem], source: String) -> String {
    let count =
        ImportLimits.isCut(problems)
        ? "More than \(Count.noun(ImportLimits.maximumProblems, "problem"))" : Count.noun(problems.count, "problem")
    return "\(count) in \(source); nothing was imported."
}

/// How many problems of a refused import file are listed (all are counted).
let importProblemsShown = 20
