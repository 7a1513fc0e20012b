/*
 * kiln_split bench: channel slice (YOLOv4-tiny route groups=G group_id=i)
 * on random channel counts and offsets, every value checked with and without
 * back-pressure; exact cycles.
 *   tb_split [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_stream.h"

#define LANES 8

void *tbs_split_new(int in_bytes, int out_bytes);
void tbs_split_free(void *h);
void tbs_split_cfg(void *h, const int64_t *rt);
void tbs_split_tick(void *h, TbsPins *p);

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
    d.h = tbs_split_new(LANES, LANES);
    d.n_in = d.n_out = 1;
    d.in_bytes[0] = d.out_bytes[0] = LANES;
    d.cfg = tbs_split_cfg;
    d.tick = tbs_split_tick;
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        int c, groups, gid, off, cout, i, ch;
        long np;
        tb_rng_seed(&r, a.seed + (uint64_t)ci);
        np = tb_rand_range(&r, 1, 50);
        if (ci % 3 == 0) { /* YOLOv4-tiny: groups=2 group_id=1 */
            groups = 2;
            gid = 1;
            c = 2 * LANES * (int)tb_rand_range(&r, 1, 3);
        } else {
            groups = (int)tb_rand_range(&r, 1, 4);
            gid = (int)tb_rand_range(&r, 0, groups - 1);
            c = groups * (int)tb_rand_range(&r, 1, 13);
        }
        off = gid * c / groups;
        cout = c / groups;
        {
            int cg = (c + LANES - 1) / LANES, go = (cout + LANES - 1) / LANES;
            int64_t rt[] = {np, cg, off, cout};
            int8_t *t = malloc((size_t)np * c), *ref = malloc((size_t)np * cout);
            uint8_t *in = malloc((size_t)np * cg * LANES);
            uint8_t *want = malloc((size_t)np * go * LANES), *got = malloc((size_t)np * go * LANES);
            TbsFrame fr = {0};
            char desc[128];
            for (i = 0; i < np * c; i++)
                t[i] = tb_rand_i8(&r);
            for (i = 0; i < np; i++)
                for (ch = 0; ch < cout; ch++)
                    ref[i * cout + ch] = t[i * c + off + ch];
            tbs_pack(t, np, c, LANES, in);
            tbs_pack(ref, np, cout, LANES, want);
            fr.in[0] = in;
            fr.in_beats[0] = np * cg;
            fr.out[0] = got;
            fr.out_beats[0] = np * go;
            snprintf(desc, sizeof desc, "split %ld px c%d groups%d id%d", np, c, groups, gid);
            tbs_case(&chk, &d, "kiln_split", hw, rt, &fr, &want, a.seed * 1000 + (uint64_t)ci,
                     desc);
            free(t);
            free(ref);
            free(in);
            free(want);
            free(got);
        }
    }
    tbs_split_free(d.h);
    return tb_check_finish(&chk, "tb_split");
}
