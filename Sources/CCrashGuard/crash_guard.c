#define _GNU_SOURCE
#include "crash_guard.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// Everything the handler reads is set up front in static storage; it allocates nothing.
static char log_path_buffer[4096];
static volatile sig_atomic_t have_log_path = 0;

static volatile sig_atomic_t tty_descriptor = -1;
static struct termios tty_modes;
static char reset_bytes[256];
static size_t reset_count = 0;

static int saved_stderr = -1;

// A served session's child (tsg_serve_stderr): its client's standard error, kept apart from
// descriptor 2, which points at the log; and no crash notice (the server says one sentence).
static int client_stderr = -1;
static volatile sig_atomic_t quiet_notice = 0;

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS };

static const char *signal_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    default: return "signal";
    }
}

// --- async-signal-safe formatting into a fixed buffer ---------------------------------------

typedef struct { char bytes[512]; size_t used; } line_t;

static void put_text(line_t *line, const char *text) {
    while (*text && line->used < sizeof line->bytes) line->bytes[line->used++] = *text++;
}

static void put_number(line_t *line, unsigned long long value, int width) {
    char digits[24];
    int count = 0;
    do { digits[count++] = (char)('0' + value % 10); value /= 10; } while (value && count < 24);
    while (count < width && count < 24) digits[count++] = '0';
    while (count && line->used < sizeof line->bytes) line->bytes[line->used++] = digits[--count];
}

static void put_hex(line_t *line, unsigned long long value) {
    static const char hex[] = "0123456789abcdef";
    char digits[16];
    int count = 0;
    do { digits[count++] = hex[value & 15]; value >>= 4; } while (value && count < 16);
    put_text(line, "0x");
    while (count && line->used < sizeof line->bytes) line->bytes[line->used++] = digits[--count];
}

/// The UTC time as the log's ISO 8601 stamp, from time(2) and civil-from-days arithmetic
/// (gmtime is not async-signal-safe).
static void put_timestamp(line_t *line) {
    long long seconds = (long long)time(NULL);
    long long days = seconds / 86400, rest = seconds % 86400;
    if (rest < 0) { rest += 86400; days -= 1; }
    days += 719468;
    long long era = (days >= 0 ? days : days - 146096) / 146097;
    long long doe = days - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    long long day = doy - (153 * mp + 2) / 5 + 1;
    long long month = mp < 10 ? mp + 3 : mp - 9;
    long long year = yoe + era * 400 + (month <= 2);
    put_number(line, (unsigned long long)year, 4); put_text(line, "-");
    put_number(line, (unsigned long long)month, 2); put_text(line, "-");
    put_number(line, (unsigned long long)day, 2); put_text(line, "T");
    put_number(line, (unsigned long long)(rest / 3600), 2); put_text(line, ":");
    put_number(line, (unsigned long long)(rest / 60 % 60), 2); put_text(line, ":");
    put_number(line, (unsigned long long)(rest % 60), 2); put_text(line, "Z");
}

static void write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        bytes += written;
        count -= (size_t)written;
    }
}

// --- the handler ------------------------------------------------------------------------------

static void restore_and_record(int sig, const siginfo_t *info) {
    int saved_errno = errno;
    int tty = tty_descriptor;
    if (tty >= 0) {
        tty_descriptor = -1;
        write_all(tty, reset_bytes, reset_count);
        tcsetattr(tty, TCSANOW, &tty_modes);
    }

    line_t line = { .used = 0 };
    put_timestamp(&line);
    put_text(&line, " critical [");
    put_number(&line, (unsigned long long)getpid(), 1);
    put_text(&line, "] crashed on ");
    put_text(&line, signal_name(sig));
    put_text(&line, " (signal ");
    put_number(&line, (unsigned long long)sig, 1);
    put_text(&line, ")");
    if (info != NULL && info->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE)) {
        put_text(&line, " at address ");
        put_hex(&line, (unsigned long long)(uintptr_t)info->si_addr);
    }
    if (info != NULL && info->si_code <= 0) {
        put_text(&line, ", sent by process ");
        put_number(&line, (unsigned long long)info->si_pid, 1);
    }
    put_text(&line, "; terminal restored\n");

    if (have_log_path) {
        int log = open(log_path_buffer, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
        if (log >= 0) {
            write_all(log, line.bytes, line.used);
            // The frames, for whoever reads the log (never the terminal or a remote client):
            // backtrace(3) was called once at install, so it allocates nothing here.
            void *frames[64];
            int count = backtrace(frames, 64);
            backtrace_symbols_fd(frames, count, log);
            close(log);
        }
    }
    if (quiet_notice) {
        errno = saved_errno;
        return;
    }

    // Tell the person at the terminal, on the screen they are back on.
    int err = saved_stderr >= 0 ? saved_stderr : STDERR_FILENO;
    line_t notice = { .used = 0 };
    put_text(&notice, "tabshell: crashed (");
    put_text(&notice, signal_name(sig));
    put_text(&notice, ")");
    if (have_log_path) {
        put_text(&notice, "; details in ");
        put_text(&notice, log_path_buffer);
    }
    put_text(&notice, "\n");
    write_all(err, notice.bytes, notice.used);
    errno = saved_errno;
}

static void on_fatal_signal(int sig, siginfo_t *info, void *context) {
    (void)context;
    restore_and_record(sig, info);
    // SA_RESETHAND put the default action back. A fault re-runs its instruction on return and
    // dies; a signal sent with kill(2) is raised again and, blocked until we return, then kills.
    raise(sig);
}

// --- set-up -----------------------------------------------------------------------------------

int tsg_install(const char *log_path) {
    if (log_path != NULL) {
        size_t length = strlen(log_path);
        if (length < sizeof log_path_buffer) {
            memcpy(log_path_buffer, log_path, length + 1);
            have_log_path = 1;
        }
    }

    // backtrace(3) loads libgcc_s on its first call: done now, not in the handler.
    void *warm[2];
    (void)backtrace(warm, 2);

    static int stack_ready = 0;
    if (!stack_ready) {
        size_t size = 64 * 1024;
        void *memory = malloc(size);
        if (memory == NULL) return -1;
        stack_t stack = { .ss_sp = memory, .ss_size = size, .ss_flags = 0 };
        if (sigaltstack(&stack, NULL) != 0) { free(memory); return -1; }
        stack_ready = 1;
    }

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fatal_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (size_t index = 0; index < sizeof fatal_signals / sizeof fatal_signals[0]; index++) {
        if (sigaction(fatal_signals[index], &action, NULL) != 0) return -1;
    }
    return 0;
}

void tsg_arm_terminal(int tty_fd, const struct termios *saved, const char *reset, size_t reset_length) {
    tty_descriptor = -1;
    if (saved == NULL || reset_length > sizeof reset_bytes) return;
    tty_modes = *saved;
    memcpy(reset_bytes, reset, reset_length);
    reset_count = reset_length;
    tty_descriptor = tty_fd;
}

void tsg_disarm_terminal(void) { tty_descriptor = -1; }

int tsg_capture_stderr(void) {
    if (!have_log_path || saved_stderr >= 0) return -1;
    int log = open(log_path_buffer, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (log < 0) return -1;
    int saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved < 0) { close(log); return -1; }
    if (dup2(log, STDERR_FILENO) < 0) { close(log); close(saved); return -1; }
    close(log);
    saved_stderr = saved;
    return 0;
}

void tsg_release_stderr(void) {
    if (saved_stderr < 0) return;
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    saved_stderr = -1;
}

int tsg_serve_stderr(void) {
    if (!have_log_path || client_stderr >= 0) return -1;
    int log = open(log_path_buffer, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (log < 0) return -1;
    int client = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (client < 0) { close(log); return -1; }
    if (dup2(log, STDERR_FILENO) < 0) { close(log); close(client); return -1; }
    close(log);
    client_stderr = client;
    quiet_notice = 1;
    return 0;
}

int tsg_client_stderr(void) { return client_stderr >= 0 ? client_stderr : STDERR_FILENO; }

void tsg_simulate_for_testing(int signal_number) { restore_and_record(signal_number, NULL); }
