/*
 * Ahead-of-time objects: the kernels of klv_compile's emitters and one entry
 * point that runs them in node order on the calling thread, compiled for a
 * given triple and CPU into a relocatable object (PIC), with a C header.
 *
 * Memory: every value the kernels write (and each graph input, copied in at
 * the start) is a zero-initialized internal global of its own (.bss), as
 * are the zero-bordered input copies of padded Conv; the outputs are copied
 * out at the end.  So the entry point allocates nothing and cannot fail,
 * and one object runs one call at a time (it is not reentrant).
 * Constants (weights, packed weights, requantize multipliers, gather
 * tables) are private constant globals.  Each kernel's argument array is a
 * private constant too, so LLVM sees every buffer as a distinct global of
 * known size and drops the data no kernel reads (the unpacked weights of
 * blocked Conv, whose packed copy is what the kernel reads).
 * The object needs libc (memcpy, memset) and libm (expf, tanhf) only.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "internal.h"

/* The module being built and the globals made so far. */
typedef struct {
    KlvIr ir;              /* builder state; ir.mod is the object's module */
    const GirGraph *g;     /* the graph */
    const KlvTarget *t;    /* the target (its records) */
    LLVMValueRef *val;     /* per value id: its global, made on first use */
    LLVMValueRef *cnt;     /* per value id: for an output of data-dependent extent,
                              the global its kernel writes the extent into */
    int nglobal;           /* globals made, for unique names */
} Aot;

static pthread_once_t targets_once = PTHREAD_ONCE_INIT;

static void init_targets(void)
{
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    LLVMInitializeAArch64TargetInfo();
    LLVMInitializeAArch64Target();
    LLVMInitializeAArch64TargetMC();
    LLVMInitializeAArch64AsmPrinter();
}

/* 1 when the triple's architecture (before the first '-') is arch. */
static int has_arch(const char *triple, const char *arch)
{
    size_t n = strlen(arch);
    return strncmp(triple, arch, n) == 0 && (triple[n] == '-' || triple[n] == '\0');
}

/* NULL when s can name the entry point: a C identifier that is not one of
 * the library functions the kernels or code generation call, nor a
 * kernel's name; else why not. */
static const char *bad_symbol(const char *s)
{
    static const char *const taken[] = {"memcpy", "memmove", "memset", "expf", "tanhf",
                                        "rint", "rintf", "main"};
    size_t k;
    if (!s || !(isalpha((unsigned char)s[0]) || s[0] == '_') || strlen(s) > 200)
        return "not a C identifier";
    for (k = 1; s[k]; k++)
        if (!(isalnum((unsigned char)s[k]) || s[k] == '_'))
            return "not a C identifier";
    for (k = 0; k < sizeof taken / sizeof taken[0]; k++)
        if (strcmp(s, taken[k]) == 0)
            return "the name of a C library function the object calls";
    if (strncmp(s, "kiln_node_", 10) == 0)
        return "kiln_node_* names the object's kernels";
    return NULL;
}

/* ---- the target machine --------------------------------------------------- */

/* LLVMCreateTargetMachine with LLVM's warnings on stderr captured: LLVM
 * takes an unknown CPU or feature as a warning ("... is not a recognized
 * processor for this target (ignoring processor)") and goes on; here it is
 * an error.  For the call, fd 2 goes to a temporary file (what else LLVM
 * says there is passed on).  NULL + error. */
LLVMTargetMachineRef klv_checked_machine(LLVMTargetRef tgt, const char *triple, const char *cpu,
                                         const char *feat, const char *shown, GirError *e)
{
    FILE *cap = tmpfile();
    int saved = -1;
    char said[512] = "", *end;
    LLVMTargetMachineRef tm;
    fflush(stderr);
    if (cap && (saved = dup(2)) >= 0)
        dup2(fileno(cap), 2);
    tm = LLVMCreateTargetMachine(tgt, triple, cpu, feat, LLVMCodeGenLevelAggressive,
                                 LLVMRelocPIC, LLVMCodeModelDefault);
    if (saved >= 0) {
        size_t got;
        dup2(saved, 2);
        close(saved);
        rewind(cap);
        got = fread(said, 1, sizeof said - 1, cap);
        said[got] = '\0';
    }
    if (cap)
        fclose(cap);
    if (!tm) {
        gir_error_at(e, gir_loc_none(), "llvm: no target machine for %s", triple);
        return NULL;
    }
    if (strstr(said, "not a recognized processor")) {
        LLVMDisposeTargetMachine(tm);
        gir_error_at(e, gir_loc_none(), "unknown CPU '%s' for %s", cpu, shown);
        return NULL;
    }
    if ((end = strstr(said, " is not a recognized feature"))) {
        const char *start = end;
        while (start > said && start[-1] != '\n')
            start--;
        LLVMDisposeTargetMachine(tm);
        gir_error_at(e, gir_loc_none(), "unknown target feature %.*s for %s", (int)(end - start),
                     start, shown);
        return NULL;
    }
    if (said[0])
        fputs(said, stderr); /* anything else LLVM said, passed on */
    return tm;
}

/* f32 lanes of the widest vector registers tm generates code for: 8 on
 * aarch64 (two NEON registers per accumulator); on x86-64 found by
 * compiling a <16 x float> add and looking at the registers it uses (zmm:
 * 16, ymm: 8, else 4), since the CPU name implies features the C API does
 * not list. */
static int machine_lanes(LLVMTargetMachineRef tm, const char *triple)
{
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMTypeRef ptr, vt, fty;
    LLVMValueRef fn, p, v;
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    int lanes = 4;
    if (!has_arch(triple, "x86_64"))
        return 8;
    ctx = LLVMContextCreate();
    mod = LLVMModuleCreateWithNameInContext("probe", ctx);
    b = LLVMCreateBuilderInContext(ctx);
    ptr = LLVMPointerTypeInContext(ctx, 0);
    vt = LLVMVectorType(LLVMFloatTypeInContext(ctx), 16);
    fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), &ptr, 1, 0);
    fn = LLVMAddFunction(mod, "probe", fty);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    p = LLVMGetParam(fn, 0);
    v = LLVMBuildLoad2(b, vt, p, "");
    LLVMBuildStore(b, LLVMBuildFAdd(b, v, v, ""), p);
    LLVMBuildRetVoid(b);
    LLVMSetTarget(mod, triple);
    if (!LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &buf)) {
        const char *s = LLVMGetBufferStart(buf);
        size_t n = LLVMGetBufferSize(buf), k;
        for (k = 0; k + 3 <= n; k++) {
            if (memcmp(s + k, "zmm", 3) == 0) {
                lanes = 16;
                break;
            }
            if (memcmp(s + k, "ymm", 3) == 0)
                lanes = 8;
        }
        LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeMessage(msg);
    LLVMDisposeBuilder(b);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    return lanes;
}

/* x86-64 CPUs of LLVM 16 by the features X86.td gives them that decide
 * VNNI: AVX512-VNNI, AVX512VL, AVX-VNNI.  A CPU not listed gets them only
 * from the feature string. */
static const struct {
    const char *cpu;           /* LLVM's name */
    int avx512vnni, vl, avxvnni; /* 1: has the feature */
} x86_cpus[] = {
    {"cascadelake", 1, 1, 0}, {"cooperlake", 1, 1, 0}, {"icelake-client", 1, 1, 0},
    {"icelake-server", 1, 1, 0}, {"tigerlake", 1, 1, 0}, {"rocketlake", 1, 1, 0},
    {"sapphirerapids", 1, 1, 1}, {"znver4", 1, 1, 0}, {"alderlake", 0, 0, 1},
    {"raptorlake", 0, 0, 1}, {"meteorlake", 0, 0, 1}, {"skylake-avx512", 0, 1, 0},
    {"x86-64-v4", 0, 1, 0},
};

int klv_x86_vnni(const char *cpu, const char *features, int host_features, int lanes)
{
    int v512 = 0, vl = 0, avxv = 0, r = 0;
    const char *f = features ? features : "";
    size_t i;
    for (i = 0; !host_features && cpu && i < sizeof x86_cpus / sizeof x86_cpus[0]; i++)
        if (strcmp(cpu, x86_cpus[i].cpu) == 0) {
            v512 = x86_cpus[i].avx512vnni;
            vl = x86_cpus[i].vl;
            avxv = x86_cpus[i].avxvnni;
        }
    /* "+name" / "-name", comma separated, in order; taking away a feature
     * these need takes them away (as LLVM does), adding them adds what
     * they need (and the vector width says whether that stuck) */
    while (*f) {
        const char *end = strchr(f, ',');
        size_t len = end ? (size_t)(end - f) : strlen(f);
        int on = f[0] == '+';
#define IS(name) (len == strlen(name) + 1 && strncmp(f + 1, name, len - 1) == 0)
        if (IS("avx512vnni"))
            v512 = on;
        else if (IS("avx512vl"))
            vl = on;
        else if (IS("avxvnni"))
            avxv = on;
        else if (!on && IS("avx512f"))
            v512 = vl = 0;
        else if (!on && (IS("avx2") || IS("avx")))
            v512 = vl = avxv = 0;
#undef IS
        f += len + (end != NULL);
    }
    if (v512 && lanes == 16)
        r |= KLV_VNNI_512;
    if ((v512 && vl && lanes == 16) || (avxv && lanes >= 8))
        r |= KLV_VNNI_256;
    return r;
}

/* The target machine of t (PIC, O3); its normalized triple into *triple
 * (LLVMDisposeMessage it).  NULL + error naming the bad triple or CPU. */
static LLVMTargetMachineRef target_machine(const KlvTarget *t, char **triple, GirError *e)
{
    LLVMTargetRef tgt;
    LLVMTargetMachineRef tm;
    char *msg = NULL;
    const char *cpu = t->cpu && t->cpu[0] ? t->cpu : "generic";
    pthread_once(&targets_once, init_targets);
    *triple = NULL;
    if (!t->triple || !t->triple[0]) {
        gir_error_at(e, gir_loc_none(), "no target triple given");
        return NULL;
    }
    *triple = LLVMNormalizeTargetTriple(t->triple);
    /* little-endian 64-bit targets only: constants are embedded as the
     * host's bytes, and the header promises x86-64 or aarch64 */
    if (!(has_arch(*triple, "x86_64") || has_arch(*triple, "aarch64") || has_arch(*triple, "arm64")) ||
        LLVMGetTargetFromTriple(*triple, &tgt, &msg)) {
        LLVMDisposeMessage(msg);
        gir_error_at(e, gir_loc_none(),
                     "unknown target triple '%s' (objects are made for x86_64 and aarch64 "
                     "triples, e.g. x86_64-linux-gnu, aarch64-linux-gnu)",
                     t->triple);
        LLVMDisposeMessage(*triple);
        *triple = NULL;
        return NULL;
    }
    if (strcmp(cpu, "host") == 0) {
        /* this machine's CPU and features, as the JIT and kiln tune use */
        char *hc = LLVMGetHostCPUName(), *hf = LLVMGetHostCPUFeatures();
        tm = klv_checked_machine(tgt, *triple, hc, t->features && t->features[0] ? t->features : hf,
                                 t->triple, e);
        LLVMDisposeMessage(hc);
        LLVMDisposeMessage(hf);
    } else
        tm = klv_checked_machine(tgt, *triple, cpu, t->features ? t->features : "", t->triple, e);
    if (!tm) {
        LLVMDisposeMessage(*triple);
        *triple = NULL;
    }
    return tm;
}

/* ---- globals ---------------------------------------------------------------- */

/* A private constant global holding bytes of data. */
static LLVMValueRef const_global(Aot *a, const void *data, int64_t bytes)
{
    char name[32];
    LLVMValueRef init = LLVMConstStringInContext(a->ir.ctx, data ? data : "", (unsigned)bytes, 1);
    LLVMValueRef gv;
    snprintf(name, sizeof name, "kiln_c%d", a->nglobal++);
    gv = LLVMAddGlobal(a->ir.mod, LLVMTypeOf(init), name);
    LLVMSetInitializer(gv, init);
    LLVMSetGlobalConstant(gv, 1);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(gv, 64);
    return gv;
}

/* A zero-initialized internal global of bytes (a buffer in .bss). */
static LLVMValueRef zero_global(Aot *a, int64_t bytes)
{
    char name[32];
    LLVMTypeRef t = LLVMArrayType(a->ir.i8, (unsigned)(bytes > 0 ? bytes : 1));
    LLVMValueRef gv;
    snprintf(name, sizeof name, "kiln_b%d", a->nglobal++);
    gv = LLVMAddGlobal(a->ir.mod, t, name);
    LLVMSetInitializer(gv, LLVMConstNull(t));
    LLVMSetLinkage(gv, LLVMInternalLinkage);
    LLVMSetAlignment(gv, 64);
    return gv;
}

/* 1 when a node of g reads value v. */
static int is_read(const GirGraph *g, int v)
{
    int i, k;
    for (i = 0; i < g->nnode; i++)
        for (k = 0; k < g->nodes[i].nin; k++)
            if (g->nodes[i].in[k] == v)
                return 1;
    return 0;
}

/* Bytes of value v's buffer in an object: its type's, or for a graph
 * output of data-dependent extent that no node reads (klv_bound_type) the
 * most it can hold, with *unit the bytes per entry of that axis (0 for
 * the others); -1 when the type is not static otherwise. */
static int64_t object_bytes(const GirGraph *g, int v, int64_t *unit)
{
    int64_t bytes = gir_type_bytes(&g->vals[v].type);
    GirType bt;
    int ax;
    *unit = 0;
    if (bytes >= 0 || !klv_is_output(g, v) || is_read(g, v) || !klv_bound_type(g, v, &bt, &ax))
        return bytes;
    bytes = gir_type_bytes(&bt);
    *unit = bt.dims[ax] > 0 ? bytes / bt.dims[ax] : 0;
    return bytes;
}

/* The global of value v: its data for a constant, else a buffer. */
static LLVMValueRef value_global(Aot *a, int v)
{
    const GirValue *val = &a->g->vals[v];
    if (!a->val[v]) {
        int64_t unit, bytes = object_bytes(a->g, v, &unit);
        a->val[v] = val->kind == GIR_VAL_CONST ? const_global(a, val->data, bytes)
                                               : zero_global(a, bytes);
    }
    return a->val[v];
}

/* Every value needs a static shape (or, a graph output no node reads, a
 * bound on its data-dependent extent) and fewer than 4 GiB. */
static int check_sizes(const GirGraph *g, GirError *e)
{
    int v;
    for (v = 0; v < g->nval; v++) {
        int64_t unit, bytes = object_bytes(g, v, &unit);
        if (bytes < 0) {
            char ty[128];
            return gir_error_at(e, g->vals[v].loc, "an object needs static shapes: value '%s' is %s",
                                g->vals[v].name, gir_type_str(&g->vals[v].type, ty, sizeof ty));
        }
        if (bytes >= (int64_t)1 << 32)
            return gir_error_at(e, g->vals[v].loc, "value '%s' is 4 GiB or more", g->vals[v].name);
    }
    return 0;
}

/* ---- the module ----------------------------------------------------------- */

/* The private constant argument array of node n's kernels: its inputs'
 * globals (null for an absent input), its outputs', then the plan's tables
 * and scratch buffers, then for a fused chain (chain.c; plan->chained of
 * chain) each binary link's other operand (null for the rest), the output
 * then being the last link's. */
static LLVMValueRef args_global(Aot *a, const GirNode *n, const KlvPlan *plan, const int *chain,
                                GirError *e)
{
    LLVMValueRef el[64 + 16 + 8 + KLV_CHAIN_MAX], init, gv;
    char name[48];
    int k, m = 0;
    if (n->nin > 64 || n->nout > 16) {
        gir_error_at(e, n->loc, "node '%s' has too many inputs or outputs", n->name);
        return NULL;
    }
    for (k = 0; k < n->nin; k++)
        el[m++] = n->in[k] >= 0 ? value_global(a, n->in[k]) : LLVMConstNull(a->ir.ptr);
    for (k = 0; k < n->nout; k++)
        el[m++] = value_global(a, n->out[k]);
    for (k = 0; k < plan->nextra; k++) {
        int64_t bytes = plan->extra_bytes[k];
        if (bytes <= 0 || (!plan->extra[k] && plan->extra_kind[k] == KLV_TABLE)) {
            gir_error_at(e, n->loc, "node '%s': a kernel table of unknown size", n->name);
            return NULL;
        }
        el[m++] = plan->extra_kind[k] == KLV_SCRATCH ? zero_global(a, bytes)
                                                    : const_global(a, plan->extra[k], bytes);
        if (plan->count == k + 1)
            a->cnt[n->out[0]] = el[m - 1];
    }
    for (k = 0; k < plan->chained; k++) {
        const GirNode *r = &a->g->nodes[chain[k]];
        int prev = k ? a->g->nodes[chain[k - 1]].out[0] : n->out[0];
        el[m++] = r->nin == 2 && r->op != GIR_OP_CLIP ? value_global(a, r->in[r->in[0] == prev ? 1 : 0])
                                                      : LLVMConstNull(a->ir.ptr);
        if (k == plan->chained - 1)
            el[n->nin] = value_global(a, r->out[0]);
    }
    init = LLVMConstArray(a->ir.ptr, el, (unsigned)m);
    snprintf(name, sizeof name, "kiln_args%d", a->nglobal++);
    gv = LLVMAddGlobal(a->ir.mod, LLVMTypeOf(init), name);
    LLVMSetInitializer(gv, init);
    LLVMSetGlobalConstant(gv, 1);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    return gv;
}

/* Call kernel `name` over its whole range.  The kernel becomes internal
 * and is kept out of line: inlined, every kernel would land in the one
 * entry function, which compiles 1.5x slower (YOLOv3-tiny 416) and runs
 * no faster.  Its one call site passes a constant argument array, which
 * LLVM's interprocedural constant propagation carries into the kernel. */
static void call_kernel(Aot *a, LLVMBuilderRef b, const char *name, LLVMValueRef args, int64_t range)
{
    LLVMValueRef fn = LLVMGetNamedFunction(a->ir.mod, name), av[3];
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(a->ir.ctx, noinline, 0));
    av[0] = args;
    av[1] = klv_i64(&a->ir, 0);
    av[2] = klv_i64(&a->ir, range);
    LLVMBuildCall2(b, a->ir.kty, fn, av, 3, "");
}

/* memcpy between a global buffer and the pointer at slot i of the pointer
 * array arr (to the global when in, else from it). */
static void copy_slot(Aot *a, LLVMBuilderRef b, LLVMValueRef arr, int i, LLVMValueRef gv,
                      int64_t bytes, int in)
{
    LLVMValueRef at = LLVMConstInt(a->ir.i64, (unsigned long long)i, 0);
    LLVMValueRef p = LLVMBuildLoad2(b, a->ir.ptr, LLVMBuildInBoundsGEP2(b, a->ir.ptr, arr, &at, 1, ""), "");
    if (bytes <= 0)
        return;
    if (in)
        LLVMBuildMemCpy(b, gv, 64, p, 1, klv_i64(&a->ir, bytes));
    else
        LLVMBuildMemCpy(b, p, 1, gv, 64, klv_i64(&a->ir, bytes));
}

/* Lower every node, then add the entry point SYMBOL.  -1 + error naming
 * the first node without a lowering.  The elementwise chains klv_compile
 * fuses into an fp32 Conv (chain.c) are fused here too: their nodes get
 * no kernel, and the values inside a chain (read by the chain alone, no
 * graph output) are never written. */
static int build_module(Aot *a, const char *symbol, GirError *e)
{
    const GirGraph *g = a->g;
    LLVMValueRef *argv = calloc((size_t)g->nnode + 1, sizeof *argv), fn, ins, outs;
    KlvPlan *plans = calloc((size_t)g->nnode + 1, sizeof *plans);
    unsigned char *fused = calloc((size_t)g->nnode + 1, 1);
    LLVMTypeRef pt[2], fty;
    LLVMBuilderRef b;
    int i, k, rc = -1;
    if (!argv || !plans || !fused) {
        gir_error_at(e, gir_loc_none(), "out of memory");
        goto out;
    }
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        char name[32];
        KlvSchedule sbuf;
        int r, chain[KLV_CHAIN_MAX];
        if (fused[i])
            continue;
        snprintf(name, sizeof name, "kiln_node_%d", i);
        a->ir.sched = a->t && a->t->records ? klv_pick_schedule(g, n, NULL, a->t->records, a->t, &sbuf)
                                            : NULL;
        if (n->op == GIR_OP_CONV && n->nout == 1) {
            a->ir.nchain = klv_chain_find(g, i, chain, KLV_CHAIN_MAX);
            a->ir.chain = chain;
        }
        r = klv_lower_node(&a->ir, g, n, name, &plans[i], e);
        a->ir.chain = NULL;
        a->ir.nchain = 0;
        a->ir.sched = NULL;
        if (r < 0)
            goto out;
        if (r == 0) {
            GirLoc at = n->loc; /* names the node, where the model does not */
            if (!at.node)
                at.node = n->name;
            gir_error_at(e, at,
                         "%s has no lowering in the CPU back end, and an object has no "
                         "interpreter to run it",
                         gir_op_name(n->op));
            goto out;
        }
        if (!(argv[i] = args_global(a, n, &plans[i], chain, e)))
            goto out;
        for (k = 0; k < plans[i].chained; k++)
            fused[chain[k]] = 1;
    }
    if (LLVMGetNamedFunction(a->ir.mod, symbol)) {
        gir_error_at(e, gir_loc_none(), "symbol '%s' is taken by a function the kernels call", symbol);
        goto out;
    }
    pt[0] = pt[1] = a->ir.ptr;
    fty = LLVMFunctionType(a->ir.i32, pt, 2, 0);
    fn = LLVMAddFunction(a->ir.mod, symbol, fty);
    b = a->ir.b;
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(a->ir.ctx, fn, "entry"));
    ins = LLVMGetParam(fn, 0);
    outs = LLVMGetParam(fn, 1);
    for (k = 0; k < g->ninput; k++)
        copy_slot(a, b, ins, k, value_global(a, g->inputs[k]),
                  gir_type_bytes(&g->vals[g->inputs[k]].type), 1);
    for (i = 0; i < g->nnode; i++) {
        char name[40];
        if (fused[i])
            continue;
        if (plans[i].pre) {
            snprintf(name, sizeof name, "kiln_node_%d_pre", i);
            call_kernel(a, b, name, argv[i], plans[i].pre_range);
        }
        snprintf(name, sizeof name, "kiln_node_%d", i);
        call_kernel(a, b, name, argv[i], plans[i].range);
    }
    for (k = 0, i = 0; k < g->noutput; k++) {
        int v = g->outputs[k];
        int64_t unit, bytes = object_bytes(g, v, &unit);
        LLVMValueRef at, p, c, slot;
        if (gir_type_bytes(&g->vals[v].type) >= 0) {
            copy_slot(a, b, outs, k, value_global(a, v), bytes, 0);
            continue;
        }
        /* data-dependent extent: its entries' bytes, and the extent into
         * the int64_t at outputs[noutput + i] */
        if (!a->cnt[v]) {
            gir_error_at(e, g->vals[v].loc, "output '%s': no kernel gives its extent", g->vals[v].name);
            goto out;
        }
        c = LLVMBuildLoad2(b, a->ir.i64, a->cnt[v], "");
        at = LLVMConstInt(a->ir.i64, (unsigned long long)k, 0);
        p = LLVMBuildLoad2(b, a->ir.ptr, LLVMBuildInBoundsGEP2(b, a->ir.ptr, outs, &at, 1, ""), "");
        LLVMBuildMemCpy(b, p, 1, value_global(a, v), 64, klv_mul(&a->ir, c, klv_i64(&a->ir, unit)));
        at = LLVMConstInt(a->ir.i64, (unsigned long long)(g->noutput + i++), 0);
        slot = LLVMBuildLoad2(b, a->ir.ptr, LLVMBuildInBoundsGEP2(b, a->ir.ptr, outs, &at, 1, ""), "");
        LLVMBuildStore(b, c, slot);
    }
    LLVMBuildRet(b, LLVMConstInt(a->ir.i32, 0, 0));
    rc = 0;
out:
    for (i = 0; plans && i < g->nnode; i++)
        for (k = 0; k < plans[i].nowned; k++)
            free(plans[i].owned[k]);
    free(plans);
    free(argv);
    free(fused);
    return rc;
}

int klv_verify_optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, const char *triple,
                        const char *what, GirError *e)
{
    char *msg = NULL;
    LLVMTargetDataRef dl;
    LLVMPassBuilderOptionsRef po;
    LLVMErrorRef err;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        gir_error_at(e, gir_loc_none(), "llvm: the %s module does not verify: %.900s", what, msg);
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMDisposeMessage(msg);
    LLVMSetTarget(mod, triple);
    dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, dl);
    LLVMDisposeTargetData(dl);
    po = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(po, 1);
    LLVMPassBuilderOptionsSetSLPVectorization(po, 1);
    LLVMPassBuilderOptionsSetLoopUnrolling(po, 1);
    err = LLVMRunPasses(mod, "default<O3>", tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (err) {
        char *m = LLVMGetErrorMessage(err);
        gir_error_at(e, gir_loc_none(), "llvm: optimization: %s", m);
        LLVMDisposeErrorMessage(m);
        return -1;
    }
    return 0;
}

/* Verify, optimize with default<O3> for tm and write the object. */
static int emit(LLVMModuleRef mod, LLVMTargetMachineRef tm, const char *triple, const char *path,
                GirError *e)
{
    char *msg = NULL;
    if (klv_verify_optimize(mod, tm, triple, "lowered", e) < 0)
        return -1;
    if (LLVMTargetMachineEmitToFile(tm, mod, path, LLVMObjectFile, &msg)) {
        gir_error_at(e, gir_loc_none(), "cannot write %s: %s", path, msg ? msg : "LLVM failed");
        LLVMDisposeMessage(msg);
        unlink(path);
        return -1;
    }
    return 0;
}

int klv_emit_object(const GirGraph *g, const KlvTarget *t, const char *symbol,
                    const char *obj_path, GirError *e)
{
    Aot a;
    char *triple = NULL;
    LLVMTargetMachineRef tm;
    LLVMContextRef ctx;
    int rc;
    const char *why = bad_symbol(symbol);
    if (why)
        return gir_error_at(e, gir_loc_none(), "bad entry point name '%s': %s", symbol ? symbol : "",
                            why);
    if (check_sizes(g, e) < 0 || !(tm = target_machine(t, &triple, e)))
        return -1;
    memset(&a, 0, sizeof a);
    a.g = g;
    a.t = t;
    a.val = calloc((size_t)g->nval + 1, sizeof *a.val);
    a.cnt = calloc((size_t)g->nval + 1, sizeof *a.cnt);
    ctx = LLVMContextCreate();
    klv_ir_init(&a.ir, ctx, g->name ? g->name : "kiln");
    a.ir.count_ok = 1;
    a.ir.vl = machine_lanes(tm, triple);
    if (has_arch(triple, "x86_64")) {
        const char *cpu = t->cpu && t->cpu[0] ? t->cpu : "generic";
        if (strcmp(cpu, "host") == 0) {
            char *hf = LLVMGetHostCPUFeatures();
            a.ir.vnni = klv_x86_vnni(cpu, t->features && t->features[0] ? t->features : hf, 1,
                                     a.ir.vl);
            LLVMDisposeMessage(hf);
        } else
            a.ir.vnni = klv_x86_vnni(cpu, t->features, 0, a.ir.vl);
    }
    rc = a.val && a.cnt ? build_module(&a, symbol, e) : gir_error_at(e, gir_loc_none(), "out of memory");
    if (rc == 0)
        rc = emit(a.ir.mod, tm, triple, obj_path, e);
    LLVMDisposeBuilder(a.ir.b);
    LLVMDisposeModule(a.ir.mod);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    LLVMDisposeMessage(triple);
    free(a.val);
    free(a.cnt);
    return rc;
}

/* ---- the header ------------------------------------------------------------- */

/* One comment line per tensor: slot, name, dtype, shape, bytes; for an
 * output of data-dependent extent (count slot slot) the most it holds. */
static void describe(FILE *f, const GirGraph *g, const char *what, int k, int v, int slot)
{
    char ty[256];
    int64_t unit, bytes = object_bytes(g, v, &unit);
    fprintf(f, " *   %s[%d]: '%s', %s, %s%lld bytes\n", what, k, g->vals[v].name,
            gir_type_str(&g->vals[v].type, ty, sizeof ty), unit ? "at most " : "", (long long)bytes);
    if (unit)
        fprintf(f, " *     (the extent of its '?' axis goes to *(int64_t *)outputs[%d]; the data\n"
                   " *     fills extent x %lld bytes)\n", g->noutput + slot, (long long)unit);
}

/* The byte counts of the values ids[0..n) as a brace list macro (an
 * output of data-dependent extent: its buffer's, the most it holds). */
static void bytes_macro(FILE *f, const char *up, const char *what, const GirGraph *g, const int *ids, int n)
{
    int k;
    int64_t unit;
    fprintf(f, "#define %s_%s_BYTES {", up, what);
    for (k = 0; k < n; k++)
        fprintf(f, "%s%lld", k ? ", " : "", (long long)object_bytes(g, ids[k], &unit));
    fprintf(f, "%s}\n", n ? "" : "0");
}

int klv_emit_header(const GirGraph *g, const char *symbol, const char *hdr_path, GirError *e)
{
    FILE *f;
    char up[256];
    size_t k;
    int i, nc;
    int64_t unit;
    const char *why = bad_symbol(symbol);
    if (why)
        return gir_error_at(e, gir_loc_none(), "bad entry point name '%s': %s", symbol ? symbol : "",
                            why);
    for (k = 0; symbol[k] && k < sizeof up - 1; k++)
        up[k] = (char)toupper((unsigned char)symbol[k]);
    up[k] = '\0';
    if (!(f = fopen(hdr_path, "w")))
        return gir_error_at(e, gir_loc_none(), "cannot write %s: %s", hdr_path, strerror(errno));
    fprintf(f, "/* Entry point of the object kiln lower made from model '%s'. */\n"
               "#ifndef KILN_%s_H\n#define KILN_%s_H\n\n"
               "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n",
            g->name ? g->name : "", up, up);
    fprintf(f, "/*\n * Runs the model once on the calling thread and returns 0.  inputs[i] and\n"
               " * outputs[i] point at the dense data of each tensor in its type (row major):\n");
    for (i = 0; i < g->ninput; i++)
        describe(f, g, "inputs", i, g->inputs[i], 0);
    for (i = 0, nc = 0; i < g->noutput; i++) {
        describe(f, g, "outputs", i, g->outputs[i], nc);
        nc += object_bytes(g, g->outputs[i], &unit) >= 0 && unit > 0;
    }
    fprintf(f, " * The buffers must not overlap.  The intermediate tensors are static\n"
               " * buffers of the object: one call at a time.  Link with -lm.\n */\n"
               "int %s(const void *const *inputs, void *const *outputs);\n\n", symbol);
    fprintf(f, "#define %s_INPUTS %d\n#define %s_OUTPUTS %d\n", up, g->ninput, up, g->noutput);
    bytes_macro(f, up, "INPUT", g, g->inputs, g->ninput);
    bytes_macro(f, up, "OUTPUT", g, g->outputs, g->noutput);
    /* outputs of data-dependent extent: how many, and per output the bytes
     * per entry of that axis (0: a static output) */
    fprintf(f, "#define %s_COUNTS %d\n#define %s_OUTPUT_UNIT_BYTES {", up, nc, up);
    for (i = 0; i < g->noutput; i++) {
        object_bytes(g, g->outputs[i], &unit);
        fprintf(f, "%s%lld", i ? ", " : "", (long long)unit);
    }
    fprintf(f, "%s}\n", g->noutput ? "" : "0");
    fprintf(f, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
    if (ferror(f) | fclose(f)) {
        unlink(hdr_path);
        return gir_error_at(e, gir_loc_none(), "cannot write %s: %s", hdr_path, strerror(errno));
    }
    return 0;
}
