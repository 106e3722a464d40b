// Wide-character ncurses for Swift. SwiftPM drops pkg-config's -D flags, so the
// wide-character API is switched on here, before the header is read.
#ifndef NEWSSTAND_CNCURSESW_SHIM_H
#define NEWSSTAND_CNCURSESW_SHIM_H
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Macros do not import into Swift; these small functions stand in for them.
static inline attr_t newsstand_attr_bold(void) { return A_BOLD; }
static inline attr_t newsstand_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t newsstand_attr_reverse(void) { return A_REVERSE; }
static inline attr_t newsstand_attr_dim(void) { return A_DIM; }
#ifdef A_ITALIC
static inline attr_t newsstand_attr_italic(void) { return A_ITALIC; }
#else
static inline attr_t newsstand_attr_italic(void) { return 0; }
#endif
static inline int newsstand_key_mouse(void) { return KEY_MOUSE; }
static inline int newsstand_key_resize(void) { return KEY_RESIZE; }
static inline mmask_t newsstand_button1_clicked(void) { return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED; }
static inline mmask_t newsstand_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t newsstand_button4_pressed(void) { return BUTTON4_PRESSED; }
#ifdef BUTTON5_PRESSED
static inline mmask_t newsstand_button5_pressed(void) { return BUTTON5_PRESSED; }
#else
static inline mmask_t newsstand_button5_pressed(void) { return 0; }
#endif
static inline WINDOW *newsstand_stdscr(void) { return stdscr; }
static inline int newsstand_lines(void) { return LINES; }
static inline int newsstand_cols(void) { return COLS; }
static inline int newsstand_colors(void) { return COLORS; }
static inline int newsstand_color_pairs(void) { return COLOR_PAIRS; }
#endif
