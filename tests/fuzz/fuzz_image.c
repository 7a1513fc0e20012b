/*
 * libFuzzer target: the image reader of kiln run -i and quantize --calib
 * (tools/kiln/image.c: stb_image's JPEG and PNG decoders, the resize and
 * the normalization) on arbitrary bytes.  Byte 0 picks the preprocessing
 * (bit 0 --resize pad, 1 --nhwc, 2 --bgr, 3 --alpha), bytes 1 and 2 the
 * model input's height and width (1..64); the rest is the image file.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "image.h"
#include "kiln.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* image.c reports bad flags and calibration folders through the command's
 * error printer; the target parses neither. */
int kiln_user_error(const char *fmt, ...)
{
    (void)fmt;
    return KILN_BAD_INPUT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    KilnPreproc p;
    GirValue in;
    GirArena *a;
    GirTensor t;
    GirError e;
    int64_t h, w, c;
    if (size < 3)
        return 0;
    memset(&p, 0, sizeof p);
    p.std[0] = p.std[1] = p.std[2] = p.std[3] = 1.0;
    p.mean[0] = 123.0;
    p.resize = data[0] & 1 ? KILN_RESIZE_PAD : KILN_RESIZE_STRETCH;
    p.nhwc = (data[0] >> 1) & 1;
    p.bgr = (data[0] >> 2) & 1;
    p.alpha = (data[0] >> 3) & 1;
    h = 1 + data[1] % 64;
    w = 1 + data[2] % 64;
    c = p.alpha ? 4 : 3;
    memset(&in, 0, sizeof in);
    in.name = "input";
    in.type.dtype = GIR_DT_F32;
    in.type.rank = 4;
    in.type.dims[0] = 1;
    in.type.dims[1] = p.nhwc ? h : c;
    in.type.dims[2] = p.nhwc ? w : h;
    in.type.dims[3] = p.nhwc ? c : w;
    a = gir_arena_new();
    kiln_image_from_memory(data + 3, size - 3, "fuzz.jpg", &p, &in, a, &t, &e);
    gir_arena_free(a);
    return 0;
}
