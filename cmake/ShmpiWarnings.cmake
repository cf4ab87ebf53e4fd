# shmpi_set_warnings(target): the project's one warning set.
function(shmpi_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
      -Wimplicit-fallthrough -Wformat=2 -Wold-style-cast>
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
  if(SHMPI_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
