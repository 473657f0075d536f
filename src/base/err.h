/*
 * err.h - error classes and the caller-owned error record.
 *
 * Every fallible prc function takes a prc_err * and records the cause where
 * it is known.  The first error recorded wins: later prc_err_set calls on
 * the same record are ignored, so the root cause survives cleanup paths.
 * The class list is closed; each area owns one .def file of classes and
 * every name is documented in docs/errors.md (a unit test checks both).
 */
#ifndef PRC_ERR_H
#define PRC_ERR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/compiler.h"

typedef enum prc_errclass {
        PRC_E_OK = 0,
#define PRC_ERR(id, name, doc) PRC_E_##id,
#include "base/errors.def"
#include "base/errors_yaml.def"
#include "content/errors.def"
#include "content/parsers/errors.def"
#include "content/parsers/errors_xml_shell_tar.def"
#include "content/extract/errors.def"
#include "content/extract/errors_python.def"
#include "content/extract/errors_cgc.def"
#include "content/extract/errors_gha_docker.def"
#include "inventory/errors.def"
#include "adapter/errors.def"
#include "adapter/errors_registry.def"
#include "adapter/errors_oci.def"
#include "adapter/native/errors.def"
#include "engine/errors.def"
#include "engine/errors_batch.def"
#include "net/errors.def"
#include "net/errors_aur.def"
#include "analysis/errors.def"
#undef PRC_ERR
        PRC_E__COUNT
} prc_errclass;

#define PRC_NO_OFF UINT64_MAX

typedef struct prc_err {
        prc_errclass cls;
        int          sys;        /* errno behind an I/O class, else 0 */
        uint64_t     off;        /* byte offset in the input, or PRC_NO_OFF */
        uint32_t     line;       /* 1-based; 0 when unknown */
        uint32_t     col;        /* 1-based; 0 when unknown */
        char         ptr[128];   /* JSON pointer of the bad field, or "" */
        char         file[256];  /* input path, filled in by the caller that knows it */
        char         msg[256];
} prc_err;

/* Stable kebab-case name of a class; never NULL ("unknown-class" if out of range). */
const char *prc_err_name(prc_errclass c);
/* One-line description from the .def table; never NULL. */
const char *prc_err_doc(prc_errclass c);
/* Class for a name, or PRC_E_OK when the name is not a class. */
prc_errclass prc_err_by_name(const char *name);

/* Initialize to "no error". */
void prc_err_init(prc_err *e);
static inline bool prc_err_is_set(const prc_err *e) { return e->cls != PRC_E_OK; }
/*
 * The same refusal: class, offset, line, column, pointer and message (not
 * errno or file).  How differential tests compare two readers of one input.
 */
bool prc_err_same(const prc_err *a, const prc_err *b);

/*
 * Record an error unless one is recorded already.  Always returns false.
 * c must be a real class (PRC_E_OK or out of range records internal).
 * msg, ptr and file are kept printable UTF-8: control characters and
 * invalid bytes are replaced by '?'.
 */
bool prc_err_set(prc_err *e, prc_errclass c, const char *fmt, ...) PRC_PRINTF(3, 4);
/* The same, with a byte offset into the input. */
bool prc_err_at(prc_err *e, prc_errclass c, uint64_t off, const char *fmt, ...) PRC_PRINTF(4, 5);
/* The same, with errno. */
bool prc_err_sys(prc_err *e, prc_errclass c, int sys, const char *fmt, ...) PRC_PRINTF(4, 5);
/* Add location details to the recorded error (only fields not yet set). */
void prc_err_set_line(prc_err *e, uint32_t line, uint32_t col);
void prc_err_set_ptr(prc_err *e, const char *ptr);
void prc_err_set_file(prc_err *e, const char *file);
/*
 * Make s (NUL-terminated, in place) what every display field of a prc_err
 * is: valid UTF-8 kept, each invalid byte and each control character (C0,
 * DEL, C1) replaced by '?'.  For text that reaches an error without
 * prc_err_set, e.g. a refusal decoded from the worker (issue 16).
 */
void prc_err_sanitize(char *s);

/*
 * Render "class: file:line:col: ptr: message" into out (always terminated).
 * Used only by cli/ and test code.
 */
void prc_err_format(const prc_err *e, char *out, size_t cap);

/* Out-of-memory helper: records PRC_E_OUT_OF_MEMORY with what was being built. */
bool prc_err_oom(prc_err *e, const char *what);

#endif
