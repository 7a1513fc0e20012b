/*
 * Partitioning: each node of a (fused fp32 or int8) graph goes to an FPGA
 * engine or to the CPU.  A node goes to the CPU, with one line saying why,
 * when no engine computes it (YOLO decode, fp32 conversions, ops without an
 * engine) or when an attribute is outside what its engine takes (grouped or
 * dilated conv, asymmetric padding, a broadcasting Add, ...).  Unfused
 * BatchNormalization / Relu / LeakyRelu right after a conv join that conv's
 * stage (the requant unit applies them).  Connected FPGA stages form a
 * segment; whatever enters or leaves a segment goes through DDR.  A stage
 * that reads, through CPU nodes, what another stage computed is at a later
 * level than it, and a segment holds stages of one level: the CPU nodes run
 * between segments, never inside one (a squeeze-and-excite block whose pool
 * and channel Mul stay on the CPU inside a residual block splits it there).
 * The layers of p->fit (hls/plan_fit.c: moved so that the smallest design
 * fits) go to the CPU whatever their engine, each with its move's reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/plan_int.h"

/* Map dims of a rank-4 value as (c, h, w) in its layout; 0 when not a
 * static single-frame map. */
static int map_dims(const GirGraph *g, int v, int64_t *c, int64_t *h, int64_t *w)
{
    const GirValue *val;
    if (v < 0)
        return 0;
    val = &g->vals[v];
    if (val->type.rank != 4 || !gir_type_is_static(&val->type) || val->type.dims[0] != 1)
        return 0;
    if (val->layout == GIR_LAYOUT_NHWC) {
        *h = val->type.dims[1];
        *w = val->type.dims[2];
        *c = val->type.dims[3];
    } else {
        *c = val->type.dims[1];
        *h = val->type.dims[2];
        *w = val->type.dims[3];
    }
    return 1;
}

/* All entries of an ints attribute equal to v (absent counts as equal). */
static int ints_all(const GirNode *n, const char *name, int64_t v)
{
    int cnt, i;
    const int64_t *a = gir_attr_ints(n, name, &cnt);
    for (i = 0; a && i < cnt; i++)
        if (a[i] != v)
            return 0;
    return 1;
}

static int is_const(const GirGraph *g, int v)
{
    return v >= 0 && g->vals[v].kind == GIR_VAL_CONST;
}

/* Checks of a Conv; fills the stage or writes why it cannot run. */
/* The int8 output clamp of a fused activation: act_min/act_max of the
 * quantized node (a Clip such as ReLU6), else the int8 range.  0 + why when
 * they are not one int8 value each. */
static int act_clamp(const GirNode *n, HlsStage *s, char *why, size_t wn)
{
    int c1 = 0, c2 = 0;
    const int64_t *lo = gir_attr_ints(n, "act_min", &c1), *hi = gir_attr_ints(n, "act_max", &c2);
    s->qlo = -128;
    s->qhi = 127;
    if ((lo && c1 != 1) || (hi && c2 != 1) || (lo && (lo[0] < -128 || lo[0] > 127)) ||
        (hi && (hi[0] < -128 || hi[0] > 127)) || (lo && hi && lo[0] > hi[0])) {
        snprintf(why, wn, "activation bounds act_min/act_max are not one int8 interval");
        return 0;
    }
    if (lo)
        s->qlo = (int)lo[0];
    if (hi)
        s->qhi = (int)hi[0];
    return 1;
}

static int take_conv(const GirGraph *g, const GirNode *n, HlsStage *s, char *why, size_t wn)
{
    int cnt;
    const int64_t *ks = gir_attr_ints(n, "kernel_shape", &cnt), *st, *pads;
    const GirValue *wv;
    int64_t group = gir_attr_int(n, "group", 1), k, p;
    const char *act = gir_attr_string(n, "act", NULL);
    if (!map_dims(g, n->in[0], &s->cin, &s->h, &s->w) ||
        !map_dims(g, n->out[0], &s->cout, &s->oh, &s->ow)) {
        snprintf(why, wn, "not a 2-D map of one frame with known shape");
        return 0;
    }
    if (!is_const(g, n->in[1]) || (n->nin > 2 && n->in[2] >= 0 && !is_const(g, n->in[2]))) {
        snprintf(why, wn, "weights or bias are not constants");
        return 0;
    }
    wv = &g->vals[n->in[1]];
    if (wv->type.rank != 4) {
        snprintf(why, wn, "weights are not 4-D");
        return 0;
    }
    k = wv->layout == GIR_LAYOUT_NHWC ? wv->type.dims[1] : wv->type.dims[2];
    if (ks && cnt == 2 && ks[0] != ks[1]) {
        snprintf(why, wn, "kernel %lldx%lld is not square", (long long)ks[0], (long long)ks[1]);
        return 0;
    }
    if (ks && cnt >= 1)
        k = ks[0];
    if (k > 15) {
        snprintf(why, wn, "kernel %lld exceeds the engine's KMAX 15", (long long)k);
        return 0;
    }
    if (!ints_all(n, "dilations", 1)) {
        snprintf(why, wn, "dilated conv has no engine");
        return 0;
    }
    st = gir_attr_ints(n, "strides", &cnt);
    s->stride = st && cnt ? st[0] : 1;
    if ((s->stride != 1 && s->stride != 2) || !ints_all(n, "strides", s->stride)) {
        snprintf(why, wn, "strides other than 1 or 2 in both axes");
        return 0;
    }
    pads = gir_attr_ints(n, "pads", &cnt);
    p = pads && cnt ? pads[0] : 0;
    if (!ints_all(n, "pads", p) || p >= k) {
        snprintf(why, wn, "padding is not the same on all sides and below K");
        return 0;
    }
    if (act && strcmp(act, "relu") && strcmp(act, "leakyrelu") && strcmp(act, "clip")) {
        snprintf(why, wn, "fused activation '%s' has no requant form", act);
        return 0;
    }
    s->k = k;
    s->pad = p;
    if (!act_clamp(n, s, why, wn))
        return 0;
    if (group == 1) {
        s->kind = HLS_ST_CONV;
        s->weight_bytes = s->cout * s->cin * k * k + 12 * s->cout;
    } else if (group == s->cin && group == s->cout) {
        s->kind = HLS_ST_DWCONV;
        s->weight_bytes = s->cout * k * k + 12 * s->cout;
    } else {
        snprintf(why, wn, "grouped conv (group %lld) has no engine", (long long)group);
        return 0;
    }
    s->macs = s->oh * s->ow * s->cout * (s->kind == HLS_ST_CONV ? s->cin : 1) * k * k;
    return 1;
}

static int take_maxpool(const GirGraph *g, const GirNode *n, HlsStage *s, char *why, size_t wn)
{
    int cnt, pc;
    const int64_t *ks = gir_attr_ints(n, "kernel_shape", &cnt), *st, *pads;
    if (!map_dims(g, n->in[0], &s->cin, &s->h, &s->w) ||
        !map_dims(g, n->out[0], &s->cout, &s->oh, &s->ow) || !ks || cnt != 2) {
        snprintf(why, wn, "not a 2-D pooling of one frame with known shape");
        return 0;
    }
    if (ks[0] != ks[1] || !ints_all(n, "dilations", 1) || n->nout > 1) {
        snprintf(why, wn, "non-square, dilated or indexed pooling has no engine");
        return 0;
    }
    st = gir_attr_ints(n, "strides", &cnt);
    s->stride = st && cnt ? st[0] : 1;
    if (!ints_all(n, "strides", s->stride)) {
        snprintf(why, wn, "different strides per axis");
        return 0;
    }
    pads = gir_attr_ints(n, "pads", &pc);
    s->pad = pads && pc == 4 ? pads[2] : 0;
    if (pads && pc == 4 && (pads[0] != 0 || pads[1] != 0 || pads[3] != pads[2])) {
        snprintf(why, wn, "pads [%lld,%lld,%lld,%lld]: the engine pads bottom/right only",
                 (long long)pads[0], (long long)pads[1], (long long)pads[2], (long long)pads[3]);
        return 0;
    }
    s->k = ks[0];
    s->kind = HLS_ST_MAXPOOL;
    return 1;
}

static int take_resize(const GirGraph *g, const GirNode *n, HlsStage *s, char *why, size_t wn)
{
    if (!map_dims(g, n->in[0], &s->cin, &s->h, &s->w) ||
        !map_dims(g, n->out[0], &s->cout, &s->oh, &s->ow)) {
        snprintf(why, wn, "not a 2-D map of one frame with known shape");
        return 0;
    }
    if (strcmp(gir_attr_string(n, "mode", "nearest"), "nearest") || s->oh % s->h ||
        s->ow % s->w || s->oh / s->h != s->ow / s->w || s->oh / s->h < 2) {
        snprintf(why, wn, "only nearest upsampling by one integer factor has an engine");
        return 0;
    }
    s->k = s->oh / s->h; /* the factor */
    s->kind = HLS_ST_UPSAMPLE;
    return 1;
}

static int take_join(const GirGraph *g, const GirNode *n, HlsStage *s, char *why, size_t wn)
{
    int64_t c2, h2, w2;
    if (n->nin != 2 || is_const(g, n->in[0]) || is_const(g, n->in[1]) ||
        !map_dims(g, n->in[0], &s->cin, &s->h, &s->w) || !map_dims(g, n->in[1], &c2, &h2, &w2) ||
        !map_dims(g, n->out[0], &s->cout, &s->oh, &s->ow) || h2 != s->h || w2 != s->w) {
        snprintf(why, wn, "needs two streamed maps of one frame of the same size");
        return 0;
    }
    if (n->op == GIR_OP_CONCAT) {
        int64_t ax = gir_attr_int(n, "axis", 1);
        int nhwc = g->vals[n->out[0]].layout == GIR_LAYOUT_NHWC;
        if (!(nhwc ? (ax == 3 || ax == -1) : (ax == 1 || ax == -3))) {
            snprintf(why, wn, "concat along axis %lld: the engine joins channels", (long long)ax);
            return 0;
        }
        s->cin2 = c2;
        s->kind = HLS_ST_CONCAT;
    } else {
        if (c2 != s->cin) {
            snprintf(why, wn, "broadcasting Add has no engine");
            return 0;
        }
        s->kind = HLS_ST_ADD;
    }
    return 1;
}

/* Can node n run on an engine?  Fills s (shapes, kind) or why. */
static int fpga_takes(const GirGraph *g, const GirNode *n, HlsStage *s, char *why, size_t wn)
{
    switch (n->op) {
    case GIR_OP_CONV:
        return take_conv(g, n, s, why, wn);
    case GIR_OP_MAXPOOL:
        return take_maxpool(g, n, s, why, wn);
    case GIR_OP_RESIZE:
        return take_resize(g, n, s, why, wn);
    case GIR_OP_CONCAT:
    case GIR_OP_ADD:
        return take_join(g, n, s, why, wn);
    case GIR_OP_REQUANTIZE:
        if (!map_dims(g, n->in[0], &s->cin, &s->h, &s->w)) {
            snprintf(why, wn, "not a 2-D map of one frame with known shape");
            return 0;
        }
        s->cout = s->cin;
        s->oh = s->h;
        s->ow = s->w;
        s->kind = HLS_ST_REQUANT;
        return 1;
    case GIR_OP_LUTI8:
        if (!map_dims(g, n->in[0], &s->cin, &s->h, &s->w)) {
            snprintf(why, wn, "not a 2-D map of one frame with known shape");
            return 0;
        }
        s->lut_chans = gir_lut_channel_count(n, &g->vals[n->in[0]].type);
        if (s->lut_chans < 0 || (s->lut_chans > 0 && s->lut_chans != s->cin)) {
            snprintf(why, wn, "a LutI8 table whose size is neither 256 nor 256 per channel");
            return 0;
        }
        s->cout = s->cin;
        s->oh = s->h;
        s->ow = s->w;
        s->kind = HLS_ST_LUT;
        return 1;
    case GIR_OP_YOLO:
        snprintf(why, wn, "YOLO decode (fp32 logistic on x, y, objectness, classes) has no FPGA engine");
        return 0;
    case GIR_OP_QUANTIZELINEAR:
    case GIR_OP_DEQUANTIZELINEAR:
        snprintf(why, wn, "fp32/int8 conversion at the FPGA boundary runs on the host");
        return 0;
    case GIR_OP_TRANSPOSE: {
        int cnt = 0;
        const int64_t *p = gir_attr_ints(n, "perm", &cnt);
        if (cnt == 4 && p[0] == 0 && p[1] == 3 && p[2] == 1 && p[3] == 2) {
            snprintf(why, wn, "NHWC to NCHW, the host's: the driver quantizes an NHWC graph input "
                              "as it lies (the stream's order) when only the FPGA reads it");
            return 0;
        }
        if (cnt == 4 && p[0] == 0 && p[1] == 2 && p[2] == 3 && p[3] == 1) {
            snprintf(why, wn, "NCHW to NHWC, the host's: the driver dequantizes an FPGA map into "
                              "an NHWC graph output as its bytes lie (the stream's order)");
            return 0;
        }
        snprintf(why, wn, "no FPGA engine for Transpose");
        return 0;
    }
    default:
        snprintf(why, wn, "no FPGA engine for %s", gir_op_name(n->op));
        return 0;
    }
}

/* A BatchNormalization or activation the conv stage before it absorbs. */
static int absorbed(const GirGraph *g, const GirNode *n, const int *stage_of, const HlsPlan *p,
                    const int *uses)
{
    int v = n->nin > 0 ? n->in[0] : -1, s;
    if (n->op != GIR_OP_BATCHNORM && n->op != GIR_OP_RELU && n->op != GIR_OP_LEAKYRELU)
        return 0;
    if (v < 0 || (s = stage_of[v]) < 0 || uses[v] != 1)
        return 0;
    if (p->stages[s].kind != HLS_ST_CONV && p->stages[s].kind != HLS_ST_DWCONV)
        return 0;
    if (n->op == GIR_OP_BATCHNORM)
        for (int i = 1; i < n->nin; i++)
            if (!is_const(g, n->in[i]))
                return 0;
    return 1;
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

int hls_find_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

int hls_partition(const GirGraph *g, HlsPlan *p, GirError *e)
{
    int *stage_of = calloc((size_t)g->nval + 1, sizeof *stage_of);
    int *uses = calloc((size_t)g->nval + 1, sizeof *uses);
    /* need[v]: the least level of a stage that reads value v: a stage's
     * output its own level, a CPU node's one past every stage it reads */
    int *need = calloc((size_t)g->nval + 1, sizeof *need);
    int *level = calloc((size_t)g->nnode + 1, sizeof *level);
    /* moved[i]: 1 + the move (p->fit) that put node i on the CPU, or 0 */
    int *moved = calloc((size_t)g->nnode + 1, sizeof *moved);
    int *parent, *segid, i, j, k;
    if (!stage_of || !uses || !need || !level || !moved)
        gir_die("out of memory");
    for (k = 0; k < p->fit.nmove; k++)
        for (j = 0; j < p->fit.moves[k].count; j++) {
            int id = p->fit.nodes[p->fit.moves[k].first + j];
            if (id >= 0 && id < g->nnode)
                moved[id] = k + 1;
        }
    gir_use_counts(g, uses);
    for (i = 0; i < g->nval; i++)
        stage_of[i] = -1;
    p->stages = calloc((size_t)g->nnode + 1, sizeof *p->stages);
    p->cpu = calloc((size_t)g->nnode + 1, sizeof *p->cpu);
    if (!p->stages || !p->cpu)
        gir_die("out of memory");
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        HlsStage *s = &p->stages[p->nstage];
        char why[200];
        int taken;
        if (absorbed(g, n, stage_of, p, uses)) {
            for (j = 0; j < n->nout; j++) {
                stage_of[n->out[j]] = stage_of[n->in[0]];
                need[n->out[j]] = need[n->in[0]];
            }
            continue;
        }
        memset(s, 0, sizeof *s);
        why[0] = 0;
        taken = fpga_takes(g, n, s, why, sizeof why);
        if (taken && s->kind == HLS_ST_LUT && s->lut_chans > 0 && p->lut_cpu[0]) {
            snprintf(why, sizeof why, "%s", p->lut_cpu);
            taken = 0;
        }
        if (taken && moved[i]) {
            snprintf(why, sizeof why, "moved to the CPU so the design fits (move %d of %d): "
                     "the smallest design exceeded %s", moved[i], p->fit.nmove,
                     p->fit.moves[moved[i] - 1].over);
            taken = 0;
        }
        if (!taken) {
            HlsCpuNode *c = &p->cpu[p->ncpu++];
            int lv = 0;
            c->node = n->name;
            c->op = gir_op_name(n->op);
            snprintf(c->why, sizeof c->why, "%s", why);
            for (j = 0; j < n->nin; j++)
                if (n->in[j] >= 0)
                    lv = imax(lv, need[n->in[j]] + (stage_of[n->in[j]] >= 0));
            for (j = 0; j < n->nout; j++)
                need[n->out[j]] = lv;
            continue;
        }
        s->node = n->name;
        s->op = gir_op_name(n->op);
        s->node_id = i;
        s->nin = (s->kind == HLS_ST_CONCAT || s->kind == HLS_ST_ADD) ? 2 : 1;
        for (j = 0; j < s->nin; j++)
            s->in[j] = stage_of[n->in[j]];
        for (j = 0; j < n->nin; j++)
            if (n->in[j] >= 0)
                level[p->nstage] = imax(level[p->nstage], need[n->in[j]]);
        for (j = 0; j < n->nout; j++) {
            stage_of[n->out[j]] = p->nstage;
            need[n->out[j]] = level[p->nstage];
        }
        p->nstage++;
    }
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        int on_cpu = 0;
        for (j = 0; j < p->ncpu; j++)
            if (p->cpu[j].node == n->name)
                on_cpu = 1;
        for (j = 0; on_cpu && j < n->nin; j++)
            if (n->in[j] >= 0 && stage_of[n->in[j]] >= 0)
                p->stages[stage_of[n->in[j]]].out_ddr = 1;
    }
    for (i = 0; i < g->noutput; i++)
        if (stage_of[g->outputs[i]] >= 0)
            p->stages[stage_of[g->outputs[i]]].out_ddr = 1;
    free(stage_of);
    free(uses);
    free(need);
    free(moved);
    if (p->nstage == 0) {
        free(level);
        return gir_error_at(e, gir_loc_none(), "plan: model '%s' has no layer the FPGA engines take",
                            g->name ? g->name : "?");
    }
    /* segments: connected components of stage-to-stage streams of one level */
    parent = malloc(sizeof *parent * (size_t)p->nstage);
    segid = malloc(sizeof *segid * (size_t)p->nstage);
    if (!parent || !segid)
        gir_die("out of memory");
    for (i = 0; i < p->nstage; i++)
        parent[i] = i, segid[i] = -1;
    for (i = 0; i < p->nstage; i++)
        for (j = 0; j < p->stages[i].nin; j++)
            if (p->stages[i].in[j] >= 0 && level[p->stages[i].in[j]] == level[i])
                parent[hls_find_root(parent, i)] = hls_find_root(parent, p->stages[i].in[j]);
    for (i = 0; i < p->nstage; i++) {
        int r = hls_find_root(parent, i);
        if (segid[r] < 0)
            segid[r] = p->nsegment++;
        p->stages[i].segment = segid[r];
    }
    free(parent);
    free(segid);
    free(level);
    return 0;
}
