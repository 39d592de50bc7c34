/* Files and directories: open/read/write/lseek/stat/rename/unlink/mkdir/getdents/pipe/dup/mmap. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define CHECK(x) do { if (!(x)) { printf("FAIL line %d: %s (errno %d)\n", __LINE__, #x, errno); return 1; } } while (0)

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void)
{
    char dir[] = "malibu-fileio-XXXXXX";
    CHECK(mkdtemp(dir));
    CHECK(chdir(dir) == 0);
    int fd = open("a.txt", O_CREAT | O_WRONLY | O_TRUNC, 0640);
    CHECK(fd >= 0);
    CHECK(write(fd, "hello file\n", 11) == 11);
    struct iovec iov[2] = { { "abc", 3 }, { "defg\n", 5 } };
    CHECK(writev(fd, iov, 2) == 8);
    CHECK(pwrite(fd, "H", 1, 0) == 1);
    struct stat st;
    CHECK(fstat(fd, &st) == 0);
    printf("size %lld mode %o regular %d nlink %lu\n", (long long)st.st_size, st.st_mode & 0777,
           S_ISREG(st.st_mode), (unsigned long)st.st_nlink);
    CHECK(close(fd) == 0);
    CHECK(stat("a.txt", &st) == 0 && st.st_size == 19);
    CHECK(stat("missing", &st) < 0 && errno == ENOENT);
    fd = open("a.txt", O_RDONLY);
    CHECK(fd >= 0);
    char buf[64] = { 0 };
    CHECK(read(fd, buf, sizeof buf) == 19);
    printf("read: %s", buf);
    CHECK(lseek(fd, 6, SEEK_SET) == 6);
    memset(buf, 0, sizeof buf);
    CHECK(read(fd, buf, 4) == 4);
    printf("at 6: %s\n", buf);
    CHECK(pread(fd, buf, 3, 11) == 3);
    printf("pread: %.3s\n", buf);
    int fl = fcntl(fd, F_GETFL);
    printf("flags rdonly %d\n", (fl & O_ACCMODE) == O_RDONLY);
    char *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
    CHECK(m != MAP_FAILED);
    printf("mmap: %.10s\n", m);
    CHECK(munmap(m, 4096) == 0);
    close(fd);

    CHECK(mkdir("sub", 0755) == 0);
    CHECK(mkdir("sub", 0755) < 0 && errno == EEXIST);
    CHECK(rename("a.txt", "sub/b.txt") == 0);
    CHECK(access("sub/b.txt", R_OK) == 0);
    CHECK(symlink("sub/b.txt", "link") == 0);
    char lb[64] = { 0 };
    CHECK(readlink("link", lb, sizeof lb) == 9);
    printf("readlink: %s\n", lb);
    int dfd = open("sub", O_RDONLY | O_DIRECTORY);
    CHECK(dfd >= 0);
    CHECK(openat(dfd, "b.txt", O_RDONLY | O_NOFOLLOW) >= 0);
    fl = fcntl(dfd, F_GETFL);
    printf("dir flag kept: %d\n", (fl & O_DIRECTORY) != 0);
    close(dfd);
    CHECK(open("link", O_RDONLY | O_NOFOLLOW) < 0 && errno == ELOOP);

    DIR *d = opendir(".");
    CHECK(d);
    char *names[16];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 16)
        names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    for (int i = 0; i < n; i++)
        printf("entry %s\n", names[i]);

    int p[2];
    CHECK(pipe(p) == 0);
    CHECK(write(p[1], "pipe!", 5) == 5);
    int d2 = dup(p[0]);
    memset(buf, 0, sizeof buf);
    CHECK(read(d2, buf, 5) == 5);
    printf("pipe: %s\n", buf);
    CHECK(ftruncate(open("sub/b.txt", O_RDWR), 4) == 0);
    CHECK(stat("sub/b.txt", &st) == 0);
    printf("truncated size %lld\n", (long long)st.st_size);
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd));
    printf("cwd ends with dir: %d\n", strcmp(cwd + strlen(cwd) - strlen(dir), dir) == 0);
    CHECK(unlink("link") == 0);
    CHECK(unlink("sub/b.txt") == 0);
    CHECK(rmdir("sub") == 0);
    CHECK(chdir("..") == 0);
    CHECK(rmdir(dir) == 0);
    printf("ok\n");
    return 0;
}
