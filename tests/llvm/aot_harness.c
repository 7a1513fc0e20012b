/*
 * Runs an object of `kiln lower`: reads each input (.npy: the data after
 * its header; any other file: raw bytes), calls the entry point and writes
 * each output's raw bytes.  Built with the object's header and macros
 * naming its entry point and byte lists:
 *   cc -include OUT.h -DENTRY=sym -DIN_BYTES=SYM_INPUT_BYTES \
 *      -DOUT_BYTES=SYM_OUTPUT_BYTES -DCOUNTS=SYM_COUNTS \
 *      -DUNIT_BYTES=SYM_OUTPUT_UNIT_BYTES aot_harness.c OUT.o -lm
 * An output of data-dependent extent gets its extent in an int64_t after
 * the outputs; the file holds extent x its unit bytes.
 * usage: aot_harness IN... -o OUT... [-n RUNS]  (prints ms per run with -n)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const long in_bytes[] = IN_BYTES;
static const long out_bytes[] = OUT_BYTES;
static const long unit_bytes[] = UNIT_BYTES;
#define NIN ((int)(sizeof in_bytes / sizeof in_bytes[0]))
#define NOUT ((int)(sizeof out_bytes / sizeof out_bytes[0]))

/* The data of tensor file path: want bytes, after the header of a .npy. */
static void *read_input(const char *path, long want)
{
    FILE *f = fopen(path, "rb");
    unsigned char head[12];
    long size, at = 0;
    void *data;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0) {
        fprintf(stderr, "aot_harness: cannot read %s\n", path);
        exit(2);
    }
    rewind(f);
    if (size >= 12 && fread(head, 1, 12, f) == 12 && memcmp(head, "\x93NUMPY", 6) == 0)
        at = head[6] == 1 ? 10 + (head[8] | head[9] << 8)
                          : 12 + (head[8] | head[9] << 8 | (long)head[10] << 16 | (long)head[11] << 24);
    if (size - at != want) {
        fprintf(stderr, "aot_harness: %s has %ld data bytes, the entry point takes %ld\n", path,
                size - at, want);
        exit(2);
    }
    data = malloc((size_t)want + 1);
    if (!data || fseek(f, at, SEEK_SET) != 0 || fread(data, 1, (size_t)want, f) != (size_t)want) {
        fprintf(stderr, "aot_harness: cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    return data;
}

int main(int argc, char **argv)
{
    const void *ins[NIN + 1];
    void *outs[NOUT + COUNTS + 1];
    int64_t counts[COUNTS + 1] = {0};
    const char *out_path[NOUT + 1];
    int i, nin = 0, nout = 0, runs = 0, k;
    struct timespec t0, t1;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && nout < NOUT)
            out_path[nout++] = argv[++i];
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (argv[i][0] != '-' && nin < NIN) {
            ins[nin] = read_input(argv[i], in_bytes[nin]);
            nin++;
        } else {
            fprintf(stderr, "aot_harness: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (nin != NIN || nout != NOUT) {
        fprintf(stderr, "aot_harness: %d inputs and %d -o needed\n", NIN, NOUT);
        return 2;
    }
    for (k = 0; k < NOUT; k++)
        outs[k] = malloc((size_t)out_bytes[k] + 1);
    for (k = 0; k < COUNTS; k++)
        outs[NOUT + k] = &counts[k];
    if (ENTRY(ins, outs) != 0) {
        fprintf(stderr, "aot_harness: the entry point failed\n");
        return 1;
    }
    if (runs > 0) {
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (k = 0; k < runs; k++)
            ENTRY(ins, outs);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("%.3f ms per run (%d runs)\n",
               ((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6) / runs,
               runs);
    }
    for (k = 0, i = 0; k < NOUT; k++) {
        FILE *f = fopen(out_path[k], "wb");
        size_t bytes = (size_t)out_bytes[k];
        if (unit_bytes[k])
            bytes = (size_t)(counts[i++] * unit_bytes[k]);
        if (!f || fwrite(outs[k], 1, bytes, f) != bytes || fclose(f) != 0) {
            fprintf(stderr, "aot_harness: cannot write %s\n", out_path[k]);
            return 2;
        }
    }
    return 0;
}
