/*
 * The int8 depthwise Conv (group = input channels = output channels) through
 * vpdpbusd, where the target has VNNI (KlvIr.vnni).  Without VNNI the int8
 * Conv of kernels_i8.c takes the node as before.
 *
 * vpdpbusd sums 4 byte products into each 32-bit lane, and a depthwise
 * output sums only its own channel's taps, so the 4 bytes of a lane are 4
 * taps of one output pixel: 4 kernel rows (ky = 4 gi .. 4 gi + 3, rows
 * past KH with weight 0) at one kernel column kx.  A lane is one output
 * pixel, a vector VL pixels of one output row of one channel:
 *
 *   NAME_pre writes, per (plane, gi, output row oy), for each column phase
 *   ph < sx and column j, the 4 input bytes x[oy * sy + (4 gi + k) * dy - pt]
 *   [j * sx + ph - pl] (k = 0..3) as one 32-bit word, each as x + 128
 *   (x ^ 0x80), outside the input 0 + 128.  Tap kx of output pixel ox then
 *   is word j = ox + kx * dx / sx of phase kx * dx % sx: VL pixels are VL
 *   consecutive words, one vector load.  (dw_geo takes sx = 1 only, where
 *   it pays; the phases for sx > 1 gave the interpreter's bytes on the
 *   strides (1,2), (2,2) and (1,3) of tests/llvm/cases/dw-int8.gir.)
 *   NAME, per (plane, oy): per block of VL pixels, the accumulator starts
 *   at the channel's bias' and takes one vpdpbusd per (gi, kx) with the
 *   channel's 4 weights of that group and column broadcast to every lane;
 *   the row of sums then goes through requant.h's requantize (klv_requant)
 *   and the clamp.
 *
 * bias' = bias - 128 * sum(w) (klv_vnni_bias), as the group-1 Conv's VNNI
 * form does, so bias' + sum(w * (x + 128)) = bias + sum(w * x) modulo 2^32
 * on both sides: bit for bit graphir/interp_int8.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Most vpdpbusd per pixel block (row groups times kernel columns), all
 * unrolled. */
#define MAX_DOTS 32

/* The node's figures. */
typedef struct {
    int VL;                   /* pixels per vector (16: zmm, 8: ymm) */
    int64_t N, C, H, W;       /* input; C is also the output channels */
    int64_t OH, OW, KH, KW;   /* output, kernel */
    KlvWin2 w;                /* strides, dilations, pads */
    int64_t G;                /* groups of 4 kernel rows: ceil(KH / 4) */
    int64_t nbx;              /* blocks of VL pixels per output row */
    int64_t Wj;               /* words per (plane, gi, oy, phase) row of the buffer */
    int lo, hi;               /* act_min / act_max */
} Dw;

/* Fill o for node n (the int8 form, requantize attributes checked by the
 * caller) when the kernel takes it on a target with VNNI forms vnni. */
static int dw_geo(const GirGraph *g, const GirNode *n, int vnni, int vl, Dw *o)
{
    const GirType *xt = &g->vals[n->in[0]].type, *wt = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    int64_t k[2];
    const int64_t *a;
    int cnt;
    memset(o, 0, sizeof *o);
    if (!vnni || xt->rank != 4 || wt->rank != 4 || yt->rank != 4 ||
        g->vals[n->in[1]].kind != GIR_VAL_CONST ||
        (n->nin > 2 && n->in[2] >= 0 && g->vals[n->in[2]].kind != GIR_VAL_CONST))
        return 0;
    o->N = xt->dims[0], o->C = xt->dims[1], o->H = xt->dims[2], o->W = xt->dims[3];
    o->OH = yt->dims[2], o->OW = yt->dims[3], o->KH = wt->dims[2], o->KW = wt->dims[3];
    if (o->C < 1 || gir_attr_int(n, "group", 1) != o->C || wt->dims[0] != o->C || wt->dims[1] != 1 ||
        yt->dims[1] != o->C || o->OH < 1 || o->OW < 1 || o->KH < 1 || o->KW < 1)
        return 0;
    k[0] = o->KH, k[1] = o->KW;
    if (!klv_win2(n, xt, yt, k, &o->w) || o->w.OH != o->OH || o->w.OW != o->OW)
        return 0;
    o->G = (o->KH + 3) / 4;
    if (o->G * o->KW > MAX_DOTS)
        return 0;
    /* Where it does not pay (bench/llvm_dw_matmul_vnni.sh): a column stride
     * above 1 (the buffer then holds sx phases of every row for 1 / sx of
     * the pixels: 0.86x and 0.97x on PP-OCRv4's 3x3 s(1,2) and s(2,2)), and
     * fewer output rows than kernel rows (padding rows the row kernel skips
     * are taps here: 0.78x on the rec's 480x3x80 5x5). */
    if (o->w.s[1] != 1 || o->OH < o->KH)
        return 0;
    /* 16 lanes where the target has them and the row fills more than 8 */
    if ((vnni & KLV_VNNI_512) && vl == 16 && (o->OW > 8 || !(vnni & KLV_VNNI_256)))
        o->VL = 16;
    else if (vnni & KLV_VNNI_256)
        o->VL = 8;
    else
        return 0;
    o->nbx = (o->OW + o->VL - 1) / o->VL;
    o->Wj = o->nbx * o->VL + (o->KW - 1) * o->w.d[1] / o->w.s[1];
    o->lo = (a = gir_attr_ints(n, "act_min", &cnt)) && cnt == 1 ? (int)a[0] : -128;
    o->hi = (a = gir_attr_ints(n, "act_max", &cnt)) && cnt == 1 ? (int)a[0] : 127;
    return 1;
}

/* Weights as int8 words [c][gi][kx][k] (row 4 gi + k, 0 past KH), biases
 * as bias'; then the buffer of NAME_pre. */
static int dw_pack(const GirGraph *g, const GirNode *n, const Dw *o, KlvPlan *plan)
{
    int has_b = n->nin > 2 && n->in[2] >= 0;
    const int8_t *w = g->vals[n->in[1]].data;
    int64_t ksz = o->KH * o->KW, c, gi, kx, k, ky;
    int64_t xbytes = o->N * o->C * o->G * o->OH * o->w.s[1] * o->Wj * 4;
    int8_t *wp = klv_table_alloc((size_t)(o->C * o->G * o->KW * 4));
    int32_t *bp = malloc((size_t)o->C * 4);
    uint8_t *xs = calloc((size_t)xbytes, 1);
    if (!wp || !bp || !xs) {
        free(wp);
        free(bp);
        free(xs);
        return 0;
    }
    for (c = 0; c < o->C; c++) {
        for (gi = 0; gi < o->G; gi++)
            for (kx = 0; kx < o->KW; kx++)
                for (k = 0; k < 4; k++)
                    if ((ky = gi * 4 + k) < o->KH)
                        wp[((c * o->G + gi) * o->KW + kx) * 4 + k] = w[c * ksz + ky * o->KW + kx];
        bp[c] = klv_vnni_bias(has_b ? ((const int32_t *)g->vals[n->in[2]].data)[c] : 0, w + c * ksz, ksz);
    }
    klv_plan_extra(plan, wp, o->C * o->G * o->KW * 4, KLV_TABLE, 1);
    klv_plan_extra(plan, bp, o->C * 4, KLV_TABLE, 1);
    klv_plan_extra(plan, xs, xbytes, KLV_SCRATCH, 1);
    return 1;
}

/* for (j = lo; j < hi; j++) dst[j * 4 + 0..3] = 0x80 (the input's 0 + 128) */
static void fill_words(KlvIr *ir, LLVMValueRef dst, int64_t lo, int64_t hi)
{
    KlvLoop l;
    if (lo >= hi)
        return;
    l = klv_loop_begin(ir, klv_i64(ir, lo), klv_i64(ir, hi));
    klv_store(ir, ir->i32, dst, l.iv, LLVMConstInt(ir->i32, 0x80808080u, 0));
    klv_loop_end(ir, &l);
}

/* NAME_pre: step (plane, gi, oy) writes its sx rows of Wj words. */
static void emit_dw_pre(KlvIr *ir, const Dw *o, const char *name, int arg_xs, KlvPlan *plan)
{
    LLVMBuilderRef b = ir->b;
    int64_t sx = o->w.s[1], ph;
    KlvLoop lq, lj;
    LLVMValueRef t, oy, gi, plane, dst, rows[4], ok[4];
    char pre[64];
    int k;
    snprintf(pre, sizeof pre, "%s_pre", name);
    klv_kernel_begin(ir, pre);
    lq = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    oy = LLVMBuildSRem(b, lq.iv, klv_i64(ir, o->OH), "");
    t = LLVMBuildSDiv(b, lq.iv, klv_i64(ir, o->OH), "");
    gi = LLVMBuildSRem(b, t, klv_i64(ir, o->G), "");
    plane = LLVMBuildSDiv(b, t, klv_i64(ir, o->G), "");
    for (k = 0; k < 4; k++) {
        /* input row iy of tap row 4 gi + k; a row outside the input reads
         * row 0 and takes 0 instead */
        LLVMValueRef iy = klv_add(ir, klv_mul(ir, oy, klv_i64(ir, o->w.s[0])),
                                  klv_affine(ir, gi, 4 * o->w.d[0], k * o->w.d[0] - o->w.p[0]));
        ok[k] = LLVMBuildICmp(b, LLVMIntULT, iy, klv_i64(ir, o->H), "");
        iy = LLVMBuildSelect(b, ok[k], iy, klv_i64(ir, 0), "");
        rows[k] = klv_gep(ir, ir->i8, klv_arg(ir, 0),
                          klv_mul(ir, klv_add(ir, klv_mul(ir, plane, klv_i64(ir, o->H)), iy), klv_i64(ir, o->W)));
    }
    for (ph = 0; ph < sx; ph++) {
        /* columns j whose input column j * sx + ph - pl is inside [0, W) */
        int64_t jlo = o->w.p[1] > ph ? (o->w.p[1] - ph + sx - 1) / sx : 0;
        int64_t jhi = (o->W + o->w.p[1] - ph + sx - 1) / sx;
        if (jhi > o->Wj)
            jhi = o->Wj;
        if (jlo > jhi)
            jlo = jhi;
        dst = klv_gep(ir, ir->i8, klv_arg(ir, arg_xs),
                      klv_mul(ir, klv_affine(ir, lq.iv, sx, ph), klv_i64(ir, o->Wj * 4)));
        fill_words(ir, dst, 0, jlo);
        if (jlo < jhi) {
            lj = klv_loop_begin(ir, klv_i64(ir, jlo), klv_i64(ir, jhi));
            for (k = 0; k < 4; k++) {
                LLVMValueRef v = klv_load(ir, ir->i8, rows[k], klv_affine(ir, lj.iv, sx, ph - o->w.p[1]));
                v = LLVMBuildSelect(b, ok[k], v, LLVMConstInt(ir->i8, 0, 0), "");
                v = LLVMBuildXor(b, v, LLVMConstInt(ir->i8, 0x80, 0), "");
                klv_store(ir, ir->i8, dst, klv_affine(ir, lj.iv, 4, k), v);
            }
            klv_loop_end(ir, &lj);
        }
        fill_words(ir, dst, jhi, o->Wj);
    }
    klv_loop_end(ir, &lq);
    klv_kernel_end(ir);
    plan->pre = 1;
    plan->pre_range = o->N * o->C * o->G * o->OH;
    plan->pre_work = sx * o->Wj * 4;
}

int klv_emit_conv_dw_i8(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                        KlvPlan *plan)
{
    static const char *rq[3] = {"rq_m_pos", "rq_m_neg", "rq_shift"};
    Dw o;
    int cnt, j, arg_w = n->nin + 1, arg_b = n->nin + 2, arg_xs = n->nin + 3, arg_rq = n->nin + 4;
    int64_t gi, kx, sx;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef vt, dpty;
    LLVMValueRef dp, rowp, oy, plane, c, bias, wc, xrow[MAX_DOTS], wv[MAX_DOTS], acc, ox0, mp, mn, sh;
    KlvLoop lp, lbx, lx;
    if (!dw_geo(g, n, ir->vnni, ir->vl, &o) || !dw_pack(g, n, &o, plan))
        return 0;
    for (j = 0; j < 3; j++)
        klv_plan_extra(plan, (void *)gir_attr_ints(n, rq[j], &cnt), (int64_t)o.C * 8, KLV_TABLE, 0);
    emit_dw_pre(ir, &o, name, arg_xs, plan);
    sx = o.w.s[1];
    vt = LLVMVectorType(ir->i32, (unsigned)o.VL);
    dp = klv_vpdpbusd(ir, o.VL, &dpty);

    klv_kernel_begin(ir, name);
    rowp = LLVMBuildArrayAlloca(b, ir->i32, klv_i64(ir, o.nbx * o.VL), "row");
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    oy = LLVMBuildSRem(b, lp.iv, klv_i64(ir, o.OH), "");
    plane = LLVMBuildSDiv(b, lp.iv, klv_i64(ir, o.OH), "");
    c = LLVMBuildSRem(b, plane, klv_i64(ir, o.C), "");
    bias = klv_splat(ir, klv_load(ir, ir->i32, klv_arg(ir, arg_b), c), o.VL);
    wc = klv_gep(ir, ir->i32, klv_arg(ir, arg_w), klv_mul(ir, c, klv_i64(ir, o.G * o.KW)));
    for (gi = 0; gi < o.G; gi++) {
        /* the buffer's rows of (plane, gi, oy) */
        LLVMValueRef rq0 = klv_add(ir, klv_mul(ir, klv_affine(ir, plane, o.G, gi), klv_i64(ir, o.OH)), oy);
        for (kx = 0; kx < o.KW; kx++) {
            int64_t d = kx * o.w.d[1], at = gi * o.KW + kx;
            LLVMValueRef r = klv_affine(ir, rq0, sx, d % sx);
            xrow[at] = klv_gep(ir, ir->i32, klv_arg(ir, arg_xs),
                               klv_add(ir, klv_mul(ir, r, klv_i64(ir, o.Wj)), klv_i64(ir, d / sx)));
            wv[at] = klv_splat(ir, klv_load(ir, ir->i32, wc, klv_i64(ir, at)), o.VL);
        }
    }
    lbx = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o.nbx));
    ox0 = klv_mul(ir, lbx.iv, klv_i64(ir, o.VL));
    acc = bias;
    for (j = 0; j < o.G * o.KW; j++) {
        LLVMValueRef a[3], xv = LLVMBuildLoad2(b, vt, klv_gep(ir, ir->i32, xrow[j], ox0), "");
        LLVMSetAlignment(xv, 4);
        a[0] = acc;
        a[1] = xv;
        a[2] = wv[j];
        acc = LLVMBuildCall2(b, dpty, dp, a, 3, "");
    }
    {
        LLVMValueRef st = LLVMBuildStore(b, acc, klv_gep(ir, ir->i32, rowp, ox0));
        LLVMSetAlignment(st, 4);
    }
    klv_loop_end(ir, &lbx);
    mp = klv_load(ir, ir->i64, klv_arg(ir, arg_rq), c);
    mn = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 1), c);
    sh = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 2), c);
    lx = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o.OW));
    klv_store(ir, ir->i8, klv_arg(ir, n->nin), klv_add(ir, klv_mul(ir, lp.iv, klv_i64(ir, o.OW)), lx.iv),
              klv_requant(ir, klv_load(ir, ir->i32, rowp, lx.iv), mp, mn, sh, o.lo, o.hi));
    klv_loop_end(ir, &lx);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = o.N * o.C * o.OH;
    plan->work = o.OW * o.G * o.KW;
    return 1;
}
