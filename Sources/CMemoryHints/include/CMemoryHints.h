#ifndef OCD_MEMORY_HINTS_H
#define OCD_MEMORY_HINTS_H

// Hints to the CPU's caches that Swift has no spelling for.

/// Starts loading the cache line at `address` for writing, without waiting for it. Only a hint:
/// an address that is not mapped is ignored, never faulted on.
static inline void ocd_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
