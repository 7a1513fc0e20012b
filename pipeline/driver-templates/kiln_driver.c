/*
 * kiln_driver.c: what the generated model.c calls: the accelerator opened
 * and loaded through libkiln-rt with one DDR image per FPGA channel, the
 * boundary QuantizeLinear / DequantizeLinear as kiln's int8 interpreter
 * computes them, int8 maps to and from the channels' DDR images, one FPGA
 * segment run at a time (the CPU partitions' objects run between them),
 * and Darknet's [yolo] logistic.
 */
#define _POSIX_C_SOURCE 200809L

#include "kiln_driver.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int64_t kd_numel(const KdTensorInfo *t)
{
    int64_t n = 1;
    int i;
    for (i = 0; i < t->rank; i++)
        n *= t->dims[i];
    return n;
}

static size_t largest_map(const KrtModel *m)
{
    size_t big = 1;
    int i;
    for (i = 0; i < krt_num_inputs(m) + krt_num_outputs(m); i++) {
        const KrtTensor *t = i < krt_num_inputs(m) ? krt_input(m, i)
                                                   : krt_output(m, i - krt_num_inputs(m));
        size_t n = (size_t)t->h * (size_t)t->w * (size_t)t->c;
        if (n > big)
            big = n;
    }
    return big;
}

static uint8_t **alloc_images(const KrtModel *m, int out)
{
    int i, n = out ? krt_num_outputs(m) : krt_num_inputs(m);
    uint8_t **v = calloc((size_t)n + 1, sizeof *v);
    for (i = 0; v && i < n; i++) {
        const KrtTensor *t = out ? krt_output(m, i) : krt_input(m, i);
        if (!(v[i] = calloc(1, t->frame_bytes)))
            return v; /* kd_close frees what was allocated */
    }
    return v;
}

static int images_ok(uint8_t **v, int n)
{
    int i;
    if (!v)
        return 0;
    for (i = 0; i < n; i++)
        if (!v[i])
            return 0;
    return 1;
}

int kd_open(KdRun *r, const char *spec, const char *dir, char *err)
{
    KrtError e;
    memset(r, 0, sizeof *r);
    if (krt_open(spec, &r->dev, &e) != KRT_OK) {
        snprintf(err, KD_ERR, "%s", e.msg);
        return -1;
    }
    if (krt_load(r->dev, dir, &r->m, &e) != KRT_OK) {
        snprintf(err, KD_ERR, "%s", e.msg);
        kd_close(r);
        return -1;
    }
    r->in_img = alloc_images(r->m, 0);
    r->out_img = alloc_images(r->m, 1);
    r->scratch = malloc(largest_map(r->m));
    if (!images_ok(r->in_img, krt_num_inputs(r->m)) ||
        !images_ok(r->out_img, krt_num_outputs(r->m)) || !r->scratch) {
        snprintf(err, KD_ERR, "out of memory for the frame buffers");
        kd_close(r);
        return -1;
    }
    return 0;
}

static void free_images(uint8_t **v)
{
    int i;
    for (i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

static void free_frames(KdRun *r)
{
    int f;
    for (f = 0; f < r->nframes; f++) {
        free_images(r->fin ? r->fin[f] : NULL);
        free_images(r->fout ? r->fout[f] : NULL);
    }
    free(r->fin);
    free(r->fout);
    r->fin = r->fout = NULL;
    r->nframes = 0;
}

int kd_frames(KdRun *r, int frames, char *err)
{
    int f;
    free_frames(r);
    r->fin = calloc((size_t)frames + 1, sizeof *r->fin);
    r->fout = calloc((size_t)frames + 1, sizeof *r->fout);
    if (r->fin && r->fout)
        r->nframes = frames;
    for (f = 0; f < r->nframes; f++) {
        r->fin[f] = alloc_images(r->m, 0);
        r->fout[f] = alloc_images(r->m, 1);
        if (!images_ok(r->fin[f], krt_num_inputs(r->m)) ||
            !images_ok(r->fout[f], krt_num_outputs(r->m)))
            break;
    }
    if (!r->fin || !r->fout || f < r->nframes) {
        snprintf(err, KD_ERR, "out of memory for the images of %d frames", frames);
        free_frames(r);
        return -1;
    }
    return 0;
}

void kd_close(KdRun *r)
{
    free_frames(r);
    free_images(r->in_img);
    free_images(r->out_img);
    free(r->scratch);
    if (r->m)
        krt_unload(r->m);
    if (r->dev)
        krt_close(r->dev);
    memset(r, 0, sizeof *r);
}

void kd_quantize(const float *x, int64_t n, float scale, int zp, int8_t *y)
{
    int64_t i;
    for (i = 0; i < n; i++) {
        double v = rint((double)(x[i] / scale));
        if (v != v)
            v = 0;
        v += (double)zp;
        y[i] = (int8_t)(v < -128.0 ? -128.0 : v > 127.0 ? 127.0 : v);
    }
}

void kd_dequantize(const int8_t *q, int64_t n, float scale, int zp, float *y)
{
    int64_t i;
    for (i = 0; i < n; i++)
        y[i] = ((float)q[i] - (float)zp) * scale;
}

void kd_dequantize_ch(const int8_t *q, int64_t n, const float *scale, int nch, int64_t inner,
                      float *y)
{
    int64_t i;
    for (i = 0; i < n; i++)
        y[i] = ((float)q[i] - 0.0f) * scale[(i / inner) % nch];
}

/* Check that channel t holds n elements of value. */
static int chan_size(const KrtTensor *t, const char *value, int64_t n, char *err)
{
    if ((int64_t)t->h * t->w * t->c != n) {
        snprintf(err, KD_ERR, "channel %s carries '%s' as %dx%dx%d, the model has %lld elements "
                 "(rtl/regmap.json of another model?)", t->name, value, t->h, t->w, t->c,
                 (long long)n);
        return -1;
    }
    return 0;
}

static void no_chan(const char *value, int out, char *err)
{
    snprintf(err, KD_ERR, "the accelerator has no %s channel for '%s' (rtl/regmap.json of "
             "another model?)", out ? "output" : "input", value);
}

/* value's map into the images img of its input channels. */
static int put_into(KdRun *r, uint8_t **img, const char *value, const int8_t *map, int64_t n,
                    int nchw, char *err)
{
    int i, found = 0;
    for (i = 0; i < krt_num_inputs(r->m); i++) {
        const KrtTensor *t = krt_input(r->m, i);
        int64_t c, p, plane = (int64_t)t->h * t->w;
        if (!t->value || strcmp(t->value, value))
            continue;
        if (chan_size(t, value, n, err) < 0)
            return -1;
        found = 1;
        if (!nchw) {
            krt_image_from_hwc(t, map, img[i]);
            continue;
        }
        for (c = 0; c < t->c; c++)
            for (p = 0; p < plane; p++)
                r->scratch[p * t->c + c] = map[c * plane + p];
        krt_image_from_hwc(t, r->scratch, img[i]);
    }
    if (!found)
        no_chan(value, 0, err);
    return found ? 0 : -1;
}

/* value's map from the image img of its first output channel. */
static int get_from(KdRun *r, uint8_t **img, const char *value, int8_t *map, int64_t n, int nchw,
                    char *err)
{
    int i;
    for (i = 0; i < krt_num_outputs(r->m); i++) {
        const KrtTensor *t = krt_output(r->m, i);
        int64_t c, p, plane = (int64_t)t->h * t->w;
        if (!t->value || strcmp(t->value, value))
            continue;
        if (chan_size(t, value, n, err) < 0)
            return -1;
        if (!nchw) {
            krt_hwc_from_image(t, img[i], map);
            return 0;
        }
        krt_hwc_from_image(t, img[i], r->scratch);
        for (c = 0; c < t->c; c++)
            for (p = 0; p < plane; p++)
                map[c * plane + p] = r->scratch[p * t->c + c];
        return 0;
    }
    no_chan(value, 1, err);
    return -1;
}

int kd_put_value(KdRun *r, const char *value, const int8_t *map, int64_t n, int nchw, char *err)
{
    return put_into(r, r->in_img, value, map, n, nchw, err);
}

int kd_get_value(KdRun *r, const char *value, int8_t *map, int64_t n, int nchw, char *err)
{
    return get_from(r, r->out_img, value, map, n, nchw, err);
}

static int frame_ok(const KdRun *r, int f, char *err)
{
    if (f >= 0 && f < r->nframes)
        return 0;
    snprintf(err, KD_ERR, "frame %d: the images hold %d frames (kd_frames)", f, r->nframes);
    return -1;
}

int kd_put_frame_value(KdRun *r, int f, const char *value, const int8_t *map, int64_t n,
                       int nchw, char *err)
{
    if (frame_ok(r, f, err) < 0)
        return -1;
    return put_into(r, r->fin[f], value, map, n, nchw, err);
}

int kd_get_frame_value(KdRun *r, int f, const char *value, int8_t *map, int64_t n, int nchw,
                       char *err)
{
    if (frame_ok(r, f, err) < 0)
        return -1;
    return get_from(r, r->fout[f], value, map, n, nchw, err);
}

int kd_run_frames(KdRun *r, int frames, int timeout_ms, char *err)
{
    KrtError e;
    if (frames > r->nframes)
        return frame_ok(r, frames - 1, err);
    if (krt_run_frames(r->m, frames, (const uint8_t *const *const *)r->fin,
                       (uint8_t *const *const *)r->fout, timeout_ms, &e) != KRT_OK) {
        snprintf(err, KD_ERR, "%s", e.msg);
        return -1;
    }
    return 0;
}

int kd_run_segment(KdRun *r, int seg, int timeout_ms, char *err)
{
    KrtError e;
    if (krt_run_segment(r->m, seg, (const uint8_t *const *)r->in_img, r->out_img, timeout_ms,
                        &e) != KRT_OK) {
        snprintf(err, KD_ERR, "%s", e.msg);
        return -1;
    }
    return 0;
}

void kd_yolo_head(float *x, int64_t c, int64_t plane, int classes)
{
    int64_t ch, i, per = 5 + classes;
    for (ch = 0; ch < c; ch++) {
        int64_t k = ch % per;
        if (k == 2 || k == 3)
            continue;
        for (i = 0; i < plane; i++)
            x[ch * plane + i] = 1.0f / (1.0f + expf(-x[ch * plane + i]));
    }
}

FILE *kd_create(const char *path, char *tmp, char *err)
{
    FILE *f;
    snprintf(tmp, 4096, "%s.tmp-%ld", path, (long)getpid());
    if (!(f = fopen(tmp, "wb")))
        snprintf(err, KD_ERR, "%s: cannot create: %s", tmp, strerror(errno));
    return f;
}

int kd_commit(FILE *f, const char *tmp, const char *path, int ok, char *err)
{
    ok = !ferror(f) && ok;
    if (fclose(f) != 0 || !ok || rename(tmp, path) != 0) {
        snprintf(err, KD_ERR, "%s: cannot write: %s", path, errno ? strerror(errno) : "error");
        unlink(tmp);
        return -1;
    }
    return 0;
}
