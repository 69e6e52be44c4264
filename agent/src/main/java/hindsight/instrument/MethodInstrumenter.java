package hindsight.instrument;

import hindsight.runtime.Agent;
import hindsight.runtime.Defs;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.*;

/**
 * Adds the event calls of docs/wire-format.md to one method. The method gets one new local, the
 * thread's buffer, fetched once at entry; a few temporaries above it hold operands that an event
 * needs after the instruction consumed them.
 */
final class MethodInstrumenter implements Opcodes {
    private static final String BUF = "hindsight/runtime/Buf";
    private static final String BUF_DESC = "L" + BUF + ";";
    private static final String R = "hindsight/runtime/R";

    private final ClassNode cn;
    private final ClassLoader loader;
    private final MethodNode m;
    private final int classId;
    private final InsnList in;
    private final boolean isStatic;
    private final boolean isCtor;
    private final Type[] argTypes;
    private final int bufSlot;
    private final int tempBase;

    /** Instruction ordinals: labels get the ordinal of the next real instruction. */
    private final Map<AbstractInsnNode, Integer> ordinal = new IdentityHashMap<>();
    private final List<Integer> varSlots = new ArrayList<>();
    private final List<String> varNames = new ArrayList<>();
    private final List<String> varDescs = new ArrayList<>();
    private final Map<Integer, Integer> argVarBySlot = new HashMap<>();
    private final Map<LocalVariableNode, Integer> lvtVar = new IdentityHashMap<>();
    private final Map<String, Integer> syntheticVar = new HashMap<>();
    private final Map<MethodInsnNode, Boolean> ctorResultOnStack = new IdentityHashMap<>();
    private final boolean hasLvt;
    private MethodInsnNode thisInit;

    MethodInstrumenter(ClassNode cn, MethodNode m, int classId, ClassLoader loader) {
        this.cn = cn;
        this.loader = loader;
        this.m = m;
        this.classId = classId;
        this.in = m.instructions;
        this.isStatic = (m.access & ACC_STATIC) != 0;
        this.isCtor = m.name.equals("<init>");
        this.argTypes = Type.getArgumentTypes(m.desc);
        this.bufSlot = m.maxLocals;
        this.tempBase = m.maxLocals + 1;
        this.hasLvt = m.localVariables != null && !m.localVariables.isEmpty();
    }

    void run() {
        byte[] hash = BytecodeHash.of(m);
        AbstractInsnNode[] orig = in.toArray();
        numberInstructions(orig);
        defineVars();
        scanConstructorCalls(orig);
        if (isCtor && thisInit == null) {
            throw new IllegalStateException("constructor " + m.name + m.desc
                    + " has no recognisable super(...) or this(...) call");
        }
        Set<LabelNode> handlers = new HashSet<>();
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            handlers.add(t.handler);
        }
        analyseBlocks(orig);
        int firstLine = 0;
        int lastLine = 0;
        boolean preSuper = isCtor;
        LabelNode split = null;
        LabelNode preInit = null;
        for (AbstractInsnNode x : orig) {
            if (x instanceof LabelNode) {
                if (handlers.remove(x)) {
                    InsnList c = new InsnList();
                    c.add(new InsnNode(DUP));
                    c.add(buf());
                    c.add(new MethodInsnNode(INVOKESTATIC, BUF, "sCatch",
                            "(Ljava/lang/Throwable;" + BUF_DESC + ")V", false));
                    in.insert(x, c);
                }
                continue;
            }
            if (x instanceof LineNumberNode) {
                int line = ((LineNumberNode) x).line;
                firstLine = firstLine == 0 ? line : Math.min(firstLine, line);
                lastLine = Math.max(lastLine, line);
                Integer b = blockAt.get(ordinal.get(x));
                if (b != null && blockLines[b] == line) {
                    // The block's BLOCK event starts this line.
                    continue;
                }
                InsnList c = new InsnList();
                c.add(buf());
                c.add(push(line));
                c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "line", "(I)V", false));
                in.insert(x, c);
                continue;
            }
            int op = x.getOpcode();
            Integer block = blockAt.get(ordinal.get(x));
            if (block != null) {
                InsnList c = new InsnList();
                c.add(buf());
                c.add(push(block));
                c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "block", "(I)V", false));
                in.insertBefore(x, c);
            }
            if (op == GETFIELD) {
                FieldInsnNode f = (FieldInsnNode) x;
                InsnList c = new InsnList();
                c.add(new InsnNode(DUP));
                c.add(buf());
                c.add(new InsnNode(SWAP));
                c.add(push(Defs.field(f.owner, f.name, f.desc, false)));
                c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "fieldRead", "(Ljava/lang/Object;I)V", false));
                in.insertBefore(x, c);
            } else if (op == GETSTATIC) {
                FieldInsnNode f = (FieldInsnNode) x;
                InsnList c = new InsnList();
                c.add(buf());
                c.add(push(Defs.field(f.owner, f.name, f.desc, true)));
                c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "staticRead", "(I)V", false));
                in.insert(x, c);
            } else if (op >= IALOAD && op <= SALOAD) {
                InsnList c = new InsnList();
                c.add(new InsnNode(DUP2));
                c.add(buf());
                c.add(new InsnNode(DUP_X2));
                c.add(new InsnNode(POP));
                c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "arrayRead", "(Ljava/lang/Object;I)V", false));
                in.insertBefore(x, c);
            } else if (op >= ISTORE && op <= ASTORE) {
                local(x, ((VarInsnNode) x).var, op);
            } else if (op == IINC) {
                local(x, ((IincInsnNode) x).var, ISTORE);
            } else if (op >= IRETURN && op <= RETURN) {
                in.insertBefore(x, ret());
            } else if (op == PUTFIELD) {
                putField((FieldInsnNode) x, preSuper);
            } else if (op == PUTSTATIC) {
                putStatic((FieldInsnNode) x);
            } else if (op >= IASTORE && op <= SASTORE) {
                arrayStore(x);
            } else if (op == NEWARRAY || op == ANEWARRAY) {
                InsnList c = new InsnList();
                c.add(new InsnNode(DUP));
                c.add(buf());
                c.add(new MethodInsnNode(INVOKESTATIC, BUF, "sNewArray",
                        "(Ljava/lang/Object;" + BUF_DESC + ")V", false));
                in.insert(x, c);
            } else if (op == MULTIANEWARRAY) {
                InsnList c = new InsnList();
                c.add(new InsnNode(DUP));
                c.add(buf());
                c.add(new InsnNode(SWAP));
                c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "seen", "(Ljava/lang/Object;)V", false));
                in.insert(x, c);
            } else if (op == ATHROW) {
                InsnList c = new InsnList();
                c.add(new InsnNode(DUP));
                c.add(buf());
                c.add(new MethodInsnNode(INVOKESTATIC, BUF, "sThrow",
                        "(Ljava/lang/Throwable;" + BUF_DESC + ")V", false));
                in.insertBefore(x, c);
            } else if (x instanceof MethodInsnNode) {
                MethodInsnNode call = (MethodInsnNode) x;
                if (call == thisInit) {
                    preSuper = false;
                    preInit = new LabelNode();
                    InsnList pre = new InsnList();
                    pre.add(buf());
                    pre.add(push(Agent.instrumentable(call.owner) ? 1 : 0));
                    pre.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "superCall", "(Z)V", false));
                    pre.add(preInit);
                    in.insertBefore(x, pre);
                    split = new LabelNode();
                    InsnList c = new InsnList();
                    c.add(split);
                    c.add(buf());
                    c.add(new VarInsnNode(ALOAD, 0));
                    c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "thisInit", "(Ljava/lang/Object;)V", false));
                    in.insert(x, c);
                } else if (isExternal(call)) {
                    externalCall(call);
                }
            }
        }
        int methodId = Defs.instrumentedMethod(classId, m.name, m.desc, m.access, hash, firstLine,
                lastLine, varSlots.stream().mapToInt(Integer::intValue).toArray(),
                varNames.toArray(new String[0]), varDescs.toArray(new String[0]), blockStarts,
                blockLines, blockEffectCounts, toInts(effectKinds), toInts(effectTargets));
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        in.insert(prologue(methodId, start));
        in.add(end);
        if (split != null) {
            // The verifier accepts no handler over the super(...) call itself; Buf.superCall
            // makes up for it.
            catchAll(start, preInit);
            catchAll(split, end);
        } else {
            catchAll(start, end);
        }
    }

    // ---- analysis ----

    /** Block index by the ordinal of its first instruction. */
    private final Map<Integer, Integer> blockAt = new HashMap<>();
    private int[] blockStarts;
    private int[] blockLines;
    private int[] blockEffectCounts;
    private final List<Integer> effectKinds = new ArrayList<>();
    private final List<Integer> effectTargets = new ArrayList<>();

    /**
     * The block table of the original code: leaders, each block's line (of a line label on its
     * first instruction, else 0) and its effects in instruction order.
     */
    private void analyseBlocks(AbstractInsnNode[] orig) {
        int n = 0;
        for (AbstractInsnNode x : orig) {
            if (x.getOpcode() >= 0) {
                n++;
            }
        }
        blockStarts = Leaders.of(m, orig, ordinal, n);
        blockLines = new int[blockStarts.length];
        blockEffectCounts = new int[blockStarts.length];
        for (int i = 0; i < blockStarts.length; i++) {
            blockAt.put(blockStarts[i], i);
        }
        int block = -1;
        for (AbstractInsnNode x : orig) {
            if (x instanceof LineNumberNode) {
                Integer b = blockAt.get(ordinal.get(x));
                if (b != null) {
                    blockLines[b] = ((LineNumberNode) x).line;
                }
                continue;
            }
            int op = x.getOpcode();
            if (op < 0) {
                continue;
            }
            Integer b = blockAt.get(ordinal.get(x));
            if (b != null) {
                block = b;
            }
            if (block < 0) {
                continue;
            }
            int before = effectKinds.size();
            if (op >= ILOAD && op <= ALOAD) {
                effect(1, readVar(x, ((VarInsnNode) x).var, op));
            } else if (op >= ISTORE && op <= ASTORE) {
                effect(0, varFor(x, ((VarInsnNode) x).var, op));
            } else if (op == IINC) {
                effect(1, readVar(x, ((IincInsnNode) x).var, ILOAD));
                effect(0, varFor(x, ((IincInsnNode) x).var, ISTORE));
            } else if (op == PUTFIELD || op == GETFIELD || op == PUTSTATIC || op == GETSTATIC) {
                FieldInsnNode f = (FieldInsnNode) x;
                boolean isStaticField = op == PUTSTATIC || op == GETSTATIC;
                int fid = Defs.field(f.owner, f.name, f.desc, isStaticField);
                effect(op == PUTFIELD ? 2 : op == GETFIELD ? 3 : op == PUTSTATIC ? 6 : 7, fid);
            } else if (op >= IASTORE && op <= SASTORE) {
                effect(4, 0);
            } else if (op >= IALOAD && op <= SALOAD) {
                effect(5, 0);
            }
            blockEffectCounts[block] += effectKinds.size() - before;
        }
    }

    private void effect(int kind, int target) {
        if (target >= 0) {
            effectKinds.add(kind);
            effectTargets.add(target);
        }
    }

    /** The var id a load at {@code x} reads, or -1 for a compiler temporary. */
    private int readVar(AbstractInsnNode x, int slot, int opcode) {
        if (slot < argSlots()) {
            Integer v = argVarBySlot.get(slot);
            return v == null ? -1 : v;
        }
        if (hasLvt) {
            int p = ordinal.get(x);
            for (LocalVariableNode lv : m.localVariables) {
                if (lv.index == slot && ordinal.get(lv.start) <= p && p < ordinal.get(lv.end)) {
                    return lvtVar.getOrDefault(lv, -1);
                }
            }
            return -1;
        }
        Integer v = syntheticVar.get(slot + storeDesc(opcode - ILOAD + ISTORE));
        return v == null ? -1 : v;
    }

    private static int[] toInts(List<Integer> xs) {
        return xs.stream().mapToInt(Integer::intValue).toArray();
    }

    private void numberInstructions(AbstractInsnNode[] orig) {
        int n = 0;
        List<AbstractInsnNode> pending = new ArrayList<>();
        for (AbstractInsnNode x : orig) {
            if (x.getOpcode() < 0) {
                pending.add(x);
            } else {
                for (AbstractInsnNode p : pending) {
                    ordinal.put(p, n);
                }
                pending.clear();
                ordinal.put(x, n++);
            }
        }
        for (AbstractInsnNode p : pending) {
            ordinal.put(p, n);
        }
    }

    /** Arguments first (slot order, this included), then the LocalVariableTable in table order. */
    private void defineVars() {
        int slot = 0;
        if (!isStatic) {
            argVarBySlot.put(0, addVar(0, "this", "L" + cn.name + ";"));
            slot = 1;
        }
        for (int i = 0; i < argTypes.length; i++) {
            String name = "arg" + i;
            if (hasLvt) {
                for (LocalVariableNode lv : m.localVariables) {
                    if (lv.index == slot) {
                        name = lv.name;
                        break;
                    }
                }
            }
            argVarBySlot.put(slot, addVar(slot, name, argTypes[i].getDescriptor()));
            slot += argTypes[i].getSize();
        }
        if (hasLvt) {
            for (LocalVariableNode lv : m.localVariables) {
                if (lv.index >= slot) {
                    lvtVar.put(lv, addVar(lv.index, lv.name, lv.desc));
                }
            }
        }
    }

    private int argSlots() {
        int s = isStatic ? 0 : 1;
        for (Type t : argTypes) {
            s += t.getSize();
        }
        return s;
    }

    private int addVar(int slot, String name, String desc) {
        varSlots.add(slot);
        varNames.add(name);
        varDescs.add(desc);
        return varSlots.size() - 1;
    }

    /**
     * Pairs each invokespecial &lt;init&gt; with its NEW (javac nests them) to know whether the new
     * object is still on the stack after the call (NEW followed by DUP); in a constructor, the
     * &lt;init&gt; call with no NEW of its own initialises this.
     */
    private void scanConstructorCalls(AbstractInsnNode[] orig) {
        ArrayDeque<Boolean> news = new ArrayDeque<>();
        for (int i = 0; i < orig.length; i++) {
            AbstractInsnNode x = orig[i];
            if (x.getOpcode() == NEW) {
                AbstractInsnNode next = x.getNext();
                while (next != null && next.getOpcode() < 0) {
                    next = next.getNext();
                }
                news.push(next != null && next.getOpcode() == DUP);
            } else if (x.getOpcode() == INVOKESPECIAL && ((MethodInsnNode) x).name.equals("<init>")) {
                MethodInsnNode call = (MethodInsnNode) x;
                if (news.isEmpty()) {
                    if (isCtor && thisInit == null) {
                        thisInit = call;
                    }
                    ctorResultOnStack.put(call, false);
                } else {
                    ctorResultOnStack.put(call, news.pop());
                }
            }
        }
    }

    /** The var id a store at {@code x} writes, or -1 for a compiler temporary. */
    private int varFor(AbstractInsnNode x, int slot, int opcode) {
        if (slot < argSlots()) {
            Integer v = argVarBySlot.get(slot);
            return v == null ? -1 : v;
        }
        if (hasLvt) {
            int p = ordinal.get(x);
            for (LocalVariableNode lv : m.localVariables) {
                if (lv.index == slot && ordinal.get(lv.start) == p + 1) {
                    return lvtVar.getOrDefault(lv, -1);
                }
            }
            for (LocalVariableNode lv : m.localVariables) {
                if (lv.index == slot && ordinal.get(lv.start) <= p && p < ordinal.get(lv.end)) {
                    return lvtVar.getOrDefault(lv, -1);
                }
            }
            return -1;
        }
        String desc = storeDesc(opcode);
        return syntheticVar.computeIfAbsent(slot + desc, k -> addVar(slot, "local" + slot, desc));
    }

    private static String storeDesc(int opcode) {
        switch (opcode) {
            case ISTORE: return "I";
            case LSTORE: return "J";
            case FSTORE: return "F";
            case DSTORE: return "D";
            default: return "Ljava/lang/Object;";
        }
    }

    // ---- code fragments ----

    private VarInsnNode buf() {
        return new VarInsnNode(ALOAD, bufSlot);
    }

    private static AbstractInsnNode push(int v) {
        if (v >= -1 && v <= 5) {
            return new InsnNode(ICONST_0 + v);
        } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            return new IntInsnNode(BIPUSH, v);
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            return new IntInsnNode(SIPUSH, v);
        }
        return new LdcInsnNode(v);
    }

    /** buf.vX(value) for a value of the given type whose loading instruction is given. */
    private static MethodInsnNode value(Type t) {
        String name;
        String desc;
        switch (t.getSort()) {
            case Type.BOOLEAN: name = "vZ"; desc = "(I)V"; break;
            case Type.CHAR: name = "vC"; desc = "(I)V"; break;
            case Type.BYTE: name = "vB"; desc = "(I)V"; break;
            case Type.SHORT: name = "vS"; desc = "(I)V"; break;
            case Type.INT: name = "vI"; desc = "(I)V"; break;
            case Type.LONG: name = "vJ"; desc = "(J)V"; break;
            case Type.FLOAT: name = "vF"; desc = "(F)V"; break;
            case Type.DOUBLE: name = "vD"; desc = "(D)V"; break;
            default: name = "vA"; desc = "(Ljava/lang/Object;)V"; break;
        }
        return new MethodInsnNode(INVOKEVIRTUAL, BUF, name, desc, false);
    }

    private void emitValue(InsnList c, Type t, int slot) {
        c.add(buf());
        c.add(new VarInsnNode(t.getOpcode(ILOAD), slot));
        c.add(value(t));
    }

    private InsnList prologue(int methodId, LabelNode start) {
        InsnList c = new InsnList();
        c.add(new MethodInsnNode(INVOKESTATIC, R, "enter", "()" + BUF_DESC, false));
        c.add(new VarInsnNode(ASTORE, bufSlot));
        boolean withThis = !isStatic && !isCtor;
        c.add(buf());
        c.add(push(methodId));
        c.add(push(argTypes.length + (withThis ? 1 : 0)));
        c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "call", "(II)V", false));
        if (withThis) {
            emitValue(c, Type.getObjectType("java/lang/Object"), 0);
        }
        int slot = isStatic ? 0 : 1;
        for (Type t : argTypes) {
            emitValue(c, t, slot);
            slot += t.getSize();
        }
        c.add(start);
        return c;
    }

    private InsnList ret() {
        InsnList c = new InsnList();
        Type t = Type.getReturnType(m.desc);
        if (t.getSort() == Type.VOID) {
            c.add(buf());
            c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "retVoid", "()V", false));
            return c;
        }
        c.add(new VarInsnNode(t.getOpcode(ISTORE), tempBase));
        c.add(buf());
        c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "ret", "()V", false));
        emitValue(c, t, tempBase);
        c.add(buf());
        c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "exit", "()V", false));
        c.add(new VarInsnNode(t.getOpcode(ILOAD), tempBase));
        return c;
    }

    private void local(AbstractInsnNode x, int slot, int opcode) {
        int var = varFor(x, slot, opcode);
        if (var < 0) {
            return;
        }
        Type t;
        String desc = varDescs.get(var);
        if (opcode == ISTORE && desc.length() == 1 && "ZCBSI".indexOf(desc.charAt(0)) >= 0) {
            t = Type.getType(desc);
        } else {
            t = Type.getType(storeDesc(opcode));
        }
        InsnList c = new InsnList();
        c.add(buf());
        c.add(push(var));
        c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "local", "(I)V", false));
        emitValue(c, t, slot);
        in.insert(x, c);
    }

    private void putField(FieldInsnNode x, boolean preSuper) {
        Type t = Type.getType(x.desc);
        int fid = Defs.field(x.owner, x.name, x.desc, false);
        InsnList before = new InsnList();
        InsnList after = new InsnList();
        before.add(new VarInsnNode(t.getOpcode(ISTORE), tempBase));
        if (preSuper && x.owner.equals(cn.name)) {
            before.add(new VarInsnNode(t.getOpcode(ILOAD), tempBase));
            after.add(buf());
            after.add(push(fid));
            after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "fieldWriteUninit", "(I)V", false));
        } else {
            before.add(new InsnNode(DUP));
            before.add(new VarInsnNode(t.getOpcode(ILOAD), tempBase));
            after.add(buf());
            after.add(new InsnNode(SWAP));
            after.add(push(fid));
            after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "fieldWrite", "(Ljava/lang/Object;I)V", false));
        }
        emitValue(after, t, tempBase);
        in.insertBefore(x, before);
        in.insert(x, after);
    }

    private void putStatic(FieldInsnNode x) {
        Type t = Type.getType(x.desc);
        int fid = Defs.field(x.owner, x.name, x.desc, true);
        InsnList before = new InsnList();
        before.add(new VarInsnNode(t.getOpcode(ISTORE), tempBase));
        before.add(new VarInsnNode(t.getOpcode(ILOAD), tempBase));
        InsnList after = new InsnList();
        after.add(buf());
        after.add(push(fid));
        after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "staticWrite", "(I)V", false));
        emitValue(after, t, tempBase);
        in.insertBefore(x, before);
        in.insert(x, after);
    }

    private void arrayStore(AbstractInsnNode x) {
        int op = x.getOpcode();
        Type t;
        switch (op) {
            case IASTORE: t = Type.INT_TYPE; break;
            case LASTORE: t = Type.LONG_TYPE; break;
            case FASTORE: t = Type.FLOAT_TYPE; break;
            case DASTORE: t = Type.DOUBLE_TYPE; break;
            case AASTORE: t = Type.getObjectType("java/lang/Object"); break;
            case BASTORE: t = Type.BYTE_TYPE; break;
            case CASTORE: t = Type.CHAR_TYPE; break;
            default: t = Type.SHORT_TYPE; break;
        }
        int valueSlot = tempBase;
        int indexSlot = tempBase + t.getSize();
        InsnList before = new InsnList();
        before.add(new VarInsnNode(t.getOpcode(ISTORE), valueSlot));
        before.add(new VarInsnNode(ISTORE, indexSlot));
        before.add(new InsnNode(DUP));
        before.add(new VarInsnNode(ILOAD, indexSlot));
        before.add(new VarInsnNode(t.getOpcode(ILOAD), valueSlot));
        InsnList after = new InsnList();
        after.add(buf());
        after.add(new InsnNode(SWAP));
        after.add(new VarInsnNode(ILOAD, indexSlot));
        if (op == BASTORE) {
            after.add(new VarInsnNode(ILOAD, valueSlot));
            after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "arrayWriteB", "(Ljava/lang/Object;II)V", false));
        } else {
            after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "arrayWrite", "(Ljava/lang/Object;I)V", false));
            emitValue(after, t, valueSlot);
        }
        in.insertBefore(x, before);
        in.insert(x, after);
    }

    /**
     * EXT_CALL with the receiver and arguments (saved in temporaries and reloaded), the call in a
     * try block whose handler records EXT_UNWIND and rethrows, then EXT_RETURN. The handler sits
     * right after the call so that the application's own handlers cover its rethrow exactly as
     * they covered the call.
     */
    private void externalCall(MethodInsnNode x) {
        boolean ctor = x.name.equals("<init>");
        boolean withReceiver = x.getOpcode() != INVOKESTATIC && !ctor;
        Type[] args = Type.getArgumentTypes(x.desc);
        int[] slots = new int[args.length + 1];
        int s = tempBase;
        if (withReceiver) {
            slots[0] = s++;
        }
        for (int i = 0; i < args.length; i++) {
            slots[i + 1] = s;
            s += args[i].getSize();
        }
        int resultSlot = s;
        int mid = Defs.externalMethod(x.owner, x.name, x.desc, x.getOpcode() == INVOKESTATIC, x.itf);
        InsnList before = new InsnList();
        for (int i = args.length - 1; i >= 0; i--) {
            before.add(new VarInsnNode(args[i].getOpcode(ISTORE), slots[i + 1]));
        }
        if (withReceiver) {
            before.add(new VarInsnNode(ASTORE, slots[0]));
        }
        before.add(buf());
        before.add(push(mid));
        before.add(push(args.length + (withReceiver ? 1 : 0)));
        before.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "extCall", "(II)V", false));
        if (withReceiver) {
            emitValue(before, Type.getObjectType("java/lang/Object"), slots[0]);
        }
        for (int i = 0; i < args.length; i++) {
            emitValue(before, args[i], slots[i + 1]);
        }
        if (withReceiver) {
            before.add(new VarInsnNode(ALOAD, slots[0]));
        }
        for (int i = 0; i < args.length; i++) {
            before.add(new VarInsnNode(args[i].getOpcode(ILOAD), slots[i + 1]));
        }
        if (isExit(x)) {
            before.add(new VarInsnNode(ILOAD, slots[1]));
            before.add(new MethodInsnNode(INVOKESTATIC, R, "noteExit", "(I)V", false));
        }
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        LabelNode cont = new LabelNode();
        before.add(buf());
        before.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "park", "()V", false));
        before.add(start);

        InsnList after = new InsnList();
        after.add(end);
        after.add(buf());
        after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "unpark", "()V", false));
        arrayWritesOf(x, args, slots, after);
        Type r = Type.getReturnType(x.desc);
        if (ctor && Boolean.TRUE.equals(ctorResultOnStack.get(x))) {
            after.add(new InsnNode(DUP));
            after.add(buf());
            after.add(new MethodInsnNode(INVOKESTATIC, BUF, "sExtNew",
                    "(Ljava/lang/Object;" + BUF_DESC + ")V", false));
            contents(x, args, slots, false, after);
            if (mayHoldContent(Type.getObjectType(x.owner))) {
                after.add(new InsnNode(DUP));
                after.add(buf());
                after.add(new MethodInsnNode(INVOKESTATIC, BUF, "sContent",
                        "(Ljava/lang/Object;" + BUF_DESC + ")V", false));
            }
        } else if (r.getSort() == Type.VOID) {
            after.add(buf());
            after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "extRet", "()V", false));
            after.add(buf());
            after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "vV", "()V", false));
            contents(x, args, slots, withReceiver, after);
        } else {
            after.add(new VarInsnNode(r.getOpcode(ISTORE), resultSlot));
            after.add(buf());
            after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "extRet", "()V", false));
            emitValue(after, r, resultSlot);
            contents(x, args, slots, withReceiver, after);
            if (mayHoldContent(r)) {
                after.add(buf());
                after.add(new VarInsnNode(ALOAD, resultSlot));
                after.add(push(0));
                after.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "content", "(Ljava/lang/Object;Z)V", false));
            }
            after.add(new VarInsnNode(r.getOpcode(ILOAD), resultSlot));
        }
        after.add(new JumpInsnNode(GOTO, cont));
        after.add(handler);
        after.add(new InsnNode(DUP));
        after.add(buf());
        after.add(new MethodInsnNode(INVOKESTATIC, BUF, "sExtUnwind",
                "(Ljava/lang/Throwable;" + BUF_DESC + ")V", false));
        contents(x, args, slots, withReceiver, after);
        after.add(new InsnNode(ATHROW));
        after.add(cont);
        in.insertBefore(x, before);
        in.insert(x, after);
        m.tryCatchBlocks.add(0, new TryCatchBlockNode(start, end, handler, null));
    }

    /** Whether a call reaches uninstrumented code (judged by names and class files, statically). */
    private boolean isExternal(MethodInsnNode call) {
        if (!Agent.instrumentable(call.owner)) {
            return true;
        }
        if (call.owner.equals(cn.name)) {
            for (MethodNode other : cn.methods) {
                if (other.name.equals(call.name) && other.desc.equals(call.desc)) {
                    return false;
                }
            }
            if (call.name.equals("<init>")) {
                return false;
            }
            return cn.superName == null
                    || !Hierarchy.reachesApplication(loader, cn.superName, call.name, call.desc)
                        && !interfacesReach(call);
        }
        return !Hierarchy.reachesApplication(loader, call.owner, call.name, call.desc);
    }

    private boolean interfacesReach(MethodInsnNode call) {
        for (String itf : cn.interfaces) {
            if (Hierarchy.reachesApplication(loader, itf, call.name, call.desc)) {
                return true;
            }
        }
        return false;
    }

    /**
     * JDK methods that write array elements without application code seeing it: record the
     * range they may have written (all of it, changed or not) before their EXT_RETURN.
     */
    private void arrayWritesOf(MethodInsnNode x, Type[] args, int[] slots, InsnList c) {
        boolean arraycopy = x.owner.equals("java/lang/System") && x.name.equals("arraycopy");
        boolean arrays = x.owner.equals("java/util/Arrays") && args.length > 0
                && args[0].getSort() == Type.ARRAY && ARRAY_WRITERS.contains(x.name);
        if (!arraycopy && !arrays) {
            return;
        }
        c.add(buf());
        if (arraycopy) {
            c.add(new VarInsnNode(ALOAD, slots[3]));
            c.add(new VarInsnNode(ILOAD, slots[4]));
            c.add(new VarInsnNode(ILOAD, slots[4]));
            c.add(new VarInsnNode(ILOAD, slots[5]));
            c.add(new InsnNode(IADD));
        } else {
            c.add(new VarInsnNode(ALOAD, slots[1]));
            boolean range = args.length >= 3 && args[1].getSort() == Type.INT && args[2].getSort() == Type.INT;
            if (range) {
                c.add(new VarInsnNode(ILOAD, slots[2]));
                c.add(new VarInsnNode(ILOAD, slots[3]));
            } else {
                c.add(push(0));
                c.add(new LdcInsnNode(Integer.MAX_VALUE));
            }
        }
        c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "arrayRange", "(Ljava/lang/Object;II)V", false));
    }

    private static final Set<String> ARRAY_WRITERS = Set.of("sort", "parallelSort", "fill",
            "setAll", "parallelSetAll", "parallelPrefix");

    private static boolean isExit(MethodInsnNode x) {
        return x.desc.equals("(I)V")
                && ((x.owner.equals("java/lang/System") && x.name.equals("exit"))
                    || (x.owner.equals("java/lang/Runtime") && (x.name.equals("exit") || x.name.equals("halt"))));
    }

    /** Whether a handler label starts the UNWIND handler that {@link #catchAll} adds. */
    static boolean isUnwindHandler(LabelNode handler) {
        AbstractInsnNode x = handler.getNext();
        while (x != null && x.getOpcode() < 0) {
            x = x.getNext();
        }
        if (x == null || x.getOpcode() != DUP) {
            return false;
        }
        AbstractInsnNode call = x.getNext() == null ? null : x.getNext().getNext();
        return call instanceof MethodInsnNode && ((MethodInsnNode) call).owner.equals(BUF)
                && ((MethodInsnNode) call).name.equals("sUnwind");
    }

    /** The handler that records UNWIND and rethrows, for [start, end). */
    private void catchAll(LabelNode start, LabelNode end) {
        LabelNode handler = new LabelNode();
        in.add(handler);
        in.add(new InsnNode(DUP));
        in.add(buf());
        in.add(new MethodInsnNode(INVOKESTATIC, BUF, "sUnwind",
                "(Ljava/lang/Throwable;" + BUF_DESC + ")V", false));
        in.add(new InsnNode(ATHROW));
        m.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }

    /**
     * CONTENT of the receiver and the arguments of an external call that may be JDK collections,
     * maps or string builders: sent when the call may have changed them, else only the first
     * time the runtime sees them (docs/wire-format.md, "Content of JDK objects").
     */
    private void contents(MethodInsnNode x, Type[] args, int[] slots, boolean withReceiver,
            InsnList c) {
        if (withReceiver && mayHoldContent(Type.getObjectType(x.owner))) {
            c.add(buf());
            c.add(new VarInsnNode(ALOAD, slots[0]));
            int at = addsAt(x);
            if (at == NOT_ADDING) {
                c.add(push(READ_ONLY.contains(x.name) ? 0 : 1));
                c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "content", "(Ljava/lang/Object;Z)V", false));
            } else {
                c.add(at == AT_END ? push(-1) : new VarInsnNode(ILOAD, slots[at + 1]));
                c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "added", "(Ljava/lang/Object;I)V", false));
            }
        }
        boolean argsChanged = x.name.equals("drainTo")
                || x.owner.equals("java/util/Collections") && ARG_WRITERS.contains(x.name);
        for (int i = 0; i < args.length; i++) {
            if (mayHoldContent(args[i])) {
                c.add(buf());
                c.add(new VarInsnNode(ALOAD, slots[i + 1]));
                c.add(push(argsChanged ? 1 : 0));
                c.add(new MethodInsnNode(INVOKEVIRTUAL, BUF, "content", "(Ljava/lang/Object;Z)V", false));
            }
        }
    }

    private static final int NOT_ADDING = -2, AT_END = -1;

    /**
     * For a call that adds one element to a list: {@link #AT_END}, or the index of the argument
     * that gives the element's position; {@link #NOT_ADDING} for any other call. The runtime
     * checks the receiver's class ({@code Buf.added}).
     */
    private static int addsAt(MethodInsnNode x) {
        switch (x.name + x.desc) {
            case "add(Ljava/lang/Object;)Z":
            case "addElement(Ljava/lang/Object;)V":
            case "addLast(Ljava/lang/Object;)V":
                return AT_END;
            case "add(ILjava/lang/Object;)V":
                return 0;
            case "insertElementAt(Ljava/lang/Object;I)V":
                return 1;
            default:
                return NOT_ADDING;
        }
    }

    /** Whether a value of static type t can be a collection, a map or a string builder. */
    private static boolean mayHoldContent(Type t) {
        if (t.getSort() != Type.OBJECT) {
            return false;
        }
        String n = t.getInternalName();
        if (!n.startsWith("java/lang/")) {
            return true;
        }
        return n.equals("java/lang/Object") || n.equals("java/lang/StringBuilder")
                || n.equals("java/lang/StringBuffer") || n.equals("java/lang/AbstractStringBuilder")
                || n.equals("java/lang/CharSequence") || n.equals("java/lang/Iterable")
                || n.equals("java/lang/Appendable") || n.equals("java/lang/Cloneable");
    }

    /** Methods of collections, maps and string builders that do not change their receiver. */
    private static final Set<String> READ_ONLY = Set.of("get", "size", "isEmpty", "contains",
            "containsKey", "containsValue", "containsAll", "indexOf", "lastIndexOf", "iterator",
            "listIterator", "spliterator", "descendingIterator", "stream", "parallelStream",
            "toString", "hashCode", "equals", "keySet", "values", "entrySet", "navigableKeySet",
            "descendingKeySet", "descendingMap", "descendingSet", "length", "charAt",
            "codePointAt", "substring", "subSequence", "chars", "compareTo", "capacity", "peek",
            "peekFirst", "peekLast", "element", "getFirst", "getLast", "first", "last",
            "firstKey", "lastKey", "firstEntry", "lastEntry", "floor", "ceiling", "higher",
            "lower", "floorKey", "ceilingKey", "higherKey", "lowerKey", "floorEntry",
            "ceilingEntry", "higherEntry", "lowerEntry", "headMap", "tailMap", "subMap",
            "headSet", "tailSet", "subSet", "subList", "toArray", "getOrDefault", "forEach",
            "comparator", "getClass", "elementAt", "firstElement", "lastElement", "elements",
            "keys", "search", "clone", "getChars", "codePointBefore", "codePointCount",
            "codePoints", "ensureCapacity", "trimToSize", "getProperty", "propertyNames",
            "stringPropertyNames");

    /** Static methods of java.util.Collections that change a collection argument. */
    private static final Set<String> ARG_WRITERS = Set.of("sort", "reverse", "shuffle", "swap",
            "fill", "copy", "rotate", "replaceAll", "addAll");
}
