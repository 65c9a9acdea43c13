// The system zlib (zlib1g-dev on Debian/Ubuntu, part of the SDK on macOS), for inflating the
// raw-DEFLATE model cache (Z_MODELCACHE) of stores written by Apple's framework.
#include <zlib.h>
