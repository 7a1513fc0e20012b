/*
 * hls/plan.c: the planner's entry points.  hls_plan_new partitions the
 * graph and gives every stage its engine and smallest array;
 * hls_plan_build applies the pins, runs the search (hls/plan_search.c)
 * and the latency steps (hls/plan_latency.c) and writes each stage's
 * reasons; hls_plan_reeval evaluates a replayed plan's choices as they
 * stand.  Formulas: hls/plan.h and docs/plan.md.
 *
 * Needs a graph with its shapes inferred and a loaded board; everything
 * else of the planner it reaches through hls/plan_int.h.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/plan_int.h"

#define SEARCH_PP_MAX HLS_PP_MAX /* the search's default largest PP (--pp-max lowers
                                  * it): PP 5 and 7 are the steps of x1.25 and x1.17
                                  * that, with the requant shared RQS 10 and 14, take
                                  * the ZCU102 YOLOv3-tiny past 393 frames/s */

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
    case HLS_ST_LUT:
        return "kiln_lut";
    }
    return "?";
}

int hls_clk2x_fits(const HlsBoard *b, double mhz, char *why, size_t n)
{
    if (b->dsp_max_mhz <= 0.0) {
        snprintf(why, n, "clk2x: %s gives no DSP48E2 FMAX (clocks dsp-max-mhz)", b->name);
        return 0;
    }
    if (2.0 * mhz > b->dsp_max_mhz) {
        snprintf(why, n,
                 "clk2x: 2 x %.1f MHz exceeds the DSP48E2 FMAX of %s, %.0f MHz (a clock of "
                 "%.1f MHz or less allows it)",
                 mhz, b->part, b->dsp_max_mhz, floor(b->dsp_max_mhz * 5.0) / 10.0);
        return 0;
    }
    snprintf(why, n, "clk2x: DSPs at %.1f MHz, within the DSP48E2 FMAX of %s, %.0f MHz",
             2.0 * mhz, b->part, b->dsp_max_mhz);
    return 1;
}

void hls_plan_set_clk2x(HlsPlan *p, int on)
{
    int i;
    p->clk2x = on;
    p->dsp_mhz = on ? 2.0 * p->mhz : p->mhz;
    for (i = 0; i < p->nstage; i++)
        p->stages[i].clk2x = on && hls_is_conv(&p->stages[i]);
}

HlsPlan *hls_plan_new(const GirGraph *g, const HlsBoard *b, double mhz, const char *lut_cpu,
                      const HlsMoveSet *fit, GirError *e)
{
    HlsPlan *p = calloc(1, sizeof *p);
    int i;
    if (!p)
        gir_die("out of memory");
    if (lut_cpu)
        snprintf(p->lut_cpu, sizeof p->lut_cpu, "%s", lut_cpu);
    if (fit)
        hls_moves_copy(&p->fit, fit);
    p->model = g->name ? g->name : "model";
    p->board = *b;
    p->mhz = mhz > 0 ? mhz : b->default_mhz;
    p->dsp_mhz = p->mhz;
    if (p->mhz < 1.0) {
        gir_error_at(e, gir_loc_none(), "plan: clock %g MHz below 1 MHz", p->mhz);
        hls_plan_free(p);
        return NULL;
    }
    if (p->mhz > b->max_mhz) {
        gir_error_at(e, gir_loc_none(), "plan: clock %.1f MHz exceeds %s's maximum of %.1f MHz",
                     p->mhz, b->name, b->max_mhz);
        hls_plan_free(p);
        return NULL;
    }
    hls_plan_budget(p);
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
        s->whome = hls_is_conv(s) ? HLS_W_BRAM : HLS_W_NONE;
        if (s->kind == HLS_ST_DWCONV)
            s->whome = HLS_W_BRAM;
        hls_stage_init(s, p->mhz);
    }
    return p;
}


/* Whether plan p has a kiln_lut with a table per channel. */
static int has_lut_chans(const HlsPlan *p)
{
    int i;
    for (i = 0; i < p->nstage; i++)
        if (p->stages[i].kind == HLS_ST_LUT && p->stages[i].lut_chans > 0)
            return 1;
    return 0;
}

void hls_plan_free(HlsPlan *p)
{
    if (!p)
        return;
    free(p->stages);
    free(p->cpu);
    free(p->fifos);
    free(p->memo);
    free(p->smemo);
    hls_fold_free(&p->fold);
    hls_moves_free(&p->fit);
    free(p);
}

void hls_mcycles(char *buf, size_t n, int64_t c)
{
    if (c >= 1000000)
        snprintf(buf, n, "%.2f Mcycles", (double)c / 1e6);
    else
        snprintf(buf, n, "%.1f kcycles", (double)c / 1e3);
}

/* The final reason line of each stage. */
static void finish_reasons(HlsPlan *p, char (*grow)[HLS_GROW_LEN])
{
    int i;
    char c1[32], c2[32];
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        char par[128], wt[288] = "", sw[160] = "";
        size_t n;
        if (hls_is_conv(s))
            snprintf(par, sizeof par, "PE_OC %d x PE_IC %d x PP %d%s, PACK %d, PIPE %d, RQ_PIPE %d%s",
                     s->pe_oc, s->pe_ic, s->pp, s->span ? " (groups across rows)" : "", s->pack,
                     s->pipe, s->rq_pipe, s->rq_dsp == 1 ? ", RQ_DSP 1" : "");
        else
            snprintf(par, sizeof par, "LANES %d%s", s->lanes, s->rq_dsp == 1 ? ", RQ_DSP 1" : "");
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
        hls_mcycles(c1, sizeof c1, s->cycles);
        hls_mcycles(c2, sizeof c2, p->interval);
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
            n += (size_t)snprintf(s->why + n, sizeof s->why - n, "%s", wt);
        if (s->lburam && n < sizeof s->why)
            snprintf(s->why + n, sizeof s->why - n,
                     "; line buffers in URAM (BRAM budget full; the stage takes %.0f URAM288)",
                     s->res.uram);
    }
}

/* Fix the arrays of the layers o pins (--pin); 0, or -1 + e when a pin
 * names no conv layer of the FPGA. */
static int set_pins(HlsPlan *p, const HlsPlanOptions *o, GirError *e)
{
    int i, j;
    for (j = 0; j < o->npins; j++) {
        const HlsPin *pin = &o->pins[j];
        HlsStage *s = NULL;
        for (i = 0; i < p->nstage; i++)
            if (!strcmp(p->stages[i].node, pin->node))
                s = &p->stages[i];
        if (!s || !hls_is_conv(s))
            return gir_error_at(e, gir_loc_none(), "--pin %s: no conv layer '%s' on the FPGA",
                                pin->node, pin->node);
        s->pe_oc = pin->pe_oc;
        s->pe_ic = pin->pe_ic;
        s->pp = pin->pp;
        s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
        s->pinned = 1;
        hls_set_pipeline(s, p->mhz);
    }
    return 0;
}

/* The latency steps under o's latency bound, from the search's plan: as
 * hls_finish_latency where that meets the bound, else relaxed
 * (hls_meet_latency).  0 with p->max_latency_ms set and the fastest plan
 * found within the bound; -1 + e naming the shortest latency found when
 * none is. */
static int meet_bound(HlsPlan *p, const HlsPlanOptions *o, HlsStage *save,
                      char (*grow)[HLS_GROW_LEN], double *short_ms, GirError *e)
{
    size_t n = (size_t)p->nstage;
    HlsStage *from = malloc(sizeof *from * n);
    char (*from_grow)[HLS_GROW_LEN] = malloc(sizeof *from_grow * n);
    int64_t ii0;
    double fps0, lat0_ms;
    int met;
    if (!from || !from_grow)
        gir_die("out of memory");
    memcpy(from, p->stages, sizeof *from * n);
    memcpy(from_grow, grow, sizeof *from_grow * n);
    p->max_latency_ms = o->max_latency_ms;
    if (!p->ddr_bound)
        hls_finish_latency(p, save, grow, e);
    /* the fastest plan's figures, as without the bound */
    lat0_ms = p->latency_ms;
    fps0 = p->fps;
    ii0 = p->interval;
    p->lat_goal = (int64_t)floor(o->max_latency_ms * 1e3 * p->mhz);
    met = p->latency <= p->lat_goal;
    if (!met && !p->ddr_bound)
        met = hls_meet_latency(p, from, from_grow, save, grow, e);
    if (!met) {
        *short_ms = p->latency_ms;
        gir_error_at(e, gir_loc_none(),
                     "plan: %s on %s cannot meet --max-latency-ms %g: the shortest latency "
                     "the planner reaches is %.3f ms (%.1f frames/s; %.3f ms at the fastest "
                     "plan's %.1f frames/s)%s",
                     p->model, p->board.name, o->max_latency_ms, p->latency_ms, p->fps,
                     lat0_ms, fps0,
                     p->ddr_bound ? "; DDR bandwidth binds" : "");
    } else if (p->interval > ii0)
        snprintf(p->limit, sizeof p->limit,
                 "latency bound %g ms: the interval grew from %lld to %lld cycles (%.1f -> "
                 "%.1f frames/s) so that weights fit on chip or arrays shorten the chain",
                 o->max_latency_ms, (long long)ii0, (long long)p->interval, fps0, p->fps);
    free(from);
    free(from_grow);
    return met ? 0 : -1;
}

/* Under a latency bound of ms: the engine's parts cut (hls_fold_cut) where
 * that brings the plan toward the bound, one cut at a time while one does:
 * a plan within the bound before one without, then the shorter interval
 * (then latency); with neither within it, the shorter interval at a frame's
 * runs one after the other (HlsFold.tight: a gate at the cut lets the next
 * frame's first segment run while the engine ends the frame before, where
 * without the cut it would wait for the whole part), the cut's fill
 * lengthening those runs by at most 0.1%.  The latency steps after it then
 * shorten that plan. */
static void fold_cuts(HlsPlan *p, double ms, GirError *e)
{
    HlsFold *f = &p->fold;
    int64_t goal = (int64_t)floor(ms * 1e3 * p->mhz);
    char over[160];
    int i, best;
    p->max_latency_ms = ms; /* hls_fold_finish's ways within the bound first */
    hls_plan_eval(p, 0, e);
    do {
        int64_t biv = p->interval, blat = p->latency, bt = f->tight, bseq = f->sequential;
        best = -1;
        for (i = 1; i < f->n; i++) {
            int64_t iv, lat, t, seq;
            int ok, in, bin;
            if (f->layers[i].cut || f->layers[i].phase != f->layers[i - 1].phase)
                continue;
            ok = hls_fold_cut(p, i, 1, NULL) == 0 && hls_plan_eval(p, 0, NULL) == 0 &&
                 !hls_plan_over_budget(p, over, sizeof over);
            iv = p->interval;
            lat = p->latency;
            t = f->tight;
            seq = f->sequential;
            hls_fold_cut(p, i, 0, NULL);
            in = lat <= goal;
            bin = blat <= goal;
            if (ok && (in > bin || (in && bin && (iv < biv || (iv == biv && lat < blat))) ||
                       (!in && !bin && t < bt && seq <= bseq + bseq / 1000))) {
                best = i;
                biv = iv;
                blat = lat;
                bt = t;
                bseq = seq;
            }
        }
        if (best > 0)
            hls_fold_cut(p, best, 1, NULL);
        hls_plan_eval(p, 0, e);
    } while (best > 0);
    p->max_latency_ms = 0;
    hls_plan_eval(p, 0, e);
}

/* What the smallest design of a plan_build is made from. */
typedef struct {
    const GirGraph *g;        /* the model */
    const HlsBoard *b;        /* the board */
    const HlsPlanOptions *o;  /* the options (clock, pins, PP bound) */
    int clk2x;                /* the clk2x domain on (1) or off */
    int fold_pe, fold_pp, fold_lb; /* the shared engine (fold_pe 0: none) */
    const char *lut_cpu;      /* NULL, or the reason the per-channel LutI8s go to the CPU */
} Smallest;

/* The smallest design of c with the layers of fit (NULL: none) on the
 * CPU, evaluated with its weights placed; line buffers may go to URAM
 * where block RAM alone does not take it.  NULL + e when it cannot be made
 * (a bad pin, a fold spec naming no layer). */
static HlsPlan *smallest(void *ctx, const HlsMoveSet *fit, GirError *e)
{
    const Smallest *c = ctx;
    const HlsPlanOptions *o = c->o;
    HlsPlan *p = hls_plan_new(c->g, c->b, o->mhz, c->lut_cpu, fit, e);
    char over[160];
    if (!p)
        return NULL;
    if (c->fold_pe > 0 &&
        hls_fold_apply(p, o->fold, c->fold_pe, c->fold_pp, c->fold_lb, e) < 0) {
        hls_plan_free(p);
        return NULL;
    }
    p->interval_first = o->interval_first;
    p->pp_max = o->pp_max > 0 ? (o->pp_max < HLS_PP_MAX ? o->pp_max : HLS_PP_MAX) : SEARCH_PP_MAX;
    hls_plan_set_clk2x(p, c->clk2x);
    if (set_pins(p, o, e) < 0 || hls_plan_eval(p, 1, e) < 0) {
        hls_plan_free(p);
        return NULL;
    }
    if (hls_plan_over_budget(p, over, sizeof over) && p->board.uram > 0) {
        /* the smallest design needs more than its weights off block RAM:
         * its line buffers may go to URAM too, in it and in every plan the
         * search evaluates from it (a design whose smallest form fits keeps
         * its line buffers in block RAM) */
        p->lb_uram = 1;
        if (hls_plan_eval(p, 1, e) < 0) {
            hls_plan_free(p);
            return NULL;
        }
    }
    return p;
}

/* One search with the clk2x domain on (clk2x 1) or off.  NULL + e when it
 * fails; where the latency bound is what it cannot meet, short_ms gets the
 * shortest latency it reached (else it is left as it was). */
static HlsPlan *plan_build(const GirGraph *g, const HlsBoard *b, const HlsPlanOptions *o,
                           int clk2x, int fold_pe, int fold_pp, int fold_lb, double *short_ms,
                           GirError *e)
{
    HlsPlan *p, *q;
    HlsStage *save;
    char (*grow)[HLS_GROW_LEN];
    char over[160], lut_cpu[200] = "";
    Smallest c = {g, b, o, clk2x, fold_pe, fold_pp, fold_lb, NULL};
    p = smallest(&c, NULL, e);
    if (!p)
        return NULL;
    if (hls_plan_over_budget(p, over, sizeof over) && has_lut_chans(p)) {
        /* the tables per channel take on-chip memory the rest needs:
         * plan again with them on the CPU */
        snprintf(lut_cpu, sizeof lut_cpu,
                 "a LutI8 table per channel: with these tables on kiln_lut the smallest "
                 "design exceeds %s",
                 over);
        hls_plan_free(p);
        c.lut_cpu = lut_cpu;
        p = smallest(&c, NULL, e);
        if (!p)
            return NULL;
    }
    /* still over: layers to the CPU until it fits (hls/plan_fit.c), not
     * under a shared engine (its layers are named by the user or taken
     * from a plan that fits) */
    if (hls_plan_over_budget(p, over, sizeof over) && fold_pe == 0 && !o->no_cpu_fallback &&
        (q = hls_plan_fit(p, over, smallest, &c)) != NULL)
        p = q;
    if (hls_plan_over_budget(p, over, sizeof over)) {
        gir_error_at(e, gir_loc_none(),
                     "plan: %s does not fit %s: the smallest design (weights from DDR where "
                     "on-chip memory is short) exceeds %s",
                     p->model, p->board.name, over);
        hls_plan_free(p);
        return NULL;
    }
    save = malloc(sizeof *save * (size_t)p->nstage);
    grow = calloc((size_t)p->nstage, sizeof *grow);
    if (!save || !grow)
        gir_die("out of memory");
    hls_plan_search(p, save, grow, e);
    /* the gates under a latency bound, after the search: inside it a way
     * of shorter latency and longer interval at each evaluation would
     * steer the search, and without a bound the way a gate's latency pays
     * for costs frames/s that decide between the sets and sizes (ZCU104's
     * --fold auto --clk2x auto lost its fold so) */
    if (o->max_latency_ms > 0 && p->fold.n > 0) {
        p->fold_gates = 1;
        hls_plan_eval(p, 0, e);
        fold_cuts(p, o->max_latency_ms, e);
    }
    if (o->max_latency_ms > 0 && meet_bound(p, o, save, grow, short_ms, e) < 0) {
        free(save);
        free(grow);
        hls_plan_free(p);
        return NULL;
    }
    if (!p->ddr_bound && !p->max_latency_ms)
        hls_finish_latency(p, save, grow, e);
    /* with a shared engine the dataflow's segments run beside it: its line
     * buffer of twice the rows where that shortens the plan
     * (hls_fold_rows), its weights on two masters where that does
     * (hls_fold_wch), then arrays its frame leaves idle give back DSPs
     * (hls_trim_dsp); under a bound, a cut the latency steps made pay, the
     * LUTs left spent on DSP efficiency and the DSPs a cut leaves idle
     * (hls_fold_recut) */
    if (!p->ddr_bound && p->fold.n > 0) {
        hls_fold_rows(p, e);
        hls_fold_wch(p, e);
        hls_trim_dsp(p, save, grow, 0, o->eff_first, e);
        if (o->max_latency_ms > 0)
            hls_fold_recut(p, save, grow, o->rq_dsp != HLS_RQ_DSP_TWO, e);
        hls_fold_splits(p, save, grow, o->eff_first, e);
    }
    /* one DSP48E2 a requant lane where DSPs bind (hls/plan_rqdsp.c) */
    if (o->rq_dsp != HLS_RQ_DSP_TWO && hls_rq_dsp_choose(p, e) < 0) {
        free(save);
        free(grow);
        hls_plan_free(p);
        return NULL;
    }
    /* the infrastructure counts the channels of skip tensors the previous
     * evaluation sent to DDR: once more so the figures are this plan's own
     * (what a replay computes) */
    hls_plan_eval(p, 0, e);
    finish_reasons(p, grow);
    free(save);
    free(grow);
    return p;
}

/* --clk2x auto at equal frames/s: the share of the fabric clock plan's
 * latency the clk2x plan must save to be taken. */
#define CLK2X_LATENCY_GAIN 0.10

/* The searches o's clk2x choice asks for on board b, bits: 1 without the
 * clk2x domain, 2 with it (the board's DSP48E2 FMAX allowing it); why gets
 * the FMAX check's line when o asks for clk2x. */
static int clk2x_modes(const HlsBoard *b, const HlsPlanOptions *o, char *why, size_t n)
{
    int fits = o->clk2x != HLS_CLK2X_OFF &&
               hls_clk2x_fits(b, o->mhz > 0 ? o->mhz : b->default_mhz, why, n);
    if (!fits)
        return 1;
    return o->clk2x == HLS_CLK2X_ON ? 2 : 3;
}

/* One plan with the shared engine of fold_pe x fold_pe lanes (0: none),
 * fold_pp pixels an op and its memories and DSP clock as fold_lb
 * (HLS_FOLD_* bits) says, the clk2x choice as o asks; an engine whose
 * multipliers are on clk2x (HLS_FOLD_DSP2X) only with the clk2x domain. */
static HlsPlan *plan_build_clk(const GirGraph *g, const HlsBoard *b, const HlsPlanOptions *o,
                               int fold_pe, int fold_pp, int fold_lb, GirError *e)
{
    HlsPlan *p, *q;
    GirError ep;
    char why[200] = "";
    double short_p = HUGE_VAL, short_q = HUGE_VAL;
    int modes = clk2x_modes(b, o, why, sizeof why), fits = (modes & 2) != 0;
    if (fold_lb & HLS_FOLD_DSP2X) {
        if (!fits) {
            gir_error_at(e, gir_loc_none(), "plan: the shared engine's DSP2X needs the clk2x "
                         "domain (%s)", why);
            return NULL;
        }
        p = plan_build(g, b, o, 1, fold_pe, fold_pp, fold_lb, &short_p, e);
        if (p && modes == 3)
            snprintf(p->clk2x_why, sizeof p->clk2x_why,
                     "clk2x: taken, the shared engine's multipliers on it too (%s)", why);
        else if (p)
            snprintf(p->clk2x_why, sizeof p->clk2x_why, "%s", why);
        return p;
    }
    if (modes != 3) {
        p = plan_build(g, b, o, fits, fold_pe, fold_pp, fold_lb, &short_p, e);
        if (p && o->clk2x != HLS_CLK2X_OFF)
            snprintf(p->clk2x_why, sizeof p->clk2x_why, "%s", why);
        return p;
    }
    /* auto: both searches, the plan with more frames/s; at the same frames/s
     * the fabric clock's unless clk2x shortens the latency by CLK2X_LATENCY_GAIN
     * or more (a second clock, its MMCM output and the domain crossing, is a
     * cost the figures do not price, so a latency gain alone must be clear) */
    p = plan_build(g, b, o, 1, fold_pe, fold_pp, fold_lb, &short_p, &ep);
    q = plan_build(g, b, o, 0, fold_pe, fold_pp, fold_lb, &short_q, e);
    if (!p && !q && short_p < short_q)
        *e = ep; /* neither meets the bound: the message of the shorter latency */
    if (!p || !q) /* one of them failed (a latency bound it cannot meet): the other */
        return p ? p : q;
    if (!(p->fps > q->fps * (1.0 + 1e-9) ||
          (p->fps >= q->fps * (1.0 - 1e-9) &&
           p->latency_ms < q->latency_ms * (1.0 - CLK2X_LATENCY_GAIN)))) {
        snprintf(q->clk2x_why, sizeof q->clk2x_why,
                 "clk2x: not taken, %.1f frames/s, %.3f ms without it against %.1f, %.3f ms "
                 "with it", q->fps, q->latency_ms, p->fps, p->latency_ms);
        hls_plan_free(p);
        return q;
    }
    snprintf(p->clk2x_why, sizeof p->clk2x_why,
             "clk2x: taken, %.1f frames/s, %.3f ms with it against %.1f, %.3f ms without it",
             p->fps, p->latency_ms, q->fps, q->latency_ms);
    hls_plan_free(q);
    return p;
}

/* Is plan a better than b: more frames/s, then a shorter latency? */
static int plan_better(const HlsPlan *a, const HlsPlan *b)
{
    return !b || a->fps > b->fps * (1.0 + 1e-9) ||
           (a->fps >= b->fps * (1.0 - 1e-9) && a->latency_ms < b->latency_ms);
}

/* --fold auto without a latency bound (eff_first): the share of the fastest plan's
 * frames/s a plan may give up to be taken for a DSP efficiency higher by
 * more than FOLD_EFF_GAIN of the fastest's (Ultra96-V2 YOLOv3-tiny: conv4
 * on the engine too, 97.1 frames/s and 91.9% against 97.4 and 85.2%,
 * docs/plan.md "Without a latency bound"); a DSP or two less is not worth
 * the latency.  Otherwise the fastest is taken. */
#define FOLD_EFF_FPS 0.01
#define FOLD_EFF_GAIN 0.02

/* The plan kept of the n plans c: the fastest (plan_better), or
 * with eff (o->eff_first) the one of the highest DSP efficiency among those
 * within FOLD_EFF_FPS of its frames/s and more than FOLD_EFF_GAIN above
 * its efficiency; note gets why when that is not the fastest (else "").
 * The others are freed. */
static HlsPlan *fold_pick(HlsPlan **c, int n, int eff, char *note, size_t nn)
{
    HlsPlan *fast = NULL, *best;
    int i;
    for (i = 0; i < n; i++)
        if (plan_better(c[i], fast))
            fast = c[i];
    best = fast;
    for (i = 0; i < n && eff; i++)
        if (c[i]->fps >= fast->fps * (1.0 - FOLD_EFF_FPS) &&
            c[i]->dsp_eff > fast->dsp_eff * (1.0 + FOLD_EFF_GAIN) &&
            (c[i]->dsp_eff > best->dsp_eff + 1e-9 ||
             (c[i]->dsp_eff >= best->dsp_eff - 1e-9 && plan_better(c[i], best))))
            best = c[i];
    note[0] = 0;
    if (best && best != fast)
        snprintf(note, nn,
                 "; DSP efficiency %.1f%%, taken over %.1f frames/s, %.3f ms at %.1f%% (no "
                 "latency bound: within %.0f%% of its frames/s)",
                 100.0 * best->dsp_eff, fast->fps, fast->latency_ms, 100.0 * fast->dsp_eff,
                 100.0 * FOLD_EFF_FPS);
    for (i = 0; i < n; i++)
        if (c[i] != best)
            hls_plan_free(c[i]);
    return best;
}

/* The shared engine's sizes tried: PE x PE arrays, PP pixels an op (a
 * pixel more an op reuses the weight word, so the weight memory, whose read
 * width binds block RAM and URAM, stays that of PE x PE).  The PP values
 * are those kiln_tsconv's benches run (sim/CMakeLists.txt rtl_tsconv*:
 * 1 to 6 and 8, cycles exact). */
static const int fold_sizes[][2] = {{16, 1}, {16, 2}, {16, 3}, {16, 4}, {16, 5}, {16, 6},
                                    {16, 8}, {32, 1}, {32, 2}, {32, 3}, {32, 4}, {64, 1}};
#define FOLD_NSIZES (int)(sizeof fold_sizes / sizeof fold_sizes[0])

/* Whether q's shared engine has its line buffer banked (kiln_conv LBBANK). */
static int fold_banked(const HlsPlan *q)
{
    const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
    int i = d ? hls_param_index(d->hw_params, "LBBANK") : -1;
    return i >= 0 && q->fold.hw[i] > 0;
}

/* Whether fold set spec on engine size `size`, its memories as lb
 * (HLS_FOLD_* bits) says, can beat plan bar (more
 * frames/s), judged without a search: the engine alone must fit the
 * budgets, and its frame alone (a lower bound of the interval, the
 * dataflow's segments come on top) must be shorter than bar's interval
 * (with o->eff_first, than the interval of FOLD_EFF_FPS fewer
 * frames/s: fold_pick may take it) and, with lat, within o's
 * --max-latency-ms (a frame's runs one after the other, the engine's parts
 * among them, bound its latency). */
static int fold_may_beat(const GirGraph *g, const HlsBoard *b, const HlsPlanOptions *o,
                         const char *spec, int size, int lb, const HlsPlan *bar, int lat)
{
    GirError e = {0};
    HlsPlan *p = hls_plan_new(g, b, o->mhz, NULL, NULL, &e);
    int ok = 0, r;
    if (!p)
        return 0;
    if (hls_fold_apply(p, spec, fold_sizes[size][0], fold_sizes[size][1], lb, &e) > 0) {
        double ii = bar ? (double)bar->interval / (o->eff_first ? 1.0 - FOLD_EFF_FPS : 1.0) : 0.0;
        ok = (!bar || (double)p->fold.cycles < ii) &&
             (!lat || p->fold.cycles <= floor(o->max_latency_ms * 1e3 * p->mhz));
        for (r = 0; r < 5; r++)
            if (hls_res_at(&p->fold.res, r) > hls_res_at(&p->budget, r) + 1e-9)
                ok = 0;
    }
    hls_plan_free(p);
    return ok;
}

/* Whether the weights on two read masters (HLS_FOLD_WCH2) shorten the
 * engine of set spec on size `size`, its memories as lb says: the board
 * has an HP port beyond the design's masters for the second one
 * (hls_fold_hp_free) and the engine's frame alone is shorter with it (a
 * weight channel that binds a layer at WCH 1; at PE_IC 16 a beat is one
 * bus beat either way, so never). */
static int fold_wch_pays(const GirGraph *g, const HlsBoard *b, const HlsPlanOptions *o,
                         const char *spec, int size, int lb)
{
    GirError e = {0};
    HlsPlan *p = hls_plan_new(g, b, o->mhz, NULL, NULL, &e);
    int64_t c1;
    int ok = 0;
    if (!p)
        return 0;
    if (hls_fold_apply(p, spec, fold_sizes[size][0], fold_sizes[size][1], lb, &e) > 0) {
        c1 = p->fold.cycles;
        hls_plan_free(p);
        p = hls_plan_new(g, b, o->mhz, NULL, NULL, &e);
        ok = p && hls_fold_apply(p, spec, fold_sizes[size][0], fold_sizes[size][1],
                                 lb | HLS_FOLD_WCH2, &e) > 0 &&
             p->fold.cycles < c1 && hls_fold_hp_free(p);
    }
    hls_plan_free(p);
    return ok;
}

HlsPlan *hls_plan_build(const GirGraph *g, const HlsBoard *b, const HlsPlanOptions *o,
                        GirError *e)
{
    HlsPlanOptions dflt = {0}, fo, nb;
    HlsPlan *best = NULL, *none = NULL, **cand = NULL;
    GirError e2, ebound;
    int none_misses = 0; /* the plan without a fold misses --max-latency-ms */
    double fold_ms = -1; /* then the shortest latency a fold reached */
    char **specs = NULL;
    int i, si, nspec = 1, is_auto, searched = 0, nmem, nx2, lat_prune, ncand = 0;
    char why[200], note[160];
    if (!o)
        o = &dflt;
    nmem = b->uram > 0 ? 4 : 2;
    nx2 = clk2x_modes(b, o, why, sizeof why) & 2 ? 3 : 1;
    if (!o->fold || !strcmp(o->fold, "none"))
        return plan_build_clk(g, b, o, 0, 1, 0, e);
    is_auto = !strcmp(o->fold, "auto");
    if (is_auto) {
        none = plan_build_clk(g, b, o, 0, 1, 0, e);
        if (!none && o->max_latency_ms > 0) {
            /* it misses the bound: a fold may meet it; the plan without the
             * bound is the fallback's figures, and every fold is a candidate */
            ebound = *e;
            nb = *o;
            nb.max_latency_ms = 0;
            none = plan_build_clk(g, b, &nb, 0, 1, 0, e);
            none_misses = none != NULL;
        }
        if (!none)
            return NULL;
        /* the sets, nested from the smallest map up; each engine size of
         * each set is searched unless it cannot beat the best plan yet
         * (fold_may_beat): the larger sets' frames outgrow it */
        nspec = hls_fold_auto_sets(none, &specs);
    }
    fo = *o;
    fo.eff_first = is_auto && o->max_latency_ms <= 0;
    for (si = 0; si < nspec; si++) {
        if (is_auto)
            fo.fold = specs[si];
        /* each size with one weight bank and with two, on boards with
         * URAM its line buffers in block RAM and in URAM, and where o asks
         * for clk2x and the board's FMAX allows it its multipliers on the
         * fabric clock and on clk2x (half their DSPs, the LUT beside
         * them as kiln_conv's model prices it): two input lanes a DSP,
         * and at an even PP two pixels; then each of these again with the
         * weights on two read masters where that shortens the engine
         * (fold_wch_pays): the search then sizes the dataflow beside the
         * engine's frame at WCH 2, where the trial after it
         * (hls_fold_wch) weighs WCH 2 only on the size and dataflow a
         * search at WCH 1 chose */
        for (i = 0; i < FOLD_NSIZES * nmem * nx2 * 2; i++) {
            int sz = i % FOLD_NSIZES, lb = (i / FOLD_NSIZES) % nmem; /* HLS_FOLD_* bits */
            int x2 = i / (FOLD_NSIZES * nmem) % nx2; /* kiln_conv DSP2X (0: fabric clock) */
            int wch = i / (FOLD_NSIZES * nmem * nx2); /* kiln_tsconv WCH 2 (0: WCH 1) */
            HlsPlan *q;
            if (b->uram <= 0)
                lb *= HLS_FOLD_WB2;
            if (x2 == 2 && fold_sizes[sz][1] % 2)
                continue;
            lb |= x2 ? HLS_FOLD_DSP2X : 0;
            lb |= x2 == 2 ? HLS_FOLD_DSP2P : 0;
            /* block-RAM line buffers banked by pixel where that applies and
             * saves blocks (fold_lbbank) */
            lb |= lb & HLS_FOLD_LBURAM ? 0 : HLS_FOLD_LBBANK;
            memset(&e2, 0, sizeof e2);
            if (o->pp_max > 0 && fold_sizes[sz][1] > o->pp_max) /* --pp-max bounds it too */
                continue;
            if (wch && !fold_wch_pays(g, b, &fo, fo.fold, sz, lb))
                continue;
            lb |= wch ? HLS_FOLD_WCH2 : 0;
            /* auto: against the plan without a fold too; a named set once
             * one size has a plan (a failure before that names the cause) */
            /* under a bound, once one size has been searched (its message
             * says how close a fold came), none whose engine alone misses it */
            lat_prune = o->max_latency_ms > 0 && (best || searched > 0);
            if ((is_auto || best || lat_prune) &&
                !fold_may_beat(g, b, &fo, fo.fold, sz, lb, best ? best : none_misses ? NULL : none,
                               lat_prune))
                continue;
            searched++;
            q = plan_build_clk(g, b, &fo, fold_sizes[sz][0], fold_sizes[sz][1], lb, &e2);
            if (!q && none_misses) { /* meet_bound's message says how close it came */
                static const char reach[] = "the planner reaches is ";
                const char *r = strstr(e2.msg, reach);
                double ms;
                if (r && sscanf(r + sizeof reach - 1, "%lf", &ms) == 1 &&
                    (fold_ms < 0 || ms < fold_ms))
                    fold_ms = ms;
            }
            if (q && wch && !hls_fold_hp_free(q)) { /* the search's channels took the port */
                gir_error_at(&e2, gir_loc_none(), "plan: the weights' second master needs an HP "
                             "port of %s beyond the design's masters", b->name);
                hls_plan_free(q);
                q = NULL;
            }
            if (!q) {
                if (!is_auto && !best && sz + 1 == FOLD_NSIZES)
                    *e = e2; /* no size fits: the last one's reason */
                continue;
            }
            snprintf(q->fold.why, sizeof q->fold.why,
                     "%s: %d conv layers on a %dx%d array, PP %d%s%s%s%s%s%s, %.1f frames/s",
                     is_auto ? "--fold auto" : "--fold", q->fold.n, q->fold.pe, q->fold.pe,
                     q->fold.pp, lb & HLS_FOLD_LBURAM ? ", line buffers in URAM" : "",
                     fold_banked(q) ? ", line buffer banked by pixel (LBBANK)" : "",
                     q->fold.mem & HLS_FOLD_LBR2 ? ", line buffer of twice the rows (LBROWS)"
                                                 : "",
                     lb & HLS_FOLD_WB2 ? ", two weight banks" : "",
                     q->fold.mem & HLS_FOLD_WCH2 ? ", weights on two masters (WCH 2)" : "",
                     q->fold.dsp2x == 2 ? ", DSPs on clk2x (pixel pairs, DSP2X 2)" :
                     q->fold.dsp2x ? ", DSPs on clk2x (input-lane pairs, DSP2X 1)" : "",
                     q->fps);
            /* every plan kept until fold_pick (the fastest so far is the bar) */
            cand = realloc(cand, sizeof *cand * (size_t)(ncand + 1));
            if (!cand)
                gir_die("out of memory");
            cand[ncand++] = q;
            if (plan_better(q, best))
                best = q;
            else if (!fo.eff_first) { /* fold_pick takes the fastest */
                hls_plan_free(q);
                ncand--;
            }
        }
    }
    best = fold_pick(cand, ncand, fo.eff_first, note, sizeof note);
    free(cand);
    for (si = 0; si < nspec && specs; si++)
        free(specs[si]);
    free(specs);
    if (is_auto) {
        if (none_misses && !best) { /* nothing meets the bound: the first message */
            *e = ebound;
            if (fold_ms >= 0) {
                size_t n = strlen(e->msg);
                snprintf(e->msg + n, sizeof e->msg - n,
                         "; with a shared engine (--fold auto) the shortest is %.3f ms", fold_ms);
            }
            hls_plan_free(none);
            return NULL;
        }
        if (best && (none_misses || plan_better(best, none))) {
            size_t n = strlen(best->fold.why);
            snprintf(best->fold.why + n, sizeof best->fold.why - n,
                     " against %.1f without a shared engine%s (%d sets, %d set x size "
                     "searches)", none->fps, none_misses ? " (over --max-latency-ms)" : "",
                     nspec, searched);
            n = strlen(best->fold.why);
            snprintf(best->fold.why + n, sizeof best->fold.why - n, "%s", note);
            hls_plan_free(none);
            return best;
        }
        if (best)
            snprintf(none->fold.why, sizeof none->fold.why,
                     "--fold auto: not taken, %.1f frames/s without a shared engine against "
                     "%.1f with it (%d sets, %d set x size searches)", none->fps, best->fps,
                     nspec, searched);
        else if (nspec)
            snprintf(none->fold.why, sizeof none->fold.why,
                     "--fold auto: not taken, no set of the %d tried (convs of the smallest "
                     "maps, nested) has an engine that fits and beats %.1f frames/s",
                     nspec, none->fps);
        else
            snprintf(none->fold.why, sizeof none->fold.why,
                     "--fold auto: no two or more convs to fold");
        hls_plan_free(best);
        return none;
    }
    if (best) { /* a named set: the size fold_pick took */
        size_t n = strlen(best->fold.why);
        snprintf(best->fold.why + n, sizeof best->fold.why - n, "%s", note);
    }
    return best;
}

int hls_plan_reeval(HlsPlan *p, GirError *e)
{
    char c1[32];
    /* twice: the second counts the DDR skip channels the first decided */
    if (hls_plan_eval(p, 0, e) < 0 || hls_plan_eval(p, 0, e) < 0)
        return -1;
    hls_mcycles(c1, sizeof c1, p->compute_ii);
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
