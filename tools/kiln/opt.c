/*
 * kiln opt MODEL [--passes=a,b | -O] [--dump-after=PASS] [--time-passes]
 *                [--verify-each] [--stats] [--elide-data] [-o OUT.gir] [--list]
 * Run graph passes over a model and print the result in the text IR.
 */
#include <stdio.h>
#include <string.h>

#include "kiln.h"

static void opt_usage(FILE *f)
{
    fprintf(f,
            "usage: kiln opt MODEL [--passes=a,b | -O] [--dump-after=PASS] [--time-passes]\n"
            "                [--verify-each | --no-verify-each] [--stats] [--elide-data] [-o OUT.gir]\n"
            "  --passes=LIST      passes and pipelines to run, comma-separated, in order\n"
            "  -O                 the default pipeline (O1)\n"
            "  --dump-after=PASS  print the text IR after each run of PASS (then not at the end)\n"
            "  --time-passes      print each pass's time to standard error\n"
            "  --verify-each      check the graph after every pass (the default)\n"
            "  --stats            print node counts per op instead of the IR\n"
            "  --elide-data       leave constants' data out of printed IR\n"
            "  -o OUT.gir         write the result to OUT.gir\n"
            "  --list             list passes and pipelines\n");
    kiln_shape_usage(f);
}

static void list_passes(void)
{
    static const char *const pipes[] = {"O1", "default", "hw", "O0"};
    const GirPassInfo *p;
    int n, i;
    p = gir_passes(&n);
    printf("passes:\n");
    for (i = 0; i < n; i++)
        printf("  %-16s %s\n", p[i].name, p[i].summary);
    printf("pipelines:\n");
    for (i = 0; i < (int)(sizeof pipes / sizeof pipes[0]); i++)
        printf("  %-16s %s\n", pipes[i], gir_pipeline_passes(pipes[i]));
}

static void print_stats(const GirGraph *g, FILE *f)
{
    int counts[GIR_OP_COUNT] = {0}, fused = 0, i;
    for (i = 0; i < g->nnode; i++) {
        counts[g->nodes[i].op]++;
        if (g->nodes[i].op == GIR_OP_CONV && gir_attr(&g->nodes[i], "act"))
            fused++;
    }
    fprintf(f, "nodes %d\n", g->nnode);
    for (i = 0; i < GIR_OP_COUNT; i++)
        if (counts[i])
            fprintf(f, "  %-20s %d\n", gir_op_name((GirOp)i), counts[i]);
    fprintf(f, "  %-20s %d\n", "(Conv with act)", fused);
}

int kiln_cmd_opt(int argc, char **argv)
{
    const char *path = NULL, *passes = NULL, *out = NULL;
    int stats = 0, i, rc = KILN_OK;
    GirPassOptions o;
    GirError err;
    GirGraph *g;
    FILE *f = stdout;
    char tmp[4096];

    memset(&o, 0, sizeof o);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (kiln_is_help(a)) {
            opt_usage(stdout);
            return KILN_OK;
        } else if (strcmp(a, "--list") == 0) {
            list_passes();
            return KILN_OK;
        } else if (strncmp(a, "--passes=", 9) == 0) {
            passes = a + 9;
        } else if (strcmp(a, "--passes") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("opt: --passes needs a list");
            passes = argv[++i];
        } else if (strcmp(a, "-O") == 0 || strcmp(a, "-O1") == 0) {
            passes = "O1";
        } else if (strncmp(a, "--dump-after=", 13) == 0) {
            o.dump_after = a + 13;
        } else if (strcmp(a, "--time-passes") == 0) {
            o.time_passes = 1;
        } else if (strcmp(a, "--verify-each") == 0) {
            o.no_verify = 0;
        } else if (strcmp(a, "--no-verify-each") == 0) {
            o.no_verify = 1;
        } else if (strcmp(a, "--stats") == 0) {
            stats = 1;
        } else if (strcmp(a, "--elide-data") == 0) {
            o.elide_data = 1;
        } else if (strcmp(a, "-o") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("opt: -o needs a file");
            out = argv[++i];
        } else if (a[0] == '-') {
            opt_usage(stderr);
            return kiln_user_error("opt: unknown option '%s'", a);
        } else if (!path) {
            path = a;
        } else {
            return kiln_user_error("opt: more than one model given ('%s')", a);
        }
    }
    if (!path) {
        opt_usage(stderr);
        return kiln_user_error("opt: no model given");
    }
    if (!passes)
        return kiln_user_error("opt: no passes given (--passes=a,b or -O; --list names them)");
    if (gir_check_pass_list(passes, &err) < 0 ||
        (o.dump_after && gir_check_pass_list(o.dump_after, &err) < 0))
        return kiln_report(&err);
    g = kiln_load_model(path, 0, &err);
    if (!g)
        return kiln_report(&err);
    if (gir_run_passes(g, passes, &o, &err) < 0) {
        /* Name the model unless the message already starts with it. */
        if (strncmp(err.msg, path, strlen(path)) == 0)
            rc = kiln_report(&err);
        else
            rc = kiln_user_error("%s: %s", path, err.msg);
        goto done;
    }
    if (gir_verify(g, &err) < 0) {
        rc = kiln_user_error("opt: result does not verify: %s", err.msg);
        goto done;
    }
    if (stats)
        print_stats(g, stdout);
    if (!out && (stats || o.dump_after))
        goto done;
    if (out) {
        /* Written beside the target and renamed, so a failed write never
         * leaves a file that looks complete. */
        snprintf(tmp, sizeof tmp, "%s.tmp", out);
        f = fopen(tmp, "w");
        if (!f) {
            rc = kiln_user_error("opt: cannot write %s", tmp);
            goto done;
        }
    }
    if (gir_print(g, f, o.elide_data) < 0 || ferror(f))
        rc = kiln_user_error("opt: writing %s failed", out ? out : "standard output");
    if (out) {
        if (fclose(f) != 0 && rc == KILN_OK)
            rc = kiln_user_error("opt: writing %s failed", out);
        if (rc == KILN_OK && rename(tmp, out) != 0)
            rc = kiln_user_error("opt: cannot rename %s to %s", tmp, out);
        if (rc != KILN_OK)
            remove(tmp);
    }
done:
    gir_graph_free(g);
    return rc;
}
