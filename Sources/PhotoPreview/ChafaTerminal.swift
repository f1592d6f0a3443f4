import CChafa
import Foundation

/// The terminal description chafa prints graphics with. chafa's database picks sequences from
/// environment variables; tabshell has already chosen the protocol by asking the terminal, so
/// this hands chafa a made-up environment naming a terminal that speaks exactly that protocol.
enum ChafaTerminal {
    static func info(for graphics: GraphicsProtocol) -> OpaquePointer? {
        guard let database = chafa_term_db_get_default() else { return nil }
        let environment: [String]
        switch graphics {
        case .kitty: environment = ["TERM=xterm-kitty"]
        case .sixel: environment = ["TERM=mlterm"]
        case .iterm2: environment = ["TERM=xterm-256color", "TERM_PROGRAM=iTerm.app"]
        }
        var strings = environment.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        strings.append(nil)
        return strings.withUnsafeMutableBufferPointer { pointers in
            chafa_term_db_detect(database, pointers.baseAddress)
        }
    }
}
