/*
 * The job runner of the `kiln simulate` harness: a DDR model behind every
 * AXI4 master of kiln_top, an AXI-Lite master for its registers, and the job
 * file interpreter (format in docs/simulate.md).
 *
 * DDR: the buffers the job declares ("region"), zero-filled; an access
 * outside every buffer answers SLVERR, reads return zeros, writes are
 * dropped, and the job fails naming the channel and the address.  Each
 * channel is its own AXI4 slave: AR/AW always ready while fewer than QMAX
 * bursts wait, INCR bursts only, read data LAT cycles after the AR, one beat
 * per cycle per channel, in order; W beats are taken while an AW waits for
 * its data; B the cycle after the last W beat.  Every burst is checked
 * (INCR, AxSIZE = the bus width, inside one 4 KiB page, aligned, WLAST on the
 * burst's last beat).
 *
 * Back-pressure (kiln simulate --backpressure): the plusargs +kiln_bp=PCT
 * and +kiln_bp_seed=N make every slave signal that may stall do so at
 * random, a seeded xorshift coin per signal and cycle that is heads PCT% of
 * the time: AR and AW ready, W ready, R valid (a new beat; one shown stays
 * until taken) and B valid (likewise).  The same plusargs seed the top's
 * kiln_bp_gate stalls when it was built with KILN_SIM_BP.
 *
 * Fault injection: KILN_SIM_AXI_ERROR in the environment (docs/simulate.md)
 * makes the slave answer chosen bursts with SLVERR or DECERR, as a DDR
 * controller reporting an error would; the data of such a burst is zeros
 * (reads) or dropped (writes), and the job goes on: the accelerator's ERROR
 * register, not the harness, has to report it.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "harness.h"

#define QMAX 16          /* bursts an AXI4 slave queues per channel */
#define WBUF 512         /* W beats a write slave takes ahead of their AW */
#define MAX_REGIONS 256  /* DDR buffers per job */
#define REG_CTRL 0x00    /* kiln_regfile registers (docs/simulate.md) */
#define REG_STATUS 0x04
#define REG_IER 0x1C
#define ERR_MAX 512      /* length of the first error message */

/* One DDR buffer. */
typedef struct Region {
    uint64_t addr;  /* first byte */
    uint64_t size;  /* bytes */
    uint8_t *data;  /* contents */
} Region;

/* One accepted burst. */
typedef struct Burst {
    uint64_t addr; /* first byte */
    int len;       /* beats */
    int beat;      /* beats transferred so far */
    long t_ready;  /* reads: first cycle its data may be returned */
    int resp;      /* response: 0 OKAY, 2 SLVERR (outside every buffer or injected), 3 DECERR */
} Burst;

/* A W beat that arrived before its AW. */
typedef struct WBeat {
    uint8_t data[HS_MAX_NB]; /* W data */
    uint32_t strb;           /* W strobes */
    int last;                /* W last */
} WBeat;

/* State of one channel's AXI4 slave. */
typedef struct Chan {
    const char *name; /* channel name from kiln_ports.h */
    int nb;           /* bytes per beat */
    Burst q[QMAX];    /* bursts waiting for data (reads) or for W beats (writes) */
    int qh, qn;       /* queue head and count */
    long b_t[QMAX];   /* writes: cycles from which each pending B may go */
    int b_resp[QMAX]; /* writes: the response of each pending B */
    int bh, bn;       /* B queue head and count */
    WBeat wq[WBUF];   /* writes: W beats waiting for their AW */
    int wh, wn;       /* wq head and count */
    long bursts;      /* bursts accepted */
    long beats;       /* beats transferred */
    int hold;         /* reads: R beat presented and not yet taken */
    int bhold;        /* writes: B presented and not yet taken */
} Chan;

/* The injected fault of KILN_SIM_AXI_ERROR. */
typedef struct Inject {
    int on;           /* 1: a fault is injected */
    int wr;           /* address form: 1 write bursts, 0 read bursts */
    uint64_t addr;    /* address form: a burst whose bytes hold this address */
    char chan[64];    /* channel form: every burst of this channel ("" otherwise) */
    int resp;         /* the response given: 2 SLVERR or 3 DECERR */
} Inject;

/* The whole harness. */
typedef struct Hs {
    void *top;              /* Verilated kiln_top */
    HsPins p;               /* pins of the current cycle */
    Chan *rd, *wr;          /* one per read / write channel */
    int nrd, nwr;           /* channel counts */
    Region reg[MAX_REGIONS];/* DDR buffers */
    int nreg;               /* count of reg */
    long cyc;               /* cycles since the harness started */
    long lat;               /* read latency in cycles */
    long cap;               /* cycle cap per start */
    char err[ERR_MAX];      /* first DDR or protocol error, "" if none */
    Inject inj;             /* the injected AXI error response, if any */
    int bp;                 /* back-pressure: percent of cycles a slave handshake may
                             * happen (+kiln_bp), 0 off */
    uint64_t rng;           /* back-pressure coins' xorshift64 state */
    FILE *out;              /* result file */
} Hs;

static void fail(Hs *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Record the first error of the run (later ones are consequences). */
static void fail(Hs *h, const char *fmt, ...)
{
    va_list ap;
    if (h->err[0])
        return;
    va_start(ap, fmt);
    vsnprintf(h->err, sizeof h->err, fmt, ap);
    va_end(ap);
}

static Region *find_region(Hs *h, uint64_t a, uint64_t n)
{
    int i;
    for (i = 0; i < h->nreg; i++)
        if (a >= h->reg[i].addr && n <= h->reg[i].size && a - h->reg[i].addr <= h->reg[i].size - n)
            return &h->reg[i];
    return NULL;
}

static int lg2(int v)
{
    int n = 0;
    while ((1 << n) < v)
        n++;
    return n;
}

/* 1 when the injected fault takes this burst of channel c. */
static int injected(const Hs *h, const Chan *c, int wr, uint64_t a, uint64_t n)
{
    if (!h->inj.on)
        return 0;
    if (h->inj.chan[0])
        return strcmp(h->inj.chan, c->name) == 0;
    return h->inj.wr == wr && h->inj.addr >= a && h->inj.addr - a < n;
}

/* Check an accepted AR/AW; the response its beats get: 0 OKAY, 2 SLVERR
 * when its bytes lie outside every buffer, or the injected one. */
static int check_burst(Hs *h, const Chan *c, const char *dir, uint64_t a, int len, int size,
                       int burst)
{
    uint64_t n = (uint64_t)len * (uint64_t)c->nb;
    if (burst != 1 || size != lg2(c->nb) || (a % (uint64_t)c->nb) != 0 || (a & 4095) + n > 4096)
        fail(h, "channel %s: bad %s burst at cycle %ld: addr 0x%" PRIx64
             " len %d size %d burst %d (want INCR, size %d, aligned, inside a 4 KiB page)",
             c->name, dir, h->cyc, a, len, size, burst, lg2(c->nb));
    if (!find_region(h, a, n)) {
        fail(h, "channel %s: %s of %" PRIu64 " bytes at 0x%" PRIx64 " outside every buffer",
             c->name, dir, n, a);
        return 2;
    }
    return injected(h, c, dir[0] == 'w', a, n) ? h->inj.resp : 0;
}

/* A back-pressure coin: 1 (the handshake may happen) always when
 * back-pressure is off, else with probability bp/100. */
static int coin(Hs *h)
{
    uint64_t x = h->rng;
    if (!h->bp)
        return 1;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    h->rng = x;
    return (int)((x >> 11) % 100) < h->bp;
}

/* Drive the inputs of one cycle from the slaves' state. */
static void drive(Hs *h)
{
    int i;
    for (i = 0; i < h->nrd; i++) {
        Chan *c = &h->rd[i];
        HsRdPins *r = &h->p.rd[i];
        r->arready = c->qn < QMAX && coin(h);
        if (c->hold)
            continue;
        r->rvalid = c->qn > 0 && h->cyc >= c->q[c->qh].t_ready && coin(h);
        memset(r->rdata, 0, sizeof r->rdata);
        r->rresp = 0;
        r->rlast = 0;
        if (r->rvalid) {
            const Burst *b = &c->q[c->qh];
            uint64_t a = b->addr + (uint64_t)b->beat * (uint64_t)c->nb;
            Region *g = b->resp ? NULL : find_region(h, a, (uint64_t)c->nb);
            if (g)
                memcpy(r->rdata, g->data + (a - g->addr), (size_t)c->nb);
            r->rresp = b->resp;
            r->rlast = b->beat == b->len - 1;
        }
    }
    for (i = 0; i < h->nwr; i++) {
        Chan *c = &h->wr[i];
        HsWrPins *w = &h->p.wr[i];
        w->awready = c->qn + c->bn < QMAX && coin(h);
        w->wready = c->wn < WBUF && coin(h);
        w->bvalid = c->bhold || (c->bn > 0 && h->cyc >= c->b_t[c->bh] && coin(h));
        w->bresp = w->bvalid ? c->b_resp[c->bh] : 0;
    }
}

/* One W beat into the burst at the head of c's queue. */
static void w_beat(Hs *h, Chan *c, const uint8_t *data, uint32_t strb, int last)
{
    Burst *b = &c->q[c->qh];
    uint64_t a = b->addr + (uint64_t)b->beat * (uint64_t)c->nb;
    Region *g = b->resp ? NULL : find_region(h, a, (uint64_t)c->nb);
    int k;
    if (g)
        for (k = 0; k < c->nb; k++)
            if (strb >> k & 1)
                g->data[a - g->addr + (uint64_t)k] = data[k];
    if (last != (b->beat == b->len - 1))
        fail(h, "channel %s: WLAST %d on beat %d of a %d-beat burst at cycle %ld", c->name, last,
             b->beat + 1, b->len, h->cyc);
    c->beats++;
    if (++b->beat == b->len) {
        c->qh = (c->qh + 1) % QMAX;
        c->qn--;
        c->b_t[(c->bh + c->bn) % QMAX] = h->cyc + 1;
        c->b_resp[(c->bh + c->bn) % QMAX] = b->resp;
        c->bn++;
    }
}

/* Act on the handshakes of the cycle just clocked. */
static void observe(Hs *h)
{
    int i;
    for (i = 0; i < h->nrd; i++) {
        Chan *c = &h->rd[i];
        HsRdPins *r = &h->p.rd[i];
        if (r->rvalid && r->rready) {
            Burst *b = &c->q[c->qh];
            c->hold = 0;
            c->beats++;
            if (++b->beat == b->len) {
                c->qh = (c->qh + 1) % QMAX;
                c->qn--;
            }
        } else {
            c->hold = r->rvalid;
        }
        if (r->arvalid && r->arready) {
            Burst *b = &c->q[(c->qh + c->qn) % QMAX];
            long prev = c->qn ? c->q[(c->qh + c->qn - 1) % QMAX].t_ready : 0;
            b->addr = r->araddr;
            b->len = r->arlen + 1;
            b->beat = 0;
            b->resp = check_burst(h, c, "read", b->addr, b->len, r->arsize, r->arburst);
            b->t_ready = h->cyc + h->lat > prev ? h->cyc + h->lat : prev;
            c->qn++;
            c->bursts++;
        }
    }
    for (i = 0; i < h->nwr; i++) {
        Chan *c = &h->wr[i];
        HsWrPins *w = &h->p.wr[i];
        c->bhold = w->bvalid && !w->bready;
        if (w->bvalid && w->bready) {
            c->bh = (c->bh + 1) % QMAX;
            c->bn--;
        }
        if (w->awvalid && w->awready) {
            Burst *b = &c->q[(c->qh + c->qn) % QMAX];
            b->addr = w->awaddr;
            b->len = w->awlen + 1;
            b->beat = 0;
            b->resp = check_burst(h, c, "write", b->addr, b->len, w->awsize, w->awburst);
            c->qn++;
            c->bursts++;
        }
        while (c->wn > 0 && c->qn > 0) { /* W beats that came before their AW */
            WBeat *x = &c->wq[c->wh];
            w_beat(h, c, x->data, x->strb, x->last);
            c->wh = (c->wh + 1) % WBUF;
            c->wn--;
        }
        if (w->wvalid && w->wready) {
            if (c->qn > 0) {
                w_beat(h, c, w->wdata, w->wstrb, w->wlast);
            } else {
                WBeat *x = &c->wq[(c->wh + c->wn) % WBUF];
                memcpy(x->data, w->wdata, sizeof x->data);
                x->strb = w->wstrb;
                x->last = w->wlast;
                c->wn++;
            }
        }
    }
}

static void step(Hs *h)
{
    drive(h);
    hs_top_cycle(h->top, &h->p);
    observe(h);
    h->cyc++;
}

/* AXI-Lite write; -1 when the slave never answers. */
static int lite_write(Hs *h, uint32_t off, uint32_t v)
{
    HsLitePins *l = &h->p.lite;
    long t0 = h->cyc;
    int aw = 0, w = 0;
    l->awaddr = off;
    l->wdata = v;
    l->wstrb = 0xf;
    l->bready = 1;
    while (h->cyc - t0 < 1000) {
        l->awvalid = !aw;
        l->wvalid = !w;
        step(h);
        aw |= l->awvalid && l->awready;
        w |= l->wvalid && l->wready;
        if (aw && w && l->bvalid) {
            l->awvalid = l->wvalid = 0;
            l->bready = 0;
            return 0;
        }
    }
    l->awvalid = l->wvalid = l->bready = 0;
    return -1;
}

/* AXI-Lite read into *v; -1 when the slave never answers. */
static int lite_read(Hs *h, uint32_t off, uint32_t *v)
{
    HsLitePins *l = &h->p.lite;
    long t0 = h->cyc;
    int ar = 0;
    l->araddr = off;
    l->rready = 1;
    while (h->cyc - t0 < 1000) {
        l->arvalid = !ar;
        step(h);
        ar |= l->arvalid && l->arready;
        if (ar && l->rvalid) {
            *v = l->rdata;
            l->arvalid = l->rready = 0;
            return 0;
        }
    }
    l->arvalid = l->rready = 0;
    return -1;
}

/* What each channel still owes, for the deadlock message. */
static void busy_channels(const Hs *h, char *buf, size_t size)
{
    size_t n = 0;
    int i, any = 0;
    buf[0] = 0;
    for (i = 0; i < h->nrd + h->nwr && n < size; i++) {
        const Chan *c = i < h->nrd ? &h->rd[i] : &h->wr[i - h->nrd];
        int wr = i >= h->nrd;
        int pend = wr ? h->p.wr[i - h->nrd].awvalid || h->p.wr[i - h->nrd].wvalid
                      : h->p.rd[i].arvalid;
        if (!c->qn && !(wr && c->bn) && !pend)
            continue;
        n += (size_t)snprintf(buf + n, size - n, "%s%s (%ld bursts, %ld beats done, %d burst%s %s)",
                              any ? ", " : "", c->name, c->bursts, c->beats, c->qn,
                              c->qn == 1 ? "" : "s", wr ? "waiting for W data" : "waiting for R");
        any = 1;
    }
    if (!any)
        snprintf(buf, size, "none (every AXI transfer finished: an engine stalled)");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* start TAG VALUE: write CTRL, wait for STATUS.done; result lines
 * "TAG SIM_CYCLES WALL_SECONDS" and "TAG.beats.CHANNEL N" per channel (beats
 * it moved during this start).  -1 on the cycle cap or a dead slave. */
static int run_start(Hs *h, const char *tag, uint32_t ctrl)
{
    long t0 = h->cyc, *b0 = calloc((size_t)(h->nrd + h->nwr) + 1, sizeof *b0);
    double w0 = now_s();
    uint32_t st = 0;
    int i;
    if (!b0) {
        fail(h, "out of memory");
        return -1;
    }
    for (i = 0; i < h->nrd + h->nwr; i++)
        b0[i] = i < h->nrd ? h->rd[i].beats : h->wr[i - h->nrd].beats;
    if (lite_write(h, REG_CTRL, ctrl) < 0) {
        free(b0);
        fail(h, "register CTRL: no AXI-Lite write response");
        return -1;
    }
    while (!(st & 2)) {
        if (h->cyc - t0 > h->cap) {
            char busy[2048];
            busy_channels(h, busy, sizeof busy);
            fail(h, "%s: no done after %ld cycles; busy channels: %s", tag, h->cap, busy);
            free(b0);
            return -1;
        }
        if (lite_read(h, REG_STATUS, &st) < 0) {
            fail(h, "register STATUS: no AXI-Lite read response");
            free(b0);
            return -1;
        }
    }
    fprintf(h->out, "%s %ld %.6f\n", tag, h->cyc - t0, now_s() - w0);
    for (i = 0; i < h->nrd + h->nwr; i++) { /* beats each channel moved in this start */
        const Chan *c = i < h->nrd ? &h->rd[i] : &h->wr[i - h->nrd];
        fprintf(h->out, "%s.beats.%s %ld\n", tag, c->name, c->beats - b0[i]);
    }
    free(b0);
    return 0;
}

/* go TAG CTRL: write CTRL and go on (kiln_regfile UNITS > 1: units run
 * while the job starts another); result line "TAG CYCLE", the harness's
 * cycle after the write. */
static int run_go(Hs *h, const char *tag, uint32_t ctrl)
{
    if (lite_write(h, REG_CTRL, ctrl) < 0) {
        fail(h, "register CTRL: no AXI-Lite write response");
        return -1;
    }
    fprintf(h->out, "%s %ld\n", tag, h->cyc);
    return 0;
}

/* wait TAG MASK: poll STATUS until every bit of MASK is set (bit 2u+1:
 * unit u's done); result line "TAG CYCLE", the harness's cycle
 * when STATUS showed them.  The cap counts from the wait. */
static int run_wait(Hs *h, const char *tag, uint32_t mask)
{
    long t0 = h->cyc;
    uint32_t st = 0;
    while ((st & mask) != mask) {
        if (h->cyc - t0 > h->cap) {
            char busy[2048];
            busy_channels(h, busy, sizeof busy);
            fail(h, "%s: no done after %ld cycles (STATUS 0x%" PRIx32 "); busy channels: %s", tag,
                 h->cap, st, busy);
            return -1;
        }
        if (lite_read(h, REG_STATUS, &st) < 0) {
            fail(h, "register STATUS: no AXI-Lite read response");
            return -1;
        }
    }
    fprintf(h->out, "%s %ld\n", tag, h->cyc);
    return 0;
}

static int load_file(Hs *h, uint64_t a, const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    Region *g;
    if (!f) {
        fail(h, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        fail(h, "%s: cannot read", path);
        return -1;
    }
    g = find_region(h, a, (uint64_t)n);
    if (!g) {
        fclose(f);
        fail(h, "load %s: %ld bytes at 0x%" PRIx64 " outside every buffer", path, n, a);
        return -1;
    }
    if (n && fread(g->data + (a - g->addr), 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        fail(h, "%s: short read", path);
        return -1;
    }
    fclose(f);
    return 0;
}

static int dump_file(Hs *h, uint64_t a, uint64_t n, const char *path)
{
    Region *g = find_region(h, a, n);
    FILE *f;
    if (!g) {
        fail(h, "dump: %" PRIu64 " bytes at 0x%" PRIx64 " outside every buffer", n, a);
        return -1;
    }
    f = fopen(path, "wb");
    if (!f || fwrite(g->data + (a - g->addr), 1, (size_t)n, f) != (size_t)n || fclose(f) != 0) {
        fail(h, "%s: cannot write", path);
        return -1;
    }
    return 0;
}

/* One job line; 0, -1 on a failed step (h->err set), -2 on a malformed
 * line. */
static int job_line(Hs *h, char *line)
{
    char cmd[32], a1[1024], a2[1024], a3[1024];
    int n = sscanf(line, "%31s %1023s %1023s %1023s", cmd, a1, a2, a3);
    if (n <= 0 || cmd[0] == '#')
        return 0;
    if (!strcmp(cmd, "latency") && n == 2) {
        h->lat = strtol(a1, NULL, 0);
    } else if (!strcmp(cmd, "cap") && n == 2) {
        h->cap = strtol(a1, NULL, 0);
    } else if (!strcmp(cmd, "region") && n == 3) {
        Region *g;
        if (h->nreg == MAX_REGIONS)
            return -2;
        g = &h->reg[h->nreg++];
        g->addr = strtoull(a1, NULL, 0);
        g->size = strtoull(a2, NULL, 0);
        g->data = calloc(1, g->size ? (size_t)g->size : 1);
        if (!g->data) {
            fail(h, "region of %" PRIu64 " bytes: out of memory", g->size);
            return -1;
        }
    } else if (!strcmp(cmd, "load") && n == 3) {
        return load_file(h, strtoull(a1, NULL, 0), a2);
    } else if (!strcmp(cmd, "fill") && n == 4) {
        uint64_t a = strtoull(a1, NULL, 0), len = strtoull(a2, NULL, 0);
        Region *g = find_region(h, a, len);
        if (!g) {
            fail(h, "fill: %" PRIu64 " bytes at 0x%" PRIx64 " outside every buffer", len, a);
            return -1;
        }
        memset(g->data + (a - g->addr), (int)strtol(a3, NULL, 0), (size_t)len);
    } else if (!strcmp(cmd, "dump") && n == 4) {
        return dump_file(h, strtoull(a1, NULL, 0), strtoull(a2, NULL, 0), a3);
    } else if (!strcmp(cmd, "write") && n == 3) {
        if (lite_write(h, (uint32_t)strtoul(a1, NULL, 0), (uint32_t)strtoul(a2, NULL, 0)) < 0) {
            fail(h, "register %s: no AXI-Lite write response", a1);
            return -1;
        }
    } else if (!strcmp(cmd, "read") && n == 3) {
        uint32_t v;
        if (lite_read(h, (uint32_t)strtoul(a2, NULL, 0), &v) < 0) {
            fail(h, "register %s: no AXI-Lite read response", a2);
            return -1;
        }
        fprintf(h->out, "%s %" PRIu32 "\n", a1, v);
    } else if (!strcmp(cmd, "start") && n == 3) {
        return run_start(h, a1, (uint32_t)strtoul(a2, NULL, 0));
    } else if (!strcmp(cmd, "go") && n == 3) {
        return run_go(h, a1, (uint32_t)strtoul(a2, NULL, 0));
    } else if (!strcmp(cmd, "wait") && n == 3) {
        return run_wait(h, a1, (uint32_t)strtoul(a2, NULL, 0));
    } else {
        return -2;
    }
    return 0;
}

/* ---- serve mode: the protocol of docs/runtime.md over a Unix socket ---- */

/* Run up to max cycles until a done of mask (STATUS bits: bit 2u+1 unit u's
 * done, u < 8; kiln_regfile's units run at once): by the irq pin when the
 * top has one and IER enables exactly the units of mask (*by_irq = 1; a
 * done of another unit left standing would raise it too), else by polling
 * STATUS until one of mask's bits is set.  Each second of the wall a line
 * `busy CYCLES` (the cycles taken so far) goes to out, so that the client
 * awaits the answer at the model's pace.  The cycles taken, -1 on the cap,
 * -2 on a dead slave, -3 when out fails. */
static long serve_wait(Hs *h, long max, uint32_t mask, int *by_irq, FILE *out)
{
    long t0 = h->cyc, n = 0;
    double told = now_s();
    uint32_t st = 0, ier = 0, want = 0;
    int u;
    for (u = 0; u < 8; u++)
        if (mask >> (2 * u + 1) & 1)
            want |= 1u << u;
    *by_irq = h->p.irq >= 0 && want && lite_read(h, REG_IER, &ier) == 0 && (ier & 0xff) == want;
    while (*by_irq ? !h->p.irq : !(st & mask)) {
        if (h->cyc - t0 > max)
            return -1;
        if (++n % 1024 == 0 && now_s() - told >= 1.0) {
            told = now_s();
            if (fprintf(out, "busy %ld\n", h->cyc - t0) < 0 || fflush(out))
                return -3;
        }
        if (*by_irq)
            step(h);
        else if (lite_read(h, REG_STATUS, &st) < 0)
            return -2;
    }
    return h->cyc - t0;
}

/* A declared DDR buffer: an existing one of the same place and size is
 * kept (a client that reconnects); 0, or -1 when out of memory or full. */
static int serve_region(Hs *h, uint64_t a, uint64_t size)
{
    Region *g;
    int i;
    for (i = 0; i < h->nreg; i++)
        if (h->reg[i].addr == a && h->reg[i].size == size)
            return 0;
    if (h->nreg == MAX_REGIONS || size == 0 || size > ((uint64_t)1 << 32))
        return -1;
    g = &h->reg[h->nreg];
    g->addr = a;
    g->size = size;
    g->data = calloc(1, (size_t)size);
    if (!g->data)
        return -1;
    h->nreg++;
    return 0;
}

/* One request from in; the answer to out.  0 to go on, 1 when the client
 * is gone or said quit (*quit set for quit). */
static int serve_request(Hs *h, FILE *in, FILE *out, int *quit)
{
    char line[512], cmd[16];
    unsigned long long a = 0, b = 0;
    int n;
    if (!fgets(line, sizeof line, in))
        return 1;
    n = sscanf(line, "%15s %lli %lli", cmd, &a, &b);
    if (n < 1) {
        fprintf(out, "err empty request\n");
    } else if (!strcmp(cmd, "quit")) {
        fprintf(out, "ok\n");
        *quit = 1;
        return 1;
    } else if (!strcmp(cmd, "rd") && n == 2) {
        uint32_t v;
        if (lite_read(h, (uint32_t)a, &v) < 0)
            fprintf(out, "err register 0x%llx: no AXI-Lite read response\n", a);
        else
            fprintf(out, "ok %" PRIu32 "\n", v);
    } else if (!strcmp(cmd, "wr") && n == 3) {
        if (lite_write(h, (uint32_t)a, (uint32_t)b) < 0)
            fprintf(out, "err register 0x%llx: no AXI-Lite write response\n", a);
        else
            fprintf(out, "ok\n");
    } else if (!strcmp(cmd, "region") && n == 3) {
        if (serve_region(h, a, b) < 0)
            fprintf(out, "err region of %llu bytes at 0x%llx: refused\n", b, a);
        else
            fprintf(out, "ok\n");
    } else if ((!strcmp(cmd, "put") || !strcmp(cmd, "get")) && n == 3) {
        Region *g = find_region(h, a, b);
        int put = cmd[0] == 'p';
        if (put && g && fread(g->data + (a - g->addr), 1, (size_t)b, in) != (size_t)b)
            return 1;
        if (put && !g) { /* the payload still has to be consumed */
            unsigned long long k;
            for (k = 0; k < b; k++)
                if (fgetc(in) == EOF)
                    return 1;
        }
        if (!g) {
            fprintf(out, "err %llu bytes at 0x%llx outside every buffer\n", b, a);
        } else if (put) {
            fprintf(out, "ok\n");
        } else {
            fprintf(out, "ok %llu\n", b);
            fwrite(g->data + (a - g->addr), 1, (size_t)b, out);
        }
    } else if (!strcmp(cmd, "wait") && n == 3 && (b & ~0xaaaaull || !b)) {
        fprintf(out, "err wait: mask 0x%llx is not STATUS done bits (bit 2u+1 unit u's, u < 8: "
                     "0x2 unit 0, 0x8 unit 1, ... 0x8000 unit 7)\n", b);
    } else if (!strcmp(cmd, "wait") && (n == 2 || n == 3)) {
        int by_irq;
        long c = serve_wait(h, (long)a, n == 3 ? (uint32_t)b : 2u, &by_irq, out);
        if (c == -3)
            return 1;
        if (h->err[0])
            fprintf(out, "err %s\n", h->err);
        else if (c == -2)
            fprintf(out, "err register STATUS: no AXI-Lite read response\n");
        else if (c < 0)
            fprintf(out, "timeout %llu\n", a);
        else
            fprintf(out, "ok %ld %s\n", c, by_irq ? "irq" : "status");
        h->err[0] = 0;
    } else if (!strcmp(cmd, "run") && n == 2) {
        unsigned long long k;
        for (k = 0; k < a; k++)
            step(h);
        fprintf(out, "ok %ld\n", h->cyc);
    } else {
        line[strcspn(line, "\n")] = 0;
        fprintf(out, "err bad request '%s'\n", line);
    }
    return fflush(out) != 0;
}

/* Listen on the Unix socket path and answer requests, one client after the
 * other, until a client says quit; the process exit status. */
static int hs_serve(Hs *h, const char *path)
{
    struct sockaddr_un sa;
    int ls, quit = 0;
    signal(SIGPIPE, SIG_IGN);
    if (strlen(path) >= sizeof sa.sun_path) {
        fprintf(stderr, "harness: %s: socket path too long\n", path);
        return 2;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    strcpy(sa.sun_path, path);
    unlink(path);
    ls = socket(AF_UNIX, SOCK_STREAM, 0);
    if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(ls, 1) != 0) {
        fprintf(stderr, "harness: %s: cannot listen: %s\n", path, strerror(errno));
        if (ls >= 0)
            close(ls);
        return 2;
    }
    fprintf(stderr, "harness: serving on %s\n", path);
    while (!quit) {
        int fd = accept(ls, NULL, NULL), fd2;
        FILE *in, *out;
        if (fd < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        fd2 = dup(fd);
        in = fdopen(fd, "rb");
        out = fd2 >= 0 ? fdopen(fd2, "wb") : NULL;
        if (!in || !out) {
            fprintf(stderr, "harness: out of memory\n");
            return 2;
        }
        while (!serve_request(h, in, out, &quit))
            ;
        fclose(in);
        fclose(out);
    }
    close(ls);
    unlink(path);
    return 0;
}

/* KILN_SIM_AXI_ERROR: "read@ADDR", "write@ADDR" or a channel name, then
 * optionally ":slverr" (the default) or ":decerr".  0, or -1 after a
 * message on stderr. */
static int parse_inject(Hs *h, const char *spec)
{
    char s[128], *colon, *end;
    int i, known = 0;
    Inject *in = &h->inj;
    if (!spec || !*spec)
        return 0;
    snprintf(s, sizeof s, "%s", spec);
    in->resp = 2;
    colon = strchr(s, ':');
    if (colon) {
        *colon++ = 0;
        if (!strcmp(colon, "decerr"))
            in->resp = 3;
        else if (strcmp(colon, "slverr") != 0)
            goto bad;
    }
    if (!strncmp(s, "read@", 5) || !strncmp(s, "write@", 6)) {
        const char *a = strchr(s, '@') + 1;
        in->wr = s[0] == 'w';
        errno = 0;
        in->addr = strtoull(a, &end, 0);
        if (end == a || *end || errno)
            goto bad;
    } else {
        for (i = 0; i < h->nrd + h->nwr; i++)
            known |= !strcmp(s, i < h->nrd ? h->rd[i].name : h->wr[i - h->nrd].name);
        if (!known || strlen(s) >= sizeof in->chan) {
            fprintf(stderr, "harness: KILN_SIM_AXI_ERROR '%s': no DMA channel '%s' in "
                    "kiln_ports.h\n", spec, s);
            return -1;
        }
        strcpy(in->chan, s);
    }
    in->on = 1;
    if (in->chan[0])
        fprintf(stderr, "harness: KILN_SIM_AXI_ERROR: every burst of channel %s answered %s\n",
                in->chan, in->resp == 3 ? "DECERR" : "SLVERR");
    else
        fprintf(stderr, "harness: KILN_SIM_AXI_ERROR: every %s burst holding 0x%" PRIx64
                " answered %s\n", in->wr ? "write" : "read", in->addr,
                in->resp == 3 ? "DECERR" : "SLVERR");
    return 0;
bad:
    fprintf(stderr, "harness: KILN_SIM_AXI_ERROR '%s': expected read@ADDR, write@ADDR or a "
            "channel name, then optionally :slverr or :decerr\n", spec);
    return -1;
}

/* Allocate the channels and the pins, reset the model: 0, or -1 out of
 * memory. */
static int hs_init(Hs *h)
{
    const HsPort *rp, *wp;
    int i;
    h->lat = 40;
    h->cap = 10000000;
    hs_top_ports(&rp, &h->nrd, &wp, &h->nwr);
    h->rd = calloc((size_t)h->nrd + 1, sizeof *h->rd);
    h->wr = calloc((size_t)h->nwr + 1, sizeof *h->wr);
    h->p.rd = calloc((size_t)h->nrd + 1, sizeof *h->p.rd);
    h->p.wr = calloc((size_t)h->nwr + 1, sizeof *h->p.wr);
    if (!h->rd || !h->wr || !h->p.rd || !h->p.wr)
        return -1;
    for (i = 0; i < h->nrd; i++) {
        h->rd[i].name = rp[i].name;
        h->rd[i].nb = rp[i].data_w / 8;
    }
    for (i = 0; i < h->nwr; i++) {
        h->wr[i].name = wp[i].name;
        h->wr[i].nb = wp[i].data_w / 8;
    }
    h->top = hs_top_new();
    h->p.rst = 1;
    for (i = 0; i < 8; i++)
        step(h);
    h->p.rst = 0;
    step(h);
    return 0;
}

static void hs_fini(Hs *h)
{
    int i;
    if (h->top)
        hs_top_free(h->top);
    for (i = 0; i < h->nreg; i++)
        free(h->reg[i].data);
    free(h->rd);
    free(h->wr);
    free(h->p.rd);
    free(h->p.wr);
}

/* Take the plusargs (+kiln_bp=PCT, +kiln_bp_seed=N; the model reads them
 * too) out of argv; 0, or -1 after a message on stderr. */
static int parse_plusargs(Hs *h, int *argc, char **argv)
{
    unsigned long long seed = 0;
    char *end;
    int i, n = 0;
    for (i = 0; i < *argc; i++) {
        const char *a = argv[i];
        if (i == 0 || a[0] != '+') {
            argv[n++] = argv[i];
            continue;
        }
        errno = 0;
        if (!strncmp(a, "+kiln_bp=", 9)) {
            long v = strtol(a + 9, &end, 10);
            if (end == a + 9 || *end || errno || v < 1 || v > 99) {
                fprintf(stderr, "harness: %s: expected 1..99\n", a);
                return -1;
            }
            h->bp = (int)v;
        } else if (!strncmp(a, "+kiln_bp_seed=", 14)) {
            seed = strtoull(a + 14, &end, 10);
            if (end == a + 14 || *end || errno) {
                fprintf(stderr, "harness: %s: expected a number\n", a);
                return -1;
            }
        }
    }
    argv[n] = NULL;
    *argc = n;
    /* not 0 (an xorshift fixed point); apart from the gates' seeds */
    h->rng = (seed + 1) * 0x9E3779B97F4A7C15ull ^ 0xD1B54A32D192ED03ull;
    if (!h->rng)
        h->rng = 1;
    return 0;
}

int hs_main(int argc, char **argv)
{
    static Hs h;
    FILE *job;
    char line[4096];
    int lineno = 0, rc = 0;
    if (parse_plusargs(&h, &argc, argv) < 0)
        return 2;
    if (argc >= 3 && !strcmp(argv[1], "--serve")) {
        if (hs_init(&h) < 0) {
            fprintf(stderr, "harness: out of memory\n");
            return 2;
        }
        if (parse_inject(&h, getenv("KILN_SIM_AXI_ERROR")) < 0) {
            hs_fini(&h);
            return 2;
        }
        if (argc >= 4)
            h.lat = strtol(argv[3], NULL, 0);
        rc = hs_serve(&h, argv[2]);
        hs_fini(&h);
        return rc;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s JOB RESULT | --serve SOCKET [LATENCY] [+kiln_bp=PCT] "
                "[+kiln_bp_seed=N]\n", argv[0]);
        return 2;
    }
    job = fopen(argv[1], "r");
    if (!job) {
        fprintf(stderr, "harness: %s: cannot read: %s\n", argv[1], strerror(errno));
        return 2;
    }
    h.out = fopen(argv[2], "w");
    if (!h.out) {
        fprintf(stderr, "harness: %s: cannot write: %s\n", argv[2], strerror(errno));
        fclose(job);
        return 2;
    }
    if (hs_init(&h) < 0) {
        fprintf(stderr, "harness: out of memory\n");
        return 2;
    }
    if (parse_inject(&h, getenv("KILN_SIM_AXI_ERROR")) < 0) {
        fclose(job);
        fclose(h.out);
        hs_fini(&h);
        return 2;
    }
    while (fgets(line, sizeof line, job)) {
        int r;
        lineno++;
        r = job_line(&h, line);
        if (r == -2) {
            line[strcspn(line, "\n")] = 0;
            fail(&h, "%s:%d: bad job line '%s'", argv[1], lineno, line);
            rc = 2;
            break;
        }
        if (r < 0 || h.err[0]) {
            rc = 1;
            break;
        }
    }
    if (h.err[0])
        fprintf(h.out, "error %s\n", h.err);
    else
        fprintf(h.out, "cycles %ld\n", h.cyc);
    fclose(job);
    if (fclose(h.out) != 0)
        rc = 2;
    hs_fini(&h);
    return rc;
}
