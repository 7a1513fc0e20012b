/*
 * Private declarations shared by the files of graphir/: shape rules and
 * kernels that live outside shape.c and interp.c.  Not part of the public
 * interface (graphir.h); nothing outside graphir/ includes this.
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

/* The error of a shape rule or kernel: names the node (by its source
 * location, or by its name when the graph was built without one) and the
 * op, then the message.  Always returns -1 (error.c). */
int gir_node_fail(const GirNode *n, GirError *e, const char *fmt, ...) GIR_PRINTF(3, 4);

/* ---- kernel helpers (interp.c) ----------------------------------------------- */

/* Product of d[lo..hi). */
int64_t gir_dims_prod(const int64_t *d, int lo, int hi);
/* Advance a row-major index over dims[0..r); returns 0 after the last. */
int gir_next_index(int64_t *idx, const int64_t *dims, int r);

/* Sliding-window geometry of Conv and the pools, per spatial axis. */
typedef struct {
    int nsp;                  /* spatial axes */
    int64_t in[GIR_MAX_RANK]; /* input extent */
    int64_t out[GIR_MAX_RANK]; /* output extent */
    int64_t k[GIR_MAX_RANK];  /* kernel extent */
    int64_t s[GIR_MAX_RANK];  /* stride */
    int64_t d[GIR_MAX_RANK];  /* dilation */
    int64_t pb[GIR_MAX_RANK]; /* padding before */
    int64_t pe[GIR_MAX_RANK]; /* padding after */
} GirWindow;

/* Fill g from n's attributes and the shapes its shape rule already checked
 * (x input, y output, k kernel extents); auto_pad SAME splits its padding
 * with the odd element at the end (UPPER) or at the start (LOWER). */
void gir_window(const GirNode *n, const GirType *x, const GirType *y, const int64_t *k,
                GirWindow *g);

/* ---- QuantizeLinear, DequantizeLinear, Requantize (interp_int8.c) ---------- */

GirShapeFn gir_shape_quantizelinear;
GirShapeFn gir_shape_dequantizelinear;
GirShapeFn gir_shape_requantize;
GirEvalFn gir_eval_quantizelinear;
GirEvalFn gir_eval_dequantizelinear;
GirEvalFn gir_eval_requantize;

/* ---- ops of the int8 form (docs/quant.md) ------------------------------------ */

/* True when node n with inputs ins runs in the int8 form: Conv, Gemm,
 * MatMul, AveragePool, GlobalAveragePool and Resize with an i8 first input,
 * Add on i8 with requantize attributes.  Other ops on i8 (MaxPool, Concat,
 * Reshape, ...) are plain data movement and keep their own rules. */
int gir_int8_node(const GirNode *n, const GirTensor *const *ins);
/* Shape rule of an int8-form node: the fp32 rule on the same shapes, then
 * the int8 operand checks; the output is i8. */
GirShapeFn gir_shape_int8;
/* Kernel of an int8-form node: integer arithmetic and requant.h only. */
GirEvalFn gir_eval_int8;

#endif
