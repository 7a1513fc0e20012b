/*
 * tb_tsconv: kiln_tsconv (one kiln_conv time-shared by a sequence of layers,
 * descriptors, weights and maps in DDR) against a plain C convolution +
 * graphir/requant.h, chained layer to layer.
 *
 * A fixed sequence of layers of different shapes (3x3 s1, 1x1, 3x3 s2, a
 * layer in two weight tiles, LeakyReLU, ReLU with a clip, identity) with
 * random tensors from a seeded RNG and random bus-aligned addresses runs
 * for NF frames (the output buffers cleared between frames, so the second
 * frame's bytes are its own)
 *   - once against a memory that takes every AR/AW at once and answers
 *     after a fixed latency, W/R/B never stalled, avail never holding a
 *     frame back: every output byte of every layer bit for bit, and the
 *     cycles of every layer of every frame (start to done in all) equal to
 *     the kiln_tsconv descriptor's cycles();
 *   - once per seed with random AR/AW/W ready, random R/B valid gaps, a
 *     random latency per burst and the second frame's avail raised at a
 *     random cycle (its first descriptor fetch must wait for it): every
 *     output byte.
 * --vec FILE (first case): FILE gets the memory size, the expected cycles of
 * the exact run, then the memory before the run and after it as 32-bit
 * little-endian hex words, for the iverilog bench (tb_tsconv_iv.v).
 * Build-time: KILN_TB_PE (PE_IC = PE_OC), KILN_TB_KMAX, KILN_TB_WMAX,
 * KILN_TB_CIMAX, KILN_TB_COMAX, KILN_TB_PIPE, KILN_TB_RQ_PIPE, KILN_TB_PP
 * (pixel parallelism, 1 when not defined; every layer's K*K*ICG >= it, as
 * kiln_conv's exact model needs), KILN_TB_RQS (results per requant lane,
 * 1 when not defined; every layer's K*K*ICG >= it), KILN_TB_SPAN (kiln_conv's
 * SPAN, 0 when not defined), KILN_TB_WBANKS (weight banks, 1 when not
 * defined; 2: a tile loads while the pass before it computes), KILN_TB_TOG
 * (the output groups a tile of the table's tiled layer), KILN_TB_PACK and
 * KILN_TB_DSP2X (kiln_conv's, kiln_tsconv's defaults when not defined;
 * DSP2X 1: the shim drives clk2x at twice clk, edges aligned),
 * KILN_TB_NEAR (0 when not defined: every count exact; a PE_IC wider than
 * the bus, beyond the model's exact domain: within that percent),
 * KILN_TB_WCH (kiln_tsconv's WCH, 1 when not defined; 2: each layer's
 * weights in two halves, hls_tsconv_wsplit, read on masters 0 and 3, both
 * under the random back-pressure),
 * KILN_TB_SHAPES (the layer table: 1, the one
 * above, when not defined; 2, one for PP 3 to 8: 13x13 maps, which no PP
 * from 2 to 8 divides, a 7x7 map narrower than PP 8, every K*K*ICG >= 8 at
 * PE 8 with CIMAX 64; 3 and 4, stride 1 only for the banked line buffer:
 * 13x13 and 11x11 maps, 26- and 24-wide ones), KILN_TB_LBBANK (kiln_conv's
 * LBBANK, 0 when not defined), KILN_TB_LBROWS (kiln_conv's LBROWS, 0 when
 * not defined), KILN_TB_MAP_STRIDE (the engine's
 * MAP_STRIDE, 0 when not defined: with it, frame 1's maps, its input
 * written before the run, are MAP_STRIDE bytes after frame 0's, both
 * frames' outputs are checked and none is cleared), and the engine's
 * DATA_W = 128, BURST_MAX = 16, MAX_OUT = 4.
 */
#include "tsconv_shim.h"
#include "graphir/requant.h"
#include "hls/hls.h"
#include "tb_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PE KILN_TB_PE
#ifndef KILN_TB_PP
#define KILN_TB_PP 1
#endif
#ifndef KILN_TB_RQS
#define KILN_TB_RQS 1
#endif
#ifndef KILN_TB_SPAN
#define KILN_TB_SPAN 0
#endif
#ifndef KILN_TB_WBANKS
#define KILN_TB_WBANKS 1
#endif
/* the tiled layer's output groups a tile (KILN_TB_TOG: more, smaller tiles) */
#ifdef KILN_TB_TOG
#define TOG(n) KILN_TB_TOG
#else
#define TOG(n) (n)
#endif
#ifndef KILN_TB_SHAPES
#define KILN_TB_SHAPES 1
#endif
#ifndef KILN_TB_PACK
#define KILN_TB_PACK 0 /* kiln_tsconv's default (1) */
#endif
#ifndef KILN_TB_DSP2X
#define KILN_TB_DSP2X 0
#endif
#ifndef KILN_TB_LBBANK
#define KILN_TB_LBBANK 0 /* kiln_conv LBBANK: 0, PP copies of the line buffer */
#endif
#ifndef KILN_TB_LBROWS
#define KILN_TB_LBROWS 0 /* kiln_conv LBROWS: R = 2^ceil(log2(KMAX + 1)) rows */
#endif
#ifndef KILN_TB_WCH
#define KILN_TB_WCH 1 /* kiln_tsconv WCH: 2, the weights' halves on masters 0 and 3 */
#endif
#ifndef KILN_TB_MAP_STRIDE
#define KILN_TB_MAP_STRIDE 0
#endif
#define MS ((uint64_t)KILN_TB_MAP_STRIDE)
#define MEMSZ (1 << 20)     /* bytes of the DDR model */
#define NL 5                /* layers */
#define FIXLAT 24           /* memory latency of the exact-cycles run */
#define NF 2                /* frames a run */

/* One layer: shape, tensors, reference output and DDR placement. */
typedef struct Layer {
    int h, w, cin, cout, k, s, p;  /* shape */
    int tog;                       /* output groups per weight tile (0: all) */
    int act;                       /* 0 identity, 1 ReLU, 2 LeakyReLU */
    int qlo, qhi;                  /* activation clamp */
    int hout, wout, icg, ocg, nt;  /* derived */
    int8_t *wt;                    /* [cout][cin][k][k] */
    int32_t *bias, *mpos, *mneg;   /* [cout] */
    int *shift;                    /* [cout] */
    int8_t *ref;                   /* [hout][wout][ocg*PE]: expected output, padded lanes 0 */
    uint64_t xa, wa, ya, da;       /* DDR addresses: input, weights, output, descriptor */
    long xbytes, wbytes, ybytes;   /* DDR bytes (padded to the bus) */
    long wbeats, w0beats;          /* weight stream beats, of the first tile */
} Layer;

/* The shape columns of a Layer. */
typedef struct Shape {
    int h, w, cin, cout, k, s, p, tog, act, qlo, qhi; /* as in Layer */
} Shape;

#if KILN_TB_SHAPES == 1
static const Shape shapes[NL] = {
    /* h   w  cin cout k s p tog act qlo qhi */
    {12, 12, 8, 16, 3, 1, 1, 0, 2, -128, 127},
    {12, 12, 16, 24, 1, 1, 0, 0, 1, 0, 90},
    {12, 12, 24, 16, 3, 2, 1, 0, 2, -128, 127},
    {6, 6, 16, 32, 3, 1, 1, TOG(2), 2, -100, 100},
    {6, 6, 32, 8, 1, 1, 0, 0, 0, -128, 127},
};
#elif KILN_TB_SHAPES == 3
/* stride 1 only, for the banked line buffer (LBBANK): 3x3 on 13x13 (groups
 * across row ends), a 3x3 without padding (Wout < W: row by row), two
 * weight tiles on 11x11 of three input groups (a pixel's 4 words), a 1x1
 * of eight input groups, a 3x3 of three */
static const Shape shapes[NL] = {
    /* h   w  cin cout k s p tog act qlo qhi */
    {13, 13, 8, 16, 3, 1, 1, 0, 2, -128, 127},
    {13, 13, 16, 24, 3, 1, 0, 0, 1, 0, 90},
    {11, 11, 24, 64, 3, 1, 1, TOG(4), 2, -100, 100},
    {11, 11, 64, 24, 1, 1, 0, 0, 2, -128, 127},
    {11, 11, 24, 8, 3, 1, 1, 0, 0, -128, 127},
};
#elif KILN_TB_SHAPES == 4
/* stride 1 on 26-wide maps (LBBANK): 3x3, 1x1, a 3x3 without padding
 * (26 -> 24), two weight tiles, a 1x1 of eight input groups */
static const Shape shapes[NL] = {
    /* h   w  cin cout k s p tog act qlo qhi */
    {5, 26, 8, 16, 3, 1, 1, 0, 2, -128, 127},
    {5, 26, 16, 16, 1, 1, 0, 0, 1, 0, 90},
    {5, 26, 16, 24, 3, 1, 0, 0, 2, -128, 127},
    {3, 24, 24, 64, 3, 1, 1, TOG(4), 2, -100, 100},
    {3, 24, 64, 8, 1, 1, 0, 0, 0, -128, 127},
};
#else
/* 3x3 s1 on 13x13 (groups across row ends with SPAN), 3x3 s2 (row by row:
 * K + S > R), two weight tiles on 7x7, a 1x1 of eight input groups, a 3x3
 * of three input groups and one output group */
static const Shape shapes[NL] = {
    /* h   w  cin cout k s p tog act qlo qhi */
    {13, 13, 8, 16, 3, 1, 1, 0, 2, -128, 127},
    {13, 13, 16, 16, 3, 2, 1, 0, 1, 0, 90},
    {7, 7, 16, 64, 3, 1, 1, TOG(4), 2, -100, 100},
    {7, 7, 64, 24, 1, 1, 0, 0, 2, -128, 127},
    {7, 7, 24, 8, 3, 1, 1, 0, 0, -128, 127},
};
#endif

static long pad16(long n) { return (n + 15) / 16 * 16; }

/* kiln_tsconv's model is exact where PE_IC <= DATA_W/8 (its header); a
 * wider array (KILN_TB_NEAR percent, 0 when not defined: exact) takes two
 * bus beats an input beat (and WCH 1 a weight beat) and the model's even
 * pace comes within that share of each count. */
#ifndef KILN_TB_NEAR
#define KILN_TB_NEAR 0
#endif
static void cyc_check(TbCheck *c, const char *what, long idx, long got, long want)
{
    if (KILN_TB_NEAR == 0)
        tb_check_int(c, what, idx, got, want);
    else if (labs(got - want) * 100 > (long)KILN_TB_NEAR * want)
        tb_check_fail(c, "%s[%ld]: %ld cycles, model %ld: beyond %d%%", what, idx, got, want,
                      KILN_TB_NEAR);
}

/* DDR bytes of a weight stream of `beats` beats: WCH halves of whole bus
 * beats (hls_tsconv_desc). */
static long wpad(long beats) { return KILN_TB_WCH * pad16(beats * (PE / KILN_TB_WCH)); }

/* Random tensors, the weight stream in DDR, the reference output of layer
 * l given its input x ([h][w][icg*PE], padded lanes 0). */
static void layer_make(Layer *l, TbRng *r, uint8_t *mem, const int8_t *x)
{
    int c, o, g, ky, kx, i, y, xx;
    long b;
    l->hout = (l->h + 2 * l->p - l->k) / l->s + 1;
    l->wout = (l->w + 2 * l->p - l->k) / l->s + 1;
    l->icg = (l->cin + PE - 1) / PE;
    l->ocg = (l->cout + PE - 1) / PE;
    if (l->tog <= 0 || l->tog > l->ocg)
        l->tog = l->ocg;
    l->nt = (l->ocg + l->tog - 1) / l->tog;
    l->wt = malloc((size_t)l->cout * l->cin * l->k * l->k);
    l->bias = malloc(sizeof(int32_t) * (size_t)l->cout);
    l->mpos = malloc(sizeof(int32_t) * (size_t)l->cout);
    l->mneg = malloc(sizeof(int32_t) * (size_t)l->cout);
    l->shift = malloc(sizeof(int) * (size_t)l->cout);
    for (i = 0; i < l->cout * l->cin * l->k * l->k; i++)
        l->wt[i] = tb_rand_i8(r);
    for (c = 0; c < l->cout; c++) {
        l->bias[c] = (int32_t)tb_rand_range(r, -50000, 50000);
        l->mpos[c] = (int32_t)tb_rand_range(r, 1, KILN_RQ_M_MAX);
        l->mneg[c] = l->act == 1 ? 0 : l->act == 2 ? l->mpos[c] / 10 : l->mpos[c];
        l->shift[c] = (int)tb_rand_range(r, 14, 22);
    }
    /* weight stream: per output group, PE parameter triples then K*K*ICG*PE beats */
    l->wbeats = hls_conv_group_wbeats(PE, (int64_t)l->k * l->k * l->icg) * l->ocg;
    l->w0beats = hls_conv_group_wbeats(PE, (int64_t)l->k * l->k * l->icg) * l->tog;
    l->wbytes = wpad(l->wbeats);
    b = 0;
    for (g = 0; g < l->ocg; g++) {
        for (o = 0; o < PE; o++, b += 3) {
            c = g * PE + o;
            if (c >= l->cout)
                continue;
            tb_put_u32(&mem[l->wa + (uint64_t)b * PE], (uint32_t)l->bias[c]);
            tb_put_u32(&mem[l->wa + (uint64_t)(b + 1) * PE],
                       ((uint32_t)l->mpos[c] & 0xffffu) | (uint32_t)l->mneg[c] << 16);
            mem[l->wa + (uint64_t)(b + 2) * PE] = (uint8_t)l->shift[c];
        }
        for (ky = 0; ky < l->k; ky++)
            for (kx = 0; kx < l->k; kx++)
                for (int ig = 0; ig < l->icg; ig++)
                    for (o = 0; o < PE; o++, b++)
                        for (i = 0; i < PE; i++) {
                            int co = g * PE + o, ci = ig * PE + i;
                            if (co < l->cout && ci < l->cin)
                                mem[l->wa + (uint64_t)b * PE + (uint64_t)i] = (uint8_t)
                                    l->wt[((co * l->cin + ci) * l->k + ky) * l->k + kx];
                        }
    }
    if (KILN_TB_WCH == 2) { /* the halves' layout (hls_tsconv_wsplit) */
        uint8_t *st = malloc((size_t)l->wbytes);
        memcpy(st, &mem[l->wa], (size_t)l->wbytes);
        if (hls_tsconv_wsplit(st, l->wbeats, PE, 2, &mem[l->wa], l->wbytes) != 0) {
            fprintf(stderr, "tb_tsconv: hls_tsconv_wsplit refused a layer\n");
            exit(1);
        }
        free(st);
    }
    /* reference */
    l->ref = calloc((size_t)l->hout * l->wout * l->ocg * PE, 1);
    for (y = 0; y < l->hout; y++)
        for (xx = 0; xx < l->wout; xx++)
            for (o = 0; o < l->cout; o++) {
                uint32_t acc = (uint32_t)l->bias[o];
                int8_t q;
                for (ky = 0; ky < l->k; ky++)
                    for (kx = 0; kx < l->k; kx++) {
                        int iy = y * l->s - l->p + ky, ix = xx * l->s - l->p + kx;
                        if (iy < 0 || iy >= l->h || ix < 0 || ix >= l->w)
                            continue;
                        for (c = 0; c < l->cin; c++)
                            acc += (uint32_t)((int32_t)x[(iy * l->w + ix) * l->icg * PE + c] *
                                              l->wt[((o * l->cin + c) * l->k + ky) * l->k + kx]);
                    }
                q = kiln_requant((int32_t)acc, l->mpos[o], l->mneg[o], l->shift[o]);
                if (q < l->qlo)
                    q = (int8_t)l->qlo;
                if (q > l->qhi)
                    q = (int8_t)l->qhi;
                l->ref[(y * l->wout + xx) * l->ocg * PE + o] = q;
            }
}

/* The 128-byte descriptor of layer l: the compiler's packing
 * (hls_tsconv_desc), its sizes checked against the bench's own layout. */
static void desc_write(const Layer *l, uint8_t *mem)
{
    uint32_t d[32];
    HlsTsLayer t = {l->h, l->w, l->cin, l->cout, l->k, l->s, l->p, l->tog, l->qlo, l->qhi,
                    l->xa, l->wa, l->ya, KILN_TB_WCH};
    HlsTsBytes b;
    if (hls_tsconv_desc(&t, PE, TS_BUS, d, &b) != 0 || b.xbytes != l->xbytes ||
        b.wbytes != l->wbytes || b.ybytes != l->ybytes) {
        fprintf(stderr, "tb_tsconv: hls_tsconv_desc refused a layer or sized it differently\n");
        exit(1);
    }
    for (int i = 0; i < 32; i++)
        tb_put_u32(&mem[l->da + 4 * (uint64_t)i], d[i]);
}

/* The iverilog bench's vector file: words of the memory up to `top`
 * before and after the exact run, and its cycles. */
static void write_vec(const char *path, const uint8_t *before, const uint8_t *after, long top,
                      long cycles)
{
    FILE *f = fopen(path, "w");
    long i;
    if (!f) {
        perror(path);
        return;
    }
    fprintf(f, "%08lx\n%08lx\n", top / 4, cycles);
    for (i = 0; i < top; i += 4)
        fprintf(f, "%08x\n", tb_get_u32(&before[i]));
    for (i = 0; i < top; i += 4)
        fprintf(f, "%08x\n", tb_get_u32(&after[i]));
    fclose(f);
}

/* hls descriptor vectors of the engine and of layer l. */
static void hw_vec(int64_t *hw)
{
    const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
    static const struct { const char *n; int64_t v; } kv[] = {
        {"PE_IC", PE}, {"PE_OC", PE}, {"KMAX", KILN_TB_KMAX}, {"WMAX", KILN_TB_WMAX},
        {"CIMAX", KILN_TB_CIMAX}, {"COMAX", KILN_TB_COMAX}, {"PIPE", KILN_TB_PIPE},
        {"RQ_PIPE", KILN_TB_RQ_PIPE}, {"DATA_W", 128}, {"BURST_MAX", 16}, {"MAX_OUT", 4},
        {"PP", KILN_TB_PP}, {"MAP_STRIDE", KILN_TB_MAP_STRIDE}, {"RQS", KILN_TB_RQS},
        {"SPAN", KILN_TB_SPAN}, {"WBANKS", KILN_TB_WBANKS}, {"PACK", KILN_TB_PACK},
        {"DSP2X", KILN_TB_DSP2X}, {"LBBANK", KILN_TB_LBBANK}, {"LBROWS", KILN_TB_LBROWS},
        {"WCH", KILN_TB_WCH},
    };
    for (int i = 0; d->hw_params[i]; i++) {
        hw[i] = 0;
        for (size_t j = 0; j < sizeof kv / sizeof kv[0]; j++)
            if (!strcmp(d->hw_params[i], kv[j].n))
                hw[i] = kv[j].v;
    }
}

/* One read or write burst in flight in the memory model. */
typedef struct Burst {
    uint64_t addr; /* next beat's address */
    int left;      /* beats left */
    long ready;    /* cycle from which its data (R) or response (B) may go */
} Burst;

#define QN 64
typedef struct Queue {
    Burst b[QN];
    int head, n;
} Queue;

static void q_push(Queue *q, Burst b)
{
    if (q->n < QN)
        q->b[(q->head + q->n++) % QN] = b;
}
static Burst *q_front(Queue *q) { return q->n ? &q->b[q->head] : NULL; }
static void q_pop(Queue *q)
{
    q->head = (q->head + 1) % QN;
    q->n--;
}

/* The DDR model: bursts in flight, W beats ahead of their AW, the AR a
 * master showed and the memory did not take (AXI: it stays until taken). */
typedef struct Mem {
    uint8_t *mem;                /* the bytes */
    int bp;                      /* random back-pressure and latency */
    TbRng r;                     /* its draws */
    Queue rq[TS_NRD], aw, bq;        /* read bursts per master, write bursts, B responses */
    uint8_t wbuf[4096][TS_BUS];  /* W beats ahead of their AW */
    uint32_t wstrb[4096];
    int wlast[4096], wn, wh;
    int arwait[TS_NRD];              /* an AR shown and not taken last cycle */
    uint64_t arwaddr[TS_NRD];
    long ars[TS_NRD];            /* ARs taken per master */        /* its address */
} Mem;

static void mem_init(Mem *m, uint8_t *mem, int bp, uint64_t seed)
{
    memset(m, 0, sizeof *m);
    m->mem = mem;
    m->bp = bp;
    tb_rng_seed(&m->r, seed);
}

/* The memory's side of the pins for cycle t (before ts_eval). */
static void mem_drive(Mem *m, TsPins *p, long t)
{
    for (int k = 0; k < TS_NRD; k++) {
        Burst *f = q_front(&m->rq[k]);
        p->arready[k] = !m->bp || tb_chance(&m->r, 60);
        p->rvalid[k] = f && f->ready <= t && (!m->bp || tb_chance(&m->r, 70));
        p->rlast[k] = f && f->left == 1;
        if (p->rvalid[k])
            memcpy(p->rdata[k], &m->mem[f->addr], TS_BUS);
    }
    p->awready = !m->bp || tb_chance(&m->r, 60);
    p->wready = !m->bp || tb_chance(&m->r, 70);
    p->bvalid = q_front(&m->bq) && q_front(&m->bq)->ready <= t && (!m->bp || tb_chance(&m->r, 70));
}

/* The handshakes of cycle t (after ts_eval): 0, or -1 on a burst outside
 * the memory. */
static int mem_take(Mem *m, TbCheck *c, const TsPins *p, long t)
{
    for (int k = 0; k < TS_NRD; k++) {
        if (m->arwait[k] && (!p->arvalid[k] || p->araddr[k] != m->arwaddr[k]))
            tb_check_fail(c, "read master %d: AR at %#llx withdrawn before taken (cycle %ld)", k == 2 ? 3 : k,
                          (unsigned long long)m->arwaddr[k], t);
        m->arwait[k] = p->arvalid[k] && !p->arready[k];
        m->arwaddr[k] = p->araddr[k];
        if (p->arvalid[k] && p->arready[k]) {
            Burst b = {p->araddr[k], p->arlen[k] + 1,
                       t + (m->bp ? (long)tb_rand_range(&m->r, 5, 60) : FIXLAT)};
            if (b.addr + (uint64_t)b.left * TS_BUS > MEMSZ) {
                tb_check_fail(c, "read master %d: burst at %#llx outside memory", k == 2 ? 3 : k,
                              (unsigned long long)b.addr);
                return -1;
            }
            q_push(&m->rq[k], b);
            m->ars[k]++;
        }
        if (p->rvalid[k] && p->rready[k]) {
            Burst *f = q_front(&m->rq[k]);
            f->addr += TS_BUS;
            if (--f->left == 0)
                q_pop(&m->rq[k]);
        }
    }
    if (p->awvalid && p->awready) {
        Burst b = {p->awaddr, p->awlen + 1, 0};
        if (b.addr + (uint64_t)b.left * TS_BUS > MEMSZ) {
            tb_check_fail(c, "write burst at %#llx outside memory", (unsigned long long)b.addr);
            return -1;
        }
        q_push(&m->aw, b);
    }
    if (p->wvalid && p->wready && m->wn < 4096) {
        int i = (m->wh + m->wn) % 4096;
        memcpy(m->wbuf[i], p->wdata, TS_BUS);
        m->wstrb[i] = p->wstrb;
        m->wlast[i] = p->wlast;
        m->wn++;
    }
    if (p->bvalid && p->bready)
        q_pop(&m->bq);
    /* apply buffered W beats to the bursts whose AW arrived */
    while (m->wn > 0 && q_front(&m->aw)) {
        Burst *f = q_front(&m->aw);
        for (int j = 0; j < TS_BUS; j++)
            if (m->wstrb[m->wh] >> j & 1)
                m->mem[f->addr + (uint64_t)j] = m->wbuf[m->wh][j];
        f->addr += TS_BUS;
        f->left--;
        if ((f->left == 0) != (m->wlast[m->wh] != 0))
            tb_check_fail(c, "WLAST at the wrong beat (cycle %ld)", t);
        m->wh = (m->wh + 1) % 4096;
        m->wn--;
        if (f->left == 0) {
            Burst b = {0, 0, t + (m->bp ? (long)tb_rand_range(&m->r, 3, 40) : FIXLAT)};
            q_pop(&m->aw);
            q_push(&m->bq, b);
        }
    }
    return 0;
}

/* The cycle each descriptor read of a run was taken (frame f's layer i at
 * f*NL+i), by run(). */
static long desc_ar[NF * NL];

/* Clear the pins and the memory's state, and hold the engine in reset for
 * two cycles: how every run of the bench begins. */
static void tb_start(TsSim *sim, TsPins *p, Mem *m, uint8_t *mem, int bp, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    mem_init(m, mem, bp, seed);
    p->rst = 1;
    ts_eval(sim, p);
    ts_tick(sim);
    ts_eval(sim, p);
    ts_tick(sim);
    p->rst = 0;
}


/* Run the engine over the layers for NF frames; bp: random back-pressure
 * and latency.  Returns cycles start..done (start cycle 0, done seen at the
 * returned cycle), -1 on a timeout; layer_end[f*NL+i]: the cycle frame f's
 * layer i ended (the next began; done for the last). */
static long run(TsSim *sim, TbCheck *c, uint8_t *mem, const Layer *L, int bp, uint64_t seed,
                long *layer_end, uint64_t desc_base)
{
    long t_avail = 0;    /* cycle the second frame's input is declared in */
    int nev = 0;         /* layer ends seen */
    uint32_t fin = 0;    /* frames finished as last seen */
    TsPins p;
    static Mem m;
    long t, limit = 3000000;
    int cur = 0;
    tb_start(sim, &p, &m, mem, bp, seed);
    p.desc_base = desc_base;
    p.layers = NL;
    p.frames = NF;
    if (bp)
        t_avail = (long)tb_rand_range(&m.r, 0, 20000);
    for (t = 0; t < limit; t++) {
        p.start = t == 0;
        p.avail = bp ? (t >= t_avail ? NF : 1) : 0xffffffffu;
        mem_drive(&m, &p, t);
        ts_eval(sim, &p);
        if (t > 0 && p.done) {
            if (nev < NF * NL)
                layer_end[nev++] = t;
            if (nev != NF * NL)
                tb_check_fail(c, "done after %d layer ends, want %d", nev, NF * NL);
            if (p.error)
                tb_check_fail(c, "error set at done");
            if (p.finished != NF)
                tb_check_fail(c, "finished %u at done, want %d", p.finished, NF);
            if ((KILN_TB_WCH == 2) != (m.ars[2] > 0))
                tb_check_fail(c, "master 3 took %ld ARs with WCH %d", m.ars[2], KILN_TB_WCH);
            return t;
        }
        if ((p.layer != cur || p.finished != fin) && nev < NF * NL) {
            layer_end[nev++] = t;
            if (p.finished != fin && MS == 0) {
                /* a frame ended: clear the outputs, the next frame writes them again */
                for (int i = 0; i < NL; i++)
                    memset(&mem[L[i].ya], 0, (size_t)L[i].ybytes);
            }
            cur = p.layer;
            fin = p.finished;
        }
        if (p.arvalid[0] && p.arready[0] && p.araddr[0] >= desc_base &&
            p.araddr[0] < desc_base + 0x80 * NL && nev < NF * NL)
            desc_ar[(int)p.finished * NL + (int)((p.araddr[0] - desc_base) / 0x80)] = t;
        if (bp && p.arvalid[0] && p.araddr[0] == desc_base && p.finished >= 1 && t < t_avail)
            tb_check_fail(c, "frame 2's descriptor read at cycle %ld before avail at %ld", t,
                          t_avail);
        if (mem_take(&m, c, &p, t) < 0)
            return -1;
        ts_tick(sim);
    }
    tb_check_fail(c, "timeout after %ld cycles (layer %d)", t, cur);
    return -1;
}

/* The engine's runs of parts of the table (a host's start of a part on
 * kiln_regfile's unit), with cfg_tbl_len NL: after each run the idle
 * engine prefetches the descriptor after the run's last (the table's first
 * after its last) and that layer's first weight tiles. */
typedef struct PartRun {
    int first, count; /* the run's table entries */
    long gap;         /* cycles from the run before's done to its start */
} PartRun;

/* The script: part A (entries 0-1) then part B (2-4), the guess right as
 * the prefetch starts (gap PF_IDLE + 1: its descriptor read not begun),
 * long after (the first tiles in) and between; the guess wrong long after
 * (the prefetch settled, its weight stream held by full banks), soon after
 * it started (its descriptor read or weight bursts in flight, dropped); a
 * start the cycle done is seen and within PF_IDLE cycles (nothing
 * prefetched). */
#define PI HLS_TS_PF_IDLE
static const PartRun script[] = {
    {0, 2, 0},       {2, 3, 3000},   {0, 2, PI + 1}, {2, 3, PI + 40},  {0, 2, 3000},
    {0, 2, 3000},    {0, 2, PI + 30}, {0, 2, PI + 12}, {2, 3, 0},      {0, 2, PI + 200},
    {0, 2, PI + 300}, {2, 3, 9},      {0, 2, PI},     {0, 2, PI + 3000},
};
#define NRUN ((int)(sizeof script / sizeof script[0]))

/* Script run i's start pins; its outputs cleared.  Returns 1. */
static int part_start(TsPins *p, uint8_t *mem, const Layer *L, int i)
{
    p->desc_base = 0x1000 + 0x80 * (uint64_t)script[i].first;
    p->layers = script[i].count;
    for (int k = script[i].first; k < script[i].first + script[i].count; k++)
        memset(&mem[L[k].ya], 0, (size_t)L[k].ybytes);
    return 1;
}

/* Run the script (one reset before it); bp as run() says.  cyc[i]: run i's
 * cycles (start to done seen), -1 on a timeout; the outputs of the layers
 * each run writes are checked after it (cleared before it). */
static void run_parts(TsSim *sim, TbCheck *c, uint8_t *mem, const Layer *L, int bp,
                      uint64_t seed, long *cyc)
{
    TsPins p;
    static Mem m;
    long t = 0, limit = 3000000, ts = 0;
    int i = 0, started = 0;
    tb_start(sim, &p, &m, mem, bp, seed);
    p.frames = 1;
    p.tbl_base = 0x1000;
    p.tbl_len = NL;
    for (int k = 0; k < NRUN; k++)
        cyc[k] = -1;
    for (t = 0; t < limit && i < NRUN; t++) {
        p.start = !started && t == ts;
        if (p.start)
            started = part_start(&p, mem, L, i);
        p.avail = 0xffffffffu;
        mem_drive(&m, &p, t);
        ts_eval(sim, &p);
        if (started && t > ts && p.done) {
            cyc[i] = t - ts;
            if (p.error)
                tb_check_fail(c, "run %d: error set at done", i);
            for (int k = script[i].first; k < script[i].first + script[i].count; k++) {
                long n = (long)L[k].hout * L[k].wout * L[k].ocg * PE;
                for (long j = 0; j < n; j++)
                    tb_check_int(c, "parts: y", k * 100000L + j, (int8_t)mem[L[k].ya + (uint64_t)j],
                                 L[k].ref[j]);
            }
            started = 0;
            if (++i < NRUN)
                ts = t + script[i].gap;
            if (i < NRUN && script[i].gap == 0) { /* started the cycle done is seen */
                p.start = 1;
                started = part_start(&p, mem, L, i);
                ts_eval(sim, &p);
            }
        }
        if (mem_take(&m, c, &p, t) < 0)
            return;
        ts_tick(sim);
    }
    if (i < NRUN)
        tb_check_fail(c, "parts: timeout after %ld cycles (run %d)", t, i);
    /* nothing left on the bus once the last run is done and its prefetch
     * settled (its weight stream held by full banks) */
    for (long k = 0; k < 20000; k++, t++) {
        mem_drive(&m, &p, t);
        ts_eval(sim, &p);
        if (mem_take(&m, c, &p, t) < 0)
            return;
        ts_tick(sim);
    }
    if (m.rq[1].n || m.aw.n || m.bq.n || p.arvalid[1] || p.awvalid)
        tb_check_fail(c, "parts: a map transfer open after the last run");
}

/* The model's cycles of script run i (hls_tsconv_layer, the run's first
 * layer prefetched by the idle engine when the run before it ended gap >=
 * 1 cycles before and the engine's guess is this run's first entry; a
 * wrong guess dropped: HLS_TS_DROP cycles more once the prefetch settled). */
static long parts_model(const int64_t *hw, int64_t *rt, int i, int *hit)
{
    HlsTsCarry pre = {0, 0, 0, 0}, carry = {0, 0, 0, 0}, nx = {0, 0, 0, 0};
    const PartRun *r = &script[i];
    int guess = i ? (script[i - 1].first + script[i - 1].count) % NL : -1, pf;
    long sum = 0;
    pf = i > 0 && hls_tsconv_idle(hw, FIXLAT, r->gap, &pre);
    *hit = pf && guess == r->first;
    for (int k = r->first; k < r->first + r->count; k++) {
        int64_t *v = &rt[16 * k];
        v[9] = k == r->first;
        sum += (long)hls_tsconv_layer(hw, v, k == r->first ? (*hit ? &pre : NULL) : &carry,
                                      k + 1 < r->first + r->count ? &nx : NULL);
        carry = nx;
    }
    return sum;
}

int main(int argc, char **argv)
{
    TbArgs a;
    TbCheck c;
    TsSim *sim;
    const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
    int64_t hw[64], rt[64 * NL];
    uint8_t *mem, *init;
    Layer L[NL];
    int8_t *x0;
    long layer_end[NF * NL];
    if (tb_args_parse(&a, argc, argv, 2) != 0)
        return 2;
    if (!d) {
        fprintf(stderr, "tb_tsconv: no kiln_tsconv descriptor\n");
        return 1;
    }
    tb_check_init(&c, a.quiet);
    hw_vec(hw);
    sim = ts_new();
    mem = calloc(MEMSZ, 1);
    init = malloc(MEMSZ);
    for (int cs = 0; cs < a.cases; cs++) {
        TbRng r;
        uint64_t addr = 0x1000 + 0x80 * NL;
        const int8_t *x;
        char desc[128];
        long cyc;
        int nrt = 0;
        tb_rng_seed(&r, a.seed + (uint64_t)cs);
        memset(mem, 0, MEMSZ);
        /* maps and weights at random bus-aligned gaps (random 4 KiB offsets) */
        memset(L, 0, sizeof L);
        for (int i = 0; i < NL; i++) {
            const Shape *sh = &shapes[i];
            L[i].h = sh->h;
            L[i].w = sh->w;
            L[i].cin = sh->cin;
            L[i].cout = sh->cout;
            L[i].k = sh->k;
            L[i].s = sh->s;
            L[i].p = sh->p;
            L[i].tog = sh->tog;
            L[i].act = sh->act;
            L[i].qlo = sh->qlo;
            L[i].qhi = sh->qhi;
        }
        for (int i = 0; i < NL; i++) {
            Layer *l = &L[i];
            int icg = (l->cin + PE - 1) / PE, ocg = (l->cout + PE - 1) / PE;
            int hout = (l->h + 2 * l->p - l->k) / l->s + 1;
            int wout = (l->w + 2 * l->p - l->k) / l->s + 1;
            l->da = 0x1000 + 0x80 * (uint64_t)i;
            l->xbytes = pad16((long)l->h * l->w * icg * PE);
            l->ybytes = pad16((long)hout * wout * ocg * PE);
            l->xa = i ? L[i - 1].ya : addr;
            if (!i)
                addr += (uint64_t)l->xbytes + 16 * (uint64_t)tb_rand_range(&r, 0, 200);
            l->wa = addr;
            addr += (uint64_t)wpad((long)hls_conv_group_wbeats(PE, (int64_t)l->k * l->k * icg) *
                                   ocg) + 16 * (uint64_t)tb_rand_range(&r, 0, 200);
            l->ya = addr;
            addr += (uint64_t)l->ybytes + 16 * (uint64_t)tb_rand_range(&r, 0, 200);
        }
        x0 = calloc((size_t)L[0].xbytes, 1);
        for (int y = 0; y < L[0].h * L[0].w; y++)
            for (int ch = 0; ch < L[0].cin; ch++)
                x0[y * ((L[0].cin + PE - 1) / PE) * PE + ch] = tb_rand_i8(&r);
        memcpy(&mem[L[0].xa], x0, (size_t)L[0].xbytes);
        if (MS > 0) { /* frame 1's input MAP_STRIDE bytes on, above all of frame 0's */
            if (addr > MS || 2 * MS > MEMSZ) {
                tb_check_fail(&c, "MAP_STRIDE %llu: frame 0 takes %llu bytes of %d",
                              (unsigned long long)MS, (unsigned long long)addr, MEMSZ);
                return tb_check_finish(&c, "tb_tsconv");
            }
            memcpy(&mem[L[0].xa + MS], x0, (size_t)L[0].xbytes);
        }
        x = x0;
        for (int i = 0; i < NL; i++) {
            layer_make(&L[i], &r, mem, x);
            desc_write(&L[i], mem);
            x = L[i].ref;
            rt[nrt + 0] = L[i].h;
            rt[nrt + 1] = L[i].w;
            rt[nrt + 2] = L[i].cin;
            rt[nrt + 3] = L[i].cout;
            rt[nrt + 4] = L[i].k;
            rt[nrt + 5] = L[i].s;
            rt[nrt + 6] = L[i].p;
            rt[nrt + 7] = L[i].tog;
            rt[nrt + 8] = FIXLAT;
            rt[nrt + 9] = i == 0;
            rt[nrt + 10] = (int64_t)L[i].ya;
            rt[nrt + 11] = 0; /* B FIXLAT after the last W, as the read data */
            nrt += 16;
        }
        memcpy(init, mem, MEMSZ);
        for (int bp = 0; bp < 2; bp++) {
            memcpy(mem, init, MEMSZ);
            memset(layer_end, 0, sizeof layer_end);
            cyc = run(sim, &c, mem, L, bp, a.seed * 7 + (uint64_t)cs, layer_end, 0x1000);
            for (int i = 0; i < NL; i++) {
                const Layer *l = &L[i];
                long n = (long)l->hout * l->wout * l->ocg * PE;
                for (long j = 0; j < n; j++)
                    tb_check_int(&c, i == 0 ? "y0" : i == 1 ? "y1" : i == 2 ? "y2" : "y3+", j,
                                 (int8_t)mem[l->ya + (uint64_t)j], l->ref[j]);
                for (long j = 0; MS > 0 && j < n; j++) /* frame 1's, MAP_STRIDE on */
                    tb_check_int(&c, i == 0 ? "frame 1 y0" : "frame 1 y1+", j,
                                 (int8_t)mem[l->ya + MS + (uint64_t)j], l->ref[j]);
            }
            if (!bp && a.vec && cs == 0)
                write_vec(a.vec, init, mem, (long)(addr + 4095) / 4096 * 4096, cyc);
            if (!bp && cyc >= 0) {
                long sum = 0;
                HlsTsCarry carry = {0, 0, 0, 0}, nx = {0, 0, 0, 0};
                for (int j = 0; j < NF * NL; j++) {
                    int i = j % NL;
                    long got = layer_end[j] - (j ? layer_end[j - 1] : 0), want;
                    rt[16 * i + 9] = j == 0; /* the run's start cycle */
                    /* a frame's later layers prefetched during the one before */
                    want = (long)hls_tsconv_layer(hw, &rt[16 * i], i ? &carry : NULL,
                                                  i + 1 < NL ? &nx : NULL);
                    carry = nx;
                    sum += want;
                    if (!a.quiet)
                        printf("  frame %d layer %d: %dx%dx%d -> %d k%d s%d tiles %d: %ld "
                               "cycles, model %ld\n", j / NL, i, L[i].h, L[i].w, L[i].cin,
                               L[i].cout, L[i].k, L[i].s, L[i].nt, got, want);
                    cyc_check(&c, "layer cycles", j, got, want);
                    /* prefetched: a frame's later layer's descriptor is read
                     * while the layer before it runs */
                    if (i > 0 && desc_ar[j] >= layer_end[j - 1])
                        tb_check_fail(&c, "frame %d layer %d: descriptor read at cycle %ld, "
                                      "not before layer %d ended at %ld", j / NL, i, desc_ar[j],
                                      i - 1, layer_end[j - 1]);
                }
                if (!a.quiet)
                    printf("  run: %ld cycles, model %ld\n", cyc, sum);
                cyc_check(&c, "run cycles", 0, cyc, sum);
            }
        }
        /* the table's parts run one by one, the idle engine prefetching */
        for (int bp = 0; MS == 0 && bp < 2; bp++) {
            long pc[NRUN];
            memcpy(mem, init, MEMSZ);
            run_parts(sim, &c, mem, L, bp, a.seed * 11 + (uint64_t)cs, pc);
            for (int i = 0; !bp && i < NRUN; i++) {
                int hit;
                long want = parts_model(hw, rt, i, &hit);
                int guess = i ? (script[i - 1].first + script[i - 1].count) % NL : -1;
                if (!a.quiet)
                    printf("  part run %d: entries %d-%d after %ld idle cycles (%s): %ld cycles, "
                           "model %ld\n", i, script[i].first, script[i].first + script[i].count - 1,
                           script[i].gap, hit ? "prefetched" : i == 0 || script[i].gap <= PI
                                                                 ? "fetched"
                                                                 : guess != script[i].first
                                                                       ? "guess dropped"
                                                                       : "?",
                           pc[i], want);
                /* a dropped guess is timed only once its prefetch settled */
                if (hit || i == 0 || script[i].gap <= PI || script[i].gap >= 3000)
                    cyc_check(&c, "part run cycles", i, pc[i],
                              want + (!hit && i > 0 && script[i].gap > PI ? HLS_TS_DROP : 0));
            }
        }
        snprintf(desc, sizeof desc, "seed %llu: %d layers x %d frames",
                 (unsigned long long)(a.seed + (uint64_t)cs), NL, NF);
        tb_case_end(&c, desc);
        for (int i = 0; i < NL; i++) {
            free(L[i].wt);
            free(L[i].bias);
            free(L[i].mpos);
            free(L[i].mneg);
            free(L[i].shift);
            free(L[i].ref);
        }
        free(x0);
    }
    ts_free(sim);
    free(mem);
    free(init);
    return tb_check_finish(&c, "tb_tsconv");
}
