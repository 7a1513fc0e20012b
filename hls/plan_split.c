/*
 * A dataflow segment split in two where that shortens the interval of a
 * plan with a shared engine (hls_fold_splits).
 *
 * A dataflow segment runs on a run unit of its own, one frame a start
 * (kiln_regfile UNITS, host-runtime/kiln_sched.h): the next frame enters
 * it only once this one's last stage has written its last beat.  So the
 * segment's share of the interval is its one-frame run, the fill of its
 * pipeline and its slowest stage's frame together, not its slowest
 * stage's occupancy as in a dataflow without units.  YOLOv3-tiny's first
 * segment on ZCU102 (conv0 .. maxpool9) runs 416,703 cycles a frame where
 * its slowest stage, conv6, takes 400,236.  Split before a stage, each
 * half runs on a unit of its own and the next frame enters the first
 * half while this one is in the second; the stream between them goes
 * through DDR (written by the first half's output channel, read by the
 * second's input channel: more DDR traffic, two DMA channels' LUTs, and a
 * frame's latency grows by the second half's fill, which no longer
 * overlaps the first).
 *
 * Each stage of each segment is tried as the second half's first; the
 * split of the shortest interval is taken while one shortens it by
 * SPLIT_GAIN of it or more, the plan
 * still fits its budgets, is not DDR-bound and its latency stays within
 * the bound (without one, with any_latency, any latency; else none is
 * taken), up to KILN_SCHED_UNITS - 1 dataflow segments.
 *
 * Needs: the plan after the latency steps (and hls_fold_recut).  Leaves
 * the plan evaluated.
 */
#include "hls/plan_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-runtime/kiln_sched.h"

/* The least share of the interval a split must save: each costs a frame's
 * latency (its second half's fill), two DMA channels and DDR traffic, so
 * a split that only moves the interval by a stage's drain is not taken
 * (ZCU104's fresh search: 704,993 -> 704,986 cycles at 43,355 cycles of
 * latency). */
#define SPLIT_GAIN 0.005

/* What a split changes outside the stages (which the caller copies). */
typedef struct {
    int nsegment;
    int n;          /* entries of order */
    int *order;
    int *seg;       /* the parts' SEGMENT values */
} SplitSave;

static void split_save(const HlsPlan *p, SplitSave *v)
{
    const HlsFold *f = &p->fold;
    int i;
    v->nsegment = p->nsegment;
    v->n = p->nsegment + f->npart;
    v->order = malloc(sizeof *v->order * (size_t)(v->n + 1));
    v->seg = malloc(sizeof *v->seg * (size_t)(f->npart + 1));
    if (!v->order || !v->seg)
        gir_die("out of memory");
    memcpy(v->order, f->order, sizeof *v->order * (size_t)v->n);
    for (i = 0; i < f->npart; i++)
        v->seg[i] = f->parts[i].seg;
}

static void split_restore(HlsPlan *p, const SplitSave *v, const HlsStage *stages)
{
    HlsFold *f = &p->fold;
    int i;
    memcpy(p->stages, stages, sizeof *stages * (size_t)p->nstage);
    p->nsegment = v->nsegment;
    memcpy(f->order, v->order, sizeof *v->order * (size_t)v->n);
    for (i = 0; i < f->npart; i++)
        f->parts[i].seg = v->seg[i];
}

static void split_free(SplitSave *v)
{
    free(v->order);
    free(v->seg);
}

int hls_fold_splits(HlsPlan *p, HlsStage *save, char (*grow)[HLS_GROW_LEN], int any_latency,
                    GirError *e)
{
    size_t n = (size_t)p->nstage;
    int taken = 0;
    if (p->fold.n == 0 || !hls_plan_fits(p, e))
        return 0;
    for (;;) {
        int64_t iv0 = p->interval, lat0 = p->latency, blat = 0;
        int64_t biv = iv0 - (int64_t)ceil((double)iv0 * SPLIT_GAIN); /* at most this */
        int64_t lat_max = p->lat_goal > 0 ? (p->lat_goal > lat0 ? p->lat_goal : lat0)
                          : any_latency   ? INT64_MAX
                                          : lat0;
        int at, best = -1;
        SplitSave v;
        if (p->nsegment + 2 > KILN_SCHED_UNITS)
            break;
        split_save(p, &v);
        memcpy(save, p->stages, sizeof *save * n);
        for (at = 1; at < p->nstage; at++) {
            if (hls_fold_split(p, at, NULL) == 0 && hls_plan_fits(p, NULL) &&
                p->latency <= lat_max &&
                (p->interval < biv || (p->interval == biv && (best < 0 || p->latency < blat)))) {
                best = at;
                biv = p->interval;
                blat = p->latency;
            }
            split_restore(p, &v, save);
        }
        split_free(&v);
        if (best < 0) {
            hls_plan_eval(p, 0, e);
            break;
        }
        hls_fold_split(p, best, e);
        hls_plan_eval(p, 0, e);
        snprintf(grow[best], HLS_GROW_LEN,
                 "starts dataflow segment %d, split from the one before it (a run unit "
                 "each): interval %lld -> %lld cycles, latency %lld -> %lld",
                 p->stages[best].segment, (long long)iv0, (long long)p->interval,
                 (long long)lat0, (long long)p->latency);
        taken++;
    }
    return taken;
}
