/*
 * worker.c - the content worker: floor, then the serve loop (worker.h).
 * Trust: hostile bytes arrive after the floor is on; before it, the worker
 * reads only its own argv (written by the trusted client).
 */
#include "content/worker.h"

#include "content/parsers/archive.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "base/crypto.h"
#include "base/json_strict.h"
#include "base/kept.h"
#include "base/libarchive.h"
#include "base/limits.h"
#include "base/yaml.h"
#include "content/dispatch.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_details.h"
#include "content/extract/mdoc_pack.h"
#include "content/docenc.h"
#include "content/floor.h"
#include "content/frame.h"
#include "content/json_stream.h"
#include "content/parsers/toml.h"
#include "content/yaml_stream.h"

#if defined(__SANITIZE_ADDRESS__)
#define PRC_WORKER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PRC_WORKER_ASAN 1
#endif
#endif
#ifdef PRC_WORKER_ASAN
size_t __sanitizer_get_current_allocated_bytes(void);  /* the sanitizer runtime's (gcc ships no header for it) */
#endif

enum { EXTRA_MAX = 16 };

typedef struct wcfg {
        prc_floor_cfg floor;
        uint32_t      req_max, reply_max;
        bool          archive;  /* load libarchive before the floor: this worker walks archives */
        const char   *extra[EXTRA_MAX];
} wcfg;

static bool num_arg(const char *v, unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
        char *end;
        unsigned long long n;

        if (*v < '0' || *v > '9')
                return false;
        errno = 0;
        n = strtoull(v, &end, 10);
        if (errno != 0 || *end != 0 || n < lo || n > hi)
                return false;
        *out = n;
        return true;
}

static bool parse_args(int argc, char **argv, wcfg *c)
{
        memset(c, 0, sizeof(*c));
        prc_floor_cfg_default(&c->floor);
        c->req_max = PRC_REQ_MAX;
        c->reply_max = PRC_REPLY_MAX;
        for (int i = 2; i < argc; i++) {
                const char *a = argv[i];
                unsigned long long n;

                if (strncmp(a, "as=", 3) == 0 && num_arg(a + 3, 16u << 20, 1ULL << 40, &n))
                        c->floor.as_bytes = n;
                else if (strncmp(a, "cpu=", 4) == 0 && num_arg(a + 4, 1, 86400, &n))
                        c->floor.cpu_seconds = (unsigned)n;
                else if (strncmp(a, "req=", 4) == 0 && num_arg(a + 4, 64, UINT32_MAX, &n))
                        c->req_max = (uint32_t)n;
                else if (strncmp(a, "reply=", 6) == 0 && num_arg(a + 6, 64, UINT32_MAX, &n))
                        c->reply_max = (uint32_t)n;
                else if (strcmp(a, "archive=1") == 0 || strcmp(a, "archive=0") == 0)
                        c->archive = a[8] == '1';
                else if (strncmp(a, "floor=", 6) == 0 && prc_floor_level_parse(a + 6, &c->floor.level))
                        ;       /* issue 23: the level the user chose, recorded in READY */
#if defined(PRC_TESTING) && PRC_TESTING
                else if (strcmp(a, "test_landlock_abi=none") == 0)
                        c->floor.test_landlock_abi = -1;
                else if (strncmp(a, "test_landlock_abi=", 18) == 0 && num_arg(a + 18, 1, 1000, &n))
                        c->floor.test_landlock_abi = (int)n;
                else if (strcmp(a, "test_userns=denied") == 0)
                        c->floor.test_userns_denied = true;
                else if (strncmp(a, "landlock_abi=", 13) == 0 && num_arg(a + 13, 1, 1000, &n))
                        c->floor.landlock_abi_min = (int)n;
                else if (strncmp(a, "nofile=", 7) == 0 && num_arg(a + 7, 5, 64, &n))
                        c->floor.nofile = (unsigned)n;
                else if (strncmp(a, "allow=", 6) == 0 && c->floor.nextra < EXTRA_MAX)
                        c->extra[c->floor.nextra++] = a + 6;
#endif
                else
                        return false;
        }
        c->floor.extra_syscalls = c->extra;
        c->floor.fd_in = PRC_WORKER_FD_IN;
        c->floor.fd_out = PRC_WORKER_FD_OUT;
        return true;
}

/* fds 0-2 become /dev/null (a write to an inherited log file would meet RLIMIT_FSIZE 0); all others but 3, 4 close. */
static bool setup_fds(void)
{
        int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

        if (fd < 0)
                return false;
        for (int i = 0; i <= 2; i++)
                if (dup2(fd, i) < 0)
                        return false;
        if (fd > 2)
                close(fd);
        /* Pipes may arrive without CLOEXEC cleared elsewhere; nothing above fd 4 survives. */
        return close_range(PRC_WORKER_FD_OUT + 1, ~0U, 0) == 0 && fcntl(PRC_WORKER_FD_IN, F_GETFD) >= 0 &&
               fcntl(PRC_WORKER_FD_OUT, F_GETFD) >= 0;
}

/*
 * Lazy initializations that would need a forbidden syscall later: jansson
 * seeds its hash from /dev/urandom on first use, and each loader gets one
 * tiny document so any one-time setup happens before the floor.
 */
static bool warm_up(const wcfg *c, prc_err *err)
{
        static const uint8_t doc[] = "{\"a\":[1,2.5,\"x\"]}";
        prc_err e;
        json_t *v;

        json_object_seed(0);
        /*
         * An archive worker loads libarchive (base/libarchive.h) now, and
         * whatever it and glibc read from disk on first use (charset cache)
         * is read now, while open() still works.  Other workers never map
         * it: about 5 ms less to start.  No worker maps libcrypto: the
         * members' SHA-256 is prc's own (base/digest.h).
         */
        if (c->archive && !prc_archive_prepare(err))
                return false;
        for (size_t i = 0; i < prc_dispatch_count; i++) {
                const prc_dispatch_entry *d = &prc_dispatch_table[i];
                if (d->load == NULL)
                        continue;
                prc_err_init(&e);
                v = d->load(doc, sizeof(doc) - 1, &prc_limits_default, d->load_flags, &e);
                json_decref(v);
        }
        /* Each extractor once too (on an empty file: most refuse it, which is all the warm-up needs). */
        for (size_t i = 0; i < prc_extractor_count; i++) {
                prc_xin in = { "", doc, 0, &prc_limits_default };
                prc_err_init(&e);
                v = prc_extractors[i].fn(&in, &e);
                json_decref(v);
        }
        return true;
}

/*
 * jansson's memory in the worker: a bump arena, dropped whole after each
 * reply.  Every tree a request builds dies with the request, so a free is
 * a no-op and building the 100,000 nodes of a 1 MiB document costs no
 * allocator bookkeeping (about a fifth of jansson's parse; dropping the
 * tree falls from about 10 ms to a walk).  Freed memory is only reused
 * after the request, so a request needs at most a few times what its tree
 * holds (12 MB for 1 MiB of JSON); RLIMIT_AS still bounds it, and an arena
 * that cannot grow is an allocation failure that the jansson guard reports
 * as out-of-memory.  Only jansson uses it; the parsers' own memory and
 * libraries' (libfyaml, expat, libarchive) stay on malloc.
 *
 * A standard block is one huge page of its own mapping (prc_huge_map): a
 * tree fills it front to back, so one fault backs 2 MiB where 4 KiB pages
 * took 512 (a quarter of `prc sbom`'s CPU went to page faults on a
 * paravirtualized VM, docs/extraction/peers.md).  Under ASan it comes
 * from malloc, where LeakSanitizer and ASan see it.
 */
enum {
        ARENA_MAP   = PRC_HUGE_PAGE,    /* a standard block's mapping */
        ARENA_KEEP  = 16,               /* standard blocks kept between requests: no page faults next time */
        ARENA_ALIGN = 16,               /* malloc's alignment on x86-64, which jansson assumes */
};

typedef struct ablock {
        struct ablock *next;
        size_t         used, cap;
        uint64_t       seq;             /* when it was taken into use (arena_seq then) */
        max_align_t    data[];
} ablock;

#define ARENA_BLOCK (ARENA_MAP - sizeof(ablock))        /* a standard block's room */

static ablock *ablock_new_standard(void)
{
#ifdef PRC_WORKER_ASAN
        return prc_malloc(ARENA_MAP);
#else
        return prc_huge_map(ARENA_MAP);
#endif
}

static void ablock_free(ablock *b)
{
#ifdef PRC_WORKER_ASAN
        free(b);
#else
        if (b->cap == ARENA_BLOCK)
                prc_huge_unmap(b, ARENA_MAP);
        else
                free(b);
#endif
}

/*
 * PRC_REQ_PACKED_DEPS tables are made here, its buffers kept from one
 * request to the next (their pages stay touched: on a paravirtualized VM
 * a first touch is most of the cost) unless one grew past PACKER_KEEP; so
 * are the native rows' (extract.h prc_md_rows_arm), and both count as the
 * worker's own in the retirement check (heap_kept).
 */
enum { PACKER_KEEP = 4u << 20 };
static prc_mdp_packer packer;

static ablock  *arena_cur;      /* owned: blocks of this request, the current one first */
static ablock  *arena_spare;    /* owned: standard blocks kept for the next requests */
static size_t   arena_nspare;
static uint64_t arena_seq;      /* blocks taken into use so far */

static void *arena_alloc(size_t n)
{
        ablock *b = arena_cur;
        size_t cap;

        if (n > SIZE_MAX - sizeof(ablock) - ARENA_ALIGN)
                return NULL;
        n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
        if (b != NULL && b->cap - b->used >= n) {
                void *p = (char *)b->data + b->used;
                b->used += n;
                return p;
        }
        if (n <= ARENA_BLOCK / 4 && arena_spare != NULL) {
                b = arena_spare;
                arena_spare = b->next;
                arena_nspare--;
        } else {
                /* A large value gets a block of its own, so the current block keeps serving small ones. */
                cap = n > ARENA_BLOCK / 4 ? n : ARENA_BLOCK;
                b = cap == ARENA_BLOCK ? ablock_new_standard() : prc_malloc(sizeof(*b) + cap);
                if (b == NULL)
                        return NULL;
                b->cap = cap;
        }
        b->used = n;
        b->seq = ++arena_seq;
        if (arena_cur != NULL && b->cap != ARENA_BLOCK) {
                b->next = arena_cur->next;
                arena_cur->next = b;
        } else {
                b->next = arena_cur;
                arena_cur = b;
        }
        return b->data;
}

static void arena_free(void *p)
{
        (void)p;        /* reclaimed by arena_reset */
}

/* A block no value lives in any more: kept for later requests, or freed. */
static void arena_drop(ablock *b)
{
        if (b->cap == ARENA_BLOCK && arena_nspare < ARENA_KEEP) {
                b->next = arena_spare;
                arena_spare = b;
                arena_nspare++;
        } else {
                ablock_free(b);
        }
}

/* After the reply: no jansson value of the request is alive any more. */
static void arena_reset(void)
{
        while (arena_cur != NULL) {
                ablock *b = arena_cur;
                arena_cur = b->next;
                arena_drop(b);
        }
}

/*
 * prc_json_parse's mark and rewind (json_strict.h): blocks taken after the
 * mark go (a large value's block sits right behind the current one, a new
 * standard block in front: either way its seq is newer), and the block
 * current at the mark is current again with what it held then.
 */
static void arena_mark(prc_json_mark *m)
{
        m->block = arena_cur;
        m->used = arena_cur != NULL ? arena_cur->used : 0;
        m->seq = arena_seq;
}

static void arena_rewind(const prc_json_mark *m)
{
        ablock **pp = &arena_cur;

        while (*pp != NULL) {
                ablock *b = *pp;

                if (b->seq <= m->seq) {
                        pp = &b->next;
                        continue;
                }
                *pp = b->next;
                arena_drop(b);
        }
        if (arena_cur != NULL && arena_cur == m->block)
                arena_cur->used = m->used;
}

/*
 * Memory a request left behind.  A library may leak on hostile input
 * (libfyaml 0.7.12 keeps the chunk array of every single-quoted scalar
 * with '' escapes: 32 MiB for 1 MiB of them), and a worker serves up to
 * max_requests: kept memory would pile up until RLIMIT_AS refused some
 * later, innocent file.  So after each reply the worker counts the heap in
 * use beyond what it keeps on purpose (spare arena blocks, the two frame
 * buffers) and, past KEPT_MAX over its count at the first request, answers
 * its next request with PRC_RE_RETIRE and exits: the client sends that
 * request to a fresh worker.  The count is the allocator's own (glibc's
 * mallinfo2, or ASan's), no system call.  mallinfo2 walks the free lists
 * (about 2 us after a 1 MiB YAML, whose frees coalesce; 7 ms for 50,000
 * scattered free pieces), so a heap left in more than FREE_PIECES_MAX
 * pieces retires the worker too: no input can make the count itself slow.
 */
enum { KEPT_MAX = 8u << 20, FREE_PIECES_MAX = 10000 };

/* Bytes in use, and the number of free pieces (0 where the allocator does not say). */
static size_t heap_in_use(size_t *pieces)
{
#ifdef PRC_WORKER_ASAN
        *pieces = 0;
        return __sanitizer_get_current_allocated_bytes();
#else
        struct mallinfo2 mi = mallinfo2();
        *pieces = mi.ordblks + mi.smblks;
        return mi.uordblks + mi.hblkhd;
#endif
}

static size_t heap_kept(const prc_buf *req, const prc_buf *reply, size_t *pieces)
{
        size_t used = heap_in_use(pieces);
        size_t packed = packer.recs.cap + packer.edges.cap + packer.pool.cap + prc_md_rows_kept();
#ifdef PRC_WORKER_ASAN
        size_t ours = arena_nspare * ARENA_MAP + req->cap + reply->cap + packed;
#else
        size_t ours = req->cap + reply->cap + packed;   /* spare blocks are mappings of their own, outside the count */
#endif

        return used > ours ? used - ours : 0;
}

static void send_retire(void)
{
        prc_err e;

        prc_err_init(&e);
        if (!prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_RETIRE, NULL, 0, PRC_NO_DEADLINE, &e))
                return;         /* the client is gone or will see our exit: we stop either way */
}

static bool send_refusal(const prc_err *e)
{
        prc_buf b;
        prc_err e2;
        bool ok;

        prc_err_init(&e2);
        prc_buf_init(&b, 4096);
        ok = prc_refusal_encode(e, &b, &e2) &&
             prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_REFUSE, b.data, b.len, PRC_NO_DEADLINE, &e2);
        prc_buf_clear(&b);
        return ok;
}

/* READY: the protocol, and the floor as applied (level, Landlock ABI, each layer) for the run's records. */
static bool send_ready(const prc_floor_report *rep)
{
        json_t *r = json_pack("{s:o,s:i,s:i,s:i}", "floor", prc_floor_record(rep), "landlock_abi", rep->landlock_abi,
                              "protocol", PRC_FRAME_VERSION, "syscalls", (int)rep->nsyscalls);
        char *text = r != NULL ? json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
        prc_err e;
        bool ok;

        json_decref(r);
        if (text == NULL)
                return false;   /* no READY: the client reports a worker that never came up */
        prc_err_init(&e);
        ok = prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_READY, text, strlen(text), PRC_NO_DEADLINE, &e);
        free(text);
        return ok;
}

struct out {
        uint32_t reply_max;
        uint64_t sent;          /* document bytes written (or counted) so far */
        bool     broken;        /* a write failed: the pipe is gone or the frame is cut */
        bool     count_only;    /* PRC_REQ_VERDICT: pieces are counted against the cap, not written */
        bool     packed;        /* PRC_REQ_PACKED_DEPS: an extraction's dependencies go as a table (a blob) */
        bool     slim;          /* PRC_REQ_SLIM_DETAILS: an extraction's details go slim, counted whole in sent */
        /*
         * parse_first: a YAML document's tree (in the arena) and, with
         * keep_pos, its positions (owned) are left here with the loader's
         * flags, for the extraction that follows (yaml.h prc_yaml_keep).
         */
        bool          keep, keep_pos;
        /*
         * parse_first for an extractor that reads the verdict's own JSON
         * (extract.h json_tree): the verdict is made from a tree, counted as
         * the stream would count it (the same bytes: json_stream.h) unless
         * its size alone proves the fit (fits_unsent), and the tree kept,
         * not streamed without one.
         */
        bool          keep_json;
        json_t       *tree;
        prc_yaml_pos *pos;
        unsigned      flags;
        /* An XML, TOML or JSON verdict's tree is left in tree too, for base/kept.h (0: YAML's, or none). */
        prc_kept_kind kept_kind;
};

/* Each piece is one frame as soon as it is encoded, so the client decodes while we encode. */
static bool put_out(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        struct out *o = ctx;

        if (o->sent > o->reply_max || n > o->reply_max - o->sent)
                return prc_err_set(err, PRC_E_REPLY_TOO_LARGE, "the document does not fit the reply cap of %u bytes",
                                   o->reply_max);
        if (o->count_only) {
                o->sent += n;
                return true;
        }
        if (!prc_frame_write(PRC_WORKER_FD_OUT, last ? PRC_RE_DOC : PRC_RE_DOC_PART, p, n, PRC_NO_DEADLINE, err)) {
                o->broken = true;
                return false;
        }
        o->sent += n;
        return true;
}

/* PRC_REQ_VERDICT: the document was made and fits; `true` goes in its place. */
static bool send_verdict(prc_err *err)
{
        prc_buf b;
        bool ok;

        prc_buf_init(&b, 64);   /* the encoding of true is a few bytes */
        ok = prc_docbin_write(json_true(), &b, err) &&
             prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_DOC, b.data, b.len, PRC_NO_DEADLINE, err);
        prc_buf_clear(&b);
        return ok;
}

/*
 * A JSON parse request, read and sent at once by the streaming reader
 * (json_stream.h): the client decodes the first pieces while the rest is
 * parsed.  Returns false when the request is not one it serves (the caller
 * runs the table's loader as usual).  Otherwise the reply is settled: sent
 * (err unset, *doc NULL), to be refused (err set), or *doc is a document the
 * caller still has to send.  When the reader declines, prc_json_parse
 * decides: its refusal is the answer (pieces already sent are dropped by
 * the client), and a document it accepts is sent whole if nothing was sent
 * yet.  Past the first piece the reader declines only what prc_json_parse
 * refuses (fuzz/fuzz_json_stream.c); should they ever disagree, the
 * request is refused as internal, never answered with a wrong document.
 */
static bool parse_json_streamed(const prc_req *r, prc_buf *reply, struct out *o, json_t **doc, prc_err *err)
{
        const prc_dispatch_entry *e = prc_dispatch_find(r->op, r->format);
        uint64_t sent = 0;
        prc_js_rc rc;
        prc_err perr;

        *doc = NULL;
        if (e == NULL || e->load != prc_json_parse || r->input_len > e->input_max)
                return false;
        rc = prc_json_stream(r->input, r->input_len, &r->lim, e->load_flags | r->flags, reply, put_out, o, &sent,
                             err);
        if (rc == PRC_JS_DONE || o->broken)
                return true;    /* err is unset on success; a broken pipe ends the conversation */
        /* The strict reader's word: its refusal wins over ours, which may have come first on bad input. */
        prc_err_init(&perr);
        *doc = prc_dispatch_run(r, &perr);
        if (*doc == NULL) {
                *err = perr;
                return true;
        }
        if (sent == 0 && (rc == PRC_JS_DECLINED || err->cls == PRC_E_OUT_OF_MEMORY)) {
                /* Nothing went out: send the tree the usual way (the reader's own scratch memory may have failed). */
                prc_err_init(err);
                return true;
        }
        json_decref(*doc);
        *doc = NULL;
        if (rc == PRC_JS_DECLINED)
                prc_err_set(err, PRC_E_INTERNAL, "streaming JSON reader declined a document the strict reader accepts");
        else if (err->cls == PRC_E_BUFFER_LIMIT) {
                /* One value larger than the cap, as prc_docbin_stream would meet it: the same name. */
                prc_err_init(err);
                prc_err_set(err, PRC_E_REPLY_TOO_LARGE, "the document does not fit the reply cap of %u bytes",
                            o->reply_max);
        }
        /* else: the same bytes fail the same way in prc_docbin_stream (the reply cap, memory) */
        return true;
}

/*
 * A YAML parse request, streamed as prc_yaml_load composes it
 * (yaml_stream.h).  Returns false when the request is not one it serves.
 * Otherwise: sent (err unset, *doc NULL), refused (err: prc_yaml_load's
 * refusal, after whatever pieces went out, which the client drops), or
 * *doc is prc_yaml_load's tree for the caller to send the counted way,
 * after a RESTART if pieces went out (a `<<` merge, or a piece that could
 * not go out: the reply cap applies to the counted encoding, as before).
 */
static bool parse_yaml_streamed(const prc_req *r, prc_buf *reply, struct out *o, json_t **doc, prc_err *err)
{
        const prc_dispatch_entry *e = prc_dispatch_find(r->op, r->format);
        uint64_t sent = 0;
        prc_ys_rc rc;

        *doc = NULL;
        if (e == NULL || e->load != prc_yaml_load || r->input_len > e->input_max)
                return false;
        rc = prc_yaml_stream_pos(r->input, r->input_len, &r->lim, e->load_flags | r->flags, reply, put_out, o, &sent,
                                 doc, o->keep_pos ? &o->pos : NULL, NULL, err);
        if (o->keep && rc != PRC_YS_REFUSED) {
                o->tree = *doc;
                o->flags = e->load_flags | r->flags;
        }
        if (o->broken || rc == PRC_YS_STREAMED) {
                *doc = NULL;    /* in the arena: dropped with it after the reply */
                return true;
        }
        if (rc == PRC_YS_REFUSED || sent == 0)
                return true;
        prc_err_init(err);      /* a writer failure is not the answer: the counted encoding decides */
        if (!o->count_only && !prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_RESTART, NULL, 0, PRC_NO_DEADLINE, err)) {
                o->broken = true;
                *doc = NULL;
                return true;
        }
        o->sent = 0;
        return true;
}

/*
 * parse_first's XML, TOML or (keep_json) JSON verdict, accepted: its tree
 * and the flags the extractor's own parse of the same bytes passes
 * (base/kept.h).  The TOML
 * verdict types integers beyond +-(2^53-1) and extractors do not, so a
 * tree that holds one is not kept (the extractor parses again).
 */
static void keep_tree(const prc_req *r, struct out *o, json_t *doc)
{
        const prc_dispatch_entry *e = prc_dispatch_find(r->op, r->format);

        if (r->op != PRC_OP_PARSE || e == NULL || e->load == NULL)
                return;
        if (r->format == PRC_FMT_XML) {
                o->kept_kind = PRC_KEPT_XML;
                o->flags = e->load_flags | r->flags;
        } else if (r->format == PRC_FMT_TOML && !prc_toml_has_typed_int(doc)) {
                o->kept_kind = PRC_KEPT_TOML;
                o->flags = (e->load_flags | r->flags) & ~(unsigned)PRC_TOML_UNSAFE_INT_TYPED;
        } else if (r->format == PRC_FMT_JSON && o->keep_json) {
                o->kept_kind = PRC_KEPT_JSON;
                o->flags = e->load_flags | r->flags;
        } else {
                return;
        }
        o->tree = doc;
}

/*
 * PRC_REQ_SLIM_DETAILS: *out is a new object of the members of doc's
 * details that prc_mdoc_slim_keys names (borrowed values), or NULL where
 * doc's details are not an object (sent whole: the client's check refuses
 * it).  False on out of memory.
 */
static bool slim_details(const json_t *doc, json_t **out, prc_err *err)
{
        const json_t *d = json_object_get(doc, "details");
        json_t *v;

        *out = NULL;
        if (!json_is_object(d))
                return true;
        *out = json_object();
        if (*out == NULL)
                return prc_err_oom(err, "slim details");
        for (const char *const *k = prc_mdoc_slim_keys; *k != NULL; k++)
                if ((v = json_object_get(d, *k)) != NULL && json_object_set(*out, *k, v) != 0)
                        return prc_err_oom(err, "slim details");
        return true;
}

/*
 * A verdict-only JSON parse made from a tree (keep_json) whose encoding
 * cannot exceed the reply cap by its input's size alone
 * (PRC_JS_ENCODED_PER_BYTE): the count, which would only find that it
 * fits, is not walked.
 */
static bool fits_unsent(const prc_req *r, const struct out *o)
{
        return o->count_only && o->keep_json && r->op == PRC_OP_PARSE && r->format == PRC_FMT_JSON &&
               r->input_len <= o->reply_max / PRC_JS_ENCODED_PER_BYTE;
}

/*
 * prc_dispatch_run; for an extraction sent packed (PRC_REQ_PACKED_DEPS)
 * the dependencies come as native rows (extract.h prc_md_rows_arm) and are
 * packed straight into the table (*table, packer's).  Where they would not
 * pack, or the extraction refused after taking some, it runs again with
 * trees, so the reply (the tree the client then names, or the refusal) is
 * exactly the one it would have been.
 */
static json_t *dispatch(const prc_req *r, const struct out *o, uint8_t **table, size_t *table_n, prc_err *err)
{
        bool rows = r->op == PRC_OP_EXTRACT && o->packed;
        json_t *doc;
        int rc;

        prc_md_rows_arm(rows);
        doc = prc_dispatch_run(r, err);
        prc_md_rows_arm(false);
        if (!rows || !prc_md_rows_taken() || (doc != NULL && !prc_md_rows_native(doc)))
                return doc;
        if (doc != NULL && !prc_err_is_set(err)) {
                rc = prc_md_rows_pack(doc, &packer, err);
#if defined(PRC_TESTING) && PRC_TESTING
                /* test_worker.c: rows that decline, so the extraction runs again with trees. */
                if (rc == 1 && r->path_len > 22 && memcmp(r->path, "prc-test-rows-decline/", 22) == 0)
                        rc = 0;
#endif
                if (rc == 1) {
                        *table = packer.pool.data;
                        *table_n = packer.pool.len;
                }
                if (rc != 0)
                        return doc;     /* packed, or out of memory (err set) */
        }
        json_decref(doc);
        prc_err_init(err);
        return prc_dispatch_run(r, err);
}

/*
 * Run r and stream its document (or count it, with o->count_only); err
 * says why there is none.  The document lives in the request arena.
 */
static void run_request(const prc_req *r, prc_buf *reply, struct out *o, prc_err *err)
{
        json_t *doc = NULL, *slim = NULL;
        uint8_t *table = NULL;
        size_t table_n = 0;
        uint64_t sent;
        prc_docbin_top top = { 0 };

        if (prc_dispatch_needs_archive(r->op) && !prc_libarchive_loaded())
                /* dlopen now would need open(): seccomp would kill us.  The client starts archive workers. */
                prc_err_set(err, PRC_E_LIBRARY_UNAVAILABLE, "this worker was started without libarchive");
        else if ((o->keep_json || !parse_json_streamed(r, reply, o, &doc, err)) &&
                 !parse_yaml_streamed(r, reply, o, &doc, err))
                doc = dispatch(r, o, &table, &table_n, err);
#if defined(PRC_TESTING) && PRC_TESTING
        /* test_parse_extract.c: an extraction that took no tree parse_first kept parsed the file twice. */
        if (r->op == PRC_OP_EXTRACT && r->path_len > 14 && memcmp(r->path, "prc-test-kept/", 14) == 0 &&
            !prc_kept_taken() && !prc_err_is_set(err)) {
                json_decref(doc);
                doc = NULL;
                prc_err_set(err, PRC_E_INTERNAL, "the extraction took no tree of the verdict's");
        }
#endif
        if (doc != NULL && o->packed && table == NULL && !prc_err_is_set(err) &&
            prc_mdp_pack(&packer, json_object_get(doc, "dependencies"), err) == 1) {
                table = packer.pool.data;
                table_n = packer.pool.len;
        }
#if defined(PRC_TESTING) && PRC_TESTING
        /* A compromised worker, for the client's table check (test_worker.c): the first dependency's scope bent. */
        if (table != NULL && r->path_len > 20 && memcmp(r->path, "prc-test-bend/table/", 20) == 0) {
                prc_mdp_head h;
                memcpy(&h, table, sizeof(h));
                if (h.ndeps > 0)
                        table[h.recs_off + offsetof(prc_mdp_dep, scope)] = 0xee;
        }
#endif
        if (table != NULL) {
                top.blob_key = "dependencies";
                top.blob = table;
                top.blob_n = table_n;
        }
        /* The details' own bytes go into sent as the stream meets them: the reply cap is the whole document's. */
        if (doc != NULL && o->slim && !prc_err_is_set(err) && slim_details(doc, &slim, err) && slim != NULL) {
                top.swap_key = "details";
                top.swap = slim;
                top.credit = &o->sent;
#if defined(PRC_TESTING) && PRC_TESTING
                /* A compromised worker, for the client's slim check (test_worker.c): a member slim details lack. */
                if (r->path_len > 19 && memcmp(r->path, "prc-test-bend/slim/", 19) == 0)
                        (void)json_object_set_new(slim, "jobs", json_array());
#endif
        }
        /* With a table, the client checks every byte of it (mdoc_pack.h). */
        if (doc != NULL && !prc_err_is_set(err) && !fits_unsent(r, o) &&
            !prc_docbin_stream_top(doc, &top, reply, put_out, o, &sent, err) && err->cls == PRC_E_BUFFER_LIMIT) {
                /* One value larger than the cap (the piece buffer's ceiling is the reply cap). */
                prc_err_init(err);
                prc_err_set(err, PRC_E_REPLY_TOO_LARGE, "the document does not fit the reply cap of %u bytes",
                            o->reply_max);
        }
        if (doc != NULL && o->keep && !prc_err_is_set(err))
                keep_tree(r, o, doc);
}

/* The extractor that owns r's path, or NULL. */
static const prc_extractor *owner(const prc_req *r)
{
        char path[PRC_FRAME_PATH_MAX + 1];

        if (r->path_len > 0)
                memcpy(path, r->path, r->path_len);
        path[r->path_len] = 0;
        return prc_extractor_for_path(path);
}

/*
 * PRC_REQ_PARSE_FIRST (frame.h): the parse of r's input as r->format, made,
 * checked and counted exactly as a PRC_OP_PARSE with PRC_REQ_VERDICT, so
 * that its refusal is the one that request gets; nothing is sent.  Then r
 * is the extraction alone (format 0).  A YAML document's tree is kept for
 * the extractor's own load of the same bytes (yaml.h prc_yaml_keep), with
 * positions when the extractor reads them; an XML or TOML one (keep_tree),
 * and a JSON one when the extractor reads the verdict's own JSON (a tree
 * then, where the verdict alone streams), for its parse (base/kept.h);
 * anything else runs on a fresh arena.  Positions only cost memory, so a
 * parse that made them and refused is made again without them: that
 * refusal is the verdict's.
 */
static void parse_first(prc_req *r, prc_buf *reply, uint32_t reply_max, prc_err *err)
{
        const prc_extractor *x = owner(r);
        prc_req pr = *r;
        struct out po = { .reply_max = reply_max, .count_only = true, .keep = true,
                          .keep_pos = x != NULL && x->yaml_pos, .keep_json = x != NULL && x->json_tree };

        pr.op = PRC_OP_PARSE;
        pr.args = NULL;
        pr.args_len = 0;
        run_request(&pr, reply, &po, err);
        if (po.keep_pos && prc_err_is_set(err)) {
                prc_yaml_pos_free(po.pos);
                arena_reset();
                prc_err_init(err);
                po = (struct out){ .reply_max = reply_max, .count_only = true };
                run_request(&pr, reply, &po, err);
        }
        if (!prc_err_is_set(err) && po.tree != NULL && po.kept_kind != 0) {
                prc_kept_put(po.kept_kind, r->input, r->input_len, &r->lim, po.flags, po.tree, NULL, NULL);
        } else if (!prc_err_is_set(err) && po.tree != NULL) {
                prc_yaml_keep(r->input, r->input_len, &r->lim, po.flags, po.tree, po.pos);
        } else {
                prc_yaml_pos_free(po.pos);
                arena_reset();
        }
        r->format = 0;
}

/* Serve until the client closes the request pipe.  Returns the exit status. */
static int serve(const wcfg *c)
{
        uint16_t allowed[64];
        size_t nallowed = 0;
        prc_buf req, reply;
        size_t kept0, pieces;
        bool retiring = false;
        int status = 0;

        /* Every op code of the table is an allowed request type (deduplicated). */
        for (size_t i = 0; i < prc_dispatch_count && nallowed < PRC_ARRAY_LEN(allowed); i++) {
                bool seen = false;
                for (size_t j = 0; j < nallowed; j++)
                        seen = seen || allowed[j] == prc_dispatch_table[i].op;
                if (!seen)
                        allowed[nallowed++] = prc_dispatch_table[i].op;
        }
        prc_buf_init(&req, c->req_max);
        prc_mdp_packer_init(&packer);
        prc_buf_init(&reply, c->reply_max);
        kept0 = heap_kept(&req, &reply, &pieces);
        for (;;) {
                prc_err err;
                prc_req r;
                uint16_t type;
                struct out o;
                bool first;
                prc_frame_rc rc;

                prc_err_init(&err);
                rc = prc_frame_read(PRC_WORKER_FD_IN, allowed, nallowed, c->req_max, PRC_E_REQUEST_TOO_LARGE,
                                    PRC_E_INVALID_FRAME, PRC_NO_DEADLINE, &type, &req, &err);
                if (rc == PRC_FRAME_EOF)
                        break;
                if (rc == PRC_FRAME_ERR || !prc_req_decode(req.data, req.len, type, &r, &err)) {
                        /* A malformed or over-cap frame ends the conversation. */
                        (void)send_refusal(&err);       /* best effort: we exit either way */
                        status = 1;
                        break;
                }
                if (retiring) {
                        send_retire();  /* unanswered: the client asks a fresh worker */
                        break;
                }
                o = (struct out){ .reply_max = c->reply_max, .count_only = (r.flags & PRC_REQ_VERDICT) != 0,
                                  .packed = r.op == PRC_OP_EXTRACT && (r.flags & PRC_REQ_PACKED_DEPS) != 0,
                                  .slim = r.op == PRC_OP_EXTRACT && (r.flags & PRC_REQ_SLIM_DETAILS) != 0 };
                first = r.op == PRC_OP_EXTRACT && (r.flags & PRC_REQ_PARSE_FIRST) != 0;
                /* The client's, not a loader's. */
                r.flags &= ~(PRC_REQ_VERDICT | PRC_REQ_PARSE_FIRST | PRC_REQ_PACKED_DEPS | PRC_REQ_SLIM_DETAILS);
                if (first)
                        parse_first(&r, &reply, c->reply_max, &err);
                if (!prc_err_is_set(&err))
                        run_request(&r, &reply, &o, &err);
                if (o.count_only && !prc_err_is_set(&err))
                        o.broken = !send_verdict(&err);
                /* A refusal may follow pieces already sent: the client drops them. */
                if (o.broken || (prc_err_is_set(&err) && !send_refusal(&err))) {
                        status = 1;
                        break;
                }
                /*
                 * Dropped after the reply is out, while the client decodes: the
                 * arena takes the whole tree back at once, so it is not walked.
                 * A tree parse_first kept that no load took goes with it.
                 */
                prc_kept_drop();
                arena_reset();
                /* Do not keep a huge buffer around between requests. */
                if (reply.cap > (1u << 20))
                        prc_buf_clear(&reply);
                if (req.cap > (1u << 20))
                        prc_buf_clear(&req);
                if (packer.recs.cap > PACKER_KEEP || packer.edges.cap > PACKER_KEEP || packer.pool.cap > PACKER_KEEP)
                        prc_mdp_packer_clear(&packer);
                if (prc_md_rows_kept() > PACKER_KEEP)
                        prc_md_rows_release();  /* the native rows' store (extract.h), kept as the packer is */
                retiring = heap_kept(&req, &reply, &pieces) > kept0 + KEPT_MAX || pieces > FREE_PIECES_MAX;
        }
        prc_buf_clear(&req);
        prc_buf_clear(&reply);
        prc_mdp_packer_clear(&packer);
        prc_md_rows_release();
        return status;
}

int prc_worker_main(int argc, char **argv)
{
        prc_floor_report rep;
        prc_err err;
        wcfg c;

        if (!setup_fds())
                return 2;
        prc_err_init(&err);
        if (!parse_args(argc, argv, &c)) {
                prc_err_set(&err, PRC_E_USAGE, "bad worker arguments");
                (void)send_refusal(&err);
                return 2;
        }
        if (!warm_up(&c, &err)) {
                (void)send_refusal(&err);       /* a worker that could not warm up serves nothing */
                return 1;
        }
        /* Past this point a dlopen meets seccomp, which kills: libcrypto (signatures) is refused from now on. */
        prc_crypto_seal();
        if (!prc_floor_apply(&c.floor, &rep, &err)) {
                (void)send_refusal(&err);       /* names the layer; nothing is served */
                return 1;
        }
        if (!send_ready(&rep))
                return 1;
        /* From here on jansson trees live and die within one request (warm_up's are gone). */
        prc_json_alloc_backend(arena_alloc, arena_free);
        prc_json_alloc_rewind_hooks(arena_mark, arena_rewind);
        prc_x_drop_by_arena();  /* so extractors leave their parsed input to arena_reset */
        return serve(&c);
}
