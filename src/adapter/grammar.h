/*
 * grammar.h - small lexical checks shared by the adapter decoder, the
 * manifest loader and the fixture suite.  Pure functions over bytes; no
 * allocation.  Each returns whether s[0..n) is in the language.
 */
#ifndef PRC_ADAPTER_GRAMMAR_H
#define PRC_ADAPTER_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>

/* Protocol ids and observation kinds: [a-z0-9][a-z0-9._:-]{0,127} (issue 3). */
bool prc_gram_id(const char *s, size_t n);
/* Names of publishers, data dirs, adapter names: [a-z0-9][a-z0-9._-]{0,127}. */
bool prc_gram_name(const char *s, size_t n);
/* A media type: type "/" subtype, RFC 6838 restricted names, then optional ";attr=value" tokens. */
bool prc_gram_media_type(const char *s, size_t n);
/* An explicit registry host: DNS labels with a dot, or "localhost", optional ":port". */
bool prc_gram_registry(const char *s, size_t n);
/* An OCI repository path: lowercase components joined by '/', no tag or digest. */
bool prc_gram_repository(const char *s, size_t n);
/*
 * One immutable release ("8.30.0", "1.51.0", "2024.1-r3"): starts with an
 * alphanumeric, holds a digit, no range operators, wildcards, "x" parts or
 * floating names such as latest or stable.
 */
bool prc_gram_release(const char *s, size_t n);
/* Human text: non-empty, at most max bytes, no C0 control character or DEL (UTF-8 assumed checked). */
bool prc_gram_text(const char *s, size_t n, size_t max);

#endif
