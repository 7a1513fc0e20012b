/*
 * fold_bn: BatchNormalization folded into the Conv that feeds it.
 *
 *   y = (conv(x, W) + b - mean) * s / sqrt(var + eps) + beta
 *     = conv(x, W * k) + (b - mean) * k + beta,   k = s / sqrt(var + eps)
 *
 * per output channel.  Needs: the Conv's output read by the BatchNormalization
 * alone (not a graph output), its weights and bias constant f32, the batch
 * norm's four parameters constant f32.  The Conv then produces the batch
 * norm's output value and gets new weight and bias constants (the old ones
 * may be shared).  Darknet's form (epsilon 0, variance stored as
 * (sqrt(var) + 1e-6)^2) is the same formula.  Refuses parameters whose
 * length is not the Conv's output channel count, and a channel whose
 * variance + epsilon is not positive (the folded weights would not be
 * finite).
 */
#include <math.h>
#include <stdlib.h>

#include "util.h"

/* Rewrite conv c + batch norm b; 1 when folded, 0 when it does not apply,
 * -1 on a malformed pair. */
static int fold_one(GirGraph *g, int ci, int bi, unsigned char *dead, GirError *e)
{
    GirNode *c = &g->nodes[ci];
    const GirNode *b = &g->nodes[bi];
    const float *w = pu_const_f32(g, c->in[1]);
    const float *bias = c->nin > 2 && c->in[2] >= 0 ? pu_const_f32(g, c->in[2]) : NULL;
    const float *p[4];
    float eps = gir_attr_float(b, "epsilon", 1e-5f);
    int64_t M, per, oc, i, nw;
    GirType wt, bt;
    float *nwd, *nbd;
    int k, wv, bv, *nin;
    if (!w || (c->nin > 2 && c->in[2] >= 0 && !bias) || b->nout != 1)
        return 0;
    for (k = 0; k < 4; k++)
        if (!(p[k] = pu_const_f32(g, b->in[k + 1])))
            return 0;
    wt = g->vals[c->in[1]].type;
    if (wt.rank < 1 || (nw = gir_type_numel(&wt)) < 0)
        return 0;
    M = wt.dims[0];
    per = M ? nw / M : 0;
    for (k = 0; k < 4; k++)
        if (pu_numel(g, b->in[k + 1]) != M)
            return gir_error_at(e, pu_node_loc(b),
                                "BatchNormalization: %s has %lld elements, Conv '%s' has "
                                "%lld output channels",
                                g->vals[b->in[k + 1]].name,
                                (long long)pu_numel(g, b->in[k + 1]), c->name, (long long)M);
    if (bias && pu_numel(g, c->in[2]) != M)
        return 0;
    for (oc = 0; oc < M; oc++)
        if (!((double)p[3][oc] + (double)eps > 0))
            return gir_error_at(e, pu_node_loc(b),
                                "BatchNormalization: variance + epsilon is %g in channel %lld, "
                                "not positive; folding would make non-finite weights",
                                (double)p[3][oc] + (double)eps, (long long)oc);
    nwd = malloc(sizeof *nwd * (size_t)(nw ? nw : 1));
    nbd = malloc(sizeof *nbd * (size_t)(M ? M : 1));
    if (!nwd || !nbd)
        gir_die("out of memory");
    for (oc = 0; oc < M; oc++) {
        double kk = (double)p[0][oc] / sqrt((double)p[3][oc] + (double)eps);
        for (i = 0; i < per; i++)
            nwd[oc * per + i] = (float)(w[oc * per + i] * kk);
        nbd[oc] = (float)(((bias ? bias[oc] : 0.0) - p[2][oc]) * kk + p[1][oc]);
    }
    bt.dtype = GIR_DT_F32;
    bt.rank = 1;
    bt.dims[0] = M;
    wv = gir_add_const(g, pu_fresh_name(g, gir_arena_printf(g->arena, "%s_bn", g->vals[c->in[1]].name)),
                       wt, nwd, c->loc);
    bv = gir_add_const(g, pu_fresh_name(g, bias ? gir_arena_printf(g->arena, "%s_bn", g->vals[c->in[2]].name)
                                                : gir_arena_printf(g->arena, "%s_b", c->name)),
                       bt, nbd, c->loc);
    free(nwd);
    free(nbd);
    c = &g->nodes[ci]; /* values grew; nodes did not move, but stay safe */
    nin = gir_arena_alloc(g->arena, sizeof *nin * 3);
    nin[0] = c->in[0];
    nin[1] = wv;
    nin[2] = bv;
    c->in = nin;
    c->nin = 3;
    c->out[0] = g->nodes[bi].out[0];
    g->vals[c->out[0]].producer = ci;
    dead[bi] = 1;
    return 1;
}

int gir_pass_fold_bn(GirGraph *g, GirError *e)
{
    unsigned char *dead = calloc((size_t)g->nnode + 1, 1);
    int *counts = malloc(sizeof *counts * ((size_t)g->nval + 1));
    int i, rc = 0, any = 0;
    if (!dead || !counts)
        gir_die("out of memory");
    gir_use_counts(g, counts);
    for (i = 0; i < g->nnode && rc >= 0; i++) {
        const GirNode *b = &g->nodes[i];
        int x = b->in[0], ci;
        if (b->op != GIR_OP_BATCHNORM || x < 0 || g->vals[x].kind != GIR_VAL_NODE)
            continue;
        ci = g->vals[x].producer;
        if (g->nodes[ci].op != GIR_OP_CONV || g->nodes[ci].nout != 1 ||
            pu_sole_user(g, counts, x) != i || gir_attr(&g->nodes[ci], "act"))
            continue;
        rc = fold_one(g, ci, i, dead, e);
        if (rc > 0)
            any = 1;
    }
    if (rc >= 0 && any)
        gir_graph_compact(g, dead);
    free(dead);
    free(counts);
    return rc < 0 ? -1 : 0;
}
