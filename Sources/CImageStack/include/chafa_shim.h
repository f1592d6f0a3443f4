// libchafa for PhotoPreview's renderer: a canvas of character cells or graphics, configured
// from three plain enums, drawn from RGBA pixels, then read back cell by cell or printed as one
// escape sequence. chafa's own types are GLib's, whose headers Swift would need to find; these
// wrappers keep them on the C side. libchafa is opened on first use (image_stack.h): call
// tsi_load(TSI_CHAFA, …) before anything here, which only makes a canvas once it has succeeded.
#ifndef TABSHELL_CHAFA_SHIM_H
#define TABSHELL_CHAFA_SHIM_H

#include <stddef.h>

/// Which symbols a canvas of cells may use.
typedef enum {
    /// Space, full and partial blocks (U+2580–U+259F).
    TSC_SYMBOLS_BLOCKS = 0,
    /// The blocks and the 2×3 sextants (U+1FB00–U+1FB3B).
    TSC_SYMBOLS_SEXTANTS = 1,
    /// Space and printable ASCII.
    TSC_SYMBOLS_ASCII = 2,
} tsc_symbols;

/// The colours a canvas of cells may use.
typedef enum {
    TSC_COLORS_TRUECOLOR = 0,
    /// The 240 fixed entries of the 256-colour palette (the first 16 are the theme's, unknown).
    TSC_COLORS_INDEXED_240 = 1,
    TSC_COLORS_INDEXED_16 = 2,
    /// Foreground and background only.
    TSC_COLORS_FGBG = 3,
} tsc_colors;

/// Cells (NONE) or one graphics protocol's picture.
typedef enum {
    TSC_GRAPHICS_NONE = 0,
    TSC_GRAPHICS_SIXEL = 1,
    TSC_GRAPHICS_KITTY = 2,
    TSC_GRAPHICS_ITERM2 = 3,
} tsc_graphics;

/// A chafa canvas. Free with tsc_canvas_free.
typedef struct tsc_canvas tsc_canvas;

/// A canvas of columns × rows cells of cell_width × cell_height pixels. For TSC_GRAPHICS_NONE the
/// cells take `symbols` in `colors`; for a protocol both are ignored (graphics are truecolor).
/// NULL, with a message, when chafa is not loaded or refuses the geometry.
tsc_canvas *tsc_canvas_new(int columns, int rows, int cell_width, int cell_height, tsc_graphics graphics,
                           tsc_colors colors, tsc_symbols symbols, char *error, size_t error_size);

void tsc_canvas_free(tsc_canvas *canvas);

/// Draws 8-bit RGBA pixels (alpha not premultiplied), stretched to the whole canvas.
void tsc_canvas_draw_rgba(tsc_canvas *canvas, const unsigned char *pixels, int width, int height, int rowstride);

/// The character in a cell (a Unicode scalar).
unsigned int tsc_canvas_char_at(tsc_canvas *canvas, int x, int y);

/// A cell's colours as packed 0xRRGGBB, negative for transparent.
void tsc_canvas_colors_at(tsc_canvas *canvas, int x, int y, int *foreground, int *background);

/// A cell's colours as the canvas stores them: palette indices in an indexed mode (256 and up
/// mean transparent or the terminal's default).
void tsc_canvas_raw_colors_at(tsc_canvas *canvas, int x, int y, int *foreground, int *background);

/// The canvas as one escape sequence in `graphics`' protocol, `length` bytes (not counting the
/// NUL after them); free with tsc_free. Kitty's sequence asks the terminal for no answers
/// (q=2), which would otherwise arrive among the user's keys. NULL, with a message, on failure.
char *tsc_canvas_print(tsc_canvas *canvas, tsc_graphics graphics, size_t *length, char *error, size_t error_size);

void tsc_free(char *bytes);

#endif
