package hindsight.eclipse.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for what the JNI bridge returns: objects become {@link Map}, arrays
 * {@link List}, numbers {@link Long} (or {@link Double} with a fraction or exponent), strings,
 * booleans and null as themselves. The plugin may depend on nothing beyond the Eclipse platform.
 */
public final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** Parses {@code text} (one JSON value); throws {@link IllegalArgumentException} on bad input. */
    public static Object parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no JSON text (null)");
        }
        Json j = new Json(text);
        Object v = j.value();
        j.space();
        if (j.pos != text.length()) {
            throw j.error("text after the value");
        }
        return v;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON at offset " + pos + ": " + what);
    }

    private void space() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private Object value() {
        space();
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(pos);
        switch (c) {
        case '{':
            return object();
        case '[':
            return array();
        case '"':
            return string();
        case 't':
            return literal("true", Boolean.TRUE);
        case 'f':
            return literal("false", Boolean.FALSE);
        case 'n':
            return literal("null", null);
        default:
            return number();
        }
    }

    private Object literal(String word, Object v) {
        if (!text.startsWith(word, pos)) {
            throw error("expected " + word);
        }
        pos += word.length();
        return v;
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        pos++;
        space();
        if (peek() == '}') {
            pos++;
            return m;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw error("expected a key");
            }
            String key = string();
            space();
            expect(':');
            m.put(key, value());
            space();
            if (peek() == ',') {
                pos++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        pos++;
        space();
        if (peek() == ']') {
            pos++;
            return l;
        }
        while (true) {
            l.add(value());
            space();
            if (peek() == ',') {
                pos++;
            } else {
                expect(']');
                return l;
            }
        }
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(pos);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private String string() {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = peek();
            pos++;
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = peek();
            pos++;
            switch (e) {
            case 'n' -> sb.append('\n');
            case 't' -> sb.append('\t');
            case 'r' -> sb.append('\r');
            case 'b' -> sb.append('\b');
            case 'f' -> sb.append('\f');
            case 'u' -> {
                if (pos + 4 > text.length()) {
                    throw error("short \\u escape");
                }
                sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                pos += 4;
            }
            default -> sb.append(e);
            }
        }
    }

    private Object number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String n = text.substring(start, pos);
        if (n.isEmpty()) {
            throw error("unexpected character '" + text.charAt(start) + "'");
        }
        try {
            if (n.contains(".") || n.contains("e") || n.contains("E")) {
                return Double.valueOf(n);
            }
            return Long.valueOf(n);
        } catch (NumberFormatException x) {
            throw error("bad number " + n);
        }
    }

    // Typed accessors for the bridge's objects.

    @SuppressWarnings("unchecked")
    static Map<String, Object> obj(Object o) {
        if (!(o instanceof Map)) {
            throw new IllegalArgumentException("expected a JSON object, got " + o);
        }
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Map<String, Object> m, String key) {
        Object o = m.get(key);
        return o instanceof List ? (List<Object>) o : List.of();
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object o) {
        if (!(o instanceof List)) {
            throw new IllegalArgumentException("expected a JSON array, got " + o);
        }
        return (List<Object>) o;
    }

    static String str(Map<String, Object> m, String key) {
        Object o = m.get(key);
        return o == null ? null : o.toString();
    }

    static long num(Map<String, Object> m, String key, long dflt) {
        Object o = m.get(key);
        return o instanceof Number n ? n.longValue() : dflt;
    }

    static boolean bool(Map<String, Object> m, String key) {
        return Boolean.TRUE.equals(m.get(key));
    }
}
