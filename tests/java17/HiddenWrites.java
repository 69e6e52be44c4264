import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * Fields and elements written by JDK code on the program's behalf, with no putfield or xastore
 * in the program: a VarHandle, an atomic field updater, Unsafe and reflection (a static field
 * too). The agent records the object's fields (the element, the static field) after each such
 * call (agent/tests/java17.rs).
 */
public class HiddenWrites {
    static class Counter {
        volatile long base;
        volatile int hits;
        String label = "none";
        static int created;
        int[] slots = new int[4];

        static final VarHandle BASE;
        static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(int[].class);
        static final AtomicIntegerFieldUpdater<Counter> HITS =
                AtomicIntegerFieldUpdater.newUpdater(Counter.class, "hits");

        static {
            try {
                BASE = MethodHandles.lookup().findVarHandle(Counter.class, "base", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        void add(long x) {
            long b;
            do {
                b = base;
            } while (!BASE.compareAndSet(this, b, b + x));
            HITS.incrementAndGet(this);
            SLOTS.setVolatile(slots, (int) x % 4, (int) x * 7);
        }
    }

    public static void main(String[] args) throws Exception {
        Counter c = new Counter();
        for (int i = 1; i <= 3; i++) {
            c.add(i);
        }
        Field label = Counter.class.getDeclaredField("label");
        label.set(c, "set by reflection");
        Counter.class.getDeclaredField("created").setInt(null, 12);
        Field unsafeField = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        unsafeField.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) unsafeField.get(null);
        long offset = unsafe.objectFieldOffset(Counter.class.getDeclaredField("hits"));
        unsafe.putInt(c, offset, 40);
        System.out.println(c.base + " " + c.hits + " " + c.label + " " + c.slots[3] + " "
                + Counter.created);
    }
}
