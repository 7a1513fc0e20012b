/*
 * semantics_test MODEL [--size N] [--tol T] [--pipelines P;P...]   (P: a pass list; ";" or "|" between pipelines)
 *
 * Passes keep a graph's meaning: the interpreter's outputs on seeded random
 * inputs are the same before and after each pipeline (within fp32 rounding:
 * relative L2 at most T, 1e-4 by default).  MODEL is an ONNX file, a .gir or
 * a Darknet .cfg; --size N rewrites a cfg's width and height to N so big
 * networks stay quick.  Default pipelines: every pass alone, O1, and hw.
 * Prints one line per pipeline; exits 1 on a mismatch, 2 on bad input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "graphir/graphir.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* A cfg with every width= and height= line set to size. */
static char *resize_cfg(const char *text, int size, size_t *len)
{
    size_t cap = strlen(text) + 4096, n = 0;
    char *out = malloc(cap);
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p + 1) : strlen(p);
        if (strncmp(p, "width=", 6) == 0 || strncmp(p, "height=", 7) == 0)
            n += (size_t)snprintf(out + n, cap - n, "%s=%d\n", p[0] == 'w' ? "width" : "height",
                                  size);
        else {
            memcpy(out + n, p, l);
            n += l;
        }
        p += l;
    }
    out[n] = 0;
    *len = n;
    return out;
}

static GirGraph *load(const char *path, int size, GirError *e)
{
    size_t len = strlen(path), tl;
    if (size > 0 && len > 4 && strcmp(path + len - 4, ".cfg") == 0) {
        char *text = slurp(path, &tl), *small;
        GirGraph *g;
        if (!text) {
            snprintf(e->msg, sizeof e->msg, "%s: cannot read", path);
            return NULL;
        }
        small = resize_cfg(text, size, &tl);
        g = fe_darknet_from_memory(small, tl, path, 1, e);
        free(text);
        free(small);
        return g;
    }
    return fe_load_model(path, e);
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *pipes = NULL;
    static const char *dflt[] = {"remove_noops", "fold_constants", "fold_bn", "fold_pad",
                                 "fuse_act", "cse", "dce", "nhwc", "O1", "hw"};
    const char *list[64];
    int npipe = 0, size = 0, i, j, bad = 0;
    double tol = 1e-4;
    GirError err;
    GirGraph *g0;
    GirArena *a = gir_arena_new();
    GirTensor *ins, *ref;
    char *pipebuf = NULL;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc)
            size = atoi(argv[++i]);
        else if (strcmp(argv[i], "--tol") == 0 && i + 1 < argc)
            tol = atof(argv[++i]);
        else if (strcmp(argv[i], "--pipelines") == 0 && i + 1 < argc)
            pipes = argv[++i];
        else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: semantics_test MODEL [--size N] [--tol T] [--pipelines P;P...]\n");
        return 2;
    }
    if (pipes) {
        char *s;
        pipebuf = malloc(strlen(pipes) + 1);
        strcpy(pipebuf, pipes);
        for (s = strtok(pipebuf, ";|"); s && npipe < 64; s = strtok(NULL, ";|"))
            list[npipe++] = s;
    } else {
        for (i = 0; i < (int)(sizeof dflt / sizeof dflt[0]); i++)
            list[npipe++] = dflt[i];
    }
    g0 = load(path, size, &err);
    if (!g0) {
        fprintf(stderr, "%s\n", err.msg);
        gir_arena_free(a);
        free(pipebuf);
        return 2;
    }
    ins = gir_arena_alloc(a, sizeof *ins * (size_t)(g0->ninput + 1));
    ref = gir_arena_alloc(a, sizeof *ref * (size_t)(g0->noutput + 1));
    for (i = 0; i < g0->ninput; i++) {
        GirType t = g0->vals[g0->inputs[i]].type;
        int64_t n;
        for (j = 0; j < t.rank; j++)
            if (t.dims[j] < 0)
                t.dims[j] = 1;
        n = gir_type_numel(&t);
        if (t.dtype != GIR_DT_F32 || n < 0) {
            fprintf(stderr, "%s: input %d is not a static f32 tensor\n", path, i);
            return 2;
        }
        ins[i].type = t;
        ins[i].data = gir_arena_alloc(a, sizeof(float) * (size_t)(n + 1));
        for (j = 0; j < n; j++)
            ((float *)ins[i].data)[j] = (float)uniform();
    }
    if (gir_run(g0, ins, ref, a, &err) < 0) {
        fprintf(stderr, "%s: reference run: %s\n", path, err.msg);
        return 2;
    }
    for (i = 0; i < npipe; i++) {
        GirPassOptions o;
        GirGraph *g = load(path, size, &err);
        GirTensor *got = gir_arena_alloc(a, sizeof *got * (size_t)(g0->noutput + 1));
        double worst = 0;
        int k;
        memset(&o, 0, sizeof o);
        o.no_verify = 0; /* check the graph after every pass (the default) */
        if (!g || gir_run_passes(g, list[i], &o, &err) < 0 || gir_run(g, ins, got, a, &err) < 0) {
            printf("FAIL %-16s %s\n", list[i], err.msg);
            bad = 1;
            gir_graph_free(g);
            continue;
        }
        if (g->noutput != g0->noutput) {
            printf("FAIL %-16s %d outputs, expected %d\n", list[i], g->noutput, g0->noutput);
            bad = 1;
        }
        for (k = 0; k < g->noutput && k < g0->noutput; k++) {
            int64_t n = gir_type_numel(&ref[k].type), q;
            double num = 0, den = 0, rel;
            if (!gir_type_equal(&ref[k].type, &got[k].type) || ref[k].type.dtype != GIR_DT_F32) {
                if (!gir_type_equal(&ref[k].type, &got[k].type) ||
                    memcmp(ref[k].data, got[k].data,
                           (size_t)n * gir_dtype_size(ref[k].type.dtype)) != 0) {
                    printf("FAIL %-16s output %d differs in type or bits\n", list[i], k);
                    bad = 1;
                }
                continue;
            }
            for (q = 0; q < n; q++) {
                double d = (double)((float *)ref[k].data)[q] - ((float *)got[k].data)[q];
                num += d * d;
                den += (double)((float *)ref[k].data)[q] * ((float *)ref[k].data)[q];
            }
            rel = den > 0 ? sqrt(num / den) : sqrt(num);
            if (!(rel <= worst))
                worst = rel;
        }
        printf("%s %-16s nodes %4d -> %4d  worst relative L2 %.3g\n",
               worst <= tol ? "ok  " : "FAIL", list[i], g0->nnode, g->nnode, worst);
        if (!(worst <= tol))
            bad = 1;
        gir_graph_free(g);
    }
    gir_graph_free(g0);
    gir_arena_free(a);
    free(pipebuf);
    return bad;
}
