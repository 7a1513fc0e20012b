/*
 * kiln_upsample bench: nearest x2 (and other factors) on random shapes, every
 * value checked, with and without back-pressure; exact cycles.
 *   tb_upsample [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_stream.h"

#define LANES 8
#define ROW_MAX 256

void *tbs_upsample_new(int in_bytes, int out_bytes);
void tbs_upsample_free(void *h);
void tbs_upsample_cfg(void *h, const int64_t *rt);
void tbs_upsample_tick(void *h, TbsPins *p);

int main(int argc, char **argv)
{
    static const int64_t hw[] = {LANES, ROW_MAX};
    TbArgs a;
    TbCheck chk;
    TbsDut d = {0};
    int ci;

    if (tb_args_parse(&a, argc, argv, 40) < 0)
        return 2;
    tb_check_init(&chk, a.quiet);
    d.h = tbs_upsample_new(LANES, LANES);
    d.n_in = d.n_out = 1;
    d.in_bytes[0] = d.out_bytes[0] = LANES;
    d.cfg = tbs_upsample_cfg;
    d.tick = tbs_upsample_tick;
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        int h, w, c, cg, f, oh, ow, y, x, ch;
        tb_rng_seed(&r, a.seed + (uint64_t)ci);
        f = ci % 4 == 3 ? (int)tb_rand_range(&r, 1, 3) : 2;
        do {
            h = (int)tb_rand_range(&r, 1, 13);
            w = (int)tb_rand_range(&r, 1, 17);
            c = (int)tb_rand_range(&r, 1, 40);
            cg = (c + LANES - 1) / LANES;
        } while (w * cg > ROW_MAX);
        oh = h * f;
        ow = w * f;
        {
            int64_t rt[] = {h, w, cg, f};
            int8_t *t = malloc((size_t)h * w * c), *ref = malloc((size_t)oh * ow * c);
            uint8_t *in = malloc((size_t)h * w * cg * LANES);
            uint8_t *want = malloc((size_t)oh * ow * cg * LANES);
            uint8_t *got = malloc((size_t)oh * ow * cg * LANES);
            TbsFrame fr = {0};
            char desc[128];
            for (y = 0; y < h * w * c; y++)
                t[y] = tb_rand_i8(&r);
            for (y = 0; y < oh; y++)
                for (x = 0; x < ow; x++)
                    for (ch = 0; ch < c; ch++)
                        ref[(y * ow + x) * c + ch] = t[((y / f) * w + x / f) * c + ch];
            tbs_pack(t, (long)h * w, c, LANES, in);
            tbs_pack(ref, (long)oh * ow, c, LANES, want);
            fr.in[0] = in;
            fr.in_beats[0] = (long)h * w * cg;
            fr.out[0] = got;
            fr.out_beats[0] = (long)oh * ow * cg;
            snprintf(desc, sizeof desc, "upsample %dx%d c%d x%d", h, w, c, f);
            tbs_case(&chk, &d, "kiln_upsample", hw, rt, &fr, &want, a.seed * 1000 + (uint64_t)ci,
                     desc);
            free(t);
            free(ref);
            free(in);
            free(want);
            free(got);
        }
    }
    tbs_upsample_free(d.h);
    return tb_check_finish(&chk, "tb_upsample");
}
