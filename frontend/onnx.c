/*
 * The ONNX reader: a ModelProto (decoded by the protobuf-c code generated
 * from the system's onnx.proto) becomes a graph IR with shapes inferred.
 *
 * Opsets 1 to 17 of the default domain are read and rewritten into the one
 * form the IR defines (opset 13 and later): attributes that later became
 * inputs turn into constant inputs, Upsample and the opset-10 Resize become
 * the canonical Resize, the pre-13 Softmax is marked coerce2d, an inference
 * Dropout becomes Identity (its mask, when read, a constant of ones), the
 * pre-7 limited broadcast (`broadcast`, `axis`) becomes numpy broadcasting
 * by reshaping B, and the attributes of opsets 1 to 6 that mean nothing at
 * inference (`consumed_inputs`, `is_test` once checked) are dropped.
 * Constant nodes become constant values, so shape rules see their data.
 *
 * Two kinds of refusal: a model that uses an op outside the op set, or a
 * type kiln has no kernel for, is "unsupported" (the conformance runner
 * counts it apart); an op of the set used in a way kiln does not take
 * (training mode, a Resize mode, an extra output) is a plain error.
 *
 * The input is hostile: names are checked before use, every tensor's element
 * count against its dims, and each error names the file and the node,
 * initializer or value it is about.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "frontend/tensor_proto.h"

#define MIN_OPSET 1
#define MAX_OPSET 17
/* Model files are read whole; protobuf itself stops at 2 GiB, and weights
 * beyond that live in external data files. */
#define MAX_MODEL_FILE ((size_t)1 << 32)
/* Inputs a node may have: the op table's widest (Concat).  Rewrites only
 * fill slots below 4, of ops whose input count they check first. */
#define MAX_NODE_INPUTS 64

/* What the whole read shares. */
typedef struct {
    GirGraph *g;                   /* the graph being built */
    const Onnx__GraphProto *gp;    /* the decoded graph, for look-ahead */
    const char *file;              /* model path for messages (in g's arena) */
    const char *dir;               /* folder external data is read from; NULL refuses */
    int opset;                     /* default-domain opset */
    int *unsupported;              /* set to 1 for well-formed input kiln does not take */
    GirError *e;                   /* where the error goes */
} Reader;

/* ONNX ops outside the op table that are rewritten into one of its ops. */
typedef enum {
    LEGACY_NONE,     /* op_type is the IR op's name */
    LEGACY_UPSAMPLE, /* Upsample -> Resize */
    LEGACY_DROPOUT,  /* Dropout at inference -> Identity */
} Legacy;

/* One ONNX node on its way into the graph. */
typedef struct {
    const Onnx__NodeProto *np; /* the source node */
    int index;                 /* its position in the graph, for made-up names */
    const char *name;          /* unique node name (in g's arena) */
    GirLoc loc;                /* file + node name */
    GirOp op;                  /* the IR op after rewriting */
    int in[MAX_NODE_INPUTS];   /* value ids; -1 for absent optional inputs */
    int nin;                   /* entries used in in */
    Legacy legacy;             /* set when op_type is not the IR op's name */
    const char *skip[12];      /* ONNX attributes consumed by a rewrite */
    int nskip;                 /* entries used in skip */
} NodeIn;

/* An error about well-formed input kiln does not take: the conformance
 * runner counts these apart from real failures. */
static int unsupported_at(Reader *r, GirLoc loc, const char *fmt, ...) GIR_PRINTF(3, 4);
static int unsupported_at(Reader *r, GirLoc loc, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    if (r->unsupported)
        *r->unsupported = 1;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return gir_error_at(r->e, loc, "%s", what);
}

static GirType unknown_type(void)
{
    GirType t;
    memset(&t, 0, sizeof t);
    t.dtype = GIR_DT_UNDEF;
    t.rank = -1;
    return t;
}

static const char *str_or_empty(const char *s) { return s ? s : ""; }

/* ---- attributes ------------------------------------------------------------ */

static const Onnx__AttributeProto *find_attr(const Onnx__NodeProto *np, const char *name)
{
    size_t i;
    for (i = 0; i < np->n_attribute; i++)
        if (np->attribute[i]->name && strcmp(np->attribute[i]->name, name) == 0)
            return np->attribute[i];
    return NULL;
}

/* The attribute's type; files from before IR version 2 leave it out, so it
 * is then read from which field is filled. */
static Onnx__AttributeProto__AttributeType attr_type(const Onnx__AttributeProto *ap)
{
    if (ap->has_type && ap->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED)
        return ap->type;
    if (ap->n_floats)
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
    if (ap->n_ints)
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
    if (ap->n_strings)
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS;
    if (ap->t)
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
    if (ap->g)
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
    if (ap->has_s)
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    if (ap->has_f)
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
    if (ap->has_i)
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
}

/* The ints of attribute name, checked to be an INTS attribute; *n = -1 when
 * absent.  Fails when present with another type. */
static int attr_ints(Reader *r, NodeIn *c, const char *name, const int64_t **v, int *n)
{
    const Onnx__AttributeProto *ap = find_attr(c->np, name);
    *v = NULL;
    *n = -1;
    if (!ap)
        return 0;
    /* An empty list written without a type reads as UNDEFINED. */
    if (attr_type(ap) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS &&
        attr_type(ap) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED)
        return gir_error_at(r->e, c->loc, "attribute '%s' must be a list of ints", name);
    if (ap->n_ints > INT_MAX / 16)
        return gir_error_at(r->e, c->loc, "attribute '%s' has too many values (%zu)", name,
                            ap->n_ints);
    *v = ap->ints;
    *n = (int)ap->n_ints;
    return 0;
}

/* A float attribute; 0 with *present = 0 when absent. */
static int attr_float(Reader *r, NodeIn *c, const char *name, float *v, int *present)
{
    const Onnx__AttributeProto *ap = find_attr(c->np, name);
    *present = 0;
    if (!ap)
        return 0;
    if (attr_type(ap) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT)
        return gir_error_at(r->e, c->loc, "attribute '%s' must be a float", name);
    *v = ap->f;
    *present = 1;
    return 0;
}

static int attr_int(Reader *r, NodeIn *c, const char *name, int64_t dflt, int64_t *v)
{
    const Onnx__AttributeProto *ap = find_attr(c->np, name);
    *v = dflt;
    if (!ap)
        return 0;
    if (attr_type(ap) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT)
        return gir_error_at(r->e, c->loc, "attribute '%s' must be an int", name);
    *v = ap->i;
    return 0;
}

/* A string attribute as a NUL-terminated copy in the graph arena; dflt when
 * absent.  Embedded NULs are refused: no ONNX string attribute has them. */
static int attr_string(Reader *r, NodeIn *c, const Onnx__AttributeProto *ap, const char *dflt,
                       const char **v)
{
    char *s;
    *v = dflt;
    if (!ap)
        return 0;
    if (attr_type(ap) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING)
        return gir_error_at(r->e, c->loc, "attribute '%s' must be a string",
                            str_or_empty(ap->name));
    if (ap->s.len && memchr(ap->s.data, '\0', ap->s.len))
        return gir_error_at(r->e, c->loc, "attribute '%s' holds a NUL byte",
                            str_or_empty(ap->name));
    s = gir_arena_alloc(r->g->arena, ap->s.len + 1);
    if (ap->s.len)
        memcpy(s, ap->s.data, ap->s.len);
    *v = s;
    return 0;
}

/* Decode a tensor attribute or initializer into a scratch arena the caller
 * frees once the data has been copied into the graph. */
static int decode_tensor(Reader *r, const Onnx__TensorProto *tp, GirArena *scratch,
                         GirTensor *t)
{
    return fe_tensor_proto_decode(tp, r->file, r->dir, scratch, r->unsupported, t, r->e);
}

static int copy_attr(Reader *r, NodeIn *c, int node, const Onnx__AttributeProto *ap)
{
    GirGraph *g = r->g;
    const char *name = ap->name;
    const char *s;
    int i;

    if (!name || !name[0])
        return gir_error_at(r->e, c->loc, "attribute without a name");
    for (i = 0; i < c->nskip; i++)
        if (strcmp(c->skip[i], name) == 0)
            return 0;
    switch (attr_type(ap)) {
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT:
        gir_set_attr_float(g, node, name, ap->f);
        return 0;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT:
        gir_set_attr_int(g, node, name, ap->i);
        return 0;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING:
        if (attr_string(r, c, ap, "", &s) != 0)
            return -1;
        gir_set_attr_string(g, node, name, s);
        return 0;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
        if (ap->n_ints > INT_MAX / 16)
            return gir_error_at(r->e, c->loc, "attribute '%s' is too long", name);
        gir_set_attr_ints(g, node, name, ap->ints, (int)ap->n_ints);
        return 0;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
        if (ap->n_floats > INT_MAX / 16)
            return gir_error_at(r->e, c->loc, "attribute '%s' is too long", name);
        gir_set_attr_floats(g, node, name, ap->floats, (int)ap->n_floats);
        return 0;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR: {
        GirArena *scratch;
        GirTensor t;
        int rc;
        if (!ap->t)
            return gir_error_at(r->e, c->loc, "tensor attribute '%s' has no tensor", name);
        scratch = gir_arena_new();
        rc = decode_tensor(r, ap->t, scratch, &t);
        if (rc == 0)
            gir_set_attr_tensor(g, node, name, &t);
        gir_arena_free(scratch);
        return rc;
    }
    default: {
        const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(
            &onnx__attribute_proto__attribute_type__descriptor, (int)attr_type(ap));
        return unsupported_at(r, c->loc, "attribute '%s' of type %s is not supported", name,
                              ev ? ev->name : "UNDEFINED");
    }
    }
}

/* ---- values ------------------------------------------------------------------ */

/* A type from a ValueInfo; symbolic or missing dims become -1, a missing
 * shape an unknown rank. */
static int value_info_type(Reader *r, const Onnx__ValueInfoProto *vi, const char *what,
                           GirType *t)
{
    GirLoc loc = gir_loc_file(r->file, -1);
    const Onnx__TypeProto *tp = vi->type;
    const Onnx__TensorShapeProto *sp;
    size_t i;

    *t = unknown_type();
    if (!tp || tp->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET)
        return gir_error_at(r->e, loc, "%s '%.256s' has no type", what, vi->name);
    if (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
        return unsupported_at(r, loc, "%s '%.256s' is not a tensor", what, vi->name);
    if (!tp->tensor_type->has_elem_type || tp->tensor_type->elem_type == 0)
        return gir_error_at(r->e, loc, "%s '%.256s' has no element type", what, vi->name);
    t->dtype = gir_dtype_from_onnx(tp->tensor_type->elem_type);
    if (t->dtype == GIR_DT_UNDEF) {
        const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(
            &onnx__tensor_proto__data_type__descriptor, tp->tensor_type->elem_type);
        if (r->unsupported)
            *r->unsupported = 1;
        return gir_error_at(r->e, loc, "%s '%.256s': unsupported data type %s", what,
                            vi->name, ev ? ev->name : "unknown");
    }
    sp = tp->tensor_type->shape;
    if (!sp)
        return 0;
    if (sp->n_dim > GIR_MAX_RANK) {
        if (r->unsupported)
            *r->unsupported = 1;
        return gir_error_at(r->e, loc, "%s '%.256s': rank %zu is above the supported %d",
                            what, vi->name, sp->n_dim, GIR_MAX_RANK);
    }
    t->rank = (int)sp->n_dim;
    for (i = 0; i < sp->n_dim; i++) {
        const Onnx__TensorShapeProto__Dimension *d = sp->dim[i];
        if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
            if (d->dim_value < 0)
                return gir_error_at(r->e, loc, "%s '%.256s': negative dimension %lld", what,
                                    vi->name, (long long)d->dim_value);
            t->dims[i] = d->dim_value;
        } else {
            t->dims[i] = -1;
        }
    }
    return 0;
}

static int read_initializers(Reader *r)
{
    const Onnx__GraphProto *gp = r->gp;
    size_t i;

    if (gp->n_sparse_initializer)
        return unsupported_at(r, gir_loc_file(r->file, -1),
                              "sparse initializers are not supported");
    for (i = 0; i < gp->n_initializer; i++) {
        const Onnx__TensorProto *tp = gp->initializer[i];
        GirArena *scratch;
        GirTensor t;
        int rc;

        if (!tp->name || !tp->name[0])
            return gir_error_at(r->e, gir_loc_file(r->file, -1),
                                "initializer %zu has no name", i);
        if (gir_find_value(r->g, tp->name) >= 0)
            return gir_error_at(r->e, gir_loc_file(r->file, -1),
                                "initializer '%.256s' is defined twice", tp->name);
        scratch = gir_arena_new();
        rc = decode_tensor(r, tp, scratch, &t);
        if (rc == 0)
            gir_add_const(r->g, tp->name, t.type, t.data, gir_loc_file(r->file, -1));
        gir_arena_free(scratch);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Graph inputs that are not initializers are fed at run time; those that are
 * (older exporters list every weight as an input) stay constants. */
static int read_inputs(Reader *r)
{
    const Onnx__GraphProto *gp = r->gp;
    size_t i, ninit = gp->n_initializer;

    for (i = 0; i < gp->n_input; i++) {
        const Onnx__ValueInfoProto *vi = gp->input[i];
        GirType t;
        int id;

        if (!vi->name || !vi->name[0])
            return gir_error_at(r->e, gir_loc_file(r->file, -1), "graph input %zu has no name",
                                i);
        id = gir_find_value(r->g, vi->name);
        if (id >= 0 && id < (int)ninit) /* initializers took the first ids */
            continue;
        if (id >= 0)
            return gir_error_at(r->e, gir_loc_file(r->file, -1),
                                "graph input '%.256s' is listed twice", vi->name);
        if (value_info_type(r, vi, "graph input", &t) != 0)
            return -1;
        id = gir_add_value(r->g, vi->name, GIR_VAL_INPUT, t, gir_loc_file(r->file, -1));
        gir_add_input(r->g, id);
    }
    return 0;
}

/* Values and nodes made for a rewritten node: named after the node so
 * messages and dumps show where they came from, and unique in the graph. */
static const char *made_value_name(Reader *r, NodeIn *c, const char *what)
{
    const char *name = gir_arena_printf(r->g->arena, "%s:%s", c->name, what);
    int k = 1;
    while (gir_find_value(r->g, name) >= 0)
        name = gir_arena_printf(r->g->arena, "%s:%s#%d", c->name, what, k++);
    return name;
}

/* The same for a node a rewrite puts in front of c. */
static const char *made_node_name(Reader *r, NodeIn *c, const char *what)
{
    const char *name = gir_arena_printf(r->g->arena, "%s:%s", c->name, what);
    int i, k = 1, taken = 1;
    while (taken) {
        taken = 0;
        for (i = 0; i < r->g->nnode && !taken; i++)
            taken = strcmp(r->g->nodes[i].name, name) == 0;
        if (taken)
            name = gir_arena_printf(r->g->arena, "%s:%s#%d", c->name, what, k++);
    }
    return name;
}

static int add_const_for(Reader *r, NodeIn *c, const char *what, GirDType dt, int rank,
                         int64_t n, const void *data)
{
    GirType t = unknown_type();
    t.dtype = dt;
    t.rank = rank;
    if (rank == 1)
        t.dims[0] = n;
    return gir_add_const(r->g, made_value_name(r, c, what), t, data, c->loc);
}

static int const_i64s(Reader *r, NodeIn *c, const char *what, const int64_t *v, int n)
{
    return add_const_for(r, c, what, GIR_DT_I64, 1, n, v);
}

static int const_f32(Reader *r, NodeIn *c, const char *what, float v)
{
    return add_const_for(r, c, what, GIR_DT_F32, 0, 1, &v);
}

/* Put value id v at input slot i, padding skipped slots with -1. */
static void set_input(NodeIn *c, int i, int v)
{
    while (c->nin <= i)
        c->in[c->nin++] = -1;
    c->in[i] = v;
}

/* True when a later node or a graph output reads the value called name. */
static int is_consumed(const Reader *r, const char *name)
{
    size_t i, j;
    for (i = 0; i < r->gp->n_node; i++)
        for (j = 0; j < r->gp->node[i]->n_input; j++)
            if (r->gp->node[i]->input[j] && strcmp(r->gp->node[i]->input[j], name) == 0)
                return 1;
    for (i = 0; i < r->gp->n_output; i++)
        if (r->gp->output[i]->name && strcmp(r->gp->output[i]->name, name) == 0)
            return 1;
    return 0;
}

/* The type of value id as far as it is known before the node reading it is
 * added: declared (graph input, initializer, constant), inferred over the
 * nodes read so far, or else the rank and dims the model's value_info gives.
 * The rank stays -1 when none of them tells.  Fails only when inference over
 * the nodes read so far fails (the error is about one of them). */
static int known_type(Reader *r, int id, GirType *t)
{
    const GirValue *v = &r->g->vals[id];
    size_t i, j;

    if (v->type.rank < 0 && gir_infer_shapes(r->g, r->e) != 0)
        return -1;
    v = &r->g->vals[id];
    *t = v->type;
    if (t->rank >= 0)
        return 0;
    for (i = 0; i < r->gp->n_value_info; i++) {
        const Onnx__ValueInfoProto *vi = r->gp->value_info[i];
        const Onnx__TensorShapeProto *sp;
        if (!vi->name || strcmp(vi->name, v->name) != 0 || !vi->type ||
            vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
            !vi->type->tensor_type || !vi->type->tensor_type->shape)
            continue;
        sp = vi->type->tensor_type->shape;
        if (sp->n_dim > GIR_MAX_RANK)
            continue;
        t->rank = (int)sp->n_dim;
        for (j = 0; j < sp->n_dim; j++)
            t->dims[j] = sp->dim[j]->value_case ==
                                     ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
                                 sp->dim[j]->dim_value >= 0
                             ? sp->dim[j]->dim_value
                             : -1;
        return 0;
    }
    return 0;
}

/* ---- rewrites of older opsets ---------------------------------------------------- */

/* Add, Sub, Mul and Div before opset 7 broadcast only B and only with
 * broadcast=1: B's shape matches the run of A's dims that starts at axis, or
 * A's trailing dims when axis is absent.  Numpy broadcasting gives the same
 * result once B reaches to A's last axis, so B gets trailing 1s: baked into
 * the type of a constant B, else by a Reshape in front of the node whose
 * shape [0,..,0,1,..,1] keeps B's dims and appends ones.  Needs both ranks. */
static int rewrite_legacy_broadcast(Reader *r, NodeIn *c)
{
    int64_t bcast, axis, at;
    int64_t shape[GIR_MAX_RANK];
    GirType ta, tb, nt;
    int trail, i, ins[2], out;

    if (attr_int(r, c, "broadcast", 0, &bcast) != 0 || attr_int(r, c, "axis", 0, &axis) != 0)
        return -1;
    c->skip[c->nskip++] = "broadcast";
    c->skip[c->nskip++] = "axis";
    /* Without broadcast the shapes are equal; without axis it is suffix
     * matching: numpy broadcasting already either way. */
    if (!bcast || !find_attr(c->np, "axis") || c->nin != 2 || c->in[0] < 0 || c->in[1] < 0)
        return 0;
    if (known_type(r, c->in[0], &ta) != 0 || known_type(r, c->in[1], &tb) != 0)
        return -1;
    if (ta.rank < 0 || tb.rank < 0)
        return gir_error_at(r->e, c->loc,
                            "%s with broadcast=1 and axis=%lld needs the rank of '%.256s', "
                            "which is not known (no value_info gives it)",
                            c->np->op_type, (long long)axis,
                            r->g->vals[c->in[ta.rank < 0 ? 0 : 1]].name);
    at = axis < 0 ? axis + ta.rank : axis;
    if (at < 0 || at > ta.rank || at + tb.rank > ta.rank)
        return gir_error_at(r->e, c->loc,
                            "%s broadcast axis %lld does not fit: B '%.256s' of rank %d "
                            "from there runs past A '%.256s' of rank %d",
                            c->np->op_type, (long long)axis, r->g->vals[c->in[1]].name,
                            tb.rank, r->g->vals[c->in[0]].name, ta.rank);
    trail = ta.rank - (int)at - tb.rank;
    if (trail == 0)
        return 0;
    nt = tb;
    nt.rank = tb.rank + trail;
    for (i = 0; i < nt.rank; i++) {
        shape[i] = i < tb.rank ? 0 : 1;
        if (i >= tb.rank)
            nt.dims[i] = 1;
    }
    if (r->g->vals[c->in[1]].kind == GIR_VAL_CONST) {
        const void *data = r->g->vals[c->in[1]].data;
        c->in[1] = gir_add_const(r->g, made_value_name(r, c, "B"), nt, data, c->loc);
        return 0;
    }
    ins[0] = c->in[1];
    ins[1] = const_i64s(r, c, "B_shape", shape, nt.rank);
    out = gir_add_value(r->g, made_value_name(r, c, "B"), GIR_VAL_NODE, unknown_type(), c->loc);
    gir_add_node(r->g, GIR_OP_RESHAPE, made_node_name(r, c, "broadcast"), ins, 2, &out, 1,
                 c->loc);
    c->in[1] = out;
    return 0;
}

/* Move an ints attribute into input slot `slot` as an i64 constant. */
static int ints_to_input(Reader *r, NodeIn *c, const char *attr, int slot, int required)
{
    const int64_t *v;
    int n;
    if (attr_ints(r, c, attr, &v, &n) != 0)
        return -1;
    c->skip[c->nskip++] = attr;
    if (n < 0) {
        if (required)
            return gir_error_at(r->e, c->loc, "missing required attribute '%s'", attr);
        return 0;
    }
    set_input(c, slot, const_i64s(r, c, attr, v, n));
    return 0;
}

/* Clip before opset 11 took its bounds as attributes. */
static int rewrite_clip(Reader *r, NodeIn *c)
{
    float lo = 0, hi = 0;
    int has_lo, has_hi;
    if (attr_float(r, c, "min", &lo, &has_lo) != 0 || attr_float(r, c, "max", &hi, &has_hi) != 0)
        return -1;
    c->skip[c->nskip++] = "min";
    c->skip[c->nskip++] = "max";
    if (has_lo)
        set_input(c, 1, const_f32(r, c, "min", lo));
    if (has_hi)
        set_input(c, 2, const_f32(r, c, "max", hi));
    return 0;
}

/* Pad before opset 11: pads (opset 1: paddings, in the same order) and
 * value were attributes. */
static int rewrite_pad(Reader *r, NodeIn *c)
{
    float value = 0;
    int has_value;
    if (ints_to_input(r, c, r->opset < 2 ? "paddings" : "pads", 1, 1) != 0)
        return -1;
    if (attr_float(r, c, "value", &value, &has_value) != 0)
        return -1;
    c->skip[c->nskip++] = "value";
    if (has_value)
        set_input(c, 2, const_f32(r, c, "value", value));
    return 0;
}

/* Slice before opset 10: starts, ends and axes were attributes. */
static int rewrite_slice(Reader *r, NodeIn *c)
{
    if (c->nin != 1)
        return gir_error_at(r->e, c->loc, "Slice at opset %d takes 1 input, not %d", r->opset,
                            c->nin);
    if (ints_to_input(r, c, "starts", 1, 1) != 0 || ints_to_input(r, c, "ends", 2, 1) != 0 ||
        ints_to_input(r, c, "axes", 3, 0) != 0)
        return -1;
    return 0;
}

/* Upsample (opsets 1 to 9; deprecated in 10) is a Resize with asymmetric
 * coordinates; nearest rounds down.  Opsets 1 to 6 scaled the last two axes
 * of a 4-D input by height_scale and width_scale, 7 and 8 held a scale per
 * axis in an attribute, 9 and later in the second input. */
static int rewrite_upsample(Reader *r, NodeIn *c)
{
    const Onnx__AttributeProto *ap = find_attr(c->np, "scales");
    int scales;
    if (r->opset < 7) {
        float hw[4] = {1, 1, 1, 1};
        int has_h, has_w;
        if (attr_float(r, c, "height_scale", &hw[2], &has_h) != 0 ||
            attr_float(r, c, "width_scale", &hw[3], &has_w) != 0)
            return -1;
        if (!has_h || !has_w)
            return gir_error_at(r->e, c->loc,
                                "Upsample at opset %d needs attributes 'height_scale' and "
                                "'width_scale'",
                                r->opset);
        if (c->nin != 1)
            return gir_error_at(r->e, c->loc, "Upsample at opset %d takes 1 input, not %d",
                                r->opset, c->nin);
        c->skip[c->nskip++] = "height_scale";
        c->skip[c->nskip++] = "width_scale";
        scales = add_const_for(r, c, "scales", GIR_DT_F32, 1, 4, hw);
    } else if (ap) {
        if (attr_type(ap) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS)
            return gir_error_at(r->e, c->loc, "attribute 'scales' must be a list of floats");
        if (c->nin != 1)
            return gir_error_at(r->e, c->loc,
                                "Upsample with a 'scales' attribute takes 1 input, not %d",
                                c->nin);
        if (ap->n_floats > GIR_MAX_RANK)
            return gir_error_at(r->e, c->loc, "attribute 'scales' has too many values (%zu)",
                                ap->n_floats);
        c->skip[c->nskip++] = "scales";
        scales = add_const_for(r, c, "scales", GIR_DT_F32, 1, (int64_t)ap->n_floats,
                               ap->floats);
    } else {
        if (c->nin != 2)
            return gir_error_at(r->e, c->loc, "Upsample needs 2 inputs (X, scales), has %d",
                                c->nin);
        scales = c->in[1];
    }
    c->nin = 1;
    set_input(c, 2, scales);
    c->op = GIR_OP_RESIZE;
    return 0;
}

/* Resize at opset 10 took (X, scales) and rounded like Upsample. */
static int rewrite_resize10(Reader *r, NodeIn *c)
{
    int scales;
    if (c->nin != 2)
        return gir_error_at(r->e, c->loc, "Resize at opset 10 needs 2 inputs (X, scales), has %d",
                            c->nin);
    scales = c->in[1];
    c->nin = 1;
    set_input(c, 2, scales);
    return 0;
}

/* The attributes an Upsample or opset-10 Resize gets in the canonical form. */
static int set_legacy_resize_attrs(Reader *r, NodeIn *c, int node)
{
    const char *mode;
    if (attr_string(r, c, find_attr(c->np, "mode"), "nearest", &mode) != 0)
        return -1;
    if (strcmp(mode, "nearest") == 0) {
        gir_set_attr_string(r->g, node, "mode", "nearest");
        gir_set_attr_string(r->g, node, "nearest_mode", "floor");
    } else if (strcmp(mode, "linear") == 0 || strcmp(mode, "bilinear") == 0) {
        gir_set_attr_string(r->g, node, "mode", "linear");
    } else {
        return gir_error_at(r->e, c->loc, "%s mode '%.64s' is not supported",
                            str_or_empty(c->np->op_type), mode);
    }
    gir_set_attr_string(r->g, node, "coordinate_transformation_mode", "asymmetric");
    return 0;
}

/* BatchNormalization: the attributes of old opsets that mean nothing at
 * inference are dropped; what only training computes is refused.  Before
 * opset 7, is_test=0 (the default) asked for batch statistics.  spatial=0
 * (opsets 1 to 8) keeps statistics per element rather than per channel: the
 * same thing only when the input has no axes past the channel. */
static int check_batchnorm(Reader *r, NodeIn *c)
{
    int64_t spatial, training, is_test;
    if (attr_int(r, c, "spatial", 1, &spatial) != 0 ||
        attr_int(r, c, "training_mode", 0, &training) != 0 ||
        attr_int(r, c, "is_test", 0, &is_test) != 0)
        return -1;
    if (r->opset < 7 && !is_test)
        return gir_error_at(r->e, c->loc,
                            "BatchNormalization at opset %d with is_test=0 uses batch "
                            "statistics (training mode), which kiln does not run",
                            r->opset);
    if (spatial == 0 && c->nin > 0 && c->in[0] >= 0) {
        GirType t;
        if (known_type(r, c->in[0], &t) != 0)
            return -1;
        if (t.rank < 0 || t.rank > 2)
            return gir_error_at(r->e, c->loc,
                                "BatchNormalization with spatial=0 (statistics per element, "
                                "not per channel) is not supported");
    }
    if (training)
        return gir_error_at(r->e, c->loc,
                            "training-mode BatchNormalization is not supported "
                            "(training_mode=1)");
    c->skip[c->nskip++] = "spatial";
    c->skip[c->nskip++] = "is_test";
    c->skip[c->nskip++] = "consumed_inputs";
    c->skip[c->nskip++] = "momentum";
    return 0;
}

/* Resize modes outside the interpreter's set are refused here, before shape
 * inference would trip over them. */
static int check_resize(Reader *r, NodeIn *c)
{
    const char *mode;
    if (attr_string(r, c, find_attr(c->np, "mode"), "nearest", &mode) != 0)
        return -1;
    if (strcmp(mode, "nearest") != 0 && strcmp(mode, "linear") != 0 &&
        strcmp(mode, "cubic") != 0)
        return gir_error_at(r->e, c->loc, "Resize mode '%.64s' is not supported", mode);
    return 0;
}

/* Dropout does nothing at inference; it is refused only when it asks for
 * training: before opset 7 by is_test=0 (the default) with a ratio above 0,
 * from opset 12 by a training_mode input that is not a constant false.  Its
 * mask output becomes a constant (node_outputs). */
static int rewrite_dropout(Reader *r, NodeIn *c)
{
    if (r->opset < 7) {
        int64_t is_test;
        float ratio = 0.5f;
        int has_ratio;
        if (attr_int(r, c, "is_test", 0, &is_test) != 0 ||
            attr_float(r, c, "ratio", &ratio, &has_ratio) != 0)
            return -1;
        if (!is_test && ratio != 0)
            return gir_error_at(r->e, c->loc,
                                "Dropout at opset %d with is_test=0 drops at random (training "
                                "mode), which kiln does not run",
                                r->opset);
    }
    if (c->nin >= 3 && c->in[2] >= 0) {
        const GirValue *v = &r->g->vals[c->in[2]];
        if (v->kind != GIR_VAL_CONST || v->type.dtype != GIR_DT_BOOL ||
            gir_type_numel(&v->type) != 1 || *(const uint8_t *)v->data != 0)
            return gir_error_at(r->e, c->loc,
                                "Dropout in training mode is not supported (training_mode "
                                "'%.256s' is not a constant false)",
                                v->name);
    }
    c->nin = c->nin > 1 ? 1 : c->nin;
    c->skip[c->nskip++] = "ratio";
    c->skip[c->nskip++] = "is_test";
    c->skip[c->nskip++] = "seed";
    return 0;
}

/* PRelu before opset 7 applied a 1-D slope of C entries per channel (axis
 * 1); numpy broadcasting needs it as [C,1,..,1].  Done for a constant slope
 * and an input of known rank; other forms broadcast as they are. */
static int rewrite_prelu(Reader *r, NodeIn *c)
{
    GirType tx, ts;
    int i;
    if (c->nin != 2 || c->in[0] < 0 || c->in[1] < 0 ||
        r->g->vals[c->in[1]].kind != GIR_VAL_CONST)
        return 0;
    if (known_type(r, c->in[0], &tx) != 0)
        return -1;
    ts = r->g->vals[c->in[1]].type;
    if (tx.rank < 3 || ts.rank != 1 || ts.dims[0] <= 1)
        return 0;
    ts.rank = tx.rank - 1;
    for (i = 1; i < ts.rank; i++)
        ts.dims[i] = 1;
    c->in[1] = gir_add_const(r->g, made_value_name(r, c, "slope"), ts,
                             r->g->vals[c->in[1]].data, c->loc);
    return 0;
}

/* Before gir_add_node: turn the node into its canonical form's inputs. */
static int rewrite_inputs(Reader *r, NodeIn *c)
{
    int o = r->opset;
    if (o < 7)
        c->skip[c->nskip++] = "consumed_inputs"; /* a legacy memory hint */
    if (c->legacy == LEGACY_UPSAMPLE)
        return rewrite_upsample(r, c);
    if (c->legacy == LEGACY_DROPOUT)
        return rewrite_dropout(r, c);
    switch (c->op) {
    case GIR_OP_SPLIT:
        return o < 13 ? ints_to_input(r, c, "split", 1, 0) : 0;
    case GIR_OP_SQUEEZE:
        return o < 13 ? ints_to_input(r, c, "axes", 1, 0) : 0;
    case GIR_OP_UNSQUEEZE:
        return o < 13 ? ints_to_input(r, c, "axes", 1, 1) : 0;
    case GIR_OP_CLIP:
        return o < 11 ? rewrite_clip(r, c) : 0;
    case GIR_OP_PAD:
        return o < 11 ? rewrite_pad(r, c) : 0;
    case GIR_OP_SLICE:
        return o < 10 ? rewrite_slice(r, c) : 0;
    case GIR_OP_RESHAPE:
        /* Before opset 5 the new shape was an attribute. */
        return o < 5 ? ints_to_input(r, c, "shape", 1, c->nin < 2) : 0;
    case GIR_OP_ADD:
    case GIR_OP_SUB:
    case GIR_OP_MUL:
    case GIR_OP_DIV:
        return o < 7 ? rewrite_legacy_broadcast(r, c) : 0;
    case GIR_OP_GEMM:
        /* Before opset 7, broadcast=1 let C broadcast; numpy broadcasting,
         * which the IR's Gemm does, covers it. */
        if (o < 7)
            c->skip[c->nskip++] = "broadcast";
        return 0;
    case GIR_OP_RESIZE:
        if (check_resize(r, c) != 0)
            return -1;
        return o < 11 ? rewrite_resize10(r, c) : 0;
    case GIR_OP_BATCHNORM:
        return check_batchnorm(r, c);
    case GIR_OP_PRELU:
        return o < 7 ? rewrite_prelu(r, c) : 0;
    case GIR_OP_TOPK:
        /* Before opset 10, K was the attribute k. */
        if (o < 10) {
            int64_t k;
            if (attr_int(r, c, "k", -1, &k) != 0)
                return -1;
            c->skip[c->nskip++] = "k";
            if (k < 0)
                return gir_error_at(r->e, c->loc, "TopK needs attribute k");
            set_input(c, 1, const_i64s(r, c, "k", &k, 1));
        }
        return 0;
    case GIR_OP_SOFTMAX:
    case GIR_OP_LOGSOFTMAX:
    case GIR_OP_HARDMAX:
        if (o < 13)
            c->skip[c->nskip++] = "coerce2d"; /* not an ONNX attribute: ours to set */
        return 0;
    case GIR_OP_REDUCEMEAN:
    case GIR_OP_REDUCEMAX:
    case GIR_OP_REDUCEMIN:
    case GIR_OP_REDUCESUM:
    case GIR_OP_REDUCEPROD:
    case GIR_OP_REDUCEL1:
    case GIR_OP_REDUCEL2:
    case GIR_OP_REDUCELOGSUM:
    case GIR_OP_REDUCELOGSUMEXP:
    case GIR_OP_REDUCESUMSQUARE:
        /* axes became an input (ReduceSum at 13, the others at 18). */
        if (c->nin > 1)
            return 0;
        return ints_to_input(r, c, "axes", 1, 0);
    case GIR_OP_CAST: {
        int64_t to;
        if (attr_int(r, c, "to", 0, &to) != 0)
            return -1;
        if (to <= 0 || to > 64 || gir_dtype_from_onnx((int)to) == GIR_DT_UNDEF)
            return unsupported_at(r, c->loc, "Cast to ONNX data type %lld is not supported",
                                  (long long)to);
        return 0;
    }
    default:
        return 0;
    }
}

/* After the attributes are copied: the ones the canonical form adds. */
static int set_canonical_attrs(Reader *r, NodeIn *c, int node)
{
    GirNode *n = &r->g->nodes[node];
    if (c->legacy == LEGACY_UPSAMPLE || (c->op == GIR_OP_RESIZE && r->opset < 11))
        return set_legacy_resize_attrs(r, c, node);
    if (c->op == GIR_OP_ROIALIGN && r->opset < 16 &&
        !gir_attr(n, "coordinate_transformation_mode")) /* before 16: no half-pixel shift */
        gir_set_attr_string(r->g, node, "coordinate_transformation_mode", "output_half_pixel");
    if (c->op == GIR_OP_CONCAT && r->opset < 4 && !gir_attr(n, "axis"))
        gir_set_attr_int(r->g, node, "axis", 1); /* the default before opset 4 */
    if ((c->op == GIR_OP_SOFTMAX || c->op == GIR_OP_LOGSOFTMAX || c->op == GIR_OP_HARDMAX) &&
        r->opset < 13) {
        /* Before 13, Softmax flattened to 2-D around axis (default 1). */
        if (!gir_attr(n, "axis"))
            gir_set_attr_int(r->g, node, "axis", 1);
        gir_set_attr_int(r->g, node, "coerce2d", 1);
    }
    return 0;
}

/* ---- nodes ------------------------------------------------------------------------ */

/* Constant nodes become constant values named after their output. */
static int read_constant(Reader *r, NodeIn *c)
{
    const Onnx__NodeProto *np = c->np;
    const Onnx__AttributeProto *ap;
    const char *out;
    GirType t = unknown_type();
    int64_t i64;
    float f32;

    if (np->n_input != 0 || np->n_output != 1 || np->n_attribute != 1)
        return gir_error_at(r->e, c->loc,
                            "Constant needs no inputs, one output and one attribute");
    out = np->output[0];
    if (!out || !out[0])
        return gir_error_at(r->e, c->loc, "Constant output has no name");
    if (gir_find_value(r->g, out) >= 0)
        return gir_error_at(r->e, c->loc, "output '%.256s' is already defined", out);
    ap = np->attribute[0];
    if (!ap->name)
        return gir_error_at(r->e, c->loc, "attribute without a name");
    t.rank = 0;
    if (strcmp(ap->name, "value") == 0 &&
        attr_type(ap) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR && ap->t) {
        GirArena *scratch = gir_arena_new();
        GirTensor v;
        int rc = decode_tensor(r, ap->t, scratch, &v);
        if (rc == 0)
            gir_add_const(r->g, out, v.type, v.data, c->loc);
        gir_arena_free(scratch);
        return rc;
    }
    if (strcmp(ap->name, "value_float") == 0 &&
        attr_type(ap) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) {
        t.dtype = GIR_DT_F32;
        f32 = ap->f;
        gir_add_const(r->g, out, t, &f32, c->loc);
        return 0;
    }
    if (strcmp(ap->name, "value_int") == 0 &&
        attr_type(ap) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT) {
        t.dtype = GIR_DT_I64;
        i64 = ap->i;
        gir_add_const(r->g, out, t, &i64, c->loc);
        return 0;
    }
    if (strcmp(ap->name, "value_floats") == 0 &&
        attr_type(ap) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS) {
        t.dtype = GIR_DT_F32;
        t.rank = 1;
        t.dims[0] = (int64_t)ap->n_floats;
        gir_add_const(r->g, out, t, ap->floats, c->loc);
        return 0;
    }
    if (strcmp(ap->name, "value_ints") == 0 &&
        attr_type(ap) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS) {
        t.dtype = GIR_DT_I64;
        t.rank = 1;
        t.dims[0] = (int64_t)ap->n_ints;
        gir_add_const(r->g, out, t, ap->ints, c->loc);
        return 0;
    }
    return unsupported_at(r, c->loc, "Constant with attribute '%.64s' is not supported",
                          ap->name);
}

/* A unique node name: the ONNX one, or "op_type#index" when it has none;
 * a repeated name gets "#index" appended. */
static const char *node_name(Reader *r, const Onnx__NodeProto *np, int index)
{
    GirGraph *g = r->g;
    const char *name;
    int i;
    if (np->name && np->name[0])
        name = gir_arena_strdup(g->arena, np->name);
    else
        name = gir_arena_printf(g->arena, "%s#%d", str_or_empty(np->op_type), index);
    for (i = 0; i < g->nnode; i++)
        if (strcmp(g->nodes[i].name, name) == 0)
            return gir_arena_printf(g->arena, "%s#%d", name, index);
    return name;
}

/* The largest Dropout mask made a constant; beyond it the model is refused
 * rather than the memory spent. */
#define MAX_MASK_BYTES ((int64_t)1 << 28)

/* At inference Dropout keeps every element, so a mask that something reads
 * is a constant of ones named name: bool from opset 10, the input's type
 * before.  Needs the input's shape. */
static int dropout_mask(Reader *r, NodeIn *c, const char *name)
{
    GirType t;
    GirArena *scratch;
    int64_t n, i;
    size_t size;
    void *data;

    if (gir_find_value(r->g, name) >= 0)
        return gir_error_at(r->e, c->loc, "output '%.256s' is already defined", name);
    if (c->nin < 1 || c->in[0] < 0)
        return gir_error_at(r->e, c->loc, "Dropout input 0 is required");
    if (known_type(r, c->in[0], &t) != 0)
        return -1;
    if (!gir_type_is_static(&t))
        return gir_error_at(r->e, c->loc,
                            "Dropout mask '%.256s' needs the shape of input '%.256s', which "
                            "is not known",
                            name, r->g->vals[c->in[0]].name);
    if (r->opset >= 10)
        t.dtype = GIR_DT_BOOL;
    else if (t.dtype != GIR_DT_F32 && t.dtype != GIR_DT_F64)
        return gir_error_at(r->e, c->loc, "Dropout mask '%.256s' of type %s is not supported",
                            name, gir_dtype_name(t.dtype));
    n = gir_type_numel(&t);
    size = gir_dtype_size(t.dtype);
    if (n < 0 || n > MAX_MASK_BYTES / (int64_t)size)
        return gir_error_at(r->e, c->loc, "Dropout mask '%.256s' is too large", name);
    scratch = gir_arena_new();
    data = gir_arena_alloc(scratch, (size_t)n * size + 1);
    for (i = 0; i < n; i++) {
        if (t.dtype == GIR_DT_BOOL)
            ((uint8_t *)data)[i] = 1;
        else if (t.dtype == GIR_DT_F32)
            ((float *)data)[i] = 1.0f;
        else
            ((double *)data)[i] = 1.0;
    }
    gir_add_const(r->g, name, t, data, c->loc);
    gir_arena_free(scratch);
    return 0;
}

/* Output value ids for the node.  Every IR op but Split and MaxPool (when
 * its Indices are read) yields one value:
 * further ONNX outputs (MaxPool's Indices, BatchNormalization's running
 * statistics, ...) are dropped when nothing reads them and refused when
 * something does; a Dropout mask that is read becomes a constant. */
static int node_outputs(Reader *r, NodeIn *c, int **outs, int *nout)
{
    const Onnx__NodeProto *np = c->np;
    size_t n = np->n_output, i;
    int *ids;

    while (n > 0 && (!np->output[n - 1] || !np->output[n - 1][0]))
        n--;
    if (n == 0)
        return gir_error_at(r->e, c->loc, "node has no outputs");
    if (c->op != GIR_OP_SPLIT && n > 1 && !(c->op == GIR_OP_LAYERNORM && n <= 3) &&
        !((c->op == GIR_OP_SCELOSS || c->op == GIR_OP_TOPK) && n <= 2) &&
        !(c->op == GIR_OP_DYNQUANT && n <= 3) &&
        !(c->op == GIR_OP_MAXPOOL && n == 2 && is_consumed(r, np->output[1]))) {
        for (i = 1; i < n; i++) {
            if (!np->output[i] || !np->output[i][0] || !is_consumed(r, np->output[i]))
                continue;
            if (c->legacy == LEGACY_DROPOUT && i == 1) {
                if (dropout_mask(r, c, np->output[i]) != 0)
                    return -1;
                continue;
            }
            if (c->op == GIR_OP_BATCHNORM)
                return gir_error_at(r->e, c->loc,
                                    "training-mode BatchNormalization is not supported "
                                    "(output '%.256s' is used)",
                                    np->output[i]);
            return gir_error_at(r->e, c->loc,
                                "%.128s output '%.256s' (beyond the first) is not supported",
                                np->op_type, np->output[i]);
        }
        n = 1;
    }
    if (n > (size_t)INT_MAX / sizeof(int))
        return gir_error_at(r->e, c->loc, "too many outputs");
    ids = gir_arena_alloc(r->g->arena, n * sizeof(int));
    for (i = 0; i < n; i++) {
        const char *name = np->output[i];
        if (!name || !name[0]) {
            /* A skipped output between used ones still needs a value. */
            name = gir_arena_printf(r->g->arena, "%s:out%zu", c->name, i);
            while (gir_find_value(r->g, name) >= 0)
                name = gir_arena_printf(r->g->arena, "%s:out%zu#", name, i);
        } else if (gir_find_value(r->g, name) >= 0) {
            return gir_error_at(r->e, c->loc, "output '%.256s' is already defined", name);
        }
        ids[i] = gir_add_value(r->g, name, GIR_VAL_NODE, unknown_type(), c->loc);
    }
    *outs = ids;
    *nout = (int)n;
    return 0;
}

static int read_node(Reader *r, const Onnx__NodeProto *np, int index)
{
    NodeIn c;
    const char *op_type = np->op_type;
    int op, node, nout = 0, *outs = NULL;
    size_t i;

    memset(&c, 0, sizeof c);
    c.np = np;
    c.index = index;
    c.name = node_name(r, np, index);
    c.loc = gir_loc_file(r->file, -1);
    c.loc.node = c.name;

    if (!op_type || !op_type[0])
        return gir_error_at(r->e, c.loc, "node has no op_type");
    if (np->domain && np->domain[0] && strcmp(np->domain, "ai.onnx") != 0)
        return unsupported_at(r, c.loc, "unsupported op '%.128s' of domain '%.128s'", op_type,
                              np->domain);
    if (r->opset == 0)
        return gir_error_at(r->e, c.loc, "op '%.128s' of the default domain, but the model "
                            "imports no opset for it", op_type);
    if (strcmp(op_type, "Upsample") == 0) {
        op = GIR_OP_RESIZE;
        c.legacy = LEGACY_UPSAMPLE;
    } else if (strcmp(op_type, "Scatter") == 0) {
        op = GIR_OP_SCATTERELEMENTS; /* its opset-9 name */
    } else if (strcmp(op_type, "Dropout") == 0) {
        op = GIR_OP_IDENTITY;
        c.legacy = LEGACY_DROPOUT;
    } else {
        op = gir_op_from_name(op_type);
    }
    if (op < 0 || op == GIR_OP_YOLO)
        return unsupported_at(r, c.loc, "unsupported op '%.128s'", op_type);
    c.op = (GirOp)op;

    if (c.op == GIR_OP_CONSTANT)
        return read_constant(r, &c);

    if (np->n_input > MAX_NODE_INPUTS)
        return gir_error_at(r->e, c.loc, "%s has %zu inputs; at most %d are allowed",
                            op_type, np->n_input, gir_op_max_inputs(c.op));
    for (i = 0; i < np->n_input; i++) {
        const char *in = np->input[i];
        int id = -1;
        if (in && in[0]) {
            id = gir_find_value(r->g, in);
            if (id < 0)
                return gir_error_at(r->e, c.loc,
                                    "input '%.256s' is not a graph input, initializer or "
                                    "output of an earlier node",
                                    in);
        }
        c.in[c.nin++] = id;
    }
    if (rewrite_inputs(r, &c) != 0)
        return -1;
    while (c.nin > 0 && c.in[c.nin - 1] < 0)
        c.nin--;
    if (c.nin < gir_op_min_inputs(c.op) || c.nin > gir_op_max_inputs(c.op)) {
        if (gir_op_min_inputs(c.op) == gir_op_max_inputs(c.op))
            return gir_error_at(r->e, c.loc, "%s takes %d input%s, not %d", op_type,
                                gir_op_min_inputs(c.op),
                                gir_op_min_inputs(c.op) == 1 ? "" : "s", c.nin);
        return gir_error_at(r->e, c.loc, "%s takes %d to %d inputs, not %d", op_type,
                            gir_op_min_inputs(c.op), gir_op_max_inputs(c.op), c.nin);
    }
    for (i = 0; i < (size_t)gir_op_min_inputs(c.op); i++)
        if (c.in[i] < 0)
            return gir_error_at(r->e, c.loc, "%s input %zu is required", op_type, i);
    if (node_outputs(r, &c, &outs, &nout) != 0)
        return -1;

    node = gir_add_node(r->g, c.op, c.name, c.in, c.nin, outs, nout, c.loc);
    for (i = 0; i < np->n_attribute; i++)
        if (copy_attr(r, &c, node, np->attribute[i]) != 0)
            return -1;
    return set_canonical_attrs(r, &c, node);
}

static int read_outputs(Reader *r)
{
    size_t i;
    for (i = 0; i < r->gp->n_output; i++) {
        const char *name = r->gp->output[i]->name;
        int id;
        if (!name || !name[0])
            return gir_error_at(r->e, gir_loc_file(r->file, -1), "graph output %zu has no name",
                                i);
        id = gir_find_value(r->g, name);
        if (id < 0)
            return gir_error_at(r->e, gir_loc_file(r->file, -1),
                                "graph output '%.256s' is not produced by any node, input or "
                                "initializer",
                                name);
        gir_add_output(r->g, id);
    }
    if (r->gp->n_output == 0)
        return gir_error_at(r->e, gir_loc_file(r->file, -1), "the graph has no outputs");
    return 0;
}

/* The default-domain opset of the model, checked to be one kiln reads. */
static int read_opset(Reader *r, const Onnx__ModelProto *mp)
{
    GirLoc loc = gir_loc_file(r->file, -1);
    int64_t v = -1;
    size_t i;
    for (i = 0; i < mp->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *os = mp->opset_import[i];
        if (!os->domain || !os->domain[0] || strcmp(os->domain, "ai.onnx") == 0)
            v = os->has_version ? os->version : -1;
    }
    if (v < 0) {
        /* A model of only other domains' ops (training, ML) imports none;
         * its nodes are refused one by one. */
        r->opset = 0;
        return 0;
    }
    if (v < MIN_OPSET || v > MAX_OPSET) {
        if (r->unsupported)
            *r->unsupported = 1;
        return gir_error_at(r->e, loc, "opset %lld is not supported (kiln reads opsets %d to %d)",
                            (long long)v, MIN_OPSET, MAX_OPSET);
    }
    r->opset = (int)v;
    return 0;
}

static int read_graph(Reader *r)
{
    size_t i;
    if (read_initializers(r) != 0 || read_inputs(r) != 0)
        return -1;
    if (r->gp->n_node > INT_MAX)
        return gir_error_at(r->e, gir_loc_file(r->file, -1), "too many nodes");
    for (i = 0; i < r->gp->n_node; i++)
        if (read_node(r, r->gp->node[i], (int)i) != 0)
            return -1;
    if (read_outputs(r) != 0)
        return -1;
    return gir_infer_shapes(r->g, r->e);
}

GirGraph *fe_onnx_from_memory(const uint8_t *buf, size_t len, const char *path,
                              int *unsupported, GirError *e)
{
    const char *file = path ? path : FE_MEMORY_NAME;
    Onnx__ModelProto *mp;
    Reader r;
    int rc;

    if (unsupported)
        *unsupported = 0;
    mp = onnx__model_proto__unpack(NULL, len, buf);
    if (!mp) {
        gir_error_at(e, gir_loc_file(file, -1),
                     "not a valid ONNX model (protobuf decode failed)");
        return NULL;
    }
    memset(&r, 0, sizeof r);
    r.unsupported = unsupported;
    r.e = e;
    r.file = file;
    if (!mp->graph) {
        gir_error_at(e, gir_loc_file(file, -1), "the model has no graph");
        onnx__model_proto__free_unpacked(mp, NULL);
        return NULL;
    }
    r.gp = mp->graph;
    r.g = gir_graph_new(mp->graph->name && mp->graph->name[0] ? mp->graph->name : "model");
    r.file = gir_arena_strdup(r.g->arena, file);
    r.dir = fe_dir_of(r.g->arena, path);
    r.g->source = r.file;
    rc = read_opset(&r, mp);
    if (rc == 0) {
        r.g->opset = r.opset;
        rc = read_graph(&r);
    }
    onnx__model_proto__free_unpacked(mp, NULL);
    if (rc != 0) {
        gir_graph_free(r.g);
        return NULL;
    }
    return r.g;
}

GirGraph *fe_load_onnx(const char *path, int *unsupported, GirError *e)
{
    GirGraph *g;
    uint8_t *buf;
    size_t len;

    if (unsupported)
        *unsupported = 0;
    buf = fe_read_file(path, MAX_MODEL_FILE, &len, e);
    if (!buf)
        return NULL;
    g = fe_onnx_from_memory(buf, len, path, unsupported, e);
    free(buf);
    return g;
}
