/* sched_steady: kiln_sched_steady (host-runtime/kiln_sched.h), which stops
 * a run once its state repeats and carries the frames' starts and ends
 * on from there, against the whole run of KILN_SCHED_STEADY frames
 * (kiln_sched_time) judged the same way, on random frames of runs: 1 to
 * 7 dataflow segments and 1 to 6 engine parts in a random order, cycles
 * from a few (many ties) to millions, 1 to KILN_SCHED_FLIGHT frames in
 * flight, in steps or not, every gate.
 * usage: sched_steady CASES; prints "CASES cases, N differ", exit 1 when
 * N > 0. */
#include "host-runtime/kiln_sched.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng = 88172645463325252ull;

static int pick(int n)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (int)(rng % (unsigned long long)n);
}

/* The steady figures from the whole run. */
static void whole_run(int n, const int *unit, const long long *dur, int flight, int steps,
                      int gate, long long *interval, long long *latency)
{
    long long start[KILN_SCHED_STEADY], done[KILN_SCHED_STEADY];
    const int L = KILN_SCHED_STEADY * 3 / 4, h = L / 2;
    int p;
    kiln_sched_time(n, unit, dur, KILN_SCHED_STEADY, flight, steps, gate, start, done, NULL, NULL);
    *interval = (done[L] - done[L - h] + h - 1) / h;
    for (p = 1; p <= KILN_SCHED_PERIOD; p++) {
        long long a = done[L] - done[L - p];
        if (a == done[L - p] - done[L - 2 * p] && a == done[L - 2 * p] - done[L - 3 * p]) {
            *interval = (a + p - 1) / p;
            break;
        }
    }
    *latency = done[L] - start[L];
}

int main(int argc, char **argv)
{
    long cases = argc == 2 ? atol(argv[1]) : 0, c, bad = 0;
    if (cases < 1) {
        fprintf(stderr, "usage: sched_steady CASES (at least 1)\n");
        return 2;
    }
    for (c = 0; c < cases; c++) {
        static const int ranges[] = {4, 1000, 2000000};
        int nseg = 1 + pick(7), npart = 1 + pick(6), seg = 0, part = 0, n = 0;
        int unit[16], range = ranges[pick(3)], flight, steps, gate;
        long long dur[16], i1, l1, i2, l2;
        while (seg < nseg || part < npart) {
            if (seg < nseg && (part >= npart || pick(2)))
                unit[n] = seg++;
            else
                unit[n] = nseg, part++;
            dur[n++] = pick(range) + (pick(10) != 0);
        }
        flight = 1 + pick(KILN_SCHED_FLIGHT);
        steps = pick(2);
        gate = pick(n);
        whole_run(n, unit, dur, flight, steps, gate, &i1, &l1);
        kiln_sched_steady(n, unit, dur, flight, steps, gate, &i2, &l2, NULL);
        if (i1 != i2 || l1 != l2) {
            if (bad++ < 5)
                printf("runs %d flight %d steps %d gate %d: interval %lld latency %lld, "
                       "whole run %lld %lld\n", n, flight, steps, gate, i2, l2, i1, l1);
        }
    }
    printf("%ld cases, %ld differ\n", cases, bad);
    return bad != 0;
}
