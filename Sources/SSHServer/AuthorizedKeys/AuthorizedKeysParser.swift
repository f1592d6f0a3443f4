import Foundation
import NIOSSH

/// Parses OpenSSH's authorized_keys format (sshd(8), "AUTHORIZED_KEYS FILE FORMAT"):
/// `[options] keytype base64 comment`, one key a line, `#` comments and blank lines ignored.
///
/// Only what swift-nio-ssh can verify is accepted (Ed25519, ECDSA P-256/384/521), and only
/// options that narrow what this server never allows anyway. Everything else is a problem
/// naming its line: nothing is silently accepted.
enum AuthorizedKeysParser {
    static let supportedTypes: Set<String> = [
        "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
    ]

    /// Options whose restriction the server already applies to everyone.
    static let alreadyEnforcedOptions: Set<String> = [
        "restrict", "no-port-forwarding", "no-agent-forwarding", "no-x11-forwarding", "no-user-rc",
    ]

    static let useSupportedKeySentence =
        "use an Ed25519 key (`ssh-keygen -t ed25519`) or an ECDSA key (`ssh-keygen -t ecdsa`) instead"

    static func parse(_ text: String) -> (keys: [AuthorizedKey], problems: [AuthorizedKeysProblem]) {
        var keys: [AuthorizedKey] = []
        var problems: [AuthorizedKeysProblem] = []
        var seen: [NIOSSHPublicKey: AuthorizedKey] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            switch parseLine(line, number: lineNumber) {
            case .success(let key):
                if let earlier = seen[key.publicKey] {
                    problems.append(
                        .init(
                            line: lineNumber,
                            sentence:
                                "this key is already on line \(earlier.line) (for \(earlier.name)); this line is ignored"))
                } else {
                    seen[key.publicKey] = key
                    keys.append(key)
                }
            case .failure(let problem):
                problems.append(problem)
            }
        }
        return (keys, problems)
    }

    private static func parseLine(_ line: String, number: Int) -> Result<AuthorizedKey, AuthorizedKeysProblem> {
        func problem(_ sentence: String) -> Result<AuthorizedKey, AuthorizedKeysProblem> {
            // The sentence may quote the line (a comment, a type, an option): printable only.
            .failure(AuthorizedKeysProblem(line: number, sentence: ClientText.printable(sentence, limit: 500)))
        }
        var rest = Substring(line)
        let first = nextToken(&rest)
        var keyType = first
        if !looksLikeKeyType(first) {
            let names: [String]
            do { names = try parseOptions(first) } catch { return problem(error.sentence) }
            if let option = names.first(where: { !alreadyEnforcedOptions.contains($0.lowercased()) }) {
                return problem("the option `\(option)` is not implemented by this server, so this key is refused")
            }
            keyType = nextToken(&rest)
        }
        let base64 = nextToken(&rest)
        let comment = rest.trimmingCharacters(in: .whitespaces)

        if keyType.isEmpty || base64.isEmpty {
            return problem("there is no key on this line")
        }
        if let sentence = unsupportedTypeSentence(keyType, owner: comment) {
            return problem(sentence)
        }
        guard let blob = Data(base64Encoded: base64) else {
            return problem("the key data is not valid base64")
        }
        var reader = SSHWireReader(Array(blob))
        guard reader.readUTF8String() == keyType else {
            return problem("the key data is not a \(keyType) key")
        }
        let publicKey: NIOSSHPublicKey
        do {
            publicKey = try NIOSSHPublicKey(openSSHPublicKey: "\(keyType) \(base64)")
        } catch {
            return problem("the key data is not a valid \(keyType) key")
        }
        if comment.isEmpty {
            return problem("the key has no comment; the comment is the person's name (add it after the key)")
        }
        if comment.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) {
            return problem("the comment (the person's name) contains control characters")
        }
        return .success(AuthorizedKey(name: comment, line: number, publicKey: publicKey))
    }

    private static func looksLikeKeyType(_ token: String) -> Bool {
        supportedTypes.contains(token) || token.hasPrefix("ssh-") || token.hasPrefix("ecdsa-")
            || token.hasPrefix("sk-") || token.hasPrefix("rsa-sha2-") || token.contains("-cert-v01@")
    }

    private static func unsupportedTypeSentence(_ type: String, owner: String) -> String? {
        if supportedTypes.contains(type) { return nil }
        let who = owner.isEmpty ? "its owner" : owner
        if type == "ssh-rsa" || type.hasPrefix("rsa-sha2-") {
            return "RSA keys are not supported by this server (swift-nio-ssh cannot verify them); \(who) should \(useSupportedKeySentence)"
        }
        if type == "ssh-dss" {
            return "DSA keys are not supported; \(who) should \(useSupportedKeySentence)"
        }
        if type.contains("-cert-v01@") {
            return "certificates (\(type)) are not supported; list the plain key instead"
        }
        if type.hasPrefix("sk-") {
            return "security-key types (\(type)) are not supported; \(who) should \(useSupportedKeySentence)"
        }
        return "the key type `\(type)` is not known"
    }

    /// The next whitespace-separated token; quotes (with `\"` escapes) keep spaces inside.
    private static func nextToken(_ rest: inout Substring) -> String {
        rest = rest.drop(while: { $0 == " " || $0 == "\t" })
        var token = ""
        var quoted = false
        var escaped = false
        while let character = rest.first {
            if !quoted, character == " " || character == "\t" { break }
            rest.removeFirst()
            token.append(character)
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            }
        }
        return token
    }

    /// Option names from `name,name="value",…`, or a sentence when the list is malformed.
    private static func parseOptions(_ text: String) throws(OptionsError) -> [String] {
        var names: [String] = []
        var current = ""
        var inValue = false
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
                continue
            }
            if quoted {
                if character == "\\" { escaped = true } else if character == "\"" { quoted = false }
                continue
            }
            switch character {
            case "\"":
                quoted = true
            case "=":
                inValue = true
            case ",":
                names.append(current)
                current = ""
                inValue = false
            default:
                if !inValue { current.append(character) }
            }
        }
        if quoted {
            throw OptionsError("the options have an unterminated quote")
        }
        names.append(current)
        if names.contains(where: \.isEmpty) {
            throw OptionsError("the options are malformed (an empty option)")
        }
        return names
    }

    struct OptionsError: Error {
        let sentence: String
        init(_ sentence: String) { self.sentence = sentence }
    }
}
