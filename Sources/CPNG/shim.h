#ifndef NEWSSTAND_CPNG_SHIM_H
#define NEWSSTAND_CPNG_SHIM_H
#include <string.h>
#include <png.h>

/*
 * PNG decoding through libpng's simplified API, which does its own setjmp
 * error handling, so corrupt data returns an error instead of aborting.
 * Swift cannot see function-like macros, hence these small helpers.
 */

/* Begins reading from memory. Returns 1 on success; on failure the image is
   already released and image->message says why. */
static inline int newsstand_png_begin(png_image *image, const void *data, size_t size) {
    memset(image, 0, sizeof(*image));
    image->version = PNG_IMAGE_VERSION;
    return png_image_begin_read_from_memory(image, data, size);
}

/* Finishes reading as 8-bit sRGB RGBA (straight alpha) into `pixels`
   (width*height*4 bytes). Returns 1 on success; releases the image either way. */
static inline int newsstand_png_finish_rgba(png_image *image, void *pixels) {
    image->format = PNG_FORMAT_RGBA;
    return png_image_finish_read(image, NULL, pixels, 0, NULL);
}

static inline void newsstand_png_free(png_image *image) {
    png_image_free(image);
}

static inline int newsstand_png_failed(const png_image *image) {
    return (image->warning_or_error & PNG_IMAGE_ERROR) != 0;
}

static inline const char *newsstand_png_message(const png_image *image) {
    return image->message;
}

#endif
