# One run of the cross-built usbsat.exe under wine (the Windows leg's smoke tests, tests/CMakeLists.txt), checked:
#   -DNAME=<test name, names the output files>  -DWINE=<emulator command, '|'-separated>  -DEXE=usbsat.exe  -DARGS=<arguments, '|'-separated>
#   [-DEXPECT_RC=N] [-DSTDOUT_REGEX=...] [-DSTDERR_REGEX=...] [-DJSON=ON: stdout must be one JSON document]
#   [-DLINUX_USBSAT=<the Linux build's usbsat>: stdout and the exit code must be byte-identical to its run with
#    ARGS; missing: skipped ("SKIP:" line, the test's SKIP_REGULAR_EXPRESSION) unless -DREQUIRE_LINUX=ON (CI)]
#   [-DMAKE_FILE=<path>:<MiB>: create that file first (a load target)] [-DCHANGED=<path>: must differ afterwards]
#   [-DUNCHANGED=<path>: must be the same afterwards]
string(REPLACE "|" ";" wine "${WINE}")
string(REPLACE "|" ";" args "${ARGS}")

if(MAKE_FILE)
  string(REGEX MATCH "^(.*):([0-9]+)$" _ "${MAKE_FILE}")
  set(path "${CMAKE_MATCH_1}")
  string(REPEAT "usbsat-load-tgt-" 65536 mib)  # 16 B x 65536 = 1 MiB
  file(WRITE "${path}" "")
  foreach(i RANGE 1 ${CMAKE_MATCH_2})
    file(APPEND "${path}" "${mib}")
  endforeach()
endif()
if(CHANGED)
  file(SHA256 "${CHANGED}" before)
endif()
if(UNCHANGED)
  file(SHA256 "${UNCHANGED}" untouched)
endif()

if(LINUX_USBSAT AND NOT EXISTS "${LINUX_USBSAT}")
  if(REQUIRE_LINUX)
    message(FATAL_ERROR "the Linux build's usbsat (${LINUX_USBSAT}) is missing: CI builds it (preset ci) before the "
                        "Windows leg, which compares against it")
  endif()
  message("SKIP: no Linux build at ${LINUX_USBSAT} to compare with (cmake --preset ci && cmake --build build)")
  return()  # ctest: skipped (SKIP_REGULAR_EXPRESSION)
endif()

# Byte-exact: OUTPUT_VARIABLE and file(READ) fold "\r\n" into "\n" and would hide a text-mode stdout; the files
# keep every byte (compared by SHA256, checked as hex).
string(MAKE_C_IDENTIFIER "${NAME}" tag)
set(out_file "${CMAKE_CURRENT_BINARY_DIR}/exe-${tag}.windows.out")
execute_process(COMMAND ${wine} ${EXE} ${args} OUTPUT_FILE "${out_file}" ERROR_FILE "${out_file}.err"
                RESULT_VARIABLE rc)
file(READ "${out_file}" out)
file(READ "${out_file}.err" err)
set(what "usbsat.exe ${args}")
message(STATUS "${what}: exit ${rc}\n--- stdout (first 2000 bytes)")
string(SUBSTRING "${out}" 0 2000 head)
message(STATUS "${head}\n--- stderr\n${err}")

if(DEFINED EXPECT_RC AND NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "${what}: exit ${rc}, expected ${EXPECT_RC}")
endif()
if(STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "${what}: stdout does not match '${STDOUT_REGEX}'")
endif()
if(STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "${what}: stderr does not match '${STDERR_REGEX}'")
endif()
# file(READ) drops "\r" too: look for the byte 0d in the first 4 KiB (a text-mode stdout has one on every line).
file(READ "${out_file}" out_hex LIMIT 4096 HEX)
string(REGEX MATCH "^(..)*0d" cr "${out_hex}")
if(cr)
  message(FATAL_ERROR "${what}: stdout has a carriage return (text-mode stdout: \\r\\n for \\n)")
endif()
if(JSON)
  string(JSON type ERROR_VARIABLE json_error TYPE "${out}")
  if(json_error)
    message(FATAL_ERROR "${what}: stdout is not JSON: ${json_error}")
  endif()
endif()
if(LINUX_USBSAT)
  set(linux_file "${CMAKE_CURRENT_BINARY_DIR}/exe-${tag}.linux.out")
  execute_process(COMMAND ${LINUX_USBSAT} ${args} OUTPUT_FILE "${linux_file}" ERROR_VARIABLE linux_err
                  RESULT_VARIABLE linux_rc)
  if(NOT rc STREQUAL linux_rc)
    message(FATAL_ERROR "${what}: exit ${rc}, the Linux build exits ${linux_rc}\n${linux_err}")
  endif()
  file(SHA256 "${out_file}" windows_sum)
  file(SHA256 "${linux_file}" linux_sum)
  if(NOT windows_sum STREQUAL linux_sum)
    message(FATAL_ERROR "${what}: stdout differs from the Linux build's (${LINUX_USBSAT}): compare ${out_file} "
                        "with ${linux_file}")
  endif()
  message(STATUS "identical to the Linux build's output (${LINUX_USBSAT})")
endif()
if(CHANGED)
  file(SHA256 "${CHANGED}" after)
  if(before STREQUAL after)
    message(FATAL_ERROR "${what}: ${CHANGED} is unchanged")
  endif()
endif()
if(UNCHANGED)
  file(SHA256 "${UNCHANGED}" after)
  if(NOT untouched STREQUAL after)
    message(FATAL_ERROR "${what}: ${UNCHANGED} was changed")
  endif()
endif()
