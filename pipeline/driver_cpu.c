/*
 * driver_cpu.c: a CPU partition of the driver (a STEP_CPU of driver.c) as a
 * graph of its own and its objects: the LLVM back end's kernels for
 * aarch64 (cortex-a53) and x86-64 (klv_emit_object) and one C header
 * (klv_emit_header), which the generated model.c calls between the FPGA
 * segments.  The partition's values keep their dtype, layout and scales,
 * so its int8 kernels compute what kiln's int8 interpreter computes.
 */
#define _POSIX_C_SOURCE 200809L

#include "pipeline/driver_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "llvm/llvm.h"

/* The targets every partition is compiled for: the Zynq UltraScale+'s
 * Cortex-A53 and the x86-64 machine the driver is tested on.  The file
 * suffix is CMAKE_SYSTEM_PROCESSOR's name (driver-templates/CMakeLists.txt). */
static const struct {
    const char *suffix;  /* cpu<k>-SUFFIX.o */
    KlvTarget t;         /* triple, CPU, features */
} targets[] = {
    {"aarch64", {"aarch64-linux-gnu", "cortex-a53", NULL, NULL}},
    {"x86_64", {"x86_64-linux-gnu", "x86-64", NULL, NULL}},
};

/* Value v of g into sub (once: map[v] holds its id there). */
static int sub_value(GirGraph *sub, const GirGraph *g, int v, int *map, GirValKind kind)
{
    const GirValue *x = &g->vals[v];
    int id;
    if (map[v] >= 0)
        return map[v];
    id = gir_add_value(sub, x->name, kind, x->type, x->loc);
    sub->vals[id].layout = x->layout;
    if (kind == GIR_VAL_CONST)
        sub->vals[id].data = x->data; /* borrowed: sub's arena never frees it */
    gir_copy_scale(sub, id, g, v);
    return map[v] = id;
}

GirGraph *drv_cpu_graph(const GirGraph *g, const DrvPlan *d, const Step *s)
{
    char name[32];
    GirGraph *sub;
    int *map = calloc((size_t)g->nval + 1, sizeof *map), i, k, unit = (int)(s - d->steps), most = 1;
    int *ins, *outs;
    for (i = 0; i < g->nnode; i++)
        most = g->nodes[i].nin > most ? g->nodes[i].nin : g->nodes[i].nout > most ? g->nodes[i].nout
                                                                                   : most;
    ins = calloc((size_t)most, sizeof *ins);
    outs = calloc((size_t)most, sizeof *outs);
    if (!map || !ins || !outs)
        gir_die("out of memory");
    snprintf(name, sizeof name, "cpu%d", s->seg);
    sub = gir_graph_new(name);
    sub->opset = g->opset;
    for (i = 0; i < g->nval; i++)
        map[i] = -1;
    for (k = 0; k < s->nreads; k++)
        gir_add_input(sub, sub_value(sub, g, s->reads[k], map, GIR_VAL_INPUT));
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        int id;
        if (d->unit[i] != unit)
            continue;
        for (k = 0; k < n->nin; k++)
            ins[k] = n->in[k] < 0 ? -1
                   : sub_value(sub, g, n->in[k], map, g->vals[n->in[k]].kind == GIR_VAL_CONST
                                                          ? GIR_VAL_CONST : GIR_VAL_NODE);
        for (k = 0; k < n->nout; k++)
            outs[k] = sub_value(sub, g, n->out[k], map, GIR_VAL_NODE);
        id = gir_add_node(sub, n->op, n->name, ins, n->nin, outs, n->nout, n->loc);
        sub->nodes[id].attrs = n->attrs; /* borrowed, as the data */
        sub->nodes[id].nattr = n->nattr;
    }
    for (k = 0; k < s->nwrites; k++)
        gir_add_output(sub, map[s->writes[k]]);
    free(map);
    free(ins);
    free(outs);
    return sub;
}

int drv_cpu_write(const GirGraph *g, const DrvPlan *d, const Step *s, const char *ddir,
                  const struct KlvRecords *records, GirError *e)
{
    char sym[32], path[4096];
    GirGraph *sub = drv_cpu_graph(g, d, s);
    size_t t;
    int rc;
    snprintf(sym, sizeof sym, "kiln_cpu%d", s->seg);
    snprintf(path, sizeof path, "%s/cpu%d.h", ddir, s->seg);
    rc = klv_emit_header(sub, sym, path, e);
    for (t = 0; t < sizeof targets / sizeof targets[0] && rc == 0; t++) {
        snprintf(path, sizeof path, "%s/cpu%d-%s.o", ddir, s->seg, targets[t].suffix);
        KlvTarget kt = targets[t].t;
        kt.records = records;
        rc = klv_emit_object(sub, &kt, sym, path, e);
    }
    if (rc < 0) {
        char msg[sizeof e->msg];
        snprintf(msg, sizeof msg, "%s", e->msg);
        gir_error_at(e, gir_loc_none(), "driver: CPU partition %d (from node '%s'): %s", s->seg,
                     g->nodes[s->node].name, msg);
    }
    gir_graph_free(sub);
    return rc < 0 ? -1 : 0;
}
