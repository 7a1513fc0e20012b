/*
 * Descriptors of the stream-family engines (rtl-templates/kiln_maxpool.v,
 * kiln_upsample.v, kiln_concat.v, kiln_add.v, kiln_lut.v, kiln_fifo.v, kiln_skid.v,
 * kiln_width.v, kiln_regfile.v, kiln_axi_rd.v, kiln_axi_wr.v).  cycles() is
 * exact for a frame run in isolation with the source always valid and the
 * sink always ready (checked by the Verilator benches in sim/); resources()
 * are formulas fitted to yosys synth_xilinx -family xcup on the `fit` points
 * of bench/synth/points_stream.txt and checked on its `check` points
 * (docs/rtl-stream-resources.md).
 */
#include "hls/hls.h"
#include "hls/plan_int.h"
#include "hls/res_util.h"

#include <stddef.h>

/* ---------------- kiln_maxpool ---------------- */

/* Outputs along one axis issued in the flush after the last position: the
 * RTL issues output o at the position where its window ends, at most one per
 * position, and the outputs still left at the last position afterwards. */
int64_t hls_pool_flush(int64_t len, int64_t olen, int64_t k, int64_t s, int64_t pad)
{
    int64_t n_le = 0, n_run;
    while (n_le < olen && n_le * s - pad + k - 1 <= len - 1)
        n_le++;
    n_run = n_le;
    if (n_le < olen && !(n_le >= 1 && (n_le - 1) * s - pad + k - 1 == len - 1))
        n_run++;
    return olen - n_run;
}

static const char *const maxpool_hw[] = {"LANES", "K_MAX", "CG_MAX", "ROW_MAX", "PIPE", NULL};
static const char *const maxpool_rt[] = {"h", "w", "cg", "k", "s", "pad", "oh", "ow", NULL};

/* 2 per line stage, plus PIPE registers after each stage's max. */
static int64_t maxpool_latency(const int64_t *hw)
{
    return 4 + 2 * hw[4];
}

static int64_t maxpool_cycles(const int64_t *hw, const int64_t *rt)
{
    int64_t h = rt[0], w = rt[1], cg = rt[2], k = rt[3], s = rt[4], pad = rt[5];
    int64_t oh = rt[6], ow = rt[7];
    int64_t fx = hls_pool_flush(w, ow, k, s, pad), fy = hls_pool_flush(h, oh, k, s, pad);
    int64_t ry, px, t, lat = maxpool_latency(hw);
    if (fy > 0)
        return h * cg * (w + fx) + fy * ow * cg + lat;
    /* The last output leaves lat cycles after the row stage issues the last beat
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
    return t + 1 + lat;
}

/* Resources of one kiln_maxpool_line stage of the given DEPTH: K_MAX-1 tap
 * memories (LUTRAM up to 64 words, their read register in flip-flops; else
 * block RAM with the read register inside), the input register and the
 * last-written tap words (forwarding), the PIPE register after the max and
 * a (4 + PIPE)-entry LUTRAM output FIFO. */
static void maxpool_stage(HlsRes *r, int64_t lanes, int64_t kmax, int64_t depth, int64_t pipe)
{
    int64_t dw = 8 * lanes, nt = kmax - 1;
    double b = hls_bram36_for(depth, dw);
    r->bram36 += (double)nt * b;
    r->lut += (double)nt * hls_lutram_luts(depth, dw) + hls_lutram_luts(4 + pipe, dw);
    r->ff += (double)(dw * (1 + nt + (b > 0.0 ? 0 : nt) + pipe));
    /* per tap and lane: signed 8-bit compare, select, forwarding mux */
    r->lut += 4.43 * (double)(nt * dw);
}

static HlsRes maxpool_resources(const int64_t *hw)
{
    int64_t lanes = hw[0], kmax = hw[1], pipe = hw[4];
    HlsRes r = {0, 0, 0, 0, 0};
    maxpool_stage(&r, lanes, kmax, hw[2], pipe); /* along x: CG_MAX deep */
    maxpool_stage(&r, lanes, kmax, hw[3], pipe); /* along y: ROW_MAX deep */
    /* position and window arithmetic of both stages (18-bit) with the cfg
     * values tied to constants, as the generated top instantiates it: yosys
     * on the six 2-lane maxpools of the YOLOv3-tiny designs (2x2 stride 2
     * and stride 1, K_MAX 2) measured 552..637 LUT, 299..314 FF and no DSP
     * (cfg_ow * cfg_cg folds).  With every cfg input free it takes about
     * 450 LUT more and 1 DSP (docs/rtl-stream-resources.md) */
    r.lut += 420.0;
    r.ff += 212.0;
    r.dsp = 0.0;
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
    int64_t width = hw[0], depth = hw[1], aw = hls_clog2(depth);
    HlsRes r = {0, 0, 0, 0, 0};
    if (depth >= hw[2]) {
        r.bram36 = hls_bram36_for(depth, width);
        r.ff = 2.0 * (double)width + 4.0 * (double)aw + 8.0;
        r.lut = (double)width + 4.0 * (double)aw + 22.0;
    } else if (depth > 64) {
        /* small form, but yosys pulls the registered read address into a
         * block RAM above 64 words (WIDTH=64 DEPTH=72: 1 RAMB36E2, 86 FF) */
        r.bram36 = hls_bram36_for(depth, width);
        r.ff = (double)width + 3.0 * (double)aw + 5.0;
        r.lut = (double)width + 4.0 * (double)aw + 22.0;
    } else {
        /* LUTRAM (hls_lutram_luts; WIDTH=128 DEPTH=16: 10 RAM32M16 beside
         * 23 LUTs) */
        r.ff = 3.0 * (double)aw + 5.0;
        r.lut = hls_lutram_luts(depth, width) + 5.0 * (double)aw + 3.0;
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
    int64_t dw = 8 * hw[0];
    HlsRes r = {0, 0, 0, 0, 0};
    /* the row buffer; its read register is inside the block RAM unless the
     * buffer is small enough for LUTRAM */
    r.bram36 = hls_bram36_for(hw[1], dw);
    /* output select (input beat or buffer), the 4-entry output FIFO, and
     * the x / group / copy counters (constants fitted on LANES 8 and 16) */
    r.lut = (double)dw + hls_lutram_luts(4, dw) + hls_lutram_luts(hw[1], dw) +
            103.5;
    r.ff = (double)dw * (r.bram36 > 0.0 ? 1.0 : 2.0) + 69.0;
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
    int64_t ga = hls_cdiv(ca, lanes), gb = hls_cdiv(cb, lanes);
    int64_t fl = (ca % lanes != 0 && hls_cdiv(ca + cb, lanes) == ga + gb) ? 1 : 0;
    return rt[0] * (ga + gb + fl) + 1;
}

/* Lane realignment of concat: every output lane picks one of LANES input
 * lanes by a run-time index ((l - r) mod LANES), so yosys builds a LANES:1
 * mux of 8 bits per lane, not a log2(LANES)-level barrel shifter: the mux
 * inputs grow as 8*LANES*LANES. */
static double realign_mux_inputs(int64_t lanes)
{
    return 8.0 * (double)lanes * (double)lanes;
}

static HlsRes concat_resources(const int64_t *hw)
{
    double dw = (double)(8 * hw[0]);
    HlsRes r = {0, 0, 0, 0, 0};
    /* merge and spill share the lane index; constant: group counters,
     * state, the 2-entry output FIFO, with the group counts constant as in
     * the generated top (route20 of YOLOv3-tiny, 2 lanes: 73 LUT; free
     * counts add about 190, docs/rtl-stream-resources.md) */
    r.lut = 0.919 * realign_mux_inputs(hw[0]) + 60.0;
    r.ff = dw + 24.0; /* carry register + counters */
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

/* ---------------- kiln_lut ---------------- */

static const char *const lut_hw[] = {"LANES", "CHANS", "BRAM_CG", NULL};
static const char *const lut_rt[] = {"n", NULL};

static int64_t lut_cycles(const int64_t *hw, const int64_t *rt)
{
    (void)hw;
    return rt[0] + 2;
}

static HlsRes lut_resources(const int64_t *hw)
{
    double lanes = (double)hw[0];
    HlsRes r = {0, 0, 0, 0, 0};
    if (hw[1] > 0) {
        /* a table per channel: per lane a ROM of its CG tables (CG*256 x
         * 8, read into a register).  Below BRAM_CG tables a lane yosys
         * 0.23 keeps such ROMs as logic (no LUTRAM), about 27
         * LUT6 and their F7/F8/F9 muxes per 256-entry table of a HardSwish
         * shape: LANES 8 with 8, 16, 32 channels 261, 500, 928 LUT, LANES 4
         * with 16 491 (bench/synth/lut_chan.py); the FIFO's RAM32M16 and
         * the group counter besides. */
        int64_t cg = hls_cdiv(hw[1], hw[0]), nt = cg * hw[0];
        if (cg >= hw[2]) {
            /* block RAM (rom_style "block"): the fit of a CG*256 x 8
             * memory a lane, its output register inside, a read mux per
             * bit over its RAMB18E2 of 8 tables each (LANES 2 with 16
             * channels: 2 RAMB18E2, 32 LUT, 13 FF; LANES 4 with 96: 12,
             * 72 LUT, 17 FF) */
            HlsBramFit b = hls_bram_fit(cg * 256, 8);
            int64_t ranges = hls_cdiv(cg, hw[2]);
            r.bram36 = lanes * b.bram36;
            r.lut = 8.0 * (double)hls_cdiv(8 * hw[0], 14) + 16.0 +
                    lanes * 8.0 * (double)hls_cdiv(ranges - 1, 3);
            r.ff = 10.0 + (double)hls_clog2(cg);
            return r;
        }
        r.lut = 27.0 * (double)nt + 8.0 * (double)hls_cdiv(8 * hw[0], 14) + 20.0;
        r.ff = 8.0 * lanes + 10.0 + (double)hls_clog2(cg);
        return r;
    }
    /* per lane a 256 x 8 ROM in LUTs (per bit up to four LUT6 and the
     * F7/F8 muxes; yosys 0.23 synth_xilinx -family xcup on LANES 8 with
     * the hswish model's first table: 240 LUT, 5 RAM32M16, 74 FF, 128
     * MUXF7, 64 MUXF8), its output register; the 4-entry LUTRAM output
     * FIFO and the credit count */
    r.lut = 30.0 * lanes + (double)hls_cdiv(8 * hw[0], 14) + 13.0;
    r.ff = 8.0 * lanes + 12.0;
    return r;
}

static const HlsEngineDesc lut_desc = {
    "kiln_lut",
    "any function of one int8 value as a 256-entry table per lane, or per channel (LutI8)",
    lut_hw, lut_rt, two_latency, lut_cycles, lut_resources,
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

static const char *const regfile_hw[] = {"N_CFG", "PLAN_HASH", "ADDR_W", "N_PERF", "PERF_BASE",
                                         "UNITS", NULL};
static const char *const regfile_rt[] = {"reads", NULL};

/* cycles: back-to-back AXI-Lite reads with rready high, 2 cycles each. */
static int64_t regfile_cycles(const int64_t *hw, const int64_t *rt)
{
    (void)hw;
    return 2 * rt[0];
}

/* Fitted with bench/synth/inst_synth.py on the register file of eight
 * generated tops (YOLOv3-tiny 416 on the four boards, yolov3-tiny-small,
 * cpumid, resdw and big on Ultra96-V2: N_CFG 18..58, N_PERF 6..21): LUT
 * within -10..+12% (1,945 and 1,741 measured for the same parameters: the
 * plan hash's constants), FF within 1%.  The read mux and the byte-strobe
 * write enables grow with the CFG registers; the PERF words, inputs from
 * the stages, cost few LUTs each.  Each run unit past the first (a folded
 * top's: its start, busy, done, IER bit and 32-bit CYCLES) adds 36 FF: at
 * UNITS 2 in yosys at N_CFG 20, 30, 40 and 50 (kiln_regfile alone, N_PERF
 * 16); its LUT change, +92, +85, -61 and -432, is within ABC's noise at
 * those sizes, so none is counted. */
static HlsRes regfile_resources(const int64_t *hw)
{
    HlsRes r = {0, 0, 0, 0, 0};
    r.ff = 32.0 * (double)hw[0] + 150.0 + 36.0 * (double)(hw[5] - 1);
    r.lut = 27.5 * (double)hw[0] + 3.4 * (double)(2 * hw[3]) + 143.0;
    return r;
}

static const HlsEngineDesc regfile_desc = {
    "kiln_regfile",
    "AXI-Lite register file: start, status, error, cycle counter, plan hash, config",
    regfile_hw, regfile_rt, one_latency, regfile_cycles, regfile_resources,
};

/* ---------------- kiln_axi_rd, kiln_axi_wr ---------------- */

#define AXI_OUT_MAX 64 /* largest MAX_OUT the cycle models follow */
/* Per bit of CNT_W (the beat counters): their registers (2 in the reader,
 * 3 in the writer) and the LUTs in the same share of what a channel saves
 * per bit in context (hls/infra.c: 3.5 and 3.4 LUT). */
#define AXI_RD_LUT_BIT 1.76
#define AXI_RD_FF_BIT 2.0
#define AXI_WR_LUT_BIT 2.04
#define AXI_WR_FF_BIT 3.0

static const char *const axi_hw[] = {"DATA_W", "ADDR_W", "BURST_MAX", "MAX_OUT", "CNT_W", NULL};
/* base: first byte address; bytes: transfer length; lat: the memory's fixed
 * latency (AR taken -> first R beat; last W beat -> B response). */
static const char *const axi_rt[] = {"base", "bytes", "lat", NULL};

/* Beats of the next burst at byte address addr with rem beats left: at most
 * BURST_MAX and never across a 4 KiB boundary. */
static int64_t axi_burst_len(int64_t addr, int64_t rem, int64_t nb, int64_t bmax)
{
    int64_t to4k = (4096 - (addr & 4095)) / nb, n = rem;
    if (n > bmax)
        n = bmax;
    if (n > to4k)
        n = to4k;
    return n;
}

/* Latency of the data FIFO (kiln_fifo: BRAM form from 128 entries). */
static int64_t axi_fifo_lat(int64_t depth)
{
    return depth >= 128 ? 3 : 1;
}

static int64_t axi_rd_latency(const int64_t *hw)
{
    return axi_fifo_lat(hw[3] * hw[2] + 8);
}

/* The recurrence of kiln_axi_rd.v's header, cycle 0 = start. */
static int64_t axi_rd_cycles(const int64_t *hw, const int64_t *rt)
{
    int64_t nb = hw[0] / 8, bmax = hw[2], mo = hw[3], lat = rt[2];
    int64_t addr = rt[0], rem = (rt[1] + nb - 1) / nb;
    int64_t ring[AXI_OUT_MAX] = {0}; /* e of the last MAX_OUT bursts */
    int64_t l = 0, e = 0, j = 0;
    if (mo > AXI_OUT_MAX)
        mo = AXI_OUT_MAX;
    if (rem == 0)
        return 1;
    while (rem > 0) {
        int64_t len = axi_burst_len(addr, rem, nb, bmax), a, r;
        l = j == 0 ? 1 : l + 1;
        if (j >= mo && ring[j % mo] + 1 > l)
            l = ring[j % mo] + 1;
        a = l + 1;
        r = a + lat;
        if (j > 0 && e + 1 > r)
            r = e + 1;
        e = r + len - 1;
        ring[j % mo] = e;
        addr += len * nb;
        rem -= len;
        j++;
    }
    return e + axi_rd_latency(hw) + 1;
}

/* kiln_axi_wr: axi_rt + the 2-D row mode (row_beats 0: one contiguous run). */
static const char *const axi_wr_rt[] = {"base", "bytes", "lat", "row_beats", "row_stride", NULL};

/* The recurrence of kiln_axi_wr.v's header, cycle 0 = start. */
static int64_t axi_wr_cycles(const int64_t *hw, const int64_t *rt)
{
    int64_t nb = hw[0] / 8, bmax = hw[2], mo = hw[3], lat = rt[2];
    int64_t addr = rt[0], rem = (rt[1] + nb - 1) / nb;
    int64_t rowbeats = rt[3] > 0 ? rt[3] : rem, rowleft = rowbeats, rowbase = rt[0];
    int64_t ring[AXI_OUT_MAX] = {0}; /* b of the last MAX_OUT bursts */
    int64_t c = 0, w = 0, b = 0, p = 0, j = 0;
    if (mo > AXI_OUT_MAX)
        mo = AXI_OUT_MAX;
    if (rem == 0)
        return 1;
    while (rem > 0) {
        int64_t len = axi_burst_len(addr, rem, nb, bmax), f;
        if (len > rowleft)
            len = rowleft;
        p += len;
        c = j == 0 ? 1 + p : (c + 1 > 1 + p ? c + 1 : 1 + p);
        if (j >= mo && ring[j % mo] + 1 > c)
            c = ring[j % mo] + 1;
        f = (j > 0 && c < w) ? w + 1 : c + 2;
        w = f + len - 1;
        b = (j > 0 && b + 1 > w + lat) ? b + 1 : w + lat;
        ring[j % mo] = b;
        rem -= len;
        if (len == rowleft) {
            rowbase += rt[4];
            addr = rowbase;
            rowleft = rowbeats;
        } else {
            addr += len * nb;
            rowleft -= len;
        }
        j++;
    }
    return b + 1;
}

static int64_t axi_wr_latency(const int64_t *hw)
{
    (void)hw;
    return 2;
}

/* The data FIFO of an AXI master: BRAM form (2*DATA_W output-buffer and
 * read-data flip-flops, DATA_W LUTs of muxes) from 128 entries; the small
 * form is block RAM too above 64 entries (yosys makes its registered read
 * address a synchronous read: BURST_MAX 16, MAX_OUT 4 is 72 x DATA_W in
 * one RAMB36E2 for DATA_W 64), else LUTRAM (hls_lutram_luts: RAM32M16 or
 * RAM64M8 cells of 8 LUTs). */
static void axi_fifo_res(HlsRes *r, int64_t depth, int64_t dw)
{
    if (depth >= 128) {
        r->bram36 = hls_bram36_for(depth, dw);
        r->ff += 2.0 * (double)dw;
        r->lut += (double)dw;
    } else if (depth > 64) {
        r->bram36 = hls_bram36_for(depth, dw);
        r->ff += (double)dw;
        r->lut += (double)dw;
    } else {
        r->lut += hls_lutram_luts(depth, dw);
    }
}

static HlsRes axi_rd_resources(const int64_t *hw)
{
    int64_t dw = hw[0], aw = hw[1];
    HlsRes r = {0, 0, 0, 0, 0};
    /* fitted on yosys with the cfg inputs the generated top gives it
     * (cfg_bytes constant, cfg_base a register): DATA_W 16 and 64, BURST_MAX
     * 14, MAX_OUT 4: 269 and 318 LUT, 191 FF.  Two address registers and
     * their adder (2*ADDR_W), the last beat's byte mask (~DATA_W), two
     * 32-bit beat counters, 9-bit burst-length compares.  With cfg_bytes
     * free about 10% more (docs/rtl-stream-resources.md).  CNT_W below 32:
     * the two beat counters and their compares narrow (AXI_RD_LUT_BIT) */
    r.lut = 1.02 * (double)dw + 2.0 * (double)aw + 173.0 + AXI_RD_LUT_BIT * (double)(hw[4] - 32);
    r.ff = 0.06 * (double)dw + 2.0 * (double)aw + 110.0 + AXI_RD_FF_BIT * (double)(hw[4] - 32);
    axi_fifo_res(&r, hw[3] * hw[2] + 8, dw);
    return r;
}

static HlsRes axi_wr_resources(const int64_t *hw)
{
    int64_t dw = hw[0], aw = hw[1];
    HlsRes r = {0, 0, 0, 0, 0};
    /* fitted on yosys with the cfg inputs the generated top gives it
     * (cfg_bytes and the row registers constant, cfg_base a register):
     * DATA_W 16 and 64, BURST_MAX 16, MAX_OUT 4: 439 and 490 LUT, 280 FF.
     * One burst-length unit (the W side replays the AW side's lengths),
     * 32-bit counters, two address adders.  With free row registers the
     * row arithmetic stays: about 1.9x (docs/rtl-stream-resources.md).
     * CNT_W below 32: the three beat counters narrow (AXI_WR_LUT_BIT) */
    r.lut = 1.06 * (double)dw + 2.0 * (double)aw + 342.0 + AXI_WR_LUT_BIT * (double)(hw[4] - 32);
    r.ff = 2.0 * (double)aw + 200.0 + AXI_WR_FF_BIT * (double)(hw[4] - 32);
    axi_fifo_res(&r, 2 * hw[2] + 8, dw);
    return r;
}

static const HlsEngineDesc axi_rd_desc = {
    "kiln_axi_rd",
    "AXI4 burst read master: DDR -> stream, 4 KiB-safe INCR bursts, MAX_OUT in flight",
    axi_hw, axi_rt, axi_rd_latency, axi_rd_cycles, axi_rd_resources,
};

static const HlsEngineDesc axi_wr_desc = {
    "kiln_axi_wr",
    "AXI4 burst write master: stream -> DDR, 4 KiB-safe INCR bursts, WSTRB tail, waits for B",
    axi_hw, axi_wr_rt, axi_wr_latency, axi_wr_cycles, axi_wr_resources,
};

const HlsEngineDesc *const hls_stream_descs[] = {
    &maxpool_desc,
    &upsample_desc,
    &concat_desc,
    &add_desc,
    &lut_desc,
    &width_desc,
    &regfile_desc,
    &fifo_desc,
    &skid_desc,
    &axi_rd_desc,
    &axi_wr_desc,
    NULL,
};
