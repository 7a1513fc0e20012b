/*
 * Elementwise chains fused into their producer: the Relu, LeakyRelu,
 * Sigmoid, Tanh, HardSigmoid, HardSwish, Clip, Add, Sub, Mul and Div nodes
 * that follow an fp32 Conv, each the only reader of the value before it,
 * are computed in the Conv kernel's output loop (the blocked kernel of
 * conv_blocked.c or the row kernel of kernels_f32.c, which takes the
 * depthwise and grouped Convs), one element at a time, with the
 * arithmetic of the flat kernels of kernels_f32.c (ir.c's klv_unary_f32,
 * klv_binary_f32, kernels_f32.c's klv_unary_f64), so the bits are those of
 * the unfused program.  The values inside the chain are never written;
 * the kernel writes the last node's output.  klv_compile (program.c),
 * objects (aot.c) and PTX (gpu.c) fuse alike.
 */
#include <string.h>

#include "internal.h"

int klv_is_output(const GirGraph *g, int v)
{
    int k;
    for (k = 0; k < g->noutput; k++)
        if (g->outputs[k] == v)
            return 1;
    return 0;
}

/* How many node inputs read v; *reader: the last node that does. */
static int readers(const GirGraph *g, int v, int *reader)
{
    int i, k, cnt = 0;
    for (i = 0; i < g->nnode; i++)
        for (k = 0; k < g->nodes[i].nin; k++)
            if (g->nodes[i].in[k] == v) {
                cnt++;
                *reader = i;
            }
    return cnt;
}

/* 1 when v is a constant or an input, or made by a node before `node`. */
static int ready_before(const GirGraph *g, int v, int node)
{
    int i, k;
    if (g->vals[v].kind != GIR_VAL_NODE)
        return 1;
    for (i = 0; i < node; i++)
        for (k = 0; k < g->nodes[i].nout; k++)
            if (g->nodes[i].out[k] == v)
                return 1;
    return 0;
}

/* 1 when MaxPool r, reading v (f32 [N, M, OH, OW], OH and OW even), pools
 * 2x2 windows at stride 2 with no padding, dilation or Indices output:
 * its output [N, M, OH / 2, OW / 2]. */
static int pool2(const GirGraph *g, const GirNode *r, int v)
{
    static const char *one[2] = {"strides", "kernel_shape"};
    const GirType *vt = &g->vals[v].type, *pt;
    const int64_t *a;
    int cnt, k;
    if (r->nin != 1 || r->nout != 1 || r->in[0] != v || gir_node_is_nhwc(r) || vt->rank != 4 ||
        vt->dims[2] % 2 != 0 || vt->dims[3] % 2 != 0 ||
        strcmp(gir_attr_string(r, "auto_pad", "NOTSET"), "NOTSET") != 0)
        return 0;
    for (k = 0; k < 2; k++)
        if (!(a = gir_attr_ints(r, one[k], &cnt)) || cnt != 2 || a[0] != 2 || a[1] != 2)
            return 0;
    if ((a = gir_attr_ints(r, "pads", &cnt)))
        for (k = 0; k < cnt; k++)
            if (a[k] != 0)
                return 0;
    if ((a = gir_attr_ints(r, "dilations", &cnt)))
        for (k = 0; k < cnt; k++)
            if (a[k] != 1)
                return 0;
    pt = &g->vals[r->out[0]].type;
    return pt->dtype == GIR_DT_F32 && pt->rank == 4 && pt->dims[0] == vt->dims[0] &&
           pt->dims[1] == vt->dims[1] && pt->dims[2] * 2 == vt->dims[2] && pt->dims[3] * 2 == vt->dims[3];
}

int klv_chain_find(const GirGraph *g, int node, int *chain, int max)
{
    int v = g->nodes[node].out[0], cnt = 0, j = -1;
    while (cnt < max) {
        const GirType *vt = &g->vals[v].type;
        const GirNode *r;
        float lo, hi;
        if (vt->dtype != GIR_DT_F32 || klv_is_output(g, v) || readers(g, v, &j) != 1 || j <= node)
            break;
        r = &g->nodes[j];
        if (r->op == GIR_OP_MAXPOOL) {
            /* a pooling link comes alone (conv_blocked.c's pixel lanes and
             * transposed output) */
            if (cnt == 0 && pool2(g, r, v))
                chain[cnt++] = j;
            break;
        }
        if (r->nout != 1 || gir_node_is_nhwc(r) || !gir_type_equal(&g->vals[r->out[0]].type, vt))
            break;
        if (r->op == GIR_OP_RELU || r->op == GIR_OP_LEAKYRELU || r->op == GIR_OP_SIGMOID ||
            r->op == GIR_OP_TANH || r->op == GIR_OP_HARDSIGMOID || r->op == GIR_OP_HARDSWISH) {
            if (r->in[0] != v)
                break;
        } else if (r->op == GIR_OP_CLIP) {
            if (r->in[0] != v || !klv_clip_bounds(g, r, &lo, &hi))
                break;
        } else if (r->op == GIR_OP_ADD || r->op == GIR_OP_SUB || r->op == GIR_OP_MUL ||
                   r->op == GIR_OP_DIV) {
            int other = r->nin == 2 ? r->in[r->in[0] == v ? 1 : 0] : -1;
            const GirType *ot = other >= 0 ? &g->vals[other].type : NULL;
            if (!ot || ot->dtype != GIR_DT_F32 ||
                !(gir_type_equal(ot, vt) || gir_type_numel(ot) == 1) || !ready_before(g, other, node))
                break;
        } else {
            break;
        }
        chain[cnt++] = j;
        v = r->out[0];
    }
    return cnt;
}

int klv_chain_scalar(const KlvIr *ir, const GirGraph *g)
{
    int k;
    for (k = 0; k < ir->nchain; k++)
        if (g->nodes[ir->chain[k]].op == GIR_OP_HARDSIGMOID ||
            g->nodes[ir->chain[k]].op == GIR_OP_HARDSWISH || g->nodes[ir->chain[k]].op == GIR_OP_MAXPOOL)
            break;
    return k;
}

int klv_chain_pool(const KlvIr *ir, const GirGraph *g)
{
    return ir->nchain == 1 && g->nodes[ir->chain[0]].op == GIR_OP_MAXPOOL;
}

LLVMValueRef klv_chain_apply(KlvIr *ir, const GirGraph *g, int val, int arg0, int cnt,
                             LLVMValueRef v, LLVMValueRef idx)
{
    int k;
    for (k = 0; k < cnt; k++) {
        const GirNode *r = &g->nodes[ir->chain[k]];
        float lo, hi;
        if (r->op == GIR_OP_ADD || r->op == GIR_OP_SUB || r->op == GIR_OP_MUL || r->op == GIR_OP_DIV) {
            int first = r->in[0] == val, other = r->in[first ? 1 : 0];
            LLVMValueRef at = gir_type_numel(&g->vals[other].type) == 1 ? klv_i64(ir, 0) : idx;
            LLVMValueRef ov = klv_load(ir, ir->f32, klv_arg(ir, arg0 + k), at);
            v = first ? klv_binary_f32(ir, r->op, v, ov) : klv_binary_f32(ir, r->op, ov, v);
        } else if (r->op == GIR_OP_HARDSIGMOID || r->op == GIR_OP_HARDSWISH) {
            v = klv_unary_f64(ir, r, v);
        } else {
            klv_clip_bounds(g, r, &lo, &hi);
            v = klv_unary_f32(ir, r, lo, hi, v);
        }
        val = r->out[0];
    }
    return v;
}
