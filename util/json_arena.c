/* A bump allocator for cJSON trees, one per open scope on each thread. */
#include "util/json_arena.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The first block holds the tree of a typical data file (20-40 KB of JSON); each further block
 * doubles, up to the cap, so that a large file takes a handful of blocks. */
#define FIRST_BLOCK_BYTES ((size_t)64 << 10)
#define MAX_BLOCK_BYTES   ((size_t)4 << 20)
#define ALIGNMENT         alignof(max_align_t)

struct gp_json_arena_block {
    struct gp_json_arena_block *next; /* older block */
    size_t size;                      /* bytes of data[] */
    size_t used;                      /* bytes of data[] handed out */
    alignas(max_align_t) unsigned char data[];
};

static _Thread_local struct gp_json_arena *open_arena;

void gp_json_arena_begin(struct gp_json_arena *arena)
{
    arena->blocks = NULL;
    arena->outer = open_arena;
    open_arena = arena;
}

void gp_json_arena_end(struct gp_json_arena *arena)
{
    struct gp_json_arena_block *b = arena->blocks;

    while (b) {
        struct gp_json_arena_block *next = b->next;
        free(b);
        b = next;
    }
    arena->blocks = NULL;
    open_arena = arena->outer;
}

static size_t round_up(size_t size)
{
    return (size + ALIGNMENT - 1) & ~(ALIGNMENT - 1);
}

/* A new block with room for at least `size` bytes, put in front; NULL when out of memory. */
static struct gp_json_arena_block *add_block(struct gp_json_arena *arena, size_t size)
{
    size_t want = arena->blocks ? arena->blocks->size * 2 : FIRST_BLOCK_BYTES;
    struct gp_json_arena_block *b;

    if (want > MAX_BLOCK_BYTES)
        want = MAX_BLOCK_BYTES;
    if (want < size)
        want = size;
    if (want > SIZE_MAX - sizeof(*b) || !(b = malloc(sizeof(*b) + want)))
        return NULL;
    b->size = want;
    b->used = 0;
    b->next = arena->blocks;
    arena->blocks = b;
    return b;
}

void *gp_json_arena_alloc(size_t size, bool *in_arena)
{
    struct gp_json_arena *arena = open_arena;
    struct gp_json_arena_block *b;
    void *p;

    *in_arena = arena != NULL;
    if (!arena || size > SIZE_MAX - ALIGNMENT)
        return NULL;
    size = round_up(size ? size : 1);
    b = arena->blocks;
    if (!b || b->size - b->used < size)
        b = add_block(arena, size);
    if (!b)
        return NULL;
    p = b->data + b->used;
    b->used += size;
    return p;
}

bool gp_json_arena_owns(const void *p)
{
    uintptr_t at = (uintptr_t)p;

    for (const struct gp_json_arena *a = open_arena; a; a = a->outer)
        for (const struct gp_json_arena_block *b = a->blocks; b; b = b->next)
            if (at >= (uintptr_t)b->data && at < (uintptr_t)b->data + b->size)
                return true;
    return false;
}
