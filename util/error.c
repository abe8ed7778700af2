/* The per-thread last-error slot: a code and a bounded message, with credentials in URLs
 * redacted so that no message, log or stored run record carries them. */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/sanitize.h"

enum { GP_ERROR_MESSAGE_MAX = 1024 };

static _Thread_local int last_code;
static _Thread_local char last_message[GP_ERROR_MESSAGE_MAX];

int gp_error_set(int code, const char *fmt, ...)
{
    char raw[GP_ERROR_MESSAGE_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(raw, sizeof(raw), fmt, ap);
    va_end(ap);
    gp_sanitize_urls(last_message, sizeof(last_message), raw);
    last_code = code;
    return code;
}

int gp_error_wrap(const char *fmt, ...)
{
    char raw[GP_ERROR_MESSAGE_MAX], prefix[GP_ERROR_MESSAGE_MAX];
    size_t plen, mlen = strlen(last_message);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(raw, sizeof(raw), fmt, ap);
    va_end(ap);
    gp_sanitize_urls(prefix, sizeof(prefix) - 2, raw);
    plen = strlen(prefix);
    memcpy(prefix + plen, ": ", 3);
    plen += 2;
    if (plen >= sizeof(last_message))
        plen = sizeof(last_message) - 1;
    if (plen + mlen >= sizeof(last_message))
        mlen = sizeof(last_message) - 1 - plen;
    memmove(last_message + plen, last_message, mlen);
    memcpy(last_message, prefix, plen);
    last_message[plen + mlen] = '\0';
    return last_code ? last_code : GP_ERROR;
}

const char *gp_error_last(void)
{
    return last_message;
}

int gp_error_code(void)
{
    return last_code;
}

void gp_error_clear(void)
{
    last_code = GP_OK;
    last_message[0] = '\0';
}
