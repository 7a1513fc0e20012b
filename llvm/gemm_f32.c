/*
 * fp32 Gemm and MatMul, as eval_GEMM and eval_MATMUL of graphir/interp.c
 * compute them: per output element a dot product summed in double in k
 * order (each product of two f32 exact in double), for Gemm then times
 * alpha, plus beta times C (broadcast to [M, N]), rounded to f32 and the
 * fused activation applied; so the result is the interpreter's bit for bit.
 * One kernel step is one output element (batch b, row i, column j), so a
 * classifier head (M = 1) splits over its columns across threads.
 */
#include <string.h>

#include "internal.h"

typedef KlvGemmGeo GemmF32;

int klv_gemm_geo(const GirGraph *g, const GirNode *n, GirDType cdt, KlvGemmGeo *o)
{
    const GirType *at = &g->vals[n->in[0]].type, *bt = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    int ta = gir_attr_int(n, "transA", 0) != 0, tb = gir_attr_int(n, "transB", 0) != 0;
    if (at->rank != 2 || bt->rank != 2 || yt->rank != 2)
        return 0;
    o->batches = 1;
    o->M = yt->dims[0];
    o->N = yt->dims[1];
    o->K = at->dims[ta ? 0 : 1];
    if (at->dims[ta ? 1 : 0] != o->M || bt->dims[tb ? 1 : 0] != o->K || bt->dims[tb ? 0 : 1] != o->N)
        return 0;
    o->as_i = ta ? 1 : o->K;
    o->as_k = ta ? o->M : 1;
    o->bs_j = tb ? o->K : 1;
    o->bs_k = tb ? 1 : o->N;
    o->has_c = n->nin > 2 && n->in[2] >= 0;
    if (o->has_c) {
        const GirType *ct = &g->vals[n->in[2]].type;
        if (ct->dtype != cdt || ct->rank > 2)
            return 0;
        if (ct->rank == 2) {
            if ((ct->dims[0] != 1 && ct->dims[0] != o->M) || (ct->dims[1] != 1 && ct->dims[1] != o->N))
                return 0;
            o->cs_i = ct->dims[0] == 1 ? 0 : ct->dims[1];
            o->cs_j = ct->dims[1] == 1 ? 0 : 1;
        } else if (ct->rank == 1) {
            if (ct->dims[0] != 1 && ct->dims[0] != o->N)
                return 0;
            o->cs_j = ct->dims[0] == 1 ? 0 : 1;
        }
    }
    return 1;
}

/* MatMul: A [..., M, K] times a 2-D B [K, N] (every leading row of A a row
 * of the product), or A [..., M, K] times B [..., K, N] with the same batch
 * axes (no broadcasting). */
static int matmul_geo(const GirGraph *g, const GirNode *n, GemmF32 *o)
{
    const GirType *at = &g->vals[n->in[0]].type, *bt = &g->vals[n->in[1]].type;
    const GirType *yt = &g->vals[n->out[0]].type;
    int d;
    if (bt->rank < 2 || at->rank < 1 || n->nin != 2)
        return 0;
    o->K = bt->dims[bt->rank - 2];
    o->N = bt->dims[bt->rank - 1];
    if (at->dims[at->rank - 1] != o->K || o->K < 1 || o->N < 1)
        return 0;
    o->as_i = o->K;
    o->as_k = 1;
    o->bs_j = 1;
    o->bs_k = o->N;
    if (bt->rank == 2) {
        o->batches = 1;
        o->M = gir_type_numel(at) / o->K;
    } else {
        if (at->rank != bt->rank || yt->rank != at->rank)
            return 0;
        for (d = 0; d < at->rank - 2; d++)
            if (at->dims[d] != bt->dims[d] || yt->dims[d] != at->dims[d])
                return 0;
        o->M = at->dims[at->rank - 2];
        o->batches = gir_type_numel(at) / (o->M * o->K > 0 ? o->M * o->K : 1);
        o->sa = o->M * o->K;
        o->sb = o->K * o->N;
    }
    return gir_type_numel(yt) == o->batches * o->M * o->N;
}

int klv_emit_gemm_f32(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                      KlvPlan *plan, GirError *e)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef xa, xb, y, accp, mn, bi, r, iv_i, iv_j, arow, bcol, acc, v;
    GemmF32 o;
    KlvLoop lp, lk;
    int gemm = n->op == GIR_OP_GEMM;
    (void)e;
    if ((n->op != GIR_OP_GEMM && n->op != GIR_OP_MATMUL) || n->nout != 1 || n->nin < 2 ||
        gir_node_is_nhwc(n) || g->vals[n->in[0]].type.dtype != GIR_DT_F32 ||
        g->vals[n->in[1]].type.dtype != GIR_DT_F32 || g->vals[n->out[0]].type.dtype != GIR_DT_F32 ||
        !gir_type_is_static(&g->vals[n->in[0]].type) || !gir_type_is_static(&g->vals[n->in[1]].type))
        return 0;
    memset(&o, 0, sizeof o);
    if (!(gemm ? klv_gemm_geo(g, n, GIR_DT_F32, &o) : matmul_geo(g, n, &o)) || o.M < 1 || o.N < 1)
        return 0;

    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, d, "acc");
    xa = klv_arg(ir, 0);
    xb = klv_arg(ir, 1);
    y = klv_arg(ir, n->nin);
    mn = klv_i64(ir, o.M * o.N);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    bi = LLVMBuildSDiv(b, lp.iv, mn, "");
    r = LLVMBuildSRem(b, lp.iv, mn, "");
    iv_i = LLVMBuildSDiv(b, r, klv_i64(ir, o.N), "");
    iv_j = LLVMBuildSRem(b, r, klv_i64(ir, o.N), "");
    LLVMBuildStore(b, LLVMConstReal(d, 0), accp);
    arow = klv_add(ir, klv_mul(ir, bi, klv_i64(ir, o.sa)), klv_mul(ir, iv_i, klv_i64(ir, o.as_i)));
    bcol = klv_add(ir, klv_mul(ir, bi, klv_i64(ir, o.sb)), klv_mul(ir, iv_j, klv_i64(ir, o.bs_j)));
    arow = klv_gep(ir, ir->f32, xa, arow);
    bcol = klv_gep(ir, ir->f32, xb, bcol);
    lk = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o.K));
    {
        LLVMValueRef av = klv_load(ir, ir->f32, arow, klv_affine(ir, lk.iv, o.as_k, 0));
        LLVMValueRef bw = klv_load(ir, ir->f32, bcol, klv_affine(ir, lk.iv, o.bs_k, 0));
        LLVMValueRef p = LLVMBuildFMul(b, LLVMBuildFPExt(b, av, d, ""), LLVMBuildFPExt(b, bw, d, ""), "");
        LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, d, accp, ""), p, ""), accp);
    }
    klv_loop_end(ir, &lk);
    acc = LLVMBuildLoad2(b, d, accp, "");
    if (gemm) {
        acc = LLVMBuildFMul(b, acc, LLVMConstReal(d, (double)gir_attr_float(n, "alpha", 1.0f)), "");
        if (o.has_c) {
            LLVMValueRef c = klv_load(ir, ir->f32, klv_arg(ir, 2),
                                      klv_add(ir, klv_mul(ir, iv_i, klv_i64(ir, o.cs_i)),
                                              klv_mul(ir, iv_j, klv_i64(ir, o.cs_j))));
            LLVMValueRef beta = LLVMConstReal(d, (double)gir_attr_float(n, "beta", 1.0f));
            acc = LLVMBuildFAdd(b, acc, LLVMBuildFMul(b, beta, LLVMBuildFPExt(b, c, d, ""), ""), "");
        }
    }
    v = LLVMBuildFPTrunc(b, acc, ir->f32, "");
    if (gemm && gir_attr_string(n, "act", NULL))
        v = klv_act_f32(ir, n, v);
    klv_store(ir, ir->f32, y, lp.iv, v);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = o.batches * o.M * o.N;
    plan->work = o.K * 2 + 1;
    return 1;
}
