/*
 * kiln tune MODEL [--target cpu] [--trials N] [--records FILE] [options]:
 * search the schedules of the model's tunable CPU kernels (llvm/tune.c),
 * print per workload the default and the best time, and keep every
 * measurement in the records file, which resumes the search and which
 * `kiln run`, `kiln bench` and `kiln lower` take with --records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln.h"
#include "llvm/llvm.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: kiln tune MODEL [--target cpu] [--trials N] [--records FILE] [options]\n"
            "  --target cpu      the host CPU through the LLVM back end (the only target)\n"
            "  --trials N        schedules measured per workload, records included (default 32)\n"
            "  --records FILE    JSON lines: resumed from (measured schedules are not measured\n"
            "                    again) and appended to, one line per measurement\n"
            "  --search S        model: XGBoost cost model ranks random candidates (default);\n"
            "                    random: candidates at random (the baseline)\n"
            "  --batch B         candidates measured between cost model updates (default 8)\n"
            "  --epsilon E       share of a model batch drawn at random (default 0.2)\n"
            "  --repeat R        timed runs per candidate; min and median kept (default 5)\n"
            "  --timeout S       seconds one candidate may take, compile included (default 20)\n"
            "  --threads N       threads of the kernels (default 2)\n"
            "  --exact           measure the kernels without fused multiply-add (as kiln run\n"
            "                    --exact: the fp32 interpreter's bits)\n"
            "  --seed S          random seed of the search (default 1)\n"
            "  --workloads I,J   tune only these workloads (numbers as --list prints them)\n"
            "  --list            print the workloads and stop\n"
            "  --curve FILE      write 'trial total_ms': per trial the sum over the tuned\n"
            "                    workloads of nodes x best (median) time so far\n"
            "  --inject-fault F  crash, wrong or hang in every candidate but the default schedule\n"
            "                    (tests: such candidates are recorded as failed)\n"
            "  -q                no line per measurement\n");
    kiln_shape_usage(f);
}

int kiln_load_records(const char *cmd, const char *path, KlvRecords **out)
{
    GirError err;
    if (!(*out = klv_records_load(path, 0, &err))) {
        fprintf(stderr, "kiln: %s: %s\n", cmd, err.msg);
        return KILN_BAD_INPUT;
    }
    return KILN_OK;
}

/* Progress: one line per measurement. */
typedef struct {
    int quiet;      /* -q */
    int nw, at;     /* workloads, the one being tuned (1-based) */
    const KlvWorkload *w;
    int trials;     /* per workload */
} Progress;

static void on_measured(void *ctx, const KlvWorkload *w, int trial, const KlvRecord *rec, double best)
{
    Progress *p = ctx;
    char s[128];
    if (p->w != w) {
        p->w = w;
        p->at++;
    }
    if (p->quiet)
        return;
    klv_schedule_str(&rec->sched, s, sizeof s);
    if (rec->ok)
        printf("  [%d/%d] trial %2d/%d  %-50s %9.3f ms median, %.3f min  (best %.3f ms)\n", p->at,
               p->nw, trial, p->trials, s, rec->median_ms, rec->min_ms, best);
    else
        printf("  [%d/%d] trial %2d/%d  %-50s failed: %s\n", p->at, p->nw, trial, p->trials, s,
               rec->error);
    fflush(stdout);
}

/* Parse "I,J,..." (1-based, at most nw) into sel[]; 0 or -1. */
static int parse_selection(const char *list, int nw, unsigned char *sel)
{
    const char *p = list;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > nw || (*end && *end != ','))
            return -1;
        sel[v - 1] = 1;
        p = *end ? end + 1 : end;
    }
    return 0;
}

static int int_opt(int argc, char **argv, int *i, int lo, int hi, int *v)
{
    char *end;
    long x;
    if (*i + 1 >= argc)
        return kiln_user_error("tune: %s needs a value", argv[*i]);
    x = strtol(argv[*i + 1], &end, 10);
    if (*end || end == argv[*i + 1] || x < lo || x > hi)
        return kiln_user_error("tune: %s needs a whole number from %d to %d, not '%s'", argv[*i], lo,
                               hi, argv[*i + 1]);
    *v = (int)x;
    (*i)++;
    return KILN_OK;
}

/* The record of the default schedule of w, NULL when not measured. */
static const KlvRecord *default_record(const GirGraph *g, const KlvRecords *r, const KlvWorkload *w)
{
    KlvSchedule def;
    int i;
    if (!klv_schedule_resolve(g, &g->nodes[w->node], NULL, &def))
        return NULL;
    for (i = 0; i < klv_records_count(r); i++) {
        const KlvRecord *x = klv_records_get(r, i);
        if (x->ok && strcmp(x->key, w->key) == 0 && memcmp(&x->sched, &def, sizeof def) == 0)
            return x;
    }
    return NULL;
}

/* The curve: per trial, the sum over the selected workloads of count x
 * the best median time among their first `trial` records. */
static int write_curve(const char *path, const KlvRecords *r, const KlvWorkload *w, int nw,
                       const unsigned char *sel, int trials)
{
    FILE *f = fopen(path, "w");
    double *best = calloc((size_t)nw + 1, sizeof *best);
    int *seen = calloc((size_t)nw + 1, sizeof *seen), t, i, k;
    if (!f || !best || !seen) {
        if (f)
            fclose(f);
        free(best);
        free(seen);
        return kiln_user_error("tune: cannot write %s", path);
    }
    fprintf(f, "# trial total_ms (sum over workloads of nodes x best median time so far)\n");
    for (t = 1; t <= trials; t++) {
        double total = 0;
        int all = 1;
        for (k = 0; k < nw; k++) {
            if (!sel[k])
                continue;
            seen[k] = 0;
            best[k] = -1;
            for (i = 0; i < klv_records_count(r) && seen[k] < t; i++) {
                const KlvRecord *x = klv_records_get(r, i);
                if (strcmp(x->key, w[k].key) != 0)
                    continue;
                seen[k]++;
                if (x->ok && (best[k] < 0 || x->median_ms < best[k]))
                    best[k] = x->median_ms;
            }
            if (best[k] < 0)
                all = 0;
            total += best[k] * w[k].count;
        }
        if (all)
            fprintf(f, "%d %.4f\n", t, total);
    }
    free(best);
    free(seen);
    if (ferror(f) | fclose(f))
        return kiln_user_error("tune: cannot write %s", path);
    return KILN_OK;
}

int kiln_cmd_tune(int argc, char **argv)
{
    const char *path = NULL, *records = NULL, *only = NULL, *curve = NULL;
    KlvTuneOptions o;
    Progress pr;
    GirError err;
    GirGraph *g = NULL;
    KlvRecords *recs = NULL;
    KlvWorkload *w = NULL;
    unsigned char *sel = NULL;
    int i, nw = 0, list = 0, rc = KILN_OK, v, nsel = 0;
    double def_total = 0, best_total = 0;
    memset(&o, 0, sizeof o);
    o.fma = 1;
    memset(&pr, 0, sizeof pr);
    o.trials = 32;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (kiln_is_help(a)) {
            usage(stdout);
            return KILN_OK;
        } else if (strcmp(a, "--target") == 0) {
            if (i + 1 >= argc || strcmp(argv[i + 1], "cpu") != 0)
                return kiln_user_error("tune: --target takes cpu (the only tuned target), not '%s'",
                                       i + 1 < argc ? argv[i + 1] : "");
            i++;
        } else if (strcmp(a, "--trials") == 0) {
            if ((rc = int_opt(argc, argv, &i, 1, 100000, &o.trials)) != KILN_OK)
                return rc;
        } else if (strcmp(a, "--batch") == 0) {
            if ((rc = int_opt(argc, argv, &i, 1, 256, &o.batch)) != KILN_OK)
                return rc;
        } else if (strcmp(a, "--repeat") == 0) {
            if ((rc = int_opt(argc, argv, &i, 1, 16, &o.repeat)) != KILN_OK)
                return rc;
        } else if (strcmp(a, "--threads") == 0) {
            if ((rc = int_opt(argc, argv, &i, 1, 16, &o.threads)) != KILN_OK)
                return rc;
        } else if (strcmp(a, "--seed") == 0) {
            if ((rc = int_opt(argc, argv, &i, 1, 1000000000, &v)) != KILN_OK)
                return rc;
            o.seed = (unsigned)v;
        } else if (strcmp(a, "--timeout") == 0 || strcmp(a, "--epsilon") == 0) {
            char *end;
            double x;
            if (i + 1 >= argc)
                return kiln_user_error("tune: %s needs a value", a);
            x = strtod(argv[i + 1], &end);
            if (*end || end == argv[i + 1] || (a[2] == 't' ? !(x > 0 && x <= 3600) : !(x >= 0 && x <= 1)))
                return kiln_user_error("tune: %s needs a number %s, not '%s'", a,
                                       a[2] == 't' ? "of seconds above 0 up to 3600" : "from 0 to 1",
                                       argv[i + 1]);
            if (a[2] == 't')
                o.timeout_s = x;
            else
                o.epsilon = x > 0 ? x : -1;
            i++;
        } else if (strcmp(a, "--search") == 0) {
            if (i + 1 >= argc || (strcmp(argv[i + 1], "model") != 0 && strcmp(argv[i + 1], "random") != 0))
                return kiln_user_error("tune: --search takes model or random, not '%s'",
                                       i + 1 < argc ? argv[i + 1] : "");
            o.search = strcmp(argv[++i], "random") == 0 ? KLV_SEARCH_RANDOM : KLV_SEARCH_MODEL;
        } else if (strcmp(a, "--inject-fault") == 0) {
            const char *f = i + 1 < argc ? argv[i + 1] : "";
            o.fault = strcmp(f, "crash") == 0   ? KLV_FAULT_CRASH
                      : strcmp(f, "wrong") == 0 ? KLV_FAULT_WRONG
                      : strcmp(f, "hang") == 0  ? KLV_FAULT_HANG
                                                : KLV_FAULT_NONE;
            if (o.fault == KLV_FAULT_NONE)
                return kiln_user_error("tune: --inject-fault takes crash, wrong or hang, not '%s'", f);
            i++;
        } else if (strcmp(a, "--records") == 0 || strcmp(a, "--workloads") == 0 ||
                   strcmp(a, "--curve") == 0) {
            if (i + 1 >= argc)
                return kiln_user_error("tune: %s needs a value", a);
            if (a[2] == 'r')
                records = argv[++i];
            else if (a[2] == 'w')
                only = argv[++i];
            else
                curve = argv[++i];
        } else if (strcmp(a, "--exact") == 0) {
            o.fma = 0;
        } else if (strcmp(a, "--list") == 0) {
            list = 1;
        } else if (strcmp(a, "-q") == 0) {
            pr.quiet = 1;
        } else if (a[0] == '-') {
            return kiln_user_error("tune: unknown option '%s' (kiln tune --help)", a);
        } else if (!path) {
            path = a;
        } else {
            return kiln_user_error("tune: more than one model given ('%s')", a);
        }
    }
    if (!path)
        return kiln_user_error("tune: no model given (kiln tune --help)");
    if (!(g = kiln_load_model(path, 1, &err)))
        return kiln_report(&err);
    if (!kiln_is_quantized(g) && gir_run_pipeline(g, NULL, NULL, &err) < 0) {
        rc = kiln_report(&err);
        goto out;
    }
    if (klv_workloads(g, &w, &nw, &err) < 0) {
        rc = kiln_report(&err);
        goto out;
    }
    if (!(sel = calloc((size_t)nw + 1, 1)))
        gir_die("out of memory");
    if (only ? parse_selection(only, nw, sel) < 0 : (memset(sel, 1, (size_t)nw), 0)) {
        rc = kiln_user_error("tune: --workloads wants numbers from 1 to %d separated by commas, not '%s'",
                             nw, only);
        goto out;
    }
    printf("kiln tune: %s: %d tunable workload%s (graph of %d nodes)\n", path, nw, nw == 1 ? "" : "s",
           g->nnode);
    for (i = 0; i < nw; i++)
        printf("  %2d%s %d node%s, %.3f GMAC: %s\n", i + 1, sel[i] ? " " : "-", w[i].count,
               w[i].count == 1 ? " " : "s", w[i].gmacs, w[i].key);
    if (list)
        goto out;
    if (!(recs = records ? klv_records_load(records, 1, &err) : klv_records_new())) {
        fprintf(stderr, "kiln: tune: %s\n", err.msg);
        rc = KILN_BAD_INPUT;
        goto out;
    }
    if (records && klv_records_count(recs) > 0)
        printf("kiln tune: resuming from %d records in %s\n", klv_records_count(recs), records);
    o.records = records;
    o.progress = on_measured;
    o.ctx = &pr;
    pr.trials = o.trials;
    {
        /* the selected workloads, packed */
        KlvWorkload *ws = calloc((size_t)nw + 1, sizeof *ws);
        if (!ws)
            gir_die("out of memory");
        for (i = 0; i < nw; i++)
            if (sel[i])
                ws[nsel++] = w[i];
        pr.nw = nsel;
        v = klv_tune(g, ws, nsel, &o, recs, &err);
        free(ws);
        if (v < 0) {
            rc = kiln_report(&err);
            goto out;
        }
    }
    printf("\ntimes: the median of the timed runs of the node alone\n");
    printf("%-3s %5s %9s %11s %11s %8s  %s\n", "#", "nodes", "GMAC", "default ms", "best ms",
           "speedup", "best schedule (failed)");
    for (i = 0; i < nw; i++) {
        const KlvRecord *d, *b;
        char s[128];
        int k, nfail = 0;
        if (!sel[i])
            continue;
        d = default_record(g, recs, &w[i]);
        b = klv_records_best(recs, w[i].key);
        for (k = 0; k < klv_records_count(recs); k++)
            nfail += !klv_records_get(recs, k)->ok && strcmp(klv_records_get(recs, k)->key, w[i].key) == 0;
        if (b)
            klv_schedule_str(&b->sched, s, sizeof s);
        printf("%-3d %5d %9.3f %11.3f %11.3f %7.2fx  %s (%d)\n", i + 1, w[i].count, w[i].gmacs,
               d ? d->median_ms : -1, b ? b->median_ms : -1, d && b ? d->median_ms / b->median_ms : 0,
               b ? s : "none", nfail);
        if (d && b) {
            def_total += d->median_ms * w[i].count;
            best_total += b->median_ms * w[i].count;
        }
    }
    printf("total (nodes x median time): default %.3f ms, tuned %.3f ms, %.2fx\n", def_total, best_total,
           best_total > 0 ? def_total / best_total : 0);
    if (curve)
        rc = write_curve(curve, recs, w, nw, sel, o.trials);
out:
    free(sel);
    free(w);
    klv_records_free(recs);
    gir_graph_free(g);
    return rc;
}
