/*
 * libFuzzer target: board files.  Arbitrary bytes go through the board reader
 * (libxml2, board.xsd, the magnitude checks); a board that loads is then
 * planned against a small two-segment model, so that a value the reader lets
 * through cannot break the planner's arithmetic.  Any input must either load
 * and plan, or fail with one diagnostic line; never crash, leak or hang.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_model.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_model_init("fuzz_board");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    HlsBoard b;
    HlsPlanOptions o = {0};
    HlsPlan *p;
    GirError e;
    e.msg[0] = '\0';
    if (hls_board_parse((const char *)data, size, "fuzz.xml", &b, &e) < 0) {
        if (!e.msg[0])
            __builtin_trap(); /* a failure must say why */
        return 0;
    }
    p = hls_plan_build(fuzz_model, &b, &o, &e);
    if (!p) {
        if (!e.msg[0])
            __builtin_trap();
        return 0;
    }
    fuzz_outputs(p);
    hls_plan_free(p);
    return 0;
}
