/* Per-bank refresh (dram.refresh_per_bank: HBM3's REFpb, JESD238A, issued
 * as Ramulator 2's PerBank refresh manager does): the channel's banks in
 * turn, refresh n (from 1) of bank (n - 1) mod B due at n tREFI / B, each
 * closing its bank tRFCpb while the others serve. Here B = 8 banks,
 * tREFI 800, tRFCpb 50: refresh n is due at 100 n, bank (n - 1) mod 8.
 * Full timing with full_params (test_dram_util.h): tRCD 12, tRP 10, tCL 12,
 * tRRD 6, a 64 B burst 2 cycles, so an ACT at t gives done t + 26. */
#include "test_dram_util.h"

static void play_trfc(bool per_bank, unsigned trfc, const script_req *s, unsigned n,
                      uint64_t *done, memctrl_stats *st)
{
    dram_params p;
    full_params(&p);
    p.refresh = true;
    p.refresh_per_bank = per_bank;
    p.tREFI = 800;
    p.tRFC = trfc;
    p.tRFCpb = trfc;
    dram_rig r;
    rig_init(&r, &p);
    cr_assert_eq(rig_play(&r, s, n, done, NULL, DRIVE_EVENTS, 0), n);
    *st = *memctrl_get_stats(r.mc);
    rig_free(&r);
}

static void play(bool per_bank, const script_req *s, unsigned n, uint64_t *done,
                 memctrl_stats *st)
{
    play_trfc(per_bank, 50, s, n, done, st);
}

/* Refresh 1 (due 100) closes bank 0 only, [100, 150). A (bank 0) at 105
 * waits: ACT 150, done 176. B (bank 1, its refresh due 200) at 105 goes at
 * once: ACT 105, done 131. All-bank refresh is first due at 800, so there
 * A goes first: ACT 105, done 131; B after tRRD: ACT 111, done 137. */
Test(dram_refresh_pb, closes_only_its_bank)
{
    script_req s[] = {{.at = 105, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 105, .bank = 1, .row = 1, .bytes = 64}};
    uint64_t done[2];
    memctrl_stats st;
    play(true, s, 2, done, &st);
    cr_assert_eq(done[0], 176);
    cr_assert_eq(done[1], 131);
    cr_assert_eq(st.refreshes, 1);
    play(false, s, 2, done, &st);
    cr_assert_eq(done[0], 131);
    cr_assert_eq(done[1], 137);
    cr_assert_eq(st.refreshes, 0);
}

/* The refreshed bank waits to close; the others do not wait for it. A
 * (bank 0) at 95: ACT 95. Refresh 1 (due 100, bank 0) closes the row before
 * A's RD (PRE as soon as tRAS allows, 123, a started request activating
 * again afterwards, as an all-bank refresh does), REF at 135 (tRC after the
 * ACT), bank 0 closed to 185: A's ACT 185, RD 197, done 211; C (bank 0,
 * same row) at 105 hits: RD 199, done 213. B (bank 1) at 105 goes at once:
 * ACT 105 (tRRD after 95 met), RD 117, done 131 (were the command bus held
 * to the REF, as an all-bank refresh holds it: ACT 136, done 162). Two
 * precharges: bank 0's by refresh 1, bank 1's by refresh 2 (due 200). */
Test(dram_refresh_pb, other_banks_do_not_wait_for_the_refreshed_one)
{
    script_req s[] = {{.at = 95, .bank = 0, .row = 1, .bytes = 64},
                      {.at = 105, .bank = 1, .row = 1, .bytes = 64},
                      {.at = 105, .bank = 0, .row = 1, .col = 64, .bytes = 64}};
    uint64_t done[3];
    memctrl_stats st;
    play(true, s, 3, done, &st);
    cr_assert_eq(done[0], 211);
    cr_assert_eq(done[1], 131);
    cr_assert_eq(done[2], 213);
    cr_assert_eq(st.activations, 3);
    cr_assert_eq(st.precharges, 2);
}

/* After a long idle spell each bank must still carry its own last refresh,
 * also one that overlaps later ones: tRFCpb = 150 here, longer than the
 * 100 cycles between refreshes. Refresh 98 (due 9800) is bank 97 mod 8 =
 * 1's, [9800, 9950); 99 bank 2's, [9900, 10050); 100 bank 3's, [10000,
 * 10150). A (bank 1) at 9920, the controller idle since 0: ACT 9950, done
 * 9976 (were only the last refresh due, 99, applied: 9946). C (bank 2) at
 * 10005: ACT 10050, done 10076. B (bank 3) at 10005: ACT 10150, done 10176.
 * 101 refreshes in all (due 100, 200, ..., 10100). */
Test(dram_refresh_pb, idle_spell_keeps_each_banks_last_refresh)
{
    script_req s[] = {{.at = 9920, .bank = 1, .row = 1, .bytes = 64},
                      {.at = 10005, .bank = 3, .row = 1, .bytes = 64},
                      {.at = 10005, .bank = 2, .row = 1, .bytes = 64}};
    uint64_t done[3];
    memctrl_stats st;
    play_trfc(true, 150, s, 3, done, &st);
    cr_assert_eq(done[0], 9976);
    cr_assert_eq(done[1], 10176);
    cr_assert_eq(done[2], 10076);
    cr_assert_eq(st.refreshes, 101);
}

/* An open row is closed by its bank's refresh only. A (bank 4, row 1) at 0:
 * ACT 0, done 26, row left open. B (bank 4, row 1) at 450 would hit, but
 * refresh 5 (due 500) is bank 4's: B at 520 finds the row closed: PRE at
 * 500 (tRAS met), REF at 510 (tRP), bank closed to 560: ACT 560, done 586,
 * a miss. C (bank 5, row 1), opened at 0 with A (ACT 6 after tRRD), hits at
 * 520: RD 520, done 534. */
Test(dram_refresh_pb, refresh_closes_only_its_banks_row)
{
    script_req s[] = {{.at = 0, .bank = 4, .row = 1, .bytes = 64},
                      {.at = 0, .bank = 5, .row = 1, .bytes = 64},
                      {.at = 520, .bank = 4, .row = 1, .col = 64, .bytes = 64},
                      {.at = 520, .bank = 5, .row = 1, .col = 64, .bytes = 64}};
    uint64_t done[4];
    memctrl_stats st;
    play(true, s, 4, done, &st);
    cr_assert_eq(done[2], 586);
    cr_assert_eq(done[3], 534);
    cr_assert_eq(st.row_hits, 1);
    cr_assert_eq(st.precharges, 1);
}

/* The simple timing model: refresh 1 (due 100) holds bank 0 to 150, so a
 * request there at 105 starts at 150 on a closed bank: 150 + C (300) = 450;
 * bank 1's at 105: 105 + 300 = 405, after bus time. */
Test(dram_refresh_pb, simple_timing_delays_only_its_bank)
{
    dram_params p;
    simple_params(&p);
    p.refresh = true;
    p.refresh_per_bank = true;
    p.tREFI = 800;
    p.tRFCpb = 50;
    dram_rig r;
    rig_init(&r, &p);
    script_req s[] = {{.at = 105, .bank = 0, .row = 1, .bytes = 128},
                      {.at = 105, .bank = 1, .row = 1, .bytes = 128}};
    uint64_t done[2];
    cr_assert_eq(rig_play(&r, s, 2, done, NULL, DRIVE_EVENTS, 0), 2);
    cr_assert_eq(done[0], 450);
    cr_assert_eq(done[1], 405);
    rig_free(&r);
}
