/*
 * kiln-infer: run the compiled model on one picture or .npy.
 *
 *   kiln-infer SPEC [-m DIR] INPUT... [-o OUTDIR] [--timeout MS] [--frames N]
 *   kiln-infer --decode OUT.npy... [-i IMAGE] [-o OUTDIR]
 *   kiln-infer --preprocess IMAGE [-o OUTDIR]
 *
 * SPEC: a libkiln-rt transport (sim:SOCKET, uio:/dev/uioN[,/dev/DMABUF]);
 * DIR: the kiln compile output folder (its rtl/regmap.json and
 * rtl/weights.bin; default "."); INPUT: a JPEG/PNG (preprocessed as kiln
 * compile was told) or a .npy of the model's input.  Writes OUTDIR/out<i>.npy
 * (the dequantized fp32 outputs) and, for a detector, OUTDIR/detections.json
 * and (picture input) OUTDIR/boxes.png, printing each path.  --decode only
 * decodes given fp32 outputs (e.g. a reference run's).  --preprocess only
 * writes OUTDIR/input.npy, the model input a picture gives (what kiln run
 * --dump-input writes for it under the same flags).  --frames N runs N
 * frames, frame f on INPUT f mod their count (kd_model_run_frames: a folded
 * plan's frames in flight at once, printing when each finished on the
 * transport's clock; else one after the other, saying why); with several
 * INPUTs the outputs of input k are OUTDIR/out<i>-<k>.npy.  Exit 0, or 1
 * with one line naming the file or the transport.
 */
#define _POSIX_C_SOURCE 200809L

#include "kiln_driver.h"

#define MAX_INPUTS 16 /* INPUTs of one run */
#define CHUNK 16      /* frames kd_model_run_frames takes at once (their images held) */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The command line. */
typedef struct {
    const char *spec;      /* transport */
    const char *dir;       /* compiled folder */
    const char *input;     /* picture or .npy (run), picture (decode) */
    const char *more[MAX_INPUTS]; /* run: every INPUT (more[0] == input) */
    int ninputs;           /* their count */
    const char *outdir;    /* output folder */
    const char *outs[KD_MAX_OUT]; /* --decode: the output tensors */
    int nouts;             /* their count */
    int decode;            /* --decode */
    int preprocess;        /* --preprocess */
    int timeout_ms;        /* per segment */
    int frames;            /* frames to run */
} Args;

static int fail(const char *msg)
{
    fprintf(stderr, "kiln-infer: %s\n", msg);
    return 1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: kiln-infer SPEC [-m DIR] INPUT... [-o OUTDIR] [--timeout MS] [--frames N]\n"
               "       kiln-infer --decode OUT.npy... [-i IMAGE] [-o OUTDIR]\n"
               "       kiln-infer --preprocess IMAGE [-o OUTDIR]\n"
               "model %s: %d input(s), %d output(s)%s\n", kd_model.name, kd_model.ninputs,
            kd_model.noutputs, kd_model.det.kind ? ", detector" : "");
}

static int int_arg(const char *opt, const char *s, int lo, int *v, char *err)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (*end || end == s || x < lo || x > 1000000000L) {
        snprintf(err, KD_ERR, "%s '%s': expected an integer >= %d", opt, s, lo);
        return -1;
    }
    *v = (int)x;
    return 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

static int parse_args(int argc, char **argv, Args *a, char *err)
{
    int i, pos = 0;
    memset(a, 0, sizeof *a);
    a->dir = ".";
    a->outdir = ".";
    a->timeout_ms = 10000;
    a->frames = 1;
    for (i = 1; i < argc; i++) {
        const char *s = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(s, "--decode")) {
            a->decode = 1;
        } else if (!strcmp(s, "--preprocess")) {
            a->preprocess = 1;
            pos = 1; /* no SPEC: the next word is the picture */
        } else if (!strcmp(s, "-m") && more) {
            a->dir = argv[++i];
        } else if (!strcmp(s, "-o") && more) {
            a->outdir = argv[++i];
        } else if (!strcmp(s, "-i") && more) {
            a->input = argv[++i];
        } else if (!strcmp(s, "--timeout") && more) {
            if (int_arg(s, argv[++i], 1, &a->timeout_ms, err) < 0)
                return -1;
        } else if (!strcmp(s, "--frames") && more) {
            if (int_arg(s, argv[++i], 1, &a->frames, err) < 0)
                return -1;
        } else if (s[0] == '-' && s[1]) {
            snprintf(err, KD_ERR, "unknown option or missing value '%s'", s);
            return -1;
        } else if (a->decode) {
            if (a->nouts == KD_MAX_OUT) {
                snprintf(err, KD_ERR, "more than %d outputs given", KD_MAX_OUT);
                return -1;
            }
            a->outs[a->nouts++] = s;
        } else if (pos == 0) {
            a->spec = s;
            pos++;
        } else if (pos == 1) {
            a->input = a->more[a->ninputs++] = s;
            pos++;
        } else if (!a->preprocess && a->ninputs < MAX_INPUTS) {
            a->more[a->ninputs++] = s;
        } else {
            snprintf(err, KD_ERR, "unexpected argument '%s'", s);
            return -1;
        }
    }
    if (a->preprocess && (a->decode || !a->input || ends_with(a->input, ".npy"))) {
        snprintf(err, KD_ERR, "--preprocess takes one picture (JPEG or PNG)");
        return -1;
    }
    if (a->decode ? a->nouts == 0 : !a->input) {
        snprintf(err, KD_ERR, a->decode ? "--decode: no output tensors given"
                                        : "expected SPEC and INPUT");
        return -1;
    }
    return 0;
}


static int make_outdir(const char *dir, char *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, KD_ERR, "%s: cannot create: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* Decode outs (fp32, shapes) into OUTDIR/detections.json and, with a
 * picture, OUTDIR/boxes.png. */
static int detect(const Args *a, const float *const *outs, const KdTensorInfo *shapes, int n,
                  KdImage *im, char *err)
{
    char path[4096];
    KdBox *b = NULL;
    int nb = 0, rc;
    if (kd_decode(outs, shapes, n, im ? im->w : 0, im ? im->h : 0, &b, &nb, err) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/detections.json", a->outdir);
    rc = kd_boxes_json(path, b, nb, err);
    if (rc == 0)
        printf("%s (%d boxes)\n", path, nb);
    if (rc == 0 && im) {
        kd_boxes_draw(im, b, nb);
        snprintf(path, sizeof path, "%s/boxes.png", a->outdir);
        rc = kd_image_write_png(path, im, err);
        if (rc == 0)
            printf("%s\n", path);
    }
    free(b);
    return rc;
}

static int run_decode(const Args *a, char *err)
{
    float *outs[KD_MAX_OUT] = {0};
    KdTensorInfo shapes[KD_MAX_OUT];
    KdImage im = {0, 0, NULL};
    int i, rc = 0;
    if (!kd_model.det.kind) {
        snprintf(err, KD_ERR, "--decode: model %s has no detector heads (kiln compile --detect)",
                 kd_model.name);
        return -1;
    }
    if (a->nouts != kd_model.noutputs) {
        snprintf(err, KD_ERR, "--decode: %d tensors given, model %s has %d outputs", a->nouts,
                 kd_model.name, kd_model.noutputs);
        return -1;
    }
    for (i = 0; i < a->nouts && rc == 0; i++) {
        outs[i] = kd_npy_read(a->outs[i], &kd_model.out[i], err);
        shapes[i] = kd_model.out[i];
        rc = outs[i] ? 0 : -1;
    }
    if (rc == 0 && a->input)
        rc = kd_image_load(a->input, &im, err);
    if (rc == 0)
        rc = make_outdir(a->outdir, err);
    if (rc == 0)
        rc = detect(a, (const float *const *)outs, shapes, a->nouts, a->input ? &im : NULL, err);
    for (i = 0; i < a->nouts; i++)
        free(outs[i]);
    if (im.rgb)
        kd_image_free(&im);
    return rc;
}

/* The model input from a .npy or a picture (kept in *im for the boxes). */
static float *read_input(const char *input, KdImage *im, char *err)
{
    float *x;
    if (ends_with(input, ".npy"))
        return kd_npy_read(input, &kd_model.in[0], err);
    if (kd_image_load(input, im, err) < 0)
        return NULL;
    x = malloc(sizeof *x * (size_t)kd_numel(&kd_model.in[0]));
    if (!x) {
        snprintf(err, KD_ERR, "out of memory");
        return NULL;
    }
    if (kd_preprocess(im, &kd_model.in[0], x, err) < 0) {
        char e2[KD_ERR];
        memcpy(e2, err, KD_ERR);
        snprintf(err, KD_ERR, "%s: %.*s", input, KD_ERR / 2, e2);
        free(x);
        return NULL;
    }
    return x;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* When each frame finished (kd_model_run_frames at once), on one line. */
static void print_done(const KdRun *r, int frames)
{
    const char *unit = "";
    uint64_t t;
    int f;
    if (frames < 2 || !krt_frame_done(r->m, 0, &t, &unit))
        return;
    printf("kiln-infer: %d frames, %d in flight, done at (%s):", frames,
           krt_frames_in_flight(r->m), unit);
    for (f = 0; krt_frame_done(r->m, f, &t, NULL); f++)
        printf(" %llu", (unsigned long long)t);
    printf("\n");
}

/* Frames on the accelerator (frame f on input f mod their count), then the
 * outputs written: outs[k] are input k's (its last frame's). */
static int frames(const Args *a, float **x, float *(*outs)[KD_MAX_OUT], char *err)
{
    const float *const *in_f[CHUNK];
    float *const *out_f[CHUNK];
    KdRun r;
    double t0;
    int f, i, k = a->ninputs, rc = 0;
    char path[4096];
    if (kd_open(&r, a->spec, a->dir, err) < 0)
        return -1;
    if (a->frames > 1 && kd_model_frames_why[0])
        printf("kiln-infer: frames one after the other: %s\n", kd_model_frames_why);
    t0 = now_ms();
    for (f = 0; f < a->frames && rc == 0; f += CHUNK) {
        int n = a->frames - f < CHUNK ? a->frames - f : CHUNK;
        for (i = 0; i < n; i++) {
            in_f[i] = (const float *const *)&x[(f + i) % k];
            out_f[i] = outs[(f + i) % k];
        }
        rc = kd_model_run_frames(&r, n, in_f, out_f, a->timeout_ms, err);
        if (rc == 0 && f == 0)
            print_done(&r, n);
    }
    if (rc == 0)
        printf("kiln-infer: %s: %d frame(s), %.1f ms per frame\n", kd_model.name, a->frames,
               (now_ms() - t0) / a->frames);
    kd_close(&r);
    for (f = 0; f < k && rc == 0; f++)
        for (i = 0; i < kd_model.noutputs && rc == 0; i++) {
            if (k == 1)
                snprintf(path, sizeof path, "%s/out%d.npy", a->outdir, i);
            else
                snprintf(path, sizeof path, "%s/out%d-%d.npy", a->outdir, i, f);
            rc = kd_npy_write(path, &kd_model.out[i], outs[f][i], err);
            if (rc == 0)
                printf("%s\n", path);
        }
    return rc;
}

/* --preprocess: OUTDIR/input.npy from the picture. */
static int run_preprocess(const Args *a, char *err)
{
    KdImage im = {0, 0, NULL};
    char path[4096];
    float *x;
    int rc;
    if (!(x = read_input(a->input, &im, err)))
        return -1;
    snprintf(path, sizeof path, "%s/input.npy", a->outdir);
    rc = make_outdir(a->outdir, err);
    if (rc == 0)
        rc = kd_npy_write(path, &kd_model.in[0], x, err);
    if (rc == 0)
        printf("%s\n", path);
    free(x);
    kd_image_free(&im);
    return rc;
}

static int run_model(const Args *a, char *err)
{
    KdImage im = {0, 0, NULL}, other;
    float *x[MAX_INPUTS] = {0}, *outs[MAX_INPUTS][KD_MAX_OUT] = {{0}};
    int i, j, rc = 0;
    if (kd_model.ninputs != 1) {
        snprintf(err, KD_ERR, "model %s has %d inputs; kiln-infer feeds one", kd_model.name,
                 kd_model.ninputs);
        return -1;
    }
    if (a->ninputs > a->frames) {
        snprintf(err, KD_ERR, "%d inputs for %d frame(s): --frames at least the inputs",
                 a->ninputs, a->frames);
        return -1;
    }
    for (j = 0; j < a->ninputs && rc == 0; j++) { /* the first picture kept for the boxes */
        memset(&other, 0, sizeof other);
        if (!(x[j] = read_input(a->more[j], j == 0 ? &im : &other, err)))
            rc = -1;
        if (other.rgb)
            kd_image_free(&other);
    }
    for (j = 0; j < a->ninputs && rc == 0; j++)
        for (i = 0; i < kd_model.noutputs && rc == 0; i++)
            if (!(outs[j][i] = malloc(sizeof(float) * (size_t)kd_numel(&kd_model.out[i])))) {
                snprintf(err, KD_ERR, "out of memory");
                rc = -1;
            }
    if (rc == 0)
        rc = make_outdir(a->outdir, err);
    if (rc == 0)
        rc = frames(a, x, outs, err);
    if (rc == 0 && kd_model.det.kind && a->ninputs == 1)
        rc = detect(a, (const float *const *)outs[0], kd_model.out, kd_model.noutputs,
                    im.rgb ? &im : NULL, err);
    for (j = 0; j < a->ninputs; j++) {
        for (i = 0; i < kd_model.noutputs; i++)
            free(outs[j][i]);
        free(x[j]);
    }
    if (im.rgb)
        kd_image_free(&im);
    return rc;
}

int main(int argc, char **argv)
{
    Args a;
    char err[KD_ERR];
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    if (parse_args(argc, argv, &a, err) < 0) {
        usage(stderr);
        return fail(err);
    }
    if ((a.decode ? run_decode(&a, err) : a.preprocess ? run_preprocess(&a, err)
                                           : run_model(&a, err)) < 0)
        return fail(err);
    return 0;
}
