/*
 * kiln_avgpool bench: average pooling (window = stride) and global average
 * pooling on random shapes; reference: window sum, then kiln_requant from
 * graphir/requant.h; every value checked with and without back-pressure;
 * exact cycles.
 *   tb_avgpool [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphir/requant.h"
#include "tb_stream.h"

#define LANES 8
#define CG_MAX 8
#define ROW_MAX 128
#define ACC_W 24
#ifndef KILN_TB_PIPE
#define KILN_TB_PIPE 2
#endif

void *tbs_avgpool_new(int in_bytes, int out_bytes);
void tbs_avgpool_free(void *h);
void tbs_avgpool_cfg(void *h, const int64_t *rt);
void tbs_avgpool_tick(void *h, TbsPins *p);

int main(int argc, char **argv)
{
    static const int64_t hw[] = {LANES, CG_MAX, ROW_MAX, ACC_W, KILN_TB_PIPE};
    TbArgs a;
    TbCheck chk;
    TbsDut d = {0};
    int ci;

    if (tb_args_parse(&a, argc, argv, 50) < 0)
        return 2;
    tb_check_init(&chk, a.quiet);
    d.h = tbs_avgpool_new(LANES, LANES);
    d.n_in = d.n_out = 1;
    d.in_bytes[0] = d.out_bytes[0] = LANES;
    d.cfg = tbs_avgpool_cfg;
    d.tick = tbs_avgpool_tick;
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        int h, w, c, cg, kh, kw, oh, ow, shift, i;
        int32_t mp, mn;
        tb_rng_seed(&r, a.seed + (uint64_t)ci);
        do {
            h = (int)tb_rand_range(&r, 1, 17);
            w = (int)tb_rand_range(&r, 1, 17);
            c = (int)tb_rand_range(&r, 1, CG_MAX * LANES);
            cg = (c + LANES - 1) / LANES;
            if (ci % 3 == 0) { /* global average pool */
                kh = h;
                kw = w;
            } else {
                kh = (int)tb_rand_range(&r, 1, 3);
                kw = (int)tb_rand_range(&r, 1, 3);
            }
            oh = h / kh;
            ow = w / kw;
        } while (oh < 1 || ow < 1 || ow * cg > ROW_MAX);
        /* 1/(kh*kw) with some slack, or random multipliers */
        if (kiln_rq_choose(1.0 / (kh * kw) * (0.5 + (double)tb_rand_range(&r, 0, 100) / 50.0),
                           &mp, &shift) < 0) {
            mp = 1;
            shift = 0;
        }
        mn = ci % 4 == 1 ? 0 : mp;
        if (ci % 5 == 2) {
            mp = (int32_t)tb_rand_range(&r, KILN_RQ_M_MIN, KILN_RQ_M_MAX);
            mn = (int32_t)tb_rand_range(&r, KILN_RQ_M_MIN, KILN_RQ_M_MAX);
            shift = (int)tb_rand_range(&r, 0, 47);
        }
        {
            int64_t rt[] = {h, w, cg, kh, kw, oh, ow, (uint16_t)mp, (uint16_t)mn, shift};
            int8_t *t = malloc((size_t)h * w * c), *ref = malloc((size_t)oh * ow * c);
            uint8_t *in = malloc((size_t)h * w * cg * LANES);
            uint8_t *want = malloc((size_t)oh * ow * cg * LANES);
            uint8_t *got = malloc((size_t)oh * ow * cg * LANES);
            TbsFrame fr = {0};
            char desc[160];
            int oy, ox, ch, dy, dx;
            for (i = 0; i < h * w * c; i++)
                t[i] = tb_rand_i8(&r);
            if (ci % 7 == 3)
                for (i = 0; i < h * w * c; i++)
                    t[i] = (int8_t)(i % 2 ? -128 : 127);
            for (oy = 0; oy < oh; oy++)
                for (ox = 0; ox < ow; ox++)
                    for (ch = 0; ch < c; ch++) {
                        int32_t s = 0;
                        for (dy = 0; dy < kh; dy++)
                            for (dx = 0; dx < kw; dx++)
                                s += t[((oy * kh + dy) * w + ox * kw + dx) * c + ch];
                        ref[(oy * ow + ox) * c + ch] = kiln_requant(s, mp, mn, shift);
                    }
            tbs_pack(t, (long)h * w, c, LANES, in);
            tbs_pack(ref, (long)oh * ow, c, LANES, want);
            fr.in[0] = in;
            fr.in_beats[0] = (long)h * w * cg;
            fr.out[0] = got;
            fr.out_beats[0] = (long)oh * ow * cg;
            snprintf(desc, sizeof desc, "avgpool %dx%d c%d k%dx%d m%d/%d sh%d", h, w, c, kh, kw,
                     mp, mn, shift);
            tbs_case(&chk, &d, "kiln_avgpool", hw, rt, &fr, &want, a.seed * 1000 + (uint64_t)ci,
                     desc);
            free(t);
            free(ref);
            free(in);
            free(want);
            free(got);
        }
    }
    tbs_avgpool_free(d.h);
    return tb_check_finish(&chk, "tb_avgpool");
}
