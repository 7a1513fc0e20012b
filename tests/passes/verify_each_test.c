/*
 * verify_each_test CASE
 *
 * The pass runner checks the graph after every pass, in every build type
 * (this test runs in the RelWithDebInfo build, which defines NDEBUG).  Each
 * case runs a deliberately broken pass on a small graph, through
 * gir_run_pass with default options (NULL) or through gir_run_passes after
 * a real pass, and wants the verifier's exact message naming the pass.
 *   break_ids    a node input set to a value id that does not exist (gir_verify)
 *   break_types  an output type the shape rules contradict (gir_infer_shapes)
 *   after_list   break_types run after "dce" from a list (options all zero)
 *   no_verify    break_types with no_verify set: the run succeeds
 * Exits 0 when the outcome is the expected one, 1 otherwise.
 */
#include <stdio.h>
#include <string.h>

#include "graphir/graphir.h"

static const char text[] = "graph \"t\" opset 13\n"
                           "input %x : f32[1,4,8,8]\n"
                           "%y = Relu(%x) : f32[1,4,8,8]\n"
                           "output %y\n";

/* A pass that leaves an input of node 0 pointing past the value array. */
static int break_ids(GirGraph *g, GirError *e)
{
    (void)e;
    g->nodes[0].in[0] = g->nval + 5;
    return 0;
}

/* A pass that writes an output type Relu's shape rule does not give. */
static int break_types(GirGraph *g, GirError *e)
{
    (void)e;
    g->vals[g->nodes[0].out[0]].type.dims[1] = 5;
    return 0;
}

static const GirPassInfo bad_ids = {"break_ids", break_ids, "corrupts a value id"};
static const GirPassInfo bad_types = {"break_types", break_types, "corrupts a type"};

/* The run's return code and message, compared with the wanted ones. */
static int expect(const char *name, int rc, const GirError *e, int want_rc, const char *want)
{
    if (rc != want_rc || (want && strcmp(e->msg, want) != 0)) {
        printf("%s: rc %d, message '%s'\n%s: want rc %d, message '%s'\n", name, rc,
               rc ? e->msg : "", name, want_rc, want ? want : "");
        return 1;
    }
    printf("ok: %s: %s\n", name, rc ? e->msg : "no error");
    return 0;
}

int main(int argc, char **argv)
{
    GirError e;
    GirGraph *g;
    GirPassOptions o;
    const char *c = argc == 2 ? argv[1] : "";
    int rc, bad;
    memset(&e, 0, sizeof e);
    memset(&o, 0, sizeof o);
    g = gir_parse(text, sizeof text - 1, "t.gir", &e);
    if (!g) {
        printf("parse: %s\n", e.msg);
        return 1;
    }
    if (strcmp(c, "break_ids") == 0) {
        rc = gir_run_pass(g, &bad_ids, NULL, &e);
        bad = expect(c, rc, &e, -1,
                     "after pass 'break_ids': node 'y' (Relu): input 0 is value id 7, out of "
                     "range (2 values)");
    } else if (strcmp(c, "break_types") == 0) {
        rc = gir_run_pass(g, &bad_types, NULL, &e);
        bad = expect(c, rc, &e, -1,
                     "after pass 'break_types': node 'y': Relu: output 'y' is declared "
                     "f32[1,5,8,8] but computes to f32[1,4,8,8]");
    } else if (strcmp(c, "after_list") == 0) {
        rc = gir_run_passes(g, "dce", &o, &e);
        if (rc == 0)
            rc = gir_run_pass(g, &bad_types, &o, &e);
        bad = expect(c, rc, &e, -1,
                     "after pass 'break_types': node 'y': Relu: output 'y' is declared "
                     "f32[1,5,8,8] but computes to f32[1,4,8,8]");
    } else if (strcmp(c, "no_verify") == 0) {
        o.no_verify = 1;
        rc = gir_run_pass(g, &bad_types, &o, &e);
        bad = expect(c, rc, &e, 0, NULL);
    } else {
        printf("usage: verify_each_test break_ids|break_types|after_list|no_verify\n");
        bad = 1;
    }
    gir_graph_free(g);
    return bad;
}
