/* libm and printf of floats: transcendental functions, rounding modes, fenv flags, conversions. */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double xs[] = { 0.0, -0.0, 1e-310, 1e-5, 0.1, 0.5, 1.0, 1.5, 2.0, 3.14159265358979, 10.0, 100.5,
                       -0.75, -7.25, 1e10, 1e300, -1e-300, 700.0, -745.5 };

int main(void)
{
    int n = sizeof xs / sizeof *xs;
    for (int i = 0; i < n; i++) {
        double x = xs[i];
        printf("%-12g sin %.17g cos %.17g tan %.17g\n", x, sin(x), cos(x), tan(x));
        printf("             exp %.17g log %.17g log10 %.17g log2 %.17g\n", exp(x), log(fabs(x)), log10(fabs(x)), log2(fabs(x)));
        printf("             sqrt %.17g cbrt %.17g atan %.17g asinh %.17g erf %.17g\n", sqrt(fabs(x)), cbrt(x), atan(x),
               asinh(x), erf(x));
        printf("             pow %.17g hypot %.17g fmod %.17g tgamma %.10g lgamma %.10g\n", pow(fabs(x), 1.7), hypot(x, 3.0),
               fmod(x, 0.3), tgamma(x / 50 + 0.5), lgamma(x + 0.5));
        float f = (float)x;
        printf("             f: %a %.9g %.9g %.9g %.9g\n", f, sinf(f), expf(f / 100), logf(fabsf(f) + 1), sqrtf(fabsf(f)));
    }
    int modes[] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
    for (int m = 0; m < 4; m++) {
        fesetround(modes[m]);
        volatile double a = 1.0, b = 3.0, c = -2.5;
        volatile float fa = 1.0f, fb = 3.0f;
        printf("round %d: %.20g %.20g %.10g %ld %.1f %g %g %g\n", m, a / b, -a / b, (double)(fa / fb), lrint(c),
               nearbyint(c), rint(2.5), sqrt(2.0), fma(a / b, b, -a));
    }
    fesetround(FE_TONEAREST);
    feclearexcept(FE_ALL_EXCEPT);
    volatile double z = 0.0, one = 1.0, big = DBL_MAX, tiny = DBL_MIN;
    volatile double r1 = one / z; int e1 = fetestexcept(FE_ALL_EXCEPT); feclearexcept(FE_ALL_EXCEPT);
    volatile double r2 = z / z; int e2 = fetestexcept(FE_ALL_EXCEPT); feclearexcept(FE_ALL_EXCEPT);
    volatile double r3 = big * 2; int e3 = fetestexcept(FE_ALL_EXCEPT); feclearexcept(FE_ALL_EXCEPT);
    volatile double r4 = tiny / 3e10; int e4 = fetestexcept(FE_ALL_EXCEPT); feclearexcept(FE_ALL_EXCEPT);
    volatile double r5 = one / 3; int e5 = fetestexcept(FE_ALL_EXCEPT);
    printf("fenv %g/%x %g/%x %g/%x %g/%x %g/%x\n", r1, e1, r2, e2, r3, e3, r4, e4, r5, e5);
    printf("conv %d %u %lld %llu %d %ld\n", (int)-2.7, (unsigned)3.9e9, (long long)-9.2e18, (unsigned long long)1.8e19,
           (int)(float)16777217, lround(-2.5));
    printf("classify %d %d %d %d %d %d\n", fpclassify(0.0), fpclassify(1e-310), fpclassify(INFINITY), fpclassify(NAN),
           isnan(sqrt(-1.0)), signbit(-0.0) != 0);
    printf("special %g %g %g %g %f %e %.0f %.30f\n", NAN, -INFINITY, copysign(3, -0.0), nextafter(1.0, 2.0) - 1.0,
           1e20, 12345.678e-300, 0.5, 0.1);
    double fr = frexp(1000.0, &n);
    printf("frexp/ldexp %g %d %g %g %g\n", fr, n, ldexp(0.75, -1070), scalbn(1.0, 1023), modf(-3.75, xs));
    double acc = 0;
    for (int i = 1; i < 200000; i++) acc += sin(i * 0.001) * exp(-i * 1e-5) + sqrt((double)i) / i;
    printf("acc %.17g\n", acc);
    float facc = 0;
    for (int i = 1; i < 100000; i++) facc += cosf(i * 0.01f) / (1.0f + i * 0.5f);
    printf("facc %.9g\n", facc);
    char buf[64];
    for (int i = 0; i < 8; i++) {
        snprintf(buf, sizeof buf, "%.*e", i * 2, M_PI * pow(10, i * 37 - 150));
        printf("%s %.17g\n", buf, strtod(buf, NULL));
    }
    return 0;
}
