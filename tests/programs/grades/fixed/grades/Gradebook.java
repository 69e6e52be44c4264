package grades;

import java.util.LinkedHashMap;
import java.util.Map;

/** Letter grades for an exam and how many students got each letter. */
public class Gradebook {
    private final String[] names;
    private final int[] scores;

    Gradebook(String[] names, int[] scores) {
        this.names = names;
        this.scores = scores;
    }

    /** A: 90 and above, B: 80 and above, C: 70 and above, D: 60 and above, else F. */
    static char letter(int score) {
        if (score >= 90) {
            return 'A';
        } else if (score >= 80) {
            return 'B';
        } else if (score >= 70) {
            return 'C';
        } else if (score >= 60) {
            return 'D';
        }
        return 'F';
    }

    Map<Character, Integer> distribution() {
        Map<Character, Integer> counts = new LinkedHashMap<>();
        for (char c : "ABCDF".toCharArray()) {
            counts.put(c, 0);
        }
        for (int s : scores) {
            char l = letter(s);
            counts.put(l, counts.get(l) + 1);
        }
        return counts;
    }

    void print() {
        for (int i = 0; i < names.length; i++) {
            System.out.println(names[i] + " " + scores[i] + " " + letter(scores[i]));
        }
        System.out.println(distribution());
    }

    public static void main(String[] args) {
        String[] names = {"Ada", "Ben", "Cy", "Dee", "Eve", "Fay"};
        int[] scores = {95, 80, 79, 90, 60, 42};
        new Gradebook(names, scores).print();
    }
}
