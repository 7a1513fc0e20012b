/*
 * Tensor files: every dtype and a few ranks written as .npy and .pb and read
 * back bit for bit; writes leave no temporary file behind; .pb files from the
 * ONNX backend tests read with their known shapes.
 *
 * usage: test_tensor_io TMPDIR ONNX_TESTDATA_DIR
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "frontend/frontend.h"

static const char *tmpdir;

static GirTensor make_tensor(GirArena *a, GirDType dt, int rank, const int64_t *dims)
{
    GirTensor t;
    int64_t n, i;
    size_t size = gir_dtype_size(dt);
    uint8_t *p;
    memset(&t, 0, sizeof t);
    t.type.dtype = dt;
    t.type.rank = rank;
    for (i = 0; i < rank; i++)
        t.type.dims[i] = dims[i];
    n = gir_type_numel(&t.type);
    p = gir_arena_alloc(a, (size_t)(n ? n : 1) * size);
    /* A pattern that exercises every byte, with bools kept 0/1. */
    for (i = 0; i < n * (int64_t)size; i++)
        p[i] = dt == GIR_DT_BOOL ? (uint8_t)(i % 3 == 0) : (uint8_t)(i * 37 + 11);
    if (dt == GIR_DT_F32)
        for (i = 0; i < n; i++)
            ((float *)p)[i] = (float)i * 0.25f - 3.0f;
    if (dt == GIR_DT_F64)
        for (i = 0; i < n; i++)
            ((double *)p)[i] = (double)i * -1.5 + 0.125;
    t.data = p;
    return t;
}

/* No PATH.tmp.* file may be left beside path. */
static int temp_left(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char prefix[512];
    struct dirent *d;
    DIR *dir = opendir(tmpdir);
    int found = 0;
    snprintf(prefix, sizeof prefix, "%s.tmp.", base);
    if (!dir)
        return 0;
    while ((d = readdir(dir)))
        if (strncmp(d->d_name, prefix, strlen(prefix)) == 0)
            found = 1;
    closedir(dir);
    return found;
}

static void roundtrip(GirDType dt, int rank, const int64_t *dims, const char *ext)
{
    GirArena *a = gir_arena_new();
    GirTensor t = make_tensor(a, dt, rank, dims), u;
    GirError e = {{0}};
    char path[512];
    int64_t n = gir_type_numel(&t.type);

    snprintf(path, sizeof path, "%s/rt_%s_r%d%s", tmpdir, gir_dtype_name(dt), rank, ext);
    CHECK_INT(fe_write_tensor(path, &t, &e), 0);
    if (e.msg[0])
        fprintf(stderr, "%s\n", e.msg);
    CHECK(!temp_left(path));
    CHECK_INT(fe_read_tensor(path, a, &u, &e), 0);
    if (e.msg[0])
        fprintf(stderr, "%s\n", e.msg);
    CHECK(gir_type_equal(&t.type, &u.type));
    CHECK(u.data != NULL);
    if (u.data && n > 0)
        CHECK(memcmp(t.data, u.data, (size_t)n * gir_dtype_size(dt)) == 0);
    remove(path);
    gir_arena_free(a);
}

static void test_roundtrips(void)
{
    static const int64_t dims[] = {2, 3, 4};
    static const int64_t zero[] = {3, 0};
    int dt, rank;
    for (dt = GIR_DT_F32; dt < GIR_DT_COUNT; dt++)
        for (rank = 0; rank <= 3; rank++) {
            roundtrip((GirDType)dt, rank, dims, ".npy");
            roundtrip((GirDType)dt, rank, dims, ".pb");
        }
    roundtrip(GIR_DT_F32, 2, zero, ".npy");
    roundtrip(GIR_DT_F32, 2, zero, ".pb");
}

/* The header NumPy itself would write, byte for byte. */
static void test_npy_layout(void)
{
    static const int64_t dims[] = {2, 3};
    static const char want[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    GirArena *a = gir_arena_new();
    GirTensor t = make_tensor(a, GIR_DT_F32, 2, dims);
    GirError e = {{0}};
    char path[512], buf[256];
    FILE *f;
    size_t n;

    snprintf(path, sizeof path, "%s/layout.npy", tmpdir);
    CHECK_INT(fe_write_tensor(path, &t, &e), 0);
    f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
        n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        CHECK_INT(n, 128 + 24);
        CHECK(memcmp(buf, "\x93NUMPY\x01\x00\x76\x00", 10) == 0);
        CHECK(memcmp(buf + 10, want, sizeof want - 1) == 0);
        CHECK_INT(buf[127], '\n');
        CHECK_INT(buf[126], ' ');
    }
    remove(path);
    gir_arena_free(a);
}

static void test_write_failures(void)
{
    static const int64_t dims[] = {4};
    GirArena *a = gir_arena_new();
    GirTensor t = make_tensor(a, GIR_DT_I32, 1, dims);
    GirError e = {{0}};
    char path[512];

    /* A missing folder: the error names the path, nothing is created. */
    snprintf(path, sizeof path, "%s/no-such-dir/x.npy", tmpdir);
    CHECK_INT(fe_write_tensor(path, &t, &e), -1);
    CHECK(strstr(e.msg, path) == e.msg);

    snprintf(path, sizeof path, "%s/x.txt", tmpdir);
    CHECK_INT(fe_write_tensor(path, &t, &e), -1);
    CHECK(strstr(e.msg, "expected .npy or .pb") != NULL);

    /* Unknown dims cannot be written. */
    snprintf(path, sizeof path, "%s/x.npy", tmpdir);
    t.type.dims[0] = -1;
    CHECK_INT(fe_write_tensor(path, &t, &e), -1);
    CHECK(access(path, F_OK) != 0);
    CHECK(!temp_left(path));
    gir_arena_free(a);
}

static void read_pb(const char *dir, const char *name, GirDType dt, int rank,
                    const int64_t *dims)
{
    GirArena *a = gir_arena_new();
    GirError e = {{0}};
    GirTensor t;
    char path[1024];
    int i;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    CHECK_INT(fe_read_tensor(path, a, &t, &e), 0);
    if (e.msg[0])
        fprintf(stderr, "%s\n", e.msg);
    CHECK_INT(t.type.dtype, dt);
    CHECK_INT(t.type.rank, rank);
    for (i = 0; i < rank; i++)
        CHECK_INT(t.type.dims[i], dims[i]);
    gir_arena_free(a);
}

static void test_testdata(const char *data)
{
    char dir[1024];
    static const int64_t x[] = {1, 1, 7, 5}, w[] = {1, 1, 3, 3}, y[] = {1, 1, 4, 3};
    static const int64_t s6[] = {6}, s2[] = {2}, s4[] = {4};
    snprintf(dir, sizeof dir, "%s/node/test_conv_with_strides_padding/test_data_set_0", data);
    read_pb(dir, "input_0.pb", GIR_DT_F32, 4, x);
    read_pb(dir, "input_1.pb", GIR_DT_F32, 4, w);
    read_pb(dir, "output_0.pb", GIR_DT_F32, 4, y);
    snprintf(dir, sizeof dir, "%s/node/test_split_variable_parts_1d/test_data_set_0", data);
    read_pb(dir, "input_0.pb", GIR_DT_F32, 1, s6);
    read_pb(dir, "input_1.pb", GIR_DT_I64, 1, s2);
    read_pb(dir, "output_1.pb", GIR_DT_F32, 1, s4);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s TMPDIR ONNX_TESTDATA_DIR\n", argv[0]);
        return 2;
    }
    tmpdir = argv[1];
    test_roundtrips();
    test_npy_layout();
    test_write_failures();
    test_testdata(argv[2]);
    return CHECK_DONE();
}
