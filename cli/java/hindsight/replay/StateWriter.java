package hindsight.replay;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Describes objects as the protocol's records: each object reached gets a number (from {@code
 * first} on, in the order it is reached) and one record, written when {@link #drain} is called.
 */
final class StateWriter {
    private final IdentityHashMap<Object, Integer> numbers = new IdentityHashMap<>();
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private final Map<Class<?>, List<Field>> fieldCache = new HashMap<>();
    private final StringBuilder records = new StringBuilder();
    private int next;

    StateWriter(int first) {
        this.next = first;
    }

    /** The next unused number. */
    int next() {
        return next;
    }

    /** The token of {@code v} held in a slot of type {@code type}; objects get a number. */
    String token(Object v, Class<?> type) {
        if (type.isPrimitive()) {
            return Tokens.primitive(v);
        }
        if (v == null) {
            return "N";
        }
        if (v instanceof String s) {
            return Tokens.string(s);
        }
        if (Tokens.isBox(v.getClass())) {
            return "b" + Tokens.primitive(v);
        }
        Integer n = numbers.get(v);
        if (n == null) {
            n = next++;
            numbers.put(v, n);
            pending.add(v);
        }
        return "@" + n;
    }

    /** The records of every object numbered so far and of those they reach, one per line. */
    String drain() {
        while (!pending.isEmpty()) {
            Object o = pending.poll();
            describe(o, numbers.get(o));
        }
        String out = records.toString();
        records.setLength(0);
        return out;
    }

    private void describe(Object o, int n) {
        Class<?> c = o.getClass();
        String name = c.getTypeName();
        if (c.isArray()) {
            int len = Array.getLength(o);
            line("ARR " + n + " " + name + " " + len);
            Class<?> component = c.getComponentType();
            for (int i = 0; i < len; i++) {
                records.append(' ').append(token(Array.get(o, i), component));
            }
            records.append('\n');
        } else if (o instanceof Enum<?> e) {
            // An enum constant, a class, a field, a method by its name, as the agent records them.
            line("TEXT " + n + " " + name + " " + Tokens.string(e.name()) + "\n");
        } else if (Classes.reflectiveName(o) != null) {
            line("TEXT " + n + " " + name + " " + Tokens.string(Classes.reflectiveName(o)) + "\n");
        } else if (Classes.isProgram(c) || c == Object.class) {
            line("OBJ " + n + " " + name + "\n");
            for (Field f : fieldCache.computeIfAbsent(c, Classes::instanceFields)) {
                Object v;
                try {
                    v = f.get(o);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("field " + f + " is not accessible", e);
                }
                line("FIELD " + n + " " + f.getName() + " " + token(v, f.getType()) + "\n");
            }
        } else if (o instanceof StringBuilder || o instanceof StringBuffer) {
            line("TEXT " + n + " " + name + " " + Tokens.string(o.toString()) + "\n");
        } else if (o instanceof Collection<?> seq) {
            Object[] items = seq.toArray();
            line("SEQ " + n + " " + name + " " + items.length);
            for (Object item : items) {
                records.append(' ').append(token(item, Object.class));
            }
            records.append('\n');
        } else if (o instanceof Map<?, ?> map) {
            Object[] entries = map.entrySet().toArray();
            line("MAP " + n + " " + name + " " + 2 * entries.length);
            for (Object e : entries) {
                Map.Entry<?, ?> entry = (Map.Entry<?, ?>) e;
                records.append(' ').append(token(entry.getKey(), Object.class));
                records.append(' ').append(token(entry.getValue(), Object.class));
            }
            records.append('\n');
        } else {
            line("OPAQUE " + n + " " + name + "\n");
        }
    }

    private void line(String s) {
        records.append(s);
    }
}
