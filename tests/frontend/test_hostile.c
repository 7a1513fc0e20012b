/*
 * Hostile input: real models and tensors cut at every offset, random bytes,
 * and random byte flips.  Each read either succeeds or fails with a message
 * that starts with the file name; none may crash (run under ASan/UBSan).
 *
 * usage: test_hostile TMPDIR ONNX_TESTDATA_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "frontend/frontend.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

/* xorshift64: the same bytes every run, so a failure reproduces. */
static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc(n > 0 ? (size_t)n : 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

static int fails_named;  /* failures whose message starts with the name */
static int fails_other;  /* failures with any other message */
static int successes;    /* inputs that still read */

static void try_model(const uint8_t *buf, size_t len)
{
    GirError e = {{0}};
    int unsupported;
    GirGraph *g = fe_onnx_from_memory(buf, len, "h.onnx", &unsupported, &e);
    if (g) {
        successes++;
        gir_graph_free(g);
    } else if (strncmp(e.msg, "h.onnx: ", 8) == 0) {
        fails_named++;
    } else {
        fprintf(stderr, "unnamed failure: %s\n", e.msg);
        fails_other++;
    }
}

static void try_tensor(const uint8_t *buf, size_t len, int is_npy)
{
    const char *name = is_npy ? "h.npy" : "h.pb";
    GirError e = {{0}};
    GirArena *a = gir_arena_new();
    GirTensor t;
    if (fe_tensor_from_memory(buf, len, is_npy, name, a, &t, &e) == 0) {
        successes++;
    } else if (strncmp(e.msg, name, strlen(name)) == 0) {
        fails_named++;
    } else {
        fprintf(stderr, "unnamed failure: %s\n", e.msg);
        fails_other++;
    }
    gir_arena_free(a);
}

/* Every prefix, then many copies with a few random bytes changed. */
static void torture(const uint8_t *orig, size_t len, int kind)
{
    uint8_t *buf = malloc(len ? len : 1);
    size_t cut;
    int i, k;
    for (cut = 0; cut < len; cut++) {
        memcpy(buf, orig, cut);
        if (kind < 0)
            try_model(buf, cut);
        else
            try_tensor(buf, cut, kind);
    }
    for (i = 0; i < 3000 && len; i++) {
        memcpy(buf, orig, len);
        for (k = 1 + (int)(next_random() % 4); k > 0; k--)
            buf[next_random() % len] = (uint8_t)next_random();
        if (kind < 0)
            try_model(buf, len);
        else
            try_tensor(buf, len, kind);
    }
    free(buf);
}

static void random_bytes(void)
{
    uint8_t buf[600];
    int i;
    size_t k, n;
    for (i = 0; i < 3000; i++) {
        n = next_random() % sizeof buf;
        for (k = 0; k < n; k++)
            buf[k] = (uint8_t)next_random();
        try_model(buf, n);
        try_tensor(buf, n, 0);
        /* Random bytes rarely pass the magic: give the .npy parser a start. */
        if (n >= 10)
            memcpy(buf, "\x93NUMPY\x01\x00", 8);
        try_tensor(buf, n, 1);
    }
}

int main(int argc, char **argv)
{
    static const char *models[] = {
        "node/test_conv_with_strides_padding/model.onnx",
        "node/test_upsample_nearest/model.onnx",
        "node/test_split_variable_parts_1d/model.onnx",
        "node/test_constant/model.onnx",
        "node/test_batchnorm_example_training_mode/model.onnx",
        "node/test_dropout_default_mask/model.onnx",
        "pytorch-operator/test_operator_add_broadcast/model.onnx",
        "pytorch-operator/test_operator_addconstant/model.onnx",
        "pytorch-converted/test_BatchNorm2d_eval/model.onnx",
        "pytorch-converted/test_ZeroPad2d/model.onnx",
    };
    static const char *tensors[] = {
        "node/test_conv_with_strides_padding/test_data_set_0/input_1.pb",
        "node/test_split_variable_parts_1d/test_data_set_0/input_1.pb",
    };
    static const uint8_t npy[] =
        "\x93NUMPY\x01\x00\x76\x00{'descr': '<i4', 'fortran_order': False, 'shape': (2, 1), "
        "}                                                          \n"
        "\x01\x00\x00\x00\x02\x00\x00\x00";
    char path[1024];
    size_t i, len;
    uint8_t *buf;

    if (argc != 3) {
        fprintf(stderr, "usage: %s TMPDIR ONNX_TESTDATA_DIR\n", argv[0]);
        return 2;
    }
    for (i = 0; i < sizeof models / sizeof models[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", argv[2], models[i]);
        buf = slurp(path, &len);
        CHECK(buf != NULL);
        if (buf)
            torture(buf, len, -1);
        free(buf);
    }
    for (i = 0; i < sizeof tensors / sizeof tensors[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", argv[2], tensors[i]);
        buf = slurp(path, &len);
        CHECK(buf != NULL);
        if (buf)
            torture(buf, len, 0);
        free(buf);
    }
    torture(npy, sizeof npy - 1, 1);
    random_bytes();
    fprintf(stderr, "hostile inputs: %d read, %d refused with the file named, %d other\n",
            successes, fails_named, fails_other);
    CHECK_INT(fails_other, 0);
    CHECK(fails_named > 1000);
    return CHECK_DONE();
}
