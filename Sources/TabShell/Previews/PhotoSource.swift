import Foundation

/// Which photo file a preview shows. The model names photos by their stored name only (a UUID
/// and an extension that storage generated, never user input); the effect runner turns that
/// into a path, so no path ever passes through the model.
public enum PhotoSource: Hashable, Sendable {
    /// A photo staged by the capture on screen, in its staging folder.
    case staged(storedName: String)
    /// A committed photo of a History record, in the media folder.
    case stored(storedName: String)

    /// The stored name, whichever folder it is in.
    public var storedName: String {
        switch self {
        case let .staged(name), let .stored(name): name
        }
    }
}
