/* Cross-lane instructions and memory: ballot, vote, shfl, bcast, loads and
 * stores of every size, shared memory, atomics, and the database-search
 * instructions COND_ACC and TREE_TRAVERSE (Narasiman's dissertation,
 * sections 7.1 and 7.2.1) on hand-made inputs. */
#include "isa_test_util.h"

/* Sets p0 on the lanes of `mask`. */
static void set_p0(test_cta *t, unsigned n, uint32_t mask)
{
    for (unsigned l = 0; l < n; l++) t->lanes[l]->preds = (uint8_t)((mask >> l) & 1);
}

Test(isa_warp, ballot_and_vote)
{
    test_cta t;
    cta_setup(&t, "  ballot r1, p0\n  ballot r2, !p0\n  vote.any p1, p0\n  vote.all p2, p0\n"
                  "  vote.uni p3, p0\n  exit\n", 32);
    set_p0(&t, 32, 0x55555555); /* even lanes */
    isa_exec_out o;
    uint32_t active = 0x0000ffff;
    for (uint32_t pc = 0; pc < 5; pc++) cta_exec(&t, pc, active, &o);
    /* only the 16 active lanes vote: even ones among 0..15 = 0x5555 */
    cr_expect_eq(t.lanes[3]->r[1], 0x5555);
    cr_expect_eq(t.lanes[3]->r[2], 0xaaaa, "!p0 among active lanes");
    cr_expect_eq(t.lanes[20]->r[1], 0, "inactive lanes are not written");
    cr_expect_eq((t.lanes[0]->preds >> 1) & 7, 1, "any = 1, all = 0, uni = 0");
    set_p0(&t, 32, 0xffffffff);
    for (uint32_t pc = 2; pc < 5; pc++) cta_exec(&t, pc, active, &o);
    cr_expect_eq((t.lanes[0]->preds >> 1) & 7, 7, "all true: any, all, uni");
    set_p0(&t, 32, 0xffff0000); /* true only on inactive lanes */
    for (uint32_t pc = 2; pc < 5; pc++) cta_exec(&t, pc, active, &o);
    cr_expect_eq((t.lanes[0]->preds >> 1) & 7, 4, "none among the active: uni only");
    cta_free(&t);
}

Test(isa_warp, shuffles)
{
    test_cta t;
    cta_setup(&t, "  shfl.idx r2, r1, 5\n  shfl.up r3, r1, 2\n  shfl.down r4, r1, 3\n"
                  "  shfl.bfly r5, r1, 1\n  bcast r6, r1, 7\n  shfl.idx.u32 r7, r1, r8\n  exit\n", 8);
    for (unsigned l = 0; l < 8; l++) t.lanes[l]->r[1] = 100 + l, t.lanes[l]->r[8] = 7 - l;
    isa_exec_out o;
    uint32_t active = 0x7f; /* lanes 0..6; lane 7 inactive */
    for (uint32_t pc = 0; pc < 6; pc++) cta_exec(&t, pc, active, &o);
    cr_expect_eq(t.lanes[0]->r[2], 105, "idx 5: lane 5's value");
    cr_expect_eq(t.lanes[4]->r[3], 102, "up 2: lane 4 reads lane 2");
    cr_expect_eq(t.lanes[1]->r[3], 101, "up past lane 0: own value");
    cr_expect_eq(t.lanes[2]->r[4], 105, "down 3: lane 2 reads lane 5");
    cr_expect_eq(t.lanes[4]->r[4], 104, "down to inactive lane 7: own value");
    cr_expect_eq(t.lanes[6]->r[5], 106, "bfly 1: lane 6 <-> inactive lane 7: own value");
    cr_expect_eq(t.lanes[2]->r[5], 103, "bfly 1: lane 2 reads lane 3");
    cr_expect_eq(t.lanes[3]->r[6], 103, "bcast from inactive lane 7: own value");
    cr_expect_eq(t.lanes[5]->r[7], 102, "per-lane source 7 - 5 = 2");
    cta_free(&t);

    /* a shuffle whose destination is also its source reads before it writes */
    cta_setup(&t, "  shfl.bfly r1, r1, 1\n  exit\n", 2);
    t.lanes[0]->r[1] = 10, t.lanes[1]->r[1] = 20;
    cta_exec(&t, 0, 0x3, &o);
    cr_expect_eq(t.lanes[0]->r[1], 20);
    cr_expect_eq(t.lanes[1]->r[1], 10);
    cta_free(&t);
}

Test(isa_warp, loads_and_stores_of_every_size)
{
    test_cta t;
    cta_setup(&t, ".data a s8[16] = iota(start=-3, step=1)\n"   /* -3, -2, ... */
                  ".data f f32[8] = iota(start=0.5, step=1)\n"  /* 0.5, 1.5, ... */
                  ".data w u64[8]\n"
                  "  ld.global.s8 r1, [@a]\n"                     /* 0 */
                  "  ld.global.u8 r2, [@a]\n"                     /* 1 */
                  "  ld.global.u16 r3, [@a+4]\n"                  /* 2 */
                  "  ld.global.v4.f32 {r4, r5, r6, r7}, [r10+@f]\n" /* 3 */
                  "  st.global.u16 [@w+2], r3\n"                  /* 4 */
                  "  st.global.v2.u64 [@w+16], {r1, r2}\n"        /* 5 */
                  "  ld.global.u64 r8, [@w]\n"                    /* 6 */
                  "  st.global.f32 [@w+40], 2.5\n"                /* 7 */
                  "  exit\n", 1);
    isa_exec_out o;
    t.lanes[0]->r[10] = 4; /* from element 1 */
    for (uint32_t pc = 0; pc < 8; pc++) {
        cta_exec(&t, pc, 1, &o);
        if (pc == 3) {
            cr_expect_eq(o.addr[0], 0x10001004);
            cr_expect_eq(o.access_size, 16);
            cr_expect_eq(o.mem_lanes, 1);
        }
    }
    isa_thread *l0 = t.lanes[0];
    cr_expect_eq(l0->r[1], (uint64_t)-3, "s8 sign-extends");
    cr_expect_eq(l0->r[2], 0xfd, "u8 zero-extends");
    cr_expect_eq(l0->r[3], 0x0201, "bytes 1, 2 (-3+4, -3+5), little endian");
    cr_expect_float_eq(as_f32(l0->r[4]), 1.5f, 0);
    cr_expect_float_eq(as_f32(l0->r[7]), 4.5f, 0);
    cr_expect_eq(l0->r[8], 0x02010000ull, "u16 stored at byte 2");
    cr_expect_eq(memimg_read(t.mem, 0x10002010, 8), (uint64_t)-3);
    cr_expect_eq(memimg_read(t.mem, 0x10002018, 8), 0xfd);
    cr_expect_eq(memimg_read(t.mem, 0x10002028, 4), 0x40200000, "2.5f");
    cta_free(&t);
}

Test(isa_warp, shared_memory_and_faults)
{
    test_cta t;
    cta_setup(&t, ".shared s u32[8]\n"
                  "  st.shared.u32 [r1+@s], r2\n"   /* 0 */
                  "  ld.shared.u32 r3, [r4]\n"      /* 1 */
                  "  ld.shared.v2.u32 {r5, r6}, [28]\n" /* 2: 28 + 8 > 32 */
                  "  exit\n", 4);
    for (unsigned l = 0; l < 4; l++) {
        t.lanes[l]->r[1] = 4 * l, t.lanes[l]->r[2] = 10 + l;
        t.lanes[l]->r[4] = 4 * (3 - l); /* read in reverse */
    }
    isa_exec_out o;
    cta_exec(&t, 0, 0xf, &o);
    cr_expect_eq(o.addr[2], 8, "shared addresses are offsets");
    cr_expect_eq(o.fault, 0);
    cta_exec(&t, 1, 0xf, &o);
    cr_expect_eq(t.lanes[0]->r[3], 13);
    cr_expect_eq(t.lanes[3]->r[3], 10);
    t.lanes[1]->r[4] = 32; /* one past the end */
    t.lanes[1]->r[3] = 99;
    cta_exec(&t, 1, 0xf, &o);
    cr_expect_eq(o.fault, 0x2);
    cr_expect_eq(t.lanes[1]->r[3], 0, "a faulting load reads 0");
    cta_exec(&t, 2, 0x1, &o);
    cr_expect_eq(o.fault, 0x1, "a vector access must fit entirely");
    cta_free(&t);
}

Test(isa_warp, atomics)
{
    test_cta t;
    cta_setup(&t, ".data c u32[4]\n.data f f32[1]\n.shared s u64[1]\n"
                  "  atom.global.add.u32 r1, [@c], 1\n"       /* 0 */
                  "  atom.global.max.s32 r2, [@c+4], r10\n"   /* 1 */
                  "  atom.global.min.u32 r3, [@c+8], r10\n"   /* 2 */
                  "  atom.global.exch.u32 r4, [@c+12], r10\n" /* 3 */
                  "  atom.global.cas.u32 r5, [@c+12], 2, 100\n" /* 4 */
                  "  atom.global.add.f32 r6, [@f], 0.5\n"     /* 5 */
                  "  atom.shared.or.u64 r7, [@s], r11\n"      /* 6 */
                  "  exit\n", 4);
    for (unsigned l = 0; l < 4; l++) {
        t.lanes[l]->r[10] = (uint64_t)(int64_t)((int)l - 2); /* -2, -1, 0, 1 */
        t.lanes[l]->r[11] = UINT64_C(1) << (8 * l);
    }
    isa_exec_out o;
    for (uint32_t pc = 0; pc < 7; pc++) cta_exec(&t, pc, 0xf, &o);
    /* lanes apply in order: add sees 0, 1, 2, 3 and leaves 4 */
    for (unsigned l = 0; l < 4; l++) cr_expect_eq(t.lanes[l]->r[1], l);
    cr_expect_eq(memimg_read(t.mem, 0x10000000, 4), 4);
    /* max.s32 from 0: -2 and -1 lose to 0, then 0, then 1 wins */
    cr_expect_eq(memimg_read(t.mem, 0x10000004, 4), 1);
    cr_expect_eq(t.lanes[3]->r[2], 0, "old value before lane 3's max");
    /* min.u32 from 0 stays 0 (0xfffffffe, 0xffffffff, 0, 1 are not below 0) */
    cr_expect_eq(memimg_read(t.mem, 0x10000008, 4), 0);
    /* exch: each lane gets the previous lane's value; last writer is lane 3 (1) */
    cr_expect_eq(t.lanes[1]->r[4], 0xfffffffe);
    cr_expect_eq(memimg_read(t.mem, 0x1000000c, 4), 1);
    /* cas(2 -> 100): memory holds 1, so nothing changes; every lane reads 1 */
    cr_expect_eq(t.lanes[0]->r[5], 1);
    cr_expect_eq(memimg_read(t.mem, 0x1000000c, 4), 1);
    /* f32: 0 + 4 * 0.5 = 2.0; lane 2 saw 1.0 */
    cr_expect_float_eq(as_f32(memimg_read(t.mem, 0x10001000, 4)), 2.0f, 0);
    cr_expect_float_eq(as_f32(t.lanes[2]->r[6]), 1.0f, 0);
    /* or of 1, 1<<8, 1<<16, 1<<24 in shared memory; lane 3 saw the first three */
    cr_expect_eq(t.lanes[3]->r[7], 0x010101);
    cr_expect_eq(o.mem_lanes, 0xf);
    cta_free(&t);
}

Test(isa_warp, cond_acc_global)
{
    test_cta t;
    cta_setup(&t, ".data out u32[16]\n"
                  "  cond_acc.global.u32 r1, r2, p0, r3\n"
                  "  exit\n", 8);
    /* preds 1,0,1,1,0,0,1,0 (lanes 0..7), data 10..17, base @out:
     * exclusive prefix sums of the preds: lane 0 -> 0, 2 -> 1, 3 -> 2, 6 -> 3 */
    set_p0(&t, 8, 0x4d);
    for (unsigned l = 0; l < 8; l++) t.lanes[l]->r[2] = 0x10000000, t.lanes[l]->r[3] = 10 + l;
    isa_exec_out o;
    cta_exec(&t, 0, 0xff, &o);
    cr_expect_eq(memimg_read(t.mem, 0x10000000, 4), 10);
    cr_expect_eq(memimg_read(t.mem, 0x10000004, 4), 12);
    cr_expect_eq(memimg_read(t.mem, 0x10000008, 4), 13);
    cr_expect_eq(memimg_read(t.mem, 0x1000000c, 4), 16);
    cr_expect_eq(memimg_read(t.mem, 0x10000010, 4), 0, "nothing past the 4 writes");
    for (unsigned l = 0; l < 8; l++) cr_expect_eq(t.lanes[l]->r[1], 4, "every lane gets the count");
    cr_expect_eq(o.mem_lanes, 0x4d, "only the writers access memory");
    cr_expect_eq(o.addr[3], 0x10000008);
    cr_expect_eq(o.addr[6], 0x1000000c);
    cr_expect_eq(o.access_size, 4);
    /* inactive lanes neither count nor write: drop lanes 0 and 2 */
    cta_exec(&t, 0, 0xfa, &o);
    cr_expect_eq(t.lanes[1]->r[1], 2, "lanes 3 and 6");
    cr_expect_eq(memimg_read(t.mem, 0x10000000, 4), 13);
    cr_expect_eq(memimg_read(t.mem, 0x10000004, 4), 16);
    cta_free(&t);
}

Test(isa_warp, cond_acc_shared_u16_and_none)
{
    test_cta t;
    cta_setup(&t, ".shared buf u16[32]\n"
                  "  cond_acc.shared.u16 r1, @buf+2, !p0, r3\n"
                  "  exit\n", 4);
    set_p0(&t, 4, 0x5); /* !p0 holds on lanes 1 and 3 */
    for (unsigned l = 0; l < 4; l++) t.lanes[l]->r[3] = 0xabc0 + l;
    isa_exec_out o;
    cta_exec(&t, 0, 0xf, &o);
    /* lane 1 -> offset 2 + 0*2, lane 3 -> 2 + 1*2 */
    cr_expect_eq(t.cta->shared[2] | t.cta->shared[3] << 8, 0xabc1);
    cr_expect_eq(t.cta->shared[4] | t.cta->shared[5] << 8, 0xabc3);
    cr_expect_eq(o.addr[3], 4);
    cr_expect_eq(t.lanes[0]->r[1], 2);
    set_p0(&t, 4, 0xf);
    cta_exec(&t, 0, 0xf, &o);
    cr_expect_eq(t.lanes[0]->r[1], 0, "no lane writes: count 0");
    cr_expect_eq(o.mem_lanes, 0);
    cta_free(&t);
}

/* Element sizes 1 and 8 (u32 and u16 above): offsets shift by log2(size)
 * ([D] section 7.1: 0, 1, 2 or 3 bits). preds on lanes 1, 2, 5 of 6. */
Test(isa_warp, cond_acc_u8_and_u64)
{
    test_cta t;
    cta_setup(&t, ".data b u8[16]\n.data q u64[8]\n"
                  "  cond_acc.global.u8 r1, @b, p0, r3\n"
                  "  cond_acc.global.u64 r2, @q, p0, r4\n"
                  "  exit\n", 6);
    set_p0(&t, 6, 0x26);
    for (unsigned l = 0; l < 6; l++)
        t.lanes[l]->r[3] = 0x1a0 + l, t.lanes[l]->r[4] = 0x1122334455667700ull + l;
    isa_exec_out o;
    cta_exec(&t, 0, 0x3f, &o);
    /* u8: lane 1 -> @b+0, lane 2 -> @b+1, lane 5 -> @b+2; only the low byte */
    uint64_t b = o.addr[1];
    cr_expect_eq(o.addr[2], b + 1);
    cr_expect_eq(o.addr[5], b + 2);
    cr_expect_eq(o.access_size, 1);
    cr_expect_eq(memimg_read(t.mem, b, 1), 0xa1);
    cr_expect_eq(memimg_read(t.mem, b + 1, 1), 0xa2);
    cr_expect_eq(memimg_read(t.mem, b + 2, 1), 0xa5);
    cr_expect_eq(memimg_read(t.mem, b + 3, 1), 0, "three elements only");
    cr_expect_eq(t.lanes[0]->r[1], 3);
    cta_exec(&t, 1, 0x3f, &o);
    /* u64: offsets 0, 8, 16 */
    uint64_t q = o.addr[1];
    cr_expect_eq(o.addr[2], q + 8);
    cr_expect_eq(o.addr[5], q + 16);
    cr_expect_eq(o.access_size, 8);
    cr_expect_eq(memimg_read(t.mem, q, 8), 0x1122334455667701ull);
    cr_expect_eq(memimg_read(t.mem, q + 8, 8), 0x1122334455667702ull);
    cr_expect_eq(memimg_read(t.mem, q + 16, 8), 0x1122334455667705ull);
    cr_expect_eq(memimg_read(t.mem, q + 24, 8), 0);
    cr_expect_eq(t.lanes[4]->r[2], 3);
    cta_free(&t);
}

Test(isa_warp, tree_traverse)
{
    test_cta t;
    cta_setup(&t, "  tree_traverse r1, r2, p0, 4\n"
                  "  tree_traverse r3, 100, p0, r4\n"
                  "  exit\n", 8);
    /* key > node value on 3 of the 8 lanes; base 100, node size 4:
     * 100 + (3 << log2 4) = 112 */
    set_p0(&t, 8, 0x07);
    for (unsigned l = 0; l < 8; l++) t.lanes[l]->r[2] = 100, t.lanes[l]->r[4] = 32;
    isa_exec_out o;
    cta_exec(&t, 0, 0xff, &o);
    for (unsigned l = 0; l < 8; l++) cr_expect_eq(t.lanes[l]->r[1], 112);
    cr_expect_eq(o.mem_lanes, 0, "writes no memory");
    cta_exec(&t, 1, 0xfe, &o); /* lane 0 inactive: 2 preds, 100 + (2 << 5) = 164 */
    cr_expect_eq(t.lanes[1]->r[3], 164);
    cr_expect_eq(t.lanes[0]->r[3], 0);
    cta_free(&t);
}

/* The baseline conditional-output sequence of Narasiman's dissertation
 * (section 6.2.2) and COND_ACC write the same elements to the same places. */
Test(isa_warp, cond_acc_matches_ballot_sequence)
{
    const char *k = ".data v u32[32] = rand_int(lo=0, hi=9, seed=5)\n"
                    ".data o1 u32[32]\n.data o2 u32[32]\n"
                    "  mov r0, %laneid\n"
                    "  shl r1, r0, 2\n"
                    "  ld.global.u32 r2, [r1+@v]\n"
                    "  setp.lt.u32 p0, r2, 5\n"
                    "  cond_acc.global.u32 r9, @o2, p0, r2\n"
                    "  ballot r3, p0\n"             /* bits = ballot(pred) */
                    "  popc r4, r3\n"               /* total */
                    "  @!p0 bra skip\n"             /* if (pred) { */
                    "  mov r5, %lanemask_lt\n"
                    "  and r3, r3, r5\n"            /*   bits &= lane_mask */
                    "  popc r6, r3\n"               /*   idx = popc(bits) */
                    "  shl r6, r6, 2\n"
                    "  st.global.u32 [r6+@o1], r2\n" /*  out[idx] = data } */
                    "skip:\n"
                    "  exit\n";
    test_run r;
    run_1d(&r, load_ok(k), 1, 32, NULL, 0);
    unsigned n = 0;
    for (unsigned i = 0; i < 32; i++) n += rd_u32(&r, "v", i) < 5;
    cr_expect(n > 0 && n < 32);
    for (unsigned i = 0; i < 32; i++) cr_expect_eq(rd_u32(&r, "o1", i), rd_u32(&r, "o2", i), "slot %u", i);
    run_free(&r);
}
