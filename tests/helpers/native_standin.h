/*
 * native_standin.h - what the Syft and Grype stand-ins (test-only images,
 * issue 10) share: the exact-argv check, the scanner-owned configuration
 * check, the no-tool-environment check, per-run randomness and report I/O.
 * Each stand-in exits 1 with a message on stderr when the runner did not
 * start it exactly as its protocol says, as the real tool would on an error.
 * Trust: test code.
 */
#ifndef PRC_TESTS_NATIVE_STANDIN_H
#define PRC_TESTS_NATIVE_STANDIN_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adapter/native/native.h"
#include "base/buf.h"
#include "base/digest.h"
#include "base/file.h"

extern char **environ;

static inline int standin_fail(const char *tool, const char *what)
{
        fprintf(stderr, "%s standin: %s\n", tool, what);
        return 1;
}

/* argv[1..] must be exactly the protocol's (argv[0] is the entrypoint; a host-side run names the binary). */
static inline bool standin_argv_ok(const prc_native_spec *s, int argc, char **argv)
{
        int i;

        for (i = 1; s->argv[i] != NULL; i++)
                if (i >= argc || strcmp(argv[i], s->argv[i]) != 0)
                        return false;
        return i == argc;
}

/* No variable with this prefix (SYFT_ / GRYPE_): the tool's environment defaults must not apply. */
static inline bool standin_env_clean(const char *prefix)
{
        for (char **e = environ; *e != NULL; e++)
                if (strncmp(*e, prefix, strlen(prefix)) == 0)
                        return false;
        return true;
}

/* Standard input must be empty: only Gitleaks gets bytes there. */
static inline bool standin_stdin_empty(void)
{
        char c;
        ssize_t r = read(0, &c, 1);

        return r <= 0;
}

/* The snapshot root: the mount, or $PRC_STANDIN_ROOT when a host-side test maps it to a directory. */
static inline const char *standin_root(void)
{
        const char *r = getenv("PRC_STANDIN_ROOT");

        return r != NULL && r[0] != '\0' ? r : PRC_NATIVE_SNAPSHOT_MOUNT;
}

/* The owned file s->owned[0] must be in the snapshot with exactly its pinned bytes. */
static inline bool standin_owned_ok(const prc_native_spec *s)
{
        char path[4096], hex[PRC_SHA256_HEX + 1];
        prc_buf b;
        prc_err err;
        bool ok;

        snprintf(path, sizeof(path), "%s/%s", standin_root(), s->owned[0].path);
        prc_err_init(&err);
        prc_buf_init(&b, 1u << 16);
        ok = prc_file_read(path, 1u << 16, PRC_FILE_NOFOLLOW, &b, &err) &&
             prc_sha256_hex_once(b.data ? b.data : (const uint8_t *)"", b.len, hex, &err) &&
             strcmp(hex, s->owned[0].sha256) == 0;
        prc_buf_clear(&b);
        return ok;
}

/* Per-run randomness: each real run has a fresh serial number, source id and timestamp. */
static inline void standin_random(void *p, size_t n)
{
        struct timespec ts;
        unsigned char *u = p;

        if (getrandom(p, n, 0) == (ssize_t)n)
                return;
        clock_gettime(CLOCK_REALTIME, &ts);
        for (size_t i = 0; i < n; i++)
                u[i] = (unsigned char)((ts.tv_nsec >> (i % 4 * 8)) ^ (ts.tv_sec * 131u + i * 7u));
}

static inline void standin_hex(const unsigned char *p, size_t n, char *out)
{
        for (size_t i = 0; i < n; i++)
                snprintf(out + 2 * i, 3, "%02x", p[i]);
}

/* RFC 3339 UTC seconds of the wall clock. */
static inline void standin_now(char out[32])
{
        time_t t = time(NULL);
        struct tm tm;

        gmtime_r(&t, &tm);
        strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A recorded report baked into the image (/prc-standin/NAME), or under $PRC_STANDIN_REPORTS on the host. */
static inline json_t *standin_report(const char *name)
{
        const char *dir = getenv("PRC_STANDIN_REPORTS");
        char path[4096];
        json_error_t je;

        snprintf(path, sizeof(path), "%s/%s", dir != NULL && dir[0] != '\0' ? dir : "/prc-standin", name);
        return json_load_file(path, JSON_REJECT_DUPLICATES, &je);
}

static inline bool standin_regular(const char *path)
{
        struct stat st;

        return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The tools write compact JSON and one newline (pretty: false in the owned configs). */
static inline int standin_print(json_t *doc)
{
        char *s = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);

        if (s == NULL)
                return 1;
        fputs(s, stdout);
        fputc('\n', stdout);
        free(s);
        return fflush(stdout) == 0 ? 0 : 1;
}

#endif
