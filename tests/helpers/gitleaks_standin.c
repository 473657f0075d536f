/*
 * gitleaks_standin.c - a test-only stand-in for the Gitleaks 8.30.0 image
 * (issue 10 end-to-end tests).  It accepts only the protocol's exact argv,
 * reads standard input and requires it to be the pinned ruleset (so a
 * runner that forgets to pass it fails), walks the snapshot named by the
 * last argument (or $PRC_STANDIN_ROOT in host-side tests) without
 * following symlinks, skipping files above its --max-target-megabytes
 * ceiling as gitleaks does, and reports every AWS access
 * key id (AKIA + 16 upper-case letters or digits) in Gitleaks' dir-mode
 * JSON with --redact=100: one-space indentation, byte columns with
 * Gitleaks' quirk (+1 after the first line), Fingerprint File:RuleID:Line.
 * Exit 42 with findings, 0 without, 1 on any error (as gitleaks does).
 * Trust: test code; it detects one pattern, nothing else.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/native/gitleaks.h"
#include "adapter/native/native.h"
#include "base/buf.h"
#include "base/digest.h"
#include "base/file.h"

static int nfound;
/* --max-target-megabytes=N: like gitleaks 8.30, skip files above N * 1,000,000 bytes (0: no ceiling). */
static unsigned long long max_bytes;

/* JSON string with the escapes Go's encoder uses for HTML characters. */
static void jstr(const char *s)
{
        putchar('"');
        for (; *s; s++) {
                unsigned char c = (unsigned char)*s;
                if (c == '"' || c == '\\')
                        printf("\\%c", c);
                else if (c == '<' || c == '>' || c == '&')
                        printf("\\u%04x", c);
                else if (c < 0x20)
                        printf("\\u%04x", c);
                else
                        putchar(c);
        }
        putchar('"');
}

static bool key_at(const char *p)
{
        int i;

        if (strncmp(p, "AKIA", 4) != 0)
                return false;
        for (i = 4; i < 20; i++)
                if (!((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= '0' && p[i] <= '9')))
                        return false;
        return true;
}

static void scan_file(const char *path, const char *data, size_t n)
{
        size_t line = 1, start = 0, i;

        for (i = 0; i <= n; i++) {
                if (i == n || data[i] == '\n') {
                        size_t len = i - start, k;
                        for (k = 0; k + 20 <= len; k++) {
                                if (!key_at(data + start + k))
                                        continue;
                                printf("%s {\n  \"RuleID\": \"aws-access-token\",\n  \"Description\": "
                                       "\"Identified a pattern that may indicate AWS credentials\",\n",
                                       nfound ? "," : "");
                                printf("  \"StartLine\": %zu,\n  \"EndLine\": %zu,\n  \"StartColumn\": %zu,\n"
                                       "  \"EndColumn\": %zu,\n  \"Match\": ",
                                       line, line, k + 1 + (line > 1), k + 20 + (line > 1));
                                jstr("REDACTED");      /* the match is the key itself, redacted */
                                printf(",\n  \"Secret\": \"REDACTED\",\n  \"File\": ");
                                jstr(path);
                                printf(",\n  \"SymlinkFile\": \"\",\n  \"Commit\": \"\",\n  \"Entropy\": 3.6841838,\n"
                                       "  \"Author\": \"\",\n  \"Email\": \"\",\n  \"Date\": \"\",\n"
                                       "  \"Message\": \"\",\n  \"Tags\": [],\n  \"Fingerprint\": ");
                                {
                                        char fp[8192];
                                        snprintf(fp, sizeof(fp), "%s:aws-access-token:%zu", path, line);
                                        jstr(fp);
                                }
                                printf("\n }");
                                nfound++;
                                k += 19;
                        }
                        line++;
                        start = i + 1;
                }
        }
}

static int walk(const char *dir, const char *shown)
{
        DIR *d = opendir(dir);
        struct dirent *e;

        if (d == NULL)
                return -1;
        while ((e = readdir(d)) != NULL) {
                char path[4096], spath[4096];
                struct stat st;
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
                snprintf(spath, sizeof(spath), "%s/%s", shown, e->d_name);
                if (lstat(path, &st) != 0) {
                        closedir(d);
                        return -1;
                }
                if (S_ISDIR(st.st_mode)) {
                        if (walk(path, spath) != 0) {
                                closedir(d);
                                return -1;
                        }
                } else if (S_ISREG(st.st_mode) && st.st_size > 0 &&
                           (max_bytes == 0 || (unsigned long long)st.st_size <= max_bytes)) {
                        /* Every file under the ceiling is read whole; one that cannot be is an error, not a skip. */
                        prc_buf b;
                        prc_err err;
                        prc_err_init(&err);
                        prc_buf_init(&b, (size_t)st.st_size);
                        if (!prc_file_read(path, (size_t)st.st_size, PRC_FILE_NOFOLLOW, &b, &err)) {
                                prc_buf_clear(&b);
                                closedir(d);
                                return -1;
                        }
                        scan_file(spath, (const char *)b.data, b.len);
                        prc_buf_clear(&b);
                }
        }
        closedir(d);
        return 0;
}

int main(int argc, char **argv)
{
        const prc_native_spec *s = prc_native_spec_of(PRC_NATIVE_GITLEAKS);
        char hex[PRC_SHA256_HEX + 1];
        prc_buf in;
        prc_err err;
        int i;

        for (i = 1; s->argv[i] != NULL; i++)
                if (i >= argc || strcmp(argv[i], s->argv[i]) != 0) {
                        fprintf(stderr, "standin: argv differs from the protocol at %d\n", i);
                        return 1;
                }
        if (i != argc) {
                fprintf(stderr, "standin: extra arguments\n");
                return 1;
        }
        for (i = 1; i < argc; i++)
                if (strncmp(argv[i], "--max-target-megabytes=", 23) == 0)
                        max_bytes = strtoull(argv[i] + 23, NULL, 10) * 1000000ull;
        prc_err_init(&err);
        prc_buf_init(&in, 1u << 20);
        if (!prc_fd_read_all(0, 1u << 20, &in, &err) || !prc_sha256_hex_once(in.data, in.len, hex, &err) ||
            strcmp(hex, PRC_GITLEAKS_RULESET_SHA256) != 0) {
                fprintf(stderr, "standin: standard input is not the pinned ruleset\n");
                return 1;
        }
        prc_buf_clear(&in);
        printf("[");
        /* host-side tests map the mount path to a directory; in a container no environment is passed */
        if (walk(getenv("PRC_STANDIN_ROOT") ? getenv("PRC_STANDIN_ROOT") : argv[argc - 1], argv[argc - 1]) != 0) {
                fprintf(stderr, "standin: cannot walk the snapshot\n");
                return 1;
        }
        printf(nfound ? "\n]\n" : "]\n");
        return nfound ? s->exit_found : s->exit_clean;
}
