package hindsight.instrument;

import hindsight.runtime.Agent;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Class headers read from class files through a loader's resources, never by loading a class.
 * Used for the verifier's common superclass, to find out whether a call whose owner is an
 * application class reaches application code or a method it inherits from the JDK, and to find
 * the class that declares a field an instruction names through a subclass ({@link FieldIds}).
 */
final class Hierarchy {
    static final class Info {
        final String superName;
        final String[] interfaces;
        final boolean isInterface;
        final Set<String> methods;
        /** The fields it declares, as name + descriptor. */
        final Set<String> fields;

        Info(String superName, String[] interfaces, boolean isInterface, Set<String> methods,
                Set<String> fields) {
            this.superName = superName;
            this.interfaces = interfaces;
            this.isInterface = isInterface;
            this.methods = methods;
            this.fields = fields;
        }
    }

    /** Keyed by internal name only: two loaders defining one name are rare enough to ignore. */
    private static final ConcurrentHashMap<String, Info> CACHE = new ConcurrentHashMap<>();
    private static final Info MISSING = new Info(null, new String[0], false, Set.of(), Set.of());

    private Hierarchy() {}

    /** The header of a class, or null when its class file cannot be found. */
    static Info info(ClassLoader loader, String name) {
        Info known = CACHE.get(name);
        if (known != null) {
            return known == MISSING ? null : known;
        }
        Info r = MISSING;
        ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
        try (InputStream in = l.getResourceAsStream(name + ".class")) {
            if (in != null) {
                r = read(new ClassReader(in));
            }
        } catch (Exception e) {
            r = MISSING;
        }
        CACHE.putIfAbsent(name, r);
        return r == MISSING ? null : r;
    }

    private static Info read(ClassReader cr) {
        Set<String> methods = new HashSet<>();
        Set<String> fields = new HashSet<>();
        cr.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                methods.add(name + desc);
                return null;
            }

            @Override
            public FieldVisitor visitField(int access, String name, String desc, String sig, Object value) {
                fields.add(name + desc);
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return new Info(cr.getSuperName(), cr.getInterfaces(),
                (cr.getAccess() & Opcodes.ACC_INTERFACE) != 0, methods, fields);
    }

    /**
     * Whether a call of owner.name desc (owner an application class) reaches a method declared
     * in application code: in owner or in one of its application superclasses or
     * superinterfaces. Unknown class files count as application code.
     */
    static boolean reachesApplication(ClassLoader loader, String owner, String name, String desc) {
        if (name.equals("<init>")) {
            return true;
        }
        ArrayDeque<String> todo = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        todo.add(owner);
        while (!todo.isEmpty()) {
            String c = todo.poll();
            if (c == null || !seen.add(c) || !Agent.instrumentable(c)) {
                continue;
            }
            Info i = info(loader, c);
            if (i == null || i.methods.contains(name + desc)) {
                return true;
            }
            todo.add(i.superName);
            for (String itf : i.interfaces) {
                todo.add(itf);
            }
        }
        return false;
    }
}
