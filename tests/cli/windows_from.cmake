# usbsat --from <Windows recording> drives --json / ports, compared with windows_test's goldens (the builder's
# output through the same renderers): a Windows machine analysed on Linux, end to end through the command line.
# -DUSBSAT=... -DRECORDING=... -DGOLDEN_PREFIX=<golden dir>/windows-<fixture>
foreach(view "drives;--json;drives.json" "ports;-;ports.txt" "drives;-;drives.txt")  # "-": no flag
  list(GET view 0 cmd)
  list(GET view 1 flag)
  list(GET view 2 suffix)
  if(flag STREQUAL "-")
    set(flag "")
  endif()
  execute_process(COMMAND ${USBSAT} --from ${RECORDING} ${cmd} ${flag}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "usbsat --from ${RECORDING} ${cmd} ${flag}: exit ${rc}\n${err}")
  endif()
  file(READ ${GOLDEN_PREFIX}.${suffix} want)
  if(NOT out STREQUAL want)
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/windows-from-${cmd}${flag}.out "${out}")
    message(FATAL_ERROR "usbsat --from ${RECORDING} ${cmd} ${flag} differs from ${GOLDEN_PREFIX}.${suffix}\n"
                        "got:\n${out}")
  endif()
  message(STATUS "ok: ${cmd} ${flag} equals ${GOLDEN_PREFIX}.${suffix}")
endforeach()
