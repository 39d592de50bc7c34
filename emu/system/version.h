/* malibu --version (version.c). */
#ifndef MALIBU_SYSTEM_VERSION_H
#define MALIBU_SYSTEM_VERSION_H

#include <stdio.h>

/* "malibu VERSION (git DESCRIBE)" and the features compiled in and usable on this host. */
void version_print(FILE *f);

#endif
