/*
 * libFuzzer target: the ONNX reader on arbitrary bytes.  No path is given,
 * so external data is refused and no file is touched.
 */
#include <stddef.h>
#include <stdint.h>

#include "frontend/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GirError e;
    int unsupported;
    GirGraph *g = fe_onnx_from_memory(data, size, NULL, &unsupported, &e);
    gir_graph_free(g);
    return 0;
}
