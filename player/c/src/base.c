/* What every part of the reader rests on: error messages, and memory through the tree's allocator
 * (the system's, or the caller's: a gt_arena or its own). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* -- error messages --------------------------------------------------------------------------- */
/* a text cut to fit ends at a whole character: the bytes of one cut short are taken off */
void gti_whole_characters(char *message)
{
    size_t n = strlen(message), start = n;
    while (start > 0 && ((unsigned char)message[start - 1] & 0xC0) == 0x80 && n - start < 3) start--;
    if (start > 0 && (unsigned char)message[start - 1] >= 0xC0) {
        unsigned char lead = (unsigned char)message[start - 1];
        size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
        if (n - (start - 1) < length) message[start - 1] = 0;
    }
}

gt_status gti_fail(gt_error *e, gt_status status, const char *format, ...)
{
    va_list args;
    if (!e) return status;
    e->status = status;
    va_start(args, format);
    vsnprintf(e->message, sizeof e->message, format, args);
    va_end(args);
    gti_whole_characters(e->message);
    return status;
}

gt_status gti_fail_file(gt_error *e, const gt_tree *t, gt_status status, const char *format, ...)
{
    va_list args;
    if (!e) return status;
    int n = snprintf(e->message, sizeof e->message, "%s: ", t->name);
    e->status = status;
    va_start(args, format);
    if (n >= 0 && (size_t)n < sizeof e->message) vsnprintf(e->message + n, sizeof e->message - (size_t)n, format, args);
    va_end(args);
    gti_whole_characters(e->message);
    return status;
}

/* -- memory ---------------------------------------------------------------------------------- */
#ifdef GT_NO_MALLOC /* a target without malloc: every tree needs options.allocator (gt_arena) */
static void *system_alloc(void *user, size_t size) { (void)user, (void)size; return NULL; }
static void system_free(void *user, void *pointer) { (void)user, (void)pointer; }
#else
static void *system_alloc(void *user, size_t size) { (void)user; return malloc(size); }
static void system_free(void *user, void *pointer) { (void)user; free(pointer); }
#endif

gt_allocator gti_tree_allocator(const gt_options *options)
{
    gt_allocator allocator = {system_alloc, system_free, NULL};
    if (options && options->allocator) allocator = *options->allocator;
    return allocator;
}

/* a block's size is kept before it, so that free and the count need no table */
#define HEAD 16

void *gti_tree_alloc(gt_tree *t, size_t size)
{
    if (size > SIZE_MAX - HEAD) return NULL;
    unsigned char *block = t->allocator.alloc(t->allocator.user, size + HEAD);
    if (!block) return NULL;
    memcpy(block, &size, sizeof size);
    t->memory += size + HEAD;
    if (t->memory > t->peak) t->peak = t->memory;
    return block + HEAD;
}

void gti_tree_free(gt_tree *t, void *pointer, size_t unused)
{
    size_t size;
    (void)unused;
    if (!pointer) return;
    unsigned char *block = (unsigned char *)pointer - HEAD;
    memcpy(&size, block, sizeof size);
    t->memory -= size + HEAD;
    t->allocator.free(t->allocator.user, block);
}

/* Each block is headed by where the block before it began, so that blocks given back last taken
 * first (a suggestion's, gt_suggest) are all given back, each making the one before it the last. */
static void *arena_alloc(void *user, size_t size)
{
    gt_arena *a = user;
    size_t at = (a->used + 15) & ~(size_t)15;
    if (at > a->size || a->size - at < HEAD || size > a->size - at - HEAD) return NULL;
    memcpy(a->buffer + at, &a->last, sizeof a->last);
    a->used = at + HEAD + size;
    a->last = at;
    a->blocks++;
    return a->buffer + at + HEAD;
}

static void arena_free(void *user, void *pointer)
{
    gt_arena *a = user;
    if (!a->blocks) return; /* nothing of the arena's is out: not one of its blocks */
    if ((unsigned char *)pointer == a->buffer + a->last + HEAD) { /* the last block: given back */
        a->used = a->last;
        memcpy(&a->last, a->buffer + a->last, sizeof a->last);
    }
    if (--a->blocks == 0) a->used = a->last = 0;
}

gt_status gt_arena_init(gt_arena *arena, void *buffer, size_t size)
{
    if (!arena || (!buffer && size)) return GT_E_ARGUMENT;
    arena->allocator.alloc = arena_alloc;
    arena->allocator.free = arena_free;
    arena->allocator.user = arena;
    arena->buffer = buffer;
    arena->size = size;
    arena->used = arena->blocks = arena->last = 0;
    return GT_OK;
}
