/*
 * kiln_preproc.h: a picture into a model input, defined once.  Both kiln's
 * own commands (kiln run / quantize / compile -i photo.jpg, tools/kiln/
 * image.c) and the generated driver's kiln-infer compile preproc.c, so the
 * same picture gives the same input bytes in both (docs/inputs.md states
 * the arithmetic).  C11, no code of the compiler, nothing allocated, the
 * same results on x86-64 and aarch64 (double arithmetic, no contraction).
 */
#ifndef KILN_PREPROC_H
#define KILN_PREPROC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The preprocessing flags (--mean, --std | --scale, --bgr, --nhwc, --alpha,
 * --resize). */
typedef struct KrtPreproc {
    double mean[4]; /* subtracted from 0..255 values, per model channel (R, G, B[, A]) */
    double std[4];  /* divided after the mean, when scale is 0 */
    double scale;   /* multiplied after the mean instead of std; 0: not given */
    int bgr;        /* 1: model channel 0 is blue */
    int nhwc;       /* 1: the input is [1, H, W, C], else [1, C, H, W] */
    int alpha;      /* 1: a fourth channel of 255 */
    int pad;        /* 1: keep the aspect ratio, zero-pad bottom/right; 0: stretch */
} KrtPreproc;

/* The model input (c = 3, or 4 with alpha; h x w; NCHW or NHWC by p) of
 * an 8-bit RGB picture rgb (iw x ih, rows top first): a bilinear resize
 * with half-pixel centres and clamped edges on the 0..255 values (to h x w,
 * or with pad to the largest size of the picture's aspect ratio that fits,
 * placed top-left, zeros beyond), then x = (v - mean) / std, or
 * (v - mean) * scale, rounded once to float.  out holds c * h * w floats. */
void krt_preprocess(const uint8_t *rgb, int iw, int ih, const KrtPreproc *p, int h, int w,
                    float *out);

#ifdef __cplusplus
}
#endif

#endif
