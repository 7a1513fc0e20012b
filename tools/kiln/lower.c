/*
 * kiln lower MODEL --triple T [--cpu C] [--features F] [--symbol NAME] -o OUT.o:
 * compile a model ahead of time through llvm/ into a relocatable object
 * for x86-64 or aarch64 and a C header (OUT.h, same stem) declaring its
 * entry point.  The model is prepared as for `kiln run --target cpu`: the
 * default passes on an fp32 model, the int8 form taken as it is.  Both
 * files are written under temporary names and renamed when both are
 * complete; on failure neither is left.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kiln.h"
#include "llvm/llvm.h"

static void lower_usage(FILE *f)
{
    fprintf(f, "usage: kiln lower MODEL --triple T [--cpu C] [--features F] [--symbol NAME] -o OUT.o\n"
               "  writes the relocatable object OUT.o and the C header OUT.h declaring\n"
               "    int NAME(const void *const *inputs, void *const *outputs);\n"
               "  which runs the model on the calling thread (link with -lm)\n"
               "  --triple T    x86_64-linux-gnu, aarch64-linux-gnu, ... (LLVM target triple)\n"
               "  --cpu C       CPU to tune and select instructions for (e.g. cortex-a53, znver4;\n"
               "                default: the triple's generic CPU)\n"
               "  --features F  LLVM target features, e.g. +avx2,+fma\n"
               "  --symbol NAME the entry point's name (default: OUT's stem as a C identifier)\n");
}

/* OUT with its extension (after the last '.' of the file name) replaced
 * by ext; malloc'd. */
static char *with_ext(const char *out, const char *ext)
{
    const char *base = strrchr(out, '/'), *dot;
    size_t n;
    char *s;
    base = base ? base + 1 : out;
    dot = strrchr(base, '.');
    n = dot && dot != base ? (size_t)(dot - out) : strlen(out);
    s = malloc(n + strlen(ext) + 1);
    if (s) {
        memcpy(s, out, n);
        strcpy(s + n, ext);
    }
    return s;
}

/* The default entry point name: OUT's stem with every character that
 * cannot be in a C identifier as '_', prefixed "kiln_" when it does not
 * start with a letter. */
static void default_symbol(const char *out, char *sym, size_t size)
{
    char *stem = with_ext(out, "");
    const char *base = stem ? strrchr(stem, '/') : NULL;
    size_t k, at = 0;
    base = base ? base + 1 : stem ? stem : "model";
    if (!isalpha((unsigned char)base[0]))
        at = (size_t)snprintf(sym, size, "kiln_");
    for (k = 0; base[k] && at + 1 < size; k++)
        sym[at++] = isalnum((unsigned char)base[k]) ? base[k] : '_';
    sym[at] = '\0';
    free(stem);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The options of one kiln lower command. */
typedef struct {
    const char *model, *out, *symbol; /* MODEL, -o, --symbol (NULL: default) */
    KlvTarget t;                      /* --triple, --cpu, --features */
} LowerArgs;

/* Parse argv into a; a KILN_ status (-1: --help printed). */
static int parse(int argc, char **argv, LowerArgs *a)
{
    int i;
    memset(a, 0, sizeof *a);
    for (i = 1; i < argc; i++) {
        const char *o = argv[i], **slot = NULL;
        if (kiln_is_help(o)) {
            lower_usage(stdout);
            return -1;
        }
        if (strcmp(o, "-o") == 0)
            slot = &a->out;
        else if (strcmp(o, "--triple") == 0)
            slot = &a->t.triple;
        else if (strcmp(o, "--cpu") == 0)
            slot = &a->t.cpu;
        else if (strcmp(o, "--features") == 0)
            slot = &a->t.features;
        else if (strcmp(o, "--symbol") == 0)
            slot = &a->symbol;
        if (slot) {
            if (i + 1 >= argc)
                return kiln_user_error("lower: %s needs a value", o);
            *slot = argv[++i];
        } else if (o[0] == '-') {
            return kiln_user_error("lower: unknown option '%s' (kiln lower --help)", o);
        } else if (!a->model) {
            a->model = o;
        } else {
            return kiln_user_error("lower: more than one model given ('%s')", o);
        }
    }
    if (!a->model)
        return kiln_user_error("lower: no model given (kiln lower --help)");
    if (!a->t.triple)
        return kiln_user_error("lower: --triple is needed (e.g. x86_64-linux-gnu, aarch64-linux-gnu)");
    if (!a->out)
        return kiln_user_error("lower: -o OUT.o is needed");
    return KILN_OK;
}

/* Write the header and the object under temporary names next to the
 * final ones, then rename both; nothing is left on failure.  A KILN_
 * status. */
static int write_both(const GirGraph *g, const LowerArgs *a, const char *sym, const char *hdr)
{
    char *tmp_o = malloc(strlen(a->out) + 32), *tmp_h = malloc(strlen(hdr) + 32);
    GirError err;
    int rc = KILN_BAD_INPUT;
    FILE *probe;
    if (!tmp_o || !tmp_h) {
        free(tmp_o);
        free(tmp_h);
        return kiln_user_error("lower: out of memory");
    }
    sprintf(tmp_o, "%s.tmp%ld", a->out, (long)getpid());
    sprintf(tmp_h, "%s.tmp%ld", hdr, (long)getpid());
    /* the object's folder must take a new file: say so with its name */
    if (!(probe = fopen(tmp_o, "w"))) {
        kiln_user_error("lower: cannot write %s: %s", a->out, strerror(errno));
        goto out;
    }
    fclose(probe);
    if (klv_emit_header(g, sym, tmp_h, &err) < 0 || klv_emit_object(g, &a->t, sym, tmp_o, &err) < 0) {
        kiln_user_error("lower: %s", err.msg);
        goto out;
    }
    if (rename(tmp_o, a->out) != 0) {
        kiln_user_error("lower: cannot write %s: %s", a->out, strerror(errno));
        goto out;
    }
    if (rename(tmp_h, hdr) != 0) {
        kiln_user_error("lower: cannot write %s: %s", hdr, strerror(errno));
        unlink(a->out);
        goto out;
    }
    rc = KILN_OK;
out:
    unlink(tmp_o);
    unlink(tmp_h);
    free(tmp_o);
    free(tmp_h);
    return rc;
}

int kiln_cmd_lower(int argc, char **argv)
{
    LowerArgs a;
    GirGraph *g;
    GirError err;
    char sym[256], *hdr;
    struct stat st;
    double t0;
    int rc = parse(argc, argv, &a);
    if (rc != KILN_OK)
        return rc < 0 ? KILN_OK : rc;
    if (!(hdr = with_ext(a.out, ".h")))
        return kiln_user_error("lower: out of memory");
    if (strcmp(hdr, a.out) == 0) {
        free(hdr);
        return kiln_user_error("lower: -o %s: the header would overwrite the object (use OUT.o)", a.out);
    }
    if (a.symbol)
        snprintf(sym, sizeof sym, "%s", a.symbol);
    else
        default_symbol(a.out, sym, sizeof sym);
    t0 = now_s();
    if (!(g = kiln_load_model(a.model, 1, &err))) {
        free(hdr);
        return kiln_report(&err);
    }
    if (!kiln_is_quantized(g) && gir_run_pipeline(g, NULL, NULL, &err) < 0)
        rc = kiln_report(&err);
    else
        rc = write_both(g, &a, sym, hdr);
    if (rc == KILN_OK && stat(a.out, &st) == 0)
        fprintf(stderr, "kiln: lower: %s (%s): %d nodes, entry point %s; %s (%lld bytes) and %s in %.2f s\n",
                a.t.triple, a.t.cpu && a.t.cpu[0] ? a.t.cpu : "generic", g->nnode, sym, a.out,
                (long long)st.st_size, hdr, now_s() - t0);
    gir_graph_free(g);
    free(hdr);
    return rc;
}
