/*
 * ini.c - INI reader with configparser semantics (see ini.h for the rules).
 * Trust: input is hostile; runs only inside the content worker.  Output
 * size is bounded by the input (values are slices or joins of its lines)
 * and by the key and node limits.
 */
#include "content/parsers/ini.h"

#include <inttypes.h>
#include <string.h>

#include "base/buf.h"
#include "content/parsers/text.h"

struct ip {
        const uint8_t    *p;
        size_t            n;
        const prc_limits *lim;
        prc_err          *err;
        uint64_t          nodes;
        json_t           *root;         /* borrowed: owned by prc_ini_parse */
        json_t           *sect;         /* borrowed: current section, or NULL */
        prc_buf           key;          /* pending option name (lower-cased) */
        prc_buf           val;          /* pending option value lines, joined by LF */
        bool              have_opt;     /* key/val hold an option not yet stored */
        size_t            opt_at;       /* its line's offset */
};

/*
 * Length of the whitespace character at p[i] (Python's str.isspace set, which
 * is what strip() and the \s of configparser's patterns use), or 0.
 */
static size_t ws_len(const uint8_t *p, size_t i, size_t end)
{
        uint8_t c = p[i];

        if (c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f))
                return 1;
        if (c < 0x80 || i + 1 >= end)
                return 0;
        if (c == 0xc2 && (p[i + 1] == 0x85 || p[i + 1] == 0xa0))
                return 2;
        if (i + 2 >= end)
                return 0;
        if (c == 0xe1 && p[i + 1] == 0x9a && p[i + 2] == 0x80)
                return 3;                                       /* U+1680 */
        if (c == 0xe2 && p[i + 1] == 0x80 &&
            (p[i + 2] <= 0x8a || p[i + 2] == 0xa8 || p[i + 2] == 0xa9 || p[i + 2] == 0xaf))
                return 3;                                       /* U+2000-200A, 2028, 2029, 202F */
        if (c == 0xe2 && p[i + 1] == 0x81 && p[i + 2] == 0x9f)
                return 3;                                       /* U+205F */
        if (c == 0xe3 && p[i + 1] == 0x80 && p[i + 2] == 0x80)
                return 3;                                       /* U+3000 */
        return 0;
}

/* Strip Python whitespace from both ends of [*s, *e); returns the code points skipped on the left. */
static size_t strip(const uint8_t *p, size_t *s, size_t *e)
{
        size_t indent = 0, k;

        while (*s < *e && (k = ws_len(p, *s, *e)) > 0) {
                *s += k;
                indent++;
        }
        for (;;) {
                size_t q = *e, found = 0;
                /* Whitespace characters are 1 to 3 bytes: try each ending at *e. */
                for (size_t len = 1; len <= 3 && len <= q - *s; len++)
                        if (ws_len(p, q - len, q) == len) {
                                found = len;
                                break;
                        }
                if (found == 0)
                        break;
                *e -= found;
        }
        return indent;
}

static bool count_node(struct ip *ip, size_t at)
{
        if (++ip->nodes > ip->lim->nodes_max)
                return prc_err_at(ip->err, PRC_E_NODES_LIMIT, at, "more values than the node limit");
        return true;
}

/* Store the pending option, its value joined and right-stripped as configparser does. */
static bool flush(struct ip *ip)
{
        size_t s = 0, e = ip->val.len;
        json_t *v;

        if (!ip->have_opt)
                return true;
        ip->have_opt = false;
        if (ip->val.len > 0) {
                /* rstrip only: the first line was stripped already. */
                while (e > 0) {
                        size_t found = 0;
                        for (size_t len = 1; len <= 3 && len <= e; len++)
                                if (ws_len(ip->val.data, e - len, e) == len) {
                                        found = len;
                                        break;
                                }
                        if (found == 0)
                                break;
                        e -= found;
                }
        }
        if (e - s > ip->lim->scalar_max)
                return prc_err_at(ip->err, PRC_E_SCALAR_LIMIT, ip->opt_at, "value of %zu bytes exceeds %zu",
                                  e - s, ip->lim->scalar_max);
        if (json_object_size(ip->sect) >= ip->lim->keys_max)
                return prc_err_at(ip->err, PRC_E_NODES_LIMIT, ip->opt_at, "section with more than %" PRIu32
                                  " options", ip->lim->keys_max);
        v = json_stringn_nocheck(e > s ? (const char *)ip->val.data + s : "", e - s);
        if (v == NULL || json_object_setn_new_nocheck(ip->sect, prc_buf_cstr(&ip->key), ip->key.len, v) != 0)
                return prc_err_oom(ip->err, "an INI document");
        return true;
}

static bool section(struct ip *ip, const uint8_t *name, size_t len, size_t at)
{
        json_t *s;

        if (!flush(ip))
                return false;
        if (len > ip->lim->scalar_max)
                return prc_err_at(ip->err, PRC_E_SCALAR_LIMIT, at, "section name of %zu bytes exceeds %zu", len,
                                  ip->lim->scalar_max);
        s = json_object_getn(ip->root, (const char *)name, len);
        if (s != NULL) {
                /* configparser reopens DEFAULT instead of refusing it (its strict check skips it). */
                if (len == 7 && memcmp(name, "DEFAULT", 7) == 0) {
                        ip->sect = s;
                        return true;
                }
                return prc_err_at(ip->err, PRC_E_INI_DUPLICATE_SECTION, at, "section '%.*s' appears twice",
                                  (int)(len > 64 ? 64 : len), (const char *)name);
        }
        if (!count_node(ip, at))
                return false;
        if (json_object_size(ip->root) >= ip->lim->keys_max)
                return prc_err_at(ip->err, PRC_E_NODES_LIMIT, at, "more than %" PRIu32 " sections",
                                  ip->lim->keys_max);
        s = json_object();
        if (s == NULL || json_object_setn_new_nocheck(ip->root, (const char *)name, len, s) != 0)
                return prc_err_oom(ip->err, "an INI document");
        ip->sect = s;
        return true;
}

static bool option(struct ip *ip, size_t vs, size_t ve, size_t at)
{
        const uint8_t *p = ip->p;
        size_t d, ks, ke, os, oe;

        for (d = vs; d < ve && p[d] != '=' && p[d] != ':'; d++)
                ;
        if (d == ve)
                return prc_err_at(ip->err, PRC_E_INI_SYNTAX, at, "line is not a section header, option, "
                                  "comment or continuation");
        ks = vs;
        ke = d;
        (void)strip(p, &ks, &ke);
        if (ke == ks)
                return prc_err_at(ip->err, PRC_E_INI_SYNTAX, at, "option with an empty name");
        if (!flush(ip))
                return false;
        prc_buf_reset(&ip->key);
        prc_buf_reset(&ip->val);
        for (size_t k = ks; k < ke; k++) {
                uint8_t c = p[k];
                if (c >= 0x80)
                        return prc_err_at(ip->err, PRC_E_INI_UNSUPPORTED_KEY, at, "option name with non-ASCII "
                                          "characters (configparser lower-cases them by Unicode rules)");
                if (c >= 'A' && c <= 'Z')
                        c = (uint8_t)(c - 'A' + 'a');
                if (!prc_buf_putc(&ip->key, c, ip->err))
                        return false;
        }
        if (ip->key.len > ip->lim->scalar_max)
                return prc_err_at(ip->err, PRC_E_SCALAR_LIMIT, at, "option name of %zu bytes exceeds %zu",
                                  ip->key.len, ip->lim->scalar_max);
        if (json_object_getn(ip->sect, prc_buf_cstr(&ip->key), ip->key.len) != NULL)
                return prc_err_at(ip->err, PRC_E_INI_DUPLICATE_OPTION, at, "option '%.*s' appears twice in its "
                                  "section", (int)(ip->key.len > 64 ? 64 : ip->key.len), prc_buf_cstr(&ip->key));
        if (!count_node(ip, at))
                return false;
        os = d + 1;
        oe = ve;
        (void)strip(p, &os, &oe);
        if (!prc_buf_put(&ip->val, p + os, oe - os, ip->err))
                return false;
        ip->have_opt = true;
        ip->opt_at = at;
        return true;
}

static bool lines(struct ip *ip)
{
        const uint8_t *p = ip->p;
        size_t i = 0, indent_level = 0;
        const uint8_t *nul = memchr(p, 0, ip->n);

        if (nul != NULL)
                return prc_err_at(ip->err, PRC_E_NUL_BYTE, (size_t)(nul - p), "NUL byte in INI input");
        while (i < ip->n) {
                size_t ls = i, le = i, vs, ve, indent;

                while (le < ip->n && p[le] != '\n' && p[le] != '\r')
                        le++;
                i = le;
                if (i < ip->n && p[i] == '\r' && i + 1 < ip->n && p[i + 1] == '\n')
                        i += 2;
                else if (i < ip->n)
                        i++;
                vs = ls;
                ve = le;
                indent = strip(p, &vs, &ve);
                if (vs < ve && (p[vs] == '#' || p[vs] == ';'))
                        continue;               /* full-line comment: skipped, the value goes on */
                if (vs == ve) {
                        /* A blank line inside a value is kept (empty_lines_in_values). */
                        if (ip->have_opt && !prc_buf_putc(&ip->val, '\n', ip->err))
                                return false;
                        continue;
                }
                if (ip->sect != NULL && ip->have_opt && indent > indent_level) {
                        if (!prc_buf_putc(&ip->val, '\n', ip->err) || !prc_buf_put(&ip->val, p + vs, ve - vs, ip->err))
                                return false;
                        continue;
                }
                indent_level = indent;
                if (p[vs] == '[') {
                        size_t j = ve;
                        while (j > vs + 1 && p[j - 1] != ']')
                                j--;
                        /* configparser's \[(.+)\]: up to the last ']', at least one character inside. */
                        if (j - 1 >= vs + 2) {
                                if (!section(ip, p + vs + 1, j - 1 - (vs + 1), ls))
                                        return false;
                                continue;
                        }
                }
                if (ip->sect == NULL)
                        return prc_err_at(ip->err, PRC_E_INI_MISSING_SECTION, ls, "option before the first "
                                          "section header");
                if (!option(ip, vs, ve, ls))
                        return false;
        }
        return flush(ip);
}

json_t *prc_ini_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        struct ip ip = { .p = p, .n = n, .lim = lim, .err = err };
        bool ok = false;

        (void)flags;
        if (!prc_text_precheck(p, n, lim, err)) {
                prc_text_err_locate(err, p, n, true);
                return NULL;
        }
        prc_buf_init(&ip.key, n + 16);
        prc_buf_init(&ip.val, n + 16);
        ip.root = json_object();
        if (ip.root == NULL) {
                prc_err_oom(err, "an INI document");
                goto out;
        }
        ok = lines(&ip);
out:
        prc_buf_clear(&ip.key);
        prc_buf_clear(&ip.val);
        if (!ok) {
                json_decref(ip.root);
                prc_text_err_locate(err, p, n, true);
                return NULL;
        }
        return ip.root;
}
