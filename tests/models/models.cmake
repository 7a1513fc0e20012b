# Test models, generated at build time into ${CMAKE_BINARY_DIR}/models (never
# committed): YOLOv3-tiny 416x416 as ONNX with seeded weights and its seeded
# image-like input, and a small variant (64x64, channels / 8) for CI.
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

add_custom_target(models ALL DEPENDS
  ${KILN_MODELS_DIR}/yolov3-tiny.onnx ${KILN_MODELS_DIR}/yolov3-tiny-input.npy
  ${KILN_MODELS_DIR}/yolov3-tiny-small.onnx ${KILN_MODELS_DIR}/yolov3-tiny-small-input.npy)
