/*
 * frame.c - frame header, payload layouts and bounded frame I/O (frame.h).
 * Trust: decodes bytes from the other side of the pipe; every length is
 * checked against a cap before memory is reserved.
 */
#include "content/frame.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/rd.h"

static void put_be(uint8_t *o, uint64_t v, unsigned nbytes)
{
        for (unsigned i = 0; i < nbytes; i++)
                o[i] = (uint8_t)(v >> (8 * (nbytes - 1 - i)));
}

void prc_frame_hdr_encode(uint8_t out[PRC_FRAME_HDR], uint16_t type, uint32_t len)
{
        put_be(out, PRC_FRAME_MAGIC, 4);
        put_be(out + 4, PRC_FRAME_VERSION, 2);
        put_be(out + 6, type, 2);
        put_be(out + 8, len, 4);
}

bool prc_frame_hdr_decode(const uint8_t in[PRC_FRAME_HDR], const uint16_t *allowed, size_t nallowed,
                          uint32_t max, prc_errclass overcap, uint16_t *out_type, uint32_t *out_len,
                          prc_err *err)
{
        prc_rd r = prc_rd_make(in, PRC_FRAME_HDR, PRC_E_INVALID_FRAME);
        uint32_t magic, len;
        uint16_t version, type;
        bool known = false;

        if (!prc_rd_u32be(&r, &magic, err) || !prc_rd_u16be(&r, &version, err) ||
            !prc_rd_u16be(&r, &type, err) || !prc_rd_u32be(&r, &len, err))
                return false;
        if (magic != PRC_FRAME_MAGIC)
                return prc_err_at(err, PRC_E_INVALID_FRAME, 0, "bad frame magic 0x%08x", magic);
        if (version != PRC_FRAME_VERSION)
                return prc_err_at(err, PRC_E_INVALID_FRAME, 4, "frame version %u, want %u", version,
                                  PRC_FRAME_VERSION);
        for (size_t i = 0; i < nallowed; i++)
                known = known || allowed[i] == type;
        if (!known)
                return prc_err_at(err, PRC_E_INVALID_FRAME, 6, "unexpected frame type 0x%04x", type);
        if (len > max)
                return prc_err_at(err, overcap, 8, "frame of %u bytes exceeds the cap of %u", len, max);
        *out_type = type;
        *out_len = len;
        return true;
}

int64_t prc_now_ns(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Wait until fd is ready or the deadline passes.  Errors: worker-timeout, io-error. */
static bool wait_fd(int fd, short events, int64_t deadline, prc_err *err)
{
        for (;;) {
                struct pollfd pfd = { .fd = fd, .events = events };
                int64_t left = deadline - prc_now_ns();
                int ms, rc;

                if (left <= 0)
                        return prc_err_set(err, PRC_E_WORKER_TIMEOUT, "no answer before the deadline");
                /* Round up so a sub-millisecond remainder still waits. */
                ms = left / 1000000 >= 1000000 ? 1000000 : (int)((left + 999999) / 1000000);
                rc = poll(&pfd, 1, ms);
                if (rc < 0 && errno == EINTR)
                        continue;
                if (rc < 0)
                        return prc_err_sys(err, PRC_E_IO, errno, "poll failed");
                if (rc > 0)
                        return true;    /* readable, writable, or hung up: the I/O call tells which */
        }
}

bool prc_frame_wait(int fd, int64_t deadline, prc_err *err)
{
        return wait_fd(fd, POLLIN, deadline, err);
}

static bool write_full(int fd, const uint8_t *p, size_t n, int64_t deadline, prc_err *err)
{
        while (n > 0) {
                ssize_t w = write(fd, p, n);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && deadline != PRC_NO_DEADLINE) {
                        if (!wait_fd(fd, POLLOUT, deadline, err))
                                return false;
                        continue;
                }
                if (w < 0)
                        return prc_err_sys(err, PRC_E_IO, errno, "frame write failed: %s", strerror(errno));
                p += w;
                n -= (size_t)w;
        }
        return true;
}

/* This thread keeps SIGPIPE blocked for good (prc_frame_hold_sigpipe). */
static __thread bool sigpipe_held;

void prc_frame_hold_sigpipe(void)
{
        sigset_t pipe_set;

        if (sigpipe_held)
                return;
        sigemptyset(&pipe_set);
        sigaddset(&pipe_set, SIGPIPE);
        sigpipe_held = pthread_sigmask(SIG_BLOCK, &pipe_set, NULL) == 0;
}

/*
 * The frame's bytes, a then b.  With a deadline (the client) SIGPIPE is
 * blocked around the writes, so a dead peer is EPIPE rather than the end
 * of the caller; a SIGPIPE raised by our write is consumed before
 * unblocking (a signal already pending before we started is left alone).
 * Once per frame, not per write: three system calls each time, none in a
 * thread that holds SIGPIPE blocked anyway.
 */
static bool write_frame(int fd, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, const uint8_t *c,
                        size_t cn, int64_t deadline, prc_err *err)
{
        sigset_t pipe_set, old, pending;
        bool was_pending, ok;

        if (deadline == PRC_NO_DEADLINE || sigpipe_held)
                return write_full(fd, a, an, deadline, err) && write_full(fd, b, bn, deadline, err) &&
                       write_full(fd, c, cn, deadline, err);
        sigemptyset(&pipe_set);
        sigaddset(&pipe_set, SIGPIPE);
        sigpending(&pending);
        was_pending = sigismember(&pending, SIGPIPE) == 1;
        pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
        ok = write_full(fd, a, an, deadline, err) && write_full(fd, b, bn, deadline, err) &&
             write_full(fd, c, cn, deadline, err);
        if (!ok && !was_pending) {
                struct timespec zero = { 0, 0 };
                while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
                        ;
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return ok;
}

/*
 * A small frame goes out in one write: header and payload written apart
 * wake the reader for the header alone, and it then waits again for the
 * payload (a second wake-up and a poll per message).  Past this size the
 * copy keeps growing while the saving stays one write and one wake-up.
 */
enum { FRAME_COALESCE = 16u << 10 };

bool prc_frame_write(int fd, uint16_t type, const void *p, size_t n, int64_t deadline, prc_err *err)
{
        return prc_frame_write2(fd, type, p, n, NULL, 0, deadline, err);
}

bool prc_frame_write_run(int fd, const void *p, size_t n, int64_t deadline, prc_err *err)
{
        return write_frame(fd, p, n, NULL, 0, NULL, 0, deadline, err);
}

bool prc_frame_write2(int fd, uint16_t type, const void *a, size_t an, const void *b, size_t bn, int64_t deadline,
                      prc_err *err)
{
        uint8_t one[PRC_FRAME_HDR + FRAME_COALESCE];
        size_t head = PRC_FRAME_HDR;

        if (an > UINT32_MAX || bn > UINT32_MAX - an)
                return prc_err_set(err, PRC_E_INTERNAL, "frame payload of %zu + %zu bytes", an, bn);
        prc_frame_hdr_encode(one, type, (uint32_t)(an + bn));
        /* What fits goes out with the header, in order: a small frame is one write, as above. */
        if (an <= FRAME_COALESCE) {
                if (an > 0)
                        memcpy(one + head, a, an);
                head += an;
                a = NULL;
                an = 0;
                if (bn <= FRAME_COALESCE - (head - PRC_FRAME_HDR)) {
                        if (bn > 0)
                                memcpy(one + head, b, bn);
                        head += bn;
                        b = NULL;
                        bn = 0;
                }
        }
        return write_frame(fd, one, head, a, an, b, bn, deadline, err);
}

/* Read exactly n bytes; *got counts what arrived (so EOF at 0 can be told apart). */
static bool read_full(int fd, uint8_t *p, size_t n, int64_t deadline, size_t *got, prc_err *err)
{
        *got = 0;
        while (*got < n) {
                ssize_t r = read(fd, p + *got, n - *got);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && deadline != PRC_NO_DEADLINE) {
                        if (!wait_fd(fd, POLLIN, deadline, err))
                                return false;
                        continue;
                }
                if (r < 0)
                        return prc_err_sys(err, PRC_E_IO, errno, "frame read failed: %s", strerror(errno));
                if (r == 0)
                        return false;   /* EOF: the caller decides what it means */
                *got += (size_t)r;
        }
        return true;
}

prc_frame_rc prc_frame_read_hdr(int fd, const uint16_t *allowed, size_t nallowed, uint32_t max,
                                prc_errclass overcap, prc_errclass eof_cls, int64_t deadline,
                                uint16_t *out_type, uint32_t *out_len, prc_err *err)
{
        uint8_t hdr[PRC_FRAME_HDR];
        size_t got;

        if (!read_full(fd, hdr, sizeof(hdr), deadline, &got, err)) {
                if (prc_err_is_set(err))
                        return PRC_FRAME_ERR;
                if (got == 0)
                        return PRC_FRAME_EOF;
                prc_err_set(err, eof_cls, "stream ended inside a frame header (%zu of %d bytes)", got,
                            PRC_FRAME_HDR);
                return PRC_FRAME_ERR;
        }
        if (!prc_frame_hdr_decode(hdr, allowed, nallowed, max, overcap, out_type, out_len, err))
                return PRC_FRAME_ERR;
        return PRC_FRAME_OK;
}

bool prc_frame_read_some(int fd, uint8_t *p, size_t min, size_t max, int64_t deadline, prc_errclass eof_cls,
                         size_t *got, prc_err *err)
{
        *got = 0;
        while (*got < min) {
                ssize_t r = read(fd, p + *got, max - *got);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && deadline != PRC_NO_DEADLINE) {
                        if (!wait_fd(fd, POLLIN, deadline, err))
                                return false;
                        continue;
                }
                if (r < 0)
                        return prc_err_sys(err, PRC_E_IO, errno, "frame read failed: %s", strerror(errno));
                if (r == 0)
                        return prc_err_set(err, eof_cls, "stream ended inside a frame (%zu more bytes expected)",
                                           min - *got);
                *got += (size_t)r;
        }
        return true;
}

prc_frame_rc prc_frame_read(int fd, const uint16_t *allowed, size_t nallowed, uint32_t max,
                            prc_errclass overcap, prc_errclass eof_cls, int64_t deadline,
                            uint16_t *out_type, prc_buf *payload, prc_err *err)
{
        uint16_t type;
        uint32_t len;
        size_t got;
        prc_frame_rc rc;

        prc_buf_reset(payload);
        rc = prc_frame_read_hdr(fd, allowed, nallowed, max, overcap, eof_cls, deadline, &type, &len, err);
        if (rc != PRC_FRAME_OK)
                return rc;
        if (!prc_buf_reserve(payload, len, err))
                return PRC_FRAME_ERR;
        if (!read_full(fd, payload->data, len, deadline, &got, err)) {
                if (!prc_err_is_set(err))
                        prc_err_set(err, eof_cls, "stream ended inside a frame (%zu of %u payload bytes)", got,
                                    len);
                return PRC_FRAME_ERR;
        }
        payload->len = len;
        if (payload->cap > len)
                payload->data[len] = 0;
        *out_type = type;
        return PRC_FRAME_OK;
}

/* ---- payload layouts ---- */

static bool put_n(prc_buf *b, uint64_t v, unsigned nbytes, prc_err *err)
{
        uint8_t o[8];

        put_be(o, v, nbytes);
        return prc_buf_put(b, o, nbytes, err);
}

static bool put_str(prc_buf *b, const void *p, size_t n, prc_err *err)
{
        return put_n(b, n, 4, err) && prc_buf_put(b, p, n, err);
}

size_t prc_req_size(const prc_req *r)
{
        size_t n = 2 + 4 + 8 + 8 + 6 * 4 + 4 + 4;

        /* Saturate instead of wrapping: the caller compares against a cap. */
        if (__builtin_add_overflow(n, r->path_len, &n) || __builtin_add_overflow(n, r->args_len, &n) ||
            __builtin_add_overflow(n, r->input_len, &n))
                return SIZE_MAX;
        return n;
}

bool prc_req_encode(const prc_req *r, prc_buf *out, prc_err *err)
{
        return prc_req_encode_head(r, out, err) && prc_buf_put(out, r->input, r->input_len, err);
}

bool prc_req_encode_head(const prc_req *r, prc_buf *out, prc_err *err)
{
        const prc_limits *l = &r->lim;

        if (r->path_len > PRC_FRAME_PATH_MAX)
                return prc_err_set(err, PRC_E_INVALID_FRAME, "request path of %zu bytes exceeds %d",
                                   r->path_len, PRC_FRAME_PATH_MAX);
        if (r->path_len > 0 && memchr(r->path, 0, r->path_len) != NULL)
                return prc_err_set(err, PRC_E_INVALID_FRAME, "request path holds a NUL byte");
        if (r->args_len > PRC_FRAME_ARGS_MAX)
                return prc_err_set(err, PRC_E_INVALID_FRAME, "request arguments of %zu bytes exceed %u",
                                   r->args_len, PRC_FRAME_ARGS_MAX);
        return put_n(out, r->format, 2, err) && put_n(out, r->flags, 4, err) &&
               put_n(out, l->input_max, 8, err) && put_n(out, l->scalar_max, 8, err) &&
               put_n(out, l->depth_max, 4, err) && put_n(out, l->nodes_max, 4, err) &&
               put_n(out, l->alias_max, 4, err) && put_n(out, l->anchor_max, 4, err) &&
               put_n(out, l->merge_max, 4, err) && put_n(out, l->keys_max, 4, err) &&
               put_str(out, r->path, r->path_len, err) && put_str(out, r->args, r->args_len, err);
}

bool prc_req_decode(const uint8_t *p, size_t n, uint16_t op, prc_req *out, prc_err *err)
{
        prc_rd r = prc_rd_make(p, n, PRC_E_INVALID_FRAME);
        prc_req q;
        uint64_t in_max, sc_max;
        const uint8_t *path;

        memset(&q, 0, sizeof(q));
        q.op = op;
        if (!prc_rd_u16be(&r, &q.format, err) || !prc_rd_u32be(&r, &q.flags, err) ||
            !prc_rd_u64be(&r, &in_max, err) || !prc_rd_u64be(&r, &sc_max, err) ||
            !prc_rd_u32be(&r, &q.lim.depth_max, err) || !prc_rd_u32be(&r, &q.lim.nodes_max, err) ||
            !prc_rd_u32be(&r, &q.lim.alias_max, err) || !prc_rd_u32be(&r, &q.lim.anchor_max, err) ||
            !prc_rd_u32be(&r, &q.lim.merge_max, err) || !prc_rd_u32be(&r, &q.lim.keys_max, err) ||
            !prc_rd_str(&r, PRC_FRAME_PATH_MAX, &path, &q.path_len, err) ||
            !prc_rd_str(&r, PRC_FRAME_ARGS_MAX, &q.args, &q.args_len, err))
                return false;
        if (in_max > SIZE_MAX || sc_max > SIZE_MAX)
                return prc_err_set(err, PRC_E_INVALID_FRAME, "request limits out of range");
        if (q.path_len > 0 && memchr(path, 0, q.path_len) != NULL)
                return prc_err_set(err, PRC_E_INVALID_FRAME, "request path holds a NUL byte");
        q.lim.input_max = (size_t)in_max;
        q.lim.scalar_max = (size_t)sc_max;
        q.path = (const char *)path;
        q.input = p + r.off;
        q.input_len = prc_rd_left(&r);
        *out = q;
        return true;
}

bool prc_refusal_encode(const prc_err *e, prc_buf *out, prc_err *err)
{
        const char *name = prc_err_name(e->cls);
        size_t plen = strnlen(e->ptr, PRC_FRAME_PTR_MAX), mlen = strnlen(e->msg, PRC_FRAME_MSG_MAX);

        return put_str(out, name, strlen(name), err) && put_n(out, e->off, 8, err) &&
               put_n(out, e->line, 4, err) && put_n(out, e->col, 4, err) &&
               put_str(out, e->ptr, plen, err) && put_str(out, e->msg, mlen, err);
}

/* Copy a decoded field into a fixed C string: no NUL inside, and it must fit. */
static bool copy_field(char *dst, size_t cap, const uint8_t *p, size_t n, const char *what, prc_err *err)
{
        if (n >= cap || memchr(p, 0, n) != NULL)
                return prc_err_set(err, PRC_E_INVALID_FRAME, "refusal %s is malformed", what);
        /*
         * The text is shown on a terminal and copied into JSON records: a
         * hostile worker must not send escape sequences (C0, DEL, C1) or
         * invalid UTF-8, which would make the refusal vanish from a run
         * result (jansson refuses such a string).  The same rule as every
         * engine-side error (issue 16).
         */
        memcpy(dst, p, n);
        dst[n] = 0;
        prc_err_sanitize(dst);
        return true;
}

bool prc_refusal_decode(const uint8_t *p, size_t n, prc_err *refusal, prc_err *err)
{
        prc_rd r = prc_rd_make(p, n, PRC_E_INVALID_FRAME);
        const uint8_t *cls, *ptr, *msg;
        size_t clen, plen, mlen;
        char name[PRC_FRAME_CLASS_MAX + 1];
        prc_err e;
        prc_errclass c;

        prc_err_init(&e);
        if (!prc_rd_str(&r, PRC_FRAME_CLASS_MAX, &cls, &clen, err) || !prc_rd_u64be(&r, &e.off, err) ||
            !prc_rd_u32be(&r, &e.line, err) || !prc_rd_u32be(&r, &e.col, err) ||
            !prc_rd_str(&r, PRC_FRAME_PTR_MAX, &ptr, &plen, err) ||
            !prc_rd_str(&r, PRC_FRAME_MSG_MAX, &msg, &mlen, err) || !prc_rd_end(&r, err))
                return false;
        if (!copy_field(name, sizeof(name), cls, clen, "class", err) ||
            !copy_field(e.ptr, sizeof(e.ptr), ptr, plen, "pointer", err) ||
            !copy_field(e.msg, sizeof(e.msg), msg, mlen, "message", err))
                return false;
        c = prc_err_by_name(name);
        if (c == PRC_E_OK)
                return prc_err_set(err, PRC_E_INVALID_FRAME, "refusal names an unknown class '%.64s'", name);
        e.cls = c;
        *refusal = e;
        return true;
}
