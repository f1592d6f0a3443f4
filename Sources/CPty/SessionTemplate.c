#define _GNU_SOURCE
#include "CPty.h"
#include "CPtyInternal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>


#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#endif

// A served session's warmed template (docs/ssh-server.md, "Sessions from a template"): a copy of
// the tabshell binary that `serve` starts once, that has done the loader's work (libraries
// mapped, the binary's data relocated), and that forks a session per terminal connection. The
// session is the template's grandchild: the child between them exits at once, so the session
// is handed to `serve`, a child subreaper, which waits for it as for a child it started itself.
//
// The template runs nothing but this file: no Swift code, no thread, no log, nothing read from
// the environment but its own descriptor, so that a session inherits nothing but mapped,
// relocated pages. A session's every setting (arguments, environment, directory, limit,
// terminal) comes with its request.

#define TEMPLATE_MAGIC 0x54504c31u /* "TPL1" */

struct template_request {
    uint32_t magic;
    uint32_t argc;
    uint32_t envc;
    uint32_t has_cwd;
    uint64_t memory_limit;
};

struct template_reply {
    int32_t error;
    int32_t pid;
};

/// The session's arguments, set in the session (the template's grandchild) only.
static char **session_argv = NULL;
static int session_argc = 0;

int cpty_template_session_argc(void) { return session_argc; }
const char *cpty_template_session_argument(int index) {
    return (index >= 0 && index < session_argc) ? session_argv[index] : NULL;
}

/// Where the kernel reads this process's command line (/proc/PID/cmdline, what ps shows): the
/// template's argument strings, which `serve` pads so that a session's own words fit. The area
/// keeps its size and its last byte NUL, so the kernel shows it whole, word by word.
static char *title_start = NULL;
static size_t title_size = 0;

static void find_title_area(void) {
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    char buffer[4096];
    ssize_t got = read(fd, buffer, sizeof(buffer) - 1);
    close(fd);
    if (got <= 0) {
        return;
    }
    buffer[got] = 0;
    // Fields after the name (which may hold ')'): state is field 3; arg_start and arg_end 48, 49.
    char *field = strrchr(buffer, ')');
    if (field == NULL) {
        return;
    }
    unsigned long long start = 0;
    unsigned long long end = 0;
    int number = 2;
    for (char *cursor = field + 1; *cursor != 0 && number < 49;) {
        while (*cursor == ' ') cursor++;
        number++;
        if (number == 48) start = strtoull(cursor, NULL, 10);
        if (number == 49) end = strtoull(cursor, NULL, 10);
        while (*cursor != ' ' && *cursor != 0) cursor++;
    }
    if (start != 0 && end > start + 1) {
        title_start = (char *)(uintptr_t)start;
        title_size = (size_t)(end - start);
    }
}

/// Rewrites the command line to `words`, each ended by a NUL as exec lays them out, the rest of
/// the area NUL too (cut to fit). The first word is the template's own first (the same program),
/// so the C library's idea of the program's name (argv[0], backtraces' frames) is unchanged.
static void set_title(char *const words[], int count) {
    if (title_start == NULL || title_size < 2) {
        return;
    }
    size_t room = title_size - 1;
    size_t used = 0;
    for (int i = 0; i < count && used < room; i++) {
        size_t length = strlen(words[i]);
        if (length > room - used) length = room - used;
        memcpy(title_start + used, words[i], length);
        used += length;
        title_start[used++] = 0;
    }
    memset(title_start + used, 0, title_size - used);
}

static int count_threads(void) {
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    char buffer[4096];
    ssize_t got = read(fd, buffer, sizeof(buffer) - 1);
    close(fd);
    if (got <= 0) {
        return -1;
    }
    buffer[got] = 0;
    const char *line = strstr(buffer, "\nThreads:");
    return line ? atoi(line + 9) : -1;
}

static void close_from_except(int first, int kept) {
#if defined(__linux__)
    if (kept < first || syscall(SYS_close_range, (unsigned)first, (unsigned)(kept - 1), 0) == 0) {
        if (syscall(SYS_close_range, (unsigned)(kept < first ? first : kept + 1), ~0U, 0) == 0) {
            return;
        }
    }
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) {
        max = 65536;
    }
    for (long fd = first; fd < max; fd++) {
        if (fd != kept) {
            close((int)fd);
        }
    }
}

/// Room for one descriptor beside a message (SCM_RIGHTS).
typedef union {
    struct cmsghdr header;
    char space[CMSG_SPACE(sizeof(int))];
} descriptor_room;

/// `message` over `size` bytes at `bytes`, with `room` for one descriptor.
static void prepare_message(struct msghdr *message, struct iovec *vector, descriptor_room *room, void *bytes,
                            size_t size) {
    memset(room, 0, sizeof(*room));
    vector->iov_base = bytes;
    vector->iov_len = size;
    memset(message, 0, sizeof(*message));
    message->msg_iov = vector;
    message->msg_iovlen = 1;
    message->msg_control = room->space;
    message->msg_controllen = sizeof(room->space);
}

static void reply(int socket_fd, int error, pid_t pid) {
    struct template_reply answer = {error, pid};
    ssize_t sent;
    do {
        sent = send(socket_fd, &answer, sizeof(answer), MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) {
        _exit(0); // serve is gone
    }
}

static void write_int(int fd, int value) {
    ssize_t ignored = write(fd, &value, sizeof(value));
    (void)ignored;
}

static int read_int(int fd, int *value) {
    ssize_t got;
    do {
        got = read(fd, value, sizeof(*value));
    } while (got < 0 && errno == EINTR);
    return got == (ssize_t)sizeof(*value);
}

/// In the session: its terminal, environment, directory and limit, as `cpty_spawn_pty_limited`
/// gives an exec'd child. 0, or an errno after which the caller reports and exits.
static int become_session(int terminal, int report, char **words, uint32_t argc, uint32_t envc, const char *cwd,
                          uint64_t memory_limit) {
    cpty_child_reset_signals();
    if (setsid() < 0 || ioctl(terminal, TIOCSCTTY, 0) < 0) {
        return errno;
    }
    for (int target = 0; target <= 2; target++) {
        if (dup2(terminal, target) < 0) {
            return errno;
        }
    }
    // Nothing of the template (its socket) nor of serve stays open; the report pipe until the end.
    close_from_except(3, report);
    if (memory_limit > 0) {
        struct rlimit limit = {(rlim_t)memory_limit, (rlim_t)memory_limit};
        if (setrlimit(RLIMIT_DATA, &limit) != 0) {
            return errno;
        }
    }
    if (cwd != NULL && chdir(cwd) != 0) {
        return errno;
    }
    if (clearenv() != 0) {
        return ENOMEM;
    }
    for (uint32_t i = 0; i < envc; i++) {
        // putenv keeps the pointer: `words` lives as long as the session.
        if (strchr(words[argc + i], '=') == NULL || putenv(words[argc + i]) != 0) {
            return EINVAL;
        }
    }
    session_argv = words;
    session_argc = (int)argc;
    set_title(words, (int)argc);
    return 0;
}

/// Splits `size` bytes of NUL-ended words into `count` pointers (malloc'd), or NULL.
static char **split_words(char *bytes, size_t size, uint32_t count) {
    char **words = calloc((size_t)count + 1, sizeof(char *));
    if (words == NULL) {
        return NULL;
    }
    size_t offset = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (offset >= size) {
            free(words);
            return NULL;
        }
        char *end = memchr(bytes + offset, 0, size - offset);
        if (end == NULL) {
            free(words);
            return NULL;
        }
        words[i] = bytes + offset;
        offset = (size_t)(end - bytes) + 1;
    }
    if (offset != size) {
        free(words);
        return NULL;
    }
    return words;
}

int cpty_template_run_if_asked(void (*warm_up)(void)) {
    const char *named = getenv(CPTY_TEMPLATE_VARIABLE);
    if (named == NULL) {
        return 0;
    }
    char *end = NULL;
    long parsed = strtol(named, &end, 10);
    if (end == named || *end != 0 || parsed < 3 || parsed > 1024) {
        return 0;
    }
    int socket_fd = (int)parsed;
    unsetenv(CPTY_TEMPLATE_VARIABLE);
#if defined(__linux__)
    // The template lives only as long as the server that started it.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() == 1) {
        _exit(0);
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    find_title_area();
    // What ps shows of the template: its program, then what it is.
    if (title_start != NULL) {
        char *program = strdup(title_start);
        if (program != NULL) {
            char *const title[] = {program, "(session template)"};
            set_title(title, 2);
            free(program);
        }
    }

    // The program's own first-use work (type metadata, conformance lookups), done once here so
    // that every session inherits it; it must start no thread, which the loop checks.
    if (warm_up != NULL) {
        warm_up();
    }

    size_t capacity = sizeof(struct template_request) + CPTY_TEMPLATE_MAX_WORDS_BYTES;
    char *buffer = malloc(capacity);
    if (buffer == NULL) {
        _exit(1);
    }
    for (;;) {
        descriptor_room room;
        struct iovec vector;
        struct msghdr message;
        prepare_message(&message, &vector, &room, buffer, capacity);
        ssize_t got = recvmsg(socket_fd, &message, MSG_CMSG_CLOEXEC);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            _exit(0); // serve closed its end (or is gone)
        }
        int terminal = -1;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL;
             header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS &&
                header->cmsg_len == CMSG_LEN(sizeof(int))) {
                memcpy(&terminal, CMSG_DATA(header), sizeof(int));
            }
        }
        struct template_request request;
        if (terminal < 0 || (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0 ||
            (size_t)got < sizeof(request)) {
            if (terminal >= 0) close(terminal);
            reply(socket_fd, EINVAL, 0);
            continue;
        }
        memcpy(&request, buffer, sizeof(request));
        uint32_t words_count = request.argc + request.envc + (request.has_cwd ? 1 : 0);
        if (request.magic != TEMPLATE_MAGIC || request.argc == 0 || request.argc > 4096 || request.envc > 4096) {
            close(terminal);
            reply(socket_fd, EINVAL, 0);
            continue;
        }
        // Forking is safe only while this process has one thread. A template with more is of no
        // use: it ends without answering, and the server starts another or execs its sessions.
        if (count_threads() != 1) {
            _exit(1);
        }
        int report[2];
        int failure[2];
        if (pipe2(report, O_CLOEXEC) != 0) {
            int error = errno;
            close(terminal);
            reply(socket_fd, error, 0);
            continue;
        }
        if (pipe2(failure, O_CLOEXEC) != 0) {
            int error = errno;
            close(report[0]);
            close(report[1]);
            close(terminal);
            reply(socket_fd, error, 0);
            continue;
        }
        pid_t middle = fork();
        if (middle == 0) {
            close(report[0]);
            close(failure[0]);
            // Taken before the fork: the middle may be gone before the session first runs.
            pid_t middle_pid = getpid();
            pid_t session = fork();
            if (session == 0) {
                close(report[1]);
                // Until the middle process has exited and this one is the server's (its
                // subreaper's) child: what the session reads of its parent is the server, at once.
                for (int tries = 0; getppid() == middle_pid && tries < 20000; tries++) {
                    usleep(100);
                }
                char *bytes = buffer + sizeof(request);
                size_t size = (size_t)got - sizeof(request);
                char **words = split_words(bytes, size, words_count);
                int error = words == NULL ? EINVAL : 0;
                if (error == 0) {
                    const char *cwd = request.has_cwd ? words[request.argc + request.envc] : NULL;
                    words[request.argc + request.envc] = NULL;
                    error = become_session(terminal, failure[1], words, request.argc, request.envc, cwd,
                                           request.memory_limit);
                }
                if (error != 0) {
                    write_int(failure[1], error);
                    _exit(127);
                }
                // Set up: the template reads the end of this pipe as "started".
                close(failure[1]);
                return 1;
            }
            close(failure[1]);
            write_int(report[1], session < 0 ? -errno : (int)session);
            _exit(0);
        }
        int fork_error = middle < 0 ? errno : 0;
        close(report[1]);
        close(failure[1]);
        close(terminal);
        int error = fork_error;
        pid_t session = 0;
        if (middle > 0) {
            int value = 0;
            if (!read_int(report[0], &value)) {
                error = ECHILD;
            } else if (value < 0) {
                error = -value;
            } else {
                session = (pid_t)value;
            }
            int status;
            while (waitpid(middle, &status, 0) < 0 && errno == EINTR) {
            }
            if (session > 0) {
                int setup_error = 0;
                if (read_int(failure[0], &setup_error)) {
                    // The session exits 127; serve, its parent now, reaps it.
                    error = setup_error != 0 ? setup_error : ECHILD;
                }
            }
        }
        close(report[0]);
        close(failure[0]);
        reply(socket_fd, error, error == 0 ? session : (session > 0 ? session : 0));
    }
}

int cpty_template_request(int socket_fd, int terminal, char *const argv[], char *const envp[], const char *cwd,
                          unsigned long long memory_limit, pid_t *pid, int *transport_failed) {
    *transport_failed = 0;
    struct template_request request = {TEMPLATE_MAGIC, 0, 0, cwd != NULL, memory_limit};
    size_t size = sizeof(request);
    for (; argv[request.argc] != NULL; request.argc++) size += strlen(argv[request.argc]) + 1;
    for (; envp[request.envc] != NULL; request.envc++) size += strlen(envp[request.envc]) + 1;
    if (cwd != NULL) size += strlen(cwd) + 1;
    if (size > sizeof(request) + CPTY_TEMPLATE_MAX_WORDS_BYTES || request.argc == 0 || request.argc > 4096 ||
        request.envc > 4096) {
        *transport_failed = 2;
        return E2BIG;
    }
    char *buffer = malloc(size);
    if (buffer == NULL) {
        return ENOMEM;
    }
    memcpy(buffer, &request, sizeof(request));
    size_t offset = sizeof(request);
    for (uint32_t i = 0; i < request.argc; i++) {
        size_t length = strlen(argv[i]) + 1;
        memcpy(buffer + offset, argv[i], length);
        offset += length;
    }
    for (uint32_t i = 0; i < request.envc; i++) {
        size_t length = strlen(envp[i]) + 1;
        memcpy(buffer + offset, envp[i], length);
        offset += length;
    }
    if (cwd != NULL) {
        memcpy(buffer + offset, cwd, strlen(cwd) + 1);
    }
    descriptor_room room;
    struct iovec vector;
    struct msghdr message;
    prepare_message(&message, &vector, &room, buffer, size);
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &terminal, sizeof(int));
    ssize_t sent;
    do {
        sent = sendmsg(socket_fd, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    int send_error = errno;
    free(buffer);
    if (sent != (ssize_t)size) {
        *transport_failed = 1;
        return sent < 0 ? send_error : EPIPE;
    }
    struct template_reply answer;
    ssize_t got;
    do {
        got = recv(socket_fd, &answer, sizeof(answer), 0);
    } while (got < 0 && errno == EINTR);
    if (got != (ssize_t)sizeof(answer)) {
        *transport_failed = 1;
        return got < 0 ? errno : EPIPE;
    }
    *pid = answer.pid;
    return answer.error;
}

int cpty_become_subreaper(void) {
#if defined(__linux__)
    return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 0 : errno;
#else
    return ENOSYS;
#endif
}
