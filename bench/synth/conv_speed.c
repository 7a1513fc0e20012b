/* bench_conv_speed: Verilator simulation speed (cycles/s) of kiln_conv with a
 * 32 x 32 MAC array on 3x3, 16x16x64 -> 64 frames (FRAMES of them, weights
 * resident), no back-pressure.
 * Prints the figure; not a test. */
#define _POSIX_C_SOURCE 199309L
#include "conv_shim.h"
#include "tb_util.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define L 32
#define FRAMES 10

int main(void)
{
    CvSim *sim = cv_new();
    CvIn in;
    CvOut out;
    TbRng r;
    long wi = 0, si = 0, oi = 0, t = 0, t0 = -1;
    const int h = 16, w = 16, icg = 2, ocg = 2, k = 3;
    const long n_w = (long)ocg * L * (3 + k * k * icg), n_s = (long)h * w * icg * FRAMES,
               n_o = (long)h * w * ocg * FRAMES;
    struct timespec a, b;
    double sec;
    tb_rng_seed(&r, 1);
    memset(&in, 0, sizeof in);
    in.h = h;
    in.w = w;
    in.icg = icg;
    in.ocg = ocg;
    in.tog = ocg;
    in.k = k;
    in.stride = 1;
    in.pad = 1;
    in.rst = 1;
    cv_set(sim, &in);
    cv_tick(sim);
    in.rst = 0;
    in.m_tready = 1;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (t = 0; oi < n_o && t < 10000000; t++) {
        int i;
        in.w_tvalid = wi < n_w;
        for (i = 0; i < L; i++)
            in.w_tdata[i] = (uint8_t)(wi % (3 * L) < 3 * L && (wi % 3) == 2 ? 16 : tb_rand_i8(&r));
        in.s_tvalid = wi >= n_w && si < n_s;
        for (i = 0; i < L; i++)
            in.s_tdata[i] = (uint8_t)tb_rand_i8(&r);
        cv_set(sim, &in);
        cv_get(sim, &out);
        if (in.w_tvalid && out.w_tready)
            wi++;
        if (in.s_tvalid && out.s_tready) {
            if (si == 0)
                t0 = t;
            si++;
        }
        if (out.m_tvalid)
            oi++;
        cv_tick(sim);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    sec = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    printf("kiln_conv PE %dx%d: %ld cycles (%ld for %d frames) in %.3f s: %.0f cycles/s\n", L, L,
           t, t - t0, FRAMES, sec, (double)t / sec);
    cv_free(sim);
    return oi == n_o ? 0 : 1;
}
