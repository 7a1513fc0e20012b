/*
 * image.c: pictures through stb_image (JPEG, PNG, ... read), stb_image_resize
 * (bilinear: the triangle filter on 0..255 values) and stb_image_write (PNG);
 * the model input made from a picture by the preprocessing kiln compile was
 * given (--mean, --std | --scale, --bgr, --nhwc, --alpha, --resize); boxes
 * drawn into a picture.
 */
#define _POSIX_C_SOURCE 200809L

#include "kiln_driver.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stb_image.h"
#include "stb_image_resize.h"
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

/* Picture scaled into an h x w canvas (stretched, or fitted and zero padded
 * on the bottom/right). */
static uint8_t *fit(const KdImage *im, int h, int w, char *err)
{
    uint8_t *canvas = calloc((size_t)h * (size_t)w, 3), *tmp = NULL;
    int nw = w, nh = h, y;
    if (!canvas) {
        snprintf(err, KD_ERR, "out of memory");
        return NULL;
    }
    if (kd_model.pre.pad) {
        double s = fmin((double)w / im->w, (double)h / im->h);
        nw = (int)floor(im->w * s + 0.5);
        nh = (int)floor(im->h * s + 0.5);
        nw = nw < 1 ? 1 : nw > w ? w : nw;
        nh = nh < 1 ? 1 : nh > h ? h : nh;
    }
    tmp = malloc((size_t)nw * (size_t)nh * 3);
    if (!tmp || !stbir_resize_uint8_generic(im->rgb, im->w, im->h, 0, tmp, nw, nh, 0, 3,
                                            STBIR_ALPHA_CHANNEL_NONE, 0, STBIR_EDGE_CLAMP,
                                            STBIR_FILTER_TRIANGLE, STBIR_COLORSPACE_LINEAR, NULL)) {
        snprintf(err, KD_ERR, "cannot resize the picture to %dx%d", nw, nh);
        free(tmp);
        free(canvas);
        return NULL;
    }
    for (y = 0; y < nh; y++)
        memcpy(canvas + (size_t)y * (size_t)w * 3, tmp + (size_t)y * (size_t)nw * 3,
               (size_t)nw * 3);
    free(tmp);
    return canvas;
}

int kd_preprocess(const KdImage *im, const KdTensorInfo *t, float *x, char *err)
{
    const KdPreproc *p = &kd_model.pre;
    int h, w, c, y, xx, k;
    uint8_t *canvas;
    if (input_hwc(t, &h, &w, &c, err) < 0 || !(canvas = fit(im, h, w, err)))
        return -1;
    for (y = 0; y < h; y++)
        for (xx = 0; xx < w; xx++)
            for (k = 0; k < c; k++) {
                const uint8_t *px = canvas + ((size_t)y * (size_t)w + (size_t)xx) * 3;
                float v = k == 3 ? 255.0f : (float)px[p->bgr ? 2 - k : k];
                size_t at = p->nhwc ? ((size_t)y * (size_t)w + (size_t)xx) * (size_t)c + (size_t)k
                                    : ((size_t)k * (size_t)h + (size_t)y) * (size_t)w + (size_t)xx;
                x[at] = (v - p->mean[k]) / p->div[k] * p->mul;
            }
    free(canvas);
    return 0;
}

int kd_image_write_png(const char *path, const KdImage *im, char *err)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld.png", path, (long)getpid());
    if (!stbi_write_png(tmp, im->w, im->h, 3, im->rgb, im->w * 3) || rename(tmp, path) != 0) {
        snprintf(err, KD_ERR, "%s: cannot write: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
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
        for (t = 0; t < lw; t++) {
            hline(im, x0, x1, y0 + t, rgb);
            hline(im, x0, x1, y1 - t, rgb);
            vline(im, x0 + t, y0, y1, rgb);
            vline(im, x1 - t, y0, y1, rgb);
        }
    }
}
