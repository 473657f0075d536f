/*
 * aur.c - AUR analyses over a PKGBUILD's static values and its .SRCINFO:
 * aur-checksums, aur-source-url, aur-bin-host, aur-srcinfo-drift and
 * aur-install-hooks (docs/analyses.md gives each decision rule).
 * Trust: engine-side.  Reads the worker's checked token documents; values
 * are those the tokenizer could expand statically, and anything it could
 * not is reported as unresolved, never guessed.
 */
#include "analysis/aur.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sh.h"
#include "base/compiler.h"

/* --- values of a PKGBUILD --- */

enum fold_r { F_ABSENT = 0, F_STATIC, F_DYNAMIC };

/*
 * The value a top-level variable ends with: assignments replace, appends
 * extend.  F_STATIC: *out is a new reference (an array of strings, a string
 * becoming a one-element array).  F_DYNAMIC: *why says what stopped it.
 * *line is the line of the last assignment.
 */
static enum fold_r fold(const json_t *doc, const char *name, json_t **out, uint32_t *line, const char **why)
{
        json_t *acc = NULL, *a;
        size_t i;
        bool dyn = false;

        *why = "";
        *line = 0;
        json_array_foreach(json_object_get(doc, "assignments"), i, a) {
                const json_t *v;
                if (strcmp(json_string_value(json_object_get(a, "name")), name) != 0)
                        continue;
                *line = (uint32_t)json_integer_value(json_object_get(a, "line"));
                if (!json_is_true(json_object_get(a, "static"))) {
                        const json_t *d = json_array_get(json_object_get(a, "dynamic"), 0);
                        dyn = true;
                        *why = json_is_string(d) ? json_string_value(d) : "not static";
                        continue;
                }
                v = json_object_get(a, "value");
                if (!json_is_true(json_object_get(a, "append")) || acc == NULL) {
                        json_decref(acc);
                        acc = json_array();
                        dyn = dyn && json_is_true(json_object_get(a, "append"));
                }
                if (acc == NULL)
                        return F_ABSENT;
                if (json_is_array(v))
                        json_array_extend(acc, (json_t *)v);
                else
                        json_array_append(acc, (json_t *)v);
        }
        if (dyn) {
                json_decref(acc);
                return F_DYNAMIC;
        }
        if (acc == NULL)
                return F_ABSENT;
        *out = acc;
        return F_STATIC;
}

/* The raw words of the last assignment of name, joined, for locations. */
static void raw_text(const json_t *doc, const char *name, char *out, size_t outsz)
{
        json_t *a, *last = NULL;
        size_t i, o = 0;

        out[0] = 0;
        json_array_foreach(json_object_get(doc, "assignments"), i, a)
                if (strcmp(json_string_value(json_object_get(a, "name")), name) == 0)
                        last = a;
        if (last == NULL)
                return;
        o = (size_t)snprintf(out, outsz, "%s%s=%s", name, json_is_true(json_object_get(last, "append")) ? "+" : "",
                             json_is_true(json_object_get(last, "array")) ? "(" : "");
        json_array_foreach(json_object_get(last, "raw"), i, a) {
                if (o >= outsz)
                        break;
                o += (size_t)snprintf(out + o, outsz - o, "%s%s", i ? " " : "", json_string_value(a));
        }
        if (o < outsz && json_is_true(json_object_get(last, "array")))
                snprintf(out + o, outsz - o, ")");
}

/* Names of top-level assignments that start with prefix (source_x86_64, ...), each once. */
static json_t *names_with_prefix(const json_t *doc, const char *prefix)
{
        json_t *names = json_object(), *a;
        size_t i, pl = strlen(prefix);

        json_array_foreach(json_object_get(doc, "assignments"), i, a) {
                const char *n = json_string_value(json_object_get(a, "name"));
                if (strncmp(n, prefix, pl) == 0 && n[pl] != 0)
                        json_object_set_new(names, n + pl, json_true());
        }
        return names;
}

static void dir_of(const char *path, char *out, size_t outsz)
{
        const char *s = strrchr(path, '/');

        if (s == NULL)
                snprintf(out, outsz, "%s", "");
        else
                snprintf(out, outsz, "%.*s", (int)(s - path), path);
}

/* The .SRCINFO document beside a PKGBUILD, or NULL. */
static const prc_adoc *srcinfo_of(const prc_ainput *in, const char *pkgbuild_path, char *sipath, size_t sz)
{
        char dir[4097];

        dir_of(pkgbuild_path, dir, sizeof(dir));
        snprintf(sipath, sz, "%s%s.SRCINFO", dir, dir[0] ? "/" : "");
        for (size_t i = 0; i < in->ndocs; i++)
                if (in->docs[i].kind == PRC_AK_SRCINFO && strcmp(in->docs[i].path, sipath) == 0)
                        return &in->docs[i];
        return NULL;
}

/* --- shared decisions --- */

const char *prc_aur_source_url_of(const char *e)
{
        const char *sep = strstr(e, "::");

        return sep != NULL ? sep + 2 : e;
}

bool prc_aur_source_is_local(const char *e)
{
        return strstr(prc_aur_source_url_of(e), "://") == NULL;
}

bool prc_aur_source_is_vcs(const char *e)
{
        static const char *const pre[] = { "git+", "hg+", "svn+", "bzr+", "fossil+", "git://", "svn://", "bzr://" };
        const char *u = prc_aur_source_url_of(e);

        for (size_t i = 0; i < PRC_ARRAY_LEN(pre); i++)
                if (strncmp(u, pre[i], strlen(pre[i])) == 0)
                        return true;
        return false;
}

bool prc_aur_url_host(const char *url, char *out, size_t outsz)
{
        const char *p = strstr(url, "://"), *e, *at;
        size_t n;

        if (p == NULL || outsz == 0)
                return false;
        p += 3;
        e = p + strcspn(p, "/?#");
        at = memchr(p, '@', (size_t)(e - p));
        if (at != NULL)
                p = at + 1;
        if (*p == '[') {
                const char *c = memchr(p, ']', (size_t)(e - p));
                if (c == NULL)
                        return false;
                e = c + 1;
        } else {
                const char *c = memchr(p, ':', (size_t)(e - p));
                if (c != NULL)
                        e = c;
        }
        n = (size_t)(e - p);
        if (n == 0 || n >= outsz)
                return false;
        for (size_t k = 0; k < n; k++)
                out[k] = (char)tolower((unsigned char)p[k]);
        out[n] = 0;
        while (n > 0 && out[n - 1] == '.')
                out[--n] = 0;
        return n > 0;
}

static bool host_is(const char *host, const char *domain)
{
        size_t h = strlen(host), d = strlen(domain);

        return strcmp(host, domain) == 0 || (h > d && host[h - d - 1] == '.' && strcmp(host + h - d, domain) == 0);
}

static bool is_ipv4(const char *h)
{
        int parts = 0, digits = 0;

        for (const char *p = h;; p++) {
                if (*p >= '0' && *p <= '9') {
                        if (++digits > 3)
                                return false;
                } else if (*p == '.' || *p == 0) {
                        if (digits == 0)
                                return false;
                        parts++;
                        digits = 0;
                        if (*p == 0)
                                break;
                } else {
                        return false;
                }
        }
        return parts == 4;
}

const char *prc_aur_risky_host(const char *host)
{
        /* Kept short and reviewed: each entry is a service whose links anyone can mint or repoint. */
        static const char *const shorteners[] = { "bit.ly", "bitly.com", "tinyurl.com", "t.co", "goo.gl", "is.gd",
                                                  "v.gd", "ow.ly", "buff.ly", "rebrand.ly", "cutt.ly", "shorturl.at",
                                                  "rb.gy", "t.ly", "tiny.cc", "s.id", "shorte.st", "adf.ly",
                                                  "tiny.one", "u.to" };
        static const char *const pastes[] = { "pastebin.com", "paste.ee", "hastebin.com", "hastebin.skyra.pw",
                                              "termbin.com", "0x0.st", "transfer.sh", "paste.rs", "dpaste.com",
                                              "dpaste.org", "rentry.co", "rentry.org", "controlc.com", "pastie.org",
                                              "ghostbin.co", "paste.c-net.org", "ix.io", "sprunge.us", "clbin.com",
                                              "paste.debian.net", "bpa.st", "justpaste.it", "pastebin.pl",
                                              "gist.githubusercontent.com", "gist.github.com", "file.io",
                                              "catbox.moe", "files.catbox.moe", "litter.catbox.moe", "temp.sh" };
        static const char *const ddns[] = { "duckdns.org", "no-ip.org", "no-ip.com", "noip.com", "ddns.net",
                                            "hopto.org", "zapto.org", "sytes.net", "serveftp.com", "servebeer.com",
                                            "myftp.org", "myftp.biz", "dynu.net", "dynu.com", "freedns.afraid.org",
                                            "mooo.com", "chickenkiller.com", "dyndns.org", "dyndns.com",
                                            "dynv6.net", "duckdns.com", "ngrok.io", "ngrok-free.app", "ngrok.app",
                                            "serveo.net", "trycloudflare.com", "loca.lt", "portmap.io",
                                            "3utilities.com", "ddnsking.com", "gotdns.ch", "dnsdojo.com" };

        if (is_ipv4(host) || host[0] == '[')
                return "a raw IP address";
        if (host_is(host, "onion"))
                return "an onion host";
        for (size_t i = 0; i < PRC_ARRAY_LEN(shorteners); i++)
                if (host_is(host, shorteners[i]))
                        return "a URL shortener";
        for (size_t i = 0; i < PRC_ARRAY_LEN(pastes); i++)
                if (host_is(host, pastes[i]))
                        return "a paste or file-drop site";
        for (size_t i = 0; i < PRC_ARRAY_LEN(ddns); i++)
                if (host_is(host, ddns[i]))
                        return "a dynamic DNS or tunnel host";
        return NULL;
}

/* The registrable domain of host (last two labels; three under a two-letter country's co/com/net/org/...). */
static const char *registrable(const char *host)
{
        static const char *const second[] = { "co", "com", "net", "org", "gov", "edu", "ac", "or", "ne" };
        const char *last = strrchr(host, '.'), *p;

        if (last == NULL || is_ipv4(host))
                return host;
        for (p = last - 1; p > host && *p != '.'; p--)
                ;
        if (p == host)
                return host;
        /* p is the dot before the second-level label. */
        if (strlen(last + 1) == 2) {
                for (size_t i = 0; i < PRC_ARRAY_LEN(second); i++) {
                        size_t l = strlen(second[i]);
                        if ((size_t)(last - p - 1) == l && strncmp(p + 1, second[i], l) == 0) {
                                const char *q;
                                for (q = p - 1; q > host && *q != '.'; q--)
                                        ;
                                return q == host ? host : q + 1;
                        }
                }
        }
        return p + 1;
}

/* On a code forge the publisher is the owner (first path segment); "" elsewhere. */
static bool forge_owner(const char *url, const char *host, char *forge, size_t fsz, char *owner, size_t osz)
{
        static const char *const forges[] = { "github.com", "gitlab.com", "codeberg.org", "bitbucket.org",
                                              "sourceforge.net", "git.sr.ht", "sr.ht", "gitee.com" };
        const char *p = strstr(url, "://"), *path, *e;
        size_t n;

        if (strcmp(host, "raw.githubusercontent.com") == 0 || strcmp(host, "codeload.github.com") == 0 ||
            strcmp(host, "api.github.com") == 0)
                host = "github.com";
        if (host_is(host, "github.io") && strcmp(host, "github.io") != 0) {
                snprintf(forge, fsz, "github.com");
                snprintf(owner, osz, "%.*s", (int)(strlen(host) - strlen(".github.io")), host);
                for (char *c = owner; *c; c++)
                        *c = (char)tolower((unsigned char)*c);
                return true;
        }
        for (size_t i = 0; i < PRC_ARRAY_LEN(forges); i++) {
                if (strcmp(host, forges[i]) != 0 && !(strcmp(forges[i], "sourceforge.net") == 0 &&
                                                      host_is(host, "sourceforge.net")))
                        continue;
                if (p == NULL)
                        return false;
                path = strchr(p + 3, '/');
                if (path == NULL)
                        return false;
                path++;
                if (strcmp(forges[i], "sourceforge.net") == 0 && strncmp(path, "projects/", 9) == 0)
                        path += 9;
                else if (strcmp(forges[i], "sourceforge.net") == 0 && strncmp(path, "project/", 8) == 0)
                        path += 8;
                else if (strcmp(forges[i], "api.github.com") == 0 && strncmp(path, "repos/", 6) == 0)
                        path += 6;
                e = path + strcspn(path, "/?#");
                n = (size_t)(e - path);
                if (n == 0 || n >= osz)
                        return false;
                snprintf(forge, fsz, "%s", forges[i]);
                for (size_t k = 0; k < n; k++)
                        owner[k] = (char)tolower((unsigned char)path[k]);
                owner[n] = 0;
                /* "~user" on sr.ht */
                return true;
        }
        return false;
}

bool prc_aur_same_publisher(const char *a, const char *b)
{
        char ha[256], hb[256], fa[32], fb[32], oa[128], ob[128];
        bool xa, xb;

        if (!prc_aur_url_host(a, ha, sizeof(ha)) || !prc_aur_url_host(b, hb, sizeof(hb)))
                return false;
        xa = forge_owner(a, ha, fa, sizeof(fa), oa, sizeof(oa));
        xb = forge_owner(b, hb, fb, sizeof(fb), ob, sizeof(ob));
        if (xa || xb) {
                const char *label, *owner, *h = xa ? hb : ha, *r;
                char lab[128];
                size_t ll;
                if (xa && xb)
                        return strcmp(fa, fb) == 0 && strcmp(oa, ob) == 0;
                /*
                 * One on a forge, one elsewhere: the same publisher when the forge owner and the
                 * other host's registrable name share their first four or more characters as a
                 * prefix (brave.com and github.com/brave, electronjs.org and github.com/electron).
                 */
                r = registrable(h);
                ll = strcspn(r, ".");
                if (ll >= sizeof(lab))
                        return false;
                memcpy(lab, r, ll);
                lab[ll] = 0;
                label = lab;
                owner = xa ? oa : ob;
                ll = strlen(label) < strlen(owner) ? strlen(label) : strlen(owner);
                return ll >= 4 && strncmp(label, owner, ll) == 0;
        }
        return strcmp(registrable(ha), registrable(hb)) == 0;
}

/* host, or forge/owner on a code forge, for messages */
static void publisher(const char *url, char *out, size_t outsz)
{
        char h[256], f[32], o[128];

        if (!prc_aur_url_host(url, h, sizeof(h))) {
                snprintf(out, outsz, "?");
                return;
        }
        if (forge_owner(url, h, f, sizeof(f), o, sizeof(o)))
                snprintf(out, outsz, "%s/%s", f, o);
        else
                snprintf(out, outsz, "%s", h);
}

/* --- per package --- */

/* Calls fn for each PKGBUILD document. */
typedef bool (*pkg_fn)(prc_actx *cx, const prc_adoc *pb, prc_err *err);

static bool each_pkgbuild(prc_actx *cx, pkg_fn fn, prc_err *err)
{
        const prc_ainput *in = prc_act_input(cx);

        for (size_t i = 0; i < in->ndocs; i++)
                if (in->docs[i].kind == PRC_AK_PKGBUILD && !fn(cx, &in->docs[i], err))
                        return false;
        return true;
}

/* Every source array: "" and each per-architecture suffix ("_x86_64"). */
static json_t *source_suffixes(const json_t *doc)
{
        json_t *sfx = names_with_prefix(doc, "source_"), *list = json_array();
        const char *k;
        json_t *v;

        if (sfx == NULL || list == NULL) {
                json_decref(sfx);
                json_decref(list);
                return NULL;
        }
        json_array_append_new(list, json_string(""));
        json_object_foreach(sfx, k, v) {
                char s[128];
                (void)v;
                snprintf(s, sizeof(s), "_%s", k);
                json_array_append_new(list, json_string(s));
        }
        json_decref(sfx);
        return list;
}

/* One static source array (nm is "source" + sfx) of a PKGBUILD, folded; line is its last assignment's. */
typedef bool source_fn(prc_actx *cx, const prc_adoc *pb, const char *sfx, const char *nm, const json_t *src,
                       uint32_t line, void *arg, prc_err *err);

/*
 * fn for each source array (source, source_ARCH) that folds to a static
 * value; one that does not is unresolved: "NM is not static (WHY)" + tail,
 * cut to cap bytes.  Stops at the first false.
 */
static bool each_source(prc_actx *cx, const prc_adoc *pb, const char *tail, size_t cap, source_fn *fn, void *arg,
                        prc_err *err)
{
        json_t *sfx = source_suffixes(pb->doc), *s;
        size_t si;
        bool ok = true;

        if (sfx == NULL)
                return prc_err_oom(err, "source arrays");
        json_array_foreach(sfx, si, s) {
                char nm[160], msg[320];
                json_t *src = NULL;
                uint32_t line;
                const char *why;
                enum fold_r r;

                snprintf(nm, sizeof(nm), "source%s", json_string_value(s));
                r = fold(pb->doc, nm, &src, &line, &why);
                if (r == F_DYNAMIC) {
                        snprintf(msg, cap < sizeof(msg) ? cap : sizeof(msg), "%s is not static (%s)%s", nm, why, tail);
                        ok = prc_act_unresolved(cx, pb->path, line, msg, err);
                } else if (r == F_STATIC) {
                        ok = fn(cx, pb, json_string_value(s), nm, src, line, arg, err);
                }
                json_decref(src);
                if (!ok)
                        break;
        }
        json_decref(sfx);
        return ok;
}

static const struct algo {
        const char *name;
        size_t      hexlen;
        bool        strong;
} algos[] = {
        { "md5sums", 32, false },   { "sha1sums", 40, false },  { "sha224sums", 56, true },
        { "sha256sums", 64, true }, { "sha384sums", 96, true }, { "sha512sums", 128, true },
        { "b2sums", 128, true },
};

static bool hex_of_len(const char *v, size_t n)
{
        size_t k;

        for (k = 0; v[k] != 0; k++)
                if (!isxdigit((unsigned char)v[k]))
                        return false;
        return k == n;
}

/* A detached signature (checked by makepkg against validpgpkeys, so SKIP is its convention). */
static bool is_signature(const char *e)
{
        size_t n = strlen(e);

        return (n > 4 && (strcmp(e + n - 4, ".sig") == 0 || strcmp(e + n - 4, ".asc") == 0)) ||
               (n > 5 && strcmp(e + n - 5, ".sign") == 0);
}

static bool checksums_src(prc_actx *cx, const prc_adoc *pb, const char *sfx, const char *nm, const json_t *src,
                          uint32_t sline, void *arg, prc_err *err)
{
        char text[512], msg[256];
        size_t nsrc = json_array_size(src), npresent = 0;
        bool strong = false, ok = true;

        (void)arg;
        if (nsrc == 0)
                return true;
        for (size_t a = 0; ok && a < PRC_ARRAY_LEN(algos); a++) {
                char an[160];
                json_t *sums = NULL;
                uint32_t aline;
                const char *awhy;
                enum fold_r ar;

                snprintf(an, sizeof(an), "%s%s", algos[a].name, sfx);
                ar = fold(pb->doc, an, &sums, &aline, &awhy);
                if (ar == F_ABSENT)
                        continue;
                npresent++;
                raw_text(pb->doc, an, text, sizeof(text));
                if (ar == F_DYNAMIC) {
                        snprintf(msg, sizeof(msg), "%s is not static (%s)", an, awhy);
                        ok = prc_act_unresolved(cx, pb->path, aline, msg, err);
                        continue;
                }
                strong |= algos[a].strong;
                if (json_array_size(sums) != nsrc) {
                        snprintf(msg, sizeof(msg), "%zu %.60s for %zu %.60s entries", json_array_size(sums), an,
                                 nsrc, nm);
                        ok = prc_act_found(cx, pb->path, aline, text, msg, err);
                }
                for (size_t k = 0; ok && k < json_array_size(sums) && k < nsrc; k++) {
                        const char *v = json_string_value(json_array_get(sums, k));
                        const char *e = json_string_value(json_array_get(src, k));
                        if (strcmp(v, "SKIP") == 0) {
                                if (prc_aur_source_is_vcs(e) || prc_aur_source_is_local(e) ||
                                    is_signature(e))
                                        continue;
                                snprintf(msg, sizeof(msg), "SKIP for a source that is not VCS: %.160s", e);
                                ok = prc_act_found(cx, pb->path, aline, text, msg, err);
                        } else if (!hex_of_len(v, algos[a].hexlen)) {
                                snprintf(msg, sizeof(msg), "malformed %s value '%.140s'", algos[a].name, v);
                                ok = prc_act_found(cx, pb->path, aline, text, msg, err);
                        }
                }
                json_decref(sums);
        }
        raw_text(pb->doc, nm, text, sizeof(text));
        if (ok && npresent == 0) {
                /* Only VCS and local sources need no checksum array at all? makepkg still wants one. */
                snprintf(msg, sizeof(msg), "%zu %s entries and no checksum array", nsrc, nm);
                ok = prc_act_found(cx, pb->path, sline, text, msg, err);
        } else if (ok && !strong) {
                bool all_vcs = true;
                for (size_t k = 0; k < nsrc; k++)
                        all_vcs &= prc_aur_source_is_vcs(json_string_value(json_array_get(src, k))) ||
                                   prc_aur_source_is_local(json_string_value(json_array_get(src, k)));
                if (!all_vcs) {
                        snprintf(msg, sizeof(msg), "%s is covered only by weak checksums (md5, sha1)", nm);
                        ok = prc_act_found(cx, pb->path, sline, text, msg, err);
                }
        }
        return ok;
}

static bool checksums_pkg(prc_actx *cx, const prc_adoc *pb, prc_err *err)
{
        return each_source(cx, pb, ": its checksums cannot be matched", 256, checksums_src, NULL, err);
}

bool prc_aur_checksums(prc_actx *cx, prc_err *err)
{
        return each_pkgbuild(cx, checksums_pkg, err);
}

static bool source_url_src(prc_actx *cx, const prc_adoc *pb, const char *sfx, const char *nm, const json_t *src,
                           uint32_t line, void *arg, prc_err *err)
{
        char msg[320], host[256];
        json_t *e;
        size_t k;
        bool ok = true;

        (void)sfx;
        (void)nm;
        (void)arg;
        json_array_foreach(src, k, e) {
                const char *ent = json_string_value(e), *u = prc_aur_source_url_of(ent), *risk;
                const char *scheme = strstr(u, "://");
                if (scheme == NULL)
                        continue;
                /* git+http://, hg+ftp://: the transport is what follows the '+'. */
                {
                        const char *plus = memchr(u, '+', (size_t)(scheme - u));
                        const char *t = plus != NULL ? plus + 1 : u;
                        size_t tl = (size_t)(scheme - t);
                        if ((tl == 4 && strncasecmp(t, "http", 4) == 0) ||
                            (tl == 3 && strncasecmp(t, "ftp", 3) == 0)) {
                                snprintf(msg, sizeof(msg), "plain %.*s source (no TLS): %.200s", (int)tl, t, u);
                                if (!(ok = prc_act_found(cx, pb->path, line, ent, msg, err)))
                                        break;
                        }
                }
                if (!prc_aur_url_host(u, host, sizeof(host)))
                        continue;
                risk = prc_aur_risky_host(host);
                if (risk != NULL) {
                        snprintf(msg, sizeof(msg), "source on %s: %.200s", risk, host);
                        if (!(ok = prc_act_found(cx, pb->path, line, ent, msg, err)))
                                break;
                }
        }
        return ok;
}

static bool source_url_pkg(prc_actx *cx, const prc_adoc *pb, prc_err *err)
{
        return each_source(cx, pb, "", 320, source_url_src, NULL, err);
}

bool prc_aur_source_url(prc_actx *cx, prc_err *err)
{
        return each_pkgbuild(cx, source_url_pkg, err);
}

static bool bin_host_src(prc_actx *cx, const prc_adoc *pb, const char *sfx, const char *nm, const json_t *src,
                         uint32_t line, void *arg, prc_err *err)
{
        const char *u = arg;
        char msg[320];
        json_t *e;
        size_t k;
        bool ok = true;

        (void)sfx;
        (void)nm;
        json_array_foreach(src, k, e) {
                const char *ent = json_string_value(e), *su = prc_aur_source_url_of(ent);
                char sh[256], uh[256];
                if (prc_aur_source_is_local(ent))
                        continue;
                /* "git+https://..." compares by its https URL. */
                if (strstr(su, "+") != NULL && strstr(su, "+") < strstr(su, "://"))
                        su = strstr(su, "+") + 1;
                if (prc_aur_same_publisher(u, su))
                        continue;
                publisher(su, sh, sizeof(sh));
                publisher(u, uh, sizeof(uh));
                snprintf(msg, sizeof(msg), "binary from %.100s, but url= is %.100s", sh, uh);
                if (!(ok = prc_act_found(cx, pb->path, line, ent, msg, err)))
                        break;
        }
        return ok;
}

/* Does a folded name list (or NULL) hold a name ending in -bin? */
static bool any_bin(const json_t *names)
{
        for (size_t i = 0; i < json_array_size(names); i++) {
                const char *n = json_string_value(json_array_get(names, i));
                size_t l = strlen(n);

                if (l > 4 && strcmp(n + l - 4, "-bin") == 0)
                        return true;
        }
        return false;
}

static bool bin_host_pkg(prc_actx *cx, const prc_adoc *pb, prc_err *err)
{
        json_t *names = NULL, *base = NULL, *url = NULL;
        uint32_t line, uline;
        const char *why, *u;
        bool bin, ok;
        char msg[320];

        if (fold(pb->doc, "pkgname", &names, &line, &why) == F_DYNAMIC) {
                char raw[512];
                raw_text(pb->doc, "pkgname", raw, sizeof(raw));
                /* Only a value that can end in -bin needs its expansion: "r-${_name,,}" has no "bin" to end with. */
                if (strstr(raw, "bin") == NULL && strstr(raw, "$") == strrchr(raw, '$') && strstr(raw, "pkgbase") == NULL)
                        return true;
                return prc_act_unresolved(cx, pb->path, line, "pkgname is not static: cannot tell a -bin package",
                                          err);
        }
        (void)fold(pb->doc, "pkgbase", &base, &line, &why);
        bin = any_bin(names) || any_bin(base);
        json_decref(names);
        json_decref(base);
        if (!bin)
                return true;
        switch (fold(pb->doc, "url", &url, &uline, &why)) {
        case F_ABSENT:
                return prc_act_unresolved(cx, pb->path, 0, "a -bin package without url=: its binaries' host "
                                          "cannot be compared", err);
        case F_DYNAMIC:
                snprintf(msg, sizeof(msg), "url= is not static (%s)", why);
                return prc_act_unresolved(cx, pb->path, uline, msg, err);
        case F_STATIC:
                break;
        }
        u = json_string_value(json_array_get(url, 0));
        if (u == NULL || strstr(u, "://") == NULL) {
                json_decref(url);
                return prc_act_unresolved(cx, pb->path, uline, "url= is not a URL", err);
        }
        ok = each_source(cx, pb, "", 320, bin_host_src, (void *)u, err);
        json_decref(url);
        return ok;
}

bool prc_aur_bin_host(prc_actx *cx, prc_err *err)
{
        return each_pkgbuild(cx, bin_host_pkg, err);
}

/* --- .SRCINFO drift --- */

static bool field_compared(const char *k)
{
        static const char *const plain[] = { "pkgver", "pkgrel", "epoch" };
        static const char *const prefixed[] = { "source", "depends", "makedepends", "checkdepends", "optdepends",
                                                 "md5sums", "sha1sums", "sha224sums", "sha256sums", "sha384sums",
                                                 "sha512sums", "b2sums" };

        for (size_t i = 0; i < PRC_ARRAY_LEN(plain); i++)
                if (strcmp(k, plain[i]) == 0)
                        return true;
        for (size_t i = 0; i < PRC_ARRAY_LEN(prefixed); i++) {
                size_t l = strlen(prefixed[i]);
                if (strncmp(k, prefixed[i], l) == 0 && (k[l] == 0 || k[l] == '_'))
                        return true;
        }
        return false;
}

static void join(const json_t *arr, char *out, size_t outsz)
{
        size_t i, o = 0;
        json_t *v;

        out[0] = 0;
        json_array_foreach(arr, i, v) {
                if (o >= outsz)
                        break;
                o += (size_t)snprintf(out + o, outsz - o, "%s%s", i ? " " : "", json_string_value(v));
        }
}

static bool drift_pkg(prc_actx *cx, const prc_adoc *pb, prc_err *err)
{
        char sipath[4200], msg[512], a[200], b[200], text[512];
        const prc_adoc *si = srcinfo_of(prc_act_input(cx), pb->path, sipath, sizeof(sipath));
        const json_t *base, *fields;
        json_t *keys, *names = NULL, *a2;
        const char *k, *why;
        json_t *v;
        uint32_t line;
        bool ok = true;
        size_t i;

        if (si == NULL) {
                if (prc_act_path_gap(cx, sipath))
                        return true;    /* the gap makes it Unknown */
                return prc_act_unresolved(cx, pb->path, 0, "no .SRCINFO beside the PKGBUILD to compare", err);
        }
        base = json_object_get(si->doc, "pkgbase");
        if (base == NULL)
                return true;            /* a recovered .SRCINFO without pkgbase: its gap says so */
        fields = json_object_get(base, "fields");
        keys = json_object();
        if (keys == NULL)
                return prc_err_oom(err, "srcinfo fields");
        json_object_foreach((json_t *)fields, k, v)
                if (field_compared(k))
                        json_object_set_new(keys, k, json_true());
        json_array_foreach(json_object_get(pb->doc, "assignments"), i, a2) {
                const char *n = json_string_value(json_object_get(a2, "name"));
                if (field_compared(n))
                        json_object_set_new(keys, n, json_true());
        }
        json_object_foreach(keys, k, v) {
                json_t *pv = NULL;
                const json_t *sv = json_object_get(fields, k);
                enum fold_r r = fold(pb->doc, k, &pv, &line, &why);
                bool same;
                if (r == F_DYNAMIC) {
                        snprintf(msg, sizeof(msg), "%s is not static in the PKGBUILD (%s)", k, why);
                        if (!(ok = prc_act_unresolved(cx, pb->path, line, msg, err)))
                                break;
                        continue;
                }
                if (r == F_STATIC && json_array_size(pv) == 0) {
                        json_decref(pv);
                        pv = NULL;
                }
                same = (pv == NULL && sv == NULL) || (pv != NULL && sv != NULL && json_equal(pv, (json_t *)sv));
                if (!same) {
                        join(pv, a, sizeof(a));
                        join(sv, b, sizeof(b));
                        raw_text(pb->doc, k, text, sizeof(text));
                        snprintf(msg, sizeof(msg), "%s: PKGBUILD has '%.150s', .SRCINFO has '%.150s'", k,
                                 pv ? a : "(unset)", sv ? b : "(unset)");
                        ok = prc_act_found(cx, pb->path, line, text[0] ? text : k, msg, err);
                }
                json_decref(pv);
                if (!ok)
                        break;
        }
        json_decref(keys);
        if (!ok)
                return false;
        /* Names: pkgbase, and the package sections against pkgname. */
        switch (fold(pb->doc, "pkgname", &names, &line, &why)) {
        case F_DYNAMIC:
                return prc_act_unresolved(cx, pb->path, line, "pkgname is not static in the PKGBUILD", err);
        case F_ABSENT:
                return prc_act_found(cx, pb->path, 0, "pkgname", "the PKGBUILD sets no pkgname", err);
        case F_STATIC:
                break;
        }
        {
                json_t *sn = json_array(), *p, *pbase = NULL;
                const char *want;
                json_array_foreach(json_object_get(si->doc, "packages"), i, p)
                        json_array_append(sn, json_object_get(p, "name"));
                if (!json_equal(sn, names)) {
                        join(names, a, sizeof(a));
                        join(sn, b, sizeof(b));
                        raw_text(pb->doc, "pkgname", text, sizeof(text));
                        snprintf(msg, sizeof(msg), "pkgname: PKGBUILD has '%.150s', .SRCINFO has '%.150s'", a, b);
                        ok = prc_act_found(cx, pb->path, line, text, msg, err);
                }
                if (ok && fold(pb->doc, "pkgbase", &pbase, &line, &why) == F_STATIC)
                        want = json_string_value(json_array_get(pbase, 0));
                else
                        want = json_string_value(json_array_get(names, 0));
                if (ok && want != NULL && strcmp(want, json_string_value(json_object_get(base, "name"))) != 0) {
                        snprintf(msg, sizeof(msg), "pkgbase: PKGBUILD gives '%.150s', .SRCINFO has '%.150s'", want,
                                 json_string_value(json_object_get(base, "name")));
                        ok = prc_act_found(cx, pb->path, line, want, msg, err);
                }
                json_decref(pbase);
                json_decref(sn);
        }
        json_decref(names);
        return ok;
}

bool prc_aur_srcinfo_drift(prc_actx *cx, prc_err *err)
{
        return each_pkgbuild(cx, drift_pkg, err);
}

/* --- install scripts --- */

struct inst_walk {
        prc_aur_install_fn fn;
        void              *ctx;
        const char        *dir;
        const json_t      *vars;        /* borrowed: the PKGBUILD's static variables */
};

static bool inst_target(struct inst_walk *iw, const char *val, uint32_t line, prc_err *err)
{
        char path[4200];

        if (val[0] == 0)
                return true;            /* install= (empty): none */
        if (val[0] == '/' || strncmp(val, "../", 3) == 0 || strstr(val, "/../") != NULL || strcmp(val, "..") == 0)
                return iw->fn(iw->ctx, NULL, line, "leaves the package directory", err);
        snprintf(path, sizeof(path), "%s%s%s", iw->dir, iw->dir[0] ? "/" : "", strncmp(val, "./", 2) == 0 ? val + 2
                                                                                                      : val);
        return iw->fn(iw->ctx, path, line, NULL, err);
}

static bool inst_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        struct inst_walk *iw = ctx;

        /* An assignment-only command "install=x" inside a package function. */
        if (p->n != 1 || p->c[0].n != 0 || p->depth > 0)
                return true;
        {
                const json_t *toks = json_object_get(p->lineobj, "tokens");
                size_t i;
                json_t *t;
                json_array_foreach(toks, i, t) {
                        const char *raw = json_string_value(t);
                        char val[PRC_SHW_MAX];
                        size_t ns;
                        unsigned fl;
                        if (strncmp(raw, "install=", 8) != 0)
                                continue;
                        fl = prc_sh_norm(raw + 8, iw->vars, val, sizeof(val), &ns);
                        if (fl & (PRC_SHW_UNKNOWN | PRC_SHW_SUBST)) {
                                if (!iw->fn(iw->ctx, NULL, p->line, "install= in a package function is not static",
                                            err))
                                        return false;
                                continue;
                        }
                        if (!inst_target(iw, val, p->line, err))
                                return false;
                }
        }
        return true;
}

bool prc_aur_install_targets(const json_t *doc, const char *dir, prc_aur_install_fn fn, void *ctx, prc_err *err)
{
        struct inst_walk iw = { fn, ctx, dir, NULL };
        json_t *a, *f, *vars;
        size_t i;

        json_array_foreach(json_object_get(doc, "assignments"), i, a) {
                const char *n = json_string_value(json_object_get(a, "name"));
                uint32_t line = (uint32_t)json_integer_value(json_object_get(a, "line"));
                const json_t *v = json_object_get(a, "value");
                if (strcmp(n, "install") != 0)
                        continue;
                if (!json_is_true(json_object_get(a, "static")) || !json_is_string(v)) {
                        if (!fn(ctx, NULL, line, "install= is not static", err))
                                return false;
                        continue;
                }
                if (!inst_target(&iw, json_string_value(v), line, err))
                        return false;
        }
        vars = prc_sh_static_vars(doc);
        if (vars == NULL)
                return prc_err_oom(err, "static variables");
        iw.vars = vars;
        json_array_foreach(json_object_get(doc, "functions"), i, f) {
                const char *n = json_string_value(json_object_get(f, "name"));
                if (strncmp(n, "package", 7) != 0)
                        continue;
                if (!prc_sh_walk(json_object_get(f, "body"), vars, inst_cb, &iw, err)) {
                        json_decref(vars);
                        return false;
                }
        }
        json_decref(vars);
        return true;
}

struct hooks_ctx {
        prc_actx   *cx;
        const char *pkgbuild;
};

static bool hooks_cb(void *ctx, const char *path, uint32_t line, const char *why, prc_err *err)
{
        struct hooks_ctx *h = ctx;
        const prc_ainput *in = prc_act_input(h->cx);
        json_t *hooks, *f;
        size_t i;

        if (path == NULL) {
                char msg[256];
                snprintf(msg, sizeof(msg), "an install script cannot be identified: %s", why);
                return prc_act_unresolved(h->cx, h->pkgbuild, line, msg, err);
        }
        for (i = 0; i < in->ndocs; i++)
                if (in->docs[i].kind == PRC_AK_INSTALL && strcmp(in->docs[i].path, path) == 0)
                        break;
        if (i == in->ndocs)
                return true;    /* not tokenized: its coverage gap makes the assertion Unknown */
        hooks = json_array();
        if (hooks == NULL)
                return prc_err_oom(err, "install hooks");
        {
                const json_t *fns = json_object_get(in->docs[i].doc, "functions");
                size_t k;
                json_array_foreach(fns, k, f)
                        json_array_append(hooks, json_object_get(f, "name"));
        }
        return prc_act_value(h->cx, path, json_pack("{s:s,s:s,s:I,s:o}", "script", path, "pkgbuild", h->pkgbuild,
                                                    "line", (json_int_t)line, "hooks", hooks), err);
}

static bool hooks_pkg(prc_actx *cx, const prc_adoc *pb, prc_err *err)
{
        struct hooks_ctx h = { cx, pb->path };
        char dir[4097];

        dir_of(pb->path, dir, sizeof(dir));
        return prc_aur_install_targets(pb->doc, dir, hooks_cb, &h, err);
}

bool prc_aur_install_hooks(prc_actx *cx, prc_err *err)
{
        return each_pkgbuild(cx, hooks_pkg, err);
}
