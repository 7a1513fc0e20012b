/*
 * kiln_sched.h: the order in which a host runs the frames of a plan with
 * the shared conv engine beside the dataflow, defined once.  A frame is a
 * chain of runs (regmap.json tsconv.segment_order: dataflow segments and
 * the engine's parts, each reading what the one before wrote); each run
 * goes to a run unit of kiln_regfile (unit[i] for entry i, 0 ..
 * KILN_SCHED_UNITS - 1: dataflow segment k on unit k, the engine's parts on
 * the unit after the last segment's), and the units run at the same time,
 * each run a start of one frame.  Up to `flight` frames are in flight.
 * Whenever a unit is idle it takes the next run of the oldest frame in
 * flight whose run before it has ended and whose next run is the unit's;
 * else, when fewer than `flight` frames are in flight and a frame's first
 * run is the unit's, the next frame enters, with a gate g > 0 only once the
 * frame before it has ended its entry g - 1 (a frame's first run then
 * starts later instead of waiting on the engine for the older frame's
 * parts: its latency from that start shorter, the units idle longer).  The host then waits for any
 * unit's done.  In steps (`steps` 1) the units take runs only when all are
 * idle (kiln_sched_may_pick), and the host waits for all: with two frames
 * in flight and runs that alternate between two units this pairs frame
 * f+1's segment k with frame f's part k, then frame f's segment k+1 with
 * frame f+1's part k (the planner times both ways and keeps the faster).
 * With a unit per dataflow segment, segments of different frames run at
 * once as the dataflow's stages do, and the interval is the longest
 * unit's share of a frame when enough frames are in flight.  At one
 * frame in flight it is a frame's runs one after the other.  kiln simulate (sim/tsjob.c) writes
 * the order of kiln_sched_time's events into a harness job and the
 * planner (hls/plan_fold.c) times it; libkiln-rt's krt_run_frames
 * (rt.c) runs it as the dones come (docs/runtime.md).  C11, header only.
 */
#ifndef KILN_SCHED_H
#define KILN_SCHED_H

#define KILN_SCHED_FLIGHT 8 /* frames in flight at most */
#define KILN_SCHED_UNITS 8  /* run units at most */

/* The run unit of segment sg in a folded design of nseg dataflow segments
 * (segment k on unit k, the engine's parts on unit nseg), and kiln_regfile's
 * bits of unit u: its start in CTRL (bit1 is load), its busy and done in
 * STATUS, its CYCLES register. */
#define KILN_UNIT_OF(sg, nseg) ((sg) < (nseg) ? (sg) : (nseg))
#define KILN_UNIT_START(u) ((u) ? 1u << ((u) + 1) : 1u)
#define KILN_UNIT_BUSY(u) (1u << (2 * (u)))
#define KILN_UNIT_DONE(u) (2u << (2 * (u)))
#define KILN_UNIT_CYCLES(u) ((u) ? 0x20u + 4u * (unsigned)((u) - 1) : 0x0Cu)

/* The state of a run of frames. */
typedef struct KilnSched {
    int n;                        /* runs a frame (segment_order's entries) */
    const int *unit;              /* per entry: its unit, 0 .. KILN_SCHED_UNITS - 1 */
    int frames;                   /* frames to run */
    int flight;                   /* frames in flight at most (1 .. KILN_SCHED_FLIGHT) */
    int steps;                    /* 1: the units take runs only when all are idle */
    int gate;                     /* > 0: a frame enters once the one before it ended entry gate - 1 */
    int next;                     /* the next frame to enter */
    int nfl;                      /* frames in flight */
    int fl[KILN_SCHED_FLIGHT];    /* them, oldest first */
    int pos[KILN_SCHED_FLIGHT];   /* their next entry to start */
    int busy[KILN_SCHED_FLIGHT];  /* 1: its entry pos - 1 is running */
    int nu;                       /* run units (1 + the largest unit[i]) */
    int cur[KILN_SCHED_UNITS];    /* per unit: the frame it runs, -1 idle */
    int ent[KILN_SCHED_UNITS];    /* per unit: the entry it runs */
} KilnSched;

/* Start a run of frames frames of n runs each (unit[i] the unit of entry
 * i), at most flight frames in flight (clamped to 1 .. KILN_SCHED_FLIGHT),
 * in steps or not, a frame entering once the one before it has ended
 * entry gate - 1 (gate 0, or past the last entry: no gate). */
static inline void kiln_sched_init(KilnSched *s, int n, const int *unit, int frames, int flight,
                                   int steps, int gate)
{
    s->steps = steps != 0;
    s->gate = gate > 0 && gate < n ? gate : 0;
    s->n = n;
    s->unit = unit;
    s->frames = frames;
    s->flight = flight < 1 ? 1 : flight > KILN_SCHED_FLIGHT ? KILN_SCHED_FLIGHT : flight;
    s->next = 0;
    s->nfl = 0;
    s->nu = 1;
    for (int i = 0; i < n; i++)
        if (unit[i] + 1 > s->nu)
            s->nu = unit[i] + 1 < KILN_SCHED_UNITS ? unit[i] + 1 : KILN_SCHED_UNITS;
    for (int u = 0; u < KILN_SCHED_UNITS; u++)
        s->cur[u] = s->ent[u] = -1;
}

/* Whether no unit runs. */
static inline int kiln_sched_idle(const KilnSched *s)
{
    for (int u = 0; u < s->nu; u++)
        if (s->cur[u] >= 0)
            return 0;
    return 1;
}

/* Whether the units may take runs now (kiln_sched_pick each): always, or
 * in steps when all are idle. */
static inline int kiln_sched_may_pick(const KilnSched *s)
{
    return !s->steps || kiln_sched_idle(s);
}

/* What idle unit u runs next: 1 with *frame and *entry (the run starts),
 * 0 when it has nothing to run now (or is busy). */
static inline int kiln_sched_pick(KilnSched *s, int u, int *frame, int *entry)
{
    int i;
    if (s->cur[u] >= 0 || s->n <= 0)
        return 0;
    for (i = 0; i < s->nfl; i++) /* oldest first */
        if (!s->busy[i] && s->pos[i] < s->n && s->unit[s->pos[i]] == u)
            break;
    if (i == s->nfl) {
        if (s->nfl == s->flight || s->next >= s->frames || s->unit[0] != u)
            return 0;
        /* the gate: the newest frame in flight (the one before) past it */
        i = s->nfl - 1;
        if (s->gate && i >= 0 && s->fl[i] == s->next - 1 &&
            (s->pos[i] < s->gate || (s->pos[i] == s->gate && s->busy[i])))
            return 0;
        i = s->nfl;
        s->fl[i] = s->next++;
        s->pos[i] = 0;
        s->nfl++;
    }
    s->busy[i] = 1;
    s->cur[u] = *frame = s->fl[i];
    s->ent[u] = *entry = s->pos[i]++;
    return 1;
}

/* Unit u's run ended; returns the frame when that was its last run, else
 * -1. */
static inline int kiln_sched_done(KilnSched *s, int u)
{
    int i, f = s->cur[u], last = -1;
    for (i = 0; i < s->nfl && s->fl[i] != f; i++)
        ;
    s->cur[u] = -1;
    if (i == s->nfl)
        return -1;
    s->busy[i] = 0;
    if (s->pos[i] == s->n) {
        last = f;
        for (s->nfl--; i < s->nfl; i++) {
            s->fl[i] = s->fl[i + 1];
            s->pos[i] = s->pos[i + 1];
            s->busy[i] = s->busy[i + 1];
        }
    }
    return last;
}

/* A run's cycles when they depend on what its unit did before it (the
 * shared engine prefetches the next part's first layer while idle):
 * fn(ctx, entry, prev, gap) gives entry's cycles when its unit's run before
 * it was entry prev (-1: none) and ended gap cycles before the start.  NULL
 * where a timing function takes one: dur[entry] always. */
typedef struct KilnRunDur {
    long long (*fn)(void *ctx, int entry, int prev, long long gap); /* the cycles */
    void *ctx;                                                     /* its state */
} KilnRunDur;

/* Entry e's cycles on unit u at cycle t: dur[e], or rd's given the unit's
 * run before (prev, -1: none) and its end (pend). */
static inline long long kiln_sched_dur(const KilnRunDur *rd, const long long *dur, int e, int prev,
                                       long long pend, long long t)
{
    return rd && rd->fn ? rd->fn(rd->ctx, e, prev, t - pend) : dur[e];
}

/* One event of a timed run: a unit starts a run, or its done is awaited. */
typedef struct KilnEvent {
    int go;    /* 1: the unit starts the run, 0: the host waits for its done */
    int unit;  /* 0 or 1 */
    int frame; /* the run's frame */
    int entry; /* its segment_order entry */
} KilnEvent;

/* Time frames frames (flight in flight, in steps or not, gate as
 * kiln_sched_init says) when entry i's
 * run takes dur[i] cycles (rd non-NULL: as it says): per frame f
 * the cycle its first run starts (start, may be NULL) and its last ends
 * (done, may be NULL); the events in their order into ev (2 * n * frames
 * of them, may be NULL; a done at the same cycle as a start comes first,
 * the lower unit's first).  Returns the whole run's cycles. */
static inline long long kiln_sched_time(int n, const int *unit, const long long *dur, int frames,
                                        int flight, int steps, int gate, long long *start,
                                        long long *done, KilnEvent *ev, const KilnRunDur *rd)
{
    KilnSched s;
    long long t = 0, end[KILN_SCHED_UNITS] = {0};
    int k = 0, u, f, e, may, last[KILN_SCHED_UNITS];
    kiln_sched_init(&s, n, unit, frames, flight, steps, gate);
    for (u = 0; u < KILN_SCHED_UNITS; u++)
        last[u] = -1;
    for (;;) {
        may = kiln_sched_may_pick(&s);
        for (u = 0; u < s.nu && may; u++)
            if (kiln_sched_pick(&s, u, &f, &e)) {
                end[u] = t + kiln_sched_dur(rd, dur, e, last[u], end[u], t);
                last[u] = e;
                if (e == 0 && start)
                    start[f] = t;
                if (ev)
                    ev[k++] = (KilnEvent){1, u, f, e};
            }
        if (kiln_sched_idle(&s))
            break;
        for (t = -1, u = 0; u < s.nu; u++)
            if (s.cur[u] >= 0 && (t < 0 || end[u] < t))
                t = end[u];
        for (u = 0; u < s.nu; u++)
            if (s.cur[u] >= 0 && end[u] == t) {
                if (ev)
                    ev[k++] = (KilnEvent){0, u, s.cur[u], s.ent[u]};
                f = kiln_sched_done(&s, u);
                if (f >= 0 && done)
                    done[f] = t;
            }
    }
    return t;
}

/* The state of a run after the units' picks at some cycle, frames
 * counted back from the next to enter and cycles from then: two equal
 * states have the same future, shifted by the frames and cycles between
 * them (the run's frame count aside, which kiln_sched_ends keeps out of
 * reach); last (per unit its last run's entry, or NULL) adds an idle
 * unit's last run and the cycles since it ended. */
#define KILN_SCHED_STATE (1 + 3 * KILN_SCHED_FLIGHT + 5 * KILN_SCHED_UNITS)
static inline unsigned long long kiln_sched_state(const KilnSched *s, const long long *end,
                                                  const int *last, long long t, long long *z)
{
    unsigned long long h = 1469598103934665603ull;
    int k = 0;
    z[k++] = s->nfl;
    for (int i = 0; i < KILN_SCHED_FLIGHT; i++) {
        int in = i < s->nfl;
        z[k++] = in ? s->next - s->fl[i] : 0;
        z[k++] = in ? s->pos[i] : 0;
        z[k++] = in ? s->busy[i] : 0;
    }
    for (int u = 0; u < KILN_SCHED_UNITS; u++) {
        int run = u < s->nu && s->cur[u] >= 0;
        z[k++] = run ? s->next - s->cur[u] : 0;
        z[k++] = run ? s->ent[u] : -1;
        z[k++] = run ? end[u] - t : 0;
        /* what an idle unit's next run may depend on (KilnRunDur; last
         * NULL: nothing) */
        z[k++] = last && u < s->nu ? last[u] : -1;
        z[k++] = last && u < s->nu && !run ? end[u] - t : 0;
    }
    for (k = 0; k < KILN_SCHED_STATE; k++)
        h = (h ^ (unsigned long long)z[k]) * 1099511628211ull;
    return h;
}

/* Per frame 0 .. upto the cycle its first run starts (start) and its last
 * ends (done), as kiln_sched_time gives them in a run of more than upto +
 * KILN_SCHED_FLIGHT frames, the way as kiln_sched_init says.  Once the
 * state after a frame's entry (kiln_sched_state) equals the one after an
 * earlier entry, P frames and D cycles before, each later frame starts
 * and ends D cycles after the frame P before it: the run stops there (or
 * at frame upto's end) and the rest follows.  upto < KILN_SCHED_STEADY.
 * rd: as kiln_sched_time's. */
#define KILN_SCHED_STEADY 96
#define KILN_SCHED_SEEN 48 /* states kept (the first frames' entries) */
static inline void kiln_sched_ends(int n, const int *unit, const long long *dur, int flight,
                                   int steps, int gate, int upto, long long *start,
                                   long long *done, const KilnRunDur *rd)
{
    KilnSched s;
    long long seen[KILN_SCHED_SEEN][KILN_SCHED_STATE], z[KILN_SCHED_STATE];
    long long at[KILN_SCHED_SEEN], t = 0, end[KILN_SCHED_UNITS] = {0};
    unsigned long long hs[KILN_SCHED_SEEN], h;
    int nx[KILN_SCHED_SEEN], u, f, e, may, nseen = 0, i, j, k, last[KILN_SCHED_UNITS];
    for (i = 0; i <= upto; i++)
        done[i] = -1;
    for (u = 0; u < KILN_SCHED_UNITS; u++)
        last[u] = -1;
    kiln_sched_init(&s, n, unit, KILN_SCHED_STEADY, flight, steps, gate);
    for (;;) {
        int entered = s.next;
        may = kiln_sched_may_pick(&s);
        for (u = 0; u < s.nu && may; u++)
            if (kiln_sched_pick(&s, u, &f, &e)) {
                end[u] = t + kiln_sched_dur(rd, dur, e, last[u], end[u], t);
                last[u] = e;
                if (e == 0 && f <= upto)
                    start[f] = t;
            }
        if (kiln_sched_idle(&s))
            return;
        if (s.next != entered && s.next <= upto) {
            h = kiln_sched_state(&s, end, rd ? last : (const int *)0, t, z);
            for (j = 0; j < nseen; j++) {
                if (hs[j] != h)
                    continue;
                for (k = 0; k < KILN_SCHED_STATE && seen[j][k] == z[k]; k++)
                    ;
                if (k == KILN_SCHED_STATE)
                    break;
            }
            if (j < nseen) { /* a repeat: P frames, D cycles */
                int P = s.next - nx[j];
                long long D = t - at[j];
                for (f = s.next; f <= upto; f++)
                    start[f] = start[f - P] + D;
                for (f = 0; f <= upto; f++)
                    if (done[f] < 0)
                        done[f] = done[f - P] + D;
                return;
            }
            if (nseen < KILN_SCHED_SEEN) {
                for (k = 0; k < KILN_SCHED_STATE; k++)
                    seen[nseen][k] = z[k];
                hs[nseen] = h;
                at[nseen] = t;
                nx[nseen++] = s.next;
            }
        }
        for (t = -1, u = 0; u < s.nu; u++)
            if (s.cur[u] >= 0 && (t < 0 || end[u] < t))
                t = end[u];
        for (u = 0; u < s.nu; u++)
            if (s.cur[u] >= 0 && end[u] == t) {
                f = kiln_sched_done(&s, u);
                if (f >= 0 && f <= upto)
                    done[f] = t;
                if (f == upto)
                    return;
            }
    }
}

/* Steady state of flight frames in flight, in steps or not, gate as
 * kiln_sched_init says (KILN_SCHED_STEADY frames run,
 * judged at frame L, three quarters in: the last frames end early, no
 * newer frame competing): a frame's cycles (*interval: the least period of
 * p <= KILN_SCHED_PERIOD frames whose ends repeat three times before L,
 * else the mean over the L / 2 frames before it, rounded up) and frame L's
 * first start to its last end (*latency).  The starts and ends up to
 * frame L are kiln_sched_ends': those of the whole run.  rd: as
 * kiln_sched_time's. */
#define KILN_SCHED_PERIOD 8
static inline void kiln_sched_steady(int n, const int *unit, const long long *dur, int flight,
                                     int steps, int gate, long long *interval, long long *latency,
                                     const KilnRunDur *rd)
{
    long long start[KILN_SCHED_STEADY], done[KILN_SCHED_STEADY];
    const int L = KILN_SCHED_STEADY * 3 / 4, h = L / 2;
    int p;
    kiln_sched_ends(n, unit, dur, flight, steps, gate, L, start, done, rd);
    *interval = (done[L] - done[L - h] + h - 1) / h;
    for (p = 1; p <= KILN_SCHED_PERIOD; p++) {
        long long a = done[L] - done[L - p];
        if (a == done[L - p] - done[L - 2 * p] && a == done[L - 2 * p] - done[L - 3 * p]) {
            *interval = (a + p - 1) / p;
            break;
        }
    }
    *latency = done[L] - start[L];
}

#endif
