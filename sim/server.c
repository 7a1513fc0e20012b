/*
 * The simulator server: the Verilator model of a compiled folder behind a
 * Unix socket, for libkiln-rt's sim transport (host-runtime/, protocol in
 * docs/runtime.md).  The model is built (or found in the cache) as for a
 * simulation, then its harness runs in serve mode in a child process until a
 * client sends quit, the harness fails or this process dies (the child is
 * killed with its parent).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/internal.h"

int sim_serve(Sim *s, const SimOptions *o, const char *socket_path, GirError *e)
{
    char lat[32];
    pid_t pid;
    int rc, st;
    s->o = o;
    if (!s->run)
        s->run = gir_arena_new();
    rc = sim_build(s, e);
    s->o = NULL;
    if (rc)
        return rc;
    snprintf(lat, sizeof lat, "%ld", o->latency);
    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return sim_error(e, SIM_BAD_INPUT, "simulate: cannot start the harness: %s",
                         strerror(errno));
    if (pid == 0) {
        char *argv[] = {(char *)s->exe, "--serve", (char *)socket_path, lat, NULL};
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        execv(argv[0], argv);
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return sim_error(e, SIM_FAILED, "simulate: lost the harness: %s", strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return sim_error(e, SIM_FAILED, "simulate: the harness server on %s stopped with "
                         "status %d", socket_path, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    return SIM_OK;
}
