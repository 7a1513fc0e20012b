// A rescale with a non-zero output zero point: kiln's int8 is symmetric.
func.func @f(%x: tensor<1x4xi8>) -> tensor<1x4xi8> {
  %y = "tosa.rescale"(%x) {input_zp = 0 : i32, output_zp = 3 : i32, multiplier = array<i32: 16384>, shift = array<i32: 14>, scale32 = true, double_round = false, per_channel = false} : (tensor<1x4xi8>) -> tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}
