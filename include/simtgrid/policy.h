/* Policy registries: one per kind of policy (warp scheduler, reconvergence,
 * cache replacement, set index, DRAM scheduling, ...).
 *
 * A kind's built-in policies are one X-macro list in its block's
 * registry.def, one line per policy:
 *     X("lrr", sched_lrr_ops, "loose round-robin")
 * The block expands the list into a table of `policy` rows (POLICY_ROW) and
 * looks the configured name up (policy_find); the parameter table expands the
 * same list into the enum's choices (POLICY_CHOICES) and its description
 * (POLICY_DOC), so adding a policy is one new file plus one line. Hosts never
 * switch on a kind: they call the ops found by name.
 *
 * Policies may also be registered at run time (a test's toy policy, a
 * plug-in): policy_register adds the name to the parameter's accepted
 * values, and policy_find finds it after the built-in rows. */
#ifndef SIMTGRID_POLICY_H
#define SIMTGRID_POLICY_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct policy {
    const char *name;   /* the parameter value that selects it */
    const char *desc;   /* one line, for `simtgrid params` */
    const void *ops;    /* the kind's ops struct (sched_ops, replace_ops, ...) */
} policy;

/* Expansions of a registry list `list(X)`, X(name, ops, desc). */
#define POLICY_ROW(name, ops, desc) {name, desc, &ops},
#define POLICY_EXTERN_OPS(type) extern const type
#define POLICY_CHOICE(name, ops, desc) "|" name
#define POLICY_DOC(name, ops, desc) " " name " = " desc ";"
/* "a|b|c", as a constant expression (drops the leading '|'). */
#define POLICY_CHOICES(list) (&("" list(POLICY_CHOICE))[1])

/* Adds `p` (kept by pointer: static storage) to the choices of the enum
 * parameter `param`. False with *err when the parameter is not an enum or
 * the name is taken or not a plain word. */
bool policy_register(const char *param, const policy *p, GError **err);
/* The row named `name`: among the `n` built-in rows, then among those
 * registered for `param`; NULL if none. */
const policy *policy_find(const policy *builtin, size_t n, const char *param, const char *name);

/* A block's registries: each kind's built-in rows and the parameter that
 * chooses among them, a full name ("core.scheduler") or, starting with '.',
 * the suffix shared by every level ("l1d.replace", "l2.replace": ".replace"). */
typedef struct policy_kind {
    const char *param;
    const policy *rows;
    size_t n;
} policy_kind;
#define POLICY_KIND(param, rows) {param, rows, G_N_ELEMENTS(rows)}
/* policy_find in the kind whose parameter matches `param`; NULL if none. */
const policy *policy_lookup(const policy_kind *kinds, size_t nkinds, const char *param,
                            const char *name);

#endif
