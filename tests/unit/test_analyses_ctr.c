/*
 * test_analyses_ctr.c - the decisions of the container and shell analyses
 * (issue 19): which installs are unpinned, what is a digest check, which
 * USER is root.  Commands are built as the walk of sh.h gives them: words
 * already normalized, the name the first word's basename.
 */
#include "t.h"

#include <string.h>

#include "analysis/containers.h"
#include "analysis/shell.h"

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

static const char *unpinned(const char *line, bool ci)
{
        static struct cmd k;
        return prc_shell_unpinned(cmd(&k, line), ci);
}

static void test_analyses_ctr__unpinned_installs_are_found(void)
{
        static const char *const found[] = {
                "pip install requests", "pip3 install requests==2.31.0", "python3 -m pip install -U pip",
                "pip install -r requirements.txt", "pip install -rrequirements.txt", "pip install --group tests x",
                "pip install -e git+https://github.com/o/r.git#egg=r", "uv pip install httpx",
                "pipx install poetry", "uv tool install ruff", "npm install", "npm i left-pad",
                "npm install -g typescript@5.4.5", "npm update", "yarn", "yarn install", "yarn add lodash",
                "yarn global add serve", "bun install", "pnpm add zod",
                "go install golang.org/x/tools/cmd/goimports@latest", "go install github.com/o/r/cmd/x",
                "go get github.com/o/r@master", "go install github.com/o/r@v1", "gem install bundler",
                "gem install rails -v ~>7.0", "cargo install ripgrep", "cargo install --locked ripgrep",
                "cargo install --locked --git https://github.com/o/r", NULL
        };
        for (size_t i = 0; found[i] != NULL; i++)
                if (unpinned(found[i], false) == NULL)
                        t_fail(__FILE__, __LINE__, "'%s' was not found unpinned", found[i]);
        /* pnpm freezes its lockfile in CI only */
        T_ASSERT(unpinned("pnpm install", false) != NULL);
        T_ASSERT(unpinned("pnpm install", true) == NULL);
}

static void test_analyses_ctr__pinned_and_local_installs_are_not(void)
{
        static const char *const clean[] = {
                "pip install --require-hashes -r requirements.txt", "pip install -e .", "pip install .",
                "pip install .[test]", "pip install --group tests -e .[all]", "pip install ./dist/x-1.0-py3-none-any.whl", "python -m pip install -e .",
                "pip install", "pipx install poetry==1.8.3", "npm ci", "npm run build", "npm test",
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
                const char *why = unpinned(clean[i], false);
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

static const prc_test tests[] = {
        T(test_analyses_ctr__unpinned_installs_are_found),
        T(test_analyses_ctr__pinned_and_local_installs_are_not),
        T(test_analyses_ctr__digest_checks),
        T(test_analyses_ctr__root_users),
};
PRC_SUITE(analyses_ctr, tests)
