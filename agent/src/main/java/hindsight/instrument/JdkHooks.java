package hindsight.instrument;

import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * What the agent sends after a call into the JDK about objects the JDK may have changed
 * (docs/wire-format.md, "Content of JDK objects"): array elements written by
 * {@code System.arraycopy}, {@code Arrays}, readers' {@code read} and {@code getChars}, and the content of collections, maps and string
 * builders. Decided from the call site's names and types; the runtime checks the objects.
 */
final class JdkHooks implements Opcodes {
    private JdkHooks() {}

    /** A call into uninstrumented code: its receiver and arguments saved in locals. */
    static final class Site {
        final MethodInsnNode call;
        final Type[] args;
        /** The locals holding the receiver (index 0, when it has one) and the arguments (1...). */
        final int[] slots;

        Site(MethodInsnNode call, Type[] args, int[] slots) {
            this.call = call;
            this.args = args;
            this.slots = slots;
        }
    }

    /**
     * JDK methods that write array elements without application code seeing it: record the
     * range they may have written (all of it, changed or not) before their EXT_RETURN.
     */
    static void arrayWrites(Site s, Code c) {
        MethodInsnNode x = s.call;
        Type[] args = s.args;
        boolean arraycopy = x.owner.equals("java/lang/System") && x.name.equals("arraycopy");
        boolean arrays = x.owner.equals("java/util/Arrays") && args.length > 0
                && args[0].getSort() == Type.ARRAY && ARRAY_WRITERS.contains(x.name);
        // A Reader or InputStream reading into the caller's buffer, String.getChars copying into
        // one: without these the trace would keep the buffer's old content.
        boolean reads = x.owner.startsWith("java/") && READERS.contains(x.name) && args.length > 0
                && args[0].getSort() == Type.ARRAY;
        boolean getChars = x.owner.startsWith("java/lang/") && x.name.equals("getChars")
                && args.length == 4 && args[2].getSort() == Type.ARRAY;
        if (!arraycopy && !arrays && !reads && !getChars) {
            return;
        }
        c.buf();
        if (getChars) {
            c.load(OBJECT, s.slots[3]).push(0).push(Integer.MAX_VALUE);
        } else if (reads) {
            c.load(OBJECT, s.slots[1]);
            if (args.length >= 3 && args[1].getSort() == Type.INT && args[2].getSort() == Type.INT) {
                c.load(Type.INT_TYPE, s.slots[2]).load(Type.INT_TYPE, s.slots[2])
                        .load(Type.INT_TYPE, s.slots[3]).op(IADD);
            } else {
                c.push(0).push(Integer.MAX_VALUE);
            }
        } else if (arraycopy) {
            c.load(OBJECT, s.slots[3]).load(Type.INT_TYPE, s.slots[4])
                    .load(Type.INT_TYPE, s.slots[4]).load(Type.INT_TYPE, s.slots[5]).op(IADD);
        } else {
            c.load(OBJECT, s.slots[1]);
            boolean range = args.length >= 3 && args[1].getSort() == Type.INT
                    && args[2].getSort() == Type.INT;
            if (range) {
                c.load(Type.INT_TYPE, s.slots[2]).load(Type.INT_TYPE, s.slots[3]);
            } else {
                c.push(0).push(Integer.MAX_VALUE);
            }
        }
        c.call(EntryPoint.ARRAY_RANGE);
    }

    /**
     * JDK methods that write the fields (or elements) of the object they are given first without
     * a putfield in application code: a VarHandle, an atomic field updater, Unsafe, reflection.
     * The runtime then records the object's fields (or the element, or the array) as they are
     * before the EXT_RETURN, as {@link #arrayWrites} does for arrays.
     */
    static void fieldWrites(Site s, Code c) {
        MethodInsnNode x = s.call;
        Type[] args = s.args;
        if (!FIELD_WRITERS.contains(x.owner) || args.length == 0
                || (args[0].getSort() != Type.OBJECT && args[0].getSort() != Type.ARRAY)) {
            return;
        }
        String n = x.name;
        boolean writes = n.startsWith("set") || n.startsWith("put") || n.equals("lazySet")
                || n.startsWith("compareAnd") || n.startsWith("weakCompareAnd")
                || n.startsWith("getAnd") || n.endsWith("AndGet");
        boolean reflection = x.owner.equals("java/lang/reflect/Field");
        if (!writes || (reflection && !n.startsWith("set"))) {
            return;
        }
        if (reflection) {
            // The Field says which field, static ones included (their object is null).
            c.buf().load(OBJECT, s.slots[0]).load(OBJECT, s.slots[1]).call(EntryPoint.FIELD_SET);
            return;
        }
        c.buf().load(OBJECT, s.slots[1]);
        // An array element VarHandle's coordinates are the array and an int index.
        if (x.owner.equals("java/lang/invoke/VarHandle") && args.length > 1
                && args[1].getSort() == Type.INT) {
            c.load(Type.INT_TYPE, s.slots[2]);
        } else {
            c.push(-1);
        }
        c.call(EntryPoint.FIELDS_WRITTEN);
    }

    private static final Set<String> FIELD_WRITERS = Set.of("java/lang/invoke/VarHandle",
            "java/util/concurrent/atomic/AtomicIntegerFieldUpdater",
            "java/util/concurrent/atomic/AtomicLongFieldUpdater",
            "java/util/concurrent/atomic/AtomicReferenceFieldUpdater", "sun/misc/Unsafe",
            "jdk/internal/misc/Unsafe", "java/lang/reflect/Field");

    private static final Type OBJECT = Type.getObjectType("java/lang/Object");

    private static final Set<String> ARRAY_WRITERS = Set.of("sort", "parallelSort", "fill",
            "setAll", "parallelSetAll", "parallelPrefix");

    /** JDK methods that read into the array they are given first. */
    private static final Set<String> READERS = Set.of("read", "readFully", "readNBytes");

    /** Whether a call is System.exit, Runtime.exit or Runtime.halt (the exit status to note). */
    static boolean isExit(MethodInsnNode x) {
        return x.desc.equals("(I)V")
                && ((x.owner.equals("java/lang/System") && x.name.equals("exit"))
                    || (x.owner.equals("java/lang/Runtime") && (x.name.equals("exit") || x.name.equals("halt"))));
    }

    /**
     * CONTENT of the receiver and the arguments of an external call that may be JDK collections,
     * maps or string builders: sent when the call may have changed them, else only the first
     * time the runtime sees them.
     */
    static void contents(Site s, boolean withReceiver, Code c) {
        MethodInsnNode x = s.call;
        if (withReceiver && mayHoldContent(Type.getObjectType(x.owner))) {
            c.buf().load(OBJECT, s.slots[0]);
            int at = addsAt(x);
            if (at == NOT_ADDING) {
                c.push(READ_ONLY.contains(x.name) ? 0 : 1).call(EntryPoint.CONTENT);
            } else {
                if (at == AT_END) {
                    c.push(-1);
                } else {
                    c.load(Type.INT_TYPE, s.slots[at + 1]);
                }
                c.call(EntryPoint.ADDED);
            }
        }
        boolean argsChanged = argsChanged(x);
        for (int i = 0; i < s.args.length; i++) {
            if (mayHoldContent(s.args[i])) {
                c.buf().load(OBJECT, s.slots[i + 1]).push(argsChanged ? 1 : 0)
                        .call(EntryPoint.CONTENT);
            }
        }
    }

    /**
     * Whether the receiver (index 0, of a call that has one) or an argument (index i + 1) gets
     * a CONTENT after the call (see {@link #contents}): -1 if not, else 1 when the call may
     * have changed it, 0 when it is sent only if never sent before.
     */
    static int contentAfter(Site s, int index) {
        MethodInsnNode x = s.call;
        if (index == 0) {
            if (!mayHoldContent(Type.getObjectType(x.owner))) {
                return -1;
            }
            return addsAt(x) != NOT_ADDING || !READ_ONLY.contains(x.name) ? 1 : 0;
        }
        if (!mayHoldContent(s.args[index - 1])) {
            return -1;
        }
        return argsChanged(x) ? 1 : 0;
    }

    private static boolean argsChanged(MethodInsnNode x) {
        return x.name.equals("drainTo")
                || x.owner.equals("java/util/Collections") && ARG_WRITERS.contains(x.name);
    }

    /** CONTENT of an object the runtime meets for the first time (a call's result). */
    static void firstContent(Code c, int slot) {
        c.buf().load(OBJECT, slot).push(0).call(EntryPoint.CONTENT);
    }

    private static final int NOT_ADDING = -2, AT_END = -1;

    /**
     * For a call that adds one element to a list: {@link #AT_END}, or the index of the argument
     * that gives the element's position; {@link #NOT_ADDING} for any other call. The runtime
     * checks the receiver's class ({@code Buf.added}).
     */
    private static int addsAt(MethodInsnNode x) {
        switch (x.name + x.desc) {
            case "add(Ljava/lang/Object;)Z":
            case "addElement(Ljava/lang/Object;)V":
            case "addLast(Ljava/lang/Object;)V":
                return AT_END;
            case "add(ILjava/lang/Object;)V":
                return 0;
            case "insertElementAt(Ljava/lang/Object;I)V":
                return 1;
            default:
                return NOT_ADDING;
        }
    }

    /** Whether a value of static type t can be a collection, a map or a string builder. */
    static boolean mayHoldContent(Type t) {
        if (t.getSort() != Type.OBJECT) {
            return false;
        }
        String n = t.getInternalName();
        if (!n.startsWith("java/lang/")) {
            return true;
        }
        return n.equals("java/lang/Object") || n.equals("java/lang/StringBuilder")
                || n.equals("java/lang/StringBuffer") || n.equals("java/lang/AbstractStringBuilder")
                || n.equals("java/lang/CharSequence") || n.equals("java/lang/Iterable")
                || n.equals("java/lang/Appendable") || n.equals("java/lang/Cloneable");
    }

    /** Methods of collections, maps and string builders that do not change their receiver. */
    private static final Set<String> READ_ONLY = Set.of("get", "size", "isEmpty", "contains",
            "containsKey", "containsValue", "containsAll", "indexOf", "lastIndexOf", "iterator",
            "listIterator", "spliterator", "descendingIterator", "stream", "parallelStream",
            "toString", "hashCode", "equals", "keySet", "values", "entrySet", "navigableKeySet",
            "descendingKeySet", "descendingMap", "descendingSet", "length", "charAt",
            "codePointAt", "substring", "subSequence", "chars", "compareTo", "capacity", "peek",
            "peekFirst", "peekLast", "element", "getFirst", "getLast", "first", "last",
            "firstKey", "lastKey", "firstEntry", "lastEntry", "floor", "ceiling", "higher",
            "lower", "floorKey", "ceilingKey", "higherKey", "lowerKey", "floorEntry",
            "ceilingEntry", "higherEntry", "lowerEntry", "headMap", "tailMap", "subMap",
            "headSet", "tailSet", "subSet", "subList", "toArray", "getOrDefault", "forEach",
            "comparator", "getClass", "elementAt", "firstElement", "lastElement", "elements",
            "keys", "search", "clone", "getChars", "codePointBefore", "codePointCount",
            "codePoints", "ensureCapacity", "trimToSize", "getProperty", "propertyNames",
            "stringPropertyNames");

    /** Static methods of java.util.Collections that change a collection argument. */
    private static final Set<String> ARG_WRITERS = Set.of("sort", "reverse", "shuffle", "swap",
            "fill", "copy", "rotate", "replaceAll", "addAll");
}
