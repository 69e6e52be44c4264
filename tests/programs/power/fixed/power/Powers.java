package power;

/** Powers by repeated squaring and a table of compound interest factors. */
public class Powers {
    /** base to the power exp, for exp >= 0. */
    static long pow(long base, int exp) {
        if (exp == 0) {
            return 1;
        }
        long half = pow(base, exp / 2);
        if (exp % 2 == 0) {
            return half * half;
        }
        return half * half * base;
    }

    /** Capital after years of interest at percent, in whole euros (rounded down). */
    static long compound(long capital, int percent, int years) {
        return capital * pow(100 + percent, years) / pow(100, years);
    }

    static int digits(long n) {
        int d = 1;
        while (n >= 10) {
            n /= 10;
            d++;
        }
        return d;
    }

    public static void main(String[] args) {
        for (int e = 0; e <= 6; e++) {
            System.out.println("3^" + e + " = " + pow(3, e));
        }
        System.out.println("2^40 has " + digits(pow(2, 40)) + " digits");
        System.out.println("1000 at 5% for 4 years: " + compound(1000, 5, 4));
    }
}
