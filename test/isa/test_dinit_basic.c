/* zero, const, iota, rand_int, rand_float: values at hand-computed indices,
 * and the random ones against an independent re-implementation of the
 * documented formula (docs/data-initializers.md), anchored on splitmix64's
 * published test vector. */
#include <math.h>

#include "isa/dinit.h"
#include "test_memimg_util.h"

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static float bits_f32(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static double bits_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

Test(dinit_basic, splitmix64_matches_the_published_vector)
{
    /* splitmix64 seeded with 1234567 outputs 6457827717110365317,
     * 3203168211198807973, 9817491932198370423 (Vigna's reference code) */
    cr_assert_eq(dinit_hash(1234567, 0), 6457827717110365317ull);
    cr_assert_eq(dinit_hash(1234567, 1), 3203168211198807973ull);
    cr_assert_eq(dinit_hash(1234567, 2), 9817491932198370423ull);
}

Test(dinit_basic, mulhi_is_the_high_half_of_the_product)
{
    cr_assert_eq(dinit_mulhi(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1); /* (2^64-1)^2 >> 64 */
    cr_assert_eq(dinit_mulhi(UINT64_C(1) << 63, 10), 5);
    cr_assert_eq(dinit_mulhi(123, 456), 0);
    uint64_t a = 0x0123456789abcdefull, b = 0xfedcba9876543210ull;
    for (int k = 0; k < 100; k++, a = ref_mix(a), b = ref_mix(b))
        cr_assert_eq(dinit_mulhi(a, b), (uint64_t)(((unsigned __int128)a * b) >> 64));
}

Test(dinit_basic, zero_everywhere)
{
    memimg *m = one_array(1, 8, false, 100, "zero");
    cr_assert_eq(elem(m, 0), 0);
    cr_assert_eq(elem(m, 99), 0);
    memimg_free(m);
    m = one_array(1, 4, true, 10, "zero()");
    cr_assert_eq(elem(m, 9), 0); /* +0.0f */
    memimg_free(m);
}

Test(dinit_basic, const_integers_and_floats)
{
    memimg *m = one_array(0, 1, false, 4, "const(value=-1)"); /* -1 as a byte: 0xff */
    cr_assert_eq(elem(m, 3), 0xff);
    memimg_free(m);
    m = one_array(0, 2, false, 4, "const(value=0xBEEF)");
    cr_assert_eq(elem(m, 0), 0xbeef);
    memimg_free(m);
    m = one_array(0, 4, false, 4, "const(value=-5)"); /* 2^32 - 5 */
    cr_assert_eq(elem(m, 1), 0xfffffffbu);
    memimg_free(m);
    m = one_array(0, 4, true, 4, "const(value=1.5)"); /* 1.5f = 0x3fc00000 */
    cr_assert_eq(elem(m, 2), 0x3fc00000u);
    memimg_free(m);
    m = one_array(0, 8, true, 4, "const(value=-2)"); /* -2.0 = 0xc000000000000000 */
    cr_assert_eq(elem(m, 3), UINT64_C(0xc000000000000000));
    memimg_free(m);
}

Test(dinit_basic, iota_integers_wrap_in_the_element)
{
    memimg *m = one_array(0, 4, false, 100, "iota(start=10, step=3)");
    cr_assert_eq(elem(m, 0), 10);
    cr_assert_eq(elem(m, 5), 25); /* 10 + 5*3 */
    memimg_free(m);
    m = one_array(0, 4, false, 100, "iota(start=100, step=-7)");
    cr_assert_eq(elem(m, 20), 0xffffffd8u); /* 100 - 140 = -40 = 2^32 - 40 */
    memimg_free(m);
    m = one_array(0, 1, false, 1000, "iota");
    cr_assert_eq(elem(m, 300), 44); /* 300 mod 256 */
    memimg_free(m);
    m = one_array(0, 8, false, 10, "iota(start=-1, step=0)");
    cr_assert_eq(elem(m, 9), UINT64_MAX);
    memimg_free(m);
}

Test(dinit_basic, iota_floats)
{
    memimg *m = one_array(0, 4, true, 100, "iota(start=0.5, step=0.25)");
    cr_assert_eq(elem(m, 4), f32_bits(1.5f)); /* 0.5 + 4*0.25 */
    cr_assert_eq(elem(m, 0), 0x3f000000u);    /* 0.5f */
    memimg_free(m);
    m = one_array(0, 8, true, 100, "iota(start=1, step=0.2)");
    cr_assert_eq(elem(m, 10), UINT64_C(0x4008000000000000)); /* 1 + 10*0.2 = 3.0 exactly in double */
    memimg_free(m);
}

Test(dinit_basic, rand_int_follows_the_documented_formula)
{
    /* value = lo + floor(h * (hi - lo + 1) / 2^64), h = hash(global 7, seed 42, i) */
    memimg *m = one_array(7, 4, false, 1000, "rand_int(lo=10, hi=20, seed=42)");
    for (uint64_t i = 0; i < 1000; i++) cr_assert_eq(elem(m, i), 10 + ref_below(ref_hash(7, 42, i), 11));
    memimg_free(m);
    m = one_array(7, 8, false, 100, "rand_int(seed=3)"); /* u64 full range: the hash itself */
    for (uint64_t i = 0; i < 100; i++) cr_assert_eq(elem(m, i), ref_hash(7, 3, i));
    memimg_free(m);
}

Test(dinit_basic, rand_int_is_uniform_and_signed_ranges_work)
{
    memimg *m = one_array(1, 4, false, 11000, "rand_int(lo=10, hi=20, seed=5)");
    unsigned hist[11] = {0};
    for (uint64_t i = 0; i < 11000; i++) {
        uint64_t v = elem(m, i);
        cr_assert(v >= 10 && v <= 20);
        hist[v - 10]++;
    }
    /* 1000 expected per value; sd = sqrt(1000 * 10/11) ~ 30, so +-150 is 5 sd */
    for (int b = 0; b < 11; b++) cr_assert(hist[b] > 850 && hist[b] < 1150, "bucket %d: %u", b, hist[b]);
    memimg_free(m);
    m = one_array(1, 2, false, 2000, "rand_int(lo=-3, hi=3, seed=5)");
    bool seen_neg = false, seen_pos = false;
    for (uint64_t i = 0; i < 2000; i++) {
        int16_t v = (int16_t)elem(m, i);
        cr_assert(v >= -3 && v <= 3, "%d", v);
        seen_neg |= v == -3, seen_pos |= v == 3;
    }
    cr_assert(seen_neg && seen_pos);
    memimg_free(m);
}

Test(dinit_basic, rand_same_seed_same_values_other_seed_differs)
{
    memimg *a = one_array(2, 8, false, 64, "rand_int(seed=1)");
    memimg *b = one_array(2, 8, false, 64, "rand_int(seed=1)");
    memimg *c = one_array(2, 8, false, 64, "rand_int(seed=2)");
    unsigned differ = 0;
    for (uint64_t i = 0; i < 64; i++) {
        cr_assert_eq(elem(a, i), elem(b, i));
        differ += elem(a, i) != elem(c, i);
    }
    cr_assert_geq(differ, 60);
    memimg_free(a);
    memimg_free(b);
    memimg_free(c);
}

Test(dinit_basic, no_seed_means_a_seed_from_the_array_name)
{
    memimg *m = memimg_new(0);
    GError *err = NULL;
    cr_assert(memimg_add_array(m, "x", 0x1000, 8, false, 16, "rand_int", "t:1", &err));
    cr_assert(memimg_add_array(m, "y", 0x2000, 8, false, 16, "rand_int", "t:2", &err));
    memimg *n = memimg_new(0);
    cr_assert(memimg_add_array(n, "x", 0x8000, 8, false, 16, "rand_int", "t:1", &err));
    unsigned differ = 0;
    for (uint64_t i = 0; i < 16; i++) {
        cr_assert_eq(elem_of(m, "x", i), elem_of(n, "x", i)); /* same name, same values */
        differ += elem_of(m, "x", i) != elem_of(m, "y", i);
    }
    cr_assert_geq(differ, 15);
    memimg_free(m);
    memimg_free(n);
}

Test(dinit_basic, rand_float_follows_the_formula_and_stays_in_range)
{
    /* f64: lo + (hi - lo) * (h >> 11) * 2^-53 */
    memimg *m = one_array(4, 8, true, 500, "rand_float(lo=-1, hi=1, seed=8)");
    for (uint64_t i = 0; i < 500; i++) {
        double want = -1.0 + 2.0 * ((double)(ref_hash(4, 8, i) >> 11) * 0x1.0p-53);
        cr_assert_eq(bits_f64(elem(m, i)), want);
    }
    memimg_free(m);
    m = one_array(4, 4, true, 10000, "rand_float(lo=2, hi=3)");
    double sum = 0;
    for (uint64_t i = 0; i < 10000; i++) {
        float v = bits_f32(elem(m, i));
        cr_assert(v >= 2.0f && v < 3.0f, "%f", (double)v);
        sum += v;
    }
    /* mean 2.5, sd of the mean = (1/sqrt(12))/100 ~ 0.003 */
    cr_assert(fabs(sum / 10000 - 2.5) < 0.015, "mean %f", sum / 10000);
    memimg_free(m);
}
