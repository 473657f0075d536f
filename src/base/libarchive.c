/*
 * libarchive.c - the libarchive table of libarchive.h, filled by dlopen.
 */
#include "base/libarchive.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <string.h>

#define PRC_LA_SONAME "libarchive.so.13"

static prc_libarchive la;
const prc_libarchive *const prc_la = &la;
static pthread_once_t la_once = PTHREAD_ONCE_INIT;
static atomic_bool la_ok;
static char la_why[160];

/* One symbol into its slot; the copy moves a data pointer into a function pointer of the right type. */
#define LA_SYM(name)                                                                                    \
        do {                                                                                            \
                void *p_ = dlsym(h, "archive_" #name);                                                  \
                if (p_ == NULL) {                                                                       \
                        snprintf(la_why, sizeof(la_why), "%s has no archive_%s", PRC_LA_SONAME, #name); \
                        return;                                                                         \
                }                                                                                       \
                memcpy(&la.name, &p_, sizeof(p_));                                                      \
        } while (0);

static void la_load(void)
{
        int (*version)(void);
        void *h, *p;

        /* RTLD_NOW: every symbol bound here, before a worker's floor; never unloaded. */
        h = dlopen(PRC_LA_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (h == NULL) {
                const char *e = dlerror();
                snprintf(la_why, sizeof(la_why), "cannot load %s: %s", PRC_LA_SONAME, e ? e : "unknown error");
                return;
        }
        p = dlsym(h, "archive_version_number");
        if (p == NULL) {
                snprintf(la_why, sizeof(la_why), "%s has no archive_version_number", PRC_LA_SONAME);
                return;
        }
        memcpy(&version, &p, sizeof(p));
        if (version() < ARCHIVE_VERSION_NUMBER) {
                snprintf(la_why, sizeof(la_why), "%s is version %d, prc was built with %d", PRC_LA_SONAME, version(),
                         ARCHIVE_VERSION_NUMBER);
                return;
        }
        PRC_LA_FUNCS(LA_SYM)
        atomic_store(&la_ok, true);
}

const prc_libarchive *prc_libarchive_load(prc_err *err)
{
        if (pthread_once(&la_once, la_load) != 0 || !atomic_load(&la_ok)) {
                prc_err_set(err, PRC_E_LIBRARY_UNAVAILABLE, "%s", la_why[0] ? la_why : "libarchive could not be loaded");
                return NULL;
        }
        return &la;
}

bool prc_libarchive_loaded(void)
{
        return atomic_load(&la_ok);
}
