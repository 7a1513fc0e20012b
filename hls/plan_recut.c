/*
 * The shared engine's parts cut again after the latency steps, and the DSP48E2
 * the cut leaves idle given back (hls_fold_recut).
 *
 * Under a latency bound the search cuts the engine's parts (fold_cuts in
 * hls/plan.c) before the latency steps, on a plan whose dataflow segments
 * are still the search's; the steps then grow the segments (more pool lanes,
 * a larger first conv) and a cut that did not pay before may pay after.
 * With two frames in flight the next frame enters at a gate and its first
 * segment runs beside the tail of the frame before (the runs after the
 * gate); the interval is a frame's runs one after the other less the
 * shorter of the two.  A cut that lengthens the tail to the first segment
 * shortens the interval; the short segments between the engine's parts
 * are then in the interval one after the other, so a pool's lane step
 * shortens it too, and the first segment is hidden behind the tail, so
 * its arrays may take fewer DSP48E2 within the interval the plan had
 * before the cut (hls_trim_dsp with that cap).  The LUTs the trim frees
 * go to one DSP48E2 a requant lane (RQ_DSP 1), engine by engine, where the
 * plan keeps its budgets, interval and latency at a higher DSP efficiency:
 * hls_rq_dsp_choose keeps two a lane on a plan LUTs bind, since there the
 * search spent the LUTs on throughput; these LUTs it did not.
 *
 * Needs: the plan after the latency steps and hls_trim_dsp, its bound set
 * (p->max_latency_ms, p->lat_goal).  Does nothing unless a cut shortens
 * the interval.  Leaves the plan evaluated.
 */
#include "hls/plan_int.h"

#include <string.h>

/* Whether p, evaluated, fits every budget and is not DDR-bound. */
static int fits(const HlsPlan *p)
{
    char over[160];
    return !p->ddr_bound && !hls_plan_over_budget(p, over, sizeof over);
}

/* The cut of the shortest interval within the bound, one at a time while
 * one shortens it; the number taken. */
static int take_cuts(HlsPlan *p, GirError *e)
{
    HlsFold *f = &p->fold;
    int taken = 0, best;
    do {
        int64_t biv = p->interval;
        int i;
        best = -1;
        for (i = 1; i < f->n; i++) {
            int ok;
            int64_t iv, lat;
            if (f->layers[i].cut || f->layers[i].phase != f->layers[i - 1].phase)
                continue;
            ok = hls_fold_cut(p, i, 1, NULL) == 0 && hls_plan_eval(p, 0, NULL) == 0 && fits(p);
            iv = p->interval;
            lat = p->latency;
            hls_fold_cut(p, i, 0, NULL);
            if (ok && lat <= p->lat_goal && iv < biv) {
                best = i;
                biv = iv;
            }
        }
        if (best > 0) {
            hls_fold_cut(p, best, 1, NULL);
            taken++;
        }
        hls_plan_eval(p, 0, e);
    } while (best > 0);
    return taken;
}

/* The stream engines (pools, concats, upsamples: no DSP48E2) a lane step
 * up where that shortens the interval within the bound and the budgets:
 * after the cut the short segments between the engine's parts are in the
 * interval one after the other.  Each round the step of the shortest
 * interval (then the fewest LUT); the number taken. */
static int grow_lanes(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e)
{
    size_t n = (size_t)p->nstage;
    int taken = 0;
    for (;;) {
        int64_t ii = p->interval, biv = ii;
        double blut = 0.0;
        int i, bi = -1;
        char d[64];
        memcpy(save, p->stages, sizeof *save * n);
        for (i = 0; i < p->nstage; i++) {
            HlsStage *s = &p->stages[i];
            if (s->pinned || hls_is_conv(s) || !hls_step_up(s, 3, p->mhz, p->pp_max, d, sizeof d))
                continue;
            hls_pace_producers(p, i, d, sizeof d);
            if (hls_plan_eval(p, 0, e) == 0 && fits(p) && p->latency <= p->lat_goal &&
                (p->interval < biv || (bi >= 0 && p->interval == biv && p->total.lut < blut))) {
                bi = i;
                biv = p->interval;
                blut = p->total.lut;
            }
            memcpy(p->stages, save, sizeof *save * n);
        }
        if (bi < 0)
            break;
        hls_step_up(&p->stages[bi], 3, p->mhz, p->pp_max, d, sizeof d);
        hls_pace_producers(p, bi, d, sizeof d);
        hls_plan_eval(p, 0, e);
        snprintf(grow[bi], sizeof grow[bi], "grown to LANES %d after the engine's part was cut: "
                 "its segment is in the interval (%lld -> %lld cycles)", p->stages[bi].lanes,
                 (long long)ii, (long long)p->interval);
        taken++;
    }
    hls_plan_eval(p, 0, e);
    return taken;
}

/* Engine k's requant lanes (stage k, or the shared engine: k = nstage) on
 * rq_dsp DSP48E2 each. */
static void set_rq(HlsPlan *p, int k, int rq_dsp)
{
    if (k == p->nstage)
        hls_fold_set_rq_dsp(p, rq_dsp);
    else
        p->stages[k].rq_dsp = rq_dsp;
}

/* One DSP48E2 a requant lane, the shared engine first (the most lanes),
 * each engine kept where the plan fits, keeps its interval and latency and
 * gains DSP efficiency; the number taken. */
static int rq_one(HlsPlan *p, GirError *e)
{
    int64_t ii = p->interval, lat = p->latency;
    int k, n = 0;
    for (k = p->nstage; k >= 0; k--) {
        double eff = p->dsp_eff;
        int was;
        if (k < p->nstage ? !hls_has_requant(&p->stages[k]) || p->stages[k].rq_dsp == 1
                          : p->fold.n == 0 || p->fold.rq_dsp == 1)
            continue;
        was = k < p->nstage ? p->stages[k].rq_dsp : p->fold.rq_dsp;
        set_rq(p, k, 1);
        if (hls_plan_eval(p, 0, e) == 0 && fits(p) && p->interval <= ii && p->latency <= lat &&
            p->dsp_eff > eff) {
            n++;
            continue;
        }
        set_rq(p, k, was);
        hls_plan_eval(p, 0, e);
    }
    return n;
}

int hls_fold_recut(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], int rq_dsp1,
                   GirError *e)
{
    int64_t ii0;
    if (p->fold.n == 0 || p->lat_goal <= 0 || p->max_latency_ms <= 0 ||
        hls_plan_eval(p, 0, e) != 0 || !fits(p))
        return 0;
    ii0 = p->interval;
    if (take_cuts(p, e) == 0)
        return 0;
    grow_lanes(p, save, grow, e);
    hls_trim_dsp(p, save, grow, ii0, e);
    if (rq_dsp1)
        rq_one(p, e);
    hls_plan_eval(p, 0, e);
    return 1;
}
