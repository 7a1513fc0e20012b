// Shim helpers shared by the stream-engine shims (sim/shim/*_shim.cpp):
// one cycle of a Verilated model with the TbsPins protocol of tb_stream.h.
#ifndef KILN_STREAM_SHIM_H
#define KILN_STREAM_SHIM_H

#include "verilated.h"
#include "tb_stream.h"

// Drive pins, evaluate, sample the handshake outputs, then a rising edge.
#define TBS_IN(m, p, i, pre, nbytes)                                           \
    do {                                                                       \
        (m)->pre##tvalid = (p)->in_valid[i];                                   \
        kiln_port_put((m)->pre##tdata, (p)->in_data[i], nbytes);                \
    } while (0)
#define TBS_OUT_SET(m, p, o, pre) ((m)->pre##tready = (p)->out_ready[o])
#define TBS_IN_GET(m, p, i, pre) ((p)->in_ready[i] = (m)->pre##tready)
#define TBS_OUT_GET(m, p, o, pre, nbytes)                                      \
    do {                                                                       \
        (p)->out_valid[o] = (m)->pre##tvalid;                                  \
        kiln_port_get((m)->pre##tdata, (p)->out_data[o], nbytes);               \
    } while (0)

template <class M> static inline void tbs_edge(M *m)
{
    m->clk = 1;
    m->eval();
    m->clk = 0;
    m->eval();
}

#endif

// Shim boilerplate: a struct holding the model and its beat widths, new/free
// and the per-cycle tick for one input (s_) or two inputs (s_a_, s_b_) and
// one output (m_).  The engine's shim file adds its cfg function.
#define TBS_SHIM_COMMON(name, V)                                               \
    struct name##Sim {                                                         \
        VerilatedContext ctx;                                                  \
        V *m;                                                                  \
        int ib, ob;                                                            \
    };                                                                         \
    extern "C" void *tbs_##name##_new(int in_bytes, int out_bytes);           \
    extern "C" void tbs_##name##_free(void *h);                               \
    extern "C" void tbs_##name##_cfg(void *h, const int64_t *rt);             \
    extern "C" void tbs_##name##_tick(void *h, TbsPins *p);                   \
    void *tbs_##name##_new(int in_bytes, int out_bytes)                       \
    {                                                                          \
        name##Sim *s = new name##Sim;                                          \
        s->m = new V(&s->ctx);                                                 \
        s->ib = in_bytes;                                                      \
        s->ob = out_bytes;                                                     \
        return s;                                                              \
    }                                                                          \
    void tbs_##name##_free(void *h)                                           \
    {                                                                          \
        name##Sim *s = (name##Sim *)h;                                         \
        s->m->final();                                                         \
        delete s->m;                                                           \
        delete s;                                                              \
    }

#define TBS_SHIM_1X1(name, V)                                                  \
    TBS_SHIM_COMMON(name, V)                                                   \
    void tbs_##name##_tick(void *h, TbsPins *p)                               \
    {                                                                          \
        name##Sim *s = (name##Sim *)h;                                         \
        V *m = s->m;                                                           \
        m->rst = p->rst;                                                       \
        TBS_IN(m, p, 0, s_, s->ib);                                            \
        TBS_OUT_SET(m, p, 0, m_);                                              \
        m->eval();                                                             \
        TBS_IN_GET(m, p, 0, s_);                                               \
        TBS_OUT_GET(m, p, 0, m_, s->ob);                                       \
        tbs_edge(m);                                                           \
    }

#define TBS_SHIM_2X1(name, V)                                                  \
    TBS_SHIM_COMMON(name, V)                                                   \
    void tbs_##name##_tick(void *h, TbsPins *p)                               \
    {                                                                          \
        name##Sim *s = (name##Sim *)h;                                         \
        V *m = s->m;                                                           \
        m->rst = p->rst;                                                       \
        TBS_IN(m, p, 0, s_a_, s->ib);                                          \
        TBS_IN(m, p, 1, s_b_, s->ib);                                          \
        TBS_OUT_SET(m, p, 0, m_);                                              \
        m->eval();                                                             \
        TBS_IN_GET(m, p, 0, s_a_);                                             \
        TBS_IN_GET(m, p, 1, s_b_);                                             \
        TBS_OUT_GET(m, p, 0, m_, s->ob);                                       \
        tbs_edge(m);                                                           \
    }
