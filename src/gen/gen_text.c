/* Writing the kernel text: the seeded random stream and the helpers that
 * print one instruction, comment or label in the house layout. */
#include <stdarg.h>
#include <string.h>

#include "config/param_check.h"
#include "gen/gen_internal.h"

uint64_t gen_rand(gen_ctx *c)
{
    /* splitmix64: a fixed, documented generator, so a seed gives the same
     * kernel on every platform and library version. */
    uint64_t z = (c->rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t gen_below(gen_ctx *c, uint64_t n)
{
    return gen_rand(c) % n; /* bias below n / 2^64: nothing at these sizes */
}

void gen_line(gen_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    /* Trailing comments start at one column, so the listing reads as a table. */
    char *cmt = strstr(text, "//");
    if (cmt && cmt > text) {
        cmt[-1] = '\0';
        g_strchomp(text);
        g_string_append_printf(c->out, "    %-34s %s\n", text, cmt);
    } else {
        g_string_append_printf(c->out, "    %s\n", text);
    }
    g_free(text);
}

void gen_comment(gen_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_string_append(c->out, "    // ");
    g_string_append_vprintf(c->out, fmt, ap);
    g_string_append_c(c->out, '\n');
    va_end(ap);
}

void gen_label(gen_ctx *c, const char *name, unsigned n)
{
    g_string_append_printf(c->out, "%s_%u:\n", name, n);
}


void gen_mod(gen_ctx *c, unsigned reg, uint64_t n)
{
    if (n == 1)
        gen_line(c, "mov r%u, 0", reg);
    else if (is_pow2(n))
        gen_line(c, "and r%u, r%u, %" G_GUINT64_FORMAT, reg, reg, n - 1);
    else
        gen_line(c, "rem r%u, r%u, %" G_GUINT64_FORMAT, reg, reg, n);
}
