package dev.agentcompute.starlark.lib;

/**
 * Go's math functions where Java's differ or are missing (Round, Gamma, Pow special cases,
 * hyperbolics).
 */
final class GoMath {
  private GoMath() {}

  /** Go's math.Round: half away from zero. */
  static double round(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return x;
    }
    double t = x < 0 ? Math.ceil(x) : Math.floor(x);
    if (Math.abs(x - t) >= 0.5) {
      t += Math.signum(x);
    }
    return t == 0 ? Math.copySign(0.0, x) : t;
  }

  /** Go's math.Pow; differs from Java for pow(±1, ±Inf) (Go: 1) and pow(-1, ±Inf). */
  static double pow(double x, double y) {
    if ((x == 1 || x == -1) && Double.isInfinite(y)) {
      return 1;
    }
    if (x == 1) {
      return 1;
    }
    return StrictMath.pow(x, y);
  }

  static double acosh(double x) {
    if (x < 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return 0;
    }
    if (x >= 1 << 28) {
      return StrictMath.log(x) + 0.6931471805599453;
    }
    if (x > 2) {
      return StrictMath.log(2 * x - 1 / (x + Math.sqrt(x * x - 1)));
    }
    double t = x - 1;
    return StrictMath.log1p(t + Math.sqrt(2 * t + t * t));
  }

  static double asinh(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return x;
    }
    boolean sign = x < 0;
    if (sign) {
      x = -x;
    }
    double temp;
    if (x > 1 << 28) {
      temp = StrictMath.log(x) + 0.6931471805599453;
    } else if (x > 2) {
      temp = StrictMath.log(2 * x + 1 / (Math.sqrt(x * x + 1) + x));
    } else if (x < 1.0 / (1 << 28)) {
      temp = x;
    } else {
      temp = StrictMath.log1p(x + x * x / (1 + Math.sqrt(1 + x * x)));
    }
    return sign ? -temp : temp;
  }

  static double atanh(double x) {
    if (x < -1 || x > 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return Double.POSITIVE_INFINITY;
    }
    if (x == -1) {
      return Double.NEGATIVE_INFINITY;
    }
    boolean sign = x < 0;
    if (sign) {
      x = -x;
    }
    double temp;
    if (x < 1.0 / (1 << 28)) {
      temp = x;
    } else if (x < 0.5) {
      temp = x + x;
      temp = 0.5 * StrictMath.log1p(temp + temp * x / (1 - x));
    } else {
      temp = 0.5 * StrictMath.log1p((x + x) / (1 - x));
    }
    return sign ? -temp : temp;
  }

  private static final double[] GAM_P = {
    1.60119522476751861407e-04, 1.19135147006586384913e-03, 1.04213797561761569935e-02,
    4.76367800457137231464e-02, 2.07448227648435975150e-01, 4.94214826801497100753e-01,
    9.99999999999999996796e-01,
  };
  private static final double[] GAM_Q = {
    -2.31581873324120129819e-05, 5.39605580493303397842e-04, -4.45641913851797240494e-03,
    1.18139785222060435552e-02, 3.58236398605498653373e-02, -2.34591795718243348568e-01,
    7.14304917030273074085e-02, 1.00000000000000000320e+00,
  };
  private static final double[] GAM_S = {
    7.87311395793093628397e-04,
    -2.29549961613378126380e-04,
    -2.68132617805781232825e-03,
    3.47222221605458667310e-03,
    8.33333333333482257126e-02,
  };

  private static double[] stirling(double x) {
    if (x > 200) {
      return new double[] {Double.POSITIVE_INFINITY, 1};
    }
    final double sqrtTwoPi = 2.506628274631000502417;
    final double maxStirling = 143.01608;
    double w = 1 / x;
    w = 1 + w * ((((GAM_S[0] * w + GAM_S[1]) * w + GAM_S[2]) * w + GAM_S[3]) * w + GAM_S[4]);
    double y1 = StrictMath.exp(x);
    double y2 = 1.0;
    if (x > maxStirling) {
      double v = StrictMath.pow(x, 0.5 * x - 0.25);
      y2 = v / y1;
      y1 = v;
    } else {
      y1 = StrictMath.pow(x, x - 0.5) / y1;
    }
    return new double[] {y1, sqrtTwoPi * w * y2};
  }

  /** Go's math.Gamma (Cephes). */
  static double gamma(double x) {
    final double euler = 0.57721566490153286060651209008240243104215933593992;
    if ((x < 0 && x == Math.rint(x) && !Double.isInfinite(x))
        || x == Double.NEGATIVE_INFINITY
        || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == Double.POSITIVE_INFINITY) {
      return Double.POSITIVE_INFINITY;
    }
    if (x == 0) {
      return (1 / x) < 0 ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    double q = Math.abs(x);
    double p = Math.floor(q);
    if (q > 33) {
      if (x >= 0) {
        double[] s = stirling(x);
        return s[0] * s[1];
      }
      int signgam = 1;
      long ip = (long) p;
      if ((ip & 1) == 0) {
        signgam = -1;
      }
      double z = q - p;
      if (z > 0.5) {
        p = p + 1;
        z = q - p;
      }
      z = q * StrictMath.sin(Math.PI * z);
      if (z == 0) {
        return signgam * Double.POSITIVE_INFINITY;
      }
      double[] s = stirling(q);
      double absz = Math.abs(z);
      double d = absz * s[0] * s[1];
      if (Double.isInfinite(d)) {
        z = Math.PI / absz / s[0] / s[1];
      } else {
        z = Math.PI / d;
      }
      return signgam * z;
    }
    double z = 1.0;
    while (x >= 3) {
      x = x - 1;
      z = z * x;
    }
    while (x < 0) {
      if (x > -1e-09) {
        return small(x, z, euler);
      }
      z = z / x;
      x = x + 1;
    }
    while (x < 2) {
      if (x < 1e-09) {
        return small(x, z, euler);
      }
      z = z / x;
      x = x + 1;
    }
    if (x == 2) {
      return z;
    }
    x = x - 2;
    p =
        (((((x * GAM_P[0] + GAM_P[1]) * x + GAM_P[2]) * x + GAM_P[3]) * x + GAM_P[4]) * x
                    + GAM_P[5])
                * x
            + GAM_P[6];
    q =
        ((((((x * GAM_Q[0] + GAM_Q[1]) * x + GAM_Q[2]) * x + GAM_Q[3]) * x + GAM_Q[4]) * x
                            + GAM_Q[5])
                        * x
                    + GAM_Q[6])
                * x
            + GAM_Q[7];
    return z * p / q;
  }

  private static double small(double x, double z, double euler) {
    if (x == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return z / ((1 + euler * x) * x);
  }
}
