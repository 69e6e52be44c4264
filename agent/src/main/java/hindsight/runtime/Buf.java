package hindsight.runtime;

/**
 * One thread's event buffer, as instrumented code sees it. Instrumented code fetches it once
 * per call ({@link R#enter()}), keeps it in a local variable and calls the methods below: an
 * event header method (which takes the timestamp) followed by value methods ({@code vI},
 * {@code vA}, ...) for the event's values. Every method declared here is an entry point of
 * instrumented code, kept out of line by the JIT options the recorder gives the JVM; the
 * encoding they share is in {@link Encoder}. The package-private methods here are the rare and
 * large paths of the encoder, kept out of line by the same option.
 */
public final class Buf extends Encoder {

    Buf(Thread t) {
        super(t);
    }

    // ---- rare paths of the encoder (out of line) ----

    @Override
    void flush() {
        synchronized (Out.LOCK) {
            if (count > 0) {
                // A frame of STRING events only has no timestamp of its own.
                Out.events(tid, Math.max(baseTs, 0), count, b, pos);
            }
            emptied();
        }
    }

    @Override
    long firstSeen(Object o) {
        long id = Ids.OBJECTS.idOf(o);
        if (id < 0) {
            id = -id;
            insertFirstSeen(o, id);
        }
        return id;
    }

    @Override
    long newString(String s) {
        long id = Strings.assign(s);
        if (id < 0) {
            id = -id;
            insertString(id, s);
        }
        return id;
    }

    /** A CONTENT event (with the definitions its values need first); see {@link Contents}. */
    void snapshot(Object o, int kind) {
        Contents.snapshot(this, o, kind);
    }

    /** A CONTENT tail of a list (see {@link Contents#added}). */
    void tail(Object o, java.util.List<?> list, int start, int n) {
        Contents.tail(this, o, list, start, n);
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
        put(TAG_VOID);
    }

    public void vZ(int v) {
        put(v != 0 ? TAG_TRUE : TAG_FALSE);
    }

    public void vI(int v) {
        put(TAG_INT);
        svarint(v);
    }

    public void vC(int v) {
        put(TAG_CHAR);
        varint(v & 0xFFFF);
    }

    public void vB(int v) {
        put(TAG_BYTE);
        svarint((byte) v);
    }

    public void vS(int v) {
        put(TAG_SHORT);
        svarint((short) v);
    }

    public void vJ(long v) {
        put(TAG_LONG);
        svarint(v);
    }

    public void vF(float v) {
        put(TAG_FLOAT);
        int bits = Float.floatToRawIntBits(v);
        ensure(4);
        b[pos++] = (byte) bits;
        b[pos++] = (byte) (bits >>> 8);
        b[pos++] = (byte) (bits >>> 16);
        b[pos++] = (byte) (bits >>> 24);
    }

    public void vD(double v) {
        put(TAG_DOUBLE);
        long bits = Double.doubleToRawLongBits(v);
        ensure(8);
        for (int i = 0; i < 8; i++) {
            b[pos++] = (byte) (bits >>> (8 * i));
        }
    }

    public void vA(Object o) {
        if (o == null) {
            put(TAG_NULL);
            return;
        }
        if (o == Contents.VOID) {
            put(TAG_VOID);
            return;
        }
        Class<?> c = o.getClass();
        if (c == String.class) {
            long id = stringId((String) o);
            put(TAG_STRING);
            varint(id);
        } else if (c == Integer.class) {
            put(TAG_BOXED);
            vI((Integer) o);
        } else if (c == Long.class) {
            put(TAG_BOXED);
            vJ((Long) o);
        } else if (c == Boolean.class) {
            put(TAG_BOXED);
            vZ((Boolean) o ? 1 : 0);
        } else if (c == Character.class) {
            put(TAG_BOXED);
            vC((Character) o);
        } else if (c == Double.class) {
            put(TAG_BOXED);
            vD((Double) o);
        } else if (c == Float.class) {
            put(TAG_BOXED);
            vF((Float) o);
        } else if (c == Byte.class) {
            put(TAG_BOXED);
            vB((Byte) o);
        } else if (c == Short.class) {
            put(TAG_BOXED);
            vS((Short) o);
        } else {
            long id = objectId(o);
            put(TAG_OBJECT);
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
        put(TAG_VOID);
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

    // ---- content of JDK objects (Contents) ----

    /**
     * After a call into uninstrumented code: CONTENT of {@code o} if it is a JDK collection, map
     * or string builder and the call may have changed it ({@code changed}) or its content was
     * never sent.
     */
    public void content(Object o, boolean changed) {
        Contents.send(this, o, changed);
    }

    /** After an add of one element to a list at {@code index} (-1: at the end). */
    public void added(Object o, int index) {
        Contents.added(this, o, index);
    }

    /** CONTENT of an object an uninstrumented constructor just made. */
    public static void sContent(Object o, Buf b) {
        Contents.send(b, o, true);
    }
}
