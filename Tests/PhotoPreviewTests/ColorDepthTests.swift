import PhotoPreview
import Testing

@Suite struct ColorDepthTests {
    @Test func colorDepthFromTheEnvironment() {
        #expect(ColorDepth.detect(noColor: true, colorCount: 256, colorTerm: "truecolor") == .monochrome)
        #expect(ColorDepth.detect(noColor: false, colorCount: 256, colorTerm: "truecolor") == .truecolor)
        #expect(ColorDepth.detect(noColor: false, colorCount: 256, colorTerm: "24bit") == .truecolor)
        #expect(ColorDepth.detect(noColor: false, colorCount: 256, colorTerm: nil) == .palette256)
        #expect(ColorDepth.detect(noColor: false, colorCount: 8, colorTerm: nil) == .palette16)
        #expect(ColorDepth.detect(noColor: false, colorCount: 0, colorTerm: nil) == .monochrome)
    }
}
