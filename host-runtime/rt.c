/*
 * libkiln-rt (kiln_rt.h): a compiled model on an accelerator.  The model is
 * DIR/rtl/regmap.json (registers, segments, channels: the contract of
 * docs/simulate.md) and DIR/rtl/weights.bin.  DMA memory is one buffer:
 * weights.bin at offset 0, then one buffer per tensor channel (a reader of
 * a writer's buffer inside a segment shares it), each 4 KiB aligned.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "kiln_rt.h"
#include "kiln_sched.h"
#include "kiln_tsdesc.h"
#include "transport/transport.h"

#define REG_CTRL 0x00
#define REG_STATUS 0x04
#define REG_ERROR 0x08
#define REG_CYCLES 0x0C
#define REG_HASH_LO 0x10
#define REG_HASH_HI 0x14
#define REG_IER 0x1C        /* interrupt enable (bit u: unit u); an older regfile ignores it */

#define MAX_FILE (1u << 30) /* regmap.json and weights.bin size limit */

static void *(*alloc_fn)(size_t);
static void (*free_fn)(void *);

void krt_set_allocator(void *(*alloc)(size_t), void (*release)(void *))
{
    alloc_fn = alloc;
    free_fn = release;
}

void *krt_alloc(size_t n)
{
    return alloc_fn ? alloc_fn(n ? n : 1) : malloc(n ? n : 1);
}

void krt_free(void *p)
{
    if (!p)
        return;
    if (free_fn)
        free_fn(p);
    else
        free(p);
}

int krt_err(KrtError *e, int code, const char *fmt, ...)
{
    va_list ap;
    if (e) {
        e->code = code;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

#define KRT_MAX_SEGMENTS 256 /* dataflow segments and engine parts of a model */

struct KrtDev {
    KrtTransportRef tr; /* the transport */
    int has_model;      /* 1 while a model is loaded (one at a time) */
};

/* One channel of regmap.json. */
typedef struct Chan {
    KrtTensor t;       /* tensor channels: name, shape, bytes (name set for all) */
    int rd;            /* 1: the accelerator reads it */
    int weight;        /* 1: a weight channel (an offset into weights.bin) */
    int source;        /* readers inside a segment: the writer's index, else -1 */
    uint64_t offset;   /* weight channels: offset in weights.bin */
    uint64_t bytes;    /* weight channels: bytes */
    uint32_t base_lo;  /* register of the low address word */
    uint32_t base_hi;  /* register of the high address word */
    int error_bit;     /* its bit in ERROR, -1 when not given */
    int tsmap;         /* 1: a map of the shared engine's region (no base registers: the
                        * engine's descriptors hold its address) */
    int tstable;       /* 1: the engine's table (ts0): its base registers before each part */
    size_t buf;        /* offset of its bytes in the DMA buffer */
} Chan;

struct KrtModel {
    KrtDev *d;          /* the accelerator */
    KJ *doc;            /* regmap.json (owns the names) */
    Chan *ch;           /* channels */
    int nch;            /* count of ch */
    int nseg;           /* FPGA segments */
    int *in, *out;      /* channel index of each input and output */
    int nin, nout;      /* their counts */
    uint32_t reg_segment, reg_frames; /* CFG SEGMENT and FRAMES offsets */
    uint64_t base;      /* bus address of the DMA buffer */
    int warm;           /* 1: the resident weights were loaded (one segment) */
    int ts_layers;      /* the shared engine's descriptors (regmap.json tsconv; 0: none) */
    uint64_t ts_table;  /* their offset in weights.bin */
    uint64_t ts_maps;   /* its map region's size */
    size_t ts_buf;      /* the region's offset in the DMA buffer */
    int ts_seg;         /* the engine's first part's segment (its parts follow) */
    int order[KRT_MAX_SEGMENTS]; /* a frame's segments in run order (regmap.json
                                  * tsconv.segment_order; else by number) */
    uint32_t cycles;    /* CYCLES after the last segment */
    int by_irq;         /* 1: the last done was seen by the interrupt */
    int ts_unit;        /* 1: a run unit per dataflow segment, the engine's parts on
                         * unit ts_seg (tsconv.unit) */
    int flight;         /* frames krt_run_frames keeps in flight (tsconv.frames_in_flight, 1) */
    int steps;          /* 1: the units take runs in steps (tsconv.steps) */
    int gate;           /* > 0: a frame enters once the one before it ended entry gate - 1
                         * (tsconv.gate, kiln_sched.h) */
    size_t slot_bytes;  /* a frame slot: the map region and every channel buffer after it;
                         * slot s's copy of a buffer lies s * slot_bytes after slot 0's */
    size_t tab_buf[KILN_SCHED_FLIGHT]; /* per slot: its descriptor table's offset (slot 0:
                                        * the one in weights.bin) */
    int *feed;          /* per input: the output of an earlier run of the frame that carries
                         * its value (krt_run_frames copies it over), -1: the caller's */
    uint64_t *done_at;  /* after krt_run_frames: per frame the clock at its last done */
    int ndone;          /* frames in done_at */
};

int krt_open(const char *spec, KrtDev **out, KrtError *e)
{
    KrtDev *d;
    int rc;
    *out = NULL;
    if (!spec)
        return krt_err(e, KRT_EINVAL, "krt_open: no transport given");
    d = krt_alloc(sizeof *d);
    if (!d)
        return krt_err(e, KRT_ENOMEM, "krt_open: out of memory");
    memset(d, 0, sizeof *d);
    if (!strncmp(spec, "sim:", 4))
        rc = krt_sim_open(spec + 4, &d->tr, e);
    else if (!strncmp(spec, "uio:", 4))
        rc = krt_uio_open(spec + 4, &d->tr, e);
    else
        rc = krt_err(e, KRT_EINVAL, "%s: unknown transport (expected sim:SOCKET or "
                     "uio:/dev/uioN[,/dev/udmabufM])", spec);
    if (rc) {
        krt_free(d);
        return rc;
    }
    *out = d;
    return KRT_OK;
}

void krt_close(KrtDev *d)
{
    if (!d)
        return;
    d->tr.ops->close(d->tr.t);
    krt_free(d);
}

static int rd(KrtDev *d, uint32_t off, uint32_t *v, KrtError *e)
{
    return d->tr.ops->reg_read(d->tr.t, off, v, e);
}

static int wr(KrtDev *d, uint32_t off, uint32_t v, KrtError *e)
{
    return d->tr.ops->reg_write(d->tr.t, off, v, e);
}

int krt_status(KrtDev *d, uint32_t *status, uint32_t *error, KrtError *e)
{
    int rc;
    if ((rc = rd(d, REG_STATUS, status, e)) || (rc = rd(d, REG_ERROR, error, e)))
        return rc;
    return KRT_OK;
}

/* The whole file path into *out (krt_alloc'd, NUL added), *len bytes. */
static int read_file(const char *path, char **out, size_t *len, KrtError *e)
{
    FILE *f = fopen(path, "rb");
    long n;
    char *b;
    *out = NULL;
    if (!f)
        return krt_err(e, KRT_EINVAL, "%s: cannot read: %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || (unsigned long)n > MAX_FILE ||
        fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return krt_err(e, KRT_EINVAL, "%s: cannot read", path);
    }
    b = krt_alloc((size_t)n + 1);
    if (!b) {
        fclose(f);
        return krt_err(e, KRT_ENOMEM, "%s: out of memory", path);
    }
    if (n && fread(b, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        krt_free(b);
        return krt_err(e, KRT_EINVAL, "%s: short read", path);
    }
    fclose(f);
    b[n] = 0;
    *out = b;
    *len = (size_t)n;
    return KRT_OK;
}

/* Number member key of o (a hex string "0x48" counts too); -1 when absent. */
static int num(const KJ *o, const char *key, double *v)
{
    const KJ *j = krt_json_get(o, key);
    if (j && j->type == KJ_NUM) {
        *v = j->num;
        return 0;
    }
    if (j && j->type == KJ_STR) {
        char *end;
        unsigned long long x = strtoull(j->str, &end, 0);
        if (end != j->str && !*end) {
            *v = (double)x;
            return 0;
        }
    }
    return -1;
}

static const char *text(const KJ *o, const char *key)
{
    const KJ *j = krt_json_get(o, key);
    return j && j->type == KJ_STR ? j->str : NULL;
}

/* Channel named name, or -1. */
static int find_chan(const KrtModel *m, const char *name)
{
    int i;
    for (i = 0; i < m->nch; i++)
        if (!strcmp(m->ch[i].t.name, name))
            return i;
    return -1;
}

/* Channels the shared engine adds (regmap.json "tsconv"): its table and
 * its input and output maps. */
static int ts_count(const KrtModel *m)
{
    const KJ *t = krt_json_get(m->doc, "tsconv"), *l = t ? krt_json_get(t, "maps") : NULL;
    int n = 0;
    if (!t)
        return 0;
    for (l = l && l->type == KJ_ARR ? l->kid : NULL; l; l = l->next)
        n++;
    return n + 1;
}

/* The shared engine (regmap.json "tsconv"), one segment more: its table as
 * a weight channel whose base registers are TS0_BASE (the table's address),
 * its input and output maps as the segment's inputs and outputs, placed in
 * the map region (place) at their offsets. */
static int read_ts(KrtModel *m, const char *path, KrtError *e)
{
    const KJ *t = krt_json_get(m->doc, "tsconv"), *l;
    double seg, v, lo, hi, x = 0;
    int nparts = 0, k;
    Chan *c;
    for (k = 0; k < KRT_MAX_SEGMENTS; k++)
        m->order[k] = k;
    m->flight = 1;
    if (m->nseg > KRT_MAX_SEGMENTS)
        return krt_err(e, KRT_EINVAL, "%s: %d segments: at most %d", path, m->nseg,
                       KRT_MAX_SEGMENTS);
    if (!t)
        return KRT_OK;
    if (num(t, "segment", &seg) < 0 || seg != m->nseg || num(t, "layers", &v) < 0 || v < 1 ||
        num(t, "table_offset", &lo) < 0 || lo < 0 || num(t, "maps_bytes", &hi) < 0 || hi < 1)
        return krt_err(e, KRT_EINVAL, "%s: tsconv: expected segment %d, layers, table_offset and "
                       "maps_bytes", path, m->nseg);
    m->ts_layers = (int)v;
    m->ts_table = (uint64_t)lo;
    m->ts_unit = krt_json_get(t, "unit") != NULL;
    if (m->ts_unit && (num(t, "unit", &x) < 0 || x != m->nseg))
        return krt_err(e, KRT_EINVAL, "%s: tsconv.unit: expected %d (kiln_regfile's unit after "
                       "the %d dataflow segments' own)", path, m->nseg, m->nseg);
    if (m->ts_unit && m->nseg + 1 > KILN_SCHED_UNITS)
        return krt_err(e, KRT_EINVAL, "%s: tsconv.unit %d: %d run units, at most %d", path,
                       m->nseg, m->nseg + 1, KILN_SCHED_UNITS);
    if (krt_json_get(t, "frames_in_flight") &&
        (num(t, "frames_in_flight", &x) < 0 || x < 1 || x > KILN_SCHED_FLIGHT || x != (int)x))
        return krt_err(e, KRT_EINVAL, "%s: tsconv.frames_in_flight: expected 1 to %d", path,
                       KILN_SCHED_FLIGHT);
    if (krt_json_get(t, "frames_in_flight") && m->ts_unit)
        m->flight = (int)x;
    l = krt_json_get(t, "steps");
    m->steps = l && l->type == KJ_BOOL && l->num != 0;
    if (krt_json_get(t, "gate") &&
        (num(t, "gate", &x) < 0 || x < 0 || x >= KRT_MAX_SEGMENTS || x != (int)x))
        return krt_err(e, KRT_EINVAL, "%s: tsconv.gate: expected 0 to %d (an entry of the "
                       "segment order)", path, KRT_MAX_SEGMENTS - 1);
    m->gate = krt_json_get(t, "gate") && m->ts_unit ? (int)x : 0;
    m->ts_maps = (uint64_t)hi;
    m->ts_seg = m->nseg;
    /* its parts: segments nseg, nseg + 1, ... each a range of the table
     * (the top maps SEGMENT to it); none listed: one part, the whole table */
    l = krt_json_get(t, "parts");
    for (l = l && l->type == KJ_ARR ? l->kid : NULL; l; l = l->next, nparts++) {
        double ps, first, count;
        if (num(l, "segment", &ps) < 0 || ps != m->nseg + nparts || num(l, "first", &first) < 0 ||
            num(l, "count", &count) < 0 || first < 0 || count < 1 || first + count > v)
            return krt_err(e, KRT_EINVAL, "%s: tsconv.parts[%d]: expected segment %d and a "
                           "range first, count inside the %d layers", path, nparts,
                           m->nseg + nparts, m->ts_layers);
    }
    if (nparts == 0)
        nparts = 1;
    if (m->nseg + nparts > KRT_MAX_SEGMENTS)
        return krt_err(e, KRT_EINVAL, "%s: %d segments: at most %d", path, m->nseg + nparts,
                       KRT_MAX_SEGMENTS);
    l = krt_json_get(t, "segment_order");
    if (l) { /* each segment once */
        int seen[KRT_MAX_SEGMENTS] = {0}, n = 0;
        for (l = l->type == KJ_ARR ? l->kid : NULL; l; l = l->next, n++) {
            if (n >= m->nseg + nparts || l->type != KJ_NUM || (x = l->num) < 0 ||
                x >= m->nseg + nparts || x != (int)x || seen[(int)x]++)
                return krt_err(e, KRT_EINVAL, "%s: tsconv.segment_order[%d]: expected each of "
                               "the %d segments once", path, n, m->nseg + nparts);
            m->order[n] = (int)x;
        }
        if (n != m->nseg + nparts)
            return krt_err(e, KRT_EINVAL, "%s: tsconv.segment_order: %d entries, expected %d",
                           path, n, m->nseg + nparts);
    }
    c = &m->ch[m->nch++];
    memset(c, 0, sizeof *c);
    c->t.name = "ts0";
    c->t.segment = m->nseg;
    c->rd = c->weight = 1;
    c->tstable = 1;
    c->source = -1;
    c->error_bit = -1;
    c->offset = m->ts_table;
    c->bytes = 128 * (uint64_t)m->ts_layers;
    if (num(t, "base_lo", &lo) < 0 || num(t, "base_hi", &hi) < 0 || num(t, "lanes", &v) < 0)
        return krt_err(e, KRT_EINVAL, "%s: tsconv: expected base_lo, base_hi and lanes", path);
    c->base_lo = (uint32_t)lo;
    c->base_hi = (uint32_t)hi;
    l = krt_json_get(t, "maps");
    for (l = l && l->type == KJ_ARR ? l->kid : NULL; l; l = l->next) {
        const char *role = text(l, "role");
        double off, h, w, ch, fb;
        c = &m->ch[m->nch];
        memset(c, 0, sizeof *c);
        if (!role || !(c->t.value = text(l, "value")) || num(l, "offset", &off) < 0 || off < 0 ||
            num(l, "h", &h) < 0 || num(l, "w", &w) < 0 || num(l, "c", &ch) < 0 ||
            num(l, "frame_bytes", &fb) < 0 || fb <= 0 || off + fb > (double)m->ts_maps)
            return krt_err(e, KRT_EINVAL, "%s: tsconv.maps: expected value, role, offset, h, w, "
                           "c and frame_bytes inside maps_bytes", path);
        if (!strcmp(role, "scratch"))
            continue; /* only the engine reads it back */
        seg = m->nseg;
        if (krt_json_get(l, "segment") &&
            (num(l, "segment", &seg) < 0 || seg < m->nseg || seg >= m->nseg + nparts))
            return krt_err(e, KRT_EINVAL, "%s: tsconv.maps: map '%s': segment is not one of the "
                           "engine's parts %d..%d", path, c->t.value, m->nseg,
                           m->nseg + nparts - 1);
        c->t.name = "tsmap";
        c->t.segment = (int)seg;
        c->t.h = (int)h, c->t.w = (int)w, c->t.c = (int)ch, c->t.lanes = (int)v;
        c->t.frame_bytes = (size_t)fb;
        c->rd = !strcmp(role, "input");
        c->source = -1;
        c->error_bit = -1;
        c->tsmap = 1;
        c->offset = (uint64_t)off;
        if (c->rd)
            m->in[m->nin++] = m->nch;
        else
            m->out[m->nout++] = m->nch;
        m->nch++;
    }
    m->nseg += nparts;
    return KRT_OK;
}

/* Channels and registers of the parsed document into m. */
static int read_map(KrtModel *m, const char *path, KrtError *e)
{
    const KJ *chs = krt_json_get(m->doc, "channels"), *regs = krt_json_get(m->doc, "registers");
    const KJ *segs = krt_json_get(m->doc, "segments"), *k;
    int i, n = 0;
    if (!chs || chs->type != KJ_ARR || !regs || regs->type != KJ_ARR || !segs ||
        segs->type != KJ_ARR)
        return krt_err(e, KRT_EINVAL, "%s: expected channels, registers and segments arrays",
                       path);
    for (k = regs->kid; k; k = k->next) {
        const char *nm = text(k, "name");
        double off;
        if (!nm || num(k, "offset", &off) < 0)
            return krt_err(e, KRT_EINVAL, "%s: registers: expected name and offset", path);
        if (!strcmp(nm, "SEGMENT"))
            m->reg_segment = (uint32_t)off;
        if (!strcmp(nm, "FRAMES"))
            m->reg_frames = (uint32_t)off;
    }
    if (!m->reg_segment || !m->reg_frames)
        return krt_err(e, KRT_EINVAL, "%s: no SEGMENT or FRAMES register", path);
    for (k = chs->kid; k; k = k->next)
        n++;
    for (k = segs->kid; k; k = k->next)
        m->nseg++;
    n += ts_count(m);
    m->ch = krt_alloc(sizeof *m->ch * (size_t)(n + 1));
    m->in = krt_alloc(sizeof *m->in * (size_t)(n + 1));
    m->out = krt_alloc(sizeof *m->out * (size_t)(n + 1));
    if (!m->ch || !m->in || !m->out)
        return krt_err(e, KRT_ENOMEM, "%s: out of memory", path);
    memset(m->ch, 0, sizeof *m->ch * (size_t)(n + 1));
    for (k = chs->kid, i = 0; k; k = k->next, i++) {
        Chan *c = &m->ch[i];
        const char *dir = text(k, "dir");
        m->nch = i + 1;
        double seg, lo, hi, v;
        c->t.name = text(k, "name");
        c->source = -1;
        if (!c->t.name || !dir || num(k, "segment", &seg) < 0 || num(k, "base_lo", &lo) < 0 ||
            num(k, "base_hi", &hi) < 0)
            return krt_err(e, KRT_EINVAL, "%s: channels[%d]: expected name, dir, segment, "
                           "base_lo and base_hi", path, i);
        c->rd = !strcmp(dir, "rd");
        c->t.segment = (int)seg;
        c->base_lo = (uint32_t)lo;
        c->base_hi = (uint32_t)hi;
        c->error_bit = num(k, "error_bit", &v) == 0 && v >= 0 && v < 32 ? (int)v : -1;
        c->weight = c->t.name[0] == 'w' && krt_json_get(k, "offset") != NULL;
        if (c->weight) {
            if (num(k, "offset", &v) < 0 || v < 0)
                return krt_err(e, KRT_EINVAL, "%s: channels[%d].offset: expected a number",
                               path, i);
            c->offset = (uint64_t)v;
            if (num(k, "bytes", &v) < 0 || v < 0)
                return krt_err(e, KRT_EINVAL, "%s: channels[%d].bytes: expected a number",
                               path, i);
            c->bytes = (uint64_t)v;
            continue;
        }
        c->t.value = text(k, "value");
        if (num(k, "frame_bytes", &v) < 0 || v <= 0)
            return krt_err(e, KRT_EINVAL, "%s: channels[%d].frame_bytes: expected a number",
                           path, i);
        c->t.frame_bytes = (size_t)v;
        if (num(k, "h", &v) == 0)
            c->t.h = (int)v;
        if (num(k, "w", &v) == 0)
            c->t.w = (int)v;
        if (num(k, "c", &v) == 0)
            c->t.c = (int)v;
        if (num(k, "lanes", &v) == 0)
            c->t.lanes = (int)v;
    }
    for (k = chs->kid, i = 0; k; k = k->next, i++) { /* readers of a writer's buffer */
        const char *src = text(k, "source");
        if (src && (m->ch[i].source = find_chan(m, src)) < 0)
            return krt_err(e, KRT_EINVAL, "%s: channels[%d].source: no channel '%s'", path, i,
                           src);
    }
    for (k = segs->kid; k; k = k->next) { /* graph inputs and outputs of each segment */
        const KJ *l;
        int pass;
        for (pass = 0; pass < 2; pass++) {
            l = krt_json_get(k, pass ? "outputs" : "inputs");
            for (l = l && l->type == KJ_ARR ? l->kid : NULL; l; l = l->next) {
                int c = l->type == KJ_STR ? find_chan(m, l->str) : -1;
                if (c < 0)
                    return krt_err(e, KRT_EINVAL, "%s: segments: unknown channel '%s'", path,
                                   l->type == KJ_STR ? l->str : "?");
                if (pass)
                    m->out[m->nout++] = c;
                else
                    m->in[m->nin++] = c;
            }
        }
    }
    return read_ts(m, path, e);
}

/* The register window the model's map needs: 2^axil_addr_bits bytes (12
 * to 16 bits, hls/hw.h; 12 where a map written before the map grew leaves
 * it out), mapped before the first register past 4 KiB is used. */
static int reg_window(KrtModel *m, const char *path, KrtError *e)
{
    double bits = 12;
    if (krt_json_get(m->doc, "axil_addr_bits") &&
        (num(m->doc, "axil_addr_bits", &bits) < 0 || bits < 12 || bits > 16 || bits != (int)bits))
        return krt_err(e, KRT_EINVAL, "%s: axil_addr_bits: expected a whole number from 12 to 16",
                       path);
    return m->d->tr.ops->reg_window(m->d->tr.t, (uint32_t)1 << (int)bits, e);
}

/* Compare the accelerator's HASH registers with the model's plan_hash. */
static int check_hash(KrtModel *m, const char *path, KrtError *e)
{
    const char *h = text(m->doc, "plan_hash");
    uint32_t lo, hi;
    uint64_t want, have;
    int rc;
    if (!h)
        return krt_err(e, KRT_EINVAL, "%s: plan_hash: expected a string", path);
    want = strtoull(h, NULL, 16);
    if ((rc = rd(m->d, REG_HASH_LO, &lo, e)) || (rc = rd(m->d, REG_HASH_HI, &hi, e)))
        return rc;
    have = (uint64_t)hi << 32 | lo;
    if (have != want)
        return krt_err(e, KRT_EHASH, "plan hash mismatch: the accelerator was built from plan "
                       "0x%016" PRIx64 ", %s is plan 0x%016" PRIx64, have, path, want);
    return KRT_OK;
}

static size_t up4k(size_t n)
{
    return (n + 4095) / 4096 * 4096;
}

/* weights.bin must be the image regmap.json describes: weights_bytes long
 * (when given), every weight channel's bytes inside it.  A truncated file
 * or another model's would load garbage and give wrong answers quietly. */
static int check_weights(const KrtModel *m, const char *wpath, size_t wlen, KrtError *e)
{
    double want;
    int i;
    if (num(m->doc, "weights_bytes", &want) == 0 && want != (double)wlen)
        return krt_err(e, KRT_EINVAL, "%s: %zu bytes, expected %.0f (weights_bytes of "
                       "regmap.json): %s", wpath, wlen, want,
                       (double)wlen < want ? "truncated" : "not this model's weight image");
    for (i = 0; i < m->nch; i++) {
        const Chan *c = &m->ch[i];
        if (c->weight && c->offset + c->bytes > wlen)
            return krt_err(e, KRT_EINVAL, "%s: %zu bytes, channel %s needs bytes %" PRIu64
                           "..%" PRIu64 ": truncated", wpath, wlen, c->t.name, c->offset,
                           c->offset + c->bytes);
    }
    return KRT_OK;
}

/* Place of segment sg in a frame's order. */
static int order_pos(const KrtModel *m, int sg)
{
    int k;
    for (k = 0; k < m->nseg && m->order[k] != sg; k++)
        ;
    return k;
}

/* Each input's feed: the output carrying its value of the latest segment
 * before its own in the frame's order, else -1 (the caller's image). */
static int plan_feeds(KrtModel *m, const char *path, KrtError *e)
{
    int i, j;
    m->feed = krt_alloc(sizeof *m->feed * (size_t)(m->nin + 1));
    if (!m->feed)
        return krt_err(e, KRT_ENOMEM, "%s: out of memory", path);
    for (i = 0; i < m->nin; i++) {
        const KrtTensor *t = &m->ch[m->in[i]].t;
        int pos = order_pos(m, t->segment), best = -1;
        m->feed[i] = -1;
        for (j = 0; t->value && j < m->nout; j++) {
            const KrtTensor *o = &m->ch[m->out[j]].t;
            int p = order_pos(m, o->segment);
            if (o->value && !strcmp(o->value, t->value) && p < pos && p > best) {
                best = p;
                m->feed[i] = j;
            }
        }
    }
    return KRT_OK;
}

/* Place the buffers, allocate DMA memory and write weights.bin into it. */
static int place(KrtModel *m, const char *wpath, KrtError *e)
{
    char *w = NULL;
    size_t wlen = 0, next;
    int i, rc, has_w = 0;
    for (i = 0; i < m->nch; i++)
        has_w |= m->ch[i].weight;
    if (has_w && (rc = read_file(wpath, &w, &wlen, e)))
        return rc;
    if (has_w && (rc = check_weights(m, wpath, wlen, e))) {
        krt_free(w);
        return rc;
    }
    next = up4k(wlen);
    m->ts_buf = next;
    next += up4k((size_t)m->ts_maps);
    for (i = 0; i < m->nch; i++) {
        Chan *c = &m->ch[i];
        if (c->weight) {
            c->buf = (size_t)c->offset;
        } else if (c->tsmap) {
            c->buf = m->ts_buf + (size_t)c->offset;
        } else if (c->source < 0) {
            c->buf = next;
            next += up4k(c->t.frame_bytes);
        }
    }
    for (i = 0; i < m->nch; i++)
        if (m->ch[i].source >= 0)
            m->ch[i].buf = m->ch[m->ch[i].source].buf;
    /* the frames in flight: slot s's region and buffers s * slot_bytes on,
     * then a table each for slots 1 on */
    m->slot_bytes = next - m->ts_buf;
    next = m->ts_buf + (size_t)m->flight * m->slot_bytes;
    m->tab_buf[0] = (size_t)m->ts_table;
    for (i = 1; i < m->flight; i++) {
        m->tab_buf[i] = next;
        next += up4k(128 * (size_t)m->ts_layers);
    }
    rc = m->d->tr.ops->dma_alloc(m->d->tr.t, next ? next : 4096, &m->base, e);
    for (i = 1; !rc && m->ts_layers && i < m->flight; i++) { /* tables of slots 1 on */
        size_t n = 128 * (size_t)m->ts_layers;
        uint8_t *t = krt_alloc(n);
        if (!t) {
            rc = krt_err(e, KRT_ENOMEM, "%s: out of memory", wpath);
            break;
        }
        memcpy(t, w + m->ts_table, n);
        kiln_ts_relocate(t, m->ts_layers, m->base + m->ts_buf + (size_t)i * m->slot_bytes,
                         m->base);
        rc = m->d->tr.ops->mem_write(m->d->tr.t, m->tab_buf[i], t, n, e);
        krt_free(t);
    }
    if (!rc && m->ts_layers)
        kiln_ts_relocate((uint8_t *)w + m->ts_table, m->ts_layers, m->base + m->ts_buf,
                         m->base);
    if (!rc && wlen)
        rc = m->d->tr.ops->mem_write(m->d->tr.t, 0, w, wlen, e);
    krt_free(w);
    return rc;
}

void krt_unload(KrtModel *m)
{
    if (!m)
        return;
    if (m->d)
        m->d->has_model = 0;
    krt_json_free(m->doc);
    krt_free(m->ch);
    krt_free(m->in);
    krt_free(m->out);
    krt_free(m->feed);
    krt_free(m->done_at);
    krt_free(m);
}

int krt_load(KrtDev *d, const char *dir, KrtModel **out, KrtError *e)
{
    char path[4096], wpath[4096], *doc_text = NULL;
    size_t len;
    int rc, line;
    KrtModel *m;
    *out = NULL;
    if (d->has_model)
        return krt_err(e, KRT_EINVAL, "krt_load: a model is already loaded on this device");
    snprintf(path, sizeof path, "%s/rtl/regmap.json", dir);
    snprintf(wpath, sizeof wpath, "%s/rtl/weights.bin", dir);
    if ((rc = read_file(path, &doc_text, &len, e)))
        return rc;
    m = krt_alloc(sizeof *m);
    if (!m) {
        krt_free(doc_text);
        return krt_err(e, KRT_ENOMEM, "%s: out of memory", path);
    }
    memset(m, 0, sizeof *m);
    m->d = d;
    m->doc = krt_json_parse(doc_text, len, &line);
    krt_free(doc_text);
    if (!m->doc)
        rc = line ? krt_err(e, KRT_EINVAL, "%s:%d: malformed JSON", path, line)
                  : krt_err(e, KRT_ENOMEM, "%s: out of memory", path);
    if (!rc)
        rc = read_map(m, path, e);
    if (!rc)
        rc = plan_feeds(m, path, e);
    if (!rc)
        rc = reg_window(m, path, e);
    if (!rc)
        rc = check_hash(m, path, e);
    if (!rc)
        rc = place(m, wpath, e);
    if (!rc)
        rc = wr(d, REG_IER, 1, e);
    if (rc) {
        m->d = NULL;
        krt_unload(m);
        return rc;
    }
    d->has_model = 1;
    *out = m;
    return KRT_OK;
}

int krt_num_inputs(const KrtModel *m)
{
    return m->nin;
}

int krt_num_outputs(const KrtModel *m)
{
    return m->nout;
}

const KrtTensor *krt_input(const KrtModel *m, int i)
{
    return i >= 0 && i < m->nin ? &m->ch[m->in[i]].t : NULL;
}

const KrtTensor *krt_output(const KrtModel *m, int i)
{
    return i >= 0 && i < m->nout ? &m->ch[m->out[i]].t : NULL;
}

void krt_image_from_hwc(const KrtTensor *t, const int8_t *hwc, uint8_t *image)
{
    int cg = (t->c + t->lanes - 1) / t->lanes, y, x, ch;
    memset(image, 0, t->frame_bytes);
    for (y = 0; y < t->h; y++)
        for (x = 0; x < t->w; x++)
            for (ch = 0; ch < t->c; ch++)
                image[((size_t)y * (size_t)t->w + (size_t)x) * (size_t)(cg * t->lanes) +
                      (size_t)ch] = (uint8_t)hwc[((size_t)y * (size_t)t->w + (size_t)x) *
                                                     (size_t)t->c + (size_t)ch];
}

void krt_hwc_from_image(const KrtTensor *t, const uint8_t *image, int8_t *hwc)
{
    int cg = (t->c + t->lanes - 1) / t->lanes, y, x, ch;
    for (y = 0; y < t->h; y++)
        for (x = 0; x < t->w; x++)
            for (ch = 0; ch < t->c; ch++)
                hwc[((size_t)y * (size_t)t->w + (size_t)x) * (size_t)t->c + (size_t)ch] =
                    (int8_t)image[((size_t)y * (size_t)t->w + (size_t)x) *
                                      (size_t)(cg * t->lanes) + (size_t)ch];
}

/* Segment sg's base registers for frame slot slot: its channels' buffers
 * (slot s's copies), a part's TS0_BASE (slot s's table). */
static int write_bases(KrtModel *m, int sg, int slot, KrtError *e)
{
    KrtDev *d = m->d;
    int i, rc;
    for (i = 0; i < m->nch; i++) {
        const Chan *c = &m->ch[i];
        uint64_t a = m->base + c->buf + (size_t)slot * m->slot_bytes;
        if ((c->t.segment != sg && !(c->tstable && sg >= m->ts_seg)) || c->source >= 0 ||
            c->tsmap)
            continue;
        if (c->tstable)
            a = m->base + m->tab_buf[slot];
        else if (c->weight)
            a = m->base + c->buf;
        if ((rc = wr(d, c->base_lo, (uint32_t)a, e)) || (rc = wr(d, c->base_hi, (uint32_t)(a >> 32), e)))
            return rc;
    }
    return KRT_OK;
}

/* A non-zero ERROR err after a run of segment sg (what: the run, for the
 * message) as KRT_EDEVICE naming the channels of its bits. */
static int device_error(const KrtModel *m, int sg, uint32_t err, const char *what, KrtError *e)
{
    char names[160] = "";
    size_t n = 0;
    int i;
    for (i = 0; i < m->nch && n < sizeof names - 16; i++)
        if (m->ch[i].t.segment == sg && m->ch[i].error_bit >= 0 &&
            (err >> m->ch[i].error_bit & 1))
            n += (size_t)snprintf(names + n, sizeof names - n, " %s", m->ch[i].t.name);
    if (err == 0x80000000u) /* kiln_regfile's top: a start of a SEGMENT it does not have */
        return krt_err(e, KRT_EDEVICE, "%s: ERROR register 0x%08" PRIx32 " (bit 31: a SEGMENT "
                       "the design does not have)", what, err);
    return krt_err(e, KRT_EDEVICE, "%s: ERROR register 0x%08" PRIx32 " (an AXI error "
                   "response%s%s%s)", what, err, n ? " on" : "", names,
                   err >> 31 ? "; bit 31: a SEGMENT the design does not have" : "");
}

/* Run segment sg once: its base registers, SEGMENT, FRAMES, start, wait,
 * ERROR. */
static int run_segment(KrtModel *m, int sg, int timeout_ms, KrtError *e)
{
    KrtDev *d = m->d;
    uint32_t err = 0;
    char what[32];
    int rc;
    if ((rc = write_bases(m, sg, 0, e)))
        return rc;
    if ((rc = wr(d, m->reg_segment, (uint32_t)sg, e)) || (rc = wr(d, m->reg_frames, 1, e)) ||
        (rc = wr(d, REG_ERROR, 0xffffffffu, e)) ||
        (rc = wr(d, REG_CTRL, m->warm && m->nseg == 1 ? 1u : 3u, e)))
        return rc;
    if ((rc = d->tr.ops->wait_done(d->tr.t, 2, timeout_ms, &m->by_irq, e))) {
        if (rc == KRT_ETIMEOUT) {
            uint32_t st = 0;
            KrtError e2;
            if (rd(d, REG_STATUS, &st, &e2) == KRT_OK && rd(d, REG_ERROR, &err, &e2) == KRT_OK)
                return krt_err(e, KRT_ETIMEOUT, "segment %d: no done within %d ms (STATUS 0x%"
                               PRIx32 ", ERROR 0x%" PRIx32 ")", sg, timeout_ms, st, err);
        }
        return rc;
    }
    if ((rc = rd(d, REG_ERROR, &err, e)) || (rc = rd(d, REG_CYCLES, &m->cycles, e)))
        return rc;
    snprintf(what, sizeof what, "segment %d", sg);
    if (err)
        return device_error(m, sg, err, what, e);
    m->warm = 1;
    return KRT_OK;
}

int krt_num_segments(const KrtModel *m)
{
    return m->nseg;
}

int krt_run_segment(KrtModel *m, int sg, const uint8_t *const *inputs, uint8_t *const *outputs,
                    int timeout_ms, KrtError *e)
{
    KrtTransportRef *tr = &m->d->tr;
    int i, rc;
    if (sg < 0 || sg >= m->nseg)
        return krt_err(e, KRT_EINVAL, "krt_run_segment: segment %d of %d", sg, m->nseg);
    for (i = 0; i < m->nin; i++) {
        const Chan *c = &m->ch[m->in[i]];
        if (c->t.segment == sg &&
            (rc = tr->ops->mem_write(tr->t, c->buf, inputs[i], c->t.frame_bytes, e)))
            return rc;
    }
    if ((rc = run_segment(m, sg, timeout_ms, e)))
        return rc;
    for (i = 0; i < m->nout; i++) {
        const Chan *c = &m->ch[m->out[i]];
        if (c->t.segment == sg &&
            (rc = tr->ops->mem_read(tr->t, c->buf, outputs[i], c->t.frame_bytes, e)))
            return rc;
    }
    return KRT_OK;
}

int krt_run(KrtModel *m, const uint8_t *const *inputs, uint8_t *const *outputs, int timeout_ms,
            KrtError *e)
{
    int k, rc;
    for (k = 0; k < m->nseg; k++) /* in the frame's order: a part after what it reads */
        if ((rc = krt_run_segment(m, m->order[k], inputs, outputs, timeout_ms, e)))
            return rc;
    return KRT_OK;
}

/* ---- frames in flight (kiln_sched.h) ---- */

/* The state of one krt_run_frames. */
typedef struct Frames {
    KrtModel *m;                       /* the model */
    const uint8_t *const *const *in;   /* per frame the caller's input images */
    uint8_t *const *const *out;        /* per frame the output images */
    int8_t *hwc;                       /* a map between two channels' layouts */
    int loaded[KRT_MAX_SEGMENTS];      /* 1: the segment's resident weights were loaded */
    int timeout_ms;                    /* per wait */
} Frames;

/* Input i of frame f into slot slot: the caller's image, or the output of
 * an earlier run of the frame carrying its value, laid out again when the
 * two channels' lanes differ. */
static int put_input(Frames *r, int f, int i, int slot, KrtError *e)
{
    KrtModel *m = r->m;
    KrtTransportRef *tr = &m->d->tr;
    const Chan *c = &m->ch[m->in[i]];
    size_t at = c->buf + (size_t)slot * m->slot_bytes;
    const KrtTensor *o;
    uint8_t *img;
    int rc;
    if (m->feed[i] < 0)
        return tr->ops->mem_write(tr->t, at, r->in[f][i], c->t.frame_bytes, e);
    o = &m->ch[m->out[m->feed[i]]].t;
    if (o->lanes == c->t.lanes && o->frame_bytes == c->t.frame_bytes)
        return tr->ops->mem_write(tr->t, at, r->out[f][m->feed[i]], c->t.frame_bytes, e);
    if ((int64_t)o->h * o->w * o->c != (int64_t)c->t.h * c->t.w * c->t.c)
        return krt_err(e, KRT_EINVAL, "regmap.json: '%s' is %dx%dx%d at %s and %dx%dx%d at %s",
                       c->t.value, o->h, o->w, o->c, o->name, c->t.h, c->t.w, c->t.c,
                       c->t.name);
    if (!(img = krt_alloc(c->t.frame_bytes)))
        return krt_err(e, KRT_ENOMEM, "krt_run_frames: out of memory");
    krt_hwc_from_image(o, r->out[f][m->feed[i]], r->hwc);
    krt_image_from_hwc(&c->t, r->hwc, img);
    rc = tr->ops->mem_write(tr->t, at, img, c->t.frame_bytes, e);
    krt_free(img);
    return rc;
}

/* Start entry k of frame f on unit u: the segment's inputs into the
 * frame's slot, its base registers, SEGMENT, FRAMES, the unit's start bit
 * (a dataflow segment's first run loads its resident weights), then STATUS
 * must show the unit busy or done. */
static int go(Frames *r, int u, int f, int k, KrtError *e)
{
    KrtModel *m = r->m;
    KrtDev *d = m->d;
    int sg = m->order[k], slot = f % m->flight, part = m->ts_unit && sg >= m->ts_seg, i, rc;
    uint32_t ctrl = KILN_UNIT_START(u) | (part || r->loaded[sg] ? 0u : 2u), st;
    for (i = 0; i < m->nin; i++)
        if (m->ch[m->in[i]].t.segment == sg && (rc = put_input(r, f, i, slot, e)))
            return rc;
    if ((rc = write_bases(m, sg, slot, e)) || (rc = wr(d, m->reg_segment, (uint32_t)sg, e)) ||
        (rc = wr(d, m->reg_frames, 1, e)) || (rc = wr(d, REG_CTRL, ctrl, e)) ||
        (rc = rd(d, REG_STATUS, &st, e)))
        return rc;
    if (!(st & (KILN_UNIT_BUSY(u) | KILN_UNIT_DONE(u)))) {
        char why[64] = "";
        if (u)
            snprintf(why, sizeof why, ": an accelerator without kiln_regfile's unit %d?", u);
        return krt_err(e, KRT_EDEVICE, "frame %d, segment %d: unit %d did not start (STATUS 0x%"
                       PRIx32 "%s)", f, sg, u, st, why);
    }
    r->loaded[sg] |= !part;
    return KRT_OK;
}

/* Unit u's run of entry k of frame f ended: ERROR, the unit's cycles, the
 * segment's outputs from the frame's slot. */
static int finish(Frames *r, int u, int f, int k, KrtError *e)
{
    KrtModel *m = r->m;
    KrtTransportRef *tr = &m->d->tr;
    int sg = m->order[k], slot = f % m->flight, i, rc;
    uint32_t err;
    char what[48];
    if ((rc = rd(m->d, REG_ERROR, &err, e)) ||
        (rc = rd(m->d, KILN_UNIT_CYCLES(u), &m->cycles, e)))
        return rc;
    snprintf(what, sizeof what, "frame %d, segment %d", f, sg);
    if (err)
        return device_error(m, sg, err, what, e);
    for (i = 0; i < m->nout; i++) {
        const Chan *c = &m->ch[m->out[i]];
        if (c->t.segment == sg &&
            (rc = tr->ops->mem_read(tr->t, c->buf + (size_t)slot * m->slot_bytes, r->out[f][i],
                                    c->t.frame_bytes, e)))
            return rc;
    }
    return KRT_OK;
}

/* Wait for a done of the running units (IER set to exactly them, so a done
 * left standing on an idle unit raises no interrupt); the STATUS read after
 * into *st, checked: only the bits of kiln_regfile's s->nu units (0 ..
 * 2 * nu - 1), a done of a running unit. */
static int wait_units(Frames *r, const KilnSched *s, uint32_t *ier, uint32_t *st, KrtError *e)
{
    KrtModel *m = r->m;
    KrtDev *d = m->d;
    uint32_t want = 0, mask = 0, err = 0;
    int rc, u;
    for (u = 0; u < s->nu; u++)
        if (s->cur[u] >= 0) {
            want |= 1u << u;
            mask |= KILN_UNIT_DONE(u);
        }
    if (want != *ier && (rc = wr(d, REG_IER, want, e)))
        return rc;
    *ier = want;
    rc = d->tr.ops->wait_done(d->tr.t, mask, r->timeout_ms, &m->by_irq, e);
    if (rc == KRT_ETIMEOUT) {
        char runs[256] = "";
        size_t n = 0;
        KrtError e2;
        for (u = 0; u < s->nu; u++)
            if (s->cur[u] >= 0 && n < sizeof runs)
                n += (size_t)snprintf(runs + n, sizeof runs - n, "%sunit %d: frame %d, segment %d",
                                      n ? "; " : "", u, s->cur[u], m->order[s->ent[u]]);
        if (rd(d, REG_STATUS, st, &e2) == KRT_OK && rd(d, REG_ERROR, &err, &e2) == KRT_OK)
            return krt_err(e, KRT_ETIMEOUT, "no done within %d ms (%s; STATUS 0x%" PRIx32
                           ", ERROR 0x%" PRIx32 ")", r->timeout_ms, runs, *st, err);
        return rc;
    }
    if (rc || (rc = rd(d, REG_STATUS, st, e)))
        return rc;
    if (*st >> (2 * s->nu))
        return krt_err(e, KRT_EDEVICE, "STATUS 0x%08" PRIx32 " after a done: bits beyond "
                       "kiln_regfile's 0-%d (not this accelerator's register file?)", *st,
                       2 * s->nu - 1);
    if (!(*st & mask))
        return krt_err(e, KRT_EDEVICE, "STATUS 0x%08" PRIx32 " after a done: no done of a running "
                       "unit (mask 0x%" PRIx32 ")", *st, mask);
    return KRT_OK;
}

/* After unit u's run failed with the device's own report (rc
 * KRT_EDEVICE in *e: ERROR set, or the unit did not start), the other
 * units' runs may still be writing into the model's buffers: wait for each
 * one's done in turn (unless st already shows it; IER and the wait on its
 * bit alone) before returning, and say in the message, per unit, that it
 * ended or that it did not within the timeout. */
static void drain(Frames *r, const KilnSched *s, int u, uint32_t st, int rc, uint32_t *ier,
                  KrtError *e)
{
    KrtModel *m = r->m;
    KrtDev *d = m->d;
    int o, by_irq, rc2;
    KrtError e2;
    size_t n;
    if (rc != KRT_EDEVICE)
        return;
    for (o = 0; o < s->nu; o++) {
        if (o == u || s->cur[o] < 0 || (st & KILN_UNIT_DONE(o)))
            continue;
        rc2 = wr(d, REG_IER, 1u << o, &e2);
        if (rc2 == KRT_OK) {
            *ier = 1u << o;
            rc2 = d->tr.ops->wait_done(d->tr.t, KILN_UNIT_DONE(o), r->timeout_ms, &by_irq, &e2);
        }
        n = strlen(e->msg);
        if (rc2 == KRT_OK)
            snprintf(e->msg + n, sizeof e->msg - n, "; unit %d's run of frame %d, segment %d "
                     "ended", o, s->cur[o], m->order[s->ent[o]]);
        else
            snprintf(e->msg + n, sizeof e->msg - n, "; unit %d's run of frame %d, segment %d may "
                     "still be running (%s)", o, s->cur[o], m->order[s->ent[o]], e2.msg);
    }
}

int krt_run_frames(KrtModel *m, int frames, const uint8_t *const *const *inputs,
                   uint8_t *const *const *outputs, int timeout_ms, KrtError *e)
{
    Frames r;
    KilnSched s;
    int unit[KRT_MAX_SEGMENTS], f, i, k, u, rc = KRT_OK;
    uint32_t ier = 1, st;
    size_t big = 1;
    if (frames < 1 || !inputs || !outputs)
        return krt_err(e, KRT_EINVAL, "krt_run_frames: %d frames: expected at least one, with "
                       "inputs and outputs", frames);
    for (f = 0; f < frames; f++) {
        for (i = 0; i < m->nin; i++)
            if (m->feed[i] < 0 && (!inputs[f] || !inputs[f][i]))
                return krt_err(e, KRT_EINVAL, "krt_run_frames: frame %d: no image for input %d "
                               "('%s', channel %s)", f, i, m->ch[m->in[i]].t.value,
                               m->ch[m->in[i]].t.name);
        for (i = 0; i < m->nout; i++)
            if (!outputs[f] || !outputs[f][i])
                return krt_err(e, KRT_EINVAL, "krt_run_frames: frame %d: no buffer for output %d "
                               "('%s', channel %s)", f, i, m->ch[m->out[i]].t.value,
                               m->ch[m->out[i]].t.name);
    }
    memset(&r, 0, sizeof r);
    r.m = m;
    r.in = inputs;
    r.out = outputs;
    r.timeout_ms = timeout_ms;
    for (i = 0; i < m->nin; i++) {
        const KrtTensor *t = &m->ch[m->in[i]].t;
        if ((size_t)t->h * (size_t)t->w * (size_t)t->c > big)
            big = (size_t)t->h * (size_t)t->w * (size_t)t->c;
    }
    krt_free(m->done_at);
    m->ndone = 0;
    m->done_at = krt_alloc(sizeof *m->done_at * (size_t)frames);
    r.hwc = krt_alloc(big);
    if (!m->done_at || !r.hwc) {
        krt_free(r.hwc);
        return krt_err(e, KRT_ENOMEM, "krt_run_frames: out of memory");
    }
    for (k = 0; k < m->nseg; k++) /* segment k on unit k, the engine's parts after them */
        unit[k] = m->ts_unit ? KILN_UNIT_OF(m->order[k], m->ts_seg) : 0;
    /* ERROR is shared by the units and sticky: cleared once, read after each done */
    if ((rc = wr(m->d, REG_ERROR, 0xffffffffu, e)))
        goto out;
    kiln_sched_init(&s, m->nseg, unit, frames, m->flight, m->steps, m->gate);
    for (;;) {
        int may = kiln_sched_may_pick(&s);
        for (u = 0; u < s.nu && may; u++)
            if (kiln_sched_pick(&s, u, &f, &k) && (rc = go(&r, u, f, k, e))) {
                s.cur[u] = -1; /* it did not start */
                drain(&r, &s, u, 0, rc, &ier, e);
                goto out;
            }
        if (kiln_sched_idle(&s))
            break;
        if ((rc = wait_units(&r, &s, &ier, &st, e)))
            goto out;
        for (u = 0; u < s.nu; u++) {
            if (s.cur[u] < 0 || !(st & KILN_UNIT_DONE(u)))
                continue;
            if ((rc = finish(&r, u, s.cur[u], s.ent[u], e))) {
                drain(&r, &s, u, st, rc, &ier, e);
                goto out;
            }
            if ((f = kiln_sched_done(&s, u)) >= 0 &&
                (rc = m->d->tr.ops->clock(m->d->tr.t, &m->done_at[f], e)) == KRT_OK)
                m->ndone = f + 1;
            if (rc)
                goto out;
        }
    }
out:
    krt_free(r.hwc);
    if (ier != 1) { /* krt_run's waits: unit 0's done */
        KrtError e2;
        int rc2 = wr(m->d, REG_IER, 1, rc ? &e2 : e);
        if (!rc)
            rc = rc2;
    }
    return rc;
}

int krt_input_fed(const KrtModel *m, int i)
{
    return i >= 0 && i < m->nin && m->feed[i] >= 0;
}

int krt_frames_in_flight(const KrtModel *m)
{
    return m->flight;
}

int krt_frame_done(const KrtModel *m, int f, uint64_t *t, const char **unit)
{
    if (f < 0 || f >= m->ndone)
        return 0;
    *t = m->done_at[f];
    if (unit)
        *unit = m->d->tr.ops->clock_unit;
    return 1;
}

uint32_t krt_last_cycles(const KrtModel *m)
{
    return m->cycles;
}

int krt_last_by_irq(const KrtModel *m)
{
    return m->by_irq;
}
