/*
 * After the latency steps under a latency bound with a shared engine: its
 * parts cut again, the LUTs left spent on DSP efficiency, and the DSP48E2
 * a cut leaves idle given back (hls_fold_recut).
 *
 * The search cuts the engine's parts (fold_cuts in hls/plan.c) before the
 * latency steps, on a plan whose dataflow segments are still the search's;
 * the steps then grow the segments (more pool lanes, a larger first conv)
 * and a cut that did not pay before may pay after.  With two frames in
 * flight the next frame enters at a gate and its first segment runs beside
 * the tail of the frame before (the runs after the gate); the interval is
 * a frame's runs one after the other less the shorter of the two.  A cut
 * that lengthens the tail to the first segment shortens the interval.
 * The short segments between the engine's parts are in the interval one
 * after the other, so a pool's lane step may shorten it; the latency steps
 * grew the pools for the latency, not for that.  The LUTs left go to those
 * steps and to one DSP48E2 a requant lane (RQ_DSP 1), whichever raises the
 * DSP efficiency most for its LUTs.  After a cut the first segment is
 * hidden behind the tail, so its arrays may take fewer DSP48E2 within the
 * interval the plan had before the pass (hls_trim_dsp with that cap), and
 * the LUTs that frees are spent again.  Frames/s never fall below the plan
 * the pass is given.
 *
 * Needs: the plan after the latency steps and hls_trim_dsp, its bound set
 * (p->max_latency_ms, p->lat_goal).  Leaves the plan evaluated.
 */
#include "hls/plan_int.h"

#include <string.h>

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
            ok = hls_fold_cut(p, i, 1, NULL) == 0 && hls_plan_fits(p, NULL);
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

/* Engine k's requant lanes (stage k, or the shared engine: k = nstage) on
 * rq_dsp DSP48E2 each. */
static void set_rq(HlsPlan *p, int k, int rq_dsp)
{
    if (k == p->nstage)
        hls_fold_set_rq_dsp(p, rq_dsp);
    else
        p->stages[k].rq_dsp = rq_dsp;
}

/* Move m of spend_luts on p: m < nstage a lane step of stream engine m
 * (no DSP48E2: pools, concats, upsamples), else one DSP48E2 a requant lane
 * of engine m - nstage (a stage, or the shared engine at 2 nstage); 0 when
 * it does not apply.  d gets the lane step's text. */
static int apply_move(HlsPlan *p, int m, int rq_dsp1, char *d, size_t n)
{
    int k = m - p->nstage;
    if (m < p->nstage) {
        HlsStage *s = &p->stages[m];
        if (s->pinned || hls_is_conv(s) || !hls_step_up(s, 3, p->mhz, p->pp_max, d, n))
            return 0;
        hls_pace_producers(p, m, d, n);
        return 1;
    }
    if (!rq_dsp1 || (k < p->nstage ? !hls_has_requant(&p->stages[k]) || p->stages[k].rq_dsp == 1
                                   : p->fold.n == 0 || p->fold.rq_dsp == 1))
        return 0;
    set_rq(p, k, 1);
    return 1;
}

/* The LUTs left spent where they raise the DSP efficiency most for what
 * they cost: each round, among a lane step of a stream engine (after a cut
 * the short segments between the engine's parts are in the interval one
 * after the other, so a pool's step can shorten it) and one DSP48E2 a
 * requant lane of an engine (rq_dsp1), the move of the largest gain in DSP
 * efficiency per LUT with which the plan fits, keeps its interval or
 * shortens it and stays within the bound.  hls_rq_dsp_choose keeps two
 * DSP48E2 a lane where LUTs bind, since there the search spent the LUTs
 * on throughput; these it did not.  The number of moves taken. */
static int spend_luts(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], int rq_dsp1,
                      GirError *e)
{
    size_t n = (size_t)p->nstage;
    int taken = 0;
    for (;;) {
        int64_t ii = p->interval;
        double eff = p->dsp_eff, lut = p->total.lut, best = 0.0;
        int m, bm = -1, rq = p->fold.rq_dsp;
        char d[64];
        memcpy(save, p->stages, sizeof *save * n);
        for (m = 0; m <= 2 * p->nstage; m++) {
            double score;
            if (!apply_move(p, m, rq_dsp1, d, sizeof d))
                continue;
            if (hls_plan_fits(p, e) && p->latency <= p->lat_goal &&
                p->interval <= ii && p->dsp_eff > eff) {
                score = (p->dsp_eff - eff) / (p->total.lut - lut > 1.0 ? p->total.lut - lut : 1.0);
                if (score > best) {
                    best = score;
                    bm = m;
                }
            }
            memcpy(p->stages, save, sizeof *save * n);
            if (m == 2 * p->nstage)
                hls_fold_set_rq_dsp(p, rq);
        }
        if (bm < 0)
            break;
        apply_move(p, bm, rq_dsp1, d, sizeof d);
        hls_plan_eval(p, 0, e);
        if (bm < p->nstage && p->interval < ii)
            snprintf(grow[bm], sizeof grow[bm], "grown to LANES %d after the latency steps: its "
                     "segment is in the interval (%lld -> %lld cycles)", p->stages[bm].lanes,
                     (long long)ii, (long long)p->interval);
        taken++;
    }
    hls_plan_eval(p, 0, e);
    return taken;
}

int hls_fold_recut(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], int rq_dsp1,
                   GirError *e)
{
    int64_t ii0;
    int cuts, moves;
    if (p->fold.n == 0 || p->lat_goal <= 0 || p->max_latency_ms <= 0 ||
        !hls_plan_fits(p, e))
        return 0;
    ii0 = p->interval;
    cuts = take_cuts(p, e);
    moves = spend_luts(p, save, grow, rq_dsp1, e);
    /* behind the longer tail the first segment's arrays may take longer */
    if (cuts > 0 && hls_trim_dsp(p, save, grow, ii0, 0, e))
        moves += spend_luts(p, save, grow, rq_dsp1, e);
    hls_plan_eval(p, 0, e);
    return cuts + moves > 0;
}
