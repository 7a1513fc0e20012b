/*
 * ModelBuilder: see onnx_builder.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_builder.h"

static void need(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "onnx_builder: too many %s\n", what);
        abort();
    }
}

ModelBuilder *mb_new(int64_t opset)
{
    ModelBuilder *b = calloc(1, sizeof *b);
    Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
    Onnx__OperatorSetIdProto os = ONNX__OPERATOR_SET_ID_PROTO__INIT;
    Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
    if (!b)
        abort();
    b->model = m;
    b->opset = os;
    b->graph = g;
    b->opset.domain = "";
    b->opset.has_version = 1;
    b->opset.version = opset;
    b->opsets[0] = &b->opset;
    b->model.has_ir_version = 1;
    b->model.ir_version = 7;
    b->model.n_opset_import = 1;
    b->model.opset_import = b->opsets;
    b->model.graph = &b->graph;
    b->graph.name = "test";
    b->graph.node = b->node_ptrs;
    b->graph.input = b->in_ptrs;
    b->graph.output = b->out_ptrs;
    b->graph.initializer = b->init_ptrs;
    b->graph.value_info = b->vinfo_ptrs;
    return b;
}

static Onnx__ValueInfoProto *new_vi(ModelBuilder *b, const char *name)
{
    Onnx__ValueInfoProto vi = ONNX__VALUE_INFO_PROTO__INIT;
    need(b->nvi < MB_MAX, "value infos");
    b->vis[b->nvi] = vi;
    b->vis[b->nvi].name = (char *)name;
    return &b->vis[b->nvi++];
}

/* A value info with a tensor type. */
static Onnx__ValueInfoProto *typed_vi(ModelBuilder *b, const char *name, int elem, int rank,
                                      const int64_t *dims)
{
    Onnx__TypeProto tp = ONNX__TYPE_PROTO__INIT;
    Onnx__TypeProto__Tensor tt = ONNX__TYPE_PROTO__TENSOR__INIT;
    Onnx__TensorShapeProto sp = ONNX__TENSOR_SHAPE_PROTO__INIT;
    Onnx__ValueInfoProto *vi = new_vi(b, name);
    int k = b->nvi - 1, i;

    b->types[k] = tp;
    b->ttypes[k] = tt;
    b->shapes[k] = sp;
    b->ttypes[k].has_elem_type = 1;
    b->ttypes[k].elem_type = elem;
    b->ttypes[k].shape = &b->shapes[k];
    b->types[k].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    b->types[k].tensor_type = &b->ttypes[k];
    b->shapes[k].n_dim = (size_t)rank;
    b->shapes[k].dim = &b->dim_ptrs[b->ndim];
    for (i = 0; i < rank; i++) {
        Onnx__TensorShapeProto__Dimension d = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
        need(b->ndim < MB_MAX * 8, "dims");
        b->dims[b->ndim] = d;
        if (dims[i] < 0) {
            b->dims[b->ndim].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
            b->dims[b->ndim].dim_param = "N";
        } else {
            b->dims[b->ndim].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
            b->dims[b->ndim].dim_value = dims[i];
        }
        b->dim_ptrs[b->ndim] = &b->dims[b->ndim];
        b->ndim++;
    }
    vi->type = &b->types[k];
    return vi;
}

void mb_input(ModelBuilder *b, const char *name, int elem, int rank, const int64_t *dims)
{
    Onnx__ValueInfoProto *vi = typed_vi(b, name, elem, rank, dims);
    need(b->graph.n_input < MB_MAX, "inputs");
    b->in_ptrs[b->graph.n_input++] = vi;
}

void mb_value_info(ModelBuilder *b, const char *name, int elem, int rank, const int64_t *dims)
{
    Onnx__ValueInfoProto *vi = typed_vi(b, name, elem, rank, dims);
    need(b->graph.n_value_info < MB_MAX, "value infos");
    b->vinfo_ptrs[b->graph.n_value_info++] = vi;
}

void mb_output(ModelBuilder *b, const char *name)
{
    Onnx__ValueInfoProto *vi = new_vi(b, name);
    need(b->graph.n_output < MB_MAX, "outputs");
    b->out_ptrs[b->graph.n_output++] = vi;
}

Onnx__TensorProto *mb_init(ModelBuilder *b, const char *name, int elem, int rank,
                           const int64_t *dims)
{
    Onnx__TensorProto t = ONNX__TENSOR_PROTO__INIT;
    Onnx__TensorProto *p;
    need(b->graph.n_initializer < MB_MAX, "initializers");
    p = &b->inits[b->graph.n_initializer];
    *p = t;
    p->name = (char *)name;
    p->has_data_type = 1;
    p->data_type = elem;
    p->n_dims = (size_t)rank;
    p->dims = (int64_t *)dims;
    b->init_ptrs[b->graph.n_initializer++] = p;
    return p;
}

void mb_init_f32(ModelBuilder *b, const char *name, int rank, const int64_t *dims,
                 float *data, size_t n)
{
    Onnx__TensorProto *t = mb_init(b, name, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, rank, dims);
    t->n_float_data = n;
    t->float_data = data;
}

void mb_external(ModelBuilder *b, Onnx__TensorProto *t, const char *key, const char *value)
{
    Onnx__StringStringEntryProto kv = ONNX__STRING_STRING_ENTRY_PROTO__INIT;
    need(b->nkv < MB_MAX, "external data entries");
    b->kvs[b->nkv] = kv;
    b->kvs[b->nkv].key = (char *)key;
    b->kvs[b->nkv].value = (char *)value;
    b->kv_ptrs[b->nkv] = &b->kvs[b->nkv];
    if (t->n_external_data == 0)
        t->external_data = &b->kv_ptrs[b->nkv];
    t->n_external_data++;
    b->nkv++;
    t->has_data_location = 1;
    t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
}

static size_t count(const char *const *list)
{
    size_t n = 0;
    while (list && list[n])
        n++;
    return n;
}

Onnx__NodeProto *mb_node(ModelBuilder *b, const char *op, const char *name,
                         const char *const *ins, const char *const *outs)
{
    Onnx__NodeProto n = ONNX__NODE_PROTO__INIT;
    Onnx__NodeProto *p;
    need(b->graph.n_node < MB_MAX, "nodes");
    p = &b->nodes[b->graph.n_node];
    *p = n;
    p->op_type = (char *)op;
    p->name = (char *)name;
    p->n_input = count(ins);
    p->input = (char **)ins;
    p->n_output = count(outs);
    p->output = (char **)outs;
    p->attribute = &b->attr_ptrs[b->nattr];
    b->node_ptrs[b->graph.n_node++] = p;
    return p;
}

static Onnx__AttributeProto *new_attr(ModelBuilder *b, const char *name,
                                      Onnx__AttributeProto__AttributeType type)
{
    Onnx__AttributeProto a = ONNX__ATTRIBUTE_PROTO__INIT;
    Onnx__NodeProto *n;
    need(b->nattr < MB_MAX, "attributes");
    need(b->graph.n_node > 0, "attributes before nodes");
    n = &b->nodes[b->graph.n_node - 1];
    b->attrs[b->nattr] = a;
    b->attrs[b->nattr].name = (char *)name;
    b->attrs[b->nattr].has_type = 1;
    b->attrs[b->nattr].type = type;
    b->attr_ptrs[b->nattr] = &b->attrs[b->nattr];
    n->n_attribute++;
    return &b->attrs[b->nattr++];
}

void mb_attr_int(ModelBuilder *b, const char *name, int64_t v)
{
    Onnx__AttributeProto *a = new_attr(b, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    a->i = v;
}

void mb_attr_float(ModelBuilder *b, const char *name, float v)
{
    Onnx__AttributeProto *a = new_attr(b, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    a->has_f = 1;
    a->f = v;
}

void mb_attr_string(ModelBuilder *b, const char *name, const char *v)
{
    Onnx__AttributeProto *a = new_attr(b, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s.len = strlen(v);
    a->s.data = (uint8_t *)v;
}

void mb_attr_ints(ModelBuilder *b, const char *name, int64_t *v, size_t n)
{
    Onnx__AttributeProto *a = new_attr(b, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    a->n_ints = n;
    a->ints = v;
}

void mb_attr_floats(ModelBuilder *b, const char *name, float *v, size_t n)
{
    Onnx__AttributeProto *a = new_attr(b, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
    a->n_floats = n;
    a->floats = v;
}

void mb_attr_tensor(ModelBuilder *b, const char *name, Onnx__TensorProto *t)
{
    Onnx__AttributeProto *a = new_attr(b, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    a->t = t;
}

uint8_t *mb_pack(ModelBuilder *b, size_t *len)
{
    size_t n = onnx__model_proto__get_packed_size(&b->model);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        abort();
    *len = onnx__model_proto__pack(&b->model, buf);
    return buf;
}
