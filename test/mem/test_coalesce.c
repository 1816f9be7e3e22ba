/* Coalescer: accesses per distinct 128-B line with 32-B sector masks and
 * lane masks, in first-lane order; statistics and MPLI buckets. */
#include <criterion/criterion.h>
#include <string.h>

#include "mem/coalesce.h"
#include "simtgrid/config.h"
#include "simtgrid/memport.h"

static const coalesce_params P = {.line_bytes = 128, .sector_bytes = 32, .divergent_after = 2};

static unsigned run(uint64_t base, uint64_t stride, uint32_t active, unsigned size,
                    coalesce_access *out)
{
    uint64_t addr[32];
    for (unsigned l = 0; l < 32; l++)
        addr[l] = base + l * stride;
    return coalesce_warp(&P, addr, active, size, out);
}

Test(coalesce, fully_coalesced)
{
    /* 32 lanes x 4 B from 0x1000: bytes 0x1000..0x107F, one line, all 4 sectors. */
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(run(0x1000, 4, 0xFFFFFFFFu, 4, a), 1);
    cr_expect_eq(a[0].line, 0x1000);
    cr_expect_eq(a[0].sectors, 0xF);
    cr_expect_eq(a[0].lanes, 0xFFFFFFFFu);
}

Test(coalesce, strided_one_line_per_lane)
{
    /* 128-B stride: lane l alone in line 0x2000 + 128 l, sector 0 only. */
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(run(0x2000, 128, 0xFFFFFFFFu, 4, a), 32);
    for (unsigned i = 0; i < 32; i++) {
        cr_expect_eq(a[i].line, 0x2000 + 128 * i);
        cr_expect_eq(a[i].sectors, 0x1);
        cr_expect_eq(a[i].lanes, 1u << i);
    }
    /* 4-KB stride (the column-major pattern): still 32 lines, in lane order. */
    cr_assert_eq(run(0x80000000ull, 4096, 0xFFFFFFFFu, 4, a), 32);
    cr_expect_eq(a[31].line, 0x80000000ull + 31 * 4096);
}

Test(coalesce, small_stride_two_lines)
{
    /* 8-B stride, 4 B each: lane l at byte 8l; lanes 0-15 in the first line
     * (bytes 0..123: every sector), lanes 16-31 in the next. */
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(run(0x3000, 8, 0xFFFFFFFFu, 4, a), 2);
    cr_expect_eq(a[0].line, 0x3000);
    cr_expect_eq(a[0].lanes, 0x0000FFFFu);
    cr_expect_eq(a[0].sectors, 0xF);
    cr_expect_eq(a[1].line, 0x3080);
    cr_expect_eq(a[1].lanes, 0xFFFF0000u);
}

Test(coalesce, misaligned_warp_two_lines)
{
    /* 0x3040 + 4l: lanes 0-15 cover 0x3040..0x307F (sectors 2,3 of 0x3000),
     * lanes 16-31 cover 0x3080..0x30BF (sectors 0,1 of 0x3080). */
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(run(0x3040, 4, 0xFFFFFFFFu, 4, a), 2);
    cr_expect_eq(a[0].line, 0x3000);
    cr_expect_eq(a[0].sectors, 0xC);
    cr_expect_eq(a[0].lanes, 0x0000FFFFu);
    cr_expect_eq(a[1].line, 0x3080);
    cr_expect_eq(a[1].sectors, 0x3);
    cr_expect_eq(a[1].lanes, 0xFFFF0000u);
    cr_expect(coalesce_is_divergent(&P, 3));
    cr_expect_not(coalesce_is_divergent(&P, 2));
}

Test(coalesce, broadcast)
{
    /* Every lane reads 0x4010: one access, sector 0 (bytes 0x4000..0x401F). */
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(run(0x4010, 0, 0xFFFFFFFFu, 4, a), 1);
    cr_expect_eq(a[0].line, 0x4000);
    cr_expect_eq(a[0].sectors, 0x1);
    cr_expect_eq(a[0].lanes, 0xFFFFFFFFu);
}

Test(coalesce, inactive_lanes)
{
    /* Odd lanes only, 128-B stride: 16 accesses, the first is lane 1's line. */
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(run(0x5000, 128, 0xAAAAAAAAu, 4, a), 16);
    cr_expect_eq(a[0].line, 0x5080);
    cr_expect_eq(a[0].lanes, 0x2);
    cr_expect_eq(a[15].line, 0x5000 + 31 * 128);
    cr_expect_eq(a[15].lanes, 1u << 31);
    /* No active lane: no access. */
    cr_expect_eq(run(0x5000, 128, 0, 4, a), 0);
}

Test(coalesce, order_is_first_lane)
{
    /* Lanes alternate between two lines: B (lane 0's) first, then A. */
    uint64_t addr[32];
    for (unsigned l = 0; l < 32; l++)
        addr[l] = (l % 2 ? 0x5000 : 0x9000) + 4 * l;
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(coalesce_warp(&P, addr, 0xFFFFFFFFu, 4, a), 2);
    cr_expect_eq(a[0].line, 0x9000);
    cr_expect_eq(a[0].lanes, 0x55555555u);
    cr_expect_eq(a[1].line, 0x5000);
    cr_expect_eq(a[1].lanes, 0xAAAAAAAAu);
    /* Descending addresses: lane 0's line (the highest) comes first. */
    for (unsigned l = 0; l < 32; l++)
        addr[l] = 0x8000 + 128 * (31 - l);
    cr_assert_eq(coalesce_warp(&P, addr, 0xFFFFFFFFu, 4, a), 32);
    cr_expect_eq(a[0].line, 0x8000 + 31 * 128);
    cr_expect_eq(a[31].line, 0x8000);
}

Test(coalesce, lane_straddling_two_lines)
{
    /* 8 B at 0x107C: bytes 0x107C..0x1083, sector 3 of 0x1000 and sector 0
     * of 0x1080, lower line first; lane 0 in both. */
    uint64_t addr[32] = {0x107C};
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(coalesce_warp(&P, addr, 0x1, 8, a), 2);
    cr_expect_eq(a[0].line, 0x1000);
    cr_expect_eq(a[0].sectors, 0x8);
    cr_expect_eq(a[1].line, 0x1080);
    cr_expect_eq(a[1].sectors, 0x1);
    cr_expect_eq(a[0].lanes & a[1].lanes, 0x1);
    /* 32 straddling lanes, 256 B apart: 64 accesses, the most possible. */
    for (unsigned l = 0; l < 32; l++)
        addr[l] = 0x10000 + 256 * l + 124;
    cr_expect_eq(coalesce_warp(&P, addr, 0xFFFFFFFFu, 8, a), COALESCE_MAX_ACCESSES);
}

Test(coalesce, size_edge_cases)
{
    /* size 0 counts as 1 byte; 256 B is clamped to the 128-B line: from
     * 0x2040 it covers 0x2040..0x20BF, two lines. */
    uint64_t addr[32] = {0x2040};
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(coalesce_warp(&P, addr, 0x1, 0, a), 1);
    cr_expect_eq(a[0].sectors, 0x4);
    cr_assert_eq(coalesce_warp(&P, addr, 0x1, 256, a), 2);
    cr_expect_eq(a[0].sectors, 0xC);
    cr_expect_eq(a[1].sectors, 0x3);
    /* The last bytes of the address space: one line, no wrap-around. */
    addr[0] = UINT64_MAX - 3;
    cr_assert_eq(coalesce_warp(&P, addr, 0x1, 16, a), 1);
    cr_expect_eq(a[0].line, UINT64_MAX - 127);
    cr_expect_eq(a[0].sectors, 0x8);
}

Test(coalesce, one_sector_per_line_and_32_sectors)
{
    /* Sector = line: any touch is sector 0. 4-B sectors in a 128-B line: 32
     * sectors, a full warp of 4-B loads sets all 32 bits. */
    coalesce_params p1 = {.line_bytes = 128, .sector_bytes = 128, .divergent_after = 2};
    coalesce_params p32 = {.line_bytes = 128, .sector_bytes = 4, .divergent_after = 2};
    uint64_t addr[32];
    for (unsigned l = 0; l < 32; l++)
        addr[l] = 0x6000 + 4 * l;
    coalesce_access a[COALESCE_MAX_ACCESSES];
    cr_assert_eq(coalesce_warp(&p1, addr, 0xFFFFFFFFu, 4, a), 1);
    cr_expect_eq(a[0].sectors, 0x1);
    cr_assert_eq(coalesce_warp(&p32, addr, 0xFFFFFFFFu, 4, a), 1);
    cr_expect_eq(a[0].sectors, 0xFFFFFFFFu);
    /* One lane reading a whole line in 4-B sectors: all 32 in one go. */
    cr_assert_eq(coalesce_warp(&p32, addr, 0x1, 128, a), 1);
    cr_expect_eq(a[0].sectors, 0xFFFFFFFFu);
}

Test(coalesce, regroup_sector_masks)
{
    /* 32-B sectors 1,2 (bytes 32..95): in 64-B sectors, 0 and 1; in a
     * 128-B (unsectored) line, sector 0; back from 128 to 32: all four. */
    cr_expect_eq(sector_mask_regroup(0x6, 32, 64, 128), 0x3);
    cr_expect_eq(sector_mask_regroup(0x6, 32, 128, 128), 0x1);
    cr_expect_eq(sector_mask_regroup(0x1, 128, 32, 128), 0xF);
    cr_expect_eq(sector_mask_regroup(0x8, 32, 32, 128), 0x8);
    cr_expect_eq(sector_mask_regroup(0x2, 64, 32, 128), 0xC);
}

static void expect_check(unsigned line, unsigned sector, const char *want)
{
    coalesce_params p = {.line_bytes = line, .sector_bytes = sector, .divergent_after = 2};
    char why[200] = "";
    cr_expect_not(coalesce_params_check(&p, why, sizeof why));
    cr_expect(strstr(why, want), "got '%s'", why);
}

Test(coalesce, params_check_errors)
{
    char why[200];
    cr_expect(coalesce_params_check(&P, why, sizeof why));
    expect_check(100, 32, "power-of-two line size of at least 4 bytes, got 100");
    expect_check(2, 1, "at least 4 bytes, got 2");
    expect_check(128, 48, "dividing the 128-byte line into at most 32 sectors, got 48");
    expect_check(128, 256, "got 256");
    expect_check(256, 4, "at most 32 sectors, got 4");
}

Test(coalesce, params_default_and_config)
{
    /* Defaults: 128-B lines, 32-B sectors, divergent above 2 (Wang,
     * section 1.1.2). */
    coalesce_params p;
    coalesce_params_default(&p);
    cr_expect_eq(p.line_bytes, 128);
    cr_expect_eq(p.sector_bytes, 32);
    cr_expect_eq(p.divergent_after, 2);
    config *c = config_new();
    GError *err = NULL;
    cr_expect(coalesce_params_from_config(&p, c, &err));
    cr_assert(config_set(c, "coalesce.sector_bytes", "24", "m.ini:4", &err));
    cr_expect_not(coalesce_params_from_config(&p, c, &err));
    cr_assert(err);
    cr_expect_str_eq(err->message, "m.ini:4: coalesce.sector_bytes = '24': expected a power-of-two "
                                   "sector size dividing the 128-byte line into at most 32 sectors, got 24");
    g_clear_error(&err);
    cr_assert(config_set(c, "coalesce.line_bytes", "96", "m.ini:3", &err));
    cr_expect_not(coalesce_params_from_config(&p, c, &err));
    cr_expect(strstr(err->message, "m.ini:3: coalesce.line_bytes = '96'"), "%s", err->message);
    g_clear_error(&err);
    config_free(c);
}

Test(coalesce, statistics_and_mpli)
{
    /* Loads with 1, 3 and 32 accesses (two divergent), a store of 2; then
     * MPLI: a coherent load with 0 misses, divergent ones with 0, 1, 5, 32.
     * Buckets 0 / 1 / 2 / 3-31 / 32+. */
    coalesce_stats s;
    coalesce_stats_init(&s);
    coalesce_access a[COALESCE_MAX_ACCESSES] = {{.sectors = 0xF}, {.sectors = 0x1}, {.sectors = 0x3}};
    coalesce_count(&s, &P, MEM_LOAD, a, 1);
    coalesce_count(&s, &P, MEM_LOAD, a, 3);
    coalesce_count(&s, &P, MEM_LOAD, a, 32);
    coalesce_count(&s, &P, MEM_STORE, a, 2);
    coalesce_count(&s, &P, MEM_ATOMIC, a, 1);
    cr_expect_eq(s.loads, 3);
    cr_expect_eq(s.stores, 1);
    cr_expect_eq(s.atomics, 1);
    cr_expect_eq(s.accesses, 1 + 3 + 32 + 2 + 1);
    /* sectors: 4; 4+1+2; 7 (rest zero); 4+1; 4 */
    cr_expect_eq(s.sectors, 4 + 7 + 7 + 5 + 4);
    cr_expect_eq(s.divergent_loads, 2);
    cr_expect_eq(s.accesses_per_load.count[0], 1);  /* bucket "1" */
    cr_expect_eq(s.accesses_per_load.count[2], 1);  /* bucket "3" */
    cr_expect_eq(s.accesses_per_load.count[31], 1); /* bucket "32-64" */
    coalesce_count_mpli(&s, &P, 1, 0);
    coalesce_count_mpli(&s, &P, 32, 0);
    coalesce_count_mpli(&s, &P, 32, 1);
    coalesce_count_mpli(&s, &P, 32, 5);
    coalesce_count_mpli(&s, &P, 32, 32);
    cr_expect_eq(s.mpli_coherent.count[0], 1);
    cr_expect_eq(s.mpli_divergent.count[0], 1);
    cr_expect_eq(s.mpli_divergent.count[1], 1);
    cr_expect_eq(s.mpli_divergent.count[3], 1);
    cr_expect_eq(s.mpli_divergent.count[4], 1);
    cr_expect_eq(s.fully_cached_coherent, 1);
    cr_expect_eq(s.fully_cached_divergent, 1);
    stats *st = stats_new();
    coalesce_register_stats(&s, st, "sm0.ldst");
    uint64_t v = 0;
    cr_expect(stats_get_counter(st, "sm0.ldst", "divergent_loads", &v));
    cr_expect_eq(v, 2);
    stats_free(st);
}

Test(coalesce, partial_segments_of_a_store)
{
    /* Worked by hand from the byte ranges (32-B segments of a 128-B line). */
    coalesce_access a[COALESCE_MAX_ACCESSES];
    uint64_t addr[32];
    /* 32 lanes x 4 B consecutive: every byte of the line, nothing partial. */
    for (unsigned l = 0; l < 32; l++)
        addr[l] = 0x1000 + 4 * l;
    cr_assert_eq(coalesce_warp(&P, addr, 0xFFFFFFFFu, 4, a), 1);
    cr_expect_eq(coalesce_partial32(&P, addr, 4, &a[0]), 0);
    /* Lanes 0..15 only: bytes 0..63, segments 0 and 1 whole. */
    cr_assert_eq(coalesce_warp(&P, addr, 0xFFFFu, 4, a), 1);
    cr_expect_eq(coalesce_partial32(&P, addr, 4, &a[0]), 0);
    /* The transpose's strided write: 4 B per line at a 32 KiB stride, each
     * line 4 of the 32 bytes of segment 0. */
    for (unsigned l = 0; l < 32; l++)
        addr[l] = 0x100000 + 32768ull * l;
    cr_assert_eq(coalesce_warp(&P, addr, 0xFFFFFFFFu, 4, a), 32);
    for (unsigned i = 0; i < 32; i++)
        cr_expect_eq(coalesce_partial32(&P, addr, 4, &a[i]), 0x1);
    /* ubench5 rw, q = 1: float4 stores of the lanes with (i & 3) == 0: lanes
     * 0 and 4 write bytes 0..15 and 64..79 of line 0x2000, half of
     * segments 0 and 2; lanes 8 and 12 the same in line 0x2080. q = 2:
     * lanes 0, 1 write bytes 0..31, segment 0 whole. */
    for (unsigned l = 0; l < 32; l++)
        addr[l] = 0x2000 + 16 * l;
    cr_assert_eq(coalesce_warp(&P, addr, 0x11111111u, 16, a), 4);
    cr_expect_eq(coalesce_partial32(&P, addr, 16, &a[0]), 0x5);
    cr_expect_eq(coalesce_partial32(&P, addr, 16, &a[1]), 0x5);
    cr_assert_eq(coalesce_warp(&P, addr, 0x33333333u, 16, a), 4);
    cr_expect_eq(coalesce_partial32(&P, addr, 16, &a[0]), 0);
    /* Lines above 1024 bytes are not tracked. */
    coalesce_params big = {.line_bytes = 2048, .sector_bytes = 64, .divergent_after = 2};
    cr_assert_eq(coalesce_warp(&big, addr, 0x1u, 4, a), 1);
    cr_expect_eq(coalesce_partial32(&big, addr, 4, &a[0]), 0);
}

Test(coalesce, whole_words_of_a_store)
{
    /* The 4-B words of the line a store writes whole (bit w: bytes 4w..4w+3),
     * worked by hand from the byte ranges. */
    coalesce_access a[COALESCE_MAX_ACCESSES];
    uint64_t addr[32];
    /* The transpose's strided write: lane l stores 4 B at 0x100000 + 32 KiB l
     * + 12, word 3 of its own line. */
    for (unsigned l = 0; l < 32; l++)
        addr[l] = 0x100000 + 32768ull * l + 12;
    cr_assert_eq(coalesce_warp(&P, addr, 0xFFFFFFFFu, 4, a), 32);
    cr_expect_eq(coalesce_words32(&P, addr, 4, &a[5]), 0x8);
    /* rw, q = 1: lanes 0 and 4 store 16 B at bytes 0..15 and 64..79 of line
     * 0x2000: words 0..3 and 16..19. */
    for (unsigned l = 0; l < 32; l++)
        addr[l] = 0x2000 + 16 * l;
    cr_assert_eq(coalesce_warp(&P, addr, 0x11111111u, 16, a), 4);
    cr_expect_eq(coalesce_words32(&P, addr, 16, &a[0]), 0x000F000Fu);
    /* A 2-B store at byte 6: half of word 1, no word whole. */
    addr[0] = 0x3006;
    cr_assert_eq(coalesce_warp(&P, addr, 0x1u, 2, a), 1);
    cr_expect_eq(coalesce_words32(&P, addr, 2, &a[0]), 0);
    /* 8-B stores at bytes 124..131 cross into the next line: word 31 of
     * line 0x3000 only. */
    addr[0] = 0x3000 + 124;
    cr_assert_eq(coalesce_warp(&P, addr, 0x1u, 8, a), 2);
    cr_expect_eq(coalesce_words32(&P, addr, 8, &a[0]), 0x80000000u);
    /* Lines above 128 bytes are not tracked. */
    coalesce_params big = {.line_bytes = 256, .sector_bytes = 32, .divergent_after = 2};
    addr[0] = 0x4000;
    cr_assert_eq(coalesce_warp(&big, addr, 0x1u, 4, a), 1);
    cr_expect_eq(coalesce_words32(&big, addr, 4, &a[0]), 0);
}
