/*
 * Images as model inputs: JPEG and PNG decoded by stb_image (Debian
 * libstb-dev), resized and normalized by libkiln-rt's krt_preprocess
 * (host-runtime/preproc.c), the one definition the generated driver's
 * kiln-infer uses too.  docs/inputs.md states the arithmetic exactly, so an
 * independent implementation (tests/cli/cases/image_*.sh, in numpy) can
 * check it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stb_image_opts.h"
#include <stb/stb_image.h>

#include "image.h"
#include "kiln.h"
#include "kiln_preproc.h"

#define MAX_FILES 4096                  /* calibration files read from one folder */
#define MAX_IMAGE_FILE ((size_t)1 << 28) /* bytes of one image file */

static KilnPreproc preproc = {{0, 0, 0, 0}, {1, 1, 1, 1}, 0, 0, 0, 0, 0, KILN_RESIZE_STRETCH};

const KilnPreproc *kiln_preproc(void)
{
    return &preproc;
}

void kiln_preproc_usage(FILE *f)
{
    fprintf(f, "  image inputs (.jpg, .png; docs/inputs.md):\n"
               "  --mean R,G,B   subtracted from 0..255 pixel values (default 0,0,0)\n"
               "  --std R,G,B    divided after the mean (default 1,1,1)\n"
               "  --scale S      multiplies after the mean instead of --std\n"
               "  --bgr          channel order BGR (default RGB)\n"
               "  --nhwc         the model's input is NHWC (default NCHW)\n"
               "  --alpha        a fourth channel of 255 (4-channel models)\n"
               "  --resize stretch|pad  to the model's H x W, or keep the aspect ratio and\n"
               "                 zero-pad bottom/right (default stretch)\n");
}

/* "a,b,c" (3 or 4 numbers) into v; the count in *n. */
static int parse_list(const char *opt, const char *s, double *v, int *n)
{
    const char *p = s;
    *n = 0;
    for (;;) {
        char *end;
        double d = strtod(p, &end);
        if (end == p || !isfinite(d) || (*end && *end != ',') || *n == 4)
            break;
        v[(*n)++] = d;
        if (!*end)
            return *n >= 3 ? 0 : kiln_user_error("%s '%s': expected 3 numbers (R,G,B) or 4 "
                                                 "with the alpha channel's", opt, s);
        p = end + 1;
    }
    return kiln_user_error("%s '%s': expected comma-separated numbers R,G,B", opt, s);
}

int kiln_preproc_arg(int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    int takes = !strcmp(a, "--mean") || !strcmp(a, "--std") || !strcmp(a, "--scale") ||
                !strcmp(a, "--resize");
    int n;
    if (!strcmp(a, "--bgr") || !strcmp(a, "--nhwc") || !strcmp(a, "--alpha")) {
        *(a[2] == 'b' ? &preproc.bgr : a[2] == 'n' ? &preproc.nhwc : &preproc.alpha) = 1;
        return 1;
    }
    if (!takes)
        return 0;
    if (!v) {
        kiln_user_error("%s needs a value", a);
        return -1;
    }
    ++*i;
    if (!strcmp(a, "--mean")) {
        if (parse_list(a, v, preproc.mean, &n) != KILN_OK)
            return -1;
    } else if (!strcmp(a, "--std")) {
        double s[4] = {1, 1, 1, 1};
        int k;
        if (parse_list(a, v, s, &n) != KILN_OK)
            return -1;
        for (k = 0; k < 4; k++)
            if (!(s[k] != 0)) {
                kiln_user_error("--std '%s': a standard deviation of 0", v);
                return -1;
            }
        memcpy(preproc.std, s, sizeof s);
        preproc.has_std = 1;
    } else if (!strcmp(a, "--scale")) {
        char *end;
        preproc.scale = strtod(v, &end);
        if (*end || end == v || !isfinite(preproc.scale) || preproc.scale == 0) {
            kiln_user_error("--scale '%s': expected a non-zero number", v);
            return -1;
        }
    } else if (!strcmp(v, "stretch") || !strcmp(v, "pad")) {
        preproc.resize = v[0] == 's' ? KILN_RESIZE_STRETCH : KILN_RESIZE_PAD;
    } else {
        kiln_user_error("--resize '%s': expected stretch or pad", v);
        return -1;
    }
    if (preproc.has_std && preproc.scale != 0) {
        kiln_user_error("give one of --std and --scale, not both");
        return -1;
    }
    return 1;
}

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), m = strlen(ext), i;
    if (n < m)
        return 0;
    for (i = 0; i < m; i++)
        if (tolower((unsigned char)path[n - m + i]) != ext[i])
            return 0;
    return 1;
}

int kiln_is_image(const char *path)
{
    return has_ext(path, ".jpg") || has_ext(path, ".jpeg") || has_ext(path, ".png");
}

/* The model input's N, C, H, W under p, checked against what an image gives. */
static int input_geometry(const char *path, const KilnPreproc *p, const GirValue *input,
                          int64_t *c, int64_t *h, int64_t *w, GirError *e)
{
    const GirType *t = &input->type;
    char ty[128];
    gir_type_str(t, ty, sizeof ty);
    if (t->dtype != GIR_DT_F32 || t->rank != 4 || !gir_type_is_static(t))
        return gir_error_at(e, gir_loc_file(path, -1),
                            "an image feeds an f32 input of 4 static dims; input '%s' is %s%s",
                            input->name, ty,
                            gir_type_is_static(t) ? "" : " (give --input-shape)");
    *c = t->dims[p->nhwc ? 3 : 1];
    *h = t->dims[p->nhwc ? 1 : 2];
    *w = t->dims[p->nhwc ? 2 : 3];
    if (t->dims[0] != 1)
        return gir_error_at(e, gir_loc_file(path, -1),
                            "input '%s' is %s: an image fills a batch of 1", input->name, ty);
    if (*c != (p->alpha ? 4 : 3))
        return gir_error_at(e, gir_loc_file(path, -1),
                            "input '%s' is %s (%s): %lld channels, an image gives %d%s",
                            input->name, ty, p->nhwc ? "NHWC" : "NCHW", (long long)*c,
                            p->alpha ? 4 : 3,
                            *c == 4 ? " (--alpha adds a fourth)"
                                    : *c == 3 || p->nhwc ? "" : " (--nhwc for an NHWC input)");
    return 0;
}

/* The flags as libkiln-rt's one preprocessing definition takes them. */
static void to_krt(const KilnPreproc *p, KrtPreproc *k)
{
    int i;
    memset(k, 0, sizeof *k);
    for (i = 0; i < 4; i++) {
        k->mean[i] = p->mean[i];
        k->std[i] = p->std[i];
    }
    k->scale = p->scale;
    k->bgr = p->bgr;
    k->nhwc = p->nhwc;
    k->alpha = p->alpha;
    k->pad = p->resize == KILN_RESIZE_PAD;
}

int kiln_read_image(const char *path, const KilnPreproc *p, const GirValue *input, GirArena *a,
                    GirTensor *t, GirError *e)
{
    int64_t c = 0, h = 0, w = 0;
    size_t len;
    unsigned char *buf;
    int rc;
    if (input_geometry(path, p, input, &c, &h, &w, e) < 0)
        return -1;
    buf = (unsigned char *)gir_read_file(path, &len);
    if (!buf)
        return gir_error_at(e, gir_loc_file(path, -1), "cannot read the image: %s",
                            strerror(errno));
    rc = kiln_image_from_memory(buf, len, path, p, input, a, t, e);
    free(buf);
    return rc;
}

int kiln_image_from_memory(const unsigned char *buf, size_t len, const char *path,
                           const KilnPreproc *p, const GirValue *input, GirArena *a,
                           GirTensor *t, GirError *e)
{
    int64_t c = 0, h = 0, w = 0;
    int iw, ih, comp;
    unsigned char *px;
    KrtPreproc k;
    if (input_geometry(path, p, input, &c, &h, &w, e) < 0)
        return -1;
    if (len > MAX_IMAGE_FILE || len > INT_MAX)
        return gir_error_at(e, gir_loc_file(path, -1), "image file of %zu bytes is too large",
                            len);
    px = stbi_load_from_memory(buf, (int)len, &iw, &ih, &comp, 3);
    if (!px)
        return gir_error_at(e, gir_loc_file(path, -1),
                            "not a JPEG or PNG image kiln can decode (stb_image: %s)",
                            stbi_failure_reason());
    t->type = input->type;
    t->data = gir_arena_alloc(a, sizeof(float) * (size_t)(c * h * w));
    to_krt(p, &k);
    krt_preprocess(px, iw, ih, &k, (int)h, (int)w, t->data);
    stbi_image_free(px);
    return 0;
}

int kiln_read_input(const char *path, const GirValue *input, GirArena *a, GirTensor *t,
                    GirError *e)
{
    if (kiln_is_image(path))
        return kiln_read_image(path, kiln_preproc(), input, a, t, e);
    return fe_read_tensor(path, a, t, e);
}

int kiln_list_inputs(const char *dir, GirArena *a, char ***names, int *count)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    if (!d)
        return kiln_user_error("quantize: cannot open calibration folder %s: %s", dir,
                               strerror(errno));
    *names = gir_arena_alloc(a, sizeof **names * MAX_FILES);
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (!has_ext(de->d_name, ".npy") && !kiln_is_image(de->d_name))
            continue;
        if (n == MAX_FILES) {
            closedir(d);
            return kiln_user_error("quantize: calibration folder %s has more than %d input "
                                   "files", dir, MAX_FILES);
        }
        (*names)[n] = gir_arena_alloc(a, strlen(dir) + len + 2);
        sprintf((*names)[n], "%s/%s", dir, de->d_name);
        n++;
    }
    closedir(d);
    if (n == 0)
        return kiln_user_error("quantize: calibration folder %s has no .npy, .jpg or .png "
                               "files", dir);
    qsort(*names, (size_t)n, sizeof **names, gir_cmp_str);
    *count = n;
    return KILN_OK;
}
