/* sorted_keys and btree: hand-computed keys and tree slots, strict order,
 * determinism, the btree holding exactly the sorted_keys set, and a
 * TREE_TRAVERSE-style search (the index kernel of Narasiman's dissertation,
 * section 6.2.3) finding every present key and no absent one. */
#include "test_memimg_util.h"

Test(dinit_keys, sorted_keys_step_one_is_iota)
{
    memimg *m = one_array(0, 4, false, 100, "sorted_keys(step=1, start=5)"); /* hash mod 1 = 0 */
    cr_assert_eq(elem(m, 0), 5);
    cr_assert_eq(elem(m, 99), 104);
    memimg_free(m);
}

Test(dinit_keys, sorted_keys_follow_the_formula_and_increase)
{
    /* key(i) = start + i*step + floor(h_i * step / 2^64), global seed 3, seed 9 */
    memimg *m = one_array(3, 4, false, 10000, "sorted_keys(seed=9, step=10, start=7)");
    bool residue[10] = {false};
    uint64_t prev = 0;
    for (uint64_t i = 0; i < 10000; i++) {
        uint64_t k = elem(m, i);
        cr_assert_eq(k, 7 + 10 * i + ref_below(ref_hash(3, 9, i), 10));
        if (i) cr_assert_gt(k, prev, "not strictly increasing at %lu", (unsigned long)i);
        residue[(k - 7) % 10] = true;
        prev = k;
    }
    for (int r = 0; r < 10; r++) cr_assert(residue[r]);
    memimg_free(m);
}

Test(dinit_keys, sorted_keys_seed_changes_the_gaps)
{
    memimg *a = one_array(0, 8, false, 100, "sorted_keys(seed=1, step=1000)");
    memimg *b = one_array(0, 8, false, 100, "sorted_keys(seed=2, step=1000)");
    unsigned differ = 0;
    for (uint64_t i = 0; i < 100; i++) differ += elem(a, i) != elem(b, i);
    cr_assert_geq(differ, 95); /* equal with chance 1/1000 each */
    memimg_free(a);
    memimg_free(b);
}

#define PAD 0xffffffffu

Test(dinit_keys, small_blocked_tree_by_hand)
{
    /* P=2 keys per line, width 4, F=3; a row node = root line + 3 child lines
     * = 16 slots; 2 row levels = 1 + 9 row nodes = 160 elements, D = 4 line
     * levels, 3^4 - 1 = 80 keys; step 1 makes key = in-order rank. Slot s of
     * the node at line level l, position q holds q*3^h + (s+1)*3^(h-1) - 1
     * with h = 4 - l. */
    memimg *m = one_array(0, 4, false, 170, "btree(P=2, width=4, levels=2, step=1)");
    static const uint32_t row0[16] = {26, 53, PAD, PAD, 8, 17, PAD, PAD,
                                      35, 44, PAD, PAD, 62, 71, PAD, PAD};
    static const uint32_t row1[16] = {2, 5, PAD, PAD, 0, 1, PAD, PAD, 3, 4, PAD, PAD, 6, 7, PAD, PAD};
    /* row node 9 = level-1 position 8: top line q=8, h=2: 72+2, 72+5;
     * its line 3: q = 8*3+2 = 26, h=1: 78, 79 */
    static const uint32_t row9[16] = {74, 77, PAD, PAD, 72, 73, PAD, PAD,
                                      75, 76, PAD, PAD, 78, 79, PAD, PAD};
    for (int i = 0; i < 16; i++) {
        cr_assert_eq(elem(m, (uint64_t)i), row0[i], "row 0 slot %d", i);
        cr_assert_eq(elem(m, 16 + (uint64_t)i), row1[i], "row 1 slot %d", i);
        cr_assert_eq(elem(m, 144 + (uint64_t)i), row9[i], "row 9 slot %d", i);
    }
    cr_assert_eq(elem(m, 160), 0); /* past the tree */
    cr_assert_eq(elem(m, 169), 0);
    memimg_free(m);
}

Test(dinit_keys, default_tree_is_the_papers_layout)
{
    /* P=30, width 32: 30 keys + 2 pad per 128 B line, 32 lines = 4 KiB row
     * node, 31 * 31 = 961 children per row node. One row level: 960 keys.
     * Root slot s: (s+1)*31 - 1; line 1+c slot s: c*31 + s. */
    memimg *m = one_array(0, 4, false, 1024, "btree(step=1)");
    cr_assert_eq(elem(m, 0), 30);
    cr_assert_eq(elem(m, 29), 929);
    cr_assert_eq(elem(m, 30), PAD);
    cr_assert_eq(elem(m, 31), PAD);
    cr_assert_eq(elem(m, 32), 0);
    cr_assert_eq(elem(m, 32 + 32 * 5 + 7), 5 * 31 + 7);
    cr_assert_eq(elem(m, 1024 - 32 + 29), 959); /* last key */
    memimg_free(m);
    /* 1024 * (1 + 961) elements: levels defaults to 2, D = 4, 31^4 - 1 keys;
     * root slot 0 = 31^3 - 1, row node 1's slot 0 = 31 - 1 */
    m = one_array(0, 4, false, 1024 * 962, "btree(step=1)");
    cr_assert_eq(elem(m, 0), 29790);
    cr_assert_eq(elem(m, 1024), 30);
    memimg_free(m);
}

/* The index-search kernel ([D] App. 1.2) on a tree of 2 line levels per row
 * node: per row level, count = popc(key > v) over the top line, then over
 * line 1+count; next row node = node*F^2 + 1 + count*F + count2. */
static bool tree_search(memimg *m, uint64_t base, uint64_t p, uint64_t width, uint64_t levels,
                        uint64_t key)
{
    uint64_t f = p + 1, row_elems = (1 + f) * width, node = 0;
    for (uint64_t r = 0; r < levels; r++) {
        uint64_t counts[2], line = 0;
        for (int half = 0; half < 2; half++) {
            uint64_t count = 0, at = base + 4 * (node * row_elems + line * width);
            for (uint64_t lane = 0; lane < width; lane++) {
                uint64_t v = memimg_read(m, at + 4 * lane, 4);
                if (v == key) return true;
                count += key > v; /* padding (all ones) never counts */
            }
            counts[half] = count;
            line = 1 + count;
        }
        node = node * f * f + 1 + counts[0] * f + counts[1];
    }
    return false;
}

Test(dinit_keys, tree_holds_the_sorted_keys_and_search_finds_them)
{
    memimg *m = memimg_new(5);
    GError *err = NULL;
    cr_assert(memimg_add_array(m, "tree", 0x100000, 4, false, 160, "btree(P=2, width=4, seed=4, step=3)",
                               "t:1", &err));
    cr_assert(memimg_add_array(m, "keys", 0x200000, 4, false, 80, "sorted_keys(seed=4, step=3)", "t:2",
                               &err));
    /* the tree's non-padding slots are exactly the 80 sorted keys */
    uint64_t got[80];
    unsigned n = 0;
    for (uint64_t i = 0; i < 160; i++) {
        uint64_t v = elem_of(m, "tree", i);
        if (v == PAD) continue;
        if (n < 80) got[n] = v;
        n++;
    }
    cr_assert_eq(n, 80);
    bool present[241] = {false}; /* keys < 80*3 = 240 */
    for (unsigned k = 0; k < 80; k++) {
        uint64_t key = elem_of(m, "keys", k);
        present[key] = true;
        unsigned hits = 0;
        for (unsigned j = 0; j < 80; j++) hits += got[j] == key;
        cr_assert_eq(hits, 1, "key %lu appears %u times in the tree", (unsigned long)key, hits);
    }
    for (uint64_t v = 0; v <= 240; v++)
        cr_assert_eq(tree_search(m, 0x100000, 2, 4, 2, v), present[v], "search(%lu)", (unsigned long)v);
    memimg_free(m);
}

Test(dinit_keys, search_on_the_default_two_level_tree)
{
    memimg *m = memimg_new(1);
    GError *err = NULL;
    uint64_t count = 1024 * 962, keys = 923520; /* 31^4 - 1 */
    cr_assert(memimg_add_array(m, "tree", 0x10000000, 4, false, count, "btree(seed=6)", "t:1", &err));
    cr_assert(memimg_add_array(m, "keys", 0x20000000, 4, false, keys, "sorted_keys(seed=6)", "t:2", &err));
    for (uint64_t k = 0; k < 2000; k++) {
        uint64_t rank = (k * 0x9e3779b97ull) % keys, key = elem_of(m, "keys", rank);
        cr_assert(tree_search(m, 0x10000000, 30, 32, 2, key), "key of rank %lu not found",
                  (unsigned long)rank);
        /* step 4: a value between two keys, if there is one, is absent */
        uint64_t next = rank + 1 < keys ? elem_of(m, "keys", rank + 1) : key + 2;
        if (key + 1 < next) cr_assert(!tree_search(m, 0x10000000, 30, 32, 2, key + 1));
    }
    cr_assert_eq(memimg_bytes_stored(m), 0);
    memimg_free(m);
}

Test(dinit_keys, paper_scale_tree_is_o1)
{
    /* [D]: 3 row levels, 924483 row nodes of 4 KiB (3.5 GiB), 31^6 - 1 =
     * 887503680 keys; the last key's rank is 887503679 */
    uint64_t count = UINT64_C(924483) * 1024;
    memimg *m = one_array(0, 4, false, count, "btree(step=4, seed=2)");
    memimg *k = one_array(0, 4, false, 887503680, "sorted_keys(step=4, seed=2)");
    /* the last row node's last line's slot 29 holds the largest key */
    cr_assert_eq(elem(m, count - 32 + 29), elem(k, 887503679));
    cr_assert_eq(elem(m, count - 1), PAD);
    cr_assert_eq(memimg_bytes_stored(m), 0);
    memimg_free(m);
    memimg_free(k);
}

Test(dinit_keys, errors)
{
    EXPECT_ERROR(4, false, 15, "btree(P=2, width=4)", MEMIMG_ERROR_LAYOUT,
                 "btree: one row node needs 16 elements; the array has 15");
    EXPECT_ERROR(4, false, 159, "btree(P=2, width=4, levels=2)", MEMIMG_ERROR_LAYOUT,
                 "a tree of 2 row levels does not fit the array's 159 elements");
    EXPECT_ERROR(1, false, 16, "btree(P=2, width=4, step=40)", MEMIMG_ERROR_RANGE,
                 "8 keys from start with this step do not fit below the padding value of a 1-byte element");
    EXPECT_ERROR(4, false, 64, "btree(P=3, width=2)", MEMIMG_ERROR_RANGE,
                 "argument 'width' = 2 is out of range: expected 3..65536");
    EXPECT_ERROR(4, false, 64, "btree(P=0)", MEMIMG_ERROR_RANGE, "argument 'P' = 0 is out of range");
    EXPECT_ERROR(4, false, 64, "btree(levels=0)", MEMIMG_ERROR_RANGE, "argument 'levels' = 0");
    EXPECT_ERROR(4, false, 64, "btree(p=3)", MEMIMG_ERROR_UNKNOWN_ARG,
                 "unknown argument 'p'; did you mean 'P'?");
    EXPECT_ERROR(4, true, 1024, "btree", MEMIMG_ERROR_LAYOUT, "needs an integer array");
    EXPECT_ERROR(1, false, 100, "sorted_keys(step=3)", MEMIMG_ERROR_RANGE,
                 "sorted_keys: 100 keys from start with this step do not fit a 1-byte element");
    EXPECT_ERROR(4, false, 100, "sorted_keys(step=0)", MEMIMG_ERROR_RANGE, "argument 'step' = 0");
    EXPECT_ERROR(8, true, 100, "sorted_keys", MEMIMG_ERROR_LAYOUT, "needs an integer array");
}
