package hindsight.instrument;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

/**
 * A ClassWriter whose common-superclass computation never loads a class: it reads class files
 * through the defining loader's resources (loading classes inside a transformer breaks programs).
 * Unknown classes count as java/lang/Object, which is always a sound choice for the verifier's
 * merge of two reference types that are only used as objects afterwards.
 */
final class FrameClassWriter extends ClassWriter {
    /** internal name -> {super name or null, "i" if interface}; shared by all transforms. */
    private static final ConcurrentHashMap<String, String[]> INFO = new ConcurrentHashMap<>();
    private static final String[] UNKNOWN = {null, ""};

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
        for (String c = b; c != null; c = info(c)[0]) {
            if (ancestorsOfA.contains(c)) {
                return c;
            }
        }
        return "java/lang/Object";
    }

    private boolean isInterface(String c) {
        return "i".equals(info(c)[1]);
    }

    private List<String> ancestors(String c) {
        List<String> r = new ArrayList<>();
        for (String x = c; x != null; x = info(x)[0]) {
            r.add(x);
        }
        return r;
    }

    private String[] info(String c) {
        if (c.equals("java/lang/Object")) {
            return new String[] {null, ""};
        }
        String[] known = INFO.get(c);
        if (known != null) {
            return known;
        }
        String[] r = UNKNOWN;
        ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
        try (InputStream in = l.getResourceAsStream(c + ".class")) {
            if (in != null) {
                ClassReader cr = new ClassReader(in);
                String sup = cr.getSuperName();
                r = new String[] {sup == null ? "java/lang/Object" : sup,
                    (cr.getAccess() & ACC_INTERFACE_FLAG) != 0 ? "i" : ""};
            } else {
                r = new String[] {"java/lang/Object", ""};
            }
        } catch (Exception e) {
            r = new String[] {"java/lang/Object", ""};
        }
        INFO.putIfAbsent(c, r);
        return r;
    }

    private static final int ACC_INTERFACE_FLAG = 0x0200;
}
