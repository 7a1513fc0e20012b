// An int8 conv in quantized TOSA as a TFLite-style legalizer writes it:
// !quant.uniform activations (zero point 0), per-axis quantized OHWI
// weights, an i32 accumulator rescaled per channel (16-bit multipliers,
// scale32 = false) and a ReLU clamp.  kiln reads it as one int8 Conv;
// cases/qconv.sh checks it against NumPy's TOSA arithmetic.
func.func @qconv(%x: tensor<1x5x5x3x!quant.uniform<i8:f32, 0.05>>) -> tensor<1x5x5x4x!quant.uniform<i8:f32, 0.1>> {
  %w = "tosa.const"() {value = dense<[[[[44, 78, -122], [79, -8, 4], [33, -55, 122]], [[-114, -57, -30], [18, -23, -94], [-116, -127, -115]], [[-90, 127, -79], [39, 64, -68], [-56, -17, -60]]], [[[121, -82, 101], [76, 88, -98], [-27, 33, -2]], [[42, 45, 42], [-112, 117, 14], [103, -58, -35]], [[97, -80, -111], [-32, 46, -96], [94, -41, -70]]], [[[11, 101, 98], [95, -49, -123], [71, 53, 69]], [[-127, -118, 1], [-42, -16, 110], [-76, 7, -45]], [[-52, 78, -88], [-47, -97, -89], [-56, 51, 20]]], [[[-13, -84, 76], [76, -67, -112], [-46, -90, 76]], [[5, 2, -53], [2, 119, -67], [68, -124, -47]], [[110, 95, -106], [87, 88, -12], [-34, 122, 115]]]]> : tensor<4x3x3x3xi8>} : () -> tensor<4x3x3x3x!quant.uniform<i8<-127:127>:f32:0, {0.01,0.02,0.015,0.03}>>
  %b = "tosa.const"() {value = dense<[708, -403, -1160, 1745]> : tensor<4xi32>} : () -> tensor<4xi32>
  %acc = "tosa.conv2d"(%x, %w, %b) {pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = 0, weight_zp = 0>} : (tensor<1x5x5x3x!quant.uniform<i8:f32, 0.05>>, tensor<4x3x3x3x!quant.uniform<i8<-127:127>:f32:0, {0.01,0.02,0.015,0.03}>>, tensor<4xi32>) -> tensor<1x5x5x4xi32>
  %r = "tosa.rescale"(%acc) {input_zp = 0 : i32, output_zp = 0 : i32, multiplier = array<i32: 21000, 17000, 30000, 12345>, shift = array<i32: 17, 16, 18, 15>, scale32 = false, double_round = false, per_channel = true} : (tensor<1x5x5x4xi32>) -> tensor<1x5x5x4x!quant.uniform<i8:f32, 0.1>>
  %y = "tosa.clamp"(%r) {min_int = 0 : i64, max_int = 127 : i64, min_fp = 0.0 : f32, max_fp = 12.7 : f32} : (tensor<1x5x5x4x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x5x5x4x!quant.uniform<i8:f32, 0.1>>
  return %y : tensor<1x5x5x4x!quant.uniform<i8:f32, 0.1>>
}
