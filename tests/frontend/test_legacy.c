/*
 * The ONNX reader on models of opsets 1 to 6: each legacy form becomes the
 * canonical IR form (structural checks), and where the rewrite changes what
 * is computed (the pre-7 broadcast, Upsample's height/width scales, Dropout
 * masks) the interpreter's answer is checked against values worked out by
 * hand.
 *
 * usage: test_legacy CASE
 *   broadcast  Add/Sub/Mul/Div with broadcast=1 and axis: Reshape in front of
 *              a fed B, a constant B re-typed, suffix matching left alone,
 *              a rank known only from value_info
 *   attrs      consumed_inputs, Gemm broadcast, BatchNormalization is_test
 *              and spatial, Concat without axis, Pad paddings, Reshape shape
 *              attribute, Split's input and attribute forms, Dropout is_test
 *   upsample   Upsample height_scale/width_scale, nearest and bilinear
 *   mask       a Dropout mask that is read becomes a constant of ones
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "frontend/frontend.h"
#include "onnx_builder.h"

enum { F32 = 1, I64 = 7, BOOL = 9 };

static GirGraph *must_load(ModelBuilder *b)
{
    GirError e = {{0}};
    int unsupported = -1;
    size_t len;
    uint8_t *buf = mb_pack(b, &len);
    GirGraph *g = fe_onnx_from_memory(buf, len, "m.onnx", &unsupported, &e);
    free(buf);
    free(b);
    if (!g)
        fprintf(stderr, "load failed: %s\n", e.msg);
    CHECK(g != NULL);
    CHECK_INT(unsupported, 0);
    if (g) {
        GirError ve = {{0}};
        int rc = gir_verify(g, &ve);
        if (rc != 0)
            fprintf(stderr, "verify failed: %s\n", ve.msg);
        CHECK_INT(rc, 0);
    }
    return g;
}

static void check_type(const GirGraph *g, int val, GirDType dt, int rank, const int64_t *dims)
{
    char buf[128];
    int i, ok = g->vals[val].type.dtype == dt && g->vals[val].type.rank == rank;
    for (i = 0; ok && i < rank; i++)
        ok = g->vals[val].type.dims[i] == dims[i];
    if (!ok)
        fprintf(stderr, "value '%s' has type %s\n", g->vals[val].name,
                gir_type_str(&g->vals[val].type, buf, sizeof buf));
    CHECK(ok);
}

/* The node called name; -1 when absent. */
static int find_node(const GirGraph *g, const char *name)
{
    int i;
    for (i = 0; i < g->nnode; i++)
        if (strcmp(g->nodes[i].name, name) == 0)
            return i;
    return -1;
}

static const GirValue *in_val(const GirGraph *g, int node, int i)
{
    int id = node >= 0 && i < g->nodes[node].nin ? g->nodes[node].in[i] : -1;
    return id >= 0 ? &g->vals[id] : NULL;
}

/* Run g on f32 inputs (data[i] feeds input i with its declared type) and
 * compare output k with want (n values, within 1e-6). */
static void run_check(const GirGraph *g, float *const *data, int k, const float *want, int n)
{
    GirArena *a = gir_arena_new();
    GirTensor in[8], out[8];
    GirError e = {{0}};
    int i, rc;
    CHECK(g->ninput <= 8 && g->noutput <= 8);
    for (i = 0; i < g->ninput && i < 8; i++) {
        in[i].type = g->vals[g->inputs[i]].type;
        in[i].data = data[i];
    }
    rc = gir_run(g, in, out, a, &e);
    if (rc != 0)
        fprintf(stderr, "run failed: %s\n", e.msg);
    CHECK_INT(rc, 0);
    if (rc == 0) {
        CHECK_INT(gir_type_numel(&out[k].type), n);
        for (i = 0; i < n && i < gir_type_numel(&out[k].type); i++) {
            float got = ((const float *)out[k].data)[i];
            if (fabsf(got - want[i]) > 1e-6f) {
                fprintf(stderr, "output %d element %d: %g, expected %g\n", k, i, got,
                        want[i]);
                CHECK(0);
                break;
            }
        }
    }
    gir_arena_free(a);
}

/* y = A op B with A [2,3,4], for the four legacy broadcast shapes. */
static void case_broadcast(void)
{
    static const int64_t a3[] = {2, 3, 4}, b1[] = {3}, c1[] = {2}, d1[] = {4};
    static const int64_t b31[] = {3, 1}, c211[] = {2, 1, 1};
    static const char *add_in[] = {"a", "b", NULL}, *add_out[] = {"s", NULL};
    static const char *mul_in[] = {"s", "c", NULL}, *mul_out[] = {"m", NULL};
    static const char *sub_in[] = {"m", "d", NULL}, *sub_out[] = {"t", NULL};
    static const char *div_in[] = {"t", "b", NULL}, *div_out[] = {"y", NULL};
    static float cdata[] = {2, 10}, ddata[] = {1, 2, 3, 4};
    static float av[24], bv[3] = {1, 2, 4}, want[24];
    float *feeds[2] = {av, bv};
    ModelBuilder *mb = mb_new(6);
    GirGraph *g;
    int i, j, k, n;

    mb_input(mb, "a", F32, 3, a3);
    mb_input(mb, "b", F32, 1, b1);
    mb_init_f32(mb, "c", 1, c1, cdata, 2);
    mb_init_f32(mb, "d", 1, d1, ddata, 4);
    mb_node(mb, "Add", "add", add_in, add_out); /* fed B: a Reshape to [3,1] */
    mb_attr_int(mb, "broadcast", 1);
    mb_attr_int(mb, "axis", 1);
    mb_node(mb, "Mul", "mul", mul_in, mul_out); /* constant B: re-typed [2,1,1] */
    mb_attr_int(mb, "broadcast", 1);
    mb_attr_int(mb, "axis", 0);
    mb_node(mb, "Sub", "sub", sub_in, sub_out); /* suffix matching: as it is */
    mb_attr_int(mb, "broadcast", 1);
    mb_node(mb, "Div", "div", div_in, div_out); /* negative axis */
    mb_attr_int(mb, "broadcast", 1);
    mb_attr_int(mb, "axis", -2);
    mb_output(mb, "y");
    g = must_load(mb);
    if (!g)
        return;

    n = find_node(g, "add:broadcast");
    CHECK(n >= 0);
    if (n >= 0) {
        CHECK_INT(g->nodes[n].op, GIR_OP_RESHAPE);
        CHECK_STR(in_val(g, n, 0)->name, "b");
        CHECK_INT(((const int64_t *)in_val(g, n, 1)->data)[0], 0);
        CHECK_INT(((const int64_t *)in_val(g, n, 1)->data)[1], 1);
        CHECK(n < find_node(g, "add"));
    }
    CHECK_STR(in_val(g, find_node(g, "add"), 1)->name, "add:B");
    check_type(g, g->nodes[find_node(g, "add")].in[1], GIR_DT_F32, 2, b31);
    CHECK(gir_attr(&g->nodes[find_node(g, "add")], "broadcast") == NULL);
    CHECK(gir_attr(&g->nodes[find_node(g, "add")], "axis") == NULL);

    CHECK_INT(in_val(g, find_node(g, "mul"), 1)->kind, GIR_VAL_CONST);
    check_type(g, g->nodes[find_node(g, "mul")].in[1], GIR_DT_F32, 3, c211);
    CHECK_STR(in_val(g, find_node(g, "sub"), 1)->name, "d");
    CHECK(find_node(g, "div:broadcast") >= 0);
    CHECK_INT(g->nnode, 6);
    check_type(g, g->outputs[0], GIR_DT_F32, 3, a3);

    for (i = 0; i < 2; i++)
        for (j = 0; j < 3; j++)
            for (k = 0; k < 4; k++) {
                int at = (i * 3 + j) * 4 + k;
                av[at] = (float)(at % 7) - 3.0f;
                want[at] = ((av[at] + bv[j]) * cdata[i] - ddata[k]) / bv[j];
            }
    run_check(g, feeds, 0, want, 24);
    gir_graph_free(g);

    /* B's rank known only from value_info: 'b' has no declared shape and
     * Relu passes that on. */
    {
        static const char *r_in[] = {"b", NULL}, *r_out[] = {"rb", NULL};
        static const char *x_in[] = {"a", "rb", NULL}, *x_out[] = {"y", NULL};
        mb = mb_new(6);
        mb_input(mb, "a", F32, 3, a3);
        mb_input(mb, "b", F32, 1, b1);
        mb->ttypes[1].shape = NULL;
        mb_value_info(mb, "rb", F32, 1, b1);
        mb_node(mb, "Relu", "relu", r_in, r_out);
        mb_node(mb, "Add", "add", x_in, x_out);
        mb_attr_int(mb, "broadcast", 1);
        mb_attr_int(mb, "axis", 1);
        mb_output(mb, "y");
        g = must_load(mb);
        if (!g)
            return;
        n = find_node(g, "add:broadcast");
        CHECK(n >= 0);
        CHECK_STR(in_val(g, n, 0)->name, "rb");
        gir_graph_free(g);
    }
}

static void case_attrs(void)
{
    static const int64_t x[] = {1, 2, 2, 2}, c2[] = {2}, y4[] = {1, 4, 2, 2};
    static const int64_t m23[] = {2, 3}, w34[] = {3, 4}, v4[] = {4}, z24[] = {2, 4};
    static const int64_t p[] = {1, 4, 4, 2}, r[] = {2, 8, 2}, s1[] = {1, 8, 2};
    static const char *bn_in[] = {"x", "sc", "bi", "mu", "va", NULL}, *bn_out[] = {"n", NULL};
    static const char *relu_in[] = {"n", NULL}, *relu_out[] = {"rl", NULL};
    static const char *do_in[] = {"rl", NULL}, *do_out[] = {"dr", NULL};
    static const char *cat_in[] = {"dr", "dr", NULL}, *cat_out[] = {"cat", NULL};
    static const char *pad_in[] = {"cat", NULL}, *pad_out[] = {"pd", NULL};
    static const char *rs_in[] = {"pd", NULL}, *rs_out[] = {"rs", NULL};
    static const char *sp_in[] = {"rs", "sizes", NULL}, *sp_out[] = {"s0", "s1", NULL};
    static const char *gm_in[] = {"ga", "gb", "gc", NULL}, *gm_out[] = {"gy", NULL};
    static float one[] = {1, 1}, zero[] = {0, 0};
    static float gb[12], gc[4] = {1, 2, 3, 4};
    static int64_t cons[] = {0, 0, 0, 0, 0}, padding[] = {0, 0, 1, 0, 0, 0, 1, 0};
    static int64_t shape[] = {2, 8, 2}, sizes[] = {1, 1};
    ModelBuilder *b = mb_new(1);
    Onnx__TensorProto *t;
    GirGraph *g;
    int n;

    mb_input(b, "x", F32, 4, x);
    mb_input(b, "ga", F32, 2, m23);
    mb_init_f32(b, "sc", 1, c2, one, 2);
    mb_init_f32(b, "bi", 1, c2, zero, 2);
    mb_init_f32(b, "mu", 1, c2, zero, 2);
    mb_init_f32(b, "va", 1, c2, one, 2);
    mb_init_f32(b, "gb", 2, w34, gb, 12);
    mb_init_f32(b, "gc", 1, v4, gc, 4);
    t = mb_init(b, "sizes", I64, 1, c2);
    t->n_int64_data = 2, t->int64_data = sizes;
    mb_node(b, "BatchNormalization", "bn", bn_in, bn_out);
    mb_attr_ints(b, "consumed_inputs", cons, 5);
    mb_attr_int(b, "is_test", 1);
    mb_attr_int(b, "spatial", 1);
    mb_node(b, "Relu", "relu", relu_in, relu_out);
    mb_attr_ints(b, "consumed_inputs", cons, 1);
    mb_node(b, "Dropout", "drop", do_in, do_out);
    mb_attr_int(b, "is_test", 1);
    mb_attr_float(b, "ratio", 0.3f);
    mb_node(b, "Concat", "cat", cat_in, cat_out); /* no axis: 1 before opset 4 */
    mb_node(b, "Pad", "pad", pad_in, pad_out);
    mb_attr_ints(b, "paddings", padding, 8);
    mb_node(b, "Reshape", "reshape", rs_in, rs_out);
    mb_attr_ints(b, "shape", shape, 3);
    mb_node(b, "Split", "split", sp_in, sp_out); /* opset 1: sizes as an input */
    mb_attr_int(b, "axis", 0);
    mb_node(b, "Gemm", "gemm", gm_in, gm_out);
    mb_attr_int(b, "broadcast", 1);
    mb_output(b, "s1");
    mb_output(b, "gy");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->opset, 1);
    n = find_node(g, "bn");
    CHECK_INT(g->nodes[n].nattr, 0);
    CHECK_INT(g->nodes[find_node(g, "relu")].nattr, 0);
    n = find_node(g, "drop");
    CHECK_INT(g->nodes[n].op, GIR_OP_IDENTITY);
    CHECK_INT(g->nodes[n].nattr, 0);
    n = find_node(g, "cat");
    CHECK_INT(gir_attr_int(&g->nodes[n], "axis", -1), 1);
    check_type(g, g->nodes[n].out[0], GIR_DT_F32, 4, y4);
    n = find_node(g, "pad");
    CHECK_INT(g->nodes[n].nin, 2);
    CHECK_STR(in_val(g, n, 1)->name, "pad:paddings");
    CHECK(gir_attr(&g->nodes[n], "paddings") == NULL);
    check_type(g, g->nodes[n].out[0], GIR_DT_F32, 4, p);
    n = find_node(g, "reshape");
    CHECK_INT(g->nodes[n].nin, 2);
    CHECK(gir_attr(&g->nodes[n], "shape") == NULL);
    check_type(g, g->nodes[n].out[0], GIR_DT_F32, 3, r);
    n = find_node(g, "split");
    CHECK_STR(in_val(g, n, 1)->name, "sizes");
    check_type(g, g->outputs[0], GIR_DT_F32, 3, s1);
    n = find_node(g, "gemm");
    CHECK(gir_attr(&g->nodes[n], "broadcast") == NULL);
    check_type(g, g->outputs[1], GIR_DT_F32, 2, z24);
    gir_graph_free(g);

    /* Split at opset 2: the sizes as an attribute. */
    {
        static const char *in[] = {"x", NULL}, *out[] = {"a", "b", NULL};
        static const int64_t a[] = {1, 1, 2, 2};
        static int64_t split[] = {1, 1};
        b = mb_new(2);
        mb_input(b, "x", F32, 4, x);
        mb_node(b, "Split", "split", in, out);
        mb_attr_int(b, "axis", 1);
        mb_attr_ints(b, "split", split, 2);
        mb_output(b, "a");
        mb_output(b, "b");
        g = must_load(b);
        if (!g)
            return;
        CHECK_STR(in_val(g, 0, 1)->name, "split:split");
        check_type(g, g->outputs[1], GIR_DT_F32, 4, a);
        gir_graph_free(g);
    }

    /* spatial=0 on a 2-D input is per channel anyway. */
    {
        static const char *in[] = {"x", "sc", "bi", "mu", "va", NULL}, *out[] = {"y", NULL};
        static const int64_t x2[] = {3, 2};
        b = mb_new(6);
        mb_input(b, "x", F32, 2, x2);
        mb_init_f32(b, "sc", 1, c2, one, 2);
        mb_init_f32(b, "bi", 1, c2, zero, 2);
        mb_init_f32(b, "mu", 1, c2, zero, 2);
        mb_init_f32(b, "va", 1, c2, one, 2);
        mb_node(b, "BatchNormalization", "bn", in, out);
        mb_attr_int(b, "is_test", 1);
        mb_attr_int(b, "spatial", 0);
        mb_output(b, "y");
        g = must_load(b);
        if (!g)
            return;
        CHECK_INT(g->nodes[0].nattr, 0);
        check_type(g, g->outputs[0], GIR_DT_F32, 2, x2);
        gir_graph_free(g);
    }
}

static void case_upsample(void)
{
    static const int64_t x[] = {1, 1, 2, 2}, y[] = {1, 1, 4, 6};
    static const char *in[] = {"x", NULL}, *out[] = {"y", NULL};
    static float xv[] = {1, 2, 3, 4};
    static const float want[] = {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2,
                                 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4};
    float *feeds[1] = {xv};
    ModelBuilder *b = mb_new(6);
    GirGraph *g;
    const GirValue *sc;

    mb_input(b, "x", F32, 4, x);
    mb_node(b, "Upsample", "up", in, out);
    mb_attr_float(b, "height_scale", 2.0f);
    mb_attr_float(b, "width_scale", 3.0f);
    mb_output(b, "y");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->nodes[0].op, GIR_OP_RESIZE);
    CHECK_INT(g->nodes[0].nin, 3);
    sc = in_val(g, 0, 2);
    CHECK(sc && sc->type.dims[0] == 4);
    CHECK(sc && ((const float *)sc->data)[2] == 2.0f && ((const float *)sc->data)[3] == 3.0f);
    CHECK(gir_attr(&g->nodes[0], "height_scale") == NULL);
    CHECK_STR(gir_attr_string(&g->nodes[0], "mode", ""), "nearest");
    check_type(g, g->outputs[0], GIR_DT_F32, 4, y);
    run_check(g, feeds, 0, want, 24);
    gir_graph_free(g);

    b = mb_new(1);
    mb_input(b, "x", F32, 4, x);
    mb_node(b, "Upsample", "up", in, out);
    mb_attr_float(b, "height_scale", 2.0f);
    mb_attr_float(b, "width_scale", 3.0f);
    mb_attr_string(b, "mode", "bilinear");
    mb_output(b, "y");
    g = must_load(b);
    if (!g)
        return;
    CHECK_STR(gir_attr_string(&g->nodes[0], "mode", ""), "linear");
    CHECK_STR(gir_attr_string(&g->nodes[0], "coordinate_transformation_mode", ""),
              "asymmetric");
    check_type(g, g->outputs[0], GIR_DT_F32, 4, y);
    gir_graph_free(g);
}

static void case_mask(void)
{
    static const int64_t x[] = {2, 3};
    static const char *in[] = {"x", NULL}, *out[] = {"y", "mask", NULL};
    static const char *in2[] = {"x", "mask", NULL}, *out2[] = {"z", NULL};
    static float xv[] = {1, -2, 3, -4, 5, -6};
    float *feeds[1] = {xv};
    ModelBuilder *b = mb_new(13);
    GirGraph *g;
    int id, i, ones = 1;

    mb_input(b, "x", F32, 2, x);
    mb_node(b, "Dropout", "drop", in, out);
    mb_output(b, "y");
    mb_output(b, "mask");
    g = must_load(b);
    if (!g)
        return;
    id = gir_find_value(g, "mask");
    CHECK_INT(g->vals[id].kind, GIR_VAL_CONST);
    check_type(g, id, GIR_DT_BOOL, 2, x);
    for (i = 0; i < 6; i++)
        ones = ones && ((const uint8_t *)g->vals[id].data)[i] == 1;
    CHECK(ones);
    CHECK_INT(g->nodes[0].nout, 1);
    gir_graph_free(g);

    /* Before opset 10 the mask has the input's type; here a node reads it. */
    b = mb_new(6);
    mb_input(b, "x", F32, 2, x);
    mb_node(b, "Dropout", "drop", in, out);
    mb_attr_int(b, "is_test", 1);
    mb_node(b, "Mul", "mul", in2, out2);
    mb_output(b, "z");
    g = must_load(b);
    if (!g)
        return;
    id = gir_find_value(g, "mask");
    check_type(g, id, GIR_DT_F32, 2, x);
    run_check(g, feeds, 0, xv, 6);
    gir_graph_free(g);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CASE\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "broadcast") == 0)
        case_broadcast();
    else if (strcmp(argv[1], "attrs") == 0)
        case_attrs();
    else if (strcmp(argv[1], "upsample") == 0)
        case_upsample();
    else if (strcmp(argv[1], "mask") == 0)
        case_mask();
    else {
        fprintf(stderr, "unknown case '%s'\n", argv[1]);
        return 2;
    }
    return CHECK_DONE();
}
