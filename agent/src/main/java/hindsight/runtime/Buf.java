package hindsight.runtime;

/**
 * One thread's event buffer, as instrumented code sees it. Instrumented code fetches it once
 * per call ({@link R#enter()}), keeps it in a local variable and calls the methods below: an
 * event header method (which takes the timestamp) followed by value methods ({@code vI},
 * {@code vA}, ...) for the event's values. Every method declared here is an entry point of
 * instrumented code, kept out of line by the JIT options the recorder gives the JVM; the
 * encoding they share is in {@link Encoder}.
 */
public final class Buf extends Encoder {

    Buf(Thread t) {
        super(t);
    }

    @Override
    void writeNew(Object o, long id, long t, int origin) {
        Class<?> c = o.getClass();
        if (!c.isArray()) {
            beginAt(NEW_OBJECT, t);
            varint(id);
            varint(Defs.classOf(c));
            put(origin);
            return;
        }
        int n = java.lang.reflect.Array.getLength(o);
        beginAt(NEW_ARRAY, t);
        varint(id);
        varint(Defs.classOf(c));
        varint(n);
        put(origin);
        if (origin == 0) {
            return;
        }
        if (o instanceof int[]) {
            for (int v : (int[]) o) vI(v);
        } else if (o instanceof byte[]) {
            for (byte v : (byte[]) o) vB(v);
        } else if (o instanceof char[]) {
            for (char v : (char[]) o) vC(v);
        } else if (o instanceof long[]) {
            for (long v : (long[]) o) vJ(v);
        } else if (o instanceof double[]) {
            for (double v : (double[]) o) vD(v);
        } else if (o instanceof boolean[]) {
            for (boolean v : (boolean[]) o) vZ(v ? 1 : 0);
        } else if (o instanceof float[]) {
            for (float v : (float[]) o) vF(v);
        } else if (o instanceof short[]) {
            for (short v : (short[]) o) vS(v);
        } else {
            for (Object v : (Object[]) o) vA(v);
        }
    }


    // ---- values ----

    public void vV() {
        put(0x00);
    }

    public void vZ(int v) {
        put(v != 0 ? 0x03 : 0x02);
    }

    public void vI(int v) {
        put(0x04);
        svarint(v);
    }

    public void vC(int v) {
        put(0x05);
        varint(v & 0xFFFF);
    }

    public void vB(int v) {
        put(0x06);
        svarint((byte) v);
    }

    public void vS(int v) {
        put(0x07);
        svarint((short) v);
    }

    public void vJ(long v) {
        put(0x08);
        svarint(v);
    }

    public void vF(float v) {
        put(0x09);
        int bits = Float.floatToRawIntBits(v);
        ensure(4);
        b[pos++] = (byte) bits;
        b[pos++] = (byte) (bits >>> 8);
        b[pos++] = (byte) (bits >>> 16);
        b[pos++] = (byte) (bits >>> 24);
    }

    public void vD(double v) {
        put(0x0A);
        long bits = Double.doubleToRawLongBits(v);
        ensure(8);
        for (int i = 0; i < 8; i++) {
            b[pos++] = (byte) (bits >>> (8 * i));
        }
    }

    public void vA(Object o) {
        if (o == null) {
            put(0x01);
            return;
        }
        if (o == VOID) {
            put(0x00);
            return;
        }
        Class<?> c = o.getClass();
        if (c == String.class) {
            long id = stringId((String) o);
            put(0x0C);
            varint(id);
        } else if (c == Integer.class) {
            put(0x0D);
            vI((Integer) o);
        } else if (c == Long.class) {
            put(0x0D);
            vJ((Long) o);
        } else if (c == Boolean.class) {
            put(0x0D);
            vZ((Boolean) o ? 1 : 0);
        } else if (c == Character.class) {
            put(0x0D);
            vC((Character) o);
        } else if (c == Double.class) {
            put(0x0D);
            vD((Double) o);
        } else if (c == Float.class) {
            put(0x0D);
            vF((Float) o);
        } else if (c == Byte.class) {
            put(0x0D);
            vB((Byte) o);
        } else if (c == Short.class) {
            put(0x0D);
            vS((Short) o);
        } else {
            long id = objectId(o);
            put(0x0B);
            varint(id);
        }
    }

    // ---- parking around calls into uninstrumented code ----

    /** The owner is about to call uninstrumented code; the buffer holds complete events only. */
    public void park() {
        STATE.setRelease(this, PARKED);
    }

    /** The owner is back (the call returned or threw, or a callback entered instrumented code). */
    public void unpark() {
        reclaim();
    }


    // ---- events (headers; the values follow) ----

    public void call(int method, int argc) {
        begin(CALL);
        varint(method);
        varint(argc);
    }

    public void ret() {
        begin(RETURN);
    }

    /** RETURN of a void method, then the end of the call. */
    public void retVoid() {
        begin(RETURN);
        put(0x00);
        endCall();
    }

    /** The end of an instrumented call: the outermost one of a thread flushes. */
    public void exit() {
        endCall();
    }

    public void extCall(int method, int argc) {
        begin(EXT_CALL);
        varint(method);
        varint(argc);
    }

    public void extRet() {
        begin(EXT_RETURN);
    }

    public void line(int line) {
        begin(LINE);
        varint(line);
    }

    public void block(int block) {
        begin(BLOCK);
        varint(block);
    }

    /** Before a getfield: a null object throws and reads nothing. */
    public void fieldRead(Object o, int field) {
        if (o == null) {
            return;
        }
        begin(FIELD_READ);
        long id = objectId(o);
        varint(id);
        varint(field);
    }

    /** Before an xaload: an access that throws reads nothing. */
    public void arrayRead(Object array, int index) {
        if (array == null || index < 0 || index >= java.lang.reflect.Array.getLength(array)) {
            return;
        }
        begin(ARRAY_READ);
        long id = objectId(array);
        varint(id);
        varint(index);
    }

    public void staticRead(int field) {
        begin(STATIC_READ);
        varint(field);
    }

    public void local(int var) {
        begin(LOCAL);
        varint(var);
    }

    public void fieldWrite(Object o, int field) {
        begin(FIELD_WRITE);
        long id = objectId(o);
        varint(id);
        varint(field);
    }

    public void fieldWriteUninit(int field) {
        begin(FIELD_WRITE_UNINIT);
        varint(field);
    }

    public void staticWrite(int field) {
        begin(STATIC_WRITE);
        varint(field);
    }

    public void arrayWrite(Object array, int index) {
        begin(ARRAY_WRITE);
        long id = objectId(array);
        varint(id);
        varint(index);
    }

    /** ARRAY_WRITE of a bastore: the array decides between boolean and byte. */
    public void arrayWriteB(Object array, int index, int v) {
        arrayWrite(array, index);
        if (array instanceof boolean[]) {
            vZ(v);
        } else {
            vB(v);
        }
    }

    /**
     * A constructor is about to call its super(...) or this(...) constructor. The verifier allows
     * no handler around that call, so if it throws the constructor cannot record its UNWIND:
     * {@link #abandonedConstructors} and {@link #sUnwind} record it instead.
     */
    public void superCall(boolean instrumentedCallee) {
        if (superCallsTop == superCalls.length) {
            superCalls = java.util.Arrays.copyOf(superCalls, superCallsTop * 2);
        }
        superCalls[superCallsTop++] = depth * 2 + (instrumentedCallee ? 1 : 0);
    }

    /**
     * An exception event at the depth of a constructor still inside its super(...) call means
     * that call threw (everything it ran is deeper): the constructor unwound first.
     */
    private void abandonedConstructors(Throwable t) {
        while (superCallsTop > 0 && superCalls[superCallsTop - 1] >> 1 == depth) {
            superCallsTop--;
            begin(UNWIND);
            vA(t);
            endCall();
        }
    }

    /**
     * An uninstrumented JDK method (System.arraycopy, Arrays.sort, fill, setAll, ...) may have
     * written elements [from, to) of an array: ARRAY_WRITE for each of them, inside its EXT_CALL.
     */
    public void arrayRange(Object array, int from, int to) {
        if (array == null) {
            return;
        }
        int n = java.lang.reflect.Array.getLength(array);
        from = Math.max(0, from);
        to = Math.min(n, to);
        for (int i = from; i < to; i++) {
            arrayWrite(array, i);
            if (array instanceof int[]) {
                vI(((int[]) array)[i]);
            } else if (array instanceof long[]) {
                vJ(((long[]) array)[i]);
            } else if (array instanceof double[]) {
                vD(((double[]) array)[i]);
            } else if (array instanceof byte[]) {
                vB(((byte[]) array)[i]);
            } else if (array instanceof char[]) {
                vC(((char[]) array)[i]);
            } else if (array instanceof boolean[]) {
                vZ(((boolean[]) array)[i] ? 1 : 0);
            } else if (array instanceof float[]) {
                vF(((float[]) array)[i]);
            } else if (array instanceof short[]) {
                vS(((short[]) array)[i]);
            } else {
                vA(((Object[]) array)[i]);
            }
        }
    }

    /** A constructor's this is initialised: NEW_OBJECT (origin 0) the first time, then THIS. */
    public void thisInit(Object o) {
        if (superCallsTop > 0 && superCalls[superCallsTop - 1] >> 1 == depth) {
            superCallsTop--;
        }
        long id = Ids.OBJECTS.idOf(o);
        if (id < 0) {
            id = -id;
            begin(NEW_OBJECT);
            varint(id);
            varint(Defs.classOf(o.getClass()));
            put(0);
        }
        begin(THIS);
        varint(id);
    }

    /** Makes sure an object or array has an id (NEW_* with origin 1 if it had none). */
    public void seen(Object o) {
        if (o == null) {
            return;
        }
        long id = Ids.OBJECTS.idOf(o);
        if (id < 0) {
            begin(NEW_ARRAY);
            pos = evStart;
            count--;
            lastTs = evPrevTs;
            writeNew(o, -id, evTs, 1);
        }
    }

    // ---- events whose value is on the operand stack (static: value first, buffer last) ----

    public static void sUnwind(Throwable t, Buf b) {
        b.abandonedConstructors(t);
        b.begin(UNWIND);
        b.vA(t);
        R.unwound(b);
        b.endCall();
        // A constructor's super(...) call cannot be covered by a handler: when the constructor
        // it called unwinds, the exception leaves the calling constructor too.
        while (b.superCallsTop > 0 && b.superCalls[b.superCallsTop - 1] == b.depth * 2 + 1) {
            b.superCallsTop--;
            b.begin(UNWIND);
            b.vA(t);
            R.unwound(b);
            b.endCall();
        }
    }

    public static void sExtUnwind(Throwable t, Buf b) {
        b.unpark();
        b.abandonedConstructors(t);
        b.begin(EXT_UNWIND);
        b.vA(t);
    }

    public static void sThrow(Throwable t, Buf b) {
        b.begin(THROW);
        b.vA(t);
    }

    public static void sCatch(Throwable t, Buf b) {
        b.abandonedConstructors(t);
        b.begin(CATCH);
        b.vA(t);
    }

    /** A new array made by application code: NEW_ARRAY with origin 0. */
    public static void sNewArray(Object array, Buf b) {
        long id = Ids.OBJECTS.idOf(array);
        if (id < 0) {
            b.begin(NEW_ARRAY);
            b.pos = b.evStart;
            b.count--;
            b.lastTs = b.evPrevTs;
            b.writeNew(array, -id, b.evTs, 0);
        }
    }

    /** An uninstrumented constructor returned the new object: NEW_OBJECT (origin 0), EXT_RETURN. */
    public static void sExtNew(Object o, Buf b) {
        long id = Ids.OBJECTS.idOf(o);
        if (id < 0) {
            id = -id;
            b.begin(NEW_OBJECT);
            b.varint(id);
            b.varint(Defs.classOf(o.getClass()));
            b.put(0);
        }
        b.begin(EXT_RETURN);
        b.vA(o);
    }

    // ---- content of JDK objects ----

    /**
     * After a call into uninstrumented code: CONTENT of {@code o} if it is a JDK collection, map
     * or string builder and the call may have changed it ({@code changed}) or its content was
     * never sent. Never throws into the program: a snapshot that fails is skipped.
     */
    public void content(Object o, boolean changed) {
        if (o == null || snapshotting) {
            return;
        }
        int kind;
        if (o instanceof java.util.Collection) {
            kind = 0;
        } else if (o instanceof java.util.Map) {
            kind = 1;
        } else if (o instanceof StringBuilder || o instanceof StringBuffer) {
            kind = 2;
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
        snapshotting = true;
        try {
            Object[] values = snapshot(o, kind);
            int n = values.length;
            // Definitions first, as events of their own, so that the CONTENT event is not
            // moved once per first-seen value. A text is a new string every time: it gets a
            // fresh id rather than a place in the identity map of strings.
            long text = 0;
            if (kind == 2) {
                text = Strings.fresh();
                writeString(text, (String) values[0]);
            } else {
                for (Object v : values) {
                    predefine(v);
                }
            }
            begin(CONTENT);
            long id = objectId(o);
            varint(id);
            put(kind);
            varint(kind == 1 ? n / 2 : n);
            if (kind == 2) {
                put(0x0C);
                varint(text);
            } else {
                for (Object v : values) {
                    vA(v);
                }
            }
            if (kind == 0) {
                // A cut sequence is never followed by a tail: its recorded content is not the
                // list's. (Maps and texts never are: their mark stays -1.)
                boolean cut = n > 0 && values[n - 1] == TRUNCATED;
                Ids.CONTENTS.setMark(o, cut ? -1 : n);
            }
        } catch (Throwable t) {
            // ConcurrentModificationException from another thread, an OutOfMemoryError, ...:
            // the content stays unknown rather than the program changing.
        } finally {
            snapshotting = false;
        }
    }

    /**
     * After a call that added one element to a list: {@code add(e)}, {@code addElement(e)},
     * {@code addLast(e)} ({@code index} -1: at the end) or {@code add(index, e)},
     * {@code insertElementAt(e, index)}. For the JDK lists whose add puts the element there,
     * when the list's previous CONTENT (full or tail) left it one element shorter, only the
     * elements from the new one on are sent (CONTENT kind 3, a tail): appending to a long list
     * would otherwise cost the whole list each time. Anything else sends the full content,
     * which also covers a change no CONTENT followed (an iterator's remove).
     */
    public void added(Object o, int index) {
        if (o == null || snapshotting) {
            return;
        }
        Class<?> c = o.getClass();
        if (c != java.util.ArrayList.class && c != java.util.Vector.class
                && c != java.util.LinkedList.class && c != java.util.Stack.class) {
            content(o, true);
            return;
        }
        java.util.List<?> list = (java.util.List<?>) o;
        int before = Ids.CONTENTS.mark(o);
        int n = list.size();
        int start = index < 0 ? n - 1 : index;
        if (before < 0 || n != before + 1 || start < 1 || start > before) {
            content(o, true);
            return;
        }
        snapshotting = true;
        try {
            Object[] values = list.subList(start, n).toArray();
            for (Object v : values) {
                predefine(v);
            }
            begin(CONTENT);
            varint(objectId(o));
            put(TAIL);
            varint(start);
            varint(values.length);
            for (Object v : values) {
                vA(v);
            }
            Ids.CONTENTS.setMark(o, start + values.length);
        } catch (Throwable t) {
            // Changed by another thread meanwhile: the next change sends the full content.
            Ids.CONTENTS.setMark(o, -1);
        } finally {
            snapshotting = false;
        }
    }

    /** The kind byte of a CONTENT event holding a sequence's elements from an index on. */
    private static final int TAIL = 3;

    /** The values of a CONTENT event, cut after MAX_CONTENT values with the marker. */
    private static Object[] snapshot(Object o, int kind) {
        if (kind == 2) {
            return new Object[] {o.toString()};
        }
        Object[] out = new Object[16];
        int n = 0;
        if (kind == 0) {
            for (Object e : (java.util.Collection<?>) o) {
                if (n == MAX_CONTENT) {
                    out = grow(out, n + 1);
                    out[n++] = TRUNCATED;
                    break;
                }
                out = grow(out, n + 1);
                out[n++] = e;
            }
        } else {
            int entries = 0;
            for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) o).entrySet()) {
                out = grow(out, n + 2);
                if (entries == MAX_CONTENT) {
                    out[n++] = TRUNCATED;
                    out[n++] = VOID;
                    break;
                }
                out[n++] = e.getKey();
                out[n++] = e.getValue();
                entries++;
            }
        }
        out = java.util.Arrays.copyOf(out, n);
        if (n > 1 && out[n - 1] != VOID && out[n - 1] != TRUNCATED && isSalted(o.getClass())) {
            canonicalOrder(out, kind == 1 ? 2 : 1);
        }
        return out;
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

    private static final String TRUNCATED = "…[truncated]";
    /** Stands for the value {@code void} (the value of a cut map's marker entry). */
    private static final Object VOID = new Object();

    private static Object[] grow(Object[] a, int need) {
        return need <= a.length ? a : java.util.Arrays.copyOf(a, Math.max(need, a.length * 2));
    }

    /** Between events: STRING or first-seen NEW_* for a value about to be written. */
    private void predefine(Object v) {
        if (v == null || v == VOID) {
            return;
        }
        Class<?> c = v.getClass();
        if (c == String.class) {
            long id = Strings.idOf((String) v);
            if (id < 0) {
                writeString(-id, (String) v);
            }
        } else if (c != Integer.class && c != Long.class && c != Boolean.class
                && c != Character.class && c != Double.class && c != Float.class
                && c != Byte.class && c != Short.class) {
            seen(v);
        }
    }

    /** CONTENT of an object an uninstrumented constructor just made. */
    public static void sContent(Object o, Buf b) {
        b.content(o, true);
    }
}
