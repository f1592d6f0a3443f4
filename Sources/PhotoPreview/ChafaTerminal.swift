import CChafa
import Foundation

/// The terminal description chafa prints graphics with. chafa's database picks sequences from
/// environment variables; tabshell has already chosen the protocol by asking the terminal, so
/// this hands chafa a made-up environment naming a terminal that speaks exactly that protocol.
enum ChafaTerminal {
    /// A new reference (release with chafa_term_info_unref), or nil.
    static func info(for graphics: GraphicsProtocol) -> OpaquePointer? {
        guard let database = chafa_term_db_get_default() else { return nil }
        let environment: [String]
        switch graphics {
        case .kitty: environment = ["TERM=xterm-kitty"]
        case .sixel: environment = ["TERM=mlterm"]
        case .iterm2: environment = ["TERM=xterm-256color", "TERM_PROGRAM=iTerm.app"]
        }
        var strings = environment.map { strdup($0) }
        defer { for pointer in strings { free(pointer) } }
        strings.append(nil)
        guard let info = strings.withUnsafeMutableBufferPointer({ chafa_term_db_detect(database, $0.baseAddress) }) else {
            return nil
        }
        if graphics == .kitty, !quietKitty(info) {
            chafa_term_info_unref(info)
            return nil
        }
        return info
    }

    /// chafa's kitty sequence asks the terminal to answer "OK" for every image, and those answers
    /// would arrive as input in the middle of the user's keys. q=2 keeps the terminal quiet.
    private static func quietKitty(_ info: OpaquePointer) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let sequence = "\u{1B}_Ga=T,q=2,f=%1,s=%2,v=%3,c=%4,r=%5,m=1\u{1B}\\"
        chafa_term_info_set_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1, sequence, &error)
        if let error {
            g_error_free(error)
            return false
        }
        return true
    }
}
