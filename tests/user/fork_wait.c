/* Processes: fork + wait (exit status, death by signal), pipes between them. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    int p[2];
    pipe(p);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        dprintf(p[1], "child pid ok %d\n", getppid() > 0);
        _exit(42);
    }
    close(p[1]);
    char buf[128] = { 0 };
    read(p[0], buf, sizeof buf - 1);
    printf("from child: %s", buf);
    int st;
    pid_t w = waitpid(pid, &st, 0);
    printf("waited same pid %d exited %d status %d\n", w == pid, WIFEXITED(st), WEXITSTATUS(st));

    pid = fork();
    if (pid == 0) {
        pause();
        _exit(0);
    }
    kill(pid, SIGTERM);
    waitpid(pid, &st, 0);
    printf("signaled %d sig %d\n", WIFSIGNALED(st), WTERMSIG(st));

    return 0;
}
