package intervals;

/** A closed integer interval; given its ends in either order, it stores lo <= hi. */
public record Range(int lo, int hi) {
    public Range {
        if (lo > hi) {
            int t = lo;
            lo = hi;
            hi = lo;
        }
    }

    int length() {
        return hi - lo + 1;
    }

    boolean touches(Range o) {
        return o.lo <= hi + 1 && lo <= o.hi + 1;
    }

    Range span(Range o) {
        return new Range(Math.min(lo, o.lo), Math.max(hi, o.hi));
    }
}
