/*
 * native_normalize_floor.c - the baseline for bench/native_normalize.sh:
 * parse the whole report with jansson (duplicate keys rejected, reals
 * allowed), then free it; nothing else.  The normalizer does this plus every
 * protocol check, sorting and canonical output, so the ratio between the
 * two is the price of strictness.
 *
 *   cc -O2 bench/native_normalize_floor.c -ljansson -o floor && ./floor REPORT
 */
#include <jansson.h>
#include <stdio.h>

int main(int argc, char **argv)
{
        json_error_t e;
        json_t *v;

        if (argc != 2)
                return 2;
        v = json_load_file(argv[1], JSON_REJECT_DUPLICATES, &e);
        if (v == NULL)
                return 1;
        json_decref(v);
        return 0;
}
