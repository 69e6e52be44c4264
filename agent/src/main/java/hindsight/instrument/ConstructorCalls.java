package hindsight.instrument;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * The {@code invokespecial <init>} calls of a method, each paired with its NEW (javac nests
 * them) to know whether the new object is still on the stack after the call (NEW followed by
 * DUP). In a constructor, the {@code <init>} call with no NEW of its own is the
 * {@code super(...)}/{@code this(...)} call that initialises {@code this}: the instrumentation
 * splits the constructor there (no handler may cover that call).
 */
final class ConstructorCalls implements Opcodes {
    private final Map<MethodInsnNode, Boolean> resultOnStack = new IdentityHashMap<>();
    /** The super(...)/this(...) call of a constructor; null in other methods. */
    final MethodInsnNode thisInit;

    ConstructorCalls(AbstractInsnNode[] orig, boolean isCtor) {
        MethodInsnNode init = null;
        ArrayDeque<Boolean> news = new ArrayDeque<>();
        for (AbstractInsnNode x : orig) {
            if (x.getOpcode() == NEW) {
                AbstractInsnNode next = x.getNext();
                while (next != null && next.getOpcode() < 0) {
                    next = next.getNext();
                }
                news.push(next != null && next.getOpcode() == DUP);
            } else if (x.getOpcode() == INVOKESPECIAL && ((MethodInsnNode) x).name.equals("<init>")) {
                MethodInsnNode call = (MethodInsnNode) x;
                if (news.isEmpty()) {
                    if (isCtor && init == null) {
                        init = call;
                    }
                    resultOnStack.put(call, false);
                } else {
                    resultOnStack.put(call, news.pop());
                }
            }
        }
        thisInit = init;
    }

    /** Whether the object a constructor call initialises is on the stack after it. */
    boolean resultOnStack(MethodInsnNode call) {
        return Boolean.TRUE.equals(resultOnStack.get(call));
    }
}
