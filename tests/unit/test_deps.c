/*
 * test_deps.c - the version requirement matchers of the dependency analyses
 * (src/analysis/deps_ver.c): each dialect's operators, partial versions,
 * pre-releases, and what is refused as not read (never guessed).
 */
#include "t.h"

#include "analysis/deps.h"

#define YES(d, r, v) T_EQ_INT(prc_dv_satisfies(d, r, v), PRC_DV_YES)
#define NO(d, r, v)  T_EQ_INT(prc_dv_satisfies(d, r, v), PRC_DV_NO)
#define UNK(d, r, v) T_EQ_INT(prc_dv_satisfies(d, r, v), PRC_DV_UNKNOWN)

static void test_deps__npm_caret_tilde_and_x_ranges(void)
{
        const enum prc_dv_dialect n = PRC_DV_NPM;

        YES(n, "^4.17.0", "4.17.21");
        YES(n, "^4.17.0", "4.99.0");
        NO(n, "^4.17.0", "5.0.0");
        NO(n, "^4.17.0", "4.16.9");
        YES(n, "^0.2.3", "0.2.9");
        NO(n, "^0.2.3", "0.3.0");
        YES(n, "^0.0.3", "0.0.3");
        NO(n, "^0.0.3", "0.0.4");
        YES(n, "^0.0", "0.0.9");
        NO(n, "^0.0", "0.1.0");
        YES(n, "^0", "0.9.0");
        NO(n, "^0", "1.0.0");
        YES(n, "^1.2.x", "1.9.0");
        YES(n, "~1.2.3", "1.2.9");
        NO(n, "~1.2.3", "1.3.0");
        YES(n, "~1", "1.9.9");
        NO(n, "~1", "2.0.0");
        YES(n, "~>1.2", "1.2.5");
        YES(n, "1.x", "1.4.0");
        NO(n, "1.x", "2.0.0");
        YES(n, "1.2", "1.2.7");
        YES(n, "*", "3.0.0");
        YES(n, "", "3.0.0");
        YES(n, "x", "0.0.1");
        YES(n, "=1.2.3", "1.2.3");
        YES(n, "v1.2.3", "1.2.3");
        NO(n, "1.2.3", "1.2.4");
}

static void test_deps__npm_comparators_hyphens_and_alternatives(void)
{
        const enum prc_dv_dialect n = PRC_DV_NPM;

        YES(n, ">=1.2.3 <2", "1.9.0");
        NO(n, ">=1.2.3 <2", "2.0.0");
        YES(n, ">= 1.2.3", "1.2.3");
        NO(n, ">1.2", "1.2.9");
        YES(n, ">1.2", "1.3.0");
        YES(n, "<=1.2", "1.2.9");
        NO(n, "<=1.2", "1.3.0");
        NO(n, "<1.2", "1.2.0");
        YES(n, "1.2.3 - 2.3.4", "2.3.4");
        NO(n, "1.2.3 - 2.3.4", "2.3.5");
        YES(n, "1.2 - 2.3", "2.3.9");
        NO(n, "1.2 - 2.3", "2.4.0");
        YES(n, "^1.0.0 || ^2.0.0", "2.5.0");
        NO(n, "^1.0.0 || ^2.0.0", "3.0.0");
        YES(n, "<1.0.0 || >=2.0.0", "2.0.0");
}

static void test_deps__npm_prereleases_opt_in(void)
{
        const enum prc_dv_dialect n = PRC_DV_NPM;

        NO(n, "^1.0.0", "1.1.0-beta.1");
        NO(n, "^1.0.0", "2.0.0-rc.1");
        YES(n, "^1.1.0-beta.1", "1.1.0-beta.2");
        NO(n, "^1.1.0-beta.2", "1.1.0-beta.1");
        NO(n, "^1.1.0-beta.1", "1.2.0-beta.1");
        YES(n, "^1.1.0-beta.1", "1.2.0");
        YES(n, "1.0.0-alpha.10", "1.0.0-alpha.10");
        YES(n, ">1.0.0-alpha.2", "1.0.0-alpha.10");     /* numeric identifiers compare as numbers */
        YES(n, ">1.0.0-alpha", "1.0.0-alpha.1");
        YES(n, "^1.0.0", "1.0.0+build.5");
}

static void test_deps__npm_tags_and_garbage_are_unknown(void)
{
        const enum prc_dv_dialect n = PRC_DV_NPM;

        UNK(n, "latest", "1.0.0");
        UNK(n, "next", "1.0.0");
        UNK(n, "^1.0.0", "not-a-version");
        UNK(n, "^1.0.0", "1.0");        /* a lockfile version is whole */
        UNK(n, ">=1 <2 garbage", "1.5.0");
        YES(n, "latest || ^1.0.0", "1.5.0");    /* one alternative read and satisfied is enough */
        UNK(n, "latest || ^2.0.0", "1.5.0");
}

static void test_deps__cargo_bare_is_caret(void)
{
        const enum prc_dv_dialect c = PRC_DV_CARGO;

        YES(c, "1.0", "1.0.197");
        YES(c, "1.0", "1.9.0");
        NO(c, "1.0", "2.0.0");
        YES(c, "0.3", "0.3.9");
        NO(c, "0.3", "0.4.0");
        YES(c, "0.0.3", "0.0.3");
        NO(c, "0.0.3", "0.0.4");
        YES(c, "=0.3.1", "0.3.1");
        NO(c, "=0.3.1", "0.3.2");
        YES(c, "~1.2", "1.2.5");
        NO(c, "~1.2", "1.3.0");
        YES(c, ">=1.2, <1.5", "1.4.9");
        NO(c, ">=1.2, <1.5", "1.5.0");
        YES(c, "*", "9.9.9");
        YES(c, "1.*", "1.5.0");
        NO(c, "1.*", "2.0.0");
        NO(c, "1.0", "1.1.0-alpha.1");
        UNK(c, "^1 || ^2", "1.0.0");
}

static void test_deps__pypi_pep440_and_poetry(void)
{
        const enum prc_dv_dialect p = PRC_DV_PYPI;

        YES(p, ">=2.31.0,<3", "2.32.3");
        NO(p, ">=2.31.0,<3", "3.0.0");
        YES(p, "==23.2.0", "23.2.0");
        YES(p, "==1.0", "1.0.0");       /* zero padding */
        NO(p, "==1.0", "1.0.1");
        YES(p, "==1.2.*", "1.2.9");
        NO(p, "==1.2.*", "1.3.0");
        NO(p, "!=1.2.*", "1.2.1");
        YES(p, "!=1.5", "1.6");
        YES(p, "~=1.4.5", "1.4.9");
        NO(p, "~=1.4.5", "1.5.0");
        YES(p, "~=2.2", "2.9");
        NO(p, "~=2.2", "3.0");
        NO(p, "~=2.2", "2.1");
        YES(p, ">=1.0", "1.0.post1");
        NO(p, "<1.0", "1.0.post1");
        YES(p, "<1.0", "1.0rc1");
        YES(p, ">=1.0rc1", "1.0");
        NO(p, ">1.0rc2", "1.0rc1");
        YES(p, ">=1.0.dev0", "1.0a1");
        YES(p, "===1.0+local", "1.0+local");
        NO(p, "===1.0", "1.0.0");
        YES(p, ">=2.0", "2.1.0+cpu");   /* local labels do not count */
        /* Poetry */
        YES(p, "^2.31", "2.32.3");
        NO(p, "^2.31", "3.0.0");
        YES(p, "^0.2", "0.2.5");
        NO(p, "^0.2", "0.3.0");
        YES(p, "~2.1.2", "2.1.9");
        NO(p, "~2.1.2", "2.2.0");
        YES(p, "1.0.0", "1.0.0");
        NO(p, "1.0.0", "1.0.1");
        YES(p, "*", "4.0");
        YES(p, "^1.0 || ^2.0", "2.3");
        YES(p, ">= 1.2, < 1.5", "1.4");
        UNK(p, ">=1.0", "1!2.0");       /* epochs are not read */
        UNK(p, ">=1.0", "1.0.foo1");
}

static void test_deps__composer_constraints(void)
{
        const enum prc_dv_dialect c = PRC_DV_COMPOSER;

        YES(c, "^3.5", "v3.9.1");
        NO(c, "^3.5", "v4.0.0");
        YES(c, "~1.2", "1.9.0");        /* composer's tilde: the last given number moves */
        NO(c, "~1.2", "2.0.0");
        YES(c, "~1.2.3", "1.2.9");
        NO(c, "~1.2.3", "1.3.0");
        YES(c, "6.4.*", "v6.4.12");
        NO(c, "6.4.*", "v6.5.0");
        YES(c, "1.2", "1.2.0.0");       /* a bare version is exact */
        NO(c, "1.2", "1.2.1");
        YES(c, ">=7.4 <8.4", "8.3.0");
        YES(c, ">=7.4,<8.4", "8.3.0");
        NO(c, ">=7.4 <8.4", "8.4.0");
        YES(c, "^1.0 || ^2.0", "2.1.0");
        YES(c, "^1.0|^2.0", "2.1.0");
        YES(c, "1.0 - 2.0", "2.0.0");
        YES(c, "^1.0@dev", "1.5.0");
        YES(c, "dev-main", "dev-main");
        UNK(c, "dev-main", "dev-master");
        UNK(c, "2.x-dev", "2.1.0");
        UNK(c, "dev-main as 1.0.0", "dev-main");
        YES(c, "^2.0", "2.0.0-beta1");  /* stability is composer's minimum-stability, not the range */
        YES(c, "*", "1.0.0");
}

static void test_deps__gem_requirements(void)
{
        const enum prc_dv_dialect g = PRC_DV_GEM;

        YES(g, "~> 1.16", "1.16.0");
        YES(g, "~> 1.16", "1.99");
        NO(g, "~> 1.16", "2.0.0");
        YES(g, "~> 1.16.2", "1.16.9");
        NO(g, "~> 1.16.2", "1.17.0");
        YES(g, "~> 2", "2.9");
        NO(g, "~> 2", "3.0");
        YES(g, "~> 1.16, >= 1.16.2", "1.16.3");
        NO(g, "~> 1.16, >= 1.16.2", "1.16.1");
        YES(g, "= 7.1.3", "7.1.3");
        YES(g, "7.1.3", "7.1.3");
        NO(g, "!= 7.1.3", "7.1.3");
        YES(g, ">= 0", "0.0.1");
        YES(g, ">= 1.0.rc1", "1.0");
        UNK(g, "^1.0", "1.0");
        UNK(g, "~> 1 || 2", "1.0");
}

static void test_deps__nuget_ranges(void)
{
        const enum prc_dv_dialect u = PRC_DV_NUGET;

        YES(u, "3.1.1", "3.1.1");
        YES(u, "3.1.1", "4.0.0");       /* a bare version is a minimum */
        NO(u, "3.1.1", "3.1.0");
        YES(u, "[3.1.1, )", "3.1.1");
        YES(u, "[1.0,2.0)", "1.9.9");
        NO(u, "[1.0,2.0)", "2.0.0");
        YES(u, "(1.0,2.0]", "2.0");
        NO(u, "(1.0,2.0]", "1.0");
        YES(u, "(,1.0]", "0.5");
        NO(u, "(,1.0]", "1.0.1");
        YES(u, "[1.2.3]", "1.2.3");
        NO(u, "[1.2.3]", "1.2.4");
        YES(u, "1.*", "1.9.0");
        NO(u, "1.*", "2.0.0");
        YES(u, "8.0.0", "8.0.0.1");     /* four-part versions */
        YES(u, "[1.0.0-beta, )", "1.0.0-rc.1");
        UNK(u, "1.0.0-*", "1.0.0-beta");
        UNK(u, "$(SerilogVersion)", "3.1.1");
        UNK(u, "[1.0", "1.0");
}

static const prc_test tests[] = {
        T(test_deps__npm_caret_tilde_and_x_ranges),
        T(test_deps__npm_comparators_hyphens_and_alternatives),
        T(test_deps__npm_prereleases_opt_in),
        T(test_deps__npm_tags_and_garbage_are_unknown),
        T(test_deps__cargo_bare_is_caret),
        T(test_deps__pypi_pep440_and_poetry),
        T(test_deps__composer_constraints),
        T(test_deps__gem_requirements),
        T(test_deps__nuget_ranges),
};
PRC_SUITE(deps, tests)
