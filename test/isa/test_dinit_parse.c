/* Every error path of the initializer-spec parser and of the argument
 * checks: each message starts with "file:line: array 'name': " and names the
 * initializer and the offending token or argument. */
#include "isa/dinit.h"
#include "test_memimg_util.h"

#define SYNTAX MEMIMG_ERROR_SYNTAX

Test(dinit_parse, accepted_forms)
{
    memimg *m = one_array(0, 4, false, 8, "  iota ( start = 3 ,step= 2 )  ");
    cr_assert_eq(elem(m, 2), 7);
    memimg_free(m);
    m = one_array(0, 4, false, 8, "const(value=0XFF)");
    cr_assert_eq(elem(m, 0), 255);
    memimg_free(m);
    m = one_array(0, 4, false, 8, "iota(start=+5, step=0x10)");
    cr_assert_eq(elem(m, 1), 21);
    memimg_free(m);
    m = one_array(0, 4, true, 8, "const(value=-2.5e-1)");
    cr_assert_eq(elem(m, 0), 0xbe800000u); /* -0.25f */
    memimg_free(m);
    m = one_array(0, 4, false, 8, "\tzero\n");
    cr_assert_eq(elem(m, 0), 0);
    memimg_free(m);
}

Test(dinit_parse, syntax_errors_name_the_column_and_the_token)
{
    EXPECT_ERROR(4, false, 8, "123abc", SYNTAX,
                 "initializer '123abc': column 1: expected an initializer name, got '123abc'");
    EXPECT_ERROR(4, false, 8, "iota start=1", SYNTAX,
                 "column 6: expected '(' or the end after the initializer name, got 'start=1'");
    EXPECT_ERROR(4, false, 8, "iota(", SYNTAX, "column 6: expected an argument name, got 'the end'");
    EXPECT_ERROR(4, false, 8, "iota(=1)", SYNTAX, "column 6: expected an argument name, got '=1)'");
    EXPECT_ERROR(4, false, 8, "iota(start=1,)", SYNTAX, "column 14: expected an argument name, got ')'");
    EXPECT_ERROR(4, false, 8, "iota(start 1)", SYNTAX, "column 12: expected '=' after argument 'start'");
    EXPECT_ERROR(4, false, 8, "iota(start=)", SYNTAX, "expected a value for argument 'start', got ')'");
    EXPECT_ERROR(4, false, 8, "iota(start=1", SYNTAX,
                 "expected ',' or ')' after argument 'start', got 'the end'");
    EXPECT_ERROR(4, false, 8, "iota(start=1; step=2)", SYNTAX,
                 "column 13: expected ',' or ')' after argument 'start', got '; step=2)'");
    EXPECT_ERROR(4, false, 8, "iota(start=1) x", SYNTAX,
                 "column 15: expected the end of the initializer after ')', got 'x'");
    EXPECT_ERROR(4, false, 8,
                 "iota(a=1,b=1,c=1,d=1,e=1,f=1,g=1,h=1,i=1,j=1,k=1,l=1,m=1,n=1,o=1,p=1,q=1)", SYNTAX,
                 "more than 16 arguments");
}

Test(dinit_parse, unknown_initializer_suggests_the_nearest)
{
    EXPECT_ERROR(8, false, 8, "perm_cyc(seed=1)", MEMIMG_ERROR_UNKNOWN_INIT,
                 "unknown initializer 'perm_cyc'; did you mean 'perm_cycle'? (one of: zero, const, iota,");
    EXPECT_ERROR(8, false, 8, "itoa", MEMIMG_ERROR_UNKNOWN_INIT, "did you mean 'iota'?");
    EXPECT_ERROR(8, false, 8, "Zero", MEMIMG_ERROR_UNKNOWN_INIT, "did you mean 'zero'?");
    EXPECT_ERROR(8, false, 8, "csr_edge(vertices=2, degree=4)", MEMIMG_ERROR_UNKNOWN_INIT,
                 "did you mean 'csr_edges'?");
    EXPECT_ERROR(8, false, 8, "xyzzyplugh", MEMIMG_ERROR_UNKNOWN_INIT,
                 "unknown initializer 'xyzzyplugh' (one of:");
}

Test(dinit_parse, nearest_name_by_edit_distance)
{
    static const char *const names[] = {"seed", "stride", "scale", "offset", "addr", NULL};
    cr_assert_str_eq(dinit_nearest("sed", names), "seed");
    cr_assert_str_eq(dinit_nearest("strid", names), "stride");
    cr_assert_str_eq(dinit_nearest("ofset", names), "offset");
    cr_assert_null(dinit_nearest("zzzzzzzz", names));
}

Test(dinit_parse, unknown_repeated_and_missing_arguments)
{
    EXPECT_ERROR(4, false, 8, "iota(strat=1)", MEMIMG_ERROR_UNKNOWN_ARG,
                 "iota: unknown argument 'strat'; did you mean 'start'? (takes: start, step)");
    EXPECT_ERROR(4, false, 8, "iota(banana=1)", MEMIMG_ERROR_UNKNOWN_ARG,
                 "iota: unknown argument 'banana' (takes: start, step)");
    EXPECT_ERROR(4, false, 8, "zero(x=1)", MEMIMG_ERROR_UNKNOWN_ARG,
                 "zero: unknown argument 'x': this initializer takes no arguments");
    EXPECT_ERROR(4, false, 8, "perm_cycle(sed=1)", MEMIMG_ERROR_UNKNOWN_ARG,
                 "perm_cycle: unknown argument 'sed'; did you mean 'seed'?");
    EXPECT_ERROR(4, false, 8, "iota(start=1, start=2)", MEMIMG_ERROR_UNKNOWN_ARG,
                 "iota: argument 'start' is given twice");
    EXPECT_ERROR(4, false, 8, "const", MEMIMG_ERROR_MISSING_ARG, "const: missing argument 'value'");
    EXPECT_ERROR(4, true, 8, "const()", MEMIMG_ERROR_MISSING_ARG, "const: missing argument 'value'");
}

Test(dinit_parse, bad_numbers)
{
    const int bad = MEMIMG_ERROR_BAD_VALUE;
    EXPECT_ERROR(4, false, 8, "iota(start=abc)", bad,
                 "iota: argument 'start': expected an integer (decimal or 0x hex), got 'abc'");
    EXPECT_ERROR(4, false, 8, "iota(step=1.5)", bad, "argument 'step': expected an integer");
    EXPECT_ERROR(4, false, 8, "iota(start=0x)", bad, "got '0x'");
    EXPECT_ERROR(4, false, 8, "iota(start=0xfg)", bad, "got '0xfg'");
    EXPECT_ERROR(4, false, 8, "iota(start=--1)", bad, "got '--1'");
    EXPECT_ERROR(4, false, 8, "iota(start=-)", bad, "got '-'");
    EXPECT_ERROR(4, true, 8, "rand_float(lo=abc)", bad,
                 "rand_float: argument 'lo': expected a finite number, got 'abc'");
    EXPECT_ERROR(4, true, 8, "rand_float(hi=inf)", bad, "argument 'hi': expected a finite number, got 'inf'");
    EXPECT_ERROR(8, true, 8, "iota(step=nan)", bad, "expected a finite number, got 'nan'");
    EXPECT_ERROR(8, true, 8, "iota(step=1.5.2)", bad, "got '1.5.2'");
    EXPECT_ERROR(4, false, 8, "iota(start=99999999999999999999)", MEMIMG_ERROR_RANGE,
                 "argument 'start' = 99999999999999999999 is out of range: does not fit 64 bits");
    EXPECT_ERROR(4, false, 8, "perm_cycle(seed=-1)", MEMIMG_ERROR_RANGE,
                 "argument 'seed' = -1 is out of range: expected 0..18446744073709551615");
}

Test(dinit_parse, values_out_of_range)
{
    const int range = MEMIMG_ERROR_RANGE;
    EXPECT_ERROR(1, false, 8, "const(value=256)", range,
                 "const: argument 'value' = 256 does not fit a 1-byte element (expected -128..255)");
    EXPECT_ERROR(1, false, 8, "const(value=-129)", range, "argument 'value' = -129 does not fit");
    EXPECT_ERROR(4, true, 8, "const(value=1e39)", range, "argument 'value' = 1e39 is out of range");
    EXPECT_ERROR(4, false, 8, "rand_int(lo=5, hi=4)", range, "rand_int: argument 'lo' = 5 is above 'hi' = 4");
    EXPECT_ERROR(4, false, 8, "rand_int(lo=5, hi=-4)", range, "argument 'lo' = 5 is above 'hi' = -4");
    EXPECT_ERROR(1, false, 8, "rand_int(lo=300)", range, "argument 'lo' = 300 does not fit");
    EXPECT_ERROR(8, true, 8, "rand_float(lo=2, hi=2)", range, "argument 'lo' must be below 'hi'");
    EXPECT_ERROR(4, false, 10, "perm_cycle(stride=0)", range,
                 "perm_cycle: argument 'stride' = 0 is out of range: expected 1..10");
    EXPECT_ERROR(4, false, 10, "perm_cycle(stride=11)", range, "argument 'stride' = 11 is out of range");
    EXPECT_ERROR(4, false, 10, "perm_cycle(addr=2)", range, "argument 'addr' = 2 is out of range: expected 0..1");
    /* byte addresses from T_BASE = 0x10000000 need more than 2 bytes */
    EXPECT_ERROR(2, false, 10, "perm_cycle(addr=1)", range, "do not fit a 2-byte element");
    EXPECT_ERROR(1, false, 300, "perm_cycle", range, "values up to offset + scale * 299 do not fit a 1-byte");
    EXPECT_ERROR(4, false, 10, "perm_cycle(addr=1, scale=2)", MEMIMG_ERROR_BAD_VALUE,
                 "argument 'addr' = 1 stores byte addresses", "cannot be combined with 'scale'");
}

Test(dinit_parse, initializer_and_element_kind_must_agree)
{
    EXPECT_ERROR(4, true, 8, "rand_int", MEMIMG_ERROR_LAYOUT, "rand_int: needs an integer array");
    EXPECT_ERROR(4, false, 8, "rand_float", MEMIMG_ERROR_LAYOUT, "rand_float: needs a float array");
    EXPECT_ERROR(8, true, 8, "perm_cycle", MEMIMG_ERROR_LAYOUT, "perm_cycle: needs an integer array");
}
