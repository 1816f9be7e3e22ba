/* Command-level timing, with full_params (test_dram_util.h):
 * tRCD 12, tRP 10, tRAS 28, tRC 40, tCL 12, tWL 4, tCCD 2, tRRD 6, tWTR 5,
 * tRTW 12, tWR 12, BL 4 at DDR: a burst holds the bus BL/2 = 2 cycles and
 * carries 64 B. One command per cycle. Requests are 64 B (one burst)
 * unless said otherwise. */
#include "test_dram_util.h"

static void play(const dram_params *p, const script_req *s, unsigned n, uint64_t *done,
                 memctrl_stats *st)
{
    dram_rig r;
    rig_init(&r, p);
    cr_assert_eq(rig_play(&r, s, n, done, NULL, DRIVE_EVENTS, 0), n);
    if (st)
        *st = *memctrl_get_stats(r.mc);
    rig_free(&r);
}

Test(dram_full, read_to_closed_bank)
{
    dram_params p;
    full_params(&p);
    /* ACT at 0, RD at tRCD = 12, data 24..26: done = tRCD + tCL + BL/2 = 26 */
    script_req s[] = {{.at = 0, .bank = 1, .row = 7, .bytes = 64}};
    uint64_t done[1];
    memctrl_stats st;
    play(&p, s, 1, done, &st);
    cr_assert_eq(done[0], 26);
    cr_assert_eq(st.activations, 1);
    cr_assert_eq(st.row_misses, 1);
    cr_assert_eq(st.column_commands, 1);
    cr_assert_eq(st.bus_busy_cycles, 2);
}

Test(dram_full, row_hit)
{
    dram_params p;
    full_params(&p);
    /* B finds row 7 open at 100: RD at 100, done = 100 + tCL + BL/2 = 114 */
    script_req s[] = {{.at = 0, .bank = 1, .row = 7, .bytes = 64},
                      {.at = 100, .bank = 1, .row = 7, .col = 64, .bytes = 64}};
    uint64_t done[2];
    memctrl_stats st;
    play(&p, s, 2, done, &st);
    cr_assert_eq(done[1], 114);
    cr_assert_eq(st.row_hits, 1);
    cr_assert_eq(st.activations, 1);
}

Test(dram_full, row_conflict)
{
    dram_params p;
    full_params(&p);
    /* B (row 8) at 100: PRE 100, ACT 110 (tRP), RD 122 (tRCD), done
     * 122 + 12 + 2 = 136 = 100 + tRP + tRCD + tCL + BL/2. */
    script_req s[] = {{.at = 0, .bank = 1, .row = 7, .bytes = 64},
                      {.at = 100, .bank = 1, .row = 8, .bytes = 64}};
    uint64_t done[2];
    memctrl_stats st;
    play(&p, s, 2, done, &st);
    cr_assert_eq(done[1], 136);
    cr_assert_eq(st.row_conflicts, 1);
    cr_assert_eq(st.precharges, 1);
    cr_assert_eq(st.activations, 2);
}

Test(dram_full, row_conflict_waits_for_tRAS_and_tRC)
{
    dram_params p;
    full_params(&p);
    /* A: ACT 0, RD 12 (done 26). B (row 8) at 1: PRE waits for tRAS from
     * the ACT: 28; ACT at max(28 + tRP = 38, 0 + tRC = 40) = 40; RD 52;
     * done 52 + 14 = 66. */
    script_req s[] = {{.at = 0, .bank = 1, .row = 7, .bytes = 64},
                      {.at = 1, .bank = 1, .row = 8, .bytes = 64}};
    uint64_t done[2];
    play(&p, s, 2, done, NULL);
    cr_assert_eq(done[0], 26);
    cr_assert_eq(done[1], 66);
}

Test(dram_full, tCCD_spaces_back_to_back_hits)
{
    dram_params p;
    full_params(&p);
    p.tCCD = 4;   /* longer than the 2-cycle burst, so tCCD is what limits */
    /* ACT 0; RDs at 12, 16, 20; done +14: 26, 30, 34 */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 0, .row = 1, .col = 64, .bytes = 64},
                      {.at = 0, .bank = 0, .row = 1, .col = 128, .bytes = 64}};
    uint64_t done[3];
    play(&p, s, 3, done, NULL);
    cr_assert_eq(done[0], 26);
    cr_assert_eq(done[1], 30);
    cr_assert_eq(done[2], 34);
}

Test(dram_full, tRRD_spaces_activations)
{
    dram_params p;
    full_params(&p);
    /* ACT bank0 at 0, ACT bank1 at tRRD = 6; RD bank0 12 (done 26), RD bank1
     * at 6 + 12 = 18 (tCCD and bus long satisfied): done 32. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 1, .row = 1, .bytes = 64}};
    uint64_t done[2];
    play(&p, s, 2, done, NULL);
    cr_assert_eq(done[0], 26);
    cr_assert_eq(done[1], 32);
}

Test(dram_full, tRRD_is_per_pseudo_channel)
{
    dram_params p;
    full_params(&p);
    p.pseudo_channels = 2;   /* bank b in pseudo-channel b % 2 */
    /* Banks 0 and 1, different pseudo-channels: ACTs at 0 and 1 (one
     * command per cycle, no tRRD between them). RD bank0 at 12, data
     * 24..26 (done 26); RD bank1 at max(1 + tRCD 13, 12 + tCCD 14, bus
     * 26 - tCL 14) = 14: done 14 + 12 + 2 = 28. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 1, .row = 1, .bytes = 64}};
    uint64_t done[2];
    play(&p, s, 2, done, NULL);
    cr_assert_eq(done[0], 26);
    cr_assert_eq(done[1], 28);
    /* Banks 0 and 2, same pseudo-channel: ACT at 0 and tRRD = 6 as with one
     * pseudo-channel (tRRD_spaces_activations): done 26 and 32. */
    s[1].bank = 2;
    play(&p, s, 2, done, NULL);
    cr_assert_eq(done[0], 26);
    cr_assert_eq(done[1], 32);
}

Test(dram_full, tFAW_holds_the_fifth_activation_of_a_pseudo_channel)
{
    dram_params p;
    full_params(&p);
    p.banks = 16;
    p.pseudo_channels = 2;
    p.tRRD = 2;
    p.tFAW = 30;
    /* Bank 1 is pseudo-channel 1, banks 0, 2, 4, 6, 8 pseudo-channel 0;
     * oldest first. ACTs: bank1 0; bank0 1 (other pseudo-channel: no tRRD,
     * one command per cycle); bank2 3, bank4 5, bank6 7 (tRRD 2 apart);
     * bank8 is the fifth of pseudo-channel 0 and waits for its first + tFAW
     * = 1 + 30 = 31 (bank1's ACT is not in that window: counted over the
     * channel, bank6 would be the fifth and wait until 30). Reads at ACT +
     * tRCD 12, at least tCCD 2 apart: bank1 12, bank0 14, bank2 16, bank4
     * 18, bank6 20, bank8 43. Done = RD + tCL 12 + 2. */
    script_req s[] = {{.at = 0, .bank = 1, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 2, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 4, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 6, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 8, .row = 1, .bytes = 64}};
    uint64_t done[6];
    memctrl_stats st;
    play(&p, s, 6, done, &st);
    cr_assert_eq(done[0], 26);
    cr_assert_eq(done[1], 28);
    cr_assert_eq(done[2], 30);
    cr_assert_eq(done[3], 32);
    cr_assert_eq(done[4], 34);
    cr_assert_eq(done[5], 57);
    cr_assert_eq(st.activations, 6);
}

Test(dram_full, writes_of_all_pseudo_channels_share_one_data_bus)
{
    dram_params p;
    full_params(&p);
    p.banks = 16;
    p.pseudo_channels = 4;   /* bank b in pseudo-channel b % 4 */
    p.tCCD = 1;              /* shorter than a burst: the bus alone spaces them */
    /* 16 writes of 128 B to 16 closed banks, all at 0: activations of
     * different pseudo-channels need not wait tRRD for each other, but the
     * data of all of them crosses the channel's one bus. A 128-B write is
     * two 64-B bursts of BL/2 = 2 cycles: 4 bus cycles, 64 for all 16
     * (2,048 B at 32 B per cycle). The first data cannot start before ACT 0
     * + tRCD 12 + tWL 4 = 16, so the last write is done at 16 + 64 = 80 at
     * the earliest, and no two writes' data overlap: sorted, the done
     * cycles are at least 4 apart. */
    script_req s[16];
    for (unsigned i = 0; i < 16; i++)
        s[i] = (script_req){.at = 0, .bank = i, .row = 1, .bytes = 128, .write = true};
    uint64_t done[16];
    memctrl_stats st;
    play(&p, s, 16, done, &st);
    cr_assert_eq(st.bus_busy_cycles, 64);
    cr_assert_eq(st.column_commands, 32);
    cr_assert_eq(st.activations, 16);
    for (unsigned i = 1; i < 16; i++)   /* insertion sort */
        for (unsigned j = i; j > 0 && done[j - 1] > done[j]; j--) {
            uint64_t t = done[j];
            done[j] = done[j - 1], done[j - 1] = t;
        }
    cr_assert_geq(done[0], 16 + 4);
    for (unsigned i = 1; i < 16; i++)
        cr_assert_geq(done[i], done[i - 1] + 4, "writes %u and %u overlap on the bus: done %lu and %lu",
                      i - 1, i, (unsigned long)done[i - 1], (unsigned long)done[i]);
    cr_assert_geq(done[15], 80);
}

Test(dram_full, two_banks_contend_for_the_data_bus)
{
    dram_params p;
    full_params(&p);
    p.burst_length = 8;   /* 4 bus cycles per burst, 128 B */
    p.tCCD = 1;
    /* Open both rows first (ACT 0 and 6; RD 12 -> data 24..28; RD bank1 at
     * max(18, bus 28 - 12 = 16) = 18 -> done 34). At 200 both banks hit:
     * RD0 at 200, data 212..216; RD1 waits for the bus: 216 - 12 = 204,
     * data 216..220. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 0, .bank = 1, .row = 1, .bytes = 128},
                      {.at = 200, .bank = 0, .row = 1, .col = 128, .bytes = 128},
                      {.at = 200, .bank = 1, .row = 1, .col = 128, .bytes = 128}};
    uint64_t done[4];
    play(&p, s, 4, done, NULL);
    cr_assert_eq(done[0], 28);
    cr_assert_eq(done[1], 34);
    cr_assert_eq(done[2], 216);
    cr_assert_eq(done[3], 220);
}

Test(dram_full, write_then_read_waits_tWTR)
{
    dram_params p;
    full_params(&p);
    /* Row 1 opened by a read at 0 (done 26). At 100 a write then a read,
     * both hits, oldest first: WR 100, data 104..106 (done 106); RD waits
     * for end of write data + tWTR = 106 + 5 = 111: done 111 + 14 = 125. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 100, .bank = 0, .row = 1, .col = 64, .bytes = 64, .write = true},
                      {.at = 100, .bank = 0, .row = 1, .col = 128, .bytes = 64}};
    uint64_t done[3];
    memctrl_stats st;
    play(&p, s, 3, done, &st);
    cr_assert_eq(done[1], 106);
    cr_assert_eq(done[2], 125);
    cr_assert_eq(st.writes, 1);
    cr_assert_eq(st.reads, 2);
    cr_assert_eq(st.bytes_written, 64);
}

Test(dram_full, read_then_write_waits_tRTW)
{
    dram_params p;
    full_params(&p);
    /* At 100: RD 100 (done 114), WR at 100 + tRTW = 112, data 116..118. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 100, .bank = 0, .row = 1, .col = 64, .bytes = 64},
                      {.at = 100, .bank = 0, .row = 1, .col = 128, .bytes = 64, .write = true}};
    uint64_t done[3];
    play(&p, s, 3, done, NULL);
    cr_assert_eq(done[1], 114);
    cr_assert_eq(done[2], 118);
}

Test(dram_full, write_recovery_delays_precharge)
{
    dram_params p;
    full_params(&p);
    /* W to row 1 at 0: ACT 0, WR 12, data 16..18 (done 18). R to row 2 at
     * 1: PRE waits for max(tRAS = 28, 18 + tWR = 30) = 30; ACT at
     * max(40, 0 + tRC = 40) = 40; RD 52; done 66. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64, .write = true},
                      {.at = 1, .bank = 0, .row = 2, .bytes = 64}};
    uint64_t done[2];
    play(&p, s, 2, done, NULL);
    cr_assert_eq(done[0], 18);
    cr_assert_eq(done[1], 66);
}

Test(dram_full, bank_groups_use_tCCDL_within_a_group)
{
    dram_params p;
    full_params(&p);
    p.bank_groups = 2;   /* banks 0, 2, 4, 6 in group 0; 1, 3, 5, 7 in group 1 */
    p.tCCDL = 5;
    /* Rows of banks 0, 1, 2 opened long before 1000. At 1000 two hits to
     * banks 0 and 2 (same group): RD 1000 and 1005 (tCCDL): done 1014 and
     * 1019. At 2000 hits to banks 0 and 1 (different groups): RD 2000 and
     * 2002 (tCCD): done 2014 and 2016. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 1, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 2, .row = 1, .bytes = 64},
                      {.at = 1000, .bank = 0, .row = 1, .col = 64, .bytes = 64},
                      {.at = 1000, .bank = 2, .row = 1, .col = 64, .bytes = 64},
                      {.at = 2000, .bank = 0, .row = 1, .col = 128, .bytes = 64},
                      {.at = 2000, .bank = 1, .row = 1, .col = 128, .bytes = 64}};
    uint64_t done[7];
    play(&p, s, 7, done, NULL);
    cr_assert_eq(done[3], 1014);
    cr_assert_eq(done[4], 1019);
    cr_assert_eq(done[5], 2014);
    cr_assert_eq(done[6], 2016);
}

Test(dram_full, multi_burst_request)
{
    dram_params p;
    full_params(&p);
    /* 128 B = two 64 B bursts: ACT 0, RD 12 and 14 (tCCD), done 14 + 14 = 28 */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128}};
    uint64_t done[1];
    memctrl_stats st;
    play(&p, s, 1, done, &st);
    cr_assert_eq(done[0], 28);
    cr_assert_eq(st.column_commands, 2);
    cr_assert_eq(st.bus_busy_cycles, 4);
}

Test(dram_full, gddr5_defaults_line_read)
{
    dram_params p;
    dram_params_default(&p);
    p.channels = 1;
    /* GDDR5 defaults: BL 8 at 4 transfers per clock = 2 bus cycles and
     * 32 * 2 = 64 B per burst; a 128 B line is 2 bursts from one bank, so
     * in one bank group: ACT 0, RD 12 (tRCD), RD 15 (tCCDL = 3), done
     * 15 + tCL 12 + 2 = 29. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 128}};
    uint64_t done[1];
    play(&p, s, 1, done, NULL);
    cr_assert_eq(done[0], 29);
}

Test(dram_full, close_page_precharges_after_access)
{
    dram_params p;
    full_params(&p);
    p.page_policy = DRAM_PAGE_CLOSE;
    /* A: ACT 0, RD 12, done 26; auto-precharge at max(tRAS 28, 12 + 2) = 28.
     * B, same row, at 100 finds the bank closed: ACT 100, RD 112, done 126. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 100, .bank = 0, .row = 1, .col = 64, .bytes = 64}};
    uint64_t done[2];
    memctrl_stats st;
    play(&p, s, 2, done, &st);
    cr_assert_eq(done[1], 126);
    cr_assert_eq(st.row_hits, 0);
    cr_assert_eq(st.row_misses, 2);
    cr_assert_eq(st.precharges, 2);
}

Test(dram_full, close_page_next_act_waits_for_auto_precharge)
{
    dram_params p;
    full_params(&p);
    p.page_policy = DRAM_PAGE_CLOSE;
    /* B (row 2) at 1: auto-precharge of A at 28, so ACT at
     * max(28 + tRP = 38, tRC = 40) = 40; RD 52; done 66. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 1, .bank = 0, .row = 2, .bytes = 64}};
    uint64_t done[2];
    memctrl_stats st;
    play(&p, s, 2, done, &st);
    cr_assert_eq(done[1], 66);
    cr_assert_eq(st.row_misses, 2);
}

Test(dram_full, refresh_closes_rows)
{
    dram_params p;
    full_params(&p);
    p.refresh = true;
    p.tREFI = 100;
    p.tRFC = 20;
    /* A: ACT 0, RD 12, done 26. Refresh due 100: PRE at 100 (tRAS long
     * met), REF at 110 (tRP), banks closed until 130. B (row 1) at 105:
     * ACT 130, RD 142, done 156. */
    script_req s[] = {{.at = 0, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 105, .bank = 0, .row = 1, .bytes = 64}};
    uint64_t done[2];
    memctrl_stats st;
    play(&p, s, 2, done, &st);
    cr_assert_eq(done[1], 156);
    cr_assert_eq(st.refreshes, 1);
    cr_assert_eq(st.row_misses, 2);
    cr_assert_eq(st.precharges, 1);
}

Test(dram_full, refresh_while_idle_is_counted_without_waking)
{
    dram_params p;
    full_params(&p);
    p.refresh = true;
    p.tREFI = 100;
    p.tRFC = 20;
    dram_rig r;
    rig_init(&r, &p);
    /* Idle controller: nothing to wake for. */
    cr_assert_eq(memctrl_next_event(r.mc), MEMCTRL_NEVER);
    /* A request at 10050 after refreshes due at 100, 200, ..., 10000 (100 of
     * them); the last ends at 10020, so ACT 10050, RD 10062, done 10076. */
    script_req s[] = {{.at = 10050, .bank = 0, .row = 1, .bytes = 64}};
    uint64_t done[1];
    rig_play(&r, s, 1, done, NULL, DRIVE_EVENTS, 0);
    cr_assert_eq(done[0], 10076);
    cr_assert_eq(memctrl_get_stats(r.mc)->refreshes, 100);
    rig_free(&r);
}

Test(dram_full, refresh_in_progress_delays_activation)
{
    dram_params p;
    full_params(&p);
    p.refresh = true;
    p.tREFI = 10000;
    p.tRFC = 20;
    /* Idle until the refresh due at 10000 (banks closed: REF 10000..10020);
     * A at 10005: ACT 10020, RD 10032, done 10046. */
    script_req s[] = {{.at = 10005, .bank = 3, .row = 1, .bytes = 64}};
    uint64_t done[1];
    play(&p, s, 1, done, NULL);
    cr_assert_eq(done[0], 10046);
}

/* dram.refresh_stagger: channel c of C refreshes c tREFI / C after channel
 * 0. Four channels, tREFI 10000, tRFC 20; this controller is channel 3:
 * refreshes due at 10000 + 3 x 10000 / 4 = 17500, 27500, ... A at 10005
 * finds the banks free (channel 0's refresh time): ACT 10005, RD 10017,
 * done 10031; its row stays open. The refresh due at 17500 closes it first
 * (PRE 17500, REF 17510 after tRP, banks closed to 17530), so B (another
 * bank) at 17505 waits: ACT 17530, RD 17542, done 17556. Without the stagger every channel
 * refreshes at 10000: A waits to 10020 and is done at 10046 (as
 * refresh_in_progress_delays_activation), B is done at 17505 + 26. */
static void stagger_play(bool stagger, uint64_t *done)
{
    dram_params p;
    full_params(&p);
    p.channels = 4;
    p.refresh = true;
    p.refresh_stagger = stagger;
    p.tREFI = 10000;
    p.tRFC = 20;
    dram_rig r;
    rig_init(&r, &p);
    memctrl_free(r.mc);
    r.mc = memctrl_new(&r.p, &r.map, 3);
    cr_assert_not_null(r.mc);
    script_req s[] = {{.at = 10005, .bank = 3, .row = 1, .bytes = 64},
                      {.at = 17505, .bank = 5, .row = 1, .bytes = 64}};
    cr_assert_eq(rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0), 2);
    rig_free(&r);
}

Test(dram_full, refresh_stagger_offsets_each_channel)
{
    uint64_t done[2];
    stagger_play(true, done);
    cr_assert_eq(done[0], 10031);
    cr_assert_eq(done[1], 17556);
    stagger_play(false, done);
    cr_assert_eq(done[0], 10046);
    cr_assert_eq(done[1], 17531);
}
