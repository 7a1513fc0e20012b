/*
 * Builds small ONNX ModelProto messages in memory for the frontend tests,
 * through the same protobuf-c code the reader uses: models at old opsets,
 * every initializer storage form, and deliberately broken ones.
 *
 * All strings and arrays passed in must outlive mb_pack (tests pass
 * literals).  A builder holds at most a fixed number of each part; going past
 * it aborts, as that is a bug in the test.
 */
#ifndef KILN_TESTS_FRONTEND_ONNX_BUILDER_H
#define KILN_TESTS_FRONTEND_ONNX_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "onnx.pb-c.h"

#define MB_MAX 32 /* nodes, attributes, values, initializers per model */

typedef struct {
    Onnx__ModelProto model;                       /* the message packed */
    Onnx__OperatorSetIdProto opset;               /* the default-domain opset */
    Onnx__OperatorSetIdProto *opsets[1];          /* model.opset_import */
    Onnx__GraphProto graph;                       /* model.graph */
    Onnx__NodeProto nodes[MB_MAX];                /* graph nodes */
    Onnx__NodeProto *node_ptrs[MB_MAX];           /* graph.node */
    Onnx__AttributeProto attrs[MB_MAX];           /* attributes of all nodes */
    Onnx__AttributeProto *attr_ptrs[MB_MAX];      /* node.attribute slices */
    int nattr;                                    /* attributes used */
    Onnx__ValueInfoProto vis[MB_MAX];             /* graph inputs and outputs */
    Onnx__ValueInfoProto *in_ptrs[MB_MAX];        /* graph.input */
    Onnx__ValueInfoProto *out_ptrs[MB_MAX];       /* graph.output */
    Onnx__ValueInfoProto *vinfo_ptrs[MB_MAX];     /* graph.value_info */
    int nvi;                                      /* value infos used (all lists) */
    Onnx__TypeProto types[MB_MAX];                /* one per value info */
    Onnx__TypeProto__Tensor ttypes[MB_MAX];       /* tensor type per value info */
    Onnx__TensorShapeProto shapes[MB_MAX];        /* shape per value info */
    Onnx__TensorShapeProto__Dimension dims[MB_MAX * 8];     /* their dims */
    Onnx__TensorShapeProto__Dimension *dim_ptrs[MB_MAX * 8]; /* shape.dim slices */
    int ndim;                                     /* dims used */
    Onnx__TensorProto inits[MB_MAX];              /* initializers */
    Onnx__TensorProto *init_ptrs[MB_MAX];         /* graph.initializer */
    Onnx__StringStringEntryProto kvs[MB_MAX];     /* external data entries */
    Onnx__StringStringEntryProto *kv_ptrs[MB_MAX]; /* tensor.external_data slices */
    int nkv;                                      /* entries used */
} ModelBuilder;

/* A fresh builder (calloc'd; free with free()) at the given opset. */
ModelBuilder *mb_new(int64_t opset);
/* A graph input of ONNX element type elem; a dim of -1 becomes symbolic. */
void mb_input(ModelBuilder *b, const char *name, int elem, int rank, const int64_t *dims);
/* A typed value_info entry for an intermediate value. */
void mb_value_info(ModelBuilder *b, const char *name, int elem, int rank, const int64_t *dims);
/* A graph output (no type: the reader infers it). */
void mb_output(ModelBuilder *b, const char *name);
/* An initializer with no data yet; fill the returned TensorProto's fields. */
Onnx__TensorProto *mb_init(ModelBuilder *b, const char *name, int elem, int rank,
                           const int64_t *dims);
/* An f32 initializer stored in float_data. */
void mb_init_f32(ModelBuilder *b, const char *name, int rank, const int64_t *dims,
                 float *data, size_t n);
/* An external-data key/value entry for initializer t. */
void mb_external(ModelBuilder *b, Onnx__TensorProto *t, const char *key, const char *value);
/* A node; ins and outs are NULL-terminated lists ("" for an absent input). */
Onnx__NodeProto *mb_node(ModelBuilder *b, const char *op, const char *name,
                         const char *const *ins, const char *const *outs);
/* Attributes of the most recently added node. */
void mb_attr_int(ModelBuilder *b, const char *name, int64_t v);
void mb_attr_float(ModelBuilder *b, const char *name, float v);
void mb_attr_string(ModelBuilder *b, const char *name, const char *v);
void mb_attr_ints(ModelBuilder *b, const char *name, int64_t *v, size_t n);
void mb_attr_floats(ModelBuilder *b, const char *name, float *v, size_t n);
void mb_attr_tensor(ModelBuilder *b, const char *name, Onnx__TensorProto *t);
/* The packed model, malloc'd; *len its size. */
uint8_t *mb_pack(ModelBuilder *b, size_t *len);

#endif
