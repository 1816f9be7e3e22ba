/* The one integer parser for every input format (parameters, kernels,
 * memory-image calls, traces): digits in a base, an optional sign, an
 * optional 0x/0b prefix and '_' separators where the format has them. The
 * whole text must be used; a value past 64 bits is told apart from a
 * malformed one so callers can say "out of range". */
#include "config/config_lib.h"

static int digit_of(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

num_status num_parse(const char *s, unsigned base, unsigned flags, uint64_t *mag, bool *neg)
{
    bool minus = false;
    if ((flags & NUM_SIGN) && (*s == '+' || *s == '-'))
        minus = *s++ == '-';
    /* The prefix: with base 0 it picks the base; with base 16 "0x" may be written. */
    if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (base == 0 && (flags & NUM_BIN) && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s += 2;
    } else if (base == 0) {
        base = 10;
    }
    uint64_t v = 0;
    unsigned ndigits = 0;
    bool range = false;
    for (; *s; s++) {
        if (*s == '_' && (flags & NUM_SEP))  /* digit separator: 1_000_000 */
            continue;
        int d = digit_of(*s);
        if (d < 0 || (unsigned)d >= base)
            return NUM_BAD;
        if (v > (UINT64_MAX - (unsigned)d) / base)
            range = true;  /* keep reading: a bad digit later makes it malformed */
        v = v * base + (unsigned)d;
        ndigits++;
    }
    if (!ndigits)
        return NUM_BAD;
    if (range)
        return NUM_RANGE;
    *mag = v;
    if (neg)
        *neg = minus;
    return NUM_OK;
}
