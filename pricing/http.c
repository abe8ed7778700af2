/* libcurl behind the price feeds: a multi-handle loop with retries, backoff, validators and
 * caps, so adapters and the refresh never see a transfer. */
#include "pricing/http.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pricing/curl_api.h"

#include "util/error.h"
#include "util/interrupt.h"
#include "util/sanitize.h"
#include "util/text.h"
#include "util/timeutil.h"

void gp_http_options_init(struct gp_http_options *opts, const char *user_agent)
{
    opts->user_agent = user_agent;
    opts->connect_timeout_s = 10;
    opts->timeout_s = 120;
    opts->low_speed_time_s = 30;
    opts->low_speed_bps = 1024;
    opts->max_attempts = 4;
    opts->backoff_s = 1.0;
    opts->max_retry_after_s = 120.0;
    opts->max_parallel = 4;
    opts->allow_insecure_http = false;
}

void gp_http_response_init(struct gp_http_response *resp)
{
    memset(resp, 0, sizeof(*resp));
    gp_buf_init(&resp->body, 0);
}

void gp_http_response_release(struct gp_http_response *resp)
{
    if (!resp)
        return;
    gp_buf_release(&resp->body);
}

/* libcurl's functions once loaded (pricing/curl_api.c): every transfer and URL function below
 * runs only after loaded() said yes. */
static const struct gp_curl_api *cu;

/* Whether libcurl is loaded, loading it on the first call (GP_ERROR set when it cannot be). */
static bool loaded(void)
{
    return cu || (cu = gp_curl_api()) != NULL;
}

int gp_http_global_init(void)
{
    if (!loaded())
        return GP_ERROR;
    if (cu->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return gp_error_set(GP_ERROR, "cannot initialise libcurl");
    return 0;
}

void gp_http_global_cleanup(void)
{
    if (cu)
        cu->global_cleanup();
}

/* ---- URLs ---------------------------------------------------------------------------- */

bool gp_http_is_loopback(const char *url)
{
    CURLU *u = loaded() ? cu->url() : NULL;
    char *host = NULL;
    bool loopback = false;

    if (!u)
        return false;
    if (cu->url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        cu->url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
        loopback = gp_text_ieq(host, "localhost") || strcmp(host, "[::1]") == 0 ||
                   strncmp(host, "127.", 4) == 0;
        if (strncmp(host, "127.", 4) == 0)
            for (const char *p = host + 4; *p; p++)
                if (!isdigit((unsigned char)*p) && *p != '.')
                    loopback = false;
    }
    cu->free(host);
    cu->url_cleanup(u);
    return loopback;
}

bool gp_http_has_credentials(const char *url)
{
    CURLU *u = loaded() ? cu->url() : NULL;
    char *user = NULL, *password = NULL;
    bool found;

    if (!u || cu->url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK) {
        /* not a URL curl can read: treat an '@' before the path as credentials */
        const char *sep = strstr(url, "://");
        const char *host = sep ? sep + 3 : url;
        found = memchr(host, '@', strcspn(host, "/?#")) != NULL;
    } else {
        cu->url_get(u, CURLUPART_USER, &user, 0);
        cu->url_get(u, CURLUPART_PASSWORD, &password, 0);
        found = user || password;
    }
    if (u) { /* libcurl is loaded */
        cu->free(user);
        cu->free(password);
        cu->url_cleanup(u);
    }
    return found;
}

void gp_http_redact_url(char *out, size_t size, const char *url)
{
    CURLU *u = loaded() ? cu->url() : NULL;
    char *clean = NULL;

    if (u && cu->url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&
        cu->url_set(u, CURLUPART_USER, NULL, 0) == CURLUE_OK &&
        cu->url_set(u, CURLUPART_PASSWORD, NULL, 0) == CURLUE_OK &&
        cu->url_get(u, CURLUPART_URL, &clean, 0) == CURLUE_OK) {
        gp_sanitize_urls(out, size, clean); /* keys in the query string */
    } else {
        /* Not a URL curl understands (or no libcurl): keep it only if it cannot hold
         * credentials, and never the keys of its query string. */
        if (strchr(url, '@'))
            gp_text_copy(out, size, "(unparseable URL)");
        else
            gp_sanitize_urls(out, size, url);
    }
    if (u) { /* libcurl is loaded */
        cu->free(clean);
        cu->url_cleanup(u);
    }
}

int gp_http_escape(struct gp_buf *out, const char *text)
{
    static const char hex[] = "0123456789ABCDEF";
    int rc = 0;

    for (const unsigned char *p = (const unsigned char *)text; *p && !rc; p++) {
        if (isalnum(*p) || strchr("-._~", *p)) {
            rc = gp_buf_putc(out, (char)*p);
        } else {
            char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
            rc = gp_buf_append(out, esc, 3);
        }
    }
    return rc;
}

/* The scheme of `url` in lower case into out[size]; "" when there is none. */
static void url_scheme(char *out, size_t size, const char *url)
{
    size_t n = strcspn(url, ":");
    out[0] = '\0';
    if (url[n] != ':' || n == 0 || n >= size)
        return;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)url[i]);
    out[n] = '\0';
}

/* ---- transfers ----------------------------------------------------------------------- */

enum xfer_state { XFER_WAITING, XFER_RUNNING, XFER_DONE };

struct xfer {
    struct xfer *next;
    struct gp_http_client *client;
    const struct gp_http_request *req;
    struct gp_http_response *resp;
    gp_http_done_fn done;
    void *ctx;
    enum xfer_state state;
    double not_before; /* monotonic seconds when a waiting transfer may start */
    double submitted;  /* monotonic seconds */
    CURL *easy;
    struct curl_slist *headers;
    CURLU *credential_url; /* GP_HTTP_AUTH_QUERY: req->url with the token added; owned */
    char errbuf[CURL_ERROR_SIZE];
    char shown_url[256]; /* the URL without credentials, for messages */
    int abort_code;      /* set by the write callback: why it stopped the transfer */
    char abort_msg[640];
    bool streamed_data; /* on_data has been given bytes in this attempt */
    bool insecure_ok;   /* plain http allowed for this transfer */
};

struct gp_http_client {
    struct gp_http_options opts;
    CURLM *multi;
    struct xfer *xfers; /* every transfer not yet reported done */
    int running;
    uint64_t rng;
};

/* Uniform in [0, 1): xorshift64*, seeded per client; jitter needs no more. */
static double next_random(struct gp_http_client *c)
{
    c->rng ^= c->rng >> 12;
    c->rng ^= c->rng << 25;
    c->rng ^= c->rng >> 27;
    return (double)((c->rng * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

int gp_http_client_new(struct gp_http_client **out, const struct gp_http_options *opts)
{
    struct gp_http_client *c;

    *out = NULL;
    if (!loaded())
        return GP_ERROR;
    if (!(c = calloc(1, sizeof(*c))))
        return gp_error_set(GP_ENOMEM, "out of memory creating an HTTP client");
    c->opts = *opts;
    if (c->opts.max_attempts < 1)
        c->opts.max_attempts = 1;
    if (c->opts.max_parallel < 1)
        c->opts.max_parallel = 1;
    c->multi = cu->multi_init();
    if (!c->multi) {
        free(c);
        return gp_error_set(GP_ERROR, "cannot create a libcurl multi handle");
    }
    c->rng = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ 0x9E3779B97F4A7C15ULL;
    *out = c;
    return 0;
}

static void xfer_cleanup_easy(struct xfer *x)
{
    if (x->easy) {
        cu->multi_remove_handle(x->client->multi, x->easy);
        cu->easy_cleanup(x->easy);
        x->easy = NULL;
    }
    cu->slist_free_all(x->headers);
    x->headers = NULL;
    if (x->credential_url)
        cu->url_cleanup(x->credential_url);
    x->credential_url = NULL;
}

void gp_http_client_free(struct gp_http_client *client)
{
    if (!client)
        return;
    while (client->xfers) {
        struct xfer *x = client->xfers;
        client->xfers = x->next;
        xfer_cleanup_easy(x);
        free(x);
    }
    cu->multi_cleanup(client->multi);
    free(client);
}

static size_t body_limit(const struct gp_http_request *req)
{
    return req->max_bytes ? req->max_bytes : GP_BUF_DEFAULT_LIMIT;
}

static size_t on_write(char *data, size_t size, size_t nmemb, void *userp)
{
    struct xfer *x = userp;
    struct gp_http_response *resp = x->resp;
    size_t len = size * nmemb;

    if (len > body_limit(x->req) - (size_t)resp->bytes) {
        x->abort_code = GP_EINVALID;
        snprintf(x->abort_msg, sizeof(x->abort_msg), "response from %s exceeds the %zu-byte cap",
                 x->shown_url, body_limit(x->req));
        return 0;
    }
    resp->bytes += len;
    if (x->req->on_data) {
        long status = 0;
        /* an error page is not the document: it is not given to the parser */
        cu->easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
        if (status >= 300)
            return len;
        x->streamed_data = true;
        if (x->req->on_data(x->req->ctx, data, len) != 0) {
            x->abort_code = gp_error_code() ? gp_error_code() : GP_EINVALID;
            gp_text_copy(x->abort_msg, sizeof(x->abort_msg), gp_error_last());
            return 0;
        }
        return len;
    }
    if (gp_buf_append(&resp->body, data, len) != 0) {
        x->abort_code = gp_error_code();
        snprintf(x->abort_msg, sizeof(x->abort_msg), "response from %s: %s", x->shown_url,
                 gp_error_last());
        return 0;
    }
    return len;
}

/* Whether `location`, a redirect target relative to `from`, has the scheme, host and port of
 * `from`. Anything that does not parse counts as another origin. */
static bool same_origin(const char *from, const char *location)
{
    static const CURLUPart parts[] = {CURLUPART_SCHEME, CURLUPART_HOST, CURLUPART_PORT};
    CURLU *a = cu->url(), *b = NULL;
    bool same = a && cu->url_set(a, CURLUPART_URL, from, 0) == CURLUE_OK &&
                (b = cu->url_dup(a)) != NULL &&
                cu->url_set(b, CURLUPART_URL, location, 0) == CURLUE_OK;

    for (size_t i = 0; same && i < sizeof(parts) / sizeof(parts[0]); i++) {
        char *pa = NULL, *pb = NULL;
        same = cu->url_get(a, parts[i], &pa, CURLU_DEFAULT_PORT) == CURLUE_OK &&
               cu->url_get(b, parts[i], &pb, CURLU_DEFAULT_PORT) == CURLUE_OK &&
               gp_text_ieq(pa, pb);
        cu->free(pa);
        cu->free(pb);
    }
    cu->url_cleanup(a);
    cu->url_cleanup(b);
    return same;
}

/* A redirect of a request that carries a session token in its own header is followed only on
 * the same origin: libcurl drops Authorization and Cookie on a cross-origin redirect, but not
 * X-Amz-Security-Token. Returns false (and sets the abort reason) to stop the transfer. */
static bool redirect_allowed(struct xfer *x, const char *header, size_t len)
{
    char *from = NULL, *location;
    long status = 0;
    bool ok;

    if (!x->req->session_token || len < 9 || strncasecmp(header, "Location:", 9) != 0)
        return true;
    cu->easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
    cu->easy_getinfo(x->easy, CURLINFO_EFFECTIVE_URL, &from);
    if (status < 300 || status > 399 || !from)
        return true;
    location = strndup(header + 9, len - 9);
    if (!location) {
        x->abort_code = GP_ENOMEM;
        gp_text_copy(x->abort_msg, sizeof(x->abort_msg), "out of memory reading a redirect");
        return false;
    }
    location[strcspn(location, "\r\n")] = '\0';
    ok = same_origin(from, location + strspn(location, " \t"));
    free(location);
    if (!ok) {
        x->abort_code = GP_ENET;
        snprintf(x->abort_msg, sizeof(x->abort_msg),
                 "%s redirects to another origin, which is not followed with AWS session "
                 "credentials",
                 x->shown_url);
    }
    return ok;
}

/* Keep ETag and Last-Modified of the final response (a redirect's headers are overwritten). */
void gp_http_header_line(struct gp_http_response *resp, const char *data, size_t len)
{
    char line[320];
    size_t n = len < sizeof(line) - 1 ? len : sizeof(line) - 1;
    char *value;
    char *dst = NULL;
    size_t dst_size = 0;

    memcpy(line, data, n);
    line[n] = '\0';
    if (strncmp(line, "HTTP/", 5) == 0) {
        resp->etag[0] = '\0';
        resp->last_modified[0] = '\0';
        return;
    }
    value = strchr(line, ':');
    if (!value)
        return;
    *value++ = '\0';
    if (gp_text_ieq(line, "ETag")) {
        dst = resp->etag;
        dst_size = sizeof(resp->etag);
    } else if (gp_text_ieq(line, "Last-Modified")) {
        dst = resp->last_modified;
        dst_size = sizeof(resp->last_modified);
    }
    if (dst) {
        while (*value == ' ' || *value == '\t')
            value++;
        value[strcspn(value, "\r\n")] = '\0';
        if (gp_text_copy(dst, dst_size, value) != 0)
            dst[0] = '\0'; /* a validator cut short would never match; drop it */
    }
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *userp)
{
    struct xfer *x = userp;
    size_t len = size * nmemb;

    if (!redirect_allowed(x, data, len))
        return 0;
    gp_http_header_line(x->resp, data, len);
    return len;
}

/* A file:// URL names a regular file: a FIFO or device would hold the transfer open past any
 * timeout (reading a file is not a transfer libcurl can time out). */
static int check_file_url(struct xfer *x)
{
    CURLU *url = cu->url();
    char *path = NULL;
    struct stat st;
    int rc = 0;

    if (!url)
        return gp_error_set(GP_ENOMEM, "out of memory parsing %s", x->shown_url);
    if (cu->url_set(url, CURLUPART_URL, x->req->url, 0) != CURLUE_OK ||
        cu->url_get(url, CURLUPART_PATH, &path, CURLU_URLDECODE) != CURLUE_OK)
        rc = gp_error_set(GP_EINVALID, "%s: not a file URL curl can read", x->shown_url);
    else if (stat(path, &st) != 0)
        rc = gp_error_set(GP_EINVALID, "%s: %s", x->shown_url, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = gp_error_set(GP_EINVALID,
                          "%s: not a regular file (a FIFO, device or folder is not read)",
                          x->shown_url);
    cu->free(path);
    cu->url_cleanup(url);
    return rc;
}

/* Refuse what the policy forbids before any connection is made. */
static int check_url(struct xfer *x)
{
    const struct gp_http_request *req = x->req;
    char scheme[16];

    url_scheme(scheme, sizeof(scheme), req->url);
    if (strcmp(scheme, "https") == 0)
        return 0;
    if (strcmp(scheme, "file") == 0) {
        if (req->allow_file)
            return check_file_url(x);
        return gp_error_set(GP_EINVALID, "%s: file:// is only allowed for generic price lists",
                            x->shown_url);
    }
    if (strcmp(scheme, "http") == 0) {
        if (x->client->opts.allow_insecure_http || gp_http_is_loopback(req->url))
            return 0;
        return gp_error_set(GP_EINVALID,
                            "%s: refusing plain http to a non-loopback host "
                            "(use https, or --allow-insecure-http)",
                            x->shown_url);
    }
    return gp_error_set(GP_EINVALID, "%s: unsupported URL scheme (use https)", x->shown_url);
}

static bool address_is_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
        return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
        static const unsigned char v4_mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        const unsigned char *b = in6->sin6_addr.s6_addr;
        if (memcmp(b, &in6addr_loopback, 16) == 0)
            return true;
        return memcmp(b, v4_mapped, 12) == 0 && b[12] == 127;
    }
    return false;
}

/* Opens the socket of a plain-http transfer only towards a loopback address. */
static curl_socket_t open_loopback_socket(void *clientp, curlsocktype purpose,
                                          struct curl_sockaddr *address)
{
    struct xfer *x = clientp;

    (void)purpose;
    if (!address_is_loopback(&address->addr)) {
        x->abort_code = GP_EINVALID;
        snprintf(x->abort_msg, sizeof(x->abort_msg),
                 "%s: refusing plain http: the host resolves to an address that is not loopback",
                 x->shown_url);
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

/* Append "name: value" (or the whole line `value` when name is NULL) to the transfer's
 * headers. The line is built in a buffer that is wiped after libcurl has copied it, since a
 * session token travels this way. */
static int add_header(struct xfer *x, const char *name, const char *value)
{
    struct gp_buf line = GP_BUF_INIT;
    struct curl_slist *l = NULL;
    int rc = name ? gp_buf_printf(&line, "%s: %s", name, value) : gp_buf_puts(&line, value);

    if (rc == 0)
        l = cu->slist_append(x->headers, line.data);
    if (line.data)
        memset(line.data, 0, line.len);
    gp_buf_release(&line);
    if (!l)
        return -1;
    x->headers = l;
    return 0;
}

#define SETOPT(easy, opt, val)                                                                     \
    do {                                                                                           \
        if (cu->easy_setopt(easy, opt, val) != CURLE_OK)                                           \
            goto fail;                                                                             \
    } while (0)

/* Forget what the previous attempt left: the handle, errors and the response so far. */
static void xfer_reset(struct xfer *x)
{
    xfer_cleanup_easy(x);
    x->errbuf[0] = '\0';
    x->abort_code = 0;
    x->abort_msg[0] = '\0';
    x->streamed_data = false;
    x->resp->bytes = 0;
    x->resp->status = 0;
    x->resp->etag[0] = '\0';
    x->resp->last_modified[0] = '\0';
    gp_buf_release(&x->resp->body);
    gp_buf_init(&x->resp->body, body_limit(x->req));
}

/* The whole-transfer timeout of the next attempt, seconds: the request's or the client's, cut to
 * what is left before the request's deadline (at least 1 s: curl reads 0 as no limit). */
static long attempt_timeout(const struct gp_http_request *req, const struct gp_http_options *o)
{
    long timeout = req->timeout_s > 0 ? req->timeout_s : o->timeout_s;
    double left = req->deadline > 0 ? req->deadline - gp_time_monotonic() : 0;

    if (req->deadline > 0 && (timeout <= 0 || left < (double)timeout))
        timeout = left > 1 ? (long)left : 1;
    return timeout;
}

/* The URL with the token as its query parameter req->query_key, URL-encoded, handed to libcurl
 * as a parsed URL that only the transfer holds: req->url, which messages, logs and the store
 * see, never carries it. Returns 0 or -1. */
static int set_credential_url(struct xfer *x, CURL *e)
{
    const struct gp_http_request *req = x->req;
    char *param;
    size_t size;
    int rc = -1;

    if (!req->query_key || !req->token)
        return -1;
    size = strlen(req->query_key) + strlen(req->token) + 2;
    param = malloc(size);
    x->credential_url = cu->url();
    if (param && x->credential_url) {
        snprintf(param, size, "%s=%s", req->query_key, req->token);
        if (cu->url_set(x->credential_url, CURLUPART_URL, req->url, 0) == CURLUE_OK &&
            cu->url_set(x->credential_url, CURLUPART_QUERY, param,
                        CURLU_APPENDQUERY | CURLU_URLENCODE) == CURLUE_OK &&
            cu->easy_setopt(e, CURLOPT_CURLU, x->credential_url) == CURLE_OK)
            rc = 0;
    }
    if (param) {
        gp_wipe(param, size);
        free(param);
    }
    return rc;
}

/* Callbacks, TLS, timeouts, caps, protocols, and the loopback rule for plain http.
 * Returns 0 or -1 when libcurl refuses an option. */
static int set_transport(struct xfer *x, CURL *e)
{
    const struct gp_http_request *req = x->req;
    const struct gp_http_options *o = &x->client->opts;
    bool insecure = o->allow_insecure_http;
    char scheme[16];

    url_scheme(scheme, sizeof(scheme), req->url);
    if (req->auth == GP_HTTP_AUTH_QUERY && set_credential_url(x, e) != 0)
        goto fail;
    if (!x->credential_url)
        SETOPT(e, CURLOPT_URL, req->url);
    SETOPT(e, CURLOPT_PRIVATE, x);
    SETOPT(e, CURLOPT_ERRORBUFFER, x->errbuf);
    SETOPT(e, CURLOPT_NOSIGNAL, 1L);
    SETOPT(e, CURLOPT_WRITEFUNCTION, on_write);
    SETOPT(e, CURLOPT_WRITEDATA, x);
    SETOPT(e, CURLOPT_HEADERFUNCTION, on_header);
    SETOPT(e, CURLOPT_HEADERDATA, x);
    SETOPT(e, CURLOPT_USERAGENT, o->user_agent);
    SETOPT(e, CURLOPT_SSL_VERIFYPEER, 1L);
    SETOPT(e, CURLOPT_SSL_VERIFYHOST, 2L);
    SETOPT(e, CURLOPT_CONNECTTIMEOUT, o->connect_timeout_s);
    SETOPT(e, CURLOPT_TIMEOUT, attempt_timeout(req, o));
    SETOPT(e, CURLOPT_LOW_SPEED_LIMIT, o->low_speed_bps);
    SETOPT(e, CURLOPT_LOW_SPEED_TIME, o->low_speed_time_s);
    SETOPT(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)body_limit(req));
    SETOPT(e, CURLOPT_ACCEPT_ENCODING, "");
    SETOPT(e, CURLOPT_FOLLOWLOCATION, req->no_redirects ? 0L : 1L);
    SETOPT(e, CURLOPT_MAXREDIRS, 5L);
    SETOPT(e, CURLOPT_PROTOCOLS_STR, req->allow_file ? "http,https,file" : "http,https");
    SETOPT(e, CURLOPT_REDIR_PROTOCOLS_STR, insecure ? "http,https" : "https");
    if (strcmp(scheme, "http") == 0 && !insecure) {
        /* loopback only: never through a proxy, and checked again on the address itself, so
         * a "localhost" that resolves elsewhere is refused too */
        SETOPT(e, CURLOPT_NOPROXY, "*");
        SETOPT(e, CURLOPT_OPENSOCKETFUNCTION, open_loopback_socket);
        SETOPT(e, CURLOPT_OPENSOCKETDATA, x);
    } else if (strcmp(scheme, "http") == 0 && gp_http_is_loopback(req->url)) {
        SETOPT(e, CURLOPT_NOPROXY, "*");
    }
    return 0;
fail:
    return -1;
}

/* Method, body and credentials. Returns 0 or -1 when libcurl refuses an option. */
static int set_request(const struct gp_http_request *req, CURL *e)
{
    if (req->body) {
        SETOPT(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
        SETOPT(e, CURLOPT_POSTFIELDS, req->body);
    }
    if (req->method)
        SETOPT(e, CURLOPT_CUSTOMREQUEST, req->method);
    switch (req->auth) {
    case GP_HTTP_AUTH_NONE:
        break;
    case GP_HTTP_AUTH_BEARER:
        SETOPT(e, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER);
        SETOPT(e, CURLOPT_XOAUTH2_BEARER, req->token);
        break;
    case GP_HTTP_AUTH_BASIC:
        SETOPT(e, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        SETOPT(e, CURLOPT_USERNAME, req->token);
        SETOPT(e, CURLOPT_PASSWORD, "");
        break;
    case GP_HTTP_AUTH_SIGV4:
        SETOPT(e, CURLOPT_AWS_SIGV4, req->sigv4);
        SETOPT(e, CURLOPT_USERNAME, req->user);
        SETOPT(e, CURLOPT_PASSWORD, req->token);
        break;
    case GP_HTTP_AUTH_QUERY: /* in the URL set_transport gave libcurl */
        break;
    }
    return 0;
fail:
    return -1;
}

/* The request's own headers, its content type and the validators of the last good response. */
static int set_headers(struct xfer *x, CURL *e)
{
    const struct gp_http_request *req = x->req;

    for (const char *const *h = req->headers; h && *h; h++)
        if (add_header(x, NULL, *h) != 0)
            return -1;
    if ((req->content_type && add_header(x, "Content-Type", req->content_type) != 0) ||
        (req->session_token && add_header(x, "X-Amz-Security-Token", req->session_token) != 0) ||
        (req->etag && *req->etag && add_header(x, "If-None-Match", req->etag) != 0) ||
        (req->last_modified && *req->last_modified &&
         add_header(x, "If-Modified-Since", req->last_modified) != 0))
        return -1;
    if (x->headers)
        SETOPT(e, CURLOPT_HTTPHEADER, x->headers);
    return 0;
fail:
    return -1;
}

static int xfer_start(struct xfer *x)
{
    CURL *e;

    xfer_reset(x);
    e = x->easy = cu->easy_init();
    if (!e)
        return gp_error_set(GP_ENOMEM, "cannot create a libcurl handle");
    if (set_transport(x, e) || set_request(x->req, e) || set_headers(x, e) ||
        cu->multi_add_handle(x->client->multi, e) != CURLM_OK) {
        xfer_cleanup_easy(x);
        return gp_error_set(GP_ERROR, "%s: cannot set up the transfer", x->shown_url);
    }
    x->state = XFER_RUNNING;
    x->resp->attempts++;
    x->client->running++;
    return 0;
}

/* The URL for messages: without credentials, and without a long query (Azure's filter runs to
 * hundreds of characters and says nothing about a failure). */
static void shorten_url(char *out, size_t size, const char *url)
{
    gp_http_redact_url(out, size, url);
    if (strlen(out) > 120 && strchr(out, '?') && size > 4) {
        char *q = strchr(out, '?');
        if ((size_t)(q - out) + 5 <= size)
            memcpy(q, "?...", 5);
    }
}

int gp_http_submit(struct gp_http_client *client, const struct gp_http_request *req,
                   struct gp_http_response *resp, gp_http_done_fn done, void *ctx)
{
    struct xfer *x = calloc(1, sizeof(*x));

    if (!x)
        return gp_error_set(GP_ENOMEM, "out of memory queueing a request");
    x->client = client;
    x->req = req;
    x->resp = resp;
    x->done = done;
    x->ctx = ctx;
    x->submitted = gp_time_monotonic();
    x->not_before = x->submitted;
    x->state = XFER_WAITING;
    shorten_url(x->shown_url, sizeof(x->shown_url), req->url);
    resp->error = 0;
    resp->message[0] = '\0';
    resp->attempts = 0;
    if (check_url(x) != 0) {
        resp->error = gp_error_code();
        gp_text_copy(resp->message, sizeof(resp->message), gp_error_last());
        x->state = XFER_DONE;
    }
    x->next = client->xfers;
    client->xfers = x;
    return 0;
}

static bool retryable_curl(CURLcode rc)
{
    switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_COULDNT_CONNECT:
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        return true;
    default:
        return false;
    }
}

bool gp_http_retryable_status(long status)
{
    /* curl's --retry set: a request timeout, too many requests, and the server errors that
     * pass; 501 (not implemented) and 505 (version not supported) will not. */
    static const long transient[] = {408, 429, 500, 502, 503, 504};

    for (size_t i = 0; i < sizeof(transient) / sizeof(transient[0]); i++)
        if (status == transient[i])
            return true;
    return false;
}

static void fail(struct xfer *x, int code, const char *fmt, const char *what)
{
    x->resp->error = code;
    snprintf(x->resp->message, sizeof(x->resp->message), fmt, x->shown_url, what);
    x->state = XFER_DONE;
}

/* Decide what a finished attempt means: done, failed, or another attempt later. */
static void xfer_finished(struct xfer *x, CURLcode rc)
{
    struct gp_http_client *c = x->client;
    struct gp_http_response *resp = x->resp;
    curl_off_t retry_after = 0;
    char why[400];
    bool retry = false;
    long status = 0;

    cu->easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
    cu->easy_getinfo(x->easy, CURLINFO_RETRY_AFTER, &retry_after);
    resp->status = status;
    c->running--;

    if (x->abort_code) {
        x->resp->error = x->abort_code;
        gp_text_copy(resp->message, sizeof(resp->message), x->abort_msg);
        x->state = XFER_DONE;
        goto out;
    }
    if (rc == CURLE_FILESIZE_EXCEEDED) {
        snprintf(why, sizeof(why), "the response exceeds the %zu-byte cap", body_limit(x->req));
        fail(x, GP_EINVALID, "%s: %s", why);
        goto out;
    }
    if (rc != CURLE_OK) {
        snprintf(why, sizeof(why), "%s", x->errbuf[0] ? x->errbuf : cu->easy_strerror(rc));
        retry = retryable_curl(rc);
        if (rc == CURLE_OPERATION_TIMEDOUT && x->req->deadline > 0 &&
            gp_time_monotonic() + 1 > x->req->deadline) {
            fail(x, GP_ENET, "%s: %s, at the feed's deadline", why);
            goto out;
        }
    } else if (status == 304 || (status >= 200 && status <= 299) || status == 0) {
        /* status 0: a file:// transfer, which has no HTTP status */
        x->state = XFER_DONE;
        goto out;
    } else {
        snprintf(why, sizeof(why), "HTTP %ld", status);
        retry = gp_http_retryable_status(status);
    }

    if (retry && x->streamed_data && !x->req->on_restart)
        retry = false;
    if (retry && resp->attempts < c->opts.max_attempts) {
        double delay =
            c->opts.backoff_s * (double)(1u << (resp->attempts - 1)) * (0.5 + next_random(c));
        if (retry_after > 0) {
            if ((double)retry_after > c->opts.max_retry_after_s) {
                snprintf(why + strlen(why), sizeof(why) - strlen(why),
                         ", and the server asks to wait %ld s", (long)retry_after);
                fail(x, GP_ENET, "%s: %s", why);
                goto out;
            }
            delay = (double)retry_after;
        }
        if (x->streamed_data && x->req->on_restart(x->req->ctx) != 0) {
            fail(x, gp_error_code(), "%s: %s", gp_error_last());
            goto out;
        }
        if (x->req->deadline > 0 && gp_time_monotonic() + delay + 1 > x->req->deadline) {
            snprintf(why + strlen(why), sizeof(why) - strlen(why),
                     ", and the feed's deadline leaves no time to try again");
            fail(x, GP_ENET, "%s: %s", why);
            goto out;
        }
        x->state = XFER_WAITING;
        x->not_before = gp_time_monotonic() + delay;
        goto out;
    }
    if (resp->attempts > 1) {
        snprintf(why + strlen(why), sizeof(why) - strlen(why), " (after %d attempts)",
                 resp->attempts);
    }
    fail(x, GP_ENET, "%s: %s", why);

out:
    xfer_cleanup_easy(x);
}

/* Report finished transfers; their callbacks may queue more. */
static void report_done(struct gp_http_client *c)
{
    struct xfer **link = &c->xfers;

    while (*link) {
        struct xfer *x = *link;
        if (x->state != XFER_DONE) {
            link = &x->next;
            continue;
        }
        *link = x->next;
        x->resp->seconds = gp_time_monotonic() - x->submitted;
        if (x->done)
            x->done(x->ctx, x->req, x->resp);
        free(x);
        link = &c->xfers; /* the callback may have prepended new transfers */
    }
}

/* A stop was asked for: end every transfer, running or waiting, as interrupted, and tell each
 * owner through its callback. */
static int stop_all(struct gp_http_client *c)
{
    char why[64];

    for (struct xfer *x = c->xfers; x; x = x->next) {
        if (x->state == XFER_DONE)
            continue;
        if (x->state == XFER_RUNNING)
            c->running--;
        xfer_cleanup_easy(x);
        snprintf(why, sizeof(why), "interrupted by %s", gp_interrupt_name());
        fail(x, GP_EINTERRUPTED, "%s: %s", why);
    }
    report_done(c);
    return gp_error_set(GP_EINTERRUPTED, "interrupted by %s", gp_interrupt_name());
}

int gp_http_run(struct gp_http_client *c)
{
    struct curl_waitfd wake_fd = {gp_interrupt_fd(), CURL_WAIT_POLLIN, 0};

    for (;;) {
        double now, wake = 0.0;
        int still = 0, queued;
        CURLMsg *msg;

        report_done(c);
        if (!c->xfers)
            return 0;
        if (gp_interrupted())
            return stop_all(c);

        now = gp_time_monotonic();
        for (struct xfer *x = c->xfers; x; x = x->next) {
            if (x->state != XFER_WAITING)
                continue;
            if (x->not_before <= now && c->running < c->opts.max_parallel) {
                if (xfer_start(x) != 0) {
                    x->resp->error = gp_error_code();
                    gp_text_copy(x->resp->message, sizeof(x->resp->message), gp_error_last());
                    x->state = XFER_DONE;
                }
            } else if (x->not_before > now && (wake == 0.0 || x->not_before < wake)) {
                wake = x->not_before;
            }
        }

        if (cu->multi_perform(c->multi, &still) != CURLM_OK)
            return gp_error_set(GP_ENET, "libcurl multi interface failed");
        while ((msg = cu->multi_info_read(c->multi, &queued))) {
            struct xfer *x = NULL;
            if (msg->msg != CURLMSG_DONE)
                continue;
            cu->easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
            xfer_finished(x, msg->data.result);
        }

        bool pending_done = false;
        for (struct xfer *x = c->xfers; x; x = x->next)
            pending_done |= x->state == XFER_DONE;
        if (pending_done)
            continue;

        int timeout_ms = 1000;
        if (wake > 0.0) {
            double ms = (wake - gp_time_monotonic()) * 1000.0;
            timeout_ms = ms < 0 ? 0 : ms < timeout_ms ? (int)ms + 1 : timeout_ms;
        }
        if (c->running == 0 && wake == 0.0)
            timeout_ms = 0;
        if (cu->multi_poll(c->multi, wake_fd.fd >= 0 ? &wake_fd : NULL, wake_fd.fd >= 0, timeout_ms,
                           NULL) != CURLM_OK)
            return gp_error_set(GP_ENET, "libcurl multi interface failed");
    }
}

static void store_done(void *ctx, const struct gp_http_request *req, struct gp_http_response *resp)
{
    (void)ctx;
    (void)req;
    (void)resp;
}

int gp_http_fetch(const struct gp_http_options *opts, const struct gp_http_request *req,
                  struct gp_http_response *resp)
{
    struct gp_http_client *client = NULL;
    int rc = gp_http_client_new(&client, opts);

    if (rc == 0)
        rc = gp_http_submit(client, req, resp, store_done, NULL);
    if (rc == 0)
        rc = gp_http_run(client);
    gp_http_client_free(client);
    if (rc)
        return rc;
    if (resp->error)
        gp_error_set(resp->error, "%s", resp->message);
    return resp->error;
}
