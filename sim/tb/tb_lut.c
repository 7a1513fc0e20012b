/*
 * kiln_lut bench: the 256-entry table on every byte of the stream, the
 * table built into the Verilator model as TABLE (a permutation,
 * entry k = (167 k + 91) mod 256, so a wrong index shows as a wrong byte;
 * sim/stream.cmake writes the same table), every byte checked with and
 * without random back-pressure on both streams; exact cycles.  Built with
 * KILN_TB_LANES and KILN_TB_CHANS > 0 it checks a table per channel
 * (CHANS): channel c's entry k is (167 k + 91 + 37 c) mod 256, the padding
 * channels' tables zeros (what the generated top writes), over frames of
 * up to 120 pixels of CHANS channels, so the beat's channel group must
 * wrap at every pixel.
 *   tb_lut [--seed N] [--cases N] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/hw.h"
#include "tb_stream.h"

#ifdef KILN_TB_LANES
#define LANES KILN_TB_LANES
#else
#define LANES 8
#endif
#ifndef KILN_TB_CHANS
#define KILN_TB_CHANS 0
#endif

void *tbs_lut_new(int in_bytes, int out_bytes);
void tbs_lut_free(void *h);
void tbs_lut_cfg(void *h, const int64_t *rt);
void tbs_lut_tick(void *h, TbsPins *p);

/* The bench's table: output byte for input byte b (int8 x = b - 256 when
 * b >= 128; its entry is x + 128). */
static uint8_t table_out(uint8_t b)
{
    int k = (int)(int8_t)b + 128;
    return (uint8_t)((167 * k + 91) & 0xFF);
}

/* Per channel (KILN_TB_CHANS > 0): the output of channel c (of the padded
 * beat layout) for input byte b. */
static uint8_t chan_table_out(int c, uint8_t b)
{
    int k = (int)(int8_t)b + 128;
    if (c >= KILN_TB_CHANS)
        return 0;
    return (uint8_t)((167 * k + 91 + 37 * c) & 0xFF);
}

int main(int argc, char **argv)
{
    static const int64_t hw[] = {LANES, KILN_TB_CHANS, HLS_HW_LUT_BRAM_CG};
    TbArgs a;
    TbCheck chk;
    TbsDut d = {0};
    int ci;

    if (tb_args_parse(&a, argc, argv, 60) < 0)
        return 2;
    tb_check_init(&chk, a.quiet);
    tbs_vec_path = a.vec;
    d.h = tbs_lut_new(LANES, LANES);
    d.n_in = 1;
    d.n_out = 1;
    d.in_bytes[0] = d.out_bytes[0] = LANES;
    d.cfg = tbs_lut_cfg;
    d.tick = tbs_lut_tick;
    for (ci = 0; ci < a.cases; ci++) {
        TbRng r;
        int c, cg;
        long np, i, nb;
        tb_rng_seed(&r, a.seed + (uint64_t)ci);
        np = tb_rand_range(&r, 1, 120);
        c = (int)tb_rand_range(&r, 1, 40);
        if (KILN_TB_CHANS > 0)
            c = KILN_TB_CHANS;
        cg = (c + LANES - 1) / LANES;
        nb = np * cg * LANES;
        {
            int64_t rt[] = {np * cg};
            int8_t *t = malloc((size_t)np * c);
            uint8_t *in = malloc((size_t)nb), *want = malloc((size_t)nb), *got = malloc((size_t)nb);
            TbsFrame fr = {0};
            char desc[96];
            for (i = 0; i < np * c; i++)
                t[i] = ci % 4 == 0 ? (int8_t)(i % 256 - 128) : tb_rand_i8(&r);
            tbs_pack(t, np, c, LANES, in);
            /* every byte goes through the table, the zero padding lanes too */
            for (i = 0; i < nb; i++)
                want[i] = KILN_TB_CHANS > 0 ? chan_table_out((int)(i % (cg * LANES)), in[i])
                                            : table_out(in[i]);
            fr.in[0] = in;
            fr.in_beats[0] = np * cg;
            fr.out[0] = got;
            fr.out_beats[0] = np * cg;
            snprintf(desc, sizeof desc, "lut %ld px c%d", np, c);
            tbs_case(&chk, &d, "kiln_lut", hw, rt, &fr, &want, a.seed * 1000 + (uint64_t)ci, desc);
            free(t);
            free(in);
            free(want);
            free(got);
        }
    }
    tbs_lut_free(d.h);
    return tb_check_finish(&chk, "tb_lut");
}
