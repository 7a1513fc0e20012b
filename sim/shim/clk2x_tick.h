// One clk cycle of a Verilated model that has a clk2x input at twice the
// rate: both rise together (synchronous, edge-aligned), clk2x's second
// rising edge with clk's fall.  Shared by the kiln_conv and kiln_tsconv
// shims.
#ifndef KILN_CLK2X_TICK_H
#define KILN_CLK2X_TICK_H

template <class M> static inline void kiln_tick2x(M *m)
{
    m->clk2x = 1;
    m->clk = 1;
    m->eval();
    m->clk2x = 0;
    m->eval();
    m->clk2x = 1;
    m->clk = 0;
    m->eval();
    m->clk2x = 0;
    m->eval();
}

#endif
