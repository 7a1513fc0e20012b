/*
 * llvm/: the CPU back end.  A graph (fp32 or the int8 form) is lowered node
 * by node through the LLVM 16 C API into one module of kernels, optimized
 * with LLVM's O3 pipeline for the host CPU (its vector extensions included)
 * and compiled in process with ORC LLJIT.  Nodes without a lowering run in
 * the reference interpreter, one node at a time, inside the same program.
 * The same kernels also go into relocatable objects for x86-64 and aarch64
 * (klv_emit_object), where every node must have a lowering, and into PTX
 * for NVIDIA GPUs with a launch plan (klv_gpu_compile), run through the
 * CUDA driver (klv_cuda_open, klv_gpu_run).
 * This is the one public header of llvm/; exports carry the klv_ prefix.
 *
 * Errors follow graphir: 0 / NULL on failure with a GirError naming the
 * node or the LLVM step that failed.  Nothing here exits or prints.
 */
#ifndef KILN_LLVM_H
#define KILN_LLVM_H

#include "graphir/graphir.h"

/* ---- schedules (schedule.c) ---------------------------------------------------
 * The knobs of a tunable kernel (today: the register-blocked Conv of
 * conv_blocked.c).  Zero in a field means the default, today's fixed
 * choice, so a zeroed schedule is the untuned code. */
typedef struct {
    int owb;     /* output pixels per step (vector accumulators), 1..16 */
    int vl;      /* output channels per block: the vector lanes, 4, 8 or 16 */
    int order;   /* outer loop order: 1 (n, ocb, oy), oy innermost (the default);
                    2 (n, oy, ocb), oc blocks innermost (input rows reused) */
    int unroll;  /* input-channel loop unrolled by 1, 2 or 4 (must divide C) */
    int out;     /* output write: 1 unrolled per lane, 2 a loop over lanes; 3 pixel
                    lanes (fp32, column stride 1: lanes are vl output pixels of a
                    row, one accumulator per channel, stored as vectors; owb is
                    then vl, unroll 1); 4 transposed in registers (fp32, owb <= vl,
                    vl 8 or 16: one masked vector store per channel) */
    int threads; /* threads of the parallel-for: 1 one, 2 all of the program's */
    int ocb;     /* oc blocks per step of the channel-lane kernel (fp32, out 4): 1, 2
                    or 4; ocb x owb accumulators, each broadcast input pixel feeds ocb
                    multiply-adds (must divide the oc blocks) */
} KlvSchedule;

/* Tuning records read from a JSON lines file (records.c). */
typedef struct KlvRecords KlvRecords;

/* Options of klv_compile; NULL or all zero: defaults. */
typedef struct {
    int threads;   /* threads of the parallel-for, the caller's included
                      (started once per program); 0: 2 */
    int opt_level; /* LLVM optimization 0..3; 0 means the default, 3 */
    int fma;       /* 1: fused multiply-add (llvm.fmuladd) in the fp32 Conv (faster
                      where the CPU has FMA; rounding then differs from the
                      interpreter's by a few ulp); 0: the interpreter's bits.
                      kiln run, bench and tune set it unless --exact */
    const KlvRecords *records;   /* best schedule per workload from these, NULL: none */
    const KlvSchedule *schedule; /* this schedule for every tunable kernel (it takes
                                    precedence over records); NULL: none */
} KlvOptions;

/* What klv_compile made of a graph. */
typedef struct {
    int nodes;       /* nodes in the graph */
    int lowered;     /* nodes that run as compiled kernels */
    int fallback;    /* nodes that run in the interpreter */
    int tuned;       /* kernels with a schedule from KlvOptions.records */
    int fused;       /* elementwise nodes computed inside their producer Conv's
                        kernel (counted in lowered too) */
    int concats;     /* Concats whose parts' producers write into the output's
                        slabs, so they run nothing (counted in lowered too) */
    double ir_ms;    /* building the LLVM IR */
    double opt_ms;   /* LLVM's O3 pipeline */
    double jit_ms;   /* machine code generation and linking */
    char cpu[64];    /* the host CPU LLVM tuned for */
} KlvStats;

/* A compiled graph, ready to run. */
typedef struct KlvProgram KlvProgram;

/* Lower, optimize and compile g, whose shapes must all be static but for
 * the outputs of NonZero, NonMaxSuppression and Compress (a buffer of the
 * most they can hold, the extent set by their kernels) and of
 * ConstantOfShape, Range and OneHot whose shape comes from input data
 * (sized when the program runs), each over inputs of static types; a node
 * reading such a value runs in the interpreter.  g must outlive the
 * program (constants are read in place).  NULL + error. */
KlvProgram *klv_compile(const GirGraph *g, const KlvOptions *opts, GirError *e);
/* Run the program: inputs[i] feeds g->inputs[i]; outputs[] get the
 * g->noutput results in this run's types, their data allocated from arena.
 * 0, or -1 + error (a shape rule's error on the run's data among them).
 * One run at a time per program (its buffers and worker threads are its
 * own); separate programs may run at once. */
int klv_run(KlvProgram *p, const GirTensor *inputs, GirTensor *outputs, GirArena *arena,
            GirError *e);
/* The figures of the compilation. */
void klv_stats(const KlvProgram *p, KlvStats *s);
/* 1 when node `node` of the graph runs as a compiled kernel, 0 when it runs
 * in the interpreter. */
int klv_node_lowered(const KlvProgram *p, int node);
void klv_free(KlvProgram *p);

/* ---- run-time shape specialization (specialize.c) -------------------------------
 * A graph whose shapes wait on the values of graph inputs (a Reshape's
 * shape, TopK's K, Slice's starts, Resize's sizes, ... fed as inputs) is
 * compiled per distinct set of those values: they are bound as constants in
 * a copy of the graph, which shape inference and constant folding make
 * static.  The programs are cached by the bound values and the inputs'
 * dims. */
typedef struct KlvSpec KlvSpec;

/* The graph inputs whose values decide a shape through a Reshape, Expand,
 * Tile, TopK, Squeeze, Unsqueeze, Split, Pad, Slice, Resize, Reduce* or
 * MaxUnpool operand (directly or computed from them; Resize's roi too in
 * tf_crop_and_resize mode, whose taps the lowering tabulates): bound[i] set to 1 for
 * g->inputs[i] (bound has g->ninput entries), their count returned.  0 (no
 * input marked) when none does, or when a value of data-dependent extent
 * (NonZero's, NonMaxSuppression's, Compress's output) or an input of more
 * than 4,096 entries takes part in deciding one: such a graph is not
 * specialized. */
int klv_spec_inputs(const GirGraph *g, int *bound);
/* The graph inputs whose values decide the extent of a ConstantOfShape's,
 * Range's or OneHot's output (sized when the program runs) that a node
 * program p of g leaves to the interpreter reads, directly or through
 * values computed from it: bound[i] set to 1 for g->inputs[i], their
 * count returned.  0 when p interprets no such node, or when a value of
 * data-dependent extent or an input of more than 4,096 entries takes part.
 * A program that compiles every node returns 0: it keeps its run-time
 * extents. */
int klv_spec_extent_inputs(const GirGraph *g, const KlvProgram *p, int *bound);
/* A specializer of g (which must outlive it) binding the inputs
 * klv_spec_extent_inputs(g, p) finds: per run, their values are bound, the
 * operands sizing those nodes folded into constants (nothing else is
 * folded), dce run and the copy compiled with static shapes, so the nodes
 * p interpreted compile.  NULL + error when that finds no input. */
KlvSpec *klv_spec_new_extents(const GirGraph *g, const KlvProgram *p, const KlvOptions *o,
                              GirError *e);
/* A specializer of g (which must outlive it) with klv_compile's options o
 * (copied; what they point to must outlive it) and the passes run on each
 * copy after binding (a gir_run_passes list; NULL: fold_constants).  NULL +
 * error when klv_spec_inputs finds no input to bind. */
KlvSpec *klv_spec_new(const GirGraph *g, const KlvOptions *o, const char *passes, GirError *e);
/* 1 when the values of g->inputs[i] are bound. */
int klv_spec_bound(const KlvSpec *s, int i);
/* Run g on inputs as klv_run does, through the program compiled for their
 * bound values and dims (compiled now when the cache has none: *compiled
 * set to 1).  -1 + error: an input unlike the graph's declared type, an
 * error of a shape rule on the bound values (naming the node), or of
 * klv_compile (a shape still unknown after binding: "needs static
 * shapes"). */
int klv_spec_run(KlvSpec *s, const GirTensor *inputs, GirTensor *outputs, GirArena *arena,
                 int *compiled, GirError *e);
/* The program of the last run and its graph in *g (valid until the next
 * run); NULL before a run. */
const KlvProgram *klv_spec_program(const KlvSpec *s, const GirGraph **g);
/* Programs compiled so far (cache misses). */
int klv_spec_compiles(const KlvSpec *s);
void klv_spec_free(KlvSpec *s);

/* The target of an object: an LLVM triple (x86_64-... or aarch64-...), a
 * CPU name (NULL or "": generic) and extra features ("+avx2,-fma"; NULL:
 * none). */
typedef struct {
    const char *triple;   /* e.g. aarch64-linux-gnu */
    const char *cpu;      /* e.g. cortex-a53, znver4 */
    const char *features; /* LLVM feature string */
    const KlvRecords *records; /* best schedule per workload (NULL: defaults) */
} KlvTarget;

/* Compile g for t into the relocatable object obj_path (PIC), with one
 * entry point
 *   int SYMBOL(const void *const *inputs, void *const *outputs);   returns 0
 * inputs[i] / outputs[i]: dense data of g->inputs[i] / g->outputs[i] in
 * their dtype.  The nodes run in order on the calling thread; intermediate
 * tensors are static buffers of the object (one call at a time); constants
 * are embedded.  Every node must have a lowering (no interpreter in an
 * object): -1 + error naming the first node that has none.  A graph output
 * of data-dependent extent that no node reads (NonZero, NonMaxSuppression,
 * Compress) gets extent x unit bytes in outputs[i] and its extent in the
 * int64_t at outputs[g->noutput + j], j counting such outputs.  obj_path is
 * written directly (and removed when writing it fails). */
int klv_emit_object(const GirGraph *g, const KlvTarget *t, const char *symbol,
                    const char *obj_path, GirError *e);
/* The C header declaring SYMBOL, with a comment per input/output (name,
 * dtype, shape) and SYMBOL_INPUTS, _OUTPUTS, _INPUT_BYTES and _OUTPUT_BYTES
 * (brace lists; the most an output of data-dependent extent holds),
 * _COUNTS (outputs of data-dependent extent) and _OUTPUT_UNIT_BYTES (per
 * output the bytes per entry of that axis, 0 for static ones) macros,
 * SYMBOL in capitals. */
int klv_emit_header(const GirGraph *g, const char *symbol, const char *hdr_path, GirError *e);

/* ---- workloads, records and the tuner (schedule.c, records.c, tune.c) -------- */

/* A distinct kernel workload of a graph: what decides a kernel's code and
 * speed apart from the data (op, dtype, shapes, attributes, target). */
typedef struct {
    char key[512];  /* the workload key (records match on it) */
    int node;       /* the first node of the graph with this workload */
    int count;      /* nodes with it */
    double gmacs;   /* multiply-adds of one node, 1e9 */
} KlvWorkload;

/* The tunable workloads of g for the host CPU (the kernels that take a
 * KlvSchedule), each once, in node order: *out malloc'd, *n filled.
 * 0, or -1 + error. */
int klv_workloads(const GirGraph *g, KlvWorkload **out, int *n, GirError *e);
/* The key of the workload of node n for target t (NULL: the host CPU). */
void klv_workload_key(const GirGraph *g, const GirNode *n, const KlvTarget *t, char *key,
                      size_t size);
/* Schedule s with its defaults filled in for node n on the host: the
 * concrete values the kernel uses (owb, vl, order, unroll, out, threads
 * all non-zero).  0 when n takes no schedule or s is not valid for it. */
int klv_schedule_resolve(const GirGraph *g, const GirNode *n, const KlvSchedule *s,
                         KlvSchedule *out);
/* "owb=13 vl=16 order=1 unroll=1 out=2 threads=2" */
void klv_schedule_str(const KlvSchedule *s, char *buf, size_t size);

/* One measurement of a schedule on a workload. */
typedef struct {
    char key[512];     /* the workload key */
    KlvSchedule sched; /* the schedule (resolved) */
    int ok;            /* 1: measured and correct; 0: failed */
    double min_ms;     /* fastest of the timed runs (ok only) */
    double median_ms;  /* median of the timed runs (ok only) */
    int nruns;         /* timed runs */
    double runs_ms[16];/* their times */
    char error[160];   /* why it failed (ok 0) */
} KlvRecord;

/* Read a records file.  A missing file gives empty records when
 * missing_ok, else an error; a malformed line gives an error naming the
 * file and line.  NULL + error. */
KlvRecords *klv_records_load(const char *path, int missing_ok, GirError *e);
/* Records from text[0..len) (JSON lines), path naming it in errors.
 * NULL + error naming path and the line. */
KlvRecords *klv_records_parse(const char *text, size_t len, const char *path, GirError *e);
/* An empty set (for a search without a file). */
KlvRecords *klv_records_new(void);
int klv_records_count(const KlvRecords *r);
const KlvRecord *klv_records_get(const KlvRecords *r, int i);
/* Add rec to r (in memory).  0, or -1 + error. */
int klv_records_add(KlvRecords *r, const KlvRecord *rec, GirError *e);
/* Append rec as one JSON line to path (created when missing) and flush
 * it, so an interrupted search leaves whole lines.  0, or -1 + error. */
int klv_records_append(const char *path, const KlvRecord *rec, GirError *e);
/* The record of the fastest (least median_ms, then min_ms) successful
 * measurement of key, NULL when there is none; failed records are never
 * taken. */
const KlvRecord *klv_records_best(const KlvRecords *r, const char *key);
/* Whether schedule s of key was measured already (ok or failed). */
int klv_records_has(const KlvRecords *r, const char *key, const KlvSchedule *s);
void klv_records_free(KlvRecords *r);

/* How the tuner searches. */
typedef enum {
    KLV_SEARCH_MODEL = 0,  /* candidates ranked by the XGBoost cost model */
    KLV_SEARCH_RANDOM = 1, /* candidates drawn at random */
} KlvSearch;

/* A fault put into measured candidates (tests: a crash, a wrong output or
 * a hang must be recorded as failed and never taken). */
typedef enum {
    KLV_FAULT_NONE = 0,
    KLV_FAULT_CRASH = 1, /* the measuring child dies of SIGSEGV */
    KLV_FAULT_WRONG = 2, /* one output element is changed */
    KLV_FAULT_HANG = 3,  /* the child sleeps past the time limit */
} KlvFault;

/* Options of klv_tune. */
typedef struct {
    int trials;         /* schedules measured per workload (records included); 0: 32 */
    int batch;          /* measured between cost model updates; 0: 8 */
    int repeat;         /* timed runs per candidate (min and median kept); 0: 5 */
    double timeout_s;   /* time limit of one candidate (compile and runs); 0: 20 */
    int threads;        /* the program's threads; 0: 2 */
    int fma;            /* KlvOptions.fma of the measured programs */
    KlvSearch search;   /* model-guided or random */
    double epsilon;     /* share of each model batch drawn at random; <0: 0, 0: 0.2 */
    unsigned seed;      /* random seed; 0: 1 */
    const char *records;/* records file: resumed from and appended to (NULL: none) */
    KlvFault fault;     /* put into every candidate but the default schedule */
    /* called after each measurement (progress), may be NULL */
    void (*progress)(void *ctx, const KlvWorkload *w, int trial, const KlvRecord *rec,
                     double best_ms);
    void *ctx;          /* progress's argument */
} KlvTuneOptions;

/* Tune workloads w[0..nw) of g (from klv_workloads): measure schedules
 * of each in a forked child (compile the node alone, run it o->repeat
 * times on a seeded random input, compare its output with the
 * interpreter's: int8 bit for bit, fp32 within 1e-5 relative L2), until
 * o->trials schedules of each are measured, the records of o->records
 * counted (and not measured again).  Every measurement is appended to
 * o->records and added to recs.  0, or -1 + error. */
int klv_tune(const GirGraph *g, const KlvWorkload *w, int nw, const KlvTuneOptions *o,
             KlvRecords *recs, GirError *e);

/* ---- the GPU target (gpu.c, cuda.c) ------------------------------------------ */

/* What a kernel parameter of a launch points at. */
typedef enum {
    KLV_GPU_VALUE = 0,   /* a value of the graph (input, constant, intermediate, output) */
    KLV_GPU_TABLE = 1,   /* read-only data of one kernel (packed weights, indices) */
    KLV_GPU_SCRATCH = 2, /* a work buffer of one node's kernels, zeroed before the run */
} KlvGpuBufKind;

/* One device buffer of the launch plan. */
typedef struct {
    KlvGpuBufKind kind; /* what it holds */
    int value;          /* KLV_GPU_VALUE: the value id, else -1 */
    int node;           /* KLV_GPU_TABLE / _SCRATCH: the node it belongs to, else -1 */
    int64_t bytes;      /* its size */
    const void *data;   /* data to upload before the run (constants, tables), else NULL */
    int64_t offset;     /* where data sits in the plan's data file (64-byte aligned); -1: none */
    int used;           /* 1 when a kernel reads or writes it */
    int axis;           /* a value of data-dependent extent (NonZero, NonMaxSuppression,
                           Compress): the axis whose extent its launch finds, bytes
                           being the most it holds; else -1 */
    int sized;          /* 1: a value whose shape the launcher finds when the graph
                           runs (ConstantOfShape, Range, OneHot of run-time data):
                           bytes is 0, the buffer is allocated before its producer's
                           launch; else 0 */
} KlvGpuBuffer;

/* One kernel launch, in the order they run. */
typedef struct {
    char entry[48];  /* the PTX entry: kiln_gpu_<node>, or kiln_gpu_<node>_pre */
    int node;        /* the node it computes */
    int64_t range;   /* outer steps: thread i runs step i, threads past range return */
    int block;       /* threads per block (x) */
    int64_t grid;    /* blocks (x); 0 when range is 0 (nothing to launch) */
    int nargs;       /* kernel parameters, all .u64 global pointers */
    int *args;       /* buffer index per parameter; -1: pass 0 (an absent input, or
                        a parameter the optimized kernel does not read) */
    int fused[8];    /* the elementwise nodes the kernel computes after its node's
                        (a chain fused into a Conv), in order */
    int nfused;      /* their count */
    int count;       /* buffer of the i64 the kernel writes: the extent of its output
                        on that value's data-dependent axis (KlvGpuBuffer.axis), copied
                        back after the launch; -1: none */
    int sized;       /* buffer of the i64 dims [GIR_MAX_RANK] of its output, which the
                        launcher finds by the node's shape rule from its inputs' data
                        (copied back), writes before the launch and takes range (the
                        element count) and grid from; range and grid are 0 here; -1:
                        none */
    int shape;       /* 1: no kernel (entry ""): a Shape of a value of run-time shape,
                        whose i64 output (args[1]) the launcher writes from that value's
                        dims in this run (args[0]); 0: a kernel */
} KlvGpuLaunch;

/* What klv_gpu_compile made. */
typedef struct {
    int nodes;         /* nodes in the graph (each one kernel but the fused ones) */
    int launches;      /* kernels (the nodes' and the padded Convs' _pre ones) */
    int fused;         /* nodes fused into a Conv's kernel (no kernel of their own) */
    int64_t ptx_bytes; /* size of the PTX text */
    int64_t data_bytes;/* size of the data file (constants and tables that are read) */
    double ir_ms;      /* building the LLVM IR */
    double opt_ms;     /* verification and LLVM's O3 pipeline */
    double ptx_ms;     /* NVPTX code generation */
    char cpu[32];      /* the sm_XX the PTX is for */
} KlvGpuStats;

/* A graph lowered to PTX with its launch plan. */
typedef struct KlvGpuModule KlvGpuModule;

/* Lower g for NVPTX: t->triple nvptx64-nvidia-cuda (NULL or t NULL: that
 * one), t->cpu an sm_XX (default sm_90), t->features (default +ptx78).
 * Every node must have a lowering (a value of run-time extent or shape,
 * KlvGpuBuffer.axis and .sized, read by no node but a Shape), and a node
 * calling libm (Sigmoid, Tanh) needs the CUDA toolkit's libdevice,
 * looked for at $KILN_LIBDEVICE (empty: none), else $CUDA_HOME or
 * /usr/local/cuda under nvvm/libdevice/libdevice.10.bc: -1 + error
 * naming the node.  The
 * module is verified, optimized (O3) and turned into PTX text.  g must
 * outlive the module (constants are referenced in place). */
KlvGpuModule *klv_gpu_compile(const GirGraph *g, const KlvTarget *t, GirError *e);
/* The PTX text (NUL-terminated) and its length. */
const char *klv_gpu_ptx(const KlvGpuModule *m, size_t *len);
/* The plan: buffers and launches (arrays owned by m). */
const KlvGpuBuffer *klv_gpu_buffers(const KlvGpuModule *m, int *n);
const KlvGpuLaunch *klv_gpu_launches(const KlvGpuModule *m, int *n);
void klv_gpu_stats(const KlvGpuModule *m, KlvGpuStats *s);
/* The graph m was compiled from. */
const GirGraph *klv_gpu_graph(const KlvGpuModule *m);
/* Write the data of every used buffer with data at its offset into path
 * (zero padding between).  0, or -1 + error. */
int klv_gpu_write_data(const KlvGpuModule *m, const char *path, GirError *e);
void klv_gpu_free(KlvGpuModule *m);
/* Run m's launch plan on this CPU, where no GPU is: the same kernel
 * bodies (4 lanes) compiled for the host, each launch's grid run thread by
 * thread on the calling thread with the plan's buffers and arguments (a
 * parameter the PTX does not read passed as NULL; counts, dims and Shape
 * launches handled as klv_gpu_run does), so the plan (argument
 * order, tables, unused parameters, launch order, ranges) is checked
 * against the interpreters.  It does not run the PTX.  0, or -1 + error. */
int klv_gpu_run_host(const KlvGpuModule *m, const GirTensor *inputs, GirTensor *outputs,
                     GirArena *arena, GirError *e);

/* The CUDA driver, opened with dlopen (libcuda.so.1, or the file named by
 * the environment variable KILN_LIBCUDA), initialized, with a context on
 * device 0. */
typedef struct KlvCuda KlvCuda;

/* Open the driver.  NULL + error; *no_driver = 1 when the library itself
 * cannot be opened (no NVIDIA driver installed), 0 for any later failure
 * (a missing symbol, a CUresult, named by cuGetErrorName). */
KlvCuda *klv_cuda_open(int *no_driver, GirError *e);
/* The device's sm_XX, capped at sm_90 (the newest LLVM 16 targets; PTX
 * for it runs on later GPUs through the driver's JIT). */
void klv_cuda_arch(const KlvCuda *cu, char *buf, size_t size);
/* Run m once: load its PTX, allocate every used buffer, upload constants
 * and tables, copy the inputs in, launch each kernel in order, synchronize,
 * copy the outputs (data from arena) out, free everything.  A launch with
 * a dims table (KlvGpuLaunch.sized) is preceded by its inputs' copy back,
 * the shape rule and its output's allocation; one with a count is
 * followed by the count's copy back; outputs take the run's types.  0, or
 * -1 + error naming the driver call and its CUresult (or the shape rule's
 * error). */
int klv_gpu_run(KlvCuda *cu, const KlvGpuModule *m, const GirTensor *inputs, GirTensor *outputs,
                GirArena *arena, GirError *e);
void klv_cuda_close(KlvCuda *cu);

#endif
