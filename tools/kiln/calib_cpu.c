/*
 * Calibration through the CPU back end: the view of the graph that hands
 * back every recorded value (gir_calib_view) is compiled once with llvm/
 * and each calibration input runs through it, instead of through the
 * reference interpreter.  The values agree with the interpreter's within
 * the back end's 1e-5 relative L2, so the thresholds do too; the
 * interpreter stays the oracle the back end is tested against.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kiln.h"
#include "llvm/llvm.h"

/* The compiled view and what it took. */
struct KilnCalibCpu {
    KlvProgram *prog; /* the view, compiled */
    char note[256];   /* what was compiled, for kiln_calib_cpu_note */
};

static int run_view(void *ctx, const GirGraph *view, const GirTensor *inputs, GirTensor *outs,
                    GirArena *a, GirError *e)
{
    KilnCalibCpu *k = ctx;
    (void)view;
    return klv_run(k->prog, inputs, outs, a, e);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

KilnCalibCpu *kiln_calib_cpu_attach(GirCalib *c, char *why, size_t nwhy)
{
    const GirGraph *view = gir_calib_view(c);
    KlvOptions o;
    KlvStats st;
    GirError err;
    KilnCalibCpu *k;
    double t0 = now_ms();
    int i;
    for (i = 0; i < view->nval; i++)
        if (!gir_type_is_static(&view->vals[i].type)) {
            snprintf(why, nwhy, "value '%s' has no static shape for the CPU back end",
                     view->vals[i].name);
            return NULL;
        }
    memset(&o, 0, sizeof o);
    k = calloc(1, sizeof *k);
    if (!k)
        gir_die("out of memory");
    k->prog = klv_compile(view, &o, &err);
    if (!k->prog) {
        snprintf(why, nwhy, "the CPU back end cannot compile the model: %s", err.msg);
        free(k);
        return NULL;
    }
    klv_stats(k->prog, &st);
    snprintf(k->note, sizeof k->note,
             "the CPU back end (%s: %d of %d nodes compiled, %d in the interpreter; "
             "compiled in %.0f ms)", st.cpu, st.lowered, st.nodes, st.fallback, now_ms() - t0);
    gir_calib_set_runner(c, run_view, k);
    return k;
}

const char *kiln_calib_cpu_note(const KilnCalibCpu *k)
{
    return k ? k->note : "the interpreter";
}

void kiln_calib_cpu_free(KilnCalibCpu *k)
{
    if (!k)
        return;
    klv_free(k->prog);
    free(k);
}
