/* Shared test-bench helpers; see tb_util.h. */
#include "tb_util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void tb_rng_seed(TbRng *r, uint64_t seed)
{
    /* splitmix64 step, so nearby seeds give unrelated streams */
    uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    r->s = z ? z : 0x2545f4914f6cdd1dull;
}

uint64_t tb_rand64(TbRng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545f4914f6cdd1dull;
}

int64_t tb_rand_range(TbRng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    if (span == 0) /* full 64-bit range */
        return (int64_t)tb_rand64(r);
    return lo + (int64_t)(tb_rand64(r) % span);
}

int8_t tb_rand_i8(TbRng *r)
{
    return (int8_t)(tb_rand64(r) >> 56);
}

int32_t tb_rand_i32_edgy(TbRng *r)
{
    switch (tb_rand64(r) % 8) {
    case 0:
        return INT32_MIN + (int32_t)tb_rand_range(r, 0, 3);
    case 1:
        return INT32_MAX - (int32_t)tb_rand_range(r, 0, 3);
    case 2:
        return (int32_t)tb_rand_range(r, -300, 300);
    case 3:
        return (int32_t)tb_rand_range(r, -70000, 70000);
    default:
        return (int32_t)(uint32_t)(tb_rand64(r) >> 32);
    }
}

int tb_chance(TbRng *r, int pct)
{
    return (int)(tb_rand64(r) % 100u) < pct;
}

void tb_bp_init(TbBp *bp, uint64_t seed, int pct)
{
    tb_rng_seed(&bp->rng, seed);
    bp->pct = pct;
}

int tb_bp_next(TbBp *bp)
{
    if (bp->pct >= 100)
        return 1;
    return tb_chance(&bp->rng, bp->pct);
}

void tb_check_init(TbCheck *c, int quiet)
{
    memset(c, 0, sizeof *c);
    c->max_print = 8;
    c->quiet = quiet;
}

int tb_check_int(TbCheck *c, const char *what, long idx, int64_t got, int64_t want)
{
    if (got == want)
        return 1;
    if (c->errors < c->max_print)
        printf("  mismatch %s[%ld]: got %lld want %lld\n", what, idx, (long long)got,
               (long long)want);
    c->errors++;
    return 0;
}

void tb_check_fail(TbCheck *c, const char *fmt, ...)
{
    va_list ap;
    if (c->errors < c->max_print) {
        printf("  fail: ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
    c->errors++;
}

int tb_case_end(TbCheck *c, const char *desc)
{
    int ok = c->errors == 0;
    if (!ok || !c->quiet)
        printf("%s %s\n", ok ? "ok  " : "FAIL", desc);
    c->cases++;
    if (!ok)
        c->failed++;
    c->total += c->errors;
    c->errors = 0;
    fflush(stdout);
    return ok;
}

int tb_check_finish(const TbCheck *c, const char *bench)
{
    printf("%s: %ld cases, %ld failed, %ld mismatches\n", bench, c->cases, c->failed,
           c->total);
    return c->failed ? 1 : 0;
}

int tb_args_parse(TbArgs *a, int argc, char **argv, int cases_default)
{
    const char *env = getenv("KILN_TB_SEED");
    int i;
    a->seed = env ? strtoull(env, NULL, 0) : 1;
    a->cases = cases_default;
    a->quiet = 0;
    a->vec = NULL;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            a->seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
            a->cases = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quiet"))
            a->quiet = 1;
        else if (!strcmp(argv[i], "--vec") && i + 1 < argc)
            a->vec = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--seed N] [--cases N] [--quiet] [--vec FILE]\n",
                    argv[0]);
            return -1;
        }
    }
    return 0;
}

void tb_put_u32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}

uint32_t tb_get_u32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
