/*
 * extract.c - the extractor table (extract.h) and lookups.
 * Adding a format is one line here and one file of its family.
 */
#include "content/extract/extract.h"

#include <string.h>

#include "content/extract/npm.h"

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
