/*
 * kiln lower MODEL --triple T [--cpu C] [--features F] [--symbol NAME] -o OUT.o:
 * compile a model ahead of time through llvm/ into a relocatable object
 * for x86-64 or aarch64 and a C header (OUT.h, same stem) declaring its
 * entry point.  The model is prepared as for `kiln run --target cpu`: the
 * default passes on an fp32 model, the int8 form taken as it is.  Both
 * files are written under temporary names and renamed when both are
 * complete; on failure neither is left.
 * With --triple nvptx64-nvidia-cuda: OUT.ptx, the launch plan OUT.json and
 * the constants and tables the kernels read, OUT.bin (same rules).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "kiln.h"
#include "llvm/llvm.h"

static void lower_usage(FILE *f)
{
    fprintf(f, "usage: kiln lower MODEL --triple T [--cpu C] [--features F] [--symbol NAME] -o OUT.o\n"
               "  writes the relocatable object OUT.o and the C header OUT.h declaring\n"
               "    int NAME(const void *const *inputs, void *const *outputs);\n"
               "  which runs the model on the calling thread (link with -lm)\n"
               "  --triple T    x86_64-linux-gnu, aarch64-linux-gnu, ... (LLVM target triple)\n"
               "  --cpu C       CPU to tune and select instructions for (e.g. cortex-a53, znver4;\n"
               "                default: the triple's generic CPU)\n"
               "  --features F  LLVM target features, e.g. +avx2,+fma\n"
               "  --symbol NAME the entry point's name (default: OUT's stem as a C identifier)\n"
               "  --records FILE the best schedule per workload from kiln tune's records, where the\n"
               "                workload's target matches (--cpu host: this machine, as kiln tune)\n"
               "with --triple nvptx64-nvidia-cuda [--cpu sm_XX] -o OUT.ptx: the PTX (default sm_90,\n"
               "  +ptx78), its launch plan OUT.json and the data the kernels read, OUT.bin\n");
}

/* OUT with its extension (after the last '.' of the file name) replaced
 * by ext; malloc'd. */
static char *with_ext(const char *out, const char *ext)
{
    const char *base = strrchr(out, '/'), *dot;
    size_t n;
    char *s;
    base = base ? base + 1 : out;
    dot = strrchr(base, '.');
    n = dot && dot != base ? (size_t)(dot - out) : strlen(out);
    s = malloc(n + strlen(ext) + 1);
    if (s) {
        memcpy(s, out, n);
        strcpy(s + n, ext);
    }
    return s;
}

/* The default entry point name: OUT's stem with every character that
 * cannot be in a C identifier as '_', prefixed "kiln_" when it does not
 * start with a letter. */
static void default_symbol(const char *out, char *sym, size_t size)
{
    char *stem = with_ext(out, "");
    const char *base = stem ? strrchr(stem, '/') : NULL;
    size_t k, at = 0;
    base = base ? base + 1 : stem ? stem : "model";
    if (!isalpha((unsigned char)base[0]))
        at = (size_t)snprintf(sym, size, "kiln_");
    for (k = 0; base[k] && at + 1 < size; k++)
        sym[at++] = isalnum((unsigned char)base[k]) ? base[k] : '_';
    sym[at] = '\0';
    free(stem);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The options of one kiln lower command. */
typedef struct {
    const char *model, *out, *symbol; /* MODEL, -o, --symbol (NULL: default) */
    const char *records;              /* --records FILE, NULL: none */
    KlvTarget t;                      /* --triple, --cpu, --features */
} LowerArgs;

/* Parse argv into a; a KILN_ status (-1: --help printed). */
static int parse(int argc, char **argv, LowerArgs *a)
{
    int i;
    memset(a, 0, sizeof *a);
    for (i = 1; i < argc; i++) {
        const char *o = argv[i], **slot = NULL;
        if (kiln_is_help(o)) {
            lower_usage(stdout);
            return -1;
        }
        if (strcmp(o, "-o") == 0)
            slot = &a->out;
        else if (strcmp(o, "--triple") == 0)
            slot = &a->t.triple;
        else if (strcmp(o, "--cpu") == 0)
            slot = &a->t.cpu;
        else if (strcmp(o, "--features") == 0)
            slot = &a->t.features;
        else if (strcmp(o, "--symbol") == 0)
            slot = &a->symbol;
        else if (strcmp(o, "--records") == 0)
            slot = &a->records;
        if (slot) {
            if (i + 1 >= argc)
                return kiln_user_error("lower: %s needs a value", o);
            *slot = argv[++i];
        } else if (o[0] == '-') {
            return kiln_user_error("lower: unknown option '%s' (kiln lower --help)", o);
        } else if (!a->model) {
            a->model = o;
        } else {
            return kiln_user_error("lower: more than one model given ('%s')", o);
        }
    }
    if (!a->model)
        return kiln_user_error("lower: no model given (kiln lower --help)");
    if (!a->t.triple)
        return kiln_user_error("lower: --triple is needed (e.g. x86_64-linux-gnu, aarch64-linux-gnu)");
    if (!a->out)
        return kiln_user_error("lower: -o OUT.o is needed");
    return KILN_OK;
}

/* Write the header and the object under temporary names next to the
 * final ones, then rename both; nothing is left on failure.  A KILN_
 * status. */
static int write_both(const GirGraph *g, const LowerArgs *a, const char *sym, const char *hdr)
{
    char *tmp_o = malloc(strlen(a->out) + 32), *tmp_h = malloc(strlen(hdr) + 32);
    GirError err;
    int rc = KILN_BAD_INPUT;
    FILE *probe;
    if (!tmp_o || !tmp_h) {
        free(tmp_o);
        free(tmp_h);
        return kiln_user_error("lower: out of memory");
    }
    sprintf(tmp_o, "%s.tmp%ld", a->out, (long)getpid());
    sprintf(tmp_h, "%s.tmp%ld", hdr, (long)getpid());
    /* the object's folder must take a new file: say so with its name */
    if (!(probe = fopen(tmp_o, "w"))) {
        kiln_user_error("lower: cannot write %s: %s", a->out, strerror(errno));
        goto out;
    }
    fclose(probe);
    if (klv_emit_header(g, sym, tmp_h, &err) < 0 || klv_emit_object(g, &a->t, sym, tmp_o, &err) < 0) {
        kiln_user_error("lower: %s", err.msg);
        goto out;
    }
    if (rename(tmp_o, a->out) != 0) {
        kiln_user_error("lower: cannot write %s: %s", a->out, strerror(errno));
        goto out;
    }
    if (rename(tmp_h, hdr) != 0) {
        kiln_user_error("lower: cannot write %s: %s", hdr, strerror(errno));
        unlink(a->out);
        goto out;
    }
    rc = KILN_OK;
out:
    unlink(tmp_o);
    unlink(tmp_h);
    free(tmp_o);
    free(tmp_h);
    return rc;
}

/* ---- PTX ------------------------------------------------------------------------ */

/* A value's name, dtype and shape into o. */
static void json_value(cJSON *o, const GirValue *v)
{
    cJSON *sh;
    int k;
    cJSON_AddStringToObject(o, "name", v->name);
    cJSON_AddStringToObject(o, "dtype", gir_dtype_name(v->type.dtype));
    sh = cJSON_AddArrayToObject(o, "shape");
    for (k = 0; k < v->type.rank; k++)
        cJSON_AddItemToArray(sh, cJSON_CreateNumber((double)v->type.dims[k]));
}

/* The graph's inputs or outputs (ids[0..n)) with their buffers. */
static void json_ports(cJSON *root, const char *key, const GirGraph *g, const int *ids, int n)
{
    cJSON *arr = cJSON_AddArrayToObject(root, key);
    int k;
    for (k = 0; k < n; k++) {
        cJSON *o = cJSON_CreateObject();
        json_value(o, &g->vals[ids[k]]);
        cJSON_AddNumberToObject(o, "buffer", ids[k]);
        cJSON_AddNumberToObject(o, "bytes", (double)gir_type_bytes(&g->vals[ids[k]].type));
        cJSON_AddItemToArray(arr, o);
    }
}

/* The used buffers: index, kind, bytes, where their data is. */
static void json_buffers(cJSON *root, const GirGraph *g, const KlvGpuModule *m)
{
    static const char *const kinds[] = {"value", "table", "scratch"};
    cJSON *arr = cJSON_AddArrayToObject(root, "buffers");
    int n, k;
    const KlvGpuBuffer *b = klv_gpu_buffers(m, &n);
    for (k = 0; k < n; k++) {
        cJSON *o;
        if (!b[k].used)
            continue;
        o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", k);
        cJSON_AddStringToObject(o, "kind", kinds[b[k].kind]);
        if (b[k].value >= 0) {
            cJSON_AddStringToObject(o, "value", g->vals[b[k].value].name);
            cJSON_AddNumberToObject(o, "value_id", b[k].value);
        }
        if (b[k].node >= 0)
            cJSON_AddNumberToObject(o, "node", b[k].node);
        cJSON_AddNumberToObject(o, "bytes", (double)b[k].bytes);
        if (b[k].offset >= 0)
            cJSON_AddNumberToObject(o, "offset", (double)b[k].offset);
        if (b[k].kind == KLV_GPU_SCRATCH)
            cJSON_AddTrueToObject(o, "zero");
        if (b[k].axis >= 0)
            cJSON_AddNumberToObject(o, "axis", b[k].axis);
        if (b[k].sized)
            cJSON_AddTrueToObject(o, "sized");
        cJSON_AddItemToArray(arr, o);
    }
}

/* The launches in order: entry, node, grid, block, argument buffers. */
static void json_launches(cJSON *root, const GirGraph *g, const KlvGpuModule *m)
{
    cJSON *arr = cJSON_AddArrayToObject(root, "launches");
    int n, k, a;
    const KlvGpuLaunch *l = klv_gpu_launches(m, &n);
    for (k = 0; k < n; k++) {
        cJSON *o = cJSON_CreateObject(), *args, *gr, *bl;
        cJSON_AddStringToObject(o, "entry", l[k].entry);
        cJSON_AddNumberToObject(o, "node", l[k].node);
        cJSON_AddStringToObject(o, "op", gir_op_name(g->nodes[l[k].node].op));
        cJSON_AddStringToObject(o, "name", g->nodes[l[k].node].name ? g->nodes[l[k].node].name : "");
        cJSON_AddNumberToObject(o, "range", (double)l[k].range);
        gr = cJSON_AddArrayToObject(o, "grid");
        cJSON_AddItemToArray(gr, cJSON_CreateNumber((double)l[k].grid));
        cJSON_AddItemToArray(gr, cJSON_CreateNumber(1));
        cJSON_AddItemToArray(gr, cJSON_CreateNumber(1));
        bl = cJSON_AddArrayToObject(o, "block");
        cJSON_AddItemToArray(bl, cJSON_CreateNumber(l[k].block));
        cJSON_AddItemToArray(bl, cJSON_CreateNumber(1));
        cJSON_AddItemToArray(bl, cJSON_CreateNumber(1));
        if (l[k].nfused) {
            cJSON *fu = cJSON_AddArrayToObject(o, "fused");
            for (a = 0; a < l[k].nfused; a++) {
                const GirNode *f = &g->nodes[l[k].fused[a]];
                cJSON *fo = cJSON_CreateObject();
                cJSON_AddNumberToObject(fo, "node", l[k].fused[a]);
                cJSON_AddStringToObject(fo, "op", gir_op_name(f->op));
                cJSON_AddStringToObject(fo, "name", f->name ? f->name : "");
                cJSON_AddItemToArray(fu, fo);
            }
        }
        if (l[k].count >= 0)
            cJSON_AddNumberToObject(o, "count", l[k].count);
        if (l[k].sized >= 0)
            cJSON_AddNumberToObject(o, "sized", l[k].sized);
        if (l[k].shape)
            cJSON_AddTrueToObject(o, "shape");
        args = cJSON_AddArrayToObject(o, "args");
        for (a = 0; a < l[k].nargs; a++)
            cJSON_AddItemToArray(args, l[k].args[a] >= 0 ? cJSON_CreateNumber(l[k].args[a])
                                                         : cJSON_CreateNull());
        cJSON_AddItemToArray(arr, o);
    }
}

/* The launch plan as JSON text (malloc'd). */
static char *plan_json(const GirGraph *g, const KlvGpuModule *m, const char *ptx, const char *bin)
{
    cJSON *root = cJSON_CreateObject();
    KlvGpuStats st;
    const char *p = strrchr(ptx, '/'), *b = strrchr(bin, '/');
    char *s;
    klv_gpu_stats(m, &st);
    cJSON_AddStringToObject(root, "format", "kiln-gpu-plan");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "model", g->name ? g->name : "");
    cJSON_AddStringToObject(root, "triple", "nvptx64-nvidia-cuda");
    cJSON_AddStringToObject(root, "cpu", st.cpu);
    cJSON_AddStringToObject(root, "ptx", p ? p + 1 : ptx);
    cJSON_AddStringToObject(root, "data", b ? b + 1 : bin);
    cJSON_AddNumberToObject(root, "data_bytes", (double)st.data_bytes);
    json_ports(root, "inputs", g, g->inputs, g->ninput);
    json_ports(root, "outputs", g, g->outputs, g->noutput);
    json_buffers(root, g, m);
    json_launches(root, g, m);
    s = cJSON_Print(root);
    cJSON_Delete(root);
    return s;
}

/* text (len bytes) into path; a KILN_ status. */
static int write_text(const char *path, const char *shown, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return kiln_user_error("lower: cannot write %s: %s", shown, strerror(errno));
    fwrite(text, 1, len, f);
    if (ferror(f) | fclose(f))
        return kiln_user_error("lower: cannot write %s: %s", shown, strerror(errno));
    return KILN_OK;
}

/* OUT.ptx, OUT.json and OUT.bin under temporary names, renamed when all
 * three are complete; nothing left on failure.  A KILN_ status. */
static int write_gpu(const GirGraph *g, const LowerArgs *a, double t0)
{
    const char *ext[3] = {NULL, ".json", ".bin"};
    char *final[3] = {NULL, NULL, NULL}, *tmp[3] = {NULL, NULL, NULL}, *plan = NULL;
    const char *ptx;
    KlvGpuModule *m = NULL;
    KlvGpuStats st;
    GirError err;
    size_t len;
    int k, done = 0, rc = KILN_BAD_INPUT;
    for (k = 0; k < 3; k++) {
        final[k] = k ? with_ext(a->out, ext[k]) : strdup(a->out);
        tmp[k] = final[k] ? malloc(strlen(final[k]) + 32) : NULL;
        if (!tmp[k])
            goto out;
        sprintf(tmp[k], "%s.tmp%ld", final[k], (long)getpid());
        if (k && strcmp(final[k], a->out) == 0) {
            kiln_user_error("lower: -o %s: the plan or data would overwrite the PTX (use OUT.ptx)", a->out);
            goto out;
        }
    }
    if ((rc = write_text(tmp[0], a->out, "", 0)) != KILN_OK)
        goto out;
    rc = KILN_BAD_INPUT;
    if (!(m = klv_gpu_compile(g, &a->t, &err))) {
        kiln_user_error("lower: %s", err.msg);
        goto out;
    }
    if (!(plan = plan_json(g, m, final[0], final[2])))
        goto out;
    ptx = klv_gpu_ptx(m, &len);
    if (write_text(tmp[0], a->out, ptx, len) != KILN_OK ||
        write_text(tmp[1], final[1], plan, strlen(plan)) != KILN_OK)
        goto out;
    if (klv_gpu_write_data(m, tmp[2], &err) < 0) {
        kiln_user_error("lower: %s", err.msg);
        goto out;
    }
    for (done = 0; done < 3; done++)
        if (rename(tmp[done], final[done]) != 0) {
            kiln_user_error("lower: cannot write %s: %s", final[done], strerror(errno));
            goto out;
        }
    klv_gpu_stats(m, &st);
    fprintf(stderr,
            "kiln: lower: nvptx64-nvidia-cuda (%s): %d nodes (%d fused into a Conv), %d kernels; "
            "%s (%lld bytes), %s, %s (%lld bytes) in %.2f s (IR %.0f ms, O3 %.0f ms, PTX %.0f ms)\n",
            st.cpu, st.nodes, st.fused, st.launches, final[0], (long long)st.ptx_bytes, final[1], final[2],
            (long long)st.data_bytes, now_s() - t0, st.ir_ms, st.opt_ms, st.ptx_ms);
    rc = KILN_OK;
out:
    for (k = 0; k < 3; k++) {
        if (rc != KILN_OK && k < done)
            unlink(final[k]);
        if (tmp[k])
            unlink(tmp[k]);
        free(tmp[k]);
        free(final[k]);
    }
    free(plan);
    klv_gpu_free(m);
    return rc;
}

int kiln_cmd_lower(int argc, char **argv)
{
    LowerArgs a;
    GirGraph *g;
    GirError err;
    KlvRecords *recs = NULL;
    char sym[256], *hdr;
    struct stat st;
    double t0;
    int rc = parse(argc, argv, &a);
    if (rc != KILN_OK)
        return rc < 0 ? KILN_OK : rc;
    if (strncmp(a.t.triple, "nvptx", 5) == 0) {
        if (a.symbol)
            return kiln_user_error("lower: --symbol names an object's entry point; PTX has an entry per kernel");
        t0 = now_s();
        if (!(g = fe_load_model(a.model, &err)))
            return kiln_report(&err);
        if (!kiln_is_quantized(g) && gir_run_pipeline(g, NULL, NULL, &err) < 0)
            rc = kiln_report(&err);
        else
            rc = write_gpu(g, &a, t0);
        gir_graph_free(g);
        return rc;
    }
    if (!(hdr = with_ext(a.out, ".h")))
        return kiln_user_error("lower: out of memory");
    if (strcmp(hdr, a.out) == 0) {
        free(hdr);
        return kiln_user_error("lower: -o %s: the header would overwrite the object (use OUT.o)", a.out);
    }
    if (a.symbol)
        snprintf(sym, sizeof sym, "%s", a.symbol);
    else
        default_symbol(a.out, sym, sizeof sym);
    t0 = now_s();
    if (a.records && (rc = kiln_load_records("lower", a.records, &recs)) != KILN_OK) {
        free(hdr);
        return rc;
    }
    a.t.records = recs;
    if (!(g = kiln_load_model(a.model, 1, &err))) {
        free(hdr);
        klv_records_free(recs);
        return kiln_report(&err);
    }
    if (!kiln_is_quantized(g) && gir_run_pipeline(g, NULL, NULL, &err) < 0)
        rc = kiln_report(&err);
    else
        rc = write_both(g, &a, sym, hdr);
    if (rc == KILN_OK && stat(a.out, &st) == 0)
        fprintf(stderr, "kiln: lower: %s (%s): %d nodes, entry point %s; %s (%lld bytes) and %s in %.2f s\n",
                a.t.triple, a.t.cpu && a.t.cpu[0] ? a.t.cpu : "generic", g->nnode, sym, a.out,
                (long long)st.st_size, hdr, now_s() - t0);
    gir_graph_free(g);
    free(hdr);
    klv_records_free(recs);
    return rc;
}
