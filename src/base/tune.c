/*
 * tune.c - huge pages for the heap (tune.h).
 */
#include "base/tune.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "base/alloc.h"

#define MARK "PRC_MALLOC_TUNED"         /* set only between the re-exec and its undo */

static const char tunables[] = "GLIBC_TUNABLES=";

/* Does the tunables list v name the tunable key (klen bytes up to and with its '=')? */
static bool names(const char *v, const char *key, size_t klen)
{
        for (const char *p = v; p != NULL && *p != '\0';) {
                if (strncmp(p, key, klen) == 0)
                        return true;
                p = strchr(p, ':');
                if (p != NULL)
                        p++;
        }
        return false;
}

char *prc_tune_value(const char *orig)
{
        static const char all[] = PRC_TUNE_ALL, hugetlb[] = "glibc.malloc.hugetlb=";
        size_t n, len;
        char  *v;

        if (orig == NULL || *orig == '\0')
                orig = NULL;
        if (orig != NULL && names(orig, hugetlb, sizeof(hugetlb) - 1))
                return NULL;
        n = (orig != NULL ? strlen(orig) + 1 : 0) + sizeof(all);
        v = prc_malloc(n);
        if (v == NULL)
                return NULL;
        len = (size_t)snprintf(v, n, "%s", orig != NULL ? orig : "");
        /* Each of ours the user has not named, in PRC_TUNE_ALL's order. */
        for (const char *t = all; *t != '\0';) {
                const char *end = strchr(t, ':'), *eq = strchr(t, '=');
                size_t tl = end != NULL ? (size_t)(end - t) : strlen(t);

                if (orig == NULL || !names(orig, t, (size_t)(eq - t) + 1))
                        len += (size_t)snprintf(v + len, n - len, "%s%.*s", len > 0 ? ":" : "", (int)tl, t);
                t += tl + (end != NULL);
        }
        return v;
}

char **prc_tune_env(char *const *env)
{
        size_t n = 0, at = SIZE_MAX, len;
        char **out, *val, *ent;

        for (; env[n] != NULL; n++)
                if (strncmp(env[n], tunables, sizeof(tunables) - 1) == 0)
                        at = n;
        val = prc_tune_value(at != SIZE_MAX ? env[at] + sizeof(tunables) - 1 : NULL);
        if (val == NULL)
                return NULL;
        len = sizeof(tunables) + strlen(val);
        ent = prc_malloc(len);
        out = prc_calloc(n + 2, sizeof(*out));
        if (ent == NULL || out == NULL) {
                free(val);
                free(ent);
                free(out);
                return NULL;
        }
        snprintf(ent, len, "%s%s", tunables, val);
        free(val);
        memcpy(out, env, n * sizeof(*out));
        /* The added entry goes last, where prc_tune_env_free finds it. */
        if (at != SIZE_MAX) {
                memmove(out + at, out + at + 1, (n - at - 1) * sizeof(*out));
                n--;
        }
        out[n] = ent;
        out[n + 1] = NULL;
        return out;
}

void prc_tune_env_free(char **tuned)
{
        size_t n = 0;

        if (tuned == NULL)
                return;
        while (tuned[n] != NULL)
                n++;
        if (n > 0)
                free(tuned[n - 1]);
        free(tuned);
}

/* In the re-executed process: the environment and name it was started with ("COMM/+VALUE" or "COMM/-"). */
static void undo(const char *mark)
{
        const char *slash = strchr(mark, '/');
        char        comm[16];
        size_t      n;

        if (slash != NULL && (slash[1] == '+' || slash[1] == '-')) {
                n = (size_t)(slash - mark) < sizeof(comm) - 1 ? (size_t)(slash - mark) : sizeof(comm) - 1;
                memcpy(comm, mark, n);
                comm[n] = '\0';
                (void)prctl(PR_SET_NAME, comm, 0, 0, 0);        /* else ps shows "exe" */
                if (slash[1] == '+')
                        (void)setenv("GLIBC_TUNABLES", slash + 2, 1);
                else
                        (void)unsetenv("GLIBC_TUNABLES");
        }
        (void)unsetenv(MARK);
}

void prc_tune_reexec(char **argv)
{
        const char *mark = getenv(MARK), *orig;
        char        comm[17] = { 0 };
        char       *val, *m;
        size_t      n;

        if (mark != NULL) {
                undo(mark);
                return;
        }
        if (getauxval(AT_SECURE) != 0)
                return;
        orig = getenv("GLIBC_TUNABLES");
        val = prc_tune_value(orig);
        if (val == NULL)
                return;
        (void)prctl(PR_GET_NAME, comm, 0, 0, 0);
        n = strlen(comm) + 3 + (orig != NULL ? strlen(orig) : 0);
        m = prc_malloc(n);
        if (m == NULL) {
                free(val);
                return;
        }
        snprintf(m, n, "%s/%s%s", comm, orig != NULL ? "+" : "-", orig != NULL ? orig : "");
        if (setenv(MARK, m, 1) == 0 && setenv("GLIBC_TUNABLES", val, 1) == 0)
                execv("/proc/self/exe", argv);
        /* No re-exec (no /proc, say): put everything back and run as we are. */
        undo(m);
        free(m);
        free(val);
}
