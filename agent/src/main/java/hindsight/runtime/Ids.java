package hindsight.runtime;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/**
 * Object ids: dense, from 1, never reused. An object of an instrumented class keeps its id in a
 * field of its own ({@link Identified}, for {@link #OBJECTS}); any other object goes into a weak
 * identity map. Both draw from one counter under this object's lock.
 *
 * <p>The weak identity map never calls application code: it hashes with {@link
 * System#identityHashCode} and compares with {@code ==}. Dead entries are
 * expunged through a reference queue; an id is never reused because ids come from a counter.
 *
 * <p>Lookups of objects that have an id take no lock (most lookups: every value of an event
 * goes through here). That is safe because a chain is only ever changed in ways a reader cannot
 * be misled by: an entry's hash and id are final, a new entry goes in front of a chain, an
 * expunged one is unlinked (so a {@code next} a reader sees always leads further down the
 * chain it was in, and a chain ends), and a resize builds a new table of new entries instead
 * of relinking the old ones. A reader that sees a stale chain misses the entry at worst, and
 * then looks again under the lock.
 */
final class Ids {
    private static final class Entry extends WeakReference<Object> {
        final int hash;
        final long id;
        volatile Entry next;
        /** A number kept with the object ({@link #mark}, under the lock); -1 until set. */
        int mark = -1;

        Entry(Object o, int hash, long id, ReferenceQueue<Object> q, Entry next) {
            super(o, q);
            this.hash = hash;
            this.id = id;
            this.next = next;
        }
    }

    static final Ids OBJECTS = new Ids(true);
    /** Objects whose CONTENT was sent once (the id is unused; only "new" matters). */
    static final Ids CONTENTS = new Ids(false);

    /** Whether an {@link Identified} object keeps its id in its own field (not in the map). */
    private final boolean fields;

    private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    private volatile Entry[] table = new Entry[1 << 12];
    private int size;
    private long next = 1;

    Ids(boolean fields) {
        this.fields = fields;
    }

    /** The id of {@code o}: positive when it had one, negative (minus the new id) when assigned now. */
    long idOf(Object o) {
        if (fields && o instanceof Identified) {
            Identified i = (Identified) o;
            long id = i.hindsight$id();
            return id != 0 ? id : assign(i);
        }
        int h = System.identityHashCode(o);
        long id = find(table, o, h);
        return id != 0 ? id : idOfLocked(o, h);
    }

    /** The id of {@code o}, or 0 when it has none (no lock, no assignment). */
    long find(Object o) {
        if (fields && o instanceof Identified) {
            return ((Identified) o).hindsight$id();
        }
        return find(table, o, System.identityHashCode(o));
    }

    /** A new id that no object will have (a string sent once, never looked up again). */
    synchronized long fresh() {
        return next++;
    }

    /**
     * The number kept with {@code o}: -1 when it has no id or none was set. {@link #CONTENTS}
     * keeps a sequence's length after its last CONTENT. Under the lock, like {@link #setMark},
     * so that a resize cannot lose a mark or show an old one.
     */
    synchronized int mark(Object o) {
        Entry e = entry(table, o, System.identityHashCode(o));
        return e == null ? -1 : e.mark;
    }

    /** Keeps {@code m} with {@code o}, which has an id. */
    synchronized void setMark(Object o, int m) {
        Entry e = entry(table, o, System.identityHashCode(o));
        if (e != null) {
            e.mark = m;
        }
    }

    private static long find(Entry[] t, Object o, int h) {
        Entry e = entry(t, o, h);
        return e == null ? 0 : e.id;
    }

    private static Entry entry(Entry[] t, Object o, int h) {
        for (Entry e = t[h & (t.length - 1)]; e != null; e = e.next) {
            if (e.hash == h && e.get() == o) {
                return e;
            }
        }
        return null;
    }

    /** Assigns the next id to an object that keeps its own (under the lock, like the map). */
    private synchronized long assign(Identified o) {
        long known = o.hindsight$id();
        if (known != 0) {
            return known;
        }
        long id = next++;
        o.hindsight$id(id);
        return -id;
    }

    private synchronized long idOfLocked(Object o, int h) {
        long known = find(table, o, h);
        if (known != 0) {
            return known;
        }
        expunge();
        Entry[] t = table;
        if (size >= t.length - (t.length >> 2)) {
            t = resized(t);
            table = t;
        }
        int i = h & (t.length - 1);
        long id = next++;
        t[i] = new Entry(o, h, id, queue, t[i]);
        size++;
        return -id;
    }

    private void expunge() {
        Entry[] t = table;
        Object r;
        while ((r = queue.poll()) != null) {
            Entry dead = (Entry) r;
            int i = dead.hash & (t.length - 1);
            Entry prev = null;
            for (Entry e = t[i]; e != null; prev = e, e = e.next) {
                if (e == dead) {
                    if (prev == null) {
                        t[i] = e.next;
                    } else {
                        prev.next = e.next;
                    }
                    size--;
                    break;
                }
            }
        }
    }

    /** A table twice as large holding new entries for the live ones (the old ones stay intact). */
    private Entry[] resized(Entry[] old) {
        Entry[] t = new Entry[old.length * 2];
        int live = 0;
        for (Entry head : old) {
            for (Entry e = head; e != null; e = e.next) {
                Object o = e.get();
                if (o != null) {
                    int i = e.hash & (t.length - 1);
                    t[i] = new Entry(o, e.hash, e.id, queue, t[i]);
                    t[i].mark = e.mark;
                    live++;
                }
            }
        }
        size = live;
        return t;
    }
}
