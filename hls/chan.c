/*
 * chan.c: the DMA channels of a plan's design (hls/chan.h), the one list
 * the planner's costing (hls/infra.c) and the generator (pipeline/) share.
 */
#include "hls/chan.h"

#include <stdio.h>
#include <stdlib.h>

#include "hls/hw.h"
#include "hls/res_util.h"

static int64_t round_up(int64_t a, int64_t b)
{
    return hls_cdiv(a, b) * b;
}

int hls_leaves_segment(const HlsPlan *p, int i)
{
    int j, k, seg = p->stages[i].segment;
    if (p->stages[i].out_ddr)
        return 1;
    for (j = 0; j < p->nstage; j++)
        for (k = 0; k < p->stages[j].nin; k++)
            if (p->stages[j].in[k] == i && p->stages[j].segment != seg)
                return 1;
    return 0;
}

/* Is input k of stage i read from DDR outside its segment (graph input,
 * CPU node or another segment)? */
static int reads_ddr(const HlsPlan *p, int i, int k)
{
    int from = p->stages[i].in[k];
    return from < 0 || p->stages[from].segment != p->stages[i].segment;
}

int hls_edge_ddr(const HlsPlan *p, int i, int k)
{
    const HlsStage *t = &p->stages[i];
    int u = t->in[k], j;
    if (reads_ddr(p, i, k))
        return 0;
    if (hls_tiled(t) || hls_tiled(&p->stages[u]))
        return 1;
    for (j = 0; j < p->nfifo; j++)
        if (p->fifos[j].ddr && p->fifos[j].from == u && p->fifos[j].to == i)
            return 1;
    return 0;
}

int hls_edge_ddr_pad(const HlsPlan *p, int i, int k, int64_t *c, int64_t *lp, int64_t *lc)
{
    const HlsStage *s = &p->stages[i];
    *c = k == 1 && s->kind == HLS_ST_CONCAT ? s->cin2 : s->cin;
    *lp = hls_out_lanes(&p->stages[s->in[k]]);
    *lc = hls_in_lanes(s);
    return hls_cdiv(*c, *lp) * *lp == hls_cdiv(*c, *lc) * *lc;
}

/* Does some stage of i's segment read i's output through DDR? */
static int has_ddr_consumer(const HlsPlan *p, int i)
{
    int j, k;
    for (j = i + 1; j < p->nstage; j++)
        for (k = 0; k < p->stages[j].nin; k++)
            if (p->stages[j].in[k] == i && hls_edge_ddr(p, j, k))
                return 1;
    return 0;
}

int64_t hls_dw_word_beats(int64_t lanes)
{
    return lanes >= 4 ? 1 : hls_cdiv(4, lanes);
}

int64_t hls_weight_beats(const HlsStage *s)
{
    int64_t ocg, icg;
    if (s->kind == HLS_ST_DWCONV)
        return hls_cdiv(s->cin, s->lanes) *
               (3 * hls_dw_word_beats(s->lanes) * s->lanes + s->k * s->k);
    ocg = hls_cdiv(s->cout, s->pe_oc), icg = hls_cdiv(s->cin, s->pe_ic);
    return ocg * hls_conv_group_wbeats(s->pe_oc, s->k * s->k * icg);
}

/* A new channel of kind k for stage i at the end of c's list. */
static HlsChan *add(HlsChans *c, HlsChanKind k, int i)
{
    HlsChan *ch = &c->ch[c->nch++];
    ch->kind = k;
    ch->stage = i;
    ch->subs = 1;
    ch->src = ch->prod = -1;
    return ch;
}

/* The channels of segment seg: its stages' inputs from DDR (outside the
 * segment or through DDR inside it), weight sets, outputs to DDR. */
static void seg_channels(const HlsPlan *p, int seg, HlsChans *c)
{
    int i, k;
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        for (k = 0; s->segment == seg && k < s->nin; k++) {
            HlsChan *ch;
            if (!reads_ddr(p, i, k) && !hls_edge_ddr(p, i, k))
                continue;
            c->inch[2 * i + k] = c->nch;
            ch = add(c, HLS_CH_IN, i);
            snprintf(ch->name, sizeof ch->name, "in%d", c->nin++);
            ch->port = k;
            ch->prod = reads_ddr(p, i, k) ? -1 : s->in[k];
            ch->lanes = hls_in_lanes(s);
            ch->h = s->h, ch->w = s->w;
            ch->c = k == 1 && s->kind == HLS_ST_CONCAT ? s->cin2 : s->cin;
            ch->subs = s->npass > 1 ? s->npass : 1;
        }
    }
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        HlsChan *ch;
        if (s->segment != seg || (s->kind != HLS_ST_CONV && s->kind != HLS_ST_DWCONV))
            continue;
        c->wch[i] = c->nch;
        ch = add(c, HLS_CH_W, i);
        snprintf(ch->name, sizeof ch->name, "w%d", i);
        ch->lanes = hls_in_lanes(s);
        ch->beats = hls_weight_beats(s);
        ch->resident = s->whome != HLS_W_DDR;
        ch->subs = hls_nbands(s); /* in bands: the set again for every band */
    }
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        int leaves;
        HlsChan *ch;
        if (s->segment != seg)
            continue;
        leaves = hls_leaves_segment(p, i);
        if (!leaves && !has_ddr_consumer(p, i))
            continue;
        c->outch[i] = c->nch;
        ch = add(c, HLS_CH_OUT, i);
        snprintf(ch->name, sizeof ch->name, "out%d", c->nout++);
        ch->scratch = !leaves;
        ch->tiled = hls_tiled(s);
        ch->lanes = hls_out_lanes(s);
        ch->h = s->oh, ch->w = s->ow, ch->c = s->cout;
        ch->subs = s->npass > 1 ? s->npass : 1;
    }
}

int64_t hls_fold_woffset(const HlsPlan *p, int i)
{
    const HlsFold *f = &p->fold;
    const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
    int64_t off = round_up(128 * (int64_t)f->n, HLS_HW_W_ALIGN), bus;
    int k;
    if (!d)
        return -1;
    bus = f->hw[hls_param_index(d->hw_params, "DATA_W")] / 8;
    for (k = 0; k < i && k < f->n; k++) {
        const HlsFoldLayer *l = &f->layers[k];
        HlsTsLayer t = {l->h, l->w, l->cin, l->cout, l->k, l->stride, l->pad, l->tog,
                        l->qlo, l->qhi, 0, 0, 0,
                        (int)f->hw[hls_param_index(d->hw_params, "WCH")]};
        uint32_t w[32];
        HlsTsBytes b;
        if (hls_tsconv_desc(&t, f->pe, bus, w, &b) < 0)
            return -1;
        off += round_up(b.wbytes, HLS_HW_W_ALIGN);
    }
    return off;
}

/* The shared engine's three masters at the end of c's list (segment
 * nsegment, its first part: a start with SEGMENT = nsegment + j runs part
 * j), its table and weights at the end of weights.bin; with WCH 2 a fourth,
 * ts3, the weights' second half (reading ts0's buffer). */
static void ts_channels(const HlsPlan *p, HlsChans *c)
{
    static const HlsChanKind kind[4] = {HLS_CH_W, HLS_CH_IN, HLS_CH_OUT, HLS_CH_W};
    const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
    int k, n;
    if (!d)
        gir_die("hls: engine kiln_tsconv is not built (a plan folds layers onto it)");
    n = p->fold.hw[hls_param_index(d->hw_params, "WCH")] == 2 ? 4 : 3;
    c->ts = c->nch;
    for (k = 0; k < n; k++) {
        HlsChan *ch = &c->ch[c->nch++];
        ch->kind = kind[k];
        ch->stage = -1;
        ch->subs = 1;
        ch->src = ch->prod = -1;
        ch->ts = 1;
        snprintf(ch->name, sizeof ch->name, "ts%d", k);
        ch->seg = p->nsegment;
        ch->lanes = p->fold.pe;
        /* the engine's own AXI parameters */
        ch->data_w = (int)p->fold.hw[hls_param_index(d->hw_params, "DATA_W")];
        ch->burst = (int)p->fold.hw[hls_param_index(d->hw_params, "BURST_MAX")];
        ch->cnt_w = (int)p->fold.hw[hls_param_index(d->hw_params, "CNT_W")];
    }
    c->ch[c->ts].offset = c->wbytes;
    c->ch[c->ts].bytes = hls_fold_woffset(p, p->fold.n);
    c->wbytes += round_up(c->ch[c->ts].bytes, HLS_HW_W_ALIGN);
    c->ch[c->ts].cfg = c->ncfg;
    for (k = 1; k < n; k++)
        c->ch[c->ts + k].cfg = c->ncfg;
    c->ncfg += 2;
    c->nsel += p->fold.npart;
}

/* Sizes of map channel ch: the frame, and the run of a sub-run. */
static void size_map(const HlsPlan *p, HlsChan *ch)
{
    const HlsStage *s = &p->stages[ch->stage];
    int64_t npix = ch->h * ch->w, tile = s->tog * s->pe_oc;
    /* whole beats of the widest bus, so a writer and the readers of its
     * buffer (other lanes, other buses) agree on the frame-to-frame stride */
    ch->frame = round_up(npix * hls_cdiv(ch->c, ch->lanes) * ch->lanes, HLS_HW_FRAME_ALIGN);
    if (ch->tiled) {
        /* each pass writes its tile's channels of every pixel, in rows of
         * bus beats no wider than a tile */
        while (tile % (ch->data_w / 8) != 0)
            ch->data_w /= 2;
        ch->beats = npix * tile / ch->lanes;
        ch->bytes = npix * tile;
        ch->sub_stride = tile;
        ch->row_beats = tile / (ch->data_w / 8);
        ch->row_stride = ch->frame / npix;
    } else {
        ch->beats = npix * hls_cdiv(ch->c, ch->lanes);
        ch->bytes = ch->frame;
    }
}

/* Burst beats of channel ch: maps stream at one beat a cycle in long
 * bursts, weight sets are small or read once; maps read back inside a
 * segment and tiled outputs take bursts short enough for a LUTRAM FIFO. */
static int chan_burst(const HlsChan *ch)
{
    if (ch->kind == HLS_CH_W)
        return HLS_HW_BURST_W;
    if (ch->src >= 0)
        return HLS_HW_BURST_EDGE_RD;
    if (ch->kind == HLS_CH_OUT && (ch->scratch || ch->tiled))
        return HLS_HW_BURST_EDGE_WR;
    return HLS_HW_BURST_MAP;
}

/* The register map's size from the CFG block and the stages (hls/hw.h):
 * PERF at HLS_HW_RF_PERF while the CFG block ends there, else at the first
 * multiple of it past the block; the address bits to its last word. */
static void rf_layout(HlsChans *c, int nstage)
{
    int64_t end = HLS_HW_RF_CFG + 4 * (int64_t)c->ncfg, last;
    c->rf_perf = (int)(HLS_HW_RF_PERF * hls_max64(1, hls_cdiv(end, HLS_HW_RF_PERF)));
    last = c->rf_perf + 8 * (int64_t)nstage;
    c->rf_addr_w = HLS_HW_RF_ADDR_W;
    while (((int64_t)1 << c->rf_addr_w) < last)
        c->rf_addr_w++;
}

void hls_plan_channels(const HlsPlan *p, HlsChans *c)
{
    int i, seg, n = p->nstage;
    c->ch = calloc((size_t)(4 * n + 4), sizeof *c->ch);
    c->outch = malloc(sizeof *c->outch * (size_t)(n + 1));
    c->inch = malloc(sizeof *c->inch * 2 * (size_t)(n + 1));
    c->wch = malloc(sizeof *c->wch * (size_t)(n + 1));
    if (!c->ch || !c->outch || !c->inch || !c->wch)
        gir_die("out of memory");
    c->nch = c->nin = c->nout = 0;
    c->ncfg = HLS_HW_CFG_FIXED;
    c->wbytes = 0;
    c->ts = -1;
    c->nsel = p->nsegment;
    for (i = 0; i < n; i++)
        c->outch[i] = c->wch[i] = c->inch[2 * i] = c->inch[2 * i + 1] = -1;
    for (seg = 0; seg < p->nsegment; seg++)
        seg_channels(p, seg, c);
    for (i = 0; i < c->nch; i++) {
        HlsChan *ch = &c->ch[i];
        ch->seg = p->stages[ch->stage].segment;
        ch->data_w = hls_chan_data_w(ch->lanes);
        if (ch->kind == HLS_CH_IN && ch->prod >= 0)
            ch->src = c->outch[ch->prod];
        if (ch->kind == HLS_CH_W) {
            ch->bytes = round_up(ch->beats * ch->lanes, ch->data_w / 8);
            ch->offset = c->wbytes;
            c->wbytes += round_up(ch->bytes, HLS_HW_W_ALIGN);
        } else {
            size_map(p, ch);
        }
        ch->burst = chan_burst(ch);
        ch->cnt_w = hls_chan_cnt_w(ch->kind == HLS_CH_OUT, ch->bytes, ch->subs, ch->data_w,
                                   ch->lanes);
        if (ch->src < 0) {
            ch->cfg = c->ncfg;
            c->ncfg += 2;
        }
    }
    for (i = 0; i < c->nch; i++)
        if (c->ch[i].src >= 0)
            c->ch[i].cfg = c->ch[c->ch[i].src].cfg;
    if (p->fold.n > 0)
        ts_channels(p, c);
    rf_layout(c, p->nstage);
}

void hls_chans_free(HlsChans *c)
{
    free(c->ch);
    free(c->outch);
    free(c->inch);
    free(c->wch);
    c->ch = NULL;
    c->outch = c->inch = c->wch = NULL;
    c->nch = 0;
}
