/* A line-granularity memory packet: what leaves an L1 for the L2 through the
 * crossbar, and what comes back. One struct both ways keeps the crossbar
 * generic; `reply` tells the direction. */
#ifndef SIMTGRID_MEMPKT_H
#define SIMTGRID_MEMPKT_H

#include <stdint.h>

typedef struct mem_pkt {
    uint64_t addr;         /* line (or sector) address */
    uint64_t born;         /* tick the packet entered the memory system (latency statistics) */
    uint32_t id;           /* requester's id (MSHR entry, ...), echoed in the reply */
    uint16_t src;          /* crossbar input it came from (SM / cluster index) */
    uint16_t dst;          /* crossbar output it goes to (partition / slice) */
    uint16_t bytes;        /* payload bytes carried (0 for a read request) */
    uint8_t op;            /* enum mem_op (memport.h) */
    uint8_t flags;         /* enum mem_flags (memport.h) */
    uint8_t sectors;       /* sector mask within the line */
    uint8_t reply;         /* 0 request, 1 reply */
    uint16_t warp;         /* for statistics */
    /* An atomic's lane operations, executed one by one at the L2 slice:
     * how many (active lanes touching this line) and the most of them on
     * one address (they serialize there). 0 reads as 1 (other senders). */
    uint8_t lanes;
    uint8_t hot_lanes;
    uint8_t hot_word;      /* that address's 4-B word in the line (mod 256) */
    /* A write: its 32-B segments holding only some of their bytes (a DRAM
     * without a data mask reads them first: dram.write_mask). */
    uint8_t partial;
    /* A write: the 4-B words of the line it writes whole (lines of up to
     * 128 B), for an L2 that completes partial segments (l2.byte_enables). */
    uint32_t words;
} mem_pkt;

#endif
