// Non-variadic wrappers over libvips for PhotoPreview and PhotoCodes. vips takes its options as NULL-terminated
// variadic lists, which Swift cannot call; these functions fix the options a preview needs and
// return plain structs. Every function reports failure by its return value and, where given,
// a message copied into `error` (always NUL-terminated); none of them aborts the process.
// libvips is opened on the first call (image_stack.h); without it every call returns
// TSV_LIBRARY_MISSING with the loader's words.
#ifndef TABSHELL_VIPS_SHIM_H
#define TABSHELL_VIPS_SHIM_H

#include <stddef.h>

typedef enum {
    TSV_OK = 0,
    /// vips reported an error; the message says which.
    TSV_FAILED = -1,
    /// No allowed loader recognises the file (random bytes, an unsupported or blocked format).
    TSV_UNKNOWN_FORMAT = -2,
    /// Decoding ran past its deadline and was stopped.
    TSV_TIMED_OUT = -3,
    /// libvips did not start (see tsv_start).
    TSV_NOT_STARTED = -4,
    /// libvips could not be loaded: not installed, or not the version tabshell was built for.
    TSV_LIBRARY_MISSING = -5,
} tsv_status;

/// Loads and starts libvips once per process (later calls return the first call's status): small caches,
/// one worker thread, warnings kept off stderr, and every loader blocked except JPEG, PNG,
/// WebP, GIF and HEIF — so a hostile file cannot reach ImageMagick, PDF, SVG or the like.
int tsv_start(char *error, size_t error_size);

/// What a file's header says, read without decoding any pixels.
typedef struct {
    /// Of the first page, as stored (before the EXIF orientation is applied).
    int width;
    int height;
    int bands;
    int bytes_per_sample;
    /// Frames in an animation or images in a HEIF container (1 when the format has no pages).
    int pages;
    /// A progressive JPEG or interlaced PNG: decoded whole into memory, not streamed.
    int interlaced;
    /// The EXIF orientation turns the image a quarter (width and height swap on display).
    int orientation_swaps;
    /// Bytes of the embedded ICC profile (0 when there is none).
    size_t icc_profile_bytes;
    /// vips' loader nickname, such as "jpegload" or "heifload".
    char loader[32];
} tsv_header;

int tsv_read_header(const char *path, tsv_header *out, char *error, size_t error_size);

/// 8-bit sRGB pixels with alpha, rows packed (stride = width * 4). Free with tsv_rgba_free.
typedef struct {
    unsigned char *pixels;
    size_t length;
    int width;
    int height;
} tsv_rgba;

/// Decodes the first page of the file, shrunk (never enlarged) to fit max_width × max_height,
/// upright per EXIF, converted to sRGB. Shrink-on-load where the format has it (JPEG, WebP,
/// HEIF thumbnails). A truncated file is an error. Reads stop after timeout_ms (0 = no
/// deadline) and the call returns TSV_TIMED_OUT.
int tsv_thumbnail_rgba(const char *path, int max_width, int max_height, int timeout_ms,
                       tsv_rgba *out, char *error, size_t error_size);

void tsv_rgba_free(tsv_rgba *image);

/// 8-bit grey pixels, one byte each, rows packed (stride = width): zbar's Y800. Free with
/// tsv_grey_free.
typedef struct {
    unsigned char *pixels;
    size_t length;
    int width;
    int height;
} tsv_grey;

/// As tsv_thumbnail_rgba — same loader allow-list, shrinking, EXIF turn, truncation rule and
/// deadline — but one band of 8-bit grey, any alpha flattened onto white: what a barcode
/// reader scans.
int tsv_thumbnail_grey(const char *path, int max_width, int max_height, int timeout_ms,
                       tsv_grey *out, char *error, size_t error_size);

void tsv_grey_free(tsv_grey *image);

/// Saves 8-bit pixels (1 to 4 bands, rows packed) to `path`; the suffix picks the format and
/// options may follow in brackets, as in "photo.jpg[Q=90]". For tests and the benchmark, which
/// make their sample images with it.
int tsv_save(const unsigned char *pixels, int width, int height, int bands, const char *path,
             char *error, size_t error_size);

#endif
