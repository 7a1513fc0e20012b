/*
 * A compiled graph: one kernel per node where an emitter has a lowering,
 * the interpreter for the rest, value buffers allocated once, and the
 * parallel-for that splits a kernel's outer loop across threads.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Orc.h>

#include "internal.h"
#include "jit.h"

typedef void (*KlvKernel)(void **args, int64_t lo, int64_t hi);

/* One node of the program. */
typedef struct {
    int node;           /* node id in the graph */
    KlvKernel fn;       /* compiled kernel; NULL: the node runs in the interpreter */
    KlvKernel pre;      /* kernel run before fn (plan.pre), else NULL */
    KlvPlan plan;       /* the kernel's range, work and tables */
    void **args;        /* the kernel's pointer array: ins, outs, extra */
    GirGraph *sub;      /* interpreter nodes: the node alone as a graph */
    GirGraph *check;    /* a guarded kernel (plan.guard): the node alone as a graph,
                           run when the kernel sets its flag */
    int fused;          /* 1: computed by an earlier node's kernel (chain.c); 2: a
                           Concat its parts' producers write (alias_concats) */
    double ms, min_ms;  /* KILN_CPU_PROFILE: wall time summed over runs, least run */
} KlvStep;

struct KlvProgram {
    const GirGraph *g;  /* the graph, read in place */
    int threads;        /* parallel-for width */
    KlvJit jit;         /* the compiled module */
    void **buf;         /* per value id: its data */
    GirType *rt;        /* per value id: its type in the last run (a value of
                           data-dependent extent: as its producer left it) */
    int *dyn;           /* per value id: the axis of data-dependent extent
                           (klv_bound_type), -1: none (the type is static),
                           DYN_SIZED: a shape found at run time (sized_value) */
    int64_t *cap;       /* per value id: bytes of buf (the bound for dyn ones) */
    unsigned char *own; /* per value id: buf was malloc'd here */
    KlvStep *steps;     /* one per node, in order */
    KlvStats stats;     /* compilation figures */
    struct Pool *pool;  /* the parallel-for's workers */
    int profile;        /* KILN_CPU_PROFILE set: time each node, print at klv_free;
                           2 ("thread"): the calling thread's CPU time */
    int runs;           /* klv_run calls so far (profile) */
};

static double clock_ms(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double now_ms(void)
{
    return clock_ms(CLOCK_MONOTONIC);
}

/* The profile's clock: wall time, or with KILN_CPU_PROFILE=thread the
 * calling thread's CPU time (with one thread the node's own work, which
 * other processes on the machine barely change). */
static double profile_ms(const KlvProgram *p)
{
    return p->profile == 2 ? clock_ms(CLOCK_THREAD_CPUTIME_ID) : now_ms();
}

static void copy_attrs(GirGraph *sub, int id, const GirNode *n)
{
    int k;
    for (k = 0; k < n->nattr; k++) {
        const GirAttr *a = &n->attrs[k];
        switch (a->kind) {
        case GIR_ATTR_INT: gir_set_attr_int(sub, id, a->name, a->i); break;
        case GIR_ATTR_FLOAT: gir_set_attr_float(sub, id, a->name, a->f); break;
        case GIR_ATTR_STRING: gir_set_attr_string(sub, id, a->name, a->s); break;
        case GIR_ATTR_INTS: gir_set_attr_ints(sub, id, a->name, a->ints, a->n); break;
        case GIR_ATTR_FLOATS: gir_set_attr_floats(sub, id, a->name, a->floats, a->n); break;
        case GIR_ATTR_TENSOR: gir_set_attr_tensor(sub, id, a->name, &a->t); break;
        }
    }
}

/* Node n of g alone as a graph: constant inputs stay constants (data from
 * ins when given, else from g), the others become graph inputs of the types
 * in ins (or g's), in the node's input order without repeats.  (internal.h) */
GirGraph *klv_node_graph(const GirGraph *g, const GirNode *n, const GirTensor *ins)
{
    GirGraph *sub = gir_graph_new(n->name);
    int ids[64], outs[16], k, id;
    GirType undef;
    memset(&undef, 0, sizeof undef);
    undef.rank = -1;
    for (k = 0; k < n->nin; k++) {
        const GirValue *v;
        GirType t;
        if (n->in[k] < 0) {
            ids[k] = -1;
            continue;
        }
        v = &g->vals[n->in[k]];
        if ((ids[k] = gir_find_value(sub, v->name)) >= 0)
            continue;
        t = ins && ins[k].data ? ins[k].type : v->type;
        if (v->kind == GIR_VAL_CONST) {
            ids[k] = gir_add_const(sub, v->name, t, ins && ins[k].data ? ins[k].data : v->data, v->loc);
        } else {
            ids[k] = gir_add_value(sub, v->name, GIR_VAL_INPUT, t, v->loc);
            gir_add_input(sub, ids[k]);
        }
        gir_copy_scale(sub, ids[k], g, n->in[k]);
    }
    for (k = 0; k < n->nout; k++) {
        outs[k] = gir_add_value(sub, g->vals[n->out[k]].name, GIR_VAL_NODE, undef,
                                g->vals[n->out[k]].loc);
        gir_copy_scale(sub, outs[k], g, n->out[k]);
    }
    id = gir_add_node(sub, n->op, n->name, ids, n->nin, outs, n->nout, n->loc);
    copy_attrs(sub, id, n);
    for (k = 0; k < n->nout; k++)
        gir_add_output(sub, outs[k]);
    return sub;
}

/* The tensors that feed sub's inputs, from per-input tensors of node n. */
static void feed(const GirGraph *sub, const GirGraph *g, const GirNode *n, const GirTensor *ins,
                 GirTensor *feeds)
{
    int i, k;
    for (i = 0; i < sub->ninput; i++)
        for (k = 0; k < n->nin; k++)
            if (n->in[k] >= 0 && strcmp(g->vals[n->in[k]].name, sub->vals[sub->inputs[i]].name) == 0) {
                feeds[i] = ins[k];
                break;
            }
}

int klv_interp_node(const GirGraph *g, const GirNode *n, const GirTensor *ins, GirTensor *outs,
                    GirArena *arena, GirError *e)
{
    GirGraph *sub;
    GirTensor feeds[64];
    int rc;
    if (n->nin > 64 || n->nout > 16)
        return gir_error_at(e, n->loc, "node '%s' has too many inputs or outputs", n->name);
    sub = klv_node_graph(g, n, ins);
    feed(sub, g, n, ins, feeds);
    rc = gir_run(sub, feeds, outs, arena, e);
    gir_graph_free(sub);
    return rc;
}

/* ---- the parallel-for ------------------------------------------------------ */

#define MAX_THREADS 16      /* threads of one program */
#define MIN_PAR_WORK 200000 /* below this many operations one thread is faster */

typedef struct Pool Pool;

/* Chunks of a job per thread: the threads claim them in turn, so a thread
 * the system holds back (a loaded machine) leaves its share to the others
 * instead of every thread waiting for its fixed slice. */
#define CHUNKS_PER_THREAD 8
/* Where a step is this much work or more (plan.work's unit, about a
 * multiply-add per lane) each step is a chunk of its own, so the thread
 * that finishes first waits for at most one step of the other's:
 * YOLOv3-tiny's 512 -> 1,024 Conv has 64 steps of 12.5 M (a whole oc
 * block each), which 16 chunks would group by 4 (0.6 ms a chunk on one
 * thread). */
#define BIG_STEP 4000000

/* One worker's start argument. */
typedef struct {
    Pool *pool; /* its pool */
} Worker;

/* Worker threads started once per program.  A job is one kernel call split
 * into chunks, claimed by the calling thread and the workers alike. */
struct Pool {
    pthread_t th[MAX_THREADS];  /* workers 1 .. n */
    Worker w[MAX_THREADS];      /* their start arguments */
    int n;                      /* workers started */
    pthread_mutex_t mu;         /* guards everything below but the atomics */
    pthread_cond_t go, done;    /* a new job; its last chunk finished */
    _Atomic unsigned gen;       /* job number, bumped per job (read unlocked
                                   while spinning) */
    int stop;                   /* 1: workers exit */
    KlvKernel fn;               /* the job's kernel */
    void **args;                /* its arguments */
    int64_t range;              /* its range */
    int64_t chunks;             /* its chunks */
    _Atomic uint64_t next;      /* the job number (high 32 bits) and its next
                                   unclaimed chunk (low 32 bits) */
    _Atomic int64_t left;       /* chunks of the job not finished */
};

/* Claim and run chunks of job gen until none is left; chunk c is
 * [range * c / chunks, range * (c + 1) / chunks).  The claim counter
 * carries the job number, so a worker that wakes after its job ended
 * claims nothing of a later one. */
static void run_chunks(Pool *p, unsigned gen, KlvKernel fn, void **args, int64_t range, int64_t chunks)
{
    uint64_t v = atomic_load(&p->next);
    for (;;) {
        int64_t c = (int64_t)(v & 0xffffffffu);
        if ((unsigned)(v >> 32) != gen || c >= chunks)
            return;
        if (!atomic_compare_exchange_weak(&p->next, &v, v + 1))
            continue; /* v holds the counter's value now */
        fn(args, range * c / chunks, range * (c + 1) / chunks);
        if (atomic_fetch_sub(&p->left, 1) == 1) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
        v = atomic_load(&p->next);
    }
}

/* Spins of a thread waiting for a job or for a job's end before it sleeps
 * on the condition variable (kernels follow each other within
 * microseconds; a wake-up through the kernel takes a few): the first
 * PAUSES with a pause instruction, the others through sched_yield, so on
 * a loaded machine a waiting thread gives its core to whoever runs there
 * (the other thread of the job among them) instead of burning it. */
#define SPINS 4000
#define PAUSES 256

static void cpu_relax(int k)
{
    if (k >= PAUSES) {
        sched_yield();
        return;
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Pool *p = w->pool;
    unsigned seen = 0;
    for (;;) {
        KlvKernel fn;
        void **args;
        int64_t range, chunks;
        int k;
        for (k = 0; k < SPINS && atomic_load(&p->gen) == seen; k++)
            cpu_relax(k);
        pthread_mutex_lock(&p->mu);
        while (p->gen == seen && !p->stop)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = p->gen;
        fn = p->fn, args = p->args, range = p->range, chunks = p->chunks;
        pthread_mutex_unlock(&p->mu);
        run_chunks(p, seen, fn, args, range, chunks);
    }
}

/* Start threads - 1 workers (fewer if the system refuses some). */
static Pool *pool_start(int threads)
{
    Pool *p = calloc(1, sizeof *p);
    int k;
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    for (k = 1; k < threads; k++) {
        p->w[p->n].pool = p;
        if (pthread_create(&p->th[p->n], NULL, worker_main, &p->w[p->n]) != 0)
            break;
        p->n++;
    }
    return p;
}

static void pool_stop(Pool *p)
{
    int k;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (k = 0; k < p->n; k++)
        pthread_join(p->th[k], NULL);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

/* Run fn over [0, range): on the calling thread alone when the work is
 * small or threads is 1, else in chunks claimed by it and the pool's
 * workers as each is free. */
static void parallel_for(Pool *p, KlvKernel fn, void **args, int64_t range, int64_t work,
                         int threads)
{
    int parts = p && threads != 1 ? p->n + 1 : 1;
    int64_t chunks = (int64_t)parts * CHUNKS_PER_THREAD;
    unsigned gen;
    int k;
    if (parts > range)
        parts = (int)range;
    if (parts <= 1 || range * work < MIN_PAR_WORK) {
        fn(args, 0, range);
        return;
    }
    if (work >= BIG_STEP)
        chunks = range;
    if (chunks > range)
        chunks = range;
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->args = args;
    p->range = range;
    p->chunks = chunks;
    gen = ++p->gen;
    atomic_store(&p->left, chunks);
    atomic_store(&p->next, (uint64_t)gen << 32);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    run_chunks(p, gen, fn, args, range, chunks);
    for (k = 0; k < SPINS && atomic_load(&p->left) > 0; k++)
        cpu_relax(k);
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->left) > 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

/* ---- compile and run --------------------------------------------------------- */

int klv_lower_node(KlvIr *ir, const GirGraph *g, const GirNode *n, const char *name,
                   KlvPlan *plan, GirError *e)
{
    static KlvEmitFn *const emitters[] = {klv_emit_select, klv_emit_f32, klv_emit_i8, klv_emit_move,
                                          klv_emit_gemm_i8, klv_emit_qonnx};
    size_t k;
    for (k = 0; k < sizeof emitters / sizeof emitters[0]; k++) {
        int rc;
        memset(plan, 0, sizeof *plan);
        if ((rc = emitters[k](ir, g, n, name, plan, e)) != 0)
            return rc;
    }
    return 0;
}

/* KlvProgram.dyn of a value whose shape the program finds at run time. */
#define DYN_SIZED (-2)
/* alloc_buffers: a value of no static shape not yet placed. */
#define DYN_PENDING (-3)

/* 1 when value v of g is the output of a ConstantOfShape, Range or OneHot
 * whose shape follows from its inputs' data (the shape, the bounds, the
 * depth), those inputs of static types: the program finds the shape by
 * the shape rule before the node runs and sizes the buffer then. */
static int sized_value(const GirGraph *g, int v)
{
    const GirValue *val = &g->vals[v];
    const GirNode *n;
    int k;
    if (val->kind != GIR_VAL_NODE || val->producer < 0 || val->type.rank < 0)
        return 0;
    n = &g->nodes[val->producer];
    if ((n->op != GIR_OP_CONSTANTOFSHAPE && n->op != GIR_OP_RANGE && n->op != GIR_OP_ONEHOT) ||
        n->nout != 1 || n->out[0] != v)
        return 0;
    for (k = 0; k < n->nin; k++)
        if (n->in[k] >= 0 && !gir_type_is_static(&g->vals[n->in[k]].type))
            return 0;
    return 1;
}

/* Make value v's buffer hold bytes (a value sized at run time: it grows;
 * its old data is not kept). */
static int ensure_cap(KlvProgram *p, int v, int64_t bytes, GirError *e)
{
    void *b;
    if (bytes <= p->cap[v] && p->buf[v])
        return 0;
    if (!(b = klv_big_alloc((size_t)bytes + 64, 0)))
        return gir_error_at(e, p->g->vals[v].loc, "out of memory for value '%s' (%lld bytes)",
                            p->g->vals[v].name, (long long)bytes);
    free(p->buf[v]);
    p->buf[v] = b;
    p->cap[v] = bytes;
    return 0;
}

static int alloc_buffers(KlvProgram *p, GirError *e)
{
    const GirGraph *g = p->g;
    int v, i, k;
    p->buf = calloc((size_t)g->nval + 1, sizeof *p->buf);
    p->own = calloc((size_t)g->nval + 1, 1);
    p->rt = calloc((size_t)g->nval + 1, sizeof *p->rt);
    p->dyn = calloc((size_t)g->nval + 1, sizeof *p->dyn);
    p->cap = calloc((size_t)g->nval + 1, sizeof *p->cap);
    if (!p->buf || !p->own || !p->rt || !p->dyn || !p->cap)
        return gir_error_at(e, gir_loc_none(), "out of memory");
    for (v = 0; v < g->nval; v++) {
        const GirValue *val = &g->vals[v];
        int64_t bytes;
        p->rt[v] = val->type;
        p->dyn[v] = -1;
        if (val->kind == GIR_VAL_CONST) {
            p->buf[v] = val->data;
            p->cap[v] = gir_type_bytes(&val->type);
            continue;
        }
        bytes = gir_type_bytes(&val->type);
        /* an output of data-dependent extent: a buffer for the most it can
         * hold; the run sets its extent */
        if (bytes < 0 && klv_bound_type(g, v, &p->rt[v], &p->dyn[v]))
            bytes = gir_type_bytes(&p->rt[v]);
        if (bytes < 0) {
            /* allocated by the first run (sized_value), or placed below */
            p->dyn[v] = sized_value(g, v) ? DYN_SIZED : DYN_PENDING;
            p->own[v] = 1;
            continue;
        }
        /* huge pages from 2 MiB up, as the weights; not zeroed */
        p->buf[v] = klv_big_alloc((size_t)bytes + 64, 0);
        if (!p->buf[v])
            return gir_error_at(e, val->loc, "out of memory for value '%s'", val->name);
        p->own[v] = 1;
        p->cap[v] = bytes;
    }
    /* what a node reading such a value makes (a Gather of NMS's indices)
     * is sized by its run in the interpreter; any other value must be
     * static */
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        int reads = 0;
        for (k = 0; k < n->nin; k++)
            reads |= n->in[k] >= 0 && p->dyn[n->in[k]] != -1 && p->dyn[n->in[k]] != DYN_PENDING;
        for (k = 0; reads && k < n->nout; k++)
            if (n->out[k] >= 0 && p->dyn[n->out[k]] == DYN_PENDING)
                p->dyn[n->out[k]] = DYN_SIZED;
    }
    for (v = 0; v < g->nval; v++) {
        if (p->dyn[v] == DYN_PENDING) {
            char ty[128];
            return gir_error_at(e, g->vals[v].loc, "cpu target needs static shapes: value '%s' is %s",
                                g->vals[v].name, gir_type_str(&g->vals[v].type, ty, sizeof ty));
        }
    }
    return 0;
}

/* 1 when node n reads a value of data-dependent extent or shape: it runs in the
 * interpreter, which takes the extent of the run (kernels have their
 * shapes as constants). */
static int reads_dyn(const KlvProgram *p, const GirNode *n)
{
    int k;
    for (k = 0; k < n->nin; k++)
        if (n->in[k] >= 0 && p->dyn[n->in[k]] != -1)
            return 1;
    return 0;
}

/* A Concat whose parts are contiguous slabs of its output (every
 * dimension before the axis 1: YOLOv3-tiny's route of 128 and 256
 * channels) costs nothing when each part's producer writes straight into
 * its slab: its buffer becomes a view of the output's, and the Concat's
 * step is marked fused (it runs no kernel).  A part qualifies when a
 * node produces it, it is no graph output, it is that Concat's input once
 * and no other Concat's part, nor an aliased Concat's output. */
static void alias_concats(KlvProgram *p)
{
    const GirGraph *g = p->g;
    int i, k, j;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        const GirType *yt;
        int64_t axis, at = 0;
        int ok = 1;
        if (n->op != GIR_OP_CONCAT || n->nout != 1 || n->out[0] < 0 || !p->own[n->out[0]] ||
            p->dyn[n->out[0]] != -1)
            continue;
        yt = &g->vals[n->out[0]].type;
        axis = gir_attr_int(n, "axis", 0);
        if (axis < 0)
            axis += yt->rank;
        for (k = 0; k < axis && ok; k++)
            ok = yt->dims[k] == 1;
        for (k = 0; k < n->nin && ok; k++) {
            int v = n->in[k];
            ok = v >= 0 && g->vals[v].kind == GIR_VAL_NODE && p->own[v] && p->dyn[v] == -1 &&
                 !klv_is_output(g, v) &&
                 !(g->nodes[g->vals[v].producer].op == GIR_OP_CONCAT &&
                   p->steps[g->vals[v].producer].fused);
            for (j = 0; j < k && ok; j++)
                ok = n->in[j] != v;
        }
        if (!ok)
            continue;
        for (k = 0; k < n->nin; k++) {
            int v = n->in[k];
            free(p->buf[v]);
            p->own[v] = 0;
            p->buf[v] = (char *)p->buf[n->out[0]] + at;
            at += gir_type_bytes(&g->vals[v].type);
        }
        p->steps[i].fused = 2;
    }
}

KlvProgram *klv_compile(const GirGraph *g, const KlvOptions *opts, GirError *e)
{
    KlvProgram *p = calloc(1, sizeof *p);
    LLVMOrcThreadSafeContextRef tsc;
    KlvIr ir;
    double t0 = now_ms();
    int i, k, nkern = 0, opt;
    if (!p) {
        gir_error_at(e, gir_loc_none(), "out of memory");
        return NULL;
    }
    p->g = g;
    p->threads = opts && opts->threads > 0 ? opts->threads : 2;
    opt = opts && opts->opt_level > 0 ? opts->opt_level : 3;
    p->stats.nodes = g->nnode;
    p->steps = calloc((size_t)g->nnode + 1, sizeof *p->steps);
    if (!p->steps || alloc_buffers(p, e) < 0) {
        klv_free(p);
        return NULL;
    }
    alias_concats(p);
    tsc = LLVMOrcCreateNewThreadSafeContext();
    klv_ir_init(&ir, LLVMOrcThreadSafeContextGetContext(tsc), g->name ? g->name : "kiln");
    ir.fma = opts && opts->fma;
    ir.vl = klv_host_vector_width();
    ir.vnni = klv_host_vnni();
    ir.guard_ok = 1;
    ir.count_ok = 1;
    ir.sized_ok = 1;
    for (i = 0; i < g->nnode; i++) {
        const GirNode *n = &g->nodes[i];
        KlvStep *s = &p->steps[i];
        char name[32];
        KlvSchedule sbuf;
        int rc;
        int chain[KLV_CHAIN_MAX];
        s->node = i;
        if (s->fused) {
            p->stats.lowered++;
            if (s->fused == 2)
                p->stats.concats++;
            else
                p->stats.fused++;
            continue;
        }
        snprintf(name, sizeof name, "kiln_node_%d", i);
        ir.sched = opts ? klv_pick_schedule(g, n, opts->schedule, opts->records, NULL, &sbuf) : NULL;
        if (n->op == GIR_OP_CONV && n->nout == 1) {
            ir.nchain = klv_chain_find(g, i, chain, KLV_CHAIN_MAX);
            ir.chain = chain;
        }
        rc = reads_dyn(p, n) ? 0 : klv_lower_node(&ir, g, n, name, &s->plan, e);
        /* a kernel must say the extent of an output that has one to say */
        for (k = 0; rc > 0 && k < n->nout; k++)
            if (n->out[k] >= 0 && p->dyn[n->out[k]] != -1 &&
                !(k == 0 && (p->dyn[n->out[k]] >= 0 ? s->plan.count : s->plan.sized)))
                rc = 0;
        ir.chain = NULL;
        ir.nchain = 0;
        if (rc > 0 && ir.sched && !opts->schedule && s->plan.tunable)
            p->stats.tuned++;
        ir.sched = NULL;
        if (rc < 0)
            break;
        if (rc == 0) {
            for (k = 0; k < s->plan.nowned; k++)
                free(s->plan.owned[k]);
            memset(&s->plan, 0, sizeof s->plan);
            s->sub = klv_node_graph(g, n, NULL);
            p->stats.fallback++;
            continue;
        }
        nkern++;
        if (s->plan.guard && !(s->check = klv_node_graph(g, n, NULL))) {
            gir_error_at(e, n->loc, "out of memory");
            break;
        }
        s->args = calloc((size_t)(n->nin + n->nout + s->plan.nextra + s->plan.chained) + 1,
                         sizeof *s->args);
        for (k = 0; s->args && k < n->nin; k++)
            s->args[k] = n->in[k] >= 0 ? p->buf[n->in[k]] : NULL;
        for (k = 0; s->args && k < n->nout; k++)
            s->args[n->nin + k] = n->out[k] >= 0 ? p->buf[n->out[k]] : NULL;
        for (k = 0; s->args && k < s->plan.nextra; k++)
            s->args[n->nin + n->nout + k] = s->plan.extra[k];
        /* a fused chain: the kernel writes the last link's output, reads
         * each binary link's other operand; the links run no kernel */
        for (k = 0; s->args && k < s->plan.chained; k++) {
            const GirNode *r = &g->nodes[chain[k]];
            int prev = k ? g->nodes[chain[k - 1]].out[0] : n->out[0];
            if (r->nin == 2 && r->op != GIR_OP_CLIP)
                s->args[n->nin + n->nout + s->plan.nextra + k] = p->buf[r->in[r->in[0] == prev ? 1 : 0]];
            p->steps[chain[k]].fused = 1;
            if (k == s->plan.chained - 1)
                s->args[n->nin] = p->buf[r->out[0]];
        }
        if (!s->args) {
            gir_error_at(e, n->loc, "out of memory");
            break;
        }
        p->stats.lowered++;
    }
    LLVMDisposeBuilder(ir.b);
    p->stats.ir_ms = now_ms() - t0;
    if (i < g->nnode) {
        LLVMDisposeModule(ir.mod);
        LLVMOrcDisposeThreadSafeContext(tsc);
        klv_free(p);
        return NULL;
    }
    if (nkern == 0) {
        LLVMDisposeModule(ir.mod);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return p;
    }
    k = klv_jit_compile(&p->jit, tsc, ir.mod, opt, e);
    LLVMOrcDisposeThreadSafeContext(tsc);
    if (k < 0) {
        klv_free(p);
        return NULL;
    }
    p->pool = pool_start(p->threads);
    p->profile = !getenv("KILN_CPU_PROFILE") || !*getenv("KILN_CPU_PROFILE") ? 0
                 : strcmp(getenv("KILN_CPU_PROFILE"), "thread") == 0        ? 2
                                                                             : 1;
    for (i = 0; i < g->nnode; i++) {
        char name[32];
        void *fn;
        if (p->steps[i].sub || p->steps[i].fused)
            continue;
        snprintf(name, sizeof name, "kiln_node_%d", i);
        if (klv_jit_lookup(&p->jit, name, &fn, e) < 0) {
            klv_free(p);
            return NULL;
        }
        memcpy(&p->steps[i].fn, &fn, sizeof fn);
        if (p->steps[i].plan.pre) {
            snprintf(name, sizeof name, "kiln_node_%d_pre", i);
            if (klv_jit_lookup(&p->jit, name, &fn, e) < 0) {
                klv_free(p);
                return NULL;
            }
            memcpy(&p->steps[i].pre, &fn, sizeof fn);
        }
    }
    p->stats.opt_ms = p->jit.opt_ms;
    p->stats.jit_ms = p->jit.jit_ms;
    snprintf(p->stats.cpu, sizeof p->stats.cpu, "%s", p->jit.cpu);
    return p;
}

/* Run step s in the interpreter (as graph sub); its outputs copied into
 * the buffers. */
static int run_fallback(KlvProgram *p, const KlvStep *s, GirGraph *sub, GirArena *a, GirError *e)
{
    const GirGraph *g = p->g;
    const GirNode *n = &g->nodes[s->node];
    GirTensor ins[64], feeds[64], outs[16];
    int k;
    for (k = 0; k < n->nin; k++) {
        memset(&ins[k], 0, sizeof ins[k]);
        if (n->in[k] >= 0) {
            ins[k].type = p->rt[n->in[k]];
            ins[k].data = p->buf[n->in[k]];
        }
    }
    feed(sub, g, n, ins, feeds);
    if (gir_run(sub, feeds, outs, a, e) < 0)
        return -1;
    for (k = 0; k < n->nout; k++) {
        int v = n->out[k];
        int64_t want;
        if (v < 0) /* an optional output the graph leaves out */
            continue;
        want = gir_type_bytes(&outs[k].type);
        if (p->dyn[v] == DYN_SIZED && want >= 0 && ensure_cap(p, v, want, e) < 0)
            return -1;
        /* a value of data-dependent extent takes the run's (within its
         * buffer); any other keeps its compiled size */
        if (p->dyn[v] != -1 ? want < 0 || want > p->cap[v] ||
                                  (p->dyn[v] >= 0 && outs[k].type.rank != p->rt[v].rank)
                            : want != gir_type_bytes(&g->vals[v].type))
            return gir_error_at(e, n->loc, "node '%s': output %d has another size at run time",
                                n->name, k);
        if (p->dyn[v] != -1)
            p->rt[v] = outs[k].type;
        memcpy(p->buf[v], outs[k].data, (size_t)want);
    }
    return 0;
}

/* Before step s's kernel (plan.sized): its output's shape by the shape
 * rule from the inputs' data, the buffer sized for it, the dims into the
 * kernel's table and the range set to its element count.  The shape
 * rule's error (a negative dim, a zero Range delta) is the run's. */
static int size_output(KlvProgram *p, KlvStep *s, GirError *e)
{
    const GirGraph *g = p->g;
    const GirNode *n = &g->nodes[s->node];
    GirTensor ins[64];
    const GirTensor *insp[64];
    GirType outs[16];
    int64_t bytes, *dims = s->plan.extra[s->plan.sized - 1];
    int k, v = n->out[0];
    for (k = 0; k < n->nin; k++) {
        insp[k] = NULL;
        if (n->in[k] < 0)
            continue;
        ins[k].type = p->rt[n->in[k]];
        ins[k].data = p->buf[n->in[k]];
        insp[k] = &ins[k];
    }
    if (gir_shape_node(g, n, insp, outs, e) < 0)
        return -1;
    if ((bytes = gir_type_bytes(&outs[0])) < 0 || outs[0].rank != p->rt[v].rank)
        return gir_error_at(e, n->loc, "node '%s': its output has no static shape at run time", n->name);
    if (ensure_cap(p, v, bytes, e) < 0)
        return -1;
    s->args[n->nin] = p->buf[v];
    p->rt[v] = outs[0];
    for (k = 0; k < outs[0].rank; k++)
        dims[k] = outs[0].dims[k];
    s->plan.range = gir_type_numel(&outs[0]);
    return 0;
}

int klv_check_input(const GirGraph *g, int i, const GirTensor *t, GirError *e)
{
    const GirValue *v = &g->vals[g->inputs[i]];
    char a[128], b[128];
    if (gir_type_equal(&t->type, &v->type))
        return 0;
    return gir_error_at(e, v->loc, "input '%s' is %s, the compiled graph takes %s", v->name,
                        gir_type_str(&t->type, a, sizeof a), gir_type_str(&v->type, b, sizeof b));
}

int klv_run(KlvProgram *p, const GirTensor *inputs, GirTensor *outputs, GirArena *arena,
            GirError *e)
{
    const GirGraph *g = p->g;
    GirArena *scratch = NULL;
    int i, rc = 0;
    for (i = 0; i < g->ninput; i++) {
        const GirValue *v = &g->vals[g->inputs[i]];
        if (klv_check_input(g, i, &inputs[i], e) < 0)
            return -1;
        memcpy(p->buf[g->inputs[i]], inputs[i].data, (size_t)gir_type_bytes(&v->type));
    }
    for (i = 0; i < g->nnode && rc == 0; i++) {
        KlvStep *s = &p->steps[i];
        int32_t *flag = s->plan.guard ? s->plan.extra[s->plan.guard - 1] : NULL;
        double t0 = p->profile ? profile_ms(p) : 0;
        if (s->fn && s->plan.sized && (rc = size_output(p, s, e)) < 0)
            break;
        if (s->fn) {
            if (flag)
                *flag = 0;
            if (s->pre)
                parallel_for(p->pool, s->pre, s->args, s->plan.pre_range, s->plan.pre_work, 0);
            parallel_for(p->pool, s->fn, s->args, s->plan.range, s->plan.work, s->plan.threads);
            if (s->plan.count) {
                int v = g->nodes[s->node].out[0];
                p->rt[v].dims[p->dyn[v]] = *(const int64_t *)s->plan.extra[s->plan.count - 1];
            }
        }
        if ((!s->fn && !s->fused) || (flag && *flag)) {
            if (!scratch)
                scratch = gir_arena_new();
            rc = run_fallback(p, s, s->fn ? s->check : s->sub, scratch, e);
        }
        if (p->profile) {
            double t = profile_ms(p) - t0;
            s->ms += t;
            if (p->runs == 0 || t < s->min_ms)
                s->min_ms = t;
        }
    }
    p->runs++;
    gir_arena_free(scratch);
    for (i = 0; i < g->noutput && rc == 0; i++) {
        const GirType *t = &p->rt[g->outputs[i]];
        size_t bytes = (size_t)gir_type_bytes(t);
        outputs[i].type = *t;
        outputs[i].data = gir_arena_alloc(arena, bytes + 1);
        memcpy(outputs[i].data, p->buf[g->outputs[i]], bytes);
    }
    return rc;
}

void klv_stats(const KlvProgram *p, KlvStats *s)
{
    *s = p->stats;
}

int klv_node_lowered(const KlvProgram *p, int node)
{
    return node >= 0 && node < p->g->nnode && p->steps[node].sub == NULL;
}

/* KILN_CPU_PROFILE: per node its mean and least wall time over the runs,
 * on stderr (a measurement aid; the figures include the parallel-for). */
static void print_profile(const KlvProgram *p)
{
    double sum = 0, summin = 0;
    int i;
    fprintf(stderr, "kiln: cpu profile over %d runs (ms%s)\n%4s %-16s %-28s %9s %9s\n", p->runs,
            p->profile == 2 ? ", the calling thread's CPU time" : "", "node", "op", "name", "mean", "min");
    for (i = 0; i < p->g->nnode; i++) {
        const KlvStep *s = &p->steps[i];
        const GirNode *n = &p->g->nodes[i];
        if (s->fused)
            continue;
        fprintf(stderr, "%4d %-16s %-28.28s %9.3f %9.3f\n", i, gir_op_name(n->op), n->name,
                s->ms / p->runs, s->min_ms);
        sum += s->ms / p->runs;
        summin += s->min_ms;
    }
    fprintf(stderr, "%4s %-16s %-28s %9.3f %9.3f\n", "", "total", "", sum, summin);
}

void klv_free(KlvProgram *p)
{
    int i, k;
    if (!p)
        return;
    if (p->profile && p->runs > 0)
        print_profile(p);
    pool_stop(p->pool);
    klv_jit_free(&p->jit);
    for (i = 0; p->steps && i < p->g->nnode; i++) {
        free(p->steps[i].args);
        gir_graph_free(p->steps[i].sub);
        gir_graph_free(p->steps[i].check);
        for (k = 0; k < p->steps[i].plan.nowned; k++)
            free(p->steps[i].plan.owned[k]);
    }
    free(p->steps);
    for (i = 0; p->buf && i < p->g->nval; i++)
        if (p->own[i])
            free(p->buf[i]);
    free(p->buf);
    free(p->own);
    free(p->rt);
    free(p->dyn);
    free(p->cap);
    free(p);
}
