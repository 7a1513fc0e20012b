/*
 * The transports of libkiln-rt (internal): each opens an accelerator and
 * gives the same operations on it.  Registers are byte offsets of the
 * AXI-Lite slave; DMA memory is one buffer the device reads and writes, at
 * bus address base, accessed by offset.
 */
#ifndef KILN_RT_TRANSPORT_H
#define KILN_RT_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "kiln_rt.h"

/* One open transport. */
typedef struct KrtTransport KrtTransport;

/* The operations of one transport kind; each returns KRT_OK or a status
 * after filling e. */
typedef struct KrtOps {
    const char *name;                                         /* "sim" or "uio" */
    int (*reg_read)(KrtTransport *t, uint32_t off, uint32_t *v, KrtError *e);  /* register read */
    int (*reg_write)(KrtTransport *t, uint32_t off, uint32_t v, KrtError *e);  /* register write */
    /* the register window at least bytes long (the model's map: regmap.json
     * axil_addr_bits), before any register past the first 4 KiB is used */
    int (*reg_window)(KrtTransport *t, uint32_t bytes, KrtError *e);
    int (*dma_alloc)(KrtTransport *t, size_t size, uint64_t *base, KrtError *e); /* the buffer */
    int (*mem_write)(KrtTransport *t, size_t off, const void *p, size_t n, KrtError *e); /* to it */
    int (*mem_read)(KrtTransport *t, size_t off, void *p, size_t n, KrtError *e);  /* from it */
    /* a done of mask (STATUS bits: 0x2 unit 0's done, bit 2u+1 unit u's) within
     * timeout_ms (*by_irq 1 when the interrupt told; IER enables the units
     * of mask), or KRT_ETIMEOUT */
    int (*wait_done)(KrtTransport *t, uint32_t mask, int timeout_ms, int *by_irq, KrtError *e);
    /* the time now on the transport's clock (clock_unit) */
    int (*clock)(KrtTransport *t, uint64_t *now, KrtError *e);
    const char *clock_unit; /* "cycles" (the simulator's) or "ns" (CLOCK_MONOTONIC) */
    void (*close)(KrtTransport *t);                           /* release everything */
} KrtOps;

/* The transport behind an open device. */
typedef struct KrtTransportRef {
    const KrtOps *ops; /* its operations */
    KrtTransport *t;   /* its state */
} KrtTransportRef;

/* Open "sim:SOCKET" (arg = SOCKET) or "uio:..." (arg = the rest). */
int krt_sim_open(const char *arg, KrtTransportRef *out, KrtError *e);
int krt_uio_open(const char *arg, KrtTransportRef *out, KrtError *e);

/* Internal helpers of libkiln-rt (rt.c). */
void *krt_alloc(size_t n);
void krt_free(void *p);
int krt_err(KrtError *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
