// libcurl for Swift, opened with dlopen when the network is first used rather than linked: linking would load
// libcurl and the two dozen libraries it brings (TLS, Kerberos, LDAP, SSH, IDN…) at every start of every command,
// about 4 ms each time, though most starts (the shelf, `list`, `read`) never touch the network. Only the headers
// are used at build time; `newsstand_curl_open` fills a table of entry points at run time.
//
// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, so they do not import: the typed
// wrappers below stand in for them, one per argument type. Macros built from casts or other macros
// (CURLAUTH_ANY, CURLPAUSE_CONT, CURL_GLOBAL_ALL) do not import either: functions return them.
#ifndef NEWSSTAND_CCURL_SHIM_H
#define NEWSSTAND_CCURL_SHIM_H
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>

/// The libcurl this program uses at run time (Debian's libcurl4 package; the -dev package gives the headers).
#define NEWSSTAND_CURL_SONAME "libcurl.so.4"

/// libcurl's entry points, as looked up by `newsstand_curl_open`.
struct newsstand_curl {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_pause)(CURL *handle, int bitmask);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *remaining);
};

/// Opens the library named `soname` and fills `curl` with its entry points. Returns NULL on success, else the
/// dynamic loader's words for what is missing (and `curl` must not be used).
static inline const char *newsstand_curl_open(const char *soname, struct newsstand_curl *curl) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define NEWSSTAND_CURL_LOOK_UP(field, name) \
    if ((*(void **)&curl->field = dlsym(library, name)) == NULL) return dlerror();
    NEWSSTAND_CURL_LOOK_UP(global_init, "curl_global_init")
    NEWSSTAND_CURL_LOOK_UP(easy_init, "curl_easy_init")
    NEWSSTAND_CURL_LOOK_UP(easy_cleanup, "curl_easy_cleanup")
    NEWSSTAND_CURL_LOOK_UP(easy_setopt, "curl_easy_setopt")
    NEWSSTAND_CURL_LOOK_UP(easy_getinfo, "curl_easy_getinfo")
    NEWSSTAND_CURL_LOOK_UP(easy_strerror, "curl_easy_strerror")
    NEWSSTAND_CURL_LOOK_UP(easy_pause, "curl_easy_pause")
    NEWSSTAND_CURL_LOOK_UP(slist_append, "curl_slist_append")
    NEWSSTAND_CURL_LOOK_UP(slist_free_all, "curl_slist_free_all")
    NEWSSTAND_CURL_LOOK_UP(multi_init, "curl_multi_init")
    NEWSSTAND_CURL_LOOK_UP(multi_cleanup, "curl_multi_cleanup")
    NEWSSTAND_CURL_LOOK_UP(multi_setopt, "curl_multi_setopt")
    NEWSSTAND_CURL_LOOK_UP(multi_add_handle, "curl_multi_add_handle")
    NEWSSTAND_CURL_LOOK_UP(multi_remove_handle, "curl_multi_remove_handle")
    NEWSSTAND_CURL_LOOK_UP(multi_perform, "curl_multi_perform")
    NEWSSTAND_CURL_LOOK_UP(multi_poll, "curl_multi_poll")
    NEWSSTAND_CURL_LOOK_UP(multi_wakeup, "curl_multi_wakeup")
    NEWSSTAND_CURL_LOOK_UP(multi_info_read, "curl_multi_info_read")
#undef NEWSSTAND_CURL_LOOK_UP
    return NULL;
}

// MARK: curl_easy_setopt, by argument type

static inline CURLcode newsstand_curl_easy_setopt_long(const struct newsstand_curl *curl, CURL *handle, CURLoption option, long value) {
    return curl->easy_setopt(handle, option, value);
}
static inline CURLcode newsstand_curl_easy_setopt_string(const struct newsstand_curl *curl, CURL *handle, CURLoption option, const char *value) {
    return curl->easy_setopt(handle, option, value);
}
static inline CURLcode newsstand_curl_easy_setopt_pointer(const struct newsstand_curl *curl, CURL *handle, CURLoption option, void *value) {
    return curl->easy_setopt(handle, option, value);
}
static inline CURLcode newsstand_curl_easy_setopt_off_t(const struct newsstand_curl *curl, CURL *handle, CURLoption option, curl_off_t value) {
    return curl->easy_setopt(handle, option, value);
}
static inline CURLcode newsstand_curl_easy_setopt_slist(const struct newsstand_curl *curl, CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl->easy_setopt(handle, option, value);
}
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode newsstand_curl_easy_setopt_write_callback(const struct newsstand_curl *curl, CURL *handle, CURLoption option, curl_write_callback value) {
    return curl->easy_setopt(handle, option, value);
}
/// CURLOPT_XFERINFOFUNCTION.
static inline CURLcode newsstand_curl_easy_setopt_xferinfo_callback(const struct newsstand_curl *curl, CURL *handle, CURLoption option, curl_xferinfo_callback value) {
    return curl->easy_setopt(handle, option, value);
}

// MARK: curl_easy_getinfo, by result type

static inline CURLcode newsstand_curl_easy_getinfo_long(const struct newsstand_curl *curl, CURL *handle, CURLINFO info, long *value) {
    return curl->easy_getinfo(handle, info, value);
}
static inline CURLcode newsstand_curl_easy_getinfo_string(const struct newsstand_curl *curl, CURL *handle, CURLINFO info, const char **value) {
    return curl->easy_getinfo(handle, info, value);
}
static inline CURLcode newsstand_curl_easy_getinfo_off_t(const struct newsstand_curl *curl, CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl->easy_getinfo(handle, info, value);
}
/// CURLINFO_PRIVATE.
static inline CURLcode newsstand_curl_easy_getinfo_pointer(const struct newsstand_curl *curl, CURL *handle, CURLINFO info, void **value) {
    char *pointer = NULL;
    CURLcode code = curl->easy_getinfo(handle, info, &pointer);
    *value = pointer;
    return code;
}

// MARK: curl_multi_setopt

static inline CURLMcode newsstand_curl_multi_setopt_long(const struct newsstand_curl *curl, CURLM *handle, CURLMoption option, long value) {
    return curl->multi_setopt(handle, option, value);
}

// MARK: Constants that do not import

static inline long newsstand_curl_global_all(void) { return CURL_GLOBAL_ALL; }
static inline unsigned long newsstand_curlauth_any(void) { return CURLAUTH_ANY; }
static inline int newsstand_curlpause_cont(void) { return CURLPAUSE_CONT; }
static inline size_t newsstand_curl_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline size_t newsstand_curl_max_write_size(void) { return CURL_MAX_WRITE_SIZE; }
static inline int newsstand_curl_error_size(void) { return CURL_ERROR_SIZE; }

#endif
