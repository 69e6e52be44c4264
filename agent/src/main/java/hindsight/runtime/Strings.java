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
    private static final Ids LONG = new Ids();

    private Strings() {}

    /** The id of {@code s}: positive when its text has one, negative (minus the new id) when assigned now. */
    static long idOf(String s) {
        if (s.length() > SHORT) {
            return LONG.idOf(s);
        }
        int h = s.hashCode();
        int i = (h ^ (h >>> 16)) & (SLOTS.length - 1);
        Slot slot = SLOTS[i];
        if (slot != null && (slot.text == s || slot.text.equals(s))) {
            return slot.id;
        }
        long id = LONG.fresh();
        SLOTS[i] = new Slot(s, id);
        return -id;
    }

    /** A new id for a text sent once (a builder's content). */
    static long fresh() {
        return LONG.fresh();
    }
}
