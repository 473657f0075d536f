/*
 * libarchive.h - libarchive, loaded on first use instead of linked.
 *
 * Why: libarchive's dependency chain (libxml2, ICU, libstdc++, six
 * compressors, nettle, acl) costs about 4.7 ms of dynamic loading in every
 * process that links it, and every content worker is a fresh exec of prc:
 * that was half of a worker's start-up.  Only archive walks (in a worker
 * started for them, which loads it before its floor) and the pinned
 * Gitleaks ruleset check (in the parent) need it.  The library is still
 * Debian's shared libarchive13, so its security updates apply as before.
 *
 * The table holds exactly the functions prc calls, typed from the
 * declarations of <archive.h>.
 */
#ifndef PRC_LIBARCHIVE_H
#define PRC_LIBARCHIVE_H

#include <archive.h>
#include <archive_entry.h>
#include <stdbool.h>

#include "base/err.h"

/* Every function prc calls, by its name without "archive_": one list makes the table and its loading. */
#define PRC_LA_FUNCS(X)                                                                                 \
        X(read_new) X(read_free) X(read_support_filter_gzip) X(read_support_filter_zstd) X(read_support_format_raw)                \
        X(read_support_format_tar) X(read_open_memory) X(read_next_header) X(read_data) X(error_string) \
        X(filter_bytes) X(filter_code) X(filter_count) X(format) X(entry_filetype) X(entry_hardlink)    \
        X(entry_mode) X(entry_pathname) X(entry_perm) X(entry_size) X(entry_size_is_set)               \
        X(entry_symlink) X(entry_pathname_utf8) X(entry_symlink_utf8) X(entry_hardlink_utf8)         \
        X(version_string)

/* Each slot has the type of <archive.h>'s own declaration. */
#define PRC_LA_SLOT(name) __typeof__(&archive_##name) name;
typedef struct prc_libarchive {
        PRC_LA_FUNCS(PRC_LA_SLOT)
} prc_libarchive;
#undef PRC_LA_SLOT

/*
 * prc_libarchive_load: the table, loading libarchive.so.13 on the first call (thread-safe; later
 * calls return the same table).  NULL with library-unavailable when the
 * library or one of the functions is missing, or it is older than the
 * headers prc was built with.  Needs open() the first time: a worker calls
 * it before its floor.
 */
const prc_libarchive *prc_libarchive_load(prc_err *err) PRC_MUST_CHECK;

/*
 * The same table, for code that already had prc_libarchive_load succeed (its
 * slots are filled once, under pthread_once, before that call returns).
 */
extern const prc_libarchive *const prc_la;

/* True once prc_libarchive_load has loaded the library in this process. */
bool prc_libarchive_loaded(void);

#endif
