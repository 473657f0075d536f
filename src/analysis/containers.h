/*
 * containers.h - the container family's analyses over Dockerfile
 * ManifestDocs (format dockerfile, docs/extraction/actions-docker.md):
 * docker-unpinned-base, docker-root-user, docker-remote-add.
 *
 * Trust: engine-side; reads checked ManifestDocs only.
 */
#ifndef PRC_ANALYSIS_CONTAINERS_H
#define PRC_ANALYSIS_CONTAINERS_H

#include <stdbool.h>

#include "analysis/analysis.h"

bool prc_docker_unpinned_base(prc_actx *cx, prc_err *err);
bool prc_docker_root_user(prc_actx *cx, prc_err *err);
bool prc_docker_remote_add(prc_actx *cx, prc_err *err);

/* --- shared decisions (unit-tested) --- */

/* Does a USER value (after substitution) name root: root, 0, root:*, 0:*? */
bool prc_docker_user_is_root(const char *user);

#endif
