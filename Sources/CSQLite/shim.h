#ifndef NEWSSTAND_CSQLITE_SHIM_H
#define NEWSSTAND_CSQLITE_SHIM_H
#include <sqlite3.h>
// SQLITE_TRANSIENT is a cast macro that does not import: tell SQLite to copy bound values.
static inline sqlite3_destructor_type newsstand_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
