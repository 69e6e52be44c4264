package wordfreq;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Word statistics of a short text: frequent content words and the total word count. */
public class WordFreq {
    static final Set<String> STOP = Set.of("the", "a", "of", "and", "to", "in", "is");

    static List<String> tokenize(String text) {
        List<String> words = new ArrayList<>();
        for (String w : text.toLowerCase().split("[^a-z]+")) {
            if (!w.isEmpty()) {
                words.add(w);
            }
        }
        return words;
    }

    /** The words that are not stop words; leaves its argument alone. */
    static List<String> contentWords(List<String> words) {
        List<String> result = new ArrayList<>(words);
        result.removeIf(STOP::contains);
        return result;
    }

    static Map<String, Integer> count(List<String> words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String w : words) {
            counts.put(w, counts.getOrDefault(w, 0) + 1);
        }
        return counts;
    }

    static String mostFrequent(Map<String, Integer> counts) {
        String best = "";
        int bestCount = 0;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            int c = e.getValue();
            if (c > bestCount || (c == bestCount && e.getKey().compareTo(best) < 0)) {
                best = e.getKey();
                bestCount = c;
            }
        }
        return best;
    }

    public static void main(String[] args) {
        String text = "The cat and the dog sat in the garden. The dog of the house is a good dog, "
            + "and the cat is a lazy cat in the sun.";
        List<String> words = tokenize(text);
        List<String> content = contentWords(words);
        System.out.println("most frequent: " + mostFrequent(count(content)));
        System.out.println("content words: " + content.size());
        System.out.println("all words: " + words.size());
    }
}
