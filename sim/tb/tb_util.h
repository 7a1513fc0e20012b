/*
 * Shared helpers for the RTL test benches (sim/tb/tb_*.c).
 *
 * A test bench drives one Verilated engine through its C shim, compares every
 * output value with a plain C reference and the measured cycles with the
 * engine's hls/ descriptor.  This header gives it:
 *   - a seeded RNG (xorshift64*), so a failing case is reproduced by its seed;
 *   - random back-pressure: a per-stream coin that decides, each cycle,
 *     whether the bench drives valid (sources) or ready (sinks);
 *   - a checker that counts mismatches, prints the first few, and turns the
 *     whole run into an exit status.
 *
 * Command line shared by all benches (tb_args_parse):
 *   --seed N     first seed (default 1; or env KILN_TB_SEED)
 *   --cases N    number of random cases (default per bench)
 *   --quiet      one line per case only on failure
 *   --vec FILE   bench-specific: write vectors for the iverilog flow
 */
#ifndef KILN_TB_UTIL_H
#define KILN_TB_UTIL_H

#include <stdint.h>
#include <stdio.h>

/* Seeded pseudo-random generator (xorshift64*). */
typedef struct TbRng {
    uint64_t s; /* state, never 0 */
} TbRng;

/* Seed the generator; any seed (0 included) is fine. */
void tb_rng_seed(TbRng *r, uint64_t seed);
/* Next 64 random bits. */
uint64_t tb_rand64(TbRng *r);
/* Uniform integer in [lo, hi] (inclusive); needs lo <= hi. */
int64_t tb_rand_range(TbRng *r, int64_t lo, int64_t hi);
/* Random int8, and random int32 that hits the extremes now and then. */
int8_t tb_rand_i8(TbRng *r);
int32_t tb_rand_i32_edgy(TbRng *r);
/* 1 with probability pct/100. */
int tb_chance(TbRng *r, int pct);

/* Random back-pressure for one stream end.  pct == 100 means "always
 * valid/ready" (the no-back-pressure case used to check exact cycles). */
typedef struct TbBp {
    TbRng rng; /* own stream of coins, so streams do not perturb each other */
    int pct;   /* probability in percent that valid/ready is driven high */
} TbBp;

/* Set up a back-pressure coin; pct in [1, 100]. */
void tb_bp_init(TbBp *bp, uint64_t seed, int pct);
/* Decide this cycle's valid (source) or ready (sink). */
int tb_bp_next(TbBp *bp);

/* Mismatch counter with bounded printing. */
typedef struct TbCheck {
    long errors;     /* mismatches in the current case */
    long total;      /* mismatches over the run */
    long cases;      /* cases finished */
    long failed;     /* cases with at least one mismatch */
    int max_print;   /* mismatches printed per case */
    int quiet;       /* print passing cases too when 0 */
} TbCheck;

/* Start the run. */
void tb_check_init(TbCheck *c, int quiet);
/* Compare one value; prints "what[idx]: got G want W" for the first few. */
int tb_check_int(TbCheck *c, const char *what, long idx, int64_t got, int64_t want);
/* Record a failed condition with a message (printf-style). */
void tb_check_fail(TbCheck *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Close a case: prints "ok"/"FAIL" with the case description; returns 1 if it
 * passed. */
int tb_case_end(TbCheck *c, const char *desc);
/* Summary line; returns the process exit status (0 when all passed). */
int tb_check_finish(const TbCheck *c, const char *bench);

/* Command line shared by all benches. */
typedef struct TbArgs {
    uint64_t seed;     /* first seed */
    int cases;         /* number of random cases */
    int quiet;         /* print failures only */
    const char *vec;   /* vector file for the iverilog flow, or NULL */
} TbArgs;

/* Parse argv into a; cases_default applies when --cases is absent.  Returns 0,
 * or -1 on a bad argument (after printing usage). */
int tb_args_parse(TbArgs *a, int argc, char **argv, int cases_default);

/* Little-endian lane packing of int8 lanes into a byte buffer and back is the
 * identity; these convert between int32 fields and bytes for wide ports. */
void tb_put_u32(uint8_t *b, uint32_t v);
uint32_t tb_get_u32(const uint8_t *b);

#endif

#ifdef __cplusplus
#include "../harness/port_bytes.h"
#endif
