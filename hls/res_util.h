/*
 * hls internal: memory geometry shared by the resource models of
 * hls/desc_conv.c and hls/desc_stream.c, and the line-buffer geometry of
 * kiln_conv_window that its cycle model and the planner share.  Not part of
 * the hls/hls.h API.
 */
#ifndef KILN_HLS_RES_UTIL_H
#define KILN_HLS_RES_UTIL_H

#include <stdint.h>

/* Block RAM aspect ratios (depth x width) in simple-dual-port use. */
typedef struct HlsBramShape {
    int64_t depth, width; /* words x bits per word */
    double cost;          /* RAMB36E2 equivalents: 1 for RAMB36E2, 0.5 for RAMB18E2 */
} HlsBramShape;

static const HlsBramShape hls_bram_shapes[] = {
    {32768, 1, 1.0}, {16384, 2, 1.0}, {8192, 4, 1.0}, {4096, 9, 1.0}, {2048, 18, 1.0},
    {1024, 36, 1.0}, {512, 72, 1.0},
    {16384, 1, 0.5}, {8192, 2, 0.5}, {4096, 4, 0.5}, {2048, 9, 0.5}, {1024, 18, 0.5},
    {512, 36, 0.5},
};

static inline int64_t hls_cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Line-buffer rows of kiln_conv_window for the largest K it takes:
 * 2^ceil(log2(KMAX + 1)). */
static inline int64_t hls_line_rows(int64_t kmax)
{
    int64_t r = 1;
    while (r < kmax + 1)
        r <<= 1;
    return r;
}

/* Whether kiln_conv_window with SPAN = 1 runs pixel groups across row ends
 * for a K x K, stride `stride` conv of `wout` output columns at PP `pp` in a
 * line buffer of `rows` rows (the RTL checks the same on cfg; otherwise it
 * runs row by row): a group spans at most two output rows, whose K + S input
 * rows the buffer holds. */
static inline int hls_span_runs(int64_t pp, int64_t wout, int64_t k, int64_t stride, int64_t rows)
{
    return pp > 1 && wout >= pp && k + stride <= rows;
}

/* Cost of covering depth x width with one shape as memory_libmap does:
 * ceil(depth / words) address ranges of `width` bits, packed into blocks of
 * the shape's width (the blocks share the low address bits; a block may hold
 * bits of two ranges, the read mux picks by the high ones): 1152 x 256 in
 * 512 x 72 is ceil(3 x 256 / 72) = 11 RAMB36E2, not 3 x 4. */
static inline double hls_bram_tiled(int64_t depth, int64_t width, const HlsBramShape *b)
{
    return (double)hls_cdiv(hls_cdiv(depth, b->depth) * width, b->width) * b->cost;
}

/* URAM288 blocks (4K words of 72 bits) of a depth x width memory, packed the
 * same way: 18432 x 256 is ceil(5 x 256 / 72) = 18, not 5 x 4 (yosys 0.23,
 * ram_style "ultra"). */
static inline int64_t hls_uram_for(int64_t depth, int64_t width)
{
    return hls_cdiv(hls_cdiv(depth, 4096) * width, 72);
}

/* RAMB36E2 equivalents for a depth x width memory as yosys (memory_libmap)
 * maps it: the cheapest of one aspect ratio tiled over the whole memory, or
 * whole blocks of one ratio for the bulk of the depth plus another ratio for
 * the rest (a 2304 x 32 memory is 4 RAMB18E2 2Kx9 + 1 RAMB18E2 512x36; a
 * 576 x 64 one 1 RAMB36E2 512x72 + a 64-deep remainder in another block).
 * A memory that fits one RAMB18E2 counts 0.5.  Memories of at most 64
 * words go to LUTRAM and count 0 (hls_lutram_cells). */
static inline double hls_bram36_for(int64_t depth, int64_t width)
{
    const int n = (int)(sizeof hls_bram_shapes / sizeof hls_bram_shapes[0]);
    double best = -1.0;
    int i, j;
    if (depth <= 64)
        return 0.0;
    for (i = 0; i < n; i++) {
        const HlsBramShape *b = &hls_bram_shapes[i];
        int64_t bulk = depth / b->depth * b->depth, rest = depth - bulk;
        double c = hls_bram_tiled(depth, width, b);
        if (best < 0.0 || c < best)
            best = c;
        if (bulk == 0 || rest == 0)
            continue;
        for (j = 0; j < n; j++) {
            c = hls_bram_tiled(bulk, width, b) + hls_bram_tiled(rest, width, &hls_bram_shapes[j]);
            if (c < best)
                best = c;
        }
    }
    return best;
}

/* LUTRAM cells (counted as LUTs, as bench/synth/synth.py does) of a memory
 * of at most 64 words with one read and one write port: RAM32M16 (14 bits
 * x 32) up to 32 words, RAM64M8 (7 bits x 64) up to 64; 0 above (BRAM). */
static inline double hls_lutram_cells(int64_t depth, int64_t width)
{
    if (depth > 64)
        return 0.0;
    if (depth <= 32)
        return (double)hls_cdiv(width, 14);
    return (double)hls_cdiv(width, 7);
}

/* A memory of more than 64 words with one write and one read port in
 * LUTRAM or block RAM as yosys 0.23's memory_libmap chooses on UltraScale+:
 * the cheaper of LUTRAM, priced 16 per RAM64M8 (7 bits x 64 words) or
 * RAM32M16 (14 x 32) scaled by the bits used, plus half a unit per bit and
 * extra bank for the read mux and half a unit per bank for the write
 * decode, and block RAM at 129 per RAMB18E2 (258 per RAMB36E2).  Probed with
 * yosys on 1W1R memories: 256 x 6, 128 x 24, 256 x 11, 512 x 5 and
 * 2048 x 1 go to LUTRAM; 128 x 28, 256 x 14, 512 x 7, 1024 x 3 and
 * 2560 x 1 to one RAMB18E2.  At most 64 words it is always LUTRAM.  lut:
 * the LUTRAM's LUTs (8 per cell, as bench/synth/synth.py counts them) and
 * its read mux, 0 in block RAM. */
typedef struct HlsMem {
    double bram36, lut;
} HlsMem;

static inline HlsMem hls_mem(int64_t depth, int64_t width)
{
    static const int64_t words[2] = {64, 32}, bits[2] = {7, 14};
    HlsMem m = {hls_bram36_for(depth, width), 0.0};
    double best = 258.0 * m.bram36;
    int lutram = depth <= 64, i;
    for (i = 0; i < 2; i++) {
        int64_t n = hls_cdiv(depth, words[i]);
        double price = 16.0 * (double)n * (double)width / (double)bits[i] +
                       0.5 * (double)((n - 1) * width) + 0.5 * (double)n;
        if ((lutram && i == 0) || price < best) {
            best = price;
            lutram = 1;
            m.lut = 8.0 * (double)(n * hls_cdiv(width, bits[i])) + 0.5 * (double)((n - 1) * width);
        }
    }
    if (lutram)
        m.bram36 = 0.0;
    return m;
}

#endif
