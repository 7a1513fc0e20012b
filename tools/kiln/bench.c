/*
 * kiln bench MODEL [--target T | --compare T1,T2,...] [-i IN ...] [--warmup W]
 *                  [--iters N] [--rounds R] [--threads N] [--exact] [--calib-random N] [--json]
 *                  [--report PREFIX] [--ort DIR] [--compiled DIR]
 * Latency of whole-model runs per target: mean, p50, p90, p95, p99, std,
 * min, max, throughput and peak memory.  Each target runs in a child
 * process of its own, so its peak resident memory (getrusage) is its own;
 * cpu fuses multiply-adds in the fp32 Conv (as kiln run does); cpu-exact is
 * cpu without them (kiln run --exact: the interpreter's bits);
 * onnxruntime runs in node with onnxruntime-node on the same input file and
 * thread count; fpga-sim is the accelerator kiln compile wrote, in
 * Verilator, its figures the measured cycles at the plan's clock.  --compare prints the targets side by side, fastest first,
 * and writes PREFIX.md, PREFIX.json and PREFIX.svg (the latency
 * distributions, drawn by gnuplot).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "hls/hw.h"
#include "image.h"
#include "kiln.h"
#include "llvm/llvm.h"
#include "sim/sim.h"

#define MAX_TARGETS 8        /* targets of one --compare */
#define MAX_ITERS 100000     /* timed runs per target */
#define DEFAULT_ORT "/opt/kiln-deps/node_modules/onnxruntime-node"
#define MAX_SIM_FRAMES 64    /* frames of one fpga-sim run */
#define MAX_INPUTS 64        /* -i tensors of one model */

/* The figures of one target, as a child process reports them. */
typedef struct {
    char target[32];  /* ref, int8, cpu, onnxruntime */
    int ok;           /* 1: measured; 0: err says why not */
    char err[400];    /* the child's one-line error */
    double mean, p50, p90, p95, p99, std, min, max; /* latency, ms */
    double fps;       /* 1000 / mean */
    double peak_mb;   /* peak resident set of the process, MiB */
    int iters;        /* timed runs */
    double *t;        /* in the parent: the timed runs, sorted (for the chart) */
} BenchResult;

/* What every target is run with. */
typedef struct {
    const char *model;   /* model path */
    const char *ins[MAX_INPUTS]; /* the -i files, one per model input in order */
    int nin;             /* how many; 0: seeded random inputs */
    GirTensor *in;       /* the inputs, read or made before the targets run */
    int ninput;          /* the model's inputs */
    char input_desc[512]; /* the inputs, as the reports name them */
    int warmup, iters;   /* untimed, then timed runs */
    int rounds;          /* times the target list is run in turn */
    int threads;         /* threads of cpu and onnxruntime */
    int exact;           /* cpu: no fused multiply-add in Conv (--exact) */
    const struct KlvRecords *records; /* cpu, cpu-exact: tuned schedules (--records) */
    int calib_random;    /* int8 of an fp32 model: calibration inputs */
    const char *ort_dir; /* onnxruntime-node folder */
    const char *compiled; /* fpga-sim: the kiln compile folder of the model */
    char tmp_dir[64];    /* onnxruntime's copies of the inputs (.npy), or "" */
} BenchSetup;

/* In a child: the timed runs' latencies, sent after the result. */
static double *child_times;
static int child_ntimes;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Nearest-rank percentile q (0..100) of sorted t[n]. */
static double pct(const double *t, int n, double q)
{
    int k = (int)ceil(q / 100.0 * n);
    return t[k < 1 ? 0 : k > n ? n - 1 : k - 1];
}

/* Fill r's latency figures from n timed runs t (sorted here). */
static void summarize(BenchResult *r, double *t, int n)
{
    double s = 0, q = 0;
    int i;
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    for (i = 0; i < n; i++)
        s += t[i];
    r->mean = s / n;
    for (i = 0; i < n; i++)
        q += (t[i] - r->mean) * (t[i] - r->mean);
    r->std = n > 1 ? sqrt(q / (n - 1)) : 0;
    r->p50 = pct(t, n, 50);
    r->p90 = pct(t, n, 90);
    r->p95 = pct(t, n, 95);
    r->p99 = pct(t, n, 99);
    r->min = t[0];
    r->max = t[n - 1];
    r->fps = r->mean > 0 ? 1000.0 / r->mean : 0;
    r->iters = n;
    r->ok = 1;
}

static double peak_mb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024.0; /* Linux: KiB */
}

/* Collect a kiln error line for r (errors go through stderr otherwise). */
static void fail(BenchResult *r, const char *msg)
{
    snprintf(r->err, sizeof r->err, "%s", msg);
    r->ok = 0;
}

/* In the child: load, prepare and time one kiln target. */
static void bench_kiln(const BenchSetup *s, BenchResult *r)
{
    GirError err;
    GirGraph *g = kiln_load_model(s->model, s->nin == 0, &err);
    GirArena *a = gir_arena_new(), *ra;
    GirTensor *out;
    KlvProgram *prog = NULL;
    KlvSpec *spec = NULL;
    double *t = calloc((size_t)s->iters + 1, sizeof *t);
    int i, compiled, cpu = strncmp(r->target, "cpu", 3) == 0, rc = 0;
    int fma = !s->exact && strcmp(r->target, "cpu-exact") != 0;
    if (!g) {
        fail(r, err.msg);
        goto out;
    }
    if (s->nin && kiln_shapes_from_tensors(g, "bench", NULL, s->in) != KILN_OK) {
        fail(r, "the inputs do not fit the model (see above)");
        goto out;
    }
    if (strcmp(r->target, "int8") == 0 &&
        kiln_int8_model(s->model, &g, s->calib_random) != KILN_OK) {
        fail(r, "int8 quantization failed (see above)");
        goto out;
    }
    if (g->ninput != s->ninput) {
        fail(r, "the model's inputs changed after they were read");
        goto out;
    }
    if (cpu && kiln_cpu_compile_spec(g, s->threads, fma,
                                     strcmp(r->target, "cpu-untuned") == 0 ? NULL : s->records,
                                     &prog, &spec) != KILN_OK) {
        fail(r, "cpu compilation failed (see above)");
        goto out;
    }
    out = gir_arena_alloc(a, sizeof *out * (size_t)(g->noutput + 1));
    for (i = 0; i < s->warmup + s->iters && rc == 0; i++) {
        double t0 = now_ms();
        ra = gir_arena_new();
        /* a specializer compiles on the first run (a warm-up one unless
         * --warmup 0) and reuses that program after */
        rc = spec ? klv_spec_run(spec, s->in, out, ra, &compiled, &err)
             : cpu ? klv_run(prog, s->in, out, ra, &err)
                   : gir_run(g, s->in, out, ra, &err);
        if (rc < 0 && spec && prog && strstr(err.msg, "needs static shapes")) {
            /* the values leave a shape unknown: the program as compiled */
            klv_spec_free(spec);
            spec = NULL;
            rc = klv_run(prog, s->in, out, ra, &err);
        }
        gir_arena_free(ra);
        if (i >= s->warmup)
            t[i - s->warmup] = now_ms() - t0;
    }
    if (rc < 0)
        fail(r, err.msg);
    else
        summarize(r, t, s->iters);
    r->peak_mb = peak_mb();
    child_times = t;
    child_ntimes = r->ok ? s->iters : 0;
    t = NULL;
out:
    klv_spec_free(spec);
    klv_free(prog);
    gir_arena_free(a);
    gir_graph_free(g);
    free(t);
}

/* The node script that times onnxruntime: prints one JSON object with the
 * timed runs' latencies in ms and the process's peak RSS in KiB. */

/* The number at key k of JSON object o; -1 when absent or not a number. */
static double json_num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* In the child: the accelerator of s->compiled in Verilator, iters frames
 * back to back on seeded inputs, every output byte checked against the
 * int8 interpreter.  Its latency is the measured cycles of one frame at the
 * plan's clock (the same every frame: the hardware is deterministic), its
 * frames/s the clock over the measured interval between frames. */
static void bench_fpga(const BenchSetup *s, BenchResult *r)
{
    SimOptions o = {.frames = s->iters, .latency = HLS_HW_DDR_LAT, .threads = 1};
    Sim *sim = NULL;
    SimResult *res = NULL;
    GirArena *a = gir_arena_new();
    GirTensor *in;
    GirError err;
    cJSON *root = NULL;
    const GirGraph *g;
    double lat, fps, *t = NULL;
    int f, i;
    if (sim_open(s->compiled, &sim, &err) != SIM_OK) {
        fail(r, err.msg);
        goto out;
    }
    g = sim_graph(sim);
    in = gir_arena_alloc(a, sizeof *in * (size_t)(s->iters * g->ninput + 1));
    for (f = 0; f < s->iters; f++)
        for (i = 0; i < g->ninput; i++)
            kiln_random_input(&g->vals[g->inputs[i]].type, 1000u + (uint64_t)f * 16u + (uint64_t)i,
                              a, &in[f * g->ninput + i]);
    if (sim_run(sim, &o, in, &res, &err) != SIM_OK) {
        fail(r, err.msg);
        goto out;
    }
    root = cJSON_Parse(res->json);
    lat = root ? json_num(root, "latency_ms") : -1;
    fps = root ? json_num(root, "fps") : -1;
    if (lat <= 0) {
        fail(r, "the simulation reported no latency");
        goto out;
    }
    t = malloc(sizeof *t * (size_t)s->iters);
    if (!t) {
        fail(r, "out of memory");
        goto out;
    }
    for (i = 0; i < s->iters; i++)
        t[i] = lat;
    summarize(r, t, s->iters);
    if (fps > 0)
        r->fps = fps;
    r->peak_mb = peak_mb();
    child_times = t;
    child_ntimes = s->iters;
out:
    cJSON_Delete(root);
    sim_result_free(res);
    sim_close(sim);
    gir_arena_free(a);
}

static const char ort_script[] =
    "'use strict';\n"
    "const fs = require('fs');\n"
    "const [ortDir, model, threads, warmup, iters, ...inputs] = process.argv.slice(2);\n"
    "const ort = require(ortDir);\n"
    "function readNpy(file) {\n"
    "  const buf = fs.readFileSync(file);\n"
    "  const major = buf[6];\n"
    "  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);\n"
    "  const hs = major === 1 ? 10 : 12;\n"
    "  const h = buf.toString('latin1', hs, hs + hlen);\n"
    "  const kinds = { '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array],\n"
    "    '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array], '|i1': ['int8', Int8Array],\n"
    "    '|u1': ['uint8', Uint8Array], '|b1': ['bool', Uint8Array] };\n"
    "  const d = /'descr':\\s*'([^']*)'/.exec(h);\n"
    "  const kind = d && kinds[d[1]];\n"
    "  if (!kind) throw new Error(file + ': element type ' + (d ? d[1] : '?') + ' not supported here');\n"
    "  const dims = /'shape':\\s*\\(([^)]*)\\)/.exec(h)[1].split(',').map(s => s.trim())\n"
    "    .filter(s => s.length).map(Number);\n"
    "  const bytes = buf.subarray(hs + hlen);\n"
    "  const c = new Uint8Array(bytes.length); c.set(bytes);\n"
    "  return new ort.Tensor(kind[0], new kind[1](c.buffer), dims);\n"
    "}\n"
    "(async () => {\n"
    "  const opt = { intraOpNumThreads: Number(threads), interOpNumThreads: 1,\n"
    "                executionMode: 'sequential', graphOptimizationLevel: 'all' };\n"
    "  const s = await ort.InferenceSession.create(model, opt);\n"
    "  if (inputs.length !== s.inputNames.length)\n"
    "    throw new Error(model + ' has ' + s.inputNames.length + ' inputs, ' + inputs.length + ' given');\n"
    "  const feeds = {};\n"
    "  s.inputNames.forEach((n, k) => { feeds[n] = readNpy(inputs[k]); });\n"
    "  const t = [];\n"
    "  for (let i = 0; i < Number(warmup) + Number(iters); i++) {\n"
    "    const t0 = process.hrtime.bigint();\n"
    "    await s.run(feeds);\n"
    "    const dt = Number(process.hrtime.bigint() - t0) / 1e6;\n"
    "    if (i >= Number(warmup)) t.push(dt);\n"
    "  }\n"
    "  process.stdout.write(JSON.stringify({ times: t, maxrss: process.resourceUsage().maxRSS }));\n"
    "})().catch(e => { process.stderr.write('onnxruntime: ' + e.message + '\\n'); process.exit(2); });\n";

/* In the child: run the node script and read its JSON. */
static void bench_ort(const BenchSetup *s, BenchResult *r)
{
    char script[] = "/tmp/kiln-bench-ort-XXXXXX", num[3][32], buf[65536];
    char files[MAX_INPUTS][96];
    const char *argv[MAX_INPUTS + 8];
    int fd = mkstemp(script), pfd[2], st = 0;
    size_t len = 0;
    ssize_t k;
    pid_t pid;
    cJSON *root, *times;
    double *t;
    int i, n;
    if (fd < 0 || write(fd, ort_script, sizeof ort_script - 1) != (ssize_t)(sizeof ort_script - 1)) {
        fail(r, "cannot write the onnxruntime script to /tmp");
        return;
    }
    close(fd);
    snprintf(num[0], sizeof num[0], "%d", s->threads);
    snprintf(num[1], sizeof num[1], "%d", s->warmup);
    snprintf(num[2], sizeof num[2], "%d", s->iters);
    if (pipe(pfd) < 0 || (pid = fork()) < 0) {
        fail(r, "cannot start node");
        unlink(script);
        return;
    }
    if (pid == 0) {
        int na = 0;
        argv[na++] = "node";
        argv[na++] = script;
        argv[na++] = s->ort_dir;
        argv[na++] = s->model;
        for (i = 0; i < 3; i++)
            argv[na++] = num[i];
        for (i = 0; i < s->ninput; i++) {
            snprintf(files[i], sizeof files[i], "%s/in%d.npy", s->tmp_dir, i);
            argv[na++] = files[i];
        }
        argv[na] = NULL;
        dup2(pfd[1], 1);
        close(pfd[0]);
        execvp("node", (char *const *)argv);
        fprintf(stderr, "kiln: bench: cannot run node: %s\n", strerror(errno));
        _exit(127);
    }
    close(pfd[1]);
    while (len < sizeof buf - 1 && (k = read(pfd[0], buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t)k;
    buf[len] = 0;
    close(pfd[0]);
    waitpid(pid, &st, 0);
    unlink(script);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !(root = cJSON_Parse(buf))) {
        fail(r, "onnxruntime run failed (see above)");
        return;
    }
    times = cJSON_GetObjectItem(root, "times");
    n = cJSON_GetArraySize(times);
    t = calloc((size_t)n + 1, sizeof *t);
    for (i = 0; i < n; i++)
        t[i] = cJSON_GetArrayItem(times, i)->valuedouble;
    if (n > 0)
        summarize(r, t, n);
    else
        fail(r, "onnxruntime reported no runs");
    r->peak_mb = cJSON_GetObjectItem(root, "maxrss")->valuedouble / 1024.0;
    child_times = t;
    child_ntimes = r->ok ? n : 0;
    cJSON_Delete(root);
}

/* Run one target in a child process; the result and the r->iters timed
 * latencies (sorted; *times, malloc'd, NULL when it failed) come back
 * through a pipe. */
static void bench_one(const BenchSetup *s, const char *target, BenchResult *r, double **times)
{
    int pfd[2], st = 0;
    size_t want, got = 0;
    ssize_t k;
    *times = NULL;
    pid_t pid;
    memset(r, 0, sizeof *r);
    snprintf(r->target, sizeof r->target, "%s", target);
    fflush(NULL);
    if (pipe(pfd) < 0 || (pid = fork()) < 0) {
        fail(r, "cannot fork");
        return;
    }
    if (pid == 0) {
        close(pfd[0]);
        if (strcmp(target, "onnxruntime") == 0)
            bench_ort(s, r);
        else if (strcmp(target, "fpga-sim") == 0)
            bench_fpga(s, r);
        else
            bench_kiln(s, r);
        if (write(pfd[1], r, sizeof *r) != (ssize_t)sizeof *r)
            _exit(1);
        want = sizeof(double) * (size_t)child_ntimes;
        while (got < want && (k = write(pfd[1], (char *)child_times + got, want - got)) > 0)
            got += (size_t)k;
        _exit(got == want ? 0 : 1);
    }
    close(pfd[1]);
    if (read(pfd[0], r, sizeof *r) != (ssize_t)sizeof *r)
        fail(r, "the benchmark process died");
    if (r->ok) {
        want = sizeof(double) * (size_t)r->iters;
        *times = malloc(want + sizeof(double));
        while (*times && got < want && (k = read(pfd[0], (char *)*times + got, want - got)) > 0)
            got += (size_t)k;
        if (!*times || got != want) {
            free(*times);
            *times = NULL;
            fail(r, "the benchmark process died");
        }
    }
    close(pfd[0]);
    waitpid(pid, &st, 0);
}

/* Run the targets in turn, s->rounds times (so a machine whose load drifts
 * weighs on all of them alike), and merge each target's timed runs. */
static int run_rounds(const BenchSetup *s, const char *const *targets, int n, BenchResult *res)
{
    double *all[MAX_TARGETS], peak[MAX_TARGETS];
    int count[MAX_TARGETS], round, i, j;
    for (i = 0; i < n; i++) {
        all[i] = malloc(sizeof(double) * ((size_t)s->iters * (size_t)s->rounds + 1));
        count[i] = 0;
        peak[i] = 0;
        if (!all[i]) {
            while (i-- > 0)
                free(all[i]);
            return kiln_user_error("bench: out of memory");
        }
    }
    for (round = 0; round < s->rounds; round++)
        for (i = 0; i < n; i++) {
            BenchResult r;
            double *t;
            if (round > 0 && !res[i].ok)
                continue;
            bench_one(s, targets[i], &r, &t);
            if (!r.ok) {
                res[i] = r;
                continue;
            }
            for (j = 0; j < r.iters && count[i] < s->iters * s->rounds; j++)
                all[i][count[i]++] = t[j];
            peak[i] = r.peak_mb > peak[i] ? r.peak_mb : peak[i];
            free(t);
            if (round == 0)
                res[i] = r;
        }
    for (i = 0; i < n; i++) {
        res[i].t = NULL;
        if (res[i].ok) {
            double fps = res[i].fps; /* fpga-sim: the measured interval's, kept */
            summarize(&res[i], all[i], count[i]);
            if (strcmp(res[i].target, "fpga-sim") == 0)
                res[i].fps = fps;
            res[i].peak_mb = peak[i];
            res[i].t = all[i];
        } else {
            free(all[i]);
        }
    }
    return KILN_OK;
}

static int by_mean(const void *a, const void *b)
{
    const BenchResult *x = a, *y = b;
    if (x->ok != y->ok)
        return y->ok - x->ok;
    return x->mean < y->mean ? -1 : x->mean > y->mean;
}

static const BenchResult *find(const BenchResult *r, int n, const char *target)
{
    int i;
    for (i = 0; i < n; i++)
        if (r[i].ok && strcmp(r[i].target, target) == 0)
            return &r[i];
    return NULL;
}

/* The results as a JSON object. */
static cJSON *to_json(const BenchSetup *s, const BenchResult *r, int n)
{
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    const BenchResult *ort = find(r, n, "onnxruntime");
    int i;
    cJSON_AddStringToObject(root, "model", s->model);
    cJSON_AddStringToObject(root, "input", s->input_desc);
    cJSON_AddNumberToObject(root, "warmup", s->warmup);
    cJSON_AddNumberToObject(root, "iters", s->iters);
    cJSON_AddNumberToObject(root, "rounds", s->rounds);
    cJSON_AddNumberToObject(root, "threads", s->threads);
    for (i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "target", r[i].target);
        if (!r[i].ok) {
            cJSON_AddStringToObject(o, "error", r[i].err);
        } else {
            cJSON_AddNumberToObject(o, "mean_ms", r[i].mean);
            cJSON_AddNumberToObject(o, "p50_ms", r[i].p50);
            cJSON_AddNumberToObject(o, "p90_ms", r[i].p90);
            cJSON_AddNumberToObject(o, "p95_ms", r[i].p95);
            cJSON_AddNumberToObject(o, "p99_ms", r[i].p99);
            cJSON_AddNumberToObject(o, "std_ms", r[i].std);
            cJSON_AddNumberToObject(o, "min_ms", r[i].min);
            cJSON_AddNumberToObject(o, "max_ms", r[i].max);
            cJSON_AddNumberToObject(o, "throughput_fps", r[i].fps);
            cJSON_AddNumberToObject(o, "peak_mem_mb", r[i].peak_mb);
            cJSON_AddNumberToObject(o, "vs_fastest", r[i].mean / r[0].mean);
            if (ort)
                cJSON_AddNumberToObject(o, "speed_vs_onnxruntime", ort->mean / r[i].mean);
        }
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddItemToObject(root, "results", arr);
    return root;
}

/* The table, as plain text (md = 0) or Markdown (md = 1). */
static void print_table(FILE *f, const BenchSetup *s, const BenchResult *r, int n, int md)
{
    const BenchResult *ort = find(r, n, "onnxruntime");
    int i;
    if (md)
        fprintf(f, "# kiln bench: %s\n\ninput %s, %d warm-up and %d timed runs, %d threads; "
                   "%d round%s of the targets in turn; latencies in ms, fastest first.\n\n"
                   "| target | mean | p50 | p90 | p95 | p99 | std | min | max | frames/s | peak MiB | x fastest | speed vs onnxruntime |\n"
                   "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
                s->model, s->input_desc, s->warmup, s->iters, s->threads,
                s->rounds, s->rounds == 1 ? "" : "s");
    else
        fprintf(f, "model %s, %d warm-up + %d timed runs x %d round%s, %d threads (latency in ms)\n"
                   "%-12s %9s %9s %9s %9s %9s %8s %9s %9s %9s %9s %9s %9s\n",
                s->model, s->warmup, s->iters, s->rounds, s->rounds == 1 ? "" : "s", s->threads, "target", "mean", "p50", "p90", "p95",
                "p99", "std", "min", "max", "frames/s", "peak MiB", "x fastest", "vs ort");
    for (i = 0; i < n; i++) {
        char vs[32] = "-";
        if (!r[i].ok) {
            fprintf(f, md ? "| %s | failed: %s |\n" : "%-12s failed: %s\n", r[i].target, r[i].err);
            continue;
        }
        if (ort)
            snprintf(vs, sizeof vs, "%.2fx", ort->mean / r[i].mean);
        fprintf(f,
                md ? "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.0f | %.2fx | %s |\n"
                   : "%-12s %9.2f %9.2f %9.2f %9.2f %9.2f %8.2f %9.2f %9.2f %9.1f %9.0f %8.2fx %9s\n",
                r[i].target, r[i].mean, r[i].p50, r[i].p90, r[i].p95, r[i].p99, r[i].std, r[i].min,
                r[i].max, r[i].fps, r[i].peak_mb, r[i].mean / r[0].mean, vs);
    }
}

static int write_report(const BenchSetup *s, const BenchResult *r, int n, const char *prefix)
{
    char path[1024];
    FILE *f;
    cJSON *root;
    char *js;
    snprintf(path, sizeof path, "%s.md", prefix);
    if (!(f = fopen(path, "w")))
        return kiln_user_error("bench: cannot write %s: %s", path, strerror(errno));
    print_table(f, s, r, n, 1);
    fclose(f);
    snprintf(path, sizeof path, "%s.json", prefix);
    if (!(f = fopen(path, "w")))
        return kiln_user_error("bench: cannot write %s: %s", path, strerror(errno));
    root = to_json(s, r, n);
    js = cJSON_Print(root);
    fprintf(f, "%s\n", js);
    free(js);
    cJSON_Delete(root);
    fclose(f);
    fprintf(stderr, "kiln: bench: report in %s.md and %s.json\n", prefix, prefix);
    return KILN_OK;
}

/* s->model's file name with the characters a gnuplot string cannot hold dropped. */
static void chart_title(const BenchSetup *s, char *buf, size_t n)
{
    const char *m = strrchr(s->model, '/') ? strrchr(s->model, '/') + 1 : s->model;
    size_t k = 0;
    for (; *m && k + 1 < n; m++)
        if (*m != '\'' && *m != '\\' && (unsigned char)*m >= 32)
            buf[k++] = *m;
    buf[k] = 0;
}

/* The gnuplot script of the chart: one latency distribution (the share of
 * timed runs at or under each latency) per measured target, as inline data;
 * a log latency axis when the targets lie more than 20x apart. */
static void chart_script(FILE *f, const BenchSetup *s, const BenchResult *r, int n,
                         const char *svg)
{
    char title[256];
    double lo = 0, hi = 0;
    int i, j, first = 1;
    for (i = 0; i < n; i++) {
        if (!r[i].ok || !r[i].t)
            continue;
        lo = first || r[i].min < lo ? r[i].min : lo;
        hi = first || r[i].max > hi ? r[i].max : hi;
        first = 0;
        fprintf(f, "$d%d << EOD\n", i);
        for (j = 0; j < r[i].iters; j++)
            fprintf(f, "%.6f %.6f\n", r[i].t[j], (double)(j + 1) / r[i].iters);
        fprintf(f, "EOD\n");
    }
    chart_title(s, title, sizeof title);
    fprintf(f, "set terminal svg size 900,520 dynamic font 'sans,12'\n"
               "set output '%s'\n"
               "set title 'kiln bench: %s, latency distribution per target (%d timed runs each, %d threads)' noenhanced\n"
               "set xlabel 'latency (ms)'\nset ylabel 'share of runs at or under it'\n"
               "set yrange [0:1.02]\nset grid\nset key bottom right noenhanced\n",
            svg, title, s->iters * s->rounds, s->threads);
    if (lo > 0 && hi / lo > 20)
        fprintf(f, "set logscale x\n");
    fprintf(f, "plot");
    for (i = 0, first = 1; i < n; i++) {
        if (!r[i].ok || !r[i].t)
            continue;
        fprintf(f, "%s $d%d using 1:2 with steps linewidth 2 title '%s, mean %.2f ms'",
                first ? "" : ",", i, r[i].target, r[i].mean);
        first = 0;
    }
    fprintf(f, "\n");
}

/* PREFIX.svg by gnuplot (Debian gnuplot-nox), written under a temporary
 * name and renamed.  Without gnuplot: a note, no chart. */
static int write_chart(const BenchSetup *s, const BenchResult *r, int n, const char *prefix)
{
    char svg[1024], tmp[1100];
    FILE *f;
    int st;
    if (access("/usr/bin/gnuplot", X_OK) != 0) {
        fprintf(stderr, "kiln: bench: no chart: /usr/bin/gnuplot not found (Debian gnuplot-nox)\n");
        return KILN_OK;
    }
    snprintf(svg, sizeof svg, "%s.svg", prefix);
    snprintf(tmp, sizeof tmp, "%s.tmp-%d", svg, (int)getpid());
    if (strchr(tmp, '\'') || strchr(tmp, '\\'))
        return kiln_user_error("bench: cannot chart to %s: quotes in the path", svg);
    fflush(NULL);
    if (!(f = popen("/usr/bin/gnuplot", "w")))
        return kiln_user_error("bench: cannot start gnuplot: %s", strerror(errno));
    chart_script(f, s, r, n, tmp);
    st = pclose(f);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        unlink(tmp);
        return kiln_user_error("bench: gnuplot failed writing %s", svg);
    }
    if (rename(tmp, svg) != 0) {
        unlink(tmp);
        return kiln_user_error("bench: cannot write %s: %s", svg, strerror(errno));
    }
    fprintf(stderr, "kiln: bench: chart in %s\n", svg);
    return KILN_OK;
}

/* The model's inputs, once for every target: the -i files (tensors, or
 * images by the preprocessing flags), one per input in order, or seeded
 * uniform [0, 1) tensors for float inputs of static shape (input k seed
 * k + 1).  Data in a; s->input_desc names them for the reports. */
static int prepare_inputs(BenchSetup *s, GirArena *a)
{
    GirError err;
    GirGraph *g = kiln_load_model(s->model, s->nin == 0, &err);
    size_t len = 0;
    int i, rc = KILN_OK;
    if (!g)
        return kiln_report(&err);
    s->ninput = g->ninput;
    s->in = gir_arena_alloc(a, sizeof *s->in * (size_t)(g->ninput + 1));
    if (s->nin && s->nin != g->ninput) {
        rc = kiln_user_error("bench: %s has %d input%s, %d given with -i", s->model, g->ninput,
                             g->ninput == 1 ? "" : "s", s->nin);
    } else if (s->nin) {
        rc = kiln_read_inputs(g, "bench", s->ins, a, s->in);
        for (i = 0; i < s->nin && len < sizeof s->input_desc; i++)
            len += (size_t)snprintf(s->input_desc + len, sizeof s->input_desc - len, "%s%s",
                                    i ? ", " : "", s->ins[i]);
    } else {
        for (i = 0; i < g->ninput && rc == KILN_OK; i++) {
            const GirValue *v = &g->vals[g->inputs[i]];
            if (!gir_type_is_static(&v->type) || v->type.dtype != GIR_DT_F32)
                rc = kiln_user_error("bench: %s: input '%s' is not float of a static shape; "
                                     "give the inputs with -i", s->model, v->name);
            else
                kiln_random_input(&v->type, 1u + (uint64_t)i, a, &s->in[i]);
        }
        snprintf(s->input_desc, sizeof s->input_desc, "random (seed 1%s)",
                 g->ninput > 1 ? " and on, one per input" : "");
    }
    gir_graph_free(g);
    return rc;
}

/* onnxruntime's copies of the inputs: s->tmp_dir/inK.npy. */
static int write_ort_inputs(BenchSetup *s)
{
    GirError err;
    char path[128];
    int i;
    snprintf(s->tmp_dir, sizeof s->tmp_dir, "/tmp/kiln-bench-XXXXXX");
    if (!mkdtemp(s->tmp_dir)) {
        s->tmp_dir[0] = 0;
        return kiln_user_error("bench: cannot make a folder in /tmp: %s", strerror(errno));
    }
    for (i = 0; i < s->ninput; i++) {
        snprintf(path, sizeof path, "%s/in%d.npy", s->tmp_dir, i);
        if (fe_write_tensor(path, &s->in[i], &err) < 0)
            return kiln_report(&err);
    }
    return KILN_OK;
}

static void remove_ort_inputs(BenchSetup *s)
{
    char path[128];
    int i;
    if (!s->tmp_dir[0])
        return;
    for (i = 0; i < s->ninput; i++) {
        snprintf(path, sizeof path, "%s/in%d.npy", s->tmp_dir, i);
        unlink(path);
    }
    rmdir(s->tmp_dir);
    s->tmp_dir[0] = 0;
}

static void bench_usage(FILE *f)
{
    fprintf(f,
            "usage: kiln bench MODEL [--target ref|int8|cpu | --compare T1,T2,...] [options]\n"
            "  --target T        one target: ref (fp32 interpreter), int8 (int8 interpreter),\n"
            "                    cpu (compiled through LLVM), cpu-exact (cpu with --exact),\n"
            "                    cpu-untuned (cpu without --records),\n"
            "                    onnxruntime (fp32 .onnx models), fpga-sim (the accelerator of\n"
            "                    --compiled DIR in Verilator: its measured cycles at the plan's\n"
            "                    clock, --iters frames back to back); default cpu\n"
            "  --compare LIST    several targets side by side, onnxruntime among them if wanted;\n"
            "                    fastest first, with ratios; writes PREFIX.md, PREFIX.json\n"
            "                    and PREFIX.svg (latency distributions, gnuplot)\n"
            "  -i IN             input tensor (.npy, .pb) or image (.jpg, .png), one -i per\n"
            "                    model input in order; default seeded random float inputs\n"
            "  --warmup W        untimed runs first (default 2)\n"
            "  --iters N         timed runs (default 10)\n"
            "  --rounds R        run the targets in turn R times, timings merged (default 1)\n"
            "  --threads N       threads of cpu and onnxruntime (default 2)\n"
            "  --exact           cpu: no fused multiply-add in Conv (as kiln run --exact)\n"
            "  --records FILE    cpu, cpu-exact: the best schedule per workload from kiln tune's\n"
            "                    records (cpu-untuned: the default schedules, to compare)\n"
            "  --calib-random N  int8 of an fp32 model: calibration inputs (default 2)\n"
            "  --report PREFIX   report files of --compare (default kiln-bench)\n"
            "  --ort DIR         onnxruntime-node folder (default " DEFAULT_ORT ")\n"
            "  --compiled DIR    fpga-sim: the folder kiln compile wrote for MODEL\n"
            "  --json            print the figures as JSON\n");
    kiln_shape_usage(f);
    kiln_preproc_usage(f);
}

static int is_target(const char *t)
{
    return strcmp(t, "ref") == 0 || strcmp(t, "int8") == 0 || strcmp(t, "cpu") == 0 ||
           strcmp(t, "cpu-exact") == 0 || strcmp(t, "cpu-untuned") == 0 ||
           strcmp(t, "onnxruntime") == 0 ||
           strcmp(t, "fpga-sim") == 0;
}

/* A positive integer option value into *v; a KILN_ status. */
static int int_arg(int argc, char **argv, int *i, int lo, int *v)
{
    char *end;
    long x;
    if (*i + 1 >= argc)
        return kiln_user_error("bench: %s needs a value", argv[*i]);
    x = strtol(argv[*i + 1], &end, 10);
    if (*end || end == argv[*i + 1] || x < lo || x > MAX_ITERS)
        return kiln_user_error("bench: %s needs a whole number from %d to %d, not '%s'", argv[*i],
                               lo, MAX_ITERS, argv[*i + 1]);
    *v = (int)x;
    (*i)++;
    return KILN_OK;
}

/* kiln bench; *recs: the --records it loaded (the caller frees them). */
static int bench_cmd(int argc, char **argv, KlvRecords **recs)
{
    BenchSetup s;
    BenchResult res[MAX_TARGETS];
    const char *targets[MAX_TARGETS], *compare = NULL, *target = NULL, *report = "kiln-bench";
    char list[256];
    GirArena *arena = NULL;
    int ntarget = 0, json = 0, i, rc = KILN_OK, failed = 0;
    memset(&s, 0, sizeof s);
    s.warmup = 2;
    s.rounds = 1;
    s.iters = 10;
    s.threads = 2;
    s.calib_random = 2;
    s.ort_dir = getenv("KILN_ORT_DIR") ? getenv("KILN_ORT_DIR") : DEFAULT_ORT;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (kiln_is_help(a)) {
            bench_usage(stdout);
            return KILN_OK;
        } else if (strcmp(a, "--warmup") == 0) {
            if ((rc = int_arg(argc, argv, &i, 0, &s.warmup)) != KILN_OK)
                return rc;
        } else if (strcmp(a, "--iters") == 0) {
            if ((rc = int_arg(argc, argv, &i, 1, &s.iters)) != KILN_OK)
                return rc;
        } else if (strcmp(a, "--rounds") == 0) {
            if ((rc = int_arg(argc, argv, &i, 1, &s.rounds)) != KILN_OK)
                return rc;
        } else if (strcmp(a, "--threads") == 0) {
            if ((rc = int_arg(argc, argv, &i, 1, &s.threads)) != KILN_OK)
                return rc;
        } else if (strcmp(a, "--calib-random") == 0) {
            if ((rc = int_arg(argc, argv, &i, 1, &s.calib_random)) != KILN_OK)
                return rc;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--exact") == 0) {
            s.exact = 1;
        } else if (strcmp(a, "--records") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("bench: %s needs a value", a);
            klv_records_free(*recs);
            *recs = NULL;
            if ((rc = kiln_load_records("bench", argv[++i], recs)) != KILN_OK)
                return rc;
            s.records = *recs;
        } else if (strcmp(a, "--target") == 0 || strcmp(a, "--compare") == 0 ||
                   strcmp(a, "-i") == 0 || strcmp(a, "--report") == 0 || strcmp(a, "--ort") == 0 ||
                   strcmp(a, "--compiled") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("bench: %s needs a value", a);
            if (strcmp(a, "--target") == 0)
                target = argv[++i];
            else if (strcmp(a, "--compare") == 0)
                compare = argv[++i];
            else if (strcmp(a, "-i") == 0)
            {
                if (s.nin == MAX_INPUTS)
                    return kiln_user_error("bench: more than %d inputs", MAX_INPUTS);
                s.ins[s.nin++] = argv[++i];
            }
            else if (strcmp(a, "--report") == 0)
                report = argv[++i];
            else if (strcmp(a, "--compiled") == 0)
                s.compiled = argv[++i];
            else
                s.ort_dir = argv[++i];
        } else if (a[0] == '-') {
            return kiln_user_error("bench: unknown option '%s' (kiln bench --help)", a);
        } else if (!s.model) {
            s.model = a;
        } else {
            return kiln_user_error("bench: more than one model given ('%s')", a);
        }
    }
    if (!s.model)
        return kiln_user_error("bench: no model given (kiln bench --help)");
    if (target && compare)
        return kiln_user_error("bench: give --target or --compare, not both");
    if (compare) {
        char *tok, *save = NULL;
        snprintf(list, sizeof list, "%s", compare);
        for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (!is_target(tok))
                return kiln_user_error("bench: unknown target '%s' (ref, int8, cpu, cpu-exact, cpu-untuned, fpga-sim, onnxruntime)", tok);
            if (ntarget == MAX_TARGETS)
                return kiln_user_error("bench: more than %d targets", MAX_TARGETS);
            targets[ntarget++] = tok;
        }
        if (ntarget == 0)
            return kiln_user_error("bench: --compare needs a list of targets");
    } else {
        targets[ntarget++] = target ? target : "cpu";
        if (!is_target(targets[0]))
            return kiln_user_error("bench: unknown target '%s' (ref, int8, cpu, cpu-exact, cpu-untuned, fpga-sim, onnxruntime)",
                                   targets[0]);
    }
    for (i = 0; i < ntarget; i++)
        if (strcmp(targets[i], "fpga-sim") == 0 && !s.compiled)
            return kiln_user_error("bench: fpga-sim needs --compiled DIR (kiln compile MODEL -o DIR)");
    if (s.compiled && s.iters > MAX_SIM_FRAMES)
        for (i = 0; i < ntarget; i++)
            if (strcmp(targets[i], "fpga-sim") == 0)
                return kiln_user_error("bench: fpga-sim simulates at most %d frames, not %d",
                                       MAX_SIM_FRAMES, s.iters);
    if (access(s.model, R_OK) != 0)
        return kiln_user_error("bench: cannot read %s: %s", s.model, strerror(errno));
    arena = gir_arena_new();
    if ((rc = prepare_inputs(&s, arena)) != KILN_OK)
        goto out;
    for (i = 0; i < ntarget; i++)
        if (strcmp(targets[i], "onnxruntime") == 0 && (rc = write_ort_inputs(&s)) != KILN_OK)
            goto out;
    if ((rc = run_rounds(&s, targets, ntarget, res)) != KILN_OK)
        goto out;
    for (i = 0; i < ntarget; i++)
        failed |= !res[i].ok;
    qsort(res, (size_t)ntarget, sizeof res[0], by_mean);
    if (json) {
        cJSON *root = to_json(&s, res, ntarget);
        char *js = cJSON_Print(root);
        puts(js);
        free(js);
        cJSON_Delete(root);
    } else {
        print_table(stdout, &s, res, ntarget, 0);
    }
    if (compare && ((rc = write_report(&s, res, ntarget, report)) != KILN_OK ||
                    (rc = write_chart(&s, res, ntarget, report)) != KILN_OK)) {
        for (i = 0; i < ntarget; i++)
            free(res[i].t);
        goto out;
    }
    for (i = 0; i < ntarget; i++)
        free(res[i].t);
    for (i = 0; i < ntarget; i++)
        if (!res[i].ok)
            kiln_user_error("bench: %s: %s", res[i].target, res[i].err);
    rc = failed ? KILN_FAILED : KILN_OK;
out:
    remove_ort_inputs(&s);
    gir_arena_free(arena);
    return rc;
}

int kiln_cmd_bench(int argc, char **argv)
{
    KlvRecords *recs = NULL;
    int rc = bench_cmd(argc, argv, &recs);
    klv_records_free(recs);
    return rc;
}
