/*
 * fold_qdq: a pre-quantized ONNX graph (QDQ: QuantizeLinear / DequantizeLinear
 * around float ops, or QLinearConv) into kiln's int8 form (docs/quant.md).
 *
 *   QuantizeLinear(x, s, 0)               the i8 value gets scale s
 *   Q(Conv|Gemm|MatMul{act}(DQ(xq), DQ(w), b), s_y)
 *                                         -> int8 Conv|Gemm|MatMul(xq, w, b_i32)
 *                                            {rq_m_pos, rq_m_neg, rq_shift[, act_min,
 *                                            act_max]} with scale s_y
 *   Q(MaxPool|Concat|Reshape|...(DQ(a), ...), s) with every DQ scale = s
 *                                         -> the same op on i8
 *   QLinearConv(x, sx, 0, w, sw, 0, sy, 0, B) with i8 x, w
 *                                         -> int8 Conv(x, w, B)
 * Activations (Relu, LeakyRelu, Clip) are first fused into their Conv/Gemm
 * (fuse_act), then become m_neg and act_min / act_max.  Dequantized values
 * that feed float ops (Sigmoid, outputs) keep their DequantizeLinear.
 *
 * Needs: shapes inferred; scales and zero points constant.  Refuses, with an
 * error naming the node, what the scheme cannot hold: a zero point other
 * than 0 or u8 data on activations (kiln's activations are symmetric int8),
 * weights that are not int8 constants with zero point 0, a requantize
 * multiplier the 16-bit multiplier and shift cannot represent
 * (graphir/requant.h), and data movement between different scales.
 * ConvInteger, MatMulInteger and QLinearMatMul are left as they are (they
 * run through their ONNX kernels).  Unused nodes are removed (dce).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "graphir/passes/util.h"
#include "graphir/requant.h"

/* The scalar f32 constant v, or NAN when v is not one. */
static double const_scalar_f32(const GirGraph *g, int v)
{
    const float *d = pu_const_f32(g, v);
    if (!d || pu_numel(g, v) != 1)
        return NAN;
    return d[0];
}

static int fold_fail(const GirNode *n, GirError *e, const char *fmt, ...) GIR_PRINTF(3, 4);

static int fold_fail(const GirNode *n, GirError *e, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gir_error_at(e, pu_node_loc(n), "%s: %s", gir_op_name(n->op), msg);
}

/* Zero point input i of a Q/DQ node must be absent or all zeros of i8. */
static int check_zero_point(const GirGraph *g, const GirNode *n, int i, GirError *e)
{
    const GirValue *z;
    int64_t k, cnt;
    if (i >= n->nin || n->in[i] < 0)
        return 0;
    z = &g->vals[n->in[i]];
    if (z->kind != GIR_VAL_CONST)
        return fold_fail(n, e, "zero point '%s' is not a constant", z->name);
    if (z->type.dtype != GIR_DT_I8)
        return fold_fail(n, e, "%s data: kiln's int8 form takes i8 with zero point 0",
                         gir_dtype_name(z->type.dtype));
    cnt = pu_numel(g, n->in[i]);
    for (k = 0; k < cnt; k++)
        if (((const int8_t *)z->data)[k] != 0)
            return fold_fail(n, e,
                             "zero point %d is not 0: kiln's int8 activations and weights "
                             "are symmetric",
                             ((const int8_t *)z->data)[k]);
    return 0;
}

/* The producing node of value v when it is op, else NULL. */
static GirNode *producer_is(GirGraph *g, int v, GirOp op)
{
    if (v < 0 || g->vals[v].kind != GIR_VAL_NODE)
        return NULL;
    return g->nodes[g->vals[v].producer].op == op ? &g->nodes[g->vals[v].producer] : NULL;
}

/* Requantize multiplier for real scale s, or an error naming n. */
static int choose(const GirNode *n, double s, int ch, int32_t *m, int *sh, GirError *e)
{
    if (kiln_rq_choose(s, m, sh) != 0)
        return fold_fail(n, e,
                         "requantize scale %g (channel %d) is not representable by a 16-bit "
                         "multiplier and a shift of 0 to %d",
                         s, ch, KILN_RQ_MAX_SHIFT);
    return 0;
}

/* Rewrite node q in place into op with inputs in[0..nin). */
static void become(GirGraph *g, GirNode *q, GirOp op, const int *in, int nin)
{
    q->op = op;
    q->in = gir_arena_alloc(g->arena, sizeof *q->in * (size_t)nin);
    memcpy(q->in, in, sizeof *q->in * (size_t)nin);
    q->nin = nin;
    q->attrs = NULL;
    q->nattr = 0;
}

/* Copy n's attributes onto node id qi, leaving out the fused-act ones. */
static void copy_attrs(GirGraph *g, const GirAttr *attrs, int nattr, int qi)
{
    int i;
    for (i = 0; i < nattr; i++) {
        const GirAttr *a = &attrs[i];
        if (strncmp(a->name, "act", 3) == 0)
            continue;
        switch (a->kind) {
        case GIR_ATTR_INT: gir_set_attr_int(g, qi, a->name, a->i); break;
        case GIR_ATTR_FLOAT: gir_set_attr_float(g, qi, a->name, a->f); break;
        case GIR_ATTR_STRING: gir_set_attr_string(g, qi, a->name, a->s); break;
        case GIR_ATTR_INTS: gir_set_attr_ints(g, qi, a->name, a->ints, a->n); break;
        case GIR_ATTR_FLOATS: gir_set_attr_floats(g, qi, a->name, a->floats, a->n); break;
        case GIR_ATTR_TENSOR: gir_set_attr_tensor(g, qi, a->name, &a->t); break;
        }
    }
}

/* Fill the requantize attributes of int8 node qi: per channel c, real scale
 * sc[c]; activation from the fused act of the float node (attrs). */
static int set_rq(GirGraph *g, int qi, const GirNode *f, const double *sc, int64_t oc,
                  double sy, GirError *e)
{
    const char *act = gir_attr_string(f, "act", NULL);
    double alpha = 1.0;
    int64_t *mp = gir_arena_alloc(g->arena, sizeof *mp * (size_t)oc);
    int64_t *mn = gir_arena_alloc(g->arena, sizeof *mn * (size_t)oc);
    int64_t *shs = gir_arena_alloc(g->arena, sizeof *shs * (size_t)oc);
    int64_t c;
    if (act && strcmp(act, "relu") == 0)
        alpha = 0.0;
    else if (act && strcmp(act, "leakyrelu") == 0)
        alpha = gir_attr_float(f, "act_alpha", 0.01f);
    for (c = 0; c < oc; c++) {
        int32_t m = 0;
        int sh = 0;
        if (choose(f, sc[c], (int)c, &m, &sh, e))
            return -1;
        mp[c] = m;
        mn[c] = (int64_t)floor(m * alpha + 0.5);
        shs[c] = sh;
    }
    gir_set_attr_ints(g, qi, "rq_m_pos", mp, (int)oc);
    gir_set_attr_ints(g, qi, "rq_m_neg", mn, (int)oc);
    gir_set_attr_ints(g, qi, "rq_shift", shs, (int)oc);
    if (act && strcmp(act, "clip") == 0) {
        double lo = gir_attr_float(f, "act_min", -INFINITY) / sy;
        double hi = gir_attr_float(f, "act_max", INFINITY) / sy;
        int64_t l = lo < -128 ? -128 : lo > 127 ? 127 : (int64_t)floor(lo + 0.5);
        int64_t h = hi < -128 ? -128 : hi > 127 ? 127 : (int64_t)floor(hi + 0.5);
        gir_set_attr_ints(g, qi, "act_min", &l, 1);
        gir_set_attr_ints(g, qi, "act_max", &h, 1);
    }
    return 0;
}

/* i32 bias b / (sx * sw[c]) as a new constant; -1 + error when out of range. */
static int int_bias(GirGraph *g, const GirNode *q, const float *b, const double *acc_scale,
                    int64_t oc, const char *base, int *out, GirError *e)
{
    int32_t *bi = gir_arena_alloc(g->arena, sizeof *bi * (size_t)oc);
    GirType t;
    int64_t c;
    for (c = 0; c < oc; c++) {
        double v = floor(b[c] / acc_scale[c] + 0.5);
        if (!(fabs(v) < 2147483647.0))
            return fold_fail(q, e, "bias of channel %lld does not fit int32 at scale %g",
                             (long long)c, acc_scale[c]);
        bi[c] = (int32_t)v;
    }
    memset(&t, 0, sizeof t);
    t.dtype = GIR_DT_I32;
    t.rank = 1;
    t.dims[0] = oc;
    *out = gir_add_const(g, pu_fresh_name(g, base), t, bi, q->loc);
    return 0;
}

/* Q(Conv|Gemm|MatMul(DQ(x), DQ(w), b)): q is the QuantizeLinear. */
static int fold_weighted(GirGraph *g, int qi, GirNode *f, GirError *e)
{
    GirNode *q = &g->nodes[qi], *dx = producer_is(g, f->in[0], GIR_OP_DEQUANTIZELINEAR);
    GirNode *dw = producer_is(g, f->in[1], GIR_OP_DEQUANTIZELINEAR);
    const GirValue *wv;
    int wax, in[3], nin = 2, ws_v, i;
    int64_t oc, nws, c;
    double sx, sy = g->vals[q->out[0]].scale, *sc, *acc;
    const float *wsd, *b = NULL;
    GirAttr *fattrs;
    int fnattr;
    GirOp fop = f->op;
    if (!dx || !dw)
        return 0;
    wv = &g->vals[dw->in[0]];
    if (wv->kind != GIR_VAL_CONST || wv->type.dtype != GIR_DT_I8)
        return fold_fail(dw, e, "weights '%s' must be an i8 constant", wv->name);
    if (check_zero_point(g, dw, 2, e))
        return -1;
    sx = g->vals[dx->in[0]].scale;
    if (!(sx > 0) || g->vals[dx->in[0]].chscale)
        return 0;
    wax = fop == GIR_OP_CONV ? 0 : fop == GIR_OP_GEMM && gir_attr_int(f, "transB", 0) ? 0 : 1;
    if (wv->type.rank < 2 || (fop == GIR_OP_MATMUL && wv->type.rank != 2))
        return fold_fail(f, e, "weights must be 2-D or more");
    oc = wv->type.dims[wax];
    ws_v = dw->in[1];
    wsd = pu_const_f32(g, ws_v);
    nws = wsd ? pu_numel(g, ws_v) : 0;
    if (!wsd || (nws != 1 && nws != oc))
        return fold_fail(dw, e, "weight scale must be a constant with 1 or %lld entries",
                         (long long)oc);
    if (nws > 1 && gir_attr_int(dw, "axis", 1) != wax && gir_attr_int(dw, "axis", 1) - wv->type.rank != wax)
        return fold_fail(dw, e, "per-channel weight scales must be along axis %d", wax);
    if (f->nin > 2 && f->in[2] >= 0) {
        b = pu_const_f32(g, f->in[2]);
        if (!b || pu_numel(g, f->in[2]) != oc)
            return fold_fail(f, e, "bias must be an f32 constant with %lld entries",
                             (long long)oc);
    }
    if (fop == GIR_OP_GEMM && (gir_attr_float(f, "alpha", 1) != 1 || gir_attr_float(f, "beta", 1) != 1 ||
                              gir_attr_int(f, "transA", 0)))
        return fold_fail(f, e, "Gemm with alpha, beta or transA is not folded");
    sc = gir_arena_alloc(g->arena, sizeof *sc * (size_t)oc);
    acc = gir_arena_alloc(g->arena, sizeof *acc * (size_t)oc);
    if (g->vals[q->out[0]].chscale && (g->vals[q->out[0]].nchscale != oc ||
                                       strcmp(gir_attr_string(f, "act", ""), "clip") == 0))
        return fold_fail(q, e, "per-channel output scales need one per output channel and no Clip");
    for (c = 0; c < oc; c++) {
        const GirValue *yv = &g->vals[q->out[0]];
        acc[c] = sx * wsd[nws == 1 ? 0 : c];
        sc[c] = acc[c] / (yv->chscale ? yv->chscale[c] : sy);
    }
    in[0] = dx->in[0];
    in[1] = dw->in[0];
    if (b) {
        if (int_bias(g, q, b, acc, oc, g->vals[f->in[2]].name, &in[2], e))
            return -1;
        nin = 3;
        q = &g->nodes[qi]; /* gir_add_const may not move nodes, but stay safe */
    }
    fattrs = f->attrs;
    fnattr = f->nattr;
    become(g, q, fop, in, nin);
    copy_attrs(g, fattrs, fnattr, qi);
    i = set_rq(g, qi, f, sc, oc, sy, e);
    return i ? -1 : 1;
}

/* Data movement on one scale: every float input from a DQ of the same
 * scale as the output. */
static int fold_movement(GirGraph *g, int qi, GirNode *f, GirError *e)
{
    GirNode *q = &g->nodes[qi];
    double sy = g->vals[q->out[0]].scale;
    int *in = gir_arena_alloc(g->arena, sizeof *in * (size_t)(f->nin + 1)), i;
    GirAttr *fattrs = f->attrs;
    int fnattr = f->nattr, fnin = f->nin;
    GirOp fop = f->op;
    if (f->nout != 1 || g->vals[q->out[0]].chscale)
        return 0; /* kiln's int8 data movement has one scale per tensor */
    for (i = 0; i < f->nin; i++) {
        int v = f->in[i];
        GirNode *d;
        in[i] = v;
        if (v < 0 || g->vals[v].type.dtype != GIR_DT_F32)
            continue;
        d = producer_is(g, v, GIR_OP_DEQUANTIZELINEAR);
        if (!d) {
            if (g->vals[v].kind == GIR_VAL_CONST)
                continue; /* Resize scales, Pad value ... */
            return 0;
        }
        if (g->vals[d->in[0]].scale != (float)sy || g->vals[d->in[0]].chscale)
            return fold_fail(f, e,
                             "input %d is on scale %g but the output on %g: kiln's int8 data "
                             "movement keeps one scale",
                             i, g->vals[d->in[0]].scale, sy);
        in[i] = d->in[0];
    }
    if (fop == GIR_OP_PAD && f->nin > 2 && f->in[2] >= 0 &&
        const_scalar_f32(g, f->in[2]) != 0.0)
        return fold_fail(f, e, "Pad on int8 pads with 0 only");
    become(g, q, fop, in, fnin);
    copy_attrs(g, fattrs, fnattr, qi);
    return 1;
}

/* QLinearConv with i8 data and zero points 0 -> int8 Conv. */
static int fold_qlinearconv(GirGraph *g, int ni, GirError *e)
{
    GirNode *n = &g->nodes[ni];
    const GirValue *xv = &g->vals[n->in[0]], *wv = &g->vals[n->in[3]];
    double sx = const_scalar_f32(g, n->in[1]), sy = const_scalar_f32(g, n->in[6]), *sc;
    const float *ws = pu_const_f32(g, n->in[4]);
    int64_t oc = wv->type.dims[0], nws = ws ? pu_numel(g, n->in[4]) : 0, c;
    int in[3], nin = 2, zi[3] = {2, 5, 7}, k;
    GirAttr *attrs = n->attrs;
    int nattr = n->nattr;
    if (xv->type.dtype != GIR_DT_I8 || wv->type.dtype != GIR_DT_I8)
        return fold_fail(n, e, "%s data and %s weights: kiln's int8 form takes i8 with zero "
                         "point 0", gir_dtype_name(xv->type.dtype), gir_dtype_name(wv->type.dtype));
    if (wv->kind != GIR_VAL_CONST)
        return fold_fail(n, e, "weights '%s' must be a constant", wv->name);
    if (isnan(sx) || isnan(sy) || !ws || (nws != 1 && nws != oc))
        return fold_fail(n, e, "scales must be constants (x, y per tensor; w per tensor or "
                         "per channel)");
    for (k = 0; k < 3; k++) {
        const GirValue *z = &g->vals[n->in[zi[k]]];
        int64_t j;
        if (z->kind != GIR_VAL_CONST)
            return fold_fail(n, e, "zero point '%s' is not a constant", z->name);
        for (j = 0; j < pu_numel(g, n->in[zi[k]]); j++)
            if (((const int8_t *)z->data)[j] != 0)
                return fold_fail(n, e, "zero point %d of '%s' is not 0: kiln's int8 "
                                 "activations and weights are symmetric",
                                 ((const int8_t *)z->data)[j], z->name);
    }
    if (xv->scale > 0 && xv->scale != (float)sx)
        return fold_fail(n, e, "x_scale %g differs from the scale %g of '%s'", sx, xv->scale,
                         xv->name);
    g->vals[n->in[0]].scale = (float)sx;
    sc = gir_arena_alloc(g->arena, sizeof *sc * (size_t)oc);
    for (c = 0; c < oc; c++)
        sc[c] = sx * ws[nws == 1 ? 0 : c] / sy;
    in[0] = n->in[0];
    in[1] = n->in[3];
    if (n->nin > 8 && n->in[8] >= 0) {
        in[2] = n->in[8];
        nin = 3;
    }
    become(g, n, GIR_OP_CONV, in, nin);
    copy_attrs(g, attrs, nattr, ni);
    g->vals[n->out[0]].scale = (float)sy;
    return set_rq(g, ni, n, sc, oc, sy, e);
}

/* A Quantize/DequantizeLinear of an activation with a constant [C] scale
 * along axis 1 (kiln export's head convs): the i8 value gets per-channel
 * scales.  0, or -1 when the scale has another form. */
static int channel_scales(GirGraph *g, const GirNode *n)
{
    int v = n->op == GIR_OP_QUANTIZELINEAR ? n->out[0] : n->in[0];
    const GirType *t = &g->vals[v].type;
    const float *sd = pu_const_f32(g, n->in[1]);
    int64_t cnt = sd ? pu_numel(g, n->in[1]) : 0, c;
    if (!sd || t->rank < 2 || gir_attr_int(n, "axis", 1) != 1 || t->dims[1] != cnt || cnt < 2 ||
        cnt > INT32_MAX || (t->dtype != GIR_DT_I8 && n->op == GIR_OP_DEQUANTIZELINEAR))
        return -1;
    for (c = 0; c < cnt; c++)
        if (!(sd[c] > 0) || isinf(sd[c]))
            return -1;
    gir_set_chscale(g, v, sd, (int)cnt);
    return 0;
}

int gir_pass_fold_qdq(GirGraph *g, GirError *e)
{
    int i, any = 0;
    if (gir_pass_fuse_act(g, e))
        return -1;
    /* Scales of the quantized values, and the zero-point checks. */
    for (i = 0; i < g->nnode; i++) {
        GirNode *n = &g->nodes[i];
        double s;
        if (n->op != GIR_OP_QUANTIZELINEAR && n->op != GIR_OP_DEQUANTIZELINEAR)
            continue;
        if (check_zero_point(g, n, 2, e))
            return -1;
        s = const_scalar_f32(g, n->in[1]);
        if (isnan(s) && g->vals[n->in[0]].kind != GIR_VAL_CONST) {
            int r = channel_scales(g, n);
            if (r < 0)
                return fold_fail(n, e, "activation scale must be one constant, or one per "
                                 "channel along axis 1 of an i8 value");
            continue;
        }
        if (n->op == GIR_OP_DEQUANTIZELINEAR) {
            if (g->vals[n->in[0]].kind != GIR_VAL_CONST && isnan(s))
                return fold_fail(n, e, "activation scale must be one constant");
            if (!isnan(s) && g->vals[n->in[0]].kind != GIR_VAL_CONST)
                g->vals[n->in[0]].scale = (float)s;
            continue;
        }
        if (isnan(s) || !(s > 0))
            return fold_fail(n, e, "scale must be one positive constant");
        g->vals[n->out[0]].scale = (float)s;
    }
    for (i = 0; i < g->nnode; i++) {
        GirNode *q = &g->nodes[i], *f;
        int r = 0;
        if (q->op == GIR_OP_QLINEARCONV) {
            if (fold_qlinearconv(g, i, e))
                return -1;
            any = 1;
            continue;
        }
        if (q->op != GIR_OP_QUANTIZELINEAR || q->in[0] < 0 ||
            g->vals[q->in[0]].kind != GIR_VAL_NODE)
            continue;
        f = &g->nodes[g->vals[q->in[0]].producer];
        switch (f->op) {
        case GIR_OP_CONV:
        case GIR_OP_GEMM:
        case GIR_OP_MATMUL:
            r = fold_weighted(g, i, f, e);
            break;
        case GIR_OP_MAXPOOL:
        case GIR_OP_CONCAT:
        case GIR_OP_RESHAPE:
        case GIR_OP_FLATTEN:
        case GIR_OP_TRANSPOSE:
        case GIR_OP_SQUEEZE:
        case GIR_OP_UNSQUEEZE:
        case GIR_OP_IDENTITY:
        case GIR_OP_SLICE:
        case GIR_OP_PAD:
            r = fold_movement(g, i, f, e);
            break;
        case GIR_OP_RESIZE:
            if (strcmp(gir_attr_string(f, "mode", "nearest"), "nearest") == 0)
                r = fold_movement(g, i, f, e);
            break;
        default:
            break;
        }
        if (r < 0)
            return -1;
        any |= r;
    }
    (void)any;
    if (gir_pass_dce(g, e))
        return -1;
    return gir_infer_shapes(g, e);
}
