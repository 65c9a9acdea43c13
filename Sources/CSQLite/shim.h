// The system SQLite (libsqlite3-dev on Debian/Ubuntu, part of the SDK on macOS).
// OpenCoreData calls its C API directly: the store's hot paths can't afford a wrapper's per-row cost.
#include <sqlite3.h>
