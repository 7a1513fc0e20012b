/*
 * IR building helpers shared by the kernel emitters: the kernel frame,
 * counted loops, typed loads and stores, the fused activations and the
 * requantize step of graphir/requant.h.
 */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

void klv_ir_init(KlvIr *ir, LLVMContextRef ctx, const char *name)
{
    LLVMTypeRef params[3];
    memset(ir, 0, sizeof *ir);
    ir->ctx = ctx;
    ir->mod = LLVMModuleCreateWithNameInContext(name, ctx);
    ir->b = LLVMCreateBuilderInContext(ctx);
    ir->i1 = LLVMInt1TypeInContext(ctx);
    ir->i8 = LLVMInt8TypeInContext(ctx);
    ir->i32 = LLVMInt32TypeInContext(ctx);
    ir->i64 = LLVMInt64TypeInContext(ctx);
    ir->f32 = LLVMFloatTypeInContext(ctx);
    ir->ptr = LLVMPointerTypeInContext(ctx, 0);
    ir->voidt = LLVMVoidTypeInContext(ctx);
    params[0] = ir->ptr;
    params[1] = ir->i64;
    params[2] = ir->i64;
    ir->kty = LLVMFunctionType(ir->voidt, params, 3, 0);
}

void klv_plan_extra(KlvPlan *plan, void *data, int64_t bytes, int kind, int owned)
{
    plan->extra[plan->nextra] = data;
    plan->extra_bytes[plan->nextra] = bytes;
    plan->extra_kind[plan->nextra++] = (unsigned char)kind;
    if (owned)
        plan->owned[plan->nowned++] = data;
}

/* Tables of 2 MiB or more start on a 2 MiB boundary and ask for
 * transparent huge pages (the 512 -> 1,024 Conv's packed weights are
 * 18.9 MB: 4,600 small pages, more than the TLBs hold, read again for every
 * oc block); smaller ones start on a cache line, so no 64-byte weight
 * vector straddles two lines (calloc gives 16 bytes past one). */
#define HUGE_PAGE (2u << 20)

void *klv_big_alloc(size_t bytes, int zero)
{
    size_t align = bytes >= HUGE_PAGE ? HUGE_PAGE : 64;
    size_t size = (bytes + align - 1) / align * align;
    void *p;
    if (size == 0)
        size = align;
    if (!(p = aligned_alloc(align, size)))
        return NULL;
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE)
        (void)madvise(p, size, MADV_HUGEPAGE); /* a hint: ignored where not supported */
#endif
    if (zero)
        memset(p, 0, size);
    return p;
}

void *klv_table_alloc(size_t bytes)
{
    return klv_big_alloc(bytes, 1);
}

/* Whether dtype t is read as unsigned by ld_f (bool included). */
static int unsigned_dt(GirDType t)
{
    return t == GIR_DT_U8 || t == GIR_DT_U16 || t == GIR_DT_U32 || t == GIR_DT_U64 ||
           t == GIR_DT_BOOL;
}

LLVMTypeRef klv_elem_type(KlvIr *ir, GirDType t)
{
    switch (t) {
    case GIR_DT_F32: return ir->f32;
    case GIR_DT_F64: return LLVMDoubleTypeInContext(ir->ctx);
    case GIR_DT_F16: return LLVMHalfTypeInContext(ir->ctx);
    case GIR_DT_UNDEF: return NULL;
    default:
        switch (gir_dtype_size(t)) {
        case 1: return ir->i8;
        case 2: return LLVMInt16TypeInContext(ir->ctx);
        case 4: return ir->i32;
        case 8: return ir->i64;
        default: return NULL;
        }
    }
}

int klv_is_float_dt(GirDType t)
{
    return t == GIR_DT_F32 || t == GIR_DT_F64 || t == GIR_DT_F16;
}

LLVMValueRef klv_load_f64(KlvIr *ir, GirDType t, LLVMValueRef base, LLVMValueRef idx)
{
    return klv_to_f64(ir, t, klv_load(ir, klv_elem_type(ir, t), base, idx));
}

LLVMValueRef klv_to_f64(KlvIr *ir, GirDType t, LLVMValueRef v)
{
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    if (t == GIR_DT_F64)
        return v;
    if (klv_is_float_dt(t))
        return LLVMBuildFPExt(ir->b, v, d, "");
    return unsigned_dt(t) ? LLVMBuildUIToFP(ir->b, v, d, "") : LLVMBuildSIToFP(ir->b, v, d, "");
}

void klv_store_f64(KlvIr *ir, GirDType t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v)
{
    LLVMBuilderRef b = ir->b;
    LLVMTypeRef et = klv_elem_type(ir, t);
    if (t == GIR_DT_F16) {
        /* (float)v, then gir_f32_to_f16: round to nearest even, a NaN as
         * the sign and 0x7e00 */
        LLVMTypeRef i16 = LLVMInt16TypeInContext(ir->ctx);
        LLVMValueRef f = LLVMBuildFPTrunc(b, v, ir->f32, "");
        LLVMValueRef h = LLVMBuildBitCast(b, LLVMBuildFPTrunc(b, f, et, ""), i16, "");
        LLVMValueRef sign = LLVMBuildTrunc(b, LLVMBuildLShr(b, LLVMBuildBitCast(b, f, ir->i32, ""),
                                                            LLVMConstInt(ir->i32, 16, 0), ""), i16, "");
        LLVMValueRef nan = LLVMBuildOr(b, LLVMBuildAnd(b, sign, LLVMConstInt(i16, 0x8000, 0), ""),
                                       LLVMConstInt(i16, 0x7e00, 0), "");
        h = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, f, f, ""), nan, h, "");
        klv_store(ir, i16, base, idx, h);
    } else if (t == GIR_DT_F64) {
        klv_store(ir, et, base, idx, v);
    } else if (t == GIR_DT_F32) {
        klv_store(ir, et, base, idx, LLVMBuildFPTrunc(b, v, et, ""));
    } else {
        LLVMValueRef i = unsigned_dt(t) ? LLVMBuildFPToUI(b, v, ir->i64, "") : LLVMBuildFPToSI(b, v, ir->i64, "");
        klv_store(ir, et, base, idx, et == ir->i64 ? i : LLVMBuildTrunc(b, i, et, ""));
    }
}

int64_t klv_dims_prod(const int64_t *dims, int64_t lo, int64_t hi)
{
    int64_t p = 1;
    for (; lo < hi; lo++)
        p *= dims[lo];
    return p;
}

int klv_plan_guard(KlvPlan *plan, const GirNode *n)
{
    int32_t *flag = calloc(1, sizeof *flag);
    if (!flag)
        return -1;
    klv_plan_extra(plan, flag, sizeof *flag, KLV_SCRATCH, 1);
    plan->guard = plan->nextra;
    return n->nin + n->nout + plan->nextra - 1;
}

int klv_plan_sized(KlvIr *ir, const GirGraph *g, const GirNode *n, KlvPlan *plan)
{
    const GirType *yt;
    int64_t *dims;
    int k;
    if (!ir->sized_ok || n->nout != 1 || n->out[0] < 0)
        return 0;
    yt = &g->vals[n->out[0]].type;
    if (yt->rank < 0 || gir_type_is_static(yt))
        return 0;
    for (k = 0; k < n->nin; k++)
        if (n->in[k] >= 0 && !gir_type_is_static(&g->vals[n->in[k]].type))
            return 0;
    if (!(dims = calloc(GIR_MAX_RANK, sizeof *dims)))
        return -1;
    klv_plan_extra(plan, dims, GIR_MAX_RANK * (int64_t)sizeof *dims, KLV_SCRATCH, 1);
    plan->sized = plan->nextra;
    return n->nin + n->nout + plan->nextra - 1;
}

void klv_guard(KlvIr *ir, int arg, LLVMValueRef bad)
{
    LLVMBasicBlockRef set = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "guard");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "guard.ok");
    LLVMValueRef st;
    LLVMBuildCondBr(ir->b, bad, set, ok);
    LLVMPositionBuilderAtEnd(ir->b, set);
    /* the threads of one kernel may all set it: an atomic store */
    st = LLVMBuildStore(ir->b, LLVMConstInt(ir->i32, 1, 0), klv_arg(ir, arg));
    LLVMSetOrdering(st, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(st, 4);
    LLVMBuildBr(ir->b, ok);
    LLVMPositionBuilderAtEnd(ir->b, ok);
}

void klv_kernel_begin(KlvIr *ir, const char *name)
{
    LLVMBasicBlockRef entry;
    unsigned kind = LLVMGetEnumAttributeKindForName("noalias", 7);
    ir->fn = LLVMAddFunction(ir->mod, name, ir->kty);
    LLVMAddAttributeAtIndex(ir->fn, 1, LLVMCreateEnumAttribute(ir->ctx, kind, 0));
    ir->args = LLVMGetParam(ir->fn, 0);
    entry = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "entry");
    LLVMPositionBuilderAtEnd(ir->b, entry);
}

void klv_kernel_end(KlvIr *ir)
{
    LLVMBuildRetVoid(ir->b);
}

LLVMValueRef klv_lo(KlvIr *ir) { return LLVMGetParam(ir->fn, 1); }
LLVMValueRef klv_hi(KlvIr *ir) { return LLVMGetParam(ir->fn, 2); }

LLVMValueRef klv_i64(KlvIr *ir, int64_t v) { return LLVMConstInt(ir->i64, (unsigned long long)v, 1); }
LLVMValueRef klv_f32c(KlvIr *ir, double v) { return LLVMConstReal(ir->f32, v); }

LLVMValueRef klv_splat(KlvIr *ir, LLVMValueRef v, int lanes)
{
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), (unsigned)lanes);
    LLVMValueRef one = LLVMBuildInsertElement(ir->b, LLVMGetUndef(vt), v,
                                              LLVMConstInt(ir->i32, 0, 0), "");
    return LLVMBuildShuffleVector(ir->b, one, LLVMGetUndef(vt),
                                  LLVMConstNull(LLVMVectorType(ir->i32, (unsigned)lanes)), "");
}

LLVMValueRef klv_gep(KlvIr *ir, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef idx)
{
    return LLVMBuildInBoundsGEP2(ir->b, t, base, &idx, 1, "");
}

LLVMValueRef klv_arg(KlvIr *ir, int i)
{
    return LLVMBuildLoad2(ir->b, ir->ptr, klv_gep(ir, ir->ptr, ir->args, klv_i64(ir, i)), "");
}

LLVMValueRef klv_load(KlvIr *ir, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef idx)
{
    return LLVMBuildLoad2(ir->b, t, klv_gep(ir, t, base, idx), "");
}

void klv_store(KlvIr *ir, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v)
{
    LLVMBuildStore(ir->b, v, klv_gep(ir, t, base, idx));
}

LLVMValueRef klv_add(KlvIr *ir, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildNSWAdd(ir->b, a, b, "");
}

LLVMValueRef klv_mul(KlvIr *ir, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildNSWMul(ir->b, a, b, "");
}

LLVMValueRef klv_affine(KlvIr *ir, LLVMValueRef a, int64_t k, int64_t c)
{
    LLVMValueRef v = k == 1 ? a : klv_mul(ir, a, klv_i64(ir, k));
    return c == 0 ? v : klv_add(ir, v, klv_i64(ir, c));
}

KlvLoop klv_loop_begin(KlvIr *ir, LLVMValueRef lo, LLVMValueRef hi)
{
    KlvLoop l;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(ir->b), body;
    l.head = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "head");
    body = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "body");
    l.exit = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "exit");
    LLVMBuildBr(ir->b, l.head);
    LLVMPositionBuilderAtEnd(ir->b, l.head);
    l.iv = LLVMBuildPhi(ir->b, ir->i64, "i");
    LLVMAddIncoming(l.iv, &lo, &pre, 1);
    LLVMBuildCondBr(ir->b, LLVMBuildICmp(ir->b, LLVMIntSLT, l.iv, hi, ""), body, l.exit);
    LLVMPositionBuilderAtEnd(ir->b, body);
    return l;
}

void klv_loop_end(KlvIr *ir, KlvLoop *l)
{
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(ir->b);
    LLVMValueRef next = LLVMBuildNSWAdd(ir->b, l->iv, klv_i64(ir, 1), "");
    LLVMAddIncoming(l->iv, &next, &latch, 1);
    LLVMBuildBr(ir->b, l->head);
    LLVMPositionBuilderAtEnd(ir->b, l->exit);
}

LLVMBasicBlockRef klv_if_begin(KlvIr *ir, LLVMValueRef cond, const char *what)
{
    LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, what);
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(ir->ctx, ir->fn, "join");
    LLVMBuildCondBr(ir->b, cond, then, join);
    LLVMPositionBuilderAtEnd(ir->b, then);
    return join;
}

void klv_if_end(KlvIr *ir, LLVMBasicBlockRef join)
{
    LLVMBuildBr(ir->b, join);
    LLVMPositionBuilderAtEnd(ir->b, join);
}

LLVMValueRef klv_rint_f64(KlvIr *ir, LLVMValueRef v)
{
    static const char fname[] = "llvm.rint";
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx);
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(ir->mod, LLVMLookupIntrinsicID(fname, sizeof fname - 1),
                                                 &d, 1);
    return LLVMBuildCall2(ir->b, LLVMFunctionType(d, &d, 1, 0), f, &v, 1, "");
}

LLVMValueRef klv_call_f32(KlvIr *ir, const char *fname, LLVMValueRef x)
{
    LLVMTypeRef fty = LLVMFunctionType(ir->f32, &ir->f32, 1, 0);
    LLVMValueRef f = LLVMGetNamedFunction(ir->mod, fname);
    if (!f)
        f = LLVMAddFunction(ir->mod, fname, fty);
    return LLVMBuildCall2(ir->b, fty, f, &x, 1, "");
}

LLVMValueRef klv_call2_f64(KlvIr *ir, const char *fname, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef d = LLVMDoubleTypeInContext(ir->ctx), p[2] = {d, d};
    LLVMTypeRef fty = LLVMFunctionType(d, p, 2, 0);
    LLVMValueRef f = LLVMGetNamedFunction(ir->mod, fname), a[2] = {x, y};
    if (!f)
        f = LLVMAddFunction(ir->mod, fname, fty);
    return LLVMBuildCall2(ir->b, fty, f, a, 2, "");
}

/* The f32 constant c in the shape of v: a scalar, or splat over v's lanes. */
static LLVMValueRef f32_like(KlvIr *ir, LLVMValueRef v, double c)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef s = klv_f32c(ir, c), lanes[64];
    unsigned k, n;
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
        return s;
    n = LLVMGetVectorSize(t);
    for (k = 0; k < n && k < 64; k++)
        lanes[k] = s;
    return LLVMConstVector(lanes, n);
}

/* x < 0 ? y : x, the form the interpreter uses for Relu and LeakyRelu. */
static LLVMValueRef neg_select(KlvIr *ir, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef c = LLVMBuildFCmp(ir->b, LLVMRealOLT, x, f32_like(ir, x, 0.0), "");
    return LLVMBuildSelect(ir->b, c, y, x, "");
}

LLVMValueRef klv_act_f32(KlvIr *ir, const GirNode *n, LLVMValueRef v)
{
    const char *act = gir_attr_string(n, "act", NULL);
    if (!act)
        return v;
    if (strcmp(act, "relu") == 0)
        return neg_select(ir, v, f32_like(ir, v, 0.0));
    if (strcmp(act, "leakyrelu") == 0) {
        LLVMValueRef a = f32_like(ir, v, gir_attr_float(n, "act_alpha", 0.01f));
        return neg_select(ir, v, LLVMBuildFMul(ir->b, a, v, ""));
    }
    /* clip: v < lo ? lo : v > hi ? hi : v */
    {
        LLVMValueRef lo = f32_like(ir, v, gir_attr_float(n, "act_min", -INFINITY));
        LLVMValueRef hi = f32_like(ir, v, gir_attr_float(n, "act_max", INFINITY));
        LLVMValueRef above = LLVMBuildSelect(ir->b, LLVMBuildFCmp(ir->b, LLVMRealOGT, v, hi, ""),
                                             hi, v, "");
        return LLVMBuildSelect(ir->b, LLVMBuildFCmp(ir->b, LLVMRealOLT, v, lo, ""), lo, above, "");
    }
}

LLVMValueRef klv_round_sat(KlvIr *ir, LLVMValueRef prod, LLVMValueRef shift, int lo, int hi)
{
    LLVMBuilderRef b = ir->b;
    /* shift 0 keeps prod; else (prod + 2^(shift-1)) >> shift.  The
     * rounding term is masked to a legal shift amount on both arms. */
    LLVMValueRef sm1 = LLVMBuildAnd(b, LLVMBuildSub(b, shift, klv_i64(ir, 1), ""),
                                    klv_i64(ir, 63), "");
    LLVMValueRef rnd = LLVMBuildShl(b, klv_i64(ir, 1), sm1, "");
    LLVMValueRef sh = LLVMBuildAShr(b, LLVMBuildAdd(b, prod, rnd, ""), shift, "");
    LLVMValueRef r = LLVMBuildSelect(
        b, LLVMBuildICmp(b, LLVMIntEQ, shift, klv_i64(ir, 0), ""), prod, sh, "");
    LLVMValueRef vlo = klv_i64(ir, lo < -128 ? -128 : lo), vhi = klv_i64(ir, hi > 127 ? 127 : hi);
    r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, r, vhi, ""), vhi, r, "");
    r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, r, vlo, ""), vlo, r, "");
    return LLVMBuildTrunc(b, r, ir->i8, "");
}

LLVMValueRef klv_vpdpbusd(KlvIr *ir, int lanes, LLVMTypeRef *ty)
{
    const char *fname = lanes == 16 ? "llvm.x86.avx512.vpdpbusd.512" : "llvm.x86.avx512.vpdpbusd.256";
    unsigned id = LLVMLookupIntrinsicID(fname, strlen(fname));
    *ty = LLVMIntrinsicGetType(ir->ctx, id, NULL, 0);
    return LLVMGetIntrinsicDeclaration(ir->mod, id, NULL, 0);
}

int32_t klv_vnni_bias(int32_t bias, const int8_t *w, int64_t n)
{
    uint32_t sum = 0;
    int64_t k;
    for (k = 0; k < n; k++)
        sum += (uint32_t)(int32_t)w[k];
    return (int32_t)((uint32_t)bias - 128u * sum);
}

LLVMValueRef klv_requant(KlvIr *ir, LLVMValueRef acc, LLVMValueRef mpos, LLVMValueRef mneg,
                         LLVMValueRef shift, int lo, int hi)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef a64 = LLVMBuildSExt(b, acc, ir->i64, "");
    LLVMValueRef nonneg = LLVMBuildICmp(b, LLVMIntSGE, acc, LLVMConstInt(ir->i32, 0, 0), "");
    LLVMValueRef m = LLVMBuildSelect(b, nonneg, mpos, mneg, "");
    return klv_round_sat(ir, LLVMBuildMul(b, a64, m, ""), shift, lo, hi);
}

int klv_win2(const GirNode *n, const GirType *x, const GirType *y, const int64_t *k, KlvWin2 *w)
{
    GirWindow g;
    int o;
    if ((x->rank != 3 && x->rank != 4) || y->rank != x->rank)
        return 0;
    gir_window(n, x, y, k, &g);
    o = x->rank == 4 ? 1 : 0; /* the x axis's index in g */
    w->H = o ? g.in[0] : 1;
    w->OH = o ? g.out[0] : 1;
    w->KH = o ? g.k[0] : 1;
    w->s[0] = o ? g.s[0] : 1;
    w->d[0] = o ? g.d[0] : 1;
    w->p[0] = o ? g.pb[0] : 0;
    w->p[2] = o ? g.pe[0] : 0;
    w->W = g.in[o];
    w->OW = g.out[o];
    w->KW = g.k[o];
    w->s[1] = g.s[o];
    w->d[1] = g.d[o];
    w->p[1] = g.pb[o];
    w->p[3] = g.pe[o];
    return 1;
}

int klv_win3(const GirNode *n, const GirType *x, const GirType *y, const int64_t *k, KlvWin2 *w,
             KlvDepth *dp)
{
    GirWindow g;
    dp->D = dp->OD = dp->KD = dp->s = dp->d = 1;
    dp->pb = dp->pe = 0;
    if (x->rank != 5)
        return klv_win2(n, x, y, k, w);
    if (y->rank != 5)
        return 0;
    gir_window(n, x, y, k, &g);
    dp->D = g.in[0], dp->OD = g.out[0], dp->KD = g.k[0], dp->s = g.s[0], dp->d = g.d[0];
    dp->pb = g.pb[0], dp->pe = g.pe[0];
    w->H = g.in[1], w->OH = g.out[1], w->KH = g.k[1], w->s[0] = g.s[1], w->d[0] = g.d[1];
    w->p[0] = g.pb[1], w->p[2] = g.pe[1];
    w->W = g.in[2], w->OW = g.out[2], w->KW = g.k[2], w->s[1] = g.s[2], w->d[1] = g.d[2];
    w->p[1] = g.pb[2], w->p[3] = g.pe[2];
    return 1;
}

int klv_bcast_strides(const GirType *v, const GirType *y, int64_t *st)
{
    int64_t s = 1;
    int d;
    if (v->rank > y->rank)
        return 0;
    for (d = 0; d < y->rank; d++)
        st[d] = 0;
    for (d = v->rank - 1; d >= 0; d--) {
        int yd = d + y->rank - v->rank;
        if (v->dims[d] != 1 && v->dims[d] != y->dims[yd])
            return 0;
        st[yd] = v->dims[d] == 1 ? 0 : s;
        s *= v->dims[d];
    }
    return 1;
}

void klv_bcast_row(KlvIr *ir, LLVMValueRef row, const GirType *y, int64_t (*st)[GIR_MAX_RANK],
                   int nv, LLVMValueRef *off)
{
    LLVMValueRef rem = row;
    int d, k;
    for (k = 0; k < nv; k++)
        off[k] = klv_i64(ir, 0);
    for (d = y->rank - 2; d >= 0; d--) {
        LLVMValueRef i = LLVMBuildSRem(ir->b, rem, klv_i64(ir, y->dims[d]), "");
        rem = LLVMBuildSDiv(ir->b, rem, klv_i64(ir, y->dims[d]), "");
        for (k = 0; k < nv; k++)
            if (st[k][d])
                off[k] = klv_add(ir, off[k], klv_mul(ir, i, klv_i64(ir, st[k][d])));
    }
}

int klv_clip_bounds(const GirGraph *g, const GirNode *n, float *lo, float *hi)
{
    int k;
    *lo = -INFINITY;
    *hi = INFINITY;
    for (k = 1; k < n->nin; k++) {
        const GirValue *bv;
        if (n->in[k] < 0)
            continue;
        bv = &g->vals[n->in[k]];
        if (bv->kind != GIR_VAL_CONST || bv->type.dtype != GIR_DT_F32 || gir_type_numel(&bv->type) != 1)
            return 0;
        if (k == 1)
            *lo = *(const float *)bv->data;
        else
            *hi = *(const float *)bv->data;
    }
    return 1;
}

LLVMValueRef klv_sigmoid_f32(KlvIr *ir, LLVMValueRef v)
{
    LLVMBuilderRef b = ir->b;
    return LLVMBuildFDiv(
        b, klv_f32c(ir, 1.0),
        LLVMBuildFAdd(b, klv_f32c(ir, 1.0), klv_call_f32(ir, "expf", LLVMBuildFNeg(b, v, "")), ""), "");
}

LLVMValueRef klv_unary_f32(KlvIr *ir, const GirNode *n, float lo, float hi, LLVMValueRef v)
{
    LLVMBuilderRef b = ir->b;
    LLVMValueRef r;
    switch (n->op) {
    case GIR_OP_RELU:
        return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, v, klv_f32c(ir, 0), ""),
                               klv_f32c(ir, 0), v, "");
    case GIR_OP_LEAKYRELU:
        return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, v, klv_f32c(ir, 0), ""),
                               LLVMBuildFMul(b, klv_f32c(ir, gir_attr_float(n, "alpha", 0.01f)), v, ""),
                               v, "");
    case GIR_OP_SIGMOID:
        return klv_sigmoid_f32(ir, v);
    case GIR_OP_TANH:
        return klv_call_f32(ir, "tanhf", v);
    case GIR_OP_CLIP: {
        LLVMValueRef vl = klv_f32c(ir, lo), vh = klv_f32c(ir, hi);
        r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, vh, ""), vh, v, "");
        return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, v, vl, ""), vl, r, "");
    }
    default:
        return v;
    }
}

LLVMValueRef klv_binary_f32(KlvIr *ir, int op, LLVMValueRef u, LLVMValueRef v)
{
    switch (op) {
    case GIR_OP_ADD: return LLVMBuildFAdd(ir->b, u, v, "");
    case GIR_OP_SUB: return LLVMBuildFSub(ir->b, u, v, "");
    case GIR_OP_MUL: return LLVMBuildFMul(ir->b, u, v, "");
    default: return LLVMBuildFDiv(ir->b, u, v, "");
    }
}
