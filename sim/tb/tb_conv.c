/*
 * tb_conv: kiln_conv against a plain C convolution + graphir/requant.h.
 *
 * Random shapes (H, W, CIN, COUT, K <= KMAX, stride 1|2, padding) from a
 * seeded RNG; each shape runs
 *   - once without back-pressure: every output bit for bit, and the measured
 *     cycles (first input beat to last output beat) equal to the descriptor's
 *     cycles(); MAC-array utilisation printed;
 *   - once with random valid/ready on the input, weight and output streams,
 *     sometimes two frames back to back with a weight reload (cfg_wreload):
 *     every value, no beat lost or duplicated.
 * A fixed 3x3 case with channel counts that are multiples of the array checks
 * the utilisation goal (>= 95 %) and a 1x1 case full utilisation.
 * Weight tiles (kiln_conv): some shapes split the output groups into tiles
 * of cfg_tog groups; the input is streamed once per tile and the expected
 * output is tile-major.  A fixed case makes loading the bottleneck (weights
 * of a tile take longer to stream than a pass computes) and one the compute.
 * Build-time: KILN_TB_PE_IC, KILN_TB_PE_OC, KILN_TB_KMAX, KILN_TB_WMAX,
 * KILN_TB_CIMAX, KILN_TB_COMAX, KILN_TB_PIPE, KILN_TB_RQ_PIPE, KILN_TB_PACK,
 * KILN_TB_PP (pixels per op, default 1; shapes keep K*K*ICG >= PP, where the
 * cycle model is exact), KILN_TB_WBANKS (weight banks, default 1),
 * KILN_TB_RQS (results per requant lane, default 1; shapes keep K*K*ICG >=
 * RQS), KILN_TB_SPAN (1: pixel groups across row ends, SPAN; the same
 * shapes, the engine falls back to row by row where K + S > R or Wout < PP),
 * KILN_TB_CASC (1: each lane's sum in a DSP48E2 chain, CASC).
 * KILN_TB_DW=1 builds the same bench for kiln_dwconv (PE_IC = PE_OC = LANES,
 * COUT = CIN, one KxK filter per channel).
 * KILN_TB_BANDMAX (> 0: the engine's BANDMAX; every case runs in bands of
 * 1..BANDMAX output rows, cfg_band: the input streamed once a frame, the
 * weights once a band, the output in raster order with every group).
 * --vec FILE writes the first case's streams for the iverilog bench.
 */
#include "conv_shim.h"
#include "graphir/requant.h"
#include "hls/hls.h"
#include "tb_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KILN_TB_DW
#define KILN_TB_DW 0
#endif
#define DW KILN_TB_DW
#ifndef KILN_TB_PP
#define KILN_TB_PP 1
#endif
#ifndef KILN_TB_WBANKS
#define KILN_TB_WBANKS 1
#endif
#ifndef KILN_TB_TOGMAX
#define KILN_TB_TOGMAX 0 /* > 0: the engine's parameter memory holds this many groups: every case tiles */
#endif
#define TOGMAX KILN_TB_TOGMAX
#ifndef KILN_TB_RQS
#define KILN_TB_RQS 1 /* results per requant lane */
#endif
#define RQS KILN_TB_RQS
#ifndef KILN_TB_CASC
#define KILN_TB_CASC 0 /* 1: each lane's sum in a DSP48E2 chain (CASC) */
#endif
#ifndef KILN_TB_DSP2X
#define KILN_TB_DSP2X 0 /* 1: the multipliers on clk2x (DSP2X), 2: pixel pairs on clk2x */
#endif
#ifndef KILN_TB_SPAN
#define KILN_TB_SPAN 0 /* 1: pixel groups across row ends (SPAN) */
#endif
#ifndef KILN_TB_BANDMAX
#define KILN_TB_BANDMAX 0 /* > 0: bands of up to this many output rows */
#endif
#define BANDMAX KILN_TB_BANDMAX
#define KKMIN (PP > RQS ? PP : RQS) /* least K*K*ICG of a case */
#define TILE_ICG (RQS > 3 ? RQS : 3)  /* input groups of the loading-bound tile case */
#define W1X1 (WMAX < 16 ? WMAX : 16)   /* width of the 1x1 utilisation case, before rounding to PP */
#define PP KILN_TB_PP
#define WBANKS KILN_TB_WBANKS
#define PE_IC KILN_TB_PE_IC
#define PE_OC KILN_TB_PE_OC
#define KMAX KILN_TB_KMAX
#define WMAX KILN_TB_WMAX
#define CIMAX KILN_TB_CIMAX
#define COMAX KILN_TB_COMAX
#define WDEPTH (((CIMAX + PE_IC - 1) / PE_IC) * ((COMAX + PE_OC - 1) / PE_OC) * KMAX * KMAX)

/* One layer: shape, tensors, and the streams derived from them. */
typedef struct Layer {
    int h, w, cin, cout, k, s, p;  /* shape */
    int hout, wout, icg, ocg;      /* derived */
    int tog, ntiles;               /* output groups per weight tile, tiles */
    int band, nbands;              /* output rows per band (0: no bands), bands */
    int8_t *x;                     /* [h][w][cin] */
    int8_t *wt;                    /* [cout][cin][k][k] */
    int32_t *bias, *mpos, *mneg;   /* [cout] */
    int *shift;                    /* [cout] */
    uint8_t *sbeats;               /* input beats, PE_IC bytes each */
    long n_s;                      /* input beat count */
    uint8_t *wbeats;               /* weight beats, PE_IC bytes each */
    long n_w;                      /* weight beat count (all tiles) */
    long n_w0;                     /* weight beats of the first tile */
    uint8_t *obeats;               /* expected output beats, PE_OC bytes each, tile-major */
    long n_o;                      /* output beat count */
} Layer;

static void layer_free(Layer *l)
{
    free(l->x);
    free(l->wt);
    free(l->bias);
    free(l->mpos);
    free(l->mneg);
    free(l->shift);
    free(l->sbeats);
    free(l->wbeats);
    free(l->obeats);
}

/* Fill tensors with random values and build the streams and the reference. */
static void layer_make(Layer *l, TbRng *r)
{
    int y, x, c, o, g, ky, kx, i;
    long b;
    l->hout = (l->h + 2 * l->p - l->k) / l->s + 1;
    l->wout = (l->w + 2 * l->p - l->k) / l->s + 1;
    l->icg = (l->cin + PE_IC - 1) / PE_IC;
    l->ocg = (l->cout + PE_OC - 1) / PE_OC;
    if (DW || l->tog <= 0 || l->tog > l->ocg)
        l->tog = l->ocg;
    l->ntiles = (l->ocg + l->tog - 1) / l->tog;
    l->nbands = l->band > 0 ? (l->hout + l->band - 1) / l->band : 1;
    l->x = malloc((size_t)l->h * l->w * l->cin);
    l->wt = malloc((size_t)l->cout * (DW ? 1 : l->cin) * l->k * l->k);
    l->bias = malloc(sizeof(int32_t) * l->cout);
    l->mpos = malloc(sizeof(int32_t) * l->cout);
    l->mneg = malloc(sizeof(int32_t) * l->cout);
    l->shift = malloc(sizeof(int) * l->cout);
    for (i = 0; i < l->h * l->w * l->cin; i++)
        l->x[i] = tb_rand_i8(r);
    for (i = 0; i < l->cout * (DW ? 1 : l->cin) * l->k * l->k; i++)
        l->wt[i] = tb_rand_i8(r);
    for (c = 0; c < l->cout; c++) {
        int mode = (int)tb_rand_range(r, 0, 3);
        l->bias[c] = (int32_t)tb_rand_range(r, -100000, 100000);
        l->mpos[c] = (int32_t)tb_rand_range(r, 1, KILN_RQ_M_MAX);
        l->mneg[c] = mode == 0 ? 0 : mode == 1 ? l->mpos[c] : (int32_t)tb_rand_range(r, -3000, 3000);
        l->shift[c] = (int)tb_rand_range(r, 14, 26);
    }
    /* input stream */
    l->n_s = (long)l->h * l->w * l->icg;
    l->sbeats = calloc((size_t)l->n_s, PE_IC);
    b = 0;
    for (y = 0; y < l->h; y++)
        for (x = 0; x < l->w; x++)
            for (g = 0; g < l->icg; g++, b++)
                for (i = 0; i < PE_IC; i++) {
                    c = g * PE_IC + i;
                    if (c < l->cin)
                        l->sbeats[b * PE_IC + i] = (uint8_t)l->x[(y * l->w + x) * l->cin + c];
                }
    /* weight stream */
    /* kiln_dwconv below 4 lanes: a 32-bit parameter word in 4 / LANES beats */
    const int wb = DW && PE_IC < 4 ? 4 / PE_IC : 1;
    l->n_w = DW ? (long)l->ocg * (3 * wb * PE_OC + l->k * l->k)
                : (long)l->ocg * PE_OC * (3 + l->k * l->k * l->icg);
    l->n_w0 = DW ? l->n_w : (long)l->tog * PE_OC * (3 + l->k * l->k * l->icg);
    l->wbeats = calloc((size_t)l->n_w, PE_IC);
    b = 0;
    for (g = 0; g < l->ocg; g++) {
        for (o = 0; o < PE_OC; o++, b += 3 * wb) {
            c = g * PE_OC + o;
            if (c >= l->cout)
                continue;
            tb_put_u32(&l->wbeats[b * PE_IC], (uint32_t)l->bias[c]);
            tb_put_u32(&l->wbeats[(b + wb) * PE_IC],
                       ((uint32_t)l->mpos[c] & 0xffffu) | (uint32_t)l->mneg[c] << 16);
            l->wbeats[(b + 2 * wb) * PE_IC] = (uint8_t)l->shift[c];
        }
        if (DW) {
            for (ky = 0; ky < l->k; ky++)
                for (kx = 0; kx < l->k; kx++, b++)
                    for (i = 0; i < PE_IC; i++) {
                        c = g * PE_IC + i;
                        if (c < l->cin)
                            l->wbeats[b * PE_IC + i] = (uint8_t)l->wt[(c * l->k + ky) * l->k + kx];
                    }
            continue;
        }
        for (ky = 0; ky < l->k; ky++)
            for (kx = 0; kx < l->k; kx++)
                for (int ig = 0; ig < l->icg; ig++)
                    for (o = 0; o < PE_OC; o++, b++)
                        for (i = 0; i < PE_IC; i++) {
                            int co = g * PE_OC + o, ci = ig * PE_IC + i;
                            if (co < l->cout && ci < l->cin)
                                l->wbeats[b * PE_IC + i] = (uint8_t)
                                    l->wt[((co * l->cin + ci) * l->k + ky) * l->k + kx];
                        }
    }
    /* reference output, one pass per tile */
    l->n_o = (long)l->hout * l->wout * l->ocg;
    l->obeats = calloc((size_t)l->n_o, PE_OC);
    b = 0;
    /* with bands, raster order with every group */
    for (int t = 0; t < (l->band ? 1 : l->ntiles); t++)
    for (y = 0; y < l->hout; y++)
        for (x = 0; x < l->wout; x++)
            for (g = l->band ? 0 : t * l->tog;
                 g < l->ocg && (l->band || g < (t + 1) * l->tog); g++, b++)
                for (o = 0; o < PE_OC; o++) {
                    int co = g * PE_OC + o;
                    uint32_t acc;
                    if (co >= l->cout)
                        continue;
                    acc = (uint32_t)l->bias[co];
                    for (ky = 0; ky < l->k; ky++)
                        for (kx = 0; kx < l->k; kx++) {
                            int iy = y * l->s - l->p + ky, ix = x * l->s - l->p + kx;
                            if (iy < 0 || iy >= l->h || ix < 0 || ix >= l->w)
                                continue;
                            if (DW) {
                                acc += (uint32_t)((int32_t)l->x[(iy * l->w + ix) * l->cin + co] *
                                                  l->wt[(co * l->k + ky) * l->k + kx]);
                                continue;
                            }
                            for (c = 0; c < l->cin; c++)
                                acc += (uint32_t)((int32_t)l->x[(iy * l->w + ix) * l->cin + c] *
                                                  l->wt[((co * l->cin + c) * l->k + ky) * l->k + kx]);
                        }
                    l->obeats[b * PE_OC + o] = (uint8_t)kiln_requant((int32_t)acc, l->mpos[co],
                                                                     l->mneg[co], l->shift[co]);
                }
}

/* Run `frames` frames of layer l (weights resent per frame when frames > 1).
 * pct_* are valid/ready probabilities.  resident: frames = 3, the first with
 * cfg_wreload = 0 (the set stays for the second), the second with
 * cfg_wreload = 1 (a second copy of the set follows for the third).  Returns
 * measured cycles of the last frame run (first input beat to last output
 * beat), or -1 on a timeout. */
static long run_mode(CvSim *sim, TbCheck *c, const Layer *l, int frames, int pct_s, int pct_w,
                     int pct_m, uint64_t seed, int resident)
{
    CvIn in;
    CvOut out;
    TbBp bs, bw, bm;
    long si = 0, wi = 0, oi = 0, t, limit;
    /* input beats per frame: one pass per tile, or with bands once */
    long n_sf = l->band ? l->n_s : l->n_s * l->ntiles;
    /* weight sets a frame: with bands one a band, unless one tile stays
     * resident (a single frame without cfg_wreload) */
    long sets = l->band && (l->ntiles > 1 || frames > 1) ? l->nbands : 1;
    long n_s = n_sf * frames, n_w = l->n_w * (resident ? 2 : frames * sets), n_o = l->n_o * frames;
    long t_first = -1, t_last = -1;
    int extra = 0;
    tb_bp_init(&bs, seed * 3 + 1, pct_s);
    tb_bp_init(&bw, seed * 3 + 2, pct_w);
    tb_bp_init(&bm, seed * 3 + 3, pct_m);
    memset(&in, 0, sizeof in);
    in.h = l->h;
    in.w = l->w;
    in.icg = l->icg;
    in.ocg = l->ocg;
    in.tog = l->tog;
    in.k = l->k;
    in.stride = l->s;
    in.pad = l->p;
    in.wreload = frames > 1;
    in.band = l->band;
    in.rst = 1;
    cv_set(sim, &in);
    cv_tick(sim);
    cv_tick(sim);
    in.rst = 0;
    limit = 40L * (n_s + n_w + (long)l->hout * l->wout * l->ocg * l->icg * l->k * l->k * frames) +
            2000;
    /* inputs start once the first tile's weights are in */
    for (t = 0; t < limit && (oi < n_o || si < n_s || extra < 20); t++) {
        int s_on = wi >= l->n_w0 && si < n_s && tb_bp_next(&bs);
        int w_on = wi < n_w && tb_bp_next(&bw);
        in.s_tvalid = s_on;
        if (s_on)
            memcpy(in.s_tdata, &l->sbeats[(si % l->n_s) * PE_IC], PE_IC);
        in.w_tvalid = w_on;
        if (w_on)
            memcpy(in.w_tdata, &l->wbeats[(wi % l->n_w) * PE_IC], PE_IC);
        in.m_tready = tb_bp_next(&bm);
        if (resident) /* from the second frame on: its first beat is in, so the
                       * first frame's last op has issued */
            in.wreload = si > n_sf;
        cv_set(sim, &in);
        cv_get(sim, &out);
        if (s_on && out.s_tready) {
            if (si % n_sf == 0)
                t_first = t;
            si++;
        }
        if (w_on && out.w_tready)
            wi++;
        if (out.m_tvalid && in.m_tready) {
            if (oi >= n_o) {
                tb_check_fail(c, "extra output beat at cycle %ld", t);
            } else {
                const uint8_t *e = &l->obeats[(oi % l->n_o) * PE_OC];
                for (int i = 0; i < PE_OC; i++)
                    tb_check_int(c, "out", oi * PE_OC + i, (int8_t)out.m_tdata[i], (int8_t)e[i]);
            }
            oi++;
            t_last = t;
        }
        if (oi >= n_o)
            extra++;
        cv_tick(sim);
    }
    if (oi < n_o) {
        tb_check_fail(c, "timeout: %ld of %ld output beats, %ld/%ld in, %ld/%ld weights", oi,
                      n_o, si, n_s, wi, n_w);
        return -1;
    }
    if (si != n_s)
        tb_check_fail(c, "input beats accepted %ld of %ld", si, n_s);
    if (wi != n_w)
        tb_check_fail(c, "weight beats accepted %ld of %ld", wi, n_w);
    return t_last - t_first + 1;
}

static long run(CvSim *sim, TbCheck *c, const Layer *l, int frames, int pct_s, int pct_w,
                int pct_m, uint64_t seed)
{
    return run_mode(sim, c, l, frames, pct_s, pct_w, pct_m, seed, 0);
}

#if KILN_TB_DW
#define ENGINE "kiln_dwconv"
#else
#define ENGINE "kiln_conv"
#endif

/* The engine's Verilog parameters in its descriptor's order, by name: a
 * parameter this bench does not set is 0. */
static void hw_vec(const HlsEngineDesc *d, int64_t *hw)
{
    static const struct {
        const char *n;
        int64_t v;
    } kv[] = {
        {"PE_IC", PE_IC},       {"LANES", PE_IC},
        {"PE_OC", PE_OC},       {"PP", PP},
        {"KMAX", KMAX},         {"WMAX", WMAX},
        {"CIMAX", CIMAX},       {"CMAX", CIMAX},
        {"COMAX", COMAX},       {"WDEPTH", WDEPTH},
        {"WBANKS", WBANKS},     {"PIPE", KILN_TB_PIPE},
        {"RQ_PIPE", KILN_TB_RQ_PIPE}, {"PACK", KILN_TB_PACK},
        {"TOGMAX", TOGMAX},     {"RQS", RQS},
        {"SPAN", KILN_TB_SPAN}, {"BANDMAX", BANDMAX},
        {"LBROWS", BANDMAX > 0 ? (BANDMAX - 1) * 2 + KMAX : 0},
        {"QLO", -128},          {"QHI", 127},
        {"DSP2X", KILN_TB_DSP2X}, {"CASC", KILN_TB_CASC},
    };
    for (int i = 0; d->hw_params[i]; i++) {
        hw[i] = 0;
        for (size_t j = 0; j < sizeof kv / sizeof kv[0]; j++)
            if (!strcmp(d->hw_params[i], kv[j].n))
                hw[i] = kv[j].v;
    }
}

/* One shape: exact run, then a back-pressured run. */
static void one_case(CvSim *sim, TbCheck *c, Layer *l, uint64_t seed, int min_util)
{
    const HlsEngineDesc *d = hls_engine_find(ENGINE);
    int64_t hw[64]; /* more than any engine's parameters */
    int64_t rt[12];
    int64_t pred;
    long cyc, ops;
    char desc[256];
    TbRng r;
    int frames;
    tb_rng_seed(&r, seed ^ 0x5a5a);
    rt[0] = l->h;
    rt[1] = l->w;
    rt[2] = l->cin;
    rt[3] = l->cout;
    rt[4] = l->k;
    rt[5] = l->s;
    rt[6] = l->p;
    rt[7] = l->tog;
    rt[8] = 1; /* input a beat a cycle */
    rt[9] = 1; /* weights a beat a cycle */
    rt[10] = l->band;
    rt[11] = 0; /* tile 0 loaded by the first input beat (wlead) */
    if (DW) { /* h, w, c, k, stride, pad */
        rt[3] = l->k;
        rt[4] = l->s;
        rt[5] = l->p;
    }
    if (d)
        hw_vec(d, hw);
    pred = d ? d->cycles(hw, rt) : -1;
    cyc = run(sim, c, l, 1, 100, 100, 100, seed);
    /* MAC-array utilisation: MACs done / (PP * array * cycles) */
    ops = (long)l->hout * l->wout * l->ocg * (DW ? 1 : l->icg) * l->k * l->k / PP;
    tb_check_int(c, "cycles", 0, cyc, pred);
    if (min_util && !l->band && cyc > 0 && ops * 100 < (long)min_util * cyc)
        tb_check_fail(c, "PE utilisation %.1f%% below %d%%", 100.0 * (double)ops / (double)cyc,
                      min_util);
    frames = tb_chance(&r, 40) ? 2 : 1;
    if (!DW && l->ntiles == 1 && !l->band && tb_chance(&r, 25)) {
        /* a resident set, then a frame that drops it (all ready) */
        run_mode(sim, c, l, 3, 100, 100, 100, seed + 55, 1);
    }
    run(sim, c, l, frames, (int)tb_rand_range(&r, 20, 95), (int)tb_rand_range(&r, 20, 95),
        (int)tb_rand_range(&r, 10, 95), seed + 77);
    snprintf(desc, sizeof desc,
             "%s %dx%dx%d -> %d K%d S%d P%d tiles %d bands %d: cycles %ld (model %lld) util %.1f%%, bp frames %d",
             DW ? "dwconv" : "conv", l->h, l->w, l->cin, l->cout, l->k, l->s, l->p, l->ntiles,
             l->nbands, cyc,
             (long long)pred,
             cyc > 0 ? 100.0 * (double)ops / (double)cyc : 0.0, frames);
    tb_case_end(c, desc);
}

static void fixed_case(CvSim *sim, TbCheck *c, uint64_t seed, int h, int w, int cin, int cout,
                       int k, int s, int p, int tog, int min_util)
{
    Layer l;
    TbRng r;
    memset(&l, 0, sizeof l);
    tb_rng_seed(&r, seed);
    l.h = h; l.w = w; l.cin = cin; l.cout = DW ? cin : cout; l.k = k; l.s = s; l.p = p;
    l.tog = TOGMAX > 0 && (tog <= 0 || tog > TOGMAX) ? TOGMAX : tog;
    l.band = BANDMAX;
    layer_make(&l, &r);
    one_case(sim, c, &l, seed, min_util);
    layer_free(&l);
}

int main(int argc, char **argv)
{
    TbArgs a;
    TbCheck c;
    CvSim *sim;
    FILE *vec = NULL;
    int cs;
    if (tb_args_parse(&a, argc, argv, 24))
        return 2;
    tb_check_init(&c, a.quiet);
    if (!hls_engine_find(ENGINE))
        tb_check_fail(&c, "no " ENGINE " descriptor");
    sim = cv_new();
    /* utilisation goals: 3x3 with channels a multiple of the array (for
     * PP > 4 more rows and output groups: the fill of the first rows is
     * otherwise a larger share; PP 7: 42 rows, a pixel count it divides),
     * and 1x1 */
    fixed_case(sim, &c, a.seed, PP == 7 ? 42 : PP > 4 ? 24 : 12, 12, 2 * PE_IC,
               (PP > 4 ? 4 : 2) * PE_OC,
               KMAX >= 3 ? 3 : 1, 1,
               KMAX >= 3 ? 1 : 0, 0, 95);
    /* 1x1: with PP pixels per op, ICG = PP keeps the output at one beat a
     * cycle and OCG = PP the input; ICG >= RQS paces the shared requant; a
     * width that PP divides */
    fixed_case(sim, &c, a.seed + 1, 40, W1X1 - W1X1 % PP, KKMIN * PE_IC, PP * PE_OC, 1, 1, 0, 0,
               WMAX >= 16 ? 95 : 85);
    if (KILN_TB_SPAN && WMAX >= 13) /* groups across row ends: PP does not divide
                                     * 13, row by row 13 of 15 or 16 slots */
        fixed_case(sim, &c, a.seed + 4, 13, 13, 2 * PE_IC, COMAX, 3, 1, 1, 0, 90);
    if (!DW && CIMAX >= TILE_ICG * PE_IC && COMAX >= 4 * PE_OC) {
        /* tiles of one group: loading bound (1x1 on a 2x2 map), compute bound (3x3) */
        fixed_case(sim, &c, a.seed + 2, 2, 2, TILE_ICG * PE_IC, 4 * PE_OC, 1, 1, 0, 1, 0);
        fixed_case(sim, &c, a.seed + 3, 8, 8, 2 * PE_IC, 4 * PE_OC, KMAX >= 3 ? 3 : 1, 1,
                   KMAX >= 3 ? 1 : 0, 2, 0);
    }
    if (a.vec)
        vec = fopen(a.vec, "w");
    for (cs = 0; cs < a.cases; cs++) {
        Layer l;
        TbRng r;
        uint64_t seed = a.seed + 1000 + (uint64_t)cs;
        memset(&l, 0, sizeof l);
        tb_rng_seed(&r, seed);
        do {
            l.k = (int)tb_rand_range(&r, 1, KMAX);
            l.s = (int)tb_rand_range(&r, 1, 2);
            l.p = tb_chance(&r, 60) ? l.k / 2 : (int)tb_rand_range(&r, 0, l.k - 1);
            l.h = (int)tb_rand_range(&r, 1, 11);
            l.w = (int)tb_rand_range(&r, 1, WMAX < 13 ? WMAX : 13);
            l.cin = (int)tb_rand_range(&r, 1, CIMAX < 3 * PE_IC ? CIMAX : 3 * PE_IC);
            l.cout = (int)tb_rand_range(&r, 1, COMAX < 3 * PE_OC ? COMAX : 3 * PE_OC);
            if (DW)
                l.cout = l.cin;
            l.tog = tb_chance(&r, 40) ? (int)tb_rand_range(&r, 1, 3) : 0;
            if (TOGMAX > 0)
                l.tog = (int)tb_rand_range(&r, 1, TOGMAX);
            if (BANDMAX > 0)
                l.band = (int)tb_rand_range(&r, 1, BANDMAX);
        } while (l.h + 2 * l.p < l.k || l.w + 2 * l.p < l.k ||
                 l.k * l.k * ((l.cin + PE_IC - 1) / PE_IC) < KKMIN);
        if (vec)
            l.tog = 0; /* the iverilog bench runs one tile */
        layer_make(&l, &r);
        if (vec) {
            /* sim/tb/tb_conv_iv.v reads this with $readmemh: 10 header words
             * (h w icg ocg k stride pad n_w n_s n_o), the weight beats, the
             * input beats, the expected output beats; one hex word a line,
             * lane 0 rightmost */
            long hdr[10] = {l.h, l.w, l.icg, l.ocg, l.k, l.s, l.p, l.n_w, l.n_s, l.n_o};
            for (int i = 0; i < 10; i++)
                fprintf(vec, "%lx\n", hdr[i]);
            for (long b = 0; b < l.n_w; b++)
                for (int i = 0; i < PE_IC; i++)
                    fprintf(vec, "%02x%s", l.wbeats[b * PE_IC + PE_IC - 1 - i],
                            i == PE_IC - 1 ? "\n" : "");
            for (long b = 0; b < l.n_s; b++)
                for (int i = 0; i < PE_IC; i++)
                    fprintf(vec, "%02x%s", l.sbeats[b * PE_IC + PE_IC - 1 - i],
                            i == PE_IC - 1 ? "\n" : "");
            for (long b = 0; b < l.n_o; b++)
                for (int i = 0; i < PE_OC; i++)
                    fprintf(vec, "%02x%s", l.obeats[b * PE_OC + PE_OC - 1 - i],
                            i == PE_OC - 1 ? "\n" : "");
        }
        one_case(sim, &c, &l, seed, 0);
        if (vec) {
            fclose(vec);
            vec = NULL;
        }
        layer_free(&l);
    }
    cv_free(sim);
    return tb_check_finish(&c, "tb_conv");
}
