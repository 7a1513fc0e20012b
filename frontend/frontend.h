/*
 * frontend: readers of outside model and tensor files into the graph IR.
 * The one public header of frontend/.
 *
 * Every reader treats its input as hostile: on any malformed, truncated or
 * inconsistent input it returns NULL / -1 with one GirError line naming the
 * file and the place (ONNX node name or byte offset, cfg line, .npy offset).
 * Nothing here exits or prints.
 */
#ifndef KILN_FRONTEND_H
#define KILN_FRONTEND_H

#include <stddef.h>
#include <stdint.h>

#include "graphir/graphir.h"

/* ONNX: a ModelProto file.  Initializers in typed fields, raw_data or
 * external data files (resolved next to path); opsets 1..17 rewritten to the
 * IR's canonical form; shapes inferred.  Ops outside the op set fail with
 * "unsupported op 'X'" and *unsupported set to 1 (so the conformance runner
 * can count them apart from real failures), as do values of a type the IR
 * lacks (sequences, optionals, float16 ...); an op of the set used in a way
 * kiln does not take is a plain error.  unsupported may be NULL. */
GirGraph *fe_load_onnx(const char *path, int *unsupported, GirError *e);
/* The same from memory (fuzzing); path only names the input in errors and
 * anchors external data (NULL: external data refused). */
GirGraph *fe_onnx_from_memory(const uint8_t *buf, size_t len, const char *path,
                              int *unsupported, GirError *e);

/* Darknet: a .cfg file and, optionally, its .weights file (NULL: weights are
 * drawn from a generator seeded with seed, the same every time).  Shapes
 * inferred; each node's location is the cfg file and the line of its
 * section header. */
GirGraph *fe_load_darknet(const char *cfg, const char *weights, uint64_t seed, GirError *e);
/* The cfg from memory (fuzzing); weights seeded. */
GirGraph *fe_darknet_from_memory(const char *text, size_t len, const char *path,
                                 uint64_t seed, GirError *e);

/* TOSA: an .mlir file holding one func.func of MLIR 16 TOSA ops, parsed and
 * verified by MLIR (its diagnostics become "FILE:LINE:COL: message"); NHWC
 * feature maps and OHWI weights are turned into kiln's NCHW / OIHW with the
 * transposes folded into constants (docs/tosa.md).  Quantized TOSA maps
 * onto the int8 form where a pattern fits; otherwise an error names the op. */
GirGraph *fe_load_tosa(const char *path, GirError *e);
/* The same from memory (fuzzing); path only names the input in errors. */
GirGraph *fe_tosa_from_memory(const char *text, size_t len, const char *path, GirError *e);

/* Any model by file name: *.onnx, *.mlir (TOSA), or *.cfg (with the .weights of the same
 * stem beside it when present, else seeded weights). */
GirGraph *fe_load_model(const char *path, GirError *e);

/* ---- static shapes (frontend/shapes.c; docs/inputs.md) ---- */

/* One --input-shape: the dims a graph input is given. */
typedef struct {
    char name[256];             /* graph input; "" for the first input */
    int rank;                   /* dims given */
    int64_t dims[GIR_MAX_RANK]; /* each >= 1 */
} FeInputShape;

/* Parse "[NAME=]D,D,..." (the name is everything before the last '=').
 * 0, or -1 + error quoting arg. */
int fe_parse_input_shape(const char *arg, FeInputShape *s, GirError *e);
/* Give g's inputs the dims of s[0..n) (dims the model fixes must agree),
 * infer shapes again, fold the shape subgraphs to constants
 * (gir_pass_fold_constants) and check with fe_check_static.  n may be 0:
 * then only folding and the check.  0, or -1 + one error line. */
int fe_static_shapes(GirGraph *g, const FeInputShape *s, int n, GirError *e);
/* 0 when every input's dims are known and no node on constants was left
 * unfolded with an unknown shape; else -1 + an error naming the dynamic
 * input and the first node whose shape cannot be known.  Shapes that depend
 * on computed data (NonZero, NonMaxSuppression) with static inputs pass. */
int fe_check_static(const GirGraph *g, GirError *e);
/* fe_load_model, then fe_static_shapes when shapes are given (n > 0) or
 * static_shapes asks for static shapes anyway. */
GirGraph *fe_load_model_shaped(const char *path, const FeInputShape *s, int n,
                               int static_shapes, GirError *e);

/* Tensor files: .npy (NumPy format 1.0/2.0/3.0, little-endian, C order) or
 * .pb (ONNX TensorProto), chosen by extension.  Data is allocated from a. */
int fe_read_tensor(const char *path, GirArena *a, GirTensor *t, GirError *e);
/* Parse an in-memory .npy or TensorProto (is_npy chooses). */
int fe_tensor_from_memory(const uint8_t *buf, size_t len, int is_npy, const char *path,
                          GirArena *a, GirTensor *t, GirError *e);
/* Write by extension; the file appears complete or not at all (written to a
 * temporary name beside it, then renamed). */
int fe_write_tensor(const char *path, const GirTensor *t, GirError *e);

/* Write g as an ONNX model onnxruntime runs: kiln's int8 form becomes QDQ
 * (DequantizeLinear, the op in float, QuantizeLinear) at the scales the
 * integer multipliers realise; fp32 parts are written as they are.  Written
 * atomically; -1 + error naming the node that has no ONNX form. */
int fe_write_onnx_qdq(const GirGraph *g, const char *path, GirError *e);

/* Write g as an .mlir module of one func.func in MLIR 16's TOSA dialect,
 * built and verified through the MLIR C API: NCHW values become NHWC inside
 * (the signature keeps kiln's layout), kiln's int8 form becomes i8 / i32
 * tensors with tosa.rescale carrying its multipliers and shifts.  Written
 * atomically; -1 + error naming the node that has no TOSA form. */
int fe_write_tosa(const GirGraph *g, const char *path, GirError *e);

#endif
