/*
 * kiln_maxpool bench: random shapes (odd sizes, channel counts that are not
 * multiples of LANES), the YOLO cases 2x2/2 and 2x2/1 with Darknet padding,
 * general K x K / S; every output checked against a plain C loop, with and
 * without random back-pressure; cycles checked against hls/desc_stream.c.
 *   tb_maxpool [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_stream.h"
#include "tb_util.h"

#define LANES 8
#define K_MAX 3
#define CG_MAX 8
#define ROW_MAX 256
#ifndef KILN_TB_PIPE
#define KILN_TB_PIPE 1
#endif

void *tbs_maxpool_new(int lanes);
void tbs_maxpool_free(void *h);
void tbs_maxpool_cfg(void *h, const int64_t *rt);
void tbs_maxpool_tick(void *h, TbsPins *p);

/* Darknet maxpool reference: window rows oy*s-pad .. +k-1 inside the map. */
static void ref_maxpool(const int8_t *in, int h, int w, int c, int k, int s, int pad, int oh,
                        int ow, int8_t *out)
{
    int oy, ox, ch, dy, dx;
    for (oy = 0; oy < oh; oy++)
        for (ox = 0; ox < ow; ox++)
            for (ch = 0; ch < c; ch++) {
                int m = -1000;
                for (dy = 0; dy < k; dy++)
                    for (dx = 0; dx < k; dx++) {
                        int y = oy * s - pad + dy, x = ox * s - pad + dx;
                        if (y >= 0 && y < h && x >= 0 && x < w && in[(y * w + x) * c + ch] > m)
                            m = in[(y * w + x) * c + ch];
                    }
                out[(oy * ow + ox) * c + ch] = (int8_t)m;
            }
}

/* Pack an HWC int8 tensor into beats of LANES lanes, zero padding lanes. */
static void pack(const int8_t *t, long pixels, int c, uint8_t *beats)
{
    int cg = (c + LANES - 1) / LANES;
    long p;
    int ch;
    memset(beats, 0, (size_t)(pixels * cg * LANES));
    for (p = 0; p < pixels; p++)
        for (ch = 0; ch < c; ch++)
            beats[p * cg * LANES + ch] = (uint8_t)t[p * c + ch];
}

int main(int argc, char **argv)
{
    static const int64_t hw[] = {LANES, K_MAX, CG_MAX, ROW_MAX, KILN_TB_PIPE};
    TbArgs a;
    TbCheck chk;
    TbsDut d;
    int ci;

    if (tb_args_parse(&a, argc, argv, 60) < 0)
        return 2;
    tb_check_init(&chk, a.quiet);
    memset(&d, 0, sizeof d);
    d.h = tbs_maxpool_new(LANES);
    d.n_in = d.n_out = 1;
    d.in_bytes[0] = d.out_bytes[0] = LANES;
    d.cfg = tbs_maxpool_cfg;
    d.tick = tbs_maxpool_tick;

    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        int kind = ci % 5, k, s, padding, pad, h, w, c, cg, oh, ow, bp;
        char desc[160];
        tb_rng_seed(&r, a.seed + (uint64_t)ci);
        switch (kind) {
        case 0: k = 2; s = 2; padding = 1; break;             /* YOLO 2x2/2 */
        case 1: k = 2; s = 1; padding = 1; break;             /* YOLOv3-tiny 2x2/1 */
        case 2: k = 3; s = 1; padding = 2; break;             /* 3x3/1 same */
        case 3: k = 3; s = 2; padding = (int)tb_rand_range(&r, 0, 2); break;
        default:
            k = (int)tb_rand_range(&r, 2, K_MAX);
            s = (int)tb_rand_range(&r, 1, 3);
            padding = (int)tb_rand_range(&r, 0, k - 1);
            break;
        }
        pad = padding / 2;
        do {
            h = (int)tb_rand_range(&r, 1, 19);
            w = (int)tb_rand_range(&r, 1, 23);
            c = (int)tb_rand_range(&r, 1, CG_MAX * LANES);
            cg = (c + LANES - 1) / LANES;
            oh = (h + padding - k) / s + 1;
            ow = (w + padding - k) / s + 1;
        } while (h + padding < k || w + padding < k || ow * cg > ROW_MAX);
        {
            int64_t rt[] = {h, w, cg, k, s, pad, oh, ow};
            long nin = (long)h * w * cg, nout = (long)oh * ow * cg;
            int8_t *t = malloc((size_t)h * w * c), *ref = malloc((size_t)oh * ow * c);
            uint8_t *in = malloc((size_t)nin * LANES), *want = malloc((size_t)nout * LANES);
            uint8_t *got = malloc((size_t)nout * LANES);
            long i, cyc;
            for (i = 0; i < (long)h * w * c; i++)
                t[i] = tb_rand_i8(&r);
            ref_maxpool(t, h, w, c, k, s, pad, oh, ow, ref);
            pack(t, (long)h * w, c, in);
            pack(ref, (long)oh * ow, c, want);
            if (a.vec && ci == 0) {
                TbsFrame f;
                memset(&f, 0, sizeof f);
                f.in[0] = in;
                f.in_beats[0] = nin;
                f.out_beats[0] = nout;
                tbs_write_vec(a.vec, &d, rt, 8, &f, want);
            }
            for (bp = 0; bp < 2; bp++) {
                TbsFrame f;
                memset(&f, 0, sizeof f);
                f.in[0] = in;
                f.in_beats[0] = nin;
                f.out[0] = got;
                f.out_beats[0] = nout;
                memset(got, 0, (size_t)nout * LANES);
                if (tbs_run(&d, rt, &f, bp ? 55 : 100, a.seed * 1000 + (uint64_t)ci, &cyc,
                            &chk) == 0) {
                    tbs_check_bytes(&chk, "out", got, want, nout * LANES);
                    if (!bp)
                        tbs_check_cycles(&chk, "kiln_maxpool", hw, rt, cyc);
                }
                snprintf(desc, sizeof desc, "maxpool %dx%d c%d k%d s%d pad%d -> %dx%d %s cycles %ld",
                         h, w, c, k, s, pad, oh, ow, bp ? "bp" : "free", cyc);
                tb_case_end(&chk, desc);
            }
            free(t);
            free(ref);
            free(in);
            free(want);
            free(got);
        }
    }
    tbs_maxpool_free(d.h);
    return tb_check_finish(&chk, "tb_maxpool");
}
