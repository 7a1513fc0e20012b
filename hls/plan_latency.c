/*
 * hls/plan_latency.c: the steps after the search that shorten the latency
 * at the interval it found.  Layers whose weights stream from DDR move
 * back on chip where the budgets take them, alone or in a swap with a
 * layer on chip, other convs reshaped to make room (reclaim_weights);
 * then grow steps, alone or traded against a step down of another stage,
 * that pay for themselves in latency (shorten_latency).  Entry point:
 * hls_finish_latency.
 *
 * Needs the search's plan, evaluated, not DDR-bound; leaves it evaluated,
 * its interval no longer.  Uses the search's array steps and candidate
 * arrays (hls/plan_search.c) and the placement's tiles (hls/plan_place.c).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/plan_int.h"
#include "hls/res_util.h"

#define RESHAPE_STEPS 8 /* arrays reshaped at most to take a layer's weights on chip */
#define RECLAIM_ROUNDS 8 /* rounds of weights moved on chip or swapped after the search */
#define TRIM_PASSES 4    /* passes over the convs trimming arrays to fewer DSPs */
#define TRIM_TRIES 12    /* arrays a conv tries a pass (the fewest DSPs first that fit) */

/* A plan that breaks a budget after a layer moved its weights on chip:
 * other convs (not `keep`, not pinned, weights where they were when their
 * candidate lists c were made) take arrays of no more cycles than the
 * interval ii that need less of what is broken, each step the array that
 * frees the most of the broken resources (as shares of the excess) for the
 * least share of what is left of the others, and breaks none of them; until
 * the plan fits within ii, at most RESHAPE_STEPS steps.  1 when it fits
 * (the stages changed), 0 when not (the stages may have changed too). */
static int reshape_fit(HlsPlan *p, int keep, int64_t ii, HlsFoldCand **c, const int *nc,
                       const HlsWeightHome *home, GirError *e)
{
    char ob[160];
    int step;
    for (step = 0; step <= RESHAPE_STEPS; step++) {
        double over[5], room[5], best_score = 0.0;
        int r, i, j, bi = -1, bj = -1;
        if (hls_plan_eval(p, 0, e) != 0)
            return 0;
        if (!hls_plan_over_budget(p, ob, sizeof ob))
            return p->interval <= ii;
        if (step == RESHAPE_STEPS)
            return 0;
        for (r = 0; r < 5; r++) {
            over[r] = hls_res_at(&p->total, r) - hls_res_at(&p->budget, r);
            room[r] = -over[r];
        }
        for (i = 0; i < p->nstage; i++) {
            const HlsStage *s = &p->stages[i];
            if (i == keep || !hls_is_conv(s) || s->pinned || !c[i] || s->whome != home[i])
                continue;
            for (j = 0; j < nc[i]; j++) {
                double gain = 0.0, cost = 0.0, score;
                int ok = c[i][j].cycles <= ii;
                for (r = 0; r < 5 && ok; r++) {
                    double d = hls_res_at(&c[i][j].res, r) - hls_res_at(&s->res, r);
                    if (hls_res_at(&p->budget, r) <= 0)
                        continue;
                    if (over[r] > 1e-9)
                        gain += (d < 0 ? (-d < over[r] ? -d : over[r]) : -d) / over[r];
                    else if (d > room[r] + 1e-9)
                        ok = 0;
                    else if (d > 0)
                        cost += d / hls_res_at(&p->budget, r);
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
        hls_take_cand(p, &p->stages[bi], &c[bi][bj]);
        if (p->stages[bi].whome == HLS_W_DDR)
            p->stages[bi].tog = hls_ddr_tog(&p->stages[bi]);
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
                       HlsFoldCand **c, const int *nc, const HlsWeightHome *home, GirError *e)
{
    int h;
    for (h = 0; h < 4; h++) {
        p->stages[i].whome = h % 2 == 0 ? HLS_W_BRAM : HLS_W_URAM;
        p->stages[i].tog = 0;
        if (o >= 0) {
            p->stages[o].whome = HLS_W_DDR;
            p->stages[o].tog = hls_ddr_tog(&p->stages[o]);
        }
        if (h < 2 ? hls_plan_fits(p, e) && p->interval <= ii
                  : reshape_fit(p, i, ii, c, nc, home, e) && !p->ddr_bound)
            return 1;
        memcpy(p->stages, save, sizeof *save * (size_t)p->nstage);
    }
    hls_plan_eval(p, 0, e);
    return 0;
}

/* The largest growth from a to b of any logic resource (DSP, LUT, FF), as
 * a share of a's use.  Block RAM and URAM within the budgets are left out:
 * memory the interval does not need costs no throughput, and the plans
 * stay within the budgets (ZCU104 YOLOv3-tiny: conv13 PE_OC 8 with its
 * weights' URAM 8 -> 16 shortens the latency by 7%). */
static double max_growth(const HlsRes *b, const HlsRes *a)
{
    double g = 0.0;
    int r;
    for (r = 0; r < 5; r++)
        if (r != 1 && r != 2 && hls_res_at(b, r) > hls_res_at(a, r))
            g = fmax(g, (hls_res_at(b, r) - hls_res_at(a, r)) / fmax(hls_res_at(a, r), 1.0));
    return g;
}

/* Whether a change from latency lat0 with resources r0 to lat with r pays:
 * it shortens the latency by a larger share than it grows any logic
 * resource (so the DSP efficiency falls by less than the latency). */
static int latency_pays(const HlsPlan *p, int64_t lat0, const HlsRes *r0, int64_t lat,
                        const HlsRes *r)
{
    /* above a latency bound the user set, every shortening pays */
    if (p->lat_goal > 0 && lat0 > p->lat_goal)
        return lat < lat0;
    return (double)(lat0 - lat) / (double)lat0 > max_growth(r, r0);
}

/* The interval the latency steps keep: the plan's own, or the cap a
 * latency bound allows (hls_meet_latency). */
static int64_t ii_limit(const HlsPlan *p)
{
    return p->ii_cap > p->interval ? p->ii_cap : p->interval;
}

/* What a latency step reshapes with: a copy of the stages, the arrays each
 * conv may take (hls_fold_cands) and each stage's weight home as it was. */
typedef struct {
    HlsStage *keep;
    HlsFoldCand **c;
    int *nc;
    HlsWeightHome *home;
} Reshape;

static void reshape_begin(HlsPlan *p, Reshape *r)
{
    size_t n = (size_t)p->nstage;
    int i;
    r->keep = malloc(sizeof *r->keep * n);
    r->c = calloc(n, sizeof *r->c);
    r->nc = calloc(n, sizeof *r->nc);
    r->home = calloc(n, sizeof *r->home);
    if (!r->keep || !r->c || !r->nc || !r->home)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++) {
        r->home[i] = p->stages[i].whome;
        if (hls_is_conv(&p->stages[i]))
            r->c[i] = hls_fold_cands(p, &p->stages[i], p->pp_max, 1, &r->nc[i]);
    }
}

static void reshape_end(const HlsPlan *p, Reshape *r)
{
    int i;
    for (i = 0; i < p->nstage; i++)
        free(r->c[i]);
    free(r->c);
    free(r->nc);
    free(r->home);
    free(r->keep);
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
    Reshape rs;
    int i, o, round;
    /* the arrays each conv may take, with its weights where they are now */
    reshape_begin(p, &rs);
    for (round = 0; round < RECLAIM_ROUNDS; round++) {
        int best = -1, best_swap = -1;
        int64_t ii = ii_limit(p), lat0 = p->latency, best_lat = INT64_MAX;
        HlsRes used = p->total;
        memcpy(save, p->stages, sizeof *save * (size_t)p->nstage);
        for (i = 0; i < p->nstage; i++) {
            const HlsStage *s = &save[i];
            if (!hls_is_conv(s) || s->whome != HLS_W_DDR)
                continue;
            /* o = -1: alone; else swapped with the on-chip conv o */
            for (o = -1; o < (swaps ? p->nstage : 0); o++) {
                if (o >= 0 && (!hls_is_conv(&save[o]) || save[o].whome == HLS_W_DDR ||
                               save[o].weight_bytes <= 0))
                    continue;
                if (reclaim_one(p, i, o, ii, save, rs.c, rs.nc, rs.home, e) &&
                    (o < 0 || latency_pays(p, lat0, &used, p->latency, &p->total)) &&
                    (p->latency < best_lat ||
                     (p->latency == best_lat &&
                      (best < 0 || s->weight_bytes < save[best].weight_bytes)))) {
                    best = i;
                    best_swap = o;
                    best_lat = p->latency;
                    memcpy(rs.keep, p->stages, sizeof *rs.keep * (size_t)p->nstage);
                }
                memcpy(p->stages, save, sizeof *save * (size_t)p->nstage);
            }
        }
        if (best >= 0 && (best_lat < lat0 || (best_lat == lat0 && best_swap < 0))) {
            memcpy(p->stages, rs.keep, sizeof *rs.keep * (size_t)p->nstage);
            p->stages[best].wswap = best_swap >= 0 ? best_swap + 1 : 0;
            if (best_swap >= 0) {
                HlsStage *a = &p->stages[best], *b = &p->stages[best_swap];
                b->wswap = -(best + 1);
                a->wswap_tog = save[best].tog;
                a->wswap_lat[0] = b->wswap_lat[0] = lat0;
                a->wswap_lat[1] = b->wswap_lat[1] = best_lat;
            }
        }
        hls_plan_eval(p, 0, e);
        if (best < 0 || best_lat > lat0 || (best_lat == lat0 && best_swap >= 0))
            break;
    }
    reshape_end(p, &rs);
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
static void shorten_latency(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e)
{
    const HlsRes zero = {0};
    size_t n = (size_t)p->nstage;
    HlsStage *grown = malloc(sizeof *grown * n);
    if (!grown)
        gir_die("out of memory");
    for (;;) {
        int i, k, j, kk, bi = -1, bk = -1, bj = -1, bkk = -1;
        int64_t ii = ii_limit(p), lat = p->latency, best_lat = 0;
        double share = hls_budget_share(&p->total, &zero, &p->budget), best = 0.0;
        HlsRes used = p->total;
        char ob[160], d[64], dj[64];
        const char *at = p->ii_cap > 0 ? "within the latency bound's interval" : "at the same interval";
        memcpy(save, p->stages, sizeof *save * n);
        for (i = 0; i < p->nstage; i++)
            for (k = 0; k < 4; k++) {
                HlsStage *s = &p->stages[i];
                int over;
                if (s->pinned || !hls_step_up(s, k, p->mhz, p->pp_max, d, sizeof d))
                    continue;
                hls_pace_producers(p, i, d, sizeof d);
                if (s->whome == HLS_W_DDR)
                    s->tog = hls_ddr_tog(s);
                if (hls_plan_eval(p, 0, e) != 0 || p->ddr_bound || p->interval > ii ||
                    !latency_pays(p, lat, &used, p->latency, &p->total)) {
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
                        if (t && (j == i || t->pinned || !hls_step_down(t, kk, p->mhz)))
                            continue;
                        if (t && t->whome == HLS_W_DDR)
                            t->tog = hls_ddr_tog(t);
                        if (t && (hls_plan_eval(p, 0, e) != 0 || p->ddr_bound ||
                                  p->interval > ii ||
                                  !latency_pays(p, lat, &used, p->latency, &p->total))) {
                            memcpy(p->stages, grown, sizeof *grown * n);
                            continue;
                        }
                        cost = hls_budget_share(&p->total, &zero, &p->budget) - share;
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
            hls_plan_eval(p, 0, e);
            break;
        }
        hls_step_up(&p->stages[bi], bk, p->mhz, p->pp_max, d, sizeof d);
        hls_pace_producers(p, bi, d, sizeof d);
        for (j = 0; j < p->nstage; j++)
            if (j != bi && p->stages[j].lanes != save[j].lanes)
                snprintf(grow[j], sizeof grow[j], "grown to LANES %d with %s, which it feeds "
                         "through kiln_width (a narrower producer paces a concat)",
                         p->stages[j].lanes, p->stages[bi].node);
        if (p->stages[bi].whome == HLS_W_DDR)
            p->stages[bi].tog = hls_ddr_tog(&p->stages[bi]);
        dj[0] = '\0';
        if (bj >= 0) {
            HlsStage *t = &p->stages[bj];
            hls_step_down(t, bkk, p->mhz);
            if (t->whome == HLS_W_DDR)
                t->tog = hls_ddr_tog(t);
            step_desc(t, bkk, dj, sizeof dj);
            snprintf(grow[bj], sizeof grow[bj], "trimmed to %s to make room for %s's growth "
                     "(latency %lld -> %lld cycles %s)", dj,
                     p->stages[bi].node, (long long)lat, (long long)best_lat, at);
        }
        hls_plan_eval(p, 0, e);
        snprintf(grow[bi], sizeof grow[bi], "grown to %s to shorten the latency (%lld -> %lld "
                 "cycles) %s%s%s%s", d, (long long)lat, (long long)best_lat, at,
                 bj >= 0 ? ", with " : "", bj >= 0 ? p->stages[bj].node : "",
                 bj >= 0 ? " trimmed to make room" : "");
        p->dse_steps++;
    }
    free(grown);
}

/* Bands for the convs whose weights stream from DDR in several tiles (each
 * waits for its producer's whole frame and sends its output tile-major,
 * so its consumers wait for a whole frame too): each such conv tries every
 * band height that gives a different number of bands (ceil(rows / bands)
 * for 1..rows bands), each with the line buffer of a band's rows and with
 * taller ones (LBROWS, up to the padded map: the rows of the bands after
 * come in while a band computes, so the producer is held back less), with
 * every cost the evaluation counts (the band buffer and the line buffer in
 * block RAM, the weight set read from DDR once a band, the tiles' loads a
 * band must hide, the producer held back: the interval), if need be with
 * other convs reshaped to make room (reshape_fit).  Each round the choice
 * that shortens the latency most where the interval stays within
 * ii_limit, the plan is not DDR-bound and latency_pays; until none is
 * left.  1 when a band was taken.  save: room for the stages; grow: the
 * reasons. */
static int take_bands(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e)
{
    size_t n = (size_t)p->nstage;
    Reshape rs;
    int i, round, taken = 0;
    reshape_begin(p, &rs);
    for (round = 0; round < p->nstage; round++) {
        int64_t ii = ii_limit(p), lat0 = p->latency, best_lat = lat0, nb, prev;
        HlsRes used = p->total;
        char ob[160];
        int best = -1;
        int64_t best_band = 0, best_rows = 0;
        memcpy(save, p->stages, sizeof *save * n);
        for (i = 0; i < p->nstage; i++) {
            HlsStage *s = &p->stages[i];
            if (save[i].band > 0 || !hls_tiled(&save[i]))
                continue;
            for (nb = 1, prev = 0; nb <= save[i].oh; nb++) {
                int64_t band = hls_cdiv(save[i].oh, nb), rows, own;
                if (band == prev)
                    continue;
                prev = band;
                own = (band - 1) * save[i].stride + save[i].k;
                /* line buffers of distinct sizes (2^ceil(log2 rows)) */
                for (rows = own; rows > 0;
                     rows = rows < save[i].h + 2 * save[i].pad
                                ? hls_min64(2 * hls_pow2ceil(rows), save[i].h + 2 * save[i].pad)
                                : 0) {
                    int fits;
                    s->band = band;
                    s->lbrows = rows > own ? rows : 0;
                    if (hls_plan_eval(p, 0, e) != 0 || p->ddr_bound || p->interval > ii ||
                        p->latency >= best_lat) {
                        /* smaller arrays elsewhere would not shorten it */
                        memcpy(p->stages, save, sizeof *save * n);
                        continue;
                    }
                    fits = !hls_plan_over_budget(p, ob, sizeof ob);
                    if (!fits) {
                        memcpy(p->stages, save, sizeof *save * n);
                        p->stages[i].band = band;
                        p->stages[i].lbrows = rows > own ? rows : 0;
                        fits = reshape_fit(p, i, ii, rs.c, rs.nc, rs.home, e);
                    }
                    if (fits && !p->ddr_bound && p->interval <= ii && p->latency < best_lat &&
                        latency_pays(p, lat0, &used, p->latency, &p->total)) {
                        best = i;
                        best_band = band;
                        best_rows = hls_band_lbrows(&p->stages[i]);
                        best_lat = p->latency;
                        memcpy(rs.keep, p->stages, sizeof *rs.keep * n);
                    }
                    memcpy(p->stages, save, sizeof *save * n);
                }
            }
        }
        if (best < 0) {
            hls_plan_eval(p, 0, e);
            break;
        }
        memcpy(p->stages, rs.keep, sizeof *rs.keep * n);
        hls_plan_eval(p, 0, e);
        for (i = 0; i < p->nstage; i++)
            if (i != best && hls_is_conv(&p->stages[i]) &&
                (p->stages[i].pe_ic != save[i].pe_ic || p->stages[i].pe_oc != save[i].pe_oc ||
                 p->stages[i].pp != save[i].pp))
                snprintf(grow[i], sizeof grow[i], "reshaped to make room for %s's bands "
                         "(latency %lld -> %lld cycles)", p->stages[best].node,
                         (long long)lat0, (long long)best_lat);
        snprintf(grow[best], sizeof grow[best], "in bands of %lld row%s, line buffer of %lld "
                 "rows: its input streams once, its output in raster order (latency %lld -> "
                 "%lld cycles)",
                 (long long)best_band, best_band > 1 ? "s" : "", (long long)best_rows,
                 (long long)lat0, (long long)best_lat);
        p->dse_steps++;
        taken = 1;
    }
    reshape_end(p, &rs);
    return taken;
}

/* The weights' move back on chip and shorten_latency, once with lone
 * moves only and once with swaps too: the plan with swaps is kept where
 * its latency pays for it against the lone plan (latency_pays; a
 * swap's reshaped arrays can leave shorten_latency a path to a plan hardly
 * shorter but larger).  save: room for the stages; grow: the reasons. */
void hls_finish_latency(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e)
{
    size_t n = (size_t)p->nstage;
    HlsStage *from = malloc(sizeof *from * n), *lone = malloc(sizeof *lone * n);
    char (*from_grow)[HLS_GROW_LEN] = malloc(sizeof *from_grow * n);
    char (*lone_grow)[HLS_GROW_LEN] = malloc(sizeof *lone_grow * n);
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
    hls_plan_eval(p, 0, e);
    reclaim_weights(p, 1, save, e);
    shorten_latency(p, save, grow, e);
    if (!latency_pays(p, lone_lat, &lone_res, p->latency, &p->total)) {
        memcpy(p->stages, lone, sizeof *lone * n);
        memcpy(grow, lone_grow, sizeof *lone_grow * n);
        hls_plan_eval(p, 0, e);
    }
    /* bands, then the steps the bands' shorter chain may now pay for */
    if (take_bands(p, save, grow, e))
        shorten_latency(p, save, grow, e);
    free(from);
    free(lone);
    free(from_grow);
    free(lone_grow);
}

/* Candidates by DSPs, then LUT, ascending. */
static int cand_cmp(const void *a, const void *b)
{
    const HlsFoldCand *x = a, *y = b;
    if (x->res.dsp != y->res.dsp)
        return x->res.dsp < y->res.dsp ? -1 : 1;
    return (x->res.lut > y->res.lut) - (x->res.lut < y->res.lut);
}

/* The arrays trimmed to fewer DSP48E2 where the interval stays and the
 * latency stays within the bound (p->lat_goal; without one the plan's
 * latency, or with any_latency, --fold auto's, any: the frames/s stay and
 * the DSP efficiency rises, Ultra96-V2's YOLOv3-tiny 88.3% -> 91.9% at
 * 28.5 -> 31.1 ms, docs/plan.md "Without a latency bound"): with a
 * shared engine the dataflow's segments run beside it and its frame sets
 * the interval, so their arrays may take longer than
 * the search left them (the search and the give-back trim by the dataflow
 * alone, and the latency steps spend the slack a bound leaves on a shorter
 * chain).  Each pass the convs in order of DSPs, each taking the array of
 * the fewest DSPs (then LUT) among its candidates of no more cycles than
 * the interval (hls_fold_cands: every PE_IC x PE_OC x PP, so a step of
 * one pixel or a lane count traded for pixels) with which the plan still
 * fits the budgets, is not DDR-bound, keeps its interval (or stays within
 * ii_max when that is above 0: then every candidate is tried, not the
 * TRIM_TRIES fewest, since an array of the first segment hidden behind the
 * tail of a gated frame may take far longer than it does) and meets the
 * latency; until a pass trims none.  1 when an array was trimmed. */
int hls_trim_dsp(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], int64_t ii_max,
                 int any_latency, GirError *e)
{
    Reshape rs;
    size_t n = (size_t)p->nstage;
    int64_t ii, lat_max;
    int pass, any = 0;
    if (!hls_plan_fits(p, e))
        return 0;
    ii = ii_max > 0 ? ii_max : p->interval;
    lat_max = p->lat_goal > 0 && p->lat_goal > p->latency ? p->lat_goal
              : p->lat_goal <= 0 && any_latency             ? INT64_MAX
                                                            : p->latency;
    reshape_begin(p, &rs);
    for (pass = 0; pass < TRIM_PASSES; pass++) {
        int trimmed = 0, i, k;
        int *order = malloc(sizeof *order * n);
        if (!order)
            gir_die("out of memory");
        for (i = 0; i < p->nstage; i++)
            order[i] = i;
        /* the convs of most DSPs first (insertion sort: a few dozen stages) */
        for (i = 1; i < p->nstage; i++)
            for (k = i; k > 0 && p->stages[order[k]].res.dsp > p->stages[order[k - 1]].res.dsp;
                 k--) {
                int t = order[k];
                order[k] = order[k - 1];
                order[k - 1] = t;
            }
        for (k = 0; k < p->nstage; k++) {
            int at = order[k], j, tries = 0;
            HlsStage *s = &p->stages[at];
            double dsp0 = s->res.dsp, best_dsp = s->res.dsp;
            int64_t lat0 = p->latency;
            if (!hls_is_conv(s) || s->pinned || !rs.c[at] || s->whome != rs.home[at])
                continue;
            memcpy(save, p->stages, sizeof *save * n);
            memcpy(rs.keep, p->stages, sizeof *rs.keep * n);
            /* the fewest DSPs first: the first array that passes is the one */
            qsort(rs.c[at], (size_t)rs.nc[at], sizeof *rs.c[at], cand_cmp);
            for (j = 0; j < rs.nc[at] && (ii_max > 0 || tries < TRIM_TRIES); j++) {
                const HlsFoldCand *c = &rs.c[at][j];
                if (c->cycles > ii || c->res.dsp >= dsp0)
                    continue;
                tries++;
                hls_take_cand(p, &p->stages[at], c);
                if (p->stages[at].whome == HLS_W_DDR)
                    p->stages[at].tog = hls_ddr_tog(&p->stages[at]);
                if (hls_plan_fits(p, e) && p->interval <= ii && p->latency <= lat_max &&
                    p->stages[at].res.dsp < dsp0) {
                    best_dsp = p->stages[at].res.dsp;
                    memcpy(rs.keep, p->stages, sizeof *rs.keep * n);
                    memcpy(p->stages, save, sizeof *save * n);
                    break;
                }
                memcpy(p->stages, save, sizeof *save * n);
            }
            memcpy(p->stages, rs.keep, sizeof *rs.keep * n);
            hls_plan_eval(p, 0, e);
            if (best_dsp < dsp0) {
                snprintf(grow[at], sizeof grow[at],
                         "trimmed from %dx%dx%d, %.0f DSP48E2 fewer, %s "
                         "(latency %lld -> %lld cycles%s)",
                         save[at].pe_oc, save[at].pe_ic, save[at].pp, dsp0 - best_dsp,
                         ii_max > 0 ? "within the interval the plan had before its cut"
                                    : "at the same interval",
                         (long long)lat0,
                         (long long)p->latency, p->lat_goal > 0 ? ", within the bound" : "");
                trimmed = any = 1;
                p->dse_steps++;
            }
        }
        free(order);
        if (!trimmed)
            break;
    }
    reshape_end(p, &rs);
    hls_plan_eval(p, 0, e);
    return any;
}

/* Relaxed latency steps for a latency bound the plan misses: from the
 * search's stages `from` (and its reasons from_grow), the weights' move on
 * chip and the latency steps again, every shortening taken while the
 * latency is above the bound, with the interval allowed to grow to each
 * of a few caps in turn (a longer interval lets smaller arrays make room
 * for weights on chip: fewer layers wait for whole frames in DDR).  The
 * first cap whose plan meets the bound is kept: the shortest interval
 * found within the bound.  When none does, p holds the plan of the
 * shortest latency met.  1 when the bound is met, else 0. */
int hls_meet_latency(HlsPlan *p, const HlsStage *from, char (*from_grow)[HLS_GROW_LEN],
                     HlsStage *save, char (*grow)[HLS_GROW_LEN], GirError *e)
{
    static const double cap[] = {1.0, 1.1, 1.25, 1.5, 2.0, 3.0};
    size_t n = (size_t)p->nstage;
    HlsStage *best = malloc(sizeof *best * n);
    char (*best_grow)[HLS_GROW_LEN] = malloc(sizeof *best_grow * n);
    int64_t ii0, goal = p->lat_goal, best_lat = INT64_MAX;
    int k, met = 0;
    if (!best || !best_grow)
        gir_die("out of memory");
    memcpy(p->stages, from, sizeof *from * n);
    hls_plan_eval(p, 0, e);
    ii0 = p->interval;
    /* each cap with latency_pays' rule and with every shortening taken:
     * greedy, either can end shorter (the second spends the budgets on the
     * first moves it meets) */
    for (k = 0; k < 2 * (int)(sizeof cap / sizeof cap[0]) && !met; k++) {
        memcpy(p->stages, from, sizeof *from * n);
        memcpy(grow, from_grow, sizeof *grow * n);
        hls_plan_eval(p, 0, e);
        if (p->ddr_bound)
            break;
        p->ii_cap = (int64_t)ceil((double)ii0 * cap[k / 2]);
        p->lat_goal = k % 2 ? goal : 0;
        hls_finish_latency(p, save, grow, e);
        p->ii_cap = 0;
        p->lat_goal = goal;
        if (p->latency < best_lat || p->latency <= goal) {
            best_lat = p->latency;
            met = p->latency <= goal;
            memcpy(best, p->stages, sizeof *best * n);
            memcpy(best_grow, grow, sizeof *best_grow * n);
        }
    }
    if (best_lat < INT64_MAX) {
        memcpy(p->stages, best, sizeof *best * n);
        memcpy(grow, best_grow, sizeof *grow * n);
    }
    hls_plan_eval(p, 0, e);
    free(best);
    free(best_grow);
    return met;
}
