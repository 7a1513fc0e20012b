/*
 * regmap.json, the register map `kiln compile` writes into DIR/rtl/: the
 * registers simulate drives (SEGMENT, FRAMES), the FPGA segments, every DMA
 * channel with its base registers and DDR layout, and the PERF registers.
 * Everything is checked before use: a member of the wrong kind or out of
 * range fails with the JSON path (e.g. `channels[1].frame_bytes: expected a
 * number`).  The JSON helpers here serve plan.json's reader too.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"

int sim_json_num(const cJSON *o, const char *key, double *v)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    char *end;
    if (cJSON_IsNumber(j)) {
        *v = j->valuedouble;
        return 0;
    }
    if (cJSON_IsString(j) && j->valuestring[0]) {
        *v = (double)strtoull(j->valuestring, &end, 0);
        return *end ? -1 : 0;
    }
    return -1;
}

int sim_need_num(const char *file, const char *where, const cJSON *o, const char *key, double lo,
                 double hi, double *v, GirError *e)
{
    if (sim_json_num(o, key, v) < 0)
        return sim_error(e, SIM_BAD_INPUT, "%s: %s.%s: expected a number", file, where, key);
    if (*v < lo || *v > hi || *v != floor(*v))
        return sim_error(e, SIM_BAD_INPUT, "%s: %s.%s: %.17g out of range [%.0f, %.0f]", file,
                         where, key, *v, lo, hi);
    return SIM_OK;
}

int sim_need_str(const char *file, const char *where, const cJSON *o, const char *key,
                 const char **v, GirError *e)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(j) || !j->valuestring[0])
        return sim_error(e, SIM_BAD_INPUT, "%s: %s.%s: expected a non-empty string", file, where,
                         key);
    *v = j->valuestring;
    return SIM_OK;
}

const cJSON *sim_need_array(const char *file, const cJSON *o, const char *key, GirError *e)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsArray(j)) {
        sim_error(e, SIM_BAD_INPUT, "%s: %s: expected an array", file, key);
        return NULL;
    }
    return j;
}

/* The JSON object of text (path names it), or NULL after an error. */
static cJSON *parse_object(const char *text, const char *path, GirError *e)
{
    const char *at;
    cJSON *j = cJSON_ParseWithOpts(text, &at, 1);
    if (!j || !cJSON_IsObject(j)) {
        int line = 1;
        const char *s;
        if (!j) {
            for (s = text; s < at && *s; s++)
                line += *s == '\n';
            sim_error(e, SIM_BAD_INPUT, "%s:%d: malformed JSON", path, line);
        } else {
            sim_error(e, SIM_BAD_INPUT, "%s: expected a JSON object", path);
        }
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

cJSON *sim_json_load(const char *path, GirError *e)
{
    char *text = gir_read_file(path, NULL);
    cJSON *j;
    if (!text) {
        sim_error(e, SIM_BAD_INPUT, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    j = parse_object(text, path, e);
    free(text);
    return j;
}

/* The members of a weight channel (where: "channels[i]"). */
static int parse_weight(const char *file, const char *where, const cJSON *o, SimChan *c,
                        GirError *e)
{
    const cJSON *r;
    double v;
    int rc;
    if (!c->rd)
        return sim_error(e, SIM_BAD_INPUT, "%s: %s: weight channel '%s' is not a read channel",
                         file, where, c->name);
    if ((rc = sim_need_num(file, where, o, "offset", 0, 1e15, &v, e)))
        return rc;
    c->offset = (int64_t)v;
    if ((rc = sim_need_num(file, where, o, "bytes", 1, 1e15, &v, e)))
        return rc;
    c->bytes = (int64_t)v;
    r = cJSON_GetObjectItemCaseSensitive(o, "resident");
    if (!cJSON_IsBool(r))
        return sim_error(e, SIM_BAD_INPUT, "%s: %s.resident: expected true or false", file,
                         where);
    c->resident = cJSON_IsTrue(r);
    /* a banded conv's set is read once a band */
    c->subs = 1;
    if (cJSON_GetObjectItemCaseSensitive(o, "subs")) {
        if ((rc = sim_need_num(file, where, o, "subs", 1, 1 << 20, &v, e)))
            return rc;
        c->subs = (int)v;
    }
    return SIM_OK;
}

/* The members of a tensor channel: value, map shape, DDR frame size. */
static int parse_tensor(const char *file, const char *where, const cJSON *o, SimChan *c,
                        GirError *e)
{
    static const char *const keys[] = {"lanes", "h", "w", "c"};
    static const double hi[] = {4096, 1 << 16, 1 << 16, 1 << 16};
    int *dst[] = {&c->lanes, &c->h, &c->w, &c->c};
    int64_t raw;
    double v;
    int rc, k;
    if ((rc = sim_need_str(file, where, o, "value", &c->value, e)))
        return rc;
    for (k = 0; k < 4; k++) {
        if ((rc = sim_need_num(file, where, o, keys[k], 1, hi[k], &v, e)))
            return rc;
        *dst[k] = (int)v;
    }
    if ((rc = sim_need_num(file, where, o, "frame_bytes", 1, 1 << 30, &v, e)))
        return rc;
    c->frame_bytes = (int64_t)v;
    c->subs = 1;
    if (cJSON_GetObjectItemCaseSensitive(o, "subs")) {
        if ((rc = sim_need_num(file, where, o, "subs", 1, 1 << 20, &v, e)))
            return rc;
        c->subs = (int)v;
    }
    if (cJSON_GetObjectItemCaseSensitive(o, "source")) {
        if ((rc = sim_need_str(file, where, o, "source", &c->source_name, e)))
            return rc;
        if (!c->rd)
            return sim_error(e, SIM_BAD_INPUT, "%s: %s.source: only a read channel has a source",
                             file, where);
    }
    raw = (int64_t)c->h * c->w * ((c->c + c->lanes - 1) / c->lanes) * c->lanes;
    if (c->frame_bytes < raw)
        return sim_error(e, SIM_BAD_INPUT, "%s: %s.frame_bytes: %" PRId64 " is less than the %"
                         PRId64 " bytes of a %dx%dx%d map in %d lanes", file, where,
                         c->frame_bytes, raw, c->h, c->w, c->c, c->lanes);
    return SIM_OK;
}

/* Channel idx of "channels". */
static int parse_chan(const char *file, const cJSON *o, int idx, uint32_t last, SimChan *c,
                      GirError *e)
{
    char where[64];
    const char *dir = NULL;
    double v;
    int rc;
    snprintf(where, sizeof where, "channels[%d]", idx);
    if (!cJSON_IsObject(o))
        return sim_error(e, SIM_BAD_INPUT, "%s: %s: expected an object", file, where);
    if ((rc = sim_need_str(file, where, o, "name", &c->name, e)) ||
        (rc = sim_need_str(file, where, o, "dir", &dir, e)))
        return rc;
    if (strcmp(dir, "rd") && strcmp(dir, "wr"))
        return sim_error(e, SIM_BAD_INPUT, "%s: %s.dir: '%s' is neither \"rd\" nor \"wr\"", file,
                         where, dir);
    c->rd = !strcmp(dir, "rd");
    if ((rc = sim_need_num(file, where, o, "data_w", 16, 128, &v, e)))
        return rc;
    if (v != 16 && v != 32 && v != 64 && v != 128)
        return sim_error(e, SIM_BAD_INPUT, "%s: %s.data_w: %.0f (expected 16, 32, 64 or 128)",
                         file, where, v);
    c->data_w = (int)v;
    if ((rc = sim_need_num(file, where, o, "segment", 0, 1e6, &v, e)))
        return rc;
    c->segment = (int)v;
    if ((rc = sim_need_num(file, where, o, "base_lo", 0x40, last, &v, e)))
        return rc;
    c->base_lo = (uint32_t)v;
    if ((rc = sim_need_num(file, where, o, "base_hi", 0x40, last, &v, e)))
        return rc;
    c->base_hi = (uint32_t)v;
    c->weight = c->name[0] == 'w';
    return c->weight ? parse_weight(file, where, o, c, e) : parse_tensor(file, where, o, c, e);
}

/* A register's offset by name from "registers". */
static int find_reg(const char *file, const cJSON *regs, const char *name, uint32_t last,
                    uint32_t *off, GirError *e)
{
    const cJSON *r;
    int i = 0;
    cJSON_ArrayForEach(r, regs) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "name");
        double v;
        char where[64];
        if (cJSON_IsString(n) && !strcmp(n->valuestring, name)) {
            snprintf(where, sizeof where, "registers[%d]", i);
            if (sim_need_num(file, where, r, "offset", 0, last, &v, e))
                return SIM_BAD_INPUT;
            *off = (uint32_t)v;
            return SIM_OK;
        }
        i++;
    }
    return sim_error(e, SIM_BAD_INPUT, "%s: registers: no register named '%s'", file, name);
}

/* "channels", then each reader's source: a writer of its segment whose
 * buffer it reads. */
static int parse_chans(const char *file, SimMap *m, GirError *e)
{
    const cJSON *a = sim_need_array(file, m->doc, "channels", e), *o;
    int i = 0, rc;
    if (!a)
        return SIM_BAD_INPUT;
    m->chan = calloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *m->chan);
    if (!m->chan)
        gir_die("out of memory");
    cJSON_ArrayForEach(o, a) {
        if (i == SIM_MAX_CHANS)
            return sim_error(e, SIM_BAD_INPUT, "%s: channels: more than %d", file, SIM_MAX_CHANS);
        if ((rc = parse_chan(file, o, i, m->reg_last, &m->chan[i], e)))
            return rc;
        if (m->chan[i].segment >= m->nseg)
            return sim_error(e, SIM_BAD_INPUT, "%s: channels[%d].segment: %d, but there are %d "
                             "segments", file, i, m->chan[i].segment, m->nseg);
        i++;
    }
    m->nchan = i;
    for (i = 0; i < m->nchan; i++) {
        SimChan *c = &m->chan[i];
        int k;
        c->source = -1;
        if (!c->source_name)
            continue;
        for (k = 0; k < m->nchan; k++)
            if (!m->chan[k].rd && !strcmp(m->chan[k].name, c->source_name))
                c->source = k;
        if (c->source < 0 || m->chan[c->source].segment != c->segment ||
            m->chan[c->source].frame_bytes != c->frame_bytes)
            return sim_error(e, SIM_BAD_INPUT, "%s: channels[%d].source: '%s' is not a write "
                             "channel of segment %d with frame_bytes %" PRId64, file, i,
                             c->source_name, c->segment, c->frame_bytes);
    }
    return SIM_OK;
}

/* "perf": stage indexes of a plan of nstages stages. */
static int parse_perf(const char *file, SimMap *m, int nstages, GirError *e)
{
    const cJSON *a = sim_need_array(file, m->doc, "perf", e), *o;
    double v;
    int i = 0, rc;
    if (!a)
        return SIM_BAD_INPUT;
    m->nperf = cJSON_GetArraySize(a);
    m->perf = calloc((size_t)m->nperf + 1, sizeof *m->perf);
    if (!m->perf)
        gir_die("out of memory");
    cJSON_ArrayForEach(o, a) {
        char where[64];
        snprintf(where, sizeof where, "perf[%d]", i);
        if ((rc = sim_need_num(file, where, o, "stage", 0, nstages - 1, &v, e)))
            return rc;
        m->perf[i].stage = (int)v;
        if ((rc = sim_need_str(file, where, o, "layer", &m->perf[i].layer, e)) ||
            (rc = sim_need_num(file, where, o, "offset", 0x48, m->reg_last - 4, &v, e)))
            return rc;
        m->perf[i].offset = (uint32_t)v;
        i++;
    }
    return SIM_OK;
}

int sim_map_from_json(cJSON *doc, const char *path, int nstages, SimMap **out, GirError *e)
{
    SimMap *m = calloc(1, sizeof *m);
    const cJSON *a;
    double bits;
    int rc;
    if (!m)
        gir_die("out of memory");
    m->doc = doc;
    *out = NULL;
    /* the map's size: 12 to 16 address bits (hls/hw.h) */
    if (sim_json_num(doc, "axil_addr_bits", &bits) < 0 || bits < 12 || bits > 16 ||
        bits != floor(bits)) {
        rc = sim_error(e, SIM_BAD_INPUT, "%s: axil_addr_bits: expected a whole number from 12 "
                       "to 16", path);
        goto fail;
    }
    m->reg_last = ((uint32_t)1 << (int)bits) - 4;
    if (!(a = sim_need_array(path, doc, "registers", e)) ||
        find_reg(path, a, "SEGMENT", m->reg_last, &m->reg_segment, e) ||
        find_reg(path, a, "FRAMES", m->reg_last, &m->reg_frames, e) ||
        !(a = sim_need_array(path, doc, "segments", e))) {
        rc = SIM_BAD_INPUT;
        goto fail;
    }
    m->nseg = cJSON_GetArraySize(a);
    if (m->nseg < 1) {
        rc = sim_error(e, SIM_BAD_INPUT, "%s: segments: no FPGA segment", path);
        goto fail;
    }
    if ((rc = parse_chans(path, m, e)) || (rc = parse_perf(path, m, nstages, e)) ||
        (rc = sim_ts_parse(path, m, e)))
        goto fail;
    *out = m;
    return SIM_OK;
fail:
    sim_map_free(m);
    return rc;
}

int sim_map_parse(const char *text, size_t len, const char *path, int nstages, SimMap **out,
                  GirError *e)
{
    char *z = malloc(len + 1); /* NUL-terminated, as read from a file */
    cJSON *doc;
    if (!z)
        gir_die("out of memory");
    memcpy(z, text, len);
    z[len] = 0;
    doc = parse_object(z, path, e);
    free(z);
    *out = NULL;
    if (!doc)
        return SIM_BAD_INPUT;
    return sim_map_from_json(doc, path, nstages, out, e);
}

void sim_map_free(SimMap *m)
{
    if (!m)
        return;
    cJSON_Delete(m->doc);
    free(m->chan);
    free(m->perf);
    free(m->ts.maps);
    free(m->ts.x);
    free(m->ts.y);
    free(m->ts.parts);
    free(m->ts.order);
    free(m);
}
