/* Sub-warp formation of the Large Warp Microarchitecture (Narasiman et al.,
 * MICRO 2011 section 3.1.1; Narasiman's dissertation section 4.2.1, Fig.
 * 4.5): pure functions on a working copy W of a large warp's K x N active
 * mask (row r = bits of W[r], column c = SIMD lane c). Each call takes one
 * sub-warp out of W; `avail` (may be NULL) restricts it to threads not in
 * flight (relaxed re-fetch). row[l], col[l]: the thread on lane l. */
#ifndef SIMTGRID_CORE_LWM_FORM_H
#define SIMTGRID_CORE_LWM_FORM_H

#include <stdint.h>

/* Per column, the lowest row with an available thread (the priority
 * encoders of the papers). Returns the lane mask (0: none available). */
uint32_t lwm_take_column(uint32_t *W, const uint32_t *avail, unsigned K, uint8_t *row, uint8_t *col);
/* perfRF: the first `width` available threads in row-major order, on lanes
 * 0, 1, ... in that order, whatever their column. */
uint32_t lwm_take_any(uint32_t *W, const uint32_t *avail, unsigned K, unsigned width, uint8_t *row,
                      uint8_t *col);
/* The lowest row with an available thread, unpacked (the memory-divergence
 * optimisation; cross-lane instructions). */
uint32_t lwm_take_row(uint32_t *W, const uint32_t *avail, unsigned K, uint8_t *row, uint8_t *col);

#endif
