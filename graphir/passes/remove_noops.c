/*
 * remove_noops: drop nodes that copy their input unchanged: Identity, a
 * single-input Concat, and Reshape, Flatten, Squeeze, Unsqueeze, Transpose
 * (identity perm) or constant-zero Pad whose output has the input's exact
 * static type and layout.
 *
 * Readers of the output read the input instead.  When the output is a graph
 * output, the producer of the input writes the graph output directly (so
 * output names stay), which needs the input to be a node value read by this
 * node alone; otherwise the node stays.  Needs static types on the nodes it
 * removes; breaks nothing.
 */
#include <stdlib.h>

#include "util.h"

/* 1 when node n's only output equals its first input. */
static int is_noop(const GirGraph *g, const GirNode *n)
{
    const GirValue *x, *y;
    int i, cnt;
    if (n->nout != 1 || n->nin < 1 || n->in[0] < 0)
        return 0;
    x = &g->vals[n->in[0]];
    y = &g->vals[n->out[0]];
    if (!gir_type_is_static(&x->type) || !gir_type_equal(&x->type, &y->type) ||
        x->layout != y->layout || !gir_same_scale(x, y))
        return 0;
    switch (n->op) {
    case GIR_OP_IDENTITY:
    case GIR_OP_RESHAPE:
    case GIR_OP_FLATTEN:
    case GIR_OP_SQUEEZE:
    case GIR_OP_UNSQUEEZE:
        return 1;
    case GIR_OP_CONCAT:
        return n->nin == 1;
    case GIR_OP_TRANSPOSE: {
        const int64_t *perm = gir_attr_ints(n, "perm", &cnt);
        if (!perm)
            return x->type.rank <= 1;
        for (i = 0; i < cnt; i++)
            if (perm[i] != i)
                return 0;
        return 1;
    }
    case GIR_OP_PAD: {
        const GirValue *p = &g->vals[n->in[1]];
        const int64_t *pd = p->data;
        const char *mode = gir_attr_string(n, "mode", "constant");
        if (p->kind != GIR_VAL_CONST || p->type.dtype != GIR_DT_I64 || strcmp(mode, "constant"))
            return 0;
        for (i = 0; i < gir_type_numel(&p->type); i++)
            if (pd[i] != 0)
                return 0;
        return 1;
    }
    default:
        return 0;
    }
}

int gir_pass_remove_noops(GirGraph *g, GirError *e)
{
    unsigned char *dead = calloc((size_t)g->nnode + 1, 1);
    int *counts = malloc(sizeof *counts * ((size_t)g->nval + 1));
    int i, j, any = 0;
    (void)e;
    if (!dead || !counts)
        gir_die("out of memory");
    gir_use_counts(g, counts);
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        int x, y, is_out = 0;
        if (!is_noop(g, n))
            continue;
        x = n->in[0];
        y = n->out[0];
        for (j = 0; j < g->noutput; j++)
            is_out |= g->outputs[j] == y;
        if (!is_out) {
            gir_replace_uses(g, y, x);
            counts[x] += counts[y] - 1;
            counts[y] = 0;
        } else if (g->vals[x].kind == GIR_VAL_NODE && pu_sole_user(g, counts, x) == i) {
            GirNode *p = &g->nodes[g->vals[x].producer];
            for (j = 0; j < p->nout; j++)
                if (p->out[j] == x)
                    p->out[j] = y;
            g->vals[y].producer = g->vals[x].producer;
            counts[x] = 0;
        } else {
            continue;
        }
        /* The node's other inputs (Reshape's shape) lose a reader. */
        for (j = 1; j < n->nin; j++)
            if (n->in[j] >= 0)
                counts[n->in[j]]--;
        /* A dead node reads nothing, so later sole-reader questions do not
         * find it. */
        for (j = 0; j < n->nin; j++)
            g->nodes[i].in[j] = -1;
        dead[i] = 1;
        any = 1;
    }
    if (any)
        gir_graph_compact(g, dead);
    free(dead);
    free(counts);
    return 0;
}
