/* The atomic unit's per-line table (src/mem/atomic_lines.c): a line keeps
 * its next-start cycle while it can still constrain a request, and lines
 * whose next start is at or before the present turn are dropped once the
 * table reaches 1,024 lines (then twice the lines kept). */
#include <criterion/criterion.h>

#include "mem/atomic_lines.h"

Test(atomic_lines, a_line_keeps_its_next_start)
{
    atomic_lines *t = atomic_lines_new();
    *atomic_lines_next(t, 0x1000, 0) = 53;
    cr_expect_eq(*atomic_lines_next(t, 0x1080, 1), 0);   /* a new line */
    cr_expect_eq(*atomic_lines_next(t, 0x1000, 2), 53);
    cr_expect_eq(atomic_lines_held(t), 2);
    atomic_lines_free(t);
}

/* 5,000 lines, line i at turn i with next start i + 8 (the H100's gap):
 * when line 1,024 arrives (turn 1,024) the 1,024 lines held have next
 * starts 8..1,031, of which 8..1,024 (lines 0..1,016) are spent: 7 stay,
 * 8 with the new one; the next sweep comes at 1,024 lines again, so the
 * table never holds more than 1,024. Line 4,999's next start (5,007) and
 * line 4,995's (5,003) are still there at turn 5,000; line 0, dropped,
 * comes back as 0. */
Test(atomic_lines, spent_lines_are_dropped)
{
    atomic_lines *t = atomic_lines_new();
    unsigned most = 0;
    for (uint64_t i = 0; i < 5000; i++) {
        *atomic_lines_next(t, i * 128, (double)i) = (double)i + 8;
        if (atomic_lines_held(t) > most)
            most = atomic_lines_held(t);
    }
    cr_expect_eq(most, 1024);
    cr_expect_eq(*atomic_lines_next(t, 4999 * 128, 5000), 5007);
    cr_expect_eq(*atomic_lines_next(t, 4995 * 128, 5000), 5003);
    cr_expect_eq(*atomic_lines_next(t, 0, 5000), 0);
    atomic_lines_free(t);
}

/* Lines that still constrain are never dropped: 2,000 lines all with next
 * start 1e9 at turn 0..1,999 stay, and the sweep threshold doubles. */
Test(atomic_lines, lines_in_use_stay)
{
    atomic_lines *t = atomic_lines_new();
    for (uint64_t i = 0; i < 2000; i++)
        *atomic_lines_next(t, i * 128, (double)i) = 1e9;
    cr_expect_eq(atomic_lines_held(t), 2000);
    cr_expect_eq(*atomic_lines_next(t, 0, 2000), 1e9);
    atomic_lines_free(t);
}
