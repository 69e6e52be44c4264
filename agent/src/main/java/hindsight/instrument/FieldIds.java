package hindsight.instrument;

import hindsight.runtime.Defs;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;

/**
 * The field ids of one class's field instructions. An instruction names a field through the
 * type it was accessed by ({@code sub.row} compiles to {@code getfield Sub.row} when {@code
 * row} is declared in {@code Base}), so the field is resolved as the JVM does (JVMS 5.4.3.2:
 * the class itself, then its superinterfaces, then its superclass) to the class that declares
 * it: one variable has one id, whichever type code reaches it by. The classes are read through
 * {@link Hierarchy}, never loaded; where a class file cannot be read (a class generated at run
 * time other than the one being instrumented), the field keeps the type the instruction names.
 */
final class FieldIds {
    /** The declaring class by "owner.name:desc", for every loader (as {@link Hierarchy}). */
    private static final ConcurrentHashMap<String, String> DECLARING = new ConcurrentHashMap<>();

    private final ClassNode cn;
    private final ClassLoader loader;

    FieldIds(ClassNode cn, ClassLoader loader) {
        this.cn = cn;
        this.loader = loader;
    }

    /** The id of the field {@code f} reads or writes. */
    int of(FieldInsnNode f, boolean isStatic) {
        String key = f.owner + '.' + f.name + ':' + f.desc;
        String owner = DECLARING.get(key);
        if (owner == null) {
            owner = declaring(f.owner, f.name + f.desc);
            DECLARING.putIfAbsent(key, owner);
        }
        return Defs.field(owner, f.name, f.desc, isStatic);
    }

    /** The class that declares {@code field} (name + descriptor) as seen from {@code owner}. */
    private String declaring(String owner, String field) {
        ArrayDeque<String> supers = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        String c = owner;
        // Depth first along the superclass chain, each class's superinterfaces before its
        // superclass: JVMS 5.4.3.2's order.
        while (c != null) {
            if (seen.add(c)) {
                if (c.equals(cn.name)) {
                    for (FieldNode fn : cn.fields) {
                        if (field.equals(fn.name + fn.desc)) {
                            return c;
                        }
                    }
                    pushSupers(supers, cn.superName, cn.interfaces.toArray(new String[0]));
                } else {
                    Hierarchy.Info i = Hierarchy.info(loader, c);
                    if (i == null) {
                        return owner;
                    }
                    if (i.fields.contains(field)) {
                        return c;
                    }
                    pushSupers(supers, i.superName, i.interfaces);
                }
            }
            c = supers.pollFirst();
        }
        return owner;
    }

    /** Queues a class's superinterfaces, to be searched first, then its superclass. */
    private static void pushSupers(ArrayDeque<String> supers, String superName,
            String[] interfaces) {
        if (superName != null) {
            supers.addFirst(superName);
        }
        for (int k = interfaces.length - 1; k >= 0; k--) {
            supers.addFirst(interfaces[k]);
        }
    }
}
