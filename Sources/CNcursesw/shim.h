// Shim for ncursesw: SwiftPM drops pkg-config's defines, and macros such as
// KEY_F(n), ACS_*, A_* and mouse masks do not import into Swift, while globals
// such as stdscr/COLS/LINES are rejected by Swift 6 strict concurrency.
// Everything Swift needs from curses that is a macro or a global is wrapped here.
#ifndef TABSHELL_CNCURSESW_SHIM_H
#define TABSHELL_CNCURSESW_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <poll.h>

static inline WINDOW *ts_stdscr(void) { return stdscr; }
static inline int ts_cols(void) { return COLS; }
static inline int ts_lines(void) { return LINES; }
static inline FILE *ts_stdout(void) { return stdout; }
static inline FILE *ts_stderr(void) { return stderr; }

static inline int ts_key_resize(void) { return KEY_RESIZE; }
static inline int ts_key_mouse(void) { return KEY_MOUSE; }
static inline int ts_key_f(int n) { return KEY_F(n); }

static inline attr_t ts_a_normal(void) { return A_NORMAL; }
static inline attr_t ts_a_bold(void) { return A_BOLD; }
static inline attr_t ts_a_reverse(void) { return A_REVERSE; }
static inline attr_t ts_a_underline(void) { return A_UNDERLINE; }
static inline attr_t ts_a_dim(void) { return A_DIM; }
static inline attr_t ts_color_pair(int n) { return (attr_t)COLOR_PAIR(n); }

static inline mmask_t ts_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t ts_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t ts_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t ts_button4_pressed(void) { return BUTTON4_PRESSED; }
#if NCURSES_MOUSE_VERSION > 1
static inline mmask_t ts_button5_pressed(void) { return BUTTON5_PRESSED; }
#else
static inline mmask_t ts_button5_pressed(void) { return 0; }
#endif
static inline mmask_t ts_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }

/// Draws one cell: a string of one base character plus combining marks, with attributes and a colour pair.
static inline int ts_put_cell(int y, int x, const wchar_t *chars, attr_t attrs, short pair) {
    cchar_t cc;
    if (setcchar(&cc, chars, attrs, pair, NULL) != OK) return ERR;
    return mvwadd_wch(stdscr, y, x, &cc);
}

/// True when the current locale's codeset is UTF-8 (decides Unicode vs ASCII drawing).
static inline int ts_locale_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs != NULL && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

#endif
