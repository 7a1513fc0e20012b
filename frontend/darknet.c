/*
 * The Darknet reader: a .cfg network description and, optionally, its
 * .weights file, into the graph IR.
 *
 * The cfg is read as Darknet reads it: every whitespace character of a line
 * is dropped, lines starting with '#' or ';' are comments, "[name]" opens a
 * section and "key=value" fills it.  Unlike Darknet, which ignores what it
 * does not know, any key the reader neither uses nor knows to be training-only
 * is an error, so a cfg from another fork never loads with silently different
 * arithmetic.
 *
 * Sections map to ops as follows (layer arithmetic is Darknet's, checked
 * against its source of September 2018):
 *   [convolutional]  Conv (OIHW weights) [+ BatchNormalization] [+ activation]
 *   [connected]      Flatten, Gemm (transB), Reshape to N x C x 1 x 1, [BN], [act]
 *   [maxpool]        MaxPool; Darknet's padding p (default size-1) puts p/2 on
 *                    the top/left and the rest on the bottom/right
 *   [avgpool]        GlobalAveragePool
 *   [upsample]       Resize nearest, asymmetric, floor [+ Mul by scale]
 *   [route]          nothing (one layer), Slice (groups), Concat (several)
 *   [shortcut]       Add [+ Mul by alpha/beta] [+ activation]
 *   [reorg]          Reshape, Transpose, Reshape: Darknet's own reorg order
 *   [yolo]           YoloHead (mask, anchors, classes, num)
 *   [region]         Reshape, Split, Sigmoid / Softmax, Concat, Reshape
 *   [softmax]        Softmax over C x H x W
 *   [dropout]        Identity
 *   [cost]           nothing
 *
 * Darknet normalizes by (x - mean) / (sqrt(var) + 1e-6); ONNX by
 * sqrt(var + eps).  The variance constant is stored as (sqrt(var) + 1e-6)^2
 * with epsilon 0, which makes the two agree.
 *
 * Graph outputs: the [yolo] and [region] layers in cfg order, else the last
 * layer.  Node locations: the cfg path, the line of the section header and
 * "section#index" with Darknet's 0-based layer index.
 */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frontend.h"

/* Hostile cfgs must not make the reader allocate without bound. */
#define MAX_NUMBER (1 << 20)          /* any one count or size in the cfg */
#define MAX_ELEMS ((int64_t)1 << 31)  /* elements of any one tensor */
/* Weight elements of the whole model (VGG-16 has 138 M).  The fuzzing build
 * lowers it: drawing seeded weights for a huge hostile cfg would otherwise
 * take all of each run's time. */
#ifdef KILN_FUZZING
#define MAX_PARAMS ((int64_t)1 << 18)
#else
#define MAX_PARAMS ((int64_t)1 << 28)
#endif
#define MAX_LIST 4096                 /* entries of a comma-separated list */
#define MAX_CFG_BYTES (64 << 20)      /* a cfg file */

/* ---- the cfg as text ---------------------------------------------------- */

/* One key=value line. */
typedef struct {
    const char *key; /* text before '=', whitespace removed */
    const char *val; /* text after '=' */
    int line;        /* 1-based cfg line */
    int used;        /* a layer builder asked for it */
} Opt;

/* One [section] with its options. */
typedef struct {
    const char *name; /* as written between the brackets */
    int line;         /* line of the header */
    Opt *opts;        /* options in source order */
    int nopt, capopt; /* count and capacity of opts */
} Section;

/* ---- weight source ------------------------------------------------------- */

/* Where float parameters come from: a .weights file or a seeded generator. */
typedef struct {
    FILE *f;          /* open .weights file, NULL when seeded */
    const char *path; /* its path, for diagnostics */
    int64_t pos;      /* byte offset of the next read */
    int64_t size;     /* file size in bytes */
    int transpose;    /* header says [connected] weights are stored transposed */
    uint64_t state;   /* splitmix64 state when seeded */
} WSrc;

/* ---- the builder ---------------------------------------------------------- */

/* A built layer: its output value and shape (batch 1). */
typedef struct {
    int val;        /* value id of the layer's output */
    int64_t c, h, w; /* channels, height, width */
} Layer;

/* Everything one load needs. */
typedef struct {
    GirGraph *g;        /* graph being built; owns all memory below */
    GirError *e;        /* where the one error goes */
    const char *path;   /* cfg path, arena copy */
    Section *secs;      /* all sections, [net] first */
    int nsec, capsec;   /* count and capacity of secs */
    Layer *layers;      /* [0] the input, [i + 1] Darknet's layer i */
    int nlayer;         /* count of layers */
    WSrc *ws;           /* parameter source */
    int64_t nparam;     /* parameters drawn so far */
    const Section *sec; /* section being built */
    int index;          /* its Darknet layer index */
    GirLoc loc;         /* location of nodes built for it */
} Builder;

/* An error at a cfg line. */
#define CFG_ERR(b, line, ...) \
    gir_error_at((b)->e, (GirLoc){(b)->path, (line), -1, NULL}, __VA_ARGS__)

/* ---- reading the cfg -------------------------------------------------------- */

static Section *add_section(Builder *b, const char *name, int line)
{
    Section *s;
    if (b->nsec == b->capsec) {
        int ncap = b->capsec ? b->capsec * 2 : 32;
        Section *n = gir_arena_alloc(b->g->arena, sizeof *n * (size_t)ncap);
        if (b->nsec)
            memcpy(n, b->secs, sizeof *n * (size_t)b->nsec);
        b->secs = n;
        b->capsec = ncap;
    }
    s = &b->secs[b->nsec++];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->line = line;
    return s;
}

static int add_opt(Builder *b, Section *s, const char *key, const char *val, int line)
{
    int i;
    /* [net] holds training settings that some cfgs repeat; like Darknet,
     * the first one counts there. */
    int net = strcmp(s->name, "net") == 0 || strcmp(s->name, "network") == 0;
    for (i = 0; i < s->nopt && !net; i++)
        if (strcmp(s->opts[i].key, key) == 0)
            return CFG_ERR(b, line, "[%s] duplicate key '%s' (first on line %d)", s->name,
                           key, s->opts[i].line);
    if (s->nopt == s->capopt) {
        int ncap = s->capopt ? s->capopt * 2 : 8;
        Opt *n = gir_arena_alloc(b->g->arena, sizeof *n * (size_t)ncap);
        if (s->nopt)
            memcpy(n, s->opts, sizeof *n * (size_t)s->nopt);
        s->opts = n;
        s->capopt = ncap;
    }
    s->opts[s->nopt].key = key;
    s->opts[s->nopt].val = val;
    s->opts[s->nopt].line = line;
    s->opts[s->nopt].used = 0;
    s->nopt++;
    return 0;
}

/* Split text into sections.  Needs nothing; guarantees every section has a
 * non-empty name and every option a non-empty key. */
static int parse_cfg(Builder *b, const char *text, size_t len)
{
    Section *cur = NULL;
    size_t i = 0;
    int line = 0;
    while (i < len) {
        size_t j = i, k = 0;
        char *s;
        line++;
        while (j < len && text[j] != '\n')
            j++;
        s = gir_arena_alloc(b->g->arena, j - i + 1);
        for (; i < j; i++) {
            unsigned char ch = (unsigned char)text[i];
            if (ch == '\0')
                return CFG_ERR(b, line, "NUL byte in cfg");
            if (isspace(ch))
                continue;
            s[k++] = (char)ch;
        }
        i = j + 1;
        if (k == 0 || s[0] == '#' || s[0] == ';')
            continue;
        if (s[0] == '[') {
            if (k < 3 || s[k - 1] != ']' || memchr(s + 1, ']', k - 2) || memchr(s + 1, '[', k - 2))
                return CFG_ERR(b, line, "malformed section header '%s'", s);
            s[k - 1] = '\0';
            cur = add_section(b, s + 1, line);
        } else {
            char *eq = strchr(s, '=');
            if (!eq)
                return CFG_ERR(b, line, "expected key=value, got '%s'", s);
            if (eq == s)
                return CFG_ERR(b, line, "missing key before '='");
            if (!cur)
                return CFG_ERR(b, line, "'%s' before the first section", s);
            *eq = '\0';
            if (add_opt(b, cur, s, eq + 1, line))
                return -1;
        }
    }
    return 0;
}

static Opt *find_opt(const Section *s, const char *key)
{
    int i;
    for (i = 0; i < s->nopt; i++)
        if (strcmp(s->opts[i].key, key) == 0) {
            s->opts[i].used = 1;
            return &s->opts[i];
        }
    return NULL;
}

/* Parse a whole string as a decimal integer. */
static int parse_int(const char *s, long long *v)
{
    char *end;
    if (!*s)
        return -1;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return errno || *end ? -1 : 0;
}

/* Parse a whole string as a finite number. */
static int parse_float(const char *s, double *v)
{
    char *end;
    if (!*s)
        return -1;
    errno = 0;
    *v = strtod(s, &end);
    return *end || !isfinite(*v) ? -1 : 0;
}

/* Integer option in [lo, hi]; dflt when absent. */
static int opt_int(Builder *b, const char *key, long long dflt, long long lo, long long hi,
                   int64_t *out)
{
    const Opt *o = find_opt(b->sec, key);
    long long v = dflt;
    if (o) {
        if (parse_int(o->val, &v))
            return CFG_ERR(b, o->line, "[%s] %s=%s is not an integer", b->sec->name, key,
                           o->val);
        if (v < lo || v > hi)
            return CFG_ERR(b, o->line, "[%s] %s=%lld out of range [%lld, %lld]", b->sec->name,
                           key, v, lo, hi);
    }
    *out = v;
    return 0;
}

/* Number option; dflt when absent. */
static int opt_float(Builder *b, const char *key, double dflt, double *out)
{
    const Opt *o = find_opt(b->sec, key);
    *out = dflt;
    if (o && parse_float(o->val, out))
        return CFG_ERR(b, o->line, "[%s] %s=%s is not a number", b->sec->name, key, o->val);
    return 0;
}

/* Comma-separated list; *n elements parsed into the arena.  Integers when
 * ints is non-NULL, else numbers into floats.  Absent: *n = 0. */
static int opt_list(Builder *b, const char *key, int64_t **ints, float **floats, int *n,
                    int *line)
{
    const Opt *o = find_opt(b->sec, key);
    const char *p;
    int count = 1, i;
    *n = 0;
    if (!o)
        return 0;
    *line = o->line;
    for (p = o->val; *p; p++)
        count += *p == ',';
    if (count > MAX_LIST)
        return CFG_ERR(b, o->line, "[%s] %s has more than %d entries", b->sec->name, key,
                       MAX_LIST);
    if (ints)
        *ints = gir_arena_alloc(b->g->arena, sizeof **ints * (size_t)count);
    else
        *floats = gir_arena_alloc(b->g->arena, sizeof **floats * (size_t)count);
    p = o->val;
    for (i = 0; i < count; i++) {
        const char *q = strchr(p, ',');
        size_t l = q ? (size_t)(q - p) : strlen(p);
        char buf[64];
        long long iv;
        double fv;
        if (l == 0 || l >= sizeof buf)
            return CFG_ERR(b, o->line, "[%s] %s: bad entry %d in '%s'", b->sec->name, key,
                           i + 1, o->val);
        memcpy(buf, p, l);
        buf[l] = '\0';
        if (ints) {
            if (parse_int(buf, &iv) || iv < -MAX_NUMBER || iv > MAX_NUMBER)
                return CFG_ERR(b, o->line, "[%s] %s: '%s' is not an integer in range",
                               b->sec->name, key, buf);
            (*ints)[i] = iv;
        } else {
            if (parse_float(buf, &fv) || fabs(fv) > 1e30)
                return CFG_ERR(b, o->line, "[%s] %s: '%s' is not a number", b->sec->name, key,
                               buf);
            (*floats)[i] = (float)fv;
        }
        p = q ? q + 1 : p + l;
    }
    *n = count;
    return 0;
}

/* After a layer is built: every option must have been used or be known as
 * training-only (ignored lists the latter; NULL-terminated). */
static int check_unused(Builder *b, const char *const *ignored)
{
    int i, k;
    for (i = 0; i < b->sec->nopt; i++) {
        const Opt *o = &b->sec->opts[i];
        int known = o->used;
        for (k = 0; !known && ignored && ignored[k]; k++)
            known = strcmp(ignored[k], o->key) == 0;
        if (!known)
            return CFG_ERR(b, o->line, "[%s] unknown key '%s'", b->sec->name, o->key);
    }
    return 0;
}

/* ---- parameters -------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Two uniform numbers in [-1, 1) from one draw. */
static void uniform2(uint64_t *s, float *a, float *b)
{
    uint64_t r = splitmix64(s);
    *a = (float)(r >> 40) * (2.0f / 16777216.0f) - 1.0f;
    *b = (float)((r >> 8) & 0xffffff) * (2.0f / 16777216.0f) - 1.0f;
}

static int host_is_big_endian(void)
{
    const uint32_t one = 1;
    unsigned char c;
    memcpy(&c, &one, 1);
    return c == 0;
}

/* Fill dst[0..n) with the next n parameters: from the file, or center +
 * spread * uniform(-1, 1) when seeded.  what names them for a truncation
 * error. */
static int take(Builder *b, float *dst, int64_t n, float center, float spread,
                const char *what)
{
    WSrc *ws = b->ws;
    int64_t i;
    if (!ws->f) {
        float u, v;
        for (i = 0; i + 1 < n; i += 2) {
            uniform2(&ws->state, &u, &v);
            dst[i] = center + spread * u;
            dst[i + 1] = center + spread * v;
        }
        if (i < n) {
            uniform2(&ws->state, &u, &v);
            dst[i] = center + spread * u;
        }
        return 0;
    }
    if (ws->size - ws->pos < n * 4)
        return gir_error_at(b->e, gir_loc_file(ws->path, ws->pos),
                            "truncated: %s of [%s] (cfg line %d) needs %lld bytes, %lld left",
                            what, b->sec->name, b->sec->line, (long long)(n * 4),
                            (long long)(ws->size - ws->pos));
    if (fread(dst, 4, (size_t)n, ws->f) != (size_t)n)
        return gir_error_at(b->e, gir_loc_file(ws->path, ws->pos), "read error");
    ws->pos += n * 4;
    if (host_is_big_endian()) {
        unsigned char *p = (unsigned char *)dst;
        for (i = 0; i < n; i++, p += 4) {
            unsigned char t = p[0];
            p[0] = p[3];
            p[3] = t;
            t = p[1];
            p[1] = p[2];
            p[2] = t;
        }
    }
    return 0;
}

/* ---- graph building helpers ---------------------------------------------------- */

static GirType type4(int64_t c, int64_t h, int64_t w)
{
    GirType t;
    memset(&t, 0, sizeof t);
    t.dtype = GIR_DT_F32;
    t.rank = 4;
    t.dims[0] = 1;
    t.dims[1] = c;
    t.dims[2] = h;
    t.dims[3] = w;
    return t;
}

static GirType type_n(GirDType dt, int rank, const int64_t *dims)
{
    GirType t;
    int i;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = rank;
    for (i = 0; i < rank; i++)
        t.dims[i] = dims[i];
    return t;
}

/* A name "<base><suffix>" for the current layer, in the arena. */
static const char *lname(Builder *b, const char *suffix)
{
    return gir_arena_printf(b->g->arena, "%s%d%s", b->sec->name, b->index, suffix);
}

/* Add a node with one output of type t; returns the output value id. */
static int emit(Builder *b, GirOp op, const char *name, const int *in, int nin, GirType t,
                int *node)
{
    int out = gir_add_value(b->g, name, GIR_VAL_NODE, t, b->loc);
    int id = gir_add_node(b->g, op, name, in, nin, &out, 1, b->loc);
    if (node)
        *node = id;
    return out;
}

/* An i64 vector constant. */
static int const_i64(Builder *b, const char *name, const int64_t *v, int n)
{
    int64_t d = n;
    return gir_add_const(b->g, name, type_n(GIR_DT_I64, 1, &d), v, b->loc);
}

/* A float constant of the given shape filled from the parameter source;
 * counts against the model's parameter budget. */
static int const_param(Builder *b, const char *name, int rank, const int64_t *dims,
                       float center, float spread, const char *what)
{
    GirType t = type_n(GIR_DT_F32, rank, dims);
    int64_t n = gir_type_numel(&t);
    int id;
    if (b->nparam + n > MAX_PARAMS)
        return CFG_ERR(b, b->sec->line, "[%s] model needs more than %lld parameters",
                       b->sec->name, (long long)MAX_PARAMS);
    b->nparam += n;
    id = gir_add_const(b->g, name, t, NULL, b->loc);
    if (take(b, b->g->vals[id].data, n, center, spread, what))
        return -1;
    return id;
}

/* Checked a * b against MAX_ELEMS; -1 when over. */
static int64_t mul_cap(int64_t a, int64_t c)
{
    if (a < 0 || c < 0 || (c && a > MAX_ELEMS / c))
        return -1;
    return a * c;
}

static int check_elems(Builder *b, int64_t c, int64_t h, int64_t w)
{
    int64_t n = mul_cap(mul_cap(c, h), w);
    if (n < 0 || n > MAX_ELEMS)
        return CFG_ERR(b, b->sec->line, "[%s] tensor %lldx%lldx%lld is too large",
                       b->sec->name, (long long)c, (long long)h, (long long)w);
    return 0;
}

/* The layer's input: the previous layer's output, or the network input. */
static const Layer *prev(const Builder *b)
{
    return &b->layers[b->nlayer - 1];
}

/* Record the layer just built (b->layers[0] is the network input). */
static void finish(Builder *b, int val, int64_t c, int64_t h, int64_t w)
{
    Layer *l = &b->layers[b->nlayer++];
    l->val = val;
    l->c = c;
    l->h = h;
    l->w = w;
}

/* Darknet activation by name: appended node's output, or x for linear. */
static int activation(Builder *b, const char *act, int x, GirType t, int line)
{
    int node;
    if (strcmp(act, "linear") == 0)
        return x;
    if (strcmp(act, "leaky") == 0) {
        int out = emit(b, GIR_OP_LEAKYRELU, lname(b, "_leaky"), &x, 1, t, &node);
        gir_set_attr_float(b->g, node, "alpha", 0.1f);
        return out;
    }
    if (strcmp(act, "relu") == 0)
        return emit(b, GIR_OP_RELU, lname(b, "_relu"), &x, 1, t, NULL);
    if (strcmp(act, "logistic") == 0)
        return emit(b, GIR_OP_SIGMOID, lname(b, "_logistic"), &x, 1, t, NULL);
    if (strcmp(act, "tanh") == 0)
        return emit(b, GIR_OP_TANH, lname(b, "_tanh"), &x, 1, t, NULL);
    return CFG_ERR(b, line, "[%s] activation '%s' not supported (leaky, linear, relu, "
                   "logistic, tanh)", b->sec->name, act);
}

/* The activation option of the current section; returns its line too. */
static const char *opt_activation(Builder *b, const char *dflt, int *line)
{
    const Opt *o = find_opt(b->sec, "activation");
    *line = o ? o->line : b->sec->line;
    return o ? o->val : dflt;
}

/* Draw BN parameters for n channels in Darknet's order after the biases:
 * scales, rolling mean, rolling variance (ids[0..2]).  The variance is
 * stored as (sqrt(var) + 1e-6)^2 for use with epsilon 0 (see the top). */
static int draw_bn(Builder *b, int64_t n, int ids[3])
{
    int64_t i;
    float *var;
    ids[0] = const_param(b, lname(b, "_bn_scale"), 1, &n, 1.0f, 0.1f, "BN scales");
    if (ids[0] < 0)
        return -1;
    ids[1] = const_param(b, lname(b, "_bn_mean"), 1, &n, 0.0f, 0.1f, "BN rolling mean");
    if (ids[1] < 0)
        return -1;
    ids[2] = const_param(b, lname(b, "_bn_var"), 1, &n, 1.0f, 0.2f, "BN rolling variance");
    if (ids[2] < 0)
        return -1;
    var = b->g->vals[ids[2]].data;
    for (i = 0; i < n; i++) {
        float s = sqrtf(var[i]) + 0.000001f;
        var[i] = s * s;
    }
    return 0;
}

/* BatchNormalization of x with drawn parameters ids and Darknet's biases as
 * beta. */
static int emit_bn(Builder *b, int x, const int ids[3], int beta, GirType t)
{
    int in[5], node, out;
    in[0] = x;
    in[1] = ids[0];
    in[2] = beta;
    in[3] = ids[1];
    in[4] = ids[2];
    out = emit(b, GIR_OP_BATCHNORM, lname(b, "_bn"), in, 5, t, &node);
    gir_set_attr_float(b->g, node, "epsilon", 0.0f);
    return out;
}

/* ---- layers ----------------------------------------------------------------------- */

static const char *const conv_ignored[] = {"flipped", "dot", "learning_rate", NULL};

static int build_conv(Builder *b)
{
    const Layer *in = prev(b);
    int64_t n, size, stride, pad, padding, groups, bn, oh, ow, wdims[4];
    int x, w, bias, node, act_line, ins[3], bnp[3];
    const char *act;
    GirType t;
    int64_t pads[4], k2[2], s2[2];
    if (opt_int(b, "filters", 1, 1, MAX_NUMBER, &n) || opt_int(b, "size", 1, 1, 4096, &size) ||
        opt_int(b, "stride", 1, 1, 4096, &stride) || opt_int(b, "pad", 0, 0, 1, &pad) ||
        opt_int(b, "padding", 0, 0, 4096, &padding) ||
        opt_int(b, "groups", 1, 1, MAX_NUMBER, &groups) ||
        opt_int(b, "batch_normalize", 0, 0, 1, &bn))
        return -1;
    act = opt_activation(b, "logistic", &act_line);
    if (pad)
        padding = size / 2;
    if (in->c % groups || n % groups)
        return CFG_ERR(b, b->sec->line, "[%s] groups=%lld must divide input channels %lld "
                       "and filters %lld", b->sec->name, (long long)groups, (long long)in->c,
                       (long long)n);
    if (in->h + 2 * padding < size || in->w + 2 * padding < size)
        return CFG_ERR(b, b->sec->line, "[%s] %lldx%lld kernel larger than padded input "
                       "%lldx%lld", b->sec->name, (long long)size, (long long)size,
                       (long long)(in->h + 2 * padding), (long long)(in->w + 2 * padding));
    oh = (in->h + 2 * padding - size) / stride + 1;
    ow = (in->w + 2 * padding - size) / stride + 1;
    if (check_elems(b, n, oh, ow))
        return -1;
    wdims[0] = n;
    wdims[1] = in->c / groups;
    wdims[2] = size;
    wdims[3] = size;
    if (mul_cap(mul_cap(wdims[0] * wdims[1], size), size) < 0)
        return CFG_ERR(b, b->sec->line, "[%s] weight tensor is too large", b->sec->name);
    /* File order: biases (BN beta), [scales, mean, var], weights. */
    bias = const_param(b, lname(b, bn ? "_bn_bias" : "_b"), 1, &n, 0.0f, 0.1f, "biases");
    if (bias < 0)
        return -1;
    if (bn && draw_bn(b, n, bnp))
        return -1;
    w = const_param(b, lname(b, "_w"), 4, wdims, 0.0f,
                    sqrtf(6.0f / (float)(wdims[1] * size * size)), "weights");
    if (w < 0)
        return -1;
    t = type4(n, oh, ow);
    ins[0] = in->val;
    ins[1] = w;
    ins[2] = bias;
    x = emit(b, GIR_OP_CONV, lname(b, ""), ins, bn ? 2 : 3, t, &node);
    pads[0] = pads[1] = pads[2] = pads[3] = padding;
    k2[0] = k2[1] = size;
    s2[0] = s2[1] = stride;
    gir_set_attr_ints(b->g, node, "kernel_shape", k2, 2);
    gir_set_attr_ints(b->g, node, "strides", s2, 2);
    gir_set_attr_ints(b->g, node, "pads", pads, 4);
    gir_set_attr_int(b->g, node, "group", groups);
    if (bn)
        x = emit_bn(b, x, bnp, bias, t);
    x = activation(b, act, x, t, act_line);
    if (x < 0 || check_unused(b, conv_ignored))
        return -1;
    finish(b, x, n, oh, ow);
    return 0;
}

static int build_connected(Builder *b)
{
    const Layer *in = prev(b);
    int64_t n, bn, inputs, wd[2], shape[4];
    int x, bias, w, node, act_line, ins[3];
    const char *act;
    GirType t;
    if (opt_int(b, "output", 1, 1, MAX_NUMBER, &n) ||
        opt_int(b, "batch_normalize", 0, 0, 1, &bn))
        return -1;
    act = opt_activation(b, "logistic", &act_line);
    inputs = in->c * in->h * in->w;
    if (mul_cap(n, inputs) < 0)
        return CFG_ERR(b, b->sec->line, "[%s] weight matrix %lldx%lld is too large",
                       b->sec->name, (long long)n, (long long)inputs);
    /* File order: biases, weights ([out][in], or [in][out] when the header
     * says transposed), then BN scales, mean, var. */
    bias = const_param(b, lname(b, bn ? "_bn_bias" : "_b"), 1, &n, 0.0f, 0.1f, "biases");
    if (bias < 0)
        return -1;
    wd[0] = n;
    wd[1] = inputs;
    w = const_param(b, lname(b, "_w"), 2, wd, 0.0f, sqrtf(6.0f / (float)inputs), "weights");
    if (w < 0)
        return -1;
    if (b->ws->transpose) {
        float *d = b->g->vals[w].data, *tmp = malloc(sizeof *tmp * (size_t)(n * inputs));
        int64_t i, j;
        if (!tmp)
            gir_die("out of memory");
        for (i = 0; i < inputs; i++)
            for (j = 0; j < n; j++)
                tmp[j * inputs + i] = d[i * n + j];
        memcpy(d, tmp, sizeof *tmp * (size_t)(n * inputs));
        free(tmp);
    }
    ins[0] = in->val;
    wd[0] = 1;
    wd[1] = inputs;
    x = emit(b, GIR_OP_FLATTEN, lname(b, "_flat"), ins, 1, type_n(GIR_DT_F32, 2, wd), &node);
    gir_set_attr_int(b->g, node, "axis", 1);
    ins[0] = x;
    ins[1] = w;
    ins[2] = bias;
    wd[1] = n;
    x = emit(b, GIR_OP_GEMM, lname(b, ""), ins, bn ? 2 : 3, type_n(GIR_DT_F32, 2, wd), &node);
    gir_set_attr_int(b->g, node, "transB", 1);
    shape[0] = 1;
    shape[1] = n;
    shape[2] = shape[3] = 1;
    ins[0] = x;
    ins[1] = const_i64(b, lname(b, "_shape"), shape, 4);
    t = type4(n, 1, 1);
    x = emit(b, GIR_OP_RESHAPE, lname(b, "_4d"), ins, 2, t, NULL);
    if (bn) {
        int bnp[3];
        if (draw_bn(b, n, bnp))
            return -1;
        x = emit_bn(b, x, bnp, bias, t);
    }
    x = activation(b, act, x, t, act_line);
    if (x < 0 || check_unused(b, NULL))
        return -1;
    finish(b, x, n, 1, 1);
    return 0;
}

static int build_maxpool(Builder *b)
{
    const Layer *in = prev(b);
    int64_t size, stride, padding, oh, ow, k2[2], s2[2], pads[4];
    int x, node;
    if (opt_int(b, "stride", 1, 1, 4096, &stride) ||
        opt_int(b, "size", stride, 1, 4096, &size) ||
        opt_int(b, "padding", size - 1, 0, 8192, &padding))
        return -1;
    /* Darknet starts the window at -padding/2; the rest pads the far side. */
    pads[0] = pads[1] = padding / 2;
    pads[2] = pads[3] = padding - padding / 2;
    if (pads[2] >= size)
        return CFG_ERR(b, b->sec->line, "[%s] padding=%lld leaves windows with no input "
                       "(size %lld)", b->sec->name, (long long)padding, (long long)size);
    if (in->h + padding < size || in->w + padding < size)
        return CFG_ERR(b, b->sec->line, "[%s] window %lld larger than padded input %lldx%lld",
                       b->sec->name, (long long)size, (long long)(in->h + padding),
                       (long long)(in->w + padding));
    oh = (in->h + padding - size) / stride + 1;
    ow = (in->w + padding - size) / stride + 1;
    x = emit(b, GIR_OP_MAXPOOL, lname(b, ""), &in->val, 1, type4(in->c, oh, ow), &node);
    k2[0] = k2[1] = size;
    s2[0] = s2[1] = stride;
    gir_set_attr_ints(b->g, node, "kernel_shape", k2, 2);
    gir_set_attr_ints(b->g, node, "strides", s2, 2);
    gir_set_attr_ints(b->g, node, "pads", pads, 4);
    if (check_unused(b, NULL))
        return -1;
    finish(b, x, in->c, oh, ow);
    return 0;
}

static int build_avgpool(Builder *b)
{
    const Layer *in = prev(b);
    int x = emit(b, GIR_OP_GLOBALAVGPOOL, lname(b, ""), &in->val, 1, type4(in->c, 1, 1), NULL);
    if (check_unused(b, NULL))
        return -1;
    finish(b, x, in->c, 1, 1);
    return 0;
}

static int build_upsample(Builder *b)
{
    const Layer *in = prev(b);
    int64_t stride, oh, ow;
    double scale;
    float scales[4];
    int64_t four = 4;
    int x, node, ins[3];
    GirType t;
    if (opt_int(b, "stride", 2, -4096, 4096, &stride) || opt_float(b, "scale", 1.0, &scale))
        return -1;
    if (stride < 1)
        return CFG_ERR(b, b->sec->line, "[%s] stride=%lld: only upsampling (stride >= 1) is "
                       "supported", b->sec->name, (long long)stride);
    oh = in->h * stride;
    ow = in->w * stride;
    if (check_elems(b, in->c, oh, ow))
        return -1;
    t = type4(in->c, oh, ow);
    scales[0] = scales[1] = 1.0f;
    scales[2] = scales[3] = (float)stride;
    ins[0] = in->val;
    ins[1] = -1;
    ins[2] = gir_add_const(b->g, lname(b, "_scales"), type_n(GIR_DT_F32, 1, &four), scales,
                           b->loc);
    x = emit(b, GIR_OP_RESIZE, lname(b, ""), ins, 3, t, &node);
    gir_set_attr_string(b->g, node, "mode", "nearest");
    gir_set_attr_string(b->g, node, "coordinate_transformation_mode", "asymmetric");
    gir_set_attr_string(b->g, node, "nearest_mode", "floor");
    if (scale != 1.0) {
        float s = (float)scale;
        int64_t one = 1;
        ins[0] = x;
        ins[1] = gir_add_const(b->g, lname(b, "_scale"), type_n(GIR_DT_F32, 1, &one), &s,
                               b->loc);
        x = emit(b, GIR_OP_MUL, lname(b, "_mul"), ins, 2, t, NULL);
    }
    if (check_unused(b, NULL))
        return -1;
    finish(b, x, in->c, oh, ow);
    return 0;
}

/* A layer reference as Darknet resolves it: negative is relative to the
 * current layer, else absolute; must name an earlier layer.  Returns the
 * index into b->layers (offset by one for the network input) or -1. */
static int resolve(Builder *b, int64_t v, int line, const char *what)
{
    int64_t idx = v < 0 ? b->index + v : v;
    if (idx < 0 || idx >= b->index)
        return CFG_ERR(b, line, "[%s] %s index %lld out of range", b->sec->name, what,
                       (long long)v);
    return (int)idx + 1;
}

static int build_route(Builder *b)
{
    int64_t *idx = NULL, groups, group_id, c = 0, h = 0, w = 0;
    int n, i, line = b->sec->line, vals[64], x, node, first = 0;
    if (opt_list(b, "layers", &idx, NULL, &n, &line) ||
        opt_int(b, "groups", 1, 1, MAX_NUMBER, &groups) ||
        opt_int(b, "group_id", 0, 0, MAX_NUMBER, &group_id))
        return -1;
    if (n == 0)
        return CFG_ERR(b, b->sec->line, "[%s] needs layers=", b->sec->name);
    if (n > 64)
        return CFG_ERR(b, line, "[%s] more than 64 layers", b->sec->name);
    if (group_id >= groups)
        return CFG_ERR(b, b->sec->line, "[%s] group_id=%lld must be below groups=%lld",
                       b->sec->name, (long long)group_id, (long long)groups);
    for (i = 0; i < n; i++) {
        int li = resolve(b, idx[i], line, "layer");
        const Layer *l;
        int64_t part;
        if (li < 0)
            return -1;
        l = &b->layers[li];
        if (i == 0) {
            first = li - 1;
            h = l->h;
            w = l->w;
        } else if (l->h != h || l->w != w) {
            return CFG_ERR(b, line, "[%s] layer %d is %lldx%lld, layer %d is %lldx%lld",
                           b->sec->name, li - 1, (long long)l->h, (long long)l->w, first,
                           (long long)h, (long long)w);
        }
        if (l->c % groups)
            return CFG_ERR(b, line, "[%s] groups=%lld does not divide the %lld channels of "
                           "layer %d", b->sec->name, (long long)groups, (long long)l->c, li - 1);
        part = l->c / groups;
        vals[i] = l->val;
        if (groups > 1) {
            int64_t st = part * group_id, en = part * (group_id + 1), ax = 1;
            int ins[4];
            char suffix[32];
            snprintf(suffix, sizeof suffix, "_slice%d", i);
            ins[0] = l->val;
            ins[1] = const_i64(b, lname(b, gir_arena_printf(b->g->arena, "%s_starts", suffix)),
                               &st, 1);
            ins[2] = const_i64(b, lname(b, gir_arena_printf(b->g->arena, "%s_ends", suffix)),
                               &en, 1);
            ins[3] = const_i64(b, lname(b, gir_arena_printf(b->g->arena, "%s_axes", suffix)),
                               &ax, 1);
            vals[i] = emit(b, GIR_OP_SLICE, lname(b, suffix), ins, 4, type4(part, h, w), NULL);
        }
        c += part;
    }
    if (check_elems(b, c, h, w))
        return -1;
    if (n == 1) {
        x = vals[0];
    } else {
        x = emit(b, GIR_OP_CONCAT, lname(b, ""), vals, n, type4(c, h, w), &node);
        gir_set_attr_int(b->g, node, "axis", 1);
    }
    if (check_unused(b, NULL))
        return -1;
    finish(b, x, c, h, w);
    return 0;
}

/* The "from" operand of a shortcut brought to the input's shape as Darknet's
 * shortcut_cpu reads it: from a larger map every stride-th pixel (stride =
 * from width / input width), channels beyond the input's dropped, and what
 * is missing (fewer channels, smaller map) zero, i.e. left unchanged by the
 * add.  A from map smaller by an integer factor (Darknet's "sample") is
 * refused. */
static int shortcut_operand(Builder *b, const Layer *from, const Layer *in, int line)
{
    int64_t stride = from->w / in->w, sample = in->w / from->w, minc, minh, minw;
    int y = from->val, ins[5];
    if (stride < 1)
        stride = 1;
    if (sample < 1)
        sample = 1;
    if (stride != (from->h / in->h < 1 ? 1 : from->h / in->h) ||
        sample != (in->h / from->h < 1 ? 1 : in->h / from->h))
        return CFG_ERR(b, line, "[%s] layer %lldx%lld and input %lldx%lld scale differently "
                       "in height and width", b->sec->name, (long long)from->h,
                       (long long)from->w, (long long)in->h, (long long)in->w);
    if (sample > 1)
        return CFG_ERR(b, line, "[%s] a from layer smaller than the input (%lldx%lld into "
                       "%lldx%lld) is not supported", b->sec->name, (long long)from->h,
                       (long long)from->w, (long long)in->h, (long long)in->w);
    minc = from->c < in->c ? from->c : in->c;
    minh = from->h < in->h ? from->h : in->h;
    minw = from->w < in->w ? from->w : in->w;
    if (minc != from->c || minh != from->h || minw != from->w) {
        int64_t st[3] = {0, 0, 0}, en[3], ax[3] = {1, 2, 3}, sp[3] = {1, stride, stride};
        en[0] = minc;
        en[1] = (minh - 1) * stride + 1;
        en[2] = (minw - 1) * stride + 1;
        ins[0] = y;
        ins[1] = const_i64(b, lname(b, "_starts"), st, 3);
        ins[2] = const_i64(b, lname(b, "_ends"), en, 3);
        ins[3] = const_i64(b, lname(b, "_axes"), ax, 3);
        ins[4] = const_i64(b, lname(b, "_steps"), sp, 3);
        y = emit(b, GIR_OP_SLICE, lname(b, "_sample"), ins, 5, type4(minc, minh, minw), NULL);
    }
    if (minc != in->c || minh != in->h || minw != in->w) {
        int64_t pads[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        pads[5] = in->c - minc;
        pads[6] = in->h - minh;
        pads[7] = in->w - minw;
        ins[0] = y;
        ins[1] = const_i64(b, lname(b, "_pads"), pads, 8);
        y = emit(b, GIR_OP_PAD, lname(b, "_pad"), ins, 2, type4(in->c, in->h, in->w), NULL);
    }
    return y;
}

static int build_shortcut(Builder *b)
{
    const Layer *in = prev(b), *from;
    double alpha, beta;
    int li, x, y, act_line, ins[2];
    const char *act;
    const Opt *o = find_opt(b->sec, "from");
    long long v;
    GirType t;
    int64_t one = 1;
    if (!o)
        return CFG_ERR(b, b->sec->line, "[%s] needs from=", b->sec->name);
    if (parse_int(o->val, &v) || v < -MAX_NUMBER || v > MAX_NUMBER)
        return CFG_ERR(b, o->line, "[%s] from=%s is not an integer", b->sec->name, o->val);
    if ((li = resolve(b, v, o->line, "layer")) < 0 || opt_float(b, "alpha", 1.0, &alpha) ||
        opt_float(b, "beta", 1.0, &beta))
        return -1;
    act = opt_activation(b, "linear", &act_line);
    from = &b->layers[li];
    t = type4(in->c, in->h, in->w);
    x = in->val;
    if ((y = shortcut_operand(b, from, in, o->line)) < 0)
        return -1;
    if (alpha != 1.0) {
        float a = (float)alpha;
        /* Darknet scales the input only where the from layer overlaps it. */
        if (from->c < in->c || from->h < in->h || from->w < in->w)
            return CFG_ERR(b, b->sec->line, "[%s] alpha with a smaller from layer is not "
                           "supported", b->sec->name);
        ins[0] = x;
        ins[1] = gir_add_const(b->g, lname(b, "_alpha"), type_n(GIR_DT_F32, 1, &one), &a,
                               b->loc);
        x = emit(b, GIR_OP_MUL, lname(b, "_mul_alpha"), ins, 2, t, NULL);
    }
    if (beta != 1.0) {
        float be = (float)beta;
        ins[0] = y;
        ins[1] = gir_add_const(b->g, lname(b, "_beta"), type_n(GIR_DT_F32, 1, &one), &be,
                               b->loc);
        y = emit(b, GIR_OP_MUL, lname(b, "_mul_beta"), ins, 2, t, NULL);
    }
    ins[0] = x;
    ins[1] = y;
    x = emit(b, GIR_OP_ADD, lname(b, ""), ins, 2, t, NULL);
    x = activation(b, act, x, t, act_line);
    if (x < 0 || check_unused(b, NULL))
        return -1;
    finish(b, x, in->c, in->h, in->w);
    return 0;
}

/* Darknet's reorg (not ONNX SpaceToDepth): output element (k, j, i) of the
 * input-shaped index space reads the input viewed as C/s^2 x H*s x W*s at
 * (k % C', j*s + (k/C') / s, i*s + (k/C') % s); the result is then viewed as
 * C*s^2 x H/s x W/s. */
static int build_reorg(Builder *b)
{
    const Layer *in = prev(b);
    int64_t s, cs, shape6[6], shape4[4], perm[6] = {0, 3, 5, 1, 2, 4};
    int x, node, ins[2], i;
    int64_t td[6];
    if (opt_int(b, "stride", 1, 1, 4096, &s))
        return -1;
    cs = s * s;
    if (in->c % cs || in->h % s || in->w % s)
        return CFG_ERR(b, b->sec->line, "[%s] stride=%lld does not divide %lldx%lldx%lld",
                       b->sec->name, (long long)s, (long long)in->c, (long long)in->h,
                       (long long)in->w);
    shape6[0] = 1;
    shape6[1] = in->c / cs;
    shape6[2] = in->h;
    shape6[3] = s;
    shape6[4] = in->w;
    shape6[5] = s;
    ins[0] = in->val;
    ins[1] = const_i64(b, lname(b, "_shape6"), shape6, 6);
    x = emit(b, GIR_OP_RESHAPE, lname(b, "_view"), ins, 2, type_n(GIR_DT_F32, 6, shape6), NULL);
    for (i = 0; i < 6; i++)
        td[i] = shape6[perm[i]];
    x = emit(b, GIR_OP_TRANSPOSE, lname(b, ""), &x, 1, type_n(GIR_DT_F32, 6, td), &node);
    gir_set_attr_ints(b->g, node, "perm", perm, 6);
    shape4[0] = 1;
    shape4[1] = in->c * cs;
    shape4[2] = in->h / s;
    shape4[3] = in->w / s;
    ins[0] = x;
    ins[1] = const_i64(b, lname(b, "_shape"), shape4, 4);
    x = emit(b, GIR_OP_RESHAPE, lname(b, "_4d"), ins, 2, type_n(GIR_DT_F32, 4, shape4), NULL);
    if (check_unused(b, NULL))
        return -1;
    finish(b, x, shape4[1], shape4[2], shape4[3]);
    return 0;
}

static const char *const yolo_ignored[] = {
    "jitter", "ignore_thresh", "truth_thresh", "random", "iou_normalizer", "cls_normalizer",
    "obj_normalizer", "delta_normalizer", "iou_loss", "iou_thresh", "iou_thresh_kind",
    "nms_kind", "beta_nms", "max_delta", "counters_per_class", "label_smooth_eps",
    "focal_loss", "resize", "max", "objectness_smooth", "map", NULL};

static int build_yolo(Builder *b)
{
    const Layer *in = prev(b);
    int64_t classes, num, *mask = NULL;
    float *anchors = NULL;
    int nmask, nanch, mline = b->sec->line, aline = b->sec->line, i, x, node;
    double sxy;
    if (opt_int(b, "classes", 20, 1, MAX_NUMBER, &classes) ||
        opt_int(b, "num", 1, 1, MAX_LIST / 2, &num) ||
        opt_list(b, "mask", &mask, NULL, &nmask, &mline) ||
        opt_list(b, "anchors", NULL, &anchors, &nanch, &aline) ||
        opt_float(b, "scale_x_y", 1.0, &sxy))
        return -1;
    if (sxy != 1.0)
        return CFG_ERR(b, b->sec->line, "[%s] scale_x_y is not supported", b->sec->name);
    if (nmask == 0) {
        mask = gir_arena_alloc(b->g->arena, sizeof *mask * (size_t)num);
        for (i = 0; i < num; i++)
            mask[i] = i;
        nmask = (int)num;
    }
    for (i = 0; i < nmask; i++)
        if (mask[i] < 0 || mask[i] >= num)
            return CFG_ERR(b, mline, "[%s] mask entry %lld out of range [0, %lld)",
                           b->sec->name, (long long)mask[i], (long long)num);
    if (nanch != 2 * num)
        return CFG_ERR(b, nanch ? aline : b->sec->line, "[%s] %d anchor numbers for num=%lld "
                       "(need %lld)", b->sec->name, nanch, (long long)num, (long long)(2 * num));
    if (in->c != nmask * (classes + 5))
        return CFG_ERR(b, b->sec->line, "[%s] input has %lld channels, %d masks x (%lld "
                       "classes + 5) = %lld expected", b->sec->name, (long long)in->c, nmask,
                       (long long)classes, (long long)(nmask * (classes + 5)));
    x = emit(b, GIR_OP_YOLO, lname(b, ""), &in->val, 1, type4(in->c, in->h, in->w), &node);
    gir_set_attr_ints(b->g, node, "mask", mask, nmask);
    gir_set_attr_floats(b->g, node, "anchors", anchors, nanch);
    gir_set_attr_int(b->g, node, "classes", classes);
    gir_set_attr_int(b->g, node, "num", num);
    if (check_unused(b, yolo_ignored))
        return -1;
    finish(b, x, in->c, in->h, in->w);
    return 0;
}

static const char *const region_ignored[] = {
    "bias_match", "jitter", "rescore", "object_scale", "noobject_scale", "class_scale",
    "coord_scale", "absolute", "thresh", "random", "max", NULL};

/* [region]: per anchor, logistic on x, y and objectness, softmax over the
 * classes (when softmax=1), w and h untouched.  Channel a*(coords+1+classes)+k
 * is entry k of anchor a. */
static int build_region(Builder *b)
{
    const Layer *in = prev(b);
    int64_t classes, num, coords, softmax, per, d5[5], sizes[4], back[4];
    float *anchors = NULL;
    int nanch, aline = b->sec->line, x, parts[4], node, ins[2], i;
    if (opt_int(b, "classes", 20, 1, MAX_NUMBER, &classes) ||
        opt_int(b, "num", 1, 1, MAX_LIST / 2, &num) ||
        opt_int(b, "coords", 4, 4, 4, &coords) || opt_int(b, "softmax", 0, 0, 1, &softmax) ||
        opt_list(b, "anchors", NULL, &anchors, &nanch, &aline))
        return -1;
    if (nanch && nanch != 2 * num)
        return CFG_ERR(b, aline, "[%s] %d anchor numbers for num=%lld (need %lld)",
                       b->sec->name, nanch, (long long)num, (long long)(2 * num));
    per = coords + 1 + classes;
    if (in->c != num * per)
        return CFG_ERR(b, b->sec->line, "[%s] input has %lld channels, num %lld x (%lld "
                       "classes + %lld) = %lld expected", b->sec->name, (long long)in->c,
                       (long long)num, (long long)classes, (long long)(coords + 1),
                       (long long)(num * per));
    d5[0] = 1;
    d5[1] = num;
    d5[2] = per;
    d5[3] = in->h;
    d5[4] = in->w;
    ins[0] = in->val;
    ins[1] = const_i64(b, lname(b, "_shape5"), d5, 5);
    x = emit(b, GIR_OP_RESHAPE, lname(b, "_view"), ins, 2, type_n(GIR_DT_F32, 5, d5), NULL);
    sizes[0] = 2;
    sizes[1] = coords - 2;
    sizes[2] = 1;
    sizes[3] = classes;
    {
        int outs[4];
        static const char *const names[4] = {"_xy", "_wh", "_obj", "_classes"};
        ins[0] = x;
        ins[1] = const_i64(b, lname(b, "_split"), sizes, 4);
        for (i = 0; i < 4; i++) {
            d5[2] = sizes[i];
            outs[i] = gir_add_value(b->g, lname(b, names[i]), GIR_VAL_NODE,
                                    type_n(GIR_DT_F32, 5, d5), b->loc);
        }
        node = gir_add_node(b->g, GIR_OP_SPLIT, lname(b, "_split"), ins, 2, outs, 4, b->loc);
        gir_set_attr_int(b->g, node, "axis", 2);
        for (i = 0; i < 4; i++)
            parts[i] = outs[i];
    }
    d5[2] = 2;
    parts[0] = emit(b, GIR_OP_SIGMOID, lname(b, "_xy_logistic"), &parts[0], 1,
                    type_n(GIR_DT_F32, 5, d5), NULL);
    d5[2] = 1;
    parts[2] = emit(b, GIR_OP_SIGMOID, lname(b, "_obj_logistic"), &parts[2], 1,
                    type_n(GIR_DT_F32, 5, d5), NULL);
    if (softmax) {
        d5[2] = classes;
        parts[3] = emit(b, GIR_OP_SOFTMAX, lname(b, "_softmax"), &parts[3], 1,
                        type_n(GIR_DT_F32, 5, d5), &node);
        gir_set_attr_int(b->g, node, "axis", 2);
    }
    d5[2] = per;
    x = emit(b, GIR_OP_CONCAT, lname(b, "_concat"), parts, 4, type_n(GIR_DT_F32, 5, d5), &node);
    gir_set_attr_int(b->g, node, "axis", 2);
    back[0] = 1;
    back[1] = in->c;
    back[2] = in->h;
    back[3] = in->w;
    ins[0] = x;
    ins[1] = const_i64(b, lname(b, "_shape"), back, 4);
    x = emit(b, GIR_OP_RESHAPE, lname(b, ""), ins, 2, type4(in->c, in->h, in->w), NULL);
    if (check_unused(b, region_ignored))
        return -1;
    finish(b, x, in->c, in->h, in->w);
    return 0;
}

/* [softmax]: over all C x H x W values of the one image (groups=1). */
static int build_softmax(Builder *b)
{
    const Layer *in = prev(b);
    int64_t groups, d2[2], shape[4];
    double temp;
    int x = in->val, node, ins[2];
    GirType t = type4(in->c, in->h, in->w);
    if (opt_int(b, "groups", 1, 1, MAX_NUMBER, &groups) ||
        opt_float(b, "temperature", 1.0, &temp))
        return -1;
    if (groups != 1)
        return CFG_ERR(b, b->sec->line, "[%s] groups=%lld is not supported (only 1)",
                       b->sec->name, (long long)groups);
    if (temp <= 0.0)
        return CFG_ERR(b, b->sec->line, "[%s] temperature must be positive", b->sec->name);
    if (temp != 1.0) {
        /* Darknet: exp((x - max) / temperature). */
        float inv = (float)(1.0 / temp);
        int64_t one = 1;
        ins[0] = x;
        ins[1] = gir_add_const(b->g, lname(b, "_inv_temp"), type_n(GIR_DT_F32, 1, &one), &inv,
                               b->loc);
        x = emit(b, GIR_OP_MUL, lname(b, "_temp"), ins, 2, t, NULL);
    }
    if (in->h == 1 && in->w == 1) {
        x = emit(b, GIR_OP_SOFTMAX, lname(b, ""), &x, 1, t, &node);
        gir_set_attr_int(b->g, node, "axis", 1);
    } else {
        d2[0] = 1;
        d2[1] = in->c * in->h * in->w;
        x = emit(b, GIR_OP_FLATTEN, lname(b, "_flat"), &x, 1, type_n(GIR_DT_F32, 2, d2), &node);
        gir_set_attr_int(b->g, node, "axis", 1);
        x = emit(b, GIR_OP_SOFTMAX, lname(b, ""), &x, 1, type_n(GIR_DT_F32, 2, d2), &node);
        gir_set_attr_int(b->g, node, "axis", 1);
        shape[0] = 1;
        shape[1] = in->c;
        shape[2] = in->h;
        shape[3] = in->w;
        ins[0] = x;
        ins[1] = const_i64(b, lname(b, "_shape"), shape, 4);
        x = emit(b, GIR_OP_RESHAPE, lname(b, "_4d"), ins, 2, t, NULL);
    }
    if (check_unused(b, NULL))
        return -1;
    finish(b, x, in->c, in->h, in->w);
    return 0;
}

static const char *const dropout_ignored[] = {"probability", NULL};

static int build_dropout(Builder *b)
{
    const Layer *in = prev(b);
    int x = emit(b, GIR_OP_IDENTITY, lname(b, ""), &in->val, 1,
                 type4(in->c, in->h, in->w), NULL);
    if (check_unused(b, dropout_ignored))
        return -1;
    finish(b, x, in->c, in->h, in->w);
    return 0;
}

static int build_cost(Builder *b)
{
    const Layer *in = prev(b);
    finish(b, in->val, in->c, in->h, in->w);
    return 0; /* training only: every key is ignored */
}

/* Section names (with Darknet's aliases) and their builders. */
static const struct {
    const char *name;  /* as written in the cfg */
    const char *canon; /* the name used in node names and diagnostics */
    int (*build)(Builder *);
    int output;        /* a detection head: becomes a graph output */
} kinds[] = {
    {"convolutional", "convolutional", build_conv, 0},
    {"conv", "convolutional", build_conv, 0},
    {"connected", "connected", build_connected, 0},
    {"conn", "connected", build_connected, 0},
    {"maxpool", "maxpool", build_maxpool, 0},
    {"max", "maxpool", build_maxpool, 0},
    {"avgpool", "avgpool", build_avgpool, 0},
    {"avg", "avgpool", build_avgpool, 0},
    {"upsample", "upsample", build_upsample, 0},
    {"route", "route", build_route, 0},
    {"shortcut", "shortcut", build_shortcut, 0},
    {"reorg", "reorg", build_reorg, 0},
    {"yolo", "yolo", build_yolo, 1},
    {"region", "region", build_region, 1},
    {"softmax", "softmax", build_softmax, 0},
    {"soft", "softmax", build_softmax, 0},
    {"dropout", "dropout", build_dropout, 0},
    {"cost", "cost", build_cost, 0},
};

/* [net]: the input shape; every other key is about training. */
static int build_net(Builder *b)
{
    int64_t w, h, c;
    int in;
    if (opt_int(b, "width", 0, 0, MAX_NUMBER, &w) || opt_int(b, "height", 0, 0, MAX_NUMBER, &h) ||
        opt_int(b, "channels", 0, 0, MAX_NUMBER, &c))
        return -1;
    if (!w || !h || !c)
        return CFG_ERR(b, b->sec->line, "[%s] needs width, height and channels", b->sec->name);
    if (check_elems(b, c, h, w))
        return -1;
    in = gir_add_value(b->g, "input", GIR_VAL_INPUT, type4(c, h, w), b->loc);
    gir_add_input(b->g, in);
    finish(b, in, c, h, w);
    return 0;
}

/* Weights file header: major, minor, revision (int32), then "seen" as
 * int64 from version 0.2 on, else int32. */
static int read_header(WSrc *ws, GirError *e)
{
    unsigned char h[12], seen[8];
    int32_t major, minor;
    size_t nseen;
    if (ws->size < 12 || fread(h, 1, 12, ws->f) != 12)
        return gir_error_at(e, gir_loc_file(ws->path, 0), "truncated header (%lld bytes)",
                            (long long)ws->size);
    major = (int32_t)((uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 |
                      (uint32_t)h[3] << 24);
    minor = (int32_t)((uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 |
                      (uint32_t)h[7] << 24);
    if (major < 0 || minor < 0)
        return gir_error_at(e, gir_loc_file(ws->path, 0), "bad version %d.%d", major, minor);
    nseen = ((int64_t)major * 10 + minor >= 2 && major < 1000 && minor < 1000) ? 8 : 4;
    if (ws->size < 12 + (int64_t)nseen || fread(seen, 1, nseen, ws->f) != nseen)
        return gir_error_at(e, gir_loc_file(ws->path, 12), "truncated header (%lld bytes)",
                            (long long)ws->size);
    ws->pos = 12 + (int64_t)nseen;
    ws->transpose = major > 1000 || minor > 1000;
    return 0;
}

/* Build the graph from cfg text.  ws is the parameter source. */
static GirGraph *build(const char *text, size_t len, const char *path, WSrc *ws, GirError *e)
{
    Builder bld, *b = &bld;
    const char *base, *dot;
    int i, k;
    memset(b, 0, sizeof *b);
    if (!path)
        path = "<memory>";
    base = strrchr(path, '/');
    base = base ? base + 1 : path;
    dot = strrchr(base, '.');
    b->g = gir_graph_new(NULL);
    b->g->name = dot ? gir_arena_printf(b->g->arena, "%.*s", (int)(dot - base), base)
                     : gir_arena_strdup(b->g->arena, base);
    b->path = b->g->source = gir_arena_strdup(b->g->arena, path);
    b->e = e;
    b->ws = ws;
    if (parse_cfg(b, text, len))
        goto fail;
    if (b->nsec == 0) {
        gir_error_at(e, (GirLoc){b->path, 0, -1, NULL}, "no sections");
        goto fail;
    }
    if (strcmp(b->secs[0].name, "net") && strcmp(b->secs[0].name, "network")) {
        CFG_ERR(b, b->secs[0].line, "first section must be [net] or [network], not [%s]",
                b->secs[0].name);
        goto fail;
    }
    if (b->nsec == 1) {
        CFG_ERR(b, b->secs[0].line, "no layers after [%s]", b->secs[0].name);
        goto fail;
    }
    b->layers = gir_arena_alloc(b->g->arena, sizeof *b->layers * (size_t)b->nsec);
    b->sec = &b->secs[0];
    b->loc = (GirLoc){b->path, b->sec->line, -1, b->sec->name};
    if (build_net(b))
        goto fail;
    for (i = 1; i < b->nsec; i++) {
        Section *s = &b->secs[i];
        for (k = 0; k < (int)(sizeof kinds / sizeof kinds[0]); k++)
            if (strcmp(kinds[k].name, s->name) == 0)
                break;
        if (k == (int)(sizeof kinds / sizeof kinds[0])) {
            CFG_ERR(b, s->line, "unsupported section [%s]", s->name);
            goto fail;
        }
        s->name = kinds[k].canon;
        b->sec = s;
        b->index = i - 1;
        b->loc = (GirLoc){b->path, s->line, -1,
                          gir_arena_printf(b->g->arena, "%s#%d", s->name, b->index)};
        if (kinds[k].build(b))
            goto fail;
    }
    for (i = 1; i < b->nsec; i++)
        for (k = 0; k < (int)(sizeof kinds / sizeof kinds[0]); k++)
            if (kinds[k].output && strcmp(kinds[k].canon, b->secs[i].name) == 0)
                gir_add_output(b->g, b->layers[i].val);
    if (b->g->noutput == 0)
        gir_add_output(b->g, b->layers[b->nlayer - 1].val);
    if (ws->f) {
        int64_t extra = ws->size - ws->pos;
        if (extra > 0) {
            gir_error_at(e, gir_loc_file(ws->path, ws->pos),
                         "%lld bytes after the last layer's weights (cfg and weights differ?)",
                         (long long)extra);
            goto fail;
        }
    }
    if (gir_infer_shapes(b->g, e))
        goto fail;
    return b->g;
fail:
    gir_graph_free(b->g);
    return NULL;
}

GirGraph *fe_darknet_from_memory(const char *text, size_t len, const char *path,
                                 uint64_t seed, GirError *e)
{
    WSrc ws;
    memset(&ws, 0, sizeof ws);
    ws.state = seed;
    return build(text, len, path, &ws, e);
}

/* Whole file into malloc'd memory; NULL + error. */
static char *read_text(const char *path, size_t *len, GirError *e)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f) {
        gir_error_at(e, gir_loc_file(path, -1), "cannot open: %s", strerror(errno));
        return NULL;
    }
    for (;;) {
        size_t got;
        if (n == cap) {
            char *nb;
            if (cap >= MAX_CFG_BYTES) {
                gir_error_at(e, gir_loc_file(path, -1), "larger than %d bytes", MAX_CFG_BYTES);
                goto fail;
            }
            cap = cap ? cap * 2 : 65536;
            nb = realloc(buf, cap);
            if (!nb)
                gir_die("out of memory");
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        gir_error_at(e, gir_loc_file(path, (int64_t)n), "read error");
        goto fail;
    }
    fclose(f);
    *len = n;
    return buf;
fail:
    fclose(f);
    free(buf);
    return NULL;
}

GirGraph *fe_load_darknet(const char *cfg, const char *weights, uint64_t seed, GirError *e)
{
    WSrc ws;
    GirGraph *g = NULL;
    size_t len;
    char *text = read_text(cfg, &len, e);
    if (!text)
        return NULL;
    memset(&ws, 0, sizeof ws);
    ws.state = seed;
    if (weights) {
        struct stat st;
        ws.path = weights;
        ws.f = fopen(weights, "rb");
        if (!ws.f) {
            gir_error_at(e, gir_loc_file(weights, -1), "cannot open: %s", strerror(errno));
            free(text);
            return NULL;
        }
        if (fstat(fileno(ws.f), &st) || !S_ISREG(st.st_mode)) {
            gir_error_at(e, gir_loc_file(weights, -1), "not a regular file");
            goto done;
        }
        ws.size = (int64_t)st.st_size;
        if (read_header(&ws, e))
            goto done;
    }
    g = build(text, len, cfg, &ws, e);
done:
    if (ws.f)
        fclose(ws.f);
    free(text);
    return g;
}
