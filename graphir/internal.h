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
