import Glibc

/// Runs `body` with `strings` as C's argument or environment vector: copies of each string
/// followed by a null pointer, alive while `body` runs and freed after it.
public func withCStringArray<Result, Failure: Error>(
    _ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws(Failure) -> Result
) throws(Failure) -> Result {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return try body(&pointers)
}
