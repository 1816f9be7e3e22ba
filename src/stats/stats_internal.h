/* The statistics registry's layout, shared by registry.c (registration and
 * look-ups) and stats_write.c (JSON and CSV). Not a public header. */
#ifndef SIMTGRID_STATS_INTERNAL_H
#define SIMTGRID_STATS_INTERNAL_H

#include "simtgrid/stats.h"

#include <glib.h>

typedef enum stat_kind {
    STAT_COUNTER,
    STAT_HISTOGRAM,
    STAT_DERIVED,
    STAT_SERIES,
} stat_kind;

struct stats_series {
    double interval;
    double *values;
    size_t len, cap;
};

typedef struct stat_entry {
    stat_kind kind;
    char *name, *unit, *desc;
    union {
        const uint64_t *counter;
        const stats_hist *hist;
        double derived;
        stats_series *series;
    } v;
} stat_entry;

/* One block path ("sm3.l1d") and its statistics in registration order. The
 * hash table is for look-ups only; output always walks `entries`. */
typedef struct stat_block {
    char *path;
    GPtrArray *entries;        /* stat_entry*, owned */
    GHashTable *by_name;       /* name -> stat_entry* (borrowed) */
} stat_block;

struct stats {
    GPtrArray *blocks;         /* stat_block*, in order of first registration */
    GHashTable *by_path;       /* path -> stat_block* (borrowed) */
    GPtrArray *series;         /* every stats_series created, owned */
    struct trace *trace;       /* the run's timeline trace, or NULL (not owned) */
};

#endif
