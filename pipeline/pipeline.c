/*
 * pipeline.c: the Verilog top of a plan's first FPGA segment.
 *
 * Needs a plan from hls_plan_build/hls_plan_replay (stages topological, every
 * stage's hw[] and rt[] filled).  Each stage becomes one engine instance; each
 * producer-to-consumer edge becomes, in this order, a branch of a kiln_fork
 * (when the producer has several consumers), the plan's kiln_fifo (skip path
 * of a join), a kiln_width (when the lane counts differ).  Inputs from DDR and
 * outputs that leave the segment become AXI-Stream ports; conv weight streams
 * become AXI-Stream slave ports.  Run-time cfg_* values are localparams.
 * Frame completion (kiln_regfile done_in) is counted on the output ports.
 */
#define _POSIX_C_SOURCE 200809L

#include "pipeline/pipeline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RF_ADDR_W 8 /* AXI-Lite address bits of the register file */
#define FIFO_BRAM_MIN 64 /* kiln_fifo BRAM form from this depth, as the planner costs it (hls/plan.c) */

#define MAX_SINKS 64 /* consumers of one stage's output */

/* Templates rtl_write may copy, in the order they are written. */
enum { T_CONCAT, T_CONV, T_CONV_WINDOW, T_FIFO, T_MAC2, T_MAXPOOL, T_REGFILE, T_REQUANT,
       T_UPSAMPLE, T_WIDTH, T_COUNT };
static const char *const tpl_files[T_COUNT] = {
    "kiln_concat.v", "kiln_conv.v",     "kiln_conv_window.v", "kiln_fifo.v",     "kiln_mac2.v",
    "kiln_maxpool.v", "kiln_regfile.v", "kiln_requant.v",     "kiln_upsample.v", "kiln_width.v"};
/* Files rtl_write generates. */
static const char *const gen_files[] = {"kiln_top.v", "kiln_fork.v", "regmap.h", "regmap.json"};

/* One consumer of a stage's output: a stage input or an output port. */
typedef struct {
    int stage; /* consuming stage, or -1: output port */
    int port;  /* stage input index, or output port number */
} Sink;

static int64_t cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static int64_t in_lanes(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV ? s->pe_ic : s->lanes;
}

static int64_t out_lanes(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV ? s->pe_oc : s->lanes;
}

static int first_segment(const HlsPlan *p)
{
    int i, seg = p->nstage ? p->stages[0].segment : 0;
    for (i = 1; i < p->nstage; i++)
        if (p->stages[i].segment < seg)
            seg = p->stages[i].segment;
    return seg;
}

static GirLoc stage_loc(const GirGraph *g, const HlsStage *s)
{
    if (g && s->node_id >= 0 && s->node_id < g->nnode)
        return g->nodes[s->node_id].loc;
    return gir_loc_none();
}

/* A name safe inside a Verilog or C comment and a JSON string. */
static void safe_name(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; in && *in && n + 1 < size; in++) {
        char c = *in;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '.' || c == '-' || c == ':' || c == '[' || c == ']';
        out[n++] = ok ? c : '_';
    }
    out[n] = 0;
}

/* The localparam spelling of a cfg port name (upper case). */
static void upper(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; *in && n + 1 < size; in++)
        out[n++] = (char)(*in >= 'a' && *in <= 'z' ? *in - 'a' + 'A' : *in);
    out[n] = 0;
}

static int is_pow2(int64_t v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* The plan's FIFO on the edge from -> to, or NULL. */
static const HlsFifo *edge_fifo(const HlsPlan *p, int from, int to)
{
    int i;
    for (i = 0; i < p->nfifo; i++)
        if (p->fifos[i].from == from && p->fifos[i].to == to)
            return &p->fifos[i];
    return NULL;
}

/* Does stage i's output leave the segment (graph output, CPU or another
 * segment's consumer)? */
static int leaves_segment(const HlsPlan *p, int i, int seg)
{
    int j, k;
    if (p->stages[i].out_ddr)
        return 1;
    for (j = 0; j < p->nstage; j++)
        for (k = 0; k < p->stages[j].nin; k++)
            if (p->stages[j].in[k] == i && p->stages[j].segment != seg)
                return 1;
    return 0;
}

/* One run-time configuration input of an engine. */
typedef struct {
    const char *port; /* cfg_* port name */
    int bits;         /* port width */
    int64_t value;    /* the constant */
} Cfg;

/* The cfg_* ports of stage s (returns the count). */
static int stage_cfg(const HlsStage *s, Cfg *c)
{
    int n = 0;
#define CFG(name, b, v) (c[n].port = (name), c[n].bits = (b), c[n].value = (v), n++)
    switch (s->kind) {
    case HLS_ST_CONV: {
        int64_t ocg = cdiv(s->cout, s->pe_oc);
        int64_t tog = s->whome == HLS_W_DDR && s->tog > 0 ? s->tog : ocg;
        CFG("cfg_h", 16, s->h);
        CFG("cfg_w", 16, s->w);
        CFG("cfg_icg", 16, cdiv(s->cin, s->pe_ic));
        CFG("cfg_ocg", 16, ocg);
        CFG("cfg_tog", 16, tog);
        CFG("cfg_k", 4, s->k);
        CFG("cfg_stride", 2, s->stride);
        CFG("cfg_pad", 4, s->pad);
        CFG("cfg_wreload", 1, s->whome == HLS_W_DDR);
        break;
    }
    case HLS_ST_MAXPOOL:
        CFG("cfg_h", 16, s->h);
        CFG("cfg_w", 16, s->w);
        CFG("cfg_cg", 16, cdiv(s->cin, s->lanes));
        CFG("cfg_k", 8, s->k);
        CFG("cfg_s", 8, s->stride);
        CFG("cfg_pad", 8, s->pad);
        CFG("cfg_oh", 16, s->oh);
        CFG("cfg_ow", 16, s->ow);
        break;
    case HLS_ST_UPSAMPLE:
        CFG("cfg_w", 16, s->w);
        CFG("cfg_cg", 16, cdiv(s->cin, s->lanes));
        CFG("cfg_f", 4, s->k);
        break;
    case HLS_ST_CONCAT:
        CFG("cfg_ca", 16, s->cin);
        CFG("cfg_cb", 16, s->cin2);
        break;
    default:
        break;
    }
#undef CFG
    return n;
}

int rtl_check(const HlsPlan *p, const GirGraph *g, GirError *e)
{
    int seg = first_segment(p), i, k, nout = 0;
    if (p->nstage == 0)
        return gir_error_at(e, gir_loc_none(), "rtl: the plan has no FPGA stage");
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        GirLoc loc = stage_loc(g, s);
        Cfg cfg[16];
        int n, j;
        if (s->segment != seg)
            continue;
        if (s->kind != HLS_ST_CONV && s->kind != HLS_ST_MAXPOOL && s->kind != HLS_ST_UPSAMPLE &&
            s->kind != HLS_ST_CONCAT)
            return gir_error_at(e, loc, "rtl: %s (%s): engine %s is not generated yet", s->node,
                                s->op, s->desc->name);
        if (s->npass > 1)
            return gir_error_at(e, loc,
                                "rtl: %s: weight tiles (%" PRId64 " passes over the input map) "
                                "are not generated yet",
                                s->node, s->npass);
        if (!is_pow2(in_lanes(s)) || !is_pow2(out_lanes(s)))
            return gir_error_at(e, loc, "rtl: %s: lane counts must be powers of two", s->node);
        n = stage_cfg(s, cfg);
        for (j = 0; j < n; j++)
            if (cfg[j].value < 0 || cfg[j].value >= ((int64_t)1 << cfg[j].bits))
                return gir_error_at(e, loc, "rtl: %s: %s = %" PRId64 " does not fit %d bits",
                                    s->node, cfg[j].port, cfg[j].value, cfg[j].bits);
        for (k = 0; k < s->nin; k++) {
            const HlsFifo *f;
            int from = s->in[k];
            if (from < 0)
                continue;
            if (p->stages[from].segment != seg)
                return gir_error_at(e, loc, "rtl: %s: input from another FPGA segment", s->node);
            f = edge_fifo(p, from, i);
            if (f && !f->ddr && f->depth < 2)
                return gir_error_at(e, loc, "rtl: %s: skip FIFO depth %" PRId64 " below 2",
                                    s->node, f->depth);
            if (f && f->ddr)
                return gir_error_at(e, loc,
                                    "rtl: %s: the skip tensor from %s waits in DDR; DDR skip "
                                    "paths are not generated yet",
                                    s->node, p->stages[from].node);
        }
        if (leaves_segment(p, i, seg))
            nout++;
        for (j = i + 1, n = 0; j < p->nstage; j++)
            for (k = 0; k < p->stages[j].nin; k++)
                n += p->stages[j].in[k] == i;
        if (n + 1 > MAX_SINKS)
            return gir_error_at(e, loc, "rtl: %s: more than %d consumers", s->node, MAX_SINKS - 1);
    }
    if (nout == 0)
        return gir_error_at(e, gir_loc_none(), "rtl: the first segment has no output");
    return 0;
}

/* ---- Verilog text ------------------------------------------------------ */

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

static void emit_params(FILE *f, const HlsStage *s)
{
    int j;
    fprintf(f, "    %s #(\n", s->desc->name);
    for (j = 0; s->desc->hw_params[j]; j++)
        fprintf(f, "        .%s(%" PRId64 ")%s\n", s->desc->hw_params[j], s->hw[j],
                s->desc->hw_params[j + 1] ? "," : "");
}

/* Everything rtl_write needs about the segment. */
typedef struct {
    const HlsPlan *p;
    int seg;           /* the segment generated */
    int *outport;      /* per stage: its output port number, or -1 */
    int *inport;       /* per stage and input (2*i+k): input port number, or -1 */
    int nin, nout;     /* port counts */
    unsigned need;     /* bit t: template t is used */
    uint64_t hash;     /* plan hash */
} Gen;

static int nsinks(const Gen *G, int i, Sink *out)
{
    const HlsPlan *p = G->p;
    int j, k, n = 0;
    for (j = i + 1; j < p->nstage; j++) {
        if (p->stages[j].segment != G->seg)
            continue;
        for (k = 0; k < p->stages[j].nin; k++)
            if (p->stages[j].in[k] == i) {
                if (out)
                    out[n].stage = j, out[n].port = k;
                n++;
            }
    }
    if (G->outport[i] >= 0) {
        if (out)
            out[n].stage = -1, out[n].port = G->outport[i];
        n++;
    }
    return n;
}

static void emit_top(Gen *G, FILE *f)
{
    const HlsPlan *p = G->p;
    char *dbuf = NULL, *bbuf = NULL, *ubuf = NULL;
    size_t dlen = 0, blen = 0, ulen = 0;
    FILE *d = open_memstream(&dbuf, &dlen), *b = open_memstream(&bbuf, &blen),
         *u = open_memstream(&ubuf, &ulen);
    char model[128], name[160], pre[64], dst[64], cur[64];
    int i, k, m, first;
    if (!d || !b || !u)
        gir_die("out of memory");

    safe_name(p->model, model, sizeof model);
    fprintf(f,
            "// kiln_top: generated by kiln compile from plan.json (model %s, board %s,\n"
            "// %.0f MHz); FPGA segment %d of %d.  Plan hash 0x%016" PRIx64 ".\n"
            "//\n"
            "// Ports:      clk, rst (sync, active high)\n"
            "//             s_axil_*        AXI4-Lite control (kiln_regfile map, regmap.h)\n"
            "//             s_axis_in<n>_*  input feature maps from DDR (raster order, channels\n"
            "//                             innermost in groups of the port's lanes)\n"
            "//             s_axis_w<i>_*   weight stream of conv stage i (kiln_conv order)\n"
            "//             m_axis_out<n>_* output feature maps leaving the segment\n"
            "// Run-time cfg_* of every engine are constants of the plan (localparams).\n"
            "// STATUS.done is set when every output port has sent one frame.\n",
            model, p->board.name, p->mhz, G->seg, p->nsegment, G->hash);
    fprintf(f, "module kiln_top (\n    input  wire        clk,\n    input  wire        rst,\n");
    fprintf(f,
            "    input  wire [%d:0]  s_axil_awaddr,\n    input  wire        s_axil_awvalid,\n"
            "    output wire        s_axil_awready,\n    input  wire [31:0] s_axil_wdata,\n"
            "    input  wire [3:0]  s_axil_wstrb,\n    input  wire        s_axil_wvalid,\n"
            "    output wire        s_axil_wready,\n    output wire [1:0]  s_axil_bresp,\n"
            "    output wire        s_axil_bvalid,\n    input  wire        s_axil_bready,\n"
            "    input  wire [%d:0]  s_axil_araddr,\n    input  wire        s_axil_arvalid,\n"
            "    output wire        s_axil_arready,\n    output wire [31:0] s_axil_rdata,\n"
            "    output wire [1:0]  s_axil_rresp,\n    output wire        s_axil_rvalid,\n"
            "    input  wire        s_axil_rready",
            RF_ADDR_W - 1, RF_ADDR_W - 1);
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        if (s->segment != G->seg)
            continue;
        for (k = 0; k < s->nin; k++) {
            int n = G->inport[2 * i + k];
            if (n < 0)
                continue;
            fprintf(f,
                    ",\n    input  wire        s_axis_in%d_tvalid,\n"
                    "    output wire        s_axis_in%d_tready,\n"
                    "    input  wire [%" PRId64 ":0] s_axis_in%d_tdata",
                    n, n, 8 * in_lanes(s) - 1, n);
        }
        if (s->kind == HLS_ST_CONV)
            fprintf(f,
                    ",\n    input  wire        s_axis_w%d_tvalid,\n"
                    "    output wire        s_axis_w%d_tready,\n"
                    "    input  wire [%" PRId64 ":0] s_axis_w%d_tdata",
                    i, i, 8 * in_lanes(s) - 1, i);
        if (G->outport[i] >= 0) {
            int n = G->outport[i];
            fprintf(f,
                    ",\n    output wire        m_axis_out%d_tvalid,\n"
                    "    input  wire        m_axis_out%d_tready,\n"
                    "    output wire [%" PRId64 ":0] m_axis_out%d_tdata",
                    n, n, 8 * out_lanes(s) - 1, n);
        }
    }
    fprintf(f, "\n);\n\n");

    /* engines */
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        Cfg cfg[16];
        Sink sinks[MAX_SINKS];
        int ncfg, ns, j;
        if (s->segment != G->seg)
            continue;
        safe_name(s->node, name, sizeof name);
        fprintf(b, "    // stage %d: %s (%s) on %s\n", i, name, s->op, s->desc->name);
        for (k = 0; k < s->nin; k++) {
            snprintf(pre, sizeof pre, "s%d_i%d", i, k);
            decl_stream(d, pre, in_lanes(s));
            if (G->inport[2 * i + k] >= 0) {
                snprintf(cur, sizeof cur, "s_axis_in%d", G->inport[2 * i + k]);
                join_stream(b, pre, cur);
            }
        }
        snprintf(pre, sizeof pre, "s%d_o", i);
        decl_stream(d, pre, out_lanes(s));
        ncfg = stage_cfg(s, cfg);
        for (j = 0; j < ncfg; j++) {
            char up[32];
            upper(cfg[j].port, up, sizeof up);
            fprintf(b, "    localparam [%d:0] S%d_%s = %d'd%" PRId64 ";\n", cfg[j].bits - 1, i, up,
                    cfg[j].bits, cfg[j].value);
        }
        emit_params(b, s);
        fprintf(b, "    ) u_s%d (\n        .clk(clk),\n        .rst(rst),\n", i);
        for (j = 0; j < ncfg; j++) {
            char up[32];
            upper(cfg[j].port, up, sizeof up);
            fprintf(b, "        .%s(S%d_%s),\n", cfg[j].port, i, up);
        }
        if (s->nin == 2) {
            snprintf(pre, sizeof pre, "s%d_i0", i);
            conn_stream(b, "s_a", pre, 0);
            snprintf(pre, sizeof pre, "s%d_i1", i);
            conn_stream(b, "s_b", pre, 0);
        } else {
            snprintf(pre, sizeof pre, "s%d_i0", i);
            conn_stream(b, "s", pre, 0);
        }
        if (s->kind == HLS_ST_CONV) {
            snprintf(pre, sizeof pre, "s_axis_w%d", i);
            conn_stream(b, "w", pre, 0);
        }
        snprintf(pre, sizeof pre, "s%d_o", i);
        conn_stream(b, "m", pre, 1);
        fprintf(b, "    );\n\n");

        /* the output's consumers */
        ns = nsinks(G, i, NULL);
        if (ns > MAX_SINKS)
            gir_die("rtl: stage %d has %d consumers (rtl_check lets through)", i, ns);
        nsinks(G, i, sinks);
        if (ns > 1) {
            fprintf(d, "    wire [%d:0]            s%d_fv;\n    wire [%d:0]            s%d_fr;\n",
                    ns - 1, i, ns - 1, i);
            fprintf(b,
                    "    kiln_fork #(\n        .WIDTH(%" PRId64 "),\n        .N(%d)\n    ) u_s%d_fork (\n"
                    "        .clk(clk),\n        .rst(rst),\n",
                    8 * out_lanes(s), ns, i);
            snprintf(pre, sizeof pre, "s%d_o", i);
            conn_stream(b, "s", pre, 0);
            fprintf(b,
                    "        .m_tvalid(s%d_fv),\n        .m_tready(s%d_fr),\n"
                    "        .m_tdata(s%d_fd)\n    );\n",
                    i, i, i);
            fprintf(d, "    wire [%4" PRId64 ":0]          s%d_fd;\n", 8 * out_lanes(s) - 1, i);
        }
        for (m = 0; m < ns; m++) {
            const Sink *t = &sinks[m];
            const HlsFifo *fifo = t->stage >= 0 ? edge_fifo(p, i, t->stage) : NULL;
            int64_t li = out_lanes(s), lo = t->stage >= 0 ? in_lanes(&p->stages[t->stage]) : li;
            if (t->stage >= 0)
                snprintf(dst, sizeof dst, "s%d_i%d", t->stage, t->port);
            else
                snprintf(dst, sizeof dst, "m_axis_out%d", t->port);
            if (ns > 1) {
                snprintf(cur, sizeof cur, "s%d_b%d", i, m);
                decl_stream(d, cur, li);
                fprintf(b, "    assign %s_tvalid = s%d_fv[%d];\n", cur, i, m);
                fprintf(b, "    assign s%d_fr[%d] = %s_tready;\n", i, m, cur);
                fprintf(b, "    assign %s_tdata  = s%d_fd;\n", cur, i);
            } else {
                snprintf(cur, sizeof cur, "s%d_o", i);
            }
            if (fifo) {
                char q[64], sname[160];
                safe_name(p->stages[t->stage].node, sname, sizeof sname);
                snprintf(q, sizeof q, "e%d_%d_%d_q", i, t->stage, t->port);
                decl_stream(d, q, li);
                fprintf(u, "    wire [%d:0]            e%d_%d_%d_count;\n",
                        63 - __builtin_clzll((unsigned long long)fifo->depth), i, t->stage, t->port);
                fprintf(b,
                        "    // skip FIFO %s -> %s\n    kiln_fifo #(\n        .WIDTH(%" PRId64
                        "),\n        .DEPTH(%" PRId64 "),\n        .BRAM_MIN(%d)\n"
                        "    ) u_e%d_%d_%d_fifo (\n        .clk(clk),\n        .rst(rst),\n",
                        name, sname, 8 * li, fifo->depth, FIFO_BRAM_MIN, i, t->stage, t->port);
                conn_stream(b, "s", cur, 0);
                conn_stream(b, "m", q, 0);
                fprintf(b, "        .count(e%d_%d_%d_count)\n    );\n", i, t->stage, t->port);
                snprintf(cur, sizeof cur, "%s", q);
                G->need |= 1u << T_FIFO;
            }
            if (li != lo) {
                int64_t c = s->cout;
                fprintf(b,
                        "    kiln_width #(\n        .LI(%" PRId64 "),\n        .LO(%" PRId64
                        ")\n    ) u_e%d_%d_%d_width (\n        .clk(clk),\n        .rst(rst),\n"
                        "        .cfg_cg_in(16'd%" PRId64 "),\n        .cfg_cg_out(16'd%" PRId64
                        "),\n",
                        li, lo, i, t->stage, t->port, cdiv(c, li), cdiv(c, lo));
                conn_stream(b, "s", cur, 0);
                conn_stream(b, "m", dst, 1);
                fprintf(b, "    );\n");
                G->need |= 1u << T_WIDTH | 1u << T_FIFO;
            } else {
                join_stream(b, dst, cur);
            }
        }
        fprintf(b, "\n");
        switch (s->kind) {
        case HLS_ST_CONV:
            G->need |= 1u << T_CONV | 1u << T_CONV_WINDOW | 1u << T_MAC2 | 1u << T_REQUANT;
            break;
        case HLS_ST_MAXPOOL:
            G->need |= 1u << T_MAXPOOL | 1u << T_FIFO;
            break;
        case HLS_ST_UPSAMPLE:
            G->need |= 1u << T_UPSAMPLE | 1u << T_FIFO;
            break;
        case HLS_ST_CONCAT:
            G->need |= 1u << T_CONCAT | 1u << T_FIFO;
            break;
        default:
            gir_unreachable();
        }
    }
    G->need |= 1u << T_REGFILE;

    /* frame counting on the outputs and the register file */
    fprintf(d, "    wire                  rf_start;\n");
    fprintf(u, "    wire                  rf_busy;\n    wire [31:0]           rf_cfg;\n");
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        int n = G->outport[i];
        int64_t beats = s->oh * s->ow * cdiv(s->cout, out_lanes(s));
        if (s->segment != G->seg || n < 0)
            continue;
        fprintf(d, "    reg  [31:0]           out%d_cnt;\n    reg                   out%d_fin;\n", n,
                n);
        fprintf(b, "    localparam [31:0] OUT%d_LAST = 32'd%" PRId64 "; // beats per frame - 1\n", n,
                beats - 1);
        fprintf(b,
                "    always @(posedge clk) begin\n"
                "        if (rst || rf_start) begin\n"
                "            out%d_cnt <= 32'd0;\n            out%d_fin <= 1'b0;\n"
                "        end else begin\n"
                "            if (m_axis_out%d_tvalid && m_axis_out%d_tready)\n"
                "                out%d_cnt <= out%d_cnt == OUT%d_LAST ? 32'd0 : out%d_cnt + 32'd1;\n"
                "            if (frame_done)\n                out%d_fin <= 1'b0;\n"
                "            else if (m_axis_out%d_tvalid && m_axis_out%d_tready && "
                "out%d_cnt == OUT%d_LAST)\n                out%d_fin <= 1'b1;\n"
                "        end\n    end\n",
                n, n, n, n, n, n, n, n, n, n, n, n, n, n);
    }
    fprintf(d, "    wire                  frame_done;\n");
    fprintf(b, "    assign frame_done = ");
    for (i = 0, first = 1; i < p->nstage; i++)
        if (p->stages[i].segment == G->seg && G->outport[i] >= 0) {
            fprintf(b, "%sout%d_fin", first ? "" : " & ", G->outport[i]);
            first = 0;
        }
    fprintf(b, ";\n\n");
    fprintf(b,
            "    kiln_regfile #(\n        .N_CFG(1),\n        .PLAN_HASH(64'h%016" PRIx64 "),\n"
            "        .ADDR_W(%d)\n    ) u_regfile (\n        .clk(clk),\n        .rst(rst),\n",
            G->hash, RF_ADDR_W);
    {
        static const char *const ax[] = {"awaddr", "awvalid", "awready", "wdata", "wstrb",
                                         "wvalid", "wready",  "bresp",   "bvalid", "bready",
                                         "araddr", "arvalid", "arready", "rdata", "rresp",
                                         "rvalid", "rready"};
        size_t q;
        for (q = 0; q < sizeof ax / sizeof ax[0]; q++)
            fprintf(b, "        .s_axil_%s(s_axil_%s),\n", ax[q], ax[q]);
    }
    fprintf(b,
            "        .start(rf_start),\n        .busy(rf_busy),\n        .done_in(frame_done),\n"
            "        .err_in(32'd0),\n        .cfg(rf_cfg)\n    );\n");

    fclose(d);
    fclose(b);
    fclose(u);
    fputs(dbuf, f);
    fprintf(f, "    // not used by the top: FIFO fill levels, busy, cfg registers\n"
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

/* ---- register map -------------------------------------------------------- */

static void emit_regmap_h(Gen *G, FILE *f)
{
    const HlsPlan *p = G->p;
    char model[128];
    int i;
    safe_name(p->model, model, sizeof model);
    fprintf(f,
            "/* Register map of kiln_top (kiln_regfile), generated by kiln compile for\n"
            " * model %s on %s.  Byte offsets of 32-bit AXI-Lite registers. */\n"
            "#ifndef KILN_REGMAP_H\n#define KILN_REGMAP_H\n\n"
            "#define KILN_REG_CTRL    0x00u /* W: bit0 start */\n"
            "#define KILN_REG_STATUS  0x04u /* R: bit0 busy, bit1 done */\n"
            "#define KILN_REG_ERROR   0x08u /* R: sticky errors; W: one to clear */\n"
            "#define KILN_REG_CYCLES  0x0Cu /* R: cycles while busy */\n"
            "#define KILN_REG_HASH_LO 0x10u /* R: plan hash [31:0] */\n"
            "#define KILN_REG_HASH_HI 0x14u /* R: plan hash [63:32] */\n"
            "#define KILN_REG_NCFG    0x18u /* R: cfg register count */\n"
            "#define KILN_REG_CFG0    0x40u /* R/W: cfg registers (unused by this design) */\n\n"
            "#define KILN_PLAN_HASH   0x%016" PRIx64 "ull\n"
            "#define KILN_N_INPUTS    %d\n#define KILN_N_OUTPUTS   %d\n\n",
            model, p->board.name, G->hash, G->nin, G->nout);
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        int k;
        if (s->segment != G->seg)
            continue;
        for (k = 0; k < s->nin; k++) {
            int n = G->inport[2 * i + k];
            if (n < 0)
                continue;
            fprintf(f, "#define KILN_IN%d_LANES   %" PRId64 "\n", n, in_lanes(s));
            fprintf(f, "#define KILN_IN%d_BEATS   %" PRId64 "\n", n,
                    s->h * s->w * cdiv(k == 1 ? s->cin2 : s->cin, in_lanes(s)));
        }
        if (G->outport[i] >= 0) {
            int n = G->outport[i];
            fprintf(f, "#define KILN_OUT%d_LANES  %" PRId64 "\n", n, out_lanes(s));
            fprintf(f, "#define KILN_OUT%d_BEATS  %" PRId64 "\n", n,
                    s->oh * s->ow * cdiv(s->cout, out_lanes(s)));
        }
    }
    fprintf(f, "\n#endif\n");
}

static void emit_regmap_json(Gen *G, FILE *f)
{
    const HlsPlan *p = G->p;
    char model[128], name[160];
    int i, first = 1;
    safe_name(p->model, model, sizeof model);
    fprintf(f,
            "{\n  \"kiln_regmap\": 1,\n  \"model\": \"%s\",\n  \"board\": \"%s\",\n"
            "  \"plan_hash\": \"0x%016" PRIx64 "\",\n  \"axil_addr_bits\": %d,\n"
            "  \"registers\": [\n"
            "    {\"name\": \"CTRL\", \"offset\": 0, \"access\": \"w\"},\n"
            "    {\"name\": \"STATUS\", \"offset\": 4, \"access\": \"r\"},\n"
            "    {\"name\": \"ERROR\", \"offset\": 8, \"access\": \"rw1c\"},\n"
            "    {\"name\": \"CYCLES\", \"offset\": 12, \"access\": \"r\"},\n"
            "    {\"name\": \"HASH_LO\", \"offset\": 16, \"access\": \"r\"},\n"
            "    {\"name\": \"HASH_HI\", \"offset\": 20, \"access\": \"r\"},\n"
            "    {\"name\": \"NCFG\", \"offset\": 24, \"access\": \"r\"},\n"
            "    {\"name\": \"CFG0\", \"offset\": 64, \"access\": \"rw\"}\n  ],\n"
            "  \"streams\": [",
            model, p->board.name, G->hash, RF_ADDR_W);
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        int k;
        if (s->segment != G->seg)
            continue;
        safe_name(s->node, name, sizeof name);
        for (k = 0; k < s->nin; k++) {
            int n = G->inport[2 * i + k];
            if (n < 0)
                continue;
            fprintf(f,
                    "%s\n    {\"port\": \"s_axis_in%d\", \"layer\": \"%s\", \"lanes\": %" PRId64
                    ", \"beats\": %" PRId64 "}",
                    first ? "" : ",", n, name, in_lanes(s),
                    s->h * s->w * cdiv(k == 1 ? s->cin2 : s->cin, in_lanes(s)));
            first = 0;
        }
        if (s->kind == HLS_ST_CONV) {
            fprintf(f, "%s\n    {\"port\": \"s_axis_w%d\", \"layer\": \"%s\", \"lanes\": %" PRId64 "}",
                    first ? "" : ",", i, name, in_lanes(s));
            first = 0;
        }
        if (G->outport[i] >= 0) {
            fprintf(f,
                    "%s\n    {\"port\": \"m_axis_out%d\", \"layer\": \"%s\", \"lanes\": %" PRId64
                    ", \"beats\": %" PRId64 "}",
                    first ? "" : ",", G->outport[i], name, out_lanes(s),
                    s->oh * s->ow * cdiv(s->cout, out_lanes(s)));
            first = 0;
        }
    }
    fprintf(f, "\n  ]\n}\n");
}

/* ---- files ---------------------------------------------------------------- */

uint64_t rtl_plan_hash(const HlsPlan *p)
{
    char *json = hls_plan_json(p);
    const unsigned char *c;
    uint64_t h = 0xcbf29ce484222325ull;
    for (c = (const unsigned char *)json; *c; c++)
        h = (h ^ *c) * 0x100000001b3ull;
    free(json);
    return h;
}

static int write_text(const char *dir, const char *name, const char *text, size_t len, GirError *e)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f)
        return gir_error_at(e, gir_loc_none(), "rtl: cannot write %s: %s", path, strerror(errno));
    if (fwrite(text, 1, len, f) != len) {
        fclose(f);
        return gir_error_at(e, gir_loc_none(), "rtl: cannot write %s", path);
    }
    if (fclose(f) != 0)
        return gir_error_at(e, gir_loc_none(), "rtl: cannot write %s: %s", path, strerror(errno));
    return 0;
}

static int copy_template(const char *dir, const char *name, GirError *e)
{
    char path[4096];
    char *buf;
    long n;
    int rc;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", KILN_RTL_TEMPLATES_DIR, name);
    f = fopen(path, "rb");
    if (!f)
        return gir_error_at(e, gir_loc_none(), "rtl: cannot read template %s: %s", path,
                            strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return gir_error_at(e, gir_loc_none(), "rtl: cannot read template %s", path);
    }
    buf = malloc((size_t)n + 1);
    if (!buf)
        gir_die("out of memory");
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        return gir_error_at(e, gir_loc_none(), "rtl: cannot read template %s", path);
    }
    fclose(f);
    rc = write_text(dir, name, buf, (size_t)n, e);
    free(buf);
    return rc;
}

/* Run an emitter into a string and write it as dir/name. */
static int write_emitted(const char *dir, const char *name, void (*fn)(Gen *, FILE *), Gen *G,
                         GirError *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc;
    if (!f)
        gir_die("out of memory");
    fn(G, f);
    fclose(f);
    rc = write_text(dir, name, buf, len, e);
    free(buf);
    return rc;
}

int rtl_write(const HlsPlan *p, const GirGraph *g, const char *dir, GirError *e)
{
    char rdir[4096];
    Gen G;
    int i, k, rc = 0;
    if (rtl_check(p, g, e) < 0)
        return -1;
    memset(&G, 0, sizeof G);
    G.p = p;
    G.seg = first_segment(p);
    G.hash = rtl_plan_hash(p);
    G.outport = malloc(sizeof *G.outport * (size_t)p->nstage);
    G.inport = malloc(sizeof *G.inport * 2 * (size_t)p->nstage);
    if (!G.outport || !G.inport)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        G.outport[i] = -1;
        G.inport[2 * i] = G.inport[2 * i + 1] = -1;
        if (s->segment != G.seg)
            continue;
        for (k = 0; k < s->nin; k++)
            if (s->in[k] < 0)
                G.inport[2 * i + k] = G.nin++;
        if (leaves_segment(p, i, G.seg))
            G.outport[i] = G.nout++;
    }
    snprintf(rdir, sizeof rdir, "%s/rtl", dir);
    if (mkdir(rdir, 0777) != 0 && errno != EEXIST)
        rc = gir_error_at(e, gir_loc_none(), "rtl: cannot create %s: %s", rdir, strerror(errno));
    if (rc == 0)
        rc = write_emitted(rdir, "kiln_top.v", emit_top, &G, e);
    if (rc == 0)
        rc = write_text(rdir, "kiln_fork.v", fork_v, sizeof fork_v - 1, e);
    if (rc == 0)
        rc = write_emitted(rdir, "regmap.h", emit_regmap_h, &G, e);
    if (rc == 0)
        rc = write_emitted(rdir, "regmap.json", emit_regmap_json, &G, e);
    for (i = 0; rc == 0 && i < T_COUNT; i++)
        if (G.need & (1u << i))
            rc = copy_template(rdir, tpl_files[i], e);
    free(G.outport);
    free(G.inport);
    return rc;
}

void rtl_remove(const char *dir)
{
    char path[4096];
    size_t i;
    for (i = 0; i < sizeof gen_files / sizeof gen_files[0]; i++) {
        snprintf(path, sizeof path, "%s/rtl/%s", dir, gen_files[i]);
        unlink(path);
    }
    for (i = 0; i < T_COUNT; i++) {
        snprintf(path, sizeof path, "%s/rtl/%s", dir, tpl_files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/rtl", dir);
    rmdir(path);
}
