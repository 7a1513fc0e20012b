/*
 * The ONNX reader on good input: backend-test models (shapes, inputs,
 * locations), older-opset rewrites into the canonical form, every
 * initializer storage form, external data, and a smoke run over every node
 * model of the backend tests (loads, or fails with a message naming the
 * file; never crashes).
 *
 * usage: test_onnx CASE TMPDIR ONNX_TESTDATA_DIR
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "frontend/frontend.h"
#include "onnx_builder.h"

static const char *tmpdir, *testdata;

enum { F32 = 1, U8 = 2, I8 = 3, I32 = 6, I64 = 7, BOOL = 9, F64 = 11, F16 = 10 };

static GirGraph *load_node_test(const char *name)
{
    char path[1024];
    GirError e = {{0}};
    int unsupported = -1;
    GirGraph *g;
    snprintf(path, sizeof path, "%s/node/%s/model.onnx", testdata, name);
    g = fe_load_onnx(path, &unsupported, &e);
    if (!g)
        fprintf(stderr, "%s\n", e.msg);
    CHECK(g != NULL);
    CHECK_INT(unsupported, 0);
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

static void case_load(void)
{
    static const int64_t y[] = {1, 1, 4, 3}, unk[] = {-1}, u3[] = {3, 4, 5, 1};
    static const int64_t up[] = {1, 1, 4, 6};
    GirGraph *g = load_node_test("test_conv_with_strides_padding");
    if (g) {
        CHECK_INT(g->opset, 11);
        CHECK_INT(g->ninput, 2);
        CHECK_INT(g->vals[g->inputs[1]].kind, GIR_VAL_INPUT);
        CHECK_INT(g->nnode, 1);
        CHECK_INT(g->nodes[0].op, GIR_OP_CONV);
        CHECK_STR(g->nodes[0].name, "Conv#0");
        CHECK_STR(g->nodes[0].loc.node, "Conv#0");
        CHECK(strstr(g->nodes[0].loc.file, "test_conv_with_strides_padding/model.onnx") != NULL);
        CHECK_INT(g->noutput, 1);
        check_type(g, g->outputs[0], GIR_DT_F32, 4, y);
        gir_graph_free(g);
    }
    /* The split sizes are a run-time input here, so the sizes stay open. */
    g = load_node_test("test_split_variable_parts_1d");
    if (g) {
        CHECK_INT(g->nnode, 1);
        CHECK_INT(g->nodes[0].nin, 2);
        CHECK_INT(g->nodes[0].nout, 2);
        CHECK_INT(g->noutput, 2);
        check_type(g, g->outputs[0], GIR_DT_F32, 1, unk);
        check_type(g, g->outputs[1], GIR_DT_F32, 1, unk);
        gir_graph_free(g);
    }
    g = load_node_test("test_unsqueeze_axis_3");
    if (g) {
        CHECK_INT(g->nodes[0].nin, 2);
        CHECK_INT(g->vals[g->nodes[0].in[1]].kind, GIR_VAL_CONST);
        check_type(g, g->outputs[0], GIR_DT_F32, 4, u3);
        gir_graph_free(g);
    }
    g = load_node_test("test_upsample_nearest");
    if (g) {
        const GirNode *n = &g->nodes[0];
        CHECK_INT(n->op, GIR_OP_RESIZE);
        CHECK_INT(n->nin, 3);
        CHECK_INT(n->in[1], -1);
        CHECK_STR(gir_attr_string(n, "mode", ""), "nearest");
        CHECK_STR(gir_attr_string(n, "nearest_mode", ""), "floor");
        CHECK_STR(gir_attr_string(n, "coordinate_transformation_mode", ""), "asymmetric");
        (void)up;
        gir_graph_free(g);
    }
    g = load_node_test("test_constant");
    if (g) {
        CHECK_INT(g->nnode, 0);
        CHECK_INT(g->vals[g->outputs[0]].kind, GIR_VAL_CONST);
        CHECK_STR(g->vals[g->outputs[0]].name, "values");
        gir_graph_free(g);
    }
}

/* Load a built model from memory as "m.onnx"; NULL + message printed on
 * failure. */
static GirGraph *load_built(ModelBuilder *b, int *unsupported, GirError *e)
{
    size_t len;
    uint8_t *buf = mb_pack(b, &len);
    GirGraph *g = fe_onnx_from_memory(buf, len, "m.onnx", unsupported, e);
    free(buf);
    free(b);
    return g;
}

static GirGraph *must_load(ModelBuilder *b)
{
    GirError e = {{0}};
    int unsupported = -1;
    GirGraph *g = load_built(b, &unsupported, &e);
    if (!g)
        fprintf(stderr, "load failed: %s\n", e.msg);
    CHECK(g != NULL);
    CHECK_INT(unsupported, 0);
    return g;
}

static const GirValue *in_val(const GirGraph *g, int node, int i)
{
    int id = g->nodes[node].in[i];
    return id >= 0 ? &g->vals[id] : NULL;
}

static void rewrite_split(void)
{
    static const int64_t x[] = {5}, a[] = {2}, b3[] = {3};
    static const char *ins[] = {"x", NULL}, *outs[] = {"a", "b", NULL};
    static int64_t split[] = {2, 3};
    ModelBuilder *b = mb_new(11);
    GirGraph *g;
    mb_input(b, "x", F32, 1, x);
    mb_node(b, "Split", "s", ins, outs);
    mb_attr_int(b, "axis", 0);
    mb_attr_ints(b, "split", split, 2);
    mb_output(b, "a");
    mb_output(b, "b");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->nodes[0].nin, 2);
    CHECK(gir_attr(&g->nodes[0], "split") == NULL);
    CHECK_INT(in_val(g, 0, 1)->kind, GIR_VAL_CONST);
    CHECK_INT(((int64_t *)in_val(g, 0, 1)->data)[1], 3);
    check_type(g, g->outputs[0], GIR_DT_F32, 1, a);
    check_type(g, g->outputs[1], GIR_DT_F32, 1, b3);
    gir_graph_free(g);
}

static void rewrite_squeeze(void)
{
    static const int64_t x[] = {1, 3}, y[] = {3};
    static const char *ins[] = {"x", NULL}, *outs[] = {"y", NULL};
    static const char *ins2[] = {"y", NULL}, *outs2[] = {"z", NULL};
    static int64_t axes[] = {0};
    ModelBuilder *b = mb_new(12);
    GirGraph *g;
    mb_input(b, "x", F32, 2, x);
    mb_node(b, "Squeeze", "sq", ins, outs);
    mb_attr_ints(b, "axes", axes, 1);
    mb_node(b, "Unsqueeze", "usq", ins2, outs2);
    mb_attr_ints(b, "axes", axes, 1);
    mb_output(b, "z");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->nodes[0].nin, 2);
    CHECK_INT(g->nodes[1].nin, 2);
    CHECK_STR(in_val(g, 0, 1)->name, "sq:axes");
    check_type(g, g->nodes[0].out[0], GIR_DT_F32, 1, y);
    check_type(g, g->outputs[0], GIR_DT_F32, 2, x);
    gir_graph_free(g);
}

static void rewrite_clip(void)
{
    static const int64_t x[] = {4};
    static const char *ins[] = {"x", NULL}, *outs[] = {"y", NULL};
    static const char *ins2[] = {"y", NULL}, *outs2[] = {"z", NULL};
    ModelBuilder *b = mb_new(9);
    GirGraph *g;
    mb_input(b, "x", F32, 1, x);
    mb_node(b, "Clip", "c1", ins, outs);
    mb_attr_float(b, "min", 0.0f);
    mb_attr_float(b, "max", 6.0f);
    mb_node(b, "Clip", "c2", ins2, outs2);
    mb_attr_float(b, "max", 1.5f);
    mb_output(b, "z");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->nodes[0].nin, 3);
    CHECK_INT(g->nodes[0].nattr, 0);
    CHECK_INT(in_val(g, 0, 1)->type.rank, 0);
    CHECK(*(float *)in_val(g, 0, 2)->data == 6.0f);
    CHECK_INT(g->nodes[1].nin, 3);
    CHECK(in_val(g, 1, 1) == NULL);
    CHECK(*(float *)in_val(g, 1, 2)->data == 1.5f);
    check_type(g, g->outputs[0], GIR_DT_F32, 1, x);
    gir_graph_free(g);
}

static void rewrite_pad_slice(void)
{
    static const int64_t x[] = {2, 3}, y[] = {2, 5}, z[] = {2, 2};
    static const char *ins[] = {"x", NULL}, *outs[] = {"y", NULL};
    static const char *ins2[] = {"y", NULL}, *outs2[] = {"z", NULL};
    static int64_t pads[] = {0, 1, 0, 1}, starts[] = {1}, ends[] = {3}, axes[] = {1};
    ModelBuilder *b = mb_new(9);
    GirGraph *g;
    mb_input(b, "x", F32, 2, x);
    mb_node(b, "Pad", "p", ins, outs);
    mb_attr_ints(b, "pads", pads, 4);
    mb_attr_float(b, "value", 2.5f);
    mb_attr_string(b, "mode", "constant");
    mb_node(b, "Slice", "sl", ins2, outs2);
    mb_attr_ints(b, "starts", starts, 1);
    mb_attr_ints(b, "ends", ends, 1);
    mb_attr_ints(b, "axes", axes, 1);
    mb_output(b, "z");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->nodes[0].nin, 3);
    CHECK_INT(in_val(g, 0, 1)->type.dtype, GIR_DT_I64);
    CHECK_INT(in_val(g, 0, 1)->type.dims[0], 4);
    CHECK(*(float *)in_val(g, 0, 2)->data == 2.5f);
    CHECK_STR(gir_attr_string(&g->nodes[0], "mode", ""), "constant");
    CHECK(gir_attr(&g->nodes[0], "pads") == NULL);
    check_type(g, g->nodes[0].out[0], GIR_DT_F32, 2, y);
    CHECK_INT(g->nodes[1].nin, 4);
    check_type(g, g->outputs[0], GIR_DT_F32, 2, z);
    gir_graph_free(g);
}

static void rewrite_softmax(void)
{
    static const int64_t x[] = {2, 3, 4};
    static const char *ins[] = {"x", NULL}, *outs[] = {"y", NULL};
    ModelBuilder *b = mb_new(11);
    GirGraph *g;
    mb_input(b, "x", F32, 3, x);
    mb_node(b, "Softmax", "sm", ins, outs);
    mb_output(b, "y");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(gir_attr_int(&g->nodes[0], "coerce2d", 0), 1);
    CHECK_INT(gir_attr_int(&g->nodes[0], "axis", -1), 1);
    check_type(g, g->outputs[0], GIR_DT_F32, 3, x);
    gir_graph_free(g);

    /* From 13 on the form is already canonical. */
    b = mb_new(13);
    mb_input(b, "x", F32, 3, x);
    mb_node(b, "Softmax", "sm", ins, outs);
    mb_output(b, "y");
    g = must_load(b);
    if (!g)
        return;
    CHECK(gir_attr(&g->nodes[0], "coerce2d") == NULL);
    gir_graph_free(g);
}

static void rewrite_upsample_resize(void)
{
    static const int64_t x[] = {1, 1, 2, 2}, y[] = {1, 1, 4, 4}, four[] = {4};
    static const char *ins[] = {"x", NULL}, *outs[] = {"y", NULL};
    static const char *ins2[] = {"x", "sc", NULL}, *outs2[] = {"z", NULL};
    static float scales[] = {1, 1, 2, 2};
    ModelBuilder *b = mb_new(7);
    GirGraph *g;
    mb_input(b, "x", F32, 4, x);
    mb_node(b, "Upsample", "up", ins, outs);
    mb_attr_floats(b, "scales", scales, 4);
    mb_output(b, "y");
    g = must_load(b);
    if (g) {
        const GirNode *n = &g->nodes[0];
        CHECK_INT(n->op, GIR_OP_RESIZE);
        CHECK_STR(n->name, "up");
        CHECK_INT(n->nin, 3);
        CHECK(in_val(g, 0, 1) == NULL);
        CHECK(((float *)in_val(g, 0, 2)->data)[3] == 2.0f);
        CHECK(gir_attr(n, "scales") == NULL);
        CHECK_STR(gir_attr_string(n, "mode", ""), "nearest");
        CHECK_STR(gir_attr_string(n, "nearest_mode", ""), "floor");
        CHECK_STR(gir_attr_string(n, "coordinate_transformation_mode", ""), "asymmetric");
        check_type(g, g->outputs[0], GIR_DT_F32, 4, y);
        gir_graph_free(g);
    }

    b = mb_new(9);
    mb_input(b, "x", F32, 4, x);
    mb_init_f32(b, "sc", 1, four, scales, 4);
    mb_node(b, "Upsample", "up", ins2, outs2);
    mb_attr_string(b, "mode", "linear");
    mb_output(b, "z");
    g = must_load(b);
    if (g) {
        CHECK_STR(gir_attr_string(&g->nodes[0], "mode", ""), "linear");
        CHECK(gir_attr(&g->nodes[0], "nearest_mode") == NULL);
        check_type(g, g->outputs[0], GIR_DT_F32, 4, y);
        gir_graph_free(g);
    }

    b = mb_new(10);
    mb_input(b, "x", F32, 4, x);
    mb_init_f32(b, "sc", 1, four, scales, 4);
    mb_node(b, "Resize", "rs", ins2, outs2);
    mb_output(b, "z");
    g = must_load(b);
    if (g) {
        CHECK_INT(g->nodes[0].nin, 3);
        CHECK(in_val(g, 0, 1) == NULL);
        CHECK_STR(in_val(g, 0, 2)->name, "sc");
        CHECK_STR(gir_attr_string(&g->nodes[0], "coordinate_transformation_mode", ""),
                  "asymmetric");
        check_type(g, g->outputs[0], GIR_DT_F32, 4, y);
        gir_graph_free(g);
    }
}

static void rewrite_batchnorm_maxpool(void)
{
    static const int64_t x[] = {1, 2, 4, 4}, c[] = {2}, p[] = {1, 2, 2, 2};
    static const char *ins[] = {"x", "s", "b", "m", "v", NULL};
    static const char *outs[] = {"y", "", "", "sm", "sv", NULL};
    static const char *ins2[] = {"y", NULL}, *outs2[] = {"z", "idx", NULL};
    static float one[] = {1, 1}, zero[] = {0, 0};
    static int64_t k[] = {2, 2};
    ModelBuilder *b = mb_new(7);
    GirGraph *g;
    mb_input(b, "x", F32, 4, x);
    mb_init_f32(b, "s", 1, c, one, 2);
    mb_init_f32(b, "b", 1, c, zero, 2);
    mb_init_f32(b, "m", 1, c, zero, 2);
    mb_init_f32(b, "v", 1, c, one, 2);
    mb_node(b, "BatchNormalization", "bn", ins, outs);
    mb_attr_int(b, "spatial", 1);
    mb_attr_float(b, "epsilon", 1e-3f);
    mb_node(b, "MaxPool", "mp", ins2, outs2);
    mb_attr_ints(b, "kernel_shape", k, 2);
    mb_attr_ints(b, "strides", k, 2);
    mb_output(b, "z");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->ninput, 1);
    CHECK_INT(g->nodes[0].nout, 1);
    CHECK(gir_attr(&g->nodes[0], "spatial") == NULL);
    CHECK(gir_attr_float(&g->nodes[0], "epsilon", 0) == 1e-3f);
    CHECK_INT(g->nodes[1].nout, 1);
    check_type(g, g->outputs[0], GIR_DT_F32, 4, p);
    gir_graph_free(g);
}

static void rewrite_constants(void)
{
    static const char *outs[] = {"c", NULL}, *outs2[] = {"d", NULL};
    static int64_t v[] = {7, 8, 9};
    ModelBuilder *b = mb_new(13);
    GirGraph *g;
    int id;
    mb_node(b, "Constant", "k", NULL, outs);
    mb_attr_ints(b, "value_ints", v, 3);
    mb_node(b, "Constant", "", NULL, outs2);
    mb_attr_float(b, "value_float", 0.5f);
    mb_output(b, "c");
    mb_output(b, "d");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->nnode, 0);
    id = gir_find_value(g, "c");
    CHECK_INT(g->vals[id].kind, GIR_VAL_CONST);
    CHECK_INT(g->vals[id].type.dims[0], 3);
    CHECK_INT(((int64_t *)g->vals[id].data)[2], 9);
    CHECK_STR(g->vals[id].loc.node, "k");
    id = gir_find_value(g, "d");
    CHECK_INT(g->vals[id].type.rank, 0);
    CHECK_STR(g->vals[id].loc.node, "Constant#1");
    gir_graph_free(g);
}

static void rewrite_dropout(void)
{
    static const int64_t x[] = {2, 3};
    static const char *ins[] = {"x", NULL}, *outs[] = {"y", "mask", NULL};
    ModelBuilder *b = mb_new(11);
    GirGraph *g;
    mb_input(b, "x", F32, 2, x);
    mb_node(b, "Dropout", "do", ins, outs);
    mb_attr_float(b, "ratio", 0.5f);
    mb_output(b, "y");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->nodes[0].op, GIR_OP_IDENTITY);
    CHECK_INT(g->nodes[0].nout, 1);
    CHECK_INT(g->nodes[0].nattr, 0);
    check_type(g, g->outputs[0], GIR_DT_F32, 2, x);
    gir_graph_free(g);
}

static void case_rewrites(void)
{
    rewrite_dropout();
    rewrite_split();
    rewrite_squeeze();
    rewrite_clip();
    rewrite_pad_slice();
    rewrite_softmax();
    rewrite_upsample_resize();
    rewrite_batchnorm_maxpool();
    rewrite_constants();
}

/* Every storage form of an initializer, read back as the graph output. */
static void case_storage(void)
{
    static const int64_t d3[] = {3}, d2[] = {2}, x[] = {3};
    static float f[] = {1.5f, -2.0f, 3.25f};
    static int32_t i8[] = {-128, 5, 127}, u8[] = {0, 200, 255}, bl[] = {0, 1, 7};
    static int32_t i32[] = {-70000, 1, 70000};
    static int64_t i64[] = {-5000000000LL, 4};
    static double f64[] = {0.125, -1e300};
    static uint8_t raw[12] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0, 0, 0x40, 0x40};
    static const char *ins[] = {"x", "F", NULL}, *outs[] = {"y", NULL};
    ModelBuilder *b = mb_new(13);
    Onnx__TensorProto *t;
    GirGraph *g;
    const GirValue *v;

    mb_input(b, "x", F32, 1, x);
    mb_input(b, "F", F32, 1, d3); /* also an initializer: a constant */
    mb_init_f32(b, "F", 1, d3, f, 3);
    t = mb_init(b, "I8", I8, 1, d3);
    t->n_int32_data = 3, t->int32_data = i8;
    t = mb_init(b, "U8", U8, 1, d3);
    t->n_int32_data = 3, t->int32_data = u8;
    t = mb_init(b, "B", BOOL, 1, d3);
    t->n_int32_data = 3, t->int32_data = bl;
    t = mb_init(b, "I32", I32, 1, d3);
    t->n_int32_data = 3, t->int32_data = i32;
    t = mb_init(b, "I64", I64, 1, d2);
    t->n_int64_data = 2, t->int64_data = i64;
    t = mb_init(b, "F64", F64, 1, d2);
    t->n_double_data = 2, t->double_data = f64;
    t = mb_init(b, "RAW", F32, 1, d3);
    t->has_raw_data = 1, t->raw_data.len = sizeof raw, t->raw_data.data = raw;
    t = mb_init(b, "EMPTY", F32, 2, (const int64_t[]){0, 3});
    mb_node(b, "Add", "add", ins, outs);
    mb_output(b, "y");
    mb_output(b, "RAW");
    g = must_load(b);
    if (!g)
        return;
    CHECK_INT(g->ninput, 1);
    v = &g->vals[gir_find_value(g, "F")];
    CHECK(v->kind == GIR_VAL_CONST && ((float *)v->data)[2] == 3.25f);
    v = &g->vals[gir_find_value(g, "I8")];
    CHECK(v->type.dtype == GIR_DT_I8 && ((int8_t *)v->data)[0] == -128);
    v = &g->vals[gir_find_value(g, "U8")];
    CHECK(v->type.dtype == GIR_DT_U8 && ((uint8_t *)v->data)[1] == 200);
    v = &g->vals[gir_find_value(g, "B")];
    CHECK(v->type.dtype == GIR_DT_BOOL && ((uint8_t *)v->data)[2] == 1);
    v = &g->vals[gir_find_value(g, "I32")];
    CHECK(((int32_t *)v->data)[0] == -70000);
    v = &g->vals[gir_find_value(g, "I64")];
    CHECK(((int64_t *)v->data)[0] == -5000000000LL);
    v = &g->vals[gir_find_value(g, "F64")];
    CHECK(((double *)v->data)[1] == -1e300);
    v = &g->vals[gir_find_value(g, "RAW")];
    CHECK(((float *)v->data)[0] == 1.0f && ((float *)v->data)[1] == -2.0f &&
          ((float *)v->data)[2] == 3.0f);
    v = &g->vals[gir_find_value(g, "EMPTY")];
    CHECK_INT(gir_type_numel(&v->type), 0);
    CHECK_INT(g->noutput, 2);
    gir_graph_free(g);
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_INT(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* External data beside a model file: found, read at its offset, refused
 * when it points outside the folder or past the end. */
static void case_external(void)
{
    static const int64_t d4[] = {4}, x[] = {4};
    static const float w[4] = {1, 2, 3, 4};
    static const char *ins[] = {"x", "w", NULL}, *outs[] = {"y", NULL};
    char dir[512], path[600], data[600];
    uint8_t blob[8 + sizeof w];
    const char *cases[][3] = {
        /* location, offset, expected fragment of the error (NULL: loads) */
        {"weights.bin", "8", NULL},
        {"sub/../weights.bin", "8", "is outside the model's folder"},
        {"/etc/passwd", "0", "is outside the model's folder"},
        {"weights.bin", "16", "has 24 bytes; the tensor needs 16 at offset 16"},
        {"missing.bin", "0", "cannot open external data"},
        {"weights.bin", "-1", "bad external data offset '-1'"},
    };
    size_t i;

    snprintf(dir, sizeof dir, "%s/ext", tmpdir);
    mkdir(dir, 0777);
    memset(blob, 0xee, 8);
    memcpy(blob + 8, w, sizeof w);
    snprintf(data, sizeof data, "%s/weights.bin", dir);
    write_file(data, blob, sizeof blob);
    snprintf(path, sizeof path, "%s/model.onnx", dir);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ModelBuilder *b = mb_new(13);
        Onnx__TensorProto *t;
        GirError e = {{0}};
        GirGraph *g;
        uint8_t *buf;
        size_t len;

        mb_input(b, "x", F32, 1, x);
        t = mb_init(b, "w", F32, 1, d4);
        mb_external(b, t, "location", cases[i][0]);
        mb_external(b, t, "offset", cases[i][1]);
        mb_external(b, t, "length", "16");
        mb_node(b, "Add", "add", ins, outs);
        mb_output(b, "y");
        buf = mb_pack(b, &len);
        free(b);
        write_file(path, buf, len);
        free(buf);
        g = fe_load_onnx(path, NULL, &e);
        if (!cases[i][2]) {
            CHECK(g != NULL);
            if (!g)
                fprintf(stderr, "%s\n", e.msg);
            if (g)
                CHECK(((float *)g->vals[gir_find_value(g, "w")].data)[3] == 4.0f);
        } else {
            CHECK(g == NULL);
            CHECK(strstr(e.msg, path) == e.msg);
            if (!strstr(e.msg, cases[i][2]))
                fprintf(stderr, "case %zu: %s\n", i, e.msg);
            CHECK(strstr(e.msg, cases[i][2]) != NULL);
        }
        gir_graph_free(g);
    }
}

/* Every node model of the backend tests, and every tensor beside it. */
static void case_node_smoke(void)
{
    char dir[1024], path[1536];
    struct dirent *d;
    DIR *nd;
    int loaded = 0, unsupported_n = 0, failed = 0, tensors = 0;

    snprintf(dir, sizeof dir, "%s/node", testdata);
    nd = opendir(dir);
    CHECK(nd != NULL);
    if (!nd)
        return;
    while ((d = readdir(nd))) {
        GirError e = {{0}};
        int unsupported = 0, k;
        GirGraph *g;
        if (d->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/model.onnx", dir, d->d_name);
        g = fe_load_onnx(path, &unsupported, &e);
        if (g) {
            loaded++;
            CHECK(g->noutput > 0);
        } else {
            if (unsupported)
                unsupported_n++;
            else
                failed++;
            if (strstr(e.msg, path) != e.msg)
                fprintf(stderr, "message does not start with the file: %s\n", e.msg);
            CHECK(strstr(e.msg, path) == e.msg);
        }
        gir_graph_free(g);
        for (k = 0; k < 4; k++) {
            GirArena *a = gir_arena_new();
            GirTensor t;
            snprintf(path, sizeof path, "%s/%s/test_data_set_0/input_%d.pb", dir, d->d_name, k);
            if (fe_read_tensor(path, a, &t, &e) == 0)
                tensors++;
            gir_arena_free(a);
        }
    }
    closedir(nd);
    fprintf(stderr, "node models: %d loaded, %d unsupported, %d failed; %d tensors read\n",
            loaded, unsupported_n, failed, tensors);
    CHECK(loaded > 100);
    CHECK(tensors > 500);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s CASE TMPDIR ONNX_TESTDATA_DIR\n", argv[0]);
        return 2;
    }
    tmpdir = argv[2];
    testdata = argv[3];
    if (strcmp(argv[1], "load") == 0)
        case_load();
    else if (strcmp(argv[1], "rewrites") == 0)
        case_rewrites();
    else if (strcmp(argv[1], "storage") == 0)
        case_storage();
    else if (strcmp(argv[1], "external") == 0)
        case_external();
    else if (strcmp(argv[1], "node_smoke") == 0)
        case_node_smoke();
    else {
        fprintf(stderr, "unknown case '%s'\n", argv[1]);
        return 2;
    }
    return CHECK_DONE();
}
