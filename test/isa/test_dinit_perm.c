/* perm_cycle: the keyed bijection, the single cycle through every member (for
 * several n, strides and value modes), determinism and O(1) on a huge array. */
#include "isa/dinit.h"
#include "test_memimg_util.h"

Test(dinit_perm, feistel_is_a_bijection_with_its_inverse)
{
    static const uint64_t sizes[] = {1, 2, 3, 5, 7, 16, 100, 1000, 4097};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint64_t n = sizes[s];
        dinit_feistel f;
        dinit_feistel_init(&f, 0x1234 + s, n);
        bool *seen = g_new0(bool, n);
        for (uint64_t x = 0; x < n; x++) {
            uint64_t y = dinit_feistel_forward(&f, x);
            cr_assert_lt(y, n);
            cr_assert(!seen[y], "n=%lu: %lu hit twice", (unsigned long)n, (unsigned long)y);
            seen[y] = true;
            cr_assert_eq(dinit_feistel_inverse(&f, y), x);
        }
        g_free(seen);
    }
}

/* Walks n steps from element 0 of `a` following index values; every member
 * (multiple of stride) must be visited once and the walk must close. */
static void assert_single_cycle(memimg *m, uint64_t count, uint64_t stride)
{
    uint64_t n = (count + stride - 1) / stride, j = 0;
    bool *seen = g_new0(bool, count);
    for (uint64_t step = 0; step < n; step++) {
        cr_assert(!seen[j], "element %lu visited twice at step %lu", (unsigned long)j,
                  (unsigned long)step);
        seen[j] = true;
        j = elem(m, j);
        cr_assert_lt(j, count);
        cr_assert_eq(j % stride, 0);
    }
    cr_assert_eq(j, 0, "after n steps the walk is not back at the start");
    g_free(seen);
}

Test(dinit_perm, tiny_cycles_by_hand)
{
    memimg *m = one_array(0, 4, false, 1, "perm_cycle(seed=3)"); /* n=1: 0 -> 0 */
    cr_assert_eq(elem(m, 0), 0);
    memimg_free(m);
    m = one_array(0, 4, false, 2, "perm_cycle(seed=3)"); /* n=2: the only 2-cycle, 0 <-> 1 */
    cr_assert_eq(elem(m, 0), 1);
    cr_assert_eq(elem(m, 1), 0);
    memimg_free(m);
}

Test(dinit_perm, one_cycle_through_every_element)
{
    static const uint64_t sizes[] = {3, 5, 17, 256, 1000, 4097};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        memimg *m = one_array(s, 4, false, sizes[s], "perm_cycle(seed=7)");
        assert_single_cycle(m, sizes[s], 1);
        memimg_free(m);
    }
}

Test(dinit_perm, stride_like_the_h100_chase_benchmark)
{
    /* k_chase: u32 words, chain members 128 B = 32 words apart, each holding
     * the word index of its successor; 64 KiB = 16384 words, 512 members */
    memimg *m = one_array(1, 4, false, 16384, "perm_cycle(seed=42, stride=32)");
    assert_single_cycle(m, 16384, 32);
    cr_assert_eq(elem(m, 1), 0); /* not a member */
    cr_assert_eq(elem(m, 16383), 0);
    memimg_free(m);
    /* count not a multiple of the stride: members 0, 8, ..., 96 (13 of them) */
    m = one_array(1, 2, false, 100, "perm_cycle(stride=8)");
    assert_single_cycle(m, 100, 8);
    memimg_free(m);
}

Test(dinit_perm, byte_address_mode_walks_by_address)
{
    /* addr=1: value = base + successor index * 8 */
    memimg *m = one_array(2, 8, false, 1000, "perm_cycle(seed=5, addr=1)");
    uint64_t a = T_BASE;
    bool seen[1000] = {false};
    for (int step = 0; step < 1000; step++) {
        uint64_t idx = (a - T_BASE) / 8;
        cr_assert_eq((a - T_BASE) % 8, 0);
        cr_assert(idx < 1000 && !seen[idx]);
        seen[idx] = true;
        a = memimg_read(m, a, 8);
    }
    cr_assert_eq(a, T_BASE);
    memimg_free(m);
}

Test(dinit_perm, scale_and_offset_transform_the_index)
{
    memimg *plain = one_array(2, 8, false, 300, "perm_cycle(seed=5, stride=3)");
    memimg *scaled = one_array(2, 8, false, 300, "perm_cycle(seed=5, stride=3, scale=4, offset=16)");
    for (uint64_t i = 0; i < 300; i += 3) cr_assert_eq(elem(scaled, i), 16 + 4 * elem(plain, i));
    cr_assert_eq(elem(scaled, 1), 0); /* non-members stay 0 */
    memimg_free(plain);
    memimg_free(scaled);
}

Test(dinit_perm, deterministic_and_seed_dependent_and_not_sequential)
{
    memimg *a = one_array(0, 4, false, 1000, "perm_cycle(seed=1)");
    memimg *b = one_array(0, 4, false, 1000, "perm_cycle(seed=1)");
    memimg *c = one_array(0, 4, false, 1000, "perm_cycle(seed=2)");
    unsigned differ = 0, sequential = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        cr_assert_eq(elem(a, i), elem(b, i));
        differ += elem(a, i) != elem(c, i);
        sequential += elem(a, i) == i + 1;
    }
    /* a random successor matches another permutation's with chance ~1/1000 */
    cr_assert_geq(differ, 980);
    cr_assert_leq(sequential, 10); /* no locality left in the chain */
    memimg_free(a);
    memimg_free(b);
    memimg_free(c);
}

Test(dinit_perm, o1_on_a_512_gib_chain)
{
    /* 2^36 u64 members: nothing is precomputed or stored */
    uint64_t n = UINT64_C(1) << 36;
    memimg *m = one_array(9, 8, false, n, "perm_cycle(seed=11)");
    /* No timing (tests are never timed): an initializer that was O(n) in the
     * index would need ~2^36 steps per read and never finish. */
    uint64_t j = n / 2 + 3;
    for (int step = 0; step < 10000; step++) {
        j = elem(m, j);
        cr_assert_lt(j, n);
    }
    cr_assert_eq(memimg_bytes_stored(m), 0);
    memimg_free(m);
}
