/*
 * What fuzz_board and fuzz_plan share: the model their inputs are planned
 * against (KILN_FUZZ_MODEL after the default passes), a sink for the report
 * and a scratch folder for the RTL, made once in LLVMFuzzerInitialize; and
 * the generation of a plan's outputs.
 */
#ifndef KILN_FUZZ_MODEL_H
#define KILN_FUZZ_MODEL_H
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "frontend/frontend.h"
#include "hls/plan.h"
#include "pipeline/pipeline.h"

#ifndef KILN_FUZZ_MODEL
#error "KILN_FUZZ_MODEL must name the model the inputs are planned against"
#endif

static GirGraph *fuzz_model; /* KILN_FUZZ_MODEL, passes run */
static FILE *fuzz_sink;      /* /dev/null: reports are made, not kept */
static char fuzz_dir[64];    /* scratch folder: rtl/ is written and removed */

static void fuzz_dir_remove(void)
{
    rmdir(fuzz_dir);
}

/* Loads them or exits: without them the target cannot run at all. */
static void fuzz_model_init(const char *who)
{
    GirError e;
    fuzz_model = fe_load_model(KILN_FUZZ_MODEL, &e);
    if (!fuzz_model || gir_run_pipeline(fuzz_model, NULL, NULL, &e) < 0) {
        fprintf(stderr, "%s: %s\n", who, e.msg);
        exit(1);
    }
    fuzz_sink = fopen("/dev/null", "w");
    snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/kiln-fuzz-XXXXXX");
    if (!fuzz_sink || !mkdtemp(fuzz_dir))
        exit(1);
    atexit(fuzz_dir_remove);
}

/* Everything kiln compile makes of a plan: plan.json, report.md, the dot
 * picture and the RTL (written, then removed).  A refusal must say why. */
static void fuzz_outputs(HlsPlan *p)
{
    GirError e;
    free(hls_plan_json(p));
    hls_plan_report(p, fuzz_sink, 0.0);
    hls_plan_dot(p, fuzz_sink);
    e.msg[0] = '\0';
    if (rtl_write(p, fuzz_model, fuzz_dir, &e) < 0 && !e.msg[0])
        __builtin_trap();
    rtl_remove(fuzz_dir);
}
#endif
