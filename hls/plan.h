/*
 * hls plan: partitioning (FPGA or CPU per node), the cycle, resource and DDR
 * models of a whole dataflow built from the engine descriptors of hls.h, the
 * design-space exploration that picks each engine's parallelism, pipeline
 * depth and weight placement for a board, and plan.json (write, replay).
 *
 * Models (docs/plan.md has the formulas):
 *   interval  II = max(max over stages of occupancy(stage), DDR cycles per frame),
 *               occupancy = paced cycles (cycles at the pace the inputs arrive)
 *               + the wait, at each frame's start, for the
 *               first rows from a producer the stage held back, + the stall
 *               a windowed consumer's frame barrier puts on the stage when it
 *               heads the stream chain feeding that consumer (hls/timing.c)
 *   fps       = clock / II
 *   latency   = sum over segments of (max over its stages of t_done + the
 *               DDR writer's last response), t_done from the timing model
 *               of hls/timing.c (docs/plan.md)
 *
 * Library code: returns errors in a GirError, never prints or exits.
 */
#ifndef KILN_HLS_PLAN_H
#define KILN_HLS_PLAN_H

#include <stdint.h>
#include <stdio.h>

#include "graphir/graphir.h"
#include "hls/board.h"
#include "hls/hls.h"

#define HLS_PP_MAX 8 /* most pixels per op kiln_conv takes (its reorder buffer) */
#define HLS_PLAN_MAX_PARAMS 32 /* more Verilog or run-time parameters than any engine has */

/* The engine a stage runs on. */
typedef enum {
    HLS_ST_CONV,     /* kiln_conv */
    HLS_ST_DWCONV,   /* kiln_dwconv */
    HLS_ST_MAXPOOL,  /* kiln_maxpool */
    HLS_ST_UPSAMPLE, /* kiln_upsample */
    HLS_ST_CONCAT,   /* kiln_concat */
    HLS_ST_ADD,      /* kiln_add */
    HLS_ST_REQUANT,  /* kiln_requant (a standalone Requantize) */
    HLS_ST_LUT,      /* kiln_lut (a LutI8 table) */
} HlsStageKind;

/* Where a conv layer's weights live. */
typedef enum {
    HLS_W_NONE, /* the engine has no weights */
    HLS_W_BRAM, /* on chip in block RAM, loaded once */
    HLS_W_URAM, /* on chip in UltraRAM, loaded once */
    HLS_W_DDR,  /* streamed from DDR every frame in tiles, two banks */
} HlsWeightHome;

/* One engine instance of the dataflow: a layer of the model. */
typedef struct {
    const char *node;   /* graph node name (the layer) */
    const char *op;     /* its op name */
    int node_id;        /* node id in the planned graph */
    HlsStageKind kind;  /* which engine */
    const HlsEngineDesc *desc; /* its descriptor */
    int segment;        /* FPGA segment it belongs to */
    int in[2];          /* producing stage of each data input; -1: from DDR */
    int in_ddr[2];      /* input k comes from a stage of the same segment through DDR: a
                         * weight-tiled producer or consumer, or a skip tensor too large
                         * for a FIFO; read once the producer wrote the frame */
    int nin;            /* data inputs (1, or 2 for concat/add) */
    int64_t h, w;       /* input map */
    int64_t cin, cout;  /* input and output channels (concat: cin = first input's) */
    int64_t cin2;       /* concat: second input's channels */
    int64_t k, stride, pad; /* kernel, stride, padding (pool: bottom/right pad) */
    int64_t oh, ow;     /* output map */
    int64_t macs;       /* multiply-accumulates per frame */
    int64_t weight_bytes; /* int8 weights + int32 bias + requant words */
    int pe_oc, pe_ic, pp, pack; /* conv array: output x input lanes, pixels, DSP packing */
    int rqs;                    /* results per requant lane (kiln_conv RQS) */
    int span;                   /* pixel groups run across row ends (kiln_conv SPAN) */
    int clk2x;                  /* conv: the plan has a clk2x domain for MAC arrays */
    int dsp2x;                  /* conv: its multipliers on clk2x (kiln_conv DSP2X, with
                                 * the plan's clk2x): 1 lane pairs (an even PE_IC), 2
                                 * pixel pairs (an even PP), the one of fewer LUT */
    int dsp2x_pin;              /* conv: 0 the planner picks dsp2x, 1 or 2 replayed */
    int lanes;          /* stream engines and dwconv: lanes per beat */
    int64_t lut_chans;  /* kiln_lut: the stream's channels, a table each (CHANS); 0: one
                         * table for every byte */
    int pipe, rq_pipe;  /* register levels: adder tree, requant */
    int rq_dsp;         /* conv, dwconv, requant: DSP48E2 a requant lane (kiln_requant
                         * RQ_DSP): 1 (its high product in LUTs, hls_rq_dsp_choose),
                         * else two */
    int qlo, qhi;       /* conv, dwconv: the fused activation's int8 output clamp (act_min,
                         * act_max of the int8 node; -128, 127 without one) */
    int64_t ipace;      /* conv: cycles per input beat when input 0 is read from DDR in
                         * more lanes than the bus carries a cycle (hls_ddr_pace), else 1 */
    HlsWeightHome whome; /* weight placement */
    int64_t tog;        /* output groups per weight tile (0: whole layer) */
    int64_t band;       /* output rows per band of a weight-tiled conv (kiln_conv BANDMAX,
                         * cfg_band: every tile over a band, then the next band); 0: none */
    int64_t lbrows;     /* conv in bands: line-buffer rows (kiln_conv LBROWS), room for the
                         * rows of the bands after while a band computes; 0: a band's own,
                         * (band - 1) x stride + K (hls_band_lbrows) */
    int pinned;         /* parallelism fixed by the user (--pin) */
    int out_ddr;        /* output leaves the segment (CPU consumer or graph output) */
    int split;          /* 1: it heads a dataflow segment split off the one before it
                         * (hls_fold_split), the streams into it from there through DDR */
    int lburam;         /* conv, dwconv: the line buffers in URAM288 (LBURAM), set by the
                         * placement where block RAM is short (hls_place_weights) */
    int64_t npass;      /* passes over the input map (weight tiles) */
    int64_t hw[HLS_PLAN_MAX_PARAMS]; /* Verilog parameters, in desc->hw_params order */
    int64_t rt[HLS_PLAN_MAX_PARAMS]; /* run-time parameters, in desc->rt_params order */
    int64_t cycles;     /* cycles per frame (descriptor, exact) */
    int64_t lat;        /* descriptor latency */
    int64_t paced;      /* cycles per frame at the pace its inputs arrive (hls/timing.c): a
                         * concat's inputs one after the other each pixel, each at its
                         * producer's or DDR reader's pace; >= cycles */
    int64_t fill;       /* first input to first output in the pipeline */
    int64_t t_first;    /* first output after the frame's first input beat */
    int64_t t_done;     /* last output beat of a warm frame, cycles from the run's start
                         * (hls/timing.c; what the PERF registers measure) */
    int64_t occupancy;  /* cycles per frame in the pipeline: cycles + the wait, at a frame's
                         * start, for the first rows from producers it held back */
    double util;        /* MACs / (cycles x MACs the array can do per cycle) */
    HlsRes res;         /* resources, descriptor + planner memory choices */
    int64_t ddr_bytes;  /* DDR traffic per frame this stage causes (weights, spills) */
    int wswap;          /* after a weight swap (hls/plan_latency.c reclaim_weights): 1 + the conv whose
                         * weights went to DDR to take these on chip, or -(1 + the conv
                         * whose weights came on chip in their place); 0: none */
    int64_t wswap_lat[2]; /* the plan's latency before and after that swap */
    int64_t wswap_tog;  /* wswap > 0: the output groups of its weight tiles before the swap */
    char why[448];      /* reasons for the choices */
} HlsStage;

/* A node the FPGA engines do not take. */
typedef struct {
    const char *node; /* node name */
    const char *op;   /* op name */
    char why[200];    /* one line: why it runs on the CPU */
} HlsCpuNode;

/* One move of layers to the CPU, made because the smallest design broke a
 * budget (hls/plan_fit.c). */
typedef struct {
    int first, count;  /* its layers: HlsMoveSet.nodes[first .. first + count) */
    char over[96];     /* the budget the smallest design broke before it ("LUT 75% (a > b)") */
    char why[480];     /* the report line: the layers, their MACs, that budget, what it freed */
} HlsMove;

/* The layers moved to the CPU so that the smallest design fits. */
typedef struct {
    HlsMove *moves;    /* the moves, in the order they were made */
    int nmove;         /* count */
    int *nodes;        /* graph node ids of the moved layers, move by move */
    const char **names; /* their names (the graph's strings), the same order */
    int nnode;         /* count */
    int64_t macs_all;  /* FPGA MACs a frame of the smallest design before the moves */
} HlsMoveSet;

/* A FIFO on a join's input (YOLO route skip path), sized so the join's
 * producers never block each other. */
typedef struct {
    int from, to;     /* producer and join stages */
    int64_t depth;    /* entries (beats) */
    int64_t width;    /* bits per beat */
    HlsRes res;       /* resources (kiln_fifo descriptor) */
    int ddr;          /* 1: the tensor waits in DDR instead (depth is what it would need) */
    char why[240];    /* the wait that sets the depth */
} HlsFifo;

/* A hand-set parallelism: --pin NODE=PE_OCxPE_ICxPP. */
typedef struct {
    char node[128]; /* layer name */
    int pe_oc;      /* output lanes */
    int pe_ic;      /* input lanes */
    int pp;         /* pixel parallelism */
} HlsPin;

/* HlsPlanOptions.clk2x. */
enum {
    HLS_CLK2X_AUTO, /* both searches where the FMAX allows clk2x; the plan with more
                     * frames/s, then the shorter latency, the fabric clock's on a tie
                     * (the default) */
    HLS_CLK2X_OFF,  /* every DSP on the fabric clock */
    HLS_CLK2X_ON    /* a clk2x domain for the conv MAC arrays where the FMAX allows it */
};

/* One conv layer folded onto the time-shared engine (kiln_tsconv). */
typedef struct {
    const char *node;   /* graph node name */
    int64_t h, w, cin, cout, k, stride, pad; /* shape */
    int64_t oh, ow;     /* output map */
    int qlo, qhi;       /* activation clamp (a descriptor field) */
    int64_t tog;        /* output groups per weight tile (WDEPTH bounds it) */
    int64_t macs;       /* multiply-accumulates per frame */
    int64_t cycles;     /* its share of the engine's frame (descriptor; DDR bandwidth) */
    int64_t ddr_bytes;  /* descriptor, weights once, input once per tile, output */
    int64_t mac_cycles; /* the array's issue cycles (hls_tsconv_floors) */
    int64_t wport_cycles; /* its weight channel's cycles (hls_tsconv_floors) */
    int phase;          /* its place in the frame (odd: the engine's parts, hls_fold_apply) */
    int part;           /* the engine part that runs it */
    int cut;            /* 1: it starts a part though the layer before it is of its phase
                         * (a point a gate may hold the next frame at, hls_fold_cut) */
} HlsFoldLayer;

/* One part of the engine's frame: a run of folded layers that goes between
 * two dataflow segments, or between such a run's cut and its next cut or
 * end (HlsFoldLayer.cut), a contiguous range of the descriptor table. */
typedef struct {
    int seg;            /* the SEGMENT value that runs it (nsegment + its index) */
    int first, count;   /* its layers (descriptors) [first, first + count) */
    int64_t cycles;     /* its layers' cycles, the first with a start's fill */
} HlsFoldPart;

/* The time-shared conv engine of a plan (--fold; docs/plan.md). */
typedef struct {
    int n;               /* folded layers, in table order (0: no shared engine) */
    HlsFoldLayer *layers; /* them: each part's range, the parts in frame order */
    int npart;           /* engine parts (segments nsegment .. nsegment + npart - 1) */
    HlsFoldPart *parts;  /* them, in frame order */
    int *order;          /* a frame's SEGMENT values in run order (nsegment + npart):
                          * dataflow segments and engine parts, a topological order */
    int pe;              /* PE_IC = PE_OC of its array */
    int pp;              /* output pixels an op shares a weight word with (PP) */
    int mem;             /* the HLS_FOLD_* bits it was sized with (hls_fold_cut sizes again) */
    int dsp2x;           /* kiln_conv DSP2X of its array: 0, or its multipliers on the
                          * plan's clk2x, a DSP48E2 taking two input lanes (1) or two
                          * pixels (2, PP even) a fabric cycle */
    int rq_dsp;          /* DSP48E2 a requant lane of its array (kiln_requant RQ_DSP): 1,
                          * else two */
    int64_t hw[HLS_PLAN_MAX_PARAMS]; /* kiln_tsconv parameters, in its hw_params order */
    int64_t cycles;      /* a frame's folded layers, one after the other (the parts summed) */
    int64_t ddr_bytes;   /* its DDR traffic per frame */
    int64_t macs;        /* its MACs per frame */
    HlsRes res;          /* its resources (descriptor) */
    int64_t dataflow;    /* the dataflow's segments one after the other: the sum of
                            each segment's interval (its slowest stage or its DDR) */
    int bound;           /* 1: its frame is longer than the dataflow's part */
    int64_t *runs;       /* per entry of order: its one-frame run (hls_segment_latency),
                          * the durations of the steps (host-runtime/kiln_sched.h) */
    int64_t sequential;  /* a frame's runs one after the other (one frame in flight) */
    int flight;          /* frames in flight (1 .. KILN_SCHED_FLIGHT): the fewest with the
                          * shortest interval */
    int steps;           /* 1: in steps (both units idle before either takes a run) */
    int gate;            /* > 0: a frame enters once the one before it has ended entry
                          * gate - 1 of order (kiln_sched.h); 0: as soon as unit 0 takes it */
    int64_t tight;       /* the shortest interval of the ways hls_fold_finish timed whose
                          * latency is at most the bound or sequential, the larger */
    char why[400];       /* how the layers and the size were chosen */
} HlsFold;

/* Planner options; zeroed = defaults. */
typedef struct {
    double mhz;         /* target clock; 0: the board's default */
    const HlsPin *pins; /* hand-set parallelism */
    int npins;          /* count of pins */
    int pp_max;         /* largest PP the search may take (1..HLS_PP_MAX); 0: HLS_PP_MAX */
    double max_latency_ms; /* latency bound (--max-latency-ms); 0: none.  The plan with the
                            * shortest interval whose latency is within it */
    int interval_first; /* --interval-first: the search keeps the plan of the shortest
                         * interval whatever its latency (else one of an interval at most
                         * 10% longer may be kept for its latency, hls/plan_search.c) */
    int clk2x;          /* HLS_CLK2X_*: conv MAC arrays at twice the clock where the board's
                         * DSP48E2 FMAX allows it (hls_clk2x_fits); 0: auto */
    const char *fold;   /* --fold: NULL or "none": no shared engine; "auto": the planner
                         * tries the convs of the smallest maps, nested sets growing
                         * upward, and folds the fastest set when that is faster;
                         * "A,B,...": these conv layers run on one kiln_tsconv */
    int no_cpu_fallback; /* --cpu-fallback off: refuse a model whose smallest design breaks
                          * a budget (else layers move to the CPU until it fits,
                          * hls/plan_fit.c) */
    int rq_dsp;         /* HLS_RQ_DSP_*: DSP48E2 a requant lane (--rq-dsp) */
    int eff_first;      /* set by hls_plan_build for --fold auto without max_latency_ms:
                         * the DSP trim may lengthen the latency, and of the plans within
                         * 1% of the fastest's frames/s the one of the highest DSP
                         * efficiency is taken (docs/plan.md "Without a latency bound") */
} HlsPlanOptions;

/* --rq-dsp: the requant lanes' DSP48E2 (kiln_requant RQ_DSP, hls/plan_rqdsp.c). */
enum {
    HLS_RQ_DSP_DEFAULT, /* the search chooses per engine; a replay keeps its plan's */
    HLS_RQ_DSP_AUTO,    /* chosen per engine, a replayed plan's too */
    HLS_RQ_DSP_TWO,     /* two on every engine */
};

/* A whole plan: per-stage choices and the figures of the models. */
typedef struct {
    const char *model;   /* graph name */
    HlsBoard board;      /* the board planned for */
    double mhz;          /* target clock */
    int clk2x;           /* 1: conv MAC arrays on a clk2x domain at 2 x mhz (kiln_conv DSP2X) */
    double dsp_mhz;      /* the MAC arrays' DSP clock: mhz, or 2 x mhz with clk2x */
    char clk2x_why[200]; /* the clk2x choice and its reason ("" when not asked) */
    HlsStage *stages;    /* FPGA stages, topological */
    int nstage;          /* count */
    HlsCpuNode *cpu;     /* nodes on the CPU */
    int ncpu;            /* count */
    HlsFifo *fifos;      /* join FIFOs */
    int nfifo;           /* count */
    int nsegment;        /* FPGA segments */
    HlsRes total;        /* all engines + FIFOs + infra */
    HlsRes infra;        /* DMA channels, forks, lane converters, register file (hls/infra.c) */
    HlsRes budget;       /* headroom budgets: 90% DSP/BRAM/URAM/FF, 75% LUT */
    int64_t interval;    /* II: cycles per frame of the pipeline (with several segments or
                          * the shared engine: their intervals one after the other) */
    int64_t seg_cycles;  /* the segments' intervals summed (hls_segment_interval), 0 with
                          * one segment and no shared engine */
    int64_t compute_ii;  /* slowest stage's occupancy */
    int slowest;         /* its index */
    int64_t ddr_bytes;   /* DDR traffic per frame (inputs, outputs, weights, spills) */
    int64_t ddr_cycles;  /* cycles that traffic takes at the board's bandwidth */
    int ddr_bound;       /* 1: DDR bandwidth sets II */
    int64_t latency;     /* cycles from start to the last output in DDR, segments in turn */
    int64_t macs;        /* FPGA MACs per frame */
    int64_t weight_bytes_onchip; /* weights kept on chip */
    int64_t weight_bytes_ddr;    /* weights streamed per frame */
    double fps;          /* clock / II */
    double latency_ms;   /* latency at the clock */
    double dsp_eff;      /* macs * fps / (DSP used * 2 * DSP clock) */
    int dse_steps;       /* greedy steps taken */
    int pp_max;          /* largest PP the search takes */
    int interval_first;  /* HlsPlanOptions.interval_first */
    int lb_uram;         /* 1: the placement may move line buffers to URAM (set where the
                          * smallest design breaks a budget without it, hls/plan.c) */
    int fold_gates;      /* 1: hls_fold_finish times gates too (after the search: the
                          * latency steps, the final figures, a replay) */
    int64_t ii_cap;      /* the latency steps keep the interval within this (0: the interval
                          * the search found); set while a latency bound is sought */
    int64_t lat_goal;    /* latency bound in cycles (0: none): while the latency is above it,
                          * every shortening pays (hls/plan_latency.c) */
    double max_latency_ms; /* the user's latency bound (0: none), in plan.json and report.md */
    struct HlsCycMemo *memo; /* cycles() by engine and parameters (the search asks again and again) */
    struct HlsSchedMemo *smemo; /* kiln_sched_steady by runs and way, the engine's parts'
                                 * cycles by gap (hls_fold_finish) */
    HlsFold fold;        /* the time-shared conv engine (fold.n == 0: none) */
    char limit[320];     /* what stopped the exploration */
    int replayed;        /* 1: from --plan, not explored */
    char lut_cpu[200];   /* non-empty: the partition puts every LutI8 with a table per channel
                          * on the CPU with this reason (the smallest design with them on
                          * kiln_lut did not fit the board) */
    HlsMoveSet fit;      /* layers moved to the CPU so the smallest design fits (nmove 0:
                          * none; the partition puts them on the CPU) */
} HlsPlan;

/* Partition graph g (shapes inferred; fp32 fused or int8) for board b,
 * explore the design space and evaluate the result.  NULL + e when the model
 * has no FPGA layer, a pin is bad, or even the smallest design exceeds a
 * budget (the message names the budget) and moving layers to the CPU does
 * not make it fit, or o->no_cpu_fallback forbids that (hls/plan_fit.c). */
HlsPlan *hls_plan_build(const GirGraph *g, const HlsBoard *b, const HlsPlanOptions *o,
                        GirError *e);
/* Re-evaluate plan.json text (path names it in errors) on g and b: the
 * choices are taken as written; errors name the JSON path ($.stages[3].pe_oc)
 * or the mismatch with the model.  mhz > 0 overrides the file's clock. */
HlsPlan *hls_plan_replay(const GirGraph *g, const HlsBoard *b, const char *text,
                         const char *path, double mhz, GirError *e);
void hls_plan_free(HlsPlan *p);
/* A plan's requant lanes as mode (HLS_RQ_DSP_AUTO or _TWO) says, the plan
 * evaluated again: 0, or -1 + e. */
int hls_plan_rq_dsp(HlsPlan *p, int mode, GirError *e);

/* Can board b run DSP48E2 at twice a PL clock of mhz (its data-sheet FMAX
 * for the speed grade, dsp-max-mhz)?  1 or 0; why gets one line either way. */
int hls_clk2x_fits(const HlsBoard *b, double mhz, char *why, size_t n);
/* Set plan p's clk2x domain on (1) or off (0) for every conv stage. */
void hls_plan_set_clk2x(HlsPlan *p, int on);

/* Weight-tile size (output groups) the RTL takes nearest to want for a conv
 * of ocg output groups of pe_oc lanes: a divisor of ocg with pe_oc x tile
 * even (the tile writer's bus is 16 bits or more). */
int64_t hls_tile_fit(int64_t ocg, int pe_oc, int64_t want);

/* Is stage s a conv whose weights stream from DDR in several tiles, one
 * pass over its input per tile (not in bands: a banded conv streams its
 * input once and its output in raster order)? */
int hls_tiled(const HlsStage *s);
/* Can conv s run in bands of `band` output rows (kiln_conv cfg_band): its
 * weights stream from DDR in several tiles and band is 1..its output rows? */
int hls_band_ok(const HlsStage *s, int64_t band);
/* Bands of a banded conv per frame (its weight set is read once a band);
 * 1 for every other stage. */
int64_t hls_nbands(const HlsStage *s);
/* Line-buffer rows of conv s in bands (kiln_conv LBROWS): s->lbrows, at
 * least a band's input rows; 0 when not in bands. */
int64_t hls_band_lbrows(const HlsStage *s);
/* Can conv s in bands take a line buffer of `rows` rows: from a band's
 * input rows to its padded input map's? */
int hls_lbrows_ok(const HlsStage *s, int64_t rows);

/* AXI data bits of a DMA channel whose stream side has `lanes` int8 lanes:
 * the stream's own width (16 bits at least), at most 128 (the widest PS-PL
 * port of Zynq UltraScale+), so no lane converter sits beside the master
 * unless the stream is wider than the port. */
int hls_chan_data_w(int64_t lanes);
/* CNT_W of a DMA channel (kiln_rd_chan / kiln_wr_chan: write 1) moving
 * `bytes` per sub-run, `subs` sub-runs a frame, on a bus of dw bits with
 * `lanes` stream lanes: the bits of its largest count (DDR or stream beats
 * of a sub-run, the sub-runs), at least 12 for a reader and 20 for a writer
 * (yosys 0.23 maps kiln_axi_wr's burst-length logic with counters of 12 to
 * 18 bits to wide multiplexers: about 250 LUT more than at 19 to 32,
 * measured with bench/synth/inst_synth.py). */
int hls_chan_cnt_w(int write, int64_t bytes, int64_t subs, int dw, int64_t lanes);
/* Cycles per stream beat a DMA read channel delivers at most: 1, or
 * 8 x lanes / 128 for streams wider than the bus. */
int64_t hls_ddr_pace(int64_t lanes);
/* int8 lanes a beat of a stage's input and output streams: a conv's
 * PE_IC and PE_OC, the others' LANES. */
int64_t hls_in_lanes(const HlsStage *s);
int64_t hls_out_lanes(const HlsStage *s);
/* The fewest input lanes (PE_IC) of a conv: kiln_conv's weight stream is
 * as wide as its input and carries each output channel's bias and
 * multipliers as 32-bit parameter beats, one to a beat, so 8 x PE_IC >= 32.
 * (kiln_dwconv takes a word in 4 / LANES beats below 4 lanes.) */
#define HLS_WLANES_MIN 4

/* Does stage i's output leave its segment (graph output, CPU node or a
 * stage of another segment), so a DMA channel writes it to DDR? */
int hls_leaves_segment(const HlsPlan *p, int i);

/* plan.json text (malloc'd, caller frees). */
char *hls_plan_json(const HlsPlan *p);
/* report.md: per-layer table, totals, fps, latency, DSP efficiency,
 * resources vs board, CPU nodes, DDR traffic.  compile_ms < 0: not shown. */
void hls_plan_report(const HlsPlan *p, FILE *f, double compile_ms);
/* One sentence on p's moves to the CPU (p->fit, hls/plan_fit.c): the
 * layers moved and the share of the MACs the FPGA keeps; no newline. */
void hls_fit_summary(const HlsPlan *p, FILE *f);
/* The dataflow as Graphviz dot. */
void hls_plan_dot(const HlsPlan *p, FILE *f);
/* Parse "PE_OCxPE_ICxPP" after NODE= into a pin; 0 or -1 + e. */
int hls_pin_parse(const char *arg, HlsPin *pin, GirError *e);

#endif
