/*
 * banned.h - functions prc code must not call (force-included by the build).
 * Each is unbounded, not thread-safe, or hides errors; the replacement is
 * named in the poisoned identifier so the compile error says what to use.
 */
#ifndef PRC_BANNED_H
#define PRC_BANNED_H

/* Pull in the real declarations first so the macros only affect our code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PRC_BANNED(f) sorry_##f##_is_banned_in_prc

#undef strcpy
#define strcpy(x, y) PRC_BANNED(strcpy)
#undef strcat
#define strcat(x, y) PRC_BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) PRC_BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) PRC_BANNED(strncat)
#undef sprintf
#define sprintf(...) PRC_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) PRC_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) PRC_BANNED(strtok)
#undef atoi
#define atoi(x) PRC_BANNED(atoi)
#undef atol
#define atol(x) PRC_BANNED(atol)
#undef gmtime
#define gmtime(x) PRC_BANNED(gmtime)
#undef localtime
#define localtime(x) PRC_BANNED(localtime)
#undef ctime
#define ctime(x) PRC_BANNED(ctime)
#undef asctime
#define asctime(x) PRC_BANNED(asctime)
#undef gets
#define gets(x) PRC_BANNED(gets)

#endif
