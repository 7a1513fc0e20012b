/*
 * Child processes of a simulation (cc, verilator, the harness) with their
 * output in a log file, and the clock the wall times come from.
 */
#define _XOPEN_SOURCE 700

#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/internal.h"

double sim_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int sim_run_logged(const Sim *s, char *const argv[], const char *log, const char *what)
{
    pid_t pid;
    int st, ticks = s->o && s->o->ticks;
    double t0 = sim_now();
    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0666);
        if (fd < 0)
            _exit(127);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        execvp(argv[0], argv);
        _exit(127);
    }
    for (;;) {
        pid_t r = waitpid(pid, &st, ticks ? WNOHANG : 0);
        if (r == pid)
            break;
        if (r < 0)
            return -1;
        sim_log(s, "\r  %s ... %.0f s", what, sim_now() - t0);
        {
            struct timespec ts = {0, 250000000};
            nanosleep(&ts, NULL);
        }
    }
    if (ticks)
        sim_log(s, "\r  %s ... %.0f s\n", what, sim_now() - t0);
    if (!WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st) == 127 ? -1 : WEXITSTATUS(st);
}

void sim_rm_rf(const char *path)
{
    char *argv[] = {"rm", "-rf", (char *)path, NULL};
    pid_t pid = fork();
    int st;
    if (pid == 0) {
        execvp("rm", argv);
        _exit(127);
    }
    if (pid > 0)
        waitpid(pid, &st, 0);
}
