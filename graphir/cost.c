/*
 * Per-node figures for `kiln info`: multiply-accumulates per inference and
 * the weight elements a node owns.  Only Conv, Gemm and MatMul count MACs;
 * pooling, elementwise and data movement count none (the convention of
 * Darknet's BFLOPs and of most model zoos).
 *
 * Dims still unknown (a symbolic batch size) count as 1, so the figures are
 * per sample; a value of unknown rank gives -1 MACs.
 */
#include "graphir.h"

static const GirType *val_type(const GirGraph *g, int v)
{
    return v >= 0 && v < g->nval ? &g->vals[v].type : NULL;
}

/* Elements of a type, unknown dims as 1; -1 for an unknown rank. */
static int64_t count(const GirType *t)
{
    int64_t p = 1;
    int i;
    if (!t || t->rank < 0)
        return -1;
    for (i = 0; i < t->rank; i++) {
        int64_t d = t->dims[i] < 0 ? 1 : t->dims[i];
        if (d && p > INT64_MAX / d)
            return INT64_MAX;
        p *= d;
    }
    return p;
}

static int64_t mul(int64_t a, int64_t b)
{
    if (a < 0 || b < 0)
        return -1;
    if (a && b > INT64_MAX / a)
        return INT64_MAX;
    return a * b;
}

/* Whether input i is a learned parameter of this op.  BatchNormalization
 * counts only its bias B: at inference its four vectors fold into the
 * preceding Conv as one bias per channel, and that is how Darknet and the
 * model zoos count a BN convolution's parameters. */
static int is_param(GirOp op, int i)
{
    switch (op) {
    case GIR_OP_CONV: return i == 1 || i == 2;
    case GIR_OP_BATCHNORM: return i == 2;
    case GIR_OP_GEMM:
    case GIR_OP_MATMUL:
    case GIR_OP_ADD:
    case GIR_OP_SUB:
    case GIR_OP_MUL:
    case GIR_OP_DIV: return 1;
    default: return 0;
    }
}

GirNodeCost gir_node_cost(const GirGraph *g, const GirNode *n)
{
    GirNodeCost c = {0, 0};
    int i;
    for (i = 0; i < n->nin; i++) {
        int v = n->in[i];
        if (v >= 0 && v < g->nval && g->vals[v].kind == GIR_VAL_CONST && is_param(n->op, i)) {
            int64_t k = count(&g->vals[v].type);
            if (k > 0)
                c.params = k > INT64_MAX - c.params ? INT64_MAX : c.params + k;
        }
    }
    switch (n->op) {
    case GIR_OP_CONV: {
        /* out elems x (Cin / group) x kernel taps. */
        const GirType *y = n->nout ? val_type(g, n->out[0]) : NULL;
        const GirType *w = n->nin > 1 ? val_type(g, n->in[1]) : NULL;
        int64_t taps = 1;
        if (!y || !w || w->rank < 2) {
            c.macs = -1;
            break;
        }
        for (i = 1; i < w->rank; i++)
            taps = mul(taps, w->dims[i] < 0 ? 1 : w->dims[i]);
        c.macs = mul(count(y), taps);
        break;
    }
    case GIR_OP_GEMM: {
        const GirType *a = val_type(g, n->in[0]), *y = val_type(g, n->out[0]);
        int64_t k;
        if (!a || a->rank != 2 || !y) {
            c.macs = -1;
            break;
        }
        k = a->dims[gir_attr_int(n, "transA", 0) ? 0 : 1];
        c.macs = mul(count(y), k < 0 ? 1 : k);
        break;
    }
    case GIR_OP_MATMUL: {
        const GirType *a = val_type(g, n->in[0]), *y = val_type(g, n->out[0]);
        int64_t k;
        if (!a || a->rank < 1 || !y) {
            c.macs = -1;
            break;
        }
        k = a->dims[a->rank - 1];
        c.macs = mul(count(y), k < 0 ? 1 : k);
        break;
    }
    default:
        break;
    }
    return c;
}
