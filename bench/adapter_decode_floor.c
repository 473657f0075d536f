/*
 * adapter_decode_floor.c - the baseline for bench/adapter_decode.sh: parse
 * every line of a transcript with jansson (duplicate keys rejected) and
 * free it, nothing else.  prc's decoder does this plus every protocol check,
 * so the ratio between the two is the price of strictness.
 *
 *   cc -O2 bench/adapter_decode_floor.c -ljansson -o floor && ./floor T.jsonl
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
        FILE *f;
        char *b, *p, *end;
        long n, ok = 0;

        if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL)
                return 2;
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fseek(f, 0, SEEK_SET);
        b = malloc((size_t)n + 1);
        if (b == NULL || fread(b, 1, (size_t)n, f) != (size_t)n)
                return 2;
        fclose(f);
        for (p = b, end = b + n; p < end;) {
                char *nl = memchr(p, '\n', (size_t)(end - p));
                json_error_t je;
                json_t *v;

                if (nl == NULL)
                        nl = end;
                v = json_loadb(p, (size_t)(nl - p), JSON_REJECT_DUPLICATES, &je);
                ok += v != NULL;
                json_decref(v);
                p = nl + 1;
        }
        printf("%ld lines parsed\n", ok);
        free(b);
        return 0;
}
