/*
 * extract.c - the extractor table (extract.h) and lookups.
 * Adding a format is one line here and one file of its family.
 */
#include "content/extract/extract.h"

#include <string.h>
#include <strings.h>

#include "content/extract/gha.h"

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

const prc_extractor prc_extractors[] = {
        /* format, ecosystem, kind, match, fn: one line per format, families grouped */
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
