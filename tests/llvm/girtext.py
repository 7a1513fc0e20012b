"""Lines of the graph IR's text form (docs/ir.md) for the generators of the
test graphs in this folder: a constant with its data in base64, and a list
of integers as an attribute value."""
import base64

import numpy as np

DT = {np.float32: "f32", np.int8: "i8", np.uint8: "u8", np.int32: "i32", np.int64: "i64"}


def const(name, arr):
    dims = ",".join(str(d) for d in arr.shape)
    data = base64.b64encode(arr.astype(arr.dtype.newbyteorder("<")).tobytes()).decode()
    return f'const %{name} : {DT[arr.dtype.type]}[{dims}] = base64"{data}"'


def ints(v):
    return "[" + ",".join(str(int(x)) for x in v) + "]"
