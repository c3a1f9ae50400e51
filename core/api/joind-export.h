/* joind-export.h - symbol visibility for the plugin ABI.
 *
 * libjoind is built with -fvisibility=hidden; only declarations marked
 * JOIND_EXPORT are part of the ABI that plugins link against.
 */
#pragma once

#if defined(JOIND_COMPILATION)
#define JOIND_EXPORT __attribute__((visibility("default")))
#else
#define JOIND_EXPORT
#endif
