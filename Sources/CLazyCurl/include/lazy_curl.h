#ifndef TABSHELL_LAZY_CURL_H
#define TABSHELL_LAZY_CURL_H

#include <stdbool.h>

/// libcurl, opened on first use. Foundation's networking half (linked because the MCP SDK
/// imports it) refers to 23 libcurl functions; this module defines each one as a trampoline that
/// opens libcurl.so.4 the first time any of them is called and forwards to it. With the release
/// build's `--as-needed`, libcurl is then no longer among the libraries the binary needs at start,
/// so an app session (which never makes an HTTP request) does not map it and its 28 dependencies.

/// Whether libcurl has been opened in this process (by a call through a trampoline).
bool tabshell_curl_loaded(void);

/// How many calls have gone through the trampolines in this process (what shows that a caller
/// reached libcurl through them and not around them).
unsigned long tabshell_curl_calls(void);

/// The version string of the libcurl the trampolines forward to ("libcurl/7.88.1 …"); opens it.
const char *tabshell_curl_version(void);

#endif
