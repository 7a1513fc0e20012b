/*
 * kiln: the command-line driver.  Each subcommand wires library stages
 * together; only this folder prints to the user and exits.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "kiln.h"

#define MAX_SHAPES 64 /* --input-shape options of one command line */

static const KilnCommand commands[] = {
    {"info", kiln_cmd_info, "per-layer shapes, parameters and MACs of a model", KILN_TAKES_SHAPES},
    {"run", kiln_cmd_run, "run a model on input tensors (fp32 reference, int8 interpreter, or compiled for the CPU)", KILN_TAKES_SHAPES | KILN_TAKES_IMAGES},
    {"ir", kiln_cmd_ir, "print a model in the text IR", KILN_TAKES_SHAPES},
    {"opt", kiln_cmd_opt, "run graph passes (--passes=a,b or -O) and print the text IR", KILN_TAKES_SHAPES},
    {"conformance", kiln_cmd_conformance, "run ONNX backend test folders: pass/fail/unsupported", 0},
    {"compare", kiln_cmd_compare, "relative L2 error, max difference and cosine of two tensor files", 0},
    {"boards", kiln_cmd_boards, "the board models (resources, clocks, DDR bandwidth)", 0},
    {"quantize", kiln_cmd_quantize, "calibrated int8 quantization; accuracy against fp32", KILN_TAKES_SHAPES | KILN_TAKES_IMAGES},
    {"compile", kiln_cmd_compile, "plan the FPGA dataflow for a board: plan.json, report, dataflow picture", KILN_TAKES_SHAPES},
    {"simulate", kiln_cmd_simulate, "Verilator run of a compiled folder: bit-exact check, cycles vs plan", 0},
    {"export", kiln_cmd_export, "write a (quantized) model as QDQ ONNX for onnxruntime", KILN_TAKES_SHAPES},
    {"lower", kiln_cmd_lower, "compile a model into an x86-64 or aarch64 object file and a C header", KILN_TAKES_SHAPES},
    {"bench", kiln_cmd_bench, "latency and throughput of a model per target; --compare side by side with onnxruntime", KILN_TAKES_SHAPES | KILN_TAKES_IMAGES},
    {"tune", kiln_cmd_tune, "search the CPU kernel schedules (XGBoost cost model); measurements kept as records", KILN_TAKES_SHAPES},
};

int kiln_user_error(const char *fmt, ...)
{
    va_list ap;
    fputs("kiln: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return KILN_BAD_INPUT;
}

/* The model file the command loaded last (kiln_load_model). */
static const char *model_path;

/* An error whose place is a node of the model and no file (the text form
 * of the IR keeps no file for nodes without a loc, and the interpreters'
 * run-time checks name the node) gets the model's file in front. */
int kiln_report(const GirError *e)
{
    if (model_path && strncmp(e->msg, "node '", 6) == 0)
        return kiln_user_error("%s: %s", model_path, e->msg);
    return kiln_user_error("%s", e->msg);
}

char *kiln_read_file(const char *path, size_t *len)
{
    return gir_read_file(path, len);
}

int kiln_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* The --input-shape options of this command line. */
static FeInputShape shapes[MAX_SHAPES];
static int nshapes;

void kiln_shape_usage(FILE *f)
{
    fprintf(f, "  --input-shape [NAME=]D,D,...  dims of input NAME (default: the first input);\n"
               "                 repeatable; shape subgraphs fold to constants (docs/inputs.md)\n");
}

GirGraph *kiln_load_model(const char *path, int static_shapes, GirError *e)
{
    model_path = path;
    return fe_load_model_shaped(path, shapes, nshapes, static_shapes, e);
}

int kiln_shape_given(const GirGraph *g, const char *name)
{
    int i;
    for (i = 0; i < nshapes; i++)
        if (strcmp(shapes[i].name, name) == 0 ||
            (!shapes[i].name[0] && g->ninput > 0 && strcmp(g->vals[g->inputs[0]].name, name) == 0))
            return 1;
    return 0;
}

/* Take the options of the takes bits off argv (in place; *argc shrinks).
 * A KILN_ status. */
static int take_common(int *argc, char **argv, int takes)
{
    int i, k = 1;
    for (i = 1; i < *argc; i++) {
        const char *a = argv[i];
        int r;
        if ((takes & KILN_TAKES_SHAPES) &&
            (!strcmp(a, "--input-shape") || !strncmp(a, "--input-shape=", 14))) {
            GirError err;
            const char *v = a[13] == '=' ? a + 14 : i + 1 < *argc ? argv[++i] : NULL;
            if (!v)
                return kiln_user_error("%s: --input-shape needs a value", argv[0]);
            if (nshapes == MAX_SHAPES)
                return kiln_user_error("%s: more than %d --input-shape options", argv[0],
                                       MAX_SHAPES);
            if (fe_parse_input_shape(v, &shapes[nshapes++], &err) < 0)
                return kiln_user_error("%s: %s", argv[0], err.msg);
            continue;
        }
        if ((takes & KILN_TAKES_IMAGES) && (r = kiln_preproc_arg(*argc, argv, &i)) != 0) {
            if (r < 0)
                return KILN_BAD_INPUT;
            continue;
        }
        argv[k++] = argv[i];
    }
    *argc = k;
    argv[k] = NULL;
    return KILN_OK;
}

static void usage(FILE *f)
{
    size_t i;
    fprintf(f, "usage: kiln COMMAND [ARGS]   (kiln COMMAND --help for its options)\n\n"
               "kiln compiles trained CNNs (ONNX, Darknet cfg/weights) into FPGA "
               "dataflow accelerators.\n\ncommands:\n");
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nexit status: 0 success, 1 a check failed, 2 bad input or usage\n");
}

int main(int argc, char **argv)
{
    size_t i;
    if (argc < 2) {
        usage(stderr);
        return KILN_BAD_INPUT;
    }
    if (kiln_is_help(argv[1])) {
        usage(stdout);
        return KILN_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("kiln 0.1.0\n");
        return KILN_OK;
    }
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            int n = argc - 1, rc = take_common(&n, argv + 1, commands[i].takes);
            return rc != KILN_OK ? rc : commands[i].fn(n, argv + 1);
        }
    kiln_user_error("unknown command '%s' (kiln --help lists them)", argv[1]);
    return KILN_BAD_INPUT;
}
