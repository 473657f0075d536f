/*
 * test_analyses_ctr.c - the decisions of the container and shell analyses
 * (issue 19): which installs are unpinned, what is a digest check, which
 * USER is root.  Commands are built as the walk of sh.h gives them: words
 * already normalized, the name the first word's basename.
 */
#include "t.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/containers.h"
#include "analysis/shell.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "engine/policy.h"

enum { WORDS = 32 };

struct cmd {
        char    buf[512];
        prc_shw w[WORDS];
        prc_shc c;
};

/* Split line on blanks into a command (no quoting: the words are already normalized). */
static const prc_shc *cmd(struct cmd *k, const char *line)
{
        char *p, *save = NULL;
        const char *slash;

        memset(k, 0, sizeof(*k));
        snprintf(k->buf, sizeof(k->buf), "%s", line);
        for (p = strtok_r(k->buf, " ", &save); p != NULL && k->c.n < WORDS; p = strtok_r(NULL, " ", &save)) {
                k->w[k->c.n].raw = p;
                k->w[k->c.n].val = p;
                k->c.n++;
        }
        k->c.w = k->w;
        slash = k->c.n > 0 ? strrchr(k->w[0].val, '/') : NULL;
        k->c.name = k->c.n == 0 ? "" : slash != NULL ? slash + 1 : k->w[0].val;
        return &k->c;
}

static const char *unpinned(const char *line, unsigned env)
{
        static struct cmd k;
        return prc_shell_unpinned(cmd(&k, line), env);
}

static void test_analyses_ctr__unpinned_installs_are_found(void)
{
        static const char *const found[] = {
                "pip install requests", "pip3 install requests==2.31.0", "python3 -m pip install -U pip",
                "pip install -r requirements.txt", "pip install -rrequirements.txt", "pip install --group tests x",
                "pip install -e git+https://github.com/o/r.git#egg=r", "uv pip install httpx",
                "pip install --no-deps -e git+https://github.com/o/r.git@v1.0#egg=r",
                "pip install -e git+https://github.com/o/r.git@0123456789abcdef0123456789abcdef01234567",
                "pipx install poetry", "uv tool install ruff", "npm install", "npm i left-pad",
                "npm install -g typescript@5.4.5", "npm update", "yarn", "yarn install", "yarn add lodash",
                "yarn global add serve", "bun install", "pnpm add zod",
                "go install golang.org/x/tools/cmd/goimports@latest", "go install github.com/o/r/cmd/x",
                "go get github.com/o/r@master", "go install github.com/o/r@v1", "gem install bundler",
                "gem install rails -v ~>7.0", "cargo install ripgrep", "cargo install --locked ripgrep",
                "cargo install --locked --git https://github.com/o/r", NULL
        };
        for (size_t i = 0; found[i] != NULL; i++)
                if (unpinned(found[i], 0) == NULL)
                        t_fail(__FILE__, __LINE__, "'%s' was not found unpinned", found[i]);
        /* pnpm and Yarn 2+ freeze their lockfile in CI only; Yarn 1 never does */
        T_ASSERT(unpinned("pnpm install", 0) != NULL);
        T_ASSERT(unpinned("pnpm install", PRC_SHELL_CI) == NULL);
        T_ASSERT(unpinned("pnpm add zod", PRC_SHELL_CI) != NULL);
        T_ASSERT(unpinned("yarn", PRC_SHELL_CI) != NULL);
        T_ASSERT(unpinned("yarn install", PRC_SHELL_YARN_BERRY) != NULL);
        T_ASSERT(unpinned("yarn", PRC_SHELL_CI | PRC_SHELL_YARN_BERRY) == NULL);
        T_ASSERT(unpinned("yarn install", PRC_SHELL_CI | PRC_SHELL_YARN_BERRY) == NULL);
        T_ASSERT(unpinned("yarn add lodash", PRC_SHELL_CI | PRC_SHELL_YARN_BERRY) != NULL);
}

static void test_analyses_ctr__pinned_and_local_installs_are_not(void)
{
        static const char *const clean[] = {
                "pip install --require-hashes -r requirements.txt", "pip install -e .", "pip install .",
                "pip install .[test]", "pip install --group tests -e .[all]",
                "pip install ./dist/x-1.0-py3-none-any.whl", "python -m pip install -e .",
                "pip install", "pipx install poetry==1.8.3",
                "pip install --no-deps -e git+https://github.com/o/r.git@0123456789abcdef0123456789abcdef01234567",
                "pip install --no-deps -e git+https://github.com/o/r@0123456789abcdef0123456789abcdef01234567#egg=r", "npm ci", "npm run build", "npm test",
                "yarn install --frozen-lockfile", "yarn --immutable", "yarn build", "bun install --frozen-lockfile",
                "pnpm install --frozen-lockfile", "go install ./cmd/...", "go build ./...", "go get",
                "go install golang.org/x/vuln/cmd/govulncheck@v1.1.3",
                "go install github.com/o/r@v0.0.0-20240101000000-0123456789ab",
                "go install github.com/o/r@0123456789abcdef0123456789abcdef01234567", "gem install bundler -v 2.5.3",
                "gem install bundler:2.5.3", "gem install ./pkg/x-1.0.gem", "bundle install",
                "cargo install --locked ripgrep --version 14.1.0", "cargo install --locked ripgrep@14.1.0",
                "cargo install --locked --path .", "cargo build --locked", "apt-get install -y curl",
                "apk add --no-cache curl", NULL
        };
        for (size_t i = 0; clean[i] != NULL; i++) {
                const char *why = unpinned(clean[i], 0);
                if (why != NULL)
                        t_fail(__FILE__, __LINE__, "'%s' was found: %s", clean[i], why);
        }
}

static void test_analyses_ctr__digest_checks(void)
{
        struct cmd k;

        T_ASSERT(prc_shell_is_check(cmd(&k, "sha256sum -c -")));
        T_ASSERT(prc_shell_is_check(cmd(&k, "sha512sum --check --status x.sha512")));
        T_ASSERT(prc_shell_is_check(cmd(&k, "gpg --verify x.asc x")));
        T_ASSERT(prc_shell_is_check(cmd(&k, "cosign verify-blob --key k x")));
        T_ASSERT(!prc_shell_is_check(cmd(&k, "sha256sum x")));    /* prints a digest, checks nothing */
        T_ASSERT(!prc_shell_is_check(cmd(&k, "gpg --import k.asc")));
}

static void test_analyses_ctr__root_users(void)
{
        T_ASSERT(prc_docker_user_is_root("root"));
        T_ASSERT(prc_docker_user_is_root("0"));
        T_ASSERT(prc_docker_user_is_root("0:0"));
        T_ASSERT(prc_docker_user_is_root("root:app"));
        T_ASSERT(!prc_docker_user_is_root("1000:0"));
        T_ASSERT(!prc_docker_user_is_root("app"));
        T_ASSERT(!prc_docker_user_is_root("rootless"));
        T_ASSERT(prc_docker_user_is_root("00"));        /* numeric: uid 0 */
        T_ASSERT(!prc_docker_user_is_root("10001"));
}

/* Every workflow and Dockerfile under dir (rel: its path below the corpus), extracted in process into mds. */
static void collect(const char *dir, const char *rel, json_t *mds, unsigned depth)
{
        DIR *d = opendir(dir);
        struct dirent *e;

        if (d == NULL || depth > 12) {
                if (d != NULL)
                        closedir(d);
                return;
        }
        while ((e = readdir(d)) != NULL) {
                char path[4096], r[4096];
                const prc_extractor *x;
                if (e->d_name[0] == '.' && (e->d_name[1] == 0 || (e->d_name[1] == '.' && e->d_name[2] == 0)))
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
                snprintf(r, sizeof(r), "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
                if (e->d_type == DT_DIR) {
                        collect(path, r, mds, depth + 1);
                        continue;
                }
                x = prc_extractor_for_path(r);
                if (e->d_type == DT_REG && x != NULL &&
                    (strcmp(x->ecosystem, "github-actions") == 0 || strcmp(x->ecosystem, "docker") == 0)) {
                        size_t n;
                        char *bytes = t_read(path, &n);
                        prc_xin in = { r, (const uint8_t *)bytes, n, &prc_limits_default };
                        prc_err err;
                        json_t *md;
                        prc_err_init(&err);
                        md = x->fn(&in, &err);
                        if (md != NULL && prc_mdoc_check(md, r, x->format, &err))
                                json_array_append(mds, md);
                        json_decref(md);
                        free(bytes);
                }
        }
        closedir(d);
}

static int by_path(const void *a, const void *b)
{
        return strcmp(json_string_value(json_object_get(*(json_t *const *)a, "path")),
                      json_string_value(json_object_get(*(json_t *const *)b, "path")));
}

/*
 * The real workflows and Dockerfiles of the corpus, extracted in this
 * (sanitized) process and judged by the five analyses: no sanitizer report,
 * and the risks the corpus is known to hold are found.
 */
static void test_analyses_ctr__corpus_runs_clean_under_sanitizers(void)
{
        static const char *const ids[] = { "docker-unpinned-base", "docker-root-user", "docker-remote-add",
                                           "shell-download-exec", "shell-unpinned-install" };
        const char *c = t_corpora();
        char dir[4096];
        json_t *mds = json_array(), *sorted = json_array();
        json_t **v;
        size_t n;

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "../shared/corpora is absent; this test reads its manifests");
        snprintf(dir, sizeof(dir), "%s/manifests", c);
        collect(dir, "", mds, 0);
        n = json_array_size(mds);
        T_ASSERT(n >= 200);
        v = calloc(n, sizeof(*v));
        T_ASSERT(v != NULL);
        for (size_t i = 0; i < n; i++)
                v[i] = json_array_get(mds, i);
        qsort(v, n, sizeof(*v), by_path);
        for (size_t i = 0; i < n; i++)
                json_array_append(sorted, v[i]);
        free(v);
        for (size_t k = 0; k < PRC_ARRAY_LEN(ids); k++) {
                prc_ainput in = { .mdocs = sorted };
                prc_obs_list l = { 0 };
                prc_err err;
                bool gap = true, found = false;
                prc_err_init(&err);
                T_ASSERT(prc_analysis_run(prc_analysis_find(ids[k]), &in, &l, &gap, &err));
                T_ASSERT(!gap);
                for (size_t i = 0; i < l.n; i++)
                        found |= l.items[i].outcome == PRC_OUT_FOUND;
                /* The corpus holds each risk but remote ADD (its 12 Dockerfiles have none). */
                if (strcmp(ids[k], "docker-remote-add") != 0 && !found)
                        t_fail(__FILE__, __LINE__, "%s found nothing in the corpus", ids[k]);
                prc_obs_list_clear(&l);
        }
        json_decref(mds);
        json_decref(sorted);
}

/* A run: step whose tokens are malformed (a worker gone wrong) is not walked: unsupported, never not_found. */
static void test_analyses_ctr__malformed_step_tokens_are_not_read(void)
{
        json_t *mds = json_pack("[{s:s,s:s,s:s,s:{s:[{s:s,s:[{s:{s:i,s:{s:[],s:[],s:[{s:i,s:[{s:s,s:[i]}]}]}}}]}]}}]",
                                "path", ".github/workflows/x.yml", "format", "gha-workflow", "ecosystem",
                                "github-actions", "details", "jobs", "id", "b", "steps", "run", "line", 3, "tokens",
                                "assignments", "functions", "commands", "line", 3, "body", "line", "three", "tokens",
                                7);
        prc_ainput in = { .mdocs = mds };
        prc_obs_list l = { 0 };
        prc_err err;
        bool gap = true;

        T_ASSERT(mds != NULL);
        prc_err_init(&err);
        T_ASSERT(prc_analysis_run(prc_analysis_find("shell-download-exec"), &in, &l, &gap, &err));
        T_EQ_INT(l.n, 1);
        T_EQ_INT(l.items[0].outcome, PRC_OUT_UNSUPPORTED);
        prc_obs_list_clear(&l);
        json_decref(mds);
}

static const prc_test tests[] = {
        T(test_analyses_ctr__unpinned_installs_are_found),
        T(test_analyses_ctr__pinned_and_local_installs_are_not),
        T(test_analyses_ctr__digest_checks),
        T(test_analyses_ctr__root_users),
        T(test_analyses_ctr__corpus_runs_clean_under_sanitizers),
        T(test_analyses_ctr__malformed_step_tokens_are_not_read),
};
PRC_SUITE(analyses_ctr, tests)
