// A tosa.add whose closing parenthesis is missing.
func.func @f(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %y = "tosa.add"(%x, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}
