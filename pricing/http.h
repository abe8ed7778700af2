/* HTTP transfers for the price feeds: the one place gpuplan talks to libcurl. */
#ifndef GP_PRICING_HTTP_H
#define GP_PRICING_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/*
 * Policy, fixed here rather than left to callers: TLS peers and host names are always
 * verified; plain http is allowed only to loopback hosts unless allow_insecure_http is set;
 * file:// only where a request asks for it; redirects only to https (and http when insecure
 * http is allowed); compressed bodies are accepted; the proxy variables (https_proxy,
 * no_proxy, ...) are honoured except for loopback hosts, which are always reached directly.
 */
struct gp_http_options {
    const char *user_agent;   /* "gpuplan/<version>" (borrowed) */
    long connect_timeout_s;   /* connect timeout, seconds */
    long timeout_s;           /* whole-transfer timeout per attempt, seconds */
    long low_speed_time_s;    /* abort when below low_speed_bps for this long, seconds */
    long low_speed_bps;       /* bytes per second */
    int max_attempts;         /* attempts per request including the first, >= 1 */
    double backoff_s;         /* delay before the first retry, seconds; doubles each retry */
    double max_retry_after_s; /* a longer Retry-After fails the request instead, seconds */
    int max_parallel;         /* transfers running at once, >= 1 */
    bool allow_insecure_http; /* plain http to any host */
};

/* The defaults: 10 s connect, 120 s per attempt, 1 KB/s over 30 s, 4 attempts, 1 s backoff,
 * Retry-After up to 120 s, 4 parallel transfers, https only. */
void gp_http_options_init(struct gp_http_options *opts, const char *user_agent);

enum gp_http_auth {
    GP_HTTP_AUTH_NONE,
    GP_HTTP_AUTH_BEARER, /* Authorization: Bearer <token> */
    GP_HTTP_AUTH_BASIC,  /* user = token, empty password */
    GP_HTTP_AUTH_SIGV4,  /* AWS Signature V4: user = access key id, password = secret key */
    GP_HTTP_AUTH_QUERY,  /* the token as the query parameter `query_key` (ENTSO-E's
                            securityToken), added to the URL libcurl is given and to no other */
};

/* Receives streamed body bytes; returns 0 or a GP_E* code (with the error set) to abort. */
typedef int (*gp_http_data_fn)(void *ctx, const char *data, size_t len);
/* Called before a streamed request is retried from the start; returns 0 or a GP_E* code. */
typedef int (*gp_http_restart_fn)(void *ctx);

/*
 * One request. Every pointer is borrowed and must stay valid until the request completes.
 * Secrets (token, password, session_token) are handed to libcurl only: they never appear in
 * messages, in the response or in verbose output.
 */
struct gp_http_request {
    const char *url;
    const char *method; /* NULL: GET, or POST when body is set */
    const char *body;   /* request body, body_len bytes; NULL for none */
    size_t body_len;
    const char *content_type;   /* for the body */
    const char *const *headers; /* extra "Name: value" lines, NULL-terminated; never secrets */
    enum gp_http_auth auth;
    const char *user;              /* basic user / SigV4 access key id */
    const char *token;             /* bearer token / SigV4 secret key */
    const char *session_token;     /* SigV4 session token (X-Amz-Security-Token); NULL if none */
    const char *sigv4;             /* SigV4 scope "aws:amz:<region>:<service>" */
    const char *query_key;         /* GP_HTTP_AUTH_QUERY: the parameter that carries `token` */
    const char *etag;              /* validator from the last transfer, sent as If-None-Match */
    const char *last_modified;     /* sent as If-Modified-Since */
    size_t max_bytes;              /* response body cap, bytes; 0 = GP_BUF_DEFAULT_LIMIT */
    long timeout_s;                /* whole-transfer timeout, seconds; 0 = the client's */
    double deadline;               /* monotonic seconds (gp_time_monotonic) past which no
                                      attempt runs or starts; 0 = none */
    bool allow_file;               /* file:// URLs are permitted */
    bool no_redirects;             /* a redirect is a failure (a request that sends a secret
                                      in its body never follows one) */
    gp_http_data_fn on_data;       /* stream the body here instead of buffering it */
    gp_http_restart_fn on_restart; /* NULL: a streamed request is not retried once data came */
    void *ctx;                     /* for on_data and on_restart */
};

/* What came back. Initialise with gp_http_response_init, free with gp_http_response_release. */
struct gp_http_response {
    int error;              /* 0, or GP_ENET / GP_EINVALID when the request failed */
    char message[1024];     /* why it failed, naming the URL (credentials removed) */
    long status;            /* HTTP status of the last attempt; 0 when none came */
    struct gp_buf body;     /* the body when not streamed */
    char etag[256];         /* ETag of the response, "" if none */
    char last_modified[64]; /* Last-Modified of the response, "" if none */
    int attempts;           /* attempts made */
    uint64_t bytes;         /* body bytes of the last attempt */
    double seconds;         /* wall time from submission to completion, seconds */
};

/* Read one response header line (`len` bytes, not terminated, as libcurl hands it over) into
 * `resp`: a status line clears the validators, ETag and Last-Modified set them (dropped when
 * too long to keep whole). Other headers are left to libcurl: Retry-After is read through
 * CURLINFO_RETRY_AFTER. */
void gp_http_header_line(struct gp_http_response *resp, const char *data, size_t len);

void gp_http_response_init(struct gp_http_response *resp);
void gp_http_response_release(struct gp_http_response *resp);

/* Called once per completed request (success or failure); it may submit further requests. */
typedef void (*gp_http_done_fn)(void *ctx, const struct gp_http_request *req,
                                struct gp_http_response *resp);

struct gp_http_client; /* opaque; runs many transfers at once */

/* Set up libcurl; call once at program start, before any thread exists. */
int gp_http_global_init(void);
void gp_http_global_cleanup(void);

/* *out is owned by the caller: gp_http_client_free. GP_ENOMEM or GP_ERROR on failure. */
int gp_http_client_new(struct gp_http_client **out, const struct gp_http_options *opts);
void gp_http_client_free(struct gp_http_client *client);

/*
 * Queue `req`; its outcome is written to `resp` (initialised by the caller) and `done` is
 * called from gp_http_run. A URL the policy refuses completes at once with resp->error set.
 * Returns 0 or GP_ENOMEM.
 */
int gp_http_submit(struct gp_http_client *client, const struct gp_http_request *req,
                   struct gp_http_response *resp, gp_http_done_fn done, void *ctx);

/* Run queued transfers, retries and whatever the callbacks submit, until none is left. */
int gp_http_run(struct gp_http_client *client);

/* One request, synchronously. Returns resp->error. */
int gp_http_fetch(const struct gp_http_options *opts, const struct gp_http_request *req,
                  struct gp_http_response *resp);

/* Whether `url` names a loopback host (localhost, 127.0.0.0/8, ::1). */
bool gp_http_is_loopback(const char *url);

/* Whether a response status is worth another attempt: 408, 429, 500, 502, 503 and 504, the set
 * curl's --retry uses. */
bool gp_http_retryable_status(long status);

/* Whether `url` carries a user name or password ("https://user:secret@host/"). */
bool gp_http_has_credentials(const char *url);

/* Copy `url` into out[size] without its user:password part and with secret query values (api_key,
 * token, signature, ...) as "***", for messages and the store. */
void gp_http_redact_url(char *out, size_t size, const char *url);

/* Percent-encode `text` for a query string into `out`. */
int gp_http_escape(struct gp_buf *out, const char *text);

#endif
