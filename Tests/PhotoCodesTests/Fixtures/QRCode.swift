/// A small QR Code encoder (ISO/IEC 18004), enough for the tests: versions 1–3 at error
/// correction level M (one Reed–Solomon block each), byte mode, optionally with FNC1 in first
/// position (GS1), and a fixed mask (0) — any mask is valid, the penalty rules only pick the
/// nicest. zbar reading the result back is the check that it is right.
struct QRCode {
    let size: Int
    /// Row-major, true = dark.
    private(set) var modules: [Bool]
    private var isFunction: [Bool]

    subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// Data codewords and EC codewords per block for versions 1–3 at level M.
    private static let capacity = [1: (data: 16, ec: 10), 2: (data: 28, ec: 16), 3: (data: 44, ec: 26)]

    /// Nil when the text does not fit version 3-M (42 bytes, 41 with GS1).
    init?(bytes: [UInt8], gs1: Bool = false) {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        if gs1 { append(0b0101, 4) }  // FNC1 in first position
        append(0b0100, 4)  // byte mode
        append(bytes.count, 8)
        for byte in bytes { append(Int(byte), 8) }
        guard let version = (1...3).first(where: { bits.count + 4 <= Self.capacity[$0]!.data * 8 }),
            let (dataCount, ecCount) = Self.capacity[version]
        else { return nil }
        append(0, min(4, dataCount * 8 - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var data: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while data.count < dataCount {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        let codewords = data + Self.reedSolomon(data, degree: ecCount)

        size = 17 + 4 * version
        modules = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
        drawFunctionPatterns(version: version)
        drawCodewords(codewords)
        applyMask0()
        drawFormatBits()
    }

    // MARK: - Function patterns

    private mutating func setFunction(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns(version: Int) {
        for i in 0..<size {
            setFunction(6, i, i % 2 == 0)
            setFunction(i, 6, i % 2 == 0)
        }
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = cx + dx, y = cy + dy
                    guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                    let distance = max(abs(dx), abs(dy))
                    setFunction(x, y, distance != 2 && distance != 4)
                }
            }
        }
        if version >= 2 {
            let centre = 4 * version + 10
            for dy in -2...2 {
                for dx in -2...2 { setFunction(centre + dx, centre + dy, max(abs(dx), abs(dy)) != 1) }
            }
        }
        drawFormatBits()  // reserves the areas; drawn again with the mask's bits at the end
    }

    /// Level M (format bits 00) with mask 0, BCH-protected and masked with 0x5412.
    private mutating func drawFormatBits() {
        let data = 0b00 << 3 | 0
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { setFunction(8, i, bit(i)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for i in 9..<15 { setFunction(14 - i, 8, bit(i)) }
        for i in 0..<8 { setFunction(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { setFunction(8, size - 15 + i, bit(i)) }
        setFunction(8, size - 8, true)  // the dark module
    }

    // MARK: - Data

    /// Two-column strips from the right, upward then downward, skipping the timing column.
    private mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                for column in 0..<2 {
                    let x = right - column, y = upward ? size - 1 - vertical : vertical
                    guard !isFunction[y * size + x], index < codewords.count * 8 else { continue }
                    modules[y * size + x] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    private mutating func applyMask0() {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && (x + y) % 2 == 0 {
                modules[y * size + x].toggle()
            }
        }
    }

    // MARK: - Reed–Solomon over GF(256), polynomial 0x11D

    private static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var product = 0
        for shift in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= ((Int(y) >> shift) & 1) * Int(x)
        }
        return UInt8(product)
    }

    static func reedSolomon(_ data: [UInt8], degree: Int) -> [UInt8] {
        // The generator (x − α⁰)(x − α¹)…(x − α^(degree−1)), leading 1 left implicit.
        var divisor = Array(repeating: UInt8(0), count: degree - 1) + [1]
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                divisor[j] = multiply(divisor[j], root)
                if j + 1 < degree { divisor[j] ^= divisor[j + 1] }
            }
            root = multiply(root, 0x02)
        }
        var remainder = Array(repeating: UInt8(0), count: degree)
        for byte in data {
            let factor = byte ^ remainder.removeFirst()
            remainder.append(0)
            for i in 0..<degree { remainder[i] ^= multiply(divisor[i], factor) }
        }
        return remainder
    }
}
