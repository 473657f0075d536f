/*
 * jcs.h - canonical JSON (RFC 8785 JCS, restricted to integers).
 *
 * Keys are sorted by UTF-16 code units, strings use JCS's minimal escaping,
 * no whitespace, integers in [-(2^53-1), 2^53-1]; a float anywhere is an
 * error (records never hold floats).  Every object prc hashes or writes as
 * a record goes through here, so two equal documents have equal bytes.
 */
#ifndef PRC_JCS_H
#define PRC_JCS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/digest.h"

#define PRC_SAFE_INT_MAX 9007199254740991LL     /* 2^53 - 1 */

/* Append the canonical form of v to out.  Errors: not-canonical, buffer-limit, out-of-memory. */
bool prc_jcs_write(const json_t *v, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/*
 * Append the canonical form of object v without the members whose key
 * skip() names (anything but an object is written {}): a document's part,
 * spelled without building a copy.  Errors as prc_jcs_write.
 */
bool prc_jcs_write_without(const json_t *v, bool (*skip)(const char *key), prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/* SHA-256 of the canonical form, as 64 lowercase hex.  Errors as prc_jcs_write. */
bool prc_jcs_digest(const json_t *v, char out[PRC_SHA256_HEX + 1], prc_err *err) PRC_MUST_CHECK;
/*
 * Content ID: the digest of v without its field id_field (v itself is not
 * changed).  Errors as prc_jcs_write.
 */
bool prc_jcs_id(const json_t *v, const char *id_field, char out[PRC_SHA256_HEX + 1], prc_err *err) PRC_MUST_CHECK;
/*
 * Both at once (issue 21: a batch writes every result it identifies): the
 * content ID of v without id_field into id, and to out the canonical form
 * of v with id_field set to that ID, exactly what prc_jcs_write would
 * write after setting it, in one serialization.  v must be an object; it
 * is not changed.  Errors as prc_jcs_write; on failure out is unchanged.
 */
bool prc_jcs_id_write(const json_t *v, const char *id_field, prc_buf *out, char id[PRC_SHA256_HEX + 1],
                      prc_err *err) PRC_MUST_CHECK;
/*
 * Objects whose canonical bytes were already made (by address), so that a
 * document holding them is written without spelling them again: a run
 * result repeats every evidence envelope it identified one by one.  An
 * object in a memo must not change, nor be freed, while the memo is used.
 */
typedef struct prc_jcs_memo prc_jcs_memo;

prc_jcs_memo *prc_jcs_memo_new(void);           /* NULL: out of memory */
void prc_jcs_memo_free(prc_jcs_memo *m);
/*
 * prc_jcs_id of object v, and its bytes kept as prc_jcs_write will spell v
 * once the caller sets id_field to id (which it must do next).  m may be
 * NULL, and past the memo's own limits v is identified without being kept.
 * Errors as prc_jcs_id.
 */
bool prc_jcs_memo_id(prc_jcs_memo *m, const json_t *v, const char *id_field, char id[PRC_SHA256_HEX + 1],
                     prc_err *err) PRC_MUST_CHECK;
/* prc_jcs_id_write, writing the objects in memo (may be NULL) from their kept bytes. */
bool prc_jcs_id_write_memo(const json_t *v, const char *id_field, const prc_jcs_memo *memo, prc_buf *out,
                           char id[PRC_SHA256_HEX + 1], prc_err *err) PRC_MUST_CHECK;
/*
 * The pieces, for writers that spell a fixed-shape document directly
 * (inventory and snapshot listings): a string of n bytes in JCS escaping
 * (not-canonical unless valid UTF-8), and an unsigned integer in the safe
 * range.  Errors as prc_jcs_write.
 */
bool prc_jcs_write_string(const char *s, size_t n, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
bool prc_jcs_write_uint(uint64_t v, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/* Compare two UTF-8 strings by UTF-16 code units (JCS key order); <0, 0, >0. */
int prc_jcs_keycmp(const char *a, size_t alen, const char *b, size_t blen);

#endif
