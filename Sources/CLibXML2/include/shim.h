// libxml2 for Swift, opened with dlopen when a document is first parsed rather than linked: linking loaded libxml2
// and what Debian builds it with (ICU's libicuuc and its 30 MB libicudata, liblzma, libstdc++) at every start of
// every command, though the shelf's first frame parses no XML. Only the headers are used at build time: each
// `newsstand_xmlX` below calls libxml2's `xmlX` (and `newsstand_htmlX` its `htmlX`) through a table that
// `newsstand_libxml2_failure()` fills at its first call (thread-safe). Call that first where an error can be
// told; when the library could not be loaded, the functions that make a document, parser or encoding handler
// return NULL and the others do nothing, so no caller ever reaches a missing function.
//
// A C target rather than a system library: `include/libxml` is a link to the system's headers
// (/usr/include/libxml2/libxml, from Debian's libxml2-dev), so that targets importing this module find libxml2's
// `<libxml/…>` includes on the include path SwiftPM gives them, without pkg-config, whose flags would link libxml2.
#ifndef NEWSSTAND_CLIBXML2_SHIM_H
#define NEWSSTAND_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so <libxml/encoding.h> would include the system's
// <unicode/ucnv.h>, whose enums clash with the copy of ICU inside Foundation (_FoundationICU).
// Nothing here uses libxml2's ICU converters: only the layout of xmlCharEncodingHandler, which
// Swift never touches, depends on this.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/SAX2.h>
// Parser contexts made by hand (a memory context with the page tree's own SAX handlers; a charset from HTTP).
#include <libxml/parserInternals.h>

/// The libxml2 this program uses at run time (Debian's libxml2 package; libxml2-dev gives the headers).
#define NEWSSTAND_LIBXML2_SONAME "libxml2.so.2"

/// libxml2's entry points; `failure` is NULL when they were all found.
struct newsstand_libxml2 {
    const char *failure;
    __typeof__(xmlInitParser) *xmlInitParser;
    __typeof__(htmlReadMemory) *htmlReadMemory;
    __typeof__(htmlCtxtUseOptions) *htmlCtxtUseOptions;
    __typeof__(htmlParseDocument) *htmlParseDocument;
    __typeof__(xmlFreeDoc) *xmlFreeDoc;
    __typeof__(xmlCreateMemoryParserCtxt) *xmlCreateMemoryParserCtxt;
    __typeof__(xmlCreatePushParserCtxt) *xmlCreatePushParserCtxt;
    __typeof__(xmlFreeParserCtxt) *xmlFreeParserCtxt;
    __typeof__(xmlCtxtUseOptions) *xmlCtxtUseOptions;
    __typeof__(xmlParseChunk) *xmlParseChunk;
    __typeof__(xmlStopParser) *xmlStopParser;
    __typeof__(xmlSAXVersion) *xmlSAXVersion;
    __typeof__(xmlSAX2InitHtmlDefaultSAXHandler) *xmlSAX2InitHtmlDefaultSAXHandler;
    __typeof__(xmlSAX2GetEntity) *xmlSAX2GetEntity;
    __typeof__(xmlSAX2GetLineNumber) *xmlSAX2GetLineNumber;
    __typeof__(xmlFindCharEncodingHandler) *xmlFindCharEncodingHandler;
    __typeof__(xmlCharEncCloseFunc) *xmlCharEncCloseFunc;
    __typeof__(xmlSwitchToEncoding) *xmlSwitchToEncoding;
    __typeof__(xmlStrdup) *xmlStrdup;
    __typeof__(xmlDictOwns) *xmlDictOwns;
};

/// Opens the library named `soname` and fills `table` with its entry points. Returns NULL on success, else the
/// dynamic loader's words for what is missing (valid until the next dl call).
const char *newsstand_libxml2_open(const char *soname, struct newsstand_libxml2 *table);

/// Opens libxml2 at the first call (of any function here); NULL when it is usable, else why it is not.
const char *newsstand_libxml2_failure(void);

// MARK: The functions used, by libxml2's names with `newsstand_` in front

void newsstand_xmlInitParser(void);
htmlDocPtr newsstand_htmlReadMemory(const char *buffer, int size, const char *URL, const char *encoding, int options);
int newsstand_htmlCtxtUseOptions(htmlParserCtxtPtr ctxt, int options);
int newsstand_htmlParseDocument(htmlParserCtxtPtr ctxt);
void newsstand_xmlFreeDoc(xmlDocPtr cur);
xmlParserCtxtPtr newsstand_xmlCreateMemoryParserCtxt(const char *buffer, int size);
xmlParserCtxtPtr newsstand_xmlCreatePushParserCtxt(xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename);
void newsstand_xmlFreeParserCtxt(xmlParserCtxtPtr ctxt);
int newsstand_xmlCtxtUseOptions(xmlParserCtxtPtr ctxt, int options);
int newsstand_xmlParseChunk(xmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate);
void newsstand_xmlStopParser(xmlParserCtxtPtr ctxt);
int newsstand_xmlSAXVersion(xmlSAXHandler *hdlr, int version);
void newsstand_xmlSAX2InitHtmlDefaultSAXHandler(xmlSAXHandler *hdlr);
xmlEntityPtr newsstand_xmlSAX2GetEntity(void *ctx, const xmlChar *name);
int newsstand_xmlSAX2GetLineNumber(void *ctx);
xmlCharEncodingHandlerPtr newsstand_xmlFindCharEncodingHandler(const char *name);
int newsstand_xmlCharEncCloseFunc(xmlCharEncodingHandler *handler);
int newsstand_xmlSwitchToEncoding(xmlParserCtxtPtr ctxt, xmlCharEncodingHandlerPtr handler);
xmlChar *newsstand_xmlStrdup(const xmlChar *cur);
int newsstand_xmlDictOwns(xmlDictPtr dict, const xmlChar *str);
#endif
