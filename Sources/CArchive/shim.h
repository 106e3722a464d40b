#ifndef NEWSSTAND_CARCHIVE_SHIM_H
#define NEWSSTAND_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
