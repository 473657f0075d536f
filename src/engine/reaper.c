/*
 * reaper.c - trees released on a thread of their own (reaper.h).
 * Trust: no input of its own.
 */
#include "engine/reaper.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct prc_reaper {
        pthread_mutex_t mu;
        pthread_cond_t  cv;
        json_t        **q;      /* owned: trees put and not yet taken by the thread (under mu) */
        size_t          n, cap;
        size_t          budget, waiting;        /* the weights put and not yet dropped, and their bound (under mu) */
        size_t          taking;         /* the weights of q (under mu) */
        bool            closing;        /* prc_reaper_free: drain and stop (under mu) */
        pthread_t       tid;
};

/* Take the queue in one go and drop it outside the lock, so put never waits on a free. */
static void *reaper_main(void *arg)
{
        prc_reaper *r = arg;
        json_t **batch = NULL;
        size_t nb = 0, capb = 0, w;

        pthread_mutex_lock(&r->mu);
        for (;;) {
                json_t **t;
                size_t tc;

                while (r->n == 0 && !r->closing)
                        pthread_cond_wait(&r->cv, &r->mu);
                if (r->n == 0)
                        break;
                /* Swap the queue with the (empty) batch buffer: the caller keeps the capacity. */
                t = r->q, tc = r->cap;
                nb = r->n;
                r->q = batch, r->cap = capb;
                r->n = 0;
                batch = t, capb = tc;
                w = r->taking;
                r->taking = 0;
                pthread_mutex_unlock(&r->mu);
                for (size_t i = 0; i < nb; i++)
                        json_decref(batch[i]);
                pthread_mutex_lock(&r->mu);
                r->waiting -= w;
        }
        pthread_mutex_unlock(&r->mu);
        free(batch);
        return NULL;
}

prc_reaper *prc_reaper_new(size_t budget)
{
        prc_reaper *r = calloc(1, sizeof(*r));

        if (r == NULL)
                return NULL;
        r->budget = budget;
        pthread_mutex_init(&r->mu, NULL);
        pthread_cond_init(&r->cv, NULL);
        if (pthread_create(&r->tid, NULL, reaper_main, r) != 0) {
                pthread_cond_destroy(&r->cv);
                pthread_mutex_destroy(&r->mu);
                free(r);
                return NULL;
        }
        return r;
}

void prc_reaper_put(prc_reaper *r, json_t *v, size_t weight)
{
        bool queued = false;

        if (v == NULL)
                return;
        if (r != NULL) {
                pthread_mutex_lock(&r->mu);
                if (r->n == r->cap) {
                        size_t cap = r->cap ? 2 * r->cap : 256;
                        json_t **q = realloc(r->q, cap * sizeof(*q));
                        if (q != NULL) {
                                r->q = q;
                                r->cap = cap;
                        }
                }
                if (r->n < r->cap && (r->waiting == 0 || (r->waiting <= r->budget &&
                                                          weight <= r->budget - r->waiting))) {
                        r->q[r->n++] = v;
                        r->waiting += weight;
                        r->taking += weight;
                        queued = true;
                        pthread_cond_signal(&r->cv);
                }
                pthread_mutex_unlock(&r->mu);
        }
        if (!queued)
                json_decref(v);         /* no reaper, no room, or over the budget: released here */
}

void prc_reaper_free(prc_reaper *r)
{
        if (r == NULL)
                return;
        pthread_mutex_lock(&r->mu);
        r->closing = true;
        pthread_cond_signal(&r->cv);
        pthread_mutex_unlock(&r->mu);
        pthread_join(r->tid, NULL);
        free(r->q);
        pthread_cond_destroy(&r->cv);
        pthread_mutex_destroy(&r->mu);
        free(r);
}
