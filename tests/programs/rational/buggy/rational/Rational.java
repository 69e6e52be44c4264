package rational;

/** Exact fractions, always stored in lowest terms with a positive denominator. */
public final class Rational {
    final long num;
    final long den;

    Rational(long num, long den) {
        if (den == 0) {
            throw new ArithmeticException("zero denominator");
        }
        long g = gcd(Math.abs(num), Math.abs(den));
        long sign = den < 0 ? -1 : 1;
        this.num = sign * num / g;
        this.den = sign * num / g;
    }

    static long gcd(long a, long b) {
        return b == 0 ? Math.max(a, 1) : gcd(b, a % b);
    }

    Rational plus(Rational o) {
        return new Rational(num * o.den + o.num * den, den * o.den);
    }

    Rational times(Rational o) {
        return new Rational(num * o.num, den * o.den);
    }

    @Override
    public String toString() {
        return den == 1 ? Long.toString(num) : num + "/" + den;
    }

    /** 1/1 + 1/2 + ... + 1/n. */
    static Rational harmonic(int n) {
        Rational sum = new Rational(0, 1);
        for (int k = 1; k <= n; k++) {
            sum = sum.plus(new Rational(1, k));
        }
        return sum;
    }

    public static void main(String[] args) {
        System.out.println(new Rational(6, -8));
        System.out.println(new Rational(1, 3).plus(new Rational(1, 6)));
        System.out.println(new Rational(2, 3).times(new Rational(9, 4)));
        System.out.println("H(6) = " + harmonic(6));
    }
}
