/*
 * plan.json: the planner's choices with their reasons and the predicted
 * figures; replay reads the choices back, checks them against the model and
 * re-evaluates them (figures are recomputed, never trusted from the file).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "host-runtime/kiln_sched.h"
#include "hls/plan_int.h"

#define PLAN_FORMAT 1 /* "kiln_plan" version */

static cJSON *res_json(const HlsRes *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "dsp", r->dsp);
    cJSON_AddNumberToObject(o, "bram36", r->bram36);
    cJSON_AddNumberToObject(o, "uram", r->uram);
    cJSON_AddNumberToObject(o, "lut", round(r->lut));
    cJSON_AddNumberToObject(o, "ff", round(r->ff));
    return o;
}

char *hls_plan_json(const HlsPlan *p)
{
    cJSON *root = cJSON_CreateObject(), *st, *fi, *cpu, *fig;
    char *text;
    int i;
    cJSON_AddNumberToObject(root, "kiln_plan", PLAN_FORMAT);
    cJSON_AddStringToObject(root, "model", p->model);
    cJSON_AddStringToObject(root, "board", p->board.name);
    cJSON_AddNumberToObject(root, "clock_mhz", p->mhz);
    if (p->clk2x)
        cJSON_AddBoolToObject(root, "clk2x", 1);
    if (p->lut_cpu[0]) /* the tables per channel did not fit: on the CPU, and why */
        cJSON_AddStringToObject(root, "lut_cpu", p->lut_cpu);
    if (p->fit.nmove > 0) { /* layers moved to the CPU so the smallest design fits */
        cJSON *cf = cJSON_AddObjectToObject(root, "cpu_fit");
        cJSON *mv;
        cJSON_AddNumberToObject(cf, "macs_all", (double)p->fit.macs_all);
        mv = cJSON_AddArrayToObject(cf, "moves");
        for (i = 0; i < p->fit.nmove; i++) {
            const HlsMove *m = &p->fit.moves[i];
            cJSON *o = cJSON_CreateObject(), *nodes = cJSON_AddArrayToObject(o, "nodes");
            int k;
            for (k = 0; k < m->count; k++)
                cJSON_AddItemToArray(nodes, cJSON_CreateString(p->fit.names[m->first + k]));
            cJSON_AddStringToObject(o, "budget", m->over);
            cJSON_AddStringToObject(o, "why", m->why);
            cJSON_AddItemToArray(mv, o);
        }
    }
    cJSON_AddStringToObject(root, "note", "figures are predictions of the cycle and resource models");
    st = cJSON_AddArrayToObject(root, "stages");
    for (i = 0; i < p->nstage; i++) {
        const HlsStage *s = &p->stages[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "node", s->node);
        cJSON_AddStringToObject(o, "engine", s->desc->name);
        cJSON_AddNumberToObject(o, "segment", s->segment);
        if (s->kind == HLS_ST_CONV) {
            cJSON_AddNumberToObject(o, "pe_oc", s->pe_oc);
            cJSON_AddNumberToObject(o, "pe_ic", s->pe_ic);
            cJSON_AddNumberToObject(o, "pp", s->pp);
            cJSON_AddBoolToObject(o, "span", s->span);
            cJSON_AddNumberToObject(o, "pack", s->pack);
            if (s->dsp2x) {
                cJSON_AddBoolToObject(o, "dsp2x", 1);
                cJSON_AddStringToObject(o, "dsp2x_pairs", s->dsp2x == 2 ? "pixels" : "inputs");
            }
            cJSON_AddNumberToObject(o, "pipe", s->pipe);
        } else {
            cJSON_AddNumberToObject(o, "lanes", s->lanes);
            if (s->kind == HLS_ST_MAXPOOL)
                cJSON_AddNumberToObject(o, "pipe", s->pipe);
        }
        cJSON_AddNumberToObject(o, "rq_pipe", s->rq_pipe);
        if (s->rq_dsp == 1) /* one DSP48E2 a requant lane; absent: two */
            cJSON_AddNumberToObject(o, "rq_dsp", 1);
        if ((s->kind == HLS_ST_CONV || s->kind == HLS_ST_DWCONV) && (s->qlo > -128 || s->qhi < 127)) {
            cJSON_AddNumberToObject(o, "qlo", s->qlo);
            cJSON_AddNumberToObject(o, "qhi", s->qhi);
        }
        cJSON_AddStringToObject(o, "weights", hls_whome_name(s->whome));
        cJSON_AddNumberToObject(o, "tog", (double)s->tog);
        if (s->band > 0)
            cJSON_AddNumberToObject(o, "band", (double)s->band);
        if (s->band > 0 && s->lbrows > 0)
            cJSON_AddNumberToObject(o, "lbrows", (double)hls_band_lbrows(s));
        if (s->lburam)
            cJSON_AddBoolToObject(o, "lb_uram", 1);
        cJSON_AddBoolToObject(o, "pinned", s->pinned);
        cJSON_AddNumberToObject(o, "cycles", (double)s->cycles);
        cJSON_AddNumberToObject(o, "t_done", (double)s->t_done);
        cJSON_AddNumberToObject(o, "occupancy", (double)s->occupancy);
        if (s->in_ddr[0] || s->in_ddr[1]) {
            cJSON *d = cJSON_AddArrayToObject(o, "in_ddr");
            int k;
            for (k = 0; k < s->nin; k++)
                cJSON_AddItemToArray(d, cJSON_CreateBool(s->in_ddr[k]));
        }
        cJSON_AddNumberToObject(o, "util", round(s->util * 1e4) / 1e4);
        cJSON_AddItemToObject(o, "resources", res_json(&s->res));
        cJSON_AddStringToObject(o, "why", s->why);
        cJSON_AddItemToArray(st, o);
    }
    fi = cJSON_AddArrayToObject(root, "fifos");
    for (i = 0; i < p->nfifo; i++) {
        const HlsFifo *f = &p->fifos[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "from", p->stages[f->from].node);
        cJSON_AddStringToObject(o, "to", p->stages[f->to].node);
        cJSON_AddNumberToObject(o, "depth", (double)f->depth);
        cJSON_AddNumberToObject(o, "width", (double)f->width);
        cJSON_AddBoolToObject(o, "via_ddr", f->ddr);
        cJSON_AddStringToObject(o, "why", f->why);
        cJSON_AddItemToArray(fi, o);
    }
    cpu = cJSON_AddArrayToObject(root, "cpu");
    for (i = 0; i < p->ncpu; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "node", p->cpu[i].node);
        cJSON_AddStringToObject(o, "op", p->cpu[i].op);
        cJSON_AddStringToObject(o, "why", p->cpu[i].why);
        cJSON_AddItemToArray(cpu, o);
    }
    if (p->fold.n > 0 || p->fold.why[0]) {
        cJSON *fo = cJSON_AddObjectToObject(root, "fold"), *fl;
        cJSON_AddStringToObject(fo, "engine", "kiln_tsconv");
        cJSON_AddStringToObject(fo, "why", p->fold.why);
        if (p->fold.n > 0) {
            const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
            cJSON *hw = cJSON_AddObjectToObject(fo, "hw");
            for (i = 0; d && d->hw_params[i]; i++)
                if ((strcmp(d->hw_params[i], "RQ_DSP") || p->fold.hw[i] == 1) /* absent: 2 */
                    && (strcmp(d->hw_params[i], "WCH") != 0 || p->fold.hw[i] == 2)) /* 1: absent */
                    cJSON_AddNumberToObject(hw, d->hw_params[i], (double)p->fold.hw[i]);
            cJSON_AddNumberToObject(fo, "cycles", (double)p->fold.cycles);
            cJSON_AddNumberToObject(fo, "dataflow_cycles", (double)p->fold.dataflow);
            cJSON_AddBoolToObject(fo, "sets_interval", p->fold.bound);
            cJSON_AddNumberToObject(fo, "ddr_bytes_per_frame", (double)p->fold.ddr_bytes);
            cJSON_AddNumberToObject(fo, "macs", (double)p->fold.macs);
            cJSON_AddItemToObject(fo, "resources", res_json(&p->fold.res));
            fl = cJSON_AddArrayToObject(fo, "layers");
            for (i = 0; i < p->fold.n; i++) {
                const HlsFoldLayer *l = &p->fold.layers[i];
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "node", l->node);
                cJSON_AddNumberToObject(o, "tog", (double)l->tog);
                cJSON_AddNumberToObject(o, "cycles", (double)l->cycles);
                cJSON_AddNumberToObject(o, "ddr_bytes", (double)l->ddr_bytes);
                cJSON_AddItemToArray(fl, o);
            }
            fl = cJSON_AddArrayToObject(fo, "parts"); /* the table's ranges, a start each */
            for (i = 0; i < p->fold.npart; i++) {
                const HlsFoldPart *q = &p->fold.parts[i];
                cJSON *o = cJSON_CreateObject();
                cJSON_AddNumberToObject(o, "segment", q->seg);
                cJSON_AddNumberToObject(o, "first", q->first);
                cJSON_AddNumberToObject(o, "count", q->count);
                cJSON_AddNumberToObject(o, "cycles", (double)q->cycles);
                cJSON_AddItemToArray(fl, o);
            }
            for (i = 0, fl = NULL; i < p->nstage; i++) /* hls_fold_split, in stage order */
                if (p->stages[i].split) {
                    if (!fl)
                        fl = cJSON_AddArrayToObject(fo, "splits");
                    cJSON_AddItemToArray(fl, cJSON_CreateString(p->stages[i].node));
                }
            fl = cJSON_AddArrayToObject(fo, "segment_order");
            for (i = 0; i < p->nsegment + p->fold.npart; i++)
                cJSON_AddItemToArray(fl, cJSON_CreateNumber(p->fold.order[i]));
            /* the frames beside the dataflow (host-runtime/kiln_sched.h): each
             * entry's one-frame run, the frames in flight */
            fl = cJSON_AddArrayToObject(fo, "runs");
            for (i = 0; i < p->nsegment + p->fold.npart; i++)
                cJSON_AddItemToArray(fl, cJSON_CreateNumber((double)p->fold.runs[i]));
            cJSON_AddNumberToObject(fo, "frames_in_flight", p->fold.flight);
            cJSON_AddBoolToObject(fo, "steps", p->fold.steps);
            cJSON_AddNumberToObject(fo, "gate", p->fold.gate);
            cJSON_AddNumberToObject(fo, "sequential_cycles", (double)p->fold.sequential);
        }
    }
    fig = cJSON_AddObjectToObject(root, "figures");
    cJSON_AddNumberToObject(fig, "interval_cycles", (double)p->interval);
    cJSON_AddNumberToObject(fig, "fps", round(p->fps * 100.0) / 100.0);
    cJSON_AddNumberToObject(fig, "latency_cycles", (double)p->latency);
    cJSON_AddNumberToObject(fig, "latency_ms", round(p->latency_ms * 1e4) / 1e4);
    if (p->max_latency_ms > 0)
        cJSON_AddNumberToObject(fig, "max_latency_ms", p->max_latency_ms);
    cJSON_AddNumberToObject(fig, "dsp_efficiency", round(p->dsp_eff * 1e4) / 1e4);
    cJSON_AddNumberToObject(fig, "macs", (double)p->macs);
    cJSON_AddNumberToObject(fig, "ddr_bytes_per_frame", (double)p->ddr_bytes);
    cJSON_AddBoolToObject(fig, "ddr_bound", p->ddr_bound);
    cJSON_AddNumberToObject(fig, "segments", p->nsegment);
    if (p->nsegment > 1) { /* one start at a time: interval_cycles is their sum */
        cJSON *si = cJSON_AddArrayToObject(fig, "segment_interval_cycles");
        int k;
        if (!si)
            gir_die("out of memory");
        for (k = 0; k < p->nsegment; k++)
            cJSON_AddItemToArray(si, cJSON_CreateNumber((double)hls_segment_interval(p, k)));
    }
    cJSON_AddStringToObject(fig, "slowest", p->stages[p->slowest].node);
    cJSON_AddStringToObject(fig, "limit", p->limit);
    cJSON_AddItemToObject(fig, "used", res_json(&p->total));
    cJSON_AddItemToObject(fig, "infrastructure", res_json(&p->infra));
    cJSON_AddItemToObject(fig, "budget", res_json(&p->budget));
    text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        gir_die("out of memory");
    return text;
}

/* ---------------- replay ---------------- */

/* Integer member `key` of object o at JSON path base; in [lo, hi] and, when
 * pow2, a power of two.  0 or -1 + e. */
static int get_int(const cJSON *o, const char *path, const char *base, const char *key, int64_t lo,
                   int64_t hi, int pow2, int64_t *out, GirError *e)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    double d;
    if (!v)
        return gir_error_at(e, gir_loc_none(), "%s: %s.%s: missing", path, base, key);
    d = v->valuedouble;
    if (!cJSON_IsNumber(v) || d != floor(d) || d < (double)lo || d > (double)hi ||
        (pow2 && ((int64_t)d & ((int64_t)d - 1))))
        return gir_error_at(e, gir_loc_none(), "%s: %s.%s: expected %s in %lld..%lld", path, base,
                            key, pow2 ? "a power of two" : "an integer", (long long)lo,
                            (long long)hi);
    *out = (int64_t)d;
    return 0;
}

/* A conv's clk2x mode, "dsp2x_pairs": "pixels" (kiln_conv DSP2X 2, an
 * even pp) or "inputs" (DSP2X 1, an even pe_ic); absent: the planner's
 * pick.  Taken where the plan has clk2x. */
static int replay_dsp2x(HlsStage *s, const cJSON *o, const char *path, const char *base,
                        GirError *e)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "dsp2x_pairs");
    s->dsp2x_pin = 0;
    if (!m)
        return 0;
    if (cJSON_IsString(m) && !strcmp(m->valuestring, "pixels")) {
        if (s->pp % 2)
            return gir_error_at(e, gir_loc_none(), "%s: %s.dsp2x_pairs: \"pixels\" needs an even pp",
                                path, base);
        s->dsp2x_pin = 2;
    } else if (cJSON_IsString(m) && !strcmp(m->valuestring, "inputs")) {
        if (s->pe_ic % 2)
            return gir_error_at(e, gir_loc_none(),
                                "%s: %s.dsp2x_pairs: \"inputs\" needs an even pe_ic", path, base);
        s->dsp2x_pin = 1;
    } else {
        return gir_error_at(e, gir_loc_none(),
                            "%s: %s.dsp2x_pairs: expected \"pixels\" or \"inputs\"", path, base);
    }
    return 0;
}

static int replay_stage(HlsStage *s, const cJSON *o, const char *path, const char *base,
                        GirError *e)
{
    const cJSON *node = cJSON_GetObjectItemCaseSensitive(o, "node");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "weights");
    const cJSON *pin = cJSON_GetObjectItemCaseSensitive(o, "pinned");
    int64_t v;
    if (!cJSON_IsObject(o))
        return gir_error_at(e, gir_loc_none(), "%s: %s: expected an object", path, base);
    if (!cJSON_IsString(node))
        return gir_error_at(e, gir_loc_none(), "%s: %s.node: expected a string", path, base);
    if (strcmp(node->valuestring, s->node))
        return gir_error_at(e, gir_loc_none(),
                            "%s: %s.node: '%s' does not match the model's FPGA layer '%s'", path,
                            base, node->valuestring, s->node);
    if (s->kind == HLS_ST_CONV) {
        if (get_int(o, path, base, "pe_oc", 1, 4096, 1, &v, e))
            return -1;
        s->pe_oc = (int)v;
        if (get_int(o, path, base, "pe_ic", HLS_WLANES_MIN, 4096, 1, &v, e))
            return -1;
        s->pe_ic = (int)v;
        if (get_int(o, path, base, "pp", 1, HLS_PP_MAX, 0, &v, e))
            return -1;
        s->pp = (int)v;
        if (get_int(o, path, base, "pack", 1, 2, 0, &v, e))
            return -1;
        if (v == 2 && s->pe_oc % 2)
            return gir_error_at(e, gir_loc_none(), "%s: %s.pack: 2 needs an even pe_oc", path, base);
        s->pack = (int)v;
        if (get_int(o, path, base, "pipe", 0, 16, 0, &v, e))
            return -1;
        s->pipe = (int)v;
        if (replay_dsp2x(s, o, path, base, e))
            return -1;
    } else {
        if (get_int(o, path, base, "lanes", 1, 4096, 1, &v, e))
            return -1;
        s->lanes = (int)v;
        if (s->kind == HLS_ST_MAXPOOL) {
            if (get_int(o, path, base, "pipe", 0, 16, 0, &v, e))
                return -1;
            s->pipe = (int)v;
        }
    }
    if (get_int(o, path, base, "rq_pipe", 0, 4, 0, &v, e))
        return -1;
    s->rq_pipe = (int)v;
    /* optional: DSP48E2 a requant lane (absent: two) */
    s->rq_dsp = 2;
    if (cJSON_GetObjectItemCaseSensitive(o, "rq_dsp")) {
        if (get_int(o, path, base, "rq_dsp", 1, 2, 0, &v, e))
            return -1;
        if (v == 1 && !hls_has_requant(s))
            return gir_error_at(e, gir_loc_none(),
                                "%s: %s.rq_dsp: only a conv, dwconv or requant stage has "
                                "requant lanes", path, base);
        s->rq_dsp = (int)v;
    }
    if (!cJSON_IsString(w))
        return gir_error_at(e, gir_loc_none(), "%s: %s.weights: expected a string", path, base);
    if (s->whome == HLS_W_NONE ? strcmp(w->valuestring, "-") :
        s->kind == HLS_ST_DWCONV ? strcmp(w->valuestring, "bram") :
        (strcmp(w->valuestring, "bram") && strcmp(w->valuestring, "uram") &&
         strcmp(w->valuestring, "ddr")))
        return gir_error_at(e, gir_loc_none(), "%s: %s.weights: '%s' is not a placement of %s",
                            path, base, w->valuestring, s->desc->name);
    if (s->kind == HLS_ST_CONV)
        s->whome = !strcmp(w->valuestring, "bram") ? HLS_W_BRAM :
                   !strcmp(w->valuestring, "uram") ? HLS_W_URAM : HLS_W_DDR;
    if (get_int(o, path, base, "tog", 0, 1 << 20, 0, &v, e))
        return -1;
    if (s->whome == HLS_W_DDR && v < 1)
        return gir_error_at(e, gir_loc_none(), "%s: %s.tog: weights from DDR need tog >= 1", path,
                            base);
    s->tog = v;
    /* optional: output rows per band of a weight-tiled conv */
    s->band = 0;
    if (cJSON_GetObjectItemCaseSensitive(o, "band")) {
        if (get_int(o, path, base, "band", 1, 1 << 15, 0, &v, e))
            return -1;
        if (!hls_band_ok(s, v))
            return gir_error_at(e, gir_loc_none(),
                                "%s: %s.band: bands take a conv whose weights stream from DDR "
                                "in several tiles, at most its %lld output rows",
                                path, base, (long long)s->oh);
        s->band = v;
    }
    /* optional: the line buffers in URAM288 (LBURAM) */
    s->lburam = 0;
    if (cJSON_GetObjectItemCaseSensitive(o, "lb_uram")) {
        const cJSON *lu = cJSON_GetObjectItemCaseSensitive(o, "lb_uram");
        if (!cJSON_IsBool(lu))
            return gir_error_at(e, gir_loc_none(), "%s: %s.lb_uram: expected true or false", path,
                                base);
        if (cJSON_IsTrue(lu) && ((s->kind != HLS_ST_CONV && s->kind != HLS_ST_DWCONV)))
            return gir_error_at(e, gir_loc_none(),
                                "%s: %s.lb_uram: only a conv or dwconv has line buffers", path, base);
        s->lburam = cJSON_IsTrue(lu);
    }
    /* optional, with bands: the line buffer's rows */
    s->lbrows = 0;
    if (cJSON_GetObjectItemCaseSensitive(o, "lbrows")) {
        if (get_int(o, path, base, "lbrows", 1, 1 << 15, 0, &v, e))
            return -1;
        if (!hls_lbrows_ok(s, v))
            return gir_error_at(e, gir_loc_none(),
                                "%s: %s.lbrows: line-buffer rows of a conv in bands, from its "
                                "band's %lld input rows to its %lld padded input rows",
                                path, base,
                                (long long)(((s->band < s->oh ? s->band : s->oh) - 1) * s->stride + s->k),
                                (long long)(s->h + 2 * s->pad));
        s->lbrows = v;
    }
    if (pin && !cJSON_IsBool(pin))
        return gir_error_at(e, gir_loc_none(), "%s: %s.pinned: expected true or false", path, base);
    s->pinned = cJSON_IsTrue(pin);
    return 0;
}

/* The recorded parts of fold object o (optional: older plans) against the
 * ones hls_fold_apply computed again: the same layers in the table's order,
 * the same (segment, first, count) per part, the same segment order.  A
 * hand edit kiln cannot honour (another split, a part before what it
 * reads) is an error naming the entry.  0 or -1 + e. */
static int replay_parts(const HlsPlan *p, const cJSON *o, const char *path, GirError *e)
{
    const HlsFold *f = &p->fold;
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(o, "parts");
    const cJSON *so = cJSON_GetObjectItemCaseSensitive(o, "segment_order");
    const cJSON *ls = cJSON_GetObjectItemCaseSensitive(o, "layers");
    int i;
    if (!ps && !so)
        return 0;
    for (i = 0; i < f->n; i++) {
        const cJSON *nd = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ls, i), "node");
        if (strcmp(nd->valuestring, f->layers[i].node))
            return gir_error_at(e, gir_loc_none(), "%s: $.fold.layers[%d]: '%s' where the table "
                                "holds '%s' (the parts in frame order, each layer after what it "
                                "reads)", path, i, nd->valuestring, f->layers[i].node);
    }
    if (!cJSON_IsArray(ps) || cJSON_GetArraySize(ps) != f->npart)
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.parts: expected an array of %d parts "
                            "(each run of folded layers between two dataflow segments)", path,
                            f->npart);
    for (i = 0; i < f->npart; i++) {
        const cJSON *q = cJSON_GetArrayItem(ps, i);
        const HlsFoldPart *w = &f->parts[i];
        int64_t sg, first, count;
        char base[48];
        snprintf(base, sizeof base, "$.fold.parts[%d]", i);
        if (!cJSON_IsObject(q))
            return gir_error_at(e, gir_loc_none(), "%s: %s: expected an object", path, base);
        if (get_int(q, path, base, "segment", 0, 1 << 20, 0, &sg, e) ||
            get_int(q, path, base, "first", 0, 1 << 20, 0, &first, e) ||
            get_int(q, path, base, "count", 1, 1 << 20, 0, &count, e))
            return -1;
        if (sg != w->seg || first != w->first || count != w->count)
            return gir_error_at(e, gir_loc_none(), "%s: %s: segment %lld, layers %lld..%lld is not "
                                "a part of a valid frame order: the engine runs segment %d as "
                                "layers %d..%d (a part starts once every dataflow segment it "
                                "reads has run)", path, base, (long long)sg, (long long)first,
                                (long long)(first + count - 1), w->seg, w->first,
                                w->first + w->count - 1);
    }
    if (!cJSON_IsArray(so) || cJSON_GetArraySize(so) != p->nsegment + f->npart)
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.segment_order: expected %d segments",
                            path, p->nsegment + f->npart);
    for (i = 0; i < p->nsegment + f->npart; i++) {
        const cJSON *x = cJSON_GetArrayItem(so, i);
        if (!cJSON_IsNumber(x) || x->valuedouble != (double)f->order[i])
            return gir_error_at(e, gir_loc_none(), "%s: $.fold.segment_order[%d]: expected "
                                "segment %d (each segment after the segments and parts it "
                                "reads)", path, i, f->order[i]);
    }
    return 0;
}

/* The `fold` object o (may be NULL) of the plan at path: its layers leave
 * p's stages onto the shared engine of the recorded size (hls_fold_apply,
 * as the search did); each layer's recorded tog must be the one that size
 * gives.  No fold, or one without layers (not taken): p unchanged.  0 or
 * -1 + e. */
static int replay_fold(HlsPlan *p, const cJSON *o, const char *path, GirError *e)
{
    const cJSON *ls, *hw, *ps;
    char *spec;
    size_t len = 1;
    int64_t pe, oc, tog, ppv, lbv, wbv, x2v, bkv, rwv, rqv, wcv;
    int i, n;
    if (!o)
        return 0;
    if (!cJSON_IsObject(o))
        return gir_error_at(e, gir_loc_none(), "%s: $.fold: expected an object", path);
    ls = cJSON_GetObjectItemCaseSensitive(o, "layers");
    if (!ls)
        return 0;
    if (!cJSON_IsArray(ls))
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.layers: expected an array", path);
    n = cJSON_GetArraySize(ls);
    if (n == 0)
        return 0;
    hw = cJSON_GetObjectItemCaseSensitive(o, "hw");
    if (!cJSON_IsObject(hw))
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.hw: expected an object", path);
    if (get_int(hw, path, "$.fold.hw", "PE_IC", 16, 64, 1, &pe, e) ||
        get_int(hw, path, "$.fold.hw", "PE_OC", 16, 64, 1, &oc, e))
        return -1;
    if (oc != pe)
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.hw: PE_OC %lld is not PE_IC %lld (the "
                            "shared engine's array is square)", path, (long long)oc, (long long)pe);
    ppv = 1;
    if (cJSON_GetObjectItemCaseSensitive(hw, "PP") &&
        get_int(hw, path, "$.fold.hw", "PP", 1, HLS_PP_MAX, 0, &ppv, e))
        return -1;
    if (ppv == 7) /* the PP values the fold search offers: kiln_tsconv's benches */
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.hw.PP: 7 is not one of the shared "
                            "engine's verified PP values (1 to 6, 8)", path);
    lbv = 0; /* absent: the line buffers in block RAM */
    if (cJSON_GetObjectItemCaseSensitive(hw, "LBURAM") &&
        get_int(hw, path, "$.fold.hw", "LBURAM", 0, p->board.uram > 0, 0, &lbv, e))
        return -1;
    wbv = 1; /* absent: one weight bank */
    if (cJSON_GetObjectItemCaseSensitive(hw, "WBANKS") &&
        get_int(hw, path, "$.fold.hw", "WBANKS", 1, 2, 0, &wbv, e))
        return -1;
    bkv = 0; /* absent: PP copies of the line buffer */
    if (cJSON_GetObjectItemCaseSensitive(hw, "LBBANK") &&
        get_int(hw, path, "$.fold.hw", "LBBANK", 0, 1 << 20, 0, &bkv, e))
        return -1;
    rwv = 0; /* absent: the line buffer of the rows KMAX needs */
    if (cJSON_GetObjectItemCaseSensitive(hw, "LBROWS") &&
        get_int(hw, path, "$.fold.hw", "LBROWS", 0, 64, 0, &rwv, e))
        return -1;
    rqv = 2; /* absent: two DSP48E2 a requant lane */
    if (cJSON_GetObjectItemCaseSensitive(hw, "RQ_DSP") &&
        get_int(hw, path, "$.fold.hw", "RQ_DSP", 1, 2, 0, &rqv, e))
        return -1;
    x2v = 0; /* absent: the multipliers on the fabric clock */
    if (cJSON_GetObjectItemCaseSensitive(hw, "DSP2X") &&
        get_int(hw, path, "$.fold.hw", "DSP2X", 0, 2, 0, &x2v, e))
        return -1;
    wcv = 1; /* absent: the weights on master 0 alone */
    if (cJSON_GetObjectItemCaseSensitive(hw, "WCH") &&
        get_int(hw, path, "$.fold.hw", "WCH", 1, 2, 0, &wcv, e))
        return -1;
    if (x2v && !p->clk2x)
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.hw.DSP2X: %lld needs the plan's clk2x "
                            "domain ($.clk2x true)", path, (long long)x2v);
    if (x2v == 2 && ppv % 2)
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.hw.DSP2X: 2 (pixel pairs) needs an "
                            "even PP, not %lld", path, (long long)ppv);
    for (i = 0; i < n; i++) {
        const cJSON *nd = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ls, i), "node");
        if (!cJSON_IsString(nd) || !nd->valuestring[0] || strchr(nd->valuestring, ','))
            return gir_error_at(e, gir_loc_none(), "%s: $.fold.layers[%d].node: expected a layer "
                                "name", path, i);
        len += strlen(nd->valuestring) + 1;
    }
    spec = malloc(len);
    if (!spec)
        gir_die("out of memory");
    spec[0] = 0;
    for (i = 0; i < n; i++) {
        if (i)
            strcat(spec, ",");
        strcat(spec, cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ls, i), "node")->valuestring);
    }
    i = hls_fold_apply(p, spec, (int)pe, (int)ppv,
                       (lbv ? HLS_FOLD_LBURAM : 0) | (wbv == 2 ? HLS_FOLD_WB2 : 0) |
                           (x2v ? HLS_FOLD_DSP2X : 0) | (x2v == 2 ? HLS_FOLD_DSP2P : 0) |
                           (bkv ? HLS_FOLD_LBBANK : 0) | (rwv ? HLS_FOLD_LBR2 : 0) |
                           (wcv == 2 ? HLS_FOLD_WCH2 : 0), e);
    free(spec);
    {   /* a gated plan came from a latency bound: its replay times the gates too */
        const cJSON *gt = cJSON_GetObjectItemCaseSensitive(o, "gate");
        p->fold_gates = cJSON_IsNumber(gt) && gt->valuedouble > 0;
    }
    if (i < 0) { /* its message names --fold: say where the names came from */
        GirError why;
        if (!e)
            return -1;
        why = *e;
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.layers: %s", path, why.msg);
    }
    if (i != n)
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.layers: %d entries name %d layers", path,
                            n, i);
    if (wcv == 2 && !hls_fold_hp_free(p))
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.hw.WCH: 2 needs an HP port of %s "
                            "beyond the design's masters for the weights' second master", path,
                            p->board.name);
    {   /* LBROWS a choice: 0, or the one value of twice the rows */
        const HlsEngineDesc *d = hls_engine_find("kiln_tsconv");
        int64_t rows = p->fold.hw[hls_param_index(d->hw_params, "LBROWS")];
        if (rwv != rows)
            return gir_error_at(e, gir_loc_none(), "%s: $.fold.hw.LBROWS: %lld, the engine takes "
                                "0 or %lld (twice the line-buffer rows of KMAX %lld)", path,
                                (long long)rwv, (long long)rows,
                                (long long)p->fold.hw[hls_param_index(d->hw_params, "KMAX")]);
    }
    if (rqv == 1)
        hls_fold_set_rq_dsp(p, 1);
    /* the parts' cuts (a part starting where the layer before is of its
     * phase), made before the tiles: a part's first layer may take
     * another */
    ps = cJSON_GetObjectItemCaseSensitive(o, "parts");
    for (i = 0; cJSON_IsArray(ps) && i < cJSON_GetArraySize(ps); i++) {
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ps, i), "first");
        int at = cJSON_IsNumber(q) ? (int)q->valuedouble : -1;
        if (at > 0 && at < p->fold.n && (double)at == q->valuedouble &&
            p->fold.layers[at].phase == p->fold.layers[at - 1].phase &&
            !p->fold.layers[at].cut) {
            if (hls_fold_cut(p, at, 1, e) < 0)
                return -1;
            p->fold_gates = 1; /* a cut plan came from a latency bound */
        }
    }
    /* the dataflow segments split in two (hls_fold_split), in stage order */
    ps = cJSON_GetObjectItemCaseSensitive(o, "splits");
    if (ps && !cJSON_IsArray(ps))
        return gir_error_at(e, gir_loc_none(), "%s: $.fold.splits: expected an array of stage "
                            "names", path);
    for (i = 0; ps && i < cJSON_GetArraySize(ps); i++) {
        const cJSON *q = cJSON_GetArrayItem(ps, i);
        int at;
        for (at = 0; cJSON_IsString(q) && at < p->nstage && strcmp(p->stages[at].node,
                                                                   q->valuestring); at++)
            ;
        if (!cJSON_IsString(q) || at == p->nstage)
            return gir_error_at(e, gir_loc_none(), "%s: $.fold.splits[%d]: expected the name of "
                                "a stage in the dataflow", path, i);
        if (hls_fold_split(p, at, e) < 0) {
            GirError why;
            if (!e)
                return -1;
            why = *e;
            return gir_error_at(e, gir_loc_none(), "%s: $.fold.splits[%d]: %s", path, i, why.msg);
        }
    }
    /* the tiles follow from the size: a differing one is a hand edit kiln
     * cannot honour */
    for (i = 0; i < n; i++) {
        const cJSON *l = cJSON_GetArrayItem(ls, i);
        const char *node = cJSON_GetObjectItemCaseSensitive(l, "node")->valuestring;
        char base[48];
        int j;
        snprintf(base, sizeof base, "$.fold.layers[%d]", i);
        if (get_int(l, path, base, "tog", 1, 1 << 20, 0, &tog, e))
            return -1;
        for (j = 0; j < p->fold.n && strcmp(p->fold.layers[j].node, node); j++)
            ;
        if (j < p->fold.n && p->fold.layers[j].tog != tog)
            return gir_error_at(e, gir_loc_none(), "%s: %s.tog: %lld, the %lldx%lld engine takes "
                                "%lld output groups a tile of '%s'", path, base, (long long)tog,
                                (long long)pe, (long long)pe, (long long)p->fold.layers[j].tog,
                                node);
    }
    if (replay_parts(p, o, path, e) < 0)
        return -1;
    snprintf(p->fold.why, sizeof p->fold.why, "replayed from %s: %d conv layers on a %lldx%lld "
             "array%s", path, n, (long long)pe, (long long)pe,
             x2v == 2 ? ", DSPs on clk2x (pixel pairs, DSP2X 2)" :
             x2v ? ", DSPs on clk2x (input-lane pairs, DSP2X 1)" : "");
    return 0;
}

/* The moves of $.cpu_fit (o; NULL: none) into *ms, each layer a node of g
 * (hls_moves_free frees it).  0, or -1 + e naming the JSON path. */
static int replay_moves(const GirGraph *g, const cJSON *o, const char *path, HlsMoveSet *ms,
                        GirError *e)
{
    const cJSON *mv = cJSON_GetObjectItemCaseSensitive(o, "moves"), *ma, *m;
    int k = 0;
    memset(ms, 0, sizeof *ms);
    if (!o)
        return 0;
    ma = cJSON_GetObjectItemCaseSensitive(o, "macs_all");
    if (!cJSON_IsObject(o) || !cJSON_IsArray(mv) || cJSON_GetArraySize(mv) < 1 ||
        !cJSON_IsNumber(ma) || !(ma->valuedouble >= 0) || ma->valuedouble > 1e18)
        return gir_error_at(e, gir_loc_none(), "%s: $.cpu_fit: expected {\"macs_all\": MACs, "
                            "\"moves\": [a move or more]}", path);
    ms->macs_all = (int64_t)ma->valuedouble;
    cJSON_ArrayForEach(m, mv) {
        const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(m, "nodes"), *nd;
        const cJSON *bud = cJSON_GetObjectItemCaseSensitive(m, "budget");
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(m, "why");
        HlsMove *h;
        int j = 0;
        if (!cJSON_IsArray(nodes) || cJSON_GetArraySize(nodes) < 1 || !cJSON_IsString(bud) ||
            !bud->valuestring[0] || strlen(bud->valuestring) >= sizeof h->over ||
            !cJSON_IsString(why) || strlen(why->valuestring) >= sizeof h->why) {
            hls_moves_free(ms);
            return gir_error_at(e, gir_loc_none(), "%s: $.cpu_fit.moves[%d]: expected {\"nodes\": "
                                "[names], \"budget\": 1 to %d characters, \"why\": up to %d}",
                                path, k, (int)sizeof h->over - 1, (int)sizeof h->why - 1);
        }
        ms->moves = realloc(ms->moves, sizeof *ms->moves * (size_t)(ms->nmove + 1));
        if (!ms->moves)
            gir_die("out of memory");
        h = &ms->moves[ms->nmove++];
        memset(h, 0, sizeof *h);
        h->first = ms->nnode;
        snprintf(h->over, sizeof h->over, "%s", bud->valuestring);
        snprintf(h->why, sizeof h->why, "%s", why->valuestring);
        cJSON_ArrayForEach(nd, nodes) {
            int id;
            for (id = 0; cJSON_IsString(nd) && id < g->nnode; id++)
                if (g->nodes[id].name && !strcmp(g->nodes[id].name, nd->valuestring))
                    break;
            if (!cJSON_IsString(nd) || id >= g->nnode) {
                hls_moves_free(ms);
                return gir_error_at(e, gir_loc_none(), "%s: $.cpu_fit.moves[%d].nodes[%d]: "
                                    "expected the name of a node of the model", path, k, j);
            }
            ms->nodes = realloc(ms->nodes, sizeof *ms->nodes * (size_t)(ms->nnode + 1));
            ms->names = realloc(ms->names, sizeof *ms->names * (size_t)(ms->nnode + 1));
            if (!ms->nodes || !ms->names)
                gir_die("out of memory");
            ms->nodes[ms->nnode] = id;
            ms->names[ms->nnode++] = g->nodes[id].name;
            h->count++;
            j++;
        }
        k++;
    }
    return 0;
}

HlsPlan *hls_plan_replay(const GirGraph *g, const HlsBoard *b, const char *text,
                         const char *path, double mhz, GirError *e)
{
    cJSON *root = cJSON_Parse(text);
    const cJSON *ver, *clk, *st;
    HlsPlan *p = NULL;
    char over[160];
    int i, n;
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        long off = at ? (long)(at - text) : -1;
        gir_error_at(e, gir_loc_none(), "%s: not valid JSON (byte %ld)", path, off);
        return NULL;
    }
    ver = cJSON_GetObjectItemCaseSensitive(root, "kiln_plan");
    clk = cJSON_GetObjectItemCaseSensitive(root, "clock_mhz");
    st = cJSON_GetObjectItemCaseSensitive(root, "stages");
    if (!cJSON_IsObject(root)) {
        gir_error_at(e, gir_loc_none(), "%s: $: expected an object", path);
        goto fail;
    }
    if (!cJSON_IsNumber(ver) || ver->valuedouble != PLAN_FORMAT) {
        gir_error_at(e, gir_loc_none(), "%s: $.kiln_plan: expected %d", path, PLAN_FORMAT);
        goto fail;
    }
    if (!cJSON_IsNumber(clk) || !(clk->valuedouble > 0.0)) {
        gir_error_at(e, gir_loc_none(), "%s: $.clock_mhz: expected a positive number", path);
        goto fail;
    }
    if (!cJSON_IsArray(st)) {
        gir_error_at(e, gir_loc_none(), "%s: $.stages: expected an array", path);
        goto fail;
    }
    {
        const cJSON *lc = cJSON_GetObjectItemCaseSensitive(root, "lut_cpu");
        if (lc && (!cJSON_IsString(lc) || !lc->valuestring[0] ||
                   strlen(lc->valuestring) >= sizeof p->lut_cpu)) {
            gir_error_at(e, gir_loc_none(), "%s: $.lut_cpu: expected a reason of 1 to %d characters",
                         path, (int)sizeof p->lut_cpu - 1);
            goto fail;
        }
        HlsMoveSet ms;
        if (replay_moves(g, cJSON_GetObjectItemCaseSensitive(root, "cpu_fit"), path, &ms, e) < 0)
            goto fail;
        p = hls_plan_new(g, b, mhz > 0 ? mhz : clk->valuedouble, lc ? lc->valuestring : NULL,
                         ms.nmove ? &ms : NULL, e);
        hls_moves_free(&ms);
    }
    if (!p)
        goto fail;
    {
        const cJSON *c2 = cJSON_GetObjectItemCaseSensitive(root, "clk2x");
        char why[200];
        if (c2 && !cJSON_IsBool(c2)) {
            gir_error_at(e, gir_loc_none(), "%s: $.clk2x: expected true or false", path);
            goto fail;
        }
        if (cJSON_IsTrue(c2)) {
            if (!hls_clk2x_fits(b, p->mhz, why, sizeof why)) {
                gir_error_at(e, gir_loc_none(), "%s: $.clk2x: %s", path, why);
                goto fail;
            }
            hls_plan_set_clk2x(p, 1);
        }
    }
    if (replay_fold(p, cJSON_GetObjectItemCaseSensitive(root, "fold"), path, e) < 0)
        goto fail;
    n = cJSON_GetArraySize(st);
    if (n != p->nstage) {
        gir_error_at(e, gir_loc_none(), "%s: $.stages: %d stages, the model has %d FPGA layers",
                     path, n, p->nstage);
        goto fail;
    }
    for (i = 0; i < n; i++) {
        char base[48];
        snprintf(base, sizeof base, "$.stages[%d]", i);
        if (replay_stage(&p->stages[i], cJSON_GetArrayItem(st, i), path, base, e) < 0)
            goto fail;
    }
    p->replayed = 1;
    for (i = 0; i < p->nstage; i++) {
        HlsStage *s = &p->stages[i];
        if (s->kind == HLS_ST_CONV && s->pe_ic > 4 * s->cin + 4) {
            gir_error_at(e, gir_loc_none(), "%s: $.stages[%d].pe_ic: %d lanes for %lld channels",
                         path, i, s->pe_ic, (long long)s->cin);
            goto fail;
        }
    }
    {   /* the bound the plan was made under: the way of running its frames
         * it kept (hls_fold_finish: the shortest interval within it) */
        const cJSON *ml = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(root, "figures"), "max_latency_ms");
        if (ml && (!cJSON_IsNumber(ml) || !(ml->valuedouble > 0) || ml->valuedouble > 1e6)) {
            gir_error_at(e, gir_loc_none(), "%s: $.figures.max_latency_ms: expected a number of "
                         "ms above 0", path);
            goto fail;
        }
        p->max_latency_ms = ml ? ml->valuedouble : 0;
    }
    if (hls_plan_reeval(p, e) < 0)
        goto fail;
    if (hls_plan_over_budget(p, over, sizeof over)) {
        gir_error_at(e, gir_loc_none(), "%s: the plan does not fit %s: it exceeds %s", path,
                     p->board.name, over);
        goto fail;
    }
    cJSON_Delete(root);
    return p;
fail:
    cJSON_Delete(root);
    hls_plan_free(p);
    return NULL;
}
