/*
 * The planner: cycle, resource and DDR models of a whole dataflow built from
 * the engine descriptors, and the design-space exploration that sets each
 * engine's parallelism, pipeline depth and weight placement for a board
 * (greedy balancing: grow the slowest stage while every budget holds).
 * Formulas: hls/plan.h and docs/plan.md.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/hw.h"
#include "hls/plan_int.h"
#include "hls/res_util.h"

#define FRAC_DSP 0.90  /* headroom: share of each resource a plan may use */
#define FRAC_BRAM 0.90
#define FRAC_URAM 0.90
#define FRAC_LUT 0.75
#define FRAC_FF 0.90
#define LANES_MAX 64   /* widest stream engine the planner builds */
#define RQS_MAX 8      /* most results per requant lane */
#define SEARCH_ROUNDS 4 /* grow / give back rounds of the search */
#define SEARCH_MODES 4 /* step costs the search tries (step_cost) */
#define FOLD_PRICE_ROUNDS 8 /* price doublings fold_fits tries at one target */
#define FOLD_STARTS 3 /* folded starts of the search: one price; priced; priced with
                       * exact candidates (fold_start) */
#define FOLD_SLACK 50 /* a folded stage meets target t within t + t/50 (its cycles
                       * after weight placement against its candidate's) */
#define SEARCH_PP_MAX 4 /* the search's default largest PP (--pp-max sets it up to
                         * HLS_PP_MAX: PP 5..8 add candidates, compile time about
                         * 1.7x on the ZCU104 YOLOv3-tiny, and no plan of the
                         * bundled model's on ZCU104, KV260, Ultra96-V2 gains) */
#define RESHAPE_STEPS 8 /* arrays reshaped at most to take a layer's weights on chip */
#define RECLAIM_ROUNDS 8 /* rounds of weights moved on chip or swapped after the search */
#define FIFO_DDR_SHARE 0.10 /* a skip FIFO above this share of the BRAM budget goes to DDR */

const char *hls_whome_name(HlsWeightHome h)
{
    switch (h) {
    case HLS_W_BRAM:
        return "bram";
    case HLS_W_URAM:
        return "uram";
    case HLS_W_DDR:
        return "ddr";
    case HLS_W_NONE:
        break;
    }
    return "-";
}

static const char *engine_name(HlsStageKind k)
{
    switch (k) {
    case HLS_ST_CONV:
        return "kiln_conv";
    case HLS_ST_DWCONV:
        return "kiln_dwconv";
    case HLS_ST_MAXPOOL:
        return "kiln_maxpool";
    case HLS_ST_UPSAMPLE:
        return "kiln_upsample";
    case HLS_ST_CONCAT:
        return "kiln_concat";
    case HLS_ST_ADD:
        return "kiln_add";
    case HLS_ST_REQUANT:
        return "kiln_requant";
    }
    return "?";
}

static int is_conv(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV;
}

/* The parameters of one kind (hw or rt) of a stage's engine, filled by
 * name; next is where the previous name was found, so names put in the
 * descriptor's order take one comparison each. */
typedef struct {
    const HlsEngineDesc *d;
    const char *const *names;
    int64_t *arr;
    int next;
} ParamSink;

/* Set a parameter the planner must know; a descriptor without it is the
 * compiler's own inconsistency. */
static void put(ParamSink *k, const char *name, int64_t v)
{
    int i = hls_param_index_from(k->names, name, k->next);
    if (i < 0)
        gir_die("hls: engine %s has no parameter '%s'", k->d->name, name);
    k->arr[i] = v;
    k->next = i + 1;
}

/* Results per requant lane of a conv (kiln_conv RQS): its PP*PE_OC results
 * complete together once every K*K*ICG cycles, so up to that many share a
 * lane; a power of two dividing the results, at most RQS_MAX (each step adds
 * a cycle of latency). */
static int64_t rq_share(int64_t results, int64_t kki)
{
    int64_t r = 1;
    while (2 * r <= results && results % (2 * r) == 0 && 2 * r <= kki && 2 * r <= RQS_MAX)
        r *= 2;
    return r;
}

/* Whether a conv's pixel groups run across row ends (kiln_conv SPAN): where
 * PP does not divide the output width, so row by row the last group of each
 * row would be partial, and the engine can (its line buffer of
 * 2^ceil(log2(K+1)) rows holds both rows' windows, K + S rows, and a group
 * spans at most two rows). */
static int pixel_span(const HlsStage *s)
{
    return s->ow % s->pp != 0 && hls_span_runs(s->pp, s->ow, s->k, s->stride, hls_line_rows(s->k));
}

/* Weight words per output lane and bank of a conv (kiln_conv WDEPTH): one
 * tile's groups, or the whole layer's when its weights are on chip. */
static int64_t conv_wdepth(const HlsStage *s)
{
    int64_t icg = hls_cdiv(s->cin, s->pe_ic), ocg = hls_cdiv(s->cout, s->pe_oc);
    int64_t tog = s->whome == HLS_W_DDR ? s->tog : 0;
    return (tog > 0 ? tog : ocg) * s->k * s->k * icg;
}

/* Fill hw[] and rt[] of a stage from its shape and choices. */
static void stage_params(HlsStage *s)
{
    ParamSink hw = {s->desc, s->desc->hw_params, s->hw, 0};
    ParamSink rt = {s->desc, s->desc->rt_params, s->rt, 0};
    int i;
    for (i = 0; i < HLS_PLAN_MAX_PARAMS; i++)
        s->hw[i] = 1, s->rt[i] = 0;
    switch (s->kind) {
    case HLS_ST_CONV: {
        int64_t icg = hls_cdiv(s->cin, s->pe_ic), ocg = hls_cdiv(s->cout, s->pe_oc);
        int64_t kki = s->k * s->k * icg;
        int64_t tog = s->whome == HLS_W_DDR ? s->tog : 0;
        put(&hw, "PE_IC", s->pe_ic);
        put(&hw, "PE_OC", s->pe_oc);
        put(&hw, "PP", s->pp);
        put(&hw, "KMAX", s->k);
        put(&hw, "WMAX", s->w);
        put(&hw, "CIMAX", s->cin);
        put(&hw, "COMAX", s->cout);
        put(&hw, "WDEPTH", conv_wdepth(s));
        put(&hw, "WBANKS", s->whome == HLS_W_DDR ? 2 : 1);
        put(&hw, "PIPE", s->pipe);
        put(&hw, "RQ_PIPE", s->rq_pipe);
        put(&hw, "PACK", s->pack);
        put(&hw, "TOGMAX", tog > 0 ? tog : ocg);
        put(&hw, "WURAM", s->whome == HLS_W_URAM);
        s->rqs = (int)rq_share((int64_t)s->pp * s->pe_oc, kki);
        put(&hw, "RQS", s->rqs);
        s->span = pixel_span(s);
        put(&hw, "SPAN", s->span);
        put(&rt, "h", s->h);
        put(&rt, "w", s->w);
        put(&rt, "cin", s->cin);
        put(&rt, "cout", s->cout);
        put(&rt, "k", s->k);
        put(&rt, "stride", s->stride);
        put(&rt, "pad", s->pad);
        put(&rt, "tog", tog);
        put(&rt, "ipace", s->ipace > 1 ? s->ipace : 1);
        put(&rt, "wpace", s->whome == HLS_W_DDR ? hls_ddr_pace(s->pe_ic) : 1);
        s->npass = tog > 0 ? hls_cdiv(ocg, tog) : 1;
        break;
    }
    case HLS_ST_DWCONV:
        put(&hw, "LANES", s->lanes);
        put(&hw, "KMAX", s->k);
        put(&hw, "WMAX", s->w);
        put(&hw, "CMAX", s->cin);
        put(&hw, "RQ_PIPE", s->rq_pipe);
        put(&rt, "h", s->h);
        put(&rt, "w", s->w);
        put(&rt, "c", s->cin);
        put(&rt, "k", s->k);
        put(&rt, "stride", s->stride);
        put(&rt, "pad", s->pad);
        s->npass = 1;
        break;
    case HLS_ST_MAXPOOL: {
        int64_t cg = hls_cdiv(s->cin, s->lanes);
        put(&hw, "LANES", s->lanes);
        put(&hw, "K_MAX", s->k);
        put(&hw, "CG_MAX", cg);
        put(&hw, "ROW_MAX", s->w * cg);
        put(&hw, "PIPE", s->pipe);
        put(&rt, "h", s->h);
        put(&rt, "w", s->w);
        put(&rt, "cg", cg);
        put(&rt, "k", s->k);
        put(&rt, "s", s->stride);
        /* the engine's pad is the top/left one, 0 here: the planner takes
         * pools padded at the bottom/right only (s->pad), which oh/ow carry */
        put(&rt, "pad", 0);
        put(&rt, "oh", s->oh);
        put(&rt, "ow", s->ow);
        s->npass = 1;
        break;
    }
    case HLS_ST_UPSAMPLE: {
        int64_t cg = hls_cdiv(s->cin, s->lanes);
        put(&hw, "LANES", s->lanes);
        put(&hw, "ROW_MAX", s->w * cg);
        put(&rt, "h", s->h);
        put(&rt, "w", s->w);
        put(&rt, "cg", cg);
        put(&rt, "f", s->k);
        s->npass = 1;
        break;
    }
    case HLS_ST_CONCAT:
        put(&hw, "LANES", s->lanes);
        put(&rt, "pixels", s->h * s->w);
        put(&rt, "ca", s->cin);
        put(&rt, "cb", s->cin2);
        s->npass = 1;
        break;
    case HLS_ST_ADD:
        put(&hw, "LANES", s->lanes);
        put(&rt, "beats", s->h * s->w * hls_cdiv(s->cin, s->lanes));
        put(&rt, "ma", 1);
        put(&rt, "mb", 1);
        put(&rt, "shift", 0);
        s->npass = 1;
        break;
    case HLS_ST_REQUANT:
        put(&hw, "LANES", s->lanes);
        put(&hw, "PIPE", s->rq_pipe);
        put(&rt, "n", s->h * s->w * hls_cdiv(s->cin, s->lanes));
        s->npass = 1;
        break;
    }
}

/* Memo of a descriptor's cycles() and resources(): the exact row recurrence
 * and the memory mapping are most of a search's time, and the search
 * evaluates the same stage shapes many times.  Open addressing on a hash of
 * the engine and its parameters; cycles are computed when first asked. */
#define MEMO_SLOTS 4096 /* a power of two */
#define MEMO_PROBE 8
typedef struct {
    const HlsEngineDesc *desc; /* NULL: empty */
    int64_t hw[HLS_PLAN_MAX_PARAMS], rt[HLS_PLAN_MAX_PARAMS];
    int has_cycles;
    int64_t cycles;
    HlsRes res;
} MemoEntry;
struct HlsCycMemo {
    MemoEntry e[MEMO_SLOTS];
};

static MemoEntry *memo_find(HlsPlan *p, const HlsEngineDesc *d, const int64_t *hw,
                            const int64_t *rt)
{
    uint64_t h = 1469598103934665603ull;
    size_t i, k;
    MemoEntry *slot;
    if (!p->memo) {
        p->memo = calloc(1, sizeof *p->memo);
        if (!p->memo)
            gir_die("out of memory");
    }
    h = (h ^ (uint64_t)(uintptr_t)d) * 1099511628211ull;
    for (k = 0; k < HLS_PLAN_MAX_PARAMS; k++) {
        h = (h ^ (uint64_t)hw[k]) * 1099511628211ull;
        h = (h ^ (uint64_t)rt[k]) * 1099511628211ull;
    }
    for (k = 0; k < MEMO_PROBE; k++) {
        i = (size_t)(h + k) & (MEMO_SLOTS - 1);
        slot = &p->memo->e[i];
        if (!slot->desc)
            break;
        if (slot->desc == d && !memcmp(slot->hw, hw, sizeof slot->hw) &&
            !memcmp(slot->rt, rt, sizeof slot->rt))
            return slot;
    }
    slot = &p->memo->e[(size_t)(h + (k < MEMO_PROBE ? k : 0)) & (MEMO_SLOTS - 1)];
    slot->desc = d;
    memcpy(slot->hw, hw, sizeof slot->hw);
    memcpy(slot->rt, rt, sizeof slot->rt);
    slot->has_cycles = 0;
    slot->res = d->resources(hw);
    return slot;
}

/* Cycles at the plan's clock that a frame's DDR bytes take at the board's
 * PL bandwidth (the board loader bounds both, so the product fits). */
static int64_t ddr_cycles(const HlsPlan *p)
{
    return (int64_t)ceil((double)p->ddr_bytes / (p->board.ddr_gbps * 1e9) * p->mhz * 1e6);
}

/* Cycles, latency, resources and utilisation of one stage.  -1 when the
 * descriptor rejects the shape. */
static int stage_eval(HlsPlan *p, HlsStage *s)
{
    MemoEntry *m;
    stage_params(s);
    m = memo_find(p, s->desc, s->hw, s->rt);
    if (!m->has_cycles) {
        m->cycles = s->desc->cycles(s->hw, s->rt);
        m->has_cycles = 1;
    }
    s->cycles = m->cycles;
    if (s->cycles < 0)
        return -1;
    s->lat = s->desc->latency(s->hw);
    s->res = m->res;
    if (is_conv(s)) {
        int64_t wdepth = conv_wdepth(s);
        int64_t banks = s->whome == HLS_W_DDR ? 2 : 1;
        if (s->whome != HLS_W_URAM && wdepth <= 64) {
            /* LUTRAM weight memory (RAM64M: 3 bits x 64 in 4 LUTs) */
            s->res.lut += (double)(banks * s->pe_oc * hls_cdiv(8 * s->pe_ic, 3) * 4);
        }
        s->util = (double)s->macs / ((double)s->cycles * s->pp * s->pe_oc * s->pe_ic);
    } else if (s->kind == HLS_ST_DWCONV) {
        s->util = (double)s->macs / ((double)s->cycles * s->lanes);
    } else {
        s->util = 0.0;
    }
    return 0;
}

/* Weight memory of a conv in block RAM when the whole layer is on chip. */
static double whole_weight_bram(HlsPlan *p, const HlsStage *s)
{
    HlsStage t = *s;
    int64_t hw1[HLS_PLAN_MAX_PARAMS];
    double a;
    t.whome = HLS_W_BRAM;
    stage_params(&t);
    a = memo_find(p, t.desc, t.hw, t.rt)->res.bram36;
    memcpy(hw1, t.hw, sizeof hw1);
    hw1[hls_param_index(t.desc->hw_params, "WDEPTH")] = 1;
    return a - memo_find(p, t.desc, hw1, t.rt)->res.bram36;
}

/* URAM288 blocks of a conv's whole weight memory (the descriptor's count
 * with WURAM). */
static int64_t whole_weight_uram(HlsPlan *p, const HlsStage *s)
{
    HlsStage t = *s;
    t.whome = HLS_W_URAM;
    stage_params(&t);
    return (int64_t)memo_find(p, t.desc, t.hw, t.rt)->res.uram;
}

int hls_chan_data_w(int64_t lanes)
{
    int w = 16;
    while (w < 8 * lanes && w < 128)
        w *= 2;
    return w;
}

int hls_chan_cnt_w(int write, int64_t bytes, int64_t subs, int dw, int64_t lanes)
{
    int64_t fine = dw / 8 < lanes ? dw / 8 : lanes, m = hls_cdiv(bytes, fine);
    int w = write ? 20 : 12;
    if (subs > m)
        m = subs;
    while (w < 32 && (m >> w) != 0)
        w++;
    return w;
}

int64_t hls_ddr_pace(int64_t lanes)
{
    int64_t dw = hls_chan_data_w(lanes);
    return 8 * lanes > dw ? 8 * lanes / dw : 1;
}

int64_t hls_in_lanes(const HlsStage *s)
{
    return is_conv(s) ? s->pe_ic : s->lanes;
}

int64_t hls_out_lanes(const HlsStage *s)
{
    return is_conv(s) ? s->pe_oc : s->lanes;
}

int hls_tiled(const HlsStage *s)
{
    return is_conv(s) && s->whome == HLS_W_DDR && s->tog > 0 &&
           s->tog < hls_cdiv(s->cout, s->pe_oc);
}

/* The pace of conv s's input: a DMA channel's when input 0 comes from DDR
 * (another segment, the graph input, or an edge through DDR: s or its
 * producer in p weight-tiled), else a beat a cycle. */
static int64_t input_pace(const HlsPlan *p, const HlsStage *s)
{
    int u = s->in[0];
    int ddr = u < 0 || p->stages[u].segment != s->segment || hls_tiled(s) ||
              hls_tiled(&p->stages[u]);
    return is_conv(s) && ddr ? hls_ddr_pace(s->pe_ic) : 1;
}

static void set_pace(HlsPlan *p)
{
    int i;
    for (i = 0; i < p->nstage; i++)
        p->stages[i].ipace = input_pace(p, &p->stages[i]);
}

/* The tile size the RTL takes nearest to `want` output groups: a divisor of
 * the layer's groups (every tile the same size) with an even channel count
 * (the writer that places each tile into the pixels has a bus of 16 bits or
 * more); the largest one up to want, else the smallest above it. */
int64_t hls_tile_fit(int64_t ocg, int pe_oc, int64_t want)
{
    int64_t d, best = 0;
    for (d = 1; d <= ocg; d++) {
        if (ocg % d != 0 || (d * pe_oc) % 2 != 0)
            continue;
        if (d <= want || best == 0)
            best = d;
        if (d >= want)
            break;
    }
    return best > 0 ? best : ocg;
}

/* Tile size for weights from DDR: as many output groups as keep the memory
 * of each lane in LUTRAM (64 words), at least one, fitted to what the RTL
 * writes (hls_tile_fit). */
static int64_t ddr_tog(const HlsStage *s)
{
    int64_t kki = s->k * s->k * hls_cdiv(s->cin, s->pe_ic), ocg = hls_cdiv(s->cout, s->pe_oc);
    int64_t tog = kki <= 64 ? 64 / kki : 1;
    if (tog < hls_cdiv(ocg, 64))
        tog = hls_cdiv(ocg, 64); /* at most 64 passes: each re-reads the input map */
    tog = tog > ocg ? ocg : (tog < 1 ? 1 : tog);
    return hls_tile_fit(ocg, s->pe_oc, tog);
}

typedef struct {
    int idx;     /* stage */
    double bram; /* its whole-layer weight BRAM */
    double cost; /* DDR bytes per frame per BRAM36 freed if it streams */
} WCand;

static int wcand_cmp(const void *a, const void *b)
{
    const WCand *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? -1 : 1;
    return x->idx - y->idx;
}

/* DDR bytes per frame when a conv's weights stream in tiles. */
static double ddr_cost(const HlsStage *s)
{
    int64_t npass = hls_cdiv(hls_cdiv(s->cout, s->pe_oc), ddr_tog(s));
    double b = (double)s->weight_bytes;
    if (npass > 1)
        b += (double)(s->h * s->w * s->cin * (1 + npass) + 2 * s->oh * s->ow * s->cout);
    return b;
}

/* Weight placement: every conv's weights on chip in BRAM; while that breaks
 * the BRAM budget (less `reserve` for FIFOs), the layer with the largest
 * weight memory moves to URAM if the URAM budget takes it, else streams from
 * DDR in tiles. */
static void place_weights(HlsPlan *p, double reserve)
{
    double bram = reserve, uram = 0.0;
    WCand *c = malloc(sizeof *c * (size_t)p->nstage);
    int i, nc = 0;
    if (!c)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        if (is_conv(s)) {
            s->whome = HLS_W_BRAM;
            s->tog = 0;
            c[nc].idx = i;
            c[nc].bram = whole_weight_bram(p, s);
            c[nc].cost = ddr_cost(s) / (c[nc].bram > 0.5 ? c[nc].bram : 0.5);
            nc++;
        }
        if (stage_eval(p, s) == 0) {
            bram += s->res.bram36;
            uram += s->res.uram;
        }
    }
    qsort(c, (size_t)nc, sizeof *c, wcand_cmp);
    for (i = 0; i < nc && bram > p->budget.bram36; i++) {
        HlsStage *s = &p->stages[c[i].idx];
        double before = s->res.bram36;
        int64_t u = whole_weight_uram(p, s);
        if (c[i].bram <= 0.0)
            continue;
        if (uram + (double)u <= p->budget.uram && p->board.uram > 0) {
            s->whome = HLS_W_URAM;
            uram += (double)u;
        } else {
            s->whome = HLS_W_DDR;
            s->tog = ddr_tog(s);
        }
        stage_eval(p, s);
        bram += s->res.bram36 - before;
    }
    /* still short: the smallest tiles (more passes, more input re-reads) */
    for (i = 0; i < nc && bram > p->budget.bram36; i++) {
        HlsStage *s = &p->stages[c[i].idx];
        int64_t kki = s->k * s->k * hls_cdiv(s->cin, s->pe_ic);
        double before = s->res.bram36;
        if (s->whome != HLS_W_DDR)
            continue;
        s->tog = hls_tile_fit(hls_cdiv(s->cout, s->pe_oc), s->pe_oc, kki <= 64 ? 64 / kki : 1);
        stage_eval(p, s);
        bram += s->res.bram36 - before;
    }
    free(c);
}

/* Rows of input a stage needs before its first output row. */
static int64_t need_rows(const HlsStage *s)
{
    switch (s->kind) {
    case HLS_ST_CONV:
    case HLS_ST_DWCONV:
        return s->k - s->pad < s->h ? s->k - s->pad : s->h;
    case HLS_ST_MAXPOOL:
        return s->k < s->h ? s->k : s->h;
    case HLS_ST_UPSAMPLE:
        return 1;
    default:
        return 0;
    }
}

/* Whole-plan figures from the stages' choices.  place: run the weight
 * placement first.  -1 when a descriptor rejects a stage's shape. */
static int plan_eval(HlsPlan *p, int place, GirError *e)
{
    int i, j, round;
    double clock = p->mhz * 1e6;
    double last_fifo_bram = 0.0;
    const HlsEngineDesc *fd = hls_engine_find("kiln_fifo");
    for (round = 0; round < 2; round++) {
        double fifo_bram = 0.0;
        hls_plan_infra(p, &p->infra); /* DMA, control: reserved before the weights */
        if (place) {
            place_weights(p, last_fifo_bram + p->infra.bram36);
            hls_plan_infra(p, &p->infra); /* the channels of the tiles just placed */
        }
        p->compute_ii = 0;
        p->slowest = 0;
        p->ddr_bytes = 0;
        p->macs = 0;
        p->weight_bytes_onchip = p->weight_bytes_ddr = 0;
        p->total = p->infra;
        set_pace(p);
        for (i = 0; i < p->nstage; i++) {
            HlsStage *s = &p->stages[i];
            if (stage_eval(p, s) < 0)
                return gir_error_at(e, gir_loc_none(),
                                    "plan: node '%s': engine %s rejects the layer's shape",
                                    s->node, s->desc->name);
            s->ddr_bytes = 0;
            for (j = 0; j < s->nin; j++)
                if (s->in[j] < 0)
                    s->ddr_bytes += s->h * s->w * (j ? s->cin2 : s->cin);
            if (s->kind == HLS_ST_ADD && s->in[1] < 0)
                s->ddr_bytes += s->h * s->w * s->cin - s->h * s->w * s->cin2;
            if (s->out_ddr)
                s->ddr_bytes += s->oh * s->ow * s->cout;
            if (s->whome == HLS_W_DDR) {
                s->ddr_bytes += s->weight_bytes;
                p->weight_bytes_ddr += s->weight_bytes;
            } else if (s->whome != HLS_W_NONE) {
                p->weight_bytes_onchip += s->weight_bytes;
            }
            if (s->npass > 1) /* input spilled and re-read per tile; output via DDR */
                s->ddr_bytes += s->h * s->w * s->cin * (1 + s->npass) +
                                2 * s->oh * s->ow * s->cout;
            p->ddr_bytes += s->ddr_bytes;
            p->macs += s->macs;
            if (s->cycles > p->compute_ii) {
                p->compute_ii = s->cycles;
                p->slowest = i;
            }
            p->total.dsp += s->res.dsp;
            p->total.bram36 += s->res.bram36;
            p->total.uram += s->res.uram;
            p->total.lut += s->res.lut;
            p->total.ff += s->res.ff;
        }
        p->ddr_cycles = ddr_cycles(p);
        p->ddr_bound = p->ddr_cycles > p->compute_ii;
        p->interval = p->ddr_bound ? p->ddr_cycles : p->compute_ii;
        /* fill and first-output times, topological */
        for (i = 0; i < p->nstage; i++) {
            HlsStage *s = &p->stages[i];
            int64_t tin = 0;
            for (j = 0; j < s->nin; j++)
                if (s->in[j] >= 0)
                    tin = hls_max64(tin, p->stages[s->in[j]].t_first);
            s->fill = (int64_t)ceil((double)need_rows(s) * (double)p->interval / (double)s->h) +
                      s->lat;
            if (s->npass > 1)
                s->fill = hls_max64(s->cycles, p->interval);
            s->t_first = tin + s->fill;
        }
        /* join FIFOs: the earlier input waits for the later one */
        p->nfifo = 0;
        for (i = 0; i < p->nstage; i++) {
            HlsStage *s = &p->stages[i];
            HlsStage *a, *b, *early;
            int64_t wait, beats, depth, hw[HLS_PLAN_MAX_PARAMS];
            ParamSink fh;
            HlsFifo *f;
            if (s->nin != 2 || s->in[0] < 0 || s->in[1] < 0 || !fd)
                continue;
            a = &p->stages[s->in[0]];
            b = &p->stages[s->in[1]];
            if (a->npass > 1 || b->npass > 1)
                continue; /* through DDR: nothing waits on chip */
            early = a->t_first <= b->t_first ? a : b;
            wait = (a->t_first > b->t_first ? a->t_first - b->t_first : b->t_first - a->t_first);
            beats = early->oh * early->ow * hls_cdiv(early->cout, hls_out_lanes(early));
            depth = (int64_t)ceil((double)wait * (double)beats / (double)p->interval);
            depth += 2 * hls_cdiv(early->cout, hls_out_lanes(early)) + 16;
            if (depth > beats + 16)
                depth = beats + 16;
            depth = hls_pow2ceil(depth);
            f = &p->fifos[p->nfifo++];
            f->ddr = 0;
            f->from = (int)(early - p->stages);
            f->to = i;
            f->depth = depth;
            f->width = 8 * hls_out_lanes(early);
            for (j = 0; j < HLS_PLAN_MAX_PARAMS; j++)
                hw[j] = 1;
            fh = (ParamSink){fd, fd->hw_params, hw, 0};
            put(&fh, "WIDTH", f->width);
            put(&fh, "DEPTH", depth);
            put(&fh, "BRAM_MIN", HLS_HW_FIFO_BRAM_MIN);
            f->res = fd->resources(hw);
            if (f->res.bram36 > FIFO_DDR_SHARE * p->budget.bram36) {
                /* a large skip tensor waits in DDR, not in a FIFO */
                f->ddr = 1;
                memset(&f->res, 0, sizeof f->res);
                p->ddr_bytes += 2 * early->oh * early->ow * early->cout;
                snprintf(f->why, sizeof f->why,
                         "%s waits %lld cycles for %s: %lld beats would need more than %.0f%% of "
                         "the BRAM budget, so %s's output goes through DDR (written and read once)",
                         s->node, (long long)wait, early == a ? b->node : a->node,
                         (long long)depth, FIFO_DDR_SHARE * 100.0, early->node);
                continue;
            }
            snprintf(f->why, sizeof f->why,
                     "%s waits %lld cycles for %s (first beats at %lld vs %lld): %s's beats "
                     "in that time at II pace, +2 pixels",
                     s->node, (long long)wait, early == a ? b->node : a->node,
                     (long long)early->t_first, (long long)(early == a ? b : a)->t_first,
                     early->node);
            fifo_bram += f->res.bram36;
            p->total.dsp += f->res.dsp;
            p->total.bram36 += f->res.bram36;
            p->total.uram += f->res.uram;
            p->total.lut += f->res.lut;
            p->total.ff += f->res.ff;
        }
        p->ddr_cycles = ddr_cycles(p);
        p->ddr_bound = p->ddr_cycles > p->compute_ii;
        p->interval = p->ddr_bound ? p->ddr_cycles : p->compute_ii;
        last_fifo_bram = fifo_bram;
        if (!place || p->total.bram36 <= p->budget.bram36 || fifo_bram <= 0.0)
            break;
    }
    /* stage-to-stage edges through DDR inside a segment */
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        for (j = 0; j < 2; j++) {
            int u = j < s->nin ? s->in[j] : -1, k;
            s->in_ddr[j] = 0;
            if (u < 0 || p->stages[u].segment != s->segment)
                continue;
            s->in_ddr[j] = s->npass > 1 || p->stages[u].npass > 1;
            for (k = 0; k < p->nfifo; k++)
                if (p->fifos[k].from == u && p->fifos[k].to == i && p->fifos[k].ddr)
                    s->in_ddr[j] = 1;
        }
    }
    hls_plan_timing(p); /* t_done per stage and the latency */
    p->fps = clock / (double)p->interval;
    p->latency_ms = (double)p->latency / clock * 1e3;
    p->dsp_eff = p->total.dsp > 0 ? (double)p->macs * p->fps / (p->total.dsp * 2.0 * clock) : 0.0;
    return 0;
}

/* The first budget the plan breaks, described into buf; NULL when it fits. */
const char *hls_plan_over_budget(const HlsPlan *p, char *buf, size_t n)
{
    static const struct {
        const char *name; /* resource */
        size_t off;       /* offset in HlsRes */
        double frac;      /* headroom */
    } r[] = {
        {"DSP", offsetof(HlsRes, dsp), FRAC_DSP},       {"BRAM", offsetof(HlsRes, bram36), FRAC_BRAM},
        {"URAM", offsetof(HlsRes, uram), FRAC_URAM},    {"LUT", offsetof(HlsRes, lut), FRAC_LUT},
        {"FF", offsetof(HlsRes, ff), FRAC_FF},
    };
    size_t i;
    for (i = 0; i < sizeof r / sizeof r[0]; i++) {
        double used = *(const double *)((const char *)&p->total + r[i].off);
        double budget = *(const double *)((const char *)&p->budget + r[i].off);
        if (used > budget + 1e-9) {
            snprintf(buf, n, "%s %.0f%% (%.0f > %.0f)", r[i].name, r[i].frac * 100.0, used, budget);
            return r[i].name;
        }
    }
    return NULL;
}

static void set_budget(HlsPlan *p)
{
    p->budget.dsp = floor((double)p->board.dsp * FRAC_DSP);
    p->budget.bram36 = floor((double)p->board.bram36 * FRAC_BRAM);
    p->budget.uram = floor((double)p->board.uram * FRAC_URAM);
    p->budget.lut = floor((double)p->board.lut * FRAC_LUT);
    p->budget.ff = floor((double)p->board.ff * FRAC_FF);
}

/* Register levels for the clock: at 250 MHz and above every adder-tree level
 * and all four requant stages (logic depth about 15 cells,
 * docs/rtl-resources.md); below, half the tree and three requant stages. */
static void set_pipeline(HlsStage *s, double mhz)
{
    int l = (int)hls_clog2(s->pe_ic);
    s->pipe = mhz >= 250.0 ? l : (l + 1) / 2;
    s->rq_pipe = mhz >= 250.0 ? 4 : 3;
    if (s->kind == HLS_ST_MAXPOOL)
        s->pipe = mhz >= 250.0 ? 1 : 0;
    if (s->kind == HLS_ST_REQUANT || s->kind == HLS_ST_DWCONV)
        s->rq_pipe = mhz >= 250.0 ? 4 : 3;
}

static void init_stage(HlsStage *s, double mhz);

HlsPlan *hls_plan_new(const GirGraph *g, const HlsBoard *b, double mhz, GirError *e)
{
    HlsPlan *p = calloc(1, sizeof *p);
    int i;
    if (!p)
        gir_die("out of memory");
    p->model = g->name ? g->name : "model";
    p->board = *b;
    p->mhz = mhz > 0 ? mhz : b->default_mhz;
    if (p->mhz < 1.0) {
        gir_error_at(e, gir_loc_none(), "plan: clock %g MHz below 1 MHz", p->mhz);
        free(p);
        return NULL;
    }
    if (p->mhz > b->max_mhz) {
        gir_error_at(e, gir_loc_none(), "plan: clock %.1f MHz exceeds %s's maximum of %.1f MHz",
                     p->mhz, b->name, b->max_mhz);
        free(p);
        return NULL;
    }
    set_budget(p);
    if (hls_partition(g, p, e) < 0) {
        hls_plan_free(p);
        return NULL;
    }
    p->fifos = calloc((size_t)p->nstage + 1, sizeof *p->fifos);
    if (!p->fifos)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        s->desc = hls_engine_find(engine_name(s->kind));
        if (!s->desc) {
            gir_error_at(e, gir_loc_none(), "plan: node '%s': engine %s is not built",
                         s->node, engine_name(s->kind));
            hls_plan_free(p);
            return NULL;
        }
        s->whome = is_conv(s) ? HLS_W_BRAM : HLS_W_NONE;
        if (s->kind == HLS_ST_DWCONV)
            s->whome = HLS_W_BRAM;
        init_stage(s, p->mhz);
    }
    return p;
}

void hls_plan_free(HlsPlan *p)
{
    if (!p)
        return;
    free(p->stages);
    free(p->cpu);
    free(p->fifos);
    free(p->memo);
    free(p);
}

/* Channels a stream engine's lanes may grow to. */
static int64_t lane_cap(const HlsStage *s)
{
    int64_t c = s->kind == HLS_ST_CONCAT ? (s->cin > s->cin2 ? s->cin : s->cin2) : s->cin;
    int64_t cap = hls_pow2ceil(c);
    return cap > LANES_MAX ? LANES_MAX : cap;
}

static void init_stage(HlsStage *s, double mhz)
{
    if (is_conv(s)) {
        s->pe_ic = 4; /* 8*PE_IC >= 32: parameter beats */
        s->pe_oc = s->cout >= 2 ? 2 : 1;
        s->pp = 1;
    } else {
        s->lanes = (int)(lane_cap(s) < 2 ? lane_cap(s) : 2);
        if (s->lanes < 2)
            s->lanes = 2;
    }
    s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
    set_pipeline(s, mhz);
}

/* The pixel parallelism after pp: 1, 2, 3, 4 (steps of x2, x1.5, x1.33
 * where powers of two alone would double a stage). */
static int pp_next(int pp)
{
    return pp == 1 ? 2 : pp + 1;
}

static int pp_prev(int pp)
{
    return pp == 2 ? 1 : pp - 1;
}

/* Candidate step k (0: PE_IC, 1: PE_OC, 2: PP, 3: lanes) of a stage; 0 when
 * it does not apply.  desc gets "PE_IC 32". */
static int apply_step(HlsStage *s, int k, double mhz, int pp_max, char *desc, size_t n)
{
    if (is_conv(s)) {
        int64_t kki = s->k * s->k * hls_cdiv(s->cin, s->pe_ic);
        if (k == 0 && s->pe_ic < hls_pow2ceil(s->cin)) {
            s->pe_ic *= 2;
            snprintf(desc, n, "PE_IC %d", s->pe_ic);
        } else if (k == 1 && s->pe_oc < hls_pow2ceil(s->cout)) {
            s->pe_oc *= 2;
            snprintf(desc, n, "PE_OC %d", s->pe_oc);
        } else if (k == 2 && s->pp < pp_max && kki >= pp_next(s->pp) && s->ow >= pp_next(s->pp)) {
            s->pp = pp_next(s->pp);
            snprintf(desc, n, "PP %d", s->pp);
        } else {
            return 0;
        }
        s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
        set_pipeline(s, mhz);
        return 1;
    }
    if (k == 3 && s->lanes < lane_cap(s)) {
        s->lanes *= 2;
        snprintf(desc, n, "LANES %d", s->lanes);
        return 1;
    }
    return 0;
}

/* The inverse of apply_step: step k of a stage one size down; 0 when it is
 * at its smallest. */
static int undo_step(HlsStage *s, int k, double mhz)
{
    if (is_conv(s)) {
        if (k == 0 && s->pe_ic > 4)
            s->pe_ic /= 2;
        else if (k == 1 && s->pe_oc > (s->cout >= 2 ? 2 : 1))
            s->pe_oc /= 2;
        else if (k == 2 && s->pp > 1)
            s->pp = pp_prev(s->pp);
        else
            return 0;
        s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
        set_pipeline(s, mhz);
        return 1;
    }
    if (k == 3 && s->lanes > 2) {
        s->lanes /= 2;
        return 1;
    }
    return 0;
}

static void mcycles(char *buf, size_t n, int64_t c)
{
    if (c >= 1000000)
        snprintf(buf, n, "%.2f Mcycles", (double)c / 1e6);
    else
        snprintf(buf, n, "%.1f kcycles", (double)c / 1e3);
}

/* The final reason line of each stage. */
static void finish_reasons(HlsPlan *p, char (*grow)[160])
{
    int i;
    char c1[32], c2[32];
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        char par[128], wt[288] = "", sw[160] = "";
        size_t n;
        if (is_conv(s))
            snprintf(par, sizeof par, "PE_OC %d x PE_IC %d x PP %d%s, PACK %d, PIPE %d, RQ_PIPE %d",
                     s->pe_oc, s->pe_ic, s->pp, s->span ? " (groups across rows)" : "", s->pack,
                     s->pipe, s->rq_pipe);
        else
            snprintf(par, sizeof par, "LANES %d", s->lanes);
        if (s->wswap > 0 && s->whome != HLS_W_DDR && !p->replayed &&
            p->stages[s->wswap - 1].whome == HLS_W_DDR)
            snprintf(sw, sizeof sw, ", swapped on chip for %s's, which stream instead (from "
                     "DDR in tiles of %lld groups; latency %lld -> %lld cycles)",
                     p->stages[s->wswap - 1].node, (long long)s->wswap_tog,
                     (long long)s->wswap_lat[0], (long long)s->wswap_lat[1]);
        else if (s->wswap < 0 && s->whome == HLS_W_DDR && !p->replayed &&
                 p->stages[-s->wswap - 1].whome != HLS_W_DDR)
            snprintf(sw, sizeof sw, "swapped to DDR to take %s's on chip: latency %lld -> %lld "
                     "cycles", p->stages[-s->wswap - 1].node, (long long)s->wswap_lat[0],
                     (long long)s->wswap_lat[1]);
        if (s->whome == HLS_W_DDR)
            snprintf(wt, sizeof wt, "; weights %.2f MB from DDR each frame, %lld tile(s) of %lld groups "
                     "(%s)", (double)s->weight_bytes / 1e6, (long long)s->npass, (long long)s->tog,
                     sw[0] ? sw : "on-chip budget spent on larger-or-earlier layers");
        else if (s->whome == HLS_W_URAM)
            snprintf(wt, sizeof wt, "; weights %.2f MB on chip in URAM (BRAM budget full)%s",
                     (double)s->weight_bytes / 1e6, sw);
        else if (s->whome == HLS_W_BRAM)
            snprintf(wt, sizeof wt, "; weights %.2f MB on chip in BRAM%s", (double)s->weight_bytes / 1e6,
                     sw);
        mcycles(c1, sizeof c1, s->cycles);
        mcycles(c2, sizeof c2, p->interval);
        n = (size_t)snprintf(s->why, sizeof s->why, "%s: %s", par,
                             s->pinned ? "pinned by --pin" :
                             p->replayed ? "from plan.json" :
                             grow && grow[i][0] ? grow[i] : "smallest array: never the slowest stage");
        if (n < sizeof s->why) {
            if (i == p->slowest && !p->ddr_bound)
                n += (size_t)snprintf(s->why + n, sizeof s->why - n, "; slowest stage (%s): %s", c1,
                                      p->limit);
            else
                n += (size_t)snprintf(s->why + n, sizeof s->why - n, "; %s <= II %s", c1, c2);
        }
        if (n < sizeof s->why)
            snprintf(s->why + n, sizeof s->why - n, "%s", wt);
    }
}

/* Resource r of x (r < 5: DSP, BRAM36, URAM, LUT, FF). */
static double res_at(const HlsRes *x, int r)
{
    const double v[] = {x->dsp, x->bram36, x->uram, x->lut, x->ff};
    return v[r];
}

/* Sum over resources of the growth from a to b as a share of the budget. */
static double budget_share(const HlsRes *b, const HlsRes *a, const HlsRes *budget)
{
    double s = 0.0;
    int r;
    for (r = 0; r < 5; r++)
        s += res_at(budget, r) > 0 && res_at(b, r) > res_at(a, r)
                 ? (res_at(b, r) - res_at(a, r)) / res_at(budget, r)
                 : 0.0;
    return s;
}

/* The cost of a step from a to b for the search: 0, the sum over
 * resources of the growth as a share of the budget; 1, the same with each
 * resource's share weighted by how full it is after the step (scarce
 * resources cost more); 2, the largest share of any resource's remaining
 * budget the step takes; 3, as 0 (the caller doubles it for steps that add
 * output lanes or pixels: each output lane has its own weight memory). */
static double step_cost(int mode, const HlsRes *b, const HlsRes *a, const HlsRes *budget)
{
    const double pb[] = {b->dsp, b->bram36, b->uram, b->lut, b->ff};
    const double pa[] = {a->dsp, a->bram36, a->uram, a->lut, a->ff};
    const double pg[] = {budget->dsp, budget->bram36, budget->uram, budget->lut, budget->ff};
    double s = 0.0;
    int r;
    if (mode == 0 || mode == 3)
        return budget_share(b, a, budget);
    for (r = 0; r < 5; r++) {
        double d, v;
        if (pg[r] <= 0 || pb[r] <= pa[r])
            continue;
        d = pb[r] - pa[r];
        if (mode == 1) {
            s += d / pg[r] * (pb[r] / pg[r]);
        } else {
            v = d / (pg[r] - pa[r] > 1e-9 ? pg[r] - pa[r] : 1e-9);
            s = v > s ? v : s;
        }
    }
    return s;
}

/* Give back what the interval does not need: every stage one step smaller
 * where the interval does not grow and the budgets hold, the largest saving
 * (budget_share) first, until none is left.  Returns the steps taken. */
static int shrink_stages(HlsPlan *p, HlsStage *save, GirError *e)
{
    const HlsRes zero = {0};
    int taken = 0;
    char ob[160];
    for (;;) {
        int i, k, bi = -1, bk = -1;
        int64_t ii = p->interval;
        double share = budget_share(&p->total, &zero, &p->budget), bsave = 1e-9;
        memcpy(save, p->stages, sizeof *save * (size_t)p->nstage);
        for (i = 0; i < p->nstage; i++)
            for (k = 0; k < 4; k++) {
                double sh;
                if (p->stages[i].pinned || !undo_step(&p->stages[i], k, p->mhz))
                    continue;
                if (plan_eval(p, 1, e) == 0 && !p->ddr_bound && p->interval <= ii &&
                    !hls_plan_over_budget(p, ob, sizeof ob)) {
                    sh = share - budget_share(&p->total, &zero, &p->budget);
                    if (sh > bsave) {
                        bsave = sh;
                        bi = i;
                        bk = k;
                    }
                }
                memcpy(p->stages, save, sizeof *save * (size_t)p->nstage);
            }
        if (bi >= 0)
            undo_step(&p->stages[bi], bk, p->mhz);
        plan_eval(p, 1, e); /* the figures of the stages kept */
        if (bi < 0)
            break;
        taken++;
    }
    return taken;
}

/* Greedy balancing: grow the slowest stage by the step that saves the most
 * cycles per cost (step_cost of `mode`) until no step fits; p->limit says
 * what stopped it.  save: room for the stages. */
static void grow_slowest(HlsPlan *p, int mode, HlsStage *save, char (*grow)[160], GirError *e)
{
    int step, pass;
    for (step = 0; step < 100000; step++) {
        int si = p->slowest, best_k = -1, k;
        HlsStage *s = &p->stages[si];
        int64_t old = s->cycles;
        double best = -1.0;
        HlsRes oldtot = p->total;
        char bdesc[64] = "", fail[200] = "", c1[32], c2[32];
        if (p->ddr_bound) {
            snprintf(p->limit, sizeof p->limit,
                     "DDR bandwidth: %.2f MB per frame at %.3g GB/s takes %lld cycles > slowest "
                     "stage %lld", (double)p->ddr_bytes / 1e6, p->board.ddr_gbps,
                     (long long)p->ddr_cycles, (long long)p->compute_ii);
            break;
        }
        if (s->pinned) {
            snprintf(p->limit, sizeof p->limit, "it is pinned (--pin %s)", s->node);
            break;
        }
        memcpy(save, p->stages, sizeof *save * (size_t)p->nstage);
        /* single steps; when none fits, two steps at once (a step past a
         * cliff of the memory models: a weight tile that moves to LUTRAM) */
        for (pass = 0; pass < 2 && best_k < 0; pass++)
            for (k = 0; k < (pass ? 16 : 4); k++) {
                char d[64], d2[32], ob[160];
                double score, ddsp;
                if (!apply_step(&p->stages[si], pass ? k / 4 : k, p->mhz, p->pp_max, d, sizeof d))
                    continue;
                if (pass) {
                    if (!apply_step(&p->stages[si], k % 4, p->mhz, p->pp_max, d2, sizeof d2)) {
                        memcpy(p->stages, save, sizeof *save * (size_t)p->nstage);
                        continue;
                    }
                    snprintf(d + strlen(d), sizeof d - strlen(d), ", %s", d2);
                }
                if (plan_eval(p, 1, e) == 0) {
                    if (hls_plan_over_budget(p, ob, sizeof ob)) {
                        if (!fail[0])
                            snprintf(fail, sizeof fail, "next step (%s) exceeds %s", d, ob);
                    } else if (p->stages[si].cycles < old) {
                        ddsp = step_cost(mode, &p->total, &oldtot, &p->budget);
                        if (mode == 3 && k != 0) /* not PE_IC (pass 1: not both) */
                            ddsp *= 2.0; /* mode 3: wider trees before more lanes */
                        score = (double)(old - p->stages[si].cycles) / (ddsp > 1e-6 ? ddsp : 1e-6);
                        if (score > best) {
                            best = score;
                            best_k = pass ? 4 + k : k;
                            snprintf(bdesc, sizeof bdesc, "%s", d);
                        }
                    }
                }
                memcpy(p->stages, save, sizeof *save * (size_t)p->nstage);
            }
        if (best_k < 0) {
            snprintf(p->limit, sizeof p->limit, "%s", fail[0] ? fail :
                     "no larger array shortens it (channel counts or PP limit reached)");
            plan_eval(p, 1, e);
            break;
        }
        if (best_k < 4) {
            apply_step(&p->stages[si], best_k, p->mhz, p->pp_max, c1, sizeof c1);
        } else {
            apply_step(&p->stages[si], (best_k - 4) / 4, p->mhz, p->pp_max, c1, sizeof c1);
            apply_step(&p->stages[si], (best_k - 4) % 4, p->mhz, p->pp_max, c1, sizeof c1);
        }
        plan_eval(p, 1, e);
        mcycles(c1, sizeof c1, old);
        mcycles(c2, sizeof c2, p->stages[si].cycles);
        snprintf(grow[si], sizeof grow[si], "last grown to %s as the slowest stage (%s -> %s)",
                 bdesc, c1, c2);
        p->dse_steps++;
    }
}

/* Grow the slowest stage until stuck, give back what the interval does
 * not need, and grow again while that shortens the interval; a round that
 * does not is undone. */
static void search(HlsPlan *p, int mode, HlsStage *save, char (*grow)[160], GirError *e)
{
    int round;
    HlsStage *keep = malloc(sizeof *keep * (size_t)p->nstage);
    char (*kgrow)[160] = malloc(sizeof *kgrow * (size_t)p->nstage);
    char klimit[sizeof p->limit];
    if (!keep || !kgrow)
        gir_die("out of memory");
    grow_slowest(p, mode, save, grow, e);
    for (round = 1; round < SEARCH_ROUNDS && !p->ddr_bound; round++) {
        int64_t ii = p->interval;
        memcpy(keep, p->stages, sizeof *keep * (size_t)p->nstage);
        memcpy(kgrow, grow, sizeof *kgrow * (size_t)p->nstage);
        memcpy(klimit, p->limit, sizeof klimit);
        if (!shrink_stages(p, save, e))
            break;
        grow_slowest(p, mode, save, grow, e);
        if (p->interval >= ii) {
            /* what was given back bought no shorter interval: keep the
             * larger arrays (a shorter latency) */
            memcpy(p->stages, keep, sizeof *keep * (size_t)p->nstage);
            memcpy(grow, kgrow, sizeof *kgrow * (size_t)p->nstage);
            memcpy(p->limit, klimit, sizeof klimit);
            plan_eval(p, 1, e);
            break;
        }
    }
    free(keep);
    free(kgrow);
}

/* One array a stage may take, for fold_start: its parallelism, cycles
 * alone and resources. */
typedef struct {
    int pe_ic, pe_oc, pp, lanes;
    int64_t cycles;
    HlsRes res;
} FoldCand;

/* Every array stage s may take with PP up to pp_max (the search's steps
 * from its smallest array), weights where they are now; *n gets the count.
 * NULL for a pinned stage.  exact: a conv's cycles with the weight tile
 * the placement gives a layer streaming from DDR and its input's DDR pace
 * for each array (else the tile and pace of s as it stands). */
static FoldCand *fold_cands(HlsPlan *p, const HlsStage *s0, int pp_max, int exact, int *n)
{
    HlsStage s = *s0;
    FoldCand *c;
    int ic, oc, pp, ln, cap, nic = 1, noc = 1, k = 0;
    *n = 0;
    if (s.pinned)
        return NULL;
    if (is_conv(&s)) {
        for (ic = 4; ic < hls_pow2ceil(s.cin); ic *= 2)
            nic++;
        for (oc = 1; oc < hls_pow2ceil(s.cout); oc *= 2)
            noc++;
        cap = nic * noc * HLS_PP_MAX;
    } else {
        cap = 16;
    }
    c = calloc((size_t)cap, sizeof *c);
    if (!c)
        gir_die("out of memory");
    if (is_conv(&s)) {
        int oc0 = s.cout >= 2 ? 2 : 1;
        for (ic = 4; ic == 4 || ic <= hls_pow2ceil(s.cin); ic *= 2)
            for (oc = oc0; oc == oc0 || oc <= hls_pow2ceil(s.cout); oc *= 2)
                for (pp = 1; pp <= pp_max && k < cap; pp = pp_next(pp)) {
                    int64_t kki = s.k * s.k * hls_cdiv(s.cin, ic);
                    if (pp > 1 && (kki < pp || s.ow < pp))
                        break;
                    s.pe_ic = ic, s.pe_oc = oc, s.pp = pp;
                    s.pack = oc % 2 == 0 ? 2 : 1;
                    set_pipeline(&s, p->mhz);
                    if (exact && s.whome == HLS_W_DDR) /* the tile placement gives it */
                        s.tog = ddr_tog(&s);
                    if (exact)
                        s.ipace = input_pace(p, &s);
                    if (stage_eval(p, &s) < 0)
                        continue;
                    c[k].pe_ic = ic, c[k].pe_oc = oc, c[k].pp = pp, c[k].lanes = s.lanes;
                    c[k].cycles = s.cycles;
                    c[k++].res = s.res;
                }
    } else {
        for (ln = 2; (ln == 2 || ln <= lane_cap(&s)) && k < cap; ln *= 2) {
            s.lanes = ln;
            if (stage_eval(p, &s) < 0)
                continue;
            c[k].lanes = ln;
            c[k].cycles = s.cycles;
            c[k++].res = s.res;
        }
    }
    *n = k;
    return c;
}

/* Give stage s the array of candidate c. */
static void take_cand(HlsPlan *p, HlsStage *s, const FoldCand *c)
{
    if (is_conv(s)) {
        s->pe_ic = c->pe_ic, s->pe_oc = c->pe_oc, s->pp = c->pp;
        s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
        set_pipeline(s, p->mhz);
    } else {
        s->lanes = c->lanes;
    }
}

/* Set stage s to its cheapest candidate whose cycles stay within t (the
 * fastest when none does); a candidate costs the sum over resources of its
 * share of the budget, each at the price w[r]. */
static void fold_stage(HlsPlan *p, HlsStage *s, const FoldCand *c, int n, int64_t t,
                       const double *w)
{
    int j, r, best = -1;
    double best_cost = 0.0;
    for (j = 0; j < n; j++) {
        double cost = 0.0;
        for (r = 0; r < 5; r++)
            if (res_at(&p->budget, r) > 0)
                cost += w[r] * res_at(&c[j].res, r) / res_at(&p->budget, r);
        if (best < 0 || (c[j].cycles <= t && (c[best].cycles > t || cost < best_cost)) ||
            (c[best].cycles > t && c[j].cycles < c[best].cycles)) {
            best = j;
            best_cost = cost;
        }
    }
    if (best >= 0)
        take_cand(p, s, &c[best]);
}

/* A plan that breaks a budget after a layer moved its weights on chip:
 * other convs (not `keep`, not pinned, weights where they were when their
 * candidate lists c were made) take arrays of no more cycles than the
 * interval ii that need less of what is broken, each step the array that
 * frees the most of the broken resources (as shares of the excess) for the
 * least share of what is left of the others, and breaks none of them; until
 * the plan fits within ii, at most RESHAPE_STEPS steps.  1 when it fits
 * (the stages changed), 0 when not (the stages may have changed too). */
static int reshape_fit(HlsPlan *p, int keep, int64_t ii, FoldCand **c, const int *nc,
                       const HlsWeightHome *home, GirError *e)
{
    char ob[160];
    int step;
    for (step = 0; step <= RESHAPE_STEPS; step++) {
        double over[5], room[5], best_score = 0.0;
        int r, i, j, bi = -1, bj = -1;
        if (plan_eval(p, 0, e) != 0)
            return 0;
        if (!hls_plan_over_budget(p, ob, sizeof ob))
            return p->interval <= ii;
        if (step == RESHAPE_STEPS)
            return 0;
        for (r = 0; r < 5; r++) {
            over[r] = res_at(&p->total, r) - res_at(&p->budget, r);
            room[r] = -over[r];
        }
        for (i = 0; i < p->nstage; i++) {
            const HlsStage *s = &p->stages[i];
            if (i == keep || !is_conv(s) || s->pinned || !c[i] || s->whome != home[i])
                continue;
            for (j = 0; j < nc[i]; j++) {
                double gain = 0.0, cost = 0.0, score;
                int ok = c[i][j].cycles <= ii;
                for (r = 0; r < 5 && ok; r++) {
                    double d = res_at(&c[i][j].res, r) - res_at(&s->res, r);
                    if (res_at(&p->budget, r) <= 0)
                        continue;
                    if (over[r] > 1e-9)
                        gain += (d < 0 ? (-d < over[r] ? -d : over[r]) : -d) / over[r];
                    else if (d > room[r] + 1e-9)
                        ok = 0;
                    else if (d > 0)
                        cost += d / res_at(&p->budget, r);
                }
                score = gain / (1.0 + 10.0 * cost);
                if (ok && gain > 1e-9 && (bi < 0 || score > best_score)) {
                    bi = i, bj = j;
                    best_score = score;
                }
            }
        }
        if (bi < 0)
            return 0;
        take_cand(p, &p->stages[bi], &c[bi][bj]);
        if (p->stages[bi].whome == HLS_W_DDR)
            p->stages[bi].tog = ddr_tog(&p->stages[bi]);
    }
    return 0;
}

/* Move conv `i`'s weights from DDR on chip (block RAM, else URAM), and
 * when o >= 0 conv o's from chip to DDR in its tiles (a swap: the weights
 * of a layer whose wait costs less latency make room), if need be with
 * other convs reshaped (reshape_fit), so that the budgets hold and the
 * interval stays within ii: 1 when it fits (the plan so changed), else 0
 * with the stages of save back. */
static int reclaim_one(HlsPlan *p, int i, int o, int64_t ii, const HlsStage *save,
                       FoldCand **c, const int *nc, const HlsWeightHome *home, GirError *e)
{
    char ob[160];
    int h;
    for (h = 0; h < 4; h++) {
        p->stages[i].whome = h % 2 == 0 ? HLS_W_BRAM : HLS_W_URAM;
        p->stages[i].tog = 0;
        if (o >= 0) {
            p->stages[o].whome = HLS_W_DDR;
            p->stages[o].tog = ddr_tog(&p->stages[o]);
        }
        if (h < 2 ? plan_eval(p, 0, e) == 0 && !p->ddr_bound &&
                        !hls_plan_over_budget(p, ob, sizeof ob) && p->interval <= ii
                  : reshape_fit(p, i, ii, c, nc, home, e) && !p->ddr_bound)
            return 1;
        memcpy(p->stages, save, sizeof *save * (size_t)p->nstage);
    }
    plan_eval(p, 0, e);
    return 0;
}

/* The largest growth from a to b of any resource, as a share of a's use. */
static double max_growth(const HlsRes *b, const HlsRes *a)
{
    double g = 0.0;
    int r;
    for (r = 0; r < 5; r++)
        if (res_at(b, r) > res_at(a, r))
            g = fmax(g, (res_at(b, r) - res_at(a, r)) / fmax(res_at(a, r), 1.0));
    return g;
}

/* Whether a change from latency lat0 with resources r0 to lat with r pays:
 * it shortens the latency by a larger share than it grows any resource (so
 * the DSP efficiency falls by less than the latency). */
static int latency_pays(int64_t lat0, const HlsRes *r0, int64_t lat, const HlsRes *r)
{
    return (double)(lat0 - lat) / (double)lat0 > max_growth(r, r0);
}

/* After the search: layers whose weights stream from DDR move back on chip
 * where the budgets take them, if need be with other convs reshaped to
 * arrays of no more cycles that need less of what they take, and the
 * interval does not grow; with swaps, or trade places with a layer on chip
 * whose weights then stream instead (each such layer waits for its
 * producer's whole frame in DDR, and where it sits sets how long the chain
 * after it waits).  Each round the move that shortens the latency most,
 * then the smallest weight set brought on chip; a lone move that lengthens
 * the latency is not made, and a swap only where latency_pays.  Fewer
 * passes over DDR, fewer DMA channels.  save: room for the stages. */
static void reclaim_weights(HlsPlan *p, int swaps, HlsStage *save, GirError *e)
{
    HlsStage *keep = malloc(sizeof *keep * (size_t)p->nstage);
    FoldCand **c = calloc((size_t)p->nstage, sizeof *c);
    int *nc = calloc((size_t)p->nstage, sizeof *nc);
    HlsWeightHome *home = calloc((size_t)p->nstage, sizeof *home);
    int i, o, round;
    if (!keep || !c || !nc || !home)
        gir_die("out of memory");
    /* the arrays each conv may take, with its weights where they are now */
    for (i = 0; i < p->nstage; i++) {
        home[i] = p->stages[i].whome;
        if (is_conv(&p->stages[i]))
            c[i] = fold_cands(p, &p->stages[i], p->pp_max, 1, &nc[i]);
    }
    for (round = 0; round < RECLAIM_ROUNDS; round++) {
        int best = -1, best_swap = -1;
        int64_t ii = p->interval, lat0 = p->latency, best_lat = INT64_MAX;
        HlsRes used = p->total;
        memcpy(save, p->stages, sizeof *save * (size_t)p->nstage);
        for (i = 0; i < p->nstage; i++) {
            const HlsStage *s = &save[i];
            if (!is_conv(s) || s->whome != HLS_W_DDR)
                continue;
            /* o = -1: alone; else swapped with the on-chip conv o */
            for (o = -1; o < (swaps ? p->nstage : 0); o++) {
                if (o >= 0 && (!is_conv(&save[o]) || save[o].whome == HLS_W_DDR ||
                               save[o].weight_bytes <= 0))
                    continue;
                if (reclaim_one(p, i, o, ii, save, c, nc, home, e) &&
                    (o < 0 || latency_pays(lat0, &used, p->latency, &p->total)) &&
                    (p->latency < best_lat ||
                     (p->latency == best_lat &&
                      (best < 0 || s->weight_bytes < save[best].weight_bytes)))) {
                    best = i;
                    best_swap = o;
                    best_lat = p->latency;
                    memcpy(keep, p->stages, sizeof *keep * (size_t)p->nstage);
                }
                memcpy(p->stages, save, sizeof *save * (size_t)p->nstage);
            }
        }
        if (best >= 0 && (best_lat < lat0 || (best_lat == lat0 && best_swap < 0))) {
            memcpy(p->stages, keep, sizeof *keep * (size_t)p->nstage);
            p->stages[best].wswap = best_swap >= 0 ? best_swap + 1 : 0;
            if (best_swap >= 0) {
                HlsStage *a = &p->stages[best], *b = &p->stages[best_swap];
                b->wswap = -(best + 1);
                a->wswap_tog = save[best].tog;
                a->wswap_lat[0] = b->wswap_lat[0] = lat0;
                a->wswap_lat[1] = b->wswap_lat[1] = best_lat;
            }
        }
        plan_eval(p, 0, e);
        if (best < 0 || best_lat > lat0 || (best_lat == lat0 && best_swap >= 0))
            break;
    }
    for (i = 0; i < p->nstage; i++)
        free(c[i]);
    free(c);
    free(nc);
    free(home);
    free(keep);
}

/* The size of step k's parameter of stage s, as "PE_IC 16". */
static void step_desc(const HlsStage *s, int k, char *desc, size_t n)
{
    static const char *const name[] = {"PE_IC", "PE_OC", "PP", "LANES"};
    int v[] = {s->pe_ic, s->pe_oc, s->pp, s->lanes};
    snprintf(desc, n, "%s %d", name[k], v[k]);
}

/* After the weights' placement: grow steps that keep the interval, fit the
 * budgets and pay for themselves in latency (latency_pays), the largest
 * saving per share of the budgets first, until none is left.  A step that
 * breaks a budget may be paired with a step down of another stage (a
 * trade) that brings the plan back within the budgets at the same
 * interval, if the pair still pays.  The give-back trims by the interval
 * alone, and what the interval does not need may still shorten a chain of
 * layers that wait for whole frames.  The weights stay where they are; a
 * DDR layer's tiles are refitted to its new array.  save: room for the
 * stages. */
static void shorten_latency(HlsPlan *p, HlsStage *save, char (*grow)[160], GirError *e)
{
    const HlsRes zero = {0};
    size_t n = (size_t)p->nstage;
    HlsStage *grown = malloc(sizeof *grown * n);
    if (!grown)
        gir_die("out of memory");
    for (;;) {
        int i, k, j, kk, bi = -1, bk = -1, bj = -1, bkk = -1;
        int64_t ii = p->interval, lat = p->latency, best_lat = 0;
        double share = budget_share(&p->total, &zero, &p->budget), best = 0.0;
        HlsRes used = p->total;
        char ob[160], d[64], dj[64];
        memcpy(save, p->stages, sizeof *save * n);
        for (i = 0; i < p->nstage; i++)
            for (k = 0; k < 4; k++) {
                HlsStage *s = &p->stages[i];
                int over;
                if (s->pinned || !apply_step(s, k, p->mhz, p->pp_max, d, sizeof d))
                    continue;
                if (s->whome == HLS_W_DDR)
                    s->tog = ddr_tog(s);
                if (plan_eval(p, 0, e) != 0 || p->ddr_bound || p->interval > ii ||
                    !latency_pays(lat, &used, p->latency, &p->total)) {
                    memcpy(p->stages, save, sizeof *save * n);
                    continue;
                }
                over = hls_plan_over_budget(p, ob, sizeof ob) != NULL;
                memcpy(grown, p->stages, sizeof *grown * n);
                /* j = -1: the step alone; else with stage j a step down */
                for (j = -1; j < (over ? p->nstage : 0); j++)
                    for (kk = 0; kk < (j < 0 ? 1 : 4); kk++) {
                        HlsStage *t = j < 0 ? NULL : &p->stages[j];
                        double cost, score;
                        if (t && (j == i || t->pinned || !undo_step(t, kk, p->mhz)))
                            continue;
                        if (t && t->whome == HLS_W_DDR)
                            t->tog = ddr_tog(t);
                        if (t && (plan_eval(p, 0, e) != 0 || p->ddr_bound ||
                                  p->interval > ii ||
                                  !latency_pays(lat, &used, p->latency, &p->total))) {
                            memcpy(p->stages, grown, sizeof *grown * n);
                            continue;
                        }
                        cost = budget_share(&p->total, &zero, &p->budget) - share;
                        score = (double)(lat - p->latency) / (cost > 1e-6 ? cost : 1e-6);
                        if ((t || !over) && !(t && hls_plan_over_budget(p, ob, sizeof ob)) &&
                            score > best) {
                            best = score;
                            bi = i;
                            bk = k;
                            bj = j;
                            bkk = kk;
                            best_lat = p->latency;
                        }
                        memcpy(p->stages, grown, sizeof *grown * n);
                    }
                memcpy(p->stages, save, sizeof *save * n);
            }
        if (bi < 0) {
            plan_eval(p, 0, e);
            break;
        }
        apply_step(&p->stages[bi], bk, p->mhz, p->pp_max, d, sizeof d);
        if (p->stages[bi].whome == HLS_W_DDR)
            p->stages[bi].tog = ddr_tog(&p->stages[bi]);
        dj[0] = '\0';
        if (bj >= 0) {
            HlsStage *t = &p->stages[bj];
            undo_step(t, bkk, p->mhz);
            if (t->whome == HLS_W_DDR)
                t->tog = ddr_tog(t);
            step_desc(t, bkk, dj, sizeof dj);
            snprintf(grow[bj], sizeof grow[bj], "trimmed to %s to make room for %s's growth "
                     "(latency %lld -> %lld cycles at the same interval)", dj,
                     p->stages[bi].node, (long long)lat, (long long)best_lat);
        }
        plan_eval(p, 0, e);
        snprintf(grow[bi], sizeof grow[bi], "grown to %s to shorten the latency (%lld -> %lld "
                 "cycles) at the same interval%s%s%s", d, (long long)lat, (long long)best_lat,
                 bj >= 0 ? ", with " : "", bj >= 0 ? p->stages[bj].node : "",
                 bj >= 0 ? " trimmed to make room" : "");
        p->dse_steps++;
    }
    free(grown);
}

/* The weights' move back on chip and shorten_latency, once with lone
 * moves only and once with swaps too: the plan with swaps is kept where
 * its latency pays for it against the lone plan (latency_pays; a
 * swap's reshaped arrays can leave shorten_latency a path to a plan hardly
 * shorter but larger).  save: room for the stages; grow: the reasons. */
static void finish_latency(HlsPlan *p, HlsStage *save, char (*grow)[160], GirError *e)
{
    size_t n = (size_t)p->nstage;
    HlsStage *from = malloc(sizeof *from * n), *lone = malloc(sizeof *lone * n);
    char (*from_grow)[160] = malloc(sizeof *from_grow * n);
    char (*lone_grow)[160] = malloc(sizeof *lone_grow * n);
    int64_t lone_lat;
    HlsRes lone_res;
    if (!from || !lone || !from_grow || !lone_grow)
        gir_die("out of memory");
    memcpy(from, p->stages, sizeof *from * n);
    memcpy(from_grow, grow, sizeof *from_grow * n);
    reclaim_weights(p, 0, save, e);
    shorten_latency(p, save, grow, e);
    lone_lat = p->latency;
    lone_res = p->total;
    memcpy(lone, p->stages, sizeof *lone * n);
    memcpy(lone_grow, grow, sizeof *lone_grow * n);
    memcpy(p->stages, from, sizeof *from * n);
    memcpy(grow, from_grow, sizeof *from_grow * n);
    plan_eval(p, 0, e);
    reclaim_weights(p, 1, save, e);
    shorten_latency(p, save, grow, e);
    if (!latency_pays(lone_lat, &lone_res, p->latency, &p->total)) {
        memcpy(p->stages, lone, sizeof *lone * n);
        memcpy(grow, lone_grow, sizeof *lone_grow * n);
        plan_eval(p, 0, e);
    }
    free(from);
    free(lone);
    free(from_grow);
    free(lone_grow);
}

/* Whether some choice of every stage's cheapest array within target t
 * fits: the resources start at one price; while the plan breaks a budget,
 * the broken resources' prices double, and while the weight placement
 * slows a stage past the target (weights sent to DDR for want of on-chip
 * memory), block RAM's and URAM's do; FOLD_PRICE_ROUNDS rounds at most.
 * The stages trade a scarce resource for one that is left.  Unpriced: one
 * round at one price, and a plan that fits is taken however slow.  The
 * plan's stages are the last choice tried. */
static int fold_fits(HlsPlan *p, const HlsStage *init, FoldCand **c, const int *nc, int64_t t,
                     int priced, GirError *e)
{
    double w[5] = {1.0, 1.0, 1.0, 1.0, 1.0};
    int round, i, r, slow;
    char ob[160];
    for (round = 0; round < (priced ? FOLD_PRICE_ROUNDS : 1); round++) {
        memcpy(p->stages, init, sizeof *init * (size_t)p->nstage);
        for (i = 0; i < p->nstage; i++)
            fold_stage(p, &p->stages[i], c[i], nc[i], t, w);
        if (plan_eval(p, 1, e) != 0 || p->ddr_bound)
            return 0;
        for (slow = 0, i = 0; priced && i < p->nstage; i++)
            slow |= p->stages[i].cycles > t + t / FOLD_SLACK;
        if (hls_plan_over_budget(p, ob, sizeof ob)) {
            for (r = 0; r < 5; r++)
                if (res_at(&p->total, r) > res_at(&p->budget, r) + 1e-9)
                    w[r] *= 2.0;
        } else if (slow) {
            w[1] *= 2.0, w[2] *= 2.0;
        } else {
            return 1;
        }
    }
    return 0;
}

/* A start for the search from a target interval (folding): every stage
 * takes the cheapest array whose cycles stay within the target
 * (fold_fits), and bisection finds the shortest target whose plan fits
 * the budgets.  Where powers of two make the greedy's steps overshoot,
 * this spends the budget where the interval needs it.  fold gets the
 * stages (those of init when no target fits).  exact as fold_cands,
 * priced as fold_fits. */
static void fold_start(HlsPlan *p, const HlsStage *init, int pp_max, int exact, int priced,
                       HlsStage *fold, GirError *e)
{
    FoldCand **c = calloc((size_t)p->nstage, sizeof *c);
    int *nc = calloc((size_t)p->nstage, sizeof *nc);
    int64_t lo = 1, hi, t, best_ii = -1;
    int i;
    if (!c || !nc)
        gir_die("out of memory");
    memcpy(p->stages, init, sizeof *init * (size_t)p->nstage);
    memcpy(fold, init, sizeof *init * (size_t)p->nstage);
    plan_eval(p, 1, e);
    hi = p->interval;
    for (i = 0; i < p->nstage; i++)
        c[i] = fold_cands(p, &p->stages[i], pp_max, exact, &nc[i]);
    while (lo < hi) {
        int ok;
        t = lo + (hi - lo) / 2;
        ok = fold_fits(p, init, c, nc, t, priced, e);
        /* priced: the fastest plan met; unpriced: the one of the shortest
         * target that fits, however slow its placement made it (a large
         * design that the search's give-back then trims) */
        if (ok && (!priced || best_ii < 0 || p->interval < best_ii)) {
            memcpy(fold, p->stages, sizeof *fold * (size_t)p->nstage);
            best_ii = p->interval;
        }
        if (ok)
            hi = t;
        else
            lo = t + 1;
    }
    for (i = 0; i < p->nstage; i++)
        free(c[i]);
    free(c);
    free(nc);
}

/* Search run `run`: step cost run % SEARCH_MODES; from the stages `init`
 * (the smallest design) with PP up to 2 in the first SEARCH_MODES runs when
 * --pp-max is larger, then up to it; the last FOLD_STARTS x SEARCH_MODES
 * runs from the folded starts, FOLD_STARTS x nstage stages in `fold`
 * (fold_start).  Leaves the plan, its grow reasons and step count. */
static void search_run(HlsPlan *p, int run, int user_pp, const HlsStage *init,
                       const HlsStage *fold, HlsStage *save, char (*grow)[160], GirError *e)
{
    int greedy = SEARCH_MODES * (user_pp > 2 ? 2 : 1);
    const HlsStage *from =
        run < greedy ? init : fold + (size_t)((run - greedy) / SEARCH_MODES) * (size_t)p->nstage;
    memset(grow, 0, sizeof *grow * (size_t)p->nstage);
    p->dse_steps = 0;
    p->pp_max = run < SEARCH_MODES && user_pp > 2 ? 2 : user_pp;
    memcpy(p->stages, from, sizeof *init * (size_t)p->nstage);
    plan_eval(p, 1, e);
    search(p, run % SEARCH_MODES, save, grow, e);
}

HlsPlan *hls_plan_build(const GirGraph *g, const HlsBoard *b, const HlsPlanOptions *o,
                        GirError *e)
{
    HlsPlanOptions dflt = {0};
    HlsPlan *p;
    HlsStage *save, *init, *fold;
    char (*grow)[160];
    char over[160];
    const HlsRes zero = {0};
    int i, j, run, runs, best_run = 0, user_pp;
    int64_t best_ii = 0, best_lat = 0;
    double best_share = 0.0;
    if (!o)
        o = &dflt;
    p = hls_plan_new(g, b, o->mhz, e);
    if (!p)
        return NULL;
    p->pp_max = o->pp_max > 0 ? (o->pp_max < HLS_PP_MAX ? o->pp_max : HLS_PP_MAX) : SEARCH_PP_MAX;
    for (j = 0; j < o->npins; j++) {
        const HlsPin *pin = &o->pins[j];
        HlsStage *s = NULL;
        for (i = 0; i < p->nstage; i++)
            if (!strcmp(p->stages[i].node, pin->node))
                s = &p->stages[i];
        if (!s || !is_conv(s)) {
            gir_error_at(e, gir_loc_none(), "--pin %s: no conv layer '%s' on the FPGA", pin->node,
                         pin->node);
            hls_plan_free(p);
            return NULL;
        }
        s->pe_oc = pin->pe_oc;
        s->pe_ic = pin->pe_ic;
        s->pp = pin->pp;
        s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
        s->pinned = 1;
        set_pipeline(s, p->mhz);
    }
    if (plan_eval(p, 1, e) < 0) {
        hls_plan_free(p);
        return NULL;
    }
    if (hls_plan_over_budget(p, over, sizeof over)) {
        gir_error_at(e, gir_loc_none(),
                     "plan: %s does not fit %s: the smallest design (weights from DDR where "
                     "on-chip memory is short) exceeds %s",
                     p->model, p->board.name, over);
        hls_plan_free(p);
        return NULL;
    }
    save = malloc(sizeof *save * (size_t)p->nstage);
    init = malloc(sizeof *init * (size_t)p->nstage);
    fold = malloc(sizeof *fold * (size_t)p->nstage * FOLD_STARTS);
    grow = calloc((size_t)p->nstage, sizeof *grow);
    if (!save || !init || !fold || !grow)
        gir_die("out of memory");
    /* the greedy search from the smallest design and the folded starts
     * under each step cost; the plan with the shortest interval (then
     * latency, then the smallest share of the budgets) is the one kept,
     * searched once more to leave its reasons */
    memcpy(init, p->stages, sizeof *init * (size_t)p->nstage);
    user_pp = p->pp_max;
    /* the folded starts: every resource at one price; priced; priced with
     * the candidates' exact DDR tiles and pace (each finds plans the others
     * miss: KV260, ZCU104) */
    for (i = 0; i < FOLD_STARTS; i++)
        fold_start(p, init, user_pp, i == 2, i > 0, fold + (size_t)i * (size_t)p->nstage, e);
    /* from the smallest design each step cost with PP up to 2; with a larger
     * --pp-max each again with PP up to it (a larger limit changes the greedy
     * path: the smaller one's plan is kept where it is better) */
    runs = SEARCH_MODES * ((user_pp > 2 ? 2 : 1) + FOLD_STARTS);
    for (run = 0; run < runs; run++) {
        double share;
        search_run(p, run, user_pp, init, fold, save, grow, e);
        share = budget_share(&p->total, &zero, &p->budget);
        if (run == 0 || p->interval < best_ii ||
            (p->interval == best_ii && (p->latency < best_lat ||
                                        (p->latency == best_lat && share < best_share)))) {
            best_lat = p->latency;
            best_run = run;
            best_ii = p->interval;
            best_share = share;
        }
    }
    if (best_run != runs - 1)
        search_run(p, best_run, user_pp, init, fold, save, grow, e);
    p->pp_max = user_pp;
    free(init);
    free(fold);
    if (!p->ddr_bound)
        finish_latency(p, save, grow, e);
    /* the infrastructure counts the channels of skip tensors the previous
     * evaluation sent to DDR: once more so the figures are this plan's own
     * (what a replay computes) */
    plan_eval(p, 0, e);
    finish_reasons(p, grow);
    free(save);
    free(grow);
    return p;
}

int hls_plan_reeval(HlsPlan *p, GirError *e)
{
    char c1[32];
    /* twice: the second counts the DDR skip channels the first decided */
    if (plan_eval(p, 0, e) < 0 || plan_eval(p, 0, e) < 0)
        return -1;
    mcycles(c1, sizeof c1, p->compute_ii);
    if (p->ddr_bound)
        snprintf(p->limit, sizeof p->limit, "DDR bandwidth: %.2f MB per frame at %.3g GB/s",
                 (double)p->ddr_bytes / 1e6, p->board.ddr_gbps);
    else
        snprintf(p->limit, sizeof p->limit, "replayed plan: %s is the slowest stage at %s",
                 p->stages[p->slowest].node, c1);
    finish_reasons(p, NULL);
    return 0;
}

int hls_pin_parse(const char *arg, HlsPin *pin, GirError *e)
{
    const char *eq = strchr(arg, '=');
    int a, b, c, n = 0;
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof pin->node ||
        sscanf(eq + 1, "%dx%dx%d%n", &a, &b, &c, &n) != 3 || eq[1 + n] != 0)
        return gir_error_at(e, gir_loc_none(),
                            "--pin %s: expected NODE=PE_OCxPE_ICxPP, e.g. conv12=16x32x2", arg);
    if (a < 1 || b < 4 || c < 1 || c > HLS_PP_MAX || (a & (a - 1)) || (b & (b - 1)))
        return gir_error_at(e, gir_loc_none(),
                            "--pin %s: PE_OC a power of two, PE_IC a power of two >= 4, PP 1 to 8",
                            arg);
    memcpy(pin->node, arg, (size_t)(eq - arg));
    pin->node[eq - arg] = 0;
    pin->pe_oc = a;
    pin->pe_ic = b;
    pin->pp = c;
    return 0;
}
