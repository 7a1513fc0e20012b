/*
 * kiln_width bench (one build per LI -> LO, see sim/stream.cmake): random
 * pixel counts and channel counts, input packed in LI-lane groups, output
 * expected in LO-lane groups; every value checked with and without
 * back-pressure; exact cycles.
 *   tb_width [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_stream.h"

void *tbs_width_new(int in_bytes, int out_bytes);
void tbs_width_free(void *h);
void tbs_width_cfg(void *h, const int64_t *rt);
void tbs_width_tick(void *h, TbsPins *p);
void tbs_width_hw(int64_t *hw);

int main(int argc, char **argv)
{
    int64_t hw[2];
    int li, lo, ci;
    TbArgs a;
    TbCheck chk;
    TbsDut d = {0};

    tbs_width_hw(hw);
    li = (int)hw[0];
    lo = (int)hw[1];
    if (tb_args_parse(&a, argc, argv, 50) < 0)
        return 2;
    tb_check_init(&chk, a.quiet);
    d.h = tbs_width_new(li, lo);
    d.n_in = d.n_out = 1;
    d.in_bytes[0] = li;
    d.out_bytes[0] = lo;
    d.cfg = tbs_width_cfg;
    d.tick = tbs_width_tick;
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        long np, i;
        int c, gi, go;
        tb_rng_seed(&r, a.seed + (uint64_t)ci);
        np = tb_rand_range(&r, 1, 60);
        c = (int)tb_rand_range(&r, 1, 70);
        gi = (c + li - 1) / li;
        go = (c + lo - 1) / lo;
        {
            int64_t rt[] = {np, gi, go};
            int8_t *t = malloc((size_t)np * c);
            uint8_t *in = malloc((size_t)np * gi * li);
            uint8_t *want = malloc((size_t)np * go * lo), *got = malloc((size_t)np * go * lo);
            TbsFrame fr = {0};
            char desc[128];
            for (i = 0; i < np * c; i++)
                t[i] = tb_rand_i8(&r);
            tbs_pack(t, np, c, li, in);
            tbs_pack(t, np, c, lo, want);
            fr.in[0] = in;
            fr.in_beats[0] = np * gi;
            fr.out[0] = got;
            fr.out_beats[0] = np * go;
            snprintf(desc, sizeof desc, "width %d->%d %ld px c%d", li, lo, np, c);
            tbs_case(&chk, &d, "kiln_width", hw, rt, &fr, &want, a.seed * 1000 + (uint64_t)ci,
                     desc);
            free(t);
            free(in);
            free(want);
            free(got);
        }
    }
    tbs_width_free(d.h);
    return tb_check_finish(&chk, "tb_width");
}
