/*
 * Private declarations of llvm/: the IR builder state, loop and memory
 * helpers (ir.c) and the kernel emitters (kernels_f32.c, kernels_i8.c,
 * kernels_move.c) that program.c picks per node.
 *
 * Every kernel has one signature, void k(ptr args, i64 lo, i64 hi): args is
 * an array of pointers (the node's inputs, its outputs, then any tables the
 * emitter asked for) and [lo, hi) the slice of the kernel's outer loop this
 * call runs, so the parallel-for can split any kernel across threads.
 */
#ifndef KILN_LLVM_INTERNAL_H
#define KILN_LLVM_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "llvm.h"

/* The builder state of one module. */
typedef struct {
    LLVMContextRef ctx;  /* owns types and constants */
    LLVMModuleRef mod;   /* the module kernels go into */
    LLVMBuilderRef b;    /* instruction builder */
    LLVMValueRef fn;     /* kernel being built */
    LLVMValueRef args;   /* its pointer array parameter */
    LLVMTypeRef i1, i8, i32, i64, f32, ptr, voidt; /* common types */
    LLVMTypeRef kty;     /* the kernel function type */
    int fma;             /* KlvOptions.fma */
    int vl;              /* f32 lanes of the target's vector registers (16, 8 or 4) */
    int vnni;            /* x86 VNNI forms of vpdpbusd the target has: KLV_VNNI_512
                            (zmm, AVX512-VNNI) | KLV_VNNI_256 (ymm: AVX512-VNNI with
                            AVX512VL, or AVX-VNNI); 0: none (the int8 Conv then
                            multiplies in int16/int32) */
    const KlvSchedule *sched; /* schedule of the node being lowered (tunable
                                 kernels read it), NULL: the defaults */
    const int *chain;    /* elementwise nodes to fuse into the fp32 Conv being
                            lowered (chain.c), in order; NULL: none */
    int nchain;          /* their count */
    int guard_ok;        /* 1: kernels may take a guard (KlvPlan.guard): the JIT
                            program has the interpreter to hand a refused input
                            to; objects and PTX have none, so 0 */
    int count_ok;        /* 1: kernels may write an output of data-dependent extent
                            (KlvPlan.count): the program sizes it at run time */
    int sized_ok;        /* 1: kernels may take an output whose shape the program
                            finds at run time (KlvPlan.sized): the JIT program */
} KlvIr;

/* Bits of KlvIr.vnni. */
enum {
    KLV_VNNI_512 = 1, /* llvm.x86.avx512.vpdpbusd.512 */
    KLV_VNNI_256 = 2, /* llvm.x86.avx512.vpdpbusd.256 (VEX-encoded with AVX-VNNI) */
};

/* Kinds of an extra pointer of a plan. */
enum {
    KLV_TABLE = 0,   /* read-only data (packed weights, indices, multipliers) */
    KLV_SCRATCH = 1, /* a work buffer the node's kernels write and read */
};

/* What an emitter asks of the runtime for one node. */
typedef struct {
    int64_t range;                 /* extent of the outer loop [0, range) */
    int64_t work;                  /* rough operations per outer step, for threading */
    void *extra[8];                /* extra pointers appended after ins and outs */
    int64_t extra_bytes[8];        /* size of each extra's data */
    unsigned char extra_kind[8];   /* KLV_TABLE or KLV_SCRATCH, per extra */
    int nextra;                    /* count of extra */
    void *owned[8];                /* malloc'd tables the program frees */
    int nowned;                    /* count of owned */
    int pre;                       /* 1: kernel NAME_pre runs first (same args) */
    int64_t pre_range, pre_work;   /* its range and work per step */
    int threads;                   /* 1: run on one thread; 0: the program's threads */
    int tunable;                   /* 1: the kernel took ir->sched (a KlvSchedule) */
    int chained;                   /* nodes of ir->chain the kernel computes (its
                                      first ones, or none); it then writes the last
                                      one's output through its own output argument */
    int guard;                     /* 0: none; else 1 + the extra holding an int32
                                      flag the kernel sets on an input the
                                      interpreter refuses (an index out of range,
                                      an integer division by zero): the program
                                      clears it before the kernel and, when set
                                      after, runs the node in the interpreter,
                                      which reports the error */
    int count;                     /* 0: none; else 1 + the extra holding the i64
                                      extent the kernel wrote on output 0's
                                      data-dependent axis (klv_bound_type) */
    int sized;                     /* 0: none; else 1 + the extra holding i64
                                      [GIR_MAX_RANK]: output 0's dims in this run,
                                      which the program finds by the shape rule from
                                      the inputs' data (ConstantOfShape's shape,
                                      Range's bounds, OneHot's depth) and writes
                                      before the kernel; the range is then the
                                      output's element count */
} KlvPlan;

/* An open counted loop; its induction variable is iv. */
typedef struct {
    LLVMValueRef iv;         /* i64 induction variable */
    LLVMBasicBlockRef head;  /* the block holding the phi */
    LLVMBasicBlockRef exit;  /* where the loop leaves to */
} KlvLoop;

/* jit.c: f32 lanes of the widest vector the host CPU has (16 with
 * AVX-512, else 8). */
int klv_host_vector_width(void);
/* jit.c: KlvIr.vnni for the host CPU (from LLVM's host feature string). */
int klv_host_vnni(void);
/* aot.c: KlvIr.vnni for an x86-64 CPU name and feature string (LLVM's
 * "+f,-g" form, applied after the CPU's own features) whose widest vectors
 * have lanes f32 lanes; host_features: the CPU is the host, whose features
 * these are (the CPU name then implies nothing). */
int klv_x86_vnni(const char *cpu, const char *features, int host_features, int lanes);

/* chain.c: 1 when value v is one of g's outputs. */
int klv_is_output(const GirGraph *g, int v);
/* ir.c: append data (bytes long, of kind KLV_TABLE or KLV_SCRATCH) to
 * plan's extra pointers; owned: malloc'd, the program frees it. */
void klv_plan_extra(KlvPlan *plan, void *data, int64_t bytes, int kind, int owned);
/* Zeroed memory for a table of bytes: 64-byte aligned, from 2 MiB up on a
 * 2 MiB boundary with transparent huge pages asked for; free() frees it.
 * NULL when out of memory. */
void *klv_table_alloc(size_t bytes);
/* The same, zeroed only when zero is 1 (pages never touched take no memory:
 * the unpooled outputs of Convs with a fused MaxPool). */
void *klv_big_alloc(size_t bytes, int zero);

/* ir.c: the LLVM type of one element of dtype t (bool a byte, f16 half);
 * NULL for types without one. */
LLVMTypeRef klv_elem_type(KlvIr *ir, GirDType t);
/* ir.c: 1 for f32, f64 and f16. */
int klv_is_float_dt(GirDType t);
/* ir.c: element idx of base, of dtype t, as ld_f of interp.c reads it: a
 * double. */
LLVMValueRef klv_load_f64(KlvIr *ir, GirDType t, LLVMValueRef base, LLVMValueRef idx);
/* ir.c: element v (of klv_elem_type(t)) as ld_f reads it: a double. */
LLVMValueRef klv_to_f64(KlvIr *ir, GirDType t, LLVMValueRef v);
/* ir.c: store double v as st_f of interp.c does into dtype t (f16 through
 * f32 as gir_f32_to_f16). */
void klv_store_f64(KlvIr *ir, GirDType t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v);
/* ir.c: the product of dims[lo .. hi). */
int64_t klv_dims_prod(const int64_t *dims, int64_t lo, int64_t hi);
/* ir.c: give plan a guard flag (KlvPlan.guard) for node n; the kernel
 * argument index of the flag. */
int klv_plan_guard(KlvPlan *plan, const GirNode *n);
/* ir.c: set the guard flag (kernel argument arg) when bad (an i1) holds. */
void klv_guard(KlvIr *ir, int arg, LLVMValueRef bad);

/* ir.c */
void klv_ir_init(KlvIr *ir, LLVMContextRef ctx, const char *name);
/* Start kernel `name`: entry block, builder positioned in it. */
void klv_kernel_begin(KlvIr *ir, const char *name);
void klv_kernel_end(KlvIr *ir);
LLVMValueRef klv_lo(KlvIr *ir);
LLVMValueRef klv_hi(KlvIr *ir);
/* args[i] as a pointer. */
LLVMValueRef klv_arg(KlvIr *ir, int i);
LLVMValueRef klv_i64(KlvIr *ir, int64_t v);
LLVMValueRef klv_f32c(KlvIr *ir, double v);
/* A vector of lanes copies of scalar v. */
LLVMValueRef klv_splat(KlvIr *ir, LLVMValueRef v, int lanes);
/* for (iv = lo; iv < hi; iv++) {  ...  klv_loop_end */
KlvLoop klv_loop_begin(KlvIr *ir, LLVMValueRef lo, LLVMValueRef hi);
void klv_loop_end(KlvIr *ir, KlvLoop *l);
/* if (cond) {  ...  klv_if_end: a new block entered when cond holds; the
 * block returned is where both ways join. */
LLVMBasicBlockRef klv_if_begin(KlvIr *ir, LLVMValueRef cond, const char *what);
void klv_if_end(KlvIr *ir, LLVMBasicBlockRef join);
/* &base[idx] for elements of type t. */
LLVMValueRef klv_gep(KlvIr *ir, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef idx);
LLVMValueRef klv_load(KlvIr *ir, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef idx);
void klv_store(KlvIr *ir, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v);
LLVMValueRef klv_add(KlvIr *ir, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef klv_mul(KlvIr *ir, LLVMValueRef a, LLVMValueRef b);
/* a * k + c with constants k, c (i64). */
LLVMValueRef klv_affine(KlvIr *ir, LLVMValueRef a, int64_t k, int64_t c);
/* Call a float intrinsic or libm function of one f32 argument. */
LLVMValueRef klv_call_f32(KlvIr *ir, const char *fname, LLVMValueRef x);
/* llvm.rint.f64 of a double: round half to even (the default rounding
 * mode), as rint() in the interpreters. */
LLVMValueRef klv_rint_f64(KlvIr *ir, LLVMValueRef v);
/* Call a libm function of two double arguments (pow, fmod, fmax, ...). */
LLVMValueRef klv_call2_f64(KlvIr *ir, const char *fname, LLVMValueRef x, LLVMValueRef y);
/* A 1-D or 2-D sliding window (Conv, the pools) as a 2-D one: a 1-D window
 * is one of height 1. */
typedef struct {
    int64_t H, W;     /* input extent */
    int64_t OH, OW;   /* output extent */
    int64_t KH, KW;   /* kernel extent */
    int64_t s[2];     /* strides (y, x) */
    int64_t d[2];     /* dilations (y, x) */
    int64_t p[4];     /* pads: top, left, bottom, right */
} KlvWin2;
/* ir.c: the window of node n over input x, output y, kernel extents k
 * (rank - 2 of them), from gir_window (so auto_pad SAME is the
 * interpreter's split); 0 unless x and y have rank 3 or 4. */
int klv_win2(const GirNode *n, const GirType *x, const GirType *y, const int64_t *k, KlvWin2 *w);
/* The depth axis of a 3-D window (the pools): extent, output, kernel,
 * stride, dilation, pads before and after; all 1 (pads 0) for fewer axes. */
typedef struct {
    int64_t D, OD, KD, s, d, pb, pe;
} KlvDepth;
/* ir.c: klv_win2, and also for x and y of rank 5 (a 3-D window: its last
 * two axes into w, the first into dp). */
int klv_win3(const GirNode *n, const GirType *x, const GirType *y, const int64_t *k, KlvWin2 *w,
             KlvDepth *dp);
/* ir.c: the element strides of v (numpy-broadcast to y) along y's axes
 * into st (0 where v broadcasts); 0 when v does not broadcast to y. */
int klv_bcast_strides(const GirType *v, const GirType *y, int64_t *st);
/* ir.c: each of nv operands' element offset at the start of row `row` of
 * y (all axes but the last), from its broadcast strides st[k]. */
void klv_bcast_row(KlvIr *ir, LLVMValueRef row, const GirType *y, int64_t (*st)[GIR_MAX_RANK],
                   int nv, LLVMValueRef *off);
/* ir.c: the constant bounds of a Clip node (inputs 1 and 2, absent: -inf,
 * +inf) into lo, hi; 0 when one is not a one-element f32 constant. */
int klv_clip_bounds(const GirGraph *g, const GirNode *n, float *lo, float *hi);
/* ir.c: the fp32 elementwise ops on one value, as the interpreter computes
 * them: Relu, LeakyRelu, Sigmoid, Tanh, Clip (bounds lo, hi) of v;
 * Add, Sub, Mul, Div (op) of u and v. */
LLVMValueRef klv_unary_f32(KlvIr *ir, const GirNode *n, float lo, float hi, LLVMValueRef v);
/* ir.c: the logistic 1 / (1 + expf(-v)) in f32, as the interpreter's Sigmoid
 * and YoloHead compute it. */
LLVMValueRef klv_sigmoid_f32(KlvIr *ir, LLVMValueRef v);
LLVMValueRef klv_binary_f32(KlvIr *ir, int op, LLVMValueRef u, LLVMValueRef v);
/* The fp32 fused activation of node n (act attribute) applied to v (an f32
 * or a vector of them). */
LLVMValueRef klv_act_f32(KlvIr *ir, const GirNode *n, LLVMValueRef v);
/* kiln_rq_round_sat of graphir/requant.h on an i64 product with an i64
 * shift, then the clamp to [lo, hi]; an i8. */
LLVMValueRef klv_round_sat(KlvIr *ir, LLVMValueRef prod, LLVMValueRef shift, int lo, int hi);
/* ir.c: the declaration of llvm.x86.avx512.vpdpbusd for lanes i32 lanes
 * (16: zmm, 8: ymm) and its type into *ty.  vpdpbusd(acc, u, s) adds to
 * each lane of acc the four products of u's unsigned and s's signed bytes
 * of that lane, modulo 2^32 (no saturation). */
LLVMValueRef klv_vpdpbusd(KlvIr *ir, int lanes, LLVMTypeRef *ty);
/* ir.c: bias - 128 * (the sum of the n weights w), modulo 2^32: the bias
 * of a dot product whose activations go into vpdpbusd as x + 128 (the
 * byte x ^ 0x80), so that bias' + sum(w * (x + 128)) = bias + sum(w * x). */
int32_t klv_vnni_bias(int32_t bias, const int8_t *w, int64_t n);
/* Rows of A per step of the blocked VNNI kernels (gemm_i8.c,
 * kernels_qonnx.c): each vector of B feeds this many vpdpbusd. */
#define KLV_VNNI_ROWS 4
/* gemm_i8.c: the VNNI layout of a B [K, N] of bytes (element (k, j) at
 * src[j * bs_j + k * bs_k]) into dst: int8 [N / vl][K4 / 4][vl][4] (K4: K
 * rounded up to 4), each byte ^ flip (0x80: a u8 B as the s8 b - 128);
 * dst's bytes past N and K are left as they are (0 from calloc). */
void klv_vnni_pack(int8_t *dst, const int8_t *src, int64_t bs_j, int64_t bs_k, int64_t K,
                   int64_t N, int vl, int flip);
/* gemm_i8.c: the dot products of rows arow[0 .. rb) of A (K contiguous
 * bytes each, taken as the unsigned byte ^ flip: 0x80 for an i8 A, 0 for
 * a u8 one) with the vl columns of one block of a B in klv_vnni_pack's
 * layout at bblk, added into the rb <i32 x vl> vectors at accp through
 * vpdpbusd (dp, dpty from klv_vpdpbusd), modulo 2^32.  Whole words of K
 * are loaded, the last K % 4 bytes one by one: nothing is read past a
 * row of A. */
void klv_vnni_rows(KlvIr *ir, LLVMValueRef dp, LLVMTypeRef dpty, int vl, int64_t K,
                   const LLVMValueRef *arow, int rb, LLVMValueRef bblk, LLVMValueRef accp,
                   unsigned flip);
/* kiln_requant of graphir/requant.h on an i32 accumulator with i64
 * multipliers and shift, then the clamp to [lo, hi]; an i8. */
LLVMValueRef klv_requant(KlvIr *ir, LLVMValueRef acc, LLVMValueRef mpos, LLVMValueRef mneg,
                         LLVMValueRef shift, int lo, int hi);

/*
 * The emitters: each returns 1 when it emitted kernel `name` for node n of g
 * (filling plan), 0 when it has no lowering for this node, -1 + error.
 */
typedef int KlvEmitFn(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                      KlvPlan *plan, GirError *e);
KlvEmitFn klv_emit_f32;  /* kernels_f32.c: Conv, elementwise, pools */
KlvEmitFn klv_emit_i8;   /* kernels_i8.c: int8 Conv, Requantize */
KlvEmitFn klv_emit_move; /* kernels_move.c: MaxPool, Concat, copies, gathers */
KlvEmitFn klv_emit_gemm_i8; /* gemm_i8.c: int8 Gemm and MatMul */
KlvEmitFn klv_emit_gemm_f32; /* gemm_f32.c: fp32 Gemm and MatMul (through klv_emit_f32) */
KlvEmitFn klv_emit_select; /* kernels_select.c: NonZero, NonMaxSuppression, Compress
                              (outputs of data-dependent extent) */
KlvEmitFn klv_emit_qonnx; /* kernels_qonnx.c: ConvInteger, QLinearConv, MatMulInteger,
                             QLinearMatMul, DynamicQuantizeLinear */

/* ir.c: for node n whose output 0 has a shape the program finds at run
 * time (ir->sized_ok, every input of a static type, the output's rank
 * known but not all its dims), a dims table for plan (KlvPlan.sized): its
 * kernel argument index; 0 when the output is static or cannot be so; -1
 * when out of memory. */
int klv_plan_sized(KlvIr *ir, const GirGraph *g, const GirNode *n, KlvPlan *plan);

/* kernels_select.c: for value v of g whose extent on one axis depends on
 * its producer's input data (NonZero, NonMaxSuppression, Compress over
 * static inputs), the most it can hold into *bt and that axis into *axis;
 * 0 for any other value. */
int klv_bound_type(const GirGraph *g, int v, GirType *bt, int *axis);

/* gpu.c: the run-time side of a launch plan's values of data-dependent
 * extent or shape, shared by klv_gpu_run_host and klv_gpu_run (cuda.c);
 * rt holds per value id its type in this run.  klv_gpu_types: rt at the
 * start of a run (a value of data-dependent extent: the most it holds). */
void klv_gpu_types(const KlvGpuModule *m, GirType *rt);
/* Before a launch with a dims table (KlvGpuLaunch.sized): its output's
 * type by the node's shape rule from the data of its inputs (in[k]: a
 * host copy of input k, NULL when absent) into rt, the dims into dims
 * [GIR_MAX_RANK], the output's size into *bytes, and the launch's range,
 * block and grid into *l (a copy of the plan's).  -1 + error: the shape
 * rule's (a zero Range delta), or a range past one launch. */
int klv_gpu_size(const KlvGpuModule *m, KlvGpuLaunch *l, GirType *rt, void *const *in,
                 int64_t *dims, int64_t *bytes, GirError *e);
/* After a launch with a count (KlvGpuLaunch.count): the extent cnt the
 * kernel wrote into rt of its output.  -1 + error when it is not within
 * the bound (a kernel's bug). */
int klv_gpu_counted(const KlvGpuModule *m, const KlvGpuLaunch *l, GirType *rt, int64_t cnt,
                    GirError *e);
/* A Shape launch (KlvGpuLaunch.shape): its output's elements into y. */
void klv_gpu_shape(const KlvGpuModule *m, const KlvGpuLaunch *l, const GirType *rt, int64_t *y);

/* The operands of a Gemm or MatMul node: where each element of A, B and C
 * is (gemm_f32.c, gemm_i8.c). */
typedef struct {
    int64_t batches;      /* MatMul: matrices of the product; Gemm: 1 */
    int64_t M, N, K;      /* rows, columns, reduction length */
    int64_t sa, sb;       /* batch b's A and B at b * sa, b * sb */
    int64_t as_i, as_k;   /* A element (i, k) at i * as_i + k * as_k */
    int64_t bs_j, bs_k;   /* B element (k, j) at j * bs_j + k * bs_k (of the packed table
                             when B is constant and packed) */
    int64_t cs_i, cs_j;   /* C element for (i, j) at i * cs_i + j * cs_j */
    int has_c;            /* 1: Gemm with C */
    int packed;           /* int8: B is constant, packed as [N][K] into a table */
} KlvGemmGeo;

/* gemm_f32.c: a Gemm's A [M, K] (transA: [K, M]), B [K, N] (transB:
 * [N, K]) and C of dtype cdt and rank 0 to 2 broadcast to [M, N] as the
 * interpreters do, into o (zeroed by the caller); 0 when the node has
 * another form. */
int klv_gemm_geo(const GirGraph *g, const GirNode *n, GirDType cdt, KlvGemmGeo *o);

/* conv_blocked.c: the register-blocked 2-D Conv of group 1, fp32 (q = 0)
 * or the int8 form (q = 1, requantize attributes already checked); 1 when
 * emitted, 0 when the node does not fit it. */
int klv_emit_conv_blocked(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                          KlvPlan *plan, int q);

/* conv_dw_i8.c: the int8 depthwise Conv (group = channels) through
 * vpdpbusd where ir->vnni has a form (requantize attributes already
 * checked); 1 when emitted, 0 when the node or the target does not fit it. */
int klv_emit_conv_dw_i8(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                        KlvPlan *plan);

/* chain.c: the elementwise nodes that can be fused into node `node` (an
 * fp32 Conv) of g, in order, into chain (at most max); their count (or a
 * lone MaxPool, see klv_chain_pool).  Each
 * link is the only reader of the value before it, which is no graph
 * output; its other operand (binary ops) has that value's type or one
 * element and is a constant, an input or made by a node before `node`. */
int klv_chain_find(const GirGraph *g, int node, int *chain, int max);
/* kernels_f32.c: the float unary op n (of unary_f in interp.c: Abs, Exp,
 * ..., HardSigmoid, HardSwish) of f32 v, in double as the interpreter
 * computes it, rounded to f32. */
LLVMValueRef klv_unary_f64(KlvIr *ir, const GirNode *n, LLVMValueRef v);
/* The longest chain klv_compile fuses. */
#define KLV_CHAIN_MAX 8
/* chain.c: the first cnt ops of ir->chain applied to v, element idx of
 * value val (the Conv's output); the other operand of link k is
 * args[arg0 + k]. */
LLVMValueRef klv_chain_apply(KlvIr *ir, const GirGraph *g, int val, int arg0, int cnt,
                             LLVMValueRef v, LLVMValueRef idx);
/* chain.c: how many links of ir->chain a kernel that applies them to one
 * scalar at a time (the blocked Conv) takes: those before the first
 * HardSigmoid or HardSwish, whose double arithmetic costs less in a flat
 * kernel LLVM vectorizes. */
int klv_chain_scalar(const KlvIr *ir, const GirGraph *g);
/* chain.c: 1 when ir->chain is one MaxPool of 2x2 windows at stride 2 (no
 * padding), which only the fp32 Conv's pixel-lane kernel fuses (it pools
 * two output rows on the way out); every other kernel takes no link. */
int klv_chain_pool(const KlvIr *ir, const GirGraph *g);

/* conv_blocked.c: s resolved for node n (defaults filled in) when the
 * blocked Conv takes n with host lanes vl; 0 when it does not or s does
 * not fit n. */
int klv_conv_blocked_resolve(const GirGraph *g, const GirNode *n, int vl, const KlvSchedule *s,
                             KlvSchedule *out);

/* schedule.c: the id of the host target in workload keys:
 * "TRIPLE|CPU|FEATURES-HASH". */
void klv_host_target_id(char *buf, size_t size);
/* schedule.c: the schedule of node n from o (o->schedule, else the best
 * record of its workload), copied to *buf; NULL when none applies. */
const KlvSchedule *klv_pick_schedule(const GirGraph *g, const GirNode *n,
                                     const KlvSchedule *forced, const KlvRecords *recs,
                                     const KlvTarget *t, KlvSchedule *buf);

/* program.c: node n of g alone as a graph (constant inputs stay
 * constants, the others become its inputs). */
GirGraph *klv_node_graph(const GirGraph *g, const GirNode *n, const GirTensor *ins);

/* program.c: try the emitters on node n (kernel `name`); 1 when one
 * lowered it (plan filled), 0 when none has a lowering, -1 + error. */
int klv_lower_node(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                   KlvPlan *plan, GirError *e);

/* program.c: run node n alone through the interpreter on tensors ins (one
 * per input, NULL when absent); outs get data from arena. */
int klv_interp_node(const GirGraph *g, const GirNode *n, const GirTensor *ins, GirTensor *outs,
                    GirArena *arena, GirError *e);

/* aot.c: LLVMCreateTargetMachine (O3, PIC) that takes LLVM's warnings of
 * an unknown CPU or feature as errors (shown: the triple as the user gave
 * it).  NULL + error. */
LLVMTargetMachineRef klv_checked_machine(LLVMTargetRef tgt, const char *triple, const char *cpu,
                                         const char *feat, const char *shown, GirError *e);

/* aot.c: verify mod, set its triple and tm's data layout, and run
 * default<O3> for tm.  what names the module in the error ("lowered").
 * 0, or -1 + error. */
int klv_verify_optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, const char *triple,
                        const char *what, GirError *e);

/* program.c: 0 when t has the type of graph input i of g, else -1 + an
 * error naming the input and both types. */
int klv_check_input(const GirGraph *g, int i, const GirTensor *t, GirError *e);

#endif
