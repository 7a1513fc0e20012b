/*
 * infra.c: resources of a plan's design beyond its engines and skip FIFOs,
 * the parts pipeline/ instantiates around them: one DMA channel
 * per segment input, weight set and segment output (kiln_rd_chan,
 * kiln_wr_chan), a kiln_fork per fan-out, a kiln_width per edge between
 * different lane counts, the kiln_rq_stage wrapper of a standalone
 * requantize, kiln_regfile and the per-stage PERF counters with the run
 * control.  Needs the stages' parallelism, segments and inputs; reads
 * nothing the evaluation computes, so it can run before weight placement.
 * The channels are hls_plan_channels' (hls/chan.c), the list pipeline/
 * instantiates; the constants are hls/hw.h's.
 */
#include "hls/chan.h"
#include "hls/hw.h"
#include "hls/plan_int.h"
#include "hls/res_util.h"

#include <string.h>

/* kiln_rd_chan / kiln_wr_chan beyond their AXI master, as the top
 * instantiates them (cfg_bytes, cfg_stride, cfg_beats, cfg_subs and the row
 * registers constant; base and frame count from the register file): the
 * repetition and sub-run counters, the next base address, the frame gate.
 * Fitted with bench/synth/inst_synth.py on the 42 channels of YOLOv3-tiny
 * 416 on Ultra96-V2, each at CNT_W 32 and at its own (12..20): readers
 * (28 x 2) LUT within -21..+19% per channel, FF -5..+7%; writers (14 x 2)
 * LUT -7..+9%, FF exact; the sums exact.  Per bit of CNT_W the channel
 * measures 4 FF (readers) or 5 (writers): the master's beat counters (2 or
 * 3, its descriptor) and the sub-run and stream-beat counters here (2); the
 * LUTs per bit (3.5, 3.4) split the same way. */
#define CHAN_RD_FF 222.0
#define CHAN_WR_FF 206.0
#define CHAN_TILED_FF 40.0
#define CHAN_RD_LUT 123.0
#define CHAN_WR_LUT 118.0
#define CHAN_TILED_LUT 136.0 /* a writer's 2-D rows and sub-runs */
#define CHAN_FF_BIT 2.0      /* per bit of CNT_W below 32 */
#define CHAN_RD_LUT_BIT 1.76
#define CHAN_WR_LUT_BIT 1.36
/* One stage's PERF counter (beat count, first-frame flag, two cycle stamps):
 * yosys 97 FF, 40 LUT. */
#define PERF_FF 97.0
#define PERF_LUT 40.0
/* Run control of the top: run, run_seg, the cycle counter and SEGMENT decode. */
#define RUN_FF 65.0
#define RUN_LUT 80.0
/* a folded top's per-segment run control (pipeline/top.c): its 32-bit
 * cycle counter (PERF) and run flag, the counter's incrementer (a LUT a
 * bit on the carry chain) */
#define SEG_RUN_FF 33.0
#define SEG_RUN_LUT 32.0

/* Add the descriptor resources of engine `name` with hw parameters
 * names[i] = vals[i] (n of them; the rest 1) to r.  A missing engine or
 * parameter adds nothing for it (the registry is fixed at build time). */
static void add_engine(HlsPlan *p, HlsRes *r, const char *name, const char *const *names,
                       const int64_t *vals, int n)
{
    const HlsEngineDesc *d = hls_engine_find(name);
    int64_t hw[HLS_PLAN_MAX_PARAMS];
    HlsRes a;
    int i, k = 0;
    if (!d)
        return;
    for (i = 0; i < HLS_PLAN_MAX_PARAMS; i++)
        hw[i] = 1;
    for (i = 0; i < n; i++) {
        k = hls_param_index_from(d->hw_params, names[i], k);
        if (k >= 0 && k < HLS_PLAN_MAX_PARAMS)
            hw[k] = vals[i];
        k = k >= 0 ? k + 1 : 0;
    }
    a = hls_engine_res(p, d, hw);
    hls_res_add(r, &a);
}

static void add_width(HlsPlan *p, HlsRes *r, int64_t li, int64_t lo)
{
    static const char *const n[] = {"LI", "LO"};
    int64_t v[2];
    if (li == lo)
        return;
    v[0] = li, v[1] = lo;
    add_engine(p, r, "kiln_width", n, v, 2);
}

/* DMA channel c, its counters c->cnt_w bits wide as generated: a
 * kiln_wr_chan (out) or kiln_rd_chan (in, w) around its AXI master, with a
 * lane converter where the stream is not the bus. */
static void add_chan(HlsPlan *p, HlsRes *r, const HlsChan *c)
{
    int64_t cw = c->cnt_w;
    static const char *const n[] = {"DATA_W", "ADDR_W", "BURST_MAX", "MAX_OUT", "CNT_W"};
    int write = c->kind == HLS_CH_OUT;
    int64_t dw = c->data_w;
    int64_t v[5];
    v[0] = dw, v[1] = HLS_HW_ADDR_W, v[2] = c->burst, v[3] = HLS_HW_MAX_OUT, v[4] = cw;
    add_engine(p, r, write ? "kiln_axi_wr" : "kiln_axi_rd", n, v, 5);
    if (write)
        add_width(p, r, c->lanes, dw / 8);
    else
        add_width(p, r, dw / 8, c->lanes);
    r->ff += (write ? CHAN_WR_FF + (c->tiled ? CHAN_TILED_FF : 0.0) : CHAN_RD_FF) +
             CHAN_FF_BIT * (double)(cw - 32);
    r->lut += write ? CHAN_WR_LUT + (c->tiled ? CHAN_TILED_LUT : 0.0) +
                          CHAN_WR_LUT_BIT * (double)(cw - 32)
                    : CHAN_RD_LUT + CHAN_RD_LUT_BIT * (double)(cw - 32);
}

void hls_plan_infra(HlsPlan *p, HlsRes *r)
{
    HlsChans c;
    int i, j, k;
    memset(r, 0, sizeof *r);
    hls_plan_channels(p, &c);
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        int ns = c.outch[i] >= 0;
        for (k = 0; k < s->nin; k++)
            if (c.inch[2 * i + k] >= 0)
                add_chan(p, r, &c.ch[c.inch[2 * i + k]]);
        if (c.wch[i] >= 0)
            add_chan(p, r, &c.ch[c.wch[i]]);
        if (c.outch[i] >= 0)
            add_chan(p, r, &c.ch[c.outch[i]]);
        /* consumers in the segment: a lane converter where the counts differ */
        for (j = i + 1; j < p->nstage; j++) {
            const HlsStage *t = &p->stages[j];
            if (t->segment != s->segment)
                continue;
            for (k = 0; k < t->nin; k++)
                if (t->in[k] == i && !hls_edge_ddr(p, j, k)) {
                    ns++;
                    add_width(p, r, hls_out_lanes(s), hls_in_lanes(t));
                }
        }
        if (ns > 1) { /* kiln_fork: a taken flag per consumer */
            r->ff += (double)ns;
            r->lut += 2.0 * (double)ns;
        }
        if (s->kind == HLS_ST_REQUANT) {
            /* kiln_rq_stage: (PIPE + 2)-entry output FIFO and in-flight count */
            static const char *const n[] = {"WIDTH", "DEPTH", "BRAM_MIN"};
            int64_t v[3];
            v[0] = 8 * s->lanes, v[1] = s->rq_pipe + 2, v[2] = HLS_HW_RQ_BRAM_MIN;
            add_engine(p, r, "kiln_fifo", n, v, 3);
            r->ff += 10.0;
            r->lut += 10.0;
        }
        r->ff += PERF_FF;
        r->lut += PERF_LUT;
    }
    {
        static const char *const n[] = {"N_CFG", "PLAN_HASH", "ADDR_W", "N_PERF", "PERF_BASE",
                                        "UNITS"};
        int64_t v[6];
        v[0] = c.ncfg, v[1] = 0, v[2] = c.rf_addr_w, v[3] = p->nstage, v[4] = c.rf_perf;
        /* a folded top: a run unit per dataflow segment and the engine's */
        v[5] = p->fold.n > 0 ? p->nsegment + 1 : 1;
        add_engine(p, r, "kiln_regfile", n, v, 6);
    }
    r->ff += RUN_FF;
    r->lut += RUN_LUT;
    if (p->fold.n > 0) { /* each dataflow segment's cycle counter and run flag */
        r->ff += SEG_RUN_FF * (double)p->nsegment;
        r->lut += SEG_RUN_LUT * (double)p->nsegment;
    }
    hls_chans_free(&c);
}
