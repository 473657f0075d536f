/*
 * dispatch.h - the one table of operations the content worker serves.
 *
 * The worker (worker.c) and the tests' standalone worker (tests/helpers/
 * worker.c) both serve exactly this table.  Adding a parser is one line in
 * dispatch.c: a loader with the common signature prc_load_fn (the same as
 * prc_json_parse and prc_yaml_load) needs no glue; another operation
 * supplies a prc_op_fn that reads its request.  docs/content-protocol.md
 * shows both.
 *
 * Trust: handlers run inside the floored worker on hostile bytes.  They
 * return a whole document or NULL with err set, never print, never open.
 */
#ifndef PRC_DISPATCH_H
#define PRC_DISPATCH_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/limits.h"
#include "content/frame.h"

/* Formats of PRC_OP_PARSE.  Values are wire codes: never reuse one. */
typedef enum prc_format {
        PRC_FMT_NONE  = 0,
        PRC_FMT_JSON  = 1,
        PRC_FMT_YAML  = 2,
        PRC_FMT_TOML  = 3,      /* reserved for the parsers issue */
        PRC_FMT_INI   = 4,      /* reserved */
        PRC_FMT_XML   = 5,      /* reserved */
        PRC_FMT_JSONC = 6,      /* reserved */
} prc_format;

/* Sub-codes of PRC_OP_TOKENIZE (wire codes). */
enum { PRC_TOK_PKGBUILD = 1, PRC_TOK_SRCINFO = 2 };

/* "json", "yaml", ...; NULL for an unknown code. */
const char *prc_format_name(uint16_t fmt);
/* Code for a name, or PRC_FMT_NONE. */
uint16_t prc_format_by_name(const char *name);

/* A loader of one format: returns a new reference (transfers) or NULL with err set. */
typedef json_t *(*prc_load_fn)(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err);
/* Any other operation: reads its request (borrowed), returns a new reference or NULL with err set. */
typedef json_t *(*prc_op_fn)(const prc_req *req, prc_err *err);

typedef struct prc_dispatch_entry {
        uint16_t    op;         /* PRC_OP_* */
        uint16_t    format;     /* PRC_FMT_* for PRC_OP_PARSE, else the op's sub-code (0) */
        const char *name;       /* for docs and probes: "parse-json" */
        prc_load_fn load;       /* set for loaders ... */
        unsigned    load_flags; /* ... with these flags (OR'ed with the request's) */
        prc_op_fn   call;       /* ... or set for other operations */
        size_t      input_max;  /* request input bytes accepted, checked before the handler */
} prc_dispatch_entry;

extern const prc_dispatch_entry prc_dispatch_table[];
extern const size_t prc_dispatch_count;

/* Operations that need libarchive: only archive workers serve them (base/libarchive.h). */
static inline bool prc_dispatch_needs_archive(uint16_t op)
{
        return op == PRC_OP_WALK;
}

/* The entry for (op, format), or NULL. */
const prc_dispatch_entry *prc_dispatch_find(uint16_t op, uint16_t format);

/*
 * Run one request: find its entry (unknown-operation), check the input cap
 * (input-too-large), call the handler.  Returns the document (transfers) or
 * NULL with err set by the handler.
 */
json_t *prc_dispatch_run(const prc_req *req, prc_err *err);

#if defined(PRC_TESTING) && PRC_TESTING
/* Test-only escape and misbehaviour operations: PRC_OP_TEST with one of these as the format. */
enum prc_test_op {
        PRC_T_OPEN_FILE = 1,    /* open("/etc/passwd") */
        PRC_T_SOCKET,           /* socket(AF_INET) + connect to 127.0.0.1:80 (tests only target loopback) */
        PRC_T_EXECVE,           /* execve("/bin/true") */
        PRC_T_FORK,             /* fork() */
        PRC_T_WRITE_FILE,       /* open("/tmp/...", O_CREAT|O_WRONLY) and write */
        PRC_T_KILL_PARENT,      /* kill(args = pid, SIGTERM) */
        PRC_T_ABSTRACT_UNIX,    /* connect to the abstract unix socket named by args */
        PRC_T_SPIN,             /* loop forever */
        PRC_T_ALLOC,            /* allocate and touch memory until malloc fails */
        PRC_T_GARBAGE,          /* write a garbage frame header */
        PRC_T_OVERCAP,          /* write a header declaring a 4 GiB reply */
        PRC_T_EXIT_MID_REPLY,   /* write half a frame and exit */
        PRC_T_BIG_DOC,          /* return a string of args bytes (the worker's own reply cap) */
        PRC_T_EXEC_MMAP,        /* mmap(PROT_EXEC) */
        PRC_T_RAISE_RLIMIT,     /* setrlimit(RLIMIT_NOFILE) after the seal */
        PRC_T_WRITE_STDERR,     /* write to fd 2 (must be /dev/null, not the client's stderr) */
        PRC_T_ABORT,            /* abort(), as glibc does on heap corruption */
        PRC_T_TGKILL_PARENT,    /* tgkill(args = pid, pid, SIGTERM): the self-only rule */
        PRC_T_BAD_DOC,          /* a well-framed reply whose document is not JSON */
        PRC_T_PIECES_OVER_CAP,  /* a first piece, then a piece header of args bytes (the client's reply cap) */
        PRC_T_BYTES_AFTER_DOC,  /* a whole document in a DOC_PART, then a DOC with one more byte */
        PRC_T_EMPTY_DOC_AFTER,  /* the document null in a DOC_PART, then an empty DOC (valid), then exit */
        PRC_T_RESTART,          /* RESTART misuse (args: first, twice, payload, after, retire) or a good one (ok) */
        PRC_T_LEAK,             /* malloc and touch args bytes, never free them; answer null */
        PRC_T_RETIRE,           /* a RETIRE frame (args "payload": with one byte), then exit */
        PRC_T_LIBARCHIVE,       /* true when libarchive is mapped into the worker (dl_iterate_phdr), else false */
        PRC_T_FRAGMENT,         /* 30,000 blocks of 256 bytes, every other one freed: 15,000 free pieces, 4 MB kept */
        PRC_T_LIBCRYPTO,        /* true when libcrypto is mapped into the worker, else false */
        PRC_T_SHA256,           /* the SHA-256 of args as hex: every worker hashes, none maps libcrypto */
};
#endif

#endif
