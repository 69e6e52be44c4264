package hindsight.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * The agent options: {@code key=value} pairs separated by commas. A comma-separated piece whose
 * text before '=' is not a known key continues the previous value, so pattern lists read
 * naturally: {@code file=/tmp/t.hsw,include=com.acme.*,org.demo.Main,exclude=com.acme.gen.*}.
 */
public final class Options {
    static final String[] KEYS = {"socket", "file", "include", "exclude"};

    String socket;
    String file;
    final List<String> include = new ArrayList<>();
    final List<String> exclude = new ArrayList<>();

    static Options parse(String text) {
        Options o = new Options();
        if (text == null || text.isEmpty()) {
            return o;
        }
        String key = null;
        StringBuilder value = new StringBuilder();
        for (String piece : text.split(",", -1)) {
            int eq = piece.indexOf('=');
            String k = eq > 0 ? piece.substring(0, eq) : null;
            if (k != null && isKey(k)) {
                o.set(key, value.toString());
                key = k;
                value.setLength(0);
                value.append(piece, eq + 1, piece.length());
            } else if (key == null) {
                throw new IllegalArgumentException("unknown agent option '" + piece
                        + "' (expected socket=PATH, file=PATH, include=PATTERNS or exclude=PATTERNS)");
            } else {
                value.append(',').append(piece);
            }
        }
        o.set(key, value.toString());
        return o;
    }

    private static boolean isKey(String k) {
        for (String key : KEYS) {
            if (key.equals(k)) {
                return true;
            }
        }
        return false;
    }

    private void set(String key, String value) {
        if (key == null) {
            return;
        }
        switch (key) {
            case "socket": socket = value; break;
            case "file": file = value; break;
            case "include": addPatterns(include, value); break;
            default: addPatterns(exclude, value); break;
        }
    }

    private static void addPatterns(List<String> into, String value) {
        for (String p : value.split(",")) {
            if (!p.isBlank()) {
                into.add(p.trim());
            }
        }
    }
}
