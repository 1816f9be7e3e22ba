/* The Accel-Sim trace reader: hand-written .traceg files, their records,
 * registers, classes and decompressed addresses worked out by hand; .xz
 * input; kernelslist.g; the errors (file:line and what is wrong). */
#include <criterion/criterion.h>

#include "simtgrid/atrace.h"
#include "test_files_util.h"

#define HDR                                                                        \
    "-kernel name = _Z1kPf\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (48,1,1)\n" \
    "-shmem = 256\n-nregs = 12\n-binary version = 80\n-cuda stream id = 0\n"               \
    "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"    \
    "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n\n"                             \
    "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num "  \
    "[reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n"

/* CTA 1 only (CTA 0 is absent: it runs nothing). Warp 0: four records;
 * warp 1 (threads 32..47, 16 lanes): two. */
static const char *trace_text =
    HDR
    "#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 0\ninsts = 4\n"
    "0000 ffffffff 1 R2 IMAD.WIDE 3 R255 R4 R4 0\n"
    "0010 0000000f 1 R6 LDG.E.64.SYS 1 R2 8 0 0x100 0x108 0x200 0x1000\n"
    "0020 000000f0 0 STS.U8 2 R3 R6 1 1 0x7f0000000010 1\n"
    "0030 ffffffff 0 EXIT 0 0\n"
    "\nwarp = 1\ninsts = 2\n"
    "0040 0000000b 1 R7 ATOMG.E.ADD.STRONG.GPU 2 R2 R5 4 2 0x500 -4 12\n"
    "0030 0000ffff 0 EXIT 0 0\n"
    "\n#END_TB\n";

static atrace_kernel *load_text(tmp_dir *t, const char *name, const char *text)
{
    const char *path = tmp_write(t, name, text, -1);
    GError *e = NULL;
    atrace_kernel *k = atrace_load(path, &e);
    cr_assert_not_null(k, "%s", e ? e->message : "");
    return k;
}

static void check_example(const atrace_kernel *k)
{
    cr_assert_eq(k->grid[0], 2);
    cr_assert_eq(k->block[0], 48);
    cr_assert_eq(k->warps_per_cta, 2);
    cr_assert_eq(k->ncta, 2);
    cr_assert_eq(k->shmem, 256);
    cr_assert_eq(k->nregs, 12);
    cr_assert_eq(k->trace_version, 4);
    cr_assert_eq(k->binary_version, 80);
    cr_assert_str_eq(k->name, "_Z1kPf");
    cr_assert_eq(k->nrec, 6);
    cr_assert_eq(k->ninst, 5, "EXIT at 0x0030 appears twice: one static instruction");
    cr_assert_eq(atrace_warp_of(k, 0, 0)->n, 0, "CTA 0 is not in the trace");
    const atrace_warp *w0 = atrace_warp_of(k, 1, 0), *w1 = atrace_warp_of(k, 1, 1);
    cr_assert_eq(w0->n, 4);
    cr_assert_eq(w1->n, 2);

    /* IMAD.WIDE R2 <- RZ, R4, R4: RZ is no dependence, R4 read once */
    const isa_inst *in = atrace_inst(w0, 0);
    cr_assert_eq(in->cls, ISA_CLASS_ALU_INT);
    cr_assert_eq(in->ndst, 1);
    cr_assert_eq(in->dst[0], 2);
    cr_assert_eq(in->nreads, 1);
    cr_assert_eq(in->reads[0], 4);

    /* LDG.E.64: 8 bytes per lane, 4 lanes listed (mode 0) */
    isa_exec_out o;
    atrace_exec(k, w0, 1, 0xffffffffu, &o);
    cr_assert_eq(o.inst->cls, ISA_CLASS_LD_GLOBAL);
    cr_assert_eq(o.access_size, 8);
    cr_assert_eq(o.mem_lanes, 0xf);
    cr_assert_eq(o.exited, 0);
    cr_assert_eq(o.addr[0], 0x100);
    cr_assert_eq(o.addr[1], 0x108);
    cr_assert_eq(o.addr[2], 0x200);
    cr_assert_eq(o.addr[3], 0x1000);

    /* STS.U8, base+stride (mode 1): lanes 4..7 at base + 0, 1, 2, 3, as
     * offsets from the shared window 0x7f0000000000 */
    atrace_exec(k, w0, 2, 0xffffffffu, &o);
    cr_assert_eq(o.inst->cls, ISA_CLASS_ST_SHARED);
    cr_assert_eq(o.access_size, 1);
    cr_assert_eq(o.mem_lanes, 0xf0);
    for (unsigned l = 4; l < 8; l++) cr_assert_eq(o.addr[l], 0x10 + (l - 4), "lane %u", l);

    /* the last record: every lane of the warp exits */
    atrace_exec(k, w0, 3, 0xffffffffu, &o);
    cr_assert_eq(o.inst->cls, ISA_CLASS_EXIT);
    cr_assert_eq(o.exited, 0xffffffffu);

    /* ATOMG, base+deltas (mode 2): lanes 0, 1, 3 at 0x500, 0x500-4, 0x4fc+12 */
    atrace_exec(k, w1, 0, 0xffffu, &o);
    cr_assert_eq(o.inst->cls, ISA_CLASS_ATOMIC);
    cr_assert_eq(o.inst->space, ISA_SPACE_GLOBAL);
    cr_assert_eq(o.mem_lanes, 0xb);
    cr_assert_eq(o.addr[0], 0x500);
    cr_assert_eq(o.addr[1], 0x4fc);
    cr_assert_eq(o.addr[3], 0x508);
    atrace_exec(k, w1, 1, 0xffffu, &o);
    cr_assert_eq(o.exited, 0xffffu);
}

Test(atrace, records_registers_and_addresses)
{
    tmp_dir t = tmp_dir_new();
    atrace_kernel *k = load_text(&t, "kernel-1.traceg", trace_text);
    check_example(k);
    atrace_free(k);
    tmp_dir_free(&t);
}

Test(atrace, xz_compressed_trace)
{
    tmp_dir t = tmp_dir_new();
    const char *plain = tmp_write(&t, "kernel-1.traceg", trace_text, -1);
    char *xz = g_strdup_printf("%s.xz", plain);
    const char *argv[] = {"xz", "-k", "-q", "--", plain, NULL};
    int status;
    GError *e = NULL;
    cr_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                           &status, &e), "xz (xz-utils, installed by tools/setup): %s",
              e ? e->message : "");
    cr_assert(g_spawn_check_wait_status(status, NULL));
    g_ptr_array_add(t.files, xz);
    atrace_kernel *k = atrace_load(xz, &e);
    cr_assert_not_null(k, "%s", e ? e->message : "");
    check_example(k);
    atrace_free(k);
    /* not xz data: xz's own complaint */
    const char *bad = tmp_write(&t, "bad.traceg.xz", "plain text", -1);
    cr_assert_null(atrace_load(bad, &e));
    cr_assert(strstr(e->message, "'xz -dc' failed"), "%s", e->message);
    g_clear_error(&e);
    tmp_dir_free(&t);
}

Test(atrace, opcode_table)
{
    cr_assert(atrace_opcode_table_sorted());
    struct { const char *op; isa_class cls; unsigned bytes; isa_space space; } cases[] = {
        {"FFMA", ISA_CLASS_ALU_FP, 0, ISA_SPACE_NONE},
        {"DFMA", ISA_CLASS_ALU_FP, 0, ISA_SPACE_NONE},
        {"HMMA.16816.F32", ISA_CLASS_ALU_FP, 0, ISA_SPACE_NONE},
        {"IADD3.X", ISA_CLASS_ALU_INT, 0, ISA_SPACE_NONE},
        {"UIADD3", ISA_CLASS_ALU_INT, 0, ISA_SPACE_NONE},
        {"MUFU.EX2", ISA_CLASS_SFU, 0, ISA_SPACE_NONE},
        {"SHFL.BFLY.PT", ISA_CLASS_INTRINSIC, 0, ISA_SPACE_NONE},
        {"BRA.DIV", ISA_CLASS_BRANCH, 0, ISA_SPACE_NONE},
        {"BAR.SYNC.DEFER_BLOCKING", ISA_CLASS_BARRIER, 0, ISA_SPACE_NONE},
        {"LDG.E.128.CONSTANT", ISA_CLASS_LD_GLOBAL, 16, ISA_SPACE_GLOBAL},
        {"LDG.E.U16", ISA_CLASS_LD_GLOBAL, 2, ISA_SPACE_GLOBAL},
        {"LDL.64", ISA_CLASS_LD_GLOBAL, 8, ISA_SPACE_GLOBAL},
        {"STG.E.S8", ISA_CLASS_ST_GLOBAL, 1, ISA_SPACE_GLOBAL},
        {"LDS.128", ISA_CLASS_LD_SHARED, 16, ISA_SPACE_SHARED},
        {"ATOMS.ADD", ISA_CLASS_ATOMIC, 4, ISA_SPACE_SHARED},
        {"RED.E.ADD.F32.FTZ.RN", ISA_CLASS_ATOMIC, 4, ISA_SPACE_GLOBAL},
        {"EXIT", ISA_CLASS_EXIT, 0, ISA_SPACE_NONE},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        isa_inst in;
        memset(&in, 0, sizeof in);
        cr_assert(atrace_decode_opcode(cases[i].op, &in), "%s", cases[i].op);
        cr_assert_eq(in.cls, cases[i].cls, "%s", cases[i].op);
        cr_assert_eq(in.space, cases[i].space, "%s", cases[i].op);
        if (cases[i].bytes) cr_assert_eq(in.mem_bytes, cases[i].bytes, "%s", cases[i].op);
    }
    isa_inst in;
    memset(&in, 0, sizeof in);
    cr_assert(atrace_decode_opcode("MUFU.RSQ", &in));
    cr_assert_eq(in.op, ISA_OP_RSQRT, "MUFU's function picks the SFU latency");
    cr_assert(!atrace_decode_opcode("FROB.X", &in));
    cr_assert(!atrace_decode_opcode("", &in));
}

Test(atrace, kernelslist)
{
    tmp_dir t = tmp_dir_new();
    const char *l = tmp_write(&t, "kernelslist.g",
                              "MemcpyHtoD,0x00007f2a3c000000,4096\nkernel-1.traceg\n\n"
                              "MemcpyHtoD,0x00007f2a3c001000,4096\nkernel-2.traceg\n", -1);
    GError *e = NULL;
    char **v = atrace_list_load(l, &e);
    cr_assert_not_null(v, "%s", e ? e->message : "");
    cr_assert_eq(g_strv_length(v), 2);
    char *k2 = g_build_filename(t.path, "kernel-2.traceg", NULL);
    cr_assert_str_eq(v[1], k2);
    g_free(k2);
    g_strfreev(v);
    const char *bad = tmp_write(&t, "bad.g", "kernel-1.traceg\nfoo\n", -1);
    cr_assert_null(atrace_list_load(bad, &e));
    cr_assert(strstr(e->message, "bad.g:2: expected a kernel file"), "%s", e->message);
    g_clear_error(&e);
    tmp_dir_free(&t);
}

/* Replaces the first `from` in the example with `to`; the load must fail
 * with a message holding `want` (after "k.traceg:LINE: "). */
static void expect_bad(const char *from, const char *to, const char *want)
{
    tmp_dir t = tmp_dir_new();
    const char *at = strstr(trace_text, from);
    cr_assert_not_null(at, "%s", from);
    GString *s = g_string_new_len(trace_text, at - trace_text);
    g_string_append(s, to);
    g_string_append(s, at + strlen(from));
    const char *path = tmp_write(&t, "k.traceg", s->str, -1);
    g_string_free(s, TRUE);
    GError *e = NULL;
    cr_assert_null(atrace_load(path, &e), "accepted: %s -> %s", from, to);
    cr_assert(strstr(e->message, "k.traceg:"), "%s", e->message);
    cr_assert(strstr(e->message, want), "'%s' not in: %s", want, e->message);
    g_error_free(e);
    tmp_dir_free(&t);
}

Test(atrace, errors_name_file_line_and_what)
{
    expect_bad("IMAD.WIDE", "FROB.WIDE", "k.traceg:22: unknown opcode 'FROB.WIDE' (not in the SM70-SM90 table");
    expect_bad("-accelsim tracer version = 4", "-accelsim tracer version = 2",
               "'-accelsim tracer version': 2 is not supported (3 or 4)");
    expect_bad("-accelsim tracer version = 4\n", "", "the line is missing");
    expect_bad("-binary version = 80", "-binary version = 61", "SM61 is outside the opcode table");
    expect_bad("0x200 0x1000\n", "0x200\n", "k.traceg:23: expected 4 addresses (one per active lane)");
    expect_bad("0x500 -4 12", "0x500 -4", "expected 2 deltas after the base");
    expect_bad("insts = 4", "insts = 5", "k.traceg:27: a new warp with 1 instructions of the previous one missing");
    expect_bad("insts = 2", "insts = 1", "more instruction lines than the warp's 'insts' count");
    expect_bad("thread block = 1,0,0", "thread block = 2,0,0", "thread block 2,0,0 is outside the grid (2,1,1)");
    expect_bad("warp = 1\n", "warp = 0\n", "warp 0 of this thread block appears twice");
    expect_bad("warp = 1\n", "warp = 2\n", "warp 2 is outside the CTA's 2 warps");
    expect_bad("\n#END_TB\n", "\n", "the file ends inside a thread block");
    expect_bad("R2 IMAD.WIDE", "X2 IMAD.WIDE", "expected a register such as R12, got 'X2'");
    expect_bad("0030 ffffffff 0 EXIT 0 0\n", "0030 ffffffff 0 EXIT 0 4 0 0x1\n",
               "opcode 'EXIT' does not access memory");
    expect_bad("LDG.E.64.SYS 1 R2 8 0", "LDG.E.64.SYS 1 R2 0 0", "opcode 'LDG.E.64.SYS' accesses memory");
    expect_bad("-grid dim = (2,1,1)", "-grid dim = (0,1,1)", "key '-grid dim': expected (x,y,z)");
    expect_bad("0030 ffffffff 0 EXIT 0 0\n", "0030 ffffffff 0 EXIT 0 0 junk\n", "unexpected 'junk'");
}
