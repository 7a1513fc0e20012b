/*
 * Descriptors of the conv family: kiln_conv, kiln_dwconv, kiln_requant.
 *
 * Cycle models mirror the row-level flow control of kiln_conv_window.v (see
 * its header): they simulate input and output rows, not cycles, so they cost
 * O(H) and are exact.  Resource formulas are fitted to yosys synth_xilinx
 * -family xcup runs (bench/synth/, docs/rtl-resources.md).
 */
#include "hls/hls.h"

#include <stddef.h>
#include <stdlib.h>

static int64_t clog2(int64_t v)
{
    int64_t b = 0;
    while (((int64_t)1 << b) < v)
        b++;
    return b;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static int64_t cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* RAMB36E2 equivalents for a depth x width memory as yosys maps it: in
 * RAMB18E2 halves, about 15 % above the raw bit count (aspect-ratio waste,
 * fitted on the kiln_conv points of docs/rtl-resources.md).  Memories of at
 * most ~1 Kbit go to LUTRAM and count 0. */
static double bram36_for(int64_t depth, int64_t width)
{
    double bits = (double)depth * (double)width;
    double n18;
    if (bits <= 1024.0)
        return 0.0;
    n18 = bits * 1.15 / 18432.0;
    if (n18 > (double)(int64_t)n18)
        n18 = (double)((int64_t)n18 + 1);
    return n18 / 2.0;
}

/* ---------------- shared row-level window model ---------------- */

/* Shape of one frame through kiln_conv_window. */
typedef struct WinShape {
    int64_t h, w;     /* input map */
    int64_t k, s, p;  /* kernel, stride, padding */
    int64_t nin;      /* cycles per input row (beats) */
    int64_t ops_pix;  /* ops per output pixel */
    int64_t r;        /* line-buffer rows */
    int64_t lat;      /* issue of last op to its output beat */
} WinShape;

/* Exact cycles, first input beat to last output beat inclusive; -1 on a bad
 * shape. */
static int64_t win_cycles(const WinShape *sh)
{
    int64_t hout, wout, nout, iy, oy_done = 0, res;
    int64_t *wen, *end;
    if (sh->h < 1 || sh->w < 1 || sh->k < 1 || (sh->s != 1 && sh->s != 2) || sh->p < 0 ||
        sh->p >= sh->k || sh->h + 2 * sh->p < sh->k || sh->w + 2 * sh->p < sh->k)
        return -1;
    hout = (sh->h + 2 * sh->p - sh->k) / sh->s + 1;
    wout = (sh->w + 2 * sh->p - sh->k) / sh->s + 1;
    nout = wout * sh->ops_pix;
    wen = malloc(sizeof *wen * (size_t)sh->h);
    end = malloc(sizeof *end * (size_t)hout);
    if (!wen || !end) {
        free(wen);
        free(end);
        return -1;
    }
    for (iy = 0; iy < sh->h; iy++) {
        int64_t t = iy ? wen[iy - 1] : 0;
        /* compute every output row whose input rows are all in before iy */
        while (oy_done < hout) {
            int64_t need = min64(sh->h, oy_done * sh->s - sh->p + sh->k);
            int64_t cs;
            if (need > iy)
                break;
            cs = max64(oy_done ? end[oy_done - 1] : 0, wen[need - 1]);
            end[oy_done++] = cs + nout;
        }
        if (iy >= sh->r) {
            /* first output row whose end releases the slot of row iy - R */
            int64_t oy = 0;
            while (oy < hout - 1 && max64(0, (oy + 1) * sh->s - sh->p) + sh->r <= iy)
                oy++;
            t = max64(t, end[oy]); /* oy < oy_done: it needs rows < iy only */
        }
        wen[iy] = t + sh->nin;
    }
    while (oy_done < hout) {
        int64_t need = min64(sh->h, oy_done * sh->s - sh->p + sh->k);
        int64_t cs = max64(oy_done ? end[oy_done - 1] : 0, wen[need - 1]);
        end[oy_done++] = cs + nout;
    }
    res = end[hout - 1] + sh->lat;
    free(wen);
    free(end);
    return res;
}

/* ---------------- kiln_conv ---------------- */

static const char *const conv_hw[] = {"PE_IC", "PE_OC", "KMAX", "WMAX", "CIMAX", "COMAX",
                                      "WDEPTH", "PIPE", "RQ_PIPE", "PACK", NULL};
enum { CV_PE_IC, CV_PE_OC, CV_KMAX, CV_WMAX, CV_CIMAX, CV_COMAX, CV_WDEPTH, CV_PIPE,
       CV_RQ_PIPE, CV_PACK };
static const char *const conv_rt[] = {"h", "w", "cin", "cout", "k", "stride", "pad", NULL};
enum { RT_H, RT_W, RT_CIN, RT_COUT, RT_K, RT_STRIDE, RT_PAD };

static int64_t conv_latency(const int64_t *hw)
{
    return 4 + min64(hw[CV_PIPE], clog2(hw[CV_PE_IC])) + hw[CV_RQ_PIPE];
}

static int64_t conv_cycles(const int64_t *hw, const int64_t *rt)
{
    WinShape sh;
    int64_t icg = cdiv(rt[RT_CIN], hw[CV_PE_IC]);
    int64_t ocg = cdiv(rt[RT_COUT], hw[CV_PE_OC]);
    sh.h = rt[RT_H];
    sh.w = rt[RT_W];
    sh.k = rt[RT_K];
    sh.s = rt[RT_STRIDE];
    sh.p = rt[RT_PAD];
    sh.nin = rt[RT_W] * icg;
    sh.ops_pix = ocg * rt[RT_K] * rt[RT_K] * icg;
    sh.r = (int64_t)1 << clog2(hw[CV_KMAX] + 1);
    sh.lat = conv_latency(hw);
    return win_cycles(&sh);
}

static HlsRes conv_resources(const int64_t *hw)
{
    HlsRes r;
    int64_t pic = hw[CV_PE_IC], poc = hw[CV_PE_OC];
    int64_t icgmax = cdiv(hw[CV_CIMAX], pic), ocgmax = cdiv(hw[CV_COMAX], poc);
    int64_t rows = (int64_t)1 << clog2(hw[CV_KMAX] + 1);
    int64_t lbdepth = rows << (max64(1, clog2(hw[CV_WMAX])) + max64(1, clog2(icgmax)));
    int64_t macs = pic * poc;
    int64_t l = clog2(pic), tl = min64(hw[CV_PIPE], l);
    r.dsp = (double)(macs / hw[CV_PACK]) + 2.0 * (double)poc;
    r.bram36 = bram36_for(lbdepth, 8 * pic) + (double)poc * bram36_for(hw[CV_WDEPTH], 8 * pic);
    r.uram = 0.0;
    /* adder tree (pic-1 adders of ~18 bits per lane), accumulators (32),
     * requant (~130 per lane), control ~350; PACK=2 adds the sign fix-up */
    r.lut = 350.0 + (double)poc * ((double)(pic - 1) * 19.0 + 32.0 + 450.0) +
            (hw[CV_PACK] == 2 ? (double)macs * 10.0 : 0.0);
    r.ff = 300.0 + (double)macs * 16.0 + (double)poc * (32.0 + 8.0 * (double)hw[CV_RQ_PIPE] +
           (double)tl * 20.0 * (double)pic / 2.0) + (double)ocgmax * 0.0;
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

static const char *const dw_hw[] = {"LANES", "KMAX", "WMAX", "CMAX", "RQ_PIPE", NULL};
enum { DW_LANES, DW_KMAX, DW_WMAX, DW_CMAX, DW_RQ_PIPE };
static const char *const dw_rt[] = {"h", "w", "c", "k", "stride", "pad", NULL};

static int64_t dw_latency(const int64_t *hw)
{
    return 4 + hw[DW_RQ_PIPE];
}

static int64_t dw_cycles(const int64_t *hw, const int64_t *rt)
{
    WinShape sh;
    int64_t cg = cdiv(rt[2], hw[DW_LANES]);
    sh.h = rt[0];
    sh.w = rt[1];
    sh.k = rt[3];
    sh.s = rt[4];
    sh.p = rt[5];
    sh.nin = rt[1] * cg;
    sh.ops_pix = cg * rt[3] * rt[3];
    sh.r = (int64_t)1 << clog2(hw[DW_KMAX] + 1);
    sh.lat = dw_latency(hw);
    return win_cycles(&sh);
}

static HlsRes dw_resources(const int64_t *hw)
{
    HlsRes r;
    int64_t lanes = hw[DW_LANES];
    int64_t cgmax = cdiv(hw[DW_CMAX], lanes);
    int64_t rows = (int64_t)1 << clog2(hw[DW_KMAX] + 1);
    int64_t lbdepth = rows << (max64(1, clog2(hw[DW_WMAX])) + max64(1, clog2(cgmax)));
    r.dsp = 3.0 * (double)lanes;
    r.bram36 = bram36_for(lbdepth, 8 * lanes) +
               bram36_for(cgmax * hw[DW_KMAX] * hw[DW_KMAX], 8 * lanes);
    r.uram = 0.0;
    r.lut = 350.0 + (double)lanes * (32.0 + 450.0);
    r.ff = 300.0 + (double)lanes * (16.0 + 32.0 + 8.0 * (double)hw[DW_RQ_PIPE]);
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

static const char *const rq_hw[] = {"LANES", "PIPE", NULL};
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
    r.dsp = 2.0 * (double)hw[0];
    r.bram36 = 0.0;
    r.uram = 0.0;
    r.lut = 450.0 * (double)hw[0]; /* 49-bit rounding barrel shift + saturation */
    r.ff = (double)hw[0] * (hw[1] >= 2 ? 54.0 : 0.0) + (double)hw[0] * (hw[1] >= 3 ? 49.0 : 0.0) +
           (double)hw[0] * (hw[1] >= 1 ? 8.0 : 0.0) + (double)hw[1];
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
