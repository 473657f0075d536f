/*
 * extract.c - the extractor table (extract.h) and lookups.
 * Adding a format is one line here and one file of its family.
 */
#include "content/extract/extract.h"

#include <string.h>
#include <strings.h>

static bool ends_with(const char *s, const char *suffix)
{
        size_t n = strlen(s), k = strlen(suffix);

        return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* GitHub runs the .yml and .yaml files directly in .github/workflows/ (not in subdirectories). */
static bool match_gha_workflow(const char *path, const char *base)
{
        size_t dl = (size_t)(base - path);

        if (!ends_with(base, ".yml") && !ends_with(base, ".yaml"))
                return false;
        if (dl == 18 && strncmp(path, ".github/workflows/", 18) == 0)
                return true;
        return dl > 19 && strncmp(base - 19, "/.github/workflows/", 19) == 0;
}

static bool match_gha_action(const char *path, const char *base)
{
        (void)path;
        return strcmp(base, "action.yml") == 0 || strcmp(base, "action.yaml") == 0;
}

/* Dockerfile, Containerfile, NAME.Dockerfile, Dockerfile.NAME (not the .dockerignore beside them). */
static bool match_dockerfile(const char *path, const char *base)
{
        (void)path;
        if (ends_with(base, ".dockerignore"))
                return false;
        return strcasecmp(base, "Dockerfile") == 0 || strcasecmp(base, "Containerfile") == 0 ||
               ends_with(base, ".Dockerfile") || ends_with(base, ".dockerfile") ||
               ends_with(base, ".Containerfile") || strncmp(base, "Dockerfile.", 11) == 0 ||
               strncmp(base, "Containerfile.", 14) == 0;
}

#include "content/extract/cgc_common.h"
#include "content/extract/gha.h"
#include "content/extract/mng.h"
#include "content/extract/npm.h"
#include "content/extract/python.h"

static bool base_is(const char *base, const char *name)
{
        return strcmp(base, name) == 0;
}

static bool m_package_json(const char *path, const char *base)
{
        (void)path;
        return base_is(base, "package.json");
}

static bool m_package_lock(const char *path, const char *base)
{
        (void)path;
        return base_is(base, "package-lock.json");
}

static bool m_shrinkwrap(const char *path, const char *base)
{
        (void)path;
        return base_is(base, "npm-shrinkwrap.json");
}

static bool m_yarn_lock(const char *path, const char *base)
{
        (void)path;
        return base_is(base, "yarn.lock");
}

static bool m_pnpm_lock(const char *path, const char *base)
{
        (void)path;
        return base_is(base, "pnpm-lock.yaml");
}

static bool m_npmrc(const char *path, const char *base)
{
        (void)path;
        return base_is(base, ".npmrc");
}

const prc_extractor prc_extractors[] = {
        /* format, ecosystem, kind, match, fn: one line per format, families grouped */
        /* npm (npm.c, npm_lock.c; docs/extraction/npm.md) */
        { "npm-package-json", "npm", "manifest", m_package_json, prc_x_npm_package_json },
        { "npm-package-lock", "npm", "lockfile", m_package_lock, prc_x_npm_package_lock },
        { "npm-shrinkwrap", "npm", "lockfile", m_shrinkwrap, prc_x_npm_shrinkwrap },
        { "yarn-lock", "npm", "lockfile", m_yarn_lock, prc_x_yarn_lock },
        { "pnpm-lock", "npm", "lockfile", m_pnpm_lock, prc_x_pnpm_lock },
        { "npmrc", "npm", "registry-config", m_npmrc, prc_x_npmrc },
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
        /* Java, .NET (maven.c, gradle.c, nuget.c) */
        { "maven-pom", "maven", "manifest", prc_xm_pom_match, prc_xm_pom },
        { "gradle-lockfile", "maven", "lockfile", prc_xm_gradle_lock_match, prc_xm_gradle_lock },
        { "gradle-version-catalog", "maven", "manifest", prc_xm_catalog_match, prc_xm_catalog },
        { "nuget-msbuild-project", "nuget", "manifest", prc_xn_project_match, prc_xn_project },
        { "nuget-central-packages", "nuget", "manifest", prc_xn_central_match, prc_xn_central },
        { "nuget-packages-config", "nuget", "manifest", prc_xn_config_pkgs_match, prc_xn_config_pkgs },
        { "nuget-packages-lock", "nuget", "lockfile", prc_xn_lock_match, prc_xn_lock },
        { "nuget-config", "nuget", "registry-config", prc_xn_nugetconfig_match, prc_xn_nugetconfig },
        /* Ruby (gem.c) */
        { "gem-gemfile-lock", "gem", "lockfile", prc_xg_lock_match, prc_xg_lock },
        { "gem-gemfile", "gem", "manifest", prc_xg_gemfile_match, prc_xg_gemfile },
        /* GitHub Actions, containers (actions.c, gha_expr.c, dockerfile.c) */
        { "gha-workflow", "github-actions", "workflow", match_gha_workflow, prc_extract_gha_workflow },
        { "gha-action",   "github-actions", "action",   match_gha_action,   prc_extract_gha_action },
        { "dockerfile",   "docker",         "container", match_dockerfile,  prc_extract_dockerfile },
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
