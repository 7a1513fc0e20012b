/*
 * kiln_axi_wr bench: a C model of DDR behind the AXI4 write channels.
 *
 * The model takes AW (random AWREADY) and W (random WREADY, W may lead its
 * AW) independently, checks every burst (INCR, AWSIZE = bus width,
 * 1..BURST_MAX beats, inside one 4 KiB page, contiguous over the transfer,
 * WLAST exactly on the last beat), writes the bytes whose WSTRB is set, and
 * answers B a fixed or random latency after the later of AW and the last W
 * beat, with random BVALID gaps.  Memory starts random: after the transfer
 * exactly [base, base + bytes) must hold the stream bytes and everything
 * else must be unchanged (the tail strobes).  Some cases use the 2-D row
 * mode: stream beat b lands at base + (b / row_beats) * stride + (b %
 * row_beats) * NB and no burst may cross a row.  BRESP errors are injected in
 * some cases.  With AWREADY/WREADY high, no gaps, a fixed latency and
 * s_tvalid high the cycles from start to the last B must equal the
 * hls/desc_stream.c recurrence; done must not rise before the last B.
 *   tb_axi_wr [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axi_shim.h"
#include "tb_util.h"
#include "hls/hls.h"

#ifndef KILN_TB_DATA_W
#define KILN_TB_DATA_W 128
#endif
#ifndef KILN_TB_BURST_MAX
#define KILN_TB_BURST_MAX 64
#endif
#ifndef KILN_TB_MAX_OUT
#define KILN_TB_MAX_OUT 4
#endif

#define NB (KILN_TB_DATA_W / 8)
#define WIN_BASE 0x0ff0000000ull
#define WIN_SIZE (1u << 16)

/* One burst as the model sees it. */
typedef struct WBurst {
    int have_aw;    /* AW received */
    uint64_t addr;  /* AW address */
    int len;        /* AW beats */
    long t_aw;      /* cycle of the AW handshake */
    long w0;        /* global index of its first W beat */
    int wcnt;       /* W beats received */
    int wdone;      /* WLAST received */
    long t_wl;      /* cycle of WLAST */
    long t_b;       /* earliest B cycle, -1 until known */
    int written;    /* data applied */
} WBurst;

/* Memory and protocol settings of one run. */
typedef struct WrRun {
    uint32_t row_beats;  /* 2-D mode: beats per row (0: contiguous) */
    uint32_t row_stride; /* 2-D mode: bytes from row to row */
    int ready_pct;  /* AWREADY and WREADY probability */
    int valid_pct;  /* BVALID probability when due */
    int lat;        /* latency to B */
    int lat_rand;   /* extra random latency, 0..lat_rand */
    int s_pct;      /* s_tvalid probability */
    int err_burst;  /* burst answered SLVERR, or -1 */
} WrRun;

static int lg2(int v)
{
    int n = 0;
    while ((1 << n) < v)
        n++;
    return n;
}

/* Address of stream beat b of a transfer at base. */
static uint64_t beat_addr(const WrRun *wr, uint64_t base, long b)
{
    if (!wr->row_beats)
        return base + (uint64_t)b * NB;
    return base + (uint64_t)(b / wr->row_beats) * wr->row_stride +
           (uint64_t)(b % wr->row_beats) * NB;
}

static long run_wr(void *dut, TbCheck *chk, uint8_t *mem, const uint8_t *src, uint64_t base,
                   uint32_t bytes, const WrRun *wr, uint64_t seed)
{
    AxiWrPins p;
    TbRng rng;
    long nbeats = ((long)bytes + NB - 1) / NB, sent = 0, wbeats = 0, cyc, s_cyc = 5, last_b = -1;
    long limit = 600 + nbeats * 40 + (long)(wr->lat + wr->lat_rand) * (nbeats / 4 + 8) * 4;
    WBurst *bu = calloc((size_t)nbeats + 2, sizeof *bu);
    uint8_t *wst = malloc((size_t)(nbeats + 1) * NB);
    uint32_t *wsb = malloc((size_t)(nbeats + 1) * sizeof *wsb);
    int naw = 0, nw = 0, nb_done = 0, bv_held = 0, aw_pend = 0, w_pend = 0, fail = 0;
    uint64_t prev_awaddr = 0;
    long eb = 0; /* stream beats covered by the AW bursts so far */
    int prev_awlen = 0;
    uint8_t w_prev[NB];
    uint32_t prev_wstrb = 0;

    tb_rng_seed(&rng, seed);
    memset(&p, 0, sizeof p);
    p.rst = 1;
    for (cyc = 0; cyc < 3; cyc++)
        axi_wr_tick(dut, &p);
    p.rst = 0;
    for (cyc = 0; cyc < limit && !fail; cyc++) {
        p.start = cyc == s_cyc;
        p.base = p.start ? base : tb_rand64(&rng) & ~(uint64_t)(NB - 1);
        p.bytes = p.start ? bytes : (uint32_t)tb_rand64(&rng);
        p.row_beats = p.start ? wr->row_beats : (uint32_t)tb_rand64(&rng);
        p.row_stride = p.start ? wr->row_stride : (uint32_t)tb_rand64(&rng);
        p.s_tvalid = sent < nbeats && tb_chance(&rng, wr->s_pct);
        if (p.s_tvalid)
            memcpy(p.s_tdata, src + sent * NB, NB);
        else
            for (int i = 0; i < NB; i++)
                p.s_tdata[i] = (uint8_t)tb_rand64(&rng);
        p.awready = tb_chance(&rng, wr->ready_pct);
        p.wready = tb_chance(&rng, wr->ready_pct);
        if (!bv_held) {
            WBurst *b = &bu[nb_done];
            p.bvalid = nb_done < naw && b->t_b >= 0 && cyc >= b->t_b &&
                       tb_chance(&rng, wr->valid_pct);
            p.bresp = p.bvalid ? (nb_done == wr->err_burst ? 2 : 0) : (int)(tb_rand64(&rng) & 3);
        }
        axi_wr_tick(dut, &p);

        if (aw_pend && (!p.awvalid || p.awaddr != prev_awaddr || p.awlen != prev_awlen)) {
            tb_check_fail(chk, "AW changed before AWREADY at cycle %ld", cyc);
            fail = 1;
        }
        if (w_pend && (!p.wvalid || memcmp(w_prev, p.wdata, NB) != 0 || p.wstrb != prev_wstrb)) {
            tb_check_fail(chk, "W changed before WREADY at cycle %ld", cyc);
            fail = 1;
        }
        if (p.s_tvalid && p.s_tready)
            sent++;
        if (p.awvalid && p.awready) {
            uint64_t a = p.awaddr;
            int len = p.awlen + 1;
            if (p.awburst != 1 || p.awsize != lg2(NB) || len > KILN_TB_BURST_MAX ||
                (a & 4095) + (uint64_t)len * NB > 4096 || a != beat_addr(wr, base, eb) ||
                eb + len > nbeats ||
                (wr->row_beats && (uint32_t)(eb % wr->row_beats) + (uint32_t)len > wr->row_beats)) {
                tb_check_fail(chk, "bad AW at cycle %ld: addr %#llx len %d (want addr %#llx)",
                              cyc, (unsigned long long)a, len,
                              (unsigned long long)beat_addr(wr, base, eb));
                fail = 1;
            } else {
                eb += len;
                bu[naw].have_aw = 1;
                bu[naw].addr = a;
                bu[naw].len = len;
                bu[naw].t_aw = cyc;
                bu[naw].t_b = -1;
                naw++;
            }
        }
        aw_pend = p.awvalid && !p.awready;
        prev_awaddr = p.awaddr;
        prev_awlen = p.awlen;
        if (p.wvalid && p.wready) {
            WBurst *b = &bu[nw];
            if (wbeats >= nbeats) {
                tb_check_fail(chk, "extra W beat at cycle %ld", cyc);
                fail = 1;
            } else {
                if (b->wcnt == 0)
                    b->w0 = wbeats;
                memcpy(wst + wbeats * NB, p.wdata, NB);
                wsb[wbeats] = p.wstrb;
                wbeats++;
                b->wcnt++;
                if (p.wlast) {
                    b->wdone = 1;
                    b->t_wl = cyc;
                    nw++;
                }
            }
        }
        w_pend = p.wvalid && !p.wready;
        memcpy(w_prev, p.wdata, NB);
        prev_wstrb = p.wstrb;
        /* bursts with both AW and WLAST: check, write, schedule B */
        for (int k = 0; k < naw && !fail; k++) {
            WBurst *b = &bu[k];
            if (!b->have_aw || b->written)
                continue;
            if (b->wcnt > b->len || (b->wdone && b->wcnt != b->len)) {
                tb_check_fail(chk, "burst %d: %d W beats (WLAST %d) for AWLEN+1 = %d", k,
                              b->wcnt, b->wdone, b->len);
                fail = 1;
                break;
            }
            if (!b->wdone)
                continue;
            for (long i = 0; i < b->len; i++)
                for (int j = 0; j < NB; j++)
                    if (wsb[b->w0 + i] >> j & 1)
                        mem[b->addr - WIN_BASE + (uint64_t)(i * NB + j)] = wst[(b->w0 + i) * NB + j];
            b->written = 1;
            b->t_b = (b->t_aw > b->t_wl ? b->t_aw : b->t_wl) + wr->lat +
                     (wr->lat_rand ? tb_rand_range(&rng, 0, wr->lat_rand) : 0);
        }
        if (p.bvalid && p.bready) {
            bv_held = 0;
            nb_done++;
            last_b = cyc;
        } else if (p.bvalid) {
            bv_held = 1;
        }
        if (p.done && nb_done < naw) {
            tb_check_fail(chk, "done before the last B response at cycle %ld", cyc);
            fail = 1;
        }
        if (sent == nbeats && nb_done == naw && naw > 0 && p.done && !p.busy)
            break;
    }
    if (!fail && (sent != nbeats || wbeats != nbeats || !p.done || p.busy)) {
        tb_check_fail(chk, "timeout: %ld/%ld beats in, %ld W beats, %d/%d B, done %d busy %d",
                      sent, nbeats, wbeats, nb_done, naw, p.done, p.busy);
        fail = 1;
    }
    if (!fail && p.error != (wr->err_burst >= 0))
        tb_check_fail(chk, "error flag %d, expected %d", p.error, wr->err_burst >= 0);
    free(bu);
    free(wst);
    free(wsb);
    return fail ? -1 : last_b - s_cyc + 1;
}

int main(int argc, char **argv)
{
    static const int64_t hw[] = {KILN_TB_DATA_W, 40, KILN_TB_BURST_MAX, KILN_TB_MAX_OUT};
    const HlsEngineDesc *desc = hls_engine_find("kiln_axi_wr");
    TbArgs a;
    TbCheck chk;
    void *dut;
    uint8_t *mem = malloc(WIN_SIZE), *init = malloc(WIN_SIZE), *src = malloc(WIN_SIZE);
    uint8_t *want = malloc(WIN_SIZE);
    int ci;

    if (tb_args_parse(&a, argc, argv, 24) < 0 || !desc || !mem || !init || !src || !want)
        return 2;
    tb_check_init(&chk, a.quiet);
    dut = axi_wr_new();
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        uint64_t base;
        uint32_t bytes, off;
        int kind = ci % 6, mode;
        uint32_t rb = 0, rs = 0;
        long i;
        char line[200];
        tb_rng_seed(&r, a.seed * 7907 + (uint64_t)ci);
        for (i = 0; i < WIN_SIZE; i++) {
            init[i] = (uint8_t)tb_rand64(&r);
            src[i] = (uint8_t)tb_rand64(&r);
        }
        if (kind == 0)
            off = 4096 - NB * (uint32_t)tb_rand_range(&r, 1, 4);
        else
            off = (uint32_t)tb_rand_range(&r, 0, 4096 / NB - 1) * NB;
        bytes = kind == 3 ? (uint32_t)tb_rand_range(&r, 1, 3 * NB)
                          : (uint32_t)tb_rand_range(&r, 1, kind == 2 ? 20000 : 5000);
        if (kind >= 4) {
            /* 2-D: rows of rb beats, stride >= a row (kind 5: rows past BURST_MAX) */
            uint32_t rows = (uint32_t)tb_rand_range(&r, 1, 24);
            rb = (uint32_t)tb_rand_range(&r, 1, kind == 5 ? KILN_TB_BURST_MAX + 40 : 12);
            rs = NB * (rb + (uint32_t)tb_rand_range(&r, 0, 24));
            if (rows * rs > 40000)
                rows = 40000 / rs > 0 ? 40000 / rs : 1;
            bytes = rows * rb * NB;
        }
        base = WIN_BASE + 4096 * (uint64_t)tb_rand_range(&r, 0, 3) + off;
        for (mode = 0; mode < 3; mode++) {
            WrRun wr;
            long cyc, k;
            memset(&wr, 0, sizeof wr);
            wr.err_burst = -1;
            wr.row_beats = rb;
            wr.row_stride = rs;
            if (mode == 0) {
                wr.ready_pct = wr.valid_pct = wr.s_pct = 100;
                wr.lat = (int)tb_rand_range(&r, 1, 40);
            } else {
                wr.ready_pct = (int)tb_rand_range(&r, 20, 90);
                wr.valid_pct = (int)tb_rand_range(&r, 30, 95);
                wr.lat = (int)tb_rand_range(&r, 1, 30);
                wr.lat_rand = mode == 2 ? (int)tb_rand_range(&r, 1, 60) : 0;
                wr.s_pct = mode == 1 ? 100 : (int)tb_rand_range(&r, 20, 90);
                if (ci % 3 == 1)
                    wr.err_burst = 0;
            }
            memcpy(mem, init, WIN_SIZE);
            cyc = run_wr(dut, &chk, mem, src, base, bytes, &wr,
                         a.seed * 1000 + (uint64_t)ci * 3 + (uint64_t)mode);
            memcpy(want, init, WIN_SIZE);
            for (k = 0; k < (long)bytes; k++)
                want[beat_addr(&wr, base, k / NB) - WIN_BASE + (uint64_t)(k % NB)] = src[k];
            for (k = 0; k < (long)WIN_SIZE; k++)
                if (mem[k] != want[k])
                    tb_check_int(&chk, "mem", k - (long)(base - WIN_BASE), mem[k], want[k]);
            if (mode == 0 && cyc >= 0) {
                int64_t rt[] = {(int64_t)base, bytes, wr.lat, rb, rs};
                int64_t pred = desc->cycles(hw, rt);
                if (pred != cyc)
                    tb_check_fail(&chk, "cycles: measured %ld, descriptor %lld (%+lld)", cyc,
                                  (long long)pred, (long long)(cyc - pred));
            }
            snprintf(line, sizeof line, "axi_wr base +%#x %u bytes rows %u/%u %s lat %d cycles %ld",
                     (unsigned)(base - WIN_BASE), bytes, rb, rs,
                     mode == 0 ? "free" : mode == 1 ? "mem-bp" : "mem+stream-bp", wr.lat, cyc);
            tb_case_end(&chk, line);
        }
    }
    axi_wr_free(dut);
    free(mem);
    free(init);
    free(src);
    free(want);
    return tb_check_finish(&chk, "tb_axi_wr");
}
