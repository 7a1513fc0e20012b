/*
 * The pass manager: the table of named passes, the named pipelines and the
 * one place their order is written down.  The helpers every pass uses to
 * remove nodes are in rewrite.c, so the passes never call back into this
 * file.
 *
 * A run takes a comma-separated list of pass and pipeline names, runs each
 * pass in order, checks the graph after every pass (gir_verify, then
 * gir_infer_shapes, which refuses types that disagree with the shape rules),
 * and on request prints the text IR after a named pass and times passes.
 *
 * The check runs in every build, whatever NDEBUG says: on YOLOv3-tiny 416 it
 * costs under a millisecond per pass beside ~45 ms of passes, so there is no
 * release build worth having without it.  Callers opt out with
 * no_verify (kiln opt --no-verify-each).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <string.h>
#include <time.h>

#include "graphir.h"

static const GirPassInfo pass_table[] = {
    {"remove_noops", gir_pass_remove_noops,
     "drop Identity and Reshape/Flatten/Squeeze/Unsqueeze/Transpose that change nothing"},
    {"fold_constants", gir_pass_fold_constants,
     "evaluate nodes whose inputs are all constant; Constant nodes become constants"},
    {"fold_bn", gir_pass_fold_bn, "fold BatchNormalization into the Conv that feeds it"},
    {"fold_pad", gir_pass_fold_pad, "fold a zero constant Pad into the Conv that reads it"},
    {"fuse_hswish", gir_pass_fuse_hswish,
     "spelled-out HardSwish x*clip(x+3,0,6)/6 and HardSigmoid clip(x+3,0,6)/6 to one node"},
    {"fuse_act", gir_pass_fuse_act,
     "fuse Relu, LeakyRelu, Clip into the Conv/Gemm that feeds it (act attributes)"},
    {"cse", gir_pass_cse, "merge identical constants and nodes with the same op, inputs, attributes"},
    {"dce", gir_pass_dce, "remove nodes and values no graph output depends on"},
    {"fold_qdq", gir_pass_fold_qdq, "pre-quantized ONNX (QDQ, QLinearConv) into kiln's int8 form"},
    {"nhwc", gir_pass_nhwc,
     "feature maps to NHWC (layout=\"NHWC\" on spatial ops, Transpose at the boundaries)"},
};

/* Named pipelines.  O1 is the default: what `kiln opt -O` and `kiln
 * quantize` run.  It leaves feature maps in NCHW; "hw" adds the NHWC layout
 * the hardware streams. */
static const struct {
    const char *name;   /* as in --passes=name */
    const char *passes; /* comma-separated pass names */
} pipelines[] = {
    {"O1", "remove_noops,fold_constants,fold_bn,fold_pad,fuse_hswish,fuse_act,cse,dce"},
    {"default", "O1"},
    {"O0", ""},
    {"hw", "O1,nhwc,remove_noops,cse,dce"},
};

#define NPASSES ((int)(sizeof pass_table / sizeof pass_table[0]))
#define NPIPES ((int)(sizeof pipelines / sizeof pipelines[0]))

const GirPassInfo *gir_passes(int *count)
{
    *count = NPASSES;
    return pass_table;
}

const char *gir_pipeline_passes(const char *name)
{
    int i;
    for (i = 0; i < NPIPES; i++)
        if (strcmp(pipelines[i].name, name) == 0)
            return pipelines[i].passes;
    return NULL;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* After pass name: the structural invariants, then the shape rules over the
 * whole graph (a type the pass wrote that the rules contradict is an
 * error). */
static int check_after(GirGraph *g, const char *name, GirError *e)
{
    GirError sub;
    if (gir_verify(g, &sub) < 0 || gir_infer_shapes(g, &sub) < 0)
        return gir_error_at(e, gir_loc_none(), "after pass '%s': %s", name, sub.msg);
    return 0;
}

/* NULL options: quiet, verifying after every pass. */
static const GirPassOptions default_options;

int gir_run_pass(GirGraph *g, const GirPassInfo *p, const GirPassOptions *opts, GirError *e)
{
    const GirPassOptions *o = opts ? opts : &default_options;
    double t0 = now_ms();
    if (p->fn(g, e) < 0) {
        if (e) {
            char msg[sizeof e->msg];
            snprintf(msg, sizeof msg, "%s (pass %s)", e->msg, p->name);
            memcpy(e->msg, msg, sizeof msg);
        }
        return -1;
    }
    if (o->time_passes)
        fprintf(o->time_out ? o->time_out : stderr, "pass %-16s %9.3f ms  %5d nodes\n",
                p->name, now_ms() - t0, g->nnode);
    if (!o->no_verify && check_after(g, p->name, e) < 0)
        return -1;
    if (o->dump_after && strcmp(o->dump_after, p->name) == 0) {
        FILE *f = o->dump ? o->dump : stdout;
        fprintf(f, "# after %s\n", p->name);
        if (gir_print(g, f, o->elide_data) < 0)
            return gir_error_at(e, gir_loc_none(), "after pass '%s': printing failed", p->name);
    }
    return 0;
}

/* Walk a comma-separated list of pass and pipeline names; depth bounds
 * pipelines naming pipelines.  g == NULL only checks the names: every name is
 * checked before anything runs, so a typo at the end of a list does not
 * leave a half-optimised graph. */
static int walk_list(GirGraph *g, const char *list, const GirPassOptions *o, int depth,
                     GirError *e)
{
    const char *p = list;
    if (depth > 8)
        return gir_error_at(e, gir_loc_none(), "pipelines nest too deeply");
    while (*p) {
        char name[64];
        size_t len = strcspn(p, ",");
        const char *sub;
        int i;
        if (len == 0) {
            p++;
            continue;
        }
        if (len >= sizeof name)
            return gir_error_at(e, gir_loc_none(), "unknown pass '%.*s'", (int)len, p);
        memcpy(name, p, len);
        name[len] = 0;
        p += len;
        for (i = 0; i < NPASSES; i++)
            if (strcmp(pass_table[i].name, name) == 0)
                break;
        if (i < NPASSES) {
            if (g && gir_run_pass(g, &pass_table[i], o, e) < 0)
                return -1;
        } else if ((sub = gir_pipeline_passes(name)) != NULL) {
            if (walk_list(g, sub, o, depth + 1, e) < 0)
                return -1;
        } else {
            return gir_error_at(e, gir_loc_none(),
                                "unknown pass '%s' (kiln opt --list names them)", name);
        }
    }
    return 0;
}

static int check_names(const char *list, int depth, GirError *e)
{
    return walk_list(NULL, list, NULL, depth, e);
}

int gir_check_pass_list(const char *list, GirError *e)
{
    return check_names(list, 0, e);
}

int gir_run_passes(GirGraph *g, const char *list, const GirPassOptions *opts, GirError *e)
{
    const GirPassOptions *o = opts ? opts : &default_options;
    double t0;
    if (check_names(list, 0, e) < 0)
        return -1;
    if (o->dump_after && check_names(o->dump_after, 7, e) < 0)
        return -1;
    t0 = now_ms();
    if (walk_list(g, list, o, 0, e) < 0)
        return -1;
    if (o->time_passes)
        fprintf(o->time_out ? o->time_out : stderr, "pass %-16s %9.3f ms  %5d nodes\n", "(total)",
                now_ms() - t0, g->nnode);
    return 0;
}

int gir_run_pipeline(GirGraph *g, const char *pipeline, const GirPassOptions *opts,
                     GirError *e)
{
    const char *name = pipeline ? pipeline : "O1";
    if (!gir_pipeline_passes(name))
        return gir_error_at(e, gir_loc_none(), "unknown pipeline '%s'", name);
    return gir_run_passes(g, name, opts, e);
}
