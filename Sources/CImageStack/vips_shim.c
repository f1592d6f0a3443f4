#include "vips_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libraries.h"

// Every libvips, GObject and GLib call goes through `tsi_vips`, the table tsi_load fills on
// first use (libraries.h): nothing here references a library symbol, so nothing links libvips.

// MARK: - Errors

/// Moves vips' (process-wide) error buffer into `error` and clears it, so one failure's text
/// does not leak into the next. Only a failure clears it: a success clearing it on one thread
/// would empty the text another thread's failure is about to take. Two failures at once may
/// still take each other's text, so the Swift side tells a cut-short file from its ending too.
static void take_vips_error(char *error, size_t error_size, const char *fallback) {
    char *text = tsi_vips.vips_error_buffer_copy();
    tsi_copy_message(error, error_size, (text != NULL && text[0] != '\0') ? text : fallback);
    tsi_vips.g_free(text);
}

// MARK: - Start

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static int start_status = TSV_NOT_STARTED;
static char start_error[256];

/// vips and its loaders report through GLib's log ("VIPS-WARNING **: ..."), which would land
/// on the curses screen. Failures come back through the error buffer instead.
static void discard_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/// The loaders a preview may use (class names; the File/Buffer/Source variants share the prefix).
static const char *const allowed_loaders[] = {
    "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp", "VipsForeignLoadNsgif", "VipsForeignLoadHeif",
};

static void start_vips(void) {
    if (tsi_load(TSI_VIPS, start_error, sizeof start_error) != 0) {
        start_status = TSV_LIBRARY_MISSING;
        return;
    }
    // What VIPS_INIT checks: the library's ABI is the one these headers describe.
    int abi = tsi_vips.vips_version(3) - tsi_vips.vips_version(5);
    if (abi != VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) {
        snprintf(start_error, sizeof start_error, "libvips has ABI version %d; tabshell was built for %d", abi,
                 VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
        start_status = TSV_LIBRARY_MISSING;
        return;
    }
    if (tsi_vips.vips_init("tabshell") != 0) {
        take_vips_error(start_error, sizeof start_error, "libvips did not start");
        start_status = TSV_NOT_STARTED;
        return;
    }
    tsi_vips.g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG,
                      discard_log, NULL);
    // Previews are made one at a time from files that are never read twice: an operation
    // cache only holds memory, and one worker keeps a decode from taking both cores.
    tsi_vips.vips_cache_set_max(0);
    tsi_vips.vips_cache_set_max_mem(0);
    tsi_vips.vips_cache_set_max_files(0);
    tsi_vips.vips_concurrency_set(1);
    tsi_vips.vips_block_untrusted_set(TRUE);
    tsi_vips.vips_operation_block_set("VipsForeignLoad", TRUE);
    for (size_t i = 0; i < G_N_ELEMENTS(allowed_loaders); i++) tsi_vips.vips_operation_block_set(allowed_loaders[i], FALSE);
    start_status = TSV_OK;
}

int tsv_start(char *error, size_t error_size) {
    pthread_once(&start_once, start_vips);
    if (start_status != TSV_OK) tsi_copy_message(error, error_size, start_error);
    return start_status;
}

// MARK: - Header

/// Finds the loader for a file and checks it is one of ours. Blocking alone is not enough:
/// vips 8.14 still names a blocked loader here and fails later with a vaguer message.
static int find_allowed_loader(const char *path, char *error, size_t error_size) {
    const char *loader = tsi_vips.vips_foreign_find_load(path);
    if (loader == NULL) {
        take_vips_error(error, error_size, "not a known image format");
        return TSV_UNKNOWN_FORMAT;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(allowed_loaders); i++) {
        if (strncmp(loader, allowed_loaders[i], strlen(allowed_loaders[i])) == 0) return TSV_OK;
    }
    if (error != NULL && error_size > 0) snprintf(error, error_size, "%s is not an allowed loader", loader);
    return TSV_UNKNOWN_FORMAT;
}

/// A header field that is an int, or `fallback`: asked only when its type says so, because a
/// failed get would write vips' process-wide error text.
static int header_int(VipsImage *image, const char *name, int fallback) {
    int value = fallback;
    if (tsi_vips.vips_image_get_typeof(image, name) != G_TYPE_INT || tsi_vips.vips_image_get_int(image, name, &value) != 0) {
        value = fallback;
    }
    return value;
}

int tsv_read_header(const char *path, tsv_header *out, char *error, size_t error_size) {
    int started = tsv_start(error, error_size);
    if (started != TSV_OK) return started;
    memset(out, 0, sizeof *out);

    int found = find_allowed_loader(path, error, error_size);
    if (found != TSV_OK) return found;
    // Opening reads the header only; pixels are decoded when something asks for them.
    VipsImage *image = tsi_vips.vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL,
                                                "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
    if (image == NULL) {
        take_vips_error(error, error_size, "the header cannot be read");
        return TSV_FAILED;
    }
    out->width = tsi_vips.vips_image_get_width(image);
    out->height = tsi_vips.vips_image_get_height(image);
    out->bands = tsi_vips.vips_image_get_bands(image);
    out->bytes_per_sample = (int)tsi_vips.vips_format_sizeof(tsi_vips.vips_image_get_format(image));
    out->pages = tsi_vips.vips_image_get_n_pages(image);
    out->interlaced = header_int(image, "interlaced", 0);
    out->orientation_swaps = tsi_vips.vips_image_get_orientation_swap(image) ? 1 : 0;

    const void *profile = NULL;
    size_t profile_length = 0;
    if (tsi_vips.vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0 &&
        tsi_vips.vips_image_get_blob(image, VIPS_META_ICC_NAME, &profile, &profile_length) == 0) {
        out->icc_profile_bytes = profile_length;
    }
    const char *loader = NULL;
    if (tsi_vips.vips_image_get_typeof(image, VIPS_META_LOADER) != 0 &&
        tsi_vips.vips_image_get_string(image, VIPS_META_LOADER, &loader) == 0 && loader != NULL) {
        tsi_copy_message(out->loader, sizeof out->loader, loader);
    }
    tsi_vips.g_object_unref(image);
    return TSV_OK;
}

// MARK: - Thumbnails

/// The file as a vips source whose every read checks a deadline. Decoders pull their input a
/// few kilobytes at a time while they work, so failing a read once the deadline has passed
/// stops a long decode partway through, which vips' own kill flag (checked only between
/// output tiles, and a thumbnail is one tile) cannot do.
typedef struct {
    int fd;
    gint64 deadline;
    int timed_out;
} deadline_source;

static gint64 deadline_read(VipsSourceCustom *source, void *buffer, gint64 length, void *user) {
    (void)source;
    deadline_source *state = user;
    if (state->deadline > 0 && tsi_vips.g_get_monotonic_time() > state->deadline) {
        state->timed_out = 1;
        return -1;
    }
    ssize_t count;
    do {
        count = read(state->fd, buffer, (size_t)length);
    } while (count < 0 && errno == EINTR);
    return count;
}

static gint64 deadline_seek(VipsSourceCustom *source, gint64 offset, int whence, void *user) {
    (void)source;
    deadline_source *state = user;
    return lseek(state->fd, (off_t)offset, whence);
}

/// Turns whatever the thumbnailer produced (grey, 16-bit, CMYK converted, with or without
/// alpha) into 8-bit sRGB with exactly four bands.
static VipsImage *as_rgba8(VipsImage *in) {
    VipsImage *srgb = NULL, *narrow = NULL, *rgba = NULL;
    if (tsi_vips.vips_colourspace(in, &srgb, VIPS_INTERPRETATION_sRGB, NULL) != 0) return NULL;
    if (tsi_vips.vips_cast_uchar(srgb, &narrow, NULL) != 0) {
        tsi_vips.g_object_unref(srgb);
        return NULL;
    }
    tsi_vips.g_object_unref(srgb);
    int bands = tsi_vips.vips_image_get_bands(narrow);
    int status = 0;
    if (bands == 4) {
        rgba = narrow;
        narrow = NULL;
    } else if (bands == 3) {
        status = tsi_vips.vips_addalpha(narrow, &rgba, NULL);
    } else if (bands > 4) {
        status = tsi_vips.vips_extract_band(narrow, &rgba, 0, "n", 4, NULL);
    } else {
        tsi_vips.vips_error("tabshell", "unexpected band count %d after sRGB conversion", bands);
        status = -1;
    }
    if (narrow != NULL) tsi_vips.g_object_unref(narrow);
    return status == 0 ? rgba : NULL;
}

/// Turns whatever the thumbnailer produced into one band of 8-bit grey (zbar's Y800). Alpha is
/// flattened onto white first: transparent pixels are often stored black, and would read as bars.
static VipsImage *as_grey8(VipsImage *in) {
    VipsImage *grey = NULL, *narrow = NULL, *flat = NULL, *one = NULL;
    if (tsi_vips.vips_colourspace(in, &grey, VIPS_INTERPRETATION_B_W, NULL) != 0) return NULL;
    int status = tsi_vips.vips_cast_uchar(grey, &narrow, NULL);
    tsi_vips.g_object_unref(grey);
    if (status != 0) return NULL;
    if (tsi_vips.vips_image_hasalpha(narrow)) {
        VipsArrayDouble *white = tsi_vips.vips_array_double_newv(1, 255.0);
        status = tsi_vips.vips_flatten(narrow, &flat, "background", white, NULL);
        tsi_vips.vips_area_unref(VIPS_AREA(white));
        tsi_vips.g_object_unref(narrow);
        if (status != 0) return NULL;
        status = tsi_vips.vips_cast_uchar(flat, &narrow, NULL);
        tsi_vips.g_object_unref(flat);
        if (status != 0) return NULL;
    }
    if (tsi_vips.vips_image_get_bands(narrow) == 1) return narrow;
    status = tsi_vips.vips_extract_band(narrow, &one, 0, NULL);
    tsi_vips.g_object_unref(narrow);
    return status == 0 ? one : NULL;
}

/// What tsv_thumbnail_rgba and tsv_thumbnail_grey share: the allow-list check, the file as a
/// deadline source, the thumbnail, the conversion to `bands` bands of 8 bits, and the copy out.
static int thumbnail_pixels(const char *path, int max_width, int max_height, int timeout_ms,
                            VipsImage *(*convert)(VipsImage *), int bands,
                            unsigned char **out_pixels, size_t *out_length, int *out_width, int *out_height,
                            char *error, size_t error_size) {
    int started = tsv_start(error, error_size);
    if (started != TSV_OK) return started;
    if (max_width < 1 || max_height < 1) {
        tsi_copy_message(error, error_size, "the target size is empty");
        return TSV_FAILED;
    }
    int found = find_allowed_loader(path, error, error_size);
    if (found != TSV_OK) return found;

    deadline_source state = { -1, 0, 0 };
    do {
        state.fd = open(path, O_RDONLY | O_CLOEXEC);
    } while (state.fd < 0 && errno == EINTR);
    if (state.fd < 0) {
        tsi_copy_message(error, error_size, tsi_vips.g_strerror(errno));
        return TSV_FAILED;
    }
    if (timeout_ms > 0) state.deadline = tsi_vips.g_get_monotonic_time() + (gint64)timeout_ms * 1000;
    VipsSourceCustom *source = tsi_vips.vips_source_custom_new();
    if (source == NULL) {
        close(state.fd);
        take_vips_error(error, error_size, "cannot make a source");
        return TSV_FAILED;
    }
    tsi_vips.g_signal_connect_data(source, "read", G_CALLBACK(deadline_read), &state, NULL, (GConnectFlags)0);
    tsi_vips.g_signal_connect_data(source, "seek", G_CALLBACK(deadline_seek), &state, NULL, (GConnectFlags)0);

    VipsImage *thumbnail = NULL, *converted = NULL;
    void *pixels = NULL;
    size_t length = 0;
    int width = 0, height = 0;
    // vips 8.14 does not pass the thumbnailer's fail_on to a source's loader; the loader's
    // option string does reach it.
    if (tsi_vips.vips_thumbnail_source((VipsSource *)source, &thumbnail, max_width, "height", max_height,
                              "size", VIPS_SIZE_DOWN, "fail_on", VIPS_FAIL_ON_TRUNCATED,
                              "option_string", "fail_on=truncated", NULL) == 0) {
        converted = convert(thumbnail);
        if (converted != NULL) {
            pixels = tsi_vips.vips_image_write_to_memory(converted, &length);
            width = tsi_vips.vips_image_get_width(converted);
            height = tsi_vips.vips_image_get_height(converted);
        }
    }
    if (converted != NULL) tsi_vips.g_object_unref(converted);
    if (thumbnail != NULL) tsi_vips.g_object_unref(thumbnail);
    // The images are gone, so nothing reads through the source any more; `state` may now go.
    tsi_vips.g_signal_handlers_disconnect_matched(source, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, &state);
    tsi_vips.g_object_unref(source);
    close(state.fd);

    if (pixels == NULL) {
        if (state.timed_out) {
            tsi_vips.vips_error_clear();
            tsi_copy_message(error, error_size, "decoding took longer than its deadline");
            return TSV_TIMED_OUT;
        }
        take_vips_error(error, error_size, "the image cannot be decoded");
        return TSV_FAILED;
    }
    if (length != (size_t)width * (size_t)height * (size_t)bands) {
        tsi_vips.g_free(pixels);
        tsi_copy_message(error, error_size, "the decoded image has an unexpected size");
        return TSV_FAILED;
    }
    *out_pixels = pixels;
    *out_length = length;
    *out_width = width;
    *out_height = height;
    return TSV_OK;
}

int tsv_thumbnail_rgba(const char *path, int max_width, int max_height, int timeout_ms,
                       tsv_rgba *out, char *error, size_t error_size) {
    memset(out, 0, sizeof *out);
    return thumbnail_pixels(path, max_width, max_height, timeout_ms, as_rgba8, 4,
                            &out->pixels, &out->length, &out->width, &out->height, error, error_size);
}

int tsv_thumbnail_grey(const char *path, int max_width, int max_height, int timeout_ms,
                       tsv_grey *out, char *error, size_t error_size) {
    memset(out, 0, sizeof *out);
    return thumbnail_pixels(path, max_width, max_height, timeout_ms, as_grey8, 1,
                            &out->pixels, &out->length, &out->width, &out->height, error, error_size);
}

void tsv_grey_free(tsv_grey *image) {
    if (image == NULL) return;
    tsi_vips.g_free(image->pixels);
    image->pixels = NULL;
    image->length = 0;
}

void tsv_rgba_free(tsv_rgba *image) {
    if (image == NULL) return;
    tsi_vips.g_free(image->pixels);
    image->pixels = NULL;
    image->length = 0;
}

// MARK: - Saving sample images

int tsv_save(const unsigned char *pixels, int width, int height, int bands, const char *path,
             char *error, size_t error_size) {
    int started = tsv_start(error, error_size);
    if (started != TSV_OK) return started;
    if (width < 1 || height < 1 || bands < 1 || bands > 4) {
        tsi_copy_message(error, error_size, "bad image geometry");
        return TSV_FAILED;
    }
    size_t length = (size_t)width * (size_t)height * (size_t)bands;
    VipsImage *image = tsi_vips.vips_image_new_from_memory_copy(pixels, length, width, height, bands, VIPS_FORMAT_UCHAR);
    if (image == NULL) {
        take_vips_error(error, error_size, "cannot wrap the pixels");
        return TSV_FAILED;
    }
    int status = tsi_vips.vips_image_write_to_file(image, path, NULL);
    tsi_vips.g_object_unref(image);
    if (status != 0) {
        take_vips_error(error, error_size, "cannot save the image");
        return TSV_FAILED;
    }
    return TSV_OK;
}
