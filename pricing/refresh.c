/* The refresh: one state machine per feed (document, page, next page) driven by the HTTP
 * client's completion callbacks, so every feed downloads at once while each is written to the
 * store in its own transaction the moment it is complete. */
#include "pricing/refresh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pricing/oauth.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

const char *gp_refresh_status_name(enum gp_refresh_status s)
{
    switch (s) {
    case GP_REFRESH_OK:
        return "ok";
    case GP_REFRESH_UNCHANGED:
        return "unchanged";
    case GP_REFRESH_FAILED:
        return "failed";
    case GP_REFRESH_SKIPPED:
        return "skipped";
    case GP_REFRESH_INTERRUPTED:
        return "interrupted";
    }
    return "?";
}

struct refresh;

struct feed_run {
    struct refresh *r;
    const struct gp_feed_config *cfg;
    const struct gp_feed_source *src;
    const struct gp_feed_adapter *adapter;
    struct gp_refresh_result *result;
    struct gp_feed_key key;
    struct gp_feed_ctx ctx;
    int64_t run_id;            /* refresh_runs row; 0 in a dry run */
    size_t doc;                /* index into src->paths */
    size_t doc_pages;          /* pages fetched of the current document */
    char url[GP_FEED_URL_MAX]; /* the page being fetched */
    struct gp_buf post;        /* request body of token-paged APIs */
    struct gp_http_request req;
    struct gp_http_response resp;
    struct gp_feed_stream *stream;
    struct gp_http_validator validator; /* of the single document, when it is one page */
    bool conditional;                   /* the feed is one document and may answer 304 */
    double started;                     /* monotonic seconds */
    bool done;
};

struct refresh {
    struct gp_store *store;
    const struct gp_refresh_options *opts;
    struct gp_http_client *http;
    struct feed_run *runs;
    size_t count;
    int fatal; /* a store error: stop writing, report it */
};

static size_t source_paths(const struct gp_feed_source *src)
{
    return src->path_count ? src->path_count : 1;
}

/* ---- completion ---------------------------------------------------------------------- */

static void copy_counts(struct feed_run *fr)
{
    struct gp_refresh_result *res = fr->result;

    res->counts.unmapped = fr->ctx.unmapped;
    res->counts.rejected = fr->ctx.rejected;
    res->out_of_scope = fr->ctx.out_of_scope;
    res->unmapped_name_count = fr->ctx.unmapped_name_count;
    memcpy(res->unmapped_names, fr->ctx.unmapped_names, sizeof(res->unmapped_names));
    gp_text_copy(res->first_rejection, sizeof(res->first_rejection), fr->ctx.first_rejection);
    res->seconds = gp_time_monotonic() - fr->started;
}

static void release_run(struct feed_run *fr)
{
    if (fr->stream)
        fr->adapter->stream_free(fr->stream);
    fr->stream = NULL;
    gp_feed_key_wipe(&fr->key);
    gp_feed_ctx_release(&fr->ctx);
    gp_buf_wipe(&fr->post); /* it may hold a client secret */
    gp_buf_release(&fr->post);
    gp_http_response_release(&fr->resp);
    fr->done = true;
}

/* Close the run without new offers, as failed or interrupted; the last good offers stay. */
static void feed_stopped(struct feed_run *fr, enum gp_refresh_status status, const char *why)
{
    struct gp_refresh_result *res = fr->result;

    res->status = status;
    gp_text_copy(res->reason, sizeof(res->reason), why);
    copy_counts(fr);
    if (fr->run_id && !fr->r->fatal &&
        gp_store_refresh_finish(fr->r->store, fr->run_id, fr->cfg->name,
                                gp_refresh_status_name(status), gp_time_now(), &res->counts,
                                res->reason) != 0)
        fr->r->fatal = gp_error_code();
    release_run(fr);
}

static void feed_failed(struct feed_run *fr, const char *why)
{
    feed_stopped(fr, GP_REFRESH_FAILED, why);
}

/* The feed's write failed (the database stops the refresh): keep the reason, and close the run
 * record as failed in a transaction of its own, so it does not stay 'running' (should that fail
 * too, the next refresh marks it failed: gp_store_refresh_recover). */
static void write_failed(struct feed_run *fr)
{
    struct gp_refresh_result *res = fr->result;

    fr->r->fatal = gp_error_code();
    res->status = GP_REFRESH_FAILED;
    gp_text_copy(res->reason, sizeof(res->reason), gp_error_last());
    if (gp_store_refresh_finish(fr->r->store, fr->run_id, fr->cfg->name, "failed", gp_time_now(),
                                &res->counts, res->reason) != 0)
        gp_error_set(fr->r->fatal, "%s", res->reason);
}

/* The validators to keep: a conditional single-document feed that sent some. */
static size_t kept_validators(const struct feed_run *fr)
{
    return fr->conditional && fr->doc_pages == 1 &&
                   (fr->validator.etag[0] || fr->validator.last_modified[0])
               ? 1
               : 0;
}

/* An exchange-rate or electricity feed's pages are all in: store its rates or prices like
 * offers, in one transaction. */
static void series_complete(struct feed_run *fr)
{
    struct gp_refresh_result *res = fr->result;
    struct gp_fx_table rates = {fr->ctx.rates, fr->ctx.nrates};
    bool energy = fr->adapter->yields_energy;
    size_t n = energy ? fr->ctx.nenergy : fr->ctx.nrates;
    int rc;

    if (n == 0) {
        feed_failed(fr, energy ? "no usable electricity prices; keeping the last good ones"
                               : "no usable exchange rates; keeping the last good ones");
        return;
    }
    copy_counts(fr);
    res->status = GP_REFRESH_OK;
    res->counts.offers = n;
    if (!fr->run_id || fr->r->fatal) {
        release_run(fr);
        return;
    }
    rc = energy ? gp_store_refresh_commit_energy(fr->r->store, fr->run_id, fr->cfg->name,
                                                 fr->ctx.energy, n, &fr->validator,
                                                 kept_validators(fr), gp_time_now(), &res->counts)
                : gp_store_refresh_commit_rates(fr->r->store, fr->run_id, fr->cfg->name, &rates,
                                                &fr->validator, kept_validators(fr), gp_time_now(),
                                                &res->counts);
    if (rc != 0)
        write_failed(fr);
    release_run(fr);
}

static void feed_complete(struct feed_run *fr)
{
    struct gp_refresh_result *res = fr->result;
    char why[512];

    if (fr->adapter->finish && fr->adapter->finish(&fr->ctx) != 0) {
        feed_failed(fr, gp_error_last());
        return;
    }
    if (fr->adapter->yields_rates || fr->adapter->yields_energy) {
        series_complete(fr);
        return;
    }
    gp_feed_dedupe(&fr->ctx);
    gp_regions_apply(fr->r->opts->regions, fr->ctx.offers, fr->ctx.count);
    if (fr->ctx.count == 0) {
        snprintf(why, sizeof(why),
                 "no usable offers (%zu rows: %zu rejected, %zu unmapped, %zu out of scope); "
                 "keeping the last good ones",
                 fr->ctx.rows, fr->ctx.rejected, fr->ctx.unmapped, fr->ctx.out_of_scope);
        feed_failed(fr, why);
        return;
    }
    copy_counts(fr);
    res->status = GP_REFRESH_OK;
    res->counts.offers = fr->ctx.count;
    if (fr->run_id && !fr->r->fatal) {
        if (gp_store_refresh_commit(fr->r->store, fr->run_id, fr->cfg->name, fr->ctx.offers,
                                    fr->ctx.count, &fr->validator, kept_validators(fr),
                                    gp_time_now(), &res->counts) != 0)
            write_failed(fr);
    }
    release_run(fr);
}

static void feed_unchanged(struct feed_run *fr)
{
    struct gp_refresh_result *res = fr->result;

    copy_counts(fr);
    res->status = GP_REFRESH_UNCHANGED;
    if (fr->run_id && !fr->r->fatal &&
        gp_store_refresh_finish(fr->r->store, fr->run_id, fr->cfg->name, "unchanged", gp_time_now(),
                                &res->counts, NULL) != 0)
        write_failed(fr);
    release_run(fr);
}

/* ---- requests ------------------------------------------------------------------------ */

static void on_page(void *ctx, const struct gp_http_request *req, struct gp_http_response *resp);

static int stream_data(void *ctx, const char *data, size_t len)
{
    struct feed_run *fr = ctx;
    return fr->adapter->stream_push(fr->stream, data, len);
}

static int stream_restart(void *ctx)
{
    struct feed_run *fr = ctx;

    fr->adapter->stream_free(fr->stream);
    fr->stream = NULL;
    gp_feed_ctx_reset(&fr->ctx);
    return fr->adapter->stream_open(&fr->stream, &fr->ctx);
}

/* The feed's wall-clock deadline: 0, or GP_ERROR once it has passed; else the request carries
 * it, so that no transfer or retry runs past it. */
static int apply_deadline(struct feed_run *fr, struct gp_http_request *req)
{
    const struct gp_refresh_options *o = fr->r->opts;
    double limit = o->feed_deadline_s;

    if (limit <= 0)
        return 0;
    if (fr->adapter->stream_open && (double)o->stream_timeout_s > limit)
        limit = (double)o->stream_timeout_s; /* a streamed offer file gets its whole timeout */
    req->deadline = fr->started + limit;
    if (gp_time_monotonic() + 1 > req->deadline)
        return gp_error_set(GP_ERROR, "the feed ran past its deadline of %.0f s (--deadline)",
                            limit);
    return 0;
}

/* Submit the page at fr->url (and, for POST-paged APIs, the token in ctx.next_token). */
static int submit_page(struct feed_run *fr, bool conditional)
{
    const struct gp_feed_adapter *a = fr->adapter;
    struct gp_http_request *req = &fr->req;
    int rc;

    memset(req, 0, sizeof(*req));
    req->url = fr->url;
    req->max_bytes = a->max_page_bytes;
    req->allow_file = a->allow_file;
    req->headers = a->headers;
    if (a->request_body) {
        gp_buf_reset(&fr->post);
        rc = a->request_body(&fr->post, fr->ctx.next_token);
        if (rc)
            return rc;
        req->method = "POST";
        req->body = fr->post.data;
        req->body_len = fr->post.len;
        req->content_type = a->content_type;
    } else if (fr->src->body[0]) {
        req->method = "POST";
        req->body = fr->src->body;
        req->body_len = strlen(fr->src->body);
        req->content_type = "application/json";
    }
    if (fr->key.present) {
        req->auth = a->auth;
        req->token = fr->key.token;
        req->query_key = a->query_key;
        if (a->auth == GP_HTTP_AUTH_SIGV4) {
            req->user = fr->key.user;
            req->session_token = fr->key.session[0] ? fr->key.session : NULL;
            req->sigv4 = a->sigv4;
        }
    }
    if (conditional) {
        req->etag = fr->validator.etag;
        req->last_modified = fr->validator.last_modified;
    }
    if (a->stream_open) {
        req->timeout_s = fr->r->opts->stream_timeout_s;
        if (fr->stream)
            a->stream_free(fr->stream);
        fr->stream = NULL;
        rc = a->stream_open(&fr->stream, &fr->ctx);
        if (rc)
            return rc;
        req->on_data = stream_data;
        req->on_restart = stream_restart;
        req->ctx = fr;
    }
    if ((rc = apply_deadline(fr, req)))
        return rc;
    fr->ctx.url = fr->url;
    gp_http_response_release(&fr->resp);
    gp_http_response_init(&fr->resp);
    if (gp_msg_level() >= GP_MSG_VERBOSE) {
        char shown[GP_FEED_URL_MAX];
        gp_http_redact_url(shown, sizeof(shown), fr->url);
        gp_msg_note("%s: %s %s%s", fr->cfg->name, req->method ? req->method : "GET", shown,
                    conditional && (fr->validator.etag[0] || fr->validator.last_modified[0])
                        ? " (conditional)"
                        : "");
    }
    return gp_http_submit(fr->r->http, req, &fr->resp, on_page, fr);
}

/* Start document fr->doc: base URL joined with its path. */
static int start_document(struct feed_run *fr)
{
    const char *base = fr->src->base_url;
    char path[GP_FEED_URL_MAX] = "";
    size_t blen = strlen(base);
    int n;

    if (fr->src->path_count &&
        gp_feed_path_expand(path, sizeof(path), fr->src->paths[fr->doc], gp_time_now()))
        return gp_error_wrap("feed %s", fr->cfg->name);

    while (blen && base[blen - 1] == '/' && *path == '/')
        blen--;
    n = snprintf(fr->url, sizeof(fr->url), "%.*s%s%s", (int)blen, base,
                 *path && *path != '/' && *path != '?' && (blen == 0 || base[blen - 1] != '/') ? "/"
                                                                                               : "",
                 path);
    if (n < 0 || (size_t)n >= sizeof(fr->url))
        return gp_error_set(GP_EINVALID, "feed %s: URL longer than %zu bytes", fr->cfg->name,
                            sizeof(fr->url) - 1);
    fr->doc_pages = 0;
    fr->ctx.next_token[0] = '\0';
    fr->ctx.next_url[0] = '\0';
    if (fr->conditional && fr->r->store && !fr->r->opts->dry_run) {
        int rc = gp_store_http_state_get(fr->r->store, fr->cfg->name, fr->url, &fr->validator);
        if (rc)
            return rc;
    } else {
        gp_text_copy(fr->validator.url, sizeof(fr->validator.url), fr->url);
        fr->validator.etag[0] = fr->validator.last_modified[0] = '\0';
    }
    return submit_page(fr, fr->conditional && !fr->r->opts->dry_run);
}

/* A refused page whose body the adapter reads instead of the status alone. */
static bool explained_refusal(const struct feed_run *fr, const struct gp_http_response *resp)
{
    return fr->adapter->explains_refusals && fr->adapter->parse && resp->status >= 400 &&
           resp->status < 500 && resp->status != 429 && resp->body.len > 0 &&
           resp->error != GP_EINTERRUPTED;
}

static void on_page(void *ctx, const struct gp_http_request *req, struct gp_http_response *resp)
{
    struct feed_run *fr = ctx;
    int rc = 0;

    (void)req;
    fr->result->pages++;
    fr->result->bytes += resp->bytes;
    fr->doc_pages++;
    if (gp_msg_level() >= GP_MSG_VERBOSE)
        gp_msg_note("%s: HTTP %ld, %llu bytes, %.2f s%s", fr->cfg->name, resp->status,
                    (unsigned long long)resp->bytes, resp->seconds,
                    resp->attempts > 1 ? " (retried)" : "");
    if (resp->error && !explained_refusal(fr, resp)) {
        feed_stopped(fr,
                     resp->error == GP_EINTERRUPTED ? GP_REFRESH_INTERRUPTED : GP_REFRESH_FAILED,
                     resp->message);
        return;
    }
    if (resp->status == 304) {
        if (fr->conditional) {
            feed_unchanged(fr);
            return;
        }
        feed_failed(fr, "the server answered 304 Not Modified to an unconditional request");
        return;
    }
    if (fr->doc_pages == 1 && !resp->error) {
        gp_text_copy(fr->validator.etag, sizeof(fr->validator.etag), resp->etag);
        gp_text_copy(fr->validator.last_modified, sizeof(fr->validator.last_modified),
                     resp->last_modified);
    }
    rc = fr->adapter->stream_open
             ? fr->adapter->stream_end(fr->stream)
             : fr->adapter->parse(&fr->ctx, resp->body.data ? resp->body.data : "", resp->body.len);
    if (rc && resp->error)
        gp_error_wrap("HTTP %ld", resp->status);
    if (rc) {
        feed_failed(fr, gp_error_last());
        return;
    }
    gp_buf_release(&resp->body);

    if (fr->ctx.next_url[0] || fr->ctx.next_token[0]) {
        size_t cap = fr->adapter->max_pages ? fr->adapter->max_pages : 1;
        if (fr->doc_pages >= cap) {
            char why[160];
            snprintf(why, sizeof(why),
                     "more than %zu pages, the most a %s document has: the next-page links "
                     "do not end",
                     cap, fr->adapter->name);
            feed_failed(fr, why);
            return;
        }
        if (fr->ctx.next_url[0]) {
            if (strcmp(fr->ctx.next_url, fr->url) == 0) {
                feed_failed(fr, "the next-page link points at the same page");
                return;
            }
            gp_text_copy(fr->url, sizeof(fr->url), fr->ctx.next_url);
        }
        rc = submit_page(fr, false);
    } else if (++fr->doc < source_paths(fr->src)) {
        rc = start_document(fr);
    } else {
        feed_complete(fr);
        return;
    }
    if (rc)
        feed_failed(fr, gp_error_last());
}

/* ---- the access token of client-credentials feeds ------------------------------------- */

/* The token endpoint has answered: its bearer token replaces the client secret in the key,
 * and the first document starts. */
static void on_token(void *ctx, const struct gp_http_request *req, struct gp_http_response *resp)
{
    struct feed_run *fr = ctx;
    char token[sizeof(fr->key.token)];
    int rc;

    (void)req;
    gp_buf_wipe(&fr->post);
    fr->result->pages++;
    fr->result->bytes += resp->bytes;
    if (resp->error) {
        char why[sizeof(resp->message) + 64];
        snprintf(why, sizeof(why), "cannot get an access token: %s", resp->message);
        feed_stopped(
            fr, resp->error == GP_EINTERRUPTED ? GP_REFRESH_INTERRUPTED : GP_REFRESH_FAILED, why);
        return;
    }
    rc = gp_oauth_token_read(token, sizeof(token), resp->body.data ? resp->body.data : "",
                             resp->body.len, fr->url);
    gp_buf_wipe(&resp->body);
    if (!rc) {
        gp_feed_key_wipe(&fr->key);
        fr->key.present = true;
        memcpy(fr->key.token, token, sizeof(token));
        rc = start_document(fr);
    }
    gp_wipe(token, sizeof(token));
    if (rc)
        feed_failed(fr, gp_error_last());
}

/* POST the client id and secret to the adapter's token path, with no redirect followed. */
static int request_token(struct feed_run *fr)
{
    struct gp_http_request *req = &fr->req;
    int n = snprintf(fr->url, sizeof(fr->url), "%s%s", fr->src->base_url, fr->adapter->token_path);
    int rc;

    if (n < 0 || (size_t)n >= sizeof(fr->url))
        return gp_error_set(GP_EINVALID, "feed %s: token URL longer than %zu bytes", fr->cfg->name,
                            sizeof(fr->url) - 1);
    if ((rc = gp_oauth_token_request(&fr->post, fr->key.user, fr->key.token)))
        return rc;
    memset(req, 0, sizeof(*req));
    req->url = fr->url;
    req->method = "POST";
    req->body = fr->post.data;
    req->body_len = fr->post.len;
    req->content_type = "application/json";
    req->max_bytes = (size_t)64 << 10;
    req->no_redirects = true;
    if ((rc = apply_deadline(fr, req)))
        return rc;
    gp_http_response_release(&fr->resp);
    gp_http_response_init(&fr->resp);
    if (gp_msg_level() >= GP_MSG_VERBOSE)
        gp_msg_note("%s: POST %s (client credentials)", fr->cfg->name, fr->url);
    return gp_http_submit(fr->r->http, req, &fr->resp, on_token, fr);
}

/* ---- set-up -------------------------------------------------------------------------- */

static int select_feeds(struct gp_feed_configs *cfg, const struct gp_refresh_options *opts,
                        bool *chosen)
{
    for (size_t i = 0; i < cfg->count; i++)
        chosen[i] = opts->only_count == 0 && cfg->feeds[i].enabled;
    for (size_t k = 0; k < opts->only_count; k++) {
        struct gp_feed_config *f = gp_feed_configs_find(cfg, opts->only[k]);
        if (!f) {
            const char *near = gp_feed_configs_nearest(cfg, opts->only[k]);
            return gp_error_set(GP_EINVALID, "--feed: no feed named '%s'%s%s%s", opts->only[k],
                                near ? " (did you mean '" : "", near ? near : "",
                                near ? "'?)" : "");
        }
        chosen[f - cfg->feeds] = true;
    }
    return 0;
}

/* Prepare one feed; returns 0 with the run started, skipped or failed, or a fatal error. */
static int start_feed(struct refresh *r, struct feed_run *fr, const struct gp_catalog *catalog,
                      const struct gp_fx_table *fx)
{
    const struct gp_feed_config *f = fr->cfg;
    struct gp_refresh_result *res = fr->result;
    int rc;

    gp_text_copy(res->feed, sizeof(res->feed), f->name);
    fr->r = r;
    fr->started = gp_time_monotonic();
    gp_buf_init(&fr->post, (size_t)64 << 10);
    gp_http_response_init(&fr->resp);
    gp_feed_ctx_init(&fr->ctx, f->name, f->provider, gp_time_now(), fx, catalog);

    rc = gp_feed_key_load(&fr->key, f);
    if (rc) {
        /* a refused key file: this feed fails, the others go on */
        fr->run_id = 0;
        fr->adapter = gp_feed_adapter_find(f->source.adapter);
        gp_text_copy(res->adapter, sizeof(res->adapter), f->source.adapter);
        res->status = GP_REFRESH_FAILED;
        gp_text_copy(res->reason, sizeof(res->reason), gp_error_last());
        gp_error_clear();
        release_run(fr);
        return 0;
    }
    fr->src = fr->key.present && *f->keyed.adapter ? &f->keyed : &f->source;
    fr->adapter = gp_feed_adapter_find(fr->src->adapter);
    gp_text_copy(res->adapter, sizeof(res->adapter), fr->src->adapter);
    res->tiers = fr->adapter->tiers;
    fr->ctx.base_url = fr->src->base_url;
    fr->conditional = source_paths(fr->src) == 1 && !fr->adapter->request_body && !fr->src->body[0];

    if (fr->adapter->key_required && !fr->key.present) {
        res->status = GP_REFRESH_SKIPPED;
        if (*f->key_file)
            snprintf(res->reason, sizeof(res->reason), "needs a key: set %s or create %.400s",
                     *f->key_env ? f->key_env : "its key variable", f->key_file);
        else
            snprintf(res->reason, sizeof(res->reason), "needs a key: set %s",
                     *f->key_env ? f->key_env : "its key variable");
        release_run(fr);
        return 0;
    }
    if (gp_http_has_credentials(fr->src->base_url)) {
        res->status = GP_REFRESH_FAILED;
        snprintf(res->reason, sizeof(res->reason),
                 "the base URL carries credentials; put the key in key_env or key_file instead");
        release_run(fr);
        return 0;
    }

    if (!r->opts->dry_run) {
        rc = gp_store_refresh_begin(r->store, f->name, gp_time_now(), &fr->run_id);
        if (rc)
            return rc;
    }
    rc = fr->adapter->token_path && fr->key.present ? request_token(fr) : start_document(fr);
    if ((rc == GP_ENOMEM || rc == GP_EDB) && fr->run_id)
        write_failed(fr); /* the refresh stops, and the run record says why */
    if (rc == GP_ENOMEM || rc == GP_EDB)
        return rc;
    if (rc)
        feed_failed(fr, gp_error_last());
    return 0;
}

/* The message of a refresh stopped by a signal: what was stored and what was not. */
static int interrupted(const struct gp_refresh_report *out)
{
    size_t stopped = 0, stored = 0;

    for (size_t k = 0; k < out->count; k++) {
        stopped += out->feeds[k].status == GP_REFRESH_INTERRUPTED;
        stored +=
            out->feeds[k].status == GP_REFRESH_OK || out->feeds[k].status == GP_REFRESH_UNCHANGED;
    }
    return gp_error_set(GP_EINTERRUPTED,
                        "interrupted by %s: %zu feed%s stopped (%s last good offers kept), "
                        "%zu stored before the stop",
                        gp_interrupt_name(), stopped, stopped == 1 ? "" : "s",
                        stopped == 1 ? "its" : "their", stored);
}

int gp_refresh_run(struct gp_refresh_report *out, struct gp_store *store,
                   struct gp_feed_configs *cfg, const struct gp_catalog *catalog,
                   const struct gp_fx_table *fx, const struct gp_refresh_options *opts)
{
    struct refresh r = {.store = store, .opts = opts};
    bool *chosen = calloc(cfg->count ? cfg->count : 1, sizeof(*chosen));
    int lock = -1;
    int rc;

    memset(out, 0, sizeof(*out));
    if (!chosen)
        return gp_error_set(GP_ENOMEM, "out of memory");
    rc = select_feeds(cfg, opts, chosen);
    if (rc)
        goto done;
    for (size_t i = 0; i < cfg->count; i++)
        r.count += chosen[i];
    r.runs = calloc(r.count ? r.count : 1, sizeof(*r.runs));
    out->feeds = calloc(r.count ? r.count : 1, sizeof(*out->feeds));
    if (!r.runs || !out->feeds) {
        rc = gp_error_set(GP_ENOMEM, "out of memory");
        goto done;
    }
    out->count = r.count;

    if (!opts->dry_run) {
        rc = gp_store_refresh_lock(store, opts->lock_wait_s, &lock);
        if (!rc)
            rc = gp_store_refresh_recover(store, gp_time_now());
        if (rc)
            goto done;
    }
    rc = gp_http_client_new(&r.http, &opts->http);
    if (rc)
        goto done;

    for (size_t i = 0, k = 0; i < cfg->count && !rc; i++) {
        if (!chosen[i])
            continue;
        r.runs[k].cfg = &cfg->feeds[i];
        r.runs[k].result = &out->feeds[k];
        rc = start_feed(&r, &r.runs[k], catalog, fx);
        k++;
    }
    if (!rc)
        rc = gp_http_run(r.http);
    if (rc == GP_EINTERRUPTED && !r.fatal)
        rc = interrupted(out);
    if (!rc && r.fatal)
        rc = r.fatal;
    for (size_t k = 0; k < out->count; k++)
        out->failed += out->feeds[k].status == GP_REFRESH_FAILED;

done:
    gp_http_client_free(r.http);
    for (size_t k = 0; r.runs && k < r.count; k++)
        if (!r.runs[k].done && r.runs[k].result)
            release_run(&r.runs[k]);
    free(r.runs);
    free(chosen);
    gp_store_refresh_unlock(lock);
    if (rc)
        gp_refresh_report_release(out);
    return rc;
}

void gp_refresh_report_release(struct gp_refresh_report *report)
{
    if (!report)
        return;
    free(report->feeds);
    report->feeds = NULL;
    report->count = report->failed = 0;
}
