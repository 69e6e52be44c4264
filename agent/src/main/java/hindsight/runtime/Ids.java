package hindsight.runtime;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/**
 * A weak identity map from objects to dense ids (from 1). It never calls application code: it
 * hashes with {@link System#identityHashCode} and compares with {@code ==}. Dead entries are
 * expunged through a reference queue; an id is never reused because ids come from a counter.
 */
final class Ids {
    private static final class Entry extends WeakReference<Object> {
        final int hash;
        final long id;
        Entry next;

        Entry(Object o, int hash, long id, ReferenceQueue<Object> q, Entry next) {
            super(o, q);
            this.hash = hash;
            this.id = id;
            this.next = next;
        }
    }

    static final Ids OBJECTS = new Ids();
    static final Ids STRINGS = new Ids();
    /** Objects whose CONTENT was sent once (the id is unused; only "new" matters). */
    static final Ids CONTENTS = new Ids();

    private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    private Entry[] table = new Entry[1 << 12];
    private int size;
    private long next = 1;

    /** The id of {@code o}: positive when it had one, negative (minus the new id) when assigned now. */
    synchronized long idOf(Object o) {
        int h = System.identityHashCode(o);
        Entry[] t = table;
        int i = h & (t.length - 1);
        for (Entry e = t[i]; e != null; e = e.next) {
            if (e.hash == h && e.get() == o) {
                return e.id;
            }
        }
        expunge();
        if (size >= t.length - (t.length >> 2)) {
            resize();
            t = table;
            i = h & (t.length - 1);
        }
        long id = next++;
        t[i] = new Entry(o, h, id, queue, t[i]);
        size++;
        return -id;
    }

    private void expunge() {
        Object r;
        while ((r = queue.poll()) != null) {
            Entry dead = (Entry) r;
            int i = dead.hash & (table.length - 1);
            Entry prev = null;
            for (Entry e = table[i]; e != null; prev = e, e = e.next) {
                if (e == dead) {
                    if (prev == null) {
                        table[i] = e.next;
                    } else {
                        prev.next = e.next;
                    }
                    size--;
                    break;
                }
            }
        }
    }

    private void resize() {
        Entry[] old = table;
        Entry[] t = new Entry[old.length * 2];
        for (Entry head : old) {
            for (Entry e = head; e != null; ) {
                Entry n = e.next;
                int i = e.hash & (t.length - 1);
                e.next = t[i];
                t[i] = e;
                e = n;
            }
        }
        table = t;
    }
}
