/*
 * int8 Gemm and MatMul of the int8 form (docs/quant.md): an i8 activation
 * A times i8 weights B, an optional i32 bias C (Gemm), per output column
 * requant.h's requantize (klv_requant) and the act_min / act_max clamp.
 * The same arithmetic as gemm_i8 and matmul_i8 of graphir/interp_int8.c:
 * integer sums are exact in any order, so the result is the interpreter's
 * bit for bit.
 * One kernel step is one output element (row i, column j): a dot product
 * over K with both operands contiguous (a constant B is packed transposed,
 * [N][K], at compile time), which LLVM's loop vectorizer turns into vector
 * multiply-adds.  A classifier head (M = 1, N classes) so splits over its
 * columns across threads.
 * With VNNI (KlvIr.vnni), a constant B and A contiguous along K, the
 * blocked kernel of emit_blocked_vnni instead (VL columns per vector, no
 * horizontal add).  Otherwise, with VNNI the dot product takes whole
 * vectors of K (64 bytes with AVX512-VNNI, 32 with the ymm form) through
 * vpdpbusd, as the int8 Conv does: A's bytes as a + 128 (unsigned, the
 * byte a ^ 0x80), B's as they are (signed), four products summed into
 * each i32 lane; the last K % width bytes of both in one more vector
 * through masked loads (llvm.masked.load: the other bytes 0, nothing read
 * past the row); the lanes are added, and a per-column constant -128 *
 * (the sum of B's column) taken off again.  All sums are modulo 2^32,
 * so the result is the interpreter's bit for bit.  A computed B, or an A
 * not contiguous along K (transA), is packed at run time by a _pre kernel
 * into scratch buffers of the same layouts (B's correction made there
 * too), so the VNNI loop is the same.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef KlvGemmGeo GemmGeo;

/* Gemm with an i32 bias; alpha = beta = 1 only (the quantizer folds
 * them). */
static int gemm_geo(const GirGraph *g, const GirNode *n, GemmGeo *o)
{
    return gir_attr_float(n, "alpha", 1.0f) == 1.0f && gir_attr_float(n, "beta", 1.0f) == 1.0f &&
           klv_gemm_geo(g, n, GIR_DT_I32, o);
}

/* MatMul: A [..., M, K] (every leading row a row of the product) times a
 * 2-D B [K, N]. */
static int matmul_geo(const GirGraph *g, const GirNode *n, GemmGeo *o)
{
    const GirType *at = &g->vals[n->in[0]].type, *bt = &g->vals[n->in[1]].type;
    int64_t numel = gir_type_numel(at);
    if (bt->rank != 2 || at->rank < 1 || n->nin != 2)
        return 0;
    o->K = bt->dims[0];
    o->N = bt->dims[1];
    if (at->dims[at->rank - 1] != o->K || o->K < 1)
        return 0;
    o->M = numel / o->K;
    if (gir_type_numel(&g->vals[n->out[0]].type) != o->M * o->N)
        return 0;
    o->as_i = o->K;
    o->as_k = 1;
    o->bs_j = 1;
    o->bs_k = o->N;
    return 1;
}

void klv_vnni_pack(int8_t *dst, const int8_t *src, int64_t bs_j, int64_t bs_k, int64_t K,
                   int64_t N, int vl, int flip)
{
    int64_t G4 = (K + 3) / 4, j, kk;
    for (j = 0; j < N; j++)
        for (kk = 0; kk < K; kk++)
            dst[((j / vl * G4 + kk / 4) * vl + j % vl) * 4 + kk % 4] =
                (int8_t)(src[j * bs_j + kk * bs_k] ^ flip);
}

void klv_vnni_rows(KlvIr *ir, LLVMValueRef dp, LLVMTypeRef dpty, int vl, int64_t K,
                   const LLVMValueRef *arow, int rb, LLVMValueRef bblk, LLVMValueRef accp,
                   unsigned flip)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef vt = LLVMVectorType(ir->i32, (unsigned)vl), bvt = LLVMVectorType(ir->i8, (unsigned)(vl * 4));
    LLVMValueRef wv, a3[3], v;
    int64_t kt = K / 4, kk;
    int r;
    KlvLoop lk;
    /* whole words of K */
    if (kt > 0) {
        lk = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, kt));
        wv = LLVMBuildLoad2(b, bvt, klv_gep(ir, ir->i8, bblk, klv_mul(ir, lk.iv, klv_i64(ir, vl * 4))), "");
        LLVMSetAlignment(wv, 1);
        wv = LLVMBuildBitCast(b, wv, vt, "");
        for (r = 0; r < rb; r++) {
            LLVMValueRef aw = LLVMBuildLoad2(b, ir->i32, klv_gep(ir, ir->i8, arow[r], klv_mul(ir, lk.iv, klv_i64(ir, 4))), "");
            LLVMValueRef ap = klv_gep(ir, vt, accp, klv_i64(ir, r));
            LLVMSetAlignment(aw, 1);
            if (flip)
                aw = LLVMBuildXor(b, aw, LLVMConstInt(ir->i32, flip * 0x01010101u, 0), "");
            a3[0] = LLVMBuildLoad2(b, vt, ap, "");
            a3[1] = klv_splat(ir, aw, vl);
            a3[2] = wv;
            LLVMBuildStore(b, LLVMBuildCall2(b, dpty, dp, a3, 3, ""), ap);
        }
        klv_loop_end(ir, &lk);
    }
    /* the last K % 4 bytes: a word of A's bytes ^ flip (the rest 0; B's are 0) */
    if (K % 4) {
        wv = LLVMBuildLoad2(b, bvt, klv_gep(ir, ir->i8, bblk, klv_i64(ir, kt * vl * 4)), "");
        LLVMSetAlignment(wv, 1);
        wv = LLVMBuildBitCast(b, wv, vt, "");
        for (r = 0; r < rb; r++) {
            LLVMValueRef aw = LLVMConstInt(ir->i32, 0, 0), ap = klv_gep(ir, vt, accp, klv_i64(ir, r));
            for (kk = 0; kk < K % 4; kk++) {
                v = klv_load(ir, ir->i8, arow[r], klv_i64(ir, kt * 4 + kk));
                if (flip)
                    v = LLVMBuildXor(b, v, LLVMConstInt(ir->i8, flip, 0), "");
                v = LLVMBuildZExt(b, v, ir->i32, "");
                aw = LLVMBuildOr(b, aw, LLVMBuildShl(b, v, LLVMConstInt(ir->i32, (unsigned long long)(8 * kk), 0), ""), "");
            }
            a3[0] = LLVMBuildLoad2(b, vt, ap, "");
            a3[1] = klv_splat(ir, aw, vl);
            a3[2] = wv;
            LLVMBuildStore(b, LLVMBuildCall2(b, dpty, dp, a3, 3, ""), ap);
        }
    }
}

/* The VNNI form for a constant B and an A contiguous along K: B packed at
 * compile time by klv_vnni_pack, so one vector holds 4 bytes of K for VL
 * columns; a step is KLV_VNNI_ROWS rows of A (the last block moved back to
 * end at M) and VL columns (klv_vnni_rows): per 4 bytes of K, A's word of
 * each row (x + 128: the word ^ 0x80808080) broadcast, one vpdpbusd per
 * row into VL lanes, no horizontal add.  The accumulators start at -128 * (the sum
 * of each column); per lane the bias C, requantize and clamp on the way
 * out.  A's last K % 4 bytes come as bytes (nothing read past the row). */
static int emit_blocked_vnni(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                             KlvPlan *plan, const GemmGeo *o, int vl, int lo, int hi)
{
    static const char *rq[3] = {"rq_m_pos", "rq_m_neg", "rq_shift"};
    const int8_t *src = g->vals[n->in[1]].data;
    int64_t K4 = (o->K + 3) / 4 * 4, nJ = (o->N + vl - 1) / vl, G4 = K4 / 4, j, kk, r;
    int64_t rb = o->M < KLV_VNNI_ROWS ? o->M : KLV_VNNI_ROWS, nI = (o->M + rb - 1) / rb;
    int8_t *bp = klv_table_alloc((size_t)(nJ * vl * K4)), *col = malloc((size_t)o->K + 1);
    int32_t *corr = calloc((size_t)(nJ * vl), 4);
    int arg_bp = n->nin + 1, arg_c = n->nin + 2, arg_rq = n->nin + 3, cnt, l;
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef vt = LLVMVectorType(ir->i32, (unsigned)vl), dpty;
    LLVMValueRef dp, accp, outp, i0, jb, arow[KLV_VNNI_ROWS], bblk, lanes, mp, mn, sh, v;
    KlvLoop lp, ll;
    if (!bp || !col || !corr) {
        free(bp);
        free(col);
        free(corr);
        return 0;
    }
    klv_vnni_pack(bp, src, o->bs_j, o->bs_k, o->K, o->N, vl, 0);
    for (j = 0; j < o->N; j++) {
        for (kk = 0; kk < o->K; kk++)
            col[kk] = src[j * o->bs_j + kk * o->bs_k];
        corr[j] = klv_vnni_bias(0, col, o->K);
    }
    free(col);
    klv_plan_extra(plan, bp, nJ * vl * K4, KLV_TABLE, 1);
    klv_plan_extra(plan, corr, nJ * vl * 4, KLV_TABLE, 1);
    for (l = 0; l < 3; l++)
        klv_plan_extra(plan, (void *)gir_attr_ints(n, rq[l], &cnt), o->N * 8, KLV_TABLE, 0);
    dp = klv_vpdpbusd(ir, vl, &dpty);

    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, LLVMArrayType(vt, KLV_VNNI_ROWS), "acc");
    outp = LLVMBuildAlloca(b, LLVMArrayType(ir->i32, (unsigned)(KLV_VNNI_ROWS * vl)), "out");
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    jb = LLVMBuildSRem(b, lp.iv, klv_i64(ir, nJ), "");
    i0 = klv_mul(ir, LLVMBuildSDiv(b, lp.iv, klv_i64(ir, nJ), ""), klv_i64(ir, rb));
    i0 = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, i0, klv_i64(ir, o->M - rb), ""),
                         klv_i64(ir, o->M - rb), i0, "");
    bblk = klv_gep(ir, ir->i8, klv_arg(ir, arg_bp), klv_mul(ir, jb, klv_i64(ir, G4 * vl * 4)));
    {
        LLVMValueRef c0 = LLVMBuildLoad2(b, vt, klv_gep(ir, ir->i32, klv_arg(ir, arg_c), klv_mul(ir, jb, klv_i64(ir, vl))), "");
        LLVMSetAlignment(c0, 4);
        for (r = 0; r < rb; r++) {
            arow[r] = klv_gep(ir, ir->i8, klv_arg(ir, 0), klv_mul(ir, klv_add(ir, i0, klv_i64(ir, r)), klv_i64(ir, o->as_i)));
            LLVMBuildStore(b, c0, klv_gep(ir, vt, accp, klv_i64(ir, r)));
        }
    }
    /* A's bytes + 128: the byte ^ 0x80 */
    klv_vnni_rows(ir, dp, dpty, vl, o->K, arow, (int)rb, bblk, accp, 0x80);
    for (r = 0; r < rb; r++) {
        LLVMValueRef st = LLVMBuildStore(b, LLVMBuildLoad2(b, vt, klv_gep(ir, vt, accp, klv_i64(ir, r)), ""),
                                         klv_gep(ir, ir->i32, outp, klv_i64(ir, r * vl)));
        LLVMSetAlignment(st, 4);
    }
    /* out: lane l of row r is column jb * VL + l of row i0 + r */
    lanes = LLVMBuildSub(b, klv_i64(ir, o->N), klv_mul(ir, jb, klv_i64(ir, vl)), "");
    lanes = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, lanes, klv_i64(ir, vl), ""), klv_i64(ir, vl), lanes, "");
    ll = klv_loop_begin(ir, klv_i64(ir, 0), lanes);
    {
        LLVMValueRef jj = klv_add(ir, klv_mul(ir, jb, klv_i64(ir, vl)), ll.iv);
        mp = klv_load(ir, ir->i64, klv_arg(ir, arg_rq), jj);
        mn = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 1), jj);
        sh = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 2), jj);
        for (r = 0; r < rb; r++) {
            LLVMValueRef ii = klv_add(ir, i0, klv_i64(ir, r));
            v = klv_load(ir, ir->i32, outp, klv_add(ir, ll.iv, klv_i64(ir, r * vl)));
            if (o->has_c)
                v = LLVMBuildAdd(b, v, klv_load(ir, ir->i32, klv_arg(ir, 2),
                                                klv_add(ir, klv_mul(ir, ii, klv_i64(ir, o->cs_i)),
                                                        klv_mul(ir, jj, klv_i64(ir, o->cs_j)))), "");
            klv_store(ir, ir->i8, klv_arg(ir, n->nin), klv_add(ir, klv_mul(ir, ii, klv_i64(ir, o->N)), jj),
                      klv_requant(ir, v, mp, mn, sh, lo, hi));
        }
    }
    klv_loop_end(ir, &ll);
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = nI * nJ;
    plan->work = rb * vl * (G4 + 1);
    return 1;
}

int klv_emit_gemm_i8(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                     KlvPlan *plan, GirError *e)
{
    static const char *rq[3] = {"rq_m_pos", "rq_m_neg", "rq_shift"};
    const GirValue *bv;
    GemmGeo o;
    int k, cnt, lo, hi, arg_b, arg_rq, vb, pack_a, pack_b;
    int64_t kv, ke, ob_j, ob_k, oa_i, oa_k;
    const int64_t *a;
    LLVMBuilderRef b = ir->b;
    LLVMValueRef xa, xb, y, accp, iv_i, iv_j, arow, bcol, acc, mp, mn, sh;
    KlvLoop lp, lk;
    (void)e;
    if ((n->op != GIR_OP_GEMM && n->op != GIR_OP_MATMUL) || n->nout != 1 || n->nin < 2 ||
        gir_node_is_nhwc(n) || g->vals[n->in[0]].type.dtype != GIR_DT_I8 ||
        g->vals[n->in[1]].type.dtype != GIR_DT_I8 || g->vals[n->out[0]].type.dtype != GIR_DT_I8 ||
        !gir_type_is_static(&g->vals[n->in[0]].type) || !gir_type_is_static(&g->vals[n->in[1]].type))
        return 0;
    memset(&o, 0, sizeof o);
    if (!(n->op == GIR_OP_GEMM ? gemm_geo(g, n, &o) : matmul_geo(g, n, &o)))
        return 0;
    for (k = 0; k < 3; k++)
        if (!(a = gir_attr_ints(n, rq[k], &cnt)) || cnt != o.N)
            return 0;
    lo = (a = gir_attr_ints(n, "act_min", &cnt)) && cnt == 1 ? (int)a[0] : -128;
    hi = (a = gir_attr_ints(n, "act_max", &cnt)) && cnt == 1 ? (int)a[0] : 127;

    /* VNNI: vb bytes of K per vpdpbusd */
    vb = (ir->vnni & KLV_VNNI_512) ? 64 : (ir->vnni & KLV_VNNI_256) ? 32 : 0;
    if (vb && g->vals[n->in[1]].kind == GIR_VAL_CONST && o.as_k == 1)
        return emit_blocked_vnni(ir, g, n, name, plan, &o, vb / 4, lo, hi);
    if (o.K < vb)
        vb = 0;
    /* extras: [packed B], m_pos, m_neg, shift, [VNNI correction], [packed A] */
    bv = &g->vals[n->in[1]];
    pack_b = vb && bv->kind != GIR_VAL_CONST;
    pack_a = vb && o.as_k != 1;
    ob_j = o.bs_j, ob_k = o.bs_k, oa_i = o.as_i, oa_k = o.as_k;
    o.packed = bv->kind == GIR_VAL_CONST || pack_b;
    arg_b = 1;
    if (pack_b) {
        void *bt = calloc(1, (size_t)(o.N * o.K) + 1);
        if (!bt)
            return 0;
        arg_b = n->nin + 1;
        klv_plan_extra(plan, bt, o.N * o.K, KLV_SCRATCH, 1);
        o.bs_j = o.K;
        o.bs_k = 1;
    } else if (o.packed) {
        int8_t *bt = malloc((size_t)(o.N * o.K) + 1);
        const int8_t *src = bv->data;
        int64_t j, kk;
        if (!bt)
            return 0;
        for (j = 0; j < o.N; j++)
            for (kk = 0; kk < o.K; kk++)
                bt[j * o.K + kk] = src[j * o.bs_j + kk * o.bs_k];
        arg_b = n->nin + 1;
        klv_plan_extra(plan, bt, o.N * o.K, KLV_TABLE, 1);
        o.bs_j = o.K;
        o.bs_k = 1;
    }
    arg_rq = n->nin + 1 + o.packed;
    for (k = 0; k < 3; k++) {
        a = gir_attr_ints(n, rq[k], &cnt);
        klv_plan_extra(plan, (void *)a, (int64_t)cnt * 8, KLV_TABLE, 0);
    }
    /* the first kv of K in whole vectors, the rest up to ke (all of K with
     * VNNI) in one vector of which only the first K - kv bytes are loaded */
    kv = vb ? o.K / vb * vb : 0;
    ke = vb ? o.K : 0;
    if (pack_b) {
        int32_t *corr = calloc(1, sizeof *corr * (size_t)o.N + 1);
        if (!corr)
            return 0;
        klv_plan_extra(plan, corr, o.N * 4, KLV_SCRATCH, 1);
    } else if (vb) {
        int32_t *corr = malloc(sizeof *corr * (size_t)o.N + 1);
        const int8_t *bt = plan->extra[0];
        int64_t j;
        if (!corr)
            return 0;
        for (j = 0; j < o.N; j++)
            corr[j] = klv_vnni_bias(0, bt + j * o.K, ke);
        klv_plan_extra(plan, corr, o.N * 4, KLV_TABLE, 1);
    }

    if (pack_a) {
        void *at = calloc(1, (size_t)(o.M * o.K) + 1);
        if (!at)
            return 0;
        klv_plan_extra(plan, at, o.M * o.K, KLV_SCRATCH, 1);
        o.as_i = o.K;
        o.as_k = 1;
    }
    if (pack_b || pack_a) {
        /* the _pre kernel: step r < nb packs B's column r as [N][K] and
         * makes its correction; the others pack A's row r - nb as [M][K] */
        char pre[48];
        int64_t nb = pack_b ? o.N : 0;
        LLVMValueRef ri, src, dst, v, sum;
        LLVMBasicBlockRef tb, ta, done;
        KlvLoop lr, lq;
        snprintf(pre, sizeof pre, "%s_pre", name);
        klv_kernel_begin(ir, pre);
        tb = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "packb");
        ta = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "packa");
        done = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "packed");
        sum = LLVMBuildAlloca(b, ir->i32, "bsum");
        lr = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, lr.iv, klv_i64(ir, nb), ""), tb, ta);
        LLVMPositionBuilderAtEnd(b, tb);
        if (pack_b) {
            LLVMBuildStore(b, LLVMConstInt(ir->i32, 0, 0), sum);
            src = klv_gep(ir, ir->i8, klv_arg(ir, 1), klv_mul(ir, lr.iv, klv_i64(ir, ob_j)));
            dst = klv_gep(ir, ir->i8, klv_arg(ir, n->nin + 1), klv_mul(ir, lr.iv, klv_i64(ir, o.K)));
            lq = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o.K));
            v = klv_load(ir, ir->i8, src, klv_mul(ir, lq.iv, klv_i64(ir, ob_k)));
            klv_store(ir, ir->i8, dst, lq.iv, v);
            v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, lq.iv, klv_i64(ir, ke), ""),
                                LLVMBuildSExt(b, v, ir->i32, ""), LLVMConstInt(ir->i32, 0, 0), "");
            LLVMBuildStore(b, LLVMBuildAdd(b, LLVMBuildLoad2(b, ir->i32, sum, ""), v, ""), sum);
            klv_loop_end(ir, &lq);
            /* -128 * sum, modulo 2^32 */
            klv_store(ir, ir->i32, klv_arg(ir, arg_rq + 3), lr.iv,
                      LLVMBuildMul(b, LLVMBuildLoad2(b, ir->i32, sum, ""), LLVMConstInt(ir->i32, (unsigned long long)-128, 1), ""));
        }
        LLVMBuildBr(b, done);
        LLVMPositionBuilderAtEnd(b, ta);
        if (pack_a) {
            ri = LLVMBuildSub(b, lr.iv, klv_i64(ir, nb), "");
            src = klv_gep(ir, ir->i8, klv_arg(ir, 0), klv_mul(ir, ri, klv_i64(ir, oa_i)));
            dst = klv_gep(ir, ir->i8, klv_arg(ir, arg_rq + 4), klv_mul(ir, ri, klv_i64(ir, o.K)));
            lq = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, o.K));
            klv_store(ir, ir->i8, dst, lq.iv, klv_load(ir, ir->i8, src, klv_mul(ir, lq.iv, klv_i64(ir, oa_k))));
            klv_loop_end(ir, &lq);
        }
        LLVMBuildBr(b, done);
        LLVMPositionBuilderAtEnd(b, done);
        klv_loop_end(ir, &lr);
        klv_kernel_end(ir);
        plan->pre = 1;
        plan->pre_range = nb + (pack_a ? o.M : 0);
        plan->pre_work = o.K;
    }

    klv_kernel_begin(ir, name);
    accp = LLVMBuildAlloca(b, ir->i32, "acc");
    xa = klv_arg(ir, pack_a ? arg_rq + 4 : 0);
    xb = klv_arg(ir, arg_b);
    y = klv_arg(ir, n->nin);
    lp = klv_loop_begin(ir, klv_lo(ir), klv_hi(ir));
    iv_i = LLVMBuildSDiv(b, lp.iv, klv_i64(ir, o.N), "");
    iv_j = LLVMBuildSRem(b, lp.iv, klv_i64(ir, o.N), "");
    acc = LLVMConstInt(ir->i32, 0, 0);
    if (o.has_c)
        acc = klv_load(ir, ir->i32, klv_arg(ir, 2),
                       klv_add(ir, klv_mul(ir, iv_i, klv_i64(ir, o.cs_i)),
                               klv_mul(ir, iv_j, klv_i64(ir, o.cs_j))));
    LLVMBuildStore(b, acc, accp);
    arow = klv_gep(ir, ir->i8, xa, klv_mul(ir, iv_i, klv_i64(ir, o.as_i)));
    bcol = klv_gep(ir, ir->i8, xb, klv_mul(ir, iv_j, klv_i64(ir, o.bs_j)));
    if (vb) {
        /* the whole vectors of K through vpdpbusd, then the lanes added and
         * the column's correction */
        static const char rname[] = "llvm.vector.reduce.add";
        LLVMTypeRef dpty;
        LLVMValueRef dp = klv_vpdpbusd(ir, vb / 4, &dpty);
        LLVMTypeRef vt = LLVMVectorType(ir->i32, (unsigned)(vb / 4));
        LLVMTypeRef bvt = LLVMVectorType(ir->i8, (unsigned)vb);
        unsigned rid = LLVMLookupIntrinsicID(rname, sizeof rname - 1);
        LLVMValueRef rd = LLVMGetIntrinsicDeclaration(ir->mod, rid, &vt, 1);
        LLVMTypeRef rdty = LLVMIntrinsicGetType(ir->ctx, rid, &vt, 1);
        LLVMValueRef vaccp = LLVMBuildAlloca(b, vt, "vacc"), args3[3], av, bw, sum;
        KlvLoop lv;
        LLVMBuildStore(b, LLVMConstNull(vt), vaccp);
        lv = klv_loop_begin(ir, klv_i64(ir, 0), klv_i64(ir, kv / vb));
        av = LLVMBuildLoad2(b, bvt, klv_gep(ir, ir->i8, arow, klv_mul(ir, lv.iv, klv_i64(ir, vb))), "");
        LLVMSetAlignment(av, 1);
        av = LLVMBuildXor(b, av, klv_splat(ir, LLVMConstInt(ir->i8, 0x80, 0), vb), "");
        bw = LLVMBuildLoad2(b, bvt, klv_gep(ir, ir->i8, bcol, klv_mul(ir, lv.iv, klv_i64(ir, vb))), "");
        LLVMSetAlignment(bw, 1);
        args3[0] = LLVMBuildLoad2(b, vt, vaccp, "");
        args3[1] = LLVMBuildBitCast(b, av, vt, "");
        args3[2] = LLVMBuildBitCast(b, bw, vt, "");
        LLVMBuildStore(b, LLVMBuildCall2(b, dpty, dp, args3, 3, ""), vaccp);
        klv_loop_end(ir, &lv);
        if (o.K > kv) {
            /* the last K - kv bytes of A's row and B's column as masked
             * loads (nothing read past them): the other lanes' bytes, 0 in
             * both, add 128 * 0 */
            static const char mname[] = "llvm.masked.load";
            LLVMTypeRef mt[2], mty;
            LLVMValueRef mask[64], ml, a4[4];
            unsigned mid = LLVMLookupIntrinsicID(mname, sizeof mname - 1);
            int l;
            mt[0] = bvt;
            mt[1] = ir->ptr;
            ml = LLVMGetIntrinsicDeclaration(ir->mod, mid, mt, 2);
            mty = LLVMIntrinsicGetType(ir->ctx, mid, mt, 2);
            for (l = 0; l < vb; l++)
                mask[l] = LLVMConstInt(ir->i1, l < o.K - kv, 0);
            a4[1] = LLVMConstInt(ir->i32, 1, 0);
            a4[2] = LLVMConstVector(mask, (unsigned)vb);
            a4[3] = LLVMConstNull(bvt);
            a4[0] = klv_gep(ir, ir->i8, arow, klv_i64(ir, kv));
            av = LLVMBuildCall2(b, mty, ml, a4, 4, "");
            av = LLVMBuildXor(b, av, klv_splat(ir, LLVMConstInt(ir->i8, 0x80, 0), vb), "");
            a4[0] = klv_gep(ir, ir->i8, bcol, klv_i64(ir, kv));
            bw = LLVMBuildCall2(b, mty, ml, a4, 4, "");
            args3[0] = LLVMBuildLoad2(b, vt, vaccp, "");
            args3[1] = LLVMBuildBitCast(b, av, vt, "");
            args3[2] = LLVMBuildBitCast(b, bw, vt, "");
            LLVMBuildStore(b, LLVMBuildCall2(b, dpty, dp, args3, 3, ""), vaccp);
        }
        args3[0] = LLVMBuildLoad2(b, vt, vaccp, "");
        sum = LLVMBuildCall2(b, rdty, rd, args3, 1, "");
        sum = LLVMBuildAdd(b, sum, klv_load(ir, ir->i32, klv_arg(ir, arg_rq + 3), iv_j), "");
        LLVMBuildStore(b, LLVMBuildAdd(b, LLVMBuildLoad2(b, ir->i32, accp, ""), sum, ""), accp);
    }
    lk = klv_loop_begin(ir, klv_i64(ir, ke), klv_i64(ir, o.K));
    {
        LLVMValueRef av = LLVMBuildSExt(b, klv_load(ir, ir->i8, arow, klv_affine(ir, lk.iv, o.as_k, 0)),
                                        ir->i32, "");
        LLVMValueRef bw = LLVMBuildSExt(b, klv_load(ir, ir->i8, bcol, klv_affine(ir, lk.iv, o.bs_k, 0)),
                                        ir->i32, "");
        LLVMValueRef s = LLVMBuildAdd(b, LLVMBuildLoad2(b, ir->i32, accp, ""), LLVMBuildMul(b, av, bw, ""), "");
        LLVMBuildStore(b, s, accp);
    }
    klv_loop_end(ir, &lk);
    mp = klv_load(ir, ir->i64, klv_arg(ir, arg_rq), iv_j);
    mn = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 1), iv_j);
    sh = klv_load(ir, ir->i64, klv_arg(ir, arg_rq + 2), iv_j);
    klv_store(ir, ir->i8, y, lp.iv,
              klv_requant(ir, LLVMBuildLoad2(b, ir->i32, accp, ""), mp, mn, sh, lo, hi));
    klv_loop_end(ir, &lp);
    klv_kernel_end(ir);
    plan->range = o.M * o.N;
    plan->work = o.K + 1;
    return 1;
}
