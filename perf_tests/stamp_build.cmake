# SPDX-License-Identifier: BSD-3-Clause
# Run at every build of ordo-perf (cmake -P): writes OUTPUT, the commit of the source tree being
# built (git rev-parse HEAD, "-dirty" where tracked files differ from it), or FALLBACK (the
# configured Ordo_GIT_HASH) where the source has no git. OUTPUT is rewritten only when it
# changes, so that an unchanged tree rebuilds nothing.
set(_commit "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse HEAD WORKING_DIRECTORY ${SOURCE}
                  OUTPUT_VARIABLE _commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _commit)
    execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
                    WORKING_DIRECTORY ${SOURCE} OUTPUT_VARIABLE _changes ERROR_QUIET)
    if(_changes)
      string(APPEND _commit "-dirty")
    endif()
  else()
    set(_commit "")
  endif()
endif()
if(NOT _commit)
  set(_commit "${FALLBACK}")
endif()
set(_text "// Generated at build time by perf_tests/stamp_build.cmake.\n#define ORDO_PERF_BUILD_COMMIT \"${_commit}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} _old)
endif()
if(NOT _old STREQUAL _text)
  file(WRITE ${OUTPUT} "${_text}")
endif()
