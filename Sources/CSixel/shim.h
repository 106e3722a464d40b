#ifndef NEWSSTAND_CSIXEL_SHIM_H
#define NEWSSTAND_CSIXEL_SHIM_H
#include <sixel.h>

/* Swift cannot see these composite macros. */
static inline int newsstand_sixel_pixelformat_rgb888(void) { return SIXEL_PIXELFORMAT_RGB888; }
static inline int newsstand_sixel_failed(SIXELSTATUS status) { return SIXEL_FAILED(status); }

#endif
