/*
 * Allocation-failure injection for libkiln-rt: for N = 1, 2, ... the test
 * allocator fails the Nth allocation; krt_open + krt_load + krt_run +
 * krt_run_frames must then return KRT_ENOMEM with every allocation
 * released, until an N beyond
 * the run's allocations lets the run succeed.  Usage: alloc_fail SPEC DIR
 * IN.bin.  Prints "alloc_fail: N runs, each failure clean"; exit 1 on the
 * first failure not handled cleanly.  Built with -fsanitize=address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln_rt.h"

static long count;  /* allocations so far in this run */
static long fail_at; /* the allocation to fail (1-based), 0: none */
static long live;   /* allocations not yet released */

static void *test_alloc(size_t n)
{
    void *p;
    if (++count == fail_at)
        return NULL;
    p = malloc(n);
    if (p)
        live++;
    return p;
}

static void test_free(void *p)
{
    live--;
    free(p);
}

/* One open-load-run; the first error status, or KRT_OK. */
static int one_run(const char *spec, const char *dir, const uint8_t *in, KrtError *e)
{
    KrtDev *d = NULL;
    KrtModel *m = NULL;
    uint8_t *out[8] = {0};
    int rc, i;
    if ((rc = krt_open(spec, &d, e)))
        return rc;
    if ((rc = krt_load(d, dir, &m, e)) == KRT_OK) {
        for (i = 0; i < krt_num_outputs(m) && i < 8; i++)
            out[i] = malloc(krt_output(m, i)->frame_bytes);
        if (krt_num_inputs(m) != 1)
            rc = KRT_EINVAL;
        else
            rc = krt_run(m, &in, out, 10000, e);
        if (rc == KRT_OK) { /* two frames through krt_run_frames (one in flight here) */
            const uint8_t *const *fi[2] = {&in, &in};
            uint8_t *const *fo[2] = {out, out};
            rc = krt_run_frames(m, 2, fi, fo, 10000, e);
        }
        for (i = 0; i < 8; i++)
            free(out[i]);
    }
    krt_unload(m);
    krt_close(d);
    return rc;
}

int main(int argc, char **argv)
{
    static uint8_t in[1 << 22];
    FILE *f;
    KrtError e;
    long n;
    if (argc != 4) {
        fprintf(stderr, "usage: alloc_fail SPEC DIR IN.bin\n");
        return 2;
    }
    f = fopen(argv[3], "rb");
    if (!f || fread(in, 1, sizeof in, f) == 0) {
        fprintf(stderr, "alloc_fail: %s: cannot read\n", argv[3]);
        return 2;
    }
    fclose(f);
    krt_set_allocator(test_alloc, test_free);
    for (n = 1; n < 10000; n++) {
        int rc;
        count = 0;
        live = 0;
        fail_at = n;
        memset(&e, 0, sizeof e);
        rc = one_run(argv[1], argv[2], in, &e);
        if (live != 0) {
            fprintf(stderr, "alloc_fail: failing allocation %ld: %ld allocations leaked\n", n,
                    live);
            return 1;
        }
        if (count < n) { /* every allocation succeeded: the run must have too */
            if (rc != KRT_OK) {
                fprintf(stderr, "alloc_fail: the run without failures failed: %s\n", e.msg);
                return 1;
            }
            printf("alloc_fail: %ld runs, each failure clean\n", n);
            return 0;
        }
        if (rc != KRT_ENOMEM || !strstr(e.msg, "out of memory")) {
            fprintf(stderr, "alloc_fail: failing allocation %ld: status %d '%s', expected an "
                    "out of memory error\n", n, rc, e.msg);
            return 1;
        }
    }
    fprintf(stderr, "alloc_fail: more than 10000 allocations\n");
    return 1;
}
