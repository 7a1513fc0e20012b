/*
 * npy.c: fp32 .npy files (NumPy format 1.0 to 3.0 read, 1.0 written as
 * NumPy writes it: the header padded with spaces and a newline so the data
 * starts on a 64-byte boundary).  Little-endian hosts only (x86-64, aarch64).
 */
#define _POSIX_C_SOURCE 200809L

#include "kiln_driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file into a new buffer; NULL + err. */
static unsigned char *slurp(const char *path, size_t *len, char *err)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f) {
        snprintf(err, KD_ERR, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(err, KD_ERR, "%s: out of memory", path);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        snprintf(err, KD_ERR, "%s: read error", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* The shape tuple after 'shape': in the header h; 0 or -1 + err. */
static int parse_shape(const char *path, const char *h, KdTensorInfo *t, char *err)
{
    const char *s = strstr(h, "'shape':");
    char *end;
    t->rank = 0;
    if (!s || !(s = strchr(s, '('))) {
        snprintf(err, KD_ERR, "%s: not a .npy header: no 'shape'", path);
        return -1;
    }
    s++;
    for (;;) {
        long long v;
        while (*s == ' ' || *s == ',')
            s++;
        if (*s == ')')
            return 0;
        v = strtoll(s, &end, 10);
        if (end == s || v < 0 || t->rank == KD_MAX_RANK) {
            snprintf(err, KD_ERR, "%s: .npy shape: expected at most %d sizes", path, KD_MAX_RANK);
            return -1;
        }
        t->dims[t->rank++] = v;
        s = end;
    }
}

/* Parse the header of buf; the data offset, or -1 + err. */
static long parse_header(const char *path, const unsigned char *buf, size_t len, KdTensorInfo *t,
                         char *err)
{
    size_t hl, off;
    char *h;
    int rc;
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) {
        snprintf(err, KD_ERR, "%s: not a .npy file (no \\x93NUMPY magic)", path);
        return -1;
    }
    if (buf[6] == 1) {
        hl = (size_t)buf[8] | (size_t)buf[9] << 8;
        off = 10;
    } else if ((buf[6] == 2 || buf[6] == 3) && len >= 12) {
        hl = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        off = 12;
    } else {
        snprintf(err, KD_ERR, "%s: .npy version %d not supported", path, buf[6]);
        return -1;
    }
    if (hl > len - off) {
        snprintf(err, KD_ERR, "%s: truncated .npy header", path);
        return -1;
    }
    if (!(h = malloc(hl + 1))) {
        snprintf(err, KD_ERR, "%s: out of memory", path);
        return -1;
    }
    memcpy(h, buf + off, hl);
    h[hl] = 0;
    rc = 0;
    if (!strstr(h, "'descr': '<f4'")) {
        snprintf(err, KD_ERR, "%s: dtype is not float32 ('<f4')", path);
        rc = -1;
    } else if (!strstr(h, "'fortran_order': False")) {
        snprintf(err, KD_ERR, "%s: fortran_order arrays are not supported", path);
        rc = -1;
    } else {
        rc = parse_shape(path, h, t, err);
    }
    free(h);
    return rc < 0 ? -1 : (long)(off + hl);
}

static char *shape_str(const KdTensorInfo *t, char *buf, size_t size)
{
    size_t n = 0;
    int i;
    buf[n++] = '[';
    buf[n] = 0;
    for (i = 0; i < t->rank && n < size - 24; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? "," : "", (long long)t->dims[i]);
    snprintf(buf + n, size - n, "]");
    return buf;
}

/* At most 2^40 elements (so the byte count cannot overflow). */
static int shape_fits(const KdTensorInfo *t)
{
    int64_t n = 1;
    int i;
    for (i = 0; i < t->rank; i++) {
        if (t->dims[i] > ((int64_t)1 << 40) || (t->dims[i] && n > ((int64_t)1 << 40) / t->dims[i]))
            return 0;
        n *= t->dims[i];
    }
    return 1;
}

float *kd_npy_read_any(const char *path, KdTensorInfo *t, char *err)
{
    size_t len = 0, need;
    unsigned char *buf = slurp(path, &len, err);
    long off;
    float *x;
    if (!buf)
        return NULL;
    off = parse_header(path, buf, len, t, err);
    if (off < 0) {
        free(buf);
        return NULL;
    }
    if (!shape_fits(t)) {
        snprintf(err, KD_ERR, "%s: .npy shape too large", path);
        free(buf);
        return NULL;
    }
    need = (size_t)kd_numel(t) * sizeof(float);
    if (len - (size_t)off != need) {
        char s[128];
        snprintf(err, KD_ERR, "%s: %s: %zu bytes of data for shape %s, %zu expected", path,
                 len - (size_t)off < need ? "truncated" : "trailing bytes", len - (size_t)off,
                 shape_str(t, s, sizeof s), need);
        free(buf);
        return NULL;
    }
    x = malloc(need ? need : 1);
    if (!x)
        snprintf(err, KD_ERR, "%s: out of memory", path);
    else
        memcpy(x, buf + off, need);
    free(buf);
    return x;
}

float *kd_npy_read(const char *path, const KdTensorInfo *want, char *err)
{
    KdTensorInfo t;
    char a[128], b[128];
    float *x = kd_npy_read_any(path, &t, err);
    int i, same = x && t.rank == want->rank;
    for (i = 0; same && i < t.rank; i++)
        same = t.dims[i] == want->dims[i];
    if (x && !same) {
        snprintf(err, KD_ERR, "%s: shape %s, the model's '%s' is %s", path,
                 shape_str(&t, a, sizeof a), want->name, shape_str(want, b, sizeof b));
        free(x);
        return NULL;
    }
    return x;
}

int kd_npy_write(const char *path, const KdTensorInfo *t, const float *data, char *err)
{
    char h[512], tmp[4096];
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
    size_t n, total;
    int d, ok;
    FILE *f;
    n = (size_t)snprintf(h, sizeof h, "{'descr': '<f4', 'fortran_order': False, 'shape': (");
    for (d = 0; d < t->rank; d++)
        n += (size_t)snprintf(h + n, sizeof h - n, "%s%lld", d ? ", " : "",
                              (long long)t->dims[d]);
    n += (size_t)snprintf(h + n, sizeof h - n, "%s), }", t->rank == 1 ? "," : "");
    total = (10 + n + 1 + 63) / 64 * 64;
    while (10 + n + 1 < total)
        h[n++] = ' ';
    h[n++] = '\n';
    pre[8] = (unsigned char)(n & 0xff);
    pre[9] = (unsigned char)(n >> 8);
    if (!(f = kd_create(path, tmp, err)))
        return -1;
    ok = fwrite(pre, 1, sizeof pre, f) == sizeof pre && fwrite(h, 1, n, f) == n &&
         fwrite(data, sizeof(float), (size_t)kd_numel(t), f) == (size_t)kd_numel(t);
    return kd_commit(f, tmp, path, ok, err);
}
