/*
 * extract.c - the extractor table (extract.h) and lookups.
 * Adding a format is one line here and one file of its family.
 */
#include "content/extract/extract.h"

#include "content/extract/cgc_common.h"

#include <string.h>

const prc_extractor prc_extractors[] = {
        /* format, ecosystem, kind, match, fn: one line per format, families grouped */
        /* Rust, Go, PHP (cargo.c, golang.c, composer.c) */
        { "cargo-toml", "cargo", "manifest", prc_x_cgc_match_cargo_toml, prc_x_cargo_toml },
        { "cargo-lock", "cargo", "lockfile", prc_x_cgc_match_cargo_lock, prc_x_cargo_lock },
        { "go-mod", "golang", "manifest", prc_x_cgc_match_go_mod, prc_x_go_mod },
        { "go-sum", "golang", "lockfile", prc_x_cgc_match_go_sum, prc_x_go_sum },
        { "go-work", "golang", "manifest", prc_x_cgc_match_go_work, prc_x_go_work },
        { "composer-json", "composer", "manifest", prc_x_cgc_match_composer_json, prc_x_composer_json },
        { "composer-lock", "composer", "lockfile", prc_x_cgc_match_composer_lock, prc_x_composer_lock },
        { NULL, NULL, NULL, NULL, NULL },       /* the end: keep last */
};

const size_t prc_extractor_count = PRC_ARRAY_LEN(prc_extractors) - 1;

const prc_extractor *prc_extractor_by_format(const char *format)
{
        for (size_t i = 0; i < prc_extractor_count; i++)
                if (strcmp(prc_extractors[i].format, format) == 0)
                        return &prc_extractors[i];
        return NULL;
}

const prc_extractor *prc_extractor_for_path(const char *path)
{
        const char *base = strrchr(path, '/');

        base = base != NULL ? base + 1 : path;
        for (size_t i = 0; i < prc_extractor_count; i++)
                if (prc_extractors[i].match(path, base))
                        return &prc_extractors[i];
        return NULL;
}
