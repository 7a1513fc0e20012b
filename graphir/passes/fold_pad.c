/*
 * fold_pad: a constant-mode Pad with value 0 that pads only the spatial
 * axes, by non-negative amounts, read by one Conv as its data input, goes
 * into that Conv's pads attribute.  Zero padding is what Conv's own padding
 * adds, so the result is the same.  Needs: the pads input constant, the
 * Conv without auto_pad (or NOTSET); leaves every other Pad alone.
 */
#include <stdlib.h>

#include "util.h"

/* 1 when Pad node p can fold: constant zero padding of spatial axes only. */
static int foldable(const GirGraph *g, const GirNode *p)
{
    const GirValue *pv = &g->vals[p->in[1]];
    const int64_t *pd = pv->data;
    int r = g->vals[p->in[0]].type.rank, i;
    if (strcmp(gir_attr_string(p, "mode", "constant"), "constant") != 0 || r < 3 ||
        pv->kind != GIR_VAL_CONST || pv->type.dtype != GIR_DT_I64 || pu_numel(g, p->in[1]) != 2 * r)
        return 0;
    if (p->nin > 2 && p->in[2] >= 0) {
        const float *c = pu_const_f32(g, p->in[2]);
        if (!c || pu_numel(g, p->in[2]) != 1 || c[0] != 0.0f)
            return 0;
    }
    for (i = 0; i < 2 * r; i++)
        if (pd[i] < 0 || ((i % r) < 2 && pd[i] != 0))
            return 0;
    return 1;
}

int gir_pass_fold_pad(GirGraph *g, GirError *e)
{
    unsigned char *dead = calloc((size_t)g->nnode + 1, 1);
    int *counts = malloc(sizeof *counts * ((size_t)g->nval + 1));
    int i, j, any = 0;
    (void)e;
    if (!dead || !counts)
        gir_die("out of memory");
    gir_use_counts(g, counts);
    for (i = 0; i < g->nnode; i++) {
        const GirNode *p = &g->nodes[i];
        const int64_t *pd, *old;
        int64_t pads[2 * GIR_MAX_RANK];
        int ci, r, nsp, cnt;
        GirNode *c;
        if (p->op != GIR_OP_PAD || p->nout != 1 || p->nin < 2 || p->in[1] < 0 || !foldable(g, p))
            continue;
        ci = pu_sole_user(g, counts, p->out[0]);
        if (ci < 0)
            continue;
        c = &g->nodes[ci];
        if (c->op != GIR_OP_CONV || c->in[0] != p->out[0] ||
            strcmp(gir_attr_string(c, "auto_pad", "NOTSET"), "NOTSET") != 0)
            continue;
        r = g->vals[p->in[0]].type.rank;
        nsp = r - 2;
        pd = g->vals[p->in[1]].data;
        old = gir_attr_ints(c, "pads", &cnt);
        if (old && cnt != 2 * nsp)
            continue;
        for (j = 0; j < nsp; j++) {
            pads[j] = (old ? old[j] : 0) + pd[2 + j];
            pads[nsp + j] = (old ? old[nsp + j] : 0) + pd[r + 2 + j];
        }
        gir_set_attr_ints(g, ci, "pads", pads, 2 * nsp);
        g->nodes[ci].in[0] = p->in[0];
        dead[i] = 1;
        any = 1;
    }
    if (any)
        gir_graph_compact(g, dead);
    free(dead);
    free(counts);
    return 0;
}
