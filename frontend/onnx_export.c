/*
 * The QDQ ONNX writer: a graph IR, quantized into kiln's int8 form
 * (docs/quant.md) or still fp32, becomes an ONNX ModelProto that
 * onnxruntime runs, so that it computes in float what kiln computes in fixed
 * point.
 *
 * Every int8 value stays an int8 tensor of the same name.  An op that kiln
 * runs on int8 becomes DequantizeLinear on each int8 input, the op in float,
 * and QuantizeLinear to the output's scale.  The scales the DequantizeLinear
 * nodes use are the ones the integer multipliers realise, not the scales
 * the quantizer started from: a Conv's per-channel weight scale is
 * m_pos[oc] * 2^-shift[oc] * s_y / s_x, an Add's input scales are
 * m_a * 2^-shift * s_y and m_b * 2^-shift * s_y, and so on, so the only
 * differences left are float against integer arithmetic and round half to
 * even against round half up.  The fused activation follows from m_neg:
 * none (m_neg = m_pos), Relu (m_neg = 0) or PRelu with slope m_neg / m_pos
 * per channel; act_min / act_max become a Clip.  A LutI8 becomes its table
 * gathered at x + 128, in integers.
 *
 * Needs: shapes inferred, values in NCHW (an NHWC value is refused), every
 * int8 value with its scale.  Kiln's own ops without an ONNX form
 * (YoloHead) are refused with an error naming the node.  The file appears
 * whole or not at all (temporary file beside it, then rename).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "frontend/tensor_proto.h"

/* The writer's state; every protobuf piece lives in arena a. */
typedef struct {
    const GirGraph *g;           /* the graph being written */
    GirArena *a;                 /* owns every message below */
    const char *path;            /* output file, for diagnostics */
    GirError *e;                 /* where an error goes */
    Onnx__NodeProto **nodes;     /* nodes written so far */
    size_t nnode, capnode;       /* count and capacity of nodes */
    Onnx__TensorProto **inits;   /* initializers written so far */
    size_t ninit, capinit;       /* count and capacity of inits */
    unsigned char *init_done;    /* per value id: constant already written */
    const char **dq_name;        /* per value id: its DequantizeLinear at its own scale */
    const char *zp_i8;           /* name of the shared int8 zero point scalar */
    int uniq;                    /* counter for made-up names */
} Exp;

static int exp_fail(Exp *x, const GirNode *n, const char *fmt, ...) GIR_PRINTF(3, 4);

static int exp_fail(Exp *x, const GirNode *n, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n)
        return gir_error_at(x->e, gir_loc_file(x->path, -1), "node '%s' (%s): %s", n->name,
                            gir_op_name(n->op), msg);
    return gir_error_at(x->e, gir_loc_file(x->path, -1), "%s", msg);
}

/* A name no value of the graph has: base + "__" + tag + counter. */
static char *made_name(Exp *x, const char *base, const char *tag)
{
    for (;;) {
        char *s = gir_arena_printf(x->a, "%s__%s%d", base, tag, x->uniq++);
        if (gir_find_value(x->g, s) < 0)
            return s;
    }
}

/* ---- messages ------------------------------------------------------------------- */

static void push_node(Exp *x, Onnx__NodeProto *np)
{
    if (x->nnode == x->capnode) {
        size_t cap = x->capnode ? 2 * x->capnode : 64;
        Onnx__NodeProto **nn = gir_arena_alloc(x->a, cap * sizeof *nn);
        if (x->nnode)
            memcpy(nn, x->nodes, x->nnode * sizeof *nn);
        x->nodes = nn;
        x->capnode = cap;
    }
    x->nodes[x->nnode++] = np;
}

static void push_init(Exp *x, Onnx__TensorProto *tp)
{
    if (x->ninit == x->capinit) {
        size_t cap = x->capinit ? 2 * x->capinit : 64;
        Onnx__TensorProto **nn = gir_arena_alloc(x->a, cap * sizeof *nn);
        if (x->ninit)
            memcpy(nn, x->inits, x->ninit * sizeof *nn);
        x->inits = nn;
        x->capinit = cap;
    }
    x->inits[x->ninit++] = tp;
}

/* A TensorProto of type t with data (little-endian raw bytes). */
static Onnx__TensorProto *tensor_msg(Exp *x, const char *name, const GirType *t,
                                     const void *data)
{
    static const Onnx__TensorProto init = ONNX__TENSOR_PROTO__INIT;
    Onnx__TensorProto *tp = gir_arena_alloc(x->a, sizeof *tp);
    size_t es = gir_dtype_size(t->dtype), n = (size_t)gir_type_numel(t), i, b;
    const uint16_t probe = 1;
    uint8_t *raw = gir_arena_alloc(x->a, n * es + 1);
    int d;
    *tp = init;
    if (name)
        tp->name = gir_arena_strdup(x->a, name);
    tp->n_dims = (size_t)t->rank;
    tp->dims = gir_arena_alloc(x->a, sizeof(int64_t) * (size_t)(t->rank + 1));
    for (d = 0; d < t->rank; d++)
        tp->dims[d] = t->dims[d];
    tp->has_data_type = 1;
    tp->data_type = gir_dtype_to_onnx(t->dtype);
    if (*(const uint8_t *)&probe == 1) {
        if (n)
            memcpy(raw, data, n * es);
    } else {
        for (i = 0; i < n; i++)
            for (b = 0; b < es; b++)
                raw[i * es + b] = ((const uint8_t *)data)[i * es + es - 1 - b];
    }
    tp->has_raw_data = 1;
    tp->raw_data.len = n * es;
    tp->raw_data.data = raw;
    return tp;
}

/* A new initializer; returns its name. */
static const char *add_init(Exp *x, const char *base, GirDType dt, int rank, const int64_t *dims,
                            const void *data)
{
    GirType t;
    const char *name = made_name(x, base, "c");
    int d;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = rank;
    for (d = 0; d < rank; d++)
        t.dims[d] = dims[d];
    push_init(x, tensor_msg(x, name, &t, data));
    return name;
}

static const char *f32_scalar(Exp *x, const char *base, float v)
{
    return add_init(x, base, GIR_DT_F32, 0, NULL, &v);
}

static Onnx__NodeProto *new_node(Exp *x, const char *op_type, const char *name,
                                 const char *const *ins, int nin, const char *const *outs,
                                 int nout)
{
    static const Onnx__NodeProto init = ONNX__NODE_PROTO__INIT;
    Onnx__NodeProto *np = gir_arena_alloc(x->a, sizeof *np);
    int i;
    *np = init;
    np->op_type = gir_arena_strdup(x->a, op_type);
    np->name = gir_arena_strdup(x->a, name);
    np->n_input = (size_t)nin;
    np->input = gir_arena_alloc(x->a, sizeof(char *) * (size_t)(nin + 1));
    for (i = 0; i < nin; i++)
        np->input[i] = gir_arena_strdup(x->a, ins[i] ? ins[i] : "");
    np->n_output = (size_t)nout;
    np->output = gir_arena_alloc(x->a, sizeof(char *) * (size_t)(nout + 1));
    for (i = 0; i < nout; i++)
        np->output[i] = gir_arena_strdup(x->a, outs[i]);
    push_node(x, np);
    return np;
}

static Onnx__AttributeProto *new_attr(Exp *x, Onnx__NodeProto *np, const char *name)
{
    static const Onnx__AttributeProto init = ONNX__ATTRIBUTE_PROTO__INIT;
    Onnx__AttributeProto *ap = gir_arena_alloc(x->a, sizeof *ap);
    Onnx__AttributeProto **na;
    *ap = init;
    ap->name = gir_arena_strdup(x->a, name);
    na = gir_arena_alloc(x->a, sizeof *na * (np->n_attribute + 1));
    if (np->n_attribute)
        memcpy(na, np->attribute, sizeof *na * np->n_attribute);
    na[np->n_attribute++] = ap;
    np->attribute = na;
    return ap;
}

static void attr_int(Exp *x, Onnx__NodeProto *np, const char *name, int64_t v)
{
    Onnx__AttributeProto *ap = new_attr(x, np, name);
    ap->has_type = 1;
    ap->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    ap->has_i = 1;
    ap->i = v;
}

static void attr_float(Exp *x, Onnx__NodeProto *np, const char *name, float v)
{
    Onnx__AttributeProto *ap = new_attr(x, np, name);
    ap->has_type = 1;
    ap->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
    ap->has_f = 1;
    ap->f = v;
}

/* Attributes kiln adds to ONNX ops for its int8 and fused forms: not ONNX. */
static int kiln_attr(const char *name)
{
    static const char *const own[] = {"rq_m_pos", "rq_m_neg", "rq_shift", "rq_m",
                                      "rq_m_a",   "rq_m_b",   "act",      "act_alpha",
                                      "act_min",  "act_max"};
    size_t i;
    for (i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strcmp(name, own[i]) == 0)
            return 1;
    return 0;
}

/* The ONNX attributes of n onto np. */
static void copy_attrs(Exp *x, const GirNode *n, Onnx__NodeProto *np)
{
    int i;
    for (i = 0; i < n->nattr; i++) {
        const GirAttr *at = &n->attrs[i];
        Onnx__AttributeProto *ap;
        if (kiln_attr(at->name))
            continue;
        ap = new_attr(x, np, at->name);
        ap->has_type = 1;
        switch (at->kind) {
        case GIR_ATTR_INT:
            ap->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
            ap->has_i = 1;
            ap->i = at->i;
            break;
        case GIR_ATTR_FLOAT:
            ap->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
            ap->has_f = 1;
            ap->f = at->f;
            break;
        case GIR_ATTR_STRING:
            ap->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
            ap->has_s = 1;
            ap->s.data = (uint8_t *)gir_arena_strdup(x->a, at->s);
            ap->s.len = strlen(at->s);
            break;
        case GIR_ATTR_INTS:
            ap->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
            ap->n_ints = (size_t)at->n;
            ap->ints = at->ints;
            break;
        case GIR_ATTR_FLOATS:
            ap->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
            ap->n_floats = (size_t)at->n;
            ap->floats = at->floats;
            break;
        case GIR_ATTR_TENSOR:
            ap->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
            ap->t = tensor_msg(x, NULL, &at->t.type, at->t.data);
            break;
        }
    }
}

static Onnx__ValueInfoProto *value_info(Exp *x, const GirValue *v)
{
    static const Onnx__ValueInfoProto vinit = ONNX__VALUE_INFO_PROTO__INIT;
    static const Onnx__TypeProto tinit = ONNX__TYPE_PROTO__INIT;
    static const Onnx__TypeProto__Tensor ttinit = ONNX__TYPE_PROTO__TENSOR__INIT;
    static const Onnx__TensorShapeProto sinit = ONNX__TENSOR_SHAPE_PROTO__INIT;
    static const Onnx__TensorShapeProto__Dimension dinit =
        ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
    Onnx__ValueInfoProto *vi = gir_arena_alloc(x->a, sizeof *vi);
    Onnx__TypeProto *tp = gir_arena_alloc(x->a, sizeof *tp);
    Onnx__TypeProto__Tensor *tt = gir_arena_alloc(x->a, sizeof *tt);
    int d;
    *vi = vinit;
    *tp = tinit;
    *tt = ttinit;
    vi->name = gir_arena_strdup(x->a, v->name);
    vi->type = tp;
    tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tp->tensor_type = tt;
    tt->has_elem_type = 1;
    tt->elem_type = gir_dtype_to_onnx(v->type.dtype);
    if (v->type.rank >= 0) {
        Onnx__TensorShapeProto *sp = gir_arena_alloc(x->a, sizeof *sp);
        *sp = sinit;
        sp->n_dim = (size_t)v->type.rank;
        sp->dim = gir_arena_alloc(x->a, sizeof *sp->dim * (size_t)(v->type.rank + 1));
        for (d = 0; d < v->type.rank; d++) {
            Onnx__TensorShapeProto__Dimension *dm = gir_arena_alloc(x->a, sizeof *dm);
            *dm = dinit;
            if (v->type.dims[d] >= 0) {
                dm->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
                dm->dim_value = v->type.dims[d];
            } else {
                dm->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
                dm->dim_param = gir_arena_printf(x->a, "%s_d%d", v->name, d);
            }
            sp->dim[d] = dm;
        }
        tt->shape = sp;
    }
    return vi;
}

/* ---- values ---------------------------------------------------------------------- */

/* The ONNX name of value id v as an input, writing it as an initializer
 * the first time when it is a constant. */
static const char *use_raw(Exp *x, int v)
{
    const GirValue *val = &x->g->vals[v];
    if (val->kind == GIR_VAL_CONST && !x->init_done[v]) {
        push_init(x, tensor_msg(x, val->name, &val->type, val->data));
        x->init_done[v] = 1;
    }
    return val->name;
}

static const char *zero_point_i8(Exp *x)
{
    if (!x->zp_i8) {
        int8_t z = 0;
        x->zp_i8 = add_init(x, "kiln_zero_point", GIR_DT_I8, 0, NULL, &z);
    }
    return x->zp_i8;
}

/* DequantizeLinear of int8 value v at scale s (per tensor); returns the
 * float tensor's name. */
static const char *dq_at(Exp *x, int v, double s)
{
    const char *ins[3], *out;
    const GirValue *val = &x->g->vals[v];
    ins[0] = use_raw(x, v);
    ins[1] = f32_scalar(x, val->name, (float)s);
    ins[2] = zero_point_i8(x);
    out = made_name(x, val->name, "dq");
    new_node(x, "DequantizeLinear", out, ins, 3, &out, 1);
    return out;
}

/* Quantize/DequantizeLinear of int8 value v at its own per-channel scales
 * (axis 1, a [C] scale and zero point): op's node from f to t. */
static void qdq_axis(Exp *x, const char *op, int v, const char *f, const char *t)
{
    const GirValue *val = &x->g->vals[v];
    int64_t n = val->nchscale;
    int8_t *z = gir_arena_alloc(x->a, (size_t)n);
    const char *ins[3];
    Onnx__NodeProto *np;
    memset(z, 0, (size_t)n);
    ins[0] = f;
    ins[1] = add_init(x, val->name, GIR_DT_F32, 1, &n, val->chscale);
    ins[2] = add_init(x, val->name, GIR_DT_I8, 1, &n, z);
    np = new_node(x, op, made_name(x, val->name, op[0] == 'Q' ? "q" : "dq"), ins, 3, &t, 1);
    attr_int(x, np, "axis", 1);
}

/* v as a float operand: int8 values through DequantizeLinear at their own
 * scale (one such node per value), others as they are. */
static int use_float(Exp *x, const GirNode *n, int v, const char **name)
{
    const GirValue *val = &x->g->vals[v];
    if (val->type.dtype != GIR_DT_I8) {
        *name = use_raw(x, v);
        return 0;
    }
    if (!(val->scale > 0))
        return exp_fail(x, n, "int8 input '%s' has no scale", val->name);
    if (!x->dq_name[v] && val->chscale) {
        x->dq_name[v] = made_name(x, val->name, "dq");
        qdq_axis(x, "DequantizeLinear", v, use_raw(x, v), x->dq_name[v]);
    }
    if (!x->dq_name[v])
        x->dq_name[v] = dq_at(x, v, val->scale);
    *name = x->dq_name[v];
    return 0;
}

/* QuantizeLinear of float tensor f into int8 value v at v's scale. */
static int quantize_to(Exp *x, const GirNode *n, const char *f, int v)
{
    const GirValue *val = &x->g->vals[v];
    const char *ins[3], *out = val->name;
    if (!(val->scale > 0))
        return exp_fail(x, n, "int8 output '%s' has no scale", val->name);
    if (val->chscale) {
        qdq_axis(x, "QuantizeLinear", v, f, out);
        return 0;
    }
    ins[0] = f;
    ins[1] = f32_scalar(x, val->name, val->scale);
    ins[2] = zero_point_i8(x);
    new_node(x, "QuantizeLinear", made_name(x, val->name, "q"), ins, 3, &out, 1);
    return 0;
}

/* m * 2^-shift as a real number. */
static double rq_real(int64_t m, int64_t shift)
{
    return ldexp((double)m, -(int)shift);
}

/* A one-element ints attribute of kiln's int8 form. */
static int rq_one(Exp *x, const GirNode *n, const char *name, int64_t *v)
{
    int cnt;
    const int64_t *p = gir_attr_ints(n, name, &cnt);
    if (!p || cnt != 1) {
        const GirAttr *at = gir_attr(n, name);
        if (at && at->kind == GIR_ATTR_INT) {
            *v = at->i;
            return 0;
        }
        return exp_fail(x, n, "needs attribute %s (one int)", name);
    }
    *v = p[0];
    return 0;
}

/* An optional one-element ints (or int) attribute; dflt when absent. */
static int64_t rq_opt(const GirNode *n, const char *name, int64_t dflt)
{
    int cnt;
    const int64_t *p = gir_attr_ints(n, name, &cnt);
    const GirAttr *at = gir_attr(n, name);
    if (p && cnt == 1)
        return p[0];
    if (at && at->kind == GIR_ATTR_INT)
        return at->i;
    return dflt;
}

/* ---- ops -------------------------------------------------------------------------- */

/* The fp32 fused activation of a Conv or Gemm (act, act_alpha, act_min,
 * act_max) as a node after it; returns the name of its result. */
static const char *float_act(Exp *x, const GirNode *n, const char *in)
{
    const char *act = gir_attr_string(n, "act", NULL), *out, *ins[3];
    Onnx__NodeProto *np;
    if (!act)
        return in;
    out = made_name(x, n->name, "act");
    ins[0] = in;
    if (strcmp(act, "relu") == 0) {
        new_node(x, "Relu", out, ins, 1, &out, 1);
    } else if (strcmp(act, "leakyrelu") == 0) {
        np = new_node(x, "LeakyRelu", out, ins, 1, &out, 1);
        attr_float(x, np, "alpha", gir_attr_float(n, "act_alpha", 0.01f));
    } else {
        ins[1] = f32_scalar(x, n->name, gir_attr_float(n, "act_min", -INFINITY));
        ins[2] = f32_scalar(x, n->name, gir_attr_float(n, "act_max", INFINITY));
        new_node(x, "Clip", out, ins, 3, &out, 1);
    }
    return out;
}

/* Conv, Gemm or MatMul in kiln's int8 form: x i8, weights i8 constant,
 * optional i32 bias, requantization per output channel (axis wax of the
 * weights).  Written as DequantizeLinear(x), DequantizeLinear(w) per
 * channel, the op in float with a float bias, the activation, a Clip for
 * act_min / act_max, QuantizeLinear. */
static int int8_weighted(Exp *x, const GirNode *n, int wax)
{
    const GirGraph *g = x->g;
    const GirValue *xv = &g->vals[n->in[0]], *wv = &g->vals[n->in[1]];
    const GirValue *bv = n->nin > 2 && n->in[2] >= 0 ? &g->vals[n->in[2]] : NULL;
    const GirValue *yv = &g->vals[n->out[0]];
    int nm, nn, ns, c, all_id = 1, all_relu = 1;
    const int64_t *mp = gir_attr_ints(n, "rq_m_pos", &nm);
    const int64_t *mn = gir_attr_ints(n, "rq_m_neg", &nn);
    const int64_t *sh = gir_attr_ints(n, "rq_shift", &ns);
    int64_t oc = wv->type.dims[wax], amin = rq_opt(n, "act_min", -128);
    int64_t amax = rq_opt(n, "act_max", 127);
    float *ws, *slope, *bias = NULL;
    int8_t *zps;
    const char *ins[3], *out, *cur;
    Onnx__NodeProto *np;
    if (wv->kind != GIR_VAL_CONST || wv->type.dtype != GIR_DT_I8)
        return exp_fail(x, n, "int8 weights must be an int8 constant");
    if (bv && (bv->kind != GIR_VAL_CONST || bv->type.dtype != GIR_DT_I32))
        return exp_fail(x, n, "int8 bias must be an int32 constant");
    if (!mp || !mn || !sh || nm != oc || nn != oc || ns != oc)
        return exp_fail(x, n, "needs rq_m_pos, rq_m_neg and rq_shift with %lld entries each",
                        (long long)oc);
    if (!(xv->scale > 0) || !(yv->scale > 0))
        return exp_fail(x, n, "int8 input and output need scales");
    ws = gir_arena_alloc(x->a, sizeof *ws * (size_t)oc);
    slope = gir_arena_alloc(x->a, sizeof *slope * (size_t)oc);
    zps = gir_arena_alloc(x->a, (size_t)oc);
    if (bv)
        bias = gir_arena_alloc(x->a, sizeof *bias * (size_t)oc);
    for (c = 0; c < oc; c++) {
        double s;
        if (mp[c] == 0 && mn[c] != 0)
            return exp_fail(x, n, "channel %d has rq_m_pos 0 but rq_m_neg %lld: no float form",
                            c, (long long)mn[c]);
        s = rq_real(mp[c], sh[c]) * (yv->chscale ? yv->chscale[c] : yv->scale) / xv->scale;
        ws[c] = (float)s;
        slope[c] = mp[c] ? (float)((double)mn[c] / (double)mp[c]) : 0.0f;
        if (mn[c] != mp[c])
            all_id = 0;
        if (mn[c] != 0)
            all_relu = 0;
        if (bias)
            bias[c] = (float)((double)((const int32_t *)bv->data)[c] * xv->scale * s);
    }
    /* The weights, dequantized per output channel. */
    ins[0] = use_raw(x, n->in[1]);
    ins[1] = add_init(x, wv->name, GIR_DT_F32, 1, &oc, ws);
    ins[2] = add_init(x, wv->name, GIR_DT_I8, 1, &oc, zps);
    out = made_name(x, wv->name, "dq");
    np = new_node(x, "DequantizeLinear", out, ins, 3, &out, 1);
    attr_int(x, np, "axis", wax);
    ins[1] = out;
    if (use_float(x, n, n->in[0], &ins[0]))
        return -1;
    ins[2] = bias ? add_init(x, bv->name, GIR_DT_F32, 1, &oc, bias) : NULL;
    out = made_name(x, yv->name, "f");
    if (n->op == GIR_OP_MATMUL) {
        np = new_node(x, "MatMul", n->name, ins, 2, &out, 1);
        if (bias) {
            const char *sum = made_name(x, yv->name, "f");
            ins[0] = out;
            ins[1] = ins[2];
            new_node(x, "Add", sum, ins, 2, &sum, 1);
            out = sum;
        }
    } else {
        np = new_node(x, gir_op_name(n->op), n->name, ins, bias ? 3 : 2, &out, 1);
        copy_attrs(x, n, np);
    }
    cur = out;
    if (all_relu && !all_id) {
        out = made_name(x, yv->name, "f");
        new_node(x, "Relu", out, &cur, 1, &out, 1);
        cur = out;
    } else if (!all_id) {
        int64_t sd[GIR_MAX_RANK];
        int d, r = n->op == GIR_OP_CONV ? yv->type.rank - 1 : 1;
        sd[0] = oc;
        for (d = 1; d < r; d++)
            sd[d] = 1;
        ins[0] = cur;
        ins[1] = add_init(x, n->name, GIR_DT_F32, r, sd, slope);
        out = made_name(x, yv->name, "f");
        new_node(x, "PRelu", out, ins, 2, &out, 1);
        cur = out;
    }
    if (amin != -128 || amax != 127) {
        ins[0] = cur;
        ins[1] = f32_scalar(x, n->name, (float)((double)amin * yv->scale));
        ins[2] = f32_scalar(x, n->name, (float)((double)amax * yv->scale));
        out = made_name(x, yv->name, "f");
        new_node(x, "Clip", out, ins, 3, &out, 1);
        cur = out;
    }
    return quantize_to(x, n, cur, n->out[0]);
}

/* Add in kiln's int8 form: (a * m_a + b * m_b) * 2^-shift. */
static int int8_add(Exp *x, const GirNode *n)
{
    const GirValue *yv = &x->g->vals[n->out[0]];
    int64_t ma = 0, mb = 0, sh = 0;
    const char *ins[2], *out;
    if (rq_one(x, n, "rq_m_a", &ma) || rq_one(x, n, "rq_m_b", &mb) ||
        rq_one(x, n, "rq_shift", &sh))
        return -1;
    if (!(yv->scale > 0))
        return exp_fail(x, n, "int8 output '%s' has no scale", yv->name);
    ins[0] = dq_at(x, n->in[0], rq_real(ma, sh) * yv->scale);
    ins[1] = dq_at(x, n->in[1], rq_real(mb, sh) * yv->scale);
    out = made_name(x, yv->name, "f");
    new_node(x, "Add", n->name, ins, 2, &out, 1);
    return quantize_to(x, n, out, n->out[0]);
}

/* Requantize, AveragePool and GlobalAveragePool in kiln's int8 form: the
 * input (or window sum) times m * 2^-shift.  window: elements a pool sums. */
static int int8_scaled(Exp *x, const GirNode *n, double window)
{
    const GirValue *yv = &x->g->vals[n->out[0]];
    int64_t m = 0, sh = 0;
    const char *in, *out;
    Onnx__NodeProto *np;
    if (rq_one(x, n, "rq_m", &m) || rq_one(x, n, "rq_shift", &sh))
        return -1;
    if (!(yv->scale > 0))
        return exp_fail(x, n, "int8 output '%s' has no scale", yv->name);
    in = dq_at(x, n->in[0], rq_real(m, sh) * yv->scale * window);
    if (n->op == GIR_OP_REQUANTIZE)
        return quantize_to(x, n, in, n->out[0]);
    out = made_name(x, yv->name, "f");
    np = new_node(x, gir_op_name(n->op), n->name, &in, 1, &out, 1);
    copy_attrs(x, n, np);
    return quantize_to(x, n, out, n->out[0]);
}

/* LutI8: the table as an int8 initializer gathered at x + 128 (Cast to
 * int32, Add 128, Gather), integer only, so onnxruntime gives kiln's bytes. */
static int int8_lut(Exp *x, const GirNode *n)
{
    int cnt, k;
    const int64_t *lut = gir_attr_ints(n, "lut", &cnt);
    const GirValue *yv = &x->g->vals[n->out[0]];
    int8_t tab[GIR_LUT_SIZE];
    int64_t dim = GIR_LUT_SIZE;
    int32_t off = 128;
    const char *ins[2], *c, *idx, *y = yv->name;
    Onnx__NodeProto *np;
    if (lut && cnt != GIR_LUT_SIZE)
        return exp_fail(x, n, "LutI8 with %d entries (a table per channel, kiln quantize "
                        "--channel-scales auto) has no QDQ form yet; quantize with "
                        "--channel-scales off to export", cnt);
    if (!lut)
        return exp_fail(x, n, "LutI8 needs a lut of %d entries", GIR_LUT_SIZE);
    for (k = 0; k < GIR_LUT_SIZE; k++)
        tab[k] = (int8_t)lut[k];
    ins[0] = use_raw(x, n->in[0]);
    c = made_name(x, y, "i32_");
    np = new_node(x, "Cast", made_name(x, n->name, "cast"), ins, 1, &c, 1);
    attr_int(x, np, "to", gir_dtype_to_onnx(GIR_DT_I32));
    ins[0] = c;
    ins[1] = add_init(x, y, GIR_DT_I32, 0, NULL, &off);
    idx = made_name(x, y, "idx");
    new_node(x, "Add", made_name(x, n->name, "add"), ins, 2, &idx, 1);
    ins[0] = add_init(x, y, GIR_DT_I8, 1, &dim, tab);
    ins[1] = idx;
    new_node(x, "Gather", n->name, ins, 2, &y, 1);
    return 0;
}

/* Any other op: int8 inputs dequantized at their own scale, the op as it
 * is (in float where it had int8 values), int8 outputs quantized. */
static int generic(Exp *x, const GirNode *n)
{
    const char **ins = gir_arena_alloc(x->a, sizeof *ins * (size_t)(n->nin + 1));
    const char **outs = gir_arena_alloc(x->a, sizeof *outs * (size_t)(n->nout + 1));
    int i, keep_int8 = n->op == GIR_OP_QUANTIZELINEAR || n->op == GIR_OP_DEQUANTIZELINEAR;
    Onnx__NodeProto *np;
    for (i = 0; i < n->nin; i++) {
        if (n->in[i] < 0)
            ins[i] = NULL;
        else if (keep_int8)
            ins[i] = use_raw(x, n->in[i]);
        else if (use_float(x, n, n->in[i], &ins[i]))
            return -1;
    }
    for (i = 0; i < n->nout; i++) {
        const GirValue *ov = &x->g->vals[n->out[i]];
        outs[i] = !keep_int8 && ov->type.dtype == GIR_DT_I8 ? made_name(x, ov->name, "f")
                                                           : ov->name;
    }
    np = new_node(x, gir_op_name(n->op), n->name, ins, n->nin, outs, n->nout);
    copy_attrs(x, n, np);
    for (i = 0; i < n->nout; i++)
        if (outs[i] != x->g->vals[n->out[i]].name &&
            quantize_to(x, n, outs[i], n->out[i]))
            return -1;
    return 0;
}

static int export_node(Exp *x, const GirNode *n)
{
    const GirGraph *g = x->g;
    int i, int8_out = n->nout > 0 && g->vals[n->out[0]].type.dtype == GIR_DT_I8;
    for (i = 0; i < n->nin; i++)
        if (n->in[i] >= 0 && g->vals[n->in[i]].layout == GIR_LAYOUT_NHWC)
            return exp_fail(x, n, "input '%s' is NHWC; ONNX ops take NCHW",
                            g->vals[n->in[i]].name);
    for (i = 0; i < n->nin + n->nout; i++) {
        int v = i < n->nin ? n->in[i] : n->out[i - n->nin];
        if (v >= 0 && g->vals[v].zp)
            return exp_fail(x, n, "value '%s' has zero point %d (kiln quantize --unsigned): no "
                            "QDQ form yet; quantize with --unsigned off to export",
                            g->vals[v].name, g->vals[v].zp);
    }
    switch (n->op) {
    case GIR_OP_YOLO:
        return exp_fail(x, n, "YoloHead has no ONNX form");
    case GIR_OP_SOFTMAX:
        if (gir_attr_int(n, "coerce2d", 0))
            return exp_fail(x, n, "the pre-13 Softmax (coerce2d) is not written");
        break;
    case GIR_OP_CONV:
        if (int8_out)
            return int8_weighted(x, n, 0);
        break;
    case GIR_OP_GEMM:
        if (int8_out)
            return int8_weighted(x, n, gir_attr_int(n, "transB", 0) ? 0 : 1);
        break;
    case GIR_OP_MATMUL:
        if (int8_out) {
            if (g->vals[n->in[1]].type.rank != 2)
                return exp_fail(x, n, "int8 MatMul needs 2-D weights");
            return int8_weighted(x, n, 1);
        }
        break;
    case GIR_OP_ADD:
        if (int8_out)
            return int8_add(x, n);
        break;
    case GIR_OP_REQUANTIZE:
        return int8_scaled(x, n, 1.0);
    case GIR_OP_LUTI8:
        return int8_lut(x, n);
    case GIR_OP_AVGPOOL:
    case GIR_OP_GLOBALAVGPOOL:
        if (int8_out) {
            const GirType *it = &g->vals[n->in[0]].type;
            double win = 1;
            int cnt;
            const int64_t *k = gir_attr_ints(n, "kernel_shape", &cnt);
            if (n->op == GIR_OP_GLOBALAVGPOOL)
                for (i = 2; i < it->rank; i++)
                    win *= (double)it->dims[i];
            else
                for (i = 0; k && i < cnt; i++)
                    win *= (double)k[i];
            return int8_scaled(x, n, win);
        }
        break;
    default:
        break;
    }
    if ((n->op == GIR_OP_CONV || n->op == GIR_OP_GEMM) && gir_attr_string(n, "act", NULL)) {
        /* The fp32 fused form: the op, then its activation. */
        const char **ins = gir_arena_alloc(x->a, sizeof *ins * (size_t)(n->nin + 1));
        const char *out = made_name(x, g->vals[n->out[0]].name, "f"), *act, *fin;
        Onnx__NodeProto *np;
        for (i = 0; i < n->nin; i++)
            if (n->in[i] >= 0 && use_float(x, n, n->in[i], &ins[i]))
                return -1;
        np = new_node(x, gir_op_name(n->op), n->name, ins, n->nin, &out, 1);
        copy_attrs(x, n, np);
        act = float_act(x, n, out);
        fin = g->vals[n->out[0]].name;
        new_node(x, "Identity", made_name(x, fin, "id"), &act, 1, &fin, 1);
        return 0;
    }
    return generic(x, n);
}

/* ---- the file --------------------------------------------------------------------- */

int fe_write_onnx_qdq(const GirGraph *g, const char *path, GirError *e)
{
    static const Onnx__ModelProto minit = ONNX__MODEL_PROTO__INIT;
    static const Onnx__GraphProto ginit = ONNX__GRAPH_PROTO__INIT;
    static const Onnx__OperatorSetIdProto oinit = ONNX__OPERATOR_SET_ID_PROTO__INIT;
    Onnx__ModelProto mp = minit;
    Onnx__GraphProto gp = ginit;
    Onnx__OperatorSetIdProto os = oinit, *osp = &os;
    Exp x;
    uint8_t *buf;
    size_t len;
    int i, rc = -1;

    memset(&x, 0, sizeof x);
    x.g = g;
    x.a = gir_arena_new();
    x.path = path;
    x.e = e;
    x.init_done = gir_arena_alloc(x.a, (size_t)g->nval + 1);
    x.dq_name = gir_arena_alloc(x.a, sizeof *x.dq_name * (size_t)(g->nval + 1));
    for (i = 0; i < g->nnode; i++)
        if (export_node(&x, &g->nodes[i]))
            goto out;
    gp.name = gir_arena_strdup(x.a, g->name ? g->name : "kiln");
    gp.n_node = x.nnode;
    gp.node = x.nodes;
    gp.n_initializer = x.ninit;
    gp.initializer = x.inits;
    gp.n_input = (size_t)g->ninput;
    gp.input = gir_arena_alloc(x.a, sizeof *gp.input * (size_t)(g->ninput + 1));
    for (i = 0; i < g->ninput; i++)
        gp.input[i] = value_info(&x, &g->vals[g->inputs[i]]);
    gp.n_output = (size_t)g->noutput;
    gp.output = gir_arena_alloc(x.a, sizeof *gp.output * (size_t)(g->noutput + 1));
    for (i = 0; i < g->noutput; i++) {
        int v = g->outputs[i];
        if (g->vals[v].kind == GIR_VAL_CONST)
            use_raw(&x, v);
        gp.output[i] = value_info(&x, &g->vals[v]);
    }
    os.has_version = 1;
    os.version = g->opset > 13 ? g->opset : 13;
    mp.has_ir_version = 1;
    mp.ir_version = os.version >= 15 ? 8 : 7;
    mp.n_opset_import = 1;
    mp.opset_import = &osp;
    mp.producer_name = "kiln";
    mp.producer_version = "0.1.0";
    mp.graph = &gp;
    len = onnx__model_proto__get_packed_size(&mp);
    buf = malloc(len ? len : 1);
    if (!buf)
        gir_die("out of memory");
    onnx__model_proto__pack(&mp, buf);
    {
        const void *part = buf;
        rc = gir_write_atomic(path, &part, &len, 1, e);
    }
    free(buf);
out:
    gir_arena_free(x.a);
    return rc;
}
