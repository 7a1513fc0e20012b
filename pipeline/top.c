/*
 * top.c: kiln_top.v, the Verilog top of all FPGA segments of a plan, and
 * kiln_fork.v.
 *
 * Needs a plan from hls_plan_build/hls_plan_replay (stages topological, every
 * stage's hw[] and rt[] filled).  Each stage becomes one engine instance; each
 * producer-to-consumer edge inside a segment becomes, in this order, a branch
 * of a kiln_fork (when the producer has several consumers), the plan's
 * kiln_fifo (skip path of a join), a kiln_width (when the lane counts differ).
 * A stage input read from DDR (graph input, CPU or another segment's output)
 * is a kiln_rd_chan `in<n>`; a conv's weight set a kiln_rd_chan `w<i>`; a
 * stage output leaving its segment a kiln_wr_chan `out<n>` (the channels are
 * hls_plan_channels').  Under `ifdef KILN_SIM_BP (kiln simulate
 * --backpressure, docs/simulate.md) each stream into an engine or an output
 * channel passes a kiln_bp_gate (rtl-templates/kiln_bp_gate.v) first; the
 * `else branch is the plain text, so the top without the define is the
 * hardware it always was.  Run-time cfg_* values of the engines are localparams;
 * the driver writes SEGMENT, FRAMES and each channel's DDR base into
 * kiln_regfile's CFG registers.
 */
#define _POSIX_C_SOURCE 200809L

#include "pipeline/internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hls/hw.h"
#include "hls/res_util.h"

/* The module body as three texts, joined at the end in this order. */
typedef struct {
    FILE *d; /* net declarations */
    FILE *u; /* declarations of nets the top leaves unused (inside lint_off) */
    FILE *b; /* instances and assignments */
} Top;

/* One consumer of a stage's output: a stage input or an output channel. */
typedef struct {
    int stage; /* consuming stage, or -1: output channel */
    int port;  /* stage input index, or output channel number */
} Sink;

/* AXI4 signals of a read (rd) and a write (wr) master (AxiSig: internal.h). */
static const AxiSig axi_rd_sigs[] = {
    {"arvalid", 1, 1}, {"arready", 0, 1}, {"araddr", 1, HLS_HW_ADDR_W}, {"arlen", 1, 8},
    {"arsize", 1, 3},  {"arburst", 1, 2}, {"rvalid", 0, 1},             {"rready", 1, 1},
    {"rdata", 0, -1},  {"rresp", 0, 2},   {"rlast", 0, 1},              {NULL, 0, 0}};
static const AxiSig axi_wr_sigs[] = {
    {"awvalid", 1, 1}, {"awready", 0, 1}, {"awaddr", 1, HLS_HW_ADDR_W}, {"awlen", 1, 8},
    {"awsize", 1, 3},  {"awburst", 1, 2}, {"wvalid", 1, 1},             {"wready", 0, 1},
    {"wdata", 1, -1},  {"wstrb", 1, -2},  {"wlast", 1, 1},              {"bvalid", 0, 1},
    {"bready", 1, 1},  {"bresp", 0, 2},   {NULL, 0, 0}};
/* The AXI4-Lite slave's signals (s_axil_<sig>), driven (out) by the top or
 * not; width -1: the register map's address bits (HlsChans.rf_addr_w). */
static const AxiSig axil_sigs[] = {
    {"awaddr", 0, -1}, {"awvalid", 0, 1}, {"awready", 1, 1}, {"wdata", 0, 32},
    {"wstrb", 0, 4},   {"wvalid", 0, 1},  {"wready", 1, 1},  {"bresp", 1, 2},
    {"bvalid", 1, 1},  {"bready", 0, 1},  {"araddr", 0, -1}, {"arvalid", 0, 1},
    {"arready", 1, 1}, {"rdata", 1, 32},  {"rresp", 1, 2},   {"rvalid", 1, 1},
    {"rready", 0, 1},  {NULL, 0, 0}};

static const AxiSig *chan_sigs(const HlsChan *c)
{
    return c->kind == HLS_CH_OUT ? axi_wr_sigs : axi_rd_sigs;
}

static int sig_width(const AxiSig *a, const HlsChan *c)
{
    return a->width == -1 ? c->data_w : a->width == -2 ? c->data_w / 8 : a->width;
}

RtlPort *rtl_top_ports(const Gen *G, int *n)
{
    /* clk, rst, the slave, irq, and per master at most the write signals */
    size_t max = 4 + sizeof axil_sigs / sizeof axil_sigs[0] +
                 sizeof axi_wr_sigs / sizeof axi_wr_sigs[0] * (size_t)G->c.nch;
    RtlPort *v = malloc(max * sizeof *v);
    const AxiSig *a;
    int i, k = 0;
    if (!v)
        gir_die("out of memory");
    v[k++] = (RtlPort){"clk", 0, 1, NULL, NULL};
    if (G->p->clk2x)
        v[k++] = (RtlPort){"clk2x", 0, 1, NULL, NULL};
    v[k++] = (RtlPort){"rst", 0, 1, NULL, NULL};
    for (a = axil_sigs; a->sig; a++, k++) {
        v[k] = (RtlPort){"", a->out, a->width < 0 ? G->c.rf_addr_w : a->width, "s_axil", a->sig};
        snprintf(v[k].name, sizeof v[k].name, "s_axil_%s", a->sig);
    }
    v[k++] = (RtlPort){"irq", 1, 1, NULL, NULL};
    for (i = 0; i < G->c.nch; i++)
        for (a = chan_sigs(&G->c.ch[i]); a->sig; a++, k++) {
            v[k] = (RtlPort){"", a->out, sig_width(a, &G->c.ch[i]), G->c.ch[i].name, a->sig};
            snprintf(v[k].name, sizeof v[k].name, "m_axi_%s_%s", G->c.ch[i].name, a->sig);
        }
    *n = k;
    return v;
}

/* Declare the three nets of a stream named pre with lanes int8 lanes. */
static void decl_stream(FILE *f, const char *pre, int64_t lanes)
{
    fprintf(f, "    wire                  %s_tvalid;\n", pre);
    fprintf(f, "    wire                  %s_tready;\n", pre);
    fprintf(f, "    wire [%4" PRId64 ":0]          %s_tdata;\n", 8 * lanes - 1, pre);
}

/* Connect stream dst to stream src (src drives valid and data). */
static void join_stream(FILE *f, const char *dst, const char *src)
{
    fprintf(f, "    assign %s_tvalid = %s_tvalid;\n", dst, src);
    fprintf(f, "    assign %s_tready = %s_tready;\n", src, dst);
    fprintf(f, "    assign %s_tdata  = %s_tdata;\n", dst, src);
}

/* Connections of a slave (s) and master (m) stream port pair. */
static void conn_stream(FILE *f, const char *port, const char *net, int last)
{
    fprintf(f, "        .%s_tvalid(%s_tvalid),\n", port, net);
    fprintf(f, "        .%s_tready(%s_tready),\n", port, net);
    fprintf(f, "        .%s_tdata(%s_tdata)%s\n", port, net, last ? "" : ",");
}

/* What goes from stream src to dst: a join or a lane converter. */
typedef void (*HopFn)(Gen *G, const Top *T, const char *src, const char *dst, const void *arg);

/* Stream cur (lanes int8 lanes) on to dst by hop: under `ifdef
 * KILN_SIM_BP through a kiln_bp_gate of its own seed first (random stalls
 * of kiln simulate --backpressure), else exactly hop(cur, dst).  The gate
 * is a simulation model: it is not among the templates rtl_write copies
 * (kiln simulate adds it to the Verilator build). */
static void emit_gated(Gen *G, const Top *T, const char *cur, int64_t lanes, const char *dst,
                       HopFn hop, const void *arg)
{
    char g[32];
    int n = G->nbp++;
    snprintf(g, sizeof g, "bp%d", n);
    fprintf(T->d, "`ifdef KILN_SIM_BP\n");
    decl_stream(T->d, g, lanes);
    fprintf(T->d, "`endif\n");
    fprintf(T->b,
            "`ifdef KILN_SIM_BP\n    kiln_bp_gate #(\n        .WIDTH(%" PRId64 "),\n"
            "        .SEED(%d)\n    ) u_bp%d (\n        .clk(clk),\n        .rst(rst),\n",
            8 * lanes, n + 1, n);
    conn_stream(T->b, "s", cur, 0);
    conn_stream(T->b, "m", g, 1);
    fprintf(T->b, "    );\n");
    hop(G, T, g, dst, arg);
    fprintf(T->b, "`else\n");
    hop(G, T, cur, dst, arg);
    fprintf(T->b, "`endif\n");
}

/* HopFn of a plain join. */
static void hop_join(Gen *G, const Top *T, const char *src, const char *dst, const void *arg)
{
    (void)G;
    (void)arg;
    join_stream(T->b, dst, src);
}

/* The consumers of stage i's output in the order they are wired (into out
 * when not NULL); returns their count. */
static int nsinks(const Gen *G, int i, Sink *out)
{
    const HlsPlan *p = G->p;
    int j, k, n = 0, seg = p->stages[i].segment;
    for (j = i + 1; j < p->nstage; j++) {
        if (p->stages[j].segment != seg)
            continue;
        for (k = 0; k < p->stages[j].nin; k++)
            if (p->stages[j].in[k] == i && !hls_edge_ddr(p, j, k)) {
                if (out)
                    out[n].stage = j, out[n].port = k;
                n++;
            }
    }
    if (G->c.outch[i] >= 0) {
        if (out)
            out[n].stage = -1, out[n].port = G->c.outch[i];
        n++;
    }
    return n;
}

/* Does a reader inside the segment wait for writer channel ci's frames? */
static int has_reader(const Gen *G, int ci)
{
    int i;
    for (i = 0; i < G->c.nch; i++)
        if (G->c.ch[i].src == ci)
            return 1;
    return 0;
}

/* ---- header and ports ------------------------------------------------------ */

static void emit_head(const Gen *G, FILE *f)
{
    const HlsPlan *p = G->p;
    char model[128];
    rtl_safe_name(p->model, model, sizeof model);
    fprintf(f,
            "// kiln_top: generated by kiln compile from plan.json (model %s, board %s,\n"
            "// %.0f MHz); every FPGA segment of the plan (%d).  Plan hash 0x%016" PRIx64 ".\n"
            "//\n"
            "// Ports:      clk, rst (sync, active high)\n"
            "%s"
            "//             s_axil_*        AXI4-Lite control (kiln_regfile map, regmap.h)\n"
            "//             irq             interrupt: STATUS.done & IER (level, high)\n"
            "//             m_axi_in<n>_*   AXI4 read master: input map n from DDR\n"
            "//             m_axi_w<i>_*    AXI4 read master: weight set of stage i\n"
            "//             m_axi_out<n>_*  AXI4 write master: output map n to DDR\n"
            "// A start runs segment SEGMENT (CFG0) for FRAMES (CFG1) frames: its input\n"
            "// channels read frame f at BASE + f*frame_bytes, its output channels write\n"
            "// the same way; weight sets: resident ones once when CTRL.bit1 is set,\n"
            "// per-frame ones every frame.  STATUS.done when every output channel of\n"
            "// the segment has written all frames.  Engine cfg_* are localparams.\n",
            model, p->board.name, p->mhz, p->nsegment, G->hash,
            p->clk2x ? "//             clk2x           the conv MAC arrays' DSP clock: twice clk,\n"
                       "//                             synchronous and edge-aligned (one MMCM)\n"
                     : "");
}

/* The port list of rtl_top_ports: clk, rst and the AXI4-Lite slave in one
 * column layout, the masters in another. */
static void emit_ports(const Gen *G, FILE *f)
{
    int i, n;
    RtlPort *v = rtl_top_ports(G, &n);
    fprintf(f, "module kiln_top (\n");
    for (i = 0; i < n; i++) {
        char range[16] = "";
        if (v[i].width > 1)
            snprintf(range, sizeof range, "[%d:0]", v[i].width - 1);
        if (!v[i].bus || strcmp(v[i].bus, "s_axil") == 0)
            fprintf(f, "%s    %s wire %-6s %s", i ? ",\n" : "", v[i].out ? "output" : "input ",
                    range, v[i].name);
        else
            fprintf(f, ",\n    %s wire %-7s %s", v[i].out ? "output" : "input ", range, v[i].name);
    }
    fprintf(f, "\n);\n\n");
    free(v);
}

/* ---- run control ----------------------------------------------------------- */

/* The run units of a folded top (kiln_regfile UNITS): unit 0 runs the
 * segment SEGMENT selects (any, as in every top), unit k (0 < k < nd) runs
 * dataflow segment k, unit nd the engine's part SEGMENT selects; 0 in a top
 * without the engine (one unit). */
static int fold_units(const Gen *G)
{
    return G->c.ts >= 0 ? G->c.ch[G->c.ts].seg + 1 : 0;
}

/* "(every output channel of segment seg done)" (an engine part's: the
 * engine's writes). */
static void emit_seg_outs(const Gen *G, const Top *T, int seg)
{
    int i, first = 1;
    fprintf(T->b, "(");
    for (i = 0; i < G->c.nch; i++)
        if (G->c.ch[i].kind == HLS_CH_OUT &&
            (G->c.ch[i].seg == seg || (G->c.ch[i].ts && seg >= G->c.ch[i].seg))) {
            fprintf(T->b, "%sch_%s_done", first ? "" : " & ", G->c.ch[i].name);
            first = 0;
        }
    fprintf(T->b, "%s)", first ? "1'b1" : "");
}

/* The register file's nets, the segment decode and seg_done. */
static void emit_segments(const Gen *G, const Top *T)
{
    const HlsPlan *p = G->p;
    int seg, k, nu = fold_units(G), nd = nu - 1;
    fprintf(T->d, "    wire                  rf_start;\n    wire                  rf_load;\n"
                  "    wire                  rf_done;\n    wire [31:0]           rf_err;\n"
                  "    wire [31:0]           rf_frames;\n    wire [%d:0]          rf_perf;\n"
                  "    reg                   run;\n    reg  [31:0]           run_seg;\n"
                  "    reg  [31:0]           cyc;\n"
                  "    wire [31:0]           now;\n    wire                  seg_done;\n",
            64 * p->nstage - 1);
    fprintf(T->u, "    wire                  rf_busy;\n    wire [%d:0]          rf_cfg;\n",
            32 * G->c.ncfg - 1);
    for (k = 1; k < nd; k++) { /* a unit per dataflow segment past the first */
        fprintf(T->d, "    wire                  rf_start_s%d;\n    wire                  rf_done_s%d;\n"
                      "    reg                   run_s%d;\n", k, k, k);
        fprintf(T->u, "    wire                  rf_busy_s%d;\n", k);
    }
    if (nu) { /* the shared engine's run unit */
        fprintf(T->d, "    wire                  rf_start_e;\n    wire                  rf_done_e;\n"
                      "    reg                   run_e;\n");
        fprintf(T->u, "    wire                  rf_busy_e;\n");
    }
    fprintf(T->b, "    // run control: SEGMENT (CFG0) selects the segment a start of unit 0 runs\n"
                  "    assign rf_frames = rf_cfg[63:32];\n");
    if (nd > 1)
        fprintf(T->b, "    // unit k (CTRL bit k+1) runs dataflow segment k, 0 < k < %d, beside the\n"
                      "    // other units\n", nd);
    for (seg = 0; seg < G->c.nsel; seg++) {
        fprintf(T->d, "    wire                  seg%d_go;\n", seg);
        fprintf(T->b, "    assign seg%d_go = (rf_start && rf_cfg[31:0] == 32'd%d)%s", seg, seg,
                seg > 0 && seg < nd ? "" : ";\n");
        if (seg > 0 && seg < nd)
            fprintf(T->b, " || rf_start_s%d;\n", seg);
    }
    fprintf(T->b, "    // done when every output channel of the segment is done (one cycle after\n"
                  "    // the start, when the channels' done flags have been cleared; an engine\n"
                  "    // part's: the engine's writes)\n");
    fprintf(T->b, "    assign seg_done = "); /* unit 0's: the segment run_seg says */
    for (seg = 0; seg < G->c.nsel; seg++) {
        fprintf(T->b, "run_seg == 32'd%d ? ", seg);
        emit_seg_outs(G, T, seg);
        fprintf(T->b, " :\n                      ");
    }
    fprintf(T->b, "1'b1;\n");
    for (seg = 1; seg < nd; seg++) { /* the dataflow segments' own units */
        fprintf(T->b, "    assign rf_done_s%d = run_s%d && ", seg, seg);
        emit_seg_outs(G, T, seg);
        fprintf(T->b, ";\n");
    }
    if (nu)
        fprintf(T->b, "    // unit %d (CTRL bit%d) runs an engine part (SEGMENT = a part's) beside the\n"
                      "    // dataflow's units; done with the engine's writes\n"
                      "    assign rf_done_e = run_e && ch_ts2_done;\n", nd, nd + 1);
}

/* The run flag, the cycle counter and the ERROR bits. */
static void emit_run(const Gen *G, const Top *T)
{
    int i, k, nu = fold_units(G), nd = nu - 1;
    fprintf(T->b, "    assign rf_done = run && seg_done;\n"
                  "    // cycle of the run: 0 at the start pulse\n"
                  "    assign now = rf_start ? 32'd0 : cyc;\n"
                  "    always @(posedge clk) begin\n"
                  "        if (rst) begin\n            run <= 1'b0;\n            cyc <= 32'd0;\n"
                  "        end else begin\n            run <= rf_start || (run && !seg_done);\n"
                  "            cyc <= now + 32'd1;\n        end\n"
                  "        if (rf_start)\n            run_seg <= rf_cfg[31:0];\n    end\n");
    for (k = 0; k < nd; k++) /* each dataflow segment's cycle, 0 at its start (PERF) */
        fprintf(T->d, "    reg  [31:0]           sgc%d;\n    wire [31:0]           now_s%d;\n", k, k);
    for (k = 0; k < nd; k++)
        fprintf(T->b, "    assign now_s%d = seg%d_go ? 32'd0 : sgc%d;\n"
                      "    always @(posedge clk)\n        sgc%d <= rst ? 32'd0 : now_s%d + 32'd1;\n",
                k, k, k, k, k);
    for (k = 1; k < nd; k++)
        fprintf(T->b, "    always @(posedge clk) begin\n        if (rst)\n            run_s%d <= 1'b0;\n"
                      "        else\n            run_s%d <= rf_start_s%d || (run_s%d && !rf_done_s%d);\n"
                      "    end\n", k, k, k, k, k);
    if (nu) {
        fprintf(T->b, "    always @(posedge clk) begin\n        if (rst)\n            run_e <= 1'b0;\n"
                      "        else\n            run_e <= rf_start_e || (run_e && !ch_ts2_done);\n"
                      "    end\n");
        fprintf(T->b, "    assign rf_err[%d] = (rf_start && rf_cfg[31:0] >= 32'd%d) ||\n"
                      "                       (rf_start_e && (rf_cfg[31:0] < 32'd%d || "
                      "rf_cfg[31:0] >= 32'd%d));\n",
                HLS_HW_ERR_SEGMENT, G->c.nsel, nd, G->c.nsel);
    } else {
        fprintf(T->b, "    assign rf_err[%d] = rf_start && rf_cfg[31:0] >= 32'd%d;\n",
                HLS_HW_ERR_SEGMENT, G->c.nsel);
    }
    for (k = 0; k <= HLS_HW_ERR_CH_MAX; k++) {
        int first = 1;
        fprintf(T->b, "    assign rf_err[%d] = ", k);
        for (i = 0; i < G->c.nch; i++)
            if (i == k || (k == HLS_HW_ERR_CH_MAX && i > k)) {
                fprintf(T->b, "%sch_%s_err", first ? "" : " | ", G->c.ch[i].name);
                first = 0;
            }
        fprintf(T->b, "%s;\n", first ? "1'b0" : "");
    }
    fprintf(T->b, "\n");
}

/* ---- DMA channels ---------------------------------------------------------- */

/* What channel c moves, for its comment. */
static void chan_what(const Gen *G, const HlsChan *c, char *what, size_t n)
{
    if (c->kind == HLS_CH_IN && c->src >= 0)
        snprintf(what, n, "%s's map read back from DDR once a frame is written",
                 G->c.ch[c->src].name);
    else
        snprintf(what, n, "%s",
                 c->kind == HLS_CH_IN    ? "input map from DDR"
                 : c->kind == HLS_CH_OUT ? (c->scratch ? "map to DDR, read back inside the segment"
                                                       : "output map to DDR")
                 : c->resident           ? "resident weight set (CTRL.bit1)"
                                         : "weight set every frame");
    if (c->subs > 1)
        snprintf(what + strlen(what), n - strlen(what), ", %" PRId64 " tile passes", c->subs);
}

/* The channel instance: a kiln_rd_chan or kiln_wr_chan. */
static void emit_chan(const Gen *G, const Top *T, int ci)
{
    const HlsChan *c = &G->c.ch[ci];
    const AxiSig *a;
    FILE *b = T->b;
    char net[40], what[96];
    int lo = 32 * c->cfg, hi = 32 * (c->cfg + 1);
    const char *reps = c->kind == HLS_CH_W && c->resident ? "32'd1" : "rf_frames";
    chan_what(G, c, what, sizeof what);
    fprintf(b,
            "    // channel %s: %s\n    %s #(\n        .DATA_W(%d),\n        .ADDR_W(%d),\n"
            "        .BURST_MAX(%d),\n        .MAX_OUT(%d),\n        .LANES(%" PRId64 "),\n"
            "        .CNT_W(%d)\n"
            "    ) u_ch_%s (\n        .clk(clk),\n        .rst(rst),\n"
            "        .cfg_base({rf_cfg[%d:%d], rf_cfg[%d:%d]}),\n"
            "        .cfg_bytes(32'd%" PRId64 "),\n        .cfg_stride(32'd%" PRId64 "),\n"
            "        .cfg_beats(32'd%" PRId64 "),\n        .cfg_reps(%s),\n"
            "        .cfg_subs(32'd%" PRId64 "),\n        .cfg_sub_stride(32'd%" PRId64 "),\n",
            c->name, what, c->kind == HLS_CH_OUT ? "kiln_wr_chan" : "kiln_rd_chan", c->data_w,
            HLS_HW_ADDR_W, c->burst, HLS_HW_MAX_OUT, c->lanes, c->cnt_w, c->name,
            hi + HLS_HW_ADDR_W - 32 - 1, hi, lo + 31, lo, c->bytes,
            c->kind == HLS_CH_W ? (int64_t)0 : c->frame, c->beats, reps, c->subs, c->sub_stride);
    if (c->kind == HLS_CH_OUT)
        fprintf(b, "        .cfg_row_beats(32'd%" PRId64 "),\n        .cfg_row_stride(32'd%" PRId64
                   "),\n",
                c->row_beats, c->row_stride);
    if (c->src >= 0)
        fprintf(b, "        .avail(ch_%s_fin),\n", G->c.ch[c->src].name);
    else
        fprintf(b, "        .avail(32'hFFFFFFFF),\n");
    fprintf(b, "        .finished(ch_%s_fin),\n", c->name);
    if (c->kind == HLS_CH_W && c->resident)
        fprintf(b, "        .start(seg%d_go && rf_load),\n", c->seg);
    else
        fprintf(b, "        .start(seg%d_go),\n", c->seg);
    fprintf(T->u, "    wire                  ch_%s_busy;\n", c->name);
    fprintf(b, "        .busy(ch_%s_busy),\n        .done(ch_%s_done),\n        .error(ch_%s_err),\n",
            c->name, c->name, c->name);
    snprintf(net, sizeof net, "c_%s", c->name);
    conn_stream(b, c->kind == HLS_CH_OUT ? "s" : "m", net, 0);
    for (a = chan_sigs(c); a->sig; a++)
        fprintf(b, "        .m_axi_%s(m_axi_%s_%s)%s\n", a->sig, c->name, a->sig,
                a[1].sig ? "," : "");
    fprintf(b, "    );\n\n");
}

/* Every channel: its stream and flag nets and its instance. */
static void emit_channels(Gen *G, const Top *T)
{
    int i;
    for (i = 0; i < G->c.nch; i++) {
        const HlsChan *c = &G->c.ch[i];
        char pre[64];
        if (c->ts) { /* the shared engine's masters: one instance */
            if (i == G->c.ts)
                rtl_ts_top(G, T->d, T->u, T->b);
            continue;
        }
        snprintf(pre, sizeof pre, "c_%s", c->name);
        decl_stream(T->d, pre, c->lanes);
        fprintf(c->kind == HLS_CH_OUT ? T->d : T->u, "    wire                  ch_%s_done;\n",
                c->name);
        fprintf(T->d, "    wire                  ch_%s_err;\n", c->name);
        fprintf(has_reader(G, i) ? T->d : T->u, "    wire [31:0]           ch_%s_fin;\n", c->name);
        emit_chan(G, T, i);
    }
    G->need |= 1u << T_RD_CHAN | 1u << T_CHAN_REPS | 1u << T_AXI_RD | 1u << T_WIDTH | 1u << T_FIFO;
    for (i = 0; i < G->c.nch; i++)
        if (G->c.ch[i].kind == HLS_CH_OUT && !G->c.ch[i].ts)
            G->need |= 1u << T_WR_CHAN | 1u << T_AXI_WR;
}

/* ---- engines --------------------------------------------------------------- */

/* Stage i's input nets (joined to their channels), cfg localparams and
 * engine instance. */
static void emit_engine(Gen *G, const Top *T, int i)
{
    const HlsStage *s = &G->p->stages[i];
    FILE *b = T->b;
    Cfg cfg[16];
    char name[160], pre[64], cur[64], up[32];
    int j, k, ncfg;
    rtl_safe_name(s->node, name, sizeof name);
    fprintf(b, "    // stage %d: %s (%s) on %s, segment %d\n", i, name, s->op,
            rtl_stage_module(s), s->segment);
    for (k = 0; k < s->nin; k++) {
        snprintf(pre, sizeof pre, "s%d_i%d", i, k);
        decl_stream(T->d, pre, hls_in_lanes(s));
        if (G->c.inch[2 * i + k] >= 0) {
            snprintf(cur, sizeof cur, "c_%s", G->c.ch[G->c.inch[2 * i + k]].name);
            emit_gated(G, T, cur, hls_in_lanes(s), pre, hop_join, NULL);
        }
    }
    snprintf(pre, sizeof pre, "s%d_o", i);
    decl_stream(T->d, pre, hls_out_lanes(s));
    ncfg = rtl_stage_cfg(G->g, s, cfg);
    for (j = 0; j < ncfg; j++) {
        rtl_upper(cfg[j].port, up, sizeof up);
        fprintf(b, "    localparam [%d:0] S%d_%s = %d'd%" PRId64 ";\n", cfg[j].bits - 1, i, up,
                cfg[j].bits, cfg[j].value);
    }
    fprintf(b, "    %s #(\n", rtl_stage_module(s));
    for (j = 0; s->desc->hw_params[j]; j++) {
        int nx = j + 1; /* the next parameter written */
        if (!rtl_param_shown(s->desc->hw_params[j], s->hw[j]))
            continue;
        while (s->desc->hw_params[nx] && !rtl_param_shown(s->desc->hw_params[nx], s->hw[nx]))
            nx++;
        fprintf(b, "        .%s(%" PRId64 ")%s\n", s->desc->hw_params[j], s->hw[j],
                s->desc->hw_params[nx] || s->kind == HLS_ST_LUT ? "," : "");
    }
    if (s->kind == HLS_ST_LUT) {
        /* the node's table, or its tables per channel (CHANS > 0) padded to
         * whole beats with zero tables: the last table's entry 255 first */
        const int64_t *lut = rtl_node_ints(G->g, s, "lut");
        int64_t nt = s->lut_chans > 0 ? hls_cdiv(s->lut_chans, s->lanes) * s->lanes : 1, e;
        int64_t have = s->lut_chans > 0 ? s->lut_chans * GIR_LUT_SIZE : GIR_LUT_SIZE;
        fprintf(b, "        .TABLE(%" PRId64 "'h", nt * GIR_LUT_SIZE * 8);
        for (e = nt * GIR_LUT_SIZE - 1; e >= 0; e--)
            fprintf(b, "%02x", lut && e < have ? (unsigned)(lut[e] & 0xFF) : 0u);
        fprintf(b, ")\n");
    }
    fprintf(b, "    ) u_s%d (\n        .clk(clk),\n        .rst(rst),\n", i);
    if (s->kind == HLS_ST_CONV) /* kiln_conv: the MAC array's clock (DSP2X); its loader's
                                 * own reset and layer are for WLSEP only */
        fprintf(b, "        .clk2x(%s),\n        .wl_rst(1'b0), .wl_icg(16'd0), .wl_ocg(16'd0), "
                   ".wl_tog(16'd0), .wl_k(4'd0),\n", s->dsp2x ? "clk2x" : "1'b0");
    for (j = 0; j < ncfg; j++) {
        rtl_upper(cfg[j].port, up, sizeof up);
        fprintf(b, "        .%s(S%d_%s),\n", cfg[j].port, i, up);
    }
    for (k = 0; k < s->nin; k++) {
        snprintf(pre, sizeof pre, "s%d_i%d", i, k);
        conn_stream(b, s->nin == 2 ? (k ? "s_b" : "s_a") : "s", pre, 0);
    }
    if (G->c.wch[i] >= 0) {
        snprintf(pre, sizeof pre, "c_%s", G->c.ch[G->c.wch[i]].name);
        conn_stream(b, "w", pre, 0);
    }
    snprintf(pre, sizeof pre, "s%d_o", i);
    conn_stream(b, "m", pre, 1);
    fprintf(b, "    );\n\n");
}

/* Stage i's PERF counter: the cycle of the last output beat of the first
 * and the last frame (beats per frame). */
static void emit_perf(const Gen *G, const Top *T, int i, int64_t beats)
{
    /* in a folded top each dataflow segment its own start and cycle (its
     * unit runs beside the others) */
    int seg = G->p->stages[i].segment, own = fold_units(G) > 0;
    char go[32], now[32];
    snprintf(go, sizeof go, own ? "seg%d_go" : "rf_start", seg);
    snprintf(now, sizeof now, own ? "now_s%d" : "now", seg);
    fprintf(T->d, "    reg  [31:0]           pf%d_n;\n    reg                   pf%d_f;\n"
                  "    reg  [31:0]           pf%d_a;\n    reg  [31:0]           pf%d_b;\n",
            i, i, i, i);
    fprintf(T->b,
            "    always @(posedge clk) begin\n"
            "        if (rst || %s) begin\n"
            "            pf%d_n <= 32'd0;\n            pf%d_f <= 1'b0;\n"
            "            pf%d_a <= 32'd0;\n            pf%d_b <= 32'd0;\n"
            "        end else if (s%d_o_tvalid && s%d_o_tready) begin\n"
            "            if (pf%d_n == 32'd%" PRId64 ") begin // beats per frame - 1\n"
            "                pf%d_n <= 32'd0;\n                pf%d_f <= 1'b1;\n"
            "                if (!pf%d_f)\n                    pf%d_a <= %s;\n"
            "                pf%d_b <= %s;\n"
            "            end else begin\n                pf%d_n <= pf%d_n + 32'd1;\n"
            "            end\n        end\n    end\n"
            "    assign rf_perf[%d:%d] = {pf%d_b, pf%d_a};\n\n",
            go, i, i, i, i, i, i, i, beats - 1, i, i, i, i, now, i, now, i, i, 64 * i + 63, 64 * i,
            i, i);
}

/* ---- a stage's consumers --------------------------------------------------- */

/* The kiln_fork of stage i's output to its ns consumers. */
static void emit_fork(const Top *T, const HlsStage *s, int i, int ns)
{
    char pre[64];
    fprintf(T->d, "    wire [%d:0]            s%d_fv;\n    wire [%d:0]            s%d_fr;\n",
            ns - 1, i, ns - 1, i);
    fprintf(T->b,
            "    kiln_fork #(\n        .WIDTH(%" PRId64 "),\n        .N(%d)\n    ) u_s%d_fork (\n"
            "        .clk(clk),\n        .rst(rst),\n",
            8 * hls_out_lanes(s), ns, i);
    snprintf(pre, sizeof pre, "s%d_o", i);
    conn_stream(T->b, "s", pre, 0);
    fprintf(T->b,
            "        .m_tvalid(s%d_fv),\n        .m_tready(s%d_fr),\n"
            "        .m_tdata(s%d_fd)\n    );\n",
            i, i, i);
    fprintf(T->d, "    wire [%4" PRId64 ":0]          s%d_fd;\n", 8 * hls_out_lanes(s) - 1, i);
}

/* The skip FIFO on the edge from stage i to sink t, fed by stream cur;
 * cur becomes its output. */
static void emit_skip_fifo(Gen *G, const Top *T, int i, const Sink *t, const HlsFifo *fifo,
                           char *cur, size_t n)
{
    const HlsPlan *p = G->p;
    int64_t li = hls_out_lanes(&p->stages[i]);
    char q[64], name[160], sname[160];
    rtl_safe_name(p->stages[i].node, name, sizeof name);
    rtl_safe_name(p->stages[t->stage].node, sname, sizeof sname);
    snprintf(q, sizeof q, "e%d_%d_%d_q", i, t->stage, t->port);
    decl_stream(T->d, q, li);
    fprintf(T->u, "    wire [%d:0]            e%d_%d_%d_count;\n",
            63 - __builtin_clzll((unsigned long long)fifo->depth), i, t->stage, t->port);
    fprintf(T->b,
            "    // skip FIFO %s -> %s\n    kiln_fifo #(\n        .WIDTH(%" PRId64
            "),\n        .DEPTH(%" PRId64 "),\n        .BRAM_MIN(%d)\n"
            "    ) u_e%d_%d_%d_fifo (\n        .clk(clk),\n        .rst(rst),\n",
            name, sname, 8 * li, fifo->depth, HLS_HW_FIFO_BRAM_MIN, i, t->stage, t->port);
    conn_stream(T->b, "s", cur, 0);
    conn_stream(T->b, "m", q, 0);
    fprintf(T->b, "        .count(e%d_%d_%d_count)\n    );\n", i, t->stage, t->port);
    snprintf(cur, n, "%s", q);
    G->need |= 1u << T_FIFO;
}

/* A lane converter's hop: from stage i to sink t, li lanes to lo. */
typedef struct {
    int i;         /* producing stage */
    const Sink *t; /* its consumer */
    int64_t li;    /* lanes in */
    int64_t lo;    /* lanes out */
} Hop;

/* HopFn of a kiln_width (arg: a Hop). */
static void hop_width(Gen *G, const Top *T, const char *src, const char *dst, const void *arg)
{
    const Hop *h = arg;
    const HlsStage *s = &G->p->stages[h->i];
    fprintf(T->b,
            "    kiln_width #(\n        .LI(%" PRId64 "),\n        .LO(%" PRId64
            ")\n    ) u_e%d_%d_%d_width (\n        .clk(clk),\n        .rst(rst),\n"
            "        .cfg_cg_in(16'd%" PRId64 "),\n        .cfg_cg_out(16'd%" PRId64 "),\n",
            h->li, h->lo, h->i, h->t->stage, h->t->port, hls_cdiv(s->cout, h->li),
            hls_cdiv(s->cout, h->lo));
    conn_stream(T->b, "s", src, 0);
    conn_stream(T->b, "m", dst, 1);
    fprintf(T->b, "    );\n");
}

/* Sink m of stage i's ns consumers: its fork branch, the plan's skip FIFO,
 * a lane converter where the counts differ. */
static void emit_sink(Gen *G, const Top *T, int i, int m, int ns, const Sink *t)
{
    const HlsPlan *p = G->p;
    const HlsStage *s = &p->stages[i];
    const HlsFifo *fifo = t->stage >= 0 ? rtl_edge_fifo(p, i, t->stage) : NULL;
    int64_t li = hls_out_lanes(s), lo = t->stage >= 0 ? hls_in_lanes(&p->stages[t->stage]) : li;
    char dst[64], cur[64];
    if (t->stage >= 0)
        snprintf(dst, sizeof dst, "s%d_i%d", t->stage, t->port);
    else
        snprintf(dst, sizeof dst, "c_%s", G->c.ch[t->port].name);
    if (ns > 1) {
        snprintf(cur, sizeof cur, "s%d_b%d", i, m);
        decl_stream(T->d, cur, li);
        fprintf(T->b, "    assign %s_tvalid = s%d_fv[%d];\n", cur, i, m);
        fprintf(T->b, "    assign s%d_fr[%d] = %s_tready;\n", i, m, cur);
        fprintf(T->b, "    assign %s_tdata  = s%d_fd;\n", cur, i);
    } else {
        snprintf(cur, sizeof cur, "s%d_o", i);
    }
    if (fifo)
        emit_skip_fifo(G, T, i, t, fifo, cur, sizeof cur);
    if (li != lo) {
        Hop h = {i, t, li, lo};
        emit_gated(G, T, cur, li, dst, hop_width, &h);
        G->need |= 1u << T_WIDTH | 1u << T_FIFO;
    } else {
        emit_gated(G, T, cur, li, dst, hop_join, NULL);
    }
}

/* Stage i's output to its consumers: kept running when it has none,
 * through a fork when it has several. */
static void emit_consumers(Gen *G, const Top *T, int i)
{
    Sink sinks[RTL_MAX_SINKS];
    int m, ns = nsinks(G, i, NULL);
    if (ns > RTL_MAX_SINKS)
        gir_die("rtl: stage %d has %d consumers (rtl_check lets through)", i, ns);
    nsinks(G, i, sinks);
    if (ns == 0) {
        /* a stage of the plan whose output nobody takes: keep it running */
        fprintf(T->b, "    assign s%d_o_tready = 1'b1;\n", i);
        fprintf(T->u, "    wire                  s%d_o_unused = &{1'b0, s%d_o_tdata};\n", i, i);
    }
    if (ns > 1)
        emit_fork(T, &G->p->stages[i], i, ns);
    for (m = 0; m < ns; m++)
        emit_sink(G, T, i, m, ns, &sinks[m]);
    fprintf(T->b, "\n");
}

/* The templates stage kind k instantiates (bits of the T_* enum). */
static unsigned stage_templates(HlsStageKind k)
{
    switch (k) {
    case HLS_ST_CONV:
        return 1u << T_CONV | 1u << T_CONV_WINDOW | 1u << T_MAC2 | 1u << T_REQUANT | 1u << T_ADD3;
    case HLS_ST_MAXPOOL:
        return 1u << T_MAXPOOL | 1u << T_FIFO;
    case HLS_ST_UPSAMPLE:
        return 1u << T_UPSAMPLE | 1u << T_FIFO;
    case HLS_ST_CONCAT:
        return 1u << T_CONCAT | 1u << T_FIFO;
    case HLS_ST_DWCONV:
        return 1u << T_DWCONV | 1u << T_CONV_WINDOW | 1u << T_REQUANT;
    case HLS_ST_ADD:
        return 1u << T_ADD | 1u << T_FIFO;
    case HLS_ST_REQUANT:
        return 1u << T_RQ_STAGE | 1u << T_REQUANT | 1u << T_FIFO;
    case HLS_ST_LUT:
        return 1u << T_LUT | 1u << T_FIFO;
    }
    return 0;
}

/* ---- register file ------------------------------------------------------- */

static void emit_regfile(const Gen *G, const Top *T)
{
    const AxiSig *a;
    int nu = fold_units(G), k;
    char units[24] = "";
    if (nu) /* the shared engine: a run unit per dataflow segment and the engine's */
        snprintf(units, sizeof units, "        .UNITS(%d),\n", nu);
    fprintf(T->b, "    kiln_regfile #(\n%s        .N_CFG(%d),\n        .PLAN_HASH(64'h%016" PRIx64
                  "),\n        .ADDR_W(%d),\n        .N_PERF(%d)",
            units, G->c.ncfg, G->hash, G->c.rf_addr_w, G->p->nstage);
    if (G->c.rf_perf != HLS_HW_RF_PERF) /* the least map: the template's default */
        fprintf(T->b, ",\n        .PERF_BASE('h%X)", G->c.rf_perf);
    fprintf(T->b, "\n    ) u_regfile (\n        .clk(clk),\n        .rst(rst),\n");
    for (a = axil_sigs; a->sig; a++)
        fprintf(T->b, "        .s_axil_%s(s_axil_%s),\n", a->sig, a->sig);
    if (nu) {
        static const char *const what[] = {"start", "busy", "done", NULL};
        static const char *const port[] = {"start", "busy", "done_in", NULL};
        int w;
        for (w = 0; what[w]; w++) {
            fprintf(T->b, "        .%s({rf_%s_e", port[w], what[w]);
            for (k = nu - 2; k >= 1; k--)
                fprintf(T->b, ", rf_%s_s%d", what[w], k);
            fprintf(T->b, ", rf_%s}),\n", what[w]);
        }
    } else {
        fprintf(T->b, "        .start(rf_start),\n        .busy(rf_busy),\n"
                      "        .done_in(rf_done),\n");
    }
    fprintf(T->b, "        .err_in(rf_err),\n        .cfg(rf_cfg),\n        .load(rf_load),\n"
                  "        .perf(rf_perf),\n        .irq(irq)\n    );\n");
}

void rtl_emit_top(Gen *G, FILE *f)
{
    const HlsPlan *p = G->p;
    char *dbuf = NULL, *bbuf = NULL, *ubuf = NULL;
    size_t dlen = 0, blen = 0, ulen = 0;
    Top T;
    int i;
    T.d = open_memstream(&dbuf, &dlen);
    T.b = open_memstream(&bbuf, &blen);
    T.u = open_memstream(&ubuf, &ulen);
    if (!T.d || !T.b || !T.u)
        gir_die("out of memory");
    G->nbp = 0;
    emit_head(G, f);
    emit_ports(G, f);
    emit_segments(G, &T);
    emit_run(G, &T);
    emit_channels(G, &T);
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        emit_engine(G, &T, i);
        emit_perf(G, &T, i, s->oh * s->ow * hls_cdiv(s->cout, hls_out_lanes(s)));
        emit_consumers(G, &T, i);
        G->need |= stage_templates(s->kind);
    }
    G->need |= 1u << T_REGFILE;
    emit_regfile(G, &T);
    fclose(T.d);
    fclose(T.b);
    fclose(T.u);
    fputs(dbuf, f);
    fprintf(f, "    // not used by the top: FIFO fill levels, busy flags, unused cfg bits\n"
               "    /* verilator lint_off UNUSEDSIGNAL */\n");
    fputs(ubuf, f);
    fprintf(f, "    /* verilator lint_on UNUSEDSIGNAL */\n\n");
    fputs(bbuf, f);
    fprintf(f, "\nendmodule\n");
    free(dbuf);
    free(bbuf);
    free(ubuf);
}

static const char fork_v[] =
    "// kiln_fork: one stream to N consumers (generated by kiln compile).\n"
    "//\n"
    "// Ports:      clk, rst (sync, active high); s_* in; m_tvalid[i]/m_tready[i]\n"
    "//             per consumer, m_tdata shared.\n"
    "// Parameters: WIDTH (bits per beat), N (consumers, >= 2).\n"
    "// Behaviour:  a beat is offered to every consumer that has not taken it yet\n"
    "//             and leaves the input when all have; m_tvalid does not depend\n"
    "//             on m_tready.\n"
    "// Latency:    0 cycles.  Cycles per frame of B beats: B (no back-pressure).\n"
    "// Resources:  N flip-flops, ~2*N LUTs.\n"
    "module kiln_fork #(\n"
    "    parameter WIDTH = 8,\n"
    "    parameter N     = 2\n"
    ") (\n"
    "    input  wire             clk,\n"
    "    input  wire             rst,\n"
    "    input  wire             s_tvalid,\n"
    "    output wire             s_tready,\n"
    "    input  wire [WIDTH-1:0] s_tdata,\n"
    "    output wire [N-1:0]     m_tvalid,\n"
    "    input  wire [N-1:0]     m_tready,\n"
    "    output wire [WIDTH-1:0] m_tdata\n"
    ");\n"
    "    reg [N-1:0] taken;\n"
    "    assign m_tvalid = {N{s_tvalid}} & ~taken;\n"
    "    assign s_tready = &(m_tready | taken);\n"
    "    assign m_tdata  = s_tdata;\n"
    "    always @(posedge clk) begin\n"
    "        if (rst || (s_tvalid && s_tready))\n"
    "            taken <= {N{1'b0}};\n"
    "        else\n"
    "            taken <= taken | (m_tvalid & m_tready);\n"
    "    end\n"
    "endmodule\n";

void rtl_emit_fork(Gen *G, FILE *f)
{
    (void)G;
    fputs(fork_v, f);
}
