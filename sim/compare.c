/*
 * The checks of a segment's run and the figures of the whole run: the beats
 * each channel moved against the contract, every output byte against the
 * interpreter's value in the DDR layout, then the measured cycles beside
 * the plan's predictions in DIR/sim/result.json and a "## Measured" section
 * of DIR/report.md (replacing one an earlier run wrote).
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "host-runtime/kiln_sched.h"
#include "sim/internal.h"

#define SHOW_MISMATCH 5 /* mismatching bytes shown per channel */

int sim_check_beats(const Sim *s, int sg, const char *res, const char *tag, int frames, int load,
                    GirError *e)
{
    int i;
    for (i = 0; i < s->map->nchan; i++) {
        const SimChan *c = &s->map->chan[i];
        long nb = c->data_w / 8, want, got;
        char key[128];
        const char *why;
        if (c->segment != sg)
            continue;
        if (!c->weight) {
            want = frames * (c->rd ? c->subs : 1) * (long)((c->frame_bytes + nb - 1) / nb);
            why = c->rd && c->subs > 1
                      ? "FRAMES frames of frame_bytes, each read once per weight tile"
                      : "FRAMES frames of frame_bytes";
        } else if (c->resident) {
            want = load ? (long)((c->bytes + nb - 1) / nb) : 0;
            why = load ? "resident weights read once with CTRL bit1"
                       : "resident weights are not read without CTRL bit1";
        } else {
            want = frames * c->subs * (long)((c->bytes + nb - 1) / nb);
            why = c->subs > 1 ? "streamed weights read once per band of each frame"
                              : "streamed weights read once per frame";
        }
        snprintf(key, sizeof key, "%s.beats.%s", tag, c->name);
        got = sim_job_get(res, key, NULL);
        if (got != want)
            return sim_error(e, SIM_FAILED, "simulate: segment %d: %s start: channel %s moved %ld "
                             "beats, expected %ld (%s)", sg, tag, c->name, got, want, why);
    }
    return SIM_OK;
}

/* The differing bytes of frame f of output channel c: got against want
 * (one frame each); the first SHOW_MISMATCH of the channel are shown. */
static long compare_frame(const Sim *s, const SimChan *c, const uint8_t *got, const uint8_t *want,
                          int f, const char *run, int *shown)
{
    int cg = (c->c + c->lanes - 1) / c->lanes;
    int64_t y, x, b;
    long bad = 0;
    for (y = 0; y < c->h; y++)
        for (x = 0; x < c->w; x++)
            for (b = 0; b < (int64_t)cg * c->lanes; b++) {
                int64_t o = (y * c->w + x) * cg * c->lanes + b;
                if (got[o] == want[o])
                    continue;
                if ((*shown)++ < SHOW_MISMATCH)
                    sim_log(s, "  mismatch %s %s frame %d: value %s y %" PRId64 " x %" PRId64
                            " c %" PRId64 ": got %d, want %d\n", run, c->name, f, c->value, y, x,
                            b, (int8_t)got[o], (int8_t)want[o]);
                bad++;
            }
    return bad;
}

/* Compare the dumped frames of output channel c (nf frames of the run) with
 * the reference; with refdump the expected image is left beside the dump,
 * for a look with a hex viewer.  A missing dump counts as one mismatch. */
static int compare_out(const Sim *s, const SimChan *c, const char *dump, const char *refdump,
                       int nf, const char *run, long *bad, GirError *e)
{
    FILE *ref = NULL;
    size_t len;
    uint8_t *got = (uint8_t *)gir_read_file(dump, &len), *want;
    int f, shown = 0, vid = gir_find_value(s->ref.g, c->value), rc = SIM_OK;
    if (!got || len < (size_t)(c->frame_bytes * nf)) {
        free(got);
        sim_log(s, "kiln: simulate: %s: missing output dump\n", dump);
        *bad += 1;
        return SIM_OK;
    }
    want = malloc((size_t)c->frame_bytes);
    if (!want)
        gir_die("out of memory");
    if (refdump)
        ref = fopen(refdump, "wb");
    for (f = 0; f < nf; f++) {
        const GirTensor *t = sim_ref_value(&s->ref, f, c->value);
        if (!t || vid < 0) {
            rc = sim_error(e, SIM_BAD_INPUT, "%s: channel %s: value '%s' is not a computed value "
                           "of model.gir", s->rpath, c->name, c->value);
            break;
        }
        if ((rc = sim_ddr_image(s, c, &s->ref.g->vals[vid], t, want, e)) != SIM_OK)
            break;
        if (ref)
            fwrite(want, 1, (size_t)c->frame_bytes, ref);
        *bad += compare_frame(s, c, got + f * c->frame_bytes, want, f, run, &shown);
    }
    if (ref)
        fclose(ref);
    free(want);
    free(got);
    return rc;
}

int sim_compare_segment(const Sim *s, int sg, const char *sd, long *mismatches, GirError *e)
{
    GirArena *a = s->run;
    int i, rc;
    for (i = 0; i < s->map->nchan; i++) {
        const SimChan *c = &s->map->chan[i];
        if (c->segment != sg || c->rd)
            continue;
        if ((rc = compare_out(s, c, gir_arena_printf(a, "%s/%s-cold.bin", sd, c->name), NULL, 1,
                              "cold", mismatches, e)) ||
            (rc = compare_out(s, c, gir_arena_printf(a, "%s/%s.bin", sd, c->name),
                              gir_arena_printf(a, "%s/%s-want.bin", sd, c->name), s->o->frames,
                              "warm", mismatches, e)))
            return rc;
    }
    return SIM_OK;
}

int sim_compare_frames(const Sim *s, int sg, const char *sd, const char *run, long *mismatches,
                       GirError *e)
{
    int i, rc;
    for (i = 0; i < s->map->nchan; i++) {
        const SimChan *c = &s->map->chan[i];
        if (c->segment != sg || c->rd)
            continue;
        if ((rc = compare_out(s, c, gir_arena_printf(s->run, "%s/%s.bin", sd, c->name), NULL,
                              s->o->frames, run, mismatches, e)))
            return rc;
    }
    return SIM_OK;
}

/* ---- figures ---------------------------------------------------------------------- */

static double pct(double meas, double pred)
{
    return pred > 0 ? 100.0 * (meas - pred) / pred : NAN;
}

/* Append a formatted summary line to r. */
static void add_line(SimResult *r, const char *fmt, ...) GIR_PRINTF(2, 3);
static void add_line(SimResult *r, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *l;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    l = malloc((size_t)n + 1);
    r->lines = realloc(r->lines, sizeof *r->lines * (size_t)(r->nline + 1));
    if (!l || !r->lines)
        gir_die("out of memory");
    va_start(ap, fmt);
    vsnprintf(l, (size_t)n + 1, fmt, ap);
    va_end(ap);
    r->lines[r->nline++] = l;
}

/* The PERF stages: prediction, measurement, error; and their JSON. */
static void stage_rows(const Sim *s, SimResult *r, const long *pf, const long *pl, cJSON *stj)
{
    int i;
    r->nstage = s->map->nperf;
    r->stages = calloc((size_t)r->nstage + 1, sizeof *r->stages);
    if (!r->stages)
        gir_die("out of memory");
    for (i = 0; i < r->nstage; i++) {
        SimStage *st = &r->stages[i];
        const cJSON *ps = sim_plan_stage(s, s->map->perf[i].stage);
        const cJSON *eng = cJSON_GetObjectItemCaseSensitive(ps, "engine");
        cJSON *o = cJSON_CreateObject();
        st->stage = s->map->perf[i].stage;
        st->layer = s->map->perf[i].layer;
        st->engine = cJSON_IsString(eng) ? eng->valuestring : "?";
        st->first = pf[i];
        st->last = pl[i];
        if (sim_json_num(ps, "t_done", &st->predicted) < 0)
            st->predicted = -1;
        snprintf(st->predicted_text, sizeof st->predicted_text,
                 st->predicted >= 0 ? "%.0f" : "-", st->predicted);
        snprintf(st->error_text, sizeof st->error_text,
                 s->o->bp ? "n/a" : st->predicted > 0 && st->first >= 0 ? "%+.1f%%" : "-",
                 pct((double)st->first, st->predicted));
        cJSON_AddNumberToObject(o, "stage", st->stage);
        cJSON_AddStringToObject(o, "layer", st->layer);
        if (st->predicted >= 0)
            cJSON_AddNumberToObject(o, "predicted_t_done", st->predicted);
        else
            cJSON_AddNullToObject(o, "predicted_t_done");
        cJSON_AddNumberToObject(o, "measured_t_done", (double)st->first);
        cJSON_AddNumberToObject(o, "measured_t_done_last", (double)st->last);
        cJSON_AddItemToArray(stj, o);
    }
}

/* Per segment: its JSON and its summary line. */
static void segment_rows(const Sim *s, SimResult *r, cJSON *sgj)
{
    char ivs[40];
    int sg;
    for (sg = 0; sg < r->nseg; sg++) {
        const SimSegment *g = &r->segs[sg];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", sg);
        cJSON_AddNumberToObject(o, "cold_cycles", (double)g->cold_cycles);
        cJSON_AddNumberToObject(o, "latency_cycles", (double)g->lat_cycles);
        cJSON_AddNumberToObject(o, "warm_cycles", (double)g->warm_cycles);
        if (g->interval >= 0)
            cJSON_AddNumberToObject(o, "interval_cycles", g->interval);
        else
            cJSON_AddNullToObject(o, "interval_cycles");
        cJSON_AddNumberToObject(o, "mismatches", (double)g->mismatches);
        if (sg >= s->map->nseg) /* a part of the shared engine: its frame against the plan's */
            cJSON_AddNumberToObject(o, "predicted_cycles", s->map->ts.parts[sg - s->map->nseg].cycles);
        cJSON_AddItemToArray(sgj, o);
        if (g->interval >= 0)
            snprintf(ivs, sizeof ivs, "%.1f cycles", g->interval);
        else
            snprintf(ivs, sizeof ivs, "not measured");
        if (sg >= s->map->nseg) {
            const SimTsPart *q = &s->map->ts.parts[sg - s->map->nseg];
            add_line(r, "segment %d (the shared engine's part %d, %d layers, a start a frame): "
                     "first frame %ld cycles, last %ld, predicted %.0f (%+.1f%%); %s\n", sg,
                     sg - s->map->nseg, q->count, g->cold_cycles, g->lat_cycles, q->cycles,
                     pct((double)g->lat_cycles, q->cycles),
                     g->mismatches ? "MISMATCH" : "bit-exact");
        } else
            add_line(r, "segment %d: cold %ld cycles, latency %ld cycles, %d frames %ld cycles, "
                     "interval %s; %s\n", sg, g->cold_cycles, g->lat_cycles, s->o->frames,
                     g->warm_cycles, ivs, g->mismatches ? "MISMATCH" : "bit-exact");
    }
}

/* The network's figures into root and the summary lines after the
 * segments': interval, latency, DSP efficiency, the simulation itself. */
static void totals(const Sim *s, SimResult *r, cJSON *root)
{
    long simc = 0, run = 0;
    double wall = 0, interval = 0, latency = 0, sum = 0, clock = s->mhz * 1e6;
    int sg, several = r->nseg > 1, unmeasured = 0;
    r->mismatches = 0;
    for (sg = 0; sg < r->nseg; sg++) {
        r->mismatches += r->segs[sg].mismatches;
        simc += r->segs[sg].sim_cycles;
        wall += r->segs[sg].wall_s;
        if (r->segs[sg].interval > interval)
            interval = r->segs[sg].interval;
        sum += r->segs[sg].interval;
        unmeasured |= r->segs[sg].interval < 0;
        run += r->segs[sg].warm_cycles;
        latency += (double)r->segs[sg].lat_cycles;
    }
    /* one start runs at a time (the plan's model, hls/plan_eval.c): with
     * several segments a frame costs every segment's interval; with the
     * shared engine beside the dataflow (hls/plan_fold.c) the steps of the
     * runs measured in the last frame, in steady state */
    if (several)
        interval = unmeasured ? -1 : sum;
    if (s->o->frames == 1)
        interval = -1;
    if (r->beside.ran) {
        r->mismatches += r->beside.mismatches;
        simc += r->beside.sim_cycles;
        wall += r->beside.wall_s;
        interval = (double)r->beside.interval;
        latency = (double)r->beside.latency;
    }
    cJSON_AddBoolToObject(root, "bit_exact", r->mismatches == 0);
    if (s->o->bp) {
        cJSON_AddNumberToObject(root, "backpressure", s->o->bp);
        cJSON_AddNumberToObject(root, "backpressure_seed", (double)s->o->bp_seed);
        add_line(r, "back-pressure: every stream between engines and every AXI slave handshake "
                 "allowed in %d%% of cycles at random (seed %lu); cycles against the plan: not "
                 "applicable (the plan has no back-pressure)\n", s->o->bp, s->o->bp_seed);
    }
    cJSON_AddNumberToObject(root, "mismatches", (double)r->mismatches);
    cJSON_AddNumberToObject(root, "frames", s->o->frames);
    cJSON_AddNumberToObject(root, "ddr_latency", (double)s->o->latency);
    cJSON_AddNumberToObject(root, "clock_mhz", s->mhz);
    if (interval > 0) {
        cJSON_AddNumberToObject(root, "interval_cycles", interval);
        cJSON_AddNumberToObject(root, "fps", clock / interval);
    } else {
        cJSON_AddNullToObject(root, "interval_cycles");
        cJSON_AddNullToObject(root, "fps");
    }
    cJSON_AddNumberToObject(root, "predicted_interval_cycles", s->plan_interval);
    cJSON_AddNumberToObject(root, "latency_cycles", latency);
    cJSON_AddNumberToObject(root, "latency_ms", latency / clock * 1e3);
    cJSON_AddNumberToObject(root, "predicted_latency_cycles", s->plan_latency);
    if (r->beside.ran) {
        cJSON *b = cJSON_AddObjectToObject(root, "beside"), *a;
        int i;
        cJSON_AddNumberToObject(b, "frames_in_flight", s->map->ts.flight);
        cJSON_AddBoolToObject(b, "steps", s->map->ts.steps);
        cJSON_AddNumberToObject(b, "gate", s->map->ts.gate);
        cJSON_AddNumberToObject(b, "total_cycles", (double)r->beside.total);
        if (r->beside.predicted_total >= 0)
            cJSON_AddNumberToObject(b, "predicted_total_cycles", r->beside.predicted_total);
        a = cJSON_AddArrayToObject(b, "runs");
        for (i = 0; i < r->beside.n; i++)
            cJSON_AddItemToArray(a, cJSON_CreateNumber((double)r->beside.run[i]));
        a = cJSON_AddArrayToObject(b, "first_frame_runs");
        for (i = 0; i < r->beside.n; i++)
            cJSON_AddItemToArray(a, cJSON_CreateNumber((double)r->beside.first[i]));
        cJSON_AddNumberToObject(b, "mismatches", (double)r->beside.mismatches);
    }
    cJSON_AddNumberToObject(root, "sim_cycles", (double)simc);
    cJSON_AddNumberToObject(root, "sim_cycles_per_s", wall > 0 ? (double)simc / wall : 0);
    cJSON_AddNumberToObject(root, "wall_s", sim_now() - s->t0);
    if (interval > 0)
        add_line(r, "interval: measured %.1f cycles, predicted %.0f (%+.1f%%); %.1f frames/s at "
                 "%.0f MHz\n", interval, s->plan_interval, pct(interval, s->plan_interval),
                 clock / interval, s->mhz);
    else
        add_line(r, "interval: not measured (one frame; --frames 2 or more runs frames back to "
                 "back), predicted %.0f cycles\n", s->plan_interval);
    if (r->beside.ran) {
        char pred[96] = "", gate[64] = "";
        if (s->map->ts.gate > 0)
            snprintf(gate, sizeof gate, ", a frame entering once the one before ended run %d",
                     s->map->ts.gate - 1);
        if (r->beside.predicted_total >= 0)
            snprintf(pred, sizeof pred, ", predicted %.0f (%+.1f%%)", r->beside.predicted_total,
                     pct((double)r->beside.total, r->beside.predicted_total));
        add_line(r, "beside the dataflow (the engine's parts on unit %d, %d frames in flight%s%s): "
                 "%d frames took %ld cycles from the first start to the last done%s; %s; the "
                 "interval and latency are the steady state of kiln_sched with each run as "
                 "measured in the last frame\n", s->map->nseg, s->map->ts.flight,
                 s->map->ts.steps ? ", in steps" : "", gate, s->o->frames,
                 r->beside.total, pred, r->beside.mismatches ? "MISMATCH" : "bit-exact");
    } else if (several) {
        add_line(r, "one start at a time: the %d segments' runs took %ld cycles for %d frames "
                 "(%.1f a frame with each segment's fill); in steady state a frame is the sum "
                 "of their intervals%s\n", r->nseg, run, s->o->frames,
                 (double)run / s->o->frames, interval > 0 ? ", the interval above" : "");
    }
    add_line(r, "latency: measured %.0f cycles (%.3f ms), predicted %.0f (%+.1f%%)\n", latency,
             latency / clock * 1e3, s->plan_latency, pct(latency, s->plan_latency));
    if (interval > 0 && s->plan_macs > 0 && s->plan_dsp > 0) {
        /* MACs per frame x frames/s / (DSPs used x 2 MACs per DSP x DSP clock) */
        double dclk = s->clk2x ? 2.0 * clock : clock;
        double eff = s->plan_macs * (clock / interval) / (s->plan_dsp * 2.0 * dclk);
        cJSON_AddNumberToObject(root, "dsp_efficiency", eff);
        add_line(r, "DSP efficiency: %.1f%% (%.4g MACs x %.1f frames/s / (%.0f DSP x 2 x %.0f "
                 "MHz%s))\n", 100.0 * eff, s->plan_macs, clock / interval, s->plan_dsp,
                 dclk / 1e6, s->clk2x ? ", the DSP clock" : "");
    }
    add_line(r, "simulation: %ld cycles in %.2f s (%.0f cycles/s), wall %.1f s; %s\n", simc, wall,
             wall > 0 ? (double)simc / wall : 0, sim_now() - s->t0,
             r->mismatches ? "outputs MISMATCH the int8 interpreter"
                           : "every output byte matches the int8 interpreter");
}

/* The "## Measured" section of report.md (malloc'd). */
static char *report_section(const Sim *s, const SimResult *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *rep = open_memstream(&text, &len);
    int i;
    if (!rep)
        gir_die("out of memory");
    fprintf(rep, "\n## Measured (kiln simulate, Verilator, %d frame%s, DDR latency %ld%s)\n\n",
            s->o->frames, s->o->frames == 1 ? "" : "s", s->o->latency,
            s->o->bp ? ", random back-pressure" : "");
    fprintf(rep, "| stage | layer | engine | predicted t_done | measured | error |\n"
                 "| --- | --- | --- | --- | --- | --- |\n");
    for (i = 0; i < r->nstage; i++)
        fprintf(rep, "| %d | %s | %s | %s | %ld | %s |\n", r->stages[i].stage, r->stages[i].layer,
                r->stages[i].engine, r->stages[i].predicted_text, r->stages[i].first,
                r->stages[i].error_text);
    for (i = 0; i < r->nline; i++)
        fprintf(rep, "\n%s", r->lines[i]);
    fclose(rep);
    return text;
}

/* Replace report.md's "## Measured" section (if any) by section. */
static int write_report(const Sim *s, const char *section)
{
    const char *path = gir_arena_printf(s->run, "%s/report.md", s->dir);
    char *old = gir_read_file(path, NULL), *cut, *all;
    const void *part;
    size_t len;
    int rc;
    if (!old) {
        old = strdup("");
        if (!old)
            gir_die("out of memory");
    }
    cut = strstr(old, "\n## Measured");
    if (cut)
        cut[1] = 0;
    all = malloc(strlen(old) + strlen(section) + 2);
    if (!all)
        gir_die("out of memory");
    sprintf(all, "%s%s%s", old, old[0] && old[strlen(old) - 1] != '\n' ? "\n" : "", section);
    part = all;
    len = strlen(all);
    rc = gir_write_atomic(path, &part, &len, 1, NULL);
    free(all);
    free(old);
    return rc;
}

int sim_figures(Sim *s, SimResult *r, long *pf, long *pl, GirError *e)
{
    cJSON *root = cJSON_CreateObject(), *stj = cJSON_AddArrayToObject(root, "stages");
    cJSON *sgj = cJSON_AddArrayToObject(root, "segments");
    const char *path = gir_arena_printf(s->run, "%s/sim/result.json", s->dir);
    const void *part;
    char *section;
    size_t len;
    int rc = SIM_OK;
    stage_rows(s, r, pf, pl, stj);
    segment_rows(s, r, sgj);
    totals(s, r, root);
    section = report_section(s, r);
    r->json = cJSON_Print(root);
    cJSON_Delete(root);
    if (!r->json)
        gir_die("out of memory");
    part = r->json;
    len = strlen(r->json);
    if (gir_write_atomic(path, &part, &len, 1, NULL) < 0)
        rc = sim_error(e, SIM_BAD_INPUT, "%s: cannot write: %s", path, strerror(errno));
    else if (write_report(s, section) < 0)
        rc = sim_error(e, SIM_BAD_INPUT, "%s/report.md: cannot write: %s", s->dir,
                       strerror(errno));
    free(section);
    if (rc == SIM_OK && r->mismatches)
        rc = sim_error(e, SIM_FAILED, "simulate: %ld output bytes differ from the int8 "
                       "interpreter", r->mismatches);
    return rc;
}
