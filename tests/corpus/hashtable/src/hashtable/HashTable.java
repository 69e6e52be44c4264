package hashtable;

import java.util.ArrayList;
import java.util.List;

/** A hash table from String keys to int values with separate chaining and resizing. */
public class HashTable {
    static final class Entry {
        final String key;
        int value;
        Entry next;

        Entry(String key, int value, Entry next) {
            this.key = key;
            this.value = value;
            this.next = next;
        }
    }

    static final double MAX_LOAD = 0.75;

    private Entry[] buckets;
    private int size;
    private int resizes;

    public HashTable(int capacity) {
        buckets = new Entry[capacity];
    }

    /** Polynomial string hash, computed by hand so that the layout is the same on every JVM. */
    static int hash(String key) {
        int h = 0;
        for (int i = 0; i < key.length(); i++) {
            h = 31 * h + key.charAt(i);
        }
        return h;
    }

    static int indexFor(String key, int capacity) {
        return (hash(key) & 0x7fffffff) % capacity;
    }

    private Entry findEntry(String key) {
        Entry e = buckets[indexFor(key, buckets.length)];
        while (e != null && !e.key.equals(key)) {
            e = e.next;
        }
        return e;
    }

    public void put(String key, int value) {
        Entry e = findEntry(key);
        if (e != null) {
            e.value = value;
            return;
        }
        if (size + 1 > MAX_LOAD * buckets.length) {
            resize(buckets.length * 2);
        }
        int i = indexFor(key, buckets.length);
        buckets[i] = new Entry(key, value, buckets[i]);
        size++;
    }

    public int get(String key, int fallback) {
        Entry e = findEntry(key);
        return e == null ? fallback : e.value;
    }

    public void increment(String key) {
        put(key, get(key, 0) + 1);
    }

    public boolean remove(String key) {
        int i = indexFor(key, buckets.length);
        Entry prev = null;
        for (Entry e = buckets[i]; e != null; e = e.next) {
            if (e.key.equals(key)) {
                if (prev == null) {
                    buckets[i] = e.next;
                } else {
                    prev.next = e.next;
                }
                size--;
                return true;
            }
            prev = e;
        }
        return false;
    }

    private void resize(int capacity) {
        Entry[] old = buckets;
        buckets = new Entry[capacity];
        resizes++;
        for (Entry head : old) {
            for (Entry e = head; e != null; e = e.next) {
                int i = indexFor(e.key, capacity);
                buckets[i] = new Entry(e.key, e.value, buckets[i]);
            }
        }
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return buckets.length;
    }

    public int resizes() {
        return resizes;
    }

    /** Length of the longest chain. */
    public int longestChain() {
        int longest = 0;
        for (Entry head : buckets) {
            int length = 0;
            for (Entry e = head; e != null; e = e.next) {
                length++;
            }
            longest = Math.max(longest, length);
        }
        return longest;
    }

    /** The keys whose value is at least min, sorted. */
    public List<String> keysAtLeast(int min) {
        List<String> out = new ArrayList<>();
        for (Entry head : buckets) {
            for (Entry e = head; e != null; e = e.next) {
                if (e.value >= min) {
                    out.add(e.key + "=" + e.value);
                }
            }
        }
        out.sort(null);
        return out;
    }
}
