/*
 * RUN: test_int8_kernels CASE
 * The int8 interpreter against plain reference loops and kiln_requant on
 * seeded random data: each case must agree bit for bit.
 *   conv    Conv 2-D over strides, pads, dilations, groups, LeakyReLU/ReLU/
 *           identity multipliers and Clip bounds
 *   gemm    Gemm with transB and bias
 *   add     Add on i8 with broadcasting
 *   avgpool AveragePool and GlobalAveragePool
 *   requant Requantize, QuantizeLinear round half to even, DequantizeLinear
 *   calib   calibration thresholds on a long-tailed tensor: mse cuts below
 *           the largest |x|, with less int8 error on the data than minmax and
 *           within 2% of the least error of any threshold; kl and percentile
 *           cut below it too
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphir/graphir.h"
#include "graphir/requant.h"

static uint64_t rng = 0x1234567u;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* Uniform integer in [lo, hi]. */
static int64_t urange(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

static GirType ty(GirDType d, int rank, const int64_t *dims)
{
    GirType t;
    memset(&t, 0, sizeof t);
    t.dtype = d;
    t.rank = rank;
    memcpy(t.dims, dims, sizeof *dims * (size_t)rank);
    return t;
}

static void fill_i8(int8_t *p, int64_t n)
{
    int64_t i;
    for (i = 0; i < n; i++)
        p[i] = (int8_t)urange(-128, 127);
}

/* Run a one-node graph with one runtime input x; returns the output. */
static int run1(GirGraph *g, const GirTensor *x, GirArena *a, GirTensor *y)
{
    GirError e;
    if (g->noutput == 0)
        gir_add_output(g, g->nodes[g->nnode - 1].out[0]);
    if (gir_infer_shapes(g, &e) < 0 || gir_verify(g, &e) < 0 || gir_run(g, x, y, a, &e) < 0) {
        fprintf(stderr, "%s\n", e.msg);
        return -1;
    }
    return 0;
}

static int conv_case(int trial)
{
    int64_t N = 1 + trial % 2, G = (trial % 3 == 2) ? 2 : 1, Cg = urange(1, 4), Mg = urange(1, 5);
    int64_t C = Cg * G, M = Mg * G, H = urange(3, 9), W = urange(3, 11);
    int64_t KH = urange(1, 3), KW = urange(1, 3), sy = urange(1, 2), sx = urange(1, 3);
    int64_t dy = urange(1, 2), dx = urange(1, 2), pads[4], OH, OW;
    int64_t xd[4], wd[4], bd[1], yd[4], strides[2], dil[2], ks[2];
    int64_t *mp = calloc((size_t)M, sizeof *mp), *mn = calloc((size_t)M, sizeof *mn);
    int64_t *sh = calloc((size_t)M, sizeof *sh), amin = urange(-128, -1), amax = urange(0, 127);
    int8_t *x, *w, *ref;
    int32_t *b;
    int act = trial % 3, clip = trial % 4 == 3, i, rc = 0;
    int64_t nb, oc, oy, ox, ic, ky, kx;
    GirGraph *g = gir_graph_new("conv");
    GirArena *a = gir_arena_new();
    GirTensor in, out;
    int vx, vw, vb, vy, node, ins[3];
    for (i = 0; i < 4; i++)
        pads[i] = urange(0, 2);
    OH = (H + pads[0] + pads[2] - ((KH - 1) * dy + 1)) / sy + 1;
    OW = (W + pads[1] + pads[3] - ((KW - 1) * dx + 1)) / sx + 1;
    if (OH < 1 || OW < 1) {
        gir_graph_free(g);
        gir_arena_free(a);
        free(mp), free(mn), free(sh);
        return 0;
    }
    xd[0] = N, xd[1] = C, xd[2] = H, xd[3] = W;
    wd[0] = M, wd[1] = Cg, wd[2] = KH, wd[3] = KW;
    bd[0] = M;
    x = gir_arena_alloc(a, (size_t)(N * C * H * W));
    w = gir_arena_alloc(a, (size_t)(M * Cg * KH * KW));
    b = gir_arena_alloc(a, sizeof *b * (size_t)M);
    ref = gir_arena_alloc(a, (size_t)(N * M * OH * OW));
    fill_i8(x, N * C * H * W);
    fill_i8(w, M * Cg * KH * KW);
    for (oc = 0; oc < M; oc++) {
        b[oc] = (int32_t)urange(-20000, 20000);
        mp[oc] = urange(1, KILN_RQ_M_MAX);
        mn[oc] = act == 0 ? mp[oc] : act == 1 ? 0 : (mp[oc] * 13 + 50) / 100;
        sh[oc] = urange(8, 20);
    }
    vx = gir_add_value(g, "x", GIR_VAL_INPUT, ty(GIR_DT_I8, 4, xd), gir_loc_none());
    gir_add_input(g, vx);
    vw = gir_add_const(g, "w", ty(GIR_DT_I8, 4, wd), w, gir_loc_none());
    vb = gir_add_const(g, "b", ty(GIR_DT_I32, 1, bd), b, gir_loc_none());
    yd[0] = -1;
    vy = gir_add_value(g, "y", GIR_VAL_NODE, ty(GIR_DT_UNDEF, 0, yd), gir_loc_none());
    ins[0] = vx, ins[1] = vw, ins[2] = vb;
    node = gir_add_node(g, GIR_OP_CONV, "conv", ins, 3, &vy, 1, gir_loc_none());
    strides[0] = sy, strides[1] = sx, dil[0] = dy, dil[1] = dx, ks[0] = KH, ks[1] = KW;
    gir_set_attr_ints(g, node, "kernel_shape", ks, 2);
    gir_set_attr_ints(g, node, "strides", strides, 2);
    gir_set_attr_ints(g, node, "dilations", dil, 2);
    gir_set_attr_ints(g, node, "pads", pads, 4);
    gir_set_attr_int(g, node, "group", G);
    gir_set_attr_ints(g, node, "rq_m_pos", mp, (int)M);
    gir_set_attr_ints(g, node, "rq_m_neg", mn, (int)M);
    gir_set_attr_ints(g, node, "rq_shift", sh, (int)M);
    if (clip) {
        gir_set_attr_ints(g, node, "act_min", &amin, 1);
        gir_set_attr_ints(g, node, "act_max", &amax, 1);
    }
    /* The reference: the definition, one output at a time. */
    for (nb = 0; nb < N; nb++)
        for (oc = 0; oc < M; oc++)
            for (oy = 0; oy < OH; oy++)
                for (ox = 0; ox < OW; ox++) {
                    int32_t acc = b[oc];
                    int64_t grp = oc / Mg;
                    int8_t v;
                    for (ic = 0; ic < Cg; ic++)
                        for (ky = 0; ky < KH; ky++)
                            for (kx = 0; kx < KW; kx++) {
                                int64_t iy = oy * sy + ky * dy - pads[0];
                                int64_t ix = ox * sx + kx * dx - pads[1];
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                                    continue;
                                acc += (int32_t)x[((nb * C + grp * Cg + ic) * H + iy) * W + ix] *
                                       w[((oc * Cg + ic) * KH + ky) * KW + kx];
                            }
                    v = kiln_requant(acc, (int32_t)mp[oc], (int32_t)mn[oc], (int)sh[oc]);
                    if (clip)
                        v = v < amin ? (int8_t)amin : v > amax ? (int8_t)amax : v;
                    ref[((nb * M + oc) * OH + oy) * OW + ox] = v;
                }
    in.type = ty(GIR_DT_I8, 4, xd);
    in.data = x;
    if (run1(g, &in, a, &out) < 0) {
        rc = -1;
    } else if (gir_type_numel(&out.type) != N * M * OH * OW ||
               memcmp(out.data, ref, (size_t)(N * M * OH * OW)) != 0) {
        fprintf(stderr, "conv trial %d differs (N%lld C%lld M%lld G%lld %lldx%lld k%lldx%lld s%lld,%lld d%lld,%lld)\n",
                trial, (long long)N, (long long)C, (long long)M, (long long)G, (long long)H,
                (long long)W, (long long)KH, (long long)KW, (long long)sy, (long long)sx,
                (long long)dy, (long long)dx);
        rc = -1;
    }
    free(mp), free(mn), free(sh);
    gir_graph_free(g);
    gir_arena_free(a);
    return rc;
}

static int gemm_case(int trial)
{
    int64_t M = urange(1, 5), K = urange(1, 40), N = urange(1, 9), i, j, k;
    int64_t ad[2], bd[2], cd[1], yd[1] = {-1}, tb = 1;
    int64_t *mp = calloc((size_t)N, sizeof *mp), *mn = calloc((size_t)N, sizeof *mn);
    int64_t *sh = calloc((size_t)N, sizeof *sh);
    GirGraph *g = gir_graph_new("gemm");
    GirArena *a = gir_arena_new();
    int8_t *x = gir_arena_alloc(a, (size_t)(M * K)), *w = gir_arena_alloc(a, (size_t)(N * K));
    int8_t *ref = gir_arena_alloc(a, (size_t)(M * N));
    int32_t *c = gir_arena_alloc(a, sizeof *c * (size_t)N);
    int vx, vw, vc, vy, node, ins[3], rc = 0;
    GirTensor in, out;
    (void)trial;
    fill_i8(x, M * K);
    fill_i8(w, N * K);
    for (j = 0; j < N; j++) {
        c[j] = (int32_t)urange(-5000, 5000);
        mp[j] = urange(1, KILN_RQ_M_MAX);
        mn[j] = urange(0, mp[j]);
        sh[j] = urange(10, 20);
    }
    ad[0] = M, ad[1] = K, bd[0] = N, bd[1] = K, cd[0] = N;
    vx = gir_add_value(g, "x", GIR_VAL_INPUT, ty(GIR_DT_I8, 2, ad), gir_loc_none());
    gir_add_input(g, vx);
    vw = gir_add_const(g, "w", ty(GIR_DT_I8, 2, bd), w, gir_loc_none());
    vc = gir_add_const(g, "c", ty(GIR_DT_I32, 1, cd), c, gir_loc_none());
    vy = gir_add_value(g, "y", GIR_VAL_NODE, ty(GIR_DT_UNDEF, 0, yd), gir_loc_none());
    ins[0] = vx, ins[1] = vw, ins[2] = vc;
    node = gir_add_node(g, GIR_OP_GEMM, "gemm", ins, 3, &vy, 1, gir_loc_none());
    gir_set_attr_int(g, node, "transB", tb);
    gir_set_attr_ints(g, node, "rq_m_pos", mp, (int)N);
    gir_set_attr_ints(g, node, "rq_m_neg", mn, (int)N);
    gir_set_attr_ints(g, node, "rq_shift", sh, (int)N);
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            int32_t acc = c[j];
            for (k = 0; k < K; k++)
                acc += (int32_t)x[i * K + k] * w[j * K + k];
            ref[i * N + j] = kiln_requant(acc, (int32_t)mp[j], (int32_t)mn[j], (int)sh[j]);
        }
    in.type = ty(GIR_DT_I8, 2, ad);
    in.data = x;
    if (run1(g, &in, a, &out) < 0 || memcmp(out.data, ref, (size_t)(M * N)) != 0) {
        fprintf(stderr, "gemm differs\n");
        rc = -1;
    }
    free(mp), free(mn), free(sh);
    gir_graph_free(g);
    gir_arena_free(a);
    return rc;
}

static int add_case(int trial)
{
    int64_t ad[4] = {1, 3, 4, 5}, bd[4] = {1, 3, 1, 5}, yd[1] = {-1};
    int64_t ma = urange(-3000, 30000), mb = urange(-3000, 30000), sh = urange(8, 16), i, c, h, w;
    GirGraph *g = gir_graph_new("add");
    GirArena *a = gir_arena_new();
    int8_t *x = gir_arena_alloc(a, 60), *y = gir_arena_alloc(a, 15), *ref = gir_arena_alloc(a, 60);
    int vx, vb, vo, node, ins[2], rc = 0;
    GirTensor in, out;
    (void)trial;
    fill_i8(x, 60);
    fill_i8(y, 15);
    vx = gir_add_value(g, "x", GIR_VAL_INPUT, ty(GIR_DT_I8, 4, ad), gir_loc_none());
    gir_add_input(g, vx);
    vb = gir_add_const(g, "b", ty(GIR_DT_I8, 4, bd), y, gir_loc_none());
    vo = gir_add_value(g, "y", GIR_VAL_NODE, ty(GIR_DT_UNDEF, 0, yd), gir_loc_none());
    ins[0] = vx, ins[1] = vb;
    node = gir_add_node(g, GIR_OP_ADD, "add", ins, 2, &vo, 1, gir_loc_none());
    gir_set_attr_ints(g, node, "rq_m_a", &ma, 1);
    gir_set_attr_ints(g, node, "rq_m_b", &mb, 1);
    gir_set_attr_ints(g, node, "rq_shift", &sh, 1);
    for (i = 0, c = 0; c < 3; c++)
        for (h = 0; h < 4; h++)
            for (w = 0; w < 5; w++, i++)
                ref[i] = kiln_add_requant(x[i], y[c * 5 + w], (int32_t)ma, (int32_t)mb, (int)sh);
    in.type = ty(GIR_DT_I8, 4, ad);
    in.data = x;
    if (run1(g, &in, a, &out) < 0 || memcmp(out.data, ref, 60) != 0) {
        fprintf(stderr, "add differs\n");
        rc = -1;
    }
    gir_graph_free(g);
    gir_arena_free(a);
    return rc;
}

static int avgpool_case(int trial)
{
    int64_t xd[4] = {1, 2, 6, 7}, yd[1] = {-1}, ks[2] = {2, 3}, st[2] = {2, 2};
    int64_t m = urange(1, 30000), sh = urange(10, 18), p, oy, ox, ky, kx, OH = 3, OW = 3;
    GirGraph *g = gir_graph_new("pool");
    GirArena *a = gir_arena_new();
    int8_t *x = gir_arena_alloc(a, 84), *ref = gir_arena_alloc(a, 18);
    int vx, vo, node, rc = 0;
    GirTensor in, out;
    (void)trial;
    fill_i8(x, 84);
    vx = gir_add_value(g, "x", GIR_VAL_INPUT, ty(GIR_DT_I8, 4, xd), gir_loc_none());
    gir_add_input(g, vx);
    vo = gir_add_value(g, "y", GIR_VAL_NODE, ty(GIR_DT_UNDEF, 0, yd), gir_loc_none());
    node = gir_add_node(g, trial ? GIR_OP_GLOBALAVGPOOL : GIR_OP_AVGPOOL, "pool", &vx, 1, &vo, 1,
                        gir_loc_none());
    if (!trial) {
        gir_set_attr_ints(g, node, "kernel_shape", ks, 2);
        gir_set_attr_ints(g, node, "strides", st, 2);
    }
    gir_set_attr_ints(g, node, "rq_m", &m, 1);
    gir_set_attr_ints(g, node, "rq_shift", &sh, 1);
    for (p = 0; p < 2; p++) {
        if (trial) {
            int32_t s = 0;
            for (oy = 0; oy < 42; oy++)
                s += x[p * 42 + oy];
            ref[p] = kiln_requant(s, (int32_t)m, (int32_t)m, (int)sh);
            continue;
        }
        for (oy = 0; oy < OH; oy++)
            for (ox = 0; ox < OW; ox++) {
                int32_t s = 0;
                for (ky = 0; ky < 2; ky++)
                    for (kx = 0; kx < 3; kx++)
                        s += x[p * 42 + (oy * 2 + ky) * 7 + ox * 2 + kx];
                ref[(p * OH + oy) * OW + ox] = kiln_requant(s, (int32_t)m, (int32_t)m, (int)sh);
            }
    }
    in.type = ty(GIR_DT_I8, 4, xd);
    in.data = x;
    if (run1(g, &in, a, &out) < 0 || memcmp(out.data, ref, trial ? 2 : 18) != 0) {
        fprintf(stderr, "%s differs\n", trial ? "GlobalAveragePool" : "AveragePool");
        rc = -1;
    }
    gir_graph_free(g);
    gir_arena_free(a);
    return rc;
}

/* Requantize on all 256 inputs; QuantizeLinear ties round to even and
 * saturate; DequantizeLinear multiplies back. */
static int requant_case(void)
{
    int64_t xd[1] = {256}, yd[1] = {-1}, m = 23456, sh = 15, i;
    GirGraph *g = gir_graph_new("rq");
    GirArena *a = gir_arena_new();
    int8_t *x = gir_arena_alloc(a, 256);
    int vx, vo, node, rc = 0, vs, vz, vq, vf, ins[3];
    float xs[6] = {0.5f, 1.5f, 2.5f, -2.5f, 1000.0f, -1000.0f}, scale = 1.0f;
    int8_t zp = 0, want[6] = {0, 2, 2, -2, 127, -128};
    int64_t fd[1] = {6};
    GirTensor in, out;
    for (i = 0; i < 256; i++)
        x[i] = (int8_t)(i - 128);
    vx = gir_add_value(g, "x", GIR_VAL_INPUT, ty(GIR_DT_I8, 1, xd), gir_loc_none());
    gir_add_input(g, vx);
    vo = gir_add_value(g, "y", GIR_VAL_NODE, ty(GIR_DT_UNDEF, 0, yd), gir_loc_none());
    node = gir_add_node(g, GIR_OP_REQUANTIZE, "rq", &vx, 1, &vo, 1, gir_loc_none());
    gir_set_attr_ints(g, node, "rq_m", &m, 1);
    gir_set_attr_ints(g, node, "rq_shift", &sh, 1);
    in.type = ty(GIR_DT_I8, 1, xd);
    in.data = x;
    if (run1(g, &in, a, &out) < 0)
        rc = -1;
    for (i = 0; rc == 0 && i < 256; i++)
        if (((int8_t *)out.data)[i] != kiln_requant(x[i], (int32_t)m, (int32_t)m, (int)sh)) {
            fprintf(stderr, "Requantize differs at %lld\n", (long long)i);
            rc = -1;
        }
    gir_graph_free(g);
    g = gir_graph_new("q");
    vx = gir_add_value(g, "x", GIR_VAL_INPUT, ty(GIR_DT_F32, 1, fd), gir_loc_none());
    gir_add_input(g, vx);
    vs = gir_add_const(g, "s", ty(GIR_DT_F32, 0, fd), &scale, gir_loc_none());
    vz = gir_add_const(g, "z", ty(GIR_DT_I8, 0, fd), &zp, gir_loc_none());
    vq = gir_add_value(g, "q", GIR_VAL_NODE, ty(GIR_DT_UNDEF, 0, yd), gir_loc_none());
    vf = gir_add_value(g, "f", GIR_VAL_NODE, ty(GIR_DT_UNDEF, 0, yd), gir_loc_none());
    ins[0] = vx, ins[1] = vs, ins[2] = vz;
    gir_add_node(g, GIR_OP_QUANTIZELINEAR, "q", ins, 3, &vq, 1, gir_loc_none());
    ins[0] = vq;
    gir_add_node(g, GIR_OP_DEQUANTIZELINEAR, "f", ins, 3, &vf, 1, gir_loc_none());
    gir_add_output(g, vf);
    in.type = ty(GIR_DT_F32, 1, fd);
    in.data = xs;
    if (rc == 0 && run1(g, &in, a, &out) < 0)
        rc = -1;
    for (i = 0; rc == 0 && i < 6; i++)
        if (((float *)out.data)[i] != (float)want[i]) {
            fprintf(stderr, "QuantizeLinear(%g) = %g, expected %d\n", xs[i],
                    ((float *)out.data)[i], want[i]);
            rc = -1;
        }
    gir_graph_free(g);
    gir_arena_free(a);
    return rc;
}

/* Mean squared error of x against its symmetric int8 form on threshold t
 * (scale t / 127, round half to even, saturating), as the int8 graph holds
 * it. */
static double q_mse(const float *x, int64_t n, double t)
{
    double s = t / 127, e = 0;
    int64_t i;
    for (i = 0; i < n; i++) {
        double q = rint(x[i] / s);
        q = q > 127 ? 127 : q < -127 ? -127 : q;
        e += (x[i] - q * s) * (x[i] - q * s);
    }
    return e / (double)n;
}

/* A long-tailed tensor (HardSwish-like: most values small, a few large;
 * Pareto, tail index 3, a tenth negative and above -0.3) through an
 * Identity, calibrated on four
 * inputs: mse's threshold is below the largest |x| and its int8 error on
 * the data is below minmax's and within 2% of the least over a grid of
 * 400 thresholds; kl and percentile cut below the largest |x| as well. */
static int calib_case(void)
{
    int64_t d[4] = {1, 8, 32, 32}, n = 8 * 32 * 32, i;
    GirGraph *g = gir_graph_new("calib");
    GirArena *a = gir_arena_new();
    float *x = gir_arena_alloc(a, sizeof *x * (size_t)(4 * n));
    float thr[GIR_CALIB_NMETHOD];
    double best = INFINITY, tbest = 0, mx = 0, e_mse, e_max;
    int vx, vy, r, m, rc = 0;
    GirCalib *c;
    GirError e;
    for (i = 0; i < 4 * n; i++) {
        double u = ((double)rnd() + 1) / 4294967297.0, v = ((double)rnd() + 1) / 4294967297.0;
        double mag = 0.2 * (pow(u, -1.0 / 3) - 1);
        x[i] = (float)(v < 0.1 ? -0.3 * mag / (1 + mag) : mag);
        mx = fabs(x[i]) > mx ? fabs(x[i]) : mx;
    }
    vx = gir_add_value(g, "x", GIR_VAL_INPUT, ty(GIR_DT_F32, 4, d), gir_loc_none());
    gir_add_input(g, vx);
    vy = gir_add_value(g, "y", GIR_VAL_NODE, ty(GIR_DT_F32, 4, d), gir_loc_none());
    gir_add_node(g, GIR_OP_IDENTITY, "id", &vx, 1, &vy, 1, gir_loc_none());
    gir_add_output(g, vy);
    if (gir_infer_shapes(g, &e) < 0 || gir_verify(g, &e) < 0) {
        fprintf(stderr, "%s\n", e.msg);
        return -1;
    }
    c = gir_calib_new(g);
    for (r = 0; r < 4; r++) {
        GirTensor in;
        in.type = ty(GIR_DT_F32, 4, d);
        in.data = x + r * n;
        if (gir_calib_add(c, &in, &e) < 0) {
            fprintf(stderr, "%s\n", e.msg);
            return -1;
        }
    }
    for (m = 0; m < GIR_CALIB_NMETHOD; m++) {
        float *t = gir_arena_alloc(a, sizeof *t * (size_t)(g->nval + 1));
        gir_calib_thresholds(c, (GirCalibMethod)m, 99.99, t);
        thr[m] = t[vy];
    }
    for (i = 1; i <= 400; i++) {
        double t = mx * (double)i / 400, err = q_mse(x, 4 * n, t);
        if (err < best)
            best = err, tbest = t;
    }
    e_mse = q_mse(x, 4 * n, thr[GIR_CALIB_MSE]);
    e_max = q_mse(x, 4 * n, thr[GIR_CALIB_MINMAX]);
    printf("calib: max %.4f; minmax %.4f (mse %.3e), mse %.4f (mse %.3e), kl %.4f, percentile "
           "%.4f; least mse %.3e at %.4f\n", mx, thr[GIR_CALIB_MINMAX], e_max,
           thr[GIR_CALIB_MSE], e_mse, thr[GIR_CALIB_KL], thr[GIR_CALIB_PERCENTILE],
           best, tbest);
    if (fabs(thr[GIR_CALIB_MINMAX] - mx) > 1e-6 * mx || !(thr[GIR_CALIB_MSE] < 0.9 * mx) ||
        !(e_mse < e_max) || !(e_mse <= 1.02 * best) || !(thr[GIR_CALIB_KL] < mx) ||
        !(thr[GIR_CALIB_PERCENTILE] < mx)) {
        fprintf(stderr, "calib: thresholds not as expected\n");
        rc = -1;
    }
    gir_calib_free(c);
    gir_graph_free(g);
    gir_arena_free(a);
    return rc;
}

int main(int argc, char **argv)
{
    int t, fails = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: test_int8_kernels conv|gemm|add|avgpool|requant|calib\n");
        return 2;
    }
    if (strcmp(argv[1], "conv") == 0) {
        for (t = 0; t < 200; t++)
            fails += conv_case(t) != 0;
    } else if (strcmp(argv[1], "gemm") == 0) {
        for (t = 0; t < 50; t++)
            fails += gemm_case(t) != 0;
    } else if (strcmp(argv[1], "add") == 0) {
        for (t = 0; t < 50; t++)
            fails += add_case(t) != 0;
    } else if (strcmp(argv[1], "avgpool") == 0) {
        for (t = 0; t < 2; t++)
            fails += avgpool_case(t) != 0;
    } else if (strcmp(argv[1], "requant") == 0) {
        fails += requant_case() != 0;
    } else if (strcmp(argv[1], "calib") == 0) {
        fails += calib_case() != 0;
    } else {
        fprintf(stderr, "unknown case %s\n", argv[1]);
        return 2;
    }
    printf("%s: %s\n", argv[1], fails ? "FAILED" : "ok");
    return fails ? 1 : 0;
}
