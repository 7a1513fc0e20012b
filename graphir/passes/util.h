/*
 * Small helpers shared by the pass files (folder-private): constant lookup,
 * fresh names, and the single-consumer question most rewrites ask.
 */
#ifndef KILN_GRAPHIR_PASSES_UTIL_H
#define KILN_GRAPHIR_PASSES_UTIL_H

#include <stdio.h>
#include <string.h>

#include "graphir/graphir.h"

/* The data of value v when it is an f32 constant, else NULL. */
static inline const float *pu_const_f32(const GirGraph *g, int v)
{
    if (v < 0 || g->vals[v].kind != GIR_VAL_CONST || g->vals[v].type.dtype != GIR_DT_F32)
        return NULL;
    return g->vals[v].data;
}

/* Elements of value v (its type must be static; -1 otherwise). */
static inline int64_t pu_numel(const GirGraph *g, int v)
{
    return gir_type_numel(&g->vals[v].type);
}

/* A value name not yet in the graph: base, else base_1, base_2, ... */
static inline const char *pu_fresh_name(GirGraph *g, const char *base)
{
    int k;
    if (gir_find_value(g, base) < 0)
        return gir_arena_strdup(g->arena, base);
    for (k = 1;; k++) {
        char *s = gir_arena_printf(g->arena, "%s_%d", base, k);
        if (gir_find_value(g, s) < 0)
            return s;
    }
}

/* The one node reading value v, or -1 when v has no reader, several, or is a
 * graph output.  counts comes from gir_use_counts. */
static inline int pu_sole_user(const GirGraph *g, const int *counts, int v)
{
    int i, j;
    if (counts[v] != 1)
        return -1;
    for (i = 0; i < g->noutput; i++)
        if (g->outputs[i] == v)
            return -1;
    for (i = 0; i < g->nnode; i++)
        for (j = 0; j < g->nodes[i].nin; j++)
            if (g->nodes[i].in[j] == v)
                return i;
    return -1;
}

/* The location for an error about node n: its source place, named. */
static inline GirLoc pu_node_loc(const GirNode *n)
{
    GirLoc l = n->loc;
    if (!l.node)
        l.node = n->name;
    return l;
}

#endif
