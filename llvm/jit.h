/*
 * llvm/jit.c: optimize a module for the host and compile it in process.
 * Private to llvm/.
 */
#ifndef KILN_LLVM_JIT_H
#define KILN_LLVM_JIT_H

#include <llvm-c/LLJIT.h>

#include "llvm.h"

/* A compiled module. */
typedef struct {
    LLVMOrcLLJITRef jit; /* owns the code */
    double opt_ms;       /* verification and the O3 pipeline */
    double jit_ms;       /* code generation and linking */
    char cpu[64];        /* host CPU name */
} KlvJit;

/* Verify mod (from the context of tsc, which it takes over), run
 * default<O{opt}> for the host CPU and add it to a new LLJIT.  0, or -1 +
 * error. */
int klv_jit_compile(KlvJit *j, LLVMOrcThreadSafeContextRef tsc, LLVMModuleRef mod, int opt,
                    GirError *e);
/* The address of kernel name (compiles the module on first use). */
int klv_jit_lookup(KlvJit *j, const char *name, void **fn, GirError *e);
void klv_jit_free(KlvJit *j);

#endif
