/*
 * krt_run SPEC DIR -i IN.bin... -o OUT.bin... [--frames N] [--timeout MS] [--in-flight]
 * Loads the compiled folder DIR onto the accelerator SPEC (sim:SOCKET or
 * uio:/dev/uioN[,/dev/udmabufM]) through libkiln-rt and runs N frames (1 by
 * default) of the given input images (one file per model input, the DDR
 * image of docs/runtime.md); writes the last frame's output images.
 * --in-flight: the N frames through krt_run_frames (a folded plan's frames
 * in flight), one -i per input no earlier run feeds (krt_input_fed 0).
 * Exit 0, 1 on a failed run (one line on stderr), 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln_rt.h"

#define MAX_IO 32 /* -i and -o files */

static void usage(void)
{
    fprintf(stderr, "usage: krt_run SPEC DIR -i IN.bin... -o OUT.bin... [--frames N] "
                    "[--timeout MS] [--in-flight]\n");
}

/* The file path into buf of exactly n bytes; 0 or -1. */
static int load(const char *path, uint8_t *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(buf, 1, n, f) : 0;
    int extra = f ? fgetc(f) : EOF;
    if (f)
        fclose(f);
    if (got != n || extra != EOF) {
        fprintf(stderr, "krt_run: %s: expected %zu bytes (the channel's frame image)\n", path, n);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *in[MAX_IO], *out[MAX_IO];
    uint8_t *ib[MAX_IO] = {0}, *ob[MAX_IO] = {0};
    int nin = 0, nout = 0, frames = 1, timeout = 10000, flight = 0, need, k, i, f, rc = 1;
    const uint8_t *const **fi = NULL;
    uint8_t ***fo = NULL;
    KrtDev *d = NULL;
    KrtModel *m = NULL;
    KrtError e;
    if (argc < 3) {
        usage();
        return 2;
    }
    for (i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "-i") && i + 1 < argc && nin < MAX_IO)
            in[nin++] = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc && nout < MAX_IO)
            out[nout++] = argv[++i];
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc && (frames = atoi(argv[++i])) > 0)
            ;
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc &&
                 (timeout = atoi(argv[++i])) > 0)
            ;
        else if (!strcmp(argv[i], "--in-flight"))
            flight = 1;
        else {
            usage();
            return 2;
        }
    }
    if (krt_open(argv[1], &d, &e) || krt_load(d, argv[2], &m, &e)) {
        fprintf(stderr, "krt_run: %s\n", e.msg);
        krt_close(d);
        return 1;
    }
    for (i = 0, need = 0; i < krt_num_inputs(m); i++)
        need += !flight || !krt_input_fed(m, i);
    if (nin != need || nout > krt_num_outputs(m) || krt_num_inputs(m) > MAX_IO ||
        krt_num_outputs(m) > MAX_IO) {
        fprintf(stderr, "krt_run: %s has %d inputs%s and %d outputs; %d -i and %d -o given\n",
                argv[2], need, flight ? " not fed by an earlier run" : "", krt_num_outputs(m), nin,
                nout);
        goto done;
    }
    for (i = 0, k = 0; i < krt_num_inputs(m); i++)
        if ((!flight || !krt_input_fed(m, i)) &&
            (!(ib[i] = malloc(krt_input(m, i)->frame_bytes)) ||
             load(in[k++], ib[i], krt_input(m, i)->frame_bytes) < 0))
            goto done;
    for (i = 0; i < krt_num_outputs(m); i++)
        if (!(ob[i] = malloc(krt_output(m, i)->frame_bytes)))
            goto done;
    if (flight) { /* the frames' outputs apart (a later run reads an earlier one's), the
                   * last frame's into ob */
        fi = calloc((size_t)frames, sizeof *fi);
        fo = calloc((size_t)frames, sizeof *fo);
        for (f = 0; fi && fo && f < frames; f++) {
            fi[f] = (const uint8_t *const *)ib;
            fo[f] = f == frames - 1 ? ob : calloc(MAX_IO, sizeof **fo);
            for (i = 0; fo[f] && f < frames - 1 && i < krt_num_outputs(m); i++)
                if (!(fo[f][i] = malloc(krt_output(m, i)->frame_bytes)))
                    break;
            if (!fo[f] || (f < frames - 1 && i < krt_num_outputs(m)))
                break;
        }
        if (!fi || !fo || f < frames) {
            fprintf(stderr, "krt_run: out of memory\n");
            goto done;
        }
        if (krt_run_frames(m, frames, fi, (uint8_t *const *const *)fo, timeout, &e)) {
            fprintf(stderr, "krt_run: %s\n", e.msg);
            goto done;
        }
    }
    for (f = 0; !flight && f < frames; f++)
        if (krt_run(m, (const uint8_t *const *)ib, ob, timeout, &e)) {
            fprintf(stderr, "krt_run: frame %d: %s\n", f, e.msg);
            goto done;
        }
    for (i = 0; i < nout; i++) {
        FILE *o = fopen(out[i], "wb");
        size_t n = krt_output(m, i)->frame_bytes;
        if (!o || fwrite(ob[i], 1, n, o) != n || fclose(o) != 0) {
            fprintf(stderr, "krt_run: %s: cannot write\n", out[i]);
            goto done;
        }
    }
    printf("krt_run: %d frame%s, %u cycles the last, done seen by %s\n", frames,
           frames == 1 ? "" : "s", (unsigned)krt_last_cycles(m),
           krt_last_by_irq(m) ? "the interrupt" : "STATUS");
    rc = 0;
done:
    for (f = 0; fo && f < frames - 1; f++) {
        for (i = 0; fo[f] && i < MAX_IO; i++)
            free(fo[f][i]);
        free(fo[f]);
    }
    free(fo);
    free((void *)fi);
    for (i = 0; i < MAX_IO; i++) {
        free(ib[i]);
        free(ob[i]);
    }
    krt_unload(m);
    krt_close(d);
    return rc;
}
