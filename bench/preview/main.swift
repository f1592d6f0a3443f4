// The photo-preview benchmark, run by scripts/bench-preview: each step is its own
// process so that its peak RSS (VmHWM) is its own. Prints numbers; asserts nothing.
//
//   preview-bench prepare DIR        sample photos and hostile files into DIR
//   preview-bench cold FILE CACHE    first previews with an empty cache, then a repeat
//   preview-bench cached FILE CACHE  the same preview from the cache, in a fresh process
//   preview-bench one FILE           one preview of any file: its result, time and memory
//   preview-bench bytes FILE         what two thumbnails cost on the wire, per mode
import Domain
import Foundation
import PhotoPreview
import TestSupport

let thumbnailBox = CellSize(columns: 24, rows: 12)
let viewerBox = CellSize(columns: 200, rows: 60)
let blocks = RenderMode.symbols(.blocks, .palette256)

func peakRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return .nan }
    return kilobytes / 1024
}

/// Left-aligned in `width` columns (at least one space after).
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
}

func timed<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let value = try await body()
    return (value, ContinuousClock.now - start)
}

func describe(_ result: Result<PreviewImage, PreviewError>) -> String {
    switch result {
    case .success(let image): "\(image.size) cells"
    case .failure(let error): "\"\(error.sentence)\""
    }
}

func prepare(_ folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let (width, height) = (4000, 3000)
    let pixels = SampleImages.photoLike(width: width, height: height)
    let baseline = try SampleImages.save(pixels, width: width, height: height, as: "photo-12mp.jpg[Q=90]", in: folder)
    try SampleImages.save(pixels, width: width, height: height, as: "photo-12mp-progressive.jpg[Q=90,interlace]", in: folder)
    try SampleImages.save(pixels, width: width, height: height, as: "photo-12mp.png", in: folder)
    try SampleImages.save(pixels, width: width, height: height, as: "photo-12mp.webp[Q=90]", in: folder)
    try SampleImages.save(pixels, width: width, height: height, as: "photo-12mp.heic[Q=80]", in: folder)
    let jpeg = [UInt8](try Data(contentsOf: baseline))
    try Data(jpeg.prefix(jpeg.count / 2)).write(to: folder.appendingPathComponent("hostile-truncated.jpg"))
    try Data(HostileFiles.pngClaiming(width: 50_000, height: 50_000)).write(to: folder.appendingPathComponent("hostile-50000x50000.png"))
    try Data(HostileFiles.animatedGIF(frames: 5000, width: 640, height: 480)).write(to: folder.appendingPathComponent("hostile-5000-frames.gif"))
    try Data(HostileFiles.animatedGIF(frames: 1, width: 12_000, height: 8_000, fullFrames: true)).write(to: folder.appendingPathComponent("hostile-gif-canvas-96mp.gif"))
    try Data(HostileFiles.pngClaiming(width: 10_000, height: 6_000, deepInterlaced: true)).write(to: folder.appendingPathComponent("hostile-png-interlaced-60mp-16bit.png"))
    let small = [UInt8](try Data(contentsOf: try SampleImages.save(SampleImages.photoLike(width: 640, height: 480), width: 640, height: 480, as: "small.jpg", in: folder)))
    try Data(HostileFiles.jpegWithICCProfile(small, profileBytes: 16_000_000)).write(to: folder.appendingPathComponent("hostile-icc-16mb.jpg"))
    var random = SplitMix64(seed: 9)
    try Data(random.bytes(1 << 20)).write(to: folder.appendingPathComponent("hostile-random.jpg"))
    try Data().write(to: folder.appendingPathComponent("hostile-empty.jpg"))
    try FileManager.default.removeItem(at: folder.appendingPathComponent("small.jpg"))
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0
        print("  " + pad(name, 38) + String(format: "%10d bytes", bytes))
    }
}

func cold(_ file: URL, cache: URL) async throws {
    try? FileManager.default.removeItem(at: cache)
    let before = peakRSSMegabytes()
    let (hash, hashTime) = try await timed { try ContentHash.sha256(of: file) }
    let previewer = PhotoPreviewer(cache: PreviewCache(directory: cache))
    let (first, firstTime) = await timed { await previewer.preview(of: file, contentHash: hash, box: thumbnailBox, mode: blocks) }
    let (viewer, viewerTime) = await timed { await previewer.preview(of: file, contentHash: hash, box: viewerBox, mode: blocks) }
    let (again, againTime) = await timed { await previewer.preview(of: file, contentHash: hash, box: thumbnailBox, mode: blocks) }
    let (hashed, hashedTime) = await timed { await previewer.preview(of: file, box: CellSize(columns: 23, rows: 12), mode: blocks) }
    print("  SHA-256 of the file:                      \(milliseconds(hashTime))")
    print("  thumbnail \(thumbnailBox), cold (libvips starting): \(milliseconds(firstTime))  -> \(describe(first))")
    print("  viewer \(viewerBox), cold cache:             \(milliseconds(viewerTime))  -> \(describe(viewer))")
    print("  thumbnail again, from the cache:          \(milliseconds(againTime))  -> \(describe(again))")
    print("  thumbnail, cold, hashing included:        \(milliseconds(hashedTime))  -> \(describe(hashed))")
    print(String(format: "  peak RSS: %.1f MB (%.1f MB before the first preview)", peakRSSMegabytes(), before))
}

func cached(_ file: URL, cache: URL) async throws {
    let hash = try ContentHash.sha256(of: file)
    let previewer = PhotoPreviewer(cache: PreviewCache(directory: cache))
    let (result, time) = await timed { await previewer.preview(of: file, contentHash: hash, box: thumbnailBox, mode: blocks) }
    print("  thumbnail \(thumbnailBox) from the cache, fresh process: \(milliseconds(time))  -> \(describe(result))")
    print(String(format: "  peak RSS: %.1f MB", peakRSSMegabytes()))
}

func one(_ file: URL) async {
    let previewer = PhotoPreviewer(cache: nil)
    let (result, time) = await timed { await previewer.preview(of: file, box: thumbnailBox, mode: blocks) }
    let name = pad(file.lastPathComponent, 38), outcome = pad(describe(result), 50), duration = pad(milliseconds(time), 10)
    print("  " + name + outcome + duration + String(format: "  peak RSS %6.1f MB", peakRSSMegabytes()))
}

/// The cells as a program outside curses would write them: SGR codes only when the colours
/// change, a reset and a newline after each row.
func sgrText(_ image: PreviewImage, colors: PreviewStyle.Colors) -> String {
    var output = ""
    for row in 0..<image.size.rows {
        var current: (PreviewColor?, PreviewColor?)?
        for column in 0..<image.size.columns {
            let cell = image[row, column]
            if colors == .palette256, current.map({ $0.0 != cell.foreground || $0.1 != cell.background }) ?? true {
                let parts = ["0"] + [cell.foreground.map { "38;5;\($0.index256)" }, cell.background.map { "48;5;\($0.index256)" }].compactMap { $0 }
                output += "\u{1B}[" + parts.joined(separator: ";") + "m"
                current = (cell.foreground, cell.background)
            }
            output.unicodeScalars.append(cell.character)
        }
        output += colors == .palette256 ? "\u{1B}[0m\n" : "\n"
    }
    return output
}

func bytes(_ file: URL) async {
    let previewer = PhotoPreviewer(cache: nil)
    let box = CellSize(columns: 20, rows: 10)
    print("  two thumbnails in a \(box) box each, bytes as written outside curses (SGR only on change):")
    for colors in [PreviewStyle.Colors.palette256, .monochrome] {
        guard case .success(let image) = await previewer.preview(of: file, box: box, mode: .symbols(.blocks, colors)) else { continue }
        let text = sgrText(image, colors: colors)
        print("    " + pad("blocks, \(colors.rawValue):", 34) + "\(2 * text.utf8.count) bytes (\(image.size) cells each)")
    }
    for graphics in TerminalGraphics.allCases {
        guard case .success(let image) = await previewer.preview(of: file, box: box, mode: .graphics(graphics)), let picture = image.graphics else { continue }
        print("    " + pad("\(graphics.rawValue), 10x20-pixel cells:", 34) + "\(2 * picture.sequence.utf8.count) bytes (\(image.size) cells each)")
    }
}

let arguments = CommandLine.arguments.dropFirst()
switch (arguments.first, arguments.count) {
case ("prepare", 2): try prepare(URL(fileURLWithPath: arguments[2]))
case ("cold", 3): try await cold(URL(fileURLWithPath: arguments[2]), cache: URL(fileURLWithPath: arguments[3]))
case ("cached", 3): try await cached(URL(fileURLWithPath: arguments[2]), cache: URL(fileURLWithPath: arguments[3]))
case ("one", 2): await one(URL(fileURLWithPath: arguments[2]))
case ("bytes", 2): await bytes(URL(fileURLWithPath: arguments[2]))
default:
    FileHandle.standardError.write(Data("usage: preview-bench prepare DIR | cold FILE CACHE | cached FILE CACHE | one FILE | bytes FILE\n".utf8))
    exit(2)
}
