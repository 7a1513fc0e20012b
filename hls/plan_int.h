/*
 * Folder-private declarations shared by the planner's files: plan.c (entry
 * points), plan_eval.c (figures), plan_place.c (weights, FIFOs),
 * plan_search.c (the search), plan_latency.c (latency steps), timing.c,
 * infra.c, partition.c, plan_json.c, plan_report.c.
 */
#ifndef KILN_HLS_PLAN_INT_H
#define KILN_HLS_PLAN_INT_H

#include <stddef.h>

#include "hls/plan.h"

/* Fill p->stages (shapes, kinds, inputs, segments) and p->cpu from g.
 * 0, or -1 + e when no layer can run on the FPGA. */
int hls_partition(const GirGraph *g, HlsPlan *p, GirError *e);
/* The root of i in a union-find forest (parent[i] == i at a root), halving
 * the path on the way. */
int hls_find_root(int *parent, int i);

/* Text of a weight placement: "-", "bram", "uram", "ddr". */
const char *hls_whome_name(HlsWeightHome h);

/* A plan of g's partition for b at mhz (0: board default), stages with
 * their engines and the smallest parallelism, nothing evaluated yet;
 * lut_cpu non-NULL: the LutI8s with a table per channel go to the CPU with
 * that reason (the plan that did not fit with them on kiln_lut); fit
 * non-NULL: its layers go to the CPU (copied into p->fit). */
HlsPlan *hls_plan_new(const GirGraph *g, const HlsBoard *b, double mhz, const char *lut_cpu,
                      const HlsMoveSet *fit, GirError *e);

/* ---- hls/plan_fit.c: layers moved to the CPU until the smallest design fits ---- */

/* The smallest design of the model with the layers of fit on the CPU,
 * evaluated (weights placed); NULL + e when it cannot be made. */
typedef HlsPlan *(*HlsFitBuild)(void *ctx, const HlsMoveSet *fit, GirError *e);
/* p, the smallest design, breaks a budget (over says which): move layers
 * to the CPU, a group a step, rebuilding with build(ctx, ...) until one
 * fits.  Returns that plan (p freed; its fit holds the moves and their
 * report lines), or NULL when no move brings it within the budgets (p
 * untouched). */
HlsPlan *hls_plan_fit(HlsPlan *p, const char *over, HlsFitBuild build, void *ctx);
/* Copy a into *to (deep); free with hls_moves_free. */
void hls_moves_copy(HlsMoveSet *to, const HlsMoveSet *a);
void hls_moves_free(HlsMoveSet *m);
/* Evaluate p's choices as they stand (no exploration, no placement) and
 * write the stages' reasons.  0 or -1 + e. */
int hls_plan_reeval(HlsPlan *p, GirError *e);
/* The first budget p breaks, described into buf; NULL when it fits. */
const char *hls_plan_over_budget(const HlsPlan *p, char *buf, size_t n);

/* Bytes of a stage's reason for its array (the search's and the latency
 * steps' "grown to ..." lines, one per stage). */
#define HLS_GROW_LEN 160

static inline int hls_is_conv(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV;
}

/* Whether a stage's engine has kiln_requant lanes (kiln_conv, kiln_dwconv,
 * kiln_rq_stage: its RQ_DSP). */
static inline int hls_has_requant(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV || s->kind == HLS_ST_DWCONV || s->kind == HLS_ST_REQUANT;
}

/* Resources r += a, each kind in turn. */
static inline void hls_res_add(HlsRes *r, const HlsRes *a)
{
    r->dsp += a->dsp;
    r->bram36 += a->bram36;
    r->uram += a->uram;
    r->lut += a->lut;
    r->ff += a->ff;
}

/* "1.23 Mcycles" or "45.6 kcycles" into buf. */
void hls_mcycles(char *buf, size_t n, int64_t c);

/* ---- hls/plan_eval.c: the figures of stages and of the plan ---- */

/* The parameters of one kind (hw or rt) of an engine, filled by name. */
typedef struct {
    const HlsEngineDesc *d;   /* the engine */
    const char *const *names; /* its hw_params or rt_params */
    int64_t *arr;             /* the values, in names' order */
    int next;                 /* where the last name was found: names put in the
                               * descriptor's order take one comparison each */
} HlsParamSink;

/* Set parameter `name` of k's engine to v; a descriptor without it is the
 * compiler's own inconsistency (gir_die). */
void hls_param_put(HlsParamSink *k, const char *name, int64_t v);
/* Cycles, latency, resources and utilisation of stage s (its parameters
 * filled first); -1 when the descriptor rejects the shape. */
int hls_stage_eval(HlsPlan *p, HlsStage *s);
/* Block RAM (RAMB36E2) and URAM288 of conv s's weight memory when the
 * whole layer is on chip in that memory. */
double hls_weight_bram(HlsPlan *p, const HlsStage *s);
int64_t hls_weight_uram(HlsPlan *p, const HlsStage *s);

/* d->resources(hw) through plan p's memo (hw: HLS_PLAN_MAX_PARAMS values). */
HlsRes hls_engine_res(HlsPlan *p, const HlsEngineDesc *d, const int64_t *hw);
/* Cycles per beat of conv s's input 0: a DMA channel's pace when it comes
 * through DDR, else 1. */
int64_t hls_input_pace(const HlsPlan *p, const HlsStage *s);
/* Whole-plan figures from the stages' choices.  place: run the weight
 * placement first.  0, or -1 + e when a descriptor rejects a stage. */
int hls_plan_eval(HlsPlan *p, int place, GirError *e);
/* p evaluated (hls_plan_eval, place 0): 1 when it evaluates, is not
 * DDR-bound and keeps every budget, the test each step of the search
 * and of the fold's trials takes before it weighs a change; else 0. */
int hls_plan_fits(HlsPlan *p, GirError *e);
/* p->budget from the board: the share of each resource a plan may use. */
void hls_plan_budget(HlsPlan *p);
/* Resource r of x (r < 5: DSP, BRAM36, URAM, LUT, FF). */
double hls_res_at(const HlsRes *x, int r);
/* Sum over resources of the growth from a to b as a share of the budget. */
double hls_budget_share(const HlsRes *b, const HlsRes *a, const HlsRes *budget);

/* Where one engine's DSP cycles of an interval go (hls_dsp_use).  The
 * capacity of a DSP48E2 is 2 MACs a DSP-clock cycle (the plan's clk2x
 * doubles it for every DSP, as p->dsp_eff counts), so over the interval
 * dsp x 2 x (clk2x ? 2 : 1) x interval = macs + inbusy + idle + pack +
 * other, each in MACs. */
typedef struct {
    const char *node;   /* the stage, "time-shared engine", or "FIFOs, infrastructure" */
    double dsp;         /* its DSP48E2 */
    double mult;        /* of them the multipliers of its MAC array (0: no array) */
    int64_t peak;       /* MACs its array does a fabric cycle (PE_OC x PE_IC x PP) */
    int64_t busy;       /* fabric cycles a frame its array works (descriptor cycles) */
    double macs;        /* MACs a frame */
    double inbusy;      /* peak x busy - macs: lanes past the channels, edges, fill */
    double idle;        /* peak x (interval - busy): the array waiting for the interval */
    double pack;        /* (mult x 2 x clk - peak) x interval: multipliers taking fewer
                         * than 2 MACs a DSP cycle (PACK 1, fabric clock in a clk2x plan) */
    double other;       /* (dsp - mult) x 2 x clk x interval: requant lanes, Add, bank
                         * offsets, DMA */
} HlsDspUse;
/* One row per stage with DSPs or MACs, the shared engine, and the FIFOs and
 * infrastructure (u of room for p->nstage + 2); the count.  The rows' sums
 * give p->dsp_eff: sum(macs) / sum(dsp x 2 x clk x interval). */
int hls_dsp_use(const HlsPlan *p, HlsDspUse *u);

/* ---- hls/plan_place.c: weights and join FIFOs ---- */

/* Output groups per weight tile of conv s streaming from DDR. */
int64_t hls_ddr_tog(const HlsStage *s);
/* Every conv's weights on chip, moved to URAM or DDR while the BRAM budget
 * less `reserve` does not take them; the stages evaluated. */
void hls_place_weights(HlsPlan *p, double reserve);
/* p->fifos for the joins of evaluated stages with their first-output
 * times; adds the FIFOs' resources to p->total and what waits in DDR to
 * p->ddr_bytes.  Returns the FIFOs' block RAM. */
double hls_place_fifos(HlsPlan *p);

/* ---- hls/plan_search.c: the search ---- */

/* The register levels of stage s for the clock mhz. */
void hls_set_pipeline(HlsStage *s, double mhz);
/* Stage s at its smallest array. */
void hls_stage_init(HlsStage *s, double mhz);
/* Step k (0: PE_IC, 1: PE_OC, 2: PP, 3: lanes) of stage s one size up, PP
 * up to pp_max, desc gets "PE_IC 32"; 0 when it does not apply. */
int hls_step_up(HlsStage *s, int k, double mhz, int pp_max, char *desc, size_t n);
/* Step k of stage s one size down; 0 when it is at its smallest. */
int hls_step_down(HlsStage *s, int k, double mhz);
/* Lanes a stream engine may grow to: its (widest) input's channels to a
 * power of two, at most the widest engine the planner builds. */
int64_t hls_lane_cap(const HlsStage *s);
/* After a step of stage i: a concat's on-chip stream producers with fewer
 * lanes than it (not pinned) grow to its lanes, as far as their channels
 * allow; through kiln_width such a producer paces the concat, so a wider
 * concat alone buys little (hls/timing.c paced_cycles).  Appends
 * ", NODE LANES n" to desc for each; 1 when one grew. */
int hls_pace_producers(HlsPlan *p, int i, char *desc, size_t n);

/* One array a stage may take: its parallelism, cycles alone, resources. */
typedef struct {
    int pe_ic, pe_oc, pp; /* conv array */
    int lanes;            /* stream engine lanes */
    int64_t cycles;       /* the stage's cycles with this array */
    HlsRes res;           /* and its resources */
} HlsFoldCand;

/* Every array stage s0 may take with PP up to pp_max, weights where they
 * are; *n gets the count, NULL for a pinned stage.  exact: with the tile
 * and input pace each array would get. */
HlsFoldCand *hls_fold_cands(HlsPlan *p, const HlsStage *s0, int pp_max, int exact, int *n);
/* Give stage s the array of candidate c. */
void hls_take_cand(HlsPlan *p, HlsStage *s, const HlsFoldCand *c);
/* The search from p's stages as they stand (the smallest design, pins
 * set): leaves the best plan found, evaluated, its reasons in grow and
 * what stopped it in p->limit.  save: room for p->nstage stages. */
void hls_plan_search(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e);
/* Whether a plan of interval ii and latency lat is kept over the fastest
 * (ii_f, lat_f) for its latency: ii at most HLS_NEAR_PCT% above ii_f, and
 * lat shorter than lat_f by more than HLS_LAT_TRADE times the share of
 * interval given up. */
#define HLS_NEAR_PCT 10
#define HLS_LAT_TRADE 4
int hls_latency_pays(int64_t ii_f, int64_t lat_f, int64_t ii, int64_t lat);
/* After the latency steps: convs trimmed to arrays of fewer DSP48E2 where
 * the plan keeps its interval (ii_max > 0: stays within ii_max) and its
 * latency stays within the bound (without one: no longer than it was, or
 * with any_latency any latency); 1 when one was (hls/plan_latency.c). */
int hls_trim_dsp(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], int64_t ii_max,
                 int any_latency, GirError *e);
/* After the DSP trim, under a latency bound with a shared engine: the
 * engine's parts cut again where that shortens the interval within the
 * bound; the LUTs left spent on lane steps of stream engines and (rq_dsp1)
 * one DSP48E2 a requant lane, whichever raises the DSP efficiency most a
 * LUT, the interval kept or shortened; after a cut, the arrays trimmed
 * again within the interval the plan had before (hls/plan_recut.c).
 * 1 when the plan changed. */
int hls_fold_recut(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], int rq_dsp1,
                   GirError *e);

/* A dataflow segment split in two (hls_fold_split) where that shortens
 * the interval of a plan with a shared engine, the plan within its
 * budgets, not DDR-bound, its latency within the bound (without one: any
 * with any_latency, else no split); the reason in grow of the second
 * half's first stage (hls/plan_split.c).  The splits taken. */
int hls_fold_splits(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], int any_latency,
                    GirError *e);

/* ---- hls/plan_latency.c: the latency steps ---- */

/* Weights moved back on chip and grow steps that pay in latency, at the
 * search's interval; the plan left evaluated.  save: room for the stages;
 * grow: the reasons. */
void hls_finish_latency(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e);
/* A latency bound (p->lat_goal) the plan after hls_finish_latency misses:
 * the latency steps again from the search's stages `from`, every
 * shortening taken, the interval allowed to grow by steps; 1 with the
 * fastest plan found within the bound, 0 with the shortest latency found
 * (hls/plan_latency.c). */
int hls_meet_latency(HlsPlan *p, const HlsStage *from, char (*from_grow)[HLS_GROW_LEN],
                     HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e);

/* ---- the rest of the planner ---- */

/* Per stage t_done of a warm one-frame run and p->latency (hls/timing.c);
 * needs the stages evaluated, the FIFOs sized and in_ddr set. */
void hls_plan_timing(HlsPlan *p);
/* Segment seg's interval when it runs alone, FRAMES frames back to back:
 * its slowest stage's occupancy or its own DDR bytes at the board's
 * bandwidth, the longer (hls/timing.c; after hls_plan_timing).  An engine
 * part's segment (nsegment + j): the part's cycles (hls/plan_fold.c). */
int64_t hls_segment_interval(const HlsPlan *p, int seg);
/* Segment seg's one-frame run: its last output in DDR after a warm start
 * of one frame (each stage's t_done + the last write's B); an engine
 * part's: its cycles (hls/timing.c; after hls_plan_timing). */
int64_t hls_segment_latency(const HlsPlan *p, int seg);

/* Resources of everything pipeline/ puts around the engines and
 * skip FIFOs (DMA channels, forks, lane converters, requantize wrappers,
 * register file, PERF counters) into *r (hls/infra.c); needs the stages'
 * parallelism, segments and inputs, not their evaluation. */
void hls_plan_infra(HlsPlan *p, HlsRes *r);

/* kiln_maxpool: outputs along one axis (input length len, olen outputs,
 * window k, stride s, top/left pad) issued in the flush after the last
 * input position (hls/desc_stream.c). */
int64_t hls_pool_flush(int64_t len, int64_t olen, int64_t k, int64_t s, int64_t pad);

/* Results per requant lane of a conv (kiln_conv RQS): its `results`
 * (PP*PE_OC) complete together once every kki (K*K*ICG) cycles, so up to
 * that many share a lane with no stall of the array; the largest divisor
 * of the results up to kki and RQS_MAX, 16, a power of two or not (PP 5 x
 * PE_OC 2: RQS 10, one lane instead of five; each result a lane adds a
 * cycle of latency) (hls/plan_eval.c).  A dataflow kiln_conv's and the
 * time-shared engine's (kiln_tsconv, kki the least of its layers'). */
int64_t hls_rq_share(int64_t results, int64_t kki);

/* The shared engine's requant lanes on rq_dsp DSP48E2 each (1, else two):
 * its RQ_DSP and resources (hls/plan_rqdsp.c); the plan's totals need
 * hls_plan_eval after. */
void hls_fold_set_rq_dsp(HlsPlan *p, int rq_dsp);
/* After the search: one DSP48E2 a requant lane (kiln_requant RQ_DSP 1) on
 * the engines where DSPs bind the plan more than LUTs and where it keeps
 * every budget, frames/s and latency, so its DSP efficiency rises; two
 * elsewhere (hls/plan_rqdsp.c).  Returns the engines changed (-1 + e);
 * p evaluated. */
int hls_rq_dsp_choose(HlsPlan *p, GirError *e);

/* --fold auto's candidate sets (hls/plan_fold.c), nested from the tail of
 * the network upward: the foldable convs of the smallest output map, then
 * of the two smallest maps, and so on, each of two convs or more and
 * leaving a stage in the dataflow; after each, where the next map size
 * has two foldable convs or more, the set with one of them, each in turn;
 * each a --fold list of names, *specs and its strings malloc'd.  Returns
 * the count. */
int hls_fold_auto_sets(const HlsPlan *p, char ***specs);
/* The shared engine's memories and DSP clock (hls_fold_apply's mem,
 * bits): its line buffers in URAM (else block RAM); two weight banks in
 * one memory, a tile loading while the pass before it computes (else one
 * bank); its multipliers on the plan's clk2x (the plan must have the
 * clk2x domain), each DSP48E2 summing two input lanes a fabric cycle
 * (kiln_conv DSP2X 1) or, with HLS_FOLD_DSP2P too and PP even, taking two
 * pixels a fabric cycle on one weight operand (DSP2X 2): half the
 * multiplier DSPs either way. */
/* HLS_FOLD_LBBANK: the block-RAM line buffer banked by pixel (kiln_conv
 * LBBANK) where it applies (PP a power of two >= 2, every layer stride 1)
 * and takes fewer blocks than PP copies; else the copies.
 * HLS_FOLD_LBR2: the line buffer of twice the rows KMAX needs (kiln_conv
 * LBROWS = 2^ceil(log2(KMAX + 1)) + 1: R = 8 for 3x3 layers), so input
 * rows come in while a pixel group that spans a row end waits for the
 * next row.
 * HLS_FOLD_WCH2: the weights on two read masters (kiln_tsconv WCH 2), each
 * half of every weight beat from its own HP port. */
enum { HLS_FOLD_LBURAM = 1, HLS_FOLD_WB2 = 2, HLS_FOLD_DSP2X = 4, HLS_FOLD_DSP2P = 8,
       HLS_FOLD_LBBANK = 16, HLS_FOLD_LBR2 = 32, HLS_FOLD_WCH2 = 64 };
/* --fold (hls/plan_fold.c): take the conv layers spec names out of the
 * dataflow onto one kiln_tsconv of a pe x pe array of pp pixels an op,
 * its memories as mem (HLS_FOLD_* bits) says; the count folded, -1 + e. */
int hls_fold_apply(HlsPlan *p, const char *spec, int pe, int pp, int mem, GirError *e);
/* Cut the engine's part that holds folded layer at (table order) before
 * it (on 1), or join the two parts such a cut made (on 0): a part of its
 * own for layer at and those after it, right after the part before in the
 * frame's order, so a gate (HlsFold.gate) may let the next frame in
 * between them; the engine sized again (its first layer a start's fill).
 * 0, or -1 + e when at is the first layer of a phase (or of the table). */
int hls_fold_cut(HlsPlan *p, int at, int on, GirError *e);
/* Split the dataflow segment of stage at before it: at and the stages of
 * its segment after it (graph order) become a segment of their own, on a
 * run unit of its own right after the first in the frame's order, so the
 * next frame may enter the first half while this one is in the second;
 * the streams between the halves go through DDR.  The segments after it
 * and the engine's parts are numbered one up.  Not evaluated.  0, or -1 +
 * e when at is the first stage of its segment or the design would pass
 * KILN_SCHED_UNITS - 1 dataflow segments. */
int hls_fold_split(HlsPlan *p, int at, GirError *e);
/* The shared engine's line buffer of twice the rows (HLS_FOLD_LBR2),
 * taken where it shortens the interval (the latency within the bound, or
 * without one no longer than it was) or, at the same interval, the
 * latency, and the plan still fits the budgets and is not DDR-bound;
 * else the engine as it was.  1 when taken. */
int hls_fold_rows(HlsPlan *p, GirError *e);
/* The shared engine's weights on two read masters (HLS_FOLD_WCH2), tried
 * where the board has an HP port beyond the design's masters and the
 * weight channel binds a layer (its weight cycles above its MAC cycles);
 * taken as hls_fold_rows takes its line buffer.  1 when taken. */
int hls_fold_wch(HlsPlan *p, GirError *e);
/* HP ports of p's board (kind "hp") beyond the ones the design's AXI4
 * masters take at 16 a SmartConnect, one the weights' second master
 * takes for itself (pipeline/bd_tcl.c): 1 when one is free. */
int hls_fold_hp_free(const HlsPlan *p);
/* Add the shared engine's resources, DDR bytes and MACs to p's totals. */
void hls_fold_eval(HlsPlan *p);
/* Its cycles into the interval (after the dataflow's segments') and the
 * latency. */
void hls_fold_finish(HlsPlan *p);
void hls_fold_free(HlsFold *f);

#endif
