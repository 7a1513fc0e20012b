/*
 * The requant lanes' DSP48E2 per engine (kiln_requant RQ_DSP), chosen after
 * the search.
 *
 * A requant lane's 32x16 product takes two DSP48E2 (RQ_DSP 2, the default)
 * or one, with the acc[31:26] x m part as a shift-add in LUTs (RQ_DSP 1:
 * the same results and latency, about 140 to 240 more LUT a lane).  Where
 * DSPs bind the plan the one-DSP lane raises its DSP efficiency at no cost
 * in frames/s or latency; where LUTs bind it would take LUTs the search
 * spent on throughput, so there every lane keeps two (docs/plan.md "The
 * requant lanes' DSPs").
 *
 * Needs: a plan, evaluated (hls_plan_eval): the search's, or a replayed one
 * where --rq-dsp asks (else it keeps what its plan.json says).  Leaves the
 * plan evaluated.
 */
#include "hls/plan_int.h"

void hls_fold_set_rq_dsp(HlsPlan *p, int rq_dsp)
{
    HlsFold *f = &p->fold;
    const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
    if (f->n == 0 || !d)
        return;
    f->rq_dsp = rq_dsp == 1 ? 1 : 2;
    f->hw[hls_param_index(d->hw_params, "RQ_DSP")] = f->rq_dsp;
    f->res = d->resources(f->hw); /* as fold_size sizes it */
}

/* Engine k's RQ_DSP: stage k, or the shared engine (k = nstage). */
static void set_rq(HlsPlan *p, int k, int v)
{
    if (k == p->nstage)
        hls_fold_set_rq_dsp(p, v);
    else
        p->stages[k].rq_dsp = v;
}

/* Whether p, evaluated, fits every budget and keeps the interval and the
 * latency of the plan it came from (interval, latency) at a higher DSP
 * efficiency than eff. */
static int better(const HlsPlan *p, int64_t interval, int64_t latency, double eff)
{
    char over[160];
    return !hls_plan_over_budget(p, over, sizeof over) && p->interval <= interval &&
           p->latency <= latency && p->dsp_eff > eff;
}

int hls_rq_dsp_choose(HlsPlan *p, GirError *e)
{
    int64_t interval = p->interval, latency = p->latency;
    double eff = p->dsp_eff;
    int k, n = 0, all = 0;
    if (p->budget.dsp <= 0.0 || p->budget.lut <= 0.0 ||
        p->total.dsp / p->budget.dsp < p->total.lut / p->budget.lut)
        return 0; /* LUTs bind (or nothing does): two DSP48E2 a lane */
    /* every engine at once, the common case on a board DSPs bind */
    for (k = 0; k <= p->nstage; k++)
        if (k == p->nstage ? p->fold.n > 0 && p->fold.rq_dsp != 1
                           : hls_has_requant(&p->stages[k]) && p->stages[k].rq_dsp != 1) {
            set_rq(p, k, 1);
            all++;
        }
    if (all == 0)
        return 0;
    if (hls_plan_eval(p, 0, e) < 0)
        return -1;
    if (better(p, interval, latency, eff))
        return all;
    for (k = 0; k <= p->nstage; k++)
        if (k < p->nstage ? hls_has_requant(&p->stages[k]) : p->fold.n > 0)
            set_rq(p, k, 2);
    /* else one engine at a time, the shared engine first (the most lanes),
     * each kept where the plan still fits */
    for (k = p->nstage; k >= 0; k--) {
        if (k < p->nstage ? !hls_has_requant(&p->stages[k]) : p->fold.n == 0)
            continue;
        set_rq(p, k, 1);
        if (hls_plan_eval(p, 0, e) < 0)
            return -1;
        if (better(p, interval, latency, eff)) {
            eff = p->dsp_eff;
            n++;
        } else
            set_rq(p, k, 2);
    }
    if (hls_plan_eval(p, 0, e) < 0)
        return -1;
    return n;
}

int hls_plan_rq_dsp(HlsPlan *p, int mode, GirError *e)
{
    int k;
    for (k = 0; k <= p->nstage; k++) /* from two a lane everywhere */
        if (k < p->nstage ? hls_has_requant(&p->stages[k]) : p->fold.n > 0)
            set_rq(p, k, 2);
    if (hls_plan_eval(p, 0, e) < 0)
        return -1;
    if (mode == HLS_RQ_DSP_AUTO && hls_rq_dsp_choose(p, e) < 0)
        return -1;
    /* a replayed plan's reasons name the choice too */
    return p->replayed ? hls_plan_reeval(p, e) : 0;
}
