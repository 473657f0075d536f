/*
 * authority.c - evaluator-authority and self-trust word lists (see authority.h).
 * Trust: reads hostile keys; bounded by the caller's already-parsed tree.
 */
#include "adapter/authority.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Each list is in its folded form (lowercase, no separators).  The first
 * list is the word list plus the obvious inflections an attacker
 * would try next; the second names every way a manifest could call itself
 * trusted.  Neither set contains a field the protocol or manifest defines.
 */
static const char *const evaluator_words[] = {
        "allow", "allowed", "allowlist", "allowlisted", "assertion", "assertions", "assess",
        "assessment", "assessments", "baseline", "compliance", "compliant", "control",
        "controls", "decision", "decisions", "exempt", "exemption", "fail", "failed", "failing",
        "fails", "ignore", "ignored", "override", "pass", "passed", "passes", "passing",
        "policies", "policy", "result", "results", "severityoverride", "status", "suppress",
        "suppressed", "suppression", "suppressions", "verdict", "verdicts", "waive", "waived",
        "waiver", "waivers", "whitelist", "whitelisted",
};

static const char *const trust_words[] = {
        "approved", "certified", "endorsed", "firstparty", "firstpartysandboxed", "grant",
        "granted", "official", "privileged", "registrytrust", "reviewed", "signature",
        "signatures", "signed", "signer", "trust", "trusted", "trustlevel", "verification",
        "verified", "verifiedcommunity",
};

/* Outcome or status values that are an assessment, not an observation. */
static const char *const value_words[] = {
        "accepted", "allowed", "allowlisted", "approved", "blocked", "compliant", "conflicting",
        "fail", "failed", "failing", "failure", "ignored", "noncompliant", "ok", "pass",
        "passed", "passing", "rejected", "succeeded", "success", "suppressed", "unknown",
        "violated", "violation", "waived",
};

/* Fold into out (cap bytes); false when the folded form cannot fit (no word is that long). */
static bool fold(const char *s, size_t len, char *out, size_t cap)
{
        size_t n = 0;

        for (size_t i = 0; i < len; i++) {
                unsigned char c = (unsigned char)s[i];
                if (c == '_' || c == '-' || c == '.' || c == ' ')
                        continue;
                if (n + 1 >= cap)
                        return false;
                out[n++] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
        }
        out[n] = '\0';
        return true;
}

static int cmp(const void *key, const void *elem)
{
        return strcmp(key, *(const char *const *)elem);
}

/* The lists are sorted (a unit test checks): every key of every message comes through here. */
static const char *find(const char *folded, const char *const *list, size_t n)
{
        const char *const *w = bsearch(folded, list, n, sizeof(*list), cmp);

        return w ? *w : NULL;
}

/*
 * A 4096-bit filter over the folded key words, so the common key ("id",
 * "path", "start_line") is dismissed with one hash instead of two binary
 * searches.  Built once; a hit is always confirmed by the search.
 */
static uint64_t filter[64];
static pthread_once_t filter_once = PTHREAD_ONCE_INIT;

static uint32_t fhash(const char *s)
{
        uint32_t h = 2166136261u;

        for (; *s; s++)
                h = (h ^ (uint8_t)*s) * 16777619u;
        return h & 4095;
}

static void filter_build(void)
{
        for (size_t i = 0; i < PRC_ARRAY_LEN(evaluator_words); i++)
                filter[fhash(evaluator_words[i]) >> 6] |= 1ull << (fhash(evaluator_words[i]) & 63);
        for (size_t i = 0; i < PRC_ARRAY_LEN(trust_words); i++)
                filter[fhash(trust_words[i]) >> 6] |= 1ull << (fhash(trust_words[i]) & 63);
}

const char *prc_authority_key(const char *key, size_t len, unsigned sets)
{
        char f[32];
        const char *w = NULL;
        uint32_t h;

        if (!fold(key, len, f, sizeof(f)))
                return NULL;
        (void)pthread_once(&filter_once, filter_build);
        h = fhash(f);
        if (!(filter[h >> 6] & (1ull << (h & 63))))
                return NULL;
        if (sets & PRC_AUTH_EVALUATOR)
                w = find(f, evaluator_words, sizeof(evaluator_words) / sizeof(evaluator_words[0]));
        if (w == NULL && (sets & PRC_AUTH_TRUST))
                w = find(f, trust_words, sizeof(trust_words) / sizeof(trust_words[0]));
        return w;
}

const char *prc_authority_value(const char *s, size_t len)
{
        char f[32];

        if (!fold(s, len, f, sizeof(f)))
                return NULL;
        return find(f, value_words, sizeof(value_words) / sizeof(value_words[0]));
}

static bool scan(const json_t *v, unsigned sets, bool allow_status, prc_err *err)
{
        if (json_is_object(v)) {
                const char *k;
                size_t klen;
                json_t *e;
                json_object_keylen_foreach((json_t *)v, k, klen, e) {
                        const char *w = prc_authority_key(k, klen, sets);
                        if (w != NULL && !(allow_status && strcmp(k, "status") == 0))
                                return prc_err_set(err, PRC_E_AUTHORITY_CLAIM,
                                                   "a field named '%s' claims %s", w,
                                                   prc_authority_key(k, klen, PRC_AUTH_EVALUATOR)
                                                           ? "evaluator authority" : "trust");
                        if (!scan(e, sets, false, err))
                                return false;
                }
        } else if (json_is_array(v)) {
                size_t i;
                json_t *e;
                json_array_foreach(v, i, e) {
                        if (!scan(e, sets, false, err))
                                return false;
                }
        }
        return true;
}

bool prc_authority_scan(const json_t *v, unsigned sets, bool allow_root_status, prc_err *err)
{
        /* Depth is bounded by the strict reader or YAML loader that built v. */
        return scan(v, sets, allow_root_status, err);
}

static bool list_ok(const char *const *list, size_t n)
{
        char f[32];

        for (size_t i = 0; i < n; i++) {
                if (!fold(list[i], strlen(list[i]), f, sizeof(f)) || strcmp(f, list[i]) != 0)
                        return false;
                if (i > 0 && strcmp(list[i - 1], list[i]) >= 0)
                        return false;
        }
        return true;
}

bool prc_authority_lists_ok(void)
{
        return list_ok(evaluator_words, PRC_ARRAY_LEN(evaluator_words)) &&
               list_ok(trust_words, PRC_ARRAY_LEN(trust_words)) && list_ok(value_words, PRC_ARRAY_LEN(value_words));
}
