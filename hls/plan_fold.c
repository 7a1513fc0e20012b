/*
 * Folding (--fold): conv layers leave the streaming dataflow and run one
 * after the other on one time-shared conv engine (kiln_tsconv), configured
 * per layer from a descriptor table, its weights read from DDR once per
 * layer (per weight tile) and its maps in DDR.
 *
 * hls_fold_apply takes the chosen conv stages out of p->stages (their
 * consumers then read from DDR, their producers write to DDR), splits the
 * frame into phases (fold_phases): dataflow segments and the engine's
 * parts, each part a run of folded layers between two dataflow segments (or
 * a piece of such a run, hls_fold_cut) and a range of the descriptor table
 * with a SEGMENT value of its own (fold_segments, fold_parts), and sizes
 * the engine for a PE x PE array; hls_fold_eval
 * adds its resources, MACs and DDR traffic to the plan's totals after each
 * evaluation, hls_fold_finish its cycles to the interval (the dataflow's
 * segments and the engine's parts run one after the other: one start at a
 * time) and to the latency (the folded layers run between the segments of
 * a frame).
 *
 * Each folded layer takes the descriptor's exact cycles (hls/desc_tsconv.c,
 * checked by sim/tb/tb_tsconv.c against a memory of fixed latency, here
 * HLS_HW_DDR_LAT: the one the dataflow's timing model assumes and kiln
 * simulate's memory gives) or the time its DDR bytes take at the board's
 * bandwidth, the longer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-runtime/kiln_sched.h"
#include "hls/chan.h"
#include "hls/hw.h"
#include "hls/plan_int.h"
#include "hls/res_util.h"

#define FOLD_WDEPTH_MIN 512 /* weight words a lane at least (one block RAM deep) */

/* Is stage s a conv the shared engine takes (K <= 7, stride 1|2)? */
static int foldable(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV && s->k <= 7 && (s->stride == 1 || s->stride == 2) &&
           s->pad < s->k;
}

/* Parse the --fold list: mark[i] = 1 for stage i.  Returns the count, or
 * -1 + e for a bad name. */
static int fold_select(const HlsPlan *p, const char *spec, int *mark, GirError *e)
{
    int i, n = 0;
    {
        const char *a = spec;
        while (*a) {
            const char *c = strchr(a, ',');
            size_t len = c ? (size_t)(c - a) : strlen(a);
            int found = -1;
            for (i = 0; i < p->nstage; i++)
                if (strlen(p->stages[i].node) == len && !strncmp(p->stages[i].node, a, len))
                    found = i;
            if (found < 0)
                return gir_error_at(e, gir_loc_none(),
                                    "--fold %s: no layer '%.*s' in the FPGA part of '%s'", spec,
                                    (int)len, a, p->model);
            if (!foldable(&p->stages[found]))
                return gir_error_at(e, gir_loc_none(),
                                    "--fold %s: layer '%.*s' is a %s, not a conv the shared "
                                    "engine takes (K <= 7, stride 1 or 2)",
                                    spec, (int)len, a, p->stages[found].desc->name);
            if (!mark[found])
                n++;
            mark[found] = 1;
            a += len;
            if (*a == ',')
                a++;
        }
    }
    return n;
}

/* Append to *v (*nset sets) the --fold list of the foldable convs of p
 * whose output map is at most `area` pixels, and conv `one` (-1: none). */
static void fold_add_set(const HlsPlan *p, int64_t area, int one, char ***v, int *nset)
{
    size_t len = 1;
    int i;
    char *sp;
    for (i = 0; i < p->nstage; i++)
        if (foldable(&p->stages[i]) && (p->stages[i].oh * p->stages[i].ow <= area || i == one))
            len += strlen(p->stages[i].node) + 1;
    sp = malloc(len);
    *v = realloc(*v, sizeof **v * (size_t)(*nset + 1));
    if (!sp || !*v)
        gir_die("out of memory");
    sp[0] = 0;
    for (i = 0; i < p->nstage; i++)
        if (foldable(&p->stages[i]) && (p->stages[i].oh * p->stages[i].ow <= area || i == one)) {
            if (sp[0])
                strcat(sp, ",");
            strcat(sp, p->stages[i].node);
        }
    (*v)[(*nset)++] = sp;
}

int hls_fold_auto_sets(const HlsPlan *p, char ***specs)
{
    int64_t area = -1;
    int nset = 0, i;
    char **v = NULL;
    *specs = NULL;
    for (;;) {
        int64_t next = -1, after = -1;
        int n = 0, nnext = 0;
        /* the next larger output map of a foldable conv */
        for (i = 0; i < p->nstage; i++) {
            const HlsStage *s = &p->stages[i];
            if (foldable(s) && s->oh * s->ow > area && (next < 0 || s->oh * s->ow < next))
                next = s->oh * s->ow;
        }
        if (next < 0)
            break;
        area = next;
        for (i = 0; i < p->nstage; i++)
            if (foldable(&p->stages[i]) && p->stages[i].oh * p->stages[i].ow <= area)
                n++;
        if (n >= p->nstage) /* keep one stage in the dataflow */
            break;
        if (n < 2)
            continue;
        fold_add_set(p, area, -1, &v, &nset);
        /* the set with one conv of the next map size beside it, where that
         * size has more than one (one alone is the next nested set): the
         * engine then takes a conv from the dataflow segment that binds
         * without the rest of its map size */
        for (i = 0; i < p->nstage; i++) {
            const HlsStage *s = &p->stages[i];
            if (foldable(s) && s->oh * s->ow > area && (after < 0 || s->oh * s->ow < after))
                after = s->oh * s->ow;
        }
        for (i = 0; i < p->nstage; i++)
            nnext += foldable(&p->stages[i]) && p->stages[i].oh * p->stages[i].ow == after;
        for (i = 0; nnext > 1 && n + 1 < p->nstage && i < p->nstage; i++)
            if (foldable(&p->stages[i]) && p->stages[i].oh * p->stages[i].ow == after)
                fold_add_set(p, area, i, &v, &nset);
    }
    *specs = v;
    return nset;
}

/* WDEPTH of the engine's weight memory (kiln_conv's: one memory a PE_OC
 * lane, words of 8 x PE_IC bits): from `least` (one K*K*ICG group of the
 * largest layer, one block RAM deep at least) doubled while the blocks the
 * lane's width takes hold the depth at no more blocks (URAM288 4096 words
 * at any width; RAMB36E2 where a narrow word leaves a deeper shape), up to
 * `whole` (the largest layer's whole weight set).  Deeper tiles hold more
 * output groups: fewer passes over a layer's input. */
static int64_t fold_wdepth(int pe, int uram, int64_t least, int64_t whole)
{
    int64_t d = least;
    while (d < whole) {
        double a = uram ? (double)hls_uram_for(d, 8 * pe) : hls_bram36_for(d, 8 * pe);
        double b = uram ? (double)hls_uram_for(2 * d, 8 * pe) : hls_bram36_for(2 * d, 8 * pe);
        if (b > a)
            break;
        d *= 2;
    }
    return d;
}

/* Layer l's cycles on the engine f->hw describes with tog output groups a
 * tile (first: the run's first layer, whose descriptor and weights the
 * engine reads with its input; else pre: what the layer before it in the
 * run left, as the engine prefetches; next: non-NULL when a layer of the
 * run follows, which gets what this one leaves): the descriptor's exact
 * cycles (hls_tsconv_layer) or its DDR bytes at bpc bytes a cycle, the
 * longer; *ddr_bytes its DDR traffic (the descriptor, the weights once, the
 * input once a tile, the output); floors (may be NULL) its MAC and weight
 * channel cycles (hls_tsconv_floors).  -1 when kiln_tsconv rejects the
 * shape. */
static int64_t fold_layer_cycles(const HlsFold *f, const HlsEngineDesc *d, const HlsFoldLayer *l,
                                 int64_t tog, int first, const HlsTsCarry *pre,
                                 HlsTsCarry *next, double bpc, int64_t *ddr_bytes,
                                 int64_t floors[2])
{
    int64_t rt[HLS_PLAN_MAX_PARAMS] = {0}, c, ddr;
    int64_t nt = hls_cdiv(hls_cdiv(l->cout, f->pe), tog);
    HlsTsLayer t;
    HlsTsBytes b;
    uint32_t desc[32];
    rt[hls_param_index(d->rt_params, "h")] = l->h;
    rt[hls_param_index(d->rt_params, "w")] = l->w;
    rt[hls_param_index(d->rt_params, "cin")] = l->cin;
    rt[hls_param_index(d->rt_params, "cout")] = l->cout;
    rt[hls_param_index(d->rt_params, "k")] = l->k;
    rt[hls_param_index(d->rt_params, "stride")] = l->stride;
    rt[hls_param_index(d->rt_params, "pad")] = l->pad;
    rt[hls_param_index(d->rt_params, "tog")] = tog;
    rt[hls_param_index(d->rt_params, "lat")] = HLS_HW_DDR_LAT;
    rt[hls_param_index(d->rt_params, "blat")] = HLS_HW_DDR_BLAT;
    rt[hls_param_index(d->rt_params, "first")] = first;
    /* a run's first layer: fetched, or prefetched by the idle engine */
    c = hls_tsconv_layer(f->hw, rt, first && !(pre && pre->go > 0) ? NULL : pre, next);
    if (c >= 0 && floors && hls_tsconv_floors(f->hw, rt, &floors[0], &floors[1]) < 0)
        return -1;
    /* the descriptor the driver will write must hold the layer; its sizes
     * are the DDR traffic */
    t = (HlsTsLayer){l->h, l->w, l->cin, l->cout, l->k, l->stride, l->pad, tog,
                     l->qlo, l->qhi, 0, 0, 0, (int)f->hw[hls_param_index(d->hw_params, "WCH")]};
    if (c < 0 || hls_tsconv_desc(&t, f->pe, f->hw[hls_param_index(d->hw_params, "DATA_W")] / 8,
                                 desc, &b) < 0)
        return -1;
    *ddr_bytes = 128 + b.wbytes + nt * b.xbytes + b.ybytes;
    ddr = (int64_t)((double)*ddr_bytes / bpc + 0.999999);
    return hls_max64(c, ddr);
}

/* kiln_conv LBROWS of the engine whose memories mem (HLS_FOLD_* bits)
 * describes: with HLS_FOLD_LBR2 one row more than KMAX's R =
 * 2^ceil(log2(KMAX+1)), which kiln_conv_window rounds up to 2R; else 0. */
static int64_t fold_lbrows(int mem, int64_t kmax)
{
    return mem & HLS_FOLD_LBR2 ? hls_pow2ceil(kmax + 1) + 1 : 0;
}

/* kiln_conv LBBANK for the fold's layers (line buffers in block RAM): the
 * words a bank of the banked line buffer holds, 2^ceil(log2) of the
 * largest layer's ceil(R*W/PP) << ceil(log2 ICG) (kiln_conv_window.v,
 * R = 2^ceil(log2(max(KMAX+1, LBROWS))) rows); 0 (PP copies) where
 * banking does not apply (PP not a power of two >= 2, a layer of stride 2)
 * or saves no block RAM over the copies. */
static int64_t fold_lbbank(const HlsFold *f, int pe, int pp, int64_t kmax, int64_t lbrows,
                           int64_t wmax, int64_t icgmax)
{
    int64_t r = hls_pow2ceil(hls_max64(kmax + 1, lbrows)), depth = 1, copy;
    int i;
    if (pp < 2 || (pp & (pp - 1)) != 0)
        return 0;
    for (i = 0; i < f->n; i++) {
        const HlsFoldLayer *l = &f->layers[i];
        if (l->stride != 1)
            return 0;
        depth = hls_max64(depth, hls_cdiv(r * l->w, pp) << hls_clog2(hls_cdiv(l->cin, pe)));
    }
    depth = hls_pow2ceil(depth);
    copy = r << (hls_max64(1, hls_clog2(wmax)) + hls_max64(1, hls_clog2(icgmax)));
    if (hls_bram36_for(depth, 8 * pe) >= hls_bram36_for(copy, 8 * pe))
        return 0;
    return depth;
}

/* kiln_tsconv's hw vector for the fold's layers on a pe x pe array of pp
 * pixels an op, its memories and DSP clock as mem (HLS_FOLD_*) says: with
 * two weight banks each is half of what one memory's blocks hold (kiln_conv
 * WBMERGE), so tiles are half as deep; with HLS_FOLD_DSP2X (pe even) the
 * multipliers on clk2x, with HLS_FOLD_DSP2P too pixel pairs (pp even; else
 * on the fabric clock).  kiln_conv's exact model needs K*K*ICG >= PP
 * of every layer: -1 + e when a layer has less. */
static int fold_size(HlsPlan *p, int pe, int pp, int mem, GirError *e)
{
    HlsFold *f = &p->fold;
    const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
    int64_t kmax = 1, wmax = 1, icgmax = 1, ocgmax = 1, kkimax = 1, wdepth, togmax = 1;
    int64_t wholemax = 1, kkimin = -1, rqs; /* words a lane of the largest layer's whole weight set */
    int64_t nb; /* weight banks */
    HlsTsCarry carry = {0, 0, 0, 0}; /* what the layer before leaves the next (its run's) */
    double bpc = p->board.ddr_gbps * 1e9 / (p->mhz * 1e6); /* DDR bytes a PL cycle */
    int i;
    if (!d)
        return gir_error_at(e, gir_loc_none(), "plan: engine kiln_tsconv is not built");
    for (i = 0; i < f->n; i++) {
        const HlsFoldLayer *l = &f->layers[i];
        int64_t icg = hls_cdiv(l->cin, pe);
        kmax = hls_max64(kmax, l->k);
        wmax = hls_max64(wmax, l->w);
        icgmax = hls_max64(icgmax, icg);
        ocgmax = hls_max64(ocgmax, hls_cdiv(l->cout, pe));
        kkimax = hls_max64(kkimax, l->k * l->k * icg);
        kkimin = kkimin < 0 ? l->k * l->k * icg : hls_min64(kkimin, l->k * l->k * icg);
        wholemax = hls_max64(wholemax, l->k * l->k * icg * hls_cdiv(l->cout, pe));
        if (l->k * l->k * icg < pp)
            return gir_error_at(e, gir_loc_none(), "plan: layer '%s': K*K*ICG = %lld on %dx%d "
                                "lanes is below the engine's %d pixels an op", l->node,
                                (long long)(l->k * l->k * icg), pe, pe, pp);
    }
    /* results per requant lane: every layer's PP*PE_OC results complete
     * once every K*K*ICG cycles at most, so the least of them bounds it */
    rqs = hls_rq_share((int64_t)pp * pe, kkimin);
    nb = mem & HLS_FOLD_WB2 ? 2 : 1;
    wdepth = fold_wdepth(pe, p->board.uram > 0,
                         nb * hls_max64(FOLD_WDEPTH_MIN, hls_pow2ceil(kkimax)),
                         nb * hls_pow2ceil(wholemax)) /
             nb;
    for (i = 0; i < f->n; i++) {
        HlsFoldLayer *l = &f->layers[i];
        int64_t kki = l->k * l->k * hls_cdiv(l->cin, pe), ocg = hls_cdiv(l->cout, pe);
        l->tog = hls_tile_fit(ocg, pe, hls_max64(1, wdepth / kki));
        togmax = hls_max64(togmax, l->tog);
    }
    f->pe = pe;
    f->pp = pp;
    f->mem = mem;
    f->dsp2x = !(mem & HLS_FOLD_DSP2X) ? 0 : (mem & HLS_FOLD_DSP2P) ? 2 * (pp % 2 == 0)
                                                                     : pe % 2 == 0;
    for (i = 0; d->hw_params[i]; i++) {
        const char *n = d->hw_params[i];
        int64_t v = 0;
        if (!strcmp(n, "PE_IC") || !strcmp(n, "PE_OC"))
            v = pe;
        else if (!strcmp(n, "KMAX"))
            v = kmax;
        else if (!strcmp(n, "WMAX"))
            v = wmax;
        else if (!strcmp(n, "CIMAX"))
            v = icgmax * pe;
        else if (!strcmp(n, "COMAX"))
            v = ocgmax * pe;
        else if (!strcmp(n, "WDEPTH"))
            v = wdepth;
        else if (!strcmp(n, "PIPE"))
            v = p->mhz >= 250.0 ? hls_clog2(pe) : (hls_clog2(pe) + 1) / 2;
        else if (!strcmp(n, "RQ_PIPE"))
            v = p->mhz >= 250.0 ? 4 : 3;
        else if (!strcmp(n, "PACK"))
            v = 2;
        else if (!strcmp(n, "TOGMAX"))
            v = togmax;
        else if (!strcmp(n, "WURAM"))
            v = p->board.uram > 0;
        else if (!strcmp(n, "DATA_W"))
            v = 128;
        else if (!strcmp(n, "ADDR_W"))
            v = 40;
        else if (!strcmp(n, "BURST_MAX"))
            v = 64;
        else if (!strcmp(n, "MAX_OUT"))
            v = 4;
        else if (!strcmp(n, "CNT_W"))
            v = 24;
        else if (!strcmp(n, "PP"))
            v = pp;
        else if (!strcmp(n, "LBURAM"))
            v = (mem & HLS_FOLD_LBURAM) != 0;
        else if (!strcmp(n, "WBANKS"))
            v = nb;
        else if (!strcmp(n, "RQS"))
            v = rqs;
        else if (!strcmp(n, "SPAN")) /* per layer where its window takes it */
            v = pp > 1;
        else if (!strcmp(n, "DSP2X"))
            v = f->dsp2x;
        else if (!strcmp(n, "RQ_DSP"))
            v = f->rq_dsp == 1 ? 1 : 2;
        else if (!strcmp(n, "LBROWS"))
            v = fold_lbrows(mem, kmax);
        else if (!strcmp(n, "WCH"))
            v = mem & HLS_FOLD_WCH2 ? 2 : 1;
        else if (!strcmp(n, "LBBANK"))
            v = mem & HLS_FOLD_LBBANK
                    ? fold_lbbank(f, pe, pp, kmax, fold_lbrows(mem, kmax), wmax, icgmax)
                    : 0;
        f->hw[i] = v;
    }
    /* two banks: a tile loads while the pass before it computes, so
     * smaller tiles hide more of a layer's load (only the first tile's is
     * not hidden) at more passes over its input: each layer takes the tile
     * (a divisor of its output groups, up to what a bank holds) of the
     * fewest cycles, the larger on a tie */
    if (nb == 2) {
        togmax = 1;
        for (i = 0; i < f->n; i++) {
            HlsFoldLayer *l = &f->layers[i];
            int64_t ocg = hls_cdiv(l->cout, pe), t, best = -1, db;
            int first = i == f->parts[l->part].first;
            int more = i + 1 < f->n && f->layers[i + 1].part == l->part;
            HlsTsCarry nx = {0, 0, 0, 0}, bnx = {0, 0, 0, 0};
            /* in run order, each layer after the tile of the one before it */
            for (t = l->tog; t >= 1; t--) {
                int64_t c;
                if (ocg % t != 0)
                    continue;
                c = fold_layer_cycles(f, d, l, t, first, &carry, more ? &nx : NULL, bpc, &db,
                                      NULL);
                if (c >= 0 && (best < 0 || c < best)) {
                    best = c;
                    l->tog = t;
                    bnx = nx;
                }
            }
            carry = bnx;
            togmax = hls_max64(togmax, l->tog);
        }
        f->hw[hls_param_index(d->hw_params, "TOGMAX")] = togmax;
    }
    f->res = d->resources(f->hw);
    carry = (HlsTsCarry){0, 0, 0, 0};
    f->cycles = 0;
    for (i = 0; i < f->npart; i++)
        f->parts[i].cycles = 0;
    f->ddr_bytes = 0;
    f->macs = 0;
    for (i = 0; i < f->n; i++) {
        HlsFoldLayer *l = &f->layers[i];
        HlsTsCarry nx = {0, 0, 0, 0};
        int more = i + 1 < f->n && f->layers[i + 1].part == l->part;
        int64_t fl[2] = {0, 0};
        int64_t c = fold_layer_cycles(f, d, l, l->tog, i == f->parts[l->part].first, &carry,
                                      more ? &nx : NULL, bpc, &l->ddr_bytes, fl);
        if (c < 0)
            return gir_error_at(e, gir_loc_none(),
                                "plan: layer '%s': kiln_tsconv rejects the layer's shape", l->node);
        l->cycles = c;
        l->mac_cycles = fl[0];
        l->wport_cycles = fl[1];
        carry = nx;
        f->parts[l->part].cycles += l->cycles;
        f->ddr_bytes += l->ddr_bytes;
        f->macs += l->macs;
    }
    for (i = 0; i < f->npart; i++)
        f->cycles += hls_segment_interval(p, f->parts[i].seg);
    return 0;
}

/* Phases: a frame runs the dataflow in even phases and the engine in odd
 * ones.  A stage takes the least phase of its parity at or after each of
 * its producers' (stages come in graph order, producers first), so the
 * engine runs a folded layer only after what it reads, and a stage only
 * after the folded layers it reads.  A stream between two phases goes
 * through DDR (its consumer reads it as from another segment).  Segments:
 * connected components of the streams inside one phase and one of the
 * partition's segments (its levels stay apart), numbered by phase, then
 * first stage.  Parts: the folded layers of one odd phase each, in graph
 * order; the descriptor table holds them part after part, and a frame runs
 * phase after phase. */

/* The phase of each stage (mark: folded) and its partition segment. */
static void fold_phases(const HlsPlan *p, const int *mark, int *phase, int *oseg)
{
    int i, j;
    for (i = 0; i < p->nstage; i++) {
        int m = 0, want = mark[i] ? 1 : 0;
        for (j = 0; j < p->stages[i].nin; j++)
            if (p->stages[i].in[j] >= 0 && phase[p->stages[i].in[j]] > m)
                m = phase[p->stages[i].in[j]];
        phase[i] = m % 2 == want ? m : m + 1;
        oseg[i] = p->stages[i].segment;
    }
}

/* The parts of f's layers (in table order, phase after phase): a part per
 * run of one phase, and one more at each cut (HlsFoldLayer.cut); their
 * SEGMENT values from nsegment up. */
static void fold_parts(HlsFold *f, int nsegment)
{
    int i;
    f->npart = 0;
    for (i = 0; i < f->n; i++) {
        HlsFoldLayer *l = &f->layers[i];
        if (i == 0 || l->phase != l[-1].phase || l->cut) {
            f->parts[f->npart] = (HlsFoldPart){nsegment + f->npart, i, 0, 0};
            f->npart++;
        }
        l->part = f->npart - 1;
        f->parts[l->part].count++;
    }
}

/* Segments of the kept stages (p->stages, p->nstage; sphase: their phases,
 * soseg: their partition segments), numbered by phase then first stage;
 * parts of the folded layers; the frame's order.  The layers are reordered
 * part after part. */
static void fold_segments(HlsPlan *p, const int *sphase, const int *soseg)
{
    HlsFold *f = &p->fold;
    int n = p->nstage, i, j, ph, maxph = 0, k;
    int *parent = malloc(sizeof *parent * (size_t)(n + 1));
    int *segid = malloc(sizeof *segid * (size_t)(n + 1));
    HlsFoldLayer *sorted = malloc(sizeof *sorted * (size_t)(f->n + 1));
    if (!parent || !segid || !sorted)
        gir_die("out of memory");
    for (i = 0; i < n; i++)
        parent[i] = i, segid[i] = -1, maxph = sphase[i] > maxph ? sphase[i] : maxph;
    for (i = 0; i < f->n; i++)
        maxph = f->layers[i].phase > maxph ? f->layers[i].phase : maxph;
    for (i = 0; i < n; i++)
        for (j = 0; j < p->stages[i].nin; j++) {
            int u = p->stages[i].in[j];
            if (u >= 0 && sphase[u] == sphase[i] && soseg[u] == soseg[i])
                parent[hls_find_root(parent, i)] = hls_find_root(parent, u);
        }
    p->nsegment = 0;
    for (ph = 0; ph <= maxph; ph += 2)
        for (i = 0; i < n; i++) {
            int r = hls_find_root(parent, i);
            if (sphase[i] != ph)
                continue;
            if (segid[r] < 0)
                segid[r] = p->nsegment++;
            p->stages[i].segment = segid[r];
        }
    /* parts: one per odd phase that holds layers, the layers in graph order */
    f->parts = calloc((size_t)f->n + 1, sizeof *f->parts);
    f->order = calloc((size_t)(p->nsegment + f->n) + 1, sizeof *f->order);
    if (!f->parts || !f->order)
        gir_die("out of memory");
    for (ph = 1, k = 0; ph <= maxph; ph += 2)
        for (i = 0; i < f->n; i++)
            if (f->layers[i].phase == ph)
                sorted[k++] = f->layers[i];
    memcpy(f->layers, sorted, sizeof *sorted * (size_t)f->n);
    fold_parts(f, p->nsegment);
    /* the frame: phase after phase */
    for (ph = 0, k = 0; ph <= maxph; ph++) {
        if (ph % 2) {
            for (j = 0; j < f->npart; j++)
                if (f->layers[f->parts[j].first].phase == ph)
                    f->order[k++] = f->parts[j].seg;
            continue;
        }
        for (j = 0; j < p->nsegment; j++)
            for (i = 0; i < n; i++)
                if (p->stages[i].segment == j) {
                    if (sphase[i] == ph)
                        f->order[k++] = j;
                    break;
                }
    }
    free(parent);
    free(segid);
    free(sorted);
}

int hls_fold_apply(HlsPlan *p, const char *spec, int pe, int pp, int mem, GirError *e)
{
    int *mark = calloc((size_t)p->nstage + 1, sizeof *mark);
    int *map = calloc((size_t)p->nstage + 1, sizeof *map);
    int *phase = calloc((size_t)p->nstage + 1, sizeof *phase);
    int *oseg = calloc((size_t)p->nstage + 1, sizeof *oseg);
    int n, i, j, k = 0;
    if (!mark || !map || !phase || !oseg)
        gir_die("out of memory");
    n = fold_select(p, spec, mark, e);
    if (n <= 0 || n >= p->nstage) {
        free(mark);
        free(map);
        free(phase);
        free(oseg);
        if (n >= p->nstage)
            return gir_error_at(e, gir_loc_none(),
                                "--fold %s: every FPGA layer of '%s' would fold; keep one in the "
                                "dataflow",
                                spec, p->model);
        return n;
    }
    fold_phases(p, mark, phase, oseg);
    p->fold.layers = calloc((size_t)n, sizeof *p->fold.layers);
    if (!p->fold.layers)
        gir_die("out of memory");
    p->fold.n = n;
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        if (mark[i]) {
            HlsFoldLayer *l = &p->fold.layers[k++];
            l->node = s->node;
            l->h = s->h;
            l->w = s->w;
            l->cin = s->cin;
            l->cout = s->cout;
            l->k = s->k;
            l->stride = s->stride;
            l->pad = s->pad;
            l->oh = s->oh;
            l->ow = s->ow;
            l->qlo = s->qlo;
            l->qhi = s->qhi;
            l->macs = s->macs;
            l->phase = phase[i];
            map[i] = -1;
            /* its producers write to DDR */
            for (j = 0; j < s->nin; j++)
                if (s->in[j] >= 0)
                    p->stages[s->in[j]].out_ddr = 1;
        }
    }
    for (i = 0, k = 0; i < p->nstage; i++)
        if (!mark[i])
            map[i] = k++;
    for (i = 0, k = 0; i < p->nstage; i++) {
        HlsStage s = p->stages[i];
        if (mark[i])
            continue;
        for (j = 0; j < s.nin; j++) {
            int u = s.in[j];
            if (u >= 0 && !mark[u] && phase[u] != phase[i]) {
                /* a stream across the engine's part: through DDR */
                p->stages[map[u]].out_ddr = 1; /* kept before i: already compacted */
                u = -1;
            }
            s.in[j] = u >= 0 ? map[u] : -1; /* -1: from DDR (a folded layer's output) */
        }
        /* the kept stages' phases and partition segments, compacted alike */
        phase[k] = phase[i];
        oseg[k] = oseg[i];
        p->stages[k++] = s;
    }
    /* the consumers of a folded layer read its output from DDR; the stages
     * whose outputs only a folded layer takes already write to DDR */
    p->nstage = k;
    fold_segments(p, phase, oseg);
    free(mark);
    free(map);
    free(phase);
    free(oseg);
    /* kiln_regfile has a run unit per dataflow segment and the engine's */
    if (p->nsegment + 1 > KILN_SCHED_UNITS)
        return gir_error_at(e, gir_loc_none(),
                            "--fold %s leaves %d dataflow segments: a folded design runs at most "
                            "%d (a run unit each, and one for the shared engine)",
                            spec, p->nsegment, KILN_SCHED_UNITS - 1);
    if (fold_size(p, pe, pp, mem, e) < 0)
        return -1;
    return n;
}

int hls_fold_cut(HlsPlan *p, int at, int on, GirError *e)
{
    HlsFold *f = &p->fold;
    int np = f->npart, n = p->nsegment + np, i, j, k, q;
    HlsFoldPart *was = malloc(sizeof *was * (size_t)(np + 1));
    int *order = malloc(sizeof *order * (size_t)(n + 1));
    if (!was || !order)
        gir_die("out of memory");
    if (at <= 0 || at >= f->n || f->layers[at].phase != f->layers[at - 1].phase) {
        free(was);
        free(order);
        return gir_error_at(e, gir_loc_none(), "plan: no cut at folded layer %d: a cut goes "
                            "between two layers of one part", at);
    }
    memcpy(was, f->parts, sizeof *was * (size_t)np);
    memcpy(order, f->order, sizeof *order * (size_t)n);
    f->layers[at].cut = on != 0;
    fold_parts(f, p->nsegment);
    /* the order as before, each part that was in it replaced by the parts
     * now holding its layers */
    for (i = 0, k = 0; i < n; i++) {
        if (order[i] < p->nsegment) {
            f->order[k++] = order[i];
            continue;
        }
        q = order[i] - p->nsegment;
        for (j = 0; j < f->npart; j++)
            if (f->parts[j].first >= was[q].first &&
                f->parts[j].first < was[q].first + was[q].count)
                f->order[k++] = f->parts[j].seg;
    }
    free(was);
    free(order);
    return fold_size(p, f->pe, f->pp, f->mem, e);
}

int hls_fold_split(HlsPlan *p, int at, GirError *e)
{
    HlsFold *f = &p->fold;
    int s, i, j, k, n = p->nsegment + f->npart, head = 0;
    int *order;
    if (at < 0 || at >= p->nstage || f->n == 0)
        return gir_error_at(e, gir_loc_none(), "plan: no split at stage %d", at);
    s = p->stages[at].segment;
    for (i = 0; i < at && !head; i++)
        head = p->stages[i].segment == s;
    if (!head)
        return gir_error_at(e, gir_loc_none(), "plan: no split at '%s': it is the first stage "
                            "of its segment", p->stages[at].node);
    if (p->nsegment + 2 > KILN_SCHED_UNITS)
        return gir_error_at(e, gir_loc_none(), "plan: no split at '%s': a folded design runs "
                            "at most %d dataflow segments (a run unit each, and one for the "
                            "shared engine)", p->stages[at].node, KILN_SCHED_UNITS - 1);
    order = malloc(sizeof *order * (size_t)(n + 2));
    if (!order)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++) {
        HlsStage *t = &p->stages[i];
        if (t->segment > s || (t->segment == s && i >= at))
            t->segment++;
    }
    /* the streams from the first half into the second go through DDR */
    for (i = at; i < p->nstage; i++)
        for (j = 0; p->stages[i].segment == s + 1 && j < p->stages[i].nin; j++) {
            int u = p->stages[i].in[j];
            if (u >= 0 && p->stages[u].segment == s)
                p->stages[u].out_ddr = 1;
        }
    for (i = 0; i < f->npart; i++)
        f->parts[i].seg++;
    for (i = 0, k = 0; i < n; i++) {
        order[k++] = f->order[i] > s ? f->order[i] + 1 : f->order[i];
        if (f->order[i] == s)
            order[k++] = s + 1;
    }
    free(f->order);
    f->order = order;
    p->nsegment++;
    p->stages[at].split = 1;
    return 0;
}

/* The engine sized again with the HLS_FOLD_* bit `bit` set, kept when the
 * plan still fits and is not DDR-bound and its interval shortens within the
 * latency bound (p->lat_goal; without one, the plan's latency) or, at the
 * same interval, its latency does; else the engine as it was.  1 when
 * kept. */
static int fold_try(HlsPlan *p, int bit, GirError *e)
{
    HlsFold *f = &p->fold;
    int64_t iv0 = p->interval, lat0 = p->latency;
    int64_t lat_max = p->lat_goal > 0 && p->lat_goal > lat0 ? p->lat_goal : lat0;
    int ok = fold_size(p, f->pe, f->pp, f->mem | bit, NULL) == 0 && hls_plan_fits(p, NULL) &&
             ((p->interval < iv0 && p->latency <= lat_max) ||
              (p->interval == iv0 && p->latency < lat0));
    if (!ok) {
        fold_size(p, f->pe, f->pp, f->mem & ~bit, e);
        hls_plan_eval(p, 0, e);
    }
    return ok;
}

int hls_fold_rows(HlsPlan *p, GirError *e)
{
    HlsFold *f = &p->fold;
    if (f->n == 0 || (f->mem & HLS_FOLD_LBR2) || !hls_plan_fits(p, e))
        return 0;
    return fold_try(p, HLS_FOLD_LBR2, e);
}

int hls_fold_hp_free(const HlsPlan *p)
{
    HlsChans c;
    int i, nhp = 0, n;
    for (i = 0; i < p->board.nports; i++)
        nhp += strcmp(p->board.ports[i].kind, "hp") == 0;
    hls_plan_channels(p, &c);
    n = c.nch - (c.ts >= 0 && c.nch > c.ts + 3); /* the second weight master's own */
    hls_chans_free(&c);
    return nhp >= (n + 15) / 16 + 1;
}

int hls_fold_wch(HlsPlan *p, GirError *e)
{
    HlsFold *f = &p->fold;
    const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
    int i, binds = 0;
    if (!d || f->n == 0 || (f->mem & HLS_FOLD_WCH2) || f->pe % 2 || !hls_plan_fits(p, e))
        return 0;
    for (i = 0; i < f->n; i++)
        binds |= f->layers[i].wport_cycles > f->layers[i].mac_cycles;
    if (!binds || !hls_fold_hp_free(p))
        return 0;
    return fold_try(p, HLS_FOLD_WCH2, e);
}

void hls_fold_eval(HlsPlan *p)
{
    if (p->fold.n == 0)
        return;
    hls_res_add(&p->total, &p->fold.res);
    p->ddr_bytes += p->fold.ddr_bytes;
    p->macs += p->fold.macs;
}

/* Memo of kiln_sched_steady: every evaluation of a folded plan times up
 * to 2 x KILN_SCHED_FLIGHT ways of running its frames, and the search
 * evaluates the same runs again and again (a step tried and undone, a
 * search run repeated for its latency, the latency steps' caps).  Open
 * addressing on a hash of the runs and the way; a key of more than
 * SCHED_MEMO_RUNS runs is timed each time. */
#define SCHED_MEMO_SLOTS 16384 /* a power of two */
#define SCHED_MEMO_PROBE 8
#define SCHED_MEMO_RUNS 24
typedef struct {
    int n;                           /* runs a frame (0: empty slot) */
    int flight, steps, gate;         /* the way */
    uint64_t sig;                    /* the engine's (fold_sig): its runs' cycles after idle */
    signed char unit[SCHED_MEMO_RUNS]; /* each run's unit */
    long long dur[SCHED_MEMO_RUNS];  /* each run's cycles */
    long long interval, latency;     /* kiln_sched_steady's answer */
} SchedMemoEntry;
/* A part's cycles after an idle gap (fold_part_after), or with gap
 * PART_MEMO_GCAP the gap past which they stay the same (fold_run_dur). */
#define PART_MEMO_SLOTS 4096 /* a power of two */
#define PART_MEMO_PROBE 8
#define PART_MEMO_GCAP -1
typedef struct {
    int used;       /* 0: empty slot */
    int part;       /* the part */
    uint64_t sig;   /* the engine's (fold_sig) */
    long long fetched; /* the part's cycles fetched (a check beside sig) */
    long long gap;  /* the idle gap before it (PART_MEMO_GCAP: the gap cap) */
    long long cyc;  /* its cycles after that gap (the cap: -1 none) */
} PartMemoEntry;
struct HlsSchedMemo {
    SchedMemoEntry e[SCHED_MEMO_SLOTS];
    PartMemoEntry part[PART_MEMO_SLOTS];
};

/* Plan p's memo, made on first use. */
static struct HlsSchedMemo *sched_memo(HlsPlan *p)
{
    if (!p->smemo) {
        p->smemo = calloc(1, sizeof *p->smemo);
        if (!p->smemo)
            gir_die("out of memory");
    }
    return p->smemo;
}

/* The slot of (sig, part, fetched, gap) in memo m: *hit 1 when it holds
 * them, else the slot to fill (an empty one, or the first probed giving
 * way). */
static PartMemoEntry *part_memo_slot(struct HlsSchedMemo *m, uint64_t sig, int part,
                                     long long fetched, long long gap, int *hit)
{
    uint64_t h = (1469598103934665603ull ^ sig) * 1099511628211ull;
    PartMemoEntry *q;
    int k;
    h = (h ^ (uint64_t)part) * 1099511628211ull;
    h = (h ^ (uint64_t)gap) * 1099511628211ull;
    h ^= h >> 29;
    *hit = 0;
    for (k = 0; k < PART_MEMO_PROBE; k++) {
        q = &m->part[(size_t)(h + (uint64_t)k) & (PART_MEMO_SLOTS - 1)];
        if (!q->used)
            return q;
        if (q->sig == sig && q->part == part && q->fetched == fetched && q->gap == gap) {
            *hit = 1;
            return q;
        }
    }
    return &m->part[(size_t)h & (PART_MEMO_SLOTS - 1)];
}

static int sched_memo_is(const SchedMemoEntry *m, int n, const int *unit, const long long *dur,
                         int flight, int steps, int gate, uint64_t sig)
{
    int i;
    if (m->n != n || m->flight != flight || m->steps != steps || m->gate != gate || m->sig != sig)
        return 0;
    for (i = 0; i < n; i++)
        if (m->unit[i] != unit[i] || m->dur[i] != dur[i])
            return 0;
    return 1;
}

/* kiln_sched_steady through plan p's memo (rd: the engine's runs as
 * fold_run_dur times them, sig their fold_sig). */
static void sched_steady(HlsPlan *p, int n, const int *unit, const long long *dur, int flight,
                         int steps, int gate, long long *interval, long long *latency,
                         const KilnRunDur *rd, uint64_t sig)
{
    uint64_t h = 1469598103934665603ull ^ sig;
    SchedMemoEntry *m = NULL;
    int i, k;
    if (n > SCHED_MEMO_RUNS || n <= 0) {
        kiln_sched_steady(n, unit, dur, flight, steps, gate, interval, latency, rd);
        return;
    }
    sched_memo(p);
    h = (h ^ (uint64_t)(n | flight << 8 | steps << 16 | gate << 17)) * 1099511628211ull;
    for (i = 0; i < n; i++)
        h = (h ^ (uint64_t)dur[i] ^ (uint64_t)unit[i] << 56) * 1099511628211ull;
    for (k = 0; k < SCHED_MEMO_PROBE; k++) {
        m = &p->smemo->e[(size_t)(h + (uint64_t)k) & (SCHED_MEMO_SLOTS - 1)];
        if (!m->n)
            break;
        if (sched_memo_is(m, n, unit, dur, flight, steps, gate, sig)) {
            *interval = m->interval;
            *latency = m->latency;
            return;
        }
    }
    if (k == SCHED_MEMO_PROBE) /* all taken: the first gives way */
        m = &p->smemo->e[(size_t)h & (SCHED_MEMO_SLOTS - 1)];
    kiln_sched_steady(n, unit, dur, flight, steps, gate, interval, latency, rd);
    m->n = n;
    m->flight = flight, m->steps = steps, m->gate = gate;
    m->sig = sig;
    for (i = 0; i < n; i++) {
        m->unit[i] = (signed char)unit[i];
        m->dur[i] = dur[i];
    }
    m->interval = *interval;
    m->latency = *latency;
}

/* The engine's runs after idle (kiln_tsconv's run-end prefetch): when
 * a part's run ended, the idle engine reads the descriptor after its last
 * (the table's first after the last part's) and that layer's first weight
 * tiles; a part starting there gap > HLS_TS_PF_IDLE cycles later takes its first layer
 * as hls_tsconv_idle says, its later layers each after the one before; a
 * part starting elsewhere drops the prefetch (HLS_TS_DROP cycles more, the
 * prefetch settled: its weight stream held by full banks).  Past a gap at
 * which the first two tiles have loaded before the part's first input beat
 * (gcap: twice the first tile's bus beats + the memory's latency + 320 +
 * HLS_TS_PF_IDLE, more than the descriptor's read; checked on the model:
 * the cycles at 4 x gcap the same) every gap gives the same cycles.  The
 * cycles by part and gap (clamped to gcap), and each part's gcap, go
 * through plan p's memo keyed by the engine's fold_sig, so they are worked
 * out once a search, not at every evaluation: the search changes the
 * dataflow's stages far more often than the engine, and nearly every gap
 * kiln_sched meets is past gcap. */
typedef struct {
    HlsPlan *p;
    const HlsEngineDesc *d;     /* kiln_tsconv's descriptor (NULL: none) */
    const long long *dur;       /* each entry's cycles alone (its part's, fetched) */
    double bpc;                 /* DDR bytes a PL cycle */
    uint64_t sig;               /* the engine's fold_sig: what the cycles depend on beside
                                 * the part and the gap */
    long long *cap;             /* per part: its gap cap from the memo (0: not looked up
                                 * yet, -1: none) */
    long long *sat;             /* per part: its cycles after a gap >= cap */
} FoldRuns;

static long long fold_part_after(FoldRuns *r, int entry, int j, long long gap);

static long long fold_run_dur(void *ctx, int entry, int prev, long long gap)
{
    FoldRuns *r = ctx;
    const HlsPlan *p = r->p;
    const HlsFold *f = &p->fold;
    const HlsEngineDesc *d = r->d;
    int j = f->order[entry] - p->nsegment, pj, hit;
    PartMemoEntry *q;
    if (j < 0 || j >= f->npart || prev < 0 || gap <= HLS_TS_PF_IDLE || !d)
        return r->dur[entry];
    pj = f->order[prev] - p->nsegment;
    if (pj < 0 || pj >= f->npart)
        return r->dur[entry];
    if ((f->parts[pj].first + f->parts[pj].count) % f->n != f->parts[j].first)
        return r->dur[entry] + HLS_TS_DROP;
    if (r->cap[j] > 0 && gap >= r->cap[j])
        return r->sat[j];
    if (r->cap[j] < 0)
        return fold_part_after(r, entry, j, gap);
    q = part_memo_slot(sched_memo(r->p), r->sig, j, r->dur[entry], PART_MEMO_GCAP, &hit);
    if (!hit) {
        const HlsFoldLayer *l = &f->layers[f->parts[j].first];
        int64_t pe = f->pe, bus = f->hw[hls_param_index(d->hw_params, "DATA_W")] / 8;
        int64_t ocg = hls_cdiv(l->cout, pe), tog = l->tog <= 0 ? ocg : hls_min64(l->tog, ocg);
        int64_t w0 = tog * hls_conv_group_wbeats(pe, l->k * l->k * hls_cdiv(l->cin, pe));
        long long g = HLS_TS_PF_IDLE + 320 + HLS_HW_DDR_LAT + 2 * w0 * hls_cdiv(pe, bus);
        long long cap = fold_part_after(r, entry, j, g) == fold_part_after(r, entry, j, 4 * g)
                            ? g
                            : -1;
        /* the slot again: the two parts' cycles above may have taken it */
        q = part_memo_slot(sched_memo(r->p), r->sig, j, r->dur[entry], PART_MEMO_GCAP, &hit);
        *q = (PartMemoEntry){1, j, r->sig, r->dur[entry], PART_MEMO_GCAP, cap};
    }
    /* this evaluation's copy of the cap and the cycles past it, as
     * kiln_sched asks again at every run of the part */
    r->cap[j] = q->cyc;
    if (r->cap[j] > 0) {
        r->sat[j] = fold_part_after(r, entry, j, r->cap[j]);
        if (gap >= r->cap[j])
            return r->sat[j];
    }
    return fold_part_after(r, entry, j, gap);
}

/* Part j's cycles (entry its run) gap >= 1 cycles after the run before it
 * on the engine, which prefetched its first layer (fold_run_dur). */
static long long fold_part_after(FoldRuns *r, int entry, int j, long long gap)
{
    const HlsPlan *p = r->p;
    const HlsFold *f = &p->fold;
    const HlsEngineDesc *d = r->d;
    int i, hit;
    long long c = 0;
    HlsTsCarry carry = {0, 0, 0, 0};
    PartMemoEntry *q = part_memo_slot(sched_memo(r->p), r->sig, j, r->dur[entry], gap, &hit);
    if (hit)
        return q->cyc;
    if (!hls_tsconv_idle(f->hw, HLS_HW_DDR_LAT, gap, &carry))
        return r->dur[entry];
    for (i = f->parts[j].first; i < f->parts[j].first + f->parts[j].count; i++) {
        const HlsFoldLayer *l = &f->layers[i];
        HlsTsCarry nx = {0, 0, 0, 0};
        int64_t db, lc = fold_layer_cycles(f, d, l, l->tog, i == f->parts[j].first, &carry,
                                           i + 1 < f->parts[j].first + f->parts[j].count ? &nx
                                                                                         : NULL,
                                           r->bpc, &db, NULL);
        if (lc < 0)
            return r->dur[entry];
        c += lc;
        carry = nx;
    }
    /* the part's fetched cycles less what the prefetch hid */
    c = r->dur[entry] - (f->parts[j].cycles - c);
    *q = (PartMemoEntry){1, j, r->sig, r->dur[entry], gap, c};
    return c;
}

/* A hash of what fold_run_dur's answers depend on beside the cycles alone:
 * the engine's hw vector, its layers' tiles and its parts. */
static uint64_t fold_sig(const HlsPlan *p)
{
    const HlsFold *f = &p->fold;
    uint64_t h = 1469598103934665603ull;
    int i;
    for (i = 0; i < HLS_PLAN_MAX_PARAMS; i++)
        h = (h ^ (uint64_t)f->hw[i]) * 1099511628211ull;
    for (i = 0; i < f->n; i++)
        h = (h ^ (uint64_t)f->layers[i].tog ^ (uint64_t)f->layers[i].part << 40) *
            1099511628211ull;
    return (h ^ (uint64_t)p->nsegment) * 1099511628211ull;
}

/* kiln_regfile runs each dataflow segment on a unit of its own (segment k
 * on unit k) and the engine's parts on unit nsegment, all at the same
 * time: segments of different frames overlap as the dataflow's stages do,
 * on hardware of their own.  The host runs the frames as
 * host-runtime/kiln_sched.h says, every run a start of one frame (a
 * dataflow segment's one-frame run, hls_segment_latency; a part's cycles),
 * with 1 to KILN_SCHED_FLIGHT frames in flight, in steps or as the dones
 * come, a frame entering as soon as unit 0 takes it or once the one before
 * it has ended entry g - 1 of the order (a gate: with more than one frame in
 * flight a frame's first run then starts later rather than its parts
 * waiting for the older frame's on the engine): the way with the shortest interval (then latency, then the fewest
 * frames) among those within --max-latency-ms when one is (more frames in
 * flight lengthen a frame's latency under load), or one whose latency pays
 * for the interval it gives up (hls_latency_pays, the search's rule; not
 * with --interval-first).  The interval is the steady state per
 * frame and the latency a frame's first start to its last end there; the
 * whole plan's DDR cycles bound the interval. */
void hls_fold_finish(HlsPlan *p)
{
    int n = p->nsegment + p->fold.npart, i, k, st, g, c, f, best, nw = 0;
    int *unit, *wk, *wst, *wg, *wok;
    long long *dur, *wiv, *wlat, goal = -1;
    size_t nways = (size_t)(2 * KILN_SCHED_FLIGHT * (n + 1));
    FoldRuns runs;
    KilnRunDur rd;
    uint64_t sig;
    if (p->fold.n == 0)
        return;
    unit = calloc((size_t)n + 1, sizeof *unit);
    dur = calloc((size_t)n + 1, sizeof *dur);
    wk = calloc(nways, sizeof *wk);
    wst = calloc(nways, sizeof *wst);
    wg = calloc(nways, sizeof *wg);
    wok = calloc(nways, sizeof *wok);
    wiv = calloc(nways, sizeof *wiv);
    wlat = calloc(nways, sizeof *wlat);
    free(p->fold.runs);
    p->fold.runs = calloc((size_t)n + 1, sizeof *p->fold.runs);
    if (!unit || !dur || !wk || !wst || !wg || !wok || !wiv || !wlat || !p->fold.runs)
        gir_die("out of memory");
    p->fold.sequential = 0;
    for (i = 0; i < n; i++) {
        unit[i] = KILN_UNIT_OF(p->fold.order[i], p->nsegment);
        dur[i] = p->fold.runs[i] = hls_segment_latency(p, p->fold.order[i]);
        p->fold.sequential += dur[i];
    }
    sig = fold_sig(p);
    runs.p = p;
    runs.d = hls_engine_find("kiln_tsconv");
    runs.dur = dur;
    runs.bpc = p->board.ddr_gbps * 1e9 / (p->mhz * 1e6);
    runs.sig = sig;
    runs.cap = calloc((size_t)p->fold.npart + 1, sizeof *runs.cap);
    runs.sat = calloc((size_t)p->fold.npart + 1, sizeof *runs.sat);
    if (!runs.cap || !runs.sat)
        gir_die("out of memory");
    rd.fn = fold_run_dur;
    rd.ctx = &runs;
    /* one after the other: a frame's runs in the steady state of one frame
     * in flight, each part after the idle its dataflow segments leave */
    {
        long long iv1, lat1;
        sched_steady(p, n, unit, dur, 1, 0, 0, &iv1, &lat1, &rd, sig);
        p->fold.sequential = lat1;
    }
    if (p->max_latency_ms > 0)
        goal = (long long)floor(p->max_latency_ms * 1e3 * p->mhz);
    /* in steps: one frame is the free run, and more than three in flight
     * wait as three do; gates (1 .. n - 1) as the dones come with two and
     * three frames in flight, where a frame waits (its latency under load
     * above its runs one after the other): a gate only holds a frame back,
     * so more frames would wait as three do, and each way costs a run of
     * kiln_sched_steady at every evaluation of the search */
    for (k = 1; k <= KILN_SCHED_FLIGHT; k++)
        for (st = 0; st < (k == 1 || k > 3 ? 1 : 2); st++)
            for (g = 0; g < n; g++, nw++) {
                if (g > 0 && (!p->fold_gates || st || k > 3 ||
                              wlat[nw - g] <= p->fold.sequential))
                    break;
                sched_steady(p, n, unit, dur, k, st, g, &wiv[nw], &wlat[nw], &rd, sig);
                wk[nw] = k;
                wst[nw] = st;
                wg[nw] = g;
                wok[nw] = goal < 0 || wlat[nw] <= goal;
            }
    /* the fastest way (within the bound when one is; then the shorter
     * latency, then the fewer frames), unless one pays for its latency */
    for (f = 0, c = 1; c < nw; c++)
        if (wok[c] > wok[f] ||
            (wok[c] == wok[f] && (wiv[c] < wiv[f] || (wiv[c] == wiv[f] && wlat[c] < wlat[f]))))
            f = c;
    for (best = f, c = 0; c < nw && !p->interval_first; c++)
        if (wok[c] == wok[f] && wlat[c] < wlat[best] &&
            hls_latency_pays(wiv[f], wlat[f], wiv[c], wlat[c]))
            best = c;
    /* while the latency steps seek a bound no way meets, the interval
     * allowed to grow to ii_cap (hls_meet_latency): the shortest latency
     * within that interval, so a step that shortens the runs one after the
     * other shows as shorter */
    for (c = 0; goal >= 0 && !wok[f] && p->ii_cap > 0 && c < nw; c++)
        if (wiv[c] <= p->ii_cap && (wiv[best] > p->ii_cap || wlat[c] < wlat[best] ||
                                    (wlat[c] == wlat[best] && wiv[c] < wiv[best])))
            best = c;
    for (p->fold.tight = -1, c = 0; c < nw; c++)
        if (wlat[c] <= (goal > p->fold.sequential ? goal : p->fold.sequential) &&
            (p->fold.tight < 0 || wiv[c] < p->fold.tight))
            p->fold.tight = wiv[c];
    p->fold.flight = wk[best];
    p->fold.steps = wst[best];
    p->fold.gate = wg[best];
    p->fold.dataflow = p->seg_cycles;
    p->fold.bound = p->fold.cycles > p->seg_cycles;
    p->interval = hls_max64((int64_t)wiv[best], p->ddr_cycles);
    p->latency = (int64_t)wlat[best];
    free(runs.cap);
    free(runs.sat);
    free(unit);
    free(dur);
    free(wk);
    free(wst);
    free(wg);
    free(wok);
    free(wiv);
    free(wlat);
}

void hls_fold_free(HlsFold *f)
{
    free(f->layers);
    free(f->parts);
    free(f->order);
    free(f->runs);
    memset(f, 0, sizeof *f);
}
