/*
 * Shape rules: for each op of ops.h, the output types from the input types,
 * and from input data where the op's output shape depends on it (Reshape's
 * shape, Slice's starts, Resize's scales ...).  Data that is not known at
 * compile time leaves the affected dims at -1; the interpreter calls the same
 * rules with every tensor known and so gets concrete shapes.
 *
 * The rules are also the validator of hostile models: every input is checked
 * (ranks, dtypes, channel counts, attribute ranges, arithmetic overflow) and
 * a failure names the node and the op.  Dims are capped at DIM_MAX and
 * attribute integers at ATTR_MAX so that all shape arithmetic fits in int64.
 *
 * Every rule is here, in one table: the float ops, the quantize ops, ONNX's
 * quantized ops (QLinearConv ...), and the two rules that wrap another op's
 * rule: the int8 form's and the NHWC layout's (docs/ir.md says why they sit
 * with the dispatcher).  Kernels are in interp.c, interp_int8.c and qonnx.c.
 */
#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "graphir.h"
#include "internal.h"
#include "requant.h"

#define DIM_MAX ((int64_t)1 << 40)  /* no real tensor axis comes near this */
#define ATTR_MAX ((int64_t)1 << 31) /* kernel sizes, strides, pads, dilations */

typedef int ShapeFn(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                    GirError *e);

/* ---- small helpers --------------------------------------------------------- */

static GirType type_of(GirDType dt, int rank)
{
    GirType t;
    int i;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = rank;
    for (i = 0; i < GIR_MAX_RANK; i++)
        t.dims[i] = -1;
    return t;
}

/* Input i, or NULL when absent (left off at the end or marked absent). */
static const GirTensor *arg(const GirNode *n, const GirTensor *const *ins, int i)
{
    return i < n->nin ? ins[i] : NULL;
}

/* a * b for non-negative dims, saturating at INT64_MAX so that an overflow
 * is caught by the DIM_MAX check on outputs instead of wrapping. */
static int64_t mul_sat(int64_t a, int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    if (a > INT64_MAX / b)
        return INT64_MAX;
    return a * b;
}

/* Product of dims [lo, hi) of t; -1 if one is unknown. */
static int64_t dims_prod(const GirType *t, int lo, int hi)
{
    int64_t p = 1;
    int i;
    for (i = lo; i < hi; i++) {
        if (t->dims[i] < 0)
            return -1;
        p = mul_sat(p, t->dims[i]);
    }
    return p;
}

/* Numel with saturation; -1 when not static. */
static int64_t numel_sat(const GirType *t)
{
    if (t->rank < 0)
        return -1;
    return dims_prod(t, 0, t->rank);
}

static int is_float(GirDType d) { return d == GIR_DT_F32; }

static int need_f32(const GirNode *n, const GirTensor *t, const char *what, GirError *e)
{
    if (!is_float(t->type.dtype))
        return gir_node_fail(n, e, "%s has element type %s; only f32 is supported", what,
                    gir_dtype_name(t->type.dtype));
    return 0;
}

/* Normalise an axis against rank r (negative counts from the end). */
static int norm_axis(const GirNode *n, int64_t axis, int r, const char *what, int64_t *out,
                     GirError *e)
{
    *out = 0;
    if (axis < -(int64_t)r || axis >= r)
        return gir_node_fail(n, e, "%s %lld out of range for rank %d", what, (long long)axis, r);
    *out = axis < 0 ? axis + r : axis;
    return 0;
}

static int want_outs(const GirNode *n, int lo, int hi, GirError *e)
{
    if (n->nout < lo || n->nout > hi) {
        if (lo == hi)
            return gir_node_fail(n, e, "has %d outputs; expected %d", n->nout, lo);
        return gir_node_fail(n, e, "has %d outputs; expected %d to %d", n->nout, lo, hi);
    }
    return 0;
}

static int64_t load_int(const GirTensor *t, int64_t i)
{
    if (t->type.dtype == GIR_DT_I32)
        return ((const int32_t *)t->data)[i];
    return ((const int64_t *)t->data)[i];
}

/* Read a 1-D (or scalar) i64/i32 tensor of at most max entries into v.
 * Returns 0 with *count set, 1 when the data is not known (count from the
 * type when known, else -1), -1 on error. */
static int read_ints(const GirNode *n, const GirTensor *t, const char *what, int64_t *v,
                     int max, int *count, GirError *e)
{
    int64_t num, i;
    *count = -1;
    if (t->type.dtype != GIR_DT_I64 && t->type.dtype != GIR_DT_I32)
        return gir_node_fail(n, e, "%s must be i64 or i32, not %s", what,
                    gir_dtype_name(t->type.dtype));
    if (t->type.rank > 1)
        return gir_node_fail(n, e, "%s must be 1-D, has rank %d", what, t->type.rank);
    num = numel_sat(&t->type);
    if (num > max)
        return gir_node_fail(n, e, "%s has %lld entries; at most %d allowed", what, (long long)num,
                    max);
    if (num >= 0)
        *count = (int)num;
    if (!t->data || num < 0)
        return 1;
    for (i = 0; i < num; i++)
        v[i] = load_int(t, i);
    return 0;
}

/* An ints attribute of exactly want entries (default dflt each when absent). */
static int attr_ints(const GirNode *n, const char *name, int want, int64_t dflt, int64_t lo,
                     int64_t *v, GirError *e)
{
    int cnt, i;
    const int64_t *a = gir_attr_ints(n, name, &cnt);
    const GirAttr *raw = gir_attr(n, name);
    if (raw && raw->kind != GIR_ATTR_INTS)
        return gir_node_fail(n, e, "attribute %s must be a list of ints", name);
    if (!a) {
        for (i = 0; i < want; i++)
            v[i] = dflt;
        return 0;
    }
    if (cnt != want)
        return gir_node_fail(n, e, "attribute %s has %d entries; expected %d", name, cnt, want);
    for (i = 0; i < want; i++) {
        if (a[i] < lo || a[i] > ATTR_MAX)
            return gir_node_fail(n, e, "attribute %s[%d] = %lld out of range", name, i,
                        (long long)a[i]);
        v[i] = a[i];
    }
    return 0;
}

/* ---- sliding windows (Conv, MaxPool, AveragePool) ------------------------------ */

typedef struct {
    int nsp;                   /* spatial axes */
    int64_t k[GIR_MAX_RANK];   /* kernel extent per axis; -1 unknown */
    int64_t s[GIR_MAX_RANK];   /* strides */
    int64_t d[GIR_MAX_RANK];   /* dilations */
    int64_t pad[2 * GIR_MAX_RANK]; /* begins then ends (NOTSET only) */
    int ceil_mode;             /* pools: round the output size up */
    int same;                  /* 0 NOTSET, 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID */
} Window;

static int window_attrs(const GirNode *n, int nsp, Window *w, GirError *e)
{
    const char *ap = gir_attr_string(n, "auto_pad", "NOTSET");
    w->nsp = nsp;
    if (attr_ints(n, "strides", nsp, 1, 1, w->s, e) ||
        attr_ints(n, "dilations", nsp, 1, 1, w->d, e) ||
        attr_ints(n, "pads", 2 * nsp, 0, 0, w->pad, e))
        return -1;
    w->ceil_mode = (int)gir_attr_int(n, "ceil_mode", 0) != 0;
    if (strcmp(ap, "NOTSET") == 0)
        w->same = 0;
    else if (strcmp(ap, "SAME_UPPER") == 0)
        w->same = 1;
    else if (strcmp(ap, "SAME_LOWER") == 0)
        w->same = 2;
    else if (strcmp(ap, "VALID") == 0)
        w->same = 3;
    else
        return gir_node_fail(n, e, "unknown auto_pad '%s'", ap);
    return 0;
}

/* Output extent of one spatial axis; -1 when in or the kernel is unknown. */
static int window_out(const GirNode *n, const Window *w, int ax, int64_t in, int64_t *out,
                      GirError *e)
{
    int64_t ek, span, s = w->s[ax];
    *out = -1;
    if (in < 0 || w->k[ax] < 0)
        return 0;
    ek = (w->k[ax] - 1) * w->d[ax] + 1;
    if (w->same == 1 || w->same == 2) {
        *out = (in + s - 1) / s;
        return 0;
    }
    span = in - ek;
    if (w->same == 0)
        span += w->pad[ax] + w->pad[w->nsp + ax];
    if (span < 0)
        return gir_node_fail(n, e, "kernel extent %lld larger than padded input %lld on spatial axis %d",
                    (long long)ek, (long long)(span + ek), ax);
    if (w->ceil_mode && w->same == 0) {
        *out = (span + s - 1) / s + 1;
        /* A last window that would start inside the end padding is dropped
         * (the rule of PyTorch and onnxruntime). */
        if ((*out - 1) * s >= in + w->pad[ax])
            (*out)--;
    } else {
        *out = span / s + 1;
    }
    return 0;
}

/* ---- the rules, one per op ----------------------------------------------------- */

static int shape_CONV(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirTensor *x = ins[0], *w = ins[1], *b = arg(n, ins, 2);
    const GirType *xt = &x->type, *wt = &w->type;
    int64_t group = gir_attr_int(n, "group", 1), ks[GIR_MAX_RANK];
    int r, i, nks;
    const int64_t *kattr = gir_attr_ints(n, "kernel_shape", &nks);
    Window win;
    if (want_outs(n, 1, 1, e) || need_f32(n, x, "input X", e) || need_f32(n, w, "weights W", e))
        return -1;
    r = xt->rank >= 0 ? xt->rank : wt->rank;
    if (xt->rank >= 0 && wt->rank >= 0 && xt->rank != wt->rank)
        return gir_node_fail(n, e, "input X has rank %d but weights W have rank %d", xt->rank, wt->rank);
    outs[0] = type_of(GIR_DT_F32, r);
    if (r < 0)
        return 0;
    if (r < 3)
        return gir_node_fail(n, e, "input X must have rank 3 or more (N, C, spatial...), has %d", r);
    if (group < 1 || group > ATTR_MAX)
        return gir_node_fail(n, e, "group %lld must be positive", (long long)group);
    if (kattr && nks != r - 2)
        return gir_node_fail(n, e, "kernel_shape has %d entries; expected %d", nks, r - 2);
    for (i = 0; i < r - 2; i++) {
        ks[i] = wt->rank >= 0 ? wt->dims[i + 2] : -1;
        if (kattr) {
            if (kattr[i] < 1 || kattr[i] > ATTR_MAX)
                return gir_node_fail(n, e, "kernel_shape[%d] = %lld out of range", i,
                            (long long)kattr[i]);
            if (ks[i] >= 0 && ks[i] != kattr[i])
                return gir_node_fail(n, e, "kernel_shape[%d] = %lld but weights W have %lld", i,
                            (long long)kattr[i], (long long)ks[i]);
            ks[i] = kattr[i];
        }
        if (ks[i] == 0)
            return gir_node_fail(n, e, "weights W have an empty kernel axis %d", i);
        if (ks[i] > ATTR_MAX)
            return gir_node_fail(n, e, "kernel axis %d of %lld too large", i, (long long)ks[i]);
    }
    if (window_attrs(n, r - 2, &win, e))
        return -1;
    memcpy(win.k, ks, sizeof ks);
    win.ceil_mode = 0;
    if (wt->rank >= 0) {
        int64_t m = wt->dims[0], cg = wt->dims[1];
        if (m >= 0 && m % group)
            return gir_node_fail(n, e, "%lld output channels not divisible by group %lld",
                        (long long)m, (long long)group);
        if (cg == 0)
            return gir_node_fail(n, e, "weights W have 0 input channels");
        if (cg >= 0 && xt->rank >= 0 && xt->dims[1] >= 0 &&
            mul_sat(cg, group) != xt->dims[1])
            return gir_node_fail(n, e,
                        "input X has %lld channels but weights W expect %lld (%lld per group x "
                        "group %lld)",
                        (long long)xt->dims[1], (long long)mul_sat(cg, group), (long long)cg,
                        (long long)group);
        outs[0].dims[1] = m;
    }
    if (xt->rank >= 0 && xt->dims[1] >= 0 && xt->dims[1] % group)
        return gir_node_fail(n, e, "%lld input channels not divisible by group %lld",
                    (long long)xt->dims[1], (long long)group);
    if (b) {
        if (need_f32(n, b, "bias B", e))
            return -1;
        if (b->type.rank >= 0 && b->type.rank != 1)
            return gir_node_fail(n, e, "bias B must be 1-D, has rank %d", b->type.rank);
        if (b->type.rank == 1 && b->type.dims[0] >= 0 && outs[0].dims[1] >= 0 &&
            b->type.dims[0] != outs[0].dims[1])
            return gir_node_fail(n, e, "bias B has %lld entries but there are %lld output channels",
                        (long long)b->type.dims[0], (long long)outs[0].dims[1]);
        if (outs[0].dims[1] < 0 && b->type.rank == 1)
            outs[0].dims[1] = b->type.dims[0];
    }
    outs[0].dims[0] = xt->rank >= 0 ? xt->dims[0] : -1;
    for (i = 0; i < r - 2; i++)
        if (window_out(n, &win, i, xt->rank >= 0 ? xt->dims[i + 2] : -1, &outs[0].dims[i + 2],
                       e))
            return -1;
    return 0;
}

static int shape_BATCHNORM(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                           GirError *e)
{
    static const char *const names[] = {"X", "scale", "B", "input_mean", "input_var"};
    const GirType *xt = &ins[0]->type;
    int64_t c = xt->rank >= 2 ? xt->dims[1] : -1;
    int i;
    if (n->nout > 1)
        return gir_node_fail(n, e, "training-mode outputs (mean, var) are not supported");
    if (gir_attr_int(n, "training_mode", 0) != 0)
        return gir_node_fail(n, e, "training_mode=1 is not supported");
    if (want_outs(n, 1, 1, e))
        return -1;
    if (xt->rank >= 0 && xt->rank < 2)
        return gir_node_fail(n, e, "input X must have rank 2 or more, has %d", xt->rank);
    for (i = 0; i < 5; i++) {
        const GirType *t = &ins[i]->type;
        char what[32];
        snprintf(what, sizeof what, "input %s", names[i]);
        if (need_f32(n, ins[i], what, e))
            return -1;
        if (i == 0)
            continue;
        if (t->rank >= 0 && t->rank != 1)
            return gir_node_fail(n, e, "input %s must be 1-D, has rank %d", names[i], t->rank);
        if (t->rank == 1 && t->dims[0] >= 0 && c >= 0 && t->dims[0] != c)
            return gir_node_fail(n, e, "input %s has %lld entries but X has %lld channels", names[i],
                        (long long)t->dims[0], (long long)c);
    }
    outs[0] = *xt;
    return 0;
}

/* Float-only ops that keep the shape. */
static int same_f32(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (want_outs(n, 1, 1, e) || need_f32(n, ins[0], "input", e))
        return -1;
    outs[0] = ins[0]->type;
    return 0;
}

static int shape_RELU(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return same_f32(n, ins, outs, e);
}

static int shape_LEAKYRELU(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                           GirError *e)
{
    return same_f32(n, ins, outs, e);
}

static int shape_SIGMOID(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                         GirError *e)
{
    return same_f32(n, ins, outs, e);
}

static int shape_TANH(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return same_f32(n, ins, outs, e);
}

/* Element types the numeric kernels accept besides f32. */
static int is_numeric(GirDType d)
{
    return d == GIR_DT_F32 || d == GIR_DT_F64 || d == GIR_DT_I32 || d == GIR_DT_I64 ||
           d == GIR_DT_I8 || d == GIR_DT_U8 || d == GIR_DT_I16 || d == GIR_DT_U16 ||
           d == GIR_DT_U32 || d == GIR_DT_U64 || d == GIR_DT_F16;
}

static int shape_CLIP(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    int i;
    GirDType dt = ins[0]->type.dtype;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!is_numeric(dt))
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(dt));
    for (i = 1; i < 3; i++) {
        const GirTensor *b = arg(n, ins, i);
        int64_t num;
        if (!b)
            continue;
        if (b->type.dtype != dt)
            return gir_node_fail(n, e, "%s has element type %s but input is %s", i == 1 ? "min" : "max",
                        gir_dtype_name(b->type.dtype), gir_dtype_name(dt));
        num = numel_sat(&b->type);
        if (num >= 0 && num != 1)
            return gir_node_fail(n, e, "%s must be a scalar, has %lld elements", i == 1 ? "min" : "max",
                        (long long)num);
    }
    outs[0] = ins[0]->type;
    return 0;
}

static int shape_SOFTMAX(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                         GirError *e)
{
    int64_t ax;
    int r = ins[0]->type.rank;
    int coerce = (int)gir_attr_int(n, "coerce2d", 0);
    if (same_f32(n, ins, outs, e))
        return -1;
    if (r >= 0) {
        if (r == 0)
            return gir_node_fail(n, e, "input must have rank 1 or more");
        if (norm_axis(n, gir_attr_int(n, "axis", coerce ? 1 : -1), r, "axis", &ax, e))
            return -1;
    }
    return 0;
}

static int shape_pool(const GirNode *n, const GirTensor *const *ins, GirType *outs, int is_max,
                      GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int nk, i, r = xt->rank;
    const int64_t *k = gir_attr_ints(n, "kernel_shape", &nk);
    Window win;
    if (want_outs(n, 1, is_max ? 2 : 1, e))
        return -1;
    if (is_max) {
        GirDType d = xt->dtype;
        if (d != GIR_DT_F32 && d != GIR_DT_U8 && d != GIR_DT_I8)
            return gir_node_fail(n, e, "input has element type %s; f32, u8 and i8 are supported",
                        gir_dtype_name(d));
        if (gir_attr_int(n, "storage_order", 0) != 0 && gir_attr_int(n, "storage_order", 0) != 1)
            return gir_node_fail(n, e, "storage_order must be 0 or 1");
    } else if (need_f32(n, ins[0], "input", e)) {
        return -1;
    }
    if (!k)
        return gir_node_fail(n, e, "attribute kernel_shape is required");
    if (r >= 0 && r < 3)
        return gir_node_fail(n, e, "input must have rank 3 or more (N, C, spatial...), has %d", r);
    if (r >= 0 && nk != r - 2)
        return gir_node_fail(n, e, "kernel_shape has %d entries but input has %d spatial axes", nk,
                    r - 2);
    if (nk < 1 || nk > GIR_MAX_RANK - 2)
        return gir_node_fail(n, e, "kernel_shape has %d entries", nk);
    if (attr_ints(n, "kernel_shape", nk, 1, 1, win.k, e) || window_attrs(n, nk, &win, e))
        return -1;
    outs[0] = type_of(xt->dtype, nk + 2);
    if (r >= 0) {
        outs[0].dims[0] = xt->dims[0];
        outs[0].dims[1] = xt->dims[1];
    }
    for (i = 0; i < nk; i++)
        if (window_out(n, &win, i, r >= 0 ? xt->dims[i + 2] : -1, &outs[0].dims[i + 2], e))
            return -1;
    if (n->nout == 2) {
        outs[1] = outs[0];
        outs[1].dtype = GIR_DT_I64;
    }
    return 0;
}

static int shape_MAXPOOL(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                         GirError *e)
{
    return shape_pool(n, ins, outs, 1, e);
}

static int shape_AVGPOOL(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                         GirError *e)
{
    return shape_pool(n, ins, outs, 0, e);
}

static int shape_GLOBALAVGPOOL(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                               GirError *e)
{
    int i, r = ins[0]->type.rank;
    if (same_f32(n, ins, outs, e))
        return -1;
    if (r >= 0 && r < 3)
        return gir_node_fail(n, e, "input must have rank 3 or more (N, C, spatial...), has %d", r);
    for (i = 2; i < r; i++)
        outs[0].dims[i] = 1;
    return 0;
}

/* Numpy multidirectional broadcasting of two types into out. */
static int broadcast(const GirNode *n, const GirType *a, const GirType *b, GirType *out,
                     GirError *e)
{
    int i, r;
    if (a->rank < 0 || b->rank < 0) {
        *out = type_of(a->dtype, -1);
        return 0;
    }
    r = a->rank > b->rank ? a->rank : b->rank;
    *out = type_of(a->dtype, r);
    for (i = 0; i < r; i++) {
        int ia = i - (r - a->rank), ib = i - (r - b->rank);
        int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
        if (da == 1)
            out->dims[i] = db;
        else if (db == 1)
            out->dims[i] = da;
        else if (da >= 0 && db >= 0 && da != db)
            return gir_node_fail(n, e, "cannot broadcast dim %lld with dim %lld (axis %d of the result)",
                        (long long)da, (long long)db, i);
        else
            out->dims[i] = da >= 0 ? da : db;
    }
    return 0;
}

static int shape_binary(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                        GirError *e)
{
    GirDType da = ins[0]->type.dtype, db = ins[1]->type.dtype;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (da != db)
        return gir_node_fail(n, e, "operands have element types %s and %s", gir_dtype_name(da),
                    gir_dtype_name(db));
    if (!is_numeric(da))
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(da));
    return broadcast(n, &ins[0]->type, &ins[1]->type, &outs[0], e);
}

static int shape_ADD(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_binary(n, ins, outs, e);
}

static int shape_SUB(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_binary(n, ins, outs, e);
}

static int shape_MUL(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_binary(n, ins, outs, e);
}

static int shape_DIV(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_binary(n, ins, outs, e);
}

static int shape_CONCAT(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                        GirError *e)
{
    const GirAttr *axa = gir_attr(n, "axis");
    int i, j, r = -1;
    int64_t ax, sum = 0;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!axa || axa->kind != GIR_ATTR_INT)
        return gir_node_fail(n, e, "attribute axis is required");
    for (i = 0; i < n->nin; i++) {
        if (!ins[i])
            return gir_node_fail(n, e, "input %d is absent", i);
        if (ins[i]->type.dtype != ins[0]->type.dtype)
            return gir_node_fail(n, e, "input %d has element type %s but input 0 has %s", i,
                        gir_dtype_name(ins[i]->type.dtype), gir_dtype_name(ins[0]->type.dtype));
        if (ins[i]->type.rank >= 0) {
            if (r >= 0 && ins[i]->type.rank != r)
                return gir_node_fail(n, e, "input %d has rank %d but others have rank %d", i,
                            ins[i]->type.rank, r);
            r = ins[i]->type.rank;
        }
    }
    outs[0] = type_of(ins[0]->type.dtype, r);
    if (r < 0)
        return 0;
    if (r == 0)
        return gir_node_fail(n, e, "cannot concatenate scalars");
    if (norm_axis(n, axa->i, r, "axis", &ax, e))
        return -1;
    for (i = 0; i < n->nin; i++) {
        const GirType *t = &ins[i]->type;
        if (t->rank < 0) {
            sum = -1;
            continue;
        }
        for (j = 0; j < r; j++) {
            if (j == ax || t->dims[j] < 0)
                continue;
            if (outs[0].dims[j] >= 0 && outs[0].dims[j] != t->dims[j])
                return gir_node_fail(n, e, "input %d has dim %lld on axis %d but another input has %lld",
                            i, (long long)t->dims[j], j, (long long)outs[0].dims[j]);
            outs[0].dims[j] = t->dims[j];
        }
        if (t->dims[ax] < 0 || sum < 0)
            sum = -1;
        else
            sum += t->dims[ax];
    }
    outs[0].dims[ax] = sum;
    return 0;
}

static int shape_SPLIT(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                       GirError *e)
{
    const GirType *xt = &ins[0]->type;
    const GirTensor *sp = arg(n, ins, 1);
    int64_t sizes[64], ax, dim, num_outputs = gir_attr_int(n, "num_outputs", 0);
    int i, cnt = -1, known = 0;
    if (n->nout < 1 || n->nout > 64)
        return gir_node_fail(n, e, "has %d outputs; expected 1 to 64", n->nout);
    for (i = 0; i < n->nout; i++)
        outs[i] = type_of(xt->dtype, xt->rank);
    if (sp) {
        int rc = read_ints(n, sp, "split", sizes, 64, &cnt, e);
        if (rc < 0)
            return -1;
        if (cnt >= 0 && cnt != n->nout)
            return gir_node_fail(n, e, "split has %d entries but the node has %d outputs", cnt, n->nout);
        known = rc == 0;
        for (i = 0; known && i < cnt; i++)
            if (sizes[i] < 0)
                return gir_node_fail(n, e, "split[%d] = %lld is negative", i, (long long)sizes[i]);
    } else if (num_outputs && num_outputs != n->nout) {
        return gir_node_fail(n, e, "num_outputs %lld but the node has %d outputs", (long long)num_outputs,
                    n->nout);
    }
    if (xt->rank < 0)
        return 0;
    if (xt->rank == 0)
        return gir_node_fail(n, e, "cannot split a scalar");
    if (norm_axis(n, gir_attr_int(n, "axis", 0), xt->rank, "axis", &ax, e))
        return -1;
    dim = xt->dims[ax];
    if (sp && known) {
        int64_t sum = 0;
        for (i = 0; i < cnt; i++) {
            if (sizes[i] > DIM_MAX)
                return gir_node_fail(n, e, "split[%d] = %lld out of range", i, (long long)sizes[i]);
            sum += sizes[i]; /* at most 64 terms of 2^40: no overflow */
        }
        if (dim >= 0 && sum != dim)
            return gir_node_fail(n, e, "split sizes add up to %lld but axis %lld has %lld",
                        (long long)sum, (long long)ax, (long long)dim);
    } else if (!sp && dim >= 0) {
        int64_t chunk;
        if (num_outputs) {
            chunk = (dim + n->nout - 1) / n->nout;
        } else {
            if (dim % n->nout)
                return gir_node_fail(n, e, "axis %lld of %lld does not split evenly into %d outputs",
                            (long long)ax, (long long)dim, n->nout);
            chunk = dim / n->nout;
        }
        for (i = 0; i < n->nout; i++) {
            int64_t left = dim - chunk * i;
            sizes[i] = left < chunk ? (left > 0 ? left : 0) : chunk;
        }
        known = 1;
    }
    for (i = 0; i < n->nout; i++) {
        memcpy(outs[i].dims, xt->dims, sizeof xt->dims);
        outs[i].dims[ax] = known ? sizes[i] : -1;
    }
    return 0;
}

/* Clamp Slice's start and end for one axis of extent dim (ONNX rules) and
 * return the number of elements taken. */
static int64_t slice_count(int64_t dim, int64_t *start, int64_t *end, int64_t step)
{
    int64_t s = *start, t = *end;
    if (s < 0)
        s += dim;
    if (t < 0)
        t += dim;
    if (step > 0) {
        s = s < 0 ? 0 : (s > dim ? dim : s);
        t = t < 0 ? 0 : (t > dim ? dim : t);
        *start = s;
        *end = t;
        return t > s ? (t - s - 1) / step + 1 : 0;
    }
    s = s < 0 ? -1 : (s > dim - 1 ? dim - 1 : s);
    t = t < -1 ? -1 : (t > dim - 1 ? dim - 1 : t);
    *start = s;
    *end = t;
    /* The caller clamps step above INT64_MIN, so -step cannot overflow. */
    return s > t ? (s - t - 1) / (-step) + 1 : 0;
}

static int shape_SLICE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                       GirError *e)
{
    const GirType *xt = &ins[0]->type;
    const GirTensor *ta = arg(n, ins, 3), *tstep = arg(n, ins, 4);
    int64_t st[GIR_MAX_RANK], en[GIR_MAX_RANK], axes[GIR_MAX_RANK], steps[GIR_MAX_RANK];
    int c1, c2, c3 = -1, c4 = -1, r1, r2, r3 = 0, r4 = 0, i, j, r = xt->rank;
    int max = r >= 0 ? r : GIR_MAX_RANK;
    if (want_outs(n, 1, 1, e))
        return -1;
    if ((r1 = read_ints(n, ins[1], "starts", st, max, &c1, e)) < 0 ||
        (r2 = read_ints(n, ins[2], "ends", en, max, &c2, e)) < 0 ||
        (ta && (r3 = read_ints(n, ta, "axes", axes, max, &c3, e)) < 0) ||
        (tstep && (r4 = read_ints(n, tstep, "steps", steps, max, &c4, e)) < 0))
        return -1;
    if (c1 >= 0 && c2 >= 0 && c1 != c2)
        return gir_node_fail(n, e, "starts has %d entries but ends has %d", c1, c2);
    if (c1 >= 0 && c3 >= 0 && c1 != c3)
        return gir_node_fail(n, e, "starts has %d entries but axes has %d", c1, c3);
    if (c1 >= 0 && c4 >= 0 && c1 != c4)
        return gir_node_fail(n, e, "starts has %d entries but steps has %d", c1, c4);
    if (ins[1]->type.dtype != ins[2]->type.dtype)
        return gir_node_fail(n, e, "starts and ends have different element types");
    outs[0] = *xt;
    if (r < 0)
        return 0;
    if (c1 < 0)
        c1 = c2;
    /* Unknown axes data or an unknown count: any axis may be cut. */
    if ((ta && r3 == 1) || c1 < 0) {
        for (i = 0; i < r; i++)
            outs[0].dims[i] = -1;
        return 0;
    }
    if (!ta)
        for (i = 0; i < c1; i++)
            axes[i] = i;
    for (i = 0; i < c1; i++) {
        int64_t ax;
        if (norm_axis(n, axes[i], r, "axes entry", &ax, e))
            return -1;
        axes[i] = ax;
        for (j = 0; j < i; j++)
            if (axes[j] == ax)
                return gir_node_fail(n, e, "axis %lld repeated in axes", (long long)ax);
    }
    for (i = 0; i < c1; i++) {
        int64_t step = tstep ? steps[i] : 1, s = st[i], t = en[i], ax = axes[i];
        if (step == 0)
            return gir_node_fail(n, e, "steps[%d] is 0", i);
        if (r1 || r2 || r4 || xt->dims[ax] < 0) {
            outs[0].dims[ax] = -1;
            continue;
        }
        if (step < -INT64_MAX)
            step = -INT64_MAX;
        outs[0].dims[ax] = slice_count(xt->dims[ax], &s, &t, step);
    }
    return 0;
}

static int read_floats(const GirNode *n, const GirTensor *t, const char *what, double *v,
                       int max, int *count, GirError *e)
{
    int64_t num, i;
    *count = -1;
    if (t->type.dtype != GIR_DT_F32)
        return gir_node_fail(n, e, "%s must be f32, not %s", what, gir_dtype_name(t->type.dtype));
    if (t->type.rank > 1)
        return gir_node_fail(n, e, "%s must be 1-D, has rank %d", what, t->type.rank);
    num = numel_sat(&t->type);
    if (num > max)
        return gir_node_fail(n, e, "%s has %lld entries; expected at most %d", what, (long long)num, max);
    if (num >= 0)
        *count = (int)num;
    if (!t->data || num < 0)
        return 1;
    for (i = 0; i < num; i++)
        v[i] = ((const float *)t->data)[i];
    return 0;
}

static int shape_RESIZE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                        GirError *e)
{
    /* tf_half_pixel_for_nn: the name in the first Resize draft, still in
     * some of the ONNX backend test models; it means the same. */
    static const char *const ctms[] = {"half_pixel", "asymmetric", "align_corners",
                                       "pytorch_half_pixel", "tf_half_pixel_for_nearest",
                                       "tf_half_pixel_for_nn", "tf_crop_and_resize"};
    static const char *const nms[] = {"round_prefer_floor", "round_prefer_ceil", "floor",
                                      "ceil"};
    const GirType *xt = &ins[0]->type;
    const GirTensor *roi = arg(n, ins, 1), *sc = arg(n, ins, 2), *sz = arg(n, ins, 3);
    const char *mode = gir_attr_string(n, "mode", "nearest");
    const char *ctm = gir_attr_string(n, "coordinate_transformation_mode", "half_pixel");
    const char *nm = gir_attr_string(n, "nearest_mode", "round_prefer_floor");
    double scales[GIR_MAX_RANK], rois[2 * GIR_MAX_RANK];
    int64_t sizes[GIR_MAX_RANK];
    int i, ok, cnt, rc, rcroi = 1, r = xt->rank, crop = strcmp(ctm, "tf_crop_and_resize") == 0;
    if (want_outs(n, 1, 1, e) || need_f32(n, ins[0], "input X", e))
        return -1;
    if (strcmp(mode, "nearest") != 0 && strcmp(mode, "linear") != 0 &&
        strcmp(mode, "cubic") != 0)
        return gir_node_fail(n, e, "unknown mode '%s'", mode);
    for (ok = 0, i = 0; i < 7; i++)
        ok |= strcmp(ctm, ctms[i]) == 0;
    if (!ok)
        return gir_node_fail(n, e, "unknown coordinate_transformation_mode '%s'", ctm);
    for (ok = 0, i = 0; i < 4; i++)
        ok |= strcmp(nm, nms[i]) == 0;
    if (!ok)
        return gir_node_fail(n, e, "unknown nearest_mode '%s'", nm);
    if (gir_attr(n, "axes") || gir_attr_int(n, "antialias", 0) ||
        strcmp(gir_attr_string(n, "keep_aspect_ratio_policy", "stretch"), "stretch") != 0)
        return gir_node_fail(n, e, "attributes axes, antialias and keep_aspect_ratio_policy are not "
                          "supported");
    /* Exporters pass an empty scales tensor when they give sizes. */
    if (sc && numel_sat(&sc->type) == 0)
        sc = NULL;
    if (!!sc == !!sz)
        return gir_node_fail(n, e, "exactly one of scales and sizes must be given");
    if (crop) {
        if (!roi)
            return gir_node_fail(n, e, "tf_crop_and_resize needs the roi input");
        rcroi = read_floats(n, roi, "roi", rois, 2 * GIR_MAX_RANK, &cnt, e);
        if (rcroi < 0)
            return -1;
        if (r >= 0 && cnt >= 0 && cnt != 2 * r)
            return gir_node_fail(n, e, "roi has %d entries; expected %d", cnt, 2 * r);
    }
    outs[0] = type_of(GIR_DT_F32, r);
    if (sz) {
        rc = read_ints(n, sz, "sizes", sizes, GIR_MAX_RANK, &cnt, e);
        if (rc < 0)
            return -1;
        if (r < 0 && cnt >= 0)
            outs[0].rank = r = cnt;
        if (cnt >= 0 && cnt != r)
            return gir_node_fail(n, e, "sizes has %d entries but input has rank %d", cnt, r);
        if (rc)
            return 0;
        for (i = 0; i < r; i++) {
            if (sizes[i] < 1 || sizes[i] > DIM_MAX)
                return gir_node_fail(n, e, "sizes[%d] = %lld out of range", i, (long long)sizes[i]);
            outs[0].dims[i] = sizes[i];
        }
        return 0;
    }
    rc = read_floats(n, sc, "scales", scales, GIR_MAX_RANK, &cnt, e);
    if (rc < 0)
        return -1;
    if (r < 0 && cnt >= 0)
        outs[0].rank = r = cnt;
    if (cnt >= 0 && cnt != r)
        return gir_node_fail(n, e, "scales has %d entries but input has rank %d", cnt, r);
    if (rc || (crop && rcroi))
        return 0;
    for (i = 0; i < r; i++) {
        double d, span = crop ? rois[r + i] - rois[i] : 1;
        if (!(scales[i] > 0) || scales[i] > 1e6)
            return gir_node_fail(n, e, "scales[%d] = %g out of range", i, scales[i]);
        if (!(span > 0) || span > 1e6)
            return gir_node_fail(n, e, "roi on axis %d is empty or out of range", i);
        if (xt->dims[i] < 0)
            continue;
        d = floor((double)xt->dims[i] * span * scales[i]);
        if (d < 1 || d > (double)DIM_MAX)
            return gir_node_fail(n, e, "axis %d of %lld scaled by %g gives %g elements", i,
                        (long long)xt->dims[i], scales[i], d);
        outs[0].dims[i] = (int64_t)d;
    }
    return 0;
}

static int shape_GEMM(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *at = &ins[0]->type, *bt = &ins[1]->type;
    const GirTensor *c = arg(n, ins, 2);
    int ta = gir_attr_int(n, "transA", 0) != 0, tb = gir_attr_int(n, "transB", 0) != 0;
    int64_t m = -1, k1 = -1, k2 = -1, nn = -1;
    if (want_outs(n, 1, 1, e) || need_f32(n, ins[0], "input A", e) ||
        need_f32(n, ins[1], "input B", e) || (c && need_f32(n, c, "input C", e)))
        return -1;
    if (at->rank >= 0 && at->rank != 2)
        return gir_node_fail(n, e, "input A must be 2-D, has rank %d", at->rank);
    if (bt->rank >= 0 && bt->rank != 2)
        return gir_node_fail(n, e, "input B must be 2-D, has rank %d", bt->rank);
    if (at->rank == 2) {
        m = at->dims[ta ? 1 : 0];
        k1 = at->dims[ta ? 0 : 1];
    }
    if (bt->rank == 2) {
        k2 = bt->dims[tb ? 1 : 0];
        nn = bt->dims[tb ? 0 : 1];
    }
    if (k1 >= 0 && k2 >= 0 && k1 != k2)
        return gir_node_fail(n, e, "A has inner dim %lld but B has %lld", (long long)k1, (long long)k2);
    outs[0] = type_of(GIR_DT_F32, 2);
    outs[0].dims[0] = m;
    outs[0].dims[1] = nn;
    if (c) {
        const GirType *ct = &c->type;
        int i;
        if (ct->rank > 2)
            return gir_node_fail(n, e, "input C has rank %d; at most 2 allowed", ct->rank);
        for (i = 0; i < ct->rank; i++) {
            int64_t want = outs[0].dims[2 - ct->rank + i];
            if (ct->dims[i] >= 0 && ct->dims[i] != 1 && want >= 0 && ct->dims[i] != want)
                return gir_node_fail(n, e, "input C dim %lld does not broadcast to %lld",
                            (long long)ct->dims[i], (long long)want);
        }
    }
    return 0;
}

static int shape_MATMUL(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                        GirError *e)
{
    GirType a = ins[0]->type, b = ins[1]->type, ba, bb, bo;
    int ra = a.rank, rb = b.rank, i;
    int64_t m, k1, k2, nn;
    if (want_outs(n, 1, 1, e) || need_f32(n, ins[0], "input A", e) ||
        need_f32(n, ins[1], "input B", e))
        return -1;
    if (ra < 0 || rb < 0) {
        outs[0] = type_of(GIR_DT_F32, -1);
        return 0;
    }
    if (ra == 0 || rb == 0)
        return gir_node_fail(n, e, "operands must have rank 1 or more");
    m = ra >= 2 ? a.dims[ra - 2] : 1;
    k1 = a.dims[ra - 1];
    k2 = rb >= 2 ? b.dims[rb - 2] : b.dims[0];
    nn = rb >= 2 ? b.dims[rb - 1] : 1;
    if (k1 >= 0 && k2 >= 0 && k1 != k2)
        return gir_node_fail(n, e, "A has inner dim %lld but B has %lld", (long long)k1, (long long)k2);
    ba = type_of(GIR_DT_F32, ra > 2 ? ra - 2 : 0);
    bb = type_of(GIR_DT_F32, rb > 2 ? rb - 2 : 0);
    for (i = 0; i < ba.rank; i++)
        ba.dims[i] = a.dims[i];
    for (i = 0; i < bb.rank; i++)
        bb.dims[i] = b.dims[i];
    if (broadcast(n, &ba, &bb, &bo, e))
        return -1;
    outs[0] = bo;
    if (ra >= 2)
        outs[0].dims[outs[0].rank++] = m;
    if (rb >= 2)
        outs[0].dims[outs[0].rank++] = nn;
    if (outs[0].rank > GIR_MAX_RANK)
        return gir_node_fail(n, e, "result rank too large");
    return 0;
}

static int shape_RESHAPE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                         GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t sh[GIR_MAX_RANK], known = 1, total = numel_sat(xt);
    int cnt, rc, i, infer = -1, allowzero = gir_attr_int(n, "allowzero", 0) != 0;
    if (want_outs(n, 1, 1, e))
        return -1;
    rc = read_ints(n, ins[1], "shape", sh, GIR_MAX_RANK, &cnt, e);
    if (rc < 0)
        return -1;
    outs[0] = type_of(xt->dtype, cnt);
    if (rc)
        return 0;
    for (i = 0; i < cnt; i++) {
        if (sh[i] == -1) {
            if (infer >= 0)
                return gir_node_fail(n, e, "shape has more than one -1");
            infer = i;
            continue;
        }
        if (sh[i] < -1 || sh[i] > DIM_MAX)
            return gir_node_fail(n, e, "shape[%d] = %lld out of range", i, (long long)sh[i]);
        if (sh[i] == 0 && !allowzero) {
            if (xt->rank >= 0 && i >= xt->rank)
                return gir_node_fail(n, e, "shape[%d] = 0 copies an axis the input (rank %d) lacks", i,
                            xt->rank);
            outs[0].dims[i] = xt->rank >= 0 ? xt->dims[i] : -1;
        } else {
            outs[0].dims[i] = sh[i];
        }
        if (outs[0].dims[i] < 0)
            known = -1;
        else if (known >= 0)
            known = mul_sat(known, outs[0].dims[i]);
    }
    if (infer >= 0 && allowzero) {
        for (i = 0; i < cnt; i++)
            if (sh[i] == 0)
                return gir_node_fail(n, e, "shape has both 0 and -1 with allowzero=1");
    }
    if (infer >= 0) {
        if (total < 0 || known < 0)
            return 0;
        if (known == 0 || total % known)
            return gir_node_fail(n, e, "cannot reshape %lld elements: the known dims multiply to %lld",
                        (long long)total, (long long)known);
        outs[0].dims[infer] = total / known;
    } else if (total >= 0 && known >= 0 && total != known) {
        return gir_node_fail(n, e, "cannot reshape %lld elements into %lld", (long long)total,
                    (long long)known);
    }
    return 0;
}

static int shape_FLATTEN(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                         GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t ax = gir_attr_int(n, "axis", 1);
    if (want_outs(n, 1, 1, e))
        return -1;
    outs[0] = type_of(xt->dtype, 2);
    if (xt->rank < 0)
        return 0;
    if (ax < -(int64_t)xt->rank || ax > xt->rank)
        return gir_node_fail(n, e, "axis %lld out of range for rank %d", (long long)ax, xt->rank);
    if (ax < 0)
        ax += xt->rank;
    outs[0].dims[0] = dims_prod(xt, 0, (int)ax);
    outs[0].dims[1] = dims_prod(xt, (int)ax, xt->rank);
    return 0;
}

static int shape_TRANSPOSE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                           GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int cnt, i, j;
    const int64_t *perm = gir_attr_ints(n, "perm", &cnt);
    if (want_outs(n, 1, 1, e))
        return -1;
    if (xt->rank < 0) {
        outs[0] = type_of(xt->dtype, perm ? cnt : -1);
        return 0;
    }
    outs[0] = type_of(xt->dtype, xt->rank);
    if (perm && cnt != xt->rank)
        return gir_node_fail(n, e, "perm has %d entries but input has rank %d", cnt, xt->rank);
    for (i = 0; i < xt->rank; i++) {
        int64_t p = perm ? perm[i] : xt->rank - 1 - i;
        if (p < 0 || p >= xt->rank)
            return gir_node_fail(n, e, "perm[%d] = %lld out of range", i, (long long)p);
        for (j = 0; perm && j < i; j++)
            if (perm[j] == p)
                return gir_node_fail(n, e, "perm repeats axis %lld", (long long)p);
        outs[0].dims[i] = xt->dims[p];
    }
    return 0;
}

static int shape_SQUEEZE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                         GirError *e)
{
    const GirType *xt = &ins[0]->type;
    const GirTensor *ta = arg(n, ins, 1);
    int64_t axes[GIR_MAX_RANK];
    int drop[GIR_MAX_RANK] = {0};
    int cnt = 0, rc = 0, i, r = xt->rank;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (ta && (rc = read_ints(n, ta, "axes", axes, GIR_MAX_RANK, &cnt, e)) < 0)
        return -1;
    if (r < 0 || rc) {
        outs[0] = type_of(xt->dtype, r >= 0 && cnt >= 0 ? r - cnt : -1);
        if (outs[0].rank < -1)
            return gir_node_fail(n, e, "axes has more entries than the input has axes");
        return 0;
    }
    if (ta) {
        for (i = 0; i < cnt; i++) {
            int64_t ax;
            if (norm_axis(n, axes[i], r, "axes entry", &ax, e))
                return -1;
            if (drop[ax])
                return gir_node_fail(n, e, "axis %lld repeated in axes", (long long)ax);
            if (xt->dims[ax] >= 0 && xt->dims[ax] != 1)
                return gir_node_fail(n, e, "axis %lld has size %lld, not 1", (long long)ax,
                            (long long)xt->dims[ax]);
            drop[ax] = 1;
        }
    } else {
        for (i = 0; i < r; i++) {
            if (xt->dims[i] < 0) {
                outs[0] = type_of(xt->dtype, -1);
                return 0;
            }
            drop[i] = xt->dims[i] == 1;
        }
    }
    outs[0] = type_of(xt->dtype, 0);
    for (i = 0; i < r; i++)
        if (!drop[i])
            outs[0].dims[outs[0].rank++] = xt->dims[i];
    return 0;
}

static int shape_UNSQUEEZE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                           GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t axes[GIR_MAX_RANK];
    int add[GIR_MAX_RANK] = {0};
    int cnt, rc, i, j, r;
    if (want_outs(n, 1, 1, e))
        return -1;
    rc = read_ints(n, ins[1], "axes", axes, GIR_MAX_RANK, &cnt, e);
    if (rc < 0)
        return -1;
    r = xt->rank >= 0 && cnt >= 0 ? xt->rank + cnt : -1;
    if (r > GIR_MAX_RANK)
        return gir_node_fail(n, e, "result rank %d exceeds %d", r, GIR_MAX_RANK);
    outs[0] = type_of(xt->dtype, r);
    if (r < 0 || rc)
        return 0;
    for (i = 0; i < cnt; i++) {
        int64_t ax;
        if (norm_axis(n, axes[i], r, "axes entry", &ax, e))
            return -1;
        if (add[ax])
            return gir_node_fail(n, e, "axis %lld repeated in axes", (long long)ax);
        add[ax] = 1;
    }
    for (i = 0, j = 0; i < r; i++)
        outs[0].dims[i] = add[i] ? 1 : xt->dims[j++];
    return 0;
}

static int shape_IDENTITY(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                          GirError *e)
{
    if (want_outs(n, 1, 1, e))
        return -1;
    outs[0] = ins[0]->type;
    return 0;
}

static int shape_CONSTANT(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                          GirError *e)
{
    const GirAttr *a;
    (void)ins;
    if (want_outs(n, 1, 1, e))
        return -1;
    if ((a = gir_attr(n, "value")) && a->kind == GIR_ATTR_TENSOR) {
        outs[0] = a->t.type;
        if (!gir_type_is_static(&a->t.type))
            return gir_node_fail(n, e, "value tensor has no static shape");
        return 0;
    }
    if ((a = gir_attr(n, "value_float")) && a->kind == GIR_ATTR_FLOAT) {
        outs[0] = type_of(GIR_DT_F32, 0);
        return 0;
    }
    if ((a = gir_attr(n, "value_int")) && a->kind == GIR_ATTR_INT) {
        outs[0] = type_of(GIR_DT_I64, 0);
        return 0;
    }
    if ((a = gir_attr(n, "value_floats")) && a->kind == GIR_ATTR_FLOATS) {
        outs[0] = type_of(GIR_DT_F32, 1);
        outs[0].dims[0] = a->n;
        return 0;
    }
    if ((a = gir_attr(n, "value_ints")) && a->kind == GIR_ATTR_INTS) {
        outs[0] = type_of(GIR_DT_I64, 1);
        outs[0].dims[0] = a->n;
        return 0;
    }
    return gir_node_fail(n, e, "needs a value, value_float(s) or value_int(s) attribute");
}

static int shape_PAD(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    const GirTensor *cv = arg(n, ins, 2);
    const char *mode = gir_attr_string(n, "mode", "constant");
    int64_t pads[2 * GIR_MAX_RANK];
    int cnt, rc, i, r = xt->rank, reflect = strcmp(mode, "reflect") == 0;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (strcmp(mode, "constant") != 0 && !reflect && strcmp(mode, "edge") != 0)
        return gir_node_fail(n, e, "mode '%s' is not supported (constant, reflect, edge are)", mode);
    if (cv) {
        int64_t num = numel_sat(&cv->type);
        if (cv->type.dtype != xt->dtype)
            return gir_node_fail(n, e, "constant_value has element type %s but data is %s",
                        gir_dtype_name(cv->type.dtype), gir_dtype_name(xt->dtype));
        if (num >= 0 && num != 1)
            return gir_node_fail(n, e, "constant_value must be a scalar, has %lld elements",
                        (long long)num);
    }
    rc = read_ints(n, ins[1], "pads", pads, 2 * GIR_MAX_RANK, &cnt, e);
    if (rc < 0)
        return -1;
    if (r < 0 && cnt >= 0 && cnt % 2 == 0)
        r = cnt / 2;
    outs[0] = type_of(xt->dtype, r);
    if (r < 0)
        return 0;
    if (cnt >= 0 && cnt != 2 * r)
        return gir_node_fail(n, e, "pads has %d entries; expected %d for rank %d", cnt, 2 * r, r);
    if (rc || xt->rank < 0)
        return 0;
    for (i = 0; i < r; i++) {
        int64_t pb = pads[i], pe = pads[r + i], d = xt->dims[i];
        if (pb < -DIM_MAX || pb > DIM_MAX || pe < -DIM_MAX || pe > DIM_MAX)
            return gir_node_fail(n, e, "pads on axis %d out of range", i);
        if (d < 0)
            continue;
        if (d + pb + pe < 0)
            return gir_node_fail(n, e, "pads on axis %d crop more than its %lld elements", i,
                        (long long)d);
        if (d + (pb < 0 ? pb : 0) + (pe < 0 ? pe : 0) <= 0 && (pb > 0 || pe > 0) &&
            strcmp(mode, "constant") != 0)
            return gir_node_fail(n, e, "mode '%s' cannot pad axis %d, which has no elements left", mode,
                        i);
        outs[0].dims[i] = d + pb + pe;
    }
    return 0;
}

static int shape_YOLO(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t classes = gir_attr_int(n, "classes", -1);
    int nmask;
    gir_attr_ints(n, "mask", &nmask);
    if (same_f32(n, ins, outs, e))
        return -1;
    if (classes < 0 || classes > ATTR_MAX)
        return gir_node_fail(n, e, "attribute classes missing or out of range");
    if (nmask < 1)
        return gir_node_fail(n, e, "attribute mask missing or empty");
    if (xt->rank >= 0 && xt->rank != 4)
        return gir_node_fail(n, e, "input must be 4-D (N, C, H, W), has rank %d", xt->rank);
    if (xt->rank == 4 && xt->dims[1] >= 0 && xt->dims[1] != nmask * (5 + classes))
        return gir_node_fail(n, e, "input has %lld channels; %d anchors x (5 + %lld classes) need %lld",
                    (long long)xt->dims[1], nmask, (long long)classes,
                    (long long)(nmask * (5 + classes)));
    return 0;
}

/* ---- QuantizeLinear, DequantizeLinear (ONNX semantics), Requantize ------------- */

/* Scale and zero point of QuantizeLinear / DequantizeLinear: a scalar (or
 * one-element) scale quantizes per tensor; a 1-D scale of length
 * dims[axis] per axis.  The zero point, when given, has the scale's shape. */
static int check_qparams(const GirNode *n, const GirTensor *x, const GirTensor *s,
                         const GirTensor *zp, GirError *e)
{
    const GirType *xt = &x->type, *st = &s->type;
    int64_t axis = gir_attr_int(n, "axis", 1);
    if (st->dtype != GIR_DT_F32)
        return gir_node_fail(n, e, "scale must be f32, not %s", gir_dtype_name(st->dtype));
    if (st->rank > 1)
        return gir_node_fail(n, e, "scale must be a scalar or 1-D, has rank %d", st->rank);
    if (zp) {
        if (zp->type.rank != st->rank ||
            (st->rank == 1 && zp->type.dims[0] >= 0 && st->dims[0] >= 0 &&
             zp->type.dims[0] != st->dims[0]))
            return gir_node_fail(n, e, "zero point and scale differ in shape");
    }
    if (st->rank == 1 && st->dims[0] != 1 && xt->rank >= 0) {
        if (axis < -xt->rank || axis >= xt->rank)
            return gir_node_fail(n, e, "axis %lld out of range for rank %d", (long long)axis, xt->rank);
        if (axis < 0)
            axis += xt->rank;
        if (st->dims[0] >= 0 && xt->dims[axis] >= 0 && st->dims[0] != xt->dims[axis])
            return gir_node_fail(n, e, "scale has %lld entries but axis %lld has %lld",
                        (long long)st->dims[0], (long long)axis, (long long)xt->dims[axis]);
    }
    return 0;
}

static int shape_QUANTIZELINEAR(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                             GirError *e)
{
    const GirTensor *x = ins[0], *zp = arg(n, ins, 2);
    if (n->nout != 1)
        return gir_node_fail(n, e, "has %d outputs; expected 1", n->nout);
    if (x->type.dtype != GIR_DT_F32 && x->type.dtype != GIR_DT_I32)
        return gir_node_fail(n, e, "input x must be f32 or i32, not %s", gir_dtype_name(x->type.dtype));
    if (zp && zp->type.dtype != GIR_DT_U8 && zp->type.dtype != GIR_DT_I8)
        return gir_node_fail(n, e, "zero point must be u8 or i8, not %s", gir_dtype_name(zp->type.dtype));
    if (check_qparams(n, x, ins[1], zp, e))
        return -1;
    outs[0] = x->type;
    outs[0].dtype = zp ? zp->type.dtype : GIR_DT_U8;
    return 0;
}

static int shape_DEQUANTIZELINEAR(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                               GirError *e)
{
    const GirTensor *x = ins[0], *zp = arg(n, ins, 2);
    GirDType d = x->type.dtype;
    if (n->nout != 1)
        return gir_node_fail(n, e, "has %d outputs; expected 1", n->nout);
    if (d != GIR_DT_U8 && d != GIR_DT_I8 && d != GIR_DT_I32)
        return gir_node_fail(n, e, "input x must be u8, i8 or i32, not %s", gir_dtype_name(d));
    if (zp && zp->type.dtype != d)
        return gir_node_fail(n, e, "zero point is %s but x is %s", gir_dtype_name(zp->type.dtype),
                    gir_dtype_name(d));
    if (check_qparams(n, x, ins[1], zp, e))
        return -1;
    outs[0] = x->type;
    outs[0].dtype = GIR_DT_F32;
    return 0;
}

static int shape_REQUANTIZE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                         GirError *e)
{
    const int64_t *m, *sh;
    if (n->nout != 1)
        return gir_node_fail(n, e, "has %d outputs; expected 1", n->nout);
    if (ins[0]->type.dtype != GIR_DT_I8)
        return gir_node_fail(n, e, "input must be i8, not %s", gir_dtype_name(ins[0]->type.dtype));
    if (gir_rq_attr(n, "rq_m", 1, KILN_RQ_M_MIN, KILN_RQ_M_MAX, 0, &m, e) ||
        gir_rq_attr(n, "rq_shift", 1, 0, KILN_RQ_MAX_SHIFT, 0, &sh, e))
        return -1;
    outs[0] = ins[0]->type;
    return 0;
}

/* LutI8: any function of one int8 value, as the table of its 256 results
 * (attribute lut, entry x + 128), each in [-128, 127]; or one such table per
 * channel (gir_lut_channels: C x 256 entries, channel c's at c * 256). */
static int shape_LUTI8(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const int64_t *lut;
    int cnt = 0;
    int64_t want = GIR_LUT_SIZE;
    if (n->nout != 1)
        return gir_node_fail(n, e, "has %d outputs; expected 1", n->nout);
    if (ins[0]->type.dtype != GIR_DT_I8)
        return gir_node_fail(n, e, "input must be i8, not %s", gir_dtype_name(ins[0]->type.dtype));
    if (gir_attr_ints(n, "lut", &cnt) && cnt != GIR_LUT_SIZE) {
        int64_t c = gir_lut_channel_count(n, &ins[0]->type);
        if (c > 0)
            want = c * GIR_LUT_SIZE; /* else the count is wrong: one table's message */
    }
    if (gir_rq_attr(n, "lut", want, -128, 127, 0, &lut, e))
        return -1;
    outs[0] = ins[0]->type;
    return 0;
}

/* ---- ONNX's quantized ops: QLinearConv, ConvInteger, MatMulInteger,
 * QLinearMatMul (u8 or i8 with zero points; kernels in qonnx.c) ---------------- */

static int is_q8(GirDType d) { return d == GIR_DT_U8 || d == GIR_DT_I8; }

/* Run the shape rule of op `as` (Conv or MatMul) on f32 stand-ins of a and
 * b; a diagnostic it gives is renamed to this node's op. */
static int delegate(const GirNode *n, GirOp as, const GirTensor *a, const GirTensor *b,
                    GirType *out, GirError *e)
{
    GirNode tmp = *n;
    GirTensor fa = *a, fb = *b;
    const GirTensor *fins[2];
    int in[2] = {0, 1};
    fa.type.dtype = GIR_DT_F32;
    fb.type.dtype = GIR_DT_F32;
    fa.data = fb.data = NULL;
    fins[0] = &fa;
    fins[1] = &fb;
    tmp.op = as;
    tmp.in = in;
    tmp.nin = 2;
    if (gir_shape_node(NULL, &tmp, fins, out, e) == 0)
        return 0;
    if (e) {
        char key[64], fixed[sizeof e->msg];
        char *p;
        snprintf(key, sizeof key, "%s: ", gir_op_name(as));
        p = strncmp(e->msg, key, strlen(key)) == 0 ? e->msg : NULL;
        if (!p) {
            snprintf(key, sizeof key, ": %s: ", gir_op_name(as));
            p = strstr(e->msg, key);
            if (p)
                p += 2;
            snprintf(key, sizeof key, "%s: ", gir_op_name(as));
        }
        if (p) {
            snprintf(fixed, sizeof fixed, "%.*s%s: %s", (int)(p - e->msg), e->msg,
                     gir_op_name(n->op), p + strlen(key));
            memcpy(e->msg, fixed, sizeof e->msg);
        }
    }
    return -1;
}

/* A u8 or i8 data input. */
static int need_q8(const GirNode *n, const GirTensor *t, const char *what, GirError *e)
{
    if (!is_q8(t->type.dtype))
        return gir_node_fail(n, e, "%s has element type %s; expected u8 or i8", what,
                    gir_dtype_name(t->type.dtype));
    return 0;
}

/* A per-tensor (one element) or per-slice (`per` elements, 1-D; per < 0:
 * not known) parameter.  dt: the element type it must have. */
static int need_param(const GirNode *n, const GirTensor *t, GirDType dt, int64_t per,
                      const char *what, GirError *e)
{
    int64_t cnt;
    if (!t)
        return 0;
    if (t->type.dtype != dt)
        return gir_node_fail(n, e, "%s has element type %s; expected %s", what,
                    gir_dtype_name(t->type.dtype), gir_dtype_name(dt));
    if (t->type.rank < 0)
        return 0;
    if (t->type.rank > 1)
        return gir_node_fail(n, e, "%s must be a scalar or 1-D, has rank %d", what, t->type.rank);
    cnt = gir_type_numel(&t->type);
    if (cnt == 0)
        return gir_node_fail(n, e, "%s is empty", what);
    if (cnt < 0 || cnt == 1 || per < 0)
        return 0;
    if (cnt != per)
        return gir_node_fail(n, e, "%s has %lld elements; expected 1 or %lld", what, (long long)cnt,
                    (long long)per);
    return 0;
}

/* Shared by QLinearConv and ConvInteger: x and w in the slots given, zero
 * points of their types, output channels from w. */
static int conv_rule(const GirNode *n, const GirTensor *x, const GirTensor *xzp,
                     const GirTensor *w, const GirTensor *wzp, GirType *out, GirError *e)
{
    int64_t m;
    if (n->nout != 1)
        return gir_node_fail(n, e, "has %d outputs; expected 1", n->nout);
    if (need_q8(n, x, "input x", e) || need_q8(n, w, "weights w", e))
        return -1;
    if (delegate(n, GIR_OP_CONV, x, w, out, e))
        return -1;
    m = w->type.rank >= 1 ? w->type.dims[0] : -1;
    if (need_param(n, xzp, x->type.dtype, 1, "x_zero_point", e) ||
        need_param(n, wzp, w->type.dtype, m, "w_zero_point", e))
        return -1;
    return 0;
}

static int shape_CONVINTEGER(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                                GirError *e)
{
    if (conv_rule(n, ins[0], arg(n, ins, 2), ins[1], arg(n, ins, 3), &outs[0], e))
        return -1;
    outs[0].dtype = GIR_DT_I32;
    return 0;
}

static int shape_QLINEARCONV(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                                GirError *e)
{
    const GirTensor *b = arg(n, ins, 8);
    int64_t m;
    if (conv_rule(n, ins[0], ins[2], ins[3], ins[5], &outs[0], e))
        return -1;
    m = ins[3]->type.rank >= 1 ? ins[3]->type.dims[0] : -1;
    if (need_param(n, ins[1], GIR_DT_F32, 1, "x_scale", e) ||
        need_param(n, ins[4], GIR_DT_F32, m, "w_scale", e) ||
        need_param(n, ins[6], GIR_DT_F32, 1, "y_scale", e))
        return -1;
    if (!is_q8(ins[7]->type.dtype))
        return gir_node_fail(n, e, "y_zero_point has element type %s; expected u8 or i8",
                    gir_dtype_name(ins[7]->type.dtype));
    if (need_param(n, ins[7], ins[7]->type.dtype, 1, "y_zero_point", e))
        return -1;
    if (b) {
        if (b->type.dtype != GIR_DT_I32)
            return gir_node_fail(n, e, "bias B has element type %s; expected i32",
                        gir_dtype_name(b->type.dtype));
        if (b->type.rank >= 0 && b->type.rank != 1)
            return gir_node_fail(n, e, "bias B must be 1-D, has rank %d", b->type.rank);
        if (b->type.rank == 1 && b->type.dims[0] >= 0 && m >= 0 && b->type.dims[0] != m)
            return gir_node_fail(n, e, "bias B has %lld entries but there are %lld output channels",
                        (long long)b->type.dims[0], (long long)m);
    }
    outs[0].dtype = ins[7]->type.dtype;
    return 0;
}

/* Rows of A (M) and columns of B (N) of a matmul, -1 when not known. */
static void mm_dims(const GirType *a, const GirType *b, int64_t *m, int64_t *nn)
{
    *m = a->rank >= 2 ? a->dims[a->rank - 2] : a->rank == 1 ? 1 : -1;
    *nn = b->rank >= 2 ? b->dims[b->rank - 1] : b->rank == 1 ? 1 : -1;
}

static int mm_rule(const GirNode *n, const GirTensor *a, const GirTensor *azp,
                   const GirTensor *b, const GirTensor *bzp, GirType *out, int64_t *m,
                   int64_t *nn, GirError *e)
{
    if (n->nout != 1)
        return gir_node_fail(n, e, "has %d outputs; expected 1", n->nout);
    if (need_q8(n, a, "input A", e) || need_q8(n, b, "input B", e))
        return -1;
    if (delegate(n, GIR_OP_MATMUL, a, b, out, e))
        return -1;
    mm_dims(&a->type, &b->type, m, nn);
    if (need_param(n, azp, a->type.dtype, *m, "a_zero_point", e) ||
        need_param(n, bzp, b->type.dtype, *nn, "b_zero_point", e))
        return -1;
    return 0;
}

static int shape_MATMULINTEGER(const GirNode *n, const GirTensor *const *ins,
                                  GirType *outs, GirError *e)
{
    int64_t m = 0, nn = 0;
    if (mm_rule(n, ins[0], arg(n, ins, 2), ins[1], arg(n, ins, 3), &outs[0], &m, &nn, e))
        return -1;
    outs[0].dtype = GIR_DT_I32;
    return 0;
}

static int shape_QLINEARMATMUL(const GirNode *n, const GirTensor *const *ins,
                                  GirType *outs, GirError *e)
{
    int64_t m = 0, nn = 0;
    if (mm_rule(n, ins[0], ins[2], ins[3], ins[5], &outs[0], &m, &nn, e))
        return -1;
    if (need_param(n, ins[1], GIR_DT_F32, m, "a_scale", e) ||
        need_param(n, ins[4], GIR_DT_F32, nn, "b_scale", e) ||
        need_param(n, ins[6], GIR_DT_F32, 1, "y_scale", e))
        return -1;
    if (!is_q8(ins[7]->type.dtype))
        return gir_node_fail(n, e, "y_zero_point has element type %s; expected u8 or i8",
                    gir_dtype_name(ins[7]->type.dtype));
    if (need_param(n, ins[7], ins[7]->type.dtype, 1, "y_zero_point", e))
        return -1;
    outs[0].dtype = ins[7]->type.dtype;
    return 0;
}

/* ---- the int8 form (docs/quant.md; kernels in interp_int8.c) ------------------------ */

int gir_int8_node(const GirNode *n, const GirTensor *const *ins)
{
    if (n->nin < 1 || !ins[0] || ins[0]->type.dtype != GIR_DT_I8)
        return 0;
    switch (n->op) {
    case GIR_OP_CONV:
    case GIR_OP_GEMM:
    case GIR_OP_MATMUL:
    case GIR_OP_AVGPOOL:
    case GIR_OP_GLOBALAVGPOOL:
    case GIR_OP_RESIZE:
        return 1;
    case GIR_OP_ADD:
        return gir_attr(n, "rq_shift") != NULL;
    default:
        return 0;
    }
}

/* An int8-form operand of element type d (absent operands pass). */
static int need_dt(const GirNode *n, const GirTensor *t, GirDType d, const char *what,
                   GirError *e)
{
    if (t && t->type.dtype != d)
        return gir_node_fail(n, e, "int8 form: %s must be %s, not %s", what, gir_dtype_name(d),
                    gir_dtype_name(t->type.dtype));
    return 0;
}

/* Shape rule of an int8-form node: the fp32 rule on f32 stand-ins of the
 * int8 operands, then the operand types and the requantize attributes; the
 * output is i8. */
static int shape_int8(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    GirTensor fake[64];
    const GirTensor *fins[64];
    int i, nconv = 1;
    int64_t ch = -1;
    const int64_t *m, *sh;
    if (n->nin > 64)
        return gir_node_fail(n, e, "too many inputs");
    switch (n->op) {
    case GIR_OP_CONV:
    case GIR_OP_GEMM:
        if (need_dt(n, arg(n, ins, 1), GIR_DT_I8, "weights", e) ||
            need_dt(n, arg(n, ins, 2), GIR_DT_I32, "bias", e))
            return -1;
        nconv = 3;
        break;
    case GIR_OP_MATMUL:
    case GIR_OP_ADD:
        if (need_dt(n, arg(n, ins, 1), GIR_DT_I8, "input B", e))
            return -1;
        nconv = 2;
        break;
    case GIR_OP_RESIZE:
        if (strcmp(gir_attr_string(n, "mode", "nearest"), "nearest") != 0)
            return gir_node_fail(n, e, "int8 form: only mode nearest");
        break;
    default:
        break;
    }
    /* The fp32 rule on f32 stand-ins of the int8 operands. */
    for (i = 0; i < n->nin; i++) {
        fins[i] = ins[i];
        if (ins[i] && i < nconv) {
            fake[i] = *ins[i];
            fake[i].type.dtype = GIR_DT_F32;
            fake[i].data = NULL;
            fins[i] = &fake[i];
        }
    }
    if (gir_shape_node(NULL, n, fins, outs, e))
        return -1;
    outs[0].dtype = GIR_DT_I8;
    switch (n->op) {
    case GIR_OP_CONV:
    case GIR_OP_GEMM:
    case GIR_OP_MATMUL: {
        GirChanRq rq;
        ch = n->op == GIR_OP_CONV ? outs[0].dims[1]
                                  : (outs[0].rank >= 1 ? outs[0].dims[outs[0].rank - 1] : -1);
        return gir_chan_rq(n, ch, &rq, e);
    }
    case GIR_OP_ADD:
        return gir_rq_attr(n, "rq_m_a", 1, KILN_RQ_M_MIN, KILN_RQ_M_MAX, 0, &m, e) ||
               gir_rq_attr(n, "rq_m_b", 1, KILN_RQ_M_MIN, KILN_RQ_M_MAX, 0, &m, e) ||
               gir_rq_attr(n, "rq_shift", 1, 0, KILN_RQ_MAX_SHIFT, 0, &sh, e);
    case GIR_OP_AVGPOOL:
    case GIR_OP_GLOBALAVGPOOL:
        return gir_rq_attr(n, "rq_m", 1, KILN_RQ_M_MIN, KILN_RQ_M_MAX, 0, &m, e) ||
               gir_rq_attr(n, "rq_shift", 1, 0, KILN_RQ_MAX_SHIFT, 0, &sh, e);
    default:
        return 0;
    }
}

/* ---- layout="NHWC" nodes (layout.c) --------------------------------------------- */

/* The NCHW rule on transposed types: input 0 to NCHW, the node without its
 * layout attribute, the outputs back to NHWC. */
static int shape_nhwc(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    GirNode c = gir_nhwc_strip(n);
    const GirTensor *pins[64];
    GirTensor x0;
    int i, rc;
    if (n->nin > 64 || n->nin < 1 || !ins[0]) {
        free(c.attrs);
        return gir_error_at(e, n->loc, "node '%s': NHWC form needs a data input", n->name);
    }
    x0 = *ins[0];
    x0.type = gir_nhwc_type(&ins[0]->type, 1);
    pins[0] = &x0;
    for (i = 1; i < n->nin; i++)
        pins[i] = ins[i];
    rc = gir_shape_node(NULL, &c, pins, outs, e);
    free(c.attrs);
    if (rc < 0)
        return -1;
    for (i = 0; i < n->nout; i++)
        outs[i] = gir_nhwc_type(&outs[i], 0);
    return 0;
}

/* ---- elementwise math, activations, logic ------------------------------------- */

static int is_flt(GirDType d) { return d == GIR_DT_F32 || d == GIR_DT_F64 || d == GIR_DT_F16; }

/* Shape-keeping ops on floats (f32, f64). */
static int same_flt(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!is_flt(ins[0]->type.dtype))
        return gir_node_fail(n, e, "input has element type %s; only f16, f32 and f64 are supported",
                             gir_dtype_name(ins[0]->type.dtype));
    outs[0] = ins[0]->type;
    return 0;
}

/* Shape-keeping ops on any number type. */
static int same_num(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!is_numeric(ins[0]->type.dtype))
        return gir_node_fail(n, e, "element type %s not supported",
                             gir_dtype_name(ins[0]->type.dtype));
    outs[0] = ins[0]->type;
    return 0;
}

#define FLT_RULE(E)                                                                          \
    static int shape_##E(const GirNode *n, const GirTensor *const *ins, GirType *outs,      \
                         GirError *e)                                                       \
    {                                                                                       \
        return same_flt(n, ins, outs, e);                                                   \
    }
FLT_RULE(EXP) FLT_RULE(LOG) FLT_RULE(SQRT) FLT_RULE(RECIPROCAL) FLT_RULE(FLOOR)
FLT_RULE(CEIL) FLT_RULE(ROUND) FLT_RULE(ERF) FLT_RULE(SIN) FLT_RULE(COS) FLT_RULE(TAN)
FLT_RULE(ASIN) FLT_RULE(ACOS) FLT_RULE(ATAN) FLT_RULE(SINH) FLT_RULE(COSH) FLT_RULE(ASINH)
FLT_RULE(ACOSH) FLT_RULE(ATANH) FLT_RULE(SOFTPLUS) FLT_RULE(SOFTSIGN) FLT_RULE(ELU)
FLT_RULE(SELU) FLT_RULE(CELU) FLT_RULE(HARDSIGMOID) FLT_RULE(HARDSWISH)
FLT_RULE(THRESHOLDEDRELU) FLT_RULE(LRN) FLT_RULE(HARDMAX)
#undef FLT_RULE

static int shape_ABS(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return same_num(n, ins, outs, e);
}

static int shape_NEG(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return same_num(n, ins, outs, e);
}

static int shape_SIGN(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return same_num(n, ins, outs, e);
}

static int shape_SHRINK(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return same_num(n, ins, outs, e);
}

static int shape_NOT(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (want_outs(n, 1, 1, e))
        return -1;
    if (ins[0]->type.dtype != GIR_DT_BOOL)
        return gir_node_fail(n, e, "input must be bool, not %s", gir_dtype_name(ins[0]->type.dtype));
    outs[0] = ins[0]->type;
    return 0;
}

static int float_to_bool(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (same_flt(n, ins, outs, e))
        return -1;
    outs[0].dtype = GIR_DT_BOOL;
    return 0;
}

static int shape_ISNAN(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return float_to_bool(n, ins, outs, e);
}

static int shape_ISINF(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return float_to_bool(n, ins, outs, e);
}

/* Broadcasting ops of two or more inputs: every input of element type dt
 * (UNDEF: any, but all equal), the result broadcast from all of them. */
static int bcast_all(const GirNode *n, const GirTensor *const *ins, int nin, GirType *out,
                     GirError *e)
{
    int i;
    *out = ins[0]->type;
    for (i = 1; i < nin; i++) {
        GirType t;
        if (!ins[i])
            return gir_node_fail(n, e, "input %d is absent", i);
        if (broadcast(n, out, &ins[i]->type, &t, e))
            return -1;
        t.dtype = out->dtype;
        *out = t;
    }
    return 0;
}

static int same_dtypes(const GirNode *n, const GirTensor *const *ins, int nin, GirError *e)
{
    int i;
    for (i = 1; i < nin; i++)
        if (ins[i] && ins[i]->type.dtype != ins[0]->type.dtype)
            return gir_node_fail(n, e, "input %d has element type %s but input 0 is %s", i,
                                 gir_dtype_name(ins[i]->type.dtype),
                                 gir_dtype_name(ins[0]->type.dtype));
    return 0;
}

static int shape_compare(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    GirDType d = ins[0]->type.dtype;
    if (want_outs(n, 1, 1, e) || same_dtypes(n, ins, 2, e))
        return -1;
    if (!is_numeric(d) && !(d == GIR_DT_BOOL && n->op == GIR_OP_EQUAL))
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(d));
    if (bcast_all(n, ins, 2, outs, e))
        return -1;
    outs[0].dtype = GIR_DT_BOOL;
    return 0;
}

#define CMP_RULE(E)                                                                          \
    static int shape_##E(const GirNode *n, const GirTensor *const *ins, GirType *outs,      \
                         GirError *e)                                                       \
    {                                                                                       \
        return shape_compare(n, ins, outs, e);                                              \
    }
CMP_RULE(EQUAL) CMP_RULE(GREATER) CMP_RULE(LESS) CMP_RULE(GREATEROREQUAL) CMP_RULE(LESSOREQUAL)
#undef CMP_RULE

static int shape_logic(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (want_outs(n, 1, 1, e) || same_dtypes(n, ins, 2, e))
        return -1;
    if (ins[0]->type.dtype != GIR_DT_BOOL)
        return gir_node_fail(n, e, "inputs must be bool, not %s", gir_dtype_name(ins[0]->type.dtype));
    return bcast_all(n, ins, 2, outs, e);
}

static int shape_AND(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_logic(n, ins, outs, e);
}

static int shape_OR(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_logic(n, ins, outs, e);
}

static int shape_XOR(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_logic(n, ins, outs, e);
}

static int shape_BITSHIFT(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const char *dir = gir_attr_string(n, "direction", "");
    GirDType d;
    if (want_outs(n, 1, 1, e) || same_dtypes(n, ins, 2, e))
        return -1;
    d = ins[0]->type.dtype;
    if (d != GIR_DT_U8 && d != GIR_DT_U16 && d != GIR_DT_U32 && d != GIR_DT_U64)
        return gir_node_fail(n, e, "element type %s not supported (unsigned integers only)",
                             gir_dtype_name(d));
    if (strcmp(dir, "LEFT") != 0 && strcmp(dir, "RIGHT") != 0)
        return gir_node_fail(n, e, "direction must be LEFT or RIGHT");
    return bcast_all(n, ins, 2, outs, e);
}

static int shape_POW(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!is_numeric(ins[0]->type.dtype) || !is_numeric(ins[1]->type.dtype))
        return gir_node_fail(n, e, "element types %s and %s not supported",
                             gir_dtype_name(ins[0]->type.dtype), gir_dtype_name(ins[1]->type.dtype));
    return bcast_all(n, ins, 2, outs, e);
}

static int shape_num2(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (want_outs(n, 1, 1, e) || same_dtypes(n, ins, 2, e))
        return -1;
    if (!is_numeric(ins[0]->type.dtype))
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(ins[0]->type.dtype));
    return bcast_all(n, ins, 2, outs, e);
}

static int shape_MOD(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (!gir_attr_int(n, "fmod", 0) && is_flt(ins[0]->type.dtype))
        return gir_node_fail(n, e, "floating-point inputs need fmod=1");
    return shape_num2(n, ins, outs, e);
}

static int shape_PRELU(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    char a[128], b[128];
    if (shape_num2(n, ins, outs, e))
        return -1;
    if (gir_type_is_static(outs) && gir_type_is_static(&ins[0]->type) &&
        !gir_type_equal(outs, &ins[0]->type))
        return gir_node_fail(n, e, "slope %s does not broadcast to input %s",
                             gir_type_str(&ins[1]->type, a, sizeof a),
                             gir_type_str(&ins[0]->type, b, sizeof b));
    return 0;
}

static int shape_variadic(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (want_outs(n, 1, 1, e) || same_dtypes(n, ins, n->nin, e))
        return -1;
    if (!is_numeric(ins[0]->type.dtype))
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(ins[0]->type.dtype));
    if ((n->op == GIR_OP_MEAN || n->op == GIR_OP_SUM) && !is_flt(ins[0]->type.dtype) &&
        n->op == GIR_OP_MEAN)
        return gir_node_fail(n, e, "Mean needs f32 or f64 inputs");
    return bcast_all(n, ins, n->nin, outs, e);
}

static int shape_MAX(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_variadic(n, ins, outs, e);
}

static int shape_MIN(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_variadic(n, ins, outs, e);
}

static int shape_SUM(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_variadic(n, ins, outs, e);
}

static int shape_MEAN(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_variadic(n, ins, outs, e);
}

static int shape_WHERE(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    GirType t;
    if (want_outs(n, 1, 1, e) || same_dtypes(n, ins + 1, 2, e))
        return -1;
    if (ins[0]->type.dtype != GIR_DT_BOOL)
        return gir_node_fail(n, e, "condition must be bool, not %s",
                             gir_dtype_name(ins[0]->type.dtype));
    if (bcast_all(n, ins, 3, &t, e))
        return -1;
    t.dtype = ins[1]->type.dtype;
    outs[0] = t;
    return 0;
}

/* ---- reductions and per-axis ops ------------------------------------------------ */

/* The reduced axes of a Reduce* node: mask[d] for each axis of rank r.
 * Returns 1 when the axes input's data is not known. */
static int reduce_axes(const GirNode *n, const GirTensor *const *ins, int r, int *mask,
                       GirError *e)
{
    const GirTensor *ax = arg(n, ins, 1);
    int64_t v[GIR_MAX_RANK];
    int cnt = 0, i, rc = 0;
    memset(mask, 0, sizeof(int) * GIR_MAX_RANK);
    if (ax) {
        rc = read_ints(n, ax, "axes", v, GIR_MAX_RANK, &cnt, e);
        if (rc)
            return rc;
    }
    if (cnt <= 0) {
        int noop = gir_attr_int(n, "noop_with_empty_axes", 0) != 0;
        for (i = 0; i < r; i++)
            mask[i] = !noop;
        return 0;
    }
    for (i = 0; i < cnt; i++) {
        int64_t a;
        if (norm_axis(n, v[i], r, "axis", &a, e))
            return -1;
        mask[a] = 1;
    }
    return 0;
}

static int shape_reduce(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int keep = gir_attr_int(n, "keepdims", 1) != 0, mask[GIR_MAX_RANK], i, k, rc;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!is_numeric(xt->dtype))
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(xt->dtype));
    if (xt->rank < 0) {
        outs[0] = type_of(xt->dtype, -1);
        return 0;
    }
    rc = reduce_axes(n, ins, xt->rank, mask, e);
    if (rc < 0)
        return -1;
    if (rc) {
        outs[0] = type_of(xt->dtype, keep ? xt->rank : -1);
        return 0;
    }
    outs[0] = type_of(xt->dtype, 0);
    for (i = 0, k = 0; i < xt->rank; i++) {
        if (!mask[i])
            outs[0].dims[k++] = xt->dims[i];
        else if (keep)
            outs[0].dims[k++] = 1;
    }
    outs[0].rank = k;
    return 0;
}

#define REDUCE_RULE(E)                                                                       \
    static int shape_##E(const GirNode *n, const GirTensor *const *ins, GirType *outs,      \
                         GirError *e)                                                       \
    {                                                                                       \
        return shape_reduce(n, ins, outs, e);                                               \
    }
REDUCE_RULE(REDUCEMEAN) REDUCE_RULE(REDUCEMAX) REDUCE_RULE(REDUCEMIN) REDUCE_RULE(REDUCESUM)
REDUCE_RULE(REDUCEPROD) REDUCE_RULE(REDUCEL1) REDUCE_RULE(REDUCEL2) REDUCE_RULE(REDUCELOGSUM)
REDUCE_RULE(REDUCELOGSUMEXP) REDUCE_RULE(REDUCESUMSQUARE)
#undef REDUCE_RULE

static int shape_arg(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t ax;
    if (same_num(n, ins, outs, e))
        return -1;
    outs[0].dtype = GIR_DT_I64;
    if (xt->rank < 0)
        return 0;
    if (norm_axis(n, gir_attr_int(n, "axis", 0), xt->rank, "axis", &ax, e))
        return -1;
    if (gir_attr_int(n, "keepdims", 1)) {
        outs[0].dims[ax] = 1;
    } else {
        int i;
        for (i = (int)ax; i + 1 < xt->rank; i++)
            outs[0].dims[i] = xt->dims[i + 1];
        outs[0].rank--;
    }
    return 0;
}

static int shape_ARGMAX(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_arg(n, ins, outs, e);
}

static int shape_ARGMIN(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_arg(n, ins, outs, e);
}

static int shape_LOGSOFTMAX(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                            GirError *e)
{
    int64_t ax;
    int r = ins[0]->type.rank, coerce = gir_attr_int(n, "coerce2d", 0) != 0;
    if (same_flt(n, ins, outs, e))
        return -1;
    if (r == 0)
        return gir_node_fail(n, e, "input must have rank 1 or more");
    if (r > 0 && norm_axis(n, gir_attr_int(n, "axis", coerce ? 1 : -1), r, "axis", &ax, e))
        return -1;
    return 0;
}

static int shape_CUMSUM(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    int64_t v[1], ax;
    int cnt, rc;
    if (same_num(n, ins, outs, e))
        return -1;
    rc = read_ints(n, ins[1], "axis", v, 1, &cnt, e);
    if (rc < 0)
        return -1;
    if (cnt != 1 && cnt != -1)
        return gir_node_fail(n, e, "axis must be a scalar");
    if (rc == 0 && ins[0]->type.rank >= 0 &&
        norm_axis(n, v[0], ins[0]->type.rank, "axis", &ax, e))
        return -1;
    return 0;
}

/* ---- types and shapes as data ----------------------------------------------------- */

static int cast_to(const GirNode *n, const GirTensor *x, GirDType to, GirType *outs, GirError *e)
{
    GirDType d = x->type.dtype;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!is_numeric(d) && d != GIR_DT_BOOL)
        return gir_node_fail(n, e, "cannot cast from %s", gir_dtype_name(d));
    if (!is_numeric(to) && to != GIR_DT_BOOL)
        return gir_node_fail(n, e, "cannot cast to %s", gir_dtype_name(to));
    outs[0] = x->type;
    outs[0].dtype = to;
    return 0;
}

static int shape_CAST(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    int64_t to = gir_attr_int(n, "to", 0);
    GirDType d = to > 0 && to < 64 ? gir_dtype_from_onnx((int)to) : GIR_DT_UNDEF;
    if (d == GIR_DT_UNDEF)
        return gir_node_fail(n, e, "attribute to = %lld is not a supported element type",
                             (long long)to);
    return cast_to(n, ins[0], d, outs, e);
}

static int shape_CASTLIKE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                          GirError *e)
{
    return cast_to(n, ins[0], ins[1]->type.dtype, outs, e);
}

/* Shape's [start, end) of a rank-r input, clamped as ONNX says. */
static void shape_range(const GirNode *n, int r, int64_t *lo, int64_t *hi)
{
    int64_t s = gir_attr_int(n, "start", 0), t = gir_attr_int(n, "end", r);
    if (s < 0)
        s += r;
    if (t < 0)
        t += r;
    *lo = s < 0 ? 0 : s > r ? r : s;
    *hi = t < 0 ? 0 : t > r ? r : t;
    if (*hi < *lo)
        *hi = *lo;
}

static int shape_SHAPE(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    int64_t lo, hi;
    if (want_outs(n, 1, 1, e))
        return -1;
    outs[0] = type_of(GIR_DT_I64, 1);
    if (ins[0]->type.rank >= 0) {
        shape_range(n, ins[0]->type.rank, &lo, &hi);
        outs[0].dims[0] = hi - lo;
    }
    return 0;
}

static int shape_SIZE(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    (void)ins;
    if (want_outs(n, 1, 1, e))
        return -1;
    outs[0] = type_of(GIR_DT_I64, 0);
    return 0;
}

/* A shape given as data (ConstantOfShape, Expand): rank *r (-1 unknown) and
 * dims (-1 when the data is not known). */
static int shape_input(const GirNode *n, const GirTensor *t, int64_t *dims, int *r, GirError *e)
{
    int rc = read_ints(n, t, "shape", dims, GIR_MAX_RANK, r, e), i;
    if (rc < 0)
        return -1;
    if (rc) {
        for (i = 0; i < GIR_MAX_RANK; i++)
            dims[i] = -1;
        return 0;
    }
    for (i = 0; i < *r; i++)
        if (dims[i] < 0 || dims[i] > DIM_MAX)
            return gir_node_fail(n, e, "shape[%d] = %lld out of range", i, (long long)dims[i]);
    return 0;
}

static int shape_CONSTANTOFSHAPE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                                 GirError *e)
{
    const GirAttr *v = gir_attr(n, "value");
    int64_t dims[GIR_MAX_RANK];
    int r, i;
    GirDType dt = GIR_DT_F32;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (v) {
        if (v->kind != GIR_ATTR_TENSOR || gir_type_numel(&v->t.type) != 1 || !v->t.data)
            return gir_node_fail(n, e, "value must be a one-element tensor");
        dt = v->t.type.dtype;
        if (!is_numeric(dt) && dt != GIR_DT_BOOL)
            return gir_node_fail(n, e, "value of type %s not supported", gir_dtype_name(dt));
    }
    if (shape_input(n, ins[0], dims, &r, e))
        return -1;
    outs[0] = type_of(dt, r);
    for (i = 0; i < r; i++)
        outs[0].dims[i] = dims[i];
    return 0;
}

static int shape_RANGE(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    GirDType d = ins[0]->type.dtype;
    int i;
    if (want_outs(n, 1, 1, e) || same_dtypes(n, ins, 3, e))
        return -1;
    if (!is_numeric(d))
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(d));
    for (i = 0; i < 3; i++)
        if (numel_sat(&ins[i]->type) > 1 || ins[i]->type.rank > 1)
            return gir_node_fail(n, e, "input %d must be a scalar", i);
    outs[0] = type_of(d, 1);
    if (ins[0]->data && ins[1]->data && ins[2]->data) {
        double s, l, dl, c;
        if (is_flt(d)) {
            s = d == GIR_DT_F32 ? *(const float *)ins[0]->data : *(const double *)ins[0]->data;
            l = d == GIR_DT_F32 ? *(const float *)ins[1]->data : *(const double *)ins[1]->data;
            dl = d == GIR_DT_F32 ? *(const float *)ins[2]->data : *(const double *)ins[2]->data;
        } else if (d == GIR_DT_I32 || d == GIR_DT_I64) {
            s = (double)load_int(ins[0], 0);
            l = (double)load_int(ins[1], 0);
            dl = (double)load_int(ins[2], 0);
        } else {
            return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(d));
        }
        if (dl == 0 || !isfinite(s) || !isfinite(l) || !isfinite(dl))
            return gir_node_fail(n, e, "delta must be nonzero and all inputs finite");
        c = ceil((l - s) / dl);
        if (c > (double)DIM_MAX)
            return gir_node_fail(n, e, "%g elements are too many", c);
        outs[0].dims[0] = c > 0 ? (int64_t)c : 0;
    }
    return 0;
}

static int shape_EXPAND(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    GirType s;
    int64_t dims[GIR_MAX_RANK];
    int r, i;
    if (want_outs(n, 1, 1, e) || shape_input(n, ins[1], dims, &r, e))
        return -1;
    s = type_of(ins[0]->type.dtype, r);
    for (i = 0; i < r; i++)
        s.dims[i] = dims[i];
    if (r < 0 || (dims[0] < 0 && r > 0)) {
        /* Unknown target: the rank is at least both. */
        int rr = ins[0]->type.rank > r ? ins[0]->type.rank : r;
        outs[0] = type_of(ins[0]->type.dtype, r < 0 ? -1 : rr);
        return 0;
    }
    if (broadcast(n, &ins[0]->type, &s, outs, e))
        return -1;
    outs[0].dtype = ins[0]->type.dtype;
    return 0;
}

static int shape_TILE(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t rep[GIR_MAX_RANK];
    int cnt, rc, i;
    if (want_outs(n, 1, 1, e))
        return -1;
    rc = read_ints(n, ins[1], "repeats", rep, GIR_MAX_RANK, &cnt, e);
    if (rc < 0)
        return -1;
    outs[0] = type_of(xt->dtype, xt->rank);
    if (xt->rank < 0)
        return 0;
    if (cnt >= 0 && cnt != xt->rank)
        return gir_node_fail(n, e, "repeats has %d entries; the input has rank %d", cnt, xt->rank);
    if (rc)
        return 0;
    for (i = 0; i < xt->rank; i++) {
        if (rep[i] < 0 || rep[i] > DIM_MAX)
            return gir_node_fail(n, e, "repeats[%d] = %lld out of range", i, (long long)rep[i]);
        outs[0].dims[i] = xt->dims[i] < 0 ? -1 : mul_sat(xt->dims[i], rep[i]);
    }
    return 0;
}

static int need_index(const GirNode *n, const GirTensor *t, GirError *e)
{
    if (t->type.dtype != GIR_DT_I64 && t->type.dtype != GIR_DT_I32)
        return gir_node_fail(n, e, "indices must be i64 or i32, not %s",
                             gir_dtype_name(t->type.dtype));
    return 0;
}

static int shape_GATHER(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type, *it = &ins[1]->type;
    int64_t ax;
    int i, k = 0;
    if (want_outs(n, 1, 1, e) || need_index(n, ins[1], e))
        return -1;
    if (xt->rank < 0 || it->rank < 0) {
        outs[0] = type_of(xt->dtype, -1);
        return 0;
    }
    if (xt->rank == 0)
        return gir_node_fail(n, e, "data must have rank 1 or more");
    if (norm_axis(n, gir_attr_int(n, "axis", 0), xt->rank, "axis", &ax, e))
        return -1;
    if (xt->rank + it->rank - 1 > GIR_MAX_RANK)
        return gir_node_fail(n, e, "result rank %d above %d", xt->rank + it->rank - 1, GIR_MAX_RANK);
    outs[0] = type_of(xt->dtype, xt->rank + it->rank - 1);
    for (i = 0; i < ax; i++)
        outs[0].dims[k++] = xt->dims[i];
    for (i = 0; i < it->rank; i++)
        outs[0].dims[k++] = it->dims[i];
    for (i = (int)ax + 1; i < xt->rank; i++)
        outs[0].dims[k++] = xt->dims[i];
    return 0;
}

static int shape_GATHERELEMENTS(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                                GirError *e)
{
    const GirType *xt = &ins[0]->type, *it = &ins[1]->type;
    int64_t ax;
    if (want_outs(n, 1, 1, e) || need_index(n, ins[1], e))
        return -1;
    outs[0] = *it;
    outs[0].dtype = xt->dtype;
    if (xt->rank < 0 || it->rank < 0)
        return 0;
    if (xt->rank != it->rank || xt->rank == 0)
        return gir_node_fail(n, e, "indices have rank %d; data has rank %d", it->rank, xt->rank);
    return norm_axis(n, gir_attr_int(n, "axis", 0), xt->rank, "axis", &ax, e);
}

static int shape_TRILU(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirTensor *k = arg(n, ins, 1);
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!is_numeric(ins[0]->type.dtype) && ins[0]->type.dtype != GIR_DT_BOOL)
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(ins[0]->type.dtype));
    if (ins[0]->type.rank >= 0 && ins[0]->type.rank < 2)
        return gir_node_fail(n, e, "input must have rank 2 or more");
    if (k && (k->type.dtype != GIR_DT_I64 || numel_sat(&k->type) > 1))
        return gir_node_fail(n, e, "k must be an i64 scalar");
    outs[0] = ins[0]->type;
    return 0;
}

/* ---- normalization and layout layers ------------------------------------------------ */

static int shape_LAYERNORM(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                           GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t ax;
    int i;
    if (want_outs(n, 1, 3, e) || same_dtypes(n, ins, n->nin, e))
        return -1;
    if (!is_flt(xt->dtype))
        return gir_node_fail(n, e, "input has element type %s; only f32 and f64", gir_dtype_name(xt->dtype));
    outs[0] = *xt;
    if (xt->rank < 0) {
        for (i = 1; i < n->nout; i++)
            outs[i] = type_of(GIR_DT_F32, -1);
        return 0;
    }
    if (norm_axis(n, gir_attr_int(n, "axis", -1), xt->rank, "axis", &ax, e))
        return -1;
    for (i = 1; i < n->nout; i++) {
        int d;
        outs[i] = *xt;
        outs[i].dtype = GIR_DT_F32;
        for (d = (int)ax; d < xt->rank; d++)
            outs[i].dims[d] = 1;
    }
    return 0;
}

static int shape_INSTANCENORM(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                              GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int i;
    if (same_flt(n, ins, outs, e) || same_dtypes(n, ins, 3, e))
        return -1;
    if (xt->rank >= 0 && xt->rank < 3)
        return gir_node_fail(n, e, "input must have rank 3 or more (N, C, spatial...)");
    for (i = 1; i < 3; i++)
        if (ins[i]->type.rank != 1 || (xt->rank >= 0 && ins[i]->type.dims[0] != xt->dims[1]))
            return gir_node_fail(n, e, "%s must be 1-D with one entry per channel",
                                 i == 1 ? "scale" : "B");
    return 0;
}

static int shape_GLOBALMAXPOOL(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                               GirError *e)
{
    int i, r = ins[0]->type.rank;
    if (same_flt(n, ins, outs, e))
        return -1;
    if (r >= 0 && r < 3)
        return gir_node_fail(n, e, "input must have rank 3 or more (N, C, spatial...), has %d", r);
    for (i = 2; i < r; i++)
        outs[0].dims[i] = 1;
    return 0;
}

/* DepthToSpace (to_space) and SpaceToDepth on [N, C, H, W]. */
static int shape_blocks(const GirNode *n, const GirTensor *const *ins, GirType *outs, int to_space,
                        GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t b = gir_attr_int(n, "blocksize", 0), b2;
    const char *mode = gir_attr_string(n, "mode", "DCR");
    if (want_outs(n, 1, 1, e))
        return -1;
    if (b < 1 || b > 4096)
        return gir_node_fail(n, e, "blocksize %lld out of range", (long long)b);
    if (strcmp(mode, "DCR") != 0 && strcmp(mode, "CRD") != 0)
        return gir_node_fail(n, e, "mode must be DCR or CRD");
    if (xt->rank != 4)
        return gir_node_fail(n, e, "input must have rank 4, has %d", xt->rank);
    b2 = b * b;
    outs[0] = *xt;
    if (to_space) {
        if (xt->dims[1] >= 0 && xt->dims[1] % b2)
            return gir_node_fail(n, e, "channels %lld not a multiple of blocksize^2", (long long)xt->dims[1]);
        outs[0].dims[1] = xt->dims[1] < 0 ? -1 : xt->dims[1] / b2;
        outs[0].dims[2] = xt->dims[2] < 0 ? -1 : xt->dims[2] * b;
        outs[0].dims[3] = xt->dims[3] < 0 ? -1 : xt->dims[3] * b;
    } else {
        if ((xt->dims[2] >= 0 && xt->dims[2] % b) || (xt->dims[3] >= 0 && xt->dims[3] % b))
            return gir_node_fail(n, e, "height and width must be multiples of blocksize");
        outs[0].dims[1] = xt->dims[1] < 0 ? -1 : xt->dims[1] * b2;
        outs[0].dims[2] = xt->dims[2] < 0 ? -1 : xt->dims[2] / b;
        outs[0].dims[3] = xt->dims[3] < 0 ? -1 : xt->dims[3] / b;
    }
    return 0;
}

static int shape_DEPTHTOSPACE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                              GirError *e)
{
    return shape_blocks(n, ins, outs, 1, e);
}

static int shape_SPACETODEPTH(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                              GirError *e)
{
    return shape_blocks(n, ins, outs, 0, e);
}

static int shape_CONVTRANSPOSE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                               GirError *e)
{
    const GirType *xt = &ins[0]->type, *wt = &ins[1]->type;
    const GirTensor *b = arg(n, ins, 2);
    int64_t group = gir_attr_int(n, "group", 1), ks[GIR_MAX_RANK], v[2 * GIR_MAX_RANK];
    int i, r = xt->rank;
    GirWindow g;
    if (want_outs(n, 1, 1, e) || need_f32(n, ins[0], "input X", e) ||
        need_f32(n, ins[1], "weights W", e) || (b && need_f32(n, b, "bias B", e)))
        return -1;
    outs[0] = type_of(GIR_DT_F32, r);
    if (r < 0 || wt->rank < 0)
        return 0;
    if (r < 3 || wt->rank != r)
        return gir_node_fail(n, e, "input X (rank %d) and weights W (rank %d) need one rank of 3 or more",
                             r, wt->rank);
    if (group < 1 || group > ATTR_MAX)
        return gir_node_fail(n, e, "group %lld must be positive", (long long)group);
    if (xt->dims[1] >= 0 && wt->dims[0] >= 0 && xt->dims[1] != wt->dims[0])
        return gir_node_fail(n, e, "input X has %lld channels but weights W have %lld",
                             (long long)xt->dims[1], (long long)wt->dims[0]);
    if (wt->dims[0] >= 0 && wt->dims[0] % group)
        return gir_node_fail(n, e, "%lld input channels not divisible by group %lld",
                             (long long)wt->dims[0], (long long)group);
    if (attr_ints(n, "strides", r - 2, 1, 1, v, e) || attr_ints(n, "dilations", r - 2, 1, 1, v, e) ||
        attr_ints(n, "output_padding", r - 2, 0, 0, v, e) ||
        attr_ints(n, "kernel_shape", r - 2, 1, 1, v, e))
        return -1;
    if (gir_attr(n, "pads") && attr_ints(n, "pads", 2 * (r - 2), 0, 0, v, e))
        return -1;
    if (gir_attr(n, "output_shape")) {
        int cnt;
        const int64_t *os = gir_attr_ints(n, "output_shape", &cnt);
        if (!os || (cnt != r - 2 && cnt != r))
            return gir_node_fail(n, e, "output_shape must have %d entries", r - 2);
        for (i = 0; i < cnt; i++)
            if (os[i] < 0 || os[i] > DIM_MAX)
                return gir_node_fail(n, e, "output_shape[%d] out of range", i);
    }
    for (i = 0; i < r - 2; i++) {
        ks[i] = wt->dims[i + 2];
        if (ks[i] < 1 || xt->dims[i + 2] < 0)
            return ks[i] == 0 ? gir_node_fail(n, e, "weights W have an empty kernel axis") : 0;
    }
    if (b && (b->type.rank != 1 || (b->type.dims[0] >= 0 && wt->dims[1] >= 0 &&
                                    b->type.dims[0] != mul_sat(wt->dims[1], group))))
        return gir_node_fail(n, e, "bias B must be 1-D with one entry per output channel");
    if (xt->dims[0] < 0 || xt->dims[1] < 0 || wt->dims[1] < 0)
        return 0;
    gir_convt_window(n, xt, ks, &g);
    outs[0].dims[0] = xt->dims[0];
    outs[0].dims[1] = mul_sat(wt->dims[1], group);
    for (i = 0; i < r - 2; i++) {
        if (g.out[i] < 0 || g.out[i] > DIM_MAX)
            return gir_node_fail(n, e, "output axis %d has size %lld", i, (long long)g.out[i]);
        outs[0].dims[i + 2] = g.out[i];
    }
    return 0;
}

/* ---- selection and scattering ---------------------------------------------------------- */

static int shape_TOPK(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t k[1], ax;
    int cnt, rc;
    if (want_outs(n, 2, 2, e))
        return -1;
    if (!is_numeric(xt->dtype))
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(xt->dtype));
    rc = read_ints(n, ins[1], "K", k, 1, &cnt, e);
    if (rc < 0)
        return -1;
    if (cnt == 0)
        return gir_node_fail(n, e, "K must have one entry");
    outs[0] = *xt;
    if (xt->rank >= 0) {
        if (norm_axis(n, gir_attr_int(n, "axis", -1), xt->rank, "axis", &ax, e))
            return -1;
        if (rc == 0) {
            if (k[0] < 0 || (xt->dims[ax] >= 0 && k[0] > xt->dims[ax]))
                return gir_node_fail(n, e, "K = %lld out of range for an axis of %lld",
                                     (long long)k[0], (long long)xt->dims[ax]);
            outs[0].dims[ax] = k[0];
        } else {
            outs[0].dims[ax] = -1;
        }
    }
    outs[1] = outs[0];
    outs[1].dtype = GIR_DT_I64;
    return 0;
}

static int shape_GATHERND(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                          GirError *e)
{
    const GirType *xt = &ins[0]->type, *it = &ins[1]->type;
    int64_t b = gir_attr_int(n, "batch_dims", 0), q;
    int i, k = 0;
    if (want_outs(n, 1, 1, e) || need_index(n, ins[1], e))
        return -1;
    if (ins[1]->type.dtype != GIR_DT_I64)
        return gir_node_fail(n, e, "indices must be i64");
    outs[0] = type_of(xt->dtype, -1);
    if (xt->rank < 0 || it->rank < 0)
        return 0;
    if (it->rank < 1 || b < 0 || b >= it->rank || b >= xt->rank)
        return gir_node_fail(n, e, "batch_dims %lld does not fit ranks %d and %d", (long long)b,
                             xt->rank, it->rank);
    q = it->dims[it->rank - 1];
    if (q < 0)
        return 0;
    if (b + q > xt->rank || q < 1)
        return gir_node_fail(n, e, "index tuples of %lld entries do not fit data of rank %d",
                             (long long)q, xt->rank);
    if (it->rank - 1 + xt->rank - b - q > GIR_MAX_RANK)
        return gir_node_fail(n, e, "result rank above %d", GIR_MAX_RANK);
    for (i = 0; i < b; i++)
        if (xt->dims[i] >= 0 && it->dims[i] >= 0 && xt->dims[i] != it->dims[i])
            return gir_node_fail(n, e, "batch dim %d differs", i);
    outs[0].rank = (int)(it->rank - 1 + xt->rank - b - q);
    for (i = 0; i < it->rank - 1; i++)
        outs[0].dims[k++] = it->dims[i];
    for (i = (int)(b + q); i < xt->rank; i++)
        outs[0].dims[k++] = xt->dims[i];
    return 0;
}

static int scatter_common(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const char *red = gir_attr_string(n, "reduction", "none");
    if (want_outs(n, 1, 1, e) || need_index(n, ins[1], e))
        return -1;
    if (ins[2]->type.dtype != ins[0]->type.dtype)
        return gir_node_fail(n, e, "updates have element type %s, data %s",
                             gir_dtype_name(ins[2]->type.dtype), gir_dtype_name(ins[0]->type.dtype));
    if (!is_numeric(ins[0]->type.dtype) && ins[0]->type.dtype != GIR_DT_BOOL)
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(ins[0]->type.dtype));
    if (strcmp(red, "none") && strcmp(red, "add") && strcmp(red, "mul") && strcmp(red, "max") &&
        strcmp(red, "min"))
        return gir_node_fail(n, e, "reduction must be none, add, mul, max or min");
    outs[0] = ins[0]->type;
    return 0;
}

static int shape_SCATTERELEMENTS(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                                 GirError *e)
{
    const GirType *xt = &ins[0]->type, *it = &ins[1]->type;
    int64_t ax;
    if (scatter_common(n, ins, outs, e))
        return -1;
    if (!gir_type_equal(it, &ins[2]->type) && gir_type_is_static(it) &&
        gir_type_is_static(&ins[2]->type) && it->rank != ins[2]->type.rank)
        return gir_node_fail(n, e, "indices and updates differ in shape");
    if (xt->rank < 0 || it->rank < 0)
        return 0;
    if (xt->rank != it->rank || xt->rank == 0)
        return gir_node_fail(n, e, "indices have rank %d; data has rank %d", it->rank, xt->rank);
    return norm_axis(n, gir_attr_int(n, "axis", 0), xt->rank, "axis", &ax, e);
}

static int shape_SCATTERND(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                           GirError *e)
{
    const GirType *xt = &ins[0]->type, *it = &ins[1]->type, *ut = &ins[2]->type;
    int64_t q;
    if (scatter_common(n, ins, outs, e))
        return -1;
    if (xt->rank < 0 || it->rank < 0 || ut->rank < 0)
        return 0;
    q = it->rank ? it->dims[it->rank - 1] : -1;
    if (it->rank < 1 || q > xt->rank || q == 0)
        return gir_node_fail(n, e, "index tuples do not fit data of rank %d", xt->rank);
    if (q >= 0 && ut->rank != it->rank - 1 + xt->rank - q)
        return gir_node_fail(n, e, "updates have rank %d; expected %lld", ut->rank,
                             (long long)(it->rank - 1 + xt->rank - q));
    return 0;
}

static int shape_ONEHOT(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *it = &ins[0]->type;
    int64_t ax, depth = -1;
    int i, k = 0;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!is_numeric(it->dtype) || !is_numeric(ins[1]->type.dtype))
        return gir_node_fail(n, e, "indices and depth must be numbers");
    if (numel_sat(&ins[1]->type) > 1 || numel_sat(&ins[2]->type) > 2 || ins[2]->type.rank > 1)
        return gir_node_fail(n, e, "depth must be a scalar and values a pair");
    if (ins[1]->data && numel_sat(&ins[1]->type) == 1) {
        double d = ins[1]->type.dtype == GIR_DT_F32 ? *(const float *)ins[1]->data
                   : ins[1]->type.dtype == GIR_DT_F64 ? *(const double *)ins[1]->data
                   : ins[1]->type.dtype == GIR_DT_I32 || ins[1]->type.dtype == GIR_DT_I64
                       ? (double)load_int(ins[1], 0)
                       : -1;
        if (!(d >= 1 && d <= (double)DIM_MAX))
            return gir_node_fail(n, e, "depth must be a positive integer below 2^40");
        depth = (int64_t)d;
    }
    outs[0] = type_of(ins[2]->type.dtype, it->rank < 0 ? -1 : it->rank + 1);
    if (it->rank < 0)
        return 0;
    if (it->rank + 1 > GIR_MAX_RANK)
        return gir_node_fail(n, e, "result rank above %d", GIR_MAX_RANK);
    if (norm_axis(n, gir_attr_int(n, "axis", -1), it->rank + 1, "axis", &ax, e))
        return -1;
    for (i = 0; i <= it->rank; i++)
        outs[0].dims[i] = i == ax ? depth : it->dims[k++];
    return 0;
}

static int shape_EYELIKE(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    int64_t dt = gir_attr_int(n, "dtype", 0);
    GirDType d = ins[0]->type.dtype;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (dt) {
        d = dt > 0 && dt < 64 ? gir_dtype_from_onnx((int)dt) : GIR_DT_UNDEF;
        if (d == GIR_DT_UNDEF)
            return gir_node_fail(n, e, "dtype %lld not supported", (long long)dt);
    }
    if (!is_numeric(d) && d != GIR_DT_BOOL)
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(d));
    if (ins[0]->type.rank >= 0 && ins[0]->type.rank != 2)
        return gir_node_fail(n, e, "input must be 2-D");
    outs[0] = ins[0]->type;
    outs[0].dtype = d;
    return 0;
}

static int shape_NONZERO(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t i, cnt = numel_sat(xt), nz = 0;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (!is_numeric(xt->dtype) && xt->dtype != GIR_DT_BOOL)
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(xt->dtype));
    outs[0] = type_of(GIR_DT_I64, 2);
    outs[0].dims[0] = xt->rank;
    if (!ins[0]->data || cnt < 0)
        return 0;
    /* The count depends on the data: known here only when it is. */
    for (i = 0; i < cnt; i++) {
        const unsigned char *p = (const unsigned char *)ins[0]->data + i * (int64_t)gir_dtype_size(xt->dtype);
        size_t j;
        int any = 0;
        for (j = 0; j < gir_dtype_size(xt->dtype); j++)
            any |= p[j] != 0 && !(j == gir_dtype_size(xt->dtype) - 1 && p[j] == 0x80 &&
                                  (xt->dtype == GIR_DT_F32 || xt->dtype == GIR_DT_F64 ||
                                   xt->dtype == GIR_DT_F16));
        nz += any;
    }
    outs[0].dims[1] = nz;
    return 0;
}

/* The scalar parameters of NonMaxSuppression, defaults for absent or
 * empty inputs; 1 when one is present but its data is not known. */
static int nms_params(const GirNode *n, const GirTensor *const *ins, int64_t *max_out, float *iou,
                      float *sthr, GirError *e)
{
    const GirTensor *m = arg(n, ins, 2), *io = arg(n, ins, 3), *st = arg(n, ins, 4);
    int unknown = 0;
    *max_out = 0;
    *iou = 0;
    *sthr = -INFINITY;
    if (m && m->type.dtype != GIR_DT_I64)
        return gir_node_fail(n, e, "max_output_boxes_per_class must be i64");
    if ((io && io->type.dtype != GIR_DT_F32) || (st && st->type.dtype != GIR_DT_F32))
        return gir_node_fail(n, e, "the thresholds must be f32");
    if ((m && numel_sat(&m->type) > 1) || (io && numel_sat(&io->type) > 1) ||
        (st && numel_sat(&st->type) > 1))
        return gir_node_fail(n, e, "the optional inputs must be scalars");
    if (m && numel_sat(&m->type) != 0) {
        if (m->data)
            *max_out = *(const int64_t *)m->data;
        else
            unknown = 1;
    }
    if (io && numel_sat(&io->type) != 0) {
        if (io->data)
            *iou = *(const float *)io->data;
        else
            unknown = 1;
    }
    if (st && numel_sat(&st->type) != 0) {
        if (st->data)
            *sthr = *(const float *)st->data;
        else
            unknown = 1;
    }
    if (*max_out < 0)
        *max_out = 0;
    return unknown;
}

static int shape_NMS(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *bt = &ins[0]->type, *st = &ins[1]->type;
    int64_t max_out;
    float iou, sthr;
    int rc;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (bt->dtype != GIR_DT_F32 || st->dtype != GIR_DT_F32)
        return gir_node_fail(n, e, "boxes and scores must be f32");
    rc = nms_params(n, ins, &max_out, &iou, &sthr, e);
    if (rc < 0)
        return -1;
    outs[0] = type_of(GIR_DT_I64, 2);
    outs[0].dims[1] = 3;
    if (bt->rank < 0 || st->rank < 0)
        return 0;
    if (bt->rank != 3 || st->rank != 3 || (bt->dims[2] >= 0 && bt->dims[2] != 4))
        return gir_node_fail(n, e, "boxes must be [batch, boxes, 4] and scores [batch, classes, boxes]");
    if ((bt->dims[0] >= 0 && st->dims[0] >= 0 && bt->dims[0] != st->dims[0]) ||
        (bt->dims[1] >= 0 && st->dims[2] >= 0 && bt->dims[1] != st->dims[2]))
        return gir_node_fail(n, e, "boxes and scores disagree on batch or box count");
    /* The count depends on the data: known here only when all of it is. */
    if (rc || !ins[0]->data || !ins[1]->data || !gir_type_is_static(bt) || !gir_type_is_static(st))
        return 0;
    outs[0].dims[0] = gir_nms(ins[0]->data, ins[1]->data, bt->dims[0], st->dims[1], bt->dims[1],
                              max_out, iou, sthr, gir_attr_int(n, "center_point_box", 0) != 0,
                              NULL);
    return 0;
}

static int shape_REVERSESEQUENCE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                                 GirError *e)
{
    const GirType *xt = &ins[0]->type;
    int64_t ba = gir_attr_int(n, "batch_axis", 1), ta = gir_attr_int(n, "time_axis", 0);
    if (want_outs(n, 1, 1, e) || need_index(n, ins[1], e))
        return -1;
    if (xt->rank >= 0 && (xt->rank < 2 || ba < 0 || ba > 1 || ta < 0 || ta > 1 || ba == ta))
        return gir_node_fail(n, e, "batch_axis and time_axis must be 0 and 1 in some order, rank 2 or more");
    if (xt->rank >= 0 && ins[1]->type.rank >= 0 &&
        (ins[1]->type.rank != 1 || (xt->dims[ba] >= 0 && ins[1]->type.dims[0] >= 0 &&
                                    ins[1]->type.dims[0] != xt->dims[ba])))
        return gir_node_fail(n, e, "sequence_lens must have one entry per batch entry");
    outs[0] = *xt;
    return 0;
}

static int shape_DET(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type;
    if (same_flt(n, ins, outs, e))
        return -1;
    if (xt->rank < 0)
        return 0;
    if (xt->rank < 2 || (xt->dims[xt->rank - 1] >= 0 && xt->dims[xt->rank - 2] >= 0 &&
                         xt->dims[xt->rank - 1] != xt->dims[xt->rank - 2]))
        return gir_node_fail(n, e, "input must end in square matrices");
    outs[0].rank = xt->rank - 2;
    return 0;
}

static int shape_DYNQUANT(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    if (want_outs(n, 3, 3, e) || need_f32(n, ins[0], "input", e))
        return -1;
    outs[0] = ins[0]->type;
    outs[0].dtype = GIR_DT_U8;
    outs[1] = type_of(GIR_DT_F32, 0);
    outs[2] = type_of(GIR_DT_U8, 0);
    return 0;
}

static int shape_MAXUNPOOL(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                           GirError *e)
{
    const GirType *xt = &ins[0]->type;
    const GirTensor *os = arg(n, ins, 2);
    int64_t k[GIR_MAX_RANK], st[GIR_MAX_RANK], pads[2 * GIR_MAX_RANK], v[GIR_MAX_RANK];
    int i, r = xt->rank, cnt, rc;
    if (want_outs(n, 1, 1, e) || same_flt(n, ins, outs, e) || need_index(n, ins[1], e))
        return -1;
    if (!gir_type_equal(&ins[1]->type, xt) && gir_type_is_static(xt) &&
        gir_type_is_static(&ins[1]->type) && ins[1]->type.rank != r)
        return gir_node_fail(n, e, "indices must be shaped as the input");
    if (r < 0)
        return 0;
    if (r < 3)
        return gir_node_fail(n, e, "input must have rank 3 or more (N, C, spatial...)");
    if (!gir_attr(n, "kernel_shape"))
        return gir_node_fail(n, e, "needs attribute kernel_shape");
    if (attr_ints(n, "kernel_shape", r - 2, 1, 1, k, e) || attr_ints(n, "strides", r - 2, 1, 1, st, e) ||
        attr_ints(n, "pads", 2 * (r - 2), 0, 0, pads, e))
        return -1;
    if (os) {
        rc = read_ints(n, os, "output_shape", v, GIR_MAX_RANK, &cnt, e);
        if (rc < 0)
            return -1;
        if (cnt >= 0 && cnt != r)
            return gir_node_fail(n, e, "output_shape has %d entries; expected %d", cnt, r);
        for (i = 0; i < r; i++) {
            if (rc == 0 && (v[i] < 0 || v[i] > DIM_MAX))
                return gir_node_fail(n, e, "output_shape[%d] out of range", i);
            outs[0].dims[i] = rc ? -1 : v[i];
        }
        return 0;
    }
    for (i = 2; i < r; i++) {
        int64_t d = xt->dims[i];
        outs[0].dims[i] = d < 0 ? -1 : (d - 1) * st[i - 2] + k[i - 2] - pads[i - 2] - pads[r - 2 + i - 2];
        if (d >= 0 && outs[0].dims[i] < 0)
            return gir_node_fail(n, e, "output axis %d would have size %lld", i, (long long)outs[0].dims[i]);
    }
    return 0;
}

static int shape_COMPRESS(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                          GirError *e)
{
    const GirType *xt = &ins[0]->type, *ct = &ins[1]->type;
    const GirAttr *axa = gir_attr(n, "axis");
    int64_t ax = 0, len, i, cnt = 0;
    if (want_outs(n, 1, 1, e))
        return -1;
    if (ct->dtype != GIR_DT_BOOL || (ct->rank >= 0 && ct->rank != 1))
        return gir_node_fail(n, e, "condition must be a 1-D bool tensor");
    if (xt->rank < 0) {
        outs[0] = type_of(xt->dtype, axa ? -1 : 1);
        return 0;
    }
    if (axa) {
        if (norm_axis(n, axa->i, xt->rank, "axis", &ax, e))
            return -1;
        outs[0] = *xt;
        len = xt->dims[ax];
    } else {
        outs[0] = type_of(xt->dtype, 1);
        len = numel_sat(xt);
    }
    if (!ins[1]->data || len < 0 || ct->dims[0] < 0) {
        outs[0].dims[axa ? ax : 0] = -1;
        return 0;
    }
    if (ct->dims[0] > len)
        return gir_node_fail(n, e, "condition has %lld entries; the axis has %lld",
                             (long long)ct->dims[0], (long long)len);
    for (i = 0; i < ct->dims[0]; i++)
        cnt += ((const uint8_t *)ins[1]->data)[i] != 0;
    outs[0].dims[axa ? ax : 0] = cnt;
    return 0;
}

static int shape_MVN(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    int cnt, i;
    const int64_t *axes = gir_attr_ints(n, "axes", &cnt);
    int64_t ax;
    if (same_flt(n, ins, outs, e))
        return -1;
    if (ins[0]->type.rank < 0)
        return 0;
    for (i = 0; axes && i < cnt; i++)
        if (norm_axis(n, axes[i], ins[0]->type.rank, "axis", &ax, e))
            return -1;
    if (!axes && ins[0]->type.rank != 4)
        return gir_node_fail(n, e, "the default axes [0, 2, 3] need a rank-4 input");
    return 0;
}

static int shape_GRIDSAMPLE(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                            GirError *e)
{
    const GirType *xt = &ins[0]->type, *gt = &ins[1]->type;
    const char *mode = gir_attr_string(n, "mode", "bilinear");
    const char *pad = gir_attr_string(n, "padding_mode", "zeros");
    if (want_outs(n, 1, 1, e) || same_flt(n, ins, outs, e) || same_dtypes(n, ins, 2, e))
        return -1;
    if (gir_grid_sample_mode(mode) < 0)
        return gir_node_fail(n, e, "mode must be bilinear, nearest or bicubic (opset 20: linear, "
                             "nearest or cubic)");
    if (strcmp(pad, "zeros") && strcmp(pad, "border") && strcmp(pad, "reflection"))
        return gir_node_fail(n, e, "padding_mode must be zeros, border or reflection");
    if ((xt->rank >= 0 && xt->rank != 4) || (gt->rank >= 0 && gt->rank != 4) ||
        (gt->rank == 4 && gt->dims[3] >= 0 && gt->dims[3] != 2))
        return gir_node_fail(n, e, "input must be [N,C,H,W] and grid [N,H_out,W_out,2]");
    outs[0] = type_of(xt->dtype, 4);
    outs[0].dims[0] = xt->rank == 4 ? xt->dims[0] : -1;
    outs[0].dims[1] = xt->rank == 4 ? xt->dims[1] : -1;
    outs[0].dims[2] = gt->rank == 4 ? gt->dims[1] : -1;
    outs[0].dims[3] = gt->rank == 4 ? gt->dims[2] : -1;
    if (xt->rank == 4 && gt->rank == 4 && xt->dims[0] >= 0 && gt->dims[0] >= 0 &&
        xt->dims[0] != gt->dims[0])
        return gir_node_fail(n, e, "input and grid disagree on the batch");
    return 0;
}

/* The size of every Einsum label from the input shapes: letters must agree,
 * ellipsis axes broadcast. */
static int einsum_sizes(const GirNode *n, const GirEinsum *es, const GirTensor *const *ins,
                        int64_t *size, GirError *e)
{
    int i, j;
    for (i = 0; i < GIR_EINSUM_LABELS; i++)
        size[i] = -2; /* not used */
    for (i = 0; i < es->nin; i++) {
        for (j = 0; j < es->in_rank[i]; j++) {
            int l = es->in_lab[i][j];
            int64_t d = ins[i]->type.dims[j];
            if (size[l] == -2 || size[l] == -1 || (l >= 52 && size[l] == 1))
                size[l] = size[l] == -1 && d < 0 ? -1 : d;
            else if (d >= 0 && d != size[l] && !(l >= 52 && d == 1))
                return gir_node_fail(n, e, "subscript sizes %lld and %lld disagree",
                                     (long long)size[l], (long long)d);
        }
    }
    return 0;
}

static int shape_EINSUM(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const char *eq = gir_attr_string(n, "equation", NULL);
    int ranks[GIR_EINSUM_MAX_IN], i;
    int64_t size[GIR_EINSUM_LABELS];
    GirEinsum es;
    char why[256];
    if (want_outs(n, 1, 1, e) || same_dtypes(n, ins, n->nin, e))
        return -1;
    if (!eq)
        return gir_node_fail(n, e, "needs attribute equation");
    if (!is_numeric(ins[0]->type.dtype))
        return gir_node_fail(n, e, "element type %s not supported", gir_dtype_name(ins[0]->type.dtype));
    outs[0] = type_of(ins[0]->type.dtype, -1);
    for (i = 0; i < n->nin; i++) {
        if (!ins[i])
            return gir_node_fail(n, e, "input %d is absent", i);
        if (ins[i]->type.rank < 0)
            return 0;
        ranks[i] = ins[i]->type.rank;
    }
    if (gir_einsum_parse(eq, n->nin, ranks, &es, why, sizeof why))
        return gir_node_fail(n, e, "%s", why);
    if (einsum_sizes(n, &es, ins, size, e))
        return -1;
    outs[0].rank = es.out_rank;
    for (i = 0; i < es.out_rank; i++)
        outs[0].dims[i] = size[es.out_lab[i]] < 0 ? -1 : size[es.out_lab[i]];
    return 0;
}

static int shape_ROIALIGN(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                          GirError *e)
{
    const GirType *xt = &ins[0]->type, *rt = &ins[1]->type, *bt = &ins[2]->type;
    int64_t oh = gir_attr_int(n, "output_height", 1), ow = gir_attr_int(n, "output_width", 1);
    int64_t sr = gir_attr_int(n, "sampling_ratio", 0);
    const char *mode = gir_attr_string(n, "mode", "avg");
    const char *ct = gir_attr_string(n, "coordinate_transformation_mode", "half_pixel");
    if (want_outs(n, 1, 1, e) || same_flt(n, ins, outs, e) || same_dtypes(n, ins, 2, e) ||
        need_index(n, ins[2], e))
        return -1;
    if (oh < 1 || ow < 1 || oh > ATTR_MAX || ow > ATTR_MAX || sr < 0 || sr > 4096)
        return gir_node_fail(n, e, "output_height, output_width or sampling_ratio out of range");
    if (strcmp(mode, "avg") && strcmp(mode, "max"))
        return gir_node_fail(n, e, "mode must be avg or max");
    if (strcmp(ct, "half_pixel") && strcmp(ct, "output_half_pixel"))
        return gir_node_fail(n, e, "coordinate_transformation_mode must be half_pixel or output_half_pixel");
    if ((xt->rank >= 0 && xt->rank != 4) || (rt->rank >= 0 && (rt->rank != 2 || (rt->dims[1] >= 0 && rt->dims[1] != 4))) ||
        (bt->rank >= 0 && bt->rank != 1))
        return gir_node_fail(n, e, "X must be [N,C,H,W], rois [R,4], batch_indices [R]");
    if (rt->rank == 2 && bt->rank == 1 && rt->dims[0] >= 0 && bt->dims[0] >= 0 && rt->dims[0] != bt->dims[0])
        return gir_node_fail(n, e, "rois and batch_indices disagree on the count");
    outs[0] = type_of(xt->dtype, 4);
    outs[0].dims[0] = rt->rank == 2 ? rt->dims[0] : -1;
    outs[0].dims[1] = xt->rank == 4 ? xt->dims[1] : -1;
    outs[0].dims[2] = oh;
    outs[0].dims[3] = ow;
    return 0;
}

/* ---- losses (the backend tests' training graphs, run forward) ---------------------- */

/* NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: scores [N, C, d...],
 * target [N, d...] of indices, optional weight [C]; the loss has the
 * target's shape (reduction none) or is a scalar; the second output of
 * SoftmaxCrossEntropyLoss is the log-probabilities, shaped as the scores. */
static int shape_loss(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    const GirType *xt = &ins[0]->type, *tt = &ins[1]->type;
    const GirTensor *w = arg(n, ins, 2);
    const char *red = gir_attr_string(n, "reduction", "mean");
    int i;
    if (want_outs(n, 1, n->op == GIR_OP_SCELOSS ? 2 : 1, e) || need_index(n, ins[1], e))
        return -1;
    if (!is_flt(xt->dtype))
        return gir_node_fail(n, e, "scores have element type %s; only f32 and f64", gir_dtype_name(xt->dtype));
    if (w && w->type.dtype != xt->dtype)
        return gir_node_fail(n, e, "weight has element type %s, scores %s",
                             gir_dtype_name(w->type.dtype), gir_dtype_name(xt->dtype));
    if (strcmp(red, "none") != 0 && strcmp(red, "sum") != 0 && strcmp(red, "mean") != 0)
        return gir_node_fail(n, e, "reduction must be none, sum or mean");
    if (xt->rank >= 0 && tt->rank >= 0) {
        if (xt->rank < 2 || tt->rank != xt->rank - 1)
            return gir_node_fail(n, e, "scores of rank %d need a target of rank %d, not %d",
                                 xt->rank, xt->rank - 1, tt->rank);
        for (i = 0; i < tt->rank; i++) {
            int64_t a = xt->dims[i ? i + 1 : 0], b = tt->dims[i];
            if (a >= 0 && b >= 0 && a != b)
                return gir_node_fail(n, e, "target dim %d is %lld; scores say %lld", i,
                                     (long long)b, (long long)a);
        }
        if (w && (w->type.rank != 1 || (xt->dims[1] >= 0 && w->type.dims[0] >= 0 &&
                                         w->type.dims[0] != xt->dims[1])))
            return gir_node_fail(n, e, "weight must be 1-D with one entry per class");
    }
    if (strcmp(red, "none") == 0) {
        outs[0] = *tt;
        outs[0].dtype = xt->dtype;
    } else {
        outs[0] = type_of(xt->dtype, 0);
    }
    if (n->nout > 1)
        outs[1] = *xt;
    return 0;
}

static int shape_NLLLOSS(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_loss(n, ins, outs, e);
}

static int shape_SCELOSS(const GirNode *n, const GirTensor *const *ins, GirType *outs, GirError *e)
{
    return shape_loss(n, ins, outs, e);
}

#define SHAPE_ROW(e, name, lo, hi, summary) [GIR_OP_##e] = shape_##e,
static ShapeFn *const shape_fns[GIR_OP_COUNT] = {GIR_OPS(SHAPE_ROW)};
#undef SHAPE_ROW

/* ---- entry points ---------------------------------------------------------------- */

static int check_type(const GirNode *n, const GirType *t, const char *what, int i, GirError *e)
{
    int j;
    if (t->dtype <= GIR_DT_UNDEF || t->dtype >= GIR_DT_COUNT)
        return gir_node_fail(n, e, "%s %d has no known element type", what, i);
    if (t->rank < -1 || t->rank > GIR_MAX_RANK)
        return gir_node_fail(n, e, "%s %d has rank %d; at most %d supported", what, i, t->rank,
                    GIR_MAX_RANK);
    for (j = 0; j < t->rank; j++)
        if (t->dims[j] < -1 || t->dims[j] > DIM_MAX)
            return gir_node_fail(n, e, "%s %d has dim %lld out of range", what, i,
                        (long long)t->dims[j]);
    return 0;
}

int gir_shape_node(const GirGraph *g, const GirNode *n, const GirTensor *const *ins,
                   GirType *outs, GirError *e)
{
    int i, lo, hi;
    (void)g;
    if ((unsigned)n->op >= GIR_OP_COUNT)
        gir_die("gir_shape_node: bad op %d", (int)n->op);
    lo = gir_op_min_inputs(n->op);
    hi = gir_op_max_inputs(n->op);
    if (n->nin < lo || n->nin > hi)
        return gir_node_fail(n, e, "has %d inputs; expected %d to %d", n->nin, lo, hi);
    for (i = 0; i < n->nin; i++) {
        if (!ins[i]) {
            if (i < lo)
                return gir_node_fail(n, e, "required input %d is absent", i);
            continue;
        }
        if (check_type(n, &ins[i]->type, "input", i, e))
            return -1;
    }
    for (i = 0; i < n->nout; i++)
        outs[i] = type_of(GIR_DT_UNDEF, -1);
    /* layout="NHWC" nodes: the NCHW rule on transposed types. */
    if (gir_node_is_nhwc(n))
        return shape_nhwc(n, ins, outs, e);
    /* Nodes of the int8 form (docs/quant.md) have their own rule. */
    if ((gir_int8_node(n, ins) ? shape_int8 : shape_fns[n->op])(n, ins, outs, e))
        return -1;
    for (i = 0; i < n->nout; i++)
        if (check_type(n, &outs[i], "output", i, e))
            return -1;
    return 0;
}

/* Merge an inferred type into a declared one: the more known wins, and two
 * known facts must agree. */
static int merge_type(const GirNode *n, const GirValue *v, GirType *decl, const GirType *inf,
                      GirError *e)
{
    char a[128], b[128];
    GirType t = *inf;
    int i;
    /* A declaration without an element type declares nothing (a zeroed
     * GirType would otherwise read as a scalar). */
    if (decl->dtype == GIR_DT_UNDEF) {
        *decl = t;
        return 0;
    }
    if (decl->dtype != inf->dtype)
        goto conflict;
    if (decl->rank >= 0) {
        if (inf->rank < 0) {
            t.rank = decl->rank;
            memcpy(t.dims, decl->dims, sizeof t.dims);
        } else if (decl->rank != inf->rank) {
            goto conflict;
        } else {
            for (i = 0; i < t.rank; i++) {
                if (decl->dims[i] >= 0 && inf->dims[i] >= 0 && decl->dims[i] != inf->dims[i])
                    goto conflict;
                if (t.dims[i] < 0)
                    t.dims[i] = decl->dims[i];
            }
        }
    }
    *decl = t;
    return 0;
conflict:
    return gir_node_fail(n, e, "output '%s' is declared %s but computes to %s", v->name,
                gir_type_str(decl, a, sizeof a), gir_type_str(inf, b, sizeof b));
}

int gir_infer_shapes(GirGraph *g, GirError *e)
{
    GirArena *tmp = gir_arena_new();
    GirTensor *ts, **ins;
    GirType *outs;
    int i, j, maxin = 1, maxout = 1, rc = -1;
    for (i = 0; i < g->nnode; i++) {
        if (g->nodes[i].nin > maxin)
            maxin = g->nodes[i].nin;
        if (g->nodes[i].nout > maxout)
            maxout = g->nodes[i].nout;
    }
    ts = gir_arena_alloc(tmp, sizeof *ts * (size_t)(g->nval ? g->nval : 1));
    ins = gir_arena_alloc(tmp, sizeof *ins * (size_t)maxin);
    outs = gir_arena_alloc(tmp, sizeof *outs * (size_t)maxout);
    for (i = 0; i < g->nval; i++) {
        ts[i].type = g->vals[i].type;
        ts[i].data = g->vals[i].kind == GIR_VAL_CONST ? g->vals[i].data : NULL;
    }
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        for (j = 0; j < n->nin; j++) {
            int v = n->in[j];
            if (v >= g->nval) {
                gir_node_fail(n, e, "input %d refers to value %d, which does not exist", j, v);
                goto out;
            }
            ins[j] = v < 0 ? NULL : &ts[v];
        }
        if (gir_shape_node(g, n, (const GirTensor *const *)ins, outs, e))
            goto out;
        for (j = 0; j < n->nout; j++) {
            int v = n->out[j];
            if (v < 0 || v >= g->nval) {
                gir_node_fail(n, e, "output %d refers to value %d, which does not exist", j, v);
                goto out;
            }
            if (merge_type(n, &g->vals[v], &g->vals[v].type, &outs[j], e))
                goto out;
            ts[v].type = g->vals[v].type;
        }
        /* A Constant node's data decides the shapes of its users (a Reshape
         * target, Slice bounds) as well as a graph constant does. */
        if (n->op == GIR_OP_CONSTANT) {
            const GirAttr *a = gir_attr(n, "value");
            if (a && a->kind == GIR_ATTR_TENSOR)
                ts[n->out[0]].data = a->t.data;
        }
    }
    rc = 0;
out:
    gir_arena_free(tmp);
    return rc;
}
