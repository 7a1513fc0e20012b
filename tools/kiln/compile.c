/*
 * kiln compile MODEL --board B|FILE.xml [--clock MHZ] -o DIR [--plan plan.json]
 *                    [--pin NODE=PE_OCxPE_ICxPP]... [--pp-max N] [--interval-first] [--json]
 *                    [--calib DIR | --calib-random N] [--method M] [--plan-only]
 * Loads the model, quantizes an fp32 one (calibration as kiln quantize),
 * partitions it, plans the dataflow for the board (or replays a plan) and
 * writes DIR/plan.json, DIR/report.md, DIR/dataflow.dot, DIR/dataflow.svg,
 * DIR/model.gir (the planned int8 graph in the text IR, for kiln simulate's
 * interpreter), DIR/rtl/ (Verilog, register map, weights.bin) and
 * DIR/vivado/ (the package) and DIR/driver/ (the per-model driver,
 * docs/driver.md; its preprocessing and detector options are
 * rtl_driver_option's; a model the driver does not take gets a note saying
 * why).  When rtl/ or vivado/ cannot be written the
 * command fails, unless --plan-only asked for the plan alone.  The folder is
 * built under a temporary name and renamed at the end, so a failed compile
 * never leaves a folder that looks complete, and a previous DIR survives it.
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hls/plan.h"
#include "llvm/llvm.h"
#include "image.h"
#include "pipeline/pipeline.h"
#include "kiln.h"

#define MAX_PINS 256 /* --pin options per command */

static void compile_usage(FILE *f)
{
    fprintf(f,
            "usage: kiln compile MODEL --board NAME|FILE.xml [--clock MHZ] -o DIR\n"
            "                    [--plan plan.json] [--pin NODE=PE_OCxPE_ICxPP]... [--pp-max N]\n"
            "                    [--max-latency-ms X] [--interval-first] [--clk2x on|auto|off]\n"
            "                    [--fold auto|none|LAYER,...] [--cpu-fallback on|off]\n"
            "                    [--rq-dsp auto|2]\n"
            "                    [--calib DIR | --calib-random N] [--method M] [--percentile P]\n"
            "                    [--plan-only] [--json]\n"
            "  --board   bundled board name (kiln boards) or a board XML file\n"
            "  --clock   target clock in MHz (default: the board's)\n"
            "  -o DIR    output folder: plan.json, report.md, dataflow.dot, dataflow.svg,\n"
            "            model.gir, rtl/, vivado/\n"
            "  --plan    replay a plan.json instead of exploring\n"
            "  --records FILE  kiln tune's records: the best schedule per workload for the CPU\n"
            "            partitions' objects (where their target matches the records')\n"
            "  --pin     fix a conv layer's parallelism, e.g. --pin conv12=16x32x2\n"
            "  --pp-max  largest pixel parallelism the search may give a conv, 1..8\n"
            "            (default 8; PP 3, 5, 6, 7 fill the steps between powers of two)\n"
            "  --max-latency-ms  latency bound: the fastest plan within it; exit 2 naming\n"
            "            the shortest latency reached when none is (a --plan is checked)\n"
            "  --interval-first  keep the plan of the shortest interval whatever its\n"
            "            latency (default: a plan of an interval at most 10%% longer is kept\n"
            "            where its latency is shorter by more than 4x that share)\n"
            "  --clk2x   DSPs at twice the clock (a clk2x domain for the conv MAC arrays)\n"
            "            where the board's DSP48E2 FMAX allows it: on, auto (default: plan\n"
            "            both, keep the faster, the fabric clock's on a tie), off (every DSP\n"
            "            on the fabric clock); plan.json keeps the choice\n"
            "  --fold    time-shared conv engine (kiln_tsconv) for weight-heavy layers:\n"
            "            LAYER,... run one after the other on it, auto tries the convs of\n"
            "            the smallest maps (nested sets, every engine size) and folds the\n"
            "            fastest where that is faster, none (default)\n"
            "  --rq-dsp  DSP48E2 a requant lane: auto (the search's default: one, its\n"
            "            high product in LUTs, on the engines where DSPs bind and it fits;\n"
            "            with --plan chosen again, else the plan's own), 2 (two everywhere)\n"
            "  --cpu-fallback  where the smallest design breaks a budget: on (default)\n"
            "            moves layers to the CPU until it fits, one line a move; off refuses\n"
            "  --plan-only  write the plan alone: no rtl/, no vivado/\n"
            "  --json    print the figures as JSON\n"
            "Driver (DIR/driver, docs/driver.md): --mean R,G,B --std R,G,B | --scale S --bgr\n"
            "  --nhwc --alpha --resize stretch|pad   image preprocessing of kiln-infer\n"
            "  --detect yolov3|region --anchors W,H,... --classes N [--score-threshold T]\n"
            "  [--iou-threshold T]   YOLO decode + NMS for an ONNX model's raw heads\n"
            "An fp32 model is quantized first, as kiln quantize does it:\n");
    kiln_quant_usage(f);
    fprintf(f, "Figures are predictions of the cycle and resource models.\n");
    kiln_shape_usage(f);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* Remove what a compile writes into dir (and sim/, which kiln simulate
 * adds), then dir itself when nothing else is left in it: a folder holding
 * files of the user's is kept.  0 when dir is gone. */
static int remove_out(const char *dir)
{
    static const char *const files[] = {"plan.json", "report.md", "dataflow.dot", "dataflow.svg",
                                        "model.gir"};
    char path[4096];
    size_t i;
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rtl_remove(dir);
    rtl_driver_remove(dir);
    snprintf(path, sizeof path, "%s/sim", dir);
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rmdir(dir) == 0 || errno == ENOENT ? 0 : -1;
}

/* dot -Tsvg; 1 when graphviz is not installed, -1 when it failed. */
static int run_dot(const char *dir)
{
    char in[4096], out[4096];
    pid_t pid;
    int st;
    if (access("/usr/bin/dot", X_OK) != 0)
        return 1;
    snprintf(in, sizeof in, "%s/dataflow.dot", dir);
    snprintf(out, sizeof out, "%s/dataflow.svg", dir);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execl("/usr/bin/dot", "dot", "-Tsvg", in, "-o", out, (char *)NULL);
        _exit(127);
    }
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return -1;
    return 0;
}

/* Every file of the plan into dir: plan.json, report.md (with a line
 * saying rtl/ and vivado/ were left out when plan_only), dataflow.dot,
 * model.gir.  0, or -1 with errno. */
static int write_plan(const HlsPlan *p, const GirGraph *g, const char *dir, double compile_ms,
                      int plan_only)
{
    char path[4096];
    char *json = hls_plan_json(p), *buf = NULL;
    size_t len = 0;
    FILE *f;
    int rc = write_file(dir, "plan.json", json);
    free(json);
    f = open_memstream(&buf, &len);
    if (!f)
        gir_die("out of memory");
    hls_plan_report(p, f, compile_ms);
    if (plan_only)
        fprintf(f, "\nPlan only (`kiln compile --plan-only`): rtl/ and vivado/ were not "
                   "written.\n");
    fclose(f);
    if (rc == 0)
        rc = write_file(dir, "report.md", buf);
    free(buf);
    f = open_memstream(&buf, &len);
    if (!f)
        gir_die("out of memory");
    hls_plan_dot(p, f);
    fclose(f);
    if (rc == 0)
        rc = write_file(dir, "dataflow.dot", buf);
    free(buf);
    if (rc == 0) { /* the planned graph, for kiln simulate */
        snprintf(path, sizeof path, "%s/model.gir", dir);
        f = fopen(path, "w");
        rc = !f ? -1 : gir_print(g, f, 0) < 0 ? (fclose(f), -1) : fclose(f);
    }
    return rc;
}

/* rtl/ and vivado/ into dir; a KILN_ status, the reason printed.  A plan
 * with FPGA convolutions needs their int8 weights (weights.bin): without
 * them the RTL could not run. */
static int write_rtl(const HlsPlan *p, const GirGraph *g, const char *dir)
{
    char path[4096];
    GirError err;
    int i, convs = 0;
    if (rtl_check(p, g, &err) < 0)
        return kiln_user_error("compile: rtl/ cannot be generated for this plan: %s "
                               "(--plan-only writes the plan alone)", err.msg);
    if (rtl_write(p, g, dir, &err) < 0)
        return kiln_report(&err);
    for (i = 0; i < p->nstage; i++)
        convs += p->stages[i].kind == HLS_ST_CONV || p->stages[i].kind == HLS_ST_DWCONV;
    snprintf(path, sizeof path, "%s/rtl/weights.bin", dir);
    if (convs && access(path, F_OK) != 0)
        return kiln_user_error("compile: rtl/ has no weights.bin: the FPGA layers of %s are not "
                               "all int8 (kiln quantize --report names the fp32 ones)", p->model);
    return KILN_OK;
}

/* Put the finished tmp folder in place of dir.  An existing dir is
 * replaced only when it holds a previous compile (plan.json) or nothing;
 * it is renamed aside first and restored when the rename fails. */
static int replace_dir(const char *tmp, const char *dir)
{
    char old[4096], path[4096];
    int had_old = 0;
    snprintf(path, sizeof path, "%s/plan.json", dir);
    snprintf(old, sizeof old, "%s.old-%ld", dir, (long)getpid());
    if (access(path, F_OK) == 0) {
        if (rename(dir, old) != 0)
            return kiln_user_error("compile: cannot replace %s: %s", dir, strerror(errno));
        had_old = 1;
    } else {
        rmdir(dir); /* an empty folder the user made is fine to replace */
    }
    if (rename(tmp, dir) != 0) {
        int err = errno;
        if (had_old)
            rename(old, dir);
        return kiln_user_error("compile: cannot create %s: %s", dir, strerror(err));
    }
    if (had_old && remove_out(old) < 0)
        fprintf(stderr, "kiln: note: the previous %s held files of other tools; kept as %s\n",
                dir, old);
    return KILN_OK;
}

/* DIR/driver beside rtl/: 0 written, 1 not (a note says why), -1 error
 * (printed). */
static int write_driver(const HlsPlan *p, const GirGraph *g, const RtlDriverOptions *o,
                        const char *tmp)
{
    GirError e;
    int rc = rtl_driver_check(p, g, o, &e);
    if (rc > 0)
        fprintf(stderr, "kiln: note: driver/ not written: %s\n", e.msg);
    if (rc == 0 && rtl_driver_write(p, g, o, tmp, &e) < 0)
        rc = -1;
    if (rc < 0)
        kiln_report(&e);
    return rc;
}

/* Write the output folder atomically: a tmp folder beside DIR, filled,
 * then renamed to DIR.  Any failure removes the tmp folder and leaves a
 * previous DIR as it was. */
static int write_outputs(const HlsPlan *p, const GirGraph *g, const char *dir, double compile_ms,
                         int plan_only, int *svg, const RtlDriverOptions *dopt, int *drv)
{
    char tmp[4096];
    int rc;
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", dir, (long)getpid());
    remove_out(tmp);
    if (mkdir(tmp, 0777) != 0)
        return kiln_user_error("compile: cannot create %s: %s", tmp, strerror(errno));
    if (write_plan(p, g, tmp, compile_ms, plan_only) != 0)
        rc = kiln_user_error("compile: cannot write into %s: %s", tmp, strerror(errno));
    else
        rc = plan_only ? KILN_OK : write_rtl(p, g, tmp);
    if (rc == KILN_OK && !plan_only && (*drv = write_driver(p, g, dopt, tmp)) < 0)
        rc = KILN_BAD_INPUT;
    if (rc == KILN_OK && (*svg = run_dot(tmp)) < 0)
        rc = kiln_user_error("compile: dot -Tsvg failed on %s/dataflow.dot", tmp);
    if (rc == KILN_OK)
        rc = replace_dir(tmp, dir);
    if (rc != KILN_OK)
        remove_out(tmp);
    return rc;
}

/* Plan g for board b: replay plan_path when given, else search with o.
 * A KILN_ status; *out the plan. */
static int make_plan(const GirGraph *g, const HlsBoard *b, const HlsPlanOptions *o,
                     const char *plan_path, double mhz, HlsPlan **out)
{
    GirError err;
    char *text;
    *out = NULL;
    if (!plan_path) {
        *out = hls_plan_build(g, b, o, &err);
        return *out ? KILN_OK : kiln_report(&err);
    }
    text = kiln_read_file(plan_path, NULL);
    if (!text)
        return kiln_user_error("%s: cannot read: %s", plan_path, strerror(errno));
    *out = hls_plan_replay(g, b, text, plan_path, mhz, &err);
    free(text);
    if (*out && o->rq_dsp != HLS_RQ_DSP_DEFAULT && hls_plan_rq_dsp(*out, o->rq_dsp, &err) < 0) {
        hls_plan_free(*out);
        *out = NULL;
    }
    if (*out && o->max_latency_ms > 0 && (*out)->latency_ms > o->max_latency_ms) {
        double ms = (*out)->latency_ms;
        hls_plan_free(*out);
        *out = NULL;
        return kiln_user_error("%s: the plan's latency %.3f ms exceeds --max-latency-ms %g",
                               plan_path, ms, o->max_latency_ms);
    }
    return *out ? KILN_OK : kiln_report(&err);
}

/* An fp32 *g is quantized as qo says, and *how gets a line saying so (and
 * how; malloc'd, NULL for an int8 graph), printed when the compile succeeds, so a
 * failure stays one line; *fp32 then keeps the fp32 graph (the int8 one
 * borrows its strings).
 * Calibration runs the model many times: the fp32 graph is planned first
 * (the same stages as its int8 form), so a model that does not fit the
 * board, or a bad --plan or --pin, is refused before that (under --clk2x
 * auto a fit on the fabric clock is enough).  An int8 graph
 * is planned as it is, and calibration options for it are refused.  A
 * KILN_ status. */
static int quantize(GirGraph **g, GirGraph **fp32, const char *model, const KilnQuantOpts *qo,
                    const HlsBoard *b, const HlsPlanOptions *o, const char *plan_path,
                    double mhz, char **how)
{
    GirGraph *q;
    GirError err;
    HlsPlan *p;
    FILE *f;
    size_t len;
    int rc, n;
    if (kiln_is_quantized(*g)) {
        if (qo->given)
            return kiln_user_error("compile: %s is already quantized; --calib, --calib-random, "
                                   "--method, --percentile, --per-tensor-outputs, --bias-correct and --channel-scales apply to "
                                   "fp32 models", model);
        return KILN_OK;
    }
    if (gir_run_pipeline(*g, NULL, NULL, &err) < 0)
        return kiln_report(&err);
    p = NULL;
    if (!plan_path && o->clk2x == HLS_CLK2X_AUTO) {
        /* --clk2x auto: the fabric clock's search alone, half the time; the
         * clk2x one only where that does not fit */
        HlsPlanOptions fabric = *o;
        fabric.clk2x = HLS_CLK2X_OFF;
        p = hls_plan_build(*g, b, &fabric, &err);
    }
    if (!p && (rc = make_plan(*g, b, o, plan_path, mhz, &p)) != KILN_OK)
        return rc;
    hls_plan_free(p);
    if ((rc = kiln_quantize_model(*g, qo, &q, &n)) != KILN_OK)
        return rc;
    *fp32 = *g;
    *g = q;
    f = open_memstream(how, &len);
    if (!f)
        gir_die("out of memory");
    if (qo->calib_dir)
        fprintf(f, "kiln compile: quantized %s to int8: %s thresholds from %d "
                "calibration input%s of %s\n", model, kiln_method_name(qo->method), n,
                n == 1 ? "" : "s", qo->calib_dir);
    else
        fprintf(f, "kiln compile: quantized %s to int8: %s thresholds from %d seeded "
                "random input%s%s\n", model, kiln_method_name(qo->method), n,
                n == 1 ? "" : "s",
                qo->nrandom ? "" : " (the default; --calib DIR calibrates on real inputs)");
    fclose(f);
    return KILN_OK;
}

/* The plan's figures on stdout (plan.json itself with json), and what was
 * written. */
static void print_figures(const HlsPlan *p, const HlsBoard *b, const char *outdir, int json,
                          int svg, int plan_only, int drv)
{
    if (json) {
        char *s = hls_plan_json(p);
        puts(s);
        free(s);
        return;
    }
    printf("%s on %s at %.0f MHz (predicted): %.1f frames/s, latency %.3f ms, "
           "DSP efficiency %.1f%%\n",
           p->model, p->board.name, p->mhz, p->fps, p->latency_ms, 100.0 * p->dsp_eff);
    printf("resources: DSP %.0f/%lld, BRAM36 %.1f/%lld, URAM %.0f/%lld, LUT %.0f/%lld, "
           "FF %.0f/%lld; %d FPGA layers, %d CPU nodes, %d segment(s)\n",
           p->total.dsp, (long long)b->dsp, p->total.bram36, (long long)b->bram36,
           p->total.uram, (long long)b->uram, p->total.lut, (long long)b->lut, p->total.ff,
           (long long)b->ff, p->nstage, p->ncpu, p->nsegment);
    printf("limit: %s\n", p->limit);
    if (p->fit.nmove > 0) {
        int i;
        printf("moved to the CPU: ");
        hls_fit_summary(p, stdout);
        printf("\n");
        for (i = 0; i < p->fit.nmove; i++)
            printf("moved to the CPU (move %d): %s\n", i + 1, p->fit.moves[i].why);
    }
    if (p->clk2x_why[0])
        printf("%s\n", p->clk2x_why);
    if (svg == 1)
        printf("note: graphviz 'dot' not installed: dataflow.svg not drawn\n");
    if (plan_only)
        printf("note: --plan-only: rtl/ and vivado/ not written\n");
    printf("wrote %s/{plan.json,report.md,dataflow.dot%s%s%s}\n", outdir,
           svg == 0 ? ",dataflow.svg" : "", plan_only ? "" : ",rtl/,vivado/",
           !plan_only && drv == 0 ? ",driver/" : "");
}

int kiln_cmd_compile(int argc, char **argv)
{
    const char *model = NULL, *board = NULL, *outdir = NULL, *plan_path = NULL, *records = NULL;
    KlvRecords *recs = NULL;
    double mhz = 0.0, t0 = now_ms(), ms;
    int json = 0, i, rc, svg = 1, plan_only = 0, drv = 1, k, clk2x_given = 0;
    RtlDriverOptions dopt;
    char *how = NULL;
    HlsPin *pins = calloc(MAX_PINS, sizeof *pins);
    HlsPlanOptions opts = {0};
    KilnQuantOpts qo;
    GirError err;
    GirGraph *g = NULL, *fp32 = NULL;
    HlsBoard b;
    HlsPlan *p = NULL;

    if (!pins)
        gir_die("out of memory");
    opts.pins = pins;
    kiln_quant_opts_init(&qo);
    rtl_driver_defaults(&dopt);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if ((rc = kiln_quant_option("compile", argc, argv, &i, &qo)) >= 0) {
            if (rc != KILN_OK) {
                free(pins);
                return rc;
            }
        } else if (kiln_is_help(a)) {
            compile_usage(stdout);
            free(pins);
            return KILN_OK;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--plan-only")) {
            plan_only = 1;
        } else if (!strcmp(a, "--board") && more) {
            board = argv[++i];
        } else if (!strcmp(a, "-o") && more) {
            outdir = argv[++i];
        } else if (!strcmp(a, "--plan") && more) {
            plan_path = argv[++i];
        } else if (!strcmp(a, "--records") && more) {
            records = argv[++i];
        } else if (!strcmp(a, "--clock") && more) {
            char *end;
            mhz = strtod(argv[++i], &end);
            if (*end || !(mhz >= 1.0) || mhz > 1000.0) {
                free(pins);
                return kiln_user_error("compile: --clock '%s': expected MHz in [1, 1000]", argv[i]);
            }
        } else if (!strcmp(a, "--pp-max") && more) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || v < 1 || v > HLS_PP_MAX) {
                free(pins);
                return kiln_user_error("compile: --pp-max '%s': expected an integer in 1..%d",
                                       argv[i], HLS_PP_MAX);
            }
            opts.pp_max = (int)v;
        } else if (!strcmp(a, "--interval-first")) {
            opts.interval_first = 1;
        } else if (!strcmp(a, "--max-latency-ms") && more) {
            char *end;
            opts.max_latency_ms = strtod(argv[++i], &end);
            if (*end || end == argv[i] || !(opts.max_latency_ms > 0) ||
                opts.max_latency_ms > 1e6) {
                free(pins);
                return kiln_user_error("compile: --max-latency-ms '%s': expected milliseconds "
                                       "in (0, 1e6]", argv[i]);
            }
        } else if (!strcmp(a, "--clk2x") && more) {
            const char *v = argv[++i];
            clk2x_given = 1;
            if (!strcmp(v, "on"))
                opts.clk2x = HLS_CLK2X_ON;
            else if (!strcmp(v, "auto"))
                opts.clk2x = HLS_CLK2X_AUTO;
            else if (!strcmp(v, "off"))
                opts.clk2x = HLS_CLK2X_OFF;
            else {
                free(pins);
                return kiln_user_error("compile: --clk2x '%s': expected on, auto or off", v);
            }
        } else if (!strcmp(a, "--rq-dsp") && more) {
            const char *v = argv[++i];
            if (!strcmp(v, "auto"))
                opts.rq_dsp = HLS_RQ_DSP_AUTO;
            else if (!strcmp(v, "2"))
                opts.rq_dsp = HLS_RQ_DSP_TWO;
            else {
                free(pins);
                return kiln_user_error("compile: --rq-dsp '%s': expected auto or 2", v);
            }
        } else if (!strcmp(a, "--cpu-fallback") && more) {
            const char *v = argv[++i];
            if (!strcmp(v, "on") || !strcmp(v, "off")) {
                opts.no_cpu_fallback = !strcmp(v, "off");
            } else {
                free(pins);
                return kiln_user_error("compile: --cpu-fallback '%s': expected on or off", v);
            }
        } else if (!strcmp(a, "--fold") && more) {
            opts.fold = argv[++i];
            if (!*opts.fold || *opts.fold == ',') {
                free(pins);
                return kiln_user_error("compile: --fold '%s': expected auto, none or LAYER,...",
                                       opts.fold);
            }
        } else if (!strcmp(a, "--pin") && more) {
            if (opts.npins == MAX_PINS) {
                free(pins);
                return kiln_user_error("compile: more than %d --pin options", MAX_PINS);
            }
            if (hls_pin_parse(argv[++i], &pins[opts.npins++], &err) < 0) {
                free(pins);
                return kiln_report(&err);
            }
        } else if ((k = rtl_driver_option(&dopt, argc - i, argv + i, &err)) != 0) {
            int j = i; /* the preprocessing flags also apply to --calib's images */
            if (k < 0) {
                free(pins);
                return kiln_report(&err);
            }
            if (kiln_preproc_arg(argc, argv, &j) < 0) {
                free(pins);
                return KILN_BAD_INPUT;
            }
            i += k - 1;
        } else if (a[0] == '-') {
            compile_usage(stderr);
            free(pins);
            return kiln_user_error("compile: unknown option or missing value '%s'", a);
        } else if (!model) {
            model = a;
        } else {
            free(pins);
            return kiln_user_error("compile: more than one model given ('%s')", a);
        }
    }
    if (!model || !board || !outdir) {
        compile_usage(stderr);
        free(pins);
        return kiln_user_error("compile: %s", !model ? "no model given" :
                               !board ? "no --board given" : "no output folder (-o DIR) given");
    }
    if (plan_path && opts.npins) {
        free(pins);
        return kiln_user_error("compile: --pin and --plan exclude each other (pin in plan.json)");
    }
    /* a replay takes plan.json's clk2x; --clk2x off beside it stays accepted */
    if (plan_path && clk2x_given && opts.clk2x != HLS_CLK2X_OFF) {
        free(pins);
        return kiln_user_error("compile: --clk2x and --plan exclude each other (clk2x in plan.json)");
    }
    if (plan_path && opts.fold) {
        free(pins);
        return kiln_user_error("compile: --fold and --plan exclude each other (a replay does not search)");
    }
    if (plan_path && opts.pp_max) {
        free(pins);
        return kiln_user_error("compile: --pp-max and --plan exclude each other (a replay does not search)");
    }
    if (plan_path && opts.interval_first) {
        free(pins);
        return kiln_user_error("compile: --interval-first and --plan exclude each other "
                               "(a replay does not search)");
    }
    if (qo.all) {
        free(pins);
        return kiln_user_error("compile: --method all compares methods; kiln quantize --method all "
                               "reports them, kiln compile takes one");
    }
    if (hls_board_load(board, &b, &err) < 0) {
        free(pins);
        return kiln_report(&err);
    }
    if (records && (rc = kiln_load_records("compile", records, &recs)) != KILN_OK) {
        free(pins);
        return rc;
    }
    dopt.records = recs;
    g = kiln_load_model(model, 1, &err);
    if (!g) {
        free(pins);
        klv_records_free(recs);
        return kiln_report(&err);
    }
    opts.mhz = mhz; /* the search's clock (a replay takes mhz below) */
    rc = quantize(&g, &fp32, model, &qo, &b, &opts, plan_path, mhz, &how);
    if (rc == KILN_OK)
        rc = make_plan(g, &b, &opts, plan_path, mhz, &p);
    ms = now_ms() - t0;
    if (rc == KILN_OK)
        rc = write_outputs(p, g, outdir, ms, plan_only, &svg, &dopt, &drv);
    if (rc == KILN_OK) {
        if (how)
            fputs(how, stderr);
        print_figures(p, &b, outdir, json, svg, plan_only, drv);
        fprintf(json ? stderr : stdout, "compile time: %.0f ms\n", ms);
    }
    hls_plan_free(p);
    gir_graph_free(g);
    gir_graph_free(fp32);
    free(how);
    free(pins);
    klv_records_free(recs);
    return rc;
}
