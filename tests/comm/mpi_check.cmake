# Runs CMD (a ;-list, typically mpirun …) and checks the exit code (EXPECT_EXIT: a number, or
# "nonzero") and that EXPECT_REGEX occurs in stdout+stderr exactly EXPECT_COUNT times (default:
# at least once). The TIMEOUT makes a hang a failure.
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 100)
set(all "${out}${err}")
if(EXPECT_EXIT STREQUAL "nonzero")
  if("${rc}" STREQUAL "0" OR NOT "${rc}" MATCHES "^[0-9]+$")
    message(FATAL_ERROR "exit code '${rc}', expected a non-zero exit code\n--- output ---\n${all}")
  endif()
elseif(NOT "${rc}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit code '${rc}', expected ${EXPECT_EXIT}\n--- output ---\n${all}")
endif()
string(REGEX MATCHALL "${EXPECT_REGEX}" hits "${all}")
list(LENGTH hits n)
if(n EQUAL 0 OR (DEFINED EXPECT_COUNT AND NOT n EQUAL EXPECT_COUNT))
  message(FATAL_ERROR "'${EXPECT_REGEX}' occurs ${n} times (expected ${EXPECT_COUNT})\n--- output ---\n${all}")
endif()
message(STATUS "ok: exit ${rc}, '${EXPECT_REGEX}' occurs ${n} times")
