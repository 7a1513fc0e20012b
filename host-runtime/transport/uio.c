/*
 * The uio transport: the accelerator on a board, its AXI-Lite registers
 * and interrupt through a generic-uio device (/dev/uioN: mmap of map 0 for
 * the registers, read() for the interrupt count, write(1) to re-arm it),
 * its DMA buffer from u-dma-buf (/dev/udmabufM mmapped; the bus address in
 * /sys/class/u-dma-buf/udmabufM/phys_addr, its size in .../size, cache
 * maintenance through .../sync_for_cpu and .../sync_for_device).  Spec:
 * "uio:/dev/uioN[,/dev/udmabufM]".  Not run against hardware here
 * (docs/runtime.md says what was tested).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "transport/transport.h"

#define REG_SPAN 4096 /* bytes of the register window mapped at open (12 address bits) */
#define REG_STATUS 0x04

struct KrtTransport {
    int fd;                 /* /dev/uioN */
    volatile uint32_t *reg; /* its map 0 */
    size_t span;            /* bytes of it mapped */
    char uio[128];          /* its path */
    char dma[128];          /* /dev/udmabufM */
    char sys[192];          /* /sys/class/u-dma-buf/udmabufM */
    int dfd;                /* the udmabuf, -1 before dma_alloc */
    uint8_t *mem;           /* its mapping */
    size_t size;            /* bytes mapped */
};

/* A whole decimal or 0x number from the sysfs file sys/name. */
static int sys_read(KrtTransport *t, const char *name, uint64_t *v, KrtError *e)
{
    char path[256], buf[64];
    ssize_t n;
    int fd;
    snprintf(path, sizeof path, "%s/%s", t->sys, name);
    fd = open(path, O_RDONLY);
    if (fd < 0)
        return krt_err(e, KRT_EIO, "%s: cannot read: %s", path, strerror(errno));
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return krt_err(e, KRT_EIO, "%s: cannot read", path);
    buf[n] = 0;
    *v = strtoull(buf, NULL, 0);
    return KRT_OK;
}

/* Write text into the sysfs file sys/name. */
static int sys_write(KrtTransport *t, const char *name, const char *text, KrtError *e)
{
    char path[256];
    int fd;
    snprintf(path, sizeof path, "%s/%s", t->sys, name);
    fd = open(path, O_WRONLY);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        return krt_err(e, KRT_EIO, "%s: cannot write: %s", path, strerror(err));
    }
    close(fd);
    return KRT_OK;
}

/* Cache maintenance of bytes off..off+n: "sync_for_cpu" before the CPU reads
 * what the device wrote, "sync_for_device" after the CPU wrote.  u-dma-buf
 * takes "0xOFFSET,SIZE,DIRECTION" (1 to the device, 2 from it). */
static int sync_range(KrtTransport *t, const char *which, size_t off, size_t n, int dir,
                      KrtError *e)
{
    char text[96];
    snprintf(text, sizeof text, "0x%zx,%zu,%d", off, n, dir);
    return sys_write(t, which, text, e);
}

static int uio_reg_read(KrtTransport *t, uint32_t off, uint32_t *v, KrtError *e)
{
    if (off >= t->span || off % 4)
        return krt_err(e, KRT_EINVAL, "%s: register 0x%" PRIx32 " outside the map", t->uio, off);
    *v = t->reg[off / 4];
    return KRT_OK;
}

static int uio_reg_write(KrtTransport *t, uint32_t off, uint32_t v, KrtError *e)
{
    if (off >= t->span || off % 4)
        return krt_err(e, KRT_EINVAL, "%s: register 0x%" PRIx32 " outside the map", t->uio, off);
    t->reg[off / 4] = v;
    return KRT_OK;
}

/* A register map larger than the window mapped at open (a design with more
 * channels or stages, hls/hw.h): map 0 again, that long.  The UIO device's
 * map 0 (the overlay's reg size) must be at least as large. */
static int uio_reg_window(KrtTransport *t, uint32_t bytes, KrtError *e)
{
    void *m;
    if (bytes <= t->span)
        return KRT_OK;
    m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
    if (m == MAP_FAILED)
        return krt_err(e, KRT_EIO, "%s: cannot map %" PRIu32 " bytes of registers (the model's "
                       "register map; the overlay's reg size must be as large): %s", t->uio,
                       bytes, strerror(errno));
    munmap((void *)t->reg, t->span);
    t->reg = m;
    t->span = bytes;
    return KRT_OK;
}

static int uio_dma_alloc(KrtTransport *t, size_t size, uint64_t *base, KrtError *e)
{
    uint64_t phys, have;
    int rc;
    const char *name = strrchr(t->dma, '/');
    snprintf(t->sys, sizeof t->sys, "/sys/class/u-dma-buf/%s", name ? name + 1 : t->dma);
    if ((rc = sys_read(t, "phys_addr", &phys, e)) || (rc = sys_read(t, "size", &have, e)))
        return rc;
    if (have < size)
        return krt_err(e, KRT_ENOMEM, "%s: %" PRIu64 " bytes, the model needs %zu (the "
                       "overlay's u-dma-buf size)", t->dma, have, size);
    t->dfd = open(t->dma, O_RDWR | O_SYNC);
    if (t->dfd < 0)
        return krt_err(e, KRT_EIO, "%s: cannot open: %s", t->dma, strerror(errno));
    t->mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, t->dfd, 0);
    if (t->mem == MAP_FAILED) {
        t->mem = NULL;
        return krt_err(e, KRT_EIO, "%s: cannot map: %s", t->dma, strerror(errno));
    }
    t->size = size;
    *base = phys;
    return KRT_OK;
}

static int uio_mem_write(KrtTransport *t, size_t off, const void *p, size_t n, KrtError *e)
{
    if (!t->mem || off > t->size || n > t->size - off)
        return krt_err(e, KRT_EINVAL, "%s: write of %zu bytes at %zu past the buffer", t->dma,
                       n, off);
    memcpy(t->mem + off, p, n);
    return sync_range(t, "sync_for_device", off, n, 1, e);
}

static int uio_mem_read(KrtTransport *t, size_t off, void *p, size_t n, KrtError *e)
{
    int rc;
    if (!t->mem || off > t->size || n > t->size - off)
        return krt_err(e, KRT_EINVAL, "%s: read of %zu bytes at %zu past the buffer", t->dma, n,
                       off);
    if ((rc = sync_range(t, "sync_for_cpu", off, n, 2, e)))
        return rc;
    memcpy(p, t->mem + off, n);
    return KRT_OK;
}

static int uio_clock(KrtTransport *t, uint64_t *now, KrtError *e);

/* Wait for the interrupt (done & enabled) with poll(), then re-arm it; a
 * STATUS read confirms a done of mask (an interrupt of an earlier run is
 * skipped).  The timeout counts from the call, however many interrupts come. */
static int uio_wait_done(KrtTransport *t, uint32_t mask, int timeout_ms, int *by_irq,
                         KrtError *e)
{
    uint32_t one = 1, count;
    struct pollfd pf = {t->fd, POLLIN, 0};
    uint64_t t0, now;
    *by_irq = 0;
    uio_clock(t, &t0, e);
    for (;;) {
        int r;
        long left;
        if (t->reg[REG_STATUS / 4] & mask)
            return KRT_OK;
        uio_clock(t, &now, e);
        left = (long)timeout_ms - (long)((now - t0) / 1000000u);
        r = poll(&pf, 1, left > 0 ? (int)left : 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return krt_err(e, KRT_ETIMEOUT, "%s: no interrupt within %d ms", t->uio, timeout_ms);
        if (r < 0 || read(t->fd, &count, sizeof count) != (ssize_t)sizeof count)
            return krt_err(e, KRT_EIO, "%s: interrupt read: %s", t->uio, strerror(errno));
        if (write(t->fd, &one, sizeof one) != (ssize_t)sizeof one)
            return krt_err(e, KRT_EIO, "%s: interrupt re-arm: %s", t->uio, strerror(errno));
        *by_irq = 1;
    }
}

static int uio_clock(KrtTransport *t, uint64_t *now, KrtError *e)
{
    struct timespec ts;
    (void)t, (void)e;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    *now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return KRT_OK;
}

static void uio_close(KrtTransport *t)
{
    if (t->mem)
        munmap(t->mem, t->size);
    if (t->dfd >= 0)
        close(t->dfd);
    if (t->reg)
        munmap((void *)t->reg, t->span);
    if (t->fd >= 0)
        close(t->fd);
    krt_free(t);
}

static const KrtOps uio_ops = {"uio",         uio_reg_read,  uio_reg_write, uio_reg_window,
                               uio_dma_alloc, uio_mem_write, uio_mem_read,  uio_wait_done,
                               uio_clock,     "ns",          uio_close};

int krt_uio_open(const char *arg, KrtTransportRef *out, KrtError *e)
{
    const char *comma = strchr(arg, ',');
    size_t ul = comma ? (size_t)(comma - arg) : strlen(arg);
    uint32_t one = 1;
    KrtTransport *t;
    void *m;
    if (ul == 0 || ul >= sizeof t->uio || (comma && strlen(comma + 1) >= sizeof t->dma))
        return krt_err(e, KRT_EINVAL, "uio:%s: expected uio:/dev/uioN[,/dev/udmabufM]", arg);
    t = krt_alloc(sizeof *t);
    if (!t)
        return krt_err(e, KRT_ENOMEM, "uio:%s: out of memory", arg);
    memset(t, 0, sizeof *t);
    t->dfd = -1;
    memcpy(t->uio, arg, ul);
    strcpy(t->dma, comma ? comma + 1 : "/dev/kiln-dma");
    t->fd = open(t->uio, O_RDWR | O_SYNC);
    if (t->fd < 0) {
        int err = errno;
        uio_close(t);
        return krt_err(e, KRT_EIO, "%s: cannot open: %s", arg, strerror(err));
    }
    m = mmap(NULL, REG_SPAN, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
    if (m == MAP_FAILED) {
        int err = errno;
        uio_close(t);
        return krt_err(e, KRT_EIO, "%s: cannot map the registers: %s", arg, strerror(err));
    }
    t->reg = m;
    t->span = REG_SPAN;
    if (write(t->fd, &one, sizeof one) != (ssize_t)sizeof one) { /* arm the interrupt */
        int err = errno;
        uio_close(t);
        return krt_err(e, KRT_EIO, "%s: cannot enable the interrupt: %s", arg, strerror(err));
    }
    out->ops = &uio_ops;
    out->t = t;
    return KRT_OK;
}
