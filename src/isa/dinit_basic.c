/* The simple initializers: zero, const, iota, rand_int, rand_float.
 * Integers wrap modulo 2^(8*elem_bytes); floats are computed in double and
 * rounded once to the element's type. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "dinit.h"

static uint64_t float_bits(const dinit *d, double v)
{
    if (d->elem_bytes == 4) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* uniform in [0, 1) with 53 random bits */
static double unit_double(uint64_t h) { return (double)(h >> 11) * 0x1.0p-53; }

static uint64_t value_zero(const dinit *d, uint64_t i)
{
    (void)d, (void)i;
    return 0;
}

static uint64_t value_const(const dinit *d, uint64_t i)
{
    (void)i;
    return d->u.constant.bits;
}

static uint64_t value_iota_int(const dinit *d, uint64_t i)
{
    return (d->u.iota.start + i * d->u.iota.step) & d->elem_mask;
}

static uint64_t value_iota_float(const dinit *d, uint64_t i)
{
    return float_bits(d, d->u.iota.fstart + (double)i * d->u.iota.fstep);
}

static uint64_t value_rand_int(const dinit *d, uint64_t i)
{
    uint64_t h = dinit_hash(d->key, i);
    uint64_t r = d->u.rnd.range ? dinit_mulhi(h, d->u.rnd.range) : h;
    return (d->u.rnd.lo + r) & d->elem_mask;
}

static uint64_t value_rand_float(const dinit *d, uint64_t i)
{
    double hi = d->u.rnd.flo + d->u.rnd.fspan;
    double v = d->u.rnd.flo + d->u.rnd.fspan * unit_double(dinit_hash(d->key, i));
    if (d->elem_bytes == 4) {
        float f = (float)v, fhi = (float)hi;
        if (f >= fhi) f = nextafterf(fhi, -INFINITY); /* rounding must not reach hi */
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    if (v >= hi) v = nextafter(hi, -INFINITY);
    return float_bits(d, v);
}

static bool need_kind(const dinit_ctx *ctx, bool want_float, GError **err)
{
    if (ctx->is_float == want_float) return true;
    if (want_float)
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                    "needs a float array (f32 or f64); use rand_int for integers");
    else
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT,
                    "needs an integer array; use rand_float for floats");
    return false;
}

/* The largest finite magnitude the element's float type holds. */
static double float_limit(const dinit_ctx *ctx) { return ctx->elem_bytes == 4 ? FLT_MAX : DBL_MAX; }

static bool setup_const(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    d->value = value_const;
    if (ctx->is_float) {
        double v;
        if (!dinit_arg_double(call, ctx, "value", true, 0, -float_limit(ctx), float_limit(ctx), &v,
                              err))
            return false;
        d->u.constant.bits = float_bits(d, v);
        return true;
    }
    bool neg;
    if (!dinit_arg_elem_int(call, ctx, "value", true, 0, &d->u.constant.bits, &neg, err))
        return false;
    d->u.constant.bits &= d->elem_mask;
    return true;
}

static bool setup_iota(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    if (ctx->is_float) {
        d->value = value_iota_float;
        double lim = float_limit(ctx);
        return dinit_arg_double(call, ctx, "start", false, 0, -lim, lim, &d->u.iota.fstart, err) &&
               dinit_arg_double(call, ctx, "step", false, 1, -lim, lim, &d->u.iota.fstep, err);
    }
    d->value = value_iota_int;
    bool neg;
    return dinit_arg_elem_int(call, ctx, "start", false, 0, &d->u.iota.start, &neg, err) &&
           dinit_arg_elem_int(call, ctx, "step", false, 1, &d->u.iota.step, &neg, err);
}

static bool setup_rand_int(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    if (!need_kind(ctx, false, err)) return false;
    d->value = value_rand_int;
    uint64_t lo, hi;
    bool lo_neg, hi_neg;
    if (!dinit_arg_elem_int(call, ctx, "lo", false, 0, &lo, &lo_neg, err) ||
        !dinit_arg_elem_int(call, ctx, "hi", false, d->elem_mask, &hi, &hi_neg, err))
        return false;
    /* signed comparison once either bound is negative */
    bool ordered = (lo_neg || hi_neg) ? (int64_t)lo <= (int64_t)hi : lo <= hi;
    if (!ordered) {
        const char *lo_text = dinit_arg_text(call, "lo"), *hi_text = dinit_arg_text(call, "hi");
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE, "argument 'lo' = %s is above 'hi' = %s",
                    lo_text ? lo_text : "0 (default)", hi_text ? hi_text : "the element maximum");
        return false;
    }
    d->u.rnd.lo = lo;
    d->u.rnd.range = hi - lo + 1; /* 0 stands for 2^64 */
    return true;
}

static bool setup_rand_float(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    if (!need_kind(ctx, true, err)) return false;
    d->value = value_rand_float;
    double lim = float_limit(ctx), lo, hi;
    if (!dinit_arg_double(call, ctx, "lo", false, 0, -lim, lim, &lo, err) ||
        !dinit_arg_double(call, ctx, "hi", false, 1, -lim, lim, &hi, err))
        return false;
    bool ordered = ctx->elem_bytes == 4 ? (float)lo < (float)hi : lo < hi;
    if (!ordered || !isfinite(hi - lo)) {
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "argument 'lo' must be below 'hi' (and hi - lo finite in the element type)");
        return false;
    }
    d->u.rnd.flo = lo;
    d->u.rnd.fspan = hi - lo;
    return true;
}

bool dinit_setup_basic(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    const char *k = ctx->init;
    if (strcmp(k, "zero") == 0) {
        d->value = value_zero;
        return true;
    }
    if (strcmp(k, "const") == 0) return setup_const(d, call, ctx, err);
    if (strcmp(k, "iota") == 0) return setup_iota(d, call, ctx, err);
    if (strcmp(k, "rand_int") == 0) return setup_rand_int(d, call, ctx, err);
    return setup_rand_float(d, call, ctx, err);
}
