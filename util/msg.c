/* The stderr emitters. */
#include "util/msg.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/sanitize.h"

static enum gp_msg_level current_level = GP_MSG_NORMAL;

void gp_msg_set_level(enum gp_msg_level level)
{
    current_level = level;
}

enum gp_msg_level gp_msg_level(void)
{
    return current_level;
}

enum { MESSAGE_MAX = 4096 };

/* Print "prefix message\n" on stderr when the level is at least `shown_from`: credentials in
 * URLs redacted and control characters escaped, whatever a feed or a user put in the text. */
static void emit(enum gp_msg_level shown_from, const char *prefix, const char *fmt, va_list ap)
{
    char raw[MESSAGE_MAX], redacted[MESSAGE_MAX], shown[MESSAGE_MAX];

    if (current_level < shown_from)
        return;
    vsnprintf(raw, sizeof(raw), fmt, ap);
    gp_sanitize_urls(redacted, sizeof(redacted), raw);
    fprintf(stderr, "%s%s\n", prefix, gp_sanitize_controls(shown, sizeof(shown), redacted));
}

void gp_msg_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(GP_MSG_QUIET, "gpuplan: error: ", fmt, ap);
    va_end(ap);
}

void gp_msg_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(GP_MSG_NORMAL, "gpuplan: warning: ", fmt, ap);
    va_end(ap);
}

void gp_msg_info(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(GP_MSG_NORMAL, "", fmt, ap);
    va_end(ap);
}

void gp_msg_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(GP_MSG_VERBOSE, "gpuplan: ", fmt, ap);
    va_end(ap);
}
