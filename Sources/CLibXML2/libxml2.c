// The table behind include/shim.h: libxml2 opened with dlopen at the first call, its entry points looked up once.
#include "shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const char *newsstand_libxml2_open(const char *soname, struct newsstand_libxml2 *table) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define NEWSSTAND_LIBXML2_LOOK_UP(name) \
    if ((*(void **)&table->name = dlsym(library, #name)) == NULL) return dlerror();
    NEWSSTAND_LIBXML2_LOOK_UP(xmlInitParser)
    NEWSSTAND_LIBXML2_LOOK_UP(htmlReadMemory)
    NEWSSTAND_LIBXML2_LOOK_UP(htmlCtxtUseOptions)
    NEWSSTAND_LIBXML2_LOOK_UP(htmlParseDocument)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlFreeDoc)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlCreateMemoryParserCtxt)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlCreatePushParserCtxt)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlFreeParserCtxt)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlCtxtUseOptions)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlParseChunk)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlStopParser)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlSAXVersion)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlSAX2InitHtmlDefaultSAXHandler)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlSAX2GetEntity)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlSAX2GetLineNumber)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlFindCharEncodingHandler)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlCharEncCloseFunc)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlSwitchToEncoding)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlStrdup)
    NEWSSTAND_LIBXML2_LOOK_UP(xmlDictOwns)
#undef NEWSSTAND_LIBXML2_LOOK_UP
    return NULL;
}

static struct newsstand_libxml2 table;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_once(void) {
    const char *failure = newsstand_libxml2_open(NEWSSTAND_LIBXML2_SONAME, &table);
    // dlerror's words live in a buffer the next failing call overwrites: keep a copy.
    table.failure = failure == NULL ? NULL : (strdup(failure) ?: "libxml2 could not be loaded");
    // libxml2 must be initialised once before parsers run on several threads.
    if (table.failure == NULL) table.xmlInitParser();
}

/// The table, opened at the first call; NULL when libxml2 could not be loaded.
static const struct newsstand_libxml2 *api(void) {
    pthread_once(&once, open_once);
    return table.failure == NULL ? &table : NULL;
}

const char *newsstand_libxml2_failure(void) {
    pthread_once(&once, open_once);
    return table.failure;
}

// Without the library: constructors give NULL (their callers' usual failure), everything else does nothing.
#define CALL(name, missing, ...) const struct newsstand_libxml2 *libxml2 = api(); return libxml2 == NULL ? missing : libxml2->name(__VA_ARGS__)
#define CALL_VOID(name, ...) const struct newsstand_libxml2 *libxml2 = api(); if (libxml2 != NULL) libxml2->name(__VA_ARGS__)

void newsstand_xmlInitParser(void) { (void)api(); }
htmlDocPtr newsstand_htmlReadMemory(const char *buffer, int size, const char *URL, const char *encoding, int options) { CALL(htmlReadMemory, NULL, buffer, size, URL, encoding, options); }
int newsstand_htmlCtxtUseOptions(htmlParserCtxtPtr ctxt, int options) { CALL(htmlCtxtUseOptions, -1, ctxt, options); }
int newsstand_htmlParseDocument(htmlParserCtxtPtr ctxt) { CALL(htmlParseDocument, -1, ctxt); }
void newsstand_xmlFreeDoc(xmlDocPtr cur) { CALL_VOID(xmlFreeDoc, cur); }
xmlParserCtxtPtr newsstand_xmlCreateMemoryParserCtxt(const char *buffer, int size) { CALL(xmlCreateMemoryParserCtxt, NULL, buffer, size); }
xmlParserCtxtPtr newsstand_xmlCreatePushParserCtxt(xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename) { CALL(xmlCreatePushParserCtxt, NULL, sax, user_data, chunk, size, filename); }
void newsstand_xmlFreeParserCtxt(xmlParserCtxtPtr ctxt) { CALL_VOID(xmlFreeParserCtxt, ctxt); }
int newsstand_xmlCtxtUseOptions(xmlParserCtxtPtr ctxt, int options) { CALL(xmlCtxtUseOptions, -1, ctxt, options); }
int newsstand_xmlParseChunk(xmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate) { CALL(xmlParseChunk, -1, ctxt, chunk, size, terminate); }
void newsstand_xmlStopParser(xmlParserCtxtPtr ctxt) { CALL_VOID(xmlStopParser, ctxt); }
int newsstand_xmlSAXVersion(xmlSAXHandler *hdlr, int version) { CALL(xmlSAXVersion, -1, hdlr, version); }
void newsstand_xmlSAX2InitHtmlDefaultSAXHandler(xmlSAXHandler *hdlr) { CALL_VOID(xmlSAX2InitHtmlDefaultSAXHandler, hdlr); }
xmlEntityPtr newsstand_xmlSAX2GetEntity(void *ctx, const xmlChar *name) { CALL(xmlSAX2GetEntity, NULL, ctx, name); }
int newsstand_xmlSAX2GetLineNumber(void *ctx) { CALL(xmlSAX2GetLineNumber, 0, ctx); }
xmlCharEncodingHandlerPtr newsstand_xmlFindCharEncodingHandler(const char *name) { CALL(xmlFindCharEncodingHandler, NULL, name); }
int newsstand_xmlCharEncCloseFunc(xmlCharEncodingHandler *handler) { CALL(xmlCharEncCloseFunc, -1, handler); }
int newsstand_xmlSwitchToEncoding(xmlParserCtxtPtr ctxt, xmlCharEncodingHandlerPtr handler) { CALL(xmlSwitchToEncoding, -1, ctxt, handler); }
xmlChar *newsstand_xmlStrdup(const xmlChar *cur) { CALL(xmlStrdup, NULL, cur); }
int newsstand_xmlDictOwns(xmlDictPtr dict, const xmlChar *str) { CALL(xmlDictOwns, -1, dict, str); }
