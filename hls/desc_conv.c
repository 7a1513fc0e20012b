/*
 * Descriptors of the conv family: kiln_conv, kiln_dwconv, kiln_requant.
 *
 * Cycle models mirror the row-level flow control of kiln_conv_window.v (see
 * its header): they simulate input and output rows, not cycles, so they cost
 * O(H) and are exact.  Resource formulas are fitted to yosys synth_xilinx
 * -family xcup runs (bench/synth/, docs/rtl-resources.md).
 */
#include "hls/hls.h"
#include "hls/res_util.h"

#include <stddef.h>
#include <stdlib.h>

/* ---------------- shared row-level window model ---------------- */

/* Shape of one frame through kiln_conv_window, and how its weight tiles
 * arrive.  Times are cycles from the first input beat (cycle 0). */
typedef struct WinShape {
    int64_t h, w;     /* input map */
    int64_t k, s, p;  /* kernel, stride, padding */
    int64_t nin;      /* cycles per input row (beats) */
    int64_t kki;      /* ops per output group of one pixel group (K*K*ICG) */
    int64_t pp;       /* output pixels per op */
    int64_t span;     /* 1: pixel groups run across row ends (kiln_conv_window SPAN) */
    int64_t r;        /* line-buffer rows */
    int64_t lat;      /* issue of an op to its output beat */
    int64_t npass;    /* passes over the frame (weight tiles) */
    int64_t tog;      /* output groups per tile (the last tile: the rest) */
    int64_t ocg;      /* output groups in all */
    int64_t wpg;      /* weight beats per output group */
    int64_t wbanks;   /* weight banks (1, 2) */
    int64_t wlead;    /* cycles tile 0's load ends before the first input beat (< 0: after) */
    int64_t wfree1;   /* WBANKS 2: the cycle tile 1's bank is free (a layer before it) */
    HlsConvLoads *ld; /* NULL, or out: the frame's last load and passes */
    int64_t band;     /* output rows per band (kiln_conv cfg_band; 0: no bands) */
    int64_t *tail;    /* NULL, or the cycles of the last ntail output beats (a ring, PP > 1) */
    int64_t ntail;    /* its size */
} WinShape;

/* Output side of the model: when the last beat left, given when each
 * result became ready.  PP = 1: a FIFO, every result leaves when ready.
 * PP > 1: the reorder buffer sends pixel 0's groups, then pixel 1's, one
 * beat a cycle. */
typedef struct OutState {
    int64_t last;  /* cycle of the last output beat so far (-1: none) */
    int64_t *tail; /* NULL, or a ring of the last ntail beats' cycles */
    int64_t ntail; /* its size */
    int64_t beats; /* beats so far (with tail) */
} OutState;

static void out_group(OutState *o, const WinShape *sh, int64_t t_first_result, int64_t tg,
                      int64_t npx)
{
    int64_t px, g, n = npx * tg;
    if (sh->pp == 1) {
        o->last = t_first_result + (tg - 1) * sh->kki;
        return;
    }
    if (!o->tail) {
        /* the last of n beats, one a cycle, each no earlier than its
         * result: the latest of (a beat's ready cycle + the beats after
         * it), which for pixel 0's last group (kki >= 1) or first is the
         * largest, or the previous last + n */
        int64_t ready = t_first_result + (sh->kki >= 1 ? (tg - 1) * (sh->kki - 1) : 0) + n - 1;
        if (n > 0)
            o->last = hls_max64(o->last + n, ready);
        return;
    }
    for (px = 0; px < npx; px++)
        for (g = 0; g < tg; g++) {
            o->last = hls_max64(o->last + 1, t_first_result + g * sh->kki);
            if (o->tail)
                o->tail[o->beats++ % o->ntail] = o->last;
        }
}

/* Input rows output row oy needs (the rows up to its windows' last). */
static int64_t row_need(const WinShape *sh, int64_t oy)
{
    return hls_min64(sh->h, oy * sh->s - sh->p + sh->k);
}

/* The pixel groups that start in output row oy: na within the row, then
 * nb = 1 that runs into row oy+1 (SPAN only; never from the last row).
 * Without SPAN every row has ngx groups of its own. */
typedef struct RowGroups {
    int64_t first; /* index of the row's first group in the frame */
    int64_t na, nb;
} RowGroups;

static RowGroups row_groups(const WinShape *sh, int64_t oy, int64_t hout, int64_t wout,
                            int64_t span)
{
    RowGroups g;
    if (!span) {
        g.first = oy * hls_cdiv(wout, sh->pp);
        g.na = hls_cdiv(wout, sh->pp);
        g.nb = 0;
        return g;
    }
    g.first = hls_cdiv(oy * wout, sh->pp);
    g.nb = oy + 1 < hout && hls_cdiv((oy + 1) * wout, sh->pp) * sh->pp > (oy + 1) * wout;
    g.na = hls_cdiv((oy + 1) * wout, sh->pp) - g.first - g.nb;
    return g;
}

/* Exact cycles, first input beat to last output beat inclusive; -1 on a bad
 * shape.  Per pass: input row iy is written in nin cycles once the line
 * buffer slot is free; the groups of output row oy start when their rows are
 * in, row oy-1 is done and (first row) the pass's weight bank is full; ops
 * issue back to back.  With SPAN a row's last group may run into the next
 * row: it waits for that row's input rows too (the rows are checked at each
 * group start, and rows only complete, so the row's first group and that one
 * are the checks that can wait).  The next pass's input starts the cycle
 * after both the last op and the last input beat of this pass.  A tile's
 * weights stream one beat a cycle from when its bank is free (the previous
 * tile is loaded and the pass WBANKS earlier released it LAT cycles after
 * its last op); tile 0's load ends wlead cycles before the first input
 * beat (negative: -wlead cycles after it, as when the input starts with
 * the weights; the first op waits for it). */
static int64_t win_cycles(const WinShape *sh)
{
    int64_t hout, wout, iy, q, t0 = 0, load_end = -sh->wlead, res, span, npix;
    int64_t *wen, *end, *csa, *csb, *pend;
    OutState os = {-1, sh->tail, sh->ntail, 0};
    if (sh->h < 1 || sh->w < 1 || sh->k < 1 || (sh->s != 1 && sh->s != 2) || sh->p < 0 ||
        sh->p >= sh->k || sh->h + 2 * sh->p < sh->k || sh->w + 2 * sh->p < sh->k ||
        sh->npass < 1 || sh->pp < 1)
        return -1;
    hout = (sh->h + 2 * sh->p - sh->k) / sh->s + 1;
    wout = (sh->w + 2 * sh->p - sh->k) / sh->s + 1;
    npix = hout * wout;
    span = sh->span && hls_span_runs(sh->pp, wout, sh->k, sh->s, sh->r);
    wen = malloc(sizeof *wen * (size_t)sh->h);
    end = malloc(sizeof *end * (size_t)hout);
    csa = malloc(sizeof *csa * (size_t)hout);
    csb = malloc(sizeof *csb * (size_t)hout);
    pend = malloc(sizeof *pend * (size_t)sh->npass);
    if (!wen || !end || !csa || !csb || !pend) {
        free(wen);
        free(end);
        free(csa);
        free(csb);
        free(pend);
        return -1;
    }
    for (q = 0; q < sh->npass; q++) {
        int64_t tg = hls_min64(sh->tog, sh->ocg - q * sh->tog);
        int64_t gops = tg * sh->kki, oy_done = 0, oy;
        if (q > 0) {
            /* this tile's load: after the previous load, into a released bank */
            int64_t start = load_end;
            if (q >= sh->wbanks)
                start = hls_max64(start, pend[q - sh->wbanks] + sh->lat);
            else
                start = hls_max64(start, sh->wfree1);
            load_end = start + tg * sh->wpg;
        }
        for (iy = 0; iy <= sh->h; iy++) {
            int64_t t = iy ? wen[iy - 1] : t0;
            /* compute every output row whose groups' input rows are all in
             * before iy */
            while (oy_done < hout) {
                RowGroups g = row_groups(sh, oy_done, hout, wout, span);
                int64_t need_b = g.nb ? row_need(sh, oy_done + 1) : row_need(sh, oy_done);
                if (need_b > iy)
                    break;
                csa[oy_done] = hls_max64(oy_done ? end[oy_done - 1] : load_end,
                                     wen[row_need(sh, oy_done) - 1]);
                csb[oy_done] = hls_max64(csa[oy_done] + g.na * gops, wen[need_b - 1]);
                end[oy_done] = csb[oy_done] + g.nb * gops;
                oy_done++;
            }
            if (iy == sh->h)
                break;
            if (iy >= sh->r) {
                /* first output row whose end releases the slot of row iy - R */
                oy = 0;
                while (oy < hout - 1 && hls_max64(0, (oy + 1) * sh->s - sh->p) + sh->r <= iy)
                    oy++;
                t = hls_max64(t, end[oy]); /* oy < oy_done: it needs rows < iy only */
            }
            wen[iy] = t + sh->nin;
        }
        /* results: group gx of a row, output group g ready at
         * cs + (gx*tg + g + 1)*kki - 1 + lat; a group's pixels are pp, the
         * row's (row by row) or the frame's (SPAN) last one fewer */
        for (oy = 0; oy < hout; oy++) {
            RowGroups g = row_groups(sh, oy, hout, wout, span);
            int64_t gx;
            if (sh->pp == 1) {
                out_group(&os, sh, end[oy] - 1 - (tg - 1) * sh->kki + sh->lat, tg, 1);
                continue;
            }
            for (gx = 0; gx < g.na; gx++)
                out_group(&os, sh, csa[oy] + (gx * tg + 1) * sh->kki - 1 + sh->lat, tg,
                          span ? hls_min64(sh->pp, npix - (g.first + gx) * sh->pp)
                               : hls_min64(sh->pp, wout - gx * sh->pp));
            if (g.nb)
                out_group(&os, sh, csb[oy] + sh->kki - 1 + sh->lat, tg, sh->pp);
        }
        pend[q] = end[hout - 1];
        t0 = hls_max64(end[hout - 1], wen[sh->h - 1]) + 1;
    }
    res = os.last + 1;
    if (sh->tail) /* the ring's count */
        sh->tail[sh->ntail] = os.beats;
    if (sh->ld) {
        sh->ld->wend = load_end;
        sh->ld->pend_last = pend[sh->npass - 1];
        sh->ld->pend_prev = sh->npass > 1 ? pend[sh->npass - 2] : HLS_CONV_NEVER;
    }
    free(wen);
    free(end);
    free(csa);
    free(csb);
    free(pend);
    return res;
}

/* Exact cycles of a frame in bands (sh->band > 0; kiln_conv's band
 * buffer), first input beat to last output beat inclusive; -1 on a bad
 * shape.  Each input row is written once, in nin cycles, once the band
 * being issued still needs rows from within R of it (the band's first
 * window row); band b's passes (one per tile, pass P = b * NT + q loading
 * its tile as win_cycles does, when there are several) issue its rows as
 * win_cycles does, its pixel groups numbered within the band; band b's
 * first op also waits until band b-2 left the buffer.  A band's buffer half
 * is read from LAT cycles after its last op, once the band before it is
 * read, one beat a cycle, the first beat two cycles after the read starts. */
static int64_t win_cycles_band(const WinShape *sh)
{
    int64_t hout, wout, nb, nt, b, iy = 0, load_end = 0, prev_end = 0, res;
    int64_t rd_t[2] = {0, 0}, rd_n[2] = {0, 0}; /* bands b-1, b-2: read start, beats */
    int64_t *wen, *pend;
    int span;
    if (sh->h < 1 || sh->w < 1 || sh->k < 1 || (sh->s != 1 && sh->s != 2) || sh->p < 0 ||
        sh->p >= sh->k || sh->h + 2 * sh->p < sh->k || sh->w + 2 * sh->p < sh->k ||
        sh->pp < 1 || sh->band < 1 || sh->tog < 1)
        return -1;
    hout = (sh->h + 2 * sh->p - sh->k) / sh->s + 1;
    wout = (sh->w + 2 * sh->p - sh->k) / sh->s + 1;
    if ((hls_min64(sh->band, hout) - 1) * sh->s + sh->k > sh->r)
        return -1; /* a band's rows do not fit the line buffer */
    nb = hls_cdiv(hout, sh->band);
    nt = hls_cdiv(sh->ocg, sh->tog);
    span = sh->span && hls_span_runs(sh->pp, wout, sh->k, sh->s, sh->r);
    wen = malloc(sizeof *wen * (size_t)sh->h);
    pend = malloc(sizeof *pend * (size_t)(nb * nt));
    if (!wen || !pend) {
        free(wen);
        free(pend);
        return -1;
    }
    for (b = 0; b < nb; b++) {
        int64_t by0 = b * sh->band, by1 = hls_min64(hout, by0 + sh->band);
        int64_t need = hls_min64(sh->h, (by1 - 1) * sh->s - sh->p + sh->k);
        int64_t gate = b >= 2 ? rd_t[1] + rd_n[1] : 0, q, n;
        /* the rows this band needs: each once the band issuing then lets it in */
        for (; iy < need; iy++) {
            int64_t t = iy ? wen[iy - 1] : 0, c;
            /* the first band that takes row iy; its issue starts when the
             * band before it ends (c = b here at the latest: rows of this band
             * are within R of its first) */
            for (c = 0; c < b && hls_max64(0, c * sh->band * sh->s - sh->p) + sh->r <= iy; c++)
                ;
            if (c > 0)
                t = hls_max64(t, pend[c * nt - 1]);
            wen[iy] = t + sh->nin;
        }
        for (q = 0; q < nt; q++) {
            int64_t pi = b * nt + q, tg = hls_min64(sh->tog, sh->ocg - q * sh->tog);
            int64_t gops = tg * sh->kki, oy, end = 0;
            if (nt > 1 && pi > 0) {
                int64_t start = load_end;
                if (pi >= sh->wbanks)
                    start = hls_max64(start, pend[pi - sh->wbanks] + sh->lat);
                load_end = start + tg * sh->wpg;
            }
            end = hls_max64(hls_max64(prev_end, load_end), gate);
            for (oy = by0; oy < by1; oy++) {
                int64_t ra = (oy - by0) * wout, first, na, nbg, csa, csb;
                int64_t need_a = hls_min64(sh->h, oy * sh->s - sh->p + sh->k), need_b;
                if (span) {
                    first = hls_cdiv(ra, sh->pp);
                    nbg = oy + 1 < by1 && hls_cdiv(ra + wout, sh->pp) * sh->pp > ra + wout;
                    na = hls_cdiv(ra + wout, sh->pp) - first - nbg;
                } else {
                    na = hls_cdiv(wout, sh->pp);
                    nbg = 0;
                }
                need_b = nbg ? hls_min64(sh->h, (oy + 1) * sh->s - sh->p + sh->k) : need_a;
                csa = hls_max64(end, wen[need_a - 1]);
                csb = hls_max64(csa + na * gops, wen[need_b - 1]);
                end = csb + nbg * gops;
            }
            pend[pi] = end;
            prev_end = end;
        }
        /* the band's half: read once full and the band before is read */
        n = (by1 - by0) * wout * sh->ocg;
        rd_t[1] = rd_t[0];
        rd_n[1] = rd_n[0];
        rd_t[0] = hls_max64(prev_end - 1 + sh->lat, b ? rd_t[1] + rd_n[1] : 0);
        rd_n[0] = n;
    }
    res = rd_t[0] + rd_n[0] + 2;
    free(wen);
    free(pend);
    return res;
}

/* ---------------- kiln_conv ---------------- */

/* Fitted on docs/rtl-resources.md (yosys 0.23); the base as the generated
 * top instantiates the engine (cfg tied to constants: its shape arithmetic
 * folds), measured on the convs of the YOLOv3-tiny designs for Ultra96-V2
 * (2 x 4 arrays) and ZCU104 (16 x 4 .. 4 x 64 PP 2), about 400 LUT below
 * the free-cfg fit (967). */
#define CV_LUT_BASE 567.0 /* sequencer, loader, output buffer */
#define CV_LUT_WBRAM 10.0 /* per weight RAMB36: read-data cascade muxes */
#define CV_LUT_WURAM 33.0 /* per weight URAM288: the same (conv10 of the ZCU104
                           * design, 2 x 32 PP 2, 40 URAM288: 6225 LUT) */
#define CV_LUT_LANE 40.0  /* per output lane beyond its requant: accumulator, parameters */
#define CV_LUT_ADD 1.0    /* a tree adder's result bit (tree_bits): kiln_add3 is a
                           * LUT6_2 a bit (KILN_XILINX_PRIMS), a two-input node
                           * a LUT2 a bit and its carry chain; yosys 0.23, PE
                           * 8x8 PACK 2 PIPE 3: 424 LUT6_2 + the plain adds'
                           * 136 against tree_bits' 576, the engine 4455 LUT
                           * (predicted 4466; binary tree: 4817); 16x4 PACK 2
                           * PIPE 4: 3147 (3006; binary 3590); DSP2X 2 PP 2
                           * 8x8 PACK 2: 7462 (7572; binary 8241) */
#define CV_LUT_CASC 8.0   /* CASC, per skewed int8 operand and product from the
                           * fifth: its delay in SRL16E/SRLC32E (yosys 0.23:
                           * one chain 64/192/448 LUT at N 8/16/32,
                           * bench/synth/dsp_chain_synth.py); the weights a
                           * lane, the activations a pixel (yosys merges the
                           * PE_OC lanes' equal delay lines: PE 8x8 280 SRL) */
#define CV_LUT_PACK 3.8   /* PACK=2 fix-up per packed MAC */
#define CV_LUT_SPAN 15.0  /* SPAN, per pixel lane: its row-end compare and the
                           * row and column corrections of its read address
                           * (conv4 of the ZCU104 design, 4 x 16 PP 3, in
                           * context: 7022 LUT with SPAN, 6979 without) */
#define CV_LUT_2X_AMUX 8.0  /* DSP2X: an activation pair's byte multiplexer */
#define CV_LUT_2X_WMUX1 8.0 /* DSP2X: a weight pair's multiplexer (PACK 1) */
#define CV_LUT_2X_WMUX2 36.0 /* DSP2X, PACK 2: packing two weight pairs, their multiplexer */
#define CV_LUT_2X_FIX 17.0  /* DSP2X, PACK 2: the high field's sign carry, per DSP */
#define CV_LUT_2X_ACC 54.0  /* DSP2X, per DSP: yosys 0.23 packs neither the registers nor
                             * the accumulator into a DSP48E2 (it does for DSP48E1), so
                             * the P register's 36-bit add and its load/add select are
                             * LUT/CARRY; fitted on PE 8x8 PACK 2 PIPE 3: 5461 LUT
                             * against 4539 without DSP2X (Vivado's DSP48E2 takes them) */
#define CV_FF_2X2 160.0     /* DSP2X, PACK 2, per DSP: operand, product, sum and hold
                             * registers (unpacked, as above) and the sum's clk-domain
                             * copy; the same point: 5067 FF against 4093 */
#define CV_FF_2X1 74.0      /* DSP2X, PACK 1, per DSP: the same, narrower (one int8
                             * weight, 17-bit sums; yosys merges the sign copies):
                             * PE 8x8 PP 2 PIPE 1: 7301 FF against 4588 (LUT 11602
                             * against 9742, predicted 12364) */
#define CV_LUT_2XP_AMUX 8.0 /* DSP2X 2 (pixel pairs): a pixel pair's activation byte
                             * multiplexer, per input lane (shared by the output lanes) */
#define CV_LUT_2XP_D2 9.4   /* DSP2X 2, PACK 2, per DSP: packing the weight pair (27-bit
                             * add) and the two high fields' sign carries, in place of
                             * CV_LUT_PACK; fitted on PE 8x8 PACK 2 PIPE 3 RQ_PIPE 4:
                             * PP 2 7553 LUT against 7704 without DSP2X, PP 4 14031
                             * against 14219 (PACK 1 adds nothing a DSP: PP 2 7209
                             * against 7265) */
#define CV_FF_2XP2 180.0    /* DSP2X 2, PACK 2, per DSP in place of the product
                             * registers of its four MACs: the weight, product, P and
                             * hold registers yosys 0.23 leaves in the fabric, and both
                             * products' clk-domain copies; the same points: PP 2 11506
                             * FF against 7642, PP 4 21873 against 14709 */
#define CV_FF_2XP1 90.0     /* DSP2X 2, PACK 1, per DSP: the same, narrower (PP 2 11314
                             * FF against 7578) */
#define CV_FF_BASE 390.0  /* sequencer, loader, window counters */
#define CV_LUT_BAND 250.0 /* bands: the band buffer's write and read counters
                           * and the window's band rows (estimated, not
                           * fitted against yosys) */
#define CV_FF_BAND 200.0  /* bands: their registers and the 4-beat output FIFO
                           * (estimated) */
#define CV_LUT_RQSER 69.0 /* RQS > 1, per result lane: capture/shift of its
                           * accumulator and parameters (70 bits); measured in
                           * context against the same instance at RQS = 1 on
                           * the ZCU104 design: 53..85 per lane at 8..16
                           * results (RQS 8), 33..54 at 2 (RQS 2) */
#define CV_FF_RQSER 91.0  /* RQS > 1, per result lane: the capture and the
                           * gathered output byte (the same points: 80..97) */

static const char *const conv_hw[] = {"PE_IC", "PE_OC", "PP",      "KMAX", "WMAX",
                                      "CIMAX", "COMAX", "WDEPTH",  "WBANKS", "PIPE",
                                      "RQ_PIPE", "PACK", "TOGMAX", "WURAM", "RQS",
                                      "SPAN",  "BANDMAX", "LBROWS", "QLO",   "QHI",
                                      "DSP2X", "LBURAM", "CASC", "WBMERGE", "LBBANK", "RQ_DSP", NULL};
enum { CV_PE_IC, CV_PE_OC, CV_PP, CV_KMAX, CV_WMAX, CV_CIMAX, CV_COMAX, CV_WDEPTH, CV_WBANKS,
       CV_PIPE, CV_RQ_PIPE, CV_PACK, CV_TOGMAX, CV_WURAM, CV_RQS, CV_SPAN, CV_BANDMAX,
       CV_LBROWS, CV_QLO, CV_QHI, CV_DSP2X, CV_LBURAM, CV_CASC, CV_WBMERGE, CV_LBBANK, CV_RQ_DSP };
static const char *const conv_rt[] = {"h",   "w",   "cin", "cout",  "k",
                                      "stride", "pad", "tog", "ipace", "wpace", "band", "wlead", NULL};
enum { RT_H, RT_W, RT_CIN, RT_COUT, RT_K, RT_STRIDE, RT_PAD, RT_TOG, RT_IPACE, RT_WPACE,
       RT_BAND, RT_WLEAD };

/* Line-buffer rows of kiln_conv: for KMAX, and with bands LBROWS. */
static int64_t conv_rows(const int64_t *hw)
{
    return hls_pow2ceil(hls_max64(hw[CV_KMAX] + 1, hw[CV_LBROWS]));
}

/* Adder-tree inputs of one output lane: PE_IC products, or with DSP2X 1 the
 * PE_IC/2 pair sums of the clk2x DSPs (kiln_mac2x; DSP2X 2, pixel pairs:
 * the PE_IC products). */
static int64_t conv_leaves(const int64_t *hw)
{
    return hw[CV_DSP2X] == 1 ? hw[CV_PE_IC] / 2 : hw[CV_PE_IC];
}

/* CASC (with PACK 1, DSP2X 0): each lane's products summed in a DSP48E2
 * chain (kiln_dsp_chain) in place of the multipliers and the tree. */
static int conv_casc(const int64_t *hw)
{
    return hw[CV_CASC] && hw[CV_PACK] == 1 && !hw[CV_DSP2X];
}

/* Levels of kiln_conv's ternary adder tree over v leaves: ceil(log3 v). */
static int64_t tree_levels(int64_t v)
{
    int64_t l = 0, t = 1;
    while (t < v) {
        t *= 3;
        l++;
    }
    return l;
}

/* Register stages between the registered products and the sum: the tree's
 * registered levels, or with CASC the chain's PE_IC + 1. */
static int64_t conv_tree_stages(const int64_t *hw)
{
    if (conv_casc(hw))
        return hw[CV_PE_IC] + 1;
    return hls_min64(hw[CV_PIPE], tree_levels(conv_leaves(hw)));
}

/* DSP2X: the pair sums (1) or the pixel pairs' products (2) reach the clk
 * domain 3 cycles after the op (1 for the plain registered products). */
static int64_t conv_latency(const int64_t *hw)
{
    return 3 + (hw[CV_DSP2X] ? 3 : 1) + conv_tree_stages(hw) + hw[CV_RQ_PIPE] +
           (hw[CV_RQS] > 1 ? hw[CV_RQS] : 0);
}

int64_t hls_conv_group_wbeats(int64_t pe_oc, int64_t kki)
{
    return pe_oc * (3 + kki);
}

/* rt[RT_TOG]: output groups per weight tile; 0 or >= ceil(cout/PE_OC) is the
 * whole layer in one tile (weights loaded before the frame).  rt[RT_IPACE]:
 * cycles per input beat of the source (a DMA channel narrower than PE_IC
 * lanes); 0 or 1: a beat every cycle.  rt[RT_WPACE]: the same for the
 * weight stream (weights from DDR: every beat, parameters included, is
 * PE_IC bytes through a channel of at most 16 bytes a beat). */
static void conv_shape(const int64_t *hw, const int64_t *rt, WinShape *shp)
{
    WinShape sh;
    int64_t icg = hls_cdiv(rt[RT_CIN], hw[CV_PE_IC]);
    int64_t ocg = hls_cdiv(rt[RT_COUT], hw[CV_PE_OC]);
    int64_t tog = rt[RT_TOG] <= 0 ? ocg : hls_min64(rt[RT_TOG], ocg);
    sh.h = rt[RT_H];
    sh.w = rt[RT_W];
    sh.k = rt[RT_K];
    sh.s = rt[RT_STRIDE];
    sh.p = rt[RT_PAD];
    sh.nin = rt[RT_W] * icg * hls_max64(1, rt[RT_IPACE]);
    sh.kki = rt[RT_K] * rt[RT_K] * icg;
    sh.pp = hw[CV_PP];
    sh.span = hw[CV_SPAN];
    /* LBBANK: groups run across a row end only where Wout = W (the next
     * row's pixels follow on in the banks) */
    if (hw[CV_LBBANK] > 0 && rt[RT_STRIDE] > 0 &&
        (rt[RT_W] + 2 * rt[RT_PAD] - rt[RT_K]) / rt[RT_STRIDE] + 1 != rt[RT_W])
        sh.span = 0;
    sh.r = conv_rows(hw);
    sh.lat = conv_latency(hw);
    sh.npass = hls_cdiv(ocg, tog);
    sh.tog = tog;
    sh.ocg = ocg;
    sh.wpg = hls_conv_group_wbeats(hw[CV_PE_OC], sh.kki) * hls_max64(1, rt[RT_WPACE]);
    sh.wbanks = hw[CV_WBANKS];
    sh.wlead = rt[RT_WLEAD];
    sh.wfree1 = HLS_CONV_NEVER;
    sh.ld = NULL;
    sh.band = hw[CV_BANDMAX] > 0 ? hls_max64(1, rt[RT_BAND]) : 0;
    sh.tail = NULL;
    sh.ntail = 0;
    *shp = sh;
}

static int64_t conv_cycles(const int64_t *hw, const int64_t *rt)
{
    WinShape sh;
    conv_shape(hw, rt, &sh);
    return sh.band > 0 ? win_cycles_band(&sh) : win_cycles(&sh);
}

int64_t hls_conv_frame(const int64_t *hw, const int64_t *rt, HlsConvLoads *ld, int64_t n,
                       int64_t *t, int64_t *m)
{
    WinShape sh;
    int64_t *ring = NULL, c, i, beats;
    conv_shape(hw, rt, &sh);
    *m = 0;
    if (sh.band > 0)
        return -1;
    if (ld) {
        sh.wfree1 = ld->wfree1;
        sh.ld = ld;
    }
    if (sh.pp > 1 && n > 0) {
        ring = malloc(sizeof *ring * (size_t)(n + 1)); /* the ring, then its count */
        if (!ring)
            return -1;
        sh.tail = ring;
        sh.ntail = n;
    }
    c = win_cycles(&sh);
    if (c >= 0 && ring) {
        beats = ring[n];
        *m = hls_min64(n, beats);
        for (i = 0; i < *m; i++)
            t[i] = ring[(beats - *m + i) % n];
    }
    free(ring);
    return c;
}

int64_t hls_conv_out_tail(const int64_t *hw, const int64_t *rt, int64_t n, int64_t *t)
{
    WinShape sh;
    int64_t m;
    conv_shape(hw, rt, &sh);
    if (sh.band > 0 || sh.pp <= 1 || n <= 0)
        return 0;
    return hls_conv_frame(hw, rt, NULL, n, t, &m) < 0 ? -1 : m;
}

/* Flip-flops of one kiln_requant lane for its PIPE (see kiln_requant.v):
 * output byte, product + shift, coarse-shifted value + fine shift, inputs. */
static double rq_ff_lane(int64_t pipe)
{
    return (pipe >= 1 ? 8.0 : 0.0) + (pipe >= 2 ? 54.0 : 0.0) + (pipe >= 3 ? 52.0 : 0.0) +
           (pipe >= 4 ? 54.0 : 0.0);
}

/* LUTs of one kiln_requant lane: shifter, range check, round, clamp
 * (fitted); with RQ_DSP 1 the 6x16 high product and its add too (yosys
 * synth_xilinx -family xcup, kiln_requant LANES=4 at PIPE 2, 3, 4: +224,
 * +242, +138 a lane). */
static double rq_lut_lane(int64_t pipe, int64_t rq_dsp)
{
    if (rq_dsp == 1)
        return pipe >= 4 ? 401.0 : pipe >= 3 ? 505.0 : 589.0;
    return pipe >= 3 ? 263.0 : 365.0;
}

/* DSP48E2 of one kiln_requant lane: RQ_DSP 1, else (2, the default) 2. */
static double rq_dsp_lane(int64_t rq_dsp)
{
    return rq_dsp == 1 ? 1.0 : 2.0;
}

/* kiln_conv's ternary adder tree of one output lane (g_tree), walked as the
 * RTL builds it: L = tree_levels(leaves) levels; the node of depth d and
 * position p sums the c = min(3^(L-d), leaves - p 3^(L-d)) inputs below it
 * in lw + flog2(c) bits (an input is at most 2^(lw-2) in magnitude); it is
 * an adder (kiln_add3, or a plain add with two children that hold inputs)
 * or, with one such child, a wire; its result is registered where treg()
 * places the tl registers in the chain of L adders + the accumulator
 * (chain position L - d).  Gives the adders' result bits (*add: one LUT a
 * bit, kiln_add3's LUT6_2 or the plain add's) and the registered bits
 * (*reg: flip-flops). */
static void tree_bits(int64_t leaves, int64_t lw, int64_t tl, int64_t *add, int64_t *reg)
{
    int64_t l = tree_levels(leaves), span = 1, nodes = 1, d, p;
    *add = *reg = 0;
    for (d = 0; d < l; d++)
        span *= 3;
    for (d = 0; d < l; d++, nodes *= 3, span /= 3) {
        int64_t q = l - d;
        int r = (q * (tl + 1)) / (l + 1) > ((q - 1) * (tl + 1)) / (l + 1);
        for (p = 0; p < nodes && leaves - p * span > 0; p++) {
            int64_t c = hls_min64(span, leaves - p * span);
            int64_t w = lw + hls_clog2(c + 1) - 1; /* lw + flog2(c) */
            if (hls_cdiv(c, span / 3) >= 2)
                *add += w;
            if (r)
                *reg += w;
        }
    }
}

/* DSP2X 1: LUTs beside the clk2x DSPs: the lane multiplexers (activation
 * bytes shared by the DSPs of one input pair and pixel, packed weights by
 * the pixels of one output pair), the packing of two weights in the clk
 * domain and, PACK=2, the sign carry into the high field of each sum.
 * DSP2X 2 (pixel pairs): the activation multiplexers and, PACK=2, each
 * DSP's weight packing and sign carries; no weight multiplexer and no
 * accumulator. */
static double conv_lut_2x(const int64_t *hw, int64_t dsps)
{
    int64_t pic = hw[CV_PE_IC], poc = hw[CV_PE_OC], pp = hw[CV_PP];
    double amux, wmux, fix;
    if (hw[CV_DSP2X] == 2)
        return (double)(pp / 2 * pic) * CV_LUT_2XP_AMUX +
               (hw[CV_PACK] == 2 ? (double)dsps * CV_LUT_2XP_D2 : 0.0);
    amux = (double)(pp * pic / 2) * CV_LUT_2X_AMUX;
    wmux = (double)(poc / hw[CV_PACK] * pic / 2) *
           (hw[CV_PACK] == 2 ? CV_LUT_2X_WMUX2 : CV_LUT_2X_WMUX1);
    fix = hw[CV_PACK] == 2 ? (double)dsps * CV_LUT_2X_FIX : 0.0;
    return amux + wmux + fix + (double)dsps * CV_LUT_2X_ACC;
}

/* LBBANK's LUT beyond the replicated line buffers', fitted against yosys
 * 0.23 on kiln_conv_window alone (LANES 16, KMAX 3, SPAN 1; bench/synth/
 * synth.py kiln_conv_window, docs/rtl-resources.md): the banked window
 * less the same window with PP copies of one address range (GMAX 2, or 8
 * at PP 8: no read mux across blocks), 470 LUT at PP 2 (2,048 words a
 * bank), 917 at PP 4 (1,024), 2,710 at PP 8 (512).  The rotation of the PP
 * banks' words into pixel order, 8*LANES*PP bits of a PP:1 multiplexer
 * (PP 2: two a LUT6, PP 4: one, PP 8: two and a MUXF7), takes 1.17 LUT
 * where that counts one, and the pixel-index registers' adders, the bank
 * addresses' shift by ceil(log2 ICG) and the write side about 320 at every
 * PP (a least-squares line through the three points, within 6 LUT of
 * each; a term a bank address bit, PP x log2 LBBANK, fitted ~0 beside
 * it). */
#define CV_LUT_BANK_ROT 1.17
#define CV_LUT_BANK_ADDR 320.0
static double conv_lut_bank(int64_t pic, int64_t pp)
{
    double mux = pp <= 2 ? 0.5 : (double)(pp / 4);
    return CV_LUT_BANK_ROT * (double)(8 * pic * pp) * mux + CV_LUT_BANK_ADDR;
}

/* LBBANK's flip-flops: the eight pixel indices of MB = bab + log2 PP bits
 * (the writer's n, W, B0 and the reader's five taps), ceil(log2 ICG) (4),
 * the first-op flag and the rotation's select (log2 PP); yosys 0.23 on the
 * same windows: 102, 103 and 104 more than the copies at PP 2, 4 and 8,
 * as counted. */
static double conv_ff_bank(int64_t pp, int64_t bab)
{
    return 8.0 * (double)(bab + hls_clog2(pp)) + 5.0 + (double)hls_clog2(pp);
}

static HlsRes conv_resources(const int64_t *hw)
{
    HlsRes r;
    int64_t pic = hw[CV_PE_IC], poc = hw[CV_PE_OC], pp = hw[CV_PP];
    int64_t icgmax = hls_cdiv(hw[CV_CIMAX], pic);
    int64_t rows = conv_rows(hw);
    int64_t lbdepth =
        rows << (hls_max64(1, hls_clog2(hw[CV_WMAX])) + hls_max64(1, hls_clog2(icgmax)));
    int64_t macs = pp * pic * poc, lanes = pp * poc;
    int64_t rqs = hw[CV_RQS] > 1 ? hw[CV_RQS] : 1, rql = lanes / rqs; /* requant lanes */
    int64_t leaves = conv_leaves(hw), tl = hls_min64(hw[CV_PIPE], tree_levels(leaves));
    int64_t add_bits, reg_bits; /* one lane's tree: adder result bits, registered bits */
    int64_t x2 = hw[CV_DSP2X] ? 2 : 1; /* MACs a DSP48E2 takes a fabric cycle, per product */
    int64_t dsps = macs / hw[CV_PACK] / x2; /* the multipliers */
    int casc = conv_casc(hw);
    tree_bits(leaves, hw[CV_DSP2X] == 1 ? 17 : 16, tl, &add_bits, &reg_bits);
    /* CASC, per skewed int8 operand (the weights a lane, the activations a
     * pixel, as CV_LUT_CASC): the delays of 1 and 2 stay flip-flops, a delay
     * of 17 keeps one after its SRL16E (N >= 19) */
    int64_t c4 = hls_min64(pic, 4);
    double casc_ff = 8.0 * (double)(c4 > 2 ? (c4 - 2) * (c4 - 1) / 2 : 0) + (pic >= 19 ? 8.0 : 0.0);
    /* CASC: the op's control (valid, first, last, parameter address, pass
     * last, tail: 4 + PA + PP bits, reset, so flip-flops) through the
     * chain's PE_IC + 1 stages in place of the tree's tl */
    int64_t ocgmax = hls_cdiv(hw[CV_COMAX], poc);
    int64_t tgm = hw[CV_TOGMAX] > 0 && hw[CV_TOGMAX] < ocgmax ? hw[CV_TOGMAX] : ocgmax;
    int64_t mw = 4 + hls_max64(1, hls_clog2(tgm)) + (hw[CV_WBANKS] == 2) + pp;
    double pmem_lut = 0.0, wbram = 0.0, lburam = 0.0, lbmux_lut = 0.0, lbmux_ff = 0.0;
    int wmerge = hw[CV_WBANKS] == 2 && hw[CV_WBMERGE] != 0;
    /* LBBANK: B0 = -(P*W + P), cfg_pad x W, one DSP48E2 in yosys 0.23 */
    r.dsp = (double)dsps + rq_dsp_lane(hw[CV_RQ_DSP]) * (double)rql +
            (hw[CV_LBBANK] > 0 ? 1.0 : 0.0);
    r.bram36 = 0.0;
    if (hw[CV_LBBANK] > 0) /* LBBANK: PP banks of LBBANK words, not PP copies */
        lbdepth = hls_pow2ceil(hw[CV_LBBANK]);
    if (hw[CV_LBURAM] == 1) /* the line buffers in URAM288 (LBURAM) */
        lburam = (double)(pp * hls_uram_for(lbdepth, 8 * pic));
    else
        r.bram36 = (double)pp * hls_bram36_for(lbdepth, 8 * pic);
    r.uram = lburam;
    /* the copies' (or banks') read multiplexers across block ranges: none
     * for one range (the banks as the planner sizes them, the copies of
     * small maps); URAM's not fitted */
    if (hw[CV_LBURAM] != 1) {
        lbmux_lut = (double)pp * hls_bram_mux_luts(lbdepth, 8 * pic);
        lbmux_ff = lbmux_lut > 0.0
                       ? (double)(pp * hls_clog2(hls_bram_fit(lbdepth, 8 * pic).ranges))
                       : 0.0;
    }
    /* WBMERGE: the two banks one memory of 2 x WDEPTH words a lane */
    if (hw[CV_WURAM] == 1)
        r.uram += (double)(wmerge ? poc * hls_uram_for(2 * hw[CV_WDEPTH], 8 * pic)
                                  : hw[CV_WBANKS] * poc * hls_uram_for(hw[CV_WDEPTH], 8 * pic));
    else
        wbram = wmerge ? (double)poc * hls_bram36_for(2 * hw[CV_WDEPTH], 8 * pic)
                       : (double)(hw[CV_WBANKS] * poc) * hls_bram36_for(hw[CV_WDEPTH], 8 * pic);
    r.bram36 += wbram;
    /* per output lane the parameter memories (bias 32, m_pos 16, m_neg 16,
     * shift 6 bits) of WBANKS x 2^ceil(log2 TOGMAX) words, each in LUTRAM
     * (RAM32M16 up to 32 words, RAM64M8 up to 64) or, above 64 words, in
     * block RAM where memory_libmap finds that cheaper (hls_mem) */
    {
        int64_t og = hw[CV_TOGMAX] > 0 && hw[CV_TOGMAX] < hls_cdiv(hw[CV_COMAX], poc)
                         ? hw[CV_TOGMAX]
                         : hls_cdiv(hw[CV_COMAX], poc);
        static const int64_t pw[4] = {32, 16, 16, 6};
        int64_t pdepth = (hw[CV_WBANKS] == 2 ? 2 : 1) << hls_max64(1, hls_clog2(og));
        int j;
        for (j = 0; j < 4; j++) {
            HlsMem m = hls_mem(pdepth, pw[j]);
            r.bram36 += (double)poc * m.bram36;
            pmem_lut += (double)poc * m.lut;
        }
    }
    /* PP > 1: the output reorder buffer, PP banks of DB words of PE_OC
     * bytes and a DB x PP tail mark, DB = 2^ceil(log2(2 * OCGMAX + 2 * LATB
     * + 4)) (kiln_conv.v g_reo); block RAM from 128 words of a wide lane.
     * Up to 64 words its LUTRAM is in the fitted LUT terms. */
    if (hw[CV_BANDMAX] > 0) {
        /* bands: PP banks of the two-band buffer, 2 x BANDMAX x
         * ceil(WMAX/PP) pixel groups x OCGMAX words of PE_OC bytes, in
         * place of the reorder buffer; its counters in CV_LUT_BAND */
        int64_t bd = 2 * hw[CV_BANDMAX] * hls_cdiv(hw[CV_WMAX], pp) * hls_cdiv(hw[CV_COMAX], poc);
        HlsMem bb = hls_mem(bd, 8 * poc);
        r.bram36 += (double)pp * bb.bram36;
        pmem_lut += (double)pp * bb.lut + CV_LUT_BAND;
    } else if (pp > 1) {
        int64_t latb = 3 + (hw[CV_DSP2X] ? 3 : 1) + conv_tree_stages(hw) + hw[CV_RQ_PIPE];
        int64_t db = (int64_t)1 << hls_clog2(2 * hls_cdiv(hw[CV_COMAX], poc) + 2 * latb + 4);
        if (db > 64) {
            HlsMem ob = hls_mem(db, 8 * poc), tail = hls_mem(db, pp);
            r.bram36 += (double)pp * ob.bram36 + tail.bram36;
            pmem_lut += (double)pp * ob.lut + tail.lut;
        }
    }
    /* per lane: requant, accumulator, parameter LUTRAM, the tree's adders;
     * control; PACK=2 adds the sign fix-up of each packed product */
    r.lut = CV_LUT_BASE + (double)rql * rq_lut_lane(hw[CV_RQ_PIPE], hw[CV_RQ_DSP]) +
            (double)lanes * (CV_LUT_LANE + (rqs > 1 ? CV_LUT_RQSER : 0.0)) +
            (casc ? (double)(lanes + pp) * CV_LUT_CASC * (double)hls_max64(0, pic - 4)
                  : (double)lanes * (double)add_bits * CV_LUT_ADD) +
            (hw[CV_PACK] == 2 && !hw[CV_DSP2X] ? (double)macs * CV_LUT_PACK : 0.0) +
            (hw[CV_DSP2X] ? conv_lut_2x(hw, dsps) : 0.0) +
            (hw[CV_WBANKS] == 2 && !wmerge ? (double)(poc * pic * 8) : 0.0) + /* bank select mux */
            CV_LUT_WBRAM * wbram + CV_LUT_WURAM * r.uram + pmem_lut +
            (hw[CV_SPAN] && pp > 1 ? (double)pp * CV_LUT_SPAN : 0.0) +
            (hw[CV_LBBANK] > 0 ? conv_lut_bank(pic, pp) : 0.0) + lbmux_lut;
    /* registered products, accumulators, requant stages, tree registers,
     * control counters; weight words in LUTRAM (no block RAM, no URAM)
     * keep their read register (WBANKS x PE_OC x 8 PE_IC bits) in
     * flip-flops, block RAM and URAM inside */
    r.ff = CV_FF_BASE +
           (hw[CV_DSP2X] == 2 ? (double)dsps * (hw[CV_PACK] == 2 ? CV_FF_2XP2 : CV_FF_2XP1)
            : hw[CV_DSP2X] ? (double)dsps * (hw[CV_PACK] == 2 ? CV_FF_2X2 : CV_FF_2X1)
            : casc       ? (double)(lanes + pp) * casc_ff +
                               (double)(mw * (conv_tree_stages(hw) - tl))
                         : (double)macs * 16.0) +
           (hw[CV_WURAM] != 1 && wbram == 0.0
                ? (double)((wmerge ? 1 : hw[CV_WBANKS]) * poc * 8 * pic)
                : 0.0) +
           (double)rql * rq_ff_lane(hw[CV_RQ_PIPE]) +
           (double)lanes * (32.0 + (rqs > 1 ? CV_FF_RQSER : 0.0) +
                            (casc ? 0.0 : (double)reg_bits)) +
           (hw[CV_BANDMAX] > 0 ? CV_FF_BAND + 8.0 * (double)poc * 4.0 : 0.0) +
           (hw[CV_LBBANK] > 0 ? conv_ff_bank(pp, hls_clog2(lbdepth)) : 0.0) + lbmux_ff;
    return r;
}

static const HlsEngineDesc conv_desc = {
    "kiln_conv",
    "KxK conv (stride 1|2, zero pad) on a PE_OC x PE_IC int8 MAC array + bias + requant",
    conv_hw,
    conv_rt,
    conv_latency,
    conv_cycles,
    conv_resources,
};

/* ---------------- kiln_dwconv ---------------- */

static const char *const dw_hw[] = {"LANES", "KMAX", "WMAX", "CMAX", "RQ_PIPE", "QLO", "QHI",
                                    "LBURAM", "RQ_DSP", NULL};
enum { DW_LANES, DW_KMAX, DW_WMAX, DW_CMAX, DW_RQ_PIPE, DW_QLO, DW_QHI, DW_LBURAM, DW_RQ_DSP };
static const char *const dw_rt[] = {"h", "w", "c", "k", "stride", "pad", NULL};

static int64_t dw_latency(const int64_t *hw)
{
    return 4 + hw[DW_RQ_PIPE];
}

static int64_t dw_cycles(const int64_t *hw, const int64_t *rt)
{
    WinShape sh;
    int64_t cg = hls_cdiv(rt[2], hw[DW_LANES]);
    sh.h = rt[0];
    sh.w = rt[1];
    sh.k = rt[3];
    sh.s = rt[4];
    sh.p = rt[5];
    sh.nin = rt[1] * cg;
    sh.kki = rt[3] * rt[3];
    sh.pp = 1;
    sh.span = 0;
    sh.r = hls_line_rows(hw[DW_KMAX]);
    sh.lat = dw_latency(hw);
    sh.npass = 1;
    sh.tog = cg;
    sh.ocg = cg;
    sh.wpg = 0;
    sh.wbanks = 1;
    sh.wlead = 0; /* no weight tile to wait for */
    sh.wfree1 = HLS_CONV_NEVER;
    sh.ld = NULL;
    sh.band = 0;
    sh.tail = NULL;
    sh.ntail = 0;
    return win_cycles(&sh);
}

static HlsRes dw_resources(const int64_t *hw)
{
    HlsRes r;
    int64_t lanes = hw[DW_LANES];
    int64_t cgmax = hls_cdiv(hw[DW_CMAX], lanes);
    int64_t rows = hls_line_rows(hw[DW_KMAX]);
    int64_t lbdepth =
        rows << (hls_max64(1, hls_clog2(hw[DW_WMAX])) + hls_max64(1, hls_clog2(cgmax)));
    r.dsp = (1.0 + rq_dsp_lane(hw[DW_RQ_DSP])) * (double)lanes; /* MACs, requant */
    /* the line buffer in block RAM, or in URAM288 with LBURAM (packed
     * across address ranges as hls_uram_for counts it) */
    r.bram36 = (hw[DW_LBURAM] == 1 ? 0.0 : hls_bram36_for(lbdepth, 8 * lanes)) +
               hls_bram36_for(cgmax * hw[DW_KMAX] * hw[DW_KMAX], 8 * lanes);
    r.uram = hw[DW_LBURAM] == 1 ? (double)hls_uram_for(lbdepth, 8 * lanes) : 0.0;
    /* fitted: per lane requant + accumulator + parameter LUTRAM; control */
    r.lut = 305.0 + (double)lanes * (rq_lut_lane(hw[DW_RQ_PIPE], hw[DW_RQ_DSP]) + 97.0);
    r.ff = 325.0 + (double)lanes * (16.0 + 32.0 + rq_ff_lane(hw[DW_RQ_PIPE]));
    return r;
}

static const HlsEngineDesc dwconv_desc = {
    "kiln_dwconv",
    "depthwise KxK conv (one filter per channel, stride 1|2, zero pad) + bias + requant",
    dw_hw,
    dw_rt,
    dw_latency,
    dw_cycles,
    dw_resources,
};

/* ---------------- kiln_requant ---------------- */

static const char *const rq_hw[] = {"LANES", "PIPE", "RQ_DSP", NULL};
static const char *const rq_rt[] = {"n", NULL};

static int64_t rq_latency(const int64_t *hw)
{
    return hw[1];
}

static int64_t rq_cycles(const int64_t *hw, const int64_t *rt)
{
    return rt[0] + hw[1];
}

static HlsRes rq_resources(const int64_t *hw)
{
    HlsRes r;
    double lanes = (double)hw[0];
    r.dsp = rq_dsp_lane(hw[2]) * lanes;
    r.bram36 = 0.0;
    r.uram = 0.0;
    r.lut = rq_lut_lane(hw[1], hw[2]) * lanes;
    r.ff = rq_ff_lane(hw[1]) * lanes + (double)hw[1]; /* + the valid pipeline */
    return r;
}

static const HlsEngineDesc requant_desc = {
    "kiln_requant",
    "int32 accumulator -> int8 (m_pos/m_neg multiply, rounding shift, saturation)",
    rq_hw,
    rq_rt,
    rq_latency,
    rq_cycles,
    rq_resources,
};

const HlsEngineDesc *const hls_conv_descs[] = {&conv_desc, &dwconv_desc, &requant_desc, NULL};
