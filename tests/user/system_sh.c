/* system() and popen(): /bin/sh is not in the cross sysroot, so the runner hands the host's shell
 * to the host (as qemu-aarch64 does); exit statuses come back through wait. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

int main(void)
{
    fflush(stdout);
    int st = system("echo from the shell; exit 3");
    printf("system status %d\n", WEXITSTATUS(st));
    FILE *p = popen("echo popen line", "r");
    char buf[64] = { 0 };
    fgets(buf, sizeof buf, p);
    printf("read: %s", buf);
    printf("pclose %d\n", pclose(p));
    return 0;
}
