/*
 * fold_constants: a node whose inputs are all constants (and every Constant
 * node) is evaluated once by the interpreter and its outputs become
 * constants.  The node is run alone in a one-node graph that borrows the
 * constants' data and the node's attributes.
 *
 * Shape subgraphs: an input that an op reads only for its type (Shape's and
 * Size's data, CastLike's target, EyeLike's input) counts as constant once
 * its type is static; the kernel gets a placeholder it never reads.  So
 * Shape of a static value folds, then whatever computes on its result
 * (Gather, Slice, Concat, Cast, Unsqueeze, arithmetic, Range,
 * ConstantOfShape, Expand, ...), all through the interpreter's kernels.  A
 * fold can make later shapes static (a Reshape whose target became
 * constant), so the pass infers shapes again and repeats until nothing more
 * folds.
 *
 * Leaves alone: nodes the interpreter cannot run (the node stays, to fail
 * at run time with its own message), results above FOLD_LIMIT bytes (a
 * constant that big belongs in the source), and the quantization ops
 * (QuantizeLinear, DequantizeLinear and the like), whose constant operands
 * carry the quantization the quantizer must see.  Needs nothing; breaks
 * nothing.
 */
#include <stdlib.h>

#include "util.h"

#define FOLD_LIMIT ((int64_t)64 << 20) /* bytes of output a fold may create */

static int keep_unfolded(GirOp op)
{
    static const char *const quant_ops[] = {"QuantizeLinear", "DequantizeLinear", "Requantize",
                                            "QLinearConv", "QLinearMatMul", "ConvInteger",
                                            "MatMulInteger"};
    size_t i;
    for (i = 0; i < sizeof quant_ops / sizeof quant_ops[0]; i++)
        if (gir_op_from_name(quant_ops[i]) == (int)op)
            return 1;
    return 0;
}

/* Input j of n is read only for its type (element type and dims). */
static int type_only(const GirNode *n, int j)
{
    switch (n->op) {
    case GIR_OP_SHAPE:
    case GIR_OP_SIZE:
        return j == 0;
    case GIR_OP_CASTLIKE:
        return j == 1;
    case GIR_OP_EYELIKE:
        return j == 0;
    default:
        return 0;
    }
}

/* Input j of n is known at compile time: a constant, or read only for a
 * static type. */
static int input_known(const GirGraph *g, const GirNode *n, int j)
{
    const GirValue *v;
    if (n->in[j] < 0)
        return 1;
    v = &g->vals[n->in[j]];
    return v->kind == GIR_VAL_CONST || (type_only(n, j) && gir_type_is_static(&v->type));
}

/* Placeholder data of a type-only input: the kernel reads none of it. */
static const int64_t no_data[2];

/* Evaluate node id; 1 when its outputs are now constants, 0 when left. */
static int fold_node(GirGraph *g, int id)
{
    const GirNode *n = &g->nodes[id];
    GirGraph *sub = gir_graph_new("fold");
    GirArena *a = gir_arena_new();
    GirTensor *outs;
    GirError err;
    int ins[64], outv[64], j, ok = 0;
    if (n->nin > 64 || n->nout > 64)
        goto out;
    for (j = 0; j < n->nin; j++) {
        const GirValue *v;
        if (n->in[j] < 0) {
            ins[j] = -1;
            continue;
        }
        v = &g->vals[n->in[j]];
        ins[j] = gir_add_value(sub, v->name, GIR_VAL_CONST, v->type, v->loc);
        /* borrowed: sub's arena never frees it */
        sub->vals[ins[j]].data = v->kind == GIR_VAL_CONST ? v->data : (void *)no_data;
        sub->vals[ins[j]].layout = v->layout;
    }
    for (j = 0; j < n->nout; j++) {
        const GirValue *v = &g->vals[n->out[j]];
        outv[j] = gir_add_value(sub, v->name, GIR_VAL_NODE, v->type, v->loc);
        gir_add_output(sub, outv[j]);
    }
    gir_add_node(sub, n->op, n->name, ins, n->nin, outv, n->nout, n->loc);
    sub->nodes[0].attrs = n->attrs;
    sub->nodes[0].nattr = n->nattr;
    outs = gir_arena_alloc(a, sizeof *outs * (size_t)(n->nout + 1));
    if (gir_run(sub, NULL, outs, a, &err) < 0)
        goto out;
    for (j = 0; j < n->nout; j++) {
        int64_t cnt = gir_type_numel(&outs[j].type);
        if (cnt < 0 || cnt > FOLD_LIMIT / (int64_t)(gir_dtype_size(outs[j].type.dtype) + 1))
            goto out;
    }
    for (j = 0; j < n->nout; j++) {
        GirValue *v = &g->vals[g->nodes[id].out[j]];
        size_t bytes = (size_t)gir_type_numel(&outs[j].type) * gir_dtype_size(outs[j].type.dtype);
        v->kind = GIR_VAL_CONST;
        v->producer = -1;
        v->type = outs[j].type;
        v->data = gir_arena_alloc(g->arena, bytes + 1);
        if (bytes)
            memcpy(v->data, outs[j].data, bytes);
    }
    ok = 1;
out:
    gir_arena_free(a);
    gir_graph_free(sub);
    return ok;
}

/* One sweep in node order; *any = 1 when a node folded. */
static void fold_sweep(GirGraph *g, int *any)
{
    unsigned char *dead = calloc((size_t)g->nnode + 1, 1);
    int i, j;
    *any = 0;
    if (!dead)
        gir_die("out of memory");
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        int all = n->nin > 0 || n->op == GIR_OP_CONSTANT;
        for (j = 0; j < n->nin && all; j++)
            all = input_known(g, n, j);
        if (!all || keep_unfolded(n->op))
            continue;
        if (fold_node(g, i)) {
            dead[i] = 1;
            *any = 1;
        }
    }
    if (*any)
        gir_graph_compact(g, dead);
    free(dead);
}

int gir_pass_fold_constants(GirGraph *g, GirError *e)
{
    int any, round;
    for (round = 0; round <= g->nnode; round++) {
        fold_sweep(g, &any);
        if (!any)
            break;
        /* Folded constants may make later shapes static, and so more
         * Shape nodes foldable. */
        if (gir_infer_shapes(g, e) < 0)
            return -1;
    }
    return 0;
}
