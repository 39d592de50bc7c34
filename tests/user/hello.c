/* Hello world: stdio, exit status from main. */
#include <stdio.h>
int main(int argc, char **argv)
{
    printf("hello, world (argc=%d)\n", argc);
    fflush(stdout);
    fprintf(stderr, "to stderr\n");
    return 3;
}
