import ArgumentParser
import TabShellCommands

/// `tabshell mcp`: an MCP server on standard input and output, for AI agents.
struct MCPCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the Model Context Protocol on standard input and output, so an AI agent can ask a person for a capture.",
        discussion: """
            An agent's client starts it: command tabshell, args ["mcp"]. Its tools file a request in the Inbox \
            (request_capture), wait for a person to answer it (wait_for_answer), and read requests and records, photos \
            included (list_requests, search_records, get_record). It runs until the agent closes its end.
            """
    )

    @OptionGroup var options: AgentServe
}
