/* One interpolated varying component: v0 plus the weighted differences to v1 and v2, rounded
 * once.  The weights are rounded floats whose sum may miss 1 by an ulp, so the plain weighted
 * sum w0 v0 + w1 v1 + w2 v2 moves a value that is the same at the three vertices by an ulp
 * (GL ES programs such as piglit's varying-struct tests expect such a value back exactly); the
 * difference form keeps it exact.  Infinite or NaN differences take the plain sum. */
#include "gfx_interp.h"

#include <math.h>
#include <string.h>

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

uint32_t gfx_interp_f32(const float bw[3], uint32_t v0, uint32_t v1, uint32_t v2)
{
    float a = f32_of(v0), b = f32_of(v1), c = f32_of(v2);
    double d1 = (double)b - a, d2 = (double)c - a;      /* exact: floats' differences fit double */
    if (!isfinite(d1) || !isfinite(d2))
        return bits_of(bw[0] * a + bw[1] * b + bw[2] * c);
    return bits_of((float)(a + bw[1] * d1 + bw[2] * d2));
}
