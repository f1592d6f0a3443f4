import Scanning
import Testing

@Suite("Scan smoke")
struct SmokeTests {
    @Test func examples() {
        for input in ["]C10109506000134352172012251" + "0ABC123", "(01)09506000134352(17)201225(10)ABC123",
                      "https://id.gs1.org/01/09506000134352/10/ABC123?17=201225", "4006381333931", "hello",
                      "]E04006381333931", "&é\"'(", "0109506000134355", "]C101095060001343551", "(17)201232"] {
            let result = parse(input)
            print(input.debugDescription, "→", result.symbology, result.description, result.error?.message ?? "", result.layoutMismatch?.message ?? "")
        }
    }
}
