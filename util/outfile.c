/* Output files written atomically beside their path, or copied into a node (util/outfile.h). */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"

/* Whether `path` lies in a tree of nodes and links the kernel makes (/dev, /proc). */
static bool in_node_tree(const char *path)
{
    return strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
}

static bool is_node(mode_t mode)
{
    return S_ISFIFO(mode) || S_ISCHR(mode) || S_ISSOCK(mode) || S_ISBLK(mode);
}

/* Decide how `path` is written: 0 with *through set, or GP_EINVALID with the message. */
static int classify(const char *path, bool *through)
{
    struct stat st;
    bool exists = stat(path, &st) == 0; /* follows links: what a writer would open */

    if (exists && S_ISDIR(st.st_mode))
        return gp_error_set(GP_EINVALID, "%s: is a folder (or a link to one); give a file name",
                            path);
    *through = strcmp(path, "-") == 0 || in_node_tree(path) || (exists && is_node(st.st_mode));
    if (*through && strcmp(path, "-") != 0 && !exists)
        return gp_error_set(GP_EINVALID, "%s: no such device or file to write into", path);
    return 0;
}

int gp_outfile_open(struct gp_outfile *out, const char *path)
{
    const char *tmpdir = getenv("TMPDIR");
    size_t len = strlen(path);
    int rc, n;

    memset(out, 0, sizeof(*out));
    out->temp_fd = -1;
    if (len == 0 || len >= GP_OUTFILE_PATH_MAX - 32)
        return gp_error_set(GP_EINVALID, "'%.200s': not a usable output path", path);
    memcpy(out->path, path, len + 1);
    if ((rc = classify(path, &out->through)))
        return rc;
    if (!out->through)
        n = snprintf(out->temp, sizeof(out->temp), "%s.tmp-XXXXXX", path);
    else
        n = snprintf(out->temp, sizeof(out->temp), "%s/gpuplan-out-XXXXXX",
                     tmpdir && tmpdir[0] == '/' ? tmpdir : "/tmp");
    if (n < 0 || (size_t)n >= sizeof(out->temp))
        return gp_error_set(GP_EINVALID, "'%.200s': not a usable output path", path);
    out->temp_fd = mkstemp(out->temp);
    if (out->temp_fd < 0) {
        rc = gp_error_set(GP_ERROR, "%s: cannot create a file %s: %s", path,
                          out->through ? "to stage it in" : "beside it", strerror(errno));
        out->temp[0] = '\0';
        return rc;
    }
    return 0;
}

FILE *gp_outfile_stream(struct gp_outfile *out)
{
    if (out->stream)
        return out->stream;
    out->stream = fdopen(out->temp_fd, "w");
    if (!out->stream) {
        gp_error_set(GP_ERROR, "%s: %s", out->temp, strerror(errno));
        return NULL;
    }
    out->temp_fd = -1;
    return out->stream;
}

/* Close whatever is open on the temporary file; 0 or GP_ERROR when data could not be flushed. */
static int close_temp(struct gp_outfile *out)
{
    int rc = 0;

    if (out->stream) {
        if (fflush(out->stream) != 0 || (!out->through && fsync(fileno(out->stream)) != 0))
            rc = gp_error_set(GP_ERROR, "%s: %s", out->path, strerror(errno));
        if (fclose(out->stream) != 0 && rc == 0)
            rc = gp_error_set(GP_ERROR, "%s: %s", out->path, strerror(errno));
        out->stream = NULL;
    }
    if (out->temp_fd >= 0) {
        if (!out->through && fsync(out->temp_fd) != 0 && errno != EINVAL)
            rc = rc ? rc : gp_error_set(GP_ERROR, "%s: %s", out->path, strerror(errno));
        close(out->temp_fd);
        out->temp_fd = -1;
    }
    return rc;
}

/* Copy every byte of the file `from` into the open descriptor `to`. */
static int copy_into(const char *from, int to, const char *path)
{
    char block[16384];
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int rc = 0;
    ssize_t got;

    if (in < 0)
        return gp_error_set(GP_ERROR, "%s: %s", from, strerror(errno));
    while (rc == 0 && (got = read(in, block, sizeof(block))) != 0) {
        if (got < 0) {
            if (errno != EINTR)
                rc = gp_error_set(GP_ERROR, "%s: %s", from, strerror(errno));
            continue;
        }
        for (ssize_t done = 0, put; rc == 0 && done<got; done += put> 0 ? put : 0)
            if ((put = write(to, block + done, (size_t)(got - done))) < 0 && errno != EINTR)
                rc = gp_error_set(GP_ERROR, "%s: %s", path, strerror(errno));
    }
    close(in);
    return rc;
}

/* Copy the staged output into standard output or the node at out->path. */
static int write_through(const struct gp_outfile *out)
{
    bool standard = strcmp(out->path, "-") == 0 || strcmp(out->path, "/dev/stdout") == 0;
    int fd = standard ? STDOUT_FILENO : open(out->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    int rc;

    if (fd < 0)
        return gp_error_set(GP_ERROR, "%s: %s", out->path, strerror(errno));
    rc = copy_into(out->temp, fd, out->path);
    if (!standard && close(fd) != 0 && rc == 0)
        rc = gp_error_set(GP_ERROR, "%s: %s", out->path, strerror(errno));
    return rc;
}

/* Give the temporary file the mode a new file gets and rename it over the path. */
static int put_in_place(struct gp_outfile *out)
{
    mode_t mask = umask(0);

    umask(mask);
    if (chmod(out->temp, 0666 & ~mask) != 0)
        return gp_error_set(GP_ERROR, "%s: %s", out->temp, strerror(errno));
    if (rename(out->temp, out->path) != 0)
        return gp_error_set(GP_ERROR, "%s: %s", out->path, strerror(errno));
    out->temp[0] = '\0'; /* it is the file at the path now */
    return 0;
}

int gp_outfile_commit(struct gp_outfile *out)
{
    int rc = close_temp(out);

    if (rc == 0)
        rc = out->through ? write_through(out) : put_in_place(out);
    gp_outfile_abort(out);
    return rc;
}

void gp_outfile_abort(struct gp_outfile *out)
{
    if (!out)
        return;
    close_temp(out);
    if (out->temp[0])
        unlink(out->temp);
    out->temp[0] = '\0';
}
