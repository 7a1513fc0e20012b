# libkiln-rt (host-runtime/) against kiln simulate --serve: shell cases
# (tests/runtime/cases/*.sh, test runtime_CASE each).  The first case
# compiles resdw for zcu104 and builds its Verilator model once (its folder
# is the fixture of the others); each case builds the runtime from its
# sources with cc (the ASan and aarch64 builds the same way) and starts its
# own server.  docs/runtime.md.
kiln_case_tests(runtime)
