#include "CPty.h"
#include "CPtyInternal.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#if defined(__linux__)
#include <pty.h>
#include <sys/syscall.h>
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#define CPTY_CLOSE_RANGE_CLOEXEC (1U << 2)
#else
#include <util.h>
#endif

// MARK: - In the child (async-signal-safe calls only)

/// Every descriptor from `first` up is marked close-on-exec, so nothing of the server (sockets,
/// other sessions' terminals) leaks into the child, while the error pipe stays open until exec.
static void child_mark_descriptors_cloexec(int first) {
#if defined(__linux__)
    if (syscall(SYS_close_range, (unsigned)first, ~0U, CPTY_CLOSE_RANGE_CLOEXEC) == 0) {
        return;
    }
#endif
    struct rlimit limit;
    long max = 4096;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        max = (long)limit.rlim_cur;
    }
    if (max > 65536) {
        max = 65536;
    }
    for (long fd = first; fd < max; fd++) {
        int flags = fcntl((int)fd, F_GETFD);
        if (flags >= 0) {
            fcntl((int)fd, F_SETFD, flags | FD_CLOEXEC);
        }
    }
}

/// The server may ignore SIGPIPE and its threads may block signals; a child must start clean.
void cpty_child_reset_signals(void) {
    struct sigaction action;
    action.sa_handler = SIG_DFL;
    action.sa_flags = 0;
    sigemptyset(&action.sa_mask);
    for (int signo = 1; signo < NSIG; signo++) {
        if (signo != SIGKILL && signo != SIGSTOP) {
            sigaction(signo, &action, NULL);
        }
    }
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);
}

static void child_exec_keeping(int kept, int error_pipe, const char *path, char *const argv[], char *const envp[],
                               const char *cwd, unsigned long long memory_limit) {
    int error = 0;
    cpty_child_reset_signals();
    child_mark_descriptors_cloexec(3 + kept);
    if (memory_limit > 0) {
        struct rlimit limit;
        limit.rlim_cur = (rlim_t)memory_limit;
        limit.rlim_max = (rlim_t)memory_limit;
        if (setrlimit(RLIMIT_DATA, &limit) != 0) {
            error = errno;
        }
    }
    if (error != 0) {
        // Never run a child without the limit it was asked to have.
    } else if (cwd != NULL && chdir(cwd) != 0) {
        error = errno;
    } else {
        execve(path, argv, envp);
        error = errno;
    }
    ssize_t ignored = write(error_pipe, &error, sizeof(error));
    (void)ignored;
    _exit(127);
}

static void child_exec(int error_pipe, const char *path, char *const argv[], char *const envp[], const char *cwd,
                       unsigned long long memory_limit) {
    child_exec_keeping(0, error_pipe, path, argv, envp, cwd, memory_limit);
}

/// dup2 that also works when `fd` already is `target` (dup2 then keeps close-on-exec set).
static int child_dup_to(int fd, int target) {
    if (fd == target) {
        int flags = fcntl(fd, F_GETFD);
        return flags < 0 ? -1 : fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
    }
    return dup2(fd, target);
}

// MARK: - In the parent

static int make_cloexec(int fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags < 0 || fcntl(fd, F_SETFD, flags | FD_CLOEXEC) < 0) {
        return errno;
    }
    return 0;
}

static int make_pipe(int fds[2]) {
    if (pipe(fds) != 0) {
        return errno;
    }
    int error = make_cloexec(fds[0]);
    if (error == 0) {
        error = make_cloexec(fds[1]);
    }
    if (error != 0) {
        close(fds[0]);
        close(fds[1]);
    }
    return error;
}

/// Waits for the child's exec: EOF on the close-on-exec pipe means it succeeded; an errno
/// means it did not, and the child (which exits 127 at once) is reaped here.
static int await_exec(int error_pipe_read, pid_t pid) {
    int child_error = 0;
    ssize_t got;
    do {
        got = read(error_pipe_read, &child_error, sizeof(child_error));
    } while (got < 0 && errno == EINTR);
    close(error_pipe_read);
    if (got == (ssize_t)sizeof(child_error)) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return child_error != 0 ? child_error : ECHILD;
    }
    return 0;
}

int cpty_open_pty(unsigned short cols, unsigned short rows, int *master_fd, int *slave_fd) {
    struct winsize size;
    memset(&size, 0, sizeof(size));
    size.ws_col = cols;
    size.ws_row = rows;
    int master = -1;
    int slave = -1;
    if (openpty(&master, &slave, NULL, NULL, &size) != 0) {
        return errno;
    }
    if (fcntl(master, F_SETFD, FD_CLOEXEC) != 0 || fcntl(slave, F_SETFD, FD_CLOEXEC) != 0) {
        int error = errno;
        close(master);
        close(slave);
        return error;
    }
    *master_fd = master;
    *slave_fd = slave;
    return 0;
}

int cpty_spawn_pty(const char *path, char *const argv[], char *const envp[], const char *cwd,
                   unsigned short cols, unsigned short rows, int *master_fd, pid_t *pid) {
    return cpty_spawn_pty_limited(path, argv, envp, cwd, cols, rows, 0, master_fd, pid);
}

int cpty_spawn_pty_limited(const char *path, char *const argv[], char *const envp[], const char *cwd,
                           unsigned short cols, unsigned short rows, unsigned long long memory_limit,
                           int *master_fd, pid_t *pid) {
    int master = -1;
    int slave = -1;
    int error = cpty_open_pty(cols, rows, &master, &slave);
    if (error != 0) {
        return error;
    }
    int error_pipe[2];
    error = make_pipe(error_pipe);
    if (error != 0) {
        close(master);
        close(slave);
        return error;
    }

    pid_t child = fork();
    if (child < 0) {
        error = errno;
        close(master);
        close(slave);
        close(error_pipe[0]);
        close(error_pipe[1]);
        return error;
    }
    if (child == 0) {
        close(error_pipe[0]);
        close(master);
        if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) < 0 || child_dup_to(slave, STDIN_FILENO) < 0 ||
            child_dup_to(slave, STDOUT_FILENO) < 0 || child_dup_to(slave, STDERR_FILENO) < 0) {
            int setup_error = errno;
            ssize_t ignored = write(error_pipe[1], &setup_error, sizeof(setup_error));
            (void)ignored;
            _exit(127);
        }
        if (slave > STDERR_FILENO) {
            close(slave);
        }
        child_exec(error_pipe[1], path, argv, envp, cwd, memory_limit);
    }

    close(slave);
    close(error_pipe[1]);
    error = await_exec(error_pipe[0], child);
    if (error != 0) {
        close(master);
        return error;
    }
    *master_fd = master;
    *pid = child;
    return 0;
}

int cpty_spawn_pipes(const char *path, char *const argv[], char *const envp[], const char *cwd,
                     int *stdin_fd, int *stdout_fd, int *stderr_fd, pid_t *pid) {
    return cpty_spawn_pipes_limited(path, argv, envp, cwd, 0, stdin_fd, stdout_fd, stderr_fd, pid);
}

int cpty_spawn_pipes_limited(const char *path, char *const argv[], char *const envp[], const char *cwd,
                             unsigned long long memory_limit, int *stdin_fd, int *stdout_fd, int *stderr_fd,
                             pid_t *pid) {
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, error_pipe[2] = {-1, -1};
    int error = make_pipe(in);
    if (error == 0) error = make_pipe(out);
    if (error == 0) error = make_pipe(err);
    if (error == 0) error = make_pipe(error_pipe);
    if (error != 0) {
        int all[] = {in[0], in[1], out[0], out[1], err[0], err[1], error_pipe[0], error_pipe[1]};
        for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
            if (all[i] >= 0) close(all[i]);
        }
        return error;
    }

    pid_t child = fork();
    if (child < 0) {
        error = errno;
        int all[] = {in[0], in[1], out[0], out[1], err[0], err[1], error_pipe[0], error_pipe[1]};
        for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
            close(all[i]);
        }
        return error;
    }
    if (child == 0) {
        close(error_pipe[0]);
        if (setsid() < 0 || child_dup_to(in[0], STDIN_FILENO) < 0 || child_dup_to(out[1], STDOUT_FILENO) < 0 ||
            child_dup_to(err[1], STDERR_FILENO) < 0) {
            int setup_error = errno;
            ssize_t ignored = write(error_pipe[1], &setup_error, sizeof(setup_error));
            (void)ignored;
            _exit(127);
        }
        child_exec(error_pipe[1], path, argv, envp, cwd, memory_limit);
    }

    close(in[0]);
    close(out[1]);
    close(err[1]);
    close(error_pipe[1]);
    error = await_exec(error_pipe[0], child);
    if (error != 0) {
        close(in[1]);
        close(out[0]);
        close(err[0]);
        return error;
    }
    *stdin_fd = in[1];
    *stdout_fd = out[0];
    *stderr_fd = err[0];
    *pid = child;
    return 0;
}

int cpty_set_window_size(int fd, unsigned short cols, unsigned short rows) {
    struct winsize size = {0};
    size.ws_col = cols;
    size.ws_row = rows;
    return ioctl(fd, TIOCSWINSZ, &size) == 0 ? 0 : errno;
}

int cpty_get_window_size(int fd, unsigned short *cols, unsigned short *rows) {
    struct winsize size = {0};
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) {
        return errno;
    }
    *cols = size.ws_col;
    *rows = size.ws_row;
    return 0;
}

int cpty_pidfd_open(pid_t pid) {
#if defined(__linux__)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

int cpty_wait_nohang(pid_t pid, cpty_wait_result *result) {
    int status = 0;
    pid_t got;
    do {
        got = waitpid(pid, &status, WNOHANG);
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
        return errno;
    }
    result->kind = 0;
    result->value = 0;
    result->core_dumped = 0;
    if (got == 0) {
        return 0;
    }
    if (WIFEXITED(status)) {
        result->kind = 1;
        result->value = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result->kind = 2;
        result->value = WTERMSIG(status);
#ifdef WCOREDUMP
        result->core_dumped = WCOREDUMP(status) ? 1 : 0;
#endif
    }
    return 0;
}

int cpty_spawn_handing(const char *path, char *const argv[], char *const envp[], const int *handed, int count,
                       pid_t *pid) {
    if (count < 0 || count > 16) {
        return EINVAL;
    }
    int error_pipe[2] = {-1, -1};
    int error = make_pipe(error_pipe);
    if (error != 0) {
        return error;
    }
    pid_t child = fork();
    if (child < 0) {
        error = errno;
        close(error_pipe[0]);
        close(error_pipe[1]);
        return error;
    }
    if (child == 0) {
        close(error_pipe[0]);
        // First everything out of the way, above every target (3 … 3+count-1), so that no
        // dup2 overwrites a descriptor still to be handed, nor the error pipe.
        int report = fcntl(error_pipe[1], F_DUPFD_CLOEXEC, 3 + count);
        int moved[16];
        for (int i = 0; i < count && report >= 0; i++) {
            moved[i] = fcntl(handed[i], F_DUPFD_CLOEXEC, 3 + count);
            if (moved[i] < 0) {
                report = -1;
            }
        }
        for (int i = 0; i < count && report >= 0; i++) {
            if (dup2(moved[i], 3 + i) < 0) {
                report = -1;
            }
        }
        if (report < 0) {
            int setup_error = errno;
            ssize_t ignored = write(error_pipe[1], &setup_error, sizeof(setup_error));
            (void)ignored;
            _exit(127);
        }
        child_exec_keeping(count, report, path, argv, envp, NULL, 0);
    }
    close(error_pipe[1]);
    error = await_exec(error_pipe[0], child);
    if (error != 0) {
        return error;
    }
    *pid = child;
    return 0;
}

int cpty_use_one_malloc_arena(void) {
    return mallopt(M_ARENA_MAX, 1);
}
