/*
 * libFuzzer target: the tensor readers on arbitrary bytes.  The first byte
 * picks the format (odd: .npy, even: ONNX TensorProto); no path is given, so
 * external data is refused.
 */
#include <stddef.h>
#include <stdint.h>

#include "frontend/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GirArena *a;
    GirTensor t;
    GirError e;
    if (size < 1)
        return 0;
    a = gir_arena_new();
    fe_tensor_from_memory(data + 1, size - 1, data[0] & 1, NULL, a, &t, &e);
    gir_arena_free(a);
    return 0;
}
