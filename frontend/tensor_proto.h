/*
 * Folder-private to frontend/: what onnx.c and tensor_io.c share.  Both read
 * ONNX TensorProto messages (initializers, Constant values, .pb tensor files)
 * and both read whole files defensively.
 */
#ifndef KILN_FRONTEND_TENSOR_PROTO_H
#define KILN_FRONTEND_TENSOR_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/frontend.h"
#include "onnx.pb-c.h"

/* The name a missing path gets in diagnostics. */
#define FE_MEMORY_NAME "<memory>"

/* Decode one TensorProto into t, its data allocated from a.  Every element
 * count is checked against dims; external data is read from files under dir
 * (NULL: refused) and may not leave it.  Errors name path and, when it has
 * one, the tensor ("tensor 'w': ...").  *unsupported (may be NULL) is set to
 * 1 when the tensor is well formed but uses something kiln does not take
 * (a data type, segments). */
int fe_tensor_proto_decode(const Onnx__TensorProto *tp, const char *path, const char *dir,
                           GirArena *a, int *unsupported, GirTensor *t, GirError *e);

/* Read a whole regular file into malloc'd memory (free with free()); NULL +
 * error naming path when it cannot be opened, is not a regular file, is
 * larger than max bytes, or a read fails.  A zero-length file gives a
 * non-NULL buffer and *len 0. */
uint8_t *fe_read_file(const char *path, size_t max, size_t *len, GirError *e);

/* The folder part of path ("." when it has none), allocated from a; NULL
 * when path is NULL. */
char *fe_dir_of(GirArena *a, const char *path);

#endif
