/*
 * Tests of the Darknet reader.
 *
 *   darknet_test cost CFG [--macs N] [--params N] [--outputs CxHxW,...]
 *       Load CFG with seeded weights; MACs and parameters of the graph must
 *       match Darknet's own formulas evaluated here, independently, from the
 *       cfg text (within 0.1%), and the figures given (within 0.5%, as
 *       Darknet rounds them).  Parameters are counted twice: every float of
 *       the .weights file (the graph's Conv, Gemm and BN constants) and with
 *       BN folded, one bias per output (gir_node_cost's convention).
 *       Outputs must have the listed shapes.
 *   darknet_test bad FILE
 *       FILE must fail to load with exactly the diagnostic on its
 *       "# EXPECT: " line.
 *   darknet_test weights CFG DIR
 *       Write a .weights file for CFG into DIR from a generator of this test,
 *       load it and compare every parameter; then truncated, oversized and
 *       old-header variants.
 *   darknet_test semantics CFG DIR
 *       Run semantics.cfg (weights written into DIR) through the interpreter
 *       and compare every layer with Darknet's own loops written out here.
 *   darknet_test seeded CFG
 *       Seeded weights are the same for the same seed, differ for another.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"

static int failures;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stdout);
    vprintf(fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    failures++;
}

/* ---- an independent reading of the cfg: Darknet's layer arithmetic ---- */

#define MAX_LAYERS 4096
#define MAX_KEYS 64

/* One layer as Darknet sizes it. */
typedef struct {
    char type[32];        /* section name */
    int line;             /* line of the header */
    long c, h, w;         /* output shape */
    long n, size, groups; /* convolutional: filters, kernel, groups */
    long in_c;            /* its input channels */
    long inputs;          /* connected: input count */
    int bn;               /* batch_normalize */
} RefLayer;

/* A whole cfg: the input and the layers. */
typedef struct {
    long c, h, w;               /* network input */
    RefLayer l[MAX_LAYERS];     /* layers */
    int n;                      /* count */
    double macs;                /* Darknet's total multiply-accumulates */
    double params;              /* floats of the .weights file */
    double folded;              /* after folding BN: weights + one bias per output */
} RefNet;

/* Keys of the section being read. */
static char keys[MAX_KEYS][64], vals[MAX_KEYS][512];
static int nkeys;

static const char *get(const char *k)
{
    int i;
    for (i = 0; i < nkeys; i++)
        if (strcmp(keys[i], k) == 0)
            return vals[i];
    return NULL;
}

static long get_int(const char *k, long dflt)
{
    const char *v = get(k);
    return v ? atol(v) : dflt;
}

/* Apply the section just read (type, line) to net. */
static void ref_layer(RefNet *net, const char *type, int line)
{
    RefLayer *l, *p;
    if (strcmp(type, "net") == 0) {
        net->c = get_int("channels", 0);
        net->h = get_int("height", 0);
        net->w = get_int("width", 0);
        return;
    }
    l = &net->l[net->n];
    memset(l, 0, sizeof *l);
    snprintf(l->type, sizeof l->type, "%s", type);
    l->line = line;
    if (net->n == 0) {
        static RefLayer in;
        in.c = net->c;
        in.h = net->h;
        in.w = net->w;
        p = &in;
    } else {
        p = &net->l[net->n - 1];
    }
    l->c = p->c;
    l->h = p->h;
    l->w = p->w;
    if (strcmp(type, "convolutional") == 0) {
        long pad = get_int("pad", 0), padding = get_int("padding", 0), stride;
        l->n = get_int("filters", 1);
        l->size = get_int("size", 1);
        stride = get_int("stride", 1);
        l->groups = get_int("groups", 1);
        l->bn = (int)get_int("batch_normalize", 0);
        l->in_c = p->c;
        if (pad)
            padding = l->size / 2;
        l->c = l->n;
        l->h = (p->h + 2 * padding - l->size) / stride + 1;
        l->w = (p->w + 2 * padding - l->size) / stride + 1;
        net->macs += (double)l->n * l->size * l->size * (p->c / l->groups) * l->h * l->w;
        net->params += (double)l->n * l->size * l->size * (p->c / l->groups) + l->n +
                       (l->bn ? 3.0 * l->n : 0.0);
        net->folded += (double)l->n * l->size * l->size * (p->c / l->groups) + l->n;
    } else if (strcmp(type, "connected") == 0) {
        l->n = get_int("output", 1);
        l->bn = (int)get_int("batch_normalize", 0);
        l->inputs = p->c * p->h * p->w;
        l->c = l->n;
        l->h = l->w = 1;
        net->macs += (double)l->inputs * l->n;
        net->params += (double)l->inputs * l->n + l->n + (l->bn ? 3.0 * l->n : 0.0);
        net->folded += (double)l->inputs * l->n + l->n;
    } else if (strcmp(type, "maxpool") == 0) {
        long stride = get_int("stride", 1), size = get_int("size", stride);
        long padding = get_int("padding", size - 1);
        l->h = (p->h + padding - size) / stride + 1;
        l->w = (p->w + padding - size) / stride + 1;
    } else if (strcmp(type, "avgpool") == 0) {
        l->h = l->w = 1;
    } else if (strcmp(type, "upsample") == 0) {
        long s = get_int("stride", 2);
        l->h = p->h * s;
        l->w = p->w * s;
    } else if (strcmp(type, "reorg") == 0) {
        long s = get_int("stride", 1);
        l->c = p->c * s * s;
        l->h = p->h / s;
        l->w = p->w / s;
    } else if (strcmp(type, "route") == 0) {
        const char *s = get("layers");
        int first = 1;
        l->c = 0;
        while (s && *s) {
            char *end;
            long idx = strtol(s, &end, 10);
            const RefLayer *r;
            if (idx < 0)
                idx += net->n;
            r = &net->l[idx];
            l->c += r->c;
            if (first) {
                l->h = r->h;
                l->w = r->w;
                first = 0;
            }
            s = *end == ',' ? end + 1 : end;
        }
    }
    net->n++;
}

/* Read path the way Darknet does; 0 on success. */
static int ref_read(const char *path, RefNet *net)
{
    FILE *f = fopen(path, "r");
    char line[4096], type[64] = "";
    int lineno = 0, type_line = 0;
    if (!f)
        return -1;
    memset(net, 0, sizeof *net);
    while (fgets(line, sizeof line, f)) {
        char s[4096], *eq;
        int i, k = 0;
        lineno++;
        for (i = 0; line[i]; i++)
            if (line[i] != ' ' && line[i] != '\t' && line[i] != '\n' && line[i] != '\r')
                s[k++] = line[i];
        s[k] = '\0';
        if (!k || s[0] == '#' || s[0] == ';')
            continue;
        if (s[0] == '[') {
            if (type[0])
                ref_layer(net, type, type_line);
            s[k - 1] = '\0';
            snprintf(type, sizeof type, "%s", s + 1);
            if (strcmp(type, "conv") == 0)
                strcpy(type, "convolutional");
            if (strcmp(type, "max") == 0)
                strcpy(type, "maxpool");
            type_line = lineno;
            nkeys = 0;
            continue;
        }
        eq = strchr(s, '=');
        if (eq && nkeys < MAX_KEYS && eq - s < (long)sizeof keys[0] &&
            strlen(eq + 1) < sizeof vals[0]) {
            memcpy(keys[nkeys], s, (size_t)(eq - s));
            keys[nkeys][eq - s] = '\0';
            strcpy(vals[nkeys], eq + 1);
            nkeys++;
        }
    }
    if (type[0])
        ref_layer(net, type, type_line);
    fclose(f);
    return 0;
}

/* ---- cost ------------------------------------------------------------------ */

static int is_param_of(const GirGraph *g, int v)
{
    int i, k;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        if (n->op != GIR_OP_CONV && n->op != GIR_OP_GEMM && n->op != GIR_OP_BATCHNORM)
            continue;
        for (k = 1; k < n->nin; k++)
            if (n->in[k] == v)
                return 1;
    }
    return 0;
}

static int near(double got, double want, double rel)
{
    return fabs(got - want) <= rel * fabs(want);
}

static int cmd_cost(int argc, char **argv)
{
    static RefNet ref;
    const char *cfg = argv[0], *outs = NULL;
    double want_macs = 0, want_params = 0, macs = 0, params = 0, cmacs = 0, cparams = 0;
    GirError e;
    GirGraph *g;
    int i;
    for (i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--macs") == 0)
            want_macs = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--params") == 0)
            want_params = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--outputs") == 0)
            outs = argv[i + 1];
    }
    if (ref_read(cfg, &ref)) {
        fail("cannot read %s", cfg);
        return 1;
    }
    g = fe_load_darknet(cfg, NULL, 42, &e);
    if (!g) {
        fail("load: %s", e.msg);
        return 1;
    }
    /* The graph's own arithmetic: conv/gemm MACs from weight and output
     * shapes; parameters are the f32 constants of Conv, Gemm and BN. */
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        GirNodeCost c = gir_node_cost(g, n);
        cmacs += (double)c.macs;
        cparams += (double)c.params;
        if (n->op == GIR_OP_CONV) {
            const GirType *w = &g->vals[n->in[1]].type;
            macs += (double)gir_type_numel(&g->vals[n->out[0]].type) * (double)w->dims[1] *
                    (double)w->dims[2] * (double)w->dims[3];
        } else if (n->op == GIR_OP_GEMM) {
            const GirType *w = &g->vals[n->in[1]].type;
            macs += (double)w->dims[0] * (double)w->dims[1];
        }
    }
    for (i = 0; i < g->nval; i++)
        if (g->vals[i].kind == GIR_VAL_CONST && g->vals[i].type.dtype == GIR_DT_F32 &&
            is_param_of(g, i))
            params += (double)gir_type_numel(&g->vals[i].type);
    printf("%s: %d layers; Darknet formula: %.0f MACs (%.3f BFLOPs), %.0f parameters in "
           ".weights, %.0f with BN folded\n", cfg, ref.n, ref.macs, 2 * ref.macs / 1e9,
           ref.params, ref.folded);
    printf("graph: %.0f MACs, %.0f parameters; gir_node_cost: %.0f MACs, %.0f parameters\n",
           macs, params, cmacs, cparams);
    if (!near(macs, ref.macs, 0.001))
        fail("graph MACs %.0f, Darknet formula %.0f", macs, ref.macs);
    if (!near(params, ref.params, 0.001))
        fail("graph parameters %.0f, Darknet %.0f", params, ref.params);
    if (!near(cmacs, ref.macs, 0.001))
        fail("gir_node_cost MACs %.0f, Darknet formula %.0f", cmacs, ref.macs);
    if (!near(cparams, ref.folded, 0.001))
        fail("gir_node_cost parameters %.0f, BN-folded Darknet count %.0f", cparams,
             ref.folded);
    if (want_macs > 0 && !near(ref.macs, want_macs, 0.005))
        fail("MACs %.0f, expected %g", ref.macs, want_macs);
    if (want_params > 0 && !near(ref.params, want_params, 0.005))
        fail("parameters %.0f, expected %g", ref.params, want_params);
    if (want_params > 0 && !near(ref.folded, want_params, 0.005))
        fail("BN-folded parameters %.0f, expected %g", ref.folded, want_params);
    if (outs) {
        const char *s = outs;
        int k = 0;
        while (*s) {
            long c, h, w;
            char want[64], got[64];
            if (sscanf(s, "%ldx%ldx%ld", &c, &h, &w) != 3)
                break;
            snprintf(want, sizeof want, "f32[1,%ld,%ld,%ld]", c, h, w);
            if (k >= g->noutput)
                fail("output %d missing (want %s)", k, want);
            else if (strcmp(gir_type_str(&g->vals[g->outputs[k]].type, got, sizeof got), want))
                fail("output %d is %s, want %s", k, got, want);
            k++;
            s = strchr(s, ',');
            if (!s)
                break;
            s++;
        }
        if (k != g->noutput)
            fail("%d outputs, expected %d", g->noutput, k);
    }
    gir_graph_free(g);
    return failures != 0;
}

/* ---- hostile cfgs ------------------------------------------------------------- */

static int cmd_bad(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024], want[1024] = "";
    GirError e;
    GirGraph *g;
    if (!f) {
        fail("cannot open %s", path);
        return 1;
    }
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "# EXPECT: ", 10) == 0) {
            snprintf(want, sizeof want, "%s", line + 10);
            want[strcspn(want, "\r\n")] = '\0';
        }
    fclose(f);
    if (!want[0]) {
        fail("%s has no '# EXPECT: ' line", path);
        return 1;
    }
    g = fe_load_darknet(path, NULL, 1, &e);
    if (g) {
        fail("%s loaded; expected: %s", path, want);
        gir_graph_free(g);
        return 1;
    }
    if (strcmp(e.msg, want)) {
        fail("diagnostic\n  got:  %s\n  want: %s", e.msg, want);
        return 1;
    }
    printf("ok: %s\n", e.msg);
    return 0;
}

/* ---- weights files -------------------------------------------------------------- */

static uint32_t xs_state;

static float next_float(void)
{
    xs_state ^= xs_state << 13;
    xs_state ^= xs_state >> 17;
    xs_state ^= xs_state << 5;
    return (float)(xs_state >> 8) / 16777216.0f;
}

/* Where one tensor starts in the file and which cfg line it belongs to. */
typedef struct {
    long offset;
    int line;
    const char *what;
} Mark;

static void put_floats(FILE *f, const float *v, long n)
{
    fwrite(v, sizeof *v, (size_t)n, f);
}

static float *fill(long n, float base)
{
    float *v = malloc(sizeof *v * (size_t)(n ? n : 1));
    long i;
    for (i = 0; i < n; i++)
        v[i] = base + next_float();
    return v;
}

/* Write the parameters of every conv/connected layer of ref in Darknet
 * order; returns the total float count and fills marks (one per tensor). */
static long write_weights(const char *path, const RefNet *ref, int old_header, Mark *marks,
                          int *nmark)
{
    FILE *f = fopen(path, "wb");
    int32_t hdr[3] = {0, old_header ? 1 : 2, 0};
    long total = 0;
    int i;
    fwrite(hdr, sizeof hdr, 1, f);
    if (old_header) {
        int32_t seen = 7;
        fwrite(&seen, sizeof seen, 1, f);
    } else {
        int64_t seen = 7;
        fwrite(&seen, sizeof seen, 1, f);
    }
    xs_state = 12345;
    *nmark = 0;
    for (i = 0; i < ref->n; i++) {
        const RefLayer *l = &ref->l[i];
        long nw, parts[5], np = 0, k;
        const char *names[5];
        float bases[5];
        if (strcmp(l->type, "convolutional") == 0) {
            nw = l->n * (l->in_c / l->groups) * l->size * l->size;
        } else if (strcmp(l->type, "connected") == 0) {
            nw = l->n * l->inputs;
        } else {
            continue;
        }
        parts[np] = l->n, names[np] = "biases", bases[np++] = -0.5f;
        if (l->bn && strcmp(l->type, "convolutional") == 0) {
            parts[np] = l->n, names[np] = "BN scales", bases[np++] = 0.5f;
            parts[np] = l->n, names[np] = "BN rolling mean", bases[np++] = -0.5f;
            parts[np] = l->n, names[np] = "BN rolling variance", bases[np++] = 0.5f;
        }
        parts[np] = nw, names[np] = "weights", bases[np++] = -0.5f;
        if (l->bn && strcmp(l->type, "connected") == 0) {
            parts[np] = l->n, names[np] = "BN scales", bases[np++] = 0.5f;
            parts[np] = l->n, names[np] = "BN rolling mean", bases[np++] = -0.5f;
            parts[np] = l->n, names[np] = "BN rolling variance", bases[np++] = 0.5f;
        }
        for (k = 0; k < np; k++) {
            float *v = fill(parts[k], bases[k]);
            marks[*nmark].offset = ftell(f);
            marks[*nmark].line = l->line;
            marks[*nmark].what = names[k];
            (*nmark)++;
            put_floats(f, v, parts[k]);
            total += parts[k];
            free(v);
        }
    }
    fclose(f);
    return total;
}

/* Compare the graph's parameters with the generator's stream, in file order. */
static void compare_params(const GirGraph *g)
{
    int i, bad = 0;
    long checked = 0;
    xs_state = 12345;
    for (i = 0; i < g->nnode && !bad; i++) {
        const GirNode *n = &g->nodes[i];
        const GirNode *bn = NULL;
        const float *bias, *w;
        long nb, nw, k;
        int j;
        if (n->op != GIR_OP_CONV)
            continue; /* the cfgs of this test have no [connected] */
        for (j = i + 1; j < g->nnode; j++)
            if (g->nodes[j].nin && g->nodes[j].in[0] == n->out[0])
                break;
        if (j < g->nnode && g->nodes[j].op == GIR_OP_BATCHNORM)
            bn = &g->nodes[j];
        w = g->vals[n->in[1]].data;
        nw = gir_type_numel(&g->vals[n->in[1]].type);
        bias = bn ? g->vals[bn->in[2]].data : g->vals[n->in[2]].data;
        nb = g->vals[n->out[0]].type.dims[1];
        for (k = 0; k < nb && !bad; k++)
            bad = bias[k] != -0.5f + next_float();
        if (bn) {
            const float *sc = g->vals[bn->in[1]].data, *mean = g->vals[bn->in[3]].data;
            const float *var = g->vals[bn->in[4]].data;
            for (k = 0; k < nb && !bad; k++)
                bad = sc[k] != 0.5f + next_float();
            for (k = 0; k < nb && !bad; k++)
                bad = mean[k] != -0.5f + next_float();
            for (k = 0; k < nb && !bad; k++) {
                float v = 0.5f + next_float(), s = sqrtf(v) + 0.000001f;
                bad = var[k] != s * s;
            }
            if (gir_attr_float(bn, "epsilon", 1.0f) != 0.0f)
                fail("%s: epsilon is not 0", bn->name);
        }
        for (k = 0; k < nw && !bad; k++)
            bad = w[k] != -0.5f + next_float();
        if (bad)
            fail("parameters of %s differ from the file", n->name);
        checked += nb * (bn ? 4 : 1) + nw;
    }
    printf("compared %ld parameters\n", checked);
}

static void truncate_copy(const char *from, const char *to, long size, long extra)
{
    FILE *f = fopen(from, "rb"), *o = fopen(to, "wb");
    long i;
    int ch;
    for (i = 0; i < size && (ch = fgetc(f)) != EOF; i++)
        fputc(ch, o);
    for (i = 0; i < extra; i++)
        fputc(0, o);
    fclose(f);
    fclose(o);
}

static void expect_error(const char *cfg, const char *weights, const char *want)
{
    GirError e;
    GirGraph *g = fe_load_darknet(cfg, weights, 1, &e);
    if (g) {
        fail("%s loaded; expected: %s", weights, want);
        gir_graph_free(g);
        return;
    }
    if (strncmp(e.msg, want, strlen(want)))
        fail("diagnostic\n  got:  %s\n  want: %s...", e.msg, want);
    else
        printf("ok: %s\n", e.msg);
}

static int cmd_weights(const char *cfg, const char *dir)
{
    static RefNet ref;
    static Mark marks[4 * MAX_LAYERS];
    char path[1024], cut[1024], want[2048];
    GirError e;
    GirGraph *g;
    long total, size;
    int nmark, old;
    if (ref_read(cfg, &ref)) {
        fail("cannot read %s", cfg);
        return 1;
    }
    snprintf(path, sizeof path, "%s/roundtrip.weights", dir);
    snprintf(cut, sizeof cut, "%s/roundtrip-cut.weights", dir);
    for (old = 0; old < 2; old++) {
        total = write_weights(path, &ref, old, marks, &nmark);
        g = fe_load_darknet(cfg, path, 1, &e);
        if (!g) {
            fail("load: %s", e.msg);
            return 1;
        }
        printf("%s header: %ld floats written\n", old ? "0.1 (32-bit seen)" : "0.2", total);
        compare_params(g);
        gir_graph_free(g);
    }
    /* Now a 0.2 file again for the damaged variants. */
    total = write_weights(path, &ref, 0, marks, &nmark);
    size = 20 + 4 * total;
    /* Cut inside the last tensor: the error points at its first byte. */
    truncate_copy(path, cut, size - 10, 0);
    snprintf(want, sizeof want, "%s: byte %ld: truncated: %s of [convolutional] (cfg line %d)",
             cut, marks[nmark - 1].offset, marks[nmark - 1].what, marks[nmark - 1].line);
    expect_error(cfg, cut, want);
    /* Cut inside the first BN tensor. */
    truncate_copy(path, cut, marks[1].offset + 6, 0);
    snprintf(want, sizeof want, "%s: byte %ld: truncated: %s of [convolutional] (cfg line %d) "
             "needs", cut, marks[1].offset, marks[1].what, marks[1].line);
    expect_error(cfg, cut, want);
    /* Trailing bytes. */
    truncate_copy(path, cut, size, 8);
    snprintf(want, sizeof want, "%s: byte %ld: 8 bytes after the last layer's weights", cut,
             size);
    expect_error(cfg, cut, want);
    /* A header cut short. */
    truncate_copy(path, cut, 5, 0);
    snprintf(want, sizeof want, "%s: byte 0: truncated header (5 bytes)", cut);
    expect_error(cfg, cut, want);
    truncate_copy(path, cut, 16, 0);
    snprintf(want, sizeof want, "%s: byte 12: truncated header (16 bytes)", cut);
    expect_error(cfg, cut, want);
    remove(path);
    remove(cut);
    return failures != 0;
}

/* ---- semantics: the graph against Darknet's loops ------------------------------ */

/* A feature map of the reference. */
typedef struct {
    long c, h, w;
    float *d;
} Map;

static Map map_new(long c, long h, long w)
{
    Map m;
    m.c = c;
    m.h = h;
    m.w = w;
    m.d = calloc((size_t)(c * h * w), sizeof *m.d);
    return m;
}

static float *at(const Map *m, long c, long y, long x)
{
    return &m->d[(c * m->h + y) * m->w + x];
}

static void activate(Map *m, const char *act)
{
    long i, n = m->c * m->h * m->w;
    for (i = 0; i < n; i++) {
        float v = m->d[i];
        if (strcmp(act, "leaky") == 0)
            m->d[i] = v > 0 ? v : 0.1f * v;
        else if (strcmp(act, "relu") == 0)
            m->d[i] = v * (v > 0);
        else if (strcmp(act, "logistic") == 0)
            m->d[i] = 1.0f / (1.0f + expf(-v));
    }
}

/* forward_convolutional_layer + forward_batchnorm_layer (inference). */
static Map ref_conv(const Map *in, const RefLayer *l, long stride, long pad, const char *act)
{
    long f, c, y, x, ky, kx, n = l->n, k = l->size;
    float *bias = fill(n, -0.5f), *sc = NULL, *mean = NULL, *var = NULL, *w;
    Map o = map_new(n, (in->h + 2 * pad - k) / stride + 1, (in->w + 2 * pad - k) / stride + 1);
    if (l->bn) {
        sc = fill(n, 0.5f);
        mean = fill(n, -0.5f);
        var = fill(n, 0.5f);
    }
    w = fill(n * in->c * k * k, -0.5f);
    for (f = 0; f < n; f++)
        for (y = 0; y < o.h; y++)
            for (x = 0; x < o.w; x++) {
                float s = 0;
                for (c = 0; c < in->c; c++)
                    for (ky = 0; ky < k; ky++)
                        for (kx = 0; kx < k; kx++) {
                            long iy = y * stride - pad + ky, ix = x * stride - pad + kx;
                            if (iy >= 0 && iy < in->h && ix >= 0 && ix < in->w)
                                s += w[((f * in->c + c) * k + ky) * k + kx] * *at(in, c, iy, ix);
                        }
                if (l->bn)
                    s = (s - mean[f]) / (sqrtf(var[f]) + .000001f) * sc[f];
                *at(&o, f, y, x) = s + bias[f];
            }
    activate(&o, act);
    free(bias);
    free(sc);
    free(mean);
    free(var);
    free(w);
    return o;
}

/* forward_maxpool_layer: windows start at -padding/2, outside is -FLT_MAX. */
static Map ref_maxpool(const Map *in, long size, long stride, long padding)
{
    Map o = map_new(in->c, (in->h + padding - size) / stride + 1,
                    (in->w + padding - size) / stride + 1);
    long c, y, x, n, m, off = -padding / 2;
    for (c = 0; c < in->c; c++)
        for (y = 0; y < o.h; y++)
            for (x = 0; x < o.w; x++) {
                float best = -3.4e38f;
                for (n = 0; n < size; n++)
                    for (m = 0; m < size; m++) {
                        long iy = off + y * stride + n, ix = off + x * stride + m;
                        if (iy >= 0 && iy < in->h && ix >= 0 && ix < in->w &&
                            *at(in, c, iy, ix) > best)
                            best = *at(in, c, iy, ix);
                    }
                *at(&o, c, y, x) = best;
            }
    return o;
}

/* reorg_cpu(input, w, h, c, batch, stride, forward = 0, output). */
static Map ref_reorg(const Map *in, long s)
{
    Map o = map_new(in->c * s * s, in->h / s, in->w / s);
    long k, j, i, out_c = in->c / (s * s);
    for (k = 0; k < in->c; k++)
        for (j = 0; j < in->h; j++)
            for (i = 0; i < in->w; i++) {
                long in_index = i + in->w * (j + in->h * k);
                long c2 = k % out_c, offset = k / out_c;
                long w2 = i * s + offset % s, h2 = j * s + offset / s;
                long out_index = w2 + in->w * s * (h2 + in->h * s * c2);
                o.d[in_index] = in->d[out_index];
            }
    return o;
}

/* shortcut_cpu(add = from, out = copy of the input). */
static Map ref_shortcut(const Map *in, const Map *from, const char *act)
{
    Map o = map_new(in->c, in->h, in->w);
    long stride = from->w / in->w, sample = in->w / from->w, c, j, i;
    long minw = from->w < in->w ? from->w : in->w, minh = from->h < in->h ? from->h : in->h;
    long minc = from->c < in->c ? from->c : in->c;
    memcpy(o.d, in->d, sizeof *o.d * (size_t)(in->c * in->h * in->w));
    if (stride < 1)
        stride = 1;
    if (sample < 1)
        sample = 1;
    for (c = 0; c < minc; c++)
        for (j = 0; j < minh; j++)
            for (i = 0; i < minw; i++)
                *at(&o, c, j * sample, i * sample) += *at(from, c, j * stride, i * stride);
    activate(&o, act);
    return o;
}

/* forward_region_layer, inference part: logistic on x, y, objectness;
 * softmax over the classes. */
static Map ref_region(const Map *in, long num, long classes)
{
    Map o = map_new(in->c, in->h, in->w);
    long a, y, x, k, per = 5 + classes;
    memcpy(o.d, in->d, sizeof *o.d * (size_t)(in->c * in->h * in->w));
    for (a = 0; a < num; a++)
        for (y = 0; y < in->h; y++)
            for (x = 0; x < in->w; x++) {
                float mx = -3.4e38f, sum = 0;
                *at(&o, a * per + 0, y, x) = 1.0f / (1.0f + expf(-*at(in, a * per + 0, y, x)));
                *at(&o, a * per + 1, y, x) = 1.0f / (1.0f + expf(-*at(in, a * per + 1, y, x)));
                *at(&o, a * per + 4, y, x) = 1.0f / (1.0f + expf(-*at(in, a * per + 4, y, x)));
                for (k = 0; k < classes; k++)
                    if (*at(in, a * per + 5 + k, y, x) > mx)
                        mx = *at(in, a * per + 5 + k, y, x);
                for (k = 0; k < classes; k++)
                    sum += expf(*at(in, a * per + 5 + k, y, x) - mx);
                for (k = 0; k < classes; k++)
                    *at(&o, a * per + 5 + k, y, x) =
                        expf(*at(in, a * per + 5 + k, y, x) - mx) / sum;
            }
    return o;
}

static Map ref_concat(const Map *a, const Map *b)
{
    Map o = map_new(a->c + b->c, a->h, a->w);
    size_t na = (size_t)(a->c * a->h * a->w), nb = (size_t)(b->c * b->h * b->w);
    memcpy(o.d, a->d, na * sizeof *o.d);
    memcpy(o.d + na, b->d, nb * sizeof *o.d);
    return o;
}

static Map ref_upsample(const Map *in, long s)
{
    Map o = map_new(in->c, in->h * s, in->w * s);
    long c, y, x;
    for (c = 0; c < o.c; c++)
        for (y = 0; y < o.h; y++)
            for (x = 0; x < o.w; x++)
                *at(&o, c, y, x) = *at(in, c, y / s, x / s);
    return o;
}

static Map map_copy(const Map *m)
{
    Map o = map_new(m->c, m->h, m->w);
    memcpy(o.d, m->d, sizeof *o.d * (size_t)(m->c * m->h * m->w));
    return o;
}

/* The layers of semantics.cfg, computed the way Darknet computes them. */
static void ref_semantics(const RefNet *net, const Map *input, Map *out)
{
    xs_state = 12345; /* the stream write_weights used */
    out[0] = ref_conv(input, &net->l[0], 1, 1, "leaky");
    out[1] = ref_maxpool(&out[0], 2, 1, 1);
    out[2] = ref_maxpool(&out[1], 3, 2, 2);
    out[3] = map_copy(&out[0]);
    out[4] = ref_reorg(&out[3], 2);
    out[5] = ref_concat(&out[4], &out[2]);
    out[6] = ref_conv(&out[5], &net->l[6], 2, 1, "relu");
    out[7] = ref_upsample(&out[6], 4);
    out[8] = ref_shortcut(&out[7], &out[0], "leaky");
    out[9] = ref_maxpool(&out[8], 2, 2, 1);
    out[10] = ref_shortcut(&out[9], &out[8], "linear");
    out[11] = ref_conv(&out[10], &net->l[11], 1, 0, "logistic");
    out[12] = ref_region(&out[11], 2, 3);
}

static int cmd_semantics(const char *cfg, const char *dir)
{
    static RefNet ref;
    static Mark marks[64];
    enum { NL = 13 };
    Map input, want[NL];
    char path[1024];
    GirError e;
    GirGraph *g;
    GirArena *arena;
    GirTensor in, *outs;
    int layer_of[NL], nmark, i, j;
    long k;
    if (ref_read(cfg, &ref) || ref.n != NL) {
        fail("cannot read %s as %d layers", cfg, NL);
        return 1;
    }
    snprintf(path, sizeof path, "%s/semantics.weights", dir);
    write_weights(path, &ref, 0, marks, &nmark);
    g = fe_load_darknet(cfg, path, 1, &e);
    remove(path);
    if (!g) {
        fail("load: %s", e.msg);
        return 1;
    }
    /* Every layer's output becomes a graph output: the last node whose
     * location names the layer produces it. */
    for (i = 0; i < NL; i++) {
        char tag[32];
        layer_of[i] = -1;
        snprintf(tag, sizeof tag, "#%d", i);
        for (j = 0; j < g->nnode; j++) {
            const char *nm = g->nodes[j].loc.node;
            size_t l = nm ? strlen(nm) : 0, t = strlen(tag);
            if (l > t && strcmp(nm + l - t, tag) == 0)
                layer_of[i] = g->nodes[j].out[0];
        }
    }
    layer_of[3] = layer_of[0]; /* the route of one layer is a plain reuse */
    g->noutput = 0;
    for (i = 0; i < NL; i++)
        gir_add_output(g, layer_of[i]);
    input = map_new(ref.c, ref.h, ref.w);
    xs_state = 99;
    for (k = 0; k < ref.c * ref.h * ref.w; k++)
        input.d[k] = next_float();
    ref_semantics(&ref, &input, want);
    arena = gir_arena_new();
    memset(&in, 0, sizeof in);
    in.type = g->vals[g->inputs[0]].type;
    in.data = input.d;
    outs = calloc(NL, sizeof *outs);
    if (gir_run(g, &in, outs, arena, &e)) {
        fail("run: %s", e.msg);
    } else {
        for (i = 0; i < NL; i++) {
            const float *got = outs[i].data;
            long n = want[i].c * want[i].h * want[i].w;
            double worst = 0;
            char buf[64];
            if (gir_type_numel(&outs[i].type) != n) {
                fail("layer %d (%s): shape %s, Darknet %ldx%ldx%ld", i, ref.l[i].type,
                     gir_type_str(&outs[i].type, buf, sizeof buf), want[i].c, want[i].h,
                     want[i].w);
                continue;
            }
            for (k = 0; k < n; k++) {
                double d = fabs((double)got[k] - want[i].d[k]) / (1.0 + fabs(want[i].d[k]));
                if (d > worst)
                    worst = d;
            }
            printf("layer %2d %-14s %3ldx%2ldx%2ld  max rel diff %.2g\n", i, ref.l[i].type,
                   want[i].c, want[i].h, want[i].w, worst);
            if (worst > 1e-4)
                fail("layer %d (%s) differs from Darknet by %g", i, ref.l[i].type, worst);
        }
    }
    for (i = 0; i < NL; i++)
        free(want[i].d);
    free(input.d);
    free(outs);
    gir_arena_free(arena);
    gir_graph_free(g);
    return failures != 0;
}

/* ---- seeded weights ---------------------------------------------------------------- */

static int same_consts(const GirGraph *a, const GirGraph *b)
{
    int i;
    if (a->nval != b->nval)
        return 0;
    for (i = 0; i < a->nval; i++)
        if (a->vals[i].kind == GIR_VAL_CONST &&
            memcmp(a->vals[i].data, b->vals[i].data,
                   (size_t)gir_type_numel(&a->vals[i].type) *
                       gir_dtype_size(a->vals[i].type.dtype)))
            return 0;
    return 1;
}

static int cmd_seeded(const char *cfg)
{
    GirError e;
    GirGraph *a = fe_load_darknet(cfg, NULL, 7, &e), *b, *c;
    int i;
    double sum = 0, sum2 = 0, n = 0;
    if (!a) {
        fail("load: %s", e.msg);
        return 1;
    }
    b = fe_load_darknet(cfg, NULL, 7, &e);
    c = fe_load_darknet(cfg, NULL, 8, &e);
    if (!b || !c) {
        fail("load: %s", e.msg);
        return 1;
    }
    if (!same_consts(a, b))
        fail("the same seed gave different weights");
    if (same_consts(a, c))
        fail("different seeds gave the same weights");
    /* BN variances near 1 and positive: the network behaves numerically. */
    for (i = 0; i < a->nnode; i++) {
        const GirNode *nd = &a->nodes[i];
        const float *var;
        int64_t k, m;
        if (nd->op != GIR_OP_BATCHNORM)
            continue;
        var = a->vals[nd->in[4]].data;
        m = gir_type_numel(&a->vals[nd->in[4]].type);
        for (k = 0; k < m; k++) {
            if (!(var[k] > 0.5f && var[k] < 1.5f))
                fail("%s: variance %g", nd->name, var[k]);
            sum += var[k];
            sum2 += var[k] * var[k];
            n++;
        }
    }
    printf("BN variance: mean %.3f over %.0f channels\n", n ? sum / n : 0, n);
    gir_graph_free(a);
    gir_graph_free(b);
    gir_graph_free(c);
    (void)sum2;
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "cost") == 0)
        return cmd_cost(argc - 2, argv + 2);
    if (argc == 3 && strcmp(argv[1], "bad") == 0)
        return cmd_bad(argv[2]);
    if (argc == 4 && strcmp(argv[1], "weights") == 0)
        return cmd_weights(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "semantics") == 0)
        return cmd_semantics(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "seeded") == 0)
        return cmd_seeded(argv[2]);
    fprintf(stderr, "usage: darknet_test cost|bad|weights|semantics|seeded ...\n");
    return 2;
}
