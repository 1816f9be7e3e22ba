/* Adaptive slip's divergence limit (src/core/dws_slip.c; Meng, Tarjan,
 * Skadron, DWS tech report CS-2010-5, section 5.7): on a scripted activity
 * trace the limit moves as the thresholds say. Intervals of 1000 cycles,
 * > 70 % memory wait: +1, else > 50 % active: -1, within [1, max]. */
#include <criterion/criterion.h>

#include "core/dws_slip.h"

Test(dws_slip, limit_follows_the_thresholds)
{
    dws_slip c;
    dws_slip_init(&c, 2, 16, 1000, 70, 50, 0);
    /* cumulative (memory-wait, active) cycles at each interval's end */
    dws_slip_observe(&c, 500, 400, 0);     /* mid-interval: no decision */
    cr_expect_eq(c.limit, 2);
    dws_slip_observe(&c, 1000, 800, 100);  /* 800/1000 = 80 % > 70 %: 3 */
    cr_expect_eq(c.limit, 3);
    dws_slip_observe(&c, 2000, 1500, 400); /* 700 = 70 %, not more; active 30 %: stays 3 */
    cr_expect_eq(c.limit, 3);
    dws_slip_observe(&c, 3000, 1700, 1000); /* memory 20 %, active 600 = 60 % > 50 %: 2 */
    cr_expect_eq(c.limit, 2);
    dws_slip_observe(&c, 4000, 1800, 1500); /* active 500 = 50 %, not more: stays 2 */
    cr_expect_eq(c.limit, 2);
    dws_slip_observe(&c, 5000, 1800, 2400); /* active 90 %: 1 */
    cr_expect_eq(c.limit, 1);
    dws_slip_observe(&c, 6000, 1800, 3300); /* active 90 %, at the floor: stays 1 */
    cr_expect_eq(c.limit, 1);
    /* seen late (skipped idle cycles): the interval [6000, 7300) is judged
     * over its 1300 cycles: 1000 memory-wait cycles = 76.9 % > 70 %: 2 */
    dws_slip_observe(&c, 7300, 2800, 3400);
    cr_expect_eq(c.limit, 2);
    cr_expect_eq(c.ups, 2);
    cr_expect_eq(c.downs, 2);
    cr_expect_eq(c.limit_max, 3);
    unsigned want[] = {3, 3, 2, 2, 1, 1, 2};
    cr_assert_eq(c.history->len, 7);
    for (unsigned i = 0; i < 7; i++)
        cr_expect_eq(g_array_index(c.history, unsigned, i), want[i], "interval %u", i);
    /* time-weighted: 2 x 1000 + 3 x 2000 + 2 x 2000 + 1 x 2300 = 14300
     * limit-cycles over 7300 cycles */
    cr_expect_float_eq(dws_slip_mean(&c, 7300, 0), 14300.0 / 7300.0, 1e-12);
    dws_slip_free(&c);
}

Test(dws_slip, limit_stops_at_its_maximum)
{
    dws_slip c;
    dws_slip_init(&c, 2, 3, 100, 70, 50, 0);
    /* three intervals all waiting for memory: 2 -> 3, then held at 3 */
    dws_slip_observe(&c, 100, 100, 0);
    dws_slip_observe(&c, 200, 200, 0);
    dws_slip_observe(&c, 300, 300, 0);
    cr_expect_eq(c.limit, 3);
    cr_expect_eq(c.ups, 1);
    dws_slip_free(&c);
}
