package hindsight.instrument;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LabelNode;

/**
 * The stack map frames of an instrumented method, kept from its class file instead of computed
 * again (ASM's COMPUTE_FRAMES analysed every method and read the class files of the types it
 * merged: most of the time spent instrumenting a class, and seconds of JIT compilation of ASM on
 * a short run). The instrumentation adds no branch target but its catch-all handlers, and no
 * local that is live across a branch but the thread's buffer, so the original frames stay right
 * once they declare the buffer and sit at their labels again:
 *
 * <ul>
 * <li>each original frame gets the buffer's local ({@code bufSlot}, after every original local;
 *     the slots between are TOP);
 * <li>code inserted at a label (a BLOCK, LINE or CATCH event) goes before the label's frame, so
 *     the frame moves back to right after its label;
 * <li>an uninitialised type names the NEW instruction by a label in front of it; code inserted
 *     there would move it, so frames name a fresh label right before the NEW instead;
 * <li>a catch-all handler gets a frame that declares only the buffer (its code needs nothing
 *     else), and {@code this} uninitialised before a constructor's super(...) call.
 * </ul>
 */
final class Frames implements Opcodes {
    private final InsnList in;
    private final int bufSlot;
    /** The original frames and the label each belongs to (the first of its position). */
    private final Map<FrameNode, LabelNode> frames = new IdentityHashMap<>();
    /** The NEW instruction after each label an uninitialised type names. */
    private final Map<LabelNode, AbstractInsnNode> news = new IdentityHashMap<>();

    Frames(InsnList in, AbstractInsnNode[] orig, int bufSlot) {
        this.in = in;
        this.bufSlot = bufSlot;
        LabelNode first = null;
        for (AbstractInsnNode x : orig) {
            if (x instanceof LabelNode) {
                if (first == null) {
                    first = (LabelNode) x;
                }
                continue;
            }
            if (x instanceof FrameNode) {
                if (first == null) {
                    // A frame with no label at its position (ASM makes none for a frame no jump
                    // targets, such as one after dead code): one to come back to.
                    first = new LabelNode();
                    in.insertBefore(x, first);
                }
                frames.put((FrameNode) x, first);
            }
            if (x.getOpcode() >= 0) {
                first = null;
            }
        }
        for (FrameNode f : frames.keySet()) {
            noteNews(f.local);
            noteNews(f.stack);
        }
    }

    private void noteNews(List<Object> types) {
        if (types == null) {
            return;
        }
        for (Object t : types) {
            if (t instanceof LabelNode && !news.containsKey(t)) {
                AbstractInsnNode x = ((LabelNode) t).getNext();
                while (x != null && x.getOpcode() < 0) {
                    x = x.getNext();
                }
                if (x == null || x.getOpcode() != NEW) {
                    throw new IllegalStateException("an uninitialised type names no NEW instruction");
                }
                news.put((LabelNode) t, x);
            }
        }
    }

    /** After the instrumentation: the original frames declare the buffer and sit at their labels. */
    void restore() {
        Map<LabelNode, LabelNode> atNew = new IdentityHashMap<>();
        for (Map.Entry<LabelNode, AbstractInsnNode> e : news.entrySet()) {
            LabelNode l = new LabelNode();
            in.insertBefore(e.getValue(), l);
            atNew.put(e.getKey(), l);
        }
        for (Map.Entry<FrameNode, LabelNode> e : frames.entrySet()) {
            FrameNode f = e.getKey();
            if (f.type != F_NEW) {
                throw new IllegalStateException("stack map frames not expanded");
            }
            f.local = withBuffer(renamed(f.local, atNew));
            f.stack = renamed(f.stack, atNew);
            in.remove(f);
            in.insert(e.getValue(), f);
        }
    }

    private static List<Object> renamed(List<Object> types, Map<LabelNode, LabelNode> atNew) {
        List<Object> out = new ArrayList<>(types == null ? 0 : types.size() + 1);
        if (types != null) {
            for (Object t : types) {
                out.add(t instanceof LabelNode ? atNew.get(t) : t);
            }
        }
        return out;
    }

    private List<Object> withBuffer(List<Object> locals) {
        int slots = 0;
        for (Object t : locals) {
            slots += t == LONG || t == DOUBLE ? 2 : 1;
        }
        while (slots++ < bufSlot) {
            locals.add(TOP);
        }
        locals.add(EntryPoint.BUF);
        return locals;
    }

    /** The frame of a catch-all handler: the buffer, and {@code this} if it is uninitialised. */
    FrameNode handler(boolean thisUninitialised) {
        Object[] locals = new Object[bufSlot + 1];
        java.util.Arrays.fill(locals, TOP);
        if (thisUninitialised) {
            locals[0] = UNINITIALIZED_THIS;
        }
        locals[bufSlot] = EntryPoint.BUF;
        return new FrameNode(F_NEW, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
    }
}
