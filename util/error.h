/* The error vocabulary and the per-thread last-error slot shared by every module. */
#ifndef GP_UTIL_ERROR_H
#define GP_UTIL_ERROR_H

#include "util/format.h"

/*
 * Functions below cli/ return 0 on success or one of these negative codes, and set a
 * human-readable message with gp_error_set(). Only cli/ prints that message and maps the
 * code to an exit status (see docs/exit-codes.md).
 */
enum gp_error_code {
    GP_OK = 0,
    GP_ERROR = -1,        /* anything not listed below */
    GP_EINVALID = -2,     /* bad input: a flag, a file, a field */
    GP_ENOTFOUND = -3,    /* a named thing (GPU id, quote, feed) does not exist */
    GP_ESTALE = -4,       /* data exists but is too old, or no data at all */
    GP_ENOBACKEND = -5,   /* no usable calibration backend */
    GP_ENET = -6,         /* network transfer failed */
    GP_EDB = -7,          /* the database cannot be opened, read or written */
    GP_ENOMEM = -8,       /* allocation failed */
    GP_EINTERRUPTED = -9, /* a stop was asked for (SIGINT, SIGTERM): util/interrupt.h */
};

/* Record `fmt` as the last error and return `code`, so callers can `return gp_error_set(...)`. */
int gp_error_set(int code, const char *fmt, ...) GP_PRINTF(2, 3);

/* Prefix the current message with `fmt` + ": ", keeping its code; returns that code. */
int gp_error_wrap(const char *fmt, ...) GP_PRINTF(1, 2);

/* The last message (borrowed; valid until the next gp_error_set on this thread); "" if none. */
const char *gp_error_last(void);

/* The code given with the last message; GP_OK if none. */
int gp_error_code(void);

/* Forget the last error. */
void gp_error_clear(void);

#endif
