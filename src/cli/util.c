/*
 * util.c - helpers for cli/ commands: usage errors, error printing, JSON out.
 */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/jcs.h"

int cli_usage(const char *what, const char *fmt, ...)
{
        va_list ap;

        fprintf(stderr, "prc %s: ", what);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\nsee 'prc %s --help'\n", what);
        return PRC_EXIT_USAGE;
}

void cli_print_err(const prc_err *e)
{
        char line[1024];

        prc_err_format(e, line, sizeof(line));
        fprintf(stderr, "prc: %s\n", line);
}

bool cli_json_out(const json_t *v, prc_err *err)
{
        prc_buf b;
        bool ok;

        prc_buf_init(&b, (size_t)1 << 31);
        ok = prc_jcs_write(v, &b, err) && prc_buf_putc(&b, '\n', err);
        if (ok) {
                ok = fwrite(b.data, 1, b.len, stdout) == b.len && fflush(stdout) == 0;
                if (!ok)
                        prc_err_set(err, PRC_E_IO, "cannot write to standard output");
        }
        prc_buf_clear(&b);
        return ok;
}

bool cli_bytes_out(prc_buf *b, prc_err *err)
{
        if (!prc_buf_putc(b, '\n', err))
                return false;
        if (fwrite(b->data, 1, b->len, stdout) != b->len || fflush(stdout) != 0)
                return prc_err_set(err, PRC_E_IO, "cannot write to standard output");
        return true;
}

json_t *cli_err_json(const prc_err *e)
{
        json_t *o = json_pack("{s:s,s:s}", "class", prc_err_name(e->cls), "message", e->msg);

        if (o == NULL)
                return NULL;
        if (e->file[0])
                json_object_set_new(o, "file", json_string(e->file));
        if (e->line)
                json_object_set_new(o, "line", json_integer(e->line));
        if (e->col)
                json_object_set_new(o, "column", json_integer(e->col));
        if (e->ptr[0])
                json_object_set_new(o, "pointer", json_string(e->ptr));
        if (e->off != PRC_NO_OFF)
                json_object_set_new(o, "offset", json_integer((json_int_t)e->off));
        return o;
}

bool cli_format_ok(const char *what, const char *val, const char *const *allowed)
{
        for (size_t i = 0; allowed[i] != NULL; i++)
                if (strcmp(val, allowed[i]) == 0)
                        return true;
        cli_usage(what, "unknown --format '%s'", val);
        return false;
}

int cli_exit_for(const prc_err *e)
{
        switch (e->cls) {
        case PRC_E_OK:
                return PRC_EXIT_OK;
        case PRC_E_USAGE:
                return PRC_EXIT_USAGE;
        case PRC_E_IO:
        case PRC_E_OUT_OF_MEMORY:
        case PRC_E_INTERNAL:
                return PRC_EXIT_EXEC;
        default:
                return PRC_EXIT_FAIL;
        }
}

volatile sig_atomic_t cli_interrupted;

static void on_interrupt(int sig)
{
        cli_interrupted = sig;
}

void cli_interrupts_catch(cli_interrupts *s)
{
        struct sigaction sa;

        cli_interrupted = 0;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_interrupt;   /* no SA_RESTART: a blocked poll or read returns EINTR */
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &s->old_int);
        sigaction(SIGTERM, &sa, &s->old_term);
}

void cli_interrupts_restore(const cli_interrupts *s)
{
        sigaction(SIGINT, &s->old_int, NULL);
        sigaction(SIGTERM, &s->old_term, NULL);
}

void cli_interrupts_die(void)
{
        int sig = cli_interrupted;

        if (sig == 0)
                return;
        signal(sig, SIG_DFL);
        raise(sig);
}
