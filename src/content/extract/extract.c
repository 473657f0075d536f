/*
 * extract.c - the extractor table (extract.h) and lookups.
 * Adding a format is one line here and one file of its family.
 */
#include "content/extract/extract.h"

#include <string.h>

#include "content/extract/cgc_common.h"
#include "content/extract/python.h"

const prc_extractor prc_extractors[] = {
        /* format, ecosystem, kind, match, fn: one line per format, families grouped */
        /* Python (python_*.c) */
        { "pypi-pyproject", "pypi", "manifest", prc_x_py_match_pyproject, prc_x_py_pyproject },
        { "pypi-requirements", "pypi", "manifest", prc_x_py_match_requirements, prc_x_py_requirements },
        { "pypi-setup-cfg", "pypi", "manifest", prc_x_py_match_setup_cfg, prc_x_py_setup_cfg },
        { "pypi-pipfile", "pypi", "manifest", prc_x_py_match_pipfile, prc_x_py_pipfile },
        { "pypi-pipfile-lock", "pypi", "lockfile", prc_x_py_match_pipfile_lock, prc_x_py_pipfile_lock },
        { "pypi-poetry-lock", "pypi", "lockfile", prc_x_py_match_poetry_lock, prc_x_py_poetry_lock },
        { "pypi-uv-lock", "pypi", "lockfile", prc_x_py_match_uv_lock, prc_x_py_uv_lock },
        { "pypi-pdm-lock", "pypi", "lockfile", prc_x_py_match_pdm_lock, prc_x_py_pdm_lock },
        { "pypi-pylock", "pypi", "lockfile", prc_x_py_match_pylock, prc_x_py_pylock },
        { "pypi-pip-conf", "pypi", "registry-config", prc_x_py_match_pip_conf, prc_x_py_pip_conf },
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
