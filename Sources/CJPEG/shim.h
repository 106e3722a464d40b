#ifndef NEWSSTAND_CJPEG_SHIM_H
#define NEWSSTAND_CJPEG_SHIM_H
#include <stdio.h>
#include <jpeglib.h>
#endif
