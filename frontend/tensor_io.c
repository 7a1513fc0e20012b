/*
 * Tensor files: NumPy .npy (format 1.0, 2.0, 3.0; little-endian, C order)
 * and ONNX TensorProto .pb, read and written; plus the TensorProto decoder
 * the ONNX reader shares for initializers and Constant values.
 *
 * Everything read here is hostile until checked: every length and count is
 * compared with the bytes actually present before anything is allocated or
 * copied, and every error names the file and, where there is one, the byte
 * offset or tensor name.
 */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat, fseeko */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "frontend/frontend.h"
#include "frontend/tensor_proto.h"

/* Tensors larger than this are refused before any arithmetic can overflow:
 * 2^50 bytes is far beyond any model and far below INT64_MAX. */
#define MAX_TENSOR_BYTES ((int64_t)1 << 50)
/* Largest tensor file read whole into memory. */
#define MAX_TENSOR_FILE ((size_t)1 << 34)

/* ---- small helpers ------------------------------------------------------ */

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Copy n elements of esize bytes from little-endian src into host order. */
static void copy_from_le(void *dst, const void *src, int64_t n, size_t esize)
{
    const uint8_t *s = src;
    uint8_t *d = dst;
    int64_t i;
    size_t k;
    if (esize == 1 || host_is_little_endian()) {
        if (n > 0)
            memcpy(dst, src, (size_t)n * esize);
        return;
    }
    for (i = 0; i < n; i++)
        for (k = 0; k < esize; k++)
            d[(size_t)i * esize + k] = s[(size_t)i * esize + esize - 1 - k];
}

/* Booleans are stored one byte each; anything but 0 means true.  The IR
 * keeps them 0 or 1 so kernels may use them as numbers. */
static void normalize_bool(uint8_t *p, int64_t n)
{
    int64_t i;
    for (i = 0; i < n; i++)
        p[i] = p[i] != 0;
}

/* Element count of dims[0..rank), or -1 when the bytes for it would exceed
 * MAX_TENSOR_BYTES.  Dims must already be known to be non-negative. */
static int64_t checked_numel(const int64_t *dims, int rank, size_t esize)
{
    int64_t n = 1;
    int i;
    for (i = 0; i < rank; i++) {
        if (dims[i] == 0)
            return 0;
    }
    for (i = 0; i < rank; i++) {
        if (n > MAX_TENSOR_BYTES / (int64_t)esize / dims[i])
            return -1;
        n *= dims[i];
    }
    return n;
}

/* Arena memory for bytes of tensor data; never a zero-size request, so a
 * tensor with no elements still gets a valid pointer. */
static void *alloc_data(GirArena *a, int64_t bytes)
{
    return gir_arena_alloc(a, bytes > 0 ? (size_t)bytes : 1);
}

static const char *file_name(const char *path) { return path ? path : FE_MEMORY_NAME; }

uint8_t *fe_read_file(const char *path, size_t max, size_t *len, GirError *e)
{
    GirLoc loc = gir_loc_file(path, -1);
    struct stat st;
    uint8_t *buf;
    size_t size, got = 0;
    FILE *f = fopen(path, "rb");
    *len = 0;
    if (!f)
        return gir_error_at(e, loc, "cannot open: %s", strerror(errno)), NULL;
    if (fstat(fileno(f), &st) != 0) {
        gir_error_at(e, loc, "cannot stat: %s", strerror(errno));
        fclose(f);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        gir_error_at(e, loc, "not a regular file");
        fclose(f);
        return NULL;
    }
    if (st.st_size < 0 || (uint64_t)st.st_size > max) {
        gir_error_at(e, loc, "file is too large (%lld bytes; the limit is %zu)",
                     (long long)st.st_size, max);
        fclose(f);
        return NULL;
    }
    size = (size_t)st.st_size;
    buf = malloc(size ? size : 1);
    if (!buf)
        gir_die("out of memory reading %zu bytes", size);
    while (got < size) {
        size_t r = fread(buf + got, 1, size - got, f);
        if (r == 0)
            break;
        got += r;
    }
    if (ferror(f) || got != size) {
        if (ferror(f))
            gir_error_at(e, gir_loc_file(path, (int64_t)got), "read error: %s",
                         strerror(errno));
        else
            gir_error_at(e, gir_loc_file(path, (int64_t)got),
                         "file ended early (it shrank while being read)");
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = size;
    return buf;
}

char *fe_dir_of(GirArena *a, const char *path)
{
    const char *slash;
    char *d;
    if (!path)
        return NULL;
    slash = strrchr(path, '/');
    if (!slash)
        return gir_arena_strdup(a, ".");
    if (slash == path)
        return gir_arena_strdup(a, "/");
    d = gir_arena_alloc(a, (size_t)(slash - path) + 1);
    memcpy(d, path, (size_t)(slash - path));
    return d;
}

/* ---- TensorProto ---------------------------------------------------------- */

/* The ONNX name of a TensorProto.DataType value, for messages. */
static const char *onnx_type_name(int v)
{
    const ProtobufCEnumValue *ev =
        protobuf_c_enum_descriptor_get_value(&onnx__tensor_proto__data_type__descriptor, v);
    return ev ? ev->name : "unknown";
}

/* Parse a non-negative decimal integer below 2^62 filling the whole string. */
static int parse_u62(const char *s, int64_t *out)
{
    int64_t v = 0;
    if (!s || !*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (((int64_t)1 << 62) - 9) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return 0;
}

/* True when the external-data location rel could name something outside the
 * model's folder: absolute, or with a '..' component (either separator, since
 * files written on Windows use backslashes). */
static int path_escapes(const char *rel)
{
    const char *p = rel;
    if (rel[0] == '/' || rel[0] == '\\')
        return 1;
    while (*p) {
        size_t n = strcspn(p, "/\\");
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return 1;
        p += n;
        if (*p)
            p++;
    }
    return 0;
}

/* Read bytes of external data for the tensor described by label into *dst,
 * allocated from a only once the file is known to hold them. */
static int read_external(const Onnx__TensorProto *tp, const char *label, const char *file,
                         const char *dir, int64_t bytes, GirArena *a, void **dst, GirError *e)
{
    GirLoc loc = gir_loc_file(file, -1);
    const char *where = NULL;
    int64_t offset = 0, length = -1;
    struct stat st;
    char *full;
    size_t i, fl;
    FILE *f;
    int rc = -1;

    for (i = 0; i < tp->n_external_data; i++) {
        const Onnx__StringStringEntryProto *kv = tp->external_data[i];
        if (!kv->key)
            continue;
        if (strcmp(kv->key, "location") == 0) {
            where = kv->value;
        } else if (strcmp(kv->key, "offset") == 0) {
            if (parse_u62(kv->value, &offset) != 0)
                return gir_error_at(e, loc, "%s: bad external data offset '%.64s'", label,
                                    kv->value ? kv->value : "");
        } else if (strcmp(kv->key, "length") == 0) {
            if (parse_u62(kv->value, &length) != 0)
                return gir_error_at(e, loc, "%s: bad external data length '%.64s'", label,
                                    kv->value ? kv->value : "");
        }
        /* "checksum" and keys from later versions do not change the bytes. */
    }
    if (!where || !where[0])
        return gir_error_at(e, loc, "%s: external data without a location", label);
    if (!dir)
        return gir_error_at(e, loc,
                            "%s: external data '%.256s' refused: the model was not read "
                            "from a file",
                            label, where);
    if (path_escapes(where))
        return gir_error_at(e, loc,
                            "%s: external data location '%.256s' is outside the model's "
                            "folder",
                            label, where);
    if (length >= 0 && length != bytes)
        return gir_error_at(e, loc,
                            "%s: external data length %lld does not match its dims "
                            "(%lld bytes)",
                            label, (long long)length, (long long)bytes);

    fl = strlen(dir) + 1 + strlen(where) + 1;
    full = malloc(fl);
    if (!full)
        gir_die("out of memory");
    snprintf(full, fl, "%s/%s", dir, where);
    f = fopen(full, "rb");
    if (!f) {
        gir_error_at(e, loc, "%s: cannot open external data '%.256s': %s", label, full,
                     strerror(errno));
        free(full);
        return -1;
    }
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        gir_error_at(e, loc, "%s: external data '%.256s' is not a regular file", label, full);
    } else if (offset > (int64_t)st.st_size || (int64_t)st.st_size - offset < bytes) {
        gir_error_at(e, loc,
                     "%s: external data '%.256s' has %lld bytes; the tensor needs %lld at "
                     "offset %lld",
                     label, full, (long long)st.st_size, (long long)bytes, (long long)offset);
    } else {
        *dst = alloc_data(a, bytes);
        if (fseeko(f, (off_t)offset, SEEK_SET) != 0 ||
            (bytes > 0 && fread(*dst, 1, (size_t)bytes, f) != (size_t)bytes))
            gir_error_at(e, loc, "%s: cannot read external data '%.256s'", label, full);
        else
            rc = 0;
    }
    fclose(f);
    free(full);
    return rc;
}

/* Copy the n values of dtype dt from their typed repeated field into dst;
 * the caller has checked the field holds exactly n. */
static void convert_typed(const Onnx__TensorProto *tp, GirDType dt, int64_t n, void *dst)
{
    int64_t i;
    switch (dt) {
    case GIR_DT_F32:
        memcpy(dst, tp->float_data, (size_t)n * sizeof(float));
        break;
    case GIR_DT_F64:
        memcpy(dst, tp->double_data, (size_t)n * sizeof(double));
        break;
    case GIR_DT_I64:
        memcpy(dst, tp->int64_data, (size_t)n * sizeof(int64_t));
        break;
    case GIR_DT_I32:
        memcpy(dst, tp->int32_data, (size_t)n * sizeof(int32_t));
        break;
    case GIR_DT_I8:
        /* Stored widened to int32; the low byte is the value. */
        for (i = 0; i < n; i++)
            ((int8_t *)dst)[i] = (int8_t)(uint8_t)((uint32_t)tp->int32_data[i] & 0xff);
        break;
    case GIR_DT_U8:
        for (i = 0; i < n; i++)
            ((uint8_t *)dst)[i] = (uint8_t)((uint32_t)tp->int32_data[i] & 0xff);
        break;
    case GIR_DT_BOOL:
        for (i = 0; i < n; i++)
            ((uint8_t *)dst)[i] = tp->int32_data[i] != 0;
        break;
    case GIR_DT_I16:
    case GIR_DT_U16:
    case GIR_DT_F16:
        /* Stored widened to int32 (float16 as its bits); the low 16 bits. */
        for (i = 0; i < n; i++)
            ((uint16_t *)dst)[i] = (uint16_t)((uint32_t)tp->int32_data[i] & 0xffff);
        break;
    case GIR_DT_U32:
        for (i = 0; i < n; i++)
            ((uint32_t *)dst)[i] = (uint32_t)tp->uint64_data[i];
        break;
    case GIR_DT_U64:
        memcpy(dst, tp->uint64_data, (size_t)n * sizeof(uint64_t));
        break;
    default:
        gir_unreachable();
    }
}

/* The typed field a dtype's values live in, and its element count. */
static const char *typed_field(const Onnx__TensorProto *tp, GirDType dt, size_t *count)
{
    switch (dt) {
    case GIR_DT_F32:
        *count = tp->n_float_data;
        return "float_data";
    case GIR_DT_F64:
        *count = tp->n_double_data;
        return "double_data";
    case GIR_DT_I64:
        *count = tp->n_int64_data;
        return "int64_data";
    case GIR_DT_U32:
    case GIR_DT_U64:
        *count = tp->n_uint64_data;
        return "uint64_data";
    default:
        *count = tp->n_int32_data;
        return "int32_data";
    }
}

int fe_tensor_proto_decode(const Onnx__TensorProto *tp, const char *path, const char *dir,
                           GirArena *a, int *unsupported, GirTensor *t, GirError *e)
{
    const char *file = file_name(path);
    GirLoc loc = gir_loc_file(file, -1);
    char label[300];
    GirDType dt;
    size_t esize, count, typed_total;
    int64_t numel, bytes;
    const char *field;
    size_t i;

    memset(t, 0, sizeof *t);
    if (tp->name && tp->name[0])
        snprintf(label, sizeof label, "tensor '%.256s'", tp->name);
    else
        snprintf(label, sizeof label, "tensor");

    if (!tp->has_data_type || tp->data_type == 0)
        return gir_error_at(e, loc, "%s: no data type", label);
    dt = gir_dtype_from_onnx(tp->data_type);
    if (dt == GIR_DT_UNDEF) {
        if (unsupported)
            *unsupported = 1;
        return gir_error_at(e, loc, "%s: unsupported data type %s (%d)", label,
                            onnx_type_name(tp->data_type), (int)tp->data_type);
    }
    if (tp->n_dims > GIR_MAX_RANK) {
        if (unsupported)
            *unsupported = 1;
        return gir_error_at(e, loc, "%s: rank %zu is above the supported %d", label,
                            tp->n_dims, GIR_MAX_RANK);
    }
    if (tp->segment) {
        if (unsupported)
            *unsupported = 1;
        return gir_error_at(e, loc, "%s: segmented tensors are not supported", label);
    }
    for (i = 0; i < tp->n_dims; i++)
        if (tp->dims[i] < 0)
            return gir_error_at(e, loc, "%s: negative dimension %lld at axis %zu", label,
                                (long long)tp->dims[i], i);
    esize = gir_dtype_size(dt);
    numel = checked_numel(tp->dims, (int)tp->n_dims, esize);
    if (numel < 0)
        return gir_error_at(e, loc, "%s: dimensions too large", label);
    bytes = numel * (int64_t)esize;

    t->type.dtype = dt;
    t->type.rank = (int)tp->n_dims;
    for (i = 0; i < tp->n_dims; i++)
        t->type.dims[i] = tp->dims[i];

    if (tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) {
        void *buf = NULL;
        if (read_external(tp, label, file, dir, bytes, a, &buf, e) != 0)
            return -1;
        if (!host_is_little_endian() && esize > 1) {
            void *tmp = alloc_data(a, bytes);
            copy_from_le(tmp, buf, numel, esize);
            buf = tmp;
        }
        if (dt == GIR_DT_BOOL)
            normalize_bool(buf, numel);
        t->data = buf;
        return 0;
    }

    typed_total = tp->n_float_data + tp->n_int32_data + tp->n_int64_data +
                  tp->n_double_data + tp->n_uint64_data + tp->n_string_data;
    if (tp->has_raw_data) {
        if (typed_total)
            return gir_error_at(e, loc, "%s: has both raw_data and typed data", label);
        if ((uint64_t)tp->raw_data.len != (uint64_t)bytes)
            return gir_error_at(e, loc,
                                "%s: raw_data holds %zu bytes; its dims need %lld", label,
                                tp->raw_data.len, (long long)bytes);
        t->data = alloc_data(a, bytes);
        copy_from_le(t->data, tp->raw_data.data, numel, esize);
        if (dt == GIR_DT_BOOL)
            normalize_bool(t->data, numel);
        return 0;
    }

    field = typed_field(tp, dt, &count);
    if ((uint64_t)count != (uint64_t)numel || typed_total != count)
        return gir_error_at(e, loc,
                            "%s: its dims need %lld elements in %s; the tensor holds %zu "
                            "(and %zu in other fields)",
                            label, (long long)numel, field, count, typed_total - count);
    t->data = alloc_data(a, bytes);
    if (numel > 0)
        convert_typed(tp, dt, numel, t->data);
    return 0;
}

/* ---- .npy ------------------------------------------------------------------ */

static const uint8_t npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* The descr strings kiln reads and writes; the first of a dtype is written. */
static const struct {
    const char *descr; /* NumPy array-protocol type string */
    GirDType dt;       /* element type it means */
} npy_types[] = {
    {"<f4", GIR_DT_F32},  {"|u1", GIR_DT_U8},   {"|i1", GIR_DT_I8},
    {"<i4", GIR_DT_I32},  {"<i8", GIR_DT_I64},  {"|b1", GIR_DT_BOOL},
    {"<f8", GIR_DT_F64},  {"<u1", GIR_DT_U8},   {"<i1", GIR_DT_I8},
    {"<b1", GIR_DT_BOOL}, {"<i2", GIR_DT_I16},  {"<u2", GIR_DT_U16},
    {"<u4", GIR_DT_U32},  {"<u8", GIR_DT_U64},  {"<f2", GIR_DT_F16},
};

/* A cursor over the header dict; offsets in messages are file offsets. */
typedef struct {
    const uint8_t *buf; /* the whole file */
    size_t pos;         /* next byte to look at */
    size_t end;         /* one past the header's last byte */
    const char *file;   /* for messages */
    GirError *e;        /* where errors go */
} NpyHeader;

static int npy_err(NpyHeader *h, const char *what)
{
    return gir_error_at(h->e, gir_loc_file(h->file, (int64_t)h->pos),
                        "bad .npy header: %s", what);
}

static void npy_skip_ws(NpyHeader *h)
{
    while (h->pos < h->end && (h->buf[h->pos] == ' ' || h->buf[h->pos] == '\t' ||
                               h->buf[h->pos] == '\n' || h->buf[h->pos] == '\r'))
        h->pos++;
}

static int npy_expect(NpyHeader *h, char c, const char *what)
{
    npy_skip_ws(h);
    if (h->pos >= h->end || h->buf[h->pos] != (uint8_t)c)
        return npy_err(h, what);
    h->pos++;
    return 0;
}

/* A quoted Python string without escapes into out (size bytes). */
static int npy_string(NpyHeader *h, char *out, size_t size)
{
    uint8_t q;
    size_t n = 0;
    npy_skip_ws(h);
    if (h->pos >= h->end || (h->buf[h->pos] != '\'' && h->buf[h->pos] != '"'))
        return npy_err(h, "expected a quoted string");
    q = h->buf[h->pos++];
    while (h->pos < h->end && h->buf[h->pos] != q) {
        if (h->buf[h->pos] == '\\' || n + 1 >= size)
            return npy_err(h, "string too long or escaped");
        out[n++] = (char)h->buf[h->pos++];
    }
    if (h->pos >= h->end)
        return npy_err(h, "unterminated string");
    h->pos++;
    out[n] = '\0';
    return 0;
}

/* A word of letters (True, False) into out. */
static int npy_word(NpyHeader *h, char *out, size_t size)
{
    size_t n = 0;
    npy_skip_ws(h);
    while (h->pos < h->end && ((h->buf[h->pos] >= 'a' && h->buf[h->pos] <= 'z') ||
                               (h->buf[h->pos] >= 'A' && h->buf[h->pos] <= 'Z'))) {
        if (n + 1 >= size)
            return npy_err(h, "word too long");
        out[n++] = (char)h->buf[h->pos++];
    }
    out[n] = '\0';
    if (n == 0)
        return npy_err(h, "expected True or False");
    return 0;
}

/* A tuple of non-negative ints: "()", "(3,)", "(2, 3)". */
static int npy_shape(NpyHeader *h, GirType *type)
{
    if (npy_expect(h, '(', "expected '(' to open the shape") != 0)
        return -1;
    type->rank = 0;
    for (;;) {
        int64_t v = 0;
        size_t start;
        npy_skip_ws(h);
        if (h->pos < h->end && h->buf[h->pos] == ')') {
            h->pos++;
            return 0;
        }
        start = h->pos;
        while (h->pos < h->end && h->buf[h->pos] >= '0' && h->buf[h->pos] <= '9') {
            if (v > (((int64_t)1 << 62) - 9) / 10)
                return npy_err(h, "dimension too large");
            v = v * 10 + (h->buf[h->pos++] - '0');
        }
        if (h->pos == start)
            return npy_err(h, "expected a dimension");
        if (type->rank >= GIR_MAX_RANK)
            return npy_err(h, "too many dimensions");
        type->dims[type->rank++] = v;
        npy_skip_ws(h);
        if (h->pos < h->end && h->buf[h->pos] == ',') {
            h->pos++;
            continue;
        }
        if (h->pos < h->end && h->buf[h->pos] == ')') {
            h->pos++;
            return 0;
        }
        return npy_err(h, "expected ',' or ')' in the shape");
    }
}

/* Parse the header dict into type; fails unless it holds exactly descr,
 * fortran_order and shape, as NumPy writes it. */
static int npy_dict(NpyHeader *h, GirType *type)
{
    int have_descr = 0, have_order = 0, have_shape = 0;
    if (npy_expect(h, '{', "expected '{'") != 0)
        return -1;
    for (;;) {
        char key[32], val[32];
        size_t key_pos;
        npy_skip_ws(h);
        if (h->pos < h->end && h->buf[h->pos] == '}')
            break;
        key_pos = h->pos;
        if (npy_string(h, key, sizeof key) != 0 || npy_expect(h, ':', "expected ':'") != 0)
            return -1;
        if (strcmp(key, "descr") == 0 && !have_descr) {
            size_t vpos, i;
            npy_skip_ws(h);
            vpos = h->pos;
            if (npy_string(h, val, sizeof val) != 0)
                return -1;
            type->dtype = GIR_DT_UNDEF;
            for (i = 0; i < sizeof npy_types / sizeof npy_types[0]; i++)
                if (strcmp(val, npy_types[i].descr) == 0)
                    type->dtype = npy_types[i].dt;
            if (type->dtype == GIR_DT_UNDEF) {
                h->pos = vpos;
                return gir_error_at(h->e, gir_loc_file(h->file, (int64_t)vpos),
                                    "unsupported .npy dtype '%s'%s", val,
                                    val[0] == '>' ? " (big-endian)" : "");
            }
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0 && !have_order) {
            size_t vpos;
            npy_skip_ws(h);
            vpos = h->pos;
            if (npy_word(h, val, sizeof val) != 0)
                return -1;
            if (strcmp(val, "True") == 0)
                return gir_error_at(h->e, gir_loc_file(h->file, (int64_t)vpos),
                                    "fortran_order True is not supported (save the array "
                                    "in C order)");
            if (strcmp(val, "False") != 0) {
                h->pos = vpos;
                return npy_err(h, "expected True or False");
            }
            have_order = 1;
        } else if (strcmp(key, "shape") == 0 && !have_shape) {
            if (npy_shape(h, type) != 0)
                return -1;
            have_shape = 1;
        } else {
            h->pos = key_pos;
            return npy_err(h, "unexpected or repeated key");
        }
        npy_skip_ws(h);
        if (h->pos < h->end && h->buf[h->pos] == ',') {
            h->pos++;
            continue;
        }
        if (h->pos < h->end && h->buf[h->pos] == '}')
            break;
        return npy_err(h, "expected ',' or '}'");
    }
    if (!have_descr || !have_order || !have_shape)
        return npy_err(h, "missing descr, fortran_order or shape");
    h->pos++; /* the '}' */
    npy_skip_ws(h);
    if (h->pos != h->end)
        return npy_err(h, "text after the dict");
    return 0;
}

static int npy_parse(const uint8_t *buf, size_t len, const char *file, GirArena *a,
                     GirTensor *t, GirError *e)
{
    NpyHeader h;
    size_t start, hlen, data_off, have;
    int64_t numel, bytes;

    if (len < 10 || memcmp(buf, npy_magic, sizeof npy_magic) != 0)
        return gir_error_at(e, gir_loc_file(file, 0), "not a .npy file (no \\x93NUMPY magic)");
    if ((buf[6] != 1 && buf[6] != 2 && buf[6] != 3) || buf[7] != 0)
        return gir_error_at(e, gir_loc_file(file, 6), "unsupported .npy version %u.%u",
                            buf[6], buf[7]);
    if (buf[6] == 1) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        start = 10;
    } else {
        if (len < 12)
            return gir_error_at(e, gir_loc_file(file, 8), "truncated .npy header length");
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 |
               (size_t)buf[11] << 24;
        start = 12;
    }
    if (hlen > len - start)
        return gir_error_at(e, gir_loc_file(file, 8),
                            "header length %zu runs past the end of the file (%zu bytes)",
                            hlen, len);
    h.buf = buf;
    h.pos = start;
    h.end = start + hlen;
    h.file = file;
    h.e = e;
    memset(t, 0, sizeof *t);
    if (npy_dict(&h, &t->type) != 0)
        return -1;

    data_off = start + hlen;
    numel = checked_numel(t->type.dims, t->type.rank, gir_dtype_size(t->type.dtype));
    if (numel < 0)
        return gir_error_at(e, gir_loc_file(file, (int64_t)start), "shape too large");
    bytes = numel * (int64_t)gir_dtype_size(t->type.dtype);
    have = len - data_off;
    if ((uint64_t)have != (uint64_t)bytes) {
        char tbuf[160];
        return gir_error_at(e, gir_loc_file(file, (int64_t)data_off),
                            "%s data: %s needs %lld bytes, the file has %zu",
                            have < (uint64_t)bytes ? "truncated" : "extra",
                            gir_type_str(&t->type, tbuf, sizeof tbuf), (long long)bytes,
                            have);
    }
    t->data = alloc_data(a, bytes);
    copy_from_le(t->data, buf + data_off, numel, gir_dtype_size(t->type.dtype));
    if (t->type.dtype == GIR_DT_BOOL)
        normalize_bool(t->data, numel);
    return 0;
}

/* ---- reading ----------------------------------------------------------------- */

/* 1 for .npy, 0 for .pb, -1 for anything else. */
static int tensor_kind(const char *path)
{
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".npy") == 0)
        return 1;
    if (n >= 3 && strcmp(path + n - 3, ".pb") == 0)
        return 0;
    return -1;
}

int fe_tensor_from_memory(const uint8_t *buf, size_t len, int is_npy, const char *path,
                          GirArena *a, GirTensor *t, GirError *e)
{
    const char *file = file_name(path);
    Onnx__TensorProto *tp;
    int rc;

    memset(t, 0, sizeof *t);
    if (is_npy)
        return npy_parse(buf, len, file, a, t, e);
    tp = onnx__tensor_proto__unpack(NULL, len, buf);
    if (!tp)
        return gir_error_at(e, gir_loc_file(file, -1),
                            "not a valid ONNX TensorProto (protobuf decode failed)");
    rc = fe_tensor_proto_decode(tp, file, fe_dir_of(a, path), a, NULL, t, e);
    onnx__tensor_proto__free_unpacked(tp, NULL);
    if (rc != 0)
        memset(t, 0, sizeof *t);
    return rc;
}

int fe_read_tensor(const char *path, GirArena *a, GirTensor *t, GirError *e)
{
    int kind = tensor_kind(path);
    uint8_t *buf;
    size_t len;
    int rc;

    memset(t, 0, sizeof *t);
    if (kind < 0)
        return gir_error_at(e, gir_loc_file(path, -1),
                            "unknown tensor file type (expected .npy or .pb)");
    buf = fe_read_file(path, MAX_TENSOR_FILE, &len, e);
    if (!buf)
        return -1;
    rc = fe_tensor_from_memory(buf, len, kind, path, a, t, e);
    free(buf);
    return rc;
}

/* ---- writing ------------------------------------------------------------------- */

/* The tensor's data in little-endian order: t->data itself on a
 * little-endian host, else a swapped copy in *owned (free it). */
static const void *le_data(const GirTensor *t, int64_t numel, void **owned)
{
    size_t esize = gir_dtype_size(t->type.dtype);
    *owned = NULL;
    if (esize == 1 || host_is_little_endian())
        return t->data;
    *owned = malloc(numel > 0 ? (size_t)numel * esize : 1);
    if (!*owned)
        gir_die("out of memory");
    copy_from_le(*owned, t->data, numel, esize); /* the swap is its own inverse */
    return *owned;
}

static int write_npy(const char *path, const GirTensor *t, int64_t numel, GirError *e)
{
    char header[512];
    const char *descr = NULL;
    size_t n, i, total;
    uint8_t pre[10];
    const void *parts[3];
    size_t lens[3];
    void *owned;
    int rc, d;

    for (i = 0; i < sizeof npy_types / sizeof npy_types[0] && !descr; i++)
        if (npy_types[i].dt == t->type.dtype)
            descr = npy_types[i].descr;
    if (!descr)
        gir_unreachable();
    n = (size_t)snprintf(header, sizeof header,
                         "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (d = 0; d < t->type.rank; d++)
        n += (size_t)snprintf(header + n, sizeof header - n, "%s%lld", d ? ", " : "",
                              (long long)t->type.dims[d]);
    n += (size_t)snprintf(header + n, sizeof header - n, "%s), }",
                          t->type.rank == 1 ? "," : "");
    /* NumPy pads the header with spaces and a newline so the data starts on
     * a 64-byte boundary. */
    total = (10 + n + 1 + 63) / 64 * 64;
    while (10 + n + 1 < total)
        header[n++] = ' ';
    header[n++] = '\n';
    memcpy(pre, npy_magic, sizeof npy_magic);
    pre[6] = 1;
    pre[7] = 0;
    pre[8] = (uint8_t)(n & 0xff);
    pre[9] = (uint8_t)(n >> 8);
    parts[0] = pre;
    lens[0] = sizeof pre;
    parts[1] = header;
    lens[1] = n;
    parts[2] = le_data(t, numel, &owned);
    lens[2] = (size_t)numel * gir_dtype_size(t->type.dtype);
    rc = gir_write_atomic(path, parts, lens, 3, e);
    free(owned);
    return rc;
}

static int write_pb(const char *path, const GirTensor *t, int64_t numel, GirError *e)
{
    Onnx__TensorProto tp = ONNX__TENSOR_PROTO__INIT;
    int64_t dims[GIR_MAX_RANK];
    const void *parts[1];
    size_t lens[1];
    void *owned;
    uint8_t *out;
    size_t size;
    int rc, d;

    for (d = 0; d < t->type.rank; d++)
        dims[d] = t->type.dims[d];
    tp.n_dims = (size_t)t->type.rank;
    tp.dims = dims;
    tp.has_data_type = 1;
    tp.data_type = gir_dtype_to_onnx(t->type.dtype);
    tp.has_raw_data = 1;
    tp.raw_data.len = (size_t)numel * gir_dtype_size(t->type.dtype);
    tp.raw_data.data = (uint8_t *)le_data(t, numel, &owned);
    size = onnx__tensor_proto__get_packed_size(&tp);
    out = malloc(size ? size : 1);
    if (!out)
        gir_die("out of memory");
    onnx__tensor_proto__pack(&tp, out);
    parts[0] = out;
    lens[0] = size;
    rc = gir_write_atomic(path, parts, lens, 1, e);
    free(out);
    free(owned);
    return rc;
}

int fe_write_tensor(const char *path, const GirTensor *t, GirError *e)
{
    GirLoc loc = gir_loc_file(path, -1);
    int kind = tensor_kind(path);
    int64_t numel;

    if (kind < 0)
        return gir_error_at(e, loc, "unknown tensor file type (expected .npy or .pb)");
    if (t->type.dtype <= GIR_DT_UNDEF || t->type.dtype >= GIR_DT_COUNT)
        return gir_error_at(e, loc, "cannot write a tensor of unknown element type");
    if (t->type.rank < 0 || t->type.rank > GIR_MAX_RANK)
        return gir_error_at(e, loc, "cannot write a tensor of unknown rank");
    numel = gir_type_numel(&t->type);
    if (numel < 0)
        return gir_error_at(e, loc, "cannot write a tensor with unknown dimensions");
    if (numel > 0 && !t->data)
        return gir_error_at(e, loc, "cannot write a tensor without data");
    return kind ? write_npy(path, t, numel, e) : write_pb(path, t, numel, e);
}
