/*
 * hls/plan_search.c: the design-space exploration.  From the smallest
 * design, greedy balancing grows the slowest stage by the step that saves
 * the most cycles per share of the budgets until no step fits, gives back
 * what the interval does not need and grows again; it runs under several
 * step costs, from the smallest design and from folded starts (every stage
 * the cheapest array within a target interval, the shortest target found
 * by bisection).  The plan with the shortest interval, then latency, then
 * the smallest share of the budgets, is kept.  Entry point:
 * hls_plan_search; the array steps (hls_step_up, hls_step_down) and the
 * candidate arrays (hls_fold_cands) serve hls/plan_latency.c too.
 *
 * Needs a plan evaluated from its smallest design (pins set) that fits
 * the budgets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/plan_int.h"
#include "hls/res_util.h"

#define LANES_MAX 64   /* widest stream engine the planner builds */
#define SEARCH_ROUNDS 4 /* grow / give back rounds of the search */
#define SEARCH_MODES 4 /* step costs the search tries (step_cost) */
#define FOLD_PRICE_ROUNDS 8 /* price doublings fold_fits tries at one target */
#define FOLD_STARTS 5 /* folded starts of the search: one price; priced; priced with
                       * exact candidates; the two priced ones without the DDR
                       * re-pick (fold_start) */
#define FOLD_SLACK 50 /* a folded stage meets target t within t + t/50 (its cycles
                       * after weight placement against its candidate's) */

/* Register levels for the clock: at 250 MHz and above every adder-tree level
 * and all four requant stages (logic depth about 15 cells,
 * docs/rtl-resources.md); below, half the tree and three requant stages. */
void hls_set_pipeline(HlsStage *s, double mhz)
{
    int l = (int)hls_clog2(s->pe_ic);
    s->pipe = mhz >= 250.0 ? l : (l + 1) / 2;
    s->rq_pipe = mhz >= 250.0 ? 4 : 3;
    if (s->kind == HLS_ST_MAXPOOL)
        s->pipe = mhz >= 250.0 ? 1 : 0;
    if (s->kind == HLS_ST_REQUANT || s->kind == HLS_ST_DWCONV)
        s->rq_pipe = mhz >= 250.0 ? 4 : 3;
}

/* Channels a stream engine's lanes may grow to. */
int64_t hls_lane_cap(const HlsStage *s)
{
    int64_t c = s->kind == HLS_ST_CONCAT ? (s->cin > s->cin2 ? s->cin : s->cin2) : s->cin;
    int64_t cap = hls_pow2ceil(c);
    return cap > LANES_MAX ? LANES_MAX : cap;
}

void hls_stage_init(HlsStage *s, double mhz)
{
    if (hls_is_conv(s)) {
        s->pe_ic = HLS_WLANES_MIN;
        s->pe_oc = s->cout >= 2 ? 2 : 1;
        s->pp = 1;
    } else {
        s->lanes = 2;
    }
    s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
    hls_set_pipeline(s, mhz);
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
int hls_step_up(HlsStage *s, int k, double mhz, int pp_max, char *desc, size_t n)
{
    if (hls_is_conv(s)) {
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
        hls_set_pipeline(s, mhz);
        return 1;
    }
    if (k == 3 && s->lanes < hls_lane_cap(s) && s->kind != HLS_ST_LUT) {
        s->lanes *= 2;
        snprintf(desc, n, "LANES %d", s->lanes);
        return 1;
    }
    return 0;
}

int hls_pace_producers(HlsPlan *p, int i, char *desc, size_t n)
{
    HlsStage *c = &p->stages[i];
    int k, grown = 0;
    if (c->kind != HLS_ST_CONCAT)
        return 0;
    for (k = 0; k < c->nin; k++) {
        HlsStage *u = c->in[k] >= 0 ? &p->stages[c->in[k]] : NULL;
        size_t l = strlen(desc);
        if (!u || u->segment != c->segment || c->in_ddr[k] || hls_is_conv(u) || u->pinned ||
            u->kind == HLS_ST_LUT || u->lanes >= c->lanes)
            continue;
        while (u->lanes < c->lanes && u->lanes < hls_lane_cap(u))
            u->lanes *= 2;
        if (l + 1 < n)
            snprintf(desc + l, n - l, ", %s LANES %d", u->node, u->lanes);
        grown = 1;
    }
    return grown;
}

/* The inverse of hls_step_up: step k of a stage one size down; 0 when it is
 * at its smallest. */
int hls_step_down(HlsStage *s, int k, double mhz)
{
    if (hls_is_conv(s)) {
        if (k == 0 && s->pe_ic > HLS_WLANES_MIN)
            s->pe_ic /= 2;
        else if (k == 1 && s->pe_oc > (s->cout >= 2 ? 2 : 1))
            s->pe_oc /= 2;
        else if (k == 2 && s->pp > 1)
            s->pp = pp_prev(s->pp);
        else
            return 0;
        s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
        hls_set_pipeline(s, mhz);
        return 1;
    }
    if (k == 3 && s->lanes > 2 && s->kind != HLS_ST_LUT) {
        s->lanes /= 2;
        return 1;
    }
    return 0;
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
        return hls_budget_share(b, a, budget);
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
 * (hls_budget_share) first, until none is left.  Returns the steps taken. */
static int shrink_stages(HlsPlan *p, HlsStage *save, GirError *e)
{
    const HlsRes zero = {0};
    int taken = 0;
    char ob[160];
    for (;;) {
        int i, k, bi = -1, bk = -1;
        int64_t ii = p->interval;
        double share = hls_budget_share(&p->total, &zero, &p->budget), bsave = 1e-9;
        memcpy(save, p->stages, sizeof *save * (size_t)p->nstage);
        for (i = 0; i < p->nstage; i++)
            for (k = 0; k < 4; k++) {
                double sh;
                if (p->stages[i].pinned || !hls_step_down(&p->stages[i], k, p->mhz))
                    continue;
                if (hls_plan_eval(p, 1, e) == 0 && !p->ddr_bound && p->interval <= ii &&
                    !hls_plan_over_budget(p, ob, sizeof ob)) {
                    sh = share - hls_budget_share(&p->total, &zero, &p->budget);
                    if (sh > bsave) {
                        bsave = sh;
                        bi = i;
                        bk = k;
                    }
                }
                memcpy(p->stages, save, sizeof *save * (size_t)p->nstage);
            }
        if (bi >= 0)
            hls_step_down(&p->stages[bi], bk, p->mhz);
        hls_plan_eval(p, 1, e); /* the figures of the stages kept */
        if (bi < 0)
            break;
        taken++;
    }
    return taken;
}

/* Greedy balancing: grow the slowest stage by the step that saves the most
 * cycles per cost (step_cost of `mode`) until no step fits; p->limit says
 * what stopped it.  save: room for the stages. */
static void grow_slowest(HlsPlan *p, int mode, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e)
{
    int step, pass;
    for (step = 0; step < 100000; step++) {
        int si = p->slowest, best_k = -1, k;
        HlsStage *s = &p->stages[si];
        int64_t old = s->paced; /* its cycles at its inputs' pace */
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
                if (!hls_step_up(&p->stages[si], pass ? k / 4 : k, p->mhz, p->pp_max, d, sizeof d))
                    continue;
                if (pass) {
                    if (!hls_step_up(&p->stages[si], k % 4, p->mhz, p->pp_max, d2, sizeof d2)) {
                        memcpy(p->stages, save, sizeof *save * (size_t)p->nstage);
                        continue;
                    }
                    snprintf(d + strlen(d), sizeof d - strlen(d), ", %s", d2);
                }
                hls_pace_producers(p, si, d, sizeof d);
                if (hls_plan_eval(p, 1, e) == 0) {
                    if (hls_plan_over_budget(p, ob, sizeof ob)) {
                        if (!fail[0])
                            snprintf(fail, sizeof fail, "next step (%s) exceeds %s", d, ob);
                    } else if (p->stages[si].paced < old) {
                        ddsp = step_cost(mode, &p->total, &oldtot, &p->budget);
                        if (mode == 3 && k != 0) /* not PE_IC (pass 1: not both) */
                            ddsp *= 2.0; /* mode 3: wider trees before more lanes */
                        score = (double)(old - p->stages[si].paced) / (ddsp > 1e-6 ? ddsp : 1e-6);
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
            hls_plan_eval(p, 1, e);
            break;
        }
        if (best_k < 4) {
            hls_step_up(&p->stages[si], best_k, p->mhz, p->pp_max, c1, sizeof c1);
        } else {
            hls_step_up(&p->stages[si], (best_k - 4) / 4, p->mhz, p->pp_max, c1, sizeof c1);
            hls_step_up(&p->stages[si], (best_k - 4) % 4, p->mhz, p->pp_max, c1, sizeof c1);
        }
        if (hls_pace_producers(p, si, c1, sizeof c1)) {
            int j;
            for (j = 0; j < p->nstage; j++)
                if (j != si && p->stages[j].lanes != save[j].lanes)
                    snprintf(grow[j], sizeof grow[j], "grown to LANES %d with %s, which it feeds "
                             "through kiln_width (a narrower producer paces a concat)",
                             p->stages[j].lanes, p->stages[si].node);
        }
        hls_plan_eval(p, 1, e);
        hls_mcycles(c1, sizeof c1, old);
        hls_mcycles(c2, sizeof c2, p->stages[si].paced);
        snprintf(grow[si], sizeof grow[si], "last grown to %s as the slowest stage (%s -> %s)",
                 bdesc, c1, c2);
        p->dse_steps++;
    }
}

/* Grow the slowest stage until stuck, give back what the interval does
 * not need, and grow again while that shortens the interval; a round that
 * does not is undone. */
static void search(HlsPlan *p, int mode, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e)
{
    int round;
    HlsStage *keep = malloc(sizeof *keep * (size_t)p->nstage);
    char (*kgrow)[HLS_GROW_LEN] = malloc(sizeof *kgrow * (size_t)p->nstage);
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
            hls_plan_eval(p, 1, e);
            break;
        }
    }
    free(keep);
    free(kgrow);
}

/* Every array stage s may take with PP up to pp_max (the search's steps
 * from its smallest array), weights where they are now; *n gets the count.
 * NULL for a pinned stage.  exact: a conv's cycles with the weight tile
 * the placement gives a layer streaming from DDR and its input's DDR pace
 * for each array (else the tile and pace of s as it stands). */
HlsFoldCand *hls_fold_cands(HlsPlan *p, const HlsStage *s0, int pp_max, int exact, int *n)
{
    HlsStage s = *s0;
    HlsFoldCand *c;
    int ic, oc, pp, ln, cap, nic = 1, noc = 1, k = 0;
    *n = 0;
    if (s.pinned)
        return NULL;
    if (hls_is_conv(&s)) {
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
    if (hls_is_conv(&s)) {
        int oc0 = s.cout >= 2 ? 2 : 1;
        for (ic = HLS_WLANES_MIN; ic == HLS_WLANES_MIN || ic <= hls_pow2ceil(s.cin); ic *= 2)
            for (oc = oc0; oc == oc0 || oc <= hls_pow2ceil(s.cout); oc *= 2)
                for (pp = 1; pp <= pp_max && k < cap; pp = pp_next(pp)) {
                    int64_t kki = s.k * s.k * hls_cdiv(s.cin, ic);
                    if (pp > 1 && (kki < pp || s.ow < pp))
                        break;
                    s.pe_ic = ic, s.pe_oc = oc, s.pp = pp;
                    s.pack = oc % 2 == 0 ? 2 : 1;
                    hls_set_pipeline(&s, p->mhz);
                    if (exact && s.whome == HLS_W_DDR) /* the tile placement gives it */
                        s.tog = hls_ddr_tog(&s);
                    if (exact)
                        s.ipace = hls_input_pace(p, &s);
                    if (hls_stage_eval(p, &s) < 0)
                        continue;
                    c[k].pe_ic = ic, c[k].pe_oc = oc, c[k].pp = pp, c[k].lanes = s.lanes;
                    c[k].cycles = s.cycles;
                    c[k++].res = s.res;
                }
    } else {
        for (ln = 2; (ln == 2 || ln <= hls_lane_cap(&s)) && k < cap; ln *= 2) {
            s.lanes = ln;
            if (hls_stage_eval(p, &s) < 0)
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
void hls_take_cand(HlsPlan *p, HlsStage *s, const HlsFoldCand *c)
{
    if (hls_is_conv(s)) {
        s->pe_ic = c->pe_ic, s->pe_oc = c->pe_oc, s->pp = c->pp;
        s->pack = s->pe_oc % 2 == 0 ? 2 : 1;
        hls_set_pipeline(s, p->mhz);
    } else {
        s->lanes = c->lanes;
    }
}

/* Set stage s to its cheapest candidate whose cycles stay within t (the
 * fastest when none does); a candidate costs the sum over resources of its
 * share of the budget, each at the price w[r]. */
static void fold_stage(HlsPlan *p, HlsStage *s, const HlsFoldCand *c, int n, int64_t t,
                       const double *w)
{
    int j, r, best = -1;
    double best_cost = 0.0;
    for (j = 0; j < n; j++) {
        double cost = 0.0;
        for (r = 0; r < 5; r++)
            if (hls_res_at(&p->budget, r) > 0)
                cost += w[r] * hls_res_at(&c[j].res, r) / hls_res_at(&p->budget, r);
        if (best < 0 || (c[j].cycles <= t && (c[best].cycles > t || cost < best_cost)) ||
            (c[best].cycles > t && c[j].cycles < c[best].cycles)) {
            best = j;
            best_cost = cost;
        }
    }
    if (best >= 0)
        hls_take_cand(p, s, &c[best]);
}

/* Whether some choice of every stage's cheapest array within target t
 * fits: the resources start at one price; while the plan breaks a budget,
 * the broken resources' prices double, and while the weight placement
 * slows a stage past the target (weights sent to DDR for want of on-chip
 * memory), block RAM's and URAM's do; FOLD_PRICE_ROUNDS rounds at most.
 * The stages trade a scarce resource for one that is left.  A stage the
 * placement sent to DDR and slowed past the target takes, from then on,
 * its cheapest array within the target among candidates timed with its
 * weights from DDR (exact, hls_fold_cands; cx, ncx keep them for the
 * following targets): the array a DDR weight stream keeps up with (fewer
 * output lanes, narrower weight beats); not with repick 0.  Unpriced: one round at one
 * price, and a plan that fits is taken however slow.  The plan's stages
 * are the last choice tried. */
static int fold_fits(HlsPlan *p, const HlsStage *init, HlsFoldCand **c, const int *nc,
                     HlsFoldCand **cx, int *ncx, int pp_max, int64_t t, int priced, int repick,
                     GirError *e)
{
    double w[5] = {1.0, 1.0, 1.0, 1.0, 1.0};
    int round, i, r, slow;
    char ob[160];
    for (round = 0; round < (priced ? FOLD_PRICE_ROUNDS : 1); round++) {
        memcpy(p->stages, init, sizeof *init * (size_t)p->nstage);
        for (i = 0; i < p->nstage; i++)
            fold_stage(p, &p->stages[i], cx[i] ? cx[i] : c[i], cx[i] ? ncx[i] : nc[i], t, w);
        if (hls_plan_eval(p, 1, e) != 0 || p->ddr_bound)
            return 0;
        for (slow = 0, i = 0; priced && i < p->nstage; i++) {
            HlsStage *s = &p->stages[i];
            if (s->cycles <= t + t / FOLD_SLACK)
                continue;
            slow = 1;
            if (repick && !cx[i] && hls_is_conv(s) && s->whome == HLS_W_DDR)
                cx[i] = hls_fold_cands(p, s, pp_max, 1, &ncx[i]);
        }
        if (hls_plan_over_budget(p, ob, sizeof ob)) {
            for (r = 0; r < 5; r++)
                if (hls_res_at(&p->total, r) > hls_res_at(&p->budget, r) + 1e-9)
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
 * stages (those of init when no target fits).  exact as hls_fold_cands,
 * priced and repick as fold_fits. */
static void fold_start(HlsPlan *p, const HlsStage *init, int pp_max, int exact, int priced,
                       int repick, HlsStage *fold, GirError *e)
{
    HlsFoldCand **c = calloc((size_t)p->nstage, sizeof *c);
    HlsFoldCand **cx = calloc((size_t)p->nstage, sizeof *cx);
    int *nc = calloc((size_t)p->nstage, sizeof *nc);
    int *ncx = calloc((size_t)p->nstage, sizeof *ncx);
    int64_t lo = 1, hi, t, best_ii = -1;
    int i;
    if (!c || !nc || !cx || !ncx)
        gir_die("out of memory");
    memcpy(p->stages, init, sizeof *init * (size_t)p->nstage);
    memcpy(fold, init, sizeof *init * (size_t)p->nstage);
    hls_plan_eval(p, 1, e);
    hi = p->interval;
    for (i = 0; i < p->nstage; i++)
        c[i] = hls_fold_cands(p, &p->stages[i], pp_max, exact, &nc[i]);
    while (lo < hi) {
        int ok;
        t = lo + (hi - lo) / 2;
        ok = fold_fits(p, init, c, nc, cx, ncx, pp_max, t, priced, repick, e);
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
    for (i = 0; i < p->nstage; i++) {
        free(c[i]);
        free(cx[i]);
    }
    free(c);
    free(cx);
    free(nc);
    free(ncx);
}

/* Search run `run`: step cost run % SEARCH_MODES; from the stages `init`
 * (the smallest design) with PP up to 2 in the first SEARCH_MODES runs when
 * --pp-max is larger, then up to it; the last FOLD_STARTS x SEARCH_MODES
 * runs from the folded starts, FOLD_STARTS x nstage stages in `fold`
 * (fold_start).  Leaves the plan, its grow reasons and step count. */
static void search_run(HlsPlan *p, int run, int user_pp, const HlsStage *init,
                       const HlsStage *fold, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e)
{
    int greedy = SEARCH_MODES * (user_pp > 2 ? 2 : 1);
    const HlsStage *from =
        run < greedy ? init : fold + (size_t)((run - greedy) / SEARCH_MODES) * (size_t)p->nstage;
    memset(grow, 0, sizeof *grow * (size_t)p->nstage);
    p->dse_steps = 0;
    p->pp_max = run < SEARCH_MODES && user_pp > 2 ? 2 : user_pp;
    memcpy(p->stages, from, sizeof *init * (size_t)p->nstage);
    hls_plan_eval(p, 1, e);
    search(p, run % SEARCH_MODES, save, grow, e);
}

int hls_latency_pays(int64_t ii_f, int64_t lat_f, int64_t ii, int64_t lat)
{
    return ii <= ii_f + ii_f * HLS_NEAR_PCT / 100 && lat < lat_f &&
           (double)(lat_f - lat) / (double)lat_f >
               HLS_LAT_TRADE * (double)(ii - ii_f) / (double)ii_f;
}

/* The run whose plan the latency steps (hls_finish_latency) take to the
 * shortest latency among those of interval at most HLS_NEAR_PCT% above the
 * fastest plan's (run `fast`) and whose latency is shorter than the
 * fastest's by more than HLS_LAT_TRADE times the share of interval given up
 * (ZCU104 YOLOv3-tiny: 4.8% of the interval for 29% of the latency, the
 * fastest plan having more layers wait for whole frames in DDR); else
 * `fast`.  rii, rlat: each run's interval (-1: DDR-bound) and latency
 * before the latency steps; runs of the same two are finished once.
 * fast_ii, fast_lat get the fastest plan's figures after the latency
 * steps. */
static int latency_choice(HlsPlan *p, int fast, int runs, const int64_t *rii, const int64_t *rlat,
                          int user_pp, const HlsStage *init, const HlsStage *fold, HlsStage *save,
                          char (*grow)[HLS_GROW_LEN], int64_t *fast_ii, int64_t *fast_lat,
                          GirError *e)
{
    int64_t ii_f, lat_f, best_lat;
    int r, q, best = fast;
    if (rii[fast] < 0 || p->interval_first)
        return fast;
    search_run(p, fast, user_pp, init, fold, save, grow, e);
    p->pp_max = user_pp;
    hls_finish_latency(p, save, grow, e);
    ii_f = p->interval;
    lat_f = best_lat = p->latency;
    *fast_ii = ii_f;
    *fast_lat = lat_f;
    for (r = 0; r < runs; r++) {
        if (r == fast || rii[r] < 0 || rii[r] > rii[fast] + rii[fast] * HLS_NEAR_PCT / 100 ||
            (rii[r] == rii[fast] && rlat[r] == rlat[fast]))
            continue;
        for (q = 0; q < r && !(rii[q] == rii[r] && rlat[q] == rlat[r]); q++)
            ;
        if (q < r)
            continue; /* the same plan as run q's */
        search_run(p, r, user_pp, init, fold, save, grow, e);
        p->pp_max = user_pp;
        if (p->ddr_bound)
            continue;
        hls_finish_latency(p, save, grow, e);
        if (!p->ddr_bound && p->latency < best_lat &&
            hls_latency_pays(ii_f, lat_f, p->interval, p->latency)) {
            best = r;
            best_lat = p->latency;
        }
    }
    return best;
}

void hls_plan_search(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e)
{
    const HlsRes zero = {0};
    HlsStage *init = malloc(sizeof *init * (size_t)p->nstage);
    HlsStage *fold = malloc(sizeof *fold * (size_t)p->nstage * FOLD_STARTS);
    int i, run, runs, best_run = 0, fast, user_pp = p->pp_max;
    int64_t best_ii = 0, best_lat = 0, fast_ii = 0, fast_lat = 0, *rii, *rlat;
    double best_share = 0.0;
    runs = SEARCH_MODES * ((user_pp > 2 ? 2 : 1) + FOLD_STARTS);
    rii = malloc(sizeof *rii * (size_t)runs);
    rlat = malloc(sizeof *rlat * (size_t)runs);
    if (!init || !fold || !rii || !rlat)
        gir_die("out of memory");
    /* the greedy search from the smallest design and the folded starts
     * under each step cost; the plan with the shortest interval (then
     * latency, then the smallest share of the budgets) is the one kept,
     * searched once more to leave its reasons */
    memcpy(init, p->stages, sizeof *init * (size_t)p->nstage);
    /* the folded starts: every resource at one price; priced; priced with
     * the candidates' exact DDR tiles and pace (each finds plans the others
     * miss: KV260, ZCU104); the priced two again without the DDR re-pick
     * (ZCU102's fastest plan needs it, ZCU104's shortest latency does not
     * take it) */
    for (i = 0; i < FOLD_STARTS; i++)
        fold_start(p, init, user_pp, i == 2 || i == 4, i > 0, i < 3,
                   fold + (size_t)i * (size_t)p->nstage, e);
    /* from the smallest design each step cost with PP up to 2; with a larger
     * --pp-max each again with PP up to it (a larger limit changes the greedy
     * path: the smaller one's plan is kept where it is better) */
    for (run = 0; run < runs; run++) {
        double share;
        search_run(p, run, user_pp, init, fold, save, grow, e);
        share = hls_budget_share(&p->total, &zero, &p->budget);
        rii[run] = p->ddr_bound ? -1 : p->interval;
        rlat[run] = p->latency;
        if (run == 0 || p->interval < best_ii ||
            (p->interval == best_ii && (p->latency < best_lat ||
                                        (p->latency == best_lat && share < best_share)))) {
            best_lat = p->latency;
            best_run = run;
            best_ii = p->interval;
            best_share = share;
        }
    }
    fast = best_run;
    best_run = latency_choice(p, best_run, runs, rii, rlat, user_pp, init, fold, save, grow,
                              &fast_ii, &fast_lat, e);
    if (best_run != runs - 1)
        search_run(p, best_run, user_pp, init, fold, save, grow, e);
    if (best_run != fast) {
        size_t l = strlen(p->limit);
        snprintf(p->limit + l, sizeof p->limit - l,
                 "; kept for its latency over a plan of interval %lld cycles and latency "
                 "%lld (the shortest interval found)",
                 (long long)fast_ii, (long long)fast_lat);
    }
    p->pp_max = user_pp;
    free(init);
    free(fold);
    free(rii);
    free(rlat);
}
