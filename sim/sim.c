/*
 * The library's entry points: sim_open reads and cross-checks a compiled
 * folder, sim_run computes the interpreter's reference, builds the model and
 * runs one harness job per FPGA segment in plan order (job.c), then sets
 * the figures down (compare.c).
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/internal.h"

int sim_error(GirError *e, int status, const char *fmt, ...)
{
    va_list ap;
    if (!e)
        return status;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return status;
}

void sim_log(const Sim *s, const char *fmt, ...)
{
    char *text;
    va_list ap;
    int n;
    if (!s->o || !s->o->log)
        return;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    text = malloc((size_t)n + 1);
    if (!text)
        gir_die("out of memory");
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->o->log(s->o->log_user, text);
    free(text);
}

const GirTensor *sim_ref_value(const SimRef *r, int frame, const char *name)
{
    int v = gir_find_value(r->g, name), i;
    if (v < 0)
        return NULL;
    for (i = 0; i < r->g->ninput; i++)
        if (r->g->inputs[i] == v)
            return &r->in[frame * r->g->ninput + i];
    return r->vals[frame][v].data ? &r->vals[frame][v] : NULL;
}

const cJSON *sim_plan_stage(const Sim *s, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s->plan, "stages"), i);
}

/* plan.json's clock, figures and stages, after both documents parsed. */
static int read_plan(Sim *s, const char *ppath, GirError *e)
{
    const cJSON *fig;
    int rc;
    if ((rc = sim_need_num(ppath, "plan", s->plan, "clock_mhz", 1, 10000, &s->mhz, e)))
        return rc;
    fig = cJSON_GetObjectItemCaseSensitive(s->plan, "figures");
    if (!cJSON_IsObject(fig) || sim_json_num(fig, "interval_cycles", &s->plan_interval) ||
        sim_json_num(fig, "latency_cycles", &s->plan_latency))
        return sim_error(e, SIM_BAD_INPUT, "%s: figures: expected interval_cycles and "
                         "latency_cycles", ppath);
    /* for the measured DSP efficiency; a plan without them gets none */
    if (sim_json_num(fig, "macs", &s->plan_macs) ||
        sim_json_num(cJSON_GetObjectItemCaseSensitive(fig, "used"), "dsp", &s->plan_dsp))
        s->plan_macs = s->plan_dsp = 0;
    s->clk2x = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s->plan, "clk2x"));
    if (!sim_need_array(ppath, s->plan, "stages", e))
        return SIM_BAD_INPUT;
    return SIM_OK;
}

/* model.gir, whose values the tensor channels must name. */
static int read_model(Sim *s, GirError *e)
{
    const char *path = gir_arena_printf(s->arena, "%s/model.gir", s->dir);
    size_t len;
    char *text = gir_read_file(path, &len);
    int i;
    if (!text)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot read: %s", path, strerror(errno));
    s->g = gir_parse(text, len, path, e);
    free(text);
    if (!s->g)
        return SIM_BAD_INPUT;
    for (i = 0; i < s->map->nchan; i++) /* before minutes of Verilator build */
        if (!s->map->chan[i].weight && gir_find_value(s->g, s->map->chan[i].value) < 0)
            return sim_error(e, SIM_BAD_INPUT, "%s: channels[%d].value: '%s' is not a value of %s",
                             s->rpath, i, s->map->chan[i].value, path);
    return SIM_OK;
}

int sim_open(const char *dir, Sim **out, GirError *e)
{
    Sim *s = calloc(1, sizeof *s);
    const char *rtl, *ppath;
    cJSON *regmap;
    struct stat st;
    int rc;
    if (!s)
        gir_die("out of memory");
    *out = NULL;
    s->t0 = sim_now();
    s->arena = gir_arena_new();
    s->dir = gir_arena_strdup(s->arena, dir);
    s->rpath = gir_arena_printf(s->arena, "%s/rtl/regmap.json", dir);
    rtl = gir_arena_printf(s->arena, "%s/rtl", dir);
    ppath = gir_arena_printf(s->arena, "%s/plan.json", dir);
    if (stat(rtl, &st) != 0 || !S_ISDIR(st.st_mode)) {
        rc = sim_error(e, SIM_BAD_INPUT, "%s: no such folder (kiln compile writes it when it can "
                       "generate the plan's RTL)", rtl);
        goto fail;
    }
    rc = SIM_BAD_INPUT;
    if (!(s->plan = sim_json_load(ppath, e)) || !(regmap = sim_json_load(s->rpath, e)))
        goto fail;
    if ((rc = read_plan(s, ppath, e))) {
        cJSON_Delete(regmap);
        goto fail;
    }
    if ((rc = sim_map_from_json(regmap, s->rpath,
                                cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(s->plan,
                                                                                    "stages")),
                                &s->map, e)) ||
        (rc = read_model(s, e)))
        goto fail;
    *out = s;
    return SIM_OK;
fail:
    sim_close(s);
    return rc;
}

const GirGraph *sim_graph(const Sim *s)
{
    return s->g;
}

/* The interpreter's values of every frame, each node value kept. */
static int reference(Sim *s, const GirTensor *inputs, GirError *e)
{
    const GirGraph *g = s->g;
    int frames = s->o->frames, f, k;
    gir_arena_free(s->run);
    s->run = gir_arena_new();
    s->ref.g = g;
    s->ref.in = gir_arena_alloc(s->run, sizeof *s->ref.in * (size_t)(frames * g->ninput + 1));
    memcpy(s->ref.in, inputs, sizeof *s->ref.in * (size_t)(frames * g->ninput));
    s->ref.vals = gir_arena_alloc(s->run, sizeof *s->ref.vals * (size_t)frames);
    for (f = 0; f < frames; f++) {
        GirTensor *outs;
        int *ids, n;
        if (gir_run_all(g, &s->ref.in[f * g->ninput], s->run, &outs, &ids, &n, e) < 0)
            return SIM_BAD_INPUT;
        s->ref.vals[f] = gir_arena_alloc(s->run, sizeof **s->ref.vals * (size_t)(g->nval + 1));
        for (k = 0; k < n; k++)
            s->ref.vals[f][ids[k]] = outs[k];
    }
    return SIM_OK;
}

int sim_run(Sim *s, const SimOptions *o, const GirTensor *inputs, SimResult **out, GirError *e)
{
    SimResult *r;
    long *pf, *pl;
    int sg, i, rc;
    *out = NULL;
    s->o = o;
    if ((rc = reference(s, inputs, e)) || (rc = sim_build(s, e)))
        goto done;
    /* back-pressure stretches a run by up to about 100/bp (4x at 20% in
     * yolov3-tiny-small's cases, docs/simulate.md) */
    s->cap = o->cap ? o->cap
                    : (long)fmin(2e9, (o->bp ? 100.0 / o->bp : 1.0) *
                                          (8.0 * (s->plan_latency + (o->frames + 2) *
                                                  s->plan_interval) +
                                           100000.0 + 4.0 * o->latency * 1000));
    r = calloc(1, sizeof *r);
    pf = calloc((size_t)s->map->nperf + 1, sizeof *pf);
    pl = calloc((size_t)s->map->nperf + 1, sizeof *pl);
    if (!r || !pf || !pl ||
        !(r->segs = calloc((size_t)(s->map->nseg + s->map->ts.npart) + 1, sizeof *r->segs)))
        gir_die("out of memory");
    r->nseg = s->map->nseg;
    for (i = 0; i < s->map->nperf; i++)
        pf[i] = pl[i] = -1;
    for (sg = 0; sg < s->map->nseg && rc == SIM_OK; sg++)
        rc = sim_job_segment(s, sg, &r->segs[sg], pf, pl, e);
    for (i = 0; rc == SIM_OK && s->map->ts.seg >= 0 && i < s->map->ts.npart; i++)
        rc = sim_job_tsconv(s, i, &r->segs[r->nseg++], e); /* the engine's parts, a segment each */
    if (rc == SIM_OK && s->map->ts.seg >= 0 && s->map->ts.unit)
        rc = sim_job_beside(s, r, e); /* every frame, the engine beside the dataflow */
    if (rc == SIM_OK) {
        rc = sim_figures(s, r, pf, pl, e);
        *out = r;
    } else {
        sim_result_free(r);
    }
    free(pf);
    free(pl);
done:
    s->o = NULL;
    return rc;
}

void sim_result_free(SimResult *r)
{
    int i;
    if (!r)
        return;
    for (i = 0; i < r->nline; i++)
        free(r->lines[i]);
    free(r->lines);
    free(r->stages);
    free(r->segs);
    free(r->json);
    free(r);
}

void sim_close(Sim *s)
{
    if (!s)
        return;
    sim_map_free(s->map);
    cJSON_Delete(s->plan);
    gir_graph_free(s->g);
    gir_arena_free(s->run);
    gir_arena_free(s->arena);
    free(s);
}
