/* Output files written so that a reader never sees half of one and a link or node planted at the
 * path is never written through by mistake. */
#ifndef GP_UTIL_OUTFILE_H
#define GP_UTIL_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#define GP_OUTFILE_PATH_MAX 4096

/*
 * What a path names, and so how it is written:
 * - a new file, a regular file, or a symbolic link (to anything but the nodes below): the output
 *   goes to a temporary file beside it that replaces the path whole, by rename(2), on commit.
 *   A link is replaced, never followed: the file it points to is left as it was.
 * - "-" or /dev/stdout: standard output.
 * - an existing FIFO, character device or socket, or any path under /dev or /proc: the output is
 *   staged in a temporary file under $TMPDIR and copied into the node on commit; the node itself
 *   is never replaced or created.
 * A folder, or a path under /dev or /proc that does not exist, is refused.
 */
struct gp_outfile {
    char path[GP_OUTFILE_PATH_MAX]; /* the path as given */
    char temp[GP_OUTFILE_PATH_MAX]; /* the temporary file the output is written to */
    int temp_fd;                    /* open on `temp`; -1 once handed to a stream or closed */
    FILE *stream;                   /* from gp_outfile_stream(); owned here */
    bool through;                   /* copied into a node (or standard output) on commit */
};

/* Create the temporary file for `path`. 0, or GP_EINVALID (a folder, a path too long, a node
 * that is not there) or GP_ERROR (the temporary cannot be made), with the message set. */
int gp_outfile_open(struct gp_outfile *out, const char *path);

/* A stdio stream on the temporary file (owned by `out`), or NULL with the message set. A writer
 * that needs a file name instead (libxlsxwriter) writes to out->temp and never calls this. */
FILE *gp_outfile_stream(struct gp_outfile *out);

/* Flush and sync the temporary file, then put it in place (rename, or copy into the node). On
 * failure nothing at the path has changed, except a node written through part of the way.
 * 0 or GP_ERROR with the message set. Either way the temporary file is gone afterwards. */
int gp_outfile_commit(struct gp_outfile *out);

/* Remove the temporary file and leave the path as it was. Accepts NULL; safe after commit. */
void gp_outfile_abort(struct gp_outfile *out);

#endif
