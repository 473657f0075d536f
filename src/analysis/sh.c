/*
 * sh.c - shell token helpers for analyses (see sh.h).
 * Trust: engine-side.  Reads checked worker documents; never evaluates.
 */
#include "analysis/sh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler.h"
#include "content/parsers/shell.h"

/* --- normalization --- */

struct out {
        char  *p;
        size_t cap, len;
};

static void oput(struct out *o, const char *s, size_t n)
{
        for (size_t k = 0; k < n && o->len + 1 < o->cap; k++)
                o->p[o->len++] = s[k];
        o->p[o->len] = 0;
}

static void oputc(struct out *o, char c)
{
        oput(o, &c, 1);
}

static bool name_start(int c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(int c)
{
        return name_start(c) || (c >= '0' && c <= '9');
}

static int hexval(int c)
{
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

/* Skip a balanced "(...)" whose '(' is at r[*k - 1]; quotes and escapes honoured. */
static void skip_paren(const char *r, size_t *k)
{
        unsigned level = 1;

        while (r[*k] != 0) {
                char c = r[*k];
                if (c == '\\' && r[*k + 1] != 0) {
                        *k += 2;
                        continue;
                }
                if (c == '\'') {
                        (*k)++;
                        while (r[*k] != 0 && r[*k] != '\'')
                                (*k)++;
                        if (r[*k] != 0)
                                (*k)++;
                        continue;
                }
                if (c == '"') {
                        (*k)++;
                        while (r[*k] != 0 && r[*k] != '"') {
                                if (r[*k] == '\\' && r[*k + 1] != 0)
                                        (*k)++;
                                (*k)++;
                        }
                        if (r[*k] != 0)
                                (*k)++;
                        continue;
                }
                if (c == '(')
                        level++;
                if (c == ')' && --level == 0) {
                        (*k)++;
                        return;
                }
                (*k)++;
        }
}

/* Decode the body of $'...' starting at r[*k] up to the closing quote. */
static void ansi_c(const char *r, size_t *k, struct out *o)
{
        while (r[*k] != 0 && r[*k] != '\'') {
                char c = r[*k];
                if (c != '\\' || r[*k + 1] == 0) {
                        oputc(o, c);
                        (*k)++;
                        continue;
                }
                (*k)++;
                c = r[*k];
                (*k)++;
                switch (c) {
                case 'n': oputc(o, '\n'); break;
                case 't': oputc(o, '\t'); break;
                case 'r': oputc(o, '\r'); break;
                case 'a': oputc(o, '\a'); break;
                case 'b': oputc(o, '\b'); break;
                case 'e': case 'E': oputc(o, 0x1b); break;
                case 'f': oputc(o, '\f'); break;
                case 'v': oputc(o, '\v'); break;
                case 'x': {
                        int v = 0, d, m = 0;
                        while (m < 2 && (d = hexval(r[*k])) >= 0) {
                                v = v * 16 + d;
                                (*k)++;
                                m++;
                        }
                        if (m == 0)
                                oput(o, "\\x", 2);
                        else if (v != 0)
                                oputc(o, (char)v);
                        break;
                }
                case 'u': case 'U': {
                        unsigned v = 0, m = 0, max = c == 'u' ? 4 : 8;
                        int d;
                        while (m < max && (d = hexval(r[*k])) >= 0) {
                                v = v * 16 + (unsigned)d;
                                (*k)++;
                                m++;
                        }
                        if (v > 0 && v < 0x80) {
                                oputc(o, (char)v);
                        } else if (v >= 0x80 && v < 0x800) {
                                oputc(o, (char)(0xc0 | (v >> 6)));
                                oputc(o, (char)(0x80 | (v & 0x3f)));
                        } else if (v >= 0x800 && v < 0x10000) {
                                oputc(o, (char)(0xe0 | (v >> 12)));
                                oputc(o, (char)(0x80 | ((v >> 6) & 0x3f)));
                                oputc(o, (char)(0x80 | (v & 0x3f)));
                        }
                        break;
                }
                default:
                        if (c >= '0' && c <= '7') {
                                int v = c - '0', m = 1;
                                while (m < 3 && r[*k] >= '0' && r[*k] <= '7') {
                                        v = v * 8 + (r[*k] - '0');
                                        (*k)++;
                                        m++;
                                }
                                if (v != 0)
                                        oputc(o, (char)v);
                        } else {
                                oputc(o, c);    /* \\ \' \" \? and unknown escapes keep the character */
                        }
                }
        }
        if (r[*k] == '\'')
                (*k)++;
}

/* $name or ${...} at r[*k] == '$'; appends the static value or flags it unknown. */
static unsigned dollar(const char *r, size_t *k, const json_t *vars, struct out *o, size_t *nsubst)
{
        char name[128];
        size_t n = 0;
        const json_t *v;

        if (r[*k + 1] == '(') {
                bool arith = r[*k + 2] == '(';
                *k += 2;
                skip_paren(r, k);
                if (arith)
                        return PRC_SHW_UNKNOWN;
                (*nsubst)++;
                return PRC_SHW_SUBST;
        }
        if (r[*k + 1] == '{') {
                size_t j = *k + 2, e;
                unsigned level = 1;
                for (e = j; r[e] != 0; e++) {
                        if (r[e] == '{')
                                level++;
                        if (r[e] == '}' && --level == 0)
                                break;
                }
                while (name_char(r[j]) && n + 1 < sizeof(name))
                        name[n++] = r[j++];
                name[n] = 0;
                /* A command substitution inside ${x:-$(..)} is still one the worker tokenized. */
                for (size_t q = j; q < e; q++)
                        if (r[q] == '$' && r[q + 1] == '(' && r[q + 2] != '(')
                                (*nsubst)++;
                *k = r[e] != 0 ? e + 1 : e;
                if (n == 0 || !name_start(name[0]) || r[j] != '}')
                        return PRC_SHW_UNKNOWN;         /* operators and special parameters: not evaluated here */
                v = vars != NULL ? json_object_get(vars, name) : NULL;
                if (!json_is_string(v))
                        return PRC_SHW_UNKNOWN;
                oput(o, json_string_value(v), json_string_length(v));
                return PRC_SHW_VAR;
        }
        if (name_start(r[*k + 1])) {
                (*k)++;
                while (name_char(r[*k]) && n + 1 < sizeof(name))
                        name[n++] = r[(*k)++];
                while (name_char(r[*k]))
                        (*k)++;
                name[n] = 0;
                v = vars != NULL ? json_object_get(vars, name) : NULL;
                if (!json_is_string(v))
                        return PRC_SHW_UNKNOWN;
                oput(o, json_string_value(v), json_string_length(v));
                return PRC_SHW_VAR;
        }
        if (r[*k + 1] != 0 && strchr("@*#?$!-0123456789", r[*k + 1]) != NULL) {
                *k += 2;
                return PRC_SHW_UNKNOWN;
        }
        oputc(o, '$');
        (*k)++;
        return 0;
}

unsigned prc_sh_norm(const char *r, const json_t *vars, char *outp, size_t cap, size_t *nsubst)
{
        struct out o = { outp, cap, 0 };
        unsigned fl = 0, pieces = 0;
        int last = 0;   /* quoting of the previous piece: 0 none yet, 1 plain, 2 quoted */
        size_t k = 0;

        *nsubst = 0;
        if (cap == 0)
                return 0;
        outp[0] = 0;
        while (r[k] != 0) {
                char c = r[k];
                int kind;
                size_t before = o.len;
                if (c == '\'' ) {
                        k++;
                        while (r[k] != 0 && r[k] != '\'')
                                oputc(&o, r[k++]);
                        if (r[k] != 0)
                                k++;
                        fl |= PRC_SHW_QUOTED;
                        kind = 2;
                } else if (c == '$' && r[k + 1] == '\'') {
                        k += 2;
                        ansi_c(r, &k, &o);
                        fl |= PRC_SHW_QUOTED | PRC_SHW_ANSI;
                        kind = 2;
                } else if (c == '"' || (c == '$' && r[k + 1] == '"')) {
                        k += c == '$' ? 2 : 1;
                        while (r[k] != 0 && r[k] != '"') {
                                if (r[k] == '\\' && r[k + 1] != 0 && strchr("$`\"\\", r[k + 1]) != NULL) {
                                        oputc(&o, r[k + 1]);
                                        k += 2;
                                } else if (r[k] == '\\' && r[k + 1] == '\n') {
                                        k += 2;
                                } else if (r[k] == '$') {
                                        fl |= dollar(r, &k, vars, &o, nsubst);
                                } else if (r[k] == '`') {
                                        k++;
                                        while (r[k] != 0 && r[k] != '`') {
                                                if (r[k] == '\\' && r[k + 1] != 0)
                                                        k++;
                                                k++;
                                        }
                                        if (r[k] != 0)
                                                k++;
                                        (*nsubst)++;
                                        fl |= PRC_SHW_SUBST;
                                } else {
                                        oputc(&o, r[k++]);
                                }
                        }
                        if (r[k] != 0)
                                k++;
                        fl |= PRC_SHW_QUOTED;
                        kind = 2;
                } else if (c == '\\' && r[k + 1] != 0) {
                        if (r[k + 1] != '\n')
                                oputc(&o, r[k + 1]);
                        /* An escaped ordinary letter is a splice (c\url); an escaped space or quote is not. */
                        kind = name_char(r[k + 1]) ? 2 : 1;
                        k += 2;
                } else if (c == '$') {
                        fl |= dollar(r, &k, vars, &o, nsubst);
                        kind = 1;
                } else if (c == '`') {
                        k++;
                        while (r[k] != 0 && r[k] != '`') {
                                if (r[k] == '\\' && r[k + 1] != 0)
                                        k++;
                                k++;
                        }
                        if (r[k] != 0)
                                k++;
                        (*nsubst)++;
                        fl |= PRC_SHW_SUBST;
                        kind = 1;
                } else if ((c == '<' || c == '>') && r[k + 1] == '(') {
                        k += 2;
                        skip_paren(r, &k);
                        (*nsubst)++;
                        fl |= PRC_SHW_SUBST;
                        kind = 1;
                } else {
                        oputc(&o, c);
                        k++;
                        kind = 1;
                }
                /* Quoting changes between two pieces that both hold word characters: a splice. */
                if (o.len > before) {
                        if (last != 0 && last != kind)
                                fl |= PRC_SHW_SPLICED;
                        if (last == 2 && kind == 2 && pieces > 0)
                                fl |= PRC_SHW_SPLICED;
                        last = kind;
                        pieces++;
                }
        }
        return fl;
}

/* --- the walk --- */

static bool is_op(const char *t)
{
        static const char *const ops[] = { ";;&", "<<<", "<<-", ";;", ";&", "&&", "||", "|&", "<<", ">>", "<&",
                                           ">&", "<>", ">|", "&>", ";", "&", "|", "(", ")", "<", ">", NULL };

        /* Most tokens are words: every operator starts with one of these. */
        if (t[0] == 0 || strchr(";&|()<>", t[0]) == NULL)
                return false;
        for (size_t i = 0; ops[i] != NULL; i++)
                if (strcmp(ops[i], t) == 0)
                        return true;
        return false;
}

static bool is_reserved(const char *t)
{
        static const char *const w[] = { "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "{",
                                         "}", "!", "time", "esac", NULL };

        if (t[0] == 0 || strchr("itedfwu{}!", t[0]) == NULL)
                return false;   /* no reserved word starts otherwise */
        for (size_t i = 0; w[i] != NULL; i++)
                if (strcmp(w[i], t) == 0)
                        return true;
        return false;
}

/* NAME=... or NAME+=... */
static size_t assign_name(const char *v)
{
        size_t k = 0;

        if (!name_start(v[0]))
                return 0;
        while (name_char(v[k]))
                k++;
        if (v[k] == '=')
                return k;
        if (v[k] == '+' && v[k + 1] == '=')
                return k;
        return 0;
}

struct walk {
        prc_sh_fn fn;
        void     *ctx;
        prc_err  *err;
        json_t   *vars;         /* the caller's (borrowed) until an assignment needs a copy (owned) */
        bool      owned;        /* vars is the walk's own copy */
        bool      oom;          /* that copy could not be made */
        bool      pattern;      /* at a case pattern (up to its ')'): words are not commands */
        unsigned  cases;        /* open case commands */
        bool      arr;          /* inside "name=( ... )" (which may span lines): elements are not commands */
        prc_shw   w[PRC_SHC_WORDS_MAX * 2];
        /*
         * Normalized words of the pipeline being read, one after another (not
         * zeroed: each word is written before it is read).  64 KiB holds far more
         * than real lines; past it a word is cut, never dropped.
         */
        size_t    used;
        char      arena[64u << 10];
};

static const char *basename_of(const char *v)
{
        const char *b = strrchr(v, '/');
        return b != NULL && b[1] != 0 ? b + 1 : v;
}

/* Skip wrappers that run their arguments as a command: sudo, env, command, exec, nohup, ... */
static size_t skip_wrappers(prc_shw *w, size_t n, size_t i)
{
        for (;;) {
                const char *b;
                while (i < n && assign_name(w[i].val) > 0)
                        i++;
                if (i >= n)
                        return i;
                b = basename_of(w[i].val);
                if (strcmp(b, "sudo") == 0 || strcmp(b, "doas") == 0 || strcmp(b, "env") == 0 ||
                    strcmp(b, "command") == 0 || strcmp(b, "exec") == 0 || strcmp(b, "nohup") == 0 ||
                    strcmp(b, "nice") == 0 || strcmp(b, "stdbuf") == 0 || strcmp(b, "builtin") == 0 ||
                    strcmp(b, "time") == 0 || strcmp(b, "busybox") == 0 || strcmp(b, "fakeroot") == 0) {
                        i++;
                        while (i < n && w[i].val[0] == '-')
                                i++;
                        continue;
                }
                if (strcmp(b, "timeout") == 0) {
                        i++;
                        while (i < n && w[i].val[0] == '-')
                                i++;
                        if (i < n)
                                i++;    /* the duration */
                        continue;
                }
                return i;
        }
}

/* The walk's variables to change: copied from the caller's on the first assignment (most walks make none). */
static json_t *own_vars(struct walk *wk)
{
        json_t *c;

        if (wk->owned)
                return wk->vars;
        c = wk->vars != NULL ? json_copy(wk->vars) : json_object();
        if (c == NULL) {
                wk->oom = true;
                return NULL;
        }
        wk->vars = c;
        wk->owned = true;
        return c;
}

static bool walk_lines(struct walk *wk, const json_t *lines, unsigned depth);

/* One logical line: split into pipelines at ; && || & and reserved words, then call back. */
static bool walk_line(struct walk *wk, const json_t *line, unsigned depth)
{
        const json_t *toks = json_object_get(line, "tokens"), *subst = json_object_get(line, "subst");
        size_t nt = json_array_size(toks), nw = 0, sidx = 0, cstart = 0;
        prc_shc cmds[PRC_SHP_CMDS_MAX];
        size_t nc = 0;
        prc_shp p;
        bool heredoc = false, ok = true;
        const char *out_file = NULL;
        size_t redirect = 0;    /* 1: the next word is a redirection target; 2: of > or >> */
        bool dbl = false;       /* inside [[ ... ]]: && || < > ( ) are its operands */

        wk->used = 0;
        memset(&p, 0, sizeof(p));
        p.line = (uint32_t)json_integer_value(json_object_get(line, "line"));
        p.lineobj = line;
        p.depth = depth;
        p.c = cmds;
        {
                size_t o = 0;
                for (size_t i = 0; i < nt && o + 2 < sizeof(p.text); i++) {
                        const char *t = json_string_value(json_array_get(toks, i));
                        size_t l = strlen(t);
                        if (o > 0)
                                p.text[o++] = ' ';
                        if (l > sizeof(p.text) - 1 - o)
                                l = sizeof(p.text) - 1 - o;
                        memcpy(p.text + o, t, l);
                        o += l;
                        p.text[o] = 0;
                }
        }
        for (size_t i = 0; i <= nt; i++) {
                const char *t = i < nt ? json_string_value(json_array_get(toks, i)) : NULL;
                bool end_cmd;

                if (t != NULL && wk->arr) {
                        char tmp[8];
                        size_t ns2 = 0;
                        if (strcmp(t, ")") == 0) {
                                wk->arr = false;
                        } else {
                                /* Substitutions in elements still run: keep their place in the line's list. */
                                (void)prc_sh_norm(t, NULL, tmp, sizeof(tmp), &ns2);
                                sidx += ns2;
                        }
                        continue;
                }
                if (t != NULL && strcmp(t, "(") == 0 && nw > cstart && !dbl) {
                        const char *pv = wk->w[nw - 1].val;
                        size_t an = assign_name(pv);
                        if (an > 0 && pv[strlen(pv) - 1] == '=' && (pv[an] == '=' ? an + 1 : an + 2) == strlen(pv)) {
                                wk->arr = true;
                                continue;
                        }
                }
                if (t != NULL && wk->pattern) {
                        char tmp[8];
                        size_t ns2 = 0;
                        if (strcmp(t, ")") == 0) {
                                wk->pattern = false;
                        } else if (strcmp(t, "esac") == 0) {
                                wk->pattern = false;
                                if (wk->cases > 0)
                                        wk->cases--;
                        } else {
                                (void)prc_sh_norm(t, NULL, tmp, sizeof(tmp), &ns2);
                                sidx += ns2;
                        }
                        continue;
                }
                end_cmd = !dbl && (t == NULL || (is_op(t) && strcmp(t, "<") != 0 && strcmp(t, ">") != 0 &&
                                             strcmp(t, ">>") != 0 && strcmp(t, "<<") != 0 && strcmp(t, "<<-") != 0 &&
                                             strcmp(t, "<<<") != 0 && strcmp(t, "&>") != 0 && strcmp(t, ">|") != 0 &&
                                             strcmp(t, "<&") != 0 && strcmp(t, ">&") != 0 && strcmp(t, "<>") != 0));
                if (dbl && t == NULL)
                        end_cmd = true;
                if (dbl && t != NULL && strcmp(t, "]]") == 0)
                        dbl = false;
                else if (!end_cmd && t != NULL && nw == cstart && strcmp(t, "[[") == 0)
                        dbl = true;
                if (!end_cmd && !dbl && t != NULL && is_op(t)) {
                        /* A redirection: its target is not an argument. */
                        redirect = (strcmp(t, ">") == 0 || strcmp(t, ">>") == 0 || strcmp(t, ">|") == 0 ||
                                    strcmp(t, "&>") == 0) ? 2 : 1;
                        if (strcmp(t, "<<") == 0 || strcmp(t, "<<-") == 0 || strcmp(t, "<<<") == 0)
                                heredoc = true;
                        continue;
                }
                if (!end_cmd) {
                        prc_shw *w;
                        size_t ns = 0;
                        if (nw >= PRC_ARRAY_LEN(wk->w))
                                continue;
                        w = &wk->w[nw];
                        w->raw = t;
                        if (wk->used >= sizeof(wk->arena) - 1)
                                wk->used = sizeof(wk->arena) - 1;       /* full: the word reads as "" */
                        w->val = wk->arena + wk->used;
                        {
                                size_t room = sizeof(wk->arena) - wk->used;
                                w->fl = prc_sh_norm(t, wk->vars, w->val, room < PRC_SHW_MAX ? room : PRC_SHW_MAX,
                                                    &ns);
                                wk->used += strlen(w->val) + 1;
                                if (wk->used > sizeof(wk->arena))
                                        wk->used = sizeof(wk->arena);
                        }
                        w->subst = subst;
                        w->s0 = sidx;
                        sidx += ns;
                        w->s1 = sidx;
                        if (redirect) {
                                if (redirect == 2)
                                        out_file = w->val;
                                redirect = 0;
                                nw++;
                                /* Kept in wk->w for its substitutions, but not a word of the command. */
                                w->fl |= 1u << 31;
                                continue;
                        }
                        /* Reserved words open a new command at the start of one. */
                        if (nw == cstart && (is_reserved(t) || strcmp(t, "for") == 0 || strcmp(t, "case") == 0 ||
                                             strcmp(t, "select") == 0)) {
                                if (strcmp(t, "esac") == 0 && wk->cases > 0)
                                        wk->cases--;
                                if (strcmp(t, "for") == 0 || strcmp(t, "case") == 0 || strcmp(t, "select") == 0) {
                                        /* "for x in a b", "case w in": no command until ';', do or a newline. */
                                        bool is_case = strcmp(t, "case") == 0;
                                        while (i + 1 < nt) {
                                                const char *u = json_string_value(json_array_get(toks, i + 1));
                                                char tmp[8];
                                                size_t ns2 = 0;
                                                if (strcmp(u, ";") == 0 || strcmp(u, "do") == 0)
                                                        break;
                                                (void)prc_sh_norm(u, NULL, tmp, sizeof(tmp), &ns2);
                                                sidx += ns2;
                                                i++;
                                                if (is_case && strcmp(u, "in") == 0) {
                                                        wk->pattern = true;
                                                        wk->cases++;
                                                        break;
                                                }
                                        }
                                }
                                continue;
                        }
                        nw++;
                        continue;
                }
                /* End of a simple command. */
                {
                        size_t first = cstart, k2 = 0;
                        prc_shw *cw;
                        /* Compact the command's words (drop redirection targets) in place. */
                        for (size_t j = cstart; j < nw; j++) {
                                if (wk->w[j].fl & (1u << 31))
                                        continue;
                                if (first + k2 != j)
                                        wk->w[first + k2] = wk->w[j];
                                k2++;
                        }
                        /* Substitutions of dropped redirection targets stay reachable through the line. */
                        nw = first + k2;
                        cw = &wk->w[cstart];
                        if (nc < PRC_SHP_CMDS_MAX && (nw > cstart || out_file != NULL || heredoc)) {
                                size_t s = skip_wrappers(cw, nw - cstart, 0);
                                cmds[nc].w = cw + s;
                                cmds[nc].n = nw - cstart - s;
                                cmds[nc].name = cmds[nc].n > 0 ? basename_of(cmds[nc].w[0].val) : "";
                                cmds[nc].out_file = out_file;
                                cmds[nc].heredoc = heredoc;
                                /* Plain assignments shadow the file's values from here on. */
                                if (s > 0 && cmds[nc].n == 0) {
                                        for (size_t j = 0; j < s; j++) {
                                                size_t an = assign_name(cw[j].val);
                                                char nm[128];
                                                if (an == 0 || an >= sizeof(nm))
                                                        continue;
                                                memcpy(nm, cw[j].val, an);
                                                nm[an] = 0;
                                                if (own_vars(wk) == NULL)
                                                        continue;
                                                if ((cw[j].fl & (PRC_SHW_UNKNOWN | PRC_SHW_SUBST)) ||
                                                    cw[j].val[an] == '+')
                                                        json_object_del(wk->vars, nm);
                                                else
                                                        json_object_set_new(wk->vars, nm,
                                                                            json_string(cw[j].val + an + 1));
                                        }
                                }
                                if (cmds[nc].n > 0 &&
                                    (strcmp(cmds[nc].name, "local") == 0 || strcmp(cmds[nc].name, "declare") == 0 ||
                                     strcmp(cmds[nc].name, "export") == 0 || strcmp(cmds[nc].name, "typeset") == 0 ||
                                     strcmp(cmds[nc].name, "readonly") == 0)) {
                                        for (size_t j = 1; j < cmds[nc].n; j++) {
                                                const prc_shw *aw = &cmds[nc].w[j];
                                                size_t an = assign_name(aw->val);
                                                char nm[128];
                                                if (an == 0 || an >= sizeof(nm))
                                                        continue;
                                                memcpy(nm, aw->val, an);
                                                nm[an] = 0;
                                                if (own_vars(wk) == NULL)
                                                        continue;
                                                if ((aw->fl & (PRC_SHW_UNKNOWN | PRC_SHW_SUBST)) || aw->val[an] == '+')
                                                        json_object_del(wk->vars, nm);
                                                else
                                                        json_object_set_new(wk->vars, nm, json_string(aw->val + an + 1));
                                        }
                                }
                                nc++;
                        }
                        out_file = NULL;
                        heredoc = false;
                        redirect = 0;
                        cstart = nw;
                        if (t != NULL && wk->cases > 0 && (strcmp(t, ";;") == 0 || strcmp(t, ";&") == 0 ||
                                                           strcmp(t, ";;&") == 0))
                                wk->pattern = true;
                        if (t != NULL && (strcmp(t, "|") == 0 || strcmp(t, "|&") == 0))
                                continue;       /* the pipeline goes on */
                        if (nc > 0) {
                                p.n = nc;
                                if (!wk->fn(wk->ctx, &p, wk->err)) {
                                        ok = false;
                                        break;
                                }
                        }
                        nc = 0;
                        /* The pipeline is judged: its words' slots serve the rest of the line. */
                        nw = 0;
                        cstart = 0;
                        wk->used = 0;
                }
        }
        if (ok && subst != NULL)
                ok = walk_lines(wk, subst, depth + 1);
        return ok;
}

static bool walk_lines(struct walk *wk, const json_t *lines, unsigned depth)
{
        size_t i;
        json_t *l;

        json_array_foreach(lines, i, l)
                if (!walk_line(wk, l, depth))
                        return false;
        return true;
}

/* One walk's memory (~90 KiB) kept for the next walk of the thread: analyses walk thousands of streams. */
static _Thread_local struct walk *spare_walk;

bool prc_sh_walk(const json_t *lines, const json_t *vars, prc_sh_fn fn, void *ctx, prc_err *err)
{
        struct walk *wk = spare_walk;
        bool ok;

        spare_walk = NULL;      /* a walk started from a callback gets its own */
        if (wk == NULL)
                wk = malloc(sizeof(*wk));
        if (wk == NULL)
                return prc_err_oom(err, "a shell walk");
        wk->used = 0;
        wk->pattern = false;
        wk->cases = 0;
        wk->arr = false;
        wk->fn = fn;
        wk->ctx = ctx;
        wk->err = err;
        wk->vars = (json_t *)vars;      /* read only until own_vars() */
        wk->owned = false;
        wk->oom = false;
        ok = walk_lines(wk, lines, 0);
        if (ok && wk->oom)
                ok = prc_err_oom(err, "a shell walk's variables");
        if (wk->owned)
                json_decref(wk->vars);
        if (spare_walk == NULL)
                spare_walk = wk;
        else
                free(wk);
        return ok;
}

struct mention {
        const char *const *names;
        bool               hit;
};

static bool mention_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        struct mention *m = ctx;

        (void)err;
        for (size_t c = 0; c < p->n; c++)
                for (size_t k = 0; m->names[k] != NULL; k++)
                        if (strcmp(p->c[c].name, m->names[k]) == 0)
                                m->hit = true;
        return true;
}

bool prc_sh_mentions(const json_t *lines, const char *const *names)
{
        struct mention m = { names, false };
        prc_err e;

        prc_err_init(&e);
        if (!prc_sh_walk(lines, NULL, mention_cb, &m, &e))
                return true;    /* could not look: assume it does (never a clean result by accident) */
        return m.hit;
}

json_t *prc_sh_static_vars(const json_t *doc)
{
        json_t *vars = json_object(), *a;
        size_t i;

        if (vars == NULL)
                return NULL;
        json_array_foreach(json_object_get(doc, "assignments"), i, a) {
                const char *name = json_string_value(json_object_get(a, "name"));
                const json_t *v = json_object_get(a, "value");
                if (name == NULL)
                        continue;
                if (!json_is_true(json_object_get(a, "static"))) {
                        json_object_del(vars, name);
                        continue;
                }
                if (json_is_array(v))
                        v = json_array_get(v, 0);
                if (json_is_string(v))
                        json_object_set_new(vars, name, json_string(json_string_value(v)));
                else
                        json_object_del(vars, name);
        }
        return vars;
}
