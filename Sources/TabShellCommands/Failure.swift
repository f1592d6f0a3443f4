import Domain
import Foundation
import Storage
import TabShell

/// A failure a user can meet: printed as one sentence on stderr, exit status 1. A command lets
/// a `StorageError` through as it is: its description is its sentence too.
public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public init(_ sentence: String) { description = sentence }
}

public func sentence(for error: any Error) -> String {
    if let error = error as? StorageError { return error.message }
    if let failure = error as? Failure { return failure.description }
    return "\(error)"
}

/// An error message as it may be printed: each line made safe by ``Sanitizer``. argument-parser's
/// messages quote what was typed (`--bogus…`) or, under `tabshell serve`, what a client sent.
public func printableMessage(_ message: String, unicode: Bool) -> String {
    Sanitizer(unicode: unicode).lines(message).joined(separator: "\n")
}
