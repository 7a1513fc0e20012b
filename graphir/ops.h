/*
 * The op table: every operator of the graph IR is defined here once.
 *
 * X(ENUM, "Name", min_inputs, max_inputs, summary)
 *
 *   ENUM        suffix of the enum constant GIR_OP_<ENUM>; shape rules
 *               (graphir/shape.c) and kernels (graphir/interp.c) are named
 *               after it, so a new row without both does not compile.
 *   "Name"      the ONNX op_type, also the name in the text IR.
 *   min/max     how many inputs a node may have (absent optional inputs in
 *               the middle count; trailing ones may be left off).
 *
 * Semantics are those of the newest ONNX opset listed in DESIGN.md (17); the
 * ONNX reader rewrites older forms (attributes that later became inputs, the
 * pre-13 Softmax, Upsample) into this form, so nothing downstream looks at
 * opset versions.
 */
#ifndef KILN_GRAPHIR_OPS_H
#define KILN_GRAPHIR_OPS_H

#define GIR_OPS(X)                                                                   \
    X(CONV, "Conv", 2, 3, "N-d convolution: groups, dilations, strides, pads")       \
    X(BATCHNORM, "BatchNormalization", 5, 5, "inference batch normalization")        \
    X(RELU, "Relu", 1, 1, "max(x, 0)")                                               \
    X(LEAKYRELU, "LeakyRelu", 1, 1, "x < 0 ? alpha * x : x")                         \
    X(CLIP, "Clip", 1, 3, "min(max(x, lo), hi); lo and hi are optional inputs")      \
    X(SIGMOID, "Sigmoid", 1, 1, "1 / (1 + exp(-x))")                                 \
    X(TANH, "Tanh", 1, 1, "hyperbolic tangent")                                      \
    X(SOFTMAX, "Softmax", 1, 1, "softmax along axis (coerce2d=1: pre-13 form)")      \
    X(MAXPOOL, "MaxPool", 1, 1, "N-d max pooling")                                   \
    X(AVGPOOL, "AveragePool", 1, 1, "N-d average pooling")                           \
    X(GLOBALAVGPOOL, "GlobalAveragePool", 1, 1, "mean over all spatial axes")        \
    X(ADD, "Add", 2, 2, "broadcasting a + b")                                        \
    X(SUB, "Sub", 2, 2, "broadcasting a - b")                                        \
    X(MUL, "Mul", 2, 2, "broadcasting a * b")                                        \
    X(DIV, "Div", 2, 2, "broadcasting a / b")                                        \
    X(CONCAT, "Concat", 1, 64, "join along axis")                                    \
    X(SPLIT, "Split", 1, 2, "cut along axis; sizes from the optional input")         \
    X(SLICE, "Slice", 3, 5, "starts, ends, axes, steps as inputs")                   \
    X(RESIZE, "Resize", 1, 4, "nearest or linear resize (roi, scales, sizes)")       \
    X(GEMM, "Gemm", 2, 3, "alpha * A' * B' + beta * C")                              \
    X(MATMUL, "MatMul", 2, 2, "numpy matmul with batch broadcasting")                \
    X(RESHAPE, "Reshape", 2, 2, "new shape from the second input (0 and -1 rules)")  \
    X(FLATTEN, "Flatten", 1, 1, "to 2-D around axis")                                \
    X(TRANSPOSE, "Transpose", 1, 1, "permute axes (perm, default reversed)")         \
    X(SQUEEZE, "Squeeze", 1, 2, "drop size-1 axes (axes as optional input)")         \
    X(UNSQUEEZE, "Unsqueeze", 2, 2, "insert size-1 axes (axes as input)")            \
    X(IDENTITY, "Identity", 1, 1, "copy")                                            \
    X(CONSTANT, "Constant", 0, 0, "the tensor in attribute value")                   \
    X(PAD, "Pad", 2, 3, "constant, reflect or edge padding (pads as input)")         \
    X(QLINEARCONV, "QLinearConv", 8, 9, "u8/i8 conv with zero points, float requant") \
    X(CONVINTEGER, "ConvInteger", 2, 4, "u8/i8 conv with zero points -> i32")       \
    X(MATMULINTEGER, "MatMulInteger", 2, 4, "u8/i8 matmul with zero points -> i32") \
    X(QLINEARMATMUL, "QLinearMatMul", 8, 8, "u8/i8 matmul, float requant")          \
    X(YOLO, "YoloHead", 1, 1, "Darknet [yolo] layer: logistic on x, y, obj, classes") \
    X(QUANTIZELINEAR, "QuantizeLinear", 2, 3, "x / scale + zero point, rounded, saturated") \
    X(DEQUANTIZELINEAR, "DequantizeLinear", 2, 3, "(x - zero point) * scale to f32")     \
    X(REQUANTIZE, "Requantize", 1, 1, "i8 -> i8 by rq_m, rq_shift (requant.h)")

/* The op kinds; GIR_OP_COUNT is not an op. */
typedef enum {
#define GIR_OP_ENUM(e, name, lo, hi, summary) GIR_OP_##e,
    GIR_OPS(GIR_OP_ENUM)
#undef GIR_OP_ENUM
    GIR_OP_COUNT
} GirOp;

#endif
