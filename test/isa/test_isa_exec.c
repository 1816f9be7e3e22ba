/* The executor on single instructions: integer and float semantics, SFU,
 * conversions, special registers, params, predication, and what it reports
 * (executed lanes, registers read and written, classes). Expected values are
 * worked out by hand in the comments. */
#include <math.h>
#include <stdio.h>

#include "isa_test_util.h"

/* Runs instruction `pc` of `text` for lane 0 with r1 = a, r2 = b, r3 = c and
 * returns r4. */
static uint64_t run1(const char *text, uint64_t a, uint64_t b, uint64_t c)
{
    test_cta t;
    cta_setup(&t, text, 1);
    t.lanes[0]->r[1] = a, t.lanes[0]->r[2] = b, t.lanes[0]->r[3] = c;
    isa_exec_out o;
    cta_exec(&t, 0, 1, &o);
    cr_expect_eq(o.executed, 1);
    uint64_t v = t.lanes[0]->r[4];
    cta_free(&t);
    return v;
}

#define I(text) ("  " text "\n  exit\n")
#define NEG(x) ((uint64_t)(int64_t)(x))

Test(isa_exec, integer_arithmetic)
{
    cr_expect_eq(run1(I("add.u32 r4, r1, r2"), 0xffffffff, 1, 0), 0, "u32 wraps");
    cr_expect_eq(run1(I("add.s32 r4, r1, r2"), 0x7fffffff, 1, 0), NEG(INT32_MIN), "s32 result sign-extends");
    cr_expect_eq(run1(I("add r4, r1, r2"), 0xffffffff, 1, 0), 0x100000000, "u64 by default");
    cr_expect_eq(run1(I("sub r4, r1, 5"), 3, 0, 0), NEG(-2));
    cr_expect_eq(run1(I("mul.u32 r4, r1, r2"), 0x10000, 0x10001, 0), 0x10000, "low 32 bits of 0x100010000");
    cr_expect_eq(run1(I("mad r4, r1, r2, r3"), 6, 7, 8), 50);
    cr_expect_eq(run1(I("div.u32 r4, r1, r2"), 7, 2, 0), 3);
    cr_expect_eq(run1(I("div.s32 r4, r1, r2"), NEG(-7), 2, 0), NEG(-3), "truncates toward zero");
    cr_expect_eq(run1(I("div.u32 r4, r1, 0"), 7, 0, 0), 0xffffffff, "x/0 is all ones");
    cr_expect_eq(run1(I("div.s64 r4, r1, r2"), (uint64_t)INT64_MIN, NEG(-1), 0), (uint64_t)INT64_MIN, "wraps");
    cr_expect_eq(run1(I("rem.s32 r4, r1, r2"), NEG(-7), 2, 0), NEG(-1));
    cr_expect_eq(run1(I("rem.u32 r4, r1, 0"), 7, 0, 0), 7, "x%0 is x");
    cr_expect_eq(run1(I("rem.u32 r4, r1, r2"), 37, 32, 0), 5);
    cr_expect_eq(run1(I("min.s32 r4, r1, r2"), NEG(-1), 1, 0), NEG(-1));
    cr_expect_eq(run1(I("min.u32 r4, r1, r2"), NEG(-1), 1, 0), 1, "0xffffffff is large unsigned");
    cr_expect_eq(run1(I("max.s64 r4, r1, r2"), NEG(-5), NEG(-9), 0), NEG(-5));
    cr_expect_eq(run1(I("abs.s32 r4, r1"), NEG(-12), 0, 0), 12);
    cr_expect_eq(run1(I("neg.s32 r4, r1"), 12, 0, 0), NEG(-12));
    cr_expect_eq(run1(I("mov.u32 r4, -1"), 0, 0, 0), 0xffffffff, "immediates take the type");
    cr_expect_eq(run1(I("mov.s16 r4, 0x8000"), 0, 0, 0), NEG(-32768));
    cr_expect_eq(run1(I("add r4, r1, @x+8\n.data x u8[4]"), 1, 0, 0), 0x10000009, "symbol + offset");
}

Test(isa_exec, logic_and_shifts)
{
    cr_expect_eq(run1(I("and r4, r1, 0xf0"), 0x1234, 0, 0), 0x30);
    cr_expect_eq(run1(I("or r4, r1, r2"), 0x100, 0x001, 0), 0x101);
    cr_expect_eq(run1(I("xor r4, r1, r1"), 0x5a5a, 0, 0), 0);
    cr_expect_eq(run1(I("not.u32 r4, r1"), 0, 0, 0), 0xffffffff);
    cr_expect_eq(run1(I("shl.u32 r4, r1, r2"), 1, 31, 0), 0x80000000);
    cr_expect_eq(run1(I("shl.u32 r4, r1, r2"), 1, 32, 0), 0, "shift >= width clears");
    cr_expect_eq(run1(I("shr.u32 r4, r1, 4"), 0xffffffff, 0, 0), 0x0fffffff, "logical");
    cr_expect_eq(run1(I("shr.s32 r4, r1, 4"), 0x80000000, 0, 0), NEG((int32_t)0xf8000000), "arithmetic");
    cr_expect_eq(run1(I("shr.s64 r4, r1, 200"), NEG(-3), 0, 0), NEG(-1), "fills with the sign");
    cr_expect_eq(run1(I("popc.u32 r4, r1"), UINT64_MAX, 0, 0), 32, "counts within the width");
    cr_expect_eq(run1(I("popc r4, r1"), 0xff00ff, 0, 0), 16);
    cr_expect_eq(run1(I("clz.u32 r4, r1"), 1, 0, 0), 31);
    cr_expect_eq(run1(I("clz r4, r1"), 0, 0, 0), 64);
}

/* Every integer comparison on each order of two operands, signed and
 * unsigned: -1 < 1 as s32 and s64, but 0xffffffff > 1 as u32 and 2^64 - 1 > 1
 * as u64. Truth table by hand (rows: a < b, a == b, a > b). */
Test(isa_exec, every_integer_comparison_signed_and_unsigned)
{
    static const char *const cmp[6] = {"eq", "ne", "lt", "le", "gt", "ge"};
    static const int holds[3][6] = {
        {0, 1, 1, 1, 0, 0},   /* a < b */
        {1, 0, 0, 1, 0, 1},   /* a == b */
        {0, 1, 0, 0, 1, 1},   /* a > b */
    };
    static const char *const ty[4] = {"s32", "u32", "s64", "u64"};
    for (unsigned t = 0; t < 4; t++) {
        bool sgn = ty[t][0] == 's';
        /* (a, b) and their order: -1 against 1, 5 against 5, 1 against -1 */
        const uint64_t a[3] = {NEG(-1), 5, 1}, b[3] = {1, 5, NEG(-1)};
        const unsigned rel[3] = {sgn ? 0u : 2u, 1u, sgn ? 2u : 0u};
        for (unsigned p = 0; p < 3; p++)
            for (unsigned c = 0; c < 6; c++) {
                char text[64];
                snprintf(text, sizeof text, "  set.%s.%s r4, r1, r2\n  exit\n", cmp[c], ty[t]);
                cr_expect_eq(run1(text, a[p], b[p], 0), (uint64_t)holds[rel[p]][c], "%s a=%#llx b=%#llx",
                             text, (unsigned long long)a[p], (unsigned long long)b[p]);
            }
    }
}

Test(isa_exec, compare_select_predicates)
{
    cr_expect_eq(run1(I("set.lt.s32 r4, r1, r2"), NEG(-1), 1, 0), 1);
    cr_expect_eq(run1(I("set.lt.u32 r4, r1, r2"), NEG(-1), 1, 0), 0);
    cr_expect_eq(run1(I("set.ge.f32 r4, r1, r2"), of_float(2.0f), of_float(2.0f), 0), 1);

    test_cta t;
    cta_setup(&t, "  setp.gt.u32 p1, r1, 10\n"      /* 0 */
                  "  setp.eq.u32 p2, r1, 11\n"      /* 1 */
                  "  selp r4, 100, 200, p1\n"       /* 2 */
                  "  pand p3, p1, !p2\n"            /* 3 */
                  "  por p4, !p1, p2\n"             /* 4 */
                  "  pxor p5, p1, p2\n"             /* 5 */
                  "  pnot p6, p1\n"                 /* 6 */
                  "  @!p3 add r5, r5, 1\n"          /* 7 */
                  "  setp.ne.f32 p7, r6, r6\n"      /* 8: NaN != NaN */
                  "  exit\n", 2);
    t.lanes[0]->r[1] = 11, t.lanes[1]->r[1] = 12;
    t.lanes[0]->r[6] = t.lanes[1]->r[6] = of_float(NAN);
    isa_exec_out o;
    for (uint32_t pc = 0; pc < 9; pc++) cta_exec(&t, pc, 0x3, &o);
    /* lane 0: r1 = 11: p1 = 1, p2 = 1, p3 = 1 & !1 = 0, p4 = 0 | 1 = 1, p5 = 0, p6 = 0
     * lane 1: r1 = 12: p1 = 1, p2 = 0, p3 = 1, p4 = 0, p5 = 1, p6 = 0 */
    cr_expect_eq(t.lanes[0]->r[4], 100);
    cr_expect_eq(t.lanes[0]->preds & 0x7e, 0x02 | 0x04 | 0x10);
    cr_expect_eq(t.lanes[1]->preds & 0x7e, 0x02 | 0x08 | 0x20);
    cr_expect_eq(t.lanes[0]->r[5], 1, "@!p3 runs where p3 is false");
    cr_expect_eq(t.lanes[1]->r[5], 0);
    cr_expect_eq(t.lanes[0]->preds >> 7, 1, "ne is true on NaN");
    cta_exec(&t, 7, 0x3, &o);
    cr_expect_eq(o.executed, 0x1, "the guard filters lanes");
    cta_free(&t);
}

Test(isa_exec, float_and_sfu)
{
    cr_expect_float_eq(as_f32(run1(I("add.f32 r4, r1, r2"), of_float(1.5f), of_float(2.25f), 0)), 3.75f, 0);
    cr_expect_float_eq(as_f32(run1(I("sub.f32 r4, r1, 0.5"), of_float(1.5f), 0, 0)), 1.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("mul.f32 r4, r1, -2.0"), of_float(1.5f), 0, 0)), -3.0f, 0);
    /* fma rounds once: 1.0001f * 1.0001f + 0.5f */
    cr_expect_float_eq(as_f32(run1(I("fma.f32 r4, r1, r1, 0.5"), of_float(1.0001f), 0, 0)),
                       fmaf(1.0001f, 1.0001f, 0.5f), 0);
    cr_expect_float_eq(as_f32(run1(I("min.f32 r4, r1, r2"), of_float(-1.0f), of_float(2.0f), 0)), -1.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("max.f32 r4, r1, r2"), of_float(-1.0f), of_float(2.0f), 0)), 2.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("abs.f32 r4, r1"), of_float(-7.0f), 0, 0)), 7.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("neg.f32 r4, r1"), of_float(7.0f), 0, 0)), -7.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("div.f32 r4, r1, 4.0"), of_float(1.0f), 0, 0)), 0.25f, 0);
    cr_expect_float_eq(as_f32(run1(I("sqrt.f32 r4, r1"), of_float(16.0f), 0, 0)), 4.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("rsqrt r4, r1"), of_float(4.0f), 0, 0)), 0.5f, 0);
    cr_expect_float_eq(as_f32(run1(I("rcp r4, r1"), of_float(8.0f), 0, 0)), 0.125f, 0);
    cr_expect_float_eq(as_f32(run1(I("ex2 r4, r1"), of_float(3.0f), 0, 0)), 8.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("lg2 r4, r1"), of_float(8.0f), 0, 0)), 3.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("sin r4, r1"), of_float(0.0f), 0, 0)), 0.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("cos r4, r1"), of_float(0.0f), 0, 0)), 1.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("exp r4, r1"), of_float(0.0f), 0, 0)), 1.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("log r4, r1"), of_float(1.0f), 0, 0)), 0.0f, 0);
    double d = 0;
    uint64_t v = run1(I("add.f64 r4, r1, 0.25"), 0x3ff8000000000000ull /* 1.5 */, 0, 0);
    memcpy(&d, &v, 8);
    cr_expect_float_eq(d, 1.75, 0);
    cr_expect_eq(run1(I("mov.f32 r4, 1.0"), 0, 0, 0), 0x3f800000);
    cr_expect_eq(run1(I("mov.f32 r4, 0x3f800000"), 0, 0, 0), 0x3f800000, "raw bits");
}

Test(isa_exec, conversions)
{
    cr_expect_float_eq(as_f32(run1(I("cvt.f32.s32 r4, r1"), NEG(-3), 0, 0)), -3.0f, 0);
    cr_expect_float_eq(as_f32(run1(I("cvt.f32.u32 r4, r1"), 0xffffffff, 0, 0)), 4294967296.0f, 0);
    cr_expect_eq(run1(I("cvt.s32.f32 r4, r1"), of_float(-3.7f), 0, 0), NEG(-3), "toward zero");
    cr_expect_eq(run1(I("cvt.u32.f32 r4, r1"), of_float(-1.0f), 0, 0), 0, "saturates at 0");
    cr_expect_eq(run1(I("cvt.s32.f32 r4, r1"), of_float(1e10f), 0, 0), 0x7fffffff, "saturates");
    cr_expect_eq(run1(I("cvt.s32.f32 r4, r1"), of_float(-1e10f), 0, 0), NEG(INT32_MIN));
    cr_expect_eq(run1(I("cvt.s32.f32 r4, r1"), of_float(NAN), 0, 0), 0, "NaN -> 0");
    cr_expect_eq(run1(I("cvt.u64.f64 r4, r1"), 0x43f0000000000000ull /* 2^64 */, 0, 0), UINT64_MAX);
    cr_expect_eq(run1(I("cvt.u8.u32 r4, r1"), 300, 0, 0), 44, "300 mod 256");
    cr_expect_eq(run1(I("cvt.s64.s32 r4, r1"), 0xffffffff, 0, 0), UINT64_MAX, "sign extension");
    cr_expect_eq(run1(I("cvt.u64.u32 r4, r1"), 0xffffffffffffffffull, 0, 0), 0xffffffff, "zero extension");
    cr_expect_eq(run1(I("cvt.f64.f32 r4, r1"), of_float(1.5f), 0, 0), 0x3ff8000000000000ull);
    cr_expect_eq(run1(I("cvt.f32.f64 r4, r1"), 0x7e37e43c8800759cull /* 1e300 */, 0, 0), 0x7f800000, "overflows to inf");
}

Test(isa_exec, special_registers_and_params)
{
    test_cta t;
    GError *e = NULL;
    memset(&t, 0, sizeof t);
    t.prog = load_ok(".param a\n.param b\n"
                     "  mov r1, %tid.x\n  mov r2, %tid.y\n  mov r3, %tid.z\n"        /* 0-2 */
                     "  mov r4, %ntid.y\n  mov r5, %ctaid.x\n  mov r6, %nctaid.x\n" /* 3-5 */
                     "  mov r7, %laneid\n  mov r8, %warpid\n  mov r9, %nwarpid\n"   /* 6-8 */
                     "  mov r10, %lanemask_lt\n  mov r11, %clock\n  param r12, b\n" /* 9-11 */
                     "  mov r13, %ctaid.z\n  param r14, 0\n  exit\n");             /* 12-13 */
    t.mem = isa_program_new_memimg(t.prog, 1, &e);
    /* grid 3x1x2, block 8x4x2 = 64 threads, CTA linear 5 = (2, 0, 1) */
    uint32_t g[3] = {3, 1, 2}, b[3] = {8, 4, 2};
    uint64_t prm[2] = {111, 222};
    cr_assert(isa_launch_init(&t.launch, t.prog, t.mem, g, b, 32, prm, 2, &e));
    cr_expect_eq(isa_launch_ncta(&t.launch), 6);
    t.cta = isa_cta_new(&t.launch, 5);
    t.cta->clock = 777;
    isa_thread *th = isa_cta_thread(t.cta, 37);
    isa_thread *lanes[32] = {th};
    isa_exec_out o;
    for (uint32_t pc = 0; pc < 14; pc++) isa_exec(t.prog, pc, lanes, 1, &o);
    /* thread 37: x = 37 % 8 = 5, y = 37 / 8 % 4 = 0, z = 37 / 32 = 1;
     * lane 37 % 32 = 5, warp 1 of 2, lanemask_lt = 2^5 - 1 = 31 */
    cr_expect_eq(th->r[1], 5);
    cr_expect_eq(th->r[2], 0);
    cr_expect_eq(th->r[3], 1);
    cr_expect_eq(th->r[4], 4);
    cr_expect_eq(th->r[5], 2);
    cr_expect_eq(th->r[6], 3);
    cr_expect_eq(th->r[7], 5);
    cr_expect_eq(th->r[8], 1);
    cr_expect_eq(th->r[9], 2);
    cr_expect_eq(th->r[10], 31);
    cr_expect_eq(th->r[11], 777);
    cr_expect_eq(th->r[12], 222);
    cr_expect_eq(th->r[13], 1);
    cr_expect_eq(th->r[14], 111);
    isa_cta_reset(t.cta, 1);
    cr_expect_eq(t.cta->ctaid[0], 1);
    cr_expect_eq(isa_cta_thread(t.cta, 37)->r[1], 0, "reset clears registers");
    cta_free(&t);
}

Test(isa_exec, decode_classes_and_scoreboard_info)
{
    isa_program *p = load_ok(".shared s 64\n"
                             "  mad.u32 r1, r2, r3, r2\n"                  /* 0 */
                             "  fma r4, r5, 2.0, r6\n"                     /* 1 */
                             "  sin r7, r7\n"                              /* 2 */
                             "  div.f32 r7, r7, r8\n"                      /* 3 */
                             "  ld.global.cg.rowhint.v4.f32 {r8, r9, r10, r11}, [r12+16]\n" /* 4 */
                             "  st.shared.v2.u64 [r13+@s], {r14, r15}\n"   /* 5 */
                             "  @!p1 atom.global.cas.u32 r16, [r17], r18, 5\n" /* 6 */
                             "  setp.lt.f32 p2, r1, r2\n"                  /* 7 */
                             "  ballot r19, !p2\n"                         /* 8 */
                             "  cond_acc.shared.u16 r20, r21, p3, r22\n"   /* 9 */
                             "  tree_traverse r23, r24, p4, 32\n"          /* 10 */
                             "  bar.sync\n"                                /* 11 */
                             "  ld.global.cs.u8 r25, [0x1000]\n"           /* 12 */
                             "  cvt.f32.s32 r1, r2\n"                      /* 13 */
                             "  cvt.s64.s32 r1, r2\n"                      /* 14 */
                             "  exit\n"                                    /* 15 */
                             "  ld.cg.u32 r1, [r2]\n"                      /* 16: .global implied */
                             "  exit\n");
    const isa_inst *c = isa_program_code(p);
    cr_expect_eq(c[0].cls, ISA_CLASS_ALU_INT);
    cr_expect_eq(c[0].nreads, 2, "r2 counted once");
    cr_expect_eq(c[0].reads[0], 2);
    cr_expect_eq(c[0].reads[1], 3);
    cr_expect_eq(c[0].ndst, 1);
    cr_expect_eq(c[0].dst[0], 1);
    cr_expect_eq(c[1].cls, ISA_CLASS_ALU_FP);
    cr_expect_eq(c[1].op, ISA_OP_MAD);
    cr_expect_eq(c[1].type, ISA_T_F32);
    cr_expect_eq(c[1].nreads, 2);
    cr_expect_eq(c[2].cls, ISA_CLASS_SFU);
    cr_expect_eq(c[3].cls, ISA_CLASS_SFU, "float division is priced as SFU");
    cr_expect_eq(c[4].cls, ISA_CLASS_LD_GLOBAL);
    cr_expect_eq(c[4].cache, ISA_CACHE_CG);
    cr_expect_eq(c[4].row_hint, 1);
    cr_expect_eq(c[4].vec, 4);
    cr_expect_eq(c[4].elem_bytes, 4);
    cr_expect_eq(c[4].mem_bytes, 16);
    cr_expect_eq(c[4].ndst, 4);
    cr_expect_eq(c[4].dst[3], 11);
    cr_expect_eq(c[4].addr_off, 16);
    cr_expect_eq(c[4].nreads, 1);
    cr_expect_eq(c[4].reads[0], 12);
    cr_expect_eq(c[5].cls, ISA_CLASS_ST_SHARED);
    cr_expect_eq(c[5].mem_bytes, 16);
    cr_expect_eq(c[5].nreads, 3);
    cr_expect_eq(c[5].ndst, 0);
    cr_expect_eq(c[6].cls, ISA_CLASS_ATOMIC);
    cr_expect_eq(c[6].space, ISA_SPACE_GLOBAL);
    cr_expect_eq(c[6].sub, ISA_ATOM_CAS);
    cr_expect_eq(c[6].guard, 1);
    cr_expect_eq(c[6].guard_neg, 1);
    cr_expect_eq(c[6].pred_reads, 0x02);
    cr_expect_eq(c[6].nreads, 2, "address r17 and compare r18; 5 is an immediate");
    cr_expect_eq(c[6].src[2].kind, ISA_OPND_IMM);
    cr_expect_eq(c[6].src[2].imm, 5);
    cr_expect_eq(c[7].cls, ISA_CLASS_ALU_FP);
    cr_expect_eq(c[7].pred_writes, 0x04);
    cr_expect_eq(c[7].pdst, 2);
    cr_expect_eq(c[8].cls, ISA_CLASS_INTRINSIC);
    cr_expect_eq(c[8].pred_reads, 0x04);
    cr_expect_eq(c[8].src[0].neg, 1);
    cr_expect_eq(c[9].cls, ISA_CLASS_ST_SHARED, "cond_acc stores through the LD/ST unit");
    cr_expect_eq(c[9].mem_bytes, 2);
    cr_expect_eq(c[9].pred_reads, 0x08);
    cr_expect_eq(c[10].cls, ISA_CLASS_INTRINSIC);
    cr_expect_eq(c[11].cls, ISA_CLASS_BARRIER);
    cr_expect_eq(c[12].cache, ISA_CACHE_CS);
    cr_expect_eq(c[12].src[0].kind, ISA_OPND_NONE);
    cr_expect_eq(c[12].addr_off, 0x1000);
    cr_expect_eq(c[12].nreads, 0);
    cr_expect_eq(c[13].cls, ISA_CLASS_ALU_FP);
    cr_expect_eq(c[14].cls, ISA_CLASS_ALU_INT);
    cr_expect_eq(c[15].cls, ISA_CLASS_EXIT);
    cr_expect_eq(c[16].space, ISA_SPACE_GLOBAL, "ld.cg is ld.global.cg");
    cr_expect_eq(c[16].cls, ISA_CLASS_LD_GLOBAL);
    cr_expect_eq(c[16].cache, ISA_CACHE_CG);
    cr_expect_eq(isa_program_nregs(p), 26, "r0..r25");
    cr_expect_eq(isa_program_shared_bytes(p), 64);
    cr_expect_str_eq(isa_class_name(ISA_CLASS_LD_GLOBAL), "ld_global");
    cr_expect_str_eq(isa_op_name(ISA_OP_TREE_TRAVERSE), "tree_traverse");
    isa_program_free(p);
}

Test(isa_exec, declarations_and_symbols)
{
    isa_program *p = load_ok(".kernel k1\n.regs 8\n.param n\n.param m\n"
                             ".data a u8[5]\n"                /* 0x10000000 */
                             ".data b f64[1024] = const(value=2.5)\n" /* 0x10001000: a rounds up to 4 KiB */
                             ".data c u32[1025]\n"            /* 0x10003000: b is 8192 bytes */
                             ".shared s1 10\n.shared s2 u64[2]\n" /* s1 at 0, s2 at 16 (16-aligned) */
                             "  exit\n");
    cr_expect_str_eq(isa_program_name(p), "k1");
    cr_expect_eq(isa_program_nregs(p), 8);
    cr_expect_eq(isa_program_nparams(p), 2);
    cr_expect_str_eq(isa_program_param_name(p, 1), "m");
    cr_expect_eq(isa_program_param_index(p, "m"), 1);
    cr_expect_eq(isa_program_param_index(p, "zz"), -1);
    cr_expect_eq(isa_program_ndata(p), 3);
    cr_expect_eq(isa_program_data(p, 0)->base, 0x10000000);
    cr_expect_eq(isa_program_data(p, 1)->base, 0x10001000);
    cr_expect_eq(isa_program_data(p, 2)->base, 0x10003000);
    cr_expect_str_eq(isa_program_data(p, 1)->init, "const(value=2.5)");
    cr_expect(isa_program_data(p, 1)->is_float);
    cr_expect_eq(isa_program_data(p, 1)->elem_bytes, 8);
    cr_expect_eq(sym(p, "s2"), 16);
    cr_expect_eq(sym(p, "@c"), 0x10003000);
    cr_expect_eq(isa_program_shared_bytes(p), 32);
    GError *e = NULL;
    memimg *m = isa_program_new_memimg(p, 1, &e);
    cr_expect_eq(memimg_read(m, 0x10001008, 8), 0x4004000000000000ull, "2.5 as f64");
    memimg_free(m);
    isa_program_free(p);
    /* without .kernel the name is the file's base name */
    p = isa_program_parse("exit\n", "/x/y/my_kernel.sasm", &e);
    cr_expect_str_eq(isa_program_name(p), "my_kernel");
    cr_expect_eq(isa_program_nregs(p), 1);
    isa_program_free(p);
}
