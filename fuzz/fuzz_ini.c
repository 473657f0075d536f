/*
 * fuzz_ini.c - libFuzzer harness for the INI reader.
 * Invariants: exactly one outcome; an error with an offset has a line; a
 * document is {section: {key: string}} with lower-case keys.
 */
#include <jansson.h>

#include "fuzz.h"
#include "base/limits.h"
#include "content/parsers/ini.h"

PRC_FUZZ_TARGET(ini)
{
        prc_err e;
        json_t *v, *sect, *val;
        const char *name, *key;

        prc_err_init(&e);
        v = prc_ini_parse(p, n, &prc_limits_fuzz, 0, &e);
        if ((v == NULL) != (e.cls != PRC_E_OK))
                __builtin_trap();
        if (v == NULL && e.off != PRC_NO_OFF && e.line == 0)
                __builtin_trap();
        json_object_foreach(v, name, sect) {
                if (!json_is_object(sect))
                        __builtin_trap();
                json_object_foreach(sect, key, val) {
                        if (!json_is_string(val))
                                __builtin_trap();
                        for (const char *c = key; *c; c++)
                                if (*c >= 'A' && *c <= 'Z')
                                        __builtin_trap();
                }
        }
        json_decref(v);
        return 0;
}
