/*
 * NHWC nodes: the nhwc pass marks Conv, pooling, BatchNormalization and
 * Resize nodes with the attribute layout="NHWC"; their data input (input 0)
 * and every output are then rank-4 tensors in [N, H, W, C] order, while
 * their other inputs (weights, scales, sizes) keep their ONNX meaning.
 *
 * Shape rules and kernels are the NCHW ones: the type (shape rule) or the
 * data (interpreter) is transposed to NCHW, the node is evaluated without
 * its layout attribute, and the results are transposed back.  So an NHWC
 * node computes bit for bit what its NCHW form does, in fp32 and in int8.
 */
#include <stdlib.h>
#include <string.h>

#include "graphir.h"

int gir_node_is_nhwc(const GirNode *n)
{
    const char *l = gir_attr_string(n, "layout", NULL);
    return l && strcmp(l, "NHWC") == 0;
}

/* NCHW dims from NHWC ones (to_nchw) or the reverse. */
static GirType permute(const GirType *t, int to_nchw)
{
    GirType r = *t;
    if (t->rank != 4)
        return r;
    if (to_nchw) {
        r.dims[1] = t->dims[3];
        r.dims[2] = t->dims[1];
        r.dims[3] = t->dims[2];
    } else {
        r.dims[1] = t->dims[2];
        r.dims[2] = t->dims[3];
        r.dims[3] = t->dims[1];
    }
    return r;
}

/* A shallow copy of n without its layout attribute; attrs from malloc. */
static GirNode strip_layout(const GirNode *n)
{
    GirNode c = *n;
    int i, k = 0;
    c.attrs = malloc(sizeof *c.attrs * (size_t)(n->nattr + 1));
    if (!c.attrs)
        gir_die("out of memory");
    for (i = 0; i < n->nattr; i++)
        if (strcmp(n->attrs[i].name, "layout") != 0)
            c.attrs[k++] = n->attrs[i];
    c.nattr = k;
    return c;
}

int gir_shape_nhwc(const GirGraph *g, const GirNode *n, const GirTensor *const *ins,
                   GirType *outs, GirError *e)
{
    GirNode c = strip_layout(n);
    const GirTensor *pins[64];
    GirTensor x0;
    int i, rc;
    if (n->nin > 64 || n->nin < 1 || !ins[0]) {
        free(c.attrs);
        return gir_error_at(e, n->loc, "node '%s': NHWC form needs a data input", n->name);
    }
    x0 = *ins[0];
    x0.type = permute(&ins[0]->type, 1);
    pins[0] = &x0;
    for (i = 1; i < n->nin; i++)
        pins[i] = ins[i];
    rc = gir_shape_node(g, &c, pins, outs, e);
    free(c.attrs);
    if (rc < 0)
        return -1;
    for (i = 0; i < n->nout; i++)
        outs[i] = permute(&outs[i], 0);
    return 0;
}

/* dst = src with axes permuted: to_nchw reads NHWC src dims [N,H,W,C]. */
static void transpose4(const GirTensor *src, GirTensor *dst, int to_nchw)
{
    size_t es = gir_dtype_size(src->type.dtype);
    const int64_t *d = to_nchw ? dst->type.dims : src->type.dims; /* NCHW dims */
    int64_t N = d[0], C = d[1], H = d[2], W = d[3], b, c, y, x;
    const char *s = src->data;
    char *o = dst->data;
    for (b = 0; b < N; b++)
        for (c = 0; c < C; c++)
            for (y = 0; y < H; y++)
                for (x = 0; x < W; x++) {
                    int64_t nchw = ((b * C + c) * H + y) * W + x;
                    int64_t nhwc = ((b * H + y) * W + x) * C + c;
                    if (to_nchw)
                        memcpy(o + nchw * (int64_t)es, s + nhwc * (int64_t)es, es);
                    else
                        memcpy(o + nhwc * (int64_t)es, s + nchw * (int64_t)es, es);
                }
}

int gir_eval_nhwc(const GirGraph *g, const GirNode *n, const GirTensor *const *ins,
                  GirTensor *const *outs, GirError *e)
{
    GirGraph *sub = gir_graph_new("nhwc");
    GirArena *a = gir_arena_new();
    GirTensor *feeds = gir_arena_alloc(a, sizeof *feeds * (size_t)(n->nin + 1));
    GirTensor *res = gir_arena_alloc(a, sizeof *res * (size_t)(n->nout + 1));
    int *in = gir_arena_alloc(a, sizeof *in * (size_t)(n->nin + 1));
    int *out = gir_arena_alloc(a, sizeof *out * (size_t)(n->nout + 1));
    int i, nf = 0, rc = -1;
    GirNode c = strip_layout(n);
    for (i = 0; i < n->nin; i++) {
        GirTensor t;
        int v;
        if (!ins[i]) {
            in[i] = -1;
            continue;
        }
        t = *ins[i];
        if (i == 0) {
            size_t bytes = (size_t)gir_type_numel(&t.type) * gir_dtype_size(t.type.dtype);
            t.type = permute(&ins[0]->type, 1);
            t.data = gir_arena_alloc(a, bytes + 1);
            transpose4(ins[0], &t, 1);
        }
        if (i > 0 && g->vals[n->in[i]].kind == GIR_VAL_CONST) {
            /* Weights and parameters stay constants (borrowed data). */
            v = gir_add_value(sub, g->vals[n->in[i]].name, GIR_VAL_CONST, t.type, n->loc);
            sub->vals[v].data = g->vals[n->in[i]].data;
        } else {
            v = gir_add_value(sub, g->vals[n->in[i]].name, GIR_VAL_INPUT, t.type, n->loc);
            gir_add_input(sub, v);
            feeds[nf++] = t;
        }
        sub->vals[v].scale = g->vals[n->in[i]].scale;
        in[i] = v;
    }
    for (i = 0; i < n->nout; i++) {
        GirType t = permute(&outs[i]->type, 1);
        out[i] = gir_add_value(sub, g->vals[n->out[i]].name, GIR_VAL_NODE, t, n->loc);
        sub->vals[out[i]].scale = g->vals[n->out[i]].scale;
        gir_add_output(sub, out[i]);
    }
    gir_add_node(sub, n->op, n->name, in, n->nin, out, n->nout, n->loc);
    sub->nodes[0].attrs = c.attrs;
    sub->nodes[0].nattr = c.nattr;
    if (gir_run(sub, feeds, res, a, e) < 0)
        goto done;
    for (i = 0; i < n->nout; i++) {
        if (res[i].type.rank == 4)
            transpose4(&res[i], outs[i], 0);
        else
            memcpy(outs[i]->data, res[i].data,
                   (size_t)gir_type_numel(&res[i].type) * gir_dtype_size(res[i].type.dtype));
    }
    rc = 0;
done:
    free(c.attrs);
    gir_arena_free(a);
    gir_graph_free(sub);
    return rc;
}
