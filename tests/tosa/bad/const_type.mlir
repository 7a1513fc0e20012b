func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {value = dense<[]> : tensor<0xf32>} : () -> tensor<4xf32>
  %y = "tosa.add"(%x, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
