/*
 * aur.c - AUR snapshot fetches (see aur.h).
 * Trust: name and base are user input, checked before they become a URL;
 * the response is capped and hashed by the HTTPS client and never parsed.
 */
#include "net/aur.h"

#include <stdio.h>
#include <string.h>

bool prc_aur_name_check(const char *name, prc_err *err)
{
        size_t n = strlen(name);

        /* The AUR's rule (aurweb, pacman's pkgname): [a-z0-9@._+-], not starting with '-' or '.'. */
        if (n == 0 || n > PRC_AUR_NAME_MAX)
                return prc_err_set(err, PRC_E_AUR_NAME_INVALID, "a package name has 1 to %d bytes",
                                   PRC_AUR_NAME_MAX);
        if (name[0] == '-' || name[0] == '.')
                return prc_err_set(err, PRC_E_AUR_NAME_INVALID, "a package name does not start with '%c'", name[0]);
        for (size_t i = 0; i < n; i++) {
                char c = name[i];
                if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '@' || c == '.' || c == '_' ||
                      c == '+' || c == '-'))
                        return prc_err_at(err, PRC_E_AUR_NAME_INVALID, i, "byte %zu of the package name is not one "
                                          "of a-z 0-9 @ . _ + -", i);
        }
        return true;
}

bool prc_aur_commit_check(const char *commit, prc_err *err)
{
        size_t n = strlen(commit);

        if (n < PRC_AUR_COMMIT_MIN || n > PRC_AUR_COMMIT_MAX)
                return prc_err_set(err, PRC_E_AUR_COMMIT_INVALID, "a commit has %d to %d hex digits, not %zu",
                                   PRC_AUR_COMMIT_MIN, PRC_AUR_COMMIT_MAX, n);
        for (size_t i = 0; i < n; i++)
                if (!((commit[i] >= '0' && commit[i] <= '9') || (commit[i] >= 'a' && commit[i] <= 'f')))
                        return prc_err_at(err, PRC_E_AUR_COMMIT_INVALID, i, "byte %zu of the commit is not a "
                                          "lowercase hex digit", i);
        return true;
}

/* https://HOST[:PORT][/PATH]: no credentials, query, fragment, blank or control byte. */
static bool base_ok(const char *b, size_t n, prc_err *err)
{
        const char *host = b + 8, *slash;

        if (n < 9 || strncmp(b, "https://", 8) != 0)
                return prc_err_set(err, PRC_E_AUR_URL_INVALID, "the AUR base URL must start with https://");
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)b[i];
                if (c <= 0x20 || c >= 0x7f || c == '?' || c == '#' || c == '\\')
                        return prc_err_set(err, PRC_E_AUR_URL_INVALID, "the AUR base URL has a query, fragment, "
                                           "blank, backslash or non-ASCII byte at %zu", i);
        }
        slash = memchr(host, '/', n - 8);
        if (memchr(host, '@', slash != NULL ? (size_t)(slash - host) : n - 8) != NULL)
                return prc_err_set(err, PRC_E_AUR_URL_INVALID, "the AUR base URL carries credentials");
        if (host[0] == '/' || host[0] == ':' || host[0] == '\0')
                return prc_err_set(err, PRC_E_AUR_URL_INVALID, "the AUR base URL has no host");
        return true;
}

/* BASE (trailing slashes dropped, checked)/cgit/aur.git/snapshot/FILE.tar.gz into out[PRC_AUR_URL_MAX]. */
static bool snapshot_url(const char *base, const char *file, char *out, prc_err *err)
{
        size_t n;

        if (base == NULL)
                base = PRC_AUR_DEFAULT_BASE;
        n = strlen(base);
        while (n > 0 && base[n - 1] == '/')
                n--;
        if (!base_ok(base, n, err))
                return false;
        if ((size_t)snprintf(out, PRC_AUR_URL_MAX, "%.*s/cgit/aur.git/snapshot/%s.tar.gz", (int)n, base, file) >=
            PRC_AUR_URL_MAX)
                return prc_err_set(err, PRC_E_AUR_URL_INVALID, "the snapshot URL is longer than %d bytes",
                                   PRC_AUR_URL_MAX - 1);
        return true;
}

bool prc_aur_snapshot_url(const char *base, const char *name, char *out, prc_err *err)
{
        return prc_aur_name_check(name, err) && snapshot_url(base, name, out, err);
}

/*
 * The bare object name, not cgit's own link form aur-COMMIT: cgit first
 * resolves the whole file name as a revision, and in aur.git every package
 * is a branch, so a package named aur-COMMIT would be served instead; a
 * full 40-digit name is resolved as an object before any branch.
 */
bool prc_aur_commit_url(const char *base, const char *name, const char *commit, char *out, prc_err *err)
{
        return prc_aur_name_check(name, err) && prc_aur_commit_check(commit, err) &&
               snapshot_url(base, commit, out, err);
}

bool prc_aur_fetch(const char *name, const prc_aur_opts *o, prc_buf *out, char *url, prc_https_result *res,
                   prc_err *err)
{
        prc_https_opts ho = { 0 };

        prc_buf_reset(out);
        if (o->commit != NULL ? !prc_aur_commit_url(o->base, name, o->commit, url, err) :
                                !prc_aur_snapshot_url(o->base, name, url, err))
                return false;
        ho.cacert = o->cacert;
        ho.max_bytes = o->max_bytes && o->max_bytes < PRC_AUR_SNAPSHOT_MAX ? o->max_bytes : PRC_AUR_SNAPSHOT_MAX;
        ho.connect_timeout_ms = 10000;
        ho.timeout_ms = o->timeout_ms ? o->timeout_ms : 60000;
        /* cgit answers a snapshot directly; a mirror may redirect once or twice, always over HTTPS. */
        ho.max_redirects = 2;
        ho.user_agent = "prc/0.1.0";
        return prc_https_get(url, &ho, out, res, err);
}
