/* Set-index functions of the caches (L1D and L2 alike): which set a line
 * address maps to. Formulas and the intra-warp-concentration vectors they
 * must reproduce are in Wang's memory-divergence dissertation, section 3.2,
 * and docs/cache.md.
 *
 * Every function works on the block address b = addr >> log2(line_bytes), so
 * the bit positions quoted for 128-B lines (addr[11:7] ...) are b[4:0] ...
 * for any line size. Pure functions: no state, no allocation. */
#ifndef SIMTGRID_MEM_L1D_INDEX_H
#define SIMTGRID_MEM_L1D_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtgrid/policy.h"

/* The functions, registered as l1d.index / l2.index in src/mem/registry.def:
 *   linear  CONV: b mod sets (any set count: a prime count is pMOD)
 *   xor     BXOR [Gonzalez ICS'97]: b[s-1:0] ^ b[2s-1:s]
 *   prime   pDisp [Kharbutli HPCA'04]: (p*T + x) mod (largest prime < sets)
 *   fermi   GPGPU-Sim's FERMI_HASH_SET_FUNCTION (32 or 64 sets)
 *   fup     full permutation (Wang, DATE'15): two XOR levels over 4 groups
 *   poly    I-Poly: b(x) mod P(x) over GF(2), P irreducible of degree s */
typedef struct set_index set_index;
typedef struct set_index_ops {
    /* Checks the set count (and factor) in *ix and precomputes; false with
     * what was expected in why (`name` is the function's, for the text). */
    bool (*init)(set_index *ix, const char *name, char *why, size_t why_len);
    /* The set of block address b. */
    unsigned (*of)(const set_index *ix, uint64_t b);
} set_index_ops;

/* Address bits that can vary across a warp's strided accesses: bits 7..34 of
 * a 16 GB device (Wang, section 3.2.2, "num_feature_bits"); FUP folds this
 * many block-address bits. */
#define SET_INDEX_FUP_FEATURE_BITS 28

/* Everything an index function needs, precomputed once per cache. */
struct set_index {
    const set_index_ops *ops;
    unsigned sets;          /* set count */
    unsigned set_bits;      /* log2(sets) for power-of-two counts */
    unsigned line_shift;    /* log2(line_bytes) */
    unsigned prime_sets;    /* prime: sets used (largest prime < sets); fup: S4 modulus */
    unsigned pdisp_factor;  /* prime: the displacement p */
    unsigned fup_s4_bits;   /* fup: width of group S4 */
    uint32_t poly;          /* poly: P(x) with its x^s term, e.g. 0x25 = x^5+x^2+1 */
    const char *bad_key;    /* after a failed init: the parameter suffix at fault, or NULL (sets) */
};

/* Checks the combination and precomputes. On failure returns false with
 * "what was expected" in why: xor, fup and poly need a power-of-two set
 * count from 2 to 65536, prime one from 4 to 65536 and a factor of at least
 * 1, fermi 32 or 64 sets, linear any count; line_bytes a power of two. */
bool set_index_init(set_index *ix, const policy *kind, unsigned sets, unsigned line_bytes,
                    unsigned pdisp_factor, char *why, size_t why_len);

/* The set of byte address `addr` (any byte of the line). */
static inline unsigned set_index_of(const set_index *ix, uint64_t addr)
{
    return ix->ops->of(ix, addr >> ix->line_shift);
}

/* The individual functions, on block address b with a power-of-two set count
 * 2^s (linear and prime take the counts themselves). Exposed for tests and
 * for anyone comparing functions outside a cache. */
unsigned l1d_set_index_linear(uint64_t b, unsigned sets);
unsigned l1d_set_index_xor(uint64_t b, unsigned s);
unsigned l1d_set_index_prime(uint64_t b, unsigned sets, unsigned prime_sets, unsigned s,
                             unsigned factor);
unsigned l1d_set_index_fermi(uint64_t b, unsigned sets);
unsigned l1d_set_index_fup(uint64_t b, unsigned s, unsigned s4_bits, unsigned s4_prime);
unsigned l1d_set_index_poly(uint64_t b, unsigned s, uint32_t poly);

/* The irreducible polynomial poly uses for 2^s sets (1 <= s <= 16), with
 * its x^s term; 0 outside that range. */
uint32_t set_index_poly_of_degree(unsigned s);

/* Largest prime strictly below n (n >= 3); 2 for n = 3. */
unsigned set_index_prime_below(unsigned n);

#endif
