#include "lazy_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// libcurl's types as far as the trampolines need them: handles are opaque pointers, the result
// codes and option names are C enums (int), a socket is an int. No curl header is needed to build.
typedef int curl_code;

static void *library;
static atomic_bool loaded;
static atomic_ulong calls;
static pthread_once_t opening = PTHREAD_ONCE_INIT;

static void open_library(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library != NULL) atomic_store(&loaded, true);
}

/// libcurl's own function `name`. Nothing in tabshell makes an HTTP request, so reaching here
/// without libcurl installed is a packaging error: it is said on standard error, then the process
/// stops (a caller of these functions cannot be told "no curl" in a way it would handle).
static void *resolve(const char *name) {
    pthread_once(&opening, open_library);
    void *function = library != NULL ? dlsym(library, name) : NULL;
    if (function == NULL) {
        const char *reason = dlerror();
        char message[512];
        int length = snprintf(
            message, sizeof message, "tabshell: %s from libcurl.so.4 is not available (%s); install libcurl4\n", name,
            reason != NULL ? reason : "the library cannot be opened");
        if (length > 0) (void)!write(2, message, (size_t)length < sizeof message ? (size_t)length : sizeof message - 1);
        abort();
    }
    return function;
}

bool tabshell_curl_loaded(void) { return atomic_load(&loaded); }

unsigned long tabshell_curl_calls(void) { return atomic_load_explicit(&calls, memory_order_relaxed); }

// One trampoline per function: the address is looked up once (every thread that races to it
// finds the same address) and every later call goes straight through.
static void *address_of(void *_Atomic *cache, const char *name) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    void *function = atomic_load_explicit(cache, memory_order_acquire);
    if (function == NULL) {
        function = resolve(name);
        atomic_store_explicit(cache, function, memory_order_release);
    }
    return function;
}

#define TRAMPOLINE(result, name, parameters, arguments)                        \
    result name parameters {                                                   \
        static void *_Atomic cache;                                            \
        return ((result(*) parameters)address_of(&cache, #name)) arguments;   \
    }

TRAMPOLINE(void *, curl_easy_init, (void), ())
TRAMPOLINE(void, curl_easy_cleanup, (void *handle), (handle))
TRAMPOLINE(curl_code, curl_easy_pause, (void *handle, int bitmask), (handle, bitmask))
TRAMPOLINE(const char *, curl_easy_strerror, (curl_code code), (code))
TRAMPOLINE(void, curl_free, (void *pointer), (pointer))
TRAMPOLINE(curl_code, curl_global_init, (long flags), (flags))
TRAMPOLINE(curl_code, curl_multi_add_handle, (void *multi, void *easy), (multi, easy))
TRAMPOLINE(curl_code, curl_multi_assign, (void *multi, int socket, void *pointer), (multi, socket, pointer))
TRAMPOLINE(curl_code, curl_multi_cleanup, (void *multi), (multi))
TRAMPOLINE(void *, curl_multi_info_read, (void *multi, int *messages), (multi, messages))
TRAMPOLINE(void *, curl_multi_init, (void), ())
TRAMPOLINE(curl_code, curl_multi_remove_handle, (void *multi, void *easy), (multi, easy))
TRAMPOLINE(curl_code, curl_multi_socket_action, (void *multi, int socket, int events, int *running), (multi, socket, events, running))
TRAMPOLINE(void *, curl_slist_append, (void *list, const char *text), (list, text))
TRAMPOLINE(void, curl_slist_free_all, (void *list), (list))
TRAMPOLINE(void *, curl_url, (void), ())
TRAMPOLINE(curl_code, curl_url_get, (const void *url, int part, char **text, unsigned int flags), (url, part, text, flags))
TRAMPOLINE(curl_code, curl_url_set, (void *url, int part, const char *text, unsigned int flags), (url, part, text, flags))
TRAMPOLINE(char *, curl_version, (void), ())
TRAMPOLINE(void *, curl_version_info, (int age), (age))

// The three variadic functions take exactly one argument after the option, always of a
// register-sized kind (long, curl_off_t, a pointer, a function pointer; never a double), so it is
// read as one machine word and passed on as one: on the LP64 Linux ABIs (x86-64, AArch64) each of
// those kinds travels in the same general-purpose register.
#define OPTION_TRAMPOLINE(name)                                                \
    curl_code name(void *handle, int option, ...) {                            \
        static void *_Atomic cache;                                            \
        va_list arguments;                                                     \
        va_start(arguments, option);                                           \
        void *argument = va_arg(arguments, void *);                            \
        va_end(arguments);                                                     \
        return ((curl_code(*)(void *, int, ...))address_of(&cache, #name))(handle, option, argument); \
    }

OPTION_TRAMPOLINE(curl_easy_setopt)
OPTION_TRAMPOLINE(curl_easy_getinfo)
OPTION_TRAMPOLINE(curl_multi_setopt)

const char *tabshell_curl_version(void) { return curl_version(); }
