# Board files: the bundled ones load and validate; broken ones get one line
# naming the file and line, exit status 2.
set(BD ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME boards_list COMMAND ${KILN} boards)
set_tests_properties(boards_list PROPERTIES
  PASS_REGULAR_EXPRESSION "kv260 .*\nultra96v2 .*\nzcu102 .*\nzcu104 ")
# boards_NAME: kiln boards NAME.xml prints "kiln: NAME.xml:WHAT" and exits 2
function(board_bad name what)
  add_test(NAME boards_${name} COMMAND ${CLI}/expect.sh 2 "kiln: ${BD}/${name}.xml:${what}"
    -- ${KILN} boards ${BD}/${name}.xml)
endfunction()
board_bad(negative_dsp_bad
  "6: Element 'resources', attribute 'dsp48e2': '-5' is not a valid value of the atomic type 'xs:positiveInteger'.")
board_bad(clock_bad "7: clocks: default-mhz 500.0 must not exceed max-mhz 400.0 (at most 1000)")
board_bad(truncated_bad "4: Premature end of data in tag description line 3")
add_test(NAME boards_unknown_bad COMMAND ${CLI}/expect.sh 2
  "kiln: unknown board 'zcu999' (kiln boards lists them; a board file path works too)"
  -- ${KILN} boards zcu999)
# magnitudes the schema cannot say: the planner's arithmetic needs them sane
board_bad(ddr_gbps_bad "8: ddr: pl-gbps 0.001 out of range 0.01..10000")
board_bad(dsp_range_bad "6: resources: dsp48e2 999999999 out of range 1..120000")
board_bad(clock_low_bad "7: clocks: default-mhz 0.5 below 1 MHz")
