/*
 * Calibration: run the fp32 interpreter on calibration inputs and keep, for
 * every f32 value of the graph, a histogram of |x|; then pick each value's
 * clipping threshold by min-max, a percentile, or least KL divergence
 * (TensorRT's entropy calibration, also TVM's).
 *
 * The histogram has HBINS bins over [0, range).  range starts at the first
 * run's largest |x| and doubles (adjacent bins merged in pairs, which is
 * exact) whenever a later run exceeds it, so one pass over the inputs is
 * enough and every run is weighted alike.
 *
 * The values come from the interpreter, or from a runner the caller sets
 * (kiln quantize sets the CPU back end's, which computes the same values
 * within 1e-5 relative L2 at a fraction of the time).
 *
 * Values whose int8 form leaves the int8 graph at once (gir_quant_leaves_int8:
 * a head conv read only by DequantizeLinear) also keep each channel's
 * largest |x| (axis 1), for per-channel output scales: a channel's threshold
 * is the smaller of its largest |x| and the whole tensor's threshold by the
 * method.  A histogram per channel, judged on its own by KL, clips too hard:
 * YOLOv3-tiny's 26x26 head on 8 inputs (5408 values a channel) falls from
 * cosine 0.9988 to 0.9845 with it, and the 255 KL searches take 13 s.
 *
 * The input of every Conv (rank 4) and Gemm (rank 2, not transposed) also
 * keeps each channel's sum (axis 1) and count, for bias correction: the
 * quantizer moves the mean of the error its int8 weights make into the
 * bias (gir_quantize_bc).
 *
 * Around the nodes the quantizer makes one LutI8 table of (a chain of
 * functions of one value, gir_quant_lut_chain), two thresholds follow from
 * the function as well: the chain's result, where only convs read it, is
 * held to its least-MSE threshold; the chain's input is clipped to where
 * the table's output still changes, from each value's signed range (kept
 * beside the histogram).  On PP-OCRv4's detector the two together moved the
 * int8 output's cosine from 0.891 to 0.936 (docs/ocr.md).
 *
 * Needs: a graph that gir_run accepts.  The statistics point into it.
 */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graphir/graphir.h"

#define HBINS 2048 /* histogram bins (TensorRT's choice) */
#define QLEVELS 128 /* int8 magnitudes 0..127 */

/* One value's statistics. */
typedef struct {
    double absmax;  /* largest |x| seen */
    double lo, hi;  /* smallest and largest finite x seen (lo > hi until one) */
    double range;   /* upper edge of the histogram; 0 until a nonzero x */
    uint64_t *hist; /* HBINS counts of |x| in [i, i+1) * range / HBINS */
    uint64_t total; /* elements seen */
} ValStats;

struct GirCalib {
    const GirGraph *g;   /* the graph run */
    double **chmax;      /* per value id: its channels' largest |x| (axis 1), or NULL */
    int *nch;            /* per value id: entries of chmax (dims[1]) */
    double **chsum;      /* per value id: its channels' sums (axis 1), or NULL */
    int *nsum;           /* per value id: entries of chsum */
    double *chcnt;       /* per value id: elements summed per channel */
    GirGraph view;       /* g with the watched values as its outputs */
    GirCalibRunner run;  /* what runs view; NULL: the interpreter */
    void *run_ctx;       /* its context */
    ValStats *st;        /* per value id; hist NULL for non-f32 values */
    int runs;            /* gir_calib_add calls that succeeded */
    int *watch;          /* value ids recorded, in order */
    int nwatch;          /* count of watch */
};

/* Keep the largest |x| of each channel (axis 1) of value v as well. */
static void want_channels(GirCalib *c, int v)
{
    int64_t n = c->g->vals[v].type.dims[1];
    c->chmax[v] = calloc((size_t)n, sizeof *c->chmax[v]);
    if (!c->chmax[v])
        gir_die("out of memory");
    c->nch[v] = (int)n;
}

/* Keep the sum of each channel (axis 1) of value v as well. */
static void want_sums(GirCalib *c, int v)
{
    int64_t n = c->g->vals[v].type.dims[1];
    if (c->chsum[v] || n < 1)
        return;
    c->chsum[v] = calloc((size_t)n, sizeof *c->chsum[v]);
    if (!c->chsum[v])
        gir_die("out of memory");
    c->nsum[v] = (int)n;
}

/* The data input of node n when bias correction can use its channel means:
 * a Conv on a static rank-4 f32 value, a Gemm on a rank-2 one without
 * transA; else -1. */
static int mean_input(const GirGraph *g, const GirNode *n)
{
    const GirValue *x;
    if ((n->op != GIR_OP_CONV && n->op != GIR_OP_GEMM) || n->nin < 2 || n->in[0] < 0)
        return -1;
    x = &g->vals[n->in[0]];
    if (x->kind == GIR_VAL_CONST || x->type.dtype != GIR_DT_F32 || !gir_type_is_static(&x->type))
        return -1;
    if (n->op == GIR_OP_CONV ? x->type.rank != 4 || x->layout == GIR_LAYOUT_NHWC
                             : x->type.rank != 2 || gir_attr_int(n, "transA", 0) != 0)
        return -1;
    return n->in[0];
}

GirCalib *gir_calib_new(const GirGraph *g)
{
    GirCalib *c = calloc(1, sizeof *c);
    int i;
    if (!c)
        gir_die("out of memory");
    c->g = g;
    c->st = calloc((size_t)g->nval + 1, sizeof *c->st);
    c->watch = calloc((size_t)g->nval + 1, sizeof *c->watch);
    c->chmax = calloc((size_t)g->nval + 1, sizeof *c->chmax);
    c->nch = calloc((size_t)g->nval + 1, sizeof *c->nch);
    c->chsum = calloc((size_t)g->nval + 1, sizeof *c->chsum);
    c->nsum = calloc((size_t)g->nval + 1, sizeof *c->nsum);
    c->chcnt = calloc((size_t)g->nval + 1, sizeof *c->chcnt);
    if (!c->st || !c->watch || !c->chmax || !c->nch || !c->chsum || !c->nsum || !c->chcnt)
        gir_die("out of memory");
    for (i = 0; i < g->nval; i++) {
        const GirValue *v = &g->vals[i];
        if (v->kind == GIR_VAL_CONST || v->type.dtype != GIR_DT_F32)
            continue;
        c->st[i].hist = calloc(HBINS, sizeof *c->st[i].hist);
        if (!c->st[i].hist)
            gir_die("out of memory");
        c->st[i].lo = INFINITY;
        c->st[i].hi = -INFINITY;
        c->watch[c->nwatch++] = i;
        if (gir_quant_leaves_int8(g, i) || gir_quant_chscale_candidate(g, i))
            want_channels(c, i);
    }
    for (i = 0; i < g->nnode; i++) {
        int v = mean_input(g, &g->nodes[i]);
        if (v >= 0 && c->st[v].hist)
            want_sums(c, v);
    }
    /* Every watched value becomes an output of a view of the graph, so one
     * run hands them all back. */
    c->view = *g;
    c->view.outputs = c->watch;
    c->view.noutput = c->nwatch;
    return c;
}

void gir_calib_set_runner(GirCalib *c, GirCalibRunner run, void *ctx)
{
    c->run = run;
    c->run_ctx = ctx;
}

const GirGraph *gir_calib_view(const GirCalib *c) { return &c->view; }

void gir_calib_free(GirCalib *c)
{
    int i;
    if (!c)
        return;
    for (i = 0; i < c->g->nval; i++) {
        free(c->st[i].hist);
        free(c->chmax[i]);
        free(c->chsum[i]);
    }
    free(c->chsum);
    free(c->nsum);
    free(c->chcnt);
    free(c->chmax);
    free(c->nch);
    free(c->st);
    free(c->watch);
    free(c);
}

int gir_calib_runs(const GirCalib *c) { return c->runs; }

/* Add one tensor's |x| to s, widening the histogram first if needed.  NaN
 * and infinities are left out: they have no bin, and a range of infinity
 * would scale every bin to nothing. */
static void record(ValStats *s, const float *x, int64_t n)
{
    double mx, scale;
    int64_t i, finite = 0;
    uint32_t top = 0;
    float lo = (float)s->lo, hi = (float)s->hi;
    /* The signed range; an infinity fails the bound check, a NaN both. */
    for (i = 0; i < n; i++) {
        float v = x[i];
        lo = v < lo && v >= -FLT_MAX ? v : lo;
        hi = v > hi && v <= FLT_MAX ? v : hi;
    }
    s->lo = lo;
    s->hi = hi;
    /* The largest finite |x| from the bit patterns: a float without its
     * sign bit orders as its magnitude does, and is finite below the
     * exponent of all ones.  Exact, branch-free, so the compiler vectorizes
     * it. */
    for (i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &x[i], sizeof b);
        b &= 0x7fffffffu;
        b = b < 0x7f800000u ? b : 0;
        top = b > top ? b : top;
    }
    {
        float f;
        memcpy(&f, &top, sizeof f);
        mx = (double)f;
    }
    if (mx > s->absmax)
        s->absmax = mx;
    if (mx == 0) {
        for (i = 0; i < n; i++)
            finite += isfinite(x[i]) != 0;
        s->total += (uint64_t)finite;
        s->hist[0] += (uint64_t)finite;
        return;
    }
    if (s->range == 0)
        s->range = mx;
    while (mx > s->range) {
        int b;
        for (b = 0; b < HBINS / 2; b++)
            s->hist[b] = s->hist[2 * b] + s->hist[2 * b + 1];
        memset(s->hist + HBINS / 2, 0, sizeof *s->hist * (HBINS / 2));
        s->range *= 2;
    }
    scale = HBINS / s->range;
    for (i = 0; i < n; i++) {
        double a = fabs((double)x[i]);
        int64_t b;
        if (!isfinite(a))
            continue;
        finite++;
        b = (int64_t)(a * scale);
        s->hist[b >= HBINS ? HBINS - 1 : b]++;
    }
    s->total += (uint64_t)finite;
}

/* Per channel k (axis 1) of t, over its finite values: raise mx[k] to the
 * largest |x| (mx NULL: not kept), add x to sum[k] and the elements of one
 * channel to *cnt (sum NULL: not kept). */
static void record_channels(double *mx, double *sum, double *cnt, int n, const GirTensor *t)
{
    const float *x = t->data;
    int64_t inner = 1, b, k, j;
    int d;
    if (t->type.rank < 2 || t->type.dims[1] != n)
        return;
    for (d = 2; d < t->type.rank; d++)
        inner *= t->type.dims[d];
    for (b = 0; b < t->type.dims[0]; b++)
        for (k = 0; k < n; k++) {
            double acc = 0;
            for (j = 0; j < inner; j++) {
                double v = (double)x[(b * n + k) * inner + j], a = fabs(v);
                if (!isfinite(v))
                    continue;
                acc += v;
                if (mx && a > mx[k])
                    mx[k] = a;
            }
            if (sum)
                sum[k] += acc;
        }
    if (sum)
        *cnt += (double)(t->type.dims[0] * inner);
}

/* One thread's share of a run's statistics: the watched values i with
 * part[i] == which. */
typedef struct {
    GirCalib *c;
    const GirTensor *outs;
    const unsigned char *part;
    int which;
} RecordJob;

static void *record_part(void *arg)
{
    RecordJob *j = arg;
    GirCalib *c = j->c;
    int i;
    for (i = 0; i < c->nwatch; i++)
        if (j->part[i] == j->which && j->outs[i].type.dtype == GIR_DT_F32) {
            int v = c->watch[i];
            const GirTensor *t = &j->outs[i];
            record(&c->st[v], t->data, gir_type_numel(&t->type));
            if (c->chmax[v])
                record_channels(c->chmax[v], NULL, NULL, c->nch[v], t);
            if (c->chsum[v])
                record_channels(NULL, c->chsum[v], &c->chcnt[v], c->nsum[v], t);
        }
    return NULL;
}

/* The statistics of one run's values, split over two threads by element
 * count (each value's statistics belong to one thread, so the result is
 * the same as one thread's); one thread when a second cannot start. */
static void record_all(GirCalib *c, const GirTensor *outs)
{
    unsigned char *part = calloc((size_t)c->nwatch + 1, 1);
    RecordJob jobs[2];
    pthread_t th;
    int64_t load[2] = {0, 0};
    int i, k;
    if (!part)
        gir_die("out of memory");
    for (i = 0; i < c->nwatch; i++) {
        k = load[1] < load[0];
        part[i] = (unsigned char)k;
        load[k] += gir_type_numel(&outs[i].type);
    }
    for (k = 0; k < 2; k++) {
        jobs[k].c = c;
        jobs[k].outs = outs;
        jobs[k].part = part;
        jobs[k].which = k;
    }
    if (pthread_create(&th, NULL, record_part, &jobs[1]) == 0) {
        record_part(&jobs[0]);
        pthread_join(th, NULL);
    } else {
        record_part(&jobs[0]);
        record_part(&jobs[1]);
    }
    free(part);
}

int gir_calib_add(GirCalib *c, const GirTensor *inputs, GirError *e)
{
    GirArena *a = gir_arena_new();
    GirTensor *outs = gir_arena_alloc(a, sizeof *outs * (size_t)(c->nwatch + 1));
    int rc;
    rc = c->run ? c->run(c->run_ctx, &c->view, inputs, outs, a, e)
                : gir_run(&c->view, inputs, outs, a, e);
    if (rc < 0) {
        gir_arena_free(a);
        return -1;
    }
    record_all(c, outs);
    gir_arena_free(a);
    c->runs++;
    return 0;
}

/* The smallest bin edge below which a fraction pct/100 of the elements lie. */
static double percentile_threshold(const ValStats *s, double pct)
{
    uint64_t want = (uint64_t)ceil((double)s->total * pct / 100.0), acc = 0;
    int b;
    for (b = 0; b < HBINS; b++) {
        acc += s->hist[b];
        if (acc >= want)
            return (b + 1) * s->range / HBINS;
    }
    return s->range;
}

/*
 * TensorRT's entropy calibration: for each candidate cut i (QLEVELS..HBINS
 * bins), P is the histogram up to i with everything beyond folded into bin
 * i-1, Q is P squeezed into QLEVELS levels and spread back evenly over the
 * bins that were nonzero; the cut with least KL(P || Q) wins and the
 * threshold is the cut's upper edge.
 */
static double kl_threshold(const ValStats *s)
{
    double p[HBINS], q[HBINS];
    double best = INFINITY;
    int last = HBINS, i, bestcut = HBINS, b, k;
    while (last > 0 && s->hist[last - 1] == 0)
        last--;
    if (last <= QLEVELS)
        return last * s->range / HBINS;
    for (i = QLEVELS; i <= last; i++) {
        double psum = 0, qsum = 0, kl = 0, outl = 0;
        for (b = 0; b < i; b++)
            p[b] = (double)s->hist[b];
        for (b = i; b < HBINS; b++)
            outl += (double)s->hist[b];
        p[i - 1] += outl;
        /* Q: the unfolded bins summed per level, spread over the level's
         * bins that are nonzero in P. */
        for (k = 0; k < QLEVELS; k++) {
            int lo = (int)((int64_t)k * i / QLEVELS), hi = (int)((int64_t)(k + 1) * i / QLEVELS);
            double sum = 0;
            int nz = 0;
            for (b = lo; b < hi; b++) {
                sum += (double)s->hist[b];
                nz += p[b] != 0;
            }
            for (b = lo; b < hi; b++)
                q[b] = p[b] != 0 ? sum / nz : 0;
        }
        for (b = 0; b < i; b++) {
            psum += p[b];
            qsum += q[b];
        }
        for (b = 0; b < i; b++) {
            /* A bin P has and Q lost (outliers folded into an empty level)
             * gets a tiny weight instead of an infinite divergence. */
            double pb = p[b] / psum, qb = q[b] > 0 ? q[b] / qsum : 1e-12;
            if (p[b] != 0)
                kl += pb * log(pb / qb);
        }
        if (kl < best) {
            best = kl;
            bestcut = i;
        }
    }
    return bestcut * s->range / HBINS;
}

static double mse_threshold(const ValStats *s);
static double hist_mse(const ValStats *s, double t);

/*
 * The threshold of one statistics by method m.  KL's cut is dropped for
 * the least-MSE one when it costs more than KL_MSE_GUARD times that one's
 * squared error: on a histogram of a few tall spikes (a conv over a text
 * line's flat background) the divergence jumps from cut to cut and its
 * least can clip a fifth of the values (PP-OCRv4 rec's first conv: 4.7%
 * clipped, 730 times the least error, and every later layer below 10 dB).
 */
#define KL_MSE_GUARD 4.0
static float stat_threshold(const ValStats *s, GirCalibMethod m, double percentile)
{
    double t;
    if (s->absmax == 0 || m == GIR_CALIB_MINMAX)
        t = s->absmax;
    else if (m == GIR_CALIB_PERCENTILE)
        t = percentile_threshold(s, percentile);
    else if (m == GIR_CALIB_MSE)
        t = mse_threshold(s);
    else {
        double tm = mse_threshold(s);
        t = kl_threshold(s);
        if (hist_mse(s, t) > KL_MSE_GUARD * hist_mse(s, tm))
            t = tm;
    }
    if (t > s->absmax)
        t = s->absmax;
    return (float)t;
}

/*
 * The threshold with least mean squared int8 error over the histogram
 * (bin centres): rounding noise t^2 / (12 * 127^2) for each value below t,
 * (|x| - t)^2 for each value above it.  One pass from the top with running
 * sums of the counts, x and x^2 above the cut.
 */
/* The squared int8 error of threshold t over the histogram, as
 * mse_threshold counts it. */
static double hist_mse(const ValStats *s, double t)
{
    double w = s->range / HBINS, e = 0;
    int i;
    for (i = 0; i < HBINS; i++) {
        double x = (i + 0.5) * w, c = (double)s->hist[i];
        e += x > t ? c * (x - t) * (x - t) : c * t * t / (12.0 * 127 * 127);
    }
    return e;
}

static double mse_threshold(const ValStats *s)
{
    double w = s->range / HBINS, n = 0, sx = 0, sxx = 0, best = INFINITY, bt = s->absmax;
    int i;
    for (i = HBINS; i >= 1; i--) {
        double t = i * w, e;
        if (i < HBINS) {
            double c = (double)s->hist[i], x = (i + 0.5) * w;
            n += c;
            sx += c * x;
            sxx += c * x * x;
        }
        e = ((double)s->total - n) * t * t / (12.0 * 127 * 127) + sxx - 2 * t * sx + t * t * n;
        if (e < best) {
            best = e;
            bt = t;
        }
    }
    return bt < s->absmax ? bt : s->absmax;
}

/* 1 when value v of g is read by Conv nodes only (not a graph output). */
static int read_by_convs_only(const GirGraph *g, int v)
{
    int i, j, any = 0;
    for (i = 0; i < g->noutput; i++)
        if (g->outputs[i] == v)
            return 0;
    for (i = 0; i < g->nnode; i++)
        for (j = 0; j < g->nodes[i].nin; j++)
            if (g->nodes[i].in[j] == v) {
                if (g->nodes[i].op != GIR_OP_CONV)
                    return 0;
                any = 1;
            }
    return any;
}

/* The int8 code of the chain's result on x, on output scale sy, as the
 * quantizer rounds a table entry. */
static double lut_code(const GirGraph *g, const int *chain, int n, double x, double sy)
{
    double q = rint(gir_quant_lut_eval(g, chain, n, x) / sy);
    return isnan(q) ? 0 : q < -128 ? -128 : q > 127 ? 127 : q;
}

/* Between x_in, where the chain's code is q, and x_out, where it is not:
 * the point nearest x_out still at q, to 1e-6 of the distance (bisection). */
static double flat_edge(const GirGraph *g, const int *chain, int n, double sy, double q,
                        double x_in, double x_out)
{
    int k;
    for (k = 0; k < 20; k++) {
        double mid = 0.5 * (x_in + x_out);
        if (lut_code(g, chain, n, mid, sy) == q)
            x_in = mid;
        else
            x_out = mid;
    }
    return x_in;
}

/*
 * The threshold of value v read by a LutI8 chain (chain[0..n-1]) whose
 * result has threshold tout: where the table's output code stays the one at
 * the lower end of v's range [lo, hi] (clipped to [-t, t]) up to some x_a,
 * and the one at the upper end from some x_b on, the input codes there are
 * wasted; v's threshold shrinks to max(|x_a|, |x_b|) (never grows), and a
 * value beyond it saturates onto an input code the table maps to that same
 * output.  HardSigmoid is flat outside [-2.5, 2.5] (Paddle's slope 0.2): a
 * conv ranging to +-52 before one left 15 of the table's 256 entries on the
 * slope (PP-OCRv4 det); HardSwish is flat below -3.
 */
#define LUT_SAMPLES 4096
static float lut_input_threshold(const GirGraph *g, const ValStats *s, float t, const int *chain,
                                 int n, float tout)
{
    double lo = s->lo > -t ? s->lo : -t, hi = s->hi < t ? s->hi : t, sy = tout / 127.0;
    double step, qlo, qhi, xa, xb;
    int k;
    if (!(lo < hi) || !(tout > 0))
        return t;
    step = (hi - lo) / LUT_SAMPLES;
    qlo = lut_code(g, chain, n, lo, sy);
    qhi = lut_code(g, chain, n, hi, sy);
    for (k = 1; k <= LUT_SAMPLES && lut_code(g, chain, n, lo + k * step, sy) == qlo; k++)
        ;
    if (k > LUT_SAMPLES)
        return t; /* one code over the whole range */
    xa = flat_edge(g, chain, n, sy, qlo, lo + (k - 1) * step, lo + k * step);
    for (k = 1; k < LUT_SAMPLES && lut_code(g, chain, n, hi - k * step, sy) == qhi; k++)
        ;
    xb = flat_edge(g, chain, n, sy, qhi, hi - (k - 1) * step, hi - k * step);
    xa = fabs(xa) > fabs(xb) ? fabs(xa) : fabs(xb);
    return xa < t ? (float)xa : t;
}

void gir_calib_thresholds(const GirCalib *c, GirCalibMethod m, double percentile,
                          float *thresholds)
{
    const GirGraph *g = c->g;
    int i, chain[64], n;
    for (i = 0; i < g->nval; i++) {
        const ValStats *s = &c->st[i];
        thresholds[i] = 0;
        if (!s->hist || s->total == 0)
            continue;
        thresholds[i] = stat_threshold(s, m, percentile);
    }
    /* A LutI8 chain's result read by convs only: at most the least-MSE
     * threshold, whatever the method.  The table saturates for free, and
     * these values (HardSwish outputs) are long-tailed: a conv sums many of
     * them, so rounding every one finer costs less than clipping the few
     * largest.  Not before a pool or a graph output, whose means the
     * clipping would shift (docs/quant.md has the figures). */
    for (i = 0; i < g->nval; i++) {
        int o;
        if (!c->st[i].hist || (n = gir_quant_lut_chain(g, i, chain, 64)) == 0)
            continue;
        o = g->nodes[chain[n - 1]].out[0];
        if (c->st[o].hist && c->st[o].total > 0 && read_by_convs_only(g, o)) {
            float t = (float)mse_threshold(&c->st[o]);
            if (t > 0 && t < thresholds[o])
                thresholds[o] = t;
        }
    }
    /* Then each chain's input: the codes where its table is flat go. */
    for (i = 0; i < g->nval; i++) {
        const ValStats *s = &c->st[i];
        if (!s->hist || s->total == 0 || thresholds[i] <= 0 ||
            (n = gir_quant_lut_chain(g, i, chain, 64)) == 0)
            continue;
        thresholds[i] = lut_input_threshold(g, s, thresholds[i], chain, n,
                                            thresholds[g->nodes[chain[n - 1]].out[0]]);
    }
}

int gir_calib_channel_thresholds(const GirCalib *c, int v, GirCalibMethod m, double percentile,
                                 float *thresholds)
{
    float t;
    int k;
    if (!c->chmax[v] || c->st[v].total == 0)
        return 0;
    t = stat_threshold(&c->st[v], m, percentile);
    for (k = 0; k < c->nch[v]; k++)
        thresholds[k] = c->chmax[v][k] < t ? (float)c->chmax[v][k] : t;
    return c->nch[v];
}

int gir_calib_channel_means(const GirCalib *c, int v, double *means)
{
    int k;
    if (v < 0 || v >= c->g->nval || !c->chsum[v] || c->chcnt[v] <= 0)
        return 0;
    for (k = 0; k < c->nsum[v]; k++)
        means[k] = c->chsum[v][k] / c->chcnt[v];
    return c->nsum[v];
}
