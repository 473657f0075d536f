/*
 * html.c - the static HTML report (see html.h).
 * Pure: no I/O, no clock.  Everything comes from the run result.
 */
#include "engine/html.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/digest.h"
#include "engine/findings.h"

static const char *const states[] = { "Pass", "Fail", "Unknown", "Conflicting", "Blocked" };
static const char *const state_colors[] = { "#1a7f37", "#cf222e", "#9a6700", "#bc4c00", "#8250df" };

/*
 * The one script: filtering by state.  It only toggles `hidden`, reads no
 * data and writes no markup; the CSP admits it by its hash and nothing else.
 */
static const char script[] =
        "(function(){var f=document.getElementById('filters');if(!f)return;f.hidden=false;"
        "var boxes=f.querySelectorAll('input');function apply(){var on={};"
        "boxes.forEach(function(b){on[b.value]=b.checked;});"
        "document.querySelectorAll('article.assertion').forEach(function(a){"
        "a.hidden=!on[a.getAttribute('data-state')];});}"
        "boxes.forEach(function(b){b.addEventListener('change',apply);});apply();})();";

static const char style[] =
        "body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem 1.5rem;color:#1f2328}"
        "h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem;"
        "margin-top:2rem}h3{font-size:1rem;margin:.2rem 0}"
        "code,.mono{font-family:ui-monospace,monospace;font-size:12.5px;overflow-wrap:anywhere}"
        "dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem}dl.kv dt{font-weight:600}"
        "dl.kv dd{margin:0;overflow-wrap:anywhere}"
        "table{border-collapse:collapse;width:100%;margin:.4rem 0}th,td{border:1px solid #d0d7de;padding:.25rem .4rem;"
        "text-align:left;vertical-align:top;overflow-wrap:anywhere}th{background:#f6f8fa}"
        "article.assertion{border:1px solid #d0d7de;border-left-width:6px;border-radius:4px;padding:.5rem .8rem;"
        "margin:.8rem 0}"
        ".badge{display:inline-block;border-radius:1rem;padding:0 .55rem;color:#fff;font-weight:600;font-size:12px}"
        ".sev{font-size:12px;color:#57606a}.muted{color:#57606a}.legend span{margin-right:1rem}"
        ".sw{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:-1px}"
        "#filters label{margin-right:1rem}"
        ".s-Pass{border-left-color:#1a7f37}.s-Fail{border-left-color:#cf222e}.s-Unknown{border-left-color:#9a6700}"
        ".s-Conflicting{border-left-color:#bc4c00}.s-Blocked{border-left-color:#8250df}"
        ".b-Pass{background:#1a7f37}.b-Fail{background:#cf222e}.b-Unknown{background:#9a6700}"
        ".b-Conflicting{background:#bc4c00}.b-Blocked{background:#8250df}"
        "@media print{#filters{display:none}}";

struct w {
        prc_buf *b;
        prc_err *err;
        bool     ok;
};

static void lit(struct w *w, const char *s)
{
        w->ok = w->ok && prc_buf_puts(w->b, s, w->err);
}

static void PRC_PRINTF(2, 3) fmt(struct w *w, const char *f, ...)
{
        char tmp[1024];
        va_list ap;
        int n;

        va_start(ap, f);
        n = vsnprintf(tmp, sizeof(tmp), f, ap);
        va_end(ap);
        if (n < 0 || (size_t)n >= sizeof(tmp)) {
                w->ok = w->ok && prc_err_set(w->err, PRC_E_INTERNAL, "an HTML fragment was too long");
                return;
        }
        lit(w, tmp);
}

bool prc_html_escape(const char *s, prc_buf *out, prc_err *err)
{
        const char *run = s;

        for (; *s != '\0'; s++) {
                const char *rep;
                switch (*s) {
                case '&': rep = "&amp;"; break;
                case '<': rep = "&lt;"; break;
                case '>': rep = "&gt;"; break;
                case '"': rep = "&quot;"; break;
                case '\'': rep = "&#39;"; break;
                default: continue;
                }
                if (!prc_buf_put(out, run, (size_t)(s - run), err) || !prc_buf_puts(out, rep, err))
                        return false;
                run = s + 1;
        }
        return prc_buf_put(out, run, (size_t)(s - run), err);
}

/* Escaped text; a missing value is written as nothing (the result was checked before rendering). */
static void esc(struct w *w, const char *s)
{
        w->ok = w->ok && prc_html_escape(s != NULL ? s : "", w->b, w->err);
}

static const char *sget(const json_t *o, const char *k)
{
        const char *s = json_string_value(json_object_get(o, k));
        return s != NULL ? s : "";
}

static long long iget(const json_t *o, const char *k)
{
        return (long long)json_integer_value(json_object_get(o, k));
}

/* A table row of escaped string fields of o, named by keys (NULL-ended); the cells whose bit is set in
 * mono are set in the monospace class (paths, ids, digests). */
static void row_of(struct w *w, const json_t *o, unsigned mono, const char *const *keys)
{
        for (unsigned i = 0; keys[i] != NULL; i++) {
                lit(w, i == 0 ? "<tr>" : "</td>");
                lit(w, mono & (1u << i) ? "<td class=\"mono\">" : "<td>");
                esc(w, sget(o, keys[i]));
        }
        lit(w, "</td></tr>");
}

/* A state word as a class suffix: only the five states, anything else is Unknown. */
static const char *state_class(const char *s)
{
        for (size_t i = 0; i < 5; i++)
                if (strcmp(states[i], s) == 0)
                        return states[i];
        return "Unknown";
}

static void base64(const uint8_t *p, size_t n, char *out)
{
        static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        size_t o = 0;

        for (size_t i = 0; i < n; i += 3) {
                uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                             (i + 2 < n ? p[i + 2] : 0);
                out[o++] = tab[v >> 18 & 63];
                out[o++] = tab[v >> 12 & 63];
                out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
                out[o++] = i + 2 < n ? tab[v & 63] : '=';
        }
        out[o] = '\0';
}

static void head(struct w *w, const json_t *run)
{
        uint8_t h[PRC_SHA256_LEN];
        char b64[64];

        if (!(w->ok = w->ok && prc_sha256_once(script, sizeof(script) - 1, h, w->err)))
                return;
        base64(h, sizeof(h), b64);
        lit(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        /* Nothing but the inline style and this one script may load or run: no request to any host. */
        fmt(w, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            "script-src 'sha256-%s'; base-uri 'none'; form-action 'none'\">\n", b64);
        lit(w, "<meta name=\"referrer\" content=\"no-referrer\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>prc report: ");
        esc(w, sget(run, "profile"));
        lit(w, " ");
        esc(w, sget(json_object_get(run, "target"), "inventory_digest"));
        lit(w, "</title>\n<style>");
        lit(w, style);
        lit(w, "</style>\n</head>\n<body>\n");
}

/* A horizontal bar of the five states, each segment as wide as its share, and a legend. */
static void chart(struct w *w, const json_t *sum)
{
        static const char *const keys[] = { "pass", "fail", "unknown", "conflicting", "blocked" };
        long long total = 0, x = 0;

        for (size_t i = 0; i < 5; i++)
                total += iget(sum, keys[i]);
        fmt(w, "<svg id=\"chart\" role=\"img\" width=\"600\" height=\"34\" viewBox=\"0 0 600 34\" "
            "xmlns=\"http://www.w3.org/2000/svg\"><title>assertion states: %lld pass, %lld fail, %lld unknown, "
            "%lld conflicting, %lld blocked</title>", iget(sum, "pass"), iget(sum, "fail"), iget(sum, "unknown"),
            iget(sum, "conflicting"), iget(sum, "blocked"));
        if (total == 0)
                lit(w, "<rect x=\"0\" y=\"0\" width=\"600\" height=\"34\" fill=\"#d0d7de\"/>");
        for (size_t i = 0; i < 5 && total > 0; i++) {
                long long n = iget(sum, keys[i]), wd = n * 600 / total;
                if (n == 0)
                        continue;
                if (i == 4 || x + wd > 600)
                        wd = 600 - x;
                fmt(w, "<rect class=\"seg-%s\" x=\"%lld\" y=\"0\" width=\"%lld\" height=\"34\" fill=\"%s\">"
                    "<title>%s: %lld</title></rect>", states[i], x, wd, state_colors[i], states[i], n);
                if (wd >= 24)
                        fmt(w, "<text x=\"%lld\" y=\"22\" fill=\"#fff\" font-size=\"14\" font-family=\"sans-serif\">"
                            "%lld</text>", x + 6, n);
                x += wd;
        }
        lit(w, "</svg>\n<p class=\"legend\">");
        for (size_t i = 0; i < 5; i++)
                fmt(w, "<span><span class=\"sw\" style=\"background:%s\"></span>%s %lld</span>", state_colors[i],
                    states[i], iget(sum, keys[i]));
        fmt(w, "<span class=\"muted\">of %lld assertions</span></p>\n", iget(sum, "total"));
}

static void kv(struct w *w, const char *k, const char *v, bool mono)
{
        lit(w, "<dt>");
        esc(w, k);
        lit(w, mono ? "</dt><dd class=\"mono\">" : "</dt><dd>");
        esc(w, v);
        lit(w, "</dd>");
}

static void provenance(struct w *w, const json_t *run)
{
        const json_t *t = json_object_get(run, "target"), *cat = json_object_get(run, "catalog");
        const json_t *fl = json_object_get(run, "content_floor"), *tr = json_object_get(run, "triage");
        char buf[512];

        lit(w, "<section id=\"provenance\"><h2>Provenance</h2><dl class=\"kv\">");
        kv(w, "result ID", sget(run, "id"), true);
        kv(w, "inventory digest", sget(t, "inventory_digest"), true);
        snprintf(buf, sizeof(buf), "%lld files, %lld symlinks, %lld bytes", iget(t, "files"), iget(t, "symlinks"),
                 iget(t, "bytes"));
        kv(w, "target", buf, false);
        if (json_object_get(t, "archive") != NULL) {
                snprintf(buf, sizeof(buf), "%s, %lld members, sha256 %s", sget(json_object_get(t, "archive"), "format"),
                         iget(json_object_get(t, "archive"), "members"), sget(json_object_get(t, "archive"), "sha256"));
                kv(w, "archive", buf, true);
        }
        if (json_object_get(t, "aur") != NULL) {
                snprintf(buf, sizeof(buf), "%s from %s", sget(json_object_get(t, "aur"), "package"),
                         sget(json_object_get(t, "aur"), "url"));
                kv(w, "AUR package", buf, true);
        }
        snprintf(buf, sizeof(buf), "%s revision %lld", sget(cat, "id"), iget(cat, "revision"));
        kv(w, "catalog", buf, false);
        kv(w, "catalog digest", sget(cat, "sha256"), true);
        kv(w, "profile", sget(run, "profile"), false);
        kv(w, "mode", sget(run, "mode"), false);
        snprintf(buf, sizeof(buf), "%s (content worker %s)", sget(fl, "level"), sget(fl, "worker"));
        kv(w, "content floor", buf, false);
        kv(w, "prc version", sget(run, "prc_version"), false);
        if (json_object_get(run, "now") != NULL)
                kv(w, "clock (--now)", sget(run, "now"), false);
        if (json_object_get(tr, "baseline") != NULL)
                kv(w, "baseline result", sget(json_object_get(tr, "baseline"), "id"), true);
        if (json_object_get(tr, "suppressions") != NULL)
                kv(w, "suppressions file", sget(json_object_get(tr, "suppressions"), "sha256"), true);
        lit(w, "</dl></section>\n");
}

/* One evidence location: its file and line, then every other field as text. */
static void location_row(struct w *w, const json_t *obs, const json_t *l)
{
        const char *k;
        json_t *v;
        bool first = true;

        lit(w, "<tr><td class=\"mono\">");
        esc(w, sget(l, "path"));
        lit(w, "</td><td>");
        if (json_integer_value(json_object_get(l, "line")) > 0)
                fmt(w, "%" JSON_INTEGER_FORMAT, json_integer_value(json_object_get(l, "line")));
        lit(w, "</td><td>");
        esc(w, sget(obs, "outcome"));
        lit(w, "</td><td>");
        if (json_object_get(l, "text") != NULL) {
                lit(w, "<code>");
                esc(w, sget(l, "text"));
                lit(w, "</code> ");
        }
        esc(w, sget(l, "detail"));
        json_object_foreach((json_t *)l, k, v) {
                char *dump;
                if (strcmp(k, "path") == 0 || strcmp(k, "line") == 0 || strcmp(k, "text") == 0 ||
                    strcmp(k, "detail") == 0)
                        continue;
                dump = json_is_string(v) ? NULL : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
                lit(w, first ? " <span class=\"muted\">" : "; ");
                first = false;
                esc(w, k);
                lit(w, ": ");
                esc(w, json_is_string(v) ? json_string_value(v) : dump != NULL ? dump : "?");
                free(dump);
        }
        if (!first)
                lit(w, "</span>");
        lit(w, "</td></tr>");
}

static void evidence(struct w *w, const json_t *row)
{
        const json_t *env, *l;
        size_t i, j, shown = 0, more = 0;

        if (json_array_size(json_object_get(row, "evidence")) == 0) {
                lit(w, "<p class=\"muted\">No evidence: the state comes from the reason above.</p>");
                return;
        }
        lit(w, "<table class=\"evidence\"><thead><tr><th>file</th><th>line</th><th>outcome</th><th>evidence</th>"
               "</tr></thead><tbody>");
        json_array_foreach(json_object_get(row, "evidence"), i, env) {
                const json_t *obs = json_object_get(env, "observation");
                if (json_object_get(obs, "message") != NULL) {
                        lit(w, "<tr><td colspan=\"2\" class=\"muted\">(observation)</td><td>");
                        esc(w, sget(obs, "outcome"));
                        lit(w, "</td><td>");
                        esc(w, sget(obs, "message"));
                        lit(w, "</td></tr>");
                }
                json_array_foreach(json_object_get(obs, "locations"), j, l) {
                        if (shown == PRC_HTML_LOCATIONS_MAX) {
                                more++;
                                continue;
                        }
                        shown++;
                        location_row(w, obs, l);
                }
        }
        lit(w, "</tbody></table>");
        if (more > 0)
                fmt(w, "<p class=\"muted\">%zu more locations are not shown here; the JSON result lists every one."
                    "</p>", more);
}

static void findings(struct w *w, const json_t *row)
{
        const json_t *f;
        size_t i;

        if (json_array_size(json_object_get(row, "findings")) == 0)
                return;
        lit(w, "<details><summary>Finding digests (for baselines and suppressions)</summary><ul class=\"mono\">");
        json_array_foreach(json_object_get(row, "findings"), i, f) {
                if (i == PRC_HTML_LOCATIONS_MAX) {
                        fmt(w, "<li>%zu more in the JSON result</li>", json_array_size(json_object_get(row,
                                                                                                    "findings")) - i);
                        break;
                }
                lit(w, "<li>");
                esc(w, sget(f, "digest"));
                if (json_object_get(f, "path") != NULL) {
                        lit(w, " ");
                        esc(w, sget(f, "path"));
                        if (json_object_get(f, "line") != NULL)
                                fmt(w, ":%lld", iget(f, "line"));
                }
                if (json_object_get(f, "status") != NULL) {
                        lit(w, " [");
                        esc(w, sget(f, "status"));
                        lit(w, "]");
                }
                lit(w, "</li>");
        }
        lit(w, "</ul></details>");
}

static void assertion(struct w *w, size_t idx, const json_t *row)
{
        const char *st = state_class(sget(row, "state"));
        const json_t *rep = json_object_get(row, "reported");

        fmt(w, "<article class=\"assertion s-%s\" id=\"a%zu\" data-state=\"%s\"><h3><span class=\"badge b-%s\">%s"
            "</span> <span class=\"aid\">", st, idx, st, st, st);
        esc(w, sget(row, "id"));
        lit(w, "</span> ");
        esc(w, sget(row, "title"));
        lit(w, " <span class=\"sev\">severity ");
        esc(w, sget(row, "severity"));
        lit(w, ", control ");
        esc(w, sget(row, "control"));
        lit(w, "</span></h3><dl class=\"kv\">");
        kv(w, "reason", sget(row, "reason"), false);
        if (json_is_boolean(rep))
                kv(w, "triage", json_is_true(rep) ? "reported: new or worse than the baseline, not suppressed" :
                                                    "not reported: in the baseline or suppressed", false);
        kv(w, "rationale", sget(row, "rationale"), false);
        kv(w, "remediation", sget(row, "remediation"), false);
        kv(w, "decision rule", sget(row, "decision_rule"), false);
        lit(w, "</dl>");
        /* A pass's evidence is there to check, not to act on: folded, readable without a script. */
        if (strcmp(st, "Pass") == 0)
                fmt(w, "<details><summary>Evidence (%zu)</summary>", json_array_size(json_object_get(row,
                                                                                                "evidence")));
        evidence(w, row);
        if (strcmp(st, "Pass") == 0)
                lit(w, "</details>");
        findings(w, row);
        lit(w, "</article>\n");
}

/* The gaps grouped by class, in the order each class first appears. */
static void gaps(struct w *w, const json_t *run)
{
        const json_t *all = json_object_get(run, "coverage_gaps"), *g, *h;
        size_t i, j;

        fmt(w, "<section id=\"gaps\"><h2>Coverage gaps (%zu)</h2>", json_array_size(all));
        if (json_array_size(all) == 0)
                lit(w, "<p>None: every file prc was asked to judge was analyzed.</p>");
        json_array_foreach(all, i, g) {
                size_t n = 0;
                bool seen = false;
                for (j = 0; j < i && !seen; j++)
                        seen = strcmp(sget(json_array_get(all, j), "class"), sget(g, "class")) == 0;
                if (seen)
                        continue;
                json_array_foreach(all, j, h)
                        n += strcmp(sget(h, "class"), sget(g, "class")) == 0;
                lit(w, "<h3 class=\"mono\">");
                esc(w, sget(g, "class"));
                fmt(w, " (%zu)</h3><table><thead><tr><th>path</th><th>reason</th></tr></thead><tbody>", n);
                json_array_foreach(all, j, h) {
                        if (j < i || strcmp(sget(h, "class"), sget(g, "class")) != 0)
                                continue;
                        row_of(w, h, 1u, (const char *const[]){ "path", "reason", NULL });
                }
                lit(w, "</tbody></table>");
        }
        lit(w, "</section>\n");
}

static void executions(struct w *w, const json_t *run)
{
        const json_t *all = json_object_get(run, "executions"), *x, *e;
        size_t i;

        fmt(w, "<section id=\"executions\"><h2>Adapter executions (%zu)</h2>", json_array_size(all));
        if (json_array_size(all) == 0)
                lit(w, strcmp(sget(run, "mode"), "inspect") == 0 ?
                       "<p>None: inspect mode never launches containers.</p>" : "<p>None.</p>");
        else
                lit(w, "<table><thead><tr><th>adapter</th><th>disposition</th><th>status</th><th>observations</th>"
                       "<th>record ID</th></tr></thead><tbody>");
        json_array_foreach(all, i, x) {
                lit(w, "<tr><td class=\"mono\">");
                esc(w, sget(x, "adapter_id"));
                lit(w, "</td><td>");
                esc(w, sget(x, "disposition"));
                if (json_is_string(json_object_get(x, "error_class"))) {
                        lit(w, " (");
                        esc(w, sget(x, "error_class"));
                        lit(w, ")");
                }
                lit(w, "</td><td>");
                esc(w, sget(x, "summary_status"));
                fmt(w, "</td><td>%zu</td><td class=\"mono\">", json_array_size(json_object_get(x, "observations")));
                esc(w, sget(x, "id"));
                lit(w, "</td></tr>");
        }
        if (json_array_size(all) > 0)
                lit(w, "</tbody></table>");
        if (json_array_size(json_object_get(run, "errors")) > 0) {
                lit(w, "<h3>Errors</h3><table><thead><tr><th>of</th><th>class</th><th>message</th></tr></thead><tbody>");
                json_array_foreach(json_object_get(run, "errors"), i, e) {
                        row_of(w, e, 3u, (const char *const[]){
                                json_object_get(e, "assertion") != NULL ? "assertion" : "adapter", "class", "message",
                                NULL });
                }
                lit(w, "</tbody></table>");
        }
        lit(w, "</section>\n");
}

static void triage(struct w *w, const json_t *run)
{
        const json_t *tr = json_object_get(run, "triage"), *s;
        size_t i;

        if (tr == NULL)
                return;
        fmt(w, "<section id=\"triage\"><h2>Baseline and suppressions</h2><p>%lld assertions reported as new or worse; "
            "the exit status follows them only.</p>", iget(tr, "reported"));
        if (json_array_size(json_object_get(json_object_get(tr, "suppressions"), "entries")) > 0) {
                lit(w, "<table><thead><tr><th>assertion</th><th>finding digest</th><th>status</th><th>expires</th>"
                       "<th>reason</th></tr></thead><tbody>");
                json_array_foreach(json_object_get(json_object_get(tr, "suppressions"), "entries"), i, s) {
                        row_of(w, s, 3u, (const char *const[]){ "assertion", "digest", "status", "expires",
                                                                "reason", NULL });
                }
                lit(w, "</tbody></table>");
        }
        lit(w, "</section>\n");
}

bool prc_html_from_run(const json_t *run, prc_buf *out, prc_err *err)
{
        struct w w = { out, err, true };
        const json_t *rows = json_object_get(run, "assertions"), *row;
        size_t i;

        head(&w, run);
        lit(&w, "<header><h1>prc report</h1><p>Profile <b>");
        esc(&w, sget(run, "profile"));
        lit(&w, "</b>, mode ");
        esc(&w, sget(run, "mode"));
        lit(&w, ". Every part of this page is made from the run result whose ID is below; the JSON result is the "
                "record.</p></header>\n<section id=\"summary\"><h2>Summary</h2>");
        chart(&w, json_object_get(run, "summary"));
        lit(&w, "</section>\n");
        provenance(&w, run);
        triage(&w, run);
        fmt(&w, "<section id=\"assertions\"><h2>Assertions (%zu)</h2>", json_array_size(rows));
        lit(&w, "<form id=\"filters\" hidden><b>Show:</b> ");
        for (size_t k = 0; k < 5; k++)
                fmt(&w, "<label><input type=\"checkbox\" value=\"%s\" checked> %s</label>", states[k], states[k]);
        lit(&w, "</form>\n");
        json_array_foreach(rows, i, row)
                assertion(&w, i, row);
        lit(&w, "</section>\n");
        gaps(&w, run);
        executions(&w, run);
        lit(&w, "<footer class=\"muted\"><p>prc ");
        esc(&w, sget(run, "prc_version"));
        lit(&w, ", result ");
        esc(&w, sget(run, "id"));
        lit(&w, ".</p></footer>\n<script>");
        lit(&w, script);
        lit(&w, "</script>\n</body>\n</html>\n");
        return w.ok;
}
