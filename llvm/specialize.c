/*
 * Run-time shape specialization: a graph whose shapes wait on the values of
 * some graph inputs (a Reshape's or an Expand's shape, TopK's K, Tile's
 * repeats, Pad's pads, Slice's starts and ends, Resize's scales or sizes,
 * Squeeze's axes, ... fed as inputs) has no static form for klv_compile.
 * Given a run's inputs, those inputs' values are bound as constants in a
 * copy of the graph (the inputs stay inputs of the copy, unread, so the
 * run's interface is the graph's), shape inference and the given passes
 * (constant folding at least) make the copy static, and it is compiled.
 * The programs are kept in a small cache keyed by the bound values and the
 * dims of every input: a run with values seen before reuses its program,
 * new values compile another (the least recently used is dropped past
 * SPEC_CACHE programs).
 *
 * Only graph-input values are bound: a shape decided by a computed value of
 * data-dependent extent (NonZero's, NonMaxSuppression's, Compress's output)
 * is not specialized, nor one that needs an input of more than
 * SPEC_MAX_ELEMS entries.
 *
 * Extents (klv_spec_new_extents): a graph that compiles, but whose
 * program leaves to the interpreter nodes reading a ConstantOfShape's,
 * Range's or OneHot's output sized at run time from input values, binds
 * those inputs instead.  Each copy folds only the operands that size those
 * nodes (their values taken from a folded scratch copy), so the rest of
 * the graph stays nodes and compiles with static shapes.
 */
#include <stdlib.h>
#include <string.h>

#include "llvm/llvm.h"

#define SPEC_CACHE 8        /* programs kept per graph */
#define SPEC_MAX_ELEMS 4096 /* entries of an input whose values may be bound */

/* One compiled specialization. */
typedef struct {
    unsigned char *key; /* the bound values and the input dims (spec_key) */
    size_t nkey;        /* bytes of key */
    GirGraph *g;        /* the graph with the values bound (borrows the original) */
    KlvProgram *prog;   /* g compiled */
    unsigned long used; /* tick of the last run (least recently used goes first) */
} SpecEntry;

struct KlvSpec {
    const GirGraph *g;           /* the graph as given; outlives the cache */
    KlvOptions opts;             /* klv_compile's options */
    const char *passes;          /* run on each copy after binding */
    int *bound;                  /* per graph input: 1 when its values are bound */
    SpecEntry ent[SPEC_CACHE];   /* the cache; prog NULL: a free slot */
    unsigned long tick;          /* runs so far */
    int compiles;                /* programs compiled so far */
    int last;                    /* the entry of the last run, -1 before one */
    int extents;                 /* 1: klv_spec_new_extents (fold the sizing operands only) */
};

/* Input k of node n decides its output's shape by its values (or, for
 * Resize's roi in tf_crop_and_resize mode, the region its lowering
 * tabulates the taps of).  ConstantOfShape, Range and OneHot are left out:
 * klv_compile sizes their outputs when the program runs. */
static int shape_operand(const GirNode *n, int k)
{
    switch (n->op) {
    case GIR_OP_RESHAPE:
    case GIR_OP_EXPAND:
    case GIR_OP_TILE:
    case GIR_OP_TOPK:
    case GIR_OP_SQUEEZE:
    case GIR_OP_UNSQUEEZE:
    case GIR_OP_SPLIT:
    case GIR_OP_PAD:
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
        return k == 1;
    case GIR_OP_SLICE:
        return k >= 1;
    case GIR_OP_RESIZE:
        return k == 2 || k == 3 ||
               (k == 1 && strcmp(gir_attr_string(n, "coordinate_transformation_mode", "half_pixel"),
                                 "tf_crop_and_resize") == 0);
    case GIR_OP_MAXUNPOOL:
        return k == 2;
    default:
        return 0;
    }
}

/* Input j of n is read for its type alone (as fold_constants counts it):
 * its values decide nothing. */
static int type_only(const GirNode *n, int j)
{
    return ((n->op == GIR_OP_SHAPE || n->op == GIR_OP_SIZE || n->op == GIR_OP_EYELIKE) && j == 0) ||
           (n->op == GIR_OP_CASTLIKE && j == 1);
}

/* Mark in bound[] the graph inputs whose values value v is computed from
 * (seen[] marks values walked).  -1 when a value of data-dependent extent
 * or an input too big to bind takes part. */
static int walk(const GirGraph *g, int v, unsigned char *seen, int *bound)
{
    const GirValue *val;
    int i;
    if (v < 0 || seen[v])
        return 0;
    seen[v] = 1;
    val = &g->vals[v];
    if (val->kind == GIR_VAL_CONST)
        return 0;
    if (val->kind == GIR_VAL_INPUT) {
        if (gir_type_is_static(&val->type) && gir_type_numel(&val->type) > SPEC_MAX_ELEMS)
            return -1;
        for (i = 0; i < g->ninput; i++)
            if (g->inputs[i] == v)
                bound[i] = 1;
        return 0;
    }
    {
        const GirNode *n = &g->nodes[val->producer];
        if (n->op == GIR_OP_NONZERO || n->op == GIR_OP_NMS || n->op == GIR_OP_COMPRESS)
            return -1;
        for (i = 0; i < n->nin; i++)
            if (!type_only(n, i) && walk(g, n->in[i], seen, bound) < 0)
                return -1;
    }
    return 0;
}

/* The count of graph inputs bound[] marks, or 0 with bound[] cleared when
 * the walk refused (n < 0). */
static int bound_total(const GirGraph *g, int *bound, int n)
{
    int i;
    if (n < 0) {
        memset(bound, 0, sizeof *bound * (size_t)g->ninput);
        return 0;
    }
    for (i = 0; i < g->ninput; i++)
        n += bound[i];
    return n;
}

int klv_spec_inputs(const GirGraph *g, int *bound)
{
    unsigned char *seen = calloc((size_t)g->nval + 1, 1);
    int i, k, n = 0;
    if (!seen)
        gir_die("out of memory");
    memset(bound, 0, sizeof *bound * (size_t)g->ninput);
    for (i = 0; i < g->nnode && n >= 0; i++) {
        const GirNode *nd = &g->nodes[i];
        for (k = 0; k < nd->nin && n >= 0; k++)
            if (nd->in[k] >= 0 && shape_operand(nd, k) && walk(g, nd->in[k], seen, bound) < 0)
                n = -1;
    }
    free(seen);
    return bound_total(g, bound, n);
}

/* Input k of n sizes its output when the program runs (sized_value in
 * program.c): Range's bounds and step, ConstantOfShape's shape, OneHot's
 * depth. */
static int extent_operand(const GirNode *n, int k)
{
    switch (n->op) {
    case GIR_OP_RANGE:
        return 1;
    case GIR_OP_CONSTANTOFSHAPE:
        return k == 0;
    case GIR_OP_ONEHOT:
        return k == 1;
    default:
        return 0;
    }
}

/* From value v of no static type back to the ConstantOfShape, Range and
 * OneHot nodes whose run-time extent it carries, marking in bound[] the
 * graph inputs their sizing operands are computed from.  -1 when a value
 * of data-dependent extent takes part (or walk refuses). */
static int trace_extent(const GirGraph *g, int v, unsigned char *seen, unsigned char *wseen,
                        int *bound)
{
    const GirValue *val;
    const GirNode *n;
    int k;
    if (v < 0 || seen[v])
        return 0;
    seen[v] = 1;
    val = &g->vals[v];
    if (val->kind != GIR_VAL_NODE || val->producer < 0 || gir_type_is_static(&val->type))
        return 0;
    n = &g->nodes[val->producer];
    if (n->op == GIR_OP_NONZERO || n->op == GIR_OP_NMS || n->op == GIR_OP_COMPRESS)
        return -1;
    if (n->op == GIR_OP_RANGE || n->op == GIR_OP_CONSTANTOFSHAPE || n->op == GIR_OP_ONEHOT) {
        for (k = 0; k < n->nin; k++)
            if (extent_operand(n, k) && walk(g, n->in[k], wseen, bound) < 0)
                return -1;
        return 0;
    }
    for (k = 0; k < n->nin; k++)
        if (trace_extent(g, n->in[k], seen, wseen, bound) < 0)
            return -1;
    return 0;
}

int klv_spec_extent_inputs(const GirGraph *g, const KlvProgram *p, int *bound)
{
    unsigned char *seen = calloc((size_t)g->nval + 1, 1), *wseen = calloc((size_t)g->nval + 1, 1);
    int i, k, n = 0;
    if (!seen || !wseen)
        gir_die("out of memory");
    memset(bound, 0, sizeof *bound * (size_t)g->ninput);
    for (i = 0; i < g->nnode && n >= 0; i++) {
        const GirNode *nd = &g->nodes[i];
        if (klv_node_lowered(p, i))
            continue;
        for (k = 0; k < nd->nin && n >= 0; k++)
            if (trace_extent(g, nd->in[k], seen, wseen, bound) < 0)
                n = -1;
    }
    free(seen);
    free(wseen);
    return bound_total(g, bound, n);
}

/* An empty cache for g compiled with options o. */
static KlvSpec *spec_alloc(const GirGraph *g, const KlvOptions *o)
{
    KlvSpec *s = calloc(1, sizeof *s);
    if (!s || !(s->bound = calloc((size_t)g->ninput + 1, sizeof *s->bound)))
        gir_die("out of memory");
    s->g = g;
    if (o)
        s->opts = *o;
    s->last = -1;
    return s;
}

KlvSpec *klv_spec_new_extents(const GirGraph *g, const KlvProgram *p, const KlvOptions *o,
                              GirError *e)
{
    KlvSpec *s = spec_alloc(g, o);
    s->passes = "dce";
    s->extents = 1;
    if (klv_spec_extent_inputs(g, p, s->bound) == 0) {
        gir_error_at(e, gir_loc_none(),
                     "no interpreted node of '%s' reads an extent decided by its inputs alone",
                     g->name);
        klv_spec_free(s);
        return NULL;
    }
    return s;
}

KlvSpec *klv_spec_new(const GirGraph *g, const KlvOptions *o, const char *passes, GirError *e)
{
    KlvSpec *s = spec_alloc(g, o);
    s->passes = passes ? passes : "fold_constants";
    if (klv_spec_inputs(g, s->bound) == 0) {
        gir_error_at(e, gir_loc_none(), "no shape of '%s' waits on the values of its inputs alone",
                     g->name);
        klv_spec_free(s);
        return NULL;
    }
    return s;
}

int klv_spec_bound(const KlvSpec *s, int i)
{
    return s->bound[i];
}

/* The inputs check against the graph's declared types (a dim the graph
 * leaves open takes any extent); then the key: every input's type, and
 * the bound inputs' bytes.  *key malloc'd. */
static int spec_key(const KlvSpec *s, const GirTensor *in, unsigned char **key, size_t *nkey,
                    GirError *e)
{
    const GirGraph *g = s->g;
    size_t n = 0, at = 0;
    int i, d;
    for (i = 0; i < g->ninput; i++) {
        const GirValue *v = &g->vals[g->inputs[i]];
        const GirType *t = &in[i].type;
        int ok = t->dtype == v->type.dtype && (v->type.rank < 0 || t->rank == v->type.rank) &&
                 t->rank >= 0;
        for (d = 0; ok && v->type.rank >= 0 && d < t->rank; d++)
            ok = v->type.dims[d] < 0 || v->type.dims[d] == t->dims[d];
        if (!ok || gir_type_numel(t) < 0) {
            char a[128], b[128];
            return gir_error_at(e, v->loc, "input '%s' is %s, the graph takes %s", v->name,
                                gir_type_str(t, a, sizeof a), gir_type_str(&v->type, b, sizeof b));
        }
        n += sizeof *t;
        if (s->bound[i])
            n += (size_t)gir_type_bytes(t);
    }
    *key = calloc(n + 1, 1);
    if (!*key)
        gir_die("out of memory");
    for (i = 0; i < g->ninput; i++) {
        GirType t;
        memset(&t, 0, sizeof t); /* no padding bytes of garbage in the key */
        t.dtype = in[i].type.dtype;
        t.rank = in[i].type.rank;
        memcpy(t.dims, in[i].type.dims, sizeof t.dims[0] * (size_t)t.rank);
        memcpy(*key + at, &t, sizeof t);
        at += sizeof t;
        if (s->bound[i]) {
            size_t b = (size_t)gir_type_bytes(&in[i].type);
            if (b)
                memcpy(*key + at, in[i].data, b);
            at += b;
        }
    }
    *nkey = n;
    return 0;
}

/* The operands of c that size a ConstantOfShape, Range or OneHot at run
 * time, when computed from constants (the bound inputs), replaced by their
 * values: those of a copy of c with its constants folded.  The nodes
 * computing them are left for dce; every other node stays.  0, or -1 +
 * error. */
static int fold_extents(GirGraph *c, GirError *e)
{
    GirGraph *f = gir_graph_copy(c);
    int i, k;
    /* the operands made outputs of f, so that folding keeps them */
    for (i = 0; i < f->nnode; i++)
        for (k = 0; k < f->nodes[i].nin; k++) {
            int v = f->nodes[i].in[k], o, have = 0;
            if (v < 0 || !extent_operand(&f->nodes[i], k) || f->vals[v].kind == GIR_VAL_CONST)
                continue;
            for (o = 0; o < f->noutput; o++)
                have |= f->outputs[o] == v;
            if (!have)
                gir_add_output(f, v);
        }
    if (gir_infer_shapes(f, e) < 0 || gir_run_passes(f, "fold_constants", NULL, e) < 0) {
        gir_graph_free(f);
        return -1;
    }
    for (i = 0; i < c->nnode; i++)
        for (k = 0; k < c->nodes[i].nin; k++) {
            int v = c->nodes[i].in[k], u;
            if (v < 0 || !extent_operand(&c->nodes[i], k) || c->vals[v].kind == GIR_VAL_CONST)
                continue;
            u = gir_find_value(f, c->vals[v].name);
            if (u >= 0 && f->vals[u].kind == GIR_VAL_CONST)
                c->nodes[i].in[k] =
                    gir_add_const(c, gir_arena_printf(c->arena, "%s.folded", c->vals[v].name),
                                  f->vals[u].type, f->vals[u].data, c->vals[v].loc);
        }
    gir_graph_free(f);
    return 0;
}

/* The graph with this run's values bound and its inputs' dims set, made
 * static and compiled into entry x.  0, or -1 + error. */
static int spec_compile(KlvSpec *s, const GirTensor *in, SpecEntry *x, GirError *e)
{
    GirGraph *c = gir_graph_copy(s->g);
    int i;
    for (i = 0; i < c->ninput; i++) {
        int v = c->inputs[i];
        c->vals[v].type = in[i].type;
        if (s->bound[i]) {
            const char *name = gir_arena_printf(c->arena, "%s.bound", c->vals[v].name);
            int k = gir_add_const(c, name, in[i].type, in[i].data, c->vals[v].loc);
            int j, o;
            /* the uses read the constant; the input stays, unread */
            for (j = 0; j < c->nnode; j++)
                for (o = 0; o < c->nodes[j].nin; o++)
                    if (c->nodes[j].in[o] == v)
                        c->nodes[j].in[o] = k;
        }
    }
    if (s->extents && fold_extents(c, e) < 0) {
        gir_graph_free(c);
        return -1;
    }
    if (gir_infer_shapes(c, e) < 0 || gir_run_passes(c, s->passes, NULL, e) < 0 ||
        !(x->prog = klv_compile(c, &s->opts, e))) {
        gir_graph_free(c);
        return -1;
    }
    x->g = c;
    s->compiles++;
    return 0;
}

int klv_spec_run(KlvSpec *s, const GirTensor *inputs, GirTensor *outputs, GirArena *arena,
                 int *compiled, GirError *e)
{
    unsigned char *key;
    size_t nkey;
    int i, hit = -1, slot = 0;
    *compiled = 0;
    if (spec_key(s, inputs, &key, &nkey, e) < 0)
        return -1;
    for (i = 0; i < SPEC_CACHE && hit < 0; i++)
        if (s->ent[i].prog && s->ent[i].nkey == nkey && memcmp(s->ent[i].key, key, nkey) == 0)
            hit = i;
    if (hit >= 0) {
        free(key);
    } else {
        /* a free slot, else the least recently used */
        for (i = 0; i < SPEC_CACHE; i++) {
            if (!s->ent[i].prog) {
                slot = i;
                break;
            }
            if (s->ent[i].used < s->ent[slot].used)
                slot = i;
        }
        if (s->ent[slot].prog) {
            klv_free(s->ent[slot].prog);
            gir_graph_free(s->ent[slot].g);
            free(s->ent[slot].key);
            memset(&s->ent[slot], 0, sizeof s->ent[slot]);
            if (s->last == slot)
                s->last = -1;
        }
        if (spec_compile(s, inputs, &s->ent[slot], e) < 0) {
            free(key);
            return -1;
        }
        s->ent[slot].key = key;
        s->ent[slot].nkey = nkey;
        hit = slot;
        *compiled = 1;
    }
    s->ent[hit].used = ++s->tick;
    s->last = hit;
    return klv_run(s->ent[hit].prog, inputs, outputs, arena, e);
}

const KlvProgram *klv_spec_program(const KlvSpec *s, const GirGraph **g)
{
    if (s->last < 0) {
        *g = NULL;
        return NULL;
    }
    *g = s->ent[s->last].g;
    return s->ent[s->last].prog;
}

int klv_spec_compiles(const KlvSpec *s)
{
    return s->compiles;
}

void klv_spec_free(KlvSpec *s)
{
    int i;
    if (!s)
        return;
    for (i = 0; i < SPEC_CACHE; i++) {
        klv_free(s->ent[i].prog);
        gir_graph_free(s->ent[i].g);
        free(s->ent[i].key);
    }
    free(s->bound);
    free(s);
}
