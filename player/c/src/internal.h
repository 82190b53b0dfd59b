/* What the library's parts share: the tree's storage and the helpers each part owns. */
#ifndef GT_INTERNAL_H
#define GT_INTERNAL_H

#include <stdio.h>
#include "../guesstree.h"
#include "msgpack.h"

#define GT_MAX_FILE_BYTES ((64u << 20) + (1u << 20))
#define GT_MAX_BODY_BYTES (64u << 20)
#define GT_MAX_NODES (1u << 20)
#define GT_MAX_CHUNKED_NODES 0xFFFFFFFFu
#define GT_MAX_CHUNK_NODES (1u << 20)
#define GT_MAX_CHUNKS (1u << 20)
#define GT_MAX_CHUNK_BYTES (16u << 20)
#define GT_MAX_NOTICE_BYTES (64u << 10)
#define GT_NAME_SIZE 200

/* a game's feedback rule (player/rules.py): what the host tells of the full score */
enum { GT_RULE_FULL, GT_RULE_BLACK, GT_RULE_COUNTS, GT_RULE_COMMON };

/* the rules of one built-in game (player/pegs.py, twod.py, words.py) */
typedef struct game {
    gt_game_kind kind;
    const char *name;
    unsigned length, symbols, feedback_length;
    int colours, holes, secret_repeats, guess_repeats, digits, size, hard;
    int rule;                       /* GT_RULE_*: the feedback parameter (spec.c), the score reduced (games.c) */
    char letters[2];                /* a peg game's feedback letters: "BW", "SB", "AB" */
    /* words: the carried lists (letters.c), each its words' UTF-8 one space apart, in code point order */
    const char *answers, *extra;
    uint64_t answer_bytes, extra_bytes, answer_count, extra_count;
    gt_text answers_sha256, guesses_sha256; /* words: what names its lists (player/words.py's identity) */
    /* words: the alphabet, a letter's code its index (symbols letters, in code point order), and the
     * capital each is shown as; their UTF-8 text (a-z and A-Z for a tree without the key alphabet) */
    uint32_t letter[GT_MAX_LETTERS], capital[GT_MAX_LETTERS];
    gt_text alphabet, capitals;
    gt_text weights;                /* words: answer_weights, one per answer; length 0: every answer weighs 1 */
} game;

/* a words game's letters, its lists' words and the answers' weights (letters.c) */
size_t gti_utf8_next(const uint8_t *s, size_t n, uint32_t *c); /* strict UTF-8: the code point's bytes, 0: none */
size_t gti_utf8_put(uint32_t c, uint8_t *out);
int gti_letter_code(const game *g, uint32_t c);                  /* -1: no letter of the game */
int gti_typed_code(const game *g, uint32_t c);                   /* a letter or its capital; -1: neither */
size_t gti_word_code(const game *g, const char *text, int *code); /* a carried word's codes: its bytes */
size_t gti_word_bytes(const game *g, const int *code, uint8_t *out);
size_t gti_weight_length(const char *text, size_t n);             /* a weight's text up to a space; 0: none */
int gti_weight_compare(gt_text a, gt_text b);

uint32_t gti_game_feedback_keys(const game *g);                  /* the size of the key space */
int gti_game_feedback_key(const game *g, const int *feedback, uint32_t *key); /* 0: not the game's */
void gti_game_score(const game *g, const int *guess, const int *secret, int *feedback);
void gti_game_win(const game *g, int *feedback);
int gti_game_is_code(const game *g, const int *code);
int gti_game_is_guess(const game *g, const int *code);
int gti_game_is_secret(const game *g, const int *code);
int gti_game_first_secret(const game *g, int *code);             /* canonical order: 0 if none */
/* the next secret after code; *index: where the game is, 0 after the first secret (a words game's
 * byte in its answers, a peg game's count) */
int gti_game_next_secret(const game *g, int *code, uint64_t *index);
/* every allowed guess in canonical order, the first max of them into codes: how many there are */
uint64_t gti_game_guesses(const game *g, int *codes, uint64_t max);
/* the same game (player/game.py's ==, by identity: the name and parameters, a words game's lists by sha256) */
int gti_game_same(const game *a, const game *b);
gt_status gti_game_parse_code(const game *g, const char *text, int *code, char *why, size_t size);
gt_status gti_game_parse_feedback(const game *g, const char *text, int *feedback, char *why, size_t size);
size_t gti_game_format_code(const game *g, const int *code, char *text, size_t size);
size_t gti_game_format_feedback(const game *g, const int *feedback, char *text, size_t size);
/* the game spec of a header (player/games.py's make_game and tree.py's _game): 0, or why not in why */
gt_status gti_game_from_spec(game *g, mp_item spec, char *why, size_t size);

/* consecutive nodes from base, with their edges from edge_base (player/body.py's Piece) */
typedef struct piece {
    uint64_t base;
    uint32_t nodes, edge_base;
    const uint8_t *guess, *edge_feedback;
    uint32_t *first;       /* nodes + 1 first edges */
    uint8_t *raw;          /* a chunk's inflated bytes (owned), NULL for a whole tree */
    int64_t chunk;         /* which chunk the slot holds, -1: none */
    uint64_t used;         /* when it was last used */
} piece;

typedef struct source {
    const uint8_t *bytes;  /* the artifact in memory, or NULL: read from file */
    void *file;            /* a FILE (source.c) */
    uint64_t size;
} source;

struct gt_tree {
    gt_allocator allocator;
    char name[GT_NAME_SIZE];
    source src;
    uint8_t *held;           /* bytes read whole from a pipe or device */
    uint8_t *document;       /* the inflated document frame */
    size_t document_size;
    mp_item histogram[2];
    game g;
    gt_text strategy_name, producer, notice;
    uint64_t allowed_guesses;
    int64_t version[2];
    uint64_t stat[5];        /* secrets, total, worst, determined_total, determined_worst */
    double average[2];
    double weighted[3];      /* weighted_total, weighted_mean, total_weight (a weighted game's) */
    int has_weighted;
    /* the table */
    uint64_t nodes;
    unsigned width;
    uint32_t feedbacks, win_index, key_space, win_key;
    uint16_t *key_index;     /* feedback key -> its index + 1 in the table, 0: none */
    uint32_t *table_key;     /* index -> key */
    /* the nodes: one piece, or chunks in slots */
    piece whole;
    int chunked;
    uint32_t chunk_nodes, chunks;
    const uint8_t *chunk_first, *chunk_checksum;
    uint64_t *offsets;       /* chunks + 1 */
    piece *slots;
    unsigned slot_count;
    uint64_t clock;
    uint8_t *frame;          /* a chunk's compressed frame, read from a file */
    void *dctx;
    size_t memory, peak;
    gt_tree *const *book;    /* the opening book (gt_set_book): the caller's trees */
    size_t book_count;
};

/* error messages and memory (base.c) */
gt_status gti_fail(gt_error *e, gt_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
gt_status gti_fail_file(gt_error *e, const gt_tree *t, gt_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void gti_whole_characters(char *text);                           /* a UTF-8 text cut short: its last character whole */
gt_allocator gti_tree_allocator(const gt_options *options);      /* the options' allocator, or the system's */
/* memory through the tree's allocator, counted */
void *gti_tree_alloc(gt_tree *t, size_t size);
void gti_tree_free(gt_tree *t, void *pointer, size_t size);

/* the artifact's bytes, in memory or in a file (source.c) */
gt_status gti_source_read(const source *s, uint64_t offset, size_t size, uint8_t *into);
/* path as a source: a regular file read piece by piece; a pipe's or a device's bytes read whole
 * into *held (from allocator; the caller's, else NULL) */
gt_status gti_source_open_file(source *src, uint8_t **held, const char *path, gt_allocator allocator, gt_error *e);
void gti_file_close(void *file);

/* the zstd frame (frame.c) */
gt_status gti_frame_length(const source *s, uint64_t *end);
/* checks a frame (FORMAT.md §1) and says the content size; what: "artifact" or "chunk" */
gt_status gti_frame_check(const uint8_t *data, size_t size, uint64_t limit, const char *what,
                      uint64_t *content, char *why, size_t why_size);
gt_status gti_frame_inflate(void *dctx, const uint8_t *data, size_t size, uint8_t *into, size_t content,
                        char *why, size_t why_size);

/* the header (header.c) */
gt_status gti_header_read(gt_tree *t, mp_item document, gt_error *e);

/* the feedback table and a piece's nodes and edges, whole or chunked (nodes.c) */
uint32_t gti_le(const uint8_t *p, unsigned width);
gt_status gti_read_table(gt_tree *t, mp_item body, uint64_t most, gt_error *e);
gt_status gti_check_piece(gt_tree *t, piece *p, const uint8_t *counts, uint64_t edges, gt_error *e, const char *where);
uint32_t gti_edge_feedback_at(const gt_tree *t, const piece *p, uint64_t edge);
int64_t gti_child_of(const gt_tree *t, const piece *p, uint64_t node, uint32_t index);

/* a history read and checked as the lookups check it (lookup.c), for gt_suggest (advice.c): its text as
 * the game's ints, each step's code and feedback; does a secret give every answer of the history;
 * can its last guess, answered with the win, be the secret; the refusal of a history no secret gives */
#define TEXT_STEPS 64 /* steps a text history may have: more than any tree plays */
gt_status gti_parse_steps(const gt_tree *t, const char *const *history, size_t steps, int *guesses, int *feedbacks, gt_error *e);
gt_status gti_check_steps(const gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, int any_guess, gt_error *e);
int gti_consistent(const game *g, const int *guesses, const int *feedbacks, size_t steps, const int *secret);
int gti_wins(const gt_tree *t, const int *guesses, const int *feedbacks, size_t steps);
gt_status gti_no_secret(const gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, gt_error *e);

/* the whole body (body.c) */
gt_status gti_body_read(gt_tree *t, mp_item body, gt_error *e);

/* the chunked body (chunks.c) */
gt_status gti_chunks_read(gt_tree *t, mp_item index, uint64_t start, unsigned slots, gt_error *e);
gt_status gti_piece_of(gt_tree *t, uint64_t node, const piece **out, gt_error *e); /* the piece holding node */

void gti_sha256(const uint8_t *data, size_t size, uint8_t digest[32]);
/* is hex (length bytes) the digest in 64 lower-case hex digits? */
int gti_sha256_is(const uint8_t digest[32], const uint8_t *hex, uint64_t length);
typedef struct gti_sha256_state { uint32_t h[8]; uint8_t block[64]; uint64_t bytes; } gti_sha256_state;
void gti_sha256_init(gti_sha256_state *s);
void gti_sha256_update(gti_sha256_state *s, const uint8_t *data, size_t size);
void gti_sha256_final(gti_sha256_state *s, uint8_t digest[32]);

#endif
