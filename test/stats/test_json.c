/* The streaming JSON writer: RFC 8259 string escaping, deterministic number
 * formatting, and the compact and indented layouts. Every expected string is
 * written by hand from the rules in json.h. */
#include <criterion/criterion.h>
#include <math.h>

#include "simtgrid/json.h"
#include "test_util.h"

/* Run `body` on a writer over a memory stream; compare the bytes. */
#define EXPECT_JSON(indent, expected, body)                                  \
    do {                                                                     \
        capture c_;                                                          \
        json_writer w_;                                                      \
        json_init(&w_, capture_open(&c_), (indent));                         \
        json_writer *w = &w_;                                                \
        body;                                                                \
        const char *got_ = capture_text(&c_);                                \
        cr_assert_str_eq(got_, (expected));                                  \
        capture_free(&c_);                                                   \
    } while (0)

Test(json, escapes_quote_backslash_and_control_chars)
{
    /* '"' -> \", '\' -> \\, every byte < 0x20 -> \u00xx (lower-case hex);
     * '/' and DEL (0x7f) need no escape in RFC 8259 and are kept. */
    EXPECT_JSON(0, "\"a\\\"b\\\\c\\u000a\\u0009\\u0001\\u001f/\x7f\"",
                json_string(w, "a\"b\\c\n\t\x01\x1f/\x7f"));
    EXPECT_JSON(0, "\"\"", json_string(w, ""));
    EXPECT_JSON(0, "null", json_string(w, NULL));
}

Test(json, keeps_utf8_and_repairs_invalid_bytes)
{
    /* Valid UTF-8 (e, acute: C3 A9) passes through unchanged. A lone 0xFF is
     * not UTF-8; it becomes U+FFFD (EF BF BD) so the document stays valid. */
    EXPECT_JSON(0, "\"caf\xc3\xa9\"", json_string(w, "caf\xc3\xa9"));
    EXPECT_JSON(0, "\"a\xef\xbf\xbd" "b\"", json_string(w, "a\xff" "b"));
}

Test(json, integral_doubles_print_as_integers)
{
    EXPECT_JSON(0, "3", json_double(w, 3.0));
    EXPECT_JSON(0, "-2", json_double(w, -2.0));
    EXPECT_JSON(0, "0", json_double(w, 0.0));
    EXPECT_JSON(0, "0", json_double(w, -0.0));   /* -0 == 0: integral, prints 0 */
    /* 2^53 = 9007199254740992 fits an int64 exactly. */
    EXPECT_JSON(0, "9007199254740992", json_double(w, 9007199254740992.0));
    /* 2^63 does not fit an int64: %.17g, i.e. 9.2233720368547758e+18. */
    EXPECT_JSON(0, "9.2233720368547758e+18", json_double(w, 9223372036854775808.0));
}

Test(json, fractional_doubles_use_17_significant_digits)
{
    EXPECT_JSON(0, "0.5", json_double(w, 0.5));   /* exact in binary */
    EXPECT_JSON(0, "1.25", json_double(w, 1.25));
    /* 0.1 is 0.1000000000000000055511... in binary: 17 digits show it. */
    EXPECT_JSON(0, "0.10000000000000001", json_double(w, 0.1));
    /* 1e-5 is 1.00000000000000008180...e-05. */
    EXPECT_JSON(0, "1.0000000000000001e-05", json_double(w, 1e-5));
    EXPECT_JSON(0, "-0.75", json_double(w, -0.75));
}

Test(json, non_finite_doubles_are_null)
{
    EXPECT_JSON(0, "null", json_double(w, NAN));
    EXPECT_JSON(0, "null", json_double(w, INFINITY));
    EXPECT_JSON(0, "null", json_double(w, -INFINITY));
    char buf[JSON_DOUBLE_BUF];
    cr_assert_eq(json_format_double(buf, NAN), 4);
    cr_assert_str_eq(buf, "null");
}

Test(json, format_double_reports_length)
{
    char buf[JSON_DOUBLE_BUF];
    cr_assert_eq(json_format_double(buf, 42.0), 2);
    cr_assert_str_eq(buf, "42");
    /* Longest form: sign, 17 digits, point, e-308: "-2.2250738585072014e-308" */
    cr_assert_eq(json_format_double(buf, -2.2250738585072014e-308), 24);
    cr_assert_str_eq(buf, "-2.2250738585072014e-308");
}

Test(json, integers_full_range)
{
    EXPECT_JSON(0, "18446744073709551615", json_uint(w, UINT64_MAX));
    EXPECT_JSON(0, "-9223372036854775808", json_int(w, INT64_MIN));
    EXPECT_JSON(0, "true", json_bool(w, true));
    EXPECT_JSON(0, "false", json_bool(w, false));
    EXPECT_JSON(0, "null", json_null(w));
}

/* One document used by the layout tests:
 * {"a": [1, {"b": null}, []], "c": {}, "d": true, "e": "x", "f": -5} */
static void nested_doc(json_writer *w)
{
    json_begin_object(w);
    json_key(w, "a");
    json_begin_array(w);
    json_uint(w, 1);
    json_begin_object(w);
    json_key(w, "b");
    json_null(w);
    json_end_object(w);
    json_begin_array(w);
    json_end_array(w);
    json_end_array(w);
    json_key(w, "c");
    json_begin_object(w);
    json_end_object(w);
    json_kv_bool(w, "d", true);
    json_kv_string(w, "e", "x");
    json_kv_int(w, "f", -5);
    json_end_object(w);
    json_end(w);
}

Test(json, nested_compact)
{
    EXPECT_JSON(0, "{\"a\":[1,{\"b\":null},[]],\"c\":{},\"d\":true,\"e\":\"x\",\"f\":-5}\n",
                nested_doc(w));
}

Test(json, nested_indent_2)
{
    /* One member or element per line, two spaces per level, empty containers
     * stay {} and [] on one line, "key": value with one space. */
    const char *expected =
        "{\n"
        "  \"a\": [\n"
        "    1,\n"
        "    {\n"
        "      \"b\": null\n"
        "    },\n"
        "    []\n"
        "  ],\n"
        "  \"c\": {},\n"
        "  \"d\": true,\n"
        "  \"e\": \"x\",\n"
        "  \"f\": -5\n"
        "}\n";
    EXPECT_JSON(2, expected, nested_doc(w));
}

Test(json, top_level_array_indent_4)
{
    const char *expected =
        "[\n"
        "    1.5,\n"
        "    \"s\",\n"
        "    [\n"
        "        2\n"
        "    ]\n"
        "]\n";
    EXPECT_JSON(4, expected, {
        json_begin_array(w);
        json_double(w, 1.5);
        json_string(w, "s");
        json_begin_array(w);
        json_uint(w, 2);
        json_end_array(w);
        json_end_array(w);
        json_end(w);
    });
}

Test(json, keys_are_escaped_and_kv_helpers)
{
    EXPECT_JSON(0, "{\"k\\\"1\":\"v\",\"n\":7,\"x\":0.25,\"i\":-1,\"b\":false}", {
        json_begin_object(w);
        json_kv_string(w, "k\"1", "v");
        json_kv_uint(w, "n", 7);
        json_kv_double(w, "x", 0.25);
        json_kv_int(w, "i", -1);
        json_kv_bool(w, "b", false);
        json_end_object(w);
    });
}

Test(json, end_inside_container_writes_nothing)
{
    /* json_end only adds the final newline once the document is closed. */
    EXPECT_JSON(0, "[1", {
        json_begin_array(w);
        json_uint(w, 1);
        json_end(w);
    });
}

Test(json, unbalanced_end_does_not_underflow)
{
    /* A stray end still writes its bracket and leaves depth at 0, so the
     * following json_end writes the newline rather than corrupting state. */
    EXPECT_JSON(0, "{}}\n", {
        json_begin_object(w);
        json_end_object(w);
        json_end_object(w);
        json_end(w);
    });
}

Test(json, negative_indent_is_compact)
{
    EXPECT_JSON(-3, "[1,2]", {
        json_begin_array(w);
        json_uint(w, 1);
        json_uint(w, 2);
        json_end_array(w);
    });
}

Test(json, nesting_past_64_levels_stays_in_bounds)
{
    /* 70 levels: past the 64 comma slots (json.h supports 63 levels). The
     * writer must not index past need_comma[] (ASan checks) and this simple
     * shape, one element then the next array, still comes out valid. */
    capture c;
    json_writer w;
    json_init(&w, capture_open(&c), 1);
    for (int i = 0; i < 70; i++) {
        json_begin_array(&w);
        json_uint(&w, (uint64_t)i);
    }
    for (int i = 0; i < 70; i++)
        json_end_array(&w);
    json_end(&w);
    const char *text = capture_text(&c);
    cr_assert(json_valid(text), "%s", text);
    capture_free(&c);
}

Test(json, quoted_helper_matches_string)
{
    capture c;
    json_write_quoted(capture_open(&c), "t\r");
    json_write_quoted(c.f, NULL);
    cr_assert_str_eq(capture_text(&c), "\"t\\u000d\"null");
    capture_free(&c);
}

Test(json, syntax_checker_used_by_tests_is_strict)
{
    /* The tests' json_valid must reject what a broken writer could emit. */
    const char *bad[] = {"{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "\"\x01\"", "01", "1.",
                         "-", "1e", "[1 2]", "{1:2}", "nul", "\"\\x\"", "\"\\u12g4\"", "[] []",
                         ""};
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_assert_not(json_valid(bad[i]), "accepted %s", bad[i]);
    const char *good[] = {"{}", "[]", " [1, -0.5e+3, \"\\u00e9\\n\", true, false, null] ",
                          "{\"a\":{\"b\":[{}]}}", "0", "-0", "1E5"};
    for (unsigned i = 0; i < sizeof good / sizeof *good; i++)
        cr_assert(json_valid(good[i]), "rejected %s", good[i]);
}
