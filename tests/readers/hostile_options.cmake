# hostile_option_tests(APP OPTION VALID_ARGS... [ZERO_BAD]) — an app's own numeric option given a
# value no user means (nan, inf, -1, 2^63, 2^64, 1e400, ' -5', empty; 0 with ZERO_BAD) must exit 2
# with one message naming the option (issue 37). VALID_ARGS make the rest of the command line good.
# Values go as --opt=VALUE so that an empty value and one with a blank reach the parser as written.
function(hostile_option_tests app option)
  cmake_parse_arguments(H "ZERO_BAD;MINUS_ONE_OK" "" "" ${ARGN})
  set(_cases "nan:nan" "inf:inf" "minus_inf:-inf" "2p63:9223372036854775808"
             "2p64:18446744073709551616" "1e400:1e400" "blank_minus_5: -5" "empty:" "hex:0x10")
  if(NOT H_MINUS_ONE_OK)
    list(APPEND _cases "minus_1:-1")
  endif()
  if(H_ZERO_BAD)
    list(APPEND _cases "zero:0")
  endif()
  string(REGEX REPLACE "^-+" "" _opt_name "${option}")
  foreach(_c IN LISTS _cases)
    string(FIND "${_c}" ":" _at)
    string(SUBSTRING "${_c}" 0 ${_at} _label)
    math(EXPR _at "${_at} + 1")
    string(SUBSTRING "${_c}" ${_at} -1 _value)
    cli_test(hostile.opts.${app}.${_opt_name}.${_label} 2 "${app}: error: .*${option}"
      $<TARGET_FILE:${app}> ${H_UNPARSED_ARGUMENTS} "${option}=${_value}")
  endforeach()
endfunction()
