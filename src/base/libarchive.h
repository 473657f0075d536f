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
 * The table holds exactly the functions prc calls, with libarchive's own
 * prototypes (the declarations of <archive.h> are checked against them).
 */
#ifndef PRC_LIBARCHIVE_H
#define PRC_LIBARCHIVE_H

#include <archive.h>
#include <archive_entry.h>
#include <stdbool.h>

#include "base/err.h"

typedef struct prc_libarchive {
        struct archive *(*read_new)(void);
        int (*read_free)(struct archive *);
        int (*read_support_filter_gzip)(struct archive *);
        int (*read_support_format_raw)(struct archive *);
        int (*read_support_format_tar)(struct archive *);
        int (*read_open_memory)(struct archive *, const void *, size_t);
        int (*read_next_header)(struct archive *, struct archive_entry **);
        la_ssize_t (*read_data)(struct archive *, void *, size_t);
        const char *(*error_string)(struct archive *);
        la_int64_t (*filter_bytes)(struct archive *, int);
        int (*filter_code)(struct archive *, int);
        int (*filter_count)(struct archive *);
        int (*format)(struct archive *);
        __LA_MODE_T (*entry_filetype)(struct archive_entry *);
        const char *(*entry_hardlink)(struct archive_entry *);
        __LA_MODE_T (*entry_mode)(struct archive_entry *);
        const char *(*entry_pathname)(struct archive_entry *);
        __LA_MODE_T (*entry_perm)(struct archive_entry *);
        la_int64_t (*entry_size)(struct archive_entry *);
        int (*entry_size_is_set)(struct archive_entry *);
        const char *(*entry_symlink)(struct archive_entry *);
        const char *(*entry_pathname_utf8)(struct archive_entry *);
        const char *(*entry_symlink_utf8)(struct archive_entry *);
        const char *(*entry_hardlink_utf8)(struct archive_entry *);
} prc_libarchive;

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
