/*
 * kiln simulate DIR [-i in.npy] [--frames N] [--latency L] [--cap CYCLES]
 *                   [--threads T] [--backpressure PCT [--bp-seed N]] [--json]
 * kiln simulate DIR --serve [SOCKET]: the model behind a socket (sim_serve)
 * Runs the generated accelerator of a compiled folder (kiln compile -o DIR)
 * under Verilator against the int8 interpreter and prints the figures.  The
 * work is the kiln_sim library (sim/sim.h): this file reads the options,
 * makes the inputs and prints.  docs/simulate.md describes the flow.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hls/hw.h"
#include "kiln.h"
#include "sim/sim.h"

#define MAX_FRAMES 64  /* --frames upper bound */
#define MAX_THREADS 64 /* --threads upper bound */

static void simulate_usage(FILE *f)
{
    fprintf(f,
            "usage: kiln simulate DIR [-i in.npy] [--frames N] [--latency L] [--cap CYCLES]\n"
            "                     [--threads T] [--backpressure PCT [--bp-seed N]] [--json]\n"
            "       kiln simulate DIR --serve [SOCKET] [--latency L] [--threads T]\n"
            "  DIR          a folder written by kiln compile (plan.json, model.gir, rtl/)\n"
            "  -i in.npy    input tensor (default: seeded random inputs, one per frame)\n"
            "  --frames N   frames of the back-to-back run (default 2)\n"
            "  --latency L  DDR read latency in cycles (default %d)\n"
            "  --cap C      cycles a start may take before it counts as a deadlock\n"
            "  --threads T  threads of the Verilator model (default 1; its own build)\n"
            "  --backpressure PCT  random stalls on every stream between engines and every\n"
            "               AXI slave handshake: each allowed in PCT%% (1..99) of cycles; its own\n"
            "               Verilator build; bit-exact checked, cycles not compared with the plan\n"
            "  --bp-seed N  seed of the stalls (default 1)\n"
            "  --json       print the figures as JSON\n"
            "  --serve S    serve the model on the Unix socket S (default kiln-sim.sock) for\n"
            "               libkiln-rt's sim transport until a client sends quit\n"
            "Checks every output byte against the int8 interpreter and measures cycles.\n",
            HLS_HW_DDR_LAT);
}

/* The whole decimal number in an option's text v when it lies within
 * lo..hi (lo >= 0); -1 when v is empty, has trailing text or a number
 * outside lo..hi (or beyond a long). */
static long long_arg(const char *v, long lo, long hi)
{
    char *end;
    long x;
    errno = 0;
    x = strtol(v, &end, 10);
    if (end == v || *end || errno == ERANGE || x < lo || x > hi)
        return -1;
    return x;
}

/* The command line into *o, *dir, *input, *json, *serve (*seeded: --bp-seed
 * given); KILN_OK, or a KILN_ status to return at once (*done set: --help). */
static int parse_args(int argc, char **argv, SimOptions *o, const char **dir, const char **input,
                      int *json, const char **serve, int *seeded, int *done)
{
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (kiln_is_help(a)) {
            simulate_usage(stdout);
            *done = 1;
            return KILN_OK;
        } else if (!strcmp(a, "--json")) {
            *json = 1;
        } else if (!strcmp(a, "--serve")) {
            *serve = more && argv[i + 1][0] != '-' && *dir ? argv[++i] : "kiln-sim.sock";
        } else if (!strcmp(a, "-i") && more) {
            *input = argv[++i];
        } else if (!strcmp(a, "--frames") && more) {
            if ((o->frames = (int)long_arg(argv[++i], 1, MAX_FRAMES)) < 0)
                return kiln_user_error("simulate: --frames '%s': expected 1..%d", argv[i],
                                       MAX_FRAMES);
        } else if (!strcmp(a, "--threads") && more) {
            if ((o->threads = (int)long_arg(argv[++i], 1, MAX_THREADS)) < 0)
                return kiln_user_error("simulate: --threads '%s': expected 1..%d", argv[i],
                                       MAX_THREADS);
        } else if (!strcmp(a, "--latency") && more) {
            if ((o->latency = long_arg(argv[++i], 1, 100000)) < 0)
                return kiln_user_error("simulate: --latency '%s': expected 1..100000 cycles",
                                       argv[i]);
        } else if (!strcmp(a, "--backpressure") && more) {
            if ((o->bp = (int)long_arg(argv[++i], 1, 99)) < 0)
                return kiln_user_error("simulate: --backpressure '%s': expected 1..99 (the "
                                       "percent of cycles a handshake may happen)", argv[i]);
        } else if (!strcmp(a, "--bp-seed") && more) {
            long v = long_arg(argv[++i], 0, 0x7fffffffL);
            if (v < 0)
                return kiln_user_error("simulate: --bp-seed '%s': expected 0..%ld", argv[i],
                                       0x7fffffffL);
            o->bp_seed = (unsigned long)v;
            *seeded = 1;
        } else if (!strcmp(a, "--cap") && more) {
            if ((o->cap = long_arg(argv[++i], 1, LONG_MAX)) < 0)
                return kiln_user_error("simulate: --cap '%s': expected a positive cycle count",
                                       argv[i]);
        } else if (a[0] == '-') {
            simulate_usage(stderr);
            return kiln_user_error("simulate: unknown option or missing value '%s'", a);
        } else if (!*dir) {
            *dir = a;
        } else {
            return kiln_user_error("simulate: more than one folder given ('%s')", a);
        }
    }
    if (!*dir) {
        simulate_usage(stderr);
        return kiln_user_error("simulate: no folder given (kiln compile -o DIR writes one)");
    }
    if (o->bp && *serve)
        return kiln_user_error("simulate: --backpressure applies to a run, not to --serve");
    if (*seeded && !o->bp)
        return kiln_user_error("simulate: --bp-seed without --backpressure");
    return KILN_OK;
}

/* The inputs of every frame, g->ninput each: the tensor file for every
 * frame, or a seeded random input, fresh per frame. */
static int make_inputs(const GirGraph *g, const char *input, int frames, GirArena *a,
                       GirTensor **out)
{
    GirTensor *in = gir_arena_alloc(a, sizeof *in * (size_t)(frames * g->ninput + 1));
    GirError err;
    int f, i;
    for (f = 0; f < frames; f++)
        for (i = 0; i < g->ninput; i++) {
            GirTensor *t = &in[f * g->ninput + i];
            if (input && f > 0)
                *t = in[i];
            else if (input && fe_read_tensor(input, a, t, &err) < 0)
                return kiln_report(&err);
            else if (!input)
                kiln_random_input(&g->vals[g->inputs[i]].type,
                                  1000u + (uint64_t)f * 16u + (uint64_t)i, a, t);
        }
    *out = in;
    return KILN_OK;
}

static void show(void *user, const char *text)
{
    (void)user;
    fputs(text, stderr);
    fflush(stderr);
}

/* The figures on stdout: the stage table, then the summary lines. */
static void print_result(const SimResult *r)
{
    int i;
    printf("%-5s %-24s %-14s %12s %12s %8s\n", "stage", "layer", "engine", "predicted",
           "measured", "error");
    for (i = 0; i < r->nstage; i++)
        printf("%-5d %-24s %-14s %12s %12ld %8s\n", r->stages[i].stage, r->stages[i].layer,
               r->stages[i].engine, r->stages[i].predicted_text, r->stages[i].first,
               r->stages[i].error_text);
    for (i = 0; i < r->nline; i++)
        fputs(r->lines[i], stdout);
}

int kiln_cmd_simulate(int argc, char **argv)
{
    SimOptions o = {.frames = 2, .latency = HLS_HW_DDR_LAT, .threads = 1, .bp_seed = 1,
                    .log = show};
    const char *dir = NULL, *input = NULL, *serve = NULL;
    int json = 0, seeded = 0, done = 0, rc;
    Sim *s = NULL;
    SimResult *r = NULL;
    GirArena *arena = NULL;
    GirTensor *in = NULL;
    GirError err;
    const GirGraph *g;

    if ((rc = parse_args(argc, argv, &o, &dir, &input, &json, &serve, &seeded, &done)) != KILN_OK || done)
        return rc;
    o.ticks = isatty(2);
    if (sim_open(dir, &s, &err) != SIM_OK)
        return kiln_report(&err);
    if (serve) {
        if (sim_serve(s, &o, serve, &err) != SIM_OK)
            rc = kiln_report(&err);
        sim_close(s);
        return rc;
    }
    g = sim_graph(s);
    if (input && g->ninput != 1) {
        rc = kiln_user_error("simulate: %s/model.gir has %d inputs; -i feeds one", dir,
                             g->ninput);
        goto out;
    }
    fprintf(stderr, "simulate: int8 interpreter on %d frame%s\n", o.frames,
            o.frames == 1 ? "" : "s");
    arena = gir_arena_new();
    if ((rc = make_inputs(g, input, o.frames, arena, &in)) != KILN_OK)
        goto out;
    rc = sim_run(s, &o, in, &r, &err);
    if (r && json)
        puts(r->json);
    else if (r)
        print_result(r);
    if (rc != SIM_OK) /* SIM_FAILED and SIM_BAD_INPUT are KILN_FAILED and KILN_BAD_INPUT */
        kiln_report(&err);
out:
    sim_result_free(r);
    gir_arena_free(arena);
    sim_close(s);
    return rc;
}
