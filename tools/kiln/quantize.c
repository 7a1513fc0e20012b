/*
 * kiln quantize MODEL [--calib DIR | --calib-random N] [--method M] ...:
 * calibrated post-training int8 quantization (docs/quant.md).  Runs the
 * default pass pipeline, collects activation statistics on the calibration
 * inputs (through the CPU back end, or the fp32 interpreter with
 * --calib-backend ref), writes the int8 graph in the text
 * IR and, with --report, compares it with fp32 layer by layer.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "image.h"
#include "kiln.h"

#define MAX_FILES 4096 /* calibration files read from one folder */
/* --channel-scales auto: a value qualifies when its median channel's
 * threshold is below this fraction of the tensor's */
#define KILN_CS_RATIO 0.25
#define KILN_CS_MAX_TABLE (512 * 256)   /* bytes of one per-channel LutI8 (512 channels) */
#define KILN_CS_BUDGET (2048 * 1024)    /* bytes of all of them together */
/* --round learned: coordinate-descent passes per channel, and output
 * positions sampled per layer over all calibration inputs */
#define KILN_ROUND_PASSES 2
#define KILN_ROUND_POSITIONS 16384

void kiln_quant_usage(FILE *f)
{
    fprintf(f,
            "  --calib DIR        calibration inputs: the .npy, .jpg and .png files of DIR,\n"
            "                     in name order (images by the preprocessing flags)\n"
            "  --calib-random N   N seeded uniform [0, 1) inputs (default: %d)\n"
            "  --method M         activation thresholds: minmax (default), percentile, kl, mse\n"
            "  --percentile P     percentile of |x| for --method percentile (default 99.99)\n"
            "  --calib-backend B  where the calibration inputs run: cpu (default; the model\n"
            "                     compiled for this CPU) or ref (the reference interpreter)\n"
            "  --per-tensor-outputs  one scale per tensor also for head convs (by default a\n"
            "                     conv whose output leaves the int8 graph gets a scale per channel)\n"
            "  --bias-correct     each Conv's and Gemm's bias absorbs the mean error of its int8\n"
            "                     weights on its input's calibration means\n"
            "  --channel-scales S auto | off (default): auto gives a conv -> LutI8 -> conv run\n"
            "                     and a conv -> MaxPool* -> depthwise conv run whose channels'\n"
            "                     ranges are imbalanced a scale per channel; auto:R takes a\n"
            "                     value whose median channel's threshold is below R times the\n"
            "                     tensor's (auto: R = 0.25)\n"
            "  --unsigned U       off (default) | auto | floor: auto gives a value that cannot\n"
            "                     be negative (ReLU, Clip from 0, Sigmoid, HardSigmoid) 0..255\n"
            "                     where its readers take it for free; floor also a table with a\n"
            "                     small negative floor (HardSwish)\n"
            "  --fp32 N1,N2,...   keep these nodes (by name) in fp32 (mixed precision);\n"
            "                     FROM..TO the nodes from FROM to TO in graph order;\n"
            "                     auto:N the N convs and matmuls whose keeping raises most the\n"
            "                     least output cosine over the calibration inputs (see\n"
            "                     --sensitivity)\n"
            "  --round R          nearest (default) | learned: each conv's and matmul's int8\n"
            "                     weights rounded down or up to minimize its output error on\n"
            "                     the calibration inputs, in order (learned rounding) |\n"
            "                     checked: learned on every other calibration input, each\n"
            "                     channel kept nearest unless that lowers its error on the\n"
            "                     others, then learned on all\n",
            KILN_CALIB_RANDOM);
}

static void quantize_usage(FILE *f)
{
    fprintf(f,
            "usage: kiln quantize MODEL [--calib DIR | --calib-random N] [--method minmax|percentile|kl|mse|all]\n"
            "                     [--percentile P] [-o OUT.gir] [--report] [--json] [-i EVAL.npy]\n"
            "                     [--min-cosine C] [--sensitivity] [--per-tensor-outputs] [--bias-correct]\n"
            "                     [--channel-scales auto[:R]|off] [--unsigned auto|floor|off]\n"
            "                     [--fp32 NODE,...] [--round nearest|learned|checked]\n");
    kiln_quant_usage(f);
    fprintf(f,
            "                     (--method all: one calibration, a report per method)\n"
            "  -o OUT.gir         write the quantized graph in the text IR\n"
            "  --report           per-layer and per-output SQNR (dB) and cosine vs fp32\n"
            "  --json             the report as JSON\n"
            "  -i EVAL            input of the report, .npy or an image (default: a seeded\n"
            "                     random input)\n"
            "  --min-cosine C     exit 1 when an output's cosine is below C\n"
            "  --sensitivity      after the report: per int8 Conv, Gemm and MatMul, the least\n"
            "                     output cosine on the report's input when only it stays fp32\n"
            "                     (nearest rounding), most sensitive first\n");
    kiln_shape_usage(f);
    kiln_preproc_usage(f);
}

static const char *const method_names[] = {"minmax", "percentile", "kl", "mse"};

const char *kiln_method_name(GirCalibMethod m)
{
    return method_names[m];
}

void kiln_quant_opts_init(KilnQuantOpts *o)
{
    memset(o, 0, sizeof *o);
    o->method = GIR_CALIB_MINMAX;
    o->percentile = 99.99;
}

int kiln_quant_option(const char *cmd, int argc, char **argv, int *i, KilnQuantOpts *o)
{
    const char *s = argv[*i], *v;
    char *end;
    if (strcmp(s, "--per-tensor-outputs") == 0) {
        o->per_tensor_outputs = 1;
        o->given = 1;
        return KILN_OK;
    }
    if (strcmp(s, "--bias-correct") == 0) {
        o->bias_correct = 1;
        o->given = 1;
        return KILN_OK;
    }
    if (strcmp(s, "--channel-scales") == 0) {
        if (*i + 1 >= argc)
            return kiln_user_error("%s: %s needs a value", cmd, s);
        v = argv[++*i];
        o->cs_ratio = 0;
        if (strncmp(v, "auto:", 5) == 0) {
            o->cs_ratio = strtod(v + 5, &end);
            if (*end || end == v + 5 || !(o->cs_ratio > 0 && o->cs_ratio <= 1))
                return kiln_user_error("%s: --channel-scales auto:R wants a ratio R above 0 and "
                                       "at most 1, not '%s'", cmd, v);
        } else if (strcmp(v, "auto") && strcmp(v, "off"))
            return kiln_user_error("%s: --channel-scales wants auto, auto:R or off, not '%s'", cmd,
                                   v);
        o->channel_scales = strcmp(v, "off") != 0;
        o->given = 1;
        return KILN_OK;
    }
    if (strcmp(s, "--fp32") == 0) {
        if (*i + 1 >= argc)
            return kiln_user_error("%s: %s needs a value", cmd, s);
        o->fp32_nodes = argv[++*i];
        o->fp32_auto = 0;
        if (strncmp(o->fp32_nodes, "auto:", 5) == 0) {
            long k = strtol(o->fp32_nodes + 5, &end, 10);
            if (*end || end == o->fp32_nodes + 5 || k < 1 || k > 10000)
                return kiln_user_error("%s: --fp32 auto:N wants a count N from 1 to 10000, not '%s'",
                                       cmd, o->fp32_nodes);
            o->fp32_auto = (int)k;
            o->fp32_nodes = NULL;
        }
        o->given = 1;
        return KILN_OK;
    }
    if (strcmp(s, "--round") == 0) {
        if (*i + 1 >= argc)
            return kiln_user_error("%s: %s needs a value", cmd, s);
        v = argv[++*i];
        if (strcmp(v, "nearest") && strcmp(v, "learned") && strcmp(v, "checked"))
            return kiln_user_error("%s: --round wants nearest, learned or checked, not '%s'", cmd,
                                   v);
        o->round_learned = strcmp(v, "learned") == 0 ? 1 : strcmp(v, "checked") == 0 ? 2 : 0;
        o->given = 1;
        return KILN_OK;
    }
    if (strcmp(s, "--unsigned") == 0) {
        if (*i + 1 >= argc)
            return kiln_user_error("%s: %s needs a value", cmd, s);
        v = argv[++*i];
        if (strcmp(v, "auto") && strcmp(v, "off") && strcmp(v, "floor"))
            return kiln_user_error("%s: --unsigned wants auto, floor or off, not '%s'", cmd, v);
        o->unsigned_acts = strcmp(v, "auto") == 0 ? 1 : strcmp(v, "off") == 0 ? 0 : 2;
        o->given = 1;
        return KILN_OK;
    }
    if (strcmp(s, "--calib") != 0 && strcmp(s, "--calib-random") != 0 &&
        strcmp(s, "--method") != 0 && strcmp(s, "--percentile") != 0 &&
        strcmp(s, "--calib-backend") != 0)
        return -1;
    if (*i + 1 >= argc)
        return kiln_user_error("%s: %s needs a value", cmd, s);
    v = argv[++*i];
    o->given = 1;
    if (strcmp(s, "--calib") == 0) {
        o->calib_dir = v;
    } else if (strcmp(s, "--calib-random") == 0) {
        long n = strtol(v, &end, 10);
        if (*end || end == v || n < 1 || n > 100000)
            return kiln_user_error("%s: --calib-random wants a count from 1 to 100000, not '%s'",
                                   cmd, v);
        o->nrandom = (int)n;
    } else if (strcmp(s, "--method") == 0) {
        GirCalibMethod m;
        for (m = GIR_CALIB_MINMAX; m < GIR_CALIB_NMETHOD; m++)
            if (strcmp(v, method_names[m]) == 0)
                break;
        o->all = strcmp(v, "all") == 0;
        if (m == GIR_CALIB_NMETHOD && !o->all)
            return kiln_user_error("%s: unknown method '%s' (available: minmax, percentile, kl, mse, all)",
                                   cmd, v);
        if (!o->all)
            o->method = m;
    } else if (strcmp(s, "--calib-backend") == 0) {
        if (strcmp(v, "cpu") != 0 && strcmp(v, "ref") != 0)
            return kiln_user_error("%s: unknown calibration back end '%s' (cpu, ref)", cmd, v);
        o->backend = v[0] == 'c' ? KILN_CALIB_CPU : KILN_CALIB_REF;
    } else {
        o->percentile = strtod(v, &end);
        if (*end || end == v || !(o->percentile > 0 && o->percentile <= 100))
            return kiln_user_error("%s: --percentile wants a number in (0, 100], not '%s'", cmd, v);
    }
    if (o->calib_dir && o->nrandom > 0)
        return kiln_user_error("%s: --calib and --calib-random exclude each other", cmd);
    return KILN_OK;
}

/* xorshift64*: the seeded random inputs, the same on every machine. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

void kiln_random_input(const GirType *t, uint64_t seed, GirArena *a, GirTensor *out)
{
    int64_t n = gir_type_numel(t), i;
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
    float *d = gir_arena_alloc(a, sizeof *d * (size_t)(n + 1));
    for (i = 0; i < n; i++)
        d[i] = (float)((rng_next(&s) >> 40) * (1.0 / 16777216.0));
    out->type = *t;
    out->data = d;
}

/* A fed tensor must match the model's single input exactly, and hold finite
 * values: a NaN or an infinity has no place in an activation range. */
static int check_fit(const GirGraph *g, const char *file, const GirTensor *t)
{
    const GirValue *v = &g->vals[g->inputs[0]];
    char a[128], b[128];
    if (gir_type_equal(&t->type, &v->type)) {
        int64_t k, n = gir_type_numel(&t->type);
        const float *x = t->data;
        for (k = 0; t->type.dtype == GIR_DT_F32 && k < n; k++)
            if (!isfinite(x[k]))
                return kiln_user_error("quantize: %s: element %lld is %s; calibration needs "
                                       "finite values", file, (long long)k,
                                       isnan(x[k]) ? "NaN" : "an infinity");
        return KILN_OK;
    }
    return kiln_user_error("quantize: %s: tensor %s does not match input '%s' %s", file,
                           gir_type_str(&t->type, a, sizeof a), v->name,
                           gir_type_str(&v->type, b, sizeof b));
}

static void progress(int i, int n)
{
    if (isatty(2)) {
        fprintf(stderr, "\rcalibrating %d/%d", i, n);
        if (i == n)
            fputc('\n', stderr);
        fflush(stderr);
    }
}

/* Calibration input i: file (when not NULL), else the i-th seeded random
 * input; data in a. */
static int calib_input(const GirGraph *g, const char *file, int i, GirArena *a, GirTensor *t)
{
    GirError err;
    if (!file) {
        kiln_random_input(&g->vals[g->inputs[0]].type, (uint64_t)i + 1, a, t);
        return KILN_OK;
    }
    if (kiln_read_input(file, &g->vals[g->inputs[0]], a, t, &err) < 0)
        return kiln_report(&err);
    return check_fit(g, file, t);
}

int kiln_calib_inputs(const GirGraph *g, const char *calib_dir, int nrandom, GirArena *a,
                      GirTensor **out, int *n)
{
    char **files = NULL;
    int nfiles = 0, i, rc;
    if (calib_dir && (rc = kiln_list_inputs(calib_dir, a, &files, &nfiles)) != KILN_OK)
        return rc;
    *n = calib_dir ? nfiles : nrandom;
    *out = gir_arena_alloc(a, sizeof **out * (size_t)(*n + 1));
    for (i = 0; i < *n; i++)
        if ((rc = calib_input(g, calib_dir ? files[i] : NULL, i, a, &(*out)[i])) != KILN_OK)
            return rc;
    return KILN_OK;
}

/* What the last kiln_calibrate_on did, for kiln_calib_where. */
static char calib_where[1600];

const char *kiln_calib_where(void) { return calib_where; }

int kiln_calibrate(GirGraph *g, const char *calib_dir, int nrandom, GirCalib **out)
{
    return kiln_calibrate_on(g, calib_dir, nrandom, KILN_CALIB_CPU, out);
}

int kiln_calibrate_on(GirGraph *g, const char *calib_dir, int nrandom, KilnCalibBackend be,
                      GirCalib **out)
{
    GirError err;
    GirArena *a = gir_arena_new();
    GirCalib *c = NULL;
    KilnCalibCpu *cpu = NULL;
    char why[1200] = "";
    char **files = NULL;
    int nfiles = 0, i, rc = KILN_OK;
    *out = NULL;
    if (gir_run_pipeline(g, NULL, NULL, &err) < 0) {
        rc = kiln_report(&err);
        goto done;
    }
    if (g->ninput != 1) {
        rc = kiln_user_error("quantize: the model has %d inputs; calibration takes models with one",
                             g->ninput);
        goto done;
    }
    if (!gir_type_is_static(&g->vals[g->inputs[0]].type) ||
        g->vals[g->inputs[0]].type.dtype != GIR_DT_F32) {
        rc = kiln_user_error("quantize: input '%s' is not f32 with a static shape",
                             g->vals[g->inputs[0]].name);
        goto done;
    }
    if (calib_dir && (rc = kiln_list_inputs(calib_dir, a, &files, &nfiles)) != KILN_OK)
        goto done;
    c = gir_calib_new(g);
    if (be == KILN_CALIB_CPU)
        cpu = kiln_calib_cpu_attach(c, why, sizeof why);
    for (i = 0; i < (calib_dir ? nfiles : nrandom); i++) {
        GirArena *ta = gir_arena_new();
        GirTensor t;
        rc = calib_input(g, calib_dir ? files[i] : NULL, i, ta, &t);
        if (rc == KILN_OK && gir_calib_add(c, &t, &err) < 0)
            rc = kiln_report(&err);
        gir_arena_free(ta);
        if (rc != KILN_OK)
            goto done;
        progress(i + 1, calib_dir ? nfiles : nrandom);
    }
    gir_calib_set_runner(c, NULL, NULL);
    snprintf(calib_where, sizeof calib_where, "calibrated on %d input%s through %s%s%s%s",
             gir_calib_runs(c), gir_calib_runs(c) == 1 ? "" : "s", kiln_calib_cpu_note(cpu),
             why[0] ? " (" : "", why, why[0] ? ")" : "");
    *out = c;
    c = NULL;
done:
    kiln_calib_cpu_free(cpu);
    gir_calib_free(c);
    gir_arena_free(a);
    return rc;
}

int kiln_quantize_with(const GirGraph *g, const GirCalib *c, GirCalibMethod method,
                       double percentile, GirGraph **out, GirQuantNote **notes)
{
    return kiln_quantize_opts(g, c, method, percentile, 0, 0, NULL, NULL, 0, out, notes);
}

int kiln_quant_flags(const KilnQuantOpts *o)
{
    return (o->per_tensor_outputs ? KILN_Q_PER_TENSOR_OUTPUTS : 0) |
           (o->bias_correct ? KILN_Q_BIAS_CORRECT : 0) |
           (o->channel_scales ? KILN_Q_CHANNEL_SCALES : 0) |
           (o->unsigned_acts > 0 ? KILN_Q_UNSIGNED : 0) | (o->unsigned_acts > 1 ? KILN_Q_FLOOR : 0) |
           (o->round_learned ? KILN_Q_LEARNED_ROUND : 0) |
           (o->round_learned > 1 ? KILN_Q_CHECKED_ROUND : 0);
}

/* The index of g's node named p[0..len-1], or -1. */
static int node_named(const GirGraph *g, const char *p, size_t len)
{
    int i;
    for (i = 0; i < g->nnode; i++)
        if (strlen(g->nodes[i].name) == len && strncmp(g->nodes[i].name, p, len) == 0)
            return i;
    return -1;
}

/* keep[i] = 1 for each node of g named in the comma-separated list (NULL:
 * none); an entry FROM..TO (no node of that name) names the nodes from FROM
 * to TO in g's order, both included.  A name that is no node of g, or a
 * range whose TO comes before its FROM, is an error. */
static int fp32_list(const GirGraph *g, const char *list, unsigned char *keep)
{
    const char *p = list;
    while (p && *p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *dots = NULL;
        int i, found = 0, a, b;
        for (i = 0; i < g->nnode; i++)
            if (strlen(g->nodes[i].name) == len && strncmp(g->nodes[i].name, p, len) == 0) {
                keep[i] = 1;
                found = 1;
            }
        for (i = 0; !found && i + 1 < (int)len; i++)
            if (p[i] == '.' && p[i + 1] == '.') {
                dots = p + i;
                break;
            }
        if (!found && dots) {
            size_t la = (size_t)(dots - p), lb = len - la - 2;
            if ((a = node_named(g, p, la)) < 0)
                return kiln_user_error("quantize: --fp32: no node named '%.*s' (range '%.*s')",
                                       (int)la, p, (int)len, p);
            if ((b = node_named(g, dots + 2, lb)) < 0)
                return kiln_user_error("quantize: --fp32: no node named '%.*s' (range '%.*s')",
                                       (int)lb, dots + 2, (int)len, p);
            if (b < a)
                return kiln_user_error("quantize: --fp32: range '%.*s': '%.*s' (node %d) comes "
                                       "before '%.*s' (node %d) in the graph",
                                       (int)len, p, (int)lb, dots + 2, b, (int)la, p, a);
            for (i = a; i <= b; i++)
                keep[i] = 1;
            found = 1;
        }
        if (!found)
            return kiln_user_error("quantize: --fp32: no node named '%.*s'", (int)len, p);
        p = end ? end + 1 : NULL;
    }
    return KILN_OK;
}

int kiln_quantize_opts(const GirGraph *g, const GirCalib *c, GirCalibMethod method,
                       double percentile, int flags, double cs_ratio, const char *fp32_nodes,
                       const GirTensor *calib_in, int ncalib_in, GirGraph **out,
                       GirQuantNote **notes)
{
    GirRoundOpts ro;
    struct timespec t0, t1;
    GirError err;
    unsigned char *keep;
    float *thr = calloc((size_t)g->nval + 1, sizeof *thr);
    const float **chthr = calloc((size_t)g->nval + 1, sizeof *chthr);
    const double **chmean = calloc((size_t)g->nval + 1, sizeof *chmean);
    GirArena *a = gir_arena_new();
    GirChanScaleOpts cs;
    int i;
    if (!thr || !chthr || !chmean)
        gir_die("out of memory");
    keep = gir_arena_alloc(a, (size_t)g->nnode + 1);
    if ((i = fp32_list(g, fp32_nodes, keep)) != KILN_OK) {
        free(thr);
        free(chthr);
        free(chmean);
        gir_arena_free(a);
        return i;
    }
    gir_calib_thresholds(c, method, percentile, thr);
    for (i = 0; i < g->nval && (flags & KILN_Q_BIAS_CORRECT); i++) {
        const GirValue *v = &g->vals[i];
        double *m;
        if (v->kind == GIR_VAL_CONST || v->type.rank < 2 || v->type.dims[1] < 1)
            continue;
        m = gir_arena_alloc(a, sizeof *m * (size_t)v->type.dims[1]);
        if (gir_calib_channel_means(c, i, m) > 0)
            chmean[i] = m;
    }
    for (i = 0; i < g->nval; i++) {
        const GirValue *v = &g->vals[i];
        float *t;
        if (v->kind == GIR_VAL_CONST || v->type.rank < 2 || v->type.dims[1] < 2)
            continue;
        if ((flags & KILN_Q_PER_TENSOR_OUTPUTS) &&
            (!(flags & KILN_Q_CHANNEL_SCALES) || !gir_quant_chscale_candidate(g, i)))
            continue;
        t = gir_arena_alloc(a, sizeof *t * (size_t)v->type.dims[1]);
        if (gir_calib_channel_thresholds(c, i, method, percentile, t) > 0)
            chthr[i] = t;
    }
    cs.ratio = cs_ratio > 0 ? cs_ratio : KILN_CS_RATIO;
    cs.max_table = KILN_CS_MAX_TABLE;
    cs.budget = KILN_CS_BUDGET;
    ro.inputs = calib_in;
    ro.ninputs = ncalib_in;
    ro.passes = KILN_ROUND_PASSES;
    ro.positions = KILN_ROUND_POSITIONS;
    ro.check = (flags & KILN_Q_CHECKED_ROUND) != 0;
    ro.used = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    *out = gir_quantize_r(g, thr, chthr, chmean, (flags & KILN_Q_CHANNEL_SCALES) ? &cs : NULL,
                          (flags & KILN_Q_FLOOR) ? 2 : (flags & KILN_Q_UNSIGNED) ? 1 : 0,
                          fp32_nodes ? keep : NULL,
                          (flags & KILN_Q_LEARNED_ROUND) && calib_in ? &ro : NULL, notes, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (*out && (flags & KILN_Q_LEARNED_ROUND) && notes) {
        int64_t moved = 0, weights = 0, kept = 0, nch = 0;
        int layers = 0;
        for (i = 0; i < g->nnode; i++)
            if ((*notes)[i].mse_nearest >= 0) {
                layers++;
                moved += (*notes)[i].moved;
                weights += (*notes)[i].weights;
                kept += (*notes)[i].kept;
                nch += (*notes)[i].nch;
            }
        fprintf(stderr, "kiln: quantize: learned rounding of %d layers on %d inputs: %lld of "
                "%lld weights moved", layers, ro.used, (long long)moved, (long long)weights);
        if (ro.check)
            fprintf(stderr, ", %lld of %lld channels kept nearest by the check inputs",
                    (long long)kept, (long long)nch);
        fprintf(stderr, ", %.1f s\n",
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    }
    free(thr);
    free(chthr);
    free(chmean);
    gir_arena_free(a);
    return *out ? KILN_OK : kiln_report(&err);
}

static int fp32_nodes_of(const GirGraph *g, const GirCalib *c, const KilnQuantOpts *o,
                         GirArena *a, const char **list);

/* --round learned: the calibration inputs again (*a created here; NULL and
 * none without it). */
static int round_inputs(const GirGraph *g, const KilnQuantOpts *o, GirArena **a, GirTensor **in,
                        int *n)
{
    *a = NULL;
    *in = NULL;
    *n = 0;
    if (!o->round_learned)
        return KILN_OK;
    *a = gir_arena_new();
    return kiln_calib_inputs(g, o->calib_dir, o->nrandom > 0 ? o->nrandom : KILN_CALIB_RANDOM, *a,
                             in, n);
}

int kiln_quantize_model(GirGraph *g, const KilnQuantOpts *o, GirGraph **q, int *ncalib)
{
    GirCalib *c;
    GirQuantNote *notes;
    GirArena *a = NULL, *fa;
    GirTensor *in = NULL;
    const char *fp32;
    int nin = 0;
    int rc = kiln_calibrate_on(g, o->calib_dir, o->nrandom > 0 ? o->nrandom : KILN_CALIB_RANDOM,
                               o->backend, &c);
    *q = NULL;
    if (rc != KILN_OK)
        return rc;
    fa = gir_arena_new();
    *ncalib = gir_calib_runs(c);
    if (o->round_learned)
        rc = round_inputs(g, o, &a, &in, &nin);
    if (rc == KILN_OK)
        rc = fp32_nodes_of(g, c, o, fa, &fp32);
    if (rc == KILN_OK)
        rc = kiln_quantize_opts(g, c, o->method, o->percentile, kiln_quant_flags(o), o->cs_ratio,
                                fp32, in, nin, q, &notes);
    gir_calib_free(c);
    gir_arena_free(a);
    gir_arena_free(fa);
    return rc;
}

/* Print the report; returns KILN_FAILED when an output is below min_cos. */
static int report(const GirGraph *g, const GirGraph *q, const GirQuantNote *notes,
                  const GirTensor *in, int json, double min_cos, GirCalibMethod m, int ncalib)
{
    GirArena *a = gir_arena_new();
    GirAccuracy *rows;
    GirError err;
    int n, i, rc = KILN_OK, nint8 = 0;
    if (gir_accuracy(g, q, in, a, &rows, &n, &err) < 0) {
        gir_arena_free(a);
        return kiln_report(&err);
    }
    for (i = 0; i < g->nnode; i++)
        nint8 += notes[i].int8;
    for (i = 0; i < n; i++)
        if (rows[i].is_output && !(rows[i].cosine >= min_cos))
            rc = KILN_FAILED;
    if (json) {
        cJSON *root = cJSON_CreateObject(), *layers = cJSON_CreateArray();
        cJSON *outs = cJSON_CreateArray(), *fp = cJSON_CreateArray();
        char *s;
        cJSON_AddStringToObject(root, "method", method_names[m]);
        cJSON_AddNumberToObject(root, "calibration_inputs", ncalib);
        cJSON_AddNumberToObject(root, "int8_nodes", nint8);
        cJSON_AddNumberToObject(root, "nodes", g->nnode);
        for (i = 0; i < n; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", rows[i].name);
            cJSON_AddNumberToObject(o, "elements", (double)rows[i].count);
            if (isfinite(rows[i].sqnr_db))
                cJSON_AddNumberToObject(o, "sqnr_db", rows[i].sqnr_db);
            else
                cJSON_AddNullToObject(o, "sqnr_db");
            cJSON_AddNumberToObject(o, "cosine", rows[i].cosine);
            cJSON_AddItemToArray(rows[i].is_output ? outs : layers, o);
        }
        for (i = 0; i < g->nnode; i++) {
            cJSON *o;
            if (notes[i].int8)
                continue;
            o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "node", notes[i].node);
            cJSON_AddStringToObject(o, "op", gir_op_name(notes[i].op));
            cJSON_AddStringToObject(o, "why", notes[i].why ? notes[i].why : "");
            cJSON_AddItemToArray(fp, o);
        }
        cJSON_AddItemToObject(root, "layers", layers);
        cJSON_AddItemToObject(root, "outputs", outs);
        cJSON_AddItemToObject(root, "fp32_nodes", fp);
        fp = cJSON_CreateArray();
        for (i = 0; i < q->nval; i++)
            if (q->vals[i].chscale && q->vals[i].kind == GIR_VAL_NODE)
                cJSON_AddItemToArray(fp, cJSON_CreateString(q->vals[i].name));
        cJSON_AddItemToObject(root, "channel_scales", fp);
        fp = cJSON_CreateArray();
        for (i = 0; i < q->nval; i++)
            if (q->vals[i].zp && q->vals[i].kind == GIR_VAL_NODE) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "value", q->vals[i].name);
                cJSON_AddNumberToObject(o, "zero_point", q->vals[i].zp);
                cJSON_AddNumberToObject(o, "scale", q->vals[i].scale);
                cJSON_AddItemToArray(fp, o);
            }
        cJSON_AddItemToObject(root, "unsigned", fp);
        fp = cJSON_CreateArray();
        for (i = 0; i < g->nnode; i++)
            if (notes[i].mse_nearest >= 0) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "node", notes[i].node);
                cJSON_AddNumberToObject(o, "mse_nearest", notes[i].mse_nearest);
                cJSON_AddNumberToObject(o, "mse_learned", notes[i].mse_learned);
                cJSON_AddNumberToObject(o, "moved", (double)notes[i].moved);
                cJSON_AddNumberToObject(o, "weights", (double)notes[i].weights);
                cJSON_AddNumberToObject(o, "kept_nearest", (double)notes[i].kept);
                cJSON_AddNumberToObject(o, "channels", (double)notes[i].nch);
                cJSON_AddItemToArray(fp, o);
            }
        cJSON_AddItemToObject(root, "rounding", fp);
        s = cJSON_Print(root);
        puts(s);
        free(s);
        cJSON_Delete(root);
    } else {
        printf("method %s, %d calibration input%s, %d of %d nodes int8\n", method_names[m],
               ncalib, ncalib == 1 ? "" : "s", nint8, g->nnode);
        printf("%-32s %10s %10s %9s\n", "value", "elements", "SQNR(dB)", "cosine");
        for (i = 0; i < n; i++)
            printf("%-32s %10lld %10.2f %9.6f%s\n", rows[i].name, (long long)rows[i].count,
                   rows[i].sqnr_db, rows[i].cosine, rows[i].is_output ? "  (output)" : "");
        for (i = 0; i < g->nnode; i++)
            if (!notes[i].int8)
                printf("fp32 node %s (%s): %s\n", notes[i].node, gir_op_name(notes[i].op),
                       notes[i].why ? notes[i].why : "");
        for (i = 0; i < q->nval; i++) {
            const GirValue *v = &q->vals[i];
            float lo = v->scale;
            int c;
            if (!v->chscale || v->kind != GIR_VAL_NODE)
                continue;
            for (c = 0; c < v->nchscale; c++)
                lo = v->chscale[c] < lo ? v->chscale[c] : lo;
            printf("channel scales %s: %d channels, %.3g to %.3g\n", v->name, v->nchscale,
                   (double)lo, (double)v->scale);
        }
        for (i = 0; i < q->nval; i++) {
            const GirValue *v = &q->vals[i];
            if (v->zp && v->kind == GIR_VAL_NODE)
                printf("unsigned %s: zero point %d, %s%.3g (real %.4g to %.4g)\n", v->name, v->zp,
                       v->chscale ? "largest scale " : "scale ", (double)v->scale,
                       (double)(-128 - v->zp) * v->scale, (double)(127 - v->zp) * v->scale);
        }
        for (i = 0; i < g->nnode; i++)
            if (notes[i].mse_nearest >= 0)
                printf("rounding %s: layer MSE %.4g nearest, %.4g learned; %lld of %lld weights "
                       "moved\n", notes[i].node, notes[i].mse_nearest, notes[i].mse_learned,
                       (long long)notes[i].moved, (long long)notes[i].weights);
        for (i = 0; i < n; i++)
            if (rows[i].is_output)
                printf("output %s: cosine %.6f  SQNR %.2f dB\n", rows[i].name, rows[i].cosine,
                       rows[i].sqnr_db);
    }
    gir_arena_free(a);
    return rc;
}

/* Cosine similarity of two f32 tensors of n elements. */
static double cosine(const float *a, const float *b, int64_t n)
{
    double ab = 0, aa = 0, bb = 0;
    int64_t k;
    for (k = 0; k < n; k++) {
        ab += (double)a[k] * b[k];
        aa += (double)a[k] * a[k];
        bb += (double)b[k] * b[k];
    }
    return aa > 0 && bb > 0 ? ab / sqrt(aa * bb) : (aa == bb ? 1.0 : 0.0);
}

/* The least output cosine of q against ref (g's outputs, noutput per
 * input) over the nin inputs in. */
static int output_cosine(const GirGraph *q, const GirTensor *in, int nin, const GirTensor *ref,
                         double *cos)
{
    GirError err;
    int j, k;
    *cos = 1.0;
    for (k = 0; k < nin; k++) {
        GirArena *a = gir_arena_new();
        GirTensor *out = gir_arena_alloc(a, sizeof *out * (size_t)(q->noutput + 1));
        const GirTensor *r = ref + (size_t)k * (size_t)q->noutput;
        if (gir_run(q, &in[k], out, a, &err) < 0) {
            gir_arena_free(a);
            return kiln_report(&err);
        }
        for (j = 0; j < q->noutput; j++) {
            double c;
            if (out[j].type.dtype != GIR_DT_F32 || r[j].type.dtype != GIR_DT_F32)
                continue;
            c = cosine(r[j].data, out[j].data, gir_type_numel(&r[j].type));
            if (c < *cos)
                *cos = c;
        }
        gir_arena_free(a);
    }
    return KILN_OK;
}

/* One layer's figure for --sensitivity. */
typedef struct {
    const char *node; /* the layer kept in fp32 */
    GirOp op;         /* its op */
    double cos;       /* the least output cosine then */
} Sens;

static int sens_cmp(const void *x, const void *y)
{
    const Sens *a = x, *b = y;
    return a->cos < b->cos ? 1 : a->cos > b->cos ? -1 : strcmp(a->node, b->node);
}

/* For each Conv, Gemm and MatMul that is int8 when the nodes of base
 * (comma-separated, or NULL) stay fp32, the least output cosine against
 * fp32 over the nin inputs in when it stays fp32 too, with nearest
 * rounding: *rows (from a, most sensitive first, *n of them) and *all, the
 * figure with none more. */
static int rank_layers(const GirGraph *g, const GirCalib *c, const KilnQuantOpts *o,
                       const char *base, const GirTensor *in, int nin, GirArena *a, Sens **rows,
                       int *n, double *all)
{
    GirTensor *ref = gir_arena_alloc(a, sizeof *ref * (size_t)(nin * g->noutput + 1));
    unsigned char *cand = gir_arena_alloc(a, (size_t)g->nnode + 1);
    int flags = kiln_quant_flags(o) & ~(KILN_Q_LEARNED_ROUND | KILN_Q_CHECKED_ROUND), i, rc;
    GirError err;
    GirGraph *q;
    GirQuantNote *qn;
    *rows = gir_arena_alloc(a, sizeof **rows * (size_t)(g->nnode + 1));
    *n = 0;
    for (i = 0; i < nin; i++)
        if (gir_run(g, &in[i], ref + (size_t)i * (size_t)g->noutput, a, &err) < 0)
            return kiln_report(&err);
    rc = kiln_quantize_opts(g, c, o->method, o->percentile, flags, o->cs_ratio, base, NULL, 0, &q,
                            &qn);
    if (rc != KILN_OK)
        return rc;
    for (i = 0; i < g->nnode; i++)
        cand[i] = qn[i].int8 && (qn[i].op == GIR_OP_CONV || qn[i].op == GIR_OP_GEMM ||
                                 qn[i].op == GIR_OP_MATMUL);
    rc = output_cosine(q, in, nin, ref, all);
    gir_graph_free(q);
    for (i = 0; rc == KILN_OK && i < g->nnode; i++) {
        const char *list;
        if (!cand[i])
            continue;
        list = base ? gir_arena_printf(a, "%s,%s", base, g->nodes[i].name) : g->nodes[i].name;
        rc = kiln_quantize_opts(g, c, o->method, o->percentile, flags, o->cs_ratio, list, NULL, 0,
                                &q, &qn);
        if (rc != KILN_OK)
            break;
        (*rows)[*n].node = g->nodes[i].name;
        (*rows)[*n].op = g->nodes[i].op;
        rc = output_cosine(q, in, nin, ref, &(*rows)[*n].cos);
        gir_graph_free(q);
        ++*n;
    }
    if (rc == KILN_OK)
        qsort(*rows, (size_t)*n, sizeof **rows, sens_cmp);
    return rc;
}

/* --sensitivity: rank_layers on the report's input, printed. */
static int sensitivity(const GirGraph *g, const GirCalib *c, const KilnQuantOpts *o,
                       const char *base, const GirTensor *in)
{
    GirArena *a = gir_arena_new();
    Sens *rows;
    double all;
    int n, i, rc = rank_layers(g, c, o, base, in, 1, a, &rows, &n, &all);
    if (rc == KILN_OK) {
        printf("sensitivity: output cosine %.6f with every layer int8%s (nearest rounding)\n", all,
               base ? " but --fp32's" : "");
        for (i = 0; i < n; i++)
            printf("sensitivity %s (%s): output cosine %.6f with it in fp32 (%+.6f)\n", rows[i].node,
                   gir_op_name(rows[i].op), rows[i].cos, rows[i].cos - all);
    }
    gir_arena_free(a);
    return rc;
}

/* The nodes kept in fp32: --fp32's list, or for --fp32 auto:N the N layers
 * whose keeping raises most the least output cosine over the calibration
 * inputs (rank_layers; only those that raise it), joined in a. */
static int fp32_nodes_of(const GirGraph *g, const GirCalib *c, const KilnQuantOpts *o,
                         GirArena *a, const char **list)
{
    GirTensor *in;
    Sens *rows;
    double all;
    int n, nin, i, rc;
    char *s = NULL;
    *list = o->fp32_nodes;
    if (o->fp32_auto <= 0)
        return KILN_OK;
    rc = kiln_calib_inputs(g, o->calib_dir, o->nrandom > 0 ? o->nrandom : KILN_CALIB_RANDOM, a,
                           &in, &nin);
    if (rc != KILN_OK || nin < 1)
        return rc;
    if ((rc = rank_layers(g, c, o, NULL, in, nin, a, &rows, &n, &all)) != KILN_OK)
        return rc;
    for (i = 0; i < n && i < o->fp32_auto && rows[i].cos > all; i++)
        s = s ? gir_arena_printf(a, "%s,%s", s, rows[i].node) : gir_arena_strdup(a, rows[i].node);
    *list = s;
    fprintf(stderr, "kiln: quantize: --fp32 auto:%d: %s in fp32 (least output cosine over the %d "
            "calibration inputs %.6f all int8, %.6f with the first alone in fp32)\n", o->fp32_auto,
            s ? s : "no layer", nin, all, n ? rows[0].cos : all);
    return KILN_OK;
}

/* The report's input: the file given, else a seeded random input no
 * calibration run uses.  *a is created here. */
static int eval_input(const GirGraph *g, const char *eval, GirArena **a, GirTensor *in)
{
    GirError err;
    *a = gir_arena_new();
    if (!eval) {
        kiln_random_input(&g->vals[g->inputs[0]].type, 1000003, *a, in);
        return KILN_OK;
    }
    if (kiln_read_input(eval, &g->vals[g->inputs[0]], *a, in, &err) < 0)
        return kiln_report(&err);
    return check_fit(g, eval, in);
}

int kiln_cmd_quantize(int argc, char **argv)
{
    const char *path = NULL, *out_path = NULL, *eval = NULL;
    int rep = 0, json = 0, sens = 0, i, rc, ncalib = 0;
    double min_cos = -2;
    KilnQuantOpts qo;
    GirCalibMethod m;
    GirCalib *c = NULL;
    GirGraph *g = NULL, *q = NULL;
    GirQuantNote *notes = NULL;
    GirArena *a = NULL, *ra = NULL, *fa = NULL;
    GirError err;
    GirTensor in, *rin = NULL;
    const char *fp32 = NULL;
    int nrin = 0;
    kiln_quant_opts_init(&qo);
    for (i = 1; i < argc; i++) {
        const char *s = argv[i];
        int takes = strcmp(s, "-o") == 0 || strcmp(s, "-i") == 0 ||
                    strcmp(s, "--min-cosine") == 0;
        const char *v = takes && i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (kiln_is_help(s)) {
            quantize_usage(stdout);
            return KILN_OK;
        }
        if ((rc = kiln_quant_option("quantize", argc, argv, &i, &qo)) >= 0) {
            if (rc != KILN_OK)
                return rc;
            continue;
        }
        if (takes && !v)
            return kiln_user_error("quantize: %s needs a value", s);
        if (takes)
            i++;
        if (strcmp(s, "--min-cosine") == 0) {
            min_cos = strtod(v, &end);
            if (*end)
                return kiln_user_error("quantize: --min-cosine wants a number, not '%s'", v);
        } else if (strcmp(s, "-o") == 0) {
            out_path = v;
        } else if (strcmp(s, "-i") == 0) {
            eval = v;
        } else if (strcmp(s, "--report") == 0) {
            rep = 1;
        } else if (strcmp(s, "--sensitivity") == 0) {
            sens = 1;
            rep = 1;
        } else if (strcmp(s, "--json") == 0) {
            json = 1;
            rep = 1;
        } else if (s[0] == '-') {
            quantize_usage(stderr);
            return kiln_user_error("quantize: unknown option '%s'", s);
        } else if (!path) {
            path = s;
        } else {
            return kiln_user_error("quantize: more than one model given ('%s')", s);
        }
    }
    if (!path) {
        quantize_usage(stderr);
        return kiln_user_error("quantize: no model given");
    }
    if (min_cos > -2 || qo.all)
        rep = 1;
    if (qo.all && out_path)
        return kiln_user_error("quantize: --method all reports only; it takes no -o");
    if (qo.all && sens)
        return kiln_user_error("quantize: --sensitivity takes one method, not --method all");
    if (json && sens)
        return kiln_user_error("quantize: --sensitivity prints text; it takes no --json");
    g = kiln_load_model(path, 1, &err);
    if (!g)
        return kiln_report(&err);
    rc = kiln_calibrate_on(g, qo.calib_dir, qo.nrandom > 0 ? qo.nrandom : KILN_CALIB_RANDOM,
                           qo.backend, &c);
    if (rc != KILN_OK)
        goto out;
    ncalib = gir_calib_runs(c);
    if ((rc = round_inputs(g, &qo, &ra, &rin, &nrin)) != KILN_OK)
        goto out;
    fa = gir_arena_new();
    if ((rc = fp32_nodes_of(g, c, &qo, fa, &fp32)) != KILN_OK)
        goto out;
    if (qo.all) {
        /* Every method on the one calibration: reports only. */
        if ((rc = eval_input(g, eval, &a, &in)) != KILN_OK)
            goto out;
        for (m = GIR_CALIB_MINMAX; m < GIR_CALIB_NMETHOD; m++) {
            int r;
            if ((rc = kiln_quantize_opts(g, c, m, qo.percentile, kiln_quant_flags(&qo), qo.cs_ratio, fp32, rin, nrin, &q, &notes)) != KILN_OK)
                goto out;
            r = report(g, q, notes, &in, json, min_cos, m, ncalib);
            gir_graph_free(q);
            q = NULL;
            if (r == KILN_BAD_INPUT) {
                rc = r;
                goto out;
            }
            if (r != KILN_OK)
                rc = r;
        }
        goto out;
    }
    if ((rc = kiln_quantize_opts(g, c, qo.method, qo.percentile, kiln_quant_flags(&qo), qo.cs_ratio, fp32, rin, nrin, &q, &notes)) != KILN_OK)
        goto out;
    if (out_path) {
        FILE *f = fopen(out_path, "w");
        if (!f) {
            rc = kiln_user_error("quantize: cannot write %s: %s", out_path, strerror(errno));
            goto out;
        }
        gir_print(q, f, 0);
        if (fclose(f) != 0) {
            rc = kiln_user_error("quantize: cannot write %s: %s", out_path, strerror(errno));
            goto out;
        }
    } else if (!rep) {
        gir_print(q, stdout, 0);
    }
    if (rep) {
        if ((rc = eval_input(g, eval, &a, &in)) != KILN_OK)
            goto out;
        rc = report(g, q, notes, &in, json, min_cos, qo.method, ncalib);
        if (sens && rc != KILN_BAD_INPUT) {
            int r = sensitivity(g, c, &qo, fp32, &in);
            if (r != KILN_OK)
                rc = r;
        }
    }
out:
    if (rc == KILN_OK)
        fprintf(stderr, "kiln: quantize: %s\n", kiln_calib_where());
    gir_calib_free(c);
    gir_arena_free(a);
    gir_arena_free(ra);
    gir_arena_free(fa);
    gir_graph_free(q);
    gir_graph_free(g);
    return rc;
}
