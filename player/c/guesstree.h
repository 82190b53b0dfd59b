/* guesstree.h: the guesstree player in C99. It reads an artifact (trees/FORMAT.md, the whole layout
 * 1.x and the chunked layout 2.x) and answers next_guess, path and candidates as the Python player
 * (player/tree.py) does, refusing a damaged or hostile file with a status and a message naming the
 * file and the reason, as player/artifact.py and player/body.py refuse it.
 *
 * Words of any alphabet (format 1.3, chunked 2.1): a words game's codes are its letters' places in
 * its alphabet (gt_get_alphabet; a-z where the tree names none), its words UTF-8 text, shown by
 * their capitals and read without Unicode normalisation (gt_parse_code). Weighted answers:
 * gt_get_weight, and gt_suggest's ties to the heavier secret.
 *
 * Memory. Everything a tree needs is allocated when it is opened, through the caller's allocator if
 * one is given (gt_options.allocator; gt_arena for a fixed buffer), and freed by gt_close; no call
 * after gt_open_* allocates, but gt_suggest off the tree, which gives back all it took before it
 * returns. What a tree holds at most:
 *   - the inflated document: at most 64 MiB (the header and, for a whole tree, the body's arrays);
 *   - a whole tree: 4 * (nodes + 1) bytes of edge offsets (nodes <= 2^20, so at most 4 MiB);
 *   - a chunked tree: chunk_slots (default 4) times the largest chunk (its inflated bytes plus
 *     4 * (chunk_nodes + 1) bytes of offsets; a chunk inflates to at most 16 MiB), 8 * (chunks + 1)
 *     bytes of chunk offsets, and for a file one buffer of the largest chunk's compressed frame;
 *   - the feedback table: 6 bytes per feedback of the game (3^length for words) and one zstd
 *     decompression context (about 100 KiB, ZSTD_estimateDCtxSize());
 *   - opening a whole tree from a file also holds its compressed bytes until it is inflated.
 * gt_info.memory says what an open tree holds; gt_info.peak_memory the most it has held (opening it,
 * reading chunks, and gt_suggest's working memory).
 * Peak memory is thus bounded by the largest chunk touched (times the slots), never by the tree.
 *
 * Arguments. Every call but gt_close, gt_status_name and gt_version returns a gt_status, and a NULL
 * where a pointer is needed is refused with GT_E_ARGUMENT, never read: with a message in the
 * gt_error where the call takes one (gt_error itself may always be NULL). gt_close(NULL) does
 * nothing, as free(NULL).
 *
 * Threads: a tree is not safe to use from two threads at once (a chunked tree's lookups swap chunks
 * in its slots); open one tree per thread, or lock around calls.
 *
 * Plugin games (a game named module:factory) are refused when opened (GT_E_PLUGIN), as the
 * JavaScript player refuses them: their rules are Python code, and without them neither the
 * feedback table nor the code length of the tree can be checked, nor a secret scored.
 */
#ifndef GUESSTREE_H
#define GUESSTREE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GT_SHARED) && defined(__GNUC__)
#define GT_API __attribute__((visibility("default")))
#else
#define GT_API
#endif

/* The version of this header, the guesstree package's (guesstree/__init__.py); gt_version() says the
 * library's, which a program linked to a shared library may find newer than its header. */
#define GT_VERSION_MAJOR 0
#define GT_VERSION_MINOR 1
#define GT_VERSION_PATCH 0
#define GT_VERSION_STRING "0.1.0"
#define GT_VERSION GT_VERSION_STRING /* the name of releases before 0.1.0's macros */
#define GT_MESSAGE_SIZE 512 /* bytes of a gt_error's message, its NUL included */
#define GT_MAX_CODE 12       /* the most symbols of any code (Mastermind's 12 holes) */
#define GT_MAX_FEEDBACK 12   /* the most ints of any feedback (a word of 10 letters: 10) */
#define GT_MAX_LETTERS 255   /* the most letters of a words game's alphabet (its symbols) */
#define GT_MAX_WORD_BYTES (4 * GT_MAX_CODE) /* the most UTF-8 bytes of a word (its NUL aside) */

typedef enum gt_status {
    GT_OK = 0,
    GT_WON = 1, /* next_guess: the history ends with the winning feedback; no guess follows */
    /* the file is not a usable artifact (the message names the file and the reason) */
    GT_E_IO = 10,          /* no such file, permission denied, a directory, a read that failed */
    GT_E_EMPTY,            /* the file is empty */
    GT_E_TOO_LARGE,        /* larger than any artifact this player reads */
    GT_E_FRAME,            /* not exactly one zstd frame declaring its size and checksum */
    GT_E_ZSTD_DAMAGED,     /* the zstd data is damaged (a failing checksum, bytes after the frame) */
    GT_E_MSGPACK,          /* not valid msgpack, not a map, too much structure, bytes after the map */
    GT_E_NOT_GUESSTREE,    /* the format is not "guesstree" */
    GT_E_VERSION,          /* a bad version, or a major version this player does not read */
    GT_E_BODY,             /* no body (or index), or the body's sha256 does not match */
    GT_E_GAME,             /* no usable game spec, an unknown game, parameters the game does not take */
    GT_E_PLUGIN,           /* a plugin game (module:factory): only the Python player runs one */
    GT_E_HEADER,           /* the strategy, statistics, producer, notice or allowed_guesses are wrong */
    GT_E_TABLE,            /* the node count, code length, feedback width or feedback table is wrong */
    GT_E_NODES,            /* the body's arrays are wrong: lengths, symbols, edges, a cycle, a winning edge */
    GT_E_CHUNKS,           /* the chunked index is wrong: chunk size, columns, sizes, edges */
    GT_E_CHUNK,            /* a chunk is damaged (found when a lookup first needs it, or by gt_check) */
    GT_E_NO_MEMORY,        /* the allocator gave no memory */
    /* the question has no answer */
    GT_E_ARGUMENT = 40,    /* a NULL pointer, a code or feedback that is not one of the game's */
    GT_E_PARSE,            /* text that is not a code or feedback of the game */
    GT_E_OFF_TREE,         /* a history whose guess is not the tree's ("step 2: the tree plays ...") */
    GT_E_NO_SECRET,        /* feedback that no secret left gives ("step 2: no secret left gives ...") */
    GT_E_ALREADY_WON,      /* the winning feedback, and the history goes on */
    GT_E_NOT_PLAYABLE,     /* path: the tree has no answer for this code */
    GT_E_NOT_ALLOWED,      /* candidates: a guess the game does not allow */
    GT_E_SPACE             /* an output buffer too small */
} gt_status;

typedef struct gt_error {
    gt_status status;
    char message[GT_MESSAGE_SIZE]; /* e.g. "t.msgpack.zst: the zstd frame has no checksum" */
} gt_error;

/* Memory from the caller: alloc(user, size) returns memory aligned for any type, or NULL; free(user,
 * pointer) takes back what alloc gave (never NULL). */
typedef struct gt_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *pointer);
    void *user;
} gt_allocator;

/* A fixed buffer as an allocator, for a target without malloc: gt_arena_init(&arena, buffer, size),
 * then options.allocator = &arena.allocator. Allocations are taken in turn from the buffer (16-byte
 * aligned, 16 bytes more each); a free gives back the last block, after which the block before it is
 * the last (blocks freed last taken first are all given back), and the whole buffer once all are
 * freed. */
typedef struct gt_arena {
    gt_allocator allocator;
    unsigned char *buffer;
    size_t size, used, blocks, last;
} gt_arena;
GT_API gt_status gt_arena_init(gt_arena *arena, void *buffer, size_t size); /* NULL buffer: size 0 only */

typedef struct gt_options {
    const gt_allocator *allocator; /* NULL: malloc and free */
    unsigned chunk_slots;          /* chunks of a chunked tree kept decoded: 0 means 4 */
} gt_options;

typedef struct gt_tree gt_tree;

/* Open an artifact. name: what messages call the bytes (NULL: "<bytes>"); the bytes must stay as
 * they are until gt_close (a chunked tree reads its chunks from them as lookups need them). A file
 * is read as the Python player reads it: its document at once, its chunks as lookups need them
 * (the file stays open until gt_close). On failure *tree is NULL and error says why. */
GT_API gt_status gt_open_memory(gt_tree **tree, const void *bytes, size_t size, const char *name,
                         const gt_options *options, gt_error *error);
GT_API gt_status gt_open_file(gt_tree **tree, const char *path, const gt_options *options, gt_error *error);
GT_API void gt_close(gt_tree *tree);

/* Read every chunk of a chunked tree (a whole tree was checked whole when opened): GT_E_CHUNK for a
 * damaged one, as guesstree verify would refuse it. */
GT_API gt_status gt_check(gt_tree *tree, gt_error *error);

typedef enum gt_game_kind { GT_MASTERMIND, GT_DIGITS, GT_BULLS_COWS, GT_TWOD, GT_WORDS } gt_game_kind;

typedef struct gt_text { const char *text; size_t length; } gt_text; /* not NUL-terminated */

typedef struct gt_info {
    gt_game_kind kind;
    const char *game;          /* "mastermind", "digits", "bulls-cows", "twod", "words" */
    int colours, holes, secret_repeats, guess_repeats; /* mastermind (digits: 10 colours) */
    int digits, size, hard;    /* bulls-cows's digits, twod's size, words's hard mode (2: ultra-hard, format 1.5) */
    unsigned code_length;      /* symbols per code */
    unsigned symbols;          /* symbol values are 0 .. symbols - 1 */
    unsigned feedback_length;  /* ints per feedback: 2 for peg games, 3 for twod, the length for words (under a
                                  feedback rule: 1 for black, 2 for counts and common) */
    unsigned feedbacks;        /* entries of the tree's feedback table */
    uint64_t answers, extra_guesses; /* words: the secrets, and the other guesses it carries */
    gt_text strategy, producer, notice; /* notice.text is NULL without one */
    uint64_t allowed_guesses;  /* 0: the game carries every guess it was compiled with */
    int version_major, version_minor;
    uint64_t nodes;
    uint32_t chunks, chunk_nodes; /* 0 for a whole tree */
    uint64_t secrets, total, worst, determined_total, determined_worst;
    double average, determined_average;
    size_t memory, peak_memory;   /* bytes the tree holds, and the most it held */
    const char *feedback;      /* the game's feedback rule (format 1.4): "black" (mastermind), "counts" or
                                  "common" (words); NULL for the full score */
} gt_info;
GT_API gt_status gt_get_info(const gt_tree *tree, gt_info *info);

/* A weighted game's statistics (a words tree of weighted answers, format 1.3): the answers' total
 * weight, the weighted total (the sum over the secrets of weight times the guesses to win) and the
 * weighted mean (their quotient); info's total and average count every secret once. GT_E_ARGUMENT
 * for a tree without them (every secret weighs 1: info.total and info.average are the figures). */
GT_API gt_status gt_get_weighted_stats(const gt_tree *tree, double *total_weight, double *weighted_total,
                                       double *weighted_mean);

/* A words game's letters: letters, the alphabet in code order (symbol k is its k-th code point, in
 * code point order), and capitals, how each letter is shown (one code point a letter, in the same
 * order), both UTF-8 and not NUL-terminated: "abcdefghijklmnopqrstuvwxyz" and "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
 * for a tree of words a-z; for Ukrainian words "абвгдежзийклмнопрстуфхцчшщьюяєіїґ" (code point order:
 * є, і, ї and ґ after я) and "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЬЮЯЄІЇҐ". info.symbols is their count (at most
 * GT_MAX_LETTERS). GT_E_ARGUMENT for another game. */
GT_API gt_status gt_get_alphabet(const gt_tree *tree, gt_text *letters, gt_text *capitals);

/* A secret's weight in a game of weighted answers (a words game's answer_weights), as the tree
 * writes it: a positive decimal number ("3", "0.25"); "1" in every other game. GT_E_ARGUMENT for a
 * code that is no secret of the game. The help off the tree (gt_suggest) plays the heavier secret
 * where it has to choose between equals. */
GT_API gt_status gt_get_weight(const gt_tree *tree, const int *secret, gt_text *weight);

/* The i-th pair of a histogram (determined: 0, guesses to win; 1, guesses to determine), in
 * increasing order of guesses: GT_OK, or GT_E_ARGUMENT once i is past the pairs (nothing written):
 *     for (size_t i = 0; gt_histogram(tree, 0, i, &guesses, &secrets) == GT_OK; i++) ... */
GT_API gt_status gt_histogram(const gt_tree *tree, int determined, size_t i, uint64_t *guesses, uint64_t *secrets);

/* The guess after a history of steps (guess, feedback), each as the game's ints: guesses holds
 * steps * code_length ints, feedbacks steps * feedback_length. Writes code_length ints to guess and
 * returns GT_OK; GT_WON once the last feedback is the winning one, given to a guess that can be the
 * secret (one of the game's secrets that gives every earlier answer; else GT_E_NO_SECRET, "no secret
 * gives all these answers: ..."); else an error (GT_E_OFF_TREE, GT_E_NO_SECRET, GT_E_ALREADY_WON,
 * GT_E_CHUNK) with the Python player's message. */
GT_API gt_status gt_next_guess(gt_tree *tree, const int *guesses, const int *feedbacks, size_t steps,
                        int *guess, gt_error *error);

/* The same with the game's text: history holds 2 * steps strings, guess then feedback ("ABCD",
 * "1B2W"; "0123", "1A2B"; "crane", "GY---"; "2,3", "<="). Writes the guess as the game writes it. */
GT_API gt_status gt_next_guess_text(gt_tree *tree, const char *const *history, size_t steps,
                             char *guess, size_t size, gt_error *error);

/* The guesses and feedbacks the tree plays against secret, up to the win: *steps of them, in
 * guesses (max_steps * code_length ints) and feedbacks (max_steps * feedback_length ints).
 * GT_E_NOT_PLAYABLE if the tree has no answer for the code; GT_E_SPACE if max_steps is too few. */
GT_API gt_status gt_path(gt_tree *tree, const int *secret, int *guesses, int *feedbacks, size_t max_steps,
                  size_t *steps, gt_error *error);

/* Where gt_suggest's guess comes from. */
typedef enum gt_source {
    GT_BY_RULE = 0,     /* player/advice.py's rule on the secrets left */
    GT_BY_TREE = 1,     /* the tree: the history follows it */
    GT_BY_SYMMETRY = 2, /* a peg game's tree, after a first guess of its first guess's class, carried by
                           the renaming and reordering that takes one to the other */
    GT_BY_BOOK = 3      /* the opening book's tree for the history's first guess (gt_set_book) */
} gt_source;

/* The opening book gt_suggest follows (player/book.py; the shipped one is trees/book/): an array of
 * count trees opened by the caller; the array and its trees stay the caller's, and must stay as they
 * are while tree uses them (count 0: no book). The first tree of a game and a first guess is used.
 * After a first guess of a person's own, the book's tree of the same game whose first guess is that
 * guess (in a peg game, the first code of its class, the history carried there and back) is played
 * while the history follows it, as the Python player's Tree.book. */
GT_API gt_status gt_set_book(gt_tree *tree, gt_tree *const *book, size_t count);

/* A guess after any history: player/tree.py's Tree.suggest. The tree's while the history follows it
 * (GT_BY_TREE); then the opening book's tree, if one was set (GT_BY_BOOK); in a peg game, the tree
 * carried by a symmetry (GT_BY_SYMMETRY); else player/advice.py's rule (GT_BY_RULE): one or two
 * secrets left, the first; else the allowed guesses ranked by the parts they split the secrets left
 * into, and the bounded look-ahead that keeps the tree's worst case where it can. by may be NULL.
 * GT_WON once the last feedback is the winning one (as gt_next_guess); GT_E_NO_SECRET when no secret gives every
 * answer ("no secret gives all these answers: ..."); GT_E_ALREADY_WON; GT_E_NOT_ALLOWED for a
 * guess the game does not allow, unless any_guess (the message names the guess; the caller says how
 * its own interface plays it anyway, as gtree's --any-guess); GT_E_NO_MEMORY. Off the tree it scores every
 * secret and allocates its working memory through the tree's allocator (a few times the secrets'
 * and the guesses' codes), given back before it returns: gtree's whole run takes 10 to 20 ms in
 * Mastermind 6x4 and Wordle, 90 ms in Mastermind 8x5 (32 768 secrets) on a 2-core machine. */
GT_API gt_status gt_suggest(gt_tree *tree, const int *guesses, const int *feedbacks, size_t steps, int any_guess,
                            int *guess, gt_source *by, gt_error *error);
GT_API gt_status gt_suggest_text(gt_tree *tree, const char *const *history, size_t steps, int any_guess,
                                 char *guess, size_t size, gt_source *by, gt_error *error);

/* The secrets still possible after a history (as gt_next_guess's, on the tree or off it), in the
 * game's canonical order: *count of them, the first max of which go to codes (max * code_length
 * ints). Each guess must be one the game allows unless any_guess (GT_E_NOT_ALLOWED). Every secret
 * of the game is scored: the time grows with the game's secrets (6^8 of them: about 0.2 s). */
GT_API gt_status gt_candidates(const gt_tree *tree, const int *guesses, const int *feedbacks, size_t steps,
                        int any_guess, int *codes, size_t max, uint64_t *count, gt_error *error);

/* Text forms: parse into code_length (feedback_length) ints; format as the game writes them into
 * text (size bytes, its NUL included): GT_E_SPACE if it does not fit (the text cut to fit).
 * A words game's word is UTF-8: shown as its letters' capitals ("CRANE", "NIÑO": up to
 * GT_MAX_WORD_BYTES bytes and the NUL), and read as its code points, each a letter of the game or
 * its capital (so "niño", "NIÑO" and "Niño" are one word). The text is taken as given: the C player
 * has no Unicode tables to normalise it, so a letter and its accent typed as two code points
 * ("n" and U+0303) is not the one letter "ñ" (every common keyboard types NFC, the one code point;
 * the Python and JavaScript players normalise to NFC first). Text that is not UTF-8 is refused. */
GT_API gt_status gt_parse_code(const gt_tree *tree, const char *text, int *code, gt_error *error);
GT_API gt_status gt_parse_feedback(const gt_tree *tree, const char *text, int *feedback, gt_error *error);
GT_API gt_status gt_format_code(const gt_tree *tree, const int *code, char *text, size_t size, gt_error *error);
GT_API gt_status gt_format_feedback(const gt_tree *tree, const int *feedback, char *text, size_t size, gt_error *error);

/* A short name of a status, e.g. "GT_E_FRAME" ("GT_UNKNOWN" for a value that is none). */
GT_API const char *gt_status_name(gt_status status);

/* The library's version, "MAJOR.MINOR.PATCH" (GT_VERSION_STRING where it was built). */
GT_API const char *gt_version(void);

#ifdef __cplusplus
}
#endif
#endif
