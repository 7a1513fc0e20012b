/*
 * Static shapes out of dynamic models: `--input-shape NAME=D,D,...` sets a
 * graph input's dims, the shapes are inferred again, and the shape
 * subgraphs exporters put around the network (Shape -> Gather -> Unsqueeze
 * -> Concat -> Reshape, Resize sizes computed from Shape, ...) fold to
 * constants through gir_pass_fold_constants, which runs them in the
 * interpreter.  What is left is the network itself, every shape known.
 *
 * A dim that stays dynamic is refused with one line naming the input and the
 * first node whose shape cannot be known; a shape that depends on computed
 * data (NonMaxSuppression, NonZero) with every input static is the
 * network's own and is let through.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

int fe_parse_input_shape(const char *arg, FeInputShape *s, GirError *e)
{
    const char *eq = strrchr(arg, '='), *p;
    memset(s, 0, sizeof *s);
    if (eq) {
        size_t len = (size_t)(eq - arg);
        if (len == 0 || len >= sizeof s->name)
            return gir_error_at(e, gir_loc_none(),
                                "--input-shape '%s': the input name before '=' is %s", arg,
                                len ? "too long" : "empty");
        memcpy(s->name, arg, len);
    }
    p = eq ? eq + 1 : arg;
    for (;;) {
        char *end;
        long long d;
        errno = 0;
        d = strtoll(p, &end, 10);
        if (end == p || errno || d < 1 || d > ((int64_t)1 << 31) || (*end && *end != ','))
            return gir_error_at(e, gir_loc_none(),
                                "--input-shape '%s': expected [NAME=]D,D,... with each D a "
                                "positive integer",
                                arg);
        if (s->rank == GIR_MAX_RANK)
            return gir_error_at(e, gir_loc_none(), "--input-shape '%s': more than %d dims", arg,
                                GIR_MAX_RANK);
        s->dims[s->rank++] = d;
        if (!*end)
            return 0;
        p = end + 1;
    }
}

/* The graph input an --input-shape names (its first input when unnamed). */
static int find_input(const GirGraph *g, const FeInputShape *s, GirError *e)
{
    int i;
    if (g->ninput == 0)
        return gir_error_at(e, gir_loc_file(g->source, -1),
                            "--input-shape given, but the model has no inputs");
    if (!s->name[0])
        return 0;
    for (i = 0; i < g->ninput; i++)
        if (strcmp(g->vals[g->inputs[i]].name, s->name) == 0)
            return i;
    return gir_error_at(e, gir_loc_file(g->source, -1),
                        "--input-shape: the model has no input '%s' (its first input is '%s')",
                        s->name, g->vals[g->inputs[0]].name);
}

/* Set input k's dims to s's; dims the model fixes must agree. */
static int set_input(GirGraph *g, int k, const FeInputShape *s, GirError *e)
{
    GirValue *v = &g->vals[g->inputs[k]];
    char a[128];
    int i;
    if (v->type.rank >= 0 && v->type.rank != s->rank)
        return gir_error_at(e, gir_loc_file(g->source, -1),
                            "--input-shape: input '%s' is %s (rank %d), %d dims given", v->name,
                            gir_type_str(&v->type, a, sizeof a), v->type.rank, s->rank);
    for (i = 0; i < s->rank && v->type.rank >= 0; i++)
        if (v->type.dims[i] >= 0 && v->type.dims[i] != s->dims[i])
            return gir_error_at(e, gir_loc_file(g->source, -1),
                                "--input-shape: input '%s' is %s: dim %d is fixed at %lld, not "
                                "%lld",
                                v->name, gir_type_str(&v->type, a, sizeof a), i,
                                (long long)v->type.dims[i], (long long)s->dims[i]);
    v->type.rank = s->rank;
    memcpy(v->type.dims, s->dims, sizeof s->dims);
    return 0;
}

/* Node outputs forget their dims (rank and element type stay), so the
 * next inference derives them from the inputs' new dims. */
static void forget_dims(GirGraph *g)
{
    int i, j;
    for (i = 0; i < g->nval; i++)
        if (g->vals[i].kind == GIR_VAL_NODE)
            for (j = 0; j < g->vals[i].type.rank; j++)
                g->vals[i].type.dims[j] = -1;
}

/* The first node, in order, that reads value `from` directly or through
 * other nodes and whose output shape is not known; -1 if none. */
static int first_dynamic_node(const GirGraph *g, int from)
{
    unsigned char *reach = calloc((size_t)g->nval + 1, 1);
    int i, j, found = -1;
    if (!reach)
        gir_die("out of memory");
    reach[from] = 1;
    for (i = 0; i < g->nnode && found < 0; i++) {
        const GirNode *n = &g->nodes[i];
        int reads = 0, dyn = 0;
        for (j = 0; j < n->nin; j++)
            reads |= n->in[j] >= 0 && reach[n->in[j]];
        if (!reads)
            continue;
        for (j = 0; j < n->nout; j++) {
            reach[n->out[j]] = 1;
            dyn |= !gir_type_is_static(&g->vals[n->out[j]].type);
        }
        if (dyn)
            found = i;
    }
    free(reach);
    return found;
}

int fe_check_static(const GirGraph *g, GirError *e)
{
    char a[128];
    int i, j, n;
    for (i = 0; i < g->ninput; i++) {
        const GirValue *v = &g->vals[g->inputs[i]];
        if (gir_type_is_static(&v->type))
            continue;
        n = first_dynamic_node(g, g->inputs[i]);
        if (n < 0)
            return gir_error_at(e, gir_loc_file(g->source, -1),
                                "input '%s' is %s: its dims are not known (give --input-shape "
                                "%s=D,D,...)",
                                v->name, gir_type_str(&v->type, a, sizeof a), v->name);
        return gir_error_at(e, g->nodes[n].loc,
                            "input '%s' is %s: the shape of this %s and what follows cannot "
                            "be known (give --input-shape %s=D,D,...)",
                            v->name, gir_type_str(&v->type, a, sizeof a),
                            gir_op_name(g->nodes[n].op), v->name);
    }
    /* Every input static: a node whose inputs are all constants yet whose
     * shape is unknown is a shape computation that did not fold. */
    for (i = 0; i < g->nnode; i++) {
        const GirNode *nd = &g->nodes[i];
        int all_const = nd->nin > 0, dyn = 0;
        for (j = 0; j < nd->nin; j++)
            if (nd->in[j] >= 0 && g->vals[nd->in[j]].kind != GIR_VAL_CONST)
                all_const = 0;
        for (j = 0; j < nd->nout; j++)
            dyn |= !gir_type_is_static(&g->vals[nd->out[j]].type);
        if (all_const && dyn)
            return gir_error_at(e, nd->loc,
                                "%s on constants did not fold, so its shape cannot be known "
                                "before run time",
                                gir_op_name(nd->op));
    }
    return 0;
}

int fe_static_shapes(GirGraph *g, const FeInputShape *s, int n, GirError *e)
{
    unsigned char *seen = calloc((size_t)g->ninput + 1, 1);
    int i, rc = -1;
    if (!seen)
        gir_die("out of memory");
    for (i = 0; i < n; i++) {
        int k = find_input(g, &s[i], e);
        if (k < 0)
            goto out;
        if (seen[k]) {
            gir_error_at(e, gir_loc_file(g->source, -1),
                         "--input-shape: input '%s' is given twice", g->vals[g->inputs[k]].name);
            goto out;
        }
        seen[k] = 1;
        if (set_input(g, k, &s[i], e) < 0)
            goto out;
    }
    if (n > 0) {
        forget_dims(g);
        if (gir_infer_shapes(g, e) < 0)
            goto out;
    }
    if (gir_pass_fold_constants(g, e) < 0 || fe_check_static(g, e) < 0)
        goto out;
    rc = 0;
out:
    free(seen);
    return rc;
}

GirGraph *fe_load_model_shaped(const char *path, const FeInputShape *s, int n,
                               int static_shapes, GirError *e)
{
    GirGraph *g = fe_load_model(path, e);
    if (!g || (n == 0 && !static_shapes))
        return g;
    if (fe_static_shapes(g, s, n, e) < 0) {
        gir_graph_free(g);
        return NULL;
    }
    return g;
}
