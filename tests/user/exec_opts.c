/* execve keeps malibu-user's options: run with --cpu a57 (run_tests.py MALIBU_OPTS), the
 * program and the copy of itself it executes both see a core without LSE atomics in AT_HWCAP
 * (the default core, max, has them).  Compared against exec_opts.expected: qemu-aarch64
 * without binfmt_misc cannot run a program that executes itself. */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int child = argc > 1 && !strcmp(argv[1], "child");
    printf("%s: atomics %s\n", child ? "child" : "parent", getauxval(AT_HWCAP) & HWCAP_ATOMICS ? "yes" : "no");
    if (child)
        return 0;
    fflush(stdout);
    char *av[] = { argv[0], "child", NULL };
    execv("/proc/self/exe", av);
    perror("execv");
    return 1;
}
