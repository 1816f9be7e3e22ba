/* Address map (see addrmap.h). Decoding runs on every DRAM request, so the
 * bit string is compiled once into runs of contiguous bits per field. */
#include "mem/addrmap.h"

#include <stdio.h>
#include <string.h>

#include "mem/dram_params.h"

static unsigned log2u(uint64_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

/* The default layout, least significant bit last in the string. */
static void linear_string(char *out, unsigned col_bits, unsigned bank_bits, unsigned shift)
{
    unsigned low_col = col_bits < shift ? col_bits : shift;
    unsigned n = 0;
    for (unsigned i = 0; i < col_bits - low_col; i++)
        out[n++] = 'C';
    for (unsigned i = 0; i < bank_bits; i++)
        out[n++] = 'B';
    for (unsigned i = 0; i < low_col; i++)
        out[n++] = 'C';
    out[n] = '\0';
}

static int field_of_letter(char c)
{
    switch (c) {
    case 'R': return ADDRMAP_ROW;
    case 'B': return ADDRMAP_BANK;
    case 'C': return ADDRMAP_COL;
    default: return -1;
    }
}

/* Compile `bits` (MSB first) into runs; checks letters and counts. */
static bool compile(addrmap *m, const char *bits, const char *whole, unsigned col_bits,
                    unsigned bank_bits, char *err, size_t err_len)
{
    size_t len = strlen(bits);
    size_t offset = (size_t)(bits - whole);   /* position of bits inside the value */
    unsigned count[ADDRMAP_FIELDS] = {0, 0, 0};
    unsigned src = 0;
    memset(m->nruns, 0, sizeof m->nruns);
    for (size_t i = len; i-- > 0;) {
        char c = bits[i];
        if (c == '.' || c == '_')
            continue;
        int f = field_of_letter(c);
        if (f < 0) {
            snprintf(err, err_len,
                     "dram.addr_map: character %zu '%c': expected R (row), B (bank), C (column), "
                     "'.' or '_'", offset + i + 1, c);
            return false;
        }
        if (src >= 64) {
            snprintf(err, err_len, "dram.addr_map: more than 64 address bits: expected at most 64 letters");
            return false;
        }
        uint8_t *n = &m->nruns[f];
        addrmap_run *last = *n ? &m->runs[f][*n - 1] : NULL;
        if (last && last->src + last->width == src && last->dst + last->width == count[f])
            last->width++;
        else
            m->runs[f][(*n)++] = (addrmap_run){(uint8_t)src, (uint8_t)count[f], 1};
        count[f]++;
        src++;
    }
    if (count[ADDRMAP_BANK] != bank_bits) {
        snprintf(err, err_len, "dram.addr_map: %u B letters: expected %u (log2 of dram.banks = %u)",
                 count[ADDRMAP_BANK], bank_bits, m->banks);
        return false;
    }
    if (count[ADDRMAP_COL] != col_bits) {
        snprintf(err, err_len, "dram.addr_map: %u C letters: expected %u (log2 of dram.row_bytes)",
                 count[ADDRMAP_COL], col_bits);
        return false;
    }
    m->string_bits = src;
    m->row_string_bits = count[ADDRMAP_ROW];
    return true;
}

bool addrmap_init(addrmap *m, const dram_params *p, char *err, size_t err_len)
{
    char dummy[1];
    if (!err) {
        err = dummy;
        err_len = sizeof dummy;
    }
    memset(m, 0, sizeof *m);
    if (!is_pow2(p->banks) || !is_pow2(p->row_bytes) || !is_pow2(p->channel_interleave) ||
        p->channels < 1 || p->bank_groups < 1) {
        snprintf(err, err_len, "dram.addr_map: dram.channels must be >= 1 and dram.banks, "
                               "dram.row_bytes, dram.channel_interleave powers of two");
        return false;
    }
    m->channels = p->channels;
    m->banks = p->banks;
    m->bank_groups = p->bank_groups;
    m->interleave_shift = log2u(p->channel_interleave);
    m->mix = p->channel_mix;
    unsigned col_bits = log2u(p->row_bytes), bank_bits = log2u(p->banks);

    const char *s = p->addr_map;
    char linear[200];
    const char *bits = s;
    if (!strcmp(s, "linear") || !strcmp(s, "hashed")) {
        m->hashed = s[0] == 'h';
        linear_string(linear, col_bits, bank_bits, m->interleave_shift);
        bits = linear;
        s = linear;
    } else if (!strncmp(s, "hashed:", 7)) {
        m->hashed = true;
        bits = s + 7;
    }
    if (!*bits) {
        snprintf(err, err_len, "dram.addr_map: empty: expected linear, hashed, or a bit string "
                               "of R/B/C letters");
        return false;
    }
    return compile(m, bits, s, col_bits, bank_bits, err, err_len);
}

static uint64_t gather(const addrmap *m, int f, uint64_t local)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < m->nruns[f]; i++) {
        const addrmap_run *r = &m->runs[f][i];
        uint64_t mask = r->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << r->width) - 1;
        v |= ((local >> r->src) & mask) << r->dst;
    }
    return v;
}

static uint64_t scatter(const addrmap *m, int f, uint64_t v)
{
    uint64_t local = 0;
    for (unsigned i = 0; i < m->nruns[f]; i++) {
        const addrmap_run *r = &m->runs[f][i];
        uint64_t mask = r->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << r->width) - 1;
        local |= ((v >> r->dst) & mask) << r->src;
    }
    return local;
}

/* XOR of the 16-bit pieces of the chunk's quotient: cheap, and every bit of
 * it moves the channel. */
static uint32_t fold16(uint64_t q)
{
    q ^= q >> 32;
    q ^= q >> 16;
    return (uint32_t)(q & 0xffff);
}

/* The splitmix64 finaliser (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014): every bit of q moves every
 * bit of the result, so no stride of chunks keeps the channel offset on a
 * lattice as fold16's sum does (dram.channel_mix). */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The hashed map's channel offset of a chunk quotient. */
static uint64_t chan_offset(const addrmap *m, uint64_t q)
{
    return m->mix ? mix64(q) : fold16(q);
}

/* Chunk index -> (channel, quotient). */
static uint32_t split_chunk(const addrmap *m, uint64_t chunk, uint64_t *q)
{
    uint32_t n = m->channels;
    uint64_t r;
    if (is_pow2(n)) {
        *q = chunk >> log2u(n);
        r = chunk & (n - 1);
    } else {
        *q = chunk / n;
        r = chunk % n;
    }
    if (m->hashed)
        r = (r + chan_offset(m, *q) % n) % n;
    return (uint32_t)r;
}

uint32_t addrmap_channel(const addrmap *m, uint64_t addr)
{
    uint64_t q;
    return split_chunk(m, addr >> m->interleave_shift, &q);
}

void addrmap_decode(const addrmap *m, uint64_t addr, dram_addr *out)
{
    uint32_t k = m->interleave_shift;
    uint64_t q;
    out->channel = split_chunk(m, addr >> k, &q);
    /* q <= addr >> k, so the shift cannot overflow. */
    uint64_t local = (q << k) | (addr & ((UINT64_C(1) << k) - 1));
    uint64_t row = gather(m, ADDRMAP_ROW, local);
    if (m->string_bits < 64)
        row |= (local >> m->string_bits) << m->row_string_bits;
    uint32_t bank = (uint32_t)gather(m, ADDRMAP_BANK, local);
    if (m->hashed)
        bank ^= (uint32_t)(row & (m->banks - 1));
    out->row = row;
    out->bank = bank;
    out->group = bank % m->bank_groups;
    out->col = (uint32_t)gather(m, ADDRMAP_COL, local);
}

uint64_t addrmap_encode(const addrmap *m, const dram_addr *a)
{
    uint32_t bank = a->bank;
    if (m->hashed)
        bank ^= (uint32_t)(a->row & (m->banks - 1));
    uint64_t local = scatter(m, ADDRMAP_ROW, a->row) | scatter(m, ADDRMAP_BANK, bank) |
                     scatter(m, ADDRMAP_COL, a->col);
    if (m->string_bits < 64 && m->row_string_bits < 64)
        local |= (a->row >> m->row_string_bits) << m->string_bits;
    uint32_t k = m->interleave_shift;
    uint64_t q = local >> k;
    uint32_t n = m->channels;
    uint64_t r = a->channel;
    if (m->hashed)
        r = (r + n - chan_offset(m, q) % n) % n;
    return ((q * n + r) << k) | (local & ((UINT64_C(1) << k) - 1));
}
