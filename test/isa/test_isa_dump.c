/* Text views: one instruction back in .sasm (and a parse -> format -> parse
 * round trip that must decode identically), and the `kernel check` listing. */
#include "isa_test_util.h"

static void expect_format(const char *src, const char *want)
{
    char *text = g_strdup_printf(".param n\n.shared s 64\n.data d u8[4]\nloop:\n  %s\n  exit\n", src);
    isa_program *p = load_ok(text);
    GString *s = g_string_new(NULL);
    isa_inst_format(p, 0, s);
    cr_expect_str_eq(s->str, want);
    g_string_free(s, TRUE);
    isa_program_free(p);
    g_free(text);
}

Test(isa_dump, format_each_class)
{
    expect_format("add.u32 r1, r2, 5", "add.u32 r1, r2, 5");
    expect_format("add r1, r2, r3", "add.u64 r1, r2, r3");
    expect_format("setp.lt.s32 p0, r1, -4", "setp.lt.s32 p0, r1, -4");
    expect_format("fma r4, r5, 2.0, r6", "mad.f32 r4, r5, 2, r6");
    expect_format("mul.f32 r4, r5, 1.0001", "mul.f32 r4, r5, 1.00010002");
    expect_format("cvt.f32.s32 r1, r2", "cvt.f32.s32 r1, r2");
    expect_format("sqrt r1, r2", "sqrt.f32 r1, r2");
    expect_format("mov r1, %tid.x", "mov r1, %tid.x");
    expect_format("param r1, n", "param r1, n");
    expect_format("@!p1 ld.global.cg.rowhint.v4.f32 {r8, r9, r10, r11}, [r12+16]",
                  "@!p1 ld.global.cg.rowhint.v4.f32 {r8, r9, r10, r11}, [r12+16]");
    expect_format("ld.global.u8 r1, [@d]", "ld.global.u8 r1, [0x10000000]");
    expect_format("ld.global.s16 r1, [r2-6]", "ld.global.s16 r1, [r2-6]");
    expect_format("st.shared.u32 [r1+@s+8], r2", "st.shared.u32 [r1+8], r2");
    expect_format("st.global.v2.u64 [r1], {r2, r3}", "st.global.v2.u64 [r1], {r2, r3}");
    expect_format("atom.global.cas.u32 r16, [r17], r18, 5", "atom.global.cas.u32 r16, [r17], r18, 5");
    expect_format("cond_acc.shared.u16 r20, r21, !p3, r22", "cond_acc.shared.u16 r20, r21, !p3, r22");
    expect_format("tree_traverse r23, r24, p4, 32", "tree_traverse r23, r24, p4, 32");
    expect_format("ballot r1, !p0", "ballot r1, !p0");
    expect_format("vote.any p1, p0", "vote.any p1, p0");
    expect_format("shfl.up.u32 r3, r1, 2", "shfl.up.u32 r3, r1, 2");
    expect_format("bcast r3, r1, 0", "shfl.idx.u64 r3, r1, 0");
    expect_format("selp.s32 r1, -1, r2, p0", "selp.s32 r1, -1, r2, p0");
    expect_format("pand p1, p2, !p3", "pand p1, p2, !p3");
    expect_format("@p2 bra loop", "@p2 bra loop");
    expect_format("bar.sync", "bar.sync");
    expect_format("nop", "nop");
}

/* Directives of `src` plus the formatted code must decode to the same code. */
static void round_trip(const char *src)
{
    isa_program *a = load_ok(src);
    GString *t = g_string_new(NULL);
    char **lines = g_strsplit(src, "\n", -1);
    for (char **l = lines; *l; l++) {
        const char *s = *l;
        while (*s == ' ') s++;
        if (*s == '.') g_string_append_printf(t, "%s\n", s);
    }
    g_strfreev(lines);
    for (uint32_t pc = 0; pc < isa_program_ninst(a); pc++) {
        const char *lab = isa_program_label_at(a, pc);
        if (lab) g_string_append_printf(t, "%s:\n", lab);
        g_string_append(t, "  ");
        isa_inst_format(a, pc, t);
        g_string_append_c(t, '\n');
    }
    isa_program *b = load_ok(t->str);
    cr_assert_eq(isa_program_ninst(a), isa_program_ninst(b));
    for (uint32_t pc = 0; pc < isa_program_ninst(a); pc++) {
        isa_inst x = *isa_program_inst(a, pc), y = *isa_program_inst(b, pc);
        x.line = y.line = 0;
        cr_expect(memcmp(&x, &y, sizeof x) == 0, "pc %u differs after the round trip:\n%s", pc, t->str);
    }
    g_string_free(t, TRUE);
    isa_program_free(a);
    isa_program_free(b);
}

Test(isa_dump, round_trip_every_opcode)
{
    round_trip(".param n\n.shared s u32[16]\n.data d f32[8] = iota(start=1.5)\n"
               "top:\n"
               "  nop\n  mov r1, %nwarpid\n  mov.s8 r2, -5\n  param r3, 0\n"
               "  add.s32 r4, r1, -7\n  sub.u16 r4, r4, 9\n  mul.u64 r4, r4, 0xffffffffffffffff\n"
               "  mad.s64 r4, r4, r4, -1\n  div.s32 r5, r4, 3\n  rem.u32 r5, r5, 7\n"
               "  min.s16 r5, r5, r4\n  max.u8 r5, r5, 200\n  abs.s32 r5, r5\n  neg.f64 r6, r6\n"
               "  and.u32 r7, r7, 0xff\n  or r7, r7, r1\n  xor r7, r7, 3\n  not.u16 r7, r7\n"
               "  shl.u32 r7, r7, 3\n  shr.s64 r7, r7, r1\n  popc.u32 r8, r7\n  clz r8, r8\n"
               "  set.le.f64 r9, r6, -0.125\n  setp.gt.f32 p1, r9, 1e-3\n  selp.f32 r9, 0.5, r8, !p1\n"
               "  pand p2, p1, !p0\n  por p3, p1, p2\n  pxor p4, p3, p3\n  pnot p5, p4\n"
               "  cvt.s32.f64 r10, r6\n  cvt.u8.s64 r10, r10\n"
               "  sin r11, r11\n  cos.f64 r11, r11\n  ex2 r11, r11\n  lg2 r11, r11\n  exp r11, r11\n"
               "  log r11, r11\n  rsqrt r11, r11\n  rcp r11, r11\n  sqrt.f64 r11, r11\n  div.f32 r11, r11, 3.0\n"
               "  ld.global.cs.v2.f32 {r12, r13}, [r1+@d+4]\n  ld.shared.s8 r12, [r2+@s]\n"
               "  st.global.s16 [r1-2], 7\n  st.shared.v4.u32 [r3+@s], {r1, r2, r3, r4}\n"
               "  atom.global.add.f64 r14, [r1], 1.5\n  atom.shared.xor.s32 r14, [@s], r4\n"
               "  atom.global.exch.u64 r14, [r1+8], r2\n"
               "  cond_acc.global.f32 r15, r1, p2, r9\n  tree_traverse r15, r15, !p3, 31\n"
               "  ballot r16, p1\n  vote.all p6, !p1\n  vote.uni p7, p6\n"
               "  shfl.down.s32 r17, r16, 4\n  shfl.bfly r17, r17, r1\n  bcast.f32 r17, 1.0, 3\n"
               "  bar.sync\n  @p7 bra top\n  @!p6 exit\n  bra out\n"
               "out:\n  exit\n");
}

Test(isa_dump, round_trip_examples)
{
    const char *names[] = {"vecadd.sasm", "reduce_shared.sasm", "ifelse.sasm", "chase.sasm",
                           "warp_scan.sasm", "bdiv.sasm", "select_cond_acc.sasm", "stream_f4.sasm"};
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
        const char *root = getenv("SIMTGRID_SRC");
        char *path = g_strdup_printf("%s/workloads/kernels/%s", root ? root : ".", names[i]);
        char *text = NULL;
        cr_assert(g_file_get_contents(path, &text, NULL, NULL), "%s", path);
        round_trip(text);
        g_free(text);
        g_free(path);
    }
}

Test(isa_dump, kernel_check_listing)
{
    isa_program *p = load_kernel_file("ifelse.sasm");
    GString *s = g_string_new(NULL);
    isa_program_dump(p, s);
    /* pcs: 0 mov, 1 and, 2 setp, 3 @p0 bra even, 4 add, 5 bra join,
     * 6 even: mul, 7 join: shl, 8 st, 9 exit */
    const char *want[] = {
        "kernel ifelse (",
        "instructions 10, basic blocks 4, registers 4, shared 0 bytes, params 0",
        "@out u32[64] base 0x10000000 bytes 256 = zero  (line 4)",
        "@p0 bra even",
        "branch, target 6, reconverges at 7",
        "B0 [0..3] -> B2 B1  ipdom B3 (pc 7)",
        "B1 [4..5] -> B3  ipdom B3 (pc 7)",
        "B2 [6..6] -> B3  ipdom B3 (pc 7)",
        "B3 [7..9] -> exit  ipdom exit",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
        cr_expect(strstr(s->str, want[i]) != NULL, "listing lacks '%s':\n%s", want[i], s->str);
    g_string_free(s, TRUE);
    isa_program_free(p);
}

/* The "one example per class" block of docs/sasm.md is valid .sasm. */
Test(isa_dump, docs_examples_parse)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *path = g_strdup_printf("%s/docs/sasm.md", root ? root : ".");
    char *doc = NULL;
    cr_assert(g_file_get_contents(path, &doc, NULL, NULL), "%s", path);
    const char *sec = strstr(doc, "## One example per class");
    cr_assert_not_null(sec);
    const char *start = strstr(sec, "```\n");
    cr_assert_not_null(start);
    start += 4;
    const char *end = strstr(start, "```");
    cr_assert_not_null(end);
    char *code = g_strndup(start, (gsize)(end - start));
    char *text = g_strdup_printf(".data next u32[4]\n.data count u32[1]\n.shared buf u32[16]\nloop:\n%s", code);
    isa_program *p = load_ok(text);
    cr_expect_eq(isa_program_ninst(p), 23);
    isa_program_free(p);
    g_free(text), g_free(code), g_free(doc), g_free(path);
}
