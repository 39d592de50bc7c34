/* System V IPC: a shared-memory segment seen by parent and child, a semaphore handshake, a
 * message queue, and the IPC_STAT structures. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

struct msg { long type; char text[32]; };

int main(void)
{
    int shm = shmget(IPC_PRIVATE, 10000, IPC_CREAT | 0600);
    int sem = semget(IPC_PRIVATE, 2, IPC_CREAT | 0600);
    int mq = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
    if (shm < 0 || sem < 0 || mq < 0) {
        perror("get");
        return 1;
    }
    char *p = shmat(shm, NULL, 0);
    strcpy(p, "parent wrote this");
    unsigned short init[2] = { 0, 5 };
    semctl(sem, 0, SETALL, init);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char *q = shmat(shm, NULL, 0);
        printf("child sees: %s\n", q);
        fflush(stdout);
        strcpy(q + 5000, "child reply");
        struct msg m = { 7, "hello via msgq" };
        msgsnd(mq, &m, sizeof m.text, 0);
        struct sembuf up = { 0, 1, 0 };
        semop(sem, &up, 1);
        shmdt(q);
        _exit(0);
    }
    struct sembuf down = { 0, -1, 0 };
    semop(sem, &down, 1);
    printf("parent sees: %s\n", p + 5000);
    struct msg m;
    ssize_t n = msgrcv(mq, &m, sizeof m.text, 7, 0);
    printf("msg %zd type %ld: %s\n", n, m.type, m.text);
    waitpid(pid, NULL, 0);
    struct shmid_ds sds;
    shmctl(shm, IPC_STAT, &sds);
    printf("shm size %zu nattch %lu\n", (size_t)sds.shm_segsz, (unsigned long)sds.shm_nattch);
    struct semid_ds semds;
    union { int val; struct semid_ds *buf; } arg = { .buf = &semds };
    semctl(sem, 0, IPC_STAT, arg);
    printf("sem nsems %lu mode %o\n", (unsigned long)semds.sem_nsems, semds.sem_perm.mode & 0777);
    printf("sem values %d %d\n", semctl(sem, 0, GETVAL), semctl(sem, 1, GETVAL));
    struct msqid_ds mds;
    msgctl(mq, IPC_STAT, &mds);
    printf("msgq qnum %lu\n", (unsigned long)mds.msg_qnum);
    printf("shmdt %d again %d\n", shmdt(p), shmdt(p));
    shmctl(shm, IPC_RMID, NULL);
    semctl(sem, 0, IPC_RMID);
    msgctl(mq, IPC_RMID, NULL);
    return 0;
}
