/*
 * kiln info MODEL [--json]: a per-layer table (op, output shape, parameters,
 * MACs) and totals.  Darknet reports BFLOPs = 2 x MACs; both are printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "kiln.h"

static void info_usage(FILE *f)
{
    fprintf(f, "usage: kiln info MODEL [--json]\n"
               "  MODEL   .onnx, .cfg (Darknet; .weights of the same stem used when present) or .gir\n"
               "  --json  machine-readable output\n");
    kiln_shape_usage(f);
}

static cJSON *shape_json(const GirType *t)
{
    cJSON *a = cJSON_CreateArray();
    int i;
    for (i = 0; i < t->rank; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)t->dims[i]));
    return a;
}

int kiln_cmd_info(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, i;
    GirError err;
    GirGraph *g;
    int64_t total_macs = 0, total_params = 0;
    cJSON *root = NULL, *layers = NULL;

    for (i = 1; i < argc; i++) {
        if (kiln_is_help(argv[i])) {
            info_usage(stdout);
            return KILN_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (argv[i][0] == '-') {
            info_usage(stderr);
            return kiln_user_error("info: unknown option '%s'", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            info_usage(stderr);
            return kiln_user_error("info: more than one model given ('%s')", argv[i]);
        }
    }
    if (!path) {
        info_usage(stderr);
        return kiln_user_error("info: no model given");
    }
    g = kiln_load_model(path, 0, &err);
    if (!g)
        return kiln_report(&err);

    if (json) {
        root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "model", path);
        cJSON_AddStringToObject(root, "name", g->name);
        layers = cJSON_AddArrayToObject(root, "layers");
    } else {
        printf("%-4s %-28s %-20s %-22s %12s %14s\n", "#", "node", "op", "output", "params",
               "MACs");
    }
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        GirNodeCost c = gir_node_cost(g, n);
        const GirType *t = n->nout > 0 ? &g->vals[n->out[0]].type : NULL;
        char shape[128] = "-";
        total_macs += c.macs;
        total_params += c.params;
        if (t)
            gir_type_str(t, shape, sizeof shape);
        if (json) {
            cJSON *l = cJSON_CreateObject();
            cJSON_AddStringToObject(l, "name", n->name);
            cJSON_AddStringToObject(l, "op", gir_op_name(n->op));
            if (t)
                cJSON_AddItemToObject(l, "shape", shape_json(t));
            cJSON_AddNumberToObject(l, "params", (double)c.params);
            cJSON_AddNumberToObject(l, "macs", (double)c.macs);
            cJSON_AddItemToArray(layers, l);
        } else {
            printf("%-4d %-28.28s %-20s %-22s %12lld %14lld\n", i, n->name, gir_op_name(n->op),
                   shape, (long long)c.params, (long long)c.macs);
        }
    }
    if (json) {
        char *s;
        cJSON_AddNumberToObject(root, "nodes", g->nnode);
        cJSON_AddNumberToObject(root, "params", (double)total_params);
        cJSON_AddNumberToObject(root, "macs", (double)total_macs);
        cJSON_AddNumberToObject(root, "bflops", 2.0 * (double)total_macs / 1e9);
        s = cJSON_Print(root);
        puts(s);
        free(s);
        cJSON_Delete(root);
    } else {
        printf("total: %d nodes, %.3f M parameters (%lld), %.3f G MACs (%lld), %.3f BFLOPs\n",
               g->nnode, (double)total_params / 1e6, (long long)total_params,
               (double)total_macs / 1e9, (long long)total_macs,
               2.0 * (double)total_macs / 1e9);
    }
    gir_graph_free(g);
    return KILN_OK;
}
