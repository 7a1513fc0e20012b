/*
 * The TOSA writer: a graph becomes an MLIR module of one func.func in MLIR
 * 16's TOSA dialect, built op by op through the MLIR C API
 * (mlirOperationCreate, attribute builders), verified by MLIR and printed
 * by it.  docs/tosa.md lists the ops and how each maps.
 *
 * Layout.  The function takes and returns kiln's tensors as they are (NCHW
 * for 4-D), so a model's .npy inputs feed the .mlir file unchanged.  Inside,
 * every 4-D value is NHWC, as TOSA's conv and pool ops want: one
 * tosa.transpose after each 4-D argument and before each 4-D result, conv
 * weights written OHWI, 4-D constants written NHWC, axes remapped.
 *
 * int8.  Kiln's int8 Conv is tosa.conv2d on i8 giving i32, then
 * tosa.rescale per channel with kiln's multipliers and shifts (scale32,
 * double_round false: then TOSA's rounding is requant.h's).  Kiln's m_neg has
 * no TOSA field: ReLU (m_neg = 0) is a clamp at 0 after the rescale, a leaky
 * slope is a second rescale with m_neg chosen by tosa.select on acc >= 0;
 * both give the same bytes as requant.h.  act_min / act_max are a clamp.
 * Requantize is a rescale i8 -> i8; the int8 Add rescales each operand to
 * i32 exactly (x * m), adds, and rescales to i8.  QuantizeLinear is mul by
 * 1 / scale and cast to i8; DequantizeLinear cast to f32 and mul by scale.
 * Each op giving an i8 value carries `kiln.scale` (a discardable attribute
 * TOSA ignores), so kiln reads the scales back exactly.
 *
 * Needs: shapes inferred, values NCHW (the nhwc pass's layout="NHWC" nodes
 * are refused).  The file appears whole or not at all.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>
#include <mlir-c/RegisterEverything.h>

#include "frontend/frontend.h"
#include "graphir/requant.h"

/* NHWC axis i holds NCHW axis NCHW_AT[i]; NCHW axis a sits at NHWC axis NHWC_POS[a]. */
static const int NCHW_AT[4] = {0, 2, 3, 1};
static const int NHWC_POS[4] = {0, 3, 1, 2};
/* TOSA's shift range for rescale. */
#define TOSA_MIN_SHIFT 2

/* The writer's state. */
typedef struct {
    const GirGraph *g;    /* the graph written */
    const char *path;     /* output file, for errors */
    GirError *e;          /* where an error goes */
    MlirContext ctx;      /* owns every MLIR object below */
    MlirLocation loc;     /* location of every op (unknown) */
    MlirBlock body;       /* the function's block */
    MlirValue *tv;        /* per value id: its TOSA value (4-D: NHWC); ptr NULL until made */
    const GirNode *n;     /* node being written, for errors */
    char diag[700];       /* MLIR's first error, if any */
} Wr;

/* ---- errors and MLIR plumbing ---------------------------------------------------- */

static int wr_fail(Wr *w, const char *fmt, ...) GIR_PRINTF(2, 3);

static int wr_fail(Wr *w, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (w->n)
        return gir_error_at(w->e, gir_loc_file(w->path, -1), "node '%s' (%s): %s", w->n->name,
                            gir_op_name(w->n->op), msg);
    return gir_error_at(w->e, gir_loc_file(w->path, -1), "%s", msg);
}

/* A growing buffer for mlirOperationPrint. */
typedef struct {
    char *buf;   /* text, malloc'd */
    size_t len;  /* bytes used */
    size_t cap;  /* bytes allocated */
    int oom;     /* 1 when an allocation failed */
} Text;

static void text_put(MlirStringRef s, void *u)
{
    Text *t = u;
    if (t->oom)
        return;
    if (t->len + s.length + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1 << 16;
        char *nb;
        while (cap < t->len + s.length + 1)
            cap *= 2;
        nb = realloc(t->buf, cap);
        if (!nb) {
            t->oom = 1;
            return;
        }
        t->buf = nb;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s.data, s.length);
    t->len += s.length;
    t->buf[t->len] = 0;
}

static MlirLogicalResult on_diag(MlirDiagnostic d, void *u)
{
    Wr *w = u;
    Text t = {NULL, 0, 0, 0};
    if (w->diag[0] || mlirDiagnosticGetSeverity(d) != MlirDiagnosticError)
        return mlirLogicalResultSuccess();
    mlirDiagnosticPrint(d, text_put, &t);
    snprintf(w->diag, sizeof w->diag, "%s", t.buf ? t.buf : "error");
    free(t.buf);
    return mlirLogicalResultSuccess();
}

static MlirIdentifier ident(Wr *w, const char *s)
{
    return mlirIdentifierGet(w->ctx, mlirStringRefCreateFromCString(s));
}

static MlirNamedAttribute named(Wr *w, const char *name, MlirAttribute a)
{
    return mlirNamedAttributeGet(ident(w, name), a);
}

static MlirAttribute a_i64s(Wr *w, const int64_t *v, int n)
{
    return mlirDenseI64ArrayGet(w->ctx, n, v);
}

static MlirAttribute a_i64(Wr *w, int64_t v)
{
    return mlirIntegerAttrGet(mlirIntegerTypeGet(w->ctx, 64), v);
}

static MlirAttribute a_i32(Wr *w, int64_t v)
{
    return mlirIntegerAttrGet(mlirIntegerTypeGet(w->ctx, 32), v);
}

static MlirAttribute a_f32(Wr *w, double v)
{
    return mlirFloatAttrDoubleGet(w->ctx, mlirF32TypeGet(w->ctx), v);
}

static MlirType elem_type(Wr *w, GirDType dt)
{
    switch (dt) {
    case GIR_DT_F32: return mlirF32TypeGet(w->ctx);
    case GIR_DT_F16: return mlirF16TypeGet(w->ctx);
    case GIR_DT_F64: return mlirF64TypeGet(w->ctx);
    case GIR_DT_BOOL: return mlirIntegerTypeGet(w->ctx, 1);
    case GIR_DT_I8: return mlirIntegerTypeGet(w->ctx, 8);
    case GIR_DT_I16: return mlirIntegerTypeGet(w->ctx, 16);
    case GIR_DT_I32: return mlirIntegerTypeGet(w->ctx, 32);
    case GIR_DT_I64: return mlirIntegerTypeGet(w->ctx, 64);
    case GIR_DT_U8: return mlirIntegerTypeUnsignedGet(w->ctx, 8);
    default: {
        MlirType none = {NULL};
        return none;
    }
    }
}

/* The tensor type of t (4-D as NHWC when nhwc). */
static MlirType tensor_type(Wr *w, const GirType *t, GirDType dt, int nhwc)
{
    int64_t d[GIR_MAX_RANK];
    int i;
    for (i = 0; i < t->rank; i++)
        d[i] = nhwc && t->rank == 4 ? t->dims[NCHW_AT[i]] : t->dims[i];
    return mlirRankedTensorTypeGet(t->rank, d, elem_type(w, dt), mlirAttributeGetNull());
}

static MlirType dims_type(Wr *w, const int64_t *d, int rank, GirDType dt)
{
    return mlirRankedTensorTypeGet(rank, d, elem_type(w, dt), mlirAttributeGetNull());
}

/* Create op name on ins giving one result of type rt; appended to the body. */
static MlirValue op(Wr *w, const char *name, const MlirValue *ins, int nin, MlirType rt,
                    const MlirNamedAttribute *attrs, int nattr)
{
    MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name), w->loc);
    MlirOperation o;
    if (nin)
        mlirOperationStateAddOperands(&st, nin, ins);
    mlirOperationStateAddResults(&st, 1, &rt);
    if (nattr)
        mlirOperationStateAddAttributes(&st, nattr, attrs);
    o = mlirOperationCreate(&st);
    mlirBlockAppendOwnedOperation(w->body, o);
    return mlirOperationGetResult(o, 0);
}

/* The same with the kiln.scale attribute of an i8 result appended. */
static MlirValue op_q(Wr *w, const char *name, const MlirValue *ins, int nin, MlirType rt,
                      const MlirNamedAttribute *attrs, int nattr, float scale)
{
    MlirNamedAttribute a[12];
    int i;
    for (i = 0; i < nattr && i < 11; i++)
        a[i] = attrs[i];
    if (scale > 0)
        a[i++] = named(w, "kiln.scale", a_f32(w, scale));
    return op(w, name, ins, nin, rt, a, i);
}

/* tosa.const of type t (dims as given) with data. */
static MlirValue const_raw(Wr *w, const int64_t *dims, int rank, GirDType dt, const void *data)
{
    MlirType t = dims_type(w, dims, rank, dt);
    int64_t n = 1, i;
    MlirAttribute a;
    MlirNamedAttribute na;
    for (i = 0; i < rank; i++)
        n *= dims[i];
    if (dt == GIR_DT_BOOL) {
        int *b = malloc(sizeof(int) * (size_t)(n ? n : 1));
        if (!b)
            gir_die("out of memory");
        for (i = 0; i < n; i++)
            b[i] = ((const uint8_t *)data)[i] != 0;
        a = mlirDenseElementsAttrBoolGet(t, n, b);
        free(b);
    } else {
        a = mlirDenseElementsAttrRawBufferGet(t, (size_t)n * gir_dtype_size(dt), data);
    }
    na = named(w, "value", a);
    return op(w, "tosa.const", NULL, 0, t, &na, 1);
}

/* A splat f32 constant of the given rank (all dims 1). */
static MlirValue const_f32(Wr *w, int rank, float v)
{
    int64_t d[GIR_MAX_RANK] = {1, 1, 1, 1, 1, 1, 1, 1};
    return const_raw(w, d, rank, GIR_DT_F32, &v);
}

/* Data of type t permuted: out dims[i] = in dims[perm[i]]; malloc'd. */
static void *permuted(const GirType *t, const int *perm, const void *src, int64_t *od)
{
    size_t es = gir_dtype_size(t->dtype);
    int64_t n = gir_type_numel(t), i, idx[GIR_MAX_RANK] = {0}, st[GIR_MAX_RANK];
    int rk = t->rank, d;
    char *dst = malloc((size_t)(n ? n : 1) * es);
    if (!dst)
        gir_die("out of memory");
    for (d = rk - 1; d >= 0; d--)
        st[d] = d == rk - 1 ? 1 : st[d + 1] * t->dims[d + 1];
    for (d = 0; d < rk; d++)
        od[d] = t->dims[perm[d]];
    for (i = 0; i < n; i++) {
        int64_t off = 0;
        for (d = 0; d < rk; d++)
            off += idx[d] * st[perm[d]];
        memcpy(dst + (size_t)i * es, (const char *)src + (size_t)off * es, es);
        for (d = rk - 1; d >= 0; d--) {
            if (++idx[d] < od[d])
                break;
            idx[d] = 0;
        }
    }
    return dst;
}

/* tosa.transpose of x (type t, rank rk) by perm. */
static MlirValue transpose(Wr *w, MlirValue x, const int64_t *dims, int rk, GirDType dt,
                           const int *perm, float scale)
{
    int32_t p[GIR_MAX_RANK];
    int64_t od[GIR_MAX_RANK], pd = rk;
    MlirValue ins[2];
    int i;
    for (i = 0; i < rk; i++) {
        p[i] = perm[i];
        od[i] = dims[perm[i]];
    }
    ins[0] = x;
    ins[1] = const_raw(w, &pd, 1, GIR_DT_I32, p);
    return op_q(w, "tosa.transpose", ins, 2, dims_type(w, od, rk, dt), NULL, 0, scale);
}

/* The TOSA value of kiln value id: a 4-D value in NHWC order. */
static MlirValue get(Wr *w, int id)
{
    const GirValue *v = &w->g->vals[id];
    if (!w->tv[id].ptr) {
        /* only constants are made on first use; the rest exist by node order */
        if (v->type.rank == 4) {
            int64_t od[4];
            void *d = permuted(&v->type, NCHW_AT, v->data, od);
            w->tv[id] = const_raw(w, od, 4, v->type.dtype, d);
            free(d);
        } else {
            w->tv[id] = const_raw(w, v->type.dims, v->type.rank, v->type.dtype, v->data);
        }
    }
    return w->tv[id];
}

static const GirValue *in_val(Wr *w, int i)
{
    return &w->g->vals[w->n->in[i]];
}

static const GirValue *out_val(Wr *w)
{
    return &w->g->vals[w->n->out[0]];
}

/* The output's TOSA type of dtype dt (4-D: NHWC). */
static MlirType out_type(Wr *w, GirDType dt)
{
    return tensor_type(w, &out_val(w)->type, dt, 1);
}

static void set_out(Wr *w, MlirValue v)
{
    w->tv[w->n->out[0]] = v;
}

/* ---- activations ----------------------------------------------------------------- */

static MlirValue clamp_f32(Wr *w, MlirValue x, MlirType t, float lo, float hi)
{
    MlirNamedAttribute a[4];
    a[0] = named(w, "min_int", a_i64(w, lo < -2147483648.0f ? INT32_MIN : (int64_t)lo));
    a[1] = named(w, "max_int", a_i64(w, hi > 2147483647.0f ? INT32_MAX : (int64_t)hi));
    a[2] = named(w, "min_fp", a_f32(w, lo));
    a[3] = named(w, "max_fp", a_f32(w, hi));
    return op(w, "tosa.clamp", &x, 1, t, a, 4);
}

static MlirValue mul(Wr *w, MlirValue a, MlirValue b, MlirType t)
{
    MlirValue ins[2] = {a, b};
    MlirNamedAttribute s = named(w, "shift", a_i32(w, 0));
    return op(w, "tosa.mul", ins, 2, t, &s, 1);
}

static MlirValue binary(Wr *w, const char *name, MlirValue a, MlirValue b, MlirType t)
{
    MlirValue ins[2] = {a, b};
    return op(w, name, ins, 2, t, NULL, 0);
}

/* x < 0 ? alpha * x : x, exactly as kiln computes it. */
static MlirValue leaky(Wr *w, MlirValue x, MlirType t, int rank, float alpha)
{
    MlirValue ax = mul(w, x, const_f32(w, rank, alpha), t), zero, ge, ins[3];
    MlirType bt;
    int64_t d[GIR_MAX_RANK];
    int i;
    if (alpha >= 0 && alpha <= 1)
        return binary(w, "tosa.maximum", x, ax, t);
    for (i = 0; i < rank; i++)
        d[i] = mlirShapedTypeGetDimSize(t, i);
    bt = dims_type(w, d, rank, GIR_DT_BOOL);
    zero = const_f32(w, rank, 0);
    ge = binary(w, "tosa.greater_equal", x, zero, bt);
    ins[0] = ge;
    ins[1] = x;
    ins[2] = ax;
    return op(w, "tosa.select", ins, 3, t, NULL, 0);
}

/* The fp32 activation fused into a Conv or Gemm (act attributes). */
static MlirValue fused_act(Wr *w, MlirValue y, MlirType t, int rank)
{
    const char *act = gir_attr_string(w->n, "act", NULL);
    if (!act)
        return y;
    if (strcmp(act, "relu") == 0)
        return clamp_f32(w, y, t, 0, 3.40282347e38f);
    if (strcmp(act, "leakyrelu") == 0)
        return leaky(w, y, t, rank, gir_attr_float(w->n, "act_alpha", 0.01f));
    return clamp_f32(w, y, t, gir_attr_float(w->n, "act_min", -3.40282347e38f),
                     gir_attr_float(w->n, "act_max", 3.40282347e38f));
}

/* ---- conv ------------------------------------------------------------------------- */

/* Conv weights [OC, IC/g, KH, KW] as TOSA's: OHWI, or [KH, KW, C, M] depthwise. */
static MlirValue conv_weights(Wr *w, const GirValue *wv, int depthwise)
{
    static const int to_ohwi[4] = {0, 2, 3, 1};
    static const int cmhw_to_hwcm[4] = {2, 3, 0, 1};
    int64_t od[4];
    void *d;
    MlirValue c;
    if (depthwise) {
        GirType t = wv->type;
        int64_t C = (int64_t)gir_attr_int(w->n, "group", 1);
        t.dims[0] = C;
        t.dims[1] = wv->type.dims[0] / C;
        d = permuted(&t, cmhw_to_hwcm, wv->data, od);
    } else {
        d = permuted(&wv->type, to_ohwi, wv->data, od);
    }
    c = const_raw(w, od, 4, wv->type.dtype, d);
    free(d);
    return c;
}

/* A TOSA rescale of x to type t by per-channel (m, shift), n of them. */
static MlirValue rescale(Wr *w, MlirValue x, MlirType t, const int64_t *m, const int64_t *s,
                         int n, int per_channel, float scale)
{
    int32_t *mm = malloc(sizeof(int32_t) * (size_t)n), *ss = malloc(sizeof(int32_t) * (size_t)n);
    MlirNamedAttribute a[7];
    MlirValue y;
    int i;
    if (!mm || !ss)
        gir_die("out of memory");
    for (i = 0; i < n; i++) {
        int64_t mi = m[i], si = s[i];
        /* TOSA's shift is 2..62: scale the multiplier up for kiln's 0 and 1 */
        for (; si < TOSA_MIN_SHIFT; si++)
            mi *= 2;
        mm[i] = (int32_t)mi;
        ss[i] = (int32_t)si;
    }
    a[0] = named(w, "input_zp", a_i32(w, 0));
    a[1] = named(w, "output_zp", a_i32(w, 0));
    a[2] = named(w, "multiplier", mlirDenseI32ArrayGet(w->ctx, n, mm));
    a[3] = named(w, "shift", mlirDenseI32ArrayGet(w->ctx, n, ss));
    a[4] = named(w, "scale32", mlirBoolAttrGet(w->ctx, 1));
    a[5] = named(w, "double_round", mlirBoolAttrGet(w->ctx, 0));
    a[6] = named(w, "per_channel", mlirBoolAttrGet(w->ctx, per_channel));
    y = op_q(w, "tosa.rescale", &x, 1, t, a, 7, scale);
    free(mm);
    free(ss);
    return y;
}

/* The int8 Conv's requantization: rescale(s), select and clamp after acc. */
static MlirValue conv_requant(Wr *w, MlirValue acc, int64_t oc, int rk)
{
    int np, nn, ns, relu = 1, same = 1, i;
    const int64_t *mp = gir_attr_ints(w->n, "rq_m_pos", &np);
    const int64_t *mn = gir_attr_ints(w->n, "rq_m_neg", &nn);
    const int64_t *sh = gir_attr_ints(w->n, "rq_shift", &ns);
    int64_t lo = gir_attr_int(w->n, "act_min", -128), hi = gir_attr_int(w->n, "act_max", 127);
    float scale = out_val(w)->scale;
    MlirType t8 = out_type(w, GIR_DT_I8);
    MlirValue y;
    for (i = 0; i < oc; i++) {
        relu &= mn[i] == 0;
        same &= mn[i] == mp[i];
    }
    if (same || relu) {
        y = rescale(w, acc, t8, mp, sh, (int)oc, 1, scale);
        if (relu && !same && lo < 0)
            lo = 0;
    } else {
        MlirValue p = rescale(w, acc, t8, mp, sh, (int)oc, 1, scale);
        MlirValue q = rescale(w, acc, t8, mn, sh, (int)oc, 1, scale), ins[3];
        int32_t zero = 0;
        int64_t one[4] = {1, 1, 1, 1};
        MlirType bt = out_type(w, GIR_DT_BOOL);
        ins[0] = binary(w, "tosa.greater_equal", acc, const_raw(w, one, rk, GIR_DT_I32, &zero), bt);
        ins[1] = p;
        ins[2] = q;
        y = op_q(w, "tosa.select", ins, 3, t8, NULL, 0, scale);
    }
    if (lo != -128 || hi != 127) {
        MlirNamedAttribute a[4];
        a[0] = named(w, "min_int", a_i64(w, lo));
        a[1] = named(w, "max_int", a_i64(w, hi));
        a[2] = named(w, "min_fp", a_f32(w, (double)lo));
        a[3] = named(w, "max_fp", a_f32(w, (double)hi));
        y = op_q(w, "tosa.clamp", &y, 1, t8, a, 4, scale);
    }
    (void)np;
    (void)ns;
    return y;
}

/* tosa.slice of x (TOSA dims xd, rank rk) from start, size. */
static MlirValue slice(Wr *w, MlirValue x, int rk, const int64_t *start, const int64_t *size,
                       GirDType dt, float scale)
{
    MlirNamedAttribute a[2];
    a[0] = named(w, "start", a_i64s(w, start, rk));
    a[1] = named(w, "size", a_i64s(w, size, rk));
    return op_q(w, "tosa.slice", &x, 1, dims_type(w, size, rk, dt), a, 2, scale);
}

/* An fp32 grouped convolution (neither plain nor depthwise): per group a
 * slice of the input channels, a conv2d, and one concat of the results. */
static int grouped_conv(Wr *w, int64_t group, const int64_t *pad, const int64_t *stride,
                        const int64_t *dil)
{
    const GirValue *x = in_val(w, 0), *wv = in_val(w, 1), *y = out_val(w);
    int64_t icg = wv->type.dims[1], ocg = wv->type.dims[0] / group, k;
    int64_t st[4] = {0, 0, 0, 0}, sz[4], od[4];
    size_t wsz = (size_t)(ocg * icg * wv->type.dims[2] * wv->type.dims[3]);
    MlirValue *parts = malloc(sizeof(MlirValue) * (size_t)group), in = get(w, w->n->in[0]);
    const float *bias = w->n->nin > 2 && w->n->in[2] >= 0 ? in_val(w, 2)->data : NULL;
    float *zero = calloc((size_t)ocg, sizeof(float));
    MlirNamedAttribute a[3], ax;
    MlirType t;
    if (!parts || !zero)
        gir_die("out of memory");
    if (group > 256) {
        free(parts);
        free(zero);
        return wr_fail(w, "group %lld: more than 256 groups are not written", (long long)group);
    }
    sz[0] = x->type.dims[0];
    sz[1] = x->type.dims[2];
    sz[2] = x->type.dims[3];
    sz[3] = icg;
    od[0] = y->type.dims[0];
    od[1] = y->type.dims[2];
    od[2] = y->type.dims[3];
    od[3] = ocg;
    t = dims_type(w, od, 4, GIR_DT_F32);
    a[0] = named(w, "pad", a_i64s(w, pad, 4));
    a[1] = named(w, "stride", a_i64s(w, stride, 2));
    a[2] = named(w, "dilation", a_i64s(w, dil, 2));
    for (k = 0; k < group; k++) {
        GirValue part = *wv;
        MlirValue ins[3];
        st[3] = k * icg;
        part.type.dims[0] = ocg;
        part.data = (char *)wv->data + (size_t)k * wsz * sizeof(float);
        ins[0] = slice(w, in, 4, st, sz, GIR_DT_F32, 0);
        ins[1] = conv_weights(w, &part, 0);
        ins[2] = const_raw(w, &ocg, 1, GIR_DT_F32, bias ? bias + k * ocg : zero);
        parts[k] = op(w, "tosa.conv2d", ins, 3, t, a, 3);
    }
    ax = named(w, "axis", a_i64(w, 3));
    set_out(w, fused_act(w, op(w, "tosa.concat", parts, (int)group, out_type(w, GIR_DT_F32), &ax, 1),
                         out_type(w, GIR_DT_F32), 4));
    free(parts);
    free(zero);
    return 0;
}

/* ONNX pads [top, left, bottom, right] (np == 4) as TOSA's [top, bottom,
 * left, right]; pad stays as it is otherwise. */
static void tosa_pads(const int64_t *p, int np, int64_t pad[4])
{
    if (np != 4)
        return;
    pad[0] = p[0];
    pad[1] = p[2];
    pad[2] = p[1];
    pad[3] = p[3];
}

static int wr_conv(Wr *w)
{
    const GirValue *x = in_val(w, 0), *wv = in_val(w, 1);
    int64_t group = gir_attr_int(w->n, "group", 1), pad[4] = {0, 0, 0, 0};
    int64_t stride[2] = {1, 1}, dil[2] = {1, 1}, oc = wv->type.dims[0];
    int np = 0, ns = 0, nd = 0, depthwise, i8 = x->type.dtype == GIR_DT_I8;
    const int64_t *p = gir_attr_ints(w->n, "pads", &np), *s = gir_attr_ints(w->n, "strides", &ns);
    const int64_t *d = gir_attr_ints(w->n, "dilations", &nd);
    MlirValue ins[3], y;
    MlirNamedAttribute a[4];
    int na = 3;
    if (x->type.rank != 4 || wv->kind != GIR_VAL_CONST)
        return wr_fail(w, "only 2-D convolutions with constant weights have a TOSA form here");
    if (strcmp(gir_attr_string(w->n, "auto_pad", "NOTSET"), "NOTSET") != 0)
        return wr_fail(w, "auto_pad is not written (run shape inference's explicit pads)");
    depthwise = group > 1 && group == x->type.dims[1] && wv->type.dims[1] == 1;
    if (group != 1 && !depthwise && i8)
        return wr_fail(w, "an int8 grouped convolution (group %lld) is not written",
                       (long long)group);
    tosa_pads(p, np, pad);
    if (ns == 2)
        memcpy(stride, s, sizeof stride);
    if (nd == 2)
        memcpy(dil, d, sizeof dil);
    if (group != 1 && !depthwise)
        return grouped_conv(w, group, pad, stride, dil);
    ins[0] = get(w, w->n->in[0]);
    ins[1] = conv_weights(w, wv, depthwise);
    if (w->n->nin > 2 && w->n->in[2] >= 0) {
        ins[2] = get(w, w->n->in[2]);
    } else {
        void *z = calloc((size_t)oc, 4);
        if (!z)
            gir_die("out of memory");
        ins[2] = const_raw(w, &oc, 1, i8 ? GIR_DT_I32 : GIR_DT_F32, z);
        free(z);
    }
    a[0] = named(w, "pad", a_i64s(w, pad, 4));
    a[1] = named(w, "stride", a_i64s(w, stride, 2));
    a[2] = named(w, "dilation", a_i64s(w, dil, 2));
    if (i8) {
        a[na++] = named(w, "quantization_info",
                        mlirAttributeParseGet(w->ctx, mlirStringRefCreateFromCString(
                                                          "#tosa.conv_quant<input_zp = 0, "
                                                          "weight_zp = 0>")));
        y = op(w, depthwise ? "tosa.depthwise_conv2d" : "tosa.conv2d", ins, 3,
               out_type(w, GIR_DT_I32), a, na);
        set_out(w, conv_requant(w, y, oc, 4));
        return 0;
    }
    y = op(w, depthwise ? "tosa.depthwise_conv2d" : "tosa.conv2d", ins, 3,
           out_type(w, GIR_DT_F32), a, na);
    set_out(w, fused_act(w, y, out_type(w, GIR_DT_F32), 4));
    return 0;
}

/* ---- the other ops ------------------------------------------------------------------ */

/* A requantize attribute of one element (ints, as the quantizer writes it,
 * or an int) into *v; -1 + error naming it when absent. */
static int rq_one(Wr *w, const char *name, int64_t *v)
{
    const GirAttr *a = gir_attr(w->n, name);
    if (a && a->kind == GIR_ATTR_INTS && a->n == 1)
        *v = a->ints[0];
    else if (a && a->kind == GIR_ATTR_INT)
        *v = a->i;
    else
        return wr_fail(w, "attribute %s must be one integer", name);
    return 0;
}

/* kiln's int8 AveragePool / GlobalAveragePool: the int32 window sum (zero
 * padding counted) requantized by rq_m, rq_shift.  TOSA's avg_pool2d on i8
 * divides with its own rounding, so the sum is a depthwise_conv2d with
 * weights of 1 and the requantization a rescale: the same bytes as
 * requant.h (read back, it is an int8 depthwise Conv). */
static int avgpool_i8(Wr *w, const int64_t *kernel, const int64_t *stride, const int64_t *pad)
{
    const GirValue *x = in_val(w, 0);
    int64_t C = x->type.dims[1], wd[4] = {kernel[0], kernel[1], C, 1}, one[2] = {1, 1}, c;
    int64_t m = 0, sh = 0, n = kernel[0] * kernel[1] * C, *mm, *ss;
    int8_t *ones;
    int32_t *zero;
    MlirNamedAttribute a[4];
    MlirValue ins[3], acc;
    if (rq_one(w, "rq_m", &m) < 0 || rq_one(w, "rq_shift", &sh) < 0)
        return -1;
    ones = malloc((size_t)n);
    zero = calloc((size_t)C, sizeof(int32_t));
    if (!ones || !zero)
        gir_die("out of memory");
    memset(ones, 1, (size_t)n);
    ins[0] = get(w, w->n->in[0]);
    ins[1] = const_raw(w, wd, 4, GIR_DT_I8, ones);
    ins[2] = const_raw(w, &C, 1, GIR_DT_I32, zero);
    free(ones);
    free(zero);
    a[0] = named(w, "pad", a_i64s(w, pad, 4));
    a[1] = named(w, "stride", a_i64s(w, stride, 2));
    a[2] = named(w, "dilation", a_i64s(w, one, 2));
    a[3] = named(w, "quantization_info",
                 mlirAttributeParseGet(w->ctx, mlirStringRefCreateFromCString(
                                                   "#tosa.conv_quant<input_zp = 0, weight_zp = 0>")));
    acc = op(w, "tosa.depthwise_conv2d", ins, 3, out_type(w, GIR_DT_I32), a, 4);
    mm = malloc(sizeof(int64_t) * (size_t)C);
    ss = malloc(sizeof(int64_t) * (size_t)C);
    if (!mm || !ss)
        gir_die("out of memory");
    for (c = 0; c < C; c++) {
        mm[c] = m;
        ss[c] = sh;
    }
    set_out(w, rescale(w, acc, out_type(w, GIR_DT_I8), mm, ss, (int)C, 1, out_val(w)->scale));
    free(mm);
    free(ss);
    return 0;
}

static int wr_pool(Wr *w)
{
    const GirValue *x = in_val(w, 0);
    int np = 0, nk = 0, ns = 0, global = w->n->op == GIR_OP_GLOBALAVGPOOL;
    int avg = w->n->op != GIR_OP_MAXPOOL;
    const int64_t *p = gir_attr_ints(w->n, "pads", &np), *k = gir_attr_ints(w->n, "kernel_shape", &nk);
    const int64_t *s = gir_attr_ints(w->n, "strides", &ns);
    int64_t pad[4] = {0, 0, 0, 0}, kernel[2], stride[2] = {1, 1};
    MlirNamedAttribute a[3];
    MlirValue in;
    if (x->type.rank != 4)
        return wr_fail(w, "only 2-D pooling has a TOSA op");
    if (avg && x->type.dtype != GIR_DT_I8 && gir_attr_int(w->n, "count_include_pad", 0))
        return wr_fail(w, "TOSA's avg_pool2d leaves padding out of the count");
    if (gir_attr_int(w->n, "ceil_mode", 0) ||
        strcmp(gir_attr_string(w->n, "auto_pad", "NOTSET"), "NOTSET") != 0)
        return wr_fail(w, "ceil_mode and auto_pad are not written");
    if (global) {
        kernel[0] = x->type.dims[2];
        kernel[1] = x->type.dims[3];
    } else {
        if (nk != 2)
            return wr_fail(w, "kernel_shape must have 2 entries");
        kernel[0] = k[0];
        kernel[1] = k[1];
        tosa_pads(p, np, pad);
        if (ns == 2)
            memcpy(stride, s, sizeof stride);
    }
    if (avg && x->type.dtype == GIR_DT_I8)
        return avgpool_i8(w, kernel, stride, pad);
    a[0] = named(w, "kernel", a_i64s(w, kernel, 2));
    a[1] = named(w, "stride", a_i64s(w, stride, 2));
    a[2] = named(w, "pad", a_i64s(w, pad, 4));
    in = get(w, w->n->in[0]);
    set_out(w, op_q(w, avg ? "tosa.avg_pool2d" : "tosa.max_pool2d", &in, 1,
                    out_type(w, x->type.dtype), a, 3, out_val(w)->scale));
    return 0;
}

/* Operand i broadcast to the output's rank (ONNX aligns ranks right; TOSA
 * wants them equal): a lower-rank value is reshaped with leading 1s, then
 * put in NHWC order when the output is 4-D. */
static MlirValue operand_at_rank(Wr *w, int i, int rank)
{
    const GirValue *v = in_val(w, i);
    int64_t d[GIR_MAX_RANK] = {0};
    int k, lead = rank - v->type.rank;
    MlirValue x;
    MlirNamedAttribute a;
    if (lead <= 0)
        return get(w, w->n->in[i]);
    for (k = 0; k < rank; k++)
        d[k] = k < lead ? 1 : v->type.dims[k - lead];
    if (v->kind == GIR_VAL_CONST) {
        GirType t = v->type;
        t.rank = rank;
        memcpy(t.dims, d, sizeof d);
        if (rank == 4) {
            int64_t od[4];
            void *p = permuted(&t, NCHW_AT, v->data, od);
            x = const_raw(w, od, 4, t.dtype, p);
            free(p);
            return x;
        }
        return const_raw(w, d, rank, t.dtype, v->data);
    }
    x = get(w, w->n->in[i]);
    if (rank == 4) {
        int64_t nd[4];
        for (k = 0; k < 4; k++)
            nd[k] = d[NCHW_AT[k]];
        memcpy(d, nd, sizeof nd);
    }
    a = named(w, "new_shape", a_i64s(w, d, rank));
    return op(w, "tosa.reshape", &x, 1, dims_type(w, d, rank, v->type.dtype), &a, 1);
}

static int wr_binary(Wr *w)
{
    const GirValue *y = out_val(w);
    MlirType t = out_type(w, y->type.dtype);
    MlirValue a = operand_at_rank(w, 0, y->type.rank), b = operand_at_rank(w, 1, y->type.rank);
    switch (w->n->op) {
    case GIR_OP_ADD: set_out(w, binary(w, "tosa.add", a, b, t)); break;
    case GIR_OP_SUB: set_out(w, binary(w, "tosa.sub", a, b, t)); break;
    case GIR_OP_MUL: set_out(w, mul(w, a, b, t)); break;
    case GIR_OP_MAX: set_out(w, binary(w, "tosa.maximum", a, b, t)); break;
    case GIR_OP_MIN: set_out(w, binary(w, "tosa.minimum", a, b, t)); break;
    case GIR_OP_DIV: set_out(w, mul(w, a, op(w, "tosa.reciprocal", &b, 1, t, NULL, 0), t)); break;
    default: gir_unreachable();
    }
    return 0;
}

/* The int8 Add: each operand times its multiplier in i32, added, rescaled. */
static int wr_add_i8(Wr *w)
{
    int na = 0, nb = 0, ns = 0;
    const int64_t *pa = gir_attr_ints(w->n, "rq_m_a", &na), *pb = gir_attr_ints(w->n, "rq_m_b", &nb);
    const int64_t *ps = gir_attr_ints(w->n, "rq_shift", &ns);
    int64_t one = 1, two = 2, wa, wb, sh;
    const GirValue *y = out_val(w);
    MlirType t32 = out_type(w, GIR_DT_I32);
    MlirValue a, b, s;
    if (na != 1 || nb != 1 || ns != 1)
        return wr_fail(w, "an i8 Add needs rq_m_a, rq_m_b and rq_shift of one element each");
    if (in_val(w, 0)->type.rank != y->type.rank || in_val(w, 1)->type.rank != y->type.rank)
        return wr_fail(w, "the int8 Add is written for operands of the output's rank");
    /* x * m exactly: multiplier 4m with TOSA's smallest shift, 2 */
    wa = pa[0] * 4;
    wb = pb[0] * 4;
    sh = ps[0];
    a = rescale(w, get(w, w->n->in[0]), t32, &wa, &two, 1, 0, 0);
    b = rescale(w, get(w, w->n->in[1]), t32, &wb, &two, 1, 0, 0);
    s = binary(w, "tosa.add", a, b, t32);
    set_out(w, rescale(w, s, out_type(w, GIR_DT_I8), &one, &sh, 1, 0, y->scale));
    return 0;
}

static int wr_unary(Wr *w, const char *name)
{
    MlirValue x = get(w, w->n->in[0]);
    set_out(w, op(w, name, &x, 1, out_type(w, out_val(w)->type.dtype), NULL, 0));
    return 0;
}

/* A scalar f32 from constant input i or attribute name; dflt when absent. */
static int clip_bound(Wr *w, int i, float dflt, float *v)
{
    const GirValue *c;
    *v = dflt;
    if (w->n->nin <= i || w->n->in[i] < 0)
        return 0;
    c = in_val(w, i);
    if (c->kind != GIR_VAL_CONST || c->type.dtype != GIR_DT_F32 || gir_type_numel(&c->type) != 1)
        return wr_fail(w, "Clip bounds must be f32 scalar constants");
    *v = *(const float *)c->data;
    return 0;
}

static int wr_act(Wr *w)
{
    const GirValue *y = out_val(w);
    MlirType t = out_type(w, GIR_DT_F32);
    MlirValue x = get(w, w->n->in[0]);
    float lo, hi;
    if (in_val(w, 0)->type.dtype != GIR_DT_F32)
        return wr_fail(w, "written for f32 only");
    switch (w->n->op) {
    case GIR_OP_RELU: set_out(w, clamp_f32(w, x, t, 0, 3.40282347e38f)); return 0;
    case GIR_OP_LEAKYRELU:
        set_out(w, leaky(w, x, t, y->type.rank, gir_attr_float(w->n, "alpha", 0.01f)));
        return 0;
    default:
        if (clip_bound(w, 1, -3.40282347e38f, &lo) < 0 || clip_bound(w, 2, 3.40282347e38f, &hi) < 0)
            return -1;
        set_out(w, clamp_f32(w, x, t, lo, hi));
        return 0;
    }
}

/* BatchNormalization as kiln computes it: ((x - mean) * inv) * scale + bias. */
static int wr_batchnorm(Wr *w)
{
    const GirValue *x = in_val(w, 0);
    int64_t C = x->type.dims[1], d[4] = {1, 1, 1, C}, c;
    float eps = gir_attr_float(w->n, "epsilon", 1e-5f), *inv;
    const float *var = in_val(w, 4)->data;
    MlirType t = out_type(w, GIR_DT_F32);
    MlirValue y, k[4];
    int i;
    if (x->type.rank != 4 || x->type.dtype != GIR_DT_F32)
        return wr_fail(w, "written for 4-D f32 input only");
    for (i = 1; i < 5; i++)
        if (in_val(w, i)->kind != GIR_VAL_CONST)
            return wr_fail(w, "input %d must be a constant", i);
    inv = malloc(sizeof(float) * (size_t)C);
    if (!inv)
        gir_die("out of memory");
    for (c = 0; c < C; c++)
        inv[c] = 1.0f / sqrtf(var[c] + eps);
    k[0] = const_raw(w, d, 4, GIR_DT_F32, in_val(w, 3)->data);
    k[1] = const_raw(w, d, 4, GIR_DT_F32, inv);
    k[2] = const_raw(w, d, 4, GIR_DT_F32, in_val(w, 1)->data);
    k[3] = const_raw(w, d, 4, GIR_DT_F32, in_val(w, 2)->data);
    free(inv);
    y = binary(w, "tosa.sub", get(w, w->n->in[0]), k[0], t);
    y = mul(w, y, k[1], t);
    y = mul(w, y, k[2], t);
    set_out(w, binary(w, "tosa.add", y, k[3], t));
    return 0;
}

static int wr_concat(Wr *w)
{
    const GirValue *y = out_val(w);
    int64_t axis = gir_attr_int(w->n, "axis", 0);
    MlirValue ins[64];
    MlirNamedAttribute a;
    int i;
    if (axis < 0)
        axis += y->type.rank;
    for (i = 0; i < w->n->nin; i++)
        ins[i] = get(w, w->n->in[i]);
    if (y->type.rank == 4)
        axis = NHWC_POS[axis];
    a = named(w, "axis", a_i64(w, axis));
    set_out(w, op_q(w, "tosa.concat", ins, w->n->nin, out_type(w, y->type.dtype), &a, 1, y->scale));
    return 0;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Resize of the two spatial axes.  Nearest, asymmetric, floor by an integer
 * factor s: TOSA scale 2s/2 with offset -s picks floor(o / s) (its nearest
 * rounds half up, so the offset shifts by half a step).  Linear (f32),
 * asymmetric or half_pixel: scale n/d = out/in (both even), offset 0 or
 * (d - n) / 2, which puts TOSA's sample coordinates where kiln's are. */
static int wr_resize(Wr *w)
{
    const GirValue *x = in_val(w, 0), *y = out_val(w);
    const char *mode = gir_attr_string(w->n, "mode", "nearest");
    const char *ctm = gir_attr_string(w->n, "coordinate_transformation_mode", "half_pixel");
    int linear = strcmp(mode, "linear") == 0, half = strcmp(ctm, "half_pixel") == 0;
    int64_t sc[4], off[2], border[2];
    MlirNamedAttribute a[4];
    MlirValue in;
    int d;
    if (linear ? (x->type.dtype != GIR_DT_F32 || (!half && strcmp(ctm, "asymmetric") != 0))
               : (strcmp(mode, "nearest") != 0 || strcmp(ctm, "asymmetric") != 0 ||
                  strcmp(gir_attr_string(w->n, "nearest_mode", "round_prefer_floor"), "floor") != 0))
        return wr_fail(w, "written: nearest (asymmetric, floor) and f32 linear (asymmetric or "
                       "half_pixel) resizes");
    if (x->type.rank != 4 || y->type.dims[0] != x->type.dims[0] || y->type.dims[1] != x->type.dims[1])
        return wr_fail(w, "only spatial resizes of 4-D values are written");
    for (d = 0; d < 2; d++) {
        int64_t isz = x->type.dims[2 + d], osz = y->type.dims[2 + d], s = osz / isz, g;
        if (linear) {
            g = gcd64(osz, isz);
            sc[2 * d] = 2 * osz / g;
            sc[2 * d + 1] = 2 * isz / g;
            off[d] = half ? (sc[2 * d + 1] - sc[2 * d]) / 2 : 0;
        } else {
            if (s < 1 || s * isz != osz)
                return wr_fail(w, "only integer nearest upscales are written (%lld -> %lld)",
                               (long long)isz, (long long)osz);
            sc[2 * d] = 2 * s;
            sc[2 * d + 1] = 2;
            off[d] = -s;
        }
        border[d] = (osz - 1) * sc[2 * d + 1] - (isz - 1) * sc[2 * d] + off[d];
    }
    a[0] = named(w, "scale", a_i64s(w, sc, 4));
    a[1] = named(w, "offset", a_i64s(w, off, 2));
    a[2] = named(w, "border", a_i64s(w, border, 2));
    a[3] = named(w, "mode", mlirStringAttrGet(w->ctx, mlirStringRefCreateFromCString(
                                                           linear ? "BILINEAR" : "NEAREST_NEIGHBOR")));
    in = get(w, w->n->in[0]);
    set_out(w, op_q(w, "tosa.resize", &in, 1, out_type(w, x->type.dtype), a, 4, y->scale));
    return 0;
}

/* Reshape, Flatten, Squeeze, Unsqueeze: a tosa.reshape in NCHW data order,
 * with transposes where input or output is 4-D. */
static int wr_reshape(Wr *w)
{
    const GirValue *x = in_val(w, 0), *y = out_val(w);
    MlirValue v = get(w, w->n->in[0]);
    MlirNamedAttribute a;
    if (x->type.rank == 4) {
        int64_t nd[4];
        int k;
        for (k = 0; k < 4; k++)
            nd[k] = x->type.dims[NCHW_AT[k]];
        v = transpose(w, v, nd, 4, x->type.dtype, NHWC_POS, x->scale);
    }
    a = named(w, "new_shape", a_i64s(w, y->type.dims, y->type.rank));
    v = op_q(w, "tosa.reshape", &v, 1, tensor_type(w, &y->type, y->type.dtype, 0), &a, 1, y->scale);
    if (y->type.rank == 4)
        v = transpose(w, v, y->type.dims, 4, y->type.dtype, NCHW_AT, y->scale);
    set_out(w, v);
    return 0;
}

static int wr_transpose(Wr *w)
{
    const GirValue *x = in_val(w, 0), *y = out_val(w);
    int np, rk = x->type.rank, p[GIR_MAX_RANK], q[GIR_MAX_RANK], i, identity = 1;
    const int64_t *perm = gir_attr_ints(w->n, "perm", &np);
    int64_t xd[GIR_MAX_RANK];
    for (i = 0; i < rk; i++)
        p[i] = perm && np == rk ? (int)perm[i] : rk - 1 - i;
    /* TOSA out (NHWC when 4-D) axis i = kiln out axis a = kiln in axis p[a] = TOSA in axis */
    for (i = 0; i < rk; i++) {
        int a = rk == 4 ? NCHW_AT[i] : i, b = p[a];
        q[i] = x->type.rank == 4 ? NHWC_POS[b] : b;
        identity &= q[i] == i;
    }
    for (i = 0; i < rk; i++)
        xd[i] = rk == 4 ? x->type.dims[NCHW_AT[i]] : x->type.dims[i];
    if (identity) {
        set_out(w, get(w, w->n->in[0]));
        return 0;
    }
    set_out(w, transpose(w, get(w, w->n->in[0]), xd, rk, x->type.dtype, q, y->scale));
    return 0;
}

/* Fully connected: Gemm (transA 0, alpha = beta = 1) or 2-D MatMul with
 * constant weights, fp32 or int8 (i8 x i8 giving i32 with zero points 0,
 * then the int8 Conv's requantization: rescale per output channel, the
 * leaky select, the clamp). */
static int wr_gemm(Wr *w)
{
    const GirValue *a = in_val(w, 0), *b = in_val(w, 1), *y = out_val(w);
    int transb = (int)gir_attr_int(w->n, "transB", 0), i8 = a->type.dtype == GIR_DT_I8;
    int64_t n = y->type.dims[1], k = a->type.dims[1], wd[2] = {n, k};
    GirDType wt_dt = i8 ? GIR_DT_I8 : GIR_DT_F32, bias_dt = i8 ? GIR_DT_I32 : GIR_DT_F32;
    static const int swap[2] = {1, 0};
    MlirValue ins[3], acc;
    MlirNamedAttribute qi;
    void *wt;
    if (a->type.rank != 2 || b->type.rank != 2 || b->kind != GIR_VAL_CONST ||
        (a->type.dtype != GIR_DT_F32 && !i8) || b->type.dtype != wt_dt ||
        gir_attr_int(w->n, "transA", 0) || gir_attr_float(w->n, "alpha", 1) != 1 ||
        gir_attr_float(w->n, "beta", 1) != 1)
        return wr_fail(w, "only f32 or int8 [M,K] x constant [K,N] (+ bias) is written");
    if (transb) {
        ins[1] = get(w, w->n->in[1]);
    } else {
        int64_t od[2];
        wt = permuted(&b->type, swap, b->data, od);
        ins[1] = const_raw(w, wd, 2, wt_dt, wt);
        free(wt);
    }
    if (w->n->op == GIR_OP_GEMM && w->n->nin > 2 && w->n->in[2] >= 0) {
        const GirValue *c = in_val(w, 2);
        if (c->kind != GIR_VAL_CONST || gir_type_numel(&c->type) != n || c->type.dtype != bias_dt)
            return wr_fail(w, "the bias must be a constant of %lld %s values", (long long)n,
                           gir_dtype_name(bias_dt));
        ins[2] = const_raw(w, &n, 1, bias_dt, c->data);
    } else {
        void *z = calloc((size_t)n, 4);
        if (!z)
            gir_die("out of memory");
        ins[2] = const_raw(w, &n, 1, bias_dt, z);
        free(z);
    }
    ins[0] = get(w, w->n->in[0]);
    if (!i8) {
        set_out(w, fused_act(w, op(w, "tosa.fully_connected", ins, 3, out_type(w, GIR_DT_F32), NULL, 0),
                             out_type(w, GIR_DT_F32), 2));
        return 0;
    }
    qi = named(w, "quantization_info",
               mlirAttributeParseGet(w->ctx, mlirStringRefCreateFromCString(
                                                 "#tosa.conv_quant<input_zp = 0, weight_zp = 0>")));
    acc = op(w, "tosa.fully_connected", ins, 3, out_type(w, GIR_DT_I32), &qi, 1);
    set_out(w, conv_requant(w, acc, n, 2));
    return 0;
}

/* Darknet's [yolo] head: sigmoid on every channel but w and h of each anchor. */
static int wr_yolo(Wr *w)
{
    const GirValue *x = in_val(w, 0);
    int64_t C = x->type.dims[1], per = 5 + gir_attr_int(w->n, "classes", 0), d[4] = {1, 1, 1, C}, c;
    uint8_t *mask = malloc((size_t)C);
    MlirType t = out_type(w, GIR_DT_F32);
    MlirValue in = get(w, w->n->in[0]), ins[3];
    if (!mask)
        gir_die("out of memory");
    for (c = 0; c < C; c++)
        mask[c] = c % per != 2 && c % per != 3;
    ins[0] = const_raw(w, d, 4, GIR_DT_BOOL, mask);
    free(mask);
    ins[1] = op(w, "tosa.sigmoid", &in, 1, t, NULL, 0);
    ins[2] = in;
    set_out(w, op(w, "tosa.select", ins, 3, t, NULL, 0));
    return 0;
}

/* A scalar scale constant (QuantizeLinear / DequantizeLinear input 1). */
static int scale_of(Wr *w, float *s)
{
    const GirValue *c = in_val(w, 1);
    if (c->kind != GIR_VAL_CONST || c->type.dtype != GIR_DT_F32 || gir_type_numel(&c->type) != 1)
        return wr_fail(w, "the scale must be one f32 constant");
    if (w->n->nin > 2 && w->n->in[2] >= 0) {
        const GirValue *z = in_val(w, 2);
        int64_t i, n = gir_type_numel(&z->type);
        if (z->kind != GIR_VAL_CONST)
            return wr_fail(w, "the zero point must be a constant");
        for (i = 0; i < n * (int64_t)gir_dtype_size(z->type.dtype); i++)
            if (((const uint8_t *)z->data)[i])
                return wr_fail(w, "zero points other than 0 are not written");
    }
    *s = *(const float *)c->data;
    return 0;
}

static int wr_quantize(Wr *w)
{
    const GirValue *y = out_val(w);
    float s;
    MlirValue x, m;
    if (scale_of(w, &s) < 0)
        return -1;
    if (y->type.dtype != GIR_DT_I8)
        return wr_fail(w, "only i8 quantization is written");
    x = get(w, w->n->in[0]);
    m = mul(w, x, const_f32(w, y->type.rank, 1.0f / s), out_type(w, GIR_DT_F32));
    set_out(w, op_q(w, "tosa.cast", &m, 1, out_type(w, GIR_DT_I8), NULL, 0, s));
    return 0;
}

/* A DequantizeLinear per axis 1 (a head conv's per-channel scales, zero
 * points 0): the cast to f32, then mul by the scales as a constant of ones
 * but along the channel axis (NHWC's last when 4-D), which TOSA broadcasts.  1 when n is one, 0 when not, -1 + error. */
static int wr_dequantize_axis(Wr *w)
{
    const GirValue *y = out_val(w), *c = in_val(w, 1);
    int64_t d[GIR_MAX_RANK] = {1, 1, 1, 1, 1, 1, 1, 1};
    MlirValue x, f;
    if (c->kind != GIR_VAL_CONST || c->type.dtype != GIR_DT_F32 || c->type.rank != 1 ||
        gir_type_numel(&c->type) < 2)
        return 0;
    if (gir_attr_int(w->n, "axis", 1) != 1 || y->type.rank < 2 || y->type.dims[1] != c->type.dims[0])
        return wr_fail(w, "per-axis scales are written along axis 1 only");
    if (w->n->nin > 2 && w->n->in[2] >= 0) {
        /* scale_of's zero-point check, on a scalar stand-in */
        const GirValue *z = in_val(w, 2);
        int64_t i, n = gir_type_numel(&z->type);
        for (i = 0; z->kind == GIR_VAL_CONST && i < n * (int64_t)gir_dtype_size(z->type.dtype); i++)
            if (((const uint8_t *)z->data)[i])
                return wr_fail(w, "zero points other than 0 are not written");
        if (z->kind != GIR_VAL_CONST)
            return wr_fail(w, "the zero point must be a constant");
    }
    d[y->type.rank == 4 ? NHWC_POS[1] : 1] = c->type.dims[0]; /* 4-D values are NHWC */
    x = get(w, w->n->in[0]);
    f = op(w, "tosa.cast", &x, 1, out_type(w, GIR_DT_F32), NULL, 0);
    set_out(w, mul(w, f, const_raw(w, d, y->type.rank, GIR_DT_F32, c->data),
                   out_type(w, GIR_DT_F32)));
    return 1;
}

static int wr_dequantize(Wr *w)
{
    const GirValue *y = out_val(w);
    float s;
    MlirValue x, c;
    int r = wr_dequantize_axis(w);
    if (r != 0)
        return r < 0 ? -1 : 0;
    if (scale_of(w, &s) < 0)
        return -1;
    x = get(w, w->n->in[0]);
    c = op(w, "tosa.cast", &x, 1, out_type(w, GIR_DT_F32), NULL, 0);
    set_out(w, mul(w, c, const_f32(w, y->type.rank, s), out_type(w, GIR_DT_F32)));
    return 0;
}

static int wr_requantize(Wr *w)
{
    int64_t m, s;
    if (rq_one(w, "rq_m", &m) < 0 || rq_one(w, "rq_shift", &s) < 0)
        return -1;
    set_out(w, rescale(w, get(w, w->n->in[0]), out_type(w, GIR_DT_I8), &m, &s, 1, 0,
                       out_val(w)->scale));
    return 0;
}

static int wr_pad(Wr *w)
{
    const GirValue *x = in_val(w, 0), *p = in_val(w, 1), *y = out_val(w);
    int rk = x->type.rank, d;
    int32_t pad[2 * GIR_MAX_RANK];
    int64_t pd[2] = {rk, 2};
    MlirValue ins[3];
    int nin = 2;
    if (strcmp(gir_attr_string(w->n, "mode", "constant"), "constant") != 0)
        return wr_fail(w, "only constant padding is written");
    if (p->kind != GIR_VAL_CONST || gir_type_numel(&p->type) != 2 * rk ||
        (w->n->nin > 3 && w->n->in[3] >= 0))
        return wr_fail(w, "pads must be a constant for every axis");
    for (d = 0; d < rk; d++) {
        int a = rk == 4 ? NCHW_AT[d] : d;
        pad[2 * d] = (int32_t)((const int64_t *)p->data)[a];
        pad[2 * d + 1] = (int32_t)((const int64_t *)p->data)[rk + a];
    }
    ins[0] = get(w, w->n->in[0]);
    ins[1] = const_raw(w, pd, 2, GIR_DT_I32, pad);
    if (w->n->nin > 2 && w->n->in[2] >= 0) {
        const GirValue *c = in_val(w, 2);
        if (c->kind != GIR_VAL_CONST)
            return wr_fail(w, "the pad value must be a constant");
        ins[2] = const_raw(w, NULL, 0, c->type.dtype, c->data);
        nin = 3;
    }
    set_out(w, op_q(w, "tosa.pad", ins, nin, out_type(w, y->type.dtype), NULL, 0, y->scale));
    return 0;
}

/* The TOSA dims of kiln value v (4-D: NHWC). */
static void tosa_dims(const GirValue *v, int64_t *d)
{
    int i;
    for (i = 0; i < v->type.rank; i++)
        d[i] = v->type.rank == 4 ? v->type.dims[NCHW_AT[i]] : v->type.dims[i];
}

/* An i64 (or i32) constant input's k-th element into *v; -1 if not one. */
static int const_elem(Wr *w, int i, int64_t k, int64_t *v)
{
    const GirValue *c;
    if (w->n->nin <= i || w->n->in[i] < 0)
        return -1;
    c = in_val(w, i);
    if (c->kind != GIR_VAL_CONST || k >= gir_type_numel(&c->type))
        return -1;
    if (c->type.dtype == GIR_DT_I64)
        *v = ((const int64_t *)c->data)[k];
    else if (c->type.dtype == GIR_DT_I32)
        *v = ((const int32_t *)c->data)[k];
    else
        return -1;
    return 0;
}

/* Every step-th element along TOSA axis a of x (dims d, rank rk), from
 * the first: slice to n * step, reshape that axis into (n, step), take
 * index 0 of the new axis, reshape back.  d is updated. */
static MlirValue subsample(Wr *w, MlirValue x, int64_t *d, int rk, int a, int64_t step,
                           GirDType dt, float scale)
{
    int64_t n = (d[a] + step - 1) / step, st[GIR_MAX_RANK + 1] = {0}, sz[GIR_MAX_RANK + 1];
    int64_t sp[GIR_MAX_RANK + 1];
    MlirNamedAttribute at;
    int i;
    memcpy(sz, d, sizeof(int64_t) * (size_t)rk);
    if (d[a] % step != 0) {
        /* pad the axis up to n * step so that it splits evenly */
        int32_t pad[2 * GIR_MAX_RANK] = {0};
        int64_t pd[2] = {rk, 2};
        MlirValue ins[2];
        pad[2 * a + 1] = (int32_t)(n * step - d[a]);
        sz[a] = n * step;
        ins[0] = x;
        ins[1] = const_raw(w, pd, 2, GIR_DT_I32, pad);
        x = op_q(w, "tosa.pad", ins, 2, dims_type(w, sz, rk, dt), NULL, 0, scale);
    }
    for (i = 0; i <= rk; i++)
        sp[i] = i < a ? sz[i] : i == a ? n : i == a + 1 ? step : sz[i - 1];
    at = named(w, "new_shape", a_i64s(w, sp, rk + 1));
    x = op_q(w, "tosa.reshape", &x, 1, dims_type(w, sp, rk + 1, dt), &at, 1, scale);
    sp[a + 1] = 1;
    x = slice(w, x, rk + 1, st, sp, dt, scale);
    d[a] = n;
    at = named(w, "new_shape", a_i64s(w, d, rk));
    return op_q(w, "tosa.reshape", &x, 1, dims_type(w, d, rk, dt), &at, 1, scale);
}

/* Slice with constant starts, axes and positive steps: a tosa.slice, and a
 * subsample per axis whose step is above 1 (TOSA has no strided slice). */
static int wr_slice(Wr *w)
{
    const GirValue *x = in_val(w, 0), *y = out_val(w);
    int64_t start[GIR_MAX_RANK] = {0}, steps[GIR_MAX_RANK], st[GIR_MAX_RANK], sz[GIR_MAX_RANK];
    int64_t n = gir_type_numel(&in_val(w, 1)->type), k, a, s, step = 1;
    int rk = x->type.rank, i;
    MlirValue v;
    if (rk > 5)
        return wr_fail(w, "rank %d: only up to 5-D slices are written", rk);
    for (i = 0; i < rk; i++)
        steps[i] = 1;
    for (k = 0; k < n; k++) {
        if (const_elem(w, 1, k, &s) < 0)
            return wr_fail(w, "starts must be a constant");
        a = k;
        if (w->n->nin > 3 && w->n->in[3] >= 0 && const_elem(w, 3, k, &a) < 0)
            return wr_fail(w, "axes must be a constant");
        if (w->n->nin > 4 && w->n->in[4] >= 0 && (const_elem(w, 4, k, &step) < 0 || step < 1))
            return wr_fail(w, "steps must be positive constants");
        if (a < 0)
            a += rk;
        if (a < 0 || a >= rk)
            return wr_fail(w, "axis %lld out of range", (long long)a);
        if (s < 0)
            s += x->type.dims[a];
        s = s < 0 ? 0 : s > x->type.dims[a] ? x->type.dims[a] : s;
        start[a] = s;
        steps[a] = step;
    }
    /* first the span from start covering (size - 1) * step + 1 elements */
    for (i = 0; i < rk; i++) {
        int ka = rk == 4 ? NCHW_AT[i] : i;
        st[i] = start[ka];
        sz[i] = (y->type.dims[ka] - 1) * steps[ka] + 1;
        if (y->type.dims[ka] == 0)
            return wr_fail(w, "an empty slice is not written");
    }
    v = slice(w, get(w, w->n->in[0]), rk, st, sz, x->type.dtype, y->scale);
    for (i = 0; i < rk; i++) {
        int ka = rk == 4 ? NCHW_AT[i] : i;
        if (steps[ka] > 1)
            v = subsample(w, v, sz, rk, i, steps[ka], x->type.dtype, y->scale);
    }
    set_out(w, v);
    return 0;
}

/* Split: one tosa.slice per output, along the axis, at the outputs' sizes. */
static int wr_split(Wr *w)
{
    const GirValue *x = in_val(w, 0);
    int64_t axis = gir_attr_int(w->n, "axis", 0), off = 0, st[GIR_MAX_RANK] = {0}, sz[GIR_MAX_RANK];
    int rk = x->type.rank, k, ta;
    MlirValue in = get(w, w->n->in[0]);
    if (axis < 0)
        axis += rk;
    ta = rk == 4 ? NHWC_POS[axis] : (int)axis;
    for (k = 0; k < w->n->nout; k++) {
        const GirValue *y = &w->g->vals[w->n->out[k]];
        tosa_dims(y, sz);
        st[ta] = off;
        w->tv[w->n->out[k]] = slice(w, in, rk, st, sz, x->type.dtype, y->scale);
        off += y->type.dims[axis];
    }
    return 0;
}

/* Softmax along one axis: exp(x - max) * reciprocal(sum). */
static int wr_softmax(Wr *w)
{
    const GirValue *x = in_val(w, 0);
    int64_t axis = gir_attr_int(w->n, "axis", -1), rd[GIR_MAX_RANK];
    int rk = x->type.rank, ta;
    MlirType t = out_type(w, GIR_DT_F32), tr;
    MlirValue in = get(w, w->n->in[0]), mx, e, sm;
    MlirNamedAttribute a;
    if (gir_attr_int(w->n, "coerce2d", 0) || x->type.dtype != GIR_DT_F32)
        return wr_fail(w, "only the f32 single-axis Softmax (opset 13) is written");
    if (rk > 4)
        return wr_fail(w, "rank %d: TOSA's reductions take up to 4-D tensors", rk);
    if (axis < 0)
        axis += rk;
    ta = rk == 4 ? NHWC_POS[axis] : (int)axis;
    tosa_dims(x, rd);
    rd[ta] = 1;
    tr = dims_type(w, rd, rk, GIR_DT_F32);
    a = named(w, "axis", a_i64(w, ta));
    mx = op(w, "tosa.reduce_max", &in, 1, tr, &a, 1);
    e = op(w, "tosa.exp", (MlirValue[]){binary(w, "tosa.sub", in, mx, t)}, 1, t, NULL, 0);
    sm = op(w, "tosa.reduce_sum", &e, 1, tr, &a, 1);
    set_out(w, mul(w, e, op(w, "tosa.reciprocal", &sm, 1, tr, NULL, 0), t));
    return 0;
}

/* Write node n; -1 + error naming it when it has no TOSA form here. */
static int write_node(Wr *w, const GirNode *n)
{
    int i8 = n->nin > 0 && n->in[0] >= 0 && w->g->vals[n->in[0]].type.dtype == GIR_DT_I8;
    int k;
    w->n = n;
    if (gir_node_is_nhwc(n))
        return wr_fail(w, "layout=\"NHWC\" nodes are not written (export before the nhwc pass)");
    if (n->nout != 1 && n->op != GIR_OP_SPLIT)
        return wr_fail(w, "%d outputs: no TOSA form here", n->nout);
    for (k = 0; k < n->nin; k++)
        if (n->in[k] >= 0 && !gir_type_is_static(&w->g->vals[n->in[k]].type))
            return wr_fail(w, "input %d has no static shape", k);
    for (k = 0; k < n->nin + n->nout; k++) {
        int v = k < n->nin ? n->in[k] : n->out[k - n->nin];
        if (v >= 0 && w->g->vals[v].zp)
            return wr_fail(w, "value '%s' has zero point %d (kiln quantize --unsigned): no TOSA "
                           "form yet; quantize with --unsigned off", w->g->vals[v].name,
                           w->g->vals[v].zp);
    }
    switch (n->op) {
    case GIR_OP_CONV: return wr_conv(w);
    case GIR_OP_MAXPOOL:
    case GIR_OP_AVGPOOL:
    case GIR_OP_GLOBALAVGPOOL: return wr_pool(w);
    case GIR_OP_ADD:
        if (i8)
            return wr_add_i8(w);
        return wr_binary(w);
    case GIR_OP_SUB:
    case GIR_OP_MUL:
    case GIR_OP_DIV:
    case GIR_OP_MAX:
    case GIR_OP_MIN:
        if (i8 || n->nin != 2)
            return wr_fail(w, "written for two f32 operands only");
        return wr_binary(w);
    case GIR_OP_RELU:
    case GIR_OP_LEAKYRELU:
    case GIR_OP_CLIP: return wr_act(w);
    case GIR_OP_SIGMOID: return wr_unary(w, "tosa.sigmoid");
    case GIR_OP_TANH: return wr_unary(w, "tosa.tanh");
    case GIR_OP_EXP: return wr_unary(w, "tosa.exp");
    case GIR_OP_LOG: return wr_unary(w, "tosa.log");
    case GIR_OP_ABS: return wr_unary(w, "tosa.abs");
    case GIR_OP_NEG: return wr_unary(w, "tosa.negate");
    case GIR_OP_FLOOR: return wr_unary(w, "tosa.floor");
    case GIR_OP_CEIL: return wr_unary(w, "tosa.ceil");
    case GIR_OP_RECIPROCAL: return wr_unary(w, "tosa.reciprocal");
    case GIR_OP_BATCHNORM: return wr_batchnorm(w);
    case GIR_OP_CONCAT: return wr_concat(w);
    case GIR_OP_RESIZE: return wr_resize(w);
    case GIR_OP_RESHAPE:
    case GIR_OP_FLATTEN:
    case GIR_OP_SQUEEZE:
    case GIR_OP_UNSQUEEZE: return wr_reshape(w);
    case GIR_OP_TRANSPOSE: return wr_transpose(w);
    case GIR_OP_IDENTITY: set_out(w, get(w, n->in[0])); return 0;
    case GIR_OP_GEMM:
    case GIR_OP_MATMUL: return wr_gemm(w);
    case GIR_OP_YOLO: return wr_yolo(w);
    case GIR_OP_QUANTIZELINEAR: return wr_quantize(w);
    case GIR_OP_DEQUANTIZELINEAR: return wr_dequantize(w);
    case GIR_OP_REQUANTIZE: return wr_requantize(w);
    case GIR_OP_PAD: return wr_pad(w);
    case GIR_OP_SLICE: return wr_slice(w);
    case GIR_OP_SPLIT: return wr_split(w);
    case GIR_OP_SOFTMAX: return wr_softmax(w);
    default: return wr_fail(w, "no TOSA form in kiln's writer (docs/tosa.md lists the ops)");
    }
}

/* ---- the module ------------------------------------------------------------------ */

/* The function: arguments (4-D transposed to NHWC), the nodes, the return. */
static int write_func(Wr *w, MlirModule m)
{
    const GirGraph *g = w->g;
    MlirType *it = malloc(sizeof(MlirType) * (size_t)(g->ninput + 1));
    MlirType *ot = malloc(sizeof(MlirType) * (size_t)(g->noutput + 1));
    MlirLocation *locs = malloc(sizeof(MlirLocation) * (size_t)(g->ninput + 1));
    MlirValue *rets = malloc(sizeof(MlirValue) * (size_t)(g->noutput + 1));
    MlirOperationState st;
    MlirRegion reg;
    MlirNamedAttribute fa[2];
    MlirOperation fn, ret;
    int i, rc = 0;
    if (!it || !ot || !locs || !rets)
        gir_die("out of memory");
    for (i = 0; i < g->ninput; i++) {
        const GirValue *v = &g->vals[g->inputs[i]];
        if (!gir_type_is_static(&v->type) || mlirTypeIsNull(elem_type(w, v->type.dtype))) {
            rc = gir_error_at(w->e, gir_loc_file(w->path, -1),
                              "input '%s' needs a static shape and a TOSA element type", v->name);
            goto out;
        }
        it[i] = tensor_type(w, &v->type, v->type.dtype, 0);
        locs[i] = w->loc;
    }
    for (i = 0; i < g->noutput; i++)
        ot[i] = tensor_type(w, &g->vals[g->outputs[i]].type, g->vals[g->outputs[i]].type.dtype, 0);
    w->body = mlirBlockCreate(g->ninput, it, locs);
    reg = mlirRegionCreate();
    mlirRegionAppendOwnedBlock(reg, w->body);
    for (i = 0; i < g->ninput; i++) {
        const GirValue *v = &g->vals[g->inputs[i]];
        MlirValue a = mlirBlockGetArgument(w->body, i);
        w->tv[g->inputs[i]] =
            v->type.rank == 4 ? transpose(w, a, v->type.dims, 4, v->type.dtype, NCHW_AT, 0) : a;
    }
    for (i = 0; i < g->nnode && rc == 0; i++)
        rc = write_node(w, &g->nodes[i]);
    w->n = NULL;
    for (i = 0; i < g->noutput && rc == 0; i++) {
        const GirValue *v = &g->vals[g->outputs[i]];
        int64_t nd[4];
        int k;
        rets[i] = get(w, g->outputs[i]);
        if (v->type.rank == 4) {
            for (k = 0; k < 4; k++)
                nd[k] = v->type.dims[NCHW_AT[k]];
            rets[i] = transpose(w, rets[i], nd, 4, v->type.dtype, NHWC_POS, v->scale);
        }
    }
    if (rc == 0) {
        st = mlirOperationStateGet(mlirStringRefCreateFromCString("func.return"), w->loc);
        mlirOperationStateAddOperands(&st, g->noutput, rets);
        ret = mlirOperationCreate(&st);
        mlirBlockAppendOwnedOperation(w->body, ret);
    }
    st = mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), w->loc);
    fa[0] = named(w, "sym_name", mlirStringAttrGet(w->ctx, mlirStringRefCreateFromCString("main")));
    fa[1] = named(w, "function_type",
                  mlirTypeAttrGet(mlirFunctionTypeGet(w->ctx, g->ninput, it, g->noutput, ot)));
    mlirOperationStateAddAttributes(&st, 2, fa);
    mlirOperationStateAddOwnedRegions(&st, 1, &reg);
    fn = mlirOperationCreate(&st);
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(m), fn);
out:
    free(it);
    free(ot);
    free(locs);
    free(rets);
    return rc;
}

int fe_write_tosa(const GirGraph *g, const char *path, GirError *e)
{
    Wr w;
    MlirDialectRegistry reg;
    MlirModule m;
    Text t = {NULL, 0, 0, 0};
    int rc = 0;
    memset(&w, 0, sizeof w);
    w.g = g;
    w.path = path;
    w.e = e;
    w.ctx = mlirContextCreate();
    reg = mlirDialectRegistryCreate();
    mlirRegisterAllDialects(reg);
    mlirContextAppendDialectRegistry(w.ctx, reg);
    mlirDialectRegistryDestroy(reg);
    mlirContextLoadAllAvailableDialects(w.ctx);
    mlirContextAttachDiagnosticHandler(w.ctx, on_diag, &w, NULL);
    w.loc = mlirLocationUnknownGet(w.ctx);
    w.tv = calloc((size_t)g->nval + 1, sizeof *w.tv);
    if (!w.tv)
        gir_die("out of memory");
    m = mlirModuleCreateEmpty(w.loc);
    rc = write_func(&w, m);
    if (rc == 0 && !mlirOperationVerify(mlirModuleGetOperation(m)))
        rc = gir_error_at(e, gir_loc_file(path, -1),
                          "the TOSA module kiln built does not verify (a bug in kiln's "
                          "writer): %s", w.diag[0] ? w.diag : "no message");
    if (rc == 0) {
        const void *parts[1];
        size_t lens[1];
        mlirOperationPrint(mlirModuleGetOperation(m), text_put, &t);
        text_put(mlirStringRefCreate("\n", 1), &t);
        if (t.oom)
            gir_die("out of memory");
        parts[0] = t.buf;
        lens[0] = t.len;
        rc = gir_write_atomic(path, parts, lens, 1, e);
    }
    free(t.buf);
    free(w.tv);
    mlirModuleDestroy(m);
    mlirContextDestroy(w.ctx);
    return rc;
}
