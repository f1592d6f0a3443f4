#include "lazy_curl_probe.h"

#include <stddef.h>

// libcurl's declarations as its header has them (the variadic three are what the probe is for).
void *curl_easy_init(void);
void curl_easy_cleanup(void *handle);
int curl_easy_setopt(void *handle, int option, ...);
int curl_easy_getinfo(void *handle, int info, ...);
void *curl_multi_init(void);
int curl_multi_setopt(void *multi, int option, ...);
int curl_multi_cleanup(void *multi);

enum {
    CURLOPT_PRIVATE = 10103,         // CURLOPTTYPE_OBJECTPOINT + 103
    CURLINFO_PRIVATE = 0x100000 + 21, // CURLINFO_STRING + 21
    CURLMOPT_MAXCONNECTS = 6,         // CURLOPTTYPE_LONG + 6
    CURLM_UNKNOWN_OPTION = 6,
};

bool lazy_curl_probe_round_trip(void) {
    static char marker[] = "tabshell";
    void *easy = curl_easy_init();
    if (easy == NULL) return false;
    char *back = NULL;
    bool easyAnswers = curl_easy_setopt(easy, CURLOPT_PRIVATE, marker) == 0
        && curl_easy_getinfo(easy, CURLINFO_PRIVATE, &back) == 0 && back == marker;
    curl_easy_cleanup(easy);
    void *multi = curl_multi_init();
    if (multi == NULL) return false;
    bool multiAnswers = curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, 4L) == 0
        && curl_multi_setopt(multi, 99999, 1L) == CURLM_UNKNOWN_OPTION;
    curl_multi_cleanup(multi);
    return easyAnswers && multiAnswers;
}
