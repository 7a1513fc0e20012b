/*
 * ONNX's own quantized operators, with ONNX semantics: QLinearConv,
 * ConvInteger, MatMulInteger and QLinearMatMul.  Data is u8 or i8 with a
 * zero point (per tensor, or per output channel / row / column where ONNX
 * allows it); ConvInteger and MatMulInteger return the exact int32 sums,
 * QLinearConv and QLinearMatMul requantize them with float scales and round
 * half to even, as the ONNX reference does.
 *
 * These ops let a pre-quantized model run as it is.  They are not kiln's
 * int8 form (symmetric, integer multipliers; graphir/requant.h): the QDQ
 * folder rewrites them into that form where the scheme fits.
 *
 * Their shape rules are in shape.c (they reuse the Conv and MatMul rules on
 * float stand-ins of the inputs, so window and broadcast arithmetic is
 * defined in one place); the kernels below trust them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "qonnx.h"

static const GirTensor *arg(const GirNode *n, const GirTensor *const *ins, int i)
{
    return i < n->nin ? ins[i] : NULL;
}

/* ---- kernels -------------------------------------------------------------------- */

static int32_t ld_q(const GirTensor *t, int64_t i)
{
    switch (t->type.dtype) {
    case GIR_DT_U8: return ((const uint8_t *)t->data)[i];
    case GIR_DT_I8: return ((const int8_t *)t->data)[i];
    case GIR_DT_I32: return ((const int32_t *)t->data)[i];
    default: gir_unreachable();
    }
}

/* Element i of a per-tensor or per-slice parameter; 0 when absent. */
static int32_t zp_at(const GirTensor *t, int64_t i)
{
    if (!t)
        return 0;
    return ld_q(t, gir_type_numel(&t->type) == 1 ? 0 : i);
}

static double scale_at(const GirTensor *t, int64_t i)
{
    return ((const float *)t->data)[gir_type_numel(&t->type) == 1 ? 0 : i];
}

/* Round half to even (the FPU's default mode), add the zero point and
 * saturate to the output type. */
static void st_sat(GirTensor *y, int64_t i, double v, int32_t zp)
{
    double r = rint(v) + zp;
    if (y->type.dtype == GIR_DT_U8) {
        r = r < 0 ? 0 : r > 255 ? 255 : r;
        ((uint8_t *)y->data)[i] = (uint8_t)r;
    } else {
        r = r < -128 ? -128 : r > 127 ? 127 : r;
        ((int8_t *)y->data)[i] = (int8_t)r;
    }
}



/* The exact integer convolution sum(x - x_zp) * (w - w_zp[oc]) with
 * padding that contributes nothing (the zero point pads), for output
 * element (nb, oc, spatial index oi...) handed to emit. */
typedef void EmitFn(const GirNode *n, const GirTensor *const *ins, GirTensor *y, int64_t oc,
                    int64_t i, int64_t acc);

static void conv_int(const GirNode *n, const GirTensor *const *ins, const GirTensor *x,
                     const GirTensor *xzp, const GirTensor *w, const GirTensor *wzp,
                     GirTensor *y, EmitFn *emit)
{
    const GirType *xt = &x->type, *wt = &w->type;
    int64_t N = xt->dims[0], C = xt->dims[1], M = wt->dims[0], Cg = wt->dims[1];
    int64_t G = gir_attr_int(n, "group", 1), Mg = M / G;
    int64_t in_plane, out_plane, ksz, nb, oc, ic, op, kp;
    int64_t oi[GIR_MAX_RANK], ki[GIR_MAX_RANK];
    int32_t xz = zp_at(xzp, 0);
    GirWindow g;
    int a;
    gir_window(n, xt, &y->type, wt->dims + 2, &g);
    in_plane = gir_dims_prod(g.in, 0, g.nsp);
    out_plane = gir_dims_prod(g.out, 0, g.nsp);
    ksz = gir_dims_prod(g.k, 0, g.nsp);
    for (nb = 0; nb < N; nb++) {
        for (oc = 0; oc < M; oc++) {
            int64_t grp = oc / Mg;
            int32_t wz = zp_at(wzp, oc);
            memset(oi, 0, sizeof oi);
            for (op = 0; op < out_plane; op++) {
                int64_t acc = 0;
                for (ic = 0; ic < Cg; ic++) {
                    int64_t xb = (nb * C + grp * Cg + ic) * in_plane;
                    int64_t wb = (oc * Cg + ic) * ksz;
                    memset(ki, 0, sizeof ki);
                    for (kp = 0; kp < ksz; kp++) {
                        int64_t off = 0;
                        int inside = 1;
                        for (a = 0; a < g.nsp; a++) {
                            int64_t c = oi[a] * g.s[a] + ki[a] * g.d[a] - g.pb[a];
                            if (c < 0 || c >= g.in[a]) {
                                inside = 0;
                                break;
                            }
                            off = off * g.in[a] + c;
                        }
                        if (inside)
                            acc += (int64_t)(ld_q(x, xb + off) - xz) *
                                   (ld_q(w, wb + kp) - wz);
                        gir_next_index(ki, g.k, g.nsp);
                    }
                }
                emit(n, ins, y, oc, (nb * M + oc) * out_plane + op, acc);
                gir_next_index(oi, g.out, g.nsp);
            }
        }
    }
}

/* int32 results wrap as in ONNX runtimes; through unsigned, no overflow. */
static void emit_i32(const GirNode *n, const GirTensor *const *ins, GirTensor *y, int64_t oc,
                     int64_t i, int64_t acc)
{
    (void)n;
    (void)ins;
    (void)oc;
    ((int32_t *)y->data)[i] = (int32_t)(uint32_t)(uint64_t)acc;
}

static void emit_qlinear(const GirNode *n, const GirTensor *const *ins, GirTensor *y,
                         int64_t oc, int64_t i, int64_t acc)
{
    const GirTensor *b = arg(n, ins, 8);
    double m = scale_at(ins[1], 0) * scale_at(ins[4], oc) / scale_at(ins[6], 0);
    if (b)
        acc += ((const int32_t *)b->data)[oc];
    st_sat(y, i, (double)(int32_t)(uint32_t)(uint64_t)acc * m, zp_at(ins[7], 0));
}

int gir_qonnx_eval_convinteger(const GirNode *n, const GirTensor *const *ins,
                               GirTensor *const *outs, GirError *e)
{
    (void)e;
    conv_int(n, ins, ins[0], arg(n, ins, 2), ins[1], arg(n, ins, 3), outs[0], emit_i32);
    return 0;
}

int gir_qonnx_eval_qlinearconv(const GirNode *n, const GirTensor *const *ins,
                               GirTensor *const *outs, GirError *e)
{
    if (!(scale_at(ins[6], 0) > 0))
        return gir_node_fail(n, e, "y_scale must be positive, is %g", scale_at(ins[6], 0));
    conv_int(n, ins, ins[0], ins[2], ins[3], ins[5], outs[0], emit_qlinear);
    return 0;
}

/* Integer matmul with numpy batch broadcasting; a_zp per row of A, b_zp
 * per column of B (or per tensor).  emit gets row i, column j. */
typedef void MmEmitFn(const GirTensor *const *ins, GirTensor *y, int64_t i, int64_t j,
                      int64_t at, int64_t acc);

static void matmul_int(const GirTensor *const *ins, const GirTensor *a, const GirTensor *azp,
                       const GirTensor *b, const GirTensor *bzp, GirTensor *y, MmEmitFn *emit)
{
    const GirType *at = &a->type, *bt = &b->type, *yt = &y->type;
    int ra = at->rank, rb = bt->rank, nbat, d;
    int64_t M = ra >= 2 ? at->dims[ra - 2] : 1, K = at->dims[ra - 1];
    int64_t N = rb >= 2 ? bt->dims[rb - 1] : 1;
    int64_t bdims[GIR_MAX_RANK], sa[GIR_MAX_RANK], sb[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0};
    int64_t batches, bi, i, j, k;
    nbat = yt->rank - (ra >= 2) - (rb >= 2);
    for (d = 0; d < nbat; d++) {
        int da = d - (nbat - (ra - 2)), db = d - (nbat - (rb - 2));
        bdims[d] = yt->dims[d];
        sa[d] = ra > 2 && da >= 0 && at->dims[da] != 1
                    ? M * K * gir_dims_prod(at->dims, da + 1, ra - 2)
                    : 0;
        sb[d] = rb > 2 && db >= 0 && bt->dims[db] != 1
                    ? K * N * gir_dims_prod(bt->dims, db + 1, rb - 2)
                    : 0;
    }
    batches = gir_dims_prod(bdims, 0, nbat);
    for (bi = 0; bi < batches; bi++) {
        int64_t oa = 0, ob = 0;
        for (d = 0; d < nbat; d++) {
            oa += idx[d] * sa[d];
            ob += idx[d] * sb[d];
        }
        for (i = 0; i < M; i++) {
            int32_t az = zp_at(azp, i);
            for (j = 0; j < N; j++) {
                int32_t bz = zp_at(bzp, j);
                int64_t acc = 0;
                for (k = 0; k < K; k++)
                    acc += (int64_t)(ld_q(a, oa + i * K + k) - az) *
                           (ld_q(b, ob + k * N + j) - bz);
                emit(ins, y, i, j, bi * M * N + i * N + j, acc);
            }
        }
        gir_next_index(idx, bdims, nbat);
    }
}

static void mm_emit_i32(const GirTensor *const *ins, GirTensor *y, int64_t i, int64_t j,
                        int64_t at, int64_t acc)
{
    (void)ins;
    (void)i;
    (void)j;
    ((int32_t *)y->data)[at] = (int32_t)(uint32_t)(uint64_t)acc;
}

static void mm_emit_qlinear(const GirTensor *const *ins, GirTensor *y, int64_t i, int64_t j,
                            int64_t at, int64_t acc)
{
    double m = scale_at(ins[1], i) * scale_at(ins[4], j) / scale_at(ins[6], 0);
    st_sat(y, at, (double)acc * m, zp_at(ins[7], 0));
}

int gir_qonnx_eval_matmulinteger(const GirNode *n, const GirTensor *const *ins,
                                 GirTensor *const *outs, GirError *e)
{
    (void)n;
    (void)e;
    matmul_int(ins, ins[0], arg(n, ins, 2), ins[1], arg(n, ins, 3), outs[0], mm_emit_i32);
    return 0;
}

int gir_qonnx_eval_qlinearmatmul(const GirNode *n, const GirTensor *const *ins,
                                 GirTensor *const *outs, GirError *e)
{
    if (!(scale_at(ins[6], 0) > 0))
        return gir_node_fail(n, e, "y_scale must be positive, is %g", scale_at(ins[6], 0));
    matmul_int(ins, ins[0], ins[2], ins[3], ins[5], outs[0], mm_emit_qlinear);
    return 0;
}
