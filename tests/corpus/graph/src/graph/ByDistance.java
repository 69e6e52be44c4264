package graph;

import java.util.Comparator;

/** Orders queue entries {vertex, distance} by distance, then by vertex. */
public class ByDistance implements Comparator<int[]> {
    @Override
    public int compare(int[] a, int[] b) {
        if (a[1] != b[1]) {
            return Integer.compare(a[1], b[1]);
        }
        return Integer.compare(a[0], b[0]);
    }
}
