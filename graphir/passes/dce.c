/*
 * dce: remove the nodes no graph output depends on, then every value nothing
 * refers to (unused constants included).  Needs nothing; keeps graph inputs
 * even when unused, since callers feed inputs by position.
 */
#include <stdlib.h>

#include "util.h"

int gir_pass_dce(GirGraph *g, GirError *e)
{
    unsigned char *live = calloc((size_t)g->nval + 1, 1);
    unsigned char *dead = calloc((size_t)g->nnode + 1, 1);
    int i, j;
    (void)e;
    if (!live || !dead)
        gir_die("out of memory");
    for (i = 0; i < g->noutput; i++)
        live[g->outputs[i]] = 1;
    /* Backwards: a node lives when one of its outputs is read by a live
     * node or is a graph output. */
    for (i = g->nnode - 1; i >= 0; i--) {
        const GirNode *n = &g->nodes[i];
        int used = 0;
        for (j = 0; j < n->nout; j++)
            used |= live[n->out[j]];
        if (!used) {
            dead[i] = 1;
            continue;
        }
        for (j = 0; j < n->nin; j++)
            if (n->in[j] >= 0)
                live[n->in[j]] = 1;
    }
    gir_graph_compact(g, dead);
    free(live);
    free(dead);
    return 0;
}
