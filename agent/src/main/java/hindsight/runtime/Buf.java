package hindsight.runtime;

/**
 * One thread's event buffer, as instrumented code sees it. Instrumented code fetches it once
 * per call ({@link R#enter()}), keeps it in a local variable and calls the methods below, one
 * call per event: an event with one value has an entry point per value type ({@code localI},
 * {@code fieldWriteA}, {@code retJ}, ...: one call instead of a header and a value call, which
 * halved the calls and the code the JIT compiles); the events with several values (CALL,
 * EXT_CALL) have a header method followed by value methods ({@code vI}, {@code vA}, ...).
 * Every method declared here is an entry point of
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
    long objectIdMiss(Object o, int slot) {
        long id = Ids.OBJECTS.idOf(o);
        if (id < 0) {
            id = -id;
            insertFirstSeen(o, id);
        }
        cache(o, slot, id);
        return id;
    }

    @Override
    long stringId(String s) {
        long id = Strings.known(s);
        if (id == 0) {
            id = Strings.assign(s);
            if (id < 0) {
                id = -id;
                insertString(id, s);
            }
        }
        return id;
    }

    @Override
    void boxed(Object o) {
        Class<?> c = o.getClass();
        if (c == Integer.class) {
            put(TAG_BOXED);
            valI((Integer) o);
        } else if (c == Long.class) {
            put(TAG_BOXED);
            valJ((Long) o);
        } else if (c == Boolean.class) {
            put(TAG_BOXED);
            valZ((Boolean) o ? 1 : 0);
        } else if (c == Character.class) {
            put(TAG_BOXED);
            valC((Character) o);
        } else if (c == Double.class) {
            put(TAG_BOXED);
            valD((Double) o);
        } else if (c == Float.class) {
            put(TAG_BOXED);
            valF((Float) o);
        } else if (c == Byte.class) {
            put(TAG_BOXED);
            valB((Byte) o);
        } else if (c == Short.class) {
            put(TAG_BOXED);
            valS((Short) o);
        } else if (o == Contents.VOID) {
            put(TAG_VOID);
        } else {
            // BigInteger, AtomicLong, ...: an object like any other.
            long id = objectId(o);
            put(TAG_OBJECT);
            varint(id);
        }
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
            if (origin == 1) {
                if (o instanceof Enum) {
                    enumName((Enum<?>) o, id);
                } else {
                    String name = reflectiveName(o, c);
                    if (name != null) {
                        name(name, id);
                    }
                }
            }
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
            for (int v : (int[]) o) valI(v);
        } else if (o instanceof byte[]) {
            for (byte v : (byte[]) o) valB(v);
        } else if (o instanceof char[]) {
            for (char v : (char[]) o) valC(v);
        } else if (o instanceof long[]) {
            for (long v : (long[]) o) valJ(v);
        } else if (o instanceof double[]) {
            for (double v : (double[]) o) valD(v);
        } else if (o instanceof boolean[]) {
            for (boolean v : (boolean[]) o) valZ(v ? 1 : 0);
        } else if (o instanceof float[]) {
            for (float v : (float[]) o) valF(v);
        } else if (o instanceof short[]) {
            for (short v : (short[]) o) valS(v);
        } else {
            for (Object v : (Object[]) o) valA(v);
        }
    }


    // ---- values of an event with several (CALL, EXT_CALL) ----

    public void vZ(int v) {
        valZ(v);
    }

    public void vI(int v) {
        valI(v);
    }

    public void vC(int v) {
        valC(v);
    }

    public void vB(int v) {
        valB(v);
    }

    public void vS(int v) {
        valS(v);
    }

    public void vJ(long v) {
        valJ(v);
    }

    public void vF(float v) {
        valF(v);
    }

    public void vD(double v) {
        valD(v);
    }

    public void vA(Object o) {
        valA(o);
    }

    // ---- parking around calls into uninstrumented code ----

    /** The owner is about to call uninstrumented code; the buffer holds complete events only. */
    public void park() {
        STATE.setRelease(this, PARKED);
    }


    // ---- events (headers; the values follow) ----

    public void call(int method, int argc) {
        begin(CALL);
        varint(method);
        varint(argc);
    }

    /** RETURN of a void method, then the end of the call. */
    public void retVoid() {
        begin(RETURN);
        put(TAG_VOID);
        endCall();
    }

    /** EXT_CALL; its values follow, with vAk for those whose content it may change. */
    public void extCall(int method, int argc) {
        begin(EXT_CALL);
        varint(method);
        varint(argc);
        openExternal();
    }

    /**
     * A value of an EXT_CALL that may be a JDK collection, map or builder: kept until the call
     * ends, so that if it ends by an exception its CONTENT follows the EXT_UNWIND
     * ({@code changed}: whether the call may have changed it, see {@link Contents#send}).
     */
    public void vAk(Object o, boolean changed) {
        valA(o);
        keep(o, changed);
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

    public void fieldWriteUninit(int field) {
        begin(FIELD_WRITE_UNINIT);
        varint(field);
    }

    /** ARRAY_WRITE of a bastore: the array decides between boolean and byte. */
    public void arrayWriteB(Object array, int index, int v) {
        arrayWrite(array, index);
        if (array instanceof boolean[]) {
            valZ(v & 1);
        } else {
            valB(v);
        }
    }

    // ---- events with one value: an entry point per value type (the name's last letter) ----

    // LOCAL: a local variable was written.
    public void localZ(int var, int v) {
        local(var);
        valZ(v);
    }

    public void localC(int var, int v) {
        local(var);
        valC(v);
    }

    public void localB(int var, int v) {
        local(var);
        valB(v);
    }

    public void localS(int var, int v) {
        local(var);
        valS(v);
    }

    public void localI(int var, int v) {
        local(var);
        valI(v);
    }

    public void localJ(int var, long v) {
        local(var);
        valJ(v);
    }

    public void localF(int var, float v) {
        local(var);
        valF(v);
    }

    public void localD(int var, double v) {
        local(var);
        valD(v);
    }

    public void localA(int var, Object v) {
        local(var);
        valA(v);
    }

    // FIELD_WRITE: an instance field was written (after the putfield).

    public void fieldWriteZ(Object o, int field, int v) {
        fieldWrite(o, field);
        valZ(v & 1); // the JVM stores the low bit (JVMS putfield), as for the others below
    }

    public void fieldWriteC(Object o, int field, int v) {
        fieldWrite(o, field);
        valC(v);
    }

    public void fieldWriteB(Object o, int field, int v) {
        fieldWrite(o, field);
        valB(v);
    }

    public void fieldWriteS(Object o, int field, int v) {
        fieldWrite(o, field);
        valS(v);
    }

    public void fieldWriteI(Object o, int field, int v) {
        fieldWrite(o, field);
        valI(v);
    }

    public void fieldWriteJ(Object o, int field, long v) {
        fieldWrite(o, field);
        valJ(v);
    }

    public void fieldWriteF(Object o, int field, float v) {
        fieldWrite(o, field);
        valF(v);
    }

    public void fieldWriteD(Object o, int field, double v) {
        fieldWrite(o, field);
        valD(v);
    }

    public void fieldWriteA(Object o, int field, Object v) {
        fieldWrite(o, field);
        valA(v);
    }

    // STATIC_WRITE: a static field was written.

    public void staticWriteZ(int field, int v) {
        staticWrite(field);
        valZ(v & 1);
    }

    public void staticWriteC(int field, int v) {
        staticWrite(field);
        valC(v);
    }

    public void staticWriteB(int field, int v) {
        staticWrite(field);
        valB(v);
    }

    public void staticWriteS(int field, int v) {
        staticWrite(field);
        valS(v);
    }

    public void staticWriteI(int field, int v) {
        staticWrite(field);
        valI(v);
    }

    public void staticWriteJ(int field, long v) {
        staticWrite(field);
        valJ(v);
    }

    public void staticWriteF(int field, float v) {
        staticWrite(field);
        valF(v);
    }

    public void staticWriteD(int field, double v) {
        staticWrite(field);
        valD(v);
    }

    public void staticWriteA(int field, Object v) {
        staticWrite(field);
        valA(v);
    }

    // ARRAY_WRITE: an array element was written (a bastore: arrayWriteB).

    public void arrayWriteC(Object array, int index, int v) {
        arrayWrite(array, index);
        valC(v);
    }

    public void arrayWriteS(Object array, int index, int v) {
        arrayWrite(array, index);
        valS(v);
    }

    public void arrayWriteI(Object array, int index, int v) {
        arrayWrite(array, index);
        valI(v);
    }

    public void arrayWriteJ(Object array, int index, long v) {
        arrayWrite(array, index);
        valJ(v);
    }

    public void arrayWriteF(Object array, int index, float v) {
        arrayWrite(array, index);
        valF(v);
    }

    public void arrayWriteD(Object array, int index, double v) {
        arrayWrite(array, index);
        valD(v);
    }

    public void arrayWriteA(Object array, int index, Object v) {
        arrayWrite(array, index);
        valA(v);
    }

    // RETURN, then the end of the call.

    public void retZ(int v) {
        begin(RETURN);
        valZ(v & 1);
        endCall();
    }

    public void retC(int v) {
        begin(RETURN);
        valC(v);
        endCall();
    }

    public void retB(int v) {
        begin(RETURN);
        valB(v);
        endCall();
    }

    public void retS(int v) {
        begin(RETURN);
        valS(v);
        endCall();
    }

    public void retI(int v) {
        begin(RETURN);
        valI(v);
        endCall();
    }

    public void retJ(long v) {
        begin(RETURN);
        valJ(v);
        endCall();
    }

    public void retF(float v) {
        begin(RETURN);
        valF(v);
        endCall();
    }

    public void retD(double v) {
        begin(RETURN);
        valD(v);
        endCall();
    }

    public void retA(Object v) {
        begin(RETURN);
        valA(v);
        endCall();
    }

    // EXT_RETURN: a call into uninstrumented code returned.

    public void extRetZ(int v) {
        extReturned();
        begin(EXT_RETURN);
        valZ(v);
    }

    public void extRetC(int v) {
        extReturned();
        begin(EXT_RETURN);
        valC(v);
    }

    public void extRetB(int v) {
        extReturned();
        begin(EXT_RETURN);
        valB(v);
    }

    public void extRetS(int v) {
        extReturned();
        begin(EXT_RETURN);
        valS(v);
    }

    public void extRetI(int v) {
        extReturned();
        begin(EXT_RETURN);
        valI(v);
    }

    public void extRetJ(long v) {
        extReturned();
        begin(EXT_RETURN);
        valJ(v);
    }

    public void extRetF(float v) {
        extReturned();
        begin(EXT_RETURN);
        valF(v);
    }

    public void extRetD(double v) {
        extReturned();
        begin(EXT_RETURN);
        valD(v);
    }

    public void extRetA(Object v) {
        extReturned();
        begin(EXT_RETURN);
        valA(v);
    }

    /** EXT_RETURN of a void method. */
    public void extRetV() {
        extReturned();
        begin(EXT_RETURN);
        put(TAG_VOID);
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
     * An exception event at the depth of a call into uninstrumented code that has not returned
     * means the call threw: its EXT_UNWIND, then the CONTENT of the objects it was given that
     * it may have changed. (No handler around the call: the exception reaches the caller's own
     * handler or its catch-all unchanged, and the call site needs no stack map frame.)
     */
    private void abandonedExternals(Throwable t) {
        while (externalOpenAt(depth)) {
            begin(EXT_UNWIND);
            valA(t);
            int from = keptFrom();
            for (int i = from; i < keptTop; i++) {
                Contents.send(this, kept[i], keptChanged[i]);
            }
            extReturned();
        }
    }

    /**
     * After a VarHandle, field updater, Unsafe or reflection call that may have written {@code o}
     * (see JdkHooks.fieldWrites): the element {@code index} of an array (the whole array when
     * {@code index} is -1), or each field the program's classes declare for {@code o}, as they
     * are now, changed or not. The JDK's own fields stay unrecorded, as everywhere.
     */
    public void fieldsWritten(Object o, int index) {
        if (o != null && o.getClass().isArray()) {
            arrayRange(o, index < 0 ? 0 : index, index < 0 ? Integer.MAX_VALUE : index + 1);
            return;
        }
        // Reflection may load and initialise classes, whose code records as a callback would:
        // before the buffer is taken back.
        Reflected.Field[] fields = o == null ? new Reflected.Field[0] : Reflected.fields(o.getClass());
        reclaim();
        for (Reflected.Field f : fields) {
            try {
                fieldWrite(o, f);
            } catch (IllegalAccessException e) {
                // Reflected.fields keeps only the fields it could open.
            }
        }
    }

    /** A FIELD_WRITE of {@code f} of {@code o} with its value now. */
    private void fieldWrite(Object o, Reflected.Field f) throws IllegalAccessException {
        switch (f.kind) {
            case 'Z': fieldWriteZ(o, f.id, f.field.getBoolean(o) ? 1 : 0); break;
            case 'C': fieldWriteC(o, f.id, f.field.getChar(o)); break;
            case 'B': fieldWriteB(o, f.id, f.field.getByte(o)); break;
            case 'S': fieldWriteS(o, f.id, f.field.getShort(o)); break;
            case 'I': fieldWriteI(o, f.id, f.field.getInt(o)); break;
            case 'J': fieldWriteJ(o, f.id, f.field.getLong(o)); break;
            case 'F': fieldWriteF(o, f.id, f.field.getFloat(o)); break;
            case 'D': fieldWriteD(o, f.id, f.field.getDouble(o)); break;
            default: fieldWriteA(o, f.id, f.field.get(o)); break;
        }
    }

    /**
     * After {@code field.set*(o, ...)} (see JdkHooks.fieldWrites): that one field of the
     * program's classes, as it is now (of {@code o}, or static: the call initialised its class,
     * so reading it runs none of the program's code).
     */
    public void fieldSet(Object field, Object o) {
        java.lang.reflect.Field f = (java.lang.reflect.Field) field;
        boolean isStatic = java.lang.reflect.Modifier.isStatic(f.getModifiers());
        Reflected.Field r = isStatic || o != null ? Reflected.of(f) : null;
        reclaim();
        if (r == null) {
            return;
        }
        try {
            if (isStatic) {
                switch (r.kind) {
                    case 'Z': staticWriteZ(r.id, r.field.getBoolean(null) ? 1 : 0); break;
                    case 'C': staticWriteC(r.id, r.field.getChar(null)); break;
                    case 'B': staticWriteB(r.id, r.field.getByte(null)); break;
                    case 'S': staticWriteS(r.id, r.field.getShort(null)); break;
                    case 'I': staticWriteI(r.id, r.field.getInt(null)); break;
                    case 'J': staticWriteJ(r.id, r.field.getLong(null)); break;
                    case 'F': staticWriteF(r.id, r.field.getFloat(null)); break;
                    case 'D': staticWriteD(r.id, r.field.getDouble(null)); break;
                    default: staticWriteA(r.id, r.field.get(null)); break;
                }
            } else {
                fieldWrite(o, r);
            }
        } catch (IllegalAccessException | IllegalArgumentException e) {
            // Reflected.of opened it; an object of another class made the call throw.
        }
    }

    /**
     * An uninstrumented JDK method (System.arraycopy, Arrays.sort, fill, setAll, ...) may have
     * written elements [from, to) of an array: ARRAY_WRITE for each of them, inside its EXT_CALL.
     */
    public void arrayRange(Object array, int from, int to) {
        reclaim();
        if (array == null) {
            return;
        }
        int n = java.lang.reflect.Array.getLength(array);
        from = Math.max(0, from);
        to = Math.min(n, to);
        // One loop per element type, each element an ARRAY_WRITE encoded inline.
        if (array instanceof int[]) {
            int[] a = (int[]) array;
            for (int i = from; i < to; i++) {
                arrayWrite(a, i);
                valI(a[i]);
            }
        } else if (array instanceof byte[]) {
            byte[] a = (byte[]) array;
            for (int i = from; i < to; i++) {
                arrayWrite(a, i);
                valB(a[i]);
            }
        } else if (array instanceof char[]) {
            char[] a = (char[]) array;
            for (int i = from; i < to; i++) {
                arrayWrite(a, i);
                valC(a[i]);
            }
        } else if (array instanceof Object[]) {
            Object[] a = (Object[]) array;
            for (int i = from; i < to; i++) {
                arrayWrite(a, i);
                valA(a[i]);
            }
        } else {
            for (int i = from; i < to; i++) {
                arrayWrite(array, i);
                if (array instanceof long[]) {
                    valJ(((long[]) array)[i]);
                } else if (array instanceof double[]) {
                    valD(((double[]) array)[i]);
                } else if (array instanceof boolean[]) {
                    valZ(((boolean[]) array)[i] ? 1 : 0);
                } else if (array instanceof float[]) {
                    valF(((float[]) array)[i]);
                } else {
                    valS(((short[]) array)[i]);
                }
            }
        }
    }

    /** A constructor's this is initialised: NEW_OBJECT (origin 0) the first time, then THIS. */
    public void thisInit(Object o) {
        if (superCallsTop > 0 && superCalls[superCallsTop - 1] >> 1 == depth) {
            superCallsTop--;
        }
        long id = Ids.OBJECTS.idOf(o);
        boolean created = id < 0;
        if (created) {
            id = -id;
            begin(NEW_OBJECT);
            varint(id);
            varint(Defs.classOf(o.getClass()));
            put(0);
        }
        begin(THIS);
        varint(id);
        // An enum constant's name is set by Enum's constructor, which is not instrumented: it
        // is known once the first constructor of the constant's classes is past super(...).
        if (created && o instanceof Enum) {
            enumName((Enum<?>) o, id);
        }
    }

    /**
     * The name of an enum constant as a text CONTENT of the object (docs/wire-format.md,
     * "Content of JDK objects"), so that its values read and compare as the constant they are
     * rather than as an object without fields. Written between events.
     */
    private void enumName(Enum<?> e, long id) {
        String name = e.name();
        if (name != null) {
            name(name, id);
        }
    }

    /**
     * What a reflective object stands for, as the program can observe it in any run (its
     * {@code equals}): a class by its type name ({@code pkg.Outer$Inner}, {@code int[]}), a
     * field by its class and name ({@code pkg.C.f}), a method or constructor by its class, name
     * and parameter types ({@code pkg.C.m(int,java.lang.String)}, {@code pkg.C.<init>()});
     * null for any other object. Its identity differs between runs (getDeclaredFields() even
     * returns copies), its name does not.
     */
    private static String reflectiveName(Object o, Class<?> c) {
        if (c == Class.class) {
            return ((Class<?>) o).getTypeName();
        }
        if (c == java.lang.reflect.Field.class) {
            java.lang.reflect.Field f = (java.lang.reflect.Field) o;
            return f.getDeclaringClass().getTypeName() + "." + f.getName();
        }
        if (c == java.lang.reflect.Method.class) {
            java.lang.reflect.Method m = (java.lang.reflect.Method) o;
            return executableName(m.getDeclaringClass(), m.getName(), m.getParameterTypes());
        }
        if (c == java.lang.reflect.Constructor.class) {
            java.lang.reflect.Constructor<?> k = (java.lang.reflect.Constructor<?>) o;
            return executableName(k.getDeclaringClass(), "<init>", k.getParameterTypes());
        }
        return null;
    }

    private static String executableName(Class<?> owner, String name, Class<?>[] params) {
        StringBuilder b = new StringBuilder(owner.getTypeName()).append('.').append(name).append('(');
        for (int i = 0; i < params.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(params[i].getTypeName());
        }
        return b.append(')').toString();
    }

    /**
     * A text CONTENT naming an object that stands for a name: an enum constant or a
     * reflective object ({@link #reflectiveName}).
     */
    private void name(String name, long id) {
        long text = Strings.fresh();
        writeString(text, name);
        beginAt(CONTENT, tick());
        varint(id);
        put(Contents.TEXT);
        varint(1);
        put(TAG_STRING);
        varint(text);
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
        b.reclaim();
        b.abandonedExternals(t);
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

    public static void sThrow(Throwable t, Buf b) {
        b.begin(THROW);
        b.vA(t);
    }

    public static void sCatch(Throwable t, Buf b) {
        b.reclaim();
        b.abandonedExternals(t);
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

    /**
     * An uninstrumented constructor returned the new object: NEW_OBJECT (origin 0), EXT_RETURN.
     * A new string or box is sent as the value it is, so it gets no id (nor a weak map entry).
     */
    public static void sExtNew(Object o, Buf b) {
        b.extReturned();
        long id = isValue(o) ? 0 : Ids.OBJECTS.idOf(o);
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

    /** Whether {@link #valA} sends {@code o} by its text or value rather than by an id. */
    private static boolean isValue(Object o) {
        Class<?> c = o.getClass();
        return c == String.class || isBox(c);
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
