/*
 * driver_write.c: DIR/driver, the per-model driver (docs/driver.md):
 * model.h and model.c generated from the step list (driver.c), the CPU
 * partitions' headers and objects (driver_cpu.c) with model.cmake and
 * model.mk naming them, the detector's anchors (YoloHead nodes, or --detect/--anchors/--classes) and
 * the preprocessing options; beside them the files embedded at build time
 * (driver_embed.cmake): kiln-infer's sources, CMakeLists.txt,
 * toolchain-aarch64.cmake, Makefile and libkiln-rt under kiln-rt/.
 */
#define _POSIX_C_SOURCE 200809L

#include "pipeline/driver_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One embedded file (driver_embed.c, generated). */
typedef struct {
    const char *name;          /* path inside DIR/driver */
    const unsigned char *data; /* its bytes */
    size_t len;                /* their count */
} RtlDriverFile;
extern const RtlDriverFile rtl_driver_files[];
extern const int rtl_driver_nfiles;

/* The detector as model.c states it. */
typedef struct {
    int kind;                       /* RTL_DETECT_ */
    int classes;                    /* classes per anchor */
    int activated;                  /* 1: YoloHead outputs (logistic applied) */
    int na[DRV_MAX_IO];             /* anchors per output */
    float a[DRV_MAX_IO][RTL_DRV_MAX_ANCHORS]; /* W,H pairs per output */
} Det;

/* An options error: e set, -1. */
#define OPT_ERR(e, ...) (gir_error_at(e, gir_loc_none(), __VA_ARGS__), -1)

/* Output i's channel count, or -1 when not [1, C, H, W]. */
static int64_t out_channels(const GirGraph *g, int i)
{
    const GirType *t = &g->vals[g->outputs[i]].type;
    return t->rank == 4 && t->dims[0] == 1 ? t->dims[1] : -1;
}

/* Anchors from the graph's YoloHead nodes (every output one), 0 when there
 * are none. */
static int det_from_graph(const GirGraph *g, Det *d, GirError *e)
{
    int i, k, n, heads = 0;
    for (i = 0; i < g->noutput; i++) {
        int pr = g->vals[g->outputs[i]].producer;
        const GirNode *nd = pr >= 0 ? &g->nodes[pr] : NULL;
        const int64_t *mask;
        const GirAttr *an;
        if (!nd || nd->op != GIR_OP_YOLO)
            continue;
        heads++;
        mask = gir_attr_ints(nd, "mask", &n);
        an = gir_attr(nd, "anchors");
        d->classes = (int)gir_attr_int(nd, "classes", 0);
        for (k = 0; k < n && 2 * k + 1 < RTL_DRV_MAX_ANCHORS; k++) {
            if (!an || 2 * mask[k] + 1 >= an->n)
                return OPT_ERR(e, "driver: YoloHead '%s': a mask entry without an anchor",
                               nd->name);
            d->a[i][2 * k] = an->floats[2 * mask[k]];
            d->a[i][2 * k + 1] = an->floats[2 * mask[k] + 1];
        }
        d->na[i] = n;
    }
    if (heads && heads != g->noutput)
        return OPT_ERR(e, "driver: %s: some outputs are YoloHead nodes, some not", g->name);
    if (heads) {
        d->kind = RTL_DETECT_YOLOV3;
        d->activated = 1;
    }
    return 0;
}

/* Anchors from --anchors: split evenly over the outputs in output order. */
static int det_from_options(const GirGraph *g, const RtlDriverOptions *o, Det *d, GirError *e)
{
    int i, k, per;
    if (!o->has_classes || !o->nanchors)
        return OPT_ERR(e, "compile: --detect %s needs --anchors and --classes",
                       o->detect == RTL_DETECT_REGION ? "region" : "yolov3");
    if ((o->nanchors / 2) % g->noutput)
        return OPT_ERR(e, "compile: --anchors: the anchors do not split evenly over the %s "
                       "outputs (given in output order, the same number for each)", g->name);
    per = o->nanchors / 2 / g->noutput;
    d->kind = o->detect;
    d->classes = o->classes;
    for (i = 0; i < g->noutput; i++) {
        if (out_channels(g, i) != (int64_t)per * (5 + o->classes)) {
            char msg[300];
            snprintf(msg, sizeof msg, "compile: --detect: output '%s' is not [1, %d, H, W] (%d "
                     "anchors x (5 + %d classes))", g->vals[g->outputs[i]].name,
                     per * (5 + o->classes), per, o->classes);
            return OPT_ERR(e, "%s", msg);
        }
        d->na[i] = per;
        for (k = 0; k < 2 * per; k++)
            d->a[i][k] = o->anchors[2 * per * i + k];
    }
    return 0;
}

static int any_preproc(const RtlDriverOptions *o)
{
    return o->nmean || o->nstd || o->has_scale || o->bgr || o->nhwc || o->alpha || o->pad;
}

/* The preprocessing options against the model's input. */
static int check_preproc(const GirGraph *g, const RtlDriverOptions *o, GirError *e)
{
    const GirValue *v = g->ninput == 1 ? &g->vals[g->inputs[0]] : NULL;
    int c = o->alpha ? 4 : 3;
    if (o->nstd && o->has_scale)
        return OPT_ERR(e, "compile: %s: give one of --std and --scale", "--std --scale");
    if ((o->nmean == 4 || o->nstd == 4) && !o->alpha)
        return OPT_ERR(e, "compile: %s: 4 values need --alpha", o->nmean == 4 ? "--mean" : "--std");
    if (!any_preproc(o))
        return 0;
    if (!v || v->type.rank != 4 || v->type.dims[0] != 1 ||
        v->type.dims[o->nhwc ? 3 : 1] != c) {
        char msg[300];
        snprintf(msg, sizeof msg, "compile: the preprocessing options make a [1,%s] input of %d "
                 "channels; model %s %s", o->nhwc ? "H,W,C" : "C,H,W", c, g->name,
                 v ? "has another input shape" : "does not have one input");
        return OPT_ERR(e, "%s", msg);
    }
    return 0;
}

static int make_det(const GirGraph *g, const RtlDriverOptions *o, Det *d, GirError *e)
{
    memset(d, 0, sizeof *d);
    if (det_from_graph(g, d, e) < 0)
        return -1;
    if (d->kind && o->detect)
        return OPT_ERR(e, "compile: --detect: %s has YoloHead nodes (the Darknet [yolo] "
                       "anchors are used)", g->name);
    if (!o->detect && (o->nanchors || o->has_classes))
        return OPT_ERR(e, "compile: %s without --detect", o->nanchors ? "--anchors" : "--classes");
    if (o->detect)
        return det_from_options(g, o, d, e);
    return 0;
}

int rtl_driver_check(const HlsPlan *p, const GirGraph *g, const RtlDriverOptions *o,
                     GirError *e)
{
    DrvPlan d;
    Det det;
    int rc;
    if (check_preproc(g, o, e) < 0 || make_det(g, o, &det, e) < 0)
        return -1;
    rc = drv_plan(p, g, &d, e);
    drv_plan_free(&d);
    return rc;
}

/* ---- model.h and model.c ---- */

/* s as a C string literal. */
static void c_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            strchr("_-.:/ +", ch))
            fputc(ch, f);
        else
            fprintf(f, "\\%03o", ch);
    }
    fputc('"', f);
}

/* A float exactly, as a hex literal. */
static void c_float(FILE *f, float v)
{
    fprintf(f, "%af", (double)v);
}

static void emit_tensor(FILE *f, const GirValue *v)
{
    int i;
    fprintf(f, "        {");
    c_str(f, v->name);
    fprintf(f, ", %d, {", v->type.rank);
    for (i = 0; i < v->type.rank; i++)
        fprintf(f, "%s%lld", i ? ", " : "", (long long)v->type.dims[i]);
    fprintf(f, "}},\n");
}

/* A double exactly, as a hex literal. */
static void c_double(FILE *f, double v)
{
    fprintf(f, "%a", v);
}

/* The KrtPreproc of the options (kiln_preproc.h): std 1 when not given,
 * scale 0 unless --scale. */
static void emit_preproc(FILE *f, const RtlDriverOptions *o)
{
    int k;
    fprintf(f, "    .pre = {.mean = {");
    for (k = 0; k < 4; k++) {
        fprintf(f, "%s", k ? ", " : "");
        c_double(f, k < o->nmean ? o->mean[k] : 0.0);
    }
    fprintf(f, "},\n            .std = {");
    for (k = 0; k < 4; k++) {
        fprintf(f, "%s", k ? ", " : "");
        c_double(f, k < o->nstd ? o->stdv[k] : 1.0);
    }
    fprintf(f, "},\n            .scale = ");
    c_double(f, o->has_scale ? o->scale : 0.0);
    fprintf(f, ", .bgr = %d, .nhwc = %d, .alpha = %d, .pad = %d},\n", o->bgr, o->nhwc, o->alpha,
            o->pad);
}

static void emit_det(FILE *f, const GirGraph *g, const RtlDriverOptions *o, const Det *d)
{
    int i;
    fprintf(f, "    .det = {.kind = %s, .classes = %d, .activated = %d,\n",
            d->kind == RTL_DETECT_NONE ? "KD_DETECT_NONE" : d->kind == RTL_DETECT_YOLOV3
            ? "KD_DETECT_YOLOV3" : "KD_DETECT_REGION", d->classes, d->activated);
    fprintf(f, "            .nanchors = {");
    for (i = 0; d->kind && i < g->noutput; i++)
        fprintf(f, "%s%d", i ? ", " : "", d->na[i]);
    fprintf(f, "},\n            .anchors = {");
    for (i = 0; d->kind && i < g->noutput; i++)
        fprintf(f, "%sanchors%d", i ? ", " : "", i);
    fprintf(f, "},\n            .score_threshold = ");
    c_float(f, o->score_thr);
    fprintf(f, ", .iou_threshold = ");
    c_float(f, o->iou_thr);
    fprintf(f, "},\n");
}

static void emit_info(FILE *f, const GirGraph *g, const RtlDriverOptions *o, const Det *d)
{
    int i, k;
    for (i = 0; d->kind && i < g->noutput; i++) {
        fprintf(f, "static const float anchors%d[] = {", i);
        for (k = 0; k < 2 * d->na[i]; k++) {
            fprintf(f, "%s", k ? ", " : "");
            c_float(f, d->a[i][k]);
        }
        fprintf(f, "};\n");
    }
    fprintf(f, "\nconst KdModelInfo kd_model = {\n    .name = ");
    c_str(f, g->name);
    fprintf(f, ",\n    .ninputs = %d,\n    .noutputs = %d,\n    .in = {\n", g->ninput, g->noutput);
    for (i = 0; i < g->ninput; i++)
        emit_tensor(f, &g->vals[g->inputs[i]]);
    fprintf(f, "    },\n    .out = {\n");
    for (i = 0; i < g->noutput; i++)
        emit_tensor(f, &g->vals[g->outputs[i]]);
    fprintf(f, "    },\n");
    emit_preproc(f, o);
    emit_det(f, g, o, d);
    fprintf(f, "};\n");
}

/* The per-channel scales of a DequantizeLinear step, as a static array. */
static void emit_chscales(FILE *f, const Step *s)
{
    int c;
    if (s->kind != STEP_DEQUANT || !s->chscale)
        return;
    fprintf(f, "\n/* graph output %d: the scale of each channel */\n"
               "static const float kd_scales_out%d[%d] = {", s->out, s->out, s->nch);
    for (c = 0; c < s->nch; c++) {
        fputs(c % 6 ? " " : "\n    ", f);
        c_float(f, s->chscale[c]);
        fputc(',', f);
    }
    fprintf(f, "\n};\n");
}

/* The C type of a model.c buffer of dtype t (driver.c's buffer_dtype). */
static const char *c_type(GirDType t)
{
    switch (t) {
    case GIR_DT_I8: return "int8_t";
    case GIR_DT_U8: return "uint8_t";
    case GIR_DT_I32: return "int32_t";
    case GIR_DT_I64: return "int64_t";
    default: return "float";
    }
}

/* Graph output index of v when a CPU step makes it (model.c writes it in
 * place into outputs[]), else -1. */
static int cpu_output(const GirGraph *g, const DrvPlan *dp, int v)
{
    int i, pr = g->vals[v].producer;
    if (pr < 0 || dp->steps[dp->unit[pr]].kind != STEP_CPU)
        return -1;
    for (i = 0; i < g->noutput; i++)
        if (g->outputs[i] == v)
            return i;
    return -1;
}

/* exchanged(): v into order unless seen. */
static void exchanged_add(char *seen, int *order, int *m, int v)
{
    if (!seen[v]) {
        seen[v] = 1;
        order[(*m)++] = v;
    }
}

/* The values the steps exchange, each once, in the order the schedule first
 * names them (the buffers' numbers and order: the same for the same graph
 * text whatever the value ids); *n gets the count.  Caller frees. */
static int *exchanged(const GirGraph *g, const DrvPlan *dp, int *n)
{
    char *seen = calloc((size_t)g->nval + 1, 1);
    int *order = malloc(sizeof *order * ((size_t)g->nval + 1));
    int i, k, m = 0;
    if (!seen || !order)
        gir_die("out of memory");
    for (i = 0; i < dp->nsteps; i++) {
        const Step *s = &dp->steps[i];
        if (s->val >= 0)
            exchanged_add(seen, order, &m, s->val);
        for (k = 0; k < s->nreads; k++)
            exchanged_add(seen, order, &m, s->reads[k]);
        for (k = 0; k < s->nwrites; k++)
            exchanged_add(seen, order, &m, s->writes[k]);
    }
    free(seen);
    *n = m;
    return order;
}

/* The number of value v's buffer in model.c (its place in exchanged()). */
static int buf_no(const GirGraph *g, const DrvPlan *dp, int v)
{
    int n, i, *order = exchanged(g, dp, &n), r = -1;
    for (i = 0; i < n && r < 0; i++)
        if (order[i] == v)
            r = i;
    free(order);
    return r;
}

/* Where model.c holds value v: inputs[k], outputs[k] or its buffer. */
static void val_expr(FILE *f, const GirGraph *g, const DrvPlan *dp, int v)
{
    int i, k = cpu_output(g, dp, v);
    for (i = 0; i < g->ninput; i++)
        if (g->inputs[i] == v) {
            fprintf(f, "inputs[%d]", i);
            return;
        }
    if (k >= 0)
        fprintf(f, "outputs[%d]", k);
    else
        fprintf(f, "kd_v%d", buf_no(g, dp, v));
}

/* The buffers of the values the steps exchange, in schedule order. */
static void emit_buffers(FILE *f, const GirGraph *g, const DrvPlan *dp)
{
    char ty[256];
    int n, i, k, *order = exchanged(g, dp, &n);
    for (k = 0; k < n; k++) {
        const GirValue *v = &g->vals[order[k]];
        int input = 0;
        for (i = 0; i < g->ninput; i++)
            input |= g->inputs[i] == order[k];
        if (input || cpu_output(g, dp, order[k]) >= 0)
            continue;
        fprintf(f, "/* '%s' %s */\nstatic %s kd_v%d[%lld];\n", v->name,
                gir_type_str(&v->type, ty, sizeof ty), c_type(v->type.dtype), k,
                (long long)gir_type_numel(&v->type));
    }
    free(order);
}

/* 1 when value v's buffer holds the stream's HWC order: made by a STEP_QUANT
 * of an NHWC input, or read by a STEP_DEQUANT into an NHWC output. */
static int hwc_buffer(const DrvPlan *dp, int v)
{
    int i;
    for (i = 0; i < dp->nsteps; i++)
        if (dp->steps[i].hwc && dp->steps[i].val == v)
            return 1;
    return 0;
}

/* kd_put_value / kd_get_value of value v at segment s (frame: the
 * kd_put_frame_value / kd_get_frame_value of frame f). */
static void emit_transfer(FILE *f, const GirGraph *g, const DrvPlan *dp, int v, int put,
                          int frame)
{
    const GirValue *x = &g->vals[v];
    fprintf(f, "    if (kd_%s_%svalue(r, %s", put ? "put" : "get", frame ? "frame_" : "",
            frame ? "f, " : "");
    c_str(f, x->name);
    fprintf(f, ", ");
    val_expr(f, g, dp, v);
    fprintf(f, ", %lld, %d, err) < 0)\n        return -1;\n", (long long)gir_type_numel(&x->type),
            x->layout != GIR_LAYOUT_NHWC && !hwc_buffer(dp, v));
}

static void emit_list(FILE *f, const GirGraph *g, const DrvPlan *dp, const int *v, int n)
{
    int k;
    for (k = 0; k < n; k++) {
        fprintf(f, "%s", k ? ", " : "");
        val_expr(f, g, dp, v[k]);
    }
    if (!n)
        fprintf(f, "0");
}

static void emit_cpu(FILE *f, const GirGraph *g, const DrvPlan *dp, const Step *s)
{
    int i, unit = (int)(s - dp->steps), n = 0;
    fprintf(f, "    /* CPU partition %d (cpu%d.h):", s->seg, s->seg);
    for (i = 0; i < g->nnode; i++)
        if (dp->unit[i] == unit && n++ < 8)
            fprintf(f, " %s '%s'", gir_op_name(g->nodes[i].op), g->nodes[i].name);
    fprintf(f, "%s */\n    {\n        const void *const in[] = {", n > 8 ? " ..." : "");
    emit_list(f, g, dp, s->reads, s->nreads);
    fprintf(f, "};\n        void *const out[] = {");
    emit_list(f, g, dp, s->writes, s->nwrites);
    fprintf(f, "};\n        kiln_cpu%d(in, out);\n    }\n", s->seg);
}

static void emit_step(FILE *f, const HlsPlan *p, const GirGraph *g, const DrvPlan *dp,
                      const Step *s)
{
    const GirNode *n = &g->nodes[s->node];
    const GirValue *v = s->val >= 0 ? &g->vals[s->val] : NULL;
    long long num = v ? (long long)gir_type_numel(&v->type) : 0;
    int i, stages = 0;
    switch (s->kind) {
    case STEP_QUANT:
        fprintf(f, "    /* %s '%s': graph input %d to int8 (scale %.9g, zero point %d)%s */\n"
                   "    kd_quantize(inputs[%d], %lld, ", gir_op_name(n->op), n->name, s->in,
                (double)s->scale, s->zp,
                s->hwc ? "; the input is NHWC, the stream's order: its Transpose folded here"
                       : "",
                s->in, num);
        c_float(f, s->scale);
        fprintf(f, ", %d, ", s->zp);
        val_expr(f, g, dp, s->val);
        fprintf(f, ");\n");
        break;
    case STEP_SEG:
        for (i = 0; i < p->nstage; i++)
            stages += p->stages[i].segment == s->seg;
        if (s->seg >= p->nsegment) /* a part of the shared engine */
            fprintf(f, "    /* FPGA segment %d: the shared conv engine's part %d, %d layers one "
                       "after the other, through libkiln-rt */\n", s->seg, s->seg - p->nsegment,
                    p->fold.parts[s->seg - p->nsegment].count);
        else
            fprintf(f, "    /* FPGA segment %d: %d layers, through libkiln-rt */\n", s->seg,
                    stages);
        for (i = 0; i < s->nreads; i++)
            emit_transfer(f, g, dp, s->reads[i], 1, 0);
        fprintf(f, "    if (kd_run_segment(r, %d, timeout_ms, err) < 0)\n        return -1;\n",
                s->seg);
        for (i = 0; i < s->nwrites; i++)
            emit_transfer(f, g, dp, s->writes[i], 0, 0);
        break;
    case STEP_CPU:
        emit_cpu(f, g, dp, s);
        break;
    case STEP_DEQUANT:
        if (s->chscale) {
            fprintf(f, "    /* %s '%s': to fp32 graph output %d (a scale per channel)%s */\n"
                       "    kd_dequantize_ch(", gir_op_name(n->op), n->name, s->out,
                    s->hwc ? "; NHWC as the stream's bytes lie: the Transpose folded here" : "");
            val_expr(f, g, dp, s->val);
            fprintf(f, ", %lld, kd_scales_out%d, %d, %lld, outputs[%d]);\n", num, s->out, s->nch,
                    s->inner, s->out);
            break;
        }
        fprintf(f, "    /* %s '%s': to fp32 graph output %d (scale %.9g, zero point %d)%s */\n"
                   "    kd_dequantize(", gir_op_name(n->op), n->name, s->out, (double)s->scale,
                s->zp, s->hwc ? "; NHWC as the stream's bytes lie: the Transpose folded here" : "");
        val_expr(f, g, dp, s->val);
        fprintf(f, ", %lld, ", num);
        c_float(f, s->scale);
        fprintf(f, ", %d, outputs[%d]);\n", s->zp, s->out);
        break;
    case STEP_YOLO: {
        const GirType *t = &g->vals[n->in[0]].type;
        fprintf(f, "    /* %s '%s' on graph output %d */\n    kd_yolo_head(outputs[%d], %lld, "
                   "%lld, %d);\n", gir_op_name(n->op), n->name, s->out, s->out,
                (long long)t->dims[1], (long long)(t->dims[2] * t->dims[3]),
                (int)gir_attr_int(n, "classes", 0));
        break;
    }
    }
}

/* Why model.c runs several frames one after the other, or "" when the FPGA
 * part is one folded plan whose frames libkiln-rt runs at once
 * (krt_run_frames): a shared engine, no CPU step, each quantized input read
 * and each dequantized output written by an FPGA segment. */
static const char *frames_why(const HlsPlan *p, const DrvPlan *dp)
{
    int i, k, ok;
    if (p->fold.n == 0)
        return "the plan has no shared engine (kiln compile --fold)";
    if (dp->ncpu)
        return "CPU steps run between the FPGA segments";
    for (i = 0; i < dp->nsteps; i++) {
        const Step *s = &dp->steps[i];
        if (s->kind != STEP_QUANT && s->kind != STEP_DEQUANT)
            continue;
        for (k = 0, ok = 0; k < dp->nsteps; k++) {
            const Step *t = &dp->steps[k];
            int j, n = s->kind == STEP_QUANT ? t->nreads : t->nwrites;
            for (j = 0; t->kind == STEP_SEG && j < n; j++)
                ok |= (s->kind == STEP_QUANT ? t->reads[j] : t->writes[j]) == s->val;
        }
        if (!ok)
            return "a graph input or output does not pass through the FPGA";
    }
    return "";
}

/* Step s as emit_step writes it, one level deeper (inside a loop). */
static void emit_step_in_loop(FILE *f, const HlsPlan *p, const GirGraph *g, const DrvPlan *dp,
                              const Step *s, int put)
{
    char *buf = NULL, *line, *nl;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        gir_die("out of memory");
    if (put < 0)
        emit_step(m, p, g, dp, s);
    else
        emit_transfer(m, g, dp, s->val, put, 1);
    if (fclose(m) != 0)
        gir_die("out of memory");
    for (line = buf; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        fprintf(f, "%s%.*s\n", *line != '\n' ? "    " : "", (int)(nl - line), line);
    }
    free(buf);
}

/* kd_model_run_frames: the frames' inputs quantized into their images,
 * kd_run_frames, the outputs dequantized; or kd_model_run a frame at a time
 * (frames_why). */
static void emit_frames(FILE *f, const HlsPlan *p, const GirGraph *g, const DrvPlan *dp)
{
    const char *why = frames_why(p, dp);
    int i;
    fprintf(f, "\n/* Several frames: %s. */\nconst char kd_model_frames_why[] = ",
            *why ? "one after the other" : "the FPGA part at once (krt_run_frames)");
    c_str(f, why);
    fprintf(f, ";\n\nint kd_model_run_frames(KdRun *r, int frames, const float *const *const "
               "*inputs_f,\n                        float *const *const *outputs_f, int "
               "timeout_ms, char *err)\n{\n    int f;\n");
    if (*why) {
        fprintf(f, "    for (f = 0; f < frames; f++)\n        if (kd_model_run(r, inputs_f[f], "
                   "outputs_f[f], timeout_ms, err) < 0)\n            return -1;\n    return 0;"
                   "\n}\n");
        return;
    }
    fprintf(f, "    if (kd_frames(r, frames, err) < 0)\n        return -1;\n"
               "    for (f = 0; f < frames; f++) {\n        const float *const *inputs = "
               "inputs_f[f];\n");
    for (i = 0; i < dp->nsteps; i++)
        if (dp->steps[i].kind == STEP_QUANT) {
            emit_step_in_loop(f, p, g, dp, &dp->steps[i], -1);
            emit_step_in_loop(f, p, g, dp, &dp->steps[i], 1);
        }
    fprintf(f, "    }\n    if (kd_run_frames(r, frames, timeout_ms, err) < 0)\n        return -1;\n"
               "    for (f = 0; f < frames; f++) {\n        float *const *outputs = "
               "outputs_f[f];\n");
    for (i = 0; i < dp->nsteps; i++)
        if (dp->steps[i].kind == STEP_DEQUANT)
            emit_step_in_loop(f, p, g, dp, &dp->steps[i], 0);
    for (i = 0; i < dp->nsteps; i++)
        if (dp->steps[i].kind == STEP_DEQUANT || dp->steps[i].kind == STEP_YOLO)
            emit_step_in_loop(f, p, g, dp, &dp->steps[i], -1);
    fprintf(f, "    }\n    return 0;\n}\n");
}

static void emit_model_c(FILE *f, const HlsPlan *p, const GirGraph *g, const RtlDriverOptions *o,
                         const Det *d, const DrvPlan *dp)
{
    int i;
    fprintf(f, "/*\n * model.c: generated by kiln compile for model ");
    c_str(f, g->name);
    fprintf(f, " (plan hash %016llx).\n * The schedule in graph order: boundary QuantizeLinear "
               "of the inputs, the FPGA\n * segments through libkiln-rt, the CPU partitions "
               "(objects cpu<k>-<arch>.o),\n * DequantizeLinear of the outputs.  "
               "docs/driver.md.\n */\n#include \"model.h\"\n\n",
            (unsigned long long)rtl_plan_hash(p));
    for (i = 0; i < dp->ncpu; i++)
        fprintf(f, "#include \"cpu%d.h\"\n%s", i, i + 1 == dp->ncpu ? "\n" : "");
    emit_info(f, g, o, d);
    for (i = 0; i < dp->nsteps; i++)
        emit_chscales(f, &dp->steps[i]);
    fprintf(f, "\n/* The values the steps exchange (one frame at a time). */\n");
    emit_buffers(f, g, dp);
    fprintf(f, "\nint kd_model_run(KdRun *r, const float *const *inputs, float *const *outputs, "
               "int timeout_ms,\n                 char *err)\n{\n");
    for (i = 0; i < dp->nsteps; i++)
        emit_step(f, p, g, dp, &dp->steps[i]);
    fprintf(f, "    return 0;\n}\n");
    emit_frames(f, p, g, dp);
}

static void emit_model_h(FILE *f, const GirGraph *g)
{
    fprintf(f, "/* model.h: generated by kiln compile for model ");
    c_str(f, g->name);
    fprintf(f, ": kd_model (shapes, preprocessing,\n * detector) and kd_model_run, "
               "declared in kiln_driver.h. */\n#ifndef KILN_MODEL_H\n#define KILN_MODEL_H\n\n"
               "#include \"kiln_driver.h\"\n\n#define KD_MODEL_INPUTS %d\n"
               "#define KD_MODEL_OUTPUTS %d\n\n#endif\n", g->ninput, g->noutput);
}

/* ---- the folder ---- */

static int write_buf(const char *dir, const char *name, const void *data, size_t len,
                     GirError *e)
{
    char path[4096];
    FILE *f;
    int ok;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f)
        return gir_error_at(e, gir_loc_none(), "driver: cannot write %s: %s", path,
                            strerror(errno));
    ok = fwrite(data, 1, len, f) == len;
    if (fclose(f) != 0 || !ok)
        return gir_error_at(e, gir_loc_none(), "driver: cannot write %s", path);
    return 0;
}

static int make_dirs(const char *ddir, GirError *e)
{
    static const char *const sub[] = {"", "/kiln-rt", "/kiln-rt/transport"};
    char path[4096];
    size_t i;
    for (i = 0; i < sizeof sub / sizeof sub[0]; i++) {
        snprintf(path, sizeof path, "%s%s", ddir, sub[i]);
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return gir_error_at(e, gir_loc_none(), "driver: cannot create %s: %s", path,
                                strerror(errno));
    }
    return 0;
}

/* model.c and model.h into ddir. */
static int write_model(const HlsPlan *p, const GirGraph *g, const RtlDriverOptions *o,
                       const Det *d, const DrvPlan *dp, const char *ddir, GirError *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc;
    if (!f)
        gir_die("out of memory");
    emit_model_c(f, p, g, o, d, dp);
    fclose(f);
    rc = write_buf(ddir, "model.c", buf, len, e);
    free(buf);
    buf = NULL;
    if (rc == 0) {
        f = open_memstream(&buf, &len);
        if (!f)
            gir_die("out of memory");
        emit_model_h(f, g);
        fclose(f);
        rc = write_buf(ddir, "model.h", buf, len, e);
        free(buf);
    }
    return rc;
}

/* model.cmake and model.mk: the CPU partitions whose objects the build
 * links (cpu<k>-<arch>.o). */
static int write_parts(const GirGraph *g, const DrvPlan *dp, const char *ddir,
                       const struct KlvRecords *records, GirError *e)
{
    char cm[2048] = "# generated by kiln compile: the CPU partitions (cpu<k>.h, cpu<k>-<arch>.o)\n"
                    "set(KD_CPU_PARTS", mk[2048] = "# generated by kiln compile: the CPU "
                    "partitions (cpu<k>.h, cpu<k>-<arch>.o)\nKD_CPU_PARTS =";
    size_t nc = strlen(cm), nm = strlen(mk);
    int i, rc;
    for (i = 0; i < dp->ncpu && nc + 16 < sizeof cm && nm + 16 < sizeof mk; i++) {
        nc += (size_t)snprintf(cm + nc, sizeof cm - nc, " cpu%d", i);
        nm += (size_t)snprintf(mk + nm, sizeof mk - nm, " cpu%d", i);
    }
    if (i < dp->ncpu)
        return gir_error_at(e, gir_loc_none(), "driver: %d CPU partitions: too many", dp->ncpu);
    snprintf(cm + nc, sizeof cm - nc, ")\n");
    snprintf(mk + nm, sizeof mk - nm, "\n");
    rc = write_buf(ddir, "model.cmake", cm, strlen(cm), e);
    if (rc == 0)
        rc = write_buf(ddir, "model.mk", mk, strlen(mk), e);
    for (i = 0; i < dp->nsteps && rc == 0; i++)
        if (dp->steps[i].kind == STEP_CPU)
            rc = drv_cpu_write(g, dp, &dp->steps[i], ddir, records, e);
    return rc;
}

int rtl_driver_write(const HlsPlan *p, const GirGraph *g, const RtlDriverOptions *o,
                     const char *dir, GirError *e)
{
    char ddir[4096];
    DrvPlan dp = {0};
    Det *d = calloc(1, sizeof *d);
    int i, rc;
    if (!d)
        gir_die("out of memory");
    rc = check_preproc(g, o, e) < 0 || make_det(g, o, d, e) < 0 ? -1 : 0;
    if (rc == 0 && drv_plan(p, g, &dp, e) != 0)
        rc = -1;
    else if (rc == 0) {
        snprintf(ddir, sizeof ddir, "%s/driver", dir);
        rc = make_dirs(ddir, e);
        for (i = 0; i < rtl_driver_nfiles && rc == 0; i++)
            rc = write_buf(ddir, rtl_driver_files[i].name, rtl_driver_files[i].data,
                           rtl_driver_files[i].len, e);
        if (rc == 0)
            rc = write_model(p, g, o, d, &dp, ddir, e);
        if (rc == 0)
            rc = write_parts(g, &dp, ddir, o->records, e);
    }
    drv_plan_free(&dp);
    free(d);
    return rc;
}

void rtl_driver_remove(const char *dir)
{
    static const char *const gen[] = {"model.c", "model.h", "model.cmake", "model.mk"};
    static const char *const sub[] = {"kiln-rt/transport", "kiln-rt", ""};
    static const char *const part[] = {".h", "-aarch64.o", "-x86_64.o"};
    char path[4096];
    int i, k;
    for (i = 0; i < rtl_driver_nfiles; i++) {
        snprintf(path, sizeof path, "%s/driver/%s", dir, rtl_driver_files[i].name);
        unlink(path);
    }
    for (i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/driver/%s", dir, gen[i]);
        unlink(path);
    }
    for (i = 0;; i++) { /* cpu0.h, cpu0-aarch64.o, ... until a partition has none */
        int gone = 0;
        for (k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "%s/driver/cpu%d%s", dir, i, part[k]);
            gone += unlink(path) == 0;
        }
        if (!gone)
            break;
    }
    for (i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/driver/%s", dir, sub[i]);
        rmdir(path);
    }
}
