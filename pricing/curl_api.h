/* libcurl, loaded when a command first reaches the network: the functions pricing/http.c
 * calls, resolved once from the shared library by dlopen, so that the commands that never
 * fetch (plan, prices, report, ...) do not load libcurl and its chain of TLS, Kerberos and LDAP
 * libraries at start-up. Internal to pricing/. */
#ifndef GP_PRICING_CURL_API_H
#define GP_PRICING_CURL_API_H

#include <curl/curl.h>

/* The libcurl functions in use, by their names without the curl_ prefix. */
struct gp_curl_api {
    CURLcode (*global_init)(long flags);
    void (*global_cleanup)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *easy);
    CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int n,
                            int timeout_ms, int *ret);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *url);
    CURLU *(*url_dup)(const CURLU *url);
    CURLUcode (*url_get)(const CURLU *url, CURLUPart part, char **out, unsigned int flags);
    CURLUcode (*url_set)(CURLU *url, CURLUPart part, const char *text, unsigned int flags);
    void (*free)(void *p);
};

/* The loaded functions, loading libcurl (libcurl.so.4) on the first call; NULL with GP_ERROR
 * set naming the library and the symbol when it cannot be loaded. The library stays loaded
 * for the life of the process. Not thread-safe on the first call (refresh makes it from its
 * one thread). */
const struct gp_curl_api *gp_curl_api(void);

#endif
