import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** JDK collections, maps and string builders changed by JDK code: their content is recorded. */
public class JdkContent {
    /** An application subclass: its content is never taken (iterating it runs application code). */
    static class Logged extends ArrayList<String> {
        int iterations;

        @Override
        public java.util.Iterator<String> iterator() {
            iterations++;
            return super.iterator();
        }
    }

    static int total(List<Integer> xs) {
        int s = 0;
        for (int i = 0; i < xs.size(); i++) {
            s += xs.get(i);
        }
        return s;
    }

    public static void main(String[] args) {
        List<Integer> xs = new ArrayList<>();
        xs.add(3);
        xs.add(1);
        xs.add(2);
        Collections.sort(xs);
        Map<String, Integer> m = new TreeMap<>();
        m.put("b", 2);
        m.put("a", 1);
        StringBuilder sb = new StringBuilder();
        sb.append("x").append(total(xs));
        List<Integer> big = new ArrayList<>();
        for (int i = 0; i < 10005; i++) {
            big.add(i);
        }
        // Not an add: the whole content again, cut after 10,000 values.
        big.set(0, -1);
        // Inserted: the elements from the new one on.
        List<Integer> ys = new ArrayList<>();
        ys.add(5);
        ys.add(6);
        ys.add(1, 9);
        // Removed behind the agent's back (no CONTENT follows an iterator's remove): the next
        // add sends everything, not a tail after a stale beginning.
        List<Integer> zs = new ArrayList<>(List.of(1, 2, 3));
        java.util.Iterator<Integer> it = zs.iterator();
        it.next();
        it.remove();
        zs.add(4);
        // Set.of iterates in a per-JVM random order: its content is sent sorted.
        Set<String> salted = Set.of("pear", "apple", "fig", "kiwi");
        // A call that throws: its EXT_UNWIND, then the list's content (it may have changed).
        List<Integer> ws = new ArrayList<>(List.of(7));
        try {
            ws.add(5, 8);
        } catch (IndexOutOfBoundsException e) {
            ws.add(8);
        }
        Logged logged = new Logged();
        logged.add("q");
        System.out.println(xs + " " + m + " " + sb + " " + big.size() + " " + salted.size() + " " + logged.iterations
                + " " + ys + " " + zs + " " + ws);
    }
}
