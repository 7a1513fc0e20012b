/*
 * fe_load_model: one entry point for every model file kiln reads, chosen by
 * the file name's extension.
 */
#define _POSIX_C_SOURCE 200809L /* stat */

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frontend/frontend.h"
#include "frontend/tensor_proto.h"

/* Seed of the generated weights when a .cfg has no .weights beside it:
 * fixed, so two runs build the same network. */
#define DEFAULT_SEED 1

/* Largest text IR file read: YOLOv3 with its weights prints to about 330 MB. */
#define GIR_TEXT_MAX ((size_t)1 << 31)

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

GirGraph *fe_load_model(const char *path, GirError *e)
{
    if (has_suffix(path, ".onnx"))
        return fe_load_onnx(path, NULL, e);
    if (has_suffix(path, ".mlir"))
        return fe_load_tosa(path, e);
    if (has_suffix(path, ".cfg")) {
        size_t stem = strlen(path) - 4;
        char *weights = malloc(stem + sizeof ".weights");
        struct stat st;
        GirGraph *g;
        if (!weights)
            gir_die("out of memory");
        memcpy(weights, path, stem);
        memcpy(weights + stem, ".weights", sizeof ".weights");
        /* A .weights file that exists but cannot be read is the user's
         * problem to hear about, so only absence falls back to the seed. */
        if (stat(weights, &st) == 0)
            g = fe_load_darknet(path, weights, 0, e);
        else
            g = fe_load_darknet(path, NULL, DEFAULT_SEED, e);
        free(weights);
        return g;
    }
    if (has_suffix(path, ".gir")) {
        size_t len;
        uint8_t *text = fe_read_file(path, GIR_TEXT_MAX, &len, e);
        GirGraph *g;
        if (!text)
            return NULL;
        g = gir_parse((const char *)text, len, path, e);
        free(text);
        if (g && gir_infer_shapes(g, e) < 0) {
            gir_graph_free(g);
            g = NULL;
        }
        return g;
    }
    gir_error_at(e, gir_loc_file(path, -1),
                 "unknown model file type (expected .onnx, .cfg for Darknet, .mlir for TOSA, "
                 "or .gir text IR)");
    return NULL;
}
