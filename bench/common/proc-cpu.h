/* proc-cpu.h - a process's CPU time as the bench programs read it. */
#pragma once

#include <glib.h>

/* The run time of every thread of pid so far, in ns (the first field of
 * each /proc/PID/task/TID/schedstat); 0 when pid is gone. */
guint64 bench_proc_cpu_ns(const gchar *pid);
