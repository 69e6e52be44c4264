import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Object ids kept in the objects' own fields (agent/README.md, "Object and string ids"): ids keep
 * their meaning across threads and clones, and what the program sees through reflection (its
 * own members) and serialization is the same with the agent as without it.
 *
 * <p>System properties (agent/tests/java17.rs): {@code ids.members} prints which classes got the
 * id members; {@code ids.write=FILE} writes the serialized objects, {@code ids.read=FILE} reads
 * a file written by another run and prints them.
 */
public class ObjectIds {
    /** Gets the id members under the agent. */
    static class Box implements Cloneable {
        final int n;
        int tag;

        Box(int n) {
            this.n = n;
            this.tag = n;
        }

        @Override
        public Box clone() {
            try {
                return (Box) super.clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** Declares its own id field, shadowing Box's. */
    static class SubBox extends Box {
        SubBox(int n) {
            super(n);
        }
    }

    /** Serializable without a serialVersionUID: left without the id members. */
    static class Plain implements Serializable {
        int a = 1;
        String s = "plain";
        transient int t = 7;
        List<Integer> list = new ArrayList<>(List.of(1, 2, 3));

        @Override
        public String toString() {
            return "Plain(" + a + ", " + s + ", " + t + ", " + list + ")";
        }
    }

    /** Serializable with an explicit serialVersionUID: gets the id members. */
    static class WithUid implements Serializable {
        private static final long serialVersionUID = 42L;
        int a = 2;
        Plain inner = new Plain();

        @Override
        public String toString() {
            return "WithUid(" + a + ", " + inner + ")";
        }
    }

    /** Serializable (through WithUid) without its own serialVersionUID: inherits WithUid's members. */
    static class SubWithUid extends WithUid {
        double d = 2.5;

        @Override
        public String toString() {
            return "SubWithUid(" + d + ", " + super.toString() + ")";
        }
    }

    /** Not serializable; its serializable subclass has no serialVersionUID. */
    static class Base {
        int base = 3;
    }

    static class SerialSub extends Base implements Serializable {
        int own = 4;

        @Override
        public String toString() {
            return "SerialSub(" + base + ", " + own + ")";
        }
    }

    static class Ext implements Externalizable {
        int v = 5;

        public Ext() {}

        @Override
        public void writeExternal(ObjectOutput out) throws IOException {
            out.writeInt(v * 10);
        }

        @Override
        public void readExternal(ObjectInput in) throws IOException {
            v = in.readInt();
        }

        @Override
        public String toString() {
            return "Ext(" + v + ")";
        }
    }

    /** A JDK superclass that is serializable. */
    static class ListBox extends ArrayList<Object> {
        int extra = 6;
    }

    enum Color { RED, GREEN { @Override int k() { return 2; } }; int k() { return 1; } }

    record Point(int x, int y) implements Serializable {}

    static final Class<?>[] CLASSES = {Box.class, SubBox.class, Plain.class, WithUid.class,
        SubWithUid.class, Base.class, SerialSub.class, Ext.class, ListBox.class, Color.class,
        Color.GREEN.getClass(), Point.class};

    static int tagOf(Box b) {
        return b.tag;
    }

    /** Makes boxes (every third one cloned and retagged) into {@code out} from {@code from}. */
    static void make(Box[] out, int from, int count) {
        for (int i = 0; i < count; i++) {
            int n = from + i;
            Box b = n % 2 == 0 ? new Box(n) : new SubBox(n);
            if (i % 3 == 2) {
                b = b.clone();
                b.tag = -n - 1;
            }
            out[from + i] = b;
        }
    }

    /** Reads the tag of every other box, as another thread would see it. */
    static long check(Box[] boxes, int start) {
        long sum = 0;
        for (int i = start; i < boxes.length; i += 2) {
            sum += tagOf(boxes[i]);
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        String read = System.getProperty("ids.read");
        if (read != null) {
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(Files.readAllBytes(Path.of(read))))) {
                System.out.println(Arrays.toString((Object[]) in.readObject()));
            }
            return;
        }
        if (System.getProperty("ids.members") != null) {
            for (Class<?> c : CLASSES) {
                boolean own = false;
                for (Field f : c.getDeclaredFields()) {
                    own |= f.isSynthetic() && f.getName().equals("hindsight$id")
                            && Modifier.isTransient(f.getModifiers());
                }
                boolean identified = false;
                for (Class<?> i = c; i != null; i = i.getSuperclass()) {
                    for (Class<?> itf : i.getInterfaces()) {
                        identified |= itf.getName().equals("hindsight.runtime.Identified");
                    }
                }
                System.out.println(c.getName() + " own=" + own + " identified=" + identified);
            }
            return;
        }

        // Ids across threads: two threads make boxes, each then reads the other's.
        Box[] boxes = new Box[600];
        Thread t1 = new Thread(() -> make(boxes, 0, 300), "maker-1");
        Thread t2 = new Thread(() -> make(boxes, 300, 300), "maker-2");
        t1.start();
        t2.start();
        t1.join();
        t2.join();
        long[] sums = new long[2];
        Thread r1 = new Thread(() -> sums[0] = check(boxes, 0), "reader-1");
        Thread r2 = new Thread(() -> sums[1] = check(boxes, 1), "reader-2");
        r1.start();
        r2.start();
        r1.join();
        r2.join();
        System.out.println("tags " + sums[0] + " " + sums[1] + " " + check(boxes, 0));

        // Reflection sees the program's own members (synthetic ones filtered, as such code does).
        for (Class<?> c : CLASSES) {
            List<String> fields = new ArrayList<>();
            for (Field f : c.getDeclaredFields()) {
                if (!f.isSynthetic()) {
                    fields.add(Modifier.toString(f.getModifiers()) + " " + f.getName());
                }
            }
            List<String> methods = new ArrayList<>();
            for (Method m : c.getDeclaredMethods()) {
                if (!m.isSynthetic()) {
                    methods.add(m.getName());
                }
            }
            fields.sort(null);
            methods.sort(null);
            System.out.println(c.getName() + " fields " + fields + " methods " + methods
                    + " record " + c.isRecord());
        }
        System.out.println("reflection " + reflectionToString(new SubBox(1000)) + " "
                + reflectionToString(new SubWithUid()));

        // Serialization: the same serialVersionUIDs and the same bytes, and a round trip.
        for (Class<?> c : CLASSES) {
            ObjectStreamClass d = ObjectStreamClass.lookup(c);
            if (d != null) {
                System.out.println(c.getName() + " serialVersionUID " + d.getSerialVersionUID()
                        + " fields " + Arrays.toString(d.getFields()));
            }
        }
        Object[] objects = {new Plain(), new WithUid(), new SubWithUid(), new SerialSub(), new Ext(),
            listBox(), Color.GREEN, new Point(1, 2)};
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(objects);
        }
        byte[] b = bytes.toByteArray();
        String write = System.getProperty("ids.write");
        if (write != null) {
            Files.write(Path.of(write), b);
        }
        CRC32 crc = new CRC32();
        crc.update(b);
        System.out.println("serialized " + b.length + " bytes crc " + Long.toHexString(crc.getValue()));
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            System.out.println("read back " + Arrays.toString((Object[]) in.readObject()));
        }
    }

    static ListBox listBox() {
        ListBox l = new ListBox();
        l.add("x");
        return l;
    }

    /** What reflection-based toString helpers do: every non-static, non-transient field, superclasses too. */
    static String reflectionToString(Object o) throws IllegalAccessException {
        StringBuilder sb = new StringBuilder(o.getClass().getSimpleName()).append('[');
        for (Class<?> c = o.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
                    f.setAccessible(true);
                    sb.append(f.getName()).append('=').append(f.get(o)).append(',');
                }
            }
        }
        return sb.append(']').toString();
    }
}
