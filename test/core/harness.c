/* The SM test harness (harness.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "gpu/gpu_ports.h"
#include "simtgrid/memport.h"

static void record_issue(void *ctx, unsigned smi, uint64_t cycle, unsigned sched, unsigned warp,
                         uint32_t pc, uint32_t active)
{
    harness *h = ctx;
    if (h->nlog == h->caplog) {
        h->caplog = h->caplog ? 2 * h->caplog : 1024;
        h->log = g_renew(issue_rec, h->log, h->caplog);
    }
    h->log[h->nlog++] = (issue_rec){cycle, smi, sched, warp, pc, active};
}

static harness *harness_build(harness *h, char **msg);

harness *harness_try_new(const char *const *sets, char **msg)
{
    harness *h = g_new0(harness, 1);
    h->cfg = config_new();
    GError *err = NULL;
    unsigned req_cap = 64;
    for (unsigned i = 0; sets && sets[i]; i++) {
        if (g_str_has_prefix(sets[i], "harness.req_cap=")) {   /* not a model parameter */
            req_cap = (unsigned)atoi(sets[i] + strlen("harness.req_cap="));
            continue;
        }
        if (g_str_has_prefix(sets[i], "harness.req_lat=")) {
            h->req_lat = (unsigned)atoi(sets[i] + strlen("harness.req_lat="));
            continue;
        }
        char **kv = g_strsplit(sets[i], "=", 2);
        bool ok = kv[0] && kv[1] && config_set(h->cfg, kv[0], kv[1], "test", &err);
        g_strfreev(kv);
        if (!ok) {
            *msg = g_strdup(err ? err->message : sets[i]);
            g_clear_error(&err);
            config_free(h->cfg);
            g_free(h);
            return NULL;
        }
    }
    h->req_cap = req_cap;
    return harness_build(h, msg);
}

harness *harness_new_config(const config *c)
{
    harness *h = g_new0(harness, 1);
    h->cfg = config_copy(c);
    h->req_cap = 64;
    char *msg = NULL;
    h = harness_build(h, &msg);
    cr_assert_not_null(h, "harness: %s", msg ? msg : "?");
    return h;
}

static harness *harness_build(harness *h, char **msg)
{
    GError *err = NULL;
    unsigned req_cap = h->req_cap;
    if (!core_params_from_config(h->cfg, &h->p, &err)) {
        *msg = g_strdup(err->message);
        g_error_free(err);
        config_free(h->cfg);
        g_free(h);
        return NULL;
    }
    h->clk[0] = (des_clock){"core", (uint64_t)(cfg_float(h->cfg, "clock.core_mhz") * 1000 + 0.5), 0};
    char *emsg = NULL;
    h->e = des_engine_new(h->clk, 1, false, &emsg);
    cr_assert_not_null(h->e, "%s", emsg ? emsg : "");
    h->st = stats_new();
    h->nsms = (unsigned)cfg_int(h->cfg, "gpu.sms");
    h->sms = g_new0(sm *, h->nsms);
    for (unsigned i = 0; i < h->nsms; i++) {
        h->sms[i] = sm_new(h->e, &h->p, i, &h->clk[0], h->st);
        sm_set_issue_hook(h->sms[i], record_issue, h);
    }
    unsigned lat = (unsigned)cfg_int(h->cfg, "mem.ideal_latency");
    h->mem = ideal_mem_new(h->e, "mem", &h->clk[0], lat, cfg_float(h->cfg, "mem.ideal_lines_per_cycle"), h->st);
    cr_assert_not_null(h->mem);
    unsigned lq, lr;
    ideal_mem_port_latency(lat, &lq, &lr);
    if (h->req_lat) {   /* another split of the round trip (run-ahead tests) */
        lq = h->req_lat;
        lr = lat - lq;
    }
    for (unsigned i = 0; i < h->nsms; i++) {
        char name[64];
        g_snprintf(name, sizeof name, "sm%u->mem", i);
        des_port *req = des_port_new(h->e, name, sizeof(warp_mem_req), req_cap, des_cycles(&h->clk[0], lq),
                                     sm_actor(h->sms[i]), ideal_mem_actor(h->mem));
        g_snprintf(name, sizeof name, "mem->sm%u", i);
        des_port *resp = des_port_new(h->e, name, sizeof(warp_mem_resp), ideal_mem_resp_capacity(lr),
                                      des_cycles(&h->clk[0], lr), ideal_mem_actor(h->mem), sm_actor(h->sms[i]));
        cr_assert(ideal_mem_connect(h->mem, req, resp));
        sm_connect_mem(h->sms[i], req, resp);
    }
    h->d = dispatcher_new(h->e, &h->p, &h->clk[0], h->sms, h->nsms, h->st);
    for (unsigned i = 0; i < h->nsms; i++)
        gpu_link_dispatch(h->d, h->sms[i], i, &h->p, &h->clk[0]);
    return h;
}

harness *harness_new(const char *const *sets)
{
    char *msg = NULL;
    harness *h = harness_try_new(sets, &msg);
    cr_assert_not_null(h, "harness: %s", msg ? msg : "?");
    return h;
}

int harness_try_launch(harness *h, const char *text, const uint32_t grid[3], const uint32_t block[3],
                       int sm_first, int sm_last, int after, char **msg)
{
    GError *err = NULL;
    cr_assert(h->nprog < 16);
    isa_program *p = isa_program_parse(text, "k.sasm", &err);
    cr_assert_not_null(p, "kernel: %s", err ? err->message : "?");
    memimg *m = isa_program_new_memimg(p, 1, &err);
    cr_assert_not_null(m, "memimg: %s", err ? err->message : "?");
    h->prog[h->nprog] = p;
    h->img[h->nprog] = m;
    h->nprog++;
    core_launch l = {.name = "k", .prog = p, .mem = m, .sm_first = sm_first, .sm_last = sm_last,
                     .after = after};
    memcpy(l.grid, grid, sizeof l.grid);
    memcpy(l.block, block, sizeof l.block);
    char nm[16];
    g_snprintf(nm, sizeof nm, "k%u", h->nprog - 1);
    l.name = nm;
    int r = dispatcher_add_launch(h->d, &l, &err);
    if (r < 0) {
        *msg = g_strdup(err->message);
        g_error_free(err);
    }
    return r;
}

int harness_launch_file(harness *h, const char *path, const uint32_t grid[3], const uint32_t block[3],
                        const int64_t *args, unsigned nargs)
{
    GError *err = NULL;
    cr_assert(h->nprog < 16);
    isa_program *p = isa_program_load_file(path, &err);
    cr_assert_not_null(p, "kernel: %s", err ? err->message : "?");
    memimg *m = isa_program_new_memimg(p, (uint64_t)cfg_int(h->cfg, "sim.seed"), &err);
    cr_assert_not_null(m, "memimg: %s", err ? err->message : "?");
    h->prog[h->nprog] = p;
    h->img[h->nprog] = m;
    char nm[16];
    g_snprintf(nm, sizeof nm, "k%u", h->nprog);
    h->nprog++;
    uint64_t params[ISA_MAX_PARAMS];
    for (unsigned i = 0; i < nargs && i < ISA_MAX_PARAMS; i++)
        params[i] = (uint64_t)args[i];
    core_launch l = {.name = nm, .prog = p, .mem = m, .sm_first = -1, .sm_last = -1, .after = -1,
                     .params = params, .nparams = nargs};
    memcpy(l.grid, grid, sizeof l.grid);
    memcpy(l.block, block, sizeof l.block);
    int r = dispatcher_add_launch(h->d, &l, &err);
    cr_assert(r >= 0, "launch: %s", err ? err->message : "?");
    return r;
}

int harness_launch(harness *h, const char *text, uint32_t grid, uint32_t block, const uint64_t *params,
                   unsigned nparams, uint64_t start, int after)
{
    GError *err = NULL;
    cr_assert(h->nprog < 16);
    isa_program *p = isa_program_parse(text, "k.sasm", &err);
    cr_assert_not_null(p, "kernel: %s", err ? err->message : "?");
    memimg *m = isa_program_new_memimg(p, 1, &err);
    cr_assert_not_null(m, "memimg: %s", err ? err->message : "?");
    h->prog[h->nprog] = p;
    h->img[h->nprog] = m;
    char nm[16];
    g_snprintf(nm, sizeof nm, "k%u", h->nprog);
    h->nprog++;
    core_launch l = {.name = nm, .prog = p, .mem = m, .grid = {grid, 1, 1}, .block = {block, 1, 1},
                     .sm_first = -1, .sm_last = -1, .start = start, .after = after, .params = params,
                     .nparams = nparams};
    int r = dispatcher_add_launch(h->d, &l, &err);
    cr_assert(r >= 0, "launch: %s", err ? err->message : "?");
    return r;
}

bool harness_run(harness *h, uint64_t max_cycles)
{
    des_set_limit(h->e, des_cycles(&h->clk[0], max_cycles));
    des_run(h->e);
    for (unsigned i = 0; i < h->nsms; i++) {
        sm_finalize_stats(h->sms[i], h->st);
        cr_assert_null(sm_error(h->sms[i]), "%s", sm_error(h->sms[i]));
    }
    dispatcher_finalize_stats(h->d, h->st);
    return dispatcher_unfinished(h->d) == 0;
}

uint64_t harness_counter(harness *h, const char *block, const char *name)
{
    uint64_t v = 0;
    cr_assert(stats_get_counter(h->st, block, name, &v), "no counter %s.%s", block, name);
    return v;
}

uint64_t harness_end(harness *h, unsigned launch)
{
    core_launch_result r = dispatcher_launch_result(h->d, launch);
    cr_assert(r.finished, "launch %u did not finish", launch);
    return r.end_cycle;
}

harness *harness_one_warp_four(const char *const *sets, const char *kernel, uint64_t exit_at)
{
    harness *h = harness_new(sets);
    harness_launch(h, kernel, 1, 32, NULL, 0, 0, -1);
    cr_assert(harness_run(h, 10000));
    cr_assert_eq(h->nlog, 4);
    cr_expect_eq(h->log[2].cycle, 24);
    cr_expect_eq(h->log[3].cycle, exit_at);
    cr_expect_eq(harness_end(h, 0), exit_at + 6);
    return h;
}

uint32_t harness_read_u32(harness *h, unsigned l, const char *array, uint64_t i)
{
    uint64_t base;
    cr_assert(isa_program_symbol(h->prog[l], array, &base), "no array %s", array);
    return (uint32_t)memimg_read(h->img[l], base + 4 * i, 4);
}

void harness_free(harness *h)
{
    dispatcher_free(h->d);
    for (unsigned i = 0; i < h->nsms; i++)
        sm_free(h->sms[i]);
    g_free(h->sms);
    ideal_mem_free(h->mem);
    stats_free(h->st);
    des_engine_free(h->e);
    for (unsigned i = 0; i < h->nprog; i++) {
        memimg_free(h->img[i]);
        isa_program_free(h->prog[i]);
    }
    config_free(h->cfg);
    g_free(h->log);
    g_free(h);
}

void harness_fork(void (*fn)(void *ctx, void *out), void *ctx, void *out, size_t size)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        fn(ctx, out);
        size_t done = 0;
        while (done < size) {
            ssize_t w = write(fd[1], (char *)out + done, size - done);
            if (w <= 0)
                _exit(3);
            done += (size_t)w;
        }
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    while (got < size) {
        ssize_t r = read(fd[0], (char *)out + got, size - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == size, "child simulation failed");
}

char *harness_workload_text(const char *rel)
{
    const char *root = getenv("SIMTGRID_SRC");
    char *path = g_strdup_printf("%s/workloads/%s", root ? root : ".", rel);
    char *text = NULL;
    GError *err = NULL;
    cr_assert(g_file_get_contents(path, &text, NULL, &err), "%s", err ? err->message : path);
    g_free(path);
    return text;
}
