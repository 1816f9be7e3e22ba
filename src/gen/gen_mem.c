/* Memory patterns: the data arrays each pattern declares and the loads of
 * one loop iteration. Position q (r3, or r3 mod reuse_period) and load k of
 * L per iteration give, for thread gid of T in the grid and N elements:
 *   coalesced  element ((q*L + k)*T + gid) mod N      (a warp reads consecutive elements)
 *   strided    element (gid*stride + q*L + k) mod N   (each thread walks its own row)
 *   broadcast  element (q*L + k) mod N                (every thread the same element)
 *   gather     element idx[(q*L + k)*T + gid mod N], idx uniform on [0, N)
 *   chase      j = next[j], a random cycle over every stride-th word
 *   csr        vertex v = (q*T + gid) mod V: read off[v], off[v+1], then for
 *              each edge e: u = edges[e], read data[u]
 *   tree       a 31-ary search for a key per warp, as the index kernel of
 *              Narasiman's dissertation (section 6.2.3), with TREE_TRAVERSE */
#include "gen/gen_internal.h"

/* Elements of the out array for patterns whose stores are not per element. */
#define OUT_WORDS 1048576u

static const char *ld_op(gen_ctx *c)
{
    static const char *const cache[] = {"", ".cg", ".cs"};
    static char buf[64];
    g_snprintf(buf, sizeof buf, "ld.global%s%s", cache[gp_int(c->p, K_MEM_CACHE)],
               gp_int(c->p, K_MEM_ROWHINT) ? ".rowhint" : "");
    return buf;
}

/* 961^levels - 1 keys; rows = (961^levels - 1) / 960 row nodes of 1024 words. */
static uint64_t tree_keys(int64_t levels)
{
    uint64_t n = 1;
    for (int64_t l = 0; l < levels; l++)
        n *= 961;
    return n - 1;
}

void gen_mem_decls(gen_ctx *c)
{
    const gen_profile *p = c->p;
    GString *o = c->out;
    uint64_t n = c->n_elems;
    int64_t pat = gp_int(p, K_MEM_PATTERN);
    c->n_out = pat == PAT_CHASE || pat == PAT_CSR || pat == PAT_TREE || pat == PAT_NONE ? OUT_WORDS : n;
    switch (pat) {
    case PAT_COALESCED: case PAT_STRIDED: case PAT_BROADCAST: case PAT_GATHER:
        if (gp_int(p, K_MEM_WIDTH) == 2)
            g_string_append_printf(o, ".data data u32[%" G_GUINT64_FORMAT "] = rand_int(lo=0, hi=65535, seed=%u)"
                                      "   // %" G_GUINT64_FORMAT " elements of 16 B\n", 4 * n, c->seed_data, n);
        else
            g_string_append_printf(o, ".data data %s[%" G_GUINT64_FORMAT "] = rand_int(lo=0, hi=65535, seed=%u)\n",
                                   gp_int(p, K_MEM_WIDTH) ? "u64" : "u32", n, c->seed_data);
        if (pat == PAT_GATHER)
            g_string_append_printf(o, ".data idx u32[%" G_GUINT64_FORMAT "] = rand_int(lo=0, hi=%" G_GUINT64_FORMAT
                                      ", seed=%u)\n", n, n - 1, c->seed_index);
        break;
    case PAT_CHASE:
        g_string_append_printf(o, ".data data u32[%" G_GUINT64_FORMAT "] = perm_cycle(seed=%u, stride=%" G_GINT64_FORMAT ")\n",
                               n, c->seed_data, gp_int(p, K_MEM_STRIDE));
        break;
    case PAT_CSR: {
        static const char *const dist[] = {"uniform", "pair", "zipf"};
        char *args = g_strdup_printf("vertices=%" G_GUINT64_FORMAT ", degree=%" G_GINT64_FORMAT
                                     ", dist=%s, window=%" G_GINT64_FORMAT ", seed=%u",
                                     n, gp_int(p, K_MEM_DEGREE), dist[gp_int(p, K_MEM_DEGREE_DIST)],
                                     gp_int(p, K_MEM_WINDOW), c->seed_graph);
        g_string_append_printf(o, ".data off u32[%" G_GUINT64_FORMAT "] = csr_offsets(%s)\n", n + 1, args);
        g_string_append_printf(o, ".data edges u32[%" G_GUINT64_FORMAT "] = csr_edges(%s)\n",
                               n * (uint64_t)gp_int(p, K_MEM_DEGREE), args);
        g_string_append_printf(o, ".data data u32[%" G_GUINT64_FORMAT "] = rand_int(lo=0, hi=65535, seed=%u)\n",
                               n, c->seed_data);
        g_free(args);
        break;
    }
    case PAT_TREE: {
        uint64_t keys = tree_keys(gp_int(p, K_MEM_TREE_LEVELS));
        g_string_append_printf(o, ".data tree u32[%" G_GUINT64_FORMAT "] = btree(levels=%" G_GINT64_FORMAT
                                  ", seed=%u)\n", keys / 960 * 1024, gp_int(p, K_MEM_TREE_LEVELS), c->seed_graph);
        g_string_append_printf(o, ".data keys u32[%" G_GUINT64_FORMAT "] = sorted_keys(seed=%u)\n", keys,
                               c->seed_graph);
        break;
    }
    default:
        break;
    }
    if (gp_int(p, K_MEM_STORE) != STORE_NONE)
        g_string_append_printf(o, ".data out u32[%" G_GUINT64_FORMAT "]\n", c->n_out);
}

void gen_mem_prologue(gen_ctx *c)
{
    const gen_profile *p = c->p;
    if (gp_int(p, K_MEM_PATTERN) == PAT_CHASE) {
        int64_t stride = gp_int(p, K_MEM_STRIDE);
        uint64_t members = (c->n_elems + (uint64_t)stride - 1) / (uint64_t)stride;
        gen_comment(c, "chase: start at chain member gid mod %" G_GUINT64_FORMAT, members);
        gen_line(c, "mov r%d, r%d", c->r_cur, R_GID);
        gen_mod(c, c->r_cur, members);
        gen_line(c, "mul r%d, r%d, %" G_GINT64_FORMAT, c->r_cur, c->r_cur, stride);
    }
}

/* Byte address of element R_IDX into R_ADDR, then the load into r7... */
static void load_data(gen_ctx *c, const char *array)
{
    gen_line(c, "shl r%d, r%d, %u", R_ADDR, R_IDX, c->log2_width);
    switch (gp_int(c->p, K_MEM_WIDTH)) {
    case 0: gen_line(c, "%s.u32 r%d, [r%d+@%s]", ld_op(c), R_VAL, R_ADDR, array); break;
    case 1: gen_line(c, "%s.u64 r%d, [r%d+@%s]", ld_op(c), R_VAL, R_ADDR, array); break;
    default:
        gen_line(c, "%s.v4.u32 {r%d, r%u, r%u, r%u}, [r%d+@%s]", ld_op(c), R_VAL, c->r_val2,
                 c->r_val2 + 1, c->r_val2 + 2, R_ADDR, array);
        break;
    }
}

/* One load of the element patterns (coalesced, strided, broadcast, gather). */
static void element_load(gen_ctx *c, int64_t k)
{
    const gen_profile *p = c->p;
    int64_t loads = gp_int(p, K_MEM_LOADS), pat = gp_int(p, K_MEM_PATTERN);
    gen_line(c, "mad r%d, r%u, %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "      // q*L + k", R_IDX,
             c->pos, loads, k);
    if (pat == PAT_COALESCED || pat == PAT_GATHER)
        gen_line(c, "mad r%d, r%d, r%d, r%d         // * threads + gid", R_IDX, R_IDX, R_NTHREADS, R_GID);
    else if (pat == PAT_STRIDED)
        gen_line(c, "mad r%d, r%d, %" G_GINT64_FORMAT ", r%d       // + gid * stride", R_IDX, R_GID,
                 gp_int(p, K_MEM_STRIDE), R_IDX);
    gen_mod(c, R_IDX, c->n_elems);
    if (pat == PAT_GATHER) {
        gen_line(c, "shl r%d, r%d, 2", R_ADDR, R_IDX);
        gen_line(c, "ld.global.u32 r%d, [r%d+@idx]   // random element", R_IDX, R_ADDR);
    }
    load_data(c, "data");
}

static void chase_step(gen_ctx *c)
{
    gen_line(c, "shl r%d, r%d, 2", R_ADDR, c->r_cur);
    gen_line(c, "%s.u32 r%d, [r%d+@data]   // j = next[j]", ld_op(c), c->r_cur, R_ADDR);
}

/* Compute chunk after load k: its consumer, ops, and (after the first) the
 * branch region. */
static void after_load(gen_ctx *c, int64_t k)
{
    gen_consume(c, c->val, (unsigned)k);
    gen_compute_ops(c, gp_int(c->p, K_OPS), "");
    if (k == 0)
        gen_branch_region(c);
}

static void csr_body(gen_ctx *c)
{
    unsigned n = ++c->labels;
    gen_comment(c, "vertex v = (q * threads + gid) mod %" G_GUINT64_FORMAT, c->n_elems);
    gen_line(c, "mad r%d, r%u, r%d, r%d", c->r_cur, c->pos, R_NTHREADS, R_GID);
    gen_mod(c, c->r_cur, c->n_elems);
    gen_line(c, "shl r%d, r%d, 2", R_ADDR, c->r_cur);
    gen_line(c, "ld.global.u32 r%d, [r%d+@off]       // first edge", c->r_e, R_ADDR);
    gen_line(c, "ld.global.u32 r%d, [r%d+@off+4]     // end of edges", c->r_eend, R_ADDR);
    gen_line(c, "setp.ge.u32 p5, r%d, r%d", c->r_e, c->r_eend);
    gen_line(c, "@p5 bra edges_done_%u", n);
    gen_label(c, "edges", n);
    gen_line(c, "shl r%d, r%d, 2", R_ADDR, c->r_e);
    gen_line(c, "ld.global.u32 r%d, [r%d+@edges]     // neighbour u", R_IDX, R_ADDR);
    load_data(c, "data");
    after_load(c, 0);
    gen_line(c, "add r%d, r%d, 1", c->r_e, c->r_e);
    gen_line(c, "setp.lt.u32 p5, r%d, r%d", c->r_e, c->r_eend);
    gen_line(c, "@p5 bra edges_%u", n);
    gen_label(c, "edges_done", n);
}

/* One key per warp and iteration; each lane compares one slot of a line.
 * Per row level: count = keys of the top line below the key; line 1+count
 * gives count2; next row node = node*961 + 1 + count*31 + count2. A lane
 * whose slot equals the key adds 1 to r10 (the first integer accumulator). */
static void tree_body(gen_ctx *c)
{
    uint64_t keys = tree_keys(gp_int(c->p, K_MEM_TREE_LEVELS));
    gen_comment(c, "key index = (warp * %u + q * %u) mod %" G_GUINT64_FORMAT ", the same in every lane",
                c->k1, c->k2, keys);
    gen_line(c, "shr r%d, r%d, 5", R_TMP, R_GID);
    gen_line(c, "mul r%d, r%d, %u", R_TMP, R_TMP, c->k1);
    gen_line(c, "mad r%d, r%u, %u, r%d", R_TMP, c->pos, c->k2, R_TMP);
    gen_mod(c, R_TMP, keys);
    gen_line(c, "shl r%d, r%d, 2", R_ADDR, R_TMP);
    gen_line(c, "ld.global.u32 r%d, [r%d+@keys]", R_HASH, R_ADDR);
    gen_line(c, "mov r%d, 0                   // row node", c->r_cur);
    for (int64_t l = 0; l < gp_int(c->p, K_MEM_TREE_LEVELS); l++) {
        gen_comment(c, "row level %" G_GINT64_FORMAT ": top line, then line 1 + count", l);
        gen_line(c, "shl r%d, r%d, 10", c->r_eend, c->r_cur);
        gen_line(c, "add r%d, r%d, r%d", c->r_eend, c->r_eend, R_LANE);
        gen_line(c, "shl r%d, r%d, 2", R_ADDR, c->r_eend);
        gen_line(c, "%s.u32 r%d, [r%d+@tree]", ld_op(c), R_VAL, R_ADDR);
        gen_line(c, "setp.gt.u32 p2, r%d, r%d", R_HASH, R_VAL);
        gen_line(c, "setp.eq.u32 p3, r%d, r%d", R_HASH, R_VAL);
        gen_line(c, "@p3 add r%d, r%d, 1          // found", R_IACC, R_IACC);
        gen_line(c, "ballot r%d, p2", R_TMP);
        gen_line(c, "popc r%d, r%d                 // count", c->r_e, R_TMP);
        gen_line(c, "add r%d, r%d, 32", c->r_eend, c->r_eend);
        gen_line(c, "tree_traverse r%d, r%d, p2, 32  // slot of line 1 + count", R_IDX, c->r_eend);
        gen_line(c, "shl r%d, r%d, 2", R_ADDR, R_IDX);
        gen_line(c, "%s.u32 r%d, [r%d+@tree]", ld_op(c), R_VAL, R_ADDR);
        gen_line(c, "setp.gt.u32 p2, r%d, r%d", R_HASH, R_VAL);
        gen_line(c, "setp.eq.u32 p3, r%d, r%d", R_HASH, R_VAL);
        gen_line(c, "@p3 add r%d, r%d, 1          // found", R_IACC, R_IACC);
        gen_line(c, "ballot r%d, p2", R_TMP);
        gen_line(c, "popc r%d, r%d                 // count2", R_TMP, R_TMP);
        gen_line(c, "mul r%d, r%d, 961", c->r_cur, c->r_cur);
        gen_line(c, "mad r%d, r%d, 31, r%d", c->r_cur, c->r_e, c->r_cur);
        gen_line(c, "add r%d, r%d, r%d", c->r_cur, c->r_cur, R_TMP);
        gen_line(c, "add r%d, r%d, 1", c->r_cur, c->r_cur);
    }
    gen_compute_ops(c, gp_int(c->p, K_OPS), "");
    gen_branch_region(c);
}

void gen_mem_body(gen_ctx *c)
{
    const gen_profile *p = c->p;
    int64_t pat = gp_int(p, K_MEM_PATTERN), loads = gp_int(p, K_MEM_LOADS);
    switch (pat) {
    case PAT_NONE:
        gen_compute_ops(c, gp_int(p, K_OPS), "");
        gen_branch_region(c);
        return;
    case PAT_CSR:
        csr_body(c);
        return;
    case PAT_TREE:
        tree_body(c);
        return;
    case PAT_CHASE:
        c->val = c->r_cur;
        for (int64_t k = 0; k < loads; k++) {
            chase_step(c);
            after_load(c, k);
        }
        return;
    default:
        for (int64_t k = 0; k < loads; k++) {
            gen_comment(c, "load %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT, k + 1, loads);
            element_load(c, k);
            after_load(c, k);
        }
        return;
    }
}

void gen_mem_store_each(gen_ctx *c)
{
    int64_t pat = gp_int(c->p, K_MEM_PATTERN);
    if (pat == PAT_NONE || pat == PAT_CHASE || pat == PAT_CSR || pat == PAT_TREE) {
        gen_comment(c, "out[(q * threads + gid) mod %" G_GUINT64_FORMAT "] = accumulator", c->n_out);
        gen_line(c, "mad r%d, r%u, r%d, r%d", R_IDX, c->pos, R_NTHREADS, R_GID);
        gen_mod(c, R_IDX, c->n_out);
    } else {
        gen_comment(c, "out[element of the last load] = accumulator");
    }
    gen_line(c, "shl r%d, r%d, 2", R_ADDR, R_IDX);
    gen_line(c, "st.global.u32 [r%d+@out], r%d", R_ADDR, R_IACC);
}
