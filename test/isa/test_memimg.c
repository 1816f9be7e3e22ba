/* The sparse memory image: little-endian reads and writes of every size, page
 * materialisation, accesses that straddle elements, arrays and pages, the
 * 4 GiB array that costs nothing, and the layout errors of add_array. */
#include "test_memimg_util.h"

Test(memimg, empty_image_reads_zero_and_stores_nothing)
{
    memimg *m = memimg_new(0);
    cr_assert_eq(memimg_read(m, 0, 8), 0);
    cr_assert_eq(memimg_read(m, UINT64_C(0xdeadbeef000), 4), 0);
    cr_assert_eq(memimg_read(m, UINT64_MAX, 1), 0);
    cr_assert_eq(memimg_bytes_stored(m), 0);
    cr_assert_eq(memimg_array_count(m), 0);
    memimg_free(m);
}

Test(memimg, write_then_read_little_endian)
{
    memimg *m = memimg_new(0);
    memimg_write(m, 0x1000, 8, UINT64_C(0x1122334455667788));
    /* bytes at 0x1000..: 88 77 66 55 44 33 22 11 */
    cr_assert_eq(memimg_read(m, 0x1000, 8), UINT64_C(0x1122334455667788));
    cr_assert_eq(memimg_read(m, 0x1000, 1), 0x88);
    cr_assert_eq(memimg_read(m, 0x1001, 2), 0x6677);
    cr_assert_eq(memimg_read(m, 0x1004, 4), 0x11223344);
    cr_assert_eq(memimg_read(m, 0x1005, 3), 0x112233);
    cr_assert_eq(memimg_read(m, 0x1006, 4), 0x1122); /* 0x1008.. never written */
    cr_assert_eq(memimg_bytes_stored(m), 4096);
    /* a narrow write keeps only its low bytes */
    memimg_write(m, 0x1000, 2, 0xabcdef01);
    cr_assert_eq(memimg_read(m, 0x1000, 4), 0x5566ef01);
    cr_assert_eq(memimg_bytes_stored(m), 4096);
    memimg_free(m);
}

Test(memimg, access_straddling_two_pages)
{
    memimg *m = memimg_new(0);
    memimg_write(m, 0x1ffe, 4, 0xaabbccdd); /* DD CC | BB AA */
    cr_assert_eq(memimg_bytes_stored(m), 2 * 4096);
    cr_assert_eq(memimg_read(m, 0x1ffe, 4), 0xaabbccdd);
    cr_assert_eq(memimg_read(m, 0x1fff, 2), 0xbbcc);
    cr_assert_eq(memimg_read(m, 0x2000, 2), 0xaabb);
    cr_assert_eq(memimg_read(m, 0x1ffc, 8), UINT64_C(0x0000aabbccdd0000));
    memimg_free(m);
}

Test(memimg, first_write_materialises_the_page_from_the_initializer)
{
    /* u32 iota: element i = i; 4096 elements = 4 pages */
    memimg *m = one_array(0, 4, false, 4096, "iota()");
    memimg_write(m, T_BASE + 5 * 4, 4, 999);
    cr_assert_eq(memimg_bytes_stored(m), 4096);
    cr_assert_eq(elem(m, 5), 999);
    cr_assert_eq(elem(m, 4), 4);
    cr_assert_eq(elem(m, 6), 6);
    cr_assert_eq(elem(m, 1023), 1023); /* last element of the stored page */
    cr_assert_eq(elem(m, 1024), 1024); /* next page: still computed */
    cr_assert_eq(memimg_bytes_stored(m), 4096);
    /* one byte of element 2 (bytes 02 00 00 00) rewritten: 02 AB 00 00 */
    memimg_write(m, T_BASE + 9, 1, 0xab);
    cr_assert_eq(elem(m, 2), 0xab02);
    memimg_free(m);
}

/* u32 iota: element i holds i. Writing 5 to element 5 (and byte 0 of
 * element 6, which is 6) changes nothing, so no page is stored; writing 999
 * stores the page; rewriting 5 there afterwards keeps it stored. */
Test(memimg, write_of_the_initial_value_stores_no_page)
{
    memimg *m = one_array(0, 4, false, 4096, "iota()");
    memimg_write(m, T_BASE + 5 * 4, 4, 5);
    memimg_write(m, T_BASE + 6 * 4, 1, 6);
    memimg_write(m, T_BASE + 2000 * 4, 8, (UINT64_C(2001) << 32) | 2000);
    cr_assert_eq(memimg_bytes_stored(m), 0);
    cr_assert_eq(elem(m, 5), 5);
    memimg_write(m, T_BASE + 5 * 4, 4, 999);
    cr_assert_eq(memimg_bytes_stored(m), 4096);
    memimg_write(m, T_BASE + 5 * 4, 4, 5);
    cr_assert_eq(memimg_bytes_stored(m), 4096);
    cr_assert_eq(elem(m, 5), 5);
    memimg_free(m);
}

Test(memimg, unaligned_read_spans_elements_before_and_after_materialising)
{
    /* u16 iota(start=0x100, step=0x101): 0x0100, 0x0201, 0x0302 = bytes
     * 00 01 | 01 02 | 02 03; the 4 bytes from byte 1 are 01 01 02 02 */
    memimg *m = one_array(0, 2, false, 16, "iota(start=0x100, step=0x101)");
    cr_assert_eq(memimg_read(m, T_BASE + 1, 4), 0x02020101);
    cr_assert_eq(memimg_read(m, T_BASE + 3, 1), 0x02);
    memimg_write(m, T_BASE + 30, 1, 0); /* materialise the page (last element's low byte) */
    cr_assert_eq(memimg_read(m, T_BASE + 1, 4), 0x02020101);
    cr_assert_eq(memimg_read(m, T_BASE + 30, 2), 0x1000); /* element 15 = 0x100 + 15*0x101 = 0x100f, low byte now 0 */
    memimg_free(m);
}

Test(memimg, reads_across_array_ends_see_zero_outside)
{
    /* u32 x2 = 0x11223344: bytes 44 33 22 11 44 33 22 11, then nothing */
    memimg *m = one_array(0, 4, false, 2, "const(value=0x11223344)");
    cr_assert_eq(memimg_read(m, T_BASE + 4, 8), 0x11223344);
    cr_assert_eq(memimg_read(m, T_BASE - 2, 4), 0x33440000);
    GError *err = NULL;
    cr_assert(memimg_add_array(m, "b", T_BASE + 8, 1, false, 4, "const(value=0xbb)", "t:2", &err));
    /* a's last two bytes 22 11, then b's bb bb */
    cr_assert_eq(memimg_read(m, T_BASE + 6, 4), 0xbbbb1122);
    memimg_free(m);
}

Test(memimg, array_may_end_at_the_top_of_the_address_space)
{
    memimg *m = memimg_new(0);
    GError *err = NULL;
    uint64_t base = UINT64_MAX - 15; /* two u64: bytes 2^64-16 .. 2^64-1 */
    cr_assert(memimg_add_array(m, "top", base, 8, false, 2, "iota(start=7)", "t:1", &err));
    cr_assert_eq(memimg_read(m, base + 8, 8), 8);
    cr_assert_eq(memimg_read(m, UINT64_MAX, 1), 0);
    memimg_write(m, UINT64_MAX - 7, 8, 42);
    cr_assert_eq(memimg_read(m, base + 8, 8), 42);
    cr_assert_eq(memimg_read(m, base, 8), 7);
    memimg_free(m);
}

Test(memimg, four_gib_array_costs_nothing_until_written)
{
    memimg *m = memimg_new(3);
    GError *err = NULL;
    uint64_t base = UINT64_C(1) << 32, four_gib = UINT64_C(1) << 32;
    cr_assert(memimg_add_array(m, "bytes", base, 1, false, four_gib, "iota", "t:1", &err));
    cr_assert(memimg_add_array(m, "words", base + four_gib, 4, false, four_gib / 4,
                               "rand_int(lo=10, hi=20, seed=1)", "t:2", &err));
    /* u8 iota: element 4e9+7 = (4e9 + 7) mod 256 = 7, since 4e9 = 15625000 * 256 */
    cr_assert_eq(elem_of(m, "bytes", UINT64_C(4000000007)), 7);
    cr_assert_eq(elem_of(m, "bytes", four_gib - 1), 255);
    uint64_t w = elem_of(m, "words", UINT64_C(1000000000));
    cr_assert(w >= 10 && w <= 20);
    cr_assert_eq(memimg_bytes_stored(m), 0);

    /* 10^6 reads spread over both arrays. Not timed (tests are never timed):
     * an O(n) initializer would need ~2^32 steps per read and never finish. */
    uint64_t sum = 0;
    for (uint64_t i = 0; i < 1000000; i++) sum += memimg_read(m, base + i * 8191, 4);
    cr_assert_neq(sum, 0);
    cr_assert_eq(memimg_bytes_stored(m), 0);

    memimg_write(m, base + UINT64_C(4000000000), 4, 0x01020304);
    cr_assert_eq(memimg_bytes_stored(m), 4096);
    cr_assert_eq(elem_of(m, "bytes", UINT64_C(4000000001)), 3);
    cr_assert_eq(elem_of(m, "bytes", UINT64_C(4000000004)), 4); /* iota again */
    memimg_free(m);
}

Test(memimg, many_pages_grow_the_table)
{
    memimg *m = memimg_new(0);
    for (uint64_t p = 0; p < 10000; p++) memimg_write(m, p * 4096 * 3 + 8, 8, p * p + 1);
    cr_assert_eq(memimg_bytes_stored(m), 10000 * 4096);
    for (uint64_t p = 0; p < 10000; p++) cr_assert_eq(memimg_read(m, p * 4096 * 3 + 8, 8), p * p + 1);
    cr_assert_eq(memimg_read(m, 4096, 8), 0); /* a page between two stored ones */
    memimg_free(m);
}

Test(memimg, arrays_listed_by_base_and_found_by_name)
{
    memimg *m = memimg_new(0);
    GError *err = NULL;
    cr_assert(memimg_add_array(m, "hi", 0x3000, 8, true, 4, "const(value=2.5)", "t:1", &err));
    cr_assert(memimg_add_array(m, "lo", 0x1000, 2, false, 8, NULL, "t:2", &err));
    cr_assert(memimg_add_array(m, "mid", 0x2000, 4, false, 1, "", "t:3", &err));
    cr_assert_eq(memimg_array_count(m), 3);
    cr_assert_str_eq(memimg_array_at(m, 0).name, "lo");
    cr_assert_str_eq(memimg_array_at(m, 1).name, "mid");
    cr_assert_str_eq(memimg_array_at(m, 2).name, "hi");
    memimg_array_info a;
    cr_assert(memimg_find_array(m, "hi", &a));
    cr_assert_eq(a.base, 0x3000);
    cr_assert_eq(a.count, 4);
    cr_assert_eq(a.elem_bytes, 8);
    cr_assert(a.is_float);
    cr_assert(!memimg_find_array(m, "nope", &a));
    /* 2.5 = 0x4004000000000000 as a double */
    cr_assert_eq(memimg_read(m, 0x3008, 8), UINT64_C(0x4004000000000000));
    cr_assert_eq(memimg_read(m, 0x1000, 8), 0); /* NULL spec: zero */
    memimg_free(m);
}

Test(memimg, global_seed_is_mixed_into_every_array)
{
    memimg *a = one_array(5, 8, false, 64, "rand_int(seed=9)");
    memimg *b = one_array(5, 8, false, 64, "rand_int(seed=9)");
    memimg *c = one_array(6, 8, false, 64, "rand_int(seed=9)");
    unsigned differ = 0;
    for (uint64_t i = 0; i < 64; i++) {
        cr_assert_eq(elem(a, i), elem(b, i));
        differ += elem(a, i) != elem(c, i);
    }
    cr_assert_geq(differ, 60); /* 64-bit values collide with probability 2^-64 */
    memimg_free(a);
    memimg_free(b);
    memimg_free(c);
}

Test(memimg, layout_errors)
{
    EXPECT_ERROR(3, false, 4, "zero", MEMIMG_ERROR_LAYOUT, "element size 3 is not 1, 2, 4 or 8");
    EXPECT_ERROR(2, true, 4, "zero", MEMIMG_ERROR_LAYOUT, "float elements are 4 or 8 bytes, not 2");
    EXPECT_ERROR(4, false, 0, "zero", MEMIMG_ERROR_LAYOUT, "no elements");
    /* 2^62 u64 from 0x10000000 pass 2^64 */
    EXPECT_ERROR(8, false, UINT64_C(1) << 62, "zero", MEMIMG_ERROR_LAYOUT, "past the end");
}

Test(memimg, overlap_duplicate_and_late_declaration_are_refused)
{
    memimg *m = memimg_new(0);
    GError *err = NULL;
    cr_assert(memimg_add_array(m, "a", 0x1000, 4, false, 16, "zero", "t:1", &err)); /* 0x1000..0x103f */
    cr_assert(!memimg_add_array(m, "b", 0x1030, 4, false, 16, "zero", "t:2", &err));
    cr_assert_eq(err->code, MEMIMG_ERROR_LAYOUT);
    cr_assert(strstr(err->message, "t:2: array 'b': bytes 0x1030..0x106f overlap array 'a' (0x1000..0x103f)"),
              "%s", err->message);
    g_clear_error(&err);
    cr_assert(!memimg_add_array(m, "c", 0xff0, 4, false, 8, "zero", "t:3", &err)); /* ends in a */
    cr_assert(strstr(err->message, "overlap array 'a'"), "%s", err->message);
    g_clear_error(&err);
    cr_assert(!memimg_add_array(m, "a", 0x9000, 4, false, 1, "zero", "t:4", &err));
    cr_assert(strstr(err->message, "t:4: array 'a': an array of this name is already declared"), "%s",
              err->message);
    g_clear_error(&err);
    cr_assert(memimg_add_array(m, "d", 0x1040, 1, false, 1, "zero", "t:5", &err)); /* adjacent: fine */
    memimg_write(m, 0x5008, 4, 1);
    cr_assert(!memimg_add_array(m, "e", 0x5000, 4, false, 4, "zero", "t:6", &err));
    cr_assert(strstr(err->message, "page 0x5000 in its range was written before the declaration"), "%s",
              err->message);
    g_clear_error(&err);
    cr_assert(memimg_add_array(m, "f", 0x6000, 4, false, 4, "zero", "t:7", &err));
    cr_assert_eq(memimg_array_count(m), 3);
    memimg_free(m);
}

/* The journal (ORACLE's pre-pass): an array of iota u32 (value = index),
 * element 3 written 7 before the journal; inside it element 3 becomes 8,
 * then 9, element 5 (never written: iota 5) becomes 50, and a u64 write at
 * 4094 straddles two pages. Rollback restores 7, 5 and the iota bytes
 * 4094..4101 (elements 1023 and 1024 read 1023 and 1024 again); later
 * writes are not journalled. */
Test(memimg, journal_rollback_restores_values)
{
    memimg *m = memimg_new(1);
    cr_assert(memimg_add_array(m, "a", 0, 4, false, 2048, "iota(start=0, step=1)", "t:1", NULL));
    memimg_write(m, 12, 4, 7);
    memimg_journal_begin(m);
    memimg_write(m, 12, 4, 8);
    memimg_write(m, 12, 4, 9);
    memimg_write(m, 20, 4, 50);
    memimg_write(m, 4094, 8, UINT64_MAX);
    cr_expect_eq(memimg_read(m, 12, 4), 9u);
    memimg_journal_rollback(m);
    cr_expect_eq(memimg_read(m, 12, 4), 7u);
    cr_expect_eq(memimg_read(m, 20, 4), 5u);
    cr_expect_eq(memimg_read(m, 4092, 4), 1023u);
    cr_expect_eq(memimg_read(m, 4096, 4), 1024u);
    memimg_write(m, 20, 4, 60);
    memimg_journal_rollback(m);   /* no journal: nothing happens */
    cr_expect_eq(memimg_read(m, 20, 4), 60u);
    memimg_free(m);
}

/* memimg_read_lanes: each lane's value is its own read, whichever lookup
 * hint (page, array) the lane before it left: lanes go from one array to
 * another in the same page, read across an element, a page and an array's
 * end, from a stored page, and skip the lanes outside the mask. */
Test(memimg, read_lanes_reads_each_lane_as_alone)
{
    /* a: u32 iota at T_BASE, 2048 elements (pages 0 and 1); in page 2, b:
     * u32 const 0xbbbbbbbb x 4, then c: u16 iota(start=0x100), 8 elements */
    memimg *m = one_array(0, 4, false, 2048, "iota()");
    GError *err = NULL;
    cr_assert(memimg_add_array(m, "b", T_BASE + 8192, 4, false, 4, "const(value=0xbbbbbbbb)", "t:2", &err));
    cr_assert(memimg_add_array(m, "c", T_BASE + 8208, 2, false, 8, "iota(start=0x100)", "t:3", &err));
    memimg_write(m, T_BASE + 4 * 1030, 4, 77);   /* stores a's second page */
    uint64_t addr[32], out[32];
    for (unsigned l = 0; l < 32; l++) {
        addr[l] = 0;
        out[l] = 0x5a5a;   /* lanes outside the mask keep this */
    }
    addr[0] = T_BASE + 4 * 3;       /* a[3] = 3 */
    addr[1] = T_BASE + 8192 + 4;    /* b[1] */
    addr[2] = T_BASE + 8208;        /* c[0] = 0x100, c[1] = 0x101: 00 01 01 01 (b's hint left) */
    addr[3] = T_BASE + 4 * 5;       /* a[5] = 5 */
    addr[4] = T_BASE + 4 * 7 + 2;   /* a[7]'s high half (00 00), a[8]'s low (08 00): 0x00080000 */
    addr[5] = T_BASE + 4 * 1030;    /* the stored page: 77 */
    addr[6] = T_BASE + 4 * 1029;    /* same page, not rewritten: 1029 */
    addr[7] = T_BASE + 4096 - 2;    /* a[1023] high half 00 00, a[1024] low half 00 04: 0x04000000 */
    addr[8] = T_BASE + 8192 - 2;    /* a[2047] high half, then b: bb bb 00 00 */
    addr[9] = T_BASE - 4;           /* before a: 0 */
    addr[31] = T_BASE + 8208 + 14;  /* c[7] = 0x107, then nothing: 0x107 */
    uint32_t lanes = 0x800003ffu;   /* 0-9, 31 */
    memimg_read_lanes(m, addr, lanes, 4, out);
    const uint64_t want[10] = {3, 0xbbbbbbbb, 0x01010100, 5, 0x00080000, 77, 1029, 0x04000000, 0xbbbb0000, 0};
    for (unsigned l = 0; l < 10; l++)
        cr_assert_eq(out[l], want[l], "lane %u: %#llx, want %#llx", l, (unsigned long long)out[l],
                     (unsigned long long)want[l]);
    cr_assert_eq(out[10], 0x5a5a);
    cr_assert_eq(out[31], 0x107);
    memimg_free(m);
}
