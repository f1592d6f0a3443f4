import Foundation
import Logging
import MCP
import Storage

/// `tabshell mcp`: an MCP server on a pair of descriptors (standard input and output), whose
/// tools file requests in the Inbox and hand back what a person captured. It knows the store
/// only through `RecordStore`, and draws nothing.
public enum AgentServer {
    /// The server's name and version as the client's `initialize` sees them.
    public static let name = "tabshell"

    /// Serves until the client closes its end (or sends EOF). Blocks the calling thread, which
    /// must not be one of Swift's cooperative threads (the command's main thread is not).
    public static func run(desk: AgentDesk, version: String, input: Int32 = 0, output: Int32 = 1, logger: Logger) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await serve(desk: desk, version: version, input: input, output: output, logger: logger)
            done.signal()
        }
        done.wait()
    }

    static func serve(desk: AgentDesk, version: String, input: Int32, output: Int32, logger: Logger) async {
        let server = Server(
            name: name, version: version,
            instructions: """
                tabshell puts a person at a terminal between you and the physical world: file a request with \
                request_capture (what to scan or photograph), then wait_for_answer with its id; the person's capture \
                comes back with its photos as images.
                """,
            capabilities: .init(tools: .init(listChanged: false)))
        let limits = desk.limits
        await server.withMethodHandler(ListTools.self) { _ in
            .init(tools: AgentTool.definitions(limits: limits))
        }
        await server.withMethodHandler(CallTool.self) { [weak server] call in
            let heartbeat = server.flatMap { Self.waitProgress(for: call, on: $0, limits: limits) }
            defer { heartbeat?.cancel() }
            let result = await desk.call(call.name, arguments: call.arguments)
            logger.info("mcp: \(call.name.prefix(64))\(result.isError == true ? " refused" : "")", metadata: ["person": "\(desk.person)"])
            return result
        }
        let transport = LineTransport(input: input, output: output, logger: logger)
        do {
            try await server.start(transport: transport)
            logger.info("mcp: serving", metadata: ["person": "\(desk.person)"])
            await server.waitUntilCompleted()
            // The client closed its end: answer the requests still in flight (waits end at
            // once), for at most a few seconds, then go.
            desk.close()
            await transport.drained(within: .seconds(5))
        } catch {
            logger.error("mcp: the server stopped: \(error)")
        }
        logger.info("mcp: client closed", metadata: ["person": "\(desk.person)"])
    }

    /// A `wait_for_answer` whose client asked for progress (a `progressToken` in its `_meta`)
    /// says every ``AgentDesk/Limits/progressInterval`` that it is still waiting: the seconds
    /// waited out of the timeout, and a sentence. A client that times a request out unless it
    /// hears progress (as the TypeScript SDK can, after 60 s) keeps a long wait alive this way.
    /// Arguments the desk refuses get none (the call ends at once).
    static func waitProgress(for call: CallTool.Parameters, on server: Server, limits: AgentDesk.Limits) -> Task<Void, Never>? {
        guard call.name == AgentTool.waitForAnswer.rawValue, let token = call._meta?.progressToken else { return nil }
        let arguments = ToolArguments(tool: call.name, call.arguments)
        guard let total = try? arguments.seconds("timeout_seconds", in: 0...limits.longestWait, fallback: 60),
            let request = try? arguments.integer("request_id", in: ToolArguments.idRange)
        else { return nil }
        let start = ContinuousClock.now
        return Task {
            while true {
                do { try await Task.sleep(for: limits.progressInterval) } catch { return }
                let waited = min(Double((ContinuousClock.now - start).components.seconds), total)
                let progress = ProgressNotification.Parameters(
                    progressToken: token, progress: waited, total: total,
                    message: "Waiting for a person to answer request #\(request): \(Int(waited)) of \(Int(total)) s.")
                do { try await server.notify(ProgressNotification.message(progress)) } catch { return }
            }
        }
    }
}
