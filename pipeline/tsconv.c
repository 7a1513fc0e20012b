/*
 * tsconv.c: the time-shared conv engine of a plan that folds layers
 * (hls/plan_fold.c): its kiln_tsconv instance in kiln_top, its descriptor
 * table and weight streams in weights.bin, its maps and regmap.json's
 * "tsconv" object (docs/rtl-pipeline.md).
 *
 * The engine runs in parts (hls/plan_fold.c): a start with SEGMENT = the
 * plan's segment count + j runs part j, its range of the table, FRAMES
 * times, layer after layer: a start of unit 0 (CTRL bit0, as a dataflow
 * segment's) or of the engine's unit (unit n, n the plan's segment count:
 * kiln_regfile UNITS n + 1, CTRL bit n+1, STATUS bits 2n and 2n+1, CYCLES
 * at 0x20 + 4(n-1)), which runs it beside the dataflow segments' units
 * (segment k on unit k).  Its three masters are the channels
 * ts0 (descriptors, then each layer's weights), ts1 (input maps), ts2
 * (output maps) and, with WCH 2, ts3 (the second half of each layer's
 * weights: hls_tsconv_wsplit's layout in weights.bin, its own HP port); TS0_BASE_LO/HI hold the table's DDR address.  The table
 * in weights.bin holds map addresses as offsets into the map region (words
 * 4-5 input, 8-9 output) and weight addresses as offsets into weights.bin
 * (words 6-7): the host adds the two bases once it has placed them.
 */
#include "pipeline/internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hls/hw.h"
#include "hls/res_util.h"

static int64_t round_up(int64_t a, int64_t b)
{
    return hls_cdiv(a, b) * b;
}

/* The graph node named name, or -1. */
static int node_named(const GirGraph *g, const char *name)
{
    int i;
    for (i = 0; g && i < g->nnode; i++)
        if (g->nodes[i].name && !strcmp(g->nodes[i].name, name))
            return i;
    return -1;
}

/* Folded layer i as the conv stage the weight and value helpers take. */
static HlsStage fold_stage(const HlsPlan *p, int i, int node)
{
    const HlsFoldLayer *l = &p->fold.layers[i];
    HlsStage s;
    memset(&s, 0, sizeof s);
    s.node = l->node;
    s.node_id = node;
    s.kind = HLS_ST_CONV;
    s.h = l->h, s.w = l->w, s.cin = l->cin, s.cout = l->cout;
    s.k = l->k, s.stride = l->stride, s.pad = l->pad, s.oh = l->oh, s.ow = l->ow;
    s.qlo = l->qlo, s.qhi = l->qhi;
    s.pe_ic = s.pe_oc = p->fold.pe;
    return s;
}

/* The map of value v (shape h x w x c) in m, added with role when new. */
static int map_of(RtlTsMaps *m, const char *v, int64_t h, int64_t w, int64_t c, int role,
                  int64_t pe)
{
    int k;
    for (k = 0; k < m->nmap; k++)
        if (!strcmp(m->map[k].value, v))
            return k;
    m->map[k].value = v;
    m->map[k].h = h, m->map[k].w = w, m->map[k].c = c;
    m->map[k].role = role;
    m->map[k].bytes = round_up(h * w * hls_cdiv(c, pe) * pe, HLS_HW_FRAME_ALIGN);
    m->map[k].offset = m->bytes;
    m->bytes += round_up(m->map[k].bytes, HLS_HW_W_ALIGN);
    m->nmap++;
    return k;
}

int rtl_ts_maps(const Gen *G, RtlTsMaps *m, GirError *e)
{
    const HlsPlan *p = G->p;
    const GirGraph *g = G->g;
    int n = p->fold.n, i, j, k;
    memset(m, 0, sizeof *m);
    m->map = calloc((size_t)(2 * n + 1), sizeof *m->map);
    m->x = calloc((size_t)n + 1, sizeof *m->x);
    m->y = calloc((size_t)n + 1, sizeof *m->y);
    m->node = calloc((size_t)n + 1, sizeof *m->node);
    if (!m->map || !m->x || !m->y || !m->node)
        gir_die("out of memory");
    for (i = 0; i < n; i++) {
        const HlsFoldLayer *l = &p->fold.layers[i];
        HlsStage s;
        const char *xv, *yv;
        int uses = 0, v;
        m->node[i] = node_named(g, l->node);
        if (m->node[i] < 0)
            return gir_error_at(e, gir_loc_none(), "rtl: folded layer '%s' is not a node of the "
                                "graph", l->node);
        s = fold_stage(p, i, m->node[i]);
        xv = rtl_stage_in_value(g, &s, 0);
        yv = rtl_stage_out_value(g, &s);
        m->x[i] = map_of(m, xv, l->h, l->w, l->cin, 0, p->fold.pe);
        if (m->map[m->x[i]].h != l->h || m->map[m->x[i]].w != l->w || m->map[m->x[i]].c != l->cin)
            return gir_error_at(e, gir_loc_none(), "rtl: folded layer '%s': its input '%s' is "
                                "not a %" PRId64 "x%" PRId64 "x%" PRId64 " map", l->node, xv,
                                l->h, l->w, l->cin);
        /* an output read outside the engine (a stage, a CPU node, a graph
         * output) is one the host takes; else scratch */
        v = gir_find_value(g, yv);
        for (j = 0; v >= 0 && j < g->nnode; j++)
            for (k = 0; k < g->nodes[j].nin; k++)
                if (g->nodes[j].in[k] == v) {
                    int folded = 0, q;
                    for (q = 0; q < n; q++)
                        folded |= node_named(g, p->fold.layers[q].node) == j;
                    uses += !folded;
                }
        for (j = 0; v >= 0 && j < g->noutput; j++)
            uses += g->outputs[j] == v;
        m->y[i] = map_of(m, yv, l->oh, l->ow, l->cout, uses ? 1 : 2, p->fold.pe);
    }
    return 0;
}

void rtl_ts_maps_free(RtlTsMaps *m)
{
    free(m->map);
    free(m->x);
    free(m->y);
    free(m->node);
    memset(m, 0, sizeof *m);
}

/* A layer's weight stream at w (beats of pe bytes) laid out in place as
 * kiln_tsconv's two masters read it (hls_tsconv_wsplit). */
static int ts_split(uint8_t *w, int64_t beats, int64_t pe, int64_t wbytes)
{
    uint8_t *st = malloc((size_t)wbytes);
    int rc;
    if (!st)
        gir_die("out of memory");
    memcpy(st, w, (size_t)(beats * pe));
    rc = hls_tsconv_wsplit(st, beats, pe, 2, w, wbytes);
    free(st);
    return rc;
}

int rtl_ts_image(const Gen *G, uint8_t *img, GirError *e)
{
    const HlsPlan *p = G->p;
    const HlsChan *t = &G->c.ch[G->c.ts];
    const HlsEngineDesc *desc = hls_engine_find("kiln_tsconv");
    int wch = desc ? (int)p->fold.hw[hls_param_index(desc->hw_params, "WCH")] : 1;
    RtlTsMaps m;
    int i;
    if (rtl_ts_maps(G, &m, e) < 0) {
        rtl_ts_maps_free(&m);
        return -1;
    }
    for (i = 0; i < p->fold.n; i++) {
        const HlsFoldLayer *l = &p->fold.layers[i];
        HlsStage s = fold_stage(p, i, m.node[i]);
        int64_t woff = t->offset + hls_fold_woffset(p, i);
        HlsTsLayer d = {l->h, l->w, l->cin, l->cout, l->k, l->stride, l->pad, l->tog,
                        l->qlo, l->qhi, (uint64_t)m.map[m.x[i]].offset, (uint64_t)woff,
                        (uint64_t)m.map[m.y[i]].offset, wch};
        uint32_t w[32];
        HlsTsBytes tb;
        int k;
        if (hls_tsconv_desc(&d, p->fold.pe, t->data_w / 8, w, &tb) < 0 ||
            rtl_conv_stream(G->g, &s, img + woff, e) < 0 ||
            (wch == 2 && ts_split(img + woff, (int64_t)w[14], p->fold.pe, tb.wbytes) < 0)) {
            rtl_ts_maps_free(&m);
            if (e && !e->msg[0])
                gir_error_at(e, gir_loc_none(), "rtl: folded layer '%s' does not pack into a "
                             "kiln_tsconv descriptor", l->node);
            return -1;
        }
        for (k = 0; k < 32; k++) {
            uint8_t *b = img + t->offset + 128 * i + 4 * k;
            b[0] = (uint8_t)w[k], b[1] = (uint8_t)(w[k] >> 8);
            b[2] = (uint8_t)(w[k] >> 16), b[3] = (uint8_t)(w[k] >> 24);
        }
    }
    rtl_ts_maps_free(&m);
    return 0;
}

void rtl_ts_json(const Gen *G, FILE *f)
{
    const HlsPlan *p = G->p;
    const HlsChan *t = &G->c.ch[G->c.ts];
    static const char *const role[] = {"input", "output", "scratch"};
    char name[160];
    RtlTsMaps m;
    GirError e;
    int i;
    memset(&e, 0, sizeof e);
    if (rtl_ts_maps(G, &m, &e) < 0) /* rtl_write's check said so already */
        gir_die("rtl: %s", e.msg);
    fprintf(f,
            ",\n  \"tsconv\": {\"segment\": %d, \"unit\": %d, \"frames_in_flight\": %d, "
            "\"steps\": %s, \"gate\": %d, \"layers\": %d, \"lanes\": %d, \"data_w\": %d, "
            "\"table_offset\": %" PRId64 ", \"bytes\": %" PRId64 ", \"maps_bytes\": %" PRId64
            ", \"base_lo\": \"0x%X\", \"base_hi\": \"0x%X\", \"cycles\": %" PRId64 ",\n"
            "    \"relocate\": \"descriptor words 4-5 (input) and 8-9 (output) + the map region's "
            "address, words 6-7 (weights) + weights.bin's address\",\n    \"descriptors\": [",
            t->seg, t->seg, p->fold.flight, p->fold.steps ? "true" : "false", p->fold.gate, p->fold.n, p->fold.pe, t->data_w, t->offset, t->bytes, m.bytes,
            HLS_HW_RF_CFG + 4 * t->cfg, HLS_HW_RF_CFG + 4 * (t->cfg + 1), p->fold.cycles);
    for (i = 0; i < p->fold.n; i++) {
        rtl_safe_name(p->fold.layers[i].node, name, sizeof name);
        fprintf(f, "%s\n      {\"layer\": \"%s\", \"input\": %d, \"output\": %d, "
                   "\"weights_offset\": %" PRId64 ", \"cycles\": %" PRId64 "}",
                i ? "," : "", name, m.x[i], m.y[i], t->offset + hls_fold_woffset(p, i),
                p->fold.layers[i].cycles);
    }
    fprintf(f, "\n    ],\n    \"parts\": [");
    for (i = 0; i < p->fold.npart; i++)
        fprintf(f, "%s\n      {\"segment\": %d, \"first\": %d, \"count\": %d, \"cycles\": %" PRId64
                   "}", i ? "," : "", p->fold.parts[i].seg, p->fold.parts[i].first,
                p->fold.parts[i].count, p->fold.parts[i].cycles);
    fprintf(f, "\n    ],\n    \"segment_order\": [");
    for (i = 0; i < p->nsegment + p->fold.npart; i++)
        fprintf(f, "%s%d", i ? ", " : "", p->fold.order[i]);
    fprintf(f, "],\n    \"maps\": [");
    for (i = 0; i < m.nmap; i++) {
        int seg = -1, k;
        /* the part that writes it, else the first that reads it: the host
         * writes an input before that part, reads an output after it */
        for (k = 0; k < p->fold.n; k++)
            if (m.y[k] == i || (m.x[k] == i && seg < 0))
                seg = p->fold.parts[p->fold.layers[k].part].seg;
        rtl_safe_name(m.map[i].value, name, sizeof name);
        fprintf(f, "%s\n      {\"value\": \"%s\", \"role\": \"%s\", \"segment\": %d, "
                   "\"offset\": %" PRId64 ", \"h\": %" PRId64 ", \"w\": %" PRId64
                   ", \"c\": %" PRId64 ", \"frame_bytes\": %" PRId64 "}",
                i ? "," : "", name, role[m.map[i].role], seg, m.map[i].offset, m.map[i].h,
                m.map[i].w, m.map[i].c, m.map[i].bytes);
    }
    fprintf(f, "\n    ]}");
    rtl_ts_maps_free(&m);
}

void rtl_ts_top(Gen *G, FILE *d, FILE *u, FILE *b)
{
    const HlsPlan *p = G->p;
    const HlsEngineDesc *desc = hls_engine_find("kiln_tsconv");
    const HlsChan *t = &G->c.ch[G->c.ts];
    static const char *const rd[] = {"arvalid", "arready", "araddr", "arlen", "arsize", "arburst",
                                     "rvalid", "rready", "rdata", "rresp", "rlast", NULL};
    static const char *const wr[] = {"awvalid", "awready", "awaddr", "awlen", "awsize",
                                     "awburst", "wvalid", "wready", "wdata", "wstrb", "wlast",
                                     "bvalid", "bready", "bresp", NULL};
    int lo = 32 * t->cfg, hi = 32 * (t->cfg + 1), j, m, nm;
    if (!desc)
        gir_die("rtl: engine kiln_tsconv is not built");
    /* WCH 2: master 3, the weights' second half (channel ts3) */
    nm = p->fold.hw[hls_param_index(desc->hw_params, "WCH")] == 2 ? 4 : 3;
    fprintf(d, "    wire                  ch_ts0_err;\n    wire                  ch_ts1_err;\n"
               "    wire                  ch_ts2_err;\n    wire                  ch_ts2_done;\n");
    if (nm == 4)
        fprintf(d, "    wire                  ch_ts3_err;\n");
    fprintf(u, "    wire                  ts_busy;\n    wire [31:0]           ts_finished;\n"
               "    wire [15:0]           ts_layer;\n");
    fprintf(d, "    wire                  ts_go;\n    wire [%d:0]           ts_first;\n"
               "    wire [15:0]           ts_count;\n", HLS_HW_ADDR_W - 1);
    fprintf(b, "    // the time-shared conv engine: %d folded layers in %d parts; a start with\n"
               "    // SEGMENT = %d + j runs part j, its table range (TS0_BASE + 128 * first,\n"
               "    // count descriptors) FRAMES times; the engine's unit beside the others\n"
               "    assign ch_ts1_err = 1'b0;\n    assign ch_ts2_err = 1'b0;\n%s    assign ts_go = ",
            p->fold.n, p->fold.npart, t->seg, nm == 4 ? "    assign ch_ts3_err = 1'b0;\n" : "");
    for (j = 0; j < p->fold.npart; j++)
        fprintf(b, "%sseg%d_go", j ? " | " : "", p->fold.parts[j].seg);
    fprintf(b, " |\n                   (rf_start_e && rf_cfg[31:0] >= 32'd%d && rf_cfg[31:0] < "
               "32'd%d);\n    assign ts_first = ", t->seg, G->c.nsel);
    for (j = 0; j < p->fold.npart; j++)
        fprintf(b, "rf_cfg[31:0] == 32'd%d ? %d'd%d :\n                      ",
                p->fold.parts[j].seg, HLS_HW_ADDR_W, 128 * p->fold.parts[j].first);
    fprintf(b, "%d'd0;\n    assign ts_count = ", HLS_HW_ADDR_W);
    for (j = 0; j < p->fold.npart; j++)
        fprintf(b, "rf_cfg[31:0] == 32'd%d ? 16'd%d :\n                      ",
                p->fold.parts[j].seg, p->fold.parts[j].count);
    fprintf(b, "16'd0;\n%s    kiln_tsconv #(\n",
            nm == 3 ? "    /* verilator lint_off PINCONNECTEMPTY */ // master 3 idle (WCH 1)\n" : "");
    for (j = 0; desc->hw_params[j]; j++) {
        int k = j + 1;
        if (!rtl_param_shown(desc->hw_params[j], p->fold.hw[j]))
            continue;
        while (desc->hw_params[k] && !rtl_param_shown(desc->hw_params[k], p->fold.hw[k]))
            k++;
        fprintf(b, "        .%s(%" PRId64 ")%s\n", desc->hw_params[j], p->fold.hw[j],
                desc->hw_params[k] ? "," : "");
    }
    fprintf(b,
            "    ) u_tsconv (\n        .clk(clk),\n        .clk2x(%s),\n        .rst(rst),\n"
            "        .cfg_desc_base({rf_cfg[%d:%d], rf_cfg[%d:%d]} + ts_first),\n"
            "        .cfg_layers(ts_count),\n        .cfg_frames(rf_frames),\n"
            "        .cfg_tbl_base({rf_cfg[%d:%d], rf_cfg[%d:%d]}),\n        .cfg_tbl_len(16'd%d),\n"
            "        .avail(32'hFFFFFFFF),\n        .finished(ts_finished),\n"
            "        .start(ts_go),\n        .busy(ts_busy),\n        .done(ch_ts2_done),\n"
            "        .error(ch_ts0_err),\n        .layer(ts_layer),\n",
            p->fold.dsp2x ? "clk2x" : "1'b0", hi + HLS_HW_ADDR_W - 32 - 1, hi, lo + 31, lo,
            hi + HLS_HW_ADDR_W - 32 - 1, hi, lo + 31, lo, p->fold.n);
    for (m = 0; m < nm; m++) {
        const char *const *s = m == 2 ? wr : rd;
        for (j = 0; s[j]; j++)
            fprintf(b, "        .m%d_axi_%s(m_axi_ts%d_%s)%s\n", m, s[j], m, s[j],
                    nm == 4 && m == 3 && !s[j + 1] ? "" : ",");
    }
    if (nm == 3) /* WCH 1: master 3's outputs open, its inputs idle */
        fprintf(b, "        .m3_axi_arvalid(), .m3_axi_arready(1'b0), .m3_axi_araddr(),\n"
                   "        .m3_axi_arlen(), .m3_axi_arsize(), .m3_axi_arburst(),\n"
                   "        .m3_axi_rvalid(1'b0), .m3_axi_rready(), .m3_axi_rdata(%d'd0),\n"
                   "        .m3_axi_rresp(2'b00), .m3_axi_rlast(1'b0)\n"
                   "    );\n    /* verilator lint_on PINCONNECTEMPTY */\n\n",
                t->data_w);
    else
        fprintf(b, "    );\n\n");
    G->need |= 1u << T_TSCONV | 1u << T_CONV | 1u << T_CONV_WINDOW | 1u << T_MAC2 | 1u << T_ADD3 |
               1u << T_REQUANT | 1u << T_RD_CHAN | 1u << T_WR_CHAN | 1u << T_AXI_RD |
               1u << T_AXI_WR | 1u << T_CHAN_REPS | 1u << T_WIDTH | 1u << T_FIFO;
}
