/*
 * libFuzzer target: plan.json replay (kiln compile --plan).  Arbitrary text
 * is replayed on a small two-segment model for ZCU104; a plan that replays
 * is written out as kiln compile would (JSON, report, dot, RTL).  Any input
 * must either replay or fail with one diagnostic line; never crash, leak or
 * hang.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_model.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static HlsBoard board; /* zcu104 */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    GirError e;
    (void)argc;
    (void)argv;
    fuzz_model_init("fuzz_plan");
    if (hls_board_load("zcu104", &board, &e) < 0) {
        fprintf(stderr, "fuzz_plan: %s\n", e.msg);
        exit(1);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1); /* cJSON reads up to a terminator */
    HlsPlan *p;
    GirError e;
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    e.msg[0] = '\0';
    p = hls_plan_replay(fuzz_model, &board, text, "fuzz.json", 0.0, &e);
    free(text);
    if (!p) {
        if (!e.msg[0])
            __builtin_trap(); /* a failure must say why */
        return 0;
    }
    fuzz_outputs(p);
    hls_plan_free(p);
    return 0;
}
