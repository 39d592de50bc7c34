/* malibu-user: run a Linux AArch64 program (placeholder until the loader lands). */
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
    fprintf(stderr, "usage: malibu-user [--sysroot DIR] PROGRAM [ARGS...]\n");
    return argc > 1 ? 0 : 2;
}
