/*
 * fp32 kernels (and the other float and integer types where the
 * interpreter computes them alike): 1-D to 3-D Conv with bias and its
 * fused activation (the row form; 2-D group 1 goes to conv_blocked.c),
 * unary elementwise ops, broadcast arithmetic, comparisons and logic, the
 * unary ops the interpreter computes in double, the reductions, Softmax
 * and its kin, BatchNormalization, Cast, CumSum, the two losses.  Shapes,
 * strides and pads are constants of the emitted code, so LLVM can unroll
 * and vectorize the inner loops for the host CPU.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int64_t numel(const GirGraph *g, int v) { return gir_type_numel(&g->vals[v].type); }

/*
 * Conv, 1-D, 2-D or 3-D (1-D as height 1), any group, stride, dilation,
 * padding (auto_pad SAME as gir_window splits it), weights constant or
 * not.  The outer loop runs over
 * (batch, output channel, output depth) planes.  Per output row: the row starts at the
 * bias, each (input channel, kernel row) inside the input adds, for each
 * kernel column (unrolled here), weight * input row between bounds worked
 * out now (a 3-D kernel: per depth tap inside the input), so the
 * innermost loop has no branch and runs along memory; then
 * the fused activation and the elementwise chain fused into the Conv
 * (chain.c), if any, whose last link's output is then the one written.
 * The same summation order as the interpreter.
 */
static int emit_conv(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *wt = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    int has_b = n->nin > 2 && n->in[2] >= 0;
    int64_t N = xt->dims[0], C = xt->dims[1], H, W, M = wt->dims[0], Cg = wt->dims[1], KH, KW;
    int64_t OH, OW, G = gir_attr_int(n, "group", 1), Mg, *s, *d, *p, kx;
    KlvWin2 win;
    KlvDepth dp;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef x, w, bias_p, y, plane, nb, oc, grp, bias, yp, od;
    KlvLoop lp, loy, lox, lic, lky, lk, lkd;
    int nch = klv_chain_pool(ir, g) ? 0 : ir->nchain; /* a pooling link is not for this kernel */
    if (wt->rank != xt->rank || G < 1 || M % G != 0 || !klv_win3(n, xt, yt, wt->dims + 2, &win, &dp) ||
        (has_b && g->vals[n->in[2]].type.dtype != GIR_DT_F32) || wt->dtype != GIR_DT_F32)
        return 0;
    Mg = M / G;
    H = win.H, W = win.W, KH = win.KH, KW = win.KW, OH = win.OH, OW = win.OW;
    s = win.s, d = win.d, p = win.p;

    klv_kernel_begin(ir, name);
    x = klv_arg(ir, 0);
    w = klv_arg(ir, 1);
    bias_p = has_b ? klv_arg(ir, 2) : NULL;
    y = klv_arg(ir, n->nin);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    /* step iv: plane (batch, output channel) iv / OD, output depth iv % OD */
    plane = LLVMBuildUDiv(b, lp.iv, klv_i64(ir, dp.OD), "");
    od = LLVMBuildURem(b, lp.iv, klv_i64(ir, dp.OD), "");
    nb = LLVMBuildSDiv(b, plane, klv_i64(ir, M), "");
    oc = LLVMBuildSRem(b, plane, klv_i64(ir, M), "");
    grp = LLVMBuildSDiv(b, oc, klv_i64(ir, Mg), "");
    bias = has_b ? klv_load(ir, ir->f32, bias_p, oc) : klv_f32c(ir, 0.0);
    yp = klv_gep(ir, ir->f32, y, klv_mul(ir, lp.iv, klv_i64(ir, OH * OW)));
    loy = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OH));
    {
        LLVMValueRef yr = klv_gep(ir, ir->f32, yp, klv_mul(ir, loy.iv, klv_i64(ir, OW)));
        LLVMValueRef cbase;
        lox = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OW));
        klv_store(ir, ir->f32, yr, lox.iv, bias);
        klv_loop_end(ir, &lox);
        /* first input channel of this plane's group, in planes */
        cbase = klv_add(ir, klv_mul(ir, nb, klv_i64(ir, C)), klv_mul(ir, grp, klv_i64(ir, Cg)));
        lic = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, Cg));
        {
            LLVMValueRef xp = klv_gep(ir, ir->f32, x,
                                      klv_mul(ir, klv_add(ir, cbase, lic.iv), klv_i64(ir, dp.D * H * W)));
            LLVMValueRef wp = klv_gep(
                ir, ir->f32, w,
                klv_mul(ir, klv_add(ir, klv_mul(ir, oc, klv_i64(ir, Cg)), lic.iv),
                        klv_i64(ir, dp.KD * KH * KW)));
            /* a 3-D kernel's depth taps outside, those in the padding skipped */
            LLVMValueRef iz;
            LLVMBasicBlockRef zin = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "zin");
            LLVMBasicBlockRef zskip = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "zskip");
            lkd = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, dp.KD));
            iz = klv_add(ir, klv_affine(ir, od, dp.s, -dp.pb), klv_affine(ir, lkd.iv, dp.d, 0));
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, iz, klv_i64(ir, dp.D), ""), zin, zskip);
            LLVMPositionBuilderAtEnd(b, zin);
            xp = klv_gep(ir, ir->f32, xp, klv_mul(ir, iz, klv_i64(ir, H * W)));
            wp = klv_gep(ir, ir->f32, wp, klv_mul(ir, lkd.iv, klv_i64(ir, KH * KW)));
            lky = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, KH));
            {
                LLVMValueRef iy = klv_add(ir, klv_affine(ir, loy.iv, s[0], -p[0]),
                                          klv_affine(ir, lky.iv, d[0], 0));
                LLVMValueRef inside = LLVMBuildICmp(b, LLVMIntULT, iy, klv_i64(ir, H), "");
                LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "in");
                LLVMBasicBlockRef skip = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "skip");
                LLVMValueRef xr, wr;
                LLVMBuildCondBr(b, inside, then, skip);
                LLVMPositionBuilderAtEnd(b, then);
                xr = klv_gep(ir, ir->f32, xp, klv_mul(ir, iy, klv_i64(ir, W)));
                wr = klv_gep(ir, ir->f32, wp, klv_mul(ir, lky.iv, klv_i64(ir, KW)));
                for (kx = 0; kx < KW; kx++) {
                    int64_t off = kx * d[1] - p[1];
                    int64_t lo = off >= 0 ? 0 : (-off + s[1] - 1) / s[1];
                    int64_t hi = W - 1 - off < 0 ? 0 : (W - 1 - off) / s[1] + 1;
                    LLVMValueRef wv = klv_load(ir, ir->f32, wr, klv_i64(ir, kx));
                    if (hi > OW)
                        hi = OW;
                    if (lo >= hi)
                        continue;
                    lk = klv_loop_begin(ir, klv_i64(ir, lo), klv_i64(ir, hi));
                    {
                        LLVMValueRef xv = klv_load(ir, ir->f32, xr, klv_affine(ir, lk.iv, s[1], off));
                        LLVMValueRef yv = klv_load(ir, ir->f32, yr, lk.iv);
                        klv_store(ir, ir->f32, yr, lk.iv,
                                  LLVMBuildFAdd(b, yv, LLVMBuildFMul(b, wv, xv, ""), ""));
                    }
                    klv_loop_end(ir, &lk);
                }
                LLVMBuildBr(b, skip);
                LLVMPositionBuilderAtEnd(b, skip);
            }
            klv_loop_end(ir, &lky);
            LLVMBuildBr(b, zskip);
            LLVMPositionBuilderAtEnd(b, zskip);
            klv_loop_end(ir, &lkd);
        }
        klv_loop_end(ir, &lic);
        if (gir_attr_string(n, "act", NULL) || nch) {
            LLVMValueRef v, at;
            lox = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OW));
            v = klv_load(ir, ir->f32, yr, lox.iv);
            if (gir_attr_string(n, "act", NULL))
                v = klv_act_f32(ir, n, v);
            /* a fused chain (chain.c): element at of the Conv's output */
            at = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, lp.iv, klv_i64(ir, OH)), loy.iv),
                                     klv_i64(ir, OW)),
                         lox.iv);
            if (nch)
                v = klv_chain_apply(ir, g, n->out[0], n->nin + n->nout, nch, v, at);
            klv_store(ir, ir->f32, yr, lox.iv, v);
            klv_loop_end(ir, &lox);
        }
    }
    klv_loop_end(ir, &loy);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->chained = nch;
    plan->range = N * M * dp.OD;
    plan->work = OH * OW * Cg * dp.KD * KH * KW;
    return 1;
}

/* The taps of one axis of a ConvTranspose (geometry g, axis d): per
 * output coordinate o, cnt[o] pairs (input index, kernel index) in
 * ascending input index, at tab[(o * T + t) * 2]; T, the most of any
 * output, returned.  Input i reaches o through kernel index k when
 * o = i * s + k * dil - pb. */
static int64_t convt_taps(const GirWindow *g, int d, int32_t *cnt, int32_t *tab, int64_t T)
{
    int64_t o, i, most = 0;
    for (o = 0; o < g->out[d]; o++) {
        int64_t c = 0;
        for (i = 0; i < g->in[d]; i++) {
            int64_t k = o + g->pb[d] - i * g->s[d];
            if (k < 0 || k % g->d[d] != 0 || k / g->d[d] >= g->k[d])
                continue;
            if (tab && c < T) {
                tab[(o * T + c) * 2] = (int32_t)i;
                tab[(o * T + c) * 2 + 1] = (int32_t)(k / g->d[d]);
            }
            c++;
        }
        if (cnt)
            cnt[o] = (int32_t)c;
        most = c > most ? c : most;
    }
    return most;
}

/*
 * ConvTranspose, 1-D, 2-D or 3-D, any group, stride, dilation and padding
 * (the geometry of gir_convt_window).  The interpreter scatters: each
 * input element adds x * w into the outputs it reaches, channel by
 * channel, in row-major input order.  Here each output gathers the same
 * products in the same order (bias, then per input channel of its group
 * the input pixels that reach it by ascending depth, row and column), with
 * per-axis tap tables made now, so the sums are the interpreter's,
 * rounding for rounding.  A 1-D or 2-D one is a 3-D one whose missing
 * axes have extent 1 (one tap, index 0).  Outer loop over (batch, output
 * channel) planes.
 */
static int emit_convtranspose(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                              KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *wt = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    int has_b = n->nin > 2 && n->in[2] >= 0, d, r = xt->rank, lead;
    int64_t G = gir_attr_int(n, "group", 1), N, C, M, Mg, Cg, T[3], in[3], out[3], k[3];
    int64_t in_plane, out_plane, ksz;
    int32_t *cnt[3] = {NULL, NULL, NULL}, *tab[3] = {NULL, NULL, NULL};
    GirWindow gw, g3;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef x, w, y, bias, plane, nb, oc, grp, ml, yp, accp, nt[3], tt, ii[3], kk[3], xoff, woff;
    KlvLoop lp, lo[3], lic, lt[3];
    if (r < 3 || r > 5 || wt->rank != r || yt->rank != r || n->nout != 1 || G < 1 ||
        gir_attr_string(n, "act", NULL) || (has_b && g->vals[n->in[2]].type.dtype != GIR_DT_F32) ||
        wt->dtype != GIR_DT_F32)
        return 0;
    N = xt->dims[0], C = xt->dims[1], M = yt->dims[1];
    if (C % G != 0 || M % G != 0 || wt->dims[0] != C || wt->dims[1] * G != M)
        return 0;
    Cg = C / G, Mg = M / G;
    gir_convt_window(n, xt, wt->dims + 2, &gw);
    /* the spatial axes as three, the missing leading ones of extent 1 */
    lead = 5 - r;
    memset(&g3, 0, sizeof g3);
    g3.nsp = 3;
    for (d = 0; d < 3; d++) {
        int a = d - lead;
        g3.in[d] = a < 0 ? 1 : gw.in[a];
        g3.out[d] = a < 0 ? 1 : gw.out[a];
        g3.k[d] = a < 0 ? 1 : gw.k[a];
        g3.s[d] = a < 0 ? 1 : gw.s[a];
        g3.d[d] = a < 0 ? 1 : gw.d[a];
        g3.pb[d] = a < 0 ? 0 : gw.pb[a];
        if (a >= 0 && (gw.out[a] != yt->dims[a + 2] || gw.in[a] >= INT32_MAX))
            return 0;
        in[d] = g3.in[d], out[d] = g3.out[d], k[d] = g3.k[d];
    }
    for (d = 0; d < 3; d++) {
        T[d] = convt_taps(&g3, d, NULL, NULL, 0);
        if (T[d] == 0)
            T[d] = 1; /* no output reached: the tables still need a row */
        cnt[d] = malloc(sizeof(int32_t) * (size_t)out[d]);
        tab[d] = calloc((size_t)(out[d] * T[d] * 2), sizeof(int32_t));
        if (!cnt[d] || !tab[d]) {
            for (d = 0; d < 3; d++) {
                free(cnt[d]);
                free(tab[d]);
            }
            return 0;
        }
        convt_taps(&g3, d, cnt[d], tab[d], T[d]);
    }
    for (d = 0; d < 3; d++) {
        klv_plan_extra(plan, cnt[d], out[d] * 4, KLV_TABLE, 1);
        klv_plan_extra(plan, tab[d], out[d] * T[d] * 8, KLV_TABLE, 1);
    }
    in_plane = in[0] * in[1] * in[2];
    out_plane = out[0] * out[1] * out[2];
    ksz = k[0] * k[1] * k[2];
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, ir->f32, "acc");
    x = klv_arg(ir, 0);
    w = klv_arg(ir, 1);
    y = klv_arg(ir, n->nin);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    plane = lp.iv;
    nb = LLVMBuildSDiv(b, plane, klv_i64(ir, M), "");
    oc = LLVMBuildSRem(b, plane, klv_i64(ir, M), "");
    grp = LLVMBuildSDiv(b, oc, klv_i64(ir, Mg), "");
    ml = LLVMBuildSRem(b, oc, klv_i64(ir, Mg), "");
    bias = has_b ? klv_load(ir, ir->f32, klv_arg(ir, 2), oc) : klv_f32c(ir, 0.0);
    yp = klv_gep(ir, ir->f32, y, klv_mul(ir, plane, klv_i64(ir, out_plane)));
    for (d = 0; d < 3; d++) {
        lo[d] = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, out[d]));
        nt[d] = LLVMBuildSExt(b, klv_load(ir, ir->i32, klv_arg(ir, n->nin + 1 + 2 * d), lo[d].iv), ir->i64, "");
    }
    LLVMBuildStore(b, bias, accp);
    lic = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, Cg));
    {
        /* input channel c = grp * Cg + ic of batch nb; its weights
         * w[c][ml][..] */
        LLVMValueRef c = klv_add(ir, klv_mul(ir, grp, klv_i64(ir, Cg)), lic.iv);
        LLVMValueRef xp = klv_gep(ir, ir->f32, x,
                                  klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, C)), c),
                                          klv_i64(ir, in_plane)));
        LLVMValueRef wp = klv_gep(ir, ir->f32, w,
                                  klv_mul(ir, klv_add(ir, klv_mul(ir, c, klv_i64(ir, Mg)), ml),
                                          klv_i64(ir, ksz)));
        LLVMValueRef xv, wv;
        for (d = 0; d < 3; d++) {
            LLVMValueRef tp = klv_arg(ir, n->nin + 2 + 2 * d);
            lt[d] = klv_loop_begin(ir, klv_i64(ir, 0), nt[d]);
            tt = klv_affine(ir, klv_add(ir, klv_mul(ir, lo[d].iv, klv_i64(ir, T[d])), lt[d].iv), 2, 0);
            ii[d] = LLVMBuildSExt(b, klv_load(ir, ir->i32, tp, tt), ir->i64, "");
            kk[d] = LLVMBuildSExt(b, klv_load(ir, ir->i32, tp, klv_add(ir, tt, klv_i64(ir, 1))), ir->i64, "");
        }
        xoff = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, ii[0], klv_i64(ir, in[1])), ii[1]),
                                   klv_i64(ir, in[2])), ii[2]);
        woff = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, kk[0], klv_i64(ir, k[1])), kk[1]),
                                   klv_i64(ir, k[2])), kk[2]);
        xv = klv_load(ir, ir->f32, xp, xoff);
        wv = klv_load(ir, ir->f32, wp, woff);
        LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, ir->f32, accp, ""),
                                        LLVMBuildFMul(b, xv, wv, ""), ""), accp);
        for (d = 2; d >= 0; d--)
            klv_loop_end(ir, &lt[d]);
    }
    klv_loop_end(ir, &lic);
    klv_store(ir, ir->f32, yp,
              klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, lo[0].iv, klv_i64(ir, out[1])), lo[1].iv),
                                  klv_i64(ir, out[2])), lo[2].iv),
              LLVMBuildLoad2(b, ir->f32, accp, ""));
    for (d = 2; d >= 0; d--)
        klv_loop_end(ir, &lo[d]);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = N * M;
    plan->work = out_plane * Cg * T[0] * T[1] * T[2] * 2;
    return 1;
}

/* The tensor of constant input k of n (type and data) into t; 0 when it is
 * absent (t zeroed), 1 when constant, -1 when it is computed. */
static int const_input(const GirGraph *g, const GirNode *n, int k, GirTensor *t)
{
    memset(t, 0, sizeof *t);
    if (k >= n->nin || n->in[k] < 0)
        return 0;
    if (g->vals[n->in[k]].kind != GIR_VAL_CONST || !g->vals[n->in[k]].data)
        return -1;
    t->type = g->vals[n->in[k]].type;
    t->data = g->vals[n->in[k]].data;
    return 1;
}

#define RESIZE_COMBOS_MAX 64 /* taps per output element the lowering unrolls */

/*
 * Resize, linear or cubic, f32, any rank (nearest is a gather:
 * kernels_move.c).  The per-axis maps are the interpreter's
 * (gir_resize_axis), made now: for each moving axis, per output
 * coordinate, ntap input offsets (index times the axis's stride) and
 * weights in double.  An output element is, as in the interpreter, the sum
 * in double over the product of the moving axes' taps (the first moving
 * axis's tap varying fastest) of weight * x, a weight of 0 skipped, then
 * rounded to f32; with tf_crop_and_resize an element outside the crop box
 * on any axis is extrapolation_value.  The taps of the axes before the
 * last are read once per output row; outer loop over the rows.
 */
static int emit_resize(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *yt = &g->vals[n->out[0]].type;
    int r = yt->rank, d, k, nact = 0, act[GIR_MAX_RANK], ntap = 1, crop, ok = 1;
    int64_t xs[GIR_MAX_RANK], start[GIR_MAX_RANK], ntab = 0, combos = 1, rows, L, c, t;
    GirTensor roi, sc, sz;
    GirResizeAxis map[GIR_MAX_RANK];
    GirArena *a;
    int64_t *offs;
    double *wts;
    char *outside;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef x, y, to, tw, tout, rem, base, idx[GIR_MAX_RANK];
    LLVMValueRef rw[GIR_MAX_RANK][4], ro[GIR_MAX_RANK][4], rout = NULL;
    KlvLoop lr, lj;
    if (strcmp(gir_attr_string(n, "mode", "nearest"), "nearest") == 0 || r < 1 ||
        xt->rank != r || n->nout != 1 || const_input(g, n, 1, &roi) < 0 ||
        const_input(g, n, 2, &sc) < 0 || const_input(g, n, 3, &sz) < 0)
        return 0;
    if (sc.data && gir_type_numel(&sc.type) > 0 &&
        (sc.type.dtype != GIR_DT_F32 || gir_type_numel(&sc.type) != r))
        return 0;
    crop = strcmp(gir_attr_string(n, "coordinate_transformation_mode", "half_pixel"),
                  "tf_crop_and_resize") == 0;
    if (crop && (!roi.data || gir_type_numel(&roi.type) != 2 * r))
        return 0;
    for (t = 1, d = r - 1; d >= 0; d--) {
        xs[d] = t;
        t *= xt->dims[d];
    }
    if (gir_type_numel(yt) <= 0 || t <= 0)
        return 0;
    a = gir_arena_new();
    for (d = 0; d < r; d++) {
        gir_resize_axis(n, xt, yt, roi.data ? &roi : NULL, sc.data ? &sc : NULL, d, a, &map[d]);
        ntap = map[d].ntap;
        if (map[d].moving) {
            start[nact] = ntab;
            ntab += yt->dims[d] * ntap;
            act[nact++] = d;
            combos *= ntap;
            if (combos > RESIZE_COMBOS_MAX)
                ok = 0;
        }
    }
    if (!ok || nact == 0) {
        gir_arena_free(a);
        return 0;
    }
    offs = malloc(sizeof *offs * (size_t)ntab);
    wts = malloc(sizeof *wts * (size_t)ntab);
    outside = malloc((size_t)(ntab / ntap));
    if (!offs || !wts || !outside) {
        free(offs);
        free(wts);
        free(outside);
        gir_arena_free(a);
        return 0;
    }
    for (k = 0; k < nact; k++) {
        const GirResizeAxis *m = &map[act[k]];
        for (t = 0; t < yt->dims[act[k]] * ntap; t++) {
            offs[start[k] + t] = m->idx[t] * xs[act[k]];
            wts[start[k] + t] = m->w[t];
        }
        for (t = 0; t < yt->dims[act[k]]; t++)
            outside[start[k] / ntap + t] = m->outside[t];
    }
    gir_arena_free(a);
    klv_plan_extra(plan, offs, ntab * 8, KLV_TABLE, 1);
    klv_plan_extra(plan, wts, ntab * 8, KLV_TABLE, 1);
    klv_plan_extra(plan, outside, ntab / ntap, KLV_TABLE, 1);
    L = yt->dims[r - 1];
    rows = gir_type_numel(yt) / L;

    klv_kernel_begin(ir, name);
    x = klv_arg(ir, 0);
    y = klv_arg(ir, n->nin);
    to = klv_arg(ir, n->nin + 1);
    tw = klv_arg(ir, n->nin + 2);
    tout = klv_arg(ir, n->nin + 3);
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    rem = lr.iv;
    for (d = r - 2; d >= 0; d--) {
        idx[d] = LLVMBuildSRem(b, rem, klv_i64(ir, yt->dims[d]), "");
        rem = LLVMBuildSDiv(b, rem, klv_i64(ir, yt->dims[d]), "");
    }
    base = klv_i64(ir, 0);
    for (d = 0; d < r - 1; d++)
        if (!map[d].moving)
            base = klv_add(ir, base, klv_mul(ir, idx[d], klv_i64(ir, xs[d])));
    /* the taps of the moving axes before the last, once per row */
    for (k = 0; k < nact; k++) {
        if (act[k] == r - 1)
            continue;
        for (t = 0; t < ntap; t++) {
            LLVMValueRef at = klv_affine(ir, klv_mul(ir, idx[act[k]], klv_i64(ir, ntap)), 1,
                                         start[k] + t);
            rw[k][t] = klv_load(ir, dt, tw, at);
            ro[k][t] = klv_load(ir, ir->i64, to, at);
        }
        if (crop) {
            LLVMValueRef o = klv_load(ir, ir->i8, tout, klv_affine(ir, idx[act[k]], 1, start[k] / ntap));
            rout = rout ? LLVMBuildOr(b, rout, o, "") : o;
        }
    }
    lj = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, L));
    {
        LLVMValueRef acc = LLVMConstReal(dt, 0), ebase = base, eout = rout, v;
        if (map[r - 1].moving) {
            k = nact - 1; /* the last axis is the last moving one */
            for (t = 0; t < ntap; t++) {
                LLVMValueRef at = klv_affine(ir, klv_mul(ir, lj.iv, klv_i64(ir, ntap)), 1, start[k] + t);
                rw[k][t] = klv_load(ir, dt, tw, at);
                ro[k][t] = klv_load(ir, ir->i64, to, at);
            }
            if (crop) {
                LLVMValueRef o = klv_load(ir, ir->i8, tout, klv_affine(ir, lj.iv, 1, start[k] / ntap));
                eout = eout ? LLVMBuildOr(b, eout, o, "") : o;
            }
        } else {
            ebase = klv_add(ir, ebase, lj.iv);
        }
        for (c = 0; c < combos; c++) {
            LLVMValueRef wgt = LLVMConstReal(dt, 1), off = ebase, xv, sum;
            int64_t rest = c;
            for (k = 0; k < nact; k++) {
                wgt = LLVMBuildFMul(b, wgt, rw[k][rest % ntap], "");
                off = klv_add(ir, off, ro[k][rest % ntap]);
                rest /= ntap;
            }
            xv = LLVMBuildFPExt(b, klv_load(ir, ir->f32, x, off), dt, "");
            sum = LLVMBuildFAdd(b, acc, LLVMBuildFMul(b, wgt, xv, ""), "");
            acc = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNE, wgt, LLVMConstReal(dt, 0), ""),
                                  sum, acc, "");
        }
        v = LLVMBuildFPTrunc(b, acc, ir->f32, "");
        if (crop && eout)
            v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, eout, LLVMConstInt(ir->i8, 0, 0), ""),
                                klv_f32c(ir, (double)(float)gir_attr_float(n, "extrapolation_value", 0.0f)),
                                v, "");
        klv_store(ir, ir->f32, y, klv_add(ir, klv_mul(ir, lr.iv, klv_i64(ir, L)), lj.iv), v);
    }
    klv_loop_end(ir, &lj);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = rows;
    plan->work = L * combos * 4;
    return 1;
}

/* Elements per outer step of the flat elementwise kernels. */
#define CHUNK 4096

/* A flat kernel: the outer loop runs over chunks of CHUNK elements. */
static void flat_begin(KlvIr *ir, const char *name, int64_t total, KlvLoop *lc, KlvLoop *li)
{
    LLVMValueRef start, end;
    klv_kernel_begin(ir, name);
    *lc = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    start = klv_mul(ir, lc->iv, klv_i64(ir, CHUNK));
    end = klv_add(ir, start, klv_i64(ir, CHUNK));
    end = LLVMBuildSelect(ir->b, LLVMBuildICmp(ir->b, LLVMIntSGT, end, klv_i64(ir, total), ""),
                          klv_i64(ir, total), end, "");
    *li = klv_loop_begin(ir, start, end);
}

static void flat_end(KlvIr *ir, KlvLoop *lc, KlvLoop *li, int64_t total, KlvPlan *plan)
{
    klv_loop_end(ir, li);
    klv_loop_end(ir, lc);
    klv_kernel_end(ir);
    plan->range = (total + CHUNK - 1) / CHUNK;
    plan->work = CHUNK;
}

/* How cast() of interp.c reads an element of dtype t: 's' a signed
 * integer, 'u' an unsigned one or a bool, 'f' a float (f32, f64); 0 for
 * the types not lowered (bf16, strings, ...).  *et its LLVM type. */
static char cast_class(KlvIr *ir, GirDType t, LLVMTypeRef *et)
{
    switch (t) {
    case GIR_DT_F32: *et = ir->f32; return 'f';
    case GIR_DT_F64: *et = LLVMDoubleTypeInContext(ir->ctx); return 'f';
    case GIR_DT_F16: *et = LLVMHalfTypeInContext(ir->ctx); return 'f';
    case GIR_DT_I8: *et = ir->i8; return 's';
    case GIR_DT_I16: *et = LLVMInt16TypeInContext(ir->ctx); return 's';
    case GIR_DT_I32: *et = ir->i32; return 's';
    case GIR_DT_I64: *et = ir->i64; return 's';
    case GIR_DT_U64: *et = ir->i64; return 's'; /* ld_i: the bits as int64 */
    case GIR_DT_U8: *et = ir->i8; return 'u';
    case GIR_DT_BOOL: *et = ir->i8; return 'u';
    case GIR_DT_U16: *et = LLVMInt16TypeInContext(ir->ctx); return 'u';
    case GIR_DT_U32: *et = ir->i32; return 'u';
    default: return 0;
    }
}

/* Element v of integer dtype t widened to int64 as ld_i widens it. */
static LLVMValueRef widen_int(KlvIr *ir, GirDType t, LLVMValueRef v)
{
    LLVMTypeRef lt;
    if (LLVMTypeOf(v) == ir->i64)
        return v;
    return cast_class(ir, t, &lt) == 's' ? LLVMBuildSExt(ir->b, v, ir->i64, "") : LLVMBuildZExt(ir->b, v, ir->i64, "");
}

/* d2i of interp.c on a double: NaN 0, saturated at +-9.2e18, else
 * truncated; an i64. */
static LLVMValueRef d2i_value(KlvIr *ir, LLVMValueRef fv)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef t = LLVMBuildFPToSI(b, fv, ir->i64, "");
    t = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLE, fv, LLVMConstReal(dt, -9.2e18), ""),
                        klv_i64(ir, INT64_MIN), t, "");
    t = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGE, fv, LLVMConstReal(dt, 9.2e18), ""),
                        klv_i64(ir, INT64_MAX), t, "");
    return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, fv, fv, ""), klv_i64(ir, 0), t, "");
}

/* Cast and CastLike (cast() of interp.c), flat: integers widened to
 * int64 (ld_i), floats to double (ld_f); to bool x != 0; to an integer
 * from an integer the low bits, from a float d2i's (NaN 0, saturated at
 * +-9.2e18, else truncated) low bits; to a float from an integer
 * (double)int64, rounded to the float type. */
static int emit_cast(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan)
{
    GirDType from = g->vals[n->in[0]].type.dtype, to = g->vals[n->out[0]].type.dtype;
    int64_t total = numel(g, n->out[0]);
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef xt, yt, dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef x, r, iv = NULL, fv = NULL;
    char cf, ct;
    KlvLoop lc, li;
    if (n->nout != 1 || total <= 0 || !(cf = cast_class(ir, from, &xt)) || !(ct = cast_class(ir, to, &yt)))
        return 0;
    flat_begin(ir, name, total, &lc, &li);
    x = klv_load(ir, xt, klv_arg(ir, 0), li.iv);
    if (cf == 'f')
        fv = xt == dt ? x : LLVMBuildFPExt(b, x, dt, "");
    else
        iv = cf == 's' ? LLVMBuildSExt(b, x, ir->i64, "") : LLVMBuildZExt(b, x, ir->i64, "");
    if (to == GIR_DT_BOOL) {
        r = fv ? LLVMBuildFCmp(b, LLVMRealUNE, fv, LLVMConstReal(dt, 0), "")
               : LLVMBuildICmp(b, LLVMIntNE, iv, klv_i64(ir, 0), "");
        r = LLVMBuildZExt(b, r, ir->i8, "");
    } else if (ct != 'f') {
        if (fv)
            iv = d2i_value(ir, fv);
        r = yt == ir->i64 ? iv : LLVMBuildTrunc(b, iv, yt, "");
    } else {
        if (!fv)
            fv = LLVMBuildSIToFP(b, iv, dt, "");
        r = yt == dt ? fv : LLVMBuildFPTrunc(b, fv, yt, "");
    }
    if (to == GIR_DT_F16) /* through f32, as st_f */
        klv_store_f64(ir, to, klv_arg(ir, n->nin), li.iv, fv);
    else
        klv_store(ir, yt, klv_arg(ir, n->nin), li.iv, r);
    flat_end(ir, &lc, &li, total, plan);
    return 1;
}

/* Clip of f32 with bounds that are not constants (one-element f32
 * inputs, absent: -inf, +inf), as eval_CLIP: v < lo ? lo : v, then
 * v > hi ? hi : v (hi wins when lo > hi, NaN passes). */
static int emit_clip_dyn(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                         KlvPlan *plan)
{
    int64_t total = numel(g, n->out[0]);
    LLVMBuilderRef b = ir->b;
    LLVMValueRef lo, hi, v;
    KlvLoop lc, li;
    int k;
    for (k = 1; k < n->nin; k++)
        if (n->in[k] >= 0 && (g->vals[n->in[k]].type.dtype != GIR_DT_F32 || numel(g, n->in[k]) != 1))
            return 0;
    flat_begin(ir, name, total, &lc, &li);
    lo = n->nin > 1 && n->in[1] >= 0 ? klv_load(ir, ir->f32, klv_arg(ir, 1), klv_i64(ir, 0))
                                     : klv_f32c(ir, -INFINITY);
    hi = n->nin > 2 && n->in[2] >= 0 ? klv_load(ir, ir->f32, klv_arg(ir, 2), klv_i64(ir, 0))
                                     : klv_f32c(ir, INFINITY);
    v = klv_load(ir, ir->f32, klv_arg(ir, 0), li.iv);
    v = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, v, lo, ""), lo, v, "");
    v = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, hi, ""), hi, v, "");
    klv_store(ir, ir->f32, klv_arg(ir, n->nin), li.iv, v);
    flat_end(ir, &lc, &li, total, plan);
    return 1;
}

/* Trilu of any element type of 1, 2, 4 or 8 bytes (eval_TRILU): element
 * (r, c) of each matrix kept where c - r >= k (upper) or <= k (lower),
 * else 0; k from the optional input (int64), else 0.  Outer loop over the
 * matrix rows. */
static int emit_trilu(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                      KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int upper = gir_attr_int(n, "upper", 1) != 0, hask = n->nin > 1 && n->in[1] >= 0;
    int64_t R, C, rows;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef et;
    LLVMValueRef k, r, dlt, keep, v;
    KlvLoop lr, lc;
    switch (gir_dtype_size(t->dtype)) {
    case 1: et = ir->i8; break;
    case 2: et = LLVMInt16TypeInContext(ir->ctx); break;
    case 4: et = ir->i32; break;
    case 8: et = ir->i64; break;
    default: return 0;
    }
    if (t->rank < 2 || n->nout != 1 || (hask && (g->vals[n->in[1]].type.dtype != GIR_DT_I64 ||
                                                 numel(g, n->in[1]) < 1)))
        return 0;
    R = t->dims[t->rank - 2], C = t->dims[t->rank - 1];
    if (R <= 0 || C <= 0 || gir_type_numel(t) <= 0)
        return 0;
    rows = gir_type_numel(t) / C;
    klv_kernel_begin(ir, name);
    k = hask ? klv_load(ir, ir->i64, klv_arg(ir, 1), klv_i64(ir, 0)) : klv_i64(ir, 0);
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    r = LLVMBuildSRem(b, lr.iv, klv_i64(ir, R), "");
    lc = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, C));
    dlt = LLVMBuildSub(b, lc.iv, r, "");
    keep = LLVMBuildICmp(b, upper ? LLVMIntSGE : LLVMIntSLE, dlt, k, "");
    v = klv_load(ir, et, klv_arg(ir, 0), klv_add(ir, klv_mul(ir, lr.iv, klv_i64(ir, C)), lc.iv));
    klv_store(ir, et, klv_arg(ir, n->nin), klv_add(ir, klv_mul(ir, lr.iv, klv_i64(ir, C)), lc.iv),
              LLVMBuildSelect(b, keep, v, LLVMConstNull(et), ""));
    klv_loop_end(ir, &lc);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = rows;
    plan->work = C;
    return 1;
}

/* Relu, LeakyRelu, Sigmoid, Tanh, Clip with constant bounds. */
static int emit_unary(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                      KlvPlan *plan)
{
    int64_t total = numel(g, n->out[0]);
    float lo, hi;
    KlvLoop lc, li;
    LLVMValueRef x, y, v, r;
    if (!klv_clip_bounds(g, n, &lo, &hi))
        return 0;
    flat_begin(ir, name, total, &lc, &li);
    x = klv_arg(ir, 0);
    y = klv_arg(ir, n->nin);
    v = klv_load(ir, ir->f32, x, li.iv);
    r = klv_unary_f32(ir, n, lo, hi, v);
    klv_store(ir, ir->f32, y, li.iv, r);
    flat_end(ir, &lc, &li, total, plan);
    return 1;
}

/* YoloHead (eval_YOLO): the logistic 1 / (1 + expf(-x)) in f32 on every
 * channel but the box's w and h (entries 2 and 3 of each anchor's 5 +
 * classes), those copied. */
static int emit_yolo(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int64_t total = numel(g, n->out[0]), per = 5 + gir_attr_int(n, "classes", 0), plane, k;
    KlvLoop lc, li;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef v, sg, wh;
    if (n->nin != 1 || t->rank != 4 || per < 5 || total != gir_type_numel(t))
        return 0;
    plane = t->dims[2] * t->dims[3];
    flat_begin(ir, name, total, &lc, &li);
    v = klv_load(ir, ir->f32, klv_arg(ir, 0), li.iv);
    /* the entry of each anchor: channel (i / plane) % C, modulo 5 + classes */
    k = t->dims[1];
    wh = LLVMBuildSRem(b, LLVMBuildSRem(b, LLVMBuildSDiv(b, li.iv, klv_i64(ir, plane), ""), klv_i64(ir, k), ""),
                       klv_i64(ir, per), "");
    wh = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, wh, klv_i64(ir, 2), ""),
                     LLVMBuildICmp(b, LLVMIntEQ, wh, klv_i64(ir, 3), ""), "");
    sg = klv_sigmoid_f32(ir, v);
    klv_store(ir, ir->f32, klv_arg(ir, n->nin), li.iv, LLVMBuildSelect(b, wh, v, sg, ""));
    flat_end(ir, &lc, &li, total, plan);
    return 1;
}

/* Where operand v of a binary node reads for output element idx: idx / inner
 * % cnt, when v broadcasts to the output y along all axes but one run of
 * axes [lo, hi) where it has y's dims (right-aligned, as numpy does): a
 * same-shape operand (inner 1, cnt all), a scalar (cnt 1), a bias over the
 * last axes, a per-channel [C, 1, 1].  0 when v broadcasts otherwise. */
static int bcast_index(const GirType *v, const GirType *y, int64_t *inner, int64_t *cnt)
{
    int lo = -1, hi = -1, d;
    if (v->rank > y->rank)
        return 0;
    for (d = 0; d < y->rank; d++) {
        int dv = d - (y->rank - v->rank);
        int64_t ext = dv >= 0 ? v->dims[dv] : 1;
        if (ext == 1 && y->dims[d] != 1)
            continue;
        if (ext != y->dims[d])
            return 0;
        if (y->dims[d] == 1)
            continue;
        if (lo < 0)
            lo = d;
        else if (hi != d)
            return 0; /* a second run */
        hi = d + 1;
    }
    *inner = lo < 0 ? 1 : klv_dims_prod(y->dims, hi, y->rank);
    *cnt = lo < 0 ? 1 : klv_dims_prod(y->dims, lo, hi);
    return 1;
}

/* The element of operand k (ins[k], broadcast by inner, cnt) for idx. */
static LLVMValueRef bcast_load(KlvIr *ir, int k, int64_t inner, int64_t cnt, int64_t total,
                               LLVMValueRef idx)
{
    LLVMValueRef at = idx;
    if (cnt == 1)
        at = klv_i64(ir, 0);
    else if (cnt != total) {
        if (inner != 1)
            at = LLVMBuildUDiv(ir->b, at, klv_i64(ir, inner), "");
        at = LLVMBuildURem(ir->b, at, klv_i64(ir, cnt), "");
    }
    return klv_load(ir, ir->f32, klv_arg(ir, k), at);
}

/* One output element of an elementwise op of several f32 operands v[0..nv),
 * as the interpreter computes it: Add, Sub, Mul, Div in f32 (binary());
 * Pow, Mod (fmod) and PRelu (u < 0 ? v * u : u) in double (binop); Max,
 * Min (a NaN taken), Sum, Mean accumulated in double in operand order
 * (variadic()); rounded to f32.  Operands in double (f64 and f16 data,
 * which the interpreter computes in double throughout): all in double, the
 * result a double. */
static LLVMValueRef nary_value(KlvIr *ir, const GirNode *n, LLVMValueRef *v, int nv)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef u, w, r, acc;
    int k, dbl = LLVMTypeOf(v[0]) == d; /* operands in double: the result too */
#define WIDE(x) (dbl ? (x) : LLVMBuildFPExt(b, (x), d, ""))
#define NARROW(x) (dbl ? (x) : LLVMBuildFPTrunc(b, (x), ir->f32, ""))
    switch (n->op) {
    case GIR_OP_ADD:
    case GIR_OP_SUB:
    case GIR_OP_MUL:
    case GIR_OP_DIV:
        return klv_binary_f32(ir, n->op, v[0], v[1]);
    case GIR_OP_POW:
    case GIR_OP_MOD:
    case GIR_OP_PRELU:
        u = WIDE(v[0]);
        w = WIDE(v[1]);
        if (n->op == GIR_OP_PRELU)
            r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, u, LLVMConstReal(d, 0), ""),
                                LLVMBuildFMul(b, w, u, ""), u, "");
        else
            r = klv_call2_f64(ir, n->op == GIR_OP_POW ? "pow" : "fmod", u, w);
        return NARROW(r);
    default:
        acc = WIDE(v[0]);
        for (k = 1; k < nv; k++) {
            w = WIDE(v[k]);
            if (n->op == GIR_OP_MAX || n->op == GIR_OP_MIN) {
                LLVMValueRef take = LLVMBuildOr(
                    b, LLVMBuildFCmp(b, LLVMRealUNO, w, w, ""),
                    LLVMBuildFCmp(b, n->op == GIR_OP_MAX ? LLVMRealOGT : LLVMRealOLT, w, acc, ""), "");
                acc = LLVMBuildSelect(b, take, w, acc, "");
            } else {
                acc = LLVMBuildFAdd(b, acc, w, "");
            }
        }
        if (n->op == GIR_OP_MEAN)
            acc = LLVMBuildFDiv(b, acc, LLVMConstReal(d, (double)nv), "");
        return NARROW(acc);
    }
#undef WIDE
#undef NARROW
}

#define NARY_MAX 8 /* operands of a lowered elementwise op */

/* What emit_bcast computes for node n: 1 the f32 ops of nary_value; 2
 * comparisons of f32 into bool; 3 And, Or, Xor, Not of bool; 4 Where
 * (a bool condition, then two operands of the output's type); 5 Add,
 * Sub, Mul, Max, Min, Sum, BitShift of integers (not the int8 form's Add); 6
 * comparisons of integers; 7 Div and Mod of integers (guarded: a zero
 * divisor is the interpreter's error); 8 Pow of an f32 or integer base by
 * an f32 or integer exponent, in double; 9 kind 1's ops on f64 or f16, in
 * double; 0 none. */
static int is_intdt(GirDType t)
{
    return t == GIR_DT_I8 || t == GIR_DT_U8 || t == GIR_DT_I16 || t == GIR_DT_U16 ||
           t == GIR_DT_I32 || t == GIR_DT_U32 || t == GIR_DT_I64 || t == GIR_DT_U64;
}

/* f64 and f16: the float types the interpreter computes in double. */
static int wide_dt(GirDType t)
{
    return t == GIR_DT_F64 || t == GIR_DT_F16;
}

static int bcast_kind(const GirGraph *g, const GirNode *n)
{
    GirDType y = g->vals[n->out[0]].type.dtype, x = g->vals[n->in[0]].type.dtype;
    switch (n->op) {
    case GIR_OP_ADD: case GIR_OP_SUB: case GIR_OP_MUL:
        if (n->nin == 2 && is_intdt(y) && x == y && !gir_attr(n, "rq_shift"))
            return 5;
        return n->nin == 2 && y == GIR_DT_F32 ? 1 : n->nin == 2 && wide_dt(y) && x == y ? 9 : 0;
    case GIR_OP_DIV: case GIR_OP_MOD:
        if (n->nin == 2 && is_intdt(y) && x == y && g->vals[n->in[1]].type.dtype == y)
            return 7;
        return n->nin == 2 && y == GIR_DT_F32 ? 1 : n->nin == 2 && wide_dt(y) && x == y ? 9 : 0;
    case GIR_OP_POW:
        if (n->nin == 2 && y == GIR_DT_F32 && g->vals[n->in[1]].type.dtype == GIR_DT_F32)
            return 1;
        return n->nin == 2 && (y == GIR_DT_F32 || is_intdt(y)) && x == y ? 8 : 0;
    case GIR_OP_PRELU:
        return n->nin == 2 && y == GIR_DT_F32 ? 1 : n->nin == 2 && wide_dt(y) && x == y ? 9 : 0;
    case GIR_OP_MAX: case GIR_OP_MIN: case GIR_OP_SUM:
        if (is_intdt(y) && x == y)
            return 5;
        return y == GIR_DT_F32 ? 1 : wide_dt(y) && x == y ? 9 : 0;
    case GIR_OP_MEAN:
        return y == GIR_DT_F32 ? 1 : wide_dt(y) && x == y ? 9 : 0;
    case GIR_OP_BITSHIFT:
        return n->nin == 2 && is_intdt(y) && x == y && g->vals[n->in[1]].type.dtype == y ? 5 : 0;
    case GIR_OP_EQUAL: case GIR_OP_GREATER: case GIR_OP_LESS: case GIR_OP_GREATEROREQUAL:
    case GIR_OP_LESSOREQUAL:
        if (n->nin == 2 && is_intdt(x) && y == GIR_DT_BOOL)
            return 6;
        return n->nin == 2 && klv_is_float_dt(x) && y == GIR_DT_BOOL ? 2 : 0;
    case GIR_OP_AND: case GIR_OP_OR: case GIR_OP_XOR:
        return n->nin == 2 && x == GIR_DT_BOOL && y == GIR_DT_BOOL ? 3 : 0;
    case GIR_OP_NOT:
        return n->nin == 1 && x == GIR_DT_BOOL && y == GIR_DT_BOOL ? 3 : 0;
    case GIR_OP_WHERE:
        return n->nin == 3 && x == GIR_DT_BOOL ? 4 : 0;
    default:
        return 0;
    }
}

/* One output element of emit_bcast's kinds 2 to 4 (bcast_kind) from the
 * operands' elements v[]: as the interpreter, comparisons in double, the
 * logic ops on (x != 0), Where a select; bools are bytes 0 or 1. */
static LLVMValueRef bcast_value(KlvIr *ir, const GirNode *n, int kind, LLVMValueRef *v, int nv)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef zero = LLVMConstInt(ir->i8, 0, 0), c, u, w;
    LLVMRealPredicate pr;
    if (kind == 1 || kind == 9)
        return nary_value(ir, n, v, nv);
    if (kind == 5) {
        /* in int64, wrapping (the interpreter's uint64 arithmetic) */
        LLVMValueRef acc = v[0];
        int k;
        for (k = 1; k < nv; k++) {
            switch (n->op) {
            case GIR_OP_SUB: acc = LLVMBuildSub(b, acc, v[k], ""); break;
            case GIR_OP_BITSHIFT: {
                /* on the int64 bits as uint64; a shift of 64 or more: 0 */
                LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGE, v[k], klv_i64(ir, 64), "");
                LLVMValueRef sh = LLVMBuildSelect(b, big, klv_i64(ir, 0), v[k], "");
                acc = strcmp(gir_attr_string(n, "direction", ""), "LEFT") == 0 ? LLVMBuildShl(b, acc, sh, "")
                                                                                : LLVMBuildLShr(b, acc, sh, "");
                acc = LLVMBuildSelect(b, big, klv_i64(ir, 0), acc, "");
                break;
            }
            case GIR_OP_MUL: acc = LLVMBuildMul(b, acc, v[k], ""); break;
            case GIR_OP_MAX:
                acc = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, v[k], acc, ""), v[k], acc, "");
                break;
            case GIR_OP_MIN:
                acc = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, v[k], acc, ""), v[k], acc, "");
                break;
            default: acc = LLVMBuildAdd(b, acc, v[k], ""); break;
            }
        }
        return acc;
    }
    if (kind == 6) {
        LLVMIntPredicate ip;
        switch (n->op) {
        case GIR_OP_EQUAL: ip = LLVMIntEQ; break;
        case GIR_OP_GREATER: ip = LLVMIntSGT; break;
        case GIR_OP_LESS: ip = LLVMIntSLT; break;
        case GIR_OP_GREATEROREQUAL: ip = LLVMIntSGE; break;
        default: ip = LLVMIntSLE; break;
        }
        return LLVMBuildZExt(b, LLVMBuildICmp(b, ip, v[0], v[1], ""), ir->i8, "");
    }
    if (kind == 4)
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, v[0], zero, ""), v[1], v[2], "");
    if (kind == 2) {
        switch (n->op) {
        case GIR_OP_EQUAL: pr = LLVMRealOEQ; break;
        case GIR_OP_GREATER: pr = LLVMRealOGT; break;
        case GIR_OP_LESS: pr = LLVMRealOLT; break;
        case GIR_OP_GREATEROREQUAL: pr = LLVMRealOGE; break;
        default: pr = LLVMRealOLE; break;
        }
        c = LLVMBuildFCmp(b, pr, v[0], v[1], "");
    } else {
        u = LLVMBuildICmp(b, LLVMIntNE, v[0], zero, "");
        if (n->op == GIR_OP_NOT) {
            c = LLVMBuildNot(b, u, "");
        } else {
            w = LLVMBuildICmp(b, LLVMIntNE, v[1], zero, "");
            c = n->op == GIR_OP_AND ? LLVMBuildAnd(b, u, w, "")
                : n->op == GIR_OP_OR ? LLVMBuildOr(b, u, w, "")
                                     : LLVMBuildXor(b, u, w, "");
        }
    }
    return LLVMBuildZExt(b, c, ir->i8, "");
}

/* Div or Mod (n) of int64 u by v, as binary() and binop() of interp.c:
 * Div truncates, by -1 it negates (wrapping); Mod takes the divisor's sign
 * unless fmod = 1, by -1 it is 0.  A zero v gives 0 (the caller guards). */
static LLVMValueRef int_divmod(KlvIr *ir, const GirNode *n, LLVMValueRef u, LLVMValueRef v)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef zero = klv_i64(ir, 0), m1 = LLVMBuildICmp(b, LLVMIntEQ, v, klv_i64(ir, -1), "");
    LLVMValueRef odd = LLVMBuildOr(b, m1, LLVMBuildICmp(b, LLVMIntEQ, v, zero, ""), "");
    LLVMValueRef sv = LLVMBuildSelect(b, odd, klv_i64(ir, 1), v, ""), r, fix;
    if (n->op == GIR_OP_DIV)
        return LLVMBuildSelect(b, m1, LLVMBuildSub(b, zero, u, ""), LLVMBuildSDiv(b, u, sv, ""), "");
    r = LLVMBuildSelect(b, odd, zero, LLVMBuildSRem(b, u, sv, ""), "");
    if (gir_attr_int(n, "fmod", 0) != 0)
        return r;
    fix = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, r, zero, ""),
                       LLVMBuildICmp(b, LLVMIntNE, LLVMBuildICmp(b, LLVMIntSLT, r, zero, ""),
                                     LLVMBuildICmp(b, LLVMIntSLT, v, zero, ""), ""), "");
    return LLVMBuildSelect(b, fix, LLVMBuildAdd(b, r, v, ""), r, "");
}

/* Elementwise ops with numpy broadcasting (bcast_kind): the f32 ones
 * where emit_binary's forms do not fit (Add, Sub, Mul, Div, Pow) and Max,
 * Min, Sum, Mean, PRelu, Mod; comparisons of f32; And, Or, Xor, Not;
 * Where of any element type.  Outer loop over the rows of the result (all
 * axes but the last), each operand's row offset from its broadcast
 * strides (klv_bcast_strides); the last axis inner. */
static int emit_bcast(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                      KlvPlan *plan)
{
    const GirType *yt = &g->vals[n->out[0]].type;
    int64_t st[NARY_MAX][GIR_MAX_RANK], L, rows;
    int r = yt->rank, k, nv = n->nin, kind;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef et[NARY_MAX], yet;
    LLVMValueRef off[NARY_MAX], v[NARY_MAX], res;
    KlvLoop lr, lj;
    int guard = -1;
    GirType y1;
    if (nv < 1 || nv > NARY_MAX || n->nout != 1 || r < 0 || !(kind = bcast_kind(g, n)) ||
        !(yet = klv_elem_type(ir, yt->dtype)))
        return 0;
    if (r == 0) { /* a scalar result: one row of one */
        y1 = *yt;
        y1.rank = r = 1;
        y1.dims[0] = 1;
        yt = &y1;
    }
    for (k = 0; k < nv; k++) {
        const GirType *t;
        if (n->in[k] < 0)
            return 0;
        t = &g->vals[n->in[k]].type;
        /* kind 1: f32 operands; 2: f32; 3: bool; 4: bool, then y's type;
         * 5, 7, 9: y's type; 6: one integer type, 2: one float type; 8:
         * f32 or integers */
        if ((kind == 1 && t->dtype != GIR_DT_F32) || (kind == 3 && t->dtype != GIR_DT_BOOL) ||
            (kind == 2 && t->dtype != g->vals[n->in[0]].type.dtype) ||
            (kind == 9 && t->dtype != yt->dtype) ||
            (kind == 4 && t->dtype != (k == 0 ? GIR_DT_BOOL : yt->dtype)) ||
            ((kind == 5 || kind == 7) && t->dtype != yt->dtype) ||
            (kind == 8 && t->dtype != GIR_DT_F32 && !is_intdt(t->dtype)) ||
            (kind == 6 && t->dtype != g->vals[n->in[0]].type.dtype) ||
            !(et[k] = klv_elem_type(ir, t->dtype)) || !klv_bcast_strides(t, yt, st[k]))
            return 0;
    }
    L = yt->dims[r - 1];
    if (L <= 0 || gir_type_numel(yt) <= 0)
        return 0;
    rows = gir_type_numel(yt) / L;
    if (kind == 7 && (!ir->guard_ok || (guard = klv_plan_guard(plan, n)) < 0))
        return 0;
    klv_kernel_begin(ir, name);
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    klv_bcast_row(ir, lr.iv, yt, st, nv, off);
    lj = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, L));
    for (k = 0; k < nv; k++) {
        v[k] = klv_load(ir, et[k], klv_arg(ir, k), st[k][r - 1] ? klv_add(ir, off[k], lj.iv) : off[k]);
        if (kind == 8 || kind == 9) /* ld_f */
            v[k] = klv_to_f64(ir, g->vals[n->in[k]].type.dtype, v[k]);
        else if (kind >= 5) /* integers widened as ld_i */
            v[k] = widen_int(ir, g->vals[n->in[k]].type.dtype, v[k]);
    }
    if (kind == 7) {
        klv_guard(ir, guard, LLVMBuildICmp(b, LLVMIntEQ, v[1], klv_i64(ir, 0), ""));
        res = int_divmod(ir, n, v[0], v[1]);
    } else if (kind == 8) {
        res = klv_call2_f64(ir, "pow", v[0], v[1]);
        res = yt->dtype == GIR_DT_F32 ? LLVMBuildFPTrunc(b, res, ir->f32, "") : d2i_value(ir, res);
    } else {
        res = bcast_value(ir, n, kind, v, nv);
    }
    if ((kind == 5 || kind == 7 || (kind == 8 && yt->dtype != GIR_DT_F32)) && yet != ir->i64)
        res = LLVMBuildTrunc(b, res, yet, "");
    if (kind == 9) /* st_f */
        klv_store_f64(ir, yt->dtype, klv_arg(ir, nv), klv_add(ir, klv_mul(ir, lr.iv, klv_i64(ir, L)), lj.iv), res);
    else
        klv_store(ir, yet, klv_arg(ir, nv), klv_add(ir, klv_mul(ir, lr.iv, klv_i64(ir, L)), lj.iv), res);
    klv_loop_end(ir, &lj);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = rows;
    plan->work = L * (nv + 1);
    return 1;
}

/* Add, Sub, Mul, Div, Pow (in double) where each operand has the output's
 * shape, one element, or broadcasts along all axes but one run
 * (bcast_index). */
static int emit_binary(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *yt = &g->vals[n->out[0]].type;
    int64_t total = numel(g, n->out[0]), ia, ca, ib, cb;
    KlvLoop lc, li;
    LLVMValueRef u, v, r;
    if (g->vals[n->in[0]].type.dtype != GIR_DT_F32 || g->vals[n->in[1]].type.dtype != GIR_DT_F32)
        return 0;
    if (numel(g, n->in[0]) == total || numel(g, n->in[0]) == 1)
        ia = 1, ca = numel(g, n->in[0]);
    else if (!bcast_index(&g->vals[n->in[0]].type, yt, &ia, &ca))
        return 0;
    if (numel(g, n->in[1]) == total || numel(g, n->in[1]) == 1)
        ib = 1, cb = numel(g, n->in[1]);
    else if (!bcast_index(&g->vals[n->in[1]].type, yt, &ib, &cb))
        return 0;
    flat_begin(ir, name, total, &lc, &li);
    u = bcast_load(ir, 0, ia, ca, total, li.iv);
    v = bcast_load(ir, 1, ib, cb, total, li.iv);
    {
        LLVMValueRef uv[2] = {u, v};
        r = nary_value(ir, n, uv, 2);
    }
    klv_store(ir, ir->f32, klv_arg(ir, 2), li.iv, r);
    flat_end(ir, &lc, &li, total, plan);
    return 1;
}

/* GlobalAveragePool: per (batch, channel) plane the sum in double, then
 * divided and rounded to f32; GlobalMaxPool: the maximum in double (a NaN
 * never taken; an empty plane -inf) (the interpreter's arithmetic). */
static int emit_gap(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                    KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int64_t planes, plane;
    int mx = n->op == GIR_OP_GLOBALMAXPOOL;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef x, y, xp, acc, sum;
    KlvLoop lp, li;
    if (t->rank < 3)
        return 0;
    planes = t->dims[0] * t->dims[1];
    plane = gir_type_numel(t) / (planes ? planes : 1);
    klv_kernel_begin(ir, name);
    acc = LLVMBuildAlloca(b, d, "sum");
    x = klv_arg(ir, 0);
    y = klv_arg(ir, 1);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    xp = klv_gep(ir, ir->f32, x, klv_mul(ir, lp.iv, klv_i64(ir, plane)));
    LLVMBuildStore(b, LLVMConstReal(d, mx ? -INFINITY : 0), acc);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, plane));
    {
        LLVMValueRef v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, xp, li.iv), d, "");
        LLVMValueRef a = LLVMBuildLoad2(b, d, acc, "");
        LLVMBuildStore(b, mx ? LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, a, ""), v, a, "")
                             : LLVMBuildFAdd(b, a, v, ""),
                       acc);
    }
    klv_loop_end(ir, &li);
    sum = LLVMBuildLoad2(b, d, acc, "");
    if (mx)
        sum = LLVMBuildFPTrunc(b, sum, ir->f32, "");
    else
        sum = plane ? LLVMBuildFPTrunc(b, LLVMBuildFDiv(b, sum, LLVMConstReal(d, (double)plane), ""),
                                       ir->f32, "")
                    : klv_f32c(ir, 0);
    klv_store(ir, ir->f32, y, lp.iv, sum);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = planes;
    plan->work = plane;
    return 1;
}

/* The rows of a Softmax-like node n on type t: its axis (coerce2d, the
 * pre-13 form: all axes from axis on as one) splits t into outer x len x
 * inner; 0 when the axis is out of range or a count is not positive. */
static int softmax_rows(const GirNode *n, const GirType *t, int64_t *outer, int64_t *len,
                        int64_t *inner)
{
    int coerce = gir_attr_int(n, "coerce2d", 0) != 0;
    int64_t ax = gir_attr_int(n, "axis", coerce ? 1 : -1);
    if (ax < 0)
        ax += t->rank;
    if (t->rank < 1 || ax < 0 || ax >= t->rank)
        return 0;
    *outer = klv_dims_prod(t->dims, 0, ax);
    *len = coerce ? klv_dims_prod(t->dims, ax, t->rank) : t->dims[ax];
    *inner = coerce ? 1 : klv_dims_prod(t->dims, ax + 1, t->rank);
    return *outer > 0 && *len > 0 && *inner > 0;
}

/* Softmax along one axis (coerce2d: over all axes from axis on, the pre-13
 * form).  The outer loop runs over the rows (outer x inner); per row, as
 * the interpreter computes it: the maximum, expf(x - max) stored and summed
 * in double in order, then each stored value divided by the sum in double
 * and rounded to f32. */
static int emit_softmax(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                        KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int64_t outer, len, inner;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef x, y, mxp, sump, base, xp, yp, stride, at, v, mx, sum;
    KlvLoop lr, li;
    if (n->nin != 1 || !softmax_rows(n, t, &outer, &len, &inner))
        return 0;
    klv_kernel_begin(ir, name);
    mxp = LLVMBuildAlloca(b, ir->f32, "max");
    sump = LLVMBuildAlloca(b, d, "sum");
    x = klv_arg(ir, 0);
    y = klv_arg(ir, 1);
    stride = klv_i64(ir, inner);
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    /* row r = o * inner + in starts at o * len * inner + in */
    base = klv_add(ir, klv_mul(ir, LLVMBuildSDiv(b, lr.iv, stride, ""), klv_i64(ir, len * inner)),
                   LLVMBuildSRem(b, lr.iv, stride, ""));
    xp = klv_gep(ir, ir->f32, x, base);
    yp = klv_gep(ir, ir->f32, y, base);
    LLVMBuildStore(b, klv_f32c(ir, -INFINITY), mxp);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    v = klv_load(ir, ir->f32, xp, klv_mul(ir, li.iv, stride));
    mx = LLVMBuildLoad2(b, ir->f32, mxp, "");
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, mx, ""), v, mx, ""), mxp);
    klv_loop_end(ir, &li);
    mx = LLVMBuildLoad2(b, ir->f32, mxp, "");
    LLVMBuildStore(b, LLVMConstReal(d, 0), sump);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    at = klv_mul(ir, li.iv, stride);
    v = klv_call_f32(ir, "expf", LLVMBuildFSub(b, klv_load(ir, ir->f32, xp, at), mx, ""));
    klv_store(ir, ir->f32, yp, at, v);
    LLVMBuildStore(
        b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, d, sump, ""), LLVMBuildFPExt(b, v, d, ""), ""), sump);
    klv_loop_end(ir, &li);
    sum = LLVMBuildLoad2(b, d, sump, "");
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    at = klv_mul(ir, li.iv, stride);
    v = LLVMBuildFDiv(b, LLVMBuildFPExt(b, klv_load(ir, ir->f32, yp, at), d, ""), sum, "");
    klv_store(ir, ir->f32, yp, at, LLVMBuildFPTrunc(b, v, ir->f32, ""));
    klv_loop_end(ir, &li);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = outer * inner;
    plan->work = len * 24;
    return 1;
}

static LLVMValueRef call_f64(KlvIr *ir, const char *fname, LLVMValueRef x);

/* LogSoftmax and Hardmax along one axis (coerce2d: the pre-13 form), as
 * softmax_like of interp.c computes them in double: per row the first
 * maximum and its position, the sum of exp(x - max) in order, then
 * (x - max) - log(sum) rounded to f32, or 1 at the maximum's position and
 * 0 elsewhere.  Outer loop over the rows (outer x inner). */
static int emit_softmax_like(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                             KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int hard = n->op == GIR_OP_HARDMAX;
    int64_t outer, len, inner;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef x, y, mxp, atp, sump, base, xp, yp, stride, at, v, mx, pos, take, lsum;
    KlvLoop lr, li;
    if (n->nin != 1 || n->nout != 1 || !softmax_rows(n, t, &outer, &len, &inner))
        return 0;
    klv_kernel_begin(ir, name);
    mxp = LLVMBuildAlloca(b, d, "max");
    atp = LLVMBuildAlloca(b, ir->i64, "at");
    sump = LLVMBuildAlloca(b, d, "sum");
    x = klv_arg(ir, 0);
    y = klv_arg(ir, 1);
    stride = klv_i64(ir, inner);
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    base = klv_add(ir, klv_mul(ir, LLVMBuildSDiv(b, lr.iv, stride, ""), klv_i64(ir, len * inner)),
                   LLVMBuildSRem(b, lr.iv, stride, ""));
    xp = klv_gep(ir, ir->f32, x, base);
    yp = klv_gep(ir, ir->f32, y, base);
    LLVMBuildStore(b, LLVMConstReal(d, -INFINITY), mxp);
    LLVMBuildStore(b, klv_i64(ir, 0), atp);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, xp, klv_mul(ir, li.iv, stride)), d, "");
    mx = LLVMBuildLoad2(b, d, mxp, "");
    pos = LLVMBuildLoad2(b, ir->i64, atp, "");
    take = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOGT, v, mx, ""),
                       LLVMBuildICmp(b, LLVMIntEQ, li.iv, klv_i64(ir, 0), ""), "");
    LLVMBuildStore(b, LLVMBuildSelect(b, take, v, mx, ""), mxp);
    LLVMBuildStore(b, LLVMBuildSelect(b, take, li.iv, pos, ""), atp);
    klv_loop_end(ir, &li);
    mx = LLVMBuildLoad2(b, d, mxp, "");
    pos = LLVMBuildLoad2(b, ir->i64, atp, "");
    lsum = NULL;
    if (!hard) {
        LLVMBuildStore(b, LLVMConstReal(d, 0), sump);
        li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
        v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, xp, klv_mul(ir, li.iv, stride)), d, "");
        v = call_f64(ir, "exp", LLVMBuildFSub(b, v, mx, ""));
        LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, d, sump, ""), v, ""), sump);
        klv_loop_end(ir, &li);
        lsum = call_f64(ir, "log", LLVMBuildLoad2(b, d, sump, ""));
    }
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    at = klv_mul(ir, li.iv, stride);
    if (hard) {
        v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, li.iv, pos, ""), klv_f32c(ir, 1),
                            klv_f32c(ir, 0), "");
    } else {
        v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, xp, at), d, "");
        v = LLVMBuildFSub(b, LLVMBuildFSub(b, v, mx, ""), lsum, "");
        v = LLVMBuildFPTrunc(b, v, ir->f32, "");
    }
    klv_store(ir, ir->f32, yp, at, v);
    klv_loop_end(ir, &li);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = outer * inner;
    plan->work = len * (hard ? 4 : 40);
    return 1;
}

/* ArgMax, ArgMin of f32 along one axis (argext of interp.c): per row the
 * position of the first extreme (select_last_index: the last), the
 * comparisons of the interpreter (a NaN never taken after the first
 * element), into i64.  Outer loop over the rows (outer x inner). */
static int emit_argext(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int ismax = n->op == GIR_OP_ARGMAX, last = gir_attr_int(n, "select_last_index", 0) != 0;
    int64_t ax = gir_attr_int(n, "axis", 0), outer, len, inner;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef bvp, bestp, base, xp, v, bv, take;
    KlvLoop lr, li;
    if (ax < 0)
        ax += t->rank;
    if (t->rank < 1 || ax < 0 || ax >= t->rank || n->nout != 1 ||
        g->vals[n->out[0]].type.dtype != GIR_DT_I64)
        return 0;
    outer = klv_dims_prod(t->dims, 0, ax);
    len = t->dims[ax];
    inner = klv_dims_prod(t->dims, ax + 1, t->rank);
    if (outer <= 0 || len <= 0 || inner <= 0)
        return 0;
    klv_kernel_begin(ir, name);
    bvp = LLVMBuildAlloca(b, ir->f32, "best_v");
    bestp = LLVMBuildAlloca(b, ir->i64, "best");
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    base = klv_add(ir, klv_mul(ir, LLVMBuildSDiv(b, lr.iv, klv_i64(ir, inner), ""), klv_i64(ir, len * inner)),
                   LLVMBuildSRem(b, lr.iv, klv_i64(ir, inner), ""));
    xp = klv_gep(ir, ir->f32, klv_arg(ir, 0), base);
    LLVMBuildStore(b, klv_load(ir, ir->f32, xp, klv_i64(ir, 0)), bvp);
    LLVMBuildStore(b, klv_i64(ir, 0), bestp);
    li = klv_loop_begin(ir, klv_i64(ir, 1), klv_i64(ir, len));
    v = klv_load(ir, ir->f32, xp, klv_mul(ir, li.iv, klv_i64(ir, inner)));
    bv = LLVMBuildLoad2(b, ir->f32, bvp, "");
    take = LLVMBuildFCmp(b, ismax ? LLVMRealOGT : LLVMRealOLT, v, bv, "");
    if (last)
        take = LLVMBuildOr(b, take, LLVMBuildFCmp(b, LLVMRealOEQ, v, bv, ""), "");
    LLVMBuildStore(b, LLVMBuildSelect(b, take, v, bv, ""), bvp);
    LLVMBuildStore(b, LLVMBuildSelect(b, take, li.iv, LLVMBuildLoad2(b, ir->i64, bestp, ""), ""), bestp);
    klv_loop_end(ir, &li);
    klv_store(ir, ir->i64, klv_arg(ir, 1), lr.iv, LLVMBuildLoad2(b, ir->i64, bestp, ""));
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = outer * inner;
    plan->work = len * 2;
    return 1;
}

/* Whether operand type v broadcasts over the trailing axes of y as a
 * repeat of its numel elements (v's dims, leading 1s dropped, equal to y's
 * last ones): element i of y takes v's i % numel. */
static int trailing_repeat(const GirType *v, const GirType *y, int ylo)
{
    int lo = 0, d;
    while (lo < v->rank && v->dims[lo] == 1)
        lo++;
    if (v->rank - lo > y->rank - ylo)
        return 0;
    for (d = lo; d < v->rank; d++)
        if (v->dims[d] != y->dims[y->rank - (v->rank - d)])
            return 0;
    return 1;
}

/* LayerNormalization (eval_LAYERNORM of interp.c) over the axes from axis
 * on, with Scale and B each broadcast over the trailing normalized axes
 * (trailing_repeat): per
 * row, in double, the mean, the mean of squared differences, inv =
 * 1 / sqrt(var + epsilon), then ((x - mean) * inv) * scale + b rounded to
 * f32; the optional Mean and InvStdDev outputs rounded to f32.  Outer
 * loop over the rows.  InstanceNormalization (eval_INSTANCENORM) is the
 * same over each (batch, channel) plane with the channel's Scale and B. */
static int emit_layernorm(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                          KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int64_t ax = gir_attr_int(n, "axis", -1), outer, len, nsc, nb = 0;
    int has_b = n->nin > 2 && n->in[2] >= 0, k, inst = n->op == GIR_OP_INSTANCENORM;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef accp, xp, yp, mean, var, inv, v, sc, bi;
    KlvLoop lr, li;
    if (inst) {
        /* per (batch, channel) plane; Scale and B per channel */
        ax = 2;
        if (t->rank < 3 || n->nin != 3 || n->nout != 1 || numel(g, n->in[1]) != t->dims[1] ||
            numel(g, n->in[2]) != t->dims[1] || g->vals[n->in[1]].type.dtype != GIR_DT_F32 ||
            g->vals[n->in[2]].type.dtype != GIR_DT_F32)
            return 0;
    }
    if (ax < 0)
        ax += t->rank;
    if (t->rank < 1 || ax < 0 || ax >= t->rank || n->nin < 2 || n->nout > 3)
        return 0;
    for (k = 1; k < n->nout; k++)
        if (n->out[k] < 0 || g->vals[n->out[k]].type.dtype != GIR_DT_F32)
            return 0;
    outer = klv_dims_prod(t->dims, 0, ax);
    len = klv_dims_prod(t->dims, ax, t->rank);
    nsc = numel(g, n->in[1]);
    if (has_b)
        nb = numel(g, n->in[2]);
    if (outer <= 0 || len <= 0 || nsc <= 0 || g->vals[n->in[1]].type.dtype != GIR_DT_F32 ||
        (!inst && !trailing_repeat(&g->vals[n->in[1]].type, t, (int)ax)) ||
        (has_b && (nb <= 0 || g->vals[n->in[2]].type.dtype != GIR_DT_F32 ||
                   (!inst && !trailing_repeat(&g->vals[n->in[2]].type, t, (int)ax)))))
        return 0;
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, dt, "acc");
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    xp = klv_gep(ir, ir->f32, klv_arg(ir, 0), klv_mul(ir, lr.iv, klv_i64(ir, len)));
    yp = klv_gep(ir, ir->f32, klv_arg(ir, n->nin), klv_mul(ir, lr.iv, klv_i64(ir, len)));
    LLVMBuildStore(b, LLVMConstReal(dt, 0), accp);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, xp, li.iv), dt, "");
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, dt, accp, ""), v, ""), accp);
    klv_loop_end(ir, &li);
    mean = LLVMBuildFDiv(b, LLVMBuildLoad2(b, dt, accp, ""), LLVMConstReal(dt, (double)len), "");
    LLVMBuildStore(b, LLVMConstReal(dt, 0), accp);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    v = LLVMBuildFSub(b, LLVMBuildFPExt(b, klv_load(ir, ir->f32, xp, li.iv), dt, ""), mean, "");
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, dt, accp, ""), LLVMBuildFMul(b, v, v, ""), ""), accp);
    klv_loop_end(ir, &li);
    var = LLVMBuildFDiv(b, LLVMBuildLoad2(b, dt, accp, ""), LLVMConstReal(dt, (double)len), "");
    inv = LLVMBuildFDiv(b, LLVMConstReal(dt, 1),
                        call_f64(ir, "sqrt", LLVMBuildFAdd(b, var, LLVMConstReal(dt, (double)gir_attr_float(n, "epsilon", 1e-5f)), "")), "");
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    v = LLVMBuildFSub(b, LLVMBuildFPExt(b, klv_load(ir, ir->f32, xp, li.iv), dt, ""), mean, "");
    if (inst) {
        /* channel (row % C)'s */
        LLVMValueRef c = LLVMBuildURem(b, lr.iv, klv_i64(ir, nsc), "");
        sc = LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 1), c), dt, "");
        bi = LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 2), c), dt, "");
    } else {
        sc = LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 1),
                                        nsc == len ? li.iv : LLVMBuildURem(b, li.iv, klv_i64(ir, nsc), "")), dt, "");
        bi = has_b ? LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 2),
                                                nb == len ? li.iv : LLVMBuildURem(b, li.iv, klv_i64(ir, nb), "")), dt, "")
                   : LLVMConstReal(dt, 0);
    }
    v = LLVMBuildFAdd(b, LLVMBuildFMul(b, LLVMBuildFMul(b, v, inv, ""), sc, ""), bi, "");
    klv_store(ir, ir->f32, yp, li.iv, LLVMBuildFPTrunc(b, v, ir->f32, ""));
    klv_loop_end(ir, &li);
    if (n->nout > 1)
        klv_store(ir, ir->f32, klv_arg(ir, n->nin + 1), lr.iv, LLVMBuildFPTrunc(b, mean, ir->f32, ""));
    if (n->nout > 2)
        klv_store(ir, ir->f32, klv_arg(ir, n->nin + 2), lr.iv, LLVMBuildFPTrunc(b, inv, ir->f32, ""));
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = outer;
    plan->work = len * 8;
    return 1;
}

/* Call libm function fname of one double argument. */
static LLVMValueRef call_f64(KlvIr *ir, const char *fname, LLVMValueRef x)
{
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMTypeRef fty = LLVMFunctionType(d, &d, 1, 0);
    LLVMValueRef f = LLVMGetNamedFunction(ir->mod, fname);
    if (!f)
        f = LLVMAddFunction(ir->mod, fname, fty);
    return LLVMBuildCall2(ir->b, fty, f, &x, 1, "");
}

/* ---- GridSample ---- */

/* The module's function double kiln_gs_reflect(double x, double lo,
 * double hi): gs_reflect of interp.c, x folded into [lo, hi] by
 * reflection at both ends (both folds computed, the right one selected). */
static LLVMValueRef gs_reflect_fn(KlvIr *ir)
{
    static const char fname[] = "kiln_gs_reflect";
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx), pt[3] = {d, d, d};
    LLVMTypeRef fty = LLVMFunctionType(d, pt, 3, 0);
    LLVMValueRef f = LLVMGetNamedFunction(ir->mod, fname), x, lo, hi, range, two, fold[2], keep = ir->fn;
    LLVMBuilderRef b = ir->b;
    int k;
    if (f)
        return f;
    f = LLVMAddFunction(ir->mod, fname, fty);
    LLVMSetLinkage(f, LLVMInternalLinkage);
    ir->fn = f;
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ir->ctx, f, "entry"));
    x = LLVMGetParam(f, 0), lo = LLVMGetParam(f, 1), hi = LLVMGetParam(f, 2);
    range = LLVMBuildFSub(b, hi, lo, "");
    two = LLVMConstReal(d, 2);
    for (k = 0; k < 2; k++) {
        /* k = 0: below lo, 1: above hi */
        LLVMValueRef dd = k ? LLVMBuildFSub(b, x, hi, "") : LLVMBuildFSub(b, lo, x, "");
        LLVMValueRef q = call_f64(ir, "floor", LLVMBuildFDiv(b, dd, range, ""));
        LLVMValueRef r = LLVMBuildFSub(b, dd, LLVMBuildFMul(b, q, range, ""), "");
        LLVMValueRef even = LLVMBuildFCmp(b, LLVMRealOEQ, klv_call2_f64(ir, "fmod", q, two),
                                          LLVMConstReal(d, 0), "");
        LLVMValueRef a = LLVMBuildFAdd(b, lo, r, ""), c = LLVMBuildFSub(b, hi, r, "");
        fold[k] = k ? LLVMBuildSelect(b, even, c, a, "") : LLVMBuildSelect(b, even, a, c, "");
    }
    x = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, x, hi, ""), fold[1], x, "");
    x = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, LLVMGetParam(f, 0), lo, ""), fold[0], x, "");
    x = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLE, range, LLVMConstReal(d, 0), ""), lo, x, "");
    LLVMBuildRet(b, x);
    ir->fn = keep;
    return f;
}

/* Call kiln_gs_reflect. */
static LLVMValueRef gs_reflect(KlvIr *ir, LLVMValueRef x, double lo, double hi)
{
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx), pt[3] = {d, d, d};
    LLVMValueRef a[3] = {x, LLVMConstReal(d, lo), LLVMConstReal(d, hi)};
    return LLVMBuildCall2(ir->b, LLVMFunctionType(d, pt, 3, 0), gs_reflect_fn(ir), a, 3, "");
}

/* The sampling of one GridSample node. */
typedef struct {
    int64_t H, W; /* the input plane */
    int pad;      /* 0 zeros, 1 border, 2 reflection */
    int align;    /* align_corners */
} KlvGs;

/* gs_pixel of interp.c: pixel (r, c) (i64) of the plane at pl with the
 * padding rule for taps outside, as a double. */
static LLVMValueRef gs_pixel(KlvIr *ir, const KlvGs *s, LLVMValueRef pl, LLVMValueRef r, LLVMValueRef c)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef in, at, v;
    if (s->pad == 1) {
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, r, klv_i64(ir, 0), ""), klv_i64(ir, 0), r, "");
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGE, r, klv_i64(ir, s->H), ""), klv_i64(ir, s->H - 1), r, "");
        c = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, c, klv_i64(ir, 0), ""), klv_i64(ir, 0), c, "");
        c = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGE, c, klv_i64(ir, s->W), ""), klv_i64(ir, s->W - 1), c, "");
    } else if (s->pad == 2) {
        double lo = s->align ? 0 : -0.5;
        r = LLVMBuildFPToSI(b, gs_reflect(ir, LLVMBuildSIToFP(b, r, d, ""), lo, (double)s->H - 1 - lo), ir->i64, "");
        c = LLVMBuildFPToSI(b, gs_reflect(ir, LLVMBuildSIToFP(b, c, d, ""), lo, (double)s->W - 1 - lo), ir->i64, "");
    }
    in = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULT, r, klv_i64(ir, s->H), ""),
                      LLVMBuildICmp(b, LLVMIntULT, c, klv_i64(ir, s->W), ""), "");
    at = LLVMBuildSelect(b, in, klv_add(ir, klv_mul(ir, r, klv_i64(ir, s->W)), c), klv_i64(ir, 0), "");
    v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, pl, at), d, "");
    return LLVMBuildSelect(b, in, v, LLVMConstReal(d, 0), "");
}

/* gs_cubic of interp.c: the 4 weights (A = -0.75) around fraction t. */
static void gs_cubic(KlvIr *ir, LLVMValueRef t, LLVMValueRef *w)
{
    const double A = -0.75;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef one = LLVMConstReal(d, 1), x;
    int k;
    x = LLVMBuildFAdd(b, t, one, "");
    w[0] = LLVMBuildFSub(b, LLVMBuildFMul(b, LLVMBuildFAdd(b, LLVMBuildFMul(b, LLVMBuildFSub(b,
                         LLVMBuildFMul(b, LLVMConstReal(d, A), x, ""), LLVMConstReal(d, 5 * A), ""), x, ""),
                         LLVMConstReal(d, 8 * A), ""), x, ""), LLVMConstReal(d, 4 * A), "");
    for (k = 1; k < 3; k++) {
        x = k == 1 ? t : LLVMBuildFSub(b, one, t, "");
        w[k] = LLVMBuildFAdd(b, LLVMBuildFMul(b, LLVMBuildFMul(b, LLVMBuildFSub(b,
                             LLVMBuildFMul(b, LLVMConstReal(d, A + 2), x, ""), LLVMConstReal(d, A + 3), ""),
                             x, ""), x, ""), one, "");
    }
    w[3] = LLVMBuildFSub(b, LLVMBuildFSub(b, LLVMBuildFSub(b, one, w[0], ""), w[1], ""), w[2], "");
}

/* A grid coordinate g (double) of an axis of extent n as eval_GRIDSAMPLE
 * maps it: unnormalized, padded (border clamps, reflection folds), then
 * bounded to [-8, n + 8]. */
static LLVMValueRef gs_coord(KlvIr *ir, const KlvGs *s, LLVMValueRef g, int64_t n)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef one = LLVMConstReal(d, 1), two = LLVMConstReal(d, 2), x, lo, hi;
    if (s->align)
        x = LLVMBuildFMul(b, LLVMBuildFDiv(b, LLVMBuildFAdd(b, g, one, ""), two, ""), LLVMConstReal(d, (double)(n - 1)), "");
    else
        x = LLVMBuildFDiv(b, LLVMBuildFSub(b, LLVMBuildFMul(b, LLVMBuildFAdd(b, g, one, ""), LLVMConstReal(d, (double)n), ""),
                                           one, ""), two, "");
    if (s->pad == 1) {
        lo = LLVMConstReal(d, 0), hi = LLVMConstReal(d, (double)(n - 1));
        x = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, x, lo, ""), lo,
                            LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, x, hi, ""), hi, x, ""), "");
    } else if (s->pad == 2) {
        double l = s->align ? 0 : -0.5;
        x = gs_reflect(ir, x, l, (double)n - 1 - l);
    }
    lo = LLVMConstReal(d, -8.0), hi = LLVMConstReal(d, (double)n + 8);
    return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGE, x, lo, ""),
                           LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, x, hi, ""), hi, x, ""), lo, "");
}

/*
 * GridSample, 2-D, f32 (eval_GRIDSAMPLE of interp.c): per output row
 * (batch, i), per column j the grid point mapped once, then per channel
 * the nearest (rint), bilinear or bicubic taps with the padding rule, in
 * double in the interpreter's order, rounded to f32.  The mode is told
 * apart by the interpreter's own test of its letters.
 */
static int emit_gridsample(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                           KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *gt = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    const char *pad = gir_attr_string(n, "padding_mode", "zeros");
    int64_t N, C, Ho, Wo;
    int kind = gir_grid_sample_mode(gir_attr_string(n, "mode", "bilinear")), u, t;
    KlvGs s;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef bt, i, gi, x, y, pl, v, x0, y0, fx, fy, one, wx[4], wy[4], fl;
    KlvLoop lr, lj, lc;
    if (n->nin != 2 || n->nout != 1 || xt->rank != 4 || gt->rank != 4 || yt->rank != 4 ||
        gt->dtype != GIR_DT_F32 || gt->dims[3] != 2 || gt->dims[0] != xt->dims[0] ||
        yt->dims[0] != xt->dims[0] || yt->dims[1] != xt->dims[1] || yt->dims[2] != gt->dims[1] ||
        yt->dims[3] != gt->dims[2] || xt->dims[2] < 1 || xt->dims[3] < 1 || kind < 0)
        return 0;
    N = xt->dims[0], C = xt->dims[1], Ho = yt->dims[2], Wo = yt->dims[3];
    s.H = xt->dims[2];
    s.W = xt->dims[3];
    s.pad = pad[0] == 'z' ? 0 : pad[0] == 'b' ? 1 : 2;
    s.align = gir_attr_int(n, "align_corners", 0) != 0;
    if (s.pad == 2)
        gs_reflect_fn(ir);
    klv_kernel_begin(ir, name);
    one = LLVMConstReal(d, 1);
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    bt = LLVMBuildSDiv(b, lr.iv, klv_i64(ir, Ho), "");
    i = lr.iv;
    lj = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, Wo));
    gi = klv_mul(ir, klv_add(ir, klv_mul(ir, i, klv_i64(ir, Wo)), lj.iv), klv_i64(ir, 2));
    x = gs_coord(ir, &s, LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 1), gi), d, ""), s.W);
    y = gs_coord(ir, &s, LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 1), klv_add(ir, gi, klv_i64(ir, 1))), d, ""), s.H);
    x0 = y0 = fx = fy = NULL;
    if (kind == 0) {
        x0 = LLVMBuildFPToSI(b, klv_rint_f64(ir, x), ir->i64, "");
        y0 = LLVMBuildFPToSI(b, klv_rint_f64(ir, y), ir->i64, "");
    } else {
        x0 = LLVMBuildFPToSI(b, call_f64(ir, "floor", x), ir->i64, "");
        y0 = LLVMBuildFPToSI(b, call_f64(ir, "floor", y), ir->i64, "");
        if (kind == 1) {
            fx = LLVMBuildFSub(b, x, LLVMBuildSIToFP(b, x0, d, ""), "");
            fy = LLVMBuildFSub(b, y, LLVMBuildSIToFP(b, y0, d, ""), "");
        } else {
            fl = call_f64(ir, "floor", x);
            gs_cubic(ir, LLVMBuildFSub(b, x, fl, ""), wx);
            fl = call_f64(ir, "floor", y);
            gs_cubic(ir, LLVMBuildFSub(b, y, fl, ""), wy);
            x0 = LLVMBuildSub(b, x0, klv_i64(ir, 1), "");
            y0 = LLVMBuildSub(b, y0, klv_i64(ir, 1), "");
        }
    }
    lc = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, C));
    {
        LLVMValueRef p = klv_add(ir, klv_mul(ir, bt, klv_i64(ir, C)), lc.iv);
        pl = klv_gep(ir, ir->f32, klv_arg(ir, 0), klv_mul(ir, p, klv_i64(ir, s.H * s.W)));
        if (kind == 0) {
            v = gs_pixel(ir, &s, pl, y0, x0);
        } else if (kind == 1) {
            LLVMValueRef x1 = klv_add(ir, x0, klv_i64(ir, 1)), y1 = klv_add(ir, y0, klv_i64(ir, 1));
            LLVMValueRef gx = LLVMBuildFSub(b, one, fx, ""), gy = LLVMBuildFSub(b, one, fy, "");
            LLVMValueRef top = LLVMBuildFAdd(b, LLVMBuildFMul(b, gx, gs_pixel(ir, &s, pl, y0, x0), ""),
                                             LLVMBuildFMul(b, fx, gs_pixel(ir, &s, pl, y0, x1), ""), "");
            LLVMValueRef bot = LLVMBuildFAdd(b, LLVMBuildFMul(b, gx, gs_pixel(ir, &s, pl, y1, x0), ""),
                                             LLVMBuildFMul(b, fx, gs_pixel(ir, &s, pl, y1, x1), ""), "");
            v = LLVMBuildFAdd(b, LLVMBuildFMul(b, gy, top, ""), LLVMBuildFMul(b, fy, bot, ""), "");
        } else {
            v = LLVMConstReal(d, 0);
            for (u = 0; u < 4; u++)
                for (t = 0; t < 4; t++)
                    v = LLVMBuildFAdd(b, v, LLVMBuildFMul(b, LLVMBuildFMul(b, wy[u], wx[t], ""),
                                                          gs_pixel(ir, &s, pl, klv_add(ir, y0, klv_i64(ir, u)),
                                                                   klv_add(ir, x0, klv_i64(ir, t))), ""), "");
        }
        klv_store(ir, ir->f32, klv_arg(ir, 2),
                  klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, p, klv_i64(ir, Ho)),
                                                  LLVMBuildSRem(b, i, klv_i64(ir, Ho), "")), klv_i64(ir, Wo)), lj.iv),
                  LLVMBuildFPTrunc(b, v, ir->f32, ""));
    }
    klv_loop_end(ir, &lc);
    klv_loop_end(ir, &lj);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = N * Ho;
    plan->work = Wo * C * (kind == 2 ? 64 : 16);
    return 1;
}

/*
 * Einsum of float inputs and output (eval_EINSUM of interp.c, the equation
 * parsed by gir_einsum_parse).  The interpreter walks every combination of
 * the labels in label order and adds each product into its result
 * element, so each result element is the sum, in double from 0, over the
 * combinations of the labels not in the result in label order (the last
 * fastest) of the product of the inputs' elements in input order (in
 * double from 1).  One step per result element; the label values are
 * worked out from the element's and the combination's numbers by
 * constant divisions.
 */
static int emit_einsum(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *yt = &g->vals[n->out[0]].type;
    const char *eq = gir_attr_string(n, "equation", "");
    int ranks[GIR_EINSUM_MAX_IN], inout[GIR_EINSUM_LABELS] = {0}, sum[GIR_EINSUM_LABELS], nsum = 0;
    int i, j, k;
    int64_t size[GIR_EINSUM_LABELS], st[GIR_EINSUM_MAX_IN][GIR_MAX_RANK], ost[GIR_MAX_RANK];
    int64_t total = 1, ncomb = 1, ny = gir_type_numel(yt), cs;
    GirEinsum es;
    char why[256];
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef val[GIR_EINSUM_LABELS], accp, prod;
    KlvLoop lo, lc;
    if (n->nin < 1 || n->nin > GIR_EINSUM_MAX_IN || n->nout != 1 || !klv_is_float_dt(yt->dtype) ||
        ny < 1)
        return 0;
    for (i = 0; i < n->nin; i++) {
        if (n->in[i] < 0 || !klv_is_float_dt(g->vals[n->in[i]].type.dtype))
            return 0;
        ranks[i] = g->vals[n->in[i]].type.rank;
    }
    if (gir_einsum_parse(eq, n->nin, ranks, &es, why, sizeof why) || es.out_rank != yt->rank)
        return 0;
    for (i = 0; i < GIR_EINSUM_LABELS; i++)
        size[i] = -1;
    for (i = 0; i < n->nin; i++)
        for (j = 0; j < ranks[i]; j++)
            if (size[es.in_lab[i][j]] < 0 || size[es.in_lab[i][j]] == 1)
                size[es.in_lab[i][j]] = g->vals[n->in[i]].type.dims[j];
    for (j = 0; j < es.out_rank; j++) {
        if (size[es.out_lab[j]] != yt->dims[j] || inout[es.out_lab[j]])
            return 0;
        inout[es.out_lab[j]] = 1;
    }
    for (i = 0; i < GIR_EINSUM_LABELS; i++) {
        if (size[i] < 0)
            continue;
        if (size[i] > 0 && total > ((int64_t)1 << 34) / size[i])
            return 0;
        total *= size[i];
        if (!inout[i]) {
            sum[nsum++] = i;
            ncomb *= size[i];
        }
    }
    for (i = 0; i < n->nin; i++) {
        int64_t s1 = 1;
        const GirType *t = &g->vals[n->in[i]].type;
        for (j = ranks[i] - 1; j >= 0; j--) {
            st[i][j] = t->dims[j] == 1 ? 0 : s1;
            s1 *= t->dims[j];
        }
    }
    for (j = es.out_rank - 1, cs = 1; j >= 0; j--) {
        ost[j] = cs;
        cs *= yt->dims[j];
    }
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, dt, "acc");
    lo = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    for (j = 0; j < es.out_rank; j++)
        val[es.out_lab[j]] = LLVMBuildURem(b, LLVMBuildUDiv(b, lo.iv, klv_i64(ir, ost[j]), ""),
                                           klv_i64(ir, yt->dims[j]), "");
    LLVMBuildStore(b, LLVMConstReal(dt, 0), accp);
    lc = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, ncomb));
    for (k = nsum - 1, cs = 1; k >= 0; k--) {
        val[sum[k]] = LLVMBuildURem(b, LLVMBuildUDiv(b, lc.iv, klv_i64(ir, cs), ""),
                                    klv_i64(ir, size[sum[k]]), "");
        cs *= size[sum[k]];
    }
    prod = LLVMConstReal(dt, 1);
    for (i = 0; i < n->nin; i++) {
        LLVMValueRef off = klv_i64(ir, 0);
        for (j = 0; j < ranks[i]; j++)
            if (st[i][j])
                off = klv_add(ir, off, klv_mul(ir, val[es.in_lab[i][j]], klv_i64(ir, st[i][j])));
        prod = LLVMBuildFMul(b, prod, klv_load_f64(ir, g->vals[n->in[i]].type.dtype, klv_arg(ir, i), off), "");
    }
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, dt, accp, ""), prod, ""), accp);
    klv_loop_end(ir, &lc);
    klv_store_f64(ir, yt->dtype, klv_arg(ir, n->nin), lo.iv, LLVMBuildLoad2(b, dt, accp, ""));
    klv_loop_end(ir, &lo);
    klv_kernel_end(ir);
    plan->range = ny;
    plan->work = ncomb * (n->nin + 1) * 2;
    return 1;
}

/*
 * Det (eval_DET of interp.c): per matrix, Gaussian elimination with
 * partial pivoting in double on a copy on the stack, the interpreter's
 * steps in its order (the first largest |pivot|, a zero pivot ends with 0,
 * a row swap negates, no step once the product is 0), rounded as st_f
 * stores.  Matrices up to 64 x 64.
 */
static int emit_det(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                    KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *yt = &g->vals[n->out[0]].type;
    int64_t M, mats;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef w, detp, pp, base, c, p, v, piv, f, det, cm;
    LLVMBasicBlockRef j1, j2;
    KlvLoop lm, lk, lc, lr, lk2;
    if (n->nin != 1 || n->nout != 1 || xt->rank < 2 || !klv_is_float_dt(xt->dtype) ||
        !klv_is_float_dt(yt->dtype))
        return 0;
    M = xt->dims[xt->rank - 1];
    mats = gir_type_numel(yt);
    if (M < 1 || M > 64 || xt->dims[xt->rank - 2] != M || mats < 1 || mats * M * M != gir_type_numel(xt))
        return 0;
    klv_kernel_begin(ir, name);
    w = LLVMBuildArrayAlloca(b, dt, klv_i64(ir, M * M), "w");
    detp = LLVMBuildAlloca(b, dt, "det");
    pp = LLVMBuildAlloca(b, ir->i64, "p");
    lm = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    base = klv_mul(ir, lm.iv, klv_i64(ir, M * M));
    lk = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, M * M));
    klv_store(ir, dt, w, lk.iv, klv_load_f64(ir, xt->dtype, klv_arg(ir, 0), klv_add(ir, base, lk.iv)));
    klv_loop_end(ir, &lk);
    LLVMBuildStore(b, LLVMConstReal(dt, 1), detp);
    lc = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, M));
    c = lc.iv;
    cm = klv_mul(ir, c, klv_i64(ir, M));
    j1 = klv_if_begin(
        ir, LLVMBuildFCmp(b, LLVMRealUNE, LLVMBuildLoad2(b, dt, detp, ""), LLVMConstReal(dt, 0), ""),
        "step");
    /* the pivot row: the first of largest |w[r][c]| */
    LLVMBuildStore(b, c, pp);
    lr = klv_loop_begin(ir, klv_add(ir, c, klv_i64(ir, 1)), klv_i64(ir, M));
    p = LLVMBuildLoad2(b, ir->i64, pp, "");
    v = call_f64(ir, "fabs", klv_load(ir, dt, w, klv_add(ir, klv_mul(ir, lr.iv, klv_i64(ir, M)), c)));
    piv = call_f64(ir, "fabs", klv_load(ir, dt, w, klv_add(ir, klv_mul(ir, p, klv_i64(ir, M)), c)));
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, piv, ""), lr.iv, p, ""), pp);
    klv_loop_end(ir, &lr);
    p = LLVMBuildLoad2(b, ir->i64, pp, "");
    piv = klv_load(ir, dt, w, klv_add(ir, klv_mul(ir, p, klv_i64(ir, M)), c));
    {
        /* a zero pivot: the determinant is 0 (and no further step runs) */
        LLVMBasicBlockRef zero = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "zero");
        LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "go");
        LLVMBuildCondBr(b, LLVMBuildFCmp(b, LLVMRealOEQ, piv, LLVMConstReal(dt, 0), ""), zero, go);
        LLVMPositionBuilderAtEnd(b, zero);
        LLVMBuildStore(b, LLVMConstReal(dt, 0), detp);
        LLVMBuildBr(b, j1);
        LLVMPositionBuilderAtEnd(b, go);
    }
    j2 = klv_if_begin(ir, LLVMBuildICmp(b, LLVMIntNE, p, c, ""), "swap");
    lk = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, M));
    {
        LLVMValueRef a1 = klv_add(ir, cm, lk.iv), a2 = klv_add(ir, klv_mul(ir, p, klv_i64(ir, M)), lk.iv);
        LLVMValueRef t1 = klv_load(ir, dt, w, a1), t2 = klv_load(ir, dt, w, a2);
        klv_store(ir, dt, w, a1, t2);
        klv_store(ir, dt, w, a2, t1);
    }
    klv_loop_end(ir, &lk);
    LLVMBuildStore(b, LLVMBuildFNeg(b, LLVMBuildLoad2(b, dt, detp, ""), ""), detp);
    klv_if_end(ir, j2);
    det = LLVMBuildFMul(b, LLVMBuildLoad2(b, dt, detp, ""), klv_load(ir, dt, w, klv_add(ir, cm, c)), "");
    LLVMBuildStore(b, det, detp);
    lr = klv_loop_begin(ir, klv_add(ir, c, klv_i64(ir, 1)), klv_i64(ir, M));
    {
        LLVMValueRef rm = klv_mul(ir, lr.iv, klv_i64(ir, M));
        f = LLVMBuildFDiv(b, klv_load(ir, dt, w, klv_add(ir, rm, c)), klv_load(ir, dt, w, klv_add(ir, cm, c)), "");
        lk2 = klv_loop_begin(ir, c, klv_i64(ir, M));
        klv_store(ir, dt, w, klv_add(ir, rm, lk2.iv),
                  LLVMBuildFSub(b, klv_load(ir, dt, w, klv_add(ir, rm, lk2.iv)),
                                LLVMBuildFMul(b, f, klv_load(ir, dt, w, klv_add(ir, cm, lk2.iv)), ""), ""));
        klv_loop_end(ir, &lk2);
    }
    klv_loop_end(ir, &lr);
    klv_if_end(ir, j1);
    klv_loop_end(ir, &lc);
    klv_store_f64(ir, yt->dtype, klv_arg(ir, 1), lm.iv, LLVMBuildLoad2(b, dt, detp, ""));
    klv_loop_end(ir, &lm);
    klv_kernel_end(ir);
    plan->range = mats;
    plan->work = M * M * M;
    return 1;
}

/*
 * RoiAlign (eval_ROIALIGN of interp.c, the ONNX reference's sampling): one
 * step per output row (region, channel, bin row).  The region's box,
 * bins and sampling grid (sampling_ratio, else ceil of the bin size) are
 * worked out in double as the interpreter does; per bin the samples in
 * order, each bilinear from its four corners (clamped at the edge, a
 * sample farther out reads nothing), summed and averaged, or in max mode
 * the largest weighted corner.  Guarded: a batch index out of range or a
 * grid past 4096 goes to the interpreter.
 */
static int emit_roialign(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                         KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *rt, *bt, *yt = &g->vals[n->out[0]].type;
    int64_t C, H, W, R, oh, ow, sr = gir_attr_int(n, "sampling_ratio", 0);
    double scale = gir_attr_float(n, "spatial_scale", 1.0f);
    int half = strcmp(gir_attr_string(n, "coordinate_transformation_mode", "half_pixel"), "half_pixel") == 0;
    int is_max = strcmp(gir_attr_string(n, "mode", "avg"), "max") == 0, guard, q, k;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef row, ph, t, c, r, bi, bad, box[4], rw, rh, bw, bh, gh, gw, p, pl, accp, bestp, cnt;
    LLVMValueRef one, zero, y, x, yl, xl, yh, xh, ly, lx, wq[4], vq[4], v, best, in;
    LLVMBasicBlockRef jin, out, join;
    KlvLoop lr, lw, ly_, lx_;
    if (n->nin != 3 || n->nout != 1 || !ir->guard_ok || xt->rank != 4 || yt->rank != 4 ||
        !klv_is_float_dt(xt->dtype) || !klv_is_float_dt(yt->dtype))
        return 0;
    rt = &g->vals[n->in[1]].type;
    bt = &g->vals[n->in[2]].type;
    C = xt->dims[1], H = xt->dims[2], W = xt->dims[3], R = yt->dims[0], oh = yt->dims[2], ow = yt->dims[3];
    if (!klv_is_float_dt(rt->dtype) || gir_type_numel(rt) < R * 4 ||
        (bt->dtype != GIR_DT_I64 && bt->dtype != GIR_DT_I32) || gir_type_numel(bt) < R ||
        yt->dims[1] != C || R < 1 || oh < 1 || ow < 1 || H < 1 || W < 1)
        return 0;
    if ((guard = klv_plan_guard(plan, n)) < 0)
        return 0;
    one = LLVMConstReal(dt, 1);
    zero = LLVMConstReal(dt, 0);
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, dt, "acc");
    bestp = LLVMBuildAlloca(b, dt, "best");
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    row = lr.iv;
    ph = LLVMBuildSRem(b, row, klv_i64(ir, oh), "");
    t = LLVMBuildSDiv(b, row, klv_i64(ir, oh), "");
    c = LLVMBuildSRem(b, t, klv_i64(ir, C), "");
    r = LLVMBuildSDiv(b, t, klv_i64(ir, C), "");
    bi = klv_load(ir, bt->dtype == GIR_DT_I64 ? ir->i64 : ir->i32, klv_arg(ir, 2), r);
    if (bt->dtype != GIR_DT_I64)
        bi = LLVMBuildSExt(b, bi, ir->i64, "");
    bad = LLVMBuildICmp(b, LLVMIntUGE, bi, klv_i64(ir, xt->dims[0]), "");
    for (k = 0; k < 4; k++)
        box[k] = LLVMBuildFSub(b, LLVMBuildFMul(b, klv_load_f64(ir, rt->dtype, klv_arg(ir, 1),
                                                                klv_affine(ir, r, 4, k)),
                                                LLVMConstReal(dt, scale), ""),
                               LLVMConstReal(dt, half ? 0.5 : 0.0), "");
    rw = LLVMBuildFSub(b, box[2], box[0], "");
    rh = LLVMBuildFSub(b, box[3], box[1], "");
    if (!half) {
        rw = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, rw, one, ""), rw, one, "");
        rh = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, rh, one, ""), rh, one, "");
    }
    bh = LLVMBuildFDiv(b, rh, LLVMConstReal(dt, (double)oh), "");
    bw = LLVMBuildFDiv(b, rw, LLVMConstReal(dt, (double)ow), "");
    if (sr > 0) {
        gh = gw = klv_i64(ir, sr);
    } else {
        gh = d2i_value(ir, call_f64(ir, "ceil", LLVMBuildFDiv(b, rh, LLVMConstReal(dt, (double)oh), "")));
        gw = d2i_value(ir, call_f64(ir, "ceil", LLVMBuildFDiv(b, rw, LLVMConstReal(dt, (double)ow), "")));
    }
    bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntUGT, gh, klv_i64(ir, 4096), ""), "");
    bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntUGT, gw, klv_i64(ir, 4096), ""), "");
    klv_guard(ir, guard, bad);
    bi = LLVMBuildSelect(b, bad, klv_i64(ir, 0), bi, "");
    gh = LLVMBuildSelect(b, bad, klv_i64(ir, 0), gh, "");
    gw = LLVMBuildSelect(b, bad, klv_i64(ir, 0), gw, "");
    cnt = LLVMBuildMul(b, gh, gw, "");
    cnt = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, cnt, klv_i64(ir, 0), ""), cnt, klv_i64(ir, 1), "");
    p = klv_add(ir, klv_mul(ir, bi, klv_i64(ir, C)), c);
    pl = klv_mul(ir, p, klv_i64(ir, H * W));
    lw = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, ow));
    LLVMBuildStore(b, zero, accp);
    LLVMBuildStore(b, LLVMConstReal(dt, -HUGE_VAL), bestp);
    ly_ = klv_loop_begin(ir, klv_i64(ir, 0), gh);
    lx_ = klv_loop_begin(ir, klv_i64(ir, 0), gw);
    y = LLVMBuildFAdd(b, LLVMBuildFAdd(b, box[1], LLVMBuildFMul(b, LLVMBuildSIToFP(b, ph, dt, ""), bh, ""), ""),
                      LLVMBuildFDiv(b, LLVMBuildFMul(b, LLVMBuildFAdd(b, LLVMBuildSIToFP(b, ly_.iv, dt, ""),
                                                                      LLVMConstReal(dt, 0.5), ""), bh, ""),
                                    LLVMBuildSIToFP(b, gh, dt, ""), ""), "");
    x = LLVMBuildFAdd(b, LLVMBuildFAdd(b, box[0], LLVMBuildFMul(b, LLVMBuildSIToFP(b, lw.iv, dt, ""), bw, ""), ""),
                      LLVMBuildFDiv(b, LLVMBuildFMul(b, LLVMBuildFAdd(b, LLVMBuildSIToFP(b, lx_.iv, dt, ""),
                                                                      LLVMConstReal(dt, 0.5), ""), bw, ""),
                                    LLVMBuildSIToFP(b, gw, dt, ""), ""), "");
    in = LLVMBuildAnd(b, LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGE, y, LLVMConstReal(dt, -1), ""),
                                      LLVMBuildFCmp(b, LLVMRealOLE, y, LLVMConstReal(dt, (double)H), ""), ""),
                      LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGE, x, LLVMConstReal(dt, -1), ""),
                                   LLVMBuildFCmp(b, LLVMRealOLE, x, LLVMConstReal(dt, (double)W), ""), ""), "");
    jin = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "inside");
    out = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "outside");
    join = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "sampled");
    LLVMBuildCondBr(b, in, jin, out);
    LLVMPositionBuilderAtEnd(b, out);
    best = LLVMBuildLoad2(b, dt, bestp, "");
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, best, zero, ""), best, zero, ""), bestp);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, jin);
    y = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLE, y, zero, ""), zero, y, "");
    x = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLE, x, zero, ""), zero, x, "");
    yl = LLVMBuildFPToSI(b, y, ir->i64, "");
    xl = LLVMBuildFPToSI(b, x, ir->i64, "");
    {
        LLVMValueRef ey = LLVMBuildICmp(b, LLVMIntSGE, yl, klv_i64(ir, H - 1), "");
        LLVMValueRef ex = LLVMBuildICmp(b, LLVMIntSGE, xl, klv_i64(ir, W - 1), "");
        yl = LLVMBuildSelect(b, ey, klv_i64(ir, H - 1), yl, "");
        yh = LLVMBuildSelect(b, ey, klv_i64(ir, H - 1), klv_add(ir, yl, klv_i64(ir, 1)), "");
        y = LLVMBuildSelect(b, ey, LLVMConstReal(dt, (double)(H - 1)), y, "");
        xl = LLVMBuildSelect(b, ex, klv_i64(ir, W - 1), xl, "");
        xh = LLVMBuildSelect(b, ex, klv_i64(ir, W - 1), klv_add(ir, xl, klv_i64(ir, 1)), "");
        x = LLVMBuildSelect(b, ex, LLVMConstReal(dt, (double)(W - 1)), x, "");
    }
    ly = LLVMBuildFSub(b, y, LLVMBuildSIToFP(b, yl, dt, ""), "");
    lx = LLVMBuildFSub(b, x, LLVMBuildSIToFP(b, xl, dt, ""), "");
    wq[0] = LLVMBuildFMul(b, LLVMBuildFSub(b, one, ly, ""), LLVMBuildFSub(b, one, lx, ""), "");
    wq[1] = LLVMBuildFMul(b, LLVMBuildFSub(b, one, ly, ""), lx, "");
    wq[2] = LLVMBuildFMul(b, ly, LLVMBuildFSub(b, one, lx, ""), "");
    wq[3] = LLVMBuildFMul(b, ly, lx, "");
    for (q = 0; q < 4; q++) {
        LLVMValueRef yy = q < 2 ? yl : yh, xx = q % 2 ? xh : xl;
        vq[q] = klv_load_f64(ir, xt->dtype, klv_arg(ir, 0),
                             klv_add(ir, pl, klv_add(ir, klv_mul(ir, yy, klv_i64(ir, W)), xx)));
    }
    for (q = 0; q < 4; q++) {
        v = LLVMBuildFMul(b, wq[q], vq[q], "");
        LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, dt, accp, ""), v, ""), accp);
        best = LLVMBuildLoad2(b, dt, bestp, "");
        LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, best, ""), v, best, ""), bestp);
    }
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, join);
    klv_loop_end(ir, &lx_);
    klv_loop_end(ir, &ly_);
    v = is_max ? LLVMBuildLoad2(b, dt, bestp, "")
               : LLVMBuildFDiv(b, LLVMBuildLoad2(b, dt, accp, ""), LLVMBuildSIToFP(b, cnt, dt, ""), "");
    klv_store_f64(ir, yt->dtype, klv_arg(ir, 3),
                  klv_add(ir, klv_mul(ir, row, klv_i64(ir, ow)), lw.iv), v);
    klv_loop_end(ir, &lw);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = R * C * oh;
    plan->work = ow * 64;
    return 1;
}

/* LRN (eval_LRN of interp.c): per (batch, channel) plane, per element
 * the squares of the channels [c - (size-1)/2, c + size-1 - (size-1)/2]
 * inside [0, C) summed in double in channel order, then
 * x / pow(bias + alpha / size * sum, beta), rounded to f32. */
static int emit_lrn(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                    KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int64_t size = gir_attr_int(n, "size", 0), C, plane, h1;
    double alpha = gir_attr_float(n, "alpha", 1e-4f), beta = gir_attr_float(n, "beta", 0.75f);
    double bias = gir_attr_float(n, "bias", 1.0f);
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef accp, c, nb, jlo, jhi, v, x, s;
    KlvLoop lr, li, lj;
    if (size < 1 || size > 1 << 20 || t->rank < 3 || n->nin != 1 || n->nout != 1)
        return 0;
    C = t->dims[1];
    plane = klv_dims_prod(t->dims, 2, t->rank);
    h1 = (size - 1) / 2;
    if (C < 1 || plane < 1)
        return 0;
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, dt, "sq");
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    c = LLVMBuildSRem(b, lr.iv, klv_i64(ir, C), "");
    nb = LLVMBuildSDiv(b, lr.iv, klv_i64(ir, C), "");
    jlo = LLVMBuildSub(b, c, klv_i64(ir, h1), "");
    jlo = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, jlo, klv_i64(ir, 0), ""), klv_i64(ir, 0), jlo, "");
    jhi = LLVMBuildAdd(b, c, klv_i64(ir, size - 1 - h1 + 1), "");
    jhi = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, jhi, klv_i64(ir, C), ""), klv_i64(ir, C), jhi, "");
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, plane));
    LLVMBuildStore(b, LLVMConstReal(dt, 0), accp);
    lj = klv_loop_begin(ir, jlo, jhi);
    v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 0),
                                   klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, C)), lj.iv),
                                                       klv_i64(ir, plane)), li.iv)), dt, "");
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, dt, accp, ""), LLVMBuildFMul(b, v, v, ""), ""), accp);
    klv_loop_end(ir, &lj);
    x = LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 0),
                                   klv_add(ir, klv_mul(ir, lr.iv, klv_i64(ir, plane)), li.iv)), dt, "");
    s = LLVMBuildFAdd(b, LLVMConstReal(dt, bias),
                      LLVMBuildFMul(b, LLVMConstReal(dt, alpha / (double)size), LLVMBuildLoad2(b, dt, accp, ""), ""), "");
    v = LLVMBuildFDiv(b, x, klv_call2_f64(ir, "pow", s, LLVMConstReal(dt, beta)), "");
    klv_store(ir, ir->f32, klv_arg(ir, 1), klv_add(ir, klv_mul(ir, lr.iv, klv_i64(ir, plane)), li.iv),
              LLVMBuildFPTrunc(b, v, ir->f32, ""));
    klv_loop_end(ir, &li);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = t->dims[0] * C;
    plan->work = plane * (size + 20);
    return 1;
}

/* MeanVarianceNormalization (eval_MVN of interp.c): the elements of each
 * group (equal coordinates off the axes, default 0, 2, 3) listed at compile
 * time in flat order; per group the sum and the sum of squares in double in
 * that order, mean = sum / count, var = sumsq / count - mean^2, then
 * (x - mean) / (sqrt(max(var, 0)) + 1e-9), rounded to f32. */
static int emit_mvn(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                    KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int d;
    int64_t gst[GIR_MAX_RANK], idx[GIR_MAX_RANK] = {0}, i, ne = gir_type_numel(t), ng, per;
    int64_t *ord, *fill;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef sump, sqp, base, at, v, mean, var, sd;
    KlvLoop lr, lt;
    if (n->nin != 1 || n->nout != 1 || ne < 1 || t->rank < 1)
        return 0;
    ng = gir_mvn_groups(n, t, gst);
    per = ng ? ne / ng : 0;
    if (ng < 1 || per < 1 || ne >= (int64_t)1 << 31)
        return 0;
    ord = malloc(sizeof *ord * (size_t)ne);
    fill = calloc((size_t)ng, sizeof *fill);
    if (!ord || !fill) {
        free(ord);
        free(fill);
        return 0;
    }
    for (i = 0; i < ne; i++) {
        int64_t o = 0;
        for (d = 0; d < t->rank; d++)
            o += idx[d] * gst[d];
        ord[o * per + fill[o]++] = i;
        for (d = t->rank - 1; d >= 0 && ++idx[d] == t->dims[d]; d--)
            idx[d] = 0;
    }
    free(fill);
    klv_plan_extra(plan, ord, (int64_t)sizeof *ord * ne, KLV_TABLE, 1);
    klv_kernel_begin(ir, name);
    sump = LLVMBuildAlloca(b, dt, "sum");
    sqp = LLVMBuildAlloca(b, dt, "sq");
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    base = klv_mul(ir, lr.iv, klv_i64(ir, per));
    LLVMBuildStore(b, LLVMConstReal(dt, 0), sump);
    LLVMBuildStore(b, LLVMConstReal(dt, 0), sqp);
    lt = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, per));
    at = klv_load(ir, ir->i64, klv_arg(ir, 2), klv_add(ir, base, lt.iv));
    v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 0), at), dt, "");
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, dt, sump, ""), v, ""), sump);
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, dt, sqp, ""), LLVMBuildFMul(b, v, v, ""), ""), sqp);
    klv_loop_end(ir, &lt);
    mean = LLVMBuildFDiv(b, LLVMBuildLoad2(b, dt, sump, ""), LLVMConstReal(dt, (double)per), "");
    var = LLVMBuildFSub(b, LLVMBuildFDiv(b, LLVMBuildLoad2(b, dt, sqp, ""), LLVMConstReal(dt, (double)per), ""),
                        LLVMBuildFMul(b, mean, mean, ""), "");
    var = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, var, LLVMConstReal(dt, 0), ""), var,
                          LLVMConstReal(dt, 0), "");
    sd = LLVMBuildFAdd(b, call_f64(ir, "sqrt", var), LLVMConstReal(dt, 1e-9), "");
    lt = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, per));
    at = klv_load(ir, ir->i64, klv_arg(ir, 2), klv_add(ir, base, lt.iv));
    v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, klv_arg(ir, 0), at), dt, "");
    v = LLVMBuildFDiv(b, LLVMBuildFSub(b, v, mean, ""), sd, "");
    klv_store(ir, ir->f32, klv_arg(ir, 1), at, LLVMBuildFPTrunc(b, v, ir->f32, ""));
    klv_loop_end(ir, &lt);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = ng;
    plan->work = per * 8;
    return 1;
}

/* min(1, max(0, a)) in the interpreter's form: a < 0 ? 0 : a > 1 ? 1 : a. */
static LLVMValueRef clamp01_f64(KlvIr *ir, LLVMValueRef a)
{
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef one = LLVMConstReal(d, 1), r;
    r = LLVMBuildSelect(ir->b, LLVMBuildFCmp(ir->b, LLVMRealOGT, a, one, ""), one, a, "");
    return LLVMBuildSelect(ir->b, LLVMBuildFCmp(ir->b, LLVMRealOLT, a, LLVMConstReal(d, 0), ""),
                           LLVMConstReal(d, 0), r, "");
}

/* The unary ops the interpreter computes in double (unary_f of interp.c):
 * x widened, the op, rounded back to f32; NULL when op is none of them. */
/* Call libm function fname of two double arguments. */
/* c ? t : f on doubles, c an fcmp of pred between u and v. */
static LLVMValueRef sel_f64(KlvIr *ir, LLVMRealPredicate pred, LLVMValueRef u, LLVMValueRef v,
                            LLVMValueRef t, LLVMValueRef f)
{
    return LLVMBuildSelect(ir->b, LLVMBuildFCmp(ir->b, pred, u, v, ""), t, f, "");
}

/* The libm function of one double argument that op is, or NULL. */
static const char *libm_name(GirOp op)
{
    switch (op) {
    case GIR_OP_ABS: return "fabs";
    case GIR_OP_EXP: return "exp";
    case GIR_OP_LOG: return "log";
    case GIR_OP_SQRT: return "sqrt";
    case GIR_OP_FLOOR: return "floor";
    case GIR_OP_CEIL: return "ceil";
    case GIR_OP_ERF: return "erf";
    case GIR_OP_SIN: return "sin";
    case GIR_OP_COS: return "cos";
    case GIR_OP_TAN: return "tan";
    case GIR_OP_ASIN: return "asin";
    case GIR_OP_ACOS: return "acos";
    case GIR_OP_ATAN: return "atan";
    case GIR_OP_SINH: return "sinh";
    case GIR_OP_COSH: return "cosh";
    case GIR_OP_ASINH: return "asinh";
    case GIR_OP_ACOSH: return "acosh";
    case GIR_OP_ATANH: return "atanh";
    default: return NULL;
    }
}

LLVMValueRef klv_unary_f64(KlvIr *ir, const GirNode *n, LLVMValueRef v)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef x = LLVMBuildFPExt(b, v, d, ""), r, a, g, em1;
    LLVMValueRef zero = LLVMConstReal(d, 0), one = LLVMConstReal(d, 1);
    const char *fn = libm_name(n->op);
    if (fn)
        return LLVMBuildFPTrunc(b, call_f64(ir, fn, x), ir->f32, "");
    switch (n->op) {
    case GIR_OP_NEG: r = LLVMBuildFNeg(b, x, ""); break;
    case GIR_OP_RECIPROCAL: r = LLVMBuildFDiv(b, one, x, ""); break;
    case GIR_OP_ROUND:
        /* round_even of interp.c: floor, then up when the rest is over a
         * half, or a half and the floor odd */
        r = call_f64(ir, "floor", x);
        a = LLVMBuildFSub(b, x, r, "");
        g = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOGT, a, LLVMConstReal(d, 0.5), ""),
                        LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOEQ, a, LLVMConstReal(d, 0.5), ""),
                                     LLVMBuildFCmp(b, LLVMRealUNE, LLVMBuildFRem(b, r, LLVMConstReal(d, 2), ""),
                                                   zero, ""), ""), "");
        r = LLVMBuildSelect(b, g, LLVMBuildFAdd(b, r, one, ""), r, "");
        break;
    case GIR_OP_SIGN:
        r = sel_f64(ir, LLVMRealOEQ, x, zero, zero, x);
        r = sel_f64(ir, LLVMRealOLT, x, zero, LLVMConstReal(d, -1), r);
        r = sel_f64(ir, LLVMRealOGT, x, zero, one, r);
        break;
    case GIR_OP_SOFTPLUS:
        r = sel_f64(ir, LLVMRealOGT, x, zero,
                    LLVMBuildFAdd(b, x, call_f64(ir, "log1p", call_f64(ir, "exp", LLVMBuildFNeg(b, x, ""))), ""),
                    call_f64(ir, "log1p", call_f64(ir, "exp", x)));
        break;
    case GIR_OP_SOFTSIGN:
        r = LLVMBuildFDiv(b, x, LLVMBuildFAdd(b, one, call_f64(ir, "fabs", x), ""), "");
        break;
    case GIR_OP_ELU:
        a = LLVMConstReal(d, (double)gir_attr_float(n, "alpha", 1.0f));
        em1 = LLVMBuildFSub(b, call_f64(ir, "exp", x), one, "");
        r = sel_f64(ir, LLVMRealOLT, x, zero, LLVMBuildFMul(b, a, em1, ""), x);
        break;
    case GIR_OP_SELU:
        a = LLVMConstReal(d, (double)gir_attr_float(n, "alpha", 1.67326319217681884765625f));
        g = LLVMConstReal(d, (double)gir_attr_float(n, "gamma", 1.05070102214813232421875f));
        em1 = LLVMBuildFSub(b, call_f64(ir, "exp", x), one, "");
        r = LLVMBuildFMul(b, g, sel_f64(ir, LLVMRealOLE, x, zero, LLVMBuildFMul(b, a, em1, ""), x), "");
        break;
    case GIR_OP_CELU:
        a = LLVMConstReal(d, (double)gir_attr_float(n, "alpha", 1.0f));
        em1 = LLVMBuildFSub(b, call_f64(ir, "exp", LLVMBuildFDiv(b, x, a, "")), one, "");
        r = LLVMBuildFAdd(b, sel_f64(ir, LLVMRealOGT, x, zero, x, zero),
                          klv_call2_f64(ir, "fmin", zero, LLVMBuildFMul(b, a, em1, "")), "");
        break;
    case GIR_OP_THRESHOLDEDRELU:
        r = sel_f64(ir, LLVMRealOGT, x, LLVMConstReal(d, (double)gir_attr_float(n, "alpha", 1.0f)), x, zero);
        break;
    case GIR_OP_SHRINK:
        a = LLVMConstReal(d, (double)gir_attr_float(n, "lambd", 0.5f));
        g = LLVMConstReal(d, (double)gir_attr_float(n, "bias", 0.0f));
        r = sel_f64(ir, LLVMRealOGT, x, a, LLVMBuildFSub(b, x, g, ""), zero);
        r = sel_f64(ir, LLVMRealOLT, x, LLVMBuildFNeg(b, a, ""), LLVMBuildFAdd(b, x, g, ""), r);
        break;
    case GIR_OP_HARDSIGMOID:
        a = LLVMBuildFMul(b, LLVMConstReal(d, (double)gir_attr_float(n, "alpha", 0.2f)), x, "");
        a = LLVMBuildFAdd(b, a, LLVMConstReal(d, (double)gir_attr_float(n, "beta", 0.5f)), "");
        r = clamp01_f64(ir, a);
        break;
    case GIR_OP_HARDSWISH:
        a = LLVMBuildFAdd(b, LLVMBuildFDiv(b, x, LLVMConstReal(d, 6), ""), LLVMConstReal(d, 0.5), "");
        r = LLVMBuildFMul(b, x, clamp01_f64(ir, a), "");
        break;
    default: return NULL;
    }
    return LLVMBuildFPTrunc(b, r, ir->f32, "");
}

/* The float unary ops of unary_f in interp.c (Abs, Neg, Exp, Log, Sqrt,
 * Reciprocal, Floor, Ceil, Round, Sign, Erf, the trigonometric and
 * hyperbolic functions, Softplus, Softsign, Elu, Selu, Celu, HardSigmoid,
 * HardSwish, ThresholdedRelu, Shrink): flat, in double as the interpreter
 * computes them, with libm's double functions, rounded to f32. */
static int emit_unary_f64(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                          KlvPlan *plan)
{
    int64_t total = numel(g, n->out[0]);
    KlvLoop lc, li;
    LLVMValueRef v;
    if (n->nin != 1)
        return 0;
    flat_begin(ir, name, total, &lc, &li);
    v = klv_unary_f64(ir, n, klv_load(ir, ir->f32, klv_arg(ir, 0), li.iv));
    klv_store(ir, ir->f32, klv_arg(ir, 1), li.iv, v);
    flat_end(ir, &lc, &li, total, plan);
    return 1;
}

/* The float reductions of reduce() in interp.c (Mean, Sum, Max, Min, Prod,
 * L1, L2, SumSquare, LogSum, LogSumExp) over one run of axes [lo, hi), or
 * any axes through two offset tables (per output its first element, per
 * reduced element its offset)
 * (every input element of an output in increasing order, as the
 * interpreter visits them): accumulated in double (Max and Min take a
 * NaN), then the mean divided by the count, L2's sqrt, the logs, stored
 * as st_f stores (f32, f64, f16), of integers d2i's low bits.  The outer
 * loop runs over the outputs. */
static int emit_reduce(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    GirDType ydt = g->vals[n->out[0]].type.dtype;
    int mask[GIR_MAX_RANK], d, lo = -1, hi = -1, na = 0, runs = 1;
    int64_t av[GIR_MAX_RANK], len, inner, outs, k, *otab = NULL, *rtab = NULL;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef accp, base, xp, sum;
    KlvLoop lp, li;
    memset(mask, 0, sizeof mask);
    if (t->rank < 1 || t->rank > GIR_MAX_RANK || ydt != t->dtype ||
        (!klv_is_float_dt(t->dtype) && !is_intdt(t->dtype)))
        return 0;
    if (n->nin > 1 && n->in[1] >= 0) {
        const GirValue *ax = &g->vals[n->in[1]];
        if (ax->kind != GIR_VAL_CONST || (ax->type.dtype != GIR_DT_I64 && ax->type.dtype != GIR_DT_I32))
            return 0;
        na = (int)gir_type_numel(&ax->type);
        if (na > GIR_MAX_RANK)
            return 0;
        for (k = 0; k < na; k++)
            av[k] = ax->type.dtype == GIR_DT_I32 ? ((const int32_t *)ax->data)[k]
                                                : ((const int64_t *)ax->data)[k];
    }
    if (na == 0) {
        if (gir_attr_int(n, "noop_with_empty_axes", 0))
            return 0;
        for (d = 0; d < t->rank; d++)
            mask[d] = 1;
    }
    for (k = 0; k < na; k++) {
        int64_t a = av[k] < 0 ? av[k] + t->rank : av[k];
        if (a < 0 || a >= t->rank)
            return 0;
        mask[a] = 1;
    }
    for (d = 0; d < t->rank; d++) {
        if (!mask[d] || t->dims[d] == 1)
            continue;
        if (lo < 0)
            lo = d;
        else if (hi != d)
            runs = 2; /* reduced axes not one run: offset tables */
        hi = d + 1;
    }
    if (lo < 0)
        lo = hi = 0;
    outs = gir_type_numel(&g->vals[n->out[0]].type);
    if (runs > 1) {
        /* per output its first element, per reduced element its offset
         * from there, in increasing input order (the interpreter's) */
        int64_t st[GIR_MAX_RANK], sz = 1, i, c;
        for (d = t->rank - 1; d >= 0; d--) {
            st[d] = sz;
            sz *= t->dims[d];
        }
        len = 1;
        for (d = 0; d < t->rank; d++)
            len *= mask[d] ? t->dims[d] : 1;
        if (len < 1 || outs < 1 || outs * len != sz || outs + len > ((int64_t)1 << 22) ||
            !(otab = malloc(sizeof *otab * (size_t)outs)) || !(rtab = malloc(sizeof *rtab * (size_t)len))) {
            free(otab);
            return 0;
        }
        for (i = 0; i < outs + len; i++) {
            int64_t r = i < outs ? i : i - outs, off = 0;
            for (d = t->rank - 1; d >= 0; d--) {
                if (mask[d] != (i >= outs))
                    continue;
                c = r % t->dims[d];
                r /= t->dims[d];
                off += c * st[d];
            }
            if (i < outs)
                otab[i] = off;
            else
                rtab[i - outs] = off;
        }
        klv_plan_extra(plan, otab, outs * 8, KLV_TABLE, 1);
        klv_plan_extra(plan, rtab, len * 8, KLV_TABLE, 1);
        inner = 1;
    } else {
        len = klv_dims_prod(t->dims, lo, hi);
        inner = klv_dims_prod(t->dims, hi, t->rank);
        if (len < 1 || inner < 1 || outs != gir_type_numel(t) / len)
            return 0;
    }
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, dt, "sum");
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    /* output r = o * inner + in reads from o * len * inner + in */
    if (runs > 1)
        base = klv_load(ir, ir->i64, klv_arg(ir, n->nin + 1), lp.iv);
    else
        base = klv_add(ir,
                       klv_mul(ir, LLVMBuildSDiv(b, lp.iv, klv_i64(ir, inner), ""), klv_i64(ir, len * inner)),
                       LLVMBuildSRem(b, lp.iv, klv_i64(ir, inner), ""));
    xp = klv_gep(ir, klv_elem_type(ir, t->dtype), klv_arg(ir, 0), base);
    LLVMBuildStore(b, LLVMConstReal(dt, n->op == GIR_OP_REDUCEMAX    ? -INFINITY
                                        : n->op == GIR_OP_REDUCEMIN  ? INFINITY
                                        : n->op == GIR_OP_REDUCEPROD ? 1
                                                                     : 0),
                   accp);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    {
        LLVMValueRef v = klv_load_f64(ir, t->dtype, xp,
                                      runs > 1 ? klv_load(ir, ir->i64, klv_arg(ir, n->nin + 2), li.iv)
                                               : klv_mul(ir, li.iv, klv_i64(ir, inner)));
        LLVMValueRef acc = LLVMBuildLoad2(b, dt, accp, ""), take;
        switch (n->op) {
        case GIR_OP_REDUCEMAX:
        case GIR_OP_REDUCEMIN:
            /* v > acc (v < acc) or v NaN: v */
            take = LLVMBuildOr(b, LLVMBuildFCmp(b, n->op == GIR_OP_REDUCEMAX ? LLVMRealOGT : LLVMRealOLT, v, acc, ""),
                               LLVMBuildFCmp(b, LLVMRealUNO, v, v, ""), "");
            acc = LLVMBuildSelect(b, take, v, acc, "");
            break;
        case GIR_OP_REDUCEPROD: acc = LLVMBuildFMul(b, acc, v, ""); break;
        case GIR_OP_REDUCEL1: acc = LLVMBuildFAdd(b, acc, call_f64(ir, "fabs", v), ""); break;
        case GIR_OP_REDUCEL2:
        case GIR_OP_REDUCESUMSQUARE: acc = LLVMBuildFAdd(b, acc, LLVMBuildFMul(b, v, v, ""), ""); break;
        case GIR_OP_REDUCELOGSUMEXP: acc = LLVMBuildFAdd(b, acc, call_f64(ir, "exp", v), ""); break;
        default: acc = LLVMBuildFAdd(b, acc, v, ""); break;
        }
        LLVMBuildStore(b, acc, accp);
    }
    klv_loop_end(ir, &li);
    sum = LLVMBuildLoad2(b, dt, accp, "");
    if (n->op == GIR_OP_REDUCEMEAN)
        sum = LLVMBuildFDiv(b, sum, LLVMConstReal(dt, (double)len), "");
    else if (n->op == GIR_OP_REDUCEL2)
        sum = call_f64(ir, "sqrt", sum);
    else if (n->op == GIR_OP_REDUCELOGSUM || n->op == GIR_OP_REDUCELOGSUMEXP)
        sum = call_f64(ir, "log", sum);
    if (klv_is_float_dt(ydt)) { /* st_f, else st_i of d2i */
        klv_store_f64(ir, ydt, klv_arg(ir, n->nin), lp.iv, sum);
    } else {
        LLVMTypeRef yet = klv_elem_type(ir, ydt);
        sum = d2i_value(ir, sum);
        klv_store(ir, yet, klv_arg(ir, n->nin), lp.iv, yet == ir->i64 ? sum : LLVMBuildTrunc(b, sum, yet, ""));
    }
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = outs;
    plan->work = len * 2;
    return 1;
}

/* BatchNormalization (inference): per (batch, channel) plane inv =
 * 1 / sqrtf(var + eps), then y = (x - mean) * inv * scale + bias, all in
 * f32 in the interpreter's order. */
static int emit_batchnorm(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                          KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int64_t C, plane, k;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef c, sc, bi, mean, inv, xp, yp, v;
    KlvLoop lp, li;
    if (n->nin != 5 || n->nout != 1 || t->rank < 2)
        return 0;
    for (k = 1; k < 5; k++)
        if (g->vals[n->in[k]].type.dtype != GIR_DT_F32)
            return 0;
    C = t->dims[1];
    plane = klv_dims_prod(t->dims, 2, t->rank);
    klv_kernel_begin(ir, name);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    c = LLVMBuildSRem(b, lp.iv, klv_i64(ir, C), "");
    sc = klv_load(ir, ir->f32, klv_arg(ir, 1), c);
    bi = klv_load(ir, ir->f32, klv_arg(ir, 2), c);
    mean = klv_load(ir, ir->f32, klv_arg(ir, 3), c);
    v = LLVMBuildFAdd(b, klv_load(ir, ir->f32, klv_arg(ir, 4), c),
                      klv_f32c(ir, gir_attr_float(n, "epsilon", 1e-5f)), "");
    inv = LLVMBuildFDiv(b, klv_f32c(ir, 1.0), klv_call_f32(ir, "sqrtf", v), "");
    xp = klv_gep(ir, ir->f32, klv_arg(ir, 0), klv_mul(ir, lp.iv, klv_i64(ir, plane)));
    yp = klv_gep(ir, ir->f32, klv_arg(ir, 5), klv_mul(ir, lp.iv, klv_i64(ir, plane)));
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, plane));
    v = LLVMBuildFSub(b, klv_load(ir, ir->f32, xp, li.iv), mean, "");
    v = LLVMBuildFMul(b, LLVMBuildFMul(b, v, inv, ""), sc, "");
    klv_store(ir, ir->f32, yp, li.iv, LLVMBuildFAdd(b, v, bi, ""));
    klv_loop_end(ir, &li);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = t->dims[0] * C;
    plan->work = plane * 4;
    return 1;
}

/* Clip of integers (eval_CLIP): bounds from inputs 1 and 2 (one element
 * each; absent: the int64 extremes), all widened to int64 as ld_i, v < lo
 * ? lo : v, then v > hi ? hi : v, the low bits stored; flat. */
static int emit_clip_int(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                         KlvPlan *plan)
{
    GirDType t = g->vals[n->in[0]].type.dtype;
    int64_t total = numel(g, n->out[0]);
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef et = klv_elem_type(ir, t);
    LLVMValueRef v, bd[2];
    KlvLoop lc, li;
    int k;
    if (n->nin > 3 || g->vals[n->out[0]].type.dtype != t || total <= 0)
        return 0;
    for (k = 1; k < n->nin; k++)
        if (n->in[k] >= 0 && (g->vals[n->in[k]].type.dtype != t || numel(g, n->in[k]) != 1))
            return 0;
    flat_begin(ir, name, total, &lc, &li);
    for (k = 0; k < 2; k++)
        bd[k] = n->nin > k + 1 && n->in[k + 1] >= 0
                    ? widen_int(ir, t, klv_load(ir, et, klv_arg(ir, k + 1), klv_i64(ir, 0)))
                    : klv_i64(ir, k ? INT64_MAX : INT64_MIN);
    v = widen_int(ir, t, klv_load(ir, et, klv_arg(ir, 0), li.iv));
    v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, v, bd[0], ""), bd[0], v, "");
    v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, v, bd[1], ""), bd[1], v, "");
    klv_store(ir, et, klv_arg(ir, n->nin), li.iv, et == ir->i64 ? v : LLVMBuildTrunc(b, v, et, ""));
    flat_end(ir, &lc, &li, total, plan);
    return 1;
}

/* NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (nll and
 * eval_SCELOSS of interp.c), scores [N, C, d...] of f32, f64 or f16, on
 * one thread in the interpreter's order.  SoftmaxCrossEntropyLoss first
 * writes the log-probabilities (per (n, d) the maximum, exp(x - max)
 * summed in double, x - max - log(sum)) into its second output or a
 * scratch buffer, stored in the scores' type and read back as the
 * interpreter does.  Then per (n, d) the target's loss -lp * weight (0
 * for ignore_index), each stored for reduction none, summed in double with
 * the weights for sum and mean.  Guarded: a target outside [0, C) is the
 * interpreter's error. */
static int emit_loss(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *tt = &g->vals[n->in[1]].type;
    GirDType dt = xt->dtype;
    const char *red = gir_attr_string(n, "reduction", "mean");
    const GirAttr *ig = gir_attr(n, "ignore_index");
    int sce = n->op == GIR_OP_SCELOSS, hw = n->nin > 2 && n->in[2] >= 0, none = strcmp(red, "none") == 0;
    int guard, lpa;
    int64_t N, C, D;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef sum, wsum, mx, es, v, t, at, bad, l, wt, skip, pos;
    KlvLoop lb, ld, lc;
    if (!klv_is_float_dt(dt) || xt->rank < 2 || (tt->dtype != GIR_DT_I64 && tt->dtype != GIR_DT_I32) ||
        g->vals[n->out[0]].type.dtype != dt || n->nout > (sce ? 2 : 1) ||
        (!none && strcmp(red, "sum") != 0 && strcmp(red, "mean") != 0) || !ir->guard_ok ||
        gir_type_numel(xt) <= 0 || (hw && g->vals[n->in[2]].type.dtype != dt))
        return 0;
    N = xt->dims[0], C = xt->dims[1], D = klv_dims_prod(xt->dims, 2, xt->rank);
    if (gir_type_numel(tt) != N * D || (hw && gir_type_numel(&g->vals[n->in[2]].type) != C))
        return 0;
    if (!sce) {
        lpa = 0;
    } else if (n->nout > 1 && n->out[1] >= 0) {
        lpa = n->nin + 1;
    } else {
        void *scr = calloc(1, (size_t)gir_type_bytes(xt));
        if (!scr)
            return 0;
        klv_plan_extra(plan, scr, gir_type_bytes(xt), KLV_SCRATCH, 1);
        lpa = n->nin + n->nout + plan->nextra - 1;
    }
    if ((guard = klv_plan_guard(plan, n)) < 0)
        return 0;
    klv_kernel_begin(ir, name);
    sum = LLVMBuildAlloca(b, d, "sum");
    wsum = LLVMBuildAlloca(b, d, "wsum");
    mx = LLVMBuildAlloca(b, d, "max");
    es = LLVMBuildAlloca(b, d, "esum");
    LLVMBuildStore(b, LLVMConstReal(d, 0), sum);
    LLVMBuildStore(b, LLVMConstReal(d, 0), wsum);
    if (sce) {
        lb = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
        ld = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, D));
        /* element (b, c, d) at (b * C + c) * D + d */
        pos = klv_add(ir, klv_mul(ir, lb.iv, klv_i64(ir, C * D)), ld.iv);
        LLVMBuildStore(b, LLVMConstReal(d, -INFINITY), mx);
        LLVMBuildStore(b, LLVMConstReal(d, 0), es);
        lc = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, C));
        v = klv_load_f64(ir, dt, klv_arg(ir, 0), klv_add(ir, pos, klv_mul(ir, lc.iv, klv_i64(ir, D))));
        l = LLVMBuildLoad2(b, d, mx, "");
        LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, l, ""), v, l, ""), mx);
        klv_loop_end(ir, &lc);
        lc = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, C));
        v = klv_load_f64(ir, dt, klv_arg(ir, 0), klv_add(ir, pos, klv_mul(ir, lc.iv, klv_i64(ir, D))));
        v = call_f64(ir, "exp", LLVMBuildFSub(b, v, LLVMBuildLoad2(b, d, mx, ""), ""));
        LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, d, es, ""), v, ""), es);
        klv_loop_end(ir, &lc);
        l = call_f64(ir, "log", LLVMBuildLoad2(b, d, es, ""));
        lc = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, C));
        at = klv_add(ir, pos, klv_mul(ir, lc.iv, klv_i64(ir, D)));
        v = klv_load_f64(ir, dt, klv_arg(ir, 0), at);
        v = LLVMBuildFSub(b, LLVMBuildFSub(b, v, LLVMBuildLoad2(b, d, mx, ""), ""), l, "");
        klv_store_f64(ir, dt, klv_arg(ir, lpa), at, v);
        klv_loop_end(ir, &lc);
        klv_loop_end(ir, &ld);
        klv_loop_end(ir, &lb);
    }
    lb = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
    ld = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, D));
    at = klv_add(ir, klv_mul(ir, lb.iv, klv_i64(ir, D)), ld.iv);
    t = widen_int(ir, tt->dtype, klv_load(ir, klv_elem_type(ir, tt->dtype), klv_arg(ir, 1), at));
    skip = ig ? LLVMBuildICmp(b, LLVMIntEQ, t, klv_i64(ir, ig->i), "") : LLVMConstInt(ir->i1, 0, 0);
    bad = LLVMBuildAnd(b, LLVMBuildNot(b, skip, ""),
                       LLVMBuildICmp(b, LLVMIntUGE, t, klv_i64(ir, C), ""), "");
    klv_guard(ir, guard, bad);
    t = LLVMBuildSelect(b, LLVMBuildOr(b, skip, bad, ""), klv_i64(ir, 0), t, "");
    wt = hw ? klv_load_f64(ir, dt, klv_arg(ir, 2), t) : LLVMConstReal(d, 1);
    v = klv_load_f64(ir, dt, klv_arg(ir, lpa),
                     klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, lb.iv, klv_i64(ir, C)), t), klv_i64(ir, D)),
                             ld.iv));
    l = LLVMBuildFMul(b, LLVMBuildFNeg(b, v, ""), wt, "");
    l = LLVMBuildSelect(b, skip, LLVMConstReal(d, 0), l, "");
    wt = LLVMBuildSelect(b, skip, LLVMConstReal(d, 0), wt, "");
    if (none)
        klv_store_f64(ir, dt, klv_arg(ir, n->nin), at, l);
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, d, sum, ""), l, ""), sum);
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, d, wsum, ""), wt, ""), wsum);
    klv_loop_end(ir, &ld);
    klv_loop_end(ir, &lb);
    if (!none) {
        v = LLVMBuildLoad2(b, d, sum, "");
        if (red[0] == 'm') {
            LLVMValueRef w = LLVMBuildLoad2(b, d, wsum, "");
            v = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNE, w, LLVMConstReal(d, 0), ""),
                                LLVMBuildFDiv(b, v, w, ""), LLVMConstReal(d, 0), "");
        }
        klv_store_f64(ir, dt, klv_arg(ir, n->nin), klv_i64(ir, 0), v);
    }
    klv_kernel_end(ir);
    plan->range = 1;
    plan->work = N * C * D * 4;
    plan->threads = 1;
    return 1;
}

static int is_reduce(GirOp op)
{
    switch (op) {
    case GIR_OP_REDUCEMEAN: case GIR_OP_REDUCESUM: case GIR_OP_REDUCEMAX: case GIR_OP_REDUCEMIN:
    case GIR_OP_REDUCEPROD: case GIR_OP_REDUCEL1: case GIR_OP_REDUCEL2: case GIR_OP_REDUCESUMSQUARE:
    case GIR_OP_REDUCELOGSUM: case GIR_OP_REDUCELOGSUMEXP:
        return 1;
    default:
        return 0;
    }
}

/* IsNaN, IsInf (detect_negative, detect_positive) of f32, f64 or f16 into
 * bool, flat, on the value in double (eval_ISNAN, eval_ISINF). */
static int emit_isnan(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                      KlvPlan *plan)
{
    GirDType xt = g->vals[n->in[0]].type.dtype;
    int64_t total = numel(g, n->out[0]);
    int neg = gir_attr_int(n, "detect_negative", 1) != 0, pos = gir_attr_int(n, "detect_positive", 1) != 0;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef v, r;
    KlvLoop lc, li;
    if (!klv_is_float_dt(xt) || g->vals[n->out[0]].type.dtype != GIR_DT_BOOL || total <= 0)
        return 0;
    flat_begin(ir, name, total, &lc, &li);
    v = klv_load_f64(ir, xt, klv_arg(ir, 0), li.iv);
    if (n->op == GIR_OP_ISNAN) {
        r = LLVMBuildFCmp(b, LLVMRealUNO, v, v, "");
    } else {
        LLVMValueRef ip = LLVMBuildFCmp(b, LLVMRealOEQ, v, LLVMConstReal(d, INFINITY), "");
        LLVMValueRef in = LLVMBuildFCmp(b, LLVMRealOEQ, v, LLVMConstReal(d, -INFINITY), "");
        r = LLVMConstInt(ir->i1, 0, 0);
        if (pos)
            r = LLVMBuildOr(b, r, ip, "");
        if (neg)
            r = LLVMBuildOr(b, r, in, "");
    }
    klv_store(ir, ir->i8, klv_arg(ir, 1), li.iv, LLVMBuildZExt(b, r, ir->i8, ""));
    flat_end(ir, &lc, &li, total, plan);
    return 1;
}

/* The CumSum lines [lo, hi) of axis ax of t (line r = o * inner + in
 * starts at o * len * inner + in), accumulating in accp (double or i64). */
static void cumsum_lines(KlvIr *ir, const GirNode *n, const GirType *t, int64_t ax, LLVMValueRef lo,
                         LLVMValueRef hi, LLVMValueRef accp)
{
    int excl = gir_attr_int(n, "exclusive", 0) != 0, rev = gir_attr_int(n, "reverse", 0) != 0;
    int flt = klv_is_float_dt(t->dtype);
    int64_t len = t->dims[ax], inner = klv_dims_prod(t->dims, ax + 1, t->rank);
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef et = klv_elem_type(ir, t->dtype), st = flt ? LLVMDoubleTypeInContext(ir->ctx) : ir->i64;
    LLVMValueRef base, at, v, acc, nacc;
    KlvLoop lp, li;
    lp = klv_loop_begin(ir, lo, hi);
    base = klv_add(ir, klv_mul(ir, LLVMBuildUDiv(b, lp.iv, klv_i64(ir, inner), ""), klv_i64(ir, len * inner)),
                   LLVMBuildURem(b, lp.iv, klv_i64(ir, inner), ""));
    LLVMBuildStore(b, flt ? LLVMConstReal(st, 0) : klv_i64(ir, 0), accp);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    at = rev ? LLVMBuildSub(b, klv_i64(ir, len - 1), li.iv, "") : li.iv;
    at = klv_add(ir, base, klv_mul(ir, at, klv_i64(ir, inner)));
    acc = LLVMBuildLoad2(b, st, accp, "");
    if (flt) {
        v = klv_load_f64(ir, t->dtype, klv_arg(ir, 0), at);
        nacc = LLVMBuildFAdd(b, acc, v, "");
        klv_store_f64(ir, t->dtype, klv_arg(ir, 2), at, excl ? acc : nacc);
    } else {
        v = widen_int(ir, t->dtype, klv_load(ir, et, klv_arg(ir, 0), at));
        nacc = LLVMBuildAdd(b, acc, v, "");
        v = excl ? acc : nacc;
        klv_store(ir, et, klv_arg(ir, 2), at, et == ir->i64 ? v : LLVMBuildTrunc(b, v, et, ""));
    }
    LLVMBuildStore(b, nacc, accp);
    klv_loop_end(ir, &li);
    klv_loop_end(ir, &lp);
}

/* CumSum (exclusive, reverse), as eval_CUMSUM: per line of the axis,
 * floats summed in double and each partial sum stored as st_f stores,
 * integers in wrapping int64 and stored by their low bits.  A constant
 * axis: the outer loop runs over the lines.  An axis given at run time
 * (one element): one step, a switch over the axes, each case all of its
 * lines; an axis out of range sets the guard (the interpreter's case). */
static int emit_cumsum(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    const GirValue *av = &g->vals[n->in[1]];
    int flt = klv_is_float_dt(t->dtype), guard = -1, k;
    int64_t ax = 0, total = gir_type_numel(t);
    LLVMBuilderRef b = ir->b;
    LLVMValueRef accp;
    if (gir_type_numel(&av->type) != 1 || !klv_elem_type(ir, t->dtype) || t->rank < 1 ||
        (av->type.dtype != GIR_DT_I32 && av->type.dtype != GIR_DT_I64) ||
        (!flt && !is_intdt(t->dtype)) || g->vals[n->out[0]].type.dtype != t->dtype || total <= 0)
        return 0;
    if (av->kind == GIR_VAL_CONST) {
        ax = av->type.dtype == GIR_DT_I32 ? ((const int32_t *)av->data)[0] : ((const int64_t *)av->data)[0];
        if (ax < 0)
            ax += t->rank;
        if (ax < 0 || ax >= t->rank)
            return 0;
    } else if (!ir->guard_ok || (guard = klv_plan_guard(plan, n)) < 0) {
        return 0;
    }
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, flt ? LLVMDoubleTypeInContext(ir->ctx) : ir->i64, "sum");
    if (guard < 0) {
        cumsum_lines(ir, n, t, ax, klv_lo(ir), klv_hi(ir), accp);
        plan->range = total / t->dims[ax];
        plan->work = t->dims[ax] * 2;
    } else {
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "done");
        LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "bad");
        LLVMValueRef a = klv_load(ir, av->type.dtype == GIR_DT_I32 ? ir->i32 : ir->i64, klv_arg(ir, 1),
                                  klv_i64(ir, 0)), sw;
        if (av->type.dtype == GIR_DT_I32)
            a = LLVMBuildSExt(b, a, ir->i64, "");
        a = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, a, klv_i64(ir, 0), ""),
                            klv_add(ir, a, klv_i64(ir, t->rank)), a, "");
        sw = LLVMBuildSwitch(b, a, bad, (unsigned)t->rank);
        for (k = 0; k < t->rank; k++) {
            LLVMBasicBlockRef c = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "axis");
            LLVMAddCase(sw, klv_i64(ir, k), c);
            LLVMPositionBuilderAtEnd(b, c);
            cumsum_lines(ir, n, t, k, klv_i64(ir, 0), klv_i64(ir, total / t->dims[k]), accp);
            LLVMBuildBr(b, done);
        }
        LLVMPositionBuilderAtEnd(b, bad);
        klv_guard(ir, guard, LLVMConstInt(ir->i1, 1, 0));
        LLVMBuildBr(b, done);
        LLVMPositionBuilderAtEnd(b, done);
        plan->range = 1;
        plan->work = total * 2;
        plan->threads = 1;
    }
    klv_kernel_end(ir);
    return 1;
}

int klv_emit_f32(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                 KlvPlan *plan, GirError *e)
{
    (void)e;
    if ((n->op == GIR_OP_ARGMAX || n->op == GIR_OP_ARGMIN) && n->nout == 1 && n->nin == 1 &&
        g->vals[n->in[0]].type.dtype == GIR_DT_F32 && !gir_node_is_nhwc(n))
        return emit_argext(ir, g, n, name, plan);
    if (n->nout == 1 && n->nin >= 1 && !gir_node_is_nhwc(n) && bcast_kind(g, n) >= 2)
        return emit_bcast(ir, g, n, name, plan);
    if ((n->op == GIR_OP_CAST || n->op == GIR_OP_CASTLIKE) && n->nin >= 1 && !gir_node_is_nhwc(n))
        return emit_cast(ir, g, n, name, plan);
    if (n->op == GIR_OP_TRILU && !gir_node_is_nhwc(n))
        return emit_trilu(ir, g, n, name, plan);
    if (is_reduce(n->op) && n->nout == 1 && n->nin >= 1 && !gir_node_is_nhwc(n) &&
        g->vals[n->in[0]].type.dtype != GIR_DT_F32)
        return emit_reduce(ir, g, n, name, plan);
    if ((n->op == GIR_OP_ISNAN || n->op == GIR_OP_ISINF) && n->nin == 1 && !gir_node_is_nhwc(n))
        return emit_isnan(ir, g, n, name, plan);
    if (n->op == GIR_OP_CLIP && n->nout == 1 && n->nin >= 1 && is_intdt(g->vals[n->in[0]].type.dtype) &&
        !gir_node_is_nhwc(n))
        return emit_clip_int(ir, g, n, name, plan);
    if ((n->op == GIR_OP_NLLLOSS || n->op == GIR_OP_SCELOSS) && n->nin >= 2 && !gir_node_is_nhwc(n))
        return emit_loss(ir, g, n, name, plan);
    if (n->op == GIR_OP_CUMSUM && n->nin == 2 && n->nout == 1 && !gir_node_is_nhwc(n))
        return emit_cumsum(ir, g, n, name, plan);
    if (n->op == GIR_OP_ROIALIGN && !gir_node_is_nhwc(n))
        return emit_roialign(ir, g, n, name, plan);
    if (n->op == GIR_OP_DET && !gir_node_is_nhwc(n))
        return emit_det(ir, g, n, name, plan);
    if (n->op == GIR_OP_EINSUM && n->nout == 1 && !gir_node_is_nhwc(n))
        return emit_einsum(ir, g, n, name, plan);
    if (n->nout < 1 || g->vals[n->out[0]].type.dtype != GIR_DT_F32 ||
        g->vals[n->in[0]].type.dtype != GIR_DT_F32 || gir_node_is_nhwc(n))
        return 0;
    switch (n->op) {
    case GIR_OP_CONV:
        if (g->vals[n->in[0]].type.rank == 4 && g->vals[n->in[1]].kind == GIR_VAL_CONST &&
            klv_emit_conv_blocked(ir, g, n, name, plan, 0))
            return 1;
        memset(plan, 0, sizeof *plan);
        return emit_conv(ir, g, n, name, plan);
    case GIR_OP_YOLO:
        return emit_yolo(ir, g, n, name, plan);
    case GIR_OP_RELU:
    case GIR_OP_LEAKYRELU:
    case GIR_OP_SIGMOID:
    case GIR_OP_TANH:
    case GIR_OP_CLIP:
        if (emit_unary(ir, g, n, name, plan))
            return 1;
        memset(plan, 0, sizeof *plan);
        return n->op == GIR_OP_CLIP ? emit_clip_dyn(ir, g, n, name, plan) : 0;
    case GIR_OP_ADD:
    case GIR_OP_SUB:
    case GIR_OP_MUL:
    case GIR_OP_DIV:
    case GIR_OP_POW:
        if (emit_binary(ir, g, n, name, plan))
            return 1;
        memset(plan, 0, sizeof *plan);
        return emit_bcast(ir, g, n, name, plan);
    case GIR_OP_MAX:
    case GIR_OP_MIN:
    case GIR_OP_SUM:
    case GIR_OP_MEAN:
    case GIR_OP_PRELU:
    case GIR_OP_MOD:
        return emit_bcast(ir, g, n, name, plan);
    case GIR_OP_GLOBALAVGPOOL:
    case GIR_OP_GLOBALMAXPOOL:
        return emit_gap(ir, g, n, name, plan);
    case GIR_OP_SOFTMAX:
        return emit_softmax(ir, g, n, name, plan);
    case GIR_OP_LOGSOFTMAX:
    case GIR_OP_HARDMAX:
        return emit_softmax_like(ir, g, n, name, plan);
    case GIR_OP_ABS:
    case GIR_OP_NEG:
    case GIR_OP_EXP:
    case GIR_OP_LOG:
    case GIR_OP_SQRT:
    case GIR_OP_RECIPROCAL:
    case GIR_OP_FLOOR:
    case GIR_OP_CEIL:
    case GIR_OP_ERF:
    case GIR_OP_HARDSIGMOID:
    case GIR_OP_HARDSWISH:
    case GIR_OP_ROUND:
    case GIR_OP_SIGN:
    case GIR_OP_SIN:
    case GIR_OP_COS:
    case GIR_OP_TAN:
    case GIR_OP_ASIN:
    case GIR_OP_ACOS:
    case GIR_OP_ATAN:
    case GIR_OP_SINH:
    case GIR_OP_COSH:
    case GIR_OP_ASINH:
    case GIR_OP_ACOSH:
    case GIR_OP_ATANH:
    case GIR_OP_SOFTPLUS:
    case GIR_OP_SOFTSIGN:
    case GIR_OP_ELU:
    case GIR_OP_SELU:
    case GIR_OP_CELU:
    case GIR_OP_THRESHOLDEDRELU:
    case GIR_OP_SHRINK:
        return emit_unary_f64(ir, g, n, name, plan);
    case GIR_OP_REDUCEMEAN:
    case GIR_OP_REDUCESUM:
    case GIR_OP_REDUCEMAX:
    case GIR_OP_REDUCEMIN:
    case GIR_OP_REDUCEPROD:
    case GIR_OP_REDUCEL1:
    case GIR_OP_REDUCEL2:
    case GIR_OP_REDUCESUMSQUARE:
    case GIR_OP_REDUCELOGSUM:
    case GIR_OP_REDUCELOGSUMEXP:
        return emit_reduce(ir, g, n, name, plan);
    case GIR_OP_LAYERNORM:
    case GIR_OP_INSTANCENORM:
        return emit_layernorm(ir, g, n, name, plan);
    case GIR_OP_BATCHNORM:
        return emit_batchnorm(ir, g, n, name, plan);
    case GIR_OP_LRN:
        return emit_lrn(ir, g, n, name, plan);
    case GIR_OP_GRIDSAMPLE:
        return emit_gridsample(ir, g, n, name, plan);
    case GIR_OP_MVN:
        return emit_mvn(ir, g, n, name, plan);
    case GIR_OP_CONVTRANSPOSE:
        return emit_convtranspose(ir, g, n, name, plan);
    case GIR_OP_RESIZE:
        return emit_resize(ir, g, n, name, plan);
    case GIR_OP_GEMM:
    case GIR_OP_MATMUL:
        return klv_emit_gemm_f32(ir, g, n, name, plan, e);
    default:
        return 0;
    }
}
