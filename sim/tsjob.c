/*
 * The time-shared conv engine (regmap.json "tsconv") as one harness job per
 * part, DIR/sim/tsconv<j>/job.txt: weights.bin placed as for a segment, the
 * map region after it, the descriptor table relocated (map addresses + the
 * region's, weight addresses + weights.bin's) and loaded over weights.bin's
 * copy, SEGMENT = the part's (the top maps it to the part's range of the
 * table).  Then one start of one frame per frame (the table holds one
 * address per map): the maps the part reads from the interpreter's values
 * (those of another part too: each segment from the interpreter, as the
 * dataflow's), the maps it writes poisoned, run, dumped and compared with
 * the interpreter's values of the folded layers.
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-runtime/kiln_sched.h"
#include "host-runtime/kiln_tsdesc.h"
#include "sim/internal.h"

/* tsconv.descriptors (each layer's maps) and tsconv.parts into m->ts. */
static int ts_parse_parts(const char *file, SimMap *m, const cJSON *t, GirError *e)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(t, "descriptors"), *o;
    double v;
    int rc, i = 0, n = m->ts.layers;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
        return sim_error(e, SIM_BAD_INPUT, "%s: tsconv.descriptors: expected %d entries", file, n);
    m->ts.x = calloc((size_t)n + 1, sizeof *m->ts.x);
    m->ts.y = calloc((size_t)n + 1, sizeof *m->ts.y);
    m->ts.parts = calloc((size_t)n + 1, sizeof *m->ts.parts);
    if (!m->ts.x || !m->ts.y || !m->ts.parts)
        gir_die("out of memory");
    cJSON_ArrayForEach(o, a) {
        char where[64];
        snprintf(where, sizeof where, "tsconv.descriptors[%d]", i);
        if ((rc = sim_need_num(file, where, o, "input", 0, m->ts.nmap - 1, &v, e)))
            return rc;
        m->ts.x[i] = (int)v;
        if ((rc = sim_need_num(file, where, o, "output", 0, m->ts.nmap - 1, &v, e)))
            return rc;
        m->ts.y[i++] = (int)v;
    }
    a = cJSON_GetObjectItemCaseSensitive(t, "parts");
    if (!a) { /* one part: the whole table */
        m->ts.parts[0] = (SimTsPart){m->ts.seg, 0, n, m->ts.cycles};
        m->ts.npart = 1;
        return SIM_OK;
    }
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1 || cJSON_GetArraySize(a) > n)
        return sim_error(e, SIM_BAD_INPUT, "%s: tsconv.parts: expected an array of 1 to %d parts",
                         file, n);
    i = 0;
    cJSON_ArrayForEach(o, a) {
        SimTsPart *q = &m->ts.parts[i];
        char where[64];
        snprintf(where, sizeof where, "tsconv.parts[%d]", i);
        if ((rc = sim_need_num(file, where, o, "segment", m->ts.seg + i, m->ts.seg + i, &v, e)))
            return rc;
        q->seg = (int)v;
        if ((rc = sim_need_num(file, where, o, "first", 0, n - 1, &v, e)))
            return rc;
        q->first = (int)v;
        if ((rc = sim_need_num(file, where, o, "count", 1, n - q->first, &v, e)))
            return rc;
        q->count = (int)v;
        if ((rc = sim_need_num(file, where, o, "cycles", 0, 1e15, &q->cycles, e)))
            return rc;
        i++;
    }
    m->ts.npart = i;
    return SIM_OK;
}

/* tsconv.segment_order (each segment and part once; absent: by number) and
 * tsconv.unit into m->ts. */
static int ts_parse_order(const char *file, SimMap *m, const cJSON *t, GirError *e)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(t, "segment_order"), *o;
    int n = m->nseg + m->ts.npart, i = 0, *seen;
    double v;
    m->ts.unit = 0;
    m->ts.flight = 1;
    if (cJSON_GetObjectItemCaseSensitive(t, "unit")) {
        /* the engine's unit: the one after the dataflow segments' (segment
         * k on unit k) */
        int rc = sim_need_num(file, "tsconv", t, "unit", m->nseg, m->nseg, &v, e);
        if (rc)
            return rc;
        m->ts.unit = 1;
    }
    if (cJSON_GetObjectItemCaseSensitive(t, "frames_in_flight")) {
        int rc = sim_need_num(file, "tsconv", t, "frames_in_flight", 1, KILN_SCHED_FLIGHT, &v, e);
        if (rc)
            return rc;
        m->ts.flight = (int)v;
    }
    m->ts.steps = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "steps"));
    m->ts.gate = 0;
    if (cJSON_GetObjectItemCaseSensitive(t, "gate")) {
        int rc = sim_need_num(file, "tsconv", t, "gate", 0, n - 1, &v, e);
        if (rc)
            return rc;
        m->ts.gate = (int)v;
    }
    m->ts.order = calloc((size_t)n + 1, sizeof *m->ts.order);
    seen = calloc((size_t)n + 1, sizeof *seen);
    if (!m->ts.order || !seen)
        gir_die("out of memory");
    if (!a) {
        for (i = 0; i < n; i++)
            m->ts.order[i] = i;
        free(seen);
        return SIM_OK;
    }
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n) {
        free(seen);
        return sim_error(e, SIM_BAD_INPUT, "%s: tsconv.segment_order: expected %d entries", file,
                         n);
    }
    cJSON_ArrayForEach(o, a) {
        if (!cJSON_IsNumber(o) || o->valuedouble < 0 || o->valuedouble >= n ||
            o->valuedouble != (int)o->valuedouble || seen[(int)o->valuedouble]++) {
            free(seen);
            return sim_error(e, SIM_BAD_INPUT, "%s: tsconv.segment_order[%d]: expected each of "
                             "the %d segments once", file, i, n);
        }
        m->ts.order[i++] = (int)o->valuedouble;
    }
    free(seen);
    return SIM_OK;
}

int sim_ts_parse(const char *file, SimMap *m, GirError *e)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(m->doc, "tsconv"), *a, *o;
    double v;
    int rc, i = 0;
    m->ts.seg = -1;
    if (!t)
        return SIM_OK;
    if (!cJSON_IsObject(t))
        return sim_error(e, SIM_BAD_INPUT, "%s: tsconv: expected an object", file);
    if ((rc = sim_need_num(file, "tsconv", t, "segment", 0, 1e6, &v, e)))
        return rc;
    m->ts.seg = (int)v;
    if ((rc = sim_need_num(file, "tsconv", t, "layers", 1, 65535, &v, e)))
        return rc;
    m->ts.layers = (int)v;
    if ((rc = sim_need_num(file, "tsconv", t, "lanes", 1, 4096, &v, e)))
        return rc;
    m->ts.lanes = (int)v;
    if ((rc = sim_need_num(file, "tsconv", t, "table_offset", 0, 1e15, &v, e)))
        return rc;
    m->ts.table_offset = (int64_t)v;
    if ((rc = sim_need_num(file, "tsconv", t, "maps_bytes", 1, 1e12, &v, e)))
        return rc;
    m->ts.maps_bytes = (int64_t)v;
    if ((rc = sim_need_num(file, "tsconv", t, "base_lo", 0x40, m->reg_last, &v, e)))
        return rc;
    m->ts.base_lo = (uint32_t)v;
    if ((rc = sim_need_num(file, "tsconv", t, "base_hi", 0x40, m->reg_last, &v, e)))
        return rc;
    m->ts.base_hi = (uint32_t)v;
    if ((rc = sim_need_num(file, "tsconv", t, "cycles", 0, 1e15, &v, e)))
        return rc;
    m->ts.cycles = v;
    if (!(a = cJSON_GetObjectItemCaseSensitive(t, "maps")) || !cJSON_IsArray(a))
        return sim_error(e, SIM_BAD_INPUT, "%s: tsconv.maps: expected an array", file);
    m->ts.maps = calloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *m->ts.maps);
    if (!m->ts.maps)
        gir_die("out of memory");
    cJSON_ArrayForEach(o, a) {
        SimTsMap *p = &m->ts.maps[i];
        const char *role = "";
        char where[64];
        snprintf(where, sizeof where, "tsconv.maps[%d]", i);
        if ((rc = sim_need_str(file, where, o, "value", &p->value, e)) ||
            (rc = sim_need_str(file, where, o, "role", &role, e)))
            return rc;
        p->role = !strcmp(role, "input") ? 0 : !strcmp(role, "output") ? 1
                  : !strcmp(role, "scratch") ? 2 : -1;
        if (p->role < 0)
            return sim_error(e, SIM_BAD_INPUT, "%s: %s.role: '%s' is not input, output or "
                             "scratch", file, where, role);
        if ((rc = sim_need_num(file, where, o, "offset", 0, (double)m->ts.maps_bytes, &v, e)))
            return rc;
        p->offset = (int64_t)v;
        if ((rc = sim_need_num(file, where, o, "h", 1, 1 << 16, &v, e)))
            return rc;
        p->h = (int)v;
        if ((rc = sim_need_num(file, where, o, "w", 1, 1 << 16, &v, e)))
            return rc;
        p->w = (int)v;
        if ((rc = sim_need_num(file, where, o, "c", 1, 1 << 16, &v, e)))
            return rc;
        p->c = (int)v;
        if ((rc = sim_need_num(file, where, o, "frame_bytes", 1, 1 << 30, &v, e)))
            return rc;
        p->frame_bytes = (int64_t)v;
        if (p->offset + p->frame_bytes > m->ts.maps_bytes ||
            p->frame_bytes < (int64_t)p->h * p->w * ((p->c + m->ts.lanes - 1) / m->ts.lanes) *
                                 m->ts.lanes)
            return sim_error(e, SIM_BAD_INPUT, "%s: %s: a %dx%dx%d map does not fit %" PRId64
                             " bytes at %" PRId64 " of the %" PRId64 "-byte region", file, where,
                             p->h, p->w, p->c, p->frame_bytes, p->offset, m->ts.maps_bytes);
        i++;
    }
    m->ts.nmap = i;
    if ((rc = ts_parse_parts(file, m, t, e)))
        return rc;
    return ts_parse_order(file, m, t, e);
}

/* The map as the channel sim_ddr_image takes. */
static SimChan ts_chan(const SimMap *m, const SimTsMap *p)
{
    SimChan c;
    memset(&c, 0, sizeof c);
    c.name = "ts";
    c.value = p->value;
    c.lanes = m->ts.lanes;
    c.h = p->h, c.w = p->w, c.c = p->c;
    c.frame_bytes = p->frame_bytes;
    c.source = -1;
    return c;
}

/* The frame-f image of map p (the interpreter's value) into path. */
static int ts_image(const Sim *s, const SimTsMap *p, int f, const char *path, uint8_t *img,
                    GirError *e)
{
    SimChan c = ts_chan(s->map, p);
    const GirTensor *t = sim_ref_value(&s->ref, f, p->value);
    int vid = gir_find_value(s->ref.g, p->value), rc;
    FILE *b;
    if (!t || vid < 0)
        return sim_error(e, SIM_BAD_INPUT, "%s: tsconv: value '%s' is not a value of model.gir",
                         s->rpath, p->value);
    if ((rc = sim_ddr_image(s, &c, &s->ref.g->vals[vid], t, img, e)))
        return rc;
    if (!path)
        return SIM_OK;
    b = fopen(path, "wb");
    if (!b || fwrite(img, 1, (size_t)p->frame_bytes, b) != (size_t)p->frame_bytes) {
        if (b)
            fclose(b);
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot write", path);
    }
    if (fclose(b) != 0)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot write", path);
    return SIM_OK;
}

/* The relocated descriptor table into path. */
static int ts_table(const Sim *s, uint64_t wbase, uint64_t mbase, const char *path, GirError *e)
{
    const SimTs *t = &s->map->ts;
    const char *wpath = gir_arena_printf(s->run, "%s/rtl/weights.bin", s->dir);
    size_t len = 0, n = 128 * (size_t)t->layers;
    char *w = gir_read_file(wpath, &len);
    FILE *b;
    if (!w)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot read: %s", wpath, strerror(errno));
    if ((uint64_t)t->table_offset + n > len) {
        free(w);
        return sim_error(e, SIM_BAD_INPUT, "%s: tsconv.table_offset: %" PRId64 " + %zu bytes "
                         "past the end of weights.bin (%zu bytes)", s->rpath, t->table_offset, n,
                         len);
    }
    kiln_ts_relocate((uint8_t *)w + t->table_offset, t->layers, mbase, wbase);
    b = fopen(path, "wb");
    if (!b || fwrite(w + t->table_offset, 1, n, b) != n || fclose(b) != 0) {
        free(w);
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot write", path);
    }
    free(w);
    return SIM_OK;
}

/* What part q does with map k: 1 writes it, 0 only reads it, -1 neither. */
static int ts_use(const SimTs *t, const SimTsPart *q, int k)
{
    int i, use = -1;
    for (i = q->first; i < q->first + q->count; i++) {
        if (t->y[i] == k)
            return 1;
        if (t->x[i] == k)
            use = 0;
    }
    return use;
}

/* A buffer as large as the largest of the engine's maps (one frame). */
static uint8_t *map_buffer(const SimTs *t)
{
    size_t most = 1;
    uint8_t *img;
    int k;
    for (k = 0; k < t->nmap; k++)
        if ((size_t)t->maps[k].frame_bytes > most)
            most = (size_t)t->maps[k].frame_bytes;
    img = malloc(most);
    if (!img)
        gir_die("out of memory");
    return img;
}

/* The job of part q into sd/job.txt. */
static int ts_write_job(Sim *s, const SimTsPart *q, const char *sd, const char *job, GirError *e)
{
    const SimTs *t = &s->map->ts;
    SimDdr d = {SIM_DDR_BASE, 0, 0};
    uint64_t mbase;
    const char *wpath = gir_arena_printf(s->run, "%s/rtl/weights.bin", s->dir);
    const char *tpath = gir_arena_printf(s->run, "%s/table.bin", sd);
    struct stat st;
    uint8_t *img;
    FILE *j;
    int f, k, rc = SIM_OK;
    if (stat(wpath, &st) != 0)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot read: %s (the shared engine's table)",
                         wpath, strerror(errno));
    if (!(j = fopen(job, "w")))
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot write: %s", job, strerror(errno));
    d.wlen = (size_t)st.st_size;
    d.wbase = d.next;
    d.next += (d.wlen + 4095) / 4096 * 4096 + 4096;
    mbase = d.next;
    fprintf(j, "# kiln simulate: the shared engine's layers %d..%d (SEGMENT %d)\nlatency %ld\n"
               "cap %ld\n", q->first, q->first + q->count - 1, q->seg, s->o->latency, s->cap);
    fprintf(j, "region 0x%" PRIx64 " %zu\nload 0x%" PRIx64 " %s\n", d.wbase, d.wlen, d.wbase,
            wpath);
    fprintf(j, "region 0x%" PRIx64 " %" PRId64 "\n", mbase, t->maps_bytes);
    if ((rc = ts_table(s, d.wbase, mbase, tpath, e))) {
        fclose(j);
        return rc;
    }
    fprintf(j, "load 0x%" PRIx64 " %s\n", d.wbase + (uint64_t)t->table_offset, tpath);
    fprintf(j, "write 0x%x %d\nwrite 0x%x 0x%" PRIx32 "\nwrite 0x%x 0x%" PRIx32 "\n"
               "write 0x%x 1\n",
            s->map->reg_segment, q->seg, t->base_lo,
            (uint32_t)(d.wbase + (uint64_t)t->table_offset), t->base_hi,
            (uint32_t)((d.wbase + (uint64_t)t->table_offset) >> 32), s->map->reg_frames);
    img = map_buffer(t);
    for (f = 0; f < s->o->frames && rc == SIM_OK; f++) {
        for (k = 0; k < t->nmap && rc == SIM_OK; k++) {
            const SimTsMap *p = &t->maps[k];
            uint64_t a = mbase + (uint64_t)p->offset;
            int use = ts_use(t, q, k);
            if (use < 0)
                continue;
            if (use == 0) {
                const char *path = gir_arena_printf(s->run, "%s/map%d-f%d.bin", sd, k, f);
                if ((rc = ts_image(s, p, f, path, img, e)) == SIM_OK)
                    fprintf(j, "load 0x%" PRIx64 " %s\n", a, path);
            } else {
                fprintf(j, "fill 0x%" PRIx64 " %" PRId64 " 0x5a\n", a, p->frame_bytes);
            }
        }
        fprintf(j, "start f%d %d\nread f%d.cycles 0x0c\nread f%d.error 0x08\n", f,
                f == 0 ? 3 : 1, f, f);
        for (k = 0; k < t->nmap; k++)
            if (ts_use(t, q, k) == 1)
                fprintf(j, "dump 0x%" PRIx64 " %" PRId64 " %s/map%d-f%d.out\n",
                        mbase + (uint64_t)t->maps[k].offset, t->maps[k].frame_bytes, sd, k, f);
    }
    free(img);
    if (fclose(j) != 0 && rc == SIM_OK)
        rc = sim_error(e, SIM_BAD_INPUT, "%s: cannot write", job);
    return rc;
}

/* Compare every map part q writes, of every frame; differing bytes into
 * *bad, the first one logged. */
static int ts_compare(Sim *s, const SimTsPart *q, const char *sd, long *bad, GirError *e)
{
    const SimTs *t = &s->map->ts;
    int f, k, rc;
    for (f = 0; f < s->o->frames; f++)
        for (k = 0; k < t->nmap; k++) {
            const SimTsMap *p = &t->maps[k];
            const char *path = gir_arena_printf(s->run, "%s/map%d-f%d.out", sd, k, f);
            size_t len = 0, i;
            uint8_t *want;
            char *got;
            long n = 0;
            if (ts_use(t, q, k) != 1)
                continue;
            if (!(got = gir_read_file(path, &len)) || len != (size_t)p->frame_bytes) {
                free(got);
                return sim_error(e, SIM_FAILED, "simulate: the shared engine: %s: missing or "
                                 "short dump", path);
            }
            want = malloc((size_t)p->frame_bytes);
            if (!want)
                gir_die("out of memory");
            if ((rc = ts_image(s, p, f, NULL, want, e))) {
                free(got);
                free(want);
                return rc;
            }
            for (i = 0; i < len; i++)
                if ((uint8_t)got[i] != want[i]) {
                    if (n == 0)
                        sim_log(s, "simulate: the shared engine (segment %d): frame %d, '%s': "
                                "byte %zu is %d, the interpreter's %d\n", q->seg, f, p->value, i,
                                (int8_t)got[i], (int8_t)want[i]);
                    n++;
                }
            *bad += n;
            free(got);
            free(want);
        }
    return SIM_OK;
}

int sim_job_tsconv(Sim *s, int part, SimSegment *r, GirError *e)
{
    const SimTsPart *q = &s->map->ts.parts[part];
    const char *sd = gir_arena_printf(s->run, "%s/sim/tsconv%d", s->dir, part);
    const char *job = gir_arena_printf(s->run, "%s/job.txt", sd);
    char *text, key[32];
    int f, rc;
    if (mkdir(sd, 0777) != 0 && errno != EEXIST)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot create: %s", sd, strerror(errno));
    if ((rc = ts_write_job(s, q, sd, job, e)))
        return rc;
    sim_log(s, "simulate: the shared engine's part %d (segment %d, %d layers): %d frames, one "
            "start each\n", part, q->seg, q->count, s->o->frames);
    if ((rc = sim_harness_run(s, sd, job, "the shared engine", &text, NULL, e)))
        return rc;
    memset(r, 0, sizeof *r);
    r->sim_cycles = sim_job_get(text, "cycles", NULL);
    r->interval = -1;
    for (f = 0; f < s->o->frames; f++) {
        double w = 0;
        long c, er;
        snprintf(key, sizeof key, "f%d.cycles", f);
        c = sim_job_get(text, key, NULL);
        snprintf(key, sizeof key, "f%d.error", f);
        er = sim_job_get(text, key, NULL);
        snprintf(key, sizeof key, "f%d", f);
        sim_job_get(text, key, &w);
        r->wall_s += w;
        if (er != 0) {
            free(text);
            return sim_error(e, SIM_FAILED, "simulate: the shared engine: ERROR register 0x%lx "
                             "after frame %d (an AXI response error or a descriptor it cannot "
                             "run)", er, f);
        }
        if (f == 0)
            r->cold_cycles = r->lat_cycles = c;
        else
            r->lat_cycles = c; /* a warm frame: the table and weights seen before */
        if (f > 0 && c > r->interval)
            r->interval = (double)c; /* the engine's frame: one frame in, one frame out */
        r->warm_cycles += c;
    }
    free(text);
    sim_log(s, "simulate: the shared engine's part %d: %ld cycles a frame, predicted %.0f\n", part,
            r->lat_cycles, q->cycles);
    return ts_compare(s, q, sd, &r->mismatches, e);
}

/* ---- the frames with the engine beside the dataflow ---------------------- */

/* The DDR of the beside job: weights.bin, every segment's buffers, the
 * engine's map region and table once a frame. */
typedef struct {
    uint64_t mbase;  /* frame 0's map region */
    uint64_t mstep;  /* bytes from one frame's region to the next */
    uint64_t tbase;  /* frame 0's table */
    uint64_t tstep;  /* bytes from one frame's table to the next */
} BesideDdr;

/* Job lines that run entry e of frame f on its unit (go; the waits come
 * after both units of the step are started). */
static void beside_go(Sim *s, const BesideDdr *b, int e, int f, FILE *j)
{
    const SimMap *m = s->map;
    int sg = m->ts.order[e], i, u;
    if (sg >= m->nseg) { /* a part: frame f's table */
        uint64_t t = b->tbase + (uint64_t)f * b->tstep;
        fprintf(j, "write 0x%x 0x%" PRIx32 "\nwrite 0x%x 0x%" PRIx32 "\n", m->ts.base_lo,
                (uint32_t)t, m->ts.base_hi, (uint32_t)(t >> 32));
    } else {
        for (i = 0; i < m->nchan; i++) { /* frame f's place in each buffer */
            const SimChan *c = &m->chan[i];
            uint64_t a = c->addr + (uint64_t)f * (uint64_t)c->frame_bytes;
            if (c->segment != sg || c->weight || c->source >= 0)
                continue;
            fprintf(j, "write 0x%x 0x%" PRIx32 "\nwrite 0x%x 0x%" PRIx32 "\n", c->base_lo,
                    (uint32_t)a, c->base_hi, (uint32_t)(a >> 32));
        }
    }
    /* CTRL: unit u's start bit (segment k's unit k, the engine's unit nseg) */
    u = KILN_UNIT_OF(sg, m->nseg);
    fprintf(j, "write 0x%x %d\nwrite 0x%x 1\ngo go.e%d.f%d %u\n", m->reg_segment, sg,
            m->reg_frames, e, f, KILN_UNIT_START(u));
}

/* The job: weights.bin once, each segment's buffers of every frame (inputs
 * the interpreter's), each segment with resident weights started once to
 * load them, the engine's region and relocated table once a frame (maps
 * no part writes the interpreter's), outputs poisoned, then the steps. */
static int beside_write_job(Sim *s, const KilnEvent *ev, const char *sd, const char *job,
                            GirError *e)
{
    SimMap *m = s->map;
    const SimTs *t = &m->ts;
    SimDdr d = {SIM_DDR_BASE, 0, 0};
    BesideDdr b;
    const char *wpath = gir_arena_printf(s->run, "%s/rtl/weights.bin", s->dir);
    struct stat st;
    int n = m->nseg + t->npart, F = s->o->frames, sg, f, k, i, rc = SIM_OK;
    uint8_t *img;
    FILE *j;
    if (stat(wpath, &st) != 0)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot read: %s (the shared engine's table)",
                         wpath, strerror(errno));
    if (!(j = fopen(job, "w")))
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot write: %s", job, strerror(errno));
    fprintf(j, "# kiln simulate: %d frames, the shared engine's parts on unit %d beside the "
               "dataflow's segments (segment k on unit k)\nlatency %ld\ncap %ld\n", F, m->nseg,
            s->o->latency, s->cap);
    d.wlen = (size_t)st.st_size;
    d.wbase = d.next;
    fprintf(j, "region 0x%" PRIx64 " %zu\nload 0x%" PRIx64 " %s\n", d.wbase, d.wlen, d.wbase,
            wpath);
    d.next += (d.wlen + 4095) / 4096 * 4096 + 4096;
    for (sg = 0; sg < m->nseg && rc == SIM_OK; sg++)
        rc = sim_ddr_buffers(s, sg, &d, sd, j, e);
    b.mstep = ((uint64_t)t->maps_bytes + 4095) / 4096 * 4096;
    b.mbase = d.next;
    fprintf(j, "region 0x%" PRIx64 " %" PRIu64 "\n", b.mbase, b.mstep * (uint64_t)F);
    d.next += b.mstep * (uint64_t)F + 4096;
    b.tstep = (128 * (uint64_t)t->layers + 4095) / 4096 * 4096;
    b.tbase = d.next;
    fprintf(j, "region 0x%" PRIx64 " %" PRIu64 "\n", b.tbase, b.tstep * (uint64_t)F);
    for (f = 0; f < F && rc == SIM_OK; f++) {
        const char *tp = gir_arena_printf(s->run, "%s/table%d.bin", sd, f);
        if ((rc = ts_table(s, d.wbase, b.mbase + (uint64_t)f * b.mstep, tp, e)) == SIM_OK)
            fprintf(j, "load 0x%" PRIx64 " %s\n", b.tbase + (uint64_t)f * b.tstep, tp);
    }
    img = map_buffer(t);
    for (f = 0; f < F && rc == SIM_OK; f++)
        for (k = 0; k < t->nmap && rc == SIM_OK; k++) {
            uint64_t a = b.mbase + (uint64_t)f * b.mstep + (uint64_t)t->maps[k].offset;
            int written = 0;
            for (i = 0; i < t->npart; i++)
                written |= ts_use(t, &t->parts[i], k) == 1;
            if (!written) {
                const char *path = gir_arena_printf(s->run, "%s/map%d-f%d.bin", sd, k, f);
                if ((rc = ts_image(s, &t->maps[k], f, path, img, e)) == SIM_OK)
                    fprintf(j, "load 0x%" PRIx64 " %s\n", a, path);
            } else {
                fprintf(j, "fill 0x%" PRIx64 " %" PRId64 " 0x5a\n", a, t->maps[k].frame_bytes);
            }
        }
    free(img);
    /* the resident weights: one start of frame 0 each (CTRL bit1), before
     * the outputs are poisoned */
    for (sg = 0; sg < m->nseg && rc == SIM_OK; sg++) {
        int res = 0;
        for (i = 0; i < m->nchan; i++)
            res |= m->chan[i].segment == sg && m->chan[i].weight && m->chan[i].resident;
        if (res)
            fprintf(j, "write 0x%x %d\nwrite 0x%x 1\nstart load%d 3\n", m->reg_segment, sg,
                    m->reg_frames, sg);
    }
    for (sg = 0; sg < m->nseg; sg++)
        sim_ddr_poison(s, sg, j);
    for (k = 0; rc == SIM_OK && k < 2 * n * F; k++) /* the runs in the events' order */
        if (ev[k].go)
            beside_go(s, &b, ev[k].entry, ev[k].frame, j);
        else
            fprintf(j, "wait end.e%d.f%d %u\nread cyc.e%d.f%d 0x%x\n", ev[k].entry, ev[k].frame,
                    KILN_UNIT_DONE(ev[k].unit), ev[k].entry, ev[k].frame,
                    KILN_UNIT_CYCLES(ev[k].unit));
    fprintf(j, "read beside.error 0x08\n");
    for (sg = 0; sg < m->nseg; sg++)
        for (i = 0; i < m->nchan; i++)
            if (m->chan[i].segment == sg && !m->chan[i].rd)
                fprintf(j, "dump 0x%" PRIx64 " %" PRId64 " %s/%s.bin\n", m->chan[i].addr,
                        m->chan[i].frame_bytes * F, sd, m->chan[i].name);
    for (f = 0; f < F; f++)
        for (k = 0; k < t->nmap; k++)
            for (i = 0; i < t->npart; i++)
                if (ts_use(t, &t->parts[i], k) == 1) {
                    fprintf(j, "dump 0x%" PRIx64 " %" PRId64 " %s/map%d-f%d.out\n",
                            b.mbase + (uint64_t)f * b.mstep + (uint64_t)t->maps[k].offset,
                            t->maps[k].frame_bytes, sd, k, f);
                    break;
                }
    if (fclose(j) != 0 && rc == SIM_OK)
        rc = sim_error(e, SIM_BAD_INPUT, "%s: cannot write", job);
    return rc;
}

/* The plan's fold.runs (a frame's runs in segment_order) into dur; 0, or
 * -1 when plan.json has none of n entries. */
static int beside_plan_runs(const Sim *s, int n, long long *dur)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(s->plan, "fold");
    const cJSON *a = f ? cJSON_GetObjectItemCaseSensitive(f, "runs") : NULL, *o;
    int i = 0;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
        return -1;
    cJSON_ArrayForEach(o, a) {
        if (!cJSON_IsNumber(o))
            return -1;
        dur[i++] = (long long)o->valuedouble;
    }
    return 0;
}

int sim_job_beside(Sim *s, SimResult *r, GirError *e)
{
    const SimMap *m = s->map;
    SimBeside *z = &r->beside;
    const char *sd = gir_arena_printf(s->run, "%s/sim/beside", s->dir);
    const char *job = gir_arena_printf(s->run, "%s/job.txt", sd);
    int n = m->nseg + m->ts.npart, F = s->o->frames, *unit, i, sg, rc;
    long long *dur;
    long t0 = -1, t1 = -1;
    char *text, key[64];
    KilnEvent *ev;
    memset(z, 0, sizeof *z);
    if (mkdir(sd, 0777) != 0 && errno != EEXIST)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot create: %s", sd, strerror(errno));
    /* the order of the runs: the events of the plan's runs (fold.runs; all
     * alike when not given) in kiln_sched_time */
    unit = calloc((size_t)n + 1, sizeof *unit);
    dur = calloc((size_t)n + 1, sizeof *dur);
    ev = calloc((size_t)(2 * n * F) + 1, sizeof *ev);
    if (!unit || !dur || !ev)
        gir_die("out of memory");
    for (i = 0; i < n; i++)
        unit[i] = KILN_UNIT_OF(m->ts.order[i], m->nseg);
    z->predicted_total = -1;
    if (beside_plan_runs(s, n, dur) < 0)
        for (i = 0; i < n; i++)
            dur[i] = 1;
    t0 = (long)kiln_sched_time(n, unit, dur, F, m->ts.flight, m->ts.steps, m->ts.gate, NULL,
                                  NULL, ev, NULL);
    if (beside_plan_runs(s, n, dur) == 0)
        z->predicted_total = (double)t0;
    rc = beside_write_job(s, ev, sd, job, e);
    free(ev);
    if (rc) {
        free(unit);
        free(dur);
        return rc;
    }
    sim_log(s, "simulate: %d frames, the shared engine beside the dataflow (%d in flight%s, "
            "gate %d)\n", F, m->ts.flight, m->ts.steps ? ", in steps" : "", m->ts.gate);
    if ((rc = sim_harness_run(s, sd, job, "the engine beside the dataflow", &text, &z->wall_s, e))) {
        free(unit);
        free(dur);
        return rc;
    }
    if (sim_job_get(text, "beside.error", NULL) != 0) {
        rc = sim_error(e, SIM_FAILED, "simulate: the engine beside the dataflow: ERROR register not 0 "
                       "after the run (%s)", sd);
        free(unit);
        free(dur);
        free(text);
        return rc;
    }
    z->ran = 1;
    z->n = n;
    z->run = gir_arena_alloc(s->run, sizeof *z->run * (size_t)(n + 1));
    z->first = gir_arena_alloc(s->run, sizeof *z->first * (size_t)(n + 1));
    for (i = 0; i < n; i++) {
        snprintf(key, sizeof key, "cyc.e%d.f%d", i, F - 1);
        z->run[i] = sim_job_get(text, key, NULL);
        snprintf(key, sizeof key, "cyc.e%d.f0", i);
        z->first[i] = sim_job_get(text, key, NULL);
        dur[i] = z->run[i];
    }
    t0 = sim_job_get(text, "go.e0.f0", NULL);
    snprintf(key, sizeof key, "end.e%d.f%d", n - 1, F - 1);
    t1 = sim_job_get(text, key, NULL);
    z->total = t1 - t0;
    z->sim_cycles = sim_job_get(text, "cycles", NULL);
    kiln_sched_steady(n, unit, dur, m->ts.flight, m->ts.steps, m->ts.gate, &z->interval,
                      &z->latency, NULL);
    free(unit);
    free(dur);
    free(text);
    for (sg = 0; sg < m->nseg && rc == SIM_OK; sg++)
        rc = sim_compare_frames(s, sg, sd, "beside", &z->mismatches, e);
    for (i = 0; i < m->ts.npart && rc == SIM_OK; i++)
        rc = ts_compare(s, &m->ts.parts[i], sd, &z->mismatches, e);
    return rc;
}
