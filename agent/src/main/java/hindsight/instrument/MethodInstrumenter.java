package hindsight.instrument;

import hindsight.runtime.Agent;
import hindsight.runtime.Defs;
import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.*;

/**
 * Adds the event calls of docs/wire-format.md to one method: analyses the original code
 * ({@link Vars}, {@link BlockTable}, {@link ConstructorCalls}), then inserts the events
 * instruction by instruction, calls into uninstrumented code through {@link ExternalCalls}. The
 * method gets one new local, the thread's buffer, fetched once at entry; a few temporaries
 * above it hold operands that an event needs after the instruction consumed them.
 */
final class MethodInstrumenter implements Opcodes {
    private static final Type OBJECT = Type.getObjectType("java/lang/Object");

    private final ClassNode cn;
    private final MethodNode m;
    private final int classId;
    private final ExternalCalls external;
    private final FieldIds fields;
    private final InsnList in;
    private final boolean isStatic;
    private final boolean isCtor;
    private final Type[] argTypes;
    private final int bufSlot;
    private final int tempBase;

    MethodInstrumenter(ClassNode cn, MethodNode m, int classId, ExternalCalls external,
            FieldIds fields) {
        this.cn = cn;
        this.m = m;
        this.classId = classId;
        this.external = external;
        this.fields = fields;
        this.in = m.instructions;
        this.isStatic = (m.access & ACC_STATIC) != 0;
        this.isCtor = m.name.equals("<init>");
        this.argTypes = Type.getArgumentTypes(m.desc);
        this.bufSlot = m.maxLocals;
        this.tempBase = m.maxLocals + 1;
    }

    private Code code() {
        return new Code(bufSlot);
    }

    void run() {
        byte[] hash = BytecodeHash.of(m);
        AbstractInsnNode[] orig = in.toArray();
        Ordinals ordinals = new Ordinals(orig);
        Vars vars = new Vars(cn.name, m, ordinals);
        ConstructorCalls ctors = new ConstructorCalls(orig, isCtor);
        if (isCtor && ctors.thisInit == null) {
            throw new IllegalStateException("constructor " + m.name + m.desc
                    + " has no recognisable super(...) or this(...) call");
        }
        Set<LabelNode> handlers = new HashSet<>();
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            handlers.add(t.handler);
        }
        BlockTable blocks = new BlockTable(m, orig, ordinals, vars, fields);
        Frames frames = new Frames(in, orig, bufSlot);
        int firstLine = 0;
        int lastLine = 0;
        boolean preSuper = isCtor;
        LabelNode split = null;
        LabelNode preInit = null;
        for (AbstractInsnNode x : orig) {
            if (x instanceof FrameNode) {
                continue;
            }
            if (x instanceof LabelNode) {
                if (handlers.remove(x)) {
                    in.insert(x, code().op(DUP).buf().call(EntryPoint.S_CATCH).list());
                }
                continue;
            }
            if (x instanceof LineNumberNode) {
                int line = ((LineNumberNode) x).line;
                firstLine = firstLine == 0 ? line : Math.min(firstLine, line);
                lastLine = Math.max(lastLine, line);
                int b = blocks.startingAt(x);
                // A block that starts this line says so with its BLOCK event.
                if (b < 0 || blocks.lines[b] != line) {
                    in.insert(x, code().event(EntryPoint.LINE, line).list());
                }
                continue;
            }
            int block = blocks.startingAt(x);
            if (block >= 0) {
                in.insertBefore(x, code().event(EntryPoint.BLOCK, block).list());
            }
            if (x == ctors.thisInit) {
                preSuper = false;
                preInit = new LabelNode();
                split = new LabelNode();
                splitConstructor((MethodInsnNode) x, preInit, split);
            } else {
                instrument(x, vars, ctors, preSuper);
            }
        }
        int methodId = Defs.instrumentedMethod(classId, m.name, m.desc, m.access, hash, firstLine,
                lastLine, vars.slots(), vars.names(), vars.descs(), blocks.starts, blocks.lines,
                blocks.effectCounts, blocks.effectKinds(), blocks.effectTargets(), blocks.successors);
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        in.insert(prologue(methodId, start));
        in.add(end);
        if (split != null) {
            // The verifier accepts no handler over the super(...) call itself; Buf.superCall
            // makes up for it.
            catchAll(start, preInit, frames.handler(true));
            catchAll(split, end, frames.handler(false));
        } else {
            catchAll(start, end, frames.handler(false));
        }
        frames.restore();
    }

    /** The events of one real instruction of the original code. */
    private void instrument(AbstractInsnNode x, Vars vars, ConstructorCalls ctors,
            boolean preSuper) {
        int op = x.getOpcode();
        if (op == GETFIELD) {
            FieldInsnNode f = (FieldInsnNode) x;
            int fid = fields.of(f, false);
            in.insertBefore(x, code().op(DUP).buf().op(SWAP).push(fid)
                    .call(EntryPoint.FIELD_READ).list());
        } else if (op == GETSTATIC) {
            FieldInsnNode f = (FieldInsnNode) x;
            in.insert(x, code().event(EntryPoint.STATIC_READ, fields.of(f, true)).list());
        } else if (op >= IALOAD && op <= SALOAD) {
            in.insertBefore(x, code().op(DUP2).buf().op(DUP_X2).op(POP)
                    .call(EntryPoint.ARRAY_READ).list());
        } else if (op >= ISTORE && op <= ASTORE) {
            local(x, vars, ((VarInsnNode) x).var, op);
        } else if (op == IINC) {
            local(x, vars, ((IincInsnNode) x).var, ISTORE);
        } else if (op >= IRETURN && op <= RETURN) {
            in.insertBefore(x, ret());
        } else if (op == PUTFIELD) {
            putField((FieldInsnNode) x, preSuper);
        } else if (op == PUTSTATIC) {
            putStatic((FieldInsnNode) x);
        } else if (op >= IASTORE && op <= SASTORE) {
            arrayStore(x);
        } else if (op == NEWARRAY || op == ANEWARRAY) {
            in.insert(x, code().op(DUP).buf().call(EntryPoint.S_NEW_ARRAY).list());
        } else if (op == MULTIANEWARRAY) {
            in.insert(x, code().op(DUP).buf().op(SWAP).call(EntryPoint.SEEN).list());
        } else if (op == ATHROW) {
            in.insertBefore(x, code().op(DUP).buf().call(EntryPoint.S_THROW).list());
        } else if (x instanceof MethodInsnNode && external.isExternal((MethodInsnNode) x)) {
            MethodInsnNode call = (MethodInsnNode) x;
            ExternalCalls.wrap(m, call, ctors.resultOnStack(call), bufSlot, tempBase);
        }
    }

    /**
     * The super(...)/this(...) call of a constructor: no handler may cover it, so the runtime is
     * told before it ({@code Buf.superCall}); {@code this} is initialised after it (THIS). The
     * catch-all handler covers the code before {@code preInit} and after {@code split}.
     */
    private void splitConstructor(MethodInsnNode x, LabelNode preInit, LabelNode split) {
        in.insertBefore(x, code().event(EntryPoint.SUPER_CALL, Agent.instrumentable(x.owner) ? 1 : 0)
                .add(preInit).list());
        in.insert(x, code().add(split).buf().load(OBJECT, 0).call(EntryPoint.THIS_INIT).list());
    }

    /** The handler that records UNWIND and rethrows, for [start, end). */
    private void catchAll(LabelNode start, LabelNode end, FrameNode frame) {
        LabelNode handler = new LabelNode();
        in.add(code().add(handler).add(frame).op(DUP).buf().call(EntryPoint.S_UNWIND).op(ATHROW)
                .list());
        m.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }

    private InsnList prologue(int methodId, LabelNode start) {
        boolean withThis = !isStatic && !isCtor;
        Code c = code().call(EntryPoint.ENTER).store(OBJECT, bufSlot)
                .event(EntryPoint.CALL, methodId, argTypes.length + (withThis ? 1 : 0));
        if (withThis) {
            c.value(OBJECT, 0);
        }
        int slot = isStatic ? 0 : 1;
        for (Type t : argTypes) {
            c.value(t, slot);
            slot += t.getSize();
        }
        return c.add(start).list();
    }

    private InsnList ret() {
        Type t = Type.getReturnType(m.desc);
        if (t.getSort() == Type.VOID) {
            return code().event(EntryPoint.RET_VOID).list();
        }
        return code().store(t, tempBase).buf().load(t, tempBase).call(EntryPoint.Valued.RET, t)
                .load(t, tempBase).list();
    }

    private void local(AbstractInsnNode x, Vars vars, int slot, int opcode) {
        int var = vars.written(x, slot, opcode);
        if (var >= 0) {
            Type t = vars.valueType(var, opcode);
            in.insert(x, code().buf().push(var).load(t, slot).call(EntryPoint.Valued.LOCAL, t)
                    .list());
        }
    }

    private void putField(FieldInsnNode x, boolean preSuper) {
        Type t = Type.getType(x.desc);
        int fid = fields.of(x, false);
        Code before = code().store(t, tempBase);
        Code after = code();
        if (preSuper && x.owner.equals(cn.name)) {
            before.load(t, tempBase);
            after.event(EntryPoint.FIELD_WRITE_UNINIT, fid).value(t, tempBase);
        } else {
            before.op(DUP).load(t, tempBase);
            after.buf().op(SWAP).push(fid).load(t, tempBase)
                    .call(EntryPoint.Valued.FIELD_WRITE, t);
        }
        in.insertBefore(x, before.list());
        in.insert(x, after.list());
    }

    private void putStatic(FieldInsnNode x) {
        Type t = Type.getType(x.desc);
        int fid = fields.of(x, true);
        in.insertBefore(x, code().store(t, tempBase).load(t, tempBase).list());
        in.insert(x, code().buf().push(fid).load(t, tempBase)
                .call(EntryPoint.Valued.STATIC_WRITE, t).list());
    }

    private void arrayStore(AbstractInsnNode x) {
        int op = x.getOpcode();
        Type t;
        switch (op) {
            case IASTORE: t = Type.INT_TYPE; break;
            case LASTORE: t = Type.LONG_TYPE; break;
            case FASTORE: t = Type.FLOAT_TYPE; break;
            case DASTORE: t = Type.DOUBLE_TYPE; break;
            case AASTORE: t = OBJECT; break;
            case BASTORE: t = Type.BYTE_TYPE; break;
            case CASTORE: t = Type.CHAR_TYPE; break;
            default: t = Type.SHORT_TYPE; break;
        }
        int valueSlot = tempBase;
        int indexSlot = tempBase + t.getSize();
        in.insertBefore(x, code().store(t, valueSlot).store(Type.INT_TYPE, indexSlot).op(DUP)
                .load(Type.INT_TYPE, indexSlot).load(t, valueSlot).list());
        Code after = code().buf().op(SWAP).load(Type.INT_TYPE, indexSlot);
        if (op == BASTORE) {
            after.load(Type.INT_TYPE, valueSlot).call(EntryPoint.ARRAY_WRITE_B);
        } else {
            after.load(t, valueSlot).call(EntryPoint.Valued.ARRAY_WRITE, t);
        }
        in.insert(x, after.list());
    }
}
