// An int8 conv whose i32 accumulator is returned as it is: kiln needs
// it rescaled to 8 bits for its int8 form.
func.func @f(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi32> {
  %w = "tosa.const"() {value = dense<1> : tensor<2x1x1x2xi8>} : () -> tensor<2x1x1x2xi8>
  %b = "tosa.const"() {value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %y = "tosa.conv2d"(%x, %w, %b) {pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = 0, weight_zp = 0>} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>, tensor<2xi32>) -> tensor<1x4x4x2xi32>
  return %y : tensor<1x4x4x2xi32>
}
