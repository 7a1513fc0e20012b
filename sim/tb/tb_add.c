/*
 * kiln_add bench: rescaled elementwise add, reference kiln_add_requant from
 * graphir/requant.h, random multipliers and shifts (extremes included),
 * every value checked with and without back-pressure; exact cycles.
 *   tb_add [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphir/requant.h"
#include "tb_stream.h"

#define LANES 8

void *tbs_add_new(int in_bytes, int out_bytes);
void tbs_add_free(void *h);
void tbs_add_cfg(void *h, const int64_t *rt);
void tbs_add_tick(void *h, TbsPins *p);

int main(int argc, char **argv)
{
    static const int64_t hw[] = {LANES};
    TbArgs a;
    TbCheck chk;
    TbsDut d = {0};
    int ci;

    if (tb_args_parse(&a, argc, argv, 60) < 0)
        return 2;
    tb_check_init(&chk, a.quiet);
    tbs_vec_path = a.vec;
    d.h = tbs_add_new(LANES, LANES);
    d.n_in = 2;
    d.n_out = 1;
    d.in_bytes[0] = d.in_bytes[1] = d.out_bytes[0] = LANES;
    d.cfg = tbs_add_cfg;
    d.tick = tbs_add_tick;
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        int c, shift, i;
        int32_t ma, mb;
        long np;
        tb_rng_seed(&r, a.seed + (uint64_t)ci);
        np = tb_rand_range(&r, 1, 80);
        c = (int)tb_rand_range(&r, 1, 40);
        ma = (int32_t)tb_rand_range(&r, KILN_RQ_M_MIN, KILN_RQ_M_MAX);
        mb = (int32_t)tb_rand_range(&r, KILN_RQ_M_MIN, KILN_RQ_M_MAX);
        shift = (int)tb_rand_range(&r, 0, 20);
        switch (ci % 6) {
        case 0: ma = mb = KILN_RQ_M_MIN; break;
        case 1: ma = KILN_RQ_M_MAX; mb = KILN_RQ_M_MIN; shift = (int)tb_rand_range(&r, 0, 47); break;
        case 2: shift = (int)tb_rand_range(&r, 20, 47); break;
        case 3: shift = 0; ma = (int32_t)tb_rand_range(&r, -2, 2); mb = (int32_t)tb_rand_range(&r, -2, 2); break;
        default: break;
        }
        {
            int cg = (c + LANES - 1) / LANES;
            int64_t rt[] = {np * cg, (uint16_t)ma, (uint16_t)mb, shift};
            int8_t *ta = malloc((size_t)np * c), *tbb = malloc((size_t)np * c);
            int8_t *ref = malloc((size_t)np * c);
            uint8_t *ia = malloc((size_t)np * cg * LANES), *ib = malloc((size_t)np * cg * LANES);
            uint8_t *want = malloc((size_t)np * cg * LANES), *got = malloc((size_t)np * cg * LANES);
            TbsFrame fr = {0};
            char desc[128];
            for (i = 0; i < np * c; i++) {
                ta[i] = tb_rand_i8(&r);
                tbb[i] = tb_rand_i8(&r);
                if (ci % 6 == 0)
                    ta[i] = tbb[i] = -128;
                ref[i] = kiln_add_requant(ta[i], tbb[i], ma, mb, shift);
            }
            tbs_pack(ta, np, c, LANES, ia);
            tbs_pack(tbb, np, c, LANES, ib);
            tbs_pack(ref, np, c, LANES, want);
            fr.in[0] = ia;
            fr.in_beats[0] = np * cg;
            fr.in[1] = ib;
            fr.in_beats[1] = np * cg;
            fr.out[0] = got;
            fr.out_beats[0] = np * cg;
            snprintf(desc, sizeof desc, "add %ld px c%d ma%d mb%d sh%d", np, c, ma, mb, shift);
            tbs_case(&chk, &d, "kiln_add", hw, rt, &fr, &want, a.seed * 1000 + (uint64_t)ci,
                     desc);
            free(ta);
            free(tbb);
            free(ref);
            free(ia);
            free(ib);
            free(want);
            free(got);
        }
    }
    tbs_add_free(d.h);
    return tb_check_finish(&chk, "tb_add");
}
