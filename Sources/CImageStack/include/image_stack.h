// The image stack — libvips (decoding), libchafa (drawing) and libzbar (barcodes) — loaded on
// first use. Nothing links these libraries: each is opened with dlopen the first time something
// needs it (once per process, whichever thread asks first) and its functions are called through
// a table filled by dlsym. A process that never shows a photo or reads a code from one maps none
// of them, nor the ~120 libraries they pull in (GLib, librsvg, OpenEXR, gnutls, …).
// See docs/photo-preview.md, "Loaded on first use".
#ifndef TABSHELL_IMAGE_STACK_H
#define TABSHELL_IMAGE_STACK_H

#include <stddef.h>

typedef enum {
    TSI_VIPS = 0,
    TSI_CHAFA = 1,
    TSI_ZBAR = 2,
} tsi_library;

/// Opens `library` and resolves every function tabshell calls in it, the first time it is asked
/// for; later calls, from any thread, return the first call's result. 0 when the library is
/// ready; -1 when it could not be opened or lacks a function, with dlerror's words copied into
/// `error` (always NUL-terminated). A library that failed stays failed for the process.
///
/// The file opened is the library's soname (libvips.so.42, libchafa.so.0, libzbar.so.0), found
/// where the dynamic loader looks. TABSHELL_LIBVIPS, TABSHELL_LIBCHAFA and TABSHELL_LIBZBAR name
/// another file instead — a file name only, no '/' — so a test can run the app as it is on a
/// host without the library.
int tsi_load(tsi_library library, char *error, size_t error_size);

#endif
