/*
 * kiln_driver.h: the driver's types and helpers (copied by kiln compile into
 * DIR/driver/ beside the generated model.c/model.h).  C11, no code of the
 * compiler; builds for x86-64 and aarch64.  Functions return 0 or -1 after
 * writing one line into the caller's error buffer; nothing here exits.
 */
#ifndef KILN_DRIVER_H
#define KILN_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kiln_preproc.h"
#include "kiln_rt.h"

#define KD_MAX_RANK 6   /* largest tensor rank of a model input or output */
#define KD_MAX_OUT 16   /* largest number of model outputs */
#define KD_ERR 400      /* size of an error line */

/* One fp32 tensor the model takes or gives (dense, in its dims order). */
typedef struct {
    const char *name;           /* graph value name */
    int rank;                   /* number of axes */
    int64_t dims[KD_MAX_RANK];  /* extent of each axis */
} KdTensorInfo;

/* Image preprocessing baked in from kiln compile's options: libkiln-rt's
 * one definition (kiln-rt/kiln_preproc.h), the one kiln run uses. */
typedef KrtPreproc KdPreproc;

enum { KD_DETECT_NONE = 0, KD_DETECT_YOLOV3 = 1, KD_DETECT_REGION = 2 };

/* Detector heads: how the decoder reads the outputs. */
typedef struct {
    int kind;              /* KD_DETECT_ */
    int classes;           /* classes per anchor */
    int activated;         /* 1: x, y, obj, classes already through the logistic (YoloHead) */
    int nanchors[KD_MAX_OUT]; /* anchors of each output */
    const float *anchors[KD_MAX_OUT]; /* W,H pairs of each output (yolov3: input pixels,
                                          region: grid cells) */
    float score_threshold; /* boxes below are dropped */
    float iou_threshold;   /* NMS: a box overlapping a better one of its class more is dropped */
} KdDetect;

/* What a generated model.c describes. */
typedef struct {
    const char *name;          /* model name */
    int ninputs, noutputs;     /* graph inputs and outputs */
    KdTensorInfo in[KD_MAX_OUT];   /* inputs */
    KdTensorInfo out[KD_MAX_OUT];  /* outputs */
    KdPreproc pre;             /* image preprocessing */
    KdDetect det;              /* detector heads (kind NONE: none) */
} KdModelInfo;

/* A model loaded on an accelerator with its frame buffers. */
typedef struct {
    KrtDev *dev;        /* the open accelerator */
    KrtModel *m;        /* the loaded model */
    uint8_t **in_img;   /* one DDR image per FPGA input channel */
    uint8_t **out_img;  /* one DDR image per FPGA output channel */
    int8_t *scratch;    /* int8 work buffer of kd_put_value / kd_get_value */
    int nframes;        /* frames of fin and fout (kd_frames) */
    uint8_t ***fin;     /* per frame: one DDR image per FPGA input channel */
    uint8_t ***fout;    /* per frame: one DDR image per FPGA output channel */
} KdRun;

int64_t kd_numel(const KdTensorInfo *t);

/* Open spec, load dir (the kiln compile output folder), allocate the
 * frame buffers.  0, or -1 + err. */
int kd_open(KdRun *r, const char *spec, const char *dir, char *err);
void kd_close(KdRun *r);

/* QuantizeLinear as kiln's int8 interpreter: saturate(rint(x / scale) + zp),
 * the division in f32, NaN as 0. */
void kd_quantize(const float *x, int64_t n, float scale, int zp, int8_t *y);
/* DequantizeLinear: (q - zp) * scale in f32. */
void kd_dequantize(const int8_t *q, int64_t n, float scale, int zp, float *y);
/* DequantizeLinear with a scale per channel (a head conv's): element i is in
 * channel (i / inner) % nch; q * scale[channel] in f32. */
void kd_dequantize_ch(const int8_t *q, int64_t n, const float *scale, int nch, int64_t inner,
                      float *y);
/* The int8 map of graph value `value` (n elements, c x h x w when nchw,
 * else h x w x c) into the DDR image of every FPGA input channel carrying
 * it; 0, or -1 + err when there is none or its size differs. */
int kd_put_value(KdRun *r, const char *value, const int8_t *map, int64_t n, int nchw, char *err);
/* The map of graph value `value` from the FPGA output channel carrying it. */
int kd_get_value(KdRun *r, const char *value, int8_t *map, int64_t n, int nchw, char *err);
/* Run FPGA segment seg once on the input images (its inputs put before,
 * its outputs got after); 0 or -1 + err. */
int kd_run_segment(KdRun *r, int seg, int timeout_ms, char *err);
/* Frame images for frames frames (fin, fout); 0, or -1 + err. */
int kd_frames(KdRun *r, int frames, char *err);
/* kd_put_value / kd_get_value on frame f's images. */
int kd_put_frame_value(KdRun *r, int f, const char *value, const int8_t *map, int64_t n,
                       int nchw, char *err);
int kd_get_frame_value(KdRun *r, int f, const char *value, int8_t *map, int64_t n, int nchw,
                       char *err);
/* The FPGA part of frames frames at once (krt_run_frames: the shared
 * engine beside the dataflow, frames in flight) on the frame images. */
int kd_run_frames(KdRun *r, int frames, int timeout_ms, char *err);
/* Darknet [yolo] (YoloHead) on an fp32 [1, C, H, W] tensor in place. */
void kd_yolo_head(float *x, int64_t c, int64_t plane, int classes);

/* A file written whole or not at all: kd_create opens a temporary name
 * beside path (into tmp, 4096 bytes); kd_commit closes it and renames it
 * to path when ok, else removes it.  0, or -1 + err naming the file. */
FILE *kd_create(const char *path, char *tmp, char *err);
int kd_commit(FILE *f, const char *tmp, const char *path, int ok, char *err);

/* ---- generated in model.c ---- */
extern const KdModelInfo kd_model;
/* One frame: inputs[i] of kd_model.in[i], outputs[i] of kd_model.out[i]. */
int kd_model_run(KdRun *r, const float *const *inputs, float *const *outputs, int timeout_ms,
                 char *err);
/* frames frames: inputs[f][i], outputs[f][i] as kd_model_run's of frame f.
 * Through kd_run_frames when the FPGA part is one folded plan without CPU
 * steps between its segments; else kd_model_run a frame at a time, and
 * kd_model_frames_why says why (empty when frames run at once). */
int kd_model_run_frames(KdRun *r, int frames, const float *const *const *inputs,
                        float *const *const *outputs, int timeout_ms, char *err);
extern const char kd_model_frames_why[];

/* ---- npy.c ---- */
/* Read path as an fp32 .npy of exactly t's shape into a new buffer. */
float *kd_npy_read(const char *path, const KdTensorInfo *t, char *err);
/* Read an fp32 .npy of any shape (rank <= KD_MAX_RANK); its shape into *t. */
float *kd_npy_read_any(const char *path, KdTensorInfo *t, char *err);
/* Write an fp32 .npy whole or not at all (temporary name, rename). */
int kd_npy_write(const char *path, const KdTensorInfo *t, const float *data, char *err);

/* ---- image.c ---- */
/* An 8-bit RGB picture. */
typedef struct {
    int w, h;        /* size in pixels */
    uint8_t *rgb;    /* w * h * 3 bytes */
} KdImage;
int kd_image_load(const char *path, KdImage *im, char *err);
void kd_image_free(KdImage *im);
/* The model input tensor t from im by kd_model.pre (krt_preprocess). */
int kd_preprocess(const KdImage *im, const KdTensorInfo *t, float *x, char *err);
/* Write im as PNG (temporary name, rename). */
int kd_image_write_png(const char *path, const KdImage *im, char *err);

/* ---- decode.c ---- */
/* One detection in picture pixels. */
typedef struct {
    float x0, y0, x1, y1; /* corners */
    float score;          /* objectness x class probability */
    int cls;              /* class index */
} KdBox;
/* Decode the outputs (fp32, kd_model.out shapes) into boxes after NMS,
 * best first, in the pixels of a picture of img_w x img_h (the model's
 * input size when 0).  *boxes is malloc'd; count in *n.  0 or -1 + err. */
int kd_decode(const float *const *outs, const KdTensorInfo *shapes, int nout, int img_w,
              int img_h, KdBox **boxes, int *n, char *err);
/* Write the boxes as JSON (temporary name, rename). */
int kd_boxes_json(const char *path, const KdBox *b, int n, char *err);
/* Draw the boxes into im. */
void kd_boxes_draw(KdImage *im, const KdBox *b, int n);

#endif
