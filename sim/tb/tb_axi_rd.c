/*
 * kiln_axi_rd bench: a C model of DDR behind the AXI4 read channels.
 *
 * The model takes ARs (random ARREADY), checks every burst (INCR, ARSIZE =
 * bus width, 1..BURST_MAX beats, inside one 4 KiB page, contiguous over the
 * transfer), and returns each burst's beats in order after a fixed or random
 * latency with random RVALID gaps (valid held until taken, data stable).
 * Transfers have odd byte counts and bases at any bus-aligned offset in a
 * 4 KiB page (some just below a boundary); every stream byte is checked
 * against memory (bytes past the length must be 0) with and without stream
 * back-pressure; RRESP errors are injected in some cases and must show up
 * in the sticky error.  With ARREADY high, no gaps, a fixed latency and
 * m_tready high the cycle count from start to the last stream beat must
 * equal the hls/desc_stream.c recurrence.
 *   tb_axi_rd [--seed N] [--cases N] [--quiet] [--vec FILE]
 * --vec writes one free-running case (memory image and expected stream) for
 * the iverilog bench sim/tb/tb_axi_rd_iv.v.
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
#define WIN_BASE 0x1230000000ull /* memory window in a 40-bit space */
#define WIN_SIZE (1u << 16)
#define QMAX 256

/* One accepted AR burst. */
typedef struct Burst {
    uint64_t addr; /* first byte */
    int len;       /* beats */
    long t_first;  /* earliest cycle of its first beat */
} Burst;

/* Memory and protocol settings of one run. */
typedef struct RdRun {
    int ready_pct;  /* ARREADY probability */
    int valid_pct;  /* RVALID probability when data is due */
    int lat;        /* latency AR -> first beat */
    int lat_rand;   /* extra random latency per burst, 0..lat_rand */
    int m_pct;      /* m_tready probability */
    int err_beat;   /* beat index that answers SLVERR, or -1 */
} RdRun;

static int lg2(int v)
{
    int n = 0;
    while ((1 << n) < v)
        n++;
    return n;
}

/* Run one transfer; returns measured cycles (start to last stream beat,
 * inclusive) or -1 on a protocol/timeout failure. */
static long run_rd(void *dut, TbCheck *chk, const uint8_t *mem, uint64_t base, uint32_t bytes,
                   const RdRun *rr, uint64_t seed)
{
    AxiRdPins p;
    TbRng rng;
    Burst q[QMAX];
    int qh = 0, qn = 0, beat = 0, rv_held = 0, ar_pend = 0, m_pend = 0;
    uint8_t m_prev[NB];
    long nbeats = ((long)bytes + NB - 1) / NB, got = 0, rbeats = 0, cyc, s_cyc = 5, last = -1;
    long limit = 400 + nbeats * 40 + (long)(rr->lat + rr->lat_rand) * (nbeats / 8 + 4) * 4;
    uint64_t next_addr = base, prev_araddr = 0;
    int prev_arlen = 0, saw_err = 0;

    tb_rng_seed(&rng, seed);
    memset(&p, 0, sizeof p);
    memset(m_prev, 0, sizeof m_prev);
    p.rst = 1;
    for (cyc = 0; cyc < 3; cyc++)
        axi_rd_tick(dut, &p);
    p.rst = 0;
    for (cyc = 0; cyc < limit; cyc++) {
        p.start = cyc == s_cyc;
        p.base = p.start ? base : tb_rand64(&rng) & ~(uint64_t)(NB - 1);
        p.bytes = p.start ? bytes : (uint32_t)tb_rand64(&rng);
        p.arready = tb_chance(&rng, rr->ready_pct);
        if (!rv_held) {
            p.rvalid = qn > 0 && cyc >= q[qh].t_first && tb_chance(&rng, rr->valid_pct);
            if (p.rvalid) {
                const Burst *b = &q[qh];
                memcpy(p.rdata, mem + (b->addr - WIN_BASE) + (uint64_t)beat * NB, NB);
                p.rlast = beat == b->len - 1;
                p.rresp = rbeats == rr->err_beat ? 2 : 0;
            } else {
                for (int i = 0; i < NB; i++)
                    p.rdata[i] = (uint8_t)tb_rand64(&rng);
                p.rlast = (int)(tb_rand64(&rng) & 1);
                p.rresp = (int)(tb_rand64(&rng) & 3);
            }
        }
        p.m_tready = tb_chance(&rng, rr->m_pct);
        axi_rd_tick(dut, &p);

        /* valid held stable until taken */
        if (ar_pend && (!p.arvalid || p.araddr != prev_araddr || p.arlen != prev_arlen)) {
            tb_check_fail(chk, "AR changed before ARREADY at cycle %ld", cyc);
            return -1;
        }
        if (m_pend && (!p.m_tvalid || memcmp(m_prev, p.m_tdata, NB) != 0)) {
            tb_check_fail(chk, "m_tvalid/m_tdata changed before m_tready at cycle %ld", cyc);
            return -1;
        }
        if (p.arvalid && p.arready) {
            uint64_t a = p.araddr;
            int len = p.arlen + 1;
            if (p.arburst != 1 || p.arsize != lg2(NB) || len > KILN_TB_BURST_MAX ||
                (a & (NB - 1)) != 0 || (a & 4095) + (uint64_t)len * NB > 4096 || a != next_addr ||
                a + (uint64_t)len * NB > base + (uint64_t)nbeats * NB || qn == QMAX) {
                tb_check_fail(chk, "bad AR at cycle %ld: addr %#llx len %d size %d burst %d "
                              "(want addr %#llx)", cyc, (unsigned long long)a, len, p.arsize,
                              p.arburst, (unsigned long long)next_addr);
                return -1;
            }
            next_addr = a + (uint64_t)len * NB;
            q[(qh + qn) % QMAX].addr = a;
            q[(qh + qn) % QMAX].len = len;
            q[(qh + qn) % QMAX].t_first =
                cyc + rr->lat + (rr->lat_rand ? tb_rand_range(&rng, 0, rr->lat_rand) : 0);
            qn++;
        }
        ar_pend = p.arvalid && !p.arready;
        prev_araddr = p.araddr;
        prev_arlen = p.arlen;
        if (p.rvalid && p.rready) {
            rbeats++;
            rv_held = 0;
            if (++beat == q[qh].len) {
                beat = 0;
                qh = (qh + 1) % QMAX;
                qn--;
            }
        } else if (p.rvalid) {
            rv_held = 1;
        }
        if (p.m_tvalid && p.m_tready) {
            uint8_t want[NB];
            long off = got * NB;
            for (int i = 0; i < NB; i++)
                want[i] = off + i < (long)bytes ? mem[base - WIN_BASE + (uint64_t)off + (uint64_t)i]
                                                : 0;
            if (got >= nbeats)
                tb_check_fail(chk, "extra stream beat at cycle %ld", cyc);
            else
                for (int i = 0; i < NB; i++)
                    if (p.m_tdata[i] != want[i])
                        tb_check_int(chk, "byte", off + i, p.m_tdata[i], want[i]);
            got++;
            last = cyc;
        }
        m_pend = p.m_tvalid && !p.m_tready;
        memcpy(m_prev, p.m_tdata, NB);
        if (p.error)
            saw_err = 1;
        if (got == nbeats && cyc > last + 1 && p.done && !p.busy)
            break;
    }
    if (got != nbeats || !p.done || p.busy) {
        tb_check_fail(chk, "timeout: %ld of %ld beats, done %d busy %d", got, nbeats, p.done,
                      p.busy);
        return -1;
    }
    if (saw_err != (rr->err_beat >= 0) || p.error != (rr->err_beat >= 0))
        tb_check_fail(chk, "error flag %d, expected %d", p.error, rr->err_beat >= 0);
    return last - s_cyc + 1;
}

/* The iverilog vector file: parameters, then memory words of the window
 * part that the transfer reads, then the expected stream beats. */
static void write_vec(const char *path, const uint8_t *mem, uint64_t base, uint32_t bytes,
                      int lat)
{
    FILE *f = fopen(path, "w");
    long nbeats = ((long)bytes + NB - 1) / NB, i;
    int k;
    if (!f)
        return;
    fprintf(f, "%llx\n%x\n%x\n", (unsigned long long)base, bytes, lat);
    for (i = 0; i < nbeats; i++) { /* memory words */
        for (k = NB - 1; k >= 0; k--)
            fprintf(f, "%02x", mem[base - WIN_BASE + (uint64_t)(i * NB + k)]);
        fprintf(f, "\n");
    }
    for (i = 0; i < nbeats; i++) { /* expected stream */
        for (k = NB - 1; k >= 0; k--) {
            long o = i * NB + k;
            fprintf(f, "%02x", o < (long)bytes ? mem[base - WIN_BASE + (uint64_t)o] : 0);
        }
        fprintf(f, "\n");
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    static const int64_t hw[] = {KILN_TB_DATA_W, 40, KILN_TB_BURST_MAX, KILN_TB_MAX_OUT};
    const HlsEngineDesc *desc = hls_engine_find("kiln_axi_rd");
    TbArgs a;
    TbCheck chk;
    void *dut;
    uint8_t *mem = malloc(WIN_SIZE);
    int ci;

    if (tb_args_parse(&a, argc, argv, 24) < 0 || !desc || !mem)
        return 2;
    tb_check_init(&chk, a.quiet);
    dut = axi_rd_new();
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        uint64_t base;
        uint32_t bytes, off;
        int kind = ci % 4, mode;
        long i;
        char line[200];
        tb_rng_seed(&r, a.seed * 7919 + (uint64_t)ci);
        for (i = 0; i < WIN_SIZE; i++)
            mem[i] = (uint8_t)tb_rand64(&r);
        if (kind == 0) /* just below a 4 KiB boundary */
            off = 4096 - NB * (uint32_t)tb_rand_range(&r, 1, 4);
        else
            off = (uint32_t)tb_rand_range(&r, 0, 4096 / NB - 1) * NB;
        bytes = kind == 3 ? (uint32_t)tb_rand_range(&r, 1, 3 * NB)
                          : (uint32_t)tb_rand_range(&r, 1, kind == 2 ? 20000 : 5000);
        base = WIN_BASE + 4096 * (uint64_t)tb_rand_range(&r, 0, 3) + off;
        if (a.vec && ci == 0)
            write_vec(a.vec, mem, base, bytes, 7);
        for (mode = 0; mode < 3; mode++) {
            RdRun rr;
            long cyc;
            memset(&rr, 0, sizeof rr);
            rr.err_beat = -1;
            if (mode == 0) { /* exact cycles */
                rr.ready_pct = rr.valid_pct = rr.m_pct = 100;
                rr.lat = (int)tb_rand_range(&r, 1, 40);
            } else {
                rr.ready_pct = (int)tb_rand_range(&r, 20, 90);
                rr.valid_pct = (int)tb_rand_range(&r, 30, 95);
                rr.lat = (int)tb_rand_range(&r, 1, 30);
                rr.lat_rand = mode == 2 ? (int)tb_rand_range(&r, 1, 60) : 0;
                rr.m_pct = mode == 1 ? 100 : (int)tb_rand_range(&r, 20, 90);
                if (ci % 3 == 1)
                    rr.err_beat = (int)tb_rand_range(&r, 0, ((long)bytes + NB - 1) / NB - 1);
            }
            cyc = run_rd(dut, &chk, mem, base, bytes, &rr, a.seed * 1000 + (uint64_t)ci * 3 +
                         (uint64_t)mode);
            if (mode == 0 && cyc >= 0) {
                int64_t rt[] = {(int64_t)base, bytes, rr.lat};
                int64_t want = desc->cycles(hw, rt);
                if (want != cyc)
                    tb_check_fail(&chk, "cycles: measured %ld, descriptor %lld (%+lld)", cyc,
                                  (long long)want, (long long)(cyc - want));
            }
            snprintf(line, sizeof line, "axi_rd base +%#x %u bytes %s lat %d cycles %ld",
                     (unsigned)(base - WIN_BASE), bytes,
                     mode == 0 ? "free" : mode == 1 ? "mem-bp" : "mem+stream-bp", rr.lat, cyc);
            tb_case_end(&chk, line);
        }
    }
    axi_rd_free(dut);
    free(mem);
    return tb_check_finish(&chk, "tb_axi_rd");
}
