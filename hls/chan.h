/*
 * hls/chan.h: the DMA channels of a plan's design, derived once.  The
 * planner costs them (hls/infra.c) and pipeline/ instantiates them, so both
 * read the one list hls_plan_channels builds: which stage inputs, weight
 * sets and outputs get an AXI4 master, their bus width, bursts, byte counts,
 * names, CFG registers and weight-image offsets.
 *
 * Channels are numbered segment by segment: the segment's stage inputs read
 * from DDR (in<n>), its weight sets (w<stage>), its outputs written to DDR
 * (out<n>).  An output gets a writer when it leaves its segment or a stage
 * of the segment reads it through DDR; each such read is a reader on the
 * writer's buffer (src), gated by the frames the writer finished.
 */
#ifndef KILN_HLS_CHAN_H
#define KILN_HLS_CHAN_H

#include <stdint.h>

#include "hls/plan.h"

/* What a DMA channel carries. */
typedef enum {
    HLS_CH_IN,  /* a stage input read from DDR */
    HLS_CH_W,   /* a stage's weight set read from DDR */
    HLS_CH_OUT, /* a stage output written to DDR */
} HlsChanKind;

/* One AXI4 master of the design. */
typedef struct {
    HlsChanKind kind;   /* in, w or out */
    char name[24];      /* in<n>, w<i>, out<n> */
    int seg;            /* its segment */
    int stage;          /* consuming (in, w) or producing (out) stage */
    int port;           /* stage input index (in) */
    int64_t lanes;      /* int8 lanes of the engine-side stream */
    int data_w;         /* AXI data bits */
    int burst;          /* burst beats (BURST_MAX) */
    int cnt_w;          /* counter bits (CNT_W, hls_chan_cnt_w) */
    int64_t h, w, c;    /* tensor shape (in, out) */
    int64_t beats;      /* stream beats per sub-run (a frame, a tile's pass) or weight set */
    int64_t bytes;      /* DDR bytes per sub-run or weight set (multiple of data_w/8) */
    int64_t frame;      /* in, out: DDR bytes per frame (the frame-to-frame stride) */
    int64_t subs;       /* sub-runs per frame: passes of a weight-tiled conv (1: none) */
    int64_t sub_stride; /* bytes between sub-runs: 0 (input re-read) or a tile's channels */
    int64_t row_beats;  /* out of a tiled conv: bus beats of a tile per pixel (0: contiguous) */
    int64_t row_stride; /* its pixel-to-pixel bytes */
    int tiled;          /* out: a weight-tiled conv's output, written tile by tile */
    int scratch;        /* out: a tensor only stages of the segment read back (not a result) */
    int src;            /* in: the writer channel whose buffer it reads inside the segment
                         * (its base registers, frames gated by its finished count), or -1 */
    int prod;           /* in from inside the segment: the producing stage, else -1 */
    int resident;       /* w: loaded once (CTRL.bit1), else read every frame */
    int64_t offset;     /* w: byte offset in weights.bin */
    int cfg;            /* CFG index of <name>_BASE_LO (HI follows); a src reader: the writer's */
    int ts;             /* 1: a master of the time-shared engine (kiln_tsconv; stage -1):
                         * ts0 descriptors + weights (w, its BASE registers: the table's
                         * address), ts1 input maps (in), ts2 output maps (out), with
                         * WCH 2 ts3 the weights' second half (w, ts0's buffer) */
} HlsChan;

/* The channel list of a plan and its indexes. */
typedef struct {
    HlsChan *ch;    /* channels: per segment, inputs, weights, outputs */
    int nch;        /* count */
    int *outch;     /* per stage: its output channel, or -1 */
    int *inch;      /* per stage and input (2*i+k): input channel, or -1 */
    int *wch;       /* per stage: its weight channel, or -1 */
    int nin, nout;  /* in<n> and out<n> counts */
    int ncfg;       /* CFG registers: SEGMENT, FRAMES, the channels' bases */
    int rf_perf;    /* byte offset of PERF word 0 (hls/hw.h: past the CFG block) */
    int rf_addr_w;  /* AXI-Lite address bits: the map to the last PERF word (may pass
                     * HLS_HW_RF_ADDR_W_MAX: rtl_check refuses such a design) */
    int ts;         /* index of ts0, the shared engine's first master (ts1, ts2 follow); -1 */
    int nsel;       /* values of SEGMENT a start takes: the segments, then the shared
                     * engine's parts */
    int64_t wbytes; /* weights.bin size: every weight set at its aligned offset */
} HlsChans;

/* The channels of p's design into *c (free with hls_chans_free).  Needs the
 * stages' parallelism, segments, inputs and weight tiles and the FIFOs' ddr
 * flags, not the rest of the evaluation, so the planner can cost a design
 * before it places the weights. */
void hls_plan_channels(const HlsPlan *p, HlsChans *c);
/* Byte offset of folded layer i's weight stream from the start of the
 * shared engine's part of weights.bin (its descriptor table, 128 bytes a
 * layer, then each layer's stream, every part HLS_HW_W_ALIGN aligned);
 * i = p->fold.n: the part's size.  -1 when a layer does not pack. */
int64_t hls_fold_woffset(const HlsPlan *p, int i);
void hls_chans_free(HlsChans *c);

/* Is input k of stage i an edge through DDR inside its segment (a weight-
 * tiled conv at either end, or a skip tensor p's FIFOs send through DDR):
 * written by the producer's channel, read back once the frame is complete?
 * The planner stores it in each stage's in_ddr (hls/plan_eval.c). */
int hls_edge_ddr(const HlsPlan *p, int i, int k);
/* For an edge through DDR (input k of stage i): its channels *c, the
 * producer's output lanes *lp it is written in and the consumer's input
 * lanes *lc it is read in.  1 when both ends pad a pixel to the same bytes
 * (cdiv(c, lp) * lp == cdiv(c, lc) * lc), as no lane converter sits
 * between them. */
int hls_edge_ddr_pad(const HlsPlan *p, int i, int k, int64_t *c, int64_t *lp, int64_t *lc);

/* Weight-stream beats of conv or dwconv stage s (kiln_conv or kiln_dwconv
 * order, the whole layer). */
int64_t hls_weight_beats(const HlsStage *s);
/* Beats of one 32-bit parameter word (bias, multipliers, shift) in
 * kiln_dwconv's weight stream of `lanes` bytes a beat: 1 from 4 lanes up,
 * 4 / lanes below (rtl-templates/kiln_dwconv.v). */
int64_t hls_dw_word_beats(int64_t lanes);

#endif
