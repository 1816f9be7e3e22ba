/* Configurations: defaults, typed reads, config_set and its errors, copies,
 * origins, the JSON echo, and the programming errors that abort. */
#include <signal.h>
#include <stdio.h>

#include "scen_test_util.h"
#include "simtgrid/json.h"

Test(config, defaults_from_table)
{
    config *c = config_new();
    /* defaults as written in src/des/params.def and src/scenario/params.def */
    cr_assert_eq(cfg_float(c, "clock.core_mhz"), 1000.0);
    cr_assert_eq(cfg_int(c, "sim.seed"), 1);
    /* The documented default cycle limit (docs/scenarios.md, "Limits"). */
    cr_assert_eq(cfg_int(c, "sim.max_cycles"), 1000000000);
    cr_assert(cfg_is(c, "sim.on_limit", "stop"));
    cr_assert_not(cfg_bool(c, "sim.verbose"));
    cr_assert_str_eq(cfg_origin(c, "clock.core_mhz"), "default");
    cr_assert_str_eq(cfg_str(c, "clock.core_mhz"), "1000");
    cr_assert_str_eq(cfg_str(c, "sim.on_limit"), "stop");
    cr_assert_str_eq(cfg_str(c, "sim.verbose"), "false");
    config_free(c);
}

Test(config, set_each_type)
{
    config *c = config_new();
    GError *err = NULL;
    cr_assert(config_set(c, "clock.core_mhz", "1500.5", "a.ini:3", &err));
    cr_assert(config_set(c, "sim.seed", "0x10", "a.ini:4", &err));
    cr_assert(config_set(c, "sim.on_limit", "fail", "--set", &err));
    cr_assert(config_set(c, "sim.verbose", "yes", "b.ini:9", &err));
    cr_assert_null(err);
    cr_assert_eq(cfg_float(c, "clock.core_mhz"), 1500.5);
    cr_assert_eq(cfg_int(c, "sim.seed"), 16);
    cr_assert(cfg_is(c, "sim.on_limit", "fail"));
    cr_assert_not(cfg_is(c, "sim.on_limit", "stop"));
    cr_assert(cfg_bool(c, "sim.verbose"));
    /* canonical text, whatever was written */
    cr_assert_str_eq(cfg_str(c, "sim.seed"), "16");
    cr_assert_str_eq(cfg_str(c, "sim.verbose"), "true");
    cr_assert_str_eq(cfg_origin(c, "clock.core_mhz"), "a.ini:3");
    cr_assert_str_eq(cfg_origin(c, "sim.on_limit"), "--set");
    cr_assert_str_eq(cfg_origin(c, "sim.verbose"), "b.ini:9");
    /* the last set wins */
    cr_assert(config_set(c, "clock.core_mhz", "700", "c.ini:1", &err));
    cr_assert_eq(cfg_float(c, "clock.core_mhz"), 700.0);
    cr_assert_str_eq(cfg_origin(c, "clock.core_mhz"), "c.ini:1");
    config_free(c);
}

Test(config, set_errors)
{
    config *c = config_new();
    GError *err = NULL;
    bool ok = config_set(c, "clock.core_mhx", "1", "m.ini:2", &err);
    assert_error(ok, err, "m.ini:2: key 'clock.core_mhx': unknown parameter (did you mean 'clock.core_mhz'?)");
    ok = config_set(c, "sim.seed", "abc", "m.ini:3", &err);
    assert_error(ok, err, "m.ini:3: key 'sim.seed': expected an integer from 0 to 9007199254740991, got 'abc'");
    ok = config_set(c, "sim.seed", "-1", "m.ini:3", &err);
    assert_error(ok, err,
                 "m.ini:3: key 'sim.seed': expected an integer from 0 to 9007199254740991, got '-1' (out of range)");
    ok = config_set(c, "clock.core_mhz", "fast", "m.ini:4", &err);
    assert_error(ok, err, "m.ini:4: key 'clock.core_mhz': expected a number from 1 to 10000, got 'fast'");
    ok = config_set(c, "clock.core_mhz", "0.5", "m.ini:4", &err);
    assert_error(ok, err, "m.ini:4: key 'clock.core_mhz': expected a number from 1 to 10000, got '0.5' (out of range)");
    ok = config_set(c, "sim.verbose", "sometimes", "m.ini:5", &err);
    assert_error(ok, err,
                 "m.ini:5: key 'sim.verbose': expected true or false (or yes/no, on/off, 1/0), got 'sometimes'");
    ok = config_set(c, "sim.on_limit", "abort", "m.ini:6", &err);
    assert_error(ok, err, "m.ini:6: key 'sim.on_limit': expected one of stop, fail, got 'abort'");
    /* a refused value changes nothing */
    cr_assert_eq(cfg_int(c, "sim.seed"), 1);
    cr_assert_eq(cfg_float(c, "clock.core_mhz"), 1000.0);
    cr_assert_str_eq(cfg_origin(c, "clock.core_mhz"), "default");
    config_free(c);
}

Test(config, copy_is_independent)
{
    config *a = config_new();
    GError *err = NULL;
    cr_assert(config_set(a, "sim.max_cycles", "500", "a.ini:1", &err));
    config *b = config_copy(a);
    cr_assert_eq(cfg_int(b, "sim.max_cycles"), 500);
    cr_assert_str_eq(cfg_origin(b, "sim.max_cycles"), "a.ini:1");
    cr_assert(config_set(b, "sim.max_cycles", "9", "b.ini:1", &err));
    cr_assert_eq(cfg_int(a, "sim.max_cycles"), 500);
    cr_assert_str_eq(cfg_origin(a, "sim.max_cycles"), "a.ini:1");
    cr_assert_eq(cfg_int(b, "sim.max_cycles"), 9);
    config_free(a);
    config_free(b);
    config_free(NULL);
}

static char *json_of(const config *c, void (*write)(const config *, struct json_writer *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json_writer w;
    json_init(&w, f, 0);
    write(c, &w);
    json_end(&w);
    fclose(f);
    return buf;
}

Test(config, json_echo)
{
    config *c = config_new();
    GError *err = NULL;
    cr_assert(config_set(c, "clock.core_mhz", "1500.5", "a.ini:2", &err));
    cr_assert(config_set(c, "sim.verbose", "on", "--set", &err));
    char *out = json_of(c, config_write_json);
    /* typed values, table order: des clock keys come first */
    cr_assert(g_str_has_prefix(out, "{\"clock.core_mhz\":1500.5,\"clock.icnt_mhz\":1000,"), "%s", out);
    cr_assert_not_null(strstr(out, "\"sim.seed\":1,\"sim.max_cycles\":1000000000,\"sim.on_limit\":\"stop\",\"sim.verbose\":true"));
    unsigned keys = 0;
    for (const char *p = out; *p; p++)
        keys += *p == ':';
    cr_assert_eq(keys, param_table_len);   /* no ':' inside these values */
    free(out);
    out = json_of(c, config_write_json_origins);
    cr_assert_str_eq(out, "{\"clock.core_mhz\":\"a.ini:2\",\"sim.verbose\":\"--set\"}\n");
    free(out);
    config_free(c);
}

Test(config, error_quark)
{
    cr_assert_eq(SIMTGRID_ERROR, g_quark_from_string("simtgrid-error-quark"));
}

/* Programming errors abort through g_error (a breakpoint trap). */
Test(config_abort, unknown_key, .signal = SIGTRAP)
{
    config *c = config_new();
    cfg_int(c, "no.such_key");
}

Test(config_abort, wrong_type, .signal = SIGTRAP)
{
    config *c = config_new();
    cfg_int(c, "clock.core_mhz");   /* a float */
}

Test(config_abort, wrong_type_enum, .signal = SIGTRAP)
{
    config *c = config_new();
    cfg_is(c, "sim.verbose", "true");     /* a bool */
}

Test(config_abort, enum_word_not_a_choice, .signal = SIGTRAP)
{
    config *c = config_new();
    cfg_is(c, "sim.on_limit", "halt");   /* not stop or fail: a programming error */
}
