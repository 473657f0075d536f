/*
 * deps_ver.c - does a locked version satisfy a manifest's requirement?
 * One comparator engine, five dialects (deps.h).  Anything prc does not
 * read (a dist-tag, an epoch, a branch alias) is PRC_DV_UNKNOWN, never a
 * guess: the drift analysis turns it into an unresolved input.
 * Trust: engine-side; the strings come from checked ManifestDocs.
 */
#include "analysis/deps.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { REL_MAX = 8, PRE_MAX = 96, REQ_MAX = 1024, SET_MAX = 32 };

/* A version or the version part of a comparator. */
struct dver {
        uint64_t rel[REL_MAX];
        unsigned nrel;          /* numeric components written (a partial "1.2" has 2) */
        bool     wild;          /* ended in x, X or * */
        char     pre[PRE_MAX];  /* what follows the numbers ("beta.1", "rc1"), "" for a release */
        int      phase;         /* dev -4, alpha -3, beta -2, rc -1, release 0, post 1; -5 the lowest of rel */
        uint64_t phnum;
        bool     lowest;        /* a made-up bound "the lowest pre-release of rel" (npm's -0) */
};

enum cop { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_PFX, C_NPFX, C_STR, C_NONE };

struct cmp {
        enum cop    op;
        struct dver v;
        unsigned    plen;       /* C_PFX, C_NPFX: components compared */
        char        str[PRE_MAX * 2]; /* C_STR: the exact version */
};

struct cset {
        struct cmp c[SET_MAX];
        unsigned   n;
};

/* Dialects whose pre-releases compare by semver identifiers ("-beta.2"), not PEP 440 / rubygems phases. */
static bool semver_like(enum prc_dv_dialect d)
{
        return d == PRC_DV_NPM || d == PRC_DV_CARGO || d == PRC_DV_NUGET;
}

/* PEP 440, rubygems and composer suffixes: the first word and its number. */
static bool parse_phase(struct dver *v)
{
        static const struct { const char *w; int ph; } words[] = {
                { "dev", -4 }, { "a", -3 }, { "alpha", -3 }, { "b", -2 }, { "beta", -2 }, { "c", -1 },
                { "rc", -1 }, { "pre", -1 }, { "preview", -1 }, { "post", 1 }, { "rev", 1 }, { "r", 1 },
                { "p", 1 }, { "pl", 1 }, { "patch", 1 },
        };
        const char *s = v->pre;
        char w[16];
        size_t n = 0;

        v->phase = 0;
        v->phnum = 0;
        if (*s == 0)
                return true;
        while (*s == '.' || *s == '-' || *s == '_')
                s++;
        while (isalpha((unsigned char)*s) && n < sizeof(w) - 1)
                w[n++] = (char)tolower((unsigned char)*s++);
        w[n] = 0;
        if (n == 0 && isdigit((unsigned char)*s)) {
                v->phase = 1;   /* PEP 440's implicit post release "1.0-1" */
        } else {
                size_t i;
                for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
                        if (strcmp(w, words[i].w) == 0)
                                break;
                if (i == sizeof(words) / sizeof(words[0]))
                        return false;
                v->phase = words[i].ph;
        }
        while (*s == '.' || *s == '-' || *s == '_')
                s++;
        while (isdigit((unsigned char)*s) && v->phnum < UINT64_MAX / 10)
                v->phnum = v->phnum * 10 + (uint64_t)(*s++ - '0');
        return true;
}

static bool pre_chars_ok(const char *s, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '-' && s[i] != '_')
                        return false;
        return true;
}

/*
 * Parse s[0..n) as a version, partial or whole.  partial allows "1.2",
 * "1.x", "*"; a whole version needs its numbers.  false: not a version.
 */
static bool parse_ver(enum prc_dv_dialect d, const char *s, size_t n, bool partial, struct dver *v)
{
        size_t i = 0, pe;

        memset(v, 0, sizeof(*v));
        if (i < n && (s[i] == 'v' || s[i] == 'V'))
                i++;
        while (i < n) {
                if (s[i] == 'x' || s[i] == 'X' || s[i] == '*') {
                        if (!partial)
                                return false;
                        v->wild = true;
                        i++;
                        /* "1.x.x", "1.*.*": the rest is wild too */
                        while (i + 1 < n && s[i] == '.' && (s[i + 1] == 'x' || s[i + 1] == 'X' || s[i + 1] == '*'))
                                i += 2;
                        break;
                }
                if (!isdigit((unsigned char)s[i]) || v->nrel == REL_MAX)
                        return false;
                for (unsigned k = 0; i < n && isdigit((unsigned char)s[i]); i++, k++) {
                        if (k > 17)
                                return false;
                        v->rel[v->nrel] = v->rel[v->nrel] * 10 + (uint64_t)(s[i] - '0');
                }
                v->nrel++;
                if (i + 1 < n && s[i] == '.' && (isdigit((unsigned char)s[i + 1]) || s[i + 1] == 'x' ||
                                                 s[i + 1] == 'X' || s[i + 1] == '*'))
                        i++;
                else
                        break;
        }
        if (v->nrel == 0 && !v->wild)
                return false;
        if (!partial && (d == PRC_DV_NPM || d == PRC_DV_CARGO) && v->nrel != 3)
                return false;   /* a locked npm or cargo version is whole */
        if (d == PRC_DV_PYPI && i < n && s[i] == '!')
                return false;   /* an epoch: not read */
        /* The suffix: semver "-pre", PEP 440 / gem "rc1", ".post1", "+build" (ignored). */
        pe = i;
        while (pe < n && s[pe] != '+')
                pe++;
        if (pe > i) {
                const char *p = s + i;
                size_t pn = pe - i;
                if (*p == '-' || *p == '.' || *p == '_') {
                        p++;
                        pn--;
                }
                if (pn == 0 || pn >= PRE_MAX || !pre_chars_ok(p, pn))
                        return false;
                if ((d == PRC_DV_NPM || d == PRC_DV_NUGET) && s[i] != '-')
                        return false;
                memcpy(v->pre, p, pn);
                v->pre[pn] = 0;
        }
        if (pe < n && !pre_chars_ok(s + pe + 1, n - pe - 1))
                return false;
        if (!semver_like(d) && !parse_phase(v))
                return false;
        return true;
}

/* semver 2.0.0 pre-release precedence (both non-empty). */
static int cmp_pre(const char *a, const char *b)
{
        while (*a != 0 && *b != 0) {
                size_t la = strcspn(a, "."), lb = strcspn(b, ".");
                bool na = true, nb = true;
                int c;
                for (size_t i = 0; i < la; i++)
                        na = na && isdigit((unsigned char)a[i]);
                for (size_t i = 0; i < lb; i++)
                        nb = nb && isdigit((unsigned char)b[i]);
                if (na && nb && la != lb)
                        c = la < lb ? -1 : 1;
                else if (na != nb)
                        c = na ? -1 : 1;
                else {
                        c = strncmp(a, b, la < lb ? la : lb);
                        if (c == 0 && la != lb)
                                c = la < lb ? -1 : 1;
                }
                if (c != 0)
                        return c < 0 ? -1 : 1;
                a += la + (a[la] == '.');
                b += lb + (b[lb] == '.');
        }
        return *a == 0 ? (*b == 0 ? 0 : -1) : 1;
}

static int cmp_ver(enum prc_dv_dialect d, const struct dver *a, const struct dver *b)
{
        for (unsigned k = 0; k < REL_MAX; k++) {
                uint64_t x = k < a->nrel ? a->rel[k] : 0, y = k < b->nrel ? b->rel[k] : 0;
                if (x != y)
                        return x < y ? -1 : 1;
        }
        if (semver_like(d)) {
                if (a->pre[0] == 0 || b->pre[0] == 0)
                        return (a->pre[0] == 0) - (b->pre[0] == 0);
                return cmp_pre(a->pre, b->pre);
        }
        if (a->phase != b->phase)
                return a->phase < b->phase ? -1 : 1;
        return a->phnum == b->phnum ? 0 : a->phnum < b->phnum ? -1 : 1;
}

/* A bound just below every version of v's first k+1 components with component k raised by one. */
static struct dver bump(const struct dver *v, unsigned k)
{
        struct dver b = *v;

        for (unsigned i = b.nrel; i <= k && i < REL_MAX; i++)
                b.rel[i] = 0;
        b.rel[k]++;
        for (unsigned i = k + 1; i < REL_MAX; i++)
                b.rel[i] = 0;
        b.nrel = k + 1;
        b.wild = false;
        b.lowest = true;
        snprintf(b.pre, sizeof(b.pre), "0");    /* semver: below every pre-release of it */
        b.phase = -5;                           /* phases: likewise */
        b.phnum = 0;
        return b;
}

/* A lower bound; composer's start at the lowest pre-release of it (^2.0 is >=2.0.0.0-dev). */
static struct dver floor_of(enum prc_dv_dialect d, const struct dver *v)
{
        struct dver f = *v;

        f.wild = false;
        if (d == PRC_DV_COMPOSER && f.pre[0] == 0)
                f.phase = -5;
        return f;
}

static bool add(struct cset *s, enum cop op, const struct dver *v)
{
        if (s->n == SET_MAX)
                return false;
        s->c[s->n] = (struct cmp){ .op = op, .v = *v };
        s->n++;
        return true;
}

/* "1", "1.2", "1.x": every version with those leading numbers. */
static bool xrange(enum prc_dv_dialect d, struct cset *s, const struct dver *v)
{
        struct dver f = floor_of(d, v);

        if (v->nrel == 0)
                return true;
        return add(s, C_GE, &f) && add(s, C_LT, (struct dver[]){ bump(v, v->nrel - 1) });
}

/* Whole versions are 3 numbers in semver-like dialects; a partial one has fewer. */
static bool is_partial(enum prc_dv_dialect d, const struct dver *v)
{
        return v->wild || (semver_like(d) && v->nrel < 3);
}

static bool caret(enum prc_dv_dialect d, struct cset *s, const struct dver *v)
{
        struct dver f = floor_of(d, v);
        unsigned k = 0;

        if (v->nrel == 0)
                return true;
        /* The first non-zero of the given numbers moves; all zero: the last given one (^0.0 -> <0.1.0). */
        while (k < v->nrel && v->rel[k] == 0)
                k++;
        if (k == v->nrel)
                k = v->nrel - 1;
        return add(s, C_GE, &f) && add(s, C_LT, (struct dver[]){ bump(v, k) });
}

/* npm and cargo tilde: ~1 -> <2, ~1.2 and ~1.2.3 -> <1.3. */
static bool tilde(enum prc_dv_dialect d, struct cset *s, const struct dver *v)
{
        struct dver f = floor_of(d, v);

        if (v->nrel == 0)
                return true;
        return add(s, C_GE, &f) && add(s, C_LT, (struct dver[]){ bump(v, v->nrel == 1 ? 0 : 1) });
}

/* composer tilde and rubygems ~>: the last given number may move (~1.2 -> <2.0, ~1.2.3 -> <1.3). */
static bool pessimistic(enum prc_dv_dialect d, struct cset *s, const struct dver *v)
{
        struct dver f = floor_of(d, v);

        if (v->nrel == 0)
                return true;
        return add(s, C_GE, &f) && add(s, C_LT, (struct dver[]){ bump(v, v->nrel >= 2 ? v->nrel - 2 : 0) });
}

static const char *op_prefix(const char *t, size_t n, size_t *oplen)
{
        static const char *const ops[] = { "===", "~=", "~>", "==", "!=", "<>", ">=", "<=", "^", "~", "=", ">", "<" };

        for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
                size_t l = strlen(ops[i]);
                if (l <= n && strncmp(t, ops[i], l) == 0) {
                        *oplen = l;
                        return ops[i];
                }
        }
        *oplen = 0;
        return "";
}

/* One comparator token of dialect d ("^1.2", ">=2", "1.x", "==1.2.*") into s.  false: not read. */
static bool comparator(enum prc_dv_dialect d, const char *t, size_t n, struct cset *s)
{
        size_t ol;
        const char *op = op_prefix(t, n, &ol);
        struct dver v;
        bool pfx = false;

        t += ol;
        n -= ol;
        while (n > 0 && isspace((unsigned char)*t)) {
                t++;
                n--;
        }
        if (strcmp(op, "===") == 0) {
                if (d != PRC_DV_PYPI || n == 0 || n >= sizeof(s->c[0].str) || s->n == SET_MAX)
                        return false;
                s->c[s->n] = (struct cmp){ .op = C_STR };
                memcpy(s->c[s->n].str, t, n);
                s->n++;
                return true;
        }
        if (d == PRC_DV_PYPI && n >= 2 && t[n - 2] == '.' && t[n - 1] == '*') {
                pfx = true;     /* ==1.2.*, !=1.2.* */
                n -= 2;
        }
        if (!parse_ver(d, t, n, true, &v))
                return false;
        if (pfx) {
                if (v.wild || (strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 && *op != 0) || s->n == SET_MAX)
                        return false;
                s->c[s->n] = (struct cmp){ .op = *op == '!' ? C_NPFX : C_PFX, .v = v, .plen = v.nrel };
                s->n++;
                return true;
        }
        if (v.wild && v.nrel > 0 && d != PRC_DV_NPM && d != PRC_DV_CARGO && d != PRC_DV_COMPOSER)
                return false;
        if (*op == 0 || strcmp(op, "=") == 0 || strcmp(op, "==") == 0) {
                if (*op == 0 && d == PRC_DV_CARGO)
                        return caret(d, s, &v);            /* cargo: a bare version is a caret */
                if (v.nrel == 0)
                        return true;                    /* "*", "x" */
                if (is_partial(d, &v) || (v.wild && d == PRC_DV_COMPOSER))
                        return xrange(d, s, &v);
                return add(s, C_EQ, &v);
        }
        if (strcmp(op, "!=") == 0 || strcmp(op, "<>") == 0)
                return !v.wild && add(s, C_NE, &v);
        if (strcmp(op, "^") == 0)
                return d != PRC_DV_GEM && caret(d, s, &v);
        if (strcmp(op, "~") == 0)
                return d == PRC_DV_COMPOSER ? pessimistic(d, s, &v) : d != PRC_DV_GEM && tilde(d, s, &v);
        if (strcmp(op, "~>") == 0)
                return d == PRC_DV_GEM ? pessimistic(d, s, &v) : d == PRC_DV_NPM && tilde(d, s, &v);
        if (strcmp(op, "~=") == 0) {
                if (d != PRC_DV_PYPI || v.nrel < 2 || s->n + 2 > SET_MAX)
                        return false;
                add(s, C_GE, &v);
                s->c[s->n] = (struct cmp){ .op = C_PFX, .v = v, .plen = v.nrel - 1 };
                s->n++;
                return true;
        }
        if (v.nrel == 0) {
                /* ">=*", "<=*": anything; ">*", "<*": nothing */
                return op[1] == '=' || add(s, C_LT, (struct dver[]){ { .nrel = 1 } });
        }
        if (!is_partial(d, &v))
                return add(s, op[0] == '<' ? (op[1] == '=' ? C_LE : C_LT) : (op[1] == '=' ? C_GE : C_GT), &v);
        /* partial bounds: >1.2 is >=1.3, <=1.2 is <1.3, <1.2 is <1.2.0-0, >=1.2 is >=1.2.0 */
        if (strcmp(op, ">") == 0 || strcmp(op, "<=") == 0) {
                struct dver b = bump(&v, v.nrel - 1);
                return add(s, op[0] == '>' ? C_GE : C_LT, &b);
        }
        if (strcmp(op, "<") == 0) {
                struct dver b = floor_of(d, &v);
                b.lowest = true;
                snprintf(b.pre, sizeof(b.pre), "0");
                b.phase = -5;
                return add(s, C_LT, &b);
        }
        return add(s, C_GE, (struct dver[]){ floor_of(d, &v) });
}

static bool test_cmp(enum prc_dv_dialect d, const struct cmp *c, const struct dver *v, const char *raw)
{
        int r;

        switch (c->op) {
        case C_STR:
                return strcmp(c->str, raw) == 0;
        case C_PFX:
        case C_NPFX: {
                bool eq = true;
                for (unsigned k = 0; k < c->plen; k++)
                        eq = eq && (k < v->nrel ? v->rel[k] : 0) == c->v.rel[k];
                return c->op == C_PFX ? eq : !eq;
        }
        default:
                break;
        }
        r = cmp_ver(d, v, &c->v);
        switch (c->op) {
        case C_EQ: return r == 0;
        case C_NE: return r != 0;
        case C_LT: return r < 0;
        case C_LE: return r <= 0;
        case C_GT: return r > 0;
        case C_GE: return r >= 0;
        default: return false;
        }
}

/*
 * node-semver and cargo: a pre-release version satisfies a set only when one
 * of its written comparators names a pre-release of the same x.y.z.
 */
static bool prerelease_allowed(const struct cset *s, const struct dver *v)
{
        for (unsigned i = 0; i < s->n; i++) {
                const struct dver *c = &s->c[i].v;
                if (c->pre[0] != 0 && !c->lowest && c->rel[0] == v->rel[0] && c->rel[1] == v->rel[1] &&
                    c->rel[2] == v->rel[2])
                        return true;
        }
        return false;
}

static bool set_matches(enum prc_dv_dialect d, const struct cset *s, const struct dver *v, const char *raw)
{
        for (unsigned i = 0; i < s->n; i++)
                if (!test_cmp(d, &s->c[i], v, raw))
                        return false;
        if ((d == PRC_DV_NPM || d == PRC_DV_CARGO) && v->pre[0] != 0)
                return prerelease_allowed(s, v);
        return true;
}

static bool is_op_only(const char *t, size_t n)
{
        size_t ol;

        (void)op_prefix(t, n, &ol);
        return ol > 0 && ol == n;
}

/*
 * One alternative (no "||") of dialect d into s.  Tokens are split on
 * blanks (and commas outside npm); an operator alone takes the next token;
 * "A - B" is a hyphen range (npm, composer).
 */
static bool alternative(enum prc_dv_dialect d, const char *a, size_t n, struct cset *s)
{
        const char *tok[64];
        size_t len[64], nt = 0, i = 0;
        const char *sep = d == PRC_DV_NPM ? " \t" : " \t,";

        while (i < n) {
                while (i < n && strchr(sep, a[i]) != NULL)
                        i++;
                if (i == n)
                        break;
                if (nt == 64)
                        return false;
                tok[nt] = a + i;
                while (i < n && strchr(sep, a[i]) == NULL)
                        i++;
                len[nt] = (size_t)(a + i - tok[nt]);
                nt++;
        }
        if (d == PRC_DV_NPM || d == PRC_DV_COMPOSER) {
                if (nt == 3 && len[1] == 1 && tok[1][0] == '-') {
                        struct dver lo, hi;
                        if (!parse_ver(d, tok[0], len[0], true, &lo) || !parse_ver(d, tok[2], len[2], true, &hi))
                                return false;
                        if (lo.nrel > 0 && !add(s, C_GE, (struct dver[]){ floor_of(d, &lo) }))
                                return false;
                        if (hi.nrel == 0)
                                return true;
                        if (hi.wild || hi.nrel < 3)
                                return add(s, C_LT, (struct dver[]){ bump(&hi, hi.nrel - 1) });
                        return add(s, C_LE, &hi);
                }
        }
        for (size_t k = 0; k < nt; k++) {
                char buf[PRE_MAX * 2];
                size_t bl = len[k];
                if (is_op_only(tok[k], len[k]) && k + 1 < nt) {
                        if (len[k] + len[k + 1] >= sizeof(buf))
                                return false;
                        memcpy(buf, tok[k], len[k]);
                        memcpy(buf + len[k], tok[k + 1], len[k + 1]);
                        bl = len[k] + len[k + 1];
                        k++;
                } else {
                        if (bl >= sizeof(buf))
                                return false;
                        memcpy(buf, tok[k], bl);
                }
                buf[bl] = 0;
                if (d == PRC_DV_COMPOSER) {
                        char *at = strchr(buf, '@');
                        if (at != NULL)
                                bl = (size_t)(at - buf);        /* a stability flag ("^1.0@dev") */
                        if (bl == 0)
                                continue;                       /* "@dev" alone */
                }
                if (!comparator(d, buf, bl, s))
                        return false;
        }
        return true;
}

/*
 * NuGet: "[1.0,2.0)" intervals (either bound may be empty), "[1.0]" exact,
 * a bare "1.0" a minimum, "1.*" floating.  Floating pre-releases ("1.0-*")
 * are not read.  false: not read.
 */
static bool nuget_range(const char *r, struct cset *s)
{
        size_t n = strlen(r), comma;
        struct dver lo, hi;
        const char *in;
        size_t inl;

        while (n > 0 && isspace((unsigned char)r[n - 1]))
                n--;
        while (n > 0 && isspace((unsigned char)*r)) {
                r++;
                n--;
        }
        if (n == 0)
                return false;
        if (r[0] != '[' && r[0] != '(') {
                if (memchr(r, '-', n) != NULL && memchr(r, '*', n) != NULL)
                        return false;   /* a floating pre-release */
                if (!parse_ver(PRC_DV_NUGET, r, n, true, &lo))
                        return false;
                if (lo.wild)
                        return xrange(PRC_DV_NUGET, s, &lo);
                return add(s, C_GE, &lo);
        }
        if (n < 3 || (r[n - 1] != ']' && r[n - 1] != ')'))
                return false;
        in = r + 1;
        inl = n - 2;
        comma = strcspn(in, ",");
        if (comma >= inl) {
                /* "[1.0]": exactly that version */
                if (r[0] != '[' || r[n - 1] != ']' || !parse_ver(PRC_DV_NUGET, in, inl, false, &lo))
                        return false;
                return add(s, C_EQ, &lo);
        }
        for (size_t a = 0, b = comma; a < b; a++)
                if (!isspace((unsigned char)in[a])) {
                        size_t k = a, e = b;
                        while (e > k && isspace((unsigned char)in[e - 1]))
                                e--;
                        if (!parse_ver(PRC_DV_NUGET, in + k, e - k, false, &lo) ||
                            !add(s, r[0] == '[' ? C_GE : C_GT, &lo))
                                return false;
                        break;
                }
        for (size_t a = comma + 1; a < inl; a++)
                if (!isspace((unsigned char)in[a])) {
                        size_t e = inl;
                        while (e > a && isspace((unsigned char)in[e - 1]))
                                e--;
                        if (!parse_ver(PRC_DV_NUGET, in + a, e - a, false, &hi) ||
                            !add(s, r[n - 1] == ']' ? C_LE : C_LT, &hi))
                                return false;
                        break;
                }
        return true;
}

enum prc_dv_match prc_dv_satisfies(enum prc_dv_dialect d, const char *requirement, const char *version)
{
        char req[REQ_MAX];
        struct dver v;
        bool unknown = false;
        size_t rl, i = 0;

        if (requirement == NULL || version == NULL)
                return PRC_DV_UNKNOWN;
        rl = strlen(requirement);
        if (rl >= sizeof(req))
                return PRC_DV_UNKNOWN;
        memcpy(req, requirement, rl + 1);
        if (d == PRC_DV_COMPOSER && strncmp(req, "dev-", 4) == 0)
                return strcmp(req, version) == 0 ? PRC_DV_YES : PRC_DV_UNKNOWN;
        if (d == PRC_DV_COMPOSER && (strstr(req, " as ") != NULL || strstr(req, "-dev") != NULL))
                return PRC_DV_UNKNOWN;  /* branch aliases and dev branches: composer's own resolution */
        if (!parse_ver(d, version, strlen(version), false, &v))
                return PRC_DV_UNKNOWN;
        if (d == PRC_DV_NUGET) {
                struct cset s = { .n = 0 };
                if (!nuget_range(req, &s))
                        return PRC_DV_UNKNOWN;
                return set_matches(d, &s, &v, version) ? PRC_DV_YES : PRC_DV_NO;
        }
        while (i <= rl) {
                size_t j = i, sl;
                struct cset s = { .n = 0 };
                /* the next "||" (composer also "|") */
                while (j < rl && !(req[j] == '|' && (req[j + 1] == '|' || d == PRC_DV_COMPOSER)))
                        j++;
                if (j < rl && d != PRC_DV_COMPOSER && d != PRC_DV_NPM && d != PRC_DV_PYPI)
                        return PRC_DV_UNKNOWN;          /* cargo and rubygems have no "||" */
                sl = (j < rl && req[j + 1] == '|') ? 2 : 1;
                if (!alternative(d, req + i, j - i, &s))
                        unknown = true;
                else if (set_matches(d, &s, &v, version))
                        return PRC_DV_YES;
                i = j + sl;
        }
        return unknown ? PRC_DV_UNKNOWN : PRC_DV_NO;
}
