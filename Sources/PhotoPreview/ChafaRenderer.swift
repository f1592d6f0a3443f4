import CChafa

/// Turns decoded pixels into a `CellImage` with libchafa: a canvas of the given cell size,
/// configured for the mode, then either read back cell by cell (symbols) or printed as one
/// escape sequence (graphics protocols). The pixels are stretched to the canvas, so callers
/// pick a cell size with the photo's proportions (`CellFit`).
enum ChafaRenderer {
    static func render(
        _ image: DecodedImage, into size: CellSize, mode: RenderMode, cell: CellPixelSize
    ) throws(PreviewError) -> CellImage {
        guard !size.isEmpty, size.columns <= 10_000, size.rows <= 10_000 else {
            throw .renderFailed(detail: "cannot render into \(size) cells")
        }
        guard let config = chafa_canvas_config_new() else { throw .renderFailed(detail: "chafa_canvas_config_new failed") }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, gint(size.columns), gint(size.rows))
        chafa_canvas_config_set_cell_geometry(config, gint(cell.width), gint(cell.height))
        switch mode {
        case .symbols(let symbols, let colors):
            chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
            chafa_canvas_config_set_canvas_mode(config, canvasMode(for: colors))
            guard let map = chafa_symbol_map_new() else { throw .renderFailed(detail: "chafa_symbol_map_new failed") }
            defer { chafa_symbol_map_unref(map) }
            chafa_symbol_map_add_by_tags(map, tags(for: symbols))
            chafa_canvas_config_set_symbol_map(config, map)
        case .graphics(let graphics):
            chafa_canvas_config_set_pixel_mode(config, pixelMode(for: graphics))
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        }
        guard let canvas = chafa_canvas_new(config) else { throw .renderFailed(detail: "chafa_canvas_new failed") }
        defer { chafa_canvas_unref(canvas) }
        image.rgba.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress,
                gint(image.size.width), gint(image.size.height), gint(image.size.width * 4)
            )
        }
        switch mode {
        case .symbols(_, let colors):
            return .cells(try readCells(canvas, size: size, colors: colors))
        case .graphics(let graphics):
            return .graphics(try printSequence(canvas, size: size, graphics: graphics))
        }
    }

    // MARK: - Reading back

    private static func readCells(_ canvas: OpaquePointer, size: CellSize, colors: ColorDepth) throws(PreviewError) -> CellGrid {
        var cells: [PreviewCell] = []
        cells.reserveCapacity(size.cellCount)
        for row in 0..<size.rows {
            for column in 0..<size.columns {
                let (x, y) = (gint(column), gint(row))
                let code = chafa_canvas_get_char_at(canvas, x, y)
                let character = Unicode.Scalar(code).flatMap { $0.value >= 0x20 ? $0 : nil } ?? " "
                var foreground: CellColor?, background: CellColor?
                if colors != .monochrome {
                    var fg: gint = -1, bg: gint = -1, rawFg: gint = -1, rawBg: gint = -1
                    chafa_canvas_get_colors_at(canvas, x, y, &fg, &bg)
                    if colors != .truecolor {
                        chafa_canvas_get_raw_colors_at(canvas, x, y, &rawFg, &rawBg)
                    }
                    foreground = color(packed: fg, paletteIndex: rawFg, colors: colors)
                    background = color(packed: bg, paletteIndex: rawBg, colors: colors)
                }
                cells.append(PreviewCell(character: character, foreground: foreground, background: background))
            }
        }
        guard let grid = CellGrid(size: size, cells: cells) else {
            throw .renderFailed(detail: "read \(cells.count) cells for \(size)")
        }
        return grid
    }

    /// chafa gives packed 0xRRGGBB, negative for transparent; in a palette mode the raw value is
    /// the palette index (256 and up mean transparent or the terminal's default).
    private static func color(packed: gint, paletteIndex: gint, colors: ColorDepth) -> CellColor? {
        guard packed >= 0 else { return nil }
        let rgb = UInt32(truncatingIfNeeded: packed) & 0xFF_FFFF
        switch colors {
        case .palette256, .palette16:
            guard (0...255).contains(paletteIndex) else { return nil }
            return CellColor(
                red: UInt8(rgb >> 16), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF),
                index256: UInt8(paletteIndex)
            )
        case .truecolor:
            return CellColor(rgb: rgb)
        case .monochrome:
            return nil
        }
    }

    private static func printSequence(
        _ canvas: OpaquePointer, size: CellSize, graphics: GraphicsProtocol
    ) throws(PreviewError) -> GraphicsImage {
        guard let info = ChafaTerminal.info(for: graphics) else {
            throw .renderFailed(detail: "chafa has no \(graphics.rawValue) sequences")
        }
        defer { chafa_term_info_unref(info) }
        guard let printed = chafa_canvas_print(canvas, info) else {
            throw .renderFailed(detail: "chafa_canvas_print returned nothing")
        }
        let bytes = UnsafeBufferPointer(start: printed.pointee.str, count: Int(printed.pointee.len))
        let sequence = String(decoding: bytes.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        g_string_free(printed, gboolean(1))
        return GraphicsImage(graphicsProtocol: graphics, size: size, sequence: sequence)
    }

    // MARK: - Configuration

    private static func canvasMode(for colors: ColorDepth) -> ChafaCanvasMode {
        switch colors {
        case .truecolor: CHAFA_CANVAS_MODE_TRUECOLOR
        // 240, not 256: the first 16 entries are the theme's, so their colours are unknown.
        case .palette256: CHAFA_CANVAS_MODE_INDEXED_240
        case .palette16: CHAFA_CANVAS_MODE_INDEXED_16
        case .monochrome: CHAFA_CANVAS_MODE_FGBG
        }
    }

    private static func pixelMode(for graphics: GraphicsProtocol) -> ChafaPixelMode {
        switch graphics {
        case .sixel: CHAFA_PIXEL_MODE_SIXELS
        case .kitty: CHAFA_PIXEL_MODE_KITTY
        case .iterm2: CHAFA_PIXEL_MODE_ITERM2
        }
    }

    private static func tags(for symbols: SymbolSet) -> ChafaSymbolTags {
        let blocks = CHAFA_SYMBOL_TAG_SPACE.rawValue | CHAFA_SYMBOL_TAG_SOLID.rawValue | CHAFA_SYMBOL_TAG_BLOCK.rawValue
        switch symbols {
        case .blocks: return ChafaSymbolTags(rawValue: blocks)
        case .sextants: return ChafaSymbolTags(rawValue: blocks | CHAFA_SYMBOL_TAG_SEXTANT.rawValue)
        case .ascii: return ChafaSymbolTags(rawValue: CHAFA_SYMBOL_TAG_SPACE.rawValue | CHAFA_SYMBOL_TAG_ASCII.rawValue)
        }
    }
}
