/* Replacement policies: LRU stack with insertion at any position and
 * promotion by N, victim choice (empty first, reserved never, a stack
 * floor), DIP set dueling, DRRIP. Stacks start with way w at position w. */
#include <criterion/criterion.h>

#include "mem/cache.h"
#include "mem/replace.h"

/* The registered policy `name` (src/mem/registry.def). */
#define RP(name) ((const replace_ops *)mem_policy("l1d.replace", name)->ops)

static replace *lru(unsigned ways, unsigned insert_pos, unsigned promote_by)
{
    replace_params p = {.ops = RP("lru"), .insert_pos = insert_pos, .promote_by = promote_by,
                        .rrip_bits = 3};
    replace *r = replace_new(&p, 1, ways);
    cr_assert(r);
    return r;
}

static void expect_stack(const replace *r, unsigned set, const unsigned *want)
{
    for (unsigned w = 0; w < r->ways; w++)
        cr_expect_eq(replace_position(r, set, w), want[w], "way %u", w);
}

Test(replace, lru_insert_at_position_k)
{
    /* 8 ways at 0..7. Way 7 inserted at position 2: the lines at 2..6 move
     * down one: w2->3, w3->4, w4->5, w5->6, w6->7. */
    replace *r = lru(8, 0, 0);
    replace_insert(r, 0, 7, 2);
    expect_stack(r, 0, (unsigned[]){0, 1, 3, 4, 5, 6, 7, 2});
    /* Default position (insert_pos 0 = MRU) for way 5 (at 6): 0..5 move down. */
    replace_insert(r, 0, 5, -1);
    expect_stack(r, 0, (unsigned[]){1, 2, 4, 5, 6, 0, 7, 3});
    replace_free(r);
}

Test(replace, lru_lip_inserts_at_lru)
{
    /* insert_pos = ways-1 (LIP): way 0 (MRU) goes to 3; 1..3 move up. A
     * position past the end is clamped to LRU. */
    replace *r = lru(4, 3, 0);
    replace_insert(r, 0, 0, -1);
    expect_stack(r, 0, (unsigned[]){3, 0, 1, 2});
    replace_insert(r, 0, 1, 40);
    expect_stack(r, 0, (unsigned[]){2, 3, 0, 1});
    replace_free(r);
}

Test(replace, lru_promotion_by_n)
{
    /* promote_by 2: a hit on way 6 (position 6) moves it to 4; the lines at
     * 4 and 5 move down. A hit on way 1 (position 1) goes to 0 (not past MRU). */
    replace *r = lru(8, 0, 2);
    replace_hit(r, 0, 6);
    expect_stack(r, 0, (unsigned[]){0, 1, 2, 3, 5, 6, 4, 7});
    replace_hit(r, 0, 1);
    expect_stack(r, 0, (unsigned[]){1, 0, 2, 3, 5, 6, 4, 7});
    replace_free(r);
    /* promote_by 0: to MRU. */
    r = lru(8, 0, 0);
    replace_hit(r, 0, 7);
    expect_stack(r, 0, (unsigned[]){1, 2, 3, 4, 5, 6, 7, 0});
    replace_free(r);
}

Test(replace, lru_victims)
{
    /* 4 ways at 0..3. All allowed: way 3 (LRU). Way 3 reserved (not
     * allowed): way 2. An empty way wins even at MRU: way 0. */
    replace *r = lru(4, 0, 0);
    cr_expect_eq(replace_victim(r, 0, 0xF, 0, 0), 3);
    cr_expect_eq(replace_victim(r, 0, 0x7, 0, 0), 2);
    cr_expect_eq(replace_victim(r, 0, 0xF, 0x1, 0), 0);
    /* Two empty ways: the one nearer LRU. */
    cr_expect_eq(replace_victim(r, 0, 0xF, 0x3, 0), 1);
    /* None allowed: -1 ("every line reserved"). */
    cr_expect_eq(replace_victim(r, 0, 0, 0, 0), -1);
    /* Floor 3 (victims at positions 3..): way 3 only; with way 3 reserved: none.
     * An empty line is always usable, floor or not. */
    cr_expect_eq(replace_victim(r, 0, 0xF, 0, 3), 3);
    cr_expect_eq(replace_victim(r, 0, 0x7, 0, 3), -1);
    cr_expect_eq(replace_victim(r, 0, 0x7, 0x1, 3), 0);
    /* Invalidate way 0: it becomes LRU (3), the others move up. */
    replace_invalidate(r, 0, 0);
    expect_stack(r, 0, (unsigned[]){3, 0, 1, 2});
    cr_expect_eq(replace_victim(r, 0, 0xF, 0, 0), 0);
    replace_free(r);
}

Test(replace, dip_set_dueling)
{
    /* 32 sets: 4 leaders per policy, stride 8: sets 0,8,16,24 lead LRU
     * insertion, 1,9,17,25 lead BIP; others follow. PSEL starts at 511 (of
     * 1023): followers insert like LRU (MRU position). */
    replace_params p = {.ops = RP("dip"), .insert_pos = 0, .rrip_bits = 3};
    replace *r = replace_new(&p, 32, 4);
    cr_assert(r);
    cr_expect_eq(replace_leader_kind(r, 0), 1);
    cr_expect_eq(replace_leader_kind(r, 24), 1);
    cr_expect_eq(replace_leader_kind(r, 9), 2);
    cr_expect_eq(replace_leader_kind(r, 2), 0);
    replace_insert(r, 2, 3, -1);  /* follower, LRU insertion: way 3 to MRU */
    cr_expect_eq(replace_position(r, 2, 3), 0);
    /* BIP leader: way 0 goes to LRU (bimodal insertion 1 of 32). */
    replace_insert(r, 1, 0, -1);
    cr_expect_eq(replace_position(r, 1, 0), 3);
    /* Two misses in an LRU leader: PSEL 513 > 511, followers switch to BIP. */
    replace_miss(r, 0);
    replace_miss(r, 8);
    cr_expect_eq(r->psel, 513);
    cr_expect(replace_uses_second(r, 2));
    replace_insert(r, 2, 1, -1);  /* insertion 2 of 32: to LRU */
    cr_expect_eq(replace_position(r, 2, 1), 3);
    /* The 32nd bimodal insertion goes to MRU. */
    for (unsigned i = 3; i < 32; i++)
        replace_insert(r, 3, 0, -1);
    replace_insert(r, 2, 2, -1);  /* insertion 32 */
    cr_expect_eq(replace_position(r, 2, 2), 0);
    /* A BIP-leader miss moves PSEL back; it saturates at 0. */
    for (unsigned i = 0; i < 600; i++)
        replace_miss(r, 1);
    cr_expect_eq(r->psel, 0);
    cr_expect_not(replace_uses_second(r, 2));
    /* A position hint overrides DIP too. */
    replace_insert(r, 5, 0, 2);
    cr_expect_eq(replace_position(r, 5, 0), 2);
    replace_free(r);
}

Test(replace, rrip_insert_hit_victim)
{
    /* 2-bit DRRIP (max 3), 32 sets x 4 ways; set 2 is a follower (SRRIP at
     * PSEL 511): insertion at 2. Fill ways 0..3 (2 each), hit way 1 (-> 1).
     * Victim: nobody at 3, so the set ages: 3,2,3,3 -> lowest way at 3 = 0. */
    replace_params p = {.ops = RP("rrip"), .rrip_bits = 2};
    replace *r = replace_new(&p, 32, 4);
    cr_assert(r);
    for (unsigned w = 0; w < 4; w++)
        replace_insert(r, 2, w, -1);
    replace_hit(r, 2, 1);
    cr_expect_eq(replace_position(r, 2, 1), 1);
    cr_expect_eq(replace_victim(r, 2, 0xF, 0, 0), 0);
    expect_stack(r, 2, (unsigned[]){3, 2, 3, 3});
    /* Way 0 not allowed: way 2. An empty allowed way wins: the lowest. */
    cr_expect_eq(replace_victim(r, 2, 0xE, 0, 0), 2);
    cr_expect_eq(replace_victim(r, 2, 0xF, 0xC, 0), 2);
    cr_expect_eq(replace_victim(r, 2, 0, 0, 0), -1);
    /* Hits saturate at 0; invalidation makes a line distant (3). */
    replace_hit(r, 2, 1);
    replace_hit(r, 2, 1);
    replace_hit(r, 2, 1);
    cr_expect_eq(replace_position(r, 2, 1), 0);
    replace_invalidate(r, 2, 1);
    cr_expect_eq(replace_position(r, 2, 1), 3);
    /* BRRIP leader (set 1): distant (3) insertion. */
    replace_insert(r, 1, 0, -1);
    cr_expect_eq(replace_position(r, 1, 0), 3);
    replace_free(r);
}

Test(replace, new_refuses_bad_shapes)
{
    replace_params p = {.ops = RP("lru"), .rrip_bits = 3};
    cr_expect_null(replace_new(&p, 1, 0));
    cr_expect_null(replace_new(&p, 1, 65));
    cr_expect_null(replace_new(&p, 0, 4));
    p.ops = RP("rrip");
    p.rrip_bits = 0;
    cr_expect_null(replace_new(&p, 1, 4));
    p.rrip_bits = 9;
    cr_expect_null(replace_new(&p, 1, 4));
    p.ops = NULL;
    p.rrip_bits = 3;
    cr_expect_null(replace_new(&p, 1, 4));
    /* 64 ways is the widest mask. */
    p.ops = RP("lru");
    replace *r = replace_new(&p, 1, 64);
    cr_assert(r);
    cr_expect_eq(replace_victim(r, 0, UINT64_MAX, 0, 0), 63);
    replace_free(r);
    replace_free(NULL);
}
