# Writes a header holding one source file as a NUL-terminated char array, so the module carries
# its OpenCL C kernels. Usage: cmake -DIN=<file> -DOUT=<header> -DSYMBOL=<name> -P embed_source.cmake
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" hex "${hex}")
file(WRITE "${OUT}.tmp"
  "/* Generated from ${IN} by embed_source.cmake: do not edit. */\n"
  "static const char ${SYMBOL}[] = {\n${hex}0x00};\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
