#!/usr/bin/python3
# lsb_agree.py QDQ.onnx MIN_PERCENT KILN0.npy ORT0.npy [KILN1.npy ORT1.npy ...]
# Each graph output of the exported QDQ model comes from a DequantizeLinear;
# its scale (per tensor, or per channel along its axis) turns both results
# back into int8 steps (LSB).  Counts the values
# on which kiln and onnxruntime differ by at most 1 LSB, over all outputs,
# prints the figure and exits 1 when it is below MIN_PERCENT.
import sys
import numpy as np
import onnx
from onnx import numpy_helper


def main():
    model = onnx.load(sys.argv[1])
    floor = float(sys.argv[2])
    pairs = sys.argv[3:]
    g = model.graph
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    prod = {o: n for n in g.node for o in n.output}
    total = within = exact = 0
    worst = 0.0
    for i, out in enumerate(g.output):
        n = prod.get(out.name)
        if n is None or n.op_type != 'DequantizeLinear' or n.input[1] not in inits:
            sys.exit('lsb_agree: output %s does not come from a DequantizeLinear with a '
                     'constant scale' % out.name)
        scale = inits[n.input[1]].astype(np.float64)
        k = np.load(pairs[2 * i]).astype(np.float64)
        if scale.size > 1:
            # per axis (kiln's head convs: axis 1): one scale per channel
            axis = next((a.i for a in n.attribute if a.name == 'axis'), 1) % k.ndim
            scale = scale.reshape([-1 if d == axis else 1 for d in range(k.ndim)])
        o = np.load(pairs[2 * i + 1]).astype(np.float64)
        if k.shape != o.shape:
            sys.exit('lsb_agree: output %s: shapes %s and %s' % (out.name, k.shape, o.shape))
        d = np.abs(np.rint(k / scale) - np.rint(o / scale))
        total += d.size
        within += int(np.sum(d <= 1))
        exact += int(np.sum(d == 0))
        worst = max(worst, float(d.max()) if d.size else 0.0)
    pct = 100.0 * within / total
    print('lsb_agree: %d values, %.4f%% within 1 LSB, %.4f%% exact, worst %d LSB'
          % (total, pct, 100.0 * exact / total, worst))
    if pct < floor:
        print('lsb_agree: below the floor of %g%%' % floor)
        sys.exit(1)


main()
