/*
 * The TOSA reader: an .mlir file holding one func.func of TOSA ops (MLIR 16's
 * dialect) becomes a graph, through the MLIR C API.  docs/tosa.md lists the
 * ops and how each maps.
 *
 * The text is parsed and verified by MLIR itself; its first diagnostic
 * becomes the error, as FILE:LINE:COL: message.  Ops are then read
 * generically: by name, attributes, operand and result types.
 *
 * Layout.  TOSA feature maps are NHWC and conv weights OHWI; kiln's are NCHW
 * and OIHW.  Each 4-D TOSA value is held in kiln either as it is or in NCHW
 * order (flag nchw of its entry).  Ops that care (conv, pools, resize) take
 * and give NCHW; elementwise ops keep the order of their inputs; ops that
 * index axes (concat, pad, slice, reduce, transpose) have their axes
 * remapped.  Where an order must change, a constant is transposed in place
 * and anything else gets one Transpose node, made once per value.  So a
 * network fed NHWC gets one Transpose after each input and one before each
 * output; the function's own signature is kept.
 *
 * int8.  Quantized TOSA maps onto kiln's int8 form (docs/quant.md) by
 * pattern: conv2d / depthwise_conv2d on i8 giving i32, then rescale to i8
 * (and a clamp, or greater_equal + a second rescale + select for a leaky
 * slope) is one Conv with rq_m_pos, rq_m_neg, rq_shift; rescale i8 -> i8 is
 * Requantize; mul by a constant then cast f32 -> i8 is QuantizeLinear; cast
 * i8 -> f32 then mul by a constant is DequantizeLinear; rescale i8 -> i32 of
 * two operands, add, rescale to i8 is the int8 Add.  These patterns are kept
 * pending (an entry kind other than E_VAL) until a use decides them.  An i8
 * result carries the scale of a `kiln.scale` attribute on its op when there
 * is one (kiln's writer puts it there).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/Dialect/Quant.h>
#include <mlir-c/IR.h>
#include <mlir-c/RegisterEverything.h>

#include "frontend/frontend.h"
#include "frontend/tensor_proto.h"
#include "graphir/requant.h"

/* Largest .mlir file read (YOLOv3 weights as hex are about 130 MB). */
#define TOSA_TEXT_MAX ((size_t)1 << 30)

/* NCHW axis i holds NHWC axis NHWC_OF[i]; NHWC axis a is NCHW axis NCHW_OF[a]. */
static const int NHWC_OF[4] = {0, 3, 1, 2};
static const int NCHW_OF[4] = {0, 2, 3, 1};

/* What a TOSA value stands for in kiln. */
typedef enum {
    E_NONE,  /* not defined yet */
    E_VAL,   /* a kiln value */
    E_ACC,   /* i32 accumulator of an int8 conv, not emitted yet */
    E_RACC,  /* that accumulator rescaled to i8: the int8 Conv, not emitted yet */
    E_SIGN,  /* acc >= 0 of an accumulator */
    E_DEQ,   /* cast i8 -> f32, waiting for its scale */
    E_QMUL,  /* f32 x times a constant, waiting for a cast to i8 */
    E_WIDE,  /* i8 x rescaled exactly to i32 (x * m), for the int8 Add */
    E_SUM,   /* the sum of two E_WIDE, for the int8 Add */
} EntKind;

/* One TOSA value's kiln side. */
typedef struct {
    MlirValue key;    /* the TOSA value */
    EntKind kind;     /* what it stands for */
    int id;           /* E_VAL: kiln value id; E_DEQ: the i8 value; E_QMUL: x */
    int nchw;         /* E_VAL: a 4-D NHWC value held in NCHW order */
    int other;        /* E_VAL: the same value in the other order, -1 until made */
    int conv;         /* E_ACC, E_RACC, E_SIGN: pending conv index */
    int64_t *m_pos;   /* E_RACC: per output channel */
    int64_t *m_neg;   /* E_RACC: per output channel */
    int64_t *shift;   /* E_RACC: per output channel */
    int act_min;      /* E_RACC: saturation bounds */
    int act_max;      /* E_RACC */
    float scale;      /* i8 results: kiln.scale of the op, 0 if none */
    float factor;     /* E_QMUL: the constant */
    MlirValue src;    /* E_WIDE, E_SUM: the (first) i8 TOSA operand */
    MlirValue src_b;  /* E_SUM: the second i8 TOSA operand */
    int64_t wm;       /* E_WIDE, E_SUM: the first operand times wm exactly */
    int64_t bm;       /* E_SUM: the second operand's multiplier */
    GirLoc loc;       /* the op that made it */
    const char *name; /* name for the kiln value made from it */
} Ent;

/* An int8 conv whose requantization is not read yet. */
typedef struct {
    int x, w, bias;      /* kiln values: input (NCHW), weights OIHW, bias or -1 */
    int64_t pads[4];     /* ONNX order: top, left, bottom, right */
    int64_t strides[2];  /* y, x */
    int64_t dil[2];      /* y, x */
    int64_t group;       /* 1, or channels for a depthwise conv */
    int64_t oc;          /* output channels */
    GirLoc loc;          /* the conv op */
    const char *name;    /* name of the conv op */
    int emitted;         /* 1 once a Conv node was made */
    int gemm;            /* 1: a fully_connected, emitted as Gemm (w [OC, IC], transB) */
} PendConv;

/* The reader's state. */
typedef struct {
    GirGraph *g;          /* graph being built */
    const char *path;     /* the .mlir file */
    GirError *e;          /* where the error goes */
    Ent *ents;            /* value entries (open hashing on key.ptr) */
    size_t cap;           /* entries' capacity, a power of two */
    size_t n;             /* entries used */
    PendConv *convs;      /* pending int8 convs */
    int nconv, capconv;   /* count and capacity of convs */
    int col;              /* column of the op being read (loc has its line) */
    MlirOperation op;     /* op being read, for errors */
    const char *opname;   /* its name */
    GirLoc loc;           /* its place */
    int uniq;             /* counter for made-up names */
} Rd;

/* The first error MLIR reports while parsing or verifying. */
typedef struct {
    char msg[700]; /* the message */
    char loc[300]; /* its location as MLIR prints it */
    int have;      /* 1 once one is recorded */
} Diag;

/* ---- MLIR plumbing --------------------------------------------------------------- */

/* A growing text buffer for MLIR's print callbacks (cut at size - 1). */
typedef struct {
    char *buf;  /* the text */
    size_t len; /* bytes in it */
    size_t size; /* capacity */
} Sink;

static void sink_put(MlirStringRef s, void *u)
{
    Sink *k = u;
    size_t n = s.length;
    if (k->len + 1 >= k->size)
        return;
    if (n > k->size - 1 - k->len)
        n = k->size - 1 - k->len;
    memcpy(k->buf + k->len, s.data, n);
    k->len += n;
    k->buf[k->len] = 0;
}

static MlirLogicalResult on_diag(MlirDiagnostic d, void *u)
{
    Diag *dg = u;
    Sink m = {dg->msg, 0, sizeof dg->msg}, l = {dg->loc, 0, sizeof dg->loc};
    if (dg->have || mlirDiagnosticGetSeverity(d) != MlirDiagnosticError)
        return mlirLogicalResultSuccess();
    dg->msg[0] = dg->loc[0] = 0;
    mlirDiagnosticPrint(d, sink_put, &m);
    mlirLocationPrint(mlirDiagnosticGetLocation(d), sink_put, &l);
    dg->have = 1;
    return mlirLogicalResultSuccess();
}

/* LINE and COL of the last ":LINE:COL" in an MLIR location text; 0 if none. */
static void loc_line_col(const char *s, int *line, int *col)
{
    const char *p;
    *line = *col = 0;
    for (p = s; *p; p++) {
        int l, c, k = 0;
        if (*p == ':' && sscanf(p, ":%d:%d%n", &l, &c, &k) == 2 && k > 0) {
            *line = l;
            *col = c;
        }
    }
}

/* An MLIR context with every dialect registered and diagnostics into dg. */
static MlirContext tosa_context(Diag *dg)
{
    MlirContext c = mlirContextCreate();
    MlirDialectRegistry r = mlirDialectRegistryCreate();
    mlirRegisterAllDialects(r);
    mlirContextAppendDialectRegistry(c, r);
    mlirDialectRegistryDestroy(r);
    mlirContextLoadAllAvailableDialects(c);
    mlirContextAttachDiagnosticHandler(c, on_diag, dg, NULL);
    return c;
}

static const char *str_of(MlirStringRef s, char *buf, size_t size)
{
    size_t n = s.length < size - 1 ? s.length : size - 1;
    memcpy(buf, s.data, n);
    buf[n] = 0;
    return buf;
}

/* ---- errors ---------------------------------------------------------------------- */

static int rd_fail(Rd *r, const char *fmt, ...) GIR_PRINTF(2, 3);

/* "FILE:LINE: tosa.op: message" about the op being read. */
static int rd_fail(Rd *r, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->loc.line > 0 && r->col > 0)
        return gir_error_at(r->e, gir_loc_none(), "%s:%d:%d: %s%s%s", r->path, r->loc.line,
                            r->col, r->opname ? r->opname : "", r->opname ? ": " : "", msg);
    if (r->opname)
        return gir_error_at(r->e, r->loc, "%s: %s", r->opname, msg);
    return gir_error_at(r->e, r->loc, "%s", msg);
}

/* ---- value entries --------------------------------------------------------------- */

static size_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

/* Rehash into twice the room (entries live in the graph's arena). */
static void ent_grow(Rd *r)
{
    size_t cap = r->cap ? 2 * r->cap : 256, i, j;
    Ent *old = r->ents, *nw = gir_arena_alloc(r->g->arena, cap * sizeof *nw);
    for (j = 0; j < r->cap; j++) {
        if (!old[j].key.ptr)
            continue;
        for (i = hash_ptr(old[j].key.ptr) & (cap - 1); nw[i].key.ptr; i = (i + 1) & (cap - 1))
            ;
        nw[i] = old[j];
    }
    r->ents = nw;
    r->cap = cap;
}

/* The entry of v, made (E_NONE) when absent.  Only making one can move the
 * table, and read_body makes each op's result entry before its reader runs,
 * so the pointers a reader holds stay valid. */
static Ent *ent(Rd *r, MlirValue v)
{
    size_t i;
    if (r->cap) {
        for (i = hash_ptr(v.ptr) & (r->cap - 1); r->ents[i].key.ptr; i = (i + 1) & (r->cap - 1))
            if (r->ents[i].key.ptr == v.ptr)
                return &r->ents[i];
    }
    if (2 * (r->n + 1) > r->cap)
        ent_grow(r);
    for (i = hash_ptr(v.ptr) & (r->cap - 1); r->ents[i].key.ptr; i = (i + 1) & (r->cap - 1))
        ;
    memset(&r->ents[i], 0, sizeof r->ents[i]);
    r->ents[i].key = v;
    r->ents[i].other = -1;
    r->ents[i].id = -1;
    r->n++;
    return &r->ents[i];
}

/* ---- types and attributes -------------------------------------------------------- */

/* The kiln element type of an MLIR element type; UNDEF when kiln has none. */
static GirDType dtype_of(MlirType t)
{
    if (mlirTypeIsAQuantizedType(t))
        return dtype_of(mlirQuantizedTypeGetStorageType(t));
    if (mlirTypeIsAF32(t))
        return GIR_DT_F32;
    if (mlirTypeIsAF16(t))
        return GIR_DT_F16;
    if (mlirTypeIsAF64(t))
        return GIR_DT_F64;
    if (mlirTypeIsAInteger(t)) {
        unsigned w = mlirIntegerTypeGetWidth(t);
        int u = mlirIntegerTypeIsUnsigned(t);
        switch (w) {
        case 1: return GIR_DT_BOOL;
        case 8: return u ? GIR_DT_U8 : GIR_DT_I8;
        case 16: return u ? GIR_DT_U16 : GIR_DT_I16;
        case 32: return u ? GIR_DT_U32 : GIR_DT_I32;
        case 64: return u ? GIR_DT_U64 : GIR_DT_I64;
        default: return GIR_DT_UNDEF;
        }
    }
    return GIR_DT_UNDEF;
}

/* A quantized element type must be symmetric (zero points 0) for the int8
 * form; per-axis scales are for weights, whose scales the rescale holds. */
static int check_quant(Rd *r, MlirType et, const char *what, const char *text)
{
    intptr_t i, n;
    if (mlirTypeIsAUniformQuantizedType(et)) {
        if (mlirUniformQuantizedTypeGetZeroPoint(et) != 0)
            return rd_fail(r, "%s has type %s: zero point %lld; kiln's int8 form is symmetric",
                           what, text, (long long)mlirUniformQuantizedTypeGetZeroPoint(et));
    } else if (mlirTypeIsAUniformQuantizedPerAxisType(et)) {
        n = mlirUniformQuantizedPerAxisTypeGetNumDims(et);
        for (i = 0; i < n; i++)
            if (mlirUniformQuantizedPerAxisTypeGetZeroPoint(et, i) != 0)
                return rd_fail(r, "%s has type %s: zero point %lld on axis entry %d; kiln's "
                               "int8 form is symmetric", what, text,
                               (long long)mlirUniformQuantizedPerAxisTypeGetZeroPoint(et, i),
                               (int)i);
    } else if (mlirTypeIsAQuantizedType(et)) {
        return rd_fail(r, "%s has type %s: only uniform quantized types are read", what, text);
    }
    return 0;
}

/* The static tensor type of v into *t; -1 + error naming what when it is not
 * a ranked tensor of static shape and a kiln element type. */
static int type_of(Rd *r, MlirType mt, GirType *t, const char *what)
{
    char buf[128];
    Sink s = {buf, 0, sizeof buf};
    int d;
    buf[0] = 0;
    mlirTypePrint(mt, sink_put, &s);
    memset(t, 0, sizeof *t);
    if (!mlirTypeIsARankedTensor(mt))
        return rd_fail(r, "%s has type %s: kiln needs a ranked tensor", what, buf);
    t->rank = (int)mlirShapedTypeGetRank(mt);
    if (t->rank > GIR_MAX_RANK)
        return rd_fail(r, "%s has type %s: rank above %d", what, buf, GIR_MAX_RANK);
    for (d = 0; d < t->rank; d++) {
        if (mlirShapedTypeIsDynamicDim(mt, d))
            return rd_fail(r, "%s has type %s: dimension %d is dynamic; kiln needs static "
                           "shapes", what, buf, d);
        t->dims[d] = mlirShapedTypeGetDimSize(mt, d);
    }
    t->dtype = dtype_of(mlirShapedTypeGetElementType(mt));
    if (t->dtype == GIR_DT_UNDEF)
        return rd_fail(r, "%s has type %s: element type not supported", what, buf);
    return check_quant(r, mlirShapedTypeGetElementType(mt), what, buf);
}

/* The scale of a value of a !quant.uniform element type; 0 for any other. */
static float qscale(MlirValue v)
{
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsARankedTensor(t))
        return 0;
    t = mlirShapedTypeGetElementType(t);
    return mlirTypeIsAUniformQuantizedType(t) ? (float)mlirUniformQuantizedTypeGetScale(t) : 0;
}

static MlirAttribute attr(Rd *r, const char *name)
{
    return mlirOperationGetAttributeByName(r->op, mlirStringRefCreateFromCString(name));
}

/* An integer array attribute (array<i64: ...> or array<i32: ...>) of n
 * elements into v; -1 + error when missing or of another size. */
static int ints_attr(Rd *r, const char *name, int64_t *v, int n)
{
    MlirAttribute a = attr(r, name);
    int i, k;
    if (mlirAttributeIsNull(a))
        return rd_fail(r, "attribute '%s' missing", name);
    if (mlirAttributeIsADenseI64Array(a) || mlirAttributeIsADenseI32Array(a) ||
        mlirAttributeIsADenseI8Array(a)) {
        k = (int)mlirDenseArrayGetNumElements(a);
        if (k != n)
            return rd_fail(r, "attribute '%s' has %d elements, expected %d", name, k, n);
        for (i = 0; i < n; i++)
            v[i] = mlirAttributeIsADenseI64Array(a)   ? mlirDenseI64ArrayGetElement(a, i)
                   : mlirAttributeIsADenseI32Array(a) ? mlirDenseI32ArrayGetElement(a, i)
                                                      : mlirDenseI8ArrayGetElement(a, i);
        return 0;
    }
    return rd_fail(r, "attribute '%s' is not an integer array", name);
}

/* An integer (or bool) attribute; dflt when absent. */
static int64_t int_attr(Rd *r, const char *name, int64_t dflt)
{
    MlirAttribute a = attr(r, name);
    if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a))
        return mlirIntegerAttrGetValueSInt(a);
    if (!mlirAttributeIsNull(a) && mlirAttributeIsABool(a))
        return mlirBoolAttrGetValue(a);
    return dflt;
}

static double float_attr(Rd *r, const char *name, double dflt)
{
    MlirAttribute a = attr(r, name);
    if (!mlirAttributeIsNull(a) && mlirAttributeIsAFloat(a))
        return mlirFloatAttrGetValueDouble(a);
    return dflt;
}

/* Zero points of a quantization_info attribute must all be 0 (kiln's int8
 * is symmetric): read from its printed form, "input_zp = N, ...". */
static int check_zero_points(Rd *r)
{
    MlirAttribute a = attr(r, "quantization_info");
    char buf[256], *p;
    Sink s = {buf, 0, sizeof buf};
    if (mlirAttributeIsNull(a))
        return 0;
    buf[0] = 0;
    mlirAttributePrint(a, sink_put, &s);
    for (p = strstr(buf, "_zp = "); p; p = strstr(p + 1, "_zp = "))
        if (atoll(p + 6) != 0)
            return rd_fail(r, "quantization_info %s: kiln's int8 form has zero points 0", buf);
    return 0;
}

/* ---- building kiln values and nodes ---------------------------------------------- */

static GirType undef_type(void)
{
    GirType t;
    memset(&t, 0, sizeof t);
    t.dtype = GIR_DT_UNDEF;
    t.rank = -1;
    return t;
}

/* A fresh value or node name from base. */
static const char *fresh(Rd *r, const char *base)
{
    const char *s = base;
    while (gir_find_value(r->g, s) >= 0)
        s = gir_arena_printf(r->g->arena, "%s_%d", base, r->uniq++);
    return s;
}

/* The default name of the op being read: its op name and line. */
static const char *op_base(Rd *r)
{
    const char *dot = strchr(r->opname, '.');
    return gir_arena_printf(r->g->arena, "%s_%d", dot ? dot + 1 : r->opname, r->loc.line);
}

/* A node of op k on ins with one output of dtype dt; returns the output id. */
static int node1(Rd *r, GirOp k, const int *ins, int nin, const char *name)
{
    GirType t = undef_type();
    const char *nm = fresh(r, name ? name : op_base(r));
    int out = gir_add_value(r->g, nm, GIR_VAL_NODE, t, r->loc);
    gir_add_node(r->g, k, nm, ins, nin, &out, 1, r->loc);
    return out;
}

static int last_node(Rd *r)
{
    return r->g->nnode - 1;
}

static int const_i64(Rd *r, const char *base, const int64_t *v, int n)
{
    GirType t;
    memset(&t, 0, sizeof t);
    t.dtype = GIR_DT_I64;
    t.rank = 1;
    t.dims[0] = n;
    return gir_add_const(r->g, fresh(r, base), t, v, r->loc);
}

static int const_f32_scalar(Rd *r, const char *base, float v)
{
    GirType t;
    memset(&t, 0, sizeof t);
    t.dtype = GIR_DT_F32;
    return gir_add_const(r->g, fresh(r, base), t, &v, r->loc);
}

/* A kiln constant's data permuted: out dims[i] = in dims[perm[i]]. */
static void permute_data(const GirType *in, const int *perm, const void *src, void *dst)
{
    size_t es = gir_dtype_size(in->dtype);
    int64_t n = gir_type_numel(in), i, idx[GIR_MAX_RANK] = {0}, st[GIR_MAX_RANK], od[GIR_MAX_RANK];
    int rk = in->rank, d;
    for (d = rk - 1, st[rk > 0 ? rk - 1 : 0] = 1; d >= 0; d--)
        st[d] = d == rk - 1 ? 1 : st[d + 1] * in->dims[d + 1];
    for (d = 0; d < rk; d++)
        od[d] = in->dims[perm[d]];
    for (i = 0; i < n; i++) {
        int64_t off = 0;
        for (d = 0; d < rk; d++)
            off += idx[d] * st[perm[d]];
        memcpy((char *)dst + (size_t)i * es, (const char *)src + (size_t)off * es, es);
        for (d = rk - 1; d >= 0; d--) {
            if (++idx[d] < od[d])
                break;
            idx[d] = 0;
        }
    }
}

/* Value id permuted by perm: a new constant for a constant, else a
 * Transpose node. */
static int permute_value(Rd *r, int id, const int *perm, const char *suffix)
{
    GirValue *v = &r->g->vals[id];
    int64_t p[GIR_MAX_RANK];
    int d, out;
    if (v->kind == GIR_VAL_CONST) {
        GirType t = v->type;
        int64_t bytes = gir_type_bytes(&t);
        void *buf = malloc((size_t)(bytes > 0 ? bytes : 1));
        int c;
        if (!buf)
            gir_die("out of memory");
        for (d = 0; d < t.rank; d++)
            t.dims[d] = v->type.dims[perm[d]];
        permute_data(&v->type, perm, v->data, buf);
        c = gir_add_const(r->g, fresh(r, gir_arena_printf(r->g->arena, "%s%s", v->name, suffix)),
                          t, buf, v->loc);
        r->g->vals[c].scale = r->g->vals[id].scale;
        free(buf);
        return c;
    }
    for (d = 0; d < v->type.rank || d < 4; d++)
        p[d] = perm[d];
    out = node1(r, GIR_OP_TRANSPOSE, &id, 1,
                gir_arena_printf(r->g->arena, "%s%s", r->g->vals[id].name, suffix));
    gir_set_attr_ints(r->g, last_node(r), "perm", p, 4);
    r->g->vals[out].scale = r->g->vals[id].scale;
    return out;
}

static int materialize(Rd *r, Ent *x);

/* The kiln value of TOSA value v; for a 4-D value in NCHW order when
 * nchw is 1, as it is when 0, in whichever order it is when -1. */
static int val(Rd *r, MlirValue v, int nchw)
{
    Ent *x = ent(r, v);
    if (x->kind != E_VAL && materialize(r, x) < 0)
        return -1;
    if (nchw < 0 || nchw == x->nchw)
        return x->id;
    if (x->other < 0)
        x->other = permute_value(r, x->id, nchw ? NHWC_OF : NCHW_OF, nchw ? "_nchw" : "_nhwc");
    return x->other;
}

/* Define TOSA value v as kiln value id (nchw: in NCHW order). */
static void def(Rd *r, MlirValue v, int id, int nchw)
{
    Ent *x = ent(r, v);
    if (r->g->vals[id].scale == 0 && r->g->vals[id].kind != GIR_VAL_CONST)
        r->g->vals[id].scale = qscale(v);
    x->kind = E_VAL;
    x->id = id;
    x->nchw = nchw;
    x->other = -1;
}

static int rank_of(MlirValue v)
{
    MlirType t = mlirValueGetType(v);
    return mlirTypeIsARankedTensor(t) ? (int)mlirShapedTypeGetRank(t) : -1;
}

static MlirValue operand(Rd *r, int i)
{
    return mlirOperationGetOperand(r->op, i);
}

static MlirValue result(Rd *r, int i)
{
    return mlirOperationGetResult(r->op, i);
}

/* The result's static type; -1 + error when it has none kiln takes. */
static int result_type(Rd *r, int i, GirType *t)
{
    return type_of(r, mlirValueGetType(result(r, i)), t, "the result");
}

/* The kiln constant behind operand i, or -1 (no error) when it is not one. */
static int const_operand(Rd *r, int i)
{
    Ent *x = ent(r, operand(r, i));
    if (x->kind != E_VAL || r->g->vals[x->id].kind != GIR_VAL_CONST)
        return -1;
    return x->id;
}

/* ---- pending int8 patterns ------------------------------------------------------- */

/* Emit the int8 Conv of an E_RACC entry. */
static int emit_conv_i8(Rd *r, Ent *x)
{
    PendConv *c = &r->convs[x->conv];
    int ins[3] = {c->x, c->w, c->bias}, out, node;
    GirLoc save = r->loc;
    if (c->emitted)
        return rd_fail(r, "the i32 result of the conv at line %d is requantized twice; "
                       "kiln's int8 Conv has one output", c->loc.line);
    r->loc = c->loc;
    out = node1(r, c->gemm ? GIR_OP_GEMM : GIR_OP_CONV, ins, c->bias >= 0 ? 3 : 2,
                x->name ? x->name : c->name);
    r->loc = save;
    node = last_node(r);
    if (c->gemm) {
        gir_set_attr_int(r->g, node, "transB", 1);
    } else {
        gir_set_attr_ints(r->g, node, "dilations", c->dil, 2);
        gir_set_attr_int(r->g, node, "group", c->group);
        gir_set_attr_ints(r->g, node, "pads", c->pads, 4);
        gir_set_attr_ints(r->g, node, "strides", c->strides, 2);
    }
    gir_set_attr_ints(r->g, node, "rq_m_pos", x->m_pos, (int)c->oc);
    gir_set_attr_ints(r->g, node, "rq_m_neg", x->m_neg, (int)c->oc);
    gir_set_attr_ints(r->g, node, "rq_shift", x->shift, (int)c->oc);
    if (x->scale == 0)
        x->scale = qscale(x->key);
    if (x->act_min != -128)
        gir_set_attr_int(r->g, node, "act_min", x->act_min);
    if (x->act_max != 127)
        gir_set_attr_int(r->g, node, "act_max", x->act_max);
    r->g->vals[out].scale = x->scale;
    c->emitted = 1;
    x->kind = E_VAL;
    x->id = out;
    x->nchw = !c->gemm;
    x->other = -1;
    return 0;
}

/* Turn a pending entry into a kiln value where one use needs it. */
static int materialize(Rd *r, Ent *x)
{
    int ins[3], out;
    switch (x->kind) {
    case E_VAL:
        return 0;
    case E_RACC:
        return emit_conv_i8(r, x);
    case E_DEQ:
        ins[0] = x->id;
        ins[1] = const_f32_scalar(r, "dq_scale", 1.0f);
        out = node1(r, GIR_OP_DEQUANTIZELINEAR, ins, 2, x->name);
        break;
    case E_QMUL:
        ins[0] = x->id;
        ins[1] = const_f32_scalar(r, "factor", x->factor);
        out = node1(r, GIR_OP_MUL, ins, 2, x->name);
        break;
    case E_NONE:
        return rd_fail(r, "operand used before it is defined");
    case E_ACC:
        return rd_fail(r, "the i32 accumulator of the int8 conv at line %d must go to "
                       "tosa.rescale (to i8) for kiln's int8 form",
                       r->convs[x->conv].loc.line);
    case E_SIGN:
        return rd_fail(r, "a comparison of an int8 conv's accumulator must feed tosa.select "
                       "of its two rescales");
    default:
        return rd_fail(r, "an i8 -> i32 rescale must feed tosa.add and a rescale back to i8 "
                       "for kiln's int8 Add");
    }
    x->kind = E_VAL;
    x->id = out;
    x->nchw = x->nchw && rank_of(x->key) == 4;
    x->other = -1;
    return 0;
}

/* ---- op readers ------------------------------------------------------------------ */

typedef int (*OpFn)(Rd *r);

/* Bits of a scalar element type; 0 for any other type. */
static int elem_bits(MlirType t)
{
    if (mlirTypeIsAInteger(t))
        return (int)mlirIntegerTypeGetWidth(t);
    if (mlirTypeIsAF64(t))
        return 64;
    if (mlirTypeIsAF32(t))
        return 32;
    if (mlirTypeIsAF16(t) || mlirTypeIsABF16(t))
        return 16;
    return 0;
}

static int rd_const(Rd *r)
{
    MlirAttribute a = attr(r, "value");
    GirType t;
    int64_t n, i;
    size_t es;
    void *buf;
    int id;
    if (result_type(r, 0, &t) < 0)
        return -1;
    if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a))
        return rd_fail(r, "value is not a dense elements attribute (dense_resource and "
                       "sparse constants are not read)");
    n = gir_type_numel(&t);
    es = gir_dtype_size(t.dtype);
    if (mlirElementsAttrGetNumElements(a) != n ||
        elem_bits(mlirShapedTypeGetElementType(mlirAttributeGetType(a))) !=
            (t.dtype == GIR_DT_BOOL ? 1 : (int)es * 8))
        return rd_fail(r, "the value's type is not the result's type");
    buf = calloc((size_t)(n > 0 ? n : 1), es);
    if (!buf)
        gir_die("out of memory");
    if (t.dtype == GIR_DT_BOOL) {
        for (i = 0; i < n; i++)
            ((uint8_t *)buf)[i] = mlirDenseElementsAttrGetBoolValue(
                a, mlirDenseElementsAttrIsSplat(a) ? 0 : (intptr_t)i);
    } else if (n > 0) {
        const char *raw = mlirDenseElementsAttrGetRawData(a);
        if (!raw) {
            free(buf);
            return rd_fail(r, "the value holds no data");
        }
        if (mlirDenseElementsAttrIsSplat(a)) {
            for (i = 0; i < n; i++)
                memcpy((char *)buf + (size_t)i * es, raw, es);
        } else {
            memcpy(buf, raw, (size_t)n * es);
        }
    }
    id = gir_add_const(r->g, fresh(r, op_base(r)), t, buf, r->loc);
    free(buf);
    r->g->vals[id].scale = (float)float_attr(r, "kiln.scale", 0);
    def(r, result(r, 0), id, 0);
    return 0;
}

/* Weights of conv2d (OHWI -> OIHW) or depthwise_conv2d ([KH,KW,C,M] ->
 * [C*M,1,KH,KW]) as a kiln constant; *oc gets the output channels. */
static int conv_weights(Rd *r, int depthwise, int64_t *oc)
{
    static const int ohwi_to_oihw[4] = {0, 3, 1, 2};
    static const int hwcm_to_cmhw[4] = {2, 3, 0, 1};
    int w = const_operand(r, 1), k;
    GirValue *v;
    if (w < 0)
        return rd_fail(r, "the weights must be a tosa.const");
    v = &r->g->vals[w];
    if (v->type.rank != 4)
        return rd_fail(r, "weights of rank %d, expected 4", v->type.rank);
    k = permute_value(r, w, depthwise ? hwcm_to_cmhw : ohwi_to_oihw, "_oihw");
    if (depthwise) {
        GirValue *p = &r->g->vals[k];
        int64_t c = p->type.dims[0], m = p->type.dims[1];
        p->type.dims[0] = c * m;
        p->type.dims[1] = 1;
        *oc = c * m;
    } else {
        *oc = r->g->vals[k].type.dims[0];
    }
    return k;
}

/* Conv geometry: TOSA pad [top, bottom, left, right] -> ONNX pads. */
static int conv_geometry(Rd *r, int64_t *pads, int64_t *strides, int64_t *dil)
{
    int64_t p[4];
    if (ints_attr(r, "pad", p, 4) < 0 || ints_attr(r, "stride", strides, 2) < 0)
        return -1;
    if (dil && ints_attr(r, "dilation", dil, 2) < 0)
        return -1;
    pads[0] = p[0];
    pads[1] = p[2];
    pads[2] = p[1];
    pads[3] = p[3];
    return 0;
}

/* A new pending int8 conv (or fully_connected) of input x, weights w and
 * bias b giving oc channels; the op's result becomes its accumulator. */
static PendConv *pend_conv(Rd *r, int x, int w, int b, int64_t oc)
{
    PendConv *c;
    Ent *acc;
    if (r->nconv == r->capconv) {
        int cap = r->capconv ? 2 * r->capconv : 16;
        PendConv *nc = gir_arena_alloc(r->g->arena, sizeof *nc * (size_t)cap);
        if (r->nconv)
            memcpy(nc, r->convs, sizeof *nc * (size_t)r->nconv);
        r->convs = nc;
        r->capconv = cap;
    }
    c = &r->convs[r->nconv];
    memset(c, 0, sizeof *c);
    c->x = x;
    c->w = w;
    c->bias = b;
    c->oc = oc;
    c->group = 1;
    c->loc = r->loc;
    c->name = op_base(r);
    acc = ent(r, result(r, 0));
    acc->kind = E_ACC;
    acc->conv = r->nconv++;
    return c;
}

static int rd_conv(Rd *r)
{
    int depthwise = strcmp(r->opname, "tosa.depthwise_conv2d") == 0;
    int64_t pads[4], strides[2], dil[2], oc = 0, group = 1;
    GirType xt, yt;
    int x, w, b, ins[3], out, node;
    if (type_of(r, mlirValueGetType(operand(r, 0)), &xt, "the input") < 0 ||
        result_type(r, 0, &yt) < 0 || conv_geometry(r, pads, strides, dil) < 0)
        return -1;
    if ((w = conv_weights(r, depthwise, &oc)) < 0)
        return -1;
    if (depthwise)
        group = xt.dims[3];
    b = const_operand(r, 2);
    if (b < 0)
        return rd_fail(r, "the bias must be a tosa.const");
    if ((x = val(r, operand(r, 0), 1)) < 0)
        return -1;
    if (xt.dtype == GIR_DT_I8) {
        PendConv *c;
        if (check_zero_points(r) < 0)
            return -1;
        if (yt.dtype != GIR_DT_I32)
            return rd_fail(r, "an int8 conv must give i32, not %s", gir_dtype_name(yt.dtype));
        c = pend_conv(r, x, w, b, oc);
        memcpy(c->pads, pads, sizeof pads);
        memcpy(c->strides, strides, sizeof strides);
        memcpy(c->dil, dil, sizeof dil);
        c->group = group;
        return 0;
    }
    ins[0] = x;
    ins[1] = w;
    ins[2] = b;
    out = node1(r, GIR_OP_CONV, ins, 3, NULL);
    node = last_node(r);
    gir_set_attr_ints(r->g, node, "dilations", dil, 2);
    gir_set_attr_int(r->g, node, "group", group);
    gir_set_attr_ints(r->g, node, "pads", pads, 4);
    gir_set_attr_ints(r->g, node, "strides", strides, 2);
    def(r, result(r, 0), out, 1);
    return 0;
}

static int rd_pool(Rd *r)
{
    int avg = strcmp(r->opname, "tosa.avg_pool2d") == 0;
    int64_t pads[4], strides[2], kernel[2];
    int x, out, node;
    if (ints_attr(r, "kernel", kernel, 2) < 0 || conv_geometry(r, pads, strides, NULL) < 0)
        return -1;
    if ((x = val(r, operand(r, 0), 1)) < 0)
        return -1;
    out = node1(r, avg ? GIR_OP_AVGPOOL : GIR_OP_MAXPOOL, &x, 1, NULL);
    node = last_node(r);
    gir_set_attr_ints(r->g, node, "kernel_shape", kernel, 2);
    gir_set_attr_ints(r->g, node, "pads", pads, 4);
    gir_set_attr_ints(r->g, node, "strides", strides, 2);
    r->g->vals[out].scale = r->g->vals[x].scale;
    def(r, result(r, 0), out, 1);
    return 0;
}

/* fully_connected: Gemm with the weights [OC, IC] transposed. */
static int rd_fc(Rd *r)
{
    int ins[3], out;
    GirType xt, yt;
    if ((ins[0] = val(r, operand(r, 0), 0)) < 0 || (ins[1] = val(r, operand(r, 1), 0)) < 0 ||
        (ins[2] = val(r, operand(r, 2), 0)) < 0 ||
        type_of(r, mlirValueGetType(operand(r, 0)), &xt, "the input") < 0)
        return -1;
    if (rank_of(result(r, 0)) != 2)
        return rd_fail(r, "result must be 2-D");
    if (xt.dtype == GIR_DT_I8) {
        /* int8: i32 accumulators a rescale takes to the int8 Gemm */
        const GirValue *wv = &r->g->vals[ins[1]];
        if (check_zero_points(r) < 0 || result_type(r, 0, &yt) < 0)
            return -1;
        if (yt.dtype != GIR_DT_I32)
            return rd_fail(r, "an int8 fully_connected must give i32, not %s", gir_dtype_name(yt.dtype));
        if (wv->kind != GIR_VAL_CONST || wv->type.dtype != GIR_DT_I8 || wv->type.rank != 2)
            return rd_fail(r, "the weights of an int8 fully_connected must be an i8 tosa.const [OC, IC]");
        if (r->g->vals[ins[2]].kind != GIR_VAL_CONST || r->g->vals[ins[2]].type.dtype != GIR_DT_I32)
            return rd_fail(r, "the bias of an int8 fully_connected must be an i32 tosa.const");
        pend_conv(r, ins[0], ins[1], ins[2], wv->type.dims[0])->gemm = 1;
        return 0;
    }
    out = node1(r, GIR_OP_GEMM, ins, 3, NULL);
    gir_set_attr_int(r->g, last_node(r), "transB", 1);
    def(r, result(r, 0), out, 0);
    return 0;
}

/* Elementwise ops: every operand in the order of the first 4-D one. */
static int rd_elementwise(Rd *r, GirOp k)
{
    int n = (int)mlirOperationGetNumOperands(r->op), i, order = 0, ins[3], out;
    GirType yt;
    if (result_type(r, 0, &yt) < 0)
        return -1;
    if (n > 3)
        return rd_fail(r, "%d operands", n);
    if (yt.rank == 4) {
        order = 1;
        if (n == 1)
            order = -1;
    }
    for (i = 0; i < n; i++) {
        if (rank_of(operand(r, i)) != yt.rank)
            return rd_fail(r, "operand %d has rank %d, the result %d", i, rank_of(operand(r, i)),
                           yt.rank);
        if ((ins[i] = val(r, operand(r, i), order)) < 0)
            return -1;
    }
    out = node1(r, k, ins, n, NULL);
    if (n == 1)
        r->g->vals[out].scale = r->g->vals[ins[0]].scale;
    def(r, result(r, 0), out, yt.rank == 4 ? (n == 1 ? ent(r, operand(r, 0))->nchw : 1) : 0);
    return 0;
}

/* Element ops by TOSA name: the kiln op each is. */
static const struct {
    const char *name; /* TOSA op */
    GirOp op;         /* kiln op */
} ELEMENTWISE[] = {
    {"tosa.sub", GIR_OP_SUB},           {"tosa.maximum", GIR_OP_MAX},
    {"tosa.minimum", GIR_OP_MIN},       {"tosa.sigmoid", GIR_OP_SIGMOID},
    {"tosa.tanh", GIR_OP_TANH},         {"tosa.exp", GIR_OP_EXP},
    {"tosa.log", GIR_OP_LOG},           {"tosa.abs", GIR_OP_ABS},
    {"tosa.negate", GIR_OP_NEG},        {"tosa.floor", GIR_OP_FLOOR},
    {"tosa.ceil", GIR_OP_CEIL},         {"tosa.reciprocal", GIR_OP_RECIPROCAL},
    {"tosa.pow", GIR_OP_POW},           {"tosa.equal", GIR_OP_EQUAL},
    {"tosa.greater", GIR_OP_GREATER},   {"tosa.greater_equal", GIR_OP_GREATEROREQUAL},
    {"tosa.logical_and", GIR_OP_AND},   {"tosa.logical_or", GIR_OP_OR},
    {"tosa.logical_xor", GIR_OP_XOR},   {"tosa.logical_not", GIR_OP_NOT},
    {"tosa.select", GIR_OP_WHERE},
};

static int rd_element_table(Rd *r)
{
    size_t i;
    for (i = 0; i < sizeof ELEMENTWISE / sizeof ELEMENTWISE[0]; i++)
        if (strcmp(r->opname, ELEMENTWISE[i].name) == 0)
            return rd_elementwise(r, ELEMENTWISE[i].op);
    gir_unreachable();
}

static int rd_rsqrt(Rd *r)
{
    int x = val(r, operand(r, 0), -1), s, out;
    if (x < 0)
        return -1;
    s = node1(r, GIR_OP_SQRT, &x, 1, gir_arena_printf(r->g->arena, "%s_sqrt", op_base(r)));
    out = node1(r, GIR_OP_RECIPROCAL, &s, 1, NULL);
    def(r, result(r, 0), out, ent(r, operand(r, 0))->nchw);
    return 0;
}

/* The f32 value of a splat constant operand i into *v; 0 if it is one. */
static int splat_f32(Rd *r, int i, float *v)
{
    int c = const_operand(r, i);
    GirValue *cv;
    int64_t n, k;
    if (c < 0)
        return -1;
    cv = &r->g->vals[c];
    if (cv->type.dtype != GIR_DT_F32)
        return -1;
    n = gir_type_numel(&cv->type);
    for (k = 1; k < n; k++)
        if (memcmp((const float *)cv->data + k, cv->data, 4) != 0)
            return -1;
    *v = n > 0 ? *(const float *)cv->data : 0;
    return n > 0 ? 0 : -1;
}

static int rd_mul(Rd *r)
{
    Ent *a = ent(r, operand(r, 0));
    float f;
    if (int_attr(r, "shift", 0) != 0)
        return rd_fail(r, "shift %lld: only shift 0 is read", (long long)int_attr(r, "shift", 0));
    if (splat_f32(r, 1, &f) == 0 && a->kind == E_DEQ) {
        int ins[2] = {a->id, const_f32_scalar(r, "dq_scale", f)}, out;
        out = node1(r, GIR_OP_DEQUANTIZELINEAR, ins, 2, NULL);
        def(r, result(r, 0), out, a->nchw);
        return 0;
    }
    if (splat_f32(r, 1, &f) == 0 && a->kind == E_VAL &&
        r->g->vals[a->id].type.dtype != GIR_DT_I8) {
        Ent *y = ent(r, result(r, 0));
        y->kind = E_QMUL;
        y->id = a->id;
        y->nchw = a->nchw;
        y->factor = f;
        y->loc = r->loc;
        y->name = fresh(r, op_base(r));
        return 0;
    }
    return rd_elementwise(r, GIR_OP_MUL);
}

/* add: the int8 Add's middle, or an ordinary Add. */
static int rd_add(Rd *r)
{
    Ent *a = ent(r, operand(r, 0)), *b = ent(r, operand(r, 1));
    if (a->kind == E_WIDE && b->kind == E_WIDE) {
        Ent *y = ent(r, result(r, 0));
        y->kind = E_SUM;
        y->src = a->src;
        y->wm = a->wm;
        y->src_b = b->src;
        y->bm = b->wm;
        y->loc = r->loc;
        return 0;
    }
    return rd_elementwise(r, GIR_OP_ADD);
}

/* cast: QuantizeLinear / DequantizeLinear halves, else Cast. */
static int rd_cast(Rd *r)
{
    GirType xt, yt;
    Ent *x = ent(r, operand(r, 0));
    int ins[3], out;
    if (type_of(r, mlirValueGetType(operand(r, 0)), &xt, "the input") < 0 ||
        result_type(r, 0, &yt) < 0)
        return -1;
    if (xt.dtype == GIR_DT_I8 && yt.dtype == GIR_DT_F32) {
        int id = val(r, operand(r, 0), -1);
        Ent *y;
        if (id < 0)
            return -1;
        y = ent(r, result(r, 0));
        y->kind = E_DEQ;
        y->id = id;
        y->nchw = ent(r, operand(r, 0))->nchw;
        y->loc = r->loc;
        y->name = fresh(r, op_base(r));
        return 0;
    }
    if (xt.dtype == GIR_DT_F32 && yt.dtype == GIR_DT_I8) {
        float hint = (float)float_attr(r, "kiln.scale", 0), s = 1.0f;
        GirType zt;
        int8_t zero = 0;
        if (x->kind == E_QMUL) {
            s = hint > 0 ? hint : 1.0f / x->factor;
            ins[0] = x->id;
        } else if ((ins[0] = val(r, operand(r, 0), -1)) < 0) {
            return -1;
        }
        memset(&zt, 0, sizeof zt);
        zt.dtype = GIR_DT_I8;
        ins[1] = const_f32_scalar(r, "q_scale", s);
        ins[2] = gir_add_const(r->g, fresh(r, "q_zp"), zt, &zero, r->loc);
        out = node1(r, GIR_OP_QUANTIZELINEAR, ins, 3, NULL);
        r->g->vals[out].scale = hint > 0 ? hint : s;
        def(r, result(r, 0), out, x->nchw);
        return 0;
    }
    if ((ins[0] = val(r, operand(r, 0), -1)) < 0)
        return -1;
    out = node1(r, GIR_OP_CAST, ins, 1, NULL);
    gir_set_attr_int(r->g, last_node(r), "to", gir_dtype_to_onnx(yt.dtype));
    def(r, result(r, 0), out, ent(r, operand(r, 0))->nchw);
    return 0;
}

/* A TOSA (multiplier, shift) as kiln's 16-bit one; halves exactly while it
 * can, then rounds (docs/tosa.md: where the two differ). */
static void kiln_rq(int64_t m, int64_t shift, int64_t *km, int64_t *ks)
{
    while ((m > KILN_RQ_M_MAX || m < KILN_RQ_M_MIN || shift > KILN_RQ_MAX_SHIFT) && shift > 0) {
        m = (m % 2 == 0) ? m / 2 : (m + 1) >> 1;
        shift--;
    }
    *km = m;
    *ks = shift;
}

/* The per-channel (or one) multipliers and shifts of a rescale, n of them. */
static int rescale_params(Rd *r, int64_t n, int64_t **m, int64_t **s)
{
    MlirAttribute am = attr(r, "multiplier"), as = attr(r, "shift");
    int64_t k, i, cnt;
    if (int_attr(r, "input_zp", 0) != 0 || int_attr(r, "output_zp", 0) != 0)
        return rd_fail(r, "input_zp %lld, output_zp %lld: kiln's int8 form has zero points 0",
                       (long long)int_attr(r, "input_zp", 0),
                       (long long)int_attr(r, "output_zp", 0));
    if (mlirAttributeIsNull(am) || mlirAttributeIsNull(as) ||
        !mlirAttributeIsADenseI32Array(am) || !mlirAttributeIsADenseI32Array(as))
        return rd_fail(r, "multiplier and shift must be array<i32>");
    cnt = mlirDenseArrayGetNumElements(am);
    if (cnt != mlirDenseArrayGetNumElements(as) || (cnt != 1 && cnt != n))
        return rd_fail(r, "%lld multipliers for %lld channels", (long long)cnt, (long long)n);
    *m = gir_arena_alloc(r->g->arena, sizeof(int64_t) * (size_t)n);
    *s = gir_arena_alloc(r->g->arena, sizeof(int64_t) * (size_t)n);
    for (i = 0; i < n; i++) {
        k = cnt == 1 ? 0 : i;
        kiln_rq(mlirDenseI32ArrayGetElement(am, (intptr_t)k),
                mlirDenseI32ArrayGetElement(as, (intptr_t)k), &(*m)[i], &(*s)[i]);
    }
    return 0;
}

/* rescale i8 -> i32 by 4m >> 2 (kiln's writer) or any exact m * 2^k: an Add operand. */
static int rescale_wide(Rd *r, Ent *x)
{
    MlirAttribute am = attr(r, "multiplier"), as = attr(r, "shift");
    int64_t m, s;
    Ent *y;
    (void)x;
    if (mlirAttributeIsNull(am) || !mlirAttributeIsADenseI32Array(am) ||
        mlirDenseArrayGetNumElements(am) != 1 || int_attr(r, "input_zp", 0) != 0)
        return rd_fail(r, "an i8 -> i32 rescale needs one multiplier and zero points 0");
    m = mlirDenseI32ArrayGetElement(am, 0);
    s = mlirDenseI32ArrayGetElement(as, 0);
    if (s < 0 || s > 31 || m % ((int64_t)1 << s) != 0)
        return rd_fail(r, "multiplier %lld >> %lld is not an exact integer scaling; kiln's "
                       "int8 Add takes a * m_a + b * m_b", (long long)m, (long long)s);
    y = ent(r, result(r, 0));
    y->kind = E_WIDE;
    y->src = operand(r, 0);
    y->wm = m >> s;
    return 0;
}

/* rescale of an E_SUM to i8: the int8 Add. */
static int rescale_sum(Rd *r, Ent *x)
{
    int64_t *m, *s, ma, mb, sh;
    int ins[2], out, node, order = rank_of(result(r, 0)) == 4;
    if (rescale_params(r, 1, &m, &s) < 0)
        return -1;
    ma = x->wm * m[0];
    mb = x->bm * m[0];
    sh = s[0];
    while ((ma > KILN_RQ_M_MAX || mb > KILN_RQ_M_MAX || ma < KILN_RQ_M_MIN || mb < KILN_RQ_M_MIN) &&
           sh > 0 && ma % 2 == 0 && mb % 2 == 0) {
        ma /= 2;
        mb /= 2;
        sh--;
    }
    if (ma > KILN_RQ_M_MAX || mb > KILN_RQ_M_MAX || ma < KILN_RQ_M_MIN || mb < KILN_RQ_M_MIN)
        return rd_fail(r, "the Add's multipliers %lld, %lld do not fit kiln's 16 bits",
                       (long long)ma, (long long)mb);
    if ((ins[0] = val(r, x->src, order)) < 0 || (ins[1] = val(r, x->src_b, order)) < 0)
        return -1;
    out = node1(r, GIR_OP_ADD, ins, 2, NULL);
    node = last_node(r);
    gir_set_attr_ints(r->g, node, "rq_m_a", &ma, 1);
    gir_set_attr_ints(r->g, node, "rq_m_b", &mb, 1);
    gir_set_attr_ints(r->g, node, "rq_shift", &sh, 1);
    r->g->vals[out].scale = (float)float_attr(r, "kiln.scale", 0);
    def(r, result(r, 0), out, order);
    return 0;
}

static int rd_rescale(Rd *r)
{
    Ent *x = ent(r, operand(r, 0));
    GirType yt, xt;
    int64_t *m, *s;
    if (result_type(r, 0, &yt) < 0 ||
        type_of(r, mlirValueGetType(operand(r, 0)), &xt, "the input") < 0)
        return -1;
    /* scale32 either way and double_round are read alike (docs/tosa.md: where
     * that differs from requant.h) */
    if (x->kind == E_ACC && yt.dtype == GIR_DT_I8) {
        PendConv *c = &r->convs[x->conv];
        Ent *y;
        if (rescale_params(r, c->oc, &m, &s) < 0)
            return -1;
        y = ent(r, result(r, 0));
        y->kind = E_RACC;
        y->conv = x->conv;
        y->m_pos = m;
        y->m_neg = m;
        y->shift = s;
        y->act_min = -128;
        y->act_max = 127;
        y->nchw = !c->gemm;
        y->scale = (float)float_attr(r, "kiln.scale", 0);
        y->name = NULL;
        return 0;
    }
    if (x->kind == E_SUM && yt.dtype == GIR_DT_I8)
        return rescale_sum(r, x);
    if (xt.dtype == GIR_DT_I8 && yt.dtype == GIR_DT_I32)
        return rescale_wide(r, x);
    if (xt.dtype == GIR_DT_I8 && yt.dtype == GIR_DT_I8) {
        int in = val(r, operand(r, 0), -1), out, node;
        if (in < 0 || rescale_params(r, 1, &m, &s) < 0)
            return -1;
        out = node1(r, GIR_OP_REQUANTIZE, &in, 1, NULL);
        node = last_node(r);
        gir_set_attr_ints(r->g, node, "rq_m", m, 1);
        gir_set_attr_ints(r->g, node, "rq_shift", s, 1);
        r->g->vals[out].scale = (float)float_attr(r, "kiln.scale", 0);
        def(r, result(r, 0), out, ent(r, operand(r, 0))->nchw);
        return 0;
    }
    return rd_fail(r, "rescale %s -> %s outside the patterns kiln's int8 form takes "
                   "(conv i32 -> i8, i8 -> i8, i8 -> i32 -> add -> i8)",
                   gir_dtype_name(xt.dtype), gir_dtype_name(yt.dtype));
}

/* greater_equal(acc, 0) of an int8 conv's accumulator: the sign for a select. */
static int rd_greater_equal(Rd *r)
{
    Ent *x = ent(r, operand(r, 0));
    if (x->kind == E_ACC) {
        int c = const_operand(r, 1);
        int64_t n, i;
        Ent *y;
        if (c < 0 || r->g->vals[c].type.dtype != GIR_DT_I32)
            return rd_fail(r, "an int8 conv's accumulator compared with something other "
                           "than an i32 constant 0");
        n = gir_type_numel(&r->g->vals[c].type);
        for (i = 0; i < n; i++)
            if (((const int32_t *)r->g->vals[c].data)[i] != 0)
                return rd_fail(r, "an int8 conv's accumulator compared with a non-zero "
                               "constant");
        y = ent(r, result(r, 0));
        y->kind = E_SIGN;
        y->conv = x->conv;
        return 0;
    }
    return rd_elementwise(r, GIR_OP_GREATEROREQUAL);
}

static int rd_select(Rd *r)
{
    Ent *p = ent(r, operand(r, 0)), *a = ent(r, operand(r, 1)), *b = ent(r, operand(r, 2));
    if (p->kind == E_SIGN) {
        Ent *y;
        int64_t i;
        if (a->kind != E_RACC || b->kind != E_RACC || a->conv != p->conv || b->conv != p->conv)
            return rd_fail(r, "a select on an accumulator's sign must pick between two "
                           "rescales of that accumulator");
        for (i = 0; i < r->convs[p->conv].oc; i++)
            if (a->shift[i] != b->shift[i])
                return rd_fail(r, "the two rescales of a leaky conv have different shifts");
        y = ent(r, result(r, 0));
        *y = *a;
        y->key = result(r, 0);
        y->m_neg = b->m_pos;
        y->scale = (float)float_attr(r, "kiln.scale", a->scale);
        a->kind = b->kind = E_NONE; /* consumed: the select is the conv */
        return 0;
    }
    return rd_elementwise(r, GIR_OP_WHERE);
}

static int rd_clamp(Rd *r)
{
    Ent *x = ent(r, operand(r, 0));
    GirType yt;
    int ins[3], out;
    if (result_type(r, 0, &yt) < 0)
        return -1;
    if (x->kind == E_RACC) {
        Ent *y = ent(r, result(r, 0));
        int64_t lo = int_attr(r, "min_int", -128), hi = int_attr(r, "max_int", 127), i;
        int relu = lo == 0 && x->act_min == -128;
        *y = *x;
        y->key = result(r, 0);
        x->kind = E_NONE;
        if (relu) {
            /* clamp at 0 after the rescale is ReLU: m_neg = 0 gives the same bytes */
            int same = 1;
            for (i = 0; i < r->convs[x->conv].oc; i++)
                same &= y->m_neg[i] == y->m_pos[i];
            if (same) {
                y->m_neg = gir_arena_alloc(r->g->arena, sizeof(int64_t) * (size_t)r->convs[x->conv].oc);
                lo = -128;
            }
        }
        y->act_min = (int)(lo > y->act_min ? lo : y->act_min);
        y->act_max = (int)(hi < y->act_max ? hi : y->act_max);
        if (y->act_min > y->act_max)
            return rd_fail(r, "empty clamp range");
        y->scale = (float)float_attr(r, "kiln.scale", x->scale);
        return 0;
    }
    if (yt.dtype != GIR_DT_F32)
        return rd_fail(r, "clamp on %s outside an int8 conv's rescale", gir_dtype_name(yt.dtype));
    if ((ins[0] = val(r, operand(r, 0), -1)) < 0)
        return -1;
    if (float_attr(r, "min_fp", 0) == 0 && float_attr(r, "max_fp", 0) >= 3.4028234e38) {
        out = node1(r, GIR_OP_RELU, ins, 1, NULL);
    } else {
        ins[1] = const_f32_scalar(r, "clamp_min", (float)float_attr(r, "min_fp", 0));
        ins[2] = const_f32_scalar(r, "clamp_max", (float)float_attr(r, "max_fp", 0));
        out = node1(r, GIR_OP_CLIP, ins, 3, NULL);
    }
    def(r, result(r, 0), out, x->nchw);
    return 0;
}

/* An axis attribute of a 4-D value held in NCHW order, remapped. */
static int64_t axis_for(int64_t axis, int rank, int nchw)
{
    return nchw && rank == 4 && axis >= 0 && axis < 4 ? NCHW_OF[axis] : axis;
}

static int rd_concat(Rd *r)
{
    int n = (int)mlirOperationGetNumOperands(r->op), i, *ins, out, rk = rank_of(result(r, 0));
    int64_t axis = int_attr(r, "axis", 0);
    float scale = 0;
    if (n < 1 || n > 64)
        return rd_fail(r, "%d operands", n);
    ins = gir_arena_alloc(r->g->arena, sizeof(int) * (size_t)n);
    for (i = 0; i < n; i++) {
        if ((ins[i] = val(r, operand(r, i), rk == 4 ? 1 : 0)) < 0)
            return -1;
        scale = r->g->vals[ins[i]].scale;
    }
    out = node1(r, GIR_OP_CONCAT, ins, n, NULL);
    gir_set_attr_int(r->g, last_node(r), "axis", axis_for(axis, rk, 1));
    r->g->vals[out].scale = scale;
    def(r, result(r, 0), out, rk == 4);
    return 0;
}

static int rd_reshape(Rd *r)
{
    GirType yt;
    int ins[2], out;
    if (result_type(r, 0, &yt) < 0 || (ins[0] = val(r, operand(r, 0), 0)) < 0)
        return -1;
    ins[1] = const_i64(r, "shape", yt.dims, yt.rank);
    out = node1(r, GIR_OP_RESHAPE, ins, 2, NULL);
    r->g->vals[out].scale = r->g->vals[ins[0]].scale;
    def(r, result(r, 0), out, 0);
    return 0;
}

/* Integer data of a constant operand i (i32 or i64) into v[n]. */
static int const_ints(Rd *r, int i, int64_t *v, int64_t n, const char *what)
{
    int c = const_operand(r, i);
    GirValue *cv;
    int64_t k;
    if (c < 0)
        return rd_fail(r, "%s must be a tosa.const", what);
    cv = &r->g->vals[c];
    if (gir_type_numel(&cv->type) != n ||
        (cv->type.dtype != GIR_DT_I32 && cv->type.dtype != GIR_DT_I64))
        return rd_fail(r, "%s must hold %lld i32 or i64 values", what, (long long)n);
    for (k = 0; k < n; k++)
        v[k] = cv->type.dtype == GIR_DT_I32 ? ((const int32_t *)cv->data)[k]
                                            : ((const int64_t *)cv->data)[k];
    return 0;
}

static int rd_transpose(Rd *r)
{
    int rk = rank_of(operand(r, 0)), d, out, in, innchw, form, id_asis = 1, id_nchw = rk == 4;
    int64_t q[GIR_MAX_RANK], pa[GIR_MAX_RANK], pn[GIR_MAX_RANK], *p;
    if (rk < 1 || rk > GIR_MAX_RANK || const_ints(r, 1, q, rk, "perms") < 0)
        return -1;
    for (d = 0; d < rk; d++)
        if (q[d] < 0 || q[d] >= rk)
            return rd_fail(r, "perms entry %lld out of range", (long long)q[d]);
    if ((in = val(r, operand(r, 0), -1)) < 0)
        return -1;
    innchw = rk == 4 && ent(r, operand(r, 0))->nchw;
    /* TOSA in axis a sits at kiln axis NCHW_OF[a] when held NCHW.  The result
     * held as it is: kiln out[i] = tosa in[q[i]]; held NCHW (4-D): kiln
     * out[i] = tosa out[NHWC_OF[i]] = tosa in[q[NHWC_OF[i]]].  The form that
     * makes no Transpose wins, else NCHW. */
    for (d = 0; d < rk; d++) {
        pa[d] = innchw ? NCHW_OF[q[d]] : q[d];
        id_asis &= pa[d] == d;
        if (rk == 4) {
            pn[d] = innchw ? NCHW_OF[q[NHWC_OF[d]]] : q[NHWC_OF[d]];
            id_nchw &= pn[d] == d;
        }
    }
    if (id_asis || id_nchw) {
        def(r, result(r, 0), in, id_nchw);
        return 0;
    }
    form = rk == 4;
    p = form ? pn : pa;
    out = node1(r, GIR_OP_TRANSPOSE, &in, 1, NULL);
    gir_set_attr_ints(r->g, last_node(r), "perm", p, rk);
    r->g->vals[out].scale = r->g->vals[in].scale;
    def(r, result(r, 0), out, form);
    return 0;
}

static int rd_pad(Rd *r)
{
    int rk = rank_of(operand(r, 0)), d, ins[3], n = 2, out;
    int64_t pad[2 * GIR_MAX_RANK], pads[2 * GIR_MAX_RANK];
    int nchw = rk == 4;
    if (rk < 1 || rk > GIR_MAX_RANK || const_ints(r, 1, pad, 2 * rk, "padding") < 0)
        return -1;
    for (d = 0; d < rk; d++) {
        int a = nchw ? NHWC_OF[d] : d;
        pads[d] = pad[2 * a];
        pads[rk + d] = pad[2 * a + 1];
    }
    if ((ins[0] = val(r, operand(r, 0), nchw)) < 0)
        return -1;
    ins[1] = const_i64(r, "pads", pads, 2 * rk);
    if (mlirOperationGetNumOperands(r->op) > 2) {
        if ((ins[2] = val(r, operand(r, 2), -1)) < 0)
            return -1;
        n = 3;
    }
    out = node1(r, GIR_OP_PAD, ins, n, NULL);
    r->g->vals[out].scale = r->g->vals[ins[0]].scale;
    def(r, result(r, 0), out, nchw);
    return 0;
}

/* TOSA resize's source index of output o along one axis (nearest). */
static int64_t tosa_nearest(int64_t o, int64_t n, int64_t dd, int64_t off, int64_t in)
{
    int64_t y = o * dd + off, iy = y >= 0 ? y / n : -((-y + n - 1) / n), ry = y - iy * n;
    if (2 * ry >= n)
        iy++;
    return iy < 0 ? 0 : iy >= in ? in - 1 : iy;
}

/* kiln Resize's source index for (ctm, nearest_mode), as interp.c computes it. */
static int64_t kiln_nearest(int64_t o, int64_t in, int64_t out, int half)
{
    double scale = (double)out / (double)in, c, f;
    int64_t lo;
    c = half ? ((double)o + 0.5) / scale - 0.5 : (double)o / scale;
    f = floor(c);
    lo = (int64_t)f;
    if (half && c - f > 0.5)
        lo++;
    return lo < 0 ? 0 : lo >= in ? in - 1 : lo;
}

/* kiln Resize's source coordinate of output o (linear), as interp.c. */
static double kiln_coord(int64_t o, int64_t in, int64_t out, int half)
{
    double scale = (double)out / (double)in;
    return half ? ((double)o + 0.5) / scale - 0.5 : (double)o / scale;
}

/* Which coordinate mode of kiln's (0 asymmetric, 1 half_pixel) maps every
 * output pixel where TOSA's resize does; -1 when neither. */
static int resize_mode(const int64_t *sc, const int64_t *off, const GirType *xt,
                       const GirType *yt, int bilinear)
{
    int ok[2] = {1, 1}, half, d;
    int64_t o;
    for (half = 0; half < 2; half++)
        for (d = 0; d < 2; d++)
            for (o = 0; o < yt->dims[1 + d]; o++) {
                int64_t in = xt->dims[1 + d], out = yt->dims[1 + d];
                if (bilinear) {
                    double c = (double)(o * sc[2 * d + 1] + off[d]) / (double)sc[2 * d];
                    if (fabs(c - kiln_coord(o, in, out, half)) > 1e-9)
                        ok[half] = 0;
                } else if (tosa_nearest(o, sc[2 * d], sc[2 * d + 1], off[d], in) !=
                           kiln_nearest(o, in, out, half)) {
                    ok[half] = 0;
                }
            }
    return ok[0] ? 0 : ok[1] ? 1 : -1;
}

static int rd_resize(Rd *r)
{
    int64_t sc[4], off[2], border[2], sizes[4];
    MlirAttribute m = attr(r, "mode");
    char mode[64];
    GirType xt, yt;
    int ins[4], out, node, half, bilinear, d;
    if (ints_attr(r, "scale", sc, 4) < 0 || ints_attr(r, "offset", off, 2) < 0 ||
        ints_attr(r, "border", border, 2) < 0 || result_type(r, 0, &yt) < 0 ||
        type_of(r, mlirValueGetType(operand(r, 0)), &xt, "the input") < 0)
        return -1;
    if (mlirAttributeIsNull(m) || !mlirAttributeIsAString(m))
        return rd_fail(r, "attribute 'mode' missing");
    str_of(mlirStringAttrGetValue(m), mode, sizeof mode);
    bilinear = strcmp(mode, "BILINEAR") == 0;
    if (!bilinear && strcmp(mode, "NEAREST_NEIGHBOR") != 0)
        return rd_fail(r, "mode %s: NEAREST_NEIGHBOR and BILINEAR are read", mode);
    if (bilinear && (xt.dtype != GIR_DT_F32 || yt.dtype != GIR_DT_F32))
        return rd_fail(r, "BILINEAR on %s: only f32 is read", gir_dtype_name(xt.dtype));
    if (sc[0] <= 0 || sc[1] <= 0 || sc[2] <= 0 || sc[3] <= 0)
        return rd_fail(r, "scale must be positive");
    half = resize_mode(sc, off, &xt, &yt, bilinear);
    if (half < 0)
        return rd_fail(r, "scale %lld/%lld, %lld/%lld with offset %lld, %lld samples where no "
                       "kiln Resize mode does", (long long)sc[0], (long long)sc[1],
                       (long long)sc[2], (long long)sc[3], (long long)off[0], (long long)off[1]);
    if ((ins[0] = val(r, operand(r, 0), 1)) < 0)
        return -1;
    for (d = 0; d < 4; d++)
        sizes[d] = yt.dims[NHWC_OF[d]];
    ins[1] = ins[2] = -1;
    ins[3] = const_i64(r, "sizes", sizes, 4);
    out = node1(r, GIR_OP_RESIZE, ins, 4, NULL);
    node = last_node(r);
    gir_set_attr_string(r->g, node, "mode", bilinear ? "linear" : "nearest");
    gir_set_attr_string(r->g, node, "coordinate_transformation_mode",
                        half ? "half_pixel" : "asymmetric");
    if (!bilinear)
        gir_set_attr_string(r->g, node, "nearest_mode", half ? "round_prefer_floor" : "floor");
    r->g->vals[out].scale = r->g->vals[ins[0]].scale;
    def(r, result(r, 0), out, 1);
    return 0;
}

static int rd_reduce(Rd *r)
{
    static const struct {
        const char *name; /* TOSA op */
        GirOp op;         /* kiln op */
    } RED[] = {{"tosa.reduce_sum", GIR_OP_REDUCESUM},
               {"tosa.reduce_max", GIR_OP_REDUCEMAX},
               {"tosa.reduce_min", GIR_OP_REDUCEMIN},
               {"tosa.reduce_prod", GIR_OP_REDUCEPROD}};
    int rk = rank_of(operand(r, 0)), ins[2], out;
    int64_t axis = int_attr(r, "axis", 0), ax;
    size_t i;
    for (i = 0; i < sizeof RED / sizeof RED[0]; i++)
        if (strcmp(r->opname, RED[i].name) == 0)
            break;
    if (i == sizeof RED / sizeof RED[0])
        return rd_fail(r, "not read");
    if ((ins[0] = val(r, operand(r, 0), -1)) < 0)
        return -1;
    ax = axis_for(axis, rk, ent(r, operand(r, 0))->nchw);
    ins[1] = const_i64(r, "axes", &ax, 1);
    out = node1(r, RED[i].op, ins, 2, NULL);
    gir_set_attr_int(r->g, last_node(r), "keepdims", 1);
    def(r, result(r, 0), out, rk == 4 && ent(r, operand(r, 0))->nchw);
    return 0;
}

static int rd_argmax(Rd *r)
{
    int in = val(r, operand(r, 0), 0), out, ins[1];
    GirType yt;
    if (in < 0 || result_type(r, 0, &yt) < 0)
        return -1;
    ins[0] = in;
    out = node1(r, GIR_OP_ARGMAX, ins, 1, gir_arena_printf(r->g->arena, "%s_i64", op_base(r)));
    gir_set_attr_int(r->g, last_node(r), "axis", int_attr(r, "axis", 0));
    gir_set_attr_int(r->g, last_node(r), "keepdims", 0);
    if (yt.dtype != GIR_DT_I64) {
        int c = node1(r, GIR_OP_CAST, &out, 1, NULL);
        gir_set_attr_int(r->g, last_node(r), "to", gir_dtype_to_onnx(yt.dtype));
        out = c;
    }
    def(r, result(r, 0), out, 0);
    return 0;
}

static int rd_slice(Rd *r)
{
    int rk = rank_of(operand(r, 0)), d, ins[4], out, nchw;
    int64_t st[GIR_MAX_RANK], sz[GIR_MAX_RANK], s2[GIR_MAX_RANK], e2[GIR_MAX_RANK], ax[GIR_MAX_RANK];
    if (rk < 1 || ints_attr(r, "start", st, rk) < 0 || ints_attr(r, "size", sz, rk) < 0)
        return -1;
    if ((ins[0] = val(r, operand(r, 0), -1)) < 0)
        return -1;
    nchw = rk == 4 && ent(r, operand(r, 0))->nchw;
    for (d = 0; d < rk; d++) {
        int a = nchw ? NHWC_OF[d] : d;
        s2[d] = st[a];
        e2[d] = st[a] + sz[a];
        ax[d] = d;
    }
    ins[1] = const_i64(r, "starts", s2, rk);
    ins[2] = const_i64(r, "ends", e2, rk);
    ins[3] = const_i64(r, "axes", ax, rk);
    out = node1(r, GIR_OP_SLICE, ins, 4, NULL);
    r->g->vals[out].scale = r->g->vals[ins[0]].scale;
    def(r, result(r, 0), out, nchw);
    return 0;
}

static int rd_tile(Rd *r)
{
    int rk = rank_of(operand(r, 0)), d, ins[2], out, nchw;
    int64_t m[GIR_MAX_RANK], m2[GIR_MAX_RANK];
    if (rk < 1 || ints_attr(r, "multiples", m, rk) < 0)
        return -1;
    if ((ins[0] = val(r, operand(r, 0), -1)) < 0)
        return -1;
    nchw = rk == 4 && ent(r, operand(r, 0))->nchw;
    for (d = 0; d < rk; d++)
        m2[d] = m[nchw ? NHWC_OF[d] : d];
    ins[1] = const_i64(r, "repeats", m2, rk);
    out = node1(r, GIR_OP_TILE, ins, 2, NULL);
    def(r, result(r, 0), out, nchw);
    return 0;
}

static int rd_matmul(Rd *r)
{
    int ins[2], out;
    if (check_zero_points(r) < 0 || (ins[0] = val(r, operand(r, 0), 0)) < 0 ||
        (ins[1] = val(r, operand(r, 1), 0)) < 0)
        return -1;
    out = node1(r, GIR_OP_MATMUL, ins, 2, NULL);
    def(r, result(r, 0), out, 0);
    return 0;
}

static int rd_identity(Rd *r)
{
    Ent *x = ent(r, operand(r, 0)), *y = ent(r, result(r, 0));
    MlirValue key = y->key;
    *y = *x;
    y->key = key;
    return 0;
}

/* The ops read, by TOSA name. */
static const struct {
    const char *name; /* TOSA op */
    OpFn fn;          /* its reader */
} OPS[] = {
    {"tosa.const", rd_const},
    {"tosa.conv2d", rd_conv},
    {"tosa.depthwise_conv2d", rd_conv},
    {"tosa.fully_connected", rd_fc},
    {"tosa.matmul", rd_matmul},
    {"tosa.max_pool2d", rd_pool},
    {"tosa.avg_pool2d", rd_pool},
    {"tosa.add", rd_add},
    {"tosa.mul", rd_mul},
    {"tosa.clamp", rd_clamp},
    {"tosa.rescale", rd_rescale},
    {"tosa.cast", rd_cast},
    {"tosa.greater_equal", rd_greater_equal},
    {"tosa.select", rd_select},
    {"tosa.rsqrt", rd_rsqrt},
    {"tosa.concat", rd_concat},
    {"tosa.reshape", rd_reshape},
    {"tosa.transpose", rd_transpose},
    {"tosa.pad", rd_pad},
    {"tosa.resize", rd_resize},
    {"tosa.reduce_sum", rd_reduce},
    {"tosa.reduce_max", rd_reduce},
    {"tosa.reduce_min", rd_reduce},
    {"tosa.reduce_prod", rd_reduce},
    {"tosa.argmax", rd_argmax},
    {"tosa.slice", rd_slice},
    {"tosa.tile", rd_tile},
    {"tosa.identity", rd_identity},
};

static OpFn op_reader(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
        if (strcmp(name, OPS[i].name) == 0)
            return OPS[i].fn;
    for (i = 0; i < sizeof ELEMENTWISE / sizeof ELEMENTWISE[0]; i++)
        if (strcmp(name, ELEMENTWISE[i].name) == 0)
            return rd_element_table;
    return NULL;
}

/* ---- the function ---------------------------------------------------------------- */

/* The place of op in the file. */
static GirLoc op_loc(Rd *r, MlirOperation op)
{
    char buf[300];
    Sink s = {buf, 0, sizeof buf};
    GirLoc l = gir_loc_file(r->path, -1);
    int line, col;
    buf[0] = 0;
    mlirLocationPrint(mlirOperationGetLocation(op), sink_put, &s);
    loc_line_col(buf, &line, &col);
    l.line = line;
    r->col = col;
    return l;
}

/* The one func.func of the module. */
static int find_func(Rd *r, MlirModule m, MlirOperation *fn)
{
    MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
    int n = 0;
    char name[64];
    for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
        str_of(mlirIdentifierStr(mlirOperationGetName(op)), name, sizeof name);
        if (strcmp(name, "func.func") == 0) {
            if (n++ == 0)
                *fn = op;
            else {
                r->loc = op_loc(r, op);
                return rd_fail(r, "a second func.func; kiln reads a module with one function");
            }
        }
    }
    if (n == 0)
        return gir_error_at(r->e, gir_loc_file(r->path, -1), "no func.func in the module");
    return 0;
}

static int read_args(Rd *r, MlirBlock body)
{
    intptr_t i, n = mlirBlockGetNumArguments(body);
    for (i = 0; i < n; i++) {
        MlirValue a = mlirBlockGetArgument(body, i);
        GirType t;
        char what[32];
        int id;
        snprintf(what, sizeof what, "argument %d", (int)i);
        if (type_of(r, mlirValueGetType(a), &t, what) < 0)
            return -1;
        id = gir_add_value(r->g, fresh(r, gir_arena_printf(r->g->arena, "arg%d", (int)i)),
                           GIR_VAL_INPUT, t, r->loc);
        gir_add_input(r->g, id);
        def(r, a, id, 0);
    }
    return 0;
}

/* func.return: each result in the order the function gives it. */
static int read_return(Rd *r)
{
    intptr_t i, n = mlirOperationGetNumOperands(r->op);
    for (i = 0; i < n; i++) {
        MlirValue v = operand(r, (int)i);
        GirType t;
        char what[32];
        int id;
        snprintf(what, sizeof what, "result %d", (int)i);
        if (type_of(r, mlirValueGetType(v), &t, what) < 0 || (id = val(r, v, 0)) < 0)
            return -1;
        if (r->g->vals[id].kind != GIR_VAL_NODE) {
            int k = node1(r, GIR_OP_IDENTITY, &id, 1, gir_arena_printf(r->g->arena, "out%d", (int)i));
            id = k;
        }
        gir_add_output(r->g, id);
    }
    return 0;
}

static int read_body(Rd *r, MlirOperation fn)
{
    MlirRegion reg = mlirOperationGetRegion(fn, 0);
    MlirBlock body = mlirRegionGetFirstBlock(reg);
    MlirOperation op;
    char name[96];
    MlirAttribute sym = mlirOperationGetAttributeByName(fn, mlirStringRefCreateFromCString("sym_name"));
    r->loc = op_loc(r, fn);
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym)) {
        str_of(mlirStringAttrGetValue(sym), name, sizeof name);
        r->g->name = gir_arena_strdup(r->g->arena, name); /* the graph is named after @fn */
    }
    if (mlirBlockIsNull(body))
        return rd_fail(r, "the function has no body");
    if (!mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
        return rd_fail(r, "the function has more than one block");
    if (read_args(r, body) < 0)
        return -1;
    for (op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
        OpFn fn2;
        r->op = op;
        r->opname = str_of(mlirIdentifierStr(mlirOperationGetName(op)), name, sizeof name);
        r->opname = gir_arena_strdup(r->g->arena, name);
        r->loc = op_loc(r, op);
        if (strcmp(name, "func.return") == 0)
            return read_return(r);
        if (mlirOperationGetNumResults(op) != 1)
            return rd_fail(r, "%d results; the ops read have one",
                           (int)mlirOperationGetNumResults(op));
        fn2 = op_reader(name);
        if (!fn2)
            return rd_fail(r, "unsupported op (docs/tosa.md lists the ops read)");
        ent(r, result(r, 0)); /* made first: the reader's entry pointers stay put */
        if (fn2(r) < 0)
            return -1;
    }
    return rd_fail(r, "the function does not end in func.return");
}

/* MLIR's diagnostic as FILE:LINE:COL: message. */
static int diag_error(const char *path, const Diag *dg, const char *what, GirError *e)
{
    int line, col;
    if (!dg->have)
        return gir_error_at(e, gir_loc_file(path, -1), "%s", what);
    loc_line_col(dg->loc, &line, &col);
    if (line > 0)
        return gir_error_at(e, gir_loc_none(), "%s:%d:%d: %s", path, line, col, dg->msg);
    return gir_error_at(e, gir_loc_file(path, -1), "%s: %s", what, dg->msg);
}

GirGraph *fe_tosa_from_memory(const char *text, size_t len, const char *path, GirError *e)
{
    Diag dg;
    MlirContext ctx;
    MlirModule m;
    MlirOperation fn = {NULL};
    GirGraph *g = NULL;
    char *copy;
    Rd r;
    memset(&dg, 0, sizeof dg);
    if (!path)
        path = FE_MEMORY_NAME;
    /* MLIR's lexer reads up to a NUL past the end: parse a terminated copy */
    copy = malloc(len + 1);
    if (!copy)
        gir_die("out of memory");
    memcpy(copy, text, len);
    copy[len] = 0;
    ctx = tosa_context(&dg);
    m = mlirModuleCreateParse(ctx, mlirStringRefCreate(copy, len));
    free(copy);
    if (mlirModuleIsNull(m)) {
        diag_error(path, &dg, "not valid MLIR", e);
        mlirContextDestroy(ctx);
        return NULL;
    }
    if (!mlirOperationVerify(mlirModuleGetOperation(m))) {
        diag_error(path, &dg, "the module does not verify", e);
        goto done;
    }
    memset(&r, 0, sizeof r);
    r.g = gir_graph_new("tosa");
    r.g->source = gir_arena_strdup(r.g->arena, path);
    r.path = r.g->source;
    r.e = e;
    r.loc = gir_loc_file(path, -1);
    if (find_func(&r, m, &fn) < 0 || read_body(&r, fn) < 0 || gir_verify(r.g, e) < 0 ||
        gir_infer_shapes(r.g, e) < 0) {
        gir_graph_free(r.g);
        goto done;
    }
    gir_graph_compact(r.g, NULL); /* the OHWI originals of folded weights */
    g = r.g;
done:
    mlirModuleDestroy(m);
    mlirContextDestroy(ctx);
    return g;
}

GirGraph *fe_load_tosa(const char *path, GirError *e)
{
    size_t len;
    uint8_t *text = fe_read_file(path, TOSA_TEXT_MAX, &len, e);
    GirGraph *g;
    if (!text)
        return NULL;
    g = fe_tosa_from_memory((const char *)text, len, path, e);
    free(text);
    return g;
}
