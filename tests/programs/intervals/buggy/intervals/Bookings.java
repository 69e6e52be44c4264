package intervals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Merges the booked day ranges of a holiday flat and reports how busy each season is. */
public class Bookings {
    static List<Range> parse(String text) {
        List<Range> out = new ArrayList<>();
        for (String line : text.strip().split("\n")) {
            String[] ends = line.strip().split("-");
            out.add(new Range(Integer.parseInt(ends[0]), Integer.parseInt(ends[1])));
        }
        return out;
    }

    static List<Range> merge(List<Range> ranges) {
        List<Range> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingInt(Range::lo));
        List<Range> merged = new ArrayList<>();
        for (Range r : sorted) {
            int last = merged.size() - 1;
            if (last >= 0 && merged.get(last).touches(r)) {
                merged.set(last, merged.get(last).span(r));
            } else {
                merged.add(r);
            }
        }
        return merged;
    }

    static String season(Range r) {
        return switch (r.lo() / 90) {
            case 0 -> "winter";
            case 1 -> "spring";
            case 2 -> "summer";
            default -> "autumn";
        };
    }

    public static void main(String[] args) {
        List<Range> booked = merge(parse("""
            10-14
            40-32
            13-20
            200-190
            185-189
            300-310
            """));
        int days = 0;
        for (Range r : booked) {
            System.out.println(r.lo() + ".." + r.hi() + " " + season(r) + " " + r.length() + " days");
            days += r.length();
        }
        System.out.println(days + " days booked");
    }
}
