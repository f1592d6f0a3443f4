import CImageStack
import Domain

/// Turns decoded pixels into a `PreviewImage` with libchafa (through CImageStack, which opens it on
/// first use): a canvas of the given cell size, configured for the mode, then either read back
/// cell by cell (symbols) or printed as one escape sequence (graphics protocols). The pixels are
/// stretched to the canvas, so callers pick a cell size with the photo's proportions (`CellFit`).
enum ChafaRenderer {
    static func render(
        _ image: DecodedImage, into size: CellSize, mode: RenderMode, cell: CellPixels
    ) throws(PreviewError) -> PreviewImage {
        guard !size.isEmpty, size.columns <= 10_000, size.rows <= 10_000 else {
            throw .renderFailed(detail: "cannot render into \(size) cells")
        }
        do throws(ImageLibraryMissing) {
            try ImageLibrary.chafa.load()
        } catch {
            throw .libraryMissing(error)
        }
        let graphics: tsc_graphics, colors: tsc_colors, symbols: tsc_symbols
        switch mode {
        case .symbols(let symbolSet, let depth):
            (graphics, colors, symbols) = (TSC_GRAPHICS_NONE, canvasColors(for: depth), canvasSymbols(for: symbolSet))
        case .graphics(let graphicsProtocol):
            (graphics, colors, symbols) = (protocolGraphics(for: graphicsProtocol), TSC_COLORS_TRUECOLOR, TSC_SYMBOLS_BLOCKS)
        }
        var message = MessageBuffer()
        let made = message.withBuffer { buffer, capacity in
            tsc_canvas_new(
                Int32(size.columns), Int32(size.rows), Int32(cell.width), Int32(cell.height), graphics, colors, symbols, buffer, capacity
            )
        }
        guard let canvas = made else { throw .renderFailed(detail: message.text) }
        defer { tsc_canvas_free(canvas) }
        image.rgba.withUnsafeBufferPointer { pixels in
            tsc_canvas_draw_rgba(canvas, pixels.baseAddress, Int32(image.size.width), Int32(image.size.height), Int32(image.size.width * 4))
        }
        switch mode {
        case .symbols(_, let colors):
            return try readCells(canvas, size: size, colors: colors)
        case .graphics(let graphics):
            return try printSequence(canvas, size: size, graphics: graphics)
        }
    }

    // MARK: - Reading back

    private static func readCells(
        _ canvas: OpaquePointer, size: CellSize, colors: PreviewStyle.Colors
    ) throws(PreviewError) -> PreviewImage {
        var cells: [PreviewImage.Cell] = []
        cells.reserveCapacity(size.cellCount)
        for row in 0..<size.rows {
            for column in 0..<size.columns {
                let (x, y) = (Int32(column), Int32(row))
                let code = tsc_canvas_char_at(canvas, x, y)
                let character = Unicode.Scalar(code).flatMap { $0.value >= 0x20 ? $0 : nil } ?? " "
                var foreground: PreviewColor?, background: PreviewColor?
                if colors == .palette256 {
                    var fg: Int32 = -1, bg: Int32 = -1, rawFg: Int32 = -1, rawBg: Int32 = -1
                    tsc_canvas_colors_at(canvas, x, y, &fg, &bg)
                    tsc_canvas_raw_colors_at(canvas, x, y, &rawFg, &rawBg)
                    foreground = color(packed: fg, paletteIndex: rawFg)
                    background = color(packed: bg, paletteIndex: rawBg)
                }
                cells.append(PreviewImage.Cell(character: character, foreground: foreground, background: background))
            }
        }
        guard let image = PreviewImage(size: size, cells: cells) else {
            throw .renderFailed(detail: "read \(cells.count) cells for \(size)")
        }
        return image
    }

    /// chafa gives packed 0xRRGGBB, negative for transparent, and the raw value is the palette
    /// index (256 and up mean transparent or the terminal's default).
    private static func color(packed: Int32, paletteIndex: Int32) -> PreviewColor? {
        guard packed >= 0, (0...255).contains(paletteIndex) else { return nil }
        return PreviewColor(rgb: UInt32(truncatingIfNeeded: packed), index256: UInt8(paletteIndex))
    }

    private static func printSequence(
        _ canvas: OpaquePointer, size: CellSize, graphics: TerminalGraphics
    ) throws(PreviewError) -> PreviewImage {
        var message = MessageBuffer()
        var length = 0
        let printed = message.withBuffer { buffer, capacity in
            tsc_canvas_print(canvas, protocolGraphics(for: graphics), &length, buffer, capacity)
        }
        guard let printed else { throw .renderFailed(detail: message.text) }
        defer { tsc_free(printed) }
        let sequence = printed.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
        guard let image = PreviewImage(size: size, graphics: PreviewGraphics(graphics: graphics, sequence: sequence)) else {
            throw .renderFailed(detail: "chafa printed nothing for \(size)")
        }
        return image
    }

    // MARK: - Configuration

    private static func canvasColors(for colors: PreviewStyle.Colors) -> tsc_colors {
        switch colors {
        // 240, not 256: the first 16 entries are the theme's, so their colours are unknown.
        case .palette256: TSC_COLORS_INDEXED_240
        case .monochrome: TSC_COLORS_FGBG
        }
    }

    private static func protocolGraphics(for graphics: TerminalGraphics) -> tsc_graphics {
        switch graphics {
        case .sixel: TSC_GRAPHICS_SIXEL
        case .kitty: TSC_GRAPHICS_KITTY
        case .iterm2: TSC_GRAPHICS_ITERM2
        }
    }

    private static func canvasSymbols(for symbols: PreviewStyle.Symbols) -> tsc_symbols {
        switch symbols {
        case .blocks: TSC_SYMBOLS_BLOCKS
        case .ascii: TSC_SYMBOLS_ASCII
        }
    }
}
