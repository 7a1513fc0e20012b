/*
 * fold_constants: a node whose inputs are all constants (and every Constant
 * node) is evaluated once by the interpreter and its outputs become
 * constants.  The node is run alone in a one-node graph that borrows the
 * constants' data and the node's attributes.
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
        sub->vals[ins[j]].data = v->data; /* borrowed: sub's arena never frees it */
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

int gir_pass_fold_constants(GirGraph *g, GirError *e)
{
    unsigned char *dead = calloc((size_t)g->nnode + 1, 1);
    int i, j, any = 0;
    (void)e;
    if (!dead)
        gir_die("out of memory");
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        int all = n->nin > 0 || n->op == GIR_OP_CONSTANT;
        for (j = 0; j < n->nin && all; j++)
            if (n->in[j] >= 0 && g->vals[n->in[j]].kind != GIR_VAL_CONST)
                all = 0;
        if (!all || keep_unfolded(n->op))
            continue;
        if (fold_node(g, i)) {
            dead[i] = 1;
            any = 1;
        }
    }
    if (any)
        gir_graph_compact(g, dead);
    free(dead);
    return 0;
}
