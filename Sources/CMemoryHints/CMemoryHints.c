// The hints are inline functions in include/CMemoryHints.h; SwiftPM needs a source file to
// build a C target.
#include "CMemoryHints.h"
