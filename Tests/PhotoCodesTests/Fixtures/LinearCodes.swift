/// Linear barcodes drawn from their specifications, as modules (true = bar), quiet zones not
/// included. Each has few enough rules to write out: the tests make their own images rather
/// than depend on a generator.
enum LinearCodes {
    // MARK: - EAN-13

    /// The L (odd parity) set for the digits 0–9; R is its complement, G is R reversed.
    private static let eanL = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
    /// Which of L or G the six left digits use, chosen by the first digit.
    private static let eanParity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]

    /// The check digit for the first 12 (EAN-13) or 7 (EAN-8) digits: weights 3 and 1 from the right.
    static func gs1CheckDigit(_ digits: String) -> Int {
        let values = digits.compactMap(\.wholeNumberValue)
        let sum = values.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10
    }

    /// 95 modules: guard, six left digits (L/G by the first digit), centre guard, six right
    /// digits (R), guard. `digits` is all 13, check digit included.
    static func ean13(_ digits: String) -> [Bool] {
        let values = digits.compactMap(\.wholeNumberValue)
        precondition(values.count == 13, "EAN-13 has 13 digits")
        let parity = Array(eanParity[values[0]])
        var bits = "101"
        for (index, value) in values[1...6].enumerated() {
            let left = eanL[value]
            bits += parity[index] == "L" ? left : String(complement(left).reversed())
        }
        bits += "01010"
        for value in values[7...12] { bits += complement(eanL[value]) }
        bits += "101"
        return bits.map { $0 == "1" }
    }

    /// 67 modules: guard, four L digits, centre guard, four R digits, guard.
    static func ean8(_ digits: String) -> [Bool] {
        let values = digits.compactMap(\.wholeNumberValue)
        precondition(values.count == 8, "EAN-8 has 8 digits")
        var bits = "101"
        for value in values[0...3] { bits += eanL[value] }
        bits += "01010"
        for value in values[4...7] { bits += complement(eanL[value]) }
        bits += "101"
        return bits.map { $0 == "1" }
    }

    private static func complement(_ bits: String) -> String {
        String(bits.map { $0 == "1" ? "0" : "1" })
    }

    // MARK: - Interleaved 2 of 5

    /// Narrow (n) and wide (w) elements of each digit.
    private static let i25Digits = ["nnwwn", "wnnnw", "nwnnw", "wwnnn", "nnwnw", "wnwnn", "nwwnn", "nnnww", "wnnwn", "nwnwn"]

    /// Start (four narrow), digit pairs (the first digit's widths as bars, the second's as the
    /// spaces between them), stop (wide bar, narrow space, narrow bar). Wide is three narrow.
    static func interleaved2of5(_ digits: String) -> [Bool] {
        let values = digits.compactMap(\.wholeNumberValue)
        precondition(values.count % 2 == 0, "I2/5 takes digit pairs")
        var widths: [Int] = [1, 1, 1, 1]
        for pair in stride(from: 0, to: values.count, by: 2) {
            for (bar, space) in zip(i25Digits[values[pair]], i25Digits[values[pair + 1]]) {
                widths += [bar == "w" ? 3 : 1, space == "w" ? 3 : 1]
            }
        }
        widths += [3, 1, 1]
        return widths.enumerated().flatMap { Array(repeating: $0.offset % 2 == 0, count: $0.element) }
    }

    // MARK: - Code 128

    /// Bar and space widths of the 107 Code 128 symbols (ISO/IEC 15417), indexed by value;
    /// 103–105 are Start A/B/C, 106 the stop (seven elements).
    private static let code128Widths = [
        "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
        "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
        "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
        "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
        "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
        "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
        "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
        "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
        "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
        "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
        "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
    ]

    /// A Code 128 symbol value, or the text to encode with it.
    enum Code128Part {
        /// Pairs of digits in set C (an even count).
        case digits(String)
        /// Printable ASCII in set B.
        case text(String)
        case fnc1
    }

    static let startB = 104, startC = 105, codeB = 100, codeC = 99, fnc1 = 102, stop = 106

    /// Symbol values for `parts`, start to stop, the check symbol computed (start value plus
    /// each value times its position, modulo 103).
    static func code128Values(_ parts: [Code128Part]) -> [Int] {
        var values: [Int] = []
        var set: Character = " "
        func use(_ wanted: Character) {
            guard set != wanted else { return }
            if values.isEmpty {
                values.append(wanted == "C" ? startC : startB)
            } else {
                values.append(wanted == "C" ? codeC : codeB)
            }
            set = wanted
        }
        for part in parts {
            switch part {
            case .digits(let digits):
                use("C")
                let characters = Array(digits)
                precondition(characters.count % 2 == 0, "set C takes digit pairs")
                for index in stride(from: 0, to: characters.count, by: 2) {
                    values.append(Int(String(characters[index...index + 1]))!)
                }
            case .text(let text):
                use("B")
                for byte in text.utf8 {
                    precondition((32...126).contains(byte), "set B here takes printable ASCII")
                    values.append(Int(byte) - 32)
                }
            case .fnc1:
                if values.isEmpty { use("C") }
                values.append(fnc1)
            }
        }
        let check = values.enumerated().reduce(0) { $0 + $1.element * max(1, $1.offset) } % 103
        return values + [check, stop]
    }

    static func code128(_ parts: [Code128Part]) -> [Bool] {
        var modules: [Bool] = []
        for value in code128Values(parts) {
            for (index, width) in code128Widths[value].enumerated() {
                let bar = index % 2 == 0
                modules += Array(repeating: bar, count: Int(String(width))!)
            }
        }
        return modules
    }
}
