// A program a session template can be made of, for the SSH server's tests: it waits in
// `cpty_template_run_if_asked` as tabshell's main does, and each session it forks (or each
// exec of it) runs its first argument with /bin/sh, with PROBE_FORKED saying which it was.
// Started under a name holding "Threaded", its warm-up starts a thread, which no template may
// have when it forks.
#include <CPty.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *program_name = "";

static void *idle(void *unused) {
    (void)unused;
    for (;;) {
        pause();
    }
    return NULL;
}

static void warm_up(void) {
    if (strstr(program_name, "Threaded") != NULL) {
        pthread_t thread;
        pthread_create(&thread, NULL, idle, NULL);
    }
}

int main(int argc, char **argv) {
    program_name = argc > 0 ? argv[0] : "";
    int forked = cpty_template_run_if_asked(warm_up);
    const char *command = forked ? cpty_template_session_argument(1) : (argc > 1 ? argv[1] : NULL);
    if (command == NULL) {
        return 2;
    }
    setenv("PROBE_FORKED", forked ? "1" : "0", 1);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    return 127;
}
