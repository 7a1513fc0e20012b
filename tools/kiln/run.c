/*
 * kiln run MODEL -i IN [-i IN ...] [-o OUT ...] [--target ref|int8|cpu|gpu] [--json]:
 * run a model on tensors from .npy or .pb files, or on JPEG/PNG images
 * preprocessed to the model's input (image.c).  Inputs feed the graph
 * inputs in order; each -o names the file for the next output.  A model
 * input left dynamic takes the shape of the tensor file given for it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "image.h"
#include "kiln.h"
#include "llvm/llvm.h"

#define MAX_TENSOR_ARGS 64 /* more inputs or outputs than any CNN has */

static void run_usage(FILE *f)
{
    fprintf(f, "usage: kiln run MODEL -i IN [-i IN ...] [-o OUT ...] [--target ref|int8|cpu|gpu|gpu-host]\n"
               "               [--json]\n"
               "  -i IN          input tensor (.npy or ONNX TensorProto .pb) or image (.jpg, .png),\n"
               "                 one per graph input, in order\n"
               "  --dump-input OUT  write the next input as fed (after image preprocessing) to OUT\n"
               "  -o OUT         write the next graph output (.npy or .pb)\n"
               "  --target ref   fp32 reference interpreter (default)\n"
               "  --target int8  int8 interpreter on a quantized model (kiln quantize -o)\n"
               "  --target cpu   compiled for this CPU through LLVM (fp32, or int8 on a quantized model);\n"
               "                 nodes without a lowering run in the interpreter (count on stderr)\n"
               "                 shapes that wait on the values of inputs (a Reshape's shape, TopK's\n"
               "                 K, ... given as inputs) are compiled for this run's values (a note)\n"
               "  --target gpu   compiled to PTX (sm_90, or the device's sm_XX below it) and run on\n"
               "                 GPU 0 through the CUDA driver (libcuda.so.1); every node must lower\n"
               "  --target gpu-host  the gpu target's PTX and launch plan built, then the plan run on\n"
               "                 this CPU thread by thread with the same kernel bodies (checks the\n"
               "                 plan where there is no GPU; not the PTX itself)\n"
               "  --threads N    threads of --target cpu (default 2)\n"
               "  --records FILE --target cpu: the best schedule per workload from kiln tune's records\n"
               "  --exact        --target cpu: no fused multiply-add in Conv, so fp32 outputs are the\n"
               "                 interpreter's bit for bit (by default the fp32 Conv fuses multiply and\n"
               "                 add where the CPU has FMA: faster, and within 1e-5 relative L2 of the\n"
               "                 interpreter on the test models; --fma says so explicitly)\n"
               "  --calib-random N  with --target int8 and an fp32 model: quantize first on N random inputs\n"
               "  --json         print output summaries as JSON\n");
    kiln_shape_usage(f);
    kiln_preproc_usage(f);
}

/* Inputs still dynamic take the dims of the tensors given for them (of
 * ins[i]'s files, images left out: they cannot say and need --input-shape;
 * every in_t[i] when ins is NULL); then the shapes are made static as
 * --input-shape makes them.  cmd names the subcommand in the error. */
int kiln_shapes_from_tensors(GirGraph *g, const char *cmd, const char *const *ins,
                             const GirTensor *in_t)
{
    FeInputShape *s = calloc((size_t)g->ninput + 1, sizeof *s);
    GirError err;
    int i, n = 0, rc = KILN_OK;
    if (!s)
        gir_die("out of memory");
    for (i = 0; i < g->ninput; i++) {
        const GirValue *v = &g->vals[g->inputs[i]];
        if (gir_type_is_static(&v->type) || (ins && kiln_is_image(ins[i])) || in_t[i].type.rank < 0)
            continue;
        snprintf(s[n].name, sizeof s[n].name, "%s", v->name);
        s[n].rank = in_t[i].type.rank;
        memcpy(s[n].dims, in_t[i].type.dims, sizeof s[n].dims);
        n++;
    }
    if (n > 0 && fe_static_shapes(g, s, n, &err) < 0)
        rc = kiln_user_error("%s: the model's dynamic inputs take the dims of the -i tensors: %s",
                             cmd, err.msg);
    free(s);
    return rc;
}

/* Read the -i files ins[0 .. g->ninput): tensors first (they may set
 * dynamic inputs' dims), then images at the model's (now static) input
 * shapes.  cmd names the subcommand in the errors. */
int kiln_read_inputs(GirGraph *g, const char *cmd, const char *const *ins, GirArena *a,
                     GirTensor *in_t)
{
    GirError err;
    int i, rc;
    for (i = 0; i < g->ninput; i++)
        if (!kiln_is_image(ins[i]) && fe_read_tensor(ins[i], a, &in_t[i], &err) < 0)
            return kiln_report(&err);
    if ((rc = kiln_shapes_from_tensors(g, cmd, ins, in_t)) != KILN_OK)
        return rc;
    for (i = 0; i < g->ninput; i++)
        if (kiln_is_image(ins[i]) &&
            kiln_read_image(ins[i], kiln_preproc(), &g->vals[g->inputs[i]], a, &in_t[i], &err) < 0)
            return kiln_report(&err);
    return KILN_OK;
}

/* min, max, mean and L2 norm of a float tensor, for the summary line. */
/* Element i of t as a double: 1, or 0 for a dtype the summary leaves out
 * (f16: its figures would need a conversion nobody reads here). */
static int elem(const GirTensor *t, int64_t i, double *v)
{
    switch (t->type.dtype) {
    case GIR_DT_F32: *v = ((const float *)t->data)[i]; return 1;
    case GIR_DT_F64: *v = ((const double *)t->data)[i]; return 1;
    case GIR_DT_I8: *v = ((const int8_t *)t->data)[i]; return 1;
    case GIR_DT_U8:
    case GIR_DT_BOOL: *v = ((const uint8_t *)t->data)[i]; return 1;
    case GIR_DT_I16: *v = ((const int16_t *)t->data)[i]; return 1;
    case GIR_DT_U16: *v = ((const uint16_t *)t->data)[i]; return 1;
    case GIR_DT_I32: *v = ((const int32_t *)t->data)[i]; return 1;
    case GIR_DT_U32: *v = ((const uint32_t *)t->data)[i]; return 1;
    case GIR_DT_I64: *v = (double)((const int64_t *)t->data)[i]; return 1;
    case GIR_DT_U64: *v = (double)((const uint64_t *)t->data)[i]; return 1;
    default: return 0;
    }
}

/* Min, max, mean and L2 norm of t's elements (0 each for an empty tensor
 * or one of a dtype elem() leaves out). */
static void summarize(const GirTensor *t, double *mn, double *mx, double *mean, double *l2)
{
    int64_t n = gir_type_numel(&t->type), i;
    double s = 0, q = 0, v;
    *mn = *mx = *mean = *l2 = 0;
    if (n == 0 || !elem(t, 0, &v))
        return;
    *mn = INFINITY;
    *mx = -INFINITY;
    for (i = 0; i < n; i++) {
        elem(t, i, &v);
        s += v;
        q += v * v;
        if (v < *mn)
            *mn = v;
        if (v > *mx)
            *mx = v;
    }
    *mean = s / (double)n;
    *l2 = sqrt(q);
}

/* --target int8: a quantized model runs as it is; an fp32 one is quantized
 * first when --calib-random asks for it (docs/quant.md). */
int kiln_int8_model(const char *path, GirGraph **g, int calib_random)
{
    GirGraph *q;
    GirQuantNote *notes;
    GirCalib *c;
    int rc;
    if (kiln_is_quantized(*g))
        return KILN_OK;
    if (!calib_random)
        return kiln_user_error("run: %s is not quantized (kiln quantize -o, or --calib-random N)",
                               path);
    if ((rc = kiln_calibrate(*g, NULL, calib_random, &c)) != KILN_OK)
        return rc;
    rc = kiln_quantize_with(*g, c, GIR_CALIB_MINMAX, 100.0, &q, &notes);
    gir_calib_free(c);
    if (rc != KILN_OK)
        return rc;
    gir_graph_free(*g);
    *g = q;
    return KILN_OK;
}

int kiln_is_quantized(const GirGraph *g)
{
    int i, quantized = 0;
    for (i = 0; i < g->nval; i++)
        quantized |= g->vals[i].type.dtype == GIR_DT_I8 && g->vals[i].scale > 0;
    return quantized;
}

int kiln_cpu_compile(GirGraph *g, int threads, int fma, KlvProgram **out, int quiet)
{
    return kiln_cpu_compile_tuned(g, threads, fma, NULL, out, quiet);
}

static void cpu_stats_lines(const KlvProgram *p, const KlvRecords *records);

int kiln_cpu_compile_tuned(GirGraph *g, int threads, int fma, const KlvRecords *records,
                           KlvProgram **out, int quiet)
{
    GirError err;
    KlvOptions o;
    if (!kiln_is_quantized(g) && gir_run_pipeline(g, NULL, NULL, &err) < 0)
        return kiln_report(&err);
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.fma = fma;
    o.records = records;
    if (!(*out = klv_compile(g, &o, &err)))
        return kiln_report(&err);
    if (!quiet)
        cpu_stats_lines(*out, records);
    return KILN_OK;
}

int kiln_cpu_compile_spec(GirGraph *g, int threads, int fma, const KlvRecords *records,
                          KlvProgram **out, KlvSpec **spec)
{
    GirError err, serr;
    KlvOptions o;
    int quantized = kiln_is_quantized(g);
    *out = NULL;
    *spec = NULL;
    if (!quantized && gir_run_pipeline(g, NULL, NULL, &err) < 0)
        return kiln_report(&err);
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.fma = fma;
    o.records = records;
    if ((*out = klv_compile(g, &o, &err))) {
        KlvStats st;
        klv_stats(*out, &st);
        if (st.fallback > 0)
            *spec = klv_spec_new_extents(g, *out, &o, &serr);
        return KILN_OK;
    }
    if (!strstr(err.msg, "needs static shapes") ||
        !(*spec = klv_spec_new(g, &o, quantized ? NULL : "O1", &serr)))
        return kiln_report(&err);
    return KILN_OK;
}

/* The figures of a --target cpu compilation, on stderr. */
static void cpu_stats_lines(const KlvProgram *p, const KlvRecords *records)
{
    KlvStats st;
    klv_stats(p, &st);
    if (records)
        fprintf(stderr, "kiln: cpu: %d kernels with schedules from the records\n", st.tuned);
    fprintf(stderr,
            "kiln: cpu (%s): %d of %d nodes compiled, %d in the interpreter; "
            "IR %.0f ms, O3 %.0f ms, codegen %.0f ms\n",
            st.cpu, st.lowered, st.nodes, st.fallback, st.ir_ms, st.opt_ms, st.jit_ms);
    if (st.fused)
        fprintf(stderr, "kiln: cpu: %d elementwise nodes fused into the Conv before them\n",
                st.fused);
    if (st.concats)
        fprintf(stderr, "kiln: cpu: %d Concat nodes written in place by the nodes before them\n",
                st.concats);
}

/* --target cpu: g compiled and run on in_t.  A graph whose shapes wait on
 * the values of some inputs (klv_spec_inputs) is compiled for this run's
 * values, with a note naming those inputs. */
/* The note of a program specialized on input values (WHAT: shapes or
 * extents depend on them), then its figures. */
static void spec_note(const GirGraph *g, const KlvSpec *spec, const char *what,
                      const KlvRecords *records)
{
    const GirGraph *sg;
    int i, n = 0;
    fprintf(stderr, "kiln: cpu: %s depend on the values of input", what);
    for (i = 0; i < g->ninput; i++)
        if (klv_spec_bound(spec, i))
            fprintf(stderr, "%s '%s'", n++ ? "," : "", g->vals[g->inputs[i]].name);
    fprintf(stderr, ": compiled for this run's values\n");
    cpu_stats_lines(klv_spec_program(spec, &sg), records);
}

static int run_cpu(GirGraph *g, int threads, int fma, const KlvRecords *records,
                   const GirTensor *in_t, GirTensor *out_t, GirArena *arena)
{
    GirError err;
    KlvProgram *prog;
    KlvSpec *spec;
    const GirGraph *sg;
    int compiled, rc = kiln_cpu_compile_spec(g, threads, fma, records, &prog, &spec);
    if (rc != KILN_OK)
        return rc;
    if (spec) {
        /* no program (shapes the inputs' values decide), or nodes of prog
         * left to the interpreter because they read a Range's,
         * ConstantOfShape's or OneHot's output whose extent input values
         * decide: compiled for this run's values instead */
        int src = klv_spec_run(spec, in_t, out_t, arena, &compiled, &err);
        /* the note and the figures, as for a program: for extents once
         * compiled (then run, or failed on the run's data) */
        if (prog ? klv_spec_program(spec, &sg) != NULL : src == 0)
            spec_note(g, spec, prog ? "extents" : "shapes", records);
        klv_spec_free(spec);
        if (!prog || src == 0 || !strstr(err.msg, "needs static shapes")) {
            klv_free(prog);
            return src == 0 ? KILN_OK : kiln_report(&err);
        }
    }
    cpu_stats_lines(prog, records);
    if (klv_run(prog, in_t, out_t, arena, &err) < 0)
        rc = kiln_report(&err);
    klv_free(prog);
    return rc;
}

/* Compile g for NVPTX for the given sm (NULL: the default, sm_90). */
static int gpu_compile(const GirGraph *g, const char *cpu, KlvGpuModule **m)
{
    GirError err;
    KlvTarget t;
    memset(&t, 0, sizeof t);
    t.cpu = cpu;
    if (!(*m = klv_gpu_compile(g, &t, &err)))
        return kiln_user_error("run: --target gpu: %s", err.msg);
    return KILN_OK;
}

static void gpu_stats_line(const KlvGpuModule *m)
{
    KlvGpuStats st;
    klv_gpu_stats(m, &st);
    fprintf(stderr,
            "kiln: gpu (%s): %d nodes (%d fused into a Conv), %d kernels, PTX %lld bytes; IR %.0f "
            "ms, O3 %.0f ms, PTX %.0f ms\n",
            st.cpu, st.nodes, st.fused, st.launches, (long long)st.ptx_bytes, st.ir_ms, st.opt_ms, st.ptx_ms);
}

/* --target gpu (host 0) and gpu-host (host 1): the PTX is built (and so
 * verified) first; gpu-host then runs the plan on this CPU.  gpu opens
 * the driver (without one, one line and exit 2); for a device older than
 * sm_90 the PTX is built again for its sm; then one run on the device. */
static int run_gpu(GirGraph *g, const GirTensor *in_t, GirTensor *out_t, GirArena *arena, int host)
{
    GirError err;
    KlvGpuModule *m = NULL;
    KlvGpuStats st;
    KlvCuda *cu;
    char arch[32];
    int no_driver, rc;
    if (!kiln_is_quantized(g) && gir_run_pipeline(g, NULL, NULL, &err) < 0)
        return kiln_report(&err);
    if ((rc = gpu_compile(g, NULL, &m)) != KILN_OK)
        return rc;
    if (host) {
        gpu_stats_line(m);
        if (klv_gpu_run_host(m, in_t, out_t, arena, &err) < 0)
            rc = kiln_user_error("run: --target gpu-host: %s", err.msg);
        klv_gpu_free(m);
        return rc;
    }
    if (!(cu = klv_cuda_open(&no_driver, &err))) {
        klv_gpu_free(m);
        if (no_driver)
            return kiln_user_error("run: --target gpu: %s: no NVIDIA driver on this machine; the PTX "
                                   "was built and verified (kiln lower --triple nvptx64-nvidia-cuda "
                                   "writes it)",
                                   err.msg);
        return kiln_user_error("run: --target gpu: %s", err.msg);
    }
    klv_cuda_arch(cu, arch, sizeof arch);
    klv_gpu_stats(m, &st);
    /* a device below sm_90 cannot load PTX made for sm_90 */
    if (strcmp(arch, st.cpu) != 0) {
        klv_gpu_free(m);
        m = NULL;
        if ((rc = gpu_compile(g, arch, &m)) != KILN_OK)
            goto out;
    }
    gpu_stats_line(m);
    if (klv_gpu_run(cu, m, in_t, out_t, arena, &err) < 0)
        rc = kiln_user_error("run: --target gpu: %s", err.msg);
out:
    klv_gpu_free(m);
    klv_cuda_close(cu);
    return rc;
}

int kiln_cmd_run(int argc, char **argv)
{
    const char *path = NULL, *target = "ref", *records = NULL;
    KlvRecords *recs = NULL;
    const char *ins[MAX_TENSOR_ARGS], *outs[MAX_TENSOR_ARGS], *dumps[MAX_TENSOR_ARGS];
    int nin = 0, nout = 0, ndump = 0, json = 0, i, rc = KILN_OK, calib_random = 0, threads = 2, fma = 1;
    GirError err;
    GirGraph *g = NULL;
    GirArena *arena = NULL;
    GirTensor *in_t = NULL, *out_t = NULL;
    cJSON *root = NULL;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (kiln_is_help(a)) {
            run_usage(stdout);
            return KILN_OK;
        } else if (strcmp(a, "-i") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--target") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("run: %s needs a value", a);
            if (a[1] == 'i') {
                if (nin == MAX_TENSOR_ARGS)
                    return kiln_user_error("run: more than %d inputs", MAX_TENSOR_ARGS);
                ins[nin++] = argv[++i];
            } else if (a[1] == 'o') {
                if (nout == MAX_TENSOR_ARGS)
                    return kiln_user_error("run: more than %d outputs", MAX_TENSOR_ARGS);
                outs[nout++] = argv[++i];
            } else {
                target = argv[++i];
            }
        } else if (strcmp(a, "--dump-input") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("run: --dump-input needs a file");
            if (ndump == MAX_TENSOR_ARGS)
                return kiln_user_error("run: more than %d --dump-input", MAX_TENSOR_ARGS);
            dumps[ndump++] = argv[++i];
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--records") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("run: --records needs a file");
            records = argv[++i];
        } else if (strcmp(a, "--fma") == 0) {
            fma = 1;
        } else if (strcmp(a, "--exact") == 0) {
            fma = 0;
        } else if (strcmp(a, "--threads") == 0) {
            if (i + 1 >= argc || (threads = atoi(argv[i + 1])) < 1)
                return kiln_user_error("run: --threads needs a positive count");
            i++;
        } else if (strcmp(a, "--calib-random") == 0) {
            if (i + 1 >= argc || (calib_random = atoi(argv[i + 1])) < 1)
                return kiln_user_error("run: --calib-random needs a positive count");
            i++;
        } else if (a[0] == '-') {
            run_usage(stderr);
            return kiln_user_error("run: unknown option '%s'", a);
        } else if (!path) {
            path = a;
        } else {
            run_usage(stderr);
            return kiln_user_error("run: more than one model given ('%s')", a);
        }
    }
    if (!path) {
        run_usage(stderr);
        return kiln_user_error("run: no model given");
    }
    if (strcmp(target, "ref") != 0 && strcmp(target, "int8") != 0 && strcmp(target, "cpu") != 0 &&
        strcmp(target, "gpu") != 0 && strcmp(target, "gpu-host") != 0)
        return kiln_user_error("run: unknown target '%s' (available: ref, int8, cpu, gpu, gpu-host)",
                               target);
    if (records && strcmp(target, "cpu") != 0)
        return kiln_user_error("run: --records applies to --target cpu, not '%s'", target);

    g = kiln_load_model(path, 0, &err);
    if (!g)
        return kiln_report(&err);
    if (nin != g->ninput) {
        rc = kiln_user_error("run: %s has %d input%s, %d given with -i", path, g->ninput,
                             g->ninput == 1 ? "" : "s", nin);
        goto out;
    }
    if (nout > g->noutput) {
        rc = kiln_user_error("run: %s has %d output%s, %d -o given", path, g->noutput,
                             g->noutput == 1 ? "" : "s", nout);
        goto out;
    }
    arena = gir_arena_new();
    in_t = gir_arena_alloc(arena, sizeof *in_t * (size_t)(nin + 1));
    out_t = gir_arena_alloc(arena, sizeof *out_t * (size_t)(g->noutput + 1));
    if (ndump > nin) {
        rc = kiln_user_error("run: %d --dump-input for %d input%s", ndump, nin,
                             nin == 1 ? "" : "s");
        goto out;
    }
    if ((rc = kiln_read_inputs(g, "run", ins, arena, in_t)) != KILN_OK)
        goto out;
    for (i = 0; i < ndump; i++)
        if (fe_write_tensor(dumps[i], &in_t[i], &err) < 0) {
            rc = kiln_report(&err);
            goto out;
        }
    if (strcmp(target, "int8") == 0 && (rc = kiln_int8_model(path, &g, calib_random)) != KILN_OK)
        goto out;
    if (strcmp(target, "cpu") == 0) {
        if (records && (rc = kiln_load_records("run", records, &recs)) != KILN_OK)
            goto out;
        if ((rc = run_cpu(g, threads, fma, recs, in_t, out_t, arena)) != KILN_OK)
            goto out;
    } else if (strncmp(target, "gpu", 3) == 0) {
        if ((rc = run_gpu(g, in_t, out_t, arena, strcmp(target, "gpu-host") == 0)) != KILN_OK)
            goto out;
    } else if (gir_run(g, in_t, out_t, arena, &err) < 0) {
        rc = kiln_report(&err);
        goto out;
    }
    for (i = 0; i < nout; i++)
        if (fe_write_tensor(outs[i], &out_t[i], &err) < 0) {
            rc = kiln_report(&err);
            goto out;
        }
    if (json)
        root = cJSON_CreateArray();
    for (i = 0; i < g->noutput; i++) {
        char ty[128];
        double mn = 0, mx = 0, mean = 0, l2 = 0;
        gir_type_str(&out_t[i].type, ty, sizeof ty);
        summarize(&out_t[i], &mn, &mx, &mean, &l2);
        if (json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", g->vals[g->outputs[i]].name);
            cJSON_AddStringToObject(o, "type", ty);
            cJSON_AddNumberToObject(o, "min", mn);
            cJSON_AddNumberToObject(o, "max", mx);
            cJSON_AddNumberToObject(o, "mean", mean);
            cJSON_AddNumberToObject(o, "l2", l2);
            if (i < nout)
                cJSON_AddStringToObject(o, "file", outs[i]);
            cJSON_AddItemToArray(root, o);
        } else {
            printf("output %d %s %s  min %.6g  max %.6g  mean %.6g  l2 %.6g%s%s\n", i,
                   g->vals[g->outputs[i]].name, ty, mn, mx, mean, l2, i < nout ? "  -> " : "",
                   i < nout ? outs[i] : "");
        }
    }
    if (json) {
        char *s = cJSON_Print(root);
        puts(s);
        free(s);
        cJSON_Delete(root);
    }
out:
    klv_records_free(recs);
    gir_arena_free(arena);
    gir_graph_free(g);
    return rc;
}
