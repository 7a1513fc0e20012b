/*
 * ONNX's own quantized ops, as graphir/qonnx.c and interp.c run them:
 * ConvInteger and QLinearConv (1-D or 2-D, any group, stride, dilation,
 * padding), MatMulInteger and QLinearMatMul (numpy batch broadcasting), and
 * DynamicQuantizeLinear.  Zero points and scales are read from their
 * buffers (the backend tests give them as inputs; a quantized export has
 * them as constants).
 *
 * Bit for bit the interpreter: its int64 sums are kept in int32 where it
 * truncates them to 32 bits anyway (ConvInteger, QLinearConv,
 * MatMulInteger: equal modulo 2^32, wrapping adds) and in int64 where it
 * does not (QLinearMatMul); the requantize step is its double arithmetic
 * (scale products, rint half to even, the zero point, saturation).
 *
 * The Conv keeps one output row of int32 sums on the stack and adds, per
 * input channel and tap, the weight times a run of input pixels whose
 * bounds are worked out at compile time, so with stride 1 the inner loop is
 * a contiguous widening multiply-add that LLVM vectorizes; the MatMul keeps
 * a row of C likewise and adds a times a row of B per k.  Where the target
 * has VNNI (KlvIr.vnni; KILN_VNNI=0 takes it away) the MatMul instead runs
 * the int8 MatMul's blocked vpdpbusd kernel (klv_vnni_pack, klv_vnni_rows
 * of gemm_i8.c) with the zero points and the u8/i8 offsets folded into
 * per-row and per-column terms (emit_matmul_vnni).  A Conv with a constant
 * w and group 1 or at least 4 channels per group does the same over the
 * taps of each output pixel (emit_conv_vnni: the input rewritten as
 * [N][H][W][C] bytes with the x zero point in the padding, w packed per
 * group and tap); depthwise Convs keep the row kernel.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Input slot k of n, or -1 when absent. */
static int slot(const GirNode *n, int k)
{
    return k < n->nin ? n->in[k] : -1;
}

static int is_q8(GirDType t)
{
    return t == GIR_DT_U8 || t == GIR_DT_I8;
}

/* Element idx of an i8, u8 or i32 buffer as an i32 (ld_q of qonnx.c). */
static LLVMValueRef ld_q(KlvIr *ir, GirDType t, LLVMValueRef base, LLVMValueRef idx)
{
    LLVMValueRef v = klv_load(ir, klv_elem_type(ir, t), base, idx);
    if (t == GIR_DT_I32)
        return v;
    return t == GIR_DT_U8 ? LLVMBuildZExt(ir->b, v, ir->i32, "") : LLVMBuildSExt(ir->b, v, ir->i32, "");
}

/* zp_at of qonnx.c: the zero point of input slot k (kernel argument k)
 * for index idx, entry 0 when it has one element; 0 when absent. */
static LLVMValueRef zp_at(KlvIr *ir, const GirGraph *g, const GirNode *n, int k, LLVMValueRef idx)
{
    int v = slot(n, k);
    if (v < 0)
        return LLVMConstInt(ir->i32, 0, 0);
    if (gir_type_numel(&g->vals[v].type) == 1)
        idx = klv_i64(ir, 0);
    return ld_q(ir, g->vals[v].type.dtype, klv_arg(ir, k), idx);
}

/* scale_at of qonnx.c: the f32 scale of slot k for index idx, as a double. */
static LLVMValueRef scale_at(KlvIr *ir, const GirGraph *g, const GirNode *n, int k, LLVMValueRef idx)
{
    if (gir_type_numel(&g->vals[n->in[k]].type) == 1)
        idx = klv_i64(ir, 0);
    return LLVMBuildFPExt(ir->b, klv_load(ir, ir->f32, klv_arg(ir, k), idx),
                          LLVMDoubleTypeInContext(ir->ctx), "");
}

/* A double in [0, 255] or [-128, 127] (or NaN) as the C cast to the byte
 * type converts it on x86-64: NaN gives 0. */
static LLVMValueRef to_byte(KlvIr *ir, LLVMValueRef r)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, r, r, ""), LLVMConstReal(d, 0), r, "");
    return LLVMBuildTrunc(b, LLVMBuildFPToSI(b, r, ir->i32, ""), ir->i8, "");
}

/* st_sat of qonnx.c: rint(v) + zp (an i32), saturated to the byte type yd
 * (u8 or i8), stored at y[idx]. */
static void st_sat(KlvIr *ir, GirDType yd, LLVMValueRef y, LLVMValueRef idx, LLVMValueRef v,
                   LLVMValueRef zp)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    int u8 = yd == GIR_DT_U8;
    LLVMValueRef lo = LLVMConstReal(d, u8 ? 0 : -128), hi = LLVMConstReal(d, u8 ? 255 : 127);
    LLVMValueRef r = LLVMBuildFAdd(b, klv_rint_f64(ir, v), LLVMBuildSIToFP(b, zp, d, ""), "");
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, r, lo, ""), lo, r, "");
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, r, hi, ""), hi, r, "");
    klv_store(ir, ir->i8, y, idx, to_byte(ir, r));
}

/* 1 when the value in slot k is present, of dtype t (t UNDEF: u8 or i8)
 * and has 1 element or, when per > 0, per elements. */
static int param_ok(const GirGraph *g, const GirNode *n, int k, GirDType t, int64_t per)
{
    int v = slot(n, k);
    int64_t c;
    if (v < 0)
        return 0;
    c = gir_type_numel(&g->vals[v].type);
    if (t == GIR_DT_UNDEF ? !is_q8(g->vals[v].type.dtype) : g->vals[v].type.dtype != t)
        return 0;
    return c == 1 || (per > 0 && c == per);
}

/* 1 when the value in slot k is present, of dtype t (t UNDEF: u8 or i8)
 * and has at least one element (its entry 0 is read). */
static int has1(const GirGraph *g, const GirNode *n, int k, GirDType t)
{
    int v = slot(n, k);
    if (v < 0 || gir_type_numel(&g->vals[v].type) < 1)
        return 0;
    return t == GIR_DT_UNDEF ? is_q8(g->vals[v].type.dtype) : g->vals[v].type.dtype == t;
}

/* The y_scale of a QLinear op (slot 6): 1 when it is a positive constant
 * (no guard needed), 0 when it is computed (the kernel guards it, which
 * needs ir->guard_ok), -1 when the node cannot be lowered. */
static int yscale_known(KlvIr *ir, const GirGraph *g, const GirNode *n)
{
    const GirValue *v = &g->vals[n->in[6]];
    if (v->kind == GIR_VAL_CONST && v->data)
        return *(const float *)v->data > 0 ? 1 : -1;
    return ir->guard_ok ? 0 : -1;
}

/* The requantize multiplier of a QLinear op, (s1 * s2) / y_scale in double
 * as the interpreter forms it; with a guard (arg >= 0) that is set when
 * y_scale is not positive (the interpreter's error). */
static LLVMValueRef qmul(KlvIr *ir, LLVMValueRef s1, LLVMValueRef s2, LLVMValueRef ys, int guard)
{
    LLVMBuilderRef b = ir->b;
    if (guard >= 0)
        klv_guard(ir, guard, LLVMBuildFCmp(b, LLVMRealULE, ys, LLVMConstReal(LLVMTypeOf(ys), 0), ""));
    return LLVMBuildFDiv(b, LLVMBuildFMul(b, s1, s2, ""), ys, "");
}

/* The VNNI form of emit_conv (ir->vnni, a constant w, x's zero point of
 * x's dtype; group 1 or 4 channels or more per group).  The interpreter's
 * sum over the taps inside the input equals the sum over all taps with
 * the outside ones taken as x = x_zp (they add (x_zp - x_zp) * w = 0), and
 * that is, per group, a MatMul of each output pixel's taps of x (K = Cg *
 * KH * KW) by w, done as emit_matmul_vnni does: x goes in as u = x + ca
 * (the byte ^ 0x80 for i8, ca = 128), w as s = w + cb (the byte ^ 0x80 for
 * u8, cb = -128), and with alpha = ca + x_zp and beta = cb + w_zp[oc]
 *   sum (x - x_zp)(w - w_zp) = dot(u, s) - beta * sum u - alpha * (sum s - K * beta)
 * modulo 2^32 (the interpreter truncates its sum to 32 bits too).  The
 * _pre kernel writes u as [N][HP][WP][C] over the window's reach (HP =
 * (OH - 1) * sy + (KH - 1) * dy + 1, WP likewise; outside the input the
 * byte alpha: x_zp ^ 0x80 or x_zp) and, when beta can be nonzero (a u8 w
 * or a w_zp), each pixel's sum of u over each group's channels [N][HP][WP]
 * [G]; w is packed at compile time per group and tap by klv_vnni_pack as
 * [G][tap][Mg / VL][Cg4 / 4][VL][4] beside the column sums of s [G][Mg
 * rounded up to VL].  A step is KLV_VNNI_ROWS output pixels of one row
 * (the last block moved back to end at OW) and VL output channels of one
 * group: per tap, klv_vnni_rows over the group's Cg bytes of each pixel
 * (contiguous) and the pixel sums; per lane the terms above, then the
 * bias and requantize of QLinearConv.  The extras are packed w, the
 * column sums, u, [the pixel sums], [the guard]. */
static int emit_conv_vnni(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                          KlvPlan *plan, const KlvWin2 *w, int known)
{
    int ql = n->op == GIR_OP_QLINEARCONV, xs = 0, ws = ql ? 3 : 1, xzs = 2, wzs = ql ? 5 : 3;
    const GirType *xt = &g->vals[n->in[xs]].type;
    const GirValue *wval = &g->vals[n->in[ws]];
    GirDType yd = g->vals[n->out[0]].type.dtype;
    int vl = (ir->vnni & KLV_VNNI_512) ? 16 : 8, guard = -1, r;
    unsigned fa = xt->dtype == GIR_DT_I8 ? 0x80 : 0;
    int fb = wval->type.dtype == GIR_DT_U8 ? 0x80 : 0;
    int need_ru = fb || slot(n, wzs) >= 0, need_alpha = fa || slot(n, xzs) >= 0;
    int64_t N = xt->dims[0], C = xt->dims[1], M = wval->type.dims[0], ksz = w->KH * w->KW;
    int64_t G = gir_attr_int(n, "group", 1), Cg = C / G, Mg = M / G;
    int64_t K = Cg * ksz, nJ = (Mg + vl - 1) / vl, blk = (Cg + 3) / 4 * vl * 4;
    int64_t HP = (w->OH - 1) * w->s[0] + (w->KH - 1) * w->d[0] + 1;
    int64_t WP = (w->OW - 1) * w->s[1] + (w->KW - 1) * w->d[1] + 1;
    int64_t rb = w->OW < KLV_VNNI_ROWS ? w->OW : KLV_VNNI_ROWS, nX = (w->OW + rb - 1) / rb;
    int64_t oc, k, tap, grp;
    int arg_wp = n->nin + 1, arg_cs = n->nin + 2, arg_u = n->nin + 3, arg_ps = n->nin + 4;
    const int8_t *src = wval->data;
    int8_t *wp = calloc((size_t)(G * ksz * nJ * blk) + 1, 1);
    int32_t *cs = calloc((size_t)(G * nJ * vl) + 1, 4), *ps = need_ru ? calloc((size_t)(N * HP * WP * G) + 1, 4) : NULL;
    uint8_t *ub = calloc((size_t)(N * HP * WP * C) + 1, 1);
    char pre[48];
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef vt = LLVMVectorType(ir->i32, (unsigned)vl), dpty, d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef dp, accp, outp, rsp = NULL, t, jb, jl, gr, xb, oy, nb, ox0, pix, q, iy, ix, at, in, az, v, sum;
    LLVMValueRef arow[KLV_VNNI_ROWS], lanes, jj, csj, beta = NULL, alpha = NULL, zp = NULL, m = NULL, bias = NULL;
    KlvLoop lp, ll, lky, lkx, lq, lg, lc;
    if (!wp || !cs || !ub || (need_ru && !ps)) {
        free(wp);
        free(cs);
        free(ps);
        free(ub);
        return 0;
    }
    for (grp = 0; grp < G; grp++)
        for (tap = 0; tap < ksz; tap++)
            klv_vnni_pack(wp + (grp * ksz + tap) * nJ * blk, src + grp * Mg * K + tap, K, ksz, Cg, Mg, vl, fb);
    for (oc = 0; oc < M; oc++) {
        uint32_t s = 0;
        for (k = 0; k < K; k++)
            s += (uint32_t)(int32_t)(int8_t)(src[oc * K + k] ^ fb);
        cs[oc / Mg * nJ * vl + oc % Mg] = (int32_t)s;
    }
    klv_plan_extra(plan, wp, G * ksz * nJ * blk, KLV_TABLE, 1);
    klv_plan_extra(plan, cs, G * nJ * vl * 4, KLV_TABLE, 1);
    klv_plan_extra(plan, ub, N * HP * WP * C, KLV_SCRATCH, 1);
    if (need_ru)
        klv_plan_extra(plan, ps, N * HP * WP * G * 4, KLV_SCRATCH, 1);
    if (ql && !known)
        guard = klv_plan_guard(plan, n);

    /* the _pre kernel: step q writes row q % HP of image q / HP of u (and
     * its pixel sums) */
    snprintf(pre, sizeof pre, "%s_pre", name);
    klv_kernel_begin(ir, pre);
    sum = LLVMBuildAlloca(b, ir->i32, "sum");
    az = slot(n, xzs) >= 0 ? klv_load(ir, ir->i8, klv_arg(ir, xzs), klv_i64(ir, 0)) : LLVMConstInt(ir->i8, 0, 0);
    az = LLVMBuildXor(b, az, LLVMConstInt(ir->i8, fa, 0), "");
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    q = lp.iv;
    iy = klv_add(ir, LLVMBuildSRem(b, q, klv_i64(ir, HP), ""), klv_i64(ir, -w->p[0]));
    nb = LLVMBuildSDiv(b, q, klv_i64(ir, HP), "");
    in = LLVMBuildICmp(b, LLVMIntULT, iy, klv_i64(ir, w->H), "");
    lq = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, WP));
    ix = klv_add(ir, lq.iv, klv_i64(ir, -w->p[1]));
    pix = LLVMBuildAnd(b, in, LLVMBuildICmp(b, LLVMIntULT, ix, klv_i64(ir, w->W), ""), "");
    /* x's index of channel 0 (0 outside: read, not used) */
    t = LLVMBuildSelect(b, pix, klv_add(ir, klv_mul(ir, klv_mul(ir, nb, klv_i64(ir, C)), klv_i64(ir, w->H * w->W)),
                                         klv_add(ir, klv_mul(ir, iy, klv_i64(ir, w->W)), ix)),
                        klv_i64(ir, 0), "");
    lg = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, G));
    LLVMBuildStore(b, LLVMConstInt(ir->i32, 0, 0), sum);
    lc = klv_loop_begin(ir, klv_mul(ir, lg.iv, klv_i64(ir, Cg)),
                        klv_mul(ir, klv_add(ir, lg.iv, klv_i64(ir, 1)), klv_i64(ir, Cg)));
    at = klv_add(ir, t, klv_mul(ir, lc.iv, klv_i64(ir, w->H * w->W)));
    v = klv_load(ir, ir->i8, klv_arg(ir, xs), LLVMBuildSelect(b, pix, at, klv_i64(ir, 0), ""));
    v = LLVMBuildSelect(b, pix, LLVMBuildXor(b, v, LLVMConstInt(ir->i8, fa, 0), ""), az, "");
    at = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, q, klv_i64(ir, WP)), lq.iv), klv_i64(ir, C)), lc.iv);
    klv_store(ir, ir->i8, klv_arg(ir, arg_u), at, v);
    if (need_ru) {
        v = LLVMBuildZExt(b, v, ir->i32, "");
        LLVMBuildStore(b, LLVMBuildAdd(b, LLVMBuildLoad2(b, ir->i32, sum, ""), v, ""), sum);
    }
    klv_loop_end(ir, &lc);
    if (need_ru)
        klv_store(ir, ir->i32, klv_arg(ir, arg_ps),
                  klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, q, klv_i64(ir, WP)), lq.iv), klv_i64(ir, G)), lg.iv),
                  LLVMBuildLoad2(b, ir->i32, sum, ""));
    klv_loop_end(ir, &lg);
    klv_loop_end(ir, &lq);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->pre = 1;
    plan->pre_range = N * HP;
    plan->pre_work = WP * C;

    dp = klv_vpdpbusd(ir, vl, &dpty);
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, LLVMArrayType(vt, KLV_VNNI_ROWS), "acc");
    outp = LLVMBuildAlloca(b, LLVMArrayType(ir->i32, (unsigned)(KLV_VNNI_ROWS * vl)), "out");
    if (need_ru)
        rsp = LLVMBuildAlloca(b, LLVMArrayType(ir->i32, KLV_VNNI_ROWS), "rsum");
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    jb = LLVMBuildSRem(b, lp.iv, klv_i64(ir, G * nJ), "");
    jl = LLVMBuildSRem(b, jb, klv_i64(ir, nJ), "");
    gr = LLVMBuildSDiv(b, jb, klv_i64(ir, nJ), "");
    t = LLVMBuildSDiv(b, lp.iv, klv_i64(ir, G * nJ), "");
    xb = LLVMBuildSRem(b, t, klv_i64(ir, nX), "");
    t = LLVMBuildSDiv(b, t, klv_i64(ir, nX), "");
    oy = LLVMBuildSRem(b, t, klv_i64(ir, w->OH), "");
    nb = LLVMBuildSDiv(b, t, klv_i64(ir, w->OH), "");
    ox0 = klv_mul(ir, xb, klv_i64(ir, rb));
    ox0 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, ox0, klv_i64(ir, w->OW - rb), ""), klv_i64(ir, w->OW - rb), ox0, "");
    for (r = 0; r < rb; r++) {
        LLVMBuildStore(b, LLVMConstNull(vt), klv_gep(ir, vt, accp, klv_i64(ir, r)));
        if (need_ru)
            klv_store(ir, ir->i32, rsp, klv_i64(ir, r), LLVMConstInt(ir->i32, 0, 0));
    }
    lky = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, w->KH));
    lkx = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, w->KW));
    /* pixel (oy * sy + ky * dy, ox * sx + kx * dx) of u */
    t = klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, HP)),
                            klv_add(ir, klv_mul(ir, oy, klv_i64(ir, w->s[0])), klv_mul(ir, lky.iv, klv_i64(ir, w->d[0])))),
                klv_i64(ir, WP));
    t = klv_add(ir, t, klv_add(ir, klv_mul(ir, ox0, klv_i64(ir, w->s[1])), klv_mul(ir, lkx.iv, klv_i64(ir, w->d[1]))));
    for (r = 0; r < rb; r++) {
        pix = klv_add(ir, t, klv_i64(ir, r * w->s[1]));
        arow[r] = klv_gep(ir, ir->i8, klv_arg(ir, arg_u),
                          klv_add(ir, klv_mul(ir, pix, klv_i64(ir, C)), klv_mul(ir, gr, klv_i64(ir, Cg))));
        if (need_ru) {
            v = klv_load(ir, ir->i32, klv_arg(ir, arg_ps), klv_add(ir, klv_mul(ir, pix, klv_i64(ir, G)), gr));
            klv_store(ir, ir->i32, rsp, klv_i64(ir, r), LLVMBuildAdd(b, klv_load(ir, ir->i32, rsp, klv_i64(ir, r)), v, ""));
        }
    }
    /* block (group, tap, jl) of the packed w */
    t = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, gr, klv_i64(ir, ksz)),
                                        klv_add(ir, klv_mul(ir, lky.iv, klv_i64(ir, w->KW)), lkx.iv)),
                            klv_i64(ir, nJ)),
                jl);
    t = klv_gep(ir, ir->i8, klv_arg(ir, arg_wp), klv_mul(ir, t, klv_i64(ir, blk)));
    klv_vnni_rows(ir, dp, dpty, vl, Cg, arow, (int)rb, t, accp, 0);
    klv_loop_end(ir, &lkx);
    klv_loop_end(ir, &lky);
    for (r = 0; r < rb; r++) {
        LLVMValueRef st = LLVMBuildStore(b, LLVMBuildLoad2(b, vt, klv_gep(ir, vt, accp, klv_i64(ir, r)), ""),
                                         klv_gep(ir, ir->i32, outp, klv_i64(ir, r * vl)));
        LLVMSetAlignment(st, 4);
    }
    if (need_alpha)
        alpha = LLVMBuildAdd(b, zp_at(ir, g, n, xzs, klv_i64(ir, 0)), LLVMConstInt(ir->i32, fa ? 128 : 0, 0), "");
    if (ql)
        zp = zp_at(ir, g, n, 7, klv_i64(ir, 0));
    /* out: lane l of pixel r is output channel gr * Mg + jl * VL + l of
     * (oy, ox0 + r) */
    lanes = LLVMBuildSub(b, klv_i64(ir, Mg), klv_mul(ir, jl, klv_i64(ir, vl)), "");
    lanes = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, lanes, klv_i64(ir, vl), ""), klv_i64(ir, vl), lanes, "");
    ll = klv_loop_begin(ir, klv_i64(ir, 0), lanes);
    csj = klv_load(ir, ir->i32, klv_arg(ir, arg_cs), klv_add(ir, klv_mul(ir, jb, klv_i64(ir, vl)), ll.iv));
    jj = klv_add(ir, klv_add(ir, klv_mul(ir, gr, klv_i64(ir, Mg)), klv_mul(ir, jl, klv_i64(ir, vl))), ll.iv);
    if (need_ru) {
        beta = LLVMBuildAdd(b, zp_at(ir, g, n, wzs, jj), LLVMConstInt(ir->i32, fb ? (unsigned long long)-128 : 0, 1), "");
        csj = LLVMBuildSub(b, csj, LLVMBuildMul(b, beta, LLVMConstInt(ir->i32, (unsigned long long)K, 0), ""), "");
    }
    if (ql) {
        m = qmul(ir, scale_at(ir, g, n, 1, klv_i64(ir, 0)), scale_at(ir, g, n, 4, jj),
                 scale_at(ir, g, n, 6, klv_i64(ir, 0)), guard);
        bias = slot(n, 8) >= 0 ? klv_load(ir, ir->i32, klv_arg(ir, 8), jj) : NULL;
    }
    t = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, M)), jj), klv_i64(ir, w->OH)), oy),
                            klv_i64(ir, w->OW)), ox0);
    for (r = 0; r < rb; r++) {
        LLVMValueRef idx = klv_add(ir, t, klv_i64(ir, r));
        v = klv_load(ir, ir->i32, outp, klv_add(ir, ll.iv, klv_i64(ir, r * vl)));
        if (need_ru)
            v = LLVMBuildSub(b, v, LLVMBuildMul(b, beta, klv_load(ir, ir->i32, rsp, klv_i64(ir, r)), ""), "");
        if (need_alpha)
            v = LLVMBuildSub(b, v, LLVMBuildMul(b, alpha, csj, ""), "");
        if (ql) {
            if (bias)
                v = LLVMBuildAdd(b, v, bias, "");
            st_sat(ir, yd, klv_arg(ir, n->nin), idx, LLVMBuildFMul(b, LLVMBuildSIToFP(b, v, d, ""), m, ""), zp);
        } else {
            klv_store(ir, ir->i32, klv_arg(ir, n->nin), idx, v);
        }
    }
    klv_loop_end(ir, &ll);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = N * w->OH * nX * G * nJ;
    plan->work = rb * vl * (ksz * (blk / (vl * 4)) + 1);
    return 1;
}

/* ConvInteger (x 0, w 1, x_zp 2, w_zp 3 -> i32) and QLinearConv (x 0,
 * x_scale 1, x_zp 2, w 3, w_scale 4, w_zp 5, y_scale 6, y_zp 7, B 8),
 * 1-D or 2-D.  One step per output row (n, oc, oy). */
static int emit_conv(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan)
{
    int ql = n->op == GIR_OP_QLINEARCONV, xs = 0, ws = ql ? 3 : 1, xzs = 2, wzs = ql ? 5 : 3;
    const GirType *xt, *wt, *yt;
    int64_t N, C, M, Cg, G, Mg, kx, ox, *tab, r;
    int guard = -1, known = 1;
    GirDType yd;
    KlvWin2 w;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef accp, row, oy, t, oc, nb, grp, wz, xz, xb, wb, iy, wv, xl, xh, base, xv, a, m = NULL;
    LLVMValueRef zp = NULL, bias = NULL, yb;
    LLVMBasicBlockRef in, skip;
    KlvLoop lr, lo, lic, lky, lkx, lx;
    if (n->nout != 1 || n->nin < (ql ? 8 : 2) || slot(n, xs) < 0 || slot(n, ws) < 0)
        return 0;
    xt = &g->vals[n->in[xs]].type;
    wt = &g->vals[n->in[ws]].type;
    yt = &g->vals[n->out[0]].type;
    yd = yt->dtype;
    if (!is_q8(xt->dtype) || !is_q8(wt->dtype) || wt->rank != xt->rank ||
        !klv_win2(n, xt, yt, wt->dims + 2, &w))
        return 0;
    N = xt->dims[0], C = xt->dims[1], M = wt->dims[0], Cg = wt->dims[1];
    G = gir_attr_int(n, "group", 1);
    if (G < 1 || M % G != 0 || C != Cg * G || yt->dims[1] != M || w.OW > 65536 || w.OW < 1)
        return 0;
    Mg = M / G;
    if ((slot(n, xzs) >= 0 && !has1(g, n, xzs, GIR_DT_UNDEF)) ||
        (slot(n, wzs) >= 0 && !param_ok(g, n, wzs, GIR_DT_UNDEF, M)))
        return 0;
    if (ql) {
        if (!has1(g, n, 1, GIR_DT_F32) || !has1(g, n, 2, GIR_DT_UNDEF) ||
            !param_ok(g, n, 4, GIR_DT_F32, M) || !param_ok(g, n, 5, GIR_DT_UNDEF, M) ||
            !has1(g, n, 6, GIR_DT_F32) || !is_q8(yd) || !has1(g, n, 7, yd))
            return 0;
        if (slot(n, 8) >= 0 && (g->vals[n->in[8]].type.dtype != GIR_DT_I32 ||
                                gir_type_numel(&g->vals[n->in[8]].type) < M))
            return 0;
        if ((known = yscale_known(ir, g, n)) < 0)
            return 0;
    } else if (yd != GIR_DT_I32) {
        return 0;
    }
    /* VNNI where each group's taps have a whole word of channels (or
     * group 1): depthwise Convs, one channel per group, ran 3x slower so */
    if (ir->vnni && (G == 1 || Cg >= 4) && g->vals[n->in[ws]].kind == GIR_VAL_CONST &&
        g->vals[n->in[ws]].data && (slot(n, xzs) < 0 || g->vals[n->in[xzs]].type.dtype == xt->dtype))
        return emit_conv_vnni(ir, g, n, name, plan, &w, known);
    /* per kernel column kx, the output columns [lo, hi) whose tap lies
     * inside the input row */
    tab = malloc(sizeof *tab * (size_t)(2 * w.KW));
    if (!tab)
        return 0;
    for (kx = 0; kx < w.KW; kx++) {
        int64_t l = w.OW, h = 0;
        for (ox = 0; ox < w.OW; ox++) {
            int64_t ix = ox * w.s[1] + kx * w.d[1] - w.p[1];
            if (ix >= 0 && ix < w.W) {
                l = ox < l ? ox : l;
                h = ox + 1;
            }
        }
        tab[2 * kx] = l < h ? l : 0;
        tab[2 * kx + 1] = l < h ? h : 0;
    }
    klv_plan_extra(plan, tab, (int64_t)sizeof *tab * 2 * w.KW, KLV_TABLE, 1);
    if (ql && !known)
        guard = klv_plan_guard(plan, n);
    klv_kernel_begin(ir, name);
    accp = LLVMBuildArrayAlloca(b, ir->i32, klv_i64(ir, w.OW), "acc");
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    row = lr.iv;
    oy = LLVMBuildSRem(b, row, klv_i64(ir, w.OH), "");
    t = LLVMBuildSDiv(b, row, klv_i64(ir, w.OH), "");
    oc = LLVMBuildSRem(b, t, klv_i64(ir, M), "");
    nb = LLVMBuildSDiv(b, t, klv_i64(ir, M), "");
    grp = LLVMBuildSDiv(b, oc, klv_i64(ir, Mg), "");
    wz = zp_at(ir, g, n, wzs, oc);
    xz = zp_at(ir, g, n, xzs, klv_i64(ir, 0));
    lo = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, w.OW));
    klv_store(ir, ir->i32, accp, lo.iv, LLVMConstInt(ir->i32, 0, 0));
    klv_loop_end(ir, &lo);
    lic = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, Cg));
    xb = klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, C)),
                             klv_add(ir, klv_mul(ir, grp, klv_i64(ir, Cg)), lic.iv)),
                 klv_i64(ir, w.H * w.W));
    wb = klv_mul(ir, klv_add(ir, klv_mul(ir, oc, klv_i64(ir, Cg)), lic.iv), klv_i64(ir, w.KH * w.KW));
    lky = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, w.KH));
    iy = klv_add(ir, klv_mul(ir, oy, klv_i64(ir, w.s[0])), klv_affine(ir, lky.iv, w.d[0], -w.p[0]));
    in = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "row.in");
    skip = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "row.skip");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, iy, klv_i64(ir, w.H), ""), in, skip);
    LLVMPositionBuilderAtEnd(b, in);
    lkx = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, w.KW));
    wv = LLVMBuildSub(b, ld_q(ir, wt->dtype, klv_arg(ir, ws),
                              klv_add(ir, wb, klv_add(ir, klv_mul(ir, lky.iv, klv_i64(ir, w.KW)), lkx.iv))),
                      wz, "");
    xl = klv_load(ir, ir->i64, klv_arg(ir, n->nin + 1), klv_mul(ir, lkx.iv, klv_i64(ir, 2)));
    xh = klv_load(ir, ir->i64, klv_arg(ir, n->nin + 1), klv_affine(ir, lkx.iv, 2, 1));
    base = klv_add(ir, klv_add(ir, xb, klv_mul(ir, iy, klv_i64(ir, w.W))),
                   klv_affine(ir, lkx.iv, w.d[1], -w.p[1]));
    lx = klv_loop_begin(ir, xl, xh);
    xv = LLVMBuildSub(b, ld_q(ir, xt->dtype, klv_arg(ir, xs),
                              klv_add(ir, base, klv_mul(ir, lx.iv, klv_i64(ir, w.s[1])))),
                      xz, "");
    a = klv_load(ir, ir->i32, accp, lx.iv);
    klv_store(ir, ir->i32, accp, lx.iv, LLVMBuildAdd(b, a, LLVMBuildMul(b, xv, wv, ""), ""));
    klv_loop_end(ir, &lx);
    klv_loop_end(ir, &lkx);
    LLVMBuildBr(b, skip);
    LLVMPositionBuilderAtEnd(b, skip);
    klv_loop_end(ir, &lky);
    klv_loop_end(ir, &lic);
    if (ql) {
        m = qmul(ir, scale_at(ir, g, n, 1, klv_i64(ir, 0)), scale_at(ir, g, n, 4, oc),
                 scale_at(ir, g, n, 6, klv_i64(ir, 0)), guard);
        zp = zp_at(ir, g, n, 7, klv_i64(ir, 0));
        bias = slot(n, 8) >= 0 ? klv_load(ir, ir->i32, klv_arg(ir, 8), oc) : LLVMConstInt(ir->i32, 0, 0);
    }
    yb = klv_mul(ir, row, klv_i64(ir, w.OW));
    lo = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, w.OW));
    a = klv_load(ir, ir->i32, accp, lo.iv);
    if (ql) {
        a = LLVMBuildAdd(b, a, bias, "");
        st_sat(ir, yd, klv_arg(ir, n->nin), klv_add(ir, yb, lo.iv),
               LLVMBuildFMul(b, LLVMBuildSIToFP(b, a, LLVMDoubleTypeInContext(ir->ctx), ""), m, ""), zp);
    } else {
        klv_store(ir, ir->i32, klv_arg(ir, n->nin), klv_add(ir, yb, lo.iv), a);
    }
    klv_loop_end(ir, &lo);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    r = N * M * w.OH;
    plan->range = r;
    plan->work = w.OW * Cg * w.KH * w.KW;
    return 1;
}

/* The most |a - a_zp| and |b - b_zp| can be: a u8 less an i8 zero point or
 * an i8 less a u8 one. */
#define QMM_SPAN 383

/* The VNNI form of emit_matmul (ir->vnni; for QLinearMatMul only where K *
 * QMM_SPAN^2 fits in an i32, so that its exact int64 sum equals the i32
 * one taken modulo 2^32).  vpdpbusd multiplies unsigned bytes by signed
 * ones, so a goes in as u = a + ca (ca = 128 for an i8 a: the byte ^ 0x80;
 * 0 for u8) and b as s = b + cb (cb = -128 for a u8 b: the byte ^ 0x80; 0
 * for i8).  With alpha = ca + a_zp[i] and beta = cb + b_zp[j],
 *   sum_k (a - a_zp)(b - b_zp) = sum_k (u - alpha)(s - beta)
 *     = dot(u, s) - beta * sum_k u - alpha * (sum_k s - K * beta),
 * all modulo 2^32: dot(u, s) from klv_vnni_rows over B packed by
 * klv_vnni_pack (each of B's batches; at compile time for a constant B,
 * else by the _pre kernel), sum_k s per column packed beside it, sum_k u
 * per row of A made by the _pre kernel (only when beta can be nonzero: a
 * u8 b or a b_zp), the zero points read from their buffers at run time.
 * A step is KLV_VNNI_ROWS rows and VL columns of one batch, as the int8
 * MatMul's blocked kernel; the extras are the batch table (A's row and
 * B's batch index per batch; tab, given in elements, is made so), packed
 * B, the column sums, [the row sums], [the guard].  Takes tab. */
static int emit_matmul_vnni(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                            KlvPlan *plan, int64_t M, int64_t K, int64_t N, int64_t batches,
                            int64_t *tab, int known)
{
    int ql = n->op == GIR_OP_QLINEARMATMUL, as = 0, bs = ql ? 3 : 1, azs = 2, bzs = ql ? 5 : 3;
    const GirValue *bval = &g->vals[n->in[bs]];
    GirDType ad = g->vals[n->in[as]].type.dtype, yd = g->vals[n->out[0]].type.dtype;
    int vl = (ir->vnni & KLV_VNNI_512) ? 16 : 8, guard = -1, r;
    unsigned fa = ad == GIR_DT_I8 ? 0x80 : 0;
    int fb = bval->type.dtype == GIR_DT_U8 ? 0x80 : 0;
    int need_ru = fb || slot(n, bzs) >= 0, need_alpha = fa || slot(n, azs) >= 0;
    int bconst = bval->kind == GIR_VAL_CONST && bval->data != NULL;
    int64_t K4 = (K + 3) / 4 * 4, G4 = K4 / 4, nJ = (N + vl - 1) / vl, blk = nJ * vl * K4;
    int64_t rb = M < KLV_VNNI_ROWS ? M : KLV_VNNI_ROWS, nI = (M + rb - 1) / rb;
    int64_t nbb = gir_type_numel(&bval->type) / (K * N), rows = gir_type_numel(&g->vals[n->in[as]].type) / K;
    int64_t bi, bb, j, kk, nb;
    int arg_tab = n->nin + 1, arg_bp = n->nin + 2, arg_cs = n->nin + 3, arg_ru = n->nin + 4;
    int8_t *bp = calloc((size_t)(nbb * blk) + 1, 1);
    int32_t *cs = calloc((size_t)(nbb * nJ * vl) + 1, 4), *ru = need_ru ? calloc((size_t)rows + 1, 4) : NULL;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef vt = LLVMVectorType(ir->i32, (unsigned)vl), dpty, d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef dp, accp, outp, t, jb, ib, bat, i0, ar0, bbat, bblk, arow[KLV_VNNI_ROWS];
    LLVMValueRef alpha[KLV_VNNI_ROWS], rsum[KLV_VNNI_ROWS], lanes, jj, csj, beta = NULL, v, zp = NULL, m;
    KlvLoop lp, ll;
    if (!bp || !cs || (need_ru && !ru)) {
        free(bp);
        free(cs);
        free(ru);
        free(tab);
        return 0;
    }
    if (bconst) {
        const int8_t *src = bval->data;
        for (bb = 0; bb < nbb; bb++) {
            klv_vnni_pack(bp + bb * blk, src + bb * K * N, 1, N, K, N, vl, fb);
            for (j = 0; j < N; j++) {
                uint32_t sum = 0;
                for (kk = 0; kk < K; kk++)
                    sum += (uint32_t)(int32_t)(int8_t)(src[bb * K * N + kk * N + j] ^ fb);
                cs[bb * nJ * vl + j] = (int32_t)sum;
            }
        }
    }
    for (bi = 0; bi < batches; bi++) {
        tab[2 * bi] /= K;
        tab[2 * bi + 1] /= K * N;
    }
    klv_plan_extra(plan, tab, (int64_t)sizeof *tab * 2 * batches, KLV_TABLE, 1);
    klv_plan_extra(plan, bp, nbb * blk, bconst ? KLV_TABLE : KLV_SCRATCH, 1);
    klv_plan_extra(plan, cs, nbb * nJ * vl * 4, bconst ? KLV_TABLE : KLV_SCRATCH, 1);
    if (need_ru)
        klv_plan_extra(plan, ru, rows * 4, KLV_SCRATCH, 1);
    if (ql && !known)
        guard = klv_plan_guard(plan, n);

    nb = bconst ? 0 : nbb * N;
    if (nb || need_ru) {
        /* the _pre kernel: step q < nb packs column q % N of B's batch q / N
         * (s = b ^ fb) and sums it; the others sum row q - nb of A (u = a ^
         * fa) */
        char pre[48];
        LLVMValueRef q, src, dst, sum, x;
        LLVMBasicBlockRef tb, ta, done;
        KlvLoop lr, lq;
        snprintf(pre, sizeof pre, "%s_pre", name);
        klv_kernel_begin(ir, pre);
        tb = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "packb");
        ta = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "suma");
        done = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "packed");
        sum = LLVMBuildAlloca(b, ir->i32, "sum");
        lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
        LLVMBuildStore(b, LLVMConstInt(ir->i32, 0, 0), sum);
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, lr.iv, klv_i64(ir, nb), ""), tb, ta);
        LLVMPositionBuilderAtEnd(b, tb);
        if (nb) {
            LLVMValueRef bq = LLVMBuildSDiv(b, lr.iv, klv_i64(ir, N), ""), jq = LLVMBuildSRem(b, lr.iv, klv_i64(ir, N), "");
            src = klv_gep(ir, ir->i8, klv_arg(ir, bs), klv_add(ir, klv_mul(ir, bq, klv_i64(ir, K * N)), jq));
            dst = klv_add(ir, klv_mul(ir, bq, klv_i64(ir, blk)),
                          klv_add(ir, klv_mul(ir, LLVMBuildSDiv(b, jq, klv_i64(ir, vl), ""), klv_i64(ir, G4 * vl * 4)),
                                  klv_mul(ir, LLVMBuildSRem(b, jq, klv_i64(ir, vl), ""), klv_i64(ir, 4))));
            dst = klv_gep(ir, ir->i8, klv_arg(ir, arg_bp), dst);
            lq = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, K));
            x = klv_load(ir, ir->i8, src, klv_mul(ir, lq.iv, klv_i64(ir, N)));
            if (fb)
                x = LLVMBuildXor(b, x, LLVMConstInt(ir->i8, (unsigned long long)fb, 0), "");
            klv_store(ir, ir->i8, dst,
                      klv_add(ir, klv_mul(ir, LLVMBuildLShr(b, lq.iv, klv_i64(ir, 2), ""), klv_i64(ir, vl * 4)),
                              LLVMBuildAnd(b, lq.iv, klv_i64(ir, 3), "")), x);
            LLVMBuildStore(b, LLVMBuildAdd(b, LLVMBuildLoad2(b, ir->i32, sum, ""), LLVMBuildSExt(b, x, ir->i32, ""), ""), sum);
            klv_loop_end(ir, &lq);
            klv_store(ir, ir->i32, klv_arg(ir, arg_cs), klv_add(ir, klv_mul(ir, bq, klv_i64(ir, nJ * vl)), jq),
                      LLVMBuildLoad2(b, ir->i32, sum, ""));
        }
        LLVMBuildBr(b, done);
        LLVMPositionBuilderAtEnd(b, ta);
        if (need_ru) {
            q = LLVMBuildSub(b, lr.iv, klv_i64(ir, nb), "");
            src = klv_gep(ir, ir->i8, klv_arg(ir, as), klv_mul(ir, q, klv_i64(ir, K)));
            lq = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, K));
            x = klv_load(ir, ir->i8, src, lq.iv);
            if (fa)
                x = LLVMBuildXor(b, x, LLVMConstInt(ir->i8, fa, 0), "");
            LLVMBuildStore(b, LLVMBuildAdd(b, LLVMBuildLoad2(b, ir->i32, sum, ""), LLVMBuildZExt(b, x, ir->i32, ""), ""), sum);
            klv_loop_end(ir, &lq);
            klv_store(ir, ir->i32, klv_arg(ir, arg_ru), q, LLVMBuildLoad2(b, ir->i32, sum, ""));
        }
        LLVMBuildBr(b, done);
        LLVMPositionBuilderAtEnd(b, done);
        klv_loop_end(ir, &lr);
        klv_kernel_end(ir);
        plan->pre = 1;
        plan->pre_range = nb + (need_ru ? rows : 0);
        plan->pre_work = K;
    }

    dp = klv_vpdpbusd(ir, vl, &dpty);
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, LLVMArrayType(vt, KLV_VNNI_ROWS), "acc");
    outp = LLVMBuildAlloca(b, LLVMArrayType(ir->i32, (unsigned)(KLV_VNNI_ROWS * vl)), "out");
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    jb = LLVMBuildSRem(b, lp.iv, klv_i64(ir, nJ), "");
    t = LLVMBuildSDiv(b, lp.iv, klv_i64(ir, nJ), "");
    ib = LLVMBuildSRem(b, t, klv_i64(ir, nI), "");
    bat = LLVMBuildSDiv(b, t, klv_i64(ir, nI), "");
    i0 = klv_mul(ir, ib, klv_i64(ir, rb));
    i0 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, i0, klv_i64(ir, M - rb), ""), klv_i64(ir, M - rb), i0, "");
    ar0 = klv_add(ir, klv_load(ir, ir->i64, klv_arg(ir, arg_tab), klv_mul(ir, bat, klv_i64(ir, 2))), i0);
    bbat = klv_load(ir, ir->i64, klv_arg(ir, arg_tab), klv_affine(ir, bat, 2, 1));
    bblk = klv_gep(ir, ir->i8, klv_arg(ir, arg_bp),
                   klv_add(ir, klv_mul(ir, bbat, klv_i64(ir, blk)), klv_mul(ir, jb, klv_i64(ir, G4 * vl * 4))));
    for (r = 0; r < rb; r++) {
        arow[r] = klv_gep(ir, ir->i8, klv_arg(ir, as), klv_mul(ir, klv_add(ir, ar0, klv_i64(ir, r)), klv_i64(ir, K)));
        LLVMBuildStore(b, LLVMConstNull(vt), klv_gep(ir, vt, accp, klv_i64(ir, r)));
    }
    klv_vnni_rows(ir, dp, dpty, vl, K, arow, (int)rb, bblk, accp, fa);
    for (r = 0; r < rb; r++) {
        LLVMValueRef st = LLVMBuildStore(b, LLVMBuildLoad2(b, vt, klv_gep(ir, vt, accp, klv_i64(ir, r)), ""),
                                         klv_gep(ir, ir->i32, outp, klv_i64(ir, r * vl)));
        LLVMSetAlignment(st, 4);
        if (need_alpha)
            alpha[r] = LLVMBuildAdd(b, zp_at(ir, g, n, azs, klv_add(ir, i0, klv_i64(ir, r))),
                                    LLVMConstInt(ir->i32, fa ? 128 : 0, 0), "");
        if (need_ru)
            rsum[r] = klv_load(ir, ir->i32, klv_arg(ir, arg_ru), klv_add(ir, ar0, klv_i64(ir, r)));
    }
    if (ql)
        zp = zp_at(ir, g, n, 7, klv_i64(ir, 0));
    /* out: lane l of row r is column jb * VL + l of row i0 + r */
    lanes = LLVMBuildSub(b, klv_i64(ir, N), klv_mul(ir, jb, klv_i64(ir, vl)), "");
    lanes = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, lanes, klv_i64(ir, vl), ""), klv_i64(ir, vl), lanes, "");
    ll = klv_loop_begin(ir, klv_i64(ir, 0), lanes);
    jj = klv_add(ir, klv_mul(ir, jb, klv_i64(ir, vl)), ll.iv);
    csj = klv_load(ir, ir->i32, klv_arg(ir, arg_cs), klv_add(ir, klv_mul(ir, bbat, klv_i64(ir, nJ * vl)), jj));
    if (need_ru) {
        beta = LLVMBuildAdd(b, zp_at(ir, g, n, bzs, jj), LLVMConstInt(ir->i32, fb ? (unsigned long long)-128 : 0, 1), "");
        csj = LLVMBuildSub(b, csj, LLVMBuildMul(b, beta, LLVMConstInt(ir->i32, (unsigned long long)K, 0), ""), "");
    }
    for (r = 0; r < rb; r++) {
        LLVMValueRef ii = klv_add(ir, i0, klv_i64(ir, r));
        LLVMValueRef idx = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, bat, klv_i64(ir, M)), ii), klv_i64(ir, N)), jj);
        v = klv_load(ir, ir->i32, outp, klv_add(ir, ll.iv, klv_i64(ir, r * vl)));
        if (need_ru)
            v = LLVMBuildSub(b, v, LLVMBuildMul(b, beta, rsum[r], ""), "");
        if (need_alpha)
            v = LLVMBuildSub(b, v, LLVMBuildMul(b, alpha[r], csj, ""), "");
        if (ql) {
            m = qmul(ir, scale_at(ir, g, n, 1, ii), scale_at(ir, g, n, 4, jj), scale_at(ir, g, n, 6, klv_i64(ir, 0)), guard);
            st_sat(ir, yd, klv_arg(ir, n->nin), idx, LLVMBuildFMul(b, LLVMBuildSIToFP(b, v, d, ""), m, ""), zp);
        } else {
            klv_store(ir, ir->i32, klv_arg(ir, n->nin), idx, v);
        }
    }
    klv_loop_end(ir, &ll);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = batches * nI * nJ;
    plan->work = rb * vl * (G4 + 1);
    return 1;
}

/* MatMulInteger (a 0, b 1, a_zp 2, b_zp 3 -> i32) and QLinearMatMul (a 0,
 * a_scale 1, a_zp 2, b 3, b_scale 4, b_zp 5, y_scale 6, y_zp 7): a's zero
 * point and scale per row, b's per column, batches broadcast as numpy
 * does.  One step per output row (batch, i). */
static int emit_matmul(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    int ql = n->op == GIR_OP_QLINEARMATMUL, as = 0, bs = ql ? 3 : 1, azs = 2, bzs = ql ? 5 : 3;
    int ra, rb, nbat, d, guard = -1, known = 1;
    const GirType *at, *bt, *yt;
    int64_t M, K, N, batches, bi, bdims[GIR_MAX_RANK], sa[GIR_MAX_RANK], sb[GIR_MAX_RANK];
    int64_t idx[GIR_MAX_RANK] = {0}, *tab;
    GirDType yd;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef acct;
    LLVMValueRef accp, bat, i, oa, ob, az, av, bz = NULL, bv, p, a, m, zp = NULL, yb;
    KlvLoop lr, lj, lk;
    if (n->nout != 1 || n->nin < (ql ? 8 : 2) || slot(n, as) < 0 || slot(n, bs) < 0)
        return 0;
    at = &g->vals[n->in[as]].type;
    bt = &g->vals[n->in[bs]].type;
    yt = &g->vals[n->out[0]].type;
    yd = yt->dtype;
    ra = at->rank, rb = bt->rank;
    if (!is_q8(at->dtype) || !is_q8(bt->dtype) || ra < 1 || rb < 1)
        return 0;
    M = ra >= 2 ? at->dims[ra - 2] : 1, K = at->dims[ra - 1];
    N = rb >= 2 ? bt->dims[rb - 1] : 1;
    if ((rb >= 2 ? bt->dims[rb - 2] : bt->dims[0]) != K || N > 65536 || N < 1 || M < 1)
        return 0;
    nbat = yt->rank - (ra >= 2) - (rb >= 2);
    if (nbat < 0)
        return 0;
    for (d = 0; d < nbat; d++) {
        int da = d - (nbat - (ra - 2)), db = d - (nbat - (rb - 2));
        bdims[d] = yt->dims[d];
        sa[d] = ra > 2 && da >= 0 && at->dims[da] != 1 ? M * K * klv_dims_prod(at->dims, da + 1, ra - 2) : 0;
        sb[d] = rb > 2 && db >= 0 && bt->dims[db] != 1 ? K * N * klv_dims_prod(bt->dims, db + 1, rb - 2) : 0;
    }
    batches = klv_dims_prod(bdims, 0, nbat);
    if (batches < 1 || gir_type_numel(yt) != batches * M * N)
        return 0;
    if ((slot(n, azs) >= 0 && !param_ok(g, n, azs, GIR_DT_UNDEF, M)) ||
        (slot(n, bzs) >= 0 && !param_ok(g, n, bzs, GIR_DT_UNDEF, N)))
        return 0;
    if (ql) {
        if (!param_ok(g, n, 1, GIR_DT_F32, M) || !param_ok(g, n, 2, GIR_DT_UNDEF, M) ||
            !param_ok(g, n, 4, GIR_DT_F32, N) || !param_ok(g, n, 5, GIR_DT_UNDEF, N) ||
            !has1(g, n, 6, GIR_DT_F32) || !is_q8(yd) || !has1(g, n, 7, yd))
            return 0;
        if ((known = yscale_known(ir, g, n)) < 0)
            return 0;
    } else if (yd != GIR_DT_I32) {
        return 0;
    }
    /* each batch's offsets of a and b */
    tab = malloc(sizeof *tab * (size_t)(2 * batches));
    if (!tab)
        return 0;
    for (bi = 0; bi < batches; bi++) {
        int64_t o_a = 0, o_b = 0;
        for (d = 0; d < nbat; d++) {
            o_a += idx[d] * sa[d];
            o_b += idx[d] * sb[d];
        }
        tab[2 * bi] = o_a;
        tab[2 * bi + 1] = o_b;
        for (d = nbat - 1; d >= 0 && ++idx[d] == bdims[d]; d--)
            idx[d] = 0;
    }
    if (ir->vnni && (!ql || K <= INT32_MAX / (QMM_SPAN * QMM_SPAN)))
        return emit_matmul_vnni(ir, g, n, name, plan, M, K, N, batches, tab, known);
    klv_plan_extra(plan, tab, (int64_t)sizeof *tab * 2 * batches, KLV_TABLE, 1);
    if (ql && !known)
        guard = klv_plan_guard(plan, n);
    acct = ql ? ir->i64 : ir->i32;
    klv_kernel_begin(ir, name);
    accp = LLVMBuildArrayAlloca(b, acct, klv_i64(ir, N), "acc");
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    bat = LLVMBuildSDiv(b, lr.iv, klv_i64(ir, M), "");
    i = LLVMBuildSRem(b, lr.iv, klv_i64(ir, M), "");
    oa = klv_load(ir, ir->i64, klv_arg(ir, n->nin + 1), klv_mul(ir, bat, klv_i64(ir, 2)));
    ob = klv_load(ir, ir->i64, klv_arg(ir, n->nin + 1), klv_affine(ir, bat, 2, 1));
    lj = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
    klv_store(ir, acct, accp, lj.iv, LLVMConstInt(acct, 0, 0));
    klv_loop_end(ir, &lj);
    az = zp_at(ir, g, n, azs, i);
    if (slot(n, bzs) < 0 || gir_type_numel(&g->vals[n->in[bzs]].type) == 1)
        bz = zp_at(ir, g, n, bzs, klv_i64(ir, 0));
    lk = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, K));
    av = LLVMBuildSub(b, ld_q(ir, at->dtype, klv_arg(ir, as),
                              klv_add(ir, oa, klv_add(ir, klv_mul(ir, i, klv_i64(ir, K)), lk.iv))), az, "");
    lj = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
    bv = ld_q(ir, bt->dtype, klv_arg(ir, bs), klv_add(ir, ob, klv_add(ir, klv_mul(ir, lk.iv, klv_i64(ir, N)), lj.iv)));
    bv = LLVMBuildSub(b, bv, bz ? bz : zp_at(ir, g, n, bzs, lj.iv), "");
    p = LLVMBuildMul(b, av, bv, "");
    if (ql)
        p = LLVMBuildSExt(b, p, ir->i64, "");
    a = klv_load(ir, acct, accp, lj.iv);
    klv_store(ir, acct, accp, lj.iv, LLVMBuildAdd(b, a, p, ""));
    klv_loop_end(ir, &lj);
    klv_loop_end(ir, &lk);
    if (ql)
        zp = zp_at(ir, g, n, 7, klv_i64(ir, 0));
    yb = klv_mul(ir, lr.iv, klv_i64(ir, N));
    lj = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
    a = klv_load(ir, acct, accp, lj.iv);
    if (ql) {
        m = qmul(ir, scale_at(ir, g, n, 1, i), scale_at(ir, g, n, 4, lj.iv),
                 scale_at(ir, g, n, 6, klv_i64(ir, 0)), guard);
        st_sat(ir, yd, klv_arg(ir, n->nin), klv_add(ir, yb, lj.iv),
               LLVMBuildFMul(b, LLVMBuildSIToFP(b, a, LLVMDoubleTypeInContext(ir->ctx), ""), m, ""), zp);
    } else {
        klv_store(ir, ir->i32, klv_arg(ir, n->nin), klv_add(ir, yb, lj.iv), a);
    }
    klv_loop_end(ir, &lj);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = batches * M;
    plan->work = K * N;
    return 1;
}

/* DynamicQuantizeLinear (eval_DYNQUANT of interp.c): one step on one
 * thread.  The range [lo, hi] of x and 0 in f32 (a NaN never taken),
 * scale = (hi - lo) / 255 in f32, zero point rint(0 - lo / scale)
 * saturated to [0, 255], then per element rint(x / scale) + zp saturated
 * (all zp when scale is not positive). */
static int emit_dynquant(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                         KlvPlan *plan)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef lop, hip, x, v, lo, hi, scale, pos, zp, q, c0, c255;
    KlvLoop l;
    int64_t cnt;
    if (n->nin != 1 || n->nout != 3 || g->vals[n->in[0]].type.dtype != GIR_DT_F32 ||
        n->out[0] < 0 || n->out[1] < 0 || n->out[2] < 0 ||
        g->vals[n->out[0]].type.dtype != GIR_DT_U8 || g->vals[n->out[1]].type.dtype != GIR_DT_F32 ||
        g->vals[n->out[2]].type.dtype != GIR_DT_U8)
        return 0;
    cnt = gir_type_numel(&g->vals[n->in[0]].type);
    if (cnt < 0)
        return 0;
    c0 = LLVMConstReal(d, 0);
    c255 = LLVMConstReal(d, 255);
    klv_kernel_begin(ir, name);
    lop = LLVMBuildAlloca(b, ir->f32, "lo");
    hip = LLVMBuildAlloca(b, ir->f32, "hi");
    LLVMBuildStore(b, klv_f32c(ir, 0), lop);
    LLVMBuildStore(b, klv_f32c(ir, 0), hip);
    x = klv_arg(ir, 0);
    l = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, cnt));
    v = klv_load(ir, ir->f32, x, l.iv);
    lo = LLVMBuildLoad2(b, ir->f32, lop, "");
    hi = LLVMBuildLoad2(b, ir->f32, hip, "");
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, v, lo, ""), v, lo, ""), lop);
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, hi, ""), v, hi, ""), hip);
    klv_loop_end(ir, &l);
    lo = LLVMBuildLoad2(b, ir->f32, lop, "");
    hi = LLVMBuildLoad2(b, ir->f32, hip, "");
    scale = LLVMBuildFDiv(b, LLVMBuildFSub(b, hi, lo, ""), klv_f32c(ir, 255), "");
    pos = LLVMBuildFCmp(b, LLVMRealOGT, scale, klv_f32c(ir, 0), "");
    zp = klv_rint_f64(ir, LLVMBuildFPExt(b, LLVMBuildFSub(b, klv_f32c(ir, 0), LLVMBuildFDiv(b, lo, scale, ""), ""), d, ""));
    zp = LLVMBuildSelect(b, pos, zp, c0, "");
    zp = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, zp, c0, ""), c0, zp, "");
    zp = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, zp, c255, ""), c255, zp, "");
    l = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, cnt));
    v = klv_load(ir, ir->f32, x, l.iv);
    q = LLVMBuildFAdd(b, klv_rint_f64(ir, LLVMBuildFPExt(b, LLVMBuildFDiv(b, v, scale, ""), d, "")), zp, "");
    q = LLVMBuildSelect(b, pos, q, zp, "");
    q = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, q, c0, ""), c0, q, "");
    q = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, q, c255, ""), c255, q, "");
    klv_store(ir, ir->i8, klv_arg(ir, 1), l.iv, to_byte(ir, q));
    klv_loop_end(ir, &l);
    klv_store(ir, ir->f32, klv_arg(ir, 2), klv_i64(ir, 0), scale);
    klv_store(ir, ir->i8, klv_arg(ir, 3), klv_i64(ir, 0), to_byte(ir, zp));
    klv_kernel_end(ir);
    plan->range = 1;
    plan->work = cnt * 4;
    plan->threads = 1;
    return 1;
}

int klv_emit_qonnx(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                   KlvPlan *plan, GirError *e)
{
    (void)e;
    if (gir_node_is_nhwc(n))
        return 0;
    switch (n->op) {
    case GIR_OP_CONVINTEGER:
    case GIR_OP_QLINEARCONV:
        return emit_conv(ir, g, n, name, plan);
    case GIR_OP_MATMULINTEGER:
    case GIR_OP_QLINEARMATMUL:
        return emit_matmul(ir, g, n, name, plan);
    case GIR_OP_DYNQUANT:
        return emit_dynquant(ir, g, n, name, plan);
    default:
        return 0;
    }
}
