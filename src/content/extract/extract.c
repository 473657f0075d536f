/*
 * extract.c - the extractor table (extract.h) and lookups.
 * Adding a format is one line here and one file of its family.
 */
#include "content/extract/extract.h"
#include "content/extract/mng.h"

#include <string.h>

const prc_extractor prc_extractors[] = {
        /* format, ecosystem, kind, match, fn: one line per format, families grouped */
        /* maven.c, gradle.c */
        { "maven-pom", "maven", "manifest", prc_xm_pom_match, prc_xm_pom },
        { "gradle-lockfile", "maven", "lockfile", prc_xm_gradle_lock_match, prc_xm_gradle_lock },
        { "gradle-version-catalog", "maven", "manifest", prc_xm_catalog_match, prc_xm_catalog },
        /* nuget.c */
        { "nuget-msbuild-project", "nuget", "manifest", prc_xn_project_match, prc_xn_project },
        { "nuget-central-packages", "nuget", "manifest", prc_xn_central_match, prc_xn_central },
        { "nuget-packages-config", "nuget", "manifest", prc_xn_config_pkgs_match, prc_xn_config_pkgs },
        { "nuget-packages-lock", "nuget", "lockfile", prc_xn_lock_match, prc_xn_lock },
        { "nuget-config", "nuget", "registry-config", prc_xn_nugetconfig_match, prc_xn_nugetconfig },
        /* gem.c */
        { "gem-gemfile-lock", "gem", "lockfile", prc_xg_lock_match, prc_xg_lock },
        { "gem-gemfile", "gem", "manifest", prc_xg_gemfile_match, prc_xg_gemfile },
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
