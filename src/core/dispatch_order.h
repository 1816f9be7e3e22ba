#ifndef SIMTGRID_CORE_DISPATCH_ORDER_H
#define SIMTGRID_CORE_DISPATCH_ORDER_H
#include <stdint.h>

/* core.dispatch_order = h100: the order (a permutation of SMs 0..nsms-1,
 * g_free it) in which a launch of ncta CTAs visits the SMs (dispatch_order.c). */
unsigned *dispatch_order_h100(unsigned nsms, uint64_t ncta);

#endif
