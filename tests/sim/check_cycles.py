#!/usr/bin/env python3
"""check_cycles.py RESULT.json TOL [LAYER,...=TOL2]: the measured cycles of a
kiln simulate run agree with the planner's prediction within TOL (a fraction,
e.g. 0.02): every stage's t_done (last output beat of the first warm frame),
the interval, the latency, each part of the shared engine (a segment with
predicted_cycles) and, with the engine beside the dataflow, the whole run of
the frames (beside.total_cycles); the t_done of the layers named in the optional third
argument within TOL2 instead.  A run with --backpressure (random stalls the
plan does not model) is not applicable: a line saying so, exit 0.  Prints one line per figure outside the bound;
exit 1 then, 2 on a malformed file or argument."""
import json
import sys


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    loose, ltol = set(), None
    if len(sys.argv) == 4:
        names, _, t2 = sys.argv[3].partition("=")
        try:
            ltol = float(t2)
        except ValueError:
            print("check_cycles.py: %s: expected LAYER,...=TOL" % sys.argv[3], file=sys.stderr)
            return 2
        loose = set(names.split(","))
    try:
        with open(sys.argv[1]) as f:
            r = json.load(f)
        tol = float(sys.argv[2])
        figs = [("stage %d %s t_done" % (s["stage"], s["layer"]), s["predicted_t_done"],
                 s["measured_t_done"], ltol if s["layer"] in loose else tol) for s in r["stages"]]
        figs.append(("interval", r["predicted_interval_cycles"], r["interval_cycles"], tol))
        figs.append(("latency", r["predicted_latency_cycles"], r["latency_cycles"], tol))
        figs += [("segment %d (a part of the shared engine) frame" % g["index"],
                  g["predicted_cycles"], g["latency_cycles"], tol)
                 for g in r["segments"] if "predicted_cycles" in g]
        if "predicted_total_cycles" in r.get("beside", {}):
            figs.append(("the frames beside the dataflow", r["beside"]["predicted_total_cycles"],
                         r["beside"]["total_cycles"], tol))
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("check_cycles.py: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 2
    if r.get("backpressure"):
        print("check_cycles.py: %s: a run with --backpressure %d: cycles against the plan not "
              "applicable (the plan has no back-pressure)" % (sys.argv[1], r["backpressure"]))
        return 0
    bad, worst = 0, 0.0
    for name, pred, meas, t in figs:
        err = (pred - meas) / meas if meas else float("inf")
        worst = max(worst, abs(err))
        if abs(err) > t:
            print("%s: predicted %s, measured %s (%+.2f%%)" % (name, pred, meas, 100 * err))
            bad += 1
    print("%d figures, worst error %.2f%%, %d outside %.1f%%" % (len(figs), 100 * worst, bad,
                                                                  100 * tol))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
