# The per-model driver kiln compile writes (DIR/driver: model.c, kiln-infer,
# libkiln-rt) built and run against kiln simulate --serve: shell cases
# (tests/driver/cases/*.sh, test driver_CASE each).  The first case compiles
# yolov3-tiny-small, builds its Verilator model and the x86-64 kiln-infer
# once (its folder is the fixture of the others).  docs/driver.md.
kiln_case_tests(driver)
