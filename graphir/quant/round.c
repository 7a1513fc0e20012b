/*
 * Learned rounding of int8 weights (AdaRound / AdaQuant style, what Vitis
 * AI calls fast finetune): for each Conv, Gemm and MatMul in order, each
 * int8 weight is rounded down or up, whichever makes the layer's output
 * closer to fp32's on the calibration inputs.
 *
 * The quantizer (quantize.c) calls gir_rounder_layer as it emits each such
 * node, so the int8 graph built so far is exactly what runs before it,
 * learned rounding of the layers before included.  The rounder runs both
 * graphs forward, the nodes not yet run each time (gir_run on a view of a
 * node range), and keeps every value of every calibration input.
 *
 * Per layer: output positions sampled evenly (at most ro->positions over all
 * inputs); per group of a grouped conv the input patches A (int8 codes less
 * the zero point, 0 in the padding, as the int8 kernel reads them) and F
 * (fp32); per output channel c the target t = w_c . F (fp32 weights, fp32
 * input), u = sx sw[c], the residual r = t - u qw_c . A.  Coordinate
 * descent over the channel's weights: moving qw_k by d changes the squared
 * error by -2 d u (A_k . r) + d^2 u^2 |A_k|^2; a move is taken when that is
 * negative and qw_k stays within floor / ceil of wd_k / sw[c] (and +-127).
 * A pass costs K x P per channel.  The bias then takes the mean of r.
 *
 * Checked (ro->check, two inputs or more): per channel, the descent runs
 * first on the even-numbered inputs' positions only; the channel keeps
 * nearest rounding unless that lowers its error on the odd-numbered
 * inputs' positions (each rounding's bias being the fit positions' mean
 * residual), and is otherwise learned again on all positions.  A guard
 * against fitting what only the calibration inputs hold.
 * Deterministic: fixed order, no random numbers.  The error is the one
 * before the activation and the output requantizer (both fixed here).
 *
 * Needs: g's nodes in the NCHW layout (the default pipeline), one input.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graphir/quant/round.h"

/* Most patch elements of one group held at once (A and F, 4 bytes each:
 * 256 MB): a layer with many weights per channel samples fewer positions. */
#define MAX_PATCH (32 * 1024 * 1024)
/* Most bytes of kept values (both graphs, every input used): with more
 * calibration inputs than fit, the first ones only. */
#define MAX_KEEP (4.0 * 1024 * 1024 * 1024)

struct GirRounder {
    const GirGraph *g; /* the fp32 graph */
    GirRoundOpts *ro;  /* the calibration inputs and the options */
    int nin;           /* inputs used: the first of ro's, as many as MAX_KEEP allows */
    GirArena *a;       /* every value computed, of both graphs */
    GirTensor **ft;    /* per input: per value of g, its tensor (data NULL: not run) */
    int fdone;         /* nodes of g run */
    GirTensor **qt;    /* per input: per value of q */
    int qcap;          /* entries of each qt */
    int qdone;         /* nodes of q run */
};

GirRounder *gir_rounder_new(const GirGraph *g, GirRoundOpts *ro)
{
    GirRounder *r = calloc(1, sizeof *r);
    int k, i;
    double bytes = 0;
    if (!r)
        gir_die("out of memory");
    r->g = g;
    r->ro = ro;
    /* an input keeps every f32 value of g and about as much again of the
     * int8 graph (its f32 values and int8 ones) */
    for (i = 0; i < g->nval; i++)
        if (g->vals[i].kind == GIR_VAL_NODE && gir_type_bytes(&g->vals[i].type) > 0)
            bytes += (double)gir_type_bytes(&g->vals[i].type);
    r->nin = ro->ninputs;
    if (bytes > 0 && r->nin > 1 && (double)r->nin * 2 * bytes > MAX_KEEP)
        r->nin = MAX_KEEP / (2 * bytes) < 1 ? 1 : (int)(MAX_KEEP / (2 * bytes));
    ro->used = r->nin;
    r->a = gir_arena_new();
    r->ft = gir_arena_alloc(r->a, sizeof *r->ft * (size_t)(r->nin + 1));
    r->qt = calloc((size_t)r->nin + 1, sizeof *r->qt);
    if (!r->qt)
        gir_die("out of memory");
    for (k = 0; k < r->nin; k++) {
        r->ft[k] = gir_arena_alloc(r->a, sizeof **r->ft * (size_t)(g->nval + 1));
        for (i = 0; i < g->nval; i++)
            r->ft[k][i].type = g->vals[i].type;
        if (g->ninput == 1)
            r->ft[k][g->inputs[0]] = ro->inputs[k];
    }
    return r;
}

void gir_rounder_free(GirRounder *r)
{
    int k;
    if (!r)
        return;
    for (k = 0; k < r->nin; k++)
        free(r->qt[k]);
    free(r->qt);
    gir_arena_free(r->a);
    free(r);
}

/* Run nodes [from, to) of g on ts (per value id; the values they read from
 * before the range must have data), the new values into ts, data from a. */
static int run_range(const GirGraph *g, int from, int to, GirTensor *ts, GirArena *a, GirError *e)
{
    GirArena *tmp;
    GirGraph view;
    unsigned char *made, *fed;
    int *in, *out, nin = 0, nout = 0, i, j, rc;
    GirTensor *tin, *tout;
    if (from >= to)
        return 0;
    tmp = gir_arena_new();
    made = gir_arena_alloc(tmp, (size_t)g->nval + 1);
    fed = gir_arena_alloc(tmp, (size_t)g->nval + 1);
    in = gir_arena_alloc(tmp, sizeof *in * (size_t)(g->nval + 1));
    out = gir_arena_alloc(tmp, sizeof *out * (size_t)(g->nval + 1));
    for (i = from; i < to; i++)
        for (j = 0; j < g->nodes[i].nout; j++) {
            made[g->nodes[i].out[j]] = 1;
            out[nout++] = g->nodes[i].out[j];
        }
    for (i = from; i < to; i++)
        for (j = 0; j < g->nodes[i].nin; j++) {
            int v = g->nodes[i].in[j];
            if (v < 0 || made[v] || fed[v] || g->vals[v].kind == GIR_VAL_CONST)
                continue;
            if (!ts[v].data)
                gir_die("learned rounding: value '%s' read before it is computed",
                        g->vals[v].name);
            fed[v] = 1;
            in[nin++] = v;
        }
    tin = gir_arena_alloc(tmp, sizeof *tin * (size_t)(nin + 1));
    tout = gir_arena_alloc(tmp, sizeof *tout * (size_t)(nout + 1));
    for (i = 0; i < nin; i++)
        tin[i] = ts[in[i]];
    view = *g;
    view.nodes = g->nodes + from;
    view.nnode = to - from;
    view.inputs = in;
    view.ninput = nin;
    view.outputs = out;
    view.noutput = nout;
    rc = gir_run(&view, tin, tout, a, e);
    for (i = 0; rc == 0 && i < nout; i++)
        ts[out[i]] = tout[i];
    gir_arena_free(tmp);
    return rc;
}

/* Bring both graphs up to node L->node of g and every node of q. */
static int advance(GirRounder *r, const GirGraph *q, int node, GirError *e)
{
    int k, i;
    if (q->nval > r->qcap) {
        int cap = q->nval * 2;
        for (k = 0; k < r->nin; k++) {
            GirTensor *t = realloc(r->qt[k], sizeof *t * (size_t)cap);
            if (!t)
                gir_die("out of memory");
            memset(t + r->qcap, 0, sizeof *t * (size_t)(cap - r->qcap));
            r->qt[k] = t;
        }
        r->qcap = cap;
    }
    for (k = 0; k < r->nin; k++) {
        if (q->ninput == 1 && !r->qt[k][q->inputs[0]].data)
            r->qt[k][q->inputs[0]] = r->ro->inputs[k];
        for (i = 0; i < q->nval; i++)
            r->qt[k][i].type = q->vals[i].type;
        if (run_range(r->g, r->fdone, node, r->ft[k], r->a, e) < 0 ||
            run_range(q, r->qdone, q->nnode, r->qt[k], r->a, e) < 0)
            return -1;
    }
    r->fdone = node;
    r->qdone = q->nnode;
    return 0;
}

/* The layer's geometry: a Conv (NCHW) or a Gemm / MatMul row. */
typedef struct {
    int conv;                 /* 1: Conv; 0: rows of a Gemm / MatMul */
    int64_t N, C, H, W;       /* conv input */
    int64_t OH, OW, KH, KW;   /* conv output plane, kernel */
    int64_t G, Cg, Mg;        /* groups, input and output channels per group */
    int64_t rows;             /* Gemm / MatMul: rows of the input */
    GirWindow win;            /* conv window */
} Geo;

static int geometry(const GirRounder *r, const GirRoundLayer *L, Geo *o)
{
    const GirGraph *g = r->g;
    const GirNode *n = &g->nodes[L->node];
    const GirType *xt = &g->vals[n->in[0]].type, *wt = &g->vals[n->in[1]].type;
    memset(o, 0, sizeof *o);
    if (!gir_type_is_static(xt) || gir_node_is_nhwc(n) || g->vals[n->in[0]].layout == GIR_LAYOUT_NHWC ||
        g->vals[n->in[1]].layout == GIR_LAYOUT_NHWC)
        return 0;
    if (n->op == GIR_OP_CONV) {
        const GirType *yt = &g->vals[n->out[0]].type;
        if (xt->rank != 4 || wt->rank != 4 || yt->rank != 4)
            return 0;
        o->conv = 1;
        o->N = xt->dims[0], o->C = xt->dims[1], o->H = xt->dims[2], o->W = xt->dims[3];
        o->OH = yt->dims[2], o->OW = yt->dims[3];
        o->KH = wt->dims[2], o->KW = wt->dims[3];
        o->G = gir_attr_int(n, "group", 1);
        o->Cg = wt->dims[1];
        if (o->G < 1 || L->nch % o->G || o->Cg * o->G != o->C || o->Cg * o->KH * o->KW != L->per)
            return 0;
        o->Mg = L->nch / o->G;
        gir_window(n, xt, yt, wt->dims + 2, &o->win);
        return 1;
    }
    if ((n->op == GIR_OP_GEMM && gir_attr_int(n, "transA", 0) == 0 && xt->rank == 2) ||
        (n->op == GIR_OP_MATMUL && xt->rank >= 2)) {
        if (xt->dims[xt->rank - 1] != L->per)
            return 0;
        o->G = 1;
        o->Mg = L->nch;
        o->rows = gir_type_numel(xt) / L->per;
        return 1;
    }
    return 0;
}

/* The place of input i among n in the patches: the even-numbered inputs
 * first (the fit inputs of a checked rounding), then the odd ones (its
 * check inputs). */
static int64_t slot(int n, int check, int i)
{
    if (!check || n < 2)
        return i;
    return i % 2 == 0 ? i / 2 : (n + 1) / 2 + i / 2;
}

/* Patches of group grp at the sampled positions: A[k * P + p] (int8 codes
 * less zx) and F[k * P + p] (fp32), position p = slot(i) * pimg + j for
 * input i's j-th. */
static void patches(const GirRounder *r, const GirRoundLayer *L, const Geo *o, int grp, int64_t pimg,
                    float *A, float *F)
{
    const GirNode *n = &r->g->nodes[L->node];
    int x = n->in[0], i;
    int64_t P = pimg * r->nin, total = o->conv ? o->N * o->OH * o->OW : o->rows, j, k;
    for (i = 0; i < r->nin; i++) {
        const float *xf = r->ft[i][x].data;
        const int8_t *xq = r->qt[i][L->xq].data;
        for (j = 0; j < pimg; j++) {
            int64_t at = (int64_t)(((double)j + 0.5) * (double)total / (double)pimg);
            int64_t p = slot(r->nin, r->ro->check, i) * pimg + j;
            if (!o->conv) {
                for (k = 0; k < L->per; k++) {
                    A[k * P + p] = (float)(xq[at * L->per + k] - L->zx);
                    F[k * P + p] = xf[at * L->per + k];
                }
                continue;
            }
            {
                int64_t nb = at / (o->OH * o->OW), oy = at / o->OW % o->OH, ox = at % o->OW;
                for (k = 0; k < L->per; k++) {
                    int64_t ic = k / (o->KH * o->KW), ky = k / o->KW % o->KH, kx = k % o->KW;
                    int64_t iy = oy * o->win.s[0] + ky * o->win.d[0] - o->win.pb[0];
                    int64_t ix = ox * o->win.s[1] + kx * o->win.d[1] - o->win.pb[1];
                    if (iy < 0 || iy >= o->H || ix < 0 || ix >= o->W) {
                        A[k * P + p] = 0;
                        F[k * P + p] = 0;
                    } else {
                        int64_t off = ((nb * o->C + grp * o->Cg + ic) * o->H + iy) * o->W + ix;
                        A[k * P + p] = (float)(xq[off] - L->zx);
                        F[k * P + p] = xf[off];
                    }
                }
            }
        }
    }
}

/* sum a[p] b[p] over n: eight partial sums the compiler can keep in one
 * vector register (the descent's inner loop). */
static double dot(const float *a, const float *b, int64_t n)
{
    float s[8] = {0};
    int64_t p, j;
    for (p = 0; p + 8 <= n; p += 8)
        for (j = 0; j < 8; j++)
            s[j] += a[p + j] * b[p + j];
    for (; p < n; p++)
        s[0] += a[p] * b[p];
    return (double)s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}

/* r += k a over n. */
static void axpy(float *r, float k, const float *a, int64_t n)
{
    int64_t p;
    for (p = 0; p < n; p++)
        r[p] += k * a[p];
}

/* The residual of channel c's weights as they are, over positions
 * [from, from + n) of rows of P: r[p] = w_c . F - u qw_c . A. */
static void residual(const GirRoundLayer *L, int64_t c, const float *A, const float *F, int64_t P,
                     int64_t from, int64_t n, float *r)
{
    double u = (double)L->sx * L->sw[c];
    int64_t k, p;
    for (p = 0; p < n; p++)
        r[p] = 0;
    for (k = 0; k < L->per; k++) {
        float wf = L->w[c * L->sc + k * L->sk];
        float wq = (float)(u * L->qw[c * L->sc + k * L->sk]);
        if (wf != 0)
            axpy(r, wf, F + k * P + from, n);
        if (wq != 0)
            axpy(r, -wq, A + k * P + from, n);
    }
}

/* Sum of r[p] over n. */
static double sum(const float *r, int64_t n)
{
    double s = 0;
    int64_t p;
    for (p = 0; p < n; p++)
        s += r[p];
    return s;
}

/* Sum of (r[p] - m)^2 over n. */
static double spread(const float *r, int64_t n, double m)
{
    double s = 0;
    int64_t p;
    for (p = 0; p < n; p++)
        s += ((double)r[p] - m) * ((double)r[p] - m);
    return s;
}

/* Coordinate descent on channel c over the first n positions of rows of P
 * (h: |A_k|^2 over them): qw's entries of c moved in place; the squared
 * error before (*e0) and after (*e1), the mean residual into *mean. */
static void descend(const GirRoundLayer *L, int64_t c, const float *A, const float *F,
                    const double *h, int64_t P, int64_t n, int passes, float *r, double *e0,
                    double *e1, double *mean)
{
    int64_t k;
    double u = (double)L->sx * L->sw[c];
    int pass;
    residual(L, c, A, F, P, 0, n, r);
    *e0 = dot(r, r, n);
    for (pass = 0; pass < passes; pass++) {
        int64_t changed = 0;
        for (k = 0; k < L->per; k++) {
            int8_t *q = &L->qw[c * L->sc + k * L->sk];
            double t = L->wd[c * L->sc + k * L->sk] / L->sw[c], lo = floor(t), hi = ceil(t);
            const float *a = A + k * P;
            double gdot, best = 0, dl;
            int d = 0;
            if (h[k] == 0 || lo == hi)
                continue;
            if (lo < -127)
                lo = -127;
            if (hi > 127)
                hi = 127;
            gdot = dot(r, a, n);
            if (*q + 1 <= hi && (dl = -2 * u * gdot + u * u * h[k]) < best)
                best = dl, d = 1;
            if (*q - 1 >= lo && (dl = 2 * u * gdot + u * u * h[k]) < best)
                best = dl, d = -1;
            /* a move must gain more than the float sums' noise */
            if (d == 0 || best > -1e-6 * *e0)
                continue;
            *q = (int8_t)(*q + d);
            axpy(r, (float)(-d * u), a, n);
            changed++;
        }
        if (!changed)
            break;
    }
    *mean = sum(r, n) / (double)n;
    *e1 = spread(r, n, 0);
}

/* Channel c's weights back to nearest rounding. */
static void nearest(const GirRoundLayer *L, int64_t c)
{
    int64_t k;
    for (k = 0; k < L->per; k++) {
        long q = lrintf(L->wd[c * L->sc + k * L->sk] / L->sw[c]);
        L->qw[c * L->sc + k * L->sk] = (int8_t)(q > 127 ? 127 : q < -127 ? -127 : q);
    }
}

/* Channel c rounded: learned on all P positions, or, with a check part
 * (the positions from Pf on, other inputs than the fit's), learned on the
 * fit part first and kept only when the check part's error (each bias
 * being the fit part's mean residual) is lower than nearest's, then
 * learned again on all P; else nearest.  L->bias[c] takes the mean
 * residual over all P.  Returns the weights moved off nearest; *kept 1
 * when the check kept the channel nearest. */
static int64_t round_channel(const GirRoundLayer *L, int64_t c, const float *A, const float *F,
                             const double *hfit, const double *hall, int64_t P, int64_t Pf,
                             int passes, float *r, double *e0, double *e1, int *kept)
{
    int64_t k, moved = 0;
    double mean, f0, f1;
    *kept = 0;
    if (Pf < P) {
        double mn, ml, cn, cl;
        residual(L, c, A, F, P, 0, Pf, r);
        mn = sum(r, Pf) / (double)Pf;
        residual(L, c, A, F, P, Pf, P - Pf, r);
        cn = spread(r, P - Pf, mn);
        descend(L, c, A, F, hfit, P, Pf, passes, r, &f0, &f1, &ml);
        residual(L, c, A, F, P, Pf, P - Pf, r);
        cl = spread(r, P - Pf, ml);
        nearest(L, c);
        if (cl >= cn) {
            *kept = 1;
            passes = 0;
        }
    }
    descend(L, c, A, F, hall, P, P, passes, r, e0, e1, &mean);
    L->bias[c] = mean;
    for (k = 0; k < L->per; k++) {
        long q = lrintf(L->wd[c * L->sc + k * L->sk] / L->sw[c]);
        if (q > 127)
            q = 127;
        if (q < -127)
            q = -127;
        moved += L->qw[c * L->sc + k * L->sk] != q;
    }
    return moved;
}

int gir_rounder_layer(GirRounder *r, const GirGraph *q, GirRoundLayer *L, GirError *e)
{
    GirRoundOpts *ro = r->ro;
    GirArena *tmp;
    Geo o;
    int64_t total, pimg, P, Pf, grp, c, k, moved = 0, nkept = 0;
    double e0 = 0, e1 = 0;
    if (r->nin < 1 || !geometry(r, L, &o))
        return 0;
    total = o.conv ? o.N * o.OH * o.OW : o.rows;
    pimg = ro->positions / r->nin;
    if (pimg * r->nin * L->per > MAX_PATCH)
        pimg = MAX_PATCH / L->per / r->nin;
    if (pimg > total)
        pimg = total;
    if (pimg < 1)
        pimg = 1;
    P = pimg * r->nin;
    /* fewer positions than weights per channel: the fit would only learn the
     * calibration inputs */
    if (P < L->per)
        return 0;
    /* checked: fit on the even-numbered inputs, check on the others */
    Pf = ro->check && r->nin > 1 ? (r->nin + 1) / 2 * pimg : P;
    if (advance(r, q, L->node, e) < 0)
        return -1;
    tmp = gir_arena_new();
    {
        float *A = gir_arena_alloc(tmp, sizeof *A * (size_t)(L->per * P));
        float *F = gir_arena_alloc(tmp, sizeof *F * (size_t)(L->per * P));
        double *hfit = gir_arena_alloc(tmp, sizeof *hfit * (size_t)(L->per + 1));
        double *hall = gir_arena_alloc(tmp, sizeof *hall * (size_t)(L->per + 1));
        float *res = gir_arena_alloc(tmp, sizeof *res * (size_t)(P + 1));
        for (grp = 0; grp < o.G; grp++) {
            patches(r, L, &o, (int)grp, pimg, A, F);
            for (k = 0; k < L->per; k++) {
                double s = 0;
                int64_t p;
                for (p = 0; p < P; p++) {
                    if (p == Pf)
                        hfit[k] = s;
                    s += (double)A[k * P + p] * A[k * P + p];
                }
                hall[k] = s;
                if (Pf == P)
                    hfit[k] = s;
            }
            for (c = grp * o.Mg; c < (grp + 1) * o.Mg; c++) {
                double a0, a1;
                int kept;
                moved += round_channel(L, c, A, F, hfit, hall, P, Pf, ro->passes, res, &a0, &a1,
                                       &kept);
                nkept += kept;
                e0 += a0;
                e1 += a1;
            }
        }
    }
    gir_arena_free(tmp);
    L->mse_nearest = e0 / (double)(P * L->nch);
    L->mse_learned = e1 / (double)(P * L->nch);
    L->moved = moved;
    L->kept = nkept;
    return 1;
}
