/* The wake-up heap pops its entries in (time, actor id) order whatever the
 * order of requests and lowerings: the engine's batch order rests on it. */
#include <criterion/criterion.h>
#include <glib.h>

#include "des/des_internal.h"

Test(wakeheap, pops_in_time_then_id_order)
{
    /* 50 actors; actor i asks for time (i * 7) % 13 (many ties), then
     * every third one lowers its request by 5 (floored at 0) and every
     * fifth asks for a later time (ignored). Expected order, worked out
     * apart from the heap: sort the final times, ties by id. */
    enum { N = 50 };
    static des_actor acts[N];
    des_time want[N];
    wakeheap h;
    wakeheap_init(&h);
    for (unsigned i = 0; i < N; i++) {
        acts[i] = (des_actor){.id = i, .wake_at = DES_NEVER};
        want[i] = (i * 7) % 13;
        wakeheap_request(&h, &acts[i], want[i]);
    }
    for (unsigned i = 0; i < N; i++) {
        if (i % 3 == 0) {
            want[i] = want[i] >= 5 ? want[i] - 5 : 0;
            wakeheap_request(&h, &acts[i], want[i]);
        }
        if (i % 5 == 0)
            wakeheap_request(&h, &acts[i], 100);
    }
    unsigned order[N];
    for (unsigned i = 0; i < N; i++)
        order[i] = i;
    for (unsigned i = 1; i < N; i++)   /* insertion sort by (time, id) */
        for (unsigned j = i; j > 0 && want[order[j]] < want[order[j - 1]]; j--) {
            unsigned t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (unsigned k = 0; k < N; k++) {
        des_actor *a = wakeheap_pop(&h);
        cr_assert_not_null(a, "pop %u", k);
        cr_assert_eq(a->id, order[k], "pop %u: actor %u, %u expected", k, a->id, order[k]);
        cr_assert_eq(a->wake_at, want[order[k]], "pop %u", k);
    }
    cr_assert_null(wakeheap_pop(&h));
    wakeheap_free(&h);
}
