/*
 * gzip_det.c - test helper: prc's deterministic gzip form of standard input.
 *
 *   gzip_det <FILE >FILE.gz
 *
 * The OCI suites make the pinned Gitleaks ruleset file from the corpus's
 * decompressed gitleaks.toml with it, in exactly the form `prc setup native`
 * stores and `prc verify` checks (src/base/gzip.h).  Exit 1 on any error.
 */
#include <stdio.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/gzip.h"

int main(void)
{
        prc_buf in, out;
        prc_err e;
        int rc = 1;

        prc_err_init(&e);
        prc_buf_init(&in, 64u << 20);
        prc_buf_init(&out, 65u << 20);
        if (prc_fd_read_all(0, in.max, &in, &e) && prc_gzip_write(in.data, in.len, &out, &e) &&
            prc_fd_write_all(1, out.data, out.len, &e))
                rc = 0;
        else
                fprintf(stderr, "gzip_det: %s: %s\n", prc_err_name(e.cls), e.msg);
        prc_buf_clear(&in);
        prc_buf_clear(&out);
        return rc;
}
