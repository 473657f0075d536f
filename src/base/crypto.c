/*
 * crypto.c - the libcrypto table of crypto.h, filled by dlopen.
 */
#include "base/crypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <string.h>

#define PRC_CR_SONAME "libcrypto.so.3"

static prc_crypto cr;
const prc_crypto *const prc_cr = &cr;
static pthread_once_t cr_once = PTHREAD_ONCE_INIT;
static atomic_bool cr_ok, cr_sealed;
static char cr_why[160];

/* One symbol into its slot; the copy moves a data pointer into a function pointer of the right type. */
#define CR_SYM(name)                                                                                    \
        do {                                                                                            \
                void *p_ = dlsym(h, #name);                                                             \
                if (p_ == NULL) {                                                                       \
                        snprintf(cr_why, sizeof(cr_why), "%s has no %s", PRC_CR_SONAME, #name);         \
                        return;                                                                         \
                }                                                                                       \
                memcpy(&cr.name, &p_, sizeof(p_));                                                      \
        } while (0);

/* Weak: defined only where crypto_linked.c is linked in (crypto.h). */
extern const prc_crypto prc_crypto_linked __attribute__((weak));

/* The library's own setup, before any other call into it: no configuration file (crypto.h). */
static void cr_init(void)
{
        if (cr.OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, NULL) != 1) {
                snprintf(cr_why, sizeof(cr_why), "%s could not be initialized", PRC_CR_SONAME);
                return;
        }
        atomic_store(&cr_ok, true);
}

static void cr_load(void)
{
        unsigned long (*version)(void);
        void *h, *p;

        if (&prc_crypto_linked != NULL) {
                cr = prc_crypto_linked;
                cr_init();
                return;
        }

        /* RTLD_NOW: every symbol bound here, before a worker's floor; never unloaded. */
        h = dlopen(PRC_CR_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (h == NULL) {
                const char *e = dlerror();
                snprintf(cr_why, sizeof(cr_why), "cannot load %s: %s", PRC_CR_SONAME, e ? e : "unknown error");
                return;
        }
        p = dlsym(h, "OpenSSL_version_num");
        if (p == NULL) {
                snprintf(cr_why, sizeof(cr_why), "%s has no OpenSSL_version_num", PRC_CR_SONAME);
                return;
        }
        memcpy(&version, &p, sizeof(p));
        /* 0xMNN00PP0: a patch release older than the headers may lack a fix prc's build assumed. */
        if (version() < (unsigned long)OPENSSL_VERSION_NUMBER) {
                snprintf(cr_why, sizeof(cr_why), "%s is version %#lx, prc was built with %#lx", PRC_CR_SONAME,
                         version(), (unsigned long)OPENSSL_VERSION_NUMBER);
                return;
        }
        PRC_CR_FUNCS(CR_SYM)
        cr_init();
}

const prc_crypto *prc_crypto_load(prc_err *err)
{
        /* Sealed before loading: a dlopen now could meet a worker's seccomp filter, which kills. */
        if (atomic_load(&cr_sealed) && !atomic_load(&cr_ok)) {
                prc_err_set(err, PRC_E_LIBRARY_UNAVAILABLE, "this worker was started without libcrypto");
                return NULL;
        }
        if (pthread_once(&cr_once, cr_load) != 0 || !atomic_load(&cr_ok)) {
                prc_err_set(err, PRC_E_LIBRARY_UNAVAILABLE, "%s", cr_why[0] ? cr_why : "libcrypto could not be loaded");
                return NULL;
        }
        return &cr;
}

bool prc_crypto_loaded(void)
{
        return atomic_load(&cr_ok);
}

void prc_crypto_seal(void)
{
        atomic_store(&cr_sealed, true);
}

#if defined(PRC_TESTING) && PRC_TESTING
void prc_crypto_test_forget(void)
{
        static const pthread_once_t fresh = PTHREAD_ONCE_INIT;

        /* Only in a single-threaded forked child: nobody can be inside pthread_once. */
        memcpy(&cr_once, &fresh, sizeof(fresh));
        memset(&cr, 0, sizeof(cr));
        cr_why[0] = '\0';
        atomic_store(&cr_ok, false);
        atomic_store(&cr_sealed, false);
}
#endif
