#ifndef CPTY_H
#define CPTY_H

#include <spawn.h>
#include <sys/types.h>

/// Starting a child process needs fork + setsid + TIOCSCTTY + execve, which Swift cannot do
/// safely (after fork only async-signal-safe calls are allowed). These functions do only that,
/// and report an exec failure's errno back through a close-on-exec pipe.
///
/// Every function returns 0 on success or an errno value; they never print.

/// Runs `path` (absolute) with `argv` and `envp` (NULL-terminated) in a new session whose
/// controlling terminal is a new pseudo-terminal of `cols` x `rows`. On success `*master_fd`
/// is the master side (close-on-exec, blocking) and `*pid` the child, which is also the
/// process group to signal. `cwd` may be NULL.
int cpty_spawn_pty(const char *path, char *const argv[], char *const envp[], const char *cwd,
                   unsigned short cols, unsigned short rows, int *master_fd, pid_t *pid);

/// Runs `path` in a new session with pipes for stdin, stdout and stderr (no terminal).
/// On success the three descriptors are the parent's ends, all close-on-exec.
int cpty_spawn_pipes(const char *path, char *const argv[], char *const envp[], const char *cwd,
                     int *stdin_fd, int *stdout_fd, int *stderr_fd, pid_t *pid);

/// `cpty_spawn_pty` with the child's data limit (RLIMIT_DATA: heap and private writable memory,
/// soft and hard) set to `memory_limit` bytes before exec; 0 leaves the server's own limit.
/// A child that goes over it fails its allocations and ends alone.
int cpty_spawn_pty_limited(const char *path, char *const argv[], char *const envp[], const char *cwd,
                           unsigned short cols, unsigned short rows, unsigned long long memory_limit,
                           int *master_fd, pid_t *pid);

/// `cpty_spawn_pipes` with the same data limit as `cpty_spawn_pty_limited`.
int cpty_spawn_pipes_limited(const char *path, char *const argv[], char *const envp[], const char *cwd,
                             unsigned long long memory_limit, int *stdin_fd, int *stdout_fd, int *stderr_fd,
                             pid_t *pid);

/// Starts `path` with the same stdin, stdout and stderr as this process and `handed[i]` as
/// descriptor 3 + i (at most 16), every other descriptor closed at exec and every signal at its
/// default: a server handing its listening socket to the server that follows it. Same process
/// group and session as this one. 0 or an errno (the exec's own when it failed).
int cpty_spawn_handing(const char *path, char *const argv[], char *const envp[], const int *handed, int count,
                       pid_t *pid);

/// TIOCSWINSZ on a terminal descriptor; the kernel sends SIGWINCH to its foreground group.
int cpty_set_window_size(int fd, unsigned short cols, unsigned short rows);

/// TIOCGWINSZ on a terminal descriptor.
int cpty_get_window_size(int fd, unsigned short *cols, unsigned short *rows);

/// pidfd_open(2): a descriptor that becomes readable when `pid` exits. -1 and errno on failure
/// (ENOSYS on kernels before 5.3).
int cpty_pidfd_open(pid_t pid);

/// How `waitpid` saw a child end, decoded from the macros Swift cannot call.
typedef struct {
    /// 0: still running (nothing to reap), 1: exited with `value`, 2: killed by signal `value`.
    int kind;
    int value;
    int core_dumped;
} cpty_wait_result;

/// waitpid(pid, WNOHANG). Returns 0 (and fills `result`) or an errno value (ECHILD if already reaped).
int cpty_wait_nohang(pid_t pid, cpty_wait_result *result);

/// The variable that makes a started tabshell a session template, naming its socket's descriptor.
#define CPTY_TEMPLATE_VARIABLE "TABSHELL_SESSION_TEMPLATE"
/// The most a session's arguments, environment and directory may take together in a request.
#define CPTY_TEMPLATE_MAX_WORDS_BYTES (128 * 1024)

/// Called first thing in `main`. Returns 0 at once unless this process was started as a session
/// template (CPTY_TEMPLATE_VARIABLE names its socket), in which case it serves requests and
/// returns only in a session it forked: 1, with the session's terminal on 0-2, its environment,
/// directory and memory limit in place, and its arguments in `cpty_template_session_argument`.
/// The template itself never returns (it exits when its server closes the socket or dies).
/// `warm_up` (may be NULL) runs once in the template before it serves: work every session would
/// do first and that depends on nothing a session brings (no environment, no file, no thread).
int cpty_template_run_if_asked(void (*warm_up)(void));

/// In a session forked by the template: argc, and argument `index` (NULL out of range).
/// 0 and NULL in every other process.
int cpty_template_session_argc(void);
const char *cpty_template_session_argument(int index);

/// Asks the template on `socket_fd` for a session on `terminal` (a pseudo-terminal's slave side,
/// which the caller still closes), with `argv` and `envp` (NULL-terminated), `cwd` (may be NULL)
/// and `memory_limit` (RLIMIT_DATA, 0 for none). 0 and the session's pid (a child of the caller,
/// which must be a child subreaper), or an errno; `*transport_failed` is 1 when the template did
/// not answer (it is gone: start another), 2 when the request is larger than a template takes
/// (CPTY_TEMPLATE_MAX_WORDS_BYTES, over 4,096 arguments or variables: exec it instead). With an errno and a nonzero `*pid` the session was
/// forked but could not be set up: it exits 127 and the caller reaps it.
int cpty_template_request(int socket_fd, int terminal, char *const argv[], char *const envp[], const char *cwd,
                          unsigned long long memory_limit, pid_t *pid, int *transport_failed);

/// A new pseudo-terminal of `cols` x `rows`, both sides close-on-exec.
int cpty_open_pty(unsigned short cols, unsigned short rows, int *master_fd, int *slave_fd);

/// Adds to `actions` the closing of every descriptor from `from` up (glibc's
/// posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not show): a child
/// started with them keeps none of its parent's but those it is given. 0, or an errno.
int cpty_file_actions_close_from(posix_spawn_file_actions_t *actions, int from);

/// prctl(PR_SET_CHILD_SUBREAPER): orphans below this process become its children.
int cpty_become_subreaper(void);

/// Makes every thread of this process allocate from glibc's one main heap (`mallopt`'s
/// M_ARENA_MAX, a macro Swift cannot see), instead of an arena per thread; call it before the
/// first thread starts. Nonzero when glibc took it.
int cpty_use_one_malloc_arena(void);

#endif
