/*
 * hls: engine descriptors, the software signature of each hand-written
 * Verilog template in rtl-templates/.  The compiler reads them to predict
 * cycles and resources when it chooses engines and their parameters; the
 * Verilator benches (sim/) check cycles() exactly and bench/synth/ checks
 * resources() against yosys.
 *
 * Parameter vectors: hw[] holds the Verilog parameters in the order of
 * hw_params, rt[] the run-time cfg_* values in the order of rt_params.
 */
#ifndef KILN_HLS_H
#define KILN_HLS_H

#include <stdint.h>

/* FPGA resources of one engine instance (Zynq UltraScale+ primitives). */
typedef struct HlsRes {
    double lut;    /* LUTs (LUT1..LUT6, LUTRAM and SRL counted as LUTs) */
    double ff;     /* flip-flops (FDRE/FDSE/FDCE/FDPE) */
    double dsp;    /* DSP48E2 slices */
    double bram36; /* RAMB36E2 + RAMB18E2 / 2 */
    double uram;   /* URAM288 blocks */
} HlsRes;

/* One engine template. */
typedef struct HlsEngineDesc {
    const char *name;                 /* Verilog module name */
    const char *summary;              /* one line: what the engine computes */
    const char *const *hw_params;     /* Verilog parameter names, NULL-terminated */
    const char *const *rt_params;     /* run-time cfg_* names (without cfg_), NULL-terminated */
    int64_t (*latency)(const int64_t *hw); /* cycles from the last input an output depends on
                                            * (or the issue of its last MAC) to that output beat */
    int64_t (*cycles)(const int64_t *hw, const int64_t *rt); /* cycles per frame without
                                            * back-pressure, first input beat accepted to last
                                            * output beat inclusive; exact */
    HlsRes (*resources)(const int64_t *hw); /* resource estimate (tuned on yosys) */
} HlsEngineDesc;

/* Engine by Verilog module name, or NULL. */
const HlsEngineDesc *hls_engine_find(const char *name);
/* Number of registered engines. */
int hls_engine_count(void);
/* Engine i, 0 <= i < hls_engine_count(); NULL outside. */
const HlsEngineDesc *hls_engine_at(int i);

/* Index of a parameter name in a NULL-terminated list, or -1. */
int hls_param_index(const char *const *names, const char *name);
/* The same, looking from index `from` (0 to the length of the list) on first, then from the
 * start: names asked in the list's order take one comparison each. */
int hls_param_index_from(const char *const *names, const char *name, int from);

/* Weight-stream beats of one output group of kiln_conv: PE_OC lanes of
 * three parameter beats and kki = K x K x ICG weight beats each. */
int64_t hls_conv_group_wbeats(int64_t pe_oc, int64_t kki);

/* The cycles of kiln_conv's last n output beats of a frame (hw, rt: its
 * descriptor's vectors), from the first input beat, oldest first in t[];
 * returns how many it wrote (fewer when the frame has fewer beats), 0 where
 * the model does not time each beat (PP 1, whose FIFO passes every result
 * when ready, every K*K*ICG cycles; bands), -1 on a bad shape.  The last is
 * the frame's cycles - 1. */
int64_t hls_conv_out_tail(const int64_t *hw, const int64_t *rt, int64_t n, int64_t *t);

/* A cycle before any of a frame's (a bank free since long before). */
#define HLS_CONV_NEVER (INT64_MIN / 4)

/* kiln_conv's weight tiles over a frame, cycles from its first input beat
 * (the model's): in, when tile 1's bank is free (WBANKS 2; HLS_CONV_NEVER:
 * at once), tile 0's load being rt's wlead; out, when the last tile's load
 * ends and the last two passes' last ops issued (+ 1; pend_prev
 * HLS_CONV_NEVER with one pass): a bank is free LAT cycles after its pass. */
typedef struct {
    int64_t wfree1;    /* in: tile 1's bank free from this cycle */
    int64_t wend;      /* out: the cycle after the last tile's last weight beat */
    int64_t pend_prev; /* out: the second-last pass's end (HLS_CONV_NEVER: one pass) */
    int64_t pend_last; /* out: the last pass's end */
} HlsConvLoads;

/* kiln_conv's cycles of a frame as its descriptor's cycles() (no bands),
 * with tile 1's bank free from ld->wfree1 and ld's outputs filled (ld may
 * be NULL); with n > 0 and PP > 1 the last *m <= n output beats' cycles
 * into t as hls_conv_out_tail.  -1 on a bad shape. */
int64_t hls_conv_frame(const int64_t *hw, const int64_t *rt, HlsConvLoads *ld, int64_t n,
                       int64_t *t, int64_t *m);

/* One layer of kiln_tsconv's descriptor table (kiln_tsconv.v's header). */
typedef struct {
    int64_t h, w, cin, cout, k, stride, pad; /* input map and conv shape */
    int64_t tog;      /* output groups per weight tile (0 or more than OCG: one tile) */
    int qlo, qhi;     /* the layer's activation clamp, int8 */
    uint64_t xa;      /* DDR byte address of the input map ([h][w][ICG*PE] int8) */
    uint64_t wa;      /* of the weight stream (kiln_conv order, hls_conv_group_wbeats) */
    uint64_t ya;      /* of the output map ([hout][wout][OCG*PE]) */
    int wch;          /* weight channels (kiln_tsconv WCH; 0 counts as 1): with 2 the
                       * stream is two halves, hls_tsconv_wsplit's layout */
} HlsTsLayer;

/* What a layer of kiln_tsconv's table leaves the next layer of its frame,
 * which the engine prefetches (its descriptor and its first weight tiles
 * while the layer runs), cycles from the next layer's first input beat; or
 * (go > 0) what the idle engine prefetched for a run's first layer
 * (hls_tsconv_idle). */
typedef struct {
    int64_t wstart; /* its first weight beat may enter kiln_conv */
    int64_t wfree0; /* its tile 0's bank is free (HLS_CONV_NEVER: before any) */
    int64_t wfree1; /* its tile 1's bank is free (WBANKS 2) */
    int64_t go;     /* a run's first layer: its sequencer's start, cycles after the run's */
} HlsTsCarry;

/* A run's first layer whose descriptor kiln_tsconv prefetched after the run
 * before it on the engine ended (the run starts at the descriptor after
 * that run's last, the table's first after its last): gap cycles from the
 * cycle that run's done was seen to this run's start pulse, lat the
 * memory's latency.  gap > HLS_TS_PF_IDLE: *pre (for hls_tsconv_layer with
 * rt first 1) and 1; else (started before the idle engine began the
 * prefetch: nothing in flight): 0, the layer is timed as pre NULL says. */
int hls_tsconv_idle(const int64_t *hw, int64_t lat, int64_t gap, HlsTsCarry *pre);

/* The cycles a run of kiln_tsconv takes more when it starts elsewhere than
 * the idle engine guessed and the prefetch has settled (its descriptor in,
 * its weight stream held by full banks, no burst in flight): S_DROP holds
 * the weight channel's AR, finds none in flight and resets it. */
#define HLS_TS_DROP 3

/* kiln_tsconv's PF_IDLE: the idle cycles after a run's done before the
 * run-end prefetch starts (tb_tsconv checks the two agree on every run). */
#define HLS_TS_PF_IDLE 256

/* One layer's cycles on kiln_tsconv (hw, rt: its descriptor's vectors), as
 * its cycles() counts them: pre NULL, a frame's first layer (its descriptor
 * fetched, its weights read with its input); rt first 1 and pre from
 * hls_tsconv_idle, a run's first layer prefetched by the idle engine; else
 * the layer after one whose hls_tsconv_layer gave *pre.  next non-NULL: a layer of the frame follows
 * (the wait for its descriptor and weight start counts here) and gets
 * *next; NULL: the frame's last layer.  -1 on a bad shape. */
int64_t hls_tsconv_layer(const int64_t *hw, const int64_t *rt, const HlsTsCarry *pre,
                         HlsTsCarry *next);

/* A layer's two floors on kiln_tsconv (hw, rt: its descriptor's vectors),
 * the terms its cycles() are built on: *mac the array's issue cycles
 * (pixel groups of PP, across row ends with SPAN, x K*K*ICG x OCG, every
 * tile's pass) and *wport its weight channel's (every tile's weight beats,
 * hls_conv_group_wbeats x OCG, at ceil(PE_IC / (WCH * DATA_W/8)) cycles a
 * beat: each of its WCH masters brings DATA_W bits a cycle).  A layer takes at least the
 * larger, less what the prefetch loads while the layer before it runs.
 * -1 on a bad shape, else 0. */
int hls_tsconv_floors(const int64_t *hw, const int64_t *rt, int64_t *mac, int64_t *wport);

/* The sizes a layer of HlsTsLayer takes in DDR, bytes padded to the bus. */
typedef struct {
    int64_t xbytes; /* input map */
    int64_t wbytes; /* weight stream, all tiles */
    int64_t ybytes; /* output map */
} HlsTsBytes;

/* The 32 words of l's 128-byte descriptor for an engine of PE_IC = PE_OC =
 * pe lanes and a bus of `bus` bytes (its DATA_W/8), and its DDR sizes into
 * *b (may be NULL).  The one packing of the descriptor: the compiler's image
 * and the benches use it.  Returns 0, or -1 when l does not fit a
 * descriptor (a field past its bits, tiles whose channel slice is not whole
 * bus beats or that do not divide OCG, pe not a divisor of bus).  With
 * l->wch 2 the weight bytes (word 13, b->wbytes) are two halves of whole
 * bus beats, pe/2 lanes each (hls_tsconv_wsplit). */
int hls_tsconv_desc(const HlsTsLayer *l, int64_t pe, int64_t bus, uint32_t d[32], HlsTsBytes *b);

/* The weight bytes of a layer for kiln_tsconv with WCH = wch (1 or 2):
 * wbeats stream beats of pe bytes (kiln_conv's order) in `stream`, laid out
 * into `out` (wbytes bytes, hls_tsconv_desc's, zero-filled past the
 * beats).  wch 1: as they are.  wch 2: two halves of wbytes/2 bytes, half j
 * holding bytes [j*pe/2, (j+1)*pe/2) of every beat in beat order (kiln_tsconv
 * reads half 0 on master 0 and half 1 on master 3).  -1 when the sizes do
 * not agree (wbytes/wch less than wbeats*pe/wch, pe odd with wch 2). */
int hls_tsconv_wsplit(const uint8_t *stream, int64_t wbeats, int64_t pe, int wch, uint8_t *out,
                      int64_t wbytes);

/* The conv-family descriptors (hls/desc_conv.c), NULL-terminated. */
extern const HlsEngineDesc *const hls_conv_descs[];
/* The stream-family descriptors (hls/desc_stream.c), NULL-terminated. */
extern const HlsEngineDesc *const hls_stream_descs[];
/* The time-shared conv engine (hls/desc_tsconv.c), NULL-terminated. */
extern const HlsEngineDesc *const hls_tsconv_descs[];

#endif
