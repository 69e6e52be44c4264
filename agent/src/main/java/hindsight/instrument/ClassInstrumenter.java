package hindsight.instrument;

import hindsight.runtime.Defs;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Instruments every method with code of one class (see {@link MethodInstrumenter}) and gives
 * its objects an id field ({@link IdField}).
 */
final class ClassInstrumenter {
    private final byte[] bytes;
    private final ClassLoader loader;
    private final Set<String> skip;

    ClassInstrumenter(byte[] bytes, ClassLoader loader, Set<String> skip) {
        this.bytes = bytes;
        this.loader = loader;
        this.skip = skip;
    }

    /** The instrumented class file, or null to leave a class (module-info) unchanged. */
    byte[] instrument() {
        ClassNode cn = new ClassNode();
        // The frames are kept (Frames), expanded so that each can be changed on its own.
        new ClassReader(bytes).accept(cn, ClassReader.EXPAND_FRAMES);
        if ((cn.access & Opcodes.ACC_MODULE) != 0) {
            return null;
        }
        if ((cn.version & 0xFFFF) < Opcodes.V1_6) {
            throw new IllegalStateException("class file version " + (cn.version & 0xFFFF)
                    + " is older than Java 6 (subroutines are not supported)");
        }
        int flags = ((cn.access & Opcodes.ACC_INTERFACE) != 0 ? Defs.CLASS_INTERFACE : 0)
                | ((cn.access & Opcodes.ACC_ENUM) != 0 ? Defs.CLASS_ENUM : 0)
                | ((cn.access & Opcodes.ACC_RECORD) != 0 || "java/lang/Record".equals(cn.superName)
                    ? Defs.CLASS_RECORD : 0);
        int classId = Defs.instrumentedClass(cn.name, cn.sourceFile, flags);
        ExternalCalls external = new ExternalCalls(cn, loader);
        FieldIds fields = new FieldIds(cn, loader);
        for (MethodNode m : cn.methods) {
            boolean noCode = (m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0;
            boolean bridge = (m.access & Opcodes.ACC_BRIDGE) != 0;
            if (noCode || bridge || skip.contains(m.name + m.desc)) {
                continue;
            }
            new MethodInstrumenter(cn, m, classId, external, fields).run();
        }
        // After the loop: the id members are not instrumented.
        IdField.add(cn, loader);
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cn.accept(cw);
        return cw.toByteArray();
    }
}
