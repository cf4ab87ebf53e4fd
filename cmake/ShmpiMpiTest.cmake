# shmpi_add_mpi_test: build an MPI test program against libshmpi and register
# a CTest test that runs it through shmpirun (STYLE.md §6; MPICH testlist).
#
#   shmpi_add_mpi_test(NAME <name> NP <n> SOURCES <files...>
#     [ARGS <arg>...]           program arguments
#     [LABELS <label>...]       added to the label "mpi"
#     [PASS_REGEX <ere>...]     each must match a line of the output
#     [COUNT "<n>:<ere>"...]    exactly n output lines match ere
#     [WILL_FAIL]               the job must exit non-zero
#     [EXIT_CODE <n>]           the job must exit with status n
#     [NO_LEFTOVERS]            no /dev/shm entry or rank process outlives it
#     [DIRECT]                  run the program alone, without shmpirun
#     [ENV <VAR=value>...]      environment of the test
#     [LAUNCHER_ARGS <opt>...]  shmpirun options before the program
#     [TIMEOUT <seconds>])      default 60: shmpirun --timeout, CTest adds 30
#
# A program built from the same sources is built once, whatever the number
# of tests (rank counts, arguments) that run it. Tests whose outcome is more
# than "exit 0" run through tests/mpi/expect.sh, which checks the status and
# the output together (CTest's PASS_REGULAR_EXPRESSION would ignore the exit
# status). Regexes are POSIX extended and case-insensitive. Any output line
# starting "FAIL: " fails a test; status 77 marks it skipped. The environment
# variable SHMPI_TEST_SCALE (a factor, e.g. 0.1 under sanitizers) shrinks the
# programs' iteration counts.
include_guard(GLOBAL)

set(SHMPI_MPI_TEST_EXPECT ${CMAKE_CURRENT_LIST_DIR}/../tests/mpi/expect.sh)
set(SHMPI_MPI_TEST_SUPPORT ${CMAKE_CURRENT_LIST_DIR}/../tests/support)

function(shmpi_add_mpi_test)
  cmake_parse_arguments(PARSE_ARGV 0 T "WILL_FAIL;NO_LEFTOVERS;DIRECT"
                        "NAME;NP;TIMEOUT;EXIT_CODE"
                        "SOURCES;ARGS;LABELS;PASS_REGEX;COUNT;ENV;LAUNCHER_ARGS")
  if(NOT T_NAME OR NOT T_NP OR NOT T_SOURCES)
    message(FATAL_ERROR "shmpi_add_mpi_test: NAME, NP and SOURCES are required")
  endif()
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "shmpi_add_mpi_test(${T_NAME}): unknown arguments "
                        "${T_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()

  # One program per source list: p2p/sizes.c -> target mpitest_p2p_sizes,
  # binary <build>/tests/mpi/p2p/sizes.
  list(GET T_SOURCES 0 first)
  string(REGEX REPLACE "\\.[^./]*$" "" stem "${first}")
  string(MAKE_C_IDENTIFIER "mpitest_${stem}" target)
  if(NOT TARGET ${target})
    add_executable(${target} ${T_SOURCES})
    get_filename_component(dir "${stem}" DIRECTORY)
    get_filename_component(base "${stem}" NAME)
    set_target_properties(${target} PROPERTIES
      OUTPUT_NAME ${base}
      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/${dir}
      C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
    target_include_directories(${target} PRIVATE ${SHMPI_MPI_TEST_SUPPORT})
    target_compile_definitions(${target} PRIVATE _POSIX_C_SOURCE=200809L)
    target_link_libraries(${target} PRIVATE shmpi::mpi Threads::Threads)
    shmpi_set_warnings(${target})
  endif()

  if(T_DIRECT)
    set(command $<TARGET_FILE:${target}> ${T_ARGS})
  else()
    set(command $<TARGET_FILE:shmpirun> -n ${T_NP} --timeout ${T_TIMEOUT}
                ${T_LAUNCHER_ARGS} $<TARGET_FILE:${target}> ${T_ARGS})
  endif()
  if(T_PASS_REGEX OR T_COUNT OR T_WILL_FAIL OR T_NO_LEFTOVERS
     OR DEFINED T_EXIT_CODE)
    set(expect --timeout ${T_TIMEOUT})
    if(DEFINED T_EXIT_CODE)
      list(APPEND expect --exit ${T_EXIT_CODE})
    elseif(T_WILL_FAIL)
      list(APPEND expect --exit nonzero)
    endif()
    foreach(re IN LISTS T_PASS_REGEX)
      list(APPEND expect --regex "${re}")
    endforeach()
    foreach(spec IN LISTS T_COUNT)
      string(REGEX MATCH "^([0-9]+):(.*)$" ok "${spec}")
      if(NOT ok)
        message(FATAL_ERROR "shmpi_add_mpi_test(${T_NAME}): COUNT '${spec}' "
                            "is not <n>:<ere>")
      endif()
      list(APPEND expect --count ${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    endforeach()
    if(T_NO_LEFTOVERS)
      list(APPEND expect --no-leftovers)
    endif()
    set(command sh ${SHMPI_MPI_TEST_EXPECT} ${expect} -- ${command})
  endif()

  add_test(NAME ${T_NAME} COMMAND ${command})
  math(EXPR ctest_timeout "${T_TIMEOUT} + 30")
  set_tests_properties(${T_NAME} PROPERTIES
    LABELS "mpi;${T_LABELS}"
    TIMEOUT ${ctest_timeout}
    SKIP_RETURN_CODE 77
    FAIL_REGULAR_EXPRESSION "(^|\n)FAIL: "
    PROCESSORS ${T_NP})
  if(T_ENV)
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${T_ENV}")
  endif()
endfunction()
