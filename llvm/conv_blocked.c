/*
 * The register-blocked 2-D Conv (group 1), fp32 and int8.  Weights are
 * packed at compile time as [oc block][ic][ky][kx][VL lanes] (output
 * channels padded with zeros to a multiple of the vector width VL), the
 * bias as [oc block][VL].  A kernel step computes one output row of one
 * block of VL output channels, a few pixels at a time (conv_pixels): one
 * vector accumulator per pixel starts at the bias; every (ic, ky, kx) adds
 * the weight vector times the broadcast input pixel; on the way out each
 * lane goes through the fused activation (fp32) or requant.h's requantize
 * and clamp (int8).  Pixels are summed in the interpreter's order (bias,
 * then ic, ky, kx) with a separate multiply and add, so fp32 results are
 * the interpreter's (with KlvOptions.fma: llvm.fmuladd, one rounding per
 * tap); int8 sums are exact.
 * Padding: when the node pads, a first kernel (NAME_pre) copies the input
 * into a zero-bordered buffer, so the main loop has no bounds checks.
 * int8 with VNNI (KlvIr.vnni: AVX512-VNNI for 16 lanes, AVX-VNNI or
 * AVX512-VNNI with VL for 8): weights packed as bytes [oc block][ic / 4][ky]
 * [kx][VL][ic % 4], NAME_pre always runs and writes the input as x + 128
 * in groups of 4 channels per pixel, and each tap group is one vpdpbusd
 * (u8 x s8, 4 products summed into each i32 lane, no saturation) per
 * pixel; the bias absorbs the -128 * sum(w) the offset added (pack_vnni).
 * Pixel lanes (fp32, schedule out = 3, the default where few taps make the
 * output's writing dominate: the first layers): the same packed weights,
 * but the lanes of a vector are VL output pixels along a row and there is
 * one accumulator per output channel of the block; each tap loads VL
 * input pixels (column stride 1) and adds them times the channel's weight
 * broadcast, and each accumulator is stored as one vector into its NCHW
 * output row.  The sum order is the same, so so are the bits.
 * Transposed output (fp32, schedule out = 4, the default of the other fp32
 * Convs where owb <= VL on x86): the owb accumulators are transposed in
 * registers (butterfly shuffles), each channel's owb pixels then one masked
 * vector store, instead of VL x owb scalar stores.  A step there may be
 * 1, 2 or 4 oc blocks (schedule ocb: ocb x owb accumulators), so each
 * broadcast input pixel feeds ocb multiply-adds: by default 2 for a 1x1
 * Conv and for a 3x3 of few taps (FEW_OCB at FEW_OWB pixels), else 1.
 * A 2x2 stride-2 MaxPool after it (chain.c) is fused there too: a step is
 * then one pooled row, its two output rows in turn (emit_pool_out).
 * Schedule (KlvSchedule, ir->sched, zero fields: the defaults): pixels per
 * step, lanes per oc block, the order of the outer loop, unrolling of the
 * input-channel loop, how the output is written, one thread or all.  No
 * knob changes the order of any pixel's sum, so every schedule gives the
 * same bits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Output pixels along a row computed at once: one vector accumulator each,
 * so they must fit in the vector registers with the weight and the
 * broadcast input (32 with AVX-512, 16 with AVX2).  Picks the width that
 * wastes least work on the last block of the row (the last block is moved
 * back to end at OW, so its overlap is computed twice), widest first. */
static int conv_pixels(int64_t ow, int vl)
{
    int most = vl == 16 ? 14 : 12, best = most, k;
    int64_t waste, best_waste = -1;
    if (ow <= most)
        return (int)ow;
    for (k = most; k >= 6; k--) {
        waste = (ow + k - 1) / k * k - ow;
        if (best_waste < 0 || waste < best_waste) {
            best_waste = waste;
            best = k;
        }
    }
    return best;
}

/* Below this many taps per output pixel (C * KH * KW) the output is written
 * lane by lane in unrolled code (fast where writing dominates: the first
 * layers); above, in a loop over lanes (a sixteenth of the code to compile). */
#define UNROLL_OUT_TAPS 300

/* Pixel lanes are the default below this many taps per output pixel, where
 * at most this share of a row's pixels is computed twice (the last block
 * of VL moved back to end at OW). */
#define PIXEL_TAPS 300
#define PIXEL_WASTE 0.25
/* A 1x1 Conv of at least this many input channels takes channel lanes
 * instead, two oc blocks a step (schedule ocb): YOLOv3-tiny's last 256 -> 255
 * 1x1, 26 wide, 0.90 to 0.94 ms against 1.11 to 1.17 in pixel lanes (the
 * node in the model, KILN_CPU_PROFILE, least of 15 runs, three runs each
 * in turn, load average 3). */
#define PIXEL_1X1_C 128

/* A vector load of vt from &base[idx] (elements of et), aligned only to the
 * element: packed rows are not vector aligned. */
static LLVMValueRef load_vec(KlvIr *ir, LLVMTypeRef vt, LLVMTypeRef et, unsigned align,
                             LLVMValueRef base, LLVMValueRef idx)
{
    LLVMValueRef v = LLVMBuildLoad2(ir->b, vt, klv_gep(ir, et, base, idx), "");
    LLVMSetAlignment(v, align);
    return v;
}

/* The shape and attribute figures of the node. */
typedef struct {
    int q;                            /* 1: int8 form */
    int VL, owb;                      /* lanes; pixels per step */
    KlvSchedule r;                    /* the resolved schedule */
    int64_t N, C, H, W, M, KH, KW, OH, OW, ksz;
    int64_t s[2], d[2], p[4];         /* strides, dilations, pads */
    int64_t nocb, Hp, Wp, nbx;        /* oc blocks, padded input, pixel blocks */
    int padded;                       /* 1: the input is padded */
    int vnni;                         /* 1: int8 through vpdpbusd (KlvIr.vnni) */
    int64_t C4;                       /* input channels rounded up to 4 (vnni), else C */
    int pre;                          /* 1: the _pre kernel runs (padded or vnni) */
    int inpad;                        /* 1: padded, the borders handled in the loops (fp32) */
    int lo, hi;                       /* int8 act_min / act_max */
    int ocr;                          /* oc blocks per step (channel lanes): 1, 2
                                         or 4 (schedule ocb, out 4 only) */
} Geo;

/* The VNNI form of pack: weights as int8 [oc block][ic / 4][ky][kx][VL][ic % 4]
 * (input channels padded to C4 with zero weights), so one 32-bit lane of
 * a weight vector holds 4 input channels of one output channel, as
 * vpdpbusd multiplies them; the input goes in as x + 128 (unsigned), so
 * each bias is lowered by 128 times the sum of its channel's weights.
 * Sums are modulo 2^32 on both sides of that identity, so the result is
 * the interpreter's int32 sum wherever that one does not overflow. */
static int pack_vnni(const GirGraph *g, const GirNode *n, const Geo *o, KlvPlan *plan)
{
    int has_b = n->nin > 2 && n->in[2] >= 0;
    int64_t Mp = o->nocb * o->VL, G4 = o->C4 / 4, oc, ic, k;
    const int8_t *w = g->vals[n->in[1]].data;
    int8_t *wp = klv_table_alloc((size_t)(Mp * o->C4 * o->ksz));
    int32_t *bp = calloc((size_t)Mp, 4);
    uint8_t *xpad = calloc((size_t)(o->N * o->C4 * o->Hp * o->Wp), 1);
    if (!wp || !bp || !xpad) {
        free(wp);
        free(bp);
        free(xpad);
        return 0;
    }
    for (oc = 0; oc < o->M; oc++) {
        for (ic = 0; ic < o->C; ic++)
            for (k = 0; k < o->ksz; k++)
                wp[(((oc / o->VL * G4 + ic / 4) * o->ksz + k) * o->VL + oc % o->VL) * 4 + ic % 4] =
                    w[(oc * o->C + ic) * o->ksz + k];
        bp[oc] = klv_vnni_bias(has_b ? ((const int32_t *)g->vals[n->in[2]].data)[oc] : 0,
                               w + oc * o->C * o->ksz, o->C * o->ksz);
    }
    klv_plan_extra(plan, wp, Mp * o->C4 * o->ksz, KLV_TABLE, 1);
    klv_plan_extra(plan, bp, Mp * 4, KLV_TABLE, 1);
    klv_plan_extra(plan, xpad, o->N * o->C4 * o->Hp * o->Wp, KLV_SCRATCH, 1);
    return 1;
}

/* Packed weights and bias into plan's extra tables; 0 when out of memory. */
static int pack(const GirGraph *g, const GirNode *n, const Geo *o, KlvPlan *plan)
{
    int has_b = n->nin > 2 && n->in[2] >= 0;
    int64_t Mp = o->nocb * o->VL, oc, ic, k, at;
    size_t wsz = o->q ? sizeof(int16_t) : sizeof(float);
    void *wp, *bp, *xpad = NULL;
    if (o->vnni)
        return pack_vnni(g, n, o, plan);
    wp = klv_table_alloc((size_t)(Mp * o->C * o->ksz) * wsz);
    bp = klv_table_alloc((size_t)Mp * 4);
    if (o->pre)
        xpad = calloc((size_t)(o->N * o->C * o->Hp * o->Wp), o->q ? 1 : sizeof(float));
    if (!wp || !bp || (o->pre && !xpad)) {
        free(wp);
        free(bp);
        free(xpad);
        return 0;
    }
    for (oc = 0; oc < o->M; oc++) {
        if (o->q)
            ((int32_t *)bp)[oc] = has_b ? ((const int32_t *)g->vals[n->in[2]].data)[oc] : 0;
        else
            ((float *)bp)[oc] = has_b ? ((const float *)g->vals[n->in[2]].data)[oc] : 0.0f;
        for (ic = 0; ic < o->C; ic++)
            for (k = 0; k < o->ksz; k++) {
                at = ((oc / o->VL * o->C + ic) * o->ksz + k) * o->VL + oc % o->VL;
                if (o->q)
                    ((int16_t *)wp)[at] =
                        ((const int8_t *)g->vals[n->in[1]].data)[(oc * o->C + ic) * o->ksz + k];
                else
                    ((float *)wp)[at] =
                        ((const float *)g->vals[n->in[1]].data)[(oc * o->C + ic) * o->ksz + k];
            }
    }
    klv_plan_extra(plan, wp, Mp * o->C * o->ksz * (int64_t)wsz, KLV_TABLE, 1);
    klv_plan_extra(plan, bp, Mp * 4, KLV_TABLE, 1);
    if (o->pre)
        klv_plan_extra(plan, xpad, o->N * o->C * o->Hp * o->Wp * (o->q ? 1 : 4), KLV_SCRATCH, 1);
    return 1;
}

/* Argument positions: ins, out, wpack, bpack, [xpad], [m_pos, m_neg, shift]. */
#define ARG_Y(n) ((n)->nin)
#define ARG_W(n) ((n)->nin + 1)
#define ARG_B(n) ((n)->nin + 2)

/* NAME_pre: each row of the zeroed, larger planes, one step per row
 * (batch, channel, padded row): a row of the padding is zeros; a row of the
 * input is the left pad's zeros, the input row copied, the right pad's
 * zeros (three plain loops, which LLVM turns into vector stores and a
 * memcpy). */
static void emit_pad(KlvIr *ir, const Geo *o, const char *name, int arg_x, int arg_pad, KlvPlan *plan)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef et = o->q ? ir->i8 : ir->f32;
    LLVMValueRef zero = o->q ? LLVMConstInt(ir->i8, 0, 0) : klv_f32c(ir, 0);
    KlvLoop lq, lix;
    LLVMValueRef x, xs, pq, plane, iy, sy, in, xrow;
    LLVMBasicBlockRef inside, outside, next;
    int64_t right = o->Wp - o->p[1] - o->W; /* zeros after the input row */
    char pre[64];
    snprintf(pre, sizeof pre, "%s_pre", name);
    klv_kernel_begin(ir, pre);
    x = klv_arg(ir, arg_x);
    xs = klv_arg(ir, arg_pad);
    lq = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    plane = LLVMBuildUDiv(b, lq.iv, klv_i64(ir, o->Hp), "");
    iy = LLVMBuildURem(b, lq.iv, klv_i64(ir, o->Hp), "");
    pq = klv_gep(ir, et, xs, klv_mul(ir, lq.iv, klv_i64(ir, o->Wp)));
    sy = klv_add(ir, iy, klv_i64(ir, -o->p[0]));
    in = LLVMBuildICmp(b, LLVMIntULT, sy, klv_i64(ir, o->H), "");
    inside = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "row");
    outside = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "pad");
    next = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "next");
    LLVMBuildCondBr(b, in, inside, outside);
    LLVMPositionBuilderAtEnd(b, inside);
    xrow = klv_gep(ir, et, x, klv_add(ir, klv_mul(ir, plane, klv_i64(ir, o->H * o->W)),
                                      klv_mul(ir, sy, klv_i64(ir, o->W))));
    if (o->p[1] > 0) {
        lix = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o->p[1]));
        klv_store(ir, et, pq, lix.iv, zero);
        klv_loop_end(ir, &lix);
    }
    lix = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o->W));
    klv_store(ir, et, pq, klv_add(ir, lix.iv, klv_i64(ir, o->p[1])), klv_load(ir, et, xrow, lix.iv));
    klv_loop_end(ir, &lix);
    if (right > 0) {
        lix = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, right));
        klv_store(ir, et, pq, klv_add(ir, lix.iv, klv_i64(ir, o->p[1] + o->W)), zero);
        klv_loop_end(ir, &lix);
    }
    LLVMBuildBr(b, next);
    LLVMPositionBuilderAtEnd(b, outside);
    lix = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o->Wp));
    klv_store(ir, et, pq, lix.iv, zero);
    klv_loop_end(ir, &lix);
    LLVMBuildBr(b, next);
    LLVMPositionBuilderAtEnd(b, next);
    klv_loop_end(ir, &lq);
    klv_kernel_end(ir);
    plan->pre = 1;
    plan->pre_range = o->N * o->C * o->Hp;
    plan->pre_work = o->Wp;
}

/* NAME_pre of the VNNI form: the input, padded as emit_pad's, into
 * [n][C4 / 4][Hp][Wp][4] bytes of x + 128 (x ^ 0x80), the 4 channels of a
 * pixel in one 32-bit word; padding and the channels past C are 0 + 128. */
static void emit_pad_vnni(KlvIr *ir, const Geo *o, const char *name, int arg_pad, KlvPlan *plan)
{
    LLVMBuilderRef b = ir->b;
    int64_t G4 = o->C4 / 4;
    KlvLoop lq, liy, lix;
    LLVMValueRef x, xs, pq, nb, cg;
    char pre[64];
    int k;
    snprintf(pre, sizeof pre, "%s_pre", name);
    klv_kernel_begin(ir, pre);
    x = klv_arg(ir, 0);
    xs = klv_arg(ir, arg_pad);
    lq = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    nb = LLVMBuildSDiv(b, lq.iv, klv_i64(ir, G4), "");
    cg = LLVMBuildSRem(b, lq.iv, klv_i64(ir, G4), "");
    pq = klv_gep(ir, ir->i8, xs, klv_mul(ir, lq.iv, klv_i64(ir, o->Hp * o->Wp * 4)));
    liy = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o->Hp));
    lix = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o->Wp));
    {
        LLVMValueRef sy = klv_add(ir, liy.iv, klv_i64(ir, -o->p[0]));
        LLVMValueRef sx = klv_add(ir, lix.iv, klv_i64(ir, -o->p[1]));
        LLVMValueRef in = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULT, sy, klv_i64(ir, o->H), ""),
                                       LLVMBuildICmp(b, LLVMIntULT, sx, klv_i64(ir, o->W), ""), "");
        LLVMValueRef pix = LLVMBuildSelect(
            b, in, klv_add(ir, klv_mul(ir, sy, klv_i64(ir, o->W)), sx), klv_i64(ir, 0), "");
        LLVMValueRef at = klv_mul(ir, klv_add(ir, klv_mul(ir, liy.iv, klv_i64(ir, o->Wp)), lix.iv),
                                  klv_i64(ir, 4));
        for (k = 0; k < 4; k++) {
            /* channel c = cg * 4 + k; the address stays inside x even when
             * c is past C (channel 0 is read, and not used) */
            LLVMValueRef c = klv_affine(ir, cg, 4, k);
            LLVMValueRef cin = LLVMBuildICmp(b, LLVMIntSLT, c, klv_i64(ir, o->C), "");
            LLVMValueRef cc = LLVMBuildSelect(b, cin, c, klv_i64(ir, 0), "");
            LLVMValueRef src = klv_add(
                ir, klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, o->C)), cc), klv_i64(ir, o->H * o->W)),
                pix);
            LLVMValueRef v = LLVMBuildSelect(b, LLVMBuildAnd(b, in, cin, ""), klv_load(ir, ir->i8, x, src),
                                             LLVMConstInt(ir->i8, 0, 0), "");
            v = LLVMBuildXor(b, v, LLVMConstInt(ir->i8, 0x80, 0), "");
            klv_store(ir, ir->i8, pq, klv_add(ir, at, klv_i64(ir, k)), v);
        }
    }
    klv_loop_end(ir, &lix);
    klv_loop_end(ir, &liy);
    klv_loop_end(ir, &lq);
    klv_kernel_end(ir);
    plan->pre = 1;
    plan->pre_range = o->N * G4;
    plan->pre_work = o->Hp * o->Wp * 4;
}

/* Fill o from node n with lanes vl and owb pixels per step (0: the
 * default for the row); 0 when the node does not fit this kernel. */
static int geometry(const GirGraph *g, const GirNode *n, int q, int vl, int owb, Geo *o)
{
    const GirType *xt = &g->vals[n->in[0]].type, *wt = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    const int64_t *a;
    int cnt;
    memset(o, 0, sizeof *o);
    o->q = q;
    o->VL = vl;
    o->N = xt->dims[0], o->C = xt->dims[1], o->H = xt->dims[2], o->W = xt->dims[3];
    o->M = wt->dims[0], o->KH = wt->dims[2], o->KW = wt->dims[3];
    o->OH = yt->dims[2], o->OW = yt->dims[3], o->ksz = o->KH * o->KW;
    o->s[0] = o->s[1] = o->d[0] = o->d[1] = 1;
    if (wt->dims[1] != o->C)
        return 0;
    if ((a = gir_attr_ints(n, "strides", &cnt)) && cnt == 2)
        o->s[0] = a[0], o->s[1] = a[1];
    if ((a = gir_attr_ints(n, "dilations", &cnt)) && cnt == 2)
        o->d[0] = a[0], o->d[1] = a[1];
    if ((a = gir_attr_ints(n, "pads", &cnt)) && cnt == 4)
        memcpy(o->p, a, sizeof o->p);
    o->lo = (a = gir_attr_ints(n, "act_min", &cnt)) && cnt == 1 ? (int)a[0] : -128;
    o->hi = (a = gir_attr_ints(n, "act_max", &cnt)) && cnt == 1 ? (int)a[0] : 127;
    o->nocb = (o->M + o->VL - 1) / o->VL;
    o->owb = owb > 0 ? owb : conv_pixels(o->OW, o->VL);
    o->nbx = (o->OW + o->owb - 1) / o->owb;
    o->padded = o->p[0] || o->p[1] || o->p[2] || o->p[3];
    o->C4 = o->C;
    /* fp32 handles the borders in its loops; int8 reads a padded copy */
    o->inpad = o->padded && !q;
    o->pre = o->padded && q;
    o->Hp = o->padded ? (o->OH - 1) * o->s[0] + (o->KH - 1) * o->d[0] + 1 : o->H;
    o->Wp = o->padded ? (o->OW - 1) * o->s[1] + (o->KW - 1) * o->d[1] + 1 : o->W;
    if (o->Hp < o->p[0] + o->H)
        o->Hp = o->p[0] + o->H;
    if (o->Wp < o->p[1] + o->W)
        o->Wp = o->p[1] + o->W;
    return o->OW > 0 && o->OH > 0;
}

/* Whether the node's attributes and constants suit the kernel. */
static int takes(const GirGraph *g, const GirNode *n)
{
    return strcmp(gir_attr_string(n, "auto_pad", "NOTSET"), "NOTSET") == 0 &&
           gir_attr_int(n, "group", 1) == 1 && n->nin >= 2 &&
           g->vals[n->in[1]].kind == GIR_VAL_CONST && g->vals[n->in[1]].type.rank == 4 &&
           g->vals[n->in[0]].type.rank == 4 && g->vals[n->out[0]].type.rank == 4 &&
           !(n->nin > 2 && n->in[2] >= 0 && g->vals[n->in[2]].kind != GIR_VAL_CONST);
}

/* Whether pixel lanes (schedule out = 3) can run node o: fp32, column
 * stride 1, a row of at least VL pixels; as the default (dflt) also few
 * taps per pixel and little of the row computed twice. */
static int pixel_lanes_fit(const Geo *o, int dflt)
{
    int64_t nbx = (o->OW + o->VL - 1) / o->VL;
    if (o->q || o->s[1] != 1 || o->OW < o->VL)
        return 0;
    return !dflt || (o->C * o->ksz < PIXEL_TAPS && (o->ksz > 1 || o->C < PIXEL_1X1_C) &&
                     (double)(nbx * o->VL - o->OW) <= PIXEL_WASTE * (double)o->OW);
}

/* The default of an fp32 Conv of few taps (pixel lanes by the rule above)
 * whose kernel is wider than 1x1, of 16 input channels or more: channel
 * lanes, 2 oc blocks at 8 pixels a step (16 accumulators; LLVM keeps the 3 x 2 weight vectors of a
 * kernel row and the 10 input pixels it broadcasts in registers, 16
 * loads for 48 multiply-adds), the output transposed.  YOLOv3-tiny 416's
 * 32 -> 64 3x3 at 104 x 104: 3.49 to 3.53 ms against 4.51 to 4.54 in
 * pixel lanes; its 16 -> 32 at 208: 3.62 to 3.68 against 4.09 (one
 * thread, its CPU time, KILN_CPU_PROFILE=thread; the MaxPool after each
 * then alone: 0.09 and 0.33 ms; fused into the transposed output, the
 * two 3.53 to 3.55 and 3.75 to 3.81 with their MaxPools). */
#define FEW_OWB 8
#define FEW_OCB 2
/* ... from this many input channels (the first layers, 3 channels, keep
 * pixel lanes: measured only from 16) */
#define FEW_MIN_C 16

/* Whether the output can be transposed in registers (schedule out = 4):
 * fp32, at most VL pixels per step, and x86 vectors of 8 or 16 lanes (the
 * masked store is one instruction there). */
#define TRANSPOSE_FITS(q, s) (!(q) && (s)->owb <= (s)->vl && (s)->vl >= 8)

/* Whether k oc blocks a step (schedule ocb, 2 or 4) fit node o under
 * schedule s: the transposed output (fp32, channel lanes), whole steps of
 * k oc blocks, and the k x owb accumulators, the k weight vectors and the
 * broadcast input in the vector registers (32 with AVX-512, 16 below).
 * Each input broadcast then feeds k multiply-adds, and the sums of each
 * pixel keep their order: the same bits. */
#define OCB_FITS(o, s, k)                                                                        \
    (((k) == 2 || (k) == 4) && (s)->out == 4 && TRANSPOSE_FITS((o)->q, s) && (o)->nocb % (k) == 0 && \
     (k) * (s)->owb + (k) + 1 <= ((s)->vl == 16 ? 32 : 16))

int klv_conv_blocked_resolve(const GirGraph *g, const GirNode *n, int vl, const KlvSchedule *s,
                             KlvSchedule *out)
{
    KlvSchedule z;
    Geo o;
    int q = g->vals[n->in[0]].type.dtype == GIR_DT_I8;
    memset(&z, 0, sizeof z);
    if (!s)
        s = &z;
    if (n->op != GIR_OP_CONV || !takes(g, n))
        return 0;
    memset(out, 0, sizeof *out);
    out->vl = s->vl ? s->vl : vl;
    if ((out->vl != 4 && out->vl != 8 && out->vl != 16) || out->vl > vl)
        return 0;
    if (!geometry(g, n, q, out->vl, 0, &o))
        return 0;
    out->owb = s->owb ? s->owb : o.owb;
    out->order = s->order ? s->order : 1;
    out->unroll = s->unroll ? s->unroll : 1;
    out->out = s->out                        ? s->out
               : pixel_lanes_fit(&o, 1)    ? 3
               : TRANSPOSE_FITS(q, out)    ? 4
               : o.C * o.ksz < UNROLL_OUT_TAPS ? 1
                                               : 2;
    out->threads = s->threads ? s->threads : 2;
    out->ocb = s->ocb ? s->ocb : o.ksz == 1 && OCB_FITS(&o, out, 2) ? 2 : 1;
    if (!s->owb && !s->out && !s->ocb && out->out == 3 && o.ksz > 1 && o.C >= FEW_MIN_C) {
        /* few taps, a kernel wider than 1x1: channel lanes of FEW_OCB oc
         * blocks at FEW_OWB pixels where they fit */
        KlvSchedule c = *out;
        c.owb = FEW_OWB;
        c.out = 4;
        if (FEW_OWB <= o.OW && TRANSPOSE_FITS(q, &c) && OCB_FITS(&o, &c, FEW_OCB)) {
            out->owb = FEW_OWB;
            out->out = 4;
            out->ocb = FEW_OCB;
        }
    }
    if (out->out == 3) {
        /* a step is VL pixels, with no input-channel unrolling */
        if (!pixel_lanes_fit(&o, 0))
            return 0;
        out->owb = out->vl;
        out->unroll = 1;
    }
    return out->owb >= 1 && out->owb <= 16 && out->owb <= o.OW && out->order >= 1 &&
           out->order <= 2 && (out->unroll == 1 || out->unroll == 2 || out->unroll == 4) &&
           o.C % out->unroll == 0 && out->out >= 1 && out->out <= 4 &&
           (out->out != 4 || TRANSPOSE_FITS(q, out)) && out->threads >= 1 &&
           out->threads <= 2 && (out->ocb == 1 || OCB_FITS(&o, out, out->ocb));
}

/* The VNNI form's taps of one step: for each group of 4 input channels
 * (unrolled by the schedule's unroll where it divides the groups), ky and
 * kx, one weight vector (VL lanes of 4 bytes) and, per pixel j, the
 * pixel's 4 channel bytes broadcast to every lane: acc[j] = vpdpbusd(acc[j],
 * x4, w4). */
static void vnni_taps(KlvIr *ir, const Geo *o, LLVMValueRef dp, LLVMTypeRef dpty,
                      LLVMValueRef accp, LLVMValueRef xbase, LLVMValueRef wbase, LLVMValueRef oy,
                      LLVMValueRef ox0)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef vt = LLVMVectorType(ir->i32, (unsigned)o->VL);
    LLVMTypeRef bvt = LLVMVectorType(ir->i8, (unsigned)(o->VL * 4));
    int64_t G4 = o->C4 / 4, kx;
    int unr = G4 % o->r.unroll == 0 ? o->r.unroll : 1, u, j;
    KlvLoop lg = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, G4 / unr)), lky;
    for (u = 0; u < unr; u++) {
        LLVMValueRef cg = klv_affine(ir, lg.iv, unr, u);
        LLVMValueRef xpl = klv_gep(ir, ir->i8, xbase, klv_mul(ir, cg, klv_i64(ir, o->Hp * o->Wp * 4)));
        LLVMValueRef wcg = klv_gep(ir, ir->i8, wbase, klv_mul(ir, cg, klv_i64(ir, o->ksz * o->VL * 4)));
        lky = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o->KH));
        {
            LLVMValueRef iy = klv_add(ir, klv_mul(ir, oy, klv_i64(ir, o->s[0])),
                                      klv_mul(ir, lky.iv, klv_i64(ir, o->d[0])));
            LLVMValueRef xrow = klv_gep(
                ir, ir->i8, xpl,
                klv_mul(ir, klv_add(ir, klv_mul(ir, iy, klv_i64(ir, o->Wp)), klv_mul(ir, ox0, klv_i64(ir, o->s[1]))),
                        klv_i64(ir, 4)));
            LLVMValueRef wky = klv_gep(ir, ir->i8, wcg, klv_mul(ir, lky.iv, klv_i64(ir, o->KW * o->VL * 4)));
            for (kx = 0; kx < o->KW; kx++) {
                LLVMValueRef wv = load_vec(ir, bvt, ir->i8, 1, wky, klv_i64(ir, kx * o->VL * 4));
                wv = LLVMBuildBitCast(b, wv, vt, "");
                for (j = 0; j < o->owb; j++) {
                    LLVMValueRef ap = klv_gep(ir, vt, accp, klv_i64(ir, j));
                    LLVMValueRef xp = klv_gep(ir, ir->i8, xrow, klv_i64(ir, (j * o->s[1] + kx * o->d[1]) * 4));
                    LLVMValueRef xv = LLVMBuildLoad2(b, ir->i32, xp, ""), a[3];
                    LLVMSetAlignment(xv, 4);
                    a[0] = LLVMBuildLoad2(b, vt, ap, "");
                    a[1] = klv_splat(ir, xv, o->VL);
                    a[2] = wv;
                    LLVMBuildStore(b, LLVMBuildCall2(b, dpty, dp, a, 3, ""), ap);
                }
            }
        }
        klv_loop_end(ir, &lky);
    }
    klv_loop_end(ir, &lg);
}

/* The input as the taps read it: the _pre copy's zero-bordered planes
 * (no offsets), or with the padding in the loops (o->inpad) x itself,
 * rows of W, the pads taken off the tap's coordinates. */
static int64_t in_plane(const Geo *o)
{
    return o->inpad ? o->H * o->W : o->Hp * o->Wp;
}

static int64_t in_row(const Geo *o)
{
    return o->inpad ? o->W : o->Wp;
}

/* The kernel rows [*lo, *hi) of output row oy whose input row lies inside
 * the input: with the padding in the loops the taps of the others are
 * skipped, as the interpreter skips them; with the _pre copy every row. */
static void ky_bounds(KlvIr *ir, const Geo *o, LLVMValueRef oy, LLVMValueRef *lo, LLVMValueRef *hi)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef t, u, l, h, d = klv_i64(ir, o->d[0]), zero = klv_i64(ir, 0);
    if (!o->inpad) {
        *lo = zero;
        *hi = klv_i64(ir, o->KH);
        return;
    }
    /* input row oy * s0 + ky * d0 - p0 = ky * d0 - t: inside for
     * t / d0 <= ky (rounded up) and ky <= (H - 1 + t) / d0 */
    t = klv_affine(ir, oy, -o->s[0], o->p[0]);
    l = LLVMBuildSDiv(b, klv_affine(ir, t, 1, o->d[0] - 1), d, "");
    *lo = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, t, zero, ""), l, zero, "");
    u = klv_affine(ir, t, 1, o->H - 1);
    h = klv_affine(ir, LLVMBuildSDiv(b, u, d, ""), 1, 1);
    h = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, u, zero, ""), zero, h, "");
    *hi = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, h, klv_i64(ir, o->KH), ""),
                          klv_i64(ir, o->KH), h, "");
}

/* Input row of kernel row ky for output row oy, in the layout in_row gives. */
static LLVMValueRef in_y(KlvIr *ir, const Geo *o, LLVMValueRef oy, LLVMValueRef ky)
{
    return klv_add(ir, klv_affine(ir, oy, o->s[0], o->inpad ? -o->p[0] : 0), klv_mul(ir, ky, klv_i64(ir, o->d[0])));
}

/* acc + w * x: llvm.fmuladd when fma is given, else a multiply and an add. */
static LLVMValueRef mul_add(KlvIr *ir, LLVMValueRef fma, LLVMTypeRef fmaty, LLVMValueRef w, LLVMValueRef x,
                            LLVMValueRef acc)
{
    LLVMValueRef fa[3];
    if (!fma)
        return LLVMBuildFAdd(ir->b, acc, LLVMBuildFMul(ir->b, w, x, ""), "");
    fa[0] = w;
    fa[1] = x;
    fa[2] = acc;
    return LLVMBuildCall2(ir->b, fmaty, fma, fa, 3, "");
}

/* The taps of one block of output pixels (from ox0) of output row oy into
 * the accumulators at accp: the input channels, kernel rows [kylo, kyhi)
 * and kernel columns in order.  checked: some tap of the block reads a
 * column outside the input (padding in the loops); each such tap is
 * skipped for the pixels it falls outside, as in the interpreter. */
typedef struct {
    LLVMValueRef accp, xbase, wbase, oy, ox0, kylo, kyhi, fma;
    LLVMTypeRef fmaty;
    int64_t nic; /* input channels from xbase and wbase (all, or a chunk) */
    int nob;     /* channel lanes: oc blocks of the step (o->ocr), accumulator
                    ob * owb + j; block ob's weights at wbase + ob * C * ksz * VL */
} Taps;

/* The kernel-row loop of the taps: ky over all KH rows (a constant trip
 * count, which LLVM unrolls), each row's taps behind a test of ky against
 * [t->kylo, t->kyhi) (with the _pre copy none); ky_end closes it. */
static KlvLoop ky_begin(KlvIr *ir, const Geo *o, const Taps *t, LLVMBasicBlockRef *skip)
{
    KlvLoop l = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o->KH));
    LLVMBasicBlockRef in;
    *skip = NULL;
    if (!o->inpad)
        return l;
    in = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "kyin");
    *skip = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "kyskip");
    LLVMBuildCondBr(ir->b,
                    LLVMBuildAnd(ir->b, LLVMBuildICmp(ir->b, LLVMIntSGE, l.iv, t->kylo, ""),
                                 LLVMBuildICmp(ir->b, LLVMIntSLT, l.iv, t->kyhi, ""), ""),
                    in, *skip);
    LLVMPositionBuilderAtEnd(ir->b, in);
    return l;
}

static void ky_end(KlvIr *ir, KlvLoop *l, LLVMBasicBlockRef skip)
{
    if (skip) {
        LLVMBuildBr(ir->b, skip);
        LLVMPositionBuilderAtEnd(ir->b, skip);
    }
    klv_loop_end(ir, l);
}

/* Pixel lanes: accumulator m is output channel m of the block at VL
 * pixels; each tap loads VL input pixels and adds them times the
 * channel's weight broadcast.  checked (ox0 a constant): the lanes whose
 * column lies inside are loaded (the others 0: with 16 lanes one masked
 * load, else lane by lane), and the accumulators of the others keep their
 * value. */
static void pixel_taps(KlvIr *ir, const Geo *o, const Taps *t, int checked)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef vt = LLVMVectorType(ir->f32, (unsigned)o->VL);
    LLVMValueRef *mk = NULL, lane[16], ml = NULL;
    LLVMTypeRef mlty = NULL;
    KlvLoop lic, lky;
    LLVMBasicBlockRef kyskip;
    int64_t kx, x0 = o->inpad ? -o->p[1] : 0, ox0 = 0;
    int m;
    if (checked) {
        static const char mname[] = "llvm.masked.load";
        unsigned mid = LLVMLookupIntrinsicID(mname, sizeof mname - 1);
        LLVMTypeRef mt[2];
        mt[0] = vt;
        mt[1] = ir->ptr;
        ml = LLVMGetIntrinsicDeclaration(ir->mod, mid, mt, 2);
        mlty = LLVMIntrinsicGetType(ir->ctx, mid, mt, 2);
        mk = calloc((size_t)o->KW, sizeof *mk);
        if (!mk)
            return;
        ox0 = LLVMConstIntGetSExtValue(t->ox0);
        for (kx = 0; kx < o->KW; kx++) {
            for (m = 0; m < o->VL; m++) {
                int64_t ix = ox0 + m + kx * o->d[1] + x0;
                lane[m] = LLVMConstInt(ir->i1, ix >= 0 && ix < o->W, 0);
            }
            mk[kx] = LLVMConstVector(lane, (unsigned)o->VL);
        }
    }
    lic = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, t->nic));
    {
        LLVMValueRef xpl = klv_gep(ir, ir->f32, t->xbase, klv_mul(ir, lic.iv, klv_i64(ir, in_plane(o))));
        LLVMValueRef wic = klv_gep(ir, ir->f32, t->wbase, klv_mul(ir, lic.iv, klv_i64(ir, o->ksz * o->VL)));
        lky = ky_begin(ir, o, t, &kyskip);
        {
            LLVMValueRef iy = in_y(ir, o, t->oy, lky.iv);
            LLVMValueRef xrow = klv_gep(ir, ir->f32, xpl, klv_mul(ir, iy, klv_i64(ir, in_row(o))));
            LLVMValueRef wky = klv_gep(ir, ir->f32, wic, klv_mul(ir, lky.iv, klv_i64(ir, o->KW * o->VL)));
            for (kx = 0; kx < o->KW; kx++) {
                LLVMValueRef at = klv_affine(ir, t->ox0, 1, kx * o->d[1] + x0), xv;
                if (checked && o->VL == 16) {
                    /* AVX-512: one masked load (llvm.masked.load: the lanes
                     * outside are 0 and not read, so the address may lie
                     * before the row: a GEP without inbounds) */
                    int64_t ix0 = ox0 + kx * o->d[1] + x0;
                    int any = 0;
                    for (m = 0; m < o->VL; m++)
                        any |= ix0 + m >= 0 && ix0 + m < o->W;
                    xv = LLVMConstNull(vt);
                    if (any) {
                        LLVMValueRef a4[4], idx = klv_i64(ir, ix0);
                        a4[0] = LLVMBuildGEP2(b, ir->f32, xrow, &idx, 1, "");
                        a4[1] = LLVMConstInt(ir->i32, 4, 0);
                        a4[2] = mk[kx];
                        a4[3] = xv;
                        xv = LLVMBuildCall2(b, mlty, ml, a4, 4, "");
                    }
                } else if (checked) {
                    /* elsewhere lane by lane (no masked load instruction
                     * on SSE, NEON or PTX: LLVM would branch per lane) */
                    xv = LLVMConstNull(vt);
                    for (m = 0; m < o->VL; m++) {
                        int64_t ix = ox0 + m + kx * o->d[1] + x0;
                        if (ix >= 0 && ix < o->W)
                            xv = LLVMBuildInsertElement(b, xv, klv_load(ir, ir->f32, xrow, klv_i64(ir, ix)),
                                                        LLVMConstInt(ir->i32, (unsigned)m, 0), "");
                    }
                } else {
                    xv = load_vec(ir, vt, ir->f32, 4, xrow, at);
                }
                for (m = 0; m < o->VL; m++) {
                    LLVMValueRef ap = klv_gep(ir, vt, t->accp, klv_i64(ir, m));
                    LLVMValueRef wv = klv_splat(ir, klv_load(ir, ir->f32, wky, klv_i64(ir, kx * o->VL + m)), o->VL);
                    LLVMValueRef av = LLVMBuildLoad2(b, vt, ap, "");
                    LLVMValueRef v = mul_add(ir, t->fma, t->fmaty, wv, xv, av);
                    if (checked)
                        v = LLVMBuildSelect(b, mk[kx], v, av, "");
                    LLVMBuildStore(b, v, ap);
                }
            }
        }
        ky_end(ir, &lky, kyskip);
    }
    klv_loop_end(ir, &lic);
    free(mk);
}

/* Channel lanes (fp32 and int8 without VNNI): accumulator j is pixel
 * ox0 + j at VL output channels; each tap loads the weight vector and adds
 * it times each pixel's input broadcast.  checked: the column of pixel j
 * and tap kx is tested once per block, clamped to 0 for the load, and a
 * tap outside leaves the accumulator as it was. */
static void lane_taps(KlvIr *ir, const Geo *o, const Taps *t, int checked)
{
    LLVMBuilderRef b = ir->b;
    int q = o->q;
    LLVMTypeRef lt = q ? ir->i32 : ir->f32, vt = LLVMVectorType(lt, (unsigned)o->VL);
    LLVMTypeRef wet = q ? LLVMInt16TypeInContext(ir->ctx) : ir->f32, wvt = LLVMVectorType(wet, (unsigned)o->VL);
    LLVMTypeRef xet = q ? ir->i8 : ir->f32;
    LLVMValueRef *inb = NULL, *cix = NULL;
    LLVMBasicBlockRef kyskip;
    KlvLoop lic, lky;
    int64_t kx, x0 = o->inpad ? -o->p[1] : 0;
    int j, u, ob;
    if (checked) {
        inb = calloc((size_t)(o->owb * o->KW), sizeof *inb);
        cix = calloc((size_t)(o->owb * o->KW), sizeof *cix);
        if (!inb || !cix) {
            free(inb);
            free(cix);
            return;
        }
        for (j = 0; j < o->owb; j++)
            for (kx = 0; kx < o->KW; kx++) {
                LLVMValueRef ix = klv_affine(ir, t->ox0, o->s[1], j * o->s[1] + kx * o->d[1] + x0);
                inb[j * o->KW + kx] = LLVMBuildICmp(b, LLVMIntULT, ix, klv_i64(ir, o->W), "");
                cix[j * o->KW + kx] = LLVMBuildSelect(b, inb[j * o->KW + kx], ix, klv_i64(ir, 0), "");
            }
    }
    /* input channels ic = iv * unroll + u, in order */
    lic = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, t->nic / o->r.unroll));
    for (u = 0; u < o->r.unroll; u++) {
        LLVMValueRef ic = klv_affine(ir, lic.iv, o->r.unroll, u);
        LLVMValueRef xpl = klv_gep(ir, xet, t->xbase, klv_mul(ir, ic, klv_i64(ir, in_plane(o))));
        LLVMValueRef wic = klv_gep(ir, wet, t->wbase, klv_mul(ir, ic, klv_i64(ir, o->ksz * o->VL)));
        lky = ky_begin(ir, o, t, &kyskip);
        {
            LLVMValueRef iy = in_y(ir, o, t->oy, lky.iv);
            LLVMValueRef xrow = klv_gep(ir, xet, xpl, klv_mul(ir, iy, klv_i64(ir, in_row(o))));
            LLVMValueRef wky = klv_gep(ir, wet, wic, klv_mul(ir, lky.iv, klv_i64(ir, o->KW * o->VL)));
            if (!checked) /* the block's first column */
                xrow = klv_gep(ir, xet, xrow, klv_affine(ir, t->ox0, o->s[1], x0));
            for (kx = 0; kx < o->KW; kx++) {
                LLVMValueRef wv[4];
                for (ob = 0; ob < t->nob; ob++) {
                    wv[ob] = load_vec(ir, wvt, wet, q ? 2 : 4, wky,
                                      klv_i64(ir, ob * o->C * o->ksz * o->VL + kx * o->VL));
                    if (q)
                        wv[ob] = LLVMBuildSExt(b, wv[ob], vt, "");
                }
                for (j = 0; j < o->owb; j++) {
                    LLVMValueRef xv = klv_load(ir, xet, xrow,
                                               checked ? cix[j * o->KW + kx]
                                                       : klv_i64(ir, j * o->s[1] + kx * o->d[1]));
                    if (q)
                        xv = LLVMBuildSExt(b, xv, ir->i32, "");
                    xv = klv_splat(ir, xv, o->VL);
                    for (ob = 0; ob < t->nob; ob++) {
                        LLVMValueRef ap = klv_gep(ir, vt, t->accp, klv_i64(ir, ob * o->owb + j));
                        LLVMValueRef av = LLVMBuildLoad2(b, vt, ap, ""), v;
                        if (q)
                            v = LLVMBuildNSWAdd(b, av, LLVMBuildNSWMul(b, wv[ob], xv, ""), "");
                        else
                            v = mul_add(ir, t->fma, t->fmaty, wv[ob], xv, av);
                        if (checked)
                            v = LLVMBuildSelect(b, inb[j * o->KW + kx], v, av, "");
                        LLVMBuildStore(b, v, ap);
                    }
                }
            }
        }
        ky_end(ir, &lky, kyskip);
    }
    klv_loop_end(ir, &lic);
    free(inb);
    free(cix);
}

/* The taps of a block of owb pixels: without padding in the loops one
 * form.  With it, the blocks whose taps all read columns inside the input
 * take the plain form; each block that reaches past a border (ox0 known at
 * compile time: the row's first and last blocks) its own copy of the
 * checked form with ox0 a constant, so the column tests fold away and its
 * taps outside the input are not emitted at all.  A switch on ox0 picks. */
static void emit_taps(KlvIr *ir, const Geo *o, const Taps *t, int64_t owb,
                      void (*fn)(KlvIr *, const Geo *, const Taps *, int))
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef sw;
    LLVMBasicBlockRef plain, join, cb = NULL;
    int64_t nbx = (o->OW + owb - 1) / owb, bx, ox0, last = -1;
    int ncase = 0, ninner = 0;
    Taps tc;
    if (!o->inpad) {
        fn(ir, o, t, 0);
        return;
    }
    for (bx = 0; bx < nbx; bx++) {
        ox0 = bx * owb < o->OW - owb ? bx * owb : o->OW - owb;
        if (ox0 != last && (ox0 * o->s[1] - o->p[1] < 0 ||
                            (ox0 + owb - 1) * o->s[1] + (o->KW - 1) * o->d[1] - o->p[1] >= o->W))
            ncase++;
        else if (ox0 != last)
            ninner++;
        last = ox0;
    }
    if (!ncase) {
        fn(ir, o, t, 0);
        return;
    }
    plain = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "inner");
    join = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "taps");
    sw = LLVMBuildSwitch(b, t->ox0, plain, (unsigned)ncase);
    last = -1;
    for (bx = 0; bx < nbx; bx++) {
        ox0 = bx * owb < o->OW - owb ? bx * owb : o->OW - owb;
        if (ox0 != last && (ox0 * o->s[1] - o->p[1] < 0 ||
                            (ox0 + owb - 1) * o->s[1] + (o->KW - 1) * o->d[1] - o->p[1] >= o->W)) {
            cb = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "border");
            LLVMAddCase(sw, klv_i64(ir, ox0), cb);
            LLVMPositionBuilderAtEnd(b, cb);
            tc = *t;
            tc.ox0 = klv_i64(ir, ox0);
            fn(ir, o, &tc, 1);
            LLVMBuildBr(b, join);
        }
        last = ox0;
    }
    LLVMPositionBuilderAtEnd(b, plain);
    if (ninner) {
        fn(ir, o, t, 0);
        LLVMBuildBr(b, join);
    } else { /* every block is one of the cases (the rows of 13 and 26) */
        LLVMBuildUnreachable(b);
    }
    LLVMPositionBuilderAtEnd(b, join);
}

/* The shuffle masks of a 2x2 pool over vectors of VL pixels: the even and
 * the odd pixels, VL / 2 of each. */
static void pool_sel(KlvIr *ir, int VL, LLVMValueRef sel[2])
{
    LLVMValueRef ix[2][8];
    int k;
    for (k = 0; k < VL / 2; k++) {
        ix[0][k] = LLVMConstInt(ir->i32, (unsigned)(2 * k), 0);
        ix[1][k] = LLVMConstInt(ir->i32, (unsigned)(2 * k + 1), 0);
    }
    sel[0] = LLVMConstVector(ix[0], (unsigned)(VL / 2));
    sel[1] = LLVMConstVector(ix[1], (unsigned)(VL / 2));
}

/* The 2x2 MaxPool of two output rows r0, r1 (vectors of pixels): per
 * window taps (0,0), (0,1), (1,0), (1,1), a tap taken when greater than
 * the maximum so far (MaxPool's rule). */
static LLVMValueRef pool2x2(KlvIr *ir, LLVMValueRef r0, LLVMValueRef r1, const LLVMValueRef sel[2])
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef tap[4], v;
    int k;
    tap[0] = LLVMBuildShuffleVector(b, r0, r0, sel[0], "");
    tap[1] = LLVMBuildShuffleVector(b, r0, r0, sel[1], "");
    tap[2] = LLVMBuildShuffleVector(b, r1, r1, sel[0], "");
    tap[3] = LLVMBuildShuffleVector(b, r1, r1, sel[1], "");
    v = tap[0];
    for (k = 1; k < 4; k++)
        v = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, tap[k], v, ""), tap[k], v, "");
    return v;
}

/* The guard of a ragged lane: lane l of an oc block past M % VL is an
 * output channel only in the blocks before the last, so its store goes
 * into a block taken when ocl < M.  Returns the block after it (to end the
 * guard with lane_guard_end), NULL when the lane needs no guard. */
static LLVMBasicBlockRef lane_guard(KlvIr *ir, const Geo *o, int l, LLVMValueRef ocl)
{
    LLVMBasicBlockRef on, next;
    if (o->M % o->VL == 0 || l < o->M % o->VL)
        return NULL;
    on = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "lane");
    next = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "next");
    LLVMBuildCondBr(ir->b, LLVMBuildICmp(ir->b, LLVMIntSLT, ocl, klv_i64(ir, o->M), ""), on, next);
    LLVMPositionBuilderAtEnd(ir->b, on);
    return next;
}

static void lane_guard_end(KlvIr *ir, LLVMBasicBlockRef next)
{
    if (!next)
        return;
    LLVMBuildBr(ir->b, next);
    LLVMPositionBuilderAtEnd(ir->b, next);
}

/* The pixel-lane kernel (fp32, schedule out = 3): a step is one output
 * row (n, oy) of one block of VL output channels, as the channel-lane
 * kernel's; per block of VL pixels (the last moved back to end at OW),
 * accumulator m (channel ocb * VL + m) starts at its bias, each (ic, ky, kx)
 * adds the weight broadcast times the VL input pixels of the tap, and the
 * accumulator goes out as one vector, through the fused activation.
 * pool (a fused 2x2 stride-2 MaxPool, chain.c): a step is one pooled row,
 * the two output rows under it computed in turn by one loop (their
 * activated vectors kept on the stack); each channel's 2 x VL values are
 * pooled in registers, window by window in the interpreter's order (the
 * first tap, then a later one where greater), and VL / 2 pooled pixels
 * stored. */
static void emit_pixels(KlvIr *ir, const GirNode *n, const Geo *o, const char *name, int arg_pad,
                        LLVMValueRef fma, LLVMTypeRef fmaty, int pool)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef vt = LLVMVectorType(ir->f32, (unsigned)o->VL);
    int64_t nbx = (o->OW + o->VL - 1) / o->VL, rows = pool ? o->OH / 2 : o->OH;
    int64_t PW = o->OW / 2;
    int m;
    KlvLoop lp, lbx, lr;
    LLVMValueRef x, y, wpk, bpk, xs, t, ocb, nb, oc0, row, rowbuf = NULL;
    LLVMValueRef sel[2] = {NULL, NULL};
    Taps tp;
    klv_kernel_begin(ir, name);
    tp.accp = LLVMBuildAlloca(b, LLVMArrayType(vt, (unsigned)o->VL), "acc");
    if (pool)
        rowbuf = LLVMBuildAlloca(b, LLVMArrayType(vt, (unsigned)(2 * o->VL)), "rows");
    tp.fma = fma;
    tp.fmaty = fmaty;
    tp.nic = o->C;
    tp.nob = 1;
    x = klv_arg(ir, 0);
    y = klv_arg(ir, ARG_Y(n));
    wpk = klv_arg(ir, ARG_W(n));
    bpk = klv_arg(ir, ARG_B(n));
    xs = o->pre ? klv_arg(ir, arg_pad) : x;
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    if (o->r.order == 1) { /* step = (nb * nocb + ocb) * rows + row */
        row = LLVMBuildSRem(b, lp.iv, klv_i64(ir, rows), "");
        t = LLVMBuildSDiv(b, lp.iv, klv_i64(ir, rows), "");
        ocb = LLVMBuildSRem(b, t, klv_i64(ir, o->nocb), "");
        nb = LLVMBuildSDiv(b, t, klv_i64(ir, o->nocb), "");
    } else { /* step = (nb * rows + row) * nocb + ocb */
        ocb = LLVMBuildSRem(b, lp.iv, klv_i64(ir, o->nocb), "");
        t = LLVMBuildSDiv(b, lp.iv, klv_i64(ir, o->nocb), "");
        row = LLVMBuildSRem(b, t, klv_i64(ir, rows), "");
        nb = LLVMBuildSDiv(b, t, klv_i64(ir, rows), "");
    }
    oc0 = klv_mul(ir, ocb, klv_i64(ir, o->VL));
    tp.wbase = klv_gep(ir, ir->f32, wpk, klv_mul(ir, ocb, klv_i64(ir, o->C * o->ksz * o->VL)));
    tp.xbase = klv_gep(ir, ir->f32, xs, klv_mul(ir, nb, klv_i64(ir, o->C * in_plane(o))));
    if (!pool) {
        tp.oy = row;
        ky_bounds(ir, o, row, &tp.kylo, &tp.kyhi);
    }
    if (pool)
        pool_sel(ir, o->VL, sel);
    lbx = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, nbx));
    {
        LLVMValueRef ybase;
        tp.ox0 = klv_mul(ir, lbx.iv, klv_i64(ir, o->VL));
        tp.ox0 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, tp.ox0, klv_i64(ir, o->OW - o->VL), ""),
                                 klv_i64(ir, o->OW - o->VL), tp.ox0, "");
        if (pool) { /* output rows 2 * row + r, r = 0, 1 */
            lr = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, 2));
            tp.oy = klv_add(ir, klv_mul(ir, row, klv_i64(ir, 2)), lr.iv);
            ky_bounds(ir, o, tp.oy, &tp.kylo, &tp.kyhi);
        }
        for (m = 0; m < o->VL; m++) /* the bias table is padded to whole blocks */
            LLVMBuildStore(b, klv_splat(ir, klv_load(ir, ir->f32, bpk, klv_add(ir, oc0, klv_i64(ir, m))), o->VL),
                           klv_gep(ir, vt, tp.accp, klv_i64(ir, m)));
        emit_taps(ir, o, &tp, o->VL, pixel_taps);
        if (pool) {
            for (m = 0; m < o->VL; m++)
                LLVMBuildStore(b, klv_act_f32(ir, n, LLVMBuildLoad2(b, vt, klv_gep(ir, vt, tp.accp, klv_i64(ir, m)), "")),
                               klv_gep(ir, vt, rowbuf, klv_affine(ir, lr.iv, o->VL, m)));
            klv_loop_end(ir, &lr);
        }
        /* channel oc0 + m's output row at (nb, oy), from pixel ox0 (pooled:
         * its pooled row from pixel ox0 / 2) */
        if (pool)
            ybase = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, o->M * rows)), row),
                                        klv_i64(ir, PW)),
                            LLVMBuildSDiv(b, tp.ox0, klv_i64(ir, 2), ""));
        else
            ybase = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, o->M * o->OH)), row),
                                        klv_i64(ir, o->OW)),
                            tp.ox0);
        for (m = 0; m < o->VL; m++) {
            LLVMValueRef ocl = klv_add(ir, oc0, klv_i64(ir, m)), v, st;
            LLVMBasicBlockRef next = lane_guard(ir, o, m, ocl);
            if (pool) {
                v = pool2x2(ir, LLVMBuildLoad2(b, vt, klv_gep(ir, vt, rowbuf, klv_i64(ir, m)), ""),
                            LLVMBuildLoad2(b, vt, klv_gep(ir, vt, rowbuf, klv_i64(ir, o->VL + m)), ""),
                            sel);
                st = LLVMBuildStore(
                    b, v, klv_gep(ir, ir->f32, y, klv_add(ir, ybase, klv_mul(ir, ocl, klv_i64(ir, rows * PW)))));
            } else {
                v = klv_act_f32(ir, n, LLVMBuildLoad2(b, vt, klv_gep(ir, vt, tp.accp, klv_i64(ir, m)), ""));
                st = LLVMBuildStore(
                    b, v, klv_gep(ir, ir->f32, y, klv_add(ir, ybase, klv_mul(ir, ocl, klv_i64(ir, o->OH * o->OW)))));
            }
            LLVMSetAlignment(st, 4);
            lane_guard_end(ir, next);
        }
    }
    klv_loop_end(ir, &lbx);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
}

/* Input channels per chunk (0: none) of the channel-lane fp32 kernel
 * whose packed weights per oc block outgrow the caches (512 -> 1,024 3x3:
 * 295 KB, read again for every output row): a step is then a whole oc
 * block, chunk by chunk of input channels over every output row, the
 * partial sums kept on the stack between chunks (at most CHUNK_STACK
 * bytes), so each chunk's weights and input stay cached across the rows.
 * The sums still add bias, then ic, ky, kx in order: the same bits. */
#define CHUNK_WEIGHTS (160 * 1024) /* weight bytes per oc block above which */
#define CHUNK_BYTES (96 * 1024)    /* weight bytes per chunk at most */
#define CHUNK_STACK (64 * 1024)
static int64_t chunk_channels(const Geo *o)
{
    int64_t per = o->ksz * o->VL * 4, c;
    if (o->q || o->vnni || o->r.order != 1 || o->C * per <= CHUNK_WEIGHTS ||
        o->OH * o->nbx * o->owb * o->ocr * o->VL * 4 > CHUNK_STACK)
        return 0;
    for (c = CHUNK_BYTES / (per * o->ocr); c >= 16; c--)
        if (o->C % c == 0 && c % o->r.unroll == 0)
            return c;
    return 0;
}


/* The fused MaxPool of the transposed output: the two rows' activated
 * vectors at rowbuf ([r][ob][l], lane = pixel ox0 + lane) of each channel
 * pooled window by window in the interpreter's order, as emit_pixels
 * pools (the first tap, then a later one where greater), and the owb / 2
 * pooled pixels of pooled row prow stored from pixel ox0 / 2, masked. */
static void emit_pool_out(KlvIr *ir, const Geo *o, LLVMValueRef y, LLVMValueRef rowbuf, LLVMValueRef nb,
                          LLVMValueRef ocb, LLVMValueRef prow, LLVMValueRef ox0)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef vt = LLVMVectorType(ir->f32, (unsigned)o->VL);
    LLVMTypeRef ht = LLVMVectorType(ir->f32, (unsigned)(o->VL / 2)), mt[2], sty;
    LLVMValueRef mk[8], sel[2], mkv, sfn, ybase;
    static const char sname[] = "llvm.masked.store";
    unsigned sid = LLVMLookupIntrinsicID(sname, sizeof sname - 1);
    int64_t PH = o->OH / 2, PW = o->OW / 2;
    int k, ob, l;
    mt[0] = ht;
    mt[1] = ir->ptr;
    sfn = LLVMGetIntrinsicDeclaration(ir->mod, sid, mt, 2);
    sty = LLVMIntrinsicGetType(ir->ctx, sid, mt, 2);
    for (k = 0; k < o->VL / 2; k++)
        mk[k] = LLVMConstInt(ir->i1, k < o->owb / 2, 0);
    pool_sel(ir, o->VL, sel);
    mkv = LLVMConstVector(mk, (unsigned)(o->VL / 2));
    /* pooled pixel ox0 / 2 of pooled row prow of channel 0 of batch nb */
    ybase = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, o->M * PH)), prow), klv_i64(ir, PW)),
                    LLVMBuildSDiv(b, ox0, klv_i64(ir, 2), ""));
    for (ob = 0; ob < o->ocr; ob++) {
        LLVMValueRef oc0 = klv_mul(ir, klv_add(ir, ocb, klv_i64(ir, ob)), klv_i64(ir, o->VL));
        for (l = 0; l < o->VL; l++) {
            LLVMValueRef ocl = klv_add(ir, oc0, klv_i64(ir, l)), a4[4];
            LLVMBasicBlockRef next = lane_guard(ir, o, l, ocl);
            a4[0] = pool2x2(ir, LLVMBuildLoad2(b, vt, klv_gep(ir, vt, rowbuf, klv_i64(ir, ob * o->VL + l)), ""),
                            LLVMBuildLoad2(b, vt, klv_gep(ir, vt, rowbuf, klv_i64(ir, (o->ocr + ob) * o->VL + l)), ""),
                            sel);
            a4[1] = klv_gep(ir, ir->f32, y, klv_add(ir, ybase, klv_mul(ir, ocl, klv_i64(ir, PH * PW))));
            a4[2] = LLVMConstInt(ir->i32, 4, 0);
            a4[3] = mkv;
            LLVMBuildCall2(b, sty, sfn, a4, 4, "");
            lane_guard_end(ir, next);
        }
    }
}

int klv_emit_conv_blocked(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                          KlvPlan *plan, int q)
{
    Geo o;
    KlvSchedule r;
    int j, arg_pad, arg_rq = 0, chain_arg, nchain = klv_chain_scalar(ir, g);
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef lt, vt, wet, xet, yet;
    LLVMValueRef x, y, wpk, bpk, xs, accp, outp, t, oy, ocb, nb, wbase, xbase, fma = NULL;
    LLVMTypeRef fmaty = NULL, dpty = NULL;
    LLVMValueRef dp = NULL;
    KlvLoop lp, lbx, lch, lrow;
    Taps tp;
    int64_t icb, nsb, rows;
    LLVMValueRef part = NULL, bv[4], rowbuf = NULL;
    KlvLoop lr;
    int pool;
    int ob;
    /* a schedule that does not fit the node (records edited by hand) gives
     * way to the defaults */
    if (!klv_conv_blocked_resolve(g, n, ir->vl, ir->sched, &r) &&
        !klv_conv_blocked_resolve(g, n, ir->vl, NULL, &r))
        return 0;
    if (r.out == 3 && (q || nchain)) {
        /* pixel lanes apply no chain: the channel-lane kernel, its default
         * pixels and output form */
        r.owb = 0;
        r.out = 0;
    }
    if (r.out == 4 && nchain)
        r.out = 0; /* the chain is applied lane by lane: out 1 or 2 */
    if (!geometry(g, n, q, r.vl, r.owb, &o))
        return 0;
    if (!r.out)
        r.out = o.C * o.ksz < UNROLL_OUT_TAPS ? 1 : 2;
    if (r.out == 4 && o.owb > o.VL)
        return 0;
    o.r = r;
    o.vnni = q && ((o.VL == 16 && (ir->vnni & KLV_VNNI_512)) ||
                   (o.VL == 8 && (ir->vnni & KLV_VNNI_256)));
    if (o.vnni) {
        o.C4 = (o.C + 3) / 4 * 4;
        o.pre = 1;
    }
    /* the channel-lane kernel writing the transposed output takes the
     * schedule's oc blocks per step (resolved, so they fit) */
    o.ocr = o.r.out == 4 && !o.vnni ? o.r.ocb : 1;
    nsb = o.nocb / o.ocr;
    if (!pack(g, n, &o, plan))
        return 0;
    arg_pad = o.pre ? n->nin + 3 : -1;
    if (q) {
        /* the requantize arrays (checked by the int8 emitter) follow */
        static const char *rq[3] = {"rq_m_pos", "rq_m_neg", "rq_shift"};
        int cnt;
        arg_rq = n->nin + 3 + o.pre;
        for (j = 0; j < 3; j++) {
            void *a = (void *)gir_attr_ints(n, rq[j], &cnt);
            klv_plan_extra(plan, a, (int64_t)cnt * 8, KLV_TABLE, 0);
        }
    }
    lt = q ? ir->i32 : ir->f32;
    vt = LLVMVectorType(lt, (unsigned)o.VL);
    wet = q ? LLVMInt16TypeInContext(ir->ctx) : ir->f32;
    xet = q ? ir->i8 : ir->f32;
    yet = xet;
    if (o.vnni)
        emit_pad_vnni(ir, &o, name, arg_pad, plan);
    else if (o.pre)
        emit_pad(ir, &o, name, 0, arg_pad, plan);
    if (o.vnni) {
        /* acc + the 4 (x + 128) * w products of each 32-bit lane */
        dp = klv_vpdpbusd(ir, o.VL, &dpty);
    }
    if (!q && ir->fma) {
        /* llvm.fmuladd on the accumulator vectors */
        static const char fname[] = "llvm.fmuladd";
        LLVMTypeRef ft[3];
        fma = LLVMGetIntrinsicDeclaration(ir->mod, LLVMLookupIntrinsicID(fname, sizeof fname - 1),
                                          &vt, 1);
        ft[0] = ft[1] = ft[2] = vt;
        fmaty = LLVMFunctionType(vt, ft, 3, 0);
    }

    /* fp32: the fused elementwise chain's operands follow the extras */
    chain_arg = !q && nchain ? n->nin + 1 + plan->nextra : 0;
    if (o.r.out == 3) {
        /* a fused MaxPool (chain.c) where the rows pair up (pool2 checked it) */
        pool = !q && klv_chain_pool(ir, g) && o.OH % 2 == 0 && o.OW % 2 == 0;
        emit_pixels(ir, n, &o, name, arg_pad, fma, fmaty, pool);
        plan->range = o.N * o.nocb * (pool ? o.OH / 2 : o.OH);
        plan->work = o.OW * o.C * o.ksz * o.VL * (pool ? 2 : 1);
        plan->threads = o.r.threads == 1 ? 1 : 0;
        plan->tunable = 1;
        plan->chained = pool;
        return 1;
    }
    icb = chunk_channels(&o);
    /* a fused 2x2 stride-2 MaxPool (chain.c) in the transposed output:
     * a step is one pooled row, its two output rows computed in turn per
     * pixel block (their activated channel vectors kept on the stack),
     * then pooled in registers as the pixel lanes pool them; the blocks
     * start at even pixels (OW and owb even) */
    pool = !q && !o.vnni && !icb && o.r.out == 4 && klv_chain_pool(ir, g) && o.OH % 2 == 0 &&
           o.OW % 2 == 0 && o.owb % 2 == 0;
    rows = pool ? o.OH / 2 : o.OH;
    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, LLVMArrayType(vt, (unsigned)(o.owb * o.ocr)), "acc");
    if (pool)
        rowbuf = LLVMBuildAlloca(b, LLVMArrayType(vt, (unsigned)(2 * o.ocr * o.VL)), "rows");
    outp = LLVMBuildAlloca(b, LLVMArrayType(lt, (unsigned)(o.owb * o.VL)), "out");
    if (icb)
        part = LLVMBuildAlloca(b, LLVMArrayType(vt, (unsigned)(o.OH * o.nbx * o.owb * o.ocr)), "part");
    x = klv_arg(ir, 0);
    y = klv_arg(ir, ARG_Y(n));
    wpk = klv_arg(ir, ARG_W(n));
    bpk = klv_arg(ir, ARG_B(n));
    xs = o.pre ? klv_arg(ir, arg_pad) : x;
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    /* sb: the step's ocr oc blocks from ocb = sb * ocr, nsb of them */
    if (icb) { /* step = nb * nsb + sb, every output row in it */
        oy = NULL;
        ocb = LLVMBuildSRem(b, lp.iv, klv_i64(ir, nsb), "");
        nb = LLVMBuildSDiv(b, lp.iv, klv_i64(ir, nsb), "");
    } else if (o.r.order == 1) { /* step = (nb * nsb + sb) * rows + oy */
        oy = LLVMBuildSRem(b, lp.iv, klv_i64(ir, rows), "");
        t = LLVMBuildSDiv(b, lp.iv, klv_i64(ir, rows), "");
        ocb = LLVMBuildSRem(b, t, klv_i64(ir, nsb), "");
        nb = LLVMBuildSDiv(b, t, klv_i64(ir, nsb), "");
    } else { /* step = (nb * rows + oy) * nsb + sb */
        ocb = LLVMBuildSRem(b, lp.iv, klv_i64(ir, nsb), "");
        t = LLVMBuildSDiv(b, lp.iv, klv_i64(ir, nsb), "");
        oy = LLVMBuildSRem(b, t, klv_i64(ir, rows), "");
        nb = LLVMBuildSDiv(b, t, klv_i64(ir, rows), "");
    }
    ocb = klv_mul(ir, ocb, klv_i64(ir, o.ocr));
    for (ob = 0; ob < o.ocr; ob++)
        bv[ob] = load_vec(ir, vt, lt, 4, bpk, klv_mul(ir, klv_add(ir, ocb, klv_i64(ir, ob)), klv_i64(ir, o.VL)));
    if (o.vnni) { /* bytes: C4 / 4 words per pixel and weight lane */
        wbase = klv_gep(ir, ir->i8, wpk, klv_mul(ir, ocb, klv_i64(ir, o.C4 * o.ksz * o.VL)));
        xbase = klv_gep(ir, ir->i8, xs, klv_mul(ir, nb, klv_i64(ir, o.C4 * o.Hp * o.Wp)));
    } else {
        wbase = klv_gep(ir, wet, wpk, klv_mul(ir, ocb, klv_i64(ir, o.C * o.ksz * o.VL)));
        xbase = klv_gep(ir, xet, xs, klv_mul(ir, nb, klv_i64(ir, o.C * in_plane(&o))));
    }
    tp.accp = accp;
    tp.xbase = xbase;
    tp.wbase = wbase;
    tp.fma = fma;
    tp.fmaty = fmaty;
    tp.nic = icb ? icb : o.C;
    tp.nob = o.ocr;
    if (icb) {
        /* chunk by chunk of icb input channels, each over every row */
        lch = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o.C / icb));
        tp.xbase = klv_gep(ir, xet, xbase, klv_mul(ir, lch.iv, klv_i64(ir, icb * in_plane(&o))));
        tp.wbase = klv_gep(ir, wet, wbase, klv_mul(ir, lch.iv, klv_i64(ir, icb * o.ksz * o.VL)));
        lrow = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o.OH));
        oy = lrow.iv;
    }
    if (!pool) { /* pooled: oy is the pooled row, the rows under it below */
        tp.oy = oy;
        ky_bounds(ir, &o, oy, &tp.kylo, &tp.kyhi);
    }
    lbx = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o.nbx));
    {
        /* first pixel of the block; the last block is moved back to end at OW */
        LLVMValueRef ox0 = klv_mul(ir, lbx.iv, klv_i64(ir, o.owb)), sp = NULL;
        LLVMBasicBlockRef after = NULL;
        ox0 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, ox0, klv_i64(ir, o.OW - o.owb), ""),
                              klv_i64(ir, o.OW - o.owb), ox0, "");
        if (pool) { /* output rows 2 * oy + r, r = 0, 1 */
            lr = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, 2));
            tp.oy = klv_affine(ir, oy, 2, 0);
            tp.oy = klv_add(ir, tp.oy, lr.iv);
            ky_bounds(ir, &o, tp.oy, &tp.kylo, &tp.kyhi);
        }
        if (icb) {
            /* the block's partial sums: the bias in the first chunk, then
             * what the chunk before left on the stack */
            LLVMValueRef first = LLVMBuildICmp(b, LLVMIntEQ, lch.iv, klv_i64(ir, 0), "");
            sp = klv_gep(ir, vt, part, klv_mul(ir, klv_add(ir, klv_mul(ir, oy, klv_i64(ir, o.nbx)), lbx.iv),
                                               klv_i64(ir, o.owb * o.ocr)));
            for (j = 0; j < o.owb * o.ocr; j++) {
                LLVMValueRef pv = LLVMBuildLoad2(b, vt, klv_gep(ir, vt, sp, klv_i64(ir, j)), "");
                LLVMBuildStore(b, LLVMBuildSelect(b, first, bv[j / o.owb], pv, ""),
                               klv_gep(ir, vt, accp, klv_i64(ir, j)));
            }
        } else {
            for (j = 0; j < o.owb * o.ocr; j++)
                LLVMBuildStore(b, bv[j / o.owb], klv_gep(ir, vt, accp, klv_i64(ir, j)));
        }
        if (o.vnni) {
            vnni_taps(ir, &o, dp, dpty, accp, xbase, wbase, oy, ox0);
        } else {
            tp.ox0 = ox0;
            emit_taps(ir, &o, &tp, o.owb, lane_taps);
        }
        if (icb) {
            /* before the last chunk the sums go back to the stack; after
             * it, out as below */
            LLVMBasicBlockRef keep = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "keep");
            LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "out");
            after = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "after");
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, lch.iv, klv_i64(ir, o.C / icb - 1), ""), out, keep);
            LLVMPositionBuilderAtEnd(b, keep);
            for (j = 0; j < o.owb * o.ocr; j++)
                LLVMBuildStore(b, LLVMBuildLoad2(b, vt, klv_gep(ir, vt, accp, klv_i64(ir, j)), ""),
                               klv_gep(ir, vt, sp, klv_i64(ir, j)));
            LLVMBuildBr(b, after);
            LLVMPositionBuilderAtEnd(b, out);
        }
        if (o.r.out == 4) {
            /* out: the accumulators (pixel j: VL channels) transposed in
             * registers by log2(VL) butterfly stages of two-source shuffles
             * (stage s swaps lane l of vector j with lane l ^ s of vector
             * j ^ s where the s bits of j and l differ), so vector l is
             * channel ocb * VL + l at pixels ox0 ...; each stored as one
             * vector, masked to owb lanes */
            LLVMValueRef av[16], cv[16], m0[16], m1[16], mk[16], sv0, sv1, ybase, oc0, mkv = NULL;
            LLVMValueRef sfn = NULL;
            LLVMTypeRef sty = NULL;
            int l, st;
            if (o.owb < o.VL) {
                static const char sname[] = "llvm.masked.store";
                LLVMTypeRef mt[2];
                mt[0] = vt;
                mt[1] = ir->ptr;
                sfn = LLVMGetIntrinsicDeclaration(ir->mod, LLVMLookupIntrinsicID(sname, sizeof sname - 1), mt, 2);
                sty = LLVMIntrinsicGetType(ir->ctx, LLVMLookupIntrinsicID(sname, sizeof sname - 1), mt, 2);
                for (l = 0; l < o.VL; l++)
                    mk[l] = LLVMConstInt(ir->i1, l < o.owb, 0);
                mkv = LLVMConstVector(mk, (unsigned)o.VL);
            }
            ybase = klv_add(ir, klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, o.M * o.OH)), oy),
                                        klv_i64(ir, o.OW)),
                            ox0);
            for (ob = 0; ob < o.ocr; ob++) { /* each oc block of the step */
                for (j = 0; j < o.VL; j++)
                    av[j] = j < o.owb ? LLVMBuildLoad2(b, vt, klv_gep(ir, vt, accp, klv_i64(ir, ob * o.owb + j)), "")
                                      : LLVMGetUndef(vt);
                for (st = 1; st < o.VL; st <<= 1) {
                    for (l = 0; l < o.VL; l++) {
                        m0[l] = LLVMConstInt(ir->i32, (unsigned)(l & st ? o.VL + (l ^ st) : l), 0);
                        m1[l] = LLVMConstInt(ir->i32, (unsigned)(l & st ? o.VL + l : l ^ st), 0);
                    }
                    sv0 = LLVMConstVector(m0, (unsigned)o.VL);
                    sv1 = LLVMConstVector(m1, (unsigned)o.VL);
                    for (j = 0; j < o.VL; j++)
                        if (!(j & st)) {
                            cv[j] = LLVMBuildShuffleVector(b, av[j], av[j ^ st], sv0, "");
                            cv[j ^ st] = LLVMBuildShuffleVector(b, av[j], av[j ^ st], sv1, "");
                        }
                    memcpy(av, cv, sizeof av[0] * (size_t)o.VL);
                }
                oc0 = klv_mul(ir, klv_add(ir, ocb, klv_i64(ir, ob)), klv_i64(ir, o.VL));
                for (l = 0; l < o.VL; l++) {
                    LLVMValueRef ocl = klv_add(ir, oc0, klv_i64(ir, l)), v, yp;
                    LLVMBasicBlockRef next;
                    if (pool) { /* row r's activated channel vector, to the stack */
                        LLVMBuildStore(b, klv_act_f32(ir, n, av[l]),
                                       klv_gep(ir, vt, rowbuf, klv_affine(ir, lr.iv, o.ocr * o.VL, ob * o.VL + l)));
                        continue;
                    }
                    next = lane_guard(ir, &o, l, ocl);
                    v = klv_act_f32(ir, n, av[l]);
                    yp = klv_gep(ir, ir->f32, y, klv_add(ir, ybase, klv_mul(ir, ocl, klv_i64(ir, o.OH * o.OW))));
                    if (sfn) {
                        LLVMValueRef a4[4];
                        a4[0] = v;
                        a4[1] = yp;
                        a4[2] = LLVMConstInt(ir->i32, 4, 0);
                        a4[3] = mkv;
                        LLVMBuildCall2(b, sty, sfn, a4, 4, "");
                    } else {
                        LLVMSetAlignment(LLVMBuildStore(b, v, yp), 4);
                    }
                    lane_guard_end(ir, next);
                }
            }
        } else
        /* out, written per lane unrolled: fastest where the output is large
         * against the work per pixel (few input taps, C * KH * KW small) */
        if (o.r.out == 1) {
            LLVMValueRef ybase = klv_add(
                ir, klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, o.M * o.OH)), oy),
                            klv_i64(ir, o.OW)),
                ox0);
            LLVMValueRef oc0 = klv_mul(ir, ocb, klv_i64(ir, o.VL));
            int l;
            for (l = 0; l < o.VL; l++) {
                LLVMValueRef ocl = klv_add(ir, oc0, klv_i64(ir, l)), mp = NULL, mn = NULL, sh = NULL;
                LLVMValueRef yrow = klv_gep(ir, yet, y,
                                            klv_add(ir, ybase, klv_mul(ir, ocl, klv_i64(ir, o.OH * o.OW))));
                LLVMBasicBlockRef next = lane_guard(ir, &o, l, ocl);
                if (q) {
                    mp = klv_load(ir, ir->i64, klv_arg(ir, arg_rq), ocl);
                    mn = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 1), ocl);
                    sh = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 2), ocl);
                }
                for (j = 0; j < o.owb; j++) {
                    LLVMValueRef av = LLVMBuildLoad2(b, vt, klv_gep(ir, vt, accp, klv_i64(ir, j)), "");
                    LLVMValueRef v = LLVMBuildExtractElement(b, av, LLVMConstInt(ir->i32, (unsigned)l, 0), "");
                    v = q ? klv_requant(ir, v, mp, mn, sh, o.lo, o.hi) : klv_act_f32(ir, n, v);
                    if (chain_arg)
                        v = klv_chain_apply(ir, g, n->out[0], chain_arg, nchain, v,
                                            klv_add(ir, klv_add(ir, ybase, klv_mul(ir, ocl, klv_i64(ir, o.OH * o.OW))), klv_i64(ir, j)));
                    klv_store(ir, yet, yrow, klv_i64(ir, j), v);
                }
                lane_guard_end(ir, next);
            }
        } else
        /* out: lane l of accumulator j is channel ocb*VL + l, pixel ox0 + j.
         * The accumulators go to a buffer on the stack, read back lane by
         * lane in a loop (one copy of the code per pixel, not per lane). */
        {
            LLVMValueRef ybase = klv_add(
                ir, klv_mul(ir, klv_add(ir, klv_mul(ir, nb, klv_i64(ir, o.M * o.OH)), oy),
                            klv_i64(ir, o.OW)),
                ox0);
            LLVMValueRef oc0 = klv_mul(ir, ocb, klv_i64(ir, o.VL));
            LLVMValueRef lanes = LLVMBuildSub(b, klv_i64(ir, o.M), oc0, ""), ocl, yrow;
            LLVMValueRef mp = NULL, mn = NULL, sh = NULL;
            KlvLoop ll;
            for (j = 0; j < o.owb; j++) {
                LLVMValueRef av = LLVMBuildLoad2(b, vt, klv_gep(ir, vt, accp, klv_i64(ir, j)), "");
                LLVMValueRef st = LLVMBuildStore(b, av, klv_gep(ir, lt, outp, klv_i64(ir, j * o.VL)));
                LLVMSetAlignment(st, 4);
            }
            lanes = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, lanes, klv_i64(ir, o.VL), ""),
                                    klv_i64(ir, o.VL), lanes, "");
            ll = klv_loop_begin(ir, klv_i64(ir, 0), lanes);
            ocl = klv_add(ir, oc0, ll.iv);
            yrow = klv_gep(ir, yet, y, klv_add(ir, ybase, klv_mul(ir, ocl, klv_i64(ir, o.OH * o.OW))));
            if (q) {
                mp = klv_load(ir, ir->i64, klv_arg(ir, arg_rq), ocl);
                mn = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 1), ocl);
                sh = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 2), ocl);
            }
            for (j = 0; j < o.owb; j++) {
                LLVMValueRef v = klv_load(ir, lt, outp, klv_add(ir, ll.iv, klv_i64(ir, j * o.VL)));
                v = q ? klv_requant(ir, v, mp, mn, sh, o.lo, o.hi) : klv_act_f32(ir, n, v);
                if (chain_arg)
                    v = klv_chain_apply(ir, g, n->out[0], chain_arg, nchain, v,
                                        klv_add(ir, klv_add(ir, ybase, klv_mul(ir, ocl, klv_i64(ir, o.OH * o.OW))), klv_i64(ir, j)));
                klv_store(ir, yet, yrow, klv_i64(ir, j), v);
            }
            klv_loop_end(ir, &ll);
        }
        if (after) {
            LLVMBuildBr(b, after);
            LLVMPositionBuilderAtEnd(b, after);
        }
        if (pool) {
            klv_loop_end(ir, &lr);
            emit_pool_out(ir, &o, y, rowbuf, nb, ocb, oy, ox0);
        }
    }
    klv_loop_end(ir, &lbx);
    if (icb) {
        klv_loop_end(ir, &lrow);
        klv_loop_end(ir, &lch);
    }
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = o.N * nsb * (icb ? 1 : rows);
    plan->work = o.OW * o.C * o.ksz * o.VL * o.ocr * (icb ? o.OH : pool ? 2 : 1);
    plan->threads = o.r.threads == 1 ? 1 : 0;
    plan->tunable = 1;
    plan->chained = pool ? 1 : chain_arg ? nchain : 0;
    return 1;
}
