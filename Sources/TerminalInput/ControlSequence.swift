import TabShell

/// One complete CSI or SS3 sequence as ECMA-48 frames it: an optional private marker
/// (`<`, `=`, `>`, `?`), parameters separated by `;` (each with `:` sub-parameters),
/// intermediate bytes (0x20–0x2F), and one final byte (0x40–0x7E).
struct ControlSequence: Equatable, Sendable {
    enum Introducer: Sendable { case csi, ss3 }

    var introducer: Introducer
    var privateMarker: Character?
    /// Parameters; each is its sub-parameters, nil where one was left empty (its default).
    var parameters: [[Int?]]
    var intermediates: String
    var final: Character

    /// Splits the bytes between the introducer and the final byte.
    init(introducer: Introducer, body: [UInt8], final: UInt8) {
        self.introducer = introducer
        self.final = Character(Unicode.Scalar(final))
        var body = body[...]
        if let first = body.first, (0x3C...0x3F).contains(first) {
            privateMarker = Character(Unicode.Scalar(first))
            body = body.dropFirst()
        } else {
            privateMarker = nil
        }
        let parameterBytes = body.prefix { (0x30...0x3F).contains($0) }
        intermediates = String(decoding: body.dropFirst(parameterBytes.count), as: UTF8.self)
        let text = String(decoding: parameterBytes, as: UTF8.self)
        parameters =
            text.isEmpty
            ? []
            : text.split(separator: ";", omittingEmptySubsequences: false).map { parameter in
                parameter.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            }
    }

    /// The first sub-parameter of parameter `index`, or nil when absent or empty.
    func number(_ index: Int) -> Int? {
        index < parameters.count ? parameters[index].first ?? nil : nil
    }

    /// Modifiers as xterm encodes them in a parameter: 1 + a bit set (Shift 1, Alt 2, Ctrl 4,
    /// Meta 8). Absent or 1 is none.
    func modifiers(at index: Int) -> KeyModifiers {
        guard let value = number(index), value > 1 else { return [] }
        return KeyModifiers(rawValue: (value - 1) & 0xF)
    }

    /// The whole sequence written out again, for replies the app may want to read.
    var text: String {
        let introducerText = introducer == .csi ? "\u{1B}[" : "\u{1B}O"
        let parameterText = parameters.map { $0.map { $0.map(String.init) ?? "" }.joined(separator: ":") }
            .joined(separator: ";")
        return introducerText + (privateMarker.map(String.init) ?? "") + parameterText + intermediates + String(final)
    }
}
