/*
 * check.c: rtl_check, what the generator refuses: weight tiles the tile
 * writer cannot lay out, lane counts that are not powers of two, run-time
 * values wider than their ports, frames of 2 GiB, edges through DDR whose
 * padded pixels differ at the two ends, more channels or stages than the
 * register map holds, a segment without output, int8 layers whose
 * constants do not fit their engine.
 */
#include "pipeline/internal.h"

#include <inttypes.h>

#include "graphir/requant.h"
#include "hls/hw.h"
#include "hls/res_util.h"

static int is_pow2(int64_t v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* The run-time values of stage s: its node's rescale constants in range
 * and each cfg_* value within its port. */
static int check_values(const GirGraph *g, const HlsStage *s, GirLoc loc, GirError *e)
{
    Cfg cfg[16];
    int j, n;
    if (s->kind == HLS_ST_ADD || s->kind == HLS_ST_REQUANT) {
        static const char *const names[] = {"rq_m_a", "rq_m_b", "rq_m", "rq_shift"};
        for (j = 0; j < 4; j++) {
            const int64_t *v = rtl_node_ints(g, s, names[j]);
            int sh = j == 3;
            if (v && (sh ? v[0] < 0 || v[0] > KILN_RQ_MAX_SHIFT
                         : v[0] < KILN_RQ_M_MIN || v[0] > KILN_RQ_M_MAX))
                return gir_error_at(e, loc, "rtl: %s: %s = %" PRId64 " out of range", s->node,
                                    names[j], v[0]);
        }
    }
    if (s->kind == HLS_ST_LUT && g && s->node_id >= 0 && s->node_id < g->nnode) {
        int cnt = 0;
        int64_t want = (s->lut_chans > 0 ? s->lut_chans : 1) * GIR_LUT_SIZE;
        if (!gir_attr_ints(&g->nodes[s->node_id], "lut", &cnt) || cnt != want)
            return gir_error_at(e, loc, "rtl: %s: LutI8 table has %d entries, not %" PRId64,
                                s->node, cnt, want);
    }
    n = rtl_stage_cfg(g, s, cfg);
    for (j = 0; j < n; j++)
        if (cfg[j].value < 0 || cfg[j].value >= ((int64_t)1 << cfg[j].bits))
            return gir_error_at(e, loc, "rtl: %s: %s = %" PRId64 " does not fit %d bits",
                                s->node, cfg[j].port, cfg[j].value, cfg[j].bits);
    return 0;
}

/* Input k of stage i, from a stage of its segment: through DDR in the same
 * bytes per pixel at both ends, else streamed (not from a tiled conv, a
 * skip FIFO of at least 2 entries). */
static int check_input(const HlsPlan *p, int i, int k, GirLoc loc, GirError *e)
{
    const HlsStage *s = &p->stages[i], *u = &p->stages[s->in[k]];
    const HlsFifo *f;
    if (hls_edge_ddr(p, i, k)) {
        /* written in the producer's lanes, read in the consumer's: the
         * same bytes per pixel */
        int64_t c, lp, lc;
        if (!hls_edge_ddr_pad(p, i, k, &c, &lp, &lc) || u->cout != c)
            return gir_error_at(e, loc,
                                "rtl: %s: input %d from %s goes through DDR in %" PRId64
                                " lanes but is read in %" PRId64 " (%" PRId64
                                " channels): the padded pixels differ",
                                s->node, k, u->node, lp, lc, c);
        return 0;
    }
    if (u->npass > 1)
        return gir_error_at(e, loc,
                            "rtl: %s: input %d streams from the weight-tiled %s, "
                            "whose output is tile by tile",
                            s->node, k, u->node);
    f = rtl_edge_fifo(p, s->in[k], i);
    if (f && !f->ddr && f->depth < 2)
        return gir_error_at(e, loc, "rtl: %s: skip FIFO depth %" PRId64 " below 2", s->node,
                            f->depth);
    return 0;
}

/* Stage i of p alone: its segment, tiles, lanes, values, sizes, inputs and
 * consumers. */
static int check_stage(const HlsPlan *p, const GirGraph *g, int i, GirError *e)
{
    const HlsStage *s = &p->stages[i];
    GirLoc loc = rtl_stage_loc(g, s);
    int j, k, n;
    int64_t li = hls_in_lanes(s), lo = hls_out_lanes(s), big = (int64_t)1 << 31;
    if (s->segment < 0 || s->segment >= p->nsegment)
        return gir_error_at(e, loc, "rtl: %s: segment %d outside the plan's %d", s->node,
                            s->segment, p->nsegment);
    if (s->npass > 1) {
        /* each pass's tile (tog x PE_OC channels) is written into every
         * pixel in rows of bus beats of at least 16 bits */
        int64_t ocg = hls_cdiv(s->cout, s->pe_oc);
        if (s->kind != HLS_ST_CONV || s->tog < 1 || ocg % s->tog != 0 ||
            s->tog * s->pe_oc % 2 != 0)
            return gir_error_at(e, loc,
                                "rtl: %s: weight tiles of %" PRId64 " output groups (PE_OC "
                                "%d, %" PRId64 " groups in all): a tile must divide the groups "
                                "and hold an even number of channels",
                                s->node, s->tog, s->pe_oc, ocg);
    }
    if (!is_pow2(li) || !is_pow2(lo))
        return gir_error_at(e, loc, "rtl: %s: lane counts must be powers of two", s->node);
    if (s->kind == HLS_ST_CONV && li < HLS_WLANES_MIN)
        return gir_error_at(e, loc,
                            "rtl: %s: %" PRId64 " input lanes: the weight stream's 32-bit "
                            "parameter beats need %d or more",
                            s->node, li, HLS_WLANES_MIN);
    if (check_values(g, s, loc, e) < 0)
        return -1;
    if (s->oh * s->ow * hls_cdiv(s->cout, lo) * lo >= big ||
        s->h * s->w * hls_cdiv(s->cin + s->cin2, li) * li >= big ||
        ((s->kind == HLS_ST_CONV || s->kind == HLS_ST_DWCONV) && hls_weight_beats(s) * li >= big))
        return gir_error_at(e, loc, "rtl: %s: a frame or weight set of 2 GiB or more", s->node);
    for (k = 0; k < s->nin; k++)
        if (s->in[k] >= 0 && p->stages[s->in[k]].segment == s->segment &&
            check_input(p, i, k, loc, e) < 0)
            return -1;
    for (j = i + 1, n = 0; j < p->nstage; j++)
        for (k = 0; k < p->stages[j].nin; k++)
            n += p->stages[j].in[k] == i;
    if (n + 1 > RTL_MAX_SINKS)
        return gir_error_at(e, loc, "rtl: %s: more than %d consumers", s->node,
                            RTL_MAX_SINKS - 1);
    return 0;
}

int rtl_check(const HlsPlan *p, const GirGraph *g, GirError *e)
{
    HlsChans c;
    int i, n, seg, addr_w, ncfg;
    if (p->nstage == 0)
        return gir_error_at(e, gir_loc_none(), "rtl: the plan has no FPGA stage");
    for (i = 0; i < p->nstage; i++)
        if (check_stage(p, g, i, e) < 0)
            return -1;
    hls_plan_channels(p, &c);
    n = (c.ncfg - HLS_HW_CFG_FIXED) / 2; /* channels with base registers */
    addr_w = c.rf_addr_w;
    ncfg = c.ncfg;
    hls_chans_free(&c);
    if (addr_w > HLS_HW_RF_ADDR_W_MAX) /* the map grows with the design (hls/hw.h) up to this */
        return gir_error_at(e, gir_loc_none(),
                            "rtl: %d DMA channels (%d CFG registers) and %d stages need a "
                            "register map of %d address bits; at most %d",
                            n, ncfg, p->nstage, addr_w, HLS_HW_RF_ADDR_W_MAX);
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
    if (rtl_graph_quantized(p, g, e) < 0)
        return -1;
    return 0;
}
