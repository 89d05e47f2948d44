# Runs CMD (a ;-list), then checks its exit code equals EXPECT_EXIT and that its stdout+stderr
# match EXPECT_REGEX. Used by cli_test() for "bad input gives one clear message" tests.
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 280)
set(all "${out}${err}")
if(NOT "${rc}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_EXIT}\n--- output ---\n${all}")
endif()
if(NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}'\n--- output ---\n${all}")
endif()
message(STATUS "ok: exit ${rc}, output matches")
