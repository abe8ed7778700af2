/* The stderr emitters. */
#include "util/msg.h"

#include <stdarg.h>
#include <stdio.h>

static enum gp_msg_level current_level = GP_MSG_NORMAL;

void gp_msg_set_level(enum gp_msg_level level)
{
    current_level = level;
}

enum gp_msg_level gp_msg_level(void)
{
    return current_level;
}

static void emit(const char *prefix, const char *fmt, va_list ap)
{
    fputs(prefix, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void gp_msg_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit("gpuplan: error: ", fmt, ap);
    va_end(ap);
}

void gp_msg_warn(const char *fmt, ...)
{
    va_list ap;
    if (current_level < GP_MSG_NORMAL)
        return;
    va_start(ap, fmt);
    emit("gpuplan: warning: ", fmt, ap);
    va_end(ap);
}

void gp_msg_info(const char *fmt, ...)
{
    va_list ap;
    if (current_level < GP_MSG_NORMAL)
        return;
    va_start(ap, fmt);
    emit("", fmt, ap);
    va_end(ap);
}

void gp_msg_note(const char *fmt, ...)
{
    va_list ap;
    if (current_level < GP_MSG_VERBOSE)
        return;
    va_start(ap, fmt);
    emit("gpuplan: ", fmt, ap);
    va_end(ap);
}
