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

Test(wakeheap, matches_a_plain_scan_through_mixed_operations)
{
    /* 300 actors (ids over several 64-bit words), 20,000 operations drawn
     * from a fixed-seed generator: requests (many at a few shared times,
     * some lowering a queued actor, some later and ignored), removals and
     * pops, with the earliest time, the earliest actor and the runner-up's
     * time checked after each against a plain scan of the wanted times
     * (DES_NEVER: not queued), ties by id. Times come and go in the
     * middle of the queue as well as at its front. */
    enum { N = 300, OPS = 20000 };
    static des_actor acts[N];
    des_time want[N];
    wakeheap h;
    wakeheap_init(&h);
    for (unsigned i = 0; i < N; i++) {
        acts[i] = (des_actor){.id = i, .wake_at = DES_NEVER};
        want[i] = DES_NEVER;
    }
    uint64_t x = 88172645463325252ull;
    des_time now = 0;
    for (unsigned op = 0; op < OPS; op++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        unsigned id = (unsigned)(x % N), kind = (unsigned)((x >> 20) % 10);
        if (kind < 6) {   /* a request: a shared edge or a time of its own */
            des_time t = now + 1 + ((x >> 32) % 4 == 0 ? (x >> 40) % 50 : ((x >> 36) % 3) * 7);
            wakeheap_request(&h, &acts[id], t);
            if (t < want[id])
                want[id] = t;
        } else if (kind < 7) {
            wakeheap_remove(&h, &acts[id]);
            want[id] = DES_NEVER;
        } else {
            des_actor *a = wakeheap_pop(&h);
            unsigned best = N;
            for (unsigned i = 0; i < N; i++)
                if (want[i] != DES_NEVER && (best == N || want[i] < want[best]))
                    best = i;
            if (best == N) {
                cr_assert_null(a, "op %u", op);
                continue;
            }
            cr_assert_not_null(a, "op %u", op);
            cr_assert_eq(a->id, best, "op %u: popped %u, %u expected", op, a->id, best);
            now = want[best];
            want[best] = DES_NEVER;
        }
        des_time first = DES_NEVER, second = DES_NEVER;
        unsigned top = N;
        for (unsigned i = 0; i < N; i++) {
            if (want[i] < first) {
                second = first;
                first = want[i];
                top = i;
            } else if (want[i] < second)
                second = want[i];
        }
        cr_assert_eq(wakeheap_top_at(&h), first, "op %u", op);
        cr_assert_eq(wakeheap_second_at(&h), second, "op %u", op);
        if (top == N)
            cr_assert_null(wakeheap_top(&h), "op %u", op);
        else
            cr_assert_eq(wakeheap_top(&h)->id, top, "op %u", op);
    }
    /* A time whose only actor was taken out, asked for again. */
    while (wakeheap_pop(&h))
        ;
    wakeheap_request(&h, &acts[7], now + 5);
    wakeheap_remove(&h, &acts[7]);
    wakeheap_request(&h, &acts[3], now + 5);
    cr_assert_eq(wakeheap_top_at(&h), now + 5);
    cr_assert_eq(wakeheap_pop(&h), &acts[3]);
    cr_assert_null(wakeheap_pop(&h));
    wakeheap_free(&h);
}
