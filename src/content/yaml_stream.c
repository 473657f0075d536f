/*
 * yaml_stream.c - the streaming YAML reply (yaml_stream.h).
 * Trust: input is hostile target bytes, inside the floored worker.
 */
#include "content/yaml_stream.h"

#include "base/yaml.h"

struct ys {
        prc_docbin_ow w;
        prc_err       werr;     /* the writer's failure (put, memory): the stream stops, the parse goes on */
        const char   *why;      /* set once the stream is given up */
        uint32_t      depth;    /* collections open in the stream */
        bool          root;     /* the root value is complete in the stream */
};

static bool give_up(struct ys *s, const char *why)
{
        if (s->why == NULL)
                s->why = why;
        return false;   /* the composer tells us nothing more */
}

static bool ys_open(void *ctx, bool map)
{
        struct ys *s = ctx;

        if (!prc_docbin_ow_open(&s->w, map, &s->werr))
                return give_up(s, "the reply writer failed");
        s->depth++;
        return true;
}

static bool ys_key(void *ctx, const char *k, size_t n)
{
        struct ys *s = ctx;

        return prc_docbin_ow_key(&s->w, k, n, &s->werr) || give_up(s, "the reply writer failed");
}

static bool ys_value(void *ctx, const json_t *v)
{
        struct ys *s = ctx;

        if (!prc_docbin_ow_value(&s->w, v, &s->werr))
                return give_up(s, "the reply writer failed");
        s->root = s->depth == 0;
        return true;
}

static bool ys_close(void *ctx)
{
        struct ys *s = ctx;

        if (s->depth == 0)
                return give_up(s, "a close without an open");   /* the composer never does this */
        if (!prc_docbin_ow_close(&s->w, &s->werr))
                return give_up(s, "the reply writer failed");
        s->root = --s->depth == 0;
        return true;
}

static void ys_abandon(void *ctx, const char *why)
{
        (void)give_up(ctx, why);
}

static const prc_yaml_sink ys_sink = {
        .open = ys_open, .key = ys_key, .value = ys_value, .close = ys_close, .abandon = ys_abandon,
};

prc_ys_rc prc_yaml_stream(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_buf *chunk,
                          prc_docbin_put_fn put, void *ctx, uint64_t *out_size, json_t **doc, const char **why,
                          prc_err *err)
{
        return prc_yaml_stream_pos(p, n, lim, flags, chunk, put, ctx, out_size, doc, NULL, why, err);
}

prc_ys_rc prc_yaml_stream_pos(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_buf *chunk,
                              prc_docbin_put_fn put, void *ctx, uint64_t *out_size, json_t **doc,
                              prc_yaml_pos **out_pos, const char **why, prc_err *err)
{
        struct ys s = { .why = NULL };
        prc_ys_rc rc = PRC_YS_FALLBACK;

        prc_err_init(&s.werr);
        prc_docbin_ow_init(&s.w, chunk, put, ctx);
        *doc = prc_yaml_load_sink(p, n, lim, flags, &ys_sink, &s, out_pos, err);
        if (*doc == NULL) {
                rc = PRC_YS_REFUSED;
        } else if (s.why == NULL) {
                /* An empty stream is the null document, which the composer never tells. */
                if (!s.root && s.depth == 0 && s.w.size == 0 && chunk->len == 0)
                        (void)ys_value(&s, *doc);
                if (s.why == NULL && (!s.root || s.depth != 0))
                        (void)give_up(&s, "the stream does not hold one whole document");       /* never: a bug */
                if (s.why == NULL && !prc_docbin_ow_finish(&s.w, &s.werr))
                        (void)give_up(&s, "the reply writer failed");
                if (s.why == NULL)
                        rc = PRC_YS_STREAMED;
        }
        *out_size = s.w.size;
        if (why != NULL)
                *why = s.why;
        return rc;
}
