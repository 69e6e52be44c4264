package movingavg;

import java.util.Arrays;

/** Moving averages of daily temperatures (tenths of a degree). */
public class Stats {
    static int sum(int[] data, int from, int to) {
        int s = 0;
        for (int i = from; i < to; i++) {
            s += data[i];
        }
        return s;
    }

    static double average(int[] data, int from, int to) {
        return (double) sum(data, from, to) / (to - from);
    }

    /** One average per full window: data.length - window + 1 values. */
    static double[] movingAverage(int[] data, int window) {
        double[] result = new double[data.length - window + 1];
        for (int i = 0; i + window <= data.length; i++) {
            result[i] = average(data, i, i + window);
        }
        return result;
    }

    static double max(double[] values) {
        double m = values[0];
        for (double v : values) {
            m = Math.max(m, v);
        }
        return m;
    }

    public static void main(String[] args) {
        int[] temps = {12, 15, 11, 18, 20, 17, 25, 30};
        double[] avg = movingAverage(temps, 3);
        System.out.println("averages: " + Arrays.toString(avg));
        System.out.println("warmest window: " + max(avg));
    }
}
