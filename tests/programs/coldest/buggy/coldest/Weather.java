package coldest;

/** Daily minimum and maximum temperatures of a winter week in a mountain town. */
public class Weather {
    static int highest(int[] temps) {
        int max = 0;
        for (int t : temps) {
            if (t > max) {
                max = t;
            }
        }
        return max;
    }

    static int lowest(int[] temps) {
        int min = Integer.MAX_VALUE;
        for (int t : temps) {
            if (t < min) {
                min = t;
            }
        }
        return min;
    }

    static int range(int[] temps) {
        return highest(temps) - lowest(temps);
    }

    public static void main(String[] args) {
        String[] days = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
        int[][] week = {
            {-12, -3}, {-15, -6}, {-9, -2}, {-18, -8}, {-11, -1}, {-7, -4}, {-14, -5}
        };
        int[] lows = new int[week.length];
        int[] highs = new int[week.length];
        for (int d = 0; d < week.length; d++) {
            lows[d] = week[d][0];
            highs[d] = week[d][1];
            System.out.println(days[d] + " " + lows[d] + ".." + highs[d]);
        }
        System.out.println("coldest night " + lowest(lows));
        System.out.println("warmest day " + highest(highs));
        System.out.println("spread of highs " + range(highs));
    }
}
