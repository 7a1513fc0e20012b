/*
 * gir_verify on graphs built through the graph API, each broken in one way;
 * every case checks the exact diagnostic.
 *
 * usage: verify_test CASE     (tests/text/text.cmake runs each as verify_CASE)
 */
#include <stdio.h>
#include <string.h>

#include "graphir/graphir.h"

static GirType f32(int rank, int64_t d0, int64_t d1)
{
    GirType t;
    memset(&t, 0, sizeof t);
    t.dtype = GIR_DT_F32;
    t.rank = rank;
    t.dims[0] = d0;
    t.dims[1] = d1;
    return t;
}

/* A location as the ONNX reader makes it: the file and the node. */
static GirLoc at_node(const char *node)
{
    GirLoc l = gir_loc_file("m.onnx", -1);
    l.node = node;
    return l;
}

static int val(GirGraph *g, const char *name, GirValKind kind)
{
    return gir_add_value(g, name, kind, f32(1, 4, 0), gir_loc_file("m.onnx", -1));
}

static int node1(GirGraph *g, GirOp op, const char *name, const int *in, int nin, int out)
{
    return gir_add_node(g, op, name, in, nin, &out, 1, at_node(name));
}

/* x -> relu -> y, w constant: the base every case breaks. */
static GirGraph *base(int *x, int *w, int *y)
{
    GirGraph *g = gir_graph_new("t");
    float data[4] = {1, 2, 3, 4};
    *x = val(g, "x", GIR_VAL_INPUT);
    gir_add_input(g, *x);
    *w = gir_add_const(g, "w", f32(1, 4, 0), data, gir_loc_file("m.onnx", 100));
    *y = val(g, "y", GIR_VAL_NODE);
    node1(g, GIR_OP_RELU, "relu", x, 1, *y);
    return g;
}

/* Builds the case's graph; returns the expected message ("" for valid). */
static const char *build(const char *name, GirGraph **gp)
{
    int x, w, y, a, b, in[3];
    GirGraph *g = base(&x, &w, &y);
    *gp = g;
    if (strcmp(name, "ok") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        in[0] = y;
        in[1] = w;
        node1(g, GIR_OP_ADD, "add", in, 2, a);
        b = val(g, "b", GIR_VAL_NODE);
        in[0] = a;
        in[1] = -1;
        in[2] = w;
        node1(g, GIR_OP_CLIP, "clip", in, 3, b);
        gir_add_output(g, b);
        gir_add_output(g, x);
        gir_add_output(g, w);
        return "";
    }
    if (strcmp(name, "undefined") == 0) {
        /* An input-kind value never declared a graph input. */
        int q = val(g, "q", GIR_VAL_INPUT);
        a = val(g, "a", GIR_VAL_NODE);
        in[0] = y;
        in[1] = q;
        node1(g, GIR_OP_ADD, "conv3", in, 2, a);
        return "m.onnx: node 'conv3' (Add): input 1 is undefined value %q";
    }
    if (strcmp(name, "out_of_order") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        b = val(g, "b", GIR_VAL_NODE);
        node1(g, GIR_OP_RELU, "first", &b, 1, a);
        node1(g, GIR_OP_RELU, "second", &y, 1, b);
        gir_add_output(g, a);
        return "m.onnx: node 'first' (Relu): input 0 uses %b before node 'second' defines it "
               "(nodes out of topological order)";
    }
    if (strcmp(name, "cycle") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        in[0] = y;
        in[1] = a;
        node1(g, GIR_OP_ADD, "loop", in, 2, a);
        return "m.onnx: node 'loop' (Add): input 1 uses %a before node 'loop' defines it "
               "(nodes out of topological order)";
    }
    if (strcmp(name, "missing_input") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        node1(g, GIR_OP_CONV, "conv", &y, 1, a);
        return "m.onnx: node 'conv' (Conv): has 1 inputs, the op takes 2 to 3";
    }
    if (strcmp(name, "too_many_inputs") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        in[0] = in[1] = in[2] = y;
        node1(g, GIR_OP_MUL, "mul", in, 3, a);
        return "m.onnx: node 'mul' (Mul): has 3 inputs, the op takes 2";
    }
    if (strcmp(name, "required_absent") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        in[0] = y;
        in[1] = -1;
        node1(g, GIR_OP_CONV, "conv", in, 2, a);
        return "m.onnx: node 'conv' (Conv): required input 1 is absent";
    }
    if (strcmp(name, "id_range") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        in[0] = 99;
        node1(g, GIR_OP_RELU, "r", in, 1, a);
        return "m.onnx: node 'r' (Relu): input 0 is value id 99, out of range (4 values)";
    }
    if (strcmp(name, "duplicate_value") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        node1(g, GIR_OP_RELU, "r", &y, 1, a);
        b = gir_add_value(g, "y", GIR_VAL_NODE, f32(1, 4, 0), at_node("r2"));
        node1(g, GIR_OP_RELU, "r2", &a, 1, b);
        return "m.onnx: node 'r2': value %y: name used by two values";
    }
    if (strcmp(name, "duplicate_node") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        gir_add_node(g, GIR_OP_RELU, "relu", &y, 1, &a, 1, gir_loc_file("m.onnx", 7));
        return "m.onnx: byte 7: node 'relu' (Relu): name used by two nodes";
    }
    if (strcmp(name, "produced_twice") == 0) {
        /* Both nodes list y; y's producer is the later one. */
        node1(g, GIR_OP_SIGMOID, "sig", &x, 1, y);
        return "m.onnx: node 'relu' (Relu): output 0 %y has producer 1, not this node (0)";
    }
    if (strcmp(name, "output_is_input") == 0) {
        node1(g, GIR_OP_RELU, "r", &y, 1, x);
        return "m.onnx: graph input 0 %x is a node output";
    }
    if (strcmp(name, "output_is_const") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        node1(g, GIR_OP_RELU, "r", &y, 1, a);
        g->nodes[1].out[0] = w;
        return "m.onnx: node 'r' (Relu): output 0 is constant %w";
    }
    if (strcmp(name, "producer_mismatch") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        g->vals[a].producer = 0;
        gir_add_output(g, y);
        return "m.onnx: value %a: producer node 'relu' does not list it";
    }
    if (strcmp(name, "const_no_data") == 0) {
        g->vals[w].data = NULL;
        return "m.onnx: byte 100: constant %w: has no data";
    }
    if (strcmp(name, "const_not_static") == 0) {
        g->vals[w].type.dims[0] = -1;
        return "m.onnx: byte 100: constant %w: type is not static";
    }
    if (strcmp(name, "bad_dim") == 0) {
        g->vals[x].type.dims[0] = -7;
        return "m.onnx: value %x: negative dimension in its type";
    }
    if (strcmp(name, "layout_rank") == 0) {
        g->vals[x].layout = GIR_LAYOUT_NCHW;
        return "m.onnx: value %x: a layout on a rank-1 type (4-D only)";
    }
    if (strcmp(name, "chscale_type") == 0) {
        static const float two[2] = {0.5f, 0.25f};
        gir_set_chscale(g, x, two, 2);
        return "m.onnx: value %x: 2 per-channel scales need an i8 value with 2 channels and "
               "positive finite scales";
    }
    if (strcmp(name, "output_undefined") == 0) {
        a = val(g, "a", GIR_VAL_NODE);
        gir_add_output(g, y);
        gir_add_output(g, a);
        return "m.onnx: graph output 1 %a is not defined";
    }
    if (strcmp(name, "input_twice") == 0) {
        gir_add_input(g, x);
        return "m.onnx: graph input 1 %x is listed twice";
    }
    if (strcmp(name, "dup_attr") == 0) {
        /* The setters replace a same-named attribute, so only a pass
         * writing the array itself can do this. */
        gir_set_attr_int(g, 0, "k", 1);
        gir_set_attr_int(g, 0, "j", 2);
        g->nodes[0].attrs[1].name = "k";
        return "m.onnx: node 'relu' (Relu): attribute 'k' given twice";
    }
    if (strcmp(name, "no_outputs") == 0) {
        gir_add_node(g, GIR_OP_RELU, "sink", &y, 1, NULL, 0, gir_loc_file("cfg", -1));
        return "cfg: node 'sink' (Relu): has no outputs";
    }
    if (strcmp(name, "loc_node_differs") == 0) {
        /* A location naming something other than the node keeps both. */
        GirLoc l = {"yolo.cfg", 12, -1, "[convolutional]"};
        a = val(g, "a", GIR_VAL_NODE);
        gir_add_node(g, GIR_OP_CONV, "conv0", &y, 1, &a, 1, l);
        return "yolo.cfg:12: node '[convolutional]': node 'conv0' (Conv): has 1 inputs, the op "
               "takes 2 to 3";
    }
    return NULL;
}

int main(int argc, char **argv)
{
    GirGraph *g;
    GirError err;
    const char *want;
    int rc;
    if (argc != 2) {
        fprintf(stderr, "usage: verify_test CASE\n");
        return 2;
    }
    want = build(argv[1], &g);
    if (!want) {
        fprintf(stderr, "verify_test: unknown case '%s'\n", argv[1]);
        gir_graph_free(g);
        return 2;
    }
    err.msg[0] = '\0';
    rc = gir_verify(g, &err);
    gir_graph_free(g);
    if (!want[0] && rc != 0) {
        fprintf(stderr, "FAIL %s: valid graph rejected: %s\n", argv[1], err.msg);
        return 1;
    }
    if (want[0] && rc == 0) {
        fprintf(stderr, "FAIL %s: broken graph accepted, expected\n  %s\n", argv[1], want);
        return 1;
    }
    if (want[0] && strcmp(err.msg, want) != 0) {
        fprintf(stderr, "FAIL %s: wrong diagnostic\n  want: %s\n  got:  %s\n", argv[1], want,
                err.msg);
        return 1;
    }
    printf("ok %s\n", argv[1]);
    return 0;
}
