/* Set-index functions against Wang's dissertation, section 3.2: the intra-warp
 * concentration (IWC = accesses / distinct sets) of A[tid*STRIDE], 32
 * threads from base 0x80000000, 128-B lines, 32 sets, and single addresses
 * worked out by hand from the formulas. */
#include <criterion/criterion.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/l1d_index.h"

#define BASE 0x80000000ull
#define KB 1024ull
#define MB (1024ull * KB)

static set_index make(const char *kind, unsigned sets)
{
    set_index ix;
    char why[160];
    cr_assert(set_index_init(&ix, mem_policy("l1d.index", kind), sets, 128, 9, why, sizeof why), "%s", why);
    return ix;
}

/* Distinct sets touched by the 32 accesses base + i*stride. */
static unsigned sets_touched(const set_index *ix, uint64_t stride)
{
    bool seen[64] = {false};
    unsigned n = 0;
    for (unsigned i = 0; i < 32; i++) {
        unsigned s = set_index_of(ix, BASE + i * stride);
        cr_assert_lt(s, ix->sets);
        if (!seen[s]) {
            seen[s] = true;
            n++;
        }
    }
    return n;
}

/* Our table (docs/cache.md, computed from the formulas of Wang's dissertation,
 * section 3.2), columns 128 B .. 512 KB and >= 1 MB (tested at 1, 4 and 16
 * MB), as IWC. Sets touched = 32 / IWC. */
static const uint64_t strides[] = {128,     256,     512,      1 * KB,   2 * KB,   4 * KB,
                                   8 * KB,  16 * KB, 32 * KB,  64 * KB,  128 * KB, 256 * KB,
                                   512 * KB, 1 * MB, 4 * MB,   16 * MB};
#define NSTRIDES (sizeof strides / sizeof strides[0])

static void expect_iwc(const char *kind, const unsigned *iwc)
{
    set_index ix = make(kind, 32);
    for (unsigned i = 0; i < NSTRIDES; i++)
        cr_expect_eq(sets_touched(&ix, strides[i]), 32 / iwc[i], "%s stride %llu: IWC %u expected",
                     kind, (unsigned long long)strides[i], iwc[i]);
}

Test(index, conv_iwc_vectors)
{
    /* CONV = addr[11:7]: a 2^k-block stride leaves 5-k index bits varying. */
    static const unsigned iwc[] = {1, 2, 4, 8, 16, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32};
    expect_iwc("linear", iwc);
}

Test(index, bxor_iwc_vectors)
{
    /* BXOR = addr[11:7] ^ addr[16:12]: ideal while the varying bits stay in
     * addr[16:7] (stride <= 4 KB), then 2, 4, ... sets lost per doubling. */
    static const unsigned iwc[] = {1, 1, 1, 1, 1, 1, 2, 4, 8, 16, 32, 32, 32, 32, 32, 32};
    expect_iwc("xor", iwc);
}

Test(index, fermi_iwc_vectors)
{
    /* The Fermi-hash row of that table, e.g. 4 KB: i sits in addr[16:12], of
     * which bits 13,14,15 reach the set: 8 sets, IWC 4; 32 KB (ATAX): 8 of
     * 32 sets, IWC 4, as the thesis says. */
    static const unsigned iwc[] = {1, 2, 2, 2, 2, 4, 2, 4, 4, 8, 8, 16, 16, 32, 32, 32};
    expect_iwc("fermi", iwc);
}

Test(index, fup_iwc_vectors)
{
    /* FUP is ideal (IWC 1) from 128 B to 1 MB. Worked for 1 MB (blocks
     * 2^13 apart): i bits 0-1 land in S3 bits 3-4, i bits 2-4 in S4 bits 0-2,
     * the base's addr bit 31 in S4 bit 9: S4 = 512 + (i>>2), mod 31 = 16 +
     * (i>>2); set = ((i&3)<<3) ^ (16 + (i>>2)): 32 distinct.
     * 4 MB: S4 = 512 + i, mod 31 = (16 + i) mod 31: i = 0 and 31 collide, 31 sets.
     * 16 MB: S4 = 512 + 4i, mod 31 = (16 + 4i) mod 31; 4 is invertible mod
     * 31, so again only i = 0 and 31 collide: 31 sets (IWC 1.03 <= 1.1). */
    set_index ix = make("fup", 32);
    for (unsigned i = 0; i < 14; i++)
        cr_expect_eq(sets_touched(&ix, strides[i]), 32, "stride %llu",
                     (unsigned long long)strides[i]);
    cr_expect_eq(sets_touched(&ix, 4 * MB), 31);
    cr_expect_eq(sets_touched(&ix, 16 * MB), 31);
    /* 2 MB (blocks 2^14 apart): S3 bit 4 = i&1, S4 = 512 + (i>>1) -> (16 + k)
     * mod 31 for k = 0..15, so k = 15 gives 0: the two sets with low bits 0
     * are each hit twice: 30 sets, IWC 1.07 <= 1.1. */
    cr_expect_eq(sets_touched(&ix, 2 * MB), 30);
}

Test(index, prime_displacement_iwc)
{
    /* pDisp uses 31 of 32 sets, so its best is IWC 32/31 (Wang, section
     * 3.2.4). 128 B: x = i, T constant: (c + i) mod 31 repeats once.
     * 4 KB: x = 0, T = 2^19 + i: 9i mod 31 repeats once (9 invertible mod 31). */
    set_index ix = make("prime", 32);
    cr_expect_eq(ix.prime_sets, 31);
    cr_expect_eq(sets_touched(&ix, 128), 31);
    cr_expect_eq(sets_touched(&ix, 4 * KB), 31);
    cr_expect_eq(sets_touched(&ix, 32 * KB), 31);
    for (uint64_t a = 0; a < 64 * KB; a += 128)
        cr_assert_lt(set_index_of(&ix, a), 31u, "set 31 is never used");
}

Test(index, poly_spreads_power_of_two_strides)
{
    /* b(x) mod P(x) is linear over GF(2); for a stride of 2^k blocks with
     * k <= 19 the 32 block addresses are base XOR i*x^k, and i(x)*x^k mod P
     * is a bijection of the 32 residues (P irreducible, x invertible): every
     * stride from 128 B to 64 MB touches all 32 sets. */
    set_index ix = make("poly", 32);
    for (unsigned i = 0; i < NSTRIDES; i++)
        cr_expect_eq(sets_touched(&ix, strides[i]), 32, "stride %llu",
                     (unsigned long long)strides[i]);
    cr_expect_eq(sets_touched(&ix, 64 * MB), 32);
}

Test(index, single_addresses_by_hand)
{
    /* addr 0x123456780: b = addr >> 7 = 0x2468ACF.
     * S1 = b[4:0] = 15, S2 = b[9:5] = 22, S3 = b[14:10] = 2,
     * S4 = b[27:15] = 0x48D = 1165, 1165 mod 31 = 18 (31*37 = 1147). */
    uint64_t a = 0x123456780ull;
    set_index lin = make("linear", 32), bx = make("xor", 32);
    set_index pd = make("prime", 32), fe = make("fermi", 32);
    set_index fe64 = make("fermi", 64), fup = make("fup", 32);
    cr_expect_eq(set_index_of(&lin, a), 15);
    cr_expect_eq(set_index_of(&bx, a), 15 ^ 22);            /* 25 */
    /* T = b >> 5 = 0x123456 = 1193046 = 31*38485 + 11: (9*11 + 15) mod 31 = 114 mod 31 = 21 */
    cr_expect_eq(set_index_of(&pd, a), 21);
    /* lower 15; addr bits 13-15 = 0b011 (0x6780), bits 17 and 19 = 0 (nibble 5): upper 3 */
    cr_expect_eq(set_index_of(&fe, a), 15 ^ 3);             /* 12 */
    cr_expect_eq(set_index_of(&fe64, a), 12);               /* addr bit 12 = 0 */
    cr_expect_eq(set_index_of(&fe64, 0x1000), 32);          /* bit 12 -> set bit 5 */
    cr_expect_eq(set_index_of(&fup, a), (15 ^ 22) ^ (2 ^ 18));  /* 25 ^ 16 = 9 */
    cr_expect_eq(set_index_of(&fup, a), 9);
    /* Linear with a non-power-of-two count is a modulo (pMOD with 31 sets). */
    set_index pmod = make("linear", 31);
    cr_expect_eq(set_index_of(&pmod, 31 * 128), 0);
    cr_expect_eq(set_index_of(&pmod, 40 * 128), 9);
}

Test(index, poly_remainders_by_hand)
{
    /* P = x^5 + x^2 + 1 (0x25), so x^5 = x^2+1 = 5; x^6 = x^3+x = 10;
     * x^7 = x^4+x^2 = 20; x^8 = x^5+x^3 = x^3+x^2+1 = 13;
     * x^10 = (x^5)^2 = x^4+1 = 17 (squaring is linear over GF(2));
     * x^20 = (x^10)^2 = x^8+1 = x^3+x^2 = 12;
     * x^24 = x^20 * x^4 = x^7+x^6 = (x^4+x^2)+(x^3+x) = 30. */
    cr_expect_eq(set_index_poly_of_degree(5), 0x25);
    cr_expect_eq(l1d_set_index_poly(32, 5, 0x25), 5);
    cr_expect_eq(l1d_set_index_poly(64, 5, 0x25), 10);
    cr_expect_eq(l1d_set_index_poly(1024, 5, 0x25), 17);
    cr_expect_eq(l1d_set_index_poly(256, 5, 0x25), 13);
    cr_expect_eq(l1d_set_index_poly(1u << 20, 5, 0x25), 12);
    cr_expect_eq(l1d_set_index_poly(1u << 24, 5, 0x25), 30);
    cr_expect_eq(l1d_set_index_poly(33, 5, 0x25), 4);   /* x^5 + 1 -> 5 ^ 1 */
    cr_expect_eq(l1d_set_index_poly(31, 5, 0x25), 31);  /* below degree 5: itself */
}

/* Remainder of a by d over GF(2). */
static uint64_t gf2_mod(uint64_t a, uint64_t d)
{
    unsigned dd = 63u - (unsigned)__builtin_clzll(d);
    while (a && 63u - (unsigned)__builtin_clzll(a) >= dd)
        a ^= d << (63u - (unsigned)__builtin_clzll(a) - dd);
    return a;
}

Test(index, poly_table_is_irreducible)
{
    /* Each P of degree s has no divisor of degree 1..s/2 (trial division by
     * every polynomial of that degree), so b mod P uses all 2^s residues. */
    for (unsigned s = 1; s <= 16; s++) {
        uint32_t p = set_index_poly_of_degree(s);
        cr_assert_eq(63u - (unsigned)__builtin_clzll(p), s, "degree of the poly for s=%u", s);
        for (uint64_t d = 2; d < (1ull << (s / 2 + 1)); d++)
            cr_expect_neq(gf2_mod(p, d), 0, "s=%u: 0x%x divisible by 0x%llx", s, p,
                          (unsigned long long)d);
    }
    cr_expect_eq(set_index_poly_of_degree(0), 0);
    cr_expect_eq(set_index_poly_of_degree(17), 0);
}

Test(index, primes_below)
{
    cr_expect_eq(set_index_prime_below(32), 31);
    cr_expect_eq(set_index_prime_below(64), 61);
    cr_expect_eq(set_index_prime_below(128), 127);
    cr_expect_eq(set_index_prime_below(4), 3);
    cr_expect_eq(set_index_prime_below(3), 2);
}

Test(index, other_line_sizes_use_block_address)
{
    /* 64-B lines: block address b = addr >> 6, so addr 64*37 is block 37: linear 37 mod 32 = 5. */
    set_index ix;
    char why[160];
    cr_assert(set_index_init(&ix, mem_policy("l1d.index", "linear"), 32, 64, 9, why, sizeof why));
    cr_expect_eq(set_index_of(&ix, 64 * 37 + 63), 5);
    cr_assert(set_index_init(&ix, mem_policy("l1d.index", "xor"), 16, 64, 9, why, sizeof why));
    /* 16 sets: b[3:0] ^ b[7:4]; block 0x5A -> 0xA ^ 0x5 = 0xF */
    cr_expect_eq(set_index_of(&ix, 0x5Aull * 64), 0xF);
}

static void expect_init_error(const char *kind, unsigned sets, unsigned line, unsigned factor,
                              const char *want)
{
    set_index ix;
    char why[160] = "";
    cr_expect_not(set_index_init(&ix, mem_policy("l1d.index", kind), sets, line, factor, why, sizeof why));
    cr_expect(strstr(why, want), "got '%s', wanted '%s'", why, want);
}

Test(index, init_errors)
{
    expect_init_error("fermi", 16, 128, 9, "expected 32 or 64 sets for index=fermi, got 16");
    expect_init_error("xor", 48, 128, 9, "power-of-two set count from 2 to 65536 for index=xor, got 48");
    expect_init_error("fup", 1, 128, 9, "index=fup, got 1");
    expect_init_error("poly", 1u << 17, 128, 9, "index=poly, got 131072");
    expect_init_error("prime", 2, 128, 9, "from 4 to 65536 for index=prime, got 2");
    expect_init_error("prime", 32, 128, 0, "displacement factor of at least 1, got 0");
    expect_init_error("linear", 0, 128, 9, "at least 1 set, got 0");
    expect_init_error("linear", 32, 100, 9, "power-of-two line size, got 100");
    set_index ix;
    char why[160] = "";
    cr_expect_not(set_index_init(&ix, mem_policy("l1d.index", "nope"), 32, 128, 9, why, sizeof why));
    cr_expect_str_eq(why, "expected a set-index function");
}
