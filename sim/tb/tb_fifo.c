/*
 * kiln_fifo / kiln_skid bench (one build per variant, see sim/stream.cmake):
 * random beat streams of random lengths, every beat checked in order, with
 * and without back-pressure; exact cycles.
 *   tb_fifo [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_stream.h"

#define BYTES 8

void *tbs_fifo_new(int in_bytes, int out_bytes);
void tbs_fifo_free(void *h);
void tbs_fifo_cfg(void *h, const int64_t *rt);
void tbs_fifo_tick(void *h, TbsPins *p);
const char *tbs_fifo_engine(int64_t *hw);

int main(int argc, char **argv)
{
    int64_t hw[3];
    const char *eng = tbs_fifo_engine(hw);
    TbArgs a;
    TbCheck chk;
    TbsDut d = {0};
    int ci;

    if (tb_args_parse(&a, argc, argv, 30) < 0)
        return 2;
    tb_check_init(&chk, a.quiet);
    d.h = tbs_fifo_new(BYTES, BYTES);
    d.n_in = d.n_out = 1;
    d.in_bytes[0] = d.out_bytes[0] = BYTES;
    d.cfg = tbs_fifo_cfg;
    d.tick = tbs_fifo_tick;
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        long n, i;
        tb_rng_seed(&r, a.seed + (uint64_t)ci);
        n = tb_rand_range(&r, 1, ci % 3 == 0 ? 2000 : 100);
        {
            int64_t rt[] = {n};
            uint8_t *in = malloc((size_t)n * BYTES), *got = malloc((size_t)n * BYTES);
            TbsFrame fr = {0};
            char desc[128];
            for (i = 0; i < n * BYTES; i++)
                in[i] = (uint8_t)tb_rand64(&r);
            fr.in[0] = in;
            fr.in_beats[0] = n;
            fr.out[0] = got;
            fr.out_beats[0] = n;
            snprintf(desc, sizeof desc, "%s %ld beats", eng, n);
            tbs_case(&chk, &d, eng, hw, rt, &fr, &in, a.seed * 1000 + (uint64_t)ci, desc);
            free(in);
            free(got);
        }
    }
    tbs_fifo_free(d.h);
    return tb_check_finish(&chk, eng);
}
