/* Memory knobs shape the generated kernel's addresses. Each test executes
 * the kernel and compares the addresses (or the computed results) with the
 * pattern's formula worked out by hand in the comment. The data array is the
 * first .data, so its base is 0x10000000. */
#include "gen_test_util.h"

#define BASE UINT64_C(0x10000000)

/* Lines (128 B) and addresses of every global load issue of one warp. */
typedef struct loads_seen {
    unsigned n;
    uint64_t first_addr[64];   /* lane 0's address */
    unsigned lines[64];        /* distinct lines touched */
    uint64_t line0[64];        /* lowest line */
    uint64_t addr[64][32];
    int cache[64], rowhint[64];
} loads_seen;

static void on_issue(uint32_t pc, const isa_exec_out *o, void *arg)
{
    (void)pc;
    loads_seen *s = arg;
    if (o->inst->cls != ISA_CLASS_LD_GLOBAL || s->n >= 64)
        return;
    uint64_t lines[128];
    unsigned nl = 0;
    uint64_t lo = UINT64_MAX;
    for (unsigned l = 0; l < 32; l++) {
        if (!(o->mem_lanes >> l & 1))
            continue;
        s->addr[s->n][l] = o->addr[l];
        for (uint64_t b = o->addr[l] & ~UINT64_C(127); b < o->addr[l] + o->access_size; b += 128) {
            bool seen = false;
            for (unsigned i = 0; i < nl; i++)
                seen |= lines[i] == b;
            if (!seen)
                lines[nl++] = b;
            lo = b < lo ? b : lo;
        }
    }
    s->first_addr[s->n] = o->addr[0];
    s->lines[s->n] = nl;
    s->line0[s->n] = lo;
    s->cache[s->n] = o->inst->cache;
    s->rowhint[s->n] = o->inst->row_hint;
    s->n++;
}

/* Runs warp 0 of CTA 1 of a grid of 2 CTAs of 64 threads (T = 128 threads;
 * the warp's gids are 64..95) in lockstep to its exit. */
static void run_warp1(const char *profile, loads_seen *s, gen_launch *g)
{
    launch_setup(g, gen_load(profile, 5), 2, 64);
    g->cta = isa_cta_new(&g->launch, 1);
    isa_thread *lanes[32];
    for (unsigned l = 0; l < 32; l++)
        lanes[l] = isa_cta_thread(g->cta, l);
    memset(s, 0, sizeof *s);
    isa_exec_out split;
    cr_assert_eq(run_warp(g->k, lanes, UINT32_MAX, 0, on_issue, s, &split), ISA_PC_EXIT,
                 "the warp diverged");
}

/* coalesced, 4 B: iteration i, lane l reads element i*128 + 64 + l, so the
 * warp reads the 128 B at BASE + 4*(128i + 64) = BASE + 512i + 256: one line. */
Test(gen_memory, coalesced_warp_reads_one_line_per_load)
{
    loads_seen s;
    gen_launch g;
    run_warp1("[loop]\ntrips = 3\n[memory]\npattern = coalesced\nfootprint = 65536\nstore = none\n"
              "[compute]\nops = 0\n", &s, &g);
    cr_assert_eq(s.n, 3);
    for (unsigned i = 0; i < 3; i++) {
        cr_assert_eq(s.lines[i], 1, "iteration %u", i);
        cr_assert_eq(s.line0[i], BASE + 512 * i + 256, "iteration %u", i);
        cr_assert_eq(s.cache[i], ISA_CACHE_CA);
        cr_assert_eq(s.rowhint[i], 0);
    }
    launch_free(&g);
}

/* 16 B per lane (ld.v4): element 128i + 64 + l at BASE + 16*(...): the warp
 * reads 512 B from BASE + 2048i + 1024, four lines. */
Test(gen_memory, coalesced_16_byte_loads_read_four_lines)
{
    loads_seen s;
    gen_launch g;
    run_warp1("[loop]\ntrips = 2\n[memory]\npattern = coalesced\nwidth = 16\nfootprint = 65536\n"
              "[compute]\nops = 0\n", &s, &g);
    cr_assert_eq(s.n, 2);
    for (unsigned i = 0; i < 2; i++) {
        cr_assert_eq(s.lines[i], 4);
        cr_assert_eq(s.line0[i], BASE + 2048 * i + 1024);
    }
    launch_free(&g);
}

/* strided, stride 1024 words (per-thread rows 4 KiB apart): lane l reads
 * element (gid*1024 + i) mod 2^21 = (64+l)*1024 + i, at BASE + 4096*(64+l) +
 * 4i: 32 lines, one per lane. */
Test(gen_memory, strided_rows_put_every_lane_on_its_own_line)
{
    loads_seen s;
    gen_launch g;
    run_warp1("[loop]\ntrips = 3\n[memory]\npattern = strided\nstride = 1024\nfootprint = 8388608\n"
              "[compute]\nops = 0\n", &s, &g);
    cr_assert_eq(s.n, 3);
    for (unsigned i = 0; i < 3; i++) {
        cr_assert_eq(s.lines[i], 32);
        for (unsigned l = 0; l < 32; l++)
            cr_assert_eq(s.addr[i][l], BASE + 4096 * (64 + l) + 4 * i, "iteration %u lane %u", i, l);
    }
    launch_free(&g);
}

/* broadcast: every lane reads element i at BASE + 4i. */
Test(gen_memory, broadcast_reads_one_address)
{
    loads_seen s;
    gen_launch g;
    run_warp1("[loop]\ntrips = 3\n[memory]\npattern = broadcast\nfootprint = 65536\n[compute]\nops = 0\n",
              &s, &g);
    cr_assert_eq(s.n, 3);
    for (unsigned i = 0; i < 3; i++)
        for (unsigned l = 0; l < 32; l++)
            cr_assert_eq(s.addr[i][l], BASE + 4 * i);
    launch_free(&g);
}

/* reuse_period 2: iteration i uses position i mod 2, so the lines go
 * +256, +768, +256, +768, +256 (512 B per position, as above). Two loads per
 * iteration: position q, load k reads element (2q + k)*128 + gid. */
Test(gen_memory, reuse_period_repeats_the_addresses)
{
    loads_seen s;
    gen_launch g;
    run_warp1("[loop]\ntrips = 5\n[memory]\npattern = coalesced\nloads = 2\nreuse_period = 2\n"
              "footprint = 65536\n[compute]\nops = 1\n", &s, &g);
    cr_assert_eq(s.n, 10);
    for (unsigned i = 0; i < 5; i++)
        for (unsigned k = 0; k < 2; k++)
            cr_assert_eq(s.line0[2 * i + k], BASE + 512 * (2 * (i % 2) + k) + 256, "i %u k %u", i, k);
    launch_free(&g);
}

/* gather: load 1 reads idx[(i*128 + gid)] coalesced; load 2 reads
 * data[idx value], whatever the initializer put there. */
Test(gen_memory, gather_reads_the_elements_the_index_array_names)
{
    loads_seen s;
    gen_launch g;
    run_warp1("[loop]\ntrips = 2\n[memory]\npattern = gather\nfootprint = 65536\n[compute]\nops = 0\n",
              &s, &g);
    cr_assert_eq(s.n, 4);
    uint64_t idx = symbol(g.k, "idx");
    for (unsigned i = 0; i < 2; i++) {
        cr_assert_eq(s.lines[2 * i], 1);
        cr_assert_eq(s.line0[2 * i], idx + 512 * i + 256);
        unsigned in_range = 0;
        for (unsigned l = 0; l < 32; l++) {
            uint64_t e = memimg_read(g.mem, idx + 4 * (128 * i + 64 + l), 4);
            in_range += e < 16384;
            cr_assert_eq(s.addr[2 * i + 1][l], BASE + 4 * e);
        }
        cr_assert_eq(in_range, 32);
        /* 32 random lines out of 512: about 31 distinct; 24 is far below. */
        cr_assert_geq(s.lines[2 * i + 1], 24);
    }
    launch_free(&g);
}

Test(gen_memory, cache_and_row_hints_go_on_the_data_loads)
{
    loads_seen s;
    gen_launch g;
    run_warp1("[loop]\ntrips = 2\n[memory]\npattern = coalesced\ncache = cg\nrowhint = yes\n"
              "footprint = 65536\n", &s, &g);
    cr_assert_eq(s.n, 2);
    for (unsigned i = 0; i < 2; i++) {
        cr_assert_eq(s.cache[i], ISA_CACHE_CG);
        cr_assert_eq(s.rowhint[i], 1);
    }
    launch_free(&g);
}

static uint32_t out_of(gen_launch *g, uint64_t gid)
{
    return (uint32_t)memimg_read(g->mem, symbol(g->k, "out") + 4 * gid, 4);
}

/* chase, ops 0: the result is the sum of the words visited. Thread gid
 * starts at member gid mod n (n = 4096/32 = 128 members), j = 32*(gid mod
 * 128), then 5 steps j = next[j]; out[gid] = j1 + ... + j5. */
Test(gen_memory, chase_follows_the_chain)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\ntrips = 5\n[memory]\npattern = chase\nfootprint = 16384\n"
                              "stride = 32\n[compute]\nops = 0\n", 3), 1, 64);
    launch_run(&g);
    for (uint64_t gid = 0; gid < 64; gid++) {
        uint64_t j = 32 * (gid % 128), sum = 0;
        for (int s = 0; s < 5; s++) {
            j = memimg_read(g.mem, BASE + 4 * j, 4);
            cr_assert_eq(j % 32, 0, "members are every 32nd word");
            sum += j;
        }
        cr_assert_eq(out_of(&g, gid), (uint32_t)sum, "gid %lu", (unsigned long)gid);
    }
    launch_free(&g);
}

/* csr, ops 0: V = 16384/4 = 4096 vertices; iteration i walks vertex
 * v = (i*64 + gid) mod 4096 (one CTA of 64: T = 64) and adds data[u] for
 * each neighbour u = edges[e], e in [off[v], off[v+1]). */
Test(gen_memory, csr_walk_sums_the_neighbours)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\ntrips = 2\n[memory]\npattern = csr\nfootprint = 16384\n"
                              "degree = 4\ndegree_dist = zipf\n[compute]\nops = 0\n", 9), 1, 64);
    launch_run(&g);
    uint64_t off = symbol(g.k, "off"), edges = symbol(g.k, "edges"), data = symbol(g.k, "data");
    uint64_t max_deg = 0;
    for (uint64_t gid = 0; gid < 64; gid++) {
        uint64_t sum = 0;
        for (uint64_t i = 0; i < 2; i++) {
            uint64_t v = (i * 64 + gid) % 4096;
            uint64_t e0 = memimg_read(g.mem, off + 4 * v, 4), e1 = memimg_read(g.mem, off + 4 * v + 4, 4);
            max_deg = e1 - e0 > max_deg ? e1 - e0 : max_deg;
            for (uint64_t e = e0; e < e1; e++)
                sum += memimg_read(g.mem, data + 4 * memimg_read(g.mem, edges + 4 * e, 4), 4);
        }
        cr_assert_eq(out_of(&g, gid), (uint32_t)sum, "gid %lu", (unsigned long)gid);
    }
    cr_assert_gt(max_deg, 4, "zipf degrees: some vertex has more than the average");
    launch_free(&g);
}

/* tree, ops 0: every search is for a key that is in the tree, and exactly
 * one slot holds it, so over a warp's 32 lanes the found counts sum to the
 * trips (3), in each of the 2 warps. */
Test(gen_memory, tree_search_finds_every_key_once)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\ntrips = 3\n[memory]\npattern = tree\ntree_levels = 1\n"
                              "[compute]\nops = 0\n", 4), 1, 64);
    launch_run(&g);
    for (uint64_t w = 0; w < 2; w++) {
        uint64_t found = 0;
        for (uint64_t l = 0; l < 32; l++)
            found += out_of(&g, 32 * w + l);
        cr_assert_eq(found, 3, "warp %lu", (unsigned long)w);
    }
    launch_free(&g);
}

/* store each: out[element] = accumulator at every iteration; with ops 0
 * the accumulator after iteration i is data[e_0] + ... + data[e_i]. Coalesced
 * on one CTA of 32 (T = 32): e_i = 32i + gid. */
Test(gen_memory, store_each_writes_every_element_read)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\ntrips = 3\n[memory]\npattern = coalesced\nfootprint = 65536\n"
                              "store = each\n[compute]\nops = 0\n", 2), 1, 32);
    launch_run(&g);
    for (uint64_t gid = 0; gid < 32; gid++) {
        uint64_t acc = 0;
        for (uint64_t i = 0; i < 3; i++) {
            acc += memimg_read(g.mem, BASE + 4 * (32 * i + gid), 4);
            cr_assert_eq(out_of(&g, 32 * i + gid), (uint32_t)acc);
        }
    }
    launch_free(&g);
}

static unsigned count_class(const isa_program *k, isa_class cls)
{
    unsigned n = 0;
    for (uint32_t pc = 0; pc < isa_program_ninst(k); pc++)
        n += isa_program_inst(k, pc)->cls == cls;
    return n;
}

Test(gen_memory, store_none_and_end)
{
    isa_program *k = gen_load("[memory]\nstore = none\n", 1);
    cr_assert_eq(count_class(k, ISA_CLASS_ST_GLOBAL), 0);
    cr_assert_not(isa_program_symbol(k, "out", &(uint64_t){0}));
    isa_program_free(k);
    k = gen_load("[memory]\nstore = end\n", 1);
    cr_assert_eq(count_class(k, ISA_CLASS_ST_GLOBAL), 1);
    isa_program_free(k);
}

/* footprint / width elements: 1 MiB of 8-byte elements is u64[131072]. */
Test(gen_memory, footprint_sizes_the_data_array)
{
    isa_program *k = gen_load("[memory]\nwidth = 8\nfootprint = 1048576\n", 1);
    const isa_data_decl *d = isa_program_data(k, 0);
    cr_assert_str_eq(d->name, "data");
    cr_assert_eq(d->count, 131072);
    cr_assert_eq(d->elem_bytes, 8);
    isa_program_free(k);
}

/* shared private, stride 32 words in 1024: lane l uses word 32l, byte 128l:
 * bank (128l/4) mod 32 = 0 for every lane, 32 distinct words: a 32-way
 * conflict. */
typedef struct shared_seen { unsigned n; uint64_t addr[32]; } shared_seen;
static void on_shared(uint32_t pc, const isa_exec_out *o, void *arg)
{
    (void)pc;
    shared_seen *s = arg;
    if (o->inst->cls == ISA_CLASS_LD_SHARED && s->n++ == 0)
        for (unsigned l = 0; l < 32; l++)
            s->addr[l] = o->addr[l];
}

Test(gen_memory, shared_stride_sets_the_banks)
{
    gen_launch g;
    launch_setup(&g, gen_load("[loop]\ntrips = 2\n[memory]\npattern = none\n"
                              "[shared]\npattern = private\nstride = 32\nwords = 1024\n", 1), 1, 32);
    g.cta = isa_cta_new(&g.launch, 0);
    isa_thread *lanes[32];
    for (unsigned l = 0; l < 32; l++)
        lanes[l] = isa_cta_thread(g.cta, l);
    shared_seen s = {0};
    isa_exec_out split;
    cr_assert_eq(run_warp(g.k, lanes, UINT32_MAX, 0, on_shared, &s, &split), ISA_PC_EXIT);
    cr_assert_eq(s.n, 2);
    for (unsigned l = 0; l < 32; l++) {
        cr_assert_eq(s.addr[l], 128 * l);
        cr_assert_eq(s.addr[l] / 4 % 32, 0);
    }
    launch_free(&g);
}

/* exchange with barriers runs to completion under the reference runner on a
 * CTA of 64 (two warps meet at each of the 2 barriers per iteration). */
Test(gen_memory, shared_exchange_with_barriers_runs)
{
    isa_program *k = gen_load("[loop]\ntrips = 4\nbarrier = true\n[memory]\npattern = none\n"
                              "[shared]\npattern = exchange\n", 1);
    cr_assert_eq(count_class(k, ISA_CLASS_BARRIER), 2);
    gen_launch g;
    launch_setup(&g, k, 2, 64);
    launch_run(&g);
    launch_free(&g);
}
