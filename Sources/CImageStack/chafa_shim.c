#include "chafa_shim.h"

#include <stdio.h>

#include "libraries.h"

// Every libchafa and GLib call goes through `tsi_chafa`, the table tsi_load fills on first use
// (libraries.h): nothing here references a library symbol, so nothing links libchafa.

static ChafaCanvas *as_chafa(tsc_canvas *canvas) { return (ChafaCanvas *)canvas; }

static ChafaCanvasMode canvas_mode(tsc_colors colors) {
    switch (colors) {
    case TSC_COLORS_INDEXED_240: return CHAFA_CANVAS_MODE_INDEXED_240;
    case TSC_COLORS_INDEXED_16: return CHAFA_CANVAS_MODE_INDEXED_16;
    case TSC_COLORS_FGBG: return CHAFA_CANVAS_MODE_FGBG;
    case TSC_COLORS_TRUECOLOR: break;
    }
    return CHAFA_CANVAS_MODE_TRUECOLOR;
}

static ChafaPixelMode pixel_mode(tsc_graphics graphics) {
    switch (graphics) {
    case TSC_GRAPHICS_SIXEL: return CHAFA_PIXEL_MODE_SIXELS;
    case TSC_GRAPHICS_KITTY: return CHAFA_PIXEL_MODE_KITTY;
    case TSC_GRAPHICS_ITERM2: return CHAFA_PIXEL_MODE_ITERM2;
    case TSC_GRAPHICS_NONE: break;
    }
    return CHAFA_PIXEL_MODE_SYMBOLS;
}

static ChafaSymbolTags symbol_tags(tsc_symbols symbols) {
    ChafaSymbolTags blocks = CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_SOLID | CHAFA_SYMBOL_TAG_BLOCK;
    switch (symbols) {
    case TSC_SYMBOLS_SEXTANTS: return blocks | CHAFA_SYMBOL_TAG_SEXTANT;
    case TSC_SYMBOLS_ASCII: return CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_ASCII;
    case TSC_SYMBOLS_BLOCKS: break;
    }
    return blocks;
}

tsc_canvas *tsc_canvas_new(int columns, int rows, int cell_width, int cell_height, tsc_graphics graphics,
                           tsc_colors colors, tsc_symbols symbols, char *error, size_t error_size) {
    if (tsi_load(TSI_CHAFA, error, error_size) != 0) return NULL;
    ChafaCanvasConfig *config = tsi_chafa.chafa_canvas_config_new();
    if (config == NULL) {
        tsi_copy_message(error, error_size, "chafa_canvas_config_new failed");
        return NULL;
    }
    tsi_chafa.chafa_canvas_config_set_geometry(config, columns, rows);
    tsi_chafa.chafa_canvas_config_set_cell_geometry(config, cell_width, cell_height);
    tsi_chafa.chafa_canvas_config_set_pixel_mode(config, pixel_mode(graphics));
    if (graphics == TSC_GRAPHICS_NONE) {
        tsi_chafa.chafa_canvas_config_set_canvas_mode(config, canvas_mode(colors));
        ChafaSymbolMap *map = tsi_chafa.chafa_symbol_map_new();
        if (map == NULL) {
            tsi_chafa.chafa_canvas_config_unref(config);
            tsi_copy_message(error, error_size, "chafa_symbol_map_new failed");
            return NULL;
        }
        tsi_chafa.chafa_symbol_map_add_by_tags(map, symbol_tags(symbols));
        tsi_chafa.chafa_canvas_config_set_symbol_map(config, map);
        tsi_chafa.chafa_symbol_map_unref(map);
    } else {
        tsi_chafa.chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR);
    }
    ChafaCanvas *canvas = tsi_chafa.chafa_canvas_new(config);
    tsi_chafa.chafa_canvas_config_unref(config);
    if (canvas == NULL) tsi_copy_message(error, error_size, "chafa_canvas_new failed");
    return (tsc_canvas *)canvas;
}

void tsc_canvas_free(tsc_canvas *canvas) {
    if (canvas != NULL) tsi_chafa.chafa_canvas_unref(as_chafa(canvas));
}

void tsc_canvas_draw_rgba(tsc_canvas *canvas, const unsigned char *pixels, int width, int height, int rowstride) {
    tsi_chafa.chafa_canvas_draw_all_pixels(as_chafa(canvas), CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels, width, height,
                                           rowstride);
}

unsigned int tsc_canvas_char_at(tsc_canvas *canvas, int x, int y) {
    return tsi_chafa.chafa_canvas_get_char_at(as_chafa(canvas), x, y);
}

void tsc_canvas_colors_at(tsc_canvas *canvas, int x, int y, int *foreground, int *background) {
    tsi_chafa.chafa_canvas_get_colors_at(as_chafa(canvas), x, y, foreground, background);
}

void tsc_canvas_raw_colors_at(tsc_canvas *canvas, int x, int y, int *foreground, int *background) {
    tsi_chafa.chafa_canvas_get_raw_colors_at(as_chafa(canvas), x, y, foreground, background);
}

/// The terminal description chafa prints graphics with. chafa's database picks sequences from
/// environment variables; tabshell has already chosen the protocol by asking the terminal, so
/// this hands chafa a made-up environment naming a terminal that speaks exactly that protocol.
static ChafaTermInfo *term_info(tsc_graphics graphics, char *error, size_t error_size) {
    static char kitty_term[] = "TERM=xterm-kitty", sixel_term[] = "TERM=mlterm", iterm_term[] = "TERM=xterm-256color",
                iterm_program[] = "TERM_PROGRAM=iTerm.app";
    char *kitty[] = { kitty_term, NULL }, *sixel[] = { sixel_term, NULL }, *iterm2[] = { iterm_term, iterm_program, NULL };
    char **environment;
    switch (graphics) {
    case TSC_GRAPHICS_KITTY: environment = kitty; break;
    case TSC_GRAPHICS_SIXEL: environment = sixel; break;
    case TSC_GRAPHICS_ITERM2: environment = iterm2; break;
    case TSC_GRAPHICS_NONE:
    default:
        tsi_copy_message(error, error_size, "cells have no escape sequence");
        return NULL;
    }
    ChafaTermDb *database = tsi_chafa.chafa_term_db_get_default();
    ChafaTermInfo *info = database != NULL ? tsi_chafa.chafa_term_db_detect(database, environment) : NULL;
    if (info == NULL) {
        tsi_copy_message(error, error_size, "chafa knows no terminal for this protocol");
        return NULL;
    }
    if (graphics == TSC_GRAPHICS_KITTY) {
        // chafa's kitty sequence asks the terminal to answer "OK" for every image; q=2 keeps it quiet.
        GError *failure = NULL;
        tsi_chafa.chafa_term_info_set_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1,
                                          "\033_Ga=T,q=2,f=%1,s=%2,v=%3,c=%4,r=%5,m=1\033\\", &failure);
        if (failure != NULL) {
            tsi_copy_message(error, error_size, failure->message);
            tsi_chafa.g_error_free(failure);
            tsi_chafa.chafa_term_info_unref(info);
            return NULL;
        }
    }
    return info;
}

char *tsc_canvas_print(tsc_canvas *canvas, tsc_graphics graphics, size_t *length, char *error, size_t error_size) {
    *length = 0;
    ChafaTermInfo *info = term_info(graphics, error, error_size);
    if (info == NULL) return NULL;
    GString *printed = tsi_chafa.chafa_canvas_print(as_chafa(canvas), info);
    tsi_chafa.chafa_term_info_unref(info);
    if (printed == NULL) {
        tsi_copy_message(error, error_size, "chafa_canvas_print returned nothing");
        return NULL;
    }
    *length = printed->len;
    // Keeps the bytes, frees the GString around them.
    return tsi_chafa.g_string_free(printed, FALSE);
}

void tsc_free(char *bytes) {
    if (bytes != NULL) tsi_chafa.g_free(bytes);
}
