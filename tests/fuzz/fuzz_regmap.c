/*
 * libFuzzer target: regmap.json, the register map kiln simulate reads from
 * a compiled folder (sim/regmap.c).  Arbitrary bytes go through the JSON
 * parser and every check of registers, segments, channels (with their
 * sources) and PERF entries, against a plan of 64 stages.  Any input must
 * either load or fail with one diagnostic line; never crash, leak or hang.
 */
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    SimMap *m = NULL;
    GirError e;
    e.msg[0] = '\0';
    if (sim_map_parse((const char *)data, size, "fuzz/regmap.json", 64, &m, &e) != SIM_OK) {
        if (!e.msg[0] || m)
            __builtin_trap(); /* a failure must say why and return no map */
        return 0;
    }
    if (!m)
        __builtin_trap();
    sim_map_free(m);
    return 0;
}
