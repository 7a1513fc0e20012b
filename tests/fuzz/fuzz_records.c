/*
 * libFuzzer target: tuning records (kiln tune, --records of run, bench,
 * lower and compile).  Arbitrary bytes go through the JSON-lines reader;
 * records that load are asked for the best schedule of each workload,
 * which must be a successful record of that workload.  Any input must
 * either load or fail with one diagnostic line; never crash, leak or hang.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "llvm/llvm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GirError e;
    KlvRecords *r;
    int i;
    e.msg[0] = '\0';
    if (!(r = klv_records_parse((const char *)data, size, "fuzz.jsonl", &e))) {
        if (!e.msg[0])
            __builtin_trap(); /* a failure must say why */
        return 0;
    }
    for (i = 0; i < klv_records_count(r); i++) {
        const KlvRecord *x = klv_records_get(r, i), *b = klv_records_best(r, x->key);
        if (b && (!b->ok || strcmp(b->key, x->key) != 0 || (x->ok && x->median_ms < b->median_ms)))
            __builtin_trap();
    }
    klv_records_free(r);
    return 0;
}
