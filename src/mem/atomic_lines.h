/* The L2 atomic unit's per-line state (l2.atomic_line_gap): for each line,
 * the earliest cycle its next non-forwarded request may start. */
#ifndef SIMTGRID_MEM_ATOMIC_LINES_H
#define SIMTGRID_MEM_ATOMIC_LINES_H

#include <stdint.h>

typedef struct atomic_lines atomic_lines;

atomic_lines *atomic_lines_new(void);
void atomic_lines_free(atomic_lines *t);
/* The next-start cycle of `line` (0 for a line not held), for a request
 * whose turn at the unit is `turn`; turns never go back. */
double *atomic_lines_next(atomic_lines *t, uint64_t line, double turn);
unsigned atomic_lines_held(const atomic_lines *t);

#endif
