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
#include <sys/ioctl.h>
/* term.h (setupterm, del_curterm) defines capability macros such as `lines` and `columns`:
   include it last and keep those words out of the helpers below. */
#include <ncursesw/term.h>

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

// MARK: - Globals Swift 6 rejects, and macros Swift cannot import

static inline int ts_colors(void) { return COLORS; }
static inline int ts_color_pairs(void) { return COLOR_PAIRS; }

/// How many columns the terminal gives a character (curses uses the same function). Declared
/// here because the C library hides it behind feature macros Swift's Glibc module lacks.
extern int wcwidth(wchar_t);
static inline int ts_wcwidth(wchar_t c) { return wcwidth(c); }

// MARK: - Start-up checks and tty plumbing (used by Terminal.swift)

/// Looks TERM up in terminfo without touching the terminal (no output, no mode change), so a
/// failed start leaves the terminal exactly as it was. Returns setupterm's status: 1 found,
/// 0 unknown or generic, -1 no terminfo database. `*can_address` is set when the entry can
/// position the cursor (cup), which a full-screen app cannot do without.
static inline int ts_check_terminfo(const char *term_name, int fd, int *can_address) {
    int status = 0;
    *can_address = 0;
    if (setupterm(term_name, fd, &status) != OK) return status;
    const char *cup = tigetstr("cup");
    *can_address = (cup != NULL && cup != (const char *)-1);
    del_curterm(cur_term);   /* also clears cur_term; newterm loads its own copy */
    return status;
}

/// The tty's size from the kernel (curses has no handler of its own: SIGWINCH is ours).
static inline int ts_tty_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

/// The tty's size in pixels from the kernel (0 when the terminal does not fill it in).
static inline int ts_tty_pixels(int fd, int *width, int *height) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *width = ws.ws_xpixel;
    *height = ws.ws_ypixel;
    return 0;
}

/// Both sizes of a tty at once, for a caller without curses (`doctor`).
static inline int ts_tty_pixels_and_size(int fd, int *width, int *height, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *width = ws.ws_xpixel;
    *height = ws.ws_ypixel;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

/// A pipe whose ends are non-blocking and close-on-exec (the self-pipe that wakes poll()).
static inline int ts_make_wake_pipe(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        int fl = fcntl(fds[i], F_GETFL);
        fcntl(fds[i], F_SETFL, fl | O_NONBLOCK);
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    }
    return 0;
}

/// Stops the process group the way Ctrl-Z would with the default action, then returns once
/// continued (fg). SIGTSTP's handler belongs to libdispatch (our signal source), so it is set
/// to the default just for this and put back afterwards.
static inline void ts_stop_like_ctrl_z(void) {
    struct sigaction dfl, saved;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    if (sigaction(SIGTSTP, &dfl, &saved) != 0) return;
    kill(0, SIGTSTP);
    sigaction(SIGTSTP, &saved, NULL);
}

/// Sets a signal to "ignore" (what a DispatchSource signal source needs on Linux), keeping the
/// previous disposition so it can be put back when the watcher stops.
static inline int ts_ignore_signal(int sig, struct sigaction *previous) {
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    return sigaction(sig, &ign, previous);
}

static inline int ts_restore_signal(int sig, const struct sigaction *previous) {
    return sigaction(sig, previous, NULL);
}


#endif
