/*
 * timing.c: when each stage of a segment sends the last output beat of a
 * frame, counted from the start of a run (the cycle the register file
 * pulses start is 0), for one warm frame (resident weights already loaded).
 * These are the figures `kiln simulate` reads back from the PERF registers.
 *
 * Needs every stage evaluated (cycles, lat).  Model, per segment, stages in
 * topological order:
 *   a(s)    first input beat: the DDR reader's first beat (HLS_DDR_LAT after
 *           start plus the reader's pipeline), a producer's first output
 *           beat + EDGE_LAT, or, across a DDR edge inside the segment
 *           (in_ddr), the reader's first beat once the producer's frame is
 *           written;
 *   e(s)    last input beat available: the reader's a + beats - 1 or the
 *           producer's t_done + EDGE_LAT;
 *   t_done(s) = max(a(s) + cycles(s), e(s) + tail(s))
 *           the engine alone (cycles() from its first input beat) or, when
 *           its input is the limit, the work left after the last input beat;
 *   first(s)  = a(s) + fill, fill = the input rows the first output row
 *           needs at the input's pace + lat.
 * Latency: per segment the last t_done + the writer's last B, summed over
 * the segments.
 * Then, backwards, a producer cannot finish before its consumer took its
 * last input beat (t_done(c) - bp_tail(c)): back-pressure of a slower
 * consumer.
 * Edges with a planned skip FIFO are exempt: it is sized so that its
 * producer never waits.
 */
#include <math.h>
#include <stdlib.h>

#include "hls/plan_int.h"

#define EDGE_LAT 1 /* a stream hop: fork, width converter or skid */
#define RD_PIPE 7  /* kiln_axi_rd: start to the first beat, beside the memory latency */
#define WR_DONE (HLS_DDR_LAT + 6) /* kiln_axi_wr: a frame's last beat in to its last B */

static int64_t cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static int64_t in_lanes(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV ? s->pe_ic : s->lanes;
}

/* Beats of stage s's input k per frame. */
static int64_t in_beats(const HlsStage *s, int k)
{
    return s->h * s->w * cdiv(k == 1 ? s->cin2 : s->cin, in_lanes(s));
}

/* Output rows of a windowed stage that need the last input row. */
static int64_t rows_after_last(const HlsStage *s)
{
    int64_t oy, n = 0;
    for (oy = 0; oy < s->oh; oy++)
        if (oy * s->stride - s->pad + s->k >= s->h)
            n++;
    return n;
}

/* Cycles from the last input beat to the last output beat when the input,
 * not the engine, sets the pace. */
static int64_t stage_tail(const HlsStage *s)
{
    switch (s->kind) {
    case HLS_ST_CONV: {
        int64_t icg = cdiv(s->cin, s->pe_ic), ocg = cdiv(s->cout, s->pe_oc);
        int64_t nout = cdiv(s->ow, s->pp) * ocg * s->k * s->k * icg;
        return rows_after_last(s) * nout + s->lat;
    }
    case HLS_ST_DWCONV: {
        int64_t nout = s->ow * cdiv(s->cin, s->lanes) * s->k * s->k;
        return rows_after_last(s) * nout + s->lat;
    }
    case HLS_ST_UPSAMPLE: {
        /* the last input row's copies after its first */
        int64_t f = s->h ? s->oh / s->h : 1;
        return (f - 1) * s->ow * cdiv(s->cout, s->lanes) + s->lat;
    }
    default:
        return s->lat;
    }
}

/* Cycles from a stage taking its last input beat to its last output beat
 * when the stage, not its input, sets the pace: what a producer waits for at
 * the end of a frame.  A windowed engine takes its last input row once the
 * output row that frees a line-buffer slot is done (kiln_conv_window); the
 * rows after that one remain.  -1: the stage never holds its producer back
 * at the end (its whole input fits in its line buffer). */
static int64_t bp_tail(const HlsStage *s)
{
    int64_t nout, r, oy, kmax;
    int ki;
    if (s->kind != HLS_ST_CONV && s->kind != HLS_ST_DWCONV)
        return stage_tail(s);
    ki = hls_param_index(s->desc->hw_params, "KMAX");
    kmax = ki >= 0 ? s->hw[ki] : s->k;
    for (r = 1; r < kmax + 1; r <<= 1)
        ;
    if (s->h - 1 < r)
        return -1;
    if (s->kind == HLS_ST_CONV)
        nout = cdiv(s->ow, s->pp) * cdiv(s->cout, s->pe_oc) * s->k * s->k * cdiv(s->cin, s->pe_ic);
    else
        nout = s->ow * cdiv(s->cin, s->lanes) * s->k * s->k;
    for (oy = 0; oy < s->oh - 1; oy++)
        if ((oy + 1) * s->stride - s->pad + r > s->h - 1)
            break;
    return (s->oh - 1 - oy) * nout + s->lat;
}

/* First output beat after the first input beat, at the input's pace. */
static int64_t stage_fill(const HlsStage *s, double in_pace)
{
    int64_t rows;
    switch (s->kind) {
    case HLS_ST_CONV:
    case HLS_ST_DWCONV:
        rows = s->k - s->pad < s->h ? s->k - s->pad : s->h;
        break;
    case HLS_ST_MAXPOOL:
        rows = s->k < s->h ? s->k : s->h;
        break;
    case HLS_ST_UPSAMPLE:
        rows = 1;
        break;
    default:
        rows = 0;
        break;
    }
    return (int64_t)ceil((double)rows * (double)s->w * in_pace) + s->lat;
}

void hls_plan_timing(HlsPlan *p)
{
    int i, j, k, round;
    int64_t *first = calloc((size_t)p->nstage + 1, sizeof *first);
    int64_t *tail = calloc((size_t)p->nstage + 1, sizeof *tail);
    if (!first || !tail)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++)
        p->stages[i].t_done = 0;
    /* forward and backward until nothing moves (times only grow) */
    for (round = 0; round < 4 * p->nstage + 4; round++) {
        int changed = 0;
        for (i = 0; i < p->nstage; i++) {
            HlsStage *s = &p->stages[i];
            int64_t a = 0, e = 0, t;
            double pace = 1.0; /* input cycles per input pixel */
            for (k = 0; k < s->nin; k++) {
                int64_t ak, ek;
                if (s->in[k] < 0 || p->stages[s->in[k]].segment != s->segment) {
                    ak = HLS_DDR_LAT + RD_PIPE;
                    ek = ak + in_beats(s, k) * s->npass - 1;
                } else if (s->in_ddr[k]) {
                    /* the producer's frame written (last B), then read back */
                    ak = p->stages[s->in[k]].t_done + WR_DONE + HLS_DDR_LAT + RD_PIPE;
                    ek = ak + in_beats(s, k) * s->npass - 1;
                } else {
                    ak = first[s->in[k]] + EDGE_LAT;
                    ek = p->stages[s->in[k]].t_done + EDGE_LAT;
                }
                a = max64(a, ak);
                e = max64(e, ek);
            }
            if (s->h * s->w > 0)
                pace = (double)(e - a + 1) / (double)(s->h * s->w);
            tail[i] = stage_tail(s);
            t = max64(a + s->cycles - 1, e + tail[i]);
            if (t > s->t_done) {
                s->t_done = t;
                changed = 1;
            }
            if (round == 0) /* first beats from the forward pass alone */
                first[i] = a + stage_fill(s, pace);
        }
        /* back-pressure: a producer's last beat waits for its consumer */
        for (i = p->nstage - 1; i >= 0; i--) {
            const HlsStage *c = &p->stages[i];
            for (k = 0; k < c->nin; k++) {
                int u = c->in[k], skip = 0;
                int64_t take;
                if (u < 0 || p->stages[u].segment != c->segment || c->in_ddr[k])
                    continue;
                /* a skip FIFO is sized so that its producer never waits */
                for (j = 0; j < p->nfifo; j++)
                    skip |= p->fifos[j].from == u && p->fifos[j].to == i && !p->fifos[j].ddr;
                if (skip || bp_tail(c) < 0)
                    continue;
                take = c->t_done - bp_tail(c) - EDGE_LAT;
                if (take > p->stages[u].t_done) {
                    p->stages[u].t_done = take;
                    changed = 1;
                }
            }
        }
        if (!changed)
            break;
    }
    /* latency: the segments one after the other, each until its last
     * output is in DDR */
    p->latency = 0;
    for (k = 0; k < p->nsegment; k++) {
        int64_t seg = 0;
        for (i = 0; i < p->nstage; i++)
            if (p->stages[i].segment == k)
                seg = max64(seg, p->stages[i].t_done + WR_DONE);
        p->latency += seg;
    }
    free(first);
    free(tail);
}
