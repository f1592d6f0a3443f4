#ifndef TABSHELL_LAZY_CURL_PROBE_H
#define TABSHELL_LAZY_CURL_PROBE_H

#include <stdbool.h>

/// Calls libcurl the way Foundation's networking half does, from C and linked statically against
/// CLazyCurl's trampolines (as the release binary's Foundation is): a private pointer set with
/// curl_easy_setopt and read back with curl_easy_getinfo, and an option set on a multi handle.
/// True when every answer is libcurl's own (the pointer comes back, known options are accepted
/// and an unknown one is refused).
bool lazy_curl_probe_round_trip(void);

#endif
