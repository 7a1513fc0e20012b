"""Prints a TOSA .mlir file with a @main that feeds its function (one f32
argument, f32 results) a fixed input and prints each result's elements
with vector.print, for mlir-cpu-runner-16; saves the same input as .npy for
kiln.  The input is sin(0.37 i) * 1.5 over the argument's elements.

usage: mlir_driver.py IN.mlir in.npy > driver.mlir"""
import re
import sys

import numpy as np

text = open(sys.argv[1]).read()
if text.lstrip().startswith("module {"):  # the driver's @main goes beside the function
    text = text.lstrip()[len("module {"):].rstrip()
    text = text[:text.rindex("}")] + "\n"
m = re.search(r"func\.func @(\w+)\(%\w+: tensor<([0-9x]+)xf32>\) -> \(?((?:tensor<[0-9x]+xf32>(?:, )?)+)\)?", text)
if not m:
    sys.exit("%s: no func.func of one f32 argument and f32 results" % sys.argv[1])
name, ins = m.group(1), m.group(2)
if name == "main":  # the driver's own entry point is @main
    text = text.replace("func.func @main(", "func.func @net(", 1)
    name = "net"
outs = re.findall(r"tensor<([0-9x]+)xf32>", m.group(3))
ishape = [int(d) for d in ins.split("x")]
n = int(np.prod(ishape))
x = (np.sin(np.arange(n, dtype=np.float32) * 0.37) * 1.5).astype(np.float32)
np.save(sys.argv[2], x.reshape(ishape))
lit = ", ".join(repr(float(v)) for v in x)
ti = "tensor<%sxf32>" % ins
tos = ["tensor<%sxf32>" % o for o in outs]
ri = "[" + ", ".join(str(i) for i in range(len(ishape))) + "]"
ys = ", ".join("%%y%d" % i for i in range(len(outs)))
sys.stdout.write(text)
sys.stdout.write(f"""
func.func @main() {{
  %x0 = arith.constant dense<[{lit}]> : tensor<{n}xf32>
  %x = tensor.expand_shape %x0 [{ri}] : tensor<{n}xf32> into {ti}
  {ys} = call @{name}(%x) : ({ti}) -> ({", ".join(tos)})
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
""")
for i, o in enumerate(outs):
    shape = [int(d) for d in o.split("x")]
    k = int(np.prod(shape))
    ro = "[" + ", ".join(str(j) for j in range(len(shape))) + "]"
    sys.stdout.write(f"""  %flat{i} = tensor.collapse_shape %y{i} [{ro}] : {tos[i]} into tensor<{k}xf32>
  %cn{i} = arith.constant {k} : index
  scf.for %i{i} = %c0 to %cn{i} step %c1 {{
    %v{i} = tensor.extract %flat{i}[%i{i}] : tensor<{k}xf32>
    vector.print %v{i} : f32
  }}
""")
sys.stdout.write("""  return
}
""")
