/*
 * preproc.c: krt_preprocess (kiln_preproc.h), the one definition of how a
 * picture becomes a model input.  The resize is a plain bilinear with
 * half-pixel centres and clamped edges (what OpenCV's INTER_LINEAR
 * computes), columns first then rows, in double; no antialiasing filter.
 */
#include "kiln_preproc.h"

#include <math.h>
#include <stddef.h>

/* Output i of n samples input coordinate (i + 0.5) * in / n - 0.5, clamped
 * to [0, in - 1]: the two neighbours and the weight of the second. */
static void axis(int in, int n, int i, int *lo, int *hi, double *wt)
{
    double s = (i + 0.5) * in / n - 0.5;
    if (s < 0)
        s = 0;
    if (s > in - 1)
        s = in - 1;
    *lo = (int)floor(s);
    *hi = *lo + 1 < in ? *lo + 1 : *lo;
    *wt = s - *lo;
}

/* Pixel (x, y) channel k of the picture resized to rw x rh. */
static double resized(const uint8_t *rgb, int iw, int ih, int rw, int rh, int x, int y, int k)
{
    int xl, xh, yl, yh;
    double wx, wy, top, bot;
    const uint8_t *r0, *r1;
    axis(iw, rw, x, &xl, &xh, &wx);
    axis(ih, rh, y, &yl, &yh, &wy);
    r0 = rgb + (size_t)yl * (size_t)iw * 3;
    r1 = rgb + (size_t)yh * (size_t)iw * 3;
    top = r0[xl * 3 + k] * (1 - wx) + r0[xh * 3 + k] * wx;
    bot = r1[xl * 3 + k] * (1 - wx) + r1[xh * 3 + k] * wx;
    return top * (1 - wy) + bot * wy;
}

void krt_preprocess(const uint8_t *rgb, int iw, int ih, const KrtPreproc *p, int h, int w,
                    float *out)
{
    int c = p->alpha ? 4 : 3, rw = w, rh = h, x, y, k;
    if (p->pad) {
        double s = fmin((double)w / iw, (double)h / ih);
        rw = (int)fmin((double)w, fmax(1, floor(iw * s + 0.5)));
        rh = (int)fmin((double)h, fmax(1, floor(ih * s + 0.5)));
    }
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            for (k = 0; k < c; k++) {
                double v;
                size_t at;
                if (k == 3)
                    v = 255;
                else if (y < rh && x < rw)
                    v = resized(rgb, iw, ih, rw, rh, x, y, p->bgr ? 2 - k : k);
                else
                    v = 0;
                v = p->scale != 0 ? (v - p->mean[k]) * p->scale : (v - p->mean[k]) / p->std[k];
                at = p->nhwc ? ((size_t)y * (size_t)w + (size_t)x) * (size_t)c + (size_t)k
                             : ((size_t)k * (size_t)h + (size_t)y) * (size_t)w + (size_t)x;
                out[at] = (float)v;
            }
}
