package hindsight.instrument;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * A fragment of code to insert into an instrumented method, built by chained calls. Calls of the
 * runtime go through {@link #call}; the thread's buffer is the local {@code bufSlot}.
 */
final class Code implements Opcodes {
    private final InsnList list = new InsnList();
    private final int bufSlot;

    Code(int bufSlot) {
        this.bufSlot = bufSlot;
    }

    InsnList list() {
        return list;
    }

    /** Loads the thread's buffer. */
    Code buf() {
        list.add(new VarInsnNode(ALOAD, bufSlot));
        return this;
    }

    /** Calls an entry point of the runtime with what the stack holds. */
    Code call(EntryPoint e) {
        list.add(new MethodInsnNode(e.opcode, e.owner, e.name, e.desc, false));
        return this;
    }

    /** Calls the entry point of a one-value event for a value of type t (the stack holds its arguments). */
    Code call(EntryPoint.Valued e, Type t) {
        list.add(new MethodInsnNode(INVOKEVIRTUAL, EntryPoint.BUF, e.name(t), e.desc(t), false));
        return this;
    }

    /** buf.e(ints...): an event header whose fields are constants. */
    Code event(EntryPoint e, int... ints) {
        buf();
        for (int v : ints) {
            push(v);
        }
        return call(e);
    }

    /** buf.vX(local): a value of type t kept in a local. */
    Code value(Type t, int slot) {
        return buf().load(t, slot).call(EntryPoint.value(t));
    }

    /** The smallest instruction that pushes v. */
    Code push(int v) {
        if (v >= -1 && v <= 5) {
            list.add(new InsnNode(ICONST_0 + v));
        } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            list.add(new IntInsnNode(BIPUSH, v));
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            list.add(new IntInsnNode(SIPUSH, v));
        } else {
            list.add(new LdcInsnNode(v));
        }
        return this;
    }

    Code op(int opcode) {
        list.add(new InsnNode(opcode));
        return this;
    }

    Code load(Type t, int slot) {
        list.add(new VarInsnNode(t.getOpcode(ILOAD), slot));
        return this;
    }

    Code store(Type t, int slot) {
        list.add(new VarInsnNode(t.getOpcode(ISTORE), slot));
        return this;
    }

    Code add(AbstractInsnNode x) {
        list.add(x);
        return this;
    }

    Code jump(int opcode, LabelNode to) {
        list.add(new JumpInsnNode(opcode, to));
        return this;
    }
}
