// tosa.gather: valid TOSA, outside the ops kiln reads.
func.func @f(%v: tensor<1x8x4xf32>, %i: tensor<1x3xi32>) -> tensor<1x3x4xf32> {
  %y = "tosa.gather"(%v, %i) : (tensor<1x8x4xf32>, tensor<1x3xi32>) -> tensor<1x3x4xf32>
  return %y : tensor<1x3x4xf32>
}
