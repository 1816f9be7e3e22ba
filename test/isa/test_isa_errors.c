/* Every error path of the .sasm loader: each message names file:line, the
 * token at fault and what was expected. */
#include <glib/gstdio.h>
#include <unistd.h>

#include "isa_test_util.h"

Test(isa_errors, opcodes_and_suffixes)
{
    expect_err("  ad r1, r2, r3\n  exit\n", "t.sasm:1:", "unknown opcode 'ad'", "did you mean 'add'");
    expect_err("  exit\n  ballto r1, p0\n", "t.sasm:2:", "unknown opcode 'ballto'", "'ballot'");
    expect_err("  add.foo r1, r2, r3\n  exit\n", "t.sasm:1:", "unknown suffix '.foo' on 'add'");
    expect_err("  st.global.cg.u32 [r1], r2\n  exit\n", "suffix '.cg' is not allowed on 'st'");
    expect_err("  add.u32.s32 r1, r2, r3\n  exit\n", "more than one type suffix");
    expect_err("  and.f32 r1, r2, r3\n  exit\n", "type '.f32' is not allowed on 'and'", "integer types only");
    expect_err("  sin.u32 r1, r2\n  exit\n", "type '.u32' is not allowed on 'sin'", "float types only");
    expect_err("  ld.global.shared.u32 r1, [r2]\n  exit\n", "more than one '.shared'-kind suffix");
    expect_err("  add..u32 r1, r2, r3\n  exit\n", "empty suffix in 'add..u32'");
    expect_err("  setp.u32 p0, r1, r2\n  exit\n", "'setp' needs a comparison suffix");
    expect_err("  ld.u32 r1, [r2]\n  exit\n", "'ld' needs a state space");
    expect_err("  ld.global r1, [r2]\n  exit\n", "'ld' needs a type");
    expect_err("  atom.global.u32 r1, [r2], 1\n  exit\n", "'atom' needs an operation");
    expect_err("  shfl.u32 r1, r2, 0\n  exit\n", "'shfl' needs a mode");
    expect_err("  vote p1, p0\n  exit\n", "'vote' needs a mode");
    expect_err("  cvt.f32 r1, r2\n  exit\n", "'cvt' needs two types");
    expect_err("  ld.shared.cg.u32 r1, [r2]\n  exit\n", "cache and row hints apply to global loads only");
    expect_err("  ld.shared.rowhint.u32 r1, [r2]\n  exit\n", "cache and row hints apply to global loads only");
    expect_err("  ld.global.v4.u64 {r1, r2, r3, r4}, [r5]\n  exit\n", ".v4 of .u64 is 32 bytes per lane");
    expect_err("  atom.global.add.u16 r1, [r2], 1\n  exit\n", "atomics take 32- or 64-bit types");
    expect_err("  atom.global.min.f32 r1, [r2], 1.0\n  exit\n", ".min is not defined on float types");
}

Test(isa_errors, operand_counts_and_kinds)
{
    expect_err("  add r1, r2\n  exit\n", "t.sasm:1:", "'add' takes 3 operands, got 2", "usage: add rd, a, b");
    expect_err("  exit r1\n", "'exit' takes 0 operands, got 1");
    expect_err("  atom.global.cas.u32 r1, [r2], r3\n  exit\n", "'atom' takes 4 operands, got 3");
    expect_err("  add r1, , r2\n  exit\n", "operand 2 of 'add' is empty");
    expect_err("  add 5, r1, r2\n  exit\n", "expected a register r0..r254, got '5'");
    expect_err("  add r1, %tid.x, 1\n  exit\n", "special register '%tid.x' can only be read by mov");
    expect_err("  add r1, [r2], 1\n  exit\n", "expected a register or an immediate, got '[r2]'");
    expect_err("  ld.global.u32 r1, r2\n  exit\n", "expected an address [reg+offset], got 'r2'");
    expect_err("  ld.global.u32 {r1, r2}, [r3]\n  exit\n", "a register list needs .v2 or .v4");
    expect_err("  st.global.u32 [r1], {r2, r3}\n  exit\n", "a register list needs .v2 or .v4");
    expect_err("  ld.global.v2.u32 r1, [r2]\n  exit\n", "expected a list of 2 registers");
    expect_err("  ld.global.v4.u32 {r1, r2}, [r3]\n  exit\n", "expected 4 registers in '{r1, r2}' for .v4, got 2");
    expect_err("  bra 12\n  exit\n", "expected a label, got '12'");
    expect_err("  setp.lt.u32 !p0, r1, r2\n  exit\n", "a destination predicate cannot be negated");
    expect_err("  setp.lt.u32 q0, r1, r2\n  exit\n", "expected a predicate p0..p7, got 'q0'");
    expect_err("  selp r1, r2, r3, p8\n  exit\n", "predicate 'p8' out of range");
}

Test(isa_errors, registers)
{
    expect_err("  add r1, x5, r2\n  exit\n", "t.sasm:1:", "unknown register 'x5'");
    expect_err("  mov r255, 1\n  exit\n", "register 'r255' out of range (r0..r254)");
    expect_err(".regs 4\n  mov r1, 1\n  add r2, r4, 1\n  exit\n", "t.sasm:3:",
               "register r4 out of range: .regs 4 (line 1) allows r0..r3");
    expect_err("  mov r1, %tidx\n  exit\n", "unknown special register '%tidx'", "did you mean '%tid.x'");
}

Test(isa_errors, immediates)
{
    expect_err("  add r1, r2, 12abc\n  exit\n", "bad immediate '12abc'");
    expect_err("  add r1, r2, 1 2\n  exit\n", "bad immediate '1 2' (unexpected '2': expected '+' or '-' between terms)");
    expect_err("  ld.global.u32 r1, [r2 8]\n  exit\n", "bad immediate 'r2 8' (expected '+' or '-' after the register)");
    expect_err("  add r1, r2, 1+\n  exit\n", "bad immediate '1+' (missing a term)");
    expect_err("  add r1, r2, 4*2\n  exit\n", "bad immediate '4*2' (unexpected '*'");
    expect_err("  add r1, r2, r1+4\n  exit\n", "bad immediate 'r1+4' (a register is not allowed here)");
    expect_err("  add r1, r2, @nope\n  exit\n", "undefined symbol '@nope'");
    expect_err("  add.u32 r1, r2, 0x100000000\n  exit\n", "bad immediate '0x100000000' (out of range for .u32)");
    expect_err("  add.s32 r1, r2, -2147483649\n  exit\n", "out of range for .s32");
    expect_err("  add.u8 r1, r2, 18446744073709551615\n  exit\n", "out of range for .u8");
    expect_err("  add r1, r2, 18446744073709551616\n  exit\n", "bad immediate '18446744073709551616'");
    expect_err("  mov.f32 r1, 0x1ffffffff\n  exit\n", "raw .f32 bits out of range");
    expect_err("  add.f32 r1, r2, 1.5x\n  exit\n", "bad immediate '1.5x' (expected a float");
    expect_err("  add.f32 r1, r2, 1e39\n  exit\n", "bad immediate '1e39' (out of range for .f32)");
    expect_err("  ld.global.u32 r1, [r2+r3]\n  exit\n", "bad address '[r2+r3]' (at most one register, added)");
    expect_err("  ld.global.u32 r1, [8-r3]\n  exit\n", "at most one register, added");
}

Test(isa_errors, labels_and_guards)
{
    expect_err("  bra nowhere\n  exit\n", "t.sasm:1:", "undefined label 'nowhere'");
    expect_err("a:\n  nop\na:\n  exit\n", "t.sasm:3:", "duplicate label 'a' (first defined at line 1)");
    expect_err("  bra end\n  exit\nend:\n", "t.sasm:1:", "branch target 'end' (line 3) is past the last instruction");
    expect_err("1abc: nop\n  exit\n", "bad label '1abc'");
    expect_err("x: .param n\n  exit\n", "a label cannot be attached to a directive");
    expect_err("  @q0 add r1, r1, 1\n  exit\n", "bad guard '@q0'");
    expect_err("  @!p9 add r1, r1, 1\n  exit\n", "bad guard '@!p9'");
    expect_err("  @p0\n  exit\n", "guard '@p0' without an instruction");
    expect_err("  @p0 .param n\n  exit\n", "a directive cannot be predicated");
}

Test(isa_errors, program_shape)
{
    expect_err("// nothing here\n\n", "t.sasm:3:", "empty kernel: no instructions");
    expect_err("  mov r1, 1\n  bra l\nl:\n  add r1, r1, 1\n  bra l\n", "t.sasm:5:", "missing exit");
    expect_err("  mov r1, 1\n  exit\n  add r1, r1, 1\n", "t.sasm:3:", "control runs off the end");
    expect_err("  @p0 exit\n", "t.sasm:1:", "control runs off the end");
}

Test(isa_errors, data_declarations)
{
    expect_err(".data\n  exit\n", "t.sasm:1:", "bad data declaration: missing name");
    expect_err(".data 1x u32[4]\n  exit\n", "bad data declaration: '1x' is not a name");
    expect_err(".data a u32[4]\n.shared a 16\n  exit\n", "t.sasm:2:", "symbol '@a' is already declared");
    expect_err(".data a u32\n  exit\n", "bad data declaration 'a': expected type[count]");
    expect_err(".data a q32[4]\n  exit\n", "unknown element type 'q32'");
    expect_err(".data a u32[0]\n  exit\n", "count '0' must be an integer in 1..2^44");
    expect_err(".data a u32[x]\n  exit\n", "count 'x' must be an integer");
    expect_err(".data a\n  exit\n", "bad data declaration 'a': missing type[count]");
    expect_err(".data a u32[4] foo\n  exit\n", "unexpected text after 'u32[4]'");
    expect_err(".data a u32[4] =  \n  exit\n", "missing initializer after '='");
    /* the initializer itself is checked by memimg; its message keeps file:line */
    expect_err(".data a u32[4] = bogus(x=1)\n  exit\n", "t.sasm:1:", "array 'a'", "bogus");
    expect_err(".data a u32[4] = iota(start=1, stepp=2)\n  exit\n", "t.sasm:1:", "stepp");
}

Test(isa_errors, shared_param_kernel_regs_directives)
{
    expect_err(".shared s\n  exit\n", "bad shared declaration 's': missing size");
    expect_err(".shared s 4 5\n  exit\n", "unexpected text after '4'");
    expect_err(".shared s abc\n  exit\n", "size 'abc' must be a positive byte count");
    expect_err(".shared s 0\n  exit\n", "size '0' must be a positive byte count");
    expect_err(".shared s 2000000000\n  exit\n", "shared memory over");
    expect_err(".shared s u32[0]\n  exit\n", "bad shared declaration 's'", "count '0'");
    expect_err(".param 1x\n  exit\n", "bad param declaration: expected a name, got '1x'");
    expect_err(".param a b\n  exit\n", "bad param declaration 'a': unexpected text");
    expect_err(".param a\n.param a\n  exit\n", "t.sasm:2:", "duplicate param 'a'");
    GString *many = g_string_new(NULL);
    for (int i = 0; i < 33; i++) g_string_append_printf(many, ".param p%d\n", i);
    g_string_append(many, "  exit\n");
    expect_err(many->str, "t.sasm:33:", "more than 32 params");
    g_string_free(many, TRUE);
    expect_err(".param n\n  param r1, 3\n  exit\n", "param index 3 out of range");
    expect_err(".param n\n  param r1, m\n  exit\n", "undefined param 'm'");
    expect_err(".kernel\n  exit\n", "bad .kernel directive: expected one name");
    expect_err(".kernel a\n.kernel b\n  exit\n", "t.sasm:2:", "duplicate .kernel directive");
    expect_err(".regs 0\n  exit\n", "bad .regs directive");
    expect_err(".regs 300\n  exit\n", "bad .regs directive");
    expect_err(".regs 4\n.regs 5\n  exit\n", "duplicate .regs directive");
    expect_err(".dat a u32[4]\n  exit\n", "unknown directive '.dat'", "did you mean '.data'");
}

Test(isa_errors, files)
{
    GError *e = NULL;
    cr_expect_null(isa_program_load_file("/nonexistent/k.sasm", &e));
    cr_assert_not_null(e);
    cr_expect(strstr(e->message, "/nonexistent/k.sasm: cannot read kernel") != NULL, "%s", e->message);
    g_clear_error(&e);

    char *path = NULL;
    int fd = g_file_open_tmp("isa-nul-XXXXXX.sasm", &path, NULL);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, "exit\n\0\n", 7), 7);
    close(fd);
    cr_expect_null(isa_program_load_file(path, &e));
    cr_assert_not_null(e);
    cr_expect(strstr(e->message, "not a text file") != NULL, "%s", e->message);
    g_clear_error(&e);
    g_unlink(path);
    g_free(path);
}

Test(isa_errors, launch_checks)
{
    isa_program *p = load_ok(".param n\n  exit\n");
    isa_launch l;
    GError *e = NULL;
    uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1}, zero[3] = {0, 1, 1}, huge[3] = {1024, 1024, 1};
    uint64_t prm = 5;
    cr_expect_not(isa_launch_init(&l, p, NULL, zero, b, 32, &prm, 1, &e));
    cr_expect(strstr(e->message, "dimensions must be >= 1") != NULL, "%s", e->message);
    g_clear_error(&e);
    cr_expect_not(isa_launch_init(&l, p, NULL, g, huge, 32, &prm, 1, &e));
    cr_expect(strstr(e->message, "1048576 threads per CTA") != NULL, "%s", e->message);
    g_clear_error(&e);
    cr_expect_not(isa_launch_init(&l, p, NULL, g, b, 33, &prm, 1, &e));
    cr_expect(strstr(e->message, "warp size 33") != NULL, "%s", e->message);
    g_clear_error(&e);
    cr_expect_not(isa_launch_init(&l, p, NULL, g, b, 32, NULL, 0, &e));
    cr_expect(strstr(e->message, "takes 1 param, 0 given") != NULL, "%s", e->message);
    g_clear_error(&e);
    cr_expect(isa_launch_init(&l, p, NULL, g, b, 32, &prm, 1, &e));
    isa_program_free(p);
}

Test(isa_errors, shared_fault_at_run_time)
{
    isa_program *p = load_ok(".shared s 64\n"
                             "  mov r0, %tid.x\n"
                             "  shl r0, r0, 2\n"
                             "  st.shared.u32 [r0+@s], 1\n" /* line 4: lane 16 writes offset 64 */
                             "  exit\n");
    GError *e = NULL;
    memimg *m = isa_program_new_memimg(p, 1, &e);
    isa_launch l;
    uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    cr_assert(isa_launch_init(&l, p, m, g, b, 32, NULL, 0, &e));
    cr_expect_not(isa_run_launch(&l, 1000, NULL, &e));
    cr_assert_not_null(e);
    cr_expect_eq(e->code, ISA_ERROR_RUN);
    cr_expect(strstr(e->message, "t.sasm:4: shared memory access out of bounds: offset 64 size 4, the CTA has 64 bytes") != NULL,
              "%s", e->message);
    cr_expect(strstr(e->message, "lane 16") != NULL, "%s", e->message);
    g_error_free(e);
    memimg_free(m);
    isa_program_free(p);
}
