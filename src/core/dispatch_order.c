/* The H100's CTA placement (core.dispatch_order = h100): the SM of each
 * CTA of a launch on an idle chip, as ubench5 `place` recorded it on the
 * measured H100 (workloads/groundtruth/h100-extra/ubench5.csv): launches of
 * 1, 2, 4, ... 132 CTAs of 256 or 1,024 threads (both sizes gave the same
 * SMs in the same order). A launch of n CTAs uses the order measured for
 * the smallest measured grid of at least n CTAs (its first n SMs; the grids
 * between are not measured), then the rest of the chip in the 132-CTA
 * order; SMs past the chip (gpu.sms < 132) are left out, SMs past 131
 * follow in id order. */
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/dispatch_order.h"

static const uint8_t order_g1[1] = {
    124,
};
static const uint8_t order_g2[2] = {
    124, 126,
};
static const uint8_t order_g4[4] = {
    124, 126, 128, 130,
};
static const uint8_t order_g8[8] = {
    128, 129, 130, 131, 124, 125, 126, 127,
};
static const uint8_t order_g16[16] = {
    124, 125, 126, 127, 128, 129, 130, 131, 0, 2, 4, 6, 8, 10, 12, 14,
};
static const uint8_t order_g32[32] = {
    128, 129, 130, 131, 124, 125, 126, 127, 0, 16, 32, 2, 18, 34, 4, 20, 36, 6, 22, 38, 8, 24, 40,
    10, 26, 42, 12, 28, 44, 14, 30, 46,
};
static const uint8_t order_g64[64] = {
    124, 125, 126, 127, 128, 129, 130, 131, 0, 16, 32, 48, 2, 18, 34, 50, 64, 78, 92, 106, 4, 20,
    36, 52, 66, 80, 94, 108, 6, 22, 38, 54, 68, 82, 96, 110, 8, 24, 40, 56, 70, 84, 98, 10, 26, 42,
    58, 72, 86, 100, 12, 28, 44, 60, 74, 88, 102, 14, 30, 46, 62, 76, 90, 104,
};
static const uint8_t order_g132[132] = {
    128, 129, 130, 131, 124, 125, 126, 127, 0, 1, 16, 17, 32, 33, 48, 49, 2, 3, 18, 19, 34, 35, 50,
    51, 64, 65, 78, 79, 92, 93, 106, 107, 4, 5, 20, 21, 36, 37, 52, 53, 66, 67, 80, 81, 94, 95, 108,
    109, 6, 7, 22, 23, 38, 39, 54, 55, 68, 69, 82, 83, 96, 97, 110, 111, 8, 9, 24, 25, 40, 41, 56,
    57, 70, 71, 84, 85, 98, 99, 112, 113, 10, 11, 26, 27, 42, 43, 58, 59, 72, 73, 86, 87, 100, 101,
    114, 115, 12, 13, 28, 29, 44, 45, 60, 61, 74, 75, 88, 89, 102, 103, 116, 117, 120, 121, 14, 15,
    30, 31, 46, 47, 62, 63, 76, 77, 90, 91, 104, 105, 118, 119, 122, 123,
};

static const struct {
    unsigned n;
    const uint8_t *sm;
} measured[] = {{1, order_g1}, {2, order_g2}, {4, order_g4}, {8, order_g8}, {16, order_g16}, {32, order_g32}, {64, order_g64}, {132, order_g132}};

unsigned *dispatch_order_h100(unsigned nsms, uint64_t ncta)
{
    unsigned *o = g_new(unsigned, nsms);
    bool *used = g_new0(bool, nsms);
    unsigned k = 0, m = 0, last = G_N_ELEMENTS(measured) - 1;
    while (m < last && measured[m].n < ncta)
        m++;
    for (unsigned pass = 0; pass < 2; pass++) {   /* the launch's order, then the full round's */
        const unsigned idx = pass ? last : m;
        unsigned take = pass || ncta > measured[idx].n ? measured[idx].n : (unsigned)ncta;
        for (unsigned j = 0; j < take; j++) {
            unsigned s = measured[idx].sm[j];
            if (s < nsms && !used[s]) {
                used[s] = true;
                o[k++] = s;
            }
        }
    }
    for (unsigned s = 0; s < nsms; s++)
        if (!used[s])
            o[k++] = s;
    g_free(used);
    return o;
}
