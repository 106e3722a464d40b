// libsixel for Swift, opened with dlopen when a picture is first encoded as sixels rather than linked: linking
// loaded it at every start, though only terminals that draw sixel pictures ever use it. Only the headers are used
// at build time: each `newsstand_sixel_X` below calls libsixel's `sixel_X` through a table that
// `newsstand_sixel_library_failure()` fills at its first call (thread-safe). Call that first, and use none of the
// others when it returns words (the library could not be loaded).
#ifndef NEWSSTAND_CSIXEL_SHIM_H
#define NEWSSTAND_CSIXEL_SHIM_H
#include <sixel/sixel.h>
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

/// The libsixel this program uses at run time (Debian's libsixel1 package; libsixel-dev gives the headers).
#define NEWSSTAND_SIXEL_SONAME "libsixel.so.1"

/* Swift cannot see these composite macros. */
static inline int newsstand_sixel_pixelformat_rgb888(void) { return SIXEL_PIXELFORMAT_RGB888; }
static inline int newsstand_sixel_failed(SIXELSTATUS status) { return SIXEL_FAILED(status); }

/// libsixel's entry points; `failure` is NULL when they were all found.
struct newsstand_sixel {
    const char *failure;
    __typeof__(sixel_output_new) *output_new;
    __typeof__(sixel_output_unref) *output_unref;
    __typeof__(sixel_dither_new) *dither_new;
    __typeof__(sixel_dither_unref) *dither_unref;
    __typeof__(sixel_dither_initialize) *dither_initialize;
    __typeof__(sixel_encode) *encode;
};

/// Opens the library named `soname` and fills `sixel` with its entry points. Returns NULL on success, else the
/// dynamic loader's words for what is missing.
static inline const char *newsstand_sixel_open(const char *soname, struct newsstand_sixel *sixel) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define NEWSSTAND_SIXEL_LOOK_UP(field) \
    if ((*(void **)&sixel->field = dlsym(library, "sixel_" #field)) == NULL) return dlerror();
    NEWSSTAND_SIXEL_LOOK_UP(output_new)
    NEWSSTAND_SIXEL_LOOK_UP(output_unref)
    NEWSSTAND_SIXEL_LOOK_UP(dither_new)
    NEWSSTAND_SIXEL_LOOK_UP(dither_unref)
    NEWSSTAND_SIXEL_LOOK_UP(dither_initialize)
    NEWSSTAND_SIXEL_LOOK_UP(encode)
#undef NEWSSTAND_SIXEL_LOOK_UP
    return NULL;
}

// The table and its once-flag are statics of inline functions, not of the file: Swift emits a header's functions
// into each object file that calls them, but not its file-level variables (see CArchive/shim.h).
static inline struct newsstand_sixel *_Nonnull newsstand_sixel_table(void) {
    static struct newsstand_sixel table;
    return &table;
}
static inline pthread_once_t *_Nonnull newsstand_sixel_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

static void newsstand_sixel_open_once(void) {
    const char *failure = newsstand_sixel_open(NEWSSTAND_SIXEL_SONAME, newsstand_sixel_table());
    // dlerror's words live in a buffer the next failing call overwrites: keep a copy.
    newsstand_sixel_table()->failure = failure == NULL ? NULL : (strdup(failure) ?: "libsixel could not be loaded");
}

/// The table, opened at the first call of this object file.
static inline const struct newsstand_sixel *_Nonnull newsstand_sixel_api(void) {
    pthread_once(newsstand_sixel_once(), newsstand_sixel_open_once);
    return newsstand_sixel_table();
}

/// Opens libsixel at the first call; NULL when it is usable, else why it is not.
static inline const char *newsstand_sixel_library_failure(void) {
    return newsstand_sixel_api()->failure;
}

// MARK: The functions used, by libsixel's names with `newsstand_` in front

static inline SIXELSTATUS newsstand_sixel_output_new(sixel_output_t **output, sixel_write_function write, void *context, sixel_allocator_t *allocator) { return newsstand_sixel_api()->output_new(output, write, context, allocator); }
static inline void newsstand_sixel_output_unref(sixel_output_t *output) { newsstand_sixel_api()->output_unref(output); }
static inline SIXELSTATUS newsstand_sixel_dither_new(sixel_dither_t **dither, int colors, sixel_allocator_t *allocator) { return newsstand_sixel_api()->dither_new(dither, colors, allocator); }
static inline void newsstand_sixel_dither_unref(sixel_dither_t *dither) { newsstand_sixel_api()->dither_unref(dither); }
static inline SIXELSTATUS newsstand_sixel_dither_initialize(sixel_dither_t *dither, unsigned char *data, int width, int height, int pixel_format, int method_for_largest, int method_for_rep, int quality) { return newsstand_sixel_api()->dither_initialize(dither, data, width, height, pixel_format, method_for_largest, method_for_rep, quality); }
static inline SIXELSTATUS newsstand_sixel_encode(unsigned char *pixels, int width, int height, int depth, sixel_dither_t *dither, sixel_output_t *output) { return newsstand_sixel_api()->encode(pixels, width, height, depth, dither, output); }
#endif
