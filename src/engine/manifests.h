/*
 * manifests.h - which inventoried files the content layer sends to the
 * content worker, and as what.
 *
 * Recognition is by path only (the engine never looks inside target bytes
 * to decide): dependency manifests and lockfiles, CI workflows, PKGBUILDs
 * and snapshot archives.  docs/analyses.md lists the table.
 */
#ifndef PRC_ENGINE_MANIFESTS_H
#define PRC_ENGINE_MANIFESTS_H

#include <stdbool.h>

/* Content-worker format for a path ("json", "jsonc", "yaml", "toml", "ini", "xml", "shell", "archive"), or NULL. */
const char *prc_manifest_format_for(const char *path);

#endif
