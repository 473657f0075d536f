/*
 * test_builtin.c - built-in analyses over a hand-made target view.
 */
#include "t.h"

#include <stdlib.h>

#include "engine/builtin.h"
#include "engine/policy.h"

struct fake {
        const char *const *contents;    /* one per file */
};

static bool fake_read(void *ctx, size_t i, size_t max, prc_buf *out, prc_err *err)
{
        const struct fake *f = ctx;
        size_t n = strlen(f->contents[i]);
        return prc_buf_put(out, f->contents[i], n < max ? n : max, err);
}

/* Run one analysis over files (path, content) pairs; returns the single observation's outcome. */
static unsigned run1(const char *id, const char *const *paths, const char *const *contents, size_t n,
                     prc_obs_list *l)
{
        prc_tfile files[16];
        struct fake f = { contents };
        prc_target_view tv = { files, n, fake_read, &f, NULL, 0, 0, NULL, NULL };
        prc_err e;

        memset(files, 0, sizeof(files));
        for (size_t i = 0; i < n; i++) {
                files[i].path = paths[i];
                files[i].size = strlen(contents[i]);
                files[i].sha256 = "00";
        }
        prc_err_init(&e);
        if (!prc_builtin_run(id, &tv, l, &e))
                t_fail(__FILE__, __LINE__, "%s failed: %s", id, e.msg);
        T_EQ_INT(l->n, 1);
        return l->items[0].outcome;
}

static void test_builtin__readme_found_missing_empty(void)
{
        static const char *const p1[] = { "README.md", "src/a.c" }, *const c1[] = { "# hi\n", "int x;" };
        static const char *const p2[] = { "docs/README.md" }, *const c2[] = { "# hi\n" };
        static const char *const p3[] = { "README" }, *const c3[] = { "" };
        static const char *const p4[] = { "READMEFIRST.txt" }, *const c4[] = { "x" };
        prc_obs_list l = { 0 };

        T_EQ_INT(run1("readme", p1, c1, 2, &l), PRC_OUT_FOUND);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(l.items[0].locations, 0), "path")), "README.md");
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("readme", p2, c2, 1, &l), PRC_OUT_NOT_FOUND);
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("readme", p3, c3, 1, &l), PRC_OUT_UNSUPPORTED);
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("readme", p4, c4, 1, &l), PRC_OUT_NOT_FOUND);
        prc_obs_list_clear(&l);
}

static void test_builtin__license_spdx_value_or_unsupported(void)
{
        static const char *const p[] = { "LICENSE" };
        static const char *const mit[] = { "MIT License\n\nPermission is hereby granted, free of charge, to any "
                                           "person ...\nTHE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY" };
        static const char *const tag[] = { "SPDX-License-Identifier: Apache-2.0\n" };
        static const char *const badtag[] = { "SPDX-License-Identifier: Made-Up-1.0\n" };
        static const char *const prose[] = { "All rights reserved. Do what you like." };
        static const char *const none_p[] = { "src/LICENSE" };
        prc_obs_list l = { 0 };

        T_EQ_INT(run1("license", p, mit, 1, &l), PRC_OUT_VALUE);
        T_EQ_STR(json_string_value(json_object_get(l.items[0].value, "spdx")), "MIT");
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("license", p, tag, 1, &l), PRC_OUT_VALUE);
        T_EQ_STR(json_string_value(json_object_get(l.items[0].value, "spdx")), "Apache-2.0");
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("license", p, badtag, 1, &l), PRC_OUT_UNSUPPORTED);
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("license", p, prose, 1, &l), PRC_OUT_UNSUPPORTED);
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("license", none_p, prose, 1, &l), PRC_OUT_NOT_FOUND);
        prc_obs_list_clear(&l);
}

static void test_builtin__spdx_texts(void)
{
        static const struct {
                const char *text, *want;
        } rows[] = {
                { "Apache License\n Version 2.0, January 2004", "Apache-2.0" },
                { "GNU GENERAL PUBLIC LICENSE\n Version 3, 29 June 2007", "GPL-3.0-only" },
                { "GNU LESSER GENERAL PUBLIC LICENSE\n Version 2.1, February 1999", "LGPL-2.1-only" },
                { "Redistribution and use in source and binary forms ... Neither the name of", "BSD-3-Clause" },
                { "Redistribution and use in source and binary forms ... THIS SOFTWARE IS PROVIDED", "BSD-2-Clause" },
                { "This is free and unencumbered software released into the public domain.", "Unlicense" },
                { "Mozilla Public License Version 2.0\n==", "MPL-2.0" },
                { "spdx-license-identifier: MIT", "MIT" },
                { "Permission is hereby granted, free of charge (but no warranty clause)", NULL },
                { "", NULL },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(rows); i++) {
                const char *got = prc_builtin_spdx((const uint8_t *)rows[i].text, strlen(rows[i].text));
                if ((got == NULL) != (rows[i].want == NULL) || (got && strcmp(got, rows[i].want) != 0))
                        t_fail(__FILE__, __LINE__, "row %zu: got %s, want %s", i, got ? got : "(none)",
                               rows[i].want ? rows[i].want : "(none)");
        }
}

static void test_builtin__security_policy_locations(void)
{
        static const char *const p1[] = { ".github/SECURITY.md" }, *const c1[] = { "mail us" };
        static const char *const p2[] = { "src/SECURITY.md" }, *const c2[] = { "mail us" };
        static const char *const p3[] = { "docs/security.rst" }, *const c3[] = { "mail us" };
        prc_obs_list l = { 0 };

        T_EQ_INT(run1("security-policy", p1, c1, 1, &l), PRC_OUT_FOUND);
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("security-policy", p2, c2, 1, &l), PRC_OUT_NOT_FOUND);
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("security-policy", p3, c3, 1, &l), PRC_OUT_FOUND);
        prc_obs_list_clear(&l);
}

static void test_builtin__binary_magic(void)
{
        uint8_t pe[0x80] = { 'M', 'Z' };
        uint8_t mz_text[0x80] = { 'M', 'Z' };
        static const uint8_t java[] = { 0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x34 };
        static const uint8_t fat[] = { 0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x02 };
        static const uint8_t macho64[] = { 0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1 };

        pe[0x3c] = 0x40;
        memcpy(pe + 0x40, "PE\0\0", 4);
        memset(mz_text + 2, 'a', sizeof(mz_text) - 2);
        T_EQ_STR(prc_builtin_binary_kind((const uint8_t *)"\x7f" "ELF\2\1\1", 7), "elf");
        T_EQ_STR(prc_builtin_binary_kind(pe, sizeof(pe)), "pe");
        T_ASSERT(prc_builtin_binary_kind(mz_text, sizeof(mz_text)) == NULL);
        T_ASSERT(prc_builtin_binary_kind(java, sizeof(java)) == NULL);
        T_EQ_STR(prc_builtin_binary_kind(fat, sizeof(fat)), "mach-o");
        T_EQ_STR(prc_builtin_binary_kind(macho64, sizeof(macho64)), "mach-o");
        T_ASSERT(prc_builtin_binary_kind((const uint8_t *)"#!/bin/sh\n", 10) == NULL);
}

static void test_builtin__binaries_found_and_clean(void)
{
        static const char *const p[] = { "bin/tool", "src/a.c" };
        static const char *const c[] = { "\x7f" "ELF\2\1\1\0\0\0", "int main(void){}" };
        static const char *const c2[] = { "#!/bin/sh\necho hi\n", "int main(void){}" };
        prc_obs_list l = { 0 };

        T_EQ_INT(run1("binaries", p, c, 2, &l), PRC_OUT_FOUND);
        T_EQ_INT(json_array_size(l.items[0].locations), 1);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(l.items[0].locations, 0), "format")), "elf");
        prc_obs_list_clear(&l);
        T_EQ_INT(run1("binaries", p, c2, 2, &l), PRC_OUT_NOT_FOUND);
        T_EQ_STR(l.items[0].message, "no executable binaries in the tree");
        prc_obs_list_clear(&l);
}

/* Issue 16: a binary above the 10 MiB analysis ceiling is read (its head) and reported like any other. */
static void test_builtin__binaries_reads_oversized_files(void)
{
        static const char *const c[] = { "\x7f" "ELF\2\1\1\0\0\0" };
        prc_tfile files[1] = { { "big/tool", (11u << 20), "00", true, true, false } };
        struct fake f = { c };
        prc_target_view tv = { files, 1, fake_read, &f, NULL, 0, 0, NULL, NULL };
        prc_obs_list l = { 0 };
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_builtin_run("binaries", &tv, &l, &e));
        T_EQ_INT(l.items[0].outcome, PRC_OUT_FOUND);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(l.items[0].locations, 0), "path")), "big/tool");
        T_EQ_STR(l.items[0].message, "1 executable binaries in the tree");
        prc_obs_list_clear(&l);
}

static void test_builtin__manifests_and_oversized(void)
{
        prc_tfile files[2] = { { "a.json", 5, "00", false, false, false }, { "big.bin", 11u << 20, "00", false, true, false } };
        prc_gap gap = { "a.json", "invalid-json", "bad", 0 };
        prc_target_view tv = { files, 2, NULL, NULL, &gap, 1, 1, NULL, NULL };
        prc_obs_list l = { 0 };
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_builtin_run("manifests", &tv, &l, &e));
        T_EQ_INT(l.items[0].outcome, PRC_OUT_FOUND);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(l.items[0].locations, 0), "refusal")), "invalid-json");
        T_ASSERT(prc_builtin_run("oversized", &tv, &l, &e));
        T_EQ_INT(l.items[1].outcome, PRC_OUT_FOUND);
        tv.ngaps = 0;
        files[1].oversized = false;
        T_ASSERT(prc_builtin_run("manifests", &tv, &l, &e));
        T_ASSERT(prc_builtin_run("oversized", &tv, &l, &e));
        T_EQ_INT(l.items[2].outcome, PRC_OUT_NOT_FOUND);
        T_EQ_INT(l.items[3].outcome, PRC_OUT_NOT_FOUND);
        T_ASSERT(!prc_builtin_run("no-such", &tv, &l, &e));
        T_ERR(e, PRC_E_UNKNOWN_ANALYSIS);
        prc_obs_list_clear(&l);
}

static const prc_test tests[] = {
        T(test_builtin__readme_found_missing_empty),
        T(test_builtin__license_spdx_value_or_unsupported),
        T(test_builtin__spdx_texts),
        T(test_builtin__security_policy_locations),
        T(test_builtin__binary_magic),
        T(test_builtin__binaries_found_and_clean),
        T(test_builtin__binaries_reads_oversized_files),
        T(test_builtin__manifests_and_oversized),
};
PRC_SUITE(builtin, tests)
