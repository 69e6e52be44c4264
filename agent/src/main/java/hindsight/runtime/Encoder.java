package hindsight.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The state and encoding of one thread's event buffer: the bytes, the clock, the ids and the
 * definitions inserted in front of an event. {@link Buf} adds the entry points that instrumented
 * code calls.
 *
 * <p>The split is for the JIT: the recorder launches the JVM with every method declared in
 * {@code Buf} kept out of line (agent/README.md, "JIT options"), so that an instrumented method
 * compiles to calls rather than to a copy of the encoder at each of its events, while the
 * encoder's own methods, declared here, are still inlined into each entry point.
 *
 * <p>What is rare and large (flushing, first-seen objects and new strings, content snapshots) is
 * declared in {@link Buf} as well, so that it stays out of line too: the JIT compiles it once
 * rather than into every entry point, which kept the compiler busy for seconds.
 *
 * <p>Only the owning thread writes a buffer. A value may need a definition first (a string's
 * text, a first-seen object or array); such definitions are inserted in front of the event being
 * written, which then takes a fresh timestamp, so timestamps stay increasing within a frame.
 */
abstract class Encoder {
    /**
     * The clock, one tick per event. While a single thread writes events it ticks a plain
     * counter (an atomic increment would be a tenth of the cost of an event); once a second
     * thread has a buffer, every thread ticks {@link #CLOCK}, which starts {@link #GAP} past the
     * plain counter. The first thread reads the volatile {@link #shared} at each tick, so it
     * takes at most the tick it is taking on the plain counter after the switch: far below the
     * gap, and concurrent with the second thread's first events anyway.
     */
    private static long soloClock = 1;
    private static volatile boolean shared;
    private static final AtomicLong CLOCK = new AtomicLong();
    private static final long GAP = 1L << 32;
    /** Incremented by the flusher thread; an owner that sees a new value flushes. */
    static volatile int flushEpoch;

    static final int LIMIT = 1 << 16;
    static final int MAX_STRING_BYTES = 1 << 20;

    /** Event ops (docs/wire-format.md, "Events"). */
    static final int CALL = 1, RETURN = 2, UNWIND = 3, EXT_CALL = 4, EXT_RETURN = 5,
            EXT_UNWIND = 6, LINE = 7, LOCAL = 8, FIELD_WRITE = 9, STATIC_WRITE = 10,
            ARRAY_WRITE = 11, NEW_OBJECT = 12, NEW_ARRAY = 13, THIS = 14, THROW = 15, CATCH = 16,
            STRING = 17, FIELD_WRITE_UNINIT = 18, CONTENT = 19, BLOCK = 20,
            FIELD_READ = 21, ARRAY_READ = 22, STATIC_READ = 23;
    /** Value tags (docs/wire-format.md, "Values"). */
    static final int TAG_VOID = 0x00, TAG_NULL = 0x01, TAG_FALSE = 0x02, TAG_TRUE = 0x03,
            TAG_INT = 0x04, TAG_CHAR = 0x05, TAG_BYTE = 0x06, TAG_SHORT = 0x07, TAG_LONG = 0x08,
            TAG_FLOAT = 0x09, TAG_DOUBLE = 0x0A, TAG_OBJECT = 0x0B, TAG_STRING = 0x0C,
            TAG_BOXED = 0x0D;

    /** {@link #state}: the owner writes; the owner is in uninstrumented code; the flusher sends. */
    private static final int ACTIVE = 0, FLUSHING = 2;
    static final int PARKED = 1;
    static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Encoder.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread thread;
    final int tid;
    int depth;
    /**
     * While the owner runs uninstrumented code (an EXT_CALL), the buffer is PARKED and the
     * flusher thread may send it, so that a thread blocked in the JDK (sleep, I/O, a lock) does
     * not hold back its completed calls.
     */
    private volatile int state;
    /** Depths at which a callback ended a parked period: its exit parks again. */
    private int[] reparkAt = new int[8];
    private int reparkTop;

    byte[] b = new byte[LIMIT + 1024];
    int pos;
    int count;
    long baseTs = -1;
    long lastTs;

    /** The event being written: its start, the timestamp before it and its own. */
    int evStart;
    long evPrevTs;
    long evTs;
    private int inserting;
    private int epoch = flushEpoch;
    /**
     * A small per-thread cache of object ids in front of the identity map (arrays written in a
     * loop hit it). It keeps at most CACHE objects of this thread reachable.
     */
    private static final int CACHE = 16;
    private final Object[] cachedObjects = new Object[CACHE];
    private final long[] cachedIds = new long[CACHE];
    /**
     * Constructors of this thread inside their super(...)/this(...) call, as depth * 2 + 1 when
     * the callee is instrumented, depth * 2 when not.
     */
    int[] superCalls = new int[8];
    int superCallsTop;

    /**
     * Calls into uninstrumented code that have not returned: the depth of their caller, and
     * where their kept objects ({@link Buf#vAk}) start in {@link #kept}.
     */
    private int[] extDepths = new int[8];
    private int[] extKept = new int[8];
    private int extTop;
    Object[] kept = new Object[8];
    boolean[] keptChanged = new boolean[8];
    int keptTop;

    /** Set while this thread takes a snapshot of JDK content: nested snapshots are skipped. */
    boolean snapshotting;

    Encoder(Thread t) {
        thread = t;
        tid = Defs.thread(t);
    }

    // ---- encoding ----

    final void ensure(int n) {
        if (pos + n > b.length) {
            b = java.util.Arrays.copyOf(b, Math.max(b.length * 2, pos + n));
        }
    }

    final void put(int v) {
        if (pos + 1 > b.length) {
            ensure(1);
        }
        b[pos++] = (byte) v;
    }

    final void varint(long v) {
        if (pos + 10 > b.length) {
            ensure(10);
        }
        byte[] a = b;
        int p = pos;
        while ((v & ~0x7FL) != 0) {
            a[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        a[p++] = (byte) v;
        pos = p;
    }

    final void svarint(long v) {
        varint((v << 1) ^ (v >> 63));
    }

    private static int varintLen(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    final void raw(byte[] src, int off, int n) {
        ensure(n);
        System.arraycopy(src, off, b, pos, n);
        pos += n;
    }

    static byte[] utf8(String s) {
        byte[] u = s.getBytes(StandardCharsets.UTF_8);
        if (u.length <= MAX_STRING_BYTES) {
            return u;
        }
        int keep = MAX_STRING_BYTES / 3;
        if (Character.isHighSurrogate(s.charAt(keep - 1))) {
            keep--;
        }
        return (s.substring(0, keep) + "…[truncated " + (s.length() - keep) + " chars]")
                .getBytes(StandardCharsets.UTF_8);
    }

    // ---- values (inlined into the entry points) ----

    final void valZ(int v) {
        put(v != 0 ? TAG_TRUE : TAG_FALSE);
    }

    final void valC(int v) {
        put(TAG_CHAR);
        varint(v & 0xFFFF);
    }

    final void valB(int v) {
        put(TAG_BYTE);
        svarint((byte) v);
    }

    final void valS(int v) {
        put(TAG_SHORT);
        svarint((short) v);
    }

    final void valI(int v) {
        put(TAG_INT);
        svarint(v);
    }

    final void valJ(long v) {
        put(TAG_LONG);
        svarint(v);
    }

    final void valF(float v) {
        put(TAG_FLOAT);
        int bits = Float.floatToRawIntBits(v);
        ensure(4);
        b[pos++] = (byte) bits;
        b[pos++] = (byte) (bits >>> 8);
        b[pos++] = (byte) (bits >>> 16);
        b[pos++] = (byte) (bits >>> 24);
    }

    final void valD(double v) {
        put(TAG_DOUBLE);
        long bits = Double.doubleToRawLongBits(v);
        ensure(8);
        for (int i = 0; i < 8; i++) {
            b[pos++] = (byte) (bits >>> (8 * i));
        }
    }

    /** A reference: null, a string (by text), a box (by value) or an object or array (by id). */
    final void valA(Object o) {
        if (o == null) {
            put(TAG_NULL);
        } else if (o.getClass() == String.class) {
            long id = stringId((String) o);
            put(TAG_STRING);
            varint(id);
        } else if (o instanceof Number || o instanceof Boolean || o instanceof Character
                || o == Contents.VOID) {
            boxed(o);
        } else {
            long id = objectId(o);
            put(TAG_OBJECT);
            varint(id);
        }
    }

    /** A box by its value, or any other Number, Boolean or Character object (out of line). */
    abstract void boxed(Object o);

    /** Whether {@code c} is one of the eight box classes, which {@link #boxed} sends by value. */
    static boolean isBox(Class<?> c) {
        return c == Integer.class || c == Long.class || c == Boolean.class || c == Character.class
                || c == Double.class || c == Float.class || c == Byte.class || c == Short.class;
    }

    // ---- event headers (inlined; the value follows) ----

    final void local(int var) {
        begin(LOCAL);
        varint(var);
    }

    final void fieldWrite(Object o, int field) {
        begin(FIELD_WRITE);
        long id = objectId(o);
        varint(id);
        varint(field);
    }

    final void staticWrite(int field) {
        begin(STATIC_WRITE);
        varint(field);
    }

    final void arrayWrite(Object array, int index) {
        begin(ARRAY_WRITE);
        long id = objectId(array);
        varint(id);
        varint(index);
    }

    /** Starts an event at a boundary between events: may flush first. */
    final void begin(int op) {
        if (pos > LIMIT || epoch != flushEpoch) {
            if (inserting == 0) {
                flush();
            }
        }
        beginAt(op, tick());
    }

    final void beginAt(int op, long t) {
        if (baseTs < 0) {
            baseTs = t;
            lastTs = t;
        }
        evStart = pos;
        evPrevTs = lastTs;
        evTs = t;
        put(op);
        varint(t - lastTs);
        lastTs = t;
        count++;
    }

    static long tick() {
        return shared ? CLOCK.getAndIncrement() : soloClock++;
    }

    /** A second thread gets a buffer: from now on every thread ticks the atomic clock. */
    static void share() {
        if (!shared) {
            CLOCK.set(soloClock + GAP);
            shared = true;
        }
    }

    /** Writes the EVENTS frame and empties the buffer (owner thread, between events). */
    abstract void flush();

    final void emptied() {
        pos = 0;
        count = 0;
        baseTs = -1;
        epoch = flushEpoch;
    }

    // ---- definitions inserted before the current event ----

    /**
     * The id of an object or array. A per-thread cache hit is the only inline path; the identity
     * map and a first-seen definition are out of line ({@link Buf#objectIdMiss}).
     */
    final long objectId(Object o) {
        int slot = System.identityHashCode(o) & (CACHE - 1);
        if (cachedObjects[slot] == o) {
            return cachedIds[slot];
        }
        return objectIdMiss(o, slot);
    }

    /** The id of an object missing from the per-thread cache (which then holds it). */
    abstract long objectIdMiss(Object o, int slot);

    final void cache(Object o, int slot, long id) {
        cachedObjects[slot] = o;
        cachedIds[slot] = id;
    }

    /** A STRING event defining {@code id} as the text of {@code s} (between events). */
    final void writeString(long id, String s) {
        put(STRING);
        varint(id);
        byte[] u = utf8(s);
        varint(u.length);
        raw(u, 0, u.length);
        count++;
    }

    /** The id of a string (out of line: a lookup by text, maybe a STRING inserted). */
    abstract long stringId(String s);

    /** Inserts a STRING event in front of the current event. */
    final void insertString(long id, String s) {
        int start = evStart;
        byte[] saved = java.util.Arrays.copyOfRange(b, start, pos);
        pos = start;
        writeString(id, s);
        evStart = pos;
        raw(saved, 0, saved.length);
    }

    /** Moves the current event aside, writes NEW_OBJECT/NEW_ARRAY (origin 1) with its timestamp, then re-emits it. */
    final void insertFirstSeen(Object o, long id) {
        int start = evStart;
        long prev = evPrevTs;
        long t = evTs;
        int op = b[start];
        int header = 1 + varintLen(t - prev);
        byte[] fields = java.util.Arrays.copyOfRange(b, start + header, pos);
        pos = start;
        lastTs = prev;
        count--;
        inserting++;
        try {
            writeNew(o, id, t, 1);
        } finally {
            inserting--;
        }
        beginAt(op, tick());
        raw(fields, 0, fields.length);
    }


    // ---- calls into uninstrumented code that have not returned ----

    final void openExternal() {
        if (extTop == extDepths.length) {
            extDepths = java.util.Arrays.copyOf(extDepths, extTop * 2);
            extKept = java.util.Arrays.copyOf(extKept, extTop * 2);
        }
        extDepths[extTop] = depth;
        extKept[extTop++] = keptTop;
    }

    final void keep(Object o, boolean changed) {
        if (keptTop == kept.length) {
            kept = java.util.Arrays.copyOf(kept, keptTop * 2);
            keptChanged = java.util.Arrays.copyOf(keptChanged, keptTop * 2);
        }
        kept[keptTop] = o;
        keptChanged[keptTop++] = changed;
    }

    /** The innermost open call into uninstrumented code returned (or threw): the owner is back. */
    final void extReturned() {
        reclaim();
        if (extTop > 0) {
            int from = extKept[--extTop];
            while (keptTop > from) {
                kept[--keptTop] = null;
            }
        }
    }

    final boolean externalOpenAt(int d) {
        return extTop > 0 && extDepths[extTop - 1] == d;
    }

    final int keptFrom() {
        return extKept[extTop - 1];
    }

    /** A callback from parked uninstrumented code enters an instrumented method. */
    final void enterFromParked() {
        reclaim();
        if (reparkTop == reparkAt.length) {
            reparkAt = java.util.Arrays.copyOf(reparkAt, reparkTop * 2);
        }
        reparkAt[reparkTop++] = depth;
    }

    boolean isParked() {
        return state != ACTIVE;
    }

    /** Flusher thread: sends the buffer if its owner is parked. */
    void flushIfParked() {
        if (count > 0 && STATE.compareAndSet(this, PARKED, FLUSHING)) {
            try {
                flush();
            } finally {
                STATE.setRelease(this, PARKED);
            }
        }
    }

    /** The owner is back from uninstrumented code: waits while the flusher sends the buffer. */
    final void reclaim() {
        if (state != ACTIVE) {
            while (!STATE.compareAndSet(this, PARKED, ACTIVE)) {
                Thread.onSpinWait();
            }
        }
    }

    /** Writes NEW_OBJECT or NEW_ARRAY (with the array's elements when origin is 1) at time t. */
    abstract void writeNew(Object o, long id, long t, int origin);

    /** The end of an instrumented call: the outermost one of a thread flushes. */
    final void endCall() {
        if (--depth <= 0) {
            depth = 0;
            flush();
        }
        if (reparkTop > 0 && reparkAt[reparkTop - 1] == depth) {
            reparkTop--;
            STATE.setRelease(this, PARKED);
        }
    }
}
