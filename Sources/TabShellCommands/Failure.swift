import Foundation
import Storage

/// A failure a user can meet: printed as one sentence on stderr, exit status 1.
public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public init(_ sentence: String) { description = sentence }
}

public func sentence(for error: any Error) -> String {
    if let error = error as? StorageError { return error.message }
    if let failure = error as? Failure { return failure.description }
    return "\(error)"
}
