# TOSA in and out (docs/tosa.md): shell cases tests/tosa/cases/*.sh, test
# tosa_CASE each.  A hand-written ResNet-style block read and run against
# NumPy (and against MLIR's own lowering when mlir-cpu-runner-16 is there),
# YOLOv3-tiny (64x64) written with --tosa in fp32 and int8, verified by
# mlir-opt-16 and read back to the same outputs, and the reader's errors.
kiln_case_tests(tosa)
