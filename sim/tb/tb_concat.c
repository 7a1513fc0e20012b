/*
 * kiln_concat bench: route of two streams with their own channel counts (not
 * multiples of LANES too), every value checked, random back-pressure on both
 * inputs and the output; exact cycles.
 *   tb_concat [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_stream.h"

#define LANES 8

void *tbs_concat_new(int in_bytes, int out_bytes);
void tbs_concat_free(void *h);
void tbs_concat_cfg(void *h, const int64_t *rt);
void tbs_concat_tick(void *h, TbsPins *p);

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
    d.h = tbs_concat_new(LANES, LANES);
    d.n_in = 2;
    d.n_out = 1;
    d.in_bytes[0] = d.in_bytes[1] = d.out_bytes[0] = LANES;
    d.cfg = tbs_concat_cfg;
    d.tick = tbs_concat_tick;
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        int ca, cb, c, i, ch;
        long np;
        tb_rng_seed(&r, a.seed + (uint64_t)ci);
        np = tb_rand_range(&r, 1, 60);
        ca = (int)tb_rand_range(&r, 1, 40);
        cb = (int)tb_rand_range(&r, 1, 40);
        if (ci % 4 == 0) { /* YOLO-like: multiples of LANES */
            ca = LANES * (int)tb_rand_range(&r, 1, 4);
            cb = LANES * (int)tb_rand_range(&r, 1, 4);
        }
        c = ca + cb;
        {
            int64_t rt[] = {np, ca, cb};
            int gA = (ca + LANES - 1) / LANES, gB = (cb + LANES - 1) / LANES;
            int gO = (c + LANES - 1) / LANES;
            int8_t *ta = malloc((size_t)np * ca), *tbb = malloc((size_t)np * cb);
            int8_t *ref = malloc((size_t)np * c);
            uint8_t *ia = malloc((size_t)np * gA * LANES), *ib = malloc((size_t)np * gB * LANES);
            uint8_t *want = malloc((size_t)np * gO * LANES), *got = malloc((size_t)np * gO * LANES);
            TbsFrame fr = {0};
            char desc[128];
            for (i = 0; i < np * ca; i++)
                ta[i] = tb_rand_i8(&r);
            for (i = 0; i < np * cb; i++)
                tbb[i] = tb_rand_i8(&r);
            for (i = 0; i < np; i++)
                for (ch = 0; ch < c; ch++)
                    ref[i * c + ch] = ch < ca ? ta[i * ca + ch] : tbb[i * cb + ch - ca];
            tbs_pack(ta, np, ca, LANES, ia);
            tbs_pack(tbb, np, cb, LANES, ib);
            tbs_pack(ref, np, c, LANES, want);
            fr.in[0] = ia;
            fr.in_beats[0] = np * gA;
            fr.in[1] = ib;
            fr.in_beats[1] = np * gB;
            fr.out[0] = got;
            fr.out_beats[0] = np * gO;
            snprintf(desc, sizeof desc, "concat %ld px ca%d cb%d", np, ca, cb);
            tbs_case(&chk, &d, "kiln_concat", hw, rt, &fr, &want, a.seed * 1000 + (uint64_t)ci,
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
    tbs_concat_free(d.h);
    return tb_check_finish(&chk, "tb_concat");
}
