/*
 * gitleaks.c - prc-adapter-gitleaks-json-v1 normalizer and ruleset check
 * (issue 10; seed 000; FORMATS.md section 1).
 * Trust: the report is hostile.  It is decoded strictly (duplicates,
 * unknown keys, depth and counts refused) and only the rule id and the
 * normalized location of each finding survive; the redacted report itself
 * is represented by its size and SHA-256 only.
 */
#include "adapter/native/gitleaks.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/libarchive.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/path.h"

#define S PRC_JT_STRING
#define I PRC_JT_INT

/* The exact 18 keys of a dir-mode finding (Link only appears in git mode). */
static const prc_field finding_fields[] = {
        { "RuleID", S, true }, { "Description", S, true }, { "StartLine", I, true }, { "EndLine", I, true },
        { "StartColumn", I, true }, { "EndColumn", I, true }, { "Match", S, true }, { "Secret", S, true },
        { "File", S, true }, { "SymlinkFile", S, true }, { "Commit", S, true }, { "Entropy", PRC_NT_NUMBER, true },
        { "Author", S, true }, { "Email", S, true }, { "Date", S, true }, { "Message", S, true },
        { "Tags", PRC_JT_ARRAY, true }, { "Fingerprint", S, true },
};

static bool ruleset_fail(prc_err *err, const char *what)
{
        return prc_err_set(err, PRC_E_NATIVE_RULESET_MISMATCH, "gitleaks ruleset: %s (`prc setup native` stores the "
                           "pinned form)", what);
}

bool prc_gitleaks_ruleset_check(const uint8_t *gz, size_t n, prc_buf *out, prc_err *err)
{
        char hex[PRC_SHA256_HEX + 1];
        struct archive *a = NULL;
        struct archive_entry *ent;
        prc_buf tmp;
        uint8_t chunk[16384];
        bool ok = false;

        if (n != PRC_GITLEAKS_RULESET_GZ_SIZE)
                return ruleset_fail(err, "gzip form has the wrong byte size");
        if (!prc_sha256_hex_once(gz, n, hex, err))
                return false;
        if (strcmp(hex, PRC_GITLEAKS_RULESET_GZ_SHA256) != 0)
                return ruleset_fail(err, "gzip form has the wrong sha256");
        if (prc_libarchive_load(err) == NULL)
                return false;
        /* one byte over the pinned size proves the stream is longer than it should be */
        prc_buf_init(&tmp, PRC_GITLEAKS_RULESET_SIZE + 1);
        a = prc_la->read_new();
        if (a == NULL) {
                prc_err_oom(err, "archive reader");
                goto out;
        }
        if (prc_la->read_support_filter_gzip(a) != ARCHIVE_OK || prc_la->read_support_format_raw(a) != ARCHIVE_OK ||
            prc_la->read_open_memory(a, gz, n) != ARCHIVE_OK || prc_la->read_next_header(a, &ent) != ARCHIVE_OK) {
                ruleset_fail(err, "gzip form does not decompress");
                goto out;
        }
        for (;;) {
                la_ssize_t r = prc_la->read_data(a, chunk, sizeof(chunk));
                if (r < 0) {
                        ruleset_fail(err, "gzip form does not decompress");
                        goto out;
                }
                if (r == 0)
                        break;
                if (tmp.len + (size_t)r > PRC_GITLEAKS_RULESET_SIZE) {
                        ruleset_fail(err, "decompressed form is longer than pinned");
                        goto out;
                }
                if (!prc_buf_put(&tmp, chunk, (size_t)r, err))
                        goto out;
        }
        if (tmp.len != PRC_GITLEAKS_RULESET_SIZE) {
                ruleset_fail(err, "decompressed form has the wrong byte size");
                goto out;
        }
        if (!prc_sha256_hex_once(tmp.data, tmp.len, hex, err))
                goto out;
        if (strcmp(hex, PRC_GITLEAKS_RULESET_SHA256) != 0) {
                ruleset_fail(err, "decompressed form has the wrong sha256");
                goto out;
        }
        ok = prc_buf_put(out, tmp.data, tmp.len, err);
out:
        if (a != NULL)
                prc_la->read_free(a);
        prc_buf_clear(&tmp);
        return ok;
}

bool prc_gitleaks_ruleset_load(const char *gz_path, prc_buf *out, prc_err *err)
{
        prc_buf gz;
        bool ok;

        prc_buf_init(&gz, 1u << 20);
        /* Named by its role: the message can reach a run result, the path cannot (issue 16). */
        ok = prc_file_read_as(gz_path, "the Gitleaks ruleset", 1u << 20, PRC_FILE_NOFOLLOW, &gz, err) &&
             prc_gitleaks_ruleset_check(gz.data, gz.len, out, err);
        if (!ok && err->file[0] == '\0')
                prc_err_set_file(err, gz_path);
        prc_buf_clear(&gz);
        return ok;
}

json_t *prc_gitleaks_rule_ids(const uint8_t *toml, size_t n)
{
        static const char pre[] = "id = \"";
        json_t *o = json_object();
        size_t i = 0;

        while (o != NULL && i < n) {
                const uint8_t *nl = memchr(toml + i, '\n', n - i);
                size_t end = nl ? (size_t)(nl - toml) : n, len = end - i;
                if (len > sizeof(pre) && memcmp(toml + i, pre, sizeof(pre) - 1) == 0 && toml[end - 1] == '"') {
                        char id[160];
                        size_t k = len - sizeof(pre);   /* between the quotes */
                        if (k > 0 && k < sizeof(id)) {
                                memcpy(id, toml + i + sizeof(pre) - 1, k);
                                id[k] = '\0';
                                if (json_object_set_new(o, id, json_true()) != 0) {
                                        json_decref(o);
                                        return NULL;
                                }
                        }
                }
                i = end + 1;
        }
        return o;
}

static bool at(prc_err *err, prc_errclass c, size_t idx, const char *key, const char *msg)
{
        char ptr[128] = "";

        prc_jptr_index(ptr, sizeof(ptr), idx);
        if (key != NULL)
                prc_jptr_push(ptr, sizeof(ptr), key);
        prc_err_set(err, c, "finding %zu: %s", idx, msg);
        prc_err_set_ptr(err, ptr);
        return false;
}

/* Go's strings.ReplaceAll(s, "", r): r before every UTF-8 sequence and at the end. */
static bool interleaved(const char *match, const char *s, const char *r)
{
        size_t rl = strlen(r);

        for (;;) {
                size_t k = 1;
                if (strncmp(match, r, rl) != 0)
                        return false;
                match += rl;
                if (*s == '\0')
                        return *match == '\0';
                while ((((unsigned char)s[k]) & 0xC0) == 0x80)
                        k++;
                if (strncmp(match, s, k) != 0)
                        return false;
                match += k;
                s += k;
        }
}

static const char *str(const json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

static int64_t num(const json_t *o, const char *k)
{
        return json_integer_value(json_object_get(o, k));
}

/* Rule ids of the default config are kebab-case; anything else is not one of its rules. */
static bool rule_id_ok(const char *id)
{
        size_t i, n = strlen(id);

        if (n == 0 || n > 128)
                return false;
        for (i = 0; i < n; i++) {
                char c = id[i];
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_' || c == '.'))
                        return false;
        }
        return true;
}

/* One finding -> a normalized {rule_id, path, coordinates} object (new reference). */
static json_t *one(const json_t *f, size_t idx, const prc_native_ctx *ctx, prc_err *err)
{
        static const char *const history[] = { "Commit", "Author", "Email", "Date", "Message" };
        static const char prefix[] = PRC_NATIVE_SNAPSHOT_MOUNT "/";
        const char *file, *rule, *rel, *mapped;
        int64_t sl, el, sc, ec;
        const json_t *ent, *tags, *t;
        double e;
        size_t i;
        char fp[PRC_PATH_MAX + 256];
        prc_err perr;
        json_t *o;

        if (!json_is_object(f))
                return at(err, PRC_E_NOT_AN_OBJECT, idx, NULL, "not an object"), NULL;
        if (json_object_get(f, "Link") != NULL)
                return at(err, PRC_E_NATIVE_HISTORY_METADATA, idx, "Link", "git-mode link metadata"), NULL;
        {
                char ptr[32] = "";
                prc_jptr_index(ptr, sizeof(ptr), idx);
                if (!prc_native_fields(f, ptr, finding_fields, PRC_ARRAY_LEN(finding_fields), err))
                        return NULL;
        }
        for (i = 0; i < PRC_ARRAY_LEN(history); i++)
                if (str(f, history[i])[0] != '\0')
                        return at(err, PRC_E_NATIVE_HISTORY_METADATA, idx, history[i],
                                  "history metadata in a current-tree scan"), NULL;
        if (str(f, "SymlinkFile")[0] != '\0')
                return at(err, PRC_E_NATIVE_SYMLINK_METADATA, idx, "SymlinkFile", "reached through a symlink"), NULL;
        rule = str(f, "RuleID");
        if (!rule_id_ok(rule) || (ctx->rule_ids != NULL && json_object_get(ctx->rule_ids, rule) == NULL))
                return at(err, PRC_E_INVALID_VALUE, idx, "RuleID", "not a rule of the pinned ruleset"), NULL;
        ent = json_object_get(f, "Entropy");
        if (!json_is_number(ent))
                return at(err, PRC_E_WRONG_TYPE, idx, "Entropy", "not a number"), NULL;
        e = json_number_value(ent);
        if (!(e >= 0.0 && e <= 8.0))   /* Shannon entropy of bytes is within [0, 8] */
                return at(err, PRC_E_UNSAFE_NUMBER, idx, "Entropy", "outside [0, 8]"), NULL;
        tags = json_object_get(f, "Tags");
        json_array_foreach(tags, i, t) {
                if (!json_is_string(t))
                        return at(err, PRC_E_WRONG_TYPE, idx, "Tags", "a tag is not a string"), NULL;
                if (strncmp(json_string_value(t), "decoded:", 8) == 0 ||
                    strncmp(json_string_value(t), "decode-depth:", 13) == 0)
                        return at(err, PRC_E_INVALID_VALUE, idx, "Tags", "a decoded finding; decoding is off"), NULL;
        }
        sl = num(f, "StartLine");
        el = num(f, "EndLine");
        sc = num(f, "StartColumn");
        ec = num(f, "EndColumn");
        file = str(f, "File");
        if (sl == 0) {
                /* path-only rule: all four zero, empty secret redacted, interleaved match */
                if (el != 0 || sc != 0 || ec != 0)
                        return at(err, PRC_E_INVALID_LOCATION, idx, "StartLine", "mixed zero coordinates"), NULL;
                if (strcmp(str(f, "Secret"), "REDACTED") != 0)
                        return at(err, PRC_E_NATIVE_UNREDACTED, idx, "Secret", "secret is not REDACTED"), NULL;
                {
                        size_t ml = strlen("file detected: ") + strlen(file);
                        char *m = malloc(ml + 1);
                        bool ok;
                        if (m == NULL)
                                return prc_err_oom(err, "finding"), NULL;
                        snprintf(m, ml + 1, "file detected: %s", file);
                        ok = interleaved(str(f, "Match"), m, "REDACTED");
                        free(m);
                        if (!ok)
                                return at(err, PRC_E_NATIVE_UNREDACTED, idx, "Match",
                                          "path-only match is not the redacted path"), NULL;
                }
                if (e != 0.0)
                        return at(err, PRC_E_INVALID_VALUE, idx, "Entropy", "path-only finding with entropy"), NULL;
        } else {
                if (sl < 1 || el < sl || sc < 1 || ec < 1 || (el == sl && ec < sc))
                        return at(err, PRC_E_INVALID_LOCATION, idx, "StartLine", "invalid coordinates"), NULL;
                if (strcmp(str(f, "Secret"), "REDACTED") != 0)
                        return at(err, PRC_E_NATIVE_UNREDACTED, idx, "Secret", "secret is not REDACTED"), NULL;
                if (strstr(str(f, "Match"), "REDACTED") == NULL)
                        return at(err, PRC_E_NATIVE_UNREDACTED, idx, "Match", "match is not redacted"), NULL;
        }
        if (strncmp(file, prefix, sizeof(prefix) - 1) != 0)
                return at(err, PRC_E_NATIVE_PATH_OUTSIDE, idx, "File", "path is not under the snapshot"), NULL;
        rel = file + sizeof(prefix) - 1;
        prc_err_init(&perr);
        if (!prc_path_check_str(rel, &perr))
                return at(err, PRC_E_NATIVE_PATH_OUTSIDE, idx, "File", prc_err_name(perr.cls)), NULL;
        mapped = rel;
        if (strncmp(rel, ".prc/", 5) == 0) {
                if (!ctx->relocated_gitleaksignore || strcmp(rel, PRC_GITLEAKS_RELOCATED) != 0)
                        return at(err, PRC_E_NATIVE_PATH_OUTSIDE, idx, "File", "a scanner-owned path"), NULL;
                mapped = ".gitleaksignore";
        } else if (ctx->relocated_gitleaksignore && strcmp(rel, ".gitleaksignore") == 0) {
                return at(err, PRC_E_NATIVE_PATH_OUTSIDE, idx, "File", "the relocated file at its old path"), NULL;
        }
        if (ctx->paths != NULL && json_object_get(ctx->paths, mapped) == NULL)
                return at(err, PRC_E_NATIVE_PATH_OUTSIDE, idx, "File", "not an inventoried file"), NULL;
        snprintf(fp, sizeof(fp), "%s:%s:%" PRId64, file, rule, sl);
        if (strcmp(fp, str(f, "Fingerprint")) != 0)
                return at(err, PRC_E_NATIVE_FINGERPRINT, idx, "Fingerprint", "not file:rule:start-line"), NULL;
        if (sl == 0)
                o = json_pack("{s:s,s:s}", "rule_id", rule, "path", mapped);
        else
                o = json_pack("{s:s,s:s,s:I,s:I,s:I,s:I}", "rule_id", rule, "path", mapped, "start_line",
                              (json_int_t)sl, "end_line", (json_int_t)el, "start_column", (json_int_t)sc,
                              "end_column", (json_int_t)ec);
        if (o == NULL)
                prc_err_oom(err, "finding");
        return o;
}

bool prc_gitleaks_normalize(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx,
                            prc_native_result *out, prc_err *err)
{
        uint32_t max = ctx->max_items ? ctx->max_items : s->max_items;
        json_t *doc, *findings = NULL, *obs = NULL, *norm = NULL, *f;
        size_t i;
        bool ok = false;

        doc = prc_json_parse(p, n, &prc_native_limits, PRC_JSON_ALLOW_FLOAT, err);
        if (doc == NULL)
                return false;
        if (!json_is_array(doc)) {
                prc_err_set(err, PRC_E_WRONG_TYPE, "a gitleaks JSON report is an array of findings");
                goto out;
        }
        if (json_array_size(doc) > max) {
                prc_err_set(err, PRC_E_NATIVE_COUNT_LIMIT, "%zu findings, more than the cap %" PRIu32,
                            json_array_size(doc), max);
                goto out;
        }
        findings = json_array();
        obs = json_array();
        if (findings == NULL || obs == NULL) {
                prc_err_oom(err, "findings");
                goto out;
        }
        json_array_foreach(doc, i, f) {
                json_t *o = one(f, i, ctx, err);
                if (o == NULL || json_array_append_new(findings, o) != 0) {
                        if (o != NULL)
                                prc_err_oom(err, "findings");
                        goto out;
                }
        }
        if (!prc_native_sort(findings, err))
                goto out;
        if (json_array_size(findings) == 0) {
                if (json_array_append_new(obs, json_pack("{s:s,s:s,s:s}", "id", "gitleaks", "kind", s->kind,
                                                         "outcome", "not_found")) != 0) {
                        prc_err_oom(err, "observation");
                        goto out;
                }
        }
        json_array_foreach(findings, i, f) {
                char id[40];
                json_t *loc = json_deep_copy(f), *o;
                snprintf(id, sizeof(id), "gitleaks.finding:%zu", i + 1);
                if (loc != NULL)
                        json_object_del(loc, "rule_id");
                o = loc == NULL ? NULL
                                : json_pack("{s:s,s:s,s:s,s:O,s:[o]}", "id", id, "kind", s->kind, "outcome", "found",
                                            "rule_id", json_object_get(f, "rule_id"), "locations", loc);
                if (o == NULL || json_array_append_new(obs, o) != 0) {
                        prc_err_oom(err, "observation");
                        goto out;
                }
        }
        norm = json_pack("{s:s,s:{s:s,s:s},s:O}", "schema", "prc.native.gitleaks-findings/v1", "tool", "name",
                         s->tool, "version", s->tool_version, "findings", findings);
        if (norm == NULL) {
                prc_err_oom(err, "artifact");
                goto out;
        }
        ok = prc_native_finish(s, norm, obs, p, n, out, err);
out:
        json_decref(norm);
        json_decref(obs);
        json_decref(findings);
        json_decref(doc);
        return ok;
}
