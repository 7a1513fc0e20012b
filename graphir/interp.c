/*
 * The fp32 reference interpreter: runs a graph node by node in program
 * order, with plain loops that follow the ONNX definitions.  It is the
 * reference the other back-ends are checked against, so clarity wins over
 * speed, except in Conv, whose inner loop runs along a contiguous output row
 * so that a whole YOLOv3-tiny runs in seconds.
 *
 * Each node's output shapes come from the same shape rules the compiler uses
 * (gir_shape_node), called with every input tensor known; the kernels below
 * trust those rules for validation and only check what depends on data.
 */
#include <float.h>
#include <stdlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "graphir.h"
#include "internal.h"
#include "qonnx.h"

/* The largest tensor a run may allocate: a hostile shape becomes an error
 * rather than an out-of-memory abort. */
#define MAX_TENSOR_BYTES ((int64_t)1 << 32)

typedef int EvalFn(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                   GirError *e);

/* ---- helpers -------------------------------------------------------------- */

static const GirTensor *arg(const GirNode *n, const GirTensor *const *ins, int i)
{
    return i < n->nin ? ins[i] : NULL;
}

static int64_t numel(const GirTensor *t) { return gir_type_numel(&t->type); }

/* Row-major strides of a type. */
static void strides_of(const GirType *t, int64_t *st)
{
    int64_t s = 1;
    int i;
    for (i = t->rank - 1; i >= 0; i--) {
        st[i] = s;
        s *= t->dims[i];
    }
}

/* Element access for the dtype-generic kernels (Clip, arithmetic, MaxPool
 * on integers).  Integers travel as int64, floats as double. */
static double ld_f(const GirTensor *t, int64_t i)
{
    switch (t->type.dtype) {
    case GIR_DT_F32: return ((const float *)t->data)[i];
    case GIR_DT_F64: return ((const double *)t->data)[i];
    case GIR_DT_I32: return ((const int32_t *)t->data)[i];
    case GIR_DT_I64: return (double)((const int64_t *)t->data)[i];
    case GIR_DT_I8: return ((const int8_t *)t->data)[i];
    case GIR_DT_U8: return ((const uint8_t *)t->data)[i];
    case GIR_DT_BOOL: return ((const uint8_t *)t->data)[i];
    case GIR_DT_I16: return ((const int16_t *)t->data)[i];
    case GIR_DT_U16: return ((const uint16_t *)t->data)[i];
    case GIR_DT_U32: return ((const uint32_t *)t->data)[i];
    case GIR_DT_U64: return (double)((const uint64_t *)t->data)[i];
    case GIR_DT_F16: return gir_f16_to_f32(((const uint16_t *)t->data)[i]);
    default: gir_unreachable();
    }
}

static int64_t ld_i(const GirTensor *t, int64_t i)
{
    switch (t->type.dtype) {
    case GIR_DT_I32: return ((const int32_t *)t->data)[i];
    case GIR_DT_I64: return ((const int64_t *)t->data)[i];
    case GIR_DT_I8: return ((const int8_t *)t->data)[i];
    case GIR_DT_U8: return ((const uint8_t *)t->data)[i];
    case GIR_DT_BOOL: return ((const uint8_t *)t->data)[i];
    case GIR_DT_I16: return ((const int16_t *)t->data)[i];
    case GIR_DT_U16: return ((const uint16_t *)t->data)[i];
    case GIR_DT_U32: return ((const uint32_t *)t->data)[i];
    case GIR_DT_U64: return (int64_t)((const uint64_t *)t->data)[i];
    default: gir_unreachable();
    }
}

static void st_f(GirTensor *t, int64_t i, double v)
{
    switch (t->type.dtype) {
    case GIR_DT_F32: ((float *)t->data)[i] = (float)v; break;
    case GIR_DT_F64: ((double *)t->data)[i] = v; break;
    case GIR_DT_I32: ((int32_t *)t->data)[i] = (int32_t)v; break;
    case GIR_DT_I64: ((int64_t *)t->data)[i] = (int64_t)v; break;
    case GIR_DT_I8: ((int8_t *)t->data)[i] = (int8_t)v; break;
    case GIR_DT_U8: ((uint8_t *)t->data)[i] = (uint8_t)v; break;
    case GIR_DT_I16: ((int16_t *)t->data)[i] = (int16_t)v; break;
    case GIR_DT_U16: ((uint16_t *)t->data)[i] = (uint16_t)v; break;
    case GIR_DT_U32: ((uint32_t *)t->data)[i] = (uint32_t)v; break;
    case GIR_DT_U64: ((uint64_t *)t->data)[i] = (uint64_t)v; break;
    case GIR_DT_F16: ((uint16_t *)t->data)[i] = gir_f32_to_f16((float)v); break;
    default: gir_unreachable();
    }
}

/* Integer results wrap to the element width, as in ONNX runtimes; the
 * conversions go through unsigned types so no signed overflow happens. */
static void st_i(GirTensor *t, int64_t i, int64_t v)
{
    switch (t->type.dtype) {
    case GIR_DT_I32: ((int32_t *)t->data)[i] = (int32_t)(uint32_t)(uint64_t)v; break;
    case GIR_DT_I64: ((int64_t *)t->data)[i] = v; break;
    case GIR_DT_I8: ((int8_t *)t->data)[i] = (int8_t)(uint8_t)(uint64_t)v; break;
    case GIR_DT_U8: ((uint8_t *)t->data)[i] = (uint8_t)(uint64_t)v; break;
    case GIR_DT_BOOL: ((uint8_t *)t->data)[i] = v != 0; break;
    case GIR_DT_I16: ((int16_t *)t->data)[i] = (int16_t)(uint16_t)(uint64_t)v; break;
    case GIR_DT_U16: ((uint16_t *)t->data)[i] = (uint16_t)(uint64_t)v; break;
    case GIR_DT_U32: ((uint32_t *)t->data)[i] = (uint32_t)(uint64_t)v; break;
    case GIR_DT_U64: ((uint64_t *)t->data)[i] = (uint64_t)v; break;
    default: gir_unreachable();
    }
}

/* A double as int64: truncated, saturated at the ends, NaN as 0 (C leaves
 * out-of-range conversions undefined; ONNX leaves the result open). */
static int64_t d2i(double v)
{
    if (isnan(v))
        return 0;
    if (v >= 9.2e18)
        return INT64_MAX;
    if (v <= -9.2e18)
        return INT64_MIN;
    return (int64_t)v;
}

static int is_int(GirDType d)
{
    return d == GIR_DT_I32 || d == GIR_DT_I64 || d == GIR_DT_I8 || d == GIR_DT_U8 ||
           d == GIR_DT_I16 || d == GIR_DT_U16 || d == GIR_DT_U32 || d == GIR_DT_U64;
}

static void copy_all(const GirTensor *src, GirTensor *dst)
{
    size_t bytes = (size_t)numel(src) * gir_dtype_size(src->type.dtype);
    if (bytes)
        memcpy(dst->data, src->data, bytes);
}

/* ---- kernels ---------------------------------------------------------------- */

/* The activation a pass fused into an fp32 Conv or Gemm (attribute act:
 * "relu", "leakyrelu" with act_alpha, "clip" with act_min/act_max), applied
 * after the bias exactly as the separate node would have. */
static int fused_act(const GirNode *n, GirTensor *y, GirError *e)
{
    const char *act = gir_attr_string(n, "act", NULL);
    float *d = y->data, alpha, lo, hi;
    int64_t i, cnt = gir_type_numel(&y->type);
    if (!act || y->type.dtype != GIR_DT_F32)
        return 0;
    alpha = gir_attr_float(n, "act_alpha", 0.01f);
    lo = gir_attr_float(n, "act_min", -INFINITY);
    hi = gir_attr_float(n, "act_max", INFINITY);
    if (strcmp(act, "relu") == 0) {
        for (i = 0; i < cnt; i++)
            d[i] = d[i] < 0 ? 0.0f : d[i];
    } else if (strcmp(act, "leakyrelu") == 0) {
        for (i = 0; i < cnt; i++)
            d[i] = d[i] < 0 ? alpha * d[i] : d[i];
    } else if (strcmp(act, "clip") == 0) {
        for (i = 0; i < cnt; i++)
            d[i] = d[i] < lo ? lo : d[i] > hi ? hi : d[i];
    } else {
        return gir_node_fail(n, e, "unknown fused activation act=\"%s\" (relu, leakyrelu, clip)", act);
    }
    return 0;
}

/*
 * Direct convolution.  For each output channel and input channel, each
 * kernel tap adds weight * input row to an output row; the innermost loop
 * runs along the last spatial axis between precomputed bounds, so it has no
 * branches and walks memory contiguously (stride 1).
 */
static int eval_CONV(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const GirTensor *x = ins[0], *w = ins[1], *b = arg(n, ins, 2);
    const GirType *xt = &x->type, *wt = &w->type;
    const float *xd = x->data, *wd = w->data;
    float *yd = outs[0]->data;
    int64_t N = xt->dims[0], C = xt->dims[1], M = wt->dims[0], Cg = wt->dims[1];
    int64_t G = gir_attr_int(n, "group", 1), Mg = M / G;
    int64_t in_plane, out_plane, ksz, rows, krows, W, OW, KW, sx, dx, px;
    int64_t nb, oc, ic, kr, orow, kx, ox;
    int64_t ko[GIR_MAX_RANK], oo[GIR_MAX_RANK];
    GirWindow g;
    int L, i;
    (void)e;
    gir_window(n, xt, &outs[0]->type, wt->dims + 2, &g);
    L = g.nsp - 1;
    in_plane = gir_dims_prod(g.in, 0, g.nsp);
    out_plane = gir_dims_prod(g.out, 0, g.nsp);
    ksz = gir_dims_prod(g.k, 0, g.nsp);
    W = g.in[L];
    OW = g.out[L];
    KW = g.k[L];
    sx = g.s[L];
    dx = g.d[L];
    px = g.pb[L];
    rows = out_plane / (OW ? OW : 1);
    krows = ksz / KW;
    for (nb = 0; nb < N; nb++) {
        for (oc = 0; oc < M; oc++) {
            float *yp = yd + (nb * M + oc) * out_plane;
            float bias = b ? ((const float *)b->data)[oc] : 0.0f;
            int64_t grp = oc / Mg;
            for (i = 0; i < out_plane; i++)
                yp[i] = bias;
            for (ic = 0; ic < Cg; ic++) {
                const float *xp = xd + (nb * C + grp * Cg + ic) * in_plane;
                const float *wp = wd + (oc * Cg + ic) * ksz;
                memset(ko, 0, sizeof ko);
                for (kr = 0; kr < krows; kr++) {
                    memset(oo, 0, sizeof oo);
                    for (orow = 0; orow < rows; orow++) {
                        /* Input row for this output row and kernel row, or
                         * none when it falls into the padding. */
                        int64_t ioff = 0;
                        int inside = 1;
                        for (i = 0; i < L; i++) {
                            int64_t c = oo[i] * g.s[i] + ko[i] * g.d[i] - g.pb[i];
                            if (c < 0 || c >= g.in[i]) {
                                inside = 0;
                                break;
                            }
                            ioff = ioff * g.in[i] + c;
                        }
                        if (inside) {
                            const float *xr = xp + ioff * W;
                            float *yr = yp + orow * OW;
                            for (kx = 0; kx < KW; kx++) {
                                /* Output x reads input x*sx + off: keep
                                 * that in [0, W) by the bounds lo, hi. */
                                float wv = wp[kr * KW + kx];
                                int64_t off = kx * dx - px;
                                int64_t lo = off >= 0 ? 0 : (-off + sx - 1) / sx;
                                int64_t hi = W - 1 - off < 0 ? 0 : (W - 1 - off) / sx + 1;
                                if (hi > OW)
                                    hi = OW;
                                if (sx == 1) {
                                    for (ox = lo; ox < hi; ox++)
                                        yr[ox] += wv * xr[ox + off];
                                } else {
                                    for (ox = lo; ox < hi; ox++)
                                        yr[ox] += wv * xr[ox * sx + off];
                                }
                            }
                        }
                        gir_next_index(oo, g.out, L);
                    }
                    gir_next_index(ko, g.k, L);
                }
            }
        }
    }
    return fused_act(n, outs[0], e);
}

static int eval_BATCHNORM(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                          GirError *e)
{
    const GirType *xt = &ins[0]->type;
    const float *x = ins[0]->data, *sc = ins[1]->data, *bi = ins[2]->data;
    const float *mean = ins[3]->data, *var = ins[4]->data;
    float *y = outs[0]->data;
    float eps = gir_attr_float(n, "epsilon", 1e-5f);
    int64_t N = xt->dims[0], C = xt->dims[1], nb, c, i;
    int64_t plane = gir_dims_prod(xt->dims, 2, xt->rank);
    (void)e;
    for (nb = 0; nb < N; nb++) {
        for (c = 0; c < C; c++) {
            float inv = 1.0f / sqrtf(var[c] + eps);
            const float *xp = x + (nb * C + c) * plane;
            float *yp = y + (nb * C + c) * plane;
            for (i = 0; i < plane; i++)
                yp[i] = (xp[i] - mean[c]) * inv * sc[c] + bi[c];
        }
    }
    return 0;
}

static int eval_RELU(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const float *x = ins[0]->data;
    float *y = outs[0]->data;
    int64_t i, cnt = numel(ins[0]);
    (void)n;
    (void)e;
    for (i = 0; i < cnt; i++)
        y[i] = x[i] < 0 ? 0.0f : x[i];
    return 0;
}

static int eval_LEAKYRELU(const GirNode *n, const GirTensor *const *ins,
                          GirTensor *const *outs, GirError *e)
{
    const float *x = ins[0]->data;
    float *y = outs[0]->data, alpha = gir_attr_float(n, "alpha", 0.01f);
    int64_t i, cnt = numel(ins[0]);
    (void)e;
    for (i = 0; i < cnt; i++)
        y[i] = x[i] < 0 ? alpha * x[i] : x[i];
    return 0;
}

static int eval_CLIP(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const GirTensor *x = ins[0], *tlo = arg(n, ins, 1), *thi = arg(n, ins, 2);
    int64_t i, cnt = numel(x);
    (void)e;
    if (is_int(x->type.dtype)) {
        int64_t lo = tlo ? ld_i(tlo, 0) : INT64_MIN, hi = thi ? ld_i(thi, 0) : INT64_MAX;
        for (i = 0; i < cnt; i++) {
            int64_t v = ld_i(x, i);
            v = v < lo ? lo : v;
            st_i(outs[0], i, v > hi ? hi : v);
        }
    } else {
        double lo = tlo ? ld_f(tlo, 0) : -INFINITY, hi = thi ? ld_f(thi, 0) : INFINITY;
        for (i = 0; i < cnt; i++) {
            /* min(max(v, lo), hi) as numpy.clip: hi wins when lo > hi, and
             * NaN passes through. */
            double v = ld_f(x, i);
            v = v < lo ? lo : v;
            st_f(outs[0], i, v > hi ? hi : v);
        }
    }
    return 0;
}

static int eval_SIGMOID(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    const float *x = ins[0]->data;
    float *y = outs[0]->data;
    int64_t i, cnt = numel(ins[0]);
    (void)n;
    (void)e;
    for (i = 0; i < cnt; i++)
        y[i] = 1.0f / (1.0f + expf(-x[i]));
    return 0;
}

static int eval_TANH(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const float *x = ins[0]->data;
    float *y = outs[0]->data;
    int64_t i, cnt = numel(ins[0]);
    (void)n;
    (void)e;
    for (i = 0; i < cnt; i++)
        y[i] = tanhf(x[i]);
    return 0;
}

/* Softmax over one axis (outer x len x inner), or with coerce2d over all
 * axes from axis on (the pre-13 definition). */
static int eval_SOFTMAX(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    const GirType *t = &ins[0]->type;
    const float *x = ins[0]->data;
    float *y = outs[0]->data;
    int coerce = gir_attr_int(n, "coerce2d", 0) != 0;
    int64_t ax = gir_attr_int(n, "axis", coerce ? 1 : -1), outer, len, inner, o, in, i;
    (void)e;
    if (ax < 0)
        ax += t->rank;
    outer = gir_dims_prod(t->dims, 0, (int)ax);
    if (coerce) {
        len = gir_dims_prod(t->dims, (int)ax, t->rank);
        inner = 1;
    } else {
        len = t->dims[ax];
        inner = gir_dims_prod(t->dims, (int)ax + 1, t->rank);
    }
    for (o = 0; o < outer; o++) {
        for (in = 0; in < inner; in++) {
            const float *xp = x + o * len * inner + in;
            float *yp = y + o * len * inner + in;
            float mx = -INFINITY;
            double sum = 0;
            for (i = 0; i < len; i++)
                mx = xp[i * inner] > mx ? xp[i * inner] : mx;
            for (i = 0; i < len; i++) {
                yp[i * inner] = expf(xp[i * inner] - mx);
                sum += yp[i * inner];
            }
            for (i = 0; i < len; i++)
                yp[i * inner] = (float)(yp[i * inner] / sum);
        }
    }
    return 0;
}

/*
 * Max and average pooling over N-d windows.  Max works on a float copy of
 * integer inputs (u8 and i8 are exact in float); the optional Indices output
 * gives the flat position of the maximum in the unpadded input, row-major
 * (storage_order 0) or with the spatial axes column-major (1).
 */
static int pool(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                int is_max)
{
    const GirTensor *x = ins[0];
    const GirType *xt = &x->type, *yt = &outs[0]->type;
    int cnt, i, colmajor = gir_attr_int(n, "storage_order", 0) == 1;
    int incl = gir_attr_int(n, "count_include_pad", 0) != 0;
    const int64_t *k = gir_attr_ints(n, "kernel_shape", &cnt);
    int64_t planes = xt->dims[0] * xt->dims[1], in_plane, out_plane, ksz, p, o, q;
    int64_t oi[GIR_MAX_RANK], ki[GIR_MAX_RANK], cstride[GIR_MAX_RANK];
    int64_t *idx = n->nout > 1 ? outs[1]->data : NULL;
    GirWindow g;
    gir_window(n, xt, yt, k, &g);
    in_plane = gir_dims_prod(g.in, 0, g.nsp);
    out_plane = gir_dims_prod(g.out, 0, g.nsp);
    ksz = gir_dims_prod(g.k, 0, g.nsp);
    for (i = 0, q = 1; i < g.nsp; i++) {
        cstride[i] = q;
        q *= g.in[i];
    }
    for (p = 0; p < planes; p++) {
        memset(oi, 0, sizeof oi);
        for (o = 0; o < out_plane; o++) {
            double best = -INFINITY, sum = 0;
            int64_t valid = 0, inpad = 0, at = -1, kk, j = p * out_plane + o;
            memset(ki, 0, sizeof ki);
            for (kk = 0; kk < ksz; kk++) {
                int64_t off = 0, coff = 0;
                int inside = 1, padded = 1;
                for (i = 0; i < g.nsp; i++) {
                    int64_t c = oi[i] * g.s[i] + ki[i] * g.d[i] - g.pb[i];
                    if (c < 0 || c >= g.in[i])
                        inside = 0;
                    if (c < -g.pb[i] || c >= g.in[i] + g.pe[i])
                        padded = 0;
                    off = off * g.in[i] + c;
                    coff += c * cstride[i];
                }
                inpad += padded;
                if (inside) {
                    double v = ld_f(x, p * in_plane + off);
                    valid++;
                    sum += v;
                    if (v > best || at < 0) {
                        best = v;
                        at = colmajor ? coff : off;
                    }
                }
                gir_next_index(ki, g.k, g.nsp);
            }
            if (is_max) {
                st_f(outs[0], j, valid ? best : -INFINITY);
                if (idx)
                    idx[j] = at < 0 ? -1 : p * in_plane + at;
            } else {
                int64_t div = incl ? inpad : valid;
                st_f(outs[0], j, div ? sum / (double)div : 0.0);
            }
            gir_next_index(oi, g.out, g.nsp);
        }
    }
    return 0;
}

static int eval_MAXPOOL(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    (void)e;
    return pool(n, ins, outs, 1);
}

static int eval_AVGPOOL(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    (void)e;
    return pool(n, ins, outs, 0);
}

static int eval_GLOBALAVGPOOL(const GirNode *n, const GirTensor *const *ins,
                              GirTensor *const *outs, GirError *e)
{
    const GirType *t = &ins[0]->type;
    const float *x = ins[0]->data;
    float *y = outs[0]->data;
    int64_t planes = t->dims[0] * t->dims[1], plane = gir_dims_prod(t->dims, 2, t->rank), p, i;
    (void)n;
    (void)e;
    for (p = 0; p < planes; p++) {
        double sum = 0;
        for (i = 0; i < plane; i++)
            sum += x[p * plane + i];
        y[p] = plane ? (float)(sum / (double)plane) : 0.0f;
    }
    return 0;
}

/* Broadcasting binary arithmetic.  The inner loop runs along the last axis
 * with per-operand strides (0 where an operand is broadcast). */
static int binary(const GirNode *n, const GirTensor *a, const GirTensor *b, GirTensor *y,
                  char op, GirError *e)
{
    const GirType *yt = &y->type;
    int64_t sa[GIR_MAX_RANK], sb[GIR_MAX_RANK], ta[GIR_MAX_RANK], tb[GIR_MAX_RANK];
    int64_t idx[GIR_MAX_RANK] = {0}, len, rows, r, i;
    int rank = yt->rank, d;
    GirDType dt = yt->dtype;
    strides_of(&a->type, ta);
    strides_of(&b->type, tb);
    for (d = 0; d < rank; d++) {
        int da = d - (rank - a->type.rank), db = d - (rank - b->type.rank);
        sa[d] = da >= 0 && a->type.dims[da] != 1 ? ta[da] : 0;
        sb[d] = db >= 0 && b->type.dims[db] != 1 ? tb[db] : 0;
    }
    len = rank ? yt->dims[rank - 1] : 1;
    rows = len ? numel(y) / len : 0;
    for (r = 0; r < rows; r++) {
        int64_t oa = 0, ob = 0, oy = r * len;
        int64_t ia = rank ? sa[rank - 1] : 0, ib = rank ? sb[rank - 1] : 0;
        for (d = 0; d < rank - 1; d++) {
            oa += idx[d] * sa[d];
            ob += idx[d] * sb[d];
        }
        if (dt == GIR_DT_F32) {
            const float *pa = (const float *)a->data + oa, *pb = (const float *)b->data + ob;
            float *py = (float *)y->data + oy;
            for (i = 0; i < len; i++) {
                float u = pa[i * ia], v = pb[i * ib];
                py[i] = op == '+' ? u + v : op == '-' ? u - v : op == '*' ? u * v : u / v;
            }
        } else if (!is_int(dt)) {
            for (i = 0; i < len; i++) {
                double u = ld_f(a, oa + i * ia), v = ld_f(b, ob + i * ib);
                st_f(y, oy + i, op == '+' ? u + v : op == '-' ? u - v : op == '*' ? u * v : u / v);
            }
        } else {
            for (i = 0; i < len; i++) {
                int64_t u = ld_i(a, oa + i * ia), v = ld_i(b, ob + i * ib), z;
                if (op == '+')
                    z = (int64_t)((uint64_t)u + (uint64_t)v);
                else if (op == '-')
                    z = (int64_t)((uint64_t)u - (uint64_t)v);
                else if (op == '*')
                    z = (int64_t)((uint64_t)u * (uint64_t)v);
                else if (v == 0)
                    return gir_node_fail(n, e, "integer division by zero");
                else if (v == -1)
                    z = (int64_t)(0 - (uint64_t)u);
                else
                    z = u / v; /* truncates toward zero, as ONNX runtimes do */
                st_i(y, oy + i, z);
            }
        }
        gir_next_index(idx, yt->dims, rank - 1);
    }
    return 0;
}

static int eval_ADD(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    return binary(n, ins[0], ins[1], outs[0], '+', e);
}

static int eval_SUB(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    return binary(n, ins[0], ins[1], outs[0], '-', e);
}

static int eval_MUL(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    return binary(n, ins[0], ins[1], outs[0], '*', e);
}

static int eval_DIV(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    return binary(n, ins[0], ins[1], outs[0], '/', e);
}

static int eval_CONCAT(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    const GirType *yt = &outs[0]->type;
    size_t es = gir_dtype_size(yt->dtype);
    int64_t ax = gir_attr_int(n, "axis", 0), outer, inner, o;
    char *y = outs[0]->data;
    int i;
    (void)e;
    if (ax < 0)
        ax += yt->rank;
    outer = gir_dims_prod(yt->dims, 0, (int)ax);
    inner = gir_dims_prod(yt->dims, (int)ax + 1, yt->rank);
    for (o = 0; o < outer; o++) {
        for (i = 0; i < n->nin; i++) {
            size_t chunk = (size_t)(ins[i]->type.dims[ax] * inner) * es;
            if (chunk) {
                memcpy(y, (const char *)ins[i]->data + (size_t)o * chunk, chunk);
                y += chunk;
            }
        }
    }
    return 0;
}

static int eval_SPLIT(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e)
{
    const GirType *xt = &ins[0]->type;
    size_t es = gir_dtype_size(xt->dtype);
    int64_t ax = gir_attr_int(n, "axis", 0), outer, inner, o;
    const char *x = ins[0]->data;
    int i;
    (void)e;
    if (ax < 0)
        ax += xt->rank;
    outer = gir_dims_prod(xt->dims, 0, (int)ax);
    inner = gir_dims_prod(xt->dims, (int)ax + 1, xt->rank);
    for (o = 0; o < outer; o++) {
        for (i = 0; i < n->nout; i++) {
            size_t chunk = (size_t)(outs[i]->type.dims[ax] * inner) * es;
            if (chunk) {
                memcpy((char *)outs[i]->data + (size_t)o * chunk, x, chunk);
                x += chunk;
            }
        }
    }
    return 0;
}

/* Generic gather: y[idx] = x[sum(idx[d] * step[d]) + base] over the output's
 * index space; Slice and Transpose are both this. */
static void gather(const GirTensor *x, GirTensor *y, const int64_t *step, int64_t base)
{
    const GirType *yt = &y->type;
    size_t es = gir_dtype_size(yt->dtype);
    int64_t idx[GIR_MAX_RANK] = {0}, cnt = numel(y), i;
    int d;
    for (i = 0; i < cnt; i++) {
        int64_t off = base;
        for (d = 0; d < yt->rank; d++)
            off += idx[d] * step[d];
        memcpy((char *)y->data + (size_t)i * es, (const char *)x->data + (size_t)off * es, es);
        gir_next_index(idx, yt->dims, yt->rank);
    }
}

static int eval_SLICE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e)
{
    const GirType *xt = &ins[0]->type;
    const GirTensor *ta = arg(n, ins, 3), *ts = arg(n, ins, 4);
    int64_t xs[GIR_MAX_RANK], step[GIR_MAX_RANK], base = 0, cnt = numel(ins[1]), i;
    int d;
    (void)e;
    strides_of(xt, xs);
    for (d = 0; d < xt->rank; d++)
        step[d] = xs[d];
    for (i = 0; i < cnt; i++) {
        int64_t ax = ta ? ld_i(ta, i) : i, s = ld_i(ins[1], i), dim;
        int64_t st = ts ? ld_i(ts, i) : 1;
        if (ax < 0)
            ax += xt->rank;
        dim = xt->dims[ax];
        /* Start clamping as in the ONNX definition; the shape rule already
         * derived the output extent from the same numbers. */
        if (s < 0)
            s += dim;
        if (st > 0)
            s = s < 0 ? 0 : (s > dim ? dim : s);
        else
            s = s < 0 ? -1 : (s > dim - 1 ? dim - 1 : s);
        if (st < -INT64_MAX)
            st = -INT64_MAX;
        if (outs[0]->type.dims[ax] == 0)
            continue;
        base += s * xs[ax];
        /* A step longer than the axis is taken once; keep the product in range. */
        step[ax] = outs[0]->type.dims[ax] > 1 ? st * xs[ax] : 0;
    }
    gather(ins[0], outs[0], step, base);
    return 0;
}

/*
 * Resize.  Per axis, each output coordinate maps to an input coordinate (in
 * double, as the ONNX reference computes it) and from there to 1 (nearest),
 * 2 (linear) or 4 (cubic) taps: input indices, clamped to the axis as the
 * reference's edge padding does, and weights (gir_resize_axis, which llvm/
 * reads too).  An output element is the sum over the product of the taps of
 * the axes that actually move.
 */

/* The cubic convolution kernel of the ONNX reference (Keys, parameter A)
 * for a point at fraction t between taps 1 and 2. */
static void cubic_coeffs(double t, double A, double *c)
{
    double u = 1 - t;
    c[0] = ((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A;
    c[1] = ((A + 2) * t - (A + 3)) * t * t + 1;
    c[2] = ((A + 2) * u - (A + 3)) * u * u + 1;
    c[3] = ((A * (u + 1) - 5 * A) * (u + 1) + 8 * A) * (u + 1) - 4 * A;
}

void gir_resize_axis(const GirNode *n, const GirType *xt, const GirType *yt, const GirTensor *roi,
                     const GirTensor *sc, int d, GirArena *arena, GirResizeAxis *m)
{
    const char *mode = gir_attr_string(n, "mode", "nearest");
    const char *ctm = gir_attr_string(n, "coordinate_transformation_mode", "half_pixel");
    const char *nm = gir_attr_string(n, "nearest_mode", "round_prefer_floor");
    double A = gir_attr_float(n, "cubic_coeff_a", -0.75f);
    int excl = gir_attr_int(n, "exclude_outside", 0) != 0;
    int crop = strcmp(ctm, "tf_crop_and_resize") == 0;
    int ntap = strcmp(mode, "cubic") == 0 ? 4 : strcmp(mode, "linear") == 0 ? 2 : 1;
    int r = xt->rank, k;
    int64_t in = xt->dims[d], out = yt->dims[d], o;
    double scale, len, r0, r1;
    if (sc && gir_type_numel(&sc->type) == 0)
        sc = NULL;
    scale = sc ? ((const float *)sc->data)[d] : (double)out / (double)in;
    len = scale * (double)in; /* the reference's output length */
    r0 = crop ? ld_f(roi, d) : 0;
    r1 = crop ? ld_f(roi, r + d) : 1;
    m->ntap = ntap;
    m->moving = 0;
    m->idx = gir_arena_alloc(arena, sizeof(int64_t) * (size_t)(out * ntap));
    m->w = gir_arena_alloc(arena, sizeof(double) * (size_t)(out * ntap));
    m->outside = gir_arena_alloc(arena, (size_t)out + 1);
    for (o = 0; o < out; o++) {
        int64_t *ti = m->idx + o * ntap;
        double *tw = m->w + o * ntap, c, f, frac;
        int64_t lo;
        if (strcmp(ctm, "align_corners") == 0)
            c = len == 1 ? 0 : (double)o * (double)(in - 1) / (len - 1);
        else if (strcmp(ctm, "asymmetric") == 0)
            c = (double)o / scale;
        else if (strcmp(ctm, "pytorch_half_pixel") == 0)
            c = len == 1 ? -0.5 : ((double)o + 0.5) / scale - 0.5;
        else if (strncmp(ctm, "tf_half_pixel_for_nn", 20) == 0)
            c = ((double)o + 0.5) / scale;
        else if (crop)
            c = (len == 1 ? (r1 - r0) * (double)(in - 1) / 2
                          : (double)o * (r1 - r0) * (double)(in - 1) / (len - 1)) +
                r0 * (double)(in - 1);
        else
            c = ((double)o + 0.5) / scale - 0.5;
        m->outside[o] = crop && (c < 0 || c > (double)(in - 1));
        f = floor(c);
        frac = c - f;
        lo = (int64_t)f;
        if (ntap == 1) {
            int64_t pick = lo;
            if (frac != 0) {
                if (strcmp(nm, "ceil") == 0)
                    pick = lo + 1;
                else if (strcmp(nm, "round_prefer_ceil") == 0)
                    pick = frac >= 0.5 ? lo + 1 : lo;
                else if (strcmp(nm, "round_prefer_floor") == 0)
                    pick = frac > 0.5 ? lo + 1 : lo;
            }
            ti[0] = pick;
            tw[0] = 1;
        } else if (ntap == 2) {
            ti[0] = lo;
            ti[1] = lo + 1;
            tw[0] = 1 - frac;
            tw[1] = frac;
        } else {
            double sum = 0;
            cubic_coeffs(frac, A, tw);
            for (k = 0; k < 4; k++) {
                ti[k] = lo - 1 + k;
                if (excl && (ti[k] < 0 || ti[k] >= in))
                    tw[k] = 0;
                sum += tw[k];
            }
            if (excl && sum != 0)
                for (k = 0; k < 4; k++)
                    tw[k] /= sum;
        }
        for (k = 0; k < ntap; k++) {
            ti[k] = ti[k] < 0 ? 0 : (ti[k] >= in ? in - 1 : ti[k]);
            /* An axis is still if every output takes its own index
             * whole; it then costs nothing in the tap product. */
            if (tw[k] != 0 && (tw[k] != 1 || ti[k] != o))
                m->moving = 1;
        }
        m->moving |= m->outside[o];
    }
}

static int eval_RESIZE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    const GirType *xt = &ins[0]->type, *yt = &outs[0]->type;
    double extrap = gir_attr_float(n, "extrapolation_value", 0.0f);
    int r = xt->rank, d, k, act[GIR_MAX_RANK], nact = 0, ntap = 1;
    int64_t xs[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0}, cnt = numel(outs[0]), i, combos;
    GirResizeAxis map[GIR_MAX_RANK];
    const float *x = ins[0]->data;
    float *y = outs[0]->data;
    GirArena *tmp = gir_arena_new();
    (void)e;
    strides_of(xt, xs);
    for (d = 0; d < r; d++) {
        gir_resize_axis(n, xt, yt, arg(n, ins, 1), arg(n, ins, 2), d, tmp, &map[d]);
        ntap = map[d].ntap;
        if (map[d].moving)
            act[nact++] = d;
    }
    for (combos = 1, k = 0; k < nact; k++)
        combos *= ntap;
    for (i = 0; i < cnt; i++) {
        int64_t base = 0, cmb;
        double acc = 0;
        int out_of_roi = 0;
        for (d = 0; d < r; d++) {
            base += idx[d] * xs[d];
            out_of_roi |= map[d].outside[idx[d]];
        }
        for (k = 0; k < nact; k++)
            base -= idx[act[k]] * xs[act[k]];
        for (cmb = 0; cmb < combos && !out_of_roi; cmb++) {
            double wgt = 1;
            int64_t off = base, rest = cmb;
            for (k = 0; k < nact; k++) {
                int ax = act[k];
                int64_t t = idx[ax] * ntap + rest % ntap;
                rest /= ntap;
                wgt *= map[ax].w[t];
                off += map[ax].idx[t] * xs[ax];
            }
            if (wgt != 0)
                acc += wgt * x[off];
        }
        y[i] = (float)(out_of_roi ? extrap : acc);
        gir_next_index(idx, yt->dims, r);
    }
    gir_arena_free(tmp);
    return 0;
}

static int eval_GEMM(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const GirTensor *c = arg(n, ins, 2);
    const float *a = ins[0]->data, *b = ins[1]->data;
    float *y = outs[0]->data;
    float alpha = gir_attr_float(n, "alpha", 1.0f), beta = gir_attr_float(n, "beta", 1.0f);
    int ta = gir_attr_int(n, "transA", 0) != 0, tb = gir_attr_int(n, "transB", 0) != 0;
    int64_t M = outs[0]->type.dims[0], N = outs[0]->type.dims[1];
    int64_t K = ins[0]->type.dims[ta ? 0 : 1], i, j, k;
    int64_t cs0 = 0, cs1 = 0;
    (void)e;
    if (c) {
        /* C broadcasts to (M, N): a stride of 0 on axes of size 1. */
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
            double acc = 0;
            for (k = 0; k < K; k++) {
                float u = ta ? a[k * M + i] : a[i * K + k];
                float v = tb ? b[j * K + k] : b[k * N + j];
                acc += (double)u * v;
            }
            acc *= alpha;
            if (c)
                acc += (double)beta * ((const float *)c->data)[i * cs0 + j * cs1];
            y[i * N + j] = (float)acc;
        }
    }
    return fused_act(n, outs[0], e);
}

static int eval_MATMUL(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    const GirType *at = &ins[0]->type, *bt = &ins[1]->type, *yt = &outs[0]->type;
    const float *a = ins[0]->data, *b = ins[1]->data;
    float *y = outs[0]->data;
    int ra = at->rank, rb = bt->rank, nbat, d;
    int64_t M = ra >= 2 ? at->dims[ra - 2] : 1, K = at->dims[ra - 1];
    int64_t N = rb >= 2 ? bt->dims[rb - 1] : 1;
    int64_t bdims[GIR_MAX_RANK], sa[GIR_MAX_RANK], sb[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0};
    int64_t batches, bi, i, j, k;
    (void)n;
    (void)e;
    /* The batch axes of the result are those before its matrix axes. */
    nbat = yt->rank - (ra >= 2) - (rb >= 2);
    for (d = 0; d < nbat; d++) {
        int da = d - (nbat - (ra - 2)), db = d - (nbat - (rb - 2));
        int64_t s;
        bdims[d] = yt->dims[d];
        /* Batch strides in whole matrices; 0 where an operand broadcasts. */
        sa[d] = 0;
        sb[d] = 0;
        if (ra > 2 && da >= 0 && at->dims[da] != 1) {
            s = M * K * gir_dims_prod(at->dims, da + 1, ra - 2);
            sa[d] = s;
        }
        if (rb > 2 && db >= 0 && bt->dims[db] != 1) {
            s = K * N * gir_dims_prod(bt->dims, db + 1, rb - 2);
            sb[d] = s;
        }
    }
    batches = gir_dims_prod(bdims, 0, nbat);
    for (bi = 0; bi < batches; bi++) {
        int64_t oa = 0, ob = 0;
        for (d = 0; d < nbat; d++) {
            oa += idx[d] * sa[d];
            ob += idx[d] * sb[d];
        }
        for (i = 0; i < M; i++) {
            for (j = 0; j < N; j++) {
                double acc = 0;
                for (k = 0; k < K; k++)
                    acc += (double)a[oa + i * K + k] * b[ob + k * N + j];
                y[bi * M * N + i * N + j] = (float)acc;
            }
        }
        gir_next_index(idx, bdims, nbat);
    }
    return 0;
}

/* Reshape, Flatten, Squeeze, Unsqueeze and Identity keep the row-major
 * element order: a copy. */
static int eval_copy(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    (void)n;
    (void)e;
    copy_all(ins[0], outs[0]);
    return 0;
}

static int eval_RESHAPE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    return eval_copy(n, ins, outs, e);
}

static int eval_FLATTEN(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    return eval_copy(n, ins, outs, e);
}

static int eval_SQUEEZE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    return eval_copy(n, ins, outs, e);
}

static int eval_UNSQUEEZE(const GirNode *n, const GirTensor *const *ins,
                          GirTensor *const *outs, GirError *e)
{
    return eval_copy(n, ins, outs, e);
}

static int eval_IDENTITY(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                         GirError *e)
{
    return eval_copy(n, ins, outs, e);
}

static int eval_TRANSPOSE(const GirNode *n, const GirTensor *const *ins,
                          GirTensor *const *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t xs[GIR_MAX_RANK], step[GIR_MAX_RANK];
    int cnt, d;
    const int64_t *perm = gir_attr_ints(n, "perm", &cnt);
    (void)e;
    strides_of(xt, xs);
    for (d = 0; d < xt->rank; d++)
        step[d] = xs[perm ? perm[d] : xt->rank - 1 - d];
    gather(ins[0], outs[0], step, 0);
    return 0;
}

static int eval_CONSTANT(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                         GirError *e)
{
    const GirAttr *a;
    GirTensor *y = outs[0];
    int i;
    (void)ins;
    (void)e;
    if ((a = gir_attr(n, "value")) && a->kind == GIR_ATTR_TENSOR) {
        copy_all(&a->t, y);
    } else if ((a = gir_attr(n, "value_float")) && a->kind == GIR_ATTR_FLOAT) {
        ((float *)y->data)[0] = a->f;
    } else if ((a = gir_attr(n, "value_int")) && a->kind == GIR_ATTR_INT) {
        ((int64_t *)y->data)[0] = a->i;
    } else if ((a = gir_attr(n, "value_floats")) && a->kind == GIR_ATTR_FLOATS) {
        for (i = 0; i < a->n; i++)
            ((float *)y->data)[i] = a->floats[i];
    } else if ((a = gir_attr(n, "value_ints")) && a->kind == GIR_ATTR_INTS) {
        for (i = 0; i < a->n; i++)
            ((int64_t *)y->data)[i] = a->ints[i];
    }
    return 0;
}

/* Map an output coordinate of Pad back into [0, dim): reflect mirrors
 * without repeating the edge (numpy 'reflect'), edge clamps. */
static int64_t pad_source(int64_t c, int64_t dim, int reflect)
{
    if (c >= 0 && c < dim)
        return c;
    if (!reflect || dim == 1)
        return c < 0 ? 0 : dim - 1;
    {
        int64_t period = 2 * (dim - 1), m = c % period;
        if (m < 0)
            m += period;
        return m < dim ? m : period - m;
    }
}

static int eval_PAD(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    const GirType *xt = &ins[0]->type, *yt = &outs[0]->type;
    const GirTensor *cv = arg(n, ins, 2);
    const char *mode = gir_attr_string(n, "mode", "constant");
    int constant = strcmp(mode, "constant") == 0, reflect = strcmp(mode, "reflect") == 0;
    size_t es = gir_dtype_size(xt->dtype);
    int64_t xs[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0}, cnt = numel(outs[0]), i;
    unsigned char zero[8] = {0};
    const void *fill = cv ? cv->data : zero;
    int d, r = xt->rank;
    (void)e;
    strides_of(xt, xs);
    for (i = 0; i < cnt; i++) {
        int64_t off = 0;
        int inside = 1;
        for (d = 0; d < r; d++) {
            int64_t c = idx[d] - ld_i(ins[1], d);
            if (c < 0 || c >= xt->dims[d]) {
                if (constant) {
                    inside = 0;
                    break;
                }
                c = pad_source(c, xt->dims[d], reflect);
            }
            off += c * xs[d];
        }
        memcpy((char *)outs[0]->data + (size_t)i * es,
               inside ? (const char *)ins[0]->data + (size_t)off * es : fill, es);
        gir_next_index(idx, yt->dims, r);
    }
    return 0;
}

/* Darknet [yolo]: per anchor, channels 0,1 (x, y), 4 (objectness) and 5..
 * (classes) go through the logistic; 2,3 (w, h) stay raw for the decoder. */
static int eval_YOLO(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const GirType *t = &ins[0]->type;
    const float *x = ins[0]->data;
    float *y = outs[0]->data;
    int64_t classes = gir_attr_int(n, "classes", 0), per = 5 + classes;
    int64_t C = t->dims[1], plane = t->dims[2] * t->dims[3], nb, c, i;
    (void)e;
    for (nb = 0; nb < t->dims[0]; nb++) {
        for (c = 0; c < C; c++) {
            int64_t k = c % per, base = (nb * C + c) * plane;
            int logistic = k != 2 && k != 3;
            for (i = 0; i < plane; i++)
                y[base + i] = logistic ? 1.0f / (1.0f + expf(-x[base + i])) : x[base + i];
        }
    }
    return 0;
}

/* ---- elementwise math and activations ------------------------------------------ */

/* Round half to even, as ONNX Round. */
static double round_even(double x)
{
    double r = floor(x), d = x - r;
    if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0))
        r += 1.0;
    return r;
}

/* One element of a float unary op of node n. */
static double unary_f(const GirNode *n, double x)
{
    double a, g;
    switch (n->op) {
    case GIR_OP_ABS: return fabs(x);
    case GIR_OP_NEG: return -x;
    case GIR_OP_EXP: return exp(x);
    case GIR_OP_LOG: return log(x);
    case GIR_OP_SQRT: return sqrt(x);
    case GIR_OP_RECIPROCAL: return 1.0 / x;
    case GIR_OP_FLOOR: return floor(x);
    case GIR_OP_CEIL: return ceil(x);
    case GIR_OP_ROUND: return round_even(x);
    case GIR_OP_SIGN: return x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x;
    case GIR_OP_ERF: return erf(x);
    case GIR_OP_SIN: return sin(x);
    case GIR_OP_COS: return cos(x);
    case GIR_OP_TAN: return tan(x);
    case GIR_OP_ASIN: return asin(x);
    case GIR_OP_ACOS: return acos(x);
    case GIR_OP_ATAN: return atan(x);
    case GIR_OP_SINH: return sinh(x);
    case GIR_OP_COSH: return cosh(x);
    case GIR_OP_ASINH: return asinh(x);
    case GIR_OP_ACOSH: return acosh(x);
    case GIR_OP_ATANH: return atanh(x);
    case GIR_OP_SOFTPLUS: return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
    case GIR_OP_SOFTSIGN: return x / (1.0 + fabs(x));
    case GIR_OP_ELU:
        a = gir_attr_float(n, "alpha", 1.0f);
        return x < 0 ? a * (exp(x) - 1.0) : x;
    case GIR_OP_SELU:
        a = gir_attr_float(n, "alpha", 1.67326319217681884765625f);
        g = gir_attr_float(n, "gamma", 1.05070102214813232421875f);
        return g * (x <= 0 ? a * (exp(x) - 1.0) : x);
    case GIR_OP_CELU:
        a = gir_attr_float(n, "alpha", 1.0f);
        return (x > 0 ? x : 0) + fmin(0.0, a * (exp(x / a) - 1.0));
    case GIR_OP_HARDSIGMOID:
        a = gir_attr_float(n, "alpha", 0.2f) * x + gir_attr_float(n, "beta", 0.5f);
        return a < 0 ? 0 : a > 1 ? 1 : a;
    case GIR_OP_HARDSWISH:
        a = x / 6.0 + 0.5;
        return x * (a < 0 ? 0 : a > 1 ? 1 : a);
    case GIR_OP_THRESHOLDEDRELU: return x > gir_attr_float(n, "alpha", 1.0f) ? x : 0.0;
    case GIR_OP_SHRINK:
        a = gir_attr_float(n, "lambd", 0.5f);
        g = gir_attr_float(n, "bias", 0.0f);
        return x < -a ? x + g : x > a ? x - g : 0.0;
    default: gir_unreachable();
    }
}

/* Elementwise unary ops: floats in double, integers (Abs, Neg, Sign,
 * Shrink) in int64. */
static int unary(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                 GirError *e)
{
    const GirTensor *x = ins[0];
    int64_t i, cnt = numel(x);
    (void)e;
    if (x->type.dtype == GIR_DT_F32) {
        const float *xd = x->data;
        float *yd = outs[0]->data;
        for (i = 0; i < cnt; i++)
            yd[i] = (float)unary_f(n, xd[i]);
        return 0;
    }
    if (!is_int(x->type.dtype)) {
        for (i = 0; i < cnt; i++)
            st_f(outs[0], i, unary_f(n, ld_f(x, i)));
        return 0;
    }
    for (i = 0; i < cnt; i++) {
        int64_t v = ld_i(x, i);
        uint64_t u = (uint64_t)v;
        if (n->op == GIR_OP_ABS)
            v = v < 0 ? (int64_t)(0 - u) : v;
        else if (n->op == GIR_OP_NEG)
            v = (int64_t)(0 - u);
        else if (n->op == GIR_OP_SIGN)
            v = v > 0 ? 1 : v < 0 ? -1 : 0;
        else
            v = d2i(unary_f(n, (double)v));
        st_i(outs[0], i, v);
    }
    return 0;
}

#define UNARY_KERNEL(E)                                                                      \
    static int eval_##E(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs, \
                        GirError *e)                                                        \
    {                                                                                       \
        return unary(n, ins, outs, e);                                                      \
    }
UNARY_KERNEL(ABS) UNARY_KERNEL(NEG) UNARY_KERNEL(EXP) UNARY_KERNEL(LOG) UNARY_KERNEL(SQRT)
UNARY_KERNEL(RECIPROCAL) UNARY_KERNEL(FLOOR) UNARY_KERNEL(CEIL) UNARY_KERNEL(ROUND)
UNARY_KERNEL(SIGN) UNARY_KERNEL(ERF) UNARY_KERNEL(SIN) UNARY_KERNEL(COS) UNARY_KERNEL(TAN)
UNARY_KERNEL(ASIN) UNARY_KERNEL(ACOS) UNARY_KERNEL(ATAN) UNARY_KERNEL(SINH) UNARY_KERNEL(COSH)
UNARY_KERNEL(ASINH) UNARY_KERNEL(ACOSH) UNARY_KERNEL(ATANH) UNARY_KERNEL(SOFTPLUS)
UNARY_KERNEL(SOFTSIGN) UNARY_KERNEL(ELU) UNARY_KERNEL(SELU) UNARY_KERNEL(CELU)
UNARY_KERNEL(HARDSIGMOID) UNARY_KERNEL(HARDSWISH) UNARY_KERNEL(THRESHOLDEDRELU)
UNARY_KERNEL(SHRINK)
#undef UNARY_KERNEL

static int eval_NOT(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    const uint8_t *x = ins[0]->data;
    uint8_t *y = outs[0]->data;
    int64_t i, cnt = numel(ins[0]);
    (void)n;
    (void)e;
    for (i = 0; i < cnt; i++)
        y[i] = !x[i];
    return 0;
}

static int eval_ISNAN(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e)
{
    uint8_t *y = outs[0]->data;
    int64_t i, cnt = numel(ins[0]);
    (void)n;
    (void)e;
    for (i = 0; i < cnt; i++)
        y[i] = isnan(ld_f(ins[0], i)) != 0;
    return 0;
}

static int eval_ISINF(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e)
{
    uint8_t *y = outs[0]->data;
    int64_t i, cnt = numel(ins[0]);
    int neg = gir_attr_int(n, "detect_negative", 1) != 0;
    int pos = gir_attr_int(n, "detect_positive", 1) != 0;
    (void)e;
    for (i = 0; i < cnt; i++) {
        double v = ld_f(ins[0], i);
        y[i] = isinf(v) && ((v > 0 && pos) || (v < 0 && neg));
    }
    return 0;
}

/* ---- broadcasting ops of several inputs ------------------------------------------ */

/* Strides of t read as type y by numpy broadcasting: 0 where t has size 1
 * or lacks the axis. */
static void bcast_strides(const GirType *t, const GirType *y, int64_t *st)
{
    int64_t ts[GIR_MAX_RANK];
    int d;
    strides_of(t, ts);
    for (d = 0; d < y->rank; d++) {
        int k = d - (y->rank - t->rank);
        st[d] = k >= 0 && t->dims[k] != 1 ? ts[k] : 0;
    }
}

/* Offsets into up to 64 broadcast inputs, advanced along y's index space. */
typedef struct {
    int nin;                            /* inputs */
    int rank;                           /* of y */
    int64_t idx[GIR_MAX_RANK];          /* current index of y */
    int64_t st[64][GIR_MAX_RANK];       /* per input, per axis of y */
    int64_t off[64];                    /* current offset per input */
    const int64_t *dims;                /* y's dims */
} Bcast;

static void bcast_init(Bcast *b, const GirTensor *const *ins, int nin, const GirType *y)
{
    int i;
    memset(b, 0, sizeof *b);
    b->nin = nin;
    b->rank = y->rank;
    b->dims = y->dims;
    for (i = 0; i < nin; i++)
        bcast_strides(&ins[i]->type, y, b->st[i]);
}

static void bcast_next(Bcast *b)
{
    int d, i;
    for (d = b->rank - 1; d >= 0; d--) {
        for (i = 0; i < b->nin; i++)
            b->off[i] += b->st[i][d];
        if (++b->idx[d] < b->dims[d])
            return;
        for (i = 0; i < b->nin; i++)
            b->off[i] -= b->st[i][d] * b->idx[d];
        b->idx[d] = 0;
    }
}

/* a ^ b, a mod b, comparisons, logic, shifts and PRelu. */
static int binop(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                 GirError *e)
{
    const GirTensor *a = ins[0], *b = ins[1];
    GirTensor *y = outs[0];
    int64_t i, cnt = numel(y);
    int flt = !is_int(a->type.dtype) && a->type.dtype != GIR_DT_BOOL;
    int fmod_ = gir_attr_int(n, "fmod", 0) != 0;
    int left = strcmp(gir_attr_string(n, "direction", ""), "LEFT") == 0;
    Bcast bc;
    bcast_init(&bc, ins, 2, &y->type);
    for (i = 0; i < cnt; i++, bcast_next(&bc)) {
        int64_t oa = bc.off[0], ob = bc.off[1];
        int c = -1;
        if (a->type.dtype == GIR_DT_BOOL) {
            int u = ld_i(a, oa) != 0, v = ld_i(b, ob) != 0;
            c = n->op == GIR_OP_AND ? u && v : n->op == GIR_OP_OR ? u || v : n->op == GIR_OP_XOR ? u != v : u == v;
        } else if (n->op == GIR_OP_POW) {
            double u = ld_f(a, oa), v = ld_f(b, ob);
            if (flt)
                st_f(y, i, pow(u, v));
            else
                st_i(y, i, d2i(pow(u, v)));
            continue;
        } else if (flt) {
            double u = ld_f(a, oa), v = ld_f(b, ob);
            switch (n->op) {
            case GIR_OP_EQUAL: c = u == v; break;
            case GIR_OP_GREATER: c = u > v; break;
            case GIR_OP_LESS: c = u < v; break;
            case GIR_OP_GREATEROREQUAL: c = u >= v; break;
            case GIR_OP_LESSOREQUAL: c = u <= v; break;
            case GIR_OP_MOD: st_f(y, i, fmod(u, v)); break;
            case GIR_OP_PRELU: st_f(y, i, u < 0 ? v * u : u); break;
            default: gir_unreachable();
            }
        } else {
            int64_t u = ld_i(a, oa), v = ld_i(b, ob);
            switch (n->op) {
            case GIR_OP_EQUAL: c = u == v; break;
            case GIR_OP_GREATER: c = u > v; break;
            case GIR_OP_LESS: c = u < v; break;
            case GIR_OP_GREATEROREQUAL: c = u >= v; break;
            case GIR_OP_LESSOREQUAL: c = u <= v; break;
            case GIR_OP_PRELU: st_i(y, i, u < 0 ? (int64_t)((uint64_t)u * (uint64_t)v) : u); break;
            case GIR_OP_BITSHIFT:
                st_i(y, i, (uint64_t)v >= 64 ? 0 : (int64_t)(left ? (uint64_t)u << v : (uint64_t)u >> v));
                break;
            case GIR_OP_MOD: {
                int64_t r;
                if (v == 0)
                    return gir_node_fail(n, e, "integer modulo by zero");
                r = v == -1 ? 0 : u % v;
                if (!fmod_ && r != 0 && ((r < 0) != (v < 0)))
                    r += v;
                st_i(y, i, r);
                break;
            }
            default: gir_unreachable();
            }
        }
        if (c >= 0)
            ((uint8_t *)y->data)[i] = (uint8_t)c;
    }
    return 0;
}

#define BINOP_KERNEL(E)                                                                      \
    static int eval_##E(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs, \
                        GirError *e)                                                        \
    {                                                                                       \
        return binop(n, ins, outs, e);                                                      \
    }
BINOP_KERNEL(POW) BINOP_KERNEL(MOD) BINOP_KERNEL(EQUAL) BINOP_KERNEL(GREATER) BINOP_KERNEL(LESS)
BINOP_KERNEL(GREATEROREQUAL) BINOP_KERNEL(LESSOREQUAL) BINOP_KERNEL(AND) BINOP_KERNEL(OR)
BINOP_KERNEL(XOR) BINOP_KERNEL(BITSHIFT) BINOP_KERNEL(PRELU)
#undef BINOP_KERNEL

/* Max, Min, Sum, Mean of any number of broadcast inputs. */
static int variadic(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    GirTensor *y = outs[0];
    int64_t i, cnt = numel(y);
    int k, flt = !is_int(y->type.dtype);
    Bcast bc;
    (void)e;
    bcast_init(&bc, ins, n->nin, &y->type);
    for (i = 0; i < cnt; i++, bcast_next(&bc)) {
        if (flt) {
            double acc = ld_f(ins[0], bc.off[0]);
            for (k = 1; k < n->nin; k++) {
                double v = ld_f(ins[k], bc.off[k]);
                if (n->op == GIR_OP_MAX)
                    acc = isnan(v) || v > acc ? v : acc;
                else if (n->op == GIR_OP_MIN)
                    acc = isnan(v) || v < acc ? v : acc;
                else
                    acc += v;
            }
            st_f(y, i, n->op == GIR_OP_MEAN ? acc / n->nin : acc);
        } else {
            int64_t acc = ld_i(ins[0], bc.off[0]);
            for (k = 1; k < n->nin; k++) {
                int64_t v = ld_i(ins[k], bc.off[k]);
                if (n->op == GIR_OP_MAX)
                    acc = v > acc ? v : acc;
                else if (n->op == GIR_OP_MIN)
                    acc = v < acc ? v : acc;
                else
                    acc = (int64_t)((uint64_t)acc + (uint64_t)v);
            }
            st_i(y, i, acc);
        }
    }
    return 0;
}

static int eval_MAX(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    return variadic(n, ins, outs, e);
}

static int eval_MIN(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    return variadic(n, ins, outs, e);
}

static int eval_SUM(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    return variadic(n, ins, outs, e);
}

static int eval_MEAN(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    return variadic(n, ins, outs, e);
}

static int eval_WHERE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e)
{
    GirTensor *y = outs[0];
    size_t es = gir_dtype_size(y->type.dtype);
    int64_t i, cnt = numel(y);
    Bcast bc;
    (void)n;
    (void)e;
    bcast_init(&bc, ins, 3, &y->type);
    for (i = 0; i < cnt; i++, bcast_next(&bc)) {
        int k = ((const uint8_t *)ins[0]->data)[bc.off[0]] ? 1 : 2;
        memcpy((char *)y->data + (size_t)i * es, (const char *)ins[k]->data + (size_t)bc.off[k] * es, es);
    }
    return 0;
}

static int eval_EXPAND(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    GirTensor *y = outs[0];
    size_t es = gir_dtype_size(y->type.dtype);
    int64_t i, cnt = numel(y);
    Bcast bc;
    (void)n;
    (void)e;
    bcast_init(&bc, ins, 1, &y->type);
    for (i = 0; i < cnt; i++, bcast_next(&bc))
        memcpy((char *)y->data + (size_t)i * es, (const char *)ins[0]->data + (size_t)bc.off[0] * es, es);
    return 0;
}

/* ---- reductions -------------------------------------------------------------------- */

/* Reduce* over the axes the shape rule chose: each output element gathers
 * the input elements that map to it (reduced axes dropped from the index). */
static int reduce(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                  GirError *e)
{
    const GirTensor *x = ins[0];
    GirTensor *y = outs[0];
    const GirType *xt = &x->type;
    int mask[GIR_MAX_RANK], d, flt = !is_int(xt->dtype);
    int64_t ost[GIR_MAX_RANK], s, idx[GIR_MAX_RANK] = {0}, i, cnt = numel(x), ny = numel(y);
    int64_t *cntr;
    double *acc;
    GirArena *a;
    const GirTensor *axes = arg(n, ins, 1);
    int64_t av[GIR_MAX_RANK];
    int na = 0;
    memset(mask, 0, sizeof mask);
    if (axes) {
        na = (int)numel(axes);
        for (i = 0; i < na; i++)
            av[i] = axes->type.dtype == GIR_DT_I32 ? ((const int32_t *)axes->data)[i]
                                                  : ((const int64_t *)axes->data)[i];
    }
    if (na == 0) {
        if (gir_attr_int(n, "noop_with_empty_axes", 0)) {
            copy_all(x, y);
            return 0;
        }
        for (d = 0; d < xt->rank; d++)
            mask[d] = 1;
    }
    for (i = 0; i < na; i++)
        mask[av[i] < 0 ? av[i] + xt->rank : av[i]] = 1;
    /* Output strides over the input's axes: 0 on reduced ones. */
    for (d = xt->rank - 1, s = 1; d >= 0; d--) {
        ost[d] = mask[d] ? 0 : s;
        s *= mask[d] ? 1 : xt->dims[d];
    }
    a = gir_arena_new();
    acc = gir_arena_alloc(a, sizeof *acc * (size_t)(ny + 1));
    cntr = gir_arena_alloc(a, sizeof *cntr * (size_t)(ny + 1));
    for (i = 0; i < ny; i++) {
        switch (n->op) {
        case GIR_OP_REDUCEMAX: acc[i] = -INFINITY; break;
        case GIR_OP_REDUCEMIN: acc[i] = INFINITY; break;
        case GIR_OP_REDUCEPROD: acc[i] = 1; break;
        default: acc[i] = 0; break;
        }
    }
    for (i = 0; i < cnt; i++) {
        int64_t o = 0;
        double v = ld_f(x, i);
        for (d = 0; d < xt->rank; d++)
            o += idx[d] * ost[d];
        switch (n->op) {
        case GIR_OP_REDUCEMAX: acc[o] = v > acc[o] || isnan(v) ? v : acc[o]; break;
        case GIR_OP_REDUCEMIN: acc[o] = v < acc[o] || isnan(v) ? v : acc[o]; break;
        case GIR_OP_REDUCEPROD: acc[o] *= v; break;
        case GIR_OP_REDUCEL1: acc[o] += fabs(v); break;
        case GIR_OP_REDUCEL2:
        case GIR_OP_REDUCESUMSQUARE: acc[o] += v * v; break;
        case GIR_OP_REDUCELOGSUMEXP: acc[o] += exp(v); break;
        default: acc[o] += v; break;
        }
        cntr[o]++;
        gir_next_index(idx, xt->dims, xt->rank);
    }
    for (i = 0; i < ny; i++) {
        double v = acc[i];
        switch (n->op) {
        case GIR_OP_REDUCEMEAN: v = cntr[i] ? v / (double)cntr[i] : NAN; break;
        case GIR_OP_REDUCEL2: v = sqrt(v); break;
        case GIR_OP_REDUCELOGSUM:
        case GIR_OP_REDUCELOGSUMEXP: v = log(v); break;
        default: break;
        }
        if (flt)
            st_f(y, i, v);
        else
            st_i(y, i, d2i(v));
    }
    gir_arena_free(a);
    (void)e;
    return 0;
}

#define REDUCE_KERNEL(E)                                                                     \
    static int eval_##E(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs, \
                        GirError *e)                                                        \
    {                                                                                       \
        return reduce(n, ins, outs, e);                                                     \
    }
REDUCE_KERNEL(REDUCEMEAN) REDUCE_KERNEL(REDUCEMAX) REDUCE_KERNEL(REDUCEMIN)
REDUCE_KERNEL(REDUCESUM) REDUCE_KERNEL(REDUCEPROD) REDUCE_KERNEL(REDUCEL1)
REDUCE_KERNEL(REDUCEL2) REDUCE_KERNEL(REDUCELOGSUM) REDUCE_KERNEL(REDUCELOGSUMEXP)
REDUCE_KERNEL(REDUCESUMSQUARE)
#undef REDUCE_KERNEL

/* outer x len x inner around axis ax of t. */
static void around_axis(const GirType *t, int64_t ax, int64_t *outer, int64_t *len, int64_t *inner)
{
    *outer = gir_dims_prod(t->dims, 0, (int)ax);
    *len = t->dims[ax];
    *inner = gir_dims_prod(t->dims, (int)ax + 1, t->rank);
}

static int argext(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs, int ismax)
{
    const GirTensor *x = ins[0];
    int64_t ax = gir_attr_int(n, "axis", 0), outer, len, inner, o, in, i;
    int last = gir_attr_int(n, "select_last_index", 0) != 0;
    int64_t *y = outs[0]->data;
    if (ax < 0)
        ax += x->type.rank;
    around_axis(&x->type, ax, &outer, &len, &inner);
    for (o = 0; o < outer; o++) {
        for (in = 0; in < inner; in++) {
            int64_t best = 0;
            double bv = ld_f(x, o * len * inner + in);
            for (i = 1; i < len; i++) {
                double v = ld_f(x, (o * len + i) * inner + in);
                if ((ismax ? v > bv : v < bv) || (last && v == bv)) {
                    bv = v;
                    best = i;
                }
            }
            y[o * inner + in] = best;
        }
    }
    return 0;
}

static int eval_ARGMAX(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    (void)e;
    return argext(n, ins, outs, 1);
}

static int eval_ARGMIN(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    (void)e;
    return argext(n, ins, outs, 0);
}

/* LogSoftmax and Hardmax over axis (coerce2d: the pre-13 2-D form). */
static int softmax_like(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs)
{
    const GirType *t = &ins[0]->type;
    int coerce = gir_attr_int(n, "coerce2d", 0) != 0;
    int64_t ax = gir_attr_int(n, "axis", coerce ? 1 : -1), outer, len, inner, o, in, i;
    if (ax < 0)
        ax += t->rank;
    around_axis(t, ax, &outer, &len, &inner);
    if (coerce) {
        len = gir_dims_prod(t->dims, (int)ax, t->rank);
        inner = 1;
    }
    for (o = 0; o < outer; o++) {
        for (in = 0; in < inner; in++) {
            int64_t base = o * len * inner + in, at = 0;
            double mx = -INFINITY, sum = 0;
            for (i = 0; i < len; i++) {
                double v = ld_f(ins[0], base + i * inner);
                if (v > mx || i == 0) {
                    mx = v;
                    at = i;
                }
            }
            for (i = 0; i < len; i++)
                sum += exp(ld_f(ins[0], base + i * inner) - mx);
            for (i = 0; i < len; i++) {
                double v = ld_f(ins[0], base + i * inner);
                st_f(outs[0], base + i * inner,
                     n->op == GIR_OP_HARDMAX ? (i == at ? 1.0 : 0.0) : v - mx - log(sum));
            }
        }
    }
    return 0;
}

static int eval_LOGSOFTMAX(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                           GirError *e)
{
    (void)e;
    return softmax_like(n, ins, outs);
}

static int eval_HARDMAX(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    (void)e;
    return softmax_like(n, ins, outs);
}

static int eval_CUMSUM(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    const GirTensor *x = ins[0];
    int64_t ax = ins[1]->type.dtype == GIR_DT_I32 ? ((const int32_t *)ins[1]->data)[0]
                                                  : ((const int64_t *)ins[1]->data)[0];
    int excl = gir_attr_int(n, "exclusive", 0) != 0, rev = gir_attr_int(n, "reverse", 0) != 0;
    int flt = !is_int(x->type.dtype);
    int64_t outer, len, inner, o, in, i;
    (void)e;
    if (ax < 0)
        ax += x->type.rank;
    around_axis(&x->type, ax, &outer, &len, &inner);
    for (o = 0; o < outer; o++) {
        for (in = 0; in < inner; in++) {
            double fs = 0;
            int64_t is = 0;
            for (i = 0; i < len; i++) {
                int64_t k = rev ? len - 1 - i : i, at = (o * len + k) * inner + in;
                if (flt) {
                    double v = ld_f(x, at);
                    if (!excl)
                        fs += v;
                    st_f(outs[0], at, fs);
                    if (excl)
                        fs += v;
                } else {
                    int64_t v = ld_i(x, at);
                    if (!excl)
                        is = (int64_t)((uint64_t)is + (uint64_t)v);
                    st_i(outs[0], at, is);
                    if (excl)
                        is = (int64_t)((uint64_t)is + (uint64_t)v);
                }
            }
        }
    }
    return 0;
}

/* ---- types and shapes as data --------------------------------------------------------- */

static int cast(const GirTensor *x, GirTensor *y)
{
    int64_t i, cnt = numel(x);
    GirDType to = y->type.dtype;
    for (i = 0; i < cnt; i++) {
        if (to == GIR_DT_BOOL) {
            ((uint8_t *)y->data)[i] = is_int(x->type.dtype) || x->type.dtype == GIR_DT_BOOL
                                          ? ld_i(x, i) != 0
                                          : ld_f(x, i) != 0;
        } else if (is_int(to)) {
            if (is_int(x->type.dtype) || x->type.dtype == GIR_DT_BOOL) {
                st_i(y, i, ld_i(x, i));
            } else {
                /* Out of range and NaN have no defined result in ONNX;
                 * saturate so C has none either. */
                st_i(y, i, d2i(ld_f(x, i)));
            }
        } else {
            st_f(y, i, is_int(x->type.dtype) || x->type.dtype == GIR_DT_BOOL ? (double)ld_i(x, i)
                                                                           : ld_f(x, i));
        }
    }
    return 0;
}

static int eval_CAST(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    (void)n;
    (void)e;
    return cast(ins[0], outs[0]);
}

static int eval_CASTLIKE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                         GirError *e)
{
    (void)n;
    (void)e;
    return cast(ins[0], outs[0]);
}

static int eval_SHAPE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e)
{
    int64_t *y = outs[0]->data, i, cnt = numel(outs[0]);
    int r = ins[0]->type.rank;
    int64_t lo = gir_attr_int(n, "start", 0);
    (void)e;
    if (lo < 0)
        lo += r;
    if (lo < 0)
        lo = 0;
    for (i = 0; i < cnt; i++)
        y[i] = ins[0]->type.dims[lo + i];
    return 0;
}

static int eval_SIZE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    (void)n;
    (void)e;
    *(int64_t *)outs[0]->data = numel(ins[0]);
    return 0;
}

static int eval_CONSTANTOFSHAPE(const GirNode *n, const GirTensor *const *ins,
                                GirTensor *const *outs, GirError *e)
{
    const GirAttr *v = gir_attr(n, "value");
    size_t es = gir_dtype_size(outs[0]->type.dtype);
    int64_t i, cnt = numel(outs[0]);
    (void)ins;
    (void)e;
    if (!v)
        return 0; /* zeros: the arena clears */
    for (i = 0; i < cnt; i++)
        memcpy((char *)outs[0]->data + (size_t)i * es, v->t.data, es);
    return 0;
}

static int eval_RANGE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e)
{
    int64_t i, cnt = numel(outs[0]);
    (void)n;
    (void)e;
    for (i = 0; i < cnt; i++) {
        if (is_int(outs[0]->type.dtype))
            st_i(outs[0], i, (int64_t)((uint64_t)ld_i(ins[0], 0) + (uint64_t)i * (uint64_t)ld_i(ins[2], 0)));
        else
            st_f(outs[0], i, ld_f(ins[0], 0) + (double)i * ld_f(ins[2], 0));
    }
    return 0;
}

static int eval_TILE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const GirType *xt = &ins[0]->type;
    GirTensor *y = outs[0];
    size_t es = gir_dtype_size(y->type.dtype);
    int64_t idx[GIR_MAX_RANK] = {0}, xs[GIR_MAX_RANK], i, cnt = numel(y);
    int d;
    (void)n;
    (void)e;
    strides_of(xt, xs);
    for (i = 0; i < cnt; i++) {
        int64_t off = 0;
        for (d = 0; d < xt->rank; d++)
            off += (idx[d] % xt->dims[d]) * xs[d];
        memcpy((char *)y->data + (size_t)i * es, (const char *)ins[0]->data + (size_t)off * es, es);
        gir_next_index(idx, y->type.dims, y->type.rank);
    }
    return 0;
}

/* An index entry of t, negative ones counted from the end of an axis of
 * size dim; -1 + error when out of range. */
static int index_at(const GirNode *n, const GirTensor *t, int64_t i, int64_t dim, int64_t *out,
                    GirError *e)
{
    int64_t v = ld_i(t, i);
    if (v < -dim || v >= dim)
        return gir_node_fail(n, e, "index %lld out of range for an axis of %lld", (long long)v,
                             (long long)dim);
    *out = v < 0 ? v + dim : v;
    return 0;
}

static int eval_GATHER(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    const GirTensor *x = ins[0], *ix = ins[1];
    size_t es = gir_dtype_size(x->type.dtype);
    int64_t ax = gir_attr_int(n, "axis", 0), outer, len, inner, o, j, ni = numel(ix), k = 0;
    char *y = outs[0]->data;
    if (ax < 0)
        ax += x->type.rank;
    around_axis(&x->type, ax, &outer, &len, &inner);
    for (o = 0; o < outer; o++) {
        for (j = 0; j < ni; j++) {
            if (index_at(n, ix, j, len, &k, e))
                return -1;
            memcpy(y, (const char *)x->data + (size_t)((o * len + k) * inner) * es,
                   (size_t)inner * es);
            y += (size_t)inner * es;
        }
    }
    return 0;
}

static int eval_GATHERELEMENTS(const GirNode *n, const GirTensor *const *ins,
                               GirTensor *const *outs, GirError *e)
{
    const GirTensor *x = ins[0], *ix = ins[1];
    const GirType *xt = &x->type;
    size_t es = gir_dtype_size(xt->dtype);
    int64_t ax = gir_attr_int(n, "axis", 0), xs[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0};
    int64_t i, cnt = numel(ix), k = 0;
    int d;
    if (ax < 0)
        ax += xt->rank;
    strides_of(xt, xs);
    for (i = 0; i < cnt; i++) {
        int64_t off = 0;
        if (index_at(n, ix, i, xt->dims[ax], &k, e))
            return -1;
        for (d = 0; d < xt->rank; d++) {
            int64_t c = d == ax ? k : idx[d];
            if (c >= xt->dims[d])
                return gir_node_fail(n, e, "indices larger than data on axis %d", d);
            off += c * xs[d];
        }
        memcpy((char *)outs[0]->data + (size_t)i * es, (const char *)x->data + (size_t)off * es, es);
        gir_next_index(idx, ix->type.dims, ix->type.rank);
    }
    return 0;
}

static int eval_TRILU(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e)
{
    const GirType *t = &ins[0]->type;
    const GirTensor *kt = arg(n, ins, 1);
    int64_t k = kt && numel(kt) ? ((const int64_t *)kt->data)[0] : 0;
    int upper = gir_attr_int(n, "upper", 1) != 0;
    int64_t R = t->dims[t->rank - 2], C = t->dims[t->rank - 1], i, cnt = numel(ins[0]);
    size_t es = gir_dtype_size(t->dtype);
    (void)e;
    for (i = 0; i < cnt; i++) {
        int64_t c = i % C, r = (i / C) % R;
        int keep = upper ? c - r >= k : c - r <= k;
        if (keep)
            memcpy((char *)outs[0]->data + (size_t)i * es, (const char *)ins[0]->data + (size_t)i * es, es);
    }
    return 0;
}

/* ---- normalization and layout layers ------------------------------------------------------ */

static int eval_LAYERNORM(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                          GirError *e)
{
    const GirTensor *x = ins[0], *sc = ins[1], *bi = arg(n, ins, 2);
    const GirType *xt = &x->type;
    int64_t ax = gir_attr_int(n, "axis", -1), outer, len, o, i;
    double eps = gir_attr_float(n, "epsilon", 1e-5f);
    GirType nt;
    GirTensor sct, bit;
    if (ax < 0)
        ax += xt->rank;
    outer = gir_dims_prod(xt->dims, 0, (int)ax);
    len = gir_dims_prod(xt->dims, (int)ax, xt->rank);
    /* Scale and B broadcast to the normalized shape. */
    nt = *xt;
    nt.rank = xt->rank - (int)ax;
    memmove(nt.dims, xt->dims + ax, sizeof(int64_t) * (size_t)nt.rank);
    {
        int64_t sst[GIR_MAX_RANK], bst[GIR_MAX_RANK];
        GirArena *a = gir_arena_new();
        int64_t idx[GIR_MAX_RANK] = {0};
        double *sv = gir_arena_alloc(a, sizeof(double) * (size_t)(len + 1));
        double *bv = gir_arena_alloc(a, sizeof(double) * (size_t)(len + 1));
        int d;
        if (sc->type.rank > nt.rank || (bi && bi->type.rank > nt.rank)) {
            gir_arena_free(a);
            return gir_node_fail(n, e, "Scale or B has a higher rank than the normalized axes");
        }
        sct = *sc;
        bcast_strides(&sc->type, &nt, sst);
        if (bi) {
            bit = *bi;
            bcast_strides(&bi->type, &nt, bst);
        }
        for (i = 0; i < len; i++) {
            int64_t so = 0, bo = 0;
            for (d = 0; d < nt.rank; d++) {
                so += idx[d] * sst[d];
                bo += bi ? idx[d] * bst[d] : 0;
            }
            sv[i] = ld_f(&sct, so);
            bv[i] = bi ? ld_f(&bit, bo) : 0;
            gir_next_index(idx, nt.dims, nt.rank);
        }
        for (o = 0; o < outer; o++) {
            double mean = 0, var = 0, inv;
            for (i = 0; i < len; i++)
                mean += ld_f(x, o * len + i);
            mean /= (double)(len ? len : 1);
            for (i = 0; i < len; i++) {
                double dv = ld_f(x, o * len + i) - mean;
                var += dv * dv;
            }
            var /= (double)(len ? len : 1);
            inv = 1.0 / sqrt(var + eps);
            for (i = 0; i < len; i++)
                st_f(outs[0], o * len + i, (ld_f(x, o * len + i) - mean) * inv * sv[i] + bv[i]);
            if (n->nout > 1)
                st_f(outs[1], o, mean);
            if (n->nout > 2)
                st_f(outs[2], o, inv);
        }
        gir_arena_free(a);
    }
    return 0;
}

static int eval_INSTANCENORM(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                             GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t C = xt->dims[1], planes = xt->dims[0] * C, plane = gir_dims_prod(xt->dims, 2, xt->rank);
    double eps = gir_attr_float(n, "epsilon", 1e-5f);
    int64_t p, i;
    (void)e;
    for (p = 0; p < planes; p++) {
        double mean = 0, var = 0, inv, s = ld_f(ins[1], p % C), b = ld_f(ins[2], p % C);
        for (i = 0; i < plane; i++)
            mean += ld_f(ins[0], p * plane + i);
        mean /= (double)(plane ? plane : 1);
        for (i = 0; i < plane; i++) {
            double dv = ld_f(ins[0], p * plane + i) - mean;
            var += dv * dv;
        }
        var /= (double)(plane ? plane : 1);
        inv = 1.0 / sqrt(var + eps);
        for (i = 0; i < plane; i++)
            st_f(outs[0], p * plane + i, (ld_f(ins[0], p * plane + i) - mean) * inv * s + b);
    }
    return 0;
}

static int eval_LRN(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t size = gir_attr_int(n, "size", 0), C, plane, nb, c, j, i;
    double alpha = gir_attr_float(n, "alpha", 1e-4f), beta = gir_attr_float(n, "beta", 0.75f);
    double bias = gir_attr_float(n, "bias", 1.0f);
    if (size < 1 || size > 1 << 20 || xt->rank < 3)
        return gir_node_fail(n, e, "needs size >= 1 and an input of rank 3 or more");
    C = xt->dims[1];
    plane = gir_dims_prod(xt->dims, 2, xt->rank);
    for (nb = 0; nb < xt->dims[0]; nb++) {
        for (c = 0; c < C; c++) {
            int64_t lo = c - (size - 1) / 2, hi = c + (size - 1) - (size - 1) / 2;
            for (i = 0; i < plane; i++) {
                double sq = 0, x = ld_f(ins[0], (nb * C + c) * plane + i);
                for (j = lo < 0 ? 0 : lo; j <= hi && j < C; j++) {
                    double v = ld_f(ins[0], (nb * C + j) * plane + i);
                    sq += v * v;
                }
                st_f(outs[0], (nb * C + c) * plane + i, x / pow(bias + alpha / (double)size * sq, beta));
            }
        }
    }
    return 0;
}

/* DepthToSpace and SpaceToDepth: y[n, c, h, w] read from x by the block
 * arithmetic of the mode. */
static int blocks(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs, int to_space)
{
    const GirType *xt = &ins[0]->type, *yt = &outs[0]->type;
    int64_t b = gir_attr_int(n, "blocksize", 1), idx[4] = {0, 0, 0, 0}, i, cnt = numel(outs[0]);
    int crd = strcmp(gir_attr_string(n, "mode", "DCR"), "CRD") == 0;
    size_t es = gir_dtype_size(xt->dtype);
    int64_t C = xt->dims[1], H = xt->dims[2], W = xt->dims[3];
    for (i = 0; i < cnt; i++) {
        int64_t nn = idx[0], c = idx[1], h = idx[2], w = idx[3], xc, xh, xw, off;
        if (to_space) {
            int64_t oc = yt->dims[1], bh = h % b, bw = w % b;
            xc = crd ? c * b * b + bh * b + bw : (bh * b + bw) * oc + c;
            xh = h / b;
            xw = w / b;
        } else {
            int64_t blk = c / C, bh = blk / b, bw = blk % b;
            xc = c % C;
            xh = h * b + bh;
            xw = w * b + bw;
        }
        off = ((nn * C + xc) * H + xh) * W + xw;
        memcpy((char *)outs[0]->data + (size_t)i * es, (const char *)ins[0]->data + (size_t)off * es, es);
        gir_next_index(idx, yt->dims, 4);
    }
    return 0;
}

static int eval_DEPTHTOSPACE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                             GirError *e)
{
    (void)e;
    return blocks(n, ins, outs, 1);
}

static int eval_SPACETODEPTH(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                             GirError *e)
{
    (void)e;
    return blocks(n, ins, outs, 0);
}

static int eval_GLOBALMAXPOOL(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                              GirError *e)
{
    const GirType *t = &ins[0]->type;
    int64_t planes = t->dims[0] * t->dims[1], plane = gir_dims_prod(t->dims, 2, t->rank), p, i;
    (void)n;
    (void)e;
    for (p = 0; p < planes; p++) {
        double m = -INFINITY;
        for (i = 0; i < plane; i++) {
            double v = ld_f(ins[0], p * plane + i);
            m = v > m ? v : m;
        }
        st_f(outs[0], p, m);
    }
    return 0;
}

/* Transposed convolution: every input element adds its value times the
 * kernel into the output window it maps to (the adjoint of Conv). */
static int eval_CONVTRANSPOSE(const GirNode *n, const GirTensor *const *ins,
                              GirTensor *const *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type, *wt = &ins[1]->type, *yt = &outs[0]->type;
    const GirTensor *b = arg(n, ins, 2);
    const float *x = ins[0]->data, *w = ins[1]->data;
    float *y = outs[0]->data;
    int64_t G = gir_attr_int(n, "group", 1), N = xt->dims[0], C = xt->dims[1], M = yt->dims[1];
    int64_t Cg = C / G, Mg = M / G, in_plane, out_plane, ksz, nb, c, m, i, kk;
    int64_t ii[GIR_MAX_RANK], ki[GIR_MAX_RANK];
    GirWindow g;
    int d;
    (void)e;
    gir_convt_window(n, xt, wt->dims + 2, &g);
    in_plane = gir_dims_prod(xt->dims, 2, xt->rank);
    out_plane = gir_dims_prod(yt->dims, 2, yt->rank);
    ksz = gir_dims_prod(wt->dims, 2, wt->rank);
    for (nb = 0; nb < N; nb++)
        for (m = 0; m < M; m++)
            for (i = 0; i < out_plane; i++)
                y[(nb * M + m) * out_plane + i] = b ? ((const float *)b->data)[m] : 0.0f;
    for (nb = 0; nb < N; nb++) {
        for (c = 0; c < C; c++) {
            int64_t grp = c / Cg;
            memset(ii, 0, sizeof ii);
            for (i = 0; i < in_plane; i++) {
                float xv = x[(nb * C + c) * in_plane + i];
                memset(ki, 0, sizeof ki);
                for (kk = 0; kk < ksz; kk++) {
                    int64_t off = 0;
                    int inside = 1;
                    for (d = 0; d < g.nsp; d++) {
                        int64_t p = ii[d] * g.s[d] + ki[d] * g.d[d] - g.pb[d];
                        if (p < 0 || p >= yt->dims[d + 2]) {
                            inside = 0;
                            break;
                        }
                        off = off * yt->dims[d + 2] + p;
                    }
                    if (inside) {
                        for (m = 0; m < Mg; m++)
                            y[(nb * M + grp * Mg + m) * out_plane + off] +=
                                xv * w[(c * Mg + m) * ksz + kk];
                    }
                    gir_next_index(ki, wt->dims + 2, g.nsp);
                }
                gir_next_index(ii, xt->dims + 2, g.nsp);
            }
        }
    }
    return 0;
}

/* ---- selection and scattering ---------------------------------------------------------- */

/* One candidate of TopK: its value and position along the axis. */
typedef struct {
    double v;  /* value */
    int64_t i; /* index along the axis */
} TopkItem;

/* -1, 0 or 1 as value x is below, equal to or above y, NaN above every
 * number and NaNs equal: a total order, so qsort's result is defined. */
static int topk_cmp_v(double x, double y)
{
    if (isnan(x) || isnan(y))
        return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

static int topk_largest(const void *a, const void *b)
{
    const TopkItem *x = a, *y = b;
    int c = topk_cmp_v(y->v, x->v);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int topk_smallest(const void *a, const void *b)
{
    const TopkItem *x = a, *y = b;
    int c = topk_cmp_v(x->v, y->v);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* TopK: the sorted order puts ties at the lower index first, as ONNX
 * requires, and NaN above every number (first with largest, last with
 * smallest); sorted=0 may return any order, so sorting is also right. */
static int eval_TOPK(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    const GirTensor *x = ins[0];
    int64_t ax = gir_attr_int(n, "axis", -1), outer, len, inner, o, in, i, k;
    int largest = gir_attr_int(n, "largest", 1) != 0;
    GirArena *a = gir_arena_new();
    TopkItem *it;
    (void)e;
    if (ax < 0)
        ax += x->type.rank;
    around_axis(&x->type, ax, &outer, &len, &inner);
    k = outs[0]->type.dims[ax];
    it = gir_arena_alloc(a, sizeof *it * (size_t)(len + 1));
    for (o = 0; o < outer; o++) {
        for (in = 0; in < inner; in++) {
            for (i = 0; i < len; i++) {
                it[i].v = ld_f(x, (o * len + i) * inner + in);
                it[i].i = i;
            }
            qsort(it, (size_t)len, sizeof *it, largest ? topk_largest : topk_smallest);
            for (i = 0; i < k; i++) {
                int64_t at = (o * k + i) * inner + in;
                if (is_int(x->type.dtype))
                    st_i(outs[0], at, ld_i(x, (o * len + it[i].i) * inner + in));
                else
                    st_f(outs[0], at, it[i].v);
                ((int64_t *)outs[1]->data)[at] = it[i].i;
            }
        }
    }
    gir_arena_free(a);
    return 0;
}

static int eval_GATHERND(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                         GirError *e)
{
    const GirType *xt = &ins[0]->type, *it = &ins[1]->type;
    const int64_t *ix = ins[1]->data;
    size_t es = gir_dtype_size(xt->dtype);
    int64_t b = gir_attr_int(n, "batch_dims", 0), q = it->dims[it->rank - 1];
    int64_t nb = gir_dims_prod(xt->dims, 0, (int)b);
    int64_t per = gir_dims_prod(it->dims, (int)b, it->rank - 1);
    int64_t slice = gir_dims_prod(xt->dims, (int)(b + q), xt->rank);
    int64_t xb = gir_dims_prod(xt->dims, (int)b, xt->rank), bi, j, d;
    char *y = outs[0]->data;
    for (bi = 0; bi < nb; bi++) {
        for (j = 0; j < per; j++) {
            const int64_t *tup = ix + (bi * per + j) * q;
            int64_t off = 0;
            for (d = 0; d < q; d++) {
                int64_t dim = xt->dims[b + d], v = tup[d];
                if (v < -dim || v >= dim)
                    return gir_node_fail(n, e, "index %lld out of range for an axis of %lld",
                                         (long long)v, (long long)dim);
                off = off * dim + (v < 0 ? v + dim : v);
            }
            memcpy(y, (const char *)ins[0]->data + (size_t)(bi * xb + off * slice) * es,
                   (size_t)slice * es);
            y += (size_t)slice * es;
        }
    }
    return 0;
}

/* Put update element u at element at of y by the node's reduction. */
static void scatter_put(const GirNode *n, GirTensor *y, int64_t at, const GirTensor *u, int64_t ui)
{
    const char *red = gir_attr_string(n, "reduction", "none");
    if (strcmp(red, "none") == 0) {
        size_t es = gir_dtype_size(y->type.dtype);
        memcpy((char *)y->data + (size_t)at * es, (const char *)u->data + (size_t)ui * es, es);
    } else if (is_int(y->type.dtype)) {
        int64_t a = ld_i(y, at), b = ld_i(u, ui);
        st_i(y, at, red[0] == 'a' ? (int64_t)((uint64_t)a + (uint64_t)b)
                    : red[1] == 'u' ? (int64_t)((uint64_t)a * (uint64_t)b)
                    : red[1] == 'a' ? (a > b ? a : b) : (a < b ? a : b));
    } else {
        double a = ld_f(y, at), b = ld_f(u, ui);
        st_f(y, at, red[0] == 'a' ? a + b : red[1] == 'u' ? a * b : red[1] == 'a' ? fmax(a, b) : fmin(a, b));
    }
}

static int eval_SCATTERELEMENTS(const GirNode *n, const GirTensor *const *ins,
                                GirTensor *const *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type, *it = &ins[1]->type;
    int64_t ax = gir_attr_int(n, "axis", 0), xs[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0};
    int64_t i, cnt = numel(ins[1]), k = 0;
    int d;
    if (ax < 0)
        ax += xt->rank;
    if (numel(ins[2]) != cnt)
        return gir_node_fail(n, e, "updates and indices differ in size");
    copy_all(ins[0], outs[0]);
    strides_of(xt, xs);
    for (i = 0; i < cnt; i++) {
        int64_t off = 0;
        if (index_at(n, ins[1], i, xt->dims[ax], &k, e))
            return -1;
        for (d = 0; d < xt->rank; d++) {
            int64_t c = d == ax ? k : idx[d];
            if (c >= xt->dims[d])
                return gir_node_fail(n, e, "indices larger than data on axis %d", d);
            off += c * xs[d];
        }
        scatter_put(n, outs[0], off, ins[2], i);
        gir_next_index(idx, it->dims, it->rank);
    }
    return 0;
}

static int eval_SCATTERND(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                          GirError *e)
{
    const GirType *xt = &ins[0]->type, *it = &ins[1]->type;
    int64_t q = it->dims[it->rank - 1], m = gir_dims_prod(it->dims, 0, it->rank - 1);
    int64_t slice = gir_dims_prod(xt->dims, (int)q, xt->rank), j, d, s;
    if (numel(ins[2]) != m * slice)
        return gir_node_fail(n, e, "updates hold %lld elements; expected %lld",
                             (long long)numel(ins[2]), (long long)(m * slice));
    copy_all(ins[0], outs[0]);
    for (j = 0; j < m; j++) {
        int64_t off = 0;
        for (d = 0; d < q; d++) {
            int64_t dim = xt->dims[d], v = ld_i(ins[1], j * q + d);
            if (v < -dim || v >= dim)
                return gir_node_fail(n, e, "index %lld out of range for an axis of %lld",
                                     (long long)v, (long long)dim);
            off = off * dim + (v < 0 ? v + dim : v);
        }
        for (s = 0; s < slice; s++)
            scatter_put(n, outs[0], off * slice + s, ins[2], j * slice + s);
    }
    return 0;
}

static int eval_ONEHOT(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    const GirType *yt = &outs[0]->type;
    int64_t ax = gir_attr_int(n, "axis", -1), outer, depth, inner, o, d, i;
    size_t es = gir_dtype_size(yt->dtype);
    const char *off = ins[2]->data, *on = off + es;
    (void)e;
    if (ax < 0)
        ax += yt->rank;
    around_axis(yt, ax, &outer, &depth, &inner);
    for (o = 0; o < outer; o++) {
        for (i = 0; i < inner; i++) {
            double v = ld_f(ins[0], o * inner + i);
            int64_t hot = d2i(v < 0 ? v + (double)depth : v);
            for (d = 0; d < depth; d++)
                memcpy((char *)outs[0]->data + (size_t)((o * depth + d) * inner + i) * es,
                       d == hot ? on : off, es);
        }
    }
    return 0;
}

static int eval_EYELIKE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    int64_t R = outs[0]->type.dims[0], C = outs[0]->type.dims[1], k = gir_attr_int(n, "k", 0), r;
    (void)ins;
    (void)e;
    if (k >= C || k <= -R)
        return 0; /* the diagonal misses the matrix (and r + k cannot overflow below) */
    for (r = 0; r < R; r++) {
        int64_t c = r + k;
        if (c < 0 || c >= C)
            continue;
        if (is_int(outs[0]->type.dtype) || outs[0]->type.dtype == GIR_DT_BOOL)
            st_i(outs[0], r * C + c, 1);
        else
            st_f(outs[0], r * C + c, 1.0);
    }
    return 0;
}

static int eval_NONZERO(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t idx[GIR_MAX_RANK] = {0}, i, cnt = numel(ins[0]), nz = outs[0]->type.dims[1], k = 0;
    int64_t *y = outs[0]->data;
    int d, flt = !is_int(xt->dtype) && xt->dtype != GIR_DT_BOOL;
    (void)n;
    (void)e;
    for (i = 0; i < cnt; i++) {
        if (flt ? ld_f(ins[0], i) != 0 : ld_i(ins[0], i) != 0) {
            for (d = 0; d < xt->rank && k < nz; d++)
                y[d * nz + k] = idx[d];
            k++;
        }
        gir_next_index(idx, xt->dims, xt->rank);
    }
    return 0;
}

static int eval_NMS(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    const GirType *bt = &ins[0]->type, *st = &ins[1]->type;
    const GirTensor *m = arg(n, ins, 2), *io = arg(n, ins, 3), *sc = arg(n, ins, 4);
    int64_t max_out = m && numel(m) ? *(const int64_t *)m->data : 0;
    float iou = io && numel(io) ? *(const float *)io->data : 0;
    float sthr = sc && numel(sc) ? *(const float *)sc->data : -INFINITY;
    (void)e;
    gir_nms(ins[0]->data, ins[1]->data, bt->dims[0], st->dims[1], bt->dims[1],
            max_out < 0 ? 0 : max_out, iou, sthr, gir_attr_int(n, "center_point_box", 0) != 0,
            outs[0]->data);
    return 0;
}

static int eval_REVERSESEQUENCE(const GirNode *n, const GirTensor *const *ins,
                                GirTensor *const *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t ba = gir_attr_int(n, "batch_axis", 1), ta = gir_attr_int(n, "time_axis", 0);
    int64_t idx[GIR_MAX_RANK] = {0}, xs[GIR_MAX_RANK], i, cnt = numel(ins[0]);
    size_t es = gir_dtype_size(xt->dtype);
    strides_of(xt, xs);
    for (i = 0; i < cnt; i++) {
        int64_t len = ld_i(ins[1], idx[ba]), t = idx[ta], src = i;
        if (len < 0 || len > xt->dims[ta])
            return gir_node_fail(n, e, "sequence length %lld out of range", (long long)len);
        if (t < len)
            src = i + (len - 1 - 2 * t) * xs[ta];
        memcpy((char *)outs[0]->data + (size_t)i * es, (const char *)ins[0]->data + (size_t)src * es, es);
        gir_next_index(idx, xt->dims, xt->rank);
    }
    return 0;
}

/* Determinant by Gaussian elimination with partial pivoting, in double. */
static int eval_DET(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t M = xt->dims[xt->rank - 1], mats = numel(outs[0]), m, r, c, k;
    GirArena *a = gir_arena_new();
    double *w = gir_arena_alloc(a, sizeof(double) * (size_t)(M * M + 1));
    (void)n;
    (void)e;
    for (m = 0; m < mats; m++) {
        double det = 1;
        for (k = 0; k < M * M; k++)
            w[k] = ld_f(ins[0], m * M * M + k);
        for (c = 0; c < M && det != 0; c++) {
            int64_t p = c;
            for (r = c + 1; r < M; r++)
                if (fabs(w[r * M + c]) > fabs(w[p * M + c]))
                    p = r;
            if (w[p * M + c] == 0) {
                det = 0;
                break;
            }
            if (p != c) {
                for (k = 0; k < M; k++) {
                    double t = w[c * M + k];
                    w[c * M + k] = w[p * M + k];
                    w[p * M + k] = t;
                }
                det = -det;
            }
            det *= w[c * M + c];
            for (r = c + 1; r < M; r++) {
                double f = w[r * M + c] / w[c * M + c];
                for (k = c; k < M; k++)
                    w[r * M + k] -= f * w[c * M + k];
            }
        }
        st_f(outs[0], m, det);
    }
    gir_arena_free(a);
    return 0;
}

static int eval_DYNQUANT(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                         GirError *e)
{
    const float *x = ins[0]->data;
    uint8_t *y = outs[0]->data;
    int64_t i, cnt = numel(ins[0]);
    float lo = 0, hi = 0, scale;
    double zp;
    (void)n;
    (void)e;
    for (i = 0; i < cnt; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    scale = (hi - lo) / 255.0f;
    zp = scale > 0 ? round_even(0 - lo / scale) : 0;
    zp = zp < 0 ? 0 : zp > 255 ? 255 : zp;
    for (i = 0; i < cnt; i++) {
        double q = scale > 0 ? round_even(x[i] / scale) + zp : zp;
        y[i] = (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
    }
    *(float *)outs[1]->data = scale;
    *(uint8_t *)outs[2]->data = (uint8_t)zp;
    return 0;
}

/* MaxUnpool: the indices are flat positions in the output the attributes
 * give (the MaxPool input); an output_shape larger than that places each
 * one at the same coordinates in the larger shape. */
static int eval_MAXUNPOOL(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                          GirError *e)
{
    const GirType *xt = &ins[0]->type, *yt = &outs[0]->type;
    int cnt, d, r = xt->rank;
    const int64_t *k = gir_attr_ints(n, "kernel_shape", &cnt);
    const int64_t *st = gir_attr_ints(n, "strides", &cnt);
    const int64_t *pa = gir_attr_ints(n, "pads", &cnt);
    int64_t dflt[GIR_MAX_RANK], i, ne = numel(ins[0]), nd;
    dflt[0] = xt->dims[0];
    dflt[1] = xt->dims[1];
    for (d = 2; d < r; d++)
        dflt[d] = (xt->dims[d] - 1) * (st ? st[d - 2] : 1) + k[d - 2] -
                  (pa ? pa[d - 2] + pa[r - 2 + d - 2] : 0);
    nd = gir_dims_prod(dflt, 0, r);
    for (i = 0; i < ne; i++) {
        int64_t at = ld_i(ins[1], i), rest = at, off = 0, c[GIR_MAX_RANK];
        if (at < 0 || at >= nd)
            return gir_node_fail(n, e, "index %lld outside the pooled input of %lld elements",
                                 (long long)at, (long long)nd);
        for (d = r - 1; d >= 0; d--) {
            c[d] = rest % dflt[d];
            rest /= dflt[d];
        }
        for (d = 0; d < r; d++) {
            if (c[d] >= yt->dims[d])
                return gir_node_fail(n, e, "index %lld lies outside output_shape", (long long)at);
            off = off * yt->dims[d] + c[d];
        }
        st_f(outs[0], off, ld_f(ins[0], i));
    }
    return 0;
}

static int eval_COMPRESS(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                         GirError *e)
{
    const GirType *xt = &ins[0]->type;
    const GirAttr *axa = gir_attr(n, "axis");
    const uint8_t *cond = ins[1]->data;
    int64_t nc = numel(ins[1]), outer = 1, len = numel(ins[0]), inner = 1, o, i;
    size_t es = gir_dtype_size(xt->dtype);
    char *y = outs[0]->data;
    (void)e;
    if (axa)
        around_axis(xt, axa->i < 0 ? axa->i + xt->rank : axa->i, &outer, &len, &inner);
    for (o = 0; o < outer; o++) {
        for (i = 0; i < len && i < nc; i++) {
            if (!cond[i])
                continue;
            memcpy(y, (const char *)ins[0]->data + (size_t)((o * len + i) * inner) * es,
                   (size_t)inner * es);
            y += (size_t)inner * es;
        }
    }
    return 0;
}

static int eval_MVN(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                    GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int d;
    int64_t gst[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0}, i, ne = numel(ins[0]), ng, per;
    GirArena *a;
    double *sum, *sq;
    int64_t *go;
    ng = gir_mvn_groups(n, xt, gst);
    if (ng < 0)
        return gir_node_fail(n, e, "MeanVarianceNormalization: axes out of range for rank %d",
                             xt->rank);
    per = ng ? ne / ng : 0;
    a = gir_arena_new();
    sum = gir_arena_alloc(a, sizeof(double) * (size_t)(ng + 1));
    sq = gir_arena_alloc(a, sizeof(double) * (size_t)(ng + 1));
    go = gir_arena_alloc(a, sizeof(int64_t) * (size_t)(ne + 1));
    for (i = 0; i < ne; i++) {
        double v = ld_f(ins[0], i);
        int64_t o = 0;
        for (d = 0; d < xt->rank; d++)
            o += idx[d] * gst[d];
        go[i] = o;
        sum[o] += v;
        sq[o] += v * v;
        gir_next_index(idx, xt->dims, xt->rank);
    }
    for (i = 0; i < ne; i++) {
        double mean = sum[go[i]] / (double)per, var = sq[go[i]] / (double)per - mean * mean;
        st_f(outs[0], i, (ld_f(ins[0], i) - mean) / (sqrt(var > 0 ? var : 0) + 1e-9));
    }
    gir_arena_free(a);
    return 0;
}

/* ---- GridSample ----------------------------------------------------------------------- */

/* x folded into [lo, hi] by reflection at both ends. */
static double gs_reflect(double x, double lo, double hi)
{
    double range = hi - lo, d, k, r;
    if (range <= 0)
        return lo;
    if (x < lo) {
        d = lo - x;
        k = floor(d / range);
        r = d - k * range;
        return fmod(k, 2) == 0 ? lo + r : hi - r;
    }
    if (x > hi) {
        d = x - hi;
        k = floor(d / range);
        r = d - k * range;
        return fmod(k, 2) == 0 ? hi - r : lo + r;
    }
    return x;
}

/* Sampling state of one GridSample node. */
typedef struct {
    const GirTensor *x; /* the input */
    int64_t H, W;       /* its plane */
    int pad;            /* 0 zeros, 1 border, 2 reflection */
    int align;          /* align_corners */
} GridSampler;

/* Pixel (r, c) of plane p with the padding rule for taps outside. */
static double gs_pixel(const GridSampler *s, int64_t p, int64_t r, int64_t c)
{
    if (s->pad == 1) {
        r = r < 0 ? 0 : r >= s->H ? s->H - 1 : r;
        c = c < 0 ? 0 : c >= s->W ? s->W - 1 : c;
    } else if (s->pad == 2) {
        double lo = s->align ? 0 : -0.5;
        r = (int64_t)gs_reflect((double)r, lo, (double)s->H - 1 - lo);
        c = (int64_t)gs_reflect((double)c, lo, (double)s->W - 1 - lo);
    }
    if (r < 0 || r >= s->H || c < 0 || c >= s->W)
        return 0;
    return ld_f(s->x, (p * s->H + r) * s->W + c);
}

/* Cubic convolution weights (A = -0.75) of the 4 taps around fraction t. */
static void gs_cubic(double t, double *w)
{
    const double A = -0.75;
    double x;
    x = t + 1;
    w[0] = ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
    x = t;
    w[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    x = 1 - t;
    w[2] = ((A + 2) * x - (A + 3)) * x * x + 1;
    w[3] = 1 - w[0] - w[1] - w[2];
}

static int eval_GRIDSAMPLE(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                           GirError *e)
{
    const GirType *xt = &ins[0]->type, *yt = &outs[0]->type;
    int kind = gir_grid_sample_mode(gir_attr_string(n, "mode", "bilinear"));
    const char *pad = gir_attr_string(n, "padding_mode", "zeros");
    int64_t N = xt->dims[0], C = xt->dims[1], Ho = yt->dims[2], Wo = yt->dims[3], b, c, i, j;
    GridSampler s;
    (void)e;
    s.x = ins[0];
    s.H = xt->dims[2];
    s.W = xt->dims[3];
    s.pad = pad[0] == 'z' ? 0 : pad[0] == 'b' ? 1 : 2;
    s.align = gir_attr_int(n, "align_corners", 0) != 0;
    for (b = 0; b < N; b++) {
        for (i = 0; i < Ho; i++) {
            for (j = 0; j < Wo; j++) {
                int64_t gi = ((b * Ho + i) * Wo + j) * 2;
                double gx = ld_f(ins[1], gi), gy = ld_f(ins[1], gi + 1), x, y;
                x = s.align ? (gx + 1) / 2 * (double)(s.W - 1) : ((gx + 1) * (double)s.W - 1) / 2;
                y = s.align ? (gy + 1) / 2 * (double)(s.H - 1) : ((gy + 1) * (double)s.H - 1) / 2;
                if (s.pad == 1) {
                    x = x < 0 ? 0 : x > (double)(s.W - 1) ? (double)(s.W - 1) : x;
                    y = y < 0 ? 0 : y > (double)(s.H - 1) ? (double)(s.H - 1) : y;
                } else if (s.pad == 2) {
                    double lo = s.align ? 0 : -0.5;
                    x = gs_reflect(x, lo, (double)s.W - 1 - lo);
                    y = gs_reflect(y, lo, (double)s.H - 1 - lo);
                }
                /* Far outside, every tap reads padding: bound the
                 * coordinates so they convert to integers. */
                x = !(x >= -8.0) ? -8.0 : x > (double)s.W + 8 ? (double)s.W + 8 : x;
                y = !(y >= -8.0) ? -8.0 : y > (double)s.H + 8 ? (double)s.H + 8 : y;
                for (c = 0; c < C; c++) {
                    int64_t p = b * C + c;
                    double v;
                    if (kind == 0) {
                        v = gs_pixel(&s, p, (int64_t)round_even(y), (int64_t)round_even(x));
                    } else if (kind == 1) {
                        int64_t x0 = (int64_t)floor(x), y0 = (int64_t)floor(y);
                        double fx = x - (double)x0, fy = y - (double)y0;
                        v = (1 - fy) * ((1 - fx) * gs_pixel(&s, p, y0, x0) + fx * gs_pixel(&s, p, y0, x0 + 1)) +
                            fy * ((1 - fx) * gs_pixel(&s, p, y0 + 1, x0) + fx * gs_pixel(&s, p, y0 + 1, x0 + 1));
                    } else {
                        int64_t x0 = (int64_t)floor(x) - 1, y0 = (int64_t)floor(y) - 1;
                        double wx[4], wy[4];
                        int u, t;
                        gs_cubic(x - floor(x), wx);
                        gs_cubic(y - floor(y), wy);
                        v = 0;
                        for (u = 0; u < 4; u++)
                            for (t = 0; t < 4; t++)
                                v += wy[u] * wx[t] * gs_pixel(&s, p, y0 + u, x0 + t);
                    }
                    st_f(outs[0], (p * Ho + i) * Wo + j, v);
                }
            }
        }
    }
    return 0;
}

/* Einsum: walk every combination of the labels' values, add the product of
 * the inputs' elements there into the result element it names. */
static int eval_EINSUM(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                       GirError *e)
{
    const char *eq = gir_attr_string(n, "equation", "");
    int ranks[GIR_EINSUM_MAX_IN], used[GIR_EINSUM_LABELS], nu = 0, i, j, k;
    int64_t size[GIR_EINSUM_LABELS], val[GIR_EINSUM_LABELS] = {0}, dims[GIR_EINSUM_LABELS];
    int64_t idx[GIR_EINSUM_LABELS] = {0}, total = 1, t, ny = numel(outs[0]);
    int64_t st[GIR_EINSUM_MAX_IN][GIR_MAX_RANK], ost[GIR_MAX_RANK];
    GirArena *a = gir_arena_new();
    double *acc = gir_arena_alloc(a, sizeof(double) * (size_t)(ny + 1));
    GirEinsum es;
    char why[256];
    for (i = 0; i < n->nin; i++)
        ranks[i] = ins[i]->type.rank;
    if (gir_einsum_parse(eq, n->nin, ranks, &es, why, sizeof why)) {
        gir_arena_free(a);
        return gir_node_fail(n, e, "%s", why);
    }
    for (i = 0; i < GIR_EINSUM_LABELS; i++)
        size[i] = -1;
    for (i = 0; i < n->nin; i++)
        for (j = 0; j < ranks[i]; j++)
            if (size[es.in_lab[i][j]] < 0 || size[es.in_lab[i][j]] == 1)
                size[es.in_lab[i][j]] = ins[i]->type.dims[j];
    for (i = 0; i < GIR_EINSUM_LABELS; i++) {
        if (size[i] >= 0) {
            dims[nu] = size[i];
            used[nu++] = i;
            /* the walk's length: refuse one no run could finish */
            if (size[i] > 0 && total > ((int64_t)1 << 34) / size[i]) {
                gir_arena_free(a);
                return gir_node_fail(n, e, "more than 2^34 products to sum");
            }
            total *= size[i];
        }
    }
    for (i = 0; i < n->nin; i++) {
        int64_t s = 1;
        for (j = ranks[i] - 1; j >= 0; j--) {
            st[i][j] = ins[i]->type.dims[j] == 1 ? 0 : s;
            s *= ins[i]->type.dims[j];
        }
    }
    {
        int64_t s = 1;
        for (j = es.out_rank - 1; j >= 0; j--) {
            ost[j] = s;
            s *= outs[0]->type.dims[j];
        }
    }
    for (t = 0; t < total; t++) {
        double prod = 1;
        int64_t off = 0;
        for (k = 0; k < nu; k++)
            val[used[k]] = idx[k];
        for (i = 0; i < n->nin; i++) {
            int64_t o = 0;
            for (j = 0; j < ranks[i]; j++)
                o += val[es.in_lab[i][j]] * st[i][j];
            prod *= ld_f(ins[i], o);
        }
        for (j = 0; j < es.out_rank; j++)
            off += val[es.out_lab[j]] * ost[j];
        acc[off] += prod;
        gir_next_index(idx, dims, nu);
    }
    for (t = 0; t < ny; t++) {
        if (is_int(outs[0]->type.dtype))
            st_i(outs[0], t, d2i(acc[t]));
        else
            st_f(outs[0], t, acc[t]);
    }
    gir_arena_free(a);
    return 0;
}

/* RoiAlign as the ONNX reference runs it: per bin, a grid of bilinear
 * samples (points just outside the map clamp to its edge, farther ones read
 * 0), averaged, or in max mode the largest weighted corner of each sample. */
static int eval_ROIALIGN(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                         GirError *e)
{
    const GirType *xt = &ins[0]->type, *yt = &outs[0]->type;
    int64_t C = xt->dims[1], H = xt->dims[2], W = xt->dims[3], R = yt->dims[0];
    int64_t oh = yt->dims[2], ow = yt->dims[3], sr = gir_attr_int(n, "sampling_ratio", 0);
    double scale = gir_attr_float(n, "spatial_scale", 1.0f);
    int half = strcmp(gir_attr_string(n, "coordinate_transformation_mode", "half_pixel"), "half_pixel") == 0;
    int is_max = strcmp(gir_attr_string(n, "mode", "avg"), "max") == 0;
    int64_t r, c, ph, pw, iy, ix;
    for (r = 0; r < R; r++) {
        int64_t b = ld_i(ins[2], r);
        double off = half ? 0.5 : 0.0;
        double x1 = ld_f(ins[1], r * 4) * scale - off, y1 = ld_f(ins[1], r * 4 + 1) * scale - off;
        double x2 = ld_f(ins[1], r * 4 + 2) * scale - off, y2 = ld_f(ins[1], r * 4 + 3) * scale - off;
        double rw = x2 - x1, rh = y2 - y1, bw, bh;
        int64_t gh, gw;
        if (b < 0 || b >= xt->dims[0])
            return gir_node_fail(n, e, "batch index %lld out of range", (long long)b);
        if (!half) {
            rw = rw > 1 ? rw : 1;
            rh = rh > 1 ? rh : 1;
        }
        bh = rh / (double)oh;
        bw = rw / (double)ow;
        gh = sr > 0 ? sr : d2i(ceil(rh / (double)oh));
        gw = sr > 0 ? sr : d2i(ceil(rw / (double)ow));
        if (gh < 0 || gw < 0 || gh > 4096 || gw > 4096)
            return gir_node_fail(n, e, "region %lld needs a sampling grid of %lld x %lld",
                                 (long long)r, (long long)gh, (long long)gw);
        for (c = 0; c < C; c++) {
            int64_t p = b * C + c;
            for (ph = 0; ph < oh; ph++) {
                for (pw = 0; pw < ow; pw++) {
                    double acc = 0, best = -INFINITY;
                    int64_t cnt = gh * gw > 0 ? gh * gw : 1;
                    for (iy = 0; iy < gh; iy++) {
                        for (ix = 0; ix < gw; ix++) {
                            double y = y1 + (double)ph * bh + ((double)iy + 0.5) * bh / (double)gh;
                            double x = x1 + (double)pw * bw + ((double)ix + 0.5) * bw / (double)gw;
                            int64_t yl, xl, yh, xh;
                            double ly, lx, w[4], v[4];
                            int q;
                            if (!(y >= -1.0 && y <= (double)H && x >= -1.0 && x <= (double)W)) {
                                best = best > 0 ? best : 0;
                                continue;
                            }
                            y = y <= 0 ? 0 : y;
                            x = x <= 0 ? 0 : x;
                            yl = (int64_t)y;
                            xl = (int64_t)x;
                            if (yl >= H - 1) {
                                yl = yh = H - 1;
                                y = (double)yl;
                            } else {
                                yh = yl + 1;
                            }
                            if (xl >= W - 1) {
                                xl = xh = W - 1;
                                x = (double)xl;
                            } else {
                                xh = xl + 1;
                            }
                            ly = y - (double)yl;
                            lx = x - (double)xl;
                            w[0] = (1 - ly) * (1 - lx);
                            w[1] = (1 - ly) * lx;
                            w[2] = ly * (1 - lx);
                            w[3] = ly * lx;
                            v[0] = ld_f(ins[0], (p * H + yl) * W + xl);
                            v[1] = ld_f(ins[0], (p * H + yl) * W + xh);
                            v[2] = ld_f(ins[0], (p * H + yh) * W + xl);
                            v[3] = ld_f(ins[0], (p * H + yh) * W + xh);
                            for (q = 0; q < 4; q++) {
                                acc += w[q] * v[q];
                                best = w[q] * v[q] > best ? w[q] * v[q] : best;
                            }
                        }
                    }
                    st_f(outs[0], ((r * C + c) * oh + ph) * ow + pw,
                         is_max ? best : acc / (double)cnt);
                }
            }
        }
    }
    return 0;
}

/* ---- losses ---------------------------------------------------------------------------- */

/* The loss of log-probabilities lp (scores' shape [N, C, d...]) against
 * the target, weighted and reduced as ONNX NegativeLogLikelihoodLoss. */
static int nll(const GirNode *n, const GirTensor *lp, const GirTensor *target, const GirTensor *w,
               GirTensor *y, GirError *e)
{
    const GirType *xt = &lp->type;
    const char *red = gir_attr_string(n, "reduction", "mean");
    const GirAttr *ig = gir_attr(n, "ignore_index");
    int64_t N = xt->dims[0], C = xt->dims[1], D = gir_dims_prod(xt->dims, 2, xt->rank), b, d;
    double sum = 0, wsum = 0;
    for (b = 0; b < N; b++) {
        for (d = 0; d < D; d++) {
            int64_t t = ld_i(target, b * D + d), at = b * D + d;
            double l = 0, wt = 0;
            if (!(ig && t == ig->i)) {
                if (t < 0 || t >= C)
                    return gir_node_fail(n, e, "target %lld out of range for %lld classes",
                                         (long long)t, (long long)C);
                wt = w ? ld_f(w, t) : 1.0;
                l = -ld_f(lp, (b * C + t) * D + d) * wt;
            }
            if (strcmp(red, "none") == 0)
                st_f(y, at, l);
            sum += l;
            wsum += wt;
        }
    }
    if (strcmp(red, "sum") == 0)
        st_f(y, 0, sum);
    else if (strcmp(red, "mean") == 0)
        st_f(y, 0, wsum != 0 ? sum / wsum : 0.0);
    return 0;
}

static int eval_NLLLOSS(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    return nll(n, ins[0], ins[1], arg(n, ins, 2), outs[0], e);
}

static int eval_SCELOSS(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                        GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t N = xt->dims[0], C = xt->dims[1], D = gir_dims_prod(xt->dims, 2, xt->rank), b, c, d;
    GirArena *a = gir_arena_new();
    GirTensor lp;
    int rc;
    lp.type = *xt;
    lp.data = gir_arena_alloc(a, (size_t)numel(ins[0]) * gir_dtype_size(xt->dtype) + 1);
    for (b = 0; b < N; b++) {
        for (d = 0; d < D; d++) {
            double mx = -INFINITY, sum = 0;
            for (c = 0; c < C; c++) {
                double v = ld_f(ins[0], (b * C + c) * D + d);
                mx = v > mx ? v : mx;
            }
            for (c = 0; c < C; c++)
                sum += exp(ld_f(ins[0], (b * C + c) * D + d) - mx);
            for (c = 0; c < C; c++)
                st_f(&lp, (b * C + c) * D + d, ld_f(ins[0], (b * C + c) * D + d) - mx - log(sum));
        }
    }
    rc = nll(n, &lp, ins[1], arg(n, ins, 2), outs[0], e);
    if (rc == 0 && n->nout > 1)
        copy_all(&lp, outs[1]);
    gir_arena_free(a);
    return rc;
}

/* Kernels defined in interp_int8.c and qonnx.c. */
#define eval_QUANTIZELINEAR gir_eval_quantizelinear
#define eval_DEQUANTIZELINEAR gir_eval_dequantizelinear
#define eval_REQUANTIZE gir_eval_requantize
#define eval_LUTI8 gir_eval_luti8

#define EVAL_ROW(e, name, lo, hi, summary) [GIR_OP_##e] = eval_##e,
static EvalFn *const eval_fns[GIR_OP_COUNT] = {GIR_OPS(EVAL_ROW)};
#undef EVAL_ROW

/* ---- the run ----------------------------------------------------------------- */

/* A fed tensor must fit the declared type: same element type and rank, and
 * every declared dim matched. */
static int check_input(const GirGraph *g, int i, const GirTensor *t, GirError *e)
{
    const GirValue *v = &g->vals[g->inputs[i]];
    char a[128], b[128];
    int d, ok = 1;
    GirLoc loc = v->loc;
    if (!gir_type_is_static(&t->type) || t->type.rank > GIR_MAX_RANK)
        return gir_error_at(e, loc, "input '%s': fed tensor %s has no static shape", v->name,
                            gir_type_str(&t->type, a, sizeof a));
    if (!t->data && gir_type_numel(&t->type) > 0)
        return gir_error_at(e, loc, "input '%s': fed tensor has no data", v->name);
    if (v->type.dtype != GIR_DT_UNDEF && t->type.dtype != v->type.dtype)
        ok = 0;
    if (v->type.rank >= 0) {
        if (t->type.rank != v->type.rank)
            ok = 0;
        for (d = 0; ok && d < v->type.rank; d++)
            if (v->type.dims[d] >= 0 && v->type.dims[d] != t->type.dims[d])
                ok = 0;
    }
    if (!ok)
        return gir_error_at(e, loc, "input '%s': fed %s but the model declares %s", v->name,
                            gir_type_str(&t->type, a, sizeof a),
                            gir_type_str(&v->type, b, sizeof b));
    return 0;
}

/* Allocate a tensor of type t from arena a, refusing absurd sizes. */
static int alloc_tensor(const GirNode *n, GirArena *a, const GirType *t, GirTensor *out,
                        GirError *e)
{
    char buf[128];
    int64_t cnt = gir_type_numel(t), es = (int64_t)gir_dtype_size(t->dtype);
    if (cnt < 0)
        return gir_node_fail(n, e, "output shape %s not known at run time", gir_type_str(t, buf, sizeof buf));
    if (cnt > MAX_TENSOR_BYTES / (es ? es : 1))
        return gir_node_fail(n, e, "output %s larger than the interpreter's limit of %lld bytes",
                    gir_type_str(t, buf, sizeof buf), (long long)MAX_TENSOR_BYTES);
    out->type = *t;
    out->data = gir_arena_alloc(a, (size_t)(cnt * es) + 1);
    return 0;
}

/* A node's kernel: nodes of the int8 form run in integer arithmetic
 * (interp_int8.c), the others the kernel of their op. */
static int eval_node(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    return (gir_int8_node(n, ins) ? gir_eval_int8 : eval_fns[n->op])(n, ins, outs, e);
}

/* A layout="NHWC" node (layout.c): input 0 transposed to NCHW, the NCHW
 * kernel of the node without its layout attribute on shapes from the NCHW
 * rule, the rank-4 outputs transposed back; so it computes bit for bit what
 * its NCHW form does, in fp32 and in int8. */
static int eval_nhwc(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                     GirError *e)
{
    GirArena *a = gir_arena_new();
    GirNode c = gir_nhwc_strip(n);
    const GirTensor *pins[64];
    GirTensor x0, res[64], *resp[64];
    GirType types[64];
    int i, rc = -1;
    x0 = *ins[0];
    x0.type = gir_nhwc_type(&ins[0]->type, 1);
    x0.data = gir_arena_alloc(a, (size_t)numel(ins[0]) * gir_dtype_size(x0.type.dtype) + 1);
    gir_nhwc_transpose(ins[0], &x0, 1);
    pins[0] = &x0;
    for (i = 1; i < n->nin; i++)
        pins[i] = ins[i];
    if (gir_shape_node(NULL, &c, pins, types, e) < 0)
        goto done;
    for (i = 0; i < n->nout; i++) {
        if (alloc_tensor(&c, a, &types[i], &res[i], e) < 0)
            goto done;
        resp[i] = &res[i];
    }
    if (eval_node(&c, pins, resp, e) < 0)
        goto done;
    for (i = 0; i < n->nout; i++) {
        if (res[i].type.rank == 4)
            gir_nhwc_transpose(&res[i], outs[i], 0);
        else
            copy_all(&res[i], outs[i]);
    }
    rc = 0;
done:
    free(c.attrs);
    gir_arena_free(a);
    return rc;
}

int gir_run(const GirGraph *g, const GirTensor *inputs, GirTensor *outputs, GirArena *arena,
            GirError *e)
{
    GirArena *tmp = gir_arena_new();
    GirTensor *ts = gir_arena_alloc(tmp, sizeof *ts * (size_t)(g->nval + 1));
    char *is_out = gir_arena_alloc(tmp, (size_t)g->nval + 1);
    int i, j, rc = -1;
    for (i = 0; i < g->noutput; i++)
        is_out[g->outputs[i]] = 1;
    for (i = 0; i < g->nval; i++) {
        ts[i].type = g->vals[i].type;
        ts[i].data = g->vals[i].kind == GIR_VAL_CONST ? g->vals[i].data : NULL;
    }
    for (i = 0; i < g->ninput; i++) {
        if (check_input(g, i, &inputs[i], e))
            goto out;
        ts[g->inputs[i]] = inputs[i];
    }
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        const GirTensor *ins[64];
        GirTensor *outp[64];
        GirType types[64];
        if (n->nin > 64 || n->nout > 64) {
            gir_node_fail(n, e, "too many inputs or outputs");
            goto out;
        }
        for (j = 0; j < n->nin; j++) {
            int v = n->in[j];
            ins[j] = v < 0 ? NULL : &ts[v];
            if (v >= 0 && !ts[v].data) {
                gir_node_fail(n, e, "input %d ('%s') has no value at run time", j, g->vals[v].name);
                goto out;
            }
        }
        if (gir_shape_node(g, n, ins, types, e))
            goto out;
        for (j = 0; j < n->nout; j++) {
            int v = n->out[j];
            if (alloc_tensor(n, is_out[v] ? arena : tmp, &types[j], &ts[v], e))
                goto out;
            outp[j] = &ts[v];
        }
        if ((gir_node_is_nhwc(n) ? eval_nhwc(n, ins, outp, e) : eval_node(n, ins, outp, e)) < 0)
            goto out;
    }
    for (i = 0; i < g->noutput; i++) {
        int v = g->outputs[i];
        if (!ts[v].data) {
            gir_error_at(e, g->vals[v].loc, "output '%s' has no value", g->vals[v].name);
            goto out;
        }
        if (g->vals[v].kind == GIR_VAL_NODE) {
            outputs[i] = ts[v];
        } else {
            /* Inputs and constants returned directly are copied so the
             * caller owns every output the same way. */
            size_t bytes = (size_t)gir_type_numel(&ts[v].type) * gir_dtype_size(ts[v].type.dtype);
            outputs[i].type = ts[v].type;
            outputs[i].data = gir_arena_alloc(arena, bytes + 1);
            if (bytes)
                memcpy(outputs[i].data, ts[v].data, bytes);
        }
    }
    rc = 0;
out:
    gir_arena_free(tmp);
    return rc;
}
