/*
 * grammar.c - lexical checks for adapter ids, names, media types and image
 * references (see grammar.h).  Trust: hostile bytes, bounded by n.
 */
#include "adapter/grammar.h"

#include <string.h>

static bool lower_alnum(unsigned char c)
{
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool alnum(unsigned char c)
{
        return lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

bool prc_gram_id(const char *s, size_t n)
{
        if (n == 0 || n > 128 || !lower_alnum((unsigned char)s[0]))
                return false;
        for (size_t i = 1; i < n; i++) {
                unsigned char c = (unsigned char)s[i];
                if (!lower_alnum(c) && c != '.' && c != '_' && c != ':' && c != '-')
                        return false;
        }
        return true;
}

bool prc_gram_name(const char *s, size_t n)
{
        if (n == 0 || n > 128 || !lower_alnum((unsigned char)s[0]))
                return false;
        for (size_t i = 1; i < n; i++) {
                unsigned char c = (unsigned char)s[i];
                if (!lower_alnum(c) && c != '.' && c != '_' && c != '-')
                        return false;
        }
        return true;
}

/* RFC 6838 restricted-name: 1..127 chars, alnum first. */
static size_t restricted_name(const char *s, size_t n)
{
        size_t i = 0;

        if (n == 0 || !alnum((unsigned char)s[0]))
                return 0;
        for (i = 1; i < n && i < 127; i++) {
                unsigned char c = (unsigned char)s[i];
                if (!alnum(c) && strchr("!#$&-^_.+", c) == NULL)
                        break;
        }
        return i;
}

bool prc_gram_media_type(const char *s, size_t n)
{
        size_t i = restricted_name(s, n), k;

        if (i == 0 || i >= n || s[i] != '/')
                return false;
        i++;
        k = restricted_name(s + i, n - i);
        if (k == 0)
                return false;
        i += k;
        while (i < n) {
                /* ";attr=value", no whitespace: one canonical spelling per media type */
                if (s[i] != ';')
                        return false;
                i++;
                k = restricted_name(s + i, n - i);
                if (k == 0)
                        return false;
                i += k;
                if (i >= n || s[i] != '=')
                        return false;
                i++;
                k = restricted_name(s + i, n - i);
                if (k == 0)
                        return false;
                i += k;
        }
        return true;
}

bool prc_gram_registry(const char *s, size_t n)
{
        size_t i = 0, host_end = n;
        bool dot = false;

        if (n == 0 || n > 255)
                return false;
        for (size_t j = 0; j < n; j++)
                if (s[j] == ':') {
                        host_end = j;
                        break;
                }
        /* DNS labels: lowercase alnum and inner hyphens */
        while (i < host_end) {
                size_t start = i;
                while (i < host_end && (lower_alnum((unsigned char)s[i]) || s[i] == '-'))
                        i++;
                if (i == start || i - start > 63 || s[start] == '-' || s[i - 1] == '-')
                        return false;
                if (i < host_end) {
                        if (s[i] != '.')
                                return false;
                        dot = true;
                        i++;
                        if (i == host_end)
                                return false;
                }
        }
        if (host_end < n) {
                size_t digits = n - host_end - 1;
                if (digits == 0 || digits > 5)
                        return false;
                for (size_t j = host_end + 1; j < n; j++)
                        if (s[j] < '0' || s[j] > '9')
                                return false;
        }
        /* "alpine" alone would mean Docker Hub implicitly: the host must be explicit */
        return dot || (host_end == 9 && memcmp(s, "localhost", 9) == 0);
}

bool prc_gram_repository(const char *s, size_t n)
{
        size_t i = 0;

        if (n == 0 || n > 255)
                return false;
        for (;;) {
                /* component: [a-z0-9]+ ((\.|_|__|-+)[a-z0-9]+)* */
                for (;;) {
                        if (i >= n || !lower_alnum((unsigned char)s[i]))
                                return false;
                        while (i < n && lower_alnum((unsigned char)s[i]))
                                i++;
                        if (i == n || s[i] == '/')
                                break;
                        if (s[i] == '.') {
                                i++;
                        } else if (s[i] == '_') {
                                i++;
                                if (i < n && s[i] == '_')
                                        i++;
                        } else if (s[i] == '-') {
                                while (i < n && s[i] == '-')
                                        i++;
                        } else {
                                return false;   /* ':' tag, '@' digest, uppercase, ... */
                        }
                }
                if (i == n)
                        return true;
                i++;                            /* '/', then another component */
        }
}

bool prc_gram_release(const char *s, size_t n)
{
        static const char *const floating[] = { "latest", "stable", "edge", "nightly", "main",
                                                "master", "head", "current", "release", "any" };
        bool digit = false;
        size_t part = 0;

        if (n == 0 || n > 64 || !alnum((unsigned char)s[0]))
                return false;
        for (size_t i = 0; i < sizeof(floating) / sizeof(floating[0]); i++)
                if (strlen(floating[i]) == n && strncasecmp(s, floating[i], n) == 0)
                        return false;
        for (size_t i = 0; i <= n; i++) {
                if (i == n || s[i] == '.' || s[i] == '-' || s[i] == '+') {
                        /* a lone x / X part is a wildcard ("1.x") */
                        if (i - part == 1 && (s[part] == 'x' || s[part] == 'X'))
                                return false;
                        if (i == part)
                                return false;   /* empty part: "1..2", "1." */
                        part = i + 1;
                        continue;
                }
                if (s[i] >= '0' && s[i] <= '9')
                        digit = true;
                else if (!alnum((unsigned char)s[i]) && s[i] != '_')
                        return false;   /* ^ ~ < > = * | , space: ranges and wildcards */
        }
        return digit;
}

bool prc_gram_text(const char *s, size_t n, size_t max)
{
        if (n == 0 || n > max)
                return false;
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)s[i];
                if (c < 0x20 || c == 0x7f)
                        return false;
        }
        return true;
}
