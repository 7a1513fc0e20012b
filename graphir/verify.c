/*
 * gir_verify: the structural invariants every pass may assume and must keep.
 *
 * It runs after the frontends, after every pass in every build type (the
 * pass manager, graphir/pass.c) and at the end of gir_parse.  It only reads
 * the graph and reports the first broken invariant, naming the node (or
 * value) and its source place:
 *
 *   - value ids in range; every value named, names unique; types well formed
 *     (known dtype, rank -1..GIR_MAX_RANK, dims >= -1), layouts only on 4-D
 *   - graph inputs are input values, each listed once; constants have a
 *     static type and their data
 *   - every node output is a node value whose producer is that node, so a
 *     value is produced at most once and never by a node when it is a graph
 *     input or a constant
 *   - nodes in topological order: each input is a graph input, a constant or
 *     an output of an earlier node
 *   - input counts within the op table; -1 (absent) only at optional
 *     positions; node names unique; attribute names unique per node
 *   - graph outputs are defined
 *
 * Shape agreement is gir_infer_shapes' business, not checked here.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graphir.h"

/* A set of names, open addressing; malloc'd because the graph is const and
 * its arena must not grow from a check. */
typedef struct {
    const char **slots; /* NULL: empty */
    size_t cap;         /* a power of two */
} NameSet;

static void set_init(NameSet *s, int expect)
{
    s->cap = 64;
    while (s->cap < 2 * (size_t)expect + 2)
        s->cap *= 2;
    s->slots = calloc(s->cap, sizeof *s->slots);
    if (!s->slots)
        gir_die("out of memory");
}

/* 1 when name was added, 0 when it was already there.  Sized by set_init
 * to stay at most half full. */
static int set_add(NameSet *s, const char *name)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    const char *p;
    size_t i;
    for (p = name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    for (i = (size_t)h & (s->cap - 1); s->slots[i]; i = (i + 1) & (s->cap - 1))
        if (strcmp(s->slots[i], name) == 0)
            return 0;
    s->slots[i] = name;
    return 1;
}

/* What is wrong with a type, or NULL.  Checked before anything else reads
 * dims or sizes the dtype. */
static const char *type_problem(const GirType *t)
{
    int i;
    if ((unsigned)t->dtype >= GIR_DT_COUNT)
        return "unknown element type";
    if (t->rank < -1 || t->rank > GIR_MAX_RANK)
        return "rank out of range";
    for (i = 0; i < t->rank; i++)
        if (t->dims[i] < -1)
            return "negative dimension";
    return NULL;
}

/* The value as the text form names it (%x, or %"a b"), for messages. */
static const char *vname(const GirGraph *g, int id, char *buf, size_t size)
{
    const char *s = g->vals[id].name;
    size_t k = 1;
    buf[0] = '%';
    for (; *s && k + 6 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f)
            buf[k++] = (char)c;
        else
            k += (size_t)snprintf(buf + k, size - k, "\\x%02x", c);
    }
    buf[k] = '\0';
    return buf;
}

/* Where a node's message goes and how it starts: "node 'conv3' (Conv)".
 * When the location already names the node, it is not named twice. */
static GirLoc node_place(const GirNode *n, char *buf, size_t size)
{
    GirLoc loc = n->loc;
    const char *op = (unsigned)n->op < GIR_OP_COUNT ? gir_op_name(n->op) : "?";
    if (loc.node && n->name && strcmp(loc.node, n->name) == 0)
        loc.node = NULL;
    snprintf(buf, size, "node '%s' (%s)", n->name ? n->name : "", op);
    return loc;
}

/* Per-channel scales: an i8 value of rank >= 2 whose channel axis (1, the
 * last when NHWC) has one entry per scale, each positive and finite. */
static int chscale_fits(const GirValue *v)
{
    const GirType *t = &v->type;
    int axis = v->layout == GIR_LAYOUT_NHWC ? t->rank - 1 : 1, c;
    if (t->rank < 0)
        return v->nchscale >= 2; /* not inferred yet */
    if (t->dtype != GIR_DT_I8 || t->rank < 2 || v->nchscale < 2)
        return 0;
    if (t->dims[axis] >= 0 && t->dims[axis] != v->nchscale)
        return 0;
    for (c = 0; c < v->nchscale; c++)
        if (!(v->chscale[c] > 0) || isinf(v->chscale[c]))
            return 0;
    return 1;
}

static int check_values(const GirGraph *g, GirError *e)
{
    char vb[160];
    const char *why;
    NameSet names;
    int i, rc = 0;
    set_init(&names, g->nval);
    for (i = 0; i < g->nval && rc == 0; i++) {
        const GirValue *v = &g->vals[i];
        if (!v->name || !v->name[0]) {
            rc = gir_error_at(e, v->loc, "value %d has no name", i);
            break;
        }
        if (!set_add(&names, v->name)) {
            rc = gir_error_at(e, v->loc, "value %s: name used by two values",
                              vname(g, i, vb, sizeof vb));
            break;
        }
        why = type_problem(&v->type);
        if (why) {
            rc = gir_error_at(e, v->loc, "value %s: %s in its type", vname(g, i, vb, sizeof vb),
                              why);
            break;
        }
        if (v->layout != GIR_LAYOUT_ANY && v->layout != GIR_LAYOUT_NCHW &&
            v->layout != GIR_LAYOUT_NHWC)
            rc = gir_error_at(e, v->loc, "value %s: unknown layout %d",
                              vname(g, i, vb, sizeof vb), (int)v->layout);
        else if (v->layout != GIR_LAYOUT_ANY && v->type.rank != 4 && v->type.rank != -1)
            rc = gir_error_at(e, v->loc, "value %s: a layout on a rank-%d type (4-D only)",
                              vname(g, i, vb, sizeof vb), v->type.rank);
        else if (v->chscale && !chscale_fits(v))
            rc = gir_error_at(e, v->loc, "value %s: %d per-channel scales need an i8 value "
                              "with %d channels and positive finite scales",
                              vname(g, i, vb, sizeof vb), v->nchscale, v->nchscale);
        else if (v->kind != GIR_VAL_INPUT && v->kind != GIR_VAL_CONST && v->kind != GIR_VAL_NODE)
            rc = gir_error_at(e, v->loc, "value %s: unknown kind %d", vname(g, i, vb, sizeof vb),
                              (int)v->kind);
        else if (v->kind != GIR_VAL_NODE && v->producer != -1)
            rc = gir_error_at(e, v->loc, "value %s: a %s with producer node %d",
                              vname(g, i, vb, sizeof vb),
                              v->kind == GIR_VAL_INPUT ? "graph input" : "constant", v->producer);
        else if (v->kind == GIR_VAL_CONST && gir_type_bytes(&v->type) < 0)
            rc = gir_error_at(e, v->loc, "constant %s: type is not static",
                              vname(g, i, vb, sizeof vb));
        else if (v->kind == GIR_VAL_CONST && gir_type_bytes(&v->type) > 0 && !v->data)
            rc = gir_error_at(e, v->loc, "constant %s: has no data", vname(g, i, vb, sizeof vb));
        else if (v->kind == GIR_VAL_NODE && v->producer != -1 &&
                 (v->producer < 0 || v->producer >= g->nnode))
            rc = gir_error_at(e, v->loc, "value %s: producer node %d out of range (%d nodes)",
                              vname(g, i, vb, sizeof vb), v->producer, g->nnode);
    }
    free(names.slots);
    return rc;
}

static int check_attrs(const GirNode *n, GirError *e)
{
    char where[300];
    GirLoc loc = node_place(n, where, sizeof where);
    int i, j;
    for (i = 0; i < n->nattr; i++) {
        const GirAttr *a = &n->attrs[i];
        if (!a->name)
            return gir_error_at(e, loc, "%s: attribute %d has no name", where, i);
        for (j = 0; j < i; j++)
            if (strcmp(n->attrs[j].name, a->name) == 0)
                return gir_error_at(e, loc, "%s: attribute '%s' given twice", where, a->name);
        switch (a->kind) {
        case GIR_ATTR_INT:
        case GIR_ATTR_FLOAT:
            break;
        case GIR_ATTR_STRING:
            if (!a->s)
                return gir_error_at(e, loc, "%s: string attribute '%s' has no text", where,
                                    a->name);
            break;
        case GIR_ATTR_INTS:
        case GIR_ATTR_FLOATS:
            if (a->n < 0 || (a->n > 0 && !(a->kind == GIR_ATTR_INTS ? (void *)a->ints
                                                                     : (void *)a->floats)))
                return gir_error_at(e, loc, "%s: list attribute '%s' has %d entries and %s",
                                    where, a->name, a->n, a->n < 0 ? "a bad count" : "no data");
            break;
        case GIR_ATTR_TENSOR:
            if (type_problem(&a->t.type) || gir_type_bytes(&a->t.type) < 0)
                return gir_error_at(e, loc, "%s: tensor attribute '%s' has no static type",
                                    where, a->name);
            if (gir_type_bytes(&a->t.type) > 0 && !a->t.data)
                return gir_error_at(e, loc, "%s: tensor attribute '%s' has no data", where,
                                    a->name);
            break;
        default:
            return gir_error_at(e, loc, "%s: attribute '%s' of unknown kind %d", where, a->name,
                                (int)a->kind);
        }
    }
    return 0;
}

/* defined[v]: v may be read at this point of the node order. */
static int check_node(const GirGraph *g, int id, unsigned char *defined, GirError *e)
{
    const GirNode *n = &g->nodes[id];
    char where[300], vb[160];
    GirLoc loc = node_place(n, where, sizeof where);
    int i, j, lo, hi;

    if ((unsigned)n->op >= GIR_OP_COUNT)
        return gir_error_at(e, loc, "%s: unknown op %d", where, (int)n->op);
    if (n->nin < 0 || n->nout < 0 || n->nattr < 0 || (n->nin > 0 && !n->in) ||
        (n->nout > 0 && !n->out) || (n->nattr > 0 && !n->attrs))
        return gir_error_at(e, loc, "%s: bad input, output or attribute arrays", where);
    lo = gir_op_min_inputs(n->op);
    hi = gir_op_max_inputs(n->op);
    if (n->nin < lo || n->nin > hi) {
        if (lo == hi)
            return gir_error_at(e, loc, "%s: has %d inputs, the op takes %d", where, n->nin, lo);
        return gir_error_at(e, loc, "%s: has %d inputs, the op takes %d to %d", where, n->nin,
                            lo, hi);
    }
    for (i = 0; i < n->nin; i++) {
        int v = n->in[i];
        if (v == -1) {
            if (i < lo)
                return gir_error_at(e, loc, "%s: required input %d is absent", where, i);
            continue;
        }
        if (v < 0 || v >= g->nval)
            return gir_error_at(e, loc, "%s: input %d is value id %d, out of range (%d values)",
                                where, i, v, g->nval);
        if (defined[v])
            continue;
        if (g->vals[v].kind == GIR_VAL_NODE && g->vals[v].producer >= id)
            return gir_error_at(e, loc,
                                "%s: input %d uses %s before node '%s' defines it (nodes out "
                                "of topological order)",
                                where, i, vname(g, v, vb, sizeof vb),
                                g->nodes[g->vals[v].producer].name
                                    ? g->nodes[g->vals[v].producer].name
                                    : "");
        return gir_error_at(e, loc, "%s: input %d is undefined value %s", where, i,
                            vname(g, v, vb, sizeof vb));
    }
    if (n->nout < 1)
        return gir_error_at(e, loc, "%s: has no outputs", where);
    for (i = 0; i < n->nout; i++) {
        int v = n->out[i];
        const GirValue *val;
        if (v < 0 || v >= g->nval)
            return gir_error_at(e, loc, "%s: output %d is value id %d, out of range (%d values)",
                                where, i, v, g->nval);
        val = &g->vals[v];
        if (val->kind == GIR_VAL_INPUT || val->kind == GIR_VAL_CONST)
            return gir_error_at(e, loc, "%s: output %d is %s %s", where, i,
                                val->kind == GIR_VAL_INPUT ? "graph input" : "constant",
                                vname(g, v, vb, sizeof vb));
        if (val->producer != id)
            return gir_error_at(e, loc, "%s: output %d %s has producer %d, not this node (%d)",
                                where, i, vname(g, v, vb, sizeof vb), val->producer, id);
        for (j = 0; j < i; j++)
            if (n->out[j] == v)
                return gir_error_at(e, loc, "%s: output %d %s is listed twice", where, i,
                                    vname(g, v, vb, sizeof vb));
    }
    if (check_attrs(n, e) < 0)
        return -1;
    for (i = 0; i < n->nout; i++)
        defined[n->out[i]] = 1;
    return 0;
}

int gir_verify(const GirGraph *g, GirError *e)
{
    GirLoc none = {g->source, 0, -1, NULL};
    char vb[160], where[300];
    unsigned char *defined;
    NameSet node_names;
    int i, rc = 0;

    if (g->nval < 0 || g->nnode < 0 || g->ninput < 0 || g->noutput < 0 ||
        (g->nval > 0 && !g->vals) || (g->nnode > 0 && !g->nodes) ||
        (g->ninput > 0 && !g->inputs) || (g->noutput > 0 && !g->outputs))
        return gir_error_at(e, none, "graph '%s': bad value, node, input or output arrays",
                            g->name ? g->name : "");
    if (check_values(g, e) < 0)
        return -1;

    defined = calloc((size_t)g->nval + 1, 1);
    if (!defined)
        gir_die("out of memory");
    for (i = 0; i < g->ninput && rc == 0; i++) {
        int v = g->inputs[i];
        if (v < 0 || v >= g->nval)
            rc = gir_error_at(e, none, "graph input %d is value id %d, out of range (%d values)",
                              i, v, g->nval);
        else if (g->vals[v].kind != GIR_VAL_INPUT)
            rc = gir_error_at(e, g->vals[v].loc, "graph input %d %s is a %s", i,
                              vname(g, v, vb, sizeof vb),
                              g->vals[v].kind == GIR_VAL_CONST ? "constant" : "node output");
        else if (defined[v])
            rc = gir_error_at(e, g->vals[v].loc, "graph input %d %s is listed twice", i,
                              vname(g, v, vb, sizeof vb));
        else
            defined[v] = 1;
    }
    for (i = 0; i < g->nval; i++)
        if (g->vals[i].kind == GIR_VAL_CONST)
            defined[i] = 1;

    set_init(&node_names, g->nnode);
    for (i = 0; i < g->nnode && rc == 0; i++) {
        const GirNode *n = &g->nodes[i];
        if (n->name && !set_add(&node_names, n->name)) {
            GirLoc loc = node_place(n, where, sizeof where);
            rc = gir_error_at(e, loc, "%s: name used by two nodes", where);
            break;
        }
        rc = check_node(g, i, defined, e);
    }
    free(node_names.slots);

    /* Every node's outputs are marked by now, so a node value left unmarked
     * names a producer that does not list it. */
    for (i = 0; i < g->nval && rc == 0; i++) {
        const GirValue *v = &g->vals[i];
        if (v->kind == GIR_VAL_NODE && v->producer != -1 && !defined[i])
            rc = gir_error_at(e, v->loc, "value %s: producer node '%s' does not list it",
                              vname(g, i, vb, sizeof vb),
                              g->nodes[v->producer].name ? g->nodes[v->producer].name : "");
    }
    for (i = 0; i < g->noutput && rc == 0; i++) {
        int v = g->outputs[i];
        if (v < 0 || v >= g->nval)
            rc = gir_error_at(e, none, "graph output %d is value id %d, out of range (%d values)",
                              i, v, g->nval);
        else if (!defined[v])
            rc = gir_error_at(e, g->vals[v].loc, "graph output %d %s is not defined", i,
                              vname(g, v, vb, sizeof vb));
    }
    free(defined);
    return rc;
}
