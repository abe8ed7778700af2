/* Ctrl-C and SIGTERM for the long commands: the first asks the work to stop at its next safe
 * point, which lower layers poll; the second ends the process at once. */
#ifndef GP_UTIL_INTERRUPT_H
#define GP_UTIL_INTERRUPT_H

#include <stdbool.h>

/* The exit status of a command stopped by a signal: 128 + SIGINT, as shells report it. */
#define GP_INTERRUPT_EXIT 130

/* Catch SIGINT and SIGTERM from now on (cli/ only, for commands that can stop cleanly). 0, or
 * GP_ERROR with the message set. */
int gp_interrupt_install(void);

/* Whether a stop was asked for. Safe from any thread. */
bool gp_interrupted(void);

/* The name of the signal that asked ("SIGINT", "SIGTERM"), or "" when none has. */
const char *gp_interrupt_name(void);

/* A descriptor that becomes readable when a stop is asked for, for poll loops to wait on; -1
 * before gp_interrupt_install. */
int gp_interrupt_fd(void);

#endif
