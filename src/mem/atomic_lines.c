/* A line whose next-start cycle is at or before the unit's present turn
 * constrains no later request (every later request's start is at least its
 * own turn, and turns never go back), so such lines are dropped whenever the
 * table has doubled since the last sweep: the table holds about the lines
 * with requests in flight, not every line ever touched (memory independent
 * of run length, issue 20), at amortised O(1) per request, and a dropped
 * line comes back as 0, which is what it would have said. */
#include "mem/atomic_lines.h"

#include <glib.h>

typedef struct line_state {
    uint64_t line;   /* the key */
    double next;
} line_state;

struct atomic_lines {
    GHashTable *h;
    guint sweep_at;   /* size at which spent lines are dropped */
};

enum { SWEEP_MIN = 1024 };

atomic_lines *atomic_lines_new(void)
{
    atomic_lines *t = g_new(atomic_lines, 1);
    t->h = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
    t->sweep_at = SWEEP_MIN;
    return t;
}

void atomic_lines_free(atomic_lines *t)
{
    if (!t)
        return;
    g_hash_table_destroy(t->h);
    g_free(t);
}

static gboolean spent(gpointer key, gpointer value, gpointer turn)
{
    (void)key;
    return ((line_state *)value)->next <= *(double *)turn;
}

double *atomic_lines_next(atomic_lines *t, uint64_t line, double turn)
{
    line_state *a = g_hash_table_lookup(t->h, &line);
    if (a)
        return &a->next;
    if (g_hash_table_size(t->h) >= t->sweep_at) {
        g_hash_table_foreach_remove(t->h, spent, &turn);
        t->sweep_at = MAX(SWEEP_MIN, 2 * g_hash_table_size(t->h));
    }
    a = g_new(line_state, 1);
    a->line = line;
    a->next = 0;
    g_hash_table_insert(t->h, &a->line, a);
    return &a->next;
}

unsigned atomic_lines_held(const atomic_lines *t)
{
    return g_hash_table_size(t->h);
}
