# Darknet reader tests: whole real cfgs against Darknet's own arithmetic,
# hostile cfgs with their exact diagnostics, .weights round trips.
add_executable(darknet_test ${CMAKE_CURRENT_LIST_DIR}/darknet_test.c)
target_link_libraries(darknet_test PRIVATE kiln_frontend)
kiln_warnings(darknet_test)

# Figures from DESIGN.md: YOLOv3-tiny 416 is 2.78 G MACs (Darknet prints
# 5.56 BFLOPs) and 8.85 M parameters, counted either way: 8858734 floats in
# its .weights file (conv weights, biases, BN scales, means, variances) or
# 8849182 with BN folded into one bias per channel.
add_test(NAME darknet_yolov3_tiny
  COMMAND darknet_test cost ${KILN_DARKNET_CFG}/yolov3-tiny.cfg
          --macs 2.78e9 --params 8.85e6 --outputs 255x13x13,255x26x26)
add_test(NAME darknet_yolov2_tiny
  COMMAND darknet_test cost ${KILN_DARKNET_CFG}/yolov2-tiny.cfg --outputs 425x13x13)
add_test(NAME darknet_yolov3
  COMMAND darknet_test cost ${KILN_DARKNET_CFG}/yolov3.cfg
          --outputs 255x19x19,255x38x38,255x76x76)
add_test(NAME darknet_resnet18
  COMMAND darknet_test cost ${KILN_DARKNET_CFG}/resnet18.cfg --outputs 1000x1x1)
add_test(NAME darknet_yolov2
  COMMAND darknet_test cost ${KILN_DARKNET_CFG}/yolov2.cfg --outputs 425x19x19)
add_test(NAME darknet_weights_roundtrip
  COMMAND darknet_test weights ${KILN_DARKNET_CFG}/yolov3-tiny.cfg ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME darknet_seeded
  COMMAND darknet_test seeded ${KILN_DARKNET_CFG}/yolov3-tiny.cfg)
add_test(NAME darknet_semantics
  COMMAND darknet_test semantics ${CMAKE_CURRENT_LIST_DIR}/semantics.cfg ${CMAKE_CURRENT_BINARY_DIR})

# One test per hostile cfg; each names its expected diagnostic inside.
file(GLOB _darknet_bad RELATIVE ${CMAKE_CURRENT_LIST_DIR}/bad ${CMAKE_CURRENT_LIST_DIR}/bad/*.cfg)
foreach(_f ${_darknet_bad})
  get_filename_component(_n ${_f} NAME_WE)
  add_test(NAME darknet_${_n}_bad COMMAND darknet_test bad ${_f}
           WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/bad)
endforeach()
