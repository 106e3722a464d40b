// libcurl for Swift. curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, so they do not
// import: these typed wrappers stand in for them, one per argument type. Macros built from casts or other
// macros (CURLAUTH_ANY, CURLPAUSE_CONT, CURL_GLOBAL_ALL) do not import either: functions return them.
#ifndef NEWSSTAND_CCURL_SHIM_H
#define NEWSSTAND_CCURL_SHIM_H
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

// MARK: curl_easy_setopt, by argument type

static inline CURLcode newsstand_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode newsstand_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode newsstand_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode newsstand_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode newsstand_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode newsstand_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}
/// CURLOPT_XFERINFOFUNCTION.
static inline CURLcode newsstand_curl_easy_setopt_xferinfo_callback(CURL *handle, CURLoption option, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, option, value);
}

// MARK: curl_easy_getinfo, by result type

static inline CURLcode newsstand_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode newsstand_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode newsstand_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
/// CURLINFO_PRIVATE.
static inline CURLcode newsstand_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    char *pointer = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &pointer);
    *value = pointer;
    return code;
}

// MARK: curl_multi_setopt

static inline CURLMcode newsstand_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

// MARK: Constants that do not import

static inline long newsstand_curl_global_all(void) { return CURL_GLOBAL_ALL; }
static inline unsigned long newsstand_curlauth_any(void) { return CURLAUTH_ANY; }
static inline int newsstand_curlpause_cont(void) { return CURLPAUSE_CONT; }
static inline size_t newsstand_curl_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline size_t newsstand_curl_max_write_size(void) { return CURL_MAX_WRITE_SIZE; }
static inline int newsstand_curl_error_size(void) { return CURL_ERROR_SIZE; }

#endif
