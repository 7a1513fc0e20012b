/*
 * fuse_act: Relu, LeakyRelu and Clip fused into the Conv or Gemm that feeds
 * them, as the attributes act ("relu" | "leakyrelu" | "clip"), act_alpha
 * (LeakyRelu's alpha) and act_min / act_max (Clip's bounds; an absent bound
 * is -inf / inf).  The interpreter applies them after the bias; the
 * quantizer turns them into the requantizer's negative multiplier and
 * saturation bounds.
 *
 * Needs: an fp32 Conv/Gemm without an act yet, whose only reader is the
 * activation (not a graph output); Clip bounds absent or constant scalars.
 * The Conv/Gemm then produces the activation's output value.
 */
#include <math.h>
#include <stdlib.h>

#include "util.h"

/* Clip bound input i of node a: *v gets it (or dflt when absent); 0 when it
 * is not a constant f32 scalar. */
static int clip_bound(const GirGraph *g, const GirNode *a, int i, float dflt, float *v)
{
    const float *d;
    if (i >= a->nin || a->in[i] < 0) {
        *v = dflt;
        return 1;
    }
    d = pu_const_f32(g, a->in[i]);
    if (!d || pu_numel(g, a->in[i]) != 1)
        return 0;
    *v = d[0];
    return 1;
}

int gir_pass_fuse_act(GirGraph *g, GirError *e)
{
    unsigned char *dead = calloc((size_t)g->nnode + 1, 1);
    int *counts = malloc(sizeof *counts * ((size_t)g->nval + 1));
    int i, any = 0;
    (void)e;
    if (!dead || !counts)
        gir_die("out of memory");
    gir_use_counts(g, counts);
    for (i = 0; i < g->nnode; i++) {
        const GirNode *a = &g->nodes[i];
        int x = a->nin > 0 ? a->in[0] : -1, ci;
        float lo = -INFINITY, hi = INFINITY;
        GirNode *c;
        if ((a->op != GIR_OP_RELU && a->op != GIR_OP_LEAKYRELU && a->op != GIR_OP_CLIP) ||
            x < 0 || g->vals[x].kind != GIR_VAL_NODE || a->nout != 1)
            continue;
        ci = g->vals[x].producer;
        c = &g->nodes[ci];
        if ((c->op != GIR_OP_CONV && c->op != GIR_OP_GEMM) || c->nout != 1 ||
            g->vals[x].type.dtype != GIR_DT_F32 || gir_attr(c, "act") ||
            pu_sole_user(g, counts, x) != i)
            continue;
        if (a->op == GIR_OP_CLIP &&
            (!clip_bound(g, a, 1, -INFINITY, &lo) || !clip_bound(g, a, 2, INFINITY, &hi)))
            continue;
        if (a->op == GIR_OP_RELU) {
            gir_set_attr_string(g, ci, "act", "relu");
        } else if (a->op == GIR_OP_LEAKYRELU) {
            gir_set_attr_string(g, ci, "act", "leakyrelu");
            gir_set_attr_float(g, ci, "act_alpha", gir_attr_float(a, "alpha", 0.01f));
        } else {
            gir_set_attr_string(g, ci, "act", "clip");
            gir_set_attr_float(g, ci, "act_min", lo);
            gir_set_attr_float(g, ci, "act_max", hi);
        }
        a = &g->nodes[i];
        c = &g->nodes[ci];
        c->out[0] = a->out[0];
        g->vals[c->out[0]].producer = ci;
        dead[i] = 1;
        any = 1;
    }
    if (any)
        gir_graph_compact(g, dead);
    free(dead);
    free(counts);
    return 0;
}
