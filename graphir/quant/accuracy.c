/*
 * Accuracy of a quantized graph: run the fp32 graph and its int8 form on the
 * same inputs and compare, value by value, SQNR and cosine similarity.  The
 * quantizer keeps value names, so a value of the fp32 graph is matched by
 * name; an int8 value is dequantized by its scale first.
 *
 * Needs: both graphs runnable by gir_run on the same inputs.
 */
#include <math.h>
#include <string.h>

#include "graphir/graphir.h"

int gir_run_all(const GirGraph *g, const GirTensor *inputs, GirArena *a, GirTensor **outs,
                int **ids, int *n, GirError *e)
{
    GirGraph view = *g; /* the same graph whose outputs are every node value */
    int i, k = 0;
    *ids = gir_arena_alloc(a, sizeof **ids * (size_t)(g->nval + 1));
    for (i = 0; i < g->nval; i++)
        if (g->vals[i].kind == GIR_VAL_NODE)
            (*ids)[k++] = i;
    *outs = gir_arena_alloc(a, sizeof **outs * (size_t)(k + 1));
    *n = k;
    view.outputs = *ids;
    view.noutput = k;
    return gir_run(&view, inputs, *outs, a, e);
}

/* Real value of element i of t (int8 less its zero point, times its
 * scale). */
static double real_at(const GirTensor *t, const GirValue *v, int64_t i)
{
    if (t->type.dtype == GIR_DT_I8)
        return (double)(((const int8_t *)t->data)[i] - v->zp) * gir_scale_at(v, i);
    return ((const float *)t->data)[i];
}

int gir_accuracy(const GirGraph *ref, const GirGraph *q, const GirTensor *inputs,
                 GirArena *arena, GirAccuracy **rows, int *nrows, GirError *e)
{
    GirArena *tmp = gir_arena_new();
    GirTensor *ro, *qo;
    int *rids, *qids, nr, nq, i, k = 0, rc = -1;
    int *qslot;
    if (gir_run_all(ref, inputs, tmp, &ro, &rids, &nr, e) < 0 ||
        gir_run_all(q, inputs, tmp, &qo, &qids, &nq, e) < 0)
        goto out;
    qslot = gir_arena_alloc(tmp, sizeof *qslot * (size_t)(q->nval + 1));
    for (i = 0; i < q->nval; i++)
        qslot[i] = -1;
    for (i = 0; i < nq; i++)
        qslot[qids[i]] = i;
    *rows = gir_arena_alloc(arena, sizeof **rows * (size_t)(nr + 1));
    for (i = 0; i < nr; i++) {
        const GirValue *rv = &ref->vals[rids[i]];
        const GirTensor *a = &ro[i], *b;
        int qv = gir_find_value(q, rv->name), j, is_out = 0;
        int64_t cnt, t;
        double dot = 0, na = 0, nb = 0, err = 0;
        GirAccuracy *row;
        if (qv < 0 || qslot[qv] < 0 || a->type.dtype != GIR_DT_F32)
            continue;
        b = &qo[qslot[qv]];
        if (b->type.dtype != GIR_DT_F32 && b->type.dtype != GIR_DT_I8)
            continue;
        cnt = gir_type_numel(&a->type);
        if (cnt != gir_type_numel(&b->type))
            continue;
        for (j = 0; j < ref->noutput; j++)
            is_out |= ref->outputs[j] == rids[i];
        for (t = 0; t < cnt; t++) {
            double u = ((const float *)a->data)[t], v = real_at(b, &q->vals[qv], t);
            dot += u * v;
            na += u * u;
            nb += v * v;
            err += (u - v) * (u - v);
        }
        row = &(*rows)[k++];
        row->name = gir_arena_strdup(arena, rv->name);
        row->is_output = is_out;
        row->count = cnt;
        row->sqnr_db = err == 0 ? INFINITY : na == 0 ? -INFINITY : 10.0 * log10(na / err);
        row->cosine = na == 0 && nb == 0 ? 1.0 : (na == 0 || nb == 0) ? 0.0 : dot / sqrt(na * nb);
    }
    *nrows = k;
    rc = 0;
out:
    gir_arena_free(tmp);
    return rc;
}
