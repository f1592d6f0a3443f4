// libzbar 0.23 (Debian libzbar-dev): the image scanner is plain C functions and enums, which
// Swift imports directly. Only zbar_fourcc is a macro, so the one format PhotoCodes hands zbar
// is spelt here as a function.
#ifndef TABSHELL_CZBAR_SHIM_H
#define TABSHELL_CZBAR_SHIM_H
#include <zbar.h>

/// "Y800": 8-bit grey, one byte a pixel, rows packed.
static inline unsigned long tsz_format_y800(void) {
    return zbar_fourcc('Y', '8', '0', '0');
}
#endif
