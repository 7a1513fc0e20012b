/*
 * timing.c: when each stage of a segment sends the last output beat of a
 * frame, counted from the start of a run (the cycle the register file
 * pulses start is 0), for one warm frame (resident weights already loaded).
 * These are the figures `kiln simulate` reads back from the PERF registers.
 *
 * Needs every stage evaluated (cycles, lat).  Model, per segment, stages in
 * topological order:
 *   a(s)    first input beat: the DDR reader's first beat (HLS_HW_DDR_LAT after
 *           start plus the reader's pipeline), a producer's first output
 *           beat + EDGE_LAT, or, across a DDR edge inside the segment
 *           (in_ddr), the reader's first beat once the producer's frame is
 *           written;
 *   e(s)    last input beat available: the reader's a + beats - 1 or the
 *           producer's t_done + EDGE_LAT;
 *   t_done(s) = max(a(s) + paced(s), e(s) + tail(s))
 *           the engine alone (cycles() from its first input beat, or more
 *           where its inputs arrive slower than it takes them: paced_cycles,
 *           a concat fed through kiln_width by a producer with fewer lanes)
 *           or, when its input is the limit, the work left after the last
 *           input beat;
 *   first(s)  = a(s) + fill, fill = the input rows the first output row
 *           needs at the input's pace + lat; from a producer on chip, when
 *           it sends those rows (fill_delay, row_end: a windowed producer
 *           its first row, then a row each row period; a join, upsample,
 *           requant or LUT as its own inputs' rows come, from DDR readers
 *           or producers, and at its own pace).
 * Latency: per segment the last t_done + the writer's last B, summed over
 * the segments.
 * Then, backwards, a producer cannot finish before its consumer took its
 * last input beat: back-pressure of a slower consumer.  A windowed consumer
 * takes its last input row once it issued the output row that frees the
 * slot, at its own pace or as the stages below it take that row
 * (row_issue_end, row_take: down the chain), then issues what of the row
 * its output buffer cannot hold.  A concat takes its first input's last
 * beat before its second input's beats of the last pixel.
 * Edges with a planned skip FIFO are exempt: it is sized so that its
 * producer never waits.
 * A conv in bands (kiln_conv cfg_band) lets an input row in once the band
 * before the first band that takes it has ended (release_row), so it holds
 * its producer back every band: its paced cycles add the waits for the
 * band's new rows (band_wait: the first a held producer's row after the
 * release, the next at its pace), its last op follows its producer's rows
 * (band_rows_in), its output leaves a band at a time (row_end), and its
 * two-band buffer holds two bands for its consumer (row_issue_end).
 * Occupancy (per frame, back to back): paced + the wait for a held-back
 * producer's first rows (at least their time through the hop between them,
 * hop_time) + the stall a windowed consumer's frame barrier puts
 * on the head of the stream chain feeding it (barrier_stall).
 */
#include <math.h>
#include <stdlib.h>

#include "hls/hw.h"
#include "hls/plan_int.h"
#include "hls/res_util.h"

#define EDGE_LAT 1 /* a stream hop: fork, width converter or skid */
#define RD_PIPE 7  /* kiln_axi_rd: start to the first beat, beside the memory latency */
#define WR_DONE (HLS_HW_DDR_LAT + 6) /* kiln_axi_wr: a frame's last beat in to its last B */

/* Channels of stage s's input k (a join's second input: cin2). */
static int64_t in_channels(const HlsStage *s, int k)
{
    return k == 1 ? s->cin2 : s->cin;
}

/* Beats of stage s's input k per frame. */
static int64_t in_beats(const HlsStage *s, int k)
{
    return s->h * s->w * hls_cdiv(in_channels(s, k), hls_in_lanes(s));
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

/* Line-buffer rows of a windowed stage: 2^ceil(log2(KMAX + 1)), in bands
 * at least LBROWS (a band's input rows). */
static int64_t line_rows(const HlsStage *s)
{
    int ki = hls_param_index(s->desc->hw_params, "KMAX");
    int li = hls_param_index(s->desc->hw_params, "LBROWS");
    int64_t r = hls_line_rows(ki >= 0 ? s->hw[ki] : s->k);
    return li >= 0 && s->hw[li] > r ? hls_pow2ceil(s->hw[li]) : r;
}

/* Output rows per band of a conv in bands (kiln_conv cfg_band); 0: none. */
static int64_t band_rows(const HlsStage *s)
{
    return s->kind == HLS_ST_CONV && s->band > 0 ? hls_min64(s->band, s->oh) : 0;
}

/* Output beats of a band of `rows` rows: its buffer half, read one beat a
 * cycle. */
static int64_t band_beats(const HlsStage *s, int64_t rows)
{
    return rows * s->ow * hls_cdiv(s->cout, s->pe_oc);
}

/* Output rows of the last band. */
static int64_t last_band_rows(const HlsStage *s)
{
    int64_t bd = band_rows(s);
    return s->oh - (hls_cdiv(s->oh, bd) - 1) * bd;
}

/* Weight tiles (passes over a band) of a conv in bands. */
static int64_t band_tiles(const HlsStage *s)
{
    int64_t ocg = hls_cdiv(s->cout, s->pe_oc);
    return s->tog > 0 && s->tog < ocg ? hls_cdiv(ocg, s->tog) : 1;
}

/* Input rows the output rows before `oy` (a band's start) need. */
static int64_t band_need(const HlsStage *s, int64_t oy)
{
    return hls_max64(0, hls_min64(s->h, (oy - 1) * s->stride - s->pad + s->k));
}

/* Issue cycles of a conv's pixel groups that hold a pixel of output row oy
 * or a later one (at = 1) or that start in row oy or later (at = 0): row by
 * row, whole rows of ceil(Wout/PP) groups; with groups across row ends
 * (SPAN) the frame's groups from the one holding the row's first pixel, or
 * from the first that starts in the row. */
static int64_t conv_ops_from(const HlsStage *s, int64_t oy, int at)
{
    int64_t gops = hls_cdiv(s->cout, s->pe_oc) * s->k * s->k * hls_cdiv(s->cin, s->pe_ic);
    int64_t done; /* SPAN: the frame's groups before the row's */
    if (!s->span)
        return (s->oh - oy) * hls_cdiv(s->ow, s->pp) * gops;
    done = at ? oy * s->ow / s->pp : hls_cdiv(oy * s->ow, s->pp);
    return (hls_cdiv(s->oh * s->ow, s->pp) - done) * gops;
}

/* Issue cycles of one output row of a conv (SPAN: a row's share of the
 * frame's groups). */
static int64_t conv_row_ops(const HlsStage *s)
{
    return hls_cdiv(conv_ops_from(s, 0, 0), s->oh);
}

/* Issue cycles of one output row of a windowed engine (conv or dwconv). */
static int64_t row_ops(const HlsStage *s)
{
    if (s->kind == HLS_ST_CONV)
        return conv_row_ops(s);
    return s->ow * hls_cdiv(s->cin, s->lanes) * s->k * s->k;
}

/* Issue cycles of a band of `rows` output rows (every tile) after the
 * input row that the last `late` of them need arrives: those rows of the
 * first pass, then the other passes whole. */
static int64_t band_ops_after(const HlsStage *s, int64_t rows, int64_t late)
{
    int64_t nt = band_tiles(s), rt = hls_cdiv(conv_row_ops(s), nt);
    return hls_min64(rows, late) * rt + (nt - 1) * rows * rt;
}

/* Cycles from the last input beat to the last output beat when the input,
 * not the engine, sets the pace. */
static int64_t stage_tail(const HlsStage *s)
{
    switch (s->kind) {
    case HLS_ST_CONV:
        if (band_rows(s)) /* the last band, then its half of the buffer read */
            return band_ops_after(s, last_band_rows(s), rows_after_last(s)) +
                   band_beats(s, last_band_rows(s)) + 1 + s->lat;
        /* the groups that hold a pixel of the rows needing the last input
         * row (SPAN: also the group running into the first of them) */
        return conv_ops_from(s, s->oh - rows_after_last(s), 1) + s->lat;
    case HLS_ST_DWCONV:
        return rows_after_last(s) * row_ops(s) + s->lat;
    case HLS_ST_MAXPOOL: {
        /* the flushes after the last input beat: the last row's outputs
         * past its last column, then the outputs past the last row (2x2
         * stride 1: one pixel, then one whole row); the engine's own pad
         * is 0 (bottom/right padding is in oh, ow) */
        int64_t cg = hls_cdiv(s->cin, s->lanes);
        int64_t fx = hls_pool_flush(s->w, s->ow, s->k, s->stride, 0);
        int64_t fy = hls_pool_flush(s->h, s->oh, s->k, s->stride, 0);
        return (fx + fy * s->ow) * cg + s->lat;
    }
    case HLS_ST_UPSAMPLE: {
        /* the last input row's copies after its first */
        int64_t f = s->h ? s->oh / s->h : 1;
        return (f - 1) * s->ow * hls_cdiv(s->cout, s->lanes) + s->lat;
    }
    default:
        return s->lat;
    }
}

/* Issue cycles of a windowed stage after its output row oy. */
static int64_t ops_after_row(const HlsStage *s, int64_t oy)
{
    if (s->kind == HLS_ST_CONV)
        return conv_ops_from(s, oy + 1, 0);
    return (s->oh - 1 - oy) * row_ops(s);
}

/* The output row of a windowed stage whose last op frees the line-buffer
 * slot its input row iy goes into (kiln_conv_window: input row iy enters
 * once iy < oy * S - P + R for the row oy being computed); -1: the row goes
 * in without waiting for an output row. */
static int64_t release_row(const HlsStage *s, int64_t iy)
{
    int64_t r = line_rows(s), oy, bd = band_rows(s), c;
    if (iy < r)
        return -1;
    if (bd) { /* in bands: once the band before the first that takes it ends */
        for (c = 1; c * bd < s->oh; c++)
            if (hls_max64(0, c * bd * s->stride - s->pad) + r > iy)
                break;
        return hls_min64(c * bd, s->oh) - 1;
    }
    for (oy = 0; oy < s->oh - 1; oy++)
        if ((oy + 1) * s->stride - s->pad + r > iy)
            break;
    return oy;
}

/* Rows a stage needs before its first output row (in bands: its first band). */
static int64_t first_rows(const HlsStage *s)
{
    switch (s->kind) {
    case HLS_ST_CONV:
        if (band_rows(s)) /* in bands: the first band's */
            return band_need(s, band_rows(s));
        /* fall through */
    case HLS_ST_DWCONV:
        return hls_min64(s->h, s->k - s->pad);
    case HLS_ST_MAXPOOL:
        return hls_min64(s->h, s->k);
    default:
        return 1;
    }
}

/* A conv in bands sends its first beat once the first band's passes are
 * done, after its input rows came, and its half of the buffer is read
 * (two cycles); 0 for any other stage. */
static int64_t band_fill(const HlsStage *s)
{
    int64_t bd = band_rows(s), late = 0, oy;
    if (!bd)
        return 0;
    for (oy = 0; oy < bd; oy++)
        if (band_need(s, oy + 1) >= first_rows(s))
            late++;
    return band_ops_after(s, bd, late) + 1;
}

/* First output beat after the first input beat, at the input's pace. */
static int64_t stage_fill(const HlsStage *s, double in_pace)
{
    int64_t rows;
    switch (s->kind) {
    case HLS_ST_CONV:
    case HLS_ST_DWCONV:
        rows = first_rows(s);
        break;
    case HLS_ST_MAXPOOL:
        /* its first window: K-1 rows and K pixels of the next */
        rows = s->k < s->h ? s->k : s->h;
        return (int64_t)ceil((double)((rows - 1) * s->w + hls_min64(s->k, s->w)) * in_pace) +
               s->lat;
    default: /* upsample and joins pass their first beat on */
        rows = 0;
        break;
    }
    return (int64_t)ceil((double)rows * (double)s->w * in_pace) + band_fill(s) + s->lat;
}


/* Output rows a conv holds computed while its consumer does not take them:
 * PP = 1, whole rows of its output FIFO (FD = 8/16/32 entries by LATB, less
 * the credit margin); PP > 1, its reorder buffer (DB = 2^ceil(log2(2 OCG +
 * 2 LATB + 4)) entries of PP pixels, less the margin), a fraction of a row;
 * LATB is the latency without the shared requant's RQS cycles. */
static double held_out(const HlsStage *s, int whole);

static double held_rows(const HlsStage *s)
{
    return held_out(s, 1);
}

/* held_rows, or with whole = 0 the part of a row a PP = 1 conv's FIFO
 * holds beyond its whole rows. */
static double held_out(const HlsStage *s, int whole)
{
    int64_t latb = s->lat - (s->rqs > 1 ? s->rqs : 0); /* kiln_conv LATB: sizes the buffer */
    int64_t fd = latb + 3 <= 8 ? 8 : latb + 3 <= 16 ? 16 : 32, db = 1;
    int64_t ocg = hls_cdiv(s->cout, s->kind == HLS_ST_CONV ? s->pe_oc : s->lanes);
    int64_t row = s->ow * ocg;
    if (band_rows(s)) /* the two-band buffer */
        return whole ? (double)(2 * band_rows(s)) : 0.0;
    if (s->kind != HLS_ST_CONV || row <= 0)
        return 0.0;
    if (s->pp == 1)
        return whole ? (double)((fd - 2) / row) : (double)((fd - 2) % row) / (double)row;
    if (!whole)
        return 0.0; /* held_rows counts the fraction */
    while (db < 2 * ocg + 2 * latb + 4)
        db <<= 1;
    return (double)((db - 2) * s->pp) / (double)row;
}

static int64_t produce(const HlsPlan *p, int xi, int64_t r, int ovl, int depth);

/* Cycles `rows` rows of c channels take through the hop from stage u into
 * stage x, one beat a cycle on its narrower side, less what the hop holds
 * while x takes nothing: kiln_width packing PE lanes into wider ones keeps
 * two output beats in its FIFO (each min(R, beats of a pixel) input beats),
 * unpacking two narrow ones.  Rows a producer holds computed still cross it
 * at this pace (a conv's output buffer, PE_OC lanes a cycle). */
static int64_t hop_time(const HlsStage *u, const HlsStage *x, int64_t c, int64_t rows)
{
    int64_t lo = hls_out_lanes(u), li = hls_in_lanes(x);
    int64_t bo = hls_cdiv(c, lo), bi = hls_cdiv(c, li), held = 0;
    if (lo < li)
        held = 2 * hls_min64(li / lo, bo);
    else if (lo > li)
        held = 2;
    return hls_max64(0, rows * x->w * hls_max64(bo, bi) - held);
}

/* Cycles until `rows` rows of stage x's input k are there, its producer
 * released from holding (ovl: as produce). */
static int64_t input_time(const HlsPlan *p, const HlsStage *x, int k, int64_t rows, int ovl,
                          int depth)
{
    int u = x->in[k];
    int64_t c = in_channels(x, k);
    if (rows <= 0)
        return 0;
    if (u < 0 || p->stages[u].segment != x->segment || x->in_ddr[k])
        return rows * x->w * hls_cdiv(c, hls_in_lanes(x)) * hls_ddr_pace(hls_in_lanes(x));
    return hls_max64(produce(p, u, rows, ovl, depth + 1), hop_time(&p->stages[u], x, c, rows));
}

/* Cycles stage x needs to send the first r output rows of a frame after it
 * was held back at the end of the previous one: its input buffered as far as
 * its line buffer goes, its output FIFO full.  A windowed stage whose rows
 * need input beyond its line buffer: with ovl 0 that input first, then the
 * rows; with ovl 1 the rows before the last compute while the last's input
 * comes (kiln_conv_window takes a row once the row it frees is issued). */
static int64_t produce(const HlsPlan *p, int xi, int64_t r, int ovl, int depth)
{
    const HlsStage *x = &p->stages[xi];
    int64_t need, t = 0, rows;
    double rr;
    int k;
    if (r <= 0 || depth > 64)
        return 0;
    switch (x->kind) {
    case HLS_ST_CONV:
    case HLS_ST_DWCONV:
        rr = (double)r - held_rows(x);
        if (rr <= 0.0)
            return 0;
        need = hls_min64(x->h, ((int64_t)ceil(rr) - 1) * x->stride - x->pad + x->k);
        rows = line_rows(x);
        if (need > rows)
            t = input_time(p, x, 0, need - rows, ovl, depth);
        if (ovl)
            return hls_max64(t + (int64_t)ceil(fmin(rr, 1.0) * (double)row_ops(x)),
                             (int64_t)ceil(rr * (double)row_ops(x))) + x->lat;
        return t + (int64_t)ceil(rr * (double)row_ops(x)) + x->lat;
    case HLS_ST_MAXPOOL:
        /* held back, it has taken the rows before its first window's last
         * one into its row buffers (they make no output) */
        need = hls_min64(x->h, (r - 1) * x->stride + x->k);
        rows = hls_min64(need - 1, hls_max64(0, hls_min64(x->h, x->k - x->pad) - 1));
        return input_time(p, x, 0, need - rows, ovl, depth) + x->lat;
    case HLS_ST_UPSAMPLE:
        return input_time(p, x, 0, hls_cdiv(r, x->h ? x->oh / x->h : 1), ovl, depth) + x->lat;
    default:
        for (k = 0; k < x->nin; k++)
            t = hls_max64(t, input_time(p, x, k, r, ovl, depth));
        return t + x->lat;
    }
}


/* 1: input k of stage s is a stream from a stage of its own segment. */
static int on_chip_in(const HlsPlan *p, const HlsStage *s, int k)
{
    return s->in[k] >= 0 && p->stages[s->in[k]].segment == s->segment && !s->in_ddr[k];
}

/* Cycles a pixel's beats of stage s's input k take to arrive when s takes
 * them as they come: from a DDR reader at its pace; from a producer with
 * fewer lanes through kiln_width packing R = in/out lanes of its beats into
 * one, a producer beat a cycle (its beats per pixel, not s's); else a beat
 * a cycle.  other: the cycles of the pixel s spends on its other input
 * meanwhile (a concat; -1: none), in which the converter's FIFO fills with
 * two output beats, each of which then arrives R - 1 cycles early. */
static int64_t in_pixel_time(const HlsPlan *p, const HlsStage *s, int k, int64_t other)
{
    int64_t c = in_channels(s, k), li = hls_in_lanes(s), bi = hls_cdiv(c, li), lo, bo, r, nb;
    if (!on_chip_in(p, s, k))
        return bi * hls_ddr_pace(li);
    lo = hls_out_lanes(&p->stages[s->in[k]]);
    if (lo >= li)
        return bi;
    bo = hls_cdiv(c, lo);
    r = hls_min64(li / lo, bo); /* producer beats an output beat takes */
    nb = other < 0 ? 0 : hls_min64(2, other / r);
    return hls_max64(bi, bo - nb * (r - 1));
}

/* Cycles of a concat's pixel on each input (t[0], t[1]) at the pace they
 * arrive (in_pixel_time): kiln_concat takes a pixel's beats of its first
 * input, then those of its second, so the two paces add. */
static void concat_pixel(const HlsPlan *p, const HlsStage *s, int64_t *t)
{
    t[0] = in_pixel_time(p, s, 0, -1);
    t[1] = in_pixel_time(p, s, 1, t[0]);
    t[0] = in_pixel_time(p, s, 0, t[1]);
}

static int64_t band_issue(const HlsStage *s, int64_t nin, int64_t step, int64_t d1,
                          int64_t upto, const int64_t *arr);

/* The input paces of conv s in bands from a producer on chip (band_issue):
 * nin cycles a row at its own pace, the first row d1 after the release
 * (input_time: its producer held back), the next ones step apart; 0 when
 * its input comes from DDR. */
static int band_paces(const HlsPlan *p, const HlsStage *s, int64_t *nin, int64_t *d1,
                      int64_t *step)
{
    *nin = s->w * hls_cdiv(s->cin, hls_in_lanes(s)) * hls_max64(1, s->ipace);
    *d1 = *step = *nin;
    if (!band_rows(s) || !on_chip_in(p, s, 0))
        return 0;
    /* a conv producer computed what its FIFO holds of the row before the
     * release */
    *d1 = hls_max64(*nin, input_time(p, s, 0, 1, 0, 0) -
                              (int64_t)(held_out(&p->stages[s->in[0]], 0) *
                                        (double)row_ops(&p->stages[s->in[0]])));
    *step = hls_max64(*nin, input_time(p, s, 0, 2, 0, 0) - input_time(p, s, 0, 1, 0, 0));
    return 1;
}

/* Cycles a conv in bands waits beyond its cycles() for the input rows of
 * its bands from a producer on chip it held back (band_paces); 0 for any
 * other stage. */
static int64_t band_wait(const HlsPlan *p, const HlsStage *s)
{
    int64_t nin, d1, step;
    if (!band_paces(p, s, &nin, &d1, &step))
        return 0;
    return hls_max64(0, band_issue(s, nin, step, d1, -1, NULL) -
                            band_issue(s, nin, nin, nin, -1, NULL));
}

/* Cycles of conv s in bands from band b's last op to its last output beat
 * less its latency: the bands after, their rows in at the producer's pace
 * (band_paces), and the last band's half of the buffer read. */
static int64_t band_after(const HlsPlan *p, const HlsStage *s, int64_t b)
{
    int64_t nin, d1, step;
    band_paces(p, s, &nin, &d1, &step);
    return band_issue(s, nin, step, d1, -1, NULL) - band_issue(s, nin, step, d1, b, NULL) +
           band_beats(s, last_band_rows(s)) + 1;
}

/* The bands' issue of a conv in bands, first input beat to the last band's
 * last op, its input rows entering as kiln_conv lets them in (a row once the
 * band before the first that takes it ended, as win_cycles_band does), each
 * `step` cycles after the one before and, when it waited for its band,
 * `d1` cycles after the band before ended: the first pass of a band issues
 * each row once its input rows are in, the other passes whole.  The first
 * band's rows come every nin cycles (the fill counts their wait); arr (or
 * NULL): the cycle each input row is there at the earliest.  The end of
 * band `upto` (the last: -1). */
static int64_t band_issue(const HlsStage *s, int64_t nin, int64_t step, int64_t d1, int64_t upto,
                          const int64_t *arr)
{
    int64_t bd = band_rows(s), nb = hls_cdiv(s->oh, bd), r = line_rows(s), iy = 0, wen = 0;
    int64_t rt = hls_cdiv(conv_row_ops(s), band_tiles(s)), end = 0, b, oy, c, res;
    int64_t *pend = calloc((size_t)nb, sizeof *pend);
    if (!pend)
        gir_die("out of memory");
    for (b = 0; b < nb; b++) {
        int64_t by0 = b * bd, by1 = hls_min64(s->oh, by0 + bd);
        for (oy = by0; oy < by1; oy++) {
            for (; iy < band_need(s, oy + 1); iy++) {
                for (c = 0; c < b && hls_max64(0, c * bd * s->stride - s->pad) + r <= iy; c++)
                    ;
                wen += c > 0 ? step : nin;
                if (c > 0)
                    wen = hls_max64(wen, pend[c - 1] + d1);
                if (arr)
                    wen = hls_max64(wen, arr[iy]);
            }
            end = hls_max64(end, wen) + rt;
        }
        end += (band_tiles(s) - 1) * (by1 - by0) * rt;
        pend[b] = end;
    }
    res = upto >= 0 && upto < nb ? pend[upto] : end;
    free(pend);
    return res;
}


/* Cycles per frame of stage s at the pace its inputs arrive, at least its
 * descriptor's: a concat's pixel takes the sum of its inputs' times (and
 * kiln_concat's flush beat), another stage's input beats of a frame the
 * slowest input's.  What a producer with fewer lanes or a DDR reader
 * slower than a beat a cycle costs the stage beyond cycles(). */
static int64_t paced_cycles(const HlsPlan *p, const HlsStage *s)
{
    int64_t px = s->h * s->w, per = 0, t[2];
    int k;
    if (s->kind == HLS_ST_CONCAT && s->nin == 2) {
        int64_t l = s->lanes, ga = hls_cdiv(s->cin, l), gb = hls_cdiv(s->cin2, l);
        int64_t fl = s->cin % l != 0 && hls_cdiv(s->cin + s->cin2, l) == ga + gb;
        concat_pixel(p, s, t);
        return hls_max64(s->cycles, px * (t[0] + t[1] + fl) + 1);
    }
    for (k = 0; k < s->nin; k++)
        per = hls_max64(per, in_pixel_time(p, s, k, -1));
    return hls_max64(s->cycles, px * per) + band_wait(p, s);
}

/* A windowed producer u's rows at a steady pace: row r's beats from
 * first[u] + r * *rowt within *emit = its cycles per output row, its last
 * one at its forward t_done (fwd[u]).  A conv sends a row at its own pace,
 * a maxpool's row leaves as its last input row streams in, at its input's
 * pace. */
static void window_rows(const HlsPlan *p, int u, const int64_t *first, const int64_t *fwd,
                        int64_t *rowt, int64_t *emit)
{
    const HlsStage *x = &p->stages[u];
    *emit = x->kind == HLS_ST_MAXPOOL ? (fwd[u] - first[u]) / hls_max64(1, x->h)
                                      : hls_min64(fwd[u] - first[u], x->cycles / hls_max64(1, x->oh));
    *rowt = (fwd[u] - first[u] - *emit) / hls_max64(1, x->oh - 1);
}

/* The first beat a DDR reader gives input k of stage s: HLS_HW_DDR_LAT +
 * RD_PIPE after the start, or, across a DDR edge inside the segment, after
 * the producer's frame is written (its last B) (the frame gate). */
static int64_t reader_first(const HlsPlan *p, const HlsStage *s, int k)
{
    if (s->in[k] < 0 || p->stages[s->in[k]].segment != s->segment)
        return HLS_HW_DDR_LAT + RD_PIPE;
    return p->stages[s->in[k]].t_done + WR_DONE + HLS_HW_DDR_LAT + RD_PIPE;
}

/* The cycle stage u sends the last beat of its output row r, from the
 * first forward pass (first beats first, input beats ain, t_done fwd of
 * the stages above it), as the stream makes it: a windowed stage at its
 * steady row pace (window_rows); a stream stage (upsample, join, requant,
 * LUT) once the input rows the row needs came in, from a DDR reader at the
 * reader's pace or from a producer on chip as it sends them, and at its own
 * pace, its cycles spread evenly over its rows from its first input beat,
 * whichever is later.  An upsample's row is a copy of its input row: the
 * first copy leaves with the input row's last pixel (its other horizontal
 * copies), each later copy a whole row after.  A concat sends a pixel's
 * beats of its first input, then those of its second: the row ends the
 * second's beats of a pixel after the first input's row. */
static int64_t row_end(const HlsPlan *p, int ui, int64_t r, const int64_t *first,
                       const int64_t *fwd, const int64_t *ain, int depth)
{
    const HlsStage *u = &p->stages[ui];
    int64_t f = 1, ri, t, oh = hls_max64(1, u->oh);
    int k;
    r = hls_min64(hls_max64(r, 0), oh - 1);
    if (band_rows(u)) {
        /* in bands: a band's rows leave together, a band period apart */
        int64_t bd = band_rows(u), nb = hls_cdiv(u->oh, bd), lb = last_band_rows(u);
        int64_t bt = (fwd[ui] - first[ui] + 1 - band_beats(u, lb)) / hls_max64(1, nb - 1);
        return first[ui] + r / bd * bt + band_beats(u, r % bd + 1) - 1;
    }
    if (u->kind == HLS_ST_CONV || u->kind == HLS_ST_DWCONV || u->kind == HLS_ST_MAXPOOL) {
        int64_t rowt, emit;
        window_rows(p, ui, first, fwd, &rowt, &emit);
        return first[ui] + r * rowt + emit;
    }
    t = ain[ui] + u->paced * (r + 1) / oh - 1;
    /* up to 8 stream stages up (each join may go up both its inputs):
     * beyond, the stage's own pace */
    if (depth >= 8)
        return t;
    if (u->kind == HLS_ST_UPSAMPLE)
        f = u->h ? hls_max64(1, u->oh / u->h) : 1;
    ri = u->kind == HLS_ST_UPSAMPLE ? r / f : u->oh ? r * u->h / u->oh : r;
    for (k = 0; k < u->nin; k++) {
        int64_t c = in_channels(u, k), te, after = 0;
        if (!on_chip_in(p, u, k))
            te = reader_first(p, u, k) +
                 (ri + 1) * u->w * hls_cdiv(c, hls_in_lanes(u)) * hls_ddr_pace(hls_in_lanes(u)) - 1;
        else
            te = row_end(p, u->in[k], ri, first, fwd, ain, depth + 1) + EDGE_LAT;
        if (u->kind == HLS_ST_UPSAMPLE) {
            int64_t cg = hls_cdiv(u->cout, u->lanes);
            after = (f - 1) * cg + (r % f) * u->ow * cg;
        } else if (u->kind == HLS_ST_CONCAT && k == 0 && u->nin > 1) {
            int64_t pt[2];
            concat_pixel(p, u, pt);
            after = pt[1];
        }
        t = hls_max64(t, te + after + u->lat);
    }
    return t;
}

/* Cycles the first rows of a windowed stage's input take beyond what its
 * own cycles() count (rows at one beat per ipace cycles) when a slower
 * stream producer delivers them: row r of producer u ends at row_end (a
 * windowed producer at its steady row pace, a stream stage as its own
 * inputs' rows and its pace allow), counted from u's first output beat.
 * What a stage slower than its producer carries to its last beat.
 * *own_fill: the cycles the stage takes its first rows in at its own pace
 * when such a producer feeds it, -1 when none does. */
static int64_t fill_delay(const HlsPlan *p, int i, const int64_t *first, const int64_t *fwd,
                          const int64_t *ain, int64_t *own_fill)
{
    const HlsStage *s = &p->stages[i];
    int64_t d = 0, fr;
    int k;
    *own_fill = -1;
    if (s->kind != HLS_ST_CONV && s->kind != HLS_ST_DWCONV)
        return 0;
    fr = first_rows(s);
    for (k = 0; k < s->nin; k++) {
        int u = s->in[k];
        int64_t own;
        if (!on_chip_in(p, s, k))
            continue;
        own = fr * s->w * hls_cdiv(s->cin, hls_in_lanes(s)) * (s->ipace > 1 ? s->ipace : 1);
        d = hls_max64(d, row_end(p, u, fr - 1, first, fwd, ain, 0) - first[u] - own);
        *own_fill = hls_max64(*own_fill, own);
    }
    return d;
}

/* An upsample feeding a concat on chip sends the last input row's copies
 * at the concat's pace: a pixel of the concat's output takes its beats of
 * both inputs, each at the pace it arrives (concat_pixel; YOLO's route: the
 * upsampled map beside the skip tensor).
 * tail: stage_tail of upsample u. */
static int64_t upsample_join_tail(const HlsPlan *p, int u, int64_t tail)
{
    const HlsStage *s = &p->stages[u];
    int64_t f = s->h ? s->oh / s->h : 1;
    int i, k;
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *c = &p->stages[i];
        if (c->kind != HLS_ST_CONCAT || c->segment != s->segment)
            continue;
        for (k = 0; k < c->nin; k++)
            if (c->in[k] == u && !c->in_ddr[k]) {
                int64_t pt[2];
                concat_pixel(p, c, pt);
                tail = hls_max64(tail, (f - 1) * s->ow * (pt[0] + pt[1]) + s->lat);
            }
    }
    return tail;
}

/* Weight-stream cycles of one output group of a conv whose weights come
 * from DDR every frame (0 otherwise), at the DMA channel's pace. */
static int64_t wload_group(const HlsStage *s)
{
    if (s->kind != HLS_ST_CONV || s->whome != HLS_W_DDR)
        return 0;
    return hls_conv_group_wbeats(s->pe_oc, s->k * s->k * hls_cdiv(s->cin, s->pe_ic)) *
           hls_ddr_pace(s->pe_ic);
}

/* The cycle a conv's first weight tile is in its bank, counted from the
 * start: the weight channel starts with the run, beside the maps.  The
 * descriptor's cycles take it as there at the first input beat. */
static int64_t wtile0_ready(const HlsStage *s)
{
    int64_t ocg, tog, g = wload_group(s);
    if (g == 0)
        return 0;
    ocg = hls_cdiv(s->cout, s->pe_oc);
    tog = s->tog > 0 && s->tog < ocg ? s->tog : ocg;
    return HLS_HW_DDR_LAT + RD_PIPE + tog * g;
}

/* Weight-stream cycles of a frame: every group's weights once. */
static int64_t wload_frame(const HlsStage *s)
{
    int64_t g = wload_group(s);
    return g ? hls_cdiv(s->cout, s->pe_oc) * g : 0;
}

/* Depth of the join FIFO on the edge from stage u into stage c (0: none). */
static int64_t fifo_depth(const HlsPlan *p, int u, int c)
{
    int j;
    for (j = 0; j < p->nfifo; j++)
        if (p->fifos[j].from == u && p->fifos[j].to == c && !p->fifos[j].ddr)
            return p->fifos[j].depth;
    return 0;
}

/* 1: the edge from stage u into stage c is a skip FIFO, sized so that its
 * producer never waits. */
static int skip_edge(const HlsPlan *p, int u, int c)
{
    return fifo_depth(p, u, c) > 0;
}

/* Cycles stage s waits at its restart for the rows its first output row
 * needs from its on-chip producers, held back at the end of the previous
 * frame.  A concat takes each input's row at the pace it arrives, which its
 * paced cycles count already: it waits only for what comes later than that
 * (concat_pixel). */
static int64_t restart_wait(const HlsPlan *p, const HlsStage *s)
{
    int64_t w = 0, pt[2] = {0, 0};
    int k;
    if (s->kind == HLS_ST_CONCAT && s->nin == 2)
        concat_pixel(p, s, pt);
    for (k = 0; k < s->nin; k++)
        if (on_chip_in(p, s, k))
            w = hls_max64(w, input_time(p, s, k, first_rows(s), 1, 0) -
                                 first_rows(s) * s->w * pt[k]);
    return w;
}

/* The cycle the producer of concat ci's input k, behind a join FIFO, sends
 * its last beat when the concat takes the input slower than the producer
 * sends it: the FIFO's depth and kiln_width's two output beats hold the
 * frame's last pixels of the input, which the concat takes at its pace
 * (concat_pixel, or its frame's mean pixel time when its other input is
 * slower) after the producer's last beat went in; INT64_MIN when they hold
 * the whole frame.  From the concat's first forward pass (first input beat
 * ain, t_done fwd, tail): a producer held back delays its other consumers,
 * and through them the concat, so later passes would feed on themselves. */
static int64_t fifo_take(const HlsPlan *p, int ci, int k, int64_t ain, int64_t fwd, int64_t tail)
{
    const HlsStage *c = &p->stages[ci], *u = &p->stages[c->in[k]];
    int64_t lo = hls_out_lanes(u), li = hls_in_lanes(c), bo = hls_cdiv(in_channels(c, k), lo);
    int64_t held = fifo_depth(p, c->in[k], ci) + (lo < li ? 2 * hls_min64(li / lo, bo) : 2);
    int64_t px = hls_max64(1, c->h * c->w), pt[2];
    if (held / bo >= px)
        return INT64_MIN;
    concat_pixel(p, c, pt);
    return fwd - tail - EDGE_LAT - (k == 0 ? pt[1] : 0) -
           held / bo * hls_max64(pt[0] + pt[1], (fwd - ain) / px);
}

static int64_t row_take(const HlsPlan *p, const int *cons, int di, int64_t iy,
                        const int64_t *comp, int depth);

/* The on-chip consumers of every stage, skip FIFOs aside, as one array:
 * stage i's are entries cons[i] .. cons[i + 1] - 1 from cons[nstage + 1]
 * on (a consumer with two inputs from i appears twice, as the scan over
 * its inputs would visit it).  Built once per hls_plan_timing: the walks
 * down the chain ask for them at every row.  Caller frees. */
static int *consumer_lists(const HlsPlan *p)
{
    int n = p->nstage, i, j, k, m = 0, *cons;
    for (j = 0; j < n; j++)
        m += p->stages[j].nin;
    cons = calloc((size_t)(n + 2 + m), sizeof *cons);
    if (!cons)
        gir_die("out of memory");
    m = n + 1;
    for (i = 0; i < n; i++) {
        cons[i] = m;
        for (j = 0; j < n; j++) {
            const HlsStage *d = &p->stages[j];
            for (k = 0; k < d->nin; k++)
                if (d->in[k] == i && on_chip_in(p, d, k) && !skip_edge(p, i, j))
                    cons[m++] = j;
        }
    }
    cons[n] = m;
    return cons;
}

/* The latest cycle the on-chip consumers of stage xi (skip FIFOs aside,
 * consumer_lists) take the last beat of its output row r (row_take);
 * INT64_MIN when none holds it back. */
static int64_t consumers_take(const HlsPlan *p, const int *cons, int xi, int64_t r,
                              const int64_t *comp, int depth)
{
    int64_t t = INT64_MIN;
    int e;
    for (e = cons[xi]; e < cons[xi + 1]; e++)
        t = hls_max64(t, row_take(p, cons, cons[e], r, comp, depth + 1));
    return t;
}

/* The cycle windowed stage ci issues the last op of its output row oy: at
 * its own pace, its frame ending at end[ci], or, held back, once its
 * consumers took its output up to what its output buffer holds (its ops
 * issue on the buffer's credit).  Below the first stage the own pace runs
 * from the stage's start (comp), not from its input's end: a stage waiting
 * for its input holds nothing back. */
static int64_t row_issue_end(const HlsPlan *p, const int *cons, int ci, int64_t oy,
                             const int64_t *end, const int64_t *comp, int depth)
{
    const HlsStage *c = &p->stages[ci];
    int64_t bd = band_rows(c);
    int64_t t = end[ci] - (bd ? band_after(p, c, oy / bd) : ops_after_row(c, oy)) - c->lat;
    double held = held_rows(c);
    int64_t ob = oy - (int64_t)held, a, rest;
    if (bd && depth <= 32) {
        /* in bands: the band's first op once the band two before it left
         * the buffer, then its passes up to row oy's last op */
        int64_t b = oy / bd, by1 = hls_min64(c->oh, (b + 1) * bd);
        if (b < 2)
            return t;
        a = consumers_take(p, cons, ci, (b - 1) * bd - 1, comp, depth);
        if (a == INT64_MIN)
            return t;
        rest = band_ops_after(c, by1 - b * bd, by1 - b * bd) -
               (by1 - 1 - oy) * hls_cdiv(conv_row_ops(c), band_tiles(c));
        return hls_max64(t, a - EDGE_LAT + rest);
    }
    if (ob < 0 || depth > 32)
        return t;
    a = consumers_take(p, cons, ci, ob, comp, depth);
    if (a == INT64_MIN)
        return t;
    /* what of row oy the output buffer cannot hold is issued after the
     * consumer frees the slot for row ob */
    rest = (int64_t)ceil((1.0 - (held - floor(held))) * (double)row_ops(c));
    return hls_max64(t, a - EDGE_LAT + rest);
}

/* The cycle stage di takes the last beat of its input row iy as far as
 * the stages below it hold it back (INT64_MIN: nothing does).  A windowed
 * stage takes the row once the output row that frees its slot is issued;
 * a stream stage once its consumers take the output row the input row
 * makes (maxpool: the row completing a window; upsample: the row's first
 * copy; joins: the same row), less its latency. */
static int64_t row_take(const HlsPlan *p, const int *cons, int di, int64_t iy,
                        const int64_t *comp, int depth)
{
    const HlsStage *d = &p->stages[di];
    int64_t oy, t;
    if (depth > 32)
        return INT64_MIN;
    switch (d->kind) {
    case HLS_ST_CONV:
    case HLS_ST_DWCONV:
        oy = release_row(d, iy);
        return oy < 0 ? INT64_MIN : row_issue_end(p, cons, di, oy, comp, comp, depth);
    case HLS_ST_MAXPOOL:
        oy = iy + d->pad - (d->k - 1);
        if (oy < 0)
            return INT64_MIN;
        oy /= hls_max64(1, d->stride);
        break;
    case HLS_ST_UPSAMPLE:
        oy = iy * (d->h ? d->oh / d->h : 1);
        break;
    default:
        oy = iy;
        break;
    }
    t = consumers_take(p, cons, di, hls_min64(oy, d->oh - 1), comp, depth);
    return t > INT64_MIN ? t - EDGE_LAT - d->lat : t;
}

/* The frame barrier of a windowed consumer in steady state.  kiln_conv_window
 * takes no row of frame n+1 from its last input row of frame n until its
 * last op of frame n issued (restart, t_done - lat).  Frame n+1's first beat
 * reaches it from the stream chain above it: a stage u of that chain starts
 * frame n+1 once it ended frame n (about t_done(u) - lat(u)), and its first
 * beats take first[s] - a[u] to come out of s, the consumer's producer.
 * The latest of these, plus the time the chain below u then still computes
 * into its output buffers, is when the chain can deliver; a restart later than
 * that holds the chain back each frame by the difference, which the stage
 * setting that time carries on top of its cycles (its head: the others
 * had time to spare).  Returns that stall and the head in *head. */
static int64_t barrier_stall(const HlsPlan *p, int c, const int64_t *first, const int64_t *a,
                             int *head)
{
    const HlsStage *cs = &p->stages[c];
    int64_t worst = 0;
    int k;
    *head = -1;
    if (cs->kind != HLS_ST_CONV && cs->kind != HLS_ST_DWCONV)
        return 0;
    for (k = 0; k < cs->nin; k++) {
        int s = cs->in[k], u, h = -1, depth;
        int64_t r, f = INT64_MIN, held;
        if (!on_chip_in(p, cs, k) || skip_edge(p, s, c))
            continue;
        r = cs->t_done - cs->lat;
        /* up the chain through single stream inputs; once the first beat
         * waits at c, the chain still computes what its output buffers hold
         * (a conv's held rows at its pace, counted from s up to the head) */
        for (u = s, depth = 0, held = 0; u >= 0 && depth < 16; depth++) {
            const HlsStage *us = &p->stages[u];
            int64_t fu;
            held += (int64_t)(held_rows(us) * (double)us->cycles / (double)hls_max64(1, us->oh));
            fu = us->t_done - us->lat + (first[s] - a[u]) + held;
            if (u == s) /* s restarts with its producers held back: its first
                         * rows come as they deliver them, not at the warm
                         * frame's pace */
                fu = hls_min64(fu, us->t_done - us->lat + restart_wait(p, us) +
                                       stage_fill(us, 0.0) + held);
            if (fu > f) {
                f = fu;
                h = u;
            }
            if (us->nin != 1 || !on_chip_in(p, us, 0))
                break;
            u = us->in[0];
        }
        if (h >= 0 && r - f > worst) {
            worst = r - f;
            *head = h;
        }
    }
    return worst;
}

/* Per-stage times of the iteration in hls_plan_timing, cycles from the
 * run's start, indexed by stage. */
typedef struct {
    int64_t *first; /* first output beat (the first forward pass) */
    int64_t *tail;  /* work left after the last input beat */
    int64_t *fwd;   /* t_done of the first forward pass */
    int64_t *comp;  /* the engine alone: its last op from its first input beat */
    int64_t *ain;   /* first input beat (the first forward pass) */
    int64_t *stall; /* what a windowed consumer's frame barrier stalls the stage */
    int64_t *fwdt;  /* t_done of the latest forward pass */
    int64_t *fdl;   /* delay of the first rows from a windowed producer (fill_delay) */
} Times;

/* First (*a) and last (*e) input beat of stage s: from a DDR reader, from
 * a producer's frame read back through DDR, or from a producer on chip. */
static void input_span(const HlsPlan *p, const HlsStage *s, const int64_t *first, int64_t *a,
                       int64_t *e)
{
    int k;
    *a = *e = 0;
    for (k = 0; k < s->nin; k++) {
        int64_t ak, ek;
        if (s->in[k] < 0 || p->stages[s->in[k]].segment != s->segment) {
            ak = HLS_HW_DDR_LAT + RD_PIPE;
            ek = ak + in_beats(s, k) * s->npass * hls_ddr_pace(hls_in_lanes(s)) - 1;
        } else if (s->in_ddr[k]) {
            /* the producer's frame written (last B), then read back */
            ak = p->stages[s->in[k]].t_done + WR_DONE + HLS_HW_DDR_LAT + RD_PIPE;
            ek = ak + in_beats(s, k) * s->npass * hls_ddr_pace(hls_in_lanes(s)) - 1;
        } else {
            ak = first[s->in[k]] + EDGE_LAT;
            ek = p->stages[s->in[k]].t_done + EDGE_LAT;
        }
        *a = hls_max64(*a, ak);
        *e = hls_max64(*e, ek);
    }
}

/* The last op of a conv in bands whose first input beat is at `a`, its
 * input rows coming as its producer on chip sends them (row_end: a
 * producer in bands a band at a time) and as its bands let them in
 * (band_issue); 0 for any other stage. */
static int64_t band_rows_in(const HlsPlan *p, int i, const Times *tm, int64_t a)
{
    const HlsStage *s = &p->stages[i];
    int64_t nin, d1, step, t, *arr, iy;
    if (!band_paces(p, s, &nin, &d1, &step))
        return 0;
    arr = calloc((size_t)s->h + 1, sizeof *arr);
    if (!arr)
        gir_die("out of memory");
    for (iy = 0; iy < s->h; iy++)
        arr[iy] = row_end(p, s->in[0], iy, tm->first, tm->fwd, tm->ain, 0) +
                  EDGE_LAT - a;
    t = a - 1 + band_issue(s, nin, step, d1, -1, arr) +
        (s->cycles - band_issue(s, nin, nin, nin, -1, NULL));
    free(arr);
    return t;
}

/* Forward, topological: each stage's t_done from its inputs' times (round
 * 0 also fixes first, ain, fdl and fwd).  1 when a t_done grew. */
static int forward_pass(HlsPlan *p, int round, Times *tm)
{
    int i, changed = 0;
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        int64_t a, e, t;
        double pace = 1.0; /* input cycles per input pixel */
        input_span(p, s, tm->first, &a, &e);
        if (s->h * s->w > 0)
            pace = (double)(e - a + 1) / (double)(s->h * s->w);
        tm->tail[i] = stage_tail(s);
        if (s->kind == HLS_ST_UPSAMPLE)
            tm->tail[i] = upsample_join_tail(p, i, tm->tail[i]);
        if (round == 0)
            tm->ain[i] = a;
        /* a conv computes nothing before its first weight tile is in */
        a = hls_max64(a, wtile0_ready(s));
        if (round == 0) { /* first beats from the forward pass alone */
            /* rows of a windowed producer come as it makes them (a
             * maxpool's first row within its input's second, say), not
             * at the frame's mean pace; the producers' first and fwd
             * are fixed from here on, and so is the delay */
            int64_t own;
            tm->fdl[i] = fill_delay(p, i, tm->first, tm->fwd, tm->ain, &own);
            tm->first[i] = a + (own >= 0 ? own + tm->fdl[i] + band_fill(s) + s->lat : stage_fill(s, pace));
        }
        tm->comp[i] = a + s->paced - 1 + tm->fdl[i];
        tm->comp[i] = hls_max64(tm->comp[i], band_rows_in(p, i, tm, a));
        t = hls_max64(tm->comp[i], e + tm->tail[i]);
        if (round == 0)
            tm->fwd[i] = t;
        tm->fwdt[i] = t;
        if (t > s->t_done) {
            s->t_done = t;
            changed = 1;
        }
    }
    return changed;
}

/* Backward: a producer's last beat waits for its consumer to take it
 * (back-pressure).  1 when a t_done grew. */
static int back_pressure(HlsPlan *p, const Times *tm, const int *cons)
{
    int i, k, changed = 0;
    for (i = p->nstage - 1; i >= 0; i--) {
        const HlsStage *c = &p->stages[i];
        for (k = 0; k < c->nin; k++) {
            int u = c->in[k];
            int64_t take;
            if (!on_chip_in(p, c, k))
                continue;
            if (skip_edge(p, u, i)) {
                /* sized for the wait at the interval's pace: a concat
                 * slower than its producer still fills it */
                if (c->kind != HLS_ST_CONCAT || c->nin < 2)
                    continue;
                take = fifo_take(p, i, k, tm->ain[i], tm->fwd[i], tm->tail[i]);
            } else if (c->kind == HLS_ST_CONV || c->kind == HLS_ST_DWCONV) {
                /* a windowed engine takes its last input row once
                 * the output row that frees a slot is issued, at its
                 * pace or at the pace the stages below it allow */
                int64_t oy = release_row(c, c->h - 1);
                if (oy < 0)
                    continue; /* its whole input fits in its line buffer */
                take = row_issue_end(p, cons, i, oy, tm->fwdt, tm->comp, 0) - EDGE_LAT;
            } else {
                /* a stream engine holds its producer back by the tail
                 * the forward pass gave it (an upsample at its join's
                 * pace); a concat takes its first input's last beat
                 * before the second input's beats of the last pixel */
                take = c->t_done - tm->tail[i] - EDGE_LAT;
                if (c->kind == HLS_ST_CONCAT && k == 0 && c->nin > 1) {
                    int64_t pt[2];
                    concat_pixel(p, c, pt);
                    take -= pt[1];
                }
            }
            /* released by a windowed engine that sets the pace to its
             * frame's end, the producer still makes what it has not
             * buffered of its last row */
            if (band_rows(c) && !skip_edge(p, u, i)) {
                /* in bands: the row the band's release lets in (band_paces) */
                int64_t nin, d1, step;
                band_paces(p, c, &nin, &d1, &step);
                take += d1;
            } else if ((c->kind == HLS_ST_CONV || c->kind == HLS_ST_DWCONV) &&
                       (tm->comp[i] >= c->t_done || c->t_done > tm->fwdt[i]))
                take += hls_max64(produce(p, u, 1, 0, 0),
                                  hop_time(&p->stages[u], c, in_channels(c, k), 1));
            if (take > p->stages[u].t_done) {
                p->stages[u].t_done = take;
                changed = 1;
            }
        }
    }
    return changed;
}

/* occupancy: a stage starts a frame's input only after the previous
 * frame's last op; a producer it held back then first delivers the rows
 * the stage needs, and a windowed consumer's frame barrier holds the
 * chain above it back (barrier_stall).  The slowest occupancy is the
 * pipeline's interval. */
static void set_occupancy(HlsPlan *p, Times *tm)
{
    int i;
    for (i = 0; i < p->nstage; i++) {
        int h;
        int64_t st = barrier_stall(p, i, tm->first, tm->ain, &h);
        if (h >= 0)
            tm->stall[h] = hls_max64(tm->stall[h], st);
    }
    p->compute_ii = 0;
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        s->occupancy = s->paced + restart_wait(p, s) + tm->stall[i];
        /* every group's weights through the one channel each frame */
        s->occupancy = hls_max64(s->occupancy, wload_frame(s));
        if (s->occupancy > p->compute_ii) {
            p->compute_ii = s->occupancy;
            p->slowest = i;
        }
    }
    p->ddr_bound = p->ddr_cycles > p->compute_ii;
    p->interval = p->ddr_bound ? p->ddr_cycles : p->compute_ii;
}

int64_t hls_segment_interval(const HlsPlan *p, int seg)
{
    double bpc = p->board.ddr_gbps * 1e9 / (p->mhz * 1e6);
    int64_t occ = 0, bytes = 0;
    int i;
    if (seg >= p->nsegment && seg < p->nsegment + p->fold.npart)
        return p->fold.parts[seg - p->nsegment].cycles;
    for (i = 0; i < p->nstage; i++)
        if (p->stages[i].segment == seg) {
            occ = hls_max64(occ, p->stages[i].occupancy);
            bytes += p->stages[i].ddr_bytes;
        }
    return hls_max64(occ, (int64_t)ceil((double)bytes / bpc));
}

/* latency: the segments one after the other, each until its last output
 * is in DDR */
int64_t hls_segment_latency(const HlsPlan *p, int seg)
{
    int64_t lat = 0;
    int i;
    if (seg >= p->nsegment && seg < p->nsegment + p->fold.npart)
        return p->fold.parts[seg - p->nsegment].cycles;
    for (i = 0; i < p->nstage; i++)
        if (p->stages[i].segment == seg)
            lat = hls_max64(lat, p->stages[i].t_done + WR_DONE);
    return lat;
}

static int64_t segments_latency(const HlsPlan *p)
{
    int64_t lat = 0;
    int k;
    for (k = 0; k < p->nsegment; k++)
        lat += hls_segment_latency(p, k);
    return lat;
}

void hls_plan_timing(HlsPlan *p)
{
    size_t n = (size_t)p->nstage + 1;
    int64_t *buf = calloc(8 * n, sizeof *buf);
    int *cons = consumer_lists(p);
    Times tm;
    int i, round;
    if (!buf)
        gir_die("out of memory");
    tm = (Times){buf, buf + n, buf + 2 * n, buf + 3 * n, buf + 4 * n, buf + 5 * n, buf + 6 * n,
                 buf + 7 * n};
    for (i = 0; i < p->nstage; i++) {
        p->stages[i].t_done = 0;
        p->stages[i].paced = paced_cycles(p, &p->stages[i]);
    }
    /* forward and backward until nothing moves (times only grow) */
    for (round = 0; round < 4 * p->nstage + 4; round++) {
        int changed = forward_pass(p, round, &tm);
        if (back_pressure(p, &tm, cons))
            changed = 1;
        if (!changed)
            break;
    }
    set_occupancy(p, &tm);
    p->latency = segments_latency(p);
    free(cons);
    free(buf);
}
