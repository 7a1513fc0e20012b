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
    X(REQUANTIZE, "Requantize", 1, 1, "i8 -> i8 by rq_m, rq_shift (requant.h)")     \
    X(LUTI8, "LutI8", 1, 1, "i8 -> i8 by a 256-entry table: y = lut[x + 128]")       \
    X(ABS, "Abs", 1, 1, "|x|")                                                       \
    X(NEG, "Neg", 1, 1, "-x")                                                        \
    X(EXP, "Exp", 1, 1, "e^x")                                                       \
    X(LOG, "Log", 1, 1, "natural logarithm")                                         \
    X(SQRT, "Sqrt", 1, 1, "square root")                                             \
    X(RECIPROCAL, "Reciprocal", 1, 1, "1 / x")                                       \
    X(FLOOR, "Floor", 1, 1, "round down")                                            \
    X(CEIL, "Ceil", 1, 1, "round up")                                                \
    X(ROUND, "Round", 1, 1, "round half to even")                                    \
    X(SIGN, "Sign", 1, 1, "-1, 0 or 1")                                              \
    X(ERF, "Erf", 1, 1, "Gauss error function")                                      \
    X(SIN, "Sin", 1, 1, "sine")                                                      \
    X(COS, "Cos", 1, 1, "cosine")                                                    \
    X(TAN, "Tan", 1, 1, "tangent")                                                   \
    X(ASIN, "Asin", 1, 1, "arcsine")                                                 \
    X(ACOS, "Acos", 1, 1, "arccosine")                                               \
    X(ATAN, "Atan", 1, 1, "arctangent")                                              \
    X(SINH, "Sinh", 1, 1, "hyperbolic sine")                                         \
    X(COSH, "Cosh", 1, 1, "hyperbolic cosine")                                       \
    X(ASINH, "Asinh", 1, 1, "inverse hyperbolic sine")                               \
    X(ACOSH, "Acosh", 1, 1, "inverse hyperbolic cosine")                             \
    X(ATANH, "Atanh", 1, 1, "inverse hyperbolic tangent")                            \
    X(SOFTPLUS, "Softplus", 1, 1, "log(1 + e^x)")                                    \
    X(SOFTSIGN, "Softsign", 1, 1, "x / (1 + |x|)")                                   \
    X(ELU, "Elu", 1, 1, "x < 0 ? alpha * (e^x - 1) : x")                             \
    X(SELU, "Selu", 1, 1, "gamma * (x <= 0 ? alpha * (e^x - 1) : x)")                \
    X(CELU, "Celu", 1, 1, "max(0, x) + min(0, alpha * (e^(x / alpha) - 1))")         \
    X(HARDSIGMOID, "HardSigmoid", 1, 1, "max(0, min(1, alpha * x + beta))")          \
    X(HARDSWISH, "HardSwish", 1, 1, "x * max(0, min(1, x / 6 + 1 / 2))")             \
    X(THRESHOLDEDRELU, "ThresholdedRelu", 1, 1, "x > alpha ? x : 0")                 \
    X(SHRINK, "Shrink", 1, 1, "x < -lambd ? x + bias : x > lambd ? x - bias : 0")    \
    X(NOT, "Not", 1, 1, "logical not of bool")                                       \
    X(ISNAN, "IsNaN", 1, 1, "x is NaN, as bool")                                     \
    X(ISINF, "IsInf", 1, 1, "x is infinite (detect_negative, detect_positive)")      \
    X(POW, "Pow", 2, 2, "broadcasting a ^ b; b may have another element type")       \
    X(MOD, "Mod", 2, 2, "broadcasting remainder (fmod=1: sign of a, else of b)")     \
    X(EQUAL, "Equal", 2, 2, "broadcasting a == b, as bool")                          \
    X(GREATER, "Greater", 2, 2, "broadcasting a > b, as bool")                       \
    X(LESS, "Less", 2, 2, "broadcasting a < b, as bool")                             \
    X(GREATEROREQUAL, "GreaterOrEqual", 2, 2, "broadcasting a >= b, as bool")        \
    X(LESSOREQUAL, "LessOrEqual", 2, 2, "broadcasting a <= b, as bool")              \
    X(AND, "And", 2, 2, "broadcasting logical and of bools")                         \
    X(OR, "Or", 2, 2, "broadcasting logical or of bools")                            \
    X(XOR, "Xor", 2, 2, "broadcasting logical xor of bools")                         \
    X(BITSHIFT, "BitShift", 2, 2, "broadcasting unsigned shift (direction)")         \
    X(PRELU, "PRelu", 2, 2, "x < 0 ? slope * x : x, slope broadcast to x")           \
    X(MAX, "Max", 1, 64, "broadcasting elementwise maximum")                         \
    X(MIN, "Min", 1, 64, "broadcasting elementwise minimum")                         \
    X(SUM, "Sum", 1, 64, "broadcasting elementwise sum")                             \
    X(MEAN, "Mean", 1, 64, "broadcasting elementwise mean")                          \
    X(REDUCEMEAN, "ReduceMean", 1, 2, "mean over axes (input; keepdims)")            \
    X(REDUCEMAX, "ReduceMax", 1, 2, "maximum over axes")                             \
    X(REDUCEMIN, "ReduceMin", 1, 2, "minimum over axes")                             \
    X(REDUCESUM, "ReduceSum", 1, 2, "sum over axes")                                 \
    X(REDUCEPROD, "ReduceProd", 1, 2, "product over axes")                           \
    X(REDUCEL1, "ReduceL1", 1, 2, "sum of |x| over axes")                            \
    X(REDUCEL2, "ReduceL2", 1, 2, "sqrt of the sum of x^2 over axes")                \
    X(REDUCELOGSUM, "ReduceLogSum", 1, 2, "log of the sum over axes")                \
    X(REDUCELOGSUMEXP, "ReduceLogSumExp", 1, 2, "log of the sum of e^x over axes")   \
    X(REDUCESUMSQUARE, "ReduceSumSquare", 1, 2, "sum of x^2 over axes")              \
    X(ARGMAX, "ArgMax", 1, 1, "i64 index of the maximum along axis")                 \
    X(ARGMIN, "ArgMin", 1, 1, "i64 index of the minimum along axis")                 \
    X(LOGSOFTMAX, "LogSoftmax", 1, 1, "log of softmax along axis")                   \
    X(HARDMAX, "Hardmax", 1, 1, "1 at the first maximum along axis, else 0")         \
    X(CUMSUM, "CumSum", 2, 2, "running sum along the axis input (exclusive, reverse)") \
    X(CAST, "Cast", 1, 1, "convert to element type attribute to")                    \
    X(CASTLIKE, "CastLike", 2, 2, "convert to the element type of input 1")          \
    X(SHAPE, "Shape", 1, 1, "the dims as i64 (start, end)")                          \
    X(SIZE, "Size", 1, 1, "the element count as an i64 scalar")                      \
    X(CONSTANTOFSHAPE, "ConstantOfShape", 1, 1, "tensor of the shape input filled with value") \
    X(RANGE, "Range", 3, 3, "start, start + delta, ... below limit")                 \
    X(EXPAND, "Expand", 2, 2, "broadcast to the shape input")                        \
    X(TILE, "Tile", 2, 2, "repeat along each axis by the repeats input")             \
    X(WHERE, "Where", 3, 3, "broadcasting cond ? a : b")                             \
    X(GATHER, "Gather", 2, 2, "take entries of axis by an index tensor")             \
    X(GATHERELEMENTS, "GatherElements", 2, 2, "take along axis elementwise by index") \
    X(TRILU, "Trilu", 1, 2, "keep the upper or lower triangle (k as input)")         \
    X(LAYERNORM, "LayerNormalization", 2, 3, "normalize over axes from axis on; mean, inv std") \
    X(INSTANCENORM, "InstanceNormalization", 3, 3, "normalize each (n, c) plane")    \
    X(LRN, "LRN", 1, 1, "local response normalization across channels")              \
    X(DEPTHTOSPACE, "DepthToSpace", 1, 1, "channels to blocks of space (DCR, CRD)")  \
    X(SPACETODEPTH, "SpaceToDepth", 1, 1, "blocks of space to channels")             \
    X(GLOBALMAXPOOL, "GlobalMaxPool", 1, 1, "maximum over all spatial axes")            \
    X(CONVTRANSPOSE, "ConvTranspose", 2, 3, "transposed N-d convolution (output_shape, output_padding)") \
    X(TOPK, "TopK", 2, 2, "K largest or smallest along axis: values, i64 indices")    \
    X(GATHERND, "GatherND", 2, 2, "take slices by index tuples (batch_dims)")             \
    X(SCATTERELEMENTS, "ScatterElements", 3, 3, "data with updates put along axis by index (reduction)") \
    X(SCATTERND, "ScatterND", 3, 3, "data with slices put by index tuples (reduction)")   \
    X(ONEHOT, "OneHot", 3, 3, "indices to on/off values along a new axis of depth")      \
    X(EYELIKE, "EyeLike", 1, 1, "ones on diagonal k of a 2-D tensor shaped as the input") \
    X(NONZERO, "NonZero", 1, 1, "i64 [rank, count] coordinates of the nonzero elements") \
    X(NMS, "NonMaxSuppression", 2, 5, "i64 [n, 3] (batch, class, box) kept by score and IoU") \
    X(REVERSESEQUENCE, "ReverseSequence", 2, 2, "reverse each batch entry's first lens steps along time_axis") \
    X(DET, "Det", 1, 1, "determinant of the trailing square matrices")                 \
    X(DYNQUANT, "DynamicQuantizeLinear", 1, 1, "f32 -> u8 with scale and zero point from its range") \
    X(MAXUNPOOL, "MaxUnpool", 2, 3, "scatter pooled values back by MaxPool's indices")  \
    X(COMPRESS, "Compress", 2, 2, "keep the slices where condition is true (axis; none: flat)") \
    X(MVN, "MeanVarianceNormalization", 1, 1, "(x - mean) / std over axes")              \
    X(GRIDSAMPLE, "GridSample", 2, 2, "sample [N,C,H,W] at grid [N,h,w,2] (mode, padding_mode)") \
    X(EINSUM, "Einsum", 1, 8, "sum of products over an equation's subscripts")           \
    X(ROIALIGN, "RoiAlign", 3, 3, "average (or max) of bilinear samples per region and bin") \
    X(NLLLOSS, "NegativeLogLikelihoodLoss", 2, 3, "-x[n, target, ...] * weight, reduced") \
    X(SCELOSS, "SoftmaxCrossEntropyLoss", 2, 3, "NLL loss of LogSoftmax over axis 1; log_prob")

/* The op kinds; GIR_OP_COUNT is not an op. */
typedef enum {
#define GIR_OP_ENUM(e, name, lo, hi, summary) GIR_OP_##e,
    GIR_OPS(GIR_OP_ENUM)
#undef GIR_OP_ENUM
    GIR_OP_COUNT
} GirOp;

#endif
