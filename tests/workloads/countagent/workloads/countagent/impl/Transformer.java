package workloads.countagent.impl;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Adds the counting code of {@link Counting} to every method of every class not of the JDK. */
public final class Transformer implements ClassFileTransformer {
    private static final String[] SKIPPED = {
        "java/", "javax/", "jdk/", "sun/", "com/sun/", "workloads/countagent/"
    };

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
            byte[] bytes) {
        if (loader == null || loader == ClassLoader.getPlatformClassLoader()
                || loader == Transformer.class.getClassLoader() || name == null || skipped(name)) {
            return null;
        }
        try {
            ClassReader reader = new ClassReader(bytes);
            ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
                @Override
                public MethodVisitor visitMethod(int access, String method, String descriptor,
                        String signature, String[] exceptions) {
                    MethodVisitor next =
                            super.visitMethod(access, method, descriptor, signature, exceptions);
                    boolean hasCode = (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0;
                    return next != null && hasCode ? new Counting(next) : next;
                }
            }, 0);
            return writer.toByteArray();
        } catch (RuntimeException e) {
            System.err.println("countagent: left " + name + " uncounted: " + e);
            return null;
        }
    }

    private static boolean skipped(String name) {
        for (String prefix : SKIPPED) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
