// OpenSSL's libcrypto for Swift, opened with dlopen when a digest is first taken rather than linked: linking loaded
// libcrypto at every start of every command, and its 3,400 symbol bindings were the largest single part of the
// time before `main` (about a quarter of `newsstand --version`'s instructions), though only verifying a download
// (SHA-256) and the test server's digest logins (MD5) use it. Only the headers are used at build time;
// `newsstand_crypto_library()` fills a table of entry points once, at first use.
#ifndef NEWSSTAND_CCRYPTO_SHIM_H
#define NEWSSTAND_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

/// The libcrypto this program uses at run time (Debian's libssl3 package; libssl-dev gives the headers).
#define NEWSSTAND_CRYPTO_SONAME "libcrypto.so.3"

/// libcrypto's entry points, as looked up by `newsstand_crypto`; `failure` is NULL when they all were found, else
/// the dynamic loader's words for what is missing (and the entry points must not be used).
struct newsstand_crypto {
    const char *failure;
    EVP_MD_CTX *(*md_ctx_new)(void);
    void (*md_ctx_free)(EVP_MD_CTX *context);
    int (*digest_init_ex)(EVP_MD_CTX *context, const EVP_MD *type, ENGINE *engine);
    int (*digest_update)(EVP_MD_CTX *context, const void *data, size_t count);
    int (*digest_final_ex)(EVP_MD_CTX *context, unsigned char *digest, unsigned int *length);
    int (*digest)(const void *data, size_t count, unsigned char *digest, unsigned int *length, const EVP_MD *type, ENGINE *engine);
    const EVP_MD *(*sha256)(void);
    const EVP_MD *(*md5)(void);
};

/// Opens the library named `soname` and fills `crypto` with its entry points. Returns NULL on success, else the
/// dynamic loader's words for what is missing.
static inline const char *newsstand_crypto_open(const char *soname, struct newsstand_crypto *crypto) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define NEWSSTAND_CRYPTO_LOOK_UP(field, name) \
    if ((*(void **)&crypto->field = dlsym(library, name)) == NULL) return dlerror();
    NEWSSTAND_CRYPTO_LOOK_UP(md_ctx_new, "EVP_MD_CTX_new")
    NEWSSTAND_CRYPTO_LOOK_UP(md_ctx_free, "EVP_MD_CTX_free")
    NEWSSTAND_CRYPTO_LOOK_UP(digest_init_ex, "EVP_DigestInit_ex")
    NEWSSTAND_CRYPTO_LOOK_UP(digest_update, "EVP_DigestUpdate")
    NEWSSTAND_CRYPTO_LOOK_UP(digest_final_ex, "EVP_DigestFinal_ex")
    NEWSSTAND_CRYPTO_LOOK_UP(digest, "EVP_Digest")
    NEWSSTAND_CRYPTO_LOOK_UP(sha256, "EVP_sha256")
    NEWSSTAND_CRYPTO_LOOK_UP(md5, "EVP_md5")
#undef NEWSSTAND_CRYPTO_LOOK_UP
    return NULL;
}

// The table and its once-flag are statics of inline functions, not of the file: Swift emits a header's functions
// into each object file that calls them, but not its file-level variables. Every object file that uses the library
// so has its own table, filled once by its own first call (dlopen hands each the same loaded library).
static inline struct newsstand_crypto *_Nonnull newsstand_crypto_table(void) {
    static struct newsstand_crypto table;
    return &table;
}
static inline pthread_once_t *_Nonnull newsstand_crypto_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

static void newsstand_crypto_open_once(void) {
    const char *failure = newsstand_crypto_open(NEWSSTAND_CRYPTO_SONAME, newsstand_crypto_table());
    // dlerror's words live in a buffer the next failing call overwrites: keep a copy.
    newsstand_crypto_table()->failure = failure == NULL ? NULL : (strdup(failure) ?: "libcrypto could not be loaded");
}

/// The table for NEWSSTAND_CRYPTO_SONAME, opened by the first call (thread-safe) and kept for the life of the process.
static inline const struct newsstand_crypto *_Nonnull newsstand_crypto_library(void) {
    pthread_once(newsstand_crypto_once(), newsstand_crypto_open_once);
    return newsstand_crypto_table();
}
#endif
