// A program a session template can be made of, for the SSH server's tests: it waits in
// `cpty_template_run_if_asked` as tabshell's main does, and each session it forks (or each
// exec of it) runs its first argument with /bin/sh, with PROBE_FORKED saying which it was.
#include <CPty.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int forked = cpty_template_run_if_asked(NULL);
    const char *command = forked ? cpty_template_session_argument(1) : (argc > 1 ? argv[1] : NULL);
    if (command == NULL) {
        return 2;
    }
    setenv("PROBE_FORKED", forked ? "1" : "0", 1);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    return 127;
}
