#include "libraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tsi_vips_functions tsi_vips;
struct tsi_chafa_functions tsi_chafa;
struct tsi_zbar_functions tsi_zbar;

void tsi_copy_message(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    if (message == NULL) message = "";
    strncpy(error, message, error_size - 1);
    error[error_size - 1] = '\0';
}

/// What loading one library came to, written once inside its pthread_once.
typedef struct {
    const char *soname;
    const char *override_variable;
    int status;
    char error[320];
} library_state;

static library_state states[] = {
    [TSI_VIPS] = { "libvips.so.42", "TABSHELL_LIBVIPS", -1, "" },
    [TSI_CHAFA] = { "libchafa.so.0", "TABSHELL_LIBCHAFA", -1, "" },
    [TSI_ZBAR] = { "libzbar.so.0", "TABSHELL_LIBZBAR", -1, "" },
};

/// dlopen with the local scope: the library's symbols serve only the lookups made through its
/// handle, so nothing loaded later binds to them by accident. RTLD_NOW resolves everything at
/// once, here, rather than at some later call on a decode thread. The handle is never closed:
/// GLib's types cannot be unregistered, and a photo shown once is likely shown again.
static void *open_library(library_state *state) {
    const char *file = state->soname;
    const char *chosen = getenv(state->override_variable);
    if (chosen != NULL && chosen[0] != '\0') {
        if (strchr(chosen, '/') != NULL) {
            snprintf(state->error, sizeof state->error, "%s must be a library file name, not a path", state->override_variable);
            return NULL;
        }
        file = chosen;
    }
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        tsi_copy_message(state->error, sizeof state->error, reason != NULL ? reason : "the library cannot be opened");
    }
    return handle;
}

/// Looks up one function; on failure records dlerror's words (which name the symbol).
static void *resolve(void *handle, const char *name, library_state *state) {
    dlerror();
    void *symbol = dlsym(handle, name);
    if (symbol == NULL) {
        const char *reason = dlerror();
        if (reason != NULL) {
            tsi_copy_message(state->error, sizeof state->error, reason);
        } else {
            snprintf(state->error, sizeof state->error, "%s: no function %s", state->soname, name);
        }
    }
    return symbol;
}

/// Fills one field of `table`, or gives up on the library (whose table is then never read).
#define TSI_LOAD_FUNCTION(name) \
    if ((table->name = (__typeof__(name) *)resolve(handle, #name, state)) == NULL) return;

static void load_vips(void) {
    library_state *state = &states[TSI_VIPS];
    void *handle = open_library(state);
    if (handle == NULL) return;
    struct tsi_vips_functions *table = &tsi_vips;
    TSI_VIPS_FUNCTIONS(TSI_LOAD_FUNCTION)
    state->status = 0;
}

static void load_chafa(void) {
    library_state *state = &states[TSI_CHAFA];
    void *handle = open_library(state);
    if (handle == NULL) return;
    struct tsi_chafa_functions *table = &tsi_chafa;
    TSI_CHAFA_FUNCTIONS(TSI_LOAD_FUNCTION)
    state->status = 0;
}

static void load_zbar(void) {
    library_state *state = &states[TSI_ZBAR];
    void *handle = open_library(state);
    if (handle == NULL) return;
    struct tsi_zbar_functions *table = &tsi_zbar;
    TSI_ZBAR_FUNCTIONS(TSI_LOAD_FUNCTION)
    state->status = 0;
}

static pthread_once_t once[] = { PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT };
static void (*const loaders[])(void) = { [TSI_VIPS] = load_vips, [TSI_CHAFA] = load_chafa, [TSI_ZBAR] = load_zbar };

int tsi_load(tsi_library library, char *error, size_t error_size) {
    if ((int)library < 0 || (size_t)library >= sizeof states / sizeof states[0]) {
        tsi_copy_message(error, error_size, "no such library");
        return -1;
    }
    // pthread_once is also the barrier: what the loader wrote is visible to every caller after it.
    pthread_once(&once[library], loaders[library]);
    library_state *state = &states[library];
    if (state->status != 0) tsi_copy_message(error, error_size, state->error);
    return state->status;
}
