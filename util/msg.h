/* Diagnostics on stderr: errors, warnings and verbose notes, honouring --quiet and --verbose.
 * Data never goes through here; it goes to stdout through report/. */
#ifndef GP_UTIL_MSG_H
#define GP_UTIL_MSG_H

#include "util/format.h"

enum gp_msg_level { GP_MSG_QUIET = 0, GP_MSG_NORMAL = 1, GP_MSG_VERBOSE = 2 };

void gp_msg_set_level(enum gp_msg_level level);
enum gp_msg_level gp_msg_level(void);

/* "gpuplan: error: ..." (always shown). */
void gp_msg_error(const char *fmt, ...) GP_PRINTF(1, 2);
/* "gpuplan: warning: ..." (hidden by --quiet). */
void gp_msg_warn(const char *fmt, ...) GP_PRINTF(1, 2);
/* Plain progress or summary line (hidden by --quiet). */
void gp_msg_info(const char *fmt, ...) GP_PRINTF(1, 2);
/* Detail shown only with --verbose. */
void gp_msg_note(const char *fmt, ...) GP_PRINTF(1, 2);

#endif
