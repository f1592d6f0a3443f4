/*
 * The benchmark's reference: a bare ncurses program with the same layout as tabshell (heading,
 * rule, list, hint line, rule, tab bar at the bottom) that answers the same keys the benchmark
 * sends, redrawing the whole screen on every key with erase + redraw + refresh (ncurses itself
 * sends only what changed). Its rows are computed from their index, so it holds no data: what
 * it costs is the floor for "a screen like this in curses".
 *
 *   reference [records]
 *
 * Keys: 1 3 4 tabs, 2 capture (b: barcode entry, digits, Esc closes), j/k, PgDn, PgUp, G, g,
 * Enter opens a record, Esc back, / search (typed letters filter), q quits.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum tab { INBOX, HISTORY, SETTINGS };
enum mode { LIST, CAPTURE, DETAIL, SEARCH };

static long records = 1000;
static enum tab tab = INBOX;
static enum mode mode = LIST;
static long cursor[3], top[3];
static char code[64];
static char query[64];

static long count_of(enum tab t) { return t == HISTORY ? records : t == INBOX ? 40 : 8; }

static void code_of(long i, char *out) {
    unsigned long x = (unsigned long)i * 2654435761u;
    snprintf(out, 32, "400%010lu", x % 10000000000ul);
}

/* Like tabshell's styles: the selected row black on cyan, secondary text dim. */
#define SELECTED COLOR_PAIR(1)
#define HEADING (COLOR_PAIR(2) | A_BOLD)
#define DIM A_DIM

static void draw_row(int y, long i, int selected) {
    char c[32];
    code_of(i, c);
    attr_t secondary = selected ? SELECTED : DIM;
    if (selected) { attron(SELECTED); mvhline(y, 1, ' ', COLS - 2); }
    mvaddstr(y, 1, selected ? "\u203a " : "  ");
    if (tab == HISTORY) {
        printw("%-8s %s (EAN-13)", i % 5 ? "Barcode" : "Note", c);
        attrset(secondary);
        mvaddstr(y, COLS - 30, i % 5 == 2 ? "Scan the pallet in bay 4" : "\u2014");
        mvprintw(y, COLS - 5, "%3ldm", i % 60 + 1);
    } else if (tab == INBOX) {
        printw("Scan the shelf label in aisle %ld", i + 1);
        attrset(secondary);
        mvaddstr(y, COLS - 12, "Barcode  3d");
    } else {
        printw("Setting %ld", i + 1);
        attrset(secondary);
        mvaddstr(y, COLS - 12, "On");
    }
    attrset(A_NORMAL);
}

static void draw(void) {
    int rows = LINES - 5;
    char buf[256];
    erase();
    if (mode == CAPTURE) {
        mvaddstr(0, 1, "[ Close ]");
        mvaddstr(0, COLS / 2 - 8, "Capture \u00b7 Barcode");
        mvaddstr(0, COLS - 9, "[ Done ]");
        mvhline(1, 0, ACS_HLINE, COLS);
        mvaddstr(3, 3, "Type or scan the code; a scanner's Enter checks it.");
        mvaddstr(5, 3, "Code [");
        attron(A_UNDERLINE); printw("%-*s", COLS - 11, code); attroff(A_UNDERLINE);
        addstr("]");
        mvaddstr(LINES - 1, 1, "Enter check  Esc close  Ctrl-D done");
        move(5, 9 + (int)strlen(code));
        curs_set(1);
        refresh();
        return;
    }
    curs_set(0);
    const char *title = tab == HISTORY ? "History" : tab == INBOX ? "Inbox" : "Settings";
    attron(HEADING); mvaddstr(0, 1, title); attroff(HEADING);
    snprintf(buf, sizeof buf, "%ld records", count_of(tab));
    attron(DIM); mvaddstr(0, COLS - 1 - (int)strlen(buf), buf); attroff(DIM);
    attron(COLOR_PAIR(3)); mvhline(1, 0, ACS_HLINE, COLS);
    snprintf(buf, sizeof buf, " %ld/%ld ", cursor[tab] + 1, count_of(tab));
    mvaddstr(1, COLS - 2 - (int)strlen(buf), buf); attroff(COLOR_PAIR(3));
    if (mode == DETAIL) {
        char c[32];
        code_of(cursor[HISTORY], c);
        mvprintw(2, 3, "Record #%ld", records - cursor[HISTORY]);
        mvprintw(4, 3, "Code     %s (EAN-13)", c);
        mvprintw(5, 3, "Kind     Barcode");
        mvprintw(6, 3, "Request  \u2014");
    } else {
        if (top[tab] > cursor[tab]) top[tab] = cursor[tab];
        if (cursor[tab] >= top[tab] + rows) top[tab] = cursor[tab] - rows + 1;
        for (long i = 0; i < rows && top[tab] + i < count_of(tab); i++) draw_row(2 + (int)i, top[tab] + i, top[tab] + i == cursor[tab]);
    }
    attron(DIM); mvaddstr(LINES - 3, 1, "Enter open  b mode  d delete  \u2191\u2193 move  \u2190\u2192 tabs  2 create  / search  ? keys"); attroff(DIM);
    attron(COLOR_PAIR(3)); mvhline(LINES - 2, 0, ACS_HLINE, COLS); attroff(COLOR_PAIR(3));
    const char *names[4] = {"Inbox (3)", "+ Create", "History", "Settings"};
    int slot = COLS / 4;
    for (int i = 0; i < 4; i++) {
        int selected = (i == 0 && tab == INBOX) || (i == 2 && tab == HISTORY) || (i == 3 && tab == SETTINGS);
        if (selected) { attron(HEADING); mvprintw(LINES - 1, i * slot + 3, "[ %s ]", names[i]); attroff(HEADING); }
        else mvprintw(LINES - 1, i * slot + 5, "%s", names[i]);
    }
    if (mode == SEARCH) {
        int w = COLS - 10, h = LINES - 8;
        for (int y = 3; y < 3 + h; y++) mvhline(y, 5, ' ', w);
        mvprintw(3, 6, "Search: %s", query);
        for (int i = 0; i < h - 3 && query[0]; i++) {
            char c[32];
            code_of(i * 7, c);
            mvprintw(5 + i, 7, "%s (EAN-13)  %ldm", c, (long)i);
        }
        move(3, 14 + (int)strlen(query));
        curs_set(1);
    }
    refresh();
}

static void move_cursor(long delta) {
    long n = count_of(tab);
    cursor[tab] += delta;
    if (cursor[tab] >= n) cursor[tab] = n - 1;
    if (cursor[tab] < 0) cursor[tab] = 0;
}

int main(int argc, char **argv) {
    if (argc > 1) records = atol(argv[1]);
    if (records < 1) records = 1;
    setlocale(LC_ALL, "");
    initscr();
    raw();
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    start_color();
    use_default_colors();
    init_pair(1, COLOR_BLACK, COLOR_CYAN);
    init_pair(2, COLOR_CYAN, -1);
    init_pair(3, COLOR_BLUE, -1);
    draw();
    for (;;) {
        int ch = getch();
        int rows = LINES - 5;
        if (mode == CAPTURE) {
            if (ch == 27) { mode = LIST; code[0] = 0; }
            else if (ch >= '0' && ch <= '9' && strlen(code) < 40) { size_t l = strlen(code); code[l] = (char)ch; code[l + 1] = 0; }
            else if (ch == 'b') {}
        } else if (mode == SEARCH) {
            if (ch == 27) { mode = LIST; query[0] = 0; }
            else if (ch > 32 && ch < 127 && strlen(query) < 40) { size_t l = strlen(query); query[l] = (char)ch; query[l + 1] = 0; }
        } else if (mode == DETAIL) {
            if (ch == 27 || ch == KEY_BACKSPACE) mode = LIST;
        } else {
            switch (ch) {
            case 'q': endwin(); return 0;
            case '1': tab = INBOX; break;
            case '2': case '+': mode = CAPTURE; code[0] = 0; break;
            case '3': tab = HISTORY; break;
            case '4': tab = SETTINGS; break;
            case '/': mode = SEARCH; query[0] = 0; break;
            case 'j': case KEY_DOWN: move_cursor(1); break;
            case 'k': case KEY_UP: move_cursor(-1); break;
            case KEY_NPAGE: move_cursor(rows); break;
            case KEY_PPAGE: move_cursor(-rows); break;
            case 'G': case KEY_END: move_cursor(count_of(tab)); break;
            case 'g': case KEY_HOME: move_cursor(-count_of(tab)); break;
            case '\n': case '\r': case KEY_ENTER: if (tab == HISTORY) mode = DETAIL; break;
            default: break;
            }
        }
        draw();
    }
}
