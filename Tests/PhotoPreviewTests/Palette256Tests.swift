import PhotoPreview
import Testing

@Suite struct Palette256Tests {
    @Test func primariesAndGreysMapToTheirEntries() {
        #expect(Palette256.nearestIndex(red: 255, green: 0, blue: 0) == 196)
        #expect(Palette256.nearestIndex(red: 0, green: 0, blue: 255) == 21)
        #expect(Palette256.nearestIndex(red: 0, green: 0, blue: 0) == 16)
        #expect(Palette256.nearestIndex(red: 255, green: 255, blue: 255) == 231)
        #expect(Palette256.nearestIndex(red: 128, green: 128, blue: 128) == 244)
    }

    @Test func everyEntryFrom16MapsToItself() {
        for index in UInt8(16)...UInt8(255) {
            guard let rgb = Palette256.rgb(ofIndex: index) else {
                Issue.record("no colour for \(index)")
                continue
            }
            let found = Palette256.nearestIndex(red: UInt8(rgb >> 16), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF))
            #expect(Palette256.rgb(ofIndex: found) == rgb, "entry \(index)")
        }
        #expect(Palette256.rgb(ofIndex: 15) == nil)
    }
}
