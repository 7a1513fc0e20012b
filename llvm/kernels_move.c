/*
 * Kernels that move data without arithmetic, for any element type: 1-D
 * to 3-D MaxPool (and AveragePool's window walk), Concat and Split, the
 * copies of Reshape-like ops, tables of shape-only results (Shape, Size,
 * EyeLike), ConstantOfShape, Range and OneHot of static shapes, gathers and scatters of computed indices (guarded: an index
 * out of range hands the node to the interpreter), and gathers.  A gather
 * (Resize nearest, Transpose, Slice, Pad, and with constant indices,
 * shapes or repeats Gather, GatherElements, GatherND, Expand, Tile,
 * DepthToSpace, SpaceToDepth, ReverseSequence) reads y[i] = x[table[i]] with a
 * table found now by running the node once in the interpreter on an input
 * whose elements are their own indices, so the index arithmetic is the
 * interpreter's by construction (a Pad's fill: entry -1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static LLVMTypeRef elem_type(KlvIr *ir, GirDType t)
{
    switch (t) {
    case GIR_DT_F32: return ir->f32;
    case GIR_DT_I8: return ir->i8;
    case GIR_DT_U8: return ir->i8;
    default: return NULL;
    }
}

/* The state of one MaxPool output while its taps are walked. */
typedef struct {
    LLVMValueRef best, at, found; /* allocas: the maximum, its index, any tap inside yet */
} PoolMax;

/* One MaxPool tap at input coordinates (iz, iy, ix) of the plane at xp,
 * as pool() of interp.c takes it: a tap inside the input is taken when it
 * is the first inside or greater than the maximum so far; its index
 * (iz * H + iy) * W + ix, or with storage_order 1 iz + iy * D + ix * D * H. */
static void maxpool_tap(KlvIr *ir, LLVMTypeRef et, int isf, int isu, int colmajor, const KlvDepth *dp,
                        int64_t H, int64_t W, LLVMValueRef xp, LLVMValueRef iz, LLVMValueRef iy,
                        LLVMValueRef ix, const PoolMax *m)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef in = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULT, iz, klv_i64(ir, dp->D), ""),
                                   LLVMBuildICmp(b, LLVMIntULT, iy, klv_i64(ir, H), ""), "");
    LLVMValueRef at, v, gt, best, found, take;
    in = LLVMBuildAnd(b, in, LLVMBuildICmp(b, LLVMIntULT, ix, klv_i64(ir, W), ""), "");
    at = klv_add(ir, klv_mul(ir, klv_add(ir, klv_affine(ir, iz, H, 0), iy), klv_i64(ir, W)), ix);
    at = LLVMBuildSelect(b, in, at, klv_i64(ir, 0), "");
    v = klv_load(ir, et, xp, at);
    best = LLVMBuildLoad2(b, et, m->best, "");
    found = LLVMBuildLoad2(b, ir->i1, m->found, "");
    gt = isf ? LLVMBuildFCmp(b, LLVMRealOGT, v, best, "")
             : LLVMBuildICmp(b, isu ? LLVMIntUGT : LLVMIntSGT, v, best, "");
    take = LLVMBuildAnd(b, in, LLVMBuildOr(b, gt, LLVMBuildNot(b, found, ""), ""), "");
    LLVMBuildStore(b, LLVMBuildSelect(b, take, v, best, ""), m->best);
    LLVMBuildStore(b, LLVMBuildOr(b, found, in, ""), m->found);
    if (m->at) {
        if (colmajor)
            at = klv_add(ir, klv_add(ir, iz, klv_mul(ir, iy, klv_i64(ir, dp->D))),
                         klv_mul(ir, ix, klv_i64(ir, dp->D * H)));
        LLVMBuildStore(b, LLVMBuildSelect(b, take, at, LLVMBuildLoad2(b, ir->i64, m->at, ""), ""), m->at);
    }
}

/* One output of a 2-D MaxPool at (oyi, oxi) of the plane at xp into yp.
 * fast: every tap is inside the input (the caller knows), so the first tap
 * starts the maximum and each later one is taken when greater, without
 * bounds (LLVM vectorizes the loop of such outputs); else maxpool_tap's
 * walk. */
static void maxpool2d_out(KlvIr *ir, LLVMTypeRef et, int isf, int isu, const KlvDepth *dp,
                          const KlvWin2 *w, const PoolMax *m, LLVMValueRef xp, LLVMValueRef yp,
                          LLVMValueRef oyi, LLVMValueRef oxi, int fast)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef oy = klv_affine(ir, oyi, w->s[0], -w->p[0]), ox = klv_affine(ir, oxi, w->s[1], -w->p[1]);
    LLVMValueRef best, at = klv_add(ir, klv_mul(ir, oyi, klv_i64(ir, w->OW)), oxi);
    int64_t ky, kx;
    if (fast) {
        LLVMValueRef base = klv_add(ir, klv_mul(ir, oy, klv_i64(ir, w->W)), ox), v, gt;
        best = NULL;
        for (ky = 0; ky < w->KH; ky++)
            for (kx = 0; kx < w->KW; kx++) {
                v = klv_load(ir, et, xp, klv_add(ir, base, klv_i64(ir, ky * w->d[0] * w->W + kx * w->d[1])));
                if (!best) {
                    best = v;
                    continue;
                }
                gt = isf ? LLVMBuildFCmp(b, LLVMRealOGT, v, best, "")
                         : LLVMBuildICmp(b, isu ? LLVMIntUGT : LLVMIntSGT, v, best, "");
                best = LLVMBuildSelect(b, gt, v, best, "");
            }
        klv_store(ir, et, yp, at, best);
        return;
    }
    LLVMBuildStore(b, isf ? klv_f32c(ir, -INFINITY) : LLVMConstInt(ir->i8, isu ? 0 : (unsigned long long)-128, 1),
                   m->best);
    LLVMBuildStore(b, LLVMConstInt(ir->i1, 0, 0), m->found);
    for (ky = 0; ky < w->KH; ky++)
        for (kx = 0; kx < w->KW; kx++)
            maxpool_tap(ir, et, isf, isu, 0, dp, w->H, w->W, xp, klv_i64(ir, 0),
                        klv_add(ir, oy, klv_i64(ir, ky * w->d[0])), klv_add(ir, ox, klv_i64(ir, kx * w->d[1])), m);
    klv_store(ir, et, yp, at, LLVMBuildLoad2(b, et, m->best, ""));
}

/* First and end of the outputs along an axis whose window lies inside the
 * input: o * s - p >= 0 and o * s - p + (k - 1) * d <= n - 1. */
static void inside_range(int64_t n, int64_t on, int64_t k, int64_t s, int64_t d, int64_t p, int64_t *a,
                         int64_t *e)
{
    int64_t last = n - 1 - (k - 1) * d + p; /* o * s <= last */
    *a = (p + s - 1) / s;
    *e = last < 0 ? 0 : last / s + 1;
    if (*a > on)
        *a = on;
    if (*e > on)
        *e = on;
    if (*e < *a)
        *e = *a;
}

/* A 2-D MaxPool without Indices: per output row, the outputs whose window
 * lies inside the input (rows and columns worked out now) in a loop of
 * their own with no bounds (maxpool2d_out fast), the others with them. */
static void emit_maxpool2d(KlvIr *ir, LLVMTypeRef et, int isf, int isu, const KlvDepth *dp,
                           const KlvWin2 *w, const char *name, KlvPlan *plan, int64_t planes)
{
    LLVMBuilderRef b = ir->b;
    int64_t ya, ye, xa, xe;
    PoolMax m;
    KlvLoop lp, loy, lox;
    LLVMValueRef xp, yp, rin;
    LLVMBasicBlockRef fast, slow, next;
    int k;
    inside_range(w->H, w->OH, w->KH, w->s[0], w->d[0], w->p[0], &ya, &ye);
    inside_range(w->W, w->OW, w->KW, w->s[1], w->d[1], w->p[1], &xa, &xe);
    klv_kernel_begin(ir, name);
    m.best = LLVMBuildAlloca(b, et, "best");
    m.found = LLVMBuildAlloca(b, ir->i1, "found");
    m.at = NULL;
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    xp = klv_gep(ir, et, klv_arg(ir, 0), klv_mul(ir, lp.iv, klv_i64(ir, w->H * w->W)));
    yp = klv_gep(ir, et, klv_arg(ir, 1), klv_mul(ir, lp.iv, klv_i64(ir, w->OH * w->OW)));
    loy = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, w->OH));
    if (xa > 0) {
        lox = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, xa));
        maxpool2d_out(ir, et, isf, isu, dp, w, &m, xp, yp, loy.iv, lox.iv, 0);
        klv_loop_end(ir, &lox);
    }
    rin = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSGE, loy.iv, klv_i64(ir, ya), ""),
                       LLVMBuildICmp(b, LLVMIntSLT, loy.iv, klv_i64(ir, ye), ""), "");
    fast = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "inside");
    slow = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "edge");
    next = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "next");
    LLVMBuildCondBr(b, rin, fast, slow);
    for (k = 1; k >= 0; k--) {
        LLVMPositionBuilderAtEnd(b, k ? fast : slow);
        lox = klv_loop_begin(ir, klv_i64(ir, xa), klv_i64(ir, xe));
        maxpool2d_out(ir, et, isf, isu, dp, w, &m, xp, yp, loy.iv, lox.iv, k);
        klv_loop_end(ir, &lox);
        LLVMBuildBr(b, next);
    }
    LLVMPositionBuilderAtEnd(b, next);
    if (xe < w->OW) {
        lox = klv_loop_begin(ir, klv_i64(ir, xe), klv_i64(ir, w->OW));
        maxpool2d_out(ir, et, isf, isu, dp, w, &m, xp, yp, loy.iv, lox.iv, 0);
        klv_loop_end(ir, &lox);
    }
    klv_loop_end(ir, &loy);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = planes;
    plan->work = w->OH * w->OW * w->KH * w->KW;
}

/* MaxPool, 1-D, 2-D or 3-D (gir_window's geometry, auto_pad included), f32, i8 or u8,
 * with or without the Indices output (storage_order 0 or 1), as pool() of
 * interp.c.  Outer loop over (batch, channel, output depth) planes; the
 * taps of a window unrolled (depth, row, column) up to 64 of them, in
 * loops beyond; taps in the padding are skipped. */
static int emit_maxpool(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                        KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *yt = &g->vals[n->out[0]].type;
    LLVMTypeRef et = elem_type(ir, xt->dtype);
    int cnt, isf = xt->dtype == GIR_DT_F32, isu = xt->dtype == GIR_DT_U8;
    int ind = n->nout > 1 && n->out[1] >= 0, colmajor = gir_attr_int(n, "storage_order", 0) == 1;
    const int64_t *kk = gir_attr_ints(n, "kernel_shape", &cnt);
    int64_t H, W, OH, OW, *s, *d, *p, ky, kx, kd, taps;
    KlvWin2 win;
    KlvDepth dp;
    PoolMax m;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef x, y, xp, yp, od, oz, oy, ox, at;
    KlvLoop lp, loy, lox, lz, ly, lx;
    if (!et || n->nout > 2 || !kk || cnt != xt->rank - 2 || !klv_win3(n, xt, yt, kk, &win, &dp) ||
        (ind && g->vals[n->out[1]].type.dtype != GIR_DT_I64))
        return 0;
    H = win.H, W = win.W, OH = win.OH, OW = win.OW, s = win.s, d = win.d, p = win.p;
    taps = dp.KD * win.KH * win.KW;
    if (!ind && xt->rank == 4 && dp.D == 1 && dp.KD == 1 && taps <= 64) {
        emit_maxpool2d(ir, et, isf, isu, &dp, &win, name, plan, xt->dims[0] * xt->dims[1]);
        return 1;
    }
    klv_kernel_begin(ir, name);
    m.best = LLVMBuildAlloca(b, et, "best");
    m.found = LLVMBuildAlloca(b, ir->i1, "found");
    m.at = ind ? LLVMBuildAlloca(b, ir->i64, "at") : NULL;
    x = klv_arg(ir, 0);
    y = klv_arg(ir, 1);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    /* plane iv: (batch, channel) iv / OD, output depth iv % OD */
    od = LLVMBuildURem(b, lp.iv, klv_i64(ir, dp.OD), "");
    xp = klv_gep(ir, et, x, klv_mul(ir, LLVMBuildUDiv(b, lp.iv, klv_i64(ir, dp.OD), ""), klv_i64(ir, dp.D * H * W)));
    yp = klv_gep(ir, et, y, klv_mul(ir, lp.iv, klv_i64(ir, OH * OW)));
    loy = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OH));
    lox = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OW));
    LLVMBuildStore(b, isf ? klv_f32c(ir, -INFINITY) : LLVMConstInt(ir->i8, isu ? 0 : (unsigned long long)-128, 1),
                   m.best);
    LLVMBuildStore(b, LLVMConstInt(ir->i1, 0, 0), m.found);
    if (ind)
        LLVMBuildStore(b, klv_i64(ir, -1), m.at);
    oz = klv_affine(ir, od, dp.s, -dp.pb);
    oy = klv_affine(ir, loy.iv, s[0], -p[0]);
    ox = klv_affine(ir, lox.iv, s[1], -p[1]);
    if (taps <= 64) {
        for (kd = 0; kd < dp.KD; kd++)
            for (ky = 0; ky < win.KH; ky++)
                for (kx = 0; kx < win.KW; kx++)
                    maxpool_tap(ir, et, isf, isu, colmajor, &dp, H, W, xp, klv_add(ir, oz, klv_i64(ir, kd * dp.d)),
                                klv_add(ir, oy, klv_i64(ir, ky * d[0])), klv_add(ir, ox, klv_i64(ir, kx * d[1])), &m);
    } else {
        lz = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, dp.KD));
        ly = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, win.KH));
        lx = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, win.KW));
        maxpool_tap(ir, et, isf, isu, colmajor, &dp, H, W, xp, klv_add(ir, oz, klv_mul(ir, lz.iv, klv_i64(ir, dp.d))),
                    klv_add(ir, oy, klv_mul(ir, ly.iv, klv_i64(ir, d[0]))),
                    klv_add(ir, ox, klv_mul(ir, lx.iv, klv_i64(ir, d[1]))), &m);
        klv_loop_end(ir, &lx);
        klv_loop_end(ir, &ly);
        klv_loop_end(ir, &lz);
    }
    at = klv_add(ir, klv_mul(ir, loy.iv, klv_i64(ir, OW)), lox.iv);
    klv_store(ir, et, yp, at, LLVMBuildLoad2(b, et, m.best, ""));
    if (ind) {
        /* -1 where no tap was inside, else the plane's first element
         * (batch, channel) * D * H * W plus the index */
        LLVMValueRef a = LLVMBuildLoad2(b, ir->i64, m.at, "");
        LLVMValueRef base = klv_mul(ir, LLVMBuildUDiv(b, lp.iv, klv_i64(ir, dp.OD), ""), klv_i64(ir, dp.D * H * W));
        a = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, a, klv_i64(ir, 0), ""), a, klv_add(ir, base, a), "");
        klv_store(ir, ir->i64, klv_gep(ir, ir->i64, klv_arg(ir, 2), klv_mul(ir, lp.iv, klv_i64(ir, OH * OW))), at, a);
    }
    klv_loop_end(ir, &lox);
    klv_loop_end(ir, &loy);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = xt->dims[0] * xt->dims[1] * dp.OD;
    plan->work = OH * OW * taps;
    return 1;
}

/* AveragePool, 1-D, 2-D or 3-D (gir_window's geometry), f32, as pool() of interp.c computes it: the taps
 * inside the input summed in double in window order, divided by their
 * count (count_include_pad: the taps inside input and pads), rounded to
 * f32.  Outer loop over (batch, channel, output depth) planes; window
 * taps unrolled.
 * (Arithmetic, but the window walk is MaxPool's.) */
static int emit_avgpool(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                        KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *yt = &g->vals[n->out[0]].type;
    int cnt, incl = gir_attr_int(n, "count_include_pad", 0) != 0;
    const int64_t *kk = gir_attr_ints(n, "kernel_shape", &cnt);
    int64_t H, W, OH, OW, *s, *d, *p, k[2], ky, kx, kd;
    KlvWin2 win;
    KlvDepth dp;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef dt = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef x, y, xp, yp, sum, nin, npad, div, r, od;
    KlvLoop lp, loy, lox;
    if (xt->dtype != GIR_DT_F32 || n->nout != 1 || !kk || cnt != xt->rank - 2 ||
        !klv_win3(n, xt, yt, kk, &win, &dp) || dp.KD * win.KH * win.KW > 64)
        return 0;
    H = win.H, W = win.W, OH = win.OH, OW = win.OW, s = win.s, d = win.d, p = win.p;
    k[0] = win.KH, k[1] = win.KW;
    klv_kernel_begin(ir, name);
    x = klv_arg(ir, 0);
    y = klv_arg(ir, 1);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    /* plane iv: (batch, channel) iv / OD, output depth iv % OD */
    od = LLVMBuildURem(b, lp.iv, klv_i64(ir, dp.OD), "");
    xp = klv_gep(ir, ir->f32, x, klv_mul(ir, LLVMBuildUDiv(b, lp.iv, klv_i64(ir, dp.OD), ""), klv_i64(ir, dp.D * H * W)));
    yp = klv_gep(ir, ir->f32, y, klv_mul(ir, lp.iv, klv_i64(ir, OH * OW)));
    loy = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OH));
    lox = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OW));
    sum = LLVMConstReal(dt, 0);
    nin = klv_i64(ir, 0);
    npad = klv_i64(ir, 0);
    for (kd = 0; kd < dp.KD; kd++) {
        LLVMValueRef iz = klv_affine(ir, od, dp.s, kd * dp.d - dp.pb);
        LLVMValueRef inz = LLVMBuildICmp(b, LLVMIntULT, iz, klv_i64(ir, dp.D), "");
        LLVMValueRef padz = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSGE, iz, klv_i64(ir, -dp.pb), ""),
                                         LLVMBuildICmp(b, LLVMIntSLT, iz, klv_i64(ir, dp.D + dp.pe), ""), "");
        for (ky = 0; ky < k[0]; ky++) {
            LLVMValueRef iy = klv_affine(ir, loy.iv, s[0], ky * d[0] - p[0]);
            LLVMValueRef iny = LLVMBuildAnd(b, inz, LLVMBuildICmp(b, LLVMIntULT, iy, klv_i64(ir, H), ""), "");
            /* inside input or pads: -pads_begin <= iy < H + pads_end */
            LLVMValueRef pady = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSGE, iy, klv_i64(ir, -p[0]), ""),
                                             LLVMBuildICmp(b, LLVMIntSLT, iy, klv_i64(ir, H + p[2]), ""), "");
            pady = LLVMBuildAnd(b, padz, pady, "");
            for (kx = 0; kx < k[1]; kx++) {
                LLVMValueRef ix = klv_affine(ir, lox.iv, s[1], kx * d[1] - p[1]);
                LLVMValueRef in = LLVMBuildAnd(b, iny, LLVMBuildICmp(b, LLVMIntULT, ix, klv_i64(ir, W), ""), "");
                LLVMValueRef padx = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSGE, ix, klv_i64(ir, -p[1]), ""),
                                                 LLVMBuildICmp(b, LLVMIntSLT, ix, klv_i64(ir, W + p[3]), ""), "");
                LLVMValueRef at = klv_add(ir, klv_mul(ir, klv_add(ir, klv_affine(ir, iz, H, 0), iy), klv_i64(ir, W)), ix), v;
                at = LLVMBuildSelect(b, in, at, klv_i64(ir, 0), "");
                v = LLVMBuildFPExt(b, klv_load(ir, ir->f32, xp, at), dt, "");
                /* sum never is -0, so adding +0 for a tap outside changes nothing */
                sum = LLVMBuildFAdd(b, sum, LLVMBuildSelect(b, in, v, LLVMConstReal(dt, 0), ""), "");
                nin = klv_add(ir, nin, LLVMBuildZExt(b, in, ir->i64, ""));
                npad = klv_add(ir, npad, LLVMBuildZExt(b, LLVMBuildAnd(b, pady, padx, ""), ir->i64, ""));
            }
        }
    }
    div = incl ? npad : nin;
    r = LLVMBuildFDiv(b, sum, LLVMBuildSIToFP(b, div, dt, ""), "");
    r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, div, klv_i64(ir, 0), ""), LLVMConstReal(dt, 0), r, "");
    klv_store(ir, ir->f32, yp, klv_add(ir, klv_mul(ir, loy.iv, klv_i64(ir, OW)), lox.iv),
              LLVMBuildFPTrunc(b, r, ir->f32, ""));
    klv_loop_end(ir, &lox);
    klv_loop_end(ir, &loy);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = xt->dims[0] * xt->dims[1] * dp.OD;
    plan->work = OH * OW * dp.KD * k[0] * k[1] * 2;
    return 1;
}

#define COPY_CHUNK 65536 /* bytes per outer step of a copy */

/* A reduction (Reduce*) given no axes with noop_with_empty_axes set: its
 * output is its input (eval_REDUCE copies it), a copy. */
static int reduce_noop(const GirGraph *g, const GirNode *n)
{
    const GirType *xt = &g->vals[n->in[0]].type, *yt = &g->vals[n->out[0]].type;
    switch (n->op) {
    case GIR_OP_REDUCEMEAN: case GIR_OP_REDUCESUM: case GIR_OP_REDUCEMAX: case GIR_OP_REDUCEMIN:
    case GIR_OP_REDUCEPROD: case GIR_OP_REDUCEL1: case GIR_OP_REDUCEL2: case GIR_OP_REDUCESUMSQUARE:
    case GIR_OP_REDUCELOGSUM: case GIR_OP_REDUCELOGSUMEXP:
        break;
    default:
        return 0;
    }
    if (!gir_attr_int(n, "noop_with_empty_axes", 0) || n->nin < 1 || xt->dtype != yt->dtype ||
        gir_type_bytes(xt) != gir_type_bytes(yt))
        return 0;
    return n->nin < 2 || n->in[1] < 0 ||
           (g->vals[n->in[1]].kind == GIR_VAL_CONST && gir_type_numel(&g->vals[n->in[1]].type) == 0);
}

/* Reshape, Flatten, Squeeze, Unsqueeze, Identity: the bytes of input 0. */
static int emit_copy(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan)
{
    int64_t bytes = gir_type_bytes(&g->vals[n->out[0]].type);
    LLVMValueRef start, len;
    KlvLoop l;
    if (bytes <= 0)
        return 0;
    klv_kernel_begin(ir, name);
    l = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    start = klv_mul(ir, l.iv, klv_i64(ir, COPY_CHUNK));
    len = LLVMBuildSub(ir->b, klv_i64(ir, bytes), start, "");
    len = LLVMBuildSelect(ir->b, LLVMBuildICmp(ir->b, LLVMIntSGT, len, klv_i64(ir, COPY_CHUNK), ""),
                          klv_i64(ir, COPY_CHUNK), len, "");
    LLVMBuildMemCpy(ir->b, klv_gep(ir, ir->i8, klv_arg(ir, n->nin), start), 1,
                    klv_gep(ir, ir->i8, klv_arg(ir, 0), start), 1, len);
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = (bytes + COPY_CHUNK - 1) / COPY_CHUNK;
    plan->work = COPY_CHUNK / 4;
    return 1;
}

/* The gather table of a one-input data movement node: run it on the
 * indices of its input as f32 (exact below 2^24).  A Pad runs on the
 * indices plus one with a fill of 0, so an output element that is the fill
 * gets entry -1.  NULL when the node does not take that input or the sizes
 * do not allow it. */
static int32_t *probe_table(const GirGraph *g, const GirNode *n)
{
    const GirType *xt = &g->vals[n->in[0]].type;
    int64_t nx = gir_type_numel(xt), ny = gir_type_numel(&g->vals[n->out[0]].type), i;
    GirTensor ins[8], out;
    GirArena *a;
    GirError e;
    int32_t *tab = NULL;
    int pad = n->op == GIR_OP_PAD;
    float *px, zero = 0;
    if (nx <= 0 || nx >= (1 << 24) || ny <= 0 || n->nin > 8 || n->nout != 1)
        return NULL;
    for (i = 1; i < n->nin; i++)
        if (n->in[i] >= 0 && g->vals[n->in[i]].kind != GIR_VAL_CONST && !(pad && i == 2))
            return NULL;
    if (pad && n->nin > 2 && n->in[2] >= 0 && gir_type_numel(&g->vals[n->in[2]].type) != 1)
        return NULL;
    a = gir_arena_new();
    memset(ins, 0, sizeof ins);
    ins[0].type = *xt;
    ins[0].type.dtype = GIR_DT_F32;
    px = gir_arena_alloc(a, sizeof *px * (size_t)nx);
    for (i = 0; i < nx; i++)
        px[i] = (float)(i + pad);
    ins[0].data = px;
    for (i = 1; i < n->nin; i++)
        if (n->in[i] >= 0) {
            ins[i].type = g->vals[n->in[i]].type;
            ins[i].data = g->vals[n->in[i]].data;
        }
    if (pad && n->nin > 2 && n->in[2] >= 0) {
        /* the constant_value, as an f32 0 */
        ins[2].type.dtype = GIR_DT_F32;
        ins[2].data = &zero;
    }
    if (klv_interp_node(g, n, ins, &out, a, &e) == 0 && out.type.dtype == GIR_DT_F32 &&
        gir_type_numel(&out.type) == ny) {
        const float *py = out.data;
        tab = malloc(sizeof *tab * (size_t)ny);
        for (i = 0; tab && i < ny; i++) {
            float v = py[i] - (float)pad;
            if (!(v >= -pad && v < (float)nx && v == floorf(v))) {
                free(tab);
                tab = NULL;
                break;
            }
            tab[i] = (int32_t)v;
        }
    }
    gir_arena_free(a);
    return tab;
}

#define GATHER_CHUNK 4096 /* elements per outer step of a gather */

static int emit_gather(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *yt = &g->vals[n->out[0]].type;
    LLVMTypeRef et = elem_type(ir, yt->dtype);
    int64_t total = gir_type_numel(yt);
    size_t esz = gir_dtype_size(yt->dtype);
    int32_t *tab;
    LLVMValueRef start, end, t, fill = NULL;
    KlvLoop lc, li;
    /* Pad moves elements of any type: an integer of their size */
    if (!et && n->op == GIR_OP_PAD && (esz == 2 || esz == 4 || esz == 8))
        et = LLVMIntTypeInContext(ir->ctx, (unsigned)(esz * 8));
    if (!et || g->vals[n->in[0]].type.dtype != yt->dtype || !(tab = probe_table(g, n)))
        return 0;
    if (n->op == GIR_OP_PAD) {
        const void *cv = n->nin > 2 && n->in[2] >= 0 ? g->vals[n->in[2]].data : NULL;
        int dyn = n->nin > 2 && n->in[2] >= 0 && g->vals[n->in[2]].kind != GIR_VAL_CONST;
        if (dyn && g->vals[n->in[2]].type.dtype != yt->dtype) {
            free(tab);
            return 0;
        }
        if (dyn) {
            /* a constant_value the program reads when it runs: loaded in
             * the kernel below */
        } else if (yt->dtype == GIR_DT_F32) {
            float f = 0;
            if (cv)
                memcpy(&f, cv, sizeof f);
            fill = klv_f32c(ir, f);
        } else if (esz > 1) {
            /* the constant_value's bytes (little-endian), 0 without one */
            uint64_t u = 0;
            if (cv)
                memcpy(&u, cv, esz);
            fill = LLVMConstInt(et, u, 0);
        } else {
            int8_t c = cv ? *(const int8_t *)cv : 0;
            fill = LLVMConstInt(ir->i8, (unsigned long long)(int64_t)c, 1);
        }
    }
    klv_plan_extra(plan, tab, total * 4, KLV_TABLE, 1);
    klv_kernel_begin(ir, name);
    t = klv_arg(ir, n->nin + 1);
    if (n->op == GIR_OP_PAD && !fill)
        fill = klv_load(ir, et, klv_arg(ir, 2), klv_i64(ir, 0));
    lc = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    start = klv_mul(ir, lc.iv, klv_i64(ir, GATHER_CHUNK));
    end = klv_add(ir, start, klv_i64(ir, GATHER_CHUNK));
    end = LLVMBuildSelect(ir->b, LLVMBuildICmp(ir->b, LLVMIntSGT, end, klv_i64(ir, total), ""),
                          klv_i64(ir, total), end, "");
    li = klv_loop_begin(ir, start, end);
    {
        LLVMValueRef at = LLVMBuildSExt(ir->b, klv_load(ir, ir->i32, t, li.iv), ir->i64, "");
        LLVMValueRef v;
        if (fill) {
            /* entry -1: the Pad's fill */
            LLVMValueRef out = LLVMBuildICmp(ir->b, LLVMIntSLT, at, klv_i64(ir, 0), "");
            LLVMValueRef safe = LLVMBuildSelect(ir->b, out, klv_i64(ir, 0), at, "");
            v = klv_load(ir, et, klv_arg(ir, 0), safe);
            v = LLVMBuildSelect(ir->b, out, fill, v, "");
        } else {
            v = klv_load(ir, et, klv_arg(ir, 0), at);
        }
        klv_store(ir, et, klv_arg(ir, n->nin), li.iv, v);
    }
    klv_loop_end(ir, &li);
    klv_loop_end(ir, &lc);
    klv_kernel_end(ir);
    plan->range = (total + GATHER_CHUNK - 1) / GATHER_CHUNK;
    plan->work = GATHER_CHUNK;
    return 1;
}

/* Shape, Size and EyeLike: their output depends on shapes and attributes
 * alone, which are constants of the program, never on the input's data.
 * The node runs once now in the interpreter on zeros (its own arithmetic,
 * by construction) and the kernel copies the answer from a table. */
static int emit_const_result(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                             KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type;
    int64_t xb = gir_type_bytes(xt), yb = gir_type_bytes(&g->vals[n->out[0]].type);
    GirTensor in, out;
    GirArena *a;
    GirError e;
    void *tab = NULL;
    if (n->nin != 1 || xb < 0 || xb > ((int64_t)1 << 26) || yb <= 0 || yb > ((int64_t)1 << 24))
        return 0;
    a = gir_arena_new();
    in.type = *xt;
    in.data = gir_arena_alloc(a, (size_t)xb + 1); /* zeroed */
    if (klv_interp_node(g, n, &in, &out, a, &e) == 0 && gir_type_bytes(&out.type) == yb &&
        (tab = malloc((size_t)yb)))
        memcpy(tab, out.data, (size_t)yb);
    gir_arena_free(a);
    if (!tab)
        return 0;
    klv_plan_extra(plan, tab, yb, KLV_TABLE, 1);
    klv_kernel_begin(ir, name);
    LLVMBuildMemCpy(ir->b, klv_arg(ir, n->nin), 1, klv_arg(ir, n->nin + 1), 1, klv_i64(ir, yb));
    klv_kernel_end(ir);
    plan->range = 1;
    plan->work = yb / 4 + 1;
    plan->threads = 1;
    return 1;
}

/* Concat (inputs of one element type) and Split (eval_SPLIT): per outer
 * index of the axis, each part's block (an input of Concat, an output of
 * Split) copied to or from its place in the whole (Concat's output,
 * Split's input). */
static int emit_concat_split(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                             KlvPlan *plan)
{
    int split = n->op == GIR_OP_SPLIT, np = split ? n->nout : n->nin, k;
    int whole = split ? n->in[0] : n->out[0];
    const GirType *wt = &g->vals[whole].type;
    int64_t ax = gir_attr_int(n, "axis", 0), outer, row, off = 0, es = (int64_t)gir_dtype_size(wt->dtype);
    KlvLoop lo;
    if (ax < 0)
        ax += wt->rank;
    if (ax < 0 || ax >= wt->rank || es == 0 || np > 64)
        return 0;
    outer = klv_dims_prod(wt->dims, 0, ax);
    row = outer ? gir_type_numel(wt) / outer * es : 0;
    for (k = 0; k < np; k++) {
        int v = split ? n->out[k] : n->in[k];
        if (v < 0 || g->vals[v].type.rank != wt->rank)
            return 0;
        off += outer ? gir_type_numel(&g->vals[v].type) / outer * es : 0;
    }
    if (off != row)
        return 0;
    off = 0;
    klv_kernel_begin(ir, name);
    lo = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    for (k = 0; k < np; k++) {
        int64_t chunk = outer ? gir_type_numel(&g->vals[split ? n->out[k] : n->in[k]].type) / outer * es : 0;
        LLVMValueRef at = klv_gep(ir, ir->i8, klv_arg(ir, split ? 0 : n->nin), klv_affine(ir, lo.iv, row, off));
        LLVMValueRef part = klv_gep(ir, ir->i8, klv_arg(ir, split ? n->nin + k : k),
                                    klv_mul(ir, lo.iv, klv_i64(ir, chunk)));
        if (chunk > 0)
            LLVMBuildMemCpy(ir->b, split ? part : at, 1, split ? at : part, 1, klv_i64(ir, chunk));
        off += chunk;
    }
    klv_loop_end(ir, &lo);
    klv_kernel_end(ir);
    plan->range = outer;
    plan->work = row / 4;
    return 1;
}

/* A node whose outputs all have no elements: nothing to compute. */
static int emit_empty(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                      KlvPlan *plan)
{
    int k;
    if (n->nout < 1)
        return 0;
    for (k = 0; k < n->nout; k++)
        if (n->out[k] >= 0 && (g->vals[n->out[k]].type.rank < 0 ||
                               gir_type_numel(&g->vals[n->out[k]].type) != 0))
            return 0;
    klv_kernel_begin(ir, name);
    klv_kernel_end(ir);
    plan->range = 0;
    plan->threads = 1;
    return 1;
}

/* Index entry at of the indices (argument 1, dtype i32 or i64) as
 * index_at of interp.c takes it for an axis of dim: negative ones counted
 * from the end; out of range sets the guard (argument guard) and reads 0. */
static LLVMValueRef index_value(KlvIr *ir, GirDType it, LLVMValueRef at, int64_t dim, int guard)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef v = klv_load(ir, it == GIR_DT_I64 ? ir->i64 : ir->i32, klv_arg(ir, 1), at), bad;
    if (it != GIR_DT_I64)
        v = LLVMBuildSExt(b, v, ir->i64, "");
    bad = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntSLT, v, klv_i64(ir, -dim), ""),
                      LLVMBuildICmp(b, LLVMIntSGE, v, klv_i64(ir, dim), ""), "");
    klv_guard(ir, guard, bad);
    v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, v, klv_i64(ir, 0), ""),
                        klv_add(ir, v, klv_i64(ir, dim)), v, "");
    return LLVMBuildSelect(b, bad, klv_i64(ir, 0), v, "");
}

/* The element of data x (strides xs) that element i of the indices it
 * names along axis ax, its other coordinates those of i (GatherElements,
 * ScatterElements); guarded. */
static LLVMValueRef elements_offset(KlvIr *ir, const GirType *xt, const int64_t *xs,
                                    const GirType *it, int64_t ax, LLVMValueRef i, int guard)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef src = klv_mul(ir, index_value(ir, it->dtype, i, xt->dims[ax], guard), klv_i64(ir, xs[ax]));
    int64_t is = 1;
    int d;
    for (d = it->rank - 1; d >= 0; d--) {
        LLVMValueRef c = LLVMBuildURem(b, LLVMBuildUDiv(b, i, klv_i64(ir, is), ""),
                                       klv_i64(ir, it->dims[d]), "");
        if (d != ax)
            src = klv_add(ir, src, klv_mul(ir, c, klv_i64(ir, xs[d])));
        is *= it->dims[d];
    }
    return src;
}

/* The slice of data x (axes from bd) that index tuple `row` (q entries of
 * the i64 indices) names: its number in slices of x's axes bd + q on
 * (GatherND, ScatterND); guarded. */
static LLVMValueRef nd_offset(KlvIr *ir, const GirType *xt, int64_t bd, int64_t q, LLVMValueRef row,
                              int guard)
{
    LLVMValueRef off = klv_i64(ir, 0), tup = klv_mul(ir, row, klv_i64(ir, q));
    int64_t d;
    for (d = 0; d < q; d++) {
        int64_t dim = xt->dims[bd + d];
        off = klv_add(ir, klv_mul(ir, off, klv_i64(ir, dim)),
                      index_value(ir, GIR_DT_I64, klv_add(ir, tup, klv_i64(ir, d)), dim, guard));
    }
    return off;
}

/* GatherElements and ScatterElements: indices and data of one rank, the
 * indices within the data on every axis but ax (else the interpreter's
 * error, every run). */
static int elements_fit(const GirType *xt, const GirType *it, int64_t ax)
{
    int d;
    if (it->rank != xt->rank)
        return 0;
    for (d = 0; d < xt->rank; d++)
        if (d != ax && it->dims[d] > xt->dims[d])
            return 0;
    return 1;
}

/* Gather, GatherElements and GatherND whose indices are computed (not
 * constant), as eval_GATHER, eval_GATHERELEMENTS and eval_GATHERND read
 * them; guarded (KlvPlan.guard): an index out of range hands the node to
 * the interpreter, which reports it.  Gather and GatherND copy one block
 * of the data per index (or index tuple), GatherElements one element. */
static int emit_gather_dyn(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                           KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *it = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    int64_t es = (int64_t)gir_dtype_size(xt->dtype), ax = gir_attr_int(n, "axis", 0);
    int64_t rows, len = 0, inner = 1, xs[GIR_MAX_RANK], d;
    int guard;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef src, dst;
    KlvLoop lr;
    if (n->nin != 2 || es == 0 || yt->dtype != xt->dtype || xt->rank < 1 ||
        (it->dtype != GIR_DT_I64 && it->dtype != GIR_DT_I32) || gir_type_numel(yt) <= 0 ||
        !ir->guard_ok)
        return 0;
    if (ax < 0)
        ax += xt->rank;
    if (ax < 0 || ax >= xt->rank)
        return 0;
    for (d = xt->rank - 1; d >= 0; d--) {
        xs[d] = inner;
        inner *= xt->dims[d];
    }
    if (n->op == GIR_OP_GATHER) {
        /* row r: outer index r / ni, index entry r % ni; a block of inner */
        int64_t ni = gir_type_numel(it);
        len = xt->dims[ax];
        inner = xs[ax];
        rows = klv_dims_prod(xt->dims, 0, ax) * ni;
        if (ni <= 0 || (guard = klv_plan_guard(plan, n)) < 0)
            return 0;
        klv_kernel_begin(ir, name);
        lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
        src = index_value(ir, it->dtype, LLVMBuildURem(b, lr.iv, klv_i64(ir, ni), ""), len, guard);
        src = klv_add(ir, klv_mul(ir, LLVMBuildUDiv(b, lr.iv, klv_i64(ir, ni), ""), klv_i64(ir, len)), src);
        src = klv_mul(ir, src, klv_i64(ir, inner));
    } else if (n->op == GIR_OP_GATHERND) {
        /* row r: batch r / per, index tuple r; a block of slice */
        int64_t bd = gir_attr_int(n, "batch_dims", 0), q = it->dims[it->rank - 1], per, xb;
        LLVMValueRef off;
        if (it->dtype != GIR_DT_I64 || bd < 0 || it->rank < 1 || bd + q > xt->rank || q < 1 ||
            bd >= it->rank)
            return 0;
        per = klv_dims_prod(it->dims, bd, it->rank - 1);
        rows = klv_dims_prod(xt->dims, 0, bd) * per;
        inner = klv_dims_prod(xt->dims, bd + q, xt->rank);
        xb = klv_dims_prod(xt->dims, bd, xt->rank);
        if (per <= 0 || (guard = klv_plan_guard(plan, n)) < 0)
            return 0;
        klv_kernel_begin(ir, name);
        lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
        off = nd_offset(ir, xt, bd, q, lr.iv, guard);
        src = klv_add(ir, klv_mul(ir, LLVMBuildUDiv(b, lr.iv, klv_i64(ir, per), ""), klv_i64(ir, xb)),
                      klv_mul(ir, off, klv_i64(ir, inner)));
    } else {
        /* GatherElements: row r is element r of the indices; its coordinates
         * but on the axis give the data's */
        if (!elements_fit(xt, it, ax))
            return 0;
        rows = gir_type_numel(it);
        inner = 1;
        if ((guard = klv_plan_guard(plan, n)) < 0)
            return 0;
        klv_kernel_begin(ir, name);
        lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
        src = elements_offset(ir, xt, xs, it, ax, lr.iv, guard);
    }
    src = klv_gep(ir, ir->i8, klv_arg(ir, 0), klv_mul(ir, src, klv_i64(ir, es)));
    dst = klv_gep(ir, ir->i8, klv_arg(ir, 2), klv_mul(ir, lr.iv, klv_i64(ir, inner * es)));
    LLVMBuildMemCpy(b, dst, 1, src, 1, klv_i64(ir, inner * es));
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = rows;
    plan->work = inner + 8;
    return 1;
}

/* Update element ui put at element at of the output (argument y) by the
 * node's reduction, as scatter_put of interp.c: none copies the element;
 * integers add, multiply, max, min in wrapping int64; floats in double
 * (libm's fmax, fmin), stored as st_f stores. */
static void scatter_put(KlvIr *ir, const GirNode *n, GirDType t, int y, int u, LLVMValueRef at,
                        LLVMValueRef ui)
{
    const char *red = gir_attr_string(n, "reduction", "none");
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef et = klv_elem_type(ir, t);
    LLVMValueRef a, v, r;
    if (strcmp(red, "none") == 0) {
        klv_store(ir, et, klv_arg(ir, y), at, klv_load(ir, et, klv_arg(ir, u), ui));
    } else if (!klv_is_float_dt(t)) {
        LLVMTypeRef lt = klv_elem_type(ir, GIR_DT_I64);
        int sg = t != GIR_DT_U8 && t != GIR_DT_U16 && t != GIR_DT_U32 && t != GIR_DT_BOOL;
        a = klv_load(ir, et, klv_arg(ir, y), at);
        v = klv_load(ir, et, klv_arg(ir, u), ui);
        if (et != lt) {
            a = sg ? LLVMBuildSExt(b, a, lt, "") : LLVMBuildZExt(b, a, lt, "");
            v = sg ? LLVMBuildSExt(b, v, lt, "") : LLVMBuildZExt(b, v, lt, "");
        }
        r = red[0] == 'a' ? LLVMBuildAdd(b, a, v, "")
            : red[1] == 'u' ? LLVMBuildMul(b, a, v, "")
            : LLVMBuildSelect(b, LLVMBuildICmp(b, red[1] == 'a' ? LLVMIntSGT : LLVMIntSLT, a, v, ""), a, v, "");
        klv_store(ir, et, klv_arg(ir, y), at, et == lt ? r : LLVMBuildTrunc(b, r, et, ""));
    } else {
        a = klv_load_f64(ir, t, klv_arg(ir, y), at);
        v = klv_load_f64(ir, t, klv_arg(ir, u), ui);
        r = red[0] == 'a' ? LLVMBuildFAdd(b, a, v, "")
            : red[1] == 'u' ? LLVMBuildFMul(b, a, v, "")
            : klv_call2_f64(ir, red[1] == 'a' ? "fmax" : "fmin", a, v);
        klv_store_f64(ir, t, klv_arg(ir, y), at, r);
    }
}

/* ScatterElements and ScatterND of computed indices (eval_SCATTERELEMENTS,
 * eval_SCATTERND): the data copied, then the updates put in order (a
 * later one at the same place wins, or is reduced after the earlier), on
 * one thread; guarded: an index out of range hands the node to the
 * interpreter. */
static int emit_scatter(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                        KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *it = &g->vals[n->in[1]].type;
    const GirType *ut = &g->vals[n->in[2]].type;
    const char *red = gir_attr_string(n, "reduction", "none");
    int64_t ax = gir_attr_int(n, "axis", 0), xs[GIR_MAX_RANK], s = 1, q = 0, m, slice, d;
    int guard, nd = n->op == GIR_OP_SCATTERND;
    LLVMValueRef at;
    KlvLoop lj, ls;
    if (n->nin != 3 || n->in[2] < 0 || !ir->guard_ok || !klv_elem_type(ir, xt->dtype) ||
        ut->dtype != xt->dtype || g->vals[n->out[0]].type.dtype != xt->dtype || xt->rank < 1 ||
        it->rank < 1 || (it->dtype != GIR_DT_I64 && (nd || it->dtype != GIR_DT_I32)) ||
        (strcmp(red, "none") != 0 && strcmp(red, "add") != 0 && strcmp(red, "mul") != 0 &&
         strcmp(red, "max") != 0 && strcmp(red, "min") != 0) ||
        (strcmp(red, "none") != 0 && xt->dtype == GIR_DT_BOOL))
        return 0;
    if (ax < 0)
        ax += xt->rank;
    for (d = xt->rank - 1; d >= 0; d--) {
        xs[d] = s;
        s *= xt->dims[d];
    }
    if (nd) {
        q = it->dims[it->rank - 1];
        m = klv_dims_prod(it->dims, 0, it->rank - 1);
        if (q < 1 || q > xt->rank)
            return 0;
        slice = klv_dims_prod(xt->dims, q, xt->rank);
        if (gir_type_numel(ut) != m * slice)
            return 0;
    } else {
        if (ax < 0 || ax >= xt->rank || !elements_fit(xt, it, ax) || gir_type_numel(ut) != gir_type_numel(it))
            return 0;
        m = gir_type_numel(it);
        slice = 1;
    }
    if ((guard = klv_plan_guard(plan, n)) < 0)
        return 0;
    klv_kernel_begin(ir, name);
    LLVMBuildMemCpy(ir->b, klv_arg(ir, 3), 1, klv_arg(ir, 0), 1,
                    klv_i64(ir, gir_type_bytes(xt)));
    lj = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, m));
    at = nd ? klv_mul(ir, nd_offset(ir, xt, 0, q, lj.iv, guard), klv_i64(ir, slice))
            : elements_offset(ir, xt, xs, it, ax, lj.iv, guard);
    ls = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, slice));
    scatter_put(ir, n, xt->dtype, 3, 2, klv_add(ir, at, ls.iv),
                klv_add(ir, klv_mul(ir, lj.iv, klv_i64(ir, slice)), ls.iv));
    klv_loop_end(ir, &ls);
    klv_loop_end(ir, &lj);
    klv_kernel_end(ir);
    plan->range = 1;
    plan->work = m * slice + s / 4;
    plan->threads = 1;
    return 1;
}

/* ReverseSequence of computed lengths (eval_REVERSESEQUENCE): per element
 * i, len = lengths[its batch coordinate] and t its time coordinate; t <
 * len reads element i + (len - 1 - 2t) * stride(time axis), else i.
 * Guarded: a length outside [0, time extent] hands the node to the
 * interpreter, which reports it. */
static int emit_revseq_dyn(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                           KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *lt = &g->vals[n->in[1]].type;
    int64_t es = (int64_t)gir_dtype_size(xt->dtype), ba = gir_attr_int(n, "batch_axis", 1);
    int64_t ta = gir_attr_int(n, "time_axis", 0), xs[GIR_MAX_RANK], inner = 1, cnt, T;
    int d, guard;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef et;
    LLVMValueRef i, bc, t, len, bad, src;
    KlvLoop l;
    if (n->nin != 2 || es < 1 || es > 8 || xt->rank < 2 || !ir->guard_ok ||
        (lt->dtype != GIR_DT_I64 && lt->dtype != GIR_DT_I32) ||
        g->vals[n->out[0]].type.dtype != xt->dtype || ba < 0 || ba >= xt->rank || ta < 0 ||
        ta >= xt->rank || ba == ta || gir_type_numel(lt) < xt->dims[ba])
        return 0;
    for (d = xt->rank - 1; d >= 0; d--) {
        xs[d] = inner;
        inner *= xt->dims[d];
    }
    cnt = inner;
    T = xt->dims[ta];
    et = LLVMIntTypeInContext(ir->ctx, (unsigned)(es * 8));
    if ((guard = klv_plan_guard(plan, n)) < 0)
        return 0;
    klv_kernel_begin(ir, name);
    l = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    i = l.iv;
    bc = LLVMBuildURem(b, LLVMBuildUDiv(b, i, klv_i64(ir, xs[ba]), ""), klv_i64(ir, xt->dims[ba]), "");
    t = LLVMBuildURem(b, LLVMBuildUDiv(b, i, klv_i64(ir, xs[ta]), ""), klv_i64(ir, T), "");
    len = klv_load(ir, lt->dtype == GIR_DT_I64 ? ir->i64 : ir->i32, klv_arg(ir, 1), bc);
    if (lt->dtype != GIR_DT_I64)
        len = LLVMBuildSExt(b, len, ir->i64, "");
    bad = LLVMBuildICmp(b, LLVMIntUGT, len, klv_i64(ir, T), "");
    klv_guard(ir, guard, bad);
    src = klv_add(ir, i, klv_mul(ir, LLVMBuildSub(b, LLVMBuildSub(b, len, klv_i64(ir, 1), ""),
                                                  klv_mul(ir, t, klv_i64(ir, 2)), ""),
                                 klv_i64(ir, xs[ta])));
    src = LLVMBuildSelect(b, LLVMBuildAnd(b, LLVMBuildNot(b, bad, ""),
                                          LLVMBuildICmp(b, LLVMIntSLT, t, len, ""), ""),
                          src, i, "");
    klv_store(ir, et, klv_arg(ir, 2), i, klv_load(ir, et, klv_arg(ir, 0), src));
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = cnt;
    plan->work = 2;
    return 1;
}

/* MaxUnpool (eval_MAXUNPOOL): one step on one thread, the output zeroed
 * (as the interpreter's is), then per input element i in order the index
 * at = I[i], a flat position in the shape the attributes give (the MaxPool
 * input), placed at the same coordinates of the output and set to x[i] (a
 * later one at the same place wins).  Guarded: an index outside that shape
 * or a coordinate outside output_shape goes to the interpreter. */
static int emit_maxunpool(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                          KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *it = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    int cnt, ck, cs, cp, d, r = xt->rank, guard;
    const int64_t *k = gir_attr_ints(n, "kernel_shape", &ck);
    const int64_t *st = gir_attr_ints(n, "strides", &cs);
    const int64_t *pa = gir_attr_ints(n, "pads", &cp);
    int64_t dflt[GIR_MAX_RANK], ys[GIR_MAX_RANK], ne = gir_type_numel(xt), nd, q, yn = gir_type_numel(yt);
    LLVMBuilderRef b = ir->b;
    LLVMValueRef at, bad, off;
    KlvLoop l;
    (void)cnt;
    if (n->nin < 2 || n->nout != 1 || !ir->guard_ok || !klv_is_float_dt(xt->dtype) ||
        yt->dtype != xt->dtype || it->dtype != GIR_DT_I64 || gir_type_numel(it) != ne || r < 3 ||
        yt->rank != r || !k || ck != r - 2 || (st && cs != r - 2) || (pa && cp != 2 * (r - 2)) || ne < 1)
        return 0;
    dflt[0] = xt->dims[0];
    dflt[1] = xt->dims[1];
    for (d = 2; d < r; d++)
        dflt[d] = (xt->dims[d] - 1) * (st ? st[d - 2] : 1) + k[d - 2] -
                  (pa ? pa[d - 2] + pa[r - 2 + d - 2] : 0);
    for (d = r - 1, q = 1; d >= 0; d--) {
        if (dflt[d] < 1)
            return 0;
        ys[d] = q;
        q *= yt->dims[d];
    }
    nd = klv_dims_prod(dflt, 0, r);
    if ((guard = klv_plan_guard(plan, n)) < 0)
        return 0;
    klv_kernel_begin(ir, name);
    l = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, yn));
    klv_store_f64(ir, yt->dtype, klv_arg(ir, n->nin), l.iv, LLVMConstReal(LLVMDoubleTypeInContext(ir->ctx), 0));
    klv_loop_end(ir, &l);
    l = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, ne));
    at = klv_load(ir, ir->i64, klv_arg(ir, 1), l.iv);
    bad = LLVMBuildICmp(b, LLVMIntUGE, at, klv_i64(ir, nd), "");
    off = klv_i64(ir, 0);
    for (d = r - 1, q = 1; d >= 0; d--) {
        LLVMValueRef c = LLVMBuildURem(b, LLVMBuildUDiv(b, at, klv_i64(ir, q), ""), klv_i64(ir, dflt[d]), "");
        bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntUGE, c, klv_i64(ir, yt->dims[d]), ""), "");
        off = klv_add(ir, off, klv_mul(ir, c, klv_i64(ir, ys[d])));
        q *= dflt[d];
    }
    klv_guard(ir, guard, bad);
    off = LLVMBuildSelect(b, bad, klv_i64(ir, 0), off, "");
    klv_store_f64(ir, yt->dtype, klv_arg(ir, n->nin), off,
                  LLVMBuildSelect(b, bad, LLVMConstReal(LLVMDoubleTypeInContext(ir->ctx), 0),
                                  klv_load_f64(ir, xt->dtype, klv_arg(ir, 0), l.iv), ""));
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = 1;
    plan->threads = 1;
    plan->work = yn + ne * 4;
    return 1;
}

/* ConstantOfShape of a static output (eval_CONSTANTOFSHAPE): every element
 * the bytes of the value attribute (zeros without one); the shape input's
 * data is not read. */
static int emit_fill(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan)
{
    const GirType *yt = &g->vals[n->out[0]].type;
    const GirAttr *v = gir_attr(n, "value");
    int64_t es = (int64_t)gir_dtype_size(yt->dtype), cnt = gir_type_numel(yt);
    uint64_t bits = 0;
    LLVMTypeRef et;
    KlvLoop l;
    int sized = 0;
    if (es < 1 || es > 8 || (v && (v->t.type.dtype != yt->dtype || gir_type_numel(&v->t.type) < 1 || !v->t.data)))
        return 0;
    /* a shape of run-time data: the program sizes the output and sets the range */
    if (cnt < 0 && (sized = klv_plan_sized(ir, g, n, plan)) <= 0)
        return sized;
    if (v)
        memcpy(&bits, v->t.data, (size_t)es); /* little-endian: the low es bytes */
    et = LLVMIntTypeInContext(ir->ctx, (unsigned)(es * 8));
    klv_kernel_begin(ir, name);
    l = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    klv_store(ir, et, klv_arg(ir, n->nin), l.iv, LLVMConstInt(et, bits, 0));
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = sized ? 0 : cnt;
    plan->work = 1;
    return 1;
}

/* Range of a static output (eval_RANGE): y[i] = start + i * delta, start
 * and delta read at run time (limit only sets the count, which the type
 * holds); integers in wrapping int64 then truncated as st_i, floats in
 * double then stored as st_f. */
static int emit_range(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                      KlvPlan *plan)
{
    const GirType *yt = &g->vals[n->out[0]].type;
    GirDType t = yt->dtype;
    int64_t cnt = gir_type_numel(yt);
    int k, isf = t == GIR_DT_F32 || t == GIR_DT_F64, sized = 0;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef st, dl, v;
    KlvLoop l;
    if (n->nin != 3 || yt->rank != 1 || !(isf || t == GIR_DT_I16 || t == GIR_DT_I32 || t == GIR_DT_I64))
        return 0;
    for (k = 0; k < 3; k++)
        if (n->in[k] < 0 || g->vals[n->in[k]].type.dtype != t || gir_type_numel(&g->vals[n->in[k]].type) != 1)
            return 0;
    /* bounds of run-time data: the program sizes the output and sets the range */
    if (cnt < 0 && (sized = klv_plan_sized(ir, g, n, plan)) <= 0)
        return sized;
    klv_kernel_begin(ir, name);
    if (isf) {
        st = klv_load_f64(ir, t, klv_arg(ir, 0), klv_i64(ir, 0));
        dl = klv_load_f64(ir, t, klv_arg(ir, 2), klv_i64(ir, 0));
    } else {
        st = LLVMBuildSExt(b, klv_load(ir, klv_elem_type(ir, t), klv_arg(ir, 0), klv_i64(ir, 0)), ir->i64, "");
        dl = LLVMBuildSExt(b, klv_load(ir, klv_elem_type(ir, t), klv_arg(ir, 2), klv_i64(ir, 0)), ir->i64, "");
    }
    l = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    if (isf) {
        v = LLVMBuildFAdd(b, st, LLVMBuildFMul(b, LLVMBuildSIToFP(b, l.iv, LLVMTypeOf(st), ""), dl, ""), "");
        klv_store_f64(ir, t, klv_arg(ir, n->nin), l.iv, v);
    } else {
        v = LLVMBuildAdd(b, st, LLVMBuildMul(b, l.iv, dl, ""), "");
        klv_store(ir, klv_elem_type(ir, t), klv_arg(ir, n->nin), l.iv,
                  LLVMBuildTrunc(b, v, klv_elem_type(ir, t), ""));
    }
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = sized ? 0 : cnt;
    plan->work = 2;
    return 1;
}

/* OneHot of a static output (eval_ONEHOT): output element (o, d, i) of the
 * axis of depth is values[1] when d is the hot position of index o * inner
 * + i, else values[0]; the hot position as the interpreter finds it: the
 * index as a double, plus depth when negative, truncated (d2i: NaN gives
 * 0, beyond +-9.2e18 none of [0, depth)). */
static int emit_onehot(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *it = &g->vals[n->in[0]].type, *yt = &g->vals[n->out[0]].type;
    int64_t ax = gir_attr_int(n, "axis", -1), es = (int64_t)gir_dtype_size(yt->dtype), outer, depth, inner;
    int64_t cnt = gir_type_numel(yt);
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx), et;
    LLVMValueRef x, dd, o, in, v, w, hot, dep, depf;
    KlvLoop l;
    int sized = 0, k;
    if (n->nin != 3 || n->in[0] < 0 || n->in[2] < 0 || !klv_elem_type(ir, it->dtype) ||
        it->dtype == GIR_DT_BOOL || es < 1 || es > 8 || yt->rank != it->rank + 1 ||
        g->vals[n->in[2]].type.dtype != yt->dtype || gir_type_numel(&g->vals[n->in[2]].type) < 2)
        return 0;
    if (ax < 0)
        ax += yt->rank;
    if (ax < 0 || ax >= yt->rank)
        return 0;
    /* a depth of run-time data (every other axis the indices'): the program
     * sizes the output, sets the range and gives the depth in its dims */
    for (k = 0; k < yt->rank; k++)
        if (k != ax && yt->dims[k] < 0)
            return 0;
    if (cnt < 0 && (sized = klv_plan_sized(ir, g, n, plan)) <= 0)
        return sized;
    if (!sized && cnt < 1)
        return 0;
    outer = klv_dims_prod(yt->dims, 0, ax);
    depth = yt->dims[ax];
    inner = klv_dims_prod(yt->dims, ax + 1, yt->rank);
    if (outer * inner != gir_type_numel(it))
        return 0;
    et = LLVMIntTypeInContext(ir->ctx, (unsigned)(es * 8));
    klv_kernel_begin(ir, name);
    dep = sized ? klv_load(ir, ir->i64, klv_arg(ir, sized), klv_i64(ir, ax)) : klv_i64(ir, depth);
    depf = LLVMBuildSIToFP(b, dep, d, "");
    l = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    in = LLVMBuildSRem(b, l.iv, klv_i64(ir, inner), "");
    x = LLVMBuildSDiv(b, l.iv, klv_i64(ir, inner), "");
    dd = LLVMBuildSRem(b, x, dep, "");
    o = LLVMBuildSDiv(b, x, dep, "");
    v = klv_load_f64(ir, it->dtype, klv_arg(ir, 0), klv_add(ir, klv_mul(ir, o, klv_i64(ir, inner)), in));
    w = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, v, LLVMConstReal(d, 0), ""),
                        LLVMBuildFAdd(b, v, depf, ""), v, "");
    /* in (-1, depth): fptosi is defined; outside it no d matches (-1) */
    hot = LLVMBuildSelect(b, LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGT, w, LLVMConstReal(d, -1), ""),
                                          LLVMBuildFCmp(b, LLVMRealOLT, w, depf, ""), ""),
                          LLVMBuildFPToSI(b, w, ir->i64, ""), klv_i64(ir, -1), "");
    hot = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, w, w, ""), klv_i64(ir, 0), hot, "");
    klv_store(ir, et, klv_arg(ir, n->nin), l.iv,
              klv_load(ir, et, klv_arg(ir, 2), LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntEQ, hot, dd, ""), ir->i64, "")));
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = sized ? 0 : cnt;
    plan->work = 4;
    return 1;
}

/* Whether item (a, ia) comes before (b, ib) in TopK's order (eval_TOPK's
 * comparators): by value, larger first (largest) or smaller first, NaN
 * above every number and NaNs equal among themselves, ties to the lower
 * index. */
static LLVMValueRef topk_before(KlvIr *ir, int largest, LLVMValueRef a, LLVMValueRef ia,
                                LLVMValueRef b, LLVMValueRef ib)
{
    LLVMBuilderRef bl = ir->b;
    LLVMValueRef na = LLVMBuildFCmp(bl, LLVMRealUNO, a, a, ""), nb = LLVMBuildFCmp(bl, LLVMRealUNO, b, b, "");
    LLVMValueRef first, eq;
    if (largest) /* a above b: a NaN over a number, or the ordered a > b */
        first = LLVMBuildOr(bl, LLVMBuildAnd(bl, na, LLVMBuildNot(bl, nb, ""), ""),
                            LLVMBuildFCmp(bl, LLVMRealOGT, a, b, ""), "");
    else
        first = LLVMBuildOr(bl, LLVMBuildAnd(bl, nb, LLVMBuildNot(bl, na, ""), ""),
                            LLVMBuildFCmp(bl, LLVMRealOLT, a, b, ""), "");
    eq = LLVMBuildOr(bl, LLVMBuildAnd(bl, na, nb, ""), LLVMBuildFCmp(bl, LLVMRealOEQ, a, b, ""), "");
    return LLVMBuildOr(bl, first, LLVMBuildAnd(bl, eq, LLVMBuildICmp(bl, LLVMIntSLT, ia, ib, ""), ""), "");
}

/* TopK of a static K (its output's extent on the axis) by selection: the
 * r-th output is the first item in TopK's order among those after the
 * (r-1)-th, so K passes over the axis, no sort and no branch but the loops.
 * Values compare as doubles (ld_f), integers are copied as they are, floats
 * stored from their double (st_f), as eval_TOPK does. */
static int emit_topk(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *yt = &g->vals[n->out[0]].type;
    int64_t ax = gir_attr_int(n, "axis", -1), outer, len, inner, k;
    int largest = gir_attr_int(n, "largest", 1) != 0;
    int isint = !klv_is_float_dt(xt->dtype);
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx), et = klv_elem_type(ir, xt->dtype);
    LLVMValueRef pv, pi, bv, bi, o, in, base, v, take, at, bestv, besti;
    KlvLoop lr, lk, li;
    if (n->nin != 2 || n->nout != 2 || !et || xt->dtype == GIR_DT_BOOL || xt->rank < 1 ||
        yt->rank != xt->rank || !gir_type_is_static(xt) || !gir_type_is_static(yt))
        return 0;
    if (ax < 0)
        ax += xt->rank;
    if (ax < 0 || ax >= xt->rank)
        return 0;
    outer = klv_dims_prod(xt->dims, 0, ax);
    len = xt->dims[ax];
    inner = klv_dims_prod(xt->dims, ax + 1, xt->rank);
    k = yt->dims[ax];
    if (k < 1 || k > len || outer * inner < 1)
        return 0;
    klv_kernel_begin(ir, name);
    pv = LLVMBuildAlloca(b, d, "pv");
    pi = LLVMBuildAlloca(b, ir->i64, "pi");
    bv = LLVMBuildAlloca(b, d, "bv");
    bi = LLVMBuildAlloca(b, ir->i64, "bi");
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir)); /* one (outer, inner) line */
    in = LLVMBuildSRem(b, lr.iv, klv_i64(ir, inner), "");
    o = LLVMBuildSDiv(b, lr.iv, klv_i64(ir, inner), "");
    base = klv_add(ir, klv_mul(ir, o, klv_i64(ir, len * inner)), in);
    lk = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, k));
    LLVMBuildStore(b, klv_i64(ir, -1), bi);
    LLVMBuildStore(b, LLVMConstReal(d, 0), bv);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, len));
    v = klv_load_f64(ir, xt->dtype, klv_arg(ir, 0), klv_add(ir, base, klv_mul(ir, li.iv, klv_i64(ir, inner))));
    bestv = LLVMBuildLoad2(b, d, bv, "");
    besti = LLVMBuildLoad2(b, ir->i64, bi, "");
    /* after the previous pick (none before the first), before the best so far */
    take = LLVMBuildAnd(b,
                        LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, lk.iv, klv_i64(ir, 0), ""),
                                    topk_before(ir, largest, LLVMBuildLoad2(b, d, pv, ""),
                                                LLVMBuildLoad2(b, ir->i64, pi, ""), v, li.iv), ""),
                        LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntSLT, besti, klv_i64(ir, 0), ""),
                                    topk_before(ir, largest, v, li.iv, bestv, besti), ""), "");
    LLVMBuildStore(b, LLVMBuildSelect(b, take, v, bestv, ""), bv);
    LLVMBuildStore(b, LLVMBuildSelect(b, take, li.iv, besti, ""), bi);
    klv_loop_end(ir, &li);
    bestv = LLVMBuildLoad2(b, d, bv, "");
    besti = LLVMBuildLoad2(b, ir->i64, bi, "");
    LLVMBuildStore(b, bestv, pv);
    LLVMBuildStore(b, besti, pi);
    at = klv_add(ir, klv_add(ir, klv_mul(ir, o, klv_i64(ir, k * inner)), klv_mul(ir, lk.iv, klv_i64(ir, inner))), in);
    if (isint)
        klv_store(ir, et, klv_arg(ir, 2), at,
                  klv_load(ir, et, klv_arg(ir, 0), klv_add(ir, base, klv_mul(ir, besti, klv_i64(ir, inner)))));
    else
        klv_store_f64(ir, xt->dtype, klv_arg(ir, 2), at, bestv);
    klv_store(ir, ir->i64, klv_arg(ir, 3), at, besti);
    klv_loop_end(ir, &lk);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = outer * inner;
    plan->work = k * len * 8;
    return 1;
}

int klv_emit_move(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                  KlvPlan *plan, GirError *e)
{
    (void)e;
    if (gir_node_is_nhwc(n))
        return 0;
    if (emit_empty(ir, g, n, name, plan))
        return 1;
    if (n->op == GIR_OP_SPLIT && n->nout >= 1)
        return emit_concat_split(ir, g, n, name, plan);
    if (n->op == GIR_OP_MAXPOOL)
        return emit_maxpool(ir, g, n, name, plan);
    if (n->op == GIR_OP_MAXUNPOOL)
        return emit_maxunpool(ir, g, n, name, plan);
    if (n->op == GIR_OP_TOPK)
        return emit_topk(ir, g, n, name, plan);
    if (n->nout != 1)
        return 0;
    if (reduce_noop(g, n))
        return emit_copy(ir, g, n, name, plan);
    switch (n->op) {
    case GIR_OP_AVGPOOL:
        return emit_avgpool(ir, g, n, name, plan);
    case GIR_OP_CONCAT:
        return emit_concat_split(ir, g, n, name, plan);
    case GIR_OP_RESHAPE:
    case GIR_OP_FLATTEN:
    case GIR_OP_SQUEEZE:
    case GIR_OP_UNSQUEEZE:
    case GIR_OP_IDENTITY:
        return emit_copy(ir, g, n, name, plan);
    case GIR_OP_RESIZE:
        if (strcmp(gir_attr_string(n, "mode", "nearest"), "nearest") != 0)
            return 0;
        return emit_gather(ir, g, n, name, plan);
    case GIR_OP_TRANSPOSE:
    case GIR_OP_SLICE:
    case GIR_OP_PAD:
    case GIR_OP_GATHER:
    case GIR_OP_GATHERELEMENTS:
    case GIR_OP_GATHERND:
        if (n->nin == 2 && g->vals[n->in[1]].kind != GIR_VAL_CONST)
            return emit_gather_dyn(ir, g, n, name, plan);
        return emit_gather(ir, g, n, name, plan);
    case GIR_OP_SCATTERELEMENTS:
    case GIR_OP_SCATTERND:
        return emit_scatter(ir, g, n, name, plan);
    case GIR_OP_SHAPE:
    case GIR_OP_SIZE:
    case GIR_OP_EYELIKE:
        return emit_const_result(ir, g, n, name, plan);
    case GIR_OP_EXPAND:
    case GIR_OP_TILE:
    case GIR_OP_DEPTHTOSPACE:
    case GIR_OP_SPACETODEPTH:
        return emit_gather(ir, g, n, name, plan);
    case GIR_OP_CONSTANTOFSHAPE:
        return emit_fill(ir, g, n, name, plan);
    case GIR_OP_RANGE:
        return emit_range(ir, g, n, name, plan);
    case GIR_OP_ONEHOT:
        return emit_onehot(ir, g, n, name, plan);
    case GIR_OP_REVERSESEQUENCE:
        if (n->nin == 2 && g->vals[n->in[1]].kind != GIR_VAL_CONST)
            return emit_revseq_dyn(ir, g, n, name, plan);
        return emit_gather(ir, g, n, name, plan);
    default:
        return 0;
    }
}
