#ifndef NEWSSTAND_CJPEG_SHIM_H
#define NEWSSTAND_CJPEG_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

/*
 * Crash-safe JPEG decoding for Swift.
 *
 * libjpeg's default error_exit() calls exit(), and Swift cannot longjmp, so
 * these helpers install an error manager whose error_exit longjmps back into
 * the helper that made the libjpeg call. Every helper that calls into libjpeg
 * does its own setjmp, so no jump ever crosses into a returned frame.
 *
 * Usage: newsstand_jpeg_open() -> newsstand_jpeg_read_header() ->
 * newsstand_jpeg_start() -> newsstand_jpeg_read_rgba() -> newsstand_jpeg_close().
 * Any helper returning non-zero has failed; the message is in ctx->message.
 */

enum {
    NEWSSTAND_JPEG_OK = 0,
    NEWSSTAND_JPEG_ERROR = 1,          /* corrupt or unsupported data (see message) */
    NEWSSTAND_JPEG_TRUNCATED = 2,      /* data ended before the image could be described */
    NEWSSTAND_JPEG_BAD_PRECISION = 3,  /* not 8-bit samples (e.g. 12-bit JPEG) */
    NEWSSTAND_JPEG_TOO_LARGE = 4,      /* dimensions exceed the caller's limit */
    NEWSSTAND_JPEG_TOO_MANY_SCANS = 5  /* progressive scan count limit hit (decompression bomb) */
};

typedef struct newsstand_jpeg_context {
    struct jpeg_error_mgr error_manager;   /* must stay first: cinfo->err points here */
    struct jpeg_progress_mgr progress;
    struct jpeg_decompress_struct cinfo;
    jmp_buf jump;
    int created;
    int status;
    int saw_premature_eof;
    int max_scans;
    long warning_count;
    char message[JMSG_LENGTH_MAX];
    /* Filled by newsstand_jpeg_read_header / newsstand_jpeg_start. */
    unsigned int image_width, image_height;
    unsigned int output_width, output_height;
    int is_cmyk;          /* output is CMYK/YCCK, converted to RGB on read */
    int adobe_inverted;   /* Adobe APP14 marker: CMYK samples are stored inverted */
} newsstand_jpeg_context;

static void newsstand_jpeg_error_exit(j_common_ptr cinfo) {
    newsstand_jpeg_context *ctx = (newsstand_jpeg_context *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, ctx->message);
    if (cinfo->err->msg_code == JERR_BAD_PRECISION) {
        ctx->status = NEWSSTAND_JPEG_BAD_PRECISION;
    } else if (ctx->saw_premature_eof || cinfo->err->msg_code == JERR_INPUT_EOF) {
        ctx->status = NEWSSTAND_JPEG_TRUNCATED;
    } else {
        ctx->status = NEWSSTAND_JPEG_ERROR;
    }
    longjmp(ctx->jump, 1);
}

static void newsstand_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    /* Warnings (corrupt data, premature end) are tolerated silently: a damaged
       picture is still worth showing. Trace messages are ignored. */
    newsstand_jpeg_context *ctx = (newsstand_jpeg_context *)cinfo->err;
    if (msg_level < 0) {
        ctx->warning_count++;
        cinfo->err->num_warnings++;
        if (cinfo->err->msg_code == JWRN_JPEG_EOF) ctx->saw_premature_eof = 1;
    }
}

static void newsstand_jpeg_progress(j_common_ptr cinfo) {
    newsstand_jpeg_context *ctx = (newsstand_jpeg_context *)cinfo->err;
    if (!cinfo->is_decompressor) return;
    if (ctx->max_scans > 0 && ((j_decompress_ptr)cinfo)->input_scan_number > ctx->max_scans) {
        snprintf(ctx->message, sizeof(ctx->message), "too many progressive scans (more than %d)", ctx->max_scans);
        ctx->status = NEWSSTAND_JPEG_TOO_MANY_SCANS;
        longjmp(ctx->jump, 1);
    }
}

/* Allocates a context; returns NULL only when out of memory. */
static inline newsstand_jpeg_context *newsstand_jpeg_open(void) {
    newsstand_jpeg_context *ctx = (newsstand_jpeg_context *)calloc(1, sizeof(newsstand_jpeg_context));
    if (!ctx) return NULL;
    ctx->cinfo.err = jpeg_std_error(&ctx->error_manager);
    ctx->error_manager.error_exit = newsstand_jpeg_error_exit;
    ctx->error_manager.emit_message = newsstand_jpeg_emit_message;
    ctx->max_scans = 1000;
    if (setjmp(ctx->jump)) {
        return ctx; /* status/message set; close() is still safe */
    }
    jpeg_create_decompress(&ctx->cinfo);
    ctx->created = 1;
    ctx->progress.progress_monitor = newsstand_jpeg_progress;
    ctx->cinfo.progress = &ctx->progress;
    return ctx;
}

/* Reads the header, rejects images wider/taller than max_dimension, and picks
   the largest DCT reduction (1/1, 1/2, 1/4, 1/8) whose output is still at
   least target_width x target_height (0 means no hint). */
static inline int newsstand_jpeg_read_header(newsstand_jpeg_context *ctx,
                                             const unsigned char *data, unsigned long size,
                                             unsigned int max_dimension,
                                             unsigned int target_width, unsigned int target_height) {
    if (!ctx->created) return ctx->status ? ctx->status : NEWSSTAND_JPEG_ERROR;
    if (setjmp(ctx->jump)) {
        return ctx->status;
    }
    jpeg_mem_src(&ctx->cinfo, data, size);
    jpeg_read_header(&ctx->cinfo, TRUE);
    ctx->image_width = ctx->cinfo.image_width;
    ctx->image_height = ctx->cinfo.image_height;
    if (ctx->cinfo.image_width == 0 || ctx->cinfo.image_height == 0) {
        snprintf(ctx->message, sizeof(ctx->message), "JPEG has zero width or height");
        ctx->status = NEWSSTAND_JPEG_ERROR;
        return ctx->status;
    }
    if (ctx->cinfo.image_width > max_dimension || ctx->cinfo.image_height > max_dimension) {
        snprintf(ctx->message, sizeof(ctx->message), "JPEG is %ux%u, larger than the %u pixel limit",
                 ctx->cinfo.image_width, ctx->cinfo.image_height, max_dimension);
        ctx->status = NEWSSTAND_JPEG_TOO_LARGE;
        return ctx->status;
    }
    if (ctx->cinfo.jpeg_color_space == JCS_CMYK || ctx->cinfo.jpeg_color_space == JCS_YCCK) {
        ctx->cinfo.out_color_space = JCS_CMYK;
        ctx->is_cmyk = 1;
        ctx->adobe_inverted = ctx->cinfo.saw_Adobe_marker ? 1 : 0;
    } else {
        /* Grayscale, YCbCr and RGB all convert straight to RGBA in libjpeg-turbo. */
        ctx->cinfo.out_color_space = JCS_EXT_RGBA;
    }
    ctx->cinfo.scale_num = 1;
    ctx->cinfo.scale_denom = 1;
    if (target_width > 0 && target_height > 0) {
        unsigned int denom;
        for (denom = 8; denom >= 2; denom /= 2) {
            unsigned int w = (ctx->cinfo.image_width + denom - 1) / denom;
            unsigned int h = (ctx->cinfo.image_height + denom - 1) / denom;
            if (w >= target_width && h >= target_height) {
                ctx->cinfo.scale_denom = denom;
                break;
            }
        }
    }
    jpeg_calc_output_dimensions(&ctx->cinfo);
    ctx->output_width = ctx->cinfo.output_width;
    ctx->output_height = ctx->cinfo.output_height;
    return NEWSSTAND_JPEG_OK;
}

/* Starts decompression (for progressive files this consumes every scan). */
static inline int newsstand_jpeg_start(newsstand_jpeg_context *ctx) {
    if (setjmp(ctx->jump)) {
        return ctx->status;
    }
    jpeg_start_decompress(&ctx->cinfo);
    ctx->output_width = ctx->cinfo.output_width;
    ctx->output_height = ctx->cinfo.output_height;
    if (ctx->cinfo.output_components != 4) {
        snprintf(ctx->message, sizeof(ctx->message), "unexpected JPEG output with %d components",
                 ctx->cinfo.output_components);
        ctx->status = NEWSSTAND_JPEG_ERROR;
        return ctx->status;
    }
    return NEWSSTAND_JPEG_OK;
}

/* Decodes every row as RGBA into `pixels` (output_width*output_height*4 bytes).
   CMYK/YCCK is converted: R = (1-C)(1-K), inverting Adobe-stored samples first. */
static inline int newsstand_jpeg_read_rgba(newsstand_jpeg_context *ctx, unsigned char *pixels) {
    if (setjmp(ctx->jump)) {
        return ctx->status;
    }
    size_t stride = (size_t)ctx->cinfo.output_width * 4;
    while (ctx->cinfo.output_scanline < ctx->cinfo.output_height) {
        unsigned char *row = pixels + (size_t)ctx->cinfo.output_scanline * stride;
        JSAMPROW rows[1];
        rows[0] = row;
        JDIMENSION got = jpeg_read_scanlines(&ctx->cinfo, rows, 1);
        if (got == 0) {
            snprintf(ctx->message, sizeof(ctx->message), "JPEG decoder stalled");
            ctx->status = NEWSSTAND_JPEG_ERROR;
            return ctx->status;
        }
        if (ctx->is_cmyk) {
            JDIMENSION x;
            for (x = 0; x < ctx->cinfo.output_width; x++) {
                unsigned char *p = row + (size_t)x * 4;
                unsigned int c = p[0], m = p[1], y = p[2], k = p[3];
                if (!ctx->adobe_inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                /* now c,m,y,k are "amount of white": R = (1-C)(1-K) = c*k */
                p[0] = (unsigned char)((c * k) / 255);
                p[1] = (unsigned char)((m * k) / 255);
                p[2] = (unsigned char)((y * k) / 255);
                p[3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&ctx->cinfo);
    return NEWSSTAND_JPEG_OK;
}

static inline const char *newsstand_jpeg_message(const newsstand_jpeg_context *ctx) {
    return ctx->message;
}

static inline void newsstand_jpeg_close(newsstand_jpeg_context *ctx) {
    if (!ctx) return;
    if (ctx->created) {
        /* jpeg_destroy does not call error_exit, but guard anyway. */
        if (!setjmp(ctx->jump)) {
            jpeg_destroy_decompress(&ctx->cinfo);
        }
    }
    free(ctx);
}

#endif
