/*
 * Negative tests: one bad input per case, and the exact one-line diagnostic
 * it must give.  Models are built in memory and read under made-up paths so
 * the expected text does not depend on where the tests run, except for the
 * one case that needs a real file beside the model.
 *
 * usage: test_bad CASE TMPDIR
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "frontend/frontend.h"
#include "onnx_builder.h"

enum { F32 = 1, BF16 = 16 };

static const char *tmpdir;
static const int64_t x4[] = {4};
static const char *relu_in[] = {"x", NULL}, *relu_out[] = {"y", NULL};

/* The outcome of one case. */
typedef struct {
    char msg[1024];  /* the diagnostic the reader gave */
    int unsupported; /* the reader's unsupported flag */
    char want[1024]; /* expected text, when it depends on the run */
} Result;

static void run_model(ModelBuilder *b, const char *path, Result *r)
{
    GirError e = {{0}};
    size_t len;
    uint8_t *buf = mb_pack(b, &len);
    GirGraph *g = fe_onnx_from_memory(buf, len, path, &r->unsupported, &e);
    CHECK(g == NULL);
    gir_graph_free(g);
    free(buf);
    free(b);
    snprintf(r->msg, sizeof r->msg, "%s", e.msg);
}

/* A one-Relu model whose w initializer the case fills in. */
static ModelBuilder *relu_model(int64_t opset)
{
    ModelBuilder *b = mb_new(opset);
    mb_input(b, "x", F32, 1, x4);
    mb_node(b, "Relu", "r", relu_in, relu_out);
    mb_output(b, "y");
    return b;
}

static void run_bytes(const void *buf, size_t len, const char *path, Result *r)
{
    GirError e = {{0}};
    GirGraph *g = fe_onnx_from_memory(buf, len, path, &r->unsupported, &e);
    CHECK(g == NULL);
    gir_graph_free(g);
    snprintf(r->msg, sizeof r->msg, "%s", e.msg);
}

static void run_tensor(const void *buf, size_t len, int is_npy, const char *path, Result *r)
{
    GirError e = {{0}};
    GirArena *a = gir_arena_new();
    GirTensor t;
    CHECK_INT(fe_tensor_from_memory(buf, len, is_npy, path, a, &t, &e), -1);
    gir_arena_free(a);
    snprintf(r->msg, sizeof r->msg, "%s", e.msg);
}

/* A .npy file with the given header dict (padded as NumPy pads it) and
 * ndata bytes of data. */
static void run_npy(const char *dict, size_t ndata, Result *r)
{
    uint8_t buf[1024];
    size_t hl = strlen(dict), total = (10 + hl + 1 + 63) / 64 * 64;
    memset(buf, ' ', sizeof buf);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (uint8_t)((total - 10) & 0xff);
    buf[9] = (uint8_t)((total - 10) >> 8);
    memcpy(buf + 10, dict, hl);
    buf[total - 1] = '\n';
    memset(buf + total, 0, ndata);
    run_tensor(buf, total + ndata, 1, "x.npy", r);
}

static void external_model(const char *path, const char *location, Result *r)
{
    static const char *ins[] = {"x", "w", NULL};
    ModelBuilder *b = mb_new(13);
    Onnx__TensorProto *t;
    mb_input(b, "x", F32, 1, x4);
    t = mb_init(b, "w", F32, 1, x4);
    mb_external(b, t, "location", location);
    mb_node(b, "Add", "add", ins, relu_out);
    mb_output(b, "y");
    run_model(b, path, r);
}

static void bad_onnx_garbage(Result *r)
{
    run_bytes("\xff\xff\xff\xff", 4, "garbage.onnx", r);
}

static void bad_onnx_truncated(Result *r)
{
    size_t len;
    ModelBuilder *b = relu_model(13);
    uint8_t *buf = mb_pack(b, &len);
    free(b);
    run_bytes(buf, len - 1, "cut.onnx", r);
    free(buf);
}

static void bad_onnx_opset(Result *r)
{
    run_model(relu_model(18), "m.onnx", r);
    CHECK_INT(r->unsupported, 1);
}

static void bad_onnx_unsupported_op(Result *r)
{
    ModelBuilder *b = mb_new(13);
    mb_input(b, "x", F32, 1, x4);
    mb_node(b, "Foo", "n1", relu_in, relu_out);
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
    CHECK_INT(r->unsupported, 1);
}

static void bad_onnx_domain(Result *r)
{
    ModelBuilder *b = mb_new(13);
    mb_input(b, "x", F32, 1, x4);
    mb_node(b, "FusedConv", "n1", relu_in, relu_out)->domain = "com.microsoft";
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
    CHECK_INT(r->unsupported, 1);
}

static void bad_onnx_undefined_input(Result *r)
{
    static const char *ins[] = {"nope", NULL};
    ModelBuilder *b = mb_new(13);
    mb_input(b, "x", F32, 1, x4);
    mb_node(b, "Relu", "n1", ins, relu_out);
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
    CHECK_INT(r->unsupported, 0);
}

static void bad_onnx_duplicate_output(Result *r)
{
    ModelBuilder *b = relu_model(13);
    mb_node(b, "Relu", "r2", relu_in, relu_out);
    run_model(b, "m.onnx", r);
}

static void bad_onnx_count_mismatch(Result *r)
{
    static float f[3] = {1, 2, 3};
    ModelBuilder *b = relu_model(13);
    mb_init_f32(b, "w", 1, x4, f, 3);
    run_model(b, "m.onnx", r);
}

static void bad_onnx_raw_size(Result *r)
{
    static uint8_t raw[12];
    ModelBuilder *b = relu_model(13);
    Onnx__TensorProto *t = mb_init(b, "w", F32, 1, x4);
    t->has_raw_data = 1;
    t->raw_data.len = sizeof raw;
    t->raw_data.data = raw;
    run_model(b, "m.onnx", r);
}

static void bad_onnx_dtype(Result *r)
{
    static uint8_t raw[8];
    ModelBuilder *b = relu_model(13);
    Onnx__TensorProto *t = mb_init(b, "w", BF16, 1, x4);
    t->has_raw_data = 1;
    t->raw_data.len = sizeof raw;
    t->raw_data.data = raw;
    run_model(b, "m.onnx", r);
    CHECK_INT(r->unsupported, 1);
}

static void bad_onnx_external_escape(Result *r)
{
    external_model("models/m.onnx", "../secret.bin", r);
}

static void bad_onnx_external_absolute(Result *r)
{
    external_model("models/m.onnx", "/etc/passwd", r);
}

static void bad_onnx_external_memory(Result *r)
{
    external_model(NULL, "w.bin", r);
}

/* The expected text names the real folder, so it is made here. */
static void bad_onnx_external_bounds(Result *r)
{
    char dir[512], path[600], data[600];
    FILE *f;
    snprintf(dir, sizeof dir, "%s/bounds", tmpdir);
    mkdir(dir, 0777);
    snprintf(data, sizeof data, "%s/w.bin", dir);
    f = fopen(data, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite("12345678", 1, 8, f);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/m.onnx", dir);
    snprintf(r->want, sizeof r->want,
             "%s: tensor 'w': external data '%s' has 8 bytes; the tensor needs 16 at "
             "offset 0",
             path, data);
    external_model(path, "w.bin", r);
}

static void bad_onnx_bn_training(Result *r)
{
    static const char *ins[] = {"x", "p", "p", "p", "p", NULL};
    static const char *outs[] = {"y", "mean", NULL};
    static const int64_t x[] = {1, 4, 2, 2};
    static float p[4] = {1, 1, 1, 1};
    ModelBuilder *b = mb_new(15);
    mb_input(b, "x", F32, 4, x);
    mb_init_f32(b, "p", 1, x4, p, 4);
    mb_node(b, "BatchNormalization", "bn", ins, outs);
    mb_output(b, "y");
    mb_output(b, "mean");
    run_model(b, "m.onnx", r);
    CHECK_INT(r->unsupported, 0); /* an op of the set, used for training */
}

/* Add at opset 6 with broadcast=1 and axis=1 where B is fed with no shape:
 * its rank decides the rewrite. */
static void bad_onnx_legacy_broadcast_rank(Result *r)
{
    static const char *ins[] = {"a", "b", NULL}, *outs[] = {"y", NULL};
    static const int64_t a[] = {2, 3, 4};
    ModelBuilder *b = mb_new(6);
    mb_input(b, "a", F32, 3, a);
    mb_input(b, "b", F32, 1, x4);
    b->ttypes[1].shape = NULL;
    mb_node(b, "Add", "add", ins, outs);
    mb_attr_int(b, "broadcast", 1);
    mb_attr_int(b, "axis", 1);
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
    CHECK_INT(r->unsupported, 0);
}

static void bad_onnx_legacy_broadcast_axis(Result *r)
{
    static const char *ins[] = {"a", "b", NULL}, *outs[] = {"y", NULL};
    static const int64_t a[] = {2, 3, 4}, bd[] = {3, 4};
    ModelBuilder *b = mb_new(6);
    mb_input(b, "a", F32, 3, a);
    mb_input(b, "b", F32, 2, bd);
    mb_node(b, "Mul", "mul", ins, outs);
    mb_attr_int(b, "broadcast", 1);
    mb_attr_int(b, "axis", 2);
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
}

/* A model with one BatchNormalization at opset, attributes set by the
 * caller afterwards on the returned builder. */
static ModelBuilder *bn_model(int64_t opset, int rank, const int64_t *x)
{
    static const char *ins[] = {"x", "p", "p", "p", "p", NULL}, *outs[] = {"y", NULL};
    static float p[4] = {1, 1, 1, 1};
    ModelBuilder *b = mb_new(opset);
    mb_input(b, "x", F32, rank, x);
    mb_init_f32(b, "p", 1, x4, p, 4);
    mb_node(b, "BatchNormalization", "bn", ins, outs);
    return b;
}

static void bad_onnx_legacy_bn_is_test(Result *r)
{
    static const int64_t x[] = {1, 4, 2, 2};
    ModelBuilder *b = bn_model(6, 4, x); /* is_test left out: 0 */
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
    CHECK_INT(r->unsupported, 0);
}

static void bad_onnx_legacy_bn_spatial(Result *r)
{
    static const int64_t x[] = {1, 4, 2, 2};
    ModelBuilder *b = bn_model(7, 4, x);
    mb_attr_int(b, "spatial", 0);
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
    CHECK_INT(r->unsupported, 0);
}

static void bad_onnx_legacy_dropout_training(Result *r)
{
    static const char *ins[] = {"x", NULL}, *outs[] = {"y", NULL};
    ModelBuilder *b = mb_new(6);
    mb_input(b, "x", F32, 1, x4);
    mb_node(b, "Dropout", "drop", ins, outs);
    mb_attr_float(b, "ratio", 0.25f);
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
    CHECK_INT(r->unsupported, 0);
}

static void bad_onnx_legacy_upsample_scales(Result *r)
{
    static const char *ins[] = {"x", NULL}, *outs[] = {"y", NULL};
    static const int64_t x[] = {1, 1, 2, 2};
    ModelBuilder *b = mb_new(5);
    mb_input(b, "x", F32, 4, x);
    mb_node(b, "Upsample", "up", ins, outs);
    mb_attr_float(b, "height_scale", 2.0f);
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
}

static void bad_onnx_input_count(Result *r)
{
    static const char *ins[] = {"x", "x", NULL};
    ModelBuilder *b = mb_new(13);
    mb_input(b, "x", F32, 1, x4);
    mb_node(b, "Relu", "r", ins, relu_out);
    mb_output(b, "y");
    run_model(b, "m.onnx", r);
}

static void bad_npy_magic(Result *r)
{
    run_tensor("PK\x03\x04 zip file", 15, 1, "x.npy", r);
}

static void bad_npy_version(Result *r)
{
    run_tensor("\x93NUMPY\x04\x00\x00\x00", 10, 1, "x.npy", r);
}

static void bad_npy_header_length(Result *r)
{
    run_tensor("\x93NUMPY\x01\x00\xe8\x03{'descr':", 20, 1, "x.npy", r);
}

static void bad_npy_shape_overflow(Result *r)
{
    run_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, "
            "4294967296), }",
            0, r);
}

static void bad_npy_truncated(Result *r)
{
    run_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 8, r);
}

static void bad_npy_extra(Result *r)
{
    run_npy("{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }", 5, r);
}

static void bad_npy_fortran(Result *r)
{
    run_npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24, r);
}

static void bad_npy_bigendian(Result *r)
{
    run_npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8, r);
}

static void bad_npy_descr(Result *r)
{
    run_npy("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", 16, r);
}

static void bad_npy_key(Result *r)
{
    run_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", 8, r);
}

static void bad_pb_garbage(Result *r)
{
    run_tensor("\x08\xff", 2, 0, "x.pb", r);
}

static void bad_pb_count(Result *r)
{
    static int64_t dims[] = {2, 2};
    static float f[] = {1, 2, 3};
    Onnx__TensorProto tp = ONNX__TENSOR_PROTO__INIT;
    uint8_t buf[256];
    size_t len;
    tp.name = "in";
    tp.n_dims = 2;
    tp.dims = dims;
    tp.has_data_type = 1;
    tp.data_type = F32;
    tp.n_float_data = 3;
    tp.float_data = f;
    len = onnx__tensor_proto__pack(&tp, buf);
    run_tensor(buf, len, 0, "x.pb", r);
}

/* Each case, and the diagnostic it must give (NULL: the case sets want). */
static const struct {
    const char *name;          /* the test is frontend_NAME_bad */
    void (*run)(Result *r);    /* reads the bad input, fills r */
    const char *want;          /* the exact message expected */
} cases[] = {
    {"onnx_garbage", bad_onnx_garbage,
     "garbage.onnx: not a valid ONNX model (protobuf decode failed)"},
    {"onnx_truncated", bad_onnx_truncated,
     "cut.onnx: not a valid ONNX model (protobuf decode failed)"},
    {"onnx_opset", bad_onnx_opset,
     "m.onnx: opset 18 is not supported (kiln reads opsets 1 to 17)"},
    {"onnx_unsupported_op", bad_onnx_unsupported_op,
     "m.onnx: node 'n1': unsupported op 'Foo'"},
    {"onnx_domain", bad_onnx_domain,
     "m.onnx: node 'n1': unsupported op 'FusedConv' of domain 'com.microsoft'"},
    {"onnx_undefined_input", bad_onnx_undefined_input,
     "m.onnx: node 'n1': input 'nope' is not a graph input, "
     "initializer or output of an earlier node"},
    {"onnx_duplicate_output", bad_onnx_duplicate_output,
     "m.onnx: node 'r2': output 'y' is already defined"},
    {"onnx_count_mismatch", bad_onnx_count_mismatch,
     "m.onnx: tensor 'w': its dims need 4 elements in float_data; "
     "the tensor holds 3 (and 0 in other fields)"},
    {"onnx_raw_size", bad_onnx_raw_size,
     "m.onnx: tensor 'w': raw_data holds 12 bytes; its dims need 16"},
    {"onnx_dtype", bad_onnx_dtype,
     "m.onnx: tensor 'w': unsupported data type BFLOAT16 (16)"},
    {"onnx_external_escape", bad_onnx_external_escape,
     "models/m.onnx: tensor 'w': external data location "
     "'../secret.bin' is outside the model's folder"},
    {"onnx_external_absolute", bad_onnx_external_absolute,
     "models/m.onnx: tensor 'w': external data location "
     "'/etc/passwd' is outside the model's folder"},
    {"onnx_external_memory", bad_onnx_external_memory,
     "<memory>: tensor 'w': external data 'w.bin' refused: the "
     "model was not read from a file"},
    {"onnx_external_bounds", bad_onnx_external_bounds, NULL},
    {"onnx_bn_training", bad_onnx_bn_training,
     "m.onnx: node 'bn': training-mode BatchNormalization is not "
     "supported (output 'mean' is used)"},
    {"onnx_input_count", bad_onnx_input_count,
     "m.onnx: node 'r': Relu takes 1 input, not 2"},
    {"onnx_legacy_broadcast_rank", bad_onnx_legacy_broadcast_rank,
     "m.onnx: node 'add': Add with broadcast=1 and axis=1 needs the rank of 'b', which "
     "is not known (no value_info gives it)"},
    {"onnx_legacy_broadcast_axis", bad_onnx_legacy_broadcast_axis,
     "m.onnx: node 'mul': Mul broadcast axis 2 does not fit: B 'b' of rank 2 from there "
     "runs past A 'a' of rank 3"},
    {"onnx_legacy_bn_is_test", bad_onnx_legacy_bn_is_test,
     "m.onnx: node 'bn': BatchNormalization at opset 6 with is_test=0 uses batch "
     "statistics (training mode), which kiln does not run"},
    {"onnx_legacy_bn_spatial", bad_onnx_legacy_bn_spatial,
     "m.onnx: node 'bn': BatchNormalization with spatial=0 (statistics per element, not "
     "per channel) is not supported"},
    {"onnx_legacy_dropout_training", bad_onnx_legacy_dropout_training,
     "m.onnx: node 'drop': Dropout at opset 6 with is_test=0 drops at random (training "
     "mode), which kiln does not run"},
    {"onnx_legacy_upsample_scales", bad_onnx_legacy_upsample_scales,
     "m.onnx: node 'up': Upsample at opset 5 needs attributes 'height_scale' and "
     "'width_scale'"},
    {"npy_magic", bad_npy_magic,
     "x.npy: byte 0: not a .npy file (no \\x93NUMPY magic)"},
    {"npy_version", bad_npy_version,
     "x.npy: byte 6: unsupported .npy version 4.0"},
    {"npy_header_length", bad_npy_header_length,
     "x.npy: byte 8: header length 1000 runs past the end of the file (20 bytes)"},
    {"npy_shape_overflow", bad_npy_shape_overflow,
     "x.npy: byte 10: shape too large"},
    {"npy_truncated", bad_npy_truncated,
     "x.npy: byte 128: truncated data: f32[2,3] needs 24 bytes, the file has 8"},
    {"npy_extra", bad_npy_extra,
     "x.npy: byte 128: extra data: i8[3] needs 3 bytes, the file has 5"},
    {"npy_fortran", bad_npy_fortran,
     "x.npy: byte 44: fortran_order True is not supported (save the "
     "array in C order)"},
    {"npy_bigendian", bad_npy_bigendian,
     "x.npy: byte 20: unsupported .npy dtype '>f4' (big-endian)"},
    {"npy_descr", bad_npy_descr,
     "x.npy: byte 20: unsupported .npy dtype '<c8'"},
    {"npy_key", bad_npy_key,
     "x.npy: byte 66: bad .npy header: unexpected or repeated key"},
    {"pb_garbage", bad_pb_garbage,
     "x.pb: not a valid ONNX TensorProto (protobuf decode failed)"},
    {"pb_count", bad_pb_count,
     "x.pb: tensor 'in': its dims need 4 elements in float_data; the "
     "tensor holds 3 (and 0 in other fields)"},
};

int main(int argc, char **argv)
{
    Result r;
    size_t i;
    if (argc != 3) {
        fprintf(stderr, "usage: %s CASE TMPDIR\n", argv[0]);
        return 2;
    }
    tmpdir = argv[2];
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(cases[i].name, argv[1]) != 0)
            continue;
        memset(&r, 0, sizeof r);
        cases[i].run(&r);
        CHECK_STR(r.msg, cases[i].want ? cases[i].want : r.want);
        return CHECK_DONE();
    }
    fprintf(stderr, "unknown case '%s'\n", argv[1]);
    return 2;
}
