/*
 * libFuzzer target: the Darknet cfg reader on arbitrary text.  Any input must
 * either load or fail with one diagnostic line; never crash, leak or hang.
 */
#include <stddef.h>
#include <stdint.h>

#include "frontend/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GirError e;
    GirGraph *g = fe_darknet_from_memory((const char *)data, size, "fuzz.cfg", 1, &e);
    if (g)
        gir_graph_free(g);
    else if (!e.msg[0])
        __builtin_trap(); /* a failure must say why */
    return 0;
}
