import NIOHTTP1

/// What each path answers, made when it is asked for.
struct MetricsPages: Sendable {
    struct Page {
        var status: HTTPResponseStatus
        var body: String
        var contentType = "text/plain; charset=utf-8"
        var extraHeaders: [(String, String)] = []
    }

    /// The exposition text, made at each scrape.
    let metrics: @Sendable () -> String
    /// Whether the store answers.
    let ready: @Sendable () -> Bool

    func page(for path: String) -> Page {
        switch path {
        case "/metrics":
            Page(status: .ok, body: metrics(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        case "/healthz":
            Page(status: .ok, body: "ok\n")
        case "/readyz":
            ready() ? Page(status: .ok, body: "ready\n") : Page(status: .serviceUnavailable, body: "the store does not answer\n")
        default:
            Page(status: .notFound, body: "not found: /metrics, /healthz and /readyz are served here\n")
        }
    }
}
