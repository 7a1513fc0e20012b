/*
 * kiln_tsdesc.h: the shared conv engine's descriptor table (kiln_tsconv,
 * docs/rtl-engines.md) moved to bus addresses, defined once.  libkiln-rt
 * (rt.c) relocates it as it loads weights.bin into DMA memory and kiln
 * simulate (sim/tsjob.c) as it writes the engine's table for a harness job.
 * weights.bin holds each 128-byte descriptor with the input map's offset
 * (bytes 16..23) and the output map's (bytes 32..39) into the engine's map
 * region, and the weights' offset (bytes 24..31) into weights.bin, each a
 * little-endian 64-bit word.  C11, header only.
 */
#ifndef KILN_TSDESC_H
#define KILN_TSDESC_H

#include <stdint.h>

/* Add v to the little-endian 64-bit word at b. */
static inline void kiln_ts_add64(uint8_t *b, uint64_t v)
{
    uint64_t x = 0;
    int k;
    for (k = 0; k < 8; k++)
        x |= (uint64_t)b[k] << (8 * k);
    x += v;
    for (k = 0; k < 8; k++)
        b[k] = (uint8_t)(x >> (8 * k));
}

/* The layers descriptors at table: map offsets plus maps (the region's bus
 * address), weight offsets plus weights (weights.bin's). */
static inline void kiln_ts_relocate(uint8_t *table, int layers, uint64_t maps, uint64_t weights)
{
    int i;
    for (i = 0; i < layers; i++) {
        uint8_t *d = table + 128 * (uint64_t)i;
        kiln_ts_add64(d + 16, maps);    /* words 4-5: input map */
        kiln_ts_add64(d + 24, weights); /* words 6-7: weights */
        kiln_ts_add64(d + 32, maps);    /* words 8-9: output map */
    }
}

#endif
