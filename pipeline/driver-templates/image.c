/*
 * image.c: pictures through stb_image (JPEG, PNG, ... read) and
 * stb_image_write (PNG); the model input made from a picture by the
 * preprocessing kiln compile was given (--mean, --std | --scale, --bgr,
 * --nhwc, --alpha, --resize) through libkiln-rt's krt_preprocess, the
 * definition kiln run -i photo.jpg uses too (docs/inputs.md); boxes drawn
 * into a picture.
 */
#define _POSIX_C_SOURCE 200809L

#include "kiln_driver.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stb_image.h"
#include "stb_image_write.h"

int kd_image_load(const char *path, KdImage *im, char *err)
{
    int n;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, KD_ERR, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    im->rgb = stbi_load_from_file(f, &im->w, &im->h, &n, 3);
    fclose(f);
    if (!im->rgb) {
        snprintf(err, KD_ERR, "%s: not a readable image: %s", path, stbi_failure_reason());
        return -1;
    }
    return 0;
}

void kd_image_free(KdImage *im)
{
    stbi_image_free(im->rgb);
    im->rgb = NULL;
}

/* The model input's height, width and channels from its shape. */
static int input_hwc(const KdTensorInfo *t, int *h, int *w, int *c, char *err)
{
    int want = kd_model.pre.alpha ? 4 : 3;
    if (t->rank != 4 || t->dims[0] != 1) {
        snprintf(err, KD_ERR, "the model input '%s' is not one image ([1,C,H,W] or [1,H,W,C]); "
                 "give a .npy", t->name);
        return -1;
    }
    *h = (int)(kd_model.pre.nhwc ? t->dims[1] : t->dims[2]);
    *w = (int)(kd_model.pre.nhwc ? t->dims[2] : t->dims[3]);
    *c = (int)(kd_model.pre.nhwc ? t->dims[3] : t->dims[1]);
    if (*c != want) {
        snprintf(err, KD_ERR, "the model input '%s' has %d channels, the preprocessing makes %d; "
                 "give a .npy", t->name, *c, want);
        return -1;
    }
    return 0;
}

int kd_preprocess(const KdImage *im, const KdTensorInfo *t, float *x, char *err)
{
    int h, w, c;
    if (input_hwc(t, &h, &w, &c, err) < 0)
        return -1;
    krt_preprocess(im->rgb, im->w, im->h, &kd_model.pre, h, w, x);
    return 0;
}

/* Where stb_image_write's bytes go. */
typedef struct {
    FILE *f; /* the temporary file */
    int ok;  /* 0 after a short write */
} Sink;

static void to_file(void *ctx, void *data, int size)
{
    Sink *k = ctx;
    if (fwrite(data, 1, (size_t)size, k->f) != (size_t)size)
        k->ok = 0;
}

int kd_image_write_png(const char *path, const KdImage *im, char *err)
{
    char tmp[4096];
    Sink k = {kd_create(path, tmp, err), 1};
    if (!k.f)
        return -1;
    k.ok = stbi_write_png_to_func(to_file, &k, im->w, im->h, 3, im->rgb, im->w * 3) && k.ok;
    return kd_commit(k.f, tmp, path, k.ok, err);
}

static void hline(KdImage *im, int x0, int x1, int y, const uint8_t *rgb)
{
    int x;
    if (y < 0 || y >= im->h)
        return;
    for (x = x0 < 0 ? 0 : x0; x <= x1 && x < im->w; x++)
        memcpy(im->rgb + ((size_t)y * (size_t)im->w + (size_t)x) * 3, rgb, 3);
}

static void vline(KdImage *im, int x, int y0, int y1, const uint8_t *rgb)
{
    int y;
    if (x < 0 || x >= im->w)
        return;
    for (y = y0 < 0 ? 0 : y0; y <= y1 && y < im->h; y++)
        memcpy(im->rgb + ((size_t)y * (size_t)im->w + (size_t)x) * 3, rgb, 3);
}

void kd_boxes_draw(KdImage *im, const KdBox *b, int n)
{
    static const uint8_t pal[6][3] = {{255, 0, 0},   {0, 255, 0},   {0, 96, 255},
                                      {255, 255, 0}, {255, 0, 255}, {0, 255, 255}};
    int i, t, lw = im->w > 400 ? 3 : 1;
    for (i = 0; i < n; i++) {
        const uint8_t *rgb = pal[b[i].cls % 6];
        int x0 = (int)floorf(b[i].x0), y0 = (int)floorf(b[i].y0);
        int x1 = (int)floorf(b[i].x1), y1 = (int)floorf(b[i].y1);
        x1 = x1 >= im->w ? im->w - 1 : x1; /* a box up to the edge shows its far side */
        y1 = y1 >= im->h ? im->h - 1 : y1;
        for (t = 0; t < lw; t++) {
            hline(im, x0, x1, y0 + t, rgb);
            hline(im, x0, x1, y1 - t, rgb);
            vline(im, x0 + t, y0, y1, rgb);
            vline(im, x1 - t, y0, y1, rgb);
        }
    }
}
