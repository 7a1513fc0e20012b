# kiln simulate (sim/harness/, tools/kiln/simulate.c): exact diagnostics
# below, and shell cases (tests/sim/cases/*.sh, test sim_CASE each): the
# harness on a hand-written top (tiny/: in0 -> 2x2 max pooling -> out0) and
# whole small networks compiled for a board, bit-exact against the int8
# interpreter, cycles against the plan.  Longer variants of these networks
# are benchmarks (bench/sim_*.sh), not tests.
set(SIMD ${CMAKE_CURRENT_LIST_DIR})
set(SIM_EXPECT ${PROJECT_SOURCE_DIR}/tests/cli/expect.sh)

# Bad input: exit status 2 and one exact line, before any Verilator build.
add_test(NAME sim_missing_rtl_bad COMMAND ${SIM_EXPECT} 2
  "kiln: ${SIMD}/rtl: no such folder (kiln compile writes it when it can generate the plan's RTL)"
  -- $<TARGET_FILE:kiln> simulate ${SIMD})
add_test(NAME sim_regmap_truncated_bad COMMAND ${SIM_EXPECT} 2
  "kiln: ${SIMD}/bad/trunc/rtl/regmap.json:14: malformed JSON"
  -- $<TARGET_FILE:kiln> simulate ${SIMD}/bad/trunc)
add_test(NAME sim_regmap_field_bad COMMAND ${SIM_EXPECT} 2
  "kiln: ${SIMD}/bad/field/rtl/regmap.json: channels[1].frame_bytes: expected a number"
  -- $<TARGET_FILE:kiln> simulate ${SIMD}/bad/field)
add_test(NAME sim_frames_bad COMMAND ${SIM_EXPECT} 2
  "kiln: simulate: --frames '0': expected 1..64"
  -- $<TARGET_FILE:kiln> simulate ${SIMD}/tiny --frames 0)
add_test(NAME sim_threads_bad COMMAND ${SIM_EXPECT} 2
  "kiln: simulate: --threads '2x': expected 1..64"
  -- $<TARGET_FILE:kiln> simulate ${SIMD}/tiny --threads 2x)
# 2^32 + 2 is not 2: a number beyond int (or long) is refused, not wrapped.
add_test(NAME sim_threads_overflow_bad COMMAND ${SIM_EXPECT} 2
  "kiln: simulate: --threads '4294967298': expected 1..64"
  -- $<TARGET_FILE:kiln> simulate ${SIMD}/tiny --threads 4294967298)
add_test(NAME sim_cap_overflow_bad COMMAND ${SIM_EXPECT} 2
  "kiln: simulate: --cap '99999999999999999999': expected a positive cycle count"
  -- $<TARGET_FILE:kiln> simulate ${SIMD}/tiny --cap 99999999999999999999)

add_test(NAME sim_backpressure_bad COMMAND ${SIM_EXPECT} 2
  "kiln: simulate: --backpressure '100': expected 1..99 (the percent of cycles a handshake may happen)"
  -- $<TARGET_FILE:kiln> simulate ${SIMD}/tiny --backpressure 100)
add_test(NAME sim_bp_seed_alone_bad COMMAND ${SIM_EXPECT} 2
  "kiln: simulate: --bp-seed without --backpressure"
  -- $<TARGET_FILE:kiln> simulate ${SIMD}/tiny --bp-seed 3)

kiln_case_tests(sim)
