/* perm_cycle: a random single-cycle permutation for pointer chasing.
 *
 * pi is a keyed bijection on [0, n): a 4-round balanced Feistel network on the
 * smallest even number of bits 2h with 2^2h >= n, cycle-walked (re-applied
 * while the result is >= n, which stays inside [0, n) because the network is a
 * permutation of [0, 2^2h)). The domain is < 4n, so a walk takes < 4 rounds of
 * the network on average. The chain visits pi(0), pi(1), ..., pi(n-1), pi(0):
 * successor(j) = pi(pi^-1(j) + 1 mod n), one cycle through all n members. */
#include "dinit.h"

void dinit_feistel_init(dinit_feistel *f, uint64_t key, uint64_t n)
{
    unsigned bits = 0; /* bits of n - 1 */
    for (uint64_t v = n > 0 ? n - 1 : 0; v; v >>= 1) bits++;
    unsigned half = (bits + 1) / 2;
    if (half < 1) half = 1;
    f->n = n;
    f->half_bits = half;
    f->half_mask = (UINT64_C(1) << half) - 1;
    for (unsigned r = 0; r < 4; r++) f->round_key[r] = dinit_hash(key, r);
}

static inline uint64_t round_fn(const dinit_feistel *f, unsigned r, uint64_t half)
{
    return dinit_hash(f->round_key[r], half) & f->half_mask;
}

/* One pass of the network over [0, 2^2h): (L, R) -> (R, L ^ F(R)) four times. */
static uint64_t permute_once(const dinit_feistel *f, uint64_t x)
{
    uint64_t left = x >> f->half_bits, right = x & f->half_mask;
    for (unsigned r = 0; r < 4; r++) {
        uint64_t t = left ^ round_fn(f, r, right);
        left = right;
        right = t;
    }
    return (left << f->half_bits) | right;
}

static uint64_t unpermute_once(const dinit_feistel *f, uint64_t y)
{
    uint64_t left = y >> f->half_bits, right = y & f->half_mask;
    for (unsigned r = 4; r-- > 0;) {
        uint64_t t = right ^ round_fn(f, r, left);
        right = left;
        left = t;
    }
    return (left << f->half_bits) | right;
}

uint64_t dinit_feistel_forward(const dinit_feistel *f, uint64_t x)
{
    uint64_t y = permute_once(f, x);
    while (y >= f->n) y = permute_once(f, y);
    return y;
}

uint64_t dinit_feistel_inverse(const dinit_feistel *f, uint64_t y)
{
    uint64_t x = unpermute_once(f, y);
    while (x >= f->n) x = unpermute_once(f, x);
    return x;
}

/* Element i = stride * j is chain member j and holds offset + scale * (element
 * index of its successor); the other elements hold 0. */
static uint64_t value_perm(const dinit *d, uint64_t i)
{
    uint64_t stride = d->u.perm.stride, j = i;
    if (stride != 1) {
        if (i % stride) return 0;
        j = i / stride;
    }
    const dinit_feistel *pi = &d->u.perm.pi;
    uint64_t pos = dinit_feistel_inverse(pi, j) + 1;
    if (pos == pi->n) pos = 0;
    uint64_t next_elem = dinit_feistel_forward(pi, pos) * stride;
    return (d->u.perm.offset + d->u.perm.scale * next_elem) & d->elem_mask;
}

bool dinit_setup_perm(dinit *d, const dinit_call *call, const dinit_ctx *ctx, GError **err)
{
    if (ctx->is_float) {
        dinit_error(err, ctx, MEMIMG_ERROR_LAYOUT, "needs an integer array (it stores indices)");
        return false;
    }
    uint64_t stride, addr, scale, offset;
    if (!dinit_arg_u64(call, ctx, "stride", false, 1, 1, ctx->count, &stride, err) ||
        !dinit_arg_u64(call, ctx, "addr", false, 0, 0, 1, &addr, err) ||
        !dinit_arg_u64(call, ctx, "scale", false, 1, 0, UINT64_MAX, &scale, err) ||
        !dinit_arg_u64(call, ctx, "offset", false, 0, 0, UINT64_MAX, &offset, err))
        return false;
    if (addr) {
        if (dinit_arg_text(call, "scale") || dinit_arg_text(call, "offset")) {
            dinit_error(err, ctx, MEMIMG_ERROR_BAD_VALUE,
                        "argument 'addr' = 1 stores byte addresses (base + index * element size) "
                        "and cannot be combined with '%s'",
                        dinit_arg_text(call, "scale") ? "scale" : "offset");
            return false;
        }
        scale = d->elem_bytes;
        offset = d->base;
    }
    uint64_t n = (ctx->count - 1) / stride + 1;
    uint64_t last_elem = (n - 1) * stride, max_value;
    if (!dinit_mul_add(scale, last_elem, offset, &max_value) || max_value > d->elem_mask) {
        dinit_error(err, ctx, MEMIMG_ERROR_RANGE,
                    "values up to offset + scale * %" G_GUINT64_FORMAT
                    " do not fit a %u-byte element", last_elem, d->elem_bytes);
        return false;
    }
    d->u.perm.stride = stride;
    d->u.perm.n = n;
    d->u.perm.scale = scale;
    d->u.perm.offset = offset;
    dinit_feistel_init(&d->u.perm.pi, d->key, n);
    d->value = value_perm;
    return true;
}
