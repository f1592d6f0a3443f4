// The function tables of the image stack (internal to CImageStack). Each list names every
// function the shims call in one library; the tables are filled by tsi_load (libraries.c) and
// the shims call through them — never a library symbol directly, so nothing links the
// libraries. The headers are included for types, enums and macros only.
#ifndef TABSHELL_IMAGE_STACK_LIBRARIES_H
#define TABSHELL_IMAGE_STACK_LIBRARIES_H

#include <chafa.h>
#include <vips/vips.h>
#include <zbar.h>

#include "image_stack.h"

/// libvips, with the GLib and GObject functions the vips shim uses (libvips depends on both, so
/// dlsym finds them through its handle).
#define TSI_VIPS_FUNCTIONS(X) \
    X(vips_version) X(vips_init) X(vips_error) X(vips_error_buffer_copy) X(vips_error_clear) \
    X(vips_cache_set_max) X(vips_cache_set_max_mem) X(vips_cache_set_max_files) X(vips_concurrency_set) \
    X(vips_block_untrusted_set) X(vips_operation_block_set) X(vips_foreign_find_load) \
    X(vips_image_new_from_file) X(vips_image_new_from_memory_copy) X(vips_image_write_to_memory) \
    X(vips_image_write_to_file) X(vips_image_get_width) X(vips_image_get_height) X(vips_image_get_bands) \
    X(vips_image_get_format) X(vips_format_sizeof) X(vips_image_get_n_pages) \
    X(vips_image_get_orientation_swap) X(vips_image_get_typeof) X(vips_image_get_int) \
    X(vips_image_get_blob) X(vips_image_get_string) X(vips_image_hasalpha) X(vips_colourspace) \
    X(vips_cast_uchar) X(vips_addalpha) X(vips_extract_band) X(vips_flatten) X(vips_array_double_newv) \
    X(vips_area_unref) X(vips_source_custom_new) X(vips_thumbnail_source) \
    X(g_free) X(g_strerror) X(g_get_monotonic_time) X(g_log_set_handler) X(g_object_unref) \
    X(g_signal_connect_data) X(g_signal_handlers_disconnect_matched)

/// libchafa, with the GLib functions that free what it hands back.
#define TSI_CHAFA_FUNCTIONS(X) \
    X(chafa_canvas_config_new) X(chafa_canvas_config_unref) X(chafa_canvas_config_set_geometry) \
    X(chafa_canvas_config_set_cell_geometry) X(chafa_canvas_config_set_pixel_mode) \
    X(chafa_canvas_config_set_canvas_mode) X(chafa_canvas_config_set_symbol_map) X(chafa_symbol_map_new) \
    X(chafa_symbol_map_unref) X(chafa_symbol_map_add_by_tags) X(chafa_canvas_new) X(chafa_canvas_unref) \
    X(chafa_canvas_draw_all_pixels) X(chafa_canvas_get_char_at) X(chafa_canvas_get_colors_at) \
    X(chafa_canvas_get_raw_colors_at) X(chafa_canvas_print) X(chafa_term_db_get_default) \
    X(chafa_term_db_detect) X(chafa_term_info_set_seq) X(chafa_term_info_unref) \
    X(g_string_free) X(g_error_free) X(g_free)

#define TSI_ZBAR_FUNCTIONS(X) \
    X(zbar_image_scanner_create) X(zbar_image_scanner_destroy) X(zbar_image_scanner_set_config) \
    X(zbar_image_create) X(zbar_image_destroy) X(zbar_image_set_format) X(zbar_image_set_size) \
    X(zbar_image_set_data) X(zbar_scan_image) X(zbar_image_first_symbol) X(zbar_symbol_next) \
    X(zbar_symbol_get_type) X(zbar_get_symbol_name) X(zbar_symbol_get_data) X(zbar_symbol_get_data_length) \
    X(zbar_symbol_get_modifiers) X(zbar_symbol_get_loc_size) X(zbar_symbol_get_loc_x) \
    X(zbar_symbol_get_loc_y) X(zbar_symbol_get_orientation)

/// A field per function, typed from the header's declaration (`__typeof__` only reads the
/// declaration; it references no symbol).
#define TSI_FIELD(name) __typeof__(name) *name;

struct tsi_vips_functions { TSI_VIPS_FUNCTIONS(TSI_FIELD) };
struct tsi_chafa_functions { TSI_CHAFA_FUNCTIONS(TSI_FIELD) };
struct tsi_zbar_functions { TSI_ZBAR_FUNCTIONS(TSI_FIELD) };

/// Filled once by tsi_load; read only after it has returned 0 for that library.
extern struct tsi_vips_functions tsi_vips;
extern struct tsi_chafa_functions tsi_chafa;
extern struct tsi_zbar_functions tsi_zbar;

/// Copies `message` into `error` (NUL-terminated, truncated to fit); NULL or 0 does nothing.
void tsi_copy_message(char *error, size_t error_size, const char *message);

#endif
