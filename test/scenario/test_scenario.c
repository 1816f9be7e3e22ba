/* Scenario files: the fixture workloads/test/basic.ini (every section),
 * precedence of [scenario] seed, [set] and --set, sweep expansion, defaults. */
#include "scen_test_util.h"
#include "simtgrid/scenario.h"

static scenario *load_basic(char *const *sets, char **path_out)
{
    char *path = src_path("workloads/test/basic.ini");
    GError *err = NULL;
    scenario *s = scenario_load(path, sets, &err);
    cr_assert_not_null(s, "%s", err ? err->message : "");
    if (path_out)
        *path_out = path;
    else
        g_free(path);
    return s;
}

static void assert_at(const char *got, const char *file, int line)
{
    char *want = g_strdup_printf("%s:%d", file, line);
    cr_assert_str_eq(got, want);
    g_free(want);
}

/* Line numbers below are counted in workloads/test/basic.ini. */
Test(scenario, basic_fixture)
{
    char *path;
    scenario *s = load_basic(NULL, &path);
    char *dir = g_path_get_dirname(path);
    cr_assert_str_eq(s->name, "basic");
    cr_assert_str_eq(s->path, path);
    char *model = g_build_filename(dir, "../../models/test/top.ini", NULL);
    cr_assert_str_eq(s->model_path, model);

    /* [scenario] seed = 7 (line 5) beats base.ini's 5 */
    cr_assert_eq(s->seed, 7);
    cr_assert_eq(cfg_int(s->cfg, "sim.seed"), 7);
    assert_at(cfg_origin(s->cfg, "sim.seed"), path, 5);
    /* [set] beats the model: l2 900 (line 8) over base's 700; max_cycles 300 (line 9) over extra's 200 */
    cr_assert_eq(cfg_float(s->cfg, "clock.l2_mhz"), 900.0);
    assert_at(cfg_origin(s->cfg, "clock.l2_mhz"), path, 8);
    cr_assert_eq(cfg_int(s->cfg, "sim.max_cycles"), 300);
    assert_at(cfg_origin(s->cfg, "sim.max_cycles"), path, 9);
    /* the model's own values stay where nothing overrides them */
    cr_assert_eq(cfg_float(s->cfg, "clock.core_mhz"), 1500.0);
    cr_assert_eq(cfg_float(s->cfg, "clock.icnt_mhz"), 800.0);

    cr_assert_eq(s->nlaunches, 3);
    char *kernel = g_build_filename(dir, "noop.sasm", NULL);
    const launch *l = &s->launches[0];
    cr_assert_str_eq(l->name, "first");
    cr_assert_str_eq(l->kernel, kernel);
    cr_assert_eq(l->grid[0], 4); cr_assert_eq(l->grid[1], 1); cr_assert_eq(l->grid[2], 1);
    cr_assert_eq(l->block[0], 128); cr_assert_eq(l->block[1], 2); cr_assert_eq(l->block[2], 1);
    cr_assert_eq(l->sm_first, -1); cr_assert_eq(l->sm_last, -1);
    cr_assert_null(l->sms); cr_assert_eq(l->nsms, 0);
    cr_assert_eq(l->start, 0); cr_assert_null(l->after); cr_assert_eq(l->nargs, 0);
    assert_at(l->origin, path, 11);

    l = &s->launches[1];
    cr_assert_str_eq(l->name, "second");
    cr_assert_eq(l->grid[0], 2); cr_assert_eq(l->grid[1], 3); cr_assert_eq(l->grid[2], 4);
    cr_assert_eq(l->block[0], 32); cr_assert_eq(l->block[1], 1);
    /* sms = 7, 0-3, 2: sorted, 2 once */
    static const unsigned sms[] = {0, 1, 2, 3, 7};
    cr_assert_eq(l->nsms, 5);
    for (unsigned i = 0; i < 5; i++)
        cr_assert_eq(l->sms[i], sms[i]);
    cr_assert_eq(l->sm_first, 0); cr_assert_eq(l->sm_last, 7);
    cr_assert_str_eq(l->after, "first");
    cr_assert_eq(l->nargs, 3);
    cr_assert_eq(l->args[0], 1); cr_assert_eq(l->args[1], -2); cr_assert_eq(l->args[2], 16);

    l = &s->launches[2];
    cr_assert_str_eq(l->name, "third");
    cr_assert_eq(l->start, 5000); cr_assert_null(l->after);

    cr_assert_eq(s->naxes, 2);
    cr_assert_str_eq(s->axes[0].key, "clock.core_mhz");
    cr_assert_eq(s->axes[0].nvalues, 2);
    cr_assert_str_eq(s->axes[0].values[0], "1000");
    cr_assert_str_eq(s->axes[0].values[1], "1500.5");
    cr_assert_null(s->axes[0].values[2]);
    assert_at(s->axes[0].origin, path, 31);
    cr_assert_eq(s->axes[1].nvalues, 3);

    /* [output]: json defaults to true, csv = no, timeseries default false, trace = on */
    cr_assert(s->out_json); cr_assert_not(s->out_csv); cr_assert_not(s->out_timeseries); cr_assert(s->out_trace);
    g_free(kernel), g_free(model), g_free(dir), g_free(path);
    scenario_free(s);
}

/* 2 core clocks x 3 on_limit values; last axis fastest:
 * i = 3 * core_index + on_limit_index. */
Test(scenario, sweep_expansion)
{
    char *path;
    scenario *s = load_basic(NULL, &path);
    cr_assert_eq(scenario_npoints(s), 6);
    static const double core[6] = {1000, 1000, 1000, 1500.5, 1500.5, 1500.5};
    static const int limit[6] = {0, 1, 0, 0, 1, 0};   /* stop, fail, stop */
    static const char *const label[6] = {
        "clock.core_mhz=1000,sim.on_limit=stop", "clock.core_mhz=1000,sim.on_limit=fail",
        "clock.core_mhz=1000,sim.on_limit=stop", "clock.core_mhz=1500.5,sim.on_limit=stop",
        "clock.core_mhz=1500.5,sim.on_limit=fail", "clock.core_mhz=1500.5,sim.on_limit=stop"};
    for (unsigned i = 0; i < 6; i++) {
        GError *err = NULL;
        config *c = scenario_point(s, i, &err);
        cr_assert_not_null(c, "point %u: %s", i, err ? err->message : "");
        cr_assert_eq(cfg_float(c, "clock.core_mhz"), core[i], "point %u", i);
        cr_assert_eq(cfg_is(c, "sim.on_limit", "fail"), limit[i] == 1, "point %u", i);
        assert_at(cfg_origin(c, "clock.core_mhz"), path, 31);
        assert_at(cfg_origin(c, "sim.on_limit"), path, 32);
        /* everything else is the base configuration */
        cr_assert_eq(cfg_float(c, "clock.l2_mhz"), 900.0);
        cr_assert_eq(cfg_int(c, "sim.seed"), 7);
        char *l = scenario_point_label(s, i);
        cr_assert_str_eq(l, label[i]);
        g_free(l);
        config_free(c);
    }
    /* points never change the base */
    cr_assert_eq(cfg_float(s->cfg, "clock.core_mhz"), 1500.0);
    cr_assert(cfg_is(s->cfg, "sim.on_limit", "stop"));
    GError *err = NULL;
    config *c = scenario_point(s, 6, &err);
    char *want = g_strdup_printf("%s: sweep point 6 does not exist: expected 0 to 5", path);
    assert_error(c != NULL, err, want);
    g_free(want);
    char *l = scenario_point_label(s, 6);
    cr_assert_str_eq(l, "");
    g_free(l);
    g_free(path);
    scenario_free(s);
}

Test(scenario, command_line_set_wins_but_sweep_wins_over_it)
{
    char *sets[] = {"clock.l2_mhz=950", " sim.seed = 11 ", "clock.core_mhz=1234", "sim.on_limit=fail", NULL};
    scenario *s = load_basic(sets, NULL);
    cr_assert_eq(cfg_float(s->cfg, "clock.l2_mhz"), 950.0);    /* over [set] 900 */
    cr_assert_str_eq(cfg_origin(s->cfg, "clock.l2_mhz"), "--set");
    cr_assert_eq(cfg_int(s->cfg, "sim.seed"), 11);             /* over [scenario] seed 7 */
    cr_assert_eq(s->seed, 11);
    cr_assert_eq(cfg_float(s->cfg, "clock.core_mhz"), 1234.0); /* over top.ini 1500 */
    GError *err = NULL;
    config *c = scenario_point(s, 0, &err);                     /* swept: 1000, stop */
    cr_assert_eq(cfg_float(c, "clock.core_mhz"), 1000.0);
    cr_assert(cfg_is(c, "sim.on_limit", "stop"));
    cr_assert_eq(cfg_float(c, "clock.l2_mhz"), 950.0);
    config_free(c);
    scenario_free(s);
}

Test(scenario, defaults_and_no_sweep)
{
    char *dir = tmp_dir();
    write_file(dir, "m.ini", "[sim]\nseed = 9\n");
    write_file(dir, "k.sasm", "exit\n");
    char *p = write_file(dir, "my.run.ini",
                         "[scenario]\nmodel = m.ini\n[launch.only]\nkernel = k.sasm\ngrid = 1\nblock = 32\nsms = ALL\nargs =\n");
    GError *err = NULL;
    scenario *s = scenario_load(p, NULL, &err);
    cr_assert_not_null(s, "%s", err ? err->message : "");
    cr_assert_str_eq(s->name, "my.run");          /* file name less its last extension */
    cr_assert_eq(s->seed, 9);                      /* from the model */
    cr_assert(s->out_json); cr_assert(s->out_csv);
    cr_assert_not(s->out_timeseries); cr_assert_not(s->out_trace);
    cr_assert_eq(s->naxes, 0);
    cr_assert_eq(scenario_npoints(s), 1);
    char *l = scenario_point_label(s, 0);
    cr_assert_str_eq(l, "");
    g_free(l);
    config *c = scenario_point(s, 0, &err);
    cr_assert_eq(cfg_int(c, "sim.seed"), 9);
    config_free(c);
    cr_assert_eq(s->launches[0].sm_first, -1);
    cr_assert_eq(s->launches[0].nargs, 0);
    scenario_free(s);
    scenario_free(NULL);
    g_free(p);
    rm_tree(dir);
    g_free(dir);
}
