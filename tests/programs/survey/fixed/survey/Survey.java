package survey;

import java.util.Map;
import java.util.TreeMap;

/** Tallies the votes of a survey and prints each option's share in percent. */
public class Survey {
    private final Map<String, Integer> votes = new TreeMap<>();
    private int total;

    void vote(String option) {
        votes.merge(option, 1, Integer::sum);
        total++;
    }

    /** Share of the option in whole percent, rounded down. */
    int percent(String option) {
        int count = votes.getOrDefault(option, 0);
        return count * 100 / total;
    }

    String winner() {
        String best = null;
        for (Map.Entry<String, Integer> e : votes.entrySet()) {
            if (best == null || e.getValue() > votes.get(best)) {
                best = e.getKey();
            }
        }
        return best;
    }

    void report() {
        for (String option : votes.keySet()) {
            System.out.println(option + " " + percent(option) + "%");
        }
        System.out.println("winner " + winner() + " with " + percent(winner()) + "%");
    }

    public static void main(String[] args) {
        Survey s = new Survey();
        String ballots = "tea coffee tea water tea coffee juice tea";
        for (String b : ballots.split(" ")) {
            s.vote(b);
        }
        s.report();
    }
}
