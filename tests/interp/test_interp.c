/*
 * Interpreter and shape-rule tests: small graphs built through the graph API,
 * run by gir_run, compared with values worked out by hand (the working is in
 * the comments).  Usage: test_interp CASE; each CASE is one ctest test
 * (interp_CASE).  Cases ending in _bad check one diagnostic word for word.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphir/graphir.h"

static int failures; /* failed checks in this run */

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);       \
            failures++;                                                               \
        }                                                                             \
    } while (0)

/* ---- graph building ---------------------------------------------------------- */

static GirType ty(GirDType dt, int rank, ...)
{
    GirType t;
    va_list ap;
    int i;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = rank;
    va_start(ap, rank);
    for (i = 0; i < rank; i++)
        t.dims[i] = va_arg(ap, int64_t);
    va_end(ap);
    return t;
}

#define D(x) ((int64_t)(x))

static GirType unknown(void)
{
    GirType t;
    memset(&t, 0, sizeof t);
    t.rank = -1;
    return t;
}

static int input(GirGraph *g, const char *name, GirType t)
{
    int v = gir_add_value(g, name, GIR_VAL_INPUT, t, gir_loc_none());
    gir_add_input(g, v);
    return v;
}

static int cst(GirGraph *g, const char *name, GirType t, const void *data)
{
    return gir_add_const(g, name, t, data, gir_loc_none());
}

/* A node with one fresh output value, which becomes a graph output when
 * is_out; returns the node id. */
static int node1(GirGraph *g, GirOp op, const char *name, const int *in, int nin, int is_out)
{
    char vname[64];
    int v, nd;
    snprintf(vname, sizeof vname, "%s_out", name);
    v = gir_add_value(g, vname, GIR_VAL_NODE, unknown(), gir_loc_none());
    nd = gir_add_node(g, op, name, in, nin, &v, 1, gir_loc_none());
    if (is_out)
        gir_add_output(g, v);
    return nd;
}

static int out_of(const GirGraph *g, int nd) { return g->nodes[nd].out[0]; }

/* Infer shapes and run; prints the error and counts a failure if either
 * fails. */
static int run(GirGraph *g, const GirTensor *in, GirTensor *out, GirArena *a)
{
    GirError e;
    if (gir_infer_shapes(g, &e) || gir_run(g, in, out, a, &e)) {
        fprintf(stderr, "unexpected error: %s\n", e.msg);
        failures++;
        return -1;
    }
    return 0;
}

static void expect_type(const GirType *t, const char *want, int line)
{
    char buf[128];
    gir_type_str(t, buf, sizeof buf);
    if (strcmp(buf, want) != 0) {
        fprintf(stderr, "%s:%d: type %s, expected %s\n", __FILE__, line, buf, want);
        failures++;
    }
}
#define EXPECT_TYPE(t, want) expect_type(t, want, __LINE__)

static void expect_f32(const GirTensor *t, const float *want, int64_t n, int line)
{
    int64_t i, have = gir_type_numel(&t->type);
    if (have != n || t->type.dtype != GIR_DT_F32) {
        fprintf(stderr, "%s:%d: got %lld elements of %s, expected %lld f32\n", __FILE__,
                line, (long long)have, gir_dtype_name(t->type.dtype), (long long)n);
        failures++;
        return;
    }
    for (i = 0; i < n; i++) {
        float v = ((const float *)t->data)[i];
        if (!(fabsf(v - want[i]) <= 1e-5f + 1e-5f * fabsf(want[i]))) {
            fprintf(stderr, "%s:%d: element %lld is %.7g, expected %.7g\n", __FILE__, line,
                    (long long)i, v, want[i]);
            failures++;
            return;
        }
    }
}
#define EXPECT_F32(t, ...)                                                            \
    do {                                                                              \
        static const float want_[] = {__VA_ARGS__};                                   \
        expect_f32(t, want_, (int64_t)(sizeof want_ / sizeof want_[0]), __LINE__);    \
    } while (0)

static void expect_error(GirGraph *g, const GirTensor *in, const char *want, int line)
{
    GirError e;
    GirTensor out[4];
    GirArena *a = gir_arena_new();
    e.msg[0] = '\0';
    if (gir_infer_shapes(g, &e) == 0 && gir_run(g, in, out, a, &e) == 0) {
        fprintf(stderr, "%s:%d: no error; expected \"%s\"\n", __FILE__, line, want);
        failures++;
    } else if (strcmp(e.msg, want) != 0) {
        fprintf(stderr, "%s:%d: error\n  \"%s\"\nexpected\n  \"%s\"\n", __FILE__, line, e.msg,
                want);
        failures++;
    }
    gir_arena_free(a);
}
#define EXPECT_ERROR(g, in, want) expect_error(g, in, want, __LINE__)

/* A fed f32 tensor holding 0, 1, 2, ... */
static GirTensor iota(GirArena *a, GirType t)
{
    GirTensor x;
    int64_t i, n = gir_type_numel(&t);
    float *d = gir_arena_alloc(a, sizeof(float) * (size_t)n);
    for (i = 0; i < n; i++)
        d[i] = (float)i;
    x.type = t;
    x.data = d;
    return x;
}

static GirTensor tensor(GirType t, const void *data)
{
    GirTensor x;
    x.type = t;
    x.data = (void *)data;
    return x;
}

/* ---- cases ------------------------------------------------------------------- */

/* 4x4 input 0..15, 3x3 ones, pad 1, stride 2, bias 1.  Output (0,0) covers
 * rows 0-1, cols 0-1: 0+1+4+5 = 10; (0,1) rows 0-1, cols 1-3: 1+2+3+5+6+7 =
 * 24; (1,0) rows 1-3, cols 0-1: 4+5+8+9+12+13 = 51; (1,1) rows 1-3, cols 1-3:
 * 90.  Plus bias. */
static void case_conv_pad_stride(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float w[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, b[1] = {1};
    int in[3], nd;
    int64_t pads[4] = {1, 1, 1, 1}, st[2] = {2, 2};
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(1), D(4), D(4))), y;
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "w", ty(GIR_DT_F32, 4, D(1), D(1), D(3), D(3)), w);
    in[2] = cst(g, "b", ty(GIR_DT_F32, 1, D(1)), b);
    nd = node1(g, GIR_OP_CONV, "conv", in, 3, 1);
    gir_set_attr_ints(g, nd, "pads", pads, 4);
    gir_set_attr_ints(g, nd, "strides", st, 2);
    if (run(g, &x, &y, a) == 0) {
        EXPECT_TYPE(&g->vals[out_of(g, nd)].type, "f32[1,1,2,2]");
        EXPECT_F32(&y, 11, 25, 52, 91);
    }
    {
        GirNodeCost c = gir_node_cost(g, &g->nodes[nd]);
        EXPECT(c.macs == 4 * 9);
        EXPECT(c.params == 10);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Depthwise: 2 channels, group 2, 1x1 weights 2 and -1: channel 0 doubles,
 * channel 1 negates. */
static void case_conv_groups(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float w[2] = {2, -1};
    int in[2], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(2), D(2), D(2))), y;
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "w", ty(GIR_DT_F32, 4, D(2), D(1), D(1), D(1)), w);
    nd = node1(g, GIR_OP_CONV, "dw", in, 2, 1);
    gir_set_attr_int(g, nd, "group", 2);
    if (run(g, &x, &y, a) == 0)
        EXPECT_F32(&y, 0, 2, 4, 6, -4, -5, -6, -7);
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Dilation 2 on a 5x5 input 0..24 with a 2x2 kernel of ones: the taps are
 * (0,0) (0,2) (2,0) (2,2) from each corner; output 3x3.  (0,0): 0+2+10+12 =
 * 24, and each step right adds 4, each step down adds 20. */
static void case_conv_dilation(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float w[4] = {1, 1, 1, 1};
    int in[2], nd;
    int64_t dil[2] = {2, 2};
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(1), D(5), D(5))), y;
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "w", ty(GIR_DT_F32, 4, D(1), D(1), D(2), D(2)), w);
    nd = node1(g, GIR_OP_CONV, "c", in, 2, 1);
    gir_set_attr_ints(g, nd, "dilations", dil, 2);
    if (run(g, &x, &y, a) == 0)
        EXPECT_F32(&y, 24, 28, 32, 44, 48, 52, 64, 68, 72);
    gir_graph_free(g);
    gir_arena_free(a);
}

/* 1-D conv, kernel [1, -1], SAME_UPPER: 5 outputs, padding 0 before and 1
 * after, so the last output is x[4] - 0 = 4. */
static void case_conv_1d_same(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float w[2] = {1, -1};
    int in[2], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 3, D(1), D(1), D(5))), y;
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "w", ty(GIR_DT_F32, 3, D(1), D(1), D(2)), w);
    nd = node1(g, GIR_OP_CONV, "c", in, 2, 1);
    gir_set_attr_string(g, nd, "auto_pad", "SAME_UPPER");
    if (run(g, &x, &y, a) == 0)
        EXPECT_F32(&y, -1, -1, -1, -1, 4);
    gir_graph_free(g);
    gir_arena_free(a);
}

/* The input has 3 channels but the weights want 4. */
static void case_conv_channels_bad(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float w[4 * 4] = {0};
    int in[2];
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(3), D(2), D(2)));
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "w", ty(GIR_DT_F32, 4, D(4), D(4), D(1), D(1)), w);
    node1(g, GIR_OP_CONV, "conv0", in, 2, 1);
    EXPECT_ERROR(g, &x,
                 "node 'conv0': Conv: input X has 3 channels but weights W expect 4 "
                 "(4 per group x group 1)");
    gir_graph_free(g);
    gir_arena_free(a);
}

/* A stride of 0 is rejected with the attribute named. */
static void case_conv_stride_bad(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float w[1] = {1};
    int in[2], nd;
    int64_t st[2] = {1, 0};
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(1), D(2), D(2)));
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "w", ty(GIR_DT_F32, 4, D(1), D(1), D(1), D(1)), w);
    nd = node1(g, GIR_OP_CONV, "conv0", in, 2, 1);
    gir_set_attr_ints(g, nd, "strides", st, 2);
    EXPECT_ERROR(g, &x, "node 'conv0': Conv: attribute strides[1] = 0 out of range");
    gir_graph_free(g);
    gir_arena_free(a);
}

/* YOLOv3-tiny's last pool: 2x2, stride 1, one row and column of padding at
 * the end.  Input 3x3 = 1..9 (iota + 1 via a bias-free conv is overkill:
 * fed directly). */
static void case_maxpool_pads(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float xd[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    int in[1], nd, outs[2];
    int64_t k[2] = {2, 2}, pads[4] = {0, 0, 1, 1};
    GirTensor x = tensor(ty(GIR_DT_F32, 4, D(1), D(1), D(3), D(3)), xd), y[2];
    GirError e;
    in[0] = input(g, "x", x.type);
    outs[0] = gir_add_value(g, "y", GIR_VAL_NODE, unknown(), gir_loc_none());
    outs[1] = gir_add_value(g, "idx", GIR_VAL_NODE, unknown(), gir_loc_none());
    nd = gir_add_node(g, GIR_OP_MAXPOOL, "pool", in, 1, outs, 2, gir_loc_none());
    gir_add_output(g, outs[0]);
    gir_add_output(g, outs[1]);
    gir_set_attr_ints(g, nd, "kernel_shape", k, 2);
    gir_set_attr_ints(g, nd, "pads", pads, 4);
    if (gir_infer_shapes(g, &e) || gir_run(g, &x, y, a, &e)) {
        fprintf(stderr, "unexpected error: %s\n", e.msg);
        failures++;
    } else {
        EXPECT_TYPE(&y[1].type, "i64[1,1,3,3]");
        EXPECT_F32(&y[0], 5, 6, 6, 8, 9, 9, 8, 9, 9);
        EXPECT(((int64_t *)y[1].data)[0] == 4);
        EXPECT(((int64_t *)y[1].data)[8] == 8);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Indices with storage_order 1 (the ONNX maxpool_with_argmax_2d_precomputed_
 * strides case): 5x5 = 1..25, 2x2 stride 2; the maxima 7, 9, 17, 19 sit at
 * (row, col) (1,1) (1,3) (3,1) (3,3), column-major row + col * 5: 6, 16, 8,
 * 18. */
static void case_maxpool_colmajor(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int in[1], nd, outs[2], i;
    int64_t k[2] = {2, 2}, st[2] = {2, 2};
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(1), D(5), D(5))), y[2];
    GirError e;
    for (i = 0; i < 25; i++)
        ((float *)x.data)[i] += 1;
    in[0] = input(g, "x", x.type);
    outs[0] = gir_add_value(g, "y", GIR_VAL_NODE, unknown(), gir_loc_none());
    outs[1] = gir_add_value(g, "z", GIR_VAL_NODE, unknown(), gir_loc_none());
    nd = gir_add_node(g, GIR_OP_MAXPOOL, "pool", in, 1, outs, 2, gir_loc_none());
    gir_add_output(g, outs[0]);
    gir_add_output(g, outs[1]);
    gir_set_attr_ints(g, nd, "kernel_shape", k, 2);
    gir_set_attr_ints(g, nd, "strides", st, 2);
    gir_set_attr_int(g, nd, "storage_order", 1);
    if (gir_infer_shapes(g, &e) || gir_run(g, &x, y, a, &e)) {
        fprintf(stderr, "unexpected error: %s\n", e.msg);
        failures++;
    } else {
        const int64_t *z = y[1].data;
        EXPECT_F32(&y[0], 7, 9, 17, 19);
        EXPECT(z[0] == 6 && z[1] == 16 && z[2] == 8 && z[3] == 18);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Average pool 3x3 stride 2 with ceil_mode on 4x4 (the ONNX averagepool_2d_ceil
 * case): windows cover rows/cols {0-2, 2-3}: 6, 7.5, 12, 13.5. */
static void case_avgpool_ceil(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int in[1], nd;
    int64_t k[2] = {3, 3}, st[2] = {2, 2};
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(1), D(4), D(4))), y;
    in[0] = input(g, "x", x.type);
    nd = node1(g, GIR_OP_AVGPOOL, "pool", in, 1, 1);
    gir_set_attr_ints(g, nd, "kernel_shape", k, 2);
    gir_set_attr_ints(g, nd, "strides", st, 2);
    gir_set_attr_int(g, nd, "ceil_mode", 1);
    if (run(g, &x, &y, a) == 0)
        EXPECT_F32(&y, 5, 6.5, 11, 12.5); /* iota is 0-based: the ONNX values minus 1 */
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Nearest, asymmetric, x2: each element repeats in a 2x2 block. */
static void case_resize_nearest(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float sc[4] = {1, 1, 2, 2};
    int in[3], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(1), D(2), D(2))), y;
    in[0] = input(g, "x", x.type);
    in[1] = -1;
    in[2] = cst(g, "scales", ty(GIR_DT_F32, 1, D(4)), sc);
    nd = node1(g, GIR_OP_RESIZE, "up", in, 3, 1);
    gir_set_attr_string(g, nd, "coordinate_transformation_mode", "asymmetric");
    gir_set_attr_string(g, nd, "nearest_mode", "floor");
    if (run(g, &x, &y, a) == 0) {
        EXPECT_TYPE(&g->vals[out_of(g, nd)].type, "f32[1,1,4,4]");
        EXPECT_F32(&y, 0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Linear, half_pixel, x2 on [[1,2],[3,4]] (the ONNX
 * resize_upsample_scales_linear case): output coordinate o maps to
 * (o + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25, clamped at the edges. */
static void case_resize_linear(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float xd[4] = {1, 2, 3, 4};
    int64_t sz[4] = {1, 1, 4, 4};
    int in[4], nd;
    GirTensor x = tensor(ty(GIR_DT_F32, 4, D(1), D(1), D(2), D(2)), xd), y;
    in[0] = input(g, "x", x.type);
    in[1] = -1;
    in[2] = -1;
    in[3] = cst(g, "sizes", ty(GIR_DT_I64, 1, D(4)), sz);
    nd = node1(g, GIR_OP_RESIZE, "up", in, 4, 1);
    gir_set_attr_string(g, nd, "mode", "linear");
    if (run(g, &x, &y, a) == 0)
        EXPECT_F32(&y, 1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25,
                   3.75, 4);
    gir_graph_free(g);
    gir_arena_free(a);
}

/* [2,3] + [3] broadcasts along rows; i64 [2,1] * [1,3] is an outer product. */
static void case_broadcast_add(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float bd[3] = {10, 20, 30};
    int64_t pd[2] = {2, 3}, qd[3] = {1, 10, 100};
    int in[2], nd, nd2;
    GirTensor x = iota(a, ty(GIR_DT_F32, 2, D(2), D(3))), y[2];
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "b", ty(GIR_DT_F32, 1, D(3)), bd);
    nd = node1(g, GIR_OP_ADD, "add", in, 2, 1);
    in[0] = cst(g, "p", ty(GIR_DT_I64, 2, D(2), D(1)), pd);
    in[1] = cst(g, "q", ty(GIR_DT_I64, 2, D(1), D(3)), qd);
    nd2 = node1(g, GIR_OP_MUL, "mul", in, 2, 1);
    if (run(g, &x, y, a) == 0) {
        const int64_t *m = y[1].data;
        EXPECT_F32(&y[0], 10, 21, 32, 13, 24, 35);
        EXPECT_TYPE(&g->vals[out_of(g, nd2)].type, "i64[2,3]");
        EXPECT(m[0] == 2 && m[1] == 20 && m[2] == 200 && m[3] == 3 && m[5] == 300);
    }
    (void)nd;
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Incompatible broadcast: [2,3] + [2]. */
static void case_broadcast_bad(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float bd[2] = {0};
    int in[2];
    GirTensor x = iota(a, ty(GIR_DT_F32, 2, D(2), D(3)));
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "b", ty(GIR_DT_F32, 1, D(2)), bd);
    node1(g, GIR_OP_ADD, "add", in, 2, 1);
    EXPECT_ERROR(g, &x,
                 "node 'add': Add: cannot broadcast dim 3 with dim 2 (axis 1 of the result)");
    gir_graph_free(g);
    gir_arena_free(a);
}

/* BatchNormalization then LeakyRelu then Sigmoid on known numbers:
 * (x - 1) / sqrt(4) * 2 + 0.5 = x - 0.5 for channel 0. */
static void case_bn_leaky(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float sc[1] = {2}, bi[1] = {0.5f}, mean[1] = {1}, var[1] = {4};
    int in[5], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(1), D(1), D(3))), y;
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "s", ty(GIR_DT_F32, 1, D(1)), sc);
    in[2] = cst(g, "b", ty(GIR_DT_F32, 1, D(1)), bi);
    in[3] = cst(g, "m", ty(GIR_DT_F32, 1, D(1)), mean);
    in[4] = cst(g, "v", ty(GIR_DT_F32, 1, D(1)), var);
    nd = node1(g, GIR_OP_BATCHNORM, "bn", in, 5, 0);
    gir_set_attr_float(g, nd, "epsilon", 0.0f);
    in[0] = out_of(g, nd);
    nd = node1(g, GIR_OP_LEAKYRELU, "leaky", in, 1, 0);
    gir_set_attr_float(g, nd, "alpha", 0.1f);
    in[0] = out_of(g, nd);
    node1(g, GIR_OP_SIGMOID, "sig", in, 1, 1);
    if (run(g, &x, &y, a) == 0)
        EXPECT_F32(&y, 1 / (1 + expf(0.05f)), 1 / (1 + expf(-0.5f)), 1 / (1 + expf(-1.5f)));
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Concat along -1, then Split back into [1, 2] sizes, then Transpose. */
static void case_concat_split(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float bd[4] = {10, 11, 12, 13};
    int64_t sp[2] = {1, 2};
    int in[2], nd, outs[2];
    GirTensor x = iota(a, ty(GIR_DT_F32, 2, D(2), D(1))), y[2];
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "b", ty(GIR_DT_F32, 2, D(2), D(2)), bd);
    nd = node1(g, GIR_OP_CONCAT, "cat", in, 2, 0);
    gir_set_attr_int(g, nd, "axis", -1);
    in[0] = out_of(g, nd);
    in[1] = cst(g, "split", ty(GIR_DT_I64, 1, D(2)), sp);
    outs[0] = gir_add_value(g, "s0", GIR_VAL_NODE, unknown(), gir_loc_none());
    outs[1] = gir_add_value(g, "s1", GIR_VAL_NODE, unknown(), gir_loc_none());
    nd = gir_add_node(g, GIR_OP_SPLIT, "split", in, 2, outs, 2, gir_loc_none());
    gir_set_attr_int(g, nd, "axis", 1);
    gir_add_output(g, outs[0]);
    in[0] = outs[1];
    node1(g, GIR_OP_TRANSPOSE, "tr", in, 1, 1);
    /* cat = [[0,10,11],[1,12,13]]; s0 = [[0],[1]]; s1 = [[10,11],[12,13]]
     * transposed: [[10,12],[11,13]]. */
    if (run(g, &x, y, a) == 0) {
        EXPECT_F32(&y[0], 0, 1);
        EXPECT_F32(&y[1], 10, 12, 11, 13);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Slice with negative start and a negative step: x = 0..9, starts -1, ends
 * -8 (= 2), step -3 takes 9, 6, 3. */
static void case_slice_negative(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int64_t st[1] = {-1}, en[1] = {-8}, ax[1] = {0}, sp[1] = {-3};
    int in[5], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 1, D(10))), y;
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "st", ty(GIR_DT_I64, 1, D(1)), st);
    in[2] = cst(g, "en", ty(GIR_DT_I64, 1, D(1)), en);
    in[3] = cst(g, "ax", ty(GIR_DT_I64, 1, D(1)), ax);
    in[4] = cst(g, "sp", ty(GIR_DT_I64, 1, D(1)), sp);
    nd = node1(g, GIR_OP_SLICE, "sl", in, 5, 1);
    if (run(g, &x, &y, a) == 0) {
        EXPECT_TYPE(&g->vals[out_of(g, nd)].type, "f32[3]");
        EXPECT_F32(&y, 9, 6, 3);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Pad reflect by 2 before and 1 after on [0,1,2]: 2,1,0,1,2,1. */
static void case_pad_reflect(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int64_t pads[2] = {2, 1};
    int in[2], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 1, D(3))), y;
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "pads", ty(GIR_DT_I64, 1, D(2)), pads);
    nd = node1(g, GIR_OP_PAD, "pad", in, 2, 1);
    gir_set_attr_string(g, nd, "mode", "reflect");
    if (run(g, &x, &y, a) == 0)
        EXPECT_F32(&y, 2, 1, 0, 1, 2, 1);
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Reshape with 0 and -1 from an unknown batch: shapes stay partly unknown
 * at compile time, then resolve at run time. */
static void case_reshape_infer(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int64_t sh[3] = {0, -1, 2};
    int in[2], nd;
    GirError e;
    GirTensor x = iota(a, ty(GIR_DT_F32, 3, D(2), D(3), D(4))), y;
    in[0] = input(g, "x", ty(GIR_DT_F32, 3, D(-1), D(3), D(4)));
    in[1] = cst(g, "shape", ty(GIR_DT_I64, 1, D(3)), sh);
    nd = node1(g, GIR_OP_RESHAPE, "rs", in, 2, 1);
    if (gir_infer_shapes(g, &e) == 0)
        EXPECT_TYPE(&g->vals[out_of(g, nd)].type, "f32[?,?,2]");
    else
        EXPECT(!"infer failed");
    if (gir_run(g, &x, &y, a, &e) == 0) {
        EXPECT_TYPE(&y.type, "f32[2,6,2]");
        EXPECT(((float *)y.data)[23] == 23);
    } else {
        fprintf(stderr, "unexpected error: %s\n", e.msg);
        failures++;
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Feeding a tensor whose shape contradicts the declared input. */
static void case_input_bad(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int in[1];
    GirTensor x = iota(a, ty(GIR_DT_F32, 2, D(2), D(5)));
    in[0] = input(g, "images", ty(GIR_DT_F32, 2, D(-1), D(4)));
    node1(g, GIR_OP_RELU, "r", in, 1, 1);
    EXPECT_ERROR(g, &x, "input 'images': fed f32[2,5] but the model declares f32[?,4]");
    gir_graph_free(g);
    gir_arena_free(a);
}

/* A declared output type that contradicts the shape rule. */
static void case_declared_conflict_bad(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int in[1], out;
    GirTensor x = iota(a, ty(GIR_DT_F32, 1, D(2)));
    in[0] = input(g, "x", x.type);
    out = gir_add_value(g, "y", GIR_VAL_NODE, ty(GIR_DT_F32, 1, D(3)), gir_loc_none());
    gir_add_node(g, GIR_OP_RELU, "r", in, 1, &out, 1, gir_loc_none());
    gir_add_output(g, out);
    EXPECT_ERROR(g, &x, "node 'r': Relu: output 'y' is declared f32[3] but computes to f32[2]");
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Gemm with transB and a row-vector C; MatMul with batch broadcasting. */
static void case_gemm_matmul(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float bd[6] = {1, 0, 0, 0, 1, 0}, cd[2] = {100, 200}, md[6] = {1, 0, 0, 1, 1, 1};
    int in[3], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 2, D(2), D(3))), y[2];
    /* x = [[0,1,2],[3,4,5]]; B' = [[1,0,0],[0,1,0]]' picks columns 0, 1;
     * alpha 2: [[0,2],[6,8]] + C. */
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "B", ty(GIR_DT_F32, 2, D(2), D(3)), bd);
    in[2] = cst(g, "C", ty(GIR_DT_F32, 1, D(2)), cd);
    nd = node1(g, GIR_OP_GEMM, "gemm", in, 3, 1);
    gir_set_attr_int(g, nd, "transB", 1);
    gir_set_attr_float(g, nd, "alpha", 2.0f);
    /* [1,2,3] @ [3,2] broadcast over a batch of 1: x @ [[1,0],[0,1],[1,1]] =
     * [[2,3],[8,9]]. */
    in[0] = gir_add_value(g, "x3", GIR_VAL_NODE, unknown(), gir_loc_none());
    {
        int64_t sh[3] = {1, 2, 3};
        int rin[2];
        rin[0] = 0;
        rin[1] = cst(g, "sh", ty(GIR_DT_I64, 1, D(3)), sh);
        gir_add_node(g, GIR_OP_RESHAPE, "rs", rin, 2, &in[0], 1, gir_loc_none());
    }
    in[1] = cst(g, "M", ty(GIR_DT_F32, 2, D(3), D(2)), md);
    nd = node1(g, GIR_OP_MATMUL, "mm", in, 2, 1);
    if (run(g, &x, y, a) == 0) {
        EXPECT_F32(&y[0], 100, 202, 106, 208);
        EXPECT_TYPE(&y[1].type, "f32[1,2,2]");
        EXPECT_F32(&y[1], 2, 3, 8, 9);
    }
    {
        GirNodeCost c = gir_node_cost(g, &g->nodes[nd]);
        EXPECT(c.macs == 2 * 2 * 3);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Softmax over the last axis of [[0, ln 3]]: 1/4, 3/4. */
static void case_softmax(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float xd[2] = {0, logf(3)};
    int in[1];
    GirTensor x = tensor(ty(GIR_DT_F32, 2, D(1), D(2)), xd), y;
    in[0] = input(g, "x", x.type);
    node1(g, GIR_OP_SOFTMAX, "sm", in, 1, 1);
    if (run(g, &x, &y, a) == 0)
        EXPECT_F32(&y, 0.25f, 0.75f);
    gir_graph_free(g);
    gir_arena_free(a);
}

/* YoloHead with 1 anchor and 1 class: channels x, y, w, h, obj, cls; w and
 * h pass through. */
static void case_yolo(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float xd[6] = {0, 0, 2, -3, 0, 0};
    int64_t mask[1] = {0};
    int in[1], nd;
    GirTensor x = tensor(ty(GIR_DT_F32, 4, D(1), D(6), D(1), D(1)), xd), y;
    in[0] = input(g, "x", x.type);
    nd = node1(g, GIR_OP_YOLO, "yolo", in, 1, 1);
    gir_set_attr_int(g, nd, "classes", 1);
    gir_set_attr_ints(g, nd, "mask", mask, 1);
    if (run(g, &x, &y, a) == 0)
        EXPECT_F32(&y, 0.5f, 0.5f, 2, -3, 0.5f, 0.5f);
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Squeeze/Unsqueeze/Flatten shapes, and Clip with only a max. */
static void case_shapes_misc(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int64_t ax[2] = {0, -1};
    float hi[1] = {2};
    int in[3], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 2, D(1), D(4))), y;
    in[0] = input(g, "x", x.type);
    nd = node1(g, GIR_OP_SQUEEZE, "sq", in, 1, 0);
    in[0] = out_of(g, nd);
    in[1] = cst(g, "axes", ty(GIR_DT_I64, 1, D(2)), ax);
    nd = node1(g, GIR_OP_UNSQUEEZE, "unsq", in, 2, 0);
    in[0] = out_of(g, nd);
    nd = node1(g, GIR_OP_FLATTEN, "fl", in, 1, 0);
    gir_set_attr_int(g, nd, "axis", -1);
    in[0] = out_of(g, nd);
    in[1] = -1;
    in[2] = cst(g, "hi", ty(GIR_DT_F32, 0), hi);
    nd = node1(g, GIR_OP_CLIP, "clip", in, 3, 1);
    if (run(g, &x, &y, a) == 0) {
        EXPECT_TYPE(&g->vals[g->nodes[1].out[0]].type, "f32[1,4,1]");
        EXPECT_TYPE(&y.type, "f32[4,1]");
        EXPECT_F32(&y, 0, 1, 2, 2);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

static void expect_i64(const GirTensor *t, const int64_t *want, int64_t n, int line)
{
    int64_t i, have = gir_type_numel(&t->type);
    if (have != n || t->type.dtype != GIR_DT_I64) {
        fprintf(stderr, "%s:%d: got %lld elements of %s, expected %lld i64\n", __FILE__, line,
                (long long)have, gir_dtype_name(t->type.dtype), (long long)n);
        failures++;
        return;
    }
    for (i = 0; i < n; i++) {
        if (((const int64_t *)t->data)[i] != want[i]) {
            fprintf(stderr, "%s:%d: element %lld is %lld, expected %lld\n", __FILE__, line,
                    (long long)i, (long long)((const int64_t *)t->data)[i], (long long)want[i]);
            failures++;
            return;
        }
    }
}
#define EXPECT_I64(t, ...)                                                            \
    do {                                                                              \
        static const int64_t want_[] = {__VA_ARGS__};                                 \
        expect_i64(t, want_, (int64_t)(sizeof want_ / sizeof want_[0]), __LINE__);    \
    } while (0)

/* An exporter's shape subgraph: Shape of x [2,3] is [2,3]; Gather index 1
 * takes 3 as a 1-element vector; ConstantOfShape fills f32[3] with 7;
 * Expand broadcasts it to [2,3]; Size counts 6. */
static void case_shape_subgraph(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int64_t idx[1] = {1};
    float seven = 7;
    int in[2], nd, shp;
    GirTensor x = iota(a, ty(GIR_DT_F32, 2, D(2), D(3))), y[3], val;
    in[0] = input(g, "x", x.type);
    shp = node1(g, GIR_OP_SHAPE, "shape", in, 1, 1);
    in[0] = out_of(g, shp);
    in[1] = cst(g, "idx", ty(GIR_DT_I64, 1, D(1)), idx);
    nd = node1(g, GIR_OP_GATHER, "gather", in, 2, 0);
    in[0] = out_of(g, nd);
    nd = node1(g, GIR_OP_CONSTANTOFSHAPE, "fill", in, 1, 0);
    val = tensor(ty(GIR_DT_F32, 1, D(1)), &seven);
    gir_set_attr_tensor(g, nd, "value", &val);
    in[0] = out_of(g, nd);
    in[1] = out_of(g, shp);
    node1(g, GIR_OP_EXPAND, "expand", in, 2, 1);
    in[0] = 0;
    node1(g, GIR_OP_SIZE, "size", in, 1, 1);
    if (run(g, &x, y, a) == 0) {
        EXPECT_I64(&y[0], 2, 3);
        EXPECT_TYPE(&y[1].type, "f32[2,3]");
        EXPECT_F32(&y[1], 7, 7, 7, 7, 7, 7);
        EXPECT_TYPE(&y[2].type, "i64[]");
        EXPECT_I64(&y[2], 6);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* x = [[0,1,2],[3,4,5]]: ReduceSum over axis 1 without keepdims is [3,12];
 * ArgMax along axis 1 (keepdims) is [[2],[2]]; ReduceMax of all is 5 kept
 * as [1,1]. */
static void case_reduce_arg(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int64_t ax[1] = {1};
    int in[2], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 2, D(2), D(3))), y[3];
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "axes", ty(GIR_DT_I64, 1, D(1)), ax);
    nd = node1(g, GIR_OP_REDUCESUM, "sum", in, 2, 1);
    gir_set_attr_int(g, nd, "keepdims", 0);
    nd = node1(g, GIR_OP_ARGMAX, "argmax", in, 1, 1);
    gir_set_attr_int(g, nd, "axis", 1);
    node1(g, GIR_OP_REDUCEMAX, "max", in, 1, 1);
    if (run(g, &x, y, a) == 0) {
        EXPECT_TYPE(&y[0].type, "f32[2]");
        EXPECT_F32(&y[0], 3, 12);
        EXPECT_TYPE(&y[1].type, "i64[2,1]");
        EXPECT_I64(&y[1], 2, 2);
        EXPECT_TYPE(&y[2].type, "f32[1,1]");
        EXPECT_F32(&y[2], 5);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* 1-D ConvTranspose, x = [1, 2], kernel [1, 1, 1], stride 2: x0 adds 1 to
 * outputs 0..2, x1 adds 2 to outputs 2..4: [1, 1, 3, 2, 2]; bias 0.5. */
static void case_convtranspose(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float xd[2] = {1, 2}, w[3] = {1, 1, 1}, b[1] = {0.5f};
    int64_t st[1] = {2};
    int in[3], nd;
    GirTensor x = tensor(ty(GIR_DT_F32, 3, D(1), D(1), D(2)), xd), y;
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "w", ty(GIR_DT_F32, 3, D(1), D(1), D(3)), w);
    in[2] = cst(g, "b", ty(GIR_DT_F32, 1, D(1)), b);
    nd = node1(g, GIR_OP_CONVTRANSPOSE, "convt", in, 3, 1);
    gir_set_attr_ints(g, nd, "strides", st, 1);
    if (run(g, &x, &y, a) == 0) {
        EXPECT_TYPE(&y.type, "f32[1,1,5]");
        EXPECT_F32(&y, 1.5f, 1.5f, 3.5f, 2.5f, 2.5f);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Where(x > 2, x, -x) on 0..4 is [0,-1,-2,3,4]; HardSigmoid of that
 * (0.2 v + 0.5 clamped to [0, 1]) is [0.5,0.3,0.1,1,1]. */
static void case_where_compare(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float two = 2;
    int in[3], gt, neg, nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 1, D(5))), y[2];
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "two", ty(GIR_DT_F32, 0), &two);
    gt = node1(g, GIR_OP_GREATER, "gt", in, 2, 0);
    neg = node1(g, GIR_OP_NEG, "neg", in, 1, 0);
    in[0] = out_of(g, gt);
    in[1] = 0;
    in[2] = out_of(g, neg);
    nd = node1(g, GIR_OP_WHERE, "where", in, 3, 1);
    in[0] = out_of(g, nd);
    node1(g, GIR_OP_HARDSIGMOID, "hs", in, 1, 1);
    if (run(g, &x, y, a) == 0) {
        EXPECT_F32(&y[0], 0, -1, -2, 3, 4);
        EXPECT_F32(&y[1], 0.5f, 0.3f, 0.1f, 1, 1);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* f32 -> f16 -> f32: 0.1 becomes the nearest half, 0.0999755859375; 65504
 * is the largest half; 1e6 overflows to infinity; 2^-24 is the smallest
 * subnormal. */
static void case_cast_f16(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float xd[4] = {0.1f, 65504.0f, 1e6f, 5.9604645e-8f};
    int in[1], nd;
    GirTensor x = tensor(ty(GIR_DT_F32, 1, D(4)), xd), y;
    in[0] = input(g, "x", x.type);
    nd = node1(g, GIR_OP_CAST, "to16", in, 1, 0);
    gir_set_attr_int(g, nd, "to", 10);
    in[0] = out_of(g, nd);
    nd = node1(g, GIR_OP_CAST, "to32", in, 1, 1);
    gir_set_attr_int(g, nd, "to", 1);
    if (run(g, &x, &y, a) == 0) {
        EXPECT_TYPE(&g->vals[g->nodes[0].out[0]].type, "f16[4]");
        EXPECT(((float *)y.data)[0] == 0.0999755859375f);
        EXPECT(((float *)y.data)[1] == 65504.0f);
        EXPECT(isinf(((float *)y.data)[2]));
        EXPECT(((float *)y.data)[3] == 5.9604645e-8f);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* TopK k=2 of [1,3,2,3]: the two 3s, lower index first. */
static void case_topk(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float xd[4] = {1, 3, 2, 3};
    int64_t k[1] = {2};
    int in[2], outs[2];
    GirTensor x = tensor(ty(GIR_DT_F32, 1, D(4)), xd), y[2];
    in[0] = input(g, "x", x.type);
    in[1] = cst(g, "k", ty(GIR_DT_I64, 1, D(1)), k);
    outs[0] = gir_add_value(g, "values", GIR_VAL_NODE, unknown(), gir_loc_none());
    outs[1] = gir_add_value(g, "indices", GIR_VAL_NODE, unknown(), gir_loc_none());
    gir_add_node(g, GIR_OP_TOPK, "topk", in, 2, outs, 2, gir_loc_none());
    gir_add_output(g, outs[0]);
    gir_add_output(g, outs[1]);
    if (run(g, &x, y, a) == 0) {
        EXPECT_F32(&y[0], 3, 3);
        EXPECT_I64(&y[1], 1, 3);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* NonMaxSuppression, one class: box 1 ([0,0,1,1], score 0.9) is kept first;
 * box 0 ([0,0,1,1.1], 0.8) overlaps it with IoU 1/1.1 > 0.5 and goes; box 2
 * ([5,5,6,6], 0.7) is kept; box 3 scores 0.1, below the 0.2 threshold. */
static void case_nms(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    float bd[16] = {0, 0, 1, 1.1f, 0, 0, 1, 1, 5, 5, 6, 6, 9, 9, 10, 10};
    float sd[4] = {0.8f, 0.9f, 0.7f, 0.1f}, iou = 0.5f, thr = 0.2f;
    int64_t mx = 10;
    int in[5];
    GirTensor x = tensor(ty(GIR_DT_F32, 3, D(1), D(4), D(4)), bd), y;
    in[0] = input(g, "boxes", x.type);
    in[1] = cst(g, "scores", ty(GIR_DT_F32, 3, D(1), D(1), D(4)), sd);
    in[2] = cst(g, "max", ty(GIR_DT_I64, 1, D(1)), &mx);
    in[3] = cst(g, "iou", ty(GIR_DT_F32, 1, D(1)), &iou);
    in[4] = cst(g, "thr", ty(GIR_DT_F32, 1, D(1)), &thr);
    node1(g, GIR_OP_NMS, "nms", in, 5, 1);
    if (run(g, &x, &y, a) == 0) {
        EXPECT_TYPE(&y.type, "i64[2,3]");
        EXPECT_I64(&y, 0, 0, 1, 0, 0, 2);
    }
    gir_graph_free(g);
    gir_arena_free(a);
}

/* Hostile attributes and data: a Range of delta 0, a Gather index past the
 * axis, and a DepthToSpace blocksize that does not divide the channels. */
static void case_new_ops_bad(void)
{
    GirGraph *g = gir_graph_new("t");
    GirArena *a = gir_arena_new();
    int64_t r[3] = {0, 5, 0}, idx[1] = {7};
    int in[3], nd;
    GirTensor x = iota(a, ty(GIR_DT_F32, 4, D(1), D(3), D(2), D(2)));
    in[0] = cst(g, "s", ty(GIR_DT_I64, 0), &r[0]);
    in[1] = cst(g, "l", ty(GIR_DT_I64, 0), &r[1]);
    in[2] = cst(g, "d", ty(GIR_DT_I64, 0), &r[2]);
    node1(g, GIR_OP_RANGE, "range", in, 3, 1);
    EXPECT_ERROR(g, NULL, "node 'range': Range: delta must be nonzero and all inputs finite");
    gir_graph_free(g);

    g = gir_graph_new("t");
    in[0] = input(g, "x", ty(GIR_DT_F32, 1, D(4)));
    in[1] = cst(g, "i", ty(GIR_DT_I64, 1, D(1)), idx);
    node1(g, GIR_OP_GATHER, "gather", in, 2, 1);
    {
        GirTensor v = iota(a, ty(GIR_DT_F32, 1, D(4)));
        EXPECT_ERROR(g, &v, "node 'gather': Gather: index 7 out of range for an axis of 4");
    }
    gir_graph_free(g);

    g = gir_graph_new("t");
    in[0] = input(g, "x", x.type);
    nd = node1(g, GIR_OP_DEPTHTOSPACE, "d2s", in, 1, 1);
    gir_set_attr_int(g, nd, "blocksize", 2);
    EXPECT_ERROR(g, &x, "node 'd2s': DepthToSpace: channels 3 not a multiple of blocksize^2");
    gir_graph_free(g);
    gir_arena_free(a);
}

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    {"conv_pad_stride", case_conv_pad_stride},
    {"conv_groups", case_conv_groups},
    {"conv_dilation", case_conv_dilation},
    {"conv_1d_same", case_conv_1d_same},
    {"conv_channels_bad", case_conv_channels_bad},
    {"conv_stride_bad", case_conv_stride_bad},
    {"maxpool_pads", case_maxpool_pads},
    {"maxpool_colmajor", case_maxpool_colmajor},
    {"avgpool_ceil", case_avgpool_ceil},
    {"resize_nearest", case_resize_nearest},
    {"resize_linear", case_resize_linear},
    {"broadcast_add", case_broadcast_add},
    {"broadcast_bad", case_broadcast_bad},
    {"bn_leaky", case_bn_leaky},
    {"concat_split", case_concat_split},
    {"slice_negative", case_slice_negative},
    {"pad_reflect", case_pad_reflect},
    {"reshape_infer", case_reshape_infer},
    {"input_bad", case_input_bad},
    {"declared_conflict_bad", case_declared_conflict_bad},
    {"gemm_matmul", case_gemm_matmul},
    {"softmax", case_softmax},
    {"yolo", case_yolo},
    {"shapes_misc", case_shapes_misc},
    {"shape_subgraph", case_shape_subgraph},
    {"reduce_arg", case_reduce_arg},
    {"convtranspose", case_convtranspose},
    {"where_compare", case_where_compare},
    {"cast_f16", case_cast_f16},
    {"topk", case_topk},
    {"nms", case_nms},
    {"new_ops_bad", case_new_ops_bad},
};

int main(int argc, char **argv)
{
    size_t i;
    int ran = 0;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (argc < 2 || strcmp(argv[1], cases[i].name) == 0) {
            cases[i].fn();
            ran++;
        }
    }
    if (!ran) {
        fprintf(stderr, "test_interp: no case '%s'\n", argv[1]);
        return 2;
    }
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    return 0;
}
