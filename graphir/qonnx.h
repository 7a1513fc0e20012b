/*
 * Private to graphir/: shape rules and kernels of ONNX's own quantized ops
 * (QLinearConv, ConvInteger, MatMulInteger, QLinearMatMul), defined in
 * qonnx.c.  These ops keep ONNX semantics (u8 or i8 data with zero points,
 * float scales) so that pre-quantized models run as they are; the QDQ folder
 * maps them onto kiln's own int8 form where the scheme fits.
 *
 * The op tables of shape.c and interp.c name their entries shape_<OP> and
 * eval_<OP>; the aliases below let those tables pick these up.
 */
#ifndef KILN_GRAPHIR_QONNX_H
#define KILN_GRAPHIR_QONNX_H

#include "graphir.h"

int gir_qonnx_shape_qlinearconv(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                                GirError *e);
int gir_qonnx_shape_convinteger(const GirNode *n, const GirTensor *const *ins, GirType *outs,
                                GirError *e);
int gir_qonnx_shape_matmulinteger(const GirNode *n, const GirTensor *const *ins,
                                  GirType *outs, GirError *e);
int gir_qonnx_shape_qlinearmatmul(const GirNode *n, const GirTensor *const *ins,
                                  GirType *outs, GirError *e);

int gir_qonnx_eval_qlinearconv(const GirNode *n, const GirTensor *const *ins,
                               GirTensor *const *outs, GirError *e);
int gir_qonnx_eval_convinteger(const GirNode *n, const GirTensor *const *ins,
                               GirTensor *const *outs, GirError *e);
int gir_qonnx_eval_matmulinteger(const GirNode *n, const GirTensor *const *ins,
                                 GirTensor *const *outs, GirError *e);
int gir_qonnx_eval_qlinearmatmul(const GirNode *n, const GirTensor *const *ins,
                                 GirTensor *const *outs, GirError *e);

#define shape_QLINEARCONV gir_qonnx_shape_qlinearconv
#define shape_CONVINTEGER gir_qonnx_shape_convinteger
#define shape_MATMULINTEGER gir_qonnx_shape_matmulinteger
#define shape_QLINEARMATMUL gir_qonnx_shape_qlinearmatmul
#define eval_QLINEARCONV gir_qonnx_eval_qlinearconv
#define eval_CONVINTEGER gir_qonnx_eval_convinteger
#define eval_MATMULINTEGER gir_qonnx_eval_matmulinteger
#define eval_QLINEARMATMUL gir_qonnx_eval_qlinearmatmul

#endif
