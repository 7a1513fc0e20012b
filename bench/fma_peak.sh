#!/usr/bin/env bash
# The multiply-add peak of one core of this machine (a benchmark, never a
# test): 24 independent chains of 16-lane (AVX-512) and of 8-lane (AVX2)
# fused multiply-adds, timed by the thread's CPU time, so other processes
# on the core change it little.  Prints G multiply-adds a second for one
# core; the fp32 Convs of the CPU back end are measured against it
# (docs/llvm.md, "What binds now").
#   bench/fma_peak.sh [CC]
set -euo pipefail
cc=${1:-cc}
out=${TMPDIR:-/tmp}/kiln-fma-peak
mkdir -p "$out"
cat > "$out/peak.c" <<'C'
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
#define R(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) \
             X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23)
#define PEAK(NAME, V, SET, LANES)                                          \
    static void NAME(float seed)                                                      \
    {                                                                                 \
        V b = SET(1.0000001f), c = SET(1e-7f * seed), s = SET(0);                     \
        long n = 50000000, k;                                                          \
        double t0, t;                                                                 \
        R(D_##NAME)                                                                   \
        t0 = now();                                                                   \
        for (k = 0; k < n; k++) {                                                     \
            R(F_##NAME)                                                               \
        }                                                                             \
        t = now() - t0;                                                               \
        R(S_##NAME)                                                                   \
        printf("%-8s %6.1f G multiply-adds/s on one core (%.2f G instructions/s) %g\n", \
               #NAME, n * 24.0 * LANES / t / 1e9, n * 24.0 / t / 1e9, (double)s[0]);  \
    }
#define D_zmm(i) __m512 a##i = _mm512_set1_ps((float)(i) * seed);
#define F_zmm(i) a##i = _mm512_fmadd_ps(a##i, b, c);
#define S_zmm(i) s = _mm512_add_ps(s, a##i);
#define D_ymm(i) __m256 a##i = _mm256_set1_ps((float)(i) * seed);
#define F_ymm(i) a##i = _mm256_fmadd_ps(a##i, b, c);
#define S_ymm(i) s = _mm256_add_ps(s, a##i);
PEAK(zmm, __m512, _mm512_set1_ps, 16)
PEAK(ymm, __m256, _mm256_set1_ps, 8)
int main(int argc, char **argv)
{
    (void)argv;
    zmm((float)argc);
    ymm((float)argc);
    return 0;
}
C
"$cc" -O2 -mavx512f -mfma "$out/peak.c" -o "$out/peak"
"$out/peak"
