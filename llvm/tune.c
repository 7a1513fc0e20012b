/*
 * The schedule search of `kiln tune`, after TVM's Ansor: per workload,
 * batches of candidate schedules are measured, and between batches a cost
 * model (XGBoost gradient-boosted trees through its C API, Debian
 * libxgboost-dev) is trained on every schedule measured so far (features
 * of the workload and the schedule, label: the workload's best time over
 * the candidate's, medians, 0 for a failure) and ranks many random unmeasured
 * candidates; the next batch is the top of that ranking plus a share
 * drawn at random (epsilon), so the model's blind spots still get
 * measured.  The first batch of a workload is the default schedule and
 * random ones.  KLV_SEARCH_RANDOM draws every batch at random (the
 * baseline the model is measured against).
 *
 * A candidate is measured in a forked child: the node alone compiled with
 * the schedule, run once and checked against the interpreter's output of
 * the same seeded input (int8 bit for bit, fp32 within 1e-5 relative L2),
 * then timed o->repeat times.  The child sends its result through a pipe;
 * a child that dies (crash), answers wrong (miscompile) or runs past the
 * time limit (killed) gives a failed record, never taken as best.  The
 * parent never compiles and keeps no threads of its own at a fork.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xgboost/c_api.h>

#include "internal.h"

/* Features of a (workload, schedule) pair for the cost model. */
#define NFEAT 20
/* Random candidates the model ranks per batch. */
#define NPOOL 512

/* One workload being tuned. */
typedef struct {
    const KlvWorkload *w; /* the workload */
    const GirGraph *g;    /* the graph */
    const GirNode *n;     /* its first node in g */
    GirGraph *sub;        /* the node alone */
    GirTensor *in;        /* seeded inputs of sub */
    GirTensor *ref;       /* the interpreter's outputs of sub on them */
    GirArena *arena;      /* in and ref data */
    int64_t C, M, OH, OW, ksz, stride; /* its shape */
    int q;                /* 1: int8 */
} Work;

/* What the measuring child sends back. */
typedef struct {
    int status;         /* 0 ok, 1 failed (msg says why) */
    int nruns;          /* timed runs */
    double runs_ms[16]; /* their times */
    char msg[160];      /* why it failed */
} Result;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* xorshift64*: the search's random numbers, the same for a seed. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static int pick(uint64_t *s, int n)
{
    return (int)(rnd(s) % (uint64_t)n);
}

/* ---- the workload ------------------------------------------------------------ */

/* Seeded inputs (fp32 uniform in [-1, 1), int8 uniform over its range) and
 * the interpreter's outputs. */
static int work_init(Work *wk, const GirGraph *g, const KlvWorkload *w, GirError *e)
{
    const GirType *xt, *wt, *yt;
    const int64_t *st;
    int i, cnt;
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    memset(wk, 0, sizeof *wk);
    wk->w = w;
    wk->g = g;
    wk->n = &g->nodes[w->node];
    xt = &g->vals[wk->n->in[0]].type;
    wt = &g->vals[wk->n->in[1]].type;
    yt = &g->vals[wk->n->out[0]].type;
    wk->C = xt->dims[1], wk->M = wt->dims[0], wk->OH = yt->dims[2], wk->OW = yt->dims[3];
    wk->ksz = wt->dims[2] * wt->dims[3];
    wk->stride = (st = gir_attr_ints(wk->n, "strides", &cnt)) && cnt == 2 ? st[0] : 1;
    wk->q = xt->dtype == GIR_DT_I8;
    wk->sub = klv_node_graph(g, wk->n, NULL);
    wk->arena = gir_arena_new();
    if (gir_infer_shapes(wk->sub, e) < 0)
        return -1;
    wk->in = gir_arena_alloc(wk->arena, sizeof(GirTensor) * ((size_t)wk->sub->ninput + 1));
    wk->ref = gir_arena_alloc(wk->arena, sizeof(GirTensor) * ((size_t)wk->sub->noutput + 1));
    for (i = 0; i < wk->sub->ninput; i++) {
        const GirType *t = &wk->sub->vals[wk->sub->inputs[i]].type;
        int64_t k, ne = gir_type_numel(t);
        wk->in[i].type = *t;
        wk->in[i].data = gir_arena_alloc(wk->arena, (size_t)gir_type_bytes(t) + 1);
        for (k = 0; k < ne; k++) {
            uint64_t r = rnd(&seed) >> 11;
            if (t->dtype == GIR_DT_I8)
                ((int8_t *)wk->in[i].data)[k] = (int8_t)(int)(r % 256 - 128);
            else if (t->dtype == GIR_DT_F32)
                ((float *)wk->in[i].data)[k] = (float)((double)r / 9007199254740992.0 * 2 - 1);
            else
                return gir_error_at(e, wk->n->loc, "tune: node '%s': input dtype %s is not tuned",
                                    wk->n->name, gir_dtype_name(t->dtype));
        }
    }
    return gir_run(wk->sub, wk->in, wk->ref, wk->arena, e);
}

static void work_free(Work *wk)
{
    gir_graph_free(wk->sub);
    gir_arena_free(wk->arena);
}

/* 1 when out agrees with the reference: int8 (any integer) bit for bit,
 * fp32 within 1e-5 relative L2 and no NaN; else 0 with why. */
static int agrees(const GirTensor *out, const GirTensor *ref, char *why, size_t size)
{
    int64_t k, ne = gir_type_numel(&ref->type);
    double num = 0, den = 0;
    if (!gir_type_equal(&out->type, &ref->type)) {
        snprintf(why, size, "miscompiled: output of another type");
        return 0;
    }
    if (ref->type.dtype != GIR_DT_F32) {
        if (memcmp(out->data, ref->data, (size_t)gir_type_bytes(&ref->type)) == 0)
            return 1;
        for (k = 0; k < ne && ((int8_t *)out->data)[k] == ((int8_t *)ref->data)[k]; k++)
            ;
        snprintf(why, size, "miscompiled: output differs from the interpreter's at element %lld",
                 (long long)k);
        return 0;
    }
    for (k = 0; k < ne; k++) {
        double a = ((float *)out->data)[k], b = ((float *)ref->data)[k];
        num += (a - b) * (a - b);
        den += b * b;
    }
    if (num <= 1e-10 * (den > 0 ? den : 1))
        return 1;
    snprintf(why, size, "miscompiled: relative L2 %.3g against the interpreter (bound 1e-5)",
             den > 0 ? sqrt(num / den) : sqrt(num));
    return 0;
}

/* The child: compile, check, time; the result into fd; never returns. */
static void child_measure(const Work *wk, const KlvSchedule *s, const KlvTuneOptions *o, int fd)
{
    Result r;
    GirError e;
    KlvOptions ko;
    KlvProgram *p;
    GirTensor *out;
    GirArena *a;
    int i, reps = o->repeat > 0 ? o->repeat : 5, fault = o->fault, inner = 1;
    KlvSchedule def;
    memset(&r, 0, sizeof r);
    if (reps > 16)
        reps = 16;
    /* a fault in the candidate's code kills the child with its signal,
     * which the parent names (no sanitizer's handler in between) */
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    signal(SIGILL, SIG_DFL);
    signal(SIGFPE, SIG_DFL);
    if (klv_schedule_resolve(wk->g, wk->n, NULL, &def) &&
        memcmp(&def, s, sizeof def) == 0)
        fault = KLV_FAULT_NONE;
    memset(&ko, 0, sizeof ko);
    ko.threads = o->threads;
    ko.fma = o->fma;
    ko.schedule = s;
    out = calloc((size_t)wk->sub->noutput + 1, sizeof *out);
    if (!(p = klv_compile(wk->sub, &ko, &e))) {
        r.status = 1;
        snprintf(r.msg, sizeof r.msg, "does not compile: %.120s", e.msg);
        goto send;
    }
    if (fault == KLV_FAULT_CRASH)
        raise(SIGSEGV);
    if (fault == KLV_FAULT_HANG)
        for (;;)
            sleep(1);
    a = gir_arena_new();
    if (klv_run(p, wk->in, out, a, &e) < 0) {
        r.status = 1;
        snprintf(r.msg, sizeof r.msg, "does not run: %.120s", e.msg);
        goto send;
    }
    if (fault == KLV_FAULT_WRONG && out[0].type.dtype == GIR_DT_F32)
        ((float *)out[0].data)[0] += 1.0f;
    else if (fault == KLV_FAULT_WRONG)
        ((char *)out[0].data)[0] ^= 1;
    for (i = 0; i < wk->sub->noutput; i++)
        if (!agrees(&out[i], &wk->ref[i], r.msg, sizeof r.msg)) {
            r.status = 1;
            goto send;
        }
    gir_arena_free(a);
    for (i = 0; i < reps; i++) {
        double t0;
        int k;
        a = gir_arena_new();
        t0 = now_ms();
        /* a timed run is `inner` runs (at least 2 ms together, from the
         * first), so short kernels are not timed at the clock's grain */
        for (k = 0; k < inner; k++)
            if (klv_run(p, wk->in, out, a, &e) < 0) {
                r.status = 1;
                snprintf(r.msg, sizeof r.msg, "does not run: %.120s", e.msg);
                goto send;
            }
        r.runs_ms[r.nruns++] = (now_ms() - t0) / inner;
        if (i == 0 && r.runs_ms[0] * inner < 2.0) {
            inner = (int)(2.0 / (r.runs_ms[0] > 1e-4 ? r.runs_ms[0] : 1e-4)) + 1;
            inner = inner > 1000 ? 1000 : inner;
            r.nruns = 0;
            i--;
        }
        gir_arena_free(a);
    }
send:
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
    _exit(0);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Measure s on wk in a forked child into rec (ok or failed).  0, or -1 +
 * error when the measurement itself cannot be made (no fork). */
static int measure(const Work *wk, const KlvSchedule *s, const KlvTuneOptions *o, KlvRecord *rec,
                   GirError *e)
{
    int fd[2], st = 0;
    pid_t pid;
    Result r;
    size_t got = 0;
    double limit = (o->timeout_s > 0 ? o->timeout_s : 20) * 1e3, t0 = now_ms();
    memset(rec, 0, sizeof *rec);
    snprintf(rec->key, sizeof rec->key, "%s", wk->w->key);
    rec->sched = *s;
    fflush(NULL);
    if (pipe(fd) < 0 || (pid = fork()) < 0)
        return gir_error_at(e, gir_loc_none(), "tune: cannot start a measuring process: %s",
                            strerror(errno));
    if (pid == 0) {
        close(fd[0]);
        child_measure(wk, s, o, fd[1]);
    }
    close(fd[1]);
    while (got < sizeof r) {
        struct pollfd pf;
        double left = limit - (now_ms() - t0);
        ssize_t k;
        int ready;
        pf.fd = fd[0];
        pf.events = POLLIN;
        ready = left > 0 ? poll(&pf, 1, (int)left + 1) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            kill(pid, SIGKILL);
            snprintf(rec->error, sizeof rec->error, "timed out after %.3g s", limit / 1e3);
            break;
        }
        k = read(fd[0], (char *)&r + got, sizeof r - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd[0]);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (rec->error[0])
        return 0;
    if (got < sizeof r) {
        if (WIFSIGNALED(st))
            snprintf(rec->error, sizeof rec->error, "crashed: signal %d (%s)", WTERMSIG(st),
                     strsignal(WTERMSIG(st)));
        else
            snprintf(rec->error, sizeof rec->error, "the measuring process exited with status %d",
                     WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return 0;
    }
    if (r.status != 0 || r.nruns < 1) {
        snprintf(rec->error, sizeof rec->error, "%s", r.msg[0] ? r.msg : "no timed run");
        return 0;
    }
    rec->ok = 1;
    rec->nruns = r.nruns;
    memcpy(rec->runs_ms, r.runs_ms, sizeof r.runs_ms);
    qsort(r.runs_ms, (size_t)r.nruns, sizeof r.runs_ms[0], cmp_double);
    rec->min_ms = r.runs_ms[0];
    rec->median_ms = r.nruns % 2 ? r.runs_ms[r.nruns / 2]
                                 : (r.runs_ms[r.nruns / 2 - 1] + r.runs_ms[r.nruns / 2]) / 2;
    return 0;
}

/* ---- candidates and the cost model ---------------------------------------------- */

/* A random schedule valid for wk (resolved); 0 after too many misses. */
static int random_schedule(const Work *wk, uint64_t *seed, KlvSchedule *out)
{
    static const int unrolls[3] = {1, 2, 4}, ocbs[3] = {1, 2, 4};
    int host = klv_host_vector_width(), tries;
    for (tries = 0; tries < 64; tries++) {
        KlvSchedule s;
        int most = wk->OW < 16 ? (int)wk->OW : 16;
        s.owb = 1 + pick(seed, most);
        s.vl = pick(seed, 2) ? host : host / 2;
        s.order = 1 + pick(seed, 2);
        s.unroll = unrolls[pick(seed, 3)];
        s.out = 1 + pick(seed, 4); /* 3: pixel lanes, 4: transposed, where they fit */
        s.threads = 1 + pick(seed, 2);
        s.ocb = ocbs[pick(seed, 3)]; /* 2 and 4: where they fit (out 4) */
        if (klv_schedule_resolve(wk->g, wk->n, &s, out))
            return 1;
    }
    return 0;
}

static void features(const Work *wk, const KlvSchedule *s, float *f)
{
    int64_t nbx = (wk->OW + s->owb - 1) / s->owb, nocb = (wk->M + s->vl - 1) / s->vl;
    f[0] = (float)log2((double)wk->C);
    f[1] = (float)log2((double)wk->M);
    f[2] = (float)log2((double)wk->OH);
    f[3] = (float)log2((double)wk->OW);
    f[4] = (float)wk->ksz;
    f[5] = (float)wk->stride;
    f[6] = (float)wk->q;
    f[7] = (float)s->owb;
    f[8] = (float)s->vl;
    f[9] = (float)s->order;
    f[10] = (float)s->unroll;
    f[11] = (float)s->out;
    f[12] = (float)s->threads;
    f[13] = (float)(nbx * s->owb - wk->OW) / (float)wk->OW;
    f[14] = (float)(nocb * s->vl - wk->M) / (float)wk->M;
    f[15] = (float)log2((double)(nocb * wk->OH));
    f[16] = (float)((nocb * wk->OH) % 2);
    f[17] = (float)(s->owb * s->vl * (s->ocb ? s->ocb : 1)) / 16.0f;
    f[18] = (float)log2((double)(wk->C * wk->ksz));
    f[19] = (float)s->ocb;
}

/* The cost model: trees trained on the measured records of the workloads. */
typedef struct {
    BoosterHandle b; /* NULL: not trained */
} Model;

static int xgb_fail(GirError *e, const char *what)
{
    return gir_error_at(e, gir_loc_none(), "tune: xgboost: %s: %s", what, XGBGetLastError());
}

/* Train m on every record of recs whose workload is in wks[0..nw). */
static int model_train(Model *m, const Work *wks, int nw, const KlvRecords *recs, GirError *e)
{
    int n = klv_records_count(recs), i, k, rows = 0, rc = 0;
    float *x = malloc(sizeof(float) * NFEAT * ((size_t)n + 1)), *y = malloc(sizeof(float) * ((size_t)n + 1));
    DMatrixHandle d = NULL;
    if (m->b)
        XGBoosterFree(m->b);
    m->b = NULL;
    if (!x || !y) {
        free(x);
        free(y);
        return gir_error_at(e, gir_loc_none(), "out of memory");
    }
    for (i = 0; i < n; i++) {
        const KlvRecord *r = klv_records_get(recs, i);
        const KlvRecord *best;
        for (k = 0; k < nw && strcmp(wks[k].w->key, r->key) != 0; k++)
            ;
        if (k == nw)
            continue;
        best = klv_records_best(recs, r->key);
        features(&wks[k], &r->sched, x + rows * NFEAT);
        y[rows++] = r->ok && best ? (float)(best->median_ms / (r->median_ms > 1e-9 ? r->median_ms : 1e-9))
                                  : 0.0f;
    }
    if (rows < 4)
        goto out;
    if (XGDMatrixCreateFromMat(x, (bst_ulong)rows, NFEAT, NAN, &d) ||
        XGDMatrixSetFloatInfo(d, "label", y, (bst_ulong)rows)) {
        rc = xgb_fail(e, "training data");
        goto out;
    }
    if (XGBoosterCreate(&d, 1, &m->b) || XGBoosterSetParam(m->b, "objective", "reg:squarederror") ||
        XGBoosterSetParam(m->b, "max_depth", "6") || XGBoosterSetParam(m->b, "eta", "0.2") ||
        XGBoosterSetParam(m->b, "min_child_weight", "1") ||
        /* one thread: the parent keeps no threads of its own when it forks */
        XGBoosterSetParam(m->b, "nthread", "1") || XGBoosterSetParam(m->b, "verbosity", "0")) {
        rc = xgb_fail(e, "booster");
        goto out;
    }
    for (k = 0; k < 60; k++)
        if (XGBoosterUpdateOneIter(m->b, k, d)) {
            rc = xgb_fail(e, "training");
            goto out;
        }
out:
    if (rc < 0 && m->b) {
        XGBoosterFree(m->b);
        m->b = NULL;
    }
    if (d)
        XGDMatrixFree(d);
    free(x);
    free(y);
    return rc;
}

/* Predicted scores of cands[0..n) into score. */
static int model_predict(const Model *m, const Work *wk, const KlvSchedule *cands, int n,
                         double *score, GirError *e)
{
    float *x = malloc(sizeof(float) * NFEAT * ((size_t)n + 1));
    const float *p;
    bst_ulong len = 0;
    DMatrixHandle d = NULL;
    int i, rc = 0;
    if (!x)
        return gir_error_at(e, gir_loc_none(), "out of memory");
    for (i = 0; i < n; i++)
        features(wk, &cands[i], x + i * NFEAT);
    if (XGDMatrixCreateFromMat(x, (bst_ulong)n, NFEAT, NAN, &d) ||
        XGBoosterPredict(m->b, d, 0, 0, 0, &len, &p) || len != (bst_ulong)n)
        rc = xgb_fail(e, "prediction");
    for (i = 0; rc == 0 && i < n; i++)
        score[i] = p[i];
    if (d)
        XGDMatrixFree(d);
    free(x);
    return rc;
}

static int in_list(const KlvSchedule *l, int n, const KlvSchedule *s)
{
    int i;
    for (i = 0; i < n; i++)
        if (memcmp(&l[i], s, sizeof *s) == 0)
            return 1;
    return 0;
}

/* Up to want distinct random schedules of wk not in recs nor in skip[0..nskip). */
static int random_fresh(const Work *wk, const KlvRecords *recs, uint64_t *seed,
                        const KlvSchedule *skip, int nskip, KlvSchedule *out, int want)
{
    int n = 0, miss = 0;
    while (n < want && miss < 2000) {
        KlvSchedule s;
        if (!random_schedule(wk, seed, &s) || klv_records_has(recs, wk->w->key, &s) ||
            in_list(skip, nskip, &s) || in_list(out, n, &s)) {
            miss++;
            continue;
        }
        out[n++] = s;
    }
    return n;
}

static int count_key(const KlvRecords *recs, const char *key)
{
    int i, n = 0;
    for (i = 0; i < klv_records_count(recs); i++)
        n += strcmp(klv_records_get(recs, i)->key, key) == 0;
    return n;
}

/* The next batch of wk: at most want schedules into out; their count. */
static int next_batch(Model *m, const Work *wks, int nw, const Work *wk, const KlvRecords *recs,
                      const KlvTuneOptions *o, uint64_t *seed, KlvSchedule *out, int want,
                      GirError *e)
{
    KlvSchedule pool[NPOOL];
    double score[NPOOL];
    int n = 0, np, i, j, nmodel;
    double eps = o->epsilon < 0 ? 0 : o->epsilon > 0 ? o->epsilon : 0.2;
    if (count_key(recs, wk->w->key) == 0) {
        /* the default schedule first */
        if (klv_schedule_resolve(wk->g, wk->n, NULL, &out[0]))
            n = 1;
    }
    if (o->search == KLV_SEARCH_RANDOM || count_key(recs, wk->w->key) + n < want)
        return n + random_fresh(wk, recs, seed, out, n, out + n, want - n);
    if (model_train(m, wks, nw, recs, e) < 0)
        return -1;
    if (!m->b)
        return n + random_fresh(wk, recs, seed, out, n, out + n, want - n);
    np = random_fresh(wk, recs, seed, out, n, pool, NPOOL);
    if (np == 0)
        return n;
    if (model_predict(m, wk, pool, np, score, e) < 0)
        return -1;
    /* sort the pool by predicted score, best first (insertion: NPOOL is small) */
    for (i = 1; i < np; i++) {
        KlvSchedule s = pool[i];
        double v = score[i];
        for (j = i - 1; j >= 0 && score[j] < v; j--) {
            pool[j + 1] = pool[j];
            score[j + 1] = score[j];
        }
        pool[j + 1] = s;
        score[j + 1] = v;
    }
    nmodel = (int)((want - n) * (1 - eps) + 0.5);
    for (i = 0; i < nmodel && i < np; i++)
        out[n++] = pool[i];
    /* epsilon: the rest drawn at random from the unranked remainder */
    while (n < want && i < np) {
        j = i + pick(seed, np - i);
        out[n++] = pool[j];
        pool[j] = pool[i];
        i++;
    }
    return n;
}

int klv_tune(const GirGraph *g, const KlvWorkload *w, int nw, const KlvTuneOptions *o,
             KlvRecords *recs, GirError *e)
{
    Work *wks = calloc((size_t)nw + 1, sizeof *wks);
    Model m = {NULL};
    int i, k, rc = 0, trials = o->trials > 0 ? o->trials : 32, batch = o->batch > 0 ? o->batch : 8;
    uint64_t seed = o->seed ? o->seed : 1;
    KlvSchedule *cand = calloc((size_t)batch + 1, sizeof *cand);
    if (!wks || !cand) {
        free(wks);
        free(cand);
        return gir_error_at(e, gir_loc_none(), "out of memory");
    }
    seed = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (i = 0; i < nw && rc == 0; i++)
        rc = work_init(&wks[i], g, &w[i], e);
    for (i = 0; i < nw && rc == 0; i++) {
        int done = count_key(recs, w[i].key);
        while (done < trials && rc == 0) {
            int want = trials - done < batch ? trials - done : batch;
            int nc = next_batch(&m, wks, nw, &wks[i], recs, o, &seed, cand, want, e);
            if (nc < 0) {
                rc = -1;
                break;
            }
            if (nc == 0)
                break; /* the space is measured out */
            for (k = 0; k < nc && rc == 0; k++) {
                KlvRecord rec;
                const KlvRecord *best;
                if ((rc = measure(&wks[i], &cand[k], o, &rec, e)) < 0)
                    break;
                if (o->records && (rc = klv_records_append(o->records, &rec, e)) < 0)
                    break;
                if ((rc = klv_records_add(recs, &rec, e)) < 0)
                    break;
                done++;
                best = klv_records_best(recs, w[i].key);
                if (o->progress)
                    o->progress(o->ctx, &w[i], done, &rec, best ? best->median_ms : -1);
            }
        }
    }
    if (m.b)
        XGBoosterFree(m.b);
    for (i = 0; i < nw; i++)
        if (wks[i].sub)
            work_free(&wks[i]);
    free(wks);
    free(cand);
    return rc;
}
