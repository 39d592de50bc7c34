/* Arguments, environment and the auxiliary vector as the loader built them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

int main(int argc, char **argv, char **envp)
{
    for (int i = 1; i < argc; i++)
        printf("argv[%d] = \"%s\"\n", i, argv[i]);
    printf("argv[argc] = %p\n", (void *)argv[argc]);
    const char *v = getenv("MALIBU_TEST_VAR");
    printf("MALIBU_TEST_VAR = %s\n", v ? v : "(unset)");
    int n = 0;
    while (envp[n])
        n++;
    printf("envp follows argv: %d\n", envp == argv + argc + 1);
    printf("pagesz %lu\n", getauxval(AT_PAGESZ));
    printf("hwcap has fp+asimd: %d\n", (getauxval(AT_HWCAP) & 3) == 3);
    printf("hwcap2 %lu\n", getauxval(AT_HWCAP2));
    printf("platform %s\n", (const char *)getauxval(AT_PLATFORM));
    printf("execfn is argv[0]: %d\n", strcmp((const char *)getauxval(AT_EXECFN), argv[0]) == 0);
    printf("secure %lu uid-match %d\n", getauxval(AT_SECURE), getauxval(AT_UID) == getuid());
    const unsigned char *r = (const unsigned char *)getauxval(AT_RANDOM);
    printf("random present: %d\n", r != NULL);
    printf("clktck %lu\n", getauxval(AT_CLKTCK));
    printf("argv aligned: %d\n", ((uintptr_t)argv & 7) == 0);
    return argc;
}
