/*
 * kiln_regfile bench: AXI-Lite writes and reads with random valid/ready
 * delays; config registers with byte strobes read back and seen on cfg;
 * start/busy/done, the cycle counter counting exactly while busy, sticky
 * error bits with write-one-to-clear, the read-only plan hash, CTRL bit1 held
 * on load from each start, the interrupt (done & IER at 0x1C), the read-only
 * PERF words at RF_PERF_BASE and RF_ADDR_W-bit addresses (an address that
 * differs above bit 7 is another register, one that differs in bit 12 of a
 * wider map too); at RF_UNITS 2 the second unit: CTRL bit2 starts it while
 * unit 0 runs, its STATUS bits 2-3, CYCLES1 (0x20) and IER bit1; at
 * RF_UNITS 4 units 2 and 3 too (CTRL bits 3 and 4, their STATUS bits, CYCLES
 * at 0x24 and 0x28, IER bits 2 and 3, the load bit with their start).
 *   tb_regfile [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <string.h>

#include "regfile_shim.h"
#include "tb_util.h"

#define PLAN_HASH 0xA5A5F00D12345678ull

typedef struct Bus {
    void *h;      /* shim */
    RfPins p;     /* pins of the next cycle */
    TbRng r;      /* delays */
    int pct;      /* valid/ready probability */
    long cyc;     /* cycles run */
    int starts;   /* start pulses seen (unit 0) */
    int starts1;  /* start pulses seen (unit 1) */
    long start1_cyc; /* cycle of unit 1's last start pulse */
    long start_cyc; /* cycle of the last start pulse */
    int startu[8];  /* start pulses seen, per unit */
    long startu_cyc[8]; /* cycle of each unit's last start pulse */
} Bus;

static void bus_tick(Bus *b)
{
    rf_tick(b->h, &b->p);
    if (b->p.start & 1)
        b->start_cyc = b->cyc;
    if (b->p.start & 2)
        b->start1_cyc = b->cyc;
    b->starts += b->p.start & 1;
    b->starts1 += b->p.start >> 1 & 1;
    for (int u = 0; u < 8; u++)
        if (b->p.start >> u & 1) {
            b->startu[u]++;
            b->startu_cyc[u] = b->cyc;
        }
    b->cyc++;
}

/* AXI-Lite write: address and data offered independently with random
 * delays, then the response taken with random ready. */
static int bus_write(Bus *b, uint32_t addr, uint32_t data, int strb)
{
    int aw_done = 0, w_done = 0, guard = 0;
    while (!(aw_done && w_done) && guard++ < 1000) {
        b->p.awvalid = !aw_done && tb_chance(&b->r, b->pct);
        b->p.awaddr = b->p.awvalid ? addr : 0xEE;
        b->p.wvalid = !w_done && tb_chance(&b->r, b->pct);
        b->p.wdata = data;
        b->p.wstrb = strb;
        b->p.bready = 0;
        bus_tick(b);
        aw_done |= b->p.awvalid && b->p.awready;
        w_done |= b->p.wvalid && b->p.wready;
    }
    b->p.awvalid = b->p.wvalid = 0;
    for (;;) {
        int bresp;
        b->p.bready = tb_chance(&b->r, b->pct);
        bus_tick(b);
        bresp = b->p.bresp;
        if (b->p.bvalid && b->p.bready) {
            b->p.bready = 0;
            return bresp;
        }
        if (guard++ > 2000)
            return -1;
    }
}

static uint32_t bus_read(Bus *b, uint32_t addr)
{
    int guard = 0;
    for (;;) {
        b->p.arvalid = tb_chance(&b->r, b->pct);
        b->p.araddr = b->p.arvalid ? addr : 0xEE;
        bus_tick(b);
        if (b->p.arvalid && b->p.arready)
            break;
        if (guard++ > 1000)
            return 0xDEADBEEF;
    }
    b->p.arvalid = 0;
    for (;;) {
        b->p.rready = tb_chance(&b->r, b->pct);
        bus_tick(b);
        if (b->p.rvalid && b->p.rready) {
            b->p.rready = 0;
            return b->p.rdata;
        }
        if (guard++ > 2000)
            return 0xDEADBEEF;
    }
}

int main(int argc, char **argv)
{
    TbArgs a;
    TbCheck chk;
    Bus b;
    int ci;

    if (tb_args_parse(&a, argc, argv, 20) < 0)
        return 2;
    tb_check_init(&chk, a.quiet);
    memset(&b, 0, sizeof b);
    b.h = rf_new();
    for (ci = 0; ci < a.cases; ci++) {
        uint32_t shadow[RF_N_CFG] = {0};
        uint32_t v;
        long t0, busy_cycles;
        int i, k;
        char desc[96];
        tb_rng_seed(&b.r, a.seed + (uint64_t)ci);
        b.pct = ci % 2 ? 40 : 100;
        memset(&b.p, 0, sizeof b.p);
        b.p.rst = 1;
        bus_tick(&b);
        bus_tick(&b);
        b.p.rst = 0;
        b.starts = 0;
        /* read-only identity */
        tb_check_int(&chk, "hash_lo", 0, bus_read(&b, 0x10), (uint32_t)PLAN_HASH);
        tb_check_int(&chk, "hash_hi", 0, bus_read(&b, 0x14), (uint32_t)(PLAN_HASH >> 32));
        tb_check_int(&chk, "ncfg", 0, bus_read(&b, 0x18), RF_N_CFG);
        bus_write(&b, 0x10, 0x0, 0xF);
        tb_check_int(&chk, "hash_ro", 0, bus_read(&b, 0x10), (uint32_t)PLAN_HASH);
        /* config registers (not reset: start from what they hold) with strobes */
        for (i = 0; i < RF_N_CFG; i++)
            shadow[i] = bus_read(&b, 0x40 + 4 * (uint32_t)i);
        for (k = 0; k < 24; k++) {
            int idx = (int)tb_rand_range(&b.r, 0, RF_N_CFG - 1);
            int strb = (int)tb_rand_range(&b.r, 1, 15);
            uint32_t d = (uint32_t)tb_rand64(&b.r);
            for (i = 0; i < 4; i++)
                if (strb >> i & 1)
                    shadow[idx] = (shadow[idx] & ~(0xFFu << (8 * i))) | (d & (0xFFu << (8 * i)));
            tb_check_int(&chk, "bresp", k, bus_write(&b, 0x40 + 4 * (uint32_t)idx, d, strb), 0);
        }
        for (i = 0; i < RF_N_CFG; i++) {
            tb_check_int(&chk, "cfg_read", i, bus_read(&b, 0x40 + 4 * (uint32_t)i), shadow[i]);
            tb_check_int(&chk, "cfg_port", i, b.p.cfg[i], shadow[i]);
        }
        tb_check_int(&chk, "unmapped", 0, bus_read(&b, 0x20), 0);
        if (0x40 + 4 * RF_N_CFG < RF_PERF_BASE)
            tb_check_int(&chk, "cfg_end", 0, bus_read(&b, 0x40 + 4 * RF_N_CFG), 0);
        if (0x40 + 4 * (RF_N_CFG + 64) < RF_PERF_BASE) {
            tb_check_int(&chk, "unmapped_hi", 0, bus_read(&b, 0x140), 0);
            tb_check_int(&chk, "alias", 0, bus_read(&b, 0x110), 0);
        }
        if (RF_ADDR_W > 12) { /* bit 12 set: not SEGMENT, and a write there leaves it */
            tb_check_int(&chk, "alias12", 0, bus_read(&b, 0x1040), 0);
            bus_write(&b, 0x1040, ~shadow[0], 0xF);
            tb_check_int(&chk, "alias12_w", 0, bus_read(&b, 0x40), shadow[0]);
        }
        /* PERF words: read-only, straight from the perf input */
        for (i = 0; i < 2 * RF_N_PERF; i++)
            b.p.perf[i] = (uint32_t)tb_rand64(&b.r);
        for (i = 0; i < 2 * RF_N_PERF; i++) {
            bus_write(&b, RF_PERF_BASE + 4 * (uint32_t)i, 0, 0xF);
            tb_check_int(&chk, "perf", i, bus_read(&b, RF_PERF_BASE + 4 * (uint32_t)i),
                         b.p.perf[i]);
        }
        if (RF_PERF_BASE + 8 * RF_N_PERF < 1u << RF_ADDR_W)
            tb_check_int(&chk, "perf_end", 0, bus_read(&b, RF_PERF_BASE + 8 * RF_N_PERF), 0);
        if (RF_PERF_BASE > 0x200) /* 0x200 is a CFG register here, not PERF */
            tb_check_int(&chk, "perf_moved", 0, bus_read(&b, 0x200), shadow[(0x200 - 0x40) / 4]);
        /* start, busy, cycle counter, done */
        tb_check_int(&chk, "status0", 0, bus_read(&b, 0x04), 0);
        k = ci % 2 ? 3 : 1; /* odd cases also ask for the resident weight load */
        bus_write(&b, 0x00, (uint32_t)k, 0x1);
        t0 = b.start_cyc;
        tb_check_int(&chk, "starts", 0, b.starts, 1);
        tb_check_int(&chk, "load", 0, b.p.load, k >> 1);
        tb_check_int(&chk, "busy", 0, bus_read(&b, 0x04) & 3, 1);
        bus_write(&b, 0x00, 1, 0x1); /* ignored while busy */
        tb_check_int(&chk, "starts_busy", 0, b.starts, 1);
        busy_cycles = tb_rand_range(&b.r, 5, 200);
        while (b.cyc - t0 < busy_cycles)
            bus_tick(&b);
        busy_cycles = b.cyc - t0 + 1; /* busy from the start pulse to done_in */
        b.p.done_in = 1;
        bus_tick(&b);
        b.p.done_in = 0;
        v = bus_read(&b, 0x0C);
        tb_check_int(&chk, "cycles", 0, v, busy_cycles);
        tb_check_int(&chk, "done", 0, bus_read(&b, 0x04) & 3, 2);
        /* interrupt: done & IER, cleared by the next start; IER 0 after reset */
        tb_check_int(&chk, "ier_reset", 0, bus_read(&b, 0x1C), 0);
        tb_check_int(&chk, "irq_disabled", 0, b.p.irq, 0);
        bus_write(&b, 0x1C, 1, 0x1);
        tb_check_int(&chk, "ier", 0, bus_read(&b, 0x1C), 1);
        tb_check_int(&chk, "irq_done", 0, b.p.irq, 1);
        bus_write(&b, 0x00, 1, 0x1);
        tb_check_int(&chk, "irq_start", 0, b.p.irq, 0);
        b.p.done_in = 1;
        bus_tick(&b);
        b.p.done_in = 0;
        bus_tick(&b);
        tb_check_int(&chk, "irq_done2", 0, b.p.irq, 1);
        bus_write(&b, 0x1C, 0, 0x1);
        tb_check_int(&chk, "irq_masked", 0, b.p.irq, 0);
#if RF_UNITS > 1
        {
            /* unit 1 starts while unit 0 runs; each ends on its own done_in
             * bit and counts its own cycles */
            long t1, c0, c1;
            b.starts = b.starts1 = 0;
            bus_write(&b, 0x00, 1, 0x1);
            t0 = b.start_cyc;
            bus_write(&b, 0x00, 4, 0x1);
            t1 = b.start1_cyc;
            tb_check_int(&chk, "u1_starts", 0, b.starts1, 1);
            tb_check_int(&chk, "u1_starts0", 0, b.starts, 1);
            tb_check_int(&chk, "u1_busy", 0, bus_read(&b, 0x04) & 15, 5);
            bus_write(&b, 0x00, 5, 0x1); /* both busy: ignored by both */
            tb_check_int(&chk, "u1_starts_busy", 0, b.starts + 2 * b.starts1, 3);
            b.p.done_in = 2;
            bus_tick(&b);
            b.p.done_in = 0;
            c1 = b.cyc - 1 - t1 + 1;
            tb_check_int(&chk, "u1_done", 0, bus_read(&b, 0x04) & 15, 9);
            tb_check_int(&chk, "u1_cycles", 0, bus_read(&b, 0x20), c1);
            bus_write(&b, 0x1C, 2, 0x1); /* IER bit1: unit 1's done */
            tb_check_int(&chk, "u1_ier", 0, bus_read(&b, 0x1C), 2);
            tb_check_int(&chk, "u1_irq", 0, b.p.irq, 1);
            bus_write(&b, 0x00, 4, 0x1); /* unit 1 again, unit 0 still busy */
            tb_check_int(&chk, "u1_irq_start", 0, b.p.irq, 0);
            tb_check_int(&chk, "u1_busy2", 0, bus_read(&b, 0x04) & 15, 5);
            b.p.done_in = 3;
            bus_tick(&b);
            b.p.done_in = 0;
            c0 = b.cyc - 1 - t0 + 1;
            tb_check_int(&chk, "u1_both_done", 0, bus_read(&b, 0x04) & 15, 10);
            tb_check_int(&chk, "u1_cycles0", 0, bus_read(&b, 0x0C), c0);
            tb_check_int(&chk, "u1_irq2", 0, b.p.irq, 1);
            bus_write(&b, 0x00, 5, 0x1); /* both at once */
            tb_check_int(&chk, "u1_both", 0, b.starts + 2 * b.starts1, 8);
            tb_check_int(&chk, "u1_both_busy", 0, bus_read(&b, 0x04) & 15, 5);
            b.p.done_in = 3;
            bus_tick(&b);
            b.p.done_in = 0;
            bus_write(&b, 0x1C, 0, 0x1);
            tb_check_int(&chk, "u1_irq_masked", 0, b.p.irq, 0);
        }
#else
        tb_check_int(&chk, "no_unit1", 0, bus_read(&b, 0x20), 0);
#endif
#if RF_UNITS > 2
        {
            /* units 2 .. RF_UNITS-1: CTRL bit u+1 starts unit u (the load
             * bit going out with it), STATUS bits 2u and 2u+1, CYCLES at
             * 0x20 + 4(u-1), IER bit u; units started together in one
             * write start in the same cycle */
            const int hi = RF_UNITS - 1;
            long tu, cu;
            memset(b.startu, 0, sizeof b.startu);
            bus_write(&b, 0x00, 1u << (hi + 1) | 2u, 0x1);
            tu = b.startu_cyc[hi];
            tb_check_int(&chk, "un_starts", 0, b.startu[hi], 1);
            tb_check_int(&chk, "un_load", 0, b.p.load, 1);
            tb_check_int(&chk, "un_others", 0, b.startu[0] + b.startu[1] + b.startu[2] * (hi != 2),
                         0);
            tb_check_int(&chk, "un_busy", 0, (int)(bus_read(&b, 0x04) >> (2 * hi) & 3), 1);
            bus_write(&b, 0x00, 1u << (hi + 1), 0x1); /* busy: ignored */
            tb_check_int(&chk, "un_starts_busy", 0, b.startu[hi], 1);
            bus_write(&b, 0x00, 1u << 3 | 1u, 0x1); /* unit 2 and unit 0 together */
            tb_check_int(&chk, "un_same_cycle", 0, b.startu_cyc[0] == b.startu_cyc[2] || hi == 2,
                         1);
            tb_check_int(&chk, "un_load0", 0, b.p.load, 0);
            b.p.done_in = 1 << hi;
            bus_tick(&b);
            b.p.done_in = 0;
            cu = b.cyc - 1 - tu + 1;
            tb_check_int(&chk, "un_done", 0, (int)(bus_read(&b, 0x04) >> (2 * hi) & 3), 2);
            tb_check_int(&chk, "un_cycles", 0, bus_read(&b, 0x20 + 4 * (hi - 1)), cu);
            tb_check_int(&chk, "un_past", 0, bus_read(&b, 0x20 + 4 * hi), 0);
            bus_write(&b, 0x1C, 1u << hi, 0x1);
            tb_check_int(&chk, "un_ier", 0, bus_read(&b, 0x1C), 1 << hi);
            tb_check_int(&chk, "un_irq", 0, b.p.irq, 1);
            bus_write(&b, 0x1C, 0, 0x1);
            tb_check_int(&chk, "un_irq_masked", 0, b.p.irq, 0);
            b.p.done_in = (1 << RF_UNITS) - 1;
            bus_tick(&b);
            b.p.done_in = 0;
            tb_check_int(&chk, "un_idle", 0, (int)(bus_read(&b, 0x04) & 0x5555), 0);
        }
#endif
        /* sticky error, write-one-to-clear */
        b.p.err_in = 0x11;
        bus_tick(&b);
        b.p.err_in = 0x100;
        bus_tick(&b);
        b.p.err_in = 0;
        tb_check_int(&chk, "error", 0, bus_read(&b, 0x08), 0x111);
        bus_write(&b, 0x08, 0x10, 0xF);
        tb_check_int(&chk, "error_w1c", 0, bus_read(&b, 0x08), 0x101);
        snprintf(desc, sizeof desc, "regfile case %d %s", ci, b.pct < 100 ? "bp" : "free");
        tb_case_end(&chk, desc);
    }
    rf_free(b.h);
    return tb_check_finish(&chk, "tb_regfile");
}
