/*
 * report.md and dataflow.dot of a plan.  Every figure is a prediction of
 * the cycle and resource models (hls/plan.h), not a measurement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/plan_int.h"
#include "hls/res_util.h"

static double pct(double used, double avail)
{
    return avail > 0 ? 100.0 * used / avail : 0.0;
}

static void par_str(const HlsStage *s, char *buf, size_t n)
{
    if (s->kind == HLS_ST_CONV)
        snprintf(buf, n, "%dx%dx%d%s%s", s->pe_oc, s->pe_ic, s->pp, s->pack == 2 ? " p2" : "",
                 s->dsp2x == 2 ? " 2xp" : s->dsp2x ? " 2x" : "");
    else
        snprintf(buf, n, "%d lanes", s->lanes);
}

/* Where the DSP cycles of an interval go, per engine and summed
 * (hls_dsp_use): the DSP efficiency and each loss as a share of the plan's
 * capacity (every DSP x 2 MACs x the DSP clock x the interval). */
static void dsp_use_table(const HlsPlan *p, FILE *f)
{
    HlsDspUse *u = calloc((size_t)p->nstage + 2, sizeof *u), t;
    double k = 2.0 * (p->clk2x ? 2.0 : 1.0), cap;
    int i, n;
    if (!u)
        gir_die("out of memory");
    n = hls_dsp_use(p, u);
    cap = p->total.dsp * k * (double)p->interval;
    memset(&t, 0, sizeof t);
    fprintf(f, "## DSP use\n\nWhere the DSP cycles of an interval of %lld cycles go: every DSP48E2 "
               "counts 2 MACs a %s cycle.  mult: the multipliers of the MAC array; busy: "
               "cycles a frame the array works; eff: the engine's MACs over its DSPs' "
               "capacity.  The losses are shares of the whole plan's capacity: idle (the "
               "array waiting for the interval), in busy (lanes past the channel counts, "
               "map edges, fill), packing (multipliers doing fewer than 2 MACs a DSP "
               "cycle), requant and other (requant lanes, Add, bank offsets, DMA).\n\n"
               "| engine | DSP | mult | MACs/cycle | busy | busy %% | eff | idle | in busy | "
               "packing | requant and other |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
            (long long)p->interval, p->clk2x ? "DSP-clock (twice the fabric clock)" : "fabric");
    for (i = 0; i < n; i++) {
        const HlsDspUse *r = &u[i];
        double c = r->dsp * k * (double)p->interval;
        fprintf(f, "| %s | %.0f | %.0f | %lld | %lld | %.1f%% | %.1f%% | %.2f%% | %.2f%% | "
                   "%.2f%% | %.2f%% |\n",
                r->node, r->dsp, r->mult, (long long)r->peak, (long long)r->busy,
                pct((double)r->busy, (double)p->interval), pct(r->macs, c), pct(r->idle, cap),
                pct(r->inbusy, cap), pct(r->pack, cap), pct(r->other, cap));
        t.dsp += r->dsp;
        t.mult += r->mult;
        t.macs += r->macs;
        t.idle += r->idle;
        t.inbusy += r->inbusy;
        t.pack += r->pack;
        t.other += r->other;
    }
    fprintf(f, "| **total** | %.0f | %.0f | | | | **%.1f%%** | %.2f%% | %.2f%% | %.2f%% | "
               "%.2f%% |\n\n",
            t.dsp, t.mult, pct(t.macs, cap), pct(t.idle, cap), pct(t.inbusy, cap),
            pct(t.pack, cap), pct(t.other, cap));
    free(u);
}

/* The shared engine's weight channel where it binds layers: their weight
 * cycles against their MAC cycles, and the bytes a cycle the channel would
 * need for their MACs to bind instead (weight bytes over MAC cycles: the
 * layers together and the most of one). */
static void fold_weight_note(FILE *f, const HlsPlan *p)
{
    const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
    int k = d ? hls_param_index(d->hw_params, "DATA_W") : -1, i, n = 0, worst = -1;
    int w = d ? hls_param_index(d->hw_params, "WCH") : -1;
    /* WCH 2: both masters' bytes */
    int64_t bus = k >= 0 ? p->fold.hw[k] / 8 * (w >= 0 && p->fold.hw[w] == 2 ? 2 : 1) : 0;
    int64_t wc = 0, mc = 0;
    double need = 0.0;
    if (bus <= 0)
        return;
    for (i = 0; i < p->fold.n; i++) {
        const HlsFoldLayer *l = &p->fold.layers[i];
        double b;
        if (l->wport_cycles <= l->mac_cycles || l->mac_cycles <= 0)
            continue;
        n++;
        wc += l->wport_cycles;
        mc += l->mac_cycles;
        b = (double)(l->wport_cycles * bus) / (double)l->mac_cycles;
        if (worst < 0 || b > need)
            need = b, worst = i;
    }
    if (n == 0) {
        fprintf(f, "\nIts weight channel (%lld bytes a cycle) binds none of its layers.\n",
                (long long)bus);
        return;
    }
    fprintf(f, "\nIts weight channel (%lld bytes a cycle) binds %d of its %d layers: their "
               "weight beats take %lld cycles of the engine's %lld a frame, their MACs %lld.  "
               "For their MACs to bind it would need %.1f bytes a cycle (%s: %.1f).\n",
            (long long)bus, n, p->fold.n, (long long)wc, (long long)p->fold.cycles,
            (long long)mc, (double)(wc * bus) / (double)mc, p->fold.layers[worst].node, need);
}

void hls_plan_report(const HlsPlan *p, FILE *f, double compile_ms)
{
    const HlsBoard *b = &p->board;
    int i;
    fprintf(f, "# kiln plan: %s on %s at %.0f MHz\n\n", p->model, b->name, p->mhz);
    fprintf(f, "All figures are predictions of the cycle and resource models (hls/ descriptors), "
               "not measurements.%s\n\n", p->replayed ? " Plan replayed from plan.json." : "");
    fprintf(f, "## Summary\n\n");
    fprintf(f, "| figure | value |\n|---|---|\n");
    fprintf(f, "| frames/s (predicted) | %.1f |\n", p->fps);
    fprintf(f, "| latency (predicted) | %.3f ms (%lld cycles) |\n", p->latency_ms,
            (long long)p->latency);
    if (p->max_latency_ms > 0)
        fprintf(f, "| latency bound | %g ms (--max-latency-ms) |\n", p->max_latency_ms);
    if (p->fold.n > 0) { /* the engine beside the dataflow (hls_fold_finish) */
        int k;
        fprintf(f, "| interval II | %lld cycles: the shared engine's parts beside the dataflow's "
                   "segments, %d frames in flight%s (host-runtime/kiln_sched.h), each run a "
                   "start of one frame", (long long)p->interval, p->fold.flight,
                p->fold.steps ? ", in steps" : "");
        if (p->fold.gate > 0)
            fprintf(f, ", a frame entering once the one before it ended entry %d",
                    p->fold.gate - 1);
        fprintf(f, ": ");
        for (k = 0; k < p->nsegment + p->fold.npart; k++)
            fprintf(f, "%s%s %d %lld", k ? ", " : "",
                    p->fold.order[k] < p->nsegment ? "segment" : "part",
                    p->fold.order[k] < p->nsegment ? p->fold.order[k]
                                                   : p->fold.order[k] - p->nsegment,
                    (long long)p->fold.runs[k]);
        fprintf(f, " (one after the other %lld)%s; slowest stage %s, %lld cycles |\n",
                (long long)p->fold.sequential,
                p->interval == p->ddr_cycles ? " (the plan's DDR cycles bind)" : "",
                p->stages[p->slowest].node, (long long)p->compute_ii);
    } else if (p->nsegment > 1) { /* one start at a time: the intervals summed */
        int k;
        fprintf(f, "| interval II | %lld cycles: one start at a time, the segments' ",
                (long long)p->interval);
        for (k = 0; k < p->nsegment; k++)
            fprintf(f, "%s%lld", k ? " + " : "", (long long)hls_segment_interval(p, k));
        fprintf(f, "%s; slowest stage %s, %lld cycles |\n",
                p->interval > p->seg_cycles ? " (less than the plan's DDR cycles)" : "",
                p->stages[p->slowest].node, (long long)p->compute_ii);
    } else {
        fprintf(f, "| interval II | %lld cycles (slowest stage %s, %lld cycles) |\n",
                (long long)p->interval, p->stages[p->slowest].node, (long long)p->compute_ii);
    }
    fprintf(f, "| DSP efficiency | %.1f %% (MACs x fps / (DSP used x 2 MACs x DSP clock)) |\n",
            100.0 * p->dsp_eff);
    if (p->clk2x_why[0])
        fprintf(f, "| DSP clock choice | %s |\n", p->clk2x_why);
    if (p->clk2x)
        fprintf(f, "| DSP clock | %.0f MHz: the conv MAC arrays on clk2x, pixel pairs (2xp) or "
                   "input lane pairs (2x) a DSP48E2 (FMAX %.0f MHz: %s) |\n",
                p->dsp_mhz, b->dsp_max_mhz, b->dsp_max_source);
    fprintf(f, "| MACs per frame (FPGA) | %.3f G |\n", (double)p->macs / 1e9);
    fprintf(f, "| DDR traffic per frame | %.2f MB, %lld cycles at %.3g GB/s: %s |\n",
            (double)p->ddr_bytes / 1e6, (long long)p->ddr_cycles, b->ddr_gbps,
            p->ddr_bound ? "**bandwidth limits the pipeline**" : "bandwidth does not limit");
    fprintf(f, "| weights on chip / from DDR | %.2f MB / %.2f MB per frame |\n",
            (double)p->weight_bytes_onchip / 1e6, (double)p->weight_bytes_ddr / 1e6);
    fprintf(f, "| FPGA segments | %d |\n", p->nsegment);
    fprintf(f, "| what limits the design | %s%s |\n", p->limit,
            p->fold.bound ? "; **the time-shared engine's frame is most of the interval**" : "");
    if (p->fold.why[0])
        fprintf(f, "| time-shared engine | %s |\n", p->fold.why);
    if (compile_ms >= 0)
        fprintf(f, "| compile time | %.0f ms |\n", compile_ms);
    fprintf(f, "\nFormulas: II = max(max over stages of occupancy, DDR bytes / bandwidth x clock), "
               "occupancy = cycles at the inputs' pace + the wait for a held-back producer's first rows of the next "
               "frame + the stall a consumer's frame barrier puts on the chain it heads; "
               "fps = clock / II; latency = sum over segments of the last stage's t_done + the "
               "DDR writer's last response; t_done(s) = max(a + paced - 1, e + tail) with a, e "
               "the first and last input beats (docs/plan.md).\n\n");
    fprintf(f, "## Resources\n\n| resource | used | budget (headroom) | board | %% of board |\n"
               "|---|---|---|---|---|\n");
    fprintf(f, "| DSP48E2 | %.0f | %.0f (90%%) | %lld | %.1f |\n", p->total.dsp, p->budget.dsp,
            (long long)b->dsp, pct(p->total.dsp, (double)b->dsp));
    fprintf(f, "| BRAM36 | %.1f | %.0f (90%%) | %lld | %.1f |\n", p->total.bram36,
            p->budget.bram36, (long long)b->bram36, pct(p->total.bram36, (double)b->bram36));
    fprintf(f, "| URAM288 | %.0f | %.0f (90%%) | %lld | %.1f |\n", p->total.uram, p->budget.uram,
            (long long)b->uram, pct(p->total.uram, (double)b->uram));
    fprintf(f, "| LUT | %.0f | %.0f (75%%) | %lld | %.1f |\n", p->total.lut, p->budget.lut,
            (long long)b->lut, pct(p->total.lut, (double)b->lut));
    fprintf(f, "| FF | %.0f | %.0f (90%%) | %lld | %.1f |\n\n", p->total.ff, p->budget.ff,
            (long long)b->ff, pct(p->total.ff, (double)b->ff));
    fprintf(f, "## Layers\n\ncycles: the engine alone; occupancy: per frame in the pipeline; "
               "t_done: last output beat of a warm frame after start.\n\n"
               "| # | layer | engine | parallelism | weights | cycles | occupancy | t_done | PE util | "
               "DSP | BRAM36 | URAM | LUT | FF | DDR B/frame |\n"
               "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        char par[48], util[16] = "-";
        par_str(s, par, sizeof par);
        if (s->kind == HLS_ST_CONV || s->kind == HLS_ST_DWCONV)
            snprintf(util, sizeof util, "%.1f%%", 100.0 * s->util);
        fprintf(f, "| %d | %s%s | %s | %s | %s | %lld | %lld | %lld | %s | %.0f | %.1f | %.0f | "
                   "%.0f | %.0f | %lld |\n",
                i, s->node, i == p->slowest ? " **(slowest)**" : "", s->desc->name, par,
                hls_whome_name(s->whome), (long long)s->cycles, (long long)s->occupancy,
                (long long)s->t_done, util,
                s->res.dsp, s->res.bram36, s->res.uram, s->res.lut, s->res.ff,
                (long long)s->ddr_bytes);
    }
    for (i = 0; i < p->nfifo; i++) {
        const HlsFifo *q = &p->fifos[i];
        fprintf(f, "| f%d | %s -> %s | kiln_fifo | %s %lld x %lld b | - | - | - | - | - | %.0f | "
                   "%.1f | %.0f | %.0f | %.0f | 0 |\n",
                i, p->stages[q->from].node, p->stages[q->to].node,
                q->ddr ? "via DDR, would need" : "depth", (long long)q->depth,
                (long long)q->width, q->res.dsp, q->res.bram36, q->res.uram, q->res.lut, q->res.ff);
    }
    fprintf(f, "| - | infrastructure (DMA, control) | kiln_rd_chan, kiln_wr_chan, kiln_regfile, ... | "
               "- | - | - | - | - | - | %.0f | %.1f | %.0f | %.0f | %.0f | 0 |\n",
            p->infra.dsp, p->infra.bram36, p->infra.uram, p->infra.lut, p->infra.ff);
    fprintf(f, "| | **total** | | | | | II %lld | | | %.0f | %.1f | %.0f | %.0f | %.0f | %lld |\n\n",
            (long long)p->interval, p->total.dsp, p->total.bram36, p->total.uram, p->total.lut,
            p->total.ff, (long long)p->ddr_bytes);
    dsp_use_table(p, f);
    fprintf(f, "## Choices\n\n");
    for (i = 0; i < p->nstage; i++)
        fprintf(f, "- %s: %s\n", p->stages[i].node, p->stages[i].why);
    for (i = 0; i < p->nfifo; i++)
        fprintf(f, "- FIFO %s -> %s depth %lld: %s\n", p->stages[p->fifos[i].from].node,
                p->stages[p->fifos[i].to].node, (long long)p->fifos[i].depth, p->fifos[i].why);
    if (p->fold.n > 0) {
        fprintf(f, "\n## Time-shared conv engine (kiln_tsconv)\n\n");
        fprintf(f, "One %dx%d array (PACK 2, PP %d%s) runs these layers one after the other "
                   "each frame, from a descriptor table in DDR: weights read once a layer (once a tile), "
                   "maps in DDR.  %lld cycles a frame%s; %.2f MB of DDR traffic; DSP %.0f, "
                   "BRAM36 %.1f, URAM %.0f, LUT %.0f.  It runs on kiln_regfile's unit %d beside "
                   "the dataflow's segments (each on a unit of its own; their intervals %lld "
                   "cycles), frames in flight as host-runtime/kiln_sched.h orders them.\n\n",
                p->fold.pe, p->fold.pe, p->fold.pp,
                p->fold.dsp2x == 2 ? ", DSP2X 2: its multipliers on clk2x, two pixels a "
                                     "DSP48E2 a fabric cycle" :
                p->fold.dsp2x ? ", DSP2X 1: its multipliers on clk2x, two input lanes a "
                                "DSP48E2 a fabric cycle" : "",
                (long long)p->fold.cycles,
                p->fold.bound ? " (longer than the dataflow's part)" : "",
                (double)p->fold.ddr_bytes / 1e6, p->fold.res.dsp, p->fold.res.bram36,
                p->fold.res.uram, p->fold.res.lut, p->nsegment, (long long)p->fold.dataflow);
        {
            const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
            int k = d ? hls_param_index(d->hw_params, "LBBANK") : -1;
            if (k >= 0 && p->fold.hw[k] > 0)
                fprintf(f, "Its line buffer is banked by pixel (kiln_conv LBBANK): %d banks of "
                           "%lld words, rows packed at each layer's width.\n\n",
                        p->fold.pp, (long long)p->fold.hw[k]);
            k = d ? hls_param_index(d->hw_params, "LBROWS") : -1;
            if (k >= 0 && p->fold.hw[k] > 0)
                fprintf(f, "Its line buffer holds %lld rows (kiln_conv LBROWS %lld): input rows "
                           "come in while a pixel group across a row end waits for the next.\n\n",
                        (long long)hls_pow2ceil(p->fold.hw[k]), (long long)p->fold.hw[k]);
            k = d ? hls_param_index(d->hw_params, "WCH") : -1;
            if (k >= 0 && p->fold.hw[k] == 2)
                fprintf(f, "Its weights come over two read masters, each on an HP port of its "
                           "own (kiln_tsconv WCH 2): each layer's two halves, 2 x DATA_W bits a "
                           "cycle.\n\n");
        }
        fprintf(f, "MAC cycles: the array's issue cycles (pixel groups of PP x K*K*ICG x "
                   "output groups); weight cycles: its weight channel's (every tile's weight "
                   "and parameter beats at PE_IC bytes, DATA_W bits a cycle).  A layer takes "
                   "at least the larger (binds), less what the prefetch loads while the "
                   "layer before it runs.\n\n");
        fprintf(f, "| layer | shape | tiles | cycles | MAC cycles | weight cycles | binds | DDR "
                   "bytes |\n|---|---|---|---|---|---|---|---|\n");
        for (i = 0; i < p->fold.n; i++) {
            const HlsFoldLayer *l = &p->fold.layers[i];
            fprintf(f, "| %s | %lldx%lldx%lld -> %lld, k%lld s%lld | %lld | %lld | %lld | %lld | "
                       "%s | %lld |\n",
                    l->node, (long long)l->h, (long long)l->w, (long long)l->cin,
                    (long long)l->cout, (long long)l->k, (long long)l->stride,
                    (long long)hls_cdiv(hls_cdiv(l->cout, p->fold.pe), l->tog),
                    (long long)l->cycles, (long long)l->mac_cycles, (long long)l->wport_cycles,
                    l->wport_cycles > l->mac_cycles ? "weights" : "MACs",
                    (long long)l->ddr_bytes);
        }
        fold_weight_note(f, p);
        fprintf(f, "\nIt runs in %d part%s, a start each (a part runs between the dataflow "
                   "segments it reads and those that read it):", p->fold.npart,
                p->fold.npart == 1 ? "" : "s");
        for (i = 0; i < p->fold.npart; i++) {
            const HlsFoldPart *q = &p->fold.parts[i];
            int k;
            fprintf(f, "%s segment %d, ", i ? ";" : "", q->seg);
            for (k = q->first; k < q->first + q->count; k++)
                fprintf(f, "%s%s", k > q->first ? ", " : "", p->fold.layers[k].node);
            fprintf(f, " (%lld cycles)", (long long)q->cycles);
        }
        fprintf(f, ".  A frame's segments in order:");
        for (i = 0; i < p->nsegment + p->fold.npart; i++)
            fprintf(f, "%s %d", i ? "," : "", p->fold.order[i]);
        fprintf(f, ".\n");
    }
    if (p->fit.nmove > 0) {
        fprintf(f, "\n## Moved to the CPU\n\nThe smallest design with every layer the engines "
                   "take on the FPGA exceeds the budgets; these layers run on the CPU so that "
                   "it fits (a move a line, in the order made; hls/plan_fit.c). ");
        hls_fit_summary(p, f);
        fprintf(f, "\n\n");
        for (i = 0; i < p->fit.nmove; i++)
            fprintf(f, "- move %d: %s\n", i + 1, p->fit.moves[i].why);
    }
    fprintf(f, "\n## CPU nodes\n\n");
    if (p->ncpu == 0)
        fprintf(f, "None: every node runs on the FPGA.\n");
    for (i = 0; i < p->ncpu; i++)
        fprintf(f, "- %s (%s): %s\n", p->cpu[i].node, p->cpu[i].op, p->cpu[i].why);
}

void hls_plan_dot(const HlsPlan *p, FILE *f)
{
    int i, j, seg;
    fprintf(f, "digraph dataflow {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\", "
               "fontsize=10];\n  label=\"%s on %s at %.0f MHz: %.1f fps, %.2f ms (predicted)\";\n"
               "  ddr_in [label=\"DDR in\", shape=cylinder];\n"
               "  ddr_out [label=\"DDR out\", shape=cylinder];\n",
            p->model, p->board.name, p->mhz, p->fps, p->latency_ms);
    for (seg = 0; seg < p->nsegment; seg++) {
        fprintf(f, "  subgraph cluster_%d {\n    label=\"FPGA segment %d\";\n", seg, seg);
        for (i = 0; i < p->nstage; i++) {
            const HlsStage *s = &p->stages[i];
            char par[48];
            if (s->segment != seg)
                continue;
            par_str(s, par, sizeof par);
            fprintf(f, "    s%d [label=\"%s\\n%s %s\\n%lld cycles%s\"%s];\n", i, s->node,
                    s->desc->name, par, (long long)s->cycles,
                    s->whome == HLS_W_DDR ? "\\nweights from DDR" : "",
                    i == p->slowest ? ", style=filled, fillcolor=\"#f4b6b6\"" : "");
        }
        fprintf(f, "  }\n");
    }
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        for (j = 0; j < s->nin; j++) {
            int fifo = -1, k;
            for (k = 0; k < p->nfifo; k++)
                if (p->fifos[k].from == s->in[j] && p->fifos[k].to == i)
                    fifo = k;
            if (s->in[j] < 0)
                fprintf(f, "  ddr_in -> s%d;\n", i);
            else if (fifo >= 0)
                fprintf(f, "  s%d -> s%d [label=\"%s %lld\", style=dashed];\n", s->in[j], i,
                        p->fifos[fifo].ddr ? "via DDR, beats" : "FIFO",
                        (long long)p->fifos[fifo].depth);
            else
                fprintf(f, "  s%d -> s%d;\n", s->in[j], i);
        }
        if (s->out_ddr)
            fprintf(f, "  s%d -> ddr_out;\n", i);
    }
    for (i = 0; i < p->ncpu; i++)
        fprintf(f, "  cpu%d [label=\"CPU: %s\\n%s\", shape=ellipse, color=gray];\n", i,
                p->cpu[i].node, p->cpu[i].op);
    fprintf(f, "}\n");
}
