// libzbar 0.23 (Debian libzbar-dev) for PhotoCodes' scanner: zbar's own functions, one wrapper
// each, called through the table tsi_load fills on first use (image_stack.h), so nothing links
// libzbar. zbar.h is included for its types and enums only (it needs no other headers). Call
// tsi_load(TSI_ZBAR, …) first: the two constructors return NULL until it has succeeded, and
// every other function takes what they made.
#ifndef TABSHELL_ZBAR_SHIM_H
#define TABSHELL_ZBAR_SHIM_H

#include <zbar.h>

/// "Y800": 8-bit grey, one byte a pixel, rows packed (zbar_fourcc is a macro Swift cannot call).
static inline unsigned long tsz_format_y800(void) {
    return zbar_fourcc('Y', '8', '0', '0');
}

zbar_image_scanner_t *tsz_image_scanner_create(void);
void tsz_image_scanner_destroy(zbar_image_scanner_t *scanner);
int tsz_image_scanner_set_config(zbar_image_scanner_t *scanner, zbar_symbol_type_t symbology, zbar_config_t config,
                                 int value);
int tsz_scan_image(zbar_image_scanner_t *scanner, zbar_image_t *image);

zbar_image_t *tsz_image_create(void);
void tsz_image_destroy(zbar_image_t *image);
void tsz_image_set_format(zbar_image_t *image, unsigned long format);
void tsz_image_set_size(zbar_image_t *image, unsigned width, unsigned height);
/// The pixels are read during tsz_scan_image only and stay the caller's (no cleanup handler).
void tsz_image_set_data(zbar_image_t *image, const void *data, unsigned long length);
const zbar_symbol_t *tsz_image_first_symbol(const zbar_image_t *image);

const zbar_symbol_t *tsz_symbol_next(const zbar_symbol_t *symbol);
zbar_symbol_type_t tsz_symbol_get_type(const zbar_symbol_t *symbol);
const char *tsz_get_symbol_name(zbar_symbol_type_t symbology);
const char *tsz_symbol_get_data(const zbar_symbol_t *symbol);
unsigned int tsz_symbol_get_data_length(const zbar_symbol_t *symbol);
unsigned int tsz_symbol_get_modifiers(const zbar_symbol_t *symbol);
unsigned tsz_symbol_get_loc_size(const zbar_symbol_t *symbol);
int tsz_symbol_get_loc_x(const zbar_symbol_t *symbol, unsigned index);
int tsz_symbol_get_loc_y(const zbar_symbol_t *symbol, unsigned index);
zbar_orientation_t tsz_symbol_get_orientation(const zbar_symbol_t *symbol);

#endif
