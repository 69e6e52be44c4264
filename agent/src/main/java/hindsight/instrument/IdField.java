package hindsight.instrument;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Gives a class its objects' ids in fields of their own (hindsight.runtime.Identified), as
 * JaCoCo adds synthetic members: {@code private transient synthetic long hindsight$id}, {@code
 * private transient synthetic volatile Object hindsight$self} and the interface's two synthetic
 * methods. Only at first load (fields cannot be added on redefinition), and only where nothing
 * the program can observe through the language changes beyond reflection: not interfaces,
 * annotations or records, and not a {@code Serializable} class without an explicit {@code
 * serialVersionUID}, whose default one covers its interfaces and non-private methods (an
 * enum's is always 0, so enums are fine). Each class declares its own private field and
 * overrides the methods: a subclass is instrumented before its superclass is loaded, and a
 * subclass left out inherits the superclass's.
 */
final class IdField implements Opcodes {
    static final String INTERFACE = "hindsight/runtime/Identified";
    static final String ID = "hindsight$id";
    static final String SELF = "hindsight$self";

    private IdField() {}

    /** Adds the members to {@code cn} when it can have them; returns whether it did. */
    static boolean add(ClassNode cn, ClassLoader loader) {
        if (!applies(cn, loader)) {
            return false;
        }
        cn.interfaces.add(INTERFACE);
        int fieldAccess = ACC_PRIVATE | ACC_TRANSIENT | ACC_SYNTHETIC;
        cn.fields.add(new FieldNode(fieldAccess, ID, "J", null, null));
        cn.fields.add(new FieldNode(fieldAccess | ACC_VOLATILE, SELF, "Ljava/lang/Object;", null, null));
        cn.methods.add(getter(cn.name));
        cn.methods.add(setter(cn.name));
        return true;
    }

    private static boolean applies(ClassNode cn, ClassLoader loader) {
        if ((cn.access & (ACC_INTERFACE | ACC_ANNOTATION | ACC_MODULE | ACC_RECORD)) != 0
                || "java/lang/Record".equals(cn.superName) || cn.interfaces.contains(INTERFACE)) {
            return false;
        }
        for (FieldNode f : cn.fields) {
            if (f.name.equals(ID) || f.name.equals(SELF)) {
                return false;
            }
        }
        for (MethodNode m : cn.methods) {
            if (m.name.equals(ID)) {
                return false;
            }
        }
        if ((cn.access & ACC_ENUM) != 0 || hasSerialVersionUid(cn)) {
            return true;
        }
        return !maybeSerializable(cn, loader);
    }

    /** A {@code static final long serialVersionUID}, the only kind serialization takes. */
    private static boolean hasSerialVersionUid(ClassNode cn) {
        for (FieldNode f : cn.fields) {
            if (f.name.equals("serialVersionUID") && f.desc.equals("J")
                    && (f.access & (ACC_STATIC | ACC_FINAL)) == (ACC_STATIC | ACC_FINAL)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the class or a supertype is {@code java.io.Serializable}, read from class files
     * (JDK ones included); a supertype whose class file cannot be found counts as serializable.
     */
    private static boolean maybeSerializable(ClassNode cn, ClassLoader loader) {
        // Filled by hand: ArrayDeque(Collection) spins a lambda class, which would renumber the
        // program's own lambda classes.
        ArrayDeque<String> todo = new ArrayDeque<>();
        for (String itf : cn.interfaces) {
            todo.add(itf);
        }
        if (cn.superName != null) {
            todo.add(cn.superName);
        }
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String c = todo.poll();
            if (c.equals("java/io/Serializable")) {
                return true;
            }
            if (c.equals("java/lang/Object") || !seen.add(c)) {
                continue;
            }
            Boolean jdk = jdkSerializable(c);
            if (jdk != null) {
                if (jdk) {
                    return true;
                }
                continue;
            }
            Hierarchy.Info i = Hierarchy.info(loader, c);
            if (i == null) {
                return true;
            }
            if (i.superName != null) {
                todo.add(i.superName);
            }
            for (String itf : i.interfaces) {
                todo.add(itf);
            }
        }
        return false;
    }

    /**
     * Whether a {@code java.*} class of the bootstrap loader is serializable, or null when it is
     * not one: already loaded in most cases, and cheaper than reading its class file from the
     * runtime image. Not initialised, and never an application class.
     */
    private static Boolean jdkSerializable(String name) {
        if (!name.startsWith("java/")) {
            return null;
        }
        try {
            return java.io.Serializable.class.isAssignableFrom(Class.forName(name.replace('/', '.'), false, null));
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** {@code long hindsight$id() { return hindsight$self == this ? hindsight$id : 0; }} */
    private static MethodNode getter(String owner) {
        MethodNode m = new MethodNode(ACC_PUBLIC | ACC_SYNTHETIC, ID, "()J", null, null);
        LabelNode other = new LabelNode(new Label());
        InsnList c = m.instructions;
        c.add(new VarInsnNode(ALOAD, 0));
        c.add(new FieldInsnNode(GETFIELD, owner, SELF, "Ljava/lang/Object;"));
        c.add(new VarInsnNode(ALOAD, 0));
        c.add(new JumpInsnNode(IF_ACMPNE, other));
        c.add(new VarInsnNode(ALOAD, 0));
        c.add(new FieldInsnNode(GETFIELD, owner, ID, "J"));
        c.add(new InsnNode(LRETURN));
        c.add(other);
        c.add(new FrameNode(F_NEW, 1, new Object[] {owner}, 0, new Object[0]));
        c.add(new InsnNode(LCONST_0));
        c.add(new InsnNode(LRETURN));
        m.maxStack = 2;
        m.maxLocals = 1;
        return m;
    }

    /** {@code void hindsight$id(long id) { hindsight$id = id; hindsight$self = this; }} */
    private static MethodNode setter(String owner) {
        MethodNode m = new MethodNode(ACC_PUBLIC | ACC_SYNTHETIC, ID, "(J)V", null, null);
        InsnList c = m.instructions;
        c.add(new VarInsnNode(ALOAD, 0));
        c.add(new VarInsnNode(LLOAD, 1));
        c.add(new FieldInsnNode(PUTFIELD, owner, ID, "J"));
        c.add(new VarInsnNode(ALOAD, 0));
        c.add(new VarInsnNode(ALOAD, 0));
        c.add(new FieldInsnNode(PUTFIELD, owner, SELF, "Ljava/lang/Object;"));
        c.add(new InsnNode(RETURN));
        m.maxStack = 3;
        m.maxLocals = 3;
        return m;
    }
}
