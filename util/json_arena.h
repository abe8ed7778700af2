/* One arena for the cJSON trees a thread builds while it reads a data file: a tree of a few
 * thousand values costs a few blocks instead of a malloc and a free per value. */
#ifndef GP_UTIL_JSON_ARENA_H
#define GP_UTIL_JSON_ARENA_H

#include <stdbool.h>
#include <stddef.h>

struct gp_json_arena_block;

/*
 * Between gp_json_arena_begin and gp_json_arena_end every cJSON allocation this thread makes
 * comes from `arena`, and freeing one is a no-op: gp_json_arena_end releases them all. So
 * nothing cJSON makes inside the scope (a parsed tree, a printed text) may be used after it.
 * Scopes nest: an inner one ends before its outer one, and a tree from an outer scope may be
 * deleted inside an inner one. The arena lives on the caller's stack.
 */
struct gp_json_arena {
    struct gp_json_arena_block *blocks; /* newest first, owned */
    struct gp_json_arena *outer;        /* the scope this one is inside, or NULL */
};

void gp_json_arena_begin(struct gp_json_arena *arena);
void gp_json_arena_end(struct gp_json_arena *arena);

/* For util/json.c's cJSON hooks. `size` bytes from the thread's open arena, aligned for any
 * type; NULL when no arena is open (`*in_arena` false: use malloc) or when out of memory. */
void *gp_json_arena_alloc(size_t size, bool *in_arena);
/* True when `p` came from an arena open on this thread (freeing it is then a no-op). */
bool gp_json_arena_owns(const void *p);

#endif
