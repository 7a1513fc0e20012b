/*
 * A bump allocator: the memory of a graph (or of one interpreter run) comes
 * from one arena and goes back to the system in one call.  Large requests get
 * a block of their own so a model's weights do not waste chunk tails.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "graphir.h"

#define CHUNK_SIZE (1u << 20) /* largest shared block */
#define FIRST_CHUNK (16u << 10) /* first block: most arenas stay small */

typedef struct Block Block;
struct Block {
    Block *next; /* older blocks */
    size_t size; /* usable bytes after the header */
    size_t used; /* bytes handed out */
    /* data follows, 16-byte aligned */
};

struct GirArena {
    Block *head; /* newest block: the one being filled */
};

#define HEADER_SIZE ((sizeof(Block) + 15) & ~(size_t)15)

static Block *block_new(size_t size)
{
    Block *b = malloc(HEADER_SIZE + size);
    if (!b)
        gir_die("out of memory allocating %zu bytes", size);
    b->next = NULL;
    b->size = size;
    b->used = 0;
    return b;
}

GirArena *gir_arena_new(void)
{
    GirArena *a = calloc(1, sizeof *a);
    if (!a)
        gir_die("out of memory");
    return a;
}

void gir_arena_free(GirArena *a)
{
    Block *b, *next;
    if (!a)
        return;
    for (b = a->head; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}

void *gir_arena_alloc(GirArena *a, size_t size)
{
    Block *b;
    void *p;
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    if (size > CHUNK_SIZE / 4) {
        /* A big block of its own, linked behind the current one so the
         * current block's free tail stays usable. */
        b = block_new(size);
        b->used = size;
        if (a->head) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            a->head = b;
        }
        p = (char *)b + HEADER_SIZE;
        memset(p, 0, size);
        return p;
    }
    if (!a->head || a->head->size - a->head->used < size) {
        /* Each shared block twice the last, up to CHUNK_SIZE: a small
         * graph costs kilobytes, not a megabyte. */
        size_t chunk = a->head ? a->head->size * 2 : FIRST_CHUNK;
        if (chunk > CHUNK_SIZE)
            chunk = CHUNK_SIZE;
        while (chunk < size)
            chunk *= 2;
        b = block_new(chunk);
        b->next = a->head;
        a->head = b;
    }
    b = a->head;
    p = (char *)b + HEADER_SIZE + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *gir_arena_strdup(GirArena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = gir_arena_alloc(a, n);
    memcpy(p, s, n);
    return p;
}

char *gir_arena_printf(GirArena *a, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *p;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        gir_die("gir_arena_printf: bad format");
    p = gir_arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}
