package hindsight.instrument;

import hindsight.runtime.Agent;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.MethodTooLargeException;

/**
 * Decides which classes to instrument and never lets a failure reach the program: a class that
 * cannot be instrumented is loaded unchanged, with a warning.
 */
public final class Transformer implements ClassFileTransformer {
    private static final int MAX_ATTEMPTS = 8;

    private final Instrumentation inst;
    private final Module runtimeModule = Agent.class.getModule();
    private final ClassLoader platform = ClassLoader.getPlatformClassLoader();

    public Transformer(Instrumentation inst) {
        this.inst = inst;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
            ProtectionDomain pd, byte[] bytes) {
        if (loader == null || loader == platform || name == null || redefined != null
                || name.contains("$$Lambda") || name.contains("/0x") || !Agent.instrumentable(name)) {
            return null;
        }
        try {
            if (module != null && module.isNamed() && !module.canRead(runtimeModule)) {
                inst.redefineModule(module, Set.of(runtimeModule), Map.of(), Map.of(), Set.of(), Map.of());
            }
            Set<String> skip = new HashSet<>();
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                try {
                    byte[] out = new ClassInstrumenter(bytes, loader, skip).instrument();
                    for (String m : skip) {
                        Agent.warn("left method " + name.replace('/', '.') + "." + m
                                + " uninstrumented: its code is too large after instrumentation");
                    }
                    return out;
                } catch (MethodTooLargeException e) {
                    skip.add(e.getMethodName() + e.getDescriptor());
                }
            }
            throw new IllegalStateException("too many methods too large after instrumentation");
        } catch (Throwable e) {
            Agent.warn("left " + name.replace('/', '.') + " uninstrumented: " + e);
            return null;
        }
    }
}
