package hindsight.runtime;

/**
 * String ids. A string is a value (docs/wire-format.md): its id stands for its text, so a short
 * string is looked up by its text in a direct-mapped cache that holds no weak reference. An
 * identity map would give each of the millions of strings a program makes a weak reference
 * entry, and the collector's work on those grows with the heap (docs/benchmarks.md). A text
 * that lost its slot gets a new id and is defined again: larger, just as correct. Long strings,
 * few but costly to send again, keep the weak identity map.
 *
 * <p>Slots are read without a lock: a slot's fields are final and a slot is replaced whole, so
 * a reader sees a complete slot or an older one, and at worst defines a text twice.
 */
final class Strings {
    private static final class Slot {
        final String text;
        final long id;

        Slot(String text, long id) {
            this.text = text;
            this.id = id;
        }
    }

    /** Strings up to this many chars are looked up by text. */
    private static final int SHORT = 64;
    private static final Slot[] SLOTS = new Slot[1 << 16];
    /** Ids of long strings; its counter also numbers the short ones. */
    private static final Ids LONG = new Ids(false);

    private Strings() {}

    /** The id of {@code s}: positive when its text has one, negative (minus the new id) when assigned now. */
    static long idOf(String s) {
        long id = known(s);
        return id != 0 ? id : assign(s);
    }

    /** The id of {@code s} when it has one now (its slot, or the long strings' map), else 0. */
    static long known(String s) {
        if (s.length() > SHORT) {
            return LONG.find(s);
        }
        Slot slot = SLOTS[slot(s)];
        return slot != null && (slot.text == s || slot.text.equals(s)) ? slot.id : 0;
    }

    /** Assigns {@code s} an id (it has none): minus the new id, or its id if it got one meanwhile. */
    static long assign(String s) {
        if (s.length() > SHORT) {
            return LONG.idOf(s);
        }
        long id = LONG.fresh();
        SLOTS[slot(s)] = new Slot(s, id);
        return -id;
    }

    private static int slot(String s) {
        int h = s.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS.length - 1);
    }

    /** A new id for a text sent once (a builder's content). */
    static long fresh() {
        return LONG.fresh();
    }
}
