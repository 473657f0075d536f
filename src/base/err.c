/*
 * err.c - error record and the class table.
 * Trust: engine-side and worker-side; no input parsing here, but messages
 * may quote hostile bytes, so the display fields are sanitized when set.
 */
#include "base/err.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/utf8.h"

struct errinfo {
        const char *name;
        const char *doc;
};

static const struct errinfo table[PRC_E__COUNT] = {
        [PRC_E_OK] = { "ok", "no error" },
#define PRC_ERR(id, nm, dc) [PRC_E_##id] = { nm, dc },
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
};

const char *prc_err_name(prc_errclass c)
{
        if ((unsigned)c >= PRC_E__COUNT || table[c].name == NULL)
                return "unknown-class";
        return table[c].name;
}

const char *prc_err_doc(prc_errclass c)
{
        if ((unsigned)c >= PRC_E__COUNT || table[c].doc == NULL)
                return "";
        return table[c].doc;
}

prc_errclass prc_err_by_name(const char *name)
{
        for (unsigned i = 1; i < PRC_E__COUNT; i++)
                if (table[i].name != NULL && strcmp(table[i].name, name) == 0)
                        return (prc_errclass)i;
        return PRC_E_OK;
}

void prc_err_init(prc_err *e)
{
        memset(e, 0, sizeof(*e));
        e->off = PRC_NO_OFF;
}

/*
 * Make a display field safe to print and to put in a JSON string: messages
 * quote hostile bytes (keys, paths, jansson's "near '...'" token), and
 * vsnprintf may cut a UTF-8 sequence at the end.  Valid UTF-8 is kept;
 * control characters (C0, DEL, C1) and invalid bytes become '?', so no
 * message can carry a terminal escape or break the JSON error object.
 */
void prc_err_sanitize(char *s)
{
        unsigned char *p = (unsigned char *)s;
        size_t n = strlen(s);

        for (size_t i = 0; i < n;) {
                uint32_t cp;
                size_t k = prc_utf8_decode(p + i, n - i, &cp);

                if (k == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f)) {
                        p[i] = '?';
                        i++;
                        continue;
                }
                i += k;
        }
}

static bool vset(prc_err *e, prc_errclass c, uint64_t off, int sys, const char *fmt, va_list ap)
        PRC_PRINTF(5, 0);
static bool vset(prc_err *e, prc_errclass c, uint64_t off, int sys, const char *fmt, va_list ap)
{
        if (e == NULL || e->cls != PRC_E_OK)
                return false;   /* first error wins */
        /* Recording "ok" would lose the failure: a caller passing it is prc's own bug. */
        e->cls = c != PRC_E_OK && (unsigned)c < PRC_E__COUNT ? c : PRC_E_INTERNAL;
        e->off = off;
        e->sys = sys;
        vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
        prc_err_sanitize(e->msg);
        return false;
}

bool prc_err_set(prc_err *e, prc_errclass c, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        vset(e, c, PRC_NO_OFF, 0, fmt, ap);
        va_end(ap);
        return false;
}

bool prc_err_at(prc_err *e, prc_errclass c, uint64_t off, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        vset(e, c, off, 0, fmt, ap);
        va_end(ap);
        return false;
}

bool prc_err_sys(prc_err *e, prc_errclass c, int sys, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        vset(e, c, PRC_NO_OFF, sys, fmt, ap);
        va_end(ap);
        return false;
}

bool prc_err_oom(prc_err *e, const char *what)
{
        return prc_err_set(e, PRC_E_OUT_OF_MEMORY, "out of memory building %s", what);
}

void prc_err_set_line(prc_err *e, uint32_t line, uint32_t col)
{
        if (e->line == 0) {
                e->line = line;
                e->col = col;
        }
}

void prc_err_set_ptr(prc_err *e, const char *ptr)
{
        if (e->ptr[0] == '\0') {
                snprintf(e->ptr, sizeof(e->ptr), "%s", ptr);
                prc_err_sanitize(e->ptr);
        }
}

void prc_err_set_file(prc_err *e, const char *file)
{
        if (e->file[0] == '\0') {
                snprintf(e->file, sizeof(e->file), "%s", file);
                prc_err_sanitize(e->file);
        }
}

void prc_err_format(const prc_err *e, char *out, size_t cap)
{
        char loc[300] = "";
        size_t n = 0;

        if (cap == 0)
                return;
        if (e->file[0] != '\0')
                n += (size_t)snprintf(loc + n, sizeof(loc) - n, "%s:", e->file);
        if (e->line != 0 && n < sizeof(loc))
                n += (size_t)snprintf(loc + n, sizeof(loc) - n, "%" PRIu32 ":", e->line);
        if (e->col != 0 && n < sizeof(loc))
                n += (size_t)snprintf(loc + n, sizeof(loc) - n, "%" PRIu32 ":", e->col);
        if (e->line == 0 && e->off != PRC_NO_OFF && n < sizeof(loc))
                n += (size_t)snprintf(loc + n, sizeof(loc) - n, "@%" PRIu64 ":", e->off);
        if (e->ptr[0] != '\0' && n < sizeof(loc))
                n += (size_t)snprintf(loc + n, sizeof(loc) - n, " %s:", e->ptr);
        snprintf(out, cap, "%s: %s%s%s%s%s", prc_err_name(e->cls), loc, n ? " " : "", e->msg,
                 e->sys ? ": " : "", e->sys ? strerror(e->sys) : "");
}

void prc_bug_at(const char *file, int line, const char *what)
{
        fprintf(stderr, "prc: BUG at %s:%d: %s\n", file, line, what);
        abort();
}

bool prc_err_same(const prc_err *a, const prc_err *b)
{
        return a->cls == b->cls && a->off == b->off && a->line == b->line && a->col == b->col &&
               strcmp(a->ptr, b->ptr) == 0 && strcmp(a->msg, b->msg) == 0;
}
