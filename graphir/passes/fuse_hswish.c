/*
 * fuse_hswish: the HardSwish and HardSigmoid that exporters spell out in
 * arithmetic become one node each, so the quantizer sees one function of
 * one input (a LutI8 table) instead of four fp32 nodes.  paddle2onnx writes
 * HardSwish as x * clip(x + 3, 0, 6) / 6; the forms recognised:
 *
 *   Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6)     -> HardSwish(x)
 *   Mul(Mul(x, Clip(Add(x, 3), 0, 6)), 1/6)   -> HardSwish(x)
 *   Div(Clip(Add(x, 3), 0, 6), 6)             -> HardSigmoid(x, 1/6, 0.5)
 *   Mul(Clip(Add(x, 3), 0, 6), 1/6)           -> HardSigmoid(x, 1/6, 0.5)
 *   Mul(x, HardSigmoid(x, 1/6, 0.5))          -> HardSwish(x)
 *
 * Operands of Add and Mul in either order; the constants f32 scalars (any
 * shape of one element); every intermediate value read only inside the
 * pattern (not a graph output).  The last node of a pattern becomes the new
 * node and keeps its name and output; the others go.  Results agree with the
 * spelled-out form to fp32 rounding (x / 6 against x * (1/6)).
 */
#include <math.h>
#include <stdlib.h>

#include "util.h"

/* 1 when value v is an f32 constant holding one element equal to want. */
static int is_scalar(const GirGraph *g, int v, double want)
{
    const float *d = pu_const_f32(g, v);
    return d && pu_numel(g, v) == 1 && fabs((double)d[0] - want) <= 1e-6 * fabs(want);
}

/* The operand of binary node n that is not the constant want, or -1. */
static int other_than(const GirGraph *g, const GirNode *n, double want)
{
    if (n->nin != 2 || n->in[0] < 0 || n->in[1] < 0)
        return -1;
    if (is_scalar(g, n->in[1], want))
        return n->in[0];
    if (n->op != GIR_OP_DIV && is_scalar(g, n->in[0], want))
        return n->in[1];
    return -1;
}

/* The node making value v when v is a node value read only by node at,
 * else -1. */
static int only_into(const GirGraph *g, const int *counts, int v, int at)
{
    if (v < 0 || g->vals[v].kind != GIR_VAL_NODE || pu_sole_user(g, counts, v) != at)
        return -1;
    return g->vals[v].producer;
}

/* x when value r (read only by node at) is Clip(Add(x, 3), 0, 6) with both
 * intermediates read only there; dead gets the Clip and the Add. */
static int relu6_of_x_plus_3(const GirGraph *g, const int *counts, int r, int at,
                             unsigned char *dead)
{
    int ci = only_into(g, counts, r, at), ai, x;
    const GirNode *c, *a;
    if (ci < 0)
        return -1;
    c = &g->nodes[ci];
    if (c->op != GIR_OP_CLIP || c->nin != 3 || c->in[1] < 0 || c->in[2] < 0 ||
        !is_scalar(g, c->in[1], 0.0) || !is_scalar(g, c->in[2], 6.0))
        return -1;
    ai = only_into(g, counts, c->in[0], ci);
    if (ai < 0)
        return -1;
    a = &g->nodes[ai];
    if (a->op != GIR_OP_ADD || (x = other_than(g, a, 3.0)) < 0)
        return -1;
    dead[ci] = dead[ai] = 1;
    return x;
}

/* x when node d (Div by 6 or Mul by 1/6) divides Clip(Add(x, 3), 0, 6) by 6
 * (hsig) or x * Clip(Add(x, 3), 0, 6) by 6 (else).  Marks the nodes it
 * absorbs in dead; nothing marked when it returns -1. */
static int match_div6(const GirGraph *g, const int *counts, int di, int *hsig,
                      unsigned char *dead)
{
    const GirNode *d = &g->nodes[di];
    int v, pi, x, k;
    if (d->op == GIR_OP_DIV)
        v = other_than(g, d, 6.0);
    else if (d->op == GIR_OP_MUL)
        v = other_than(g, d, 1.0 / 6.0);
    else
        return -1;
    if (v < 0)
        return -1;
    /* HardSigmoid: the Clip is divided directly. */
    if ((x = relu6_of_x_plus_3(g, counts, v, di, dead)) >= 0) {
        *hsig = 1;
        return x;
    }
    /* HardSwish: Mul(x, Clip(Add(x, 3))) divided. */
    pi = only_into(g, counts, v, di);
    if (pi < 0 || g->nodes[pi].op != GIR_OP_MUL || g->nodes[pi].nin != 2)
        return -1;
    for (k = 0; k < 2; k++) {
        const GirNode *m = &g->nodes[pi];
        int xx = m->in[k], r = m->in[1 - k];
        if (xx < 0 || r < 0 || xx == r)
            continue;
        /* x is also read by the Add: two readers, so not only_into's check */
        if ((x = relu6_of_x_plus_3(g, counts, r, pi, dead)) >= 0 && x == xx) {
            dead[pi] = 1;
            *hsig = 0;
            return x;
        }
        if (x >= 0) {
            int ci = g->vals[r].producer;
            dead[ci] = dead[g->vals[g->nodes[ci].in[0]].producer] = 0;
        }
    }
    return -1;
}

/* x when Mul node mi is x * HardSigmoid(x, 1/6, 0.5), the HardSigmoid read
 * only there (marked dead). */
static int match_mul_hsig(const GirGraph *g, const int *counts, int mi, unsigned char *dead)
{
    const GirNode *m = &g->nodes[mi];
    int k;
    if (m->op != GIR_OP_MUL || m->nin != 2)
        return -1;
    for (k = 0; k < 2; k++) {
        int xx = m->in[k], hi = only_into(g, counts, m->in[1 - k], mi);
        const GirNode *h;
        if (xx < 0 || hi < 0)
            continue;
        h = &g->nodes[hi];
        if (h->op == GIR_OP_HARDSIGMOID && h->nin == 1 && h->in[0] == xx && !dead[hi] &&
            fabs(gir_attr_float(h, "alpha", 0.2f) - 1.0 / 6.0) <= 1e-6 &&
            fabs(gir_attr_float(h, "beta", 0.5f) - 0.5) <= 1e-6) {
            dead[hi] = 1;
            return xx;
        }
    }
    return -1;
}

/* Node i becomes op(x) with no attributes (HardSigmoid: alpha 1/6, beta 0.5). */
static void become(GirGraph *g, int i, GirOp op, int x)
{
    GirNode *n = &g->nodes[i];
    n->op = op;
    n->in[0] = x;
    n->nin = 1;
    n->nattr = 0;
    if (op == GIR_OP_HARDSIGMOID) {
        gir_set_attr_float(g, i, "alpha", (float)(1.0 / 6.0));
        gir_set_attr_float(g, i, "beta", 0.5f);
    }
}

int gir_pass_fuse_hswish(GirGraph *g, GirError *e)
{
    unsigned char *dead = calloc((size_t)g->nnode + 1, 1);
    int *counts = malloc(sizeof *counts * ((size_t)g->nval + 1));
    int i, any = 0;
    (void)e;
    if (!dead || !counts)
        gir_die("out of memory");
    gir_use_counts(g, counts);
    /* Division forms first, in node order: a HardSigmoid made here may be
     * the operand of a later Mul(x, .), which the second loop takes. */
    for (i = 0; i < g->nnode; i++) {
        int hsig = 0, x;
        if (dead[i] || g->nodes[i].nout != 1 ||
            g->vals[g->nodes[i].out[0]].type.dtype != GIR_DT_F32)
            continue;
        x = match_div6(g, counts, i, &hsig, dead);
        if (x < 0)
            continue;
        become(g, i, hsig ? GIR_OP_HARDSIGMOID : GIR_OP_HARDSWISH, x);
        any = 1;
    }
    if (any) {
        gir_graph_compact(g, dead);
        free(dead);
        free(counts);
        dead = calloc((size_t)g->nnode + 1, 1);
        counts = malloc(sizeof *counts * ((size_t)g->nval + 1));
        if (!dead || !counts)
            gir_die("out of memory");
        gir_use_counts(g, counts);
        any = 0;
    }
    for (i = 0; i < g->nnode; i++) {
        int x;
        if (dead[i] || g->nodes[i].nout != 1 ||
            g->vals[g->nodes[i].out[0]].type.dtype != GIR_DT_F32)
            continue;
        x = match_mul_hsig(g, counts, i, dead);
        if (x < 0)
            continue;
        become(g, i, GIR_OP_HARDSWISH, x);
        any = 1;
    }
    if (any)
        gir_graph_compact(g, dead);
    free(dead);
    free(counts);
    return 0;
}
