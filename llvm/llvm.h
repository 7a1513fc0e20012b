/*
 * llvm/: the CPU back end.  A graph (fp32 or the int8 form) is lowered node
 * by node through the LLVM 16 C API into one module of kernels, optimized
 * with LLVM's O3 pipeline for the host CPU (its vector extensions included)
 * and compiled in process with ORC LLJIT.  Nodes without a lowering run in
 * the reference interpreter, one node at a time, inside the same program.
 * The same kernels also go into relocatable objects for x86-64 and aarch64
 * (klv_emit_object), where every node must have a lowering.
 * This is the one public header of llvm/; exports carry the klv_ prefix.
 *
 * Errors follow graphir: 0 / NULL on failure with a GirError naming the
 * node or the LLVM step that failed.  Nothing here exits or prints.
 */
#ifndef KILN_LLVM_H
#define KILN_LLVM_H

#include "graphir/graphir.h"

/* Options of klv_compile; NULL or all zero: defaults. */
typedef struct {
    int threads;   /* threads of the parallel-for, the caller's included
                      (started once per program); 0: 2 */
    int opt_level; /* LLVM optimization 0..3; 0 means the default, 3 */
    int fma;       /* 1: fused multiply-add in the fp32 Conv (faster; rounding
                      then differs from the interpreter's by a few ulp) */
} KlvOptions;

/* What klv_compile made of a graph. */
typedef struct {
    int nodes;       /* nodes in the graph */
    int lowered;     /* nodes that run as compiled kernels */
    int fallback;    /* nodes that run in the interpreter */
    double ir_ms;    /* building the LLVM IR */
    double opt_ms;   /* LLVM's O3 pipeline */
    double jit_ms;   /* machine code generation and linking */
    char cpu[64];    /* the host CPU LLVM tuned for */
} KlvStats;

/* A compiled graph, ready to run. */
typedef struct KlvProgram KlvProgram;

/* Lower, optimize and compile g, whose shapes must all be static.  g must
 * outlive the program (constants are read in place).  NULL + error. */
KlvProgram *klv_compile(const GirGraph *g, const KlvOptions *opts, GirError *e);
/* Run the program: inputs[i] feeds g->inputs[i]; outputs[] get the
 * g->noutput results, their data allocated from arena.  0, or -1 + error.
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

/* The target of an object: an LLVM triple (x86_64-... or aarch64-...), a
 * CPU name (NULL or "": generic) and extra features ("+avx2,-fma"; NULL:
 * none). */
typedef struct {
    const char *triple;   /* e.g. aarch64-linux-gnu */
    const char *cpu;      /* e.g. cortex-a53, znver4 */
    const char *features; /* LLVM feature string */
} KlvTarget;

/* Compile g for t into the relocatable object obj_path (PIC), with one
 * entry point
 *   int SYMBOL(const void *const *inputs, void *const *outputs);   returns 0
 * inputs[i] / outputs[i]: dense data of g->inputs[i] / g->outputs[i] in
 * their dtype.  The nodes run in order on the calling thread; intermediate
 * tensors are static buffers of the object (one call at a time); constants
 * are embedded.  Every node must have a lowering (no interpreter in an
 * object): -1 + error naming the first node that has none.  obj_path is
 * written directly (and removed when writing it fails). */
int klv_emit_object(const GirGraph *g, const KlvTarget *t, const char *symbol,
                    const char *obj_path, GirError *e);
/* The C header declaring SYMBOL, with a comment per input/output (name,
 * dtype, shape) and SYMBOL_INPUTS, _OUTPUTS, _INPUT_BYTES and _OUTPUT_BYTES
 * (brace lists) macros, SYMBOL in capitals. */
int klv_emit_header(const GirGraph *g, const char *symbol, const char *hdr_path, GirError *e);

#endif
