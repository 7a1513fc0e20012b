/*
 * port_bytes.h: copy little-endian bytes into and out of a Verilated port of
 * any width (C++ only).  Shared by the engine benches' shims (sim/shim/) and
 * kiln simulate's harness (sim/harness/harness_top.cpp).
 */
#ifndef KILN_PORT_BYTES_H
#define KILN_PORT_BYTES_H

#include <cstdint>
/* Shim-side helpers (C++ only): copy little-endian bytes into and out of a
 * Verilated port of any width.  Narrow ports are CData/SData/IData/QData
 * (plain integers); wide ports are VlWide<N> with data() giving 32-bit words. */
#include <cstddef>
template <class T> static inline void kiln_port_put_int(T &port, const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n && i < (int)sizeof(T); i++)
        v |= (uint64_t)b[i] << (8 * i);
    port = (T)v;
}
static inline void kiln_port_put(uint8_t &p, const uint8_t *b, int n) { kiln_port_put_int(p, b, n); }
static inline void kiln_port_put(uint16_t &p, const uint8_t *b, int n) { kiln_port_put_int(p, b, n); }
static inline void kiln_port_put(uint32_t &p, const uint8_t *b, int n) { kiln_port_put_int(p, b, n); }
static inline void kiln_port_put(uint64_t &p, const uint8_t *b, int n) { kiln_port_put_int(p, b, n); }
template <class W> static inline void kiln_port_put(W &port, const uint8_t *b, int n)
{
    uint32_t *w = port.data();
    for (int i = 0; i < (n + 3) / 4; i++) {
        uint32_t v = 0;
        for (int j = 0; j < 4 && 4 * i + j < n; j++)
            v |= (uint32_t)b[4 * i + j] << (8 * j);
        w[i] = v;
    }
}
template <class T> static inline void kiln_port_get_int(const T &port, uint8_t *b, int n)
{
    uint64_t v = (uint64_t)port;
    for (int i = 0; i < n; i++)
        b[i] = i < (int)sizeof(T) ? (uint8_t)(v >> (8 * i)) : 0;
}
static inline void kiln_port_get(const uint8_t &p, uint8_t *b, int n) { kiln_port_get_int(p, b, n); }
static inline void kiln_port_get(const uint16_t &p, uint8_t *b, int n) { kiln_port_get_int(p, b, n); }
static inline void kiln_port_get(const uint32_t &p, uint8_t *b, int n) { kiln_port_get_int(p, b, n); }
static inline void kiln_port_get(const uint64_t &p, uint8_t *b, int n) { kiln_port_get_int(p, b, n); }
template <class W> static inline void kiln_port_get(const W &port, uint8_t *b, int n)
{
    const uint32_t *w = port.data();
    for (int i = 0; i < n; i++)
        b[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

#endif
