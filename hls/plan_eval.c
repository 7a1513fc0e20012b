/*
 * hls/plan_eval.c: the figures of a plan as its choices stand.  Each
 * stage's engine parameters from its shape, parallelism and weight home,
 * its cycles and resources from the descriptor (memoised: the search asks
 * for the same shapes again and again), then the whole plan: the weight
 * and FIFO placement (hls/plan_place.c), DDR traffic, the interval, the
 * resources against the budgets, and the timing model's latency
 * (hls/timing.c).  Entry point: hls_plan_eval.
 *
 * Needs the stages partitioned with their descriptors set (hls_plan_new)
 * and an array chosen for each; changes nothing but the figures, the
 * stages' parameters and the placement it is asked for.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/chan.h"
#include "hls/hw.h"
#include "hls/plan_int.h"
#include "hls/res_util.h"

#define FRAC_DSP 0.90  /* headroom: share of each resource a plan may use */
#define FRAC_BRAM 0.90
#define FRAC_URAM 0.90
#define FRAC_LUT 0.75
#define FRAC_FF 0.90
#define RQS_MAX 16 /* most results per requant lane, any divisor of PP*PE_OC (kiln_conv
                    * benches: RQS 2, 4, 8, 10 at PP 5, 14 at PP 7; kiln_tsconv
                    * tsconv_rqs16) */

/* Set a parameter the planner must know; a descriptor without it is the
 * compiler's own inconsistency. */
void hls_param_put(HlsParamSink *k, const char *name, int64_t v)
{
    int i = hls_param_index_from(k->names, name, k->next);
    if (i < 0)
        gir_die("hls: engine %s has no parameter '%s'", k->d->name, name);
    k->arr[i] = v;
    k->next = i + 1;
}

int64_t hls_rq_share(int64_t results, int64_t kki)
{
    int64_t r, best = 1;
    for (r = 2; r <= results && r <= kki && r <= RQS_MAX; r++)
        if (results % r == 0)
            best = r;
    return best;
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

static int weight_tiles(const HlsStage *s);

/* kiln_conv DSP2X of a conv under the plan's clk2x: a replayed mode where
 * it applies, else pixel pairs (2) with an even PP, lane pairs (1) with an
 * even PE_IC; hls_stage_eval takes lane pairs where both apply and they
 * cost fewer LUT. */
static int conv_dsp2x(const HlsStage *s)
{
    if (!s->clk2x)
        return 0;
    if (s->dsp2x_pin == 2 && s->pp % 2 == 0)
        return 2;
    if (s->dsp2x_pin == 1 && s->pe_ic % 2 == 0)
        return 1;
    return s->pp % 2 == 0 ? 2 : s->pe_ic % 2 == 0 ? 1 : 0;
}

/* Fill hw[] and rt[] of a stage from its shape and choices. */
static void stage_params(HlsStage *s)
{
    HlsParamSink hw = {s->desc, s->desc->hw_params, s->hw, 0};
    HlsParamSink rt = {s->desc, s->desc->rt_params, s->rt, 0};
    int i;
    for (i = 0; i < HLS_PLAN_MAX_PARAMS; i++)
        s->hw[i] = 1, s->rt[i] = 0;
    switch (s->kind) {
    case HLS_ST_CONV: {
        int64_t icg = hls_cdiv(s->cin, s->pe_ic), ocg = hls_cdiv(s->cout, s->pe_oc);
        int64_t kki = s->k * s->k * icg;
        int64_t tog = s->whome == HLS_W_DDR ? s->tog : 0;
        hls_param_put(&hw, "PE_IC", s->pe_ic);
        hls_param_put(&hw, "PE_OC", s->pe_oc);
        hls_param_put(&hw, "PP", s->pp);
        hls_param_put(&hw, "KMAX", s->k);
        hls_param_put(&hw, "WMAX", s->w);
        hls_param_put(&hw, "CIMAX", s->cin);
        hls_param_put(&hw, "COMAX", s->cout);
        hls_param_put(&hw, "WDEPTH", conv_wdepth(s));
        hls_param_put(&hw, "WBANKS", s->whome == HLS_W_DDR ? 2 : 1);
        hls_param_put(&hw, "PIPE", s->pipe);
        hls_param_put(&hw, "RQ_PIPE", s->rq_pipe);
        hls_param_put(&hw, "PACK", s->pack);
        hls_param_put(&hw, "TOGMAX", tog > 0 ? tog : ocg);
        hls_param_put(&hw, "WURAM", s->whome == HLS_W_URAM);
        s->rqs = (int)hls_rq_share((int64_t)s->pp * s->pe_oc, kki);
        hls_param_put(&hw, "RQS", s->rqs);
        s->span = pixel_span(s);
        hls_param_put(&hw, "SPAN", s->span);
        hls_param_put(&hw, "QLO", s->qlo);
        hls_param_put(&hw, "QHI", s->qhi);
        /* bands only while the weights stream in several tiles */
        if (!weight_tiles(s))
            s->band = s->lbrows = 0;
        hls_param_put(&hw, "BANDMAX", s->band);
        hls_param_put(&hw, "LBROWS", hls_band_lbrows(s));
        s->dsp2x = conv_dsp2x(s);
        hls_param_put(&hw, "DSP2X", s->dsp2x);
        hls_param_put(&hw, "LBURAM", s->lburam); /* line buffers in URAM where BRAM is short */
        hls_param_put(&hw, "CASC", 0); /* LUT adder trees (kiln_dsp_chain: not planned yet) */
        hls_param_put(&hw, "WBMERGE", 0); /* a memory a weight bank (the shared engine's merge) */
        hls_param_put(&hw, "LBBANK", 0); /* PP copies of the line buffer (the shared engine's may bank it) */
        hls_param_put(&hw, "RQ_DSP", s->rq_dsp == 1 ? 1 : 2);
        hls_param_put(&rt, "h", s->h);
        hls_param_put(&rt, "w", s->w);
        hls_param_put(&rt, "cin", s->cin);
        hls_param_put(&rt, "cout", s->cout);
        hls_param_put(&rt, "k", s->k);
        hls_param_put(&rt, "stride", s->stride);
        hls_param_put(&rt, "pad", s->pad);
        hls_param_put(&rt, "tog", tog);
        hls_param_put(&rt, "ipace", s->ipace > 1 ? s->ipace : 1);
        hls_param_put(&rt, "wpace", s->whome == HLS_W_DDR ? hls_ddr_pace(s->pe_ic) : 1);
        hls_param_put(&rt, "band", s->band);
        /* in bands the input streams once a frame */
        s->npass = tog > 0 && !s->band ? hls_cdiv(ocg, tog) : 1;
        break;
    }
    case HLS_ST_DWCONV:
        hls_param_put(&hw, "LANES", s->lanes);
        hls_param_put(&hw, "KMAX", s->k);
        hls_param_put(&hw, "WMAX", s->w);
        hls_param_put(&hw, "CMAX", s->cin);
        hls_param_put(&hw, "RQ_PIPE", s->rq_pipe);
        hls_param_put(&hw, "QLO", s->qlo);
        hls_param_put(&hw, "QHI", s->qhi);
        hls_param_put(&hw, "LBURAM", s->lburam);
        hls_param_put(&hw, "RQ_DSP", s->rq_dsp == 1 ? 1 : 2);
        hls_param_put(&rt, "h", s->h);
        hls_param_put(&rt, "w", s->w);
        hls_param_put(&rt, "c", s->cin);
        hls_param_put(&rt, "k", s->k);
        hls_param_put(&rt, "stride", s->stride);
        hls_param_put(&rt, "pad", s->pad);
        s->npass = 1;
        break;
    case HLS_ST_MAXPOOL: {
        int64_t cg = hls_cdiv(s->cin, s->lanes);
        hls_param_put(&hw, "LANES", s->lanes);
        hls_param_put(&hw, "K_MAX", s->k);
        hls_param_put(&hw, "CG_MAX", cg);
        hls_param_put(&hw, "ROW_MAX", s->w * cg);
        hls_param_put(&hw, "PIPE", s->pipe);
        hls_param_put(&rt, "h", s->h);
        hls_param_put(&rt, "w", s->w);
        hls_param_put(&rt, "cg", cg);
        hls_param_put(&rt, "k", s->k);
        hls_param_put(&rt, "s", s->stride);
        /* the engine's pad is the top/left one, 0 here: the planner takes
         * pools padded at the bottom/right only (s->pad), which oh/ow carry */
        hls_param_put(&rt, "pad", 0);
        hls_param_put(&rt, "oh", s->oh);
        hls_param_put(&rt, "ow", s->ow);
        s->npass = 1;
        break;
    }
    case HLS_ST_UPSAMPLE: {
        int64_t cg = hls_cdiv(s->cin, s->lanes);
        hls_param_put(&hw, "LANES", s->lanes);
        hls_param_put(&hw, "ROW_MAX", s->w * cg);
        hls_param_put(&rt, "h", s->h);
        hls_param_put(&rt, "w", s->w);
        hls_param_put(&rt, "cg", cg);
        hls_param_put(&rt, "f", s->k);
        s->npass = 1;
        break;
    }
    case HLS_ST_CONCAT:
        hls_param_put(&hw, "LANES", s->lanes);
        hls_param_put(&rt, "pixels", s->h * s->w);
        hls_param_put(&rt, "ca", s->cin);
        hls_param_put(&rt, "cb", s->cin2);
        s->npass = 1;
        break;
    case HLS_ST_ADD:
        hls_param_put(&hw, "LANES", s->lanes);
        hls_param_put(&rt, "beats", s->h * s->w * hls_cdiv(s->cin, s->lanes));
        hls_param_put(&rt, "ma", 1);
        hls_param_put(&rt, "mb", 1);
        hls_param_put(&rt, "shift", 0);
        s->npass = 1;
        break;
    case HLS_ST_LUT:
        hls_param_put(&hw, "LANES", s->lanes);
        hls_param_put(&hw, "CHANS", s->lut_chans);
        hls_param_put(&hw, "BRAM_CG", HLS_HW_LUT_BRAM_CG);
        hls_param_put(&rt, "n", s->h * s->w * hls_cdiv(s->cin, s->lanes));
        s->npass = 1;
        break;
    case HLS_ST_REQUANT:
        hls_param_put(&hw, "LANES", s->lanes);
        hls_param_put(&hw, "PIPE", s->rq_pipe);
        hls_param_put(&hw, "RQ_DSP", s->rq_dsp == 1 ? 1 : 2);
        hls_param_put(&rt, "n", s->h * s->w * hls_cdiv(s->cin, s->lanes));
        s->npass = 1;
        break;
    }
}

/* Memo of a descriptor's cycles() and resources(): the exact row recurrence
 * and the memory mapping are most of a search's time, and the search
 * evaluates the same stage shapes many times.  Open addressing on a hash of
 * the engine and its parameters; cycles are computed when first asked. */
#define MEMO_SLOTS 32768 /* a power of two */
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
    /* the hash over the engine's named parameters (the rest are fill,
     * compared below with the others) */
    h = (h ^ (uint64_t)(uintptr_t)d) * 1099511628211ull;
    for (k = 0; k < HLS_PLAN_MAX_PARAMS && d->hw_params[k]; k++)
        h = (h ^ (uint64_t)hw[k]) * 1099511628211ull;
    for (k = 0; k < HLS_PLAN_MAX_PARAMS && d->rt_params && d->rt_params[k]; k++)
        h = (h ^ (uint64_t)rt[k]) * 1099511628211ull;
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

HlsRes hls_engine_res(HlsPlan *p, const HlsEngineDesc *d, const int64_t *hw)
{
    static const int64_t rt[HLS_PLAN_MAX_PARAMS]; /* resources() takes no run-time value */
    return memo_find(p, d, hw, rt)->res;
}

/* Cycles at the plan's clock that a frame's DDR bytes take at the board's
 * PL bandwidth (the board loader bounds both, so the product fits). */
static int64_t ddr_cycles(const HlsPlan *p)
{
    return (int64_t)ceil((double)p->ddr_bytes / (p->board.ddr_gbps * 1e9) * p->mhz * 1e6);
}

/* Cycles, latency, resources and utilisation of one stage.  -1 when the
 * descriptor rejects the shape. */
int hls_stage_eval(HlsPlan *p, HlsStage *s)
{
    MemoEntry *m;
    if (s->kind == HLS_ST_LUT && s->in[0] >= 0 && s->in[0] < p->nstage &&
        p->stages[s->in[0]].segment == s->segment)
        /* a table takes its producer's beats as they come: no width
         * converter, and never slower than the producer's bursts */
        s->lanes = (int)hls_out_lanes(&p->stages[s->in[0]]);
    stage_params(s);
    if (s->kind == HLS_ST_CONV && s->dsp2x == 2 && !s->dsp2x_pin && s->pe_ic % 2 == 0) {
        /* both clk2x modes apply: the one of fewer LUT */
        int64_t hw1[HLS_PLAN_MAX_PARAMS];
        int k = hls_param_index(s->desc->hw_params, "DSP2X");
        double lut2 = memo_find(p, s->desc, s->hw, s->rt)->res.lut;
        memcpy(hw1, s->hw, sizeof hw1);
        hw1[k] = 1;
        if (memo_find(p, s->desc, hw1, s->rt)->res.lut < lut2) {
            s->dsp2x = 1;
            s->hw[k] = 1;
        }
    }
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
    if (hls_is_conv(s)) {
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
double hls_weight_bram(HlsPlan *p, const HlsStage *s)
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
int64_t hls_weight_uram(HlsPlan *p, const HlsStage *s)
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
    return hls_is_conv(s) ? s->pe_ic : s->lanes;
}

int64_t hls_out_lanes(const HlsStage *s)
{
    return hls_is_conv(s) ? s->pe_oc : s->lanes;
}

/* weights from DDR in several tiles */
static int weight_tiles(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV && s->whome == HLS_W_DDR && s->tog > 0 &&
           s->tog < hls_cdiv(s->cout, s->pe_oc);
}

int hls_tiled(const HlsStage *s)
{
    return weight_tiles(s) && s->band == 0;
}

int hls_band_ok(const HlsStage *s, int64_t band)
{
    return weight_tiles(s) && band >= 1 && band <= s->oh;
}

int64_t hls_band_lbrows(const HlsStage *s)
{
    int64_t own = (hls_min64(s->band, s->oh) - 1) * s->stride + s->k;
    return s->band > 0 ? hls_max64(own, s->lbrows) : 0;
}

int hls_lbrows_ok(const HlsStage *s, int64_t rows)
{
    return s->band > 0 && rows >= (hls_min64(s->band, s->oh) - 1) * s->stride + s->k &&
           rows <= s->h + 2 * s->pad;
}

int64_t hls_nbands(const HlsStage *s)
{
    return s->band > 0 && weight_tiles(s) ? hls_cdiv(s->oh, s->band) : 1;
}

/* The pace of conv s's input: a DMA channel's when input 0 comes from DDR
 * (another segment, the graph input, or an edge through DDR: s or its
 * producer in p weight-tiled), else a beat a cycle. */
int64_t hls_input_pace(const HlsPlan *p, const HlsStage *s)
{
    int u = s->in[0];
    int ddr = u < 0 || p->stages[u].segment != s->segment || hls_tiled(s) ||
              hls_tiled(&p->stages[u]);
    return hls_is_conv(s) && ddr ? hls_ddr_pace(s->pe_ic) : 1;
}

static void set_pace(HlsPlan *p)
{
    int i;
    for (i = 0; i < p->nstage; i++)
        p->stages[i].ipace = hls_input_pace(p, &p->stages[i]);
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

/* DDR bytes per frame stage s causes: inputs from DDR (an add's second
 * input read at its full width), an output that leaves the segment,
 * weights that stream, and a tiled conv's input spilled and re-read per
 * tile with its output through DDR. */
static int64_t stage_ddr_bytes(const HlsStage *s)
{
    int64_t b = 0;
    int j;
    for (j = 0; j < s->nin; j++)
        if (s->in[j] < 0)
            b += s->h * s->w * (j ? s->cin2 : s->cin);
    if (s->kind == HLS_ST_ADD && s->in[1] < 0)
        b += s->h * s->w * s->cin - s->h * s->w * s->cin2;
    if (s->out_ddr)
        b += s->oh * s->ow * s->cout;
    if (s->whome == HLS_W_DDR)
        b += s->weight_bytes * hls_nbands(s); /* in bands: the set once a band */
    if (s->npass > 1)
        b += s->h * s->w * s->cin * (1 + s->npass) + 2 * s->oh * s->ow * s->cout;
    return b;
}

/* Evaluate every stage and sum the plan's figures over them: MACs, DDR
 * bytes, weights on chip and streamed, the slowest stage, resources on top
 * of the infrastructure's.  0, or -1 + e when a descriptor rejects one. */
static int eval_stages(HlsPlan *p, GirError *e)
{
    int i;
    p->compute_ii = 0;
    p->slowest = 0;
    p->ddr_bytes = 0;
    p->macs = 0;
    p->weight_bytes_onchip = p->weight_bytes_ddr = 0;
    p->total = p->infra;
    set_pace(p);
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        if (hls_stage_eval(p, s) < 0)
            return gir_error_at(e, gir_loc_none(),
                                "plan: node '%s': engine %s rejects the layer's shape", s->node,
                                s->desc->name);
        s->ddr_bytes = stage_ddr_bytes(s);
        if (s->whome == HLS_W_DDR)
            p->weight_bytes_ddr += s->weight_bytes;
        else if (s->whome != HLS_W_NONE)
            p->weight_bytes_onchip += s->weight_bytes;
        p->ddr_bytes += s->ddr_bytes;
        p->macs += s->macs;
        if (s->cycles > p->compute_ii) {
            p->compute_ii = s->cycles;
            p->slowest = i;
        }
        hls_res_add(&p->total, &s->res);
    }
    return 0;
}

/* The interval: the slowest stage's cycles or the DDR traffic's, the
 * longer. */
static void set_interval(HlsPlan *p)
{
    p->ddr_cycles = ddr_cycles(p);
    p->ddr_bound = p->ddr_cycles > p->compute_ii;
    p->interval = p->ddr_bound ? p->ddr_cycles : p->compute_ii;
}

/* Each stage's fill and first-output time at the interval's pace,
 * topological (what the join FIFOs are sized by). */
static void first_outputs(HlsPlan *p)
{
    int i, j;
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
}

/* in_ddr of every stage: its inputs from a stage of the same segment that
 * pass through DDR, by the channel builder's rule (hls_edge_ddr). */
static void mark_ddr_edges(HlsPlan *p)
{
    int i, j;
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        for (j = 0; j < 2; j++)
            s->in_ddr[j] = j < s->nin && hls_edge_ddr(p, i, j);
    }
}

/* Stage s's output (out 1) or input lanes set to l where its kind allows
 * it: not a pinned stage nor kiln_lut (its lanes are fixed); a conv's
 * PE_OC from its smallest up to its channels' power of two (a tile of its
 * DDR weights fitted again to as many channels), its PE_IC from
 * HLS_WLANES_MIN up to its input's; a stream engine's LANES from 2 to
 * hls_lane_cap.  1 when set. */
static int set_lanes(const HlsPlan *p, HlsStage *s, int out, int64_t l)
{
    if (s->pinned)
        return 0;
    if (hls_is_conv(s)) {
        if (out && (l < (s->cout >= 2 ? 2 : 1) || l > hls_pow2ceil(s->cout)))
            return 0;
        if (!out && (l < HLS_WLANES_MIN || l > hls_pow2ceil(s->cin)))
            return 0;
        if (out) {
            if (s->tog > 0)
                s->tog = hls_tile_fit(hls_cdiv(s->cout, l), (int)l,
                                      hls_max64(1, s->tog * s->pe_oc / l));
            s->pe_oc = (int)l;
            s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
        } else {
            s->pe_ic = (int)l;
        }
        hls_set_pipeline(s, p->mhz);
        return 1;
    }
    if (s->kind == HLS_ST_LUT || l < 2 || l > hls_lane_cap(s))
        return 0;
    s->lanes = (int)l;
    return 1;
}

/* Every edge through DDR inside a segment padded alike at its two ends:
 * the producer writes each pixel as cdiv(c, out lanes) beats of its lanes
 * and the consumer reads cdiv(c, in lanes) beats of its own, with no lane
 * converter between (pipeline/check.c refuses a plan where the bytes
 * differ).  Where they differ the narrower end takes the wider end's lanes
 * (both then pad c to those), else the wider end the narrower's; a
 * replayed plan is taken as written, so there the edge is an error.
 * Returns the ends changed (the plan must be evaluated again), or -1 + e
 * when neither end may change. */
static int align_ddr_lanes(HlsPlan *p, GirError *e)
{
    int i, k, n = 0;
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        for (k = 0; k < s->nin; k++) {
            HlsStage *u;
            int64_t c, lp, lc;
            if (!hls_edge_ddr(p, i, k))
                continue;
            u = &p->stages[s->in[k]];
            if (hls_edge_ddr_pad(p, i, k, &c, &lp, &lc))
                continue;
            if (!p->replayed && (lp < lc ? set_lanes(p, u, 1, lc) || set_lanes(p, s, 0, lp)
                                         : set_lanes(p, s, 0, lp) || set_lanes(p, u, 1, lc))) {
                n++;
                continue;
            }
            return gir_error_at(e, gir_loc_none(),
                                "plan: %s: input %d from %s goes through DDR in %lld lanes but "
                                "is read in %lld (%lld channels): the padded pixels differ%s",
                                s->node, k, u->node, (long long)lp, (long long)lc, (long long)c,
                                p->replayed ? "; give both ends lanes that pad them alike"
                                            : " and neither end's lanes may change");
        }
    }
    return n;
}

/* The stages' figures with the weights placed (place) and the join FIFOs
 * sized: a second round, reserving the FIFOs' block RAM too, when those
 * the first sized break the budget.  0, or -1 + e. */
static int eval_placed(HlsPlan *p, int place, GirError *e)
{
    int round;
    double last_fifo_bram = 0.0;
    for (round = 0; round < 2; round++) {
        double fifo_bram;
        hls_plan_infra(p, &p->infra); /* DMA, control: reserved before the weights */
        if (place) {
            hls_place_weights(p, last_fifo_bram + p->infra.bram36);
            hls_plan_infra(p, &p->infra); /* the channels of the tiles just placed */
        }
        if (eval_stages(p, e) < 0)
            return -1;
        hls_fold_eval(p); /* the shared engine's resources and traffic */
        set_interval(p);
        first_outputs(p);
        fifo_bram = hls_place_fifos(p);
        set_interval(p); /* with the skip tensors sent to DDR */
        last_fifo_bram = fifo_bram;
        if (!place || p->total.bram36 <= p->budget.bram36 || fifo_bram <= 0.0)
            break;
    }
    return 0;
}

/* Whole-plan figures from the stages' choices.  place: run the weight
 * placement first, reserving the infrastructure's block RAM and, in a
 * second round when the join FIFOs the first sized break the budget, the
 * FIFOs' too.  Then the edges through DDR padded alike at both ends
 * (align_ddr_lanes), evaluated again while that changes lanes.  -1 when a
 * descriptor rejects a stage's shape or such an edge cannot be aligned. */
int hls_plan_eval(HlsPlan *p, int place, GirError *e)
{
    double clock = p->mhz * 1e6;
    int fix, n;
    for (fix = 0;; fix++) {
        if (eval_placed(p, place, e) < 0)
            return -1;
        /* the edges through DDR are known now; lanes changed for them change
         * the stages' figures and, placed again, the tiles */
        n = align_ddr_lanes(p, e);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        if (fix > p->nstage)
            return gir_error_at(e, gir_loc_none(),
                                "plan: the lanes of the edges through DDR do not settle");
    }
    mark_ddr_edges(p);
    hls_plan_timing(p); /* t_done per stage and the latency */
    /* kiln_regfile takes one start at a time and SEGMENT selects what it
     * runs (a segment FRAMES frames back to back, or the shared engine's
     * table), so with several segments nothing overlaps: a frame costs
     * every segment's interval (and the engine's frame, hls_fold_finish);
     * the whole plan's DDR cycles bound the sum */
    p->seg_cycles = 0;
    if (p->nsegment > 1 || p->fold.n > 0) {
        int k;
        for (k = 0; k < p->nsegment; k++)
            p->seg_cycles += hls_segment_interval(p, k);
        p->ddr_bound = p->ddr_cycles > p->seg_cycles + p->fold.cycles;
        p->interval = hls_max64(p->seg_cycles, p->ddr_cycles);
    }
    hls_fold_finish(p);
    p->fps = clock / (double)p->interval;
    p->latency_ms = (double)p->latency / clock * 1e3;
    p->dsp_eff = p->total.dsp > 0 ? (double)p->macs * p->fps /
                                        (p->total.dsp * 2.0 * clock * (p->clk2x ? 2.0 : 1.0))
                                  : 0.0;
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

int hls_plan_fits(HlsPlan *p, GirError *e)
{
    char over[160];
    return hls_plan_eval(p, 0, e) == 0 && !p->ddr_bound &&
           !hls_plan_over_budget(p, over, sizeof over);
}

void hls_plan_budget(HlsPlan *p)
{
    p->budget.dsp = floor((double)p->board.dsp * FRAC_DSP);
    p->budget.bram36 = floor((double)p->board.bram36 * FRAC_BRAM);
    p->budget.uram = floor((double)p->board.uram * FRAC_URAM);
    p->budget.lut = floor((double)p->board.lut * FRAC_LUT);
    p->budget.ff = floor((double)p->board.ff * FRAC_FF);
}

/* Resource r of x (r < 5: DSP, BRAM36, URAM, LUT, FF). */
double hls_res_at(const HlsRes *x, int r)
{
    const double v[] = {x->dsp, x->bram36, x->uram, x->lut, x->ff};
    return v[r];
}

/* Sum over resources of the growth from a to b as a share of the budget. */
double hls_budget_share(const HlsRes *b, const HlsRes *a, const HlsRes *budget)
{
    double s = 0.0;
    int r;
    for (r = 0; r < 5; r++)
        s += hls_res_at(budget, r) > 0 && hls_res_at(b, r) > hls_res_at(a, r)
                 ? (hls_res_at(b, r) - hls_res_at(a, r)) / hls_res_at(budget, r)
                 : 0.0;
    return s;
}

static void dsp_use_row(const HlsPlan *p, HlsDspUse *r)
{
    double k = 2.0 * (p->clk2x ? 2.0 : 1.0), ii = (double)p->interval;
    r->inbusy = (double)r->peak * (double)r->busy - r->macs;
    r->idle = (double)r->peak * (ii - (double)r->busy);
    r->pack = (r->mult * k - (double)r->peak) * ii;
    r->other = (r->dsp - r->mult) * k * ii;
}

int hls_dsp_use(const HlsPlan *p, HlsDspUse *u)
{
    int i, n = 0;
    HlsRes rest = p->total;
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        HlsDspUse *r = &u[n];
        rest.dsp -= s->res.dsp;
        if (s->res.dsp <= 0.0 && s->macs == 0)
            continue;
        memset(r, 0, sizeof *r);
        r->node = s->node;
        r->dsp = s->res.dsp;
        r->macs = (double)s->macs;
        if (hls_is_conv(s)) {
            r->peak = (int64_t)s->pp * s->pe_oc * s->pe_ic;
            r->mult = (double)(r->peak / s->pack / (s->dsp2x ? 2 : 1));
            r->busy = s->cycles;
        } else if (s->kind == HLS_ST_DWCONV) {
            /* one multiplier a lane (kiln_dwconv: 3 DSP48E2 a lane with its
             * requant) */
            r->peak = s->lanes;
            r->mult = (double)s->lanes;
            r->busy = s->cycles;
        }
        dsp_use_row(p, r);
        n++;
    }
    if (p->fold.n > 0) {
        const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
        int kp = d ? hls_param_index(d->hw_params, "PACK") : -1;
        int64_t pack = kp >= 0 && p->fold.hw[kp] > 1 ? p->fold.hw[kp] : 1;
        HlsDspUse *r = &u[n++];
        memset(r, 0, sizeof *r);
        rest.dsp -= p->fold.res.dsp;
        r->node = "time-shared engine";
        r->dsp = p->fold.res.dsp;
        r->macs = (double)p->fold.macs;
        r->peak = (int64_t)p->fold.pp * p->fold.pe * p->fold.pe;
        r->mult = (double)(r->peak / pack / (p->fold.dsp2x ? 2 : 1));
        r->busy = p->fold.cycles;
        dsp_use_row(p, r);
    }
    if (rest.dsp > 0.5) {
        HlsDspUse *r = &u[n++];
        memset(r, 0, sizeof *r);
        r->node = "FIFOs, infrastructure";
        r->dsp = rest.dsp;
        dsp_use_row(p, r);
    }
    return n;
}
