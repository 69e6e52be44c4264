package hindsight.instrument;

import java.util.IdentityHashMap;
import java.util.Map;
import org.objectweb.asm.tree.AbstractInsnNode;

/**
 * Positions in a method's original code: real instructions are numbered 0, 1, ... and a label,
 * line or frame node takes the number of the next real instruction. Block starts, the ranges of
 * the LocalVariableTable and the wire format's {@code start} all count this way.
 */
final class Ordinals {
    private final Map<AbstractInsnNode, Integer> ordinal = new IdentityHashMap<>();
    /** The number of real instructions. */
    final int count;

    Ordinals(AbstractInsnNode[] orig) {
        int n = 0;
        int pending = 0;
        for (int i = 0; i < orig.length; i++) {
            if (orig[i].getOpcode() < 0) {
                pending++;
                continue;
            }
            for (int p = i - pending; p < i; p++) {
                ordinal.put(orig[p], n);
            }
            pending = 0;
            ordinal.put(orig[i], n++);
        }
        for (int p = orig.length - pending; p < orig.length; p++) {
            ordinal.put(orig[p], n);
        }
        count = n;
    }

    /** The ordinal of a node of the original code. */
    int of(AbstractInsnNode x) {
        return ordinal.get(x);
    }
}
