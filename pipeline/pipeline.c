/*
 * pipeline.c: the Verilog top of all FPGA segments of a plan, its DMA
 * channels, register map and weight image.
 *
 * Needs a plan from hls_plan_build/hls_plan_replay (stages topological, every
 * stage's hw[] and rt[] filled).  Each stage becomes one engine instance; each
 * producer-to-consumer edge inside a segment becomes, in this order, a branch
 * of a kiln_fork (when the producer has several consumers), the plan's
 * kiln_fifo (skip path of a join), a kiln_width (when the lane counts differ).
 * A stage input read from DDR (graph input, CPU or another segment's output)
 * is a kiln_rd_chan `in<n>`; a conv's weight set a kiln_rd_chan `w<i>`; a
 * stage output leaving its segment a kiln_wr_chan `out<n>`.  Run-time cfg_*
 * values of the engines are localparams; the driver writes SEGMENT, FRAMES
 * and each channel's DDR base into kiln_regfile's CFG registers.
 */
#define _POSIX_C_SOURCE 200809L

#include "pipeline/pipeline.h"

#include "graphir/requant.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RF_ADDR_W 12     /* AXI-Lite address bits of the register file */
#define AXI_ADDR_W 40    /* DDR address bits of the AXI4 masters */
#define FIFO_BRAM_MIN 64 /* kiln_fifo BRAM form from this depth, as the planner costs it (hls/plan.c) */
#define W_ALIGN 4096     /* weights.bin: each channel's offset is a multiple of this */
#define FRAME_ALIGN 16   /* a map's frame-to-frame stride in DDR: a multiple of this (128 bits) */
#define CFG_FIXED 2      /* CFG registers before the channel bases: SEGMENT, FRAMES */
#define ERR_SEGMENT 31   /* ERROR bit: a start named a SEGMENT the design does not have */
#define ERR_CH_MAX 30    /* ERROR bit of channel c: min(c, ERR_CH_MAX) */
#define MAX_CFG 112      /* CFG registers between 0x40 and the PERF words at 0x200 */

#define MAX_SINKS 64 /* consumers of one stage's output */
/* AXI bursts of the channels (hls/infra.c costs the same values): maps
 * stream at one beat a cycle, 4 x 64 beats in flight; weight sets are small
 * or read once, 4 x 16 beats */
#define MAP_BURST 64
#define MAP_MAX_OUT 4
#define W_BURST 16
#define W_MAX_OUT 4
/* maps read back inside a segment and weight-tiled outputs: bursts short
 * enough for a data FIFO in LUTRAM (reader 4 x 14 + 8, writer 2 x 16 + 8
 * entries), still a beat a cycle at the DDR latency the model assumes */
#define EDGE_RD_BURST 14
#define EDGE_WR_BURST 16

/* Templates rtl_write may copy, in the order they are written. */
enum { T_ADD, T_AXI_RD, T_AXI_WR, T_CHAN_REPS, T_CONCAT, T_CONV, T_CONV_WINDOW, T_DWCONV,
       T_FIFO, T_MAC2, T_MAXPOOL, T_RD_CHAN, T_REGFILE, T_REQUANT, T_RQ_STAGE, T_UPSAMPLE,
       T_WIDTH, T_WR_CHAN, T_COUNT };
static const char *const tpl_files[T_COUNT] = {
    "kiln_add.v",       "kiln_axi_rd.v",   "kiln_axi_wr.v",  "kiln_chan_reps.v",
    "kiln_concat.v",    "kiln_conv.v",     "kiln_conv_window.v", "kiln_dwconv.v",
    "kiln_fifo.v",      "kiln_mac2.v",     "kiln_maxpool.v", "kiln_rd_chan.v",
    "kiln_regfile.v",   "kiln_requant.v",  "kiln_rq_stage.v", "kiln_upsample.v",
    "kiln_width.v",     "kiln_wr_chan.v"};
/* Files rtl_write generates. */
static const char *const gen_files[] = {"kiln_top.v", "kiln_fork.v", "kiln_ports.h",
                                        "regmap.h",   "regmap.json", "weights.bin"};

/* One consumer of a stage's output: a stage input or an output channel. */
typedef struct {
    int stage; /* consuming stage, or -1: output channel */
    int port;  /* stage input index, or output channel number */
} Sink;

static int64_t cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static int64_t round_up(int64_t a, int64_t b)
{
    return cdiv(a, b) * b;
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

/* Is input k of stage i read from DDR? */
static int reads_ddr(const HlsPlan *p, int i, int k)
{
    int from = p->stages[i].in[k];
    return from < 0 || p->stages[from].segment != p->stages[i].segment;
}

/* Is input k of stage i an edge through DDR inside its segment (written by
 * the producer's channel, read back once that frame is complete)? */
static int reads_scratch(const HlsPlan *p, int i, int k)
{
    return !reads_ddr(p, i, k) && p->stages[i].in_ddr[k];
}

/* Does some stage of i's segment read i's output through DDR? */
static int has_ddr_consumer(const HlsPlan *p, int i)
{
    int j, k;
    for (j = i + 1; j < p->nstage; j++)
        for (k = 0; k < p->stages[j].nin; k++)
            if (p->stages[j].in[k] == i && reads_scratch(p, j, k))
                return 1;
    return 0;
}

/* Output channels of a weight-tiled conv's tile (its groups x PE_OC). */
static int64_t tile_chans(const HlsStage *s)
{
    return s->tog * s->pe_oc;
}

/* Does stage s take a weight stream from DDR? */
static int has_weights(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV || s->kind == HLS_ST_DWCONV;
}

/* The Verilog module of stage s: its descriptor's engine, but a standalone
 * requantize runs kiln_requant inside the kiln_rq_stage stream wrapper. */
static const char *stage_module(const HlsStage *s)
{
    return s->kind == HLS_ST_REQUANT ? "kiln_rq_stage" : s->desc->name;
}

/* Ints attribute name of stage s's node with at least one entry, else NULL. */
static const int64_t *node_ints(const GirGraph *g, const HlsStage *s, const char *name)
{
    int cnt = 0;
    const int64_t *v;
    if (!g || s->node_id < 0 || s->node_id >= g->nnode)
        return NULL;
    v = gir_attr_ints(&g->nodes[s->node_id], name, &cnt);
    return v && cnt >= 1 ? v : NULL;
}

/* One run-time configuration input of an engine. */
typedef struct {
    const char *port; /* cfg_* port name */
    int bits;         /* port width */
    int64_t value;    /* the constant */
} Cfg;

/* The cfg_* ports of stage s (returns the count).  Rescale values of an
 * int8 Add or Requantize come from its node's rq_* attributes (two's
 * complement in the port's width); an fp32 Add gets the plan's 1, 1, 0. */
static int stage_cfg(const GirGraph *g, const HlsStage *s, Cfg *c)
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
        /* the engine's pad is the top/left one; the planner takes pools
         * padded at the bottom/right only (s->pad), which cfg_oh/cfg_ow carry */
        CFG("cfg_pad", 8, 0);
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
    case HLS_ST_DWCONV:
        CFG("cfg_h", 16, s->h);
        CFG("cfg_w", 16, s->w);
        CFG("cfg_cg", 16, cdiv(s->cin, s->lanes));
        CFG("cfg_k", 4, s->k);
        CFG("cfg_stride", 2, s->stride);
        CFG("cfg_pad", 4, s->pad);
        CFG("cfg_wreload", 1, s->whome == HLS_W_DDR);
        break;
    case HLS_ST_ADD: {
        const int64_t *ma = node_ints(g, s, "rq_m_a"), *mb = node_ints(g, s, "rq_m_b");
        const int64_t *sh = node_ints(g, s, "rq_shift");
        int q = ma && mb && sh;
        CFG("cfg_ma", 16, (q ? ma[0] : 1) & 0xFFFF);
        CFG("cfg_mb", 16, (q ? mb[0] : 1) & 0xFFFF);
        CFG("cfg_shift", 6, q ? sh[0] : 0);
        break;
    }
    case HLS_ST_REQUANT: {
        const int64_t *m = node_ints(g, s, "rq_m"), *sh = node_ints(g, s, "rq_shift");
        CFG("cfg_m", 16, (m ? m[0] : 1) & 0xFFFF);
        CFG("cfg_shift", 6, sh ? sh[0] : 0);
        break;
    }
    }
#undef CFG
    return n;
}

/* ---- DMA channels ---------------------------------------------------------- */

/* What a DMA channel carries. */
typedef enum {
    CH_IN,  /* a stage input read from DDR */
    CH_W,   /* a stage's weight set read from DDR */
    CH_OUT, /* a stage output written to DDR */
} ChKind;

/* One AXI4 master of the top. */
typedef struct {
    ChKind kind;        /* in, w or out */
    char name[24];      /* in<n>, w<i>, out<n> */
    int seg;            /* its segment */
    int stage;          /* consuming (in, w) or producing (out) stage */
    int port;           /* stage input index (in) */
    int64_t lanes;      /* int8 lanes of the engine-side stream */
    int data_w;         /* AXI data bits */
    int64_t h, w, c;    /* tensor shape (in, out) */
    int64_t beats;      /* stream beats per sub-run (a frame, a tile's pass) or weight set */
    int64_t bytes;      /* DDR bytes per sub-run or weight set (multiple of data_w/8) */
    int64_t frame;      /* in, out: DDR bytes per frame (the frame-to-frame stride) */
    int64_t subs;       /* sub-runs per frame: passes of a weight-tiled conv (1: none) */
    int64_t sub_stride; /* bytes between sub-runs: 0 (input re-read) or a tile's channels */
    int64_t row_beats;  /* out of a tiled conv: bus beats of a tile per pixel (0: contiguous) */
    int64_t row_stride; /* its pixel-to-pixel bytes */
    int scratch;        /* out: a tensor only stages of the segment read back (not a result) */
    int src;            /* in: the writer channel whose buffer it reads inside the segment
                         * (its base registers, frames gated by its finished count), or -1 */
    int prod;           /* in from inside the segment: the producing stage */
    int resident;       /* w: loaded once (CTRL.bit1), else read every frame */
    int64_t offset;     /* w: byte offset in weights.bin */
    const char *value;  /* in, out: graph value name */
    int cfg;            /* CFG index of <name>_BASE_LO (HI follows); a src reader: the writer's */
} Chan;

/* Weight stream beats of stage s (kiln_conv or kiln_dwconv order, one tile). */
static int64_t weight_beats(const HlsStage *s)
{
    int64_t ocg, icg;
    if (s->kind == HLS_ST_DWCONV)
        return cdiv(s->cin, s->lanes) * (3 * s->lanes + s->k * s->k);
    ocg = cdiv(s->cout, s->pe_oc), icg = cdiv(s->cin, s->pe_ic);
    return ocg * hls_conv_group_wbeats(s->pe_oc, s->k * s->k * icg);
}

/* Number of graph uses of value v (node inputs and graph outputs). */
static int value_uses(const GirGraph *g, int v)
{
    int i, k, n = 0;
    for (i = 0; i < g->nnode; i++)
        for (k = 0; k < g->nodes[i].nin; k++)
            n += g->nodes[i].in[k] == v;
    for (i = 0; i < g->noutput; i++)
        n += g->outputs[i] == v;
    return n;
}

/* The graph value stage s produces: its node's output, followed through the
 * BatchNormalization / ReLU / LeakyReLU nodes a conv stage absorbs (as
 * hls/partition.c absorbs them). */
static const char *stage_out_value(const GirGraph *g, const HlsStage *s)
{
    int v, i;
    if (!g || s->node_id < 0 || s->node_id >= g->nnode || g->nodes[s->node_id].nout < 1)
        return s->node;
    v = g->nodes[s->node_id].out[0];
    for (i = s->node_id + 1;
         (s->kind == HLS_ST_CONV || s->kind == HLS_ST_DWCONV) && i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        if (n->nin < 1 || n->in[0] != v || n->nout < 1)
            continue;
        if ((n->op != GIR_OP_BATCHNORM && n->op != GIR_OP_RELU && n->op != GIR_OP_LEAKYRELU) ||
            value_uses(g, v) != 1)
            break;
        v = n->out[0];
    }
    return g->vals[v].name;
}

static const char *stage_in_value(const GirGraph *g, const HlsStage *s, int k)
{
    if (!g || s->node_id < 0 || s->node_id >= g->nnode || g->nodes[s->node_id].nin <= k ||
        g->nodes[s->node_id].in[k] < 0)
        return s->node;
    return g->vals[g->nodes[s->node_id].in[k]].name;
}

/* Everything rtl_write needs about the design. */
typedef struct {
    const HlsPlan *p;
    const GirGraph *g;
    Chan *ch;          /* channels: per segment, inputs, weights, outputs */
    int nch;           /* count */
    int *outch;        /* per stage: its output channel, or -1 */
    int *inch;         /* per stage and input (2*i+k): input channel, or -1 */
    int *wch;          /* per stage: its weight channel, or -1 */
    int nin, nout;     /* in<n> and out<n> counts */
    int ncfg;          /* CFG registers: SEGMENT, FRAMES, the channels' bases */
    int quant;         /* 1: the weight image can be written (int8 graph) */
    int64_t wbytes;    /* weights.bin size */
    unsigned need;     /* bit t: template t is used */
    uint64_t hash;     /* plan hash */
} Gen;

static void gen_free(Gen *G)
{
    free(G->ch);
    free(G->outch);
    free(G->inch);
    free(G->wch);
}

/* Number the channels (in<n> and out<n> over the whole plan, segment by
 * segment) and size them.  A stage's output gets a writer when it leaves
 * the segment or a stage of the segment reads it through DDR; each such
 * read is a reader on the writer's buffer, gated by its finished frames. */
static void gen_channels(Gen *G)
{
    const HlsPlan *p = G->p;
    int i, k, seg, n = p->nstage, ncfg = CFG_FIXED;
    G->ch = calloc((size_t)(4 * n + 1), sizeof *G->ch);
    G->outch = malloc(sizeof *G->outch * (size_t)n);
    G->inch = malloc(sizeof *G->inch * 2 * (size_t)n);
    G->wch = malloc(sizeof *G->wch * (size_t)n);
    if (!G->ch || !G->outch || !G->inch || !G->wch)
        gir_die("out of memory");
    for (i = 0; i < n; i++)
        G->outch[i] = G->wch[i] = G->inch[2 * i] = G->inch[2 * i + 1] = -1;
    for (seg = 0; seg < p->nsegment; seg++) {
        for (i = 0; i < n; i++) {
            const HlsStage *s = &p->stages[i];
            if (s->segment != seg)
                continue;
            for (k = 0; k < s->nin; k++) {
                Chan *c = &G->ch[G->nch];
                if (!reads_ddr(p, i, k) && !reads_scratch(p, i, k))
                    continue;
                c->kind = CH_IN;
                snprintf(c->name, sizeof c->name, "in%d", G->nin++);
                c->stage = i, c->port = k;
                c->prod = reads_ddr(p, i, k) ? -1 : s->in[k];
                c->lanes = hls_in_lanes(s);
                c->h = s->h, c->w = s->w, c->c = k == 1 && s->kind == HLS_ST_CONCAT ? s->cin2 : s->cin;
                c->subs = s->npass > 1 ? s->npass : 1;
                c->value = stage_in_value(G->g, s, k);
                G->inch[2 * i + k] = G->nch++;
            }
        }
        for (i = 0; i < n; i++) {
            const HlsStage *s = &p->stages[i];
            Chan *c = &G->ch[G->nch];
            if (s->segment != seg || !has_weights(s))
                continue;
            c->kind = CH_W;
            snprintf(c->name, sizeof c->name, "w%d", i);
            c->stage = i;
            c->lanes = hls_in_lanes(s);
            c->beats = weight_beats(s);
            c->subs = 1;
            c->resident = s->whome != HLS_W_DDR;
            G->wch[i] = G->nch++;
        }
        for (i = 0; i < n; i++) {
            const HlsStage *s = &p->stages[i];
            Chan *c = &G->ch[G->nch];
            int leaves = hls_leaves_segment(p, i);
            if (s->segment != seg || (!leaves && !has_ddr_consumer(p, i)))
                continue;
            c->kind = CH_OUT;
            snprintf(c->name, sizeof c->name, "out%d", G->nout++);
            c->stage = i;
            c->scratch = !leaves;
            c->lanes = hls_out_lanes(s);
            c->h = s->oh, c->w = s->ow, c->c = s->cout;
            c->subs = s->npass > 1 ? s->npass : 1;
            c->value = stage_out_value(G->g, s);
            G->outch[i] = G->nch++;
        }
    }
    for (i = 0; i < G->nch; i++) {
        Chan *c = &G->ch[i];
        c->seg = p->stages[c->stage].segment;
        c->data_w = hls_chan_data_w(c->lanes);
        c->src = -1;
        if (c->kind == CH_IN && c->prod >= 0)
            c->src = G->outch[c->prod];
        if (c->kind == CH_W) {
            c->bytes = round_up(c->beats * c->lanes, c->data_w / 8);
            c->offset = G->wbytes;
            G->wbytes += round_up(c->bytes, W_ALIGN);
        } else {
            int64_t npix = c->h * c->w;
            /* whole beats of the widest bus, so a writer and the readers of its
             * buffer (other lanes, other buses) agree on the frame-to-frame stride */
            c->frame = round_up(npix * cdiv(c->c, c->lanes) * c->lanes, FRAME_ALIGN);
            if (c->kind == CH_OUT && c->subs > 1) {
                /* a tiled conv: each pass writes its tile's channels of every
                 * pixel, in rows of bus beats no wider than a tile */
                const HlsStage *s = &p->stages[c->stage];
                while (tile_chans(s) % (c->data_w / 8) != 0)
                    c->data_w /= 2;
                c->beats = npix * tile_chans(s) / c->lanes;
                c->bytes = npix * tile_chans(s);
                c->sub_stride = tile_chans(s);
                c->row_beats = tile_chans(s) / (c->data_w / 8);
                c->row_stride = c->frame / npix;
            } else {
                c->beats = npix * cdiv(c->c, c->lanes);
                c->bytes = c->frame;
            }
        }
        if (c->src < 0) {
            c->cfg = ncfg;
            ncfg += 2;
        }
    }
    for (i = 0; i < G->nch; i++)
        if (G->ch[i].src >= 0)
            G->ch[i].cfg = G->ch[G->ch[i].src].cfg;
    G->ncfg = ncfg;
}

/* ---- weight image -------------------------------------------------------- */

/* The int8 weights, int32 bias and requant attributes of a conv stage. */
typedef struct {
    const int8_t *w;        /* weights */
    int nhwc;               /* 1: [M][KH][KW][C], 0: [M][C][KH][KW] */
    const int32_t *bias;    /* per output channel, or NULL */
    const int64_t *m_pos;   /* multiplier for acc >= 0, per output channel */
    const int64_t *m_neg;   /* multiplier for acc < 0 */
    const int64_t *shift;   /* rounding right shift */
} ConvQ;

/* 1 when stage s's node carries int8 weights and per-channel requant
 * attributes kiln_conv can take; 0 when the graph is not quantized; -1 + e
 * when it is but the node cannot be put into the weight stream. */
static int conv_q(const GirGraph *g, const HlsStage *s, ConvQ *q, GirError *e)
{
    const GirNode *n;
    const GirValue *wv, *bv = NULL;
    const int64_t *amin, *amax;
    int64_t cg, c;
    int c1, c2, c3, c4, c5;
    GirLoc loc = stage_loc(g, s);
    if (!g || s->node_id < 0 || s->node_id >= g->nnode)
        return 0;
    n = &g->nodes[s->node_id];
    if (n->nin < 2 || n->in[1] < 0)
        return 0;
    wv = &g->vals[n->in[1]];
    if (wv->type.dtype != GIR_DT_I8 || !wv->data)
        return 0;
    if (n->nin > 2 && n->in[2] >= 0)
        bv = &g->vals[n->in[2]];
    q->w = wv->data;
    q->nhwc = wv->layout == GIR_LAYOUT_NHWC;
    q->bias = bv ? bv->data : NULL;
    q->m_pos = gir_attr_ints(n, "rq_m_pos", &c1);
    q->m_neg = gir_attr_ints(n, "rq_m_neg", &c2);
    q->shift = gir_attr_ints(n, "rq_shift", &c3);
    amin = gir_attr_ints(n, "act_min", &c4);
    amax = gir_attr_ints(n, "act_max", &c5);
    cg = s->kind == HLS_ST_DWCONV ? 1 : s->cin;
    if (wv->type.rank != 4 || wv->type.dims[0] != s->cout ||
        wv->type.dims[q->nhwc ? 3 : 1] != cg || wv->type.dims[q->nhwc ? 1 : 2] != s->k ||
        wv->type.dims[q->nhwc ? 2 : 3] != s->k)
        return gir_error_at(e, loc, "rtl: %s: int8 weights are not [%" PRId64 ", %" PRId64
                            ", %" PRId64 ", %" PRId64 "]", s->node, s->cout, cg, s->k, s->k);
    if (bv && (bv->type.dtype != GIR_DT_I32 || !bv->data || gir_type_numel(&bv->type) != s->cout))
        return gir_error_at(e, loc, "rtl: %s: bias is not %" PRId64 " constant i32 values", s->node,
                            s->cout);
    if (!q->m_pos || !q->m_neg || !q->shift || c1 != s->cout || c2 != s->cout || c3 != s->cout)
        return gir_error_at(e, loc, "rtl: %s: int8 conv needs rq_m_pos, rq_m_neg, rq_shift with "
                            "%" PRId64 " entries", s->node, s->cout);
    for (c = 0; c < s->cout; c++)
        if (q->m_pos[c] < KILN_RQ_M_MIN || q->m_pos[c] > KILN_RQ_M_MAX ||
            q->m_neg[c] < KILN_RQ_M_MIN || q->m_neg[c] > KILN_RQ_M_MAX || q->shift[c] < 0 ||
            q->shift[c] > KILN_RQ_MAX_SHIFT)
            return gir_error_at(e, loc,
                                "rtl: %s: rq_m_pos/rq_m_neg/rq_shift of channel %" PRId64
                                " out of range", s->node, c);
    if ((amin && c4 >= 1 && amin[0] > -128) || (amax && c5 >= 1 && amax[0] < 127))
        return gir_error_at(e, loc, "rtl: %s: clip bounds act_min/act_max have no kiln_conv form",
                            s->node);
    return 1;
}

static void put32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16), b[3] = (uint8_t)(v >> 24);
}

/* The three parameter beats of output channel c at b (L lanes each):
 * bias int32, m_pos | m_neg << 16, shift. */
static void param_beats(uint8_t *b, int64_t L, const ConvQ *q, int64_t c)
{
    put32(b, q->bias ? (uint32_t)q->bias[c] : 0u);
    put32(b + L, (uint32_t)(q->m_pos[c] & 0xFFFF) | (uint32_t)(q->m_neg[c] & 0xFFFF) << 16);
    b[2 * L] = (uint8_t)(q->shift[c] & 0x3F);
}

/* Write stage s's weight stream (kiln_conv order, one tile) at out: beats of
 * PE_IC lanes packed byte after byte. */
static void conv_image(const HlsStage *s, const ConvQ *q, uint8_t *out)
{
    int64_t L = s->pe_ic, ocg = cdiv(s->cout, s->pe_oc), icg = cdiv(s->cin, s->pe_ic);
    int64_t og, o, ky, kx, ig, i, K = s->k, C = s->cin;
    uint8_t *b = out;
    for (og = 0; og < ocg; og++) {
        for (o = 0; o < s->pe_oc; o++) {
            int64_t c = og * s->pe_oc + o;
            if (c < s->cout)
                param_beats(b, L, q, c);
            b += 3 * L;
        }
        for (ky = 0; ky < K; ky++)
            for (kx = 0; kx < K; kx++)
                for (ig = 0; ig < icg; ig++)
                    for (o = 0; o < s->pe_oc; o++, b += L) {
                        int64_t c = og * s->pe_oc + o;
                        if (c >= s->cout)
                            continue;
                        for (i = 0; i < L; i++) {
                            int64_t ci = ig * L + i;
                            if (ci >= C)
                                break;
                            b[i] = (uint8_t)q->w[q->nhwc ? ((c * K + ky) * K + kx) * C + ci
                                                          : ((c * C + ci) * K + ky) * K + kx];
                        }
                    }
    }
}

/* Write stage s's weight stream in kiln_dwconv order at out: per channel
 * group, three parameter beats per lane, then one beat per kernel tap. */
static void dw_image(const HlsStage *s, const ConvQ *q, uint8_t *out)
{
    int64_t L = s->lanes, ncg = cdiv(s->cin, L), K = s->k;
    int64_t cg, o, ky, kx, i;
    uint8_t *b = out;
    for (cg = 0; cg < ncg; cg++) {
        for (o = 0; o < L; o++, b += 3 * L) {
            int64_t c = cg * L + o;
            if (c < s->cout)
                param_beats(b, L, q, c);
        }
        for (ky = 0; ky < K; ky++)
            for (kx = 0; kx < K; kx++, b += L)
                for (i = 0; i < L && cg * L + i < s->cout; i++)
                    b[i] = (uint8_t)q->w[((cg * L + i) * K + ky) * K + kx];
    }
}

/* Is the planned graph int8 (every weight stage's node quantized)?  1 yes,
 * 0 no, -1 + e when a quantized node does not fit its engine's stream. */
static int graph_quantized(const HlsPlan *p, const GirGraph *g, GirError *e)
{
    int i, any = 0, all = 1;
    for (i = 0; i < p->nstage; i++) {
        ConvQ q;
        int r;
        if (!has_weights(&p->stages[i]))
            continue;
        r = conv_q(g, &p->stages[i], &q, e);
        if (r < 0)
            return -1;
        any |= r;
        all &= r;
    }
    return any && all;
}

int rtl_check(const HlsPlan *p, const GirGraph *g, GirError *e)
{
    int i, k, n, seg;
    if (p->nstage == 0)
        return gir_error_at(e, gir_loc_none(), "rtl: the plan has no FPGA stage");
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        GirLoc loc = stage_loc(g, s);
        Cfg cfg[16];
        int j;
        if (s->segment < 0 || s->segment >= p->nsegment)
            return gir_error_at(e, loc, "rtl: %s: segment %d outside the plan's %d", s->node,
                                s->segment, p->nsegment);
        if (s->npass > 1) {
            /* each pass's tile is written into every pixel in rows of bus
             * beats of at least 16 bits */
            int64_t ocg = cdiv(s->cout, s->pe_oc);
            if (s->kind != HLS_ST_CONV || s->tog < 1 || ocg % s->tog != 0 ||
                tile_chans(s) % 2 != 0)
                return gir_error_at(e, loc,
                                    "rtl: %s: weight tiles of %" PRId64 " output groups (PE_OC "
                                    "%d, %" PRId64 " groups in all): a tile must divide the groups "
                                    "and hold an even number of channels",
                                    s->node, s->tog, s->pe_oc, ocg);
        }
        if (!is_pow2(hls_in_lanes(s)) || !is_pow2(hls_out_lanes(s)))
            return gir_error_at(e, loc, "rtl: %s: lane counts must be powers of two", s->node);
        if (s->kind == HLS_ST_ADD || s->kind == HLS_ST_REQUANT) {
            static const char *const names[] = {"rq_m_a", "rq_m_b", "rq_m", "rq_shift"};
            for (j = 0; j < 4; j++) {
                const int64_t *v = node_ints(g, s, names[j]);
                int sh = j == 3;
                if (v && (sh ? v[0] < 0 || v[0] > KILN_RQ_MAX_SHIFT
                             : v[0] < KILN_RQ_M_MIN || v[0] > KILN_RQ_M_MAX))
                    return gir_error_at(e, loc, "rtl: %s: %s = %" PRId64 " out of range", s->node,
                                        names[j], v[0]);
            }
        }
        n = stage_cfg(g, s, cfg);
        for (j = 0; j < n; j++)
            if (cfg[j].value < 0 || cfg[j].value >= ((int64_t)1 << cfg[j].bits))
                return gir_error_at(e, loc, "rtl: %s: %s = %" PRId64 " does not fit %d bits",
                                    s->node, cfg[j].port, cfg[j].value, cfg[j].bits);
        if (s->oh * s->ow * cdiv(s->cout, hls_out_lanes(s)) * hls_out_lanes(s) >= ((int64_t)1 << 31) ||
            s->h * s->w * cdiv(s->cin + s->cin2, hls_in_lanes(s)) * hls_in_lanes(s) >= ((int64_t)1 << 31) ||
            (has_weights(s) && weight_beats(s) * hls_in_lanes(s) >= ((int64_t)1 << 31)))
            return gir_error_at(e, loc, "rtl: %s: a frame or weight set of 2 GiB or more", s->node);
        for (k = 0; k < s->nin; k++) {
            const HlsFifo *f;
            int from = s->in[k];
            if (from < 0 || reads_ddr(p, i, k))
                continue;
            if (s->in_ddr[k]) {
                /* written in the producer's lanes, read in the consumer's: the
                 * same bytes per pixel */
                const HlsStage *u = &p->stages[from];
                int64_t c = k == 1 && s->kind == HLS_ST_CONCAT ? s->cin2 : s->cin;
                int64_t lp = hls_out_lanes(u), lc = hls_in_lanes(s);
                if (u->cout != c || cdiv(c, lp) * lp != cdiv(c, lc) * lc)
                    return gir_error_at(e, loc,
                                        "rtl: %s: input %d from %s goes through DDR in %" PRId64
                                        " lanes but is read in %" PRId64 " (%" PRId64
                                        " channels): the padded pixels differ",
                                        s->node, k, u->node, lp, lc, c);
                continue;
            }
            if (p->stages[from].npass > 1)
                return gir_error_at(e, loc,
                                    "rtl: %s: input %d streams from the weight-tiled %s, "
                                    "whose output is tile by tile",
                                    s->node, k, p->stages[from].node);
            f = edge_fifo(p, from, i);
            if (f && !f->ddr && f->depth < 2)
                return gir_error_at(e, loc, "rtl: %s: skip FIFO depth %" PRId64 " below 2",
                                    s->node, f->depth);
        }
        for (j = i + 1, n = 0; j < p->nstage; j++)
            for (k = 0; k < p->stages[j].nin; k++)
                n += p->stages[j].in[k] == i;
        if (n + 1 > MAX_SINKS)
            return gir_error_at(e, loc, "rtl: %s: more than %d consumers", s->node, MAX_SINKS - 1);
    }
    for (i = 0, n = 0; i < p->nstage; i++) { /* channels with base registers */
        const HlsStage *s = &p->stages[i];
        n += has_weights(s) + (hls_leaves_segment(p, i) || has_ddr_consumer(p, i));
        for (k = 0; k < s->nin; k++)
            n += reads_ddr(p, i, k);
    }
    if (CFG_FIXED + 2 * n > MAX_CFG)
        return gir_error_at(e, gir_loc_none(),
                            "rtl: %d DMA channels; the register map holds %d", n,
                            (MAX_CFG - CFG_FIXED) / 2);
    if (0x200 + 8 * p->nstage > (1 << RF_ADDR_W))
        return gir_error_at(e, gir_loc_none(), "rtl: %d stages; the register map holds %d",
                            p->nstage, ((1 << RF_ADDR_W) - 0x200) / 8);
    for (seg = 0; seg < p->nsegment; seg++) {
        int nout = 0, nst = 0;
        for (i = 0; i < p->nstage; i++)
            if (p->stages[i].segment == seg) {
                nst++;
                nout += hls_leaves_segment(p, i);
            }
        if (nst > 0 && nout == 0)
            return gir_error_at(e, gir_loc_none(), "rtl: FPGA segment %d has no output", seg);
    }
    if (graph_quantized(p, g, e) < 0)
        return -1;
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
    fprintf(f, "    %s #(\n", stage_module(s));
    for (j = 0; s->desc->hw_params[j]; j++)
        fprintf(f, "        .%s(%" PRId64 ")%s\n", s->desc->hw_params[j], s->hw[j],
                s->desc->hw_params[j + 1] ? "," : "");
}

/* AXI4 signals of a read (rd) and a write (wr) master: name, 1 = output of
 * the top, width (0: 1 bit, -1: DATA_W, -2: DATA_W/8, else the width). */
typedef struct {
    const char *sig; /* signal name after m_axi_<ch>_ */
    int out;         /* driven by the top */
    int width;       /* bits, or -1 DATA_W, -2 DATA_W/8 */
} AxiSig;
static const AxiSig axi_rd_sigs[] = {
    {"arvalid", 1, 1}, {"arready", 0, 1}, {"araddr", 1, AXI_ADDR_W}, {"arlen", 1, 8},
    {"arsize", 1, 3},  {"arburst", 1, 2}, {"rvalid", 0, 1},          {"rready", 1, 1},
    {"rdata", 0, -1},  {"rresp", 0, 2},   {"rlast", 0, 1},           {NULL, 0, 0}};
static const AxiSig axi_wr_sigs[] = {
    {"awvalid", 1, 1}, {"awready", 0, 1}, {"awaddr", 1, AXI_ADDR_W}, {"awlen", 1, 8},
    {"awsize", 1, 3},  {"awburst", 1, 2}, {"wvalid", 1, 1},          {"wready", 0, 1},
    {"wdata", 1, -1},  {"wstrb", 1, -2},  {"wlast", 1, 1},           {"bvalid", 0, 1},
    {"bready", 1, 1},  {"bresp", 0, 2},   {NULL, 0, 0}};

static const AxiSig *chan_sigs(const Chan *c)
{
    return c->kind == CH_OUT ? axi_wr_sigs : axi_rd_sigs;
}

static int sig_width(const AxiSig *a, const Chan *c)
{
    return a->width == -1 ? c->data_w : a->width == -2 ? c->data_w / 8 : a->width;
}

static int nsinks(const Gen *G, int i, Sink *out)
{
    const HlsPlan *p = G->p;
    int j, k, n = 0, seg = p->stages[i].segment;
    for (j = i + 1; j < p->nstage; j++) {
        if (p->stages[j].segment != seg)
            continue;
        for (k = 0; k < p->stages[j].nin; k++)
            if (p->stages[j].in[k] == i && !reads_scratch(p, j, k)) {
                if (out)
                    out[n].stage = j, out[n].port = k;
                n++;
            }
    }
    if (G->outch[i] >= 0) {
        if (out)
            out[n].stage = -1, out[n].port = G->outch[i];
        n++;
    }
    return n;
}

/* Burst beats of channel c (hls/infra.c costs the same). */
static int chan_burst(const Chan *c)
{
    if (c->kind == CH_W)
        return W_BURST;
    if (c->src >= 0)
        return EDGE_RD_BURST;
    if (c->kind == CH_OUT && (c->scratch || c->subs > 1))
        return EDGE_WR_BURST;
    return MAP_BURST;
}

/* Does a reader inside the segment wait for writer channel ci's frames? */
static int has_reader(const Gen *G, int ci)
{
    int i;
    for (i = 0; i < G->nch; i++)
        if (G->ch[i].src == ci)
            return 1;
    return 0;
}

/* The channel instance: a kiln_rd_chan or kiln_wr_chan. */
static void emit_chan(Gen *G, FILE *b, FILE *u, int ci)
{
    const Chan *c = &G->ch[ci];
    const AxiSig *a;
    char net[40];
    int lo = 32 * c->cfg, hi = 32 * (c->cfg + 1);
    const char *reps = c->kind == CH_W && c->resident ? "32'd1" : "rf_frames";
    char what[96];
    if (c->kind == CH_IN && c->src >= 0)
        snprintf(what, sizeof what, "%s's map read back from DDR once a frame is written",
                 G->ch[c->src].name);
    else
        snprintf(what, sizeof what, "%s",
                 c->kind == CH_IN    ? "input map from DDR"
                 : c->kind == CH_OUT ? (c->scratch ? "map to DDR, read back inside the segment"
                                                   : "output map to DDR")
                 : c->resident       ? "resident weight set (CTRL.bit1)"
                                     : "weight set every frame");
    if (c->subs > 1)
        snprintf(what + strlen(what), sizeof what - strlen(what), ", %" PRId64 " tile passes",
                 c->subs);
    fprintf(b,
            "    // channel %s: %s\n    %s #(\n        .DATA_W(%d),\n        .ADDR_W(%d),\n"
            "        .BURST_MAX(%d),\n        .MAX_OUT(%d),\n        .LANES(%" PRId64 "),\n"
            "        .CNT_W(%d)\n"
            "    ) u_ch_%s (\n        .clk(clk),\n        .rst(rst),\n"
            "        .cfg_base({rf_cfg[%d:%d], rf_cfg[%d:%d]}),\n"
            "        .cfg_bytes(32'd%" PRId64 "),\n        .cfg_stride(32'd%" PRId64 "),\n"
            "        .cfg_beats(32'd%" PRId64 "),\n        .cfg_reps(%s),\n"
            "        .cfg_subs(32'd%" PRId64 "),\n        .cfg_sub_stride(32'd%" PRId64 "),\n",
            c->name, what,
            c->kind == CH_OUT ? "kiln_wr_chan" : "kiln_rd_chan", c->data_w, AXI_ADDR_W,
            chan_burst(c), c->kind == CH_W ? W_MAX_OUT : MAP_MAX_OUT, c->lanes,
            hls_chan_cnt_w(c->kind == CH_OUT, c->bytes, c->subs, c->data_w, c->lanes),
            c->name, hi + AXI_ADDR_W - 32 - 1, hi, lo + 31,
            lo, c->bytes, c->kind == CH_W ? (int64_t)0 : c->frame, c->beats, reps, c->subs,
            c->sub_stride);
    if (c->kind == CH_OUT)
        fprintf(b, "        .cfg_row_beats(32'd%" PRId64 "),\n        .cfg_row_stride(32'd%" PRId64
                   "),\n",
                c->row_beats, c->row_stride);
    if (c->src >= 0)
        fprintf(b, "        .avail(ch_%s_fin),\n", G->ch[c->src].name);
    else
        fprintf(b, "        .avail(32'hFFFFFFFF),\n");
    fprintf(b, "        .finished(ch_%s_fin),\n", c->name);
    if (c->kind == CH_W && c->resident)
        fprintf(b, "        .start(seg%d_go && rf_load),\n", c->seg);
    else
        fprintf(b, "        .start(seg%d_go),\n", c->seg);
    fprintf(u, "    wire                  ch_%s_busy;\n", c->name);
    fprintf(b, "        .busy(ch_%s_busy),\n        .done(ch_%s_done),\n        .error(ch_%s_err),\n",
            c->name, c->name, c->name);
    snprintf(net, sizeof net, "c_%s", c->name);
    conn_stream(b, c->kind == CH_OUT ? "s" : "m", net, 0);
    for (a = chan_sigs(c); a->sig; a++)
        fprintf(b, "        .m_axi_%s(m_axi_%s_%s)%s\n", a->sig, c->name, a->sig,
                a[1].sig ? "," : "");
    fprintf(b, "    );\n\n");
}

static void emit_top(Gen *G, FILE *f)
{
    const HlsPlan *p = G->p;
    char *dbuf = NULL, *bbuf = NULL, *ubuf = NULL;
    size_t dlen = 0, blen = 0, ulen = 0;
    FILE *d = open_memstream(&dbuf, &dlen), *b = open_memstream(&bbuf, &blen),
         *u = open_memstream(&ubuf, &ulen);
    char model[128], name[160], pre[64], dst[64], cur[64];
    int i, k, m, seg;
    if (!d || !b || !u)
        gir_die("out of memory");

    safe_name(p->model, model, sizeof model);
    fprintf(f,
            "// kiln_top: generated by kiln compile from plan.json (model %s, board %s,\n"
            "// %.0f MHz); every FPGA segment of the plan (%d).  Plan hash 0x%016" PRIx64 ".\n"
            "//\n"
            "// Ports:      clk, rst (sync, active high)\n"
            "//             s_axil_*        AXI4-Lite control (kiln_regfile map, regmap.h)\n"
            "//             m_axi_in<n>_*   AXI4 read master: input map n from DDR\n"
            "//             m_axi_w<i>_*    AXI4 read master: weight set of stage i\n"
            "//             m_axi_out<n>_*  AXI4 write master: output map n to DDR\n"
            "// A start runs segment SEGMENT (CFG0) for FRAMES (CFG1) frames: its input\n"
            "// channels read frame f at BASE + f*frame_bytes, its output channels write\n"
            "// the same way; weight sets: resident ones once when CTRL.bit1 is set,\n"
            "// per-frame ones every frame.  STATUS.done when every output channel of\n"
            "// the segment has written all frames.  Engine cfg_* are localparams.\n",
            model, p->board.name, p->mhz, p->nsegment, G->hash);
    fprintf(f, "module kiln_top (\n    input  wire        clk,\n    input  wire        rst,\n");
    fprintf(f,
            "    input  wire [%d:0] s_axil_awaddr,\n    input  wire        s_axil_awvalid,\n"
            "    output wire        s_axil_awready,\n    input  wire [31:0] s_axil_wdata,\n"
            "    input  wire [3:0]  s_axil_wstrb,\n    input  wire        s_axil_wvalid,\n"
            "    output wire        s_axil_wready,\n    output wire [1:0]  s_axil_bresp,\n"
            "    output wire        s_axil_bvalid,\n    input  wire        s_axil_bready,\n"
            "    input  wire [%d:0] s_axil_araddr,\n    input  wire        s_axil_arvalid,\n"
            "    output wire        s_axil_arready,\n    output wire [31:0] s_axil_rdata,\n"
            "    output wire [1:0]  s_axil_rresp,\n    output wire        s_axil_rvalid,\n"
            "    input  wire        s_axil_rready",
            RF_ADDR_W - 1, RF_ADDR_W - 1);
    for (i = 0; i < G->nch; i++) {
        const Chan *c = &G->ch[i];
        const AxiSig *a;
        for (a = chan_sigs(c); a->sig; a++) {
            int w = sig_width(a, c);
            char range[16] = "";
            if (w > 1)
                snprintf(range, sizeof range, "[%d:0]", w - 1);
            fprintf(f, ",\n    %s wire %-7s m_axi_%s_%s", a->out ? "output" : "input ", range,
                    c->name, a->sig);
        }
    }
    fprintf(f, "\n);\n\n");

    /* register file outputs, run control */
    fprintf(d, "    wire                  rf_start;\n    wire                  rf_load;\n"
               "    wire                  rf_done;\n    wire [31:0]           rf_err;\n"
               "    wire [31:0]           rf_frames;\n    wire [%d:0]          rf_perf;\n"
               "    reg                   run;\n    reg  [31:0]           run_seg;\n"
               "    reg  [31:0]           cyc;\n"
               "    wire [31:0]           now;\n    wire                  seg_done;\n",
            64 * p->nstage - 1);
    fprintf(u, "    wire                  rf_busy;\n    wire [%d:0]          rf_cfg;\n",
            32 * G->ncfg - 1);
    fprintf(b, "    // run control: SEGMENT (CFG0) selects the segment a start runs\n"
               "    assign rf_frames = rf_cfg[63:32];\n");
    for (seg = 0; seg < p->nsegment; seg++) {
        fprintf(d, "    wire                  seg%d_go;\n", seg);
        fprintf(b, "    assign seg%d_go = rf_start && rf_cfg[31:0] == 32'd%d;\n", seg, seg);
    }
    fprintf(b, "    // done when every output channel of the segment is done (one cycle after\n"
               "    // the start, when the channels' done flags have been cleared)\n"
               "    assign seg_done = ");
    for (seg = 0; seg < p->nsegment; seg++) {
        int first = 1;
        fprintf(b, "run_seg == 32'd%d ? (", seg);
        for (i = 0; i < G->nch; i++)
            if (G->ch[i].kind == CH_OUT && G->ch[i].seg == seg) {
                fprintf(b, "%sch_%s_done", first ? "" : " & ", G->ch[i].name);
                first = 0;
            }
        fprintf(b, "%s) :\n                      ", first ? "1'b1" : "");
    }
    fprintf(b, "1'b1;\n");
    fprintf(b, "    assign rf_done = run && seg_done;\n"
               "    // cycle of the run: 0 at the start pulse\n"
               "    assign now = rf_start ? 32'd0 : cyc;\n"
               "    always @(posedge clk) begin\n"
               "        if (rst) begin\n            run <= 1'b0;\n            cyc <= 32'd0;\n"
               "        end else begin\n            run <= rf_start || (run && !seg_done);\n"
               "            cyc <= now + 32'd1;\n        end\n"
               "        if (rf_start)\n            run_seg <= rf_cfg[31:0];\n    end\n");
    fprintf(b, "    assign rf_err[%d] = rf_start && rf_cfg[31:0] >= 32'd%d;\n", ERR_SEGMENT,
            p->nsegment);
    for (k = 0; k <= ERR_CH_MAX; k++) {
        int first = 1;
        fprintf(b, "    assign rf_err[%d] = ", k);
        for (i = 0; i < G->nch; i++)
            if (i == k || (k == ERR_CH_MAX && i > k)) {
                fprintf(b, "%sch_%s_err", first ? "" : " | ", G->ch[i].name);
                first = 0;
            }
        fprintf(b, "%s;\n", first ? "1'b0" : "");
    }
    fprintf(b, "\n");

    /* channels */
    for (i = 0; i < G->nch; i++) {
        const Chan *c = &G->ch[i];
        snprintf(pre, sizeof pre, "c_%s", c->name);
        decl_stream(d, pre, c->lanes);
        fprintf(c->kind == CH_OUT ? d : u, "    wire                  ch_%s_done;\n", c->name);
        fprintf(d, "    wire                  ch_%s_err;\n", c->name);
        fprintf(has_reader(G, i) ? d : u, "    wire [31:0]           ch_%s_fin;\n", c->name);
        emit_chan(G, b, u, i);
    }
    G->need |= 1u << T_RD_CHAN | 1u << T_CHAN_REPS | 1u << T_AXI_RD | 1u << T_WIDTH | 1u << T_FIFO;
    for (i = 0; i < G->nch; i++)
        if (G->ch[i].kind == CH_OUT)
            G->need |= 1u << T_WR_CHAN | 1u << T_AXI_WR;

    /* engines */
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        Cfg cfg[16];
        Sink sinks[MAX_SINKS];
        int ncfg, ns, j;
        int64_t beats = s->oh * s->ow * cdiv(s->cout, hls_out_lanes(s));
        safe_name(s->node, name, sizeof name);
        fprintf(b, "    // stage %d: %s (%s) on %s, segment %d\n", i, name, s->op, stage_module(s),
                s->segment);
        for (k = 0; k < s->nin; k++) {
            snprintf(pre, sizeof pre, "s%d_i%d", i, k);
            decl_stream(d, pre, hls_in_lanes(s));
            if (G->inch[2 * i + k] >= 0) {
                snprintf(cur, sizeof cur, "c_%s", G->ch[G->inch[2 * i + k]].name);
                join_stream(b, pre, cur);
            }
        }
        snprintf(pre, sizeof pre, "s%d_o", i);
        decl_stream(d, pre, hls_out_lanes(s));
        ncfg = stage_cfg(G->g, s, cfg);
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
        if (G->wch[i] >= 0) {
            snprintf(pre, sizeof pre, "c_%s", G->ch[G->wch[i]].name);
            conn_stream(b, "w", pre, 0);
        }
        snprintf(pre, sizeof pre, "s%d_o", i);
        conn_stream(b, "m", pre, 1);
        fprintf(b, "    );\n\n");

        /* perf: cycle of the last output beat of the first and the last frame */
        fprintf(d, "    reg  [31:0]           pf%d_n;\n    reg                   pf%d_f;\n"
                   "    reg  [31:0]           pf%d_a;\n    reg  [31:0]           pf%d_b;\n",
                i, i, i, i);
        fprintf(b,
                "    always @(posedge clk) begin\n"
                "        if (rst || rf_start) begin\n"
                "            pf%d_n <= 32'd0;\n            pf%d_f <= 1'b0;\n"
                "            pf%d_a <= 32'd0;\n            pf%d_b <= 32'd0;\n"
                "        end else if (s%d_o_tvalid && s%d_o_tready) begin\n"
                "            if (pf%d_n == 32'd%" PRId64 ") begin // beats per frame - 1\n"
                "                pf%d_n <= 32'd0;\n                pf%d_f <= 1'b1;\n"
                "                if (!pf%d_f)\n                    pf%d_a <= now;\n"
                "                pf%d_b <= now;\n"
                "            end else begin\n                pf%d_n <= pf%d_n + 32'd1;\n"
                "            end\n        end\n    end\n"
                "    assign rf_perf[%d:%d] = {pf%d_b, pf%d_a};\n\n",
                i, i, i, i, i, i, i, beats - 1, i, i, i, i, i, i, i, 64 * i + 63, 64 * i, i, i);

        /* the output's consumers */
        ns = nsinks(G, i, NULL);
        if (ns > MAX_SINKS)
            gir_die("rtl: stage %d has %d consumers (rtl_check lets through)", i, ns);
        nsinks(G, i, sinks);
        if (ns == 0) {
            /* a stage of the plan whose output nobody takes: keep it running */
            fprintf(b, "    assign s%d_o_tready = 1'b1;\n", i);
            fprintf(u, "    wire                  s%d_o_unused = &{1'b0, s%d_o_tdata};\n", i, i);
        }
        if (ns > 1) {
            fprintf(d, "    wire [%d:0]            s%d_fv;\n    wire [%d:0]            s%d_fr;\n",
                    ns - 1, i, ns - 1, i);
            fprintf(b,
                    "    kiln_fork #(\n        .WIDTH(%" PRId64 "),\n        .N(%d)\n    ) u_s%d_fork (\n"
                    "        .clk(clk),\n        .rst(rst),\n",
                    8 * hls_out_lanes(s), ns, i);
            snprintf(pre, sizeof pre, "s%d_o", i);
            conn_stream(b, "s", pre, 0);
            fprintf(b,
                    "        .m_tvalid(s%d_fv),\n        .m_tready(s%d_fr),\n"
                    "        .m_tdata(s%d_fd)\n    );\n",
                    i, i, i);
            fprintf(d, "    wire [%4" PRId64 ":0]          s%d_fd;\n", 8 * hls_out_lanes(s) - 1, i);
        }
        for (m = 0; m < ns; m++) {
            const Sink *t = &sinks[m];
            const HlsFifo *fifo = t->stage >= 0 ? edge_fifo(p, i, t->stage) : NULL;
            int64_t li = hls_out_lanes(s), lo = t->stage >= 0 ? hls_in_lanes(&p->stages[t->stage]) : li;
            if (t->stage >= 0)
                snprintf(dst, sizeof dst, "s%d_i%d", t->stage, t->port);
            else
                snprintf(dst, sizeof dst, "c_%s", G->ch[t->port].name);
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
        case HLS_ST_DWCONV:
            G->need |= 1u << T_DWCONV | 1u << T_CONV_WINDOW | 1u << T_REQUANT;
            break;
        case HLS_ST_ADD:
            G->need |= 1u << T_ADD | 1u << T_FIFO;
            break;
        case HLS_ST_REQUANT:
            G->need |= 1u << T_RQ_STAGE | 1u << T_REQUANT | 1u << T_FIFO;
            break;
        }
    }
    G->need |= 1u << T_REGFILE;

    fprintf(b,
            "    kiln_regfile #(\n        .N_CFG(%d),\n        .PLAN_HASH(64'h%016" PRIx64 "),\n"
            "        .ADDR_W(%d),\n        .N_PERF(%d)\n    ) u_regfile (\n"
            "        .clk(clk),\n        .rst(rst),\n",
            G->ncfg, G->hash, RF_ADDR_W, p->nstage);
    {
        static const char *const ax[] = {"awaddr", "awvalid", "awready", "wdata", "wstrb",
                                         "wvalid", "wready",  "bresp",   "bvalid", "bready",
                                         "araddr", "arvalid", "arready", "rdata", "rresp",
                                         "rvalid", "rready"};
        size_t q;
        for (q = 0; q < sizeof ax / sizeof ax[0]; q++)
            fprintf(b, "        .s_axil_%s(s_axil_%s),\n", ax[q], ax[q]);
    }
    fprintf(b, "        .start(rf_start),\n        .busy(rf_busy),\n        .done_in(rf_done),\n"
               "        .err_in(rf_err),\n        .cfg(rf_cfg),\n        .load(rf_load),\n"
               "        .perf(rf_perf)\n    );\n");

    fclose(d);
    fclose(b);
    fclose(u);
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

/* ---- register map, ports -------------------------------------------------- */

static const char *chan_kind(const Chan *c)
{
    return c->kind == CH_IN    ? "input map"
           : c->kind == CH_OUT ? (c->scratch ? "map read back inside the segment" : "output map")
                               : "weights";
}

static void emit_ports_h(Gen *G, FILE *f)
{
    int i, kind;
    fprintf(f, "/* AXI4 masters of kiln_top (generated by kiln compile): X(name, DATA_W);\n"
               " * the top's ports are m_axi_<name>_<signal>. */\n"
               "#ifndef KILN_PORTS_H\n#define KILN_PORTS_H\n\n");
    for (kind = 0; kind < 2; kind++) {
        fprintf(f, "#define %s(X)", kind == 0 ? "KILN_RD_CHANNELS" : "KILN_WR_CHANNELS");
        for (i = 0; i < G->nch; i++)
            if ((G->ch[i].kind == CH_OUT) == kind)
                fprintf(f, " \\\n    X(%s, %d)", G->ch[i].name, G->ch[i].data_w);
        fprintf(f, "\n");
    }
    fprintf(f, "\n#endif\n");
}

static void emit_regmap_h(Gen *G, FILE *f)
{
    const HlsPlan *p = G->p;
    char model[128], up[32];
    int i;
    safe_name(p->model, model, sizeof model);
    fprintf(f,
            "/* Register map of kiln_top (kiln_regfile), generated by kiln compile for\n"
            " * model %s on %s.  Byte offsets of 32-bit AXI-Lite registers. */\n"
            "#ifndef KILN_REGMAP_H\n#define KILN_REGMAP_H\n\n"
            "#define KILN_REG_CTRL    0x00u /* W: bit0 start, bit1 load resident weights */\n"
            "#define KILN_REG_STATUS  0x04u /* R: bit0 busy, bit1 done */\n"
            "#define KILN_REG_ERROR   0x08u /* R: sticky errors (bit per channel, bit 31 bad "
            "SEGMENT); W: one to clear */\n"
            "#define KILN_REG_CYCLES  0x0Cu /* R: cycles from start to done */\n"
            "#define KILN_REG_HASH_LO 0x10u /* R: plan hash [31:0] */\n"
            "#define KILN_REG_HASH_HI 0x14u /* R: plan hash [63:32] */\n"
            "#define KILN_REG_NCFG    0x18u /* R: cfg register count */\n"
            "#define KILN_REG_SEGMENT 0x40u /* R/W: FPGA segment a start runs */\n"
            "#define KILN_REG_FRAMES  0x44u /* R/W: frames per start */\n"
            "#define KILN_REG_PERF(i) (0x200u + 8u * (i)) /* R: stage i: +0 first, +4 last "
            "frame's last output beat cycle */\n\n"
            "#define KILN_PLAN_HASH   0x%016" PRIx64 "ull\n"
            "#define KILN_AXIL_ADDR_BITS %d\n"
            "#define KILN_N_SEGMENTS  %d\n#define KILN_N_STAGES    %d\n"
            "#define KILN_N_CHANNELS  %d\n#define KILN_N_INPUTS    %d\n#define KILN_N_OUTPUTS   %d\n"
            "#define KILN_ERR_SEGMENT %d\n\n",
            model, p->board.name, G->hash, RF_ADDR_W, p->nsegment, p->nstage, G->nch, G->nin,
            G->nout, ERR_SEGMENT);
    for (i = 0; i < G->nch; i++) {
        const Chan *c = &G->ch[i];
        upper(c->name, up, sizeof up);
        fprintf(f, "/* %s: %s, segment %d, stage %d */\n", c->name, chan_kind(c), c->seg, c->stage);
        if (c->src >= 0)
            fprintf(f, "/*   reads %s's buffer (its base registers) once each frame is written */\n",
                    G->ch[c->src].name);
        else
            fprintf(f, "#define KILN_REG_%s_BASE_LO 0x%03Xu\n#define KILN_REG_%s_BASE_HI 0x%03Xu\n",
                    up, 0x40 + 4 * c->cfg, up, 0x40 + 4 * (c->cfg + 1));
        fprintf(f, "#define KILN_%s_DATA_W %d\n#define KILN_%s_LANES %" PRId64 "\n", up, c->data_w,
                up, c->lanes);
        fprintf(f, "#define KILN_%s_BYTES %" PRId64 "\n#define KILN_%s_ERR_BIT %d\n", up,
                c->kind == CH_W ? c->bytes : c->frame,
                up, i < ERR_CH_MAX ? i : ERR_CH_MAX);
    }
    fprintf(f, "\n#endif\n");
}

static void emit_regmap_json(Gen *G, FILE *f)
{
    const HlsPlan *p = G->p;
    char model[128], name[160];
    int i, seg, first;
    safe_name(p->model, model, sizeof model);
    fprintf(f,
            "{\n  \"kiln_regmap\": 2,\n  \"model\": \"%s\",\n  \"board\": \"%s\",\n"
            "  \"plan_hash\": \"0x%016" PRIx64 "\",\n  \"axil_addr_bits\": %d,\n"
            "  \"registers\": [\n"
            "    {\"name\": \"CTRL\", \"offset\": 0, \"access\": \"w\"},\n"
            "    {\"name\": \"STATUS\", \"offset\": 4, \"access\": \"r\"},\n"
            "    {\"name\": \"ERROR\", \"offset\": 8, \"access\": \"rw1c\"},\n"
            "    {\"name\": \"CYCLES\", \"offset\": 12, \"access\": \"r\"},\n"
            "    {\"name\": \"HASH_LO\", \"offset\": 16, \"access\": \"r\"},\n"
            "    {\"name\": \"HASH_HI\", \"offset\": 20, \"access\": \"r\"},\n"
            "    {\"name\": \"NCFG\", \"offset\": 24, \"access\": \"r\"},\n"
            "    {\"name\": \"SEGMENT\", \"offset\": 64, \"access\": \"rw\"},\n"
            "    {\"name\": \"FRAMES\", \"offset\": 68, \"access\": \"rw\"}",
            model, p->board.name, G->hash, RF_ADDR_W);
    for (i = 0; i < G->nch; i++) {
        char up[32];
        if (G->ch[i].src >= 0)
            continue; /* reads its writer's buffer: the writer's registers */
        upper(G->ch[i].name, up, sizeof up);
        fprintf(f,
                ",\n    {\"name\": \"%s_BASE_LO\", \"offset\": %d, \"access\": \"rw\"},\n"
                "    {\"name\": \"%s_BASE_HI\", \"offset\": %d, \"access\": \"rw\"}",
                up, 0x40 + 4 * G->ch[i].cfg, up, 0x40 + 4 * (G->ch[i].cfg + 1));
    }
    fprintf(f, "\n  ],\n  \"segments\": [");
    for (seg = 0; seg < p->nsegment; seg++) {
        /* the buffers the host gives: inputs, results, maps read back inside the
         * segment, weight sets (readers of scratch maps use their writer's) */
        static const ChKind order[4] = {CH_IN, CH_OUT, CH_OUT, CH_W};
        static const char *const key[4] = {"inputs", "outputs", "scratch", "weights"};
        int kk;
        fprintf(f, "%s\n    {\"index\": %d, \"stages\": [", seg ? "," : "", seg);
        for (i = 0, first = 1; i < p->nstage; i++)
            if (p->stages[i].segment == seg) {
                fprintf(f, "%s%d", first ? "" : ", ", i);
                first = 0;
            }
        fprintf(f, "]");
        for (kk = 0; kk < 4; kk++) {
            fprintf(f, ", \"%s\": [", key[kk]);
            for (i = 0, first = 1; i < G->nch; i++)
                if (G->ch[i].seg == seg && G->ch[i].kind == order[kk] && G->ch[i].src < 0 &&
                    G->ch[i].scratch == (kk == 2)) {
                    fprintf(f, "%s\"%s\"", first ? "" : ", ", G->ch[i].name);
                    first = 0;
                }
            fprintf(f, "]");
        }
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"channels\": [");
    for (i = 0; i < G->nch; i++) {
        const Chan *c = &G->ch[i];
        safe_name(p->stages[c->stage].node, name, sizeof name);
        fprintf(f,
                "%s\n    {\"name\": \"%s\", \"dir\": \"%s\", \"data_w\": %d, \"segment\": %d, "
                "\"stage\": %d, \"layer\": \"%s\", \"lanes\": %" PRId64 ", \"beats\": %" PRId64
                ", \"error_bit\": %d, ",
                i ? "," : "", c->name, c->kind == CH_OUT ? "wr" : "rd", c->data_w, c->seg,
                c->stage, name, c->lanes, c->beats, i < ERR_CH_MAX ? i : ERR_CH_MAX);
        if (c->kind == CH_W) {
            fprintf(f, "\"resident\": %s, \"offset\": %" PRId64 ", \"bytes\": %" PRId64 ", ",
                    c->resident ? "true" : "false", c->offset, c->bytes);
        } else {
            safe_name(c->value, name, sizeof name);
            fprintf(f,
                    "\"value\": \"%s\", \"port\": %d, \"h\": %" PRId64 ", \"w\": %" PRId64
                    ", \"c\": %" PRId64 ", \"frame_bytes\": %" PRId64 ", ",
                    name, c->kind == CH_IN ? c->port : 0, c->h, c->w, c->c, c->frame);
            if (c->subs > 1)
                fprintf(f, "\"subs\": %" PRId64 ", ", c->subs);
            if (c->src >= 0)
                fprintf(f, "\"source\": \"%s\", ", G->ch[c->src].name);
            if (c->scratch)
                fprintf(f, "\"scratch\": true, ");
        }
        fprintf(f, "\"base_lo\": \"0x%X\", \"base_hi\": \"0x%X\"}", 0x40 + 4 * c->cfg,
                0x40 + 4 * (c->cfg + 1));
    }
    fprintf(f, "\n  ],\n  \"weights\": [");
    for (i = 0, first = 1; G->quant && i < G->nch; i++) {
        const Chan *c = &G->ch[i];
        if (c->kind != CH_W)
            continue;
        fprintf(f,
                "%s\n    {\"channel\": \"%s\", \"stage\": %d, \"offset\": %" PRId64
                ", \"bytes\": %" PRId64 ", \"resident\": %s}",
                first ? "" : ",", c->name, c->stage, c->offset, c->bytes,
                c->resident ? "true" : "false");
        first = 0;
    }
    fprintf(f, "%s],\n  \"weights_bytes\": %" PRId64 ",\n  \"perf\": [", first ? "" : "\n  ",
            G->quant ? G->wbytes : 0);
    for (i = 0; i < p->nstage; i++) {
        safe_name(p->stages[i].node, name, sizeof name);
        fprintf(f, "%s\n    {\"stage\": %d, \"layer\": \"%s\", \"segment\": %d, \"offset\": \"0x%X\"}",
                i ? "," : "", i, name, p->stages[i].segment, 0x200 + 8 * i);
    }
    fprintf(f, "\n  ]\n}\n");
}

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

/* The weight image: every weight channel's stream at its offset. */
static int write_weights(Gen *G, const char *dir, GirError *e)
{
    uint8_t *img = calloc((size_t)G->wbytes + 1, 1);
    int i, rc;
    if (!img)
        gir_die("out of memory");
    for (i = 0; i < G->nch; i++) {
        const Chan *c = &G->ch[i];
        const HlsStage *s = &G->p->stages[c->stage];
        ConvQ q;
        if (c->kind != CH_W)
            continue;
        if (conv_q(G->g, s, &q, e) != 1) {
            free(img);
            return -1;
        }
        if (s->kind == HLS_ST_DWCONV)
            dw_image(s, &q, img + c->offset);
        else
            conv_image(s, &q, img + c->offset);
    }
    rc = write_text(dir, "weights.bin", (const char *)img, (size_t)G->wbytes, e);
    free(img);
    return rc;
}

/* The design's DDR buffers for one frame must fit the board's DDR: the
 * weight image, every buffer a writer fills and every input the host fills.
 * An input that reads a writer's buffer inside its segment has none of its
 * own, and a value read or written by several channels counts once.  0, or
 * -1 + e naming both sizes. */
static int check_ddr_size(const Gen *G, GirError *e)
{
    int i, j, dup;
    int64_t frames = 0;
    for (i = 0; i < G->nch; i++) {
        const Chan *c = &G->ch[i];
        if (c->kind == CH_W || (c->kind == CH_IN && c->src >= 0))
            continue;
        for (dup = 0, j = 0; j < i && !dup; j++)
            dup = G->ch[j].kind != CH_W && G->ch[j].value && c->value &&
                  strcmp(G->ch[j].value, c->value) == 0;
        if (!dup)
            frames += c->frame;
    }
    if (G->wbytes + frames <= G->p->board.ddr_bytes)
        return 0;
    return gir_error_at(e, gir_loc_none(),
                        "rtl: the design's DDR buffers take %" PRId64 " bytes (weights %" PRId64
                        ", frame buffers %" PRId64 "), more than the %" PRId64 " bytes of DDR of %s",
                        G->wbytes + frames, G->wbytes, frames, G->p->board.ddr_bytes,
                        G->p->board.name);
}

int rtl_write(const HlsPlan *p, const GirGraph *g, const char *dir, GirError *e)
{
    char rdir[4096];
    Gen G;
    int i, rc = 0;
    if (rtl_check(p, g, e) < 0)
        return -1;
    memset(&G, 0, sizeof G);
    G.p = p;
    G.g = g;
    G.hash = rtl_plan_hash(p);
    G.quant = graph_quantized(p, g, e);
    gen_channels(&G);
    if (check_ddr_size(&G, e) < 0) {
        gen_free(&G);
        return -1;
    }
    snprintf(rdir, sizeof rdir, "%s/rtl", dir);
    if (mkdir(rdir, 0777) != 0 && errno != EEXIST)
        rc = gir_error_at(e, gir_loc_none(), "rtl: cannot create %s: %s", rdir, strerror(errno));
    if (rc == 0)
        rc = write_emitted(rdir, "kiln_top.v", emit_top, &G, e);
    if (rc == 0)
        rc = write_text(rdir, "kiln_fork.v", fork_v, sizeof fork_v - 1, e);
    if (rc == 0)
        rc = write_emitted(rdir, "kiln_ports.h", emit_ports_h, &G, e);
    if (rc == 0)
        rc = write_emitted(rdir, "regmap.h", emit_regmap_h, &G, e);
    if (rc == 0)
        rc = write_emitted(rdir, "regmap.json", emit_regmap_json, &G, e);
    if (rc == 0 && G.quant && G.wbytes > 0)
        rc = write_weights(&G, rdir, e);
    for (i = 0; rc == 0 && i < T_COUNT; i++)
        if (G.need & (1u << i))
            rc = copy_template(rdir, tpl_files[i], e);
    gen_free(&G);
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
