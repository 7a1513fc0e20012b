/*
 * Kernels whose output extent depends on the input data: NonZero,
 * NonMaxSuppression and Compress.  Their output buffer is sized for the
 * most the inputs' static shapes allow (klv_bound_type); the kernel writes
 * the data-dependent extent into a one-element i64 table (KlvPlan.count)
 * and the output's elements as a tensor of that extent (row-major, so
 * NonZero's rows are count apart, not bound apart).  Each runs on one
 * thread: where an element goes depends on every element before it.
 */
#include <math.h>
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

/* NonMaxSuppression as gir_nms computes it, without the sort: per batch
 * the boxes' corners into a table, then per class the candidates (score
 * above the threshold) marked, and over and over the best marked one (the
 * highest score, ties to the lower index: gir_nms's sorted order) kept and
 * unmarked with every marked box whose IoU with it passes the threshold,
 * up to max_output_boxes_per_class.  Each pick is the first of the sorted
 * candidates that no kept box suppresses, so the kept boxes and their
 * order are gir_nms's. */
static int emit_nms(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                    KlvPlan *plan)
{
    const GirType *bt = &g->vals[n->in[0]].type, *st = &g->vals[n->in[1]].type;
    LLVMBuilderRef bl = ir->b;
    int64_t B, C, N;
    int center = gir_attr_int(n, "center_point_box", 0) != 0, carg, q;
    float *corners;
    unsigned char *mark;
    LLVMValueRef boxes, scores, y, cor, mk, maxo, iou, sthr, total, nk, best, bestv, sc;
    LLVMBasicBlockRef after;
    KlvLoop lb, lc, li, lpick;
    if (n->nin < 2 || bt->rank != 3 || st->rank != 3 || bt->dims[2] != 4 || bt->dtype != GIR_DT_F32 ||
        st->dtype != GIR_DT_F32 || bt->dims[0] != st->dims[0] || bt->dims[1] != st->dims[2])
        return 0;
    B = bt->dims[0];
    C = st->dims[1];
    N = bt->dims[1];
    corners = calloc((size_t)N * 4 + 1, sizeof *corners);
    mark = calloc((size_t)N + 1, 1);
    if (!corners || !mark) {
        free(corners);
        free(mark);
        return -1;
    }
    klv_plan_extra(plan, corners, (N * 4 + 1) * (int64_t)sizeof *corners, KLV_SCRATCH, 1);
    klv_plan_extra(plan, mark, N + 1, KLV_SCRATCH, 1);
    if ((carg = plan_count(plan, n)) < 0)
        return -1;
    klv_kernel_begin(ir, name);
    total = LLVMBuildAlloca(bl, ir->i64, "total");
    nk = LLVMBuildAlloca(bl, ir->i64, "nk");
    best = LLVMBuildAlloca(bl, ir->i64, "best");
    bestv = LLVMBuildAlloca(bl, ir->f32, "bestv");
    LLVMBuildStore(bl, klv_i64(ir, 0), total);
    boxes = klv_arg(ir, 0);
    scores = klv_arg(ir, 1);
    y = klv_arg(ir, n->nin);
    cor = klv_arg(ir, n->nin + 1);
    mk = klv_arg(ir, n->nin + 2);
    maxo = nms_param(ir, g, n, 2, ir->i64, klv_i64(ir, 0));
    maxo = LLVMBuildSelect(bl, LLVMBuildICmp(bl, LLVMIntSLT, maxo, klv_i64(ir, 0), ""), klv_i64(ir, 0), maxo, "");
    iou = nms_param(ir, g, n, 3, ir->f32, klv_f32c(ir, 0));
    sthr = nms_param(ir, g, n, 4, ir->f32, klv_f32c(ir, -INFINITY));

    lb = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, B));
    /* the corners of batch b's boxes: [y1, x1, y2, x2] as nms_corners */
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
    {
        LLVMValueRef v[4], o[4], base = klv_mul(ir, klv_add(ir, klv_mul(ir, lb.iv, klv_i64(ir, N)), li.iv), klv_i64(ir, 4));
        LLVMValueRef two = klv_f32c(ir, 2);
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
    }
    klv_loop_end(ir, &li);

    lc = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, C));
    sc = klv_gep(ir, ir->f32, scores, klv_mul(ir, klv_add(ir, klv_mul(ir, lb.iv, klv_i64(ir, C)), lc.iv), klv_i64(ir, N)));
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
    klv_store(ir, ir->i8, mk, li.iv,
              LLVMBuildZExt(bl, LLVMBuildFCmp(bl, LLVMRealOGT, klv_load(ir, ir->f32, sc, li.iv), sthr, ""), ir->i8, ""));
    klv_loop_end(ir, &li);
    LLVMBuildStore(bl, klv_i64(ir, 0), nk);
    /* at most max_out picks; each pick leaves when no box is marked */
    lpick = klv_loop_begin(ir, klv_i64(ir, 0), maxo);
    LLVMBuildStore(bl, klv_i64(ir, -1), best);
    LLVMBuildStore(bl, klv_f32c(ir, 0), bestv);
    li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
    {
        LLVMValueRef s = klv_load(ir, ir->f32, sc, li.iv), bi = LLVMBuildLoad2(bl, ir->i64, best, "");
        LLVMValueRef take = LLVMBuildAnd(
            bl, LLVMBuildICmp(bl, LLVMIntNE, klv_load(ir, ir->i8, mk, li.iv), LLVMConstInt(ir->i8, 0, 0), ""),
            LLVMBuildOr(bl, LLVMBuildICmp(bl, LLVMIntSLT, bi, klv_i64(ir, 0), ""),
                        LLVMBuildFCmp(bl, LLVMRealOGT, s, LLVMBuildLoad2(bl, ir->f32, bestv, ""), ""), ""),
            "");
        LLVMBuildStore(bl, LLVMBuildSelect(bl, take, li.iv, bi, ""), best);
        LLVMBuildStore(bl, LLVMBuildSelect(bl, take, s, LLVMBuildLoad2(bl, ir->f32, bestv, ""), ""), bestv);
    }
    klv_loop_end(ir, &li);
    {
        LLVMValueRef bi = LLVMBuildLoad2(bl, ir->i64, best, ""), t, kc[4];
        LLVMBasicBlockRef found = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "found");
        LLVMBuildCondBr(bl, LLVMBuildICmp(bl, LLVMIntSLT, bi, klv_i64(ir, 0), ""), lpick.exit, found);
        LLVMPositionBuilderAtEnd(bl, found);
        klv_store(ir, ir->i8, mk, bi, LLVMConstInt(ir->i8, 0, 0));
        t = LLVMBuildLoad2(bl, ir->i64, total, "");
        klv_store(ir, ir->i64, y, klv_affine(ir, t, 3, 0), lb.iv);
        klv_store(ir, ir->i64, y, klv_affine(ir, t, 3, 1), lc.iv);
        klv_store(ir, ir->i64, y, klv_affine(ir, t, 3, 2), bi);
        LLVMBuildStore(bl, klv_add(ir, t, klv_i64(ir, 1)), total);
        for (q = 0; q < 4; q++)
            kc[q] = klv_load(ir, ir->f32, cor, klv_affine(ir, bi, 4, q));
        /* unmark the marked boxes it suppresses (gir_nms: nms_iou(candidate, kept) > iou) */
        li = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, N));
        after = klv_if_begin(ir,
                             LLVMBuildICmp(bl, LLVMIntNE, klv_load(ir, ir->i8, mk, li.iv),
                                           LLVMConstInt(ir->i8, 0, 0), ""),
                             "then");
        {
            LLVMValueRef ci[4];
            for (q = 0; q < 4; q++)
                ci[q] = klv_load(ir, ir->f32, cor, klv_affine(ir, li.iv, 4, q));
            klv_store(ir, ir->i8, mk, li.iv,
                      LLVMBuildZExt(bl, LLVMBuildNot(bl, LLVMBuildFCmp(bl, LLVMRealOGT, nms_iou_ir(ir, ci, kc), iou, ""), ""),
                                    ir->i8, ""));
        }
        klv_if_end(ir, after);
        klv_loop_end(ir, &li);
    }
    klv_loop_end(ir, &lpick);
    klv_loop_end(ir, &lc);
    klv_loop_end(ir, &lb);
    LLVMBuildStore(bl, LLVMBuildLoad2(bl, ir->i64, total, ""), klv_arg(ir, carg));
    klv_kernel_end(ir);
    plan->range = 1;
    plan->work = B * C * N * 16;
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
