/*
 * kiln compile MODEL --board B|FILE.xml [--clock MHZ] -o DIR [--plan plan.json]
 *                    [--pin NODE=PE_OCxPE_ICxPP]... [--pp-max N] [--json]
 * Loads the model, runs the default pass pipeline (fp32 models), partitions
 * it, plans the dataflow for the board (or replays a plan) and writes
 * DIR/plan.json, DIR/report.md, DIR/dataflow.dot, DIR/dataflow.svg, DIR/model.gir
 * (the planned graph in the text IR, for kiln simulate's interpreter) and DIR/rtl/
 * (Verilog top of the first FPGA segment, register map, templates; skipped
 * with a note when the generator does not handle the plan yet) and, with
 * rtl/, DIR/driver/ (the per-model driver: docs/driver.md; its
 * preprocessing and detector options are rtl_driver_option's).  The folder is built under a temporary name and renamed at the end, so a failed
 * compile never leaves a folder that looks complete.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hls/plan.h"
#include "pipeline/pipeline.h"
#include "kiln.h"

#define MAX_PINS 256 /* --pin options per command */

static void compile_usage(FILE *f)
{
    fprintf(f,
            "usage: kiln compile MODEL --board NAME|FILE.xml [--clock MHZ] -o DIR\n"
            "                    [--plan plan.json] [--pin NODE=PE_OCxPE_ICxPP]... [--pp-max N]\n"
            "                    [--json]\n"
            "  --board   bundled board name (kiln boards) or a board XML file\n"
            "  --clock   target clock in MHz (default: the board's)\n"
            "  -o DIR    output folder: plan.json, report.md, dataflow.dot, dataflow.svg, rtl/\n"
            "  --plan    replay a plan.json instead of exploring\n"
            "  --pin     fix a conv layer's parallelism, e.g. --pin conv12=16x32x2\n"
            "  --pp-max  largest pixel parallelism the search may give a conv, 1..8\n"
            "            (default 4; PP 3, 5, 6, 7 fill the steps between powers of two)\n"
            "  --json    print the figures as JSON\n"
            "Driver (DIR/driver, docs/driver.md): --mean R,G,B --std R,G,B | --scale S --bgr\n"
            "  --nhwc --alpha --resize stretch|pad   image preprocessing of kiln-infer\n"
            "  --detect yolov3|region --anchors W,H,... --classes N [--score-threshold T]\n"
            "  [--iou-threshold T]   YOLO decode + NMS for an ONNX model's raw heads\n"
            "Figures are predictions of the cycle and resource models.\n");
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Any int8 value: a quantized graph, planned as it is. */
static int is_quantized(const GirGraph *g)
{
    int i;
    for (i = 0; i < g->nval; i++)
        if (g->vals[i].type.dtype == GIR_DT_I8)
            return 1;
    return 0;
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

/* Remove the temporary folder and the files it may hold. */
static void remove_tmp(const char *dir)
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
    rmdir(dir);
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

/* DIR/driver beside rtl/: 0 written, 1 not (a note says why), -1 error. */
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

/* Write the output folder atomically: tmp folder beside DIR, then rename
 * (an existing DIR is replaced only when it holds a previous plan). */
static int write_outputs(const HlsPlan *p, const GirGraph *g, const char *dir, double compile_ms,
                         int *svg, int *rtl, const RtlDriverOptions *dopt, int *drv)
{
    char tmp[4096], old[4096], path[4096];
    char *json = hls_plan_json(p), *buf = NULL;
    size_t len = 0;
    FILE *f;
    int rc;
    GirError rerr;
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", dir, (long)getpid());
    remove_tmp(tmp);
    if (mkdir(tmp, 0777) != 0) {
        free(json);
        return kiln_user_error("compile: cannot create %s: %s", tmp, strerror(errno));
    }
    rc = write_file(tmp, "plan.json", json);
    free(json);
    f = open_memstream(&buf, &len);
    if (!f)
        gir_die("out of memory");
    hls_plan_report(p, f, compile_ms);
    fclose(f);
    if (rc == 0)
        rc = write_file(tmp, "report.md", buf);
    free(buf);
    f = open_memstream(&buf, &len);
    if (!f)
        gir_die("out of memory");
    hls_plan_dot(p, f);
    fclose(f);
    if (rc == 0)
        rc = write_file(tmp, "dataflow.dot", buf);
    free(buf);
    if (rc == 0) { /* the planned graph, for kiln simulate */
        snprintf(path, sizeof path, "%s/model.gir", tmp);
        f = fopen(path, "w");
        rc = !f ? -1 : gir_print(g, f, 0) < 0 ? (fclose(f), -1) : fclose(f);
    }
    if (rc != 0) {
        remove_tmp(tmp);
        return kiln_user_error("compile: cannot write into %s: %s", tmp, strerror(errno));
    }
    *rtl = rtl_check(p, g, &rerr) == 0;
    if (!*rtl)
        fprintf(stderr, "kiln: note: rtl/ not written: %s\n", rerr.msg);
    else if (rtl_write(p, g, tmp, &rerr) < 0) {
        remove_tmp(tmp);
        return kiln_report(&rerr);
    }
    if (*rtl && (*drv = write_driver(p, g, dopt, tmp)) < 0) {
        remove_tmp(tmp);
        return KILN_BAD_INPUT;
    }
    *svg = run_dot(tmp);
    if (*svg < 0) {
        remove_tmp(tmp);
        return kiln_user_error("compile: dot -Tsvg failed on %s/dataflow.dot", tmp);
    }
    snprintf(path, sizeof path, "%s/plan.json", dir);
    snprintf(old, sizeof old, "%s.old-%ld", dir, (long)getpid());
    if (access(path, F_OK) == 0) {
        if (rename(dir, old) != 0) {
            remove_tmp(tmp);
            return kiln_user_error("compile: cannot replace %s: %s", dir, strerror(errno));
        }
    } else {
        rmdir(dir); /* an empty folder the user made is fine to replace */
    }
    if (rename(tmp, dir) != 0) {
        int err = errno;
        remove_tmp(tmp);
        rename(old, dir);
        return kiln_user_error("compile: cannot create %s: %s", dir, strerror(err));
    }
    remove_tmp(old);
    return KILN_OK;
}

int kiln_cmd_compile(int argc, char **argv)
{
    const char *model = NULL, *board = NULL, *outdir = NULL, *plan_path = NULL;
    double mhz = 0.0, t0 = now_ms(), ms;
    int json = 0, i, rc, svg = 1, rtl = 0, drv = 1, k;
    RtlDriverOptions dopt;
    HlsPin *pins = calloc(MAX_PINS, sizeof *pins);
    HlsPlanOptions opts = {0};
    GirError err;
    GirGraph *g = NULL;
    HlsBoard b;
    HlsPlan *p = NULL;

    if (!pins)
        gir_die("out of memory");
    opts.pins = pins;
    rtl_driver_defaults(&dopt);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (kiln_is_help(a)) {
            compile_usage(stdout);
            free(pins);
            return KILN_OK;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--board") && more) {
            board = argv[++i];
        } else if (!strcmp(a, "-o") && more) {
            outdir = argv[++i];
        } else if (!strcmp(a, "--plan") && more) {
            plan_path = argv[++i];
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
            if (k < 0) {
                free(pins);
                return kiln_report(&err);
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
    if (plan_path && opts.pp_max) {
        free(pins);
        return kiln_user_error("compile: --pp-max and --plan exclude each other (a replay does not search)");
    }
    if (hls_board_load(board, &b, &err) < 0) {
        free(pins);
        return kiln_report(&err);
    }
    g = fe_load_model(model, &err);
    if (!g) {
        free(pins);
        return kiln_report(&err);
    }
    rc = KILN_OK;
    if (!is_quantized(g) && gir_run_pipeline(g, NULL, NULL, &err) < 0)
        rc = kiln_report(&err);
    if (rc == KILN_OK) {
        if (plan_path) {
            char *text = kiln_read_file(plan_path, NULL);
            if (!text)
                rc = kiln_user_error("%s: cannot read: %s", plan_path, strerror(errno));
            else
                p = hls_plan_replay(g, &b, text, plan_path, mhz, &err);
            free(text);
        } else {
            p = hls_plan_build(g, &b, &opts, &err);
        }
        if (rc == KILN_OK && !p)
            rc = kiln_report(&err);
    }
    ms = now_ms() - t0;
    if (rc == KILN_OK)
        rc = write_outputs(p, g, outdir, ms, &svg, &rtl, &dopt, &drv);
    if (rc == KILN_OK) {
        if (json) {
            char *s = hls_plan_json(p);
            puts(s);
            free(s);
        } else {
            printf("%s on %s at %.0f MHz (predicted): %.1f frames/s, latency %.3f ms, "
                   "DSP efficiency %.1f%%\n",
                   p->model, p->board.name, p->mhz, p->fps, p->latency_ms, 100.0 * p->dsp_eff);
            printf("resources: DSP %.0f/%lld, BRAM36 %.1f/%lld, URAM %.0f/%lld, LUT %.0f/%lld, "
                   "FF %.0f/%lld; %d FPGA layers, %d CPU nodes, %d segment(s)\n",
                   p->total.dsp, (long long)b.dsp, p->total.bram36, (long long)b.bram36,
                   p->total.uram, (long long)b.uram, p->total.lut, (long long)b.lut, p->total.ff,
                   (long long)b.ff, p->nstage, p->ncpu, p->nsegment);
            printf("limit: %s\n", p->limit);
            if (svg == 1)
                printf("note: graphviz 'dot' not installed: dataflow.svg not drawn\n");
            printf("wrote %s/{plan.json,report.md,dataflow.dot%s%s%s}\n", outdir,
                   svg == 0 ? ",dataflow.svg" : "", rtl ? ",rtl/,vivado/" : "",
                   rtl && drv == 0 ? ",driver/" : "");
        }
        fprintf(json ? stderr : stdout, "compile time: %.0f ms\n", ms);
    }
    hls_plan_free(p);
    gir_graph_free(g);
    free(pins);
    return rc;
}
