/* Byte enables (l2.byte_enables, docs/dram.md): a write-back cache that
 * keeps the 4-B words partial stores wrote completes a 32-B segment once
 * they have written all eight, so its write-back carries no partial mark
 * (no read before the write: dram.write_mask = false). Without them the
 * record is per segment and the segment stays partial. 4 sets x 2 ways of
 * 128-B lines, 32-B sectors: 0x000, 0x200, 0x400 are all in set 0. */
#include "test_cache_util.h"

static cache *write_back_32(bool byte_enables)
{
    cache_params p = small_params(4, 2);
    p.write = CACHE_WRITE_BACK;
    p.sector_bytes = 32;
    cache *c = new_cache(&p);
    cache_set_byte_enables(c, byte_enables);
    return c;
}

/* A store to sector `sectors` of addr's line writing `words` (4-B words of
 * the line) and leaving `partial32` partly written. */
static void word_store(cache *c, uint64_t addr, uint32_t sectors, uint32_t partial32, uint32_t words,
                       uint64_t now)
{
    cache_access a = store_of(addr, 1, 0, sectors);
    a.partial32 = partial32;
    a.words32 = words;
    cr_assert_neq(cache_try_access(c, &a, now).outcome, CACHE_FAIL);
}

/* Evicts line 0x000 (loads of two other lines of set 0, a and a + 0x200)
 * and returns the partial32 its write-back carries. */
static uint32_t written_back_partial(cache *c, uint64_t a, uint64_t now)
{
    cr_assert_eq(do_load(c, a, 2, 0, now).outcome, CACHE_MISS);
    fill_and_take(c, a, now + 1);
    cr_assert_eq(do_load(c, a + 0x200, 3, 0, now + 2).outcome, CACHE_MISS);
    uint32_t partial = 99;
    unsigned wb = 0;
    while (cache_missq_len(c)) {
        const cache_req *q = cache_missq_head(c);
        if (q->kind == CACHE_REQ_WRITEBACK) {
            cr_assert_eq(q->line, 0x000);
            partial = q->partial32;
            wb++;
        }
        cache_missq_pop(c);
    }
    cr_assert_eq(wb, 1);
    return partial;
}

/* The transpose's strided write: eight warps each store one 4-B word of
 * segment 0 (words 0..7: bytes 0..31), every store partial. */
static uint32_t eight_word_stores(bool byte_enables)
{
    cache *c = write_back_32(byte_enables);
    for (unsigned w = 0; w < 8; w++)
        word_store(c, 4 * w, 0x1, 0x1, 1u << w, w);
    uint32_t p = written_back_partial(c, 0x200, 10);
    cache_free(c);
    return p;
}

Test(cache_byte_enables, eight_word_stores_complete_a_segment)
{
    cr_expect_eq(eight_word_stores(true), 0x0);
}

Test(cache_byte_enables, per_segment_record_without_them)
{
    cr_expect_eq(eight_word_stores(false), 0x1);
}

Test(cache_byte_enables, seven_words_leave_it_partial)
{
    /* Words 0..6 of segment 1 (bytes 32..59) and words 0..7 of segment 2
     * in two halves: segment 1 lacks bytes 60..63 and stays partial,
     * segment 2 is complete: partial32 0x2. */
    cache *c = write_back_32(true);
    for (unsigned w = 0; w < 7; w++)
        word_store(c, 32 + 4 * w, 0x2, 0x2, 1u << (8 + w), w);
    word_store(c, 64, 0x4, 0x4, 0x000F0000u, 7);
    word_store(c, 80, 0x4, 0x4, 0x00F00000u, 8);
    cr_expect_eq(written_back_partial(c, 0x200, 10), 0x2);
    cache_free(c);
}

Test(cache_byte_enables, a_replaced_line_starts_with_no_words)
{
    /* Words 0..3 of segment 0, the line evicted (written back partial),
     * then words 4..7 of the same segment in the newly allocated line: the
     * first half is gone with the old line, so the segment is partial. */
    cache *c = write_back_32(true);
    word_store(c, 0, 0x1, 0x1, 0x0Fu, 0);
    cr_expect_eq(written_back_partial(c, 0x200, 1), 0x1);
    word_store(c, 16, 0x1, 0x1, 0xF0u, 20);
    cr_expect_eq(written_back_partial(c, 0x600, 30), 0x1);
    cache_free(c);
}
