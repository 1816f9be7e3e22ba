/* Address map: bijection (decode/encode round trip), channel and bank
 * spreading, explicit bit strings, hashing, and every parse error. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "mem/addrmap.h"
#include "mem/dram_params.h"

static void params(dram_params *p, unsigned channels, unsigned banks, unsigned row_bytes,
                   const char *map)
{
    dram_params_default(p);
    p->channels = channels;
    p->banks = banks;
    p->bank_groups = 1;
    p->row_bytes = row_bytes;
    p->channel_interleave = 256;
    snprintf(p->addr_map, sizeof p->addr_map, "%s", map);
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s;
}

static void round_trip(const char *map, unsigned channels, unsigned banks, unsigned row_bytes)
{
    dram_params p;
    params(&p, channels, banks, row_bytes, map);
    addrmap m;
    char err[256];
    cr_assert(addrmap_init(&m, &p, err, sizeof err), "%s: %s", map, err);
    uint64_t seed = 99;
    for (unsigned i = 0; i < 20000; i++) {
        /* full 64-bit addresses, and small ones near the bottom */
        uint64_t a = lcg(&seed);
        if (i % 2)
            a >>= 24 + (i % 24);
        dram_addr d;
        addrmap_decode(&m, a, &d);
        cr_assert_lt(d.channel, channels);
        cr_assert_lt(d.bank, banks);
        cr_assert_lt(d.col, row_bytes);
        cr_assert_eq(d.group, d.bank % p.bank_groups);
        cr_assert_eq(addrmap_channel(&m, a), d.channel);
        uint64_t back = addrmap_encode(&m, &d);
        cr_assert_eq(back, a, "%s: 0x%lx -> ch %u bank %u row %lu col %u -> 0x%lx", map,
                     (unsigned long)a, d.channel, d.bank, (unsigned long)d.row, d.col,
                     (unsigned long)back);
    }
}

Test(addrmap, round_trip_linear_and_hashed)
{
    round_trip("linear", 6, 16, 4096);
    round_trip("hashed", 6, 16, 4096);
    round_trip("linear", 8, 8, 2048);
    round_trip("hashed", 8, 8, 2048);
    round_trip("linear", 1, 8, 4096);
    round_trip("hashed", 1, 1, 16);
    round_trip("linear", 5, 64, 1048576);
}

Test(addrmap, round_trip_bit_strings)
{
    round_trip("RRRR.BBBB.CCCCCCCCCCCC", 1, 16, 4096);
    round_trip("RRBBCCCBCCCCCCCC", 4, 8, 2048);
    round_trip("hashed:CCCC_RRRR_BBBB_CCCCCCCC", 6, 16, 4096);
    round_trip("BBBCCCCCCCCCCC", 3, 8, 2048);    /* no R letters: row is all the bits above */
}

Test(addrmap, consecutive_chunks_spread_over_channels_then_banks)
{
    dram_params p;
    params(&p, 6, 16, 4096, "linear");
    addrmap m;
    cr_assert(addrmap_init(&m, &p, NULL, 0));
    /* 256 B chunk k goes to channel k mod 6; within a channel, local chunk
     * k / 6 goes to bank (k / 6) mod 16; bytes within a chunk stay put. */
    for (uint64_t k = 0; k < 6 * 16 * 2; k++) {
        dram_addr d;
        addrmap_decode(&m, k * 256 + 17, &d);
        cr_assert_eq(d.channel, k % 6, "chunk %lu", (unsigned long)k);
        cr_assert_eq(d.bank, (k / 6) % 16, "chunk %lu", (unsigned long)k);
        /* linear string CCCC BBBB CCCCCCCC: column bits 8..11 are local
         * chunk bits above the bank, i.e. (k / 6 / 16) */
        cr_assert_eq(d.col, (uint32_t)((k / 6 / 16) * 256 + 17));
        cr_assert_eq(d.row, 0);
    }
    /* Local address 65536 (channel 0's 16-bit string exhausted) is row 1:
     * global chunk 65536 / 256 * 6 = 1536 -> address 393216. */
    dram_addr d;
    addrmap_decode(&m, 393216, &d);
    cr_assert_eq(d.channel, 0);
    cr_assert_eq(d.bank, 0);
    cr_assert_eq(d.col, 0);
    cr_assert_eq(d.row, 1);
}

Test(addrmap, explicit_bit_string_fields)
{
    dram_params p;
    params(&p, 1, 8, 2048, "RRBBCCCBCCCCCCCC");
    addrmap m;
    char err[256];
    cr_assert(addrmap_init(&m, &p, err, sizeof err), "%s", err);
    /* LSB first: bits 0-7 C0-7, bit 8 B0, bits 9-11 C8-10, bits 12-13
     * B1-2, bits 14-15 R0-1, bits 16+ row bits 2+. */
    uint64_t a = 0xAB | (1u << 8) | (5u << 9) | (2u << 12) | (3u << 14) | (1u << 16);
    dram_addr d;
    addrmap_decode(&m, a, &d);
    cr_assert_eq(d.col, 0xAB | (5u << 8));
    cr_assert_eq(d.bank, 1 | (2u << 1));
    cr_assert_eq(d.row, 3 | (1u << 2));
    cr_assert_eq(d.channel, 0);
}

Test(addrmap, bank_groups_are_bank_mod_groups)
{
    dram_params p;
    params(&p, 1, 16, 4096, "RRRR.BBBB.CCCCCCCCCCCC");
    p.bank_groups = 4;
    addrmap m;
    cr_assert(addrmap_init(&m, &p, NULL, 0));
    dram_addr d;
    addrmap_decode(&m, 0x7000, &d);   /* bank 7 */
    cr_assert_eq(d.bank, 7);
    cr_assert_eq(d.group, 3);
}

Test(addrmap, hashing_spreads_power_of_two_strides)
{
    dram_params p;
    params(&p, 8, 16, 4096, "linear");
    addrmap lin, hash;
    cr_assert(addrmap_init(&lin, &p, NULL, 0));
    snprintf(p.addr_map, sizeof p.addr_map, "hashed");
    cr_assert(addrmap_init(&hash, &p, NULL, 0));
    /* Stride 8 channels * 256 B = 2 KB: linear puts all in channel 0; hashed
     * gives quotient q = i, channel fold16(i) mod 8 = i mod 8: each channel
     * exactly 8 times in 64 accesses. */
    unsigned lin_count[8] = {0}, hash_count[8] = {0};
    for (uint64_t i = 0; i < 64; i++) {
        lin_count[addrmap_channel(&lin, i * 2048)]++;
        hash_count[addrmap_channel(&hash, i * 2048)]++;
    }
    cr_assert_eq(lin_count[0], 64);
    for (unsigned c = 0; c < 8; c++)
        cr_assert_eq(hash_count[c], 8);
    /* A stride of one row span (channel 0, same bank and column, next row):
     * linear keeps bank 0; hashed XORs the low row bits in: bank = row mod 16. */
    uint64_t row_span = 8ULL * 65536;   /* local 65536 = row 1; times 8 channels */
    for (uint64_t i = 0; i < 16; i++) {
        dram_addr a, b;
        addrmap_decode(&lin, i * row_span, &a);
        addrmap_decode(&hash, i * row_span, &b);
        cr_assert_eq(a.row, i);
        cr_assert_eq(a.bank, 0);
        cr_assert_eq(b.row, i);
        cr_assert_eq(b.bank, i);
    }
}

static void expect_error(const char *map, unsigned banks, unsigned row_bytes, const char *needle)
{
    dram_params p;
    params(&p, 1, banks, row_bytes, map);
    addrmap m;
    char err[256] = "";
    cr_assert_not(addrmap_init(&m, &p, err, sizeof err), "'%s' accepted", map);
    cr_assert(strstr(err, "dram.addr_map"), "'%s': %s", map, err);
    cr_assert(strstr(err, needle), "'%s': '%s' lacks '%s'", map, err, needle);
}

Test(addrmap, parse_errors)
{
    /* bad letter: position counted from 1 */
    expect_error("RRXB.BBCCCCCCCCCCCC", 8, 4096, "character 3 'X': expected R (row), B (bank), C");
    /* position inside a hashed: prefix counts the prefix too */
    expect_error("hashed:RRq", 8, 4096, "character 10 'q'");
    /* bank bits: 8 banks need 3 */
    expect_error("RRRR.BB.CCCCCCCCCCCC", 8, 4096, "2 B letters: expected 3");
    /* column bits: 4096 B rows need 12 */
    expect_error("RRRR.BBB.CCCCCCCCCC", 8, 4096, "10 C letters: expected 12");
    expect_error("", 8, 4096, "empty: expected linear, hashed, or a bit string");
    expect_error("hashed:", 8, 4096, "empty");
    /* 65 letters */
    char longmap[80];
    memset(longmap, 'R', 65);
    longmap[65] = '\0';
    expect_error(longmap, 1, 16, "more than 64 address bits");
    /* sizes that cannot be mapped */
    dram_params p;
    params(&p, 1, 6, 4096, "linear");
    addrmap m;
    char err[256];
    cr_assert_not(addrmap_init(&m, &p, err, sizeof err));
    cr_assert(strstr(err, "powers of two"), "%s", err);
    cr_assert_not(addrmap_init(&m, &p, NULL, 0));
}

/* dram.channel_mix (issue 22): 40 channels of 256 B chunks, a 32 KiB stride
 * (128 chunks: the strided read of an 8192-float matrix's column). fold16 is
 * the identity below 2^16, so chunk i = 128 r goes to (i mod 40 + i div 40)
 * mod 40 = floor(11.2 r) mod 40 = 8 (2k mod 5) + {0, 11, 22, 33, 44}[j] mod
 * 40 for r = 5k + j: 25 channels, 15 never. The mix reaches all 40. */
Test(addrmap, channel_mix_spreads_a_32k_stride)
{
    dram_params p;
    params(&p, 40, 64, 1024, "hashed");
    addrmap fold, mix;
    cr_assert(addrmap_init(&fold, &p, NULL, 0));
    p.channel_mix = true;
    cr_assert(addrmap_init(&mix, &p, NULL, 0));
    unsigned fold_count[40] = {0}, mix_count[40] = {0}, fold_used = 0, mix_used = 0;
    for (uint64_t r = 0; r < 8192; r++) {
        fold_count[addrmap_channel(&fold, r * 32768)]++;
        mix_count[addrmap_channel(&mix, r * 32768)]++;
    }
    for (unsigned c = 0; c < 40; c++) {
        fold_used += fold_count[c] > 0;
        mix_used += mix_count[c] > 0;
    }
    cr_assert_eq(fold_used, 25);
    cr_assert_eq(fold_count[11], 328);   /* r = 5k + 1, k even: 8192 / 25 rounded */
    cr_assert_eq(mix_used, 40);
    /* splitmix64's finaliser of q = 1, 2, 3 (worked out apart: 0x5692161d100b05e5,
     * 0xdbd238973a2b148a, 0x1e535eede31428f0) mod 40 = 29, 10, 16: chunks 40,
     * 80, 120 (remainder 0) land there. */
    cr_assert_eq(addrmap_channel(&mix, 40 * 256), 29);
    cr_assert_eq(addrmap_channel(&mix, 80 * 256), 10);
    cr_assert_eq(addrmap_channel(&mix, 120 * 256), 16);
    cr_assert_eq(addrmap_channel(&fold, 40 * 256), 1);
}

Test(addrmap, round_trip_channel_mix)
{
    dram_params p;
    params(&p, 40, 64, 1024, "hashed");
    p.channel_mix = true;
    addrmap m;
    cr_assert(addrmap_init(&m, &p, NULL, 0));
    uint64_t seed = 7;
    for (unsigned i = 0; i < 20000; i++) {
        uint64_t a = lcg(&seed) >> (i % 2 ? 20 : 0);
        dram_addr d;
        addrmap_decode(&m, a, &d);
        cr_assert_lt(d.channel, 40);
        cr_assert_eq(addrmap_encode(&m, &d), a);
    }
}
