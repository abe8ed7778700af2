/* The stop flag behind Ctrl-C and SIGTERM, and a pipe that wakes poll loops (util/interrupt.h). */
#include "util/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"

static volatile sig_atomic_t asked; /* the signal number of the first request, 0 before */
static int wake_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    static const char again[] = "\ngpuplan: interrupted again: stopping now\n";
    int saved = errno;

    if (asked) {
        ssize_t unused = write(STDERR_FILENO, again, sizeof(again) - 1);
        (void)unused;
        _exit(GP_INTERRUPT_EXIT);
    }
    asked = sig;
    if (wake_pipe[1] >= 0) {
        ssize_t unused = write(wake_pipe[1], "!", 1);
        (void)unused;
    }
    errno = saved;
}

int gp_interrupt_install(void)
{
    struct sigaction sa;

    if (wake_pipe[0] < 0) {
        if (pipe(wake_pipe) != 0)
            return gp_error_set(GP_ERROR, "cannot make a pipe for signals: %s", strerror(errno));
        for (int i = 0; i < 2; i++) {
            fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
            fcntl(wake_pipe[i], F_SETFL, O_NONBLOCK);
        }
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* reads and writes go on; the work polls the flag */
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0)
        return gp_error_set(GP_ERROR, "cannot catch SIGINT and SIGTERM: %s", strerror(errno));
    return 0;
}

bool gp_interrupted(void)
{
    return asked != 0;
}

const char *gp_interrupt_name(void)
{
    return asked == SIGINT ? "SIGINT" : asked == SIGTERM ? "SIGTERM" : asked ? "a signal" : "";
}

int gp_interrupt_fd(void)
{
    return wake_pipe[0];
}
