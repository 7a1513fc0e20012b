/*
 * Descriptors of the stream-family engines (rtl-templates/kiln_maxpool.v,
 * kiln_avgpool.v, kiln_upsample.v, kiln_concat.v, kiln_add.v, kiln_split.v,
 * kiln_fifo.v, kiln_skid.v, kiln_width.v, kiln_regfile.v).  cycles() is exact for a frame run in isolation with the
 * source always valid and the sink always ready (checked by the Verilator
 * benches in sim/); resources() are formulas fitted to yosys synth_xilinx
 * -family xcup (bench/synth/points_stream.txt).
 */
#include "hls/hls.h"

#include <stddef.h>

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static int64_t clog2(int64_t v)
{
    int64_t n = 0;
    while (((int64_t)1 << n) < v)
        n++;
    return n;
}

/* BRAM36 for a DEPTH x WIDTH memory as yosys maps it: whole RAMB36E2 in
 * the aspect (512x72, 1Kx36, 2Kx18, ...) that needs the fewest. */
static double bram36_for(int64_t depth, int64_t width)
{
    static const int64_t d36[] = {512, 1024, 2048, 4096, 8192, 16384, 32768};
    static const int64_t w36[] = {72, 36, 18, 9, 4, 2, 1};
    double best = 1e30;
    int i;
    for (i = 0; i < 7; i++) {
        double n = (double)(ceil_div(depth, d36[i]) * ceil_div(width, w36[i]));
        if (n < best)
            best = n;
    }
    return best;
}

/* ---------------- kiln_maxpool ---------------- */

/* Outputs along one axis issued in the flush after the last position: the
 * RTL issues output o at the position where its window ends, at most one per
 * position, and the outputs still left at the last position afterwards. */
static int64_t pool_flush(int64_t len, int64_t olen, int64_t k, int64_t s, int64_t pad)
{
    int64_t n_le = 0, n_run;
    while (n_le < olen && n_le * s - pad + k - 1 <= len - 1)
        n_le++;
    n_run = n_le;
    if (n_le < olen && !(n_le >= 1 && (n_le - 1) * s - pad + k - 1 == len - 1))
        n_run++;
    return olen - n_run;
}

static const char *const maxpool_hw[] = {"LANES", "K_MAX", "CG_MAX", "ROW_MAX", NULL};
static const char *const maxpool_rt[] = {"h", "w", "cg", "k", "s", "pad", "oh", "ow", NULL};

static int64_t maxpool_latency(const int64_t *hw)
{
    (void)hw;
    return 4;
}

static int64_t maxpool_cycles(const int64_t *hw, const int64_t *rt)
{
    int64_t h = rt[0], w = rt[1], cg = rt[2], k = rt[3], s = rt[4], pad = rt[5];
    int64_t oh = rt[6], ow = rt[7];
    int64_t fx = pool_flush(w, ow, k, s, pad), fy = pool_flush(h, oh, k, s, pad);
    int64_t ry, px, t;
    (void)hw;
    if (fy > 0)
        return h * cg * (w + fx) + fy * ow * cg + 4;
    /* The last output leaves 4 cycles after the row stage issues the last beat
     * it depends on; with stride > window trailing rows/columns feed nothing. */
    ry = (oh - 1) * s - pad + k - 1;
    if (ry > h - 1)
        ry = h - 1;
    if (fx > 0) {
        t = (ry + 1) * (w + fx) * cg - 1;
    } else {
        px = (ow - 1) * s - pad + k - 1;
        if (px > w - 1)
            px = w - 1;
        t = ry * (w + fx) * cg + px * cg + cg - 1;
    }
    return t + 5;
}

static HlsRes maxpool_resources(const int64_t *hw)
{
    int64_t lanes = hw[0], kmax = hw[1], rowmax = hw[3];
    double dw = (double)(8 * lanes);
    HlsRes r = {0, 0, 0, 0, 0};
    /* fitted on yosys: LANES 8 and 16, K_MAX 3 (window max trees, tap muxes,
     * 18-bit position arithmetic of the two line stages) */
    r.lut = 7.2 * (double)kmax * dw + 660.0;
    r.ff = 8.0 * dw + 190.0;
    r.dsp = 1.0; /* cfg_ow * cfg_cg */
    r.bram36 = (double)(kmax - 1) * bram36_for(rowmax, 8 * lanes);
    return r;
}

static const HlsEngineDesc maxpool_desc = {
    "kiln_maxpool",
    "K x K max pooling, stride S, Darknet padding (pad bottom/right, padding never wins)",
    maxpool_hw, maxpool_rt, maxpool_latency, maxpool_cycles, maxpool_resources,
};

/* ---------------- kiln_fifo, kiln_skid ---------------- */

static const char *const fifo_hw[] = {"WIDTH", "DEPTH", "BRAM_MIN", NULL};
static const char *const beats_rt[] = {"beats", NULL};

static int64_t fifo_latency(const int64_t *hw)
{
    return hw[1] >= hw[2] ? 3 : 1;
}

static int64_t fifo_cycles(const int64_t *hw, const int64_t *rt)
{
    return rt[0] + fifo_latency(hw);
}

static HlsRes fifo_resources(const int64_t *hw)
{
    int64_t width = hw[0], depth = hw[1], aw = clog2(depth);
    HlsRes r = {0, 0, 0, 0, 0};
    if (depth >= hw[2]) {
        r.bram36 = bram36_for(depth, width);
        r.ff = 2.0 * (double)width + 4.0 * (double)aw + 8.0;
        r.lut = (double)width + 4.0 * (double)aw + 22.0;
    } else {
        /* LUTRAM: one RAM32M16 (14 bits x 32) per cell as synth.py counts */
        r.ff = 3.0 * (double)aw + 5.0;
        r.lut = (double)(ceil_div(width, 14) * ceil_div(depth, 32)) + 5.0 * (double)aw + 3.0;
    }
    return r;
}

static const HlsEngineDesc fifo_desc = {
    "kiln_fifo",
    "stream FIFO: LUTRAM below BRAM_MIN entries, BRAM with prefetch above",
    fifo_hw, beats_rt, fifo_latency, fifo_cycles, fifo_resources,
};

static const char *const skid_hw[] = {"WIDTH", NULL};

static int64_t skid_latency(const int64_t *hw)
{
    (void)hw;
    return 1;
}

static int64_t skid_cycles(const int64_t *hw, const int64_t *rt)
{
    (void)hw;
    return rt[0] + 1;
}

static HlsRes skid_resources(const int64_t *hw)
{
    HlsRes r = {0, 0, 0, 0, 0};
    r.ff = 2.0 * (double)hw[0] + 2.0;
    r.lut = (double)hw[0] + 4.0;
    return r;
}

static const HlsEngineDesc skid_desc = {
    "kiln_skid",
    "two-entry skid buffer: registered ready and valid, full throughput",
    skid_hw, beats_rt, skid_latency, skid_cycles, skid_resources,
};

/* ---------------- kiln_upsample ---------------- */

static const char *const upsample_hw[] = {"LANES", "ROW_MAX", NULL};
static const char *const upsample_rt[] = {"h", "w", "cg", "f", NULL};

static int64_t upsample_latency(const int64_t *hw)
{
    (void)hw;
    return 2;
}

static int64_t upsample_cycles(const int64_t *hw, const int64_t *rt)
{
    (void)hw;
    return rt[3] * rt[3] * rt[0] * rt[1] * rt[2] + 2;
}

static HlsRes upsample_resources(const int64_t *hw)
{
    double dw = (double)(8 * hw[0]);
    HlsRes r = {0, 0, 0, 0, 0};
    r.lut = 1.1 * dw + 100.0;
    r.ff = 1.06 * dw + 63.0;
    r.bram36 = bram36_for(hw[1], 8 * hw[0]);
    return r;
}

static const HlsEngineDesc upsample_desc = {
    "kiln_upsample",
    "nearest-neighbour upsampling by an integer factor (YOLO x2)",
    upsample_hw, upsample_rt, upsample_latency, upsample_cycles, upsample_resources,
};

/* ---------------- kiln_concat ---------------- */

static const char *const lanes_hw[] = {"LANES", NULL};
static const char *const concat_rt[] = {"pixels", "ca", "cb", NULL};

static int64_t one_latency(const int64_t *hw)
{
    (void)hw;
    return 1;
}

static int64_t concat_cycles(const int64_t *hw, const int64_t *rt)
{
    int64_t lanes = hw[0], ca = rt[1], cb = rt[2];
    int64_t ga = ceil_div(ca, lanes), gb = ceil_div(cb, lanes);
    int64_t fl = (ca % lanes != 0 && ceil_div(ca + cb, lanes) == ga + gb) ? 1 : 0;
    return rt[0] * (ga + gb + fl) + 1;
}

static HlsRes concat_resources(const int64_t *hw)
{
    double dw = (double)(8 * hw[0]);
    HlsRes r = {0, 0, 0, 0, 0};
    /* two LANES-way lane shifters (merge and spill) */
    r.lut = dw * (5.4 * (double)clog2(hw[0]) - 4.8);
    r.ff = dw + 24.0;
    return r;
}

static const HlsEngineDesc concat_desc = {
    "kiln_concat",
    "channel concatenation of two streams (route), dense across LANES groups",
    lanes_hw, concat_rt, one_latency, concat_cycles, concat_resources,
};

/* ---------------- kiln_add ---------------- */

static const char *const add_rt[] = {"beats", "ma", "mb", "shift", NULL};

static int64_t two_latency(const int64_t *hw)
{
    (void)hw;
    return 2;
}

static int64_t add_cycles(const int64_t *hw, const int64_t *rt)
{
    (void)hw;
    return rt[0] + 2;
}

static HlsRes add_resources(const int64_t *hw)
{
    double lanes = (double)hw[0];
    HlsRes r = {0, 0, 0, 0, 0};
    /* per lane: two 8x16 products in DSP48E2, 27-bit add, variable rounding
     * shift and saturation in LUTs */
    r.dsp = 2.0 * lanes;
    r.lut = 241.0 * lanes + 290.0;
    r.ff = 25.0 * lanes + 10.0;
    return r;
}

static const HlsEngineDesc add_desc = {
    "kiln_add",
    "elementwise add of two int8 streams with rescale (kiln_add_requant)",
    lanes_hw, add_rt, two_latency, add_cycles, add_resources,
};

/* ---------------- kiln_split ---------------- */

static const char *const split_rt[] = {"pixels", "cg_in", "off", "cout", NULL};

static int64_t split_cycles(const int64_t *hw, const int64_t *rt)
{
    int64_t lanes = hw[0], np = rt[0], cg = rt[1], off = rt[2], cout = rt[3];
    int64_t q = off / lanes, r = off % lanes, go = ceil_div(cout, lanes);
    int64_t fl = (r != 0 && q + go == cg) ? 1 : 0;
    int64_t e = fl ? cg : (r == 0 ? q + go - 1 : q + go);
    return (np - 1) * (cg + fl) + e + 2;
}

static HlsRes split_resources(const int64_t *hw)
{
    double dw = (double)(8 * hw[0]);
    HlsRes r = {0, 0, 0, 0, 0};
    r.lut = dw * (5.83 * (double)clog2(hw[0]) - 8.63);
    r.ff = dw + 38.0;
    return r;
}

static const HlsEngineDesc split_desc = {
    "kiln_split",
    "channel slice of a stream (route groups / group_id)",
    lanes_hw, split_rt, one_latency, split_cycles, split_resources,
};

/* ---------------- kiln_avgpool ---------------- */

static const char *const avgpool_hw[] = {"LANES", "CG_MAX", "ROW_MAX", "ACC_W", NULL};
static const char *const avgpool_rt[] = {"h", "w", "cg", "kh", "kw", "oh", "ow",
                                         "m_pos", "m_neg", "shift", NULL};

static int64_t avgpool_latency(const int64_t *hw)
{
    (void)hw;
    return 3;
}

static int64_t avgpool_cycles(const int64_t *hw, const int64_t *rt)
{
    int64_t w = rt[1], cg = rt[2], kh = rt[3], kw = rt[4], oh = rt[5], ow = rt[6];
    int64_t t = ((oh * kh - 1) * w + ow * kw - 1) * cg + cg - 1;
    (void)hw;
    return t + 4;
}

static HlsRes avgpool_resources(const int64_t *hw)
{
    double lanes = (double)hw[0], accw = (double)hw[3];
    HlsRes r = {0, 0, 0, 0, 0};
    /* per lane: 24x16 product in one DSP48E2, two ACC_W adders, the x-sum
     * LUTRAM, a 42-bit variable rounding shift and saturation */
    r.dsp = lanes;
    r.lut = lanes * 20.0 * accw + 240.0;
    r.ff = lanes * (4.0 * accw + 4.0) + 47.0;
    r.bram36 = bram36_for(hw[2], hw[0] * hw[3]);
    return r;
}

static const HlsEngineDesc avgpool_desc = {
    "kiln_avgpool",
    "average pooling (window = stride) and global average pooling, sum then requant",
    avgpool_hw, avgpool_rt, avgpool_latency, avgpool_cycles, avgpool_resources,
};

/* ---------------- kiln_width ---------------- */

static const char *const width_hw[] = {"LI", "LO", NULL};
static const char *const width_rt[] = {"pixels", "cg_in", "cg_out", NULL};

static int64_t width_cycles(const int64_t *hw, const int64_t *rt)
{
    int64_t r = hw[0] / hw[1], first;
    if (hw[0] < hw[1])
        return rt[0] * rt[1] + 1;
    /* unpack: the first input beat is taken with its last output sub-beat */
    first = r < rt[2] ? r : rt[2];
    return rt[0] * rt[2] + 2 - first;
}

static HlsRes width_resources(const int64_t *hw)
{
    double lo = (double)hw[1];
    HlsRes r = {0, 0, 0, 0, 0};
    if (hw[0] < hw[1]) {
        r.ff = 8.0 * lo + 23.0;        /* partial output beat */
        r.lut = 20.0 * lo + 22.0;      /* sub-beat insert muxes, output FIFO */
    } else {
        r.ff = 23.0;
        r.lut = 2.0 * lo * (double)(hw[0] / hw[1]) + 41.0; /* sub-beat select */
    }
    return r;
}

static const HlsEngineDesc width_desc = {
    "kiln_width",
    "lane-count converter (LI -> LO lanes per beat), per-pixel channel groups",
    width_hw, width_rt, one_latency, width_cycles, width_resources,
};

/* ---------------- kiln_regfile ---------------- */

static const char *const regfile_hw[] = {"N_CFG", "PLAN_HASH", "ADDR_W", NULL};
static const char *const regfile_rt[] = {"reads", NULL};

/* cycles: back-to-back AXI-Lite reads with rready high, 2 cycles each. */
static int64_t regfile_cycles(const int64_t *hw, const int64_t *rt)
{
    (void)hw;
    return 2 * rt[0];
}

static HlsRes regfile_resources(const int64_t *hw)
{
    double n = (double)hw[0];
    HlsRes r = {0, 0, 0, 0, 0};
    r.ff = 32.0 * n + 150.0;
    r.lut = 26.3 * n + 125.0;
    return r;
}

static const HlsEngineDesc regfile_desc = {
    "kiln_regfile",
    "AXI-Lite register file: start, status, error, cycle counter, plan hash, config",
    regfile_hw, regfile_rt, one_latency, regfile_cycles, regfile_resources,
};

const HlsEngineDesc *const hls_stream_descs[] = {
    &maxpool_desc,
    &avgpool_desc,
    &upsample_desc,
    &concat_desc,
    &add_desc,
    &split_desc,
    &width_desc,
    &regfile_desc,
    &fifo_desc,
    &skid_desc,
    NULL,
};
