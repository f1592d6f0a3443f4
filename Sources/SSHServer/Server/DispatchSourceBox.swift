import Dispatch

/// Dispatch sources are thread-safe (resume, cancel and the handlers may be used from any
/// thread), but the protocol is not marked Sendable; this box says so once.
struct DispatchSourceBox: @unchecked Sendable {
    let source: any DispatchSourceProtocol
}
