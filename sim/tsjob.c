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
    return ts_parse_parts(file, m, t, e);
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
    size_t most = 1;
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
    for (k = 0; k < t->nmap; k++)
        if ((size_t)t->maps[k].frame_bytes > most)
            most = (size_t)t->maps[k].frame_bytes;
    img = malloc(most);
    if (!img)
        gir_die("out of memory");
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
    const char *res = gir_arena_printf(s->run, "%s/result.txt", sd);
    const char *log = gir_arena_printf(s->run, "%s/harness.log", sd);
    char *argv[6];
    char *text, key[32];
    const char *l;
    int status, f, rc;
    if (mkdir(sd, 0777) != 0 && errno != EEXIST)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot create: %s", sd, strerror(errno));
    if ((rc = ts_write_job(s, q, sd, job, e)))
        return rc;
    sim_harness_argv(s, job, res, argv);
    sim_log(s, "simulate: the shared engine's part %d (segment %d, %d layers): %d frames, one "
            "start each\n", part, q->seg, q->count, s->o->frames);
    unlink(res);
    unlink(log);
    status = sim_run_logged(s, argv, log, "simulating");
    text = gir_read_file(res, NULL);
    if (!text)
        return sim_error(e, SIM_BAD_INPUT, "simulate: the harness wrote no result (%s/harness.log)",
                         sd);
    for (l = text; l && *l && strncmp(l, "error ", 6) != 0;) {
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    if (l && *l) {
        const char *nl = strchr(l, '\n');
        rc = sim_error(e, SIM_FAILED, "simulate: the shared engine: %.*s",
                       (int)(nl ? nl - l - 6 : (long)strlen(l + 6)), l + 6);
        free(text);
        return rc;
    }
    if (status != 0) {
        free(text);
        return sim_error(e, SIM_FAILED, "simulate: the shared engine: the harness failed "
                         "(%s/harness.log)", sd);
    }
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
