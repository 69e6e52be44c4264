import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Bytecode javac never writes but the JVM runs (a bytecode mutant, another compiler): 2 stored
 * into a boolean field, static field and array element, and returned from a boolean method.
 * The JVM keeps the low bit (JVMS putfield, putstatic, bastore, ireturn): all four are false.
 */
public class NarrowedBooleans {
    public static void main(String[] args) throws Exception {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "Narrow", null, "java/lang/Object", null);
        cw.visitSource("Narrow.java", null);
        cw.visitField(Opcodes.ACC_PUBLIC, "f", "Z", null, null).visitEnd();
        cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "s", "Z", null, null).visitEnd();
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "store",
                "(LNarrow;[Z)Z", null, null);
        m.visitCode();
        m.visitVarInsn(Opcodes.ALOAD, 0);
        m.visitInsn(Opcodes.ICONST_2);
        m.visitFieldInsn(Opcodes.PUTFIELD, "Narrow", "f", "Z");
        m.visitInsn(Opcodes.ICONST_2);
        m.visitFieldInsn(Opcodes.PUTSTATIC, "Narrow", "s", "Z");
        m.visitVarInsn(Opcodes.ALOAD, 1);
        m.visitInsn(Opcodes.ICONST_0);
        m.visitInsn(Opcodes.ICONST_2);
        m.visitInsn(Opcodes.BASTORE);
        m.visitInsn(Opcodes.ICONST_2);
        m.visitInsn(Opcodes.IRETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        cw.visitEnd();
        byte[] bytes = cw.toByteArray();
        Class<?> c = new ClassLoader(NarrowedBooleans.class.getClassLoader()) {
            Class<?> define() {
                return defineClass("Narrow", bytes, 0, bytes.length);
            }
        }.define();
        Object n = c.getConstructor().newInstance();
        boolean[] a = new boolean[1];
        Object r = c.getMethod("store", c, boolean[].class).invoke(null, n, a);
        System.out.println(c.getField("f").get(n) + " " + c.getField("s").get(null) + " " + a[0]
                + " " + r);
    }
}
