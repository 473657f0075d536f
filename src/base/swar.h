/*
 * swar.h - byte tests on eight bytes at once (a uint64_t read with memcpy),
 * for the scanners that skip runs of plain bytes a word at a time (jcs.c,
 * yaml.c).  Each gives a word whose high bits say which bytes pass; it is
 * exact as yes or no (test it against PRC_SWAR_HIGHS), not as to which
 * byte: a borrow only crosses a byte that already passed.
 */
#ifndef PRC_SWAR_H
#define PRC_SWAR_H

#include <stdint.h>

#define PRC_SWAR_ONES  0x0101010101010101u
#define PRC_SWAR_HIGHS 0x8080808080808080u

/* Some byte of w equals c. */
static inline uint64_t prc_swar_eq(uint64_t w, uint8_t c)
{
        uint64_t x = w ^ (uint64_t)c * PRC_SWAR_ONES;

        return (x - PRC_SWAR_ONES) & ~x & PRC_SWAR_HIGHS;
}

/* Some byte of w is below c (c at most 0x80; a byte from 0x80 up never counts). */
static inline uint64_t prc_swar_lt(uint64_t w, uint8_t c)
{
        return (w - (uint64_t)c * PRC_SWAR_ONES) & ~w & PRC_SWAR_HIGHS;
}

#endif
