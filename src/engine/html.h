/*
 * html.h - a self-contained static HTML report of a run result (issue 22).
 *
 * One file: inline CSS, an inline SVG chart of the states, a small inline
 * script (filtering by state) admitted by its hash in a Content-Security-
 * Policy of default-src 'none', so the page makes no request to any host
 * and reads the same with JavaScript off.  Every string of the result is
 * HTML-escaped wherever it lands; nothing from the target becomes an
 * attribute name, a URL or markup.  Made from the run result alone.
 */
#ifndef PRC_ENGINE_HTML_H
#define PRC_ENGINE_HTML_H

#include <jansson.h>
#include <stdbool.h>

#include "base/buf.h"
#include "base/err.h"

/* Most evidence locations one assertion shows; the rest are counted, and named in the JSON result. */
#define PRC_HTML_LOCATIONS_MAX 500

/* Append the report of run to out.  Errors: buffer-limit, out-of-memory. */
bool prc_html_from_run(const json_t *run, prc_buf *out, prc_err *err) PRC_MUST_CHECK;

/* Escape s for HTML text and quoted attribute values (& < > " '), appending to out. */
bool prc_html_escape(const char *s, prc_buf *out, prc_err *err) PRC_MUST_CHECK;

#endif
