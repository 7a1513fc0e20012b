/*
 * int8 kernels of the int8 form (docs/quant.md): 2-D Conv with an int32
 * accumulator row, each accumulator through the requantize step of
 * graphir/requant.h (klv_requant) and the fused clamp; Requantize; LutI8
 * (a byte gather); GlobalAveragePool; Add (kiln_add_requant, numpy
 * broadcasting); AveragePool, 2-D;
 * per-tensor QuantizeLinear and DequantizeLinear.  Bit
 * for bit the int8 interpreter's arithmetic: integer sums are exact in any
 * order.
 */
#include <stdlib.h>
#include <string.h>

#include "graphir/requant.h"
#include "internal.h"

/* The per-channel requantize attributes, appended to the plan as extra
 * pointers (int64 arrays owned by the graph); act bounds into lo, hi. */
static int rq_extra(const GirNode *n, int64_t count, KlvPlan *plan, int *lo, int *hi)
{
    static const char *names[3] = {"rq_m_pos", "rq_m_neg", "rq_shift"};
    int k, cnt;
    const int64_t *a;
    for (k = 0; k < 3; k++) {
        a = gir_attr_ints(n, names[k], &cnt);
        if (!a || cnt != count)
            return 0;
        klv_plan_extra(plan, (void *)a, count * 8, KLV_TABLE, 0);
    }
    *lo = (a = gir_attr_ints(n, "act_min", &cnt)) && cnt == 1 ? (int)a[0] : -128;
    *hi = (a = gir_attr_ints(n, "act_max", &cnt)) && cnt == 1 ? (int)a[0] : 127;
    return 1;
}

/* int8 Conv: as the fp32 one (kernels_f32.c) on an i32 row on the stack,
 * then requantized into the i8 output row. */
static int emit_conv(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *wt = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    int has_b = n->nin > 2 && n->in[2] >= 0, cnt, lo, hi, nio;
    int64_t N = xt->dims[0], C = xt->dims[1], H = xt->dims[2], W = xt->dims[3];
    int64_t M = wt->dims[0], Cg = wt->dims[1], KH = wt->dims[2], KW = wt->dims[3];
    int64_t OH = yt->dims[2], OW = yt->dims[3], G = gir_attr_int(n, "group", 1), Mg = M / G;
    int64_t s[2] = {1, 1}, d[2] = {1, 1}, p[4] = {0, 0, 0, 0}, kx;
    const int64_t *a;
    const char *autopad = gir_attr_string(n, "auto_pad", "NOTSET");
    LLVMBuilderRef b = ir->b;
    LLVMValueRef x, w, bias_p, y, plane, nb, oc, grp, bias, yp, acc, mp, mn, sh;
    KlvLoop lp, loy, lox, lic, lky, lk;
    if (strcmp(autopad, "NOTSET") != 0 && strcmp(autopad, "VALID") != 0)
        return 0;
    if (wt->dtype != GIR_DT_I8 || yt->dtype != GIR_DT_I8 ||
        (has_b && g->vals[n->in[2]].type.dtype != GIR_DT_I32))
        return 0;
    if (!rq_extra(n, M, plan, &lo, &hi))
        return 0;
    memset(plan, 0, sizeof *plan);
    if (klv_emit_conv_blocked(ir, g, n, name, plan, 1))
        return 1;
    memset(plan, 0, sizeof *plan);
    if (klv_emit_conv_dw_i8(ir, g, n, name, plan))
        return 1;
    memset(plan, 0, sizeof *plan);
    rq_extra(n, M, plan, &lo, &hi);
    if ((a = gir_attr_ints(n, "strides", &cnt)) && cnt == 2)
        s[0] = a[0], s[1] = a[1];
    if ((a = gir_attr_ints(n, "dilations", &cnt)) && cnt == 2)
        d[0] = a[0], d[1] = a[1];
    if ((a = gir_attr_ints(n, "pads", &cnt)) && cnt == 4 && strcmp(autopad, "VALID") != 0)
        memcpy(p, a, sizeof p);

    klv_kernel_begin(ir, name);
    acc = LLVMBuildArrayAlloca(b, ir->i32, klv_i64(ir, OW), "acc");
    x = klv_arg(ir, 0);
    w = klv_arg(ir, 1);
    bias_p = has_b ? klv_arg(ir, 2) : NULL;
    nio = has_b ? 4 : 3;
    y = klv_arg(ir, nio - 1);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    plane = lp.iv;
    nb = LLVMBuildSDiv(b, plane, klv_i64(ir, M), "");
    oc = LLVMBuildSRem(b, plane, klv_i64(ir, M), "");
    grp = LLVMBuildSDiv(b, oc, klv_i64(ir, Mg), "");
    bias = has_b ? klv_load(ir, ir->i32, bias_p, oc) : LLVMConstInt(ir->i32, 0, 0);
    mp = klv_load(ir, ir->i64, klv_arg(ir, nio), oc);
    mn = klv_load(ir, ir->i64, klv_arg(ir, nio + 1), oc);
    sh = klv_load(ir, ir->i64, klv_arg(ir, nio + 2), oc);
    yp = klv_gep(ir, ir->i8, y, klv_mul(ir, plane, klv_i64(ir, OH * OW)));
    loy = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OH));
    {
        LLVMValueRef yr = klv_gep(ir, ir->i8, yp, klv_mul(ir, loy.iv, klv_i64(ir, OW)));
        LLVMValueRef cbase;
        lox = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OW));
        klv_store(ir, ir->i32, acc, lox.iv, bias);
        klv_loop_end(ir, &lox);
        cbase = klv_add(ir, klv_mul(ir, nb, klv_i64(ir, C)), klv_mul(ir, grp, klv_i64(ir, Cg)));
        lic = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, Cg));
        {
            LLVMValueRef xp = klv_gep(ir, ir->i8, x,
                                      klv_mul(ir, klv_add(ir, cbase, lic.iv), klv_i64(ir, H * W)));
            LLVMValueRef wp = klv_gep(
                ir, ir->i8, w,
                klv_mul(ir, klv_add(ir, klv_mul(ir, oc, klv_i64(ir, Cg)), lic.iv),
                        klv_i64(ir, KH * KW)));
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
                xr = klv_gep(ir, ir->i8, xp, klv_mul(ir, iy, klv_i64(ir, W)));
                wr = klv_gep(ir, ir->i8, wp, klv_mul(ir, lky.iv, klv_i64(ir, KW)));
                for (kx = 0; kx < KW; kx++) {
                    int64_t off = kx * d[1] - p[1];
                    int64_t xlo = off >= 0 ? 0 : (-off + s[1] - 1) / s[1];
                    int64_t xhi = W - 1 - off < 0 ? 0 : (W - 1 - off) / s[1] + 1;
                    LLVMValueRef wv =
                        LLVMBuildSExt(b, klv_load(ir, ir->i8, wr, klv_i64(ir, kx)), ir->i32, "");
                    if (xhi > OW)
                        xhi = OW;
                    if (xlo >= xhi)
                        continue;
                    lk = klv_loop_begin(ir, klv_i64(ir, xlo), klv_i64(ir, xhi));
                    {
                        LLVMValueRef xv = LLVMBuildSExt(
                            b, klv_load(ir, ir->i8, xr, klv_affine(ir, lk.iv, s[1], off)), ir->i32, "");
                        LLVMValueRef av = klv_load(ir, ir->i32, acc, lk.iv);
                        klv_store(ir, ir->i32, acc, lk.iv,
                                  LLVMBuildAdd(b, av, LLVMBuildMul(b, wv, xv, ""), ""));
                    }
                    klv_loop_end(ir, &lk);
                }
                LLVMBuildBr(b, skip);
                LLVMPositionBuilderAtEnd(b, skip);
            }
            klv_loop_end(ir, &lky);
        }
        klv_loop_end(ir, &lic);
        lox = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OW));
        klv_store(ir, ir->i8, yr, lox.iv,
                  klv_requant(ir, klv_load(ir, ir->i32, acc, lox.iv), mp, mn, sh, lo, hi));
        klv_loop_end(ir, &lox);
    }
    klv_loop_end(ir, &loy);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = N * M;
    plan->work = OH * OW * Cg * KH * KW;
    return 1;
}

/* Requantize: i8 -> i8 by one multiplier and shift (kiln_requant(x, m, m, sh)). */
static int emit_requantize(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                           KlvPlan *plan)
{
    int cnt;
    const int64_t *m = gir_attr_ints(n, "rq_m", &cnt), *sh;
    int64_t total = gir_type_numel(&g->vals[n->out[0]].type);
    KlvLoop l;
    LLVMValueRef x, y, v, mv;
    if (!m || cnt < 1 || !(sh = gir_attr_ints(n, "rq_shift", &cnt)) || cnt < 1)
        return 0;
    klv_kernel_begin(ir, name);
    x = klv_arg(ir, 0);
    y = klv_arg(ir, 1);
    l = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    v = LLVMBuildSExt(ir->b, klv_load(ir, ir->i8, x, l.iv), ir->i32, "");
    mv = klv_i64(ir, m[0]);
    klv_store(ir, ir->i8, y, l.iv, klv_requant(ir, v, mv, mv, klv_i64(ir, sh[0]), -128, 127));
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = total;
    plan->work = 1;
    return 1;
}

/* LutI8: y = lut[x + 128], a byte gather from the node's 256-byte table
 * (an extra pointer the program frees); with one table per channel
 * (gir_lut_channel_count) the gather is at ((i / inner) % C) * 256 + x + 128,
 * as the interpreter's gir_eval_luti8. */
static int emit_lut(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                    KlvPlan *plan)
{
    int cnt, k;
    const int64_t *lut = gir_attr_ints(n, "lut", &cnt);
    const GirType *xt = &g->vals[n->in[0]].type;
    int64_t total = gir_type_numel(&g->vals[n->out[0]].type);
    int64_t nch = gir_lut_channel_count(n, xt), inner = nch > 0 ? gir_lut_inner(n, xt) : 1;
    int8_t *tab;
    KlvLoop l;
    LLVMValueRef v;
    if (!lut || nch < 0 || (nch == 0 && cnt != GIR_LUT_SIZE) || inner < 1 ||
        !(tab = malloc((size_t)cnt)))
        return 0;
    for (k = 0; k < cnt; k++)
        tab[k] = (int8_t)lut[k];
    klv_plan_extra(plan, tab, (size_t)cnt, KLV_TABLE, 1);
    klv_kernel_begin(ir, name);
    l = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    v = LLVMBuildSExt(ir->b, klv_load(ir, ir->i8, klv_arg(ir, 0), l.iv), ir->i64, "");
    v = LLVMBuildAdd(ir->b, v, klv_i64(ir, 128), "");
    if (nch > 0) {
        LLVMValueRef c = LLVMBuildUDiv(ir->b, l.iv, klv_i64(ir, inner), "");
        c = LLVMBuildURem(ir->b, c, klv_i64(ir, nch), "");
        c = LLVMBuildMul(ir->b, c, klv_i64(ir, GIR_LUT_SIZE), "");
        v = LLVMBuildAdd(ir->b, v, c, "");
    }
    klv_store(ir, ir->i8, klv_arg(ir, 1), l.iv, klv_load(ir, ir->i8, klv_arg(ir, 2), v));
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = total;
    plan->work = 1;
    return 1;
}

/* int8 GlobalAveragePool (globalavgpool_i8 of interp_int8.c): per plane
 * the int32 sum of its elements, then kiln_requant by rq_m, rq_shift.
 * Planes above 2^24 elements (the interpreter refuses them) fall back. */
static int emit_gap_i8(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *t = &g->vals[n->in[0]].type;
    int cnt;
    const int64_t *m = gir_attr_ints(n, "rq_m", &cnt), *sh;
    int64_t planes, plane;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef xp, accp, mv;
    KlvLoop lp, li;
    if (!m || cnt < 1 || !(sh = gir_attr_ints(n, "rq_shift", &cnt)) || cnt < 1 || t->rank < 3)
        return 0;
    planes = t->dims[0] * t->dims[1];
    plane = planes ? gir_type_numel(t) / planes : 0;
    if (plane > ((int64_t)1 << 24))
        return 0;
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, ir->i32, "sum");
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    xp = klv_gep(ir, ir->i8, klv_arg(ir, 0), klv_mul(ir, lp.iv, klv_i64(ir, plane)));
    LLVMBuildStore(b, LLVMConstInt(ir->i32, 0, 0), accp);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, plane));
    LLVMBuildStore(b,
                   LLVMBuildAdd(b, LLVMBuildLoad2(b, ir->i32, accp, ""),
                                LLVMBuildSExt(b, klv_load(ir, ir->i8, xp, li.iv), ir->i32, ""), ""),
                   accp);
    klv_loop_end(ir, &li);
    mv = klv_i64(ir, m[0]);
    klv_store(ir, ir->i8, klv_arg(ir, 1), lp.iv,
              klv_requant(ir, LLVMBuildLoad2(b, ir->i32, accp, ""), mv, mv, klv_i64(ir, sh[0]), -128, 127));
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = planes;
    plan->work = plane;
    return 1;
}

/* One scalar int attribute of n (the first of its list) into v; 0 when
 * absent. */
static int attr1(const GirNode *n, const char *name, int64_t *v)
{
    int cnt;
    const int64_t *a = gir_attr_ints(n, name, &cnt);
    if (!a || cnt < 1)
        return 0;
    *v = a[0];
    return 1;
}

/* int8 Add of the int8 form (add_i8 of interp_int8.c): numpy broadcasting,
 * kiln_add_requant(a, b, rq_m_a, rq_m_b, rq_shift) per element.  Outer
 * loop over the rows of the result (all axes but the last), each operand's
 * row offset from its broadcast strides; the last axis inner. */
static int emit_add_i8(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                       KlvPlan *plan)
{
    const GirType *yt = &g->vals[n->out[0]].type, *ot[2];
    int64_t ma, mb, sh, st[2][GIR_MAX_RANK], L, rows;
    int r = yt->rank, k;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef off[2], v[2], acc;
    KlvLoop lr, lj;
    if (n->nin != 2 || r < 1 || !attr1(n, "rq_m_a", &ma) || !attr1(n, "rq_m_b", &mb) ||
        !attr1(n, "rq_shift", &sh) || sh < 0 || sh > KILN_RQ_MAX_SHIFT)
        return 0;
    for (k = 0; k < 2; k++) {
        ot[k] = &g->vals[n->in[k]].type;
        if (ot[k]->dtype != GIR_DT_I8 || !klv_bcast_strides(ot[k], yt, st[k]))
            return 0;
    }
    L = yt->dims[r - 1];
    if (L <= 0 || gir_type_numel(yt) <= 0)
        return 0;
    rows = gir_type_numel(yt) / L;
    klv_kernel_begin(ir, name);
    lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    klv_bcast_row(ir, lr.iv, yt, st, 2, off);
    lj = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, L));
    for (k = 0; k < 2; k++) {
        LLVMValueRef at = st[k][r - 1] ? klv_add(ir, off[k], lj.iv) : off[k];
        v[k] = LLVMBuildSExt(b, klv_load(ir, ir->i8, klv_arg(ir, k), at), ir->i64, "");
    }
    acc = klv_add(ir, klv_mul(ir, v[0], klv_i64(ir, ma)), klv_mul(ir, v[1], klv_i64(ir, mb)));
    klv_store(ir, ir->i8, klv_arg(ir, 2), klv_add(ir, klv_mul(ir, lr.iv, klv_i64(ir, L)), lj.iv),
              klv_round_sat(ir, acc, klv_i64(ir, sh), -128, 127));
    klv_loop_end(ir, &lj);
    klv_loop_end(ir, &lr);
    klv_kernel_end(ir);
    plan->range = rows;
    plan->work = L * 3;
    return 1;
}

/* int8 AveragePool, 2-D (avgpool_i8 of interp_int8.c): per output the
 * int32 sum of the window's taps inside the input (gir_window's geometry,
 * the padding adding 0), then kiln_requant by rq_m, rq_shift, which carry
 * the divisor.  Outer loop over (batch, channel) planes; taps unrolled. */
static int emit_avgpool_i8(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                           KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *yt = &g->vals[n->out[0]].type;
    int cnt;
    const int64_t *k = gir_attr_ints(n, "kernel_shape", &cnt);
    int64_t m, sh, H, W, OH, OW, ky, kx;
    GirWindow gw;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef xp, yp, sum, mv;
    KlvLoop lp, loy, lox;
    if (xt->rank != 4 || yt->rank != 4 || !k || cnt != 2 || k[0] * k[1] > 64 ||
        !attr1(n, "rq_m", &m) || !attr1(n, "rq_shift", &sh) || sh < 0 ||
        sh > KILN_RQ_MAX_SHIFT)
        return 0;
    gir_window(n, xt, yt, k, &gw);
    H = xt->dims[2], W = xt->dims[3], OH = yt->dims[2], OW = yt->dims[3];
    klv_kernel_begin(ir, name);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    xp = klv_gep(ir, ir->i8, klv_arg(ir, 0), klv_mul(ir, lp.iv, klv_i64(ir, H * W)));
    yp = klv_gep(ir, ir->i8, klv_arg(ir, 1), klv_mul(ir, lp.iv, klv_i64(ir, OH * OW)));
    loy = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OH));
    lox = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, OW));
    sum = LLVMConstInt(ir->i32, 0, 0);
    for (ky = 0; ky < k[0]; ky++) {
        LLVMValueRef iy = klv_affine(ir, loy.iv, gw.s[0], ky * gw.d[0] - gw.pb[0]);
        LLVMValueRef iny = LLVMBuildICmp(b, LLVMIntULT, iy, klv_i64(ir, H), "");
        for (kx = 0; kx < k[1]; kx++) {
            LLVMValueRef ix = klv_affine(ir, lox.iv, gw.s[1], kx * gw.d[1] - gw.pb[1]);
            LLVMValueRef in = LLVMBuildAnd(b, iny, LLVMBuildICmp(b, LLVMIntULT, ix, klv_i64(ir, W), ""), "");
            LLVMValueRef at = LLVMBuildSelect(b, in, klv_add(ir, klv_mul(ir, iy, klv_i64(ir, W)), ix),
                                              klv_i64(ir, 0), "");
            LLVMValueRef v = LLVMBuildSExt(b, klv_load(ir, ir->i8, xp, at), ir->i32, "");
            sum = LLVMBuildAdd(b, sum, LLVMBuildSelect(b, in, v, LLVMConstInt(ir->i32, 0, 0), ""), "");
        }
    }
    mv = klv_i64(ir, m);
    klv_store(ir, ir->i8, yp, klv_add(ir, klv_mul(ir, loy.iv, klv_i64(ir, OW)), lox.iv),
              klv_requant(ir, sum, mv, mv, klv_i64(ir, sh), -128, 127));
    klv_loop_end(ir, &lox);
    klv_loop_end(ir, &loy);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = xt->dims[0] * xt->dims[1];
    plan->work = OH * OW * k[0] * k[1];
    return 1;
}

/* An integer element v of dtype t (i8, u8, i32) as zp_at of
 * interp_int8.c reads it, as f32 (int32 values convert exactly as their
 * int64 would). */
static LLVMValueRef qint_f32(KlvIr *ir, GirDType t, LLVMValueRef v)
{
    return t == GIR_DT_U8 ? LLVMBuildUIToFP(ir->b, v, ir->f32, "") : LLVMBuildSIToFP(ir->b, v, ir->f32, "");
}

/* QuantizeLinear and DequantizeLinear (interp_int8.c), per tensor or per
 * axis (scale of one entry, or of the axis' extent with the zero point
 * alike), scale and zero point constant or computed: they are read from
 * their buffers, entry c = (i / inner) % len of element i.  Quantize: f32
 * (or i32 as f32) x / scale in f32, rint in double (half to even), NaN as
 * 0, plus the zero point, saturated to i8 / u8.  Dequantize (i8, u8,
 * i32): ((float)x - (float)zp) * scale in f32. */
static int emit_qdq(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                    KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *st;
    GirDType yd = g->vals[n->out[0]].type.dtype, zd = GIR_DT_UNDEF;
    int q = n->op == GIR_OP_QUANTIZELINEAR, u8 = yd == GIR_DT_U8, hz = n->nin > 2 && n->in[2] >= 0;
    int64_t len, inner = 1, axis = gir_attr_int(n, "axis", 1);
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef c, v, r, zp, lo, hi;
    KlvLoop l;
    if (n->nin < 2 || n->in[1] < 0)
        return 0;
    st = &g->vals[n->in[1]].type;
    len = gir_type_numel(st);
    if (st->dtype != GIR_DT_F32 || len < 1 || gir_type_numel(xt) <= 0)
        return 0;
    if (hz) {
        zd = g->vals[n->in[2]].type.dtype;
        if (gir_type_numel(&g->vals[n->in[2]].type) != len ||
            (zd != GIR_DT_I8 && zd != GIR_DT_U8 && (q || zd != GIR_DT_I32)))
            return 0;
    }
    if (len > 1) {
        if (axis < 0)
            axis += xt->rank;
        if (axis < 0 || axis >= xt->rank || xt->dims[axis] != len)
            return 0;
        inner = klv_dims_prod(xt->dims, axis + 1, xt->rank);
    }
    if (q ? (xt->dtype != GIR_DT_F32 && xt->dtype != GIR_DT_I32) || (yd != GIR_DT_I8 && !u8) ||
                (hz && zd != yd)
          : (xt->dtype != GIR_DT_I8 && xt->dtype != GIR_DT_U8 && xt->dtype != GIR_DT_I32) ||
                yd != GIR_DT_F32 || (hz && zd != xt->dtype))
        return 0;
    klv_kernel_begin(ir, name);
    l = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    c = len > 1 ? LLVMBuildURem(b, LLVMBuildUDiv(b, l.iv, klv_i64(ir, inner), ""), klv_i64(ir, len), "")
                : klv_i64(ir, 0);
    zp = hz ? qint_f32(ir, zd, klv_load(ir, klv_elem_type(ir, zd), klv_arg(ir, 2), c)) : klv_f32c(ir, 0);
    v = klv_load(ir, klv_elem_type(ir, xt->dtype), klv_arg(ir, 0), l.iv);
    if (q) {
        if (xt->dtype == GIR_DT_I32)
            v = LLVMBuildSIToFP(b, v, ir->f32, "");
        v = LLVMBuildFDiv(b, v, klv_load(ir, ir->f32, klv_arg(ir, 1), c), "");
        r = klv_rint_f64(ir, LLVMBuildFPExt(b, v, d, ""));
        r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, r, r, ""), LLVMConstReal(d, 0), r, "");
        r = LLVMBuildFAdd(b, r, LLVMBuildFPExt(b, zp, d, ""), "");
        lo = LLVMConstReal(d, u8 ? 0 : -128);
        hi = LLVMConstReal(d, u8 ? 255 : 127);
        r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, r, lo, ""), lo, r, "");
        r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, r, hi, ""), hi, r, "");
        r = u8 ? LLVMBuildFPToUI(b, r, ir->i8, "") : LLVMBuildFPToSI(b, r, ir->i8, "");
        klv_store(ir, ir->i8, klv_arg(ir, n->nin), l.iv, r);
    } else {
        v = LLVMBuildFMul(b, LLVMBuildFSub(b, qint_f32(ir, xt->dtype, v), zp, ""),
                          klv_load(ir, ir->f32, klv_arg(ir, 1), c), "");
        klv_store(ir, ir->f32, klv_arg(ir, n->nin), l.iv, v);
    }
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = gir_type_numel(xt);
    plan->work = 1;
    return 1;
}

int klv_emit_i8(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                KlvPlan *plan, GirError *e)
{
    (void)e;
    if (n->nout != 1 || gir_node_is_nhwc(n))
        return 0;
    if (n->op == GIR_OP_QUANTIZELINEAR || n->op == GIR_OP_DEQUANTIZELINEAR)
        return emit_qdq(ir, g, n, name, plan);
    if (g->vals[n->in[0]].type.dtype != GIR_DT_I8)
        return 0;
    if (n->op == GIR_OP_CONV && g->vals[n->in[0]].type.rank == 4 &&
        g->vals[n->in[1]].kind == GIR_VAL_CONST)
        return emit_conv(ir, g, n, name, plan);
    if (n->op == GIR_OP_REQUANTIZE && g->vals[n->out[0]].type.dtype == GIR_DT_I8)
        return emit_requantize(ir, g, n, name, plan);
    if (n->op == GIR_OP_LUTI8 && g->vals[n->out[0]].type.dtype == GIR_DT_I8)
        return emit_lut(ir, g, n, name, plan);
    if (n->op == GIR_OP_GLOBALAVGPOOL && g->vals[n->out[0]].type.dtype == GIR_DT_I8)
        return emit_gap_i8(ir, g, n, name, plan);
    if (n->op == GIR_OP_ADD && g->vals[n->out[0]].type.dtype == GIR_DT_I8)
        return emit_add_i8(ir, g, n, name, plan);
    if (n->op == GIR_OP_AVGPOOL && g->vals[n->out[0]].type.dtype == GIR_DT_I8)
        return emit_avgpool_i8(ir, g, n, name, plan);
    return 0;
}
