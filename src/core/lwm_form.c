/* LWM sub-warp formation (lwm_form.h). */
#include "core/lwm_form.h"

static inline uint32_t avail_of(const uint32_t *avail, unsigned r)
{
    return avail ? avail[r] : UINT32_MAX;
}

/* The threads of row r in `take` keep their column: lane c gets (r, c). */
static inline void place_row(uint32_t take, unsigned r, uint8_t *row, uint8_t *col)
{
    for (uint32_t m = take; m; m &= m - 1) {
        unsigned c = (unsigned)__builtin_ctz(m);
        row[c] = (uint8_t)r;
        col[c] = (uint8_t)c;
    }
}

uint32_t lwm_take_column(uint32_t *W, const uint32_t *avail, unsigned K, uint8_t *row, uint8_t *col)
{
    uint32_t sel = 0;
    for (unsigned r = 0; r < K && sel != UINT32_MAX; r++) {
        uint32_t take = W[r] & avail_of(avail, r) & ~sel;
        if (!take)
            continue;
        sel |= take;
        W[r] &= ~take;
        place_row(take, r, row, col);
    }
    return sel;
}

uint32_t lwm_take_any(uint32_t *W, const uint32_t *avail, unsigned K, unsigned width, uint8_t *row,
                      uint8_t *col)
{
    unsigned n = 0;
    for (unsigned r = 0; r < K && n < width; r++) {
        uint32_t m = W[r] & avail_of(avail, r);
        while (m && n < width) {
            unsigned c = (unsigned)__builtin_ctz(m);
            m &= m - 1;
            W[r] &= ~(UINT32_C(1) << c);
            row[n] = (uint8_t)r;
            col[n] = (uint8_t)c;
            n++;
        }
    }
    return n >= 32 ? UINT32_MAX : (UINT32_C(1) << n) - 1;
}

uint32_t lwm_take_row(uint32_t *W, const uint32_t *avail, unsigned K, uint8_t *row, uint8_t *col)
{
    for (unsigned r = 0; r < K; r++) {
        uint32_t take = W[r] & avail_of(avail, r);
        if (!take)
            continue;
        W[r] &= ~take;
        place_row(take, r, row, col);
        return take;
    }
    return 0;
}
