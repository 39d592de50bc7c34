/* An unhandled SIGSEGV: the status must say so. */
#include <stdio.h>
int main(void)
{
    printf("before\n");
    fflush(stdout);
    *(volatile int *)8 = 1;
    return 0;
}
