/* Cross-lane instructions: ballot, vote, shfl (and bcast) and TREE_TRAVERSE.
 * They see the lanes of one issue by lane position: bit l of a ballot is the
 * thread in lanes[l]. Only executing lanes (active, guard true) take part. */
#include "isa_exec_internal.h"
#include "simtgrid/bits.h"

static uint32_t pred_mask(const isa_operand *p, isa_thread *const *lanes, uint32_t ex)
{
    uint32_t m = 0;
    FOR_LANES(ex, l) m |= (uint32_t)predv(lanes[l], p) << l;
    return m;
}

/* floor(log2(x)) for x >= 1, 0 for x == 0: TREE_TRAVERSE's node-size shift. */
static inline unsigned log2_floor(uint64_t x)
{
    return x ? 63u - (unsigned)__builtin_clzll(x) : 0u;
}

/* shfl: lane l reads lane src(l)'s value of a; a source lane outside the
 * issue or not executing yields l's own value (CUDA's rule for up/down). */
static void exec_shfl(const isa_inst *in, isa_thread *const *lanes, uint32_t ex)
{
    uint64_t val[ISA_MAX_LANES];
    const unsigned ty = in->type, d = in->dst[0];
    FOR_LANES(ex, l) val[l] = isa_norm(opv(lanes[l], &in->src[0]), ty);
    FOR_LANES(ex, l) {
        uint64_t b = opv(lanes[l], &in->src[1]);
        uint64_t s;
        switch (in->sub) {
        case ISA_SHFL_IDX: s = b & 31; break;
        case ISA_SHFL_UP: s = b > l ? UINT64_MAX : l - b; break;
        case ISA_SHFL_DOWN: s = l + b; break;
        default: s = l ^ (b & 31); break;
        }
        bool ok = s < ISA_MAX_LANES && ((ex >> s) & 1u);
        lanes[l]->r[d] = ok ? val[s] : val[l];
    }
}

void isa_exec_warp(const isa_inst *in, isa_thread *const *lanes, uint32_t ex)
{
    switch (in->op) {
    case ISA_OP_BALLOT: {
        uint32_t m = pred_mask(&in->src[0], lanes, ex);
        FOR_LANES(ex, l) lanes[l]->r[in->dst[0]] = m;
        break;
    }
    case ISA_OP_VOTE: {
        uint32_t m = pred_mask(&in->src[0], lanes, ex);
        unsigned v = in->sub == ISA_VOTE_ANY ? m != 0 : in->sub == ISA_VOTE_ALL ? m == ex : (m == 0 || m == ex);
        FOR_LANES(ex, l) set_pred(lanes[l], in->pdst, v);
        break;
    }
    case ISA_OP_SHFL: exec_shfl(in, lanes, ex); break;
    case ISA_OP_TREE_TRAVERSE: {
        /* Narasiman's dissertation, section 7.2.1:
         * Dest = Base + (popc(all preds) << log2(node size)) */
        uint64_t cnt = (uint64_t)sg_popcount32(pred_mask(&in->src[1], lanes, ex));
        uint64_t res[ISA_MAX_LANES];
        FOR_LANES(ex, l) res[l] = opv(lanes[l], &in->src[0]) + (cnt << log2_floor(opv(lanes[l], &in->src[2])));
        FOR_LANES(ex, l) lanes[l]->r[in->dst[0]] = res[l];
        break;
    }
    default: break;
    }
}
