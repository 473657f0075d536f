/*
 * builtin.c - built-in analyses (see builtin.h).
 * Trust: engine-side.  Reads target bytes only as magic numbers and
 * license phrases; never interprets a format.
 */
#include "engine/builtin.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "engine/catalog.h"
#include "engine/policy.h"

enum {
        LICENSE_READ_MAX = 64u << 10,   /* license texts are a few KiB; the head identifies them */
        MAGIC_READ_MAX = 4096,          /* enough for a PE header offset check */
        LOCATIONS_MAX = 1000,           /* bounds the result; the count is kept in the message */
};

static const char *const builtin_ids[] = {
        "readme", "license", "security-policy", "manifests", "binaries", "oversized",
};

/* One line each, in builtin_ids order: what `prc explain` says the analysis reads and reports. */
static const char *const builtin_docs[] = {
        "a non-empty README (README.md, .rst, .txt or bare) at the root: found, or not_found",
        "a LICENSE or COPYING file at the root whose text or SPDX-License-Identifier line names a recognized "
        "SPDX identifier: value {spdx, path}; unsupported when unrecognized; not_found when absent",
        "a non-empty SECURITY.md at the root, in .github/ or in docs/: found, or not_found",
        "every recognized manifest parsed and extracted in the sandboxed content worker: found lists each "
        "coverage gap with its refusal class; not_found when there is none",
        "executables by magic bytes (ELF, PE, Mach-O) anywhere in the tree: found lists each with its format",
        "files above the analysis size limit (10 MiB), which no analysis reads: found lists each",
};

bool prc_builtin_known(const char *id)
{
        if (prc_analysis_find(id) != NULL)
                return true;    /* the analysis framework's table (src/analysis/registry.c) */
        for (size_t i = 0; i < PRC_ARRAY_LEN(builtin_ids); i++)
                if (strcmp(builtin_ids[i], id) == 0)
                        return true;
        return false;
}

const char *prc_builtin_doc(const char *id)
{
        const prc_analysis *a = prc_analysis_find(id);

        if (a != NULL)
                return a->doc;
        for (size_t i = 0; i < PRC_ARRAY_LEN(builtin_ids); i++)
                if (strcmp(builtin_ids[i], id) == 0)
                        return builtin_docs[i];
        return NULL;
}

/* Case-insensitive: does name equal stem, or stem followed by '.' and an extension? */
static bool stem_match(const char *name, const char *stem)
{
        size_t n = strlen(stem);

        if (strncasecmp(name, stem, n) != 0)
                return false;
        return name[n] == '\0' || (name[n] == '.' && strchr(name + n + 1, '/') == NULL && name[n + 1] != '\0');
}

static bool at_root(const char *path)
{
        return strchr(path, '/') == NULL;
}

static json_t *loc(const char *path)
{
        return json_pack("{s:s}", "path", path);
}

static bool add1(prc_obs_list *out, const char *analysis, unsigned outcome, json_t *value, json_t *locs,
                 const char *msg, prc_err *err)
{
        char src[96], id[160];

        snprintf(src, sizeof(src), "builtin:%s", analysis);
        snprintf(id, sizeof(id), "builtin.%s.%zu", analysis, out->n);
        return prc_obs_add(out, src, analysis, id, outcome, value, locs, msg, err);
}

static bool find_root_file(const prc_target_view *tv, const char *const *stems, size_t nstems, size_t *out)
{
        for (size_t s = 0; s < nstems; s++)
                for (size_t i = 0; i < tv->nfiles; i++)
                        if (!tv->files[i].symlink && at_root(tv->files[i].path) &&
                            stem_match(tv->files[i].path, stems[s])) {
                                *out = i;
                                return true;
                        }
        return false;
}

static bool run_readme(const prc_target_view *tv, prc_obs_list *out, prc_err *err)
{
        static const char *const stems[] = { "README" };
        size_t i;

        if (find_root_file(tv, stems, 1, &i)) {
                if (tv->files[i].size == 0)
                        return add1(out, "readme", PRC_OUT_UNSUPPORTED, NULL, json_pack("[o]", loc(tv->files[i].path)),
                                    "the README is empty", err);
                return add1(out, "readme", PRC_OUT_FOUND, NULL, json_pack("[o]", loc(tv->files[i].path)),
                            "README present", err);
        }
        return add1(out, "readme", PRC_OUT_NOT_FOUND, NULL, NULL, "no README at the root of the tree", err);
}

static bool run_security(const prc_target_view *tv, prc_obs_list *out, prc_err *err)
{
        /* GitHub's documented locations for a security policy. */
        static const char *const dirs[] = { "", ".github/", "docs/" };

        for (size_t d = 0; d < PRC_ARRAY_LEN(dirs); d++) {
                size_t dl = strlen(dirs[d]);
                for (size_t i = 0; i < tv->nfiles; i++) {
                        const char *p = tv->files[i].path;
                        if (tv->files[i].symlink || strncmp(p, dirs[d], dl) != 0 || !at_root(p + dl) ||
                            !stem_match(p + dl, "SECURITY"))
                                continue;
                        if (tv->files[i].size == 0)
                                return add1(out, "security-policy", PRC_OUT_UNSUPPORTED, NULL,
                                            json_pack("[o]", loc(p)), "the security policy is empty", err);
                        return add1(out, "security-policy", PRC_OUT_FOUND, NULL, json_pack("[o]", loc(p)),
                                    "security policy present", err);
                }
        }
        return add1(out, "security-policy", PRC_OUT_NOT_FOUND, NULL, NULL,
                    "no SECURITY file at the root, in .github/ or in docs/", err);
}

static const uint8_t *find_ci(const uint8_t *h, size_t n, const char *needle)
{
        size_t m = strlen(needle);

        if (m == 0 || n < m)
                return NULL;
        for (size_t i = 0; i + m <= n; i++) {
                size_t k = 0;
                while (k < m && tolower(h[i + k]) == tolower((unsigned char)needle[k]))
                        k++;
                if (k == m)
                        return h + i;
        }
        return NULL;
}

/* SPDX identifiers prc recognizes in an SPDX-License-Identifier line or by their text. */
static const char *const spdx_ids[] = {
        "0BSD", "AGPL-3.0-only", "AGPL-3.0-or-later", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause",
        "BSL-1.0", "CC0-1.0", "EPL-2.0", "GPL-2.0-only", "GPL-2.0-or-later", "GPL-3.0-only",
        "GPL-3.0-or-later", "ISC", "LGPL-2.1-only", "LGPL-2.1-or-later", "LGPL-3.0-only",
        "LGPL-3.0-or-later", "MIT", "MPL-2.0", "Unlicense", "Zlib",
};

const char *prc_builtin_spdx(const uint8_t *text, size_t n)
{
        static const struct {
                const char *id;
                const char *a, *b, *not;
        } texts[] = {
                /* Ordered so that the more specific text wins. */
                { "AGPL-3.0-only", "GNU AFFERO GENERAL PUBLIC LICENSE", "Version 3", NULL },
                { "LGPL-3.0-only", "GNU LESSER GENERAL PUBLIC LICENSE", "Version 3", NULL },
                { "LGPL-2.1-only", "GNU LESSER GENERAL PUBLIC LICENSE", "Version 2.1", NULL },
                { "GPL-3.0-only", "GNU GENERAL PUBLIC LICENSE", "Version 3", NULL },
                { "GPL-2.0-only", "GNU GENERAL PUBLIC LICENSE", "Version 2", NULL },
                { "Apache-2.0", "Apache License", "Version 2.0", NULL },
                { "MPL-2.0", "Mozilla Public License Version 2.0", "", NULL },
                { "MIT", "Permission is hereby granted, free of charge", "THE SOFTWARE IS PROVIDED \"AS IS\"", NULL },
                { "BSD-3-Clause", "Redistribution and use in source and binary forms", "Neither the name", NULL },
                { "BSD-2-Clause", "Redistribution and use in source and binary forms", "THIS SOFTWARE IS PROVIDED",
                  "Neither the name" },
                { "ISC", "Permission to use, copy, modify, and", "distribute this software for any", NULL },
                { "Unlicense", "This is free and unencumbered software released into the public domain", "", NULL },
                { "BSL-1.0", "Boost Software License - Version 1.0", "", NULL },
                { "CC0-1.0", "CC0 1.0 Universal", "", NULL },
                { "Zlib", "This software is provided 'as-is', without any express or implied", "Altered source versions",
                  NULL },
        };
        const uint8_t *tag = find_ci(text, n, "SPDX-License-Identifier:");

        if (tag != NULL) {
                const uint8_t *p = tag + strlen("SPDX-License-Identifier:"), *end = text + n;
                char id[64];
                size_t k = 0;

                while (p < end && (*p == ' ' || *p == '\t'))
                        p++;
                while (p < end && k + 1 < sizeof(id) && (isalnum(*p) || *p == '-' || *p == '.' || *p == '+'))
                        id[k++] = (char)*p++;
                id[k] = '\0';
                for (size_t i = 0; i < PRC_ARRAY_LEN(spdx_ids); i++)
                        if (strcmp(spdx_ids[i], id) == 0)
                                return spdx_ids[i];
                return NULL;    /* a tag we cannot confirm is not a recognition */
        }
        for (size_t i = 0; i < PRC_ARRAY_LEN(texts); i++) {
                if (find_ci(text, n, texts[i].a) == NULL)
                        continue;
                if (texts[i].b[0] != '\0' && find_ci(text, n, texts[i].b) == NULL)
                        continue;
                if (texts[i].not != NULL && find_ci(text, n, texts[i].not) != NULL)
                        continue;
                return texts[i].id;
        }
        return NULL;
}

static bool run_license(const prc_target_view *tv, prc_obs_list *out, prc_err *err)
{
        static const char *const stems[] = { "LICENSE", "LICENCE", "COPYING", "UNLICENSE" };
        char msg[256];
        prc_buf b;
        size_t i;
        const char *id;
        bool ok;

        if (!find_root_file(tv, stems, PRC_ARRAY_LEN(stems), &i))
                return add1(out, "license", PRC_OUT_NOT_FOUND, NULL, NULL, "no license file at the root", err);
        prc_buf_init(&b, LICENSE_READ_MAX);
        if (!tv->read(tv->ctx, i, LICENSE_READ_MAX, &b, err)) {
                prc_buf_clear(&b);
                return false;
        }
        id = prc_builtin_spdx(b.data ? b.data : (const uint8_t *)"", b.len);
        prc_buf_clear(&b);
        if (id == NULL)
                return add1(out, "license", PRC_OUT_UNSUPPORTED, NULL, json_pack("[o]", loc(tv->files[i].path)),
                            "license file present but its SPDX identifier is not recognized", err);
        snprintf(msg, sizeof(msg), "license %s recognized in %s", id, tv->files[i].path);
        ok = add1(out, "license", PRC_OUT_VALUE, json_pack("{s:s,s:s}", "spdx", id, "path", tv->files[i].path),
                  json_pack("[o]", loc(tv->files[i].path)), msg, err);
        return ok;
}

static bool run_manifests(const prc_target_view *tv, prc_obs_list *out, prc_err *err)
{
        json_t *locs;
        char msg[256];

        if (tv->ngaps == 0) {
                snprintf(msg, sizeof(msg), "%zu recognized manifests parsed without a coverage gap", tv->nmanifests);
                return add1(out, "manifests", PRC_OUT_NOT_FOUND, NULL, NULL, msg, err);
        }
        locs = json_array();
        for (size_t i = 0; locs != NULL && i < tv->ngaps && i < LOCATIONS_MAX; i++)
                json_array_append_new(locs, json_pack("{s:s,s:s}", "path", tv->gaps[i].path, "refusal",
                                                      tv->gaps[i].cls));
        snprintf(msg, sizeof(msg), "%zu of %zu recognized manifests could not be analyzed", tv->ngaps, tv->nmanifests);
        return add1(out, "manifests", PRC_OUT_FOUND, NULL, locs, msg, err);
}

const char *prc_builtin_binary_kind(const uint8_t *p, size_t n)
{
        uint32_t be, le;

        if (n >= 4 && memcmp(p, "\x7f" "ELF", 4) == 0)
                return "elf";
        if (n >= 0x40 && p[0] == 'M' && p[1] == 'Z') {
                /* A PE image has "PE\0\0" at the offset stored at 0x3c; MZ alone is too common in text. */
                uint32_t off = (uint32_t)p[0x3c] | (uint32_t)p[0x3d] << 8 | (uint32_t)p[0x3e] << 16 |
                               (uint32_t)p[0x3f] << 24;
                if (off <= n - 4 && memcmp(p + off, "PE\0\0", 4) == 0)
                        return "pe";
                return NULL;
        }
        if (n < 8)
                return NULL;
        be = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
        le = (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
        if (be == 0xfeedface || be == 0xfeedfacf || le == 0xfeedface || le == 0xfeedfacf)
                return "mach-o";
        if (be == 0xcafebabe) {
                /* Fat Mach-O and Java classes share the magic: a fat header's arch count is small,
                 * a class file's version word is >= 45. */
                uint32_t next = (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 | (uint32_t)p[6] << 8 | p[7];
                if (next > 0 && next < 45)
                        return "mach-o";
        }
        return NULL;
}

static bool run_binaries(const prc_target_view *tv, prc_obs_list *out, prc_err *err)
{
        json_t *locs = json_array();
        size_t hits = 0;
        prc_buf b;
        char msg[256];

        if (locs == NULL)
                return prc_err_oom(err, "binary locations");
        prc_buf_init(&b, MAGIC_READ_MAX);
        for (size_t i = 0; i < tv->nfiles; i++) {
                const char *kind;
                /*
                 * Every regular file, whatever its size (issue 16: a binary above the
                 * analysis ceiling is still a binary); fewer than 4 bytes hold no magic.
                 */
                if (tv->files[i].symlink || tv->files[i].size < 4)
                        continue;
                prc_buf_reset(&b);
                if (!tv->read(tv->ctx, i, MAGIC_READ_MAX, &b, err)) {
                        prc_buf_clear(&b);
                        json_decref(locs);
                        return false;
                }
                kind = prc_builtin_binary_kind(b.data, b.len);
                if (kind == NULL)
                        continue;
                if (++hits <= LOCATIONS_MAX)
                        json_array_append_new(locs, json_pack("{s:s,s:s}", "path", tv->files[i].path, "format", kind));
        }
        prc_buf_clear(&b);
        if (hits == 0) {
                json_decref(locs);
                return add1(out, "binaries", PRC_OUT_NOT_FOUND, NULL, NULL, "no executable binaries in the tree", err);
        }
        snprintf(msg, sizeof(msg), "%zu executable binaries in the tree", hits);
        return add1(out, "binaries", PRC_OUT_FOUND, NULL, locs, msg, err);
}

static bool run_oversized(const prc_target_view *tv, prc_obs_list *out, prc_err *err)
{
        json_t *locs = json_array();
        size_t hits = 0;
        char msg[256];

        if (locs == NULL)
                return prc_err_oom(err, "oversized locations");
        for (size_t i = 0; i < tv->nfiles; i++) {
                if (!tv->files[i].oversized)
                        continue;
                if (++hits <= LOCATIONS_MAX)
                        json_array_append_new(locs, loc(tv->files[i].path));
        }
        if (hits == 0) {
                json_decref(locs);
                return add1(out, "oversized", PRC_OUT_NOT_FOUND, NULL, NULL, "every file is within the analysis size",
                            err);
        }
        snprintf(msg, sizeof(msg), "%zu files above 10 MiB were inventoried but not analyzed", hits);
        return add1(out, "oversized", PRC_OUT_FOUND, NULL, locs, msg, err);
}

bool prc_builtin_run(const char *id, const prc_target_view *tv, prc_obs_list *out, prc_err *err)
{
        if (strcmp(id, "readme") == 0)
                return run_readme(tv, out, err);
        if (strcmp(id, "license") == 0)
                return run_license(tv, out, err);
        if (strcmp(id, "security-policy") == 0)
                return run_security(tv, out, err);
        if (strcmp(id, "manifests") == 0)
                return run_manifests(tv, out, err);
        if (strcmp(id, "binaries") == 0)
                return run_binaries(tv, out, err);
        if (strcmp(id, "oversized") == 0)
                return run_oversized(tv, out, err);
        return prc_err_set(err, PRC_E_UNKNOWN_ANALYSIS, "no built-in analysis '%s'", id);
}
