"""Prints resblock.mlir with a @main that feeds it a fixed input and prints
each output element with vector.print, for mlir-cpu-runner-16; saves the
same input as .npy for kiln.

usage: resblock_driver.py resblock.mlir in.npy > driver.mlir"""
import sys

import numpy as np

x = (np.sin(np.arange(144, dtype=np.float32) * 0.37) * 1.5).astype(np.float32)
np.save(sys.argv[2], x.reshape(1, 6, 6, 4))
lit = ", ".join(repr(float(v)) for v in x)
t = "tensor<1x6x6x4xf32>"
sys.stdout.write(open(sys.argv[1]).read())
sys.stdout.write(f"""
func.func @main() {{
  %x0 = arith.constant dense<[{lit}]> : tensor<144xf32>
  %x = tensor.expand_shape %x0 [[0, 1, 2, 3]] : tensor<144xf32> into {t}
  %y = call @resblock(%x) : ({t}) -> {t}
  %flat = tensor.collapse_shape %y [[0, 1, 2, 3]] : {t} into tensor<144xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 144 : index
  scf.for %i = %c0 to %cn step %c1 {{
    %v = tensor.extract %flat[%i] : tensor<144xf32>
    vector.print %v : f32
  }}
  return
}}
""")
