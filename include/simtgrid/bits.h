/* Bit counts without the target's popcount instruction. The build targets
 * the baseline x86-64 ISA (no -m flags), where __builtin_popcount compiles
 * to a call to libgcc's __popcountdi2; the SM counts lanes several times
 * per issue, so that call showed up in the profiles (13.5 M instructions in
 * bench 1 at args = 100). The SWAR count below is a dozen inline ALU
 * operations and gives the same value. */
#ifndef SIMTGRID_BITS_H
#define SIMTGRID_BITS_H

#include <stdint.h>

static inline unsigned sg_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

static inline unsigned sg_popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

#endif
