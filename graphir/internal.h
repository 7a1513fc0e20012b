/*
 * Private declarations shared by the files of graphir/ that define what an
 * op means: its shape rule, its kernels, and the helpers they share.  Not
 * part of the public interface (graphir.h); nothing outside graphir/
 * includes this.
 */
#ifndef KILN_GRAPHIR_INTERNAL_H
#define KILN_GRAPHIR_INTERNAL_H

#include "graphir.h"

/* The signature of a shape rule and of a kernel, as in shape.c and interp.c:
 * ins[i] is input i (NULL when absent), outs[] the outputs. */
typedef int GirShapeFn(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                       GirError *e);
typedef int GirEvalFn(const GirNode *n, const GirTensor *const *ins, GirTensor *const *outs,
                      GirError *e);

/*
 * The files that define the ops' meaning, in dependency order (each calls
 * only files above it; docs/ir.md says why):
 *   oputil.c       node errors, index arithmetic, window geometry, requantize
 *                  attributes
 *   layout.c       what layout="NHWC" means: the permutation, the data transpose
 *   shape.c        every shape rule, quantized ops, int8 form and NHWC included
 *   qonnx.c        kernels of ONNX's quantized ops (QLinearConv, ...)
 *   interp_int8.c  kernels of the int8 form and of the quantize ops
 *   interp.c       fp32 kernels, the choice of kernel per node, gir_run
 */

/* ---- oputil.c ---------------------------------------------------------------- */

/* The error of a shape rule or kernel: names the node (by its source
 * location, or by its name when the graph was built without one) and the
 * op, then the message.  Always returns -1. */
int gir_node_fail(const GirNode *n, GirError *e, const char *fmt, ...) GIR_PRINTF(3, 4);

/* Product of d[lo..hi). */
int64_t gir_dims_prod(const int64_t *d, int lo, int hi);
/* Advance a row-major index over dims[0..r); returns 0 after the last. */
int gir_next_index(int64_t *idx, const int64_t *dims, int r);

/* GirWindow, gir_window, gir_convt_window: graphir.h (llvm/ reads them too). */

/* NonMaxSuppression over boxes [B, N, 4] and scores [B, C, N] (f32): per
 * batch and class, the boxes scoring above sthr, best first (ties: lower
 * index), each kept unless its IoU with a kept one exceeds iou, at most
 * max_out per class.  center: boxes are [xc, yc, w, h], else two corners in
 * either order.  Writes (batch, class, box) triples to out when it is not
 * NULL; returns how many there are. */
int64_t gir_nms(const float *boxes, const float *scores, int64_t B, int64_t C, int64_t N,
                int64_t max_out, float iou, float sthr, int center, int64_t *out);

/* An ints attribute of exactly count entries (count < 0: any), each in
 * [lo, hi].  Absent: *out = NULL, and an error unless optional. */
int gir_rq_attr(const GirNode *n, const char *name, int64_t count, int64_t lo, int64_t hi,
                int optional, const int64_t **out, GirError *e);

/* The requantize attributes of a per-channel node (Conv, Gemm, MatMul):
 * rq_m_pos, rq_m_neg, rq_shift with count entries, and the optional fused
 * Clip bounds act_min, act_max. */
typedef struct {
    const int64_t *m_pos; /* multiplier for acc >= 0, per channel */
    const int64_t *m_neg; /* multiplier for acc < 0, per channel */
    const int64_t *shift; /* rounding right shift, per channel */
    int8_t lo;            /* saturation floor (act_min, default -128) */
    int8_t hi;            /* saturation ceiling (act_max, default 127) */
} GirChanRq;

/* Read and check them into rq; 0, or -1 + error naming the node. */
int gir_chan_rq(const GirNode *n, int64_t count, GirChanRq *rq, GirError *e);

/* ---- layout.c: layout="NHWC" nodes ---------------------------------------------- */

/* The type with its dims moved from NHWC to NCHW order (to_nchw) or back;
 * types of another rank unchanged. */
GirType gir_nhwc_type(const GirType *t, int to_nchw);
/* A shallow copy of n without its layout attribute; the caller frees attrs. */
GirNode gir_nhwc_strip(const GirNode *n);
/* dst = src with its axes permuted; to_nchw reads NHWC src dims [N,H,W,C]. */
void gir_nhwc_transpose(const GirTensor *src, GirTensor *dst, int to_nchw);

/* ---- shape.c ------------------------------------------------------------------- */

/* True when node n with inputs ins runs in the int8 form: Conv, Gemm,
 * MatMul, AveragePool, GlobalAveragePool and Resize with an i8 first input,
 * Add on i8 with requantize attributes.  Other ops on i8 (MaxPool, Concat,
 * Reshape, ...) are plain data movement and keep their own rules. */
int gir_int8_node(const GirNode *n, const GirTensor *const *ins);

/* ---- interp_int8.c ------------------------------------------------------------- */

/* Kernels of QuantizeLinear, DequantizeLinear, Requantize. */
GirEvalFn gir_eval_quantizelinear;
GirEvalFn gir_eval_dequantizelinear;
GirEvalFn gir_eval_requantize;
/* Kernel of LutI8: y = lut[x + 128]. */
GirEvalFn gir_eval_luti8;
/* Kernel of an int8-form node: integer arithmetic and requant.h only. */
GirEvalFn gir_eval_int8;

#endif
