"""Lines of the graph IR's text form (docs/ir.md) for the generators of the
test graphs in this folder: a constant with its data in base64, and a list
of integers as an attribute value; and the seeded draws of their tensors."""
import base64

import numpy as np

DT = {np.float32: "f32", np.int8: "i8", np.uint8: "u8", np.int32: "i32", np.int64: "i64"}


def const(name, arr):
    dims = ",".join(str(d) for d in arr.shape)
    data = base64.b64encode(arr.astype(arr.dtype.newbyteorder("<")).tobytes()).decode()
    return f'const %{name} : {DT[arr.dtype.type]}[{dims}] = base64"{data}"'


def ints(v):
    return "[" + ",".join(str(int(x)) for x in v) + "]"


class Draws:
    """Seeded tensors for a generator: u8 and i8 over their whole range,
    f32 scales in [lo, lo + span)."""

    def __init__(self, seed, span, lo=0.002):
        self.rng = np.random.default_rng(seed)
        self.span, self.lo = span, lo

    def u8(self, *shape):
        return self.rng.integers(0, 256, shape).astype(np.uint8)

    def i8(self, *shape):
        return self.rng.integers(-128, 128, shape).astype(np.int8)

    def f32(self, *shape):
        return (self.rng.random(shape) * self.span + self.lo).astype(np.float32)
