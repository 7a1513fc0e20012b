/*
 * stage.c: what the generator reads off a stage and its graph node: the
 * engine's run-time cfg_* values, its Verilog module, its source location,
 * its skip FIFOs, and names made safe for the generated text.
 */
#include <string.h>

#include "pipeline/internal.h"

#include "hls/res_util.h"

GirLoc rtl_stage_loc(const GirGraph *g, const HlsStage *s)
{
    if (g && s->node_id >= 0 && s->node_id < g->nnode)
        return g->nodes[s->node_id].loc;
    return gir_loc_none();
}

void rtl_safe_name(const char *in, char *out, size_t size)
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

int rtl_param_shown(const char *name, int64_t value)
{
    if (!strcmp(name, "RQ_DSP")) /* the template's default, 2, unnamed */
        return value == 1;
    if (strcmp(name, "WCH") == 0) /* kiln_tsconv's default, one weight master */
        return value > 1;
    return value != 0 || strcmp(name, "LBBANK") != 0;
}

void rtl_upper(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; *in && n + 1 < size; in++)
        out[n++] = (char)(*in >= 'a' && *in <= 'z' ? *in - 'a' + 'A' : *in);
    out[n] = 0;
}

const HlsFifo *rtl_edge_fifo(const HlsPlan *p, int from, int to)
{
    int i;
    for (i = 0; i < p->nfifo; i++)
        if (p->fifos[i].from == from && p->fifos[i].to == to)
            return &p->fifos[i];
    return NULL;
}

const char *rtl_stage_module(const HlsStage *s)
{
    return s->kind == HLS_ST_REQUANT ? "kiln_rq_stage" : s->desc->name;
}

const int64_t *rtl_node_ints(const GirGraph *g, const HlsStage *s, const char *name)
{
    int cnt = 0;
    const int64_t *v;
    if (!g || s->node_id < 0 || s->node_id >= g->nnode)
        return NULL;
    v = gir_attr_ints(&g->nodes[s->node_id], name, &cnt);
    return v && cnt >= 1 ? v : NULL;
}

/* The cfg_* ports of stage s (returns the count).  Rescale values of an
 * int8 Add or Requantize come from its node's rq_* attributes (two's
 * complement in the port's width); an fp32 Add gets the plan's 1, 1, 0. */
int rtl_stage_cfg(const GirGraph *g, const HlsStage *s, Cfg *c)
{
    int n = 0;
#define CFG(name, b, v) (c[n].port = (name), c[n].bits = (b), c[n].value = (v), n++)
    switch (s->kind) {
    case HLS_ST_CONV: {
        int64_t ocg = hls_cdiv(s->cout, s->pe_oc);
        int64_t tog = s->whome == HLS_W_DDR && s->tog > 0 ? s->tog : ocg;
        CFG("cfg_h", 16, s->h);
        CFG("cfg_w", 16, s->w);
        CFG("cfg_icg", 16, hls_cdiv(s->cin, s->pe_ic));
        CFG("cfg_ocg", 16, ocg);
        CFG("cfg_tog", 16, tog);
        CFG("cfg_k", 4, s->k);
        CFG("cfg_stride", 2, s->stride);
        CFG("cfg_pad", 4, s->pad);
        CFG("cfg_wreload", 1, s->whome == HLS_W_DDR);
        CFG("cfg_band", 16, s->band); /* 0: the plain tile order */
        break;
    }
    case HLS_ST_MAXPOOL:
        CFG("cfg_h", 16, s->h);
        CFG("cfg_w", 16, s->w);
        CFG("cfg_cg", 16, hls_cdiv(s->cin, s->lanes));
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
        CFG("cfg_cg", 16, hls_cdiv(s->cin, s->lanes));
        CFG("cfg_f", 4, s->k);
        break;
    case HLS_ST_CONCAT:
        CFG("cfg_ca", 16, s->cin);
        CFG("cfg_cb", 16, s->cin2);
        break;
    case HLS_ST_DWCONV:
        CFG("cfg_h", 16, s->h);
        CFG("cfg_w", 16, s->w);
        CFG("cfg_cg", 16, hls_cdiv(s->cin, s->lanes));
        CFG("cfg_k", 4, s->k);
        CFG("cfg_stride", 2, s->stride);
        CFG("cfg_pad", 4, s->pad);
        CFG("cfg_wreload", 1, s->whome == HLS_W_DDR);
        break;
    case HLS_ST_ADD: {
        const int64_t *ma = rtl_node_ints(g, s, "rq_m_a"), *mb = rtl_node_ints(g, s, "rq_m_b");
        const int64_t *sh = rtl_node_ints(g, s, "rq_shift");
        int q = ma && mb && sh;
        CFG("cfg_ma", 16, (q ? ma[0] : 1) & 0xFFFF);
        CFG("cfg_mb", 16, (q ? mb[0] : 1) & 0xFFFF);
        CFG("cfg_shift", 6, q ? sh[0] : 0);
        break;
    }
    case HLS_ST_LUT: /* the tables are a parameter (top.c) */
        break;
    case HLS_ST_REQUANT: {
        const int64_t *m = rtl_node_ints(g, s, "rq_m"), *sh = rtl_node_ints(g, s, "rq_shift");
        CFG("cfg_m", 16, (m ? m[0] : 1) & 0xFFFF);
        CFG("cfg_shift", 6, sh ? sh[0] : 0);
        break;
    }
    }
#undef CFG
    return n;
}
