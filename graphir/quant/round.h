/*
 * Private to graphir/quant/: learned rounding of a Conv's or Gemm's int8
 * weights (round.c), called by the quantizer (quantize.c) as it emits each
 * such node.
 */
#ifndef KILN_GRAPHIR_QUANT_ROUND_H
#define KILN_GRAPHIR_QUANT_ROUND_H

#include "graphir/graphir.h"

typedef struct GirRounder GirRounder;

/* A rounder for fp32 graph g (one input) on ro's calibration inputs; both
 * must outlive it. */
GirRounder *gir_rounder_new(const GirGraph *g, GirRoundOpts *ro);
void gir_rounder_free(GirRounder *r);

/* One Conv / Gemm / MatMul as the quantizer is about to emit it. */
typedef struct {
    int node;          /* its id in g */
    int xq;            /* value id in q of its int8 data input (already in q) */
    float sx;          /* that input's scale */
    int zx;            /* and zero point (0, or -128 unsigned) */
    const float *w;    /* g's fp32 weights (what the target is computed with) */
    const float *wd;   /* the weights as quantized (w, or w with the input's channel
                        * scales folded in); qw ~ wd / sw */
    int8_t *qw;        /* the int8 weights, nearest on entry; moved in place */
    const float *sw;   /* per output channel weight scale */
    int64_t nch, per;  /* output channels, weights per channel */
    int64_t sc, sk;    /* weight k of channel c at [c * sc + k * sk] */
    double *bias;      /* out, nch entries: the mean remaining error of each
                        * channel (real units), for the bias to absorb */
    double mse_nearest; /* out: mean squared error per output element, nearest */
    double mse_learned; /* out: the same, learned */
    int64_t moved;     /* out: weights moved off nearest */
    int64_t kept;      /* out: channels the check inputs kept nearest (ro->check) */
} GirRoundLayer;

/* Choose each weight of L between floor and ceil of wd / sw (within
 * +-127) to minimize the layer's output error before its activation:
 * q's int8 input (q is the graph built so far, through L->xq) against
 * g's fp32 output, on sampled output positions of every calibration input.
 * 1 when done (L->qw moved, L->bias set), 0 when the layer is not
 * handled (left nearest), -1 + error when running a graph fails. */
int gir_rounder_layer(GirRounder *r, const GirGraph *q, GirRoundLayer *L, GirError *e);

#endif
