// tosa.resize both ways, checked against MLIR's own lowering
// (cases/resize_linalg.sh): bilinear with half-pixel centres (offset
// (d - n) / 2), bilinear aligned at 0 (offset 0, 3x), and nearest with TOSA's
// round-half-up made into floor by offset -n / 2; concatenated on channels.
func.func @resize(%x: tensor<1x4x5x3xf32>) -> tensor<1x12x15x9xf32> {
  %h = "tosa.resize"(%x) {mode = "BILINEAR", scale = array<i64: 6, 2, 6, 2>, offset = array<i64: -2, -2>, border = array<i64: 2, 2>} : (tensor<1x4x5x3xf32>) -> tensor<1x12x15x3xf32>
  %a = "tosa.resize"(%x) {mode = "BILINEAR", scale = array<i64: 6, 2, 6, 2>, offset = array<i64: 0, 0>, border = array<i64: 4, 4>} : (tensor<1x4x5x3xf32>) -> tensor<1x12x15x3xf32>
  %n = "tosa.resize"(%x) {mode = "NEAREST_NEIGHBOR", scale = array<i64: 6, 2, 6, 2>, offset = array<i64: -3, -3>, border = array<i64: 1, 1>} : (tensor<1x4x5x3xf32>) -> tensor<1x12x15x3xf32>
  %y = "tosa.concat"(%h, %a, %n) {axis = 3 : i64} : (tensor<1x12x15x3xf32>, tensor<1x12x15x3xf32>, tensor<1x12x15x3xf32>) -> tensor<1x12x15x9xf32>
  return %y : tensor<1x12x15x9xf32>
}
