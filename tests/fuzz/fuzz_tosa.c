/*
 * libFuzzer target: the TOSA reader (frontend/tosa.c: MLIR's parser and
 * verifier through its C API, then kiln's mapping of the ops) on arbitrary
 * text.
 */
#include <stddef.h>
#include <stdint.h>

#include "frontend/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GirError e;
    GirGraph *g = fe_tosa_from_memory((const char *)data, size, "fuzz.mlir", &e);
    gir_graph_free(g);
    return 0;
}
