/*
 * manifests.c - path-based recognition of manifests (see manifests.h).
 */
#include "engine/manifests.h"

#include <string.h>

#include "base/compiler.h"

/* Exact base names. */
static const struct {
        const char *name, *format;
} names[] = {
        { ".SRCINFO", "shell" },
        { ".gitlab-ci.yml", "yaml" },
        { "Cargo.lock", "toml" },
        { "Cargo.toml", "toml" },
        { "PKGBUILD", "shell" },
        { "Pipfile", "toml" },
        { "Pipfile.lock", "json" },
        { "action.yaml", "yaml" },
        { "action.yml", "yaml" },
        { "composer.json", "json" },
        { "composer.lock", "json" },
        { "devcontainer.json", "jsonc" },
        { "jsconfig.json", "jsonc" },
        { "package-lock.json", "json" },
        { "package.json", "json" },
        { "packages.config", "xml" },
        { "pnpm-lock.yaml", "yaml" },
        { "poetry.lock", "toml" },
        { "pom.xml", "xml" },
        { "pyproject.toml", "toml" },
        { "setup.cfg", "ini" },
        { "tox.ini", "ini" },
        { "tsconfig.json", "jsonc" },
        { "uv.lock", "toml" },
};

static bool ends_with(const char *s, const char *suf)
{
        size_t n = strlen(s), m = strlen(suf);
        return n >= m && strcmp(s + n - m, suf) == 0;
}

const char *prc_manifest_format_for(const char *path)
{
        const char *base = strrchr(path, '/');

        base = base ? base + 1 : path;
        for (size_t i = 0; i < PRC_ARRAY_LEN(names); i++)
                if (strcmp(base, names[i].name) == 0)
                        return names[i].format;
        /* GitHub workflows: only directly under .github/workflows/. */
        if (strncmp(path, ".github/workflows/", 18) == 0 && strchr(path + 18, '/') == NULL &&
            (ends_with(path, ".yml") || ends_with(path, ".yaml")))
                return "yaml";
        if (ends_with(base, ".csproj") || ends_with(base, ".fsproj") || ends_with(base, ".vbproj"))
                return "xml";
        if (strncmp(path, ".vscode/", 8) == 0 && ends_with(path, ".json"))
                return "jsonc";
        if (ends_with(base, ".tar") || ends_with(base, ".tar.gz") || ends_with(base, ".tgz"))
                return "archive";
        return NULL;
}
