/*
 * The GPU target: a graph lowered for NVPTX (nvptx64-nvidia-cuda, sm_90,
 * PTX ISA 7.8 by default) with the emitters of klv_compile, and the launch
 * plan a CUDA driver launcher needs (cuda.c is one).
 *
 * Every node's body is the CPU kernel, void k(ptr args, i64 lo, i64 hi),
 * built with 4 f32 lanes in the blocked Conv (PTX's widest vector
 * operands are 4 wide; wider vectors would only be split, and the packed
 * rows, aligned to their element, load as scalars anyway).  It becomes
 * internal and always
 * inlined into an entry kiln_gpu_<id> of the PTX kernel calling convention
 * whose parameters are the node's buffers as global pointers (address
 * space 1): ins, outs, then the emitter's tables and scratch buffers.  The
 * entry builds the argument array from them, takes its index i = ctaid.x *
 * ntid.x + tid.x from the special registers and, when i < range, runs the
 * body on [i, i + 1): one thread per step of the CPU kernel's outer loop.
 * A padded Conv has a second entry kiln_gpu_<id>_pre (the zero-bordered
 * copy), launched before it.  The elementwise chains klv_compile fuses
 * into an fp32 blocked Conv (chain.c) are fused here too: the Conv's
 * kernel computes them, takes each binary link's other operand after its
 * tables and writes the last link's output; the fused nodes have no entry
 * and the values inside a chain no writer.  Without libdevice a chain
 * stops before a Sigmoid or Tanh (which then has its own entry, and its
 * error).  Entries are marked with nvvm.annotations
 * ("kernel", 1).  After O3 the argument array is gone and a parameter no
 * load or store reads is marked unused in the plan, so its buffer (the
 * unpacked weights of a blocked Conv, whose packed copy is read) is never
 * allocated.
 *
 * NVPTX has no libm: a call to expf or tanhf (Sigmoid, Tanh) needs
 * libdevice, the bitcode library of the CUDA toolkit (LLVM 16 lowers
 * neither llvm.exp.f32 nor llvm.exp2.f32 for NVPTX; code generation would
 * stop the process).  Where libdevice is found (libdevice_path), such a
 * call goes to its __nv_ function, linked in and inlined; where it is not,
 * the node is refused with an error naming it, before code generation.
 *
 * Outputs of run-time extent or shape take the CPU program's emitters as
 * they are.  NonZero, NonMaxSuppression and Compress (kernels_select.c)
 * have a range of 1: one thread, since where an element goes depends on
 * those before it; the value's buffer holds the most it can
 * (klv_bound_type) and the kernel writes the extent into a count table
 * the launcher copies back after the launch (KlvGpuLaunch.count), setting
 * the value's type for the run.  ConstantOfShape, Range and OneHot of
 * run-time data (KlvPlan.sized) are sized by the launcher: before the
 * launch it copies the node's inputs back, applies the shape rule,
 * allocates the output and writes the dims into the kernel's table
 * (KlvGpuLaunch.sized); the entry takes its range as the product of
 * those dims, the grid follows from it.  A Shape of such a value is
 * written by the launcher (no kernel); any other reader is refused, naming
 * the node: kernels have static shapes.
 *
 * klv_gpu_run_host runs a plan on the CPU with the same bodies compiled
 * for the host: a check of the plan where there is no GPU.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "internal.h"
#include "jit.h"

#define GPU_TRIPLE "nvptx64-nvidia-cuda"
#define GPU_CPU "sm_90"
#define GPU_FEATURES "+ptx78"
#define GPU_LANES 4    /* f32 lanes of the blocked Conv */
#define GPU_BLOCK 128  /* threads per block of a launch (fewer for small ranges) */
#define MAX_ARGS (64 + 16 + 8 + KLV_CHAIN_MAX)
_Static_assert(sizeof ((KlvGpuLaunch *)0)->fused / sizeof(int) >= KLV_CHAIN_MAX,
               "KlvGpuLaunch.fused holds a chain");

struct KlvGpuModule {
    const GirGraph *g;      /* the graph, read in place */
    char *ptx;              /* PTX text, NUL-terminated */
    size_t ptx_len;         /* its length */
    KlvGpuBuffer *buf;      /* buffers: one per value (index = value id), then tables */
    int nbuf;               /* count of buf */
    KlvGpuLaunch *launch;   /* launches in order */
    int nlaunch;            /* count of launch */
    KlvPlan *plans;         /* per node: the emitter's plan (owns the tables) */
    unsigned char *fused;   /* per node: 1 when computed by an earlier Conv's kernel */
    unsigned char *host;    /* per node: 1 for a Shape the launcher computes (no kernel) */
    KlvGpuStats stats;      /* figures */
    char libdevice[512];    /* libdevice bitcode for libm calls; "" when none was found */
};

static pthread_once_t nvptx_once = PTHREAD_ONCE_INIT;

static void init_nvptx(void)
{
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The NVPTX target machine of t (defaults filled in).  NULL + error. */
static LLVMTargetMachineRef gpu_machine(const KlvTarget *t, GirError *e)
{
    const char *triple = t && t->triple && t->triple[0] ? t->triple : GPU_TRIPLE;
    const char *cpu = t && t->cpu && t->cpu[0] ? t->cpu : GPU_CPU;
    const char *feat = t && t->features ? t->features : GPU_FEATURES;
    char *norm, *msg = NULL;
    LLVMTargetRef tgt;
    LLVMTargetMachineRef tm = NULL;
    pthread_once(&nvptx_once, init_nvptx);
    norm = LLVMNormalizeTargetTriple(triple);
    if (strncmp(norm, "nvptx64-", 8) != 0 || LLVMGetTargetFromTriple(norm, &tgt, &msg)) {
        gir_error_at(e, gir_loc_none(),
                     "unknown GPU target triple '%s' (the gpu target is %s)", triple, GPU_TRIPLE);
    } else if (strncmp(cpu, "sm_", 3) != 0) {
        gir_error_at(e, gir_loc_none(), "unknown CPU '%s' for %s (an sm_XX, e.g. sm_90)", cpu, triple);
    } else {
        tm = klv_checked_machine(tgt, norm, cpu, feat, triple, e);
    }
    LLVMDisposeMessage(msg);
    LLVMDisposeMessage(norm);
    return tm;
}

/* ---- the entries -------------------------------------------------------------- */

/* A call of the NVVM special register intrinsic llvm.nvvm.read.ptx.sreg.NAME
 * (an i32). */
static LLVMValueRef sreg(KlvIr *ir, const char *reg)
{
    char name[64];
    LLVMTypeRef fty = LLVMFunctionType(ir->i32, NULL, 0, 0);
    LLVMValueRef f;
    snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s", reg);
    if (!(f = LLVMGetNamedFunction(ir->mod, name)))
        f = LLVMAddFunction(ir->mod, name, fty);
    return LLVMBuildCall2(ir->b, fty, f, NULL, 0, "");
}

/* The thread's index ctaid.x * ntid.x + tid.x, as an i64.  The multiply
 * and add are one mad.lo.u32 in inline PTX rather than IR: LLVM 16's
 * instruction selection shrinks an IR multiply of which a kernel only
 * reads the low bit (i % 2 of a range of 2) to an i1 multiply, which NVPTX
 * cannot select (code generation would stop the process).  A range past
 * 2^32 threads is refused when the plan is made. */
static LLVMValueRef thread_index(KlvIr *ir)
{
    LLVMTypeRef pt[3] = {ir->i32, ir->i32, ir->i32}, fty = LLVMFunctionType(ir->i32, pt, 3, 0);
    static const char code[] = "mad.lo.u32 $0, $1, $2, $3;", cons[] = "=r,r,r,r";
    LLVMValueRef asm_fn = LLVMGetInlineAsm(fty, (char *)code, sizeof code - 1, (char *)cons,
                                           sizeof cons - 1, 0, 0, LLVMInlineAsmDialectATT, 0);
    LLVMValueRef av[3];
    av[0] = sreg(ir, "ctaid.x");
    av[1] = sreg(ir, "ntid.x");
    av[2] = sreg(ir, "tid.x");
    return LLVMBuildZExt(ir->b, LLVMBuildCall2(ir->b, fty, asm_fn, av, 3, ""), ir->i64, "");
}

/* Mark fn as a kernel in nvvm.annotations: !{ptr fn, !"kernel", i32 1}. */
static void annotate_kernel(KlvIr *ir, LLVMValueRef fn)
{
    LLVMMetadataRef md[3];
    md[0] = LLVMValueAsMetadata(fn);
    md[1] = LLVMMDStringInContext2(ir->ctx, "kernel", 6);
    md[2] = LLVMValueAsMetadata(LLVMConstInt(ir->i32, 1, 0));
    LLVMAddNamedMetadataOperand(ir->mod, "nvvm.annotations",
                                LLVMMetadataAsValue(ir->ctx, LLVMMDNodeInContext2(ir->ctx, md, 3)));
}

/* The entry `entry` of body `body` (made internal and always inlined):
 * nargs global pointer parameters gathered into the body's argument array;
 * thread i = ctaid.x * ntid.x + tid.x runs [i, i + 1) when i < range.
 * dims_arg >= 0: range is instead the product of the rank i64 dims in
 * that parameter (KlvPlan.sized: the launcher writes them). */
static void build_entry(KlvIr *ir, const char *entry, const char *body, int nargs, int64_t range,
                        int dims_arg, int rank)
{
    LLVMTypeRef gptr = LLVMPointerTypeInContext(ir->ctx, 1), pt[MAX_ARGS], fty;
    LLVMValueRef fn, bfn = LLVMGetNamedFunction(ir->mod, body), arr, i, av[3], lim;
    LLVMBasicBlockRef run, done;
    LLVMBuilderRef b = ir->b;
    unsigned inl = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
    int k;
    LLVMSetLinkage(bfn, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(bfn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ir->ctx, inl, 0));
    for (k = 0; k < nargs; k++)
        pt[k] = gptr;
    fty = LLVMFunctionType(ir->voidt, pt, (unsigned)nargs, 0);
    fn = LLVMAddFunction(ir->mod, entry, fty);
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
    /* no buffer is passed twice where a kernel writes it: outputs, tables
     * and scratch buffers are each their own */
    for (k = 0; k < nargs; k++)
        LLVMAddAttributeAtIndex(fn, (unsigned)k + 1, LLVMCreateEnumAttribute(ir->ctx, noalias, 0));
    annotate_kernel(ir, fn);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ir->ctx, fn, "entry"));
    arr = LLVMBuildAlloca(b, LLVMArrayType(ir->ptr, (unsigned)(nargs ? nargs : 1)), "args");
    for (k = 0; k < nargs; k++) {
        LLVMValueRef at = klv_gep(ir, ir->ptr, arr, klv_i64(ir, k));
        LLVMBuildStore(b, LLVMBuildAddrSpaceCast(b, LLVMGetParam(fn, (unsigned)k), ir->ptr, ""), at);
    }
    i = thread_index(ir);
    lim = klv_i64(ir, range);
    if (dims_arg >= 0) {
        LLVMValueRef dims = LLVMGetParam(fn, (unsigned)dims_arg);
        lim = klv_i64(ir, 1);
        for (k = 0; k < rank; k++) {
            LLVMValueRef at = klv_i64(ir, k);
            at = LLVMBuildGEP2(b, ir->i64, dims, &at, 1, "");
            lim = klv_mul(ir, lim, LLVMBuildLoad2(b, ir->i64, at, ""));
        }
    }
    run = LLVMAppendBasicBlockInContext(ir->ctx, fn, "run");
    done = LLVMAppendBasicBlockInContext(ir->ctx, fn, "done");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, i, lim, ""), run, done);
    LLVMPositionBuilderAtEnd(b, run);
    av[0] = arr;
    av[1] = i;
    av[2] = klv_add(ir, i, klv_i64(ir, 1));
    LLVMBuildCall2(b, ir->kty, bfn, av, 3, "");
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
}

/* The name of a function fn calls that is not an LLVM intrinsic (a libm
 * function: NVPTX cannot link one), else NULL. */
static const char *external_call(LLVMValueRef fn)
{
    LLVMBasicBlockRef bb;
    LLVMValueRef in;
    if (!fn)
        return NULL;
    for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef callee;
            const char *name;
            size_t len;
            if (LLVMGetInstructionOpcode(in) != LLVMCall)
                continue;
            callee = LLVMGetCalledValue(in);
            name = LLVMGetValueName2(callee, &len);
            if (LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) == 0 &&
                !LLVMGetFirstBasicBlock(callee))
                return name;
        }
    return NULL;
}

/* ---- libdevice ---------------------------------------------------------------- */

/* Where libdevice is: $KILN_LIBDEVICE (set and empty: nowhere), else
 * $CUDA_HOME/nvvm/libdevice/libdevice.10.bc, else the same under
 * /usr/local/cuda; "" when that file cannot be read. */
static void libdevice_path(char *buf, size_t size)
{
    const char *env = getenv("KILN_LIBDEVICE"), *home = getenv("CUDA_HOME");
    if (env)
        snprintf(buf, size, "%s", env);
    else
        snprintf(buf, size, "%s/nvvm/libdevice/libdevice.10.bc",
                 home && home[0] ? home : "/usr/local/cuda");
    if (buf[0] && access(buf, R_OK) != 0)
        buf[0] = '\0';
}

/* 1 when mod declares a function it calls that is neither defined nor an
 * intrinsic (a libm function). */
static int has_external(LLVMModuleRef mod)
{
    LLVMValueRef f;
    for (f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        if (!LLVMGetFirstBasicBlock(f) && LLVMGetIntrinsicID(f) == 0 && LLVMGetFirstUse(f))
            return 1;
    return 0;
}

/* Each libm function mod calls (expf) renamed to libdevice's (__nv_expf),
 * libdevice linked in, and every function but the entries made internal,
 * so O3 keeps (and inlines) only what the kernels call.  -1 + error. */
static int link_libdevice(const KlvGpuModule *m, LLVMModuleRef mod, LLVMTargetMachineRef tm,
                          GirError *e)
{
    LLVMMemoryBufferRef mb;
    LLVMModuleRef lib = NULL;
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    LLVMValueRef f;
    char *msg = NULL, *triple = LLVMGetTargetMachineTriple(tm), name[128];
    int rc = 0;
    if (LLVMCreateMemoryBufferWithContentsOfFile(m->libdevice, &mb, &msg)) {
        rc = gir_error_at(e, gir_loc_none(), "cannot read libdevice %s: %s", m->libdevice, msg);
        LLVMDisposeMessage(msg);
    } else {
        if (LLVMParseBitcodeInContext2(LLVMGetModuleContext(mod), mb, &lib))
            rc = gir_error_at(e, gir_loc_none(), "libdevice %s: not LLVM bitcode LLVM 16 reads",
                              m->libdevice);
        LLVMDisposeMemoryBuffer(mb);
    }
    for (f = LLVMGetFirstFunction(mod); rc == 0 && f; f = LLVMGetNextFunction(f)) {
        LLVMValueRef nv;
        size_t len;
        if (LLVMGetFirstBasicBlock(f) || LLVMGetIntrinsicID(f) != 0 || !LLVMGetFirstUse(f))
            continue;
        snprintf(name, sizeof name, "__nv_%s", LLVMGetValueName2(f, &len));
        if (!(nv = LLVMGetNamedFunction(lib, name)) || !LLVMGetFirstBasicBlock(nv))
            rc = gir_error_at(e, gir_loc_none(), "libdevice %s has no %s", m->libdevice, name);
        else
            LLVMSetValueName2(f, name, strlen(name));
    }
    if (rc == 0) {
        LLVMSetTarget(mod, triple);
        LLVMSetModuleDataLayout(mod, dl);
        LLVMSetTarget(lib, triple);
        LLVMSetModuleDataLayout(lib, dl);
        if (LLVMLinkModules2(mod, lib)) /* lib is consumed either way */
            rc = gir_error_at(e, gir_loc_none(), "linking libdevice %s failed", m->libdevice);
    } else if (lib) {
        LLVMDisposeModule(lib);
    }
    for (f = LLVMGetFirstFunction(mod); rc == 0 && f; f = LLVMGetNextFunction(f)) {
        size_t len;
        if (LLVMGetFirstBasicBlock(f) && strncmp(LLVMGetValueName2(f, &len), "kiln_gpu_", 9) != 0)
            LLVMSetLinkage(f, LLVMInternalLinkage);
    }
    LLVMDisposeTargetData(dl);
    LLVMDisposeMessage(triple);
    return rc;
}

/* ---- the plan ----------------------------------------------------------------- */

/* Append a buffer; its index, or -1 when out of memory. */
static int add_buffer(KlvGpuModule *m, KlvGpuBufKind kind, int value, int node, int64_t bytes,
                      const void *data)
{
    KlvGpuBuffer *nb = realloc(m->buf, sizeof *nb * (size_t)(m->nbuf + 1)), *b;
    if (!nb)
        return -1;
    m->buf = nb;
    b = &m->buf[m->nbuf];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->value = value;
    b->node = node;
    b->bytes = bytes;
    b->data = data;
    b->offset = -1;
    b->axis = -1;
    return m->nbuf++;
}

/* l's range, block and grid for range steps: blocks of GPU_BLOCK threads
 * (the range rounded up to 32 below that). */
static void set_range(KlvGpuLaunch *l, int64_t range)
{
    l->range = range;
    l->block = range >= GPU_BLOCK ? GPU_BLOCK : (int)((range + 31) / 32 * 32);
    l->grid = range > 0 ? (range + l->block - 1) / l->block : 0;
}

/* Append launch `entry` of node with the parameters args[0..nargs).  -1
 * when out of memory. */
static int add_launch(KlvGpuModule *m, const char *entry, int node, int64_t range, const int *args,
                      int nargs)
{
    KlvGpuLaunch *nl = realloc(m->launch, sizeof *nl * (size_t)(m->nlaunch + 1)), *l;
    if (!nl)
        return -1;
    m->launch = nl;
    l = &m->launch[m->nlaunch];
    memset(l, 0, sizeof *l);
    snprintf(l->entry, sizeof l->entry, "%s", entry);
    l->node = node;
    set_range(l, range);
    l->count = -1;
    l->sized = -1;
    l->nargs = nargs;
    l->args = malloc(sizeof *l->args * (size_t)(nargs + 1));
    if (!l->args)
        return -1;
    memcpy(l->args, args, sizeof *args * (size_t)nargs);
    m->nlaunch++;
    return 0;
}

/* The error for value v of g, which has no static shape. */
static int not_static(const GirGraph *g, int v, GirError *e)
{
    char ty[128];
    return gir_error_at(e, g->vals[v].loc, "the gpu target needs static shapes: value '%s' is %s",
                        g->vals[v].name, gir_type_str(&g->vals[v].type, ty, sizeof ty));
}

/* 1 when value v of g, of no static shape, is one the launcher may size:
 * the output of a ConstantOfShape, Range or OneHot (whose lowering must
 * confirm it, lower_node), or of a node reading such a value (which
 * lower_node refuses, naming it). */
static int may_size(const GirGraph *g, int v)
{
    const GirNode *n = &g->nodes[g->vals[v].producer];
    int k;
    if (n->op == GIR_OP_CONSTANTOFSHAPE || n->op == GIR_OP_RANGE || n->op == GIR_OP_ONEHOT)
        return 1;
    for (k = 0; k < n->nin; k++)
        if (n->in[k] >= 0 && !gir_type_is_static(&g->vals[n->in[k]].type))
            return 1;
    return 0;
}

/* One buffer per value: constants with their data, the others empty.  A
 * node's output of data-dependent extent (klv_bound_type) gets the most
 * it can hold; one the launcher sizes (may_size) none. */
static int value_buffers(KlvGpuModule *m, GirError *e)
{
    const GirGraph *g = m->g;
    int v, b;
    for (v = 0; v < g->nval; v++) {
        const GirValue *val = &g->vals[v];
        int64_t bytes = gir_type_bytes(&val->type);
        GirType bt;
        int axis = -1;
        if (bytes < 0 && (val->kind != GIR_VAL_NODE || val->producer < 0))
            return not_static(g, v, e);
        if (bytes < 0 && klv_bound_type(g, v, &bt, &axis))
            bytes = gir_type_bytes(&bt);
        if (bytes < 0 && !may_size(g, v))
            return not_static(g, v, e);
        if ((b = add_buffer(m, KLV_GPU_VALUE, v, -1, bytes < 0 ? 0 : bytes,
                            val->kind == GIR_VAL_CONST ? val->data : NULL)) < 0)
            return gir_error_at(e, gir_loc_none(), "out of memory");
        m->buf[b].axis = axis;
        m->buf[b].sized = bytes < 0;
    }
    return 0;
}

/* 1 when value v's shape is known only when the graph runs. */
static int run_time(const KlvGpuModule *m, int v)
{
    return v >= 0 && (m->buf[v].axis >= 0 || m->buf[v].sized);
}

/* A Shape of a value of run-time shape: a launch without kernel whose
 * output the launcher writes (KlvGpuLaunch.shape).  -1 + error. */
static int shape_launch(KlvGpuModule *m, int i, GirError *e)
{
    const GirNode *n = &m->g->nodes[i];
    int args[2];
    args[0] = n->in[0];
    args[1] = n->out[0];
    if (n->nout != 1 || n->out[0] < 0 || run_time(m, n->out[0]))
        return not_static(m->g, n->out[0], e);
    if (add_launch(m, "", i, 0, args, 2) < 0)
        return gir_error_at(e, gir_loc_none(), "out of memory");
    m->launch[m->nlaunch - 1].shape = 1;
    m->host[i] = 1;
    return 0;
}

/* The elementwise nodes fused into node i of g (a Conv) into chain; their
 * count.  libm: Sigmoid and Tanh may join (libdevice is there). */
static int gpu_chain(const GirGraph *g, int i, int libm, int *chain)
{
    int c, k;
    if (g->nodes[i].op != GIR_OP_CONV || g->nodes[i].nout != 1)
        return 0;
    c = klv_chain_find(g, i, chain, KLV_CHAIN_MAX);
    for (k = 0; !libm && k < c; k++)
        if (g->nodes[chain[k]].op == GIR_OP_SIGMOID || g->nodes[chain[k]].op == GIR_OP_TANH)
            c = k;
    return c;
}

/* Lower node i into ir (body kiln_node_<i>, entries kiln_gpu_<i>[_pre])
 * and add its launches; a node fused into an earlier Conv has none.  -1 +
 * error naming the node. */
static int lower_node(KlvGpuModule *m, KlvIr *ir, int i, GirError *e)
{
    const GirGraph *g = m->g;
    const GirNode *n = &g->nodes[i];
    KlvPlan *plan = &m->plans[i];
    char body[48], entry[48];
    const char *ext;
    int args[MAX_ARGS], chain[KLV_CHAIN_MAX], k, na = 0, rc;
    GirLoc at = n->loc; /* names the node, where the model does not */
    if (!at.node)
        at.node = n->name;
    if (m->fused[i])
        return 0;
    if (n->nin > 64 || n->nout > 16)
        return gir_error_at(e, at, "too many inputs or outputs for a kernel");
    /* kernels have static shapes: of a value known only in the run, the
     * launcher takes the Shape */
    for (k = 0; k < n->nin; k++) {
        char ty[128];
        if (!run_time(m, n->in[k]))
            continue;
        if (n->op == GIR_OP_SHAPE && k == 0)
            return shape_launch(m, i, e);
        return gir_error_at(e, at,
                            "%s reads '%s' (%s), whose extent is known only when the graph runs; "
                            "the gpu target's kernels have static shapes (a Shape is the one "
                            "reader it takes)",
                            gir_op_name(n->op), g->vals[n->in[k]].name,
                            gir_type_str(&g->vals[n->in[k]].type, ty, sizeof ty));
    }
    snprintf(body, sizeof body, "kiln_node_%d", i);
    ir->nchain = gpu_chain(g, i, m->libdevice[0] != '\0', chain);
    ir->chain = chain;
    rc = klv_lower_node(ir, g, n, body, plan, e);
    ir->chain = NULL;
    ir->nchain = 0;
    if (rc < 0)
        return -1;
    if (rc == 0)
        return gir_error_at(e, at,
                            "%s has no lowering in the LLVM back end, and the gpu target runs "
                            "every node on the device",
                            gir_op_name(n->op));
    /* an output of run-time extent or shape: the kernel writes its extent
     * (count) or reads the dims the launcher finds (sized) */
    for (k = 0; k < n->nout; k++) {
        int v = n->out[k];
        if (v >= 0 && ((m->buf[v].axis >= 0 && !(k == 0 && plan->count)) ||
                       (m->buf[v].sized && !(k == 0 && plan->sized))))
            return not_static(g, v, e);
    }
    snprintf(entry, sizeof entry, "%s_pre", body);
    if (!m->libdevice[0] &&
        ((ext = external_call(LLVMGetNamedFunction(ir->mod, body))) ||
         (plan->pre && (ext = external_call(LLVMGetNamedFunction(ir->mod, entry))))))
        return gir_error_at(e, at,
                            "%s calls %s (libm), which NVPTX cannot link without libdevice "
                            "(none found; KILN_LIBDEVICE or CUDA_HOME names it)",
                            gir_op_name(n->op), ext);
    /* the thread index is 32-bit (thread_index) */
    if (plan->range >= ((int64_t)1 << 31) || plan->pre_range >= ((int64_t)1 << 31))
        return gir_error_at(e, at, "%s has 2^31 or more steps, past what one launch indexes",
                            gir_op_name(n->op));
    for (k = 0; k < n->nin; k++)
        args[na++] = n->in[k];
    for (k = 0; k < n->nout; k++)
        args[na++] = n->out[k];
    for (k = 0; k < plan->nextra; k++) {
        int scratch = plan->extra_kind[k] == KLV_SCRATCH;
        if (plan->extra_bytes[k] <= 0 || (!scratch && !plan->extra[k]))
            return gir_error_at(e, at, "a kernel table of unknown size");
        if ((args[na++] = add_buffer(m, scratch ? KLV_GPU_SCRATCH : KLV_GPU_TABLE, -1, i,
                                     plan->extra_bytes[k], scratch ? NULL : plan->extra[k])) < 0)
            return gir_error_at(e, gir_loc_none(), "out of memory");
    }
    for (k = 0; k < plan->chained; k++) {
        const GirNode *r = &g->nodes[chain[k]];
        int prev = k ? g->nodes[chain[k - 1]].out[0] : n->out[0];
        args[na++] = r->nin == 2 && r->op != GIR_OP_CLIP ? r->in[r->in[0] == prev ? 1 : 0] : -1;
        if (k == plan->chained - 1)
            args[n->nin] = r->out[0];
        m->fused[chain[k]] = 1;
    }
    if (plan->pre) {
        snprintf(entry, sizeof entry, "kiln_gpu_%d_pre", i);
        snprintf(body, sizeof body, "kiln_node_%d_pre", i);
        build_entry(ir, entry, body, na, plan->pre_range, -1, 0);
        if (add_launch(m, entry, i, plan->pre_range, args, na) < 0)
            return gir_error_at(e, gir_loc_none(), "out of memory");
    }
    snprintf(entry, sizeof entry, "kiln_gpu_%d", i);
    snprintf(body, sizeof body, "kiln_node_%d", i);
    build_entry(ir, entry, body, na, plan->range,
                plan->sized ? n->nin + n->nout + plan->sized - 1 : -1,
                plan->sized ? g->vals[n->out[0]].type.rank : 0);
    if (add_launch(m, entry, i, plan->sized ? 0 : plan->range, args, na) < 0)
        return gir_error_at(e, gir_loc_none(), "out of memory");
    if (plan->count && m->buf[n->out[0]].axis >= 0)
        m->launch[m->nlaunch - 1].count = args[n->nin + n->nout + plan->count - 1];
    if (plan->sized)
        m->launch[m->nlaunch - 1].sized = args[n->nin + n->nout + plan->sized - 1];
    m->launch[m->nlaunch - 1].nfused = plan->chained;
    memcpy(m->launch[m->nlaunch - 1].fused, chain, sizeof *chain * (size_t)plan->chained);
    m->stats.fused += plan->chained;
    return 0;
}

/* After optimization: a parameter without uses becomes -1 in its launch;
 * buffers some launch still passes are used, and those with data get
 * offsets in the data file. */
static void mark_used(KlvGpuModule *m, LLVMModuleRef mod)
{
    int l, k, b;
    int64_t off = 0;
    for (l = 0; l < m->nlaunch; l++) {
        KlvGpuLaunch *la = &m->launch[l];
        LLVMValueRef fn = LLVMGetNamedFunction(mod, la->entry);
        for (k = 0; k < la->nargs; k++) {
            if (la->args[k] >= 0 && fn && !LLVMGetFirstUse(LLVMGetParam(fn, (unsigned)k)))
                la->args[k] = -1;
            if (la->args[k] >= 0)
                m->buf[la->args[k]].used = 1;
        }
        /* the launcher reads the inputs of a node it sizes (shape rule) */
        for (k = 0; la->sized >= 0 && k < m->g->nodes[la->node].nin; k++)
            if (m->g->nodes[la->node].in[k] >= 0)
                m->buf[m->g->nodes[la->node].in[k]].used = 1;
    }
    /* the graph's inputs and outputs are copied in and out in any case */
    for (k = 0; k < m->g->ninput; k++)
        m->buf[m->g->inputs[k]].used = 1;
    for (k = 0; k < m->g->noutput; k++)
        m->buf[m->g->outputs[k]].used = 1;
    for (b = 0; b < m->nbuf; b++)
        if (m->buf[b].used && m->buf[b].data) {
            m->buf[b].offset = off;
            off += (m->buf[b].bytes + 63) / 64 * 64;
        }
    m->stats.data_bytes = off;
}

/* Verify, optimize with default<O3> for tm, verify again, emit the PTX
 * into m.  -1 + error. */
static int codegen(KlvGpuModule *m, LLVMModuleRef mod, LLVMTargetMachineRef tm, GirError *e)
{
    char *msg = NULL, *triple = LLVMGetTargetMachineTriple(tm);
    LLVMMemoryBufferRef out = NULL;
    double t0 = now_ms();
    if (klv_verify_optimize(mod, tm, triple, "lowered", e) < 0) {
        LLVMDisposeMessage(triple);
        return -1;
    }
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        gir_error_at(e, gir_loc_none(), "llvm: the optimized module does not verify: %.900s", msg);
        LLVMDisposeMessage(msg);
        LLVMDisposeMessage(triple);
        return -1;
    }
    LLVMDisposeMessage(msg);
    msg = NULL;
    LLVMDisposeMessage(triple);
    mark_used(m, mod);
    m->stats.opt_ms = now_ms() - t0;
    t0 = now_ms();
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &out)) {
        gir_error_at(e, gir_loc_none(), "llvm: PTX code generation: %s", msg ? msg : "failed");
        LLVMDisposeMessage(msg);
        return -1;
    }
    m->ptx_len = LLVMGetBufferSize(out);
    m->ptx = malloc(m->ptx_len + 1);
    if (m->ptx) {
        memcpy(m->ptx, LLVMGetBufferStart(out), m->ptx_len);
        m->ptx[m->ptx_len] = '\0';
    }
    LLVMDisposeMemoryBuffer(out);
    m->stats.ptx_ms = now_ms() - t0;
    m->stats.ptx_bytes = (int64_t)m->ptx_len;
    return m->ptx ? 0 : gir_error_at(e, gir_loc_none(), "out of memory");
}

KlvGpuModule *klv_gpu_compile(const GirGraph *g, const KlvTarget *t, GirError *e)
{
    KlvGpuModule *m = calloc(1, sizeof *m);
    LLVMTargetMachineRef tm;
    LLVMContextRef ctx;
    KlvIr ir;
    double t0 = now_ms();
    int i, rc = 0;
    if (!m) {
        gir_error_at(e, gir_loc_none(), "out of memory");
        return NULL;
    }
    m->g = g;
    libdevice_path(m->libdevice, sizeof m->libdevice);
    if (!(tm = gpu_machine(t, e))) {
        free(m);
        return NULL;
    }
    {
        char *cpu = LLVMGetTargetMachineCPU(tm);
        snprintf(m->stats.cpu, sizeof m->stats.cpu, "%s", cpu);
        LLVMDisposeMessage(cpu);
    }
    m->stats.nodes = g->nnode;
    m->plans = calloc((size_t)g->nnode + 1, sizeof *m->plans);
    m->fused = calloc((size_t)g->nnode + 1, 1);
    m->host = calloc((size_t)g->nnode + 1, 1);
    if (!m->plans || !m->fused || !m->host)
        rc = gir_error_at(e, gir_loc_none(), "out of memory");
    if (rc == 0)
        rc = value_buffers(m, e);
    ctx = LLVMContextCreate();
    klv_ir_init(&ir, ctx, g->name ? g->name : "kiln");
    ir.vl = GPU_LANES;
    ir.count_ok = 1;
    ir.sized_ok = 1;
    for (i = 0; rc == 0 && i < g->nnode; i++)
        rc = lower_node(m, &ir, i, e);
    LLVMDisposeBuilder(ir.b);
    m->stats.ir_ms = now_ms() - t0;
    for (i = 0; i < m->nlaunch; i++)
        m->stats.launches += !m->launch[i].shape;
    if (rc == 0 && has_external(ir.mod))
        rc = link_libdevice(m, ir.mod, tm, e);
    if (rc == 0)
        rc = codegen(m, ir.mod, tm, e);
    LLVMDisposeModule(ir.mod);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    if (rc < 0) {
        klv_gpu_free(m);
        return NULL;
    }
    return m;
}

const char *klv_gpu_ptx(const KlvGpuModule *m, size_t *len)
{
    if (len)
        *len = m->ptx_len;
    return m->ptx;
}

const KlvGpuBuffer *klv_gpu_buffers(const KlvGpuModule *m, int *n)
{
    *n = m->nbuf;
    return m->buf;
}

const KlvGpuLaunch *klv_gpu_launches(const KlvGpuModule *m, int *n)
{
    *n = m->nlaunch;
    return m->launch;
}

const GirGraph *klv_gpu_graph(const KlvGpuModule *m)
{
    return m->g;
}

void klv_gpu_stats(const KlvGpuModule *m, KlvGpuStats *s)
{
    *s = m->stats;
}

int klv_gpu_write_data(const KlvGpuModule *m, const char *path, GirError *e)
{
    static const char zeros[64];
    FILE *f = fopen(path, "wb");
    int64_t at = 0;
    int b;
    if (!f)
        return gir_error_at(e, gir_loc_none(), "cannot write %s: %s", path, strerror(errno));
    for (b = 0; b < m->nbuf; b++) {
        const KlvGpuBuffer *bf = &m->buf[b];
        if (bf->offset < 0)
            continue;
        fwrite(zeros, 1, (size_t)(bf->offset - at), f);
        fwrite(bf->data, 1, (size_t)bf->bytes, f);
        at = bf->offset + bf->bytes;
    }
    fwrite(zeros, 1, (size_t)(m->stats.data_bytes - at), f);
    if (ferror(f) | fclose(f)) {
        unlink(path);
        return gir_error_at(e, gir_loc_none(), "cannot write %s: %s", path, strerror(errno));
    }
    return 0;
}

void klv_gpu_free(KlvGpuModule *m)
{
    int i, k;
    if (!m)
        return;
    for (i = 0; m->plans && i < m->g->nnode; i++)
        for (k = 0; k < m->plans[i].nowned; k++)
            free(m->plans[i].owned[k]);
    for (i = 0; i < m->nlaunch; i++)
        free(m->launch[i].args);
    free(m->plans);
    free(m->fused);
    free(m->host);
    free(m->launch);
    free(m->buf);
    free(m->ptx);
    free(m);
}

/* ---- values of run-time extent or shape --------------------------------------- */

void klv_gpu_types(const KlvGpuModule *m, GirType *rt)
{
    int v, axis;
    for (v = 0; v < m->g->nval; v++)
        if (!(m->buf[v].axis >= 0 && klv_bound_type(m->g, v, &rt[v], &axis)))
            rt[v] = m->g->vals[v].type;
}

int klv_gpu_size(const KlvGpuModule *m, KlvGpuLaunch *l, GirType *rt, void *const *in,
                 int64_t *dims, int64_t *bytes, GirError *e)
{
    const GirGraph *g = m->g;
    const GirNode *n = &g->nodes[l->node];
    GirTensor ins[64];
    const GirTensor *insp[64];
    GirType outs[16];
    int k, v = n->out[0];
    for (k = 0; k < n->nin; k++) {
        insp[k] = NULL;
        if (n->in[k] < 0)
            continue;
        ins[k].type = rt[n->in[k]];
        ins[k].data = in[k];
        insp[k] = &ins[k];
    }
    if (gir_shape_node(g, n, insp, outs, e) < 0)
        return -1;
    if ((*bytes = gir_type_bytes(&outs[0])) < 0 || outs[0].rank != g->vals[v].type.rank)
        return gir_error_at(e, n->loc, "node '%s': its output has no static shape at run time",
                            n->name);
    if (gir_type_numel(&outs[0]) >= ((int64_t)1 << 31))
        return gir_error_at(e, n->loc, "node '%s': %s of 2^31 or more elements, past what one "
                            "launch indexes", n->name, gir_op_name(n->op));
    memset(dims, 0, sizeof *dims * GIR_MAX_RANK);
    for (k = 0; k < outs[0].rank; k++)
        dims[k] = outs[0].dims[k];
    rt[v] = outs[0];
    set_range(l, gir_type_numel(&outs[0]));
    return 0;
}

int klv_gpu_counted(const KlvGpuModule *m, const KlvGpuLaunch *l, GirType *rt, int64_t cnt,
                    GirError *e)
{
    const GirNode *n = &m->g->nodes[l->node];
    int v = n->out[0], axis = m->buf[v].axis;
    GirType bt;
    if (!klv_bound_type(m->g, v, &bt, &axis) || cnt < 0 || cnt > bt.dims[axis])
        return gir_error_at(e, n->loc, "node '%s': its kernel gave an extent of %lld, past the "
                            "bound", n->name, (long long)cnt);
    rt[v] = bt;
    rt[v].dims[axis] = cnt;
    return 0;
}

void klv_gpu_shape(const KlvGpuModule *m, const KlvGpuLaunch *l, const GirType *rt, int64_t *y)
{
    const GirNode *n = &m->g->nodes[l->node];
    const GirType *x = &rt[n->in[0]];
    int64_t i, lo = gir_attr_int(n, "start", 0), cnt = gir_type_numel(&m->g->vals[n->out[0]].type);
    /* as eval_SHAPE: the output's static extent says where it ends */
    if (lo < 0)
        lo += x->rank;
    if (lo < 0)
        lo = 0;
    for (i = 0; i < cnt; i++)
        y[i] = x->dims[lo + i];
}

/* ---- the plan run on the host ------------------------------------------------- */

/* Host buffers of the plan: the used ones allocated, data copied in. */
static void **host_buffers(const KlvGpuModule *m, GirError *e)
{
    void **hb = calloc((size_t)m->nbuf + 1, sizeof *hb);
    int b;
    if (!hb) {
        gir_error_at(e, gir_loc_none(), "out of memory");
        return NULL;
    }
    for (b = 0; b < m->nbuf; b++) {
        if (!m->buf[b].used)
            continue;
        if (!(hb[b] = calloc((size_t)m->buf[b].bytes + 64, 1))) {
            gir_error_at(e, gir_loc_none(), "out of memory");
            break;
        }
        if (m->buf[b].data)
            memcpy(hb[b], m->buf[b].data, (size_t)m->buf[b].bytes);
    }
    if (b < m->nbuf) {
        while (b-- > 0)
            free(hb[b]);
        free(hb);
        return NULL;
    }
    return hb;
}

/* The launches in order with the bodies of jit: thread t of the grid runs
 * [t, t + 1) when t < range, with the plan's arguments (NULL for a
 * parameter the PTX does not read).  As a launcher on a GPU does: a
 * Shape launch writes its output from rt; before a launch with a dims
 * table its output is sized and the dims written; after one with a count,
 * the extent read back into rt. */
static int host_launches(const KlvGpuModule *m, KlvJit *jit, void **hb, GirType *rt, GirError *e)
{
    int l, k;
    for (l = 0; l < m->nlaunch; l++) {
        KlvGpuLaunch run = m->launch[l], *la = &run;
        const GirNode *n = &m->g->nodes[la->node];
        void (*fn)(void **, int64_t, int64_t), *addr, *args[MAX_ARGS];
        char body[48];
        int64_t t, bytes;
        if (la->shape) {
            klv_gpu_shape(m, la, rt, hb[la->args[1]]);
            continue;
        }
        if (la->sized >= 0) {
            void *in[64], *nb;
            for (k = 0; k < n->nin; k++)
                in[k] = n->in[k] >= 0 ? hb[n->in[k]] : NULL;
            if (klv_gpu_size(m, la, rt, in, hb[la->sized], &bytes, e) < 0)
                return -1;
            if (!(nb = calloc((size_t)bytes + 64, 1)))
                return gir_error_at(e, gir_loc_none(), "out of memory");
            free(hb[n->out[0]]);
            hb[n->out[0]] = nb;
        }
        snprintf(body, sizeof body, "kiln_node_%s", la->entry + strlen("kiln_gpu_"));
        if (klv_jit_lookup(jit, body, &addr, e) < 0)
            return -1;
        memcpy(&fn, &addr, sizeof fn);
        for (k = 0; k < la->nargs; k++)
            args[k] = la->args[k] >= 0 ? hb[la->args[k]] : NULL;
        for (t = 0; t < la->grid * la->block; t++)
            if (t < la->range)
                fn(args, t, t + 1);
        if (la->count >= 0 && klv_gpu_counted(m, la, rt, *(const int64_t *)hb[la->count], e) < 0)
            return -1;
    }
    return 0;
}

int klv_gpu_run_host(const KlvGpuModule *m, const GirTensor *inputs, GirTensor *outputs,
                     GirArena *arena, GirError *e)
{
    const GirGraph *g = m->g;
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    KlvPlan plan;
    KlvJit jit;
    KlvIr ir;
    void **hb = NULL;
    GirType *rt = calloc((size_t)g->nval + 1, sizeof *rt);
    int i, k, rc = rt ? 0 : gir_error_at(e, gir_loc_none(), "out of memory");
    memset(&jit, 0, sizeof jit);
    klv_ir_init(&ir, LLVMOrcThreadSafeContextGetContext(tsc), "kiln_gpu_host");
    ir.vl = GPU_LANES;
    ir.count_ok = 1;
    ir.sized_ok = 1;
    for (i = 0; rc == 0 && i < g->nnode; i++) {
        char body[48];
        int chain[KLV_CHAIN_MAX];
        if (m->fused[i] || m->host[i])
            continue;
        snprintf(body, sizeof body, "kiln_node_%d", i);
        /* the chains of the PTX (the bodies take the same arguments) */
        ir.nchain = gpu_chain(g, i, m->libdevice[0] != '\0', chain);
        ir.chain = chain;
        if (klv_lower_node(&ir, g, &g->nodes[i], body, &plan, e) != 1)
            rc = gir_error_at(e, gir_loc_none(), "node %d lowers for NVPTX but not for the host", i);
        ir.chain = NULL;
        ir.nchain = 0;
        for (k = 0; k < plan.nowned; k++)
            free(plan.owned[k]);
    }
    LLVMDisposeBuilder(ir.b);
    if (rc < 0)
        LLVMDisposeModule(ir.mod);
    else
        rc = klv_jit_compile(&jit, tsc, ir.mod, 3, e);
    LLVMOrcDisposeThreadSafeContext(tsc);
    if (rc == 0 && !(hb = host_buffers(m, e)))
        rc = -1;
    for (i = 0; rc == 0 && i < g->ninput; i++) {
        const GirValue *v = &g->vals[g->inputs[i]];
        if (!gir_type_equal(&inputs[i].type, &v->type)) {
            char a[128], b[128];
            rc = gir_error_at(e, v->loc, "input '%s' is %s, the compiled graph takes %s", v->name,
                              gir_type_str(&inputs[i].type, a, sizeof a),
                              gir_type_str(&v->type, b, sizeof b));
        } else {
            memcpy(hb[g->inputs[i]], inputs[i].data, (size_t)gir_type_bytes(&v->type));
        }
    }
    if (rc == 0) {
        klv_gpu_types(m, rt);
        rc = host_launches(m, &jit, hb, rt, e);
    }
    for (i = 0; rc == 0 && i < g->noutput; i++) {
        size_t bytes = (size_t)gir_type_bytes(&rt[g->outputs[i]]);
        outputs[i].type = rt[g->outputs[i]];
        outputs[i].data = gir_arena_alloc(arena, bytes + 1);
        memcpy(outputs[i].data, hb[g->outputs[i]], bytes);
    }
    for (i = 0; hb && i < m->nbuf; i++)
        free(hb[i]);
    free(hb);
    free(rt);
    klv_jit_free(&jit);
    return rc;
}
