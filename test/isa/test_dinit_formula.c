/* formula(expr): values against the same expressions written in C in this
 * file (uint32_t arithmetic for elements up to 4 bytes, uint64_t for 8-byte
 * ones), the mixers against their published reference code and test values,
 * and the parse errors. */
#include <inttypes.h>

#include "test_memimg_util.h"

/* ---- reference mixers, as published -------------------------------------- */

/* MurmurHash3's fmix32 (Appleby, MurmurHash3.cpp) */
static uint32_t ref_fmix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6b;
    h ^= h >> 13;
    h *= 0xc2b2ae35;
    h ^= h >> 16;
    return h;
}
/* MurmurHash3's fmix64 */
static uint64_t ref_fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}
/* Wellons' lowbias32 ("Prospecting for hash functions") */
static uint32_t ref_lowbias32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352d;
    x ^= x >> 15;
    x *= 0x846ca68b;
    x ^= x >> 16;
    return x;
}

#define N 4096

Test(dinit_formula, mixer_anchor_values)
{
    /* fmix32(1) = 0x514e28b7, worked step by step: 1 -> *0x85ebca6b = 0x85ebca6b
     * -> ^>>13 = 0x85efe535 -> *0xc2b2ae35 -> ^>>16 (checked with Python's
     * big integers); fmix32(0) = 0: the finaliser maps 0 to 0. */
    cr_assert_eq(ref_fmix32(1), 0x514e28b7u);
    memimg *m = one_array(0, 4, false, 4, "formula(fmix32(i))");
    cr_assert_eq(elem(m, 0), 0);
    cr_assert_eq(elem(m, 1), 0x514e28b7u);
    memimg_free(m);
}

Test(dinit_formula, u32_arithmetic_matches_c)
{
    memimg *m = one_array(0, 4, false, N, "formula( (i * 2654435761 + 7) >> 3 ^ (i % 13) * (i / 5) )");
    for (uint32_t i = 0; i < N; i++) {
        uint32_t want = ((i * 2654435761u + 7) >> 3) ^ ((i % 13) * (i / 5));
        cr_assert_eq(elem(m, i), want, "i=%u", i);
    }
    memimg_free(m);
}

Test(dinit_formula, all_operators_u32)
{
    memimg *m = one_array(0, 4, false, N,
                          "formula((i & 0xF0) | (i << 3) - (i < 100) + (i <= 7) * 2 + (i > 4000) "
                          "+ (i >= 12) + (i == 5) * 100 + (i != 6) + !i + ~i + -i "
                          "+ (i && (i & 1)) + (i || 0) + min(i, 77) + max(i, 3000))");
    for (uint32_t i = 0; i < N; i++) {
        uint32_t want = ((i & 0xF0) | ((i << 3) - (i < 100) + (i <= 7) * 2 + (i > 4000) +
                                       (i >= 12) + (i == 5) * 100 + (i != 6) + !i + ~i + -i +
                                       (i && (i & 1)) + (i || 0) + (i < 77 ? i : 77) +
                                       (i > 3000 ? i : 3000)));
        cr_assert_eq(elem(m, i), want, "i=%u", i);
    }
    memimg_free(m);
}

Test(dinit_formula, ternary_mixers_and_count)
{
    memimg *m = one_array(0, 4, false, N,
                          "formula(i % 3 == 0 ? fmix32(i) % 1000 : lowbias32(i + n) & 0xFFFF)");
    for (uint32_t i = 0; i < N; i++) {
        uint32_t want = i % 3 == 0 ? ref_fmix32(i) % 1000 : ref_lowbias32(i + N) & 0xFFFF;
        cr_assert_eq(elem(m, i), want, "i=%u", i);
    }
    memimg_free(m);
}

Test(dinit_formula, u64_elements_use_64_bits)
{
    memimg *m = one_array(0, 8, false, N, "formula(fmix64(i) ^ mix64(i * 3) + (i << 40))");
    for (uint64_t i = 0; i < N; i++) {
        uint64_t want = ref_fmix64(i) ^ (ref_mix(i * 3) + (i << 40));
        cr_assert_eq(elem(m, i), want, "i=%" PRIu64, i);
    }
    memimg_free(m);
}

Test(dinit_formula, narrow_elements_truncate_32_bit_results)
{
    /* u8: (i*37 + 1000) computed in 32 bits, stored mod 256 */
    memimg *m = one_array(0, 1, false, 300, "formula(i * 37 + 1000)");
    for (uint32_t i = 0; i < 300; i++) cr_assert_eq(elem(m, i), (uint8_t)(i * 37 + 1000));
    memimg_free(m);
    /* u16: 0 - i wraps in 32 bits, then keeps the low 16: 0xffff for i = 1 */
    m = one_array(0, 2, false, 4, "formula(-i)");
    cr_assert_eq(elem(m, 1), 0xffff);
    memimg_free(m);
}

Test(dinit_formula, float_elements_take_the_signed_value)
{
    memimg *m = one_array(0, 4, true, 8, "formula(i * 2 - 5)");
    float f;
    uint32_t b = (uint32_t)elem(m, 1); /* 2 - 5 = -3 -> -3.0f */
    memcpy(&f, &b, 4);
    cr_assert_eq(f, -3.0f);
    memimg_free(m);
    m = one_array(0, 8, true, 8, "formula(i << 20)");
    double d;
    uint64_t bd = elem(m, 3); /* 3 * 2^20 = 3145728.0 */
    memcpy(&d, &bd, 8);
    cr_assert_eq(d, 3145728.0);
    memimg_free(m);
}

Test(dinit_formula, division_and_shift_edge_cases)
{
    /* x / 0 = 0 and x % 0 = x (documented); shift counts are taken mod 32 */
    memimg *m = one_array(0, 4, false, 8, "formula((100 / (i & 1)) + (100 % (i & 2)) * 1000 + (1 << (i + 30)))");
    /* i=0: 0 + 100*1000 + (1<<30) ; i=1: 100 + 100*1000 + (1<<31);
     * i=2: 0 + 0 + (1 << 0) = 1 (32 mod 32 = 0); i=3: 100 + (100 % 2)*1000 + (1 << 1) */
    cr_assert_eq(elem(m, 0), 100000u + (1u << 30));
    cr_assert_eq(elem(m, 1), 100u + 100000u + (1u << 31));
    cr_assert_eq(elem(m, 2), 1u);
    cr_assert_eq(elem(m, 3), 100u + 0u + 2u);
    memimg_free(m);
}

Test(dinit_formula, precedence_follows_c)
{
    /* 1 + 2 * 3 << 1 = (1 + 6) << 1 = 14; 6 & 3 == 2 = 6 & (3 == 2) = 0;
     * 1 | 2 ^ 3 & 1 = 1 | (2 ^ (3 & 1)) = 1 | 3 = 3 */
    memimg *m = one_array(0, 4, false, 1, "formula((1 + 2 * 3 << 1) * 100 + (6 & 3 == 2) * 10 + (1 | 2 ^ 3 & 1))");
    cr_assert_eq(elem(m, 0), 1403u);
    memimg_free(m);
}

Test(dinit_formula, errors_name_file_line_array_and_column)
{
    EXPECT_ERROR(4, false, 8, "formula(i +)", MEMIMG_ERROR_SYNTAX, "formula: ", "column 4",
                 "expected a number");
    EXPECT_ERROR(4, false, 8, "formula(fmx32(i))", MEMIMG_ERROR_SYNTAX, "unknown name 'fmx32'",
                 "did you mean 'fmix32'?");
    EXPECT_ERROR(4, false, 8, "formula((i + 1)", MEMIMG_ERROR_SYNTAX, "expected ')'");
    EXPECT_ERROR(4, false, 8, "formula(i + 1", MEMIMG_ERROR_SYNTAX, "expected ')' at the end");
    EXPECT_ERROR(4, false, 8, "formula(i / 0)", MEMIMG_ERROR_RANGE, "division by the constant 0");
    EXPECT_ERROR(4, false, 8, "formula(min(i))", MEMIMG_ERROR_SYNTAX, "','");
    EXPECT_ERROR(4, false, 8, "formula(i ? 1)", MEMIMG_ERROR_SYNTAX, "':'");
    EXPECT_ERROR(4, false, 8, "formula(99999999999999999999)", MEMIMG_ERROR_RANGE,
                 "does not fit 64 bits");
    EXPECT_ERROR(4, false, 8, "formula(i i)", MEMIMG_ERROR_SYNTAX, "an operator or the end");
    EXPECT_ERROR(4, false, 8, "formula()", MEMIMG_ERROR_SYNTAX, "expected a number");
    EXPECT_ERROR(4, false, 8, "formla(i)", MEMIMG_ERROR_SYNTAX, "expected '='");
}

Test(dinit_formula, deep_nesting_is_refused)
{
    GString *s = g_string_new("formula(");
    for (int k = 0; k < 40; k++) g_string_append(s, "(1 + ");
    g_string_append(s, "i");
    for (int k = 0; k < 40; k++) g_string_append(s, ")");
    g_string_append(s, ")");
    EXPECT_ERROR(4, false, 8, s->str, MEMIMG_ERROR_RANGE, "nested more than 32 deep");
    g_string_free(s, TRUE);
}

Test(dinit_formula, declared_in_a_sasm_file)
{
    /* the .sasm directive passes the whole text after '=' (with '==') */
    memimg *m = memimg_new(0);
    GError *err = NULL;
    cr_assert(memimg_add_array(m, "x", T_BASE, 4, false, 16, "formula(i == 3)", "k.sasm:2", &err));
    cr_assert_eq(elem_of(m, "x", 3), 1);
    cr_assert_eq(elem_of(m, "x", 4), 0);
    memimg_free(m);
}
