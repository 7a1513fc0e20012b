/*
 * The int8 interpreter's kernels: the ops of the int8 form (docs/quant.md)
 * in pure integer arithmetic, plus QuantizeLinear, DequantizeLinear and
 * Requantize.  Every int32 -> int8 step goes through graphir/requant.h and
 * nothing else, so these kernels are the bit-exact reference the RTL and the
 * LLVM lowering are checked against.
 *
 * Needs: shapes already checked by the shape rules of shape.c (the int8
 * form's rule runs the fp32 rule on the same shapes, then checks operand
 * types and the requantize attributes).  interp.c routes a node here when
 * gir_int8_node says so; ops that only move int8 data (MaxPool, Concat, Reshape, ...) stay
 * with their dtype-generic kernels in interp.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "requant.h"

static const GirTensor *arg(const GirNode *n, const GirTensor *const *ins, int i)
{
    return i < n->nin ? ins[i] : NULL;
}

static int64_t numel(const GirTensor *t) { return gir_type_numel(&t->type); }

/* One accumulator of channel c through kiln_requant and the fused Clip. */
static int8_t chan_apply(const GirChanRq *rq, int64_t c, int32_t acc)
{
    int8_t v = kiln_requant(acc, (int32_t)rq->m_pos[c], (int32_t)rq->m_neg[c], (int)rq->shift[c]);
    return v < rq->lo ? rq->lo : v > rq->hi ? rq->hi : v;
}

/* ---- QuantizeLinear / DequantizeLinear (ONNX semantics) ---------------------- */

/* Which entry of the scale applies to element i: 0 per tensor, else the
 * element's index along axis. */
typedef struct {
    int64_t inner; /* elements per step along axis */
    int64_t len;   /* entries of the scale (1: per tensor) */
} QAxis;

static QAxis qaxis(const GirNode *n, const GirType *xt, const GirTensor *s)
{
    QAxis q;
    int64_t axis = gir_attr_int(n, "axis", 1);
    q.len = numel(s);
    q.inner = 1;
    if (q.len > 1) {
        if (axis < 0)
            axis += xt->rank;
        q.inner = gir_dims_prod(xt->dims, (int)axis + 1, xt->rank);
    }
    return q;
}

static int64_t qchan(const QAxis *q, int64_t i) { return q->len > 1 ? (i / q->inner) % q->len : 0; }

static int64_t zp_at(const GirTensor *zp, int64_t c)
{
    if (!zp)
        return 0;
    switch (zp->type.dtype) {
    case GIR_DT_I8: return ((const int8_t *)zp->data)[c];
    case GIR_DT_U8: return ((const uint8_t *)zp->data)[c];
    case GIR_DT_I32: return ((const int32_t *)zp->data)[c];
    default: gir_unreachable();
    }
}

/* y = saturate(rint(x / scale) + zero_point): the division in f32 as the
 * ONNX reference does it, rint rounding half to even (the default rounding
 * mode), NaN taken as 0. */
int gir_eval_quantizelinear(const GirNode *n, const GirTensor *const *ins,
                            GirTensor *const *outs, GirError *e)
{
    const GirTensor *x = ins[0], *s = ins[1], *zp = arg(n, ins, 2);
    GirTensor *y = outs[0];
    const float *sc = s->data;
    QAxis q = qaxis(n, &x->type, s);
    int64_t i, cnt = numel(x), lo, hi;
    int is_u8 = y->type.dtype == GIR_DT_U8;
    (void)e;
    lo = is_u8 ? 0 : -128;
    hi = is_u8 ? 255 : 127;
    for (i = 0; i < cnt; i++) {
        int64_t c = qchan(&q, i);
        float xv = x->type.dtype == GIR_DT_F32 ? ((const float *)x->data)[i]
                                               : (float)((const int32_t *)x->data)[i];
        double r = rint((double)(xv / sc[c]));
        double v;
        if (r != r)
            r = 0;
        v = r + (double)zp_at(zp, c);
        v = v < (double)lo ? (double)lo : v > (double)hi ? (double)hi : v;
        if (is_u8)
            ((uint8_t *)y->data)[i] = (uint8_t)v;
        else
            ((int8_t *)y->data)[i] = (int8_t)v;
    }
    return 0;
}

/* y = (x - zero_point) * scale in f32. */
int gir_eval_dequantizelinear(const GirNode *n, const GirTensor *const *ins,
                              GirTensor *const *outs, GirError *e)
{
    const GirTensor *x = ins[0], *s = ins[1], *zp = arg(n, ins, 2);
    const float *sc = s->data;
    float *y = outs[0]->data;
    QAxis q = qaxis(n, &x->type, s);
    int64_t i, cnt = numel(x);
    (void)e;
    for (i = 0; i < cnt; i++) {
        int64_t c = qchan(&q, i), xv = zp_at(x, i);
        y[i] = ((float)xv - (float)zp_at(zp, c)) * sc[c];
    }
    return 0;
}

/* ---- Requantize -------------------------------------------------------------- */

int gir_eval_requantize(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    const int8_t *x = ins[0]->data;
    int8_t *y = outs[0]->data;
    int cnt;
    int32_t m = (int32_t)gir_attr_ints(n, "rq_m", &cnt)[0];
    int sh = (int)gir_attr_ints(n, "rq_shift", &cnt)[0];
    int64_t i, num = numel(ins[0]);
    (void)e;
    for (i = 0; i < num; i++)
        y[i] = kiln_requant(x[i], m, m, sh);
    return 0;
}

/* ---- LutI8 ------------------------------------------------------------------- */

int gir_eval_luti8(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                   GirError *e)
{
    const int8_t *x = ins[0]->data;
    int8_t *y = outs[0]->data;
    int cnt, k;
    const int64_t *lut = gir_attr_ints(n, "lut", &cnt);
    int8_t t[GIR_LUT_SIZE];
    int64_t i, num = numel(ins[0]);
    int64_t nch = gir_lut_channel_count(n, &ins[0]->type), inner;
    (void)e;
    if (nch > 0) {
        /* one table per channel: channel (i / inner) % nch */
        inner = gir_lut_inner(n, &ins[0]->type);
        for (i = 0; i < num; i++)
            y[i] = (int8_t)lut[((i / inner) % nch) * GIR_LUT_SIZE + x[i] + 128];
        return 0;
    }
    for (k = 0; k < GIR_LUT_SIZE; k++)
        t[k] = (int8_t)lut[k];
    for (i = 0; i < num; i++)
        y[i] = t[x[i] + 128];
    return 0;
}

/* ---- kernels ------------------------------------------------------------------------ */

/*
 * int8 convolution, 2-D.  Per output channel an int32 plane starts at the
 * bias; each (input channel, kernel tap) adds weight * input row along the
 * output row between precomputed bounds (no branch in the inner loop), then
 * every accumulator goes through kiln_requant and the fused Clip bounds.
 * Products are 16 bit and a plane sums at most IC/group * kh * kw of them,
 * so int32 holds any real layer (2^31 / 2^14 = 131072 taps).
 */
static int conv_i8(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                   GirError *e)
{
    const GirTensor *x = ins[0], *w = ins[1], *b = arg(n, ins, 2);
    const GirType *xt = &x->type, *wt = &w->type, *yt = &outs[0]->type;
    const int8_t *xd = x->data, *wd = w->data;
    const int32_t *bd = b ? b->data : NULL;
    int8_t *yd = outs[0]->data;
    int64_t N, C, H, W, M, Cg, KH, KW, OH, OW, G, Mg, plane;
    int64_t nb, oc, ic, ky, kx, oy, ox, i;
    int32_t *acc;
    GirArena *tmp;
    GirChanRq rq;
    GirWindow g;
    if (xt->rank != 4)
        return gir_node_fail(n, e, "int8 Conv is 2-D only; input has rank %d", xt->rank);
    if (gir_chan_rq(n, wt->dims[0], &rq, e))
        return -1;
    N = xt->dims[0], C = xt->dims[1], H = xt->dims[2], W = xt->dims[3];
    M = wt->dims[0], Cg = wt->dims[1], KH = wt->dims[2], KW = wt->dims[3];
    OH = yt->dims[2], OW = yt->dims[3];
    G = gir_attr_int(n, "group", 1);
    Mg = M / G;
    plane = OH * OW;
    gir_window(n, xt, yt, wt->dims + 2, &g);
    tmp = gir_arena_new();
    acc = gir_arena_alloc(tmp, sizeof *acc * (size_t)(plane + 1));
    for (nb = 0; nb < N; nb++) {
        for (oc = 0; oc < M; oc++) {
            int64_t grp = oc / Mg;
            int32_t bias = bd ? bd[oc] : 0;
            int8_t *yp = yd + (nb * M + oc) * plane;
            for (i = 0; i < plane; i++)
                acc[i] = bias;
            for (ic = 0; ic < Cg; ic++) {
                const int8_t *xp = xd + (nb * C + grp * Cg + ic) * H * W;
                const int8_t *wp = wd + (oc * Cg + ic) * KH * KW;
                for (ky = 0; ky < KH; ky++) {
                    for (kx = 0; kx < KW; kx++) {
                        int32_t wv = wp[ky * KW + kx];
                        int64_t off = kx * g.d[1] - g.pb[1], lo, hi;
                        if (wv == 0)
                            continue;
                        /* Output column ox reads input column ox*sx + off:
                         * keep it in [0, W). */
                        lo = off >= 0 ? 0 : (-off + g.s[1] - 1) / g.s[1];
                        hi = W - 1 - off < 0 ? 0 : (W - 1 - off) / g.s[1] + 1;
                        if (hi > OW)
                            hi = OW;
                        for (oy = 0; oy < OH; oy++) {
                            int64_t iy = oy * g.s[0] + ky * g.d[0] - g.pb[0];
                            const int8_t *xr;
                            int32_t *ar;
                            if (iy < 0 || iy >= H)
                                continue;
                            xr = xp + iy * W;
                            ar = acc + oy * OW;
                            if (g.s[1] == 1) {
                                for (ox = lo; ox < hi; ox++)
                                    ar[ox] += wv * xr[ox + off];
                            } else {
                                for (ox = lo; ox < hi; ox++)
                                    ar[ox] += wv * xr[ox * g.s[1] + off];
                            }
                        }
                    }
                }
            }
            for (i = 0; i < plane; i++)
                yp[i] = chan_apply(&rq, oc, acc[i]);
        }
    }
    gir_arena_free(tmp);
    return 0;
}

/* int8 Gemm: A i8 (M x K, or transposed), B i8 constant weights, C an
 * optional i32 bias broadcast to (M, N); alpha and beta must be 1 (the
 * quantizer folds them into the multipliers). */
static int gemm_i8(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                   GirError *e)
{
    const GirTensor *c = arg(n, ins, 2);
    const int8_t *a = ins[0]->data, *b = ins[1]->data;
    const int32_t *cd = c ? c->data : NULL;
    int8_t *y = outs[0]->data;
    int ta = gir_attr_int(n, "transA", 0) != 0, tb = gir_attr_int(n, "transB", 0) != 0;
    int64_t M = outs[0]->type.dims[0], N = outs[0]->type.dims[1];
    int64_t K = ins[0]->type.dims[ta ? 0 : 1], i, j, k, cs0 = 0, cs1 = 0;
    GirChanRq rq;
    if (gir_attr_float(n, "alpha", 1.0f) != 1.0f || gir_attr_float(n, "beta", 1.0f) != 1.0f)
        return gir_node_fail(n, e, "int8 form needs alpha = beta = 1");
    if (gir_chan_rq(n, N, &rq, e))
        return -1;
    if (c) {
        const GirType *ct = &c->type;
        if (ct->rank == 2) {
            cs0 = ct->dims[0] == 1 ? 0 : ct->dims[1];
            cs1 = ct->dims[1] == 1 ? 0 : 1;
        } else if (ct->rank == 1) {
            cs1 = ct->dims[0] == 1 ? 0 : 1;
        }
    }
    for (i = 0; i < M; i++) {
        for (j = 0; j < N; j++) {
            int32_t acc = cd ? cd[i * cs0 + j * cs1] : 0;
            for (k = 0; k < K; k++) {
                int32_t u = ta ? a[k * M + i] : a[i * K + k];
                int32_t v = tb ? b[j * K + k] : b[k * N + j];
                acc += u * v;
            }
            y[i * N + j] = chan_apply(&rq, j, acc);
        }
    }
    return 0;
}

/* int8 MatMul: A i8 [..., M, K] times a 2-D i8 weight B [K, N]. */
static int matmul_i8(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const GirType *at = &ins[0]->type, *bt = &ins[1]->type;
    const int8_t *a = ins[0]->data, *b = ins[1]->data;
    int8_t *y = outs[0]->data;
    int64_t K, N, rows, r, j, k;
    GirChanRq rq;
    if (bt->rank != 2 || at->rank < 1)
        return gir_node_fail(n, e, "int8 MatMul needs a 2-D second operand");
    K = bt->dims[0];
    N = bt->dims[1];
    if (gir_chan_rq(n, N, &rq, e))
        return -1;
    rows = numel(ins[0]) / (K ? K : 1);
    for (r = 0; r < rows; r++) {
        for (j = 0; j < N; j++) {
            int32_t acc = 0;
            for (k = 0; k < K; k++)
                acc += (int32_t)a[r * K + k] * b[k * N + j];
            y[r * N + j] = chan_apply(&rq, j, acc);
        }
    }
    return 0;
}

/* int8 Add with numpy broadcasting: kiln_add_requant per element. */
static int add_i8(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                  GirError *e)
{
    const GirTensor *a = ins[0], *b = ins[1];
    const GirType *yt = &outs[0]->type;
    const int8_t *pa = a->data, *pb = b->data;
    int8_t *y = outs[0]->data;
    int64_t sa[GIR_MAX_RANK], sb[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0}, cnt = numel(outs[0]);
    int64_t i, s;
    int r = yt->rank, d, c;
    int32_t ma = (int32_t)gir_attr_ints(n, "rq_m_a", &c)[0];
    int32_t mb = (int32_t)gir_attr_ints(n, "rq_m_b", &c)[0];
    int sh = (int)gir_attr_ints(n, "rq_shift", &c)[0];
    (void)e;
    /* Element strides of each operand along the result's axes; 0 where it
     * broadcasts. */
    for (s = 1, d = a->type.rank - 1; d >= 0; d--) {
        int yd = d + r - a->type.rank;
        sa[yd] = a->type.dims[d] == 1 ? 0 : s;
        s *= a->type.dims[d];
    }
    for (d = 0; d < r - a->type.rank; d++)
        sa[d] = 0;
    for (s = 1, d = b->type.rank - 1; d >= 0; d--) {
        int yd = d + r - b->type.rank;
        sb[yd] = b->type.dims[d] == 1 ? 0 : s;
        s *= b->type.dims[d];
    }
    for (d = 0; d < r - b->type.rank; d++)
        sb[d] = 0;
    for (i = 0; i < cnt; i++) {
        int64_t oa = 0, ob = 0;
        for (d = 0; d < r; d++) {
            oa += idx[d] * sa[d];
            ob += idx[d] * sb[d];
        }
        y[i] = kiln_add_requant(pa[oa], pb[ob], ma, mb, sh);
        gir_next_index(idx, yt->dims, r);
    }
    return 0;
}

/* int8 AveragePool, 2-D: the int32 sum of the window's taps inside the input
 * (padding adds 0), requantized by rq_m, rq_shift, which carry the divisor. */
static int avgpool_i8(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e)
{
    const GirType *xt = &ins[0]->type, *yt = &outs[0]->type;
    const int8_t *x = ins[0]->data;
    int8_t *y = outs[0]->data;
    int c;
    const int64_t *k = gir_attr_ints(n, "kernel_shape", &c);
    int32_t m = (int32_t)gir_attr_ints(n, "rq_m", &c)[0];
    int sh = (int)gir_attr_ints(n, "rq_shift", &c)[0];
    int64_t planes, H, W, OH, OW, p, oy, ox, ky, kx;
    GirWindow g;
    if (xt->rank != 4)
        return gir_node_fail(n, e, "int8 AveragePool is 2-D only; input has rank %d", xt->rank);
    planes = xt->dims[0] * xt->dims[1];
    H = xt->dims[2], W = xt->dims[3], OH = yt->dims[2], OW = yt->dims[3];
    gir_window(n, xt, yt, k, &g);
    for (p = 0; p < planes; p++) {
        const int8_t *xp = x + p * H * W;
        for (oy = 0; oy < OH; oy++) {
            for (ox = 0; ox < OW; ox++) {
                int32_t sum = 0;
                for (ky = 0; ky < k[0]; ky++) {
                    int64_t iy = oy * g.s[0] + ky * g.d[0] - g.pb[0];
                    if (iy < 0 || iy >= H)
                        continue;
                    for (kx = 0; kx < k[1]; kx++) {
                        int64_t ix = ox * g.s[1] + kx * g.d[1] - g.pb[1];
                        if (ix >= 0 && ix < W)
                            sum += xp[iy * W + ix];
                    }
                }
                y[(p * OH + oy) * OW + ox] = kiln_requant(sum, m, m, sh);
            }
        }
    }
    return 0;
}

static int globalavgpool_i8(const GirNode *n, const GirTensor *const *ins,
                            GirTensor *const *outs, GirError *e)
{
    const GirType *t = &ins[0]->type;
    const int8_t *x = ins[0]->data;
    int8_t *y = outs[0]->data;
    int c;
    int32_t m = (int32_t)gir_attr_ints(n, "rq_m", &c)[0];
    int sh = (int)gir_attr_ints(n, "rq_shift", &c)[0];
    int64_t planes = t->dims[0] * t->dims[1], plane = gir_dims_prod(t->dims, 2, t->rank), p, i;
    if (plane > ((int64_t)1 << 24))
        return gir_node_fail(n, e, "int8 GlobalAveragePool plane of %lld elements overflows int32",
                    (long long)plane);
    for (p = 0; p < planes; p++) {
        int32_t sum = 0;
        for (i = 0; i < plane; i++)
            sum += x[p * plane + i];
        y[p] = kiln_requant(sum, m, m, sh);
    }
    return 0;
}

/* Input index of output index o along one axis of a nearest Resize. */
static int64_t nearest_src(const char *ctm, const char *nm, int64_t o, int64_t in, int64_t out,
                           double scale)
{
    double xo;
    int64_t r;
    if (strcmp(ctm, "asymmetric") == 0)
        xo = (double)o / scale;
    else if (strcmp(ctm, "align_corners") == 0)
        xo = out == 1 ? 0.0 : (double)o * (double)(in - 1) / (double)(out - 1);
    else if (strcmp(ctm, "pytorch_half_pixel") == 0)
        xo = out > 1 ? ((double)o + 0.5) / scale - 0.5 : 0.0;
    else if (strncmp(ctm, "tf_half_pixel_for_n", 19) == 0)
        xo = ((double)o + 0.5) / scale;
    else
        xo = ((double)o + 0.5) / scale - 0.5;
    if (strcmp(nm, "floor") == 0)
        r = (int64_t)floor(xo);
    else if (strcmp(nm, "ceil") == 0)
        r = (int64_t)ceil(xo);
    else if (strcmp(nm, "round_prefer_ceil") == 0)
        r = (int64_t)floor(xo + 0.5);
    else
        r = (int64_t)ceil(xo - 0.5);
    return r < 0 ? 0 : r >= in ? in - 1 : r;
}

/* int8 Resize, nearest: a gather; the scale of the data does not change. */
static int resize_i8(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const GirType *xt = &ins[0]->type, *yt = &outs[0]->type;
    const GirTensor *sc = arg(n, ins, 2), *sz = arg(n, ins, 3);
    const char *ctm = gir_attr_string(n, "coordinate_transformation_mode", "half_pixel");
    const char *nm = gir_attr_string(n, "nearest_mode", "round_prefer_floor");
    const int8_t *x = ins[0]->data;
    int8_t *y = outs[0]->data;
    int64_t xs[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0}, cnt = numel(outs[0]), i, s;
    int64_t *map[GIR_MAX_RANK];
    int r = xt->rank, d;
    GirArena *tmp;
    if (strcmp(ctm, "tf_crop_and_resize") == 0)
        return gir_node_fail(n, e, "int8 Resize does not support tf_crop_and_resize");
    tmp = gir_arena_new();
    for (s = 1, d = r - 1; d >= 0; d--) {
        xs[d] = s;
        s *= xt->dims[d];
    }
    for (d = 0; d < r; d++) {
        int64_t o;
        double scale = (double)yt->dims[d] / (double)(xt->dims[d] ? xt->dims[d] : 1);
        if (!(sz && numel(sz) > 0) && sc && numel(sc) == r)
            scale = ((const float *)sc->data)[d];
        map[d] = gir_arena_alloc(tmp, sizeof *map[d] * (size_t)(yt->dims[d] + 1));
        for (o = 0; o < yt->dims[d]; o++)
            map[d][o] = nearest_src(ctm, nm, o, xt->dims[d], yt->dims[d], scale);
    }
    for (i = 0; i < cnt; i++) {
        int64_t off = 0;
        for (d = 0; d < r; d++)
            off += map[d][idx[d]] * xs[d];
        y[i] = x[off];
        gir_next_index(idx, yt->dims, r);
    }
    gir_arena_free(tmp);
    return 0;
}

int gir_eval_int8(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                  GirError *e)
{
    switch (n->op) {
    case GIR_OP_CONV: return conv_i8(n, ins, outs, e);
    case GIR_OP_GEMM: return gemm_i8(n, ins, outs, e);
    case GIR_OP_MATMUL: return matmul_i8(n, ins, outs, e);
    case GIR_OP_ADD: return add_i8(n, ins, outs, e);
    case GIR_OP_AVGPOOL: return avgpool_i8(n, ins, outs, e);
    case GIR_OP_GLOBALAVGPOOL: return globalavgpool_i8(n, ins, outs, e);
    case GIR_OP_RESIZE: return resize_i8(n, ins, outs, e);
    default: return gir_node_fail(n, e, "no int8 kernel");
    }
}
