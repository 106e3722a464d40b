// libarchive for Swift, opened with dlopen when an archive is first read or written rather than linked: linking
// loaded libarchive and the seven libraries it brings (nettle, acl, lzma, zstd, lz4, bz2, z) at every start of every
// command, about a sixth of the loader's work before `main`, though the shelf and most commands never open an
// archive. Only the headers are used at build time: each `newsstand_archive_X` below calls libarchive's
// `archive_X` through a table that `newsstand_archive_failure()` fills at its first call (thread-safe). Call that
// first, and use none of the others when it returns words (the library could not be loaded).
#ifndef NEWSSTAND_CARCHIVE_SHIM_H
#define NEWSSTAND_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

/// The libarchive this program uses at run time (Debian's libarchive13 package; libarchive-dev gives the headers).
#define NEWSSTAND_ARCHIVE_SONAME "libarchive.so.13"

/// libarchive's entry points; `failure` is NULL when they were all found.
struct newsstand_archive {
    const char *failure;
    __typeof__(archive_entry_filetype) *entry_filetype;
    __typeof__(archive_entry_free) *entry_free;
    __typeof__(archive_entry_hardlink) *entry_hardlink;
    __typeof__(archive_entry_is_encrypted) *entry_is_encrypted;
    __typeof__(archive_entry_new) *entry_new;
    __typeof__(archive_entry_pathname) *entry_pathname;
    __typeof__(archive_entry_pathname_utf8) *entry_pathname_utf8;
    __typeof__(archive_entry_set_filetype) *entry_set_filetype;
    __typeof__(archive_entry_set_pathname_utf8) *entry_set_pathname_utf8;
    __typeof__(archive_entry_set_perm) *entry_set_perm;
    __typeof__(archive_entry_set_size) *entry_set_size;
    __typeof__(archive_entry_set_symlink_utf8) *entry_set_symlink_utf8;
    __typeof__(archive_entry_size) *entry_size;
    __typeof__(archive_entry_size_is_set) *entry_size_is_set;
    __typeof__(archive_entry_symlink) *entry_symlink;
    __typeof__(archive_error_string) *error_string;
    __typeof__(archive_filter_bytes) *filter_bytes;
    __typeof__(archive_read_data_block) *read_data_block;
    __typeof__(archive_read_free) *read_free;
    __typeof__(archive_read_new) *read_new;
    __typeof__(archive_read_next_header) *read_next_header;
    __typeof__(archive_read_open_filename) *read_open_filename;
    __typeof__(archive_read_support_filter_all) *read_support_filter_all;
    __typeof__(archive_read_support_format_all) *read_support_format_all;
    __typeof__(archive_write_close) *write_close;
    __typeof__(archive_write_data) *write_data;
    __typeof__(archive_write_free) *write_free;
    __typeof__(archive_write_header) *write_header;
    __typeof__(archive_write_new) *write_new;
    __typeof__(archive_write_open_filename) *write_open_filename;
    __typeof__(archive_write_set_format_7zip) *write_set_format_7zip;
    __typeof__(archive_write_set_format_ustar) *write_set_format_ustar;
    __typeof__(archive_write_set_format_zip) *write_set_format_zip;
    __typeof__(archive_write_set_options) *write_set_options;
};

/// Opens the library named `soname` and fills `archive` with its entry points. Returns NULL on success, else the
/// dynamic loader's words for what is missing.
static inline const char *newsstand_archive_open(const char *soname, struct newsstand_archive *archive) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define NEWSSTAND_ARCHIVE_LOOK_UP(field) \
    if ((*(void **)&archive->field = dlsym(library, "archive_" #field)) == NULL) return dlerror();
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_filetype)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_free)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_hardlink)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_is_encrypted)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_new)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_pathname)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_pathname_utf8)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_set_filetype)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_set_pathname_utf8)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_set_perm)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_set_size)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_set_symlink_utf8)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_size)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_size_is_set)
    NEWSSTAND_ARCHIVE_LOOK_UP(entry_symlink)
    NEWSSTAND_ARCHIVE_LOOK_UP(error_string)
    NEWSSTAND_ARCHIVE_LOOK_UP(filter_bytes)
    NEWSSTAND_ARCHIVE_LOOK_UP(read_data_block)
    NEWSSTAND_ARCHIVE_LOOK_UP(read_free)
    NEWSSTAND_ARCHIVE_LOOK_UP(read_new)
    NEWSSTAND_ARCHIVE_LOOK_UP(read_next_header)
    NEWSSTAND_ARCHIVE_LOOK_UP(read_open_filename)
    NEWSSTAND_ARCHIVE_LOOK_UP(read_support_filter_all)
    NEWSSTAND_ARCHIVE_LOOK_UP(read_support_format_all)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_close)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_data)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_free)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_header)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_new)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_open_filename)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_set_format_7zip)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_set_format_ustar)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_set_format_zip)
    NEWSSTAND_ARCHIVE_LOOK_UP(write_set_options)
#undef NEWSSTAND_ARCHIVE_LOOK_UP
    return NULL;
}

// The table and its once-flag are statics of inline functions, not of the file: Swift emits a header's functions
// into each object file that calls them, but not its file-level variables. Every object file that uses the library
// so has its own table, filled once by its own first call (dlopen hands each the same loaded library).
static inline struct newsstand_archive *_Nonnull newsstand_archive_table(void) {
    static struct newsstand_archive table;
    return &table;
}
static inline pthread_once_t *_Nonnull newsstand_archive_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

static void newsstand_archive_open_once(void) {
    const char *failure = newsstand_archive_open(NEWSSTAND_ARCHIVE_SONAME, newsstand_archive_table());
    // dlerror's words live in a buffer the next failing call overwrites: keep a copy.
    newsstand_archive_table()->failure = failure == NULL ? NULL : (strdup(failure) ?: "libarchive could not be loaded");
}

/// The table, opened at the first call of this object file.
static inline const struct newsstand_archive *_Nonnull newsstand_archive_api(void) {
    pthread_once(newsstand_archive_once(), newsstand_archive_open_once);
    return newsstand_archive_table();
}

/// Opens libarchive at the first call; NULL when it is usable, else why it is not.
static inline const char *newsstand_archive_failure(void) {
    pthread_once(newsstand_archive_once(), newsstand_archive_open_once);
    return newsstand_archive_table()->failure;
}

// MARK: The functions used, by libarchive's names with `newsstand_` in front

static inline __LA_MODE_T newsstand_archive_entry_filetype(struct archive_entry *e) { return newsstand_archive_api()->entry_filetype(e); }
static inline void newsstand_archive_entry_free(struct archive_entry *e) { newsstand_archive_api()->entry_free(e); }
static inline const char *newsstand_archive_entry_hardlink(struct archive_entry *e) { return newsstand_archive_api()->entry_hardlink(e); }
static inline int newsstand_archive_entry_is_encrypted(struct archive_entry *e) { return newsstand_archive_api()->entry_is_encrypted(e); }
static inline struct archive_entry *newsstand_archive_entry_new(void) { return newsstand_archive_api()->entry_new(); }
static inline const char *newsstand_archive_entry_pathname(struct archive_entry *e) { return newsstand_archive_api()->entry_pathname(e); }
static inline const char *newsstand_archive_entry_pathname_utf8(struct archive_entry *e) { return newsstand_archive_api()->entry_pathname_utf8(e); }
static inline void newsstand_archive_entry_set_filetype(struct archive_entry *e, unsigned int type) { newsstand_archive_api()->entry_set_filetype(e, type); }
static inline void newsstand_archive_entry_set_pathname_utf8(struct archive_entry *e, const char *name) { newsstand_archive_api()->entry_set_pathname_utf8(e, name); }
static inline void newsstand_archive_entry_set_perm(struct archive_entry *e, __LA_MODE_T mode) { newsstand_archive_api()->entry_set_perm(e, mode); }
static inline void newsstand_archive_entry_set_size(struct archive_entry *e, la_int64_t size) { newsstand_archive_api()->entry_set_size(e, size); }
static inline void newsstand_archive_entry_set_symlink_utf8(struct archive_entry *e, const char *target) { newsstand_archive_api()->entry_set_symlink_utf8(e, target); }
static inline la_int64_t newsstand_archive_entry_size(struct archive_entry *e) { return newsstand_archive_api()->entry_size(e); }
static inline int newsstand_archive_entry_size_is_set(struct archive_entry *e) { return newsstand_archive_api()->entry_size_is_set(e); }
static inline const char *newsstand_archive_entry_symlink(struct archive_entry *e) { return newsstand_archive_api()->entry_symlink(e); }
static inline const char *newsstand_archive_error_string(struct archive *a) { return newsstand_archive_api()->error_string(a); }
static inline la_int64_t newsstand_archive_filter_bytes(struct archive *a, int filter) { return newsstand_archive_api()->filter_bytes(a, filter); }
static inline int newsstand_archive_read_data_block(struct archive *a, const void **buffer, size_t *size, la_int64_t *offset) { return newsstand_archive_api()->read_data_block(a, buffer, size, offset); }
static inline int newsstand_archive_read_free(struct archive *a) { return newsstand_archive_api()->read_free(a); }
static inline struct archive *newsstand_archive_read_new(void) { return newsstand_archive_api()->read_new(); }
static inline int newsstand_archive_read_next_header(struct archive *a, struct archive_entry **entry) { return newsstand_archive_api()->read_next_header(a, entry); }
static inline int newsstand_archive_read_open_filename(struct archive *a, const char *path, size_t block_size) { return newsstand_archive_api()->read_open_filename(a, path, block_size); }
static inline int newsstand_archive_read_support_filter_all(struct archive *a) { return newsstand_archive_api()->read_support_filter_all(a); }
static inline int newsstand_archive_read_support_format_all(struct archive *a) { return newsstand_archive_api()->read_support_format_all(a); }
static inline int newsstand_archive_write_close(struct archive *a) { return newsstand_archive_api()->write_close(a); }
static inline la_ssize_t newsstand_archive_write_data(struct archive *a, const void *data, size_t size) { return newsstand_archive_api()->write_data(a, data, size); }
static inline int newsstand_archive_write_free(struct archive *a) { return newsstand_archive_api()->write_free(a); }
static inline int newsstand_archive_write_header(struct archive *a, struct archive_entry *entry) { return newsstand_archive_api()->write_header(a, entry); }
static inline struct archive *newsstand_archive_write_new(void) { return newsstand_archive_api()->write_new(); }
static inline int newsstand_archive_write_open_filename(struct archive *a, const char *path) { return newsstand_archive_api()->write_open_filename(a, path); }
static inline int newsstand_archive_write_set_format_7zip(struct archive *a) { return newsstand_archive_api()->write_set_format_7zip(a); }
static inline int newsstand_archive_write_set_format_ustar(struct archive *a) { return newsstand_archive_api()->write_set_format_ustar(a); }
static inline int newsstand_archive_write_set_format_zip(struct archive *a) { return newsstand_archive_api()->write_set_format_zip(a); }
static inline int newsstand_archive_write_set_options(struct archive *a, const char *options) { return newsstand_archive_api()->write_set_options(a, options); }
#endif
