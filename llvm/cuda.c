/*
 * The launcher of the GPU target: the CUDA driver API, opened with dlopen
 * (libcuda.so.1, the name the NVIDIA driver installs; KILN_LIBCUDA names
 * another file) and resolved with dlsym, so kiln needs neither the CUDA
 * headers nor the toolkit to build.  The few types used are declared here
 * as the driver's ABI has them (handles are pointers, CUdeviceptr a 64-bit
 * integer, CUresult an int).  Symbols are the ABI names the driver has
 * exported since CUDA 4 (cuCtxCreate_v2, cuMemAlloc_v2, ...): the CUDA
 * headers map the plain names onto them.
 *
 * This code has not run on a GPU: the machine it was written on has no
 * NVIDIA device (it was checked against the toolkit's stub library, whose
 * every call fails with CUDA_ERROR_STUB_LIBRARY).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef int CUresult;                   /* CUDA_SUCCESS is 0 */
typedef int CUdevice;                   /* a device ordinal */
typedef void *CUcontext;                /* opaque handles */
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr; /* a device address */

#define CC_MAJOR 75 /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
#define CC_MINOR 76 /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR */
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6

/* The driver entry points kiln calls. */
typedef struct {
    CUresult (*Init)(unsigned flags);                                /* cuInit */
    CUresult (*DeviceGetCount)(int *count);                          /* cuDeviceGetCount */
    CUresult (*DeviceGet)(CUdevice *dev, int ordinal);               /* cuDeviceGet */
    CUresult (*DeviceGetAttribute)(int *v, int attr, CUdevice dev);  /* cuDeviceGetAttribute */
    CUresult (*CtxCreate)(CUcontext *ctx, unsigned flags, CUdevice dev); /* cuCtxCreate_v2 */
    CUresult (*CtxDestroy)(CUcontext ctx);                           /* cuCtxDestroy_v2 */
    CUresult (*CtxSynchronize)(void);                                /* cuCtxSynchronize */
    /* cuModuleLoadDataEx: PTX text, JIT options (keys, values) */
    CUresult (*ModuleLoadDataEx)(CUmodule *mod, const void *image, unsigned nopt, int *opts,
                                 void **vals);
    CUresult (*ModuleGetFunction)(CUfunction *fn, CUmodule mod, const char *name); /* by entry */
    CUresult (*ModuleUnload)(CUmodule mod);                          /* cuModuleUnload */
    CUresult (*MemAlloc)(CUdeviceptr *p, size_t bytes);              /* cuMemAlloc_v2 */
    CUresult (*MemFree)(CUdeviceptr p);                              /* cuMemFree_v2 */
    CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes); /* cuMemcpyHtoD_v2 */
    CUresult (*MemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes); /* cuMemcpyDtoH_v2 */
    CUresult (*MemsetD8)(CUdeviceptr dst, unsigned char v, size_t n); /* cuMemsetD8_v2 */
    /* cuLaunchKernel: grid, block, shared bytes, stream (NULL: the
     * default one), a pointer to each parameter's value, extra (NULL) */
    CUresult (*LaunchKernel)(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                             unsigned by, unsigned bz, unsigned shared, CUstream stream,
                             void **params, void **extra);
    CUresult (*GetErrorName)(CUresult r, const char **name);         /* cuGetErrorName */
} CuApi;

struct KlvCuda {
    void *lib;      /* the dlopen handle */
    CuApi api;      /* its entry points */
    CUdevice dev;   /* device 0 */
    CUcontext ctx;  /* its context, current on the opening thread */
    int major, minor; /* compute capability */
};

/* Symbol name and slot of each entry point. */
static const struct {
    const char *name; /* the exported ABI name */
    size_t at;        /* offset of its slot in CuApi */
} syms[] = {
    {"cuInit", offsetof(CuApi, Init)},
    {"cuDeviceGetCount", offsetof(CuApi, DeviceGetCount)},
    {"cuDeviceGet", offsetof(CuApi, DeviceGet)},
    {"cuDeviceGetAttribute", offsetof(CuApi, DeviceGetAttribute)},
    {"cuCtxCreate_v2", offsetof(CuApi, CtxCreate)},
    {"cuCtxDestroy_v2", offsetof(CuApi, CtxDestroy)},
    {"cuCtxSynchronize", offsetof(CuApi, CtxSynchronize)},
    {"cuModuleLoadDataEx", offsetof(CuApi, ModuleLoadDataEx)},
    {"cuModuleGetFunction", offsetof(CuApi, ModuleGetFunction)},
    {"cuModuleUnload", offsetof(CuApi, ModuleUnload)},
    {"cuMemAlloc_v2", offsetof(CuApi, MemAlloc)},
    {"cuMemFree_v2", offsetof(CuApi, MemFree)},
    {"cuMemcpyHtoD_v2", offsetof(CuApi, MemcpyHtoD)},
    {"cuMemcpyDtoH_v2", offsetof(CuApi, MemcpyDtoH)},
    {"cuMemsetD8_v2", offsetof(CuApi, MemsetD8)},
    {"cuLaunchKernel", offsetof(CuApi, LaunchKernel)},
    {"cuGetErrorName", offsetof(CuApi, GetErrorName)},
};

/* Names of the CUresults a run can meet, for a driver whose cuGetErrorName
 * fails (the toolkit's stub library answers every call with 34). */
static const struct {
    CUresult r;        /* the code */
    const char *name;  /* its enumerator in cuda.h */
} cu_names[] = {
    {1, "CUDA_ERROR_INVALID_VALUE"}, {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"}, {4, "CUDA_ERROR_DEINITIALIZED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"}, {35, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"}, {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"}, {200, "CUDA_ERROR_INVALID_IMAGE"},
    {201, "CUDA_ERROR_INVALID_CONTEXT"}, {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {218, "CUDA_ERROR_INVALID_PTX"}, {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {400, "CUDA_ERROR_INVALID_HANDLE"}, {500, "CUDA_ERROR_NOT_FOUND"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"}, {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT"}, {719, "CUDA_ERROR_LAUNCH_FAILED"},
    {999, "CUDA_ERROR_UNKNOWN"},
};

/* Report a failed driver call: "CALL (what): CUDA_ERROR_..."; -1.  0 when r
 * is CUDA_SUCCESS. */
static int cu_check(const KlvCuda *cu, CUresult r, const char *call, const char *what, GirError *e)
{
    const char *name = NULL;
    if (r == 0)
        return 0;
    size_t k;
    if (!cu->api.GetErrorName || cu->api.GetErrorName(r, &name) != 0 || !name)
        for (k = 0, name = "an unknown CUresult"; k < sizeof cu_names / sizeof cu_names[0]; k++)
            if (cu_names[k].r == r)
                name = cu_names[k].name;
    return gir_error_at(e, gir_loc_none(), "%s%s%s%s: %s (%d)", call, what ? " (" : "",
                        what ? what : "", what ? ")" : "", name, r);
}

KlvCuda *klv_cuda_open(int *no_driver, GirError *e)
{
    const char *path = getenv("KILN_LIBCUDA");
    KlvCuda *cu = calloc(1, sizeof *cu);
    size_t k;
    int count = 0;
    *no_driver = 0;
    if (!cu) {
        gir_error_at(e, gir_loc_none(), "out of memory");
        return NULL;
    }
    if (!path || !path[0])
        path = "libcuda.so.1";
    if (!(cu->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        const char *why = dlerror();
        *no_driver = 1;
        gir_error_at(e, gir_loc_none(), "cannot open %s (%s)", path, why ? why : "dlopen failed");
        free(cu);
        return NULL;
    }
    for (k = 0; k < sizeof syms / sizeof syms[0]; k++) {
        void *f = dlsym(cu->lib, syms[k].name);
        if (!f) {
            gir_error_at(e, gir_loc_none(), "%s has no symbol %s (a CUDA driver older than 4.0?)",
                         path, syms[k].name);
            klv_cuda_close(cu);
            return NULL;
        }
        memcpy((char *)&cu->api + syms[k].at, &f, sizeof f);
    }
    if (cu_check(cu, cu->api.Init(0), "cuInit", NULL, e) < 0 ||
        cu_check(cu, cu->api.DeviceGetCount(&count), "cuDeviceGetCount", NULL, e) < 0) {
        klv_cuda_close(cu);
        return NULL;
    }
    if (count < 1) {
        gir_error_at(e, gir_loc_none(), "the CUDA driver sees no device");
        klv_cuda_close(cu);
        return NULL;
    }
    if (cu_check(cu, cu->api.DeviceGet(&cu->dev, 0), "cuDeviceGet", NULL, e) < 0 ||
        cu_check(cu, cu->api.DeviceGetAttribute(&cu->major, CC_MAJOR, cu->dev),
                 "cuDeviceGetAttribute", "compute capability", e) < 0 ||
        cu_check(cu, cu->api.DeviceGetAttribute(&cu->minor, CC_MINOR, cu->dev),
                 "cuDeviceGetAttribute", "compute capability", e) < 0 ||
        cu_check(cu, cu->api.CtxCreate(&cu->ctx, 0, cu->dev), "cuCtxCreate", NULL, e) < 0) {
        klv_cuda_close(cu);
        return NULL;
    }
    return cu;
}

void klv_cuda_arch(const KlvCuda *cu, char *buf, size_t size)
{
    if (cu->major > 9 || (cu->major == 9 && cu->minor > 0))
        snprintf(buf, size, "sm_90");
    else
        snprintf(buf, size, "sm_%d%d", cu->major, cu->minor);
}

void klv_cuda_close(KlvCuda *cu)
{
    if (!cu)
        return;
    if (cu->ctx)
        cu->api.CtxDestroy(cu->ctx);
    if (cu->lib)
        dlclose(cu->lib);
    free(cu);
}

/* ---- one run ------------------------------------------------------------------ */

/* The device side of one run. */
typedef struct {
    CUmodule mod;       /* the loaded PTX */
    CUfunction *fn;     /* per launch: its entry */
    CUdeviceptr *dptr;  /* per buffer: its device memory, 0 when unused */
    int nbuf;           /* count of dptr */
} Run;

/* Load the PTX (the JIT's error log into the error) and find every entry. */
static int load(KlvCuda *cu, const KlvGpuModule *m, Run *r, GirError *e)
{
    char log[2048] = "";
    int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2];
    const KlvGpuLaunch *l;
    int n, k;
    CUresult res;
    vals[0] = log;
    vals[1] = (void *)(uintptr_t)sizeof log;
    res = cu->api.ModuleLoadDataEx(&r->mod, klv_gpu_ptx(m, NULL), 2, opts, vals);
    if (res != 0) {
        char *c;
        log[sizeof log - 1] = '\0';
        for (c = log; *c; c++) /* the JIT's log on the one error line */
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        r->mod = NULL;
        return cu_check(cu, res, "cuModuleLoadData", log[0] ? log : NULL, e);
    }
    l = klv_gpu_launches(m, &n);
    if (!(r->fn = calloc((size_t)n + 1, sizeof *r->fn)))
        return gir_error_at(e, gir_loc_none(), "out of memory");
    for (k = 0; k < n; k++)
        if (!l[k].shape &&
            cu_check(cu, cu->api.ModuleGetFunction(&r->fn[k], r->mod, l[k].entry),
                     "cuModuleGetFunction", l[k].entry, e) < 0)
            return -1;
    return 0;
}

/* Allocate every used buffer; upload constants and tables, zero scratch. */
static int alloc_buffers(KlvCuda *cu, const KlvGpuModule *m, Run *r, GirError *e)
{
    const KlvGpuBuffer *b = klv_gpu_buffers(m, &r->nbuf);
    int k;
    if (!(r->dptr = calloc((size_t)r->nbuf + 1, sizeof *r->dptr)))
        return gir_error_at(e, gir_loc_none(), "out of memory");
    for (k = 0; k < r->nbuf; k++) {
        size_t bytes = (size_t)(b[k].bytes > 0 ? b[k].bytes : 1);
        if (!b[k].used)
            continue;
        if (cu_check(cu, cu->api.MemAlloc(&r->dptr[k], bytes), "cuMemAlloc", NULL, e) < 0)
            return -1;
        if (b[k].data && b[k].bytes > 0 &&
            cu_check(cu, cu->api.MemcpyHtoD(r->dptr[k], b[k].data, bytes), "cuMemcpyHtoD",
                     "constants", e) < 0)
            return -1;
        if (b[k].kind == KLV_GPU_SCRATCH &&
            cu_check(cu, cu->api.MemsetD8(r->dptr[k], 0, bytes), "cuMemsetD8", NULL, e) < 0)
            return -1;
    }
    return 0;
}

/* Before launch *l (a copy of the plan's) with a dims table: the node's
 * inputs copied back (cuMemcpyDtoH waits for the kernels before it), its
 * output's shape found (klv_gpu_size sets l's range and grid), the output
 * allocated for it and the dims copied in. */
static int size_launch(KlvCuda *cu, const KlvGpuModule *m, Run *r, KlvGpuLaunch *l, GirType *rt,
                       GirError *e)
{
    const GirNode *n = &klv_gpu_graph(m)->nodes[l->node];
    void *in[64];
    int64_t dims[GIR_MAX_RANK], bytes;
    int k, rc = 0, v = n->out[0];
    for (k = 0; k < n->nin; k++) {
        size_t sz = n->in[k] >= 0 ? (size_t)gir_type_bytes(&rt[n->in[k]]) : 0;
        in[k] = NULL;
        if (n->in[k] < 0 || rc < 0)
            continue;
        if (!(in[k] = malloc(sz + 1)))
            rc = gir_error_at(e, gir_loc_none(), "out of memory");
        else if (sz)
            rc = cu_check(cu, cu->api.MemcpyDtoH(in[k], r->dptr[n->in[k]], sz), "cuMemcpyDtoH",
                          klv_gpu_graph(m)->vals[n->in[k]].name, e);
    }
    if (rc == 0)
        rc = klv_gpu_size(m, l, rt, in, dims, &bytes, e);
    for (k = 0; k < n->nin; k++)
        free(in[k]);
    if (rc < 0)
        return -1;
    if (r->dptr[v])
        cu->api.MemFree(r->dptr[v]);
    r->dptr[v] = 0;
    if (cu_check(cu, cu->api.MemAlloc(&r->dptr[v], (size_t)(bytes > 0 ? bytes : 1)), "cuMemAlloc",
                 klv_gpu_graph(m)->vals[v].name, e) < 0)
        return -1;
    return cu_check(cu, cu->api.MemcpyHtoD(r->dptr[l->sized], dims, sizeof dims), "cuMemcpyHtoD",
                    "dims", e);
}

/* Every launch in order on the default stream (which runs them one after
 * the other), then one synchronization.  A value of run-time extent or
 * shape: its Shape written from rt, its size found before its producer's
 * launch (size_launch), its extent copied back after it. */
static int launch_all(KlvCuda *cu, const KlvGpuModule *m, Run *r, GirType *rt, GirError *e)
{
    int n, k, a;
    const KlvGpuLaunch *plan = klv_gpu_launches(m, &n);
    for (k = 0; k < n; k++) {
        CUdeviceptr p[64 + 16 + 8 + KLV_CHAIN_MAX];
        void *params[64 + 16 + 8 + KLV_CHAIN_MAX];
        KlvGpuLaunch run = plan[k], *l = &run;
        if (l->shape) {
            const GirGraph *g = klv_gpu_graph(m);
            int64_t y[GIR_MAX_RANK];
            int v = g->nodes[l->node].out[0];
            klv_gpu_shape(m, l, rt, y);
            if (cu_check(cu, cu->api.MemcpyHtoD(r->dptr[v], y, (size_t)gir_type_bytes(&rt[v])),
                         "cuMemcpyHtoD", g->vals[v].name, e) < 0)
                return -1;
            continue;
        }
        if (l->sized >= 0 && size_launch(cu, m, r, l, rt, e) < 0)
            return -1;
        /* the arguments after size_launch: it may have moved the output */
        for (a = 0; a < l->nargs && a < (int)(sizeof p / sizeof p[0]); a++) {
            p[a] = l->args[a] >= 0 ? r->dptr[l->args[a]] : 0;
            params[a] = &p[a];
        }
        if (l->grid == 0)
            continue;
        if (l->nargs > (int)(sizeof p / sizeof p[0]) || l->grid > 0x7fffffff)
            return gir_error_at(e, gir_loc_none(), "%s: too many arguments or blocks", l->entry);
        if (cu_check(cu, cu->api.LaunchKernel(r->fn[k], (unsigned)l->grid, 1, 1,
                                              (unsigned)l->block, 1, 1, 0, NULL, params, NULL),
                     "cuLaunchKernel", l->entry, e) < 0)
            return -1;
        if (l->count >= 0) {
            int64_t cnt;
            if (cu_check(cu, cu->api.MemcpyDtoH(&cnt, r->dptr[l->count], sizeof cnt),
                         "cuMemcpyDtoH", l->entry, e) < 0 ||
                klv_gpu_counted(m, l, rt, cnt, e) < 0)
                return -1;
        }
    }
    return cu_check(cu, cu->api.CtxSynchronize(), "cuCtxSynchronize", "after the kernels", e);
}

static void unload(KlvCuda *cu, Run *r)
{
    int k;
    for (k = 0; r->dptr && k < r->nbuf; k++)
        if (r->dptr[k])
            cu->api.MemFree(r->dptr[k]);
    if (r->mod)
        cu->api.ModuleUnload(r->mod);
    free(r->dptr);
    free(r->fn);
}

/* Copy the inputs in (their types checked against the graph's). */
static int copy_in(KlvCuda *cu, const GirGraph *g, Run *r, const GirTensor *inputs, GirError *e)
{
    int i;
    for (i = 0; i < g->ninput; i++) {
        const GirValue *v = &g->vals[g->inputs[i]];
        if (klv_check_input(g, i, &inputs[i], e) < 0)
            return -1;
        if (cu_check(cu, cu->api.MemcpyHtoD(r->dptr[g->inputs[i]], inputs[i].data,
                                            (size_t)gir_type_bytes(&v->type)),
                     "cuMemcpyHtoD", v->name, e) < 0)
            return -1;
    }
    return 0;
}

int klv_gpu_run(KlvCuda *cu, const KlvGpuModule *m, const GirTensor *inputs, GirTensor *outputs,
                GirArena *arena, GirError *e)
{
    const GirGraph *g = klv_gpu_graph(m);
    GirType *rt = calloc((size_t)g->nval + 1, sizeof *rt);
    Run r;
    int i, rc;
    memset(&r, 0, sizeof r);
    if (!rt)
        return gir_error_at(e, gir_loc_none(), "out of memory");
    klv_gpu_types(m, rt);
    rc = load(cu, m, &r, e);
    if (rc == 0)
        rc = alloc_buffers(cu, m, &r, e);
    if (rc == 0)
        rc = copy_in(cu, g, &r, inputs, e);
    if (rc == 0)
        rc = launch_all(cu, m, &r, rt, e);
    for (i = 0; rc == 0 && i < g->noutput; i++) {
        const GirValue *v = &g->vals[g->outputs[i]];
        size_t bytes = (size_t)gir_type_bytes(&rt[g->outputs[i]]);
        outputs[i].type = rt[g->outputs[i]];
        outputs[i].data = gir_arena_alloc(arena, bytes + 1);
        if (bytes > 0) /* an extent of 0 found in the run */
            rc = cu_check(cu, cu->api.MemcpyDtoH(outputs[i].data, r.dptr[g->outputs[i]], bytes),
                          "cuMemcpyDtoH", v->name, e);
    }
    unload(cu, &r);
    free(rt);
    return rc;
}
