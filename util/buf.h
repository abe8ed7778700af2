/* A growable byte buffer with a hard size cap, for text built in memory and bodies read from
 * files or the network. */
#ifndef GP_UTIL_BUF_H
#define GP_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "util/format.h"

/*
 * Invariants: `data` is NULL only before the first append; when non-NULL it is always
 * NUL-terminated at data[len]. `limit` (bytes, 0 = GP_BUF_DEFAULT_LIMIT) caps len: an append
 * past it fails with GP_EINVALID and leaves the buffer unchanged. The buffer owns `data`.
 */
struct gp_buf {
    char *data;   /* owned, NUL-terminated contents, or NULL while empty */
    size_t len;   /* bytes used, not counting the terminator */
    size_t cap;   /* bytes allocated */
    size_t limit; /* most bytes len may reach; 0 means GP_BUF_DEFAULT_LIMIT */
};

#define GP_BUF_DEFAULT_LIMIT ((size_t)256 << 20) /* 256 MiB */
#define GP_BUF_INIT                                                                                \
    {                                                                                              \
        NULL, 0, 0, 0                                                                              \
    }

void gp_buf_init(struct gp_buf *buf, size_t limit);
/* Free the contents; the buffer may be reused after gp_buf_init. Accepts NULL. */
void gp_buf_release(struct gp_buf *buf);
/* Empty the buffer, keeping its memory. */
void gp_buf_reset(struct gp_buf *buf);
/* Overwrite every byte allocated with zeros, then empty it: for buffers that held a secret. */
void gp_buf_wipe(struct gp_buf *buf);
/* Overwrite n bytes at p with zeros, as a store the compiler may not drop (a secret about to
 * be freed or to go out of scope). */
void gp_wipe(void *p, size_t n);
/* Make room for `extra` more bytes. Returns 0, GP_ENOMEM or GP_EINVALID (over the limit). */
int gp_buf_grow(struct gp_buf *buf, size_t extra);
/* gp_buf_append past its inline case: growing, or refusing past the limit. */
int gp_buf_append_grown(struct gp_buf *buf, const void *bytes, size_t len);

/* Append `len` bytes. Inline while they fit what is allocated (writers that append a few bytes
 * at a time, like the JSON renderer, pay no call). */
static inline int gp_buf_append(struct gp_buf *buf, const void *bytes, size_t len)
{
    if (buf->data && len < buf->cap - buf->len &&
        len <= (buf->limit ? buf->limit : GP_BUF_DEFAULT_LIMIT) - buf->len) {
        if (len)
            memcpy(buf->data + buf->len, bytes, len);
        buf->len += len;
        buf->data[buf->len] = '\0';
        return 0;
    }
    return gp_buf_append_grown(buf, bytes, len);
}

/* Room for `n` more bytes at the end, for a writer that fills it through a cursor: *at is set
 * to the end, and what is written there counts once gp_buf_commit moves the end to where the
 * writing stopped. Returns 0, or as gp_buf_grow. */
static inline int gp_buf_room(struct gp_buf *buf, size_t n, char **at)
{
    if (!buf->data || n >= buf->cap - buf->len ||
        n > (buf->limit ? buf->limit : GP_BUF_DEFAULT_LIMIT) - buf->len) {
        int rc = gp_buf_grow(buf, n);
        if (rc)
            return rc;
    }
    *at = buf->data + buf->len;
    return 0;
}

/* End the contents at `end`, a cursor gp_buf_room gave, moved past what was written. */
static inline void gp_buf_commit(struct gp_buf *buf, char *end)
{
    buf->len = (size_t)(end - buf->data);
    buf->data[buf->len] = '\0';
}

static inline int gp_buf_putc(struct gp_buf *buf, char c)
{
    return gp_buf_append(buf, &c, 1);
}

int gp_buf_puts(struct gp_buf *buf, const char *text);
int gp_buf_printf(struct gp_buf *buf, const char *fmt, ...) GP_PRINTF(2, 3);
int gp_buf_vprintf(struct gp_buf *buf, const char *fmt, va_list ap);
/* Hand the contents to the caller (free() it); the buffer is left empty. Never returns NULL
 * unless allocation fails: an empty buffer yields "". */
char *gp_buf_detach(struct gp_buf *buf, size_t *len_out);
/* Contents as a string: "" while empty. Borrowed. */
const char *gp_buf_str(const struct gp_buf *buf);

/* Read a whole file into `buf` (appending). A file larger than the buffer's limit fails with
 * GP_EINVALID naming the path; an unreadable one with GP_ENOTFOUND or GP_ERROR. */
int gp_buf_read_file(struct gp_buf *buf, const char *path);

#endif
