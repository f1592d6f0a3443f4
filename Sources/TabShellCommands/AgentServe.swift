import ArgumentParser
import Foundation
import MCPServer
import Storage

/// `tabshell mcp`: the MCP server an agent starts (command `tabshell`, args `["mcp"]`) on its
/// standard input and output, over the same store as the app. What the agent files is from
/// `--as` (default the Unix user); the server runs until the agent closes its end.
public struct AgentServe: CommandBody {
    public static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the Model Context Protocol on standard input and output, so an AI agent can ask a person for a capture.",
        discussion: """
            An agent's client starts it: command tabshell, args ["mcp"]. Its tools file a request in the Inbox \
            (request_capture), wait for a person to answer it (wait_for_answer), and read requests and records, photos \
            included (list_requests, search_records, get_record). It runs until the agent closes its end.
            """
    )

    @OptionGroup public var database: DatabaseOptions

    @OptionGroup public var identity: IdentityOptions

    @Option(help: ArgumentHelp("The longest wait_for_answer may wait, in seconds (1-3600).", valueName: "seconds"))
    public var longestWait: Int = 600

    @Option(help: ArgumentHelp("Requests an agent may file in a minute (1-10000).", valueName: "n"))
    public var requestsPerMinute: Int = 60

    public init() {}

    public func validate() throws {
        guard (1...3600).contains(longestWait) else { throw ValidationError("--longest-wait must be from 1 to 3600 seconds.") }
        guard (1...10_000).contains(requestsPerMinute) else { throw ValidationError("--requests-per-minute must be from 1 to 10000.") }
    }

    public func execute(_ context: CommandContext) throws {
        umask(0o077)
        // Other hosts' commits must be heard: a wait wakes on them.
        let (logger, store) = try database.open(context, listen: true)
        var limits = AgentDesk.Limits()
        limits.longestWait = Double(longestWait)
        limits.requestsPerMinute = requestsPerMinute
        let desk = AgentDesk(store: store, person: identity.person, limits: limits)
        AgentServer.run(desk: desk, version: Self.version, logger: logger)
    }

    /// The version `initialize` reports (the root command's).
    public static let version = "0.1.0"
}
