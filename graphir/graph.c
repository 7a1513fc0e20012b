/*
 * The graph container: values and nodes in arrays indexed by id, attributes,
 * and the tables generated from the op and dtype X-macros.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphir.h"

/* ---- tables from the X-macros ---------------------------------------- */

static const struct {
    const char *name; /* ONNX op_type and text IR name */
    int min_in;       /* fewest inputs */
    int max_in;       /* most inputs */
    const char *summary;
} op_table[GIR_OP_COUNT] = {
#define OP_ROW(e, name, lo, hi, summary) [GIR_OP_##e] = {name, lo, hi, summary},
    GIR_OPS(OP_ROW)
#undef OP_ROW
};

static const struct {
    const char *name; /* text name */
    size_t size;      /* bytes per element */
    int onnx;         /* TensorProto.DataType */
} dtype_table[GIR_DT_COUNT] = {
#define DT_ROW(e, name, sz, onnx) [GIR_DT_##e] = {name, sz, onnx},
    GIR_DTYPES(DT_ROW)
#undef DT_ROW
};

const char *gir_op_name(GirOp op)
{
    if ((unsigned)op >= GIR_OP_COUNT)
        gir_die("bad op %d", (int)op);
    return op_table[op].name;
}

int gir_op_from_name(const char *name)
{
    int i;
    for (i = 0; i < GIR_OP_COUNT; i++)
        if (strcmp(op_table[i].name, name) == 0)
            return i;
    return -1;
}

int gir_op_min_inputs(GirOp op) { return op_table[op].min_in; }
int gir_op_max_inputs(GirOp op) { return op_table[op].max_in; }
const char *gir_op_summary(GirOp op) { return op_table[op].summary; }

const char *gir_dtype_name(GirDType t)
{
    if ((unsigned)t >= GIR_DT_COUNT)
        gir_die("bad dtype %d", (int)t);
    return dtype_table[t].name;
}

size_t gir_dtype_size(GirDType t)
{
    if ((unsigned)t >= GIR_DT_COUNT)
        gir_die("bad dtype %d", (int)t);
    return dtype_table[t].size;
}

GirDType gir_dtype_from_onnx(int onnx_type)
{
    int i;
    for (i = 1; i < GIR_DT_COUNT; i++)
        if (dtype_table[i].onnx == onnx_type)
            return (GirDType)i;
    return GIR_DT_UNDEF;
}

int gir_dtype_to_onnx(GirDType t) { return dtype_table[t].onnx; }

GirDType gir_dtype_from_name(const char *name)
{
    int i;
    for (i = 1; i < GIR_DT_COUNT; i++)
        if (strcmp(dtype_table[i].name, name) == 0)
            return (GirDType)i;
    return GIR_DT_UNDEF;
}

float gir_f16_to_f32(uint16_t h)
{
    int ex = (h >> 10) & 0x1f, man = h & 0x3ff;
    float v;
    if (ex == 0)
        v = ldexpf((float)man, -24); /* zero and subnormals */
    else if (ex == 31)
        v = man ? NAN : INFINITY;
    else
        v = ldexpf((float)(man | 0x400), ex - 25);
    return (h & 0x8000) ? -v : v;
}

uint16_t gir_f32_to_f16(float f)
{
    uint32_t x, sign, man, rest;
    int ex;
    memcpy(&x, &f, sizeof x);
    sign = (x >> 16) & 0x8000;
    ex = (int)((x >> 23) & 0xff);
    man = x & 0x7fffff;
    if (ex == 255)
        return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
    ex -= 127 - 15;
    if (ex >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (ex <= 0) {
        /* Subnormal half (or zero): shift the full mantissa down. */
        int sh = 14 - ex;
        uint32_t m = man | 0x800000, half;
        if (sh > 24)
            return (uint16_t)sign;
        half = m >> sh;
        rest = m & ((1u << sh) - 1);
        if (rest > (1u << (sh - 1)) || (rest == (1u << (sh - 1)) && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    rest = man & 0x1fff;
    man >>= 13;
    x = sign | ((uint32_t)ex << 10) | man;
    if (rest > 0x1000 || (rest == 0x1000 && (man & 1)))
        x++; /* a carry into the exponent is still the right rounding */
    return (uint16_t)x;
}

/* ---- types --------------------------------------------------------------- */

int64_t gir_type_numel(const GirType *t)
{
    int64_t n = 1;
    int i;
    if (t->rank < 0)
        return -1;
    for (i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return -1;
        /* Saturate instead of overflowing: no real tensor is that big, and
         * every allocation checks its size. */
        if (t->dims[i] > 0 && n > INT64_MAX / t->dims[i])
            return INT64_MAX;
        n *= t->dims[i];
    }
    return n;
}

int gir_type_is_static(const GirType *t) { return gir_type_numel(t) >= 0; }

/* Checked arithmetic and checked fields: the type may come from hostile text
 * (the parser) or a broken graph (the verifier). */
int64_t gir_type_bytes(const GirType *t)
{
    int64_t n;
    int i;
    if ((unsigned)t->dtype >= GIR_DT_COUNT || t->dtype == GIR_DT_UNDEF || t->rank < 0 ||
        t->rank > GIR_MAX_RANK)
        return -1;
    for (i = 0; i < t->rank; i++)
        if (t->dims[i] < 0)
            return -1;
    for (i = 0; i < t->rank; i++)
        if (t->dims[i] == 0)
            return 0;
    n = (int64_t)gir_dtype_size(t->dtype);
    for (i = 0; i < t->rank; i++) {
        if (n > INT64_MAX / t->dims[i])
            return -1;
        n *= t->dims[i];
    }
    return n;
}

const char *gir_type_str(const GirType *t, char *buf, size_t size)
{
    size_t n;
    int i;
    n = (size_t)snprintf(buf, size, "%s", gir_dtype_name(t->dtype));
    if (t->rank < 0) {
        if (n < size)
            snprintf(buf + n, size - n, "[*]");
        return buf;
    }
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "[");
    for (i = 0; i < t->rank && n < size; i++) {
        if (t->dims[i] < 0)
            n += (size_t)snprintf(buf + n, size - n, "%s?", i ? "," : "");
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? "," : "",
                                  (long long)t->dims[i]);
    }
    if (n < size)
        snprintf(buf + n, size - n, "]");
    return buf;
}

int gir_type_equal(const GirType *a, const GirType *b)
{
    int i;
    if (a->dtype != b->dtype || a->rank != b->rank)
        return 0;
    for (i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i])
            return 0;
    return 1;
}

/* ---- graph ---------------------------------------------------------------- */

GirGraph *gir_graph_new(const char *name)
{
    GirArena *a = gir_arena_new();
    GirGraph *g = gir_arena_alloc(a, sizeof *g);
    g->arena = a;
    g->name = gir_arena_strdup(a, name ? name : "graph");
    g->opset = 17;
    return g;
}

void gir_graph_free(GirGraph *g)
{
    if (!g)
        return;
    free(g->vals);
    free(g->nodes);
    free(g->inputs);
    free(g->outputs);
    gir_arena_free(g->arena); /* g itself lives in the arena */
}

/* Grow a malloc'd array to hold at least need elements.  These arrays are
 * not in the arena because they are reallocated as the graph grows. */
static void *grow(void *p, int *cap, int need, size_t elem)
{
    int ncap;
    if (need <= *cap)
        return p;
    ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    p = realloc(p, (size_t)ncap * elem);
    if (!p)
        gir_die("out of memory");
    *cap = ncap;
    return p;
}

int gir_add_value(GirGraph *g, const char *name, GirValKind kind, GirType type, GirLoc loc)
{
    GirValue *v;
    g->vals = grow(g->vals, &g->capval, g->nval + 1, sizeof *g->vals);
    v = &g->vals[g->nval];
    memset(v, 0, sizeof *v);
    v->name = gir_arena_strdup(g->arena, name);
    v->kind = kind;
    v->type = type;
    v->layout = GIR_LAYOUT_ANY;
    v->producer = -1;
    v->loc = loc;
    return g->nval++;
}

void gir_set_chscale(GirGraph *g, int v, const float *s, int n)
{
    GirValue *val = &g->vals[v];
    float *copy, mx = 0;
    int c;
    val->chscale = NULL;
    val->nchscale = 0;
    val->scale = n > 0 ? s[0] : 0.0f;
    if (n <= 1)
        return;
    copy = gir_arena_alloc(g->arena, sizeof *copy * (size_t)n);
    for (c = 0; c < n; c++) {
        copy[c] = s[c];
        if (s[c] > mx)
            mx = s[c];
    }
    val->chscale = copy;
    val->nchscale = n;
    val->scale = mx;
}

void gir_copy_scale(GirGraph *gd, int dst, const GirGraph *gs, int src)
{
    const GirValue *v = &gs->vals[src];
    if (v->chscale)
        gir_set_chscale(gd, dst, v->chscale, v->nchscale);
    else
        gir_set_chscale(gd, dst, &v->scale, 1);
    gd->vals[dst].zp = v->zp;
}

int gir_same_scale(const GirValue *a, const GirValue *b)
{
    if (a->scale != b->scale || a->nchscale != b->nchscale || a->zp != b->zp)
        return 0;
    return a->nchscale == 0 ||
           memcmp(a->chscale, b->chscale, sizeof *a->chscale * (size_t)a->nchscale) == 0;
}

float gir_scale_at(const GirValue *v, int64_t i)
{
    const GirType *t = &v->type;
    int axis = v->layout == GIR_LAYOUT_NHWC ? t->rank - 1 : 1, d;
    int64_t inner = 1;
    if (!v->chscale || t->rank < 2)
        return v->scale;
    for (d = axis + 1; d < t->rank; d++)
        inner *= t->dims[d];
    return v->chscale[(i / inner) % v->nchscale];
}

int gir_add_const(GirGraph *g, const char *name, GirType type, const void *data, GirLoc loc)
{
    int id = gir_add_value(g, name, GIR_VAL_CONST, type, loc);
    int64_t n = gir_type_numel(&type);
    size_t bytes;
    if (n < 0)
        gir_die("gir_add_const: constant '%s' without a static shape", name);
    if ((uint64_t)n > SIZE_MAX / 16)
        gir_die("gir_add_const: constant '%s' is too large", name);
    bytes = (size_t)n * gir_dtype_size(type.dtype);
    g->vals[id].data = gir_arena_alloc(g->arena, bytes);
    if (data && bytes)
        memcpy(g->vals[id].data, data, bytes);
    return id;
}

int gir_find_value(const GirGraph *g, const char *name)
{
    int i;
    for (i = g->nval - 1; i >= 0; i--)
        if (strcmp(g->vals[i].name, name) == 0)
            return i;
    return -1;
}

int gir_add_node(GirGraph *g, GirOp op, const char *name, const int *in, int nin,
                 const int *out, int nout, GirLoc loc)
{
    GirNode *n;
    int i;
    g->nodes = grow(g->nodes, &g->capnode, g->nnode + 1, sizeof *g->nodes);
    n = &g->nodes[g->nnode];
    memset(n, 0, sizeof *n);
    n->op = op;
    n->name = gir_arena_strdup(g->arena, name);
    n->nin = nin;
    n->in = gir_arena_alloc(g->arena, sizeof(int) * (size_t)(nin ? nin : 1));
    if (nin)
        memcpy(n->in, in, sizeof(int) * (size_t)nin);
    n->nout = nout;
    n->out = gir_arena_alloc(g->arena, sizeof(int) * (size_t)(nout ? nout : 1));
    if (nout)
        memcpy(n->out, out, sizeof(int) * (size_t)nout);
    n->loc = loc;
    for (i = 0; i < nout; i++) {
        if (out[i] < 0 || out[i] >= g->nval)
            gir_die("gir_add_node: output id %d out of range", out[i]);
        g->vals[out[i]].producer = g->nnode;
        g->vals[out[i]].kind = GIR_VAL_NODE;
    }
    return g->nnode++;
}

/* Each node's operand lists and attribute table are the copy's own, as
 * are the value table and the input and output lists, so a pass may
 * rewrite any of them; strings, constant data and attribute payloads stay
 * g's, which a pass replaces rather than writes into. */
GirGraph *gir_graph_copy(const GirGraph *g)
{
    GirGraph *c = gir_graph_new(g->name);
    int i;
    c->source = g->source;
    c->opset = g->opset;
    c->capval = g->nval;
    c->vals = malloc(sizeof *c->vals * (size_t)(g->nval + 1));
    c->capnode = g->nnode;
    c->nodes = malloc(sizeof *c->nodes * (size_t)(g->nnode + 1));
    c->inputs = malloc(sizeof(int) * (size_t)(g->ninput + 1));
    c->outputs = malloc(sizeof(int) * (size_t)(g->noutput + 1));
    if (!c->vals || !c->nodes || !c->inputs || !c->outputs)
        gir_die("out of memory");
    if (g->nval)
        memcpy(c->vals, g->vals, sizeof *c->vals * (size_t)g->nval);
    c->nval = g->nval;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        GirNode *m = &c->nodes[i];
        *m = *n;
        m->in = gir_arena_alloc(c->arena, sizeof(int) * (size_t)(n->nin + 1));
        m->out = gir_arena_alloc(c->arena, sizeof(int) * (size_t)(n->nout + 1));
        memcpy(m->in, n->in, sizeof(int) * (size_t)n->nin);
        memcpy(m->out, n->out, sizeof(int) * (size_t)n->nout);
        m->attrs = gir_arena_alloc(c->arena, sizeof *m->attrs * (size_t)(n->nattr + 1));
        if (n->nattr)
            memcpy(m->attrs, n->attrs, sizeof *m->attrs * (size_t)n->nattr);
    }
    c->nnode = g->nnode;
    memcpy(c->inputs, g->inputs, sizeof(int) * (size_t)g->ninput);
    c->ninput = g->ninput;
    memcpy(c->outputs, g->outputs, sizeof(int) * (size_t)g->noutput);
    c->noutput = g->noutput;
    return c;
}

void gir_add_input(GirGraph *g, int val)
{
    int cap = g->ninput;
    g->inputs = realloc(g->inputs, sizeof(int) * (size_t)(cap + 1));
    if (!g->inputs)
        gir_die("out of memory");
    g->inputs[g->ninput++] = val;
}

void gir_add_output(GirGraph *g, int val)
{
    int cap = g->noutput;
    g->outputs = realloc(g->outputs, sizeof(int) * (size_t)(cap + 1));
    if (!g->outputs)
        gir_die("out of memory");
    g->outputs[g->noutput++] = val;
}

/* ---- attributes ------------------------------------------------------------ */

/* The attribute slot for name on node: replaced in place if present, else
 * appended.  Attribute arrays are small and rarely change, so each change
 * copies the array into the arena. */
static GirAttr *attr_slot(GirGraph *g, int node, const char *name)
{
    GirNode *n = &g->nodes[node];
    GirAttr *na;
    int i;
    for (i = 0; i < n->nattr; i++)
        if (strcmp(n->attrs[i].name, name) == 0) {
            memset(&n->attrs[i], 0, sizeof n->attrs[i]);
            n->attrs[i].name = gir_arena_strdup(g->arena, name);
            return &n->attrs[i];
        }
    na = gir_arena_alloc(g->arena, sizeof *na * (size_t)(n->nattr + 1));
    if (n->nattr)
        memcpy(na, n->attrs, sizeof *na * (size_t)n->nattr);
    n->attrs = na;
    na[n->nattr].name = gir_arena_strdup(g->arena, name);
    return &na[n->nattr++];
}

void gir_set_attr_int(GirGraph *g, int node, const char *name, int64_t v)
{
    GirAttr *a = attr_slot(g, node, name);
    a->kind = GIR_ATTR_INT;
    a->i = v;
}

void gir_set_attr_float(GirGraph *g, int node, const char *name, float v)
{
    GirAttr *a = attr_slot(g, node, name);
    a->kind = GIR_ATTR_FLOAT;
    a->f = v;
}

void gir_set_attr_string(GirGraph *g, int node, const char *name, const char *v)
{
    GirAttr *a = attr_slot(g, node, name);
    a->kind = GIR_ATTR_STRING;
    a->s = gir_arena_strdup(g->arena, v);
}

void gir_set_attr_ints(GirGraph *g, int node, const char *name, const int64_t *v, int n)
{
    GirAttr *a = attr_slot(g, node, name);
    a->kind = GIR_ATTR_INTS;
    a->n = n;
    a->ints = gir_arena_alloc(g->arena, sizeof(int64_t) * (size_t)(n ? n : 1));
    if (n)
        memcpy(a->ints, v, sizeof(int64_t) * (size_t)n);
}

void gir_set_attr_floats(GirGraph *g, int node, const char *name, const float *v, int n)
{
    GirAttr *a = attr_slot(g, node, name);
    a->kind = GIR_ATTR_FLOATS;
    a->n = n;
    a->floats = gir_arena_alloc(g->arena, sizeof(float) * (size_t)(n ? n : 1));
    if (n)
        memcpy(a->floats, v, sizeof(float) * (size_t)n);
}

void gir_set_attr_tensor(GirGraph *g, int node, const char *name, const GirTensor *t)
{
    GirAttr *a = attr_slot(g, node, name);
    int64_t n = gir_type_numel(&t->type);
    size_t bytes;
    if (n < 0)
        gir_die("gir_set_attr_tensor: tensor without a static shape");
    bytes = (size_t)n * gir_dtype_size(t->type.dtype);
    a->kind = GIR_ATTR_TENSOR;
    a->t.type = t->type;
    a->t.data = gir_arena_alloc(g->arena, bytes);
    if (bytes && t->data)
        memcpy(a->t.data, t->data, bytes);
}

const GirAttr *gir_attr(const GirNode *n, const char *name)
{
    int i;
    for (i = 0; i < n->nattr; i++)
        if (strcmp(n->attrs[i].name, name) == 0)
            return &n->attrs[i];
    return NULL;
}

int64_t gir_attr_int(const GirNode *n, const char *name, int64_t dflt)
{
    const GirAttr *a = gir_attr(n, name);
    return a && a->kind == GIR_ATTR_INT ? a->i : dflt;
}

float gir_attr_float(const GirNode *n, const char *name, float dflt)
{
    const GirAttr *a = gir_attr(n, name);
    return a && a->kind == GIR_ATTR_FLOAT ? a->f : dflt;
}

const char *gir_attr_string(const GirNode *n, const char *name, const char *dflt)
{
    const GirAttr *a = gir_attr(n, name);
    return a && a->kind == GIR_ATTR_STRING ? a->s : dflt;
}

const int64_t *gir_attr_ints(const GirNode *n, const char *name, int *count)
{
    const GirAttr *a = gir_attr(n, name);
    if (!a || a->kind != GIR_ATTR_INTS) {
        *count = 0;
        return NULL;
    }
    *count = a->n;
    return a->ints;
}
