package hindsight.instrument;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassWriter;

/**
 * A ClassWriter whose common-superclass computation never loads a class: it reads class files
 * through the defining loader's resources (loading classes inside a transformer breaks programs).
 * Unknown classes count as java/lang/Object, which is always a sound choice for the verifier's
 * merge of two reference types that are only used as objects afterwards.
 */
final class FrameClassWriter extends ClassWriter {
    private final ClassLoader loader;

    FrameClassWriter(ClassLoader loader) {
        super(COMPUTE_FRAMES);
        this.loader = loader;
    }

    @Override
    protected String getCommonSuperClass(String a, String b) {
        if (a.equals(b)) {
            return a;
        }
        if (isInterface(a) || isInterface(b)) {
            return "java/lang/Object";
        }
        List<String> ancestorsOfA = ancestors(a);
        for (String c = b; c != null; c = superOf(c)) {
            if (ancestorsOfA.contains(c)) {
                return c;
            }
        }
        return "java/lang/Object";
    }

    private boolean isInterface(String c) {
        Hierarchy.Info i = Hierarchy.info(loader, c);
        return i != null && i.isInterface;
    }

    private List<String> ancestors(String c) {
        List<String> r = new ArrayList<>();
        for (String x = c; x != null; x = superOf(x)) {
            r.add(x);
        }
        return r;
    }

    private String superOf(String c) {
        if (c.equals("java/lang/Object")) {
            return null;
        }
        Hierarchy.Info i = Hierarchy.info(loader, c);
        return i == null || i.superName == null ? "java/lang/Object" : i.superName;
    }
}
