/*
 * Kernels whose output extent depends on the input data: NonZero,
 * NonMaxSuppression and Compress.  Their output buffer is sized for the
 * most the inputs' static shapes allow (klv_bound_type); the kernel writes
 * the data-dependent extent into a one-element i64 table (KlvPlan.count)
 * and the output's elements as a tensor of that extent (row-major, so
 * NonZero's rows are count apart, not bound apart).  Each runs on one
 * thread: where an element goes depends on every element before it.
 * NonMaxSuppression's (batch, class) pairs, independent, may run in
 * parallel first (emit_nms), each into tables of its own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

/* The one-element i64 count table of plan: its kernel argument index. */
static int plan_count(KlvPlan *plan, const GirNode *n)
{
    int64_t *cnt = calloc(1, sizeof *cnt);
    if (!cnt)
        return -1;
    klv_plan_extra(plan, cnt, sizeof *cnt, KLV_SCRATCH, 1);
    plan->count = plan->nextra;
    return n->nin + n->nout + plan->nextra - 1;
}

/* Compress's geometry over x: outer slices, the axis length and the
 * elements per axis entry (no axis attribute: x flat, one slice). */
static int compress_geo(const GirNode *n, const GirType *xt, int64_t *outer, int64_t *len,
                        int64_t *inner, int *axis)
{
    const GirAttr *axa = gir_attr(n, "axis");
    int64_t ax;
    if (!axa) {
        *outer = 1;
        *len = gir_type_numel(xt);
        *inner = 1;
        *axis = 0;
        return 1;
    }
    ax = axa->i < 0 ? axa->i + xt->rank : axa->i;
    if (ax < 0 || ax >= xt->rank)
        return 0;
    *outer = klv_dims_prod(xt->dims, 0, ax);
    *len = xt->dims[ax];
    *inner = klv_dims_prod(xt->dims, ax + 1, xt->rank);
    *axis = (int)ax;
    return 1;
}

/* The largest extent NonMaxSuppression keeps per class: N boxes, or a
 * constant max_output_boxes_per_class below it. */
static int64_t nms_per_class(const GirGraph *g, const GirNode *n, int64_t N)
{
    const GirValue *m;
    int64_t k;
    if (n->nin < 3 || n->in[2] < 0)
        return 0;
    m = &g->vals[n->in[2]];
    if (m->kind != GIR_VAL_CONST || !m->data || gir_type_numel(&m->type) != 1)
        return N;
    k = *(const int64_t *)m->data;
    return k < 0 ? 0 : k < N ? k : N;
}

int klv_bound_type(const GirGraph *g, int v, GirType *bt, int *axis)
{
    const GirValue *val = &g->vals[v];
    const GirNode *n;
    const GirType *xt;
    GirType t = val->type;
    if (val->kind != GIR_VAL_NODE || val->producer < 0 || t.rank < 0)
        return 0;
    n = &g->nodes[val->producer];
    if (n->nout != 1 || n->out[0] != v || n->nin < 1 || n->in[0] < 0)
        return 0;
    xt = &g->vals[n->in[0]].type;
    if (!gir_type_is_static(xt))
        return 0;
    switch (n->op) {
    case GIR_OP_NONZERO:
        if (t.rank != 2)
            return 0;
        t.dims[0] = xt->rank;
        t.dims[1] = gir_type_numel(xt);
        *axis = 1;
        break;
    case GIR_OP_NMS: {
        const GirType *st;
        if (t.rank != 2 || n->nin < 2 || n->in[1] < 0 || xt->rank != 3)
            return 0;
        st = &g->vals[n->in[1]].type;
        if (!gir_type_is_static(st) || st->rank != 3)
            return 0;
        t.dims[0] = xt->dims[0] * st->dims[1] * nms_per_class(g, n, xt->dims[1]);
        t.dims[1] = 3;
        *axis = 0;
        break;
    }
    case GIR_OP_COMPRESS: {
        int64_t outer, len, inner, L;
        int ax;
        if (n->nin != 2 || n->in[1] < 0 || !gir_type_is_static(&g->vals[n->in[1]].type) ||
            !compress_geo(n, xt, &outer, &len, &inner, &ax) || t.rank != (gir_attr(n, "axis") ? xt->rank : 1))
            return 0;
        L = g->vals[n->in[1]].type.dims[0];
        if (gir_attr(n, "axis")) {
            int d;
            for (d = 0; d < xt->rank; d++)
                t.dims[d] = xt->dims[d];
        }
        t.dims[ax] = L < len ? L : len;
        *axis = ax;
        break;
    }
    default:
        return 0;
    }
    *bt = t;
    return gir_type_bytes(bt) >= 0;
}

/* An i1: element i of x (dtype dt) is nonzero as eval_NONZERO reads it
 * (floats as doubles: NaN is nonzero, -0 is zero). */
static LLVMValueRef nonzero_at(KlvIr *ir, GirDType dt, LLVMValueRef x, LLVMValueRef i)
{
    if (klv_is_float_dt(dt))
        return LLVMBuildFCmp(ir->b, LLVMRealUNE, klv_load_f64(ir, dt, x, i),
                             LLVMConstReal(LLVMDoubleTypeInContext(ir->ctx), 0), "");
    {
        LLVMTypeRef et = klv_elem_type(ir, dt);
        return LLVMBuildICmp(ir->b, LLVMIntNE, klv_load(ir, et, x, i), LLVMConstInt(et, 0, 0), "");
    }
}

/* NonZero: count the nonzero elements, then write each one's coordinates
 * into row d of a [rank, count] tensor. */
static int emit_nonzero(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                        KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type;
    LLVMBuilderRef b = ir->b;
    int64_t cnt = gir_type_numel(xt), st[GIR_MAX_RANK];
    int r = xt->rank, d, carg;
    LLVMValueRef x, y, nz, k, total, cp;
    LLVMBasicBlockRef after;
    KlvLoop l;
    if (!klv_elem_type(ir, xt->dtype))
        return 0;
    if ((carg = plan_count(plan, n)) < 0)
        return -1;
    for (d = r - 1; d >= 0; d--)
        st[d] = d == r - 1 ? 1 : st[d + 1] * xt->dims[d + 1];
    klv_kernel_begin(ir, name);
    nz = LLVMBuildAlloca(b, ir->i64, "nz");
    k = LLVMBuildAlloca(b, ir->i64, "k");
    LLVMBuildStore(b, klv_i64(ir, 0), nz);
    LLVMBuildStore(b, klv_i64(ir, 0), k);
    x = klv_arg(ir, 0);
    y = klv_arg(ir, 1);
    cp = klv_arg(ir, carg);
    l = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, cnt));
    LLVMBuildStore(b, klv_add(ir, LLVMBuildLoad2(b, ir->i64, nz, ""),
                              LLVMBuildZExt(b, nonzero_at(ir, xt->dtype, x, l.iv), ir->i64, "")), nz);
    klv_loop_end(ir, &l);
    total = LLVMBuildLoad2(b, ir->i64, nz, "");
    LLVMBuildStore(b, total, cp);
    l = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, cnt));
    after = klv_if_begin(ir, nonzero_at(ir, xt->dtype, x, l.iv), "then");
    {
        LLVMValueRef at = LLVMBuildLoad2(b, ir->i64, k, "");
        for (d = 0; d < r; d++) {
            LLVMValueRef c = LLVMBuildSRem(b, LLVMBuildSDiv(b, l.iv, klv_i64(ir, st[d]), ""),
                                           klv_i64(ir, xt->dims[d]), "");
            klv_store(ir, ir->i64, y, klv_add(ir, klv_mul(ir, klv_i64(ir, d), total), at), c);
        }
        LLVMBuildStore(b, klv_add(ir, at, klv_i64(ir, 1)), k);
    }
    klv_if_end(ir, after);
    klv_loop_end(ir, &l);
    klv_kernel_end(ir);
    plan->range = 1;
    plan->work = cnt * (r + 2);
    plan->threads = 1;
    return 1;
}

/* Compress: for each outer slice, the axis entries whose condition is
 * true (entries past the condition's end are dropped), copied whole. */
static int emit_compress(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                         KlvPlan *plan)
{
    const GirType *xt = &g->vals[n->in[0]].type, *ct = &g->vals[n->in[1]].type;
    LLVMBuilderRef b = ir->b;
    int64_t outer, len, inner, L, es = (int64_t)gir_dtype_size(xt->dtype);
    int ax, carg;
    LLVMValueRef x, y, c, k, kept, row;
    LLVMBasicBlockRef after;
    KlvLoop lo, li;
    if (ct->rank != 1 || ct->dtype != GIR_DT_BOOL || es < 1 ||
        !compress_geo(n, xt, &outer, &len, &inner, &ax))
        return 0;
    L = ct->dims[0];
    if (L > len) /* the interpreter's shape rule refuses it: left to it */
        return 0;
    if ((carg = plan_count(plan, n)) < 0)
        return -1;
    klv_kernel_begin(ir, name);
    kept = LLVMBuildAlloca(b, ir->i64, "kept");
    k = LLVMBuildAlloca(b, ir->i64, "k");
    LLVMBuildStore(b, klv_i64(ir, 0), kept);
    LLVMBuildStore(b, klv_i64(ir, 0), k);
    x = klv_arg(ir, 0);
    c = klv_arg(ir, 1);
    y = klv_arg(ir, 2);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, L));
    LLVMBuildStore(b, klv_add(ir, LLVMBuildLoad2(b, ir->i64, kept, ""),
                              LLVMBuildZExt(b, nonzero_at(ir, GIR_DT_BOOL, c, li.iv), ir->i64, "")),
                   kept);
    klv_loop_end(ir, &li);
    LLVMBuildStore(b, LLVMBuildLoad2(b, ir->i64, kept, ""), klv_arg(ir, carg));
    lo = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, outer));
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, L));
    after = klv_if_begin(ir, nonzero_at(ir, GIR_DT_BOOL, c, li.iv), "then");
    row = LLVMBuildLoad2(b, ir->i64, k, "");
    LLVMBuildMemCpy(b, klv_gep(ir, ir->i8, y, klv_mul(ir, row, klv_i64(ir, inner * es))), 1,
                    klv_gep(ir, ir->i8, x,
                            klv_mul(ir, klv_add(ir, klv_mul(ir, lo.iv, klv_i64(ir, len)), li.iv),
                                    klv_i64(ir, inner * es))),
                    1, klv_i64(ir, inner * es));
    LLVMBuildStore(b, klv_add(ir, row, klv_i64(ir, 1)), k);
    klv_if_end(ir, after);
    klv_loop_end(ir, &li);
    klv_loop_end(ir, &lo);
    klv_kernel_end(ir);
    plan->range = 1;
    plan->work = outer * L * (inner + 2);
    plan->threads = 1;
    return 1;
}

/* a < b ? a : b and a > b ? a : b of floats, as C's conditional does them. */
static LLVMValueRef fmin_c(KlvIr *ir, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(ir->b, LLVMBuildFCmp(ir->b, LLVMRealOLT, a, b, ""), a, b, "");
}

static LLVMValueRef fmax_c(KlvIr *ir, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(ir->b, LLVMBuildFCmp(ir->b, LLVMRealOGT, a, b, ""), a, b, "");
}

/* nms_iou of graphir/oputil.c on boxes a and b, four corners each
 * ([y1, x1, y2, x2]), in f32 and in its order of operations. */
static LLVMValueRef nms_iou_ir(KlvIr *ir, const LLVMValueRef *a, const LLVMValueRef *c)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef zero = klv_f32c(ir, 0);
    LLVMValueRef h = LLVMBuildFSub(b, fmin_c(ir, a[2], c[2]), fmax_c(ir, a[0], c[0]), "");
    LLVMValueRef w = LLVMBuildFSub(b, fmin_c(ir, a[3], c[3]), fmax_c(ir, a[1], c[1]), "");
    LLVMValueRef inter = LLVMBuildFMul(b, h, w, "");
    LLVMValueRef ua = LLVMBuildFMul(b, LLVMBuildFSub(b, a[2], a[0], ""), LLVMBuildFSub(b, a[3], a[1], ""), "");
    LLVMValueRef uc = LLVMBuildFMul(b, LLVMBuildFSub(b, c[2], c[0], ""), LLVMBuildFSub(b, c[3], c[1], ""), "");
    LLVMValueRef uni = LLVMBuildFSub(b, LLVMBuildFAdd(b, ua, uc, ""), inter, "");
    LLVMValueRef v = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, uni, zero, ""),
                                     LLVMBuildFDiv(b, inter, uni, ""), zero, "");
    LLVMValueRef none = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOLE, h, zero, ""),
                                    LLVMBuildFCmp(b, LLVMRealOLE, w, zero, ""), "");
    return LLVMBuildSelect(b, none, zero, v, "");
}

/* A scalar input of NonMaxSuppression (input k, of type t), or def when
 * the node leaves it out or gives it empty. */
static LLVMValueRef nms_param(KlvIr *ir, const GirGraph *g, const GirNode *n, int k, LLVMTypeRef t,
                              LLVMValueRef def)
{
    if (n->nin <= k || n->in[k] < 0 || gir_type_numel(&g->vals[n->in[k]].type) == 0)
        return def;
    return klv_load(ir, t, klv_arg(ir, k), klv_i64(ir, 0));
}

/* The boxes' corners of batch bi into cor: [y1, x1, y2, x2] as nms_corners. */
static void emit_nms_corners(KlvIr *ir, LLVMValueRef boxes, LLVMValueRef bi, int64_t N,
                             int center, LLVMValueRef cor)
{
    LLVMBuilderRef bl = ir->b;
    KlvLoop li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
    LLVMValueRef v[4], o[4], base = klv_mul(ir, klv_add(ir, klv_mul(ir, bi, klv_i64(ir, N)), li.iv), klv_i64(ir, 4));
    LLVMValueRef two = klv_f32c(ir, 2);
    int q;
    for (q = 0; q < 4; q++)
        v[q] = klv_load(ir, ir->f32, boxes, klv_add(ir, base, klv_i64(ir, q)));
    if (center) {
        LLVMValueRef hh = LLVMBuildFDiv(bl, v[3], two, ""), hw = LLVMBuildFDiv(bl, v[2], two, "");
        o[0] = LLVMBuildFSub(bl, v[1], hh, "");
        o[2] = LLVMBuildFAdd(bl, v[1], hh, "");
        o[1] = LLVMBuildFSub(bl, v[0], hw, "");
        o[3] = LLVMBuildFAdd(bl, v[0], hw, "");
    } else {
        o[0] = fmin_c(ir, v[0], v[2]);
        o[2] = LLVMBuildSelect(bl, LLVMBuildFCmp(bl, LLVMRealOLT, v[0], v[2], ""), v[2], v[0], "");
        o[1] = fmin_c(ir, v[1], v[3]);
        o[3] = LLVMBuildSelect(bl, LLVMBuildFCmp(bl, LLVMRealOLT, v[1], v[3], ""), v[3], v[1], "");
    }
    for (q = 0; q < 4; q++)
        klv_store(ir, ir->f32, cor, klv_affine(ir, li.iv, 4, q), o[q]);
    klv_loop_end(ir, &li);
}

static LLVMValueRef imin_c(KlvIr *ir, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(ir->b, LLVMBuildICmp(ir->b, LLVMIntSLT, a, b, ""), a, b, "");
}

/* Sort the nc candidates (score ss[k], box index si[k], in index order)
 * by score, highest first, ties in index order: gir_nms's nms_order.  A
 * bottom-up merge sort, stable, of P passes (2^P >= N) between (ss, si)
 * and (ts, ti); each array holds N + 1 entries, so a merge reads its
 * exhausted side's next entry in bounds and takes the other.  The result
 * is in (ss, si) for P even, else in (ts, ti). */
static void emit_nms_sort(KlvIr *ir, LLVMValueRef nc, int P, LLVMValueRef ss, LLVMValueRef si,
                          LLVMValueRef ts, LLVMValueRef ti)
{
    LLVMBuilderRef bl = ir->b;
    LLVMValueRef pi = LLVMBuildAlloca(bl, ir->i64, "mi"), pj = LLVMBuildAlloca(bl, ir->i64, "mj");
    KlvLoop lp = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, P));
    LLVMValueRef even = LLVMBuildICmp(bl, LLVMIntEQ, LLVMBuildAnd(bl, lp.iv, klv_i64(ir, 1), ""), klv_i64(ir, 0), "");
    LLVMValueRef fs = LLVMBuildSelect(bl, even, ss, ts, ""), fi = LLVMBuildSelect(bl, even, si, ti, "");
    LLVMValueRef ds = LLVMBuildSelect(bl, even, ts, ss, ""), di = LLVMBuildSelect(bl, even, ti, si, "");
    LLVMValueRef w = LLVMBuildShl(bl, klv_i64(ir, 1), lp.iv, ""), w2 = LLVMBuildShl(bl, w, klv_i64(ir, 1), "");
    LLVMValueRef nblk = LLVMBuildUDiv(bl, LLVMBuildSub(bl, klv_add(ir, nc, w2), klv_i64(ir, 1), ""), w2, "");
    KlvLoop lk, lblk = klv_loop_begin(ir, klv_i64(ir, 0), nblk);
    LLVMValueRef lo = klv_mul(ir, lblk.iv, w2);
    LLVMValueRef mid = imin_c(ir, klv_add(ir, lo, w), nc), hi = imin_c(ir, klv_add(ir, lo, w2), nc);
    LLVMBuildStore(bl, lo, pi);
    LLVMBuildStore(bl, mid, pj);
    lk = klv_loop_begin(ir, lo, hi);
    {
        LLVMValueRef i = LLVMBuildLoad2(bl, ir->i64, pi, ""), j = LLVMBuildLoad2(bl, ir->i64, pj, "");
        LLVMValueRef sl = klv_load(ir, ir->f32, fs, i), sr = klv_load(ir, ir->f32, fs, j);
        LLVMValueRef il = klv_load(ir, ir->i64, fi, i), ir_ = klv_load(ir, ir->i64, fi, j);
        LLVMValueRef left = LLVMBuildAnd(
            bl, LLVMBuildICmp(bl, LLVMIntSLT, i, mid, ""),
            LLVMBuildOr(bl, LLVMBuildICmp(bl, LLVMIntSGE, j, hi, ""), LLVMBuildFCmp(bl, LLVMRealOGE, sl, sr, ""), ""),
            "");
        klv_store(ir, ir->f32, ds, lk.iv, LLVMBuildSelect(bl, left, sl, sr, ""));
        klv_store(ir, ir->i64, di, lk.iv, LLVMBuildSelect(bl, left, il, ir_, ""));
        LLVMBuildStore(bl, klv_add(ir, i, LLVMBuildZExt(bl, left, ir->i64, "")), pi);
        LLVMBuildStore(bl, klv_add(ir, j, LLVMBuildZExt(bl, LLVMBuildNot(bl, left, ""), ir->i64, "")), pj);
    }
    klv_loop_end(ir, &lk);
    klv_loop_end(ir, &lblk);
    klv_loop_end(ir, &lp);
}

/* NonMaxSuppression of one (batch, class) as gir_nms computes it: the
 * candidates of scores sc (N of them, score above sthr) in index order,
 * sorted by score (emit_nms_sort over P passes in ss, si, ts, ti), then
 * each in turn kept unless a box kept before it overlaps it by more than
 * iou (nms_iou(candidate, kept) on the batch's corners cor, the tests
 * stopping at the first such box), until maxo are kept.  The kept box
 * indices go into kept in that order, their count into the i64 slot nk;
 * nc (i64) and keep (i1) are slots of the entry block. */
static void emit_nms_class(KlvIr *ir, LLVMValueRef sc, int64_t N, int P, LLVMValueRef cor,
                           LLVMValueRef ss, LLVMValueRef si, LLVMValueRef ts, LLVMValueRef ti,
                           LLVMValueRef kept, LLVMValueRef nc, LLVMValueRef nk, LLVMValueRef keep,
                           LLVMValueRef maxo, LLVMValueRef iou, LLVMValueRef sthr)
{
    LLVMBuilderRef bl = ir->b;
    LLVMValueRef fi = P % 2 ? ti : si;
    LLVMBasicBlockRef after, inner;
    KlvLoop li, lq, lt;
    int q;
    /* the candidates, in index order (each stored, counted if it passes) */
    LLVMBuildStore(bl, klv_i64(ir, 0), nc);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
    {
        LLVMValueRef s = klv_load(ir, ir->f32, sc, li.iv), c = LLVMBuildLoad2(bl, ir->i64, nc, "");
        klv_store(ir, ir->f32, ss, c, s);
        klv_store(ir, ir->i64, si, c, li.iv);
        LLVMBuildStore(bl, klv_add(ir, c, LLVMBuildZExt(bl, LLVMBuildFCmp(bl, LLVMRealOGT, s, sthr, ""), ir->i64, "")), nc);
    }
    klv_loop_end(ir, &li);
    emit_nms_sort(ir, LLVMBuildLoad2(bl, ir->i64, nc, ""), P, ss, si, ts, ti);
    LLVMBuildStore(bl, klv_i64(ir, 0), nk);
    lq = klv_loop_begin(ir, klv_i64(ir, 0), LLVMBuildLoad2(bl, ir->i64, nc, ""));
    after = klv_if_begin(ir, LLVMBuildICmp(bl, LLVMIntSLT, LLVMBuildLoad2(bl, ir->i64, nk, ""), maxo, ""), "room");
    {
        LLVMValueRef cand = klv_load(ir, ir->i64, fi, lq.iv), ci[4];
        LLVMBasicBlockRef kept_bb;
        for (q = 0; q < 4; q++)
            ci[q] = klv_load(ir, ir->f32, cor, klv_affine(ir, cand, 4, q));
        LLVMBuildStore(bl, LLVMConstInt(ir->i1, 1, 0), keep);
        lt = klv_loop_begin(ir, klv_i64(ir, 0), LLVMBuildLoad2(bl, ir->i64, nk, ""));
        inner = klv_if_begin(ir, LLVMBuildLoad2(bl, ir->i1, keep, ""), "test");
        {
            LLVMValueRef kb = klv_load(ir, ir->i64, kept, lt.iv), kc[4];
            for (q = 0; q < 4; q++)
                kc[q] = klv_load(ir, ir->f32, cor, klv_affine(ir, kb, 4, q));
            LLVMBuildStore(bl, LLVMBuildNot(bl, LLVMBuildFCmp(bl, LLVMRealOGT, nms_iou_ir(ir, ci, kc), iou, ""), ""), keep);
        }
        klv_if_end(ir, inner);
        klv_loop_end(ir, &lt);
        kept_bb = klv_if_begin(ir, LLVMBuildLoad2(bl, ir->i1, keep, ""), "keep");
        {
            LLVMValueRef k0 = LLVMBuildLoad2(bl, ir->i64, nk, "");
            klv_store(ir, ir->i64, kept, k0, cand);
            LLVMBuildStore(bl, klv_add(ir, k0, klv_i64(ir, 1)), nk);
        }
        klv_if_end(ir, kept_bb);
    }
    klv_if_end(ir, after);
    klv_loop_end(ir, &lq);
}

/* Append the k (an i64) box indices kept of (batch bi, class ci) to the
 * [?, 3] output y after the total (an i64 slot) rows there, and add k to
 * the total. */
static void emit_nms_append(KlvIr *ir, LLVMValueRef y, LLVMValueRef total, LLVMValueRef bi,
                            LLVMValueRef ci, LLVMValueRef kept, LLVMValueRef k)
{
    LLVMValueRef t = LLVMBuildLoad2(ir->b, ir->i64, total, "");
    KlvLoop l = klv_loop_begin(ir, klv_i64(ir, 0), k);
    LLVMValueRef row = klv_add(ir, t, l.iv);
    klv_store(ir, ir->i64, y, klv_affine(ir, row, 3, 0), bi);
    klv_store(ir, ir->i64, y, klv_affine(ir, row, 3, 1), ci);
    klv_store(ir, ir->i64, y, klv_affine(ir, row, 3, 2), klv_load(ir, ir->i64, kept, l.iv));
    klv_loop_end(ir, &l);
    LLVMBuildStore(ir->b, klv_add(ir, t, k), total);
}

/* The scalar inputs of NonMaxSuppression, read at the kernel's start:
 * max output per class (negative: 0), IoU threshold, score threshold. */
static void nms_params(KlvIr *ir, const GirGraph *g, const GirNode *n, LLVMValueRef *maxo,
                       LLVMValueRef *iou, LLVMValueRef *sthr)
{
    LLVMBuilderRef bl = ir->b;
    *maxo = nms_param(ir, g, n, 2, ir->i64, klv_i64(ir, 0));
    *maxo = LLVMBuildSelect(bl, LLVMBuildICmp(bl, LLVMIntSLT, *maxo, klv_i64(ir, 0), ""), klv_i64(ir, 0), *maxo, "");
    *iou = nms_param(ir, g, n, 3, ir->f32, klv_f32c(ir, 0));
    *sthr = nms_param(ir, g, n, 4, ir->f32, klv_f32c(ir, -INFINITY));
}

/* Scratch bytes past which NonMaxSuppression's (batch, class) pairs are not
 * given tables of their own (they then run one after the other). */
#define NMS_PAR_BYTES ((int64_t)64 << 20)

/* NonMaxSuppression as gir_nms computes it: per batch the boxes' corners
 * into a table, per class emit_nms_class; the kept boxes and their order
 * are gir_nms's.  The (batch, class) pairs are independent: where there
 * are several and their tables fit in NMS_PAR_BYTES, kernel NAME_pre runs
 * them in parallel, one step each with tables of its own (corners, the
 * sort's, the kept indices and their count), and NAME, on one thread,
 * appends each pair's kept boxes in (batch, class) order.  Otherwise NAME
 * alone runs the pairs in that order on one thread. */
static int emit_nms(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                    KlvPlan *plan)
{
    const GirType *bt = &g->vals[n->in[0]].type, *st = &g->vals[n->in[1]].type;
    LLVMBuilderRef bl = ir->b;
    int64_t B, C, N, steps = 1, step_bytes = 0;
    int center = gir_attr_int(n, "center_point_box", 0) != 0, carg, P = 0, k, nt, par;
    void *buf[7];
    int64_t bytes[7], per[7];
    LLVMValueRef boxes, scores, y, t[7], total, nc, nk, keep, maxo, iou, sthr;
    char pre[64];
    KlvLoop lb, lc;
    if (n->nin < 2 || bt->rank != 3 || st->rank != 3 || bt->dims[2] != 4 || bt->dtype != GIR_DT_F32 ||
        st->dtype != GIR_DT_F32 || bt->dims[0] != st->dims[0] || bt->dims[1] != st->dims[2])
        return 0;
    B = bt->dims[0];
    C = st->dims[1];
    N = bt->dims[1];
    while (((int64_t)1 << P) < N)
        P++;
    /* per pair: corners, candidates' scores and indices twice (the sort's
     * two sides), the kept boxes' indices; each array holds N + 1 */
    per[0] = (N * 4 + 1) * (int64_t)sizeof(float);
    per[1] = per[3] = (N + 1) * (int64_t)sizeof(float);
    per[2] = per[4] = per[5] = (N + 1) * (int64_t)sizeof(int64_t);
    per[6] = (int64_t)sizeof(int64_t); /* the kept count */
    for (k = 0; k < 7; k++)
        step_bytes += per[k];
    par = B * C > 1 && B * C <= NMS_PAR_BYTES / step_bytes;
    if (par)
        steps = B * C;
    nt = par ? 7 : 6;
    for (k = 0; k < nt; k++)
        bytes[k] = per[k] * steps;
    for (k = 0; k < nt; k++)
        if (!(buf[k] = calloc((size_t)bytes[k], 1))) {
            while (k-- > 0)
                free(buf[k]);
            return -1;
        }
    for (k = 0; k < nt; k++)
        klv_plan_extra(plan, buf[k], bytes[k], KLV_SCRATCH, 1);
    if ((carg = plan_count(plan, n)) < 0)
        return -1;
    if (par) {
        /* NAME_pre: step s = (batch s / C, class s % C) */
        KlvLoop ls;
        LLVMValueRef bi, o[6];
        snprintf(pre, sizeof pre, "%s_pre", name);
        klv_kernel_begin(ir, pre);
        nc = LLVMBuildAlloca(bl, ir->i64, "nc");
        nk = LLVMBuildAlloca(bl, ir->i64, "nk");
        keep = LLVMBuildAlloca(bl, ir->i1, "keep");
        boxes = klv_arg(ir, 0);
        scores = klv_arg(ir, 1);
        for (k = 0; k < 7; k++)
            t[k] = klv_arg(ir, n->nin + 1 + k);
        nms_params(ir, g, n, &maxo, &iou, &sthr);
        ls = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
        bi = LLVMBuildSDiv(bl, ls.iv, klv_i64(ir, C), "");
        for (k = 0; k < 6; k++)
            o[k] = klv_gep(ir, ir->i8, t[k], klv_mul(ir, ls.iv, klv_i64(ir, per[k])));
        emit_nms_corners(ir, boxes, bi, N, center, o[0]);
        emit_nms_class(ir, klv_gep(ir, ir->f32, scores, klv_mul(ir, ls.iv, klv_i64(ir, N))), N, P,
                       o[0], o[1], o[2], o[3], o[4], o[5], nc, nk, keep, maxo, iou, sthr);
        klv_store(ir, ir->i64, t[6], ls.iv, LLVMBuildLoad2(bl, ir->i64, nk, ""));
        klv_loop_end(ir, &ls);
        klv_kernel_end(ir);
        /* NAME: the pairs' kept boxes appended in order */
        klv_kernel_begin(ir, name);
        total = LLVMBuildAlloca(bl, ir->i64, "total");
        LLVMBuildStore(bl, klv_i64(ir, 0), total);
        y = klv_arg(ir, n->nin);
        t[5] = klv_arg(ir, n->nin + 6);
        t[6] = klv_arg(ir, n->nin + 7);
        ls = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, B * C));
        emit_nms_append(ir, y, total, LLVMBuildSDiv(bl, ls.iv, klv_i64(ir, C), ""),
                        LLVMBuildSRem(bl, ls.iv, klv_i64(ir, C), ""),
                        klv_gep(ir, ir->i8, t[5], klv_mul(ir, ls.iv, klv_i64(ir, per[5]))),
                        klv_load(ir, ir->i64, t[6], ls.iv));
        klv_loop_end(ir, &ls);
        LLVMBuildStore(bl, LLVMBuildLoad2(bl, ir->i64, total, ""), klv_arg(ir, carg));
        klv_kernel_end(ir);
        plan->pre = 1;
        plan->pre_range = B * C;
        /* the sort, and the IoU tests: each candidate against up to the
         * most a class keeps */
        plan->pre_work = N * (P + 4 + nms_per_class(g, n, N) / 2);
        plan->range = 1;
        plan->work = B * C * (N + 1);
        plan->threads = 1;
        return 1;
    }
    klv_kernel_begin(ir, name);
    total = LLVMBuildAlloca(bl, ir->i64, "total");
    nc = LLVMBuildAlloca(bl, ir->i64, "nc");
    nk = LLVMBuildAlloca(bl, ir->i64, "nk");
    keep = LLVMBuildAlloca(bl, ir->i1, "keep");
    LLVMBuildStore(bl, klv_i64(ir, 0), total);
    boxes = klv_arg(ir, 0);
    scores = klv_arg(ir, 1);
    y = klv_arg(ir, n->nin);
    for (k = 0; k < 6; k++)
        t[k] = klv_arg(ir, n->nin + 1 + k);
    nms_params(ir, g, n, &maxo, &iou, &sthr);
    lb = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, B));
    emit_nms_corners(ir, boxes, lb.iv, N, center, t[0]);
    lc = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, C));
    emit_nms_class(ir, klv_gep(ir, ir->f32, scores, klv_mul(ir, klv_add(ir, klv_mul(ir, lb.iv, klv_i64(ir, C)), lc.iv), klv_i64(ir, N))),
                   N, P, t[0], t[1], t[2], t[3], t[4], t[5], nc, nk, keep, maxo, iou, sthr);
    emit_nms_append(ir, y, total, lb.iv, lc.iv, t[5], LLVMBuildLoad2(bl, ir->i64, nk, ""));
    klv_loop_end(ir, &lc);
    klv_loop_end(ir, &lb);
    LLVMBuildStore(bl, LLVMBuildLoad2(bl, ir->i64, total, ""), klv_arg(ir, carg));
    klv_kernel_end(ir);
    plan->range = 1;
    plan->work = B * C * N * (P + 4);
    plan->threads = 1;
    return 1;
}

int klv_emit_select(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                    KlvPlan *plan, GirError *e)
{
    int k;
    (void)e;
    if (!ir->count_ok || n->nout != 1 || n->out[0] < 0 || n->nin < 1)
        return 0;
    if (n->op != GIR_OP_NONZERO && n->op != GIR_OP_NMS && n->op != GIR_OP_COMPRESS)
        return 0;
    for (k = 0; k < n->nin; k++)
        if (n->in[k] >= 0 && !gir_type_is_static(&g->vals[n->in[k]].type))
            return 0;
    switch (n->op) {
    case GIR_OP_NONZERO: return emit_nonzero(ir, g, n, name, plan);
    case GIR_OP_NMS: return emit_nms(ir, g, n, name, plan);
    default: return emit_compress(ir, g, n, name, plan);
    }
}
