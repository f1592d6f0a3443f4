import Scanning
import Testing

@Suite("GS1 Digital Link URIs")
struct DigitalLinkTests {
    /// The examples of the GS1 Digital Link standard, with the AI data the GS1 Syntax Engine
    /// reads from them (dl.c, "Examples from DL specification").
    @Test(
        "the GS1 Digital Link standard's examples",
        arguments: [
            ("https://id.gs1.org/01/09520123456788", ["(01)09520123456788"]),
            ("https://brand.example.com/01/9520123456788", ["(01)09520123456788"]),
            ("https://brand.example.com/some-extra/pathinfo/01/9520123456788", ["(01)09520123456788"]),
            ("https://id.gs1.org/01/09520123456788/22/2A", ["(01)09520123456788", "(22)2A"]),
            ("https://id.gs1.org/01/09520123456788/10/ABC123", ["(01)09520123456788", "(10)ABC123"]),
            ("https://id.gs1.org/01/09520123456788/21/12345", ["(01)09520123456788", "(21)12345"]),
            (
                "https://id.gs1.org/01/09520123456788/10/ABC1/21/12345?17=180426",
                ["(01)09520123456788", "(10)ABC1", "(21)12345", "(17)180426"]
            ),
            ("https://id.gs1.org/01/09520123456788?3103=000195", ["(01)09520123456788", "(3103)000195"]),
            (
                "https://example.com/01/09520123456788?3103=000195&3922=0299&17=201225",
                ["(01)09520123456788", "(3103)000195", "(3922)0299", "(17)201225"]
            ),
            (
                "https://id.gs1.org/01/9520123456788?17=201225&3103=000195&3922=0299",
                ["(01)09520123456788", "(17)201225", "(3103)000195", "(3922)0299"]
            ),
            ("https://id.gs1.org/00/952012345678912345", ["(00)952012345678912345"]),
            (
                "https://id.gs1.org/00/952012345678912345?02=09520123456788&37=25&10=ABC123",
                ["(00)952012345678912345", "(02)09520123456788", "(37)25", "(10)ABC123"]
            ),
            ("https://id.gs1.org/414/9520123456788", ["(414)9520123456788"]),
            ("https://id.gs1.org/414/9520123456788/254/32a%2Fb", ["(414)9520123456788", "(254)32a/b"]),
            ("https://example.com/8004/9520614141234567?01=09520123456788", ["(8004)9520614141234567", "(01)09520123456788"]),
        ])
    func standardExamples(uri: String, expected: [String]) {
        let result = parse(uri)
        #expect(result.error == nil, "\(result.error?.message ?? "")")
        #expect(result.symbology == .gs1DigitalLink)
        #expect(result.gs1Form == .digitalLink)
        #expect(pairs(result) == expected)
    }

    @Test("the brief's example reads with typed fields")
    func typedFields() {
        let result = parse("https://id.gs1.org/01/09506000134352/10/ABC?17=201225")
        #expect(result.gtin == "09506000134352")
        #expect(result.lot == "ABC")
        #expect(result.expiry == CalendarDate(year: 2020, month: 12, day: 25))
        #expect(result.description == "GTIN 09506000134352 · lot ABC · exp 2020-12-25")
    }

    @Test(
        "reference cases for hosts, stems, queries and fragments",
        arguments: [
            ("http://a/00/006141411234567890", ["(00)006141411234567890"]),
            ("HTTPS://a/00/006141411234567890", ["(00)006141411234567890"]),
            ("https://xn--fsq.xn--0zwm56d/01/12312312312333", ["(01)12312312312333"]),
            ("https://a:65535/01/12312312312333", ["(01)12312312312333"]),
            ("https://[2001:db8::1]/01/12312312312333", ["(01)12312312312333"]),
            ("https://a/more/stem/00/006141411234567890", ["(00)006141411234567890"]),
            ("https://a/00/faux/00/006141411234567890", ["(00)006141411234567890"]),  // rightmost key wins
            ("https://a/01/12312312312333/22/TEST/10/ABC/21/XYZ", ["(01)12312312312333", "(22)TEST", "(10)ABC", "(21)XYZ"]),
            ("https://a/253/1231231231232TEST5678901234567", ["(253)1231231231232TEST5678901234567"]),
            ("https://a/8018/123456789012345675/8019/123", ["(8018)123456789012345675", "(8019)123"]),
            ("https://a/stem/00/006141411234567890?", ["(00)006141411234567890"]),
            ("https://a/stem/401/12345678?99=ABC", ["(401)12345678", "(99)ABC"]),
            ("https://a/01/12312312312333?&&&99=ABC&&&&&&98=XYZ&&&", ["(01)12312312312333", "(99)ABC", "(98)XYZ"]),
            ("https://a/01/12312312312333?unknown1=555&99=ABC&singleton&98=XYZ", ["(01)12312312312333", "(99)ABC", "(98)XYZ"]),
            ("https://a/01/12312312312333/22/ABC%2d123?99=ABC&98=XYZ%2f987", ["(01)12312312312333", "(22)ABC-123", "(99)ABC", "(98)XYZ/987"]),
            ("https://a/01/12312312312333/22/ABC+123?99=ABC", ["(01)12312312312333", "(22)ABC+123", "(99)ABC"]),  // + is + in the path
            ("https://a/01/12312312312333/22/test/10/abc/21/xyz#fragment", ["(01)12312312312333", "(22)test", "(10)abc", "(21)xyz"]),
            ("https://a/stem/00/006141411234567890?99=ABC#", ["(00)006141411234567890", "(99)ABC"]),
        ])
    func referenceCases(uri: String, expected: [String]) {
        let result = parse(uri)
        #expect(result.error == nil, "\(uri): \(result.error?.message ?? "")")
        #expect(pairs(result) == expected)
    }

    @Test(
        "reference refusals name what is wrong",
        arguments: [
            ("https://a/253/1231231231232TEST56789012345678", "AI (253): more than 30 characters"),
            ("https://a/01/12312312312333?99=", "AI (99): the value is empty"),
            ("https://a/01/12312312312333?99=ABC&999=faux", "unknown AI (999)"),
            ("https://a/01/12312312312333/22/ABC%2d123?99=ABC&98=XYZ+987", "AI (98): “ ” is not allowed (GS1 character set 82)"),
            ("https://id.gs1.org/01/09520123456788/10/ABC123?99=XYZ789&10=ABC124", "AI (10) appears twice with different values"),
            ("https://example.com/01/09520123456788?99=XYZ&89=ABC123", "unknown AI (89)"),
            ("https://a/01/1231231231233%003", "AI (01): U+0000 is not a digit"),
            ("https://id.gs1.org/01/09506000134355", "AI (01): check digit should be 2, not 5"),
            ("https://id.gs1.org/01/09506000134", "AI (01): 11 digits, needs 14"),
            ("https://id.gs1.org/01/0950600013435", "AI (01): check digit should be 9, not 5"),  // a GTIN-13, padded
        ])
    func refusals(uri: String, message: String) {
        let result = parse(uri)
        guard case let .gs1(error)? = result.error else {
            Issue.record("\(uri) was not refused: \(result)")
            return
        }
        #expect(error.message == message)
        #expect(result.input == uri)
    }

    @Test(
        "an ordinary web address, or one whose path does not end in AI pairs up to a key, is free text",
        arguments: [
            "https://example.com/",
            "https://example.com/products/10/blue",
            "http://a/b",
            "https://a/01/12312312312333/",  // cannot end in a slash
            "https://00/006141411234567890",  // no path at all
            "https://a/gtin/12312312312333",  // convenience alphas are not read
        ])
    func notDigitalLink(uri: String) {
        let result = parse(uri)
        #expect(result.symbology == .freeText)
        #expect(result.gs1Form == nil)
        #expect(result.error == nil)
    }

    @Test("an identical repeat is tolerated and kept once")
    func identicalRepeat() {
        let result = parse("https://id.gs1.org/01/09520123456788/10/ABC123?10=ABC123")
        #expect(result.error == nil)
        #expect(pairs(result) == ["(01)09520123456788", "(10)ABC123"])
    }

    @Test("a broken percent escape is refused")
    func brokenEscape() {
        let result = parse("https://id.gs1.org/01/09520123456788/10/AB%2")
        #expect(result.error == .gs1(.badDigitalLinkEncoding("the value after /10/ has a broken % escape")))
    }
}
