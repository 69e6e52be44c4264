public class LongDouble {
    static long fib(int n) {
        long a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        return a;
    }

    static double mix(long l, double d, float f, int i, long[] ls, double[] ds) {
        ls[0] = l * 2;
        ds[1] = d / 2;
        double r = l + d + f + i;
        return r;
    }

    public static void main(String[] args) {
        long[] ls = new long[2];
        double[] ds = new double[2];
        System.out.println(fib(90) + " " + mix(Long.MAX_VALUE / 4, 2.5, 1.25f, -3, ls, ds) + " " + ls[0] + " " + ds[1]);
        byte[] bs = {1, -2};
        boolean[] zs = new boolean[2];
        zs[1] = true;
        bs[0] = (byte) 200;
        short[] ss = {Short.MIN_VALUE};
        char[] cs = {'a'};
        cs[0]++;
        System.out.println(bs[0] + " " + zs[1] + " " + ss[0] + " " + cs[0] + " " + Double.NaN + " " + Float.MIN_VALUE);
    }
}
