package hindsight.runtime;

/**
 * The content of JDK objects (docs/wire-format.md, "Content of JDK objects"). The JDK is not
 * instrumented, so after a call into it the agent sends, as CONTENT events of the calling
 * thread's buffer, the content of the collections, maps and string builders the call may have
 * changed. The entry points are {@link Buf#content}, {@link Buf#added} and {@link Buf#sContent}.
 */
final class Contents {
    /** CONTENT kinds: a Collection, a Map, a string builder's text, a sequence's tail. */
    static final int SEQUENCE = 0, MAP = 1, TEXT = 2, TAIL = 3;
    /** Content longer than this many values is cut. */
    static final int MAX_CONTENT = 10_000;
    private static final String TRUNCATED = "…[truncated]";
    /** Stands for the value {@code void} (the value of a cut map's marker entry). */
    static final Object VOID = new Object();

    private Contents() {}

    /**
     * After a call into uninstrumented code: CONTENT of {@code o} if it is a JDK collection, map
     * or string builder and the call may have changed it ({@code changed}) or its content was
     * never sent. Never throws into the program: a snapshot that fails is skipped.
     */
    static void send(Buf b, Object o, boolean changed) {
        if (o == null || b.snapshotting) {
            return;
        }
        int kind;
        if (o instanceof java.util.Collection) {
            kind = SEQUENCE;
        } else if (o instanceof java.util.Map) {
            kind = MAP;
        } else if (o instanceof StringBuilder || o instanceof StringBuffer) {
            kind = TEXT;
        } else {
            return;
        }
        // An application subclass could run application code while we iterate it.
        if (o.getClass().getClassLoader() != null) {
            return;
        }
        boolean first = Ids.CONTENTS.idOf(o) < 0;
        if (!changed && !first) {
            return;
        }
        b.snapshot(o, kind);
    }

    /** The CONTENT event of {@code o} ({@link Buf#snapshot}, out of line). */
    static void snapshot(Buf b, Object o, int kind) {
        b.snapshotting = true;
        try {
            Object[] values = values(o, kind);
            int n = values.length;
            // Definitions first, as events of their own, so that the CONTENT event is not
            // moved once per first-seen value. A text is a new string every time: it gets a
            // fresh id rather than a place in the identity map of strings.
            long text = 0;
            if (kind == TEXT) {
                text = Strings.fresh();
                b.writeString(text, (String) values[0]);
            } else {
                for (Object v : values) {
                    predefine(b, v);
                }
            }
            b.begin(Encoder.CONTENT);
            long id = b.objectId(o);
            b.varint(id);
            b.put(kind);
            b.varint(kind == MAP ? n / 2 : n);
            if (kind == TEXT) {
                b.put(Encoder.TAG_STRING);
                b.varint(text);
            } else {
                for (Object v : values) {
                    b.vA(v);
                }
            }
            if (kind == SEQUENCE) {
                // A cut sequence is never followed by a tail: its recorded content is not the
                // list's. (Maps and texts never are: their mark stays -1.)
                boolean cut = n > 0 && values[n - 1] == TRUNCATED;
                Ids.CONTENTS.setMark(o, cut ? -1 : n);
            }
        } catch (Throwable t) {
            // ConcurrentModificationException from another thread, an OutOfMemoryError, ...:
            // the content stays unknown rather than the program changing.
        } finally {
            b.snapshotting = false;
        }
    }

    /**
     * After a call that added one element to a list: {@code add(e)}, {@code addElement(e)},
     * {@code addLast(e)} ({@code index} -1: at the end) or {@code add(index, e)},
     * {@code insertElementAt(e, index)}. For the JDK lists whose add puts the element there,
     * when the list's previous CONTENT (full or tail) left it one element shorter, only the
     * elements from the new one on are sent (a TAIL): appending to a long list would otherwise
     * cost the whole list each time. Anything else sends the full content, which also covers a
     * change no CONTENT followed (an iterator's remove).
     */
    static void added(Buf b, Object o, int index) {
        if (o == null || b.snapshotting) {
            return;
        }
        Class<?> c = o.getClass();
        if (c != java.util.ArrayList.class && c != java.util.Vector.class
                && c != java.util.LinkedList.class && c != java.util.Stack.class) {
            send(b, o, true);
            return;
        }
        java.util.List<?> list = (java.util.List<?>) o;
        int before = Ids.CONTENTS.mark(o);
        int n = list.size();
        int start = index < 0 ? n - 1 : index;
        if (before < 0 || n != before + 1 || start < 1 || start > before) {
            send(b, o, true);
            return;
        }
        b.tail(o, list, start, n);
    }

    /** CONTENT with the elements of {@code list} from {@code start} on ({@link Buf#tail}). */
    static void tail(Buf b, Object o, java.util.List<?> list, int start, int n) {
        b.snapshotting = true;
        try {
            Object[] values = list.subList(start, n).toArray();
            for (Object v : values) {
                predefine(b, v);
            }
            b.begin(Encoder.CONTENT);
            b.varint(b.objectId(o));
            b.put(TAIL);
            b.varint(start);
            b.varint(values.length);
            for (Object v : values) {
                b.vA(v);
            }
            Ids.CONTENTS.setMark(o, start + values.length);
        } catch (Throwable t) {
            // Changed by another thread meanwhile: the next change sends the full content.
            Ids.CONTENTS.setMark(o, -1);
        } finally {
            b.snapshotting = false;
        }
    }

    /** The values of a CONTENT event, cut after MAX_CONTENT values with the marker. */
    private static Object[] values(Object o, int kind) {
        if (kind == TEXT) {
            return new Object[] {o.toString()};
        }
        Object[] out;
        if (kind == SEQUENCE) {
            // toArray: one call, in iteration order (Collection's contract), and cheap for the
            // JIT to compile, where an iteration inlined every iterator class it had seen.
            java.util.Collection<?> c = (java.util.Collection<?>) o;
            out = c.size() <= MAX_CONTENT ? c.toArray() : null;
            if (out == null || out.length > MAX_CONTENT) {
                out = iterated(c);
            }
        } else {
            out = entries((java.util.Map<?, ?>) o);
        }
        int n = out.length;
        if (n > 1 && out[n - 1] != VOID && out[n - 1] != TRUNCATED && isSalted(o.getClass())) {
            canonicalOrder(out, kind == MAP ? 2 : 1);
        }
        return out;
    }

    /** The first MAX_CONTENT elements of a long collection, then the marker. */
    private static Object[] iterated(java.util.Collection<?> c) {
        Object[] out = new Object[MAX_CONTENT + 1];
        int n = 0;
        for (Object e : c) {
            if (n == MAX_CONTENT) {
                out[n++] = TRUNCATED;
                break;
            }
            out[n++] = e;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** Keys and values of a map, alternating, cut after MAX_CONTENT entries by the marker. */
    private static Object[] entries(java.util.Map<?, ?> m) {
        Object[] out = new Object[2 * Math.min(m.size(), MAX_CONTENT) + 2];
        int n = 0;
        for (java.util.Map.Entry<?, ?> e : m.entrySet()) {
            out = grow(out, n + 2);
            if (n == 2 * MAX_CONTENT) {
                out[n++] = TRUNCATED;
                out[n++] = VOID;
                break;
            }
            out[n++] = e.getKey();
            out[n++] = e.getValue();
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /**
     * Set.of and Map.of iterate in an order that changes from one JVM to the next (a random
     * salt): two runs of one program would show different contents. Their elements are sent
     * sorted instead when they are all strings or all boxes of one class (whose compareTo is
     * JDK code); other elements keep the iteration order.
     */
    private static boolean isSalted(Class<?> c) {
        String n = c.getName();
        return n.equals("java.util.ImmutableCollections$SetN")
                || n.equals("java.util.ImmutableCollections$MapN");
    }

    /** Rows by their first value (a class, not a lambda: the runtime spins no classes). */
    private static final class ByFirst implements java.util.Comparator<Object[]> {
        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public int compare(Object[] a, Object[] b) {
            return ((Comparable) a[0]).compareTo(b[0]);
        }
    }

    private static final ByFirst BY_FIRST = new ByFirst();

    private static void canonicalOrder(Object[] values, int stride) {
        Class<?> c = values[0] == null ? null : values[0].getClass();
        if (c != String.class && c != Integer.class && c != Long.class && c != Character.class
                && c != Short.class && c != Byte.class && c != Boolean.class) {
            return;
        }
        int n = values.length / stride;
        Object[][] rows = new Object[n][];
        for (int i = 0; i < n; i++) {
            if (values[i * stride] == null || values[i * stride].getClass() != c) {
                return;
            }
            rows[i] = java.util.Arrays.copyOfRange(values, i * stride, i * stride + stride);
        }
        java.util.Arrays.sort(rows, BY_FIRST);
        for (int i = 0; i < n; i++) {
            System.arraycopy(rows[i], 0, values, i * stride, stride);
        }
    }

    private static Object[] grow(Object[] a, int need) {
        return need <= a.length ? a : java.util.Arrays.copyOf(a, Math.max(need, a.length * 2));
    }

    /** Between events: STRING or first-seen NEW_* for a value about to be written. */
    private static void predefine(Buf b, Object v) {
        if (v == null || v == VOID) {
            return;
        }
        Class<?> c = v.getClass();
        if (c == String.class) {
            long id = Strings.idOf((String) v);
            if (id < 0) {
                b.writeString(-id, (String) v);
            }
        } else if (!Encoder.isBox(c)) {
            b.seen(v);
        }
    }
}
