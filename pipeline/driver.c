/*
 * driver.c: the per-model driver's model.c and model.h (docs/driver.md).
 * The planned graph's nodes become a list of steps in graph order: the
 * boundary QuantizeLinear of each graph input (generated C, as kiln's int8
 * interpreter rounds), the FPGA segments (libkiln-rt's krt_run through
 * kd_run_fpga), the boundary DequantizeLinear of each graph output and a
 * Darknet YoloHead after it.  Any other CPU node is refused, naming it: CPU
 * layers between segments need objects from the LLVM back end (klv_emit_object
 * per CPU partition, a STEP_CPU beside these; see plan_node).
 *
 * Output is a function of the plan, graph and options alone.
 */
#define _POSIX_C_SOURCE 200809L

#include "pipeline/driver_int.h"

#include <stdlib.h>
#include <string.h>

/* Error for a node the driver cannot run yet. */
static int cpu_node(const GirGraph *g, const GirNode *n, const char *why, GirError *e)
{
    (void)g;
    gir_error_at(e, gir_loc_none(), "driver: node '%s' (%s) runs on the CPU %s: CPU layers are not in "
                 "the generated driver yet (they need objects from the LLVM back end)", n->name,
                 gir_op_name(n->op), why);
    return 1;
}

/* The single float of a per-tensor scale (and int8 zero point) of node n;
 * 0, or 1 + e. */
static int per_tensor(const GirGraph *g, const GirNode *n, float *scale, int *zp, GirError *e)
{
    const GirValue *s = &g->vals[n->in[1]];
    const GirValue *z = n->nin > 2 && n->in[2] >= 0 ? &g->vals[n->in[2]] : NULL;
    if (s->kind != GIR_VAL_CONST || gir_type_numel(&s->type) != 1 || s->type.dtype != GIR_DT_F32 ||
        (z && (z->kind != GIR_VAL_CONST || gir_type_numel(&z->type) != 1 ||
               z->type.dtype != GIR_DT_I8)))
        return cpu_node(g, n, "with a per-channel or non-int8 quantization", e);
    *scale = *(const float *)s->data;
    *zp = z ? *(const int8_t *)z->data : 0;
    return 0;
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

/* An int8 value at an FPGA channel: [1, C, H, W] (NCHW) or NHWC. */
static int boundary_value(const GirGraph *g, const GirNode *n, int v, GirError *e)
{
    const GirType *t = &g->vals[v].type;
    if (t->rank != 4 || t->dims[0] != 1 || t->dtype != GIR_DT_I8)
        return cpu_node(g, n, "on a value that is not one int8 map", e);
    return 0;
}

static Step *add_step(DrvPlan *d, StepKind k, int node)
{
    Step *s = &d->steps[d->nsteps++];
    memset(s, 0, sizeof *s);
    s->kind = k;
    s->node = node;
    s->in = s->out = -1;
    return s;
}

static int plan_quant(const GirGraph *g, DrvPlan *d, int i, GirError *e)
{
    const GirNode *n = &g->nodes[i];
    int in = graph_input(g, n->in[0]);
    Step *s;
    if (in < 0 || g->vals[n->in[0]].type.dtype != GIR_DT_F32)
        return cpu_node(g, n, "on a value that is not an fp32 graph input", e);
    if (boundary_value(g, n, n->out[0], e))
        return 1;
    s = add_step(d, STEP_QUANT, i);
    s->in = in;
    s->val = n->out[0];
    return per_tensor(g, n, &s->scale, &s->zp, e);
}

static int plan_dequant(const GirGraph *g, DrvPlan *d, int i, GirError *e)
{
    const GirNode *n = &g->nodes[i];
    int src = g->vals[n->in[0]].producer, out = graph_output(g, n->out[0]), only = -1;
    Step *s;
    if (src < 0 || !d->fpga[src])
        return cpu_node(g, n, "on a value the FPGA does not produce", e);
    if (boundary_value(g, n, n->in[0], e))
        return 1;
    if (out < 0) { /* its only reader a YoloHead giving a graph output */
        if (consumers(g, n->out[0], &only) != 1 || g->nodes[only].op != GIR_OP_YOLO ||
            (out = graph_output(g, g->nodes[only].out[0])) < 0)
            return cpu_node(g, only >= 0 ? &g->nodes[only] : n, "after an FPGA segment", e);
    } else if (consumers(g, n->out[0], &only) != 0) {
        return cpu_node(g, n, "feeding both a graph output and other layers", e);
    }
    s = add_step(d, STEP_DEQUANT, i);
    s->val = n->in[0];
    s->out = out;
    return per_tensor(g, n, &s->scale, &s->zp, e);
}

static int plan_yolo(const GirGraph *g, DrvPlan *d, int i, GirError *e)
{
    const GirNode *n = &g->nodes[i];
    int src = g->vals[n->in[0]].producer, out = graph_output(g, n->out[0]);
    const GirType *t = &g->vals[n->in[0]].type;
    Step *s;
    if (src < 0 || g->nodes[src].op != GIR_OP_DEQUANTIZELINEAR || out < 0 || t->rank != 4 ||
        t->dims[0] != 1)
        return cpu_node(g, n, "other than on a dequantized FPGA output", e);
    s = add_step(d, STEP_YOLO, i);
    s->out = out;
    return 0;
}

/* One node into the step list.  The place where CPU partitions would be
 * compiled: a run of CPU nodes between segments becomes one STEP_CPU with
 * klv_emit_object on its subgraph instead of the refusal below. */
static int plan_node(const GirGraph *g, DrvPlan *d, int i, GirError *e)
{
    const GirNode *n = &g->nodes[i];
    if (d->fpga[i]) {
        if (!d->fpga_step)
            d->fpga_step = add_step(d, STEP_FPGA, i) - d->steps + 1;
        return 0;
    }
    switch (n->op) {
    case GIR_OP_QUANTIZELINEAR: return plan_quant(g, d, i, e);
    case GIR_OP_DEQUANTIZELINEAR: return plan_dequant(g, d, i, e);
    case GIR_OP_YOLO: return plan_yolo(g, d, i, e);
    default: return cpu_node(g, n, "between or around the FPGA segments", e);
    }
}

/* Quantizations first, then the FPGA run, then the outputs (krt_run runs
 * every segment at once; a stable order keeps graph order in each group). */
static int phase(const Step *s)
{
    return s->kind == STEP_QUANT ? 0 : s->kind == STEP_FPGA ? 1 : 2;
}

static void order_steps(DrvPlan *d)
{
    int i, j;
    for (i = 1; i < d->nsteps; i++)
        for (j = i; j > 0 && phase(&d->steps[j - 1]) > phase(&d->steps[j]); j--) {
            Step t = d->steps[j];
            d->steps[j] = d->steps[j - 1];
            d->steps[j - 1] = t;
        }
}

/* Every graph output made by a step; shapes within the driver's limits. */
static int check_io(const GirGraph *g, const DrvPlan *d, GirError *e)
{
    int i, k, made;
    if (g->ninput > DRV_MAX_IO || g->noutput > DRV_MAX_IO)
        return gir_error_at(e, gir_loc_none(), "driver: %d inputs, %d outputs: at most %d each",
                            g->ninput, g->noutput, DRV_MAX_IO), 1;
    for (i = 0; i < g->noutput; i++) {
        const GirValue *v = &g->vals[g->outputs[i]];
        for (k = 0, made = 0; k < d->nsteps; k++)
            made |= d->steps[k].out == i && d->steps[k].kind != STEP_YOLO ? 1 : 0;
        if (!made || v->type.dtype != GIR_DT_F32 || v->type.rank > DRV_MAX_RANK)
            return gir_error_at(e, v->loc, "driver: graph output '%s' is not an fp32 "
                                "DequantizeLinear of an FPGA output", v->name), 1;
    }
    for (i = 0; i < g->ninput; i++)
        if (g->vals[g->inputs[i]].type.rank > DRV_MAX_RANK)
            return gir_error_at(e, gir_loc_none(), "driver: input '%s' has rank > %d",
                                g->vals[g->inputs[i]].name, DRV_MAX_RANK), 1;
    if (!d->fpga_step)
        return gir_error_at(e, gir_loc_none(), "driver: no FPGA segment"), 1;
    return 0;
}

int drv_plan(const HlsPlan *p, const GirGraph *g, DrvPlan *d, GirError *e)
{
    int i, rc = 0;
    memset(d, 0, sizeof *d);
    d->fpga = calloc((size_t)g->nnode + 1, 1);
    d->steps = calloc((size_t)g->nnode + 1, sizeof *d->steps);
    if (!d->fpga || !d->steps)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++)
        if (p->stages[i].node_id >= 0 && p->stages[i].node_id < g->nnode)
            d->fpga[p->stages[i].node_id] = 1;
    for (i = 0; i < g->nnode && !rc; i++) /* an int8 graph: a graph input quantized */
        rc = g->nodes[i].op == GIR_OP_QUANTIZELINEAR && graph_input(g, g->nodes[i].in[0]) >= 0;
    if (!rc)
        return gir_error_at(e, gir_loc_none(), "driver: %s has no int8 input (QuantizeLinear of "
                            "a graph input): quantize it first (kiln quantize)", g->name), 1;
    for (i = 0, rc = 0; i < g->nnode && rc == 0; i++)
        rc = plan_node(g, d, i, e);
    if (rc == 0)
        rc = check_io(g, d, e);
    order_steps(d);
    return rc;
}

void drv_plan_free(DrvPlan *d)
{
    free(d->fpga);
    free(d->steps);
}
