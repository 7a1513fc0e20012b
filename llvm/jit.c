/*
 * From a module of kernels to callable code: verification, LLVM's O3
 * pipeline tuned for the host CPU (its name and features from LLVM, so the
 * vectorizers use AVX-512 or AVX2 where the CPU has them), then ORC LLJIT
 * with the process's own symbols (libm) visible to the code.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "internal.h"
#include "jit.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_native(void)
{
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Copy an LLVM error's message into e, naming the step; -1. */
static int llvm_fail(GirError *e, const char *step, LLVMErrorRef err)
{
    char *m = LLVMGetErrorMessage(err);
    gir_error_at(e, gir_loc_none(), "llvm: %s: %s", step, m);
    LLVMDisposeErrorMessage(m);
    return -1;
}

/* A target machine for the host CPU at the given optimization level. */
static LLVMTargetMachineRef host_machine(int opt, char *cpu_out, size_t cpu_size, GirError *e)
{
    char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName();
    char *feat = LLVMGetHostCPUFeatures(), *msg = NULL;
    LLVMTargetRef t;
    LLVMTargetMachineRef tm = NULL;
    if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
        gir_error_at(e, gir_loc_none(), "llvm: no target for %s: %s", triple, msg);
        LLVMDisposeMessage(msg);
    } else {
        LLVMCodeGenOptLevel lv = opt <= 0 ? LLVMCodeGenLevelNone
                                 : opt == 1 ? LLVMCodeGenLevelLess
                                 : opt == 2 ? LLVMCodeGenLevelDefault
                                            : LLVMCodeGenLevelAggressive;
        tm = LLVMCreateTargetMachine(t, triple, cpu, feat, lv, LLVMRelocDefault,
                                     LLVMCodeModelJITDefault);
        if (cpu_out)
            snprintf(cpu_out, cpu_size, "%s", cpu);
    }
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(feat);
    return tm;
}

int klv_jit_compile(KlvJit *j, LLVMOrcThreadSafeContextRef tsc, LLVMModuleRef mod, int opt,
                    GirError *e)
{
    char *msg = NULL, passes[32];
    LLVMTargetMachineRef tm;
    LLVMTargetDataRef dl;
    LLVMPassBuilderOptionsRef po;
    LLVMErrorRef err;
    LLVMOrcLLJITBuilderRef jb;
    LLVMOrcDefinitionGeneratorRef gen;
    LLVMOrcThreadSafeModuleRef tsm;
    double t0 = now_ms();
    pthread_once(&init_once, init_native);
    memset(j, 0, sizeof *j);
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        gir_error_at(e, gir_loc_none(), "llvm: the lowered module does not verify: %.900s", msg);
        LLVMDisposeMessage(msg);
        LLVMDisposeModule(mod);
        return -1;
    }
    LLVMDisposeMessage(msg);
    if (!(tm = host_machine(opt, j->cpu, sizeof j->cpu, e))) {
        LLVMDisposeModule(mod);
        return -1;
    }
    {
        char *triple = LLVMGetDefaultTargetTriple();
        LLVMSetTarget(mod, triple);
        LLVMDisposeMessage(triple);
    }
    dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, dl);
    LLVMDisposeTargetData(dl);
    po = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(po, opt >= 2);
    LLVMPassBuilderOptionsSetSLPVectorization(po, opt >= 2);
    LLVMPassBuilderOptionsSetLoopUnrolling(po, opt >= 2);
    snprintf(passes, sizeof passes, "default<O%d>", opt < 0 ? 0 : opt > 3 ? 3 : opt);
    err = LLVMRunPasses(mod, passes, tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (err) {
        LLVMDisposeTargetMachine(tm);
        LLVMDisposeModule(mod);
        return llvm_fail(e, "optimization", err);
    }
    j->opt_ms = now_ms() - t0;
    t0 = now_ms();
    /* The JIT builder takes the target machine over. */
    jb = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
    if ((err = LLVMOrcCreateLLJIT(&j->jit, jb))) {
        LLVMDisposeModule(mod);
        return llvm_fail(e, "creating the JIT", err);
    }
    if ((err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
             &gen, LLVMOrcLLJITGetGlobalPrefix(j->jit), NULL, NULL))) {
        LLVMDisposeModule(mod);
        klv_jit_free(j);
        return llvm_fail(e, "process symbols", err);
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(j->jit), gen);
    tsm = LLVMOrcCreateNewThreadSafeModule(mod, tsc);
    if ((err = LLVMOrcLLJITAddLLVMIRModule(j->jit, LLVMOrcLLJITGetMainJITDylib(j->jit), tsm))) {
        LLVMOrcDisposeThreadSafeModule(tsm);
        klv_jit_free(j);
        return llvm_fail(e, "adding the module", err);
    }
    j->jit_ms = now_ms() - t0; /* lookups add the code generation time */
    return 0;
}

static int host_width;

static void find_host_width(void)
{
    char *feat = LLVMGetHostCPUFeatures();
    host_width = strstr(feat, "+avx512f") ? 16 : 8;
    LLVMDisposeMessage(feat);
}

int klv_host_vector_width(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_host_width);
    return host_width;
}

static int host_vnni;

/* KILN_VNNI=0 in the environment takes VNNI away from the host's kernels
 * (any other value, or none: the host's), so one kiln can time its int8
 * kernels with and without vpdpbusd (bench/llvm_dw_matmul_vnni.sh). */
static void find_host_vnni(void)
{
    char *feat = LLVMGetHostCPUFeatures();
    const char *env = getenv("KILN_VNNI");
    host_vnni = klv_x86_vnni("", feat, 1, klv_host_vector_width());
    if (env && strcmp(env, "0") == 0)
        host_vnni = 0;
    LLVMDisposeMessage(feat);
}

int klv_host_vnni(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_host_vnni);
    return host_vnni;
}

int klv_jit_lookup(KlvJit *j, const char *name, void **fn, GirError *e)
{
    LLVMOrcExecutorAddress addr = 0;
    double t0 = now_ms();
    LLVMErrorRef err = LLVMOrcLLJITLookup(j->jit, &addr, name);
    j->jit_ms += now_ms() - t0;
    if (err)
        return llvm_fail(e, name, err);
    *fn = (void *)(uintptr_t)addr;
    return 0;
}

void klv_jit_free(KlvJit *j)
{
    if (j->jit)
        LLVMOrcDisposeLLJIT(j->jit);
    j->jit = NULL;
}
