#include "zbar_shim.h"

#include "libraries.h"

// Every libzbar call goes through `tsi_zbar`, the table tsi_load fills on first use
// (libraries.h): nothing here references a library symbol, so nothing links libzbar.

zbar_image_scanner_t *tsz_image_scanner_create(void) {
    if (tsi_load(TSI_ZBAR, NULL, 0) != 0) return NULL;
    return tsi_zbar.zbar_image_scanner_create();
}

void tsz_image_scanner_destroy(zbar_image_scanner_t *scanner) { tsi_zbar.zbar_image_scanner_destroy(scanner); }

int tsz_image_scanner_set_config(zbar_image_scanner_t *scanner, zbar_symbol_type_t symbology, zbar_config_t config,
                                 int value) {
    return tsi_zbar.zbar_image_scanner_set_config(scanner, symbology, config, value);
}

int tsz_scan_image(zbar_image_scanner_t *scanner, zbar_image_t *image) { return tsi_zbar.zbar_scan_image(scanner, image); }

zbar_image_t *tsz_image_create(void) {
    if (tsi_load(TSI_ZBAR, NULL, 0) != 0) return NULL;
    return tsi_zbar.zbar_image_create();
}

void tsz_image_destroy(zbar_image_t *image) { tsi_zbar.zbar_image_destroy(image); }

void tsz_image_set_format(zbar_image_t *image, unsigned long format) { tsi_zbar.zbar_image_set_format(image, format); }

void tsz_image_set_size(zbar_image_t *image, unsigned width, unsigned height) {
    tsi_zbar.zbar_image_set_size(image, width, height);
}

void tsz_image_set_data(zbar_image_t *image, const void *data, unsigned long length) {
    tsi_zbar.zbar_image_set_data(image, data, length, NULL);
}

const zbar_symbol_t *tsz_image_first_symbol(const zbar_image_t *image) { return tsi_zbar.zbar_image_first_symbol(image); }

const zbar_symbol_t *tsz_symbol_next(const zbar_symbol_t *symbol) { return tsi_zbar.zbar_symbol_next(symbol); }

zbar_symbol_type_t tsz_symbol_get_type(const zbar_symbol_t *symbol) { return tsi_zbar.zbar_symbol_get_type(symbol); }

const char *tsz_get_symbol_name(zbar_symbol_type_t symbology) { return tsi_zbar.zbar_get_symbol_name(symbology); }

const char *tsz_symbol_get_data(const zbar_symbol_t *symbol) { return tsi_zbar.zbar_symbol_get_data(symbol); }

unsigned int tsz_symbol_get_data_length(const zbar_symbol_t *symbol) {
    return tsi_zbar.zbar_symbol_get_data_length(symbol);
}

unsigned int tsz_symbol_get_modifiers(const zbar_symbol_t *symbol) { return tsi_zbar.zbar_symbol_get_modifiers(symbol); }

unsigned tsz_symbol_get_loc_size(const zbar_symbol_t *symbol) { return tsi_zbar.zbar_symbol_get_loc_size(symbol); }

int tsz_symbol_get_loc_x(const zbar_symbol_t *symbol, unsigned index) {
    return tsi_zbar.zbar_symbol_get_loc_x(symbol, index);
}

int tsz_symbol_get_loc_y(const zbar_symbol_t *symbol, unsigned index) {
    return tsi_zbar.zbar_symbol_get_loc_y(symbol, index);
}

zbar_orientation_t tsz_symbol_get_orientation(const zbar_symbol_t *symbol) {
    return tsi_zbar.zbar_symbol_get_orientation(symbol);
}
