#ifndef NEWSSTAND_CPNG_SHIM_H
#define NEWSSTAND_CPNG_SHIM_H
#include <png.h>
#endif
