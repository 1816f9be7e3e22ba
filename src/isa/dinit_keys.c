/* Key sets: sorted_keys and btree.
 *
 * Both draw from one strictly increasing key sequence,
 *     key(r) = start + r*step + hash(r) mod step,
 * (r*step + [0, step) are disjoint intervals), so a btree and a sorted_keys
 * array with the same seed, step and start hold the same keys: the sorted
 * array can feed the queries of a tree search.
 *
 * btree is the page-blocked P-ary search tree of the index search of
 * Narasiman's dissertation (Fig. 6.2, Kim et al.'s layout): a line node holds
 * P sorted keys in `width` slots (slots P.. are padding = all ones, so `key >
 * pad` is false); F = P+1 children per line node. A row node packs a complete
 * F-ary subtree of `block` line levels, its lines in breadth-first order; row
 * nodes are breadth-first too, with no child pointers: within a row node line
 * n's child c is line n*F+1+c, and from a bottom line u (position in the
 * bottom level) the child row node of row node k is k*F^block + 1 + u*F + c.
 * Keys are in every node (a B-tree, not a B+-tree): a complete tree of D =
 * block*levels line levels holds F^D - 1 keys, in-order ranks following the
 * layout. */
#include "dinit.h"

static inline uint64_t key_at(uint64_t hash_key, uint64_t start, uint64_t step, uint64_t rank)
{
    return start + rank * step + dinit_mulhi(dinit_hash(hash_key, rank), step);
}

static uint64_t value_sorted_keys(const dinit *d, uint64_t i)
{
    return key_at(d->key, d->u.keys.start, d->u.keys.step, i) & d->elem_mask;
}

/* start + last_rank*step + step-1 must not exceed `limit` */
static bool keys_fit(uint64_t start, uint64_t step, uint64_t last_rank, uint64_t limit)
{
    uint64_t top;
    return dinit_mul_add(last_rank, step, step - 1, &top) && top <= UINT64_MAX - start &&
           start + top <= limit;
}

bool dinit_setup_keys(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    if (ctx->is_float) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT, "needs an integer array");
        return false;
    }
    uint64_t step, start;
    if (!dinit_arg_u64(call, ctx, "step", false, 4, 1, UINT64_MAX, &step, err) ||
        !dinit_arg_u64(call, ctx, "start", false, 0, 0, UINT64_MAX, &start, err))
        return false;
    if (!keys_fit(start, step, ctx->count - 1, d->elem_mask)) {
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "%" G_GUINT64_FORMAT " keys from start with this step do not fit a %u-byte element",
                    ctx->count, d->elem_bytes);
        return false;
    }
    d->u.keys.start = start;
    d->u.keys.step = step;
    d->value = value_sorted_keys;
    return true;
}

static uint64_t value_btree(const dinit *d, uint64_t i)
{
    const dinit_btree *bt = &d->u.btree;
    if (i >= bt->tree_elems) return 0;
    uint64_t row = i / bt->row_elems, in_row = i % bt->row_elems;
    uint64_t line = in_row / bt->width, slot = in_row % bt->width;
    if (slot >= bt->keys_per_node) return bt->pad;
    uint64_t r = 0; /* row level of the row node */
    while (r + 1 < bt->levels && bt->first_row[r + 1] <= row) r++;
    uint64_t lam = 0; /* line level inside the row node */
    while (lam + 1 < bt->block && bt->first_line_local[lam + 1] <= line) lam++;
    uint64_t level = bt->block * r + lam;
    uint64_t pos = (row - bt->first_row[r]) * bt->pow_fanout[lam] + (line - bt->first_line_local[lam]);
    uint64_t height = bt->block * bt->levels - level; /* line levels in this node's subtree */
    /* subtree `pos` of its level starts at rank pos*F^h; slot s follows s+1
     * child subtrees of F^(h-1)-1 keys each and s separators */
    uint64_t rank = pos * bt->pow_fanout[height] + (slot + 1) * bt->pow_fanout[height - 1] - 1;
    return key_at(d->key, bt->start, bt->step, rank) & d->elem_mask;
}

/* Fills the power and first-index tables for `levels` row levels; false if a
 * size overflows 64 bits. *elems = elements of the complete tree. */
static bool btree_tables(dinit_btree *bt, uint64_t levels, uint64_t *elems)
{
    uint64_t depth = bt->block * levels;
    if (levels > DINIT_BTREE_MAX_LEVELS || depth > DINIT_BTREE_MAX_LEVELS) return false;
    bt->pow_fanout[0] = 1;
    for (uint64_t j = 0; j < depth; j++)
        if (!dinit_mul_add(bt->pow_fanout[j], bt->fanout, 0, &bt->pow_fanout[j + 1])) return false;
    bt->first_line_local[0] = 0;
    for (uint64_t j = 0; j < bt->block; j++)
        bt->first_line_local[j + 1] = bt->first_line_local[j] + bt->pow_fanout[j];
    uint64_t lines = bt->first_line_local[bt->block];
    bt->children_per_row = bt->pow_fanout[bt->block];
    if (!dinit_mul_add(lines, bt->width, 0, &bt->row_elems)) return false;
    bt->first_row[0] = 0;
    uint64_t level_rows = 1;
    for (uint64_t r = 0; r < levels; r++) {
        if (bt->first_row[r] > UINT64_MAX - level_rows) return false;
        bt->first_row[r + 1] = bt->first_row[r] + level_rows;
        if (r + 1 < levels && !dinit_mul_add(level_rows, bt->children_per_row, 0, &level_rows))
            return false;
    }
    return dinit_mul_add(bt->first_row[levels], bt->row_elems, 0, elems);
}

bool dinit_setup_btree(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    dinit_btree *bt = &d->u.btree;
    if (ctx->is_float) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT, "needs an integer array");
        return false;
    }
    uint64_t p, width, block, levels = 0, step, start, elems = 0;
    if (!dinit_arg_u64(call, ctx, "P", false, 30, 1, 65535, &p, err) ||
        !dinit_arg_u64(call, ctx, "width", false, p < 32 ? 32 : p, p, 65536, &width, err) ||
        !dinit_arg_u64(call, ctx, "block", false, 2, 1, 8, &block, err) ||
        !dinit_arg_u64(call, ctx, "levels", false, 0, 1, DINIT_BTREE_MAX_LEVELS, &levels, err) ||
        !dinit_arg_u64(call, ctx, "step", false, 4, 1, UINT64_MAX, &step, err) ||
        !dinit_arg_u64(call, ctx, "start", false, 0, 0, UINT64_MAX, &start, err))
        return false;
    bt->keys_per_node = p;
    bt->width = width;
    bt->block = block;
    bt->fanout = p + 1;
    if (levels == 0) { /* the deepest complete tree that fits the array */
        for (uint64_t r = 1; r <= DINIT_BTREE_MAX_LEVELS; r++) {
            uint64_t e;
            if (!btree_tables(bt, r, &e) || e > ctx->count) break;
            levels = r;
        }
        if (levels == 0) {
            uint64_t row = 0;
            btree_tables(bt, 1, &row);
            dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                        "one row node needs %" G_GUINT64_FORMAT " elements; the array has %" G_GUINT64_FORMAT,
                        row, ctx->count);
            return false;
        }
    }
    if (!btree_tables(bt, levels, &elems) || elems > ctx->count) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                    "a tree of %" G_GUINT64_FORMAT " row levels does not fit the array's %" G_GUINT64_FORMAT
                    " elements", levels, ctx->count);
        return false;
    }
    uint64_t keys = bt->pow_fanout[block * levels] - 1;
    /* keys must stay below the padding value (all ones) */
    if (!keys_fit(start, step, keys - 1, d->elem_mask - 1)) {
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "%" G_GUINT64_FORMAT " keys from start with this step do not fit below the "
                    "padding value of a %u-byte element", keys, d->elem_bytes);
        return false;
    }
    bt->levels = levels;
    bt->tree_elems = elems;
    bt->step = step;
    bt->start = start;
    bt->pad = d->elem_mask;
    d->value = value_btree;
    return true;
}
