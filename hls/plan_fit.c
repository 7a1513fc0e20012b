/*
 * hls/plan_fit.c: layers moved to the CPU until the smallest design fits.
 *
 * When the smallest design (every array at its least, weights from DDR
 * where on-chip memory is short, line buffers in URAM where block RAM is
 * short) breaks a budget, the FPGA takes what fits and the CPU the rest:
 * hls_plan_fit moves a group of layers a step and plans the smallest design
 * again, until it fits.  The groups tried at each step, from the design as
 * it stands: each segment's tails (its stages from one on, in plan order,
 * down to the whole segment; a tail's consumers are all in it or read it
 * through DDR already) and each stage without MACs alone (kiln_lut,
 * kiln_add, kiln_upsample, ...; in the middle of a segment it splits it,
 * and the new DMA channels may cost more than the engine frees, which the
 * rebuild measures).  Each group is priced by rebuilding the design with it
 * on the CPU: the MACs a frame the FPGA gives up against the budget excess
 * it removes (the sum over resources of the share each is above its
 * budget).  The step takes the group of fewest MACs per unit of excess
 * (zero-MAC groups first, the larger gain first), unless a group that
 * makes the design fit gives up no more MACs than that one: then it takes
 * the fitting group of fewest MACs and stops.  A model that fits keeps its
 * plan as before: hls_plan_fit runs only for one that does not.
 *
 * Needs a plan built by the HlsFitBuild it is given (hls/plan.c); a pinned
 * layer (--pin) never moves.  No move removes every FPGA layer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls/plan_int.h"

/* The budget headroom of each resource as the figures print it. */
static const char *const res_name[5] = {"DSP", "BRAM36", "URAM", "LUT", "FF"};

void hls_moves_copy(HlsMoveSet *to, const HlsMoveSet *a)
{
    memset(to, 0, sizeof *to);
    to->macs_all = a->macs_all;
    if (a->nmove > 0) {
        to->moves = malloc(sizeof *to->moves * (size_t)a->nmove);
        if (!to->moves)
            gir_die("out of memory");
        memcpy(to->moves, a->moves, sizeof *to->moves * (size_t)a->nmove);
        to->nmove = a->nmove;
    }
    if (a->nnode > 0) {
        to->nodes = malloc(sizeof *to->nodes * (size_t)a->nnode);
        to->names = malloc(sizeof *to->names * (size_t)a->nnode);
        if (!to->nodes || !to->names)
            gir_die("out of memory");
        memcpy(to->nodes, a->nodes, sizeof *to->nodes * (size_t)a->nnode);
        memcpy(to->names, a->names, sizeof *to->names * (size_t)a->nnode);
        to->nnode = a->nnode;
    }
}

void hls_moves_free(HlsMoveSet *m)
{
    free(m->moves);
    free(m->nodes);
    free(m->names);
    memset(m, 0, sizeof *m);
}

void hls_fit_summary(const HlsPlan *p, FILE *f)
{
    fprintf(f, "%d layer%s moved in %d move%s; the FPGA keeps %.2f of %.2f M MACs a frame (%.1f%%)",
            p->fit.nnode, p->fit.nnode == 1 ? "" : "s", p->fit.nmove, p->fit.nmove == 1 ? "" : "s",
            (double)p->macs / 1e6, (double)p->fit.macs_all / 1e6,
            p->fit.macs_all > 0 ? 100.0 * (double)p->macs / (double)p->fit.macs_all : 0.0);
}

/* The sum over resources of the share of its budget each is above it
 * (0: within every budget). */
static double excess(const HlsPlan *p)
{
    double x = 0.0;
    int r;
    for (r = 0; r < 5; r++) {
        double u = hls_res_at(&p->total, r), b = hls_res_at(&p->budget, r);
        if (u > b + 1e-9)
            x += (u - b) / (b > 1.0 ? b : 1.0);
    }
    return x;
}

/* The first resource p uses above its budget; -1 when it fits. */
static int first_over(const HlsPlan *p)
{
    int r;
    for (r = 0; r < 5; r++)
        if (hls_res_at(&p->total, r) > hls_res_at(&p->budget, r) + 1e-9)
            return r;
    return -1;
}

/* A group of stages of the design as it stands (plan order). */
typedef struct {
    int *st;     /* stage indices */
    int n;       /* count */
    int whole;   /* 1: a whole segment; 0 with n > 1: a segment's tail */
} Group;

/* fit with one more move: group gr of p's stages, over the budget `over`. */
static void add_move(HlsMoveSet *to, const HlsMoveSet *fit, const HlsPlan *p, const Group *gr,
                     const char *over)
{
    HlsMove *m;
    int i;
    hls_moves_copy(to, fit);
    to->moves = realloc(to->moves, sizeof *to->moves * (size_t)(to->nmove + 1));
    to->nodes = realloc(to->nodes, sizeof *to->nodes * (size_t)(to->nnode + gr->n));
    to->names = realloc(to->names, sizeof *to->names * (size_t)(to->nnode + gr->n));
    if (!to->moves || !to->nodes || !to->names)
        gir_die("out of memory");
    m = &to->moves[to->nmove++];
    memset(m, 0, sizeof *m);
    m->first = to->nnode;
    m->count = gr->n;
    snprintf(m->over, sizeof m->over, "%s", over);
    for (i = 0; i < gr->n; i++) {
        to->nodes[to->nnode] = p->stages[gr->st[i]].node_id;
        to->names[to->nnode++] = p->stages[gr->st[i]].node;
    }
}

/* The report line of the move that took group gr off plan p (q: the
 * design after it). */
static void move_line(HlsMove *m, const HlsPlan *p, const HlsPlan *q, const Group *gr)
{
    const HlsStage *a = &p->stages[gr->st[0]], *z = &p->stages[gr->st[gr->n - 1]];
    int64_t macs = 0;
    int i, r = first_over(p), rq = first_over(q);
    char what[200], after[120];
    for (i = 0; i < gr->n; i++)
        macs += p->stages[gr->st[i]].macs;
    if (gr->n == 1 && !gr->whole)
        snprintf(what, sizeof what, "%s (%s)", a->node, a->desc->name);
    else if (gr->n == 1)
        snprintf(what, sizeof what, "%s (%s, a segment of one layer)", a->node, a->desc->name);
    else
        snprintf(what, sizeof what, "%s %s .. %s (%d layers)",
                 gr->whole ? "the segment" : "the tail of its segment", a->node, z->node, gr->n);
    if (rq < 0)
        snprintf(after, sizeof after, "without them the smallest design fits (%s %.0f)",
                 res_name[r], hls_res_at(&q->total, r));
    else
        snprintf(after, sizeof after, "without them %s %.0f -> %.0f, %s still over",
                 res_name[r], hls_res_at(&p->total, r), hls_res_at(&q->total, r),
                 res_name[rq]);
    snprintf(m->why, sizeof m->why, "%s, %.2f M MACs a frame: the smallest design exceeded %s; "
             "%s", what, (double)macs / 1e6, m->over, after);
}

/* Does group gr hold a pinned stage? */
static int has_pin(const HlsPlan *p, const Group *gr)
{
    int i;
    for (i = 0; i < gr->n; i++)
        if (p->stages[gr->st[i]].pinned)
            return 1;
    return 0;
}

/* The groups of p (Group.st pointing into one buffer): every tail of every
 * segment, and every stage without MACs alone where it is not already its
 * segment's last; *n gets the count. */
static Group *groups_of(const HlsPlan *p, int **buf, int *n)
{
    int ns = p->nstage, seg, i, j, k, cap = 0, ng = 0, used = 0;
    Group *g;
    int *b;
    /* a segment of m stages has m tails of 1..m stages: at most ns * ns / 2
     * indices, and a stage alone each */
    for (seg = 0; seg < p->nsegment; seg++) {
        int m = 0;
        for (i = 0; i < ns; i++)
            m += p->stages[i].segment == seg;
        cap += m * (m + 1) / 2;
    }
    cap += ns;
    g = calloc((size_t)2 * ns + 1, sizeof *g);
    b = malloc(sizeof *b * (size_t)(cap + 1));
    if (!g || !b)
        gir_die("out of memory");
    for (seg = 0; seg < p->nsegment; seg++) {
        int first = 1;
        for (i = 0; i < ns; i++) {
            if (p->stages[i].segment != seg)
                continue;
            g[ng].st = b + used;
            g[ng].whole = first;
            for (j = i; j < ns; j++)
                if (p->stages[j].segment == seg)
                    b[used + g[ng].n++] = j;
            used += g[ng].n;
            ng++;
            first = 0;
        }
    }
    for (i = 0; i < ns; i++) {
        const HlsStage *s = &p->stages[i];
        int last = 1;
        if (s->macs > 0)
            continue;
        for (k = i + 1; k < ns; k++)
            if (p->stages[k].segment == s->segment)
                last = 0;
        if (last) /* already a tail of one */
            continue;
        g[ng].st = b + used;
        g[ng].n = 1;
        b[used++] = i;
        ng++;
    }
    *buf = b;
    *n = ng;
    return g;
}

/* A candidate move kept while the groups are tried: its plan, its move set
 * (the plan holds a copy), its group and the MACs it loses. */
typedef struct {
    HlsPlan *q;
    HlsMoveSet ms;
    int i;
    int64_t lost;
} Pick;

/* Keep q (made by moves ms of group i) in pk, freeing what pk held. */
static void pick_take(Pick *pk, HlsPlan *q, const HlsMoveSet *ms, int i, int64_t lost)
{
    hls_plan_free(pk->q);
    hls_moves_free(&pk->ms);
    pk->q = q;
    pk->ms = *ms;
    pk->i = i;
    pk->lost = lost;
}

HlsPlan *hls_plan_fit(HlsPlan *p, const char *over, HlsFitBuild build, void *ctx)
{
    HlsPlan *cur = p;
    char why[160];
    int64_t macs_all = p->macs;
    snprintf(why, sizeof why, "%s", over);
    for (;;) {
        int *buf, ng, i, best;
        double best_score = 0.0, best_gain = 0.0, x0 = excess(cur);
        HlsPlan *bq;
        Pick pb, pf; /* the best by score; the least loss of those that fit */
        Group *g = groups_of(cur, &buf, &ng);
        memset(&pb, 0, sizeof pb);
        memset(&pf, 0, sizeof pf);
        pb.i = pf.i = -1;
        for (i = 0; i < ng; i++) {
            HlsMoveSet ms;
            GirError e;
            HlsPlan *q;
            double gain, score;
            int64_t lost;
            if (g[i].n >= cur->nstage || has_pin(cur, &g[i]))
                continue;
            add_move(&ms, &cur->fit, cur, &g[i], why);
            q = build(ctx, &ms, &e);
            if (!q) {
                hls_moves_free(&ms);
                continue;
            }
            lost = cur->macs - q->macs;
            gain = x0 - excess(q);
            if (first_over(q) < 0) {
                if (pf.i < 0 || lost < pf.lost || (lost == pf.lost && g[i].n < g[pf.i].n)) {
                    pick_take(&pf, q, &ms, i, lost);
                    continue;
                }
            } else if (gain > 1e-9) {
                score = (double)lost / gain;
                if (pb.i < 0 || score < best_score * (1.0 - 1e-9) ||
                    (score <= best_score * (1.0 + 1e-9) && gain > best_gain)) {
                    pick_take(&pb, q, &ms, i, lost);
                    best_score = score;
                    best_gain = gain;
                    continue;
                }
            }
            hls_plan_free(q);
            hls_moves_free(&ms);
        }
        /* the plans hold copies of their move sets */
        hls_moves_free(&pb.ms);
        hls_moves_free(&pf.ms);
        if (pf.i >= 0 && (pb.i < 0 || pf.lost <= pb.lost)) {
            hls_plan_free(pb.q);
            pb = pf;
        } else {
            hls_plan_free(pf.q);
        }
        bq = pb.q;
        best = pb.i;
        if (best < 0) { /* no group brings it nearer the budgets */
            free(g);
            free(buf);
            if (cur != p)
                hls_plan_free(cur);
            return NULL;
        }
        move_line(&bq->fit.moves[bq->fit.nmove - 1], cur, bq, &g[best]);
        bq->fit.macs_all = macs_all;
        free(g);
        free(buf);
        if (cur != p)
            hls_plan_free(cur);
        cur = bq;
        if (!hls_plan_over_budget(cur, why, sizeof why)) {
            hls_plan_free(p);
            return cur;
        }
    }
}
