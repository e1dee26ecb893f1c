# One run of a cross-built usbsat under its emulator, checked: usbsat.exe under wine (the Windows leg's smoke
# tests) and the arm64 usbsat under qemu-user (the arm64 leg's), tests/CMakeLists.txt.
#   -DNAME=<test name, names the output files>  -DEMULATOR=<emulator command, '|'-separated>  -DEXE=<the program>
#   -DARGS=<arguments, '|'-separated>
#   [-DEXPECT_RC=N] [-DSTDOUT_REGEX=...] [-DSTDERR_REGEX=...] [-DJSON=ON: stdout must be one JSON document]
#   [-DLINUX_USBSAT=<the Linux build's usbsat>: stdout and the exit code must be byte-identical to its run with
#    ARGS; missing: skipped ("SKIP:" line, the test's SKIP_REGULAR_EXPRESSION) unless -DREQUIRE_LINUX=ON (CI)]
#   [-DMASK_REGEX=<regex>: with LINUX_USBSAT, each match is masked in both outputs before they are compared (a
#    measured time); the rest must be byte-identical]
#   [-DENV=<VAR=value, '|'-separated>: the emulator runs with these set]
#   [-DMAKE_FILE=<path>:<MiB>: create that file first (a load target)] [-DCHANGED=<path>: must differ afterwards]
#   [-DUNCHANGED=<path>: must be the same afterwards]
#   [-DREPLAY=<recording written by the run>:<the Linux build's usbsat>: the Linux build reads it (--from FILE
#    drives --json: exit 0, JSON) and it is a Windows recording; missing Linux build: as for LINUX_USBSAT]
#   [-DRECORD=<sysfs tree>:<recording>: first the Linux build records that tree under umockdev into <recording>
#    (usbsat record; the tree is the Linux build's generated fixture); missing Linux build: as for LINUX_USBSAT]
string(REPLACE "|" ";" emulator "${EMULATOR}")
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
                        "cross-built legs, which compare against it")
  endif()
  message("SKIP: no Linux build at ${LINUX_USBSAT} to compare with (cmake --preset ci && cmake --build build)")
  return()  # ctest: skipped (SKIP_REGULAR_EXPRESSION)
endif()

if(RECORD)
  string(REGEX MATCH "^(.*):([^:]*)$" _ "${RECORD}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "UMOCKDEV_DIR=${CMAKE_MATCH_1}"
                    LD_PRELOAD=libumockdev-preload.so.0 ${LINUX_USBSAT} record -o ${CMAKE_MATCH_2}
                  RESULT_VARIABLE record_rc ERROR_VARIABLE record_err)
  if(NOT record_rc EQUAL 0)
    message(FATAL_ERROR "the Linux build cannot record ${CMAKE_MATCH_1} under umockdev: exit ${record_rc}\n${record_err}")
  endif()
endif()

# Byte-exact: OUTPUT_VARIABLE and file(READ) fold "\r\n" into "\n" and would hide a text-mode stdout; the files
# keep every byte (compared by SHA256, checked as hex).
string(MAKE_C_IDENTIFIER "${NAME}" tag)
set(out_file "${CMAKE_CURRENT_BINARY_DIR}/exe-${tag}.cross.out")
string(REPLACE "|" ";" env "${ENV}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${emulator} ${EXE} ${args} OUTPUT_FILE "${out_file}" ERROR_FILE "${out_file}.err"
                RESULT_VARIABLE rc)
file(READ "${out_file}" out)
file(READ "${out_file}.err" err)
get_filename_component(exe_name "${EXE}" NAME)
set(what "${exe_name} (cross-built) ${args}")
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
  if(MASK_REGEX)  # carriage returns were refused above, so the text read compares the bytes
    file(READ "${out_file}" cross_text)
    file(READ "${linux_file}" linux_text)
    string(REGEX MATCH "${MASK_REGEX}" cross_masked "${cross_text}")
    if(NOT cross_masked)
      message(FATAL_ERROR "${what}: stdout has nothing that matches the mask '${MASK_REGEX}'")
    endif()
    string(REGEX REPLACE "${MASK_REGEX}" "(masked)" cross_sum "${cross_text}")
    string(REGEX REPLACE "${MASK_REGEX}" "(masked)" linux_sum "${linux_text}")
  else()
    file(SHA256 "${out_file}" cross_sum)
    file(SHA256 "${linux_file}" linux_sum)
  endif()
  if(NOT cross_sum STREQUAL linux_sum)
    message(FATAL_ERROR "${what}: stdout differs from the Linux build's (${LINUX_USBSAT}): compare ${out_file} "
                        "with ${linux_file}")
  endif()
  message(STATUS "identical to the Linux build's output (${LINUX_USBSAT})")
endif()
if(REPLAY)
  string(REGEX MATCH "^(.*):([^:]*)$" _ "${REPLAY}")
  set(recording "${CMAKE_MATCH_1}")
  set(linux "${CMAKE_MATCH_2}")
  if(NOT EXISTS "${recording}")
    message(FATAL_ERROR "${what}: wrote no recording at ${recording}")
  endif()
  file(READ "${recording}" doc)
  string(JSON platform ERROR_VARIABLE json_error GET "${doc}" platform)
  if(json_error OR NOT platform STREQUAL "windows")
    message(FATAL_ERROR "${what}: ${recording} is not a Windows recording (platform '${platform}' ${json_error})")
  endif()
  if(NOT EXISTS "${linux}")
    if(REQUIRE_LINUX)
      message(FATAL_ERROR "the Linux build's usbsat (${linux}) is missing: CI builds it before the Windows leg")
    endif()
    message("SKIP: no Linux build at ${linux} to replay ${recording} with")
    return()
  endif()
  execute_process(COMMAND ${linux} --from ${recording} drives --json OUTPUT_VARIABLE replayed
                  ERROR_VARIABLE replay_err RESULT_VARIABLE replay_rc)
  string(JSON type ERROR_VARIABLE json_error TYPE "${replayed}")
  if(NOT replay_rc EQUAL 0 OR json_error)
    message(FATAL_ERROR "the Linux build cannot read the cross-built usbsat's recording: exit ${replay_rc} ${json_error}\n${replay_err}")
  endif()
  message(STATUS "the Linux build reads the cross-built usbsat's recording: ${replayed}")
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
