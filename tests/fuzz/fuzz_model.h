/*
 * What fuzz_board and fuzz_plan share: the model their inputs are planned
 * against (KILN_FUZZ_MODEL after the default passes) and a sink for the
 * report, both made once in LLVMFuzzerInitialize.
 */
#ifndef KILN_FUZZ_MODEL_H
#define KILN_FUZZ_MODEL_H
#include <stdio.h>
#include <stdlib.h>

#include "frontend/frontend.h"

#ifndef KILN_FUZZ_MODEL
#error "KILN_FUZZ_MODEL must name the model the inputs are planned against"
#endif

static GirGraph *fuzz_model; /* KILN_FUZZ_MODEL, passes run */
static FILE *fuzz_sink;      /* /dev/null: reports are made, not kept */

/* Loads both or exits: without them the target cannot run at all. */
static void fuzz_model_init(const char *who)
{
    GirError e;
    fuzz_model = fe_load_model(KILN_FUZZ_MODEL, &e);
    if (!fuzz_model || gir_run_pipeline(fuzz_model, NULL, NULL, &e) < 0) {
        fprintf(stderr, "%s: %s\n", who, e.msg);
        exit(1);
    }
    fuzz_sink = fopen("/dev/null", "w");
    if (!fuzz_sink)
        exit(1);
}
#endif
