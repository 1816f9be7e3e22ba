/* Address map: a physical byte address <-> (channel, bank, bank group, row,
 * column). A bijection, so every address has exactly one DRAM location.
 *
 * Two steps (docs/dram.md, "Address map"):
 * 1. Channel. The address is cut into chunks of `channel_interleave` bytes;
 *    chunk i goes to channel i mod channels (any channel count, as Fermi's 6
 *    partitions need), and the channel's local address is the address with
 *    that chunk index divided by the channel count. With hashing the channel
 *    is (i mod channels + fold(i div channels)) mod channels instead, which
 *    breaks up strides that are multiples of channels * interleave.
 * 2. Bank, row, column from the local address by a bit string, most
 *    significant bit first: one letter per bit, R (row), B (bank), C (column
 *    byte within the row), '.' and '_' ignored. Bits above the string belong
 *    to the row. With hashing the bank is XORed with the low row bits
 *    (permutation-based interleaving), so rows that would all fall in one
 *    bank spread over the banks. The bank group is bank mod bank_groups.
 *
 * "linear" builds the string from the sizes: the column bits below the
 * interleave, then the bank bits, then the rest of the column, then the row;
 * so consecutive chunks go to consecutive channels, then banks, then columns
 * of the same rows. "hashed" is linear with both hashes; "hashed:<bits>" is a
 * bit string with both hashes. */
#ifndef SIMTGRID_MEM_ADDRMAP_H
#define SIMTGRID_MEM_ADDRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dram_params dram_params;

typedef struct dram_addr {
    uint32_t channel;
    uint32_t bank;      /* 0 .. banks-1 within the channel */
    uint32_t group;     /* bank group: bank mod bank_groups */
    uint32_t col;       /* byte within the row */
    uint64_t row;
} dram_addr;

enum { ADDRMAP_ROW = 0, ADDRMAP_BANK = 1, ADDRMAP_COL = 2, ADDRMAP_FIELDS = 3 };

/* A run of `width` consecutive bits moved from local-address bit `src` to
 * field bit `dst`: decoding is a handful of shifts and masks per field. */
typedef struct addrmap_run {
    uint8_t src, dst, width;
} addrmap_run;

typedef struct addrmap {
    uint32_t channels, banks, bank_groups;
    uint32_t interleave_shift;      /* log2(channel_interleave) */
    uint32_t string_bits;           /* letters in the bit string */
    uint32_t row_string_bits;       /* R letters (row bits above come from the rest) */
    bool hashed;
    bool mix;                       /* dram.channel_mix */
    uint8_t nruns[ADDRMAP_FIELDS];
    addrmap_run runs[ADDRMAP_FIELDS][64];
} addrmap;

/* From p->addr_map, channels, banks, bank_groups, row_bytes and
 * channel_interleave. On a bad map string returns false with a message in
 * `err` naming dram.addr_map, the character position and what was expected. */
bool addrmap_init(addrmap *m, const dram_params *p, char *err, size_t err_len);
void addrmap_decode(const addrmap *m, uint64_t addr, dram_addr *out);
/* Inverse of addrmap_decode (fields must be in range). */
uint64_t addrmap_encode(const addrmap *m, const dram_addr *a);
/* Channel only (what the crossbar needs to route a request). */
uint32_t addrmap_channel(const addrmap *m, uint64_t addr);

#endif
