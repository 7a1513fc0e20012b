/*
 * kiln_dsp_chain bench: the chain's sum against a C dot product of N int8
 * products, over random operand vectors mixed with extremes (every a_i and
 * b_i -128: the largest sum N*2^14; -128 x 127: the smallest), and its
 * latency exactly: the vector of the k-th clock-enabled edge must show on
 * m_valid/p once LAT - 1 more enabled edges have passed (LAT = N + 2), and
 * m_valid must be 0 in every other cycle.  Each case runs with ce and
 * s_valid always 1, then with random ce and s_valid gaps (the inputs carry
 * random bytes while ce is 0: the chain must hold).  Built with
 * KILN_TB_ISKEW=0 it drives lane i's operands i enabled edges after lane
 * 0's, as the module's ISKEW 0 contract asks.
 *   tb_dsp_chain [--seed N] [--cases N] [--quiet]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_util.h"

#ifndef KILN_TB_N
#define KILN_TB_N 8
#endif
#ifndef KILN_TB_PW
#define KILN_TB_PW 32
#endif
#ifndef KILN_TB_ISKEW
#define KILN_TB_ISKEW 1
#endif
#define N KILN_TB_N
#define LAT (N + 2)

void *dc_new(void);
void dc_free(void *h);
void dc_set(void *h, int rst, int ce, int valid, const int8_t *a, const int8_t *b, int n);
void dc_get(void *h, int *valid, uint64_t *p);
void dc_tick(void *h);

/* One operand vector as presented at an enabled edge. */
typedef struct Vec {
    int valid;     /* s_valid at that edge */
    int8_t a[N];   /* lane operands */
    int8_t b[N];
    int64_t sum;   /* the C dot product */
} Vec;

/* Fill v: random bytes, or (1 in 8 each) all lanes at the largest or the
 * smallest product. */
static void vec_random(TbRng *r, Vec *v)
{
    int kind = (int)tb_rand_range(r, 0, 7);
    v->sum = 0;
    for (int i = 0; i < N; i++) {
        if (kind == 0) {
            v->a[i] = -128;
            v->b[i] = -128;
        } else if (kind == 1) {
            v->a[i] = -128;
            v->b[i] = 127;
        } else {
            v->a[i] = tb_rand_i8(r);
            v->b[i] = tb_rand_i8(r);
        }
        v->sum += (int64_t)v->a[i] * v->b[i];
    }
}

/* The low PW bits of p, sign-extended. */
static int64_t sext_pw(uint64_t p)
{
    uint64_t m = (KILN_TB_PW == 64) ? ~0ull : ((1ull << KILN_TB_PW) - 1);
    p &= m;
    if (p >> (KILN_TB_PW - 1) & 1)
        p |= ~m;
    return (int64_t)p;
}

/* Run one case of nvec valid vectors; ce_pct/v_pct the chances of ce and
 * s_valid each cycle (100: exact cycles).  Returns through chk. */
static void run_case(void *dut, TbCheck *chk, uint64_t seed, int nvec, int ce_pct, int v_pct)
{
    TbRng rng;
    TbBp bce, bv;
    /* vectors per enabled edge (index = edge number, from 1) */
    int cap = 4 * (nvec + LAT) + 64;
    Vec *rec = calloc((size_t)cap * 2, sizeof *rec);
    int edges = 0, sent = 0, got = 0;
    long cyc = 0, limit = 100L * cap + 1000;
    int8_t a[N], b[N];

    tb_rng_seed(&rng, seed);
    tb_bp_init(&bce, seed * 3 + 1, ce_pct);
    tb_bp_init(&bv, seed * 5 + 2, v_pct);
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    /* reset: two enabled cycles */
    for (int k = 0; k < 2; k++) {
        dc_set(dut, 1, 1, 0, a, b, N);
        dc_tick(dut);
    }
    while (got < nvec && cyc < limit) {
        int ce = tb_bp_next(&bce);
        int valid = 0, ov;
        uint64_t op;
        int64_t want_idx;

        if (ce) {
            Vec *v = &rec[edges + 1];
            if (edges + 1 >= 2 * cap - 1) {
                tb_check_fail(chk, "ran past %d edges", edges);
                break;
            }
            valid = sent < nvec && tb_bp_next(&bv);
            vec_random(&rng, v);
            v->valid = valid;
            sent += valid;
            /* lane i takes the vector of edge edges+1-i (ISKEW 0: skewed) */
            for (int i = 0; i < N; i++) {
                int e = KILN_TB_ISKEW ? edges + 1 : edges + 1 - i;
                a[i] = e >= 1 ? rec[e].a[i] : 0;
                b[i] = e >= 1 ? rec[e].b[i] : 0;
            }
        } else {
            /* don't-care inputs while the chain holds */
            for (int i = 0; i < N; i++) {
                a[i] = tb_rand_i8(&rng);
                b[i] = tb_rand_i8(&rng);
            }
            valid = tb_chance(&rng, 50);
        }
        dc_set(dut, 0, ce, valid, a, b, N);
        dc_get(dut, &ov, &op);
        want_idx = edges - LAT + 1;
        {
            int wv = want_idx >= 1 && rec[want_idx].valid;
            if (ov != wv)
                tb_check_fail(chk, "cycle %ld (edge %d): m_valid %d, want %d", cyc, edges, ov, wv);
            else if (wv && ce) {
                /* an output is taken at an enabled edge */
                tb_check_int(chk, "sum", got, sext_pw(op), rec[want_idx].sum);
                got++;
            }
        }
        dc_tick(dut);
        edges += ce;
        cyc++;
        if (chk->errors > 20)
            break;
    }
    if (got != nvec)
        tb_check_fail(chk, "%d of %d sums out after %ld cycles", got, nvec, cyc);
    /* exact cycles with ce and s_valid always 1: the first vector in cycle
     * 0, the last sum in cycle nvec - 1 + LAT */
    if (ce_pct == 100 && v_pct == 100 && cyc != (long)nvec + LAT)
        tb_check_fail(chk, "%ld cycles from first vector to last sum, want %d", cyc, nvec + LAT);
    free(rec);
}

int main(int argc, char **argv)
{
    TbArgs a;
    TbCheck chk;
    void *dut;

    if (tb_args_parse(&a, argc, argv, 40) < 0)
        return 2;
    tb_check_init(&chk, a.quiet);
    dut = dc_new();
    for (int c = 0; c < a.cases; c++) {
        uint64_t seed = a.seed + (uint64_t)c;
        TbRng r;
        int nvec;
        char desc[96];

        tb_rng_seed(&r, seed * 7919);
        nvec = (int)tb_rand_range(&r, 1, 3 * N + 8);
        run_case(dut, &chk, seed, nvec, 100, 100);
        snprintf(desc, sizeof desc, "N %d ISKEW %d seed %llu: %d vectors, no gaps", N,
                 KILN_TB_ISKEW, (unsigned long long)seed, nvec);
        tb_case_end(&chk, desc);
        run_case(dut, &chk, seed, nvec, (int)tb_rand_range(&r, 30, 90),
                 (int)tb_rand_range(&r, 30, 90));
        snprintf(desc, sizeof desc, "N %d ISKEW %d seed %llu: %d vectors, ce/valid gaps", N,
                 KILN_TB_ISKEW, (unsigned long long)seed, nvec);
        tb_case_end(&chk, desc);
    }
    dc_free(dut);
    return tb_check_finish(&chk, "tb_dsp_chain");
}
