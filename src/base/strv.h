/*
 * strv.h - NULL-ended string lists: the fixed vocabularies (keys, enums, command names) that the
 * checkers and analyses test words against.
 */
#ifndef PRC_STRV_H
#define PRC_STRV_H

#include <stdbool.h>
#include <string.h>

/* Is s one of list's words? list ends with NULL. */
static inline bool prc_strv_has(const char *const *list, const char *s)
{
        for (; *list != NULL; list++)
                if (strcmp(s, *list) == 0)
                        return true;
        return false;
}

#endif
