/* l1d.hit_bytes_per_cycle through the assembled chip: the L1 returns at
 * most that many bytes of hit data (each hit's touched 32-B sectors) per
 * core cycle to its SM.
 *
 * One warp, lane l loads a float4 at byte 16 l: 4 whole lines (16 sectors,
 * 512 B). The first load misses and fills them; the second, dependent on it
 * (its address adds the loaded zero), hits all 4. The LD/ST unit passes one
 * access per cycle, so the hits enter the L1 at cycles c .. c+3 and, with no
 * limit, are ready hit_latency (20) later: the last at c+23. With 64 B per
 * cycle each 128-B line holds the return path 2 cycles: hit k is ready when
 * its last byte is out, c+21, c+23, c+25, c+27: the run is 4 cycles longer.
 * With 32 B per cycle, 4 cycles a line: c+23, c+27, c+31, c+35, 12 longer.
 * 128 B per cycle is the port's own rate: no change.
 * A scalar load of word 0 of 32 lines moves one sector a line: at 32 B per
 * cycle each hit holds the path one cycle, the port's rate: no change. */
#include "gpu_test_util.h"

static const char *model = CHIP_ONE_SM_L1_MODEL;

static const char *vec = ".kernel hits\n.data a u32[1024] = zero\n"
                         "    mov r1, %tid.x\n    shl r2, r1, 4\n"
                         "    ld.global.ca.v4.u32 {r4, r5, r6, r7}, [r2+@a]\n    add r2, r2, r4\n"
                         "    ld.global.ca.v4.u32 {r8, r9, r10, r11}, [r2+@a]\n    add r12, r8, r11\n"
                         "    exit\n";

static const char *lines = ".kernel hits\n.data a u32[1024] = zero\n"
                           "    mov r1, %tid.x\n    shl r2, r1, 7\n"
                           "    ld.global.ca.u32 r3, [r2+@a]\n    add r2, r2, r3\n"
                           "    ld.global.ca.u32 r4, [r2+@a]\n    add r5, r4, 1\n    exit\n";

static bool hits_vec(const chip_run *cr, const void *arg)
{
    (void)arg;
    return chip_counter(cr, "sm0.l1d", "hits") == 4;
}

static bool hits_lines(const chip_run *cr, const void *arg)
{
    (void)arg;
    return chip_counter(cr, "sm0.l1d", "hits") == 32;
}

static uint64_t run_cycles(const char *kernel, const char *bytes)
{
    char *set = bytes ? g_strdup_printf("l1d.hit_bytes_per_cycle=%s", bytes) : NULL;
    uint64_t c = chip_cycles_in_child(model, kernel, set, kernel == vec ? hits_vec : hits_lines, NULL);
    g_free(set);
    return c;
}

Test(chip_hit_bytes, float4_lines_wait_for_the_return_path)
{
    uint64_t off = run_cycles(vec, NULL);
    uint64_t b64 = run_cycles(vec, "64"), b32 = run_cycles(vec, "32");
    cr_expect_eq(b64 - off, 4, "64 B/cycle adds 4 cycles: %lu vs %lu", (unsigned long)b64, (unsigned long)off);
    cr_expect_eq(b32 - off, 12, "32 B/cycle adds 12 cycles: %lu vs %lu", (unsigned long)b32, (unsigned long)off);
}

Test(chip_hit_bytes, a_line_per_cycle_is_the_port_rate)
{
    uint64_t off = run_cycles(vec, NULL), b128 = run_cycles(vec, "128");
    cr_expect_eq(b128, off, "%lu vs %lu", (unsigned long)b128, (unsigned long)off);
}

Test(chip_hit_bytes, counts_sectors_not_lines)
{
    uint64_t off = run_cycles(lines, NULL), b32 = run_cycles(lines, "32");
    cr_expect_eq(b32, off, "one sector per line at 32 B/cycle: %lu vs %lu", (unsigned long)b32,
                 (unsigned long)off);
}
