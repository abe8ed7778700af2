/* libcurl, loaded when a command first reaches the network: the functions pricing/http.c
 * calls, resolved once from the shared library (util/dynlib.h), so that the commands that
 * never fetch (plan, prices, report, ...) do not load libcurl and its chain of TLS, Kerberos
 * and LDAP libraries at start-up. Internal to pricing/. */
#ifndef GP_PRICING_CURL_API_H
#define GP_PRICING_CURL_API_H

#include <curl/curl.h>

/* The libcurl functions in use: return type, name without the curl_ prefix, parameters. */
#define GP_CURL_FUNCTIONS(X)                                                                       \
    X(CURLcode, global_init, (long flags))                                                         \
    X(void, global_cleanup, (void))                                                                \
    X(CURL *, easy_init, (void))                                                                   \
    X(void, easy_cleanup, (CURL * easy))                                                           \
    X(CURLcode, easy_setopt, (CURL * easy, CURLoption option, ...))                                \
    X(CURLcode, easy_getinfo, (CURL * easy, CURLINFO info, ...))                                   \
    X(const char *, easy_strerror, (CURLcode code))                                                \
    X(CURLM *, multi_init, (void))                                                                 \
    X(CURLMcode, multi_cleanup, (CURLM * multi))                                                   \
    X(CURLMcode, multi_add_handle, (CURLM * multi, CURL * easy))                                   \
    X(CURLMcode, multi_remove_handle, (CURLM * multi, CURL * easy))                                \
    X(CURLMcode, multi_perform, (CURLM * multi, int *running))                                     \
    X(CURLMcode, multi_poll,                                                                       \
      (CURLM * multi, struct curl_waitfd extra[], unsigned int n, int timeout_ms, int *ret))       \
    X(CURLMsg *, multi_info_read, (CURLM * multi, int *queued))                                    \
    X(struct curl_slist *, slist_append, (struct curl_slist * list, const char *text))             \
    X(void, slist_free_all, (struct curl_slist * list))                                            \
    X(CURLU *, url, (void))                                                                        \
    X(void, url_cleanup, (CURLU * url))                                                            \
    X(CURLU *, url_dup, (const CURLU *url))                                                        \
    X(CURLUcode, url_get, (const CURLU *url, CURLUPart part, char **out, unsigned int flags))      \
    X(CURLUcode, url_set, (CURLU * url, CURLUPart part, const char *text, unsigned int flags))     \
    X(void, free, (void *p))

#define GP_CURL_MEMBER(ret, name, params) ret(*name) params;
struct gp_curl_api {
    GP_CURL_FUNCTIONS(GP_CURL_MEMBER)
};
#undef GP_CURL_MEMBER

/* The loaded functions, loading libcurl (libcurl.so.4) on the first call; NULL with GP_ERROR
 * set naming the library and the symbol when it cannot be loaded. Not thread-safe on the first
 * call (refresh makes it from its one thread). */
const struct gp_curl_api *gp_curl_api(void);

#endif
