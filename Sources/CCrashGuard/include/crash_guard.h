// Crash guard: puts the terminal back and records the crash when tabshell dies of a fatal
// signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS) — which is also how a Swift
// runtime trap ends (a failed precondition, a force-unwrapped nil). Written in C because a
// signal handler may only make async-signal-safe calls: write(2), open(2), tcsetattr(3).
#ifndef TABSHELL_CRASH_GUARD_H
#define TABSHELL_CRASH_GUARD_H

#include <stddef.h>
#include <termios.h>

/// Installs the fatal-signal handlers (on an alternate stack, so a stack overflow is caught
/// too), replacing the Swift runtime's backtracer and its interactive prompt for this process.
/// `log_path` is the log file the crash line is appended to (copied; may be NULL).
/// Returns 0, or -1 with errno set.
int tsg_install(const char *log_path);

/// From now until `tsg_disarm_terminal`, a crash first writes `reset` (leave the alternate
/// screen, show the cursor, …) to `tty_fd` and puts back the modes `saved`. Both are copied.
void tsg_arm_terminal(int tty_fd, const struct termios *saved, const char *reset, size_t reset_length);

/// The terminal was restored the ordinary way: a crash from now on leaves it alone.
void tsg_disarm_terminal(void);

/// While curses owns the screen, standard error goes to the log file, so that nothing (a
/// runtime's "Fatal error: …" line included) is written over the screen. Returns 0 or -1.
int tsg_capture_stderr(void);

/// Gives standard error back to where it pointed before `tsg_capture_stderr`.
void tsg_release_stderr(void);

/// In a served session's child (`tabshell serve` runs it for a remote client): descriptor 2
/// points at the log from now on, so that nothing the runtime writes as it dies (a "Fatal
/// error" line, a stack trace with library paths) reaches the client, and a crash writes no
/// notice (the server tells the client in one sentence). What the program means the client
/// to read goes to `tsg_client_stderr()`. Needs `tsg_install` first. Returns 0 or -1.
int tsg_serve_stderr(void);

/// The client's standard error after `tsg_serve_stderr`, else STDERR_FILENO.
int tsg_client_stderr(void);

/// Test hook: runs the handler's restore-and-record steps for `signal_number` without dying.
void tsg_simulate_for_testing(int signal_number);

#endif
