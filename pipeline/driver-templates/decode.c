/*
 * decode.c: detector heads to boxes.  YOLOv3 heads ([1, A*(5+C), H, W] per
 * output, anchors in input pixels): x = (col + sigmoid(tx)) / W, w = anchor
 * * exp(tw) / input width, score = sigmoid(obj) * sigmoid(class).  Region
 * heads (YOLOv2, anchors in grid cells): w = anchor * exp(tw) / W, classes
 * through softmax (one class: 1; no class entries, --classes 0: the score is
 * the objectness).  Boxes scoring the threshold or less are dropped, then
 * per class NMS (a box overlapping a better one more than the IoU threshold
 * goes).  exp is computed here with plain arithmetic
 * (no libm), so an x86-64 and an aarch64 build give the same boxes.
 */
#define _POSIX_C_SOURCE 200809L

#include "kiln_driver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* e^x for |x| < 700: x = k ln2 + r, |r| <= ln2/2, Taylor series of e^r to
 * degree 16 (error below 1 ulp of a double), scaled by 2^k exactly. */
static double dexp(double x)
{
    static const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    double k, r, s = 1.0, term = 1.0;
    int i;
    if (x > 700.0)
        x = 700.0;
    if (x < -700.0)
        x = -700.0;
    k = floor(x / 6.93147180559945309417e-01 + 0.5);
    r = (x - k * ln2_hi) - k * ln2_lo;
    for (i = 1; i <= 16; i++) {
        term = term * r / i;
        s += term;
    }
    return ldexp(s, (int)k);
}

static double sig(double x)
{
    return 1.0 / (1.0 + dexp(-x));
}

/* What one output contributes. */
typedef struct {
    const float *x;       /* the tensor */
    int a, h, w;          /* anchors, grid height and width */
    const float *anchors; /* W,H pairs */
} Head;

/* Candidates above the threshold of one head appended to *v. */
static int head_boxes(const Head *hd, int in_w, int in_h, KdBox **v, int *n, int *cap, char *err)
{
    const KdDetect *d = &kd_model.det;
    int per = 5 + d->classes, a, y, x, c;
    size_t plane = (size_t)hd->h * (size_t)hd->w;
    int region = d->kind == KD_DETECT_REGION, act = d->activated;
    for (a = 0; a < hd->a; a++)
        for (y = 0; y < hd->h; y++)
            for (x = 0; x < hd->w; x++) {
                const float *t = hd->x + (size_t)a * (size_t)per * plane + (size_t)y * hd->w + x;
                double obj = act ? t[4 * plane] : sig(t[4 * plane]), best = -1, sum = 0, cx, cy,
                       bw, bh, m = -1e300;
                int bc = 0;
                if (!(obj > d->score_threshold))
                    continue;
                for (c = 0; c < d->classes; c++)
                    if (t[(size_t)(5 + c) * plane] > m)
                        m = t[(size_t)(5 + c) * plane];
                for (c = 0; c < d->classes; c++) {
                    double p = region ? dexp(t[(size_t)(5 + c) * plane] - m)
                                      : act ? t[(size_t)(5 + c) * plane]
                                            : sig(t[(size_t)(5 + c) * plane]);
                    sum += p;
                    if (p > best) {
                        best = p;
                        bc = c;
                    }
                }
                if (region)
                    best /= sum;
                if (d->classes == 0)
                    best = 1.0; /* one class, no class entries: the score is obj */
                if (!(obj * best > d->score_threshold))
                    continue;
                cx = (x + (act ? t[0] : sig(t[0]))) / hd->w;
                cy = (y + (act ? t[plane] : sig(t[plane]))) / hd->h;
                bw = hd->anchors[2 * a] * dexp(t[2 * plane]) / (region ? hd->w : in_w);
                bh = hd->anchors[2 * a + 1] * dexp(t[3 * plane]) / (region ? hd->h : in_h);
                if (*n == *cap) {
                    KdBox *nv = realloc(*v, sizeof **v * (size_t)(*cap = *cap ? *cap * 2 : 64));
                    if (!nv) {
                        snprintf(err, KD_ERR, "out of memory");
                        return -1;
                    }
                    *v = nv;
                }
                (*v)[(*n)++] = (KdBox){(float)(cx - bw / 2), (float)(cy - bh / 2),
                                       (float)(cx + bw / 2), (float)(cy + bh / 2),
                                       (float)(obj * best), bc};
            }
    return 0;
}

static int by_score(const void *pa, const void *pb)
{
    const KdBox *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    if (a->cls != b->cls)
        return a->cls < b->cls ? -1 : 1;
    if (a->y0 != b->y0)
        return a->y0 < b->y0 ? -1 : 1;
    return a->x0 < b->x0 ? -1 : a->x0 > b->x0;
}

static double iou(const KdBox *a, const KdBox *b)
{
    double iw = fmin(a->x1, b->x1) - fmax(a->x0, b->x0);
    double ih = fmin(a->y1, b->y1) - fmax(a->y0, b->y0);
    double inter, uni;
    if (iw <= 0 || ih <= 0)
        return 0;
    inter = iw * ih;
    uni = (double)(a->x1 - a->x0) * (a->y1 - a->y0) + (double)(b->x1 - b->x0) * (b->y1 - b->y0) -
          inter;
    return uni > 0 ? inter / uni : 0;
}

/* Sort best first, keep a box unless a kept one of its class overlaps it more
 * than the IoU threshold. */
static int nms(KdBox *v, int n)
{
    int i, j, k = 0;
    qsort(v, (size_t)n, sizeof *v, by_score);
    for (i = 0; i < n; i++) {
        int keep = 1;
        for (j = 0; j < k && keep; j++)
            keep = v[j].cls != v[i].cls || iou(&v[j], &v[i]) <= kd_model.det.iou_threshold;
        if (keep)
            v[k++] = v[i];
    }
    return k;
}

/* Boxes from [0,1] of the model input to the picture's pixels, undoing the
 * resize (stretch, or fit with padding on the bottom/right). */
static void to_picture(KdBox *v, int n, int in_w, int in_h, int img_w, int img_h)
{
    double sx = img_w, sy = img_h;
    int i;
    if (kd_model.pre.pad) { /* the picture covers round(its size * s) of the input */
        double s = fmin((double)in_w / img_w, (double)in_h / img_h);
        sx = (double)in_w * img_w / floor(img_w * s + 0.5);
        sy = (double)in_h * img_h / floor(img_h * s + 0.5);
    }
    for (i = 0; i < n; i++) {
        v[i].x0 = (float)fmin(fmax(v[i].x0 * sx, 0), img_w);
        v[i].x1 = (float)fmin(fmax(v[i].x1 * sx, 0), img_w);
        v[i].y0 = (float)fmin(fmax(v[i].y0 * sy, 0), img_h);
        v[i].y1 = (float)fmin(fmax(v[i].y1 * sy, 0), img_h);
    }
}

/* The model input's width and height. */
static void input_wh(int *w, int *h)
{
    const KdTensorInfo *t = &kd_model.in[0];
    *w = t->rank == 4 ? (int)(kd_model.pre.nhwc ? t->dims[2] : t->dims[3]) : 1;
    *h = t->rank == 4 ? (int)(kd_model.pre.nhwc ? t->dims[1] : t->dims[2]) : 1;
}

int kd_decode(const float *const *outs, const KdTensorInfo *shapes, int nout, int img_w,
              int img_h, KdBox **boxes, int *n, char *err)
{
    const KdDetect *d = &kd_model.det;
    int o, cap = 0, in_w, in_h;
    *boxes = NULL;
    *n = 0;
    input_wh(&in_w, &in_h);
    for (o = 0; o < nout; o++) {
        const KdTensorInfo *t = &shapes[o];
        Head hd = {outs[o], d->nanchors[o], 0, 0, d->anchors[o]};
        if (t->rank != 4 || t->dims[0] != 1 || t->dims[1] != (int64_t)hd.a * (5 + d->classes)) {
            snprintf(err, KD_ERR, "output %d ('%s'): expected [1, %d, H, W] (%d anchors x (5 + "
                     "%d classes))", o, t->name, hd.a * (5 + d->classes), hd.a, d->classes);
            free(*boxes);
            return -1;
        }
        hd.h = (int)t->dims[2];
        hd.w = (int)t->dims[3];
        if (head_boxes(&hd, in_w, in_h, boxes, n, &cap, err) < 0) {
            free(*boxes);
            return -1;
        }
    }
    *n = nms(*boxes, *n);
    to_picture(*boxes, *n, in_w, in_h, img_w ? img_w : in_w, img_h ? img_h : in_h);
    return 0;
}

int kd_boxes_json(const char *path, const KdBox *b, int n, char *err)
{
    char tmp[4096];
    FILE *f = kd_create(path, tmp, err);
    int i;
    if (!f)
        return -1;
    fprintf(f, "{\"model\": \"%s\", \"detections\": [", kd_model.name);
    for (i = 0; i < n; i++)
        fprintf(f, "%s\n  {\"x0\": %.2f, \"y0\": %.2f, \"x1\": %.2f, \"y1\": %.2f, "
                "\"score\": %.4f, \"class\": %d}", i ? "," : "", b[i].x0, b[i].y0, b[i].x1,
                b[i].y1, b[i].score, b[i].cls);
    fprintf(f, "%s]}\n", n ? "\n" : "");
    return kd_commit(f, tmp, path, 1, err);
}
