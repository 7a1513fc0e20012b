/*
 * driver.c: the per-model driver's schedule (docs/driver.md).  Every node of
 * the planned graph goes to one step: an FPGA segment (its stages and the
 * layers they absorb, run by libkiln-rt's krt_run_segment), the boundary
 * QuantizeLinear of an fp32 graph input and DequantizeLinear into a graph
 * output (generated C, as kiln's int8 interpreter rounds), a Darknet
 * YoloHead on such an output, or a CPU partition: a run of the other CPU
 * nodes in graph order, compiled by the LLVM back end into an object per
 * target (driver_cpu.c).  The steps are ordered by what they read (ties in
 * graph order); a segment and a partition that feed each other are
 * refused, naming the node.
 *
 * Output is a function of the plan, graph and options alone.
 */
#define _POSIX_C_SOURCE 200809L

#include "pipeline/driver_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n + 1, size);
    if (!p)
        gir_die("out of memory");
    return p;
}

/* The single float of a per-tensor scale and int8 zero point of node n: 1
 * (filled) when that form, else 0. */
static int per_tensor(const GirGraph *g, const GirNode *n, float *scale, int *zp)
{
    const GirValue *s = &g->vals[n->in[1]];
    const GirValue *z = n->nin > 2 && n->in[2] >= 0 ? &g->vals[n->in[2]] : NULL;
    if (s->kind != GIR_VAL_CONST || gir_type_numel(&s->type) != 1 || s->type.dtype != GIR_DT_F32 ||
        (z && (z->kind != GIR_VAL_CONST || gir_type_numel(&z->type) != 1 ||
               z->type.dtype != GIR_DT_I8)))
        return 0;
    *scale = *(const float *)s->data;
    *zp = z ? *(const int8_t *)z->data : 0;
    return 1;
}

/* Index of value v among the graph outputs, or -1. */
static int graph_output(const GirGraph *g, int v)
{
    int i;
    for (i = 0; i < g->noutput; i++)
        if (g->outputs[i] == v)
            return i;
    return -1;
}

static int graph_input(const GirGraph *g, int v)
{
    int i;
    for (i = 0; i < g->ninput; i++)
        if (g->inputs[i] == v)
            return i;
    return -1;
}

/* Nodes reading value v: the count, the last in *only. */
static int consumers(const GirGraph *g, int v, int *only)
{
    int i, k, n = 0;
    for (i = 0; i < g->nnode; i++)
        for (k = 0; k < g->nodes[i].nin; k++)
            if (g->nodes[i].in[k] == v) {
                n++;
                *only = i;
                break;
            }
    return n;
}

static Step *add_step(DrvPlan *d, StepKind k, int node)
{
    Step *s = &d->steps[d->nsteps++];
    memset(s, 0, sizeof *s);
    s->kind = k;
    s->node = node;
    s->in = s->out = s->val = s->seg = -1;
    return s;
}

/* A DequantizeLinear per axis 1 (a head conv's per-channel scales): a
 * constant f32 scale with one entry per channel of an NCHW map, zero points
 * absent or all 0 (kiln's are); 0 when not this form, 1 when it is (s
 * filled). */
static int per_channel(const GirGraph *g, const GirNode *n, Step *s)
{
    const GirValue *x = &g->vals[n->in[0]], *sc = &g->vals[n->in[1]];
    const GirValue *z = n->nin > 2 && n->in[2] >= 0 ? &g->vals[n->in[2]] : NULL;
    int64_t c, nch;
    if (x->type.rank != 4)
        return 0;
    nch = x->type.dims[1];
    if (x->layout == GIR_LAYOUT_NHWC || gir_attr_int(n, "axis", 1) != 1 ||
        sc->kind != GIR_VAL_CONST || sc->type.dtype != GIR_DT_F32 || sc->type.rank != 1 ||
        sc->type.dims[0] != nch || nch < 2 ||
        (z && (z->kind != GIR_VAL_CONST || z->type.dtype != GIR_DT_I8 ||
               gir_type_numel(&z->type) != nch)))
        return 0;
    for (c = 0; z && c < nch; c++)
        if (((const int8_t *)z->data)[c] != 0)
            return 0;
    s->chscale = sc->data;
    s->nch = (int)nch;
    s->inner = (long long)(x->type.dims[2] * x->type.dims[3]);
    return 1;
}

/* 1 when node n is a rank-4 Transpose with permutation perm. */
static int is_transpose(const GirNode *n, const int64_t *perm)
{
    int cnt = 0, k;
    const int64_t *p = n->op == GIR_OP_TRANSPOSE ? gir_attr_ints(n, "perm", &cnt) : NULL;
    if (!p || cnt != 4 || n->nin != 1 || n->nout != 1)
        return 0;
    for (k = 0; k < 4; k++)
        if (p[k] != perm[k])
            return 0;
    return 1;
}

static const int64_t nhwc_to_nchw[4] = {0, 3, 1, 2}, nchw_to_nhwc[4] = {0, 2, 3, 1};

/* 1 when every reader of value v is an FPGA node: the stream's HWC bytes
 * can stay in v's buffer. */
static int fpga_only(const GirGraph *g, const DrvPlan *d, int v)
{
    int i, k;
    for (i = 0; i < g->nnode; i++)
        for (k = 0; k < g->nodes[i].nin; k++)
            if (g->nodes[i].in[k] == v && !d->fpga[i])
                return 0;
    return graph_output(g, v) < 0;
}

/* QuantizeLinear of an fp32 graph input with one scale: a STEP_QUANT.  With
 * the input NHWC and a Transpose to NCHW before the quantize (a TensorFlow
 * export), the step starts at the Transpose (node i) and quantizes the
 * input as it lies, which is the stream's HWC order, when only FPGA nodes
 * read the int8 map: no pass of its own for the Transpose, none for the
 * transfer to the accelerator. */
static int take_quant(const GirGraph *g, DrvPlan *d, int i)
{
    const GirNode *n = &g->nodes[i];
    Step t, *s;
    int in, q = i, only = -1, hwc = 0;
    if (is_transpose(n, nhwc_to_nchw) && graph_input(g, n->in[0]) >= 0 &&
        consumers(g, n->out[0], &only) == 1 && graph_output(g, n->out[0]) < 0 &&
        g->nodes[only].op == GIR_OP_QUANTIZELINEAR && g->nodes[only].in[0] == n->out[0] &&
        fpga_only(g, d, g->nodes[only].out[0])) {
        q = only;
        hwc = 1;
    } else if (n->op != GIR_OP_QUANTIZELINEAR) {
        return 0;
    }
    n = &g->nodes[q];
    in = graph_input(g, hwc ? g->nodes[i].in[0] : n->in[0]);
    if (in < 0 || g->vals[n->in[0]].type.dtype != GIR_DT_F32 ||
        g->vals[n->out[0]].type.dtype != GIR_DT_I8 || !per_tensor(g, n, &t.scale, &t.zp))
        return 0;
    s = add_step(d, STEP_QUANT, i);
    s->in = in;
    s->val = n->out[0];
    s->scale = t.scale;
    s->zp = t.zp;
    s->hwc = hwc;
    d->unit[q] = (int)(s - d->steps);
    return 1;
}

/* A STEP_DEQUANT at node i from int8 value val into graph output out, its
 * scales, zero point and channel layout as per_tensor/per_channel read
 * them into q. */
static Step *add_dequant(DrvPlan *d, int i, int val, int out, const Step *q)
{
    Step *s = add_step(d, STEP_DEQUANT, i);
    s->val = val;
    s->out = out;
    s->scale = q->scale;
    s->zp = q->zp;
    s->chscale = q->chscale;
    s->nch = q->nch;
    s->inner = q->inner;
    return s;
}

/* DequantizeLinear of an int8 value made by a step into a graph output, or
 * into the only input of a YoloHead giving one: a STEP_DEQUANT. */
static int take_dequant(const GirGraph *g, DrvPlan *d, int i)
{
    const GirNode *n = &g->nodes[i];
    int out = graph_output(g, n->out[0]), only = -1, nc = consumers(g, n->out[0], &only);
    Step t, *s;
    int pr = g->vals[n->in[0]].producer, tr = -1;
    memset(&t, 0, sizeof t);
    if (pr < 0 || g->vals[n->in[0]].type.dtype != GIR_DT_I8 ||
        g->vals[n->out[0]].type.dtype != GIR_DT_F32)
        return 0;
    /* An FPGA map to NHWC fp32 (DequantizeLinear, then a Transpose into a
     * graph output): dequantized as the stream's HWC bytes lie. */
    if (out < 0 && nc == 1 && is_transpose(&g->nodes[only], nchw_to_nhwc) && d->fpga[pr] &&
        consumers(g, n->in[0], &tr) == 1 && graph_output(g, n->in[0]) < 0 &&
        (out = graph_output(g, g->nodes[only].out[0])) >= 0 &&
        consumers(g, g->nodes[only].out[0], &tr) == 0) {
        tr = only;
        if (!per_channel(g, n, &t) && !per_tensor(g, n, &t.scale, &t.zp))
            return 0;
        t.inner = 1;
        s = add_dequant(d, i, n->in[0], out, &t);
        s->hwc = 1;
        d->unit[tr] = (int)(s - d->steps);
        return 1;
    }
    if (out < 0 && (nc != 1 || g->nodes[only].op != GIR_OP_YOLO ||
                    (out = graph_output(g, g->nodes[only].out[0])) < 0))
        return 0;
    if (out >= 0 && nc > (graph_output(g, n->out[0]) >= 0 ? 0 : 1))
        return 0;
    if (!per_channel(g, n, &t) && !per_tensor(g, n, &t.scale, &t.zp))
        return 0;
    add_dequant(d, i, n->in[0], out, &t);
    return 1;
}

/* An FPGA map transposed to NHWC as int8 and dequantized into a graph
 * output (Transpose at node i, then DequantizeLinear; the quantizer moves
 * layout ops before the dequantize): one STEP_DEQUANT reading the stream's
 * HWC bytes as they lie, scales per tensor or per channel on axis 3. */
static int take_nhwc_out(const GirGraph *g, DrvPlan *d, int i)
{
    const GirNode *t = &g->nodes[i], *n;
    int only = -1, other = -1, pr = g->vals[t->in[0]].producer, out, k, nch;
    const GirValue *sc, *z;
    Step *s;
    if (!is_transpose(t, nchw_to_nhwc) || pr < 0 || !d->fpga[pr] ||
        consumers(g, t->out[0], &only) != 1 || graph_output(g, t->out[0]) >= 0 ||
        g->nodes[only].op != GIR_OP_DEQUANTIZELINEAR ||
        consumers(g, t->in[0], &other) != 1 || graph_output(g, t->in[0]) >= 0)
        return 0;
    n = &g->nodes[only];
    out = graph_output(g, n->out[0]);
    if (out < 0 || consumers(g, n->out[0], &other) != 0 ||
        g->vals[t->in[0]].type.dtype != GIR_DT_I8 || g->vals[n->out[0]].type.dtype != GIR_DT_F32)
        return 0;
    s = add_step(d, STEP_DEQUANT, i);
    if (!per_tensor(g, n, &s->scale, &s->zp)) {
        sc = &g->vals[n->in[1]];
        z = n->nin > 2 && n->in[2] >= 0 ? &g->vals[n->in[2]] : NULL;
        nch = (int)g->vals[n->in[0]].type.dims[3];
        k = (int)gir_attr_int(n, "axis", 1);
        if ((k != 3 && k != -1) || sc->kind != GIR_VAL_CONST || sc->type.dtype != GIR_DT_F32 ||
            sc->type.rank != 1 || sc->type.dims[0] != nch || nch < 2 ||
            (z && (z->kind != GIR_VAL_CONST || z->type.dtype != GIR_DT_I8 ||
                   gir_type_numel(&z->type) != nch))) {
            d->nsteps--;
            return 0;
        }
        for (k = 0; z && k < nch; k++)
            if (((const int8_t *)z->data)[k] != 0) {
                d->nsteps--;
                return 0;
            }
        s->chscale = sc->data;
        s->nch = nch;
        s->inner = 1;
    }
    s->val = t->in[0];
    s->out = out;
    s->hwc = 1;
    d->unit[only] = (int)(s - d->steps);
    return 1;
}

/* A YoloHead on a STEP_DEQUANT's output into a graph output: a STEP_YOLO. */
static int take_yolo(const GirGraph *g, DrvPlan *d, int i)
{
    const GirNode *n = &g->nodes[i];
    int src = g->vals[n->in[0]].producer, out = graph_output(g, n->out[0]);
    const GirType *t = &g->vals[n->in[0]].type;
    if (src < 0 || d->unit[src] < 0 || d->steps[d->unit[src]].kind != STEP_DEQUANT || out < 0 ||
        t->rank != 4 || t->dims[0] != 1)
        return 0;
    add_step(d, STEP_YOLO, i)->out = out;
    return 1;
}

/* The FPGA nodes: the stages', the folded layers' (the shared engine's
 * segment, numbered after the dataflow's), and the BatchNormalization /
 * Relu / LeakyRelu after a conv that its requant unit applies (as
 * hls/partition.c absorbs them). */
static void mark_fpga(const HlsPlan *p, const GirGraph *g, DrvPlan *d)
{
    int *uses = xcalloc((size_t)g->nval, sizeof *uses);
    char *convlike = xcalloc((size_t)g->nnode, 1);
    int i, k;
    gir_use_counts(g, uses);
    for (i = 0; i < p->nstage; i++) {
        int id = p->stages[i].node_id;
        if (id < 0 || id >= g->nnode)
            continue;
        d->fpga[id] = 1;
        d->seg[id] = p->stages[i].segment;
        convlike[id] = p->stages[i].kind == HLS_ST_CONV || p->stages[i].kind == HLS_ST_DWCONV;
    }
    for (i = 0; i < p->fold.n; i++) /* the shared engine: a segment per part */
        for (k = 0; k < g->nnode; k++)
            if (g->nodes[k].name && !strcmp(g->nodes[k].name, p->fold.layers[i].node)) {
                d->fpga[k] = convlike[k] = 1;
                d->seg[k] = p->fold.parts[p->fold.layers[i].part].seg;
            }
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        int v = n->nin > 0 ? n->in[0] : -1, src = v >= 0 ? g->vals[v].producer : -1, ok;
        if (d->fpga[i] || src < 0 || !convlike[src] || uses[v] != 1 ||
            (n->op != GIR_OP_BATCHNORM && n->op != GIR_OP_RELU && n->op != GIR_OP_LEAKYRELU))
            continue;
        for (k = 1, ok = 1; n->op == GIR_OP_BATCHNORM && k < n->nin; k++)
            ok &= n->in[k] >= 0 && g->vals[n->in[k]].kind == GIR_VAL_CONST;
        if (!ok)
            continue;
        d->fpga[i] = convlike[i] = 1;
        d->seg[i] = d->seg[src];
    }
    free(uses);
    free(convlike);
}

/* Every node into a step (d->unit), in graph order. */
static void make_steps(const GirGraph *g, DrvPlan *d)
{
    int *seg_unit = xcalloc((size_t)g->nnode, sizeof *seg_unit), i, cpu_open = -1;
    for (i = 0; i < g->nnode; i++)
        seg_unit[i] = -1;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        int before = d->nsteps;
        if (d->fpga[i]) {
            if (seg_unit[d->seg[i]] < 0) {
                seg_unit[d->seg[i]] = d->nsteps;
                add_step(d, STEP_SEG, i)->seg = d->seg[i];
                d->nseg++;
            }
            d->unit[i] = seg_unit[d->seg[i]];
            cpu_open = -1;
            continue;
        }
        if (d->unit[i] >= 0) /* folded into an earlier step (take_quant, take_dequant) */
            continue;
        if (((n->op == GIR_OP_QUANTIZELINEAR || n->op == GIR_OP_TRANSPOSE) &&
             take_quant(g, d, i)) ||
            (n->op == GIR_OP_TRANSPOSE && take_nhwc_out(g, d, i)) ||
            (n->op == GIR_OP_DEQUANTIZELINEAR && take_dequant(g, d, i)) ||
            (n->op == GIR_OP_YOLO && take_yolo(g, d, i))) {
            d->unit[i] = before;
            cpu_open = -1;
            continue;
        }
        if (cpu_open < 0) {
            cpu_open = d->nsteps;
            add_step(d, STEP_CPU, i)->seg = d->ncpu++;
        }
        d->unit[i] = cpu_open;
    }
    free(seg_unit);
}

/* Append v to the list (*a, *n) unless there. */
static void add_once(int **a, int *n, int v)
{
    int k;
    for (k = 0; k < *n; k++)
        if ((*a)[k] == v)
            return;
    *a = realloc(*a, sizeof **a * (size_t)(*n + 1));
    if (!*a)
        gir_die("out of memory");
    (*a)[(*n)++] = v;
}

/* Does node i read node pr's output inside the shared engine's map region
 * (two parts of the engine: the value stays in DDR between their starts)? */
static int engine_map(const DrvPlan *d, int pr, int i)
{
    return d->fpga[pr] && d->fpga[i] && d->seg[pr] >= d->engine_seg && d->seg[i] >= d->engine_seg;
}

/* The values segment and CPU steps read from other steps and write for
 * them (or the graph outputs). */
static void step_values(const GirGraph *g, DrvPlan *d)
{
    int i, k;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        Step *s = &d->steps[d->unit[i]];
        if (s->kind != STEP_SEG && s->kind != STEP_CPU)
            continue;
        for (k = 0; k < n->nin; k++) {
            int v = n->in[k], pr;
            if (v < 0 || g->vals[v].kind == GIR_VAL_CONST)
                continue;
            pr = g->vals[v].producer;
            if (pr < 0 || (d->unit[pr] != d->unit[i] && !engine_map(d, pr, i)))
                add_once(&s->reads, &s->nreads, v);
        }
    }
    for (i = 0; i < g->nnode; i++) { /* readers in other steps */
        const GirNode *n = &g->nodes[i];
        for (k = 0; k < n->nin; k++) {
            int v = n->in[k], pr = v >= 0 ? g->vals[v].producer : -1;
            Step *s = pr >= 0 ? &d->steps[d->unit[pr]] : NULL;
            if (s && d->unit[pr] != d->unit[i] && !engine_map(d, pr, i) &&
                (s->kind == STEP_SEG || s->kind == STEP_CPU))
                add_once(&s->writes, &s->nwrites, v);
        }
    }
    for (i = 0; i < g->noutput; i++) {
        int pr = g->vals[g->outputs[i]].producer;
        Step *s = pr >= 0 ? &d->steps[d->unit[pr]] : NULL;
        if (s && (s->kind == STEP_SEG || s->kind == STEP_CPU))
            add_once(&s->writes, &s->nwrites, g->outputs[i]);
    }
}

/* Order the steps: a step after every step it reads from, ties by first
 * node.  1 + e when two steps feed each other. */
static int order_steps(const GirGraph *g, DrvPlan *d, GirError *e)
{
    int n = d->nsteps, i, k, m, done = 0;
    char *dep = xcalloc((size_t)n * (size_t)n, 1), *placed = xcalloc((size_t)n, 1);
    int *order = xcalloc((size_t)n, sizeof *order);
    Step *sorted = xcalloc((size_t)n, sizeof *sorted);
    for (i = 0; i < g->nnode; i++)
        for (k = 0; k < g->nodes[i].nin; k++) {
            int v = g->nodes[i].in[k], pr = v >= 0 ? g->vals[v].producer : -1;
            if (pr >= 0 && d->unit[pr] != d->unit[i])
                dep[(size_t)d->unit[i] * (size_t)n + (size_t)d->unit[pr]] = 1;
        }
    for (done = 0; done < n; done++) {
        int best = -1;
        for (i = 0; i < n; i++) {
            int ready = !placed[i];
            for (m = 0; ready && m < n; m++)
                ready = !dep[(size_t)i * (size_t)n + (size_t)m] || placed[m];
            if (ready && (best < 0 || d->steps[i].node < d->steps[best].node))
                best = i;
        }
        if (best < 0)
            break;
        placed[best] = 1;
        order[done] = best;
    }
    if (done < n) {
        for (i = 0; i < n && (placed[i] || d->steps[i].kind != STEP_CPU); i++)
            ;
        k = i < n ? d->steps[i].node : 0;
        gir_error_at(e, gir_loc_none(), "driver: node '%s' (%s) runs on the CPU between parts of "
                     "one FPGA segment (the segment reads what it computes from the segment's "
                     "output): the driver cannot order them", g->nodes[k].name,
                     gir_op_name(g->nodes[k].op));
    } else {
        int *where = xcalloc((size_t)n, sizeof *where);
        for (i = 0; i < n; i++) {
            sorted[i] = d->steps[order[i]];
            where[order[i]] = i;
        }
        memcpy(d->steps, sorted, sizeof *sorted * (size_t)n);
        for (i = 0; i < g->nnode; i++)
            d->unit[i] = where[d->unit[i]];
        free(where);
    }
    free(dep);
    free(placed);
    free(order);
    free(sorted);
    return done < n;
}

/* A value of model.c's buffers: a dtype it declares. */
static int buffer_dtype(GirDType t)
{
    return t == GIR_DT_I8 || t == GIR_DT_U8 || t == GIR_DT_F32 || t == GIR_DT_I32 ||
           t == GIR_DT_I64;
}

/* What the steps exchange: int8 maps at the FPGA, dtypes model.c declares,
 * static shapes; every graph output an fp32 value a step makes. */
static int check_values(const GirGraph *g, const DrvPlan *d, GirError *e)
{
    int i, k;
    for (i = 0; i < d->nsteps; i++) {
        const Step *s = &d->steps[i];
        for (k = 0; k < s->nreads + s->nwrites; k++) {
            int v = k < s->nreads ? s->reads[k] : s->writes[k - s->nreads];
            const GirValue *x = &g->vals[v];
            const GirType *t = &x->type;
            if (s->kind == STEP_SEG && (t->rank != 4 || t->dims[0] != 1 || t->dtype != GIR_DT_I8 ||
                                        x->producer < 0))
                return gir_error_at(e, x->loc, "driver: value '%s' enters or leaves FPGA segment "
                                    "%d and is not one int8 map made by another step", x->name,
                                    s->seg), 1;
            if (!buffer_dtype(t->dtype) || !gir_type_is_static(t) || t->rank > DRV_MAX_RANK)
                return gir_error_at(e, x->loc, "driver: value '%s' between the CPU and the FPGA "
                                    "has no static shape or a dtype the driver does not hold (%s)",
                                    x->name, gir_dtype_name(t->dtype)), 1;
        }
    }
    if (g->ninput > DRV_MAX_IO || g->noutput > DRV_MAX_IO)
        return gir_error_at(e, gir_loc_none(), "driver: %d inputs, %d outputs: at most %d each",
                            g->ninput, g->noutput, DRV_MAX_IO), 1;
    for (i = 0; i < g->noutput; i++) {
        const GirValue *v = &g->vals[g->outputs[i]];
        int pr = v->producer, made = 0;
        for (k = 0; k < d->nsteps; k++)
            made |= d->steps[k].kind == STEP_DEQUANT && d->steps[k].out == i;
        made |= pr >= 0 && d->steps[d->unit[pr]].kind == STEP_CPU;
        if (!made || v->type.dtype != GIR_DT_F32 || v->type.rank > DRV_MAX_RANK)
            return gir_error_at(e, v->loc, "driver: graph output '%s' is not an fp32 value of "
                                "the CPU (a DequantizeLinear of an FPGA output, or a CPU layer)",
                                v->name), 1;
    }
    for (i = 0; i < g->ninput; i++)
        if (g->vals[g->inputs[i]].type.rank > DRV_MAX_RANK ||
            g->vals[g->inputs[i]].type.dtype != GIR_DT_F32)
            return gir_error_at(e, gir_loc_none(), "driver: input '%s' is not fp32 of rank <= %d",
                                g->vals[g->inputs[i]].name, DRV_MAX_RANK), 1;
    if (!d->nseg)
        return gir_error_at(e, gir_loc_none(), "driver: no FPGA segment"), 1;
    return 0;
}

int drv_plan(const HlsPlan *p, const GirGraph *g, DrvPlan *d, GirError *e)
{
    int i, rc = 0;
    memset(d, 0, sizeof *d);
    d->fpga = xcalloc((size_t)g->nnode, 1);
    d->unit = xcalloc((size_t)g->nnode, sizeof *d->unit);
    d->seg = xcalloc((size_t)g->nnode, sizeof *d->seg);
    d->steps = xcalloc((size_t)g->nnode, sizeof *d->steps);
    for (i = 0; i < g->nnode; i++)
        d->unit[i] = d->seg[i] = -1;
    for (i = 0; i < g->nnode && !rc; i++) { /* an int8 graph: a graph input quantized */
        const GirNode *n = &g->nodes[i];
        int pr = n->op == GIR_OP_QUANTIZELINEAR ? g->vals[n->in[0]].producer : -1;
        rc = n->op == GIR_OP_QUANTIZELINEAR &&
             (graph_input(g, n->in[0]) >= 0 ||
              (pr >= 0 && is_transpose(&g->nodes[pr], nhwc_to_nchw) &&
               graph_input(g, g->nodes[pr].in[0]) >= 0));
    }
    if (!rc)
        return gir_error_at(e, gir_loc_none(), "driver: %s has no int8 input (QuantizeLinear of "
                            "a graph input): quantize it first (kiln quantize)", g->name), 1;
    d->engine_seg = p->fold.n > 0 ? p->nsegment : INT_MAX;
    mark_fpga(p, g, d);
    make_steps(g, d);
    step_values(g, d);
    if (order_steps(g, d, e))
        return 1;
    return check_values(g, d, e);
}

void drv_plan_free(DrvPlan *d)
{
    int i;
    for (i = 0; d->steps && i < d->nsteps; i++) {
        free(d->steps[i].reads);
        free(d->steps[i].writes);
    }
    free(d->fpga);
    free(d->unit);
    free(d->seg);
    free(d->steps);
    memset(d, 0, sizeof *d);
}
