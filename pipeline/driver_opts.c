/*
 * driver_opts.c: kiln compile's preprocessing and detector options
 * (CONTRACTS.md: --mean, --std, --scale, --bgr, --nhwc, --alpha, --resize,
 * --detect, --anchors, --classes, --score-threshold, --iou-threshold), parsed
 * into an RtlDriverOptions for rtl_driver_write.
 */
#include "pipeline/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rtl_driver_defaults(RtlDriverOptions *o)
{
    int i;
    memset(o, 0, sizeof *o);
    for (i = 0; i < 4; i++)
        o->stdv[i] = 1.0f;
    o->scale = 1.0f;
    o->score_thr = 0.5f;
    o->iou_thr = 0.45f;
}

static int bad(GirError *e, const char *opt, const char *val, const char *want)
{
    return gir_error_at(e, gir_loc_none(), "compile: %s '%s': expected %s", opt, val, want);
}

/* A comma-separated list of finite numbers into v (at most max); the count,
 * or -1. */
static int number_list(const char *s, float *v, int max)
{
    int n = 0;
    for (;;) {
        char *end;
        double d = strtod(s, &end);
        if (end == s || !isfinite(d) || n == max)
            return -1;
        v[n++] = (float)d;
        if (*end == 0)
            return n;
        if (*end != ',')
            return -1;
        s = end + 1;
    }
}

static int one_number(const char *opt, const char *s, double lo, double hi, float *v, GirError *e)
{
    char *end;
    double d = strtod(s, &end);
    if (end == s || *end || !(d >= lo && d <= hi))
        return bad(e, opt, s, "a number in range");
    *v = (float)d;
    return 2;
}

/* --mean / --std: 3 values (4 with --alpha), as doubles (kiln run's). */
static int channel_list(const char *opt, const char *s, double *v, int *n, GirError *e)
{
    float f[4];
    int k = number_list(s, f, 4), i;
    for (i = 0; i < k; i++) { /* again in double: strtod of the same text */
        char *end;
        v[i] = strtod(s, &end);
        s = *end ? end + 1 : end;
    }
    if (k != 3 && k != 4)
        return bad(e, opt, s, "3 (or 4 with --alpha) numbers R,G,B");
    if (!strcmp(opt, "--std"))
        for (i = 0; i < k; i++)
            if (v[i] == 0.0f)
                return bad(e, opt, s, "non-zero numbers");
    *n = k;
    return 2;
}

static int value_option(RtlDriverOptions *o, const char *a, const char *v, GirError *e)
{
    char *end;
    long n;
    if (!strcmp(a, "--mean"))
        return channel_list(a, v, o->mean, &o->nmean, e);
    if (!strcmp(a, "--std"))
        return channel_list(a, v, o->stdv, &o->nstd, e);
    if (!strcmp(a, "--scale")) {
        float f;
        int rc = one_number(a, v, -1e30, 1e30, &f, e);
        o->has_scale = 1;
        o->scale = strtod(v, NULL);
        if (rc > 0 && o->scale == 0)
            return bad(e, a, v, "a non-zero number");
        return rc;
    }
    if (!strcmp(a, "--resize")) {
        if (strcmp(v, "stretch") && strcmp(v, "pad"))
            return bad(e, a, v, "stretch or pad");
        o->pad = !strcmp(v, "pad");
        return 2;
    }
    if (!strcmp(a, "--detect")) {
        if (strcmp(v, "yolov3") && strcmp(v, "region"))
            return bad(e, a, v, "yolov3 or region");
        o->detect = !strcmp(v, "yolov3") ? RTL_DETECT_YOLOV3 : RTL_DETECT_REGION;
        return 2;
    }
    if (!strcmp(a, "--anchors")) {
        o->nanchors = number_list(v, o->anchors, RTL_DRV_MAX_ANCHORS);
        if (o->nanchors < 2 || o->nanchors % 2)
            return bad(e, a, v, "W,H pairs of positive numbers");
        for (n = 0; n < o->nanchors; n++)
            if (!(o->anchors[n] > 0.0f))
                return bad(e, a, v, "W,H pairs of positive numbers");
        return 2;
    }
    if (!strcmp(a, "--classes")) {
        n = strtol(v, &end, 10);
        if (end == v || *end || n < 0 || n > 100000)
            return bad(e, a, v, "an integer in 0..100000 (0: objectness alone)");
        o->classes = (int)n;
        o->has_classes = 1;
        return 2;
    }
    if (!strcmp(a, "--score-threshold"))
        return one_number(a, v, 0.0, 1.0, &o->score_thr, e);
    if (!strcmp(a, "--iou-threshold"))
        return one_number(a, v, 0.0, 1.0, &o->iou_thr, e);
    return 0;
}

int rtl_driver_option(RtlDriverOptions *o, int argc, char **argv, GirError *e)
{
    static const char *const valued[] = {"--mean", "--std", "--scale", "--resize", "--detect",
                                         "--anchors", "--classes", "--score-threshold",
                                         "--iou-threshold"};
    const char *a = argv[0];
    size_t i;
    if (!strcmp(a, "--bgr") || !strcmp(a, "--nhwc") || !strcmp(a, "--alpha")) {
        *(a[2] == 'b' ? &o->bgr : a[2] == 'n' ? &o->nhwc : &o->alpha) = 1;
        return 1;
    }
    for (i = 0; i < sizeof valued / sizeof valued[0]; i++)
        if (!strcmp(a, valued[i])) {
            if (argc < 2)
                return gir_error_at(e, gir_loc_none(), "compile: %s needs a value", a);
            return value_option(o, a, argv[1], e);
        }
    return 0;
}
