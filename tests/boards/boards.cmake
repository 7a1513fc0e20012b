# Board files: the bundled ones load and validate; broken ones get one line
# naming the file and line, exit status 2.
set(BD ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME boards_list COMMAND ${KILN} boards)
set_tests_properties(boards_list PROPERTIES
  PASS_REGULAR_EXPRESSION "kv260 .*\nultra96v2 .*\nzcu102 .*\nzcu104 ")
add_test(NAME boards_negative_dsp_bad COMMAND ${CLI}/expect.sh 2
  "kiln: ${BD}/negative_dsp_bad.xml:6: Element 'resources', attribute 'dsp48e2': '-5' is not a valid value of the atomic type 'xs:positiveInteger'."
  -- ${KILN} boards ${BD}/negative_dsp_bad.xml)
add_test(NAME boards_clock_bad COMMAND ${CLI}/expect.sh 2
  "kiln: ${BD}/clock_bad.xml:7: clocks: default-mhz 500.0 must not exceed max-mhz 400.0 (at most 1000)"
  -- ${KILN} boards ${BD}/clock_bad.xml)
add_test(NAME boards_truncated_bad COMMAND ${CLI}/expect.sh 2
  "kiln: ${BD}/truncated_bad.xml:4: Premature end of data in tag description line 3"
  -- ${KILN} boards ${BD}/truncated_bad.xml)
add_test(NAME boards_unknown_bad COMMAND ${CLI}/expect.sh 2
  "kiln: unknown board 'zcu999' (kiln boards lists them; a board file path works too)"
  -- ${KILN} boards zcu999)
