# SHMPI_SANITIZERS="address;undefined" or "thread": applied to every target.
set(SHMPI_SANITIZERS "" CACHE STRING "sanitizers to build with (address;undefined or thread)")
if(SHMPI_SANITIZERS)
  list(JOIN SHMPI_SANITIZERS "," _shmpi_san)
  add_compile_options(-fsanitize=${_shmpi_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_shmpi_san})
endif()
