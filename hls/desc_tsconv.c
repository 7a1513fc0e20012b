/*
 * Descriptor of kiln_tsconv, the time-shared conv engine: one kiln_conv run
 * layer after layer from a descriptor table in DDR, its weights streamed
 * once per layer (per weight tile), its maps in DDR.
 *
 * A layer's share of a run (hls_tsconv_layer; cycles() is a frame of one
 * layer): for layer 0 from the start cycle, for the others from the cycle
 * after the one before it ended, to the cycle the next layer starts (for
 * the last layer: the cycle done is seen).  A run takes the sum over its
 * layers.  A frame's later layers are prefetched (kiln_tsconv.v): their
 * descriptor and first weight tiles load while the layer before them runs,
 * so a layer's cycles depend on that layer's timing, which
 * hls_tsconv_layer hands on (HlsTsCarry).  It composes the descriptors of
 * the parts (kiln_axi_rd for the descriptor, kiln_conv for the compute and
 * its weight tiles, hls_conv_frame) with the sequencer's fixed steps; the
 * memory answers after `lat` cycles (kiln_axi_rd/_wr's model).  The
 * Verilator bench (sim/tb/tb_tsconv.c) checks it per layer.
 */
#include "hls/hls.h"
#include "hls/res_util.h"

#include <stddef.h>
#include <string.h>

/* Fixed steps of the sequencer and its channels, cycles (kiln_tsconv.v):
 * TS_CFG   last descriptor beat -> the channels' start pulse taken (S_CFG, S_GO)
 * TS_RD    a kiln_rd_chan start -> its first stream beat, beside the memory's
 *          latency and the data FIFO's (kiln_chan_reps go, kiln_axi_rd's AR
 *          two cycles on, kiln_width)
 * TS_WR    the conv's last output beat -> the layer's end, beside the
 *          write's last B (ts_write_end: kiln_width, then the B; done, the
 *          sequencer's check) */
#define TS_CFG 2
#define TS_RD 4
#define TS_WR 5

#define TS_TAIL_MAX 2048 /* the conv's output beats timed one by one, at most */

#define TS_FF_SEQ 1980.0  /* descriptor registers, sequencer, counters */
#define TS_LUT_SEQ 1667.0 /* sequencer, AXI mux, counters (the clamp: 16 a lane) */
#define TS_LUT_WCH2 152.0 /* WCH 2's second weight master beyond its kiln_axi_rd */
#define TS_FF_WCH2 290.0  /* its FF beyond its kiln_axi_rd */

static const char *const ts_hw[] = {"PE_IC", "PE_OC",  "KMAX",      "WMAX",    "CIMAX",
                                    "COMAX", "WDEPTH", "PIPE",      "RQ_PIPE", "PACK",
                                    "TOGMAX", "WURAM", "DATA_W",    "ADDR_W",  "BURST_MAX",
                                    "MAX_OUT", "CNT_W", "PP", "MAP_STRIDE", "LBURAM", "RQS",
                                    "SPAN", "WBANKS", "DSP2X", "LBROWS", "LBBANK", "RQ_DSP", "WCH",
                                    NULL};
enum { TS_PE_IC, TS_PE_OC, TS_KMAX, TS_WMAX, TS_CIMAX, TS_COMAX, TS_WDEPTH, TS_PIPE,
       TS_RQ_PIPE, TS_PACK, TS_TOGMAX, TS_WURAM, TS_DATA_W, TS_ADDR_W, TS_BURST_MAX,
       TS_MAX_OUT, TS_CNT_W, TS_PP, TS_MAP_STRIDE, TS_LBURAM, TS_RQS, TS_SPAN, TS_WBANKS,
       TS_DSP2X, TS_LBROWS, TS_LBBANK, TS_RQ_DSP, TS_WCH };

/* The weight channel's masters (WCH: 0 counts as 1). */
static int64_t ts_wch(const int64_t *hw) { return hw[TS_WCH] == 2 ? 2 : 1; }
/* layer shape as kiln_conv's rt (tog 0: one tile); lat: the memory's
 * latency; first: 1 for the run's first layer (its start cycle); ybase:
 * the output map's byte address (its 4 KiB offset splits bursts); blat:
 * the write response's latency after a burst's last W beat (0: lat) */
static const char *const ts_rt[] = {"h",   "w",   "cin",   "cout",  "k", "stride",
                                    "pad", "tog", "lat", "first", "ybase", "blat", NULL};
enum { TR_H, TR_W, TR_CIN, TR_COUT, TR_K, TR_STRIDE, TR_PAD, TR_TOG, TR_LAT, TR_FIRST,
       TR_YBASE, TR_BLAT };

/* When the output's bus beats enter kiln_axi_wr's FIFO, relative to the
 * last one (cycle 0): from the conv's last m stream beats (PP > 1: the
 * reorder buffer sends each pixel group's results one a cycle, so they
 * come in bursts a group apart) and before them every rs cycles a stream
 * beat; without them (PP 1: a result every K*K*ICG cycles) a bus beat every
 * r cycles.  A bus beat enters with its last stream beat (lane bytes a
 * stream beat, bus a bus beat). */
typedef struct TsArrive {
    const int64_t *t; /* cycles of the sub-run's last m stream beats, oldest first, or NULL */
    int64_t m;        /* their count */
    int64_t s;        /* stream beats of the sub-run */
    int64_t lane;     /* bytes a stream beat (PE_OC) */
    int64_t bus;      /* bytes a bus beat */
    int64_t rs;       /* cycles between stream beats before the m */
    int64_t r;        /* cycles between bus beats without t */
} TsArrive;

/* Bus beat q of `beats`: its cycle, the conv's last stream beat at 0.  The
 * zero beats kiln_wr_chan adds after the last (to fill the last bus beat)
 * come one a cycle. */
static int64_t ts_arrive(const TsArrive *a, int64_t q, int64_t beats)
{
    int64_t si = hls_cdiv((q + 1) * a->bus, a->lane) - 1, fill, first;
    fill = hls_max64(0, si - (a->s - 1));
    if (!a->t || a->m < 1)
        return -(beats - 1 - q) * a->r + fill;
    si -= fill;
    first = a->s - a->m; /* the stream beat of t[0] */
    if (si >= first)
        return a->t[si - first] - a->t[a->m - 1] + fill;
    return a->t[0] - a->t[a->m - 1] - (first - si) * a->rs;
}

/* The output's write after the conv's last beat: kiln_axi_wr's recurrence
 * (its header) over the bursts of the last sub-run, `beats` bus beats from
 * byte address addr in rows of row_beats beats row_stride bytes apart (0:
 * contiguous; bursts stop at BURST_MAX, 4 KiB and row ends), the bus beats
 * entering its FIFO as `in` says (the conv's last beat at cycle 0).
 * Returns the cycle of the last B. */
static int64_t ts_write_end(int64_t addr, int64_t beats, int64_t bus, int64_t bmax, int64_t mo,
                            int64_t row_beats, int64_t row_stride, const TsArrive *in,
                            int64_t lat)
{
    int64_t ring[64] = {0}; /* b of the last MAX_OUT bursts */
    int64_t rowleft = row_beats > 0 ? row_beats : beats, rowbase = addr, n = beats;
    int64_t p = 0, c = 0, w = 0, b = 0, j = 0;
    if (mo > 64)
        mo = 64;
    while (n > 0) {
        int64_t to4k = (4096 - (addr & 4095)) / bus, len, a, f;
        len = hls_min64(hls_min64(n, bmax), hls_min64(to4k, rowleft));
        p += len;
        a = ts_arrive(in, p - 1, beats); /* its last beat in */
        c = j == 0 ? a + 1 : hls_max64(c + 1, a + 1);
        if (j >= mo)
            c = hls_max64(c, ring[j % mo] + 1);
        f = (j > 0 && c < w) ? w + 1 : c + 2;
        w = f + len - 1;
        b = (j > 0 && b + 1 > w + lat) ? b + 1 : w + lat;
        ring[j % mo] = b;
        n -= len;
        if (len == rowleft) {
            rowbase += row_stride;
            addr = rowbase;
            rowleft = row_beats > 0 ? row_beats : n;
        } else {
            addr += len * bus;
            rowleft -= len;
        }
        j++;
    }
    return b;
}

/* kiln_conv's hw vector for the engine inside (WBANKS 1, the engine's PP
 * (0 counts as 1), SPAN and DSP2X, no bands): with DSP2X its cycles (LAT 2
 * more), its tail and its resources (half the multiplier DSPs, the clk2x
 * lane multiplexers) are kiln_conv's own. */
static const HlsEngineDesc *ts_conv(const int64_t *hw, int64_t *cv)
{
    const HlsEngineDesc *d = hls_engine_find("kiln_conv");
    static const struct {
        const char *name;
        int idx;
    } map[] = {{"PE_IC", TS_PE_IC}, {"PE_OC", TS_PE_OC},     {"KMAX", TS_KMAX},
               {"WMAX", TS_WMAX},   {"CIMAX", TS_CIMAX},     {"COMAX", TS_COMAX},
               {"WDEPTH", TS_WDEPTH}, {"PIPE", TS_PIPE},     {"RQ_PIPE", TS_RQ_PIPE},
               {"PACK", TS_PACK},   {"TOGMAX", TS_TOGMAX},   {"WURAM", TS_WURAM},
               {"PP", TS_PP},       {"LBURAM", TS_LBURAM}, {"RQS", TS_RQS},
               {"SPAN", TS_SPAN},   {"WBANKS", TS_WBANKS}, {"DSP2X", TS_DSP2X},
               {"LBBANK", TS_LBBANK}, {"LBROWS", TS_LBROWS}, {"RQ_DSP", TS_RQ_DSP}};
    int i;
    size_t j;
    if (!d)
        return NULL;
    for (i = 0; d->hw_params[i]; i++) {
        const char *n = d->hw_params[i];
        cv[i] = 0;
        if (!strcmp(n, "PP") || !strcmp(n, "WBANKS") ||
            !strcmp(n, "RQS"))
            cv[i] = 1;
        else if (!strcmp(n, "QLO"))
            cv[i] = -128;
        else if (!strcmp(n, "QHI"))
            cv[i] = 127;
        for (j = 0; j < sizeof map / sizeof map[0]; j++)
            if (!strcmp(n, map[j].name))
                cv[i] = hw[map[j].idx];
    }
    if (cv[hls_param_index(d->hw_params, "PP")] <= 0) /* 0: PP 1 */
        cv[hls_param_index(d->hw_params, "PP")] = 1;
    if (cv[hls_param_index(d->hw_params, "RQS")] <= 0) /* 0: RQS 1 */
        cv[hls_param_index(d->hw_params, "RQS")] = 1;
    if (cv[hls_param_index(d->hw_params, "WBANKS")] != 2) /* 0: one bank */
        cv[hls_param_index(d->hw_params, "WBANKS")] = 1;
    /* two banks: one memory of 2 x WDEPTH words a lane (kiln_tsconv.v) */
    cv[hls_param_index(d->hw_params, "WBMERGE")] = cv[hls_param_index(d->hw_params, "WBANKS")] == 2;
    if (cv[hls_param_index(d->hw_params, "WDEPTH")] <= 0)
        cv[hls_param_index(d->hw_params, "WDEPTH")] =
            hls_cdiv(hw[TS_CIMAX], hw[TS_PE_IC]) * hls_cdiv(hw[TS_COMAX], hw[TS_PE_OC]) *
            hw[TS_KMAX] * hw[TS_KMAX];
    return d;
}

static int64_t ts_latency(const int64_t *hw)
{
    int64_t cv[64];
    const HlsEngineDesc *d = ts_conv(hw, cv);
    return d ? d->latency(cv) : -1;
}

int64_t hls_tsconv_layer(const int64_t *hw, const int64_t *rt, const HlsTsCarry *pre,
                         HlsTsCarry *next)
{
    int64_t cv[64], crt[16], hwrd[5], rtrd[3];
    const HlsEngineDesc *d = ts_conv(hw, cv), *rd = hls_engine_find("kiln_axi_rd");
    int64_t bus = hw[TS_DATA_W] / 8, lat = rt[TR_LAT];
    int64_t blat = rt[TR_BLAT] > 0 ? rt[TR_BLAT] : lat;
    int64_t icg, ocg, tog, kki, w0, pace, wpace, fl, tdesc, tconv, hout, wout, nt, wend, pp, load0;
    int64_t head, e, tw, x, t0n, clat, wait = 0;
    int64_t tail[TS_TAIL_MAX], ntail;
    HlsConvLoads ld;
    TsArrive in;
    int i;
    if (!d || !rd)
        return -1;
    icg = hls_cdiv(rt[TR_CIN], hw[TS_PE_IC]);
    ocg = hls_cdiv(rt[TR_COUT], hw[TS_PE_OC]);
    tog = rt[TR_TOG] <= 0 ? ocg : hls_min64(rt[TR_TOG], ocg);
    kki = rt[TR_K] * rt[TR_K] * icg;
    w0 = tog * hls_conv_group_wbeats(hw[TS_PE_OC], kki);
    pace = hls_cdiv(hw[TS_PE_IC], bus); /* bus beats per stream beat */
    wpace = hls_cdiv(hw[TS_PE_IC] / ts_wch(hw), bus); /* a master's, each its half */
    /* the descriptor: 128 bytes through kiln_axi_rd */
    hwrd[0] = hw[TS_DATA_W];
    hwrd[1] = hw[TS_ADDR_W];
    hwrd[2] = hw[TS_BURST_MAX];
    hwrd[3] = hw[TS_MAX_OUT];
    hwrd[4] = 12;
    rtrd[0] = 0;
    rtrd[1] = 128;
    rtrd[2] = lat;
    tdesc = rd->cycles(hwrd, rtrd);
    fl = rd->latency(hwrd);
    clat = d->latency(cv);
    for (i = 0; d->rt_params[i]; i++)
        crt[i] = 0;
    crt[hls_param_index(d->rt_params, "h")] = rt[TR_H];
    crt[hls_param_index(d->rt_params, "w")] = rt[TR_W];
    crt[hls_param_index(d->rt_params, "cin")] = rt[TR_CIN];
    crt[hls_param_index(d->rt_params, "cout")] = rt[TR_COUT];
    crt[hls_param_index(d->rt_params, "k")] = rt[TR_K];
    crt[hls_param_index(d->rt_params, "stride")] = rt[TR_STRIDE];
    crt[hls_param_index(d->rt_params, "pad")] = rt[TR_PAD];
    crt[hls_param_index(d->rt_params, "tog")] = tog;
    crt[hls_param_index(d->rt_params, "ipace")] = pace;
    crt[hls_param_index(d->rt_params, "wpace")] = wpace;
    /* a frame's first layer: all channels start with the same pulse, tile
     * 0's first weight beat comes with the first input beat; prefetched:
     * tile 0 loads from when its beats come and its bank is free, tile 1
     * once the bank of the layer before it's last pass is */
    load0 = pre ? hls_max64(pre->wstart, pre->wfree0) : 0;
    crt[hls_param_index(d->rt_params, "wlead")] = -(load0 + w0 * wpace);
    ld.wfree1 = pre ? pre->wfree1 : HLS_CONV_NEVER;
    /* the output's last burst: one sub-run, or (tiles) the last tile's
     * pass at its channel offset, tog*PE_OC bytes a pixel in rows */
    hout = (rt[TR_H] + 2 * rt[TR_PAD] - rt[TR_K]) / rt[TR_STRIDE] + 1;
    wout = (rt[TR_W] + 2 * rt[TR_PAD] - rt[TR_K]) / rt[TR_STRIDE] + 1;
    nt = hls_cdiv(ocg, tog);
    pp = hls_max64(1, hw[TS_PP]);
    /* the last sub-run's stream beats (the last tile's groups) and the
     * conv's timing of their tail */
    in.s = hout * wout * (nt == 1 ? ocg : ocg - (nt - 1) * tog);
    in.lane = hw[TS_PE_OC];
    in.bus = bus;
    in.rs = hls_max64(1, kki / pp);
    in.r = hls_max64(1, kki * bus / (hw[TS_PE_OC] * pp));
    ntail = hls_min64(in.s, hls_min64(TS_TAIL_MAX, 8 * hw[TS_BURST_MAX] *
                                                        hls_max64(1, bus / hw[TS_PE_OC])));
    tconv = hls_conv_frame(cv, crt, &ld, ntail, tail, &in.m);
    if (tconv < 0)
        return -1;
    in.t = in.m > 0 ? tail : NULL;
    if (nt == 1)
        wend = ts_write_end(rt[TR_YBASE], hls_cdiv(hout * wout * ocg * hw[TS_PE_OC], bus), bus,
                            hw[TS_BURST_MAX], hw[TS_MAX_OUT], 0, 0, &in, blat);
    else
        wend = ts_write_end(rt[TR_YBASE] + (nt - 1) * tog * hw[TS_PE_OC],
                            hls_cdiv(hout * wout * tog * hw[TS_PE_OC], bus), bus,
                            hw[TS_BURST_MAX], hw[TS_MAX_OUT], tog * hw[TS_PE_OC] / bus,
                            ocg * hw[TS_PE_OC], &in, blat);
    /* to the first input beat: a frame's first layer its fetch, cfg and
     * the channels' start; a prefetched one cfg and the start; a run's
     * first prefetched by the idle engine the start cycle, the cycles to
     * its sequencer's start (S_PW), cfg and the start */
    head = TS_CFG + (TS_RD + lat + fl) +
           (!pre ? rt[TR_FIRST] + tdesc : rt[TR_FIRST] && pre->go > 0 ? pre->go + 1 : 0);
    if (next) {
        /* the cycles from the first input beat: the layer ends (its last B
         * seen) at e; its weights are all in at tw (kiln_conv took the last
         * beat; not before the sequencer runs it), the next descriptor is
         * read from tw + 1 and its weight channel starts tdesc + 1 later;
         * the next layer starts (kiln_conv's sequencer reset) at x, once
         * both are done, its first input beat at t0n */
        e = tconv + TS_WR + wend - 1;
        tw = hls_max64(ld.wend, -(TS_RD + lat + fl));
        x = hls_max64(e, tw + tdesc + 3);
        wait = x - e;
        t0n = x + 1 + TS_CFG + (TS_RD + lat + fl);
        next->wstart = tw + tdesc - x;
        next->go = 0;
        if (cv[hls_param_index(d->hw_params, "WBANKS")] == 2) {
            next->wfree0 = ld.pend_prev == HLS_CONV_NEVER ? HLS_CONV_NEVER
                                                            : ld.pend_prev + clat - t0n;
            next->wfree1 = ld.pend_last + clat - t0n;
        } else {
            next->wfree0 = ld.pend_last + clat - t0n;
            next->wfree1 = HLS_CONV_NEVER;
        }
    }
    return head + tconv + TS_WR + wend + wait;
}

int hls_tsconv_floors(const int64_t *hw, const int64_t *rt, int64_t *mac, int64_t *wport)
{
    int64_t icg, ocg, kki, hout, wout, pp, groups;
    if (hw[TS_PE_IC] < 1 || hw[TS_PE_OC] < 1 || hw[TS_DATA_W] < 8 || rt[TR_STRIDE] < 1 ||
        rt[TR_K] < 1 || rt[TR_H] + 2 * rt[TR_PAD] < rt[TR_K] || rt[TR_W] + 2 * rt[TR_PAD] < rt[TR_K])
        return -1;
    icg = hls_cdiv(rt[TR_CIN], hw[TS_PE_IC]);
    ocg = hls_cdiv(rt[TR_COUT], hw[TS_PE_OC]);
    kki = rt[TR_K] * rt[TR_K] * icg;
    hout = (rt[TR_H] + 2 * rt[TR_PAD] - rt[TR_K]) / rt[TR_STRIDE] + 1;
    wout = (rt[TR_W] + 2 * rt[TR_PAD] - rt[TR_K]) / rt[TR_STRIDE] + 1;
    pp = hls_max64(1, hw[TS_PP]);
    /* SPAN runs groups across row ends, with LBBANK only where Wout = W
     * (kiln_conv's window) */
    if (pp > 1 && hw[TS_SPAN] && !(hw[TS_LBBANK] > 0 && wout != rt[TR_W]))
        groups = hls_cdiv(hout * wout, pp);
    else
        groups = hout * hls_cdiv(wout, pp);
    *mac = groups * kki * ocg;
    *wport = hls_conv_group_wbeats(hw[TS_PE_OC], kki) * ocg *
             hls_cdiv(hw[TS_PE_IC] / ts_wch(hw), hw[TS_DATA_W] / 8);
    return 0;
}

/* The descriptor's read: kiln_axi_rd's cycles for 128 bytes. */
static int64_t ts_tdesc(const int64_t *hw, int64_t lat)
{
    const HlsEngineDesc *rd = hls_engine_find("kiln_axi_rd");
    int64_t hwrd[5] = {hw[TS_DATA_W], hw[TS_ADDR_W], hw[TS_BURST_MAX], hw[TS_MAX_OUT], 12};
    int64_t rtrd[3] = {0, 128, lat};
    return rd ? rd->cycles(hwrd, rtrd) : -1;
}

/* The run-end prefetch (kiln_tsconv.v): HLS_TS_PF_IDLE cycles after the
 * one a run's done is seen (-gap from the next start) the idle engine
 * starts the guessed
 * descriptor's read as a layer's prefetch does once its weights are in
 * (tw): the sequencer of the next run starts (S_PW) once that prefetch's
 * weight channel runs, tdesc + 3 cycles on, and not before the cycle
 * after the start; its weights from tdesc cycles after tw into banks no
 * pass holds. */
int hls_tsconv_idle(const int64_t *hw, int64_t lat, int64_t gap, HlsTsCarry *pre)
{
    int64_t tdesc = ts_tdesc(hw, lat);
    gap -= HLS_TS_PF_IDLE; /* from the prefetch's start */
    if (gap < 1 || tdesc < 0)
        return 0;
    pre->go = hls_max64(1, tdesc + 3 - gap);
    pre->wstart = -gap + tdesc - pre->go;
    pre->wfree0 = HLS_CONV_NEVER;
    pre->wfree1 = HLS_CONV_NEVER;
    return 1;
}

static int64_t ts_cycles(const int64_t *hw, const int64_t *rt)
{
    return hls_tsconv_layer(hw, rt, NULL, NULL);
}

/* kiln_conv + two kiln_rd_chan (kiln_axi_rd + kiln_width) + kiln_wr_chan +
 * the descriptor's kiln_axi_rd + the descriptor register and sequencer + the
 * output clamp. */
static HlsRes ts_resources(const int64_t *hw)
{
    int64_t cv[64], ax[5];
    const HlsEngineDesc *d = ts_conv(hw, cv), *rd = hls_engine_find("kiln_axi_rd"),
                        *wr = hls_engine_find("kiln_axi_wr");
    HlsRes r = {0, 0, 0, 0, 0}, p;
    int i;
    if (!d || !rd || !wr)
        return r;
    r = d->resources(cv);
    ax[0] = hw[TS_DATA_W];
    ax[1] = hw[TS_ADDR_W];
    ax[2] = hw[TS_BURST_MAX];
    ax[3] = hw[TS_MAX_OUT];
    ax[4] = hw[TS_CNT_W];
    for (i = 0; i < 4; i++) {
        ax[4] = i == 3 ? 12 : hw[TS_CNT_W];
        p = i == 2 ? wr->resources(ax) : rd->resources(ax);
        r.lut += p.lut + (i == 3 ? 0.0 : 200.0); /* kiln_chan_reps + kiln_width */
        r.ff += p.ff + (i == 3 ? 0.0 : 96.0 + 4.0 * (double)hw[TS_CNT_W]);
        r.bram36 += p.bram36;
    }
    /* the descriptor shift register (its 1024 bits pass every beat down)
     * and its copy the running layer reads, the sequencer, the weight beat
     * counter, the layer's clamp: fitted on one yosys point (synth_xilinx
     * -family xcup, PE 8x8, KMAX 3, WMAX 16, CIMAX = COMAX = 32, DATA_W
     * 128, BURST_MAX 16, MAX_OUT 4, CNT_W 24: 9972 LUT with LUTRAM, 6171
     * FF, 80 DSP48E2, 15 RAMB36E2; without the prefetch 9766 and 5839;
     * today's RTL 10334 LUT, 6292 FF at WCH 1, 10980 and 6892 and 17
     * RAMB36E2 at WCH 2) */
    r.ff += TS_FF_SEQ;
    r.lut += TS_LUT_SEQ + 16.0 * (double)hw[TS_PE_OC];
    /* the run-end prefetch: its descriptor address, the table's base and
     * length, the bursts in flight (FF); the next address, the table's end
     * and the start's compare (LUT, a carry chain or compare a bit each) */
    r.ff += 2.0 * (double)hw[TS_ADDR_W] + 28.0;
    r.lut += 3.0 * (double)hw[TS_ADDR_W];
    if (ts_wch(hw) == 2) {
        /* the weights' second master: kiln_axi_rd (its FIFO as the others')
         * and beside it kiln_chan_reps, kiln_width of PE_IC/2 lanes, the
         * second base's adder, the bursts in flight and the two halves'
         * handshake: fitted on the yosys point above (WCH 2 against WCH 1:
         * +646 LUT, +600 FF, +2 RAMB36E2) */
        ax[4] = hw[TS_CNT_W];
        p = rd->resources(ax);
        r.lut += p.lut + TS_LUT_WCH2;
        r.ff += p.ff + TS_FF_WCH2;
        r.bram36 += p.bram36;
    }
    if (hw[TS_MAP_STRIDE] != 0) { /* the frame's map offset and its two adders */
        r.ff += (double)hw[TS_ADDR_W];
        r.lut += 3.0 * (double)hw[TS_ADDR_W];
    }
    return r;
}

/* Round n up to a multiple of m (m > 0). */
static int64_t ts_pad(int64_t n, int64_t m) { return hls_cdiv(n, m) * m; }

int hls_tsconv_desc(const HlsTsLayer *l, int64_t pe, int64_t bus, uint32_t d[32], HlsTsBytes *b)
{
    int64_t icg, ocg, tog, nt, hout, wout, kki, xbytes, ybytes, wbeats, wbytes, v[12];
    int64_t wch = l->wch == 2 ? 2 : 1;
    int i;
    if (pe <= 0 || bus <= 0 || (pe % bus && bus % pe) || pe % wch ||
        ((pe / wch) % bus && bus % (pe / wch)) || l->k < 1 || l->k > 15 ||
        (l->stride != 1 && l->stride != 2) || l->pad < 0 || l->pad >= l->k || l->h < 1 ||
        l->w < 1 || l->cin < 1 || l->cout < 1 || l->h + 2 * l->pad < l->k ||
        l->w + 2 * l->pad < l->k || l->qlo < -128 || l->qhi > 127 || l->qlo > l->qhi)
        return -1;
    icg = hls_cdiv(l->cin, pe);
    ocg = hls_cdiv(l->cout, pe);
    tog = l->tog <= 0 || l->tog > ocg ? ocg : l->tog;
    nt = hls_cdiv(ocg, tog);
    hout = (l->h + 2 * l->pad - l->k) / l->stride + 1;
    wout = (l->w + 2 * l->pad - l->k) / l->stride + 1;
    kki = l->k * l->k * icg;
    xbytes = ts_pad(l->h * l->w * icg * pe, bus);
    ybytes = ts_pad(hout * wout * ocg * pe, bus);
    wbeats = hls_conv_group_wbeats(pe, kki) * ocg;
    /* WCH 2: two halves of whole bus beats (hls_tsconv_wsplit) */
    wbytes = wch * ts_pad(wbeats * (pe / wch), bus);
    /* tile-major passes go to their channel offset: whole bus beats a pixel */
    if (nt > 1 && (ocg != nt * tog || (tog * pe) % bus))
        return -1;
    /* the 16-bit fields and the 32-bit counts */
    v[0] = l->h, v[1] = l->w, v[2] = icg, v[3] = ocg, v[4] = tog;
    for (i = 0; i < 5; i++)
        if (v[i] > 0xffff)
            return -1;
    v[0] = xbytes, v[1] = l->h * l->w * icg, v[2] = wbytes, v[3] = wbeats, v[4] = ybytes;
    v[5] = hout * wout * ocg;
    for (i = 0; i < 6; i++)
        if (v[i] > 0xffffffffll)
            return -1;
    memset(d, 0, 32 * sizeof d[0]);
    d[0] = (uint32_t)l->h | (uint32_t)l->w << 16;
    d[1] = (uint32_t)icg | (uint32_t)ocg << 16;
    d[2] = (uint32_t)tog | (uint32_t)l->k << 16 | (uint32_t)l->stride << 20 |
           (uint32_t)l->pad << 24;
    d[3] = (uint32_t)(uint8_t)l->qlo | (uint32_t)(uint8_t)l->qhi << 8;
    d[4] = (uint32_t)l->xa, d[5] = (uint32_t)(l->xa >> 32);
    d[6] = (uint32_t)l->wa, d[7] = (uint32_t)(l->wa >> 32);
    d[8] = (uint32_t)l->ya, d[9] = (uint32_t)(l->ya >> 32);
    d[10] = (uint32_t)xbytes;
    d[11] = (uint32_t)(l->h * l->w * icg);
    d[12] = (uint32_t)nt;
    d[13] = (uint32_t)wbytes;
    d[14] = (uint32_t)wbeats;
    if (nt == 1) {
        d[15] = (uint32_t)ybytes;
        d[16] = (uint32_t)(hout * wout * ocg);
        d[17] = 1;
    } else {
        /* each pass's tog*PE bytes a pixel at its channel offset, in rows */
        d[15] = (uint32_t)(hout * wout * tog * pe);
        d[16] = (uint32_t)(hout * wout * tog);
        d[17] = (uint32_t)nt;
        d[18] = (uint32_t)(tog * pe);
        d[19] = (uint32_t)(tog * pe / bus);
        d[20] = (uint32_t)(ocg * pe);
    }
    d[21] = (uint32_t)(hls_conv_group_wbeats(pe, kki) * tog);
    if (b) {
        b->xbytes = xbytes;
        b->wbytes = wbytes;
        b->ybytes = ybytes;
    }
    return 0;
}

int hls_tsconv_wsplit(const uint8_t *stream, int64_t wbeats, int64_t pe, int wch, uint8_t *out,
                      int64_t wbytes)
{
    int64_t half = pe / (wch == 2 ? 2 : 1), hb = wch == 2 ? wbytes / 2 : wbytes, k;
    if ((wch == 2 && (pe % 2 || wbytes % 2)) || hb < wbeats * half)
        return -1;
    memset(out, 0, (size_t)wbytes);
    if (wch != 2) {
        memcpy(out, stream, (size_t)(wbeats * pe));
        return 0;
    }
    for (k = 0; k < wbeats; k++) {
        memcpy(out + k * half, stream + k * pe, (size_t)half);
        memcpy(out + hb + k * half, stream + k * pe + half, (size_t)half);
    }
    return 0;
}

static const HlsEngineDesc tsconv_desc = {
    "kiln_tsconv",
    "time-shared KxK conv: one kiln_conv runs a table of layers, weights and maps via DDR",
    ts_hw,
    ts_rt,
    ts_latency,
    ts_cycles,
    ts_resources,
};

const HlsEngineDesc *const hls_tsconv_descs[] = {&tsconv_desc, NULL};
