/* The capped growable byte buffer. */
#include "util/buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static size_t buf_limit(const struct gp_buf *buf)
{
    return buf->limit ? buf->limit : GP_BUF_DEFAULT_LIMIT;
}

void gp_buf_init(struct gp_buf *buf, size_t limit)
{
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
    buf->limit = limit;
}

void gp_buf_release(struct gp_buf *buf)
{
    if (!buf)
        return;
    free(buf->data);
    gp_buf_init(buf, buf->limit);
}

void gp_buf_reset(struct gp_buf *buf)
{
    buf->len = 0;
    if (buf->data)
        buf->data[0] = '\0';
}

void gp_wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;

    while (n--)
        *v++ = 0;
}

void gp_buf_wipe(struct gp_buf *buf)
{
    if (buf->data)
        gp_wipe(buf->data, buf->cap);
    buf->len = 0;
}

int gp_buf_grow(struct gp_buf *buf, size_t extra)
{
    size_t need, cap;
    char *data;

    if (extra > buf_limit(buf) - buf->len)
        return gp_error_set(GP_EINVALID, "data exceeds the %zu-byte limit", buf_limit(buf));
    need = buf->len + extra + 1;
    if (need <= buf->cap)
        return 0;
    cap = buf->cap ? buf->cap : 64;
    while (cap < need)
        cap = cap / 2 * 3 + 16;
    data = realloc(buf->data, cap);
    if (!data)
        return gp_error_set(GP_ENOMEM, "out of memory growing a buffer to %zu bytes", cap);
    if (!buf->data)
        data[0] = '\0';
    buf->data = data;
    buf->cap = cap;
    return 0;
}

int gp_buf_append_grown(struct gp_buf *buf, const void *bytes, size_t len)
{
    int rc = gp_buf_grow(buf, len);
    if (rc)
        return rc;
    if (len)
        memcpy(buf->data + buf->len, bytes, len);
    buf->len += len;
    buf->data[buf->len] = '\0';
    return 0;
}

int gp_buf_puts(struct gp_buf *buf, const char *text)
{
    return gp_buf_append(buf, text, strlen(text));
}

int gp_buf_vprintf(struct gp_buf *buf, const char *fmt, va_list ap)
{
    va_list copy;
    int n, rc;

    va_copy(copy, ap);
    n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return gp_error_set(GP_ERROR, "cannot format text");
    rc = gp_buf_grow(buf, (size_t)n);
    if (rc)
        return rc;
    vsnprintf(buf->data + buf->len, (size_t)n + 1, fmt, ap);
    buf->len += (size_t)n;
    return 0;
}

int gp_buf_printf(struct gp_buf *buf, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = gp_buf_vprintf(buf, fmt, ap);
    va_end(ap);
    return rc;
}

char *gp_buf_detach(struct gp_buf *buf, size_t *len_out)
{
    char *data = buf->data;

    if (!data)
        data = calloc(1, 1);
    if (len_out)
        *len_out = buf->len;
    gp_buf_init(buf, buf->limit);
    return data;
}

const char *gp_buf_str(const struct gp_buf *buf)
{
    return buf->data ? buf->data : "";
}

int gp_buf_read_file(struct gp_buf *buf, const char *path)
{
    char chunk[65536];
    size_t n;
    int rc = 0;
    FILE *f = fopen(path, "rb");

    if (!f)
        return gp_error_set(errno == ENOENT ? GP_ENOTFOUND : GP_ERROR, "%s: %s", path,
                            strerror(errno));
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        rc = gp_buf_append(buf, chunk, n);
        if (rc) {
            gp_error_wrap("%s", path);
            goto done;
        }
    }
    if (ferror(f))
        rc = gp_error_set(GP_ERROR, "%s: read error", path);
done:
    fclose(f);
    return rc;
}
