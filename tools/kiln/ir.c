/*
 * kiln ir MODEL [-o FILE] [--elide-data]: print a model in the text IR.  The
 * text parses back (`kiln ir FILE.gir`) to an identical print.
 */
#include <stdio.h>
#include <string.h>

#include "kiln.h"

static void ir_usage(FILE *f)
{
    fprintf(f, "usage: kiln ir MODEL [-o FILE] [--elide-data]\n"
               "  -o FILE        write the text IR to FILE (default: standard output)\n"
               "  --elide-data   leave constants' data out (readable, does not parse back)\n");
    kiln_shape_usage(f);
}

int kiln_cmd_ir(int argc, char **argv)
{
    const char *path = NULL, *out = NULL;
    int elide = 0, i, rc = KILN_OK;
    GirError err;
    GirGraph *g;
    FILE *f = stdout;
    char tmp[4096];

    for (i = 1; i < argc; i++) {
        if (kiln_is_help(argv[i])) {
            ir_usage(stdout);
            return KILN_OK;
        } else if (strcmp(argv[i], "-o") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("ir: -o needs a file");
            out = argv[++i];
        } else if (strcmp(argv[i], "--elide-data") == 0) {
            elide = 1;
        } else if (argv[i][0] == '-') {
            ir_usage(stderr);
            return kiln_user_error("ir: unknown option '%s'", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            return kiln_user_error("ir: more than one model given ('%s')", argv[i]);
        }
    }
    if (!path) {
        ir_usage(stderr);
        return kiln_user_error("ir: no model given");
    }
    g = kiln_load_model(path, 0, &err);
    if (!g)
        return kiln_report(&err);
    if (out) {
        /* Written beside the target and renamed, so a failed write never
         * leaves a file that looks complete. */
        snprintf(tmp, sizeof tmp, "%s.tmp", out);
        f = fopen(tmp, "w");
        if (!f) {
            gir_graph_free(g);
            return kiln_user_error("ir: cannot write %s", tmp);
        }
    }
    if (gir_print(g, f, elide) < 0 || ferror(f))
        rc = kiln_user_error("ir: writing %s failed", out ? out : "standard output");
    if (out) {
        if (fclose(f) != 0 && rc == KILN_OK)
            rc = kiln_user_error("ir: writing %s failed", out);
        if (rc == KILN_OK && rename(tmp, out) != 0)
            rc = kiln_user_error("ir: cannot rename %s to %s", tmp, out);
        if (rc != KILN_OK)
            remove(tmp);
    }
    gir_graph_free(g);
    return rc;
}
