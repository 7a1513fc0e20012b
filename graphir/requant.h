/*
 * The requantize definition: the one place that says how an int32
 * accumulator becomes an int8 activation.  The int8 interpreter, the RTL
 * engines (rtl-templates/kiln_requant.v implements exactly this) and the
 * LLVM lowering all follow it bit for bit.
 *
 * Scheme (DESIGN.md "Numerics"): activations int8 symmetric per tensor (zero
 * point 0), weights int8 symmetric per output channel, bias and accumulators
 * int32.  Requantization and activation are one unit:
 *
 *   m    = acc >= 0 ? m_pos : m_neg            m_pos, m_neg: signed 16 bit
 *   prod = acc * m                             exact, fits signed 48 bit
 *   r    = shift == 0 ? prod
 *                     : (prod + 2^(shift-1)) >> shift   arithmetic shift:
 *                                              rounds half toward +infinity
 *   out  = clamp(r, -128, 127)                 saturating
 *
 *   identity : m_neg = m_pos
 *   ReLU     : m_neg = 0
 *   LeakyReLU: m_neg = round(m_pos * alpha)
 *
 * Widths: acc 32 bit, m 16 bit, product 48 bit (one DSP48E2 P register
 * width), shift 0..KILN_RQ_MAX_SHIFT.  In hardware the 32x16 product takes
 * two DSP48E2 (27x18 each), the rounding add and the shift are LUT logic.
 *
 * Elementwise add of two int8 tensors on different scales uses the same
 * rounding and saturation on acc = a * m_a + b * m_b (each product 24 bit).
 */
#ifndef KILN_REQUANT_H
#define KILN_REQUANT_H

#include <stdint.h>

#define KILN_RQ_MAX_SHIFT 47  /* largest legal shift */
#define KILN_RQ_M_MIN (-32768) /* smallest legal multiplier */
#define KILN_RQ_M_MAX 32767    /* largest legal multiplier */

/* Round-shift and saturate a 48-bit product to int8. */
static inline int8_t kiln_rq_round_sat(int64_t prod, int shift)
{
    int64_t r = prod;
    if (shift > 0)
        r = (prod + ((int64_t)1 << (shift - 1))) >> shift;
    if (r > 127)
        r = 127;
    if (r < -128)
        r = -128;
    return (int8_t)r;
}

/* int32 accumulator -> int8 activation (identity, ReLU or LeakyReLU by the
 * choice of m_neg).  Needs m_pos, m_neg in [KILN_RQ_M_MIN, KILN_RQ_M_MAX] and
 * shift in [0, KILN_RQ_MAX_SHIFT]. */
static inline int8_t kiln_requant(int32_t acc, int32_t m_pos, int32_t m_neg, int shift)
{
    int64_t m = acc >= 0 ? m_pos : m_neg;
    return kiln_rq_round_sat((int64_t)acc * m, shift);
}

/* Rescaled elementwise add: int8 a, b on their own scales -> int8. */
static inline int8_t kiln_add_requant(int8_t a, int8_t b, int32_t m_a, int32_t m_b, int shift)
{
    return kiln_rq_round_sat((int64_t)a * m_a + (int64_t)b * m_b, shift);
}

/* Choose (m, shift) so that m * 2^-shift approximates real scale s > 0 as
 * closely as the 16-bit multiplier allows.  Returns 0, or -1 when s cannot be
 * represented (too large or not positive). */
static inline int kiln_rq_choose(double s, int32_t *m, int *shift)
{
    int sh;
    if (!(s > 0.0))
        return -1;
    for (sh = KILN_RQ_MAX_SHIFT; sh >= 0; sh--) {
        double v = s * (double)((int64_t)1 << sh);
        if (v < (double)KILN_RQ_M_MAX + 0.5) {
            int64_t r = (int64_t)(v + 0.5);
            if (r < 1)
                return -1; /* too small even at the largest shift */
            *m = (int32_t)r;
            *shift = sh;
            return 0;
        }
    }
    return -1;
}

#endif
