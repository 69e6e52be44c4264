package hindsight.instrument;

import java.util.Collection;

/**
 * An {@code int[]} of boxed ints, without streams or lambdas: the agent makes the JVM spin no
 * classes (each lambda, method reference and stream pipeline spins some the first time, and the
 * JDK's own ASM that spins them then gets compiled, seconds of JIT on a short run).
 */
final class Ints {
    private Ints() {}

    static int[] of(Collection<Integer> values) {
        int[] out = new int[values.size()];
        int i = 0;
        for (int v : values) {
            out[i++] = v;
        }
        return out;
    }
}
