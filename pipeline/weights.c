/*
 * weights.c: the weight image weights.bin of an int8 graph: each weight
 * channel's stream, in kiln_conv or kiln_dwconv order, at the channel's
 * offset (hls_plan_channels aligns them to HLS_HW_W_ALIGN).  A conv's
 * stream holds per output group three parameter beats per output channel
 * (bias, multipliers, shift) and its K x K x ICG weight beats.
 */
#include "pipeline/internal.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>

#include "graphir/requant.h"
#include "hls/res_util.h"

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
    int c1, c2, c3, c4 = 0, c5 = 0;
    GirLoc loc = rtl_stage_loc(g, s);
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
    if ((amin ? amin[0] : -128) != s->qlo || (amax ? amax[0] : 127) != s->qhi || c4 > 1 || c5 > 1)
        return gir_error_at(e, loc, "rtl: %s: act_min/act_max of the node are not the plan's "
                            "output clamp [%d, %d]", s->node, s->qlo, s->qhi);
    return 1;
}

static void put32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16), b[3] = (uint8_t)(v >> 24);
}

/* The three parameter words of output channel c at b, each L bytes (L >= 4:
 * a beat of kiln_conv, one or more of kiln_dwconv): bias int32,
 * m_pos | m_neg << 16, shift. */
static void param_beats(uint8_t *b, int64_t L, const ConvQ *q, int64_t c)
{
    assert(L >= 4);
    put32(b, q->bias ? (uint32_t)q->bias[c] : 0u);
    put32(b + L, (uint32_t)(q->m_pos[c] & 0xFFFF) | (uint32_t)(q->m_neg[c] & 0xFFFF) << 16);
    b[2 * L] = (uint8_t)(q->shift[c] & 0x3F);
}

/* Write stage s's weight stream (kiln_conv order, one tile) at out: beats of
 * PE_IC lanes packed byte after byte. */
static void conv_image(const HlsStage *s, const ConvQ *q, uint8_t *out)
{
    int64_t L = s->pe_ic, ocg = hls_cdiv(s->cout, s->pe_oc), icg = hls_cdiv(s->cin, s->pe_ic);
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
    int64_t L = s->lanes, ncg = hls_cdiv(s->cin, L), K = s->k;
    int64_t wb = hls_dw_word_beats(L) * L; /* bytes of a parameter word */
    int64_t cg, o, ky, kx, i;
    uint8_t *b = out;
    for (cg = 0; cg < ncg; cg++) {
        for (o = 0; o < L; o++, b += 3 * wb) {
            int64_t c = cg * L + o;
            if (c < s->cout)
                param_beats(b, wb, q, c);
        }
        for (ky = 0; ky < K; ky++)
            for (kx = 0; kx < K; kx++, b += L)
                for (i = 0; i < L && cg * L + i < s->cout; i++)
                    b[i] = (uint8_t)q->w[((cg * L + i) * K + ky) * K + kx];
    }
}

int rtl_graph_quantized(const HlsPlan *p, const GirGraph *g, GirError *e)
{
    int i, any = 0, all = 1;
    for (i = 0; i < p->nstage; i++) {
        ConvQ q;
        int r;
        if (p->stages[i].kind != HLS_ST_CONV && p->stages[i].kind != HLS_ST_DWCONV)
            continue;
        r = conv_q(g, &p->stages[i], &q, e);
        if (r < 0)
            return -1;
        any |= r;
        all &= r;
    }
    return any && all;
}

int rtl_conv_stream(const GirGraph *g, const HlsStage *s, uint8_t *out, GirError *e)
{
    ConvQ q;
    int r = conv_q(g, s, &q, e);
    if (r < 0)
        return -1;
    if (r == 0)
        return gir_error_at(e, rtl_stage_loc(g, s), "rtl: %s: not an int8 conv", s->node);
    conv_image(s, &q, out);
    return 0;
}

int rtl_weight_image(const Gen *G, uint8_t **img, GirError *e)
{
    uint8_t *b = calloc((size_t)G->c.wbytes + 1, 1);
    int i;
    if (!b)
        gir_die("out of memory");
    for (i = 0; i < G->c.nch; i++) {
        const HlsChan *c = &G->c.ch[i];
        const HlsStage *s;
        ConvQ q;
        if (c->kind != HLS_CH_W)
            continue;
        if (c->ts) { /* the shared engine's table and weights */
            if (rtl_ts_image(G, b, e) < 0) {
                free(b);
                return -1;
            }
            continue;
        }
        s = &G->p->stages[c->stage];
        if (conv_q(G->g, s, &q, e) != 1) {
            free(b);
            return -1;
        }
        if (s->kind == HLS_ST_DWCONV)
            dw_image(s, &q, b + c->offset);
        else
            conv_image(s, &q, b + c->offset);
    }
    *img = b;
    return 0;
}
