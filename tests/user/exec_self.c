/* execve: a program re-executing itself (by /proc/self/exe and by argv[0]), arguments and the
 * environment passed through, errors for missing files.  qemu-aarch64 without binfmt_misc cannot
 * run this, so the expected output is in exec_self.expected. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child")) {
        printf("child: argv[2]=%s env=%s\n", argc > 2 ? argv[2] : "-", getenv("EXEC_TEST") ? getenv("EXEC_TEST") : "-");
        return 5;
    }
    char *env[] = { "EXEC_TEST=yes", NULL };
    int st;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char *av[] = { argv[0], "child", "via-proc", NULL };
        execve("/proc/self/exe", av, env);
        _exit(99);
    }
    waitpid(pid, &st, 0);
    printf("status %d\n", WEXITSTATUS(st));
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        char *av[] = { argv[0], "child", "via-argv0", NULL };
        execve(argv[0], av, env);
        _exit(99);
    }
    waitpid(pid, &st, 0);
    printf("status %d\n", WEXITSTATUS(st));
    char *av[] = { "nothing", NULL };
    int r = execve("/nonexistent/program", av, env);
    printf("missing: %d %s\n", r, strerror(errno));
    return 0;
}
