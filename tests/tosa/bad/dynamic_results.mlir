// Two results of unknown shape: kiln needs static shapes.
func.func @f(%x: tensor<2x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %a = "tosa.sigmoid"(%x) : (tensor<2x4xf32>) -> tensor<?x4xf32>
  %b = "tosa.tanh"(%x) : (tensor<2x4xf32>) -> tensor<?x4xf32>
  return %a, %b : tensor<?x4xf32>, tensor<?x4xf32>
}
