package hindsight.runtime;

/**
 * An object that keeps its own id. The instrumenter makes every class it instruments as it
 * first loads (not an interface, record or annotation, and not a {@code Serializable} class
 * whose default {@code serialVersionUID} would change) implement this with synthetic members:
 * a {@code private transient long hindsight$id}, a {@code private transient volatile Object
 * hindsight$self} and the two methods below. Such objects get their ids without the weak
 * identity map ({@link Ids}): no lookup by identity hash and no weak reference for the collector
 * to process.
 *
 * <p>The self reference makes a copy made by {@code Object.clone()} (which copies every field)
 * count as an object without an id: its {@code hindsight$self} is the original. The setter
 * writes the id first and the volatile self last, so a reader that sees itself as the owner also
 * sees the id written with it.
 */
public interface Identified {
    /** The object's id, or 0 when it has none (never assigned, or a clone of an object that had one). */
    long hindsight$id();

    /** Sets the id (only {@link Ids}, under its lock). */
    void hindsight$id(long id);
}
