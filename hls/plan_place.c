/*
 * hls/plan_place.c: where a plan keeps what does not fit a stream.  The
 * weights: every conv's on chip in block RAM while the budget takes them,
 * else in URAM, else streamed from DDR in tiles (hls_place_weights).  The
 * join FIFOs: the earlier input of a concat or add waits in a FIFO deep
 * enough that neither producer blocks, or in DDR when that FIFO would take
 * too much of the block RAM (hls_place_fifos).
 *
 * Needs the stages' arrays set; hls_place_fifos needs them evaluated with
 * their first-output times (hls/plan_eval.c calls both).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/hw.h"
#include "hls/plan_int.h"
#include "hls/res_util.h"

#define FIFO_DDR_SHARE 0.10 /* a skip FIFO above this share of the BRAM budget goes to DDR */

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
int64_t hls_ddr_tog(const HlsStage *s)
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
    int64_t npass = hls_cdiv(hls_cdiv(s->cout, s->pe_oc), hls_ddr_tog(s));
    double b = (double)s->weight_bytes;
    if (npass > 1)
        b += (double)(s->h * s->w * s->cin * (1 + npass) + 2 * s->oh * s->ow * s->cout);
    return b;
}

/* Line buffers to URAM while the block RAM budget is broken (after the
 * weights went where they could): a conv's or dwconv's line buffers have
 * no home off chip, weights do, so a line buffer that needs URAM the
 * weights hold sends weights from URAM to DDR, the least DDR traffic per
 * URAM288 freed first.  The line buffers in order of the most BRAM36
 * freed per URAM288 taken; one that frees none, or for which URAM cannot
 * be made, stays.  *bram and *uram are the plan's running totals. */
static void place_line_buffers(HlsPlan *p, const WCand *c, int nc, double *bram, double *uram)
{
    WCand *lb = malloc(sizeof *lb * (size_t)(p->nstage > 0 ? p->nstage : 1));
    WCand *ev = malloc(sizeof *ev * (size_t)(nc > 0 ? nc : 1));
    int i, j, nl = 0, ne = 0;
    if (!lb || !ev)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        HlsRes before = s->res;
        if ((!hls_is_conv(s) && s->kind != HLS_ST_DWCONV) || s->lburam)
            continue;
        s->lburam = 1;
        if (hls_stage_eval(p, s) == 0 && s->res.bram36 < before.bram36 - 0.25) {
            lb[nl].idx = i;
            lb[nl].bram = before.bram36 - s->res.bram36;
            /* sorted ascending: the most BRAM36 a URAM288 first */
            lb[nl].cost = -lb[nl].bram / (s->res.uram - before.uram > 0.5 ? s->res.uram - before.uram : 0.5);
            nl++;
        }
        s->lburam = 0;
        hls_stage_eval(p, s);
    }
    qsort(lb, (size_t)nl, sizeof *lb, wcand_cmp);
    /* the weights URAM holds, the least DDR traffic per URAM288 first */
    for (i = 0; i < nc; i++) {
        HlsStage *s = &p->stages[c[i].idx];
        if (s->whome == HLS_W_URAM) {
            ev[ne] = c[i];
            ev[ne].cost = ddr_cost(s) / (s->res.uram > 0.5 ? s->res.uram : 0.5);
            ne++;
        }
    }
    qsort(ev, (size_t)ne, sizeof *ev, wcand_cmp);
    for (i = 0, j = 0; i < nl && *bram > p->budget.bram36; i++) {
        HlsStage *s = &p->stages[lb[i].idx];
        HlsRes before = s->res;
        double du;
        s->lburam = 1;
        hls_stage_eval(p, s);
        du = s->res.uram - before.uram;
        s->lburam = 0;
        hls_stage_eval(p, s);
        while (*uram + du > p->budget.uram && j < ne) {
            HlsStage *w = &p->stages[ev[j++].idx];
            HlsRes wb = w->res;
            if (w->whome != HLS_W_URAM)
                continue;
            w->whome = HLS_W_DDR;
            w->tog = hls_ddr_tog(w);
            hls_stage_eval(p, w);
            *uram += w->res.uram - wb.uram;
            *bram += w->res.bram36 - wb.bram36;
        }
        /* measured again: s's own weights may have just left URAM */
        before = s->res;
        s->lburam = 1;
        hls_stage_eval(p, s);
        if (p->board.uram <= 0 || *uram + s->res.uram - before.uram > p->budget.uram) {
            s->lburam = 0;
            hls_stage_eval(p, s);
            continue;
        }
        *uram += s->res.uram - before.uram;
        *bram += s->res.bram36 - before.bram36;
    }
    free(lb);
    free(ev);
}

/* Weight placement: every conv's weights on chip in BRAM; while that breaks
 * the BRAM budget (less `reserve` for FIFOs), the layer with the largest
 * weight memory moves to URAM if the URAM budget takes it, else streams from
 * DDR in tiles; still over, line buffers move to URAM where the plan allows
 * it (p->lb_uram, place_line_buffers). */
void hls_place_weights(HlsPlan *p, double reserve)
{
    double bram = reserve + p->fold.res.bram36, uram = p->fold.res.uram; /* the shared engine's first */
    WCand *c = malloc(sizeof *c * (size_t)p->nstage);
    int i, nc = 0;
    if (!c)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        s->lburam = 0;
        if (hls_is_conv(s)) {
            s->whome = HLS_W_BRAM;
            s->tog = 0;
            c[nc].idx = i;
            c[nc].bram = hls_weight_bram(p, s);
            c[nc].cost = ddr_cost(s) / (c[nc].bram > 0.5 ? c[nc].bram : 0.5);
            nc++;
        }
        if (hls_stage_eval(p, s) == 0) {
            bram += s->res.bram36;
            uram += s->res.uram;
        }
    }
    qsort(c, (size_t)nc, sizeof *c, wcand_cmp);
    for (i = 0; i < nc && bram > p->budget.bram36; i++) {
        HlsStage *s = &p->stages[c[i].idx];
        double before = s->res.bram36;
        int64_t u = hls_weight_uram(p, s);
        if (c[i].bram <= 0.0)
            continue;
        if (uram + (double)u <= p->budget.uram && p->board.uram > 0) {
            s->whome = HLS_W_URAM;
            uram += (double)u;
        } else {
            s->whome = HLS_W_DDR;
            s->tog = hls_ddr_tog(s);
        }
        hls_stage_eval(p, s);
        bram += s->res.bram36 - before;
    }
    if (bram > p->budget.bram36 && p->lb_uram)
        place_line_buffers(p, c, nc, &bram, &uram);
    /* still short: the smallest tiles (more passes, more input re-reads) */
    for (i = 0; i < nc && bram > p->budget.bram36; i++) {
        HlsStage *s = &p->stages[c[i].idx];
        int64_t kki = s->k * s->k * hls_cdiv(s->cin, s->pe_ic);
        double before = s->res.bram36;
        if (s->whome != HLS_W_DDR)
            continue;
        s->tog = hls_tile_fit(hls_cdiv(s->cout, s->pe_oc), s->pe_oc, kki <= 64 ? 64 / kki : 1);
        hls_stage_eval(p, s);
        bram += s->res.bram36 - before;
    }
    free(c);
}

/* The FIFO on join stage i's earlier input (the input whose first beat
 * comes first waits for the other's): deep enough for the beats it sends
 * in that wait at the interval's pace, plus two pixels, at most a frame, a
 * power of two.  Into f, with its resources; f->ddr when it would take
 * more than FIFO_DDR_SHARE of the block RAM budget (the tensor waits in
 * DDR instead, written and read once). */
static void size_fifo(HlsPlan *p, int i, const HlsEngineDesc *fd, HlsFifo *f)
{
    HlsStage *s = &p->stages[i];
    HlsStage *a = &p->stages[s->in[0]], *b = &p->stages[s->in[1]];
    HlsStage *early = a->t_first <= b->t_first ? a : b;
    int64_t wait = (a->t_first > b->t_first ? a->t_first - b->t_first : b->t_first - a->t_first);
    int64_t beats = early->oh * early->ow * hls_cdiv(early->cout, hls_out_lanes(early));
    int64_t depth, hw[HLS_PLAN_MAX_PARAMS];
    HlsParamSink fh = {fd, fd->hw_params, hw, 0};
    int j;
    depth = (int64_t)ceil((double)wait * (double)beats / (double)p->interval);
    depth += 2 * hls_cdiv(early->cout, hls_out_lanes(early)) + 16;
    if (depth > beats + 16)
        depth = beats + 16;
    depth = hls_pow2ceil(depth);
    f->ddr = 0;
    f->from = (int)(early - p->stages);
    f->to = i;
    f->depth = depth;
    f->width = 8 * hls_out_lanes(early);
    for (j = 0; j < HLS_PLAN_MAX_PARAMS; j++)
        hw[j] = 1;
    hls_param_put(&fh, "WIDTH", f->width);
    hls_param_put(&fh, "DEPTH", depth);
    hls_param_put(&fh, "BRAM_MIN", HLS_HW_FIFO_BRAM_MIN);
    f->res = fd->resources(hw);
    if (f->res.bram36 > FIFO_DDR_SHARE * p->budget.bram36) {
        /* a large skip tensor waits in DDR, not in a FIFO */
        f->ddr = 1;
        memset(&f->res, 0, sizeof f->res);
        snprintf(f->why, sizeof f->why,
                 "%s waits %lld cycles for %s: %lld beats would need more than %.0f%% of "
                 "the BRAM budget, so %s's output goes through DDR (written and read once)",
                 s->node, (long long)wait, early == a ? b->node : a->node,
                 (long long)depth, FIFO_DDR_SHARE * 100.0, early->node);
        return;
    }
    snprintf(f->why, sizeof f->why,
             "%s waits %lld cycles for %s (first beats at %lld vs %lld): %s's beats "
             "in that time at II pace, +2 pixels",
             s->node, (long long)wait, early == a ? b->node : a->node,
             (long long)early->t_first, (long long)(early == a ? b : a)->t_first, early->node);
}

double hls_place_fifos(HlsPlan *p)
{
    const HlsEngineDesc *fd = hls_engine_find("kiln_fifo");
    double fifo_bram = 0.0;
    int i;
    p->nfifo = 0;
    for (i = 0; i < p->nstage && fd; i++) {
        const HlsStage *s = &p->stages[i];
        HlsFifo *f;
        if (s->nin != 2 || s->in[0] < 0 || s->in[1] < 0)
            continue;
        if (p->stages[s->in[0]].npass > 1 || p->stages[s->in[1]].npass > 1)
            continue; /* through DDR: nothing waits on chip */
        f = &p->fifos[p->nfifo++];
        size_fifo(p, i, fd, f);
        if (f->ddr) {
            const HlsStage *early = &p->stages[f->from];
            p->ddr_bytes += 2 * early->oh * early->ow * early->cout;
            continue;
        }
        fifo_bram += f->res.bram36;
        hls_res_add(&p->total, &f->res);
    }
    return fifo_bram;
}
