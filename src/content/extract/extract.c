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

const prc_extractor prc_extractors[] = {
        /* format, ecosystem, kind, base or match, fn, yaml_pos, json_tree: one line per format, families grouped */
        /* npm (npm.c, npm_lock.c; docs/extraction/npm.md) */
        { "npm-package-json", "npm", "manifest", "package.json", NULL, prc_x_npm_package_json, false, true },
        { "npm-package-lock", "npm", "lockfile", "package-lock.json", NULL, prc_x_npm_package_lock, false, true },
        { "npm-shrinkwrap", "npm", "lockfile", "npm-shrinkwrap.json", NULL, prc_x_npm_shrinkwrap, false, true },
        { "yarn-lock", "npm", "lockfile", "yarn.lock", NULL, prc_x_yarn_lock, false, false },
        { "pnpm-lock", "npm", "lockfile", "pnpm-lock.yaml", NULL, prc_x_pnpm_lock, false, false },
        { "npmrc", "npm", "registry-config", ".npmrc", NULL, prc_x_npmrc, false, false },
        /* Python (python_*.c) */
        { "pypi-pyproject", "pypi", "manifest", "pyproject.toml", NULL, prc_x_py_pyproject, false, false },
        { "pypi-requirements", "pypi", "manifest", NULL, prc_x_py_match_requirements,
          prc_x_py_requirements, false, false },
        { "pypi-setup-cfg", "pypi", "manifest", "setup.cfg", NULL, prc_x_py_setup_cfg, false, false },
        { "pypi-pipfile", "pypi", "manifest", "Pipfile", NULL, prc_x_py_pipfile, false, false },
        { "pypi-pipfile-lock", "pypi", "lockfile", "Pipfile.lock", NULL, prc_x_py_pipfile_lock, false, false },
        { "pypi-poetry-lock", "pypi", "lockfile", "poetry.lock", NULL, prc_x_py_poetry_lock, false, false },
        { "pypi-uv-lock", "pypi", "lockfile", "uv.lock", NULL, prc_x_py_uv_lock, false, false },
        { "pypi-pdm-lock", "pypi", "lockfile", "pdm.lock", NULL, prc_x_py_pdm_lock, false, false },
        { "pypi-pylock", "pypi", "lockfile", NULL, prc_x_py_match_pylock, prc_x_py_pylock, false, false },
        { "pypi-pip-conf", "pypi", "registry-config", NULL, prc_x_py_match_pip_conf, prc_x_py_pip_conf, false, false },
        /* Rust, Go, PHP (cargo.c, golang.c, composer.c) */
        { "cargo-toml", "cargo", "manifest", "Cargo.toml", NULL, prc_x_cargo_toml, false, false },
        { "cargo-lock", "cargo", "lockfile", "Cargo.lock", NULL, prc_x_cargo_lock, false, false },
        { "go-mod", "golang", "manifest", "go.mod", NULL, prc_x_go_mod, false, false },
        { "go-sum", "golang", "lockfile", NULL, prc_x_cgc_match_go_sum, prc_x_go_sum, false, false },
        { "go-work", "golang", "manifest", "go.work", NULL, prc_x_go_work, false, false },
        { "composer-json", "composer", "manifest", "composer.json", NULL, prc_x_composer_json, false, true },
        { "composer-lock", "composer", "lockfile", "composer.lock", NULL, prc_x_composer_lock, false, true },
        /* Java, .NET (maven.c, gradle.c, nuget.c) */
        { "maven-pom", "maven", "manifest", "pom.xml", NULL, prc_xm_pom, false, false },
        { "gradle-lockfile", "maven", "lockfile", NULL, prc_xm_gradle_lock_match, prc_xm_gradle_lock, false, false },
        { "gradle-version-catalog", "maven", "manifest", NULL, prc_xm_catalog_match, prc_xm_catalog, false, false },
        { "nuget-msbuild-project", "nuget", "manifest", NULL, prc_xn_project_match, prc_xn_project, false, false },
        { "nuget-central-packages", "nuget", "manifest", NULL, prc_xn_central_match, prc_xn_central, false, false },
        { "nuget-packages-config", "nuget", "manifest", NULL, prc_xn_config_pkgs_match,
          prc_xn_config_pkgs, false, false },
        { "nuget-packages-lock", "nuget", "lockfile", NULL, prc_xn_lock_match, prc_xn_lock, false, false },
        { "nuget-config", "nuget", "registry-config", NULL, prc_xn_nugetconfig_match,
          prc_xn_nugetconfig, false, false },
        /* Ruby (gem.c) */
        { "gem-gemfile-lock", "gem", "lockfile", NULL, prc_xg_lock_match, prc_xg_lock, false, false },
        { "gem-gemfile", "gem", "manifest", NULL, prc_xg_gemfile_match, prc_xg_gemfile, false, false },
        /* GitHub Actions, containers (actions.c, gha_expr.c, dockerfile.c) */
        { "gha-workflow", "github-actions", "workflow", NULL, match_gha_workflow, prc_extract_gha_workflow, true,
          false },
        { "gha-action", "github-actions", "action", NULL, match_gha_action, prc_extract_gha_action, true, false },
        { "dockerfile", "docker", "container", NULL, match_dockerfile, prc_extract_dockerfile, false, false },
        { NULL, NULL, NULL, NULL, NULL, NULL, false, false },  /* the end: keep last */
};

const size_t prc_extractor_count = PRC_ARRAY_LEN(prc_extractors) - 1;

static bool drop_by_arena;     /* the worker's: set once before any request, never cleared */

void prc_x_drop_by_arena(void)
{
        drop_by_arena = true;
}

void prc_x_drop(json_t *v)
{
        if (!drop_by_arena)
                json_decref(v);
}

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
        for (size_t i = 0; i < prc_extractor_count; i++) {
                const prc_extractor *x = &prc_extractors[i];
                if (x->base != NULL ? strcmp(x->base, base) == 0 : x->match(path, base))
                        return x;
        }
        return NULL;
}
