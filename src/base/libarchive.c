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

/* One symbol into its slot; the cast is between function pointer types of the same prototype. */
#define LA_SYM(field, name)                                                                     \
        do {                                                                                    \
                void *p_ = dlsym(h, name);                                                      \
                if (p_ == NULL) {                                                               \
                        snprintf(la_why, sizeof(la_why), "%s has no %s", PRC_LA_SONAME, name);  \
                        return;                                                                 \
                }                                                                               \
                memcpy(&la.field, &p_, sizeof(p_));                                             \
        } while (0)

/* Compile-time proof that each slot has the header's prototype. */
#define LA_CHECK(field, fn) _Static_assert(__builtin_types_compatible_p(__typeof__(la.field), __typeof__(&fn)), #fn)
LA_CHECK(read_new, archive_read_new);
LA_CHECK(read_free, archive_read_free);
LA_CHECK(read_support_filter_gzip, archive_read_support_filter_gzip);
LA_CHECK(read_support_format_raw, archive_read_support_format_raw);
LA_CHECK(read_support_format_tar, archive_read_support_format_tar);
LA_CHECK(read_open_memory, archive_read_open_memory);
LA_CHECK(read_next_header, archive_read_next_header);
LA_CHECK(read_data, archive_read_data);
LA_CHECK(error_string, archive_error_string);
LA_CHECK(filter_bytes, archive_filter_bytes);
LA_CHECK(filter_code, archive_filter_code);
LA_CHECK(filter_count, archive_filter_count);
LA_CHECK(format, archive_format);
LA_CHECK(entry_filetype, archive_entry_filetype);
LA_CHECK(entry_hardlink, archive_entry_hardlink);
LA_CHECK(entry_mode, archive_entry_mode);
LA_CHECK(entry_pathname, archive_entry_pathname);
LA_CHECK(entry_perm, archive_entry_perm);
LA_CHECK(entry_size, archive_entry_size);
LA_CHECK(entry_size_is_set, archive_entry_size_is_set);
LA_CHECK(entry_symlink, archive_entry_symlink);
LA_CHECK(entry_pathname_utf8, archive_entry_pathname_utf8);
LA_CHECK(entry_symlink_utf8, archive_entry_symlink_utf8);
LA_CHECK(entry_hardlink_utf8, archive_entry_hardlink_utf8);

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
        LA_SYM(read_new, "archive_read_new");
        LA_SYM(read_free, "archive_read_free");
        LA_SYM(read_support_filter_gzip, "archive_read_support_filter_gzip");
        LA_SYM(read_support_format_raw, "archive_read_support_format_raw");
        LA_SYM(read_support_format_tar, "archive_read_support_format_tar");
        LA_SYM(read_open_memory, "archive_read_open_memory");
        LA_SYM(read_next_header, "archive_read_next_header");
        LA_SYM(read_data, "archive_read_data");
        LA_SYM(error_string, "archive_error_string");
        LA_SYM(filter_bytes, "archive_filter_bytes");
        LA_SYM(filter_code, "archive_filter_code");
        LA_SYM(filter_count, "archive_filter_count");
        LA_SYM(format, "archive_format");
        LA_SYM(entry_filetype, "archive_entry_filetype");
        LA_SYM(entry_hardlink, "archive_entry_hardlink");
        LA_SYM(entry_mode, "archive_entry_mode");
        LA_SYM(entry_pathname, "archive_entry_pathname");
        LA_SYM(entry_perm, "archive_entry_perm");
        LA_SYM(entry_size, "archive_entry_size");
        LA_SYM(entry_size_is_set, "archive_entry_size_is_set");
        LA_SYM(entry_symlink, "archive_entry_symlink");
        LA_SYM(entry_pathname_utf8, "archive_entry_pathname_utf8");
        LA_SYM(entry_symlink_utf8, "archive_entry_symlink_utf8");
        LA_SYM(entry_hardlink_utf8, "archive_entry_hardlink_utf8");
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
