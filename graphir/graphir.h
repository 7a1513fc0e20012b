/*
 * graphir: the graph IR of kiln, its verifier, text form, shape rules and the
 * fp32 reference interpreter.  This is the one public header of graphir/.
 *
 * Memory: a graph owns an arena; every name, shape, attribute and constant of
 * the graph is allocated from it and freed together by gir_graph_free().
 * Values and nodes live in arrays indexed by small integer ids.
 *
 * Errors: library functions return 0 on success and -1 on failure after
 * filling a GirError with one line that names the file and the place (node,
 * line, byte offset).  Nothing here exits or prints.
 */
#ifndef KILN_GRAPHIR_H
#define KILN_GRAPHIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ops.h"

#define GIR_MAX_RANK 8 /* ONNX allows more; no op in the op set needs it */

#if defined(__GNUC__)
#define GIR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define GIR_NORETURN __attribute__((noreturn))
#else
#define GIR_PRINTF(f, a)
#define GIR_NORETURN
#endif

/* ---- errors and source locations -------------------------------------- */

/* Where something came from: enough to point a user at it. */
typedef struct {
    const char *file; /* model, cfg or tensor file path; NULL if none */
    int line;         /* 1-based line in a text file; 0 if not a text place */
    int64_t offset;   /* byte offset in a binary file; -1 if unknown */
    const char *node; /* ONNX node name or cfg section, NULL if none */
} GirLoc;

/* One diagnostic line, filled by the function that failed. */
typedef struct {
    char msg[1024]; /* "file:line: node 'x': what is wrong" */
} GirError;

/* A location that names nothing. */
GirLoc gir_loc_none(void);
/* A location in a file at a byte offset (-1: unknown). */
GirLoc gir_loc_file(const char *file, int64_t offset);

/* Fill *e with "place: message"; always returns -1 so callers can
 * `return gir_error_at(...)`.  e may be NULL. */
int gir_error_at(GirError *e, GirLoc loc, const char *fmt, ...) GIR_PRINTF(3, 4);
/* Format a location into buf as "file:line: node 'x'" (the prefix used by
 * gir_error_at); returns buf. */
const char *gir_loc_str(GirLoc loc, char *buf, size_t size);

/* The compiler's own bug: print and abort.  Never for user input. */
GIR_NORETURN void gir_die(const char *fmt, ...) GIR_PRINTF(1, 2);
#define gir_unreachable() gir_die("%s:%d: unreachable", __FILE__, __LINE__)

/* ---- arena ------------------------------------------------------------- */

typedef struct GirArena GirArena;

GirArena *gir_arena_new(void);
void gir_arena_free(GirArena *a);
/* Zeroed, 16-byte aligned memory that lives until the arena is freed.  Dies on
 * out-of-memory (the compiler cannot go on without memory). */
void *gir_arena_alloc(GirArena *a, size_t size);
char *gir_arena_strdup(GirArena *a, const char *s);
char *gir_arena_printf(GirArena *a, const char *fmt, ...) GIR_PRINTF(2, 3);

/* ---- types and tensors -------------------------------------------------- */

#define GIR_DTYPES(X)                                         \
    X(UNDEF, "undef", 0, 0)  /* not known yet */              \
    X(F32, "f32", 4, 1)      /* ONNX FLOAT */                 \
    X(U8, "u8", 1, 2)        /* ONNX UINT8 */                 \
    X(I8, "i8", 1, 3)        /* ONNX INT8 */                  \
    X(I32, "i32", 4, 6)      /* ONNX INT32 */                 \
    X(I64, "i64", 8, 7)      /* ONNX INT64 */                 \
    X(BOOL, "bool", 1, 9)    /* ONNX BOOL */                  \
    X(F64, "f64", 8, 11)     /* ONNX DOUBLE */                \
    X(I16, "i16", 2, 5)      /* ONNX INT16 */                 \
    X(U16, "u16", 2, 4)      /* ONNX UINT16 */                \
    X(U32, "u32", 4, 12)     /* ONNX UINT32 */                \
    X(U64, "u64", 8, 13)     /* ONNX UINT64 */                \
    X(F16, "f16", 2, 10)     /* ONNX FLOAT16 (IEEE half) */

/* Element types.  X(ENUM, "text name", bytes, ONNX TensorProto data_type). */
typedef enum {
#define GIR_DT_ENUM(e, n, sz, onnx) GIR_DT_##e,
    GIR_DTYPES(GIR_DT_ENUM)
#undef GIR_DT_ENUM
    GIR_DT_COUNT
} GirDType;

const char *gir_dtype_name(GirDType t);
size_t gir_dtype_size(GirDType t);
/* ONNX TensorProto.DataType <-> GirDType; GIR_DT_UNDEF / 0 when unsupported. */
GirDType gir_dtype_from_onnx(int onnx_type);
int gir_dtype_to_onnx(GirDType t);
/* By text name ("f32"); GIR_DT_UNDEF when unknown. */
GirDType gir_dtype_from_name(const char *name);
/* IEEE half bits <-> float; to half rounds to nearest even, overflows to
 * infinity, keeps NaN a NaN. */
float gir_f16_to_f32(uint16_t h);
uint16_t gir_f32_to_f16(float f);

/* Memory order of a 4-D feature map; other ranks are GIR_LAYOUT_ANY. */
typedef enum {
    GIR_LAYOUT_ANY,  /* no layout meaning (weights, vectors, unknown) */
    GIR_LAYOUT_NCHW, /* ONNX order */
    GIR_LAYOUT_NHWC, /* the order the hardware streams: channels innermost */
} GirLayout;

/* A tensor's type.  rank -1: unknown rank; a dim of -1: unknown size. */
typedef struct {
    GirDType dtype;             /* element type */
    int rank;                   /* number of axes, -1 if unknown */
    int64_t dims[GIR_MAX_RANK]; /* sizes, outermost first */
} GirType;

/* A tensor: a type and, when known, its dense row-major data. */
typedef struct {
    GirType type; /* element type and shape */
    void *data;   /* numel * dtype size bytes; NULL if not known */
} GirTensor;

/* Elements in a fully known shape; -1 if any dim or the rank is unknown. */
int64_t gir_type_numel(const GirType *t);
/* True when rank and every dim are known. */
int gir_type_is_static(const GirType *t);
/* Bytes of dense data of type t; -1 when the type is not static, its dtype
 * has no size, a field is out of range, or the size does not fit in int64. */
int64_t gir_type_bytes(const GirType *t);
/* "f32[1,3,416,416]" into buf; returns buf. */
const char *gir_type_str(const GirType *t, char *buf, size_t size);
/* Same dtype, rank and dims. */
int gir_type_equal(const GirType *a, const GirType *b);

/* ---- the graph ---------------------------------------------------------- */

/* What a value is. */
typedef enum {
    GIR_VAL_INPUT, /* a graph input, fed at run time */
    GIR_VAL_CONST, /* an initializer or folded constant: data is set */
    GIR_VAL_NODE,  /* produced by a node */
} GirValKind;

/* A tensor-valued edge of the graph. */
typedef struct {
    const char *name; /* unique in the graph; ONNX value name */
    GirValKind kind;  /* input, constant or node output */
    GirType type;     /* inferred or declared type */
    GirLayout layout; /* memory order when rank 4 */
    void *data;       /* GIR_VAL_CONST only: dense data in the arena */
    int producer;     /* node id for GIR_VAL_NODE, else -1 */
    GirLoc loc;       /* where it was declared */
    float scale;      /* int8 values: real value = q * scale; 0 when not quantized;
                         with chscale, the largest of them */
    const float *chscale; /* per-channel scales (channel axis: 1, the last when NHWC),
                             in the graph's arena; NULL: scale for the whole tensor */
    int nchscale;     /* entries of chscale (the channel count); 0 without */
    int zp;           /* int8 values: zero point, real value = (q - zp) * scale; 0
                         (symmetric), or -128 for an unsigned value: 0..255 on
                         scale max / 255, stored as q - 128 (docs/quant.md) */
} GirValue;

/* Attribute kinds, as in ONNX. */
typedef enum {
    GIR_ATTR_INT,     /* i */
    GIR_ATTR_FLOAT,   /* f */
    GIR_ATTR_STRING,  /* s */
    GIR_ATTR_INTS,    /* ints[n] */
    GIR_ATTR_FLOATS,  /* floats[n] */
    GIR_ATTR_TENSOR,  /* t (Constant's value) */
} GirAttrKind;

/* One named attribute of a node. */
typedef struct {
    const char *name;  /* ONNX attribute name */
    GirAttrKind kind;  /* which member below is meaningful */
    int64_t i;         /* INT */
    float f;           /* FLOAT */
    const char *s;     /* STRING, NUL-terminated */
    int64_t *ints;     /* INTS */
    float *floats;     /* FLOATS */
    int n;             /* element count of ints or floats */
    GirTensor t;       /* TENSOR */
} GirAttr;

/* One operator application. */
typedef struct {
    GirOp op;         /* what it computes */
    const char *name; /* unique node name (ONNX name or made up) */
    int *in;          /* value ids; -1 marks an absent optional input */
    int nin;          /* number of entries in in */
    int *out;         /* value ids it produces */
    int nout;         /* number of entries in out */
    GirAttr *attrs;   /* attributes, in source order */
    int nattr;        /* number of attributes */
    GirLoc loc;       /* ONNX node or cfg line it came from */
} GirNode;

/* A whole model.  Nodes are kept in topological order. */
typedef struct {
    GirArena *arena;    /* owns everything below */
    const char *name;   /* model name */
    const char *source; /* file it was read from, for diagnostics */
    int opset;          /* ONNX default-domain opset it was read at */
    GirValue *vals;     /* all values, by id */
    int nval, capval;   /* count and capacity of vals */
    GirNode *nodes;     /* all nodes, by id, topologically ordered */
    int nnode, capnode; /* count and capacity of nodes */
    int *inputs;        /* value ids fed at run time, in order */
    int ninput;         /* count of inputs */
    int *outputs;       /* value ids returned, in order */
    int noutput;        /* count of outputs */
} GirGraph;

GirGraph *gir_graph_new(const char *name);
void gir_graph_free(GirGraph *g);
/* A copy of g that a pass may rewrite without touching g; it borrows g's
 * names and constant data, so g must outlive it. */
GirGraph *gir_graph_copy(const GirGraph *g);

/* Add a value; the name is copied.  Returns its id. */
int gir_add_value(GirGraph *g, const char *name, GirValKind kind, GirType type, GirLoc loc);
/* Add a constant; data (numel * size bytes) is copied into the arena. */
int gir_add_const(GirGraph *g, const char *name, GirType type, const void *data, GirLoc loc);
/* Give value v per-channel scales s[0..n-1] (copied into g's arena); its
 * scale becomes the largest.  n <= 1 sets a per-tensor scale s[0] (n 0: none). */
void gir_set_chscale(GirGraph *g, int v, const float *s, int n);
/* Copy value src's scale (per tensor or per channel) of graph gs to value
 * dst of graph gd. */
void gir_copy_scale(GirGraph *gd, int dst, const GirGraph *gs, int src);
/* 1 when a and b have the same scale (per tensor or per channel) and zero
 * point. */
int gir_same_scale(const GirValue *a, const GirValue *b);
/* The scale of element i (row-major over v's dims) of int8 value v: its
 * channel's with per-channel scales, else v->scale. */
float gir_scale_at(const GirValue *v, int64_t i);
/* Find a value by name; -1 if absent. */
int gir_find_value(const GirGraph *g, const char *name);
/* Add a node whose inputs and outputs are value ids (copied); outputs get
 * their producer set.  Returns the node id. */
int gir_add_node(GirGraph *g, GirOp op, const char *name, const int *in, int nin,
                 const int *out, int nout, GirLoc loc);
void gir_add_input(GirGraph *g, int val);
void gir_add_output(GirGraph *g, int val);

/* Attributes: setters copy; getters return the default when absent. */
void gir_set_attr_int(GirGraph *g, int node, const char *name, int64_t v);
void gir_set_attr_float(GirGraph *g, int node, const char *name, float v);
void gir_set_attr_string(GirGraph *g, int node, const char *name, const char *v);
void gir_set_attr_ints(GirGraph *g, int node, const char *name, const int64_t *v, int n);
void gir_set_attr_floats(GirGraph *g, int node, const char *name, const float *v, int n);
void gir_set_attr_tensor(GirGraph *g, int node, const char *name, const GirTensor *t);
const GirAttr *gir_attr(const GirNode *n, const char *name);
int64_t gir_attr_int(const GirNode *n, const char *name, int64_t dflt);
float gir_attr_float(const GirNode *n, const char *name, float dflt);
const char *gir_attr_string(const GirNode *n, const char *name, const char *dflt);
/* Ints attribute: count in *n (0 when absent), NULL when absent. */
const int64_t *gir_attr_ints(const GirNode *n, const char *name, int *count);

const char *gir_op_name(GirOp op);
/* By ONNX op_type; -1 when not in the op set. */
int gir_op_from_name(const char *name);
int gir_op_min_inputs(GirOp op);
int gir_op_max_inputs(GirOp op);
const char *gir_op_summary(GirOp op);

/* ---- checks and shapes --------------------------------------------------- */

/* Structural checks: ids in range, each value produced once, topological
 * order, input counts per the op table, no dangling outputs, constants have
 * data, known types agree with the shape rules.  Returns 0 or -1 + error
 * naming the node. */
int gir_verify(const GirGraph *g, GirError *e);

/* Infer the type of every node output from the op's shape rule, in order.
 * Inputs whose data decides a shape (Reshape's shape, Slice's starts ...)
 * are used when constant; otherwise the affected dims stay -1 and are found
 * at run time. */
int gir_infer_shapes(GirGraph *g, GirError *e);

/* The shape rule of one node: ins[i] is the tensor of input i (data may be
 * NULL when unknown; absent optional inputs are NULL pointers), outs[] get
 * their type.  Used by gir_infer_shapes and by the interpreter. */
int gir_shape_node(const GirGraph *g, const GirNode *n, const GirTensor *const *ins,
                   GirType *outs, GirError *e);

/* ---- op geometry the interpreter and the back ends share (oputil.c, interp.c) ---- */

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

/* An Einsum equation parsed for inputs of the given ranks.  Labels are
 * numbered: letters 0..51, the axes an ellipsis stands for 52.. (aligned to
 * the right, as numpy broadcasts them). */
#define GIR_EINSUM_MAX_IN 8
#define GIR_EINSUM_LABELS (52 + GIR_MAX_RANK)
typedef struct {
    int nin;                                        /* inputs */
    int in_rank[GIR_EINSUM_MAX_IN];                 /* each input's rank */
    int in_lab[GIR_EINSUM_MAX_IN][GIR_MAX_RANK];    /* each input axis's label */
    int out_rank;                                   /* the result's rank */
    int out_lab[GIR_MAX_RANK];                      /* each result axis's label */
} GirEinsum;

/* MeanVarianceNormalization's groups over input type x: the elements with
 * equal coordinates off n's axes (default 0, 2, 3) form one group.  Fills
 * gst[d], the group-index stride of axis d (0 on a normalized axis), so an
 * element's group is sum idx[d] * gst[d]; returns the number of groups, or
 * -1 when an axis is out of range or the default axes meet a rank below 4. */
int64_t gir_mvn_groups(const GirNode *n, const GirType *x, int64_t *gst);

/* GridSample's mode attribute: 0 nearest, 1 bilinear ("linear" from opset
 * 20 on), 2 bicubic ("cubic" from opset 20 on), -1 any other. */
int gir_grid_sample_mode(const char *mode);

/* Parse eq ("ij,jk->ik", "...ii->...i", "ij" for the implicit form) for
 * nin inputs of ranks[]; 0, or -1 with the reason in why. */
int gir_einsum_parse(const char *eq, int nin, const int *ranks, GirEinsum *es, char *why,
                     size_t whysize);

/* The geometry of ConvTranspose over input x with kernel extents k: per
 * spatial axis in, k, s, d, the padding taken off the full output before
 * (pb) and after (pe), and the output extent out, from output_shape,
 * auto_pad SAME (out = in * stride) or pads; the total padding of
 * output_shape and SAME goes to the end with SAME_UPPER (the odd element at
 * the start otherwise).  Attributes not yet checked by the shape rule may be
 * anything: the caller checks g before use. */
void gir_convt_window(const GirNode *n, const GirType *x, const int64_t *k, GirWindow *g);

/* One axis of a Resize, as the interpreter maps it: per output coordinate
 * ntap input indices (clamped to the axis) and their weights. */
typedef struct {
    int ntap;      /* taps per output coordinate: 1 nearest, 2 linear, 4 cubic */
    int moving;    /* 0: every output takes its own index whole (the axis is still) */
    int64_t *idx;  /* [out][ntap] input indices */
    double *w;     /* [out][ntap] weights */
    char *outside; /* [out] 1: beyond the crop box (tf_crop_and_resize) */
} GirResizeAxis;

/* The map of axis d of Resize node n from input type xt to output type yt,
 * with its roi and scales inputs (NULL, or scales empty, when absent); the
 * arrays from arena.  The interpreter's Resize is the sum over the product
 * of the moving axes' taps of weight * input, in double. */
void gir_resize_axis(const GirNode *n, const GirType *xt, const GirType *yt, const GirTensor *roi,
                     const GirTensor *scales, int d, GirArena *arena, GirResizeAxis *m);

/* ---- files (graphir/file.c) ----------------------------------------------- */

/* The whole file at path, NUL-terminated (malloc'd; *len = its size when len
 * is not NULL), or NULL with errno set when it cannot be read. */
char *gir_read_file(const char *path, size_t *len);
/* Write the parts, one after the other, to path so the file appears whole or
 * not at all: into PATH.tmp.PID beside it, flushed to disk, renamed over
 * path; the temporary file is removed on any failure.  0, or -1 + error
 * naming path, with errno left as the failing call set it. */
int gir_write_atomic(const char *path, const void *const *parts, const size_t *lens, int nparts,
                     GirError *e);
/* qsort comparator of an array of C strings (char *), in strcmp order. */
int gir_cmp_str(const void *a, const void *b);

/* ---- text form ------------------------------------------------------------ */

/* Print the whole graph in the text form; constants' data included (base64)
 * unless elide_data, in which case the output does not parse back. */
int gir_print(const GirGraph *g, FILE *f, int elide_data);
/* Parse the text form; path names the text for diagnostics.  NULL + error
 * naming path:line on bad input. */
GirGraph *gir_parse(const char *text, size_t len, const char *path, GirError *e);

/* ---- interpreter ------------------------------------------------------------ */

/* Run the graph in fp32 reference arithmetic.  inputs[i] feeds g->inputs[i]
 * (its type must fit the declared one); outputs[] receives g->noutput
 * tensors whose data is allocated from arena.  Returns 0 or -1 + error naming
 * the node that failed. */
int gir_run(const GirGraph *g, const GirTensor *inputs, GirTensor *outputs,
            GirArena *arena, GirError *e);
/* gir_run keeping every node value (graphir/quant/accuracy.c): *n values,
 * value (*ids)[k] in (*outs)[k]; both arrays and the data from arena. */
int gir_run_all(const GirGraph *g, const GirTensor *inputs, GirArena *arena, GirTensor **outs,
                int **ids, int *n, GirError *e);

/* Per-node statistics for `kiln info`. */
typedef struct {
    int64_t macs;   /* multiply-accumulates per inference */
    int64_t params; /* weight and bias elements the node owns (constants) */
} GirNodeCost;
GirNodeCost gir_node_cost(const GirGraph *g, const GirNode *n);

/* ---- passes (graphir/pass.c, graphir/passes/; docs/passes.md) --------------- */

/* A pass rewrites g in place; 0, or -1 + error naming the node it refuses. */
typedef int (*GirPassFn)(GirGraph *g, GirError *e);

/* One row of the pass table. */
typedef struct {
    const char *name;    /* as in --passes=name */
    GirPassFn fn;        /* the entry point */
    const char *summary; /* one line for `kiln opt --list` */
} GirPassInfo;

/* Options of a pass run.  NULL (or all zero): quiet, verifying after every
 * pass, in every build. */
typedef struct {
    int no_verify;          /* skip gir_verify and gir_infer_shapes after each pass */
    const char *dump_after; /* print the text IR after this pass; NULL: never */
    FILE *dump;             /* where dumps go; NULL: stdout */
    int elide_data;         /* dumps leave constants' data out */
    int time_passes;        /* print each pass's wall time */
    FILE *time_out;         /* where timings go; NULL: stderr */
} GirPassOptions;

/* The pass table (n rows in *count) and the named pipelines. */
const GirPassInfo *gir_passes(int *count);
/* The comma-separated pass list of a pipeline ("O1", "default"); NULL if none. */
const char *gir_pipeline_passes(const char *name);
/* Run a named pipeline; NULL = the default ("O1"), what `kiln quantize` runs
 * before calibration. */
int gir_run_pipeline(GirGraph *g, const char *pipeline, const GirPassOptions *opts,
                     GirError *e);
/* 0 when every name in the comma-separated list is a pass or pipeline;
 * -1 + "unknown pass 'x'" otherwise. */
int gir_check_pass_list(const char *list, GirError *e);
/* Run a comma-separated list of pass and pipeline names, in order. */
int gir_run_passes(GirGraph *g, const char *list, const GirPassOptions *opts, GirError *e);
/* Run one pass, which need not be in the table, as a list runs each of its
 * passes: timed, checked after ("after pass 'NAME': ..."), dumped.  0, or
 * -1 + error. */
int gir_run_pass(GirGraph *g, const GirPassInfo *p, const GirPassOptions *opts, GirError *e);

/* Helpers for passes (graphir/rewrite.c).  Uses of each value by nodes and
 * graph outputs, into counts[g->nval]. */
void gir_use_counts(const GirGraph *g, int *counts);
/* Make every node input and graph output that reads value from read to. */
void gir_replace_uses(GirGraph *g, int from, int to);
/* Drop the nodes with dead[id] != 0 (dead may be NULL), then every value no
 * live node, graph input or graph output refers to; renumber both in order. */
void gir_graph_compact(GirGraph *g, const unsigned char *dead);

int gir_pass_fold_constants(GirGraph *g, GirError *e);
int gir_pass_dce(GirGraph *g, GirError *e);
int gir_pass_cse(GirGraph *g, GirError *e);
int gir_pass_fold_bn(GirGraph *g, GirError *e);
int gir_pass_fold_pad(GirGraph *g, GirError *e);
int gir_pass_fuse_act(GirGraph *g, GirError *e);
int gir_pass_fuse_hswish(GirGraph *g, GirError *e);
int gir_pass_remove_noops(GirGraph *g, GirError *e);
int gir_pass_nhwc(GirGraph *g, GirError *e);
int gir_pass_fold_qdq(GirGraph *g, GirError *e);

/* Nodes the nhwc pass marked layout="NHWC" (graphir/layout.c): data input 0
 * and every output are [N,H,W,C]; the rule and kernel are the NCHW ones on
 * transposed types and data, so results are bit-identical. */
int gir_node_is_nhwc(const GirNode *n);

/* ---- quantization (graphir/quant/; docs/quant.md) --------------------------- */

/* How an activation's clipping threshold is picked from its statistics. */
typedef enum {
    GIR_CALIB_MINMAX,     /* the largest |x| seen */
    GIR_CALIB_PERCENTILE, /* the given percentile of |x| */
    GIR_CALIB_KL,         /* least KL divergence of the 128-level histogram (TensorRT) */
    GIR_CALIB_MSE,        /* least squared int8 error over the histogram */
} GirCalibMethod;
#define GIR_CALIB_NMETHOD (GIR_CALIB_MSE + 1)

/* Activation statistics of every f32 value of a graph over calibration runs
 * (graphir/quant/calibrate.c). */
typedef struct GirCalib GirCalib;

/* Statistics for graph g, which must outlive them. */
GirCalib *gir_calib_new(const GirGraph *g);
void gir_calib_free(GirCalib *c);
/* Run g in fp32 on inputs (one tensor per graph input) and add every f32
 * value's |x| to its histogram.  0, or -1 + error. */
int gir_calib_add(GirCalib *c, const GirTensor *inputs, GirError *e);
/* Number of runs added so far. */
int gir_calib_runs(const GirCalib *c);
/* Computes every output of view (the graph with each recorded value as an
 * output) for inputs into outs, data from a; 0, or -1 + error. */
typedef int (*GirCalibRunner)(void *ctx, const GirGraph *view, const GirTensor *inputs,
                              GirTensor *outs, GirArena *a, GirError *e);
/* Run the calibration inputs through run (ctx its context) instead of the
 * interpreter; NULL: the interpreter again. */
void gir_calib_set_runner(GirCalib *c, GirCalibRunner run, void *ctx);
/* The view the runner is given; it lives as long as c. */
const GirGraph *gir_calib_view(const GirCalib *c);
/* Per value id of g: the real value that maps to int8 127 (0 where the value
 * was never seen or is not f32). percentile in (0, 100] for
 * GIR_CALIB_PERCENTILE. */
void gir_calib_thresholds(const GirCalib *c, GirCalibMethod m, double percentile,
                          float *thresholds);
/* Per-channel thresholds (axis 1) of value v into thresholds[0..C-1]: each
 * channel's largest |x|, at most v's threshold by method m (so no channel is
 * clipped more than one scale for the tensor would clip it); returns C, or 0
 * when v has no per-channel statistics (only the values
 * gir_quant_leaves_int8 names get them). */
int gir_calib_channel_thresholds(const GirCalib *c, int v, GirCalibMethod m, double percentile,
                                 float *thresholds);
/* The mean of each channel (axis 1) of value v over the calibration runs,
 * into means (dims[1] entries): its count, or 0 when v is not the data input
 * of a Conv or Gemm whose statistics were kept. */
int gir_calib_channel_means(const GirCalib *c, int v, double *means);

/* Entries of a LutI8 node's table (attribute lut: entry x + 128 is the
 * output for int8 input x). */
#define GIR_LUT_SIZE 256
/* The channel count C of a LutI8 with one table per channel on input type t
 * (attribute lut of C x 256 entries, channel c's table at c * 256; the
 * channel axis is 1, the last under a node layout NHWC), 0 for one table,
 * -1 when the count matches neither.  gir_lut_inner: the elements of one
 * channel run (product of the dims after the axis). */
int64_t gir_lut_channel_count(const GirNode *n, const GirType *t);
int64_t gir_lut_inner(const GirNode *n, const GirType *t);

/* What gir_quantize did to one node of the fp32 graph. */
typedef struct {
    const char *node; /* node name in the fp32 graph */
    GirOp op;         /* its op */
    int int8;         /* 1: runs in the int8 form; 0: kept in fp32 */
    const char *why;  /* for fp32 nodes: the reason (static string) */
    double mse_nearest; /* learned rounding (gir_quantize_r): the layer's mean squared
                         * output error before its activation on the sampled
                         * calibration positions, nearest rounding; -1: not learned */
    double mse_learned; /* the same with the learned rounding */
    int64_t moved;      /* weights the learned rounding moved off nearest */
    int64_t weights;    /* the layer's weights */
    int64_t kept;       /* channels the check inputs kept nearest (--round checked) */
    int64_t nch;        /* the layer's output channels */
} GirQuantNote;

/* Rewrite fp32 graph g into the int8 form of docs/quant.md, given the
 * per-value thresholds of gir_calib_thresholds: per-tensor activation scales
 * (threshold / 127), per-output-channel weight scales, int32 biases, the
 * requantize multipliers and shifts of requant.h.  Concat inputs and Add
 * operands are put on one scale by Requantize nodes.  Ops without an int8
 * form stay fp32 between DequantizeLinear and QuantizeLinear.  Values keep
 * their names (an int8 value is named after the f32 value it stands for);
 * notes (may be NULL) gets one entry per node of g, allocated in the new
 * graph's arena.  NULL + error on failure. */
GirGraph *gir_quantize(const GirGraph *g, const float *thresholds, GirQuantNote **notes,
                       GirError *e);
/* gir_quantize with per-channel output scales: where chthr (indexed by value
 * id of g; NULL, or NULL entries, for none) gives a value's per-channel
 * thresholds (dims[1] of them, gir_calib_channel_thresholds) and
 * gir_quant_leaves_int8 holds for it, the Conv making it requantizes each
 * channel to its own scale and the DequantizeLinear after it is per axis 1. */
GirGraph *gir_quantize_ch(const GirGraph *g, const float *thresholds, const float *const *chthr,
                          GirQuantNote **notes, GirError *e);
/* gir_quantize_ch with bias correction: where chmean (indexed by value id of
 * g; NULL entries for none) gives the per-channel means of a Conv's or
 * Gemm's data input (gir_calib_channel_means), its int32 bias absorbs the
 * mean error of its int8 weights: b'[c] = b[c] - sum over the weights of
 * channel c of (w_int8 * s_w[c] - w) * mean[input channel]; a Conv without
 * a bias gets one.  Zero padding at the borders is not counted. */
GirGraph *gir_quantize_bc(const GirGraph *g, const float *thresholds, const float *const *chthr,
                          const double *const *chmean, GirQuantNote **notes, GirError *e);
/* Where gir_quantize_cs gives activations a scale per channel inside the
 * int8 graph (docs/quant.md "Per-channel activation scales"). */
typedef struct {
    double ratio;      /* a value qualifies when its median channel threshold is
                        * below ratio x the tensor's threshold */
    int64_t max_table; /* largest per-channel LutI8 table, bytes (C x 256) */
    int64_t budget;    /* all per-channel tables together, bytes */
} GirChanScaleOpts;
/* gir_quantize_bc with per-channel activation scales (cs NULL: none): a Conv
 * whose output is read by a LutI8 chain alone, whose result is read by Convs
 * alone, keeps its output per channel (its requantizer is per channel
 * already) and the LutI8 becomes one table per channel (C x 256 entries);
 * the table's result is per channel too where depthwise Convs alone read
 * it, each folding the input's channel scales s_c / s into its weights
 * before quantizing them (exactly a per-channel multiplier).  Only where
 * chthr gives both values' channel thresholds (gir_quant_chscale_candidate),
 * the median channel is imbalanced (cs->ratio) and the tables fit cs's
 * bounds. */
GirGraph *gir_quantize_cs(const GirGraph *g, const float *thresholds, const float *const *chthr,
                          const double *const *chmean, const GirChanScaleOpts *cs,
                          GirQuantNote **notes, GirError *e);
/* gir_quantize_cs with unsigned activations on (unsig 1), with small
 * negative floors too (2), or off (0, what gir_quantize_cs does: every int8
 * value symmetric, zero point 0), and the nodes of g where keep_fp32_nodes (NULL:
 * none; one byte per node) is not 0 kept in fp32 (mixed precision): a value that
 * cannot be negative (a Conv with a fused ReLU or Clip from 0 up, a LutI8
 * table >= 0 on every input code) whose readers all take a zero point for
 * free (a Conv without padding, a LutI8, an op kept in fp32) gets 0..255 on
 * threshold / 255, stored as q - 128 with zero point -128 (GirValue.zp):
 * a reading Conv's bias absorbs the zero point, a producing Conv's bias
 * the offset of 128 output steps, a table is indexed and filled
 * accordingly.  No kernel changes: the int8 form and its arithmetic are
 * the same. */
GirGraph *gir_quantize_u(const GirGraph *g, const float *thresholds, const float *const *chthr,
                         const double *const *chmean, const GirChanScaleOpts *cs, int unsig,
                         const unsigned char *keep_fp32_nodes, GirQuantNote **notes, GirError *e);
/* Learned weight rounding (graphir/quant/round.c; docs/quant.md "Learned
 * rounding"): the calibration inputs again, and what it did per node. */
typedef struct {
    const GirTensor *inputs; /* ninputs calibration inputs (the graph has one input) */
    int ninputs;             /* count of inputs */
    int passes;              /* coordinate-descent passes over each channel's weights */
    int64_t positions;       /* output positions sampled per layer, all inputs together */
    int check;               /* 1: each channel fitted on the even-numbered inputs, kept
                              * nearest unless that lowers its error on the others, then
                              * fitted on all (needs 2 inputs or more) */
    int used;                /* out: the first inputs used (fewer than ninputs when the
                              * values they keep would pass 4 GB) */
} GirRoundOpts;
/* gir_quantize_u with learned rounding (ro NULL: nearest, what gir_quantize_u
 * does): each Conv, Gemm and MatMul, in order, gets each int8 weight rounded
 * down or up (never beyond +-127, scales unchanged) to minimize its output
 * error before the activation on the calibration inputs: its input from the
 * int8 graph already built, its target the fp32 graph's; its bias then
 * absorbs the mean error left per channel (bias correction on the measured
 * error, in place of chmean's). */
GirGraph *gir_quantize_r(const GirGraph *g, const float *thresholds, const float *const *chthr,
                         const double *const *chmean, const GirChanScaleOpts *cs, int unsig,
                         const unsigned char *keep_fp32_nodes, GirRoundOpts *ro,
                         GirQuantNote **notes, GirError *e);
/* 1 when f32 value v of g may get per-channel scales from gir_quantize_cs
 * (calibration keeps its channels' largest |x| then): a Conv's output read
 * by a LutI8 chain, or such a chain's result read by Convs only. */
int gir_quant_chscale_candidate(const GirGraph *g, int v);
/* 1 when f32 value v of g (rank 4, static) is made by a Conv (or by a Relu /
 * LeakyRelu the quantizer fuses into one) whose int8 output leaves the int8
 * graph at once: every reader is a graph output or an op without an int8
 * form other than another layer (ConvTranspose), so a per-channel scale on
 * it changes nothing else. */
int gir_quant_leaves_int8(const GirGraph *g, int v);

/* The nodes the quantizer makes one LutI8 table of when value v of g is
 * int8: v's sole reader and each sole reader after it, as long as each is a
 * function of the one value before it alone (an elementwise activation,
 * Clip with constant bounds, arithmetic with a one-element constant), in
 * order into chain[0..max-1]; returns their count (0: none). */
int gir_quant_lut_chain(const GirGraph *g, int v, int *chain, int max);
/* The chain's fp32 result on x, in double (the table's entries before
 * rounding). */
double gir_quant_lut_eval(const GirGraph *g, const int *chain, int n, double x);

/* Accuracy of one value: int8 graph against fp32 (graphir/quant/accuracy.c). */
typedef struct {
    const char *name; /* value name, shared by both graphs */
    int is_output;    /* 1: a graph output of the fp32 graph */
    int64_t count;    /* elements compared */
    double sqnr_db;   /* 10 log10(sum ref^2 / sum (ref - q)^2); INFINITY if exact */
    double cosine;    /* cosine similarity of the two tensors */
} GirAccuracy;

/* Run fp32 graph ref and its quantized form q on the same inputs and compare
 * every value of ref that q also has (int8 values dequantized by their
 * scale), in ref's node order, graph outputs included.  *rows gets the
 * entries (allocated in arena), *nrows their count.  0, or -1 + error. */
int gir_accuracy(const GirGraph *ref, const GirGraph *q, const GirTensor *inputs,
                 GirArena *arena, GirAccuracy **rows, int *nrows, GirError *e);

#endif
