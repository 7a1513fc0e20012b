/*
 * The sim transport: a Unix socket to `kiln simulate DIR --serve SOCKET`
 * (sim/server.c, the harness in serve mode).  Requests are text lines,
 * DDR payloads raw bytes after them (docs/runtime.md).  Every answer is
 * awaited with poll() and a timeout: a server that died or hangs gives an
 * error, never a hang.  DMA memory is one buffer the client declares at
 * SIM_BASE, above 4 GiB as on a board whose DDR is high.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "transport/transport.h"

#define SIM_BASE 0x100000000ull /* bus address of the DMA buffer */
#define WAIT_SLACK_MS 1000      /* a wait's answer is awaited its timeout plus this */
#define IO_MS 10000             /* answer timeout of a request other than wait */
#define CYCLES_PER_MS 1000 /* cycles a wait lets the model run per ms (a simulator runs slower) */
#define BUSY_MS 10000      /* a busy line is awaited this long after the one before */
#define MIN_PACE 1         /* cycles per ms of the wall below which a wait gives up */

struct KrtTransport {
    int fd;           /* the connected socket */
    char path[108];   /* its path, for messages */
    uint64_t base;    /* DMA buffer address, 0 before dma_alloc */
    size_t size;      /* its bytes */
};

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Write all n bytes of p. */
static int send_all(KrtTransport *t, const void *p, size_t n, KrtError *e)
{
    const char *c = p;
    if (t->fd < 0)
        return krt_err(e, KRT_EIO, "sim:%s: connection closed after a timeout", t->path);
    while (n) {
        ssize_t k = send(t->fd, c, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return krt_err(e, KRT_EIO, "sim:%s: connection lost: %s", t->path,
                           k < 0 ? strerror(errno) : "closed");
        c += k;
        n -= (size_t)k;
    }
    return KRT_OK;
}

/* Read exactly n bytes within the deadline (ms since now_ms's origin). */
static int recv_all(KrtTransport *t, void *p, size_t n, long deadline, KrtError *e)
{
    char *c = p;
    while (n) {
        struct pollfd pf = {t->fd, POLLIN, 0};
        long left = deadline - now_ms();
        int r;
        ssize_t k;
        if (left < 0)
            left = 0;
        r = poll(&pf, 1, (int)(left > 1000000 ? 1000000 : left));
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) { /* a late answer would pair with the next request: drop the link */
            close(t->fd);
            t->fd = -1;
            return krt_err(e, KRT_ETIMEOUT, "sim:%s: no answer from the server within the "
                           "timeout", t->path);
        }
        if (r < 0)
            return krt_err(e, KRT_EIO, "sim:%s: poll: %s", t->path, strerror(errno));
        k = recv(t->fd, c, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return krt_err(e, KRT_EIO, "sim:%s: connection lost (the server closed or died)",
                           t->path);
        c += k;
        n -= (size_t)k;
    }
    return KRT_OK;
}

/* One answer line (without its newline) into buf. */
static int recv_line(KrtTransport *t, char *buf, size_t size, long deadline, KrtError *e)
{
    size_t n = 0;
    for (;;) {
        int rc = recv_all(t, buf + n, 1, deadline, e);
        if (rc)
            return rc;
        if (buf[n] == '\n') {
            buf[n] = 0;
            return KRT_OK;
        }
        if (++n == size - 1)
            return krt_err(e, KRT_EIO, "sim:%s: answer line too long", t->path);
    }
}

/* What an answer line says: KRT_OK when it starts with "ok". */
static int answer(KrtTransport *t, const char *ans, int timeout_ms, KrtError *e)
{
    if (!strncmp(ans, "ok", 2))
        return KRT_OK;
    if (!strncmp(ans, "timeout", 7))
        return krt_err(e, KRT_ETIMEOUT, "sim:%s: no done within %d ms", t->path, timeout_ms);
    return krt_err(e, KRT_EIO, "sim:%s: %s", t->path, !strncmp(ans, "err ", 4) ? ans + 4 : ans);
}

/* Send req (a line), optionally a payload, and read the answer line into
 * ans: KRT_OK when it starts with "ok". */
static int request(KrtTransport *t, const char *req, const void *payload, size_t n, char *ans,
                   size_t size, int timeout_ms, KrtError *e)
{
    long deadline = now_ms() + timeout_ms;
    int rc;
    if ((rc = send_all(t, req, strlen(req), e)) || (n && (rc = send_all(t, payload, n, e))) ||
        (rc = recv_line(t, ans, size, deadline, e)))
        return rc;
    return answer(t, ans, timeout_ms, e);
}

static int sim_reg_read(KrtTransport *t, uint32_t off, uint32_t *v, KrtError *e)
{
    char req[64], ans[320];
    int rc;
    snprintf(req, sizeof req, "rd 0x%" PRIx32 "\n", off);
    if ((rc = request(t, req, NULL, 0, ans, sizeof ans, IO_MS, e)))
        return rc;
    *v = (uint32_t)strtoul(ans + 2, NULL, 10);
    return KRT_OK;
}

static int sim_reg_write(KrtTransport *t, uint32_t off, uint32_t v, KrtError *e)
{
    char req[64], ans[320];
    snprintf(req, sizeof req, "wr 0x%" PRIx32 " 0x%" PRIx32 "\n", off, v);
    return request(t, req, NULL, 0, ans, sizeof ans, IO_MS, e);
}

static int sim_dma_alloc(KrtTransport *t, size_t size, uint64_t *base, KrtError *e)
{
    char req[96], ans[320];
    int rc;
    snprintf(req, sizeof req, "region 0x%" PRIx64 " %zu\n", (uint64_t)SIM_BASE, size);
    if ((rc = request(t, req, NULL, 0, ans, sizeof ans, IO_MS, e)))
        return rc;
    t->base = SIM_BASE;
    t->size = size;
    *base = SIM_BASE;
    return KRT_OK;
}

static int sim_mem_write(KrtTransport *t, size_t off, const void *p, size_t n, KrtError *e)
{
    char req[96], ans[320];
    if (off > t->size || n > t->size - off)
        return krt_err(e, KRT_EINVAL, "sim:%s: write of %zu bytes at %zu past the DMA buffer",
                       t->path, n, off);
    snprintf(req, sizeof req, "put 0x%" PRIx64 " %zu\n", t->base + off, n);
    return request(t, req, p, n, ans, sizeof ans, IO_MS, e);
}

static int sim_mem_read(KrtTransport *t, size_t off, void *p, size_t n, KrtError *e)
{
    char req[96], ans[320];
    int rc;
    if (off > t->size || n > t->size - off)
        return krt_err(e, KRT_EINVAL, "sim:%s: read of %zu bytes at %zu past the DMA buffer",
                       t->path, n, off);
    snprintf(req, sizeof req, "get 0x%" PRIx64 " %zu\n", t->base + off, n);
    if ((rc = request(t, req, NULL, 0, ans, sizeof ans, IO_MS, e)))
        return rc;
    return recv_all(t, p, n, now_ms() + IO_MS, e);
}

/* The server counts cycles, the caller milliseconds: the model gets
 * CYCLES_PER_MS cycles per ms of the timeout.  A Verilated model runs
 * slower than that under load, so the server sends a `busy CYCLES` line
 * each second of a wait: while they come, the answer is awaited at the
 * server's pace.  A server that sends nothing for the timeout plus
 * WAIT_SLACK_MS (at first) or BUSY_MS (after a busy line) hangs or died;
 * one whose busy lines go back or past the wait's cycles, or that runs
 * slower than MIN_PACE cycles per ms of the wall, is wrong. */
static int sim_wait_done(KrtTransport *t, uint32_t mask, int timeout_ms, int *by_irq,
                         KrtError *e)
{
    char req[64], ans[320];
    long long cap = (long long)timeout_ms * CYCLES_PER_MS, last = 0;
    long start = now_ms(), deadline = start + timeout_ms + WAIT_SLACK_MS;
    int rc;
    snprintf(req, sizeof req, "wait %lld 0x%" PRIx32 "\n", cap, mask);
    if ((rc = send_all(t, req, strlen(req), e)))
        return rc;
    for (;;) {
        char *end;
        long long c;
        if ((rc = recv_line(t, ans, sizeof ans, deadline, e)))
            return rc;
        if (strncmp(ans, "busy ", 5))
            break;
        c = strtoll(ans + 5, &end, 10);
        if (end == ans + 5 || *end || c < last || c > cap)
            return krt_err(e, KRT_EIO, "sim:%s: busy line '%s' outside the wait of %lld cycles "
                           "(last %lld)", t->path, ans, cap, last);
        if ((now_ms() - start - WAIT_SLACK_MS) * MIN_PACE > cap)
            return krt_err(e, KRT_ETIMEOUT, "sim:%s: the model ran %lld of the wait's %lld "
                           "cycles in %ld ms, under %d a ms", t->path, c, cap,
                           now_ms() - start, MIN_PACE);
        last = c;
        deadline = now_ms() + BUSY_MS;
    }
    rc = answer(t, ans, timeout_ms, e);
    *by_irq = rc == KRT_OK && strstr(ans, " irq") != NULL; /* "ok CYCLES irq|status" */
    return rc;
}

/* The simulator's cycle ("run 0" runs none and answers it). */
static int sim_clock(KrtTransport *t, uint64_t *now, KrtError *e)
{
    char ans[320];
    int rc = request(t, "run 0\n", NULL, 0, ans, sizeof ans, IO_MS, e);
    if (!rc)
        *now = strtoull(ans + 2, NULL, 10);
    return rc;
}

static void sim_close(KrtTransport *t)
{
    if (t->fd >= 0)
        close(t->fd);
    krt_free(t);
}

/* The simulated top takes every address of its map: nothing to map. */
static int sim_reg_window(KrtTransport *t, uint32_t bytes, KrtError *e)
{
    (void)t, (void)bytes, (void)e;
    return KRT_OK;
}

static const KrtOps sim_ops = {"sim",         sim_reg_read,  sim_reg_write, sim_reg_window,
                               sim_dma_alloc, sim_mem_write, sim_mem_read,  sim_wait_done,
                               sim_clock,     "cycles",      sim_close};

int krt_sim_open(const char *arg, KrtTransportRef *out, KrtError *e)
{
    struct sockaddr_un sa;
    KrtTransport *t;
    if (strlen(arg) == 0 || strlen(arg) >= sizeof sa.sun_path)
        return krt_err(e, KRT_EINVAL, "sim:%s: expected the path of the server's socket", arg);
    t = krt_alloc(sizeof *t);
    if (!t)
        return krt_err(e, KRT_ENOMEM, "sim:%s: out of memory", arg);
    memset(t, 0, sizeof *t);
    strcpy(t->path, arg);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    strcpy(sa.sun_path, arg);
    t->fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (t->fd < 0 || connect(t->fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        int err = errno;
        sim_close(t);
        return krt_err(e, KRT_EIO, "sim:%s: cannot connect: %s (is kiln simulate DIR --serve "
                       "running?)", arg, strerror(err));
    }
    out->ops = &sim_ops;
    out->t = t;
    return KRT_OK;
}
