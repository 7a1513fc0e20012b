/*
 * chan.c: the channel list the emitters work from: hls_plan_channels'
 * DMA channels (the list the planner costs) with the graph value each one
 * moves, and the plan hash kiln_regfile reports.
 */
#include "pipeline/internal.h"

#include <stdlib.h>

/* Number of graph uses of value v (node inputs and graph outputs). */
static int value_uses(const GirGraph *g, int v)
{
    int i, k, n = 0;
    for (i = 0; i < g->nnode; i++)
        for (k = 0; k < g->nodes[i].nin; k++)
            n += g->nodes[i].in[k] == v;
    for (i = 0; i < g->noutput; i++)
        n += g->outputs[i] == v;
    return n;
}

/* The graph value stage s produces: its node's output, followed through the
 * BatchNormalization / ReLU / LeakyReLU nodes a conv stage absorbs (as
 * hls/partition.c absorbs them). */
const char *rtl_stage_out_value(const GirGraph *g, const HlsStage *s)
{
    int v, i;
    if (!g || s->node_id < 0 || s->node_id >= g->nnode || g->nodes[s->node_id].nout < 1)
        return s->node;
    v = g->nodes[s->node_id].out[0];
    for (i = s->node_id + 1;
         (s->kind == HLS_ST_CONV || s->kind == HLS_ST_DWCONV) && i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        if (n->nin < 1 || n->in[0] != v || n->nout < 1)
            continue;
        if ((n->op != GIR_OP_BATCHNORM && n->op != GIR_OP_RELU && n->op != GIR_OP_LEAKYRELU) ||
            value_uses(g, v) != 1)
            break;
        v = n->out[0];
    }
    return g->vals[v].name;
}

const char *rtl_stage_in_value(const GirGraph *g, const HlsStage *s, int k)
{
    if (!g || s->node_id < 0 || s->node_id >= g->nnode || g->nodes[s->node_id].nin <= k ||
        g->nodes[s->node_id].in[k] < 0)
        return s->node;
    return g->vals[g->nodes[s->node_id].in[k]].name;
}

void rtl_gen_init(Gen *G, const HlsPlan *p, const GirGraph *g)
{
    int i;
    G->p = p;
    G->g = g;
    G->hash = rtl_plan_hash(p);
    hls_plan_channels(p, &G->c);
    G->value = calloc((size_t)G->c.nch + 1, sizeof *G->value);
    if (!G->value)
        gir_die("out of memory");
    for (i = 0; i < G->c.nch; i++) {
        const HlsChan *c = &G->c.ch[i];
        const HlsStage *s;
        if (c->ts)
            continue; /* the shared engine's maps: regmap.json "tsconv" */
        s = &p->stages[c->stage];
        if (c->kind == HLS_CH_IN)
            G->value[i] = rtl_stage_in_value(g, s, c->port);
        else if (c->kind == HLS_CH_OUT)
            G->value[i] = rtl_stage_out_value(g, s);
    }
}

void rtl_gen_free(Gen *G)
{
    hls_chans_free(&G->c);
    free(G->value);
    G->value = NULL;
}
