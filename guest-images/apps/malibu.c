/* malibu: the guest channel from shell scripts (malibu.h).
 *   malibu probe | roi-begin NAME | roi-end | annotate TEXT... | stats-reset | stats-dump TAG | checkpoint
 * Prints what malibu returned; exit 0 on success, 1 on an error, 2 without a channel (not
 * running on malibu), 64 on a usage error.
 *
 * checkpoint: saves the board (malibu --checkpoint-save FILE) and prints 0; in a run resumed
 * from the file it prints 1, and when the resuming malibu was given --run CMD it runs CMD with
 * sh -c instead and ends the run with CMD's status (the exit device, as the init does after a
 * --run command): gem5's `m5 checkpoint; m5 readfile | sh`, so one saved script serves many
 * resumed runs. */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "malibu.h"

static int usage(void)
{
    fprintf(stderr, "usage: malibu probe | roi-begin NAME | roi-end | annotate TEXT... | stats-reset | stats-dump TAG"
                    " | checkpoint\n");
    return 64;
}

/* End the run with status: the board's "malibu,exit" device (/proc/device-tree/exit@ADDR), after
 * the console drained.  Returns only if there is none (or /dev/mem refuses). */
static void exit_device(int status)
{
    DIR *d = opendir("/proc/device-tree");
    struct dirent *e;
    unsigned long long pa = 0;
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, "exit@", 5))
            pa = strtoull(e->d_name + 5, NULL, 16);
    if (d)
        closedir(d);
    int fd = pa ? open("/dev/mem", O_RDWR | O_SYNC) : -1;
    if (fd < 0) {
        fprintf(stderr, "malibu: checkpoint: no exit device to report status %d\n", status);
        return;
    }
    long page = sysconf(_SC_PAGESIZE);
    volatile uint32_t *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                                (off_t)(pa & ~(unsigned long long)(page - 1)));
    if (p == MAP_FAILED) {
        fprintf(stderr, "malibu: checkpoint: cannot map the exit device\n");
        close(fd);
        return;
    }
    fflush(stdout);
    fflush(stderr);
    sync();
    tcdrain(STDOUT_FILENO);
    p[(pa & (unsigned long long)(page - 1)) / 4] = (uint32_t)status;
}

/* `malibu checkpoint` after the save (r 0) or in the resumed run (r 1): the resuming malibu's
 * --run command, if any.  The saving run asks too (there is none): both runs go the same way up
 * to the command, so with --clock icount their guest times stay equal. */
static int checkpoint(long r)
{
    static char cmd[8192];
    long n = malibu_checkpoint_command(cmd, sizeof cmd);
    if (n < 0) {
        fprintf(stderr, "malibu: checkpoint: cannot fetch the resumed run's command: error %ld\n", n);
        return 1;
    }
    if (n == 0) {
        printf("malibu: checkpoint: %ld\n", r);
        return 0;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0) {
        perror("malibu: checkpoint: sh");
        return 1;
    }
    int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    exit_device(status);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *cmd = argv[1];
    if (!malibu_available()) {
        fprintf(stderr, "malibu: no malibu channel here (%s is missing or names another encoding): "
                        "not running on malibu, nothing done\n", MALIBU_CHANNEL_DT);
        return 2;
    }
    long r;
    if (!strcmp(cmd, "probe") && argc == 2) {
        printf("malibu channel: version %ld (instruction 0x%08x | op)\n",
               MALIBU_CALL(MALIBU_OP_PROBE, 0, 0, 0, 0) & 0xffff, MALIBU_CHANNEL_INSN);
        return 0;
    } else if (!strcmp(cmd, "roi-begin") && argc == 3) {
        r = malibu_roi_begin(argv[2]);
    } else if (!strcmp(cmd, "roi-end") && argc == 2) {
        r = malibu_roi_end();
    } else if (!strcmp(cmd, "stats-reset") && argc == 2) {
        r = malibu_stats_reset();
    } else if (!strcmp(cmd, "stats-dump") && argc == 3) {
        r = malibu_stats_dump(argv[2]);
    } else if (!strcmp(cmd, "checkpoint") && argc == 2) {
        r = malibu_checkpoint();
        if (r == 0 || r == 1)
            return checkpoint(r);
    } else if (!strcmp(cmd, "annotate") && argc >= 3) {
        char text[1024] = "";
        size_t n = 0;
        for (int i = 2; i < argc && n < sizeof text - 1; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", i > 2 ? " " : "", argv[i]);
        r = malibu_annotate("%s", text);
    } else {
        return usage();
    }
    if (r < 0) {
        fprintf(stderr, "malibu: %s: error %ld\n", cmd, r);
        return 1;
    }
    printf("malibu: %s: %ld\n", cmd, r);
    return 0;
}
