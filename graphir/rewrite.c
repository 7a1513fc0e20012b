/*
 * The rewriting helpers every pass uses to remove nodes: use counts, use
 * replacement, compaction.  Passes call these and the pass manager
 * (pass.c) calls the passes, so the three never form a call cycle.
 */
#include <stdlib.h>
#include <string.h>

#include "graphir.h"

void gir_use_counts(const GirGraph *g, int *counts)
{
    int i, j;
    memset(counts, 0, sizeof *counts * (size_t)g->nval);
    for (i = 0; i < g->nnode; i++)
        for (j = 0; j < g->nodes[i].nin; j++)
            if (g->nodes[i].in[j] >= 0)
                counts[g->nodes[i].in[j]]++;
    for (i = 0; i < g->noutput; i++)
        counts[g->outputs[i]]++;
}

void gir_replace_uses(GirGraph *g, int from, int to)
{
    int i, j;
    for (i = 0; i < g->nnode; i++)
        for (j = 0; j < g->nodes[i].nin; j++)
            if (g->nodes[i].in[j] == from)
                g->nodes[i].in[j] = to;
    for (i = 0; i < g->noutput; i++)
        if (g->outputs[i] == from)
            g->outputs[i] = to;
}

/*
 * Both arrays are rewritten in place, keeping order, so a graph that was
 * topologically ordered stays so.  A value stays when a graph input or
 * output names it, a live node reads it, or a live node produces it (a node
 * keeps all its outputs even when some are unused).
 */
void gir_graph_compact(GirGraph *g, const unsigned char *dead)
{
    int *vmap = calloc((size_t)g->nval + 1, sizeof *vmap);
    int *nmap = calloc((size_t)g->nnode + 1, sizeof *nmap);
    unsigned char *keep = calloc((size_t)g->nval + 1, 1);
    int i, j, nv = 0, nn = 0;
    if (!vmap || !nmap || !keep)
        gir_die("out of memory");
    for (i = 0; i < g->ninput; i++)
        keep[g->inputs[i]] = 1;
    for (i = 0; i < g->noutput; i++)
        keep[g->outputs[i]] = 1;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        if (dead && dead[i])
            continue;
        for (j = 0; j < n->nin; j++)
            if (n->in[j] >= 0)
                keep[n->in[j]] = 1;
        for (j = 0; j < n->nout; j++)
            keep[n->out[j]] = 1;
    }
    for (i = 0; i < g->nval; i++) {
        vmap[i] = keep[i] ? nv : -1;
        if (keep[i])
            g->vals[nv++] = g->vals[i];
    }
    g->nval = nv;
    for (i = 0; i < g->nnode; i++) {
        nmap[i] = (dead && dead[i]) ? -1 : nn;
        if (!(dead && dead[i]))
            g->nodes[nn++] = g->nodes[i];
    }
    g->nnode = nn;
    for (i = 0; i < nn; i++) {
        GirNode *n = &g->nodes[i];
        for (j = 0; j < n->nin; j++)
            if (n->in[j] >= 0)
                n->in[j] = vmap[n->in[j]];
        for (j = 0; j < n->nout; j++)
            n->out[j] = vmap[n->out[j]];
    }
    for (i = 0; i < nv; i++)
        if (g->vals[i].kind == GIR_VAL_NODE)
            g->vals[i].producer = g->vals[i].producer >= 0 ? nmap[g->vals[i].producer] : -1;
    for (i = 0; i < g->ninput; i++)
        g->inputs[i] = vmap[g->inputs[i]];
    for (i = 0; i < g->noutput; i++)
        g->outputs[i] = vmap[g->outputs[i]];
    free(vmap);
    free(nmap);
    free(keep);
}
