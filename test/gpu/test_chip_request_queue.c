/* l1d.request_queue through the assembled chip: the SM's queue of global
 * memory instructions to its LD/ST unit; a global access that finds it
 * full cannot issue, and the warp's next instructions wait behind it.
 *
 * One warp (scoreboard, 1-stage pipeline, 4-cycle ALU) issues four
 * independent .cg loads at cycles k0 .. k0+3, each lane of each on its own
 * 128 B line: 32 L1 accesses per load, which the LD/ST unit passes one per
 * cycle, one instruction at a time. The queue's latency is one cycle, so
 * the unit takes load 1 at k0+1 and sends its accesses at k0+1 .. k0+32;
 * at k0+3 loads 2 and 3 wait in the queue. With 3 entries load 4 joins
 * them and issues at k0+3. With 2 it waits until the unit takes load 2,
 * the cycle after load 1's last access (k0+33), and the freed entry reaches
 * the SM a queue latency later (a port's credit returns with its latency,
 * src/des/port.c): k0+34, 31 cycles later. A chain of 128 dependent adds
 * (512 cycles, far longer than the loads) follows the loads and ends the
 * run, so the whole run is 31 cycles longer with 2 entries than with 3,
 * and as long with 8 as with 3. */
#include "gpu_test_util.h"

static const char *model =
    "[clock]\ncore_mhz = 250\nicnt_mhz = 750\nl2_mhz = 500\ndram_mhz = 1000\n"
    "[gpu]\nsms = 1\nmemory = caches\n"
    "[core]\ndiscipline = scoreboard\npipeline_depth = 1\nalu_latency = 4\nmem_pending_per_warp = 8\n"
    "[l1d]\nsets = 1\nways = 32\nindex = linear\nhit_latency = 20\n"
    "[l2]\nhit_latency = 30\n"
    "[icnt]\nflit_bytes = 32\nheader_bytes = 8\nflits_per_cycle = 1\nlatency = 4\n"
    "[dram]\nchannels = 2\nbanks = 16\nrow_bytes = 4096\nchannel_interleave = 256\n"
    "addr_map = linear\nrow_hit_latency = 100\nrow_conflict_latency = 300\ntiming = simple\n";

static char *kernel_text(void)
{
    GString *s = g_string_new(".kernel q\n.data a u32[32768] = zero\n"
                              "    mov r1, %tid.x\n    shl r2, r1, 7\n"
                              "    add r3, r2, 4096\n    add r4, r2, 8192\n    add r5, r2, 12288\n"
                              "    ld.global.cg.u32 r10, [r2+@a]\n    ld.global.cg.u32 r11, [r3+@a]\n"
                              "    ld.global.cg.u32 r12, [r4+@a]\n    ld.global.cg.u32 r13, [r5+@a]\n"
                              "    mov r20, 0\n");
    for (unsigned i = 0; i < 128; i++)
        g_string_append(s, "    add r20, r20, 1\n");
    g_string_append(s, "    exit\n");
    return g_string_free(s, FALSE);
}

static bool four_loads(const chip_run *cr, const void *arg)
{
    (void)arg;
    return chip_counter(cr, "sm0.ldst", "loads") == 4 && chip_counter(cr, "sm0.ldst", "accesses") == 128;
}

/* Core cycles of the run; the four loads' 128 accesses are checked. */
static uint64_t run_cycles(const char *entries)
{
    char *set = g_strdup_printf("l1d.request_queue=%s", entries);
    char *k = kernel_text();
    uint64_t c = chip_cycles_in_child(model, k, set, four_loads, NULL);
    g_free(k);
    g_free(set);
    return c;
}

Test(chip_request_queue, two_entries_hold_the_fourth_load)
{
    uint64_t two = run_cycles("2"), three = run_cycles("3");
    cr_expect_eq(two - three, 31, "2 entries: 31 cycles more: %lu vs %lu", (unsigned long)two,
                 (unsigned long)three);
}

Test(chip_request_queue, room_for_every_load_changes_nothing)
{
    uint64_t three = run_cycles("3"), eight = run_cycles("8");
    cr_expect_eq(eight, three, "%lu vs %lu", (unsigned long)eight, (unsigned long)three);
}
