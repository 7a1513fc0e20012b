/*
 * Images as model inputs (tools/kiln/image.c; docs/inputs.md): JPEG and PNG
 * through stb_image, resized and normalized to a model input by the
 * preprocessing flags every command that reads images shares.
 */
#ifndef KILN_IMAGE_H
#define KILN_IMAGE_H

#include "graphir/graphir.h"

/* How --resize fits an image to the model's H x W. */
typedef enum {
    KILN_RESIZE_STRETCH, /* to H x W exactly */
    KILN_RESIZE_PAD,     /* keep the aspect ratio, zero-pad bottom/right */
} KilnResize;

/* The preprocessing flags (CONTRACTS.md "Image preprocessing flags"). */
typedef struct {
    double mean[4];    /* --mean: subtracted from 0..255 values, per channel */
    double std[4];     /* --std: divided after the mean, per channel */
    double scale;      /* --scale: multiplies instead of std; 0 when not given */
    int has_std;       /* --std was given */
    int bgr;           /* --bgr: channel order B, G, R */
    int nhwc;          /* --nhwc: the model input is [N,H,W,C] */
    int alpha;         /* --alpha: a fourth channel of 255 */
    KilnResize resize; /* --resize */
} KilnPreproc;

/* The flags as given on this command line (defaults: mean 0, std 1,
 * RGB, NCHW, no alpha, stretch). */
const KilnPreproc *kiln_preproc(void);
/* Option argv[*i] when it is a preprocessing flag: consumed (with its
 * value, *i advanced) -> 1; not one -> 0; a bad value -> -1 after printing
 * the error. */
int kiln_preproc_arg(int argc, char **argv, int *i);
/* The usage lines of the flags. */
void kiln_preproc_usage(FILE *f);

/* True when path names an image (.jpg, .jpeg, .png, any case). */
int kiln_is_image(const char *path);
/* Decode the image at path and preprocess it into a tensor of the static
 * type of model input `input` (f32, rank 4, N = 1, C = 3, or 4 with
 * --alpha), data from a.  0, or -1 + one error line naming the file. */
int kiln_read_image(const char *path, const KilnPreproc *p, const GirValue *input, GirArena *a,
                    GirTensor *t, GirError *e);
/* kiln_read_image on the bytes of an image file already read (path names
 * it in errors). */
int kiln_image_from_memory(const unsigned char *buf, size_t len, const char *path,
                           const KilnPreproc *p, const GirValue *input, GirArena *a,
                           GirTensor *t, GirError *e);
/* An image (kiln_is_image) or a tensor file (.npy/.pb) for model input
 * `input`, images by kiln_preproc().  0, or -1 + error. */
int kiln_read_input(const char *path, const GirValue *input, GirArena *a, GirTensor *t,
                    GirError *e);
/* Calibration inputs: the .npy, .jpg, .jpeg and .png files of dir, sorted
 * by name, into *names (allocated in a).  A KILN_ status (printed). */
int kiln_list_inputs(const char *dir, GirArena *a, char ***names, int *count);

#endif
