import Crypto
import NIOSSH
import Testing

@testable import SSHServer

@Suite struct AuthorizedKeysParserTests {
    let alice = String(openSSHPublicKey: NIOSSHPrivateKey(ed25519Key: .init()).publicKey)
    let bob = String(openSSHPublicKey: NIOSSHPrivateKey(p384Key: .init()).publicKey)
    let carol = String(openSSHPublicKey: NIOSSHPrivateKey(p256Key: .init()).publicKey)
    let rsa = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDdummyDummyDummy"

    @Test func keysAreAcceptedWithTheCommentAsTheName() throws {
        let text = """
            # the team
            \(alice) Alice Martin

            restrict,no-port-forwarding \(bob) bob
            """

        let (keys, problems) = AuthorizedKeysParser.parse(text)

        #expect(problems.isEmpty)
        #expect(keys.map(\.name) == ["Alice Martin", "bob"])
        #expect(keys.map(\.line) == [2, 4])
        let fingerprint = SSHKeyFingerprint(keys[1].publicKey)
        #expect(fingerprint.typeLabel == "ECDSA" && fingerprint.bits == 384)
    }

    @Test func eachLineTheServerCannotHonourIsReportedByNumber() throws {
        let text = """
            \(alice) alice
            \(rsa) dave
            command="tabshell --as eve" \(carol) eve
            \(carol)
            \(alice) alice again
            ssh-ed25519 !!!notbase64 frank
            sk-ssh-ed25519@openssh.com AAAA gina
            from="10.0.0.0/8",no-pty \(bob) bob
            """

        let (keys, problems) = AuthorizedKeysParser.parse(text)

        #expect(keys.map(\.name) == ["alice"])
        #expect(problems.map(\.line) == [2, 3, 4, 5, 6, 7, 8])
        #expect(problems[0].description.hasPrefix("line 2: RSA keys are not supported"))
        #expect(problems[0].sentence.contains("dave should use an Ed25519 key"))
        #expect(problems[1].sentence == "the option `command` is not implemented by this server, so this key is refused")
        #expect(problems[2].sentence.contains("no comment"))
        #expect(problems[3].sentence == "this key is already on line 1 (for alice); this line is ignored")
        #expect(problems[4].sentence == "the key data is not valid base64")
        #expect(problems[5].sentence.contains("security-key types"))
        #expect(problems[6].sentence.contains("`from`"))
    }

    @Test func quotedOptionValuesMayHoldSpacesAndCommas() {
        let text = #"command="echo \"a, b\" c",restrict \#(alice) alice"#

        let (keys, problems) = AuthorizedKeysParser.parse(text)

        #expect(keys.isEmpty)
        #expect(problems.map(\.sentence) == ["the option `command` is not implemented by this server, so this key is refused"])
    }

    @Test func aKeyWhoseDataIsAnotherTypeIsRefused() {
        let ed25519Data = alice.split(separator: " ")[1]

        let (keys, problems) = AuthorizedKeysParser.parse("ecdsa-sha2-nistp256 \(ed25519Data) mallory")

        #expect(keys.isEmpty)
        #expect(problems.map(\.sentence) == ["the key data is not a ecdsa-sha2-nistp256 key"])
    }

    @Test func theSummarySaysHowManyKeysAndPeople() {
        let report = AuthorizedKeysReport(
            path: "/srv/keys", keys: AuthorizedKeysParser.parse("\(alice) alice\n\(bob) alice\n\(carol) carol").keys,
            problems: [AuthorizedKeysProblem(line: 4, sentence: "x")])

        #expect(report.summaryLines == ["/srv/keys: 3 keys for 2 people, 1 line refused", "/srv/keys line 4: x"])
    }
}
