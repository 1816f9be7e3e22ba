/* Model files: include/override precedence, relative includes, include
 * cycles, and every error path of the key-file reader and the model loader. */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scen_test_util.h"
#include "scenario/scenario_internal.h"

/* ---- precedence with the fixtures in models/test -------------------------
 * top.ini includes mid.ini (which includes base.ini) then extra.ini, then
 * sets its own keys. Expected values and where they come from (line numbers
 * counted in the fixture files):
 *   clock.core_mhz  base:8 = 1000, overridden by top:6 = 1500
 *   clock.icnt_mhz  base:9 = 700, overridden by mid:6 = 800
 *   clock.l2_mhz    base:10 = 700
 *   clock.dram_mhz  default 1000
 *   sim.seed        base:13 = 5
 *   sim.max_cycles  base:14 = 100, overridden by extra:3 = 200 (extra.ini is
 *                   applied after mid.ini, so after base.ini too)
 *   sim.verbose     extra:4 = true */
static void assert_origin(const config *c, const char *key, const char *file, int line)
{
    char *want = g_strdup_printf("%s:%d", file, line);
    cr_assert_str_eq(cfg_origin(c, key), want, "origin of %s", key);
    g_free(want);
}

Test(model, include_and_override_precedence)
{
    char *top = src_path("models/test/top.ini");
    char *dir = g_path_get_dirname(top);
    char *base = g_build_filename(dir, "base.ini", NULL), *mid = g_build_filename(dir, "mid.ini", NULL),
         *extra = g_build_filename(dir, "extra.ini", NULL);
    config *c = config_new();
    GError *err = NULL;
    cr_assert(model_load(c, top, &err), "%s", err ? err->message : "");
    cr_assert_eq(cfg_float(c, "clock.core_mhz"), 1500.0);
    assert_origin(c, "clock.core_mhz", top, 6);
    cr_assert_eq(cfg_float(c, "clock.icnt_mhz"), 800.0);
    assert_origin(c, "clock.icnt_mhz", mid, 6);
    cr_assert_eq(cfg_float(c, "clock.l2_mhz"), 700.0);
    assert_origin(c, "clock.l2_mhz", base, 10);
    cr_assert_eq(cfg_float(c, "clock.dram_mhz"), 1000.0);
    cr_assert_str_eq(cfg_origin(c, "clock.dram_mhz"), "default");
    cr_assert_eq(cfg_int(c, "sim.seed"), 5);
    assert_origin(c, "sim.seed", base, 13);
    cr_assert_eq(cfg_int(c, "sim.max_cycles"), 200);
    assert_origin(c, "sim.max_cycles", extra, 3);
    cr_assert(cfg_bool(c, "sim.verbose"));
    config_free(c);

    /* mid.ini alone: base values except its own clock */
    c = config_new();
    cr_assert(model_load(c, mid, &err));
    cr_assert_eq(cfg_float(c, "clock.core_mhz"), 1000.0);
    assert_origin(c, "clock.core_mhz", base, 8);
    cr_assert_eq(cfg_float(c, "clock.icnt_mhz"), 800.0);
    cr_assert_eq(cfg_int(c, "sim.max_cycles"), 100);
    cr_assert_not(cfg_bool(c, "sim.verbose"));
    config_free(c);
    g_free(top), g_free(dir), g_free(base), g_free(mid), g_free(extra);
}

/* Load dir/name written with `text`; expect the message with every "@" in
 * `expected` replaced by the folder. */
static void expect_model_error(const char *text, const char *expected)
{
    char *dir = tmp_dir();
    char *path = write_file(dir, "m.ini", text);
    config *c = config_new();
    GError *err = NULL;
    bool ok = model_load(c, path, &err);
    char **parts = g_strsplit(expected, "@", -1);
    char *want = g_strjoinv(dir, parts);
    assert_error(ok, err, want);
    g_strfreev(parts);
    g_free(want);
    config_free(c);
    g_free(path);
    rm_tree(dir);
    g_free(dir);
}

Test(model_errors, unknown_group_and_keys)
{
    expect_model_error("[clok]\ncore_mhz = 1\n", "@/m.ini:1: unknown group [clok] (did you mean [clock]?)");
    expect_model_error("[clock]\ncore_mhz = 1\n\n[modle]\ninclude = x.ini\n",
                       "@/m.ini:4: unknown group [modle] (did you mean [model]?)");
    /* a parameter name is not a group */
    expect_model_error("[clock.core_mhz]\nx = 1\n", "@/m.ini:1: unknown group [clock.core_mhz] (did you mean [clock]?)");
    expect_model_error("[clock]\ncore_mhx = 5\n",
                       "@/m.ini:2: [clock] key 'clock.core_mhx': unknown parameter (did you mean 'clock.core_mhz'?)");
    expect_model_error("# c\n[model]\nincude = x.ini\n",
                       "@/m.ini:3: [model] key 'incude': unknown key (did you mean 'include'?)");
}

Test(model_errors, bad_values)
{
    expect_model_error("[sim]\nseed = x\n",
                       "@/m.ini:2: [sim] key 'sim.seed': expected an integer from 0 to 9007199254740991, got 'x'");
    expect_model_error("[sim]\nmax_cycles = 1.5\n",
                       "@/m.ini:2: [sim] key 'sim.max_cycles': expected an integer from 0 to 9007199254740991, got '1.5'");
    expect_model_error("[clock]\nl2_mhz = 20000\n",
                       "@/m.ini:2: [clock] key 'clock.l2_mhz': expected a number from 1 to 10000, got '20000' (out of range)");
    expect_model_error("[clock]\nl2_mhz = 1 GHz\n",
                       "@/m.ini:2: [clock] key 'clock.l2_mhz': expected a number from 1 to 10000, got '1 GHz'");
    expect_model_error("[sim]\nverbose = 2\n",
                       "@/m.ini:2: [sim] key 'sim.verbose': expected true or false (or yes/no, on/off, 1/0), got '2'");
    expect_model_error("[sim]\non_limit = halt\n",
                       "@/m.ini:2: [sim] key 'sim.on_limit': expected one of stop, fail, got 'halt'");
    /* inline comments are not comments in key files: the text is the value */
    expect_model_error("[sim]\nseed = 3 # three\n",
                       "@/m.ini:2: [sim] key 'sim.seed': expected an integer from 0 to 9007199254740991, got '3 # three'");
}

Test(model_errors, syntax)
{
    expect_model_error("[clock]\ncore_mhz 5\n",
                       "@/m.ini:2: expected 'key = value', '[group]' or a '#' comment, got 'core_mhz 5'");
    expect_model_error("[clock]\n= 5\n", "@/m.ini:2: expected 'key = value', '[group]' or a '#' comment, got '= 5'");
    expect_model_error("core_mhz = 5\n[clock]\n",
                       "@/m.ini:1: key 'core_mhz' comes before any group: expected a '[group]' line first");
    expect_model_error("\n[clock\n", "@/m.ini:2: expected a group header like '[name]', got '[clock'");
    expect_model_error("[]\n", "@/m.ini:1: expected a group header like '[name]', got '[]'");
    expect_model_error("[clock] x\n", "@/m.ini:1: expected a group header like '[name]', got '[clock] x'");
    expect_model_error("[a[b]\n", "@/m.ini:1: expected a group header like '[name]', got '[a[b]'");
    expect_model_error("[clock]\ncore[x] = 5\n", "@/m.ini:2: bad key 'core[x]': expected a name without '[' or ']'");
    expect_model_error("[clock]\ncore_mhz = 1\n[sim]\nseed = 1\n[clock]\nl2_mhz = 5\n",
                       "@/m.ini:5: group [clock] appears again (first at line 1): expected each group once");
    expect_model_error("[clock]\ncore_mhz = 1\ncore_mhz = 2\n",
                       "@/m.ini:3: [clock] key 'core_mhz' is set again (first at line 2): expected each key once");
    expect_model_error("[clock]\n# caf\xe9\n", "@/m.ini:2: invalid UTF-8: expected UTF-8 text");
}

Test(model_errors, bad_escape_names_line)
{
    char *dir = tmp_dir();
    char *path = write_file(dir, "m.ini", "[clock]\ncore_mhz = 1\\q\n");
    config *c = config_new();
    GError *err = NULL;
    cr_assert_not(model_load(c, path, &err));
    /* GLib 2.74 keeps an unknown escape verbatim (then the number is bad);
     * GLib versions that refuse it give their own wording after the key. */
    char *prefix = g_strdup_printf("%s:2: [clock] key '", path);
    cr_assert(g_str_has_prefix(err->message, prefix), "%s", err->message);
    cr_assert_not_null(strstr(err->message, "\\q"), "%s", err->message);
    g_clear_error(&err);
    g_free(prefix);
    config_free(c);
    g_free(path);
    rm_tree(dir);
    g_free(dir);
}

Test(model_errors, nul_byte)
{
    char *dir = tmp_dir();
    char *path = g_build_filename(dir, "m.ini", NULL);
    static const char text[] = "[clock]\ncore_mhz = 1\n\0\n";   /* NUL on line 3 */
    cr_assert(g_file_set_contents(path, text, sizeof text - 1, NULL));
    config *c = config_new();
    GError *err = NULL;
    bool ok = model_load(c, path, &err);
    char *want = g_strdup_printf("%s:3: unexpected NUL byte: expected a text file", path);
    assert_error(ok, err, want);
    g_free(want);
    config_free(c);
    g_free(path);
    rm_tree(dir);
    g_free(dir);
}

Test(model_errors, unreadable_files)
{
    char *dir = tmp_dir();
    char *missing = g_build_filename(dir, "none.ini", NULL);
    config *c = config_new();
    GError *err = NULL;
    bool ok = model_load(c, missing, &err);
    char *want = g_strdup_printf("%s: cannot read file (No such file or directory)", missing);
    assert_error(ok, err, want);
    g_free(want);
    ok = model_load(c, dir, &err);
    want = g_strdup_printf("%s: cannot read file (it is a directory)", dir);
    assert_error(ok, err, want);
    g_free(want);
    /* no permission (meaningless as root, who reads anything) */
    char *locked = write_file(dir, "locked.ini", "[sim]\nseed = 2\n");
    chmod(locked, 0);
    if (access(locked, R_OK) != 0) {
        ok = model_load(c, locked, &err);
        want = g_strdup_printf("%s: cannot read file (Permission denied)", locked);
        assert_error(ok, err, want);
        g_free(want);
    }
    config_free(c);
    g_free(missing);
    g_free(locked);
    rm_tree(dir);
    g_free(dir);
}

Test(model_errors, missing_include_names_including_line)
{
    expect_model_error("[model]\nname = x\ninclude = nothere.ini\n",
                       "@/m.ini:3: [model] key 'include': cannot read '@/nothere.ini' (No such file or directory)");
    expect_model_error("[model]\ninclude =\n",
                       "@/m.ini:2: [model] key 'include': expected one or more comma-separated model files, got ''");
    expect_model_error("[model]\ninclude = a.ini,,b.ini\n",
                       "@/m.ini:2: [model] key 'include': expected one or more comma-separated model files, got 'a.ini,,b.ini'");
}

Test(model_errors, error_inside_included_file)
{
    char *dir = tmp_dir();
    write_file(dir, "inc/base.ini", "[sim]\n\nseed = -4\n");
    char *top = write_file(dir, "top.ini", "[model]\ninclude = inc/base.ini\n");
    config *c = config_new();
    GError *err = NULL;
    bool ok = model_load(c, top, &err);
    char *want = g_strdup_printf("%s/inc/base.ini:3: [sim] key 'sim.seed': expected an integer from 0 to "
                                 "9007199254740991, got '-4' (out of range)", dir);
    assert_error(ok, err, want);
    g_free(want);
    config_free(c);
    g_free(top);
    rm_tree(dir);
    g_free(dir);
}

Test(model_errors, include_cycles)
{
    char *dir = tmp_dir();
    char *a = write_file(dir, "a.ini", "[model]\ninclude = b.ini\n");
    write_file(dir, "b.ini", "# b\n[model]\ninclude = a.ini\n");
    char *self = write_file(dir, "self.ini", "[model]\ninclude = self.ini\n");
    config *c = config_new();
    GError *err = NULL;
    /* a -> b -> a: found while b.ini (line 3) includes a.ini */
    bool ok = model_load(c, a, &err);
    char *want = g_strdup_printf("%s/b.ini:3: [model] key 'include': include cycle: %s/a.ini -> %s/b.ini -> %s/a.ini",
                                 dir, dir, dir, dir);
    assert_error(ok, err, want);
    g_free(want);
    ok = model_load(c, self, &err);
    want = g_strdup_printf("%s:2: [model] key 'include': include cycle: %s -> %s", self, self, self);
    assert_error(ok, err, want);
    g_free(want);
    config_free(c);
    g_free(a);
    g_free(self);
    rm_tree(dir);
    g_free(dir);
}

Test(model, relative_includes_and_diamonds)
{
    /* top includes sub/left.ini and sub/right.ini; both include ../common.ini
     * (relative to sub/); including the same file twice is not a cycle.
     * common sets seed 3 and max_cycles 10; left sets max_cycles 20; right
     * sets seed 4; common is applied again by right, before right's own keys:
     * max_cycles goes 10 (common), 20 (left), 10 (common again) and seed ends
     * at 4 (right). top then sets core_mhz. */
    char *dir = tmp_dir();
    write_file(dir, "common.ini", "[sim]\nseed = 3\nmax_cycles = 10\n");
    write_file(dir, "sub/left.ini", "[model]\ninclude = ../common.ini\n[sim]\nmax_cycles = 20\n");
    write_file(dir, "sub/right.ini", "[model]\ninclude = ../common.ini\n[sim]\nseed = 4\n");
    char *top = write_file(dir, "top.ini", "[model]\ninclude = sub/left.ini, sub/right.ini\n[clock]\ncore_mhz = 1200\n");
    config *c = config_new();
    GError *err = NULL;
    cr_assert(model_load(c, top, &err), "%s", err ? err->message : "");
    cr_assert_eq(cfg_int(c, "sim.seed"), 4);
    cr_assert_eq(cfg_int(c, "sim.max_cycles"), 10);
    cr_assert_eq(cfg_float(c, "clock.core_mhz"), 1200.0);
    char *want = g_strdup_printf("%s/sub/../common.ini:3", dir);
    cr_assert_str_eq(cfg_origin(c, "sim.max_cycles"), want);
    g_free(want);
    config_free(c);
    g_free(top);
    rm_tree(dir);
    g_free(dir);
}

Test(model, tolerant_layout)
{
    /* CRLF line ends, indentation, blank lines, comments, blanks around '=' */
    char *dir = tmp_dir();
    char *p = write_file(dir, "m.ini", "\r\n# comment\r\n  [clock]  \r\n\t core_mhz   =  1200  \r\n   # indented comment\r\n");
    config *c = config_new();
    GError *err = NULL;
    cr_assert(model_load(c, p, &err), "%s", err ? err->message : "");
    cr_assert_eq(cfg_float(c, "clock.core_mhz"), 1200.0);
    char *want = g_strdup_printf("%s:4", p);
    cr_assert_str_eq(cfg_origin(c, "clock.core_mhz"), want);
    g_free(want);
    config_free(c);
    g_free(p);
    rm_tree(dir);
    g_free(dir);
}

Test(keyfile, split_and_resolve)
{
    char **v = kf_split_list(" a , b,c ");
    cr_assert_eq(g_strv_length(v), 3);
    cr_assert_str_eq(v[0], "a");
    cr_assert_str_eq(v[1], "b");
    cr_assert_str_eq(v[2], "c");
    g_strfreev(v);
    v = kf_split_list("   ");
    cr_assert_eq(g_strv_length(v), 0);
    g_strfreev(v);
    cr_assert_null(kf_split_list("a,"));
    cr_assert_null(kf_split_list(",a"));
    char *r = kf_resolve_path("x/y/s.ini", "k.sasm");
    cr_assert_str_eq(r, "x/y/k.sasm");
    g_free(r);
    r = kf_resolve_path("s.ini", "k.sasm");
    cr_assert_str_eq(r, "k.sasm");
    g_free(r);
    r = kf_resolve_path("x/s.ini", "/abs/k.sasm");
    cr_assert_str_eq(r, "/abs/k.sasm");
    g_free(r);
}
