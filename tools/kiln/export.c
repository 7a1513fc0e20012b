/*
 * kiln export MODEL -o OUT.onnx: write a model, typically a quantized one
 * (`kiln quantize ... -o q.gir`), as a QDQ ONNX file that onnxruntime runs;
 * with --tosa, as an .mlir file in MLIR's TOSA dialect (docs/tosa.md).
 */
#include <stdio.h>
#include <string.h>

#include "kiln.h"

static void export_usage(FILE *f)
{
    fprintf(f, "usage: kiln export MODEL [--tosa] -o OUT\n"
               "  MODEL          .gir text IR (e.g. from kiln quantize), .onnx, .cfg or .mlir\n"
               "  -o OUT.onnx    the ONNX file to write: int8 parts as QDQ\n"
               "                 (DequantizeLinear, float op, QuantizeLinear)\n"
               "  --tosa         write OUT.mlir in MLIR's TOSA dialect instead: int8 parts\n"
               "                 as i8 tensors with tosa.rescale (docs/tosa.md)\n");
    kiln_shape_usage(f);
}

int kiln_cmd_export(int argc, char **argv)
{
    const char *path = NULL, *out = NULL;
    GirError err;
    GirGraph *g;
    int i, rc = KILN_OK, tosa = 0;

    for (i = 1; i < argc; i++) {
        if (kiln_is_help(argv[i])) {
            export_usage(stdout);
            return KILN_OK;
        } else if (strcmp(argv[i], "--tosa") == 0) {
            tosa = 1;
        } else if (strcmp(argv[i], "-o") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("export: -o needs a file");
            out = argv[++i];
        } else if (argv[i][0] == '-') {
            export_usage(stderr);
            return kiln_user_error("export: unknown option '%s'", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            return kiln_user_error("export: more than one model given ('%s')", argv[i]);
        }
    }
    if (!path) {
        export_usage(stderr);
        return kiln_user_error("export: no model given");
    }
    if (!out)
        return kiln_user_error("export: no output file given (-o %s)",
                               tosa ? "OUT.mlir" : "OUT.onnx");
    g = kiln_load_model(path, 0, &err);
    if (!g)
        return kiln_report(&err);
    if ((tosa ? fe_write_tosa(g, out, &err) : fe_write_onnx_qdq(g, out, &err)) != 0)
        rc = kiln_report(&err);
    gir_graph_free(g);
    return rc;
}
