/* The memory hierarchy of a chip (gpu.memory = caches): per SM an LD/ST
 * unit with its coalescer and L1D; a request crossbar (SMs -> L2 slices)
 * and a reply crossbar (slices -> SMs); per memory partition (dram.channels
 * of them) l2.slices_per_partition L2 slices and one DRAM channel.
 *
 * Port latencies, each in its sender's clock: SM -> LD/ST 1 core cycle and
 * back 1; LD/ST and slices into a crossbar 1 interconnect cycle (the
 * crossbar adds its own icnt.latency); slice <-> DRAM dram.link_latency
 * DRAM cycles each way (1 by default). */
#include <string.h>

#include "config/config_lib.h"
#include "gpu/gpu_internal.h"
#include "gpu/gpu_ports.h"
#include "mem/cache.h"
#include "mem/coalesce.h"
#include "mem/dram_block.h"
#include "mem/l2slice.h"
#include "mem/ldst.h"
#include "mem/loadchar.h"
#include "mem/tlb.h"
#include "simtgrid/memport.h"
#include "simtgrid/cluster.h"
#include "simtgrid/xbar.h"

struct gpu_hier {
    dram_params dp;
    addrmap map;
    cache_params l1p, l2p;
    coalesce_params cop;
    xbar_params xp;
    xbar_params rq, rp;       /* the request and reply crossbars' (their port counts) */
    unsigned parts, slices;   /* partitions, slices per partition */
    unsigned slice_xor_bits;  /* l2.slice_xor: bits per XOR group (0 = the next bits) */
    ldst **units;
    mem_feedback *fb;         /* per SM: its LD/ST unit's state for its schedulers (OAWS) */
    loadchar *lc;             /* the chip's characterisation table (gpu.memdiv_stats), or NULL */
    tlb_params tp;            /* address translation (tlb.l1_entries > 0), else none */
    tlb **tlbs;               /* per SM, or NULL */
    tlb_group **groups;       /* shared TLBs, tlb_ngroups of them */
    stats *st;
    l2slice **l2;
    dram_block **dram;
    xbar *req, *rep;
    noc_cluster **clusters;   /* NULL with one SM per crossbar port */
    unsigned nsms, nclusters, per_cluster;
    unsigned l2parts;         /* l2.partitions */
    struct near_route *near;  /* per SM, with two partitions */
};

/* An SM's route for its loads with two L2 partitions: its partition. */
typedef struct near_route {
    const gpu_hier *h;
    unsigned part;
} near_route;

/* Crossbar output (slice) of an address: its partition from the DRAM
 * address map, then a slice inside it from the next address bits (with
 * l2.slice_xor, the XOR of all their groups of log2(slices) bits). */
static unsigned route(const void *ctx, uint64_t addr)
{
    const gpu_hier *h = ctx;
    unsigned part = addrmap_channel(&h->map, addr);
    uint64_t q = addr / h->dp.channel_interleave / h->parts;
    if (h->slice_xor_bits) {   /* l2.slice_xor: fold every group of bits */
        uint64_t f = 0, mask = (UINT64_C(1) << h->slice_xor_bits) - 1;
        for (; q; q >>= h->slice_xor_bits)
            f ^= q & mask;
        q = f;
    }
    return part * h->slices + (unsigned)(q % h->slices);
}

/* Two L2 partitions: slices (and DRAM channels) 0 .. n/2-1 form partition
 * 0, the rest partition 1; slice k's counterpart in the other one is
 * k + n/2 mod n. A load whose home slice is in the SM's other partition goes
 * to the counterpart, which keeps the copy (docs/cache.md). */
static unsigned near_slice(const void *ctx, uint64_t addr)
{
    const near_route *r = ctx;
    unsigned n = r->h->parts * r->h->slices, k = route(r->h, addr);
    return k / (n / 2) == r->part ? k : (k + n / 2) % n;
}

/* The parameters of every memory-side block, checked together. */
static bool read_params(gpu_hier *h, gpu *g, GError **err)
{
    char why[256];
    if (!dram_params_from_config(&h->dp, g->cfg, err) ||
        !cache_params_from_config(&h->l1p, g->cfg, "l1d", err) ||
        !cache_params_from_config(&h->l2p, g->cfg, "l2", err) ||
        !coalesce_params_from_config(&h->cop, g->cfg, err) || !tlb_params_from_config(&h->tp, g->cfg, err))
        return false;
    if (!addrmap_init(&h->map, &h->dp, why, sizeof why))
        return input_error(err, "%s: %s", cfg_origin(g->cfg, "dram.addr_map"), why);
    h->parts = h->dp.channels;
    h->slices = (unsigned)cfg_int(g->cfg, "l2.slices_per_partition");
    h->slice_xor_bits = 0;
    if (cfg_bool(g->cfg, "l2.slice_xor"))
        while ((1u << h->slice_xor_bits) < h->slices)
            h->slice_xor_bits++;
    if (g->nsms > 65535 || h->parts * h->slices > 65535)
        return input_error(err, "gpu.sms / dram.channels: at most 65535 each");
    h->l2parts = (unsigned)cfg_int(g->cfg, "l2.partitions");
    /* One SM is near partition 0 and reaches partition 1 as far: legal. */
    if (h->l2parts == 2 && h->parts % 2)
        return input_error(err, "%s: l2.partitions = 2 needs an even dram.channels (%u here)",
                           cfg_origin(g->cfg, "l2.partitions"), h->parts);
    /* Copies would never get an MSHR: every far-homed load refused for good. */
    if (h->l2parts == 2 && (unsigned)cfg_int(g->cfg, "l2.home_mshr_reserve") >= h->l2p.mshr_entries)
        return input_error(err, "%s: l2.home_mshr_reserve must be below l2.mshr_entries (%u here)",
                           cfg_origin(g->cfg, "l2.home_mshr_reserve"), h->l2p.mshr_entries);
    xbar_params_from_config(&h->xp, g->cfg);
    return true;
}

/* The two crossbars and, with gpu.sms_per_cluster = k > 1, the clusters:
 * k SMs share a port of each crossbar through a cluster actor; replies are
 * routed to SM / k. */
static void build_network(gpu_hier *h, gpu *g)
{
    const des_clock *icnt = &g->clk[CLK_ICNT];
    unsigned k = h->per_cluster;
    h->nclusters = k > 1 ? (g->nsms + k - 1) / k : g->nsms;
    h->rq = h->xp;
    h->rp = h->xp;
    h->rq.inputs = h->nclusters;
    h->rq.outputs = h->parts * h->slices;
    h->rp.inputs = h->parts * h->slices;
    h->rp.outputs = h->nclusters;
    h->rp.dst_group = k;
    h->rp.data_bytes_per_cycle = 0;   /* a request-network parameter */
    h->req = xbar_new(g->engine, "icnt.req", &h->rq, icnt, g->st);
    h->rep = xbar_new(g->engine, "icnt.reply", &h->rp, icnt, g->st);
    if (k <= 1)
        return;
    h->clusters = g_new0(noc_cluster *, h->nclusters);
    for (unsigned c = 0; c < h->nclusters; c++) {
        char name[32];
        snprintf(name, sizeof name, "cluster%u", c);
        unsigned first = c * k, n = MIN(k, g->nsms - first);
        noc_cluster *cl = noc_cluster_new(g->engine, name, first, n, icnt, g->st);
        h->clusters[c] = cl;
        noc_cluster_connect(cl, gpu_link_xbar_in(h->req, c, noc_cluster_actor(cl), &h->rq, icnt),
                            gpu_link_xbar_out(h->rep, c, noc_cluster_actor(cl), &h->rp, icnt));
    }
}

void gpu_hier_invalidate_l1s(void *hier)
{
    gpu_hier *h = hier;
    for (unsigned i = 0; i < h->nsms; i++)
        ldst_invalidate_l1(h->units[i]);
}

/* Per SM: its LD/ST unit with coalescer and L1D, the SM <-> LD/ST ports
 * (1 core cycle each way), the unit's crossbar (or cluster) ports, and the
 * feedback a memory-aware scheduler reads. */
static void build_units(gpu_hier *h, gpu *g)
{
    const des_clock *core = &g->clk[CLK_CORE], *icnt = &g->clk[CLK_ICNT];
    h->units = g_new0(ldst *, g->nsms);
    h->fb = g_new0(mem_feedback, g->nsms);
    h->st = g->st;
    if (cfg_bool(g->cfg, "gpu.memdiv_stats") && g->st)
        h->lc = loadchar_new(h->cop.divergent_after);
    if (h->l2parts == 2)
        h->near = g_new0(near_route, g->nsms);
    if (h->tp.l1_entries) {
        h->tlbs = g_new0(tlb *, g->nsms);
        h->groups = g_new0(tlb_group *, tlb_ngroups(&h->tp, g->nsms));
        for (unsigned k = 0; k < tlb_ngroups(&h->tp, g->nsms); k++)
            h->groups[k] = tlb_group_new(&h->tp);
    }
    for (unsigned i = 0; i < g->nsms; i++) {
        char name[32];
        snprintf(name, sizeof name, "sm%u", i);
        unsigned pend = sm_max_outstanding(g->sms[i]);
        ldst *u = ldst_new(g->engine, name, i, &h->l1p, &h->cop, pend, route, h, core, g->st);
        h->units[i] = u;
        ldst_set_atomic_rate(u, cfg_float(g->cfg, "l1d.atomic_lanes_per_cycle"));
        ldst_set_hit_interval(u, (unsigned)cfg_int(g->cfg, "l1d.warp_hit_interval"));
        ldst_set_hit_bytes(u, (unsigned)cfg_int(g->cfg, "l1d.hit_bytes_per_cycle"));
        ldst_set_accesses_per_cycle(u, (unsigned)cfg_int(g->cfg, "l1d.accesses_per_cycle"));
        if (h->near) {   /* SMs 0 .. n/2-1 near partition 0 (the real grouping is not published) */
            h->near[i] = (near_route){h, i / ((g->nsms + 1) / 2)};
            ldst_set_load_route(u, near_slice, &h->near[i]);
        }
        snprintf(name, sizeof name, "sm%u.memreq", i);
        des_port *q = gpu_port(name, sizeof(warp_mem_req), (unsigned)cfg_int(g->cfg, "l1d.request_queue"), core, 1,
                               sm_actor(g->sms[i]), ldst_actor(u));
        snprintf(name, sizeof name, "sm%u.memresp", i);
        des_port *r = gpu_port(name, sizeof(warp_mem_resp), pend, core, 1, ldst_actor(u), sm_actor(g->sms[i]));
        sm_connect_mem(g->sms[i], q, r);
        sm_expect_store_acks(g->sms[i]);   /* the L2 (or a write-back L1) acknowledges stores */
        if (sm_wants_feedback(g->sms[i])) {
            ldst_set_feedback(u, &h->fb[i], (unsigned)cfg_int(g->cfg, "core.schedulers"));
            sm_set_feedback(g->sms[i], &h->fb[i]);
        }
        if (cache_params_use_priority(&h->l1p))
            sm_send_priority(g->sms[i]);
        if (cfg_is(g->cfg, "core.scheduler", "mascar"))
            ldst_set_reexec(u, (unsigned)cfg_int(g->cfg, "core.mascar_reexec"));
        if (h->tlbs) {
            h->tlbs[i] = tlb_new(&h->tp, h->groups[tlb_group_of(&h->tp, i)]);
            snprintf(name, sizeof name, "sm%u", i);
            tlb_register_stats(h->tlbs[i], g->st, name);
            ldst_set_tlb(u, h->tlbs[i]);
        }
        if (h->lc) {
            ldst_set_loadchar(u, h->lc);
            sm_count_issue_ranks(g->sms[i], loadchar_issue_hist(h->lc));
        }
        ldst_connect_sm(u, q, r);
        if (h->clusters) {
            des_port *in, *out;
            gpu_link_cluster_sm(h->clusters[i / h->per_cluster], i % h->per_cluster, ldst_actor(u),
                                h->xp.input_buffer, h->xp.output_buffer, icnt, &in, &out);
            ldst_connect_mem(u, in, out);
        } else {
            ldst_connect_mem(u, gpu_link_xbar_in(h->req, i, ldst_actor(u), &h->rq, icnt),
                             gpu_link_xbar_out(h->rep, i, ldst_actor(u), &h->rp, icnt));
        }
    }
}

/* Per memory partition: its DRAM channel and its L2 slices, each slice on
 * both crossbars and on a link of dram.link_latency DRAM cycles. */
static void build_partitions(gpu_hier *h, gpu *g)
{
    const des_clock *icnt = &g->clk[CLK_ICNT], *l2c = &g->clk[CLK_L2], *dram = &g->clk[CLK_DRAM];
    unsigned atomic_lat = (unsigned)cfg_int(g->cfg, "l2.atomic_latency");
    unsigned link = (unsigned)cfg_int(g->cfg, "dram.link_latency");
    h->l2 = g_new0(l2slice *, h->parts * h->slices);
    h->dram = g_new0(dram_block *, h->parts);
    for (unsigned p = 0; p < h->parts; p++) {
        char name[32];
        snprintf(name, sizeof name, "dram%u", p);
        h->dram[p] = dram_block_new(g->engine, name, &h->dp, &h->map, p, h->slices, dram, g->st);
        for (unsigned s = 0; s < h->slices; s++) {
            unsigned sl = p * h->slices + s;
            snprintf(name, sizeof name, "l2s%u", sl);
            l2slice *l = l2slice_new(g->engine, name, sl, &h->l2p, atomic_lat, l2c, g->st);
            l2slice_set_atomic_unit(l, cfg_float(g->cfg, "l2.atomic_ops_per_cycle"),
                                    cfg_float(g->cfg, "l2.atomic_same_address_cycles"),
                                    cfg_bool(g->cfg, "l2.atomic_forward"));
            l2slice_set_atomic_forward_cycles(l, cfg_float(g->cfg, "l2.atomic_forward_cycles"));
            l2slice_set_atomic_line_gap(l, cfg_float(g->cfg, "l2.atomic_line_gap"));
            l2slice_set_atomic_held_line_rate(l, cfg_float(g->cfg, "l2.atomic_held_line_lanes_per_cycle"));
            l2slice_set_partial_write_cycles(l, (unsigned)cfg_int(g->cfg, "l2.partial_write_cycles"));
            l2slice_set_byte_enables(l, cfg_bool(g->cfg, "l2.byte_enables"));
            l2slice_set_partial_fetch(l, cfg_is(g->cfg, "l2.partial_fetch", "all")      ? L2_PARTIAL_FETCH_ALL
                                         : cfg_is(g->cfg, "l2.partial_fetch", "copies") ? L2_PARTIAL_FETCH_COPIES
                                                                                         : L2_PARTIAL_FETCH_NONE);
            h->l2[sl] = l;
            l2slice_connect_xbar(l, gpu_link_xbar_out(h->req, sl, l2slice_actor(l), &h->rq, icnt),
                                 gpu_link_xbar_in(h->rep, sl, l2slice_actor(l), &h->rp, icnt));
            des_port *down, *up;
            gpu_link_dram(h->dram[p], s, l2slice_actor(l), link, dram, &down, &up);
            l2slice_connect_dram(l, down, up);
        }
    }
}

/* Two L2 partitions: each slice's link to its counterpart, l2.far_latency
 * L2 cycles there and back (half each way), deep enough for every MSHR
 * entry of the sender. */
static void build_peer_links(gpu_hier *h, gpu *g)
{
    const des_clock *l2c = &g->clk[CLK_L2];
    unsigned n = h->parts * h->slices, far = (unsigned)cfg_int(g->cfg, "l2.far_latency");
    unsigned cap = h->l2p.mshr_entries + far;
    des_port **req = g_new(des_port *, n), **rep = g_new(des_port *, n);
    for (unsigned k = 0; k < n; k++) {
        unsigned m = (k + n / 2) % n;
        char name[48];
        snprintf(name, sizeof name, "l2s%u->l2s%u.far", k, m);
        req[k] = gpu_port(name, sizeof(mem_pkt), cap, l2c, (far + 1) / 2, l2slice_actor(h->l2[k]),
                          l2slice_actor(h->l2[m]));
        snprintf(name, sizeof name, "l2s%u->l2s%u.fill", m, k);
        rep[k] = gpu_port(name, sizeof(mem_pkt), cap, l2c, far / 2, l2slice_actor(h->l2[m]),
                          l2slice_actor(h->l2[k]));
    }
    unsigned keep = (unsigned)cfg_int(g->cfg, "l2.home_mshr_reserve");
    for (unsigned k = 0; k < n; k++) {
        unsigned m = (k + n / 2) % n;
        l2slice_connect_peer(h->l2[k], req[k], rep[k], req[m], rep[m], route, h);
        l2slice_set_home_reserve(h->l2[k], keep);
    }
    g_free(req);
    g_free(rep);
}

gpu_hier *gpu_hier_build(gpu *g, GError **err)
{
    gpu_hier *h = g_new0(gpu_hier, 1);
    h->nsms = g->nsms;
    if (!read_params(h, g, err)) {
        g_free(h);
        return NULL;
    }
    h->per_cluster = (unsigned)cfg_int(g->cfg, "gpu.sms_per_cluster");
    build_network(h, g);
    build_units(h, g);
    build_partitions(h, g);
    if (h->l2parts == 2)
        build_peer_links(h, g);
    return h;
}

void gpu_hier_finish(gpu_hier *h, des_time end)
{
    for (unsigned i = 0; i < h->nsms; i++)
        ldst_finish(h->units[i], end);
    if (h->lc)
        loadchar_write(h->lc, h->st, stats_sum(h->st, "sm*", "cycles"));
    for (unsigned k = 0; k < h->parts * h->slices; k++)
        l2slice_finish(h->l2[k], end);
    for (unsigned p = 0; p < h->parts; p++)
        dram_block_finish(h->dram[p], end);
    xbar_finish(h->req, end);
    xbar_finish(h->rep, end);
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / b : 0; }

/* Mean of derived `name` over the blocks `prefix`0..n-1 that have it. */
static double mean_derived(const stats *st, const char *prefix, unsigned n, const char *name)
{
    double sum = 0;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        char block[48];
        double v;
        snprintf(block, sizeof block, prefix, i);
        if (stats_get_derived(st, block, name, &v) && v == v) {
            sum += v;
            k++;
        }
    }
    return k ? sum / k : 0;
}

void gpu_hier_summary(const gpu *g, FILE *f)
{
    const stats *st = g->st;
    const gpu_hier *h = g->hier;
    unsigned nslices = h->parts * h->slices;
    uint64_t h1 = stats_sum(st, "sm*.l1d", "hits"), m1 = stats_sum(st, "sm*.l1d", "misses"),
             r1 = stats_sum(st, "sm*.l1d", "hits_reserved");
    uint64_t h2 = stats_sum(st, "l2s*", "hits"), m2 = stats_sum(st, "l2s*", "misses"),
             r2 = stats_sum(st, "l2s*", "hits_reserved");
    uint64_t rh = stats_sum(st, "dram*", "row_hits"), rm = stats_sum(st, "dram*", "row_misses"),
             rc = stats_sum(st, "dram*", "row_conflicts");
    uint64_t rd = stats_sum(st, "dram*", "bytes_read"), wr = stats_sum(st, "dram*", "bytes_written");
    uint64_t fails = stats_sum(st, "sm*.l1d", "reservation_fails");
    uint64_t refused = stats_sum(st, "sm*.ldst", "refused_accesses");
    fprintf(f, "  L1D: %" G_GUINT64_FORMAT " load accesses, hit rate %.1f%% (%.1f%% pending hits); "
               "%" G_GUINT64_FORMAT " accesses refused (MSHR %" G_GUINT64_FORMAT ", merge limit %" G_GUINT64_FORMAT
               ", miss queue %" G_GUINT64_FORMAT ", set reserved %" G_GUINT64_FORMAT "), %" G_GUINT64_FORMAT
               " refused attempts\n",
            h1 + m1 + r1, 100 * ratio(h1, h1 + m1 + r1), 100 * ratio(r1, h1 + m1 + r1), refused,
            stats_sum(st, "sm*.ldst", "refused_mshr_full"), stats_sum(st, "sm*.ldst", "refused_mshr_merge_limit"),
            stats_sum(st, "sm*.ldst", "refused_miss_queue_full"),
            stats_sum(st, "sm*.ldst", "refused_set_all_reserved"), fails);
    fprintf(f, "  LD/ST stalls (core cycles, all SMs): MSHR %" G_GUINT64_FORMAT ", interconnect %" G_GUINT64_FORMAT
               ", set reserved %" G_GUINT64_FORMAT "; load latency %.1f cycles, below the L1 %.1f\n",
            stats_sum(st, "sm*.ldst", "stall_mshr"), stats_sum(st, "sm*.ldst", "stall_icnt"),
            stats_sum(st, "sm*.ldst", "stall_set_reserved"), mean_derived(st, "sm%u.ldst", h->nsms, "mean_load_latency"),
            mean_derived(st, "sm%u.ldst", h->nsms, "mean_miss_latency"));
    fprintf(f, "  L2: %" G_GUINT64_FORMAT " load accesses, hit rate %.1f%%, %" G_GUINT64_FORMAT
               " refused attempts; latency %.1f L2 cycles, below the L2 %.1f\n",
            h2 + m2 + r2, 100 * ratio(h2, h2 + m2 + r2), stats_sum(st, "l2s*", "reservation_fails"),
            mean_derived(st, "l2s%u", nslices, "mean_load_latency"),
            mean_derived(st, "l2s%u", nslices, "mean_miss_latency"));
    double us = g->end / (double)des_ticks_per_us_of(g->engine);
    /* Peak: every channel's bus moving bus_bytes each DRAM clock. */
    double peak = h->parts * (double)h->dp.bus_bytes * g->clk[CLK_DRAM].khz / 1e6;   /* GB/s */
    double bw = us > 0 ? (rd + wr) / us / 1e3 : 0;
    fprintf(f, "  DRAM: row-buffer hit rate %.1f%%, %.1f MB read, %.1f MB written, %.1f GB/s of %.1f peak "
               "(%.1f%%), bus busy %.1f%%\n",
            100 * ratio(rh, rh + rm + rc), rd / 1e6, wr / 1e6, bw, peak, peak > 0 ? 100 * bw / peak : 0,
            100 * mean_derived(st, "dram%u", h->parts, "bus_utilisation"));
    double u, q;
    if (stats_get_derived(st, "icnt.req", "utilisation", &u) && stats_get_derived(st, "icnt.req", "mean_queue_delay", &q))
        fprintf(f, "  crossbar: request utilisation %.1f%%, queueing %.1f cycles", 100 * u, q);
    if (stats_get_derived(st, "icnt.reply", "utilisation", &u) && stats_get_derived(st, "icnt.reply", "mean_queue_delay", &q))
        fprintf(f, "; reply utilisation %.1f%%, queueing %.1f cycles\n", 100 * u, q);
}

void gpu_hier_free(gpu_hier *h)
{
    if (!h)
        return;
    for (unsigned i = 0; i < h->nsms; i++)
        ldst_free(h->units[i]);
    for (unsigned k = 0; k < h->parts * h->slices; k++)
        l2slice_free(h->l2[k]);
    for (unsigned p = 0; p < h->parts; p++)
        dram_block_free(h->dram[p]);
    if (h->clusters)
        for (unsigned c = 0; c < h->nclusters; c++)
            noc_cluster_free(h->clusters[c]);
    g_free(h->clusters);
    g_free(h->units);
    g_free(h->near);
    if (h->tlbs) {
        for (unsigned i = 0; i < h->nsms; i++)
            tlb_free(h->tlbs[i]);
        for (unsigned k = 0; k < tlb_ngroups(&h->tp, h->nsms); k++)
            tlb_group_free(h->groups[k]);
    }
    g_free(h->tlbs);
    g_free(h->groups);
    g_free(h->fb);
    loadchar_free(h->lc);
    g_free(h->l2);
    g_free(h->dram);
    g_free(h);
}
