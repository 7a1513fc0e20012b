/*
 * gir_quantize: rewrite a calibrated fp32 graph into the int8 form of
 * docs/quant.md.
 *
 * Needs: a graph whose shapes are inferred (gir_infer_shapes), ideally after
 * the default pass pipeline (batch norms folded, activations fused as act
 * attributes); an unfused Conv -> Relu / LeakyRelu pair is fused here too.
 * Per value, a clipping threshold from gir_calib_thresholds.
 *
 * Builds a new graph, walking the nodes in order.  Each fp32 value may get
 * an int8 stand-in (same name, i8, scale = threshold / 127) and keeps or
 * gets an f32 form; QuantizeLinear, DequantizeLinear and Requantize are
 * inserted where a reader needs the other form or another scale.  Scales
 * are symmetric with zero point 0; weights per output channel
 * (max |w| / 127), biases int32 on scale s_in * s_w, multipliers and shifts
 * from kiln_rq_choose.  Concat inputs take the output's scale at their
 * producers where nothing else depends on it (align_concat_thresholds), else
 * a Requantize; Add operands keep their scales (kiln_add_requant).
 * With gir_quantize_r, round.c rounds each Conv's, Gemm's and MatMul's int8
 * weights (learned rounding) as the node is emitted, before its bias.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "graphir/graphir.h"
#include "graphir/quant/round.h"
#include "graphir/requant.h"

#define MAX_CH_M 16384.0 /* largest multiplier a per-channel output scale may need */
#define INNER_CH_FLOOR 256.0f /* a channel's scale inside the int8 graph: at least the
                               * tensor's / this */

/* The rewrite's state: old value id -> its forms in the new graph. */
typedef struct {
    const GirGraph *g; /* the fp32 graph */
    GirGraph *q;       /* the graph being built */
    const float *thr;  /* per old value: calibrated threshold */
    const float *const *chthr; /* per old value: per-channel thresholds, or NULL */
    const double *const *chmean; /* per old value: per-channel means of a Conv/Gemm input, or
                                  * NULL (bias correction) */
    int *fv;           /* per old value: f32 form in q, or -1 */
    int *iv;           /* per old value: i8 form in q, or -1 */
    int *sc_const;     /* per old value: f32 scalar scale constant in q, or -1 */
    int *zp_const;     /* per old value: i8 zero-point constant in q, or -1 */
    int *uses;         /* per old value: readers (nodes and graph outputs) */
    unsigned char *absorbed; /* per old node: fused into its producer here */
    unsigned char *percv;    /* per old value: int8 form takes per-channel scales
                              * (gir_quantize_cs's choice) */
    GirQuantNote *notes;     /* per old node */
    int uopt;                /* unsigned activations where a value cannot be
                              * negative (gir_quantize_u) */
    const unsigned char *keepf; /* per old node: kept in fp32 by request, or NULL */
    GirRounder *rnd;         /* learned rounding (gir_quantize_r), or NULL: nearest */
    GirError *e;             /* where a failure of the rounder goes */
    int failed;              /* 1: the rounder failed; the rewrite stops */
} Q;

/* A name not yet used in q: base, else base + suffix (+ counter). */
static const char *fresh(Q *s, const char *base, const char *suffix)
{
    char buf[512];
    int k;
    if (!suffix && gir_find_value(s->q, base) < 0)
        return base;
    for (k = 0;; k++) {
        if (k == 0)
            snprintf(buf, sizeof buf, "%s%s", base, suffix ? suffix : "");
        else
            snprintf(buf, sizeof buf, "%s%s%d", base, suffix ? suffix : "", k);
        if (gir_find_value(s->q, buf) < 0)
            return gir_arena_strdup(s->q->arena, buf);
    }
}

static GirLoc copy_loc(Q *s, GirLoc l)
{
    if (l.file)
        l.file = gir_arena_strdup(s->q->arena, l.file);
    if (l.node)
        l.node = gir_arena_strdup(s->q->arena, l.node);
    return l;
}

static GirType scalar(GirDType d)
{
    GirType t;
    memset(&t, 0, sizeof t);
    t.dtype = d;
    t.rank = 0;
    return t;
}

/* The scale of old value v: threshold / 127, never 0. */
static float act_scale(const Q *s, int v)
{
    float t = s->thr[v];
    if (!(t > 1e-6f))
        t = 1e-6f;
    return t / 127.0f;
}

/* Scale and zero-point constants for the Q/DQ of old value v on scale sc,
 * zero point zp (0, or -128 for an unsigned value). */
static void qparams(Q *s, int v, float sc, int zp, int *sci, int *zpi)
{
    const GirValue *ov = &s->g->vals[v];
    int8_t z = (int8_t)zp;
    if (s->sc_const[v] < 0 || s->q->vals[s->sc_const[v]].data == NULL ||
        *(const float *)s->q->vals[s->sc_const[v]].data != sc)
        s->sc_const[v] = gir_add_const(s->q, fresh(s, ov->name, "_scale"), scalar(GIR_DT_F32), &sc,
                                       gir_loc_none());
    if (s->zp_const[v] < 0 || *(const int8_t *)s->q->vals[s->zp_const[v]].data != z)
        s->zp_const[v] = gir_add_const(s->q, fresh(s, ov->name, "_zp"), scalar(GIR_DT_I8), &z,
                                       gir_loc_none());
    *sci = s->sc_const[v];
    *zpi = s->zp_const[v];
}

/* A new node value of type t (dtype dt) named name, optional scale. */
static int new_val(Q *s, const char *name, const GirType *t, GirDType dt, float scale, GirLoc loc)
{
    GirType ty = *t;
    int id;
    ty.dtype = dt;
    id = gir_add_value(s->q, name, GIR_VAL_NODE, ty, loc);
    s->q->vals[id].scale = scale;
    return id;
}

/* A node name not yet used in q. */
static const char *fresh_node(Q *s, const char *base)
{
    char buf[512];
    int k, i, clash = 1;
    for (k = 0; clash; k++) {
        if (k == 0)
            snprintf(buf, sizeof buf, "%s", base);
        else
            snprintf(buf, sizeof buf, "%s_%d", base, k);
        clash = 0;
        for (i = 0; i < s->q->nnode && !clash; i++)
            clash = strcmp(s->q->nodes[i].name, buf) == 0;
    }
    return gir_arena_strdup(s->q->arena, buf);
}

static int add_node(Q *s, GirOp op, const char *name, const int *in, int nin, int out, GirLoc loc)
{
    return gir_add_node(s->q, op, fresh_node(s, name), in, nin, &out, 1, loc);
}

static int get_f(Q *s, int v);

/* i8 form of old value v on scale want (0: its own scale). */
static int get_q(Q *s, int v, float want)
{
    const GirValue *ov = &s->g->vals[v];
    int cur = s->iv[v];
    if (cur >= 0) {
        float have = s->q->vals[cur].scale;
        int32_t m;
        int sh, id, nd;
        int64_t mm, ss;
        if (want == 0 || want == have)
            return cur;
        if (s->q->vals[cur].zp) {
            /* an unsigned form on another scale: through f32 (a Requantize
             * has no zero point) */
            float sc = want;
            int in[3];
            get_f(s, v);
            qparams(s, v, sc, 0, &in[1], &in[2]);
            in[0] = s->fv[v];
            id = new_val(s, fresh(s, ov->name, "_q"), &ov->type, GIR_DT_I8, sc, ov->loc);
            add_node(s, GIR_OP_QUANTIZELINEAR, s->q->vals[id].name, in, 3, id, ov->loc);
            return id;
        }
        if (kiln_rq_choose((double)have / want, &m, &sh) < 0) {
            m = 0;
            sh = 0;
        }
        id = new_val(s, fresh(s, ov->name, "_rq"), &ov->type, GIR_DT_I8, want, ov->loc);
        nd = add_node(s, GIR_OP_REQUANTIZE, s->q->vals[id].name, &cur, 1, id, ov->loc);
        mm = m;
        ss = sh;
        gir_set_attr_ints(s->q, nd, "rq_m", &mm, 1);
        gir_set_attr_ints(s->q, nd, "rq_shift", &ss, 1);
        return id;
    }
    {
        float sc = want ? want : act_scale(s, v);
        int in[3], id;
        qparams(s, v, sc, 0, &in[1], &in[2]);
        in[0] = s->fv[v];
        id = new_val(s, fresh(s, ov->name, "_q"), &ov->type, GIR_DT_I8, sc, ov->loc);
        add_node(s, GIR_OP_QUANTIZELINEAR, s->q->vals[id].name, in, 3, id, ov->loc);
        if (!want || want == act_scale(s, v))
            s->iv[v] = id;
        return id;
    }
}

/* Scale and zero-point constants ([C] each) of the per-axis DequantizeLinear
 * of old value v, whose int8 form iv has per-channel scales. */
static void qparams_axis(Q *s, int v, const GirValue *iv, int *sci, int *zpi)
{
    const GirValue *ov = &s->g->vals[v];
    GirType t = scalar(GIR_DT_F32);
    GirArena *tmp = gir_arena_new();
    int8_t *z = gir_arena_alloc(tmp, (size_t)iv->nchscale);
    const float *sc = iv->chscale;
    memset(z, iv->zp, (size_t)iv->nchscale);
    t.rank = 1;
    t.dims[0] = iv->nchscale;
    *sci = gir_add_const(s->q, fresh(s, ov->name, "_scale"), t, sc, gir_loc_none());
    t.dtype = GIR_DT_I8;
    *zpi = gir_add_const(s->q, fresh(s, ov->name, "_zp"), t, z, gir_loc_none());
    gir_arena_free(tmp);
}

/* f32 form of old value v. */
static int get_f(Q *s, int v)
{
    const GirValue *ov = &s->g->vals[v];
    int in[3], id;
    int nd;
    if (s->fv[v] >= 0)
        return s->fv[v];
    in[0] = s->iv[v];
    if (s->q->vals[in[0]].chscale)
        qparams_axis(s, v, &s->q->vals[in[0]], &in[1], &in[2]);
    else
        qparams(s, v, s->q->vals[in[0]].scale, s->q->vals[in[0]].zp, &in[1], &in[2]);
    id = new_val(s, fresh(s, ov->name, "_dq"), &ov->type, GIR_DT_F32, 0, ov->loc);
    nd = add_node(s, GIR_OP_DEQUANTIZELINEAR, s->q->vals[id].name, in, 3, id, ov->loc);
    if (s->q->vals[in[0]].chscale)
        gir_set_attr_int(s->q, nd, "axis", 1);
    s->fv[v] = id;
    return id;
}

/* The unquantized form of old value v in q: graph inputs and node values
 * by their f32 (or other non-int8) form, constants copied on first use. */
static int orig(Q *s, int v)
{
    const GirValue *ov = &s->g->vals[v];
    if (s->fv[v] >= 0)
        return s->fv[v];
    if (ov->kind == GIR_VAL_CONST) {
        s->fv[v] = gir_add_const(s->q, fresh(s, ov->name, NULL), ov->type, ov->data,
                                 copy_loc(s, ov->loc));
        s->q->vals[s->fv[v]].layout = ov->layout;
        return s->fv[v];
    }
    return get_f(s, v);
}

/* Copy n's attributes to new node nd; skip_act leaves out the fp32 fused
 * activation (act, act_alpha, act_min, act_max). */
static void copy_attrs(Q *s, const GirNode *n, int nd, int skip_act)
{
    int i;
    for (i = 0; i < n->nattr; i++) {
        const GirAttr *a = &n->attrs[i];
        if (skip_act && strncmp(a->name, "act", 3) == 0)
            continue;
        switch (a->kind) {
        case GIR_ATTR_INT: gir_set_attr_int(s->q, nd, a->name, a->i); break;
        case GIR_ATTR_FLOAT: gir_set_attr_float(s->q, nd, a->name, a->f); break;
        case GIR_ATTR_STRING: gir_set_attr_string(s->q, nd, a->name, a->s); break;
        case GIR_ATTR_INTS: gir_set_attr_ints(s->q, nd, a->name, a->ints, a->n); break;
        case GIR_ATTR_FLOATS: gir_set_attr_floats(s->q, nd, a->name, a->floats, a->n); break;
        case GIR_ATTR_TENSOR: gir_set_attr_tensor(s->q, nd, a->name, &a->t); break;
        }
    }
}

static int is_act_input(const Q *s, int v)
{
    return v >= 0 && s->g->vals[v].kind != GIR_VAL_CONST &&
           s->g->vals[v].type.dtype == GIR_DT_F32;
}

/* Keep node i in fp32: inputs in their f32 form, outputs f32. */
static void keep_fp32(Q *s, int i, const char *why)
{
    const GirNode *n = &s->g->nodes[i];
    int in[64], out[64], j, nd;
    for (j = 0; j < n->nin; j++)
        in[j] = n->in[j] < 0 ? -1 : orig(s, n->in[j]);
    for (j = 0; j < n->nout; j++) {
        const GirValue *ov = &s->g->vals[n->out[j]];
        out[j] = gir_add_value(s->q, fresh(s, ov->name, NULL), GIR_VAL_NODE, ov->type,
                               copy_loc(s, ov->loc));
        s->q->vals[out[j]].layout = ov->layout;
        s->fv[n->out[j]] = out[j];
    }
    nd = gir_add_node(s->q, n->op, fresh_node(s, n->name), in, n->nin, out, n->nout,
                      copy_loc(s, n->loc));
    copy_attrs(s, n, nd, 0);
    s->notes[i].int8 = 0;
    s->notes[i].why = why;
    s->notes[i].mse_nearest = s->notes[i].mse_learned = -1;
}

/* An i8 node value standing for old value v, on scale sc. */
static int int8_out(Q *s, int v, float sc)
{
    const GirValue *ov = &s->g->vals[v];
    int id = new_val(s, fresh(s, ov->name, NULL), &ov->type, GIR_DT_I8, sc, copy_loc(s, ov->loc));
    s->q->vals[id].layout = ov->layout;
    s->iv[v] = id;
    return id;
}

/* Per-channel symmetric weights: channel c, element k at w[c*sc + k*sk].
 * qw gets the int8 weights at the same places, sw[c] the scales. */
static void quant_weights(const float *w, int64_t nch, int64_t per, int64_t sc, int64_t sk,
                          int8_t *qw, float *sw)
{
    int64_t c, k;
    for (c = 0; c < nch; c++) {
        float mx = 0;
        for (k = 0; k < per; k++) {
            float a = fabsf(w[c * sc + k * sk]);
            if (a > mx)
                mx = a;
        }
        sw[c] = mx > 0 ? mx / 127.0f : 1.0f;
        for (k = 0; k < per; k++) {
            long r = lrintf(w[c * sc + k * sk] / sw[c]);
            qw[c * sc + k * sk] = (int8_t)(r > 127 ? 127 : r < -127 ? -127 : r);
        }
    }
}

/* Bias correction of a Conv or Gemm (gir_quantize_bc): into delta[c] the mean
 * error its int8 weights add to output channel c, sum over the weights of c
 * of (qw * sw[c] - w) * mean[input channel].  0 when x has no means. */
static int weight_error(const Q *s, const GirNode *n, const float *w, const int8_t *qw,
                        const float *sw, int64_t nch, int64_t per, int64_t sc, int64_t sk,
                        double *delta)
{
    const GirValue *wv = &s->g->vals[n->in[1]];
    const double *mean = s->chmean ? s->chmean[n->in[0]] : NULL;
    int64_t c, k, group = n->op == GIR_OP_CONV ? gir_attr_int(n, "group", 1) : 1;
    int64_t cin = s->g->vals[n->in[0]].type.dims[1], kk = 1, cing;
    if (!mean || group < 1 || nch % group || (n->op != GIR_OP_CONV && n->op != GIR_OP_GEMM) ||
        (n->op == GIR_OP_GEMM && gir_attr_int(n, "transA", 0) != 0))
        return 0;
    cing = n->op == GIR_OP_CONV ? cin / group : per;
    if (n->op == GIR_OP_CONV) {
        kk = per / (cing ? cing : 1);
        if (cing * group != cin || cing * kk != per)
            return 0;
    } else if (per != cin) {
        return 0;
    }
    for (c = 0; c < nch; c++) {
        int64_t base = n->op == GIR_OP_CONV ? c / (nch / group) * cing : 0;
        double d = 0;
        for (k = 0; k < per; k++) {
            /* the input channel of weight k: [cin/g][kh][kw], or NHWC
             * [kh][kw][cin/g], or Gemm's K */
            int64_t ci = n->op != GIR_OP_CONV ? k :
                         wv->layout == GIR_LAYOUT_NHWC ? k % cing : k / kk;
            double e = (double)qw[c * sc + k * sk] * sw[c] - (double)w[c * sc + k * sk];
            d += e * mean[base + ci];
        }
        delta[c] = d;
    }
    return 1;
}

/* The reader of old value v when it has exactly one, else -1. */
static int only_reader(const Q *s, int v, int after)
{
    int i, j;
    if (s->uses[v] != 1)
        return -1;
    for (i = 0; i < s->g->noutput; i++)
        if (s->g->outputs[i] == v)
            return -1;
    for (i = after + 1; i < s->g->nnode; i++)
        for (j = 0; j < s->g->nodes[i].nin; j++)
            if (s->g->nodes[i].in[j] == v)
                return i;
    return -1;
}

/* Ops gir_quantize can run on int8 (its switch), and the activations it fuses
 * into a Conv before them. */
static int has_int8_form(GirOp op)
{
    switch (op) {
    case GIR_OP_CONV: case GIR_OP_GEMM: case GIR_OP_MATMUL: case GIR_OP_MAXPOOL:
    case GIR_OP_RESIZE: case GIR_OP_RESHAPE: case GIR_OP_FLATTEN: case GIR_OP_SQUEEZE:
    case GIR_OP_UNSQUEEZE: case GIR_OP_IDENTITY: case GIR_OP_TRANSPOSE: case GIR_OP_SLICE:
    case GIR_OP_SPLIT: case GIR_OP_PAD: case GIR_OP_CONCAT: case GIR_OP_ADD:
    case GIR_OP_AVGPOOL: case GIR_OP_GLOBALAVGPOOL: case GIR_OP_RELU: case GIR_OP_LEAKYRELU:
        return 1;
    default:
        return 0;
    }
}

/* ---- unary chains as LutI8 tables ------------------------------------------- */

/* The one-element f32 constant of value v, or NULL. */
static const float *scalar_const(const GirGraph *g, int v)
{
    const GirValue *c = v >= 0 ? &g->vals[v] : NULL;
    if (!c || c->kind != GIR_VAL_CONST || c->type.dtype != GIR_DT_F32 || !c->data ||
        gir_type_numel(&c->type) != 1)
        return NULL;
    return c->data;
}

/* 1 when node n is a function of one f32 activation that a LutI8 table can
 * stand for: the elementwise activations below, Clip with constant bounds,
 * and Add, Sub, Mul, Div with a one-element constant.  *x gets the
 * activation operand. */
static int lut_step(const GirGraph *g, const GirNode *n, int *x)
{
    if (n->nout != 1 || n->nin < 1 || n->in[0] < 0)
        return 0;
    switch (n->op) {
    case GIR_OP_HARDSWISH: case GIR_OP_HARDSIGMOID: case GIR_OP_SIGMOID: case GIR_OP_TANH:
    case GIR_OP_RELU: case GIR_OP_LEAKYRELU: case GIR_OP_ELU: case GIR_OP_SOFTPLUS:
    case GIR_OP_NEG: case GIR_OP_ABS:
        if (n->nin != 1)
            return 0;
        *x = n->in[0];
        return 1;
    case GIR_OP_CLIP:
        if ((n->nin > 1 && n->in[1] >= 0 && !scalar_const(g, n->in[1])) ||
            (n->nin > 2 && n->in[2] >= 0 && !scalar_const(g, n->in[2])))
            return 0;
        *x = n->in[0];
        return 1;
    case GIR_OP_ADD: case GIR_OP_SUB: case GIR_OP_MUL: case GIR_OP_DIV:
        if (n->nin != 2 || n->in[1] < 0)
            return 0;
        if (scalar_const(g, n->in[1]) && !scalar_const(g, n->in[0])) {
            *x = n->in[0];
            return 1;
        }
        if (scalar_const(g, n->in[0]) && !scalar_const(g, n->in[1])) {
            *x = n->in[1];
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

/* Node n (lut_step holds) applied to v, in double; the fp32 interpreter's
 * formulas (graphir/interp.c). */
static double lut_apply(const GirGraph *g, const GirNode *n, double v)
{
    const float *c;
    switch (n->op) {
    case GIR_OP_HARDSWISH: return v * fmax(0.0, fmin(1.0, v / 6.0 + 0.5));
    case GIR_OP_HARDSIGMOID:
        return fmax(0.0, fmin(1.0, gir_attr_float(n, "alpha", 0.2f) * v +
                                       gir_attr_float(n, "beta", 0.5f)));
    case GIR_OP_SIGMOID: return 1.0 / (1.0 + exp(-v));
    case GIR_OP_TANH: return tanh(v);
    case GIR_OP_RELU: return v > 0 ? v : 0;
    case GIR_OP_LEAKYRELU: return v < 0 ? gir_attr_float(n, "alpha", 0.01f) * v : v;
    case GIR_OP_ELU: return v < 0 ? gir_attr_float(n, "alpha", 1.0f) * expm1(v) : v;
    case GIR_OP_SOFTPLUS: return v > 30 ? v : log1p(exp(v));
    case GIR_OP_NEG: return -v;
    case GIR_OP_ABS: return fabs(v);
    case GIR_OP_CLIP:
        if (n->nin > 1 && n->in[1] >= 0)
            v = fmax(v, scalar_const(g, n->in[1])[0]);
        if (n->nin > 2 && n->in[2] >= 0)
            v = fmin(v, scalar_const(g, n->in[2])[0]);
        return v;
    default: break;
    }
    if ((c = scalar_const(g, n->in[1])) != NULL) {
        switch (n->op) {
        case GIR_OP_ADD: return v + c[0];
        case GIR_OP_SUB: return v - c[0];
        case GIR_OP_MUL: return v * c[0];
        case GIR_OP_DIV: return v / c[0];
        default: break;
        }
    }
    c = scalar_const(g, n->in[0]);
    switch (n->op) {
    case GIR_OP_ADD: return c[0] + v;
    case GIR_OP_SUB: return c[0] - v;
    case GIR_OP_MUL: return c[0] * v;
    case GIR_OP_DIV: return c[0] / v;
    default: gir_unreachable();
    }
}

/* The node reading value v when it has one reader (no graph output), else -1. */
static int sole_reader(const GirGraph *g, int v)
{
    int i, j, r = -1;
    for (i = 0; i < g->noutput; i++)
        if (g->outputs[i] == v)
            return -1;
    for (i = 0; i < g->nnode; i++)
        for (j = 0; j < g->nodes[i].nin; j++)
            if (g->nodes[i].in[j] == v) {
                if (r >= 0 && r != i)
                    return -1;
                r = i;
            }
    return r;
}

/* Node p is a lut_step whose activation operand *x has p as sole reader. */
static int lut_step_of(const GirGraph *g, int p, int *x)
{
    return lut_step(g, &g->nodes[p], x) && g->vals[*x].type.dtype == GIR_DT_F32 &&
           sole_reader(g, *x) == p;
}

int gir_quant_lut_chain(const GirGraph *g, int v, int *chain, int max)
{
    int n = 0, last = v, r, x;
    while (n < max && (r = sole_reader(g, last)) >= 0 && lut_step(g, &g->nodes[r], &x) &&
           x == last && g->vals[g->nodes[r].out[0]].type.dtype == GIR_DT_F32) {
        chain[n++] = r;
        last = g->nodes[r].out[0];
    }
    return n;
}

double gir_quant_lut_eval(const GirGraph *g, const int *chain, int n, double x)
{
    int j;
    for (j = 0; j < n; j++)
        x = lut_apply(g, &g->nodes[chain[j]], x);
    return x;
}

int gir_quant_leaves_int8(const GirGraph *g, int v)
{
    const GirValue *val = &g->vals[v];
    const GirNode *p;
    int i, j, k;
    if (val->kind != GIR_VAL_NODE || val->type.dtype != GIR_DT_F32 || val->type.rank != 4 ||
        !gir_type_is_static(&val->type) || val->producer < 0)
        return 0;
    p = &g->nodes[val->producer];
    if ((p->op == GIR_OP_RELU || p->op == GIR_OP_LEAKYRELU) && p->nin == 1 && p->in[0] >= 0 &&
        g->vals[p->in[0]].producer >= 0 && sole_reader(g, p->in[0]) == val->producer) {
        p = &g->nodes[g->vals[p->in[0]].producer];
        if (gir_attr_string(p, "act", NULL))
            return 0;
    }
    if (p->op != GIR_OP_CONV || p->nin < 2 || g->vals[p->in[1]].kind != GIR_VAL_CONST)
        return 0;
    {
        const char *act = gir_attr_string(p, "act", NULL);
        if (act && strcmp(act, "clip") == 0)
            return 0; /* one act_min / act_max for all channels */
    }
    /* Not when another layer reads it in fp32 (a ConvTranspose): then it is
     * an inner feature map, not a head, and each channel's threshold is
     * only the largest value the calibration inputs showed there.
     * PP-OCRv4 det's last int8 conv, read by ConvTranspose, clipped on
     * text its four calibration photos lack (docs/quant.md). */
    for (i = 0; i < g->nnode; i++)
        for (j = 0; j < g->nodes[i].nin; j++)
            if (g->nodes[i].in[j] == v &&
                (has_int8_form(g->nodes[i].op) || lut_step(g, &g->nodes[i], &k) ||
                 g->nodes[i].op == GIR_OP_CONVTRANSPOSE))
                return 0;
    return 1;
}

/* ---- unsigned activations ------------------------------------------------- */

/* 1 when Conv n has no padding: every tap of every output lies inside the
 * input, so an input zero point folds into the bias exactly. */
static int conv_unpadded(const GirNode *n)
{
    int cnt = 0, k;
    const int64_t *p = gir_attr_ints(n, "pads", &cnt);
    const char *ap = gir_attr_string(n, "auto_pad", "NOTSET");
    if (strcmp(ap, "NOTSET") != 0 && strcmp(ap, "VALID") != 0)
        return 0;
    for (k = 0; p && k < cnt; k++)
        if (p[k] != 0)
            return 0;
    return 1;
}

/* 1 when every reader of old value v takes an unsigned int8 form (0..255
 * stored as q - 128, zero point -128) at no cost: a Conv without padding
 * reading it as its data input (the bias absorbs -zp x the sum of each
 * output channel's weights, exactly), the first node of a LutI8 chain (the
 * table is indexed by the stored byte), an op that stays fp32 (its
 * DequantizeLinear takes the zero point) or a graph output.  Not an Add,
 * Concat, pool, Resize or data movement: their int8 forms have no zero
 * point. */
static int unsigned_readers(const Q *s, int v)
{
    const GirGraph *g = s->g;
    int i, j, x;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        for (j = 0; j < n->nin; j++) {
            if (n->in[j] != v)
                continue;
            if (n->op == GIR_OP_CONV && j == 0 && conv_unpadded(n))
                continue;
            if (lut_step(g, n, &x) && x == v)
                continue;
            if (!has_int8_form(n->op) && !lut_step(g, n, &x))
                continue;
            return 0;
        }
    }
    return 1;
}

/* 1 when an input of node n has an unsigned int8 form. */
static int reads_unsigned(const Q *s, const GirNode *n)
{
    int j;
    for (j = 0; j < n->nin; j++)
        if (n->in[j] >= 0 && s->iv[n->in[j]] >= 0 && s->q->vals[s->iv[n->in[j]]].zp)
            return 1;
    return 0;
}

/* Per-channel output scales of the Conv n making old value y (allocated in
 * tmp), or NULL for one scale: when per-channel thresholds were given for y
 * and its int8 form leaves the int8 graph at once (gir_quant_leaves_int8).
 * Each channel's scale is its threshold / 127, at least the tensor's
 * scale / 4096 (a channel that was always 0 has threshold 0); try_linear
 * raises it further where the multiplier would pass 2^14. */
static float *out_channel_scales(Q *s, const GirNode *n, int y, const char *act, GirArena *tmp)
{
    const float *t = s->chthr ? s->chthr[y] : NULL;
    int64_t c, nch;
    float *sc, floor;
    int inner = s->percv && s->percv[y];
    if (!t || n->op != GIR_OP_CONV || (act && strcmp(act, "clip") == 0) ||
        (!inner && !gir_quant_leaves_int8(s->g, y)))
        return NULL;
    nch = s->g->vals[y].type.dims[1];
    sc = gir_arena_alloc(tmp, sizeof *sc * (size_t)(nch + 1));
    /* A reader's int32 bias is on this channel's scale: inside the int8
     * graph a finer floor would push it past int32 (docs/quant.md). */
    floor = act_scale(s, y) / (inner ? INNER_CH_FLOOR : 4096.0f);
    for (c = 0; c < nch; c++) {
        /* inside the int8 graph: never above the tensor's own threshold
         * (the LutI8 rules of gir_calib_thresholds may have lowered it) */
        sc[c] = (inner && s->thr[y] < t[c] ? s->thr[y] : t[c]) / 127.0f;
        if (!(sc[c] > floor))
            sc[c] = floor;
    }
    return sc;
}

/* The weights of Conv n (wd: nch output channels of per elements each)
 * with input channel ci's weights times chs[ci] / sx (allocated in tmp):
 * the conv then reads its input as if on the one scale sx.  Weights are
 * [OC][IC/group][kh][kw], or [OC][kh][kw][IC/group] under NHWC.  NULL when
 * the shapes do not add up. */
static const float *fold_input_scales(const Q *s, const GirNode *n, const float *wd,
                                      const float *chs, float sx, int64_t nch, int64_t per,
                                      GirArena *tmp)
{
    const GirValue *wv = &s->g->vals[n->in[1]];
    int64_t group = gir_attr_int(n, "group", 1), cin = s->g->vals[n->in[0]].type.dims[1];
    int64_t cing, kk, c, k;
    float *f;
    if (group < 1 || nch % group || cin % group)
        return NULL;
    cing = cin / group;
    kk = per / (cing ? cing : 1);
    if (cing * kk != per)
        return NULL;
    f = gir_arena_alloc(tmp, sizeof *f * (size_t)(nch * per + 1));
    for (c = 0; c < nch; c++) {
        int64_t base = c / (nch / group) * cing;
        for (k = 0; k < per; k++) {
            int64_t ci = wv->layout == GIR_LAYOUT_NHWC ? k % cing : k / kk;
            f[c * per + k] = (float)((double)wd[c * per + k] * chs[base + ci] / sx);
        }
    }
    return f;
}

/*
 * Conv, Gemm and MatMul with constant weights: int8 input, per-channel int8
 * weights, int32 bias, per-channel requantize with the fused activation.
 * Returns 1 when done, 0 to keep the node in fp32 (*why says why).
 */
static int try_linear(Q *s, int i, const char **why)
{
    const GirNode *n = &s->g->nodes[i];
    int x = n->in[0], w = n->in[1], b = n->nin > 2 ? n->in[2] : -1;
    int out = n->out[0], y, xi, nd, j, in[3], nin;
    const GirValue *wv = &s->g->vals[w];
    const char *act = gir_attr_string(n, "act", NULL);
    float alpha = gir_attr_float(n, "act_alpha", 0.01f);
    float lo = gir_attr_float(n, "act_min", -INFINITY), hi = gir_attr_float(n, "act_max", INFINITY);
    int64_t nch, per, sc, sk, c, wn;
    const float *wd, *bd = NULL;
    int8_t *qw;
    int32_t *qb = NULL;
    double *bc;
    float *sw, sx, sy, *sych;
    int64_t *mp, *mn, *sh;
    double *wsum = NULL;
    int u, zx, learned;
    GirArena *tmp;
    if (!is_act_input(s, x) || wv->kind != GIR_VAL_CONST || wv->type.dtype != GIR_DT_F32 ||
        (b >= 0 && (s->g->vals[b].kind != GIR_VAL_CONST || s->g->vals[b].type.dtype != GIR_DT_F32))) {
        *why = "weights or bias not f32 constants";
        return 0;
    }
    if (n->nout != 1 || !gir_type_is_static(&s->g->vals[out].type)) {
        *why = "output shape not static";
        return 0;
    }
    wn = gir_type_numel(&wv->type);
    if (n->op == GIR_OP_CONV) {
        if (wv->type.rank != 4) {
            *why = "int8 Conv is 2-D only";
            return 0;
        }
        nch = wv->type.dims[0];
        per = wn / (nch ? nch : 1);
        sc = per;
        sk = 1;
    } else {
        int tb = n->op == GIR_OP_GEMM && gir_attr_int(n, "transB", 0) != 0;
        if (wv->type.rank != 2 || (n->op == GIR_OP_GEMM &&
                                   (gir_attr_float(n, "alpha", 1.0f) != 1.0f ||
                                    gir_attr_float(n, "beta", 1.0f) != 1.0f))) {
            *why = "weights not 2-D, or alpha/beta not 1";
            return 0;
        }
        nch = wv->type.dims[tb ? 0 : 1];
        per = wv->type.dims[tb ? 1 : 0];
        sc = tb ? per : 1;
        sk = tb ? 1 : nch;
    }
    if (b >= 0 && gir_type_numel(&s->g->vals[b].type) != nch) {
        *why = "bias does not have one entry per output channel";
        return 0;
    }
    if (act && strcmp(act, "relu") && strcmp(act, "leakyrelu") && strcmp(act, "clip")) {
        *why = "unknown fused activation";
        return 0;
    }
    if (s->iv[x] >= 0 && s->q->vals[s->iv[x]].chscale &&
        (n->op != GIR_OP_CONV || s->q->vals[s->iv[x]].nchscale != s->g->vals[x].type.dims[1])) {
        *why = "input has a scale per channel";
        return 0;
    }
    if (s->iv[x] >= 0 && s->q->vals[s->iv[x]].zp &&
        (n->op != GIR_OP_CONV || !conv_unpadded(n))) {
        *why = "input unsigned (zero point -128) and not a Conv without padding";
        return 0;
    }
    /* Conv -> Relu / LeakyRelu left unfused: fuse it here. */
    y = out;
    if (!act) {
        int r = only_reader(s, out, i);
        if (r >= 0 && (s->g->nodes[r].op == GIR_OP_RELU || s->g->nodes[r].op == GIR_OP_LEAKYRELU)) {
            act = s->g->nodes[r].op == GIR_OP_RELU ? "relu" : "leakyrelu";
            alpha = gir_attr_float(&s->g->nodes[r], "alpha", 0.01f);
            y = s->g->nodes[r].out[0];
            s->absorbed[r] = 1;
            s->notes[r].int8 = 1;
            s->notes[r].why = "fused into its producer";
        }
    }
    xi = get_q(s, x, 0);
    sx = s->q->vals[xi].scale;
    zx = s->q->vals[xi].zp;
    /* Unsigned output: a ReLU (or a Clip from 0 up) cannot be negative. */
    u = s->uopt && n->op == GIR_OP_CONV && act &&
        (strcmp(act, "relu") == 0 || (strcmp(act, "clip") == 0 && lo >= 0)) &&
        unsigned_readers(s, y);
    tmp = gir_arena_new();
    wd = wv->data;
    if (s->q->vals[xi].chscale) {
        wd = fold_input_scales(s, n, wd, s->q->vals[xi].chscale, sx, nch, per, tmp);
        if (!wd) {
            gir_arena_free(tmp);
            *why = "input has a scale per channel";
            if (y != out)
                s->absorbed[only_reader(s, out, i)] = 0;
            return 0;
        }
    }
    qw = gir_arena_alloc(tmp, (size_t)wn + 1);
    sw = gir_arena_alloc(tmp, sizeof *sw * (size_t)(nch + 1));
    mp = gir_arena_alloc(tmp, sizeof *mp * (size_t)(nch + 1));
    mn = gir_arena_alloc(tmp, sizeof *mn * (size_t)(nch + 1));
    sh = gir_arena_alloc(tmp, sizeof *sh * (size_t)(nch + 1));
    quant_weights(wd, nch, per, sc, sk, qw, sw);
    bc = gir_arena_alloc(tmp, sizeof *bc * (size_t)(nch + 1));
    learned = 0;
    if (s->rnd) {
        GirRoundLayer L;
        L.node = i;
        L.xq = xi;
        L.sx = sx;
        L.zx = zx;
        L.w = wv->data;
        L.wd = wd;
        L.qw = qw;
        L.sw = sw;
        L.nch = nch;
        L.per = per;
        L.sc = sc;
        L.sk = sk;
        L.bias = bc;
        learned = gir_rounder_layer(s->rnd, s->q, &L, s->e);
        if (learned < 0) {
            gir_arena_free(tmp);
            s->failed = 1;
            *why = "learned rounding failed";
            return 0;
        }
        /* the bias absorbs the mean error left: bc is the mean error */
        for (c = 0; learned && c < nch; c++)
            bc[c] = -bc[c];
        if (learned) {
            s->notes[i].mse_nearest = L.mse_nearest;
            s->notes[i].mse_learned = L.mse_learned;
            s->notes[i].moved = L.moved;
            s->notes[i].weights = wn;
            s->notes[i].kept = L.kept;
            s->notes[i].nch = nch;
        }
    }
    if ((learned && n->op == GIR_OP_MATMUL) /* the int8 MatMul has no bias */ ||
        (!learned && (s->q->vals[xi].chscale || !weight_error(s, n, wd, qw, sw, nch, per, sc, sk, bc))))
        bc = NULL;
    if (b >= 0)
        bd = s->g->vals[b].data;
    if (b >= 0 || bc || zx || u)
        qb = gir_arena_alloc(tmp, sizeof *qb * (size_t)(nch + 1));
    if (zx) {
        /* input q - zx: the bias takes -zx x each channel's weight sum */
        int64_t k;
        wsum = gir_arena_alloc(tmp, sizeof *wsum * (size_t)(nch + 1));
        for (c = 0; c < nch; c++)
            for (k = 0; k < per; k++)
                wsum[c] += qw[c * sc + k * sk];
    }
again:
    sy = act_scale(s, y);
    sych = out_channel_scales(s, n, y, act, tmp);
    if (u) {
        /* 0..255 on threshold / 255, stored as q - 128 */
        sy = sy * 127.0f / 255.0f;
        for (c = 0; sych && c < nch; c++)
            sych[c] = sych[c] * 127.0f / 255.0f;
    }
    for (c = 0; c < nch; c++) {
        double m_real = (double)sx * sw[c] / (sych ? sych[c] : sy);
        int32_t m;
        int shift;
        if (sych && m_real > MAX_CH_M) {
            /* A channel far finer than its input: coarsen it to what a
             * 16-bit multiplier reaches. */
            sych[c] = (float)((double)sx * sw[c] / MAX_CH_M);
            m_real = (double)sx * sw[c] / sych[c];
        }
        if (kiln_rq_choose(m_real, &m, &shift) < 0) {
            if (m_real > 1.0) {
                gir_arena_free(tmp);
                *why = "requantize multiplier too large for 16 bits";
                if (y != out) {
                    /* Undo the fusion: the activation runs on its own. */
                    int r = only_reader(s, out, i);
                    s->absorbed[r] = 0;
                }
                return 0;
            }
            m = 0;
            shift = 0;
        }
        if (u && m == 0) {
            u = 0;
            goto again;
        }
        if (qb) {
            double r = rint(((bd ? (double)bd[c] : 0.0) - (bc ? bc[c] : 0.0)) /
                            ((double)sx * sw[c]));
            /* room for the taps' sum: the int32 accumulator never overflows */
            double lim = 2147483647.0 - (double)per * 16384.0;
            if (lim < 0)
                lim = 0;
            if (zx)
                r -= (double)zx * wsum[c];
            /* unsigned output: 128 output steps less, in accumulator units
             * (m / 2^shift per unit), so the requantizer gives q - 128 */
            if (u)
                r -= rint(128.0 * ldexp(1.0, shift) / (double)m);
            if (u && (r > lim || r < -lim)) {
                u = 0;
                goto again;
            }
            qb[c] = (int32_t)(r > lim ? lim : r < -lim ? -lim : r);
        }
        mp[c] = m;
        if (act && strcmp(act, "relu") == 0)
            mn[c] = u ? m : 0; /* unsigned: saturating at -128 is the ReLU */
        else if (act && strcmp(act, "leakyrelu") == 0)
            mn[c] = lrint((double)m * alpha);
        else
            mn[c] = m;
        if (mn[c] > KILN_RQ_M_MAX)
            mn[c] = KILN_RQ_M_MAX;
        if (mn[c] < KILN_RQ_M_MIN)
            mn[c] = KILN_RQ_M_MIN;
        sh[c] = shift;
    }
    in[0] = xi;
    in[1] = gir_add_const(s->q, fresh(s, wv->name, NULL), wv->type, NULL, copy_loc(s, wv->loc));
    s->q->vals[in[1]].type.dtype = GIR_DT_I8;
    memcpy(s->q->vals[in[1]].data, qw, (size_t)wn);
    nin = 2;
    if (b >= 0) {
        const GirValue *bv = &s->g->vals[b];
        GirType bt = bv->type;
        bt.dtype = GIR_DT_I32;
        in[2] = gir_add_const(s->q, fresh(s, bv->name, NULL), bt, qb, copy_loc(s, bv->loc));
        nin = 3;
    } else if (qb) {
        /* bias correction gave a node without a bias one */
        GirType bt = scalar(GIR_DT_I32);
        bt.rank = 1;
        bt.dims[0] = nch;
        in[2] = gir_add_const(s->q, fresh(s, n->name, "_bias"), bt, qb, copy_loc(s, wv->loc));
        nin = 3;
    }
    j = int8_out(s, y, sy);
    if (sych)
        gir_set_chscale(s->q, j, sych, (int)nch);
    s->q->vals[j].zp = u ? -128 : 0;
    nd = gir_add_node(s->q, n->op, fresh_node(s, n->name), in, nin, &j, 1, copy_loc(s, n->loc));
    copy_attrs(s, n, nd, 1);
    gir_set_attr_ints(s->q, nd, "rq_m_pos", mp, (int)nch);
    gir_set_attr_ints(s->q, nd, "rq_m_neg", mn, (int)nch);
    gir_set_attr_ints(s->q, nd, "rq_shift", sh, (int)nch);
    if (act && strcmp(act, "clip") == 0) {
        double l = rint(lo / sy) - (u ? 128 : 0), h = rint(hi / sy) - (u ? 128 : 0);
        int64_t amin = (int64_t)(l < -128 ? -128 : l > 127 ? 127 : l);
        int64_t amax = (int64_t)(h < -128 ? -128 : h > 127 ? 127 : h);
        gir_set_attr_ints(s->q, nd, "act_min", &amin, 1);
        gir_set_attr_ints(s->q, nd, "act_max", &amax, 1);
    }
    gir_arena_free(tmp);
    return 1;
}

/* Data movement on int8: the output takes the input's scale.  Only when the
 * input is already int8, so fp32 islands do not get needless rounding. */
static int try_move(Q *s, int i, const char **why)
{
    const GirNode *n = &s->g->nodes[i];
    int x = n->in[0], in[64], out[64], j, nd, nin = n->nin;
    float sc;
    const float *chs;
    if (!is_act_input(s, x) || s->iv[x] < 0) {
        *why = "input not int8 (no int8 producer)";
        return 0;
    }
    if (n->op == GIR_OP_RESIZE && strcmp(gir_attr_string(n, "mode", "nearest"), "nearest")) {
        *why = "Resize not nearest";
        return 0;
    }
    if (n->op == GIR_OP_MAXPOOL && n->nout != 1) {
        *why = "MaxPool with indices";
        return 0;
    }
    if (n->op == GIR_OP_PAD) {
        const GirValue *cv = n->nin > 2 && n->in[2] >= 0 ? &s->g->vals[n->in[2]] : NULL;
        if (strcmp(gir_attr_string(n, "mode", "constant"), "constant") || n->nin > 3 ||
            (cv && (cv->kind != GIR_VAL_CONST || cv->type.dtype != GIR_DT_F32 ||
                    ((const float *)cv->data)[0] != 0.0f))) {
            *why = "Pad other than constant 0";
            return 0;
        }
        nin = 2;
    }
    in[0] = get_q(s, x, 0);
    sc = s->q->vals[in[0]].scale;
    chs = s->q->vals[in[0]].chscale;
    if (chs && n->op != GIR_OP_MAXPOOL) {
        *why = "input has a scale per channel";
        return 0;
    }
    for (j = 1; j < nin; j++)
        in[j] = n->in[j] < 0 ? -1 : orig(s, n->in[j]);
    for (j = 0; j < n->nout; j++)
        out[j] = int8_out(s, n->out[j], sc);
    if (chs) /* a max keeps each channel on its own scale (pool_run_end) */
        gir_set_chscale(s->q, out[0], chs, s->q->vals[in[0]].nchscale);
    nd = gir_add_node(s->q, n->op, fresh_node(s, n->name), in, nin, out, n->nout,
                      copy_loc(s, n->loc));
    copy_attrs(s, n, nd, 0);
    return 1;
}

/* Concat: every input on the output's scale (Requantize where needed). */
static int try_concat(Q *s, int i, const char **why)
{
    const GirNode *n = &s->g->nodes[i];
    int in[64], j, any = 0, nd, y;
    float sc = 0;
    for (j = 0; j < n->nin; j++) {
        int v = n->in[j];
        if (!is_act_input(s, v)) {
            *why = "an input is not an f32 activation";
            return 0;
        }
        any |= s->iv[v] >= 0;
    }
    /* The output's own calibrated scale: under min-max the largest of the
     * inputs' ranges, under KL or a percentile the same clipping as any
     * other activation. */
    sc = act_scale(s, n->out[0]);
    if (!any) {
        *why = "no input is int8";
        return 0;
    }
    for (j = 0; j < n->nin; j++)
        in[j] = get_q(s, n->in[j], sc);
    y = int8_out(s, n->out[0], sc);
    nd = gir_add_node(s->q, n->op, fresh_node(s, n->name), in, n->nin, &y, 1, copy_loc(s, n->loc));
    copy_attrs(s, n, nd, 0);
    return 1;
}

/* Add of two activations: each keeps its scale, kiln_add_requant rescales. */
static int try_add(Q *s, int i, const char **why)
{
    const GirNode *n = &s->g->nodes[i];
    int a = n->in[0], b = n->in[1], in[2], y, nd;
    double ra, rb;
    float sy;
    int32_t m;
    int shift;
    int64_t ma, mb, sh;
    if (!is_act_input(s, a) || !is_act_input(s, b) || (s->iv[a] < 0 && s->iv[b] < 0)) {
        *why = "operands not two activations with an int8 one";
        return 0;
    }
    in[0] = get_q(s, a, 0);
    in[1] = get_q(s, b, 0);
    sy = act_scale(s, n->out[0]);
    ra = (double)s->q->vals[in[0]].scale / sy;
    rb = (double)s->q->vals[in[1]].scale / sy;
    if (kiln_rq_choose(ra > rb ? ra : rb, &m, &shift) < 0) {
        *why = "requantize multiplier out of range";
        return 0;
    }
    sh = shift;
    ma = lrint(ra * ldexp(1.0, shift));
    mb = lrint(rb * ldexp(1.0, shift));
    y = int8_out(s, n->out[0], sy);
    nd = gir_add_node(s->q, n->op, fresh_node(s, n->name), in, 2, &y, 1, copy_loc(s, n->loc));
    copy_attrs(s, n, nd, 0);
    gir_set_attr_ints(s->q, nd, "rq_m_a", &ma, 1);
    gir_set_attr_ints(s->q, nd, "rq_m_b", &mb, 1);
    gir_set_attr_ints(s->q, nd, "rq_shift", &sh, 1);
    return 1;
}

/* AveragePool without padding (or counting it) and GlobalAveragePool: the
 * divisor goes into the multiplier. */
static int try_avg(Q *s, int i, const char **why)
{
    const GirNode *n = &s->g->nodes[i];
    int x = n->in[0], xi, y, nd, cnt, k;
    const GirType *xt = &s->g->vals[x].type;
    double div = 1;
    float sy;
    int32_t m;
    int shift;
    int64_t mm, sh;
    if (!is_act_input(s, x) || s->iv[x] < 0 || xt->rank != 4 || !gir_type_is_static(xt)) {
        *why = "input not a static 4-D int8 tensor";
        return 0;
    }
    if (n->op == GIR_OP_AVGPOOL) {
        const int64_t *ks = gir_attr_ints(n, "kernel_shape", &cnt);
        const int64_t *pads = gir_attr_ints(n, "pads", &k);
        int padded = strcmp(gir_attr_string(n, "auto_pad", "NOTSET"), "NOTSET") != 0;
        for (k = 0; pads && k < 4; k++)
            padded |= pads[k] != 0;
        if (!ks || cnt != 2 || (padded && !gir_attr_int(n, "count_include_pad", 0)) ||
            gir_attr_int(n, "ceil_mode", 0)) {
            *why = "AveragePool with padding excluded from the count, or ceil_mode";
            return 0;
        }
        div = (double)ks[0] * (double)ks[1];
    } else {
        div = (double)xt->dims[2] * (double)xt->dims[3];
    }
    xi = get_q(s, x, 0);
    sy = act_scale(s, n->out[0]);
    if (kiln_rq_choose((double)s->q->vals[xi].scale / (sy * div), &m, &shift) < 0) {
        *why = "requantize multiplier out of range";
        return 0;
    }
    mm = m;
    sh = shift;
    y = int8_out(s, n->out[0], sy);
    nd = gir_add_node(s->q, n->op, fresh_node(s, n->name), &xi, 1, &y, 1, copy_loc(s, n->loc));
    copy_attrs(s, n, nd, 0);
    gir_set_attr_ints(s->q, nd, "rq_m", &mm, 1);
    gir_set_attr_ints(s->q, nd, "rq_shift", &sh, 1);
    return 1;
}

/*
 * A chain of lut_step nodes on an int8 activation: node i and every node
 * after it that is the only reader of the chain's value so far, as one
 * LutI8 whose table maps each int8 input q (on the input's scale s_in) to
 * the chain's fp32 result on q * s_in, quantized to the last value's
 * calibrated scale (rounded half to even and saturated, as QuantizeLinear).
 * The nodes absorbed are marked so; only the last value gets an int8 form.
 */
static int try_lut(Q *s, int i, const char **why)
{
    const GirNode *n = &s->g->nodes[i];
    int x, chain[64], nchain = 0, xi, y, nd, last, k, j, zx, zy = 0;
    double fmin = INFINITY;
    int64_t lut[GIR_LUT_SIZE], *tabs = NULL, nch = 0, c;
    float sx, sy, *ych = NULL;
    const float *xch;
    GirArena *tmp;
    if (!lut_step(s->g, n, &x) || !is_act_input(s, x) || s->iv[x] < 0) {
        *why = "input not int8 (no int8 producer)";
        return 0;
    }
    xi = get_q(s, x, 0);
    xch = s->q->vals[xi].chscale;
    if (xch && s->q->vals[xi].nchscale != s->g->vals[x].type.dims[1]) {
        *why = "input has a scale per channel on another axis";
        return 0;
    }
    chain[nchain++] = i;
    last = n->out[0];
    while (nchain < 64) {
        int r = only_reader(s, last, chain[nchain - 1]), rx;
        if (r < 0 || !lut_step(s->g, &s->g->nodes[r], &rx) || rx != last ||
            s->g->vals[s->g->nodes[r].out[0]].type.dtype != GIR_DT_F32)
            break;
        chain[nchain++] = r;
        last = s->g->nodes[r].out[0];
    }
    sx = s->q->vals[xi].scale;
    zx = s->q->vals[xi].zp;
    sy = act_scale(s, last);
    tmp = gir_arena_new();
    if (xch || (s->percv[last] && s->chthr && s->chthr[last])) {
        /* one table per channel: channel c's input on xch[c], its output
         * on ych[c] (its threshold, at most the tensor's, over 127) */
        nch = s->g->vals[x].type.dims[1];
        tabs = gir_arena_alloc(tmp, sizeof *tabs * (size_t)(nch * GIR_LUT_SIZE));
        if (s->percv[last] && s->chthr && s->chthr[last]) {
            ych = gir_arena_alloc(tmp, sizeof *ych * (size_t)nch);
            for (c = 0; c < nch; c++) {
                float t = s->chthr[last][c] < s->thr[last] ? s->chthr[last][c] : s->thr[last];
                ych[c] = t / 127.0f;
                if (!(ych[c] > sy / INNER_CH_FLOOR))
                    ych[c] = sy / INNER_CH_FLOOR;
            }
        }
    }
    /* The table's least output over every input code: a property of the
     * table, not of the calibration.  >= 0 (a ReLU, a Sigmoid, a
     * HardSigmoid, a Clip from 0 up): the result is unsigned, 0..255 on
     * threshold / 255 stored as q - 128.  A small floor m < 0 (HardSwish:
     * -0.375) with one scale: [m, threshold] on 256 steps, the zero point
     * where m falls (docs/quant.md "Unsigned activations"). */
    if (s->uopt && unsigned_readers(s, last)) {
        for (c = 0; c < (nch ? nch : 1); c++) {
            double si = xch ? xch[c] : sx;
            for (k = 0; k < GIR_LUT_SIZE; k++) {
                double v = (double)(k - 128 - zx) * si;
                for (j = 0; j < nchain; j++)
                    v = lut_apply(s->g, &s->g->nodes[chain[j]], v);
                if (v < fmin)
                    fmin = v;
            }
        }
        if (fmin >= 0) {
            zy = -128;
            sy = sy * 127.0f / 255.0f;
            for (c = 0; ych && c < nch; c++)
                ych[c] = ych[c] * 127.0f / 255.0f;
        } else if (!ych && s->uopt > 1 && -fmin < s->thr[last] && s->thr[last] > 1e-6f) {
            double t = s->thr[last];
            sy = (float)((t - fmin) / 255.0);
            zy = -128 + (int)rint(-fmin / sy);
            if (zy > 0)
                zy = 0;
        }
    }
    for (c = 0; c < (nch ? nch : 1); c++) {
        double si = xch ? xch[c] : sx, so = ych ? ych[c] : sy;
        int64_t *t = nch ? tabs + c * GIR_LUT_SIZE : lut;
        for (k = 0; k < GIR_LUT_SIZE; k++) {
            /* entry k is input code k - 128, real (k - 128 - zx) x si */
            double v = (double)(k - 128 - zx) * si, q;
            for (j = 0; j < nchain; j++)
                v = lut_apply(s->g, &s->g->nodes[chain[j]], v);
            q = (isnan(v) ? 0.0 : rint(v / so)) + zy; /* zy 0, or unsigned */
            t[k] = (int64_t)(q < -128 ? -128 : q > 127 ? 127 : q);
        }
    }
    for (j = 1; j < nchain; j++) {
        s->absorbed[chain[j]] = 1;
        s->notes[chain[j]].int8 = 1;
        s->notes[chain[j]].why = "in its producer's LutI8 table";
    }
    y = int8_out(s, last, sy);
    if (ych)
        gir_set_chscale(s->q, y, ych, (int)nch);
    s->q->vals[y].zp = zy;
    nd = gir_add_node(s->q, GIR_OP_LUTI8, fresh_node(s, n->name), &xi, 1, &y, 1,
                      copy_loc(s, n->loc));
    if (nch)
        gir_set_attr_ints(s->q, nd, "lut", tabs, (int)(nch * GIR_LUT_SIZE));
    else
        gir_set_attr_ints(s->q, nd, "lut", lut, GIR_LUT_SIZE);
    gir_arena_free(tmp);
    return 1;
}

/* Put each Concat input on the Concat's threshold at its source: the value
 * itself and, through scale-keeping MaxPool / Resize nodes whose input has no
 * other reader, the conv or input behind it.  The rescale then happens in
 * that producer's requantizer for free instead of in a Requantize node.  A
 * value read by two Concats keeps the later one's threshold; get_q inserts a
 * Requantize for the other. */
static void align_concat_thresholds(const GirGraph *g, const int *uses, float *thr)
{
    int i, j;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        if (n->op != GIR_OP_CONCAT || n->nout < 1)
            continue;
        for (j = 0; j < n->nin; j++) {
            int v = n->in[j], hops = 0;
            while (v >= 0 && hops++ < g->nnode) {
                int p = g->vals[v].producer;
                thr[v] = thr[n->out[0]];
                if (g->vals[v].kind != GIR_VAL_NODE || p < 0 || g->nodes[p].nin < 1 ||
                    (g->nodes[p].op != GIR_OP_MAXPOOL && g->nodes[p].op != GIR_OP_RESIZE) ||
                    uses[g->nodes[p].in[0]] != 1)
                    break;
                v = g->nodes[p].in[0];
            }
        }
    }
}

/* The f32 constants the quantizer scales (a Conv's, Gemm's or MatMul's
 * weights and bias) must be finite: a NaN or an infinity, from a corrupt
 * .weights file or initializer, would make a NaN scale and int8 values that
 * mean nothing.  0, or -1 + e naming the node, the tensor and the element. */
static int check_finite(const GirGraph *g, GirError *e)
{
    int i, j;
    int64_t k, n;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *nd = &g->nodes[i];
        if (nd->op != GIR_OP_CONV && nd->op != GIR_OP_GEMM && nd->op != GIR_OP_MATMUL)
            continue;
        for (j = 1; j < nd->nin; j++) {
            const GirValue *v = nd->in[j] >= 0 ? &g->vals[nd->in[j]] : NULL;
            const float *d;
            if (!v || v->kind != GIR_VAL_CONST || v->type.dtype != GIR_DT_F32 || !v->data)
                continue;
            d = v->data;
            n = gir_type_numel(&v->type);
            for (k = 0; k < n; k++)
                if (!isfinite(d[k])) {
                    GirLoc l = nd->loc;
                    if (!l.node)
                        l.node = nd->name;
                    return gir_error_at(e, l, "%s holds %s at element %lld; int8 quantization "
                                        "needs finite weights", v->name,
                                        isnan(d[k]) ? "NaN" : "an infinity", (long long)k);
                }
        }
    }
    return 0;
}

/* ---- per-channel activation scales (gir_quantize_cs) ------------------------- */

/* 1 when f32 value v (static, rank 4) is made by a Conv with constant
 * weights whose requantizer can take a scale per output channel (not a
 * fused Clip: one act_min / act_max pair for all channels). */
static int conv_made(const GirGraph *g, int v)
{
    const GirValue *val = &g->vals[v];
    const GirNode *p;
    const char *act;
    if (val->kind != GIR_VAL_NODE || val->type.dtype != GIR_DT_F32 || val->type.rank != 4 ||
        !gir_type_is_static(&val->type) || val->producer < 0)
        return 0;
    p = &g->nodes[val->producer];
    act = gir_attr_string(p, "act", NULL);
    return p->op == GIR_OP_CONV && p->nin >= 2 && g->vals[p->in[1]].kind == GIR_VAL_CONST &&
           g->vals[p->in[1]].type.rank == 4 && !(act && strcmp(act, "clip") == 0);
}

/* 1 when every reader of value v is a Conv reading it as its data input
 * (constant 4-D weights), so per-channel input scales fold into weights. */
static int read_by_convs(const GirGraph *g, int v)
{
    int i, j, any = 0;
    for (i = 0; i < g->noutput; i++)
        if (g->outputs[i] == v)
            return 0;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        for (j = 0; j < n->nin; j++) {
            if (n->in[j] != v)
                continue;
            if (j != 0 || n->op != GIR_OP_CONV || n->nin < 2 ||
                g->vals[n->in[1]].kind != GIR_VAL_CONST || g->vals[n->in[1]].type.rank != 4)
                return 0;
            any = 1;
        }
    }
    return any;
}

/* 1 when every reader of value v (read by convs only) is a depthwise conv
 * (group = channels, one input channel per output channel): a per-channel
 * input scale is then exactly a per-channel multiplier.  A dense conv folds
 * s_c / s into its weights, where the small channels' weights then round
 * coarser: the error moves from the activations to the weights. */
static int read_by_depthwise(const GirGraph *g, int v)
{
    int i, j;
    int64_t c = g->vals[v].type.dims[1];
    for (i = 0; i < g->nnode; i++)
        for (j = 0; j < g->nodes[i].nin; j++)
            if (g->nodes[i].in[j] == v && (gir_attr_int(&g->nodes[i], "group", 1) != c ||
                                           g->vals[g->nodes[i].in[1]].type.dims[1] != 1))
                return 0;
    return 1;
}

/* The result of the LutI8 chain read from conv output v when it is read by
 * convs alone, else -1. */
static int chan_chain_end(const GirGraph *g, int v)
{
    int chain[64], n, last;
    if (!conv_made(g, v) || (n = gir_quant_lut_chain(g, v, chain, 64)) == 0)
        return -1;
    last = g->nodes[chain[n - 1]].out[0];
    if (g->vals[last].type.rank != 4 || g->vals[last].type.dims[1] != g->vals[v].type.dims[1])
        return -1;
    return read_by_convs(g, last) ? last : -1;
}

/* The value depthwise convs alone read after conv output v, directly or
 * through MaxPools each its producer's one reader, else -1.  A max commutes
 * with a positive scale per channel, so v's channel scales hold along the
 * run and become the depthwise convs' per-channel multipliers: no table, no
 * MAC, no other hardware (the same kiln_maxpool and kiln_dwconv). */
static int pool_run_end(const GirGraph *g, int v)
{
    int x = v, hops, r;
    if (!conv_made(g, v))
        return -1;
    for (hops = 0; hops < 8 && (r = sole_reader(g, x)) >= 0; hops++) {
        const GirNode *n = &g->nodes[r];
        if (n->op != GIR_OP_MAXPOOL || n->nout != 1 || n->in[0] != x)
            break;
        x = n->out[0];
    }
    if (g->vals[x].type.rank != 4 || g->vals[x].type.dims[1] != g->vals[v].type.dims[1])
        return -1;
    return read_by_convs(g, x) && read_by_depthwise(g, x) ? x : -1;
}

int gir_quant_chscale_candidate(const GirGraph *g, int v)
{
    int hops, x = v, p;
    if (chan_chain_end(g, v) >= 0 || pool_run_end(g, v) >= 0)
        return 1;
    /* v the result of such a chain: walk back to the conv output */
    for (hops = 0; hops < 64 && x >= 0 && (p = g->vals[x].producer) >= 0; hops++) {
        int in;
        if (!lut_step_of(g, p, &in))
            return 0;
        x = in;
        if (chan_chain_end(g, x) == v)
            return 1;
    }
    return 0;
}

/* The median over the channels of min(t[c], tt), over tt: how far the
 * typical channel sits below the tensor's threshold tt. */
static double median_ratio(const float *t, int64_t nch, float tt, GirArena *tmp)
{
    float *v = gir_arena_alloc(tmp, sizeof *v * (size_t)(nch + 1));
    int64_t i, j;
    if (!(tt > 0) || nch < 1)
        return 1.0;
    for (i = 0; i < nch; i++) {
        float x = t[i] < tt ? t[i] : tt;
        for (j = i; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    return v[nch / 2] / tt;
}

/* Mark in s->percv the conv outputs and LutI8 results that take a scale per
 * channel: in a conv -> LutI8 chain -> convs run whose channels are
 * imbalanced (median channel threshold below cs->ratio of the tensor's, on
 * the conv's output, or on the chain's result when depthwise convs alone
 * read it), table C x 256 bytes within cs->max_table, all such tables within
 * cs->budget (taken in graph order), the conv's output and the table's
 * input per channel; the table's result too where depthwise convs alone
 * read it (read_by_depthwise: on dense readers it measured worse,
 * docs/quant.md). */
static void choose_channel_scales(Q *s, const GirChanScaleOpts *cs)
{
    const GirGraph *g = s->g;
    GirArena *tmp = gir_arena_new();
    int64_t used = 0;
    int v;
    for (v = 0; v < g->nval; v++) {
        int last = chan_chain_end(g, v);
        int64_t nch, bytes;
        double rv, rl;
        int dw;
        if (last < 0 && pool_run_end(g, v) >= 0 && s->chthr[v]) {
            /* conv -> MaxPools -> depthwise convs: no table to pay for */
            nch = g->vals[v].type.dims[1];
            if (median_ratio(s->chthr[v], nch, s->thr[v], tmp) < cs->ratio)
                s->percv[v] = 1;
            continue;
        }
        if (last < 0 || !s->chthr[v] || !s->chthr[last])
            continue;
        nch = g->vals[v].type.dims[1];
        bytes = nch * GIR_LUT_SIZE;
        if (bytes > cs->max_table || used + bytes > cs->budget)
            continue;
        rv = median_ratio(s->chthr[v], nch, s->thr[v], tmp);
        rl = median_ratio(s->chthr[last], nch, s->thr[last], tmp);
        dw = read_by_depthwise(g, last);
        if (rv >= cs->ratio && !(dw && rl < cs->ratio))
            continue;
        s->percv[v] = 1;
        s->percv[last] = (unsigned char)dw;
        used += bytes;
    }
    gir_arena_free(tmp);
}

GirGraph *gir_quantize(const GirGraph *g, const float *thresholds, GirQuantNote **notes,
                       GirError *e)
{
    return gir_quantize_ch(g, thresholds, NULL, notes, e);
}

GirGraph *gir_quantize_ch(const GirGraph *g, const float *thresholds, const float *const *chthr,
                          GirQuantNote **notes, GirError *e)
{
    return gir_quantize_bc(g, thresholds, chthr, NULL, notes, e);
}

GirGraph *gir_quantize_bc(const GirGraph *g, const float *thresholds, const float *const *chthr,
                          const double *const *chmean, GirQuantNote **notes, GirError *e)
{
    return gir_quantize_cs(g, thresholds, chthr, chmean, NULL, notes, e);
}

GirGraph *gir_quantize_cs(const GirGraph *g, const float *thresholds, const float *const *chthr,
                          const double *const *chmean, const GirChanScaleOpts *cs,
                          GirQuantNote **notes, GirError *e)
{
    return gir_quantize_u(g, thresholds, chthr, chmean, cs, 0, NULL, notes, e);
}

GirGraph *gir_quantize_u(const GirGraph *g, const float *thresholds, const float *const *chthr,
                         const double *const *chmean, const GirChanScaleOpts *cs, int unsig,
                         const unsigned char *keep_fp32_nodes, GirQuantNote **notes, GirError *e)
{
    return gir_quantize_r(g, thresholds, chthr, chmean, cs, unsig, keep_fp32_nodes, NULL, notes, e);
}

GirGraph *gir_quantize_r(const GirGraph *g, const float *thresholds, const float *const *chthr,
                         const double *const *chmean, const GirChanScaleOpts *cs, int unsig,
                         const unsigned char *keep_fp32_nodes, GirRoundOpts *ro,
                         GirQuantNote **notes, GirError *e)
{
    Q s;
    GirArena *tmp;
    int i;
    if (check_finite(g, e) < 0)
        return NULL;
    tmp = gir_arena_new();
    memset(&s, 0, sizeof s);
    s.g = g;
    s.thr = thresholds;
    s.chthr = chthr;
    s.chmean = chmean;
    s.uopt = unsig;
    s.keepf = keep_fp32_nodes;
    s.e = e;
    if (ro && g->ninput == 1)
        s.rnd = gir_rounder_new(g, ro);
    s.q = gir_graph_new(g->name ? g->name : "");
    s.q->source = g->source ? gir_arena_strdup(s.q->arena, g->source) : NULL;
    s.q->opset = g->opset;
    s.fv = gir_arena_alloc(tmp, sizeof *s.fv * (size_t)(g->nval + 1));
    s.iv = gir_arena_alloc(tmp, sizeof *s.iv * (size_t)(g->nval + 1));
    s.sc_const = gir_arena_alloc(tmp, sizeof *s.sc_const * (size_t)(g->nval + 1));
    s.zp_const = gir_arena_alloc(tmp, sizeof *s.zp_const * (size_t)(g->nval + 1));
    s.uses = gir_arena_alloc(tmp, sizeof *s.uses * (size_t)(g->nval + 1));
    s.absorbed = gir_arena_alloc(tmp, (size_t)g->nnode + 1);
    s.percv = gir_arena_alloc(tmp, (size_t)g->nval + 1);
    s.notes = gir_arena_alloc(s.q->arena, sizeof *s.notes * (size_t)(g->nnode + 1));
    for (i = 0; i < g->nval; i++)
        s.fv[i] = s.iv[i] = s.sc_const[i] = s.zp_const[i] = -1;
    gir_use_counts(g, s.uses);
    {
        float *thr = gir_arena_alloc(tmp, sizeof *thr * (size_t)(g->nval + 1));
        memcpy(thr, thresholds, sizeof *thr * (size_t)g->nval);
        align_concat_thresholds(g, s.uses, thr);
        s.thr = thr;
    }
    if (cs && chthr)
        choose_channel_scales(&s, cs);
    for (i = 0; i < g->ninput; i++) {
        const GirValue *ov = &g->vals[g->inputs[i]];
        int id = gir_add_value(s.q, ov->name, GIR_VAL_INPUT, ov->type, copy_loc(&s, ov->loc));
        s.q->vals[id].layout = ov->layout;
        gir_add_input(s.q, id);
        s.fv[g->inputs[i]] = id;
    }
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        const char *why = "no int8 form for this op";
        int done = 0, x;
        s.notes[i].node = gir_arena_strdup(s.q->arena, n->name);
        s.notes[i].op = n->op;
        s.notes[i].mse_nearest = s.notes[i].mse_learned = -1;
        if (s.absorbed[i])
            continue;
        if (s.keepf && s.keepf[i]) {
            keep_fp32(&s, i, "kept in fp32 as asked (--fp32)");
            continue;
        }
        switch (n->op) {
        case GIR_OP_CONV:
        case GIR_OP_GEMM:
        case GIR_OP_MATMUL:
            done = try_linear(&s, i, &why);
            break;
        case GIR_OP_MAXPOOL:
        case GIR_OP_RESIZE:
        case GIR_OP_RESHAPE:
        case GIR_OP_FLATTEN:
        case GIR_OP_SQUEEZE:
        case GIR_OP_UNSQUEEZE:
        case GIR_OP_IDENTITY:
        case GIR_OP_TRANSPOSE:
        case GIR_OP_SLICE:
        case GIR_OP_SPLIT:
        case GIR_OP_PAD:
            if (reads_unsigned(&s, n))
                why = "input unsigned (zero point -128)";
            else
                done = try_move(&s, i, &why);
            break;
        case GIR_OP_CONCAT:
            if (reads_unsigned(&s, n))
                why = "input unsigned (zero point -128)";
            else
                done = try_concat(&s, i, &why);
            break;
        case GIR_OP_ADD:
            if (!reads_unsigned(&s, n))
                done = try_add(&s, i, &why);
            if (!done && lut_step(g, n, &x))
                done = try_lut(&s, i, &why);
            break;
        case GIR_OP_AVGPOOL:
        case GIR_OP_GLOBALAVGPOOL:
            if (reads_unsigned(&s, n))
                why = "input unsigned (zero point -128)";
            else
                done = try_avg(&s, i, &why);
            break;
        default:
            if (lut_step(g, n, &x))
                done = try_lut(&s, i, &why);
            break;
        }
        if (done) {
            s.notes[i].int8 = 1;
            s.notes[i].why = NULL;
        } else if (s.failed) {
            break;
        } else {
            keep_fp32(&s, i, why);
        }
    }
    gir_rounder_free(s.rnd);
    if (s.failed) {
        gir_arena_free(tmp);
        gir_graph_free(s.q);
        return NULL;
    }
    for (i = 0; i < g->noutput; i++) {
        int v = g->outputs[i];
        gir_add_output(s.q, g->vals[v].kind == GIR_VAL_CONST ? orig(&s, v) : get_f(&s, v));
    }
    gir_arena_free(tmp);
    if (gir_infer_shapes(s.q, e) < 0 || gir_verify(s.q, e) < 0) {
        gir_graph_free(s.q);
        return NULL;
    }
    if (notes)
        *notes = s.notes;
    return s.q;
}
