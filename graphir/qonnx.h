/*
 * Private to graphir/: kernels of ONNX's own quantized ops (QLinearConv,
 * ConvInteger, MatMulInteger, QLinearMatMul), defined in qonnx.c; their
 * shape rules are in shape.c with every other rule.  These ops keep ONNX
 * semantics (u8 or i8 data with zero points, float scales) so that
 * pre-quantized models run as they are; the QDQ folder maps them onto
 * kiln's own int8 form where the scheme fits.
 *
 * The op table of interp.c names its entries eval_<OP>; the aliases below
 * let it pick these up.
 */
#ifndef KILN_GRAPHIR_QONNX_H
#define KILN_GRAPHIR_QONNX_H

#include "graphir.h"

int gir_qonnx_eval_qlinearconv(const GirNode *n, const GirTensor *const *ins,
                               GirTensor *const *outs, GirError *e);
int gir_qonnx_eval_convinteger(const GirNode *n, const GirTensor *const *ins,
                               GirTensor *const *outs, GirError *e);
int gir_qonnx_eval_matmulinteger(const GirNode *n, const GirTensor *const *ins,
                                 GirTensor *const *outs, GirError *e);
int gir_qonnx_eval_qlinearmatmul(const GirNode *n, const GirTensor *const *ins,
                                 GirTensor *const *outs, GirError *e);

#define eval_QLINEARCONV gir_qonnx_eval_qlinearconv
#define eval_CONVINTEGER gir_qonnx_eval_convinteger
#define eval_MATMULINTEGER gir_qonnx_eval_matmulinteger
#define eval_QLINEARMATMUL gir_qonnx_eval_qlinearmatmul

#endif
