package hindsight.instrument;

import java.util.Map;
import java.util.TreeSet;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * The basic blocks of a method's original bytecode (docs/wire-format.md, "Blocks and effects"):
 * the ordinals of their first instructions. A block starts at the first instruction, at every
 * jump or switch target, after every jump, switch, return and athrow, and at every exception
 * handler.
 */
final class Leaders implements Opcodes {
    private Leaders() {}

    /** Leader ordinals in order; {@code ordinal} numbers the real instructions (labels: the next). */
    static int[] of(MethodNode m, AbstractInsnNode[] orig, Map<AbstractInsnNode, Integer> ordinal,
            int instructions) {
        TreeSet<Integer> leaders = new TreeSet<>();
        if (instructions > 0) {
            leaders.add(0);
        }
        for (AbstractInsnNode x : orig) {
            int op = x.getOpcode();
            if (x instanceof JumpInsnNode) {
                leaders.add(ordinal.get(((JumpInsnNode) x).label));
                leaders.add(ordinal.get(x) + 1);
            } else if (x instanceof TableSwitchInsnNode) {
                TableSwitchInsnNode s = (TableSwitchInsnNode) x;
                leaders.add(ordinal.get(s.dflt));
                for (LabelNode l : s.labels) {
                    leaders.add(ordinal.get(l));
                }
                leaders.add(ordinal.get(x) + 1);
            } else if (x instanceof LookupSwitchInsnNode) {
                LookupSwitchInsnNode s = (LookupSwitchInsnNode) x;
                leaders.add(ordinal.get(s.dflt));
                for (LabelNode l : s.labels) {
                    leaders.add(ordinal.get(l));
                }
                leaders.add(ordinal.get(x) + 1);
            } else if ((op >= IRETURN && op <= RETURN) || op == ATHROW || op == RET) {
                leaders.add(ordinal.get(x) + 1);
            }
        }
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            leaders.add(ordinal.get(t.handler));
        }
        // A leader past the last instruction starts nothing.
        return leaders.stream().filter(i -> i < instructions).mapToInt(Integer::intValue).toArray();
    }
}
