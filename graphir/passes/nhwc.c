/*
 * nhwc: feature maps to NHWC, the order the hardware streams (channels
 * innermost).
 *
 * Conv, MaxPool (one output), AveragePool, GlobalAveragePool,
 * BatchNormalization and Resize on rank-4 data get layout="NHWC": their data
 * input and outputs become [N,H,W,C] values (layout nhwc, named <value>_nhwc).
 * Elementwise ops (Relu, LeakyRelu, Clip, Sigmoid, Tanh, Identity; Add, Sub,
 * Mul, Div on equal shapes or with a one-element operand) follow their
 * input's layout, and Concat on channels becomes Concat on axis 3.  Every
 * other reader, and every graph output, sees the original NCHW value, made
 * by a Transpose placed just before its first reader; graph inputs enter
 * through a Transpose the other way.  Original value ids keep their NCHW
 * meaning throughout, so nothing else is renamed.
 *
 * Needs: static ranks on the nodes it converts.  Refuses a Conv or pool
 * whose data input has unknown rank, and a graph already holding NHWC
 * values.  Breaks: nothing (layout.c runs NHWC nodes bit-identically).
 */
#include <stdlib.h>

#include "util.h"

/* State of one rewrite. */
typedef struct {
    GirGraph *g;          /* the graph being rebuilt */
    int *nhwc;            /* per original value: its NHWC form, -1 none */
    unsigned char *ready; /* per original value: the NCHW value exists */
    int nval0;            /* values before the pass (the arrays' size) */
} Ctx;

static const int64_t to_nhwc_perm[4] = {0, 2, 3, 1};
static const int64_t to_nchw_perm[4] = {0, 3, 1, 2};

static GirType nhwc_type(const GirType *t)
{
    GirType r = *t;
    r.dims[1] = t->dims[2];
    r.dims[2] = t->dims[3];
    r.dims[3] = t->dims[1];
    return r;
}

static int add_transpose(Ctx *c, int from, int to, const int64_t *perm, const char *name,
                         GirLoc loc)
{
    int id = gir_add_node(c->g, GIR_OP_TRANSPOSE, pu_fresh_name(c->g, name), &from, 1, &to, 1,
                          loc);
    gir_set_attr_ints(c->g, id, "perm", perm, 4);
    return id;
}

/* The NHWC form of original value v (rank 4), made now if needed. */
static int get_nhwc(Ctx *c, int v, GirLoc loc)
{
    GirGraph *g = c->g;
    int nv;
    if (c->nhwc[v] >= 0)
        return c->nhwc[v];
    nv = gir_add_value(g, pu_fresh_name(g, gir_arena_printf(g->arena, "%s_nhwc", g->vals[v].name)),
                       GIR_VAL_NODE, nhwc_type(&g->vals[v].type), loc);
    g->vals[nv].layout = GIR_LAYOUT_NHWC;
    gir_copy_scale(g, nv, g, v);
    add_transpose(c, v, nv, to_nhwc_perm, gir_arena_printf(g->arena, "%s_to_nhwc", g->vals[v].name),
                  loc);
    c->nhwc[v] = nv;
    return nv;
}

/* Original value v in NCHW, made from its NHWC form now if needed. */
static int get_nchw(Ctx *c, int v, GirLoc loc)
{
    GirGraph *g = c->g;
    if (v < 0 || c->ready[v])
        return v;
    add_transpose(c, c->nhwc[v], v, to_nchw_perm,
                  gir_arena_printf(g->arena, "%s_to_nchw", g->vals[v].name), loc);
    c->ready[v] = 1;
    return v;
}

/* A fresh NHWC value for node output v; v itself is made later on demand. */
static int new_nhwc_out(Ctx *c, int v)
{
    GirGraph *g = c->g;
    int nv = gir_add_value(g, pu_fresh_name(g, gir_arena_printf(g->arena, "%s_nhwc", g->vals[v].name)),
                           GIR_VAL_NODE, nhwc_type(&g->vals[v].type), g->vals[v].loc);
    g->vals[nv].layout = GIR_LAYOUT_NHWC;
    gir_copy_scale(g, nv, g, v);
    c->nhwc[v] = nv;
    c->ready[v] = 0;
    return nv;
}

static int is_rank4(const GirGraph *g, int v)
{
    return v >= 0 && g->vals[v].type.rank == 4;
}

/* How node n converts: 0 not at all, 1 a layout op, 2 follows its inputs. */
static int kind_of(const Ctx *c, const GirNode *n)
{
    const GirGraph *g = c->g;
    int i, any = 0;
    switch (n->op) {
    case GIR_OP_CONV:
    case GIR_OP_MAXPOOL:
    case GIR_OP_AVGPOOL:
    case GIR_OP_GLOBALAVGPOOL:
    case GIR_OP_BATCHNORM:
    case GIR_OP_RESIZE:
        return is_rank4(g, n->in[0]) && n->nout == 1 ? 1 : 0;
    case GIR_OP_RELU:
    case GIR_OP_LEAKYRELU:
    case GIR_OP_SIGMOID:
    case GIR_OP_TANH:
    case GIR_OP_IDENTITY:
    case GIR_OP_CLIP:
        for (i = 1; i < n->nin; i++)
            if (n->in[i] >= 0 && pu_numel(g, n->in[i]) != 1)
                return 0;
        return n->nout == 1 && c->nhwc[n->in[0]] >= 0 ? 2 : 0;
    case GIR_OP_ADD:
    case GIR_OP_SUB:
    case GIR_OP_MUL:
    case GIR_OP_DIV:
        for (i = 0; i < 2; i++) {
            int v = n->in[i];
            if (pu_numel(g, v) == 1)
                continue;
            if (!is_rank4(g, v) || c->nhwc[v] < 0 ||
                !gir_type_equal(&g->vals[v].type, &g->vals[n->out[0]].type))
                return 0;
            any = 1;
        }
        return any ? 2 : 0;
    case GIR_OP_CONCAT: {
        int64_t ax = gir_attr_int(n, "axis", 0);
        if (ax != 1 && ax != -3)
            return 0;
        for (i = 0; i < n->nin; i++)
            if (!is_rank4(g, n->in[i]) || c->nhwc[n->in[i]] < 0)
                return 0;
        return 2;
    }
    default:
        return 0;
    }
}

int gir_pass_nhwc(GirGraph *g, GirError *e)
{
    Ctx c;
    GirNode *old;
    int nold = g->nnode, i, j;
    for (i = 0; i < g->nval; i++)
        if (g->vals[i].layout == GIR_LAYOUT_NHWC)
            return gir_error_at(e, g->vals[i].loc, "the graph already holds NHWC value %%%s",
                                g->vals[i].name);
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        if ((n->op == GIR_OP_CONV || n->op == GIR_OP_MAXPOOL || n->op == GIR_OP_AVGPOOL ||
             n->op == GIR_OP_GLOBALAVGPOOL) &&
            g->vals[n->in[0]].type.rank < 0)
            return gir_error_at(e, pu_node_loc(n),
                                "%s: cannot lay out in NHWC: data input %%%s has unknown rank",
                                gir_op_name(n->op), g->vals[n->in[0]].name);
    }
    c.g = g;
    c.nval0 = g->nval;
    c.nhwc = malloc(sizeof *c.nhwc * ((size_t)g->nval + 1));
    c.ready = malloc((size_t)g->nval + 1);
    old = malloc(sizeof *old * ((size_t)nold + 1));
    if (!c.nhwc || !c.ready || !old)
        gir_die("out of memory");
    for (i = 0; i < g->nval; i++) {
        c.nhwc[i] = -1;
        c.ready[i] = 1;
    }
    memcpy(old, g->nodes, sizeof *old * (size_t)nold);
    /* Rebuild the node list in order, inserting Transposes where needed.
     * Node names are re-added after the array is emptied, so they stay
     * unique. */
    g->nnode = 0;
    for (i = 0; i < nold; i++) {
        GirNode *n = &old[i];
        int k = n->nin > 64 || n->nout > 64 ? 0 : kind_of(&c, n), id, nin[64], nout[64];
        for (j = 0; j < n->nin; j++) {
            int v = n->in[j];
            if (k == 1 && j == 0)
                nin[j] = get_nhwc(&c, v, n->loc);
            else if (k == 2 && v >= 0 && pu_numel(g, v) != 1)
                nin[j] = get_nhwc(&c, v, n->loc);
            else
                nin[j] = get_nchw(&c, v, n->loc);
        }
        for (j = 0; j < n->nout; j++)
            nout[j] = k ? new_nhwc_out(&c, n->out[j]) : n->out[j];
        id = gir_add_node(g, n->op, n->name, nin, n->nin, nout, n->nout, n->loc);
        g->nodes[id].attrs = n->attrs;
        g->nodes[id].nattr = n->nattr;
        if (k == 1)
            gir_set_attr_string(g, id, "layout", "NHWC");
        if (k == 2 && n->op == GIR_OP_CONCAT)
            gir_set_attr_int(g, id, "axis", 3);
    }
    for (i = 0; i < g->noutput; i++)
        get_nchw(&c, g->outputs[i], g->vals[g->outputs[i]].loc);
    /* Original values whose NCHW form nobody read are gone. */
    for (i = 0; i < c.nval0; i++)
        if (!c.ready[i])
            g->vals[i].producer = -1;
    gir_graph_compact(g, NULL);
    free(old);
    free(c.nhwc);
    free(c.ready);
    return 0;
}
