import Testing

@testable import ServeMetrics

/// `# HELP` lines put in for the families swift-metrics made (it carries no help text).
@Suite struct MetricsExpositionTests {
    @Test func eachFamilyWithoutHelpGetsItsOwnBeforeItsType() {
        let exposition = MetricsExposition(help: ["a_total": "As counted.", "b": "Back\\slash\nand newline."])
        let emitted = """
            # TYPE a_total counter
            a_total{reason="x"} 1
            # HELP c Already said.
            # TYPE c gauge
            c 2.0
            # TYPE b gauge
            b 0.0

            """
        #expect(
            exposition.withHelp(emitted) == """
                # HELP a_total As counted.
                # TYPE a_total counter
                a_total{reason="x"} 1
                # HELP c Already said.
                # TYPE c gauge
                c 2.0
                # HELP b Back\\\\slash\\nand newline.
                # TYPE b gauge
                b 0.0

                """)
    }

    @Test func aFamilyNobodyDescribedIsLeftAsItIs() {
        let text = "# TYPE unknown gauge\nunknown 1.0\n"
        #expect(MetricsExposition(help: [:]).withHelp(text) == text)
    }
}
