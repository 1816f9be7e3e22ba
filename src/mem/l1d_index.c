/* Set-index functions (Wang's memory-divergence dissertation, section 3.2;
 * docs/cache.md has the formulas). */
#include "mem/l1d_index.h"

#include <stdio.h>

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static unsigned log2_floor(uint64_t v)
{
    return v ? 63u - (unsigned)__builtin_clzll(v) : 0;
}

unsigned set_index_prime_below(unsigned n)
{
    for (unsigned c = n - 1; c > 2; c--) {
        bool prime = c % 2 != 0;
        for (unsigned d = 3; prime && d * d <= c; d += 2)
            prime = c % d != 0;
        if (prime)
            return c;
    }
    return 2;
}

/* Irreducible (primitive) polynomials of degree 1..16 over GF(2), with the
 * x^s term: the standard LFSR table (e.g. x^5 + x^2 + 1 = 0x25). The test
 * checks each for irreducibility. */
static const uint32_t poly_by_degree[17] = {
    0,      0x3,    0x7,    0xB,    0x13,   0x25,   0x43,   0x83,   0x11D,
    0x211,  0x409,  0x805,  0x1053, 0x201B, 0x4443, 0x8003, 0x1100B,
};

uint32_t set_index_poly_of_degree(unsigned s)
{
    return s < 17 ? poly_by_degree[s] : 0;
}

unsigned l1d_set_index_linear(uint64_t b, unsigned sets)
{
    return is_pow2(sets) ? (unsigned)(b & (sets - 1)) : (unsigned)(b % sets);
}

unsigned l1d_set_index_xor(uint64_t b, unsigned s)
{
    uint64_t mask = (1ull << s) - 1;
    return (unsigned)((b ^ (b >> s)) & mask);
}

/* pDisp: T is the tag (b above the s index bits), x the conventional index;
 * (p*T + x) mod n' with n' the largest prime below the set count, so sets
 * n'..sets-1 stay unused. The product is formed modulo n' so a 57-bit tag
 * cannot overflow. */
unsigned l1d_set_index_prime(uint64_t b, unsigned sets, unsigned prime_sets, unsigned s,
                             unsigned factor)
{
    uint64_t t = b >> s, x = b & (sets - 1);
    uint64_t pt = (uint64_t)(factor % prime_sets) * (t % prime_sets);
    return (unsigned)((pt + x) % prime_sets);
}

/* GPGPU-Sim's FERMI_HASH_SET_FUNCTION, written for 128-B lines on address
 * bits: lower = addr[11:7]; upper = addr bits 13,14,15,17,19 packed into 5
 * bits; set = lower ^ upper; 64 sets also take addr bit 12 as set bit 5.
 * On the block address (addr bit k = b bit k-7) that is lower = b[4:0],
 * upper = b bits 6,7,8 -> 0,1,2, b bit 10 -> 3, b bit 12 -> 4, and b bit 5
 * as set bit 5; other line sizes use the same block-address bits. */
unsigned l1d_set_index_fermi(uint64_t b, unsigned sets)
{
    unsigned lower = (unsigned)(b & 0x1F);
    unsigned upper = (unsigned)(((b >> 6) & 0x7) | (((b >> 10) & 1) << 3) | (((b >> 12) & 1) << 4));
    unsigned set = lower ^ upper;
    if (sets == 64)
        set |= (unsigned)(b & 0x20);
    return set;
}

/* FUP: four groups of the feature bits, S1 = b[s-1:0], S2 = b[2s-1:s],
 * S3 = b[3s-1:2s], S4 = the next s4_bits bits; when S4 is wider than s it
 * is folded by a prime modulus (s4_prime, the largest prime below 2^s);
 * index = (S1 ^ S2) ^ (S3 ^ S4). For 32 sets: S4 = addr[34:22] mod 31. */
unsigned l1d_set_index_fup(uint64_t b, unsigned s, unsigned s4_bits, unsigned s4_prime)
{
    uint64_t mask = (1ull << s) - 1;
    uint64_t s1 = b & mask, s2 = (b >> s) & mask, s3 = (b >> (2 * s)) & mask;
    uint64_t s4 = (b >> (3 * s)) & ((1ull << s4_bits) - 1);
    if (s4_bits > s)
        s4 %= s4_prime;
    return (unsigned)((s1 ^ s2) ^ (s3 ^ s4));
}

/* I-Poly: the remainder of b(x) divided by P(x) over GF(2) (carry-less long
 * division from the top set bit down), a linear map in which every stride
 * 2^k spreads 2^s consecutive blocks over all 2^s sets. */
unsigned l1d_set_index_poly(uint64_t b, unsigned s, uint32_t poly)
{
    while (b >> s) {
        unsigned top = log2_floor(b);
        b ^= (uint64_t)poly << (top - s);
    }
    return (unsigned)b;
}

/* ---- the policies: init checks the set count and precomputes, of maps --- */

static bool pow2_sets(set_index *ix, const char *name, unsigned min, char *why, size_t why_len)
{
    if (!is_pow2(ix->sets) || ix->sets < min || ix->set_bits > 16) {
        snprintf(why, why_len, "expected a power-of-two set count from %u to 65536 for index=%s, got %u",
                 min, name, ix->sets);
        return false;
    }
    return true;
}

static bool linear_init(set_index *ix, const char *name, char *why, size_t why_len)
{
    (void)name;
    if (ix->sets < 1) {
        snprintf(why, why_len, "expected at least 1 set, got %u", ix->sets);
        return false;
    }
    return true;
}

static unsigned linear_of(const set_index *ix, uint64_t b) { return l1d_set_index_linear(b, ix->sets); }

static bool xor_init(set_index *ix, const char *name, char *why, size_t why_len)
{
    return pow2_sets(ix, name, 2, why, why_len);
}

static unsigned xor_of(const set_index *ix, uint64_t b) { return l1d_set_index_xor(b, ix->set_bits); }

static bool prime_init(set_index *ix, const char *name, char *why, size_t why_len)
{
    if (!pow2_sets(ix, name, 4, why, why_len))
        return false;
    if (ix->pdisp_factor < 1) {
        ix->bad_key = "index_prime_factor";
        snprintf(why, why_len, "expected a displacement factor of at least 1, got %u", ix->pdisp_factor);
        return false;
    }
    ix->prime_sets = set_index_prime_below(ix->sets);
    return true;
}

static unsigned prime_of(const set_index *ix, uint64_t b)
{
    return l1d_set_index_prime(b, ix->sets, ix->prime_sets, ix->set_bits, ix->pdisp_factor);
}

static bool fermi_init(set_index *ix, const char *name, char *why, size_t why_len)
{
    if (ix->sets != 32 && ix->sets != 64) {
        snprintf(why, why_len, "expected 32 or 64 sets for index=%s, got %u", name, ix->sets);
        return false;
    }
    return true;
}

static unsigned fermi_of(const set_index *ix, uint64_t b) { return l1d_set_index_fermi(b, ix->sets); }

static bool fup_init(set_index *ix, const char *name, char *why, size_t why_len)
{
    if (!pow2_sets(ix, name, 2, why, why_len))
        return false;
    unsigned f = SET_INDEX_FUP_FEATURE_BITS > 4 * ix->set_bits ? SET_INDEX_FUP_FEATURE_BITS
                                                               : 4 * ix->set_bits;
    ix->fup_s4_bits = f - 3 * ix->set_bits;
    if (ix->fup_s4_bits > 60 - 3 * ix->set_bits)
        ix->fup_s4_bits = 60 - 3 * ix->set_bits;
    ix->prime_sets = ix->sets >= 4 ? set_index_prime_below(ix->sets) : ix->sets;
    return true;
}

static unsigned fup_of(const set_index *ix, uint64_t b)
{
    return l1d_set_index_fup(b, ix->set_bits, ix->fup_s4_bits, ix->prime_sets);
}

static bool poly_init(set_index *ix, const char *name, char *why, size_t why_len)
{
    if (!pow2_sets(ix, name, 2, why, why_len))
        return false;
    ix->poly = set_index_poly_of_degree(ix->set_bits);
    return true;
}

static unsigned poly_of(const set_index *ix, uint64_t b) { return l1d_set_index_poly(b, ix->set_bits, ix->poly); }

const set_index_ops set_index_linear_ops = {linear_init, linear_of};
const set_index_ops set_index_xor_ops = {xor_init, xor_of};
const set_index_ops set_index_prime_ops = {prime_init, prime_of};
const set_index_ops set_index_fermi_ops = {fermi_init, fermi_of};
const set_index_ops set_index_fup_ops = {fup_init, fup_of};
const set_index_ops set_index_poly_ops = {poly_init, poly_of};

bool set_index_init(set_index *ix, const policy *kind, unsigned sets, unsigned line_bytes,
                    unsigned pdisp_factor, char *why, size_t why_len)
{
    *ix = (set_index){.sets = sets, .pdisp_factor = pdisp_factor};
    if (!kind) {
        snprintf(why, why_len, "expected a set-index function");
        return false;
    }
    ix->ops = kind->ops;
    if (!is_pow2(line_bytes)) {
        snprintf(why, why_len, "expected a power-of-two line size, got %u", line_bytes);
        return false;
    }
    ix->line_shift = log2_floor(line_bytes);
    ix->set_bits = log2_floor(sets);
    return ix->ops->init(ix, kind->name, why, why_len);
}
