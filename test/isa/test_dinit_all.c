/* Every data initializer, side by side: O(1) in the index (element 2^40 - 1
 * of a 2^40-element array reads at once, with nothing stored) and
 * deterministic (a second image with the same seed reads the same bits at
 * every sampled index). The per-initializer files check the formulas. */
#include "test_memimg_util.h"

#define N (UINT64_C(1) << 40)

typedef struct case_ {
    const char *spec;
    unsigned elem_bytes;
    bool is_float;
} case_;

static const case_ cases[] = {
    {"zero", 4, false},
    {"const(value=7)", 4, false},
    {"iota(start=5, step=3)", 4, false},
    {"rand_int(lo=10, hi=20, seed=4)", 4, false},
    {"rand_float(lo=1, hi=2, seed=4)", 4, true},
    {"perm_cycle(seed=4)", 8, false},
    {"sorted_keys(seed=4, step=4)", 8, false},
    {"csr_edges(vertices=1099511627776, degree=1, seed=4)", 8, false},
};

/* The sampled indices: the ends and 1000 spread over the array. */
static uint64_t sample(unsigned k) { return k == 0 ? 0 : k == 1 ? N - 1 : (k * UINT64_C(0x9e3779b97f4a7)) % N; }

Test(dinit_all, every_initializer_is_o1_and_deterministic)
{
    /* No timing (tests are never timed): an initializer that was O(n) in the
     * index would need ~2^40 steps for the last element and never finish. */
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        memimg *a = one_array(99, cases[c].elem_bytes, cases[c].is_float, N, cases[c].spec);
        memimg *b = one_array(99, cases[c].elem_bytes, cases[c].is_float, N, cases[c].spec);
        for (unsigned k = 0; k < 1002; k++)
            cr_assert_eq(elem(a, sample(k)), elem(b, sample(k)), "%s at %lu", cases[c].spec,
                         (unsigned long)sample(k));
        cr_assert_eq(memimg_bytes_stored(a), 0, "%s stored bytes", cases[c].spec);
        memimg_free(a);
        memimg_free(b);
    }
}

/* The last elements, by hand. */
Test(dinit_all, last_elements_by_hand)
{
    memimg *m = one_array(1, 4, false, N, "zero");
    cr_assert_eq(elem(m, N - 1), 0);
    memimg_free(m);
    m = one_array(1, 4, false, N, "const(value=7)");
    cr_assert_eq(elem(m, N - 1), 7);
    memimg_free(m);
    /* (5 + 3*(2^40 - 1)) mod 2^32 = (3*2^40 + 2) mod 2^32 = 2 */
    m = one_array(1, 4, false, N, "iota(start=5, step=3)");
    cr_assert_eq(elem(m, N - 1), 2);
    memimg_free(m);
    m = one_array(1, 4, false, N, "rand_int(lo=10, hi=20, seed=4)");
    cr_assert(elem(m, N - 1) >= 10 && elem(m, N - 1) <= 20);
    memimg_free(m);
    /* f32 in [1, 2): bits 0x3f800000 .. 0x3fffffff */
    m = one_array(1, 4, true, N, "rand_float(lo=1, hi=2, seed=4)");
    cr_assert(elem(m, N - 1) >= 0x3f800000 && elem(m, N - 1) <= 0x3fffffff);
    memimg_free(m);
    /* key(i) lies in [4i, 4i + 4) */
    m = one_array(1, 8, false, N, "sorted_keys(seed=4, step=4)");
    cr_assert(elem(m, N - 1) >= 4 * (N - 1) && elem(m, N - 1) < 4 * N);
    memimg_free(m);
    /* one cycle through all members: the successor is another member */
    m = one_array(1, 8, false, N, "perm_cycle(seed=4)");
    cr_assert_lt(elem(m, N - 1), N);
    cr_assert_neq(elem(m, N - 1), N - 1);
    memimg_free(m);
}

/* The run's seed reaches every random initializer: another global seed
 * changes them (the deterministic ones stay). */
Test(dinit_all, global_seed_changes_every_random_initializer)
{
    for (size_t c = 3; c < G_N_ELEMENTS(cases); c++) {
        memimg *a = one_array(1, cases[c].elem_bytes, cases[c].is_float, N, cases[c].spec);
        memimg *b = one_array(2, cases[c].elem_bytes, cases[c].is_float, N, cases[c].spec);
        unsigned differ = 0;
        for (unsigned k = 0; k < 100; k++)
            differ += elem(a, sample(k)) != elem(b, sample(k));
        /* rand_int over 11 values agrees by chance 1/11 of the time; 50 of
         * 100 is far below the ~91 expected. */
        cr_assert_geq(differ, 50, "%s: only %u of 100 differ", cases[c].spec, differ);
        memimg_free(a);
        memimg_free(b);
    }
}
