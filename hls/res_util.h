/*
 * hls internal: the integer helpers every file of hls/ uses (ceiling
 * division, min/max, ceil(log2), the next power of two), memory geometry
 * shared by the resource models of hls/desc_conv.c and hls/desc_stream.c,
 * and the line-buffer geometry of kiln_conv_window that its cycle model and
 * the planner share.  Not part of the hls/hls.h API.
 */
#ifndef KILN_HLS_RES_UTIL_H
#define KILN_HLS_RES_UTIL_H

#include <stdint.h>

/* Block RAM as yosys 0.23's xilinx/brams_xc4v.txt offers it on
 * UltraScale+, in the order memory_libmap tries it: four configurations
 * (true dual port RAMB18E2 up to 1K x 18 and RAMB36E2 up to 1K x 36, simple
 * dual port RAMB18E2 up to 512 x 36 and RAMB36E2 up to 512 x 72), each over
 * the widths 1, 2, 4, 9, 18, 36, 72 from the narrowest (depth words1 >> i
 * for width i).  price: memory_libmap's cost of one block. */
typedef struct HlsBramShape {
    int64_t depth, width; /* words x bits per word */
    double cost;          /* RAMB36E2 equivalents: 1 for RAMB36E2, 0.5 for RAMB18E2 */
    double price;
} HlsBramShape;

typedef struct HlsBramCfg {
    int64_t words1; /* depth at width 1 */
    int nwidths;    /* the first nwidths of hls_bram_widths */
    double cost, price;
} HlsBramCfg;

static const int64_t hls_bram_widths[7] = {1, 2, 4, 9, 18, 36, 72};
static const HlsBramCfg hls_bram_cfgs[4] = {
    {16384, 5, 0.5, 129.0}, {32768, 6, 1.0, 257.0}, {16384, 6, 0.5, 129.0}, {32768, 7, 1.0, 257.0}};

/* ceil(a / b) for a >= 0, b > 0. */
static inline int64_t hls_cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static inline int64_t hls_max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static inline int64_t hls_min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* ceil(log2(v)): the bits that count v values; 0 for v <= 1. */
static inline int64_t hls_clog2(int64_t v)
{
    int64_t b = 0;
    while (((int64_t)1 << b) < v)
        b++;
    return b;
}

/* The smallest power of two >= v; 1 for v <= 1. */
static inline int64_t hls_pow2ceil(int64_t v)
{
    int64_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

/* Line-buffer rows of kiln_conv_window for the largest K it takes:
 * 2^ceil(log2(KMAX + 1)). */
static inline int64_t hls_line_rows(int64_t kmax)
{
    return hls_pow2ceil(kmax + 1);
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

/* memory_libmap's price of the read mux and write decode over `ranges`
 * address ranges of a `width`-bit word: half a unit per mux input bit
 * beyond the first range, half a unit per range decoded (none for one). */
static inline double hls_libmap_mux(int64_t ranges, int64_t width)
{
    return 0.5 * (double)((ranges - 1) * width) + (ranges > 1 ? 0.5 * (double)ranges : 0.0);
}

/* Bits a word of `width` bits takes in a block `unit` bits wide whose
 * write enables cover bytes of `byte` bits: memory_libmap pads the word to
 * whole bytes (a 64-bit word in 9-bit bytes takes 72 bits). */
static inline int64_t hls_mem_padded(int64_t width, int64_t unit, int64_t byte)
{
    int64_t b = byte < unit ? byte : unit;
    return hls_cdiv(width, b) * b;
}

/* One shape covering a depth x width memory with one write and one read
 * port as yosys 0.23's memory_libmap covers it: ceil(depth / words)
 * address ranges of the padded word, packed into blocks of the shape's
 * width (the blocks share the low address bits; a block may hold bits of
 * two ranges and the read mux picks by the high ones).  1152 x 256 in
 * 512 x 72 is ceil(3 x 261 / 72) = 11 RAMB36E2, not 3 x 4; 4608 x 64 is
 * 9 x 72 / 72 = 9, not 8.  price: memory_libmap's cost, the blocks' price
 * plus half a unit per read-mux input bit beyond the first range and half
 * a unit per range of write decode (hls_libmap_mux). */
typedef struct HlsBramFit {
    double bram36, price;
    int64_t ranges; /* address ranges of the shape (ceil(depth / its words)) */
} HlsBramFit;

static inline HlsBramFit hls_bram_tiled(int64_t depth, int64_t width, const HlsBramShape *b)
{
    int64_t ranges = hls_cdiv(depth, b->depth);
    int64_t blocks = hls_cdiv(ranges * hls_mem_padded(width, b->width, 9), b->width);
    HlsBramFit f;
    f.bram36 = (double)blocks * b->cost;
    f.price = (double)blocks * b->price + hls_libmap_mux(ranges, width);
    f.ranges = ranges;
    return f;
}

/* URAM288 blocks (4K words of 72 bits, bytes of 8 or 9 bits) of a
 * depth x width memory, packed the same way: 18432 x 256 is
 * ceil(5 x 256 / 72) = 18, not 5 x 4 (yosys 0.23, ram_style "ultra"). */
static inline int64_t hls_uram_for(int64_t depth, int64_t width)
{
    int64_t ranges = hls_cdiv(depth, 4096);
    int64_t b8 = hls_cdiv(ranges * hls_mem_padded(width, 72, 8), 72);
    int64_t b9 = hls_cdiv(ranges * hls_mem_padded(width, 72, 9), 72);
    return b8 < b9 ? b8 : b9;
}

/* The block RAM memory_libmap picks for a depth x width memory with one
 * write and one read port.  Within a configuration a shape replaces the
 * one before it if its price is below that price cut to an integer (the
 * pass keeps the best cost in an int); the cheapest configuration wins, the
 * first on a tie.  A memory that fits one RAMB18E2 counts 0.5: 2304 x 32 is
 * 5 RAMB18E2 of 512 x 36, 4608 x 32 nine of them, 576 x 64 two RAMB36E2 of
 * 1024 x 36.  price includes the read port's emulation score (2). */
static inline HlsBramFit hls_bram_fit(int64_t depth, int64_t width)
{
    HlsBramFit best = {0.0, -1.0, 1};
    int c, i;
    for (c = 0; c < 4; c++) {
        const HlsBramCfg *g = &hls_bram_cfgs[c];
        HlsBramFit pick = {0.0, -1.0, 1};
        double cut = 0.0;
        for (i = 0; i < g->nwidths; i++) {
            HlsBramShape sh = {g->words1 >> i, hls_bram_widths[i], g->cost, g->price};
            HlsBramFit f = hls_bram_tiled(depth, width, &sh);
            f.price += 2.0;
            if (pick.price < 0.0 || f.price < cut) {
                pick = f;
                cut = (double)(int64_t)f.price;
            }
        }
        if (best.price < 0.0 || pick.price < best.price)
            best = pick;
    }
    return best;
}

/* RAMB36E2 equivalents for a depth x width memory in block RAM
 * (hls_bram_fit).  Memories of at most 64 words go to LUTRAM and count 0
 * (hls_lutram_luts). */
static inline double hls_bram36_for(int64_t depth, int64_t width)
{
    if (depth <= 64)
        return 0.0;
    return hls_bram_fit(depth, width).bram36;
}

/* LUT6s of an n:1 multiplexer of one bit: two 2:1 a LUT6 (its two
 * outputs), one 4:1 a LUT6, up to 16:1 the 4:1s joined by MUXF7/MUXF8
 * (not LUTs), above that a tree of them. */
static inline double hls_mux_luts(int64_t n)
{
    if (n <= 1)
        return 0.0;
    if (n == 2)
        return 0.5;
    if (n <= 16)
        return (double)hls_cdiv(n, 4);
    return (double)hls_cdiv(n, 4) + hls_mux_luts(hls_cdiv(n, 16));
}

/* LUTs of the read multiplexer yosys 0.23 puts after a depth x width
 * memory in block RAM (hls_bram_fit) that spans several address ranges:
 * each bit an n:1 multiplexer of the n ranges (hls_mux_luts); 0 for one
 * range and for LUTRAM (its mux is in hls_lutram_luts / hls_mem).  Fitted
 * on kiln_conv_window's PP copies of 32,768 x 128 bits (eight ranges of
 * 4,096 x 9 blocks): 257.5 and 258.5 LUT a copy more than copies of one
 * range at PP 2 and 4 (docs/rtl-resources.md, "Banked line buffer"),
 * 128 x 2 = 256 here.  Its select, the high address bits a cycle later,
 * is ceil(log2 n) flip-flops (3 a copy there, yosys +6 and +12). */
static inline double hls_bram_mux_luts(int64_t depth, int64_t width)
{
    if (depth <= 64)
        return 0.0;
    return (double)width * hls_mux_luts(hls_bram_fit(depth, width).ranges);
}

/* LUTs of a memory of at most 64 words with one read and one write port
 * in LUTRAM: RAM32M16 (14 bits x 32) up to 32 words, RAM64M8 (7 bits x 64)
 * up to 64, each cell 8 LUTs (as bench/synth/synth.py counts them); 0
 * above (BRAM). */
static inline double hls_lutram_luts(int64_t depth, int64_t width)
{
    if (depth > 64)
        return 0.0;
    return 8.0 * (double)hls_cdiv(width, depth <= 32 ? 14 : 7);
}

/* A memory with one write and one read port in LUTRAM or block RAM as
 * yosys 0.23's memory_libmap chooses on UltraScale+.  LUTRAM is priced 16
 * per RAM32M16 (14 bits x 32 words) or RAM64M8 (7 x 64) scaled by the bits
 * used, plus half a unit per bit and extra bank for the read mux, half a
 * unit per bank for the write decode (when there is more than one) and the
 * read port's emulation score (2); block RAM as hls_bram_fit.  Block RAM
 * wins only below the LUTRAM price cut to an integer (the pass keeps the
 * best cost in an int): 200 x 12 is 131.7 in LUTRAM against 131 for one
 * RAMB18E2, and goes to LUTRAM.  Probed with yosys on 1W1R memories:
 * 256 x 6, 128 x 24, 256 x 11, 512 x 5, 200 x 12 and 2048 x 1 go to
 * LUTRAM; 128 x 28, 256 x 14, 512 x 7, 1024 x 3 and 2560 x 1 to one
 * RAMB18E2.  At most 64 words it is always LUTRAM.  lut: the LUTRAM's LUTs
 * (8 per cell, as bench/synth/synth.py counts them) and its read mux, 0 in
 * block RAM. */
typedef struct HlsMem {
    double bram36, lut;
} HlsMem;

static inline HlsMem hls_mem(int64_t depth, int64_t width)
{
    static const int64_t words[2] = {32, 64}, bits[2] = {14, 7};
    HlsBramFit b = hls_bram_fit(depth, width);
    HlsMem m = {b.bram36, 0.0};
    double lut_price = -1.0, lut = 0.0;
    int i;
    for (i = 0; i < 2; i++) {
        int64_t n = hls_cdiv(depth, words[i]);
        double price =
            16.0 * (double)n * (double)width / (double)bits[i] + hls_libmap_mux(n, width) + 2.0;
        if (lut_price < 0.0 || price < lut_price) {
            lut_price = price;
            lut = 8.0 * (double)(n * hls_cdiv(width, bits[i])) + 0.5 * (double)((n - 1) * width);
        }
    }
    if (depth <= 64 || !(b.price < (double)(int64_t)lut_price)) {
        m.bram36 = 0.0;
        m.lut = lut;
    }
    return m;
}

#endif
