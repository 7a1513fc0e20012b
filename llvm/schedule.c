/*
 * Workloads and schedules: what a tunable kernel's speed depends on (the
 * workload key: op, dtype, shapes, attributes, target triple, CPU and a
 * hash of its features), the distinct workloads of a graph, and which
 * schedule a node gets when it is lowered (a forced one, the best record
 * of its workload, or the defaults).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "internal.h"

/* FNV-1a, 64 bits: a short stable id of a long feature string. */
static unsigned long long fnv1a(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

void klv_host_target_id(char *buf, size_t size)
{
    char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName();
    char *feat = LLVMGetHostCPUFeatures();
    snprintf(buf, size, "%s|%s|%016llx", triple, cpu, fnv1a(feat));
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(feat);
}

/* The id of an object target: triple (normalized), CPU, features hash;
 * CPU "host": the host's id. */
static void target_id(const KlvTarget *t, char *buf, size_t size)
{
    if (t->cpu && strcmp(t->cpu, "host") == 0) {
        klv_host_target_id(buf, size);
        return;
    }
    char *triple = LLVMNormalizeTargetTriple(t->triple ? t->triple : "");
    snprintf(buf, size, "%s|%s|%016llx", triple, t->cpu && t->cpu[0] ? t->cpu : "generic",
             fnv1a(t->features ? t->features : ""));
    LLVMDisposeMessage(triple);
}

/* Append "dims" of value v as AxBxC to buf at *at. */
static void put_dims(char *buf, size_t size, size_t *at, const char *tag, const GirType *t)
{
    int k;
    if (*at >= size)
        return;
    *at += (size_t)snprintf(buf + *at, size - *at, "|%s=", tag);
    for (k = 0; k < t->rank && *at < size; k++)
        *at += (size_t)snprintf(buf + *at, size - *at, "%s%lld", k ? "x" : "", (long long)t->dims[k]);
}

/* Append an ints attribute as name=a,b,c (nothing when absent). */
static void put_ints(char *buf, size_t size, size_t *at, const GirNode *n, const char *name)
{
    int cnt, k;
    const int64_t *a = gir_attr_ints(n, name, &cnt);
    if (!a || *at >= size)
        return;
    *at += (size_t)snprintf(buf + *at, size - *at, "|%s=", name);
    for (k = 0; k < cnt && *at < size; k++)
        *at += (size_t)snprintf(buf + *at, size - *at, "%s%lld", k ? "," : "", (long long)a[k]);
}

void klv_workload_key(const GirGraph *g, const GirNode *n, const KlvTarget *t, char *key,
                      size_t size)
{
    char tid[256];
    size_t at = 0;
    const char *act = gir_attr_string(n, "act", NULL);
    int k;
    at += (size_t)snprintf(key, size, "%s|%s", gir_op_name(n->op),
                           gir_dtype_name(g->vals[n->in[0]].type.dtype));
    for (k = 0; k < n->nin; k++)
        if (n->in[k] >= 0)
            put_dims(key, size, &at, k == 0 ? "x" : k == 1 ? "w" : "b", &g->vals[n->in[k]].type);
    put_dims(key, size, &at, "y", &g->vals[n->out[0]].type);
    put_ints(key, size, &at, n, "strides");
    put_ints(key, size, &at, n, "dilations");
    put_ints(key, size, &at, n, "pads");
    put_ints(key, size, &at, n, "act_min");
    put_ints(key, size, &at, n, "act_max");
    if (act && at < size)
        at += (size_t)snprintf(key + at, size - at, "|act=%s:%g:%g:%g", act,
                               gir_attr_float(n, "act_alpha", 0), gir_attr_float(n, "act_min", 0),
                               gir_attr_float(n, "act_max", 0));
    if (t)
        target_id(t, tid, sizeof tid);
    else
        klv_host_target_id(tid, sizeof tid);
    if (at < size)
        snprintf(key + at, size - at, "|%s", tid);
}

int klv_schedule_resolve(const GirGraph *g, const GirNode *n, const KlvSchedule *s,
                         KlvSchedule *out)
{
    return klv_conv_blocked_resolve(g, n, klv_host_vector_width(), s, out);
}

void klv_schedule_str(const KlvSchedule *s, char *buf, size_t size)
{
    snprintf(buf, size, "owb=%d vl=%d order=%d unroll=%d out=%d threads=%d ocb=%d", s->owb, s->vl,
             s->order, s->unroll, s->out, s->threads, s->ocb);
}

const KlvSchedule *klv_pick_schedule(const GirGraph *g, const GirNode *n,
                                     const KlvSchedule *forced, const KlvRecords *recs,
                                     const KlvTarget *t, KlvSchedule *buf)
{
    char key[512];
    const KlvRecord *best;
    if (forced)
        return forced;
    if (!recs || n->op != GIR_OP_CONV || n->nin < 2 || n->nout < 1)
        return NULL;
    klv_workload_key(g, n, t, key, sizeof key);
    if (!(best = klv_records_best(recs, key)))
        return NULL;
    *buf = best->sched;
    return buf;
}

int klv_workloads(const GirGraph *g, KlvWorkload **out, int *nout, GirError *e)
{
    LLVMContextRef ctx = LLVMContextCreate();
    KlvIr ir;
    KlvWorkload *w = calloc((size_t)g->nnode + 1, sizeof *w);
    int i, k, nw = 0, rc = 0;
    *out = NULL;
    *nout = 0;
    if (!w) {
        LLVMContextDispose(ctx);
        return gir_error_at(e, gir_loc_none(), "out of memory");
    }
    klv_ir_init(&ir, ctx, "workloads");
    ir.vl = klv_host_vector_width();
    ir.vnni = klv_host_vnni();
    for (i = 0; i < g->nnode && rc == 0; i++) {
        const GirNode *n = &g->nodes[i];
        KlvPlan plan;
        char name[32], key[512];
        int r;
        snprintf(name, sizeof name, "kiln_node_%d", i);
        /* lowered into a module thrown away: only the emitter's choice counts */
        r = klv_lower_node(&ir, g, n, name, &plan, e);
        for (k = 0; r > 0 && k < plan.nowned; k++)
            free(plan.owned[k]);
        if (r < 0) {
            rc = -1;
            break;
        }
        if (r == 0 || !plan.tunable)
            continue;
        klv_workload_key(g, n, NULL, key, sizeof key);
        for (k = 0; k < nw && strcmp(w[k].key, key) != 0; k++)
            ;
        if (k == nw) {
            const GirType *yt = &g->vals[n->out[0]].type, *wt = &g->vals[n->in[1]].type;
            snprintf(w[nw].key, sizeof w[nw].key, "%s", key);
            w[nw].node = i;
            w[nw].gmacs = (double)gir_type_numel(yt) * (double)(wt->dims[1] * wt->dims[2] * wt->dims[3]) / 1e9;
            nw++;
        }
        w[k].count++;
    }
    LLVMDisposeBuilder(ir.b);
    LLVMDisposeModule(ir.mod);
    LLVMContextDispose(ctx);
    if (rc < 0) {
        free(w);
        return -1;
    }
    *out = w;
    *nout = nw;
    return 0;
}
