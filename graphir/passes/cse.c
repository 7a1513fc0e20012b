/*
 * cse: common-subexpression elimination.  Constants with the same type,
 * layout, scale and bytes become one; then a node with the same op, the same
 * inputs and equal attributes as an earlier node is dropped and its outputs'
 * readers read the earlier node's outputs.  Walking in topological order
 * lets merges cascade.  Nodes or constants that are graph outputs stay (their
 * names are the graph's interface).  Needs nothing; breaks nothing.
 */
#include <stdlib.h>

#include "util.h"

static int is_graph_output(const GirGraph *g, int v)
{
    int i;
    for (i = 0; i < g->noutput; i++)
        if (g->outputs[i] == v)
            return 1;
    return 0;
}

static int same_const(const GirGraph *g, int a, int b)
{
    const GirValue *x = &g->vals[a], *y = &g->vals[b];
    int64_t n = gir_type_numel(&x->type);
    if (!gir_type_equal(&x->type, &y->type) || x->layout != y->layout || !gir_same_scale(x, y))
        return 0;
    return memcmp(x->data, y->data, (size_t)n * gir_dtype_size(x->type.dtype)) == 0;
}

static int same_attr(const GirAttr *a, const GirAttr *b)
{
    int64_t n;
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case GIR_ATTR_INT:
        return a->i == b->i;
    case GIR_ATTR_FLOAT:
        return memcmp(&a->f, &b->f, sizeof a->f) == 0;
    case GIR_ATTR_STRING:
        return strcmp(a->s, b->s) == 0;
    case GIR_ATTR_INTS:
        return a->n == b->n && (!a->n || !memcmp(a->ints, b->ints, sizeof *a->ints * (size_t)a->n));
    case GIR_ATTR_FLOATS:
        return a->n == b->n &&
               (!a->n || !memcmp(a->floats, b->floats, sizeof *a->floats * (size_t)a->n));
    case GIR_ATTR_TENSOR:
        if (!gir_type_equal(&a->t.type, &b->t.type))
            return 0;
        n = gir_type_numel(&a->t.type);
        return n <= 0 ||
               !memcmp(a->t.data, b->t.data, (size_t)n * gir_dtype_size(a->t.type.dtype));
    }
    return 0;
}

static int same_node(const GirGraph *g, const GirNode *a, const GirNode *b)
{
    int i;
    if (a->op != b->op || a->nin != b->nin || a->nout != b->nout || a->nattr != b->nattr)
        return 0;
    for (i = 0; i < a->nin; i++)
        if (a->in[i] != b->in[i])
            return 0;
    for (i = 0; i < a->nout; i++) {
        const GirValue *x = &g->vals[a->out[i]], *y = &g->vals[b->out[i]];
        if (!gir_type_equal(&x->type, &y->type) || x->layout != y->layout || !gir_same_scale(x, y))
            return 0;
    }
    for (i = 0; i < a->nattr; i++) {
        const GirAttr *o = gir_attr(b, a->attrs[i].name);
        if (!o || !same_attr(&a->attrs[i], o))
            return 0;
    }
    return 1;
}

int gir_pass_cse(GirGraph *g, GirError *e)
{
    unsigned char *dead = calloc((size_t)g->nnode + 1, 1);
    int i, j, k, any = 0;
    (void)e;
    if (!dead)
        gir_die("out of memory");
    for (i = 0; i < g->nval; i++) {
        if (g->vals[i].kind != GIR_VAL_CONST || is_graph_output(g, i))
            continue;
        for (j = 0; j < i; j++)
            if (g->vals[j].kind == GIR_VAL_CONST && same_const(g, j, i)) {
                gir_replace_uses(g, i, j);
                any = 1;
                break;
            }
    }
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        int out = 0;
        for (k = 0; k < n->nout; k++)
            out |= is_graph_output(g, n->out[k]);
        if (out)
            continue;
        for (j = 0; j < i; j++) {
            if (dead[j] || !same_node(g, &g->nodes[j], n))
                continue;
            for (k = 0; k < n->nout; k++)
                gir_replace_uses(g, n->out[k], g->nodes[j].out[k]);
            dead[i] = 1;
            any = 1;
            break;
        }
    }
    if (any)
        gir_graph_compact(g, dead);
    free(dead);
    return 0;
}
