import Foundation
import Testing

@testable import Configuration

/// config.toml's shape bounded before TOMLKit parses it: the files that crashed the
/// parser, generated here at their worst, are each refused in one line and every default kept.
@Suite struct ConfigShapeTests {
    /// The files that crashed the parser (its recursion ran the stack out), made here at their
    /// worst: each is refused by its shape with one line, before TOMLKit sees it.
    static var deepFiles: [(name: String, text: String, says: String)] {
        let nest = "nest more than \(ConfigShape.maximumDepth) deep"
        let long = "longer than \(ConfigShape.maximumLineBytes) bytes"
        return [
            ("a 50,000-deep header", "[" + Array(repeating: "a", count: 50_000).joined(separator: ".") + "]\n", nest),
            ("a 2,000-deep header on a short line", "[" + Array(repeating: "a", count: 2_000).joined(separator: ".") + "]\n", nest),
            ("a 50,000-deep array", "theme = \"dark\"\na = " + String(repeating: "[", count: 50_000) + "\n", nest),
            ("an array opened on 19,000 lines", "a = " + String(repeating: "[\n", count: 19_000), nest),
            ("inline tables opened on 19,000 lines", "a = " + String(repeating: "{ b.c = \n", count: 19_000), nest),
            ("arrays of inline tables", "a = " + String(repeating: "[{b=\n", count: 19_000), nest),
            ("a 2,000-part dotted key", Array(repeating: "k", count: 2_000).joined(separator: ".") + " = 1\n", nest),
            ("a 200,000-byte key", String(repeating: "k", count: 200_000) + " = 1\n", long),
            ("a 200,000-byte quoted key", "\"" + String(repeating: "k", count: 200_000) + "\" = 1\n", long),
            ("a 200,000-byte multi-line string", "x = \"\"\"\n" + String(repeating: "k", count: 200_000) + "\"\"\"\n", long),
        ]
    }

    @Test func deepOrLongShapesAreRefusedBeforeTheParserSeesThem() {
        for file in Self.deepFiles {
            let configuration = ConfigFile.parse(Data(file.text.utf8))
            #expect(configuration.problems.count == 1, "\(file.name)")
            let problem = configuration.problems.first
            #expect(
                problem?.message.contains(file.says) == true && problem?.message.hasSuffix("every setting keeps its default.") == true,
                "\(file.name): \(String(describing: problem))")
            #expect((problem?.line ?? 0) > 0, "\(file.name)")
            #expect(configuration.keyOverrides == .none && configuration.theme == Configuration.defaults.theme, "\(file.name)")
        }
        // Where: the line the bound is passed on.
        #expect(ConfigFile.parse("theme = \"dark\"\n" + String(repeating: "k", count: 5_000) + " = 1\n").problems.map(\.line) == [2])
        #expect(ConfigFile.parse("a = " + String(repeating: "[\n", count: 100)).problems.map(\.line) == [ConfigShape.maximumDepth])
    }

    /// Up to the bounds the parser judges: strings, quoted dots, comments and numbers do not count.
    @Test func shapesWithinTheBoundsReachTheParser() {
        let depth = ConfigShape.maximumDepth - 2
        let nested = "a = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        #expect(ConfigFile.parse(nested).problems.map(\.message) == ["unknown setting `a`: the settings are theme, screen_reader and [keys]."])
        let text = """
            # [a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h]
            theme = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"
            [keys]
            "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h" = ['[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[']
            create = [ # [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
              "c",
            ]
            """
        let problems = ConfigFile.parse(text).problems
        #expect(problems.count == 2 && !problems.contains { $0.message.contains("nest") }, "\(problems)")
        #expect(ConfigShape.problem(in: "x = {a = 1.5, b = [1.25, 2.5, 3.75], c.d = {e = 2.5}}\n" + String(repeating: "y = 1.2.3.4\n", count: 100)) == nil)
    }
}
