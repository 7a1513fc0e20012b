/*
 * tb_requant: kiln_requant against graphir/requant.h kiln_requant().
 * Case 0 first walks every corner: accumulators at the int32 edges and at
 * the 2^26 split of the one-DSP product (kiln_requant.v), multipliers at
 * the int16 edges (m_pos and m_neg different), every shift 0..47.  Then
 * random accumulators (extremes included), random per-lane m_pos/m_neg
 * (ReLU and identity mixes) and shifts 0..47; a new vector every cycle with
 * random gaps in valid; checks every output after PIPE cycles and that
 * o_valid follows i_valid.
 * Build-time: KILN_TB_LANES, KILN_TB_PIPE and optionally KILN_TB_QLO,
 * KILN_TB_QHI (the Verilog parameters; the output clamp of a fused Clip,
 * checked as the int8 interpreter applies act_min/act_max) and
 * KILN_TB_RQ_DSP (the lane's DSP48E2, 2 or 1; only named in the report:
 * both must give the same results).
 */
#include "conv_shim.h"
#include "graphir/requant.h"
#include "tb_util.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LANES KILN_TB_LANES
#define PIPE KILN_TB_PIPE
#define N 4096 /* vectors per case */
#ifndef KILN_TB_QLO
#define KILN_TB_QLO (-128)
#endif
#ifndef KILN_TB_QHI
#define KILN_TB_QHI 127
#endif
#ifndef KILN_TB_RQ_DSP
#define KILN_TB_RQ_DSP 2
#endif

/* The expected output: the requantized value clamped to [QLO, QHI]. */
static int expect_q(int32_t acc, int32_t mpos, int32_t mneg, int shift)
{
    int q = kiln_requant(acc, mpos, mneg, shift);
    return q < KILN_TB_QLO ? KILN_TB_QLO : q > KILN_TB_QHI ? KILN_TB_QHI : q;
}

typedef struct Vec {
    int valid;                 /* i_valid */
    int32_t acc[LANES];        /* accumulators */
    int32_t mpos[LANES];       /* multipliers for acc >= 0 */
    int32_t mneg[LANES];       /* multipliers for acc < 0 */
    uint8_t shift[LANES];      /* shifts */
} Vec;

static Vec vecs[N + PIPE + 1];

/* Corner operands: the int32 ends, the 2^26 split of acc into the DSP's
 * unsigned low part and the LUTs' signed high part, sign changes. */
static const int32_t acc_corner[] = {
    INT32_MIN,      INT32_MIN + 1, INT32_MIN + 0x3ffffff, -0x4000001, -0x4000000,
    -0x3ffffff,     -0x2000000,    -2,                   -1,          0,
    1,              0x2000000,     0x3ffffff,            0x4000000,   0x4000001,
    0x7c000000,     INT32_MAX - 1, INT32_MAX,            0x55555555,  -0x55555556,
};
static const int32_t m_corner[] = {
    KILN_RQ_M_MIN, KILN_RQ_M_MIN + 1, -1, 0, 1, 2, KILN_RQ_M_MAX - 1, KILN_RQ_M_MAX,
};
#define N_ACC_C ((int)(sizeof acc_corner / sizeof acc_corner[0]))
#define N_M_C ((int)(sizeof m_corner / sizeof m_corner[0]))
#define N_CORNER (N_ACC_C * N_M_C * (KILN_RQ_MAX_SHIFT + 1)) /* lane results */
_Static_assert(N_CORNER <= N * LANES, "tb_requant: the corners take more than case 0");

/* Corner i of the cross product acc x (m_pos, m_neg) x shift into v's lane l. */
static void corner(Vec *v, int l, int i)
{
    int sh = i % (KILN_RQ_MAX_SHIFT + 1), mi = i / (KILN_RQ_MAX_SHIFT + 1) % N_M_C;
    v->acc[l] = acc_corner[i / (KILN_RQ_MAX_SHIFT + 1) / N_M_C];
    v->mpos[l] = m_corner[mi];
    v->mneg[l] = m_corner[(mi + 3) % N_M_C];
    v->shift[l] = (uint8_t)sh;
}

static int32_t rand_m(TbRng *r)
{
    switch (tb_rand64(r) % 6) {
    case 0:
        return KILN_RQ_M_MIN;
    case 1:
        return KILN_RQ_M_MAX;
    case 2:
        return 0;
    default:
        return (int32_t)tb_rand_range(r, KILN_RQ_M_MIN, KILN_RQ_M_MAX);
    }
}

int main(int argc, char **argv)
{
    TbArgs a;
    TbCheck c;
    RqSim *s;
    int cs;
    if (tb_args_parse(&a, argc, argv, 8))
        return 2;
    tb_check_init(&c, a.quiet);
    s = rq_new();
    for (cs = 0; cs < a.cases; cs++) {
        TbRng r;
        uint8_t acc[4 * LANES], mp[2 * LANES], mn[2 * LANES];
        int t, l, vp = 25 + 25 * (cs % 4);
        char desc[128];
        tb_rng_seed(&r, a.seed + (uint64_t)cs);
        for (t = 0; t < N; t++) {
            Vec *v = &vecs[t];
            v->valid = tb_chance(&r, vp == 100 ? 100 : vp + 25);
            if (cs == 0 && t * LANES < N_CORNER) {
                v->valid = 1;
                for (l = 0; l < LANES; l++)
                    corner(v, l, (t * LANES + l) % N_CORNER);
                continue;
            }
            for (l = 0; l < LANES; l++) {
                v->acc[l] = tb_rand_i32_edgy(&r);
                v->mpos[l] = rand_m(&r);
                v->mneg[l] = tb_chance(&r, 30) ? v->mpos[l] : rand_m(&r);
                v->shift[l] = (uint8_t)(tb_chance(&r, 70) ? tb_rand_range(&r, 8, 40)
                                                          : tb_rand_range(&r, 0, KILN_RQ_MAX_SHIFT));
            }
        }
        for (t = N; t < N + PIPE + 1; t++)
            memset(&vecs[t], 0, sizeof vecs[t]);
        /* reset, then one vector per cycle */
        rq_set(s, 1, 0, acc, mp, mn, vecs[0].shift, LANES);
        rq_tick(s);
        for (t = 0; t < N + PIPE; t++) {
            const Vec *v = &vecs[t];
            int8_t q[LANES];
            int ov;
            for (l = 0; l < LANES; l++) {
                tb_put_u32(acc + 4 * l, (uint32_t)v->acc[l]);
                mp[2 * l] = (uint8_t)v->mpos[l];
                mp[2 * l + 1] = (uint8_t)((uint32_t)v->mpos[l] >> 8);
                mn[2 * l] = (uint8_t)v->mneg[l];
                mn[2 * l + 1] = (uint8_t)((uint32_t)v->mneg[l] >> 8);
            }
            rq_set(s, 0, v->valid, acc, mp, mn, v->shift, LANES);
            ov = rq_get(s, q, LANES);
            if (t >= PIPE) {
                const Vec *u = &vecs[t - PIPE];
                tb_check_int(&c, "o_valid", t, ov, u->valid);
                if (u->valid)
                    for (l = 0; l < LANES; l++)
                        tb_check_int(&c, "o_q", (long)(t - PIPE) * LANES + l, q[l],
                                     expect_q(u->acc[l], u->mpos[l], u->mneg[l], u->shift[l]));
            }
            rq_tick(s);
        }
        snprintf(desc, sizeof desc, "requant LANES=%d PIPE=%d QLO=%d QHI=%d RQ_DSP=%d seed=%llu "
                 "vectors=%d%s",
                 LANES, PIPE, KILN_TB_QLO, KILN_TB_QHI, KILN_TB_RQ_DSP, (unsigned long long)(a.seed + (uint64_t)cs),
                 N, cs == 0 ? " (corners first)" : "");
        tb_case_end(&c, desc);
    }
    rq_free(s);
    return tb_check_finish(&c, "tb_requant");
}
