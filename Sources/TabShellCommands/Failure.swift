import Domain
import Foundation

/// A failure a user can meet: printed as one sentence on stderr, exit status 1. A command lets
/// a `StorageError` through as it is: its description is its sentence too (so is every error's
/// of the app, which a command re-wraps as `Failure("\(error)")` where it catches any error).
public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public init(_ sentence: String) { description = sentence }
}

/// An error message as it may be printed: each line made safe by ``Sanitizer``. argument-parser's
/// messages quote what was typed (`--bogus…`) or, under `tabshell serve`, what a client sent.
public func printableMessage(_ message: String, unicode: Bool) -> String {
    Sanitizer(unicode: unicode).lines(message).joined(separator: "\n")
}
