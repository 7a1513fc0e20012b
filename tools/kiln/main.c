/*
 * kiln: the command-line driver.  Each subcommand wires library stages
 * together; only this folder prints to the user and exits.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln.h"

static const KilnCommand commands[] = {
    {"info", kiln_cmd_info, "per-layer shapes, parameters and MACs of a model"},
    {"run", kiln_cmd_run, "run a model on input tensors (fp32 reference, int8 interpreter, or compiled for the CPU)"},
    {"ir", kiln_cmd_ir, "print a model in the text IR"},
    {"opt", kiln_cmd_opt, "run graph passes (--passes=a,b or -O) and print the text IR"},
    {"conformance", kiln_cmd_conformance, "run ONNX backend test folders: pass/fail/unsupported"},
    {"compare", kiln_cmd_compare, "relative L2 error, max difference and cosine of two tensor files"},
    {"boards", kiln_cmd_boards, "the board models (resources, clocks, DDR bandwidth)"},
    {"quantize", kiln_cmd_quantize, "calibrated int8 quantization; accuracy against fp32"},
    {"compile", kiln_cmd_compile, "plan the FPGA dataflow for a board: plan.json, report, dataflow picture"},
    {"simulate", kiln_cmd_simulate, "Verilator run of a compiled folder: bit-exact check, cycles vs plan"},
    {"export", kiln_cmd_export, "write a (quantized) model as QDQ ONNX for onnxruntime"},
    {"lower", kiln_cmd_lower, "compile a model into an x86-64 or aarch64 object file and a C header"},
    {"bench", kiln_cmd_bench, "latency and throughput of a model per target; --compare side by side with onnxruntime"},
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

int kiln_report(const GirError *e)
{
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
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    kiln_user_error("unknown command '%s' (kiln --help lists them)", argv[1]);
    return KILN_BAD_INPUT;
}
