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
 * This file holds the pieces (which nodes, the permutation, the stripped
 * node, the data transpose); shape.c and interp.c apply them, so it calls
 * neither.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int gir_node_is_nhwc(const GirNode *n)
{
    const char *l = gir_attr_string(n, "layout", NULL);
    return l && strcmp(l, "NHWC") == 0;
}

int64_t gir_lut_inner(const GirNode *n, const GirType *t)
{
    int axis = gir_node_is_nhwc(n) ? t->rank - 1 : 1, d;
    int64_t inner = 1;
    for (d = axis + 1; d < t->rank; d++)
        inner *= t->dims[d];
    return inner;
}

int64_t gir_lut_channel_count(const GirNode *n, const GirType *t)
{
    int cnt = 0;
    int64_t c;
    if (!gir_attr_ints(n, "lut", &cnt) || cnt == GIR_LUT_SIZE)
        return 0;
    if (t->rank < 2)
        return -1;
    c = t->dims[gir_node_is_nhwc(n) ? t->rank - 1 : 1];
    return c >= 1 && c * GIR_LUT_SIZE == cnt ? c : -1;
}

GirType gir_nhwc_type(const GirType *t, int to_nchw)
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

GirNode gir_nhwc_strip(const GirNode *n)
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

void gir_nhwc_transpose(const GirTensor *src, GirTensor *dst, int to_nchw)
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
