/* The crossbar's statistics for cycles it ran ahead of the engine's time
 * (issue 20). It runs ahead past the earliest possible end of the run
 * (the deep stop bound, a core cycle or two while the SMs wait on loads):
 * an update made at a cycle after the engine's time is held back as a
 * note, counted once the engine's time reaches that cycle, and dropped
 * if the run ends before it, so every statistic holds its value as of
 * the end, as if the crossbar had stepped (docs/des.md, "An end of run
 * that run-ahead cannot overshoot"). Its messages need nothing: a
 * message due after the end is never delivered. Notes are made in cycle
 * order, so those due form a prefix. */
#include "noc/xbar_internal.h"

static void apply(xbar *x, const xbar_note *n)
{
    if (n->counter)
        *n->counter += n->v;
    else
        stats_hist_add(&x->queue_delay, n->v);
}

void xbar_note_add(xbar *x, uint64_t c, uint64_t *counter, uint64_t v, uint64_t from)
{
    xbar_note n = {.cycle = c, .counter = counter, .v = v, .from = from};
    if (c <= x->final_cycle)
        apply(x, &n);
    else
        g_array_append_val(x->notes, n);
}

void xbar_notes_commit(xbar *x, uint64_t final)
{
    x->final_cycle = final;
    unsigned k = x->notes_head;
    for (; k < x->notes->len && g_array_index(x->notes, xbar_note, k).cycle <= final; k++)
        apply(x, &g_array_index(x->notes, xbar_note, k));
    if (k == x->notes->len) {
        g_array_set_size(x->notes, 0);
        k = 0;
    }
    x->notes_head = k;
}

void xbar_notes_close(xbar *x, uint64_t end)
{
    xbar_notes_commit(x, end);
    /* A full input that became free after the end counts its cycles up
     * to the end (from: the cycle it became full); the rest are dropped. */
    for (unsigned k = x->notes_head; k < x->notes->len; k++) {
        const xbar_note *n = &g_array_index(x->notes, xbar_note, k);
        if (n->from != UINT64_MAX && end > n->from)
            *n->counter += end - n->from;
    }
    g_array_set_size(x->notes, 0);
    x->notes_head = 0;
}
