# Test models, generated at build time into ${CMAKE_BINARY_DIR}/models (never
# committed): YOLOv3-tiny 416x416 as ONNX with seeded weights and its seeded
# image-like input, a small variant (64x64, channels / 8) for CI, small
# networks (gen_small.py) and face-api's face detector (gen_face.py).
set(KILN_MODELS_DIR ${CMAKE_BINARY_DIR}/models)
set(_gen ${CMAKE_CURRENT_LIST_DIR}/gen_yolov3_tiny.py)

add_custom_command(
  OUTPUT ${KILN_MODELS_DIR}/yolov3-tiny.onnx ${KILN_MODELS_DIR}/yolov3-tiny-input.npy
  COMMAND ${CMAKE_COMMAND} -E make_directory ${KILN_MODELS_DIR}
  COMMAND ${SYSTEM_PYTHON3} ${_gen} --size 416 --seed 1
          --out ${KILN_MODELS_DIR}/yolov3-tiny.onnx
          --input-out ${KILN_MODELS_DIR}/yolov3-tiny-input.npy
  DEPENDS ${_gen}
  COMMENT "Generating YOLOv3-tiny 416x416 (ONNX, seeded weights)")

add_custom_command(
  OUTPUT ${KILN_MODELS_DIR}/yolov3-tiny-small.onnx ${KILN_MODELS_DIR}/yolov3-tiny-small-input.npy
  COMMAND ${CMAKE_COMMAND} -E make_directory ${KILN_MODELS_DIR}
  COMMAND ${SYSTEM_PYTHON3} ${_gen} --size 64 --channel-scale 8 --seed 1
          --out ${KILN_MODELS_DIR}/yolov3-tiny-small.onnx
          --input-out ${KILN_MODELS_DIR}/yolov3-tiny-small-input.npy
  DEPENDS ${_gen}
  COMMENT "Generating YOLOv3-tiny 64x64, channels / 8 (ONNX, seeded weights)")

# Small networks for whole-network tests (gen_small.py): resdw (residual Add,
# depthwise convs), cpumid (a dilated conv the CPU runs between two FPGA
# segments), mbrelu6 (ReLU6 fused as a Clip), tfnhwc (NHWC
# input and output around the network, as TensorFlow exports), hswish
# (paddle2onnx's HardSwish), big (1.33 M weights: more than Ultra96-V2's block RAM),
# upcat (an upsample beside a kept map into a concat, YOLO's route in small),
# dwwide (5x5 depthwise convs whose line buffers exceed KV260's block RAM),
# ddr18 (18-channel maps beside convs whose weights stream from DDR).
set(_gen_small ${CMAKE_CURRENT_LIST_DIR}/gen_small.py)
set(_small_outputs)
foreach(_m resdw cpumid mbrelu6 tfnhwc big hswish upcat dwwide ddr18)
  add_custom_command(
    OUTPUT ${KILN_MODELS_DIR}/${_m}.onnx ${KILN_MODELS_DIR}/${_m}-input.npy
    COMMAND ${CMAKE_COMMAND} -E make_directory ${KILN_MODELS_DIR}
    COMMAND ${SYSTEM_PYTHON3} ${_gen_small} --model ${_m} --seed 1
            --out ${KILN_MODELS_DIR}/${_m}.onnx --input-out ${KILN_MODELS_DIR}/${_m}-input.npy
    DEPENDS ${_gen_small} ${_gen}
    COMMENT "Generating ${_m} (ONNX, seeded weights)")
  list(APPEND _small_outputs ${KILN_MODELS_DIR}/${_m}.onnx ${KILN_MODELS_DIR}/${_m}-input.npy)
endforeach()

# face-api's tiny face detector with its real weights, 320x320 (gen_face.py,
# docs/face.md), when scripts/install-deps.sh put the npm package under
# KILN_DEPS at configure time; the face tests write their own either way.
set(_face_dir ${KILN_DEPS}/node_modules/@vladmandic/face-api/model)
set(_face_outputs)
if(EXISTS ${_face_dir}/tiny_face_detector_model.bin)
  set(_gen_face ${CMAKE_CURRENT_LIST_DIR}/gen_face.py)
  add_custom_command(
    OUTPUT ${KILN_MODELS_DIR}/face.onnx
    COMMAND ${CMAKE_COMMAND} -E make_directory ${KILN_MODELS_DIR}
    COMMAND ${SYSTEM_PYTHON3} ${_gen_face} --model-dir ${_face_dir} --size 320
            --out ${KILN_MODELS_DIR}/face.onnx
    DEPENDS ${_gen_face} ${_face_dir}/tiny_face_detector_model.bin
            ${_face_dir}/tiny_face_detector_model-weights_manifest.json
    COMMENT "Generating face.onnx (face-api's tiny face detector, 320x320, real weights)")
  set(_face_outputs ${KILN_MODELS_DIR}/face.onnx)
else()
  message(STATUS "models: face.onnx not generated (no ${_face_dir}; scripts/install-deps.sh)")
endif()
# Dynamic-dim exports with shape subgraphs (gen_dynamic.py): dyn_torch
# (PyTorch dynamic_axes style, input 1x3x32x32), dyn_tf (tf2onnx NHWC style,
# input 1x40x48x3).
set(_gen_dyn ${CMAKE_CURRENT_LIST_DIR}/gen_dynamic.py)
foreach(_m dyn_torch:1,3,32,32 dyn_tf:1,40,48,3)
  string(REPLACE ":" ";" _m ${_m})
  list(GET _m 0 _name)
  list(GET _m 1 _shape)
  add_custom_command(
    OUTPUT ${KILN_MODELS_DIR}/${_name}.onnx ${KILN_MODELS_DIR}/${_name}-input.npy
    COMMAND ${CMAKE_COMMAND} -E make_directory ${KILN_MODELS_DIR}
    COMMAND ${SYSTEM_PYTHON3} ${_gen_dyn} --model ${_name} --seed 1
            --out ${KILN_MODELS_DIR}/${_name}.onnx --input-out ${KILN_MODELS_DIR}/${_name}-input.npy
            --input-shape ${_shape}
    DEPENDS ${_gen_dyn}
    COMMENT "Generating ${_name} (ONNX, dynamic dims, seeded weights)")
  list(APPEND _small_outputs ${KILN_MODELS_DIR}/${_name}.onnx ${KILN_MODELS_DIR}/${_name}-input.npy)
endforeach()

add_custom_target(models ALL DEPENDS
  ${KILN_MODELS_DIR}/yolov3-tiny.onnx ${KILN_MODELS_DIR}/yolov3-tiny-input.npy
  ${KILN_MODELS_DIR}/yolov3-tiny-small.onnx ${KILN_MODELS_DIR}/yolov3-tiny-small-input.npy
  ${_small_outputs} ${_face_outputs})
