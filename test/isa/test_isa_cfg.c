/* Control-flow graph and immediate post-dominators on the textbook shapes,
 * the worked examples of Fung's DWF thesis (Fig 3.1), the LWM paper
 * (Narasiman et al., MICRO 2011, [P] Fig 3) and the DWS report (Meng et al.,
 * Fig 3), several exits and endless loops; plus the reference runner's
 * PDOM-stack execution of the same shapes (issue counts worked out by hand). */
#include "isa_test_util.h"

/* pc numbers are given in each kernel's comments. */
static const char *if_else =
    "    mov r0, %tid.x\n"            /* 0 */
    "    setp.eq.u32 p0, r0, 0\n"      /* 1 */
    "    @p0 bra then\n"               /* 2 */
    "    add r1, r0, 2\n"              /* 3 else */
    "    bra join\n"                   /* 4 */
    "then:\n"
    "    add r1, r0, 1\n"              /* 5 */
    "join:\n"
    "    exit\n";                      /* 6 */

Test(isa_cfg, if_else_blocks_and_ipdom)
{
    isa_program *p = load_ok(if_else);
    /* leaders: 0, 3 (after the branch), 5 (target), 6 (target, after bra) */
    cr_assert_eq(isa_program_nblocks(p), 4);
    const isa_block *b0 = isa_program_block(p, 0);
    cr_expect_eq(b0->start, 0);
    cr_expect_eq(b0->end, 3);
    cr_expect_eq(b0->nsucc, 2);
    cr_expect_eq(b0->succ[0], 2, "taken successor first: the `then` block");
    cr_expect_eq(b0->succ[1], 1, "then the fall-through block");
    cr_expect_eq(b0->ipdom, 3);
    cr_expect_eq(isa_program_block(p, 3)->succ[0], ISA_PC_EXIT);
    cr_expect_eq(isa_ipdom(p, 2), 6, "the if/else reconverges at join");
    cr_expect_eq(isa_program_inst(p, 2)->reconv, 6);
    cr_expect_eq(isa_program_inst(p, 2)->target, 5);
    cr_expect_eq(isa_ipdom(p, 4), 6, "an unconditional bra: its target");
    cr_expect_eq(isa_ipdom(p, 1), 2, "an ordinary instruction: the next pc");
    cr_expect_eq(isa_ipdom(p, 6), ISA_PC_EXIT);
    cr_expect_eq(isa_program_inst(p, 3)->block, 1);
    isa_program_free(p);
}

Test(isa_cfg, if_without_else)
{
    isa_program *p = load_ok("    setp.eq.u32 p0, r0, 0\n" /* 0 */
                             "    @p0 bra skip\n"          /* 1 */
                             "    add r1, r1, 1\n"         /* 2 */
                             "skip:\n"
                             "    exit\n");                /* 3 */
    cr_expect_eq(isa_ipdom(p, 1), 3);
    isa_program_free(p);
}

Test(isa_cfg, nested_if)
{
    isa_program *p = load_ok("    setp.eq.u32 p0, r0, 0\n" /* 0 */
                             "    @p0 bra else1\n"         /* 1 */
                             "    setp.eq.u32 p1, r0, 1\n" /* 2 */
                             "    @p1 bra inner_else\n"    /* 3 */
                             "    add r1, r1, 1\n"         /* 4 */
                             "    bra inner_join\n"        /* 5 */
                             "inner_else:\n"
                             "    sub r1, r1, 1\n"         /* 6 */
                             "inner_join:\n"
                             "    mul r1, r1, 3\n"         /* 7 */
                             "    bra join1\n"             /* 8 */
                             "else1:\n"
                             "    or r1, r1, 8\n"          /* 9 */
                             "join1:\n"
                             "    exit\n");                /* 10 */
    cr_expect_eq(isa_ipdom(p, 1), 10, "outer if/else meets at join1");
    cr_expect_eq(isa_ipdom(p, 3), 7, "inner if/else meets at inner_join");
    isa_program_free(p);
}

static const char *loop_break_continue =
    "    mov r0, %tid.x\n"              /* 0 */
    "    add r2, r0, 1\n"               /* 1: lim = tid + 1 */
    "    mov r0, 0\n"                   /* 2: i */
    "    mov r1, 0\n"                   /* 3: acc */
    "loop:\n"
    "    add r0, r0, 1\n"               /* 4 */
    "    setp.eq.u32 p0, r0, 3\n"       /* 5 */
    "    @p0 bra cont\n"                /* 6: continue when i == 3 */
    "    setp.eq.u32 p1, r0, r2\n"      /* 7 */
    "    @p1 bra done\n"                /* 8: break when i == lim */
    "    add r1, r1, r0\n"              /* 9 */
    "cont:\n"
    "    setp.lt.u32 p2, r0, 10\n"      /* 10 */
    "    @p2 bra loop\n"                /* 11 */
    "done:\n"
    "    mov r3, %tid.x\n"              /* 12 */
    "    shl r3, r3, 2\n"               /* 13 */
    "    st.global.u32 [r3+@out], r1\n" /* 14 */
    "    exit\n"                        /* 15 */
    ".data out u32[32]\n";

Test(isa_cfg, loop_with_break_and_continue)
{
    isa_program *p = load_ok(loop_break_continue);
    /* The continue's fall-through path can leave by the break (pc 8 -> 12)
     * without passing the latch, so only the loop exit post-dominates it. */
    cr_expect_eq(isa_ipdom(p, 6), 12, "continue with a break after it: the loop exit");
    cr_expect_eq(isa_ipdom(p, 8), 12, "break: only the loop exit post-dominates");
    cr_expect_eq(isa_ipdom(p, 11), 12, "back edge: the loop exit");
    isa_program_free(p);
}

Test(isa_cfg, loop_with_continue_only)
{
    isa_program *p = load_ok("loop:\n"
                             "    add r0, r0, 1\n"          /* 0 */
                             "    setp.eq.u32 p0, r0, 3\n"  /* 1 */
                             "    @p0 bra cont\n"           /* 2 */
                             "    add r1, r1, r0\n"         /* 3 */
                             "cont:\n"
                             "    setp.lt.u32 p1, r0, 10\n" /* 4 */
                             "    @p1 bra loop\n"           /* 5 */
                             "    exit\n");                 /* 6 */
    cr_expect_eq(isa_ipdom(p, 2), 4, "without a break, continue rejoins at the latch");
    cr_expect_eq(isa_ipdom(p, 5), 6);
    isa_program_free(p);
}

Test(isa_cfg, loop_with_break_and_continue_runs)
{
    test_run r;
    run_1d(&r, load_ok(loop_break_continue), 1, 16, NULL, 0);
    /* acc = sum of i in 1..min(lim-1, 10), i != 3, with lim = tid + 1:
     * tid 0 -> 0; 1 -> 1; 3 -> 1+2 = 3 (3 skipped); 4 -> 1+2+4 = 7;
     * 9 -> 45-3 = 42; tid >= 10 -> 55-3 = 52. tid 2 (lim 3) never breaks:
     * at i == 3 the continue jumps over the break test, so it also gets 52. */
    const uint32_t want[16] = {0, 1, 52, 3, 7, 12, 18, 25, 33, 42, 52, 52, 52, 52, 52, 52};
    for (unsigned t = 0; t < 16; t++) cr_expect_eq(rd_u32(&r, "out", t), want[t], "tid %u", t);
    run_free(&r);
}

/* DWF Fig 3.1: A -> B (taken, threads 0..2) / F (thread 3); B -> C (taken,
 * thread 0) / D (threads 1, 2); C, D -> E; E, F -> G. */
static const char *dwf_fig31 =
    "A:  mov r0, %tid.x\n"             /* 0 */
    "    setp.ne.u32 p0, r0, 3\n"      /* 1 */
    "    @p0 bra B\n"                  /* 2 */
    "F:  add r1, r1, 100\n"            /* 3 */
    "    bra G\n"                      /* 4 */
    "B:  setp.eq.u32 p1, r0, 0\n"      /* 5 */
    "    @p1 bra C\n"                  /* 6 */
    "D:  add r1, r1, 20\n"             /* 7 */
    "    bra E\n"                      /* 8 */
    "C:  add r1, r1, 10\n"             /* 9 */
    "E:  add r1, r1, 1\n"              /* 10 */
    "    bra G\n"                      /* 11 */
    "G:  shl r2, r0, 2\n"              /* 12 */
    "    st.global.u32 [r2+@out], r1\n"/* 13 */
    "    exit\n"                       /* 14 */
    ".data out u32[4]\n";

Test(isa_cfg, dwf_fig_3_1)
{
    isa_program *p = load_ok(dwf_fig31);
    cr_expect_eq(isa_ipdom(p, 2), 12, "A's branch reconverges at G");
    cr_expect_eq(isa_ipdom(p, 6), 10, "B's branch reconverges at E");
    isa_program_free(p);

    /* Stack walk of Fung's thesis, section 3.2: A (1111, 3 issues) -> push
     * [G], [F,0001], [B,1110]; B (2) -> [E,1110], push [D,0110], [C,1000]; C:
     * add (1) then E == rpc, pop; D: add, bra (2), pop; E: add, bra (2)
     * reaches G, pop; F: add, bra (2), pop; G (1111): shl, st, exit (3). 15
     * issues. */
    test_run r;
    run_1d(&r, load_ok(dwf_fig31), 1, 4, NULL, 0);
    cr_expect_eq(r.st.warp_insts, 15);
    cr_expect_eq(rd_u32(&r, "out", 0), 11, "C then E");
    cr_expect_eq(rd_u32(&r, "out", 1), 21, "D then E");
    cr_expect_eq(rd_u32(&r, "out", 2), 21);
    cr_expect_eq(rd_u32(&r, "out", 3), 100, "F only");
    run_free(&r);
}

/* LWM [P] Fig 3 (also DWS Fig 3): A (1111) sends 1011 to B (taken) and 0100
 * to C; both meet at D. Thread 2 is the one that goes to C. */
static const char *lwm_fig3 =
    "A:  mov r0, %tid.x\n"              /* 0 */
    "    setp.ne.u32 p0, r0, 2\n"       /* 1 */
    "    @p0 bra B\n"                   /* 2 */
    "C:  add r1, r1, 7\n"               /* 3 */
    "    bra D\n"                       /* 4 */
    "B:  add r1, r1, 5\n"               /* 5 */
    "D:  shl r2, r0, 2\n"               /* 6 */
    "    st.global.u32 [r2+@out], r1\n" /* 7 */
    "    exit\n"                        /* 8 */
    ".data out u32[4]\n";

Test(isa_cfg, lwm_fig_3)
{
    isa_program *p = load_ok(lwm_fig3);
    cr_expect_eq(isa_ipdom(p, 2), 6, "CFM of A's branch is D");
    isa_program_free(p);
    /* After A: B runs with 1011 (1 issue), reaches D = rpc, pops; C runs with
     * 0100 (add, bra: 2), pops; D with 1111 (3). 3 + 1 + 2 + 3 = 9 issues. */
    test_run r;
    run_1d(&r, load_ok(lwm_fig3), 1, 4, NULL, 0);
    cr_expect_eq(r.st.warp_insts, 9);
    cr_expect_eq(rd_u32(&r, "out", 0), 5);
    cr_expect_eq(rd_u32(&r, "out", 2), 7);
    cr_expect_eq(rd_u32(&r, "out", 3), 5);
    run_free(&r);
}

Test(isa_cfg, several_exits_meet_at_the_virtual_exit)
{
    const char *k = "    mov r0, %tid.x\n"              /* 0 */
                    "    setp.lt.u32 p0, r0, 2\n"       /* 1 */
                    "    @p0 bra other\n"               /* 2 */
                    "    shl r1, r0, 2\n"               /* 3 */
                    "    st.global.u32 [r1+@out], 9\n"  /* 4 */
                    "    exit\n"                        /* 5 */
                    "other:\n"
                    "    shl r1, r0, 2\n"               /* 6 */
                    "    st.global.u32 [r1+@out], 4\n"  /* 7 */
                    "    exit\n"                        /* 8 */
                    ".data out u32[4]\n";
    isa_program *p = load_ok(k);
    cr_expect_eq(isa_ipdom(p, 2), ISA_PC_EXIT);
    cr_expect_eq(isa_program_block(p, 0)->ipdom, ISA_PC_EXIT);
    isa_program_free(p);
    test_run r;
    run_1d(&r, load_ok(k), 1, 4, NULL, 0);
    cr_expect_eq(rd_u32(&r, "out", 0), 4);
    cr_expect_eq(rd_u32(&r, "out", 1), 4);
    cr_expect_eq(rd_u32(&r, "out", 2), 9);
    cr_expect_eq(rd_u32(&r, "out", 3), 9);
    /* 3 + taken path (3) + fall-through path (3) = 9 issues */
    cr_expect_eq(r.st.warp_insts, 9);
    run_free(&r);
}

Test(isa_cfg, predicated_exit)
{
    isa_program *p = load_ok("    setp.eq.u32 p0, r0, 0\n" /* 0 */
                             "    @p0 exit\n"              /* 1 */
                             "    add r1, r1, 1\n"         /* 2 */
                             "    exit\n");                /* 3 */
    const isa_block *b0 = isa_program_block(p, 0);
    cr_expect_eq(b0->nsucc, 2);
    cr_expect_eq(b0->succ[0], ISA_PC_EXIT);
    cr_expect_eq(b0->succ[1], 1);
    cr_expect_eq(isa_ipdom(p, 1), ISA_PC_EXIT);
    isa_program_free(p);
}

Test(isa_cfg, endless_loop)
{
    const char *k = "    mov r0, %tid.x\n"        /* 0 */
                    "    setp.eq.u32 p0, r0, 0\n" /* 1 */
                    "    @p0 bra spin\n"          /* 2 */
                    "    exit\n"                  /* 3 */
                    "spin:\n"
                    "    bra spin\n";             /* 4 */
    isa_program *p = load_ok(k);
    /* Only paths that reach the exit count: pc 3 post-dominates the branch;
     * the spinning block never reaches the exit, so its IPDOM is the exit. */
    cr_expect_eq(isa_ipdom(p, 2), 3);
    cr_expect_eq(isa_ipdom(p, 4), ISA_PC_EXIT);
    /* the runner stops it with an error instead of hanging */
    GError *e = NULL;
    memimg *m = isa_program_new_memimg(p, 1, &e);
    isa_launch l;
    uint32_t g[3] = {1, 1, 1}, b[3] = {2, 1, 1};
    cr_assert(isa_launch_init(&l, p, m, g, b, 32, NULL, 0, &e));
    isa_run_stats st = {0};
    cr_expect_not(isa_run_launch(&l, 1000, &st, &e));
    cr_assert_not_null(e);
    cr_expect_eq(e->code, ISA_ERROR_RUN);
    cr_expect(strstr(e->message, "stopped after 1000 warp-instructions") != NULL, "%s", e->message);
    g_error_free(e);
    memimg_free(m);
    isa_program_free(p);
}

Test(isa_cfg, next_pc_helpers)
{
    isa_program *p = load_ok(if_else);
    isa_exec_out o = {0};
    o.inst = isa_program_inst(p, 2);
    o.taken = 0x1;
    cr_expect_eq(isa_lane_next_pc(&o, 2, 0), 5, "taken lane goes to the target");
    cr_expect_eq(isa_lane_next_pc(&o, 2, 1), 3, "other lanes fall through");
    o.inst = isa_program_inst(p, 6);
    o.taken = 0;
    o.exited = 0x2;
    cr_expect_eq(isa_lane_next_pc(&o, 6, 1), ISA_PC_EXIT);
    cr_expect_eq(isa_next_pc(isa_program_inst(p, 3), 3, false), 4);
    isa_program_free(p);
}
