#ifndef NEWSSTAND_CLIBXML2_SHIM_H
#define NEWSSTAND_CLIBXML2_SHIM_H
// libxml2's HTML parser (htmlReadMemory) and tree API. The include path (-I/usr/include/libxml2)
// comes from pkg-config's libxml-2.0.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so <libxml/encoding.h> would include the system's
// <unicode/ucnv.h>, whose enums clash with the copy of ICU inside Foundation (_FoundationICU).
// Nothing here uses libxml2's ICU converters: only the layout of xmlCharEncodingHandler, which
// Swift never touches, depends on this.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
// Parser contexts made by hand (a memory context with the page tree's own SAX handlers; a charset from HTTP).
#include <libxml/parserInternals.h>
#endif
