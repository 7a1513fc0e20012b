/*
 * libkiln-rt: the host side of an accelerator kiln compiled (kiln compile
 * -o DIR).  Opens the accelerator through a transport, loads the compiled
 * model (DIR/rtl/regmap.json and DIR/rtl/weights.bin), runs frames.  C11,
 * no code of the compiler; builds for x86-64 and aarch64.  docs/runtime.md
 * describes the transports, the socket protocol and what was tested.
 *
 * Transports (the spec given to krt_open):
 *   "sim:SOCKET"                    kiln simulate DIR --serve SOCKET
 *   "uio:/dev/uioN[,/dev/DMABUF]"   registers and interrupt through UIO,
 *                                   DMA buffers from u-dma-buf (default
 *                                   /dev/kiln-dma, the name kiln.dtso gives)
 *
 * Errors: every function returns KRT_OK or a KRT_ status after writing one
 * line into a KrtError (when given).  Nothing here prints or exits.
 * Allocation goes through krt_set_allocator's functions when set.
 */
#ifndef KILN_RT_H
#define KILN_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    KRT_OK = 0,       /* success */
    KRT_EINVAL = 1,   /* bad argument, malformed or missing model file */
    KRT_ENOMEM = 2,   /* an allocation failed */
    KRT_EIO = 3,      /* the transport failed (device, socket, server gone) */
    KRT_ETIMEOUT = 4, /* done did not come within the timeout */
    KRT_EHASH = 5,    /* the accelerator was built from another plan */
    KRT_EDEVICE = 6,  /* the accelerator reported an error (ERROR register) */
};

/* One error line. */
typedef struct KrtError {
    int code;       /* the KRT_ status */
    char msg[320];  /* what failed, naming the file, register or transport */
} KrtError;

/* An open accelerator. */
typedef struct KrtDev KrtDev;
/* A model loaded onto an open accelerator. */
typedef struct KrtModel KrtModel;

/* One tensor channel of the model as the accelerator sees it in DDR: raster
 * order, per pixel ceil(c / lanes) beats of lanes int8 bytes, channels
 * innermost, unused lanes 0, zero padded to frame_bytes. */
typedef struct KrtTensor {
    const char *name;   /* channel name ("in0", "out0") */
    const char *value;  /* the graph value it carries */
    int segment;        /* FPGA segment */
    int h, w, c, lanes; /* map shape and lanes at the port */
    size_t frame_bytes; /* bytes of one frame's image */
} KrtTensor;

/* Replace malloc/free for everything libkiln-rt allocates (NULL, NULL:
 * the C library's).  Set it before krt_open; a test allocator fails
 * allocations on purpose. */
void krt_set_allocator(void *(*alloc)(size_t), void (*release)(void *));

/* Open the accelerator of spec (see above); KRT_OK and *out. */
int krt_open(const char *spec, KrtDev **out, KrtError *e);
void krt_close(KrtDev *d);

/* Read STATUS (bit0 busy, bit1 done) and the sticky ERROR register. */
int krt_status(KrtDev *d, uint32_t *status, uint32_t *error, KrtError *e);

/* Load the compiled folder dir onto d: read DIR/rtl/regmap.json, refuse an
 * accelerator whose plan hash registers differ from the model's
 * (KRT_EHASH), place weights.bin and one buffer per tensor channel in DMA
 * memory and write their addresses into the base registers. */
int krt_load(KrtDev *d, const char *dir, KrtModel **out, KrtError *e);
void krt_unload(KrtModel *m);

/* The model's input (graph inputs of each segment) and output channels. */
int krt_num_inputs(const KrtModel *m);
int krt_num_outputs(const KrtModel *m);
const KrtTensor *krt_input(const KrtModel *m, int i);
const KrtTensor *krt_output(const KrtModel *m, int i);

/* Convert between an int8 HxWxC tensor and a channel's DDR image. */
void krt_image_from_hwc(const KrtTensor *t, const int8_t *hwc, uint8_t *image);
void krt_hwc_from_image(const KrtTensor *t, const uint8_t *image, int8_t *hwc);

/* Run one frame: inputs[i] is the image of krt_input(m, i) (frame_bytes),
 * outputs[i] receives that of krt_output(m, i).  Every segment runs in
 * the frame's order (regmap.json tsconv.segment_order, else by number); each waits for done (the interrupt, or STATUS) at most timeout_ms.
 * A non-zero ERROR register after a segment fails the frame (KRT_EDEVICE). */
int krt_run(KrtModel *m, const uint8_t *const *inputs, uint8_t *const *outputs, int timeout_ms,
            KrtError *e);

/* The number of FPGA segments (regmap.json's segments, then the parts of the
 * shared conv engine of "tsconv", a segment each: a part's input and output
 * maps are inputs and outputs of its segment, the descriptor table
 * relocated when loaded).  krt_run runs them in tsconv.segment_order. */
int krt_num_segments(const KrtModel *m);
/* Run segment sg (0 .. krt_num_segments - 1) alone, as krt_run does it:
 * writes the images of that segment's inputs, runs it, reads its outputs
 * (inputs / outputs indexed as for krt_run; other entries are not used).
 * A driver with CPU layers between segments calls it once per segment in
 * the model's order, the CPU layers between.  KRT_EINVAL for a segment out
 * of range. */
int krt_run_segment(KrtModel *m, int sg, const uint8_t *const *inputs, uint8_t *const *outputs,
                    int timeout_ms, KrtError *e);

/* Run frames frames as kiln simulate runs them (host-runtime/kiln_sched.h):
 * with a kiln_regfile run unit per dataflow segment (segment k on unit k)
 * and the shared engine's parts on the unit after them (regmap.json
 * tsconv.unit, the number of dataflow segments), all at once, up to
 * krt_frames_in_flight frames in flight, each in a slot of its own (the
 * channels' buffers, the engine's map region and a descriptor table
 * relocated to it); else one run after the other, as krt_run.  inputs[f][i]
 * is frame f's image of krt_input(m, i), read for the inputs no earlier run
 * of the frame feeds (krt_input_fed 0; the others may be NULL: libkiln-rt
 * copies the output carrying the value over, laid out for the input's
 * lanes).  outputs[f][i] receives frame f's image of krt_output(m, i) (all
 * given).  Each wait (a running unit's done: the interrupt with IER set to
 * the running units, or STATUS) lasts at most timeout_ms; STATUS with bits
 * beyond the units' (two a unit) or without a running unit's done, a
 * unit that does not start, or a non-zero ERROR fails the call
 * (KRT_EDEVICE naming the frame and segment). */
int krt_run_frames(KrtModel *m, int frames, const uint8_t *const *const *inputs,
                   uint8_t *const *const *outputs, int timeout_ms, KrtError *e);
/* 1 when krt_run_frames feeds input i from an earlier run of the frame. */
int krt_input_fed(const KrtModel *m, int i);
/* The frames krt_run_frames keeps in flight (regmap.json
 * tsconv.frames_in_flight with tsconv.unit, else 1). */
int krt_frames_in_flight(const KrtModel *m);
/* After krt_run_frames: 1 and *t, when frame f's last run was seen done,
 * on the transport's clock (*unit "cycles": the simulator's; "ns":
 * CLOCK_MONOTONIC), else 0. */
int krt_frame_done(const KrtModel *m, int f, uint64_t *t, const char **unit);

/* The CYCLES register after the last segment of the last frame. */
uint32_t krt_last_cycles(const KrtModel *m);
/* 1 when the last segment's done was seen by the interrupt, 0 by STATUS. */
int krt_last_by_irq(const KrtModel *m);

#ifdef __cplusplus
}
#endif

#endif
