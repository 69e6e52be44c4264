package hindsight.instrument;

import hindsight.runtime.Agent;
import hindsight.runtime.Defs;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Calls from application code into uninstrumented code: which calls are (judged statically, by
 * names and class files) and the events around them (EXT_CALL, EXT_RETURN or EXT_UNWIND, and
 * what the JDK may have changed, {@link JdkHooks}).
 */
final class ExternalCalls implements Opcodes {
    private static final Type OBJECT = Type.getObjectType("java/lang/Object");

    private final ClassNode cn;
    private final ClassLoader loader;

    ExternalCalls(ClassNode cn, ClassLoader loader) {
        this.cn = cn;
        this.loader = loader;
    }

    /** Whether a call reaches uninstrumented code. */
    boolean isExternal(MethodInsnNode call) {
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
     * EXT_CALL with the receiver and arguments (saved in temporaries from {@code tempBase} and
     * reloaded), the call, then EXT_RETURN. There is no handler around the call: if it throws,
     * the runtime records EXT_UNWIND at the next exception event of the frame (its CATCH or
     * UNWIND), with the CONTENT of the collections, maps and builders the call was given
     * ({@code vAk}). So the call site gets no new branch target, and the method keeps its own
     * stack map frames. {@code resultOnStack}: a constructor call whose new object stays on the
     * stack (it is the call's result).
     */
    static void wrap(MethodNode m, MethodInsnNode x, boolean resultOnStack, int bufSlot,
            int tempBase) {
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
        JdkHooks.Site site = new JdkHooks.Site(x, args, slots);
        int mid = Defs.externalMethod(x.owner, x.name, x.desc, x.getOpcode() == INVOKESTATIC, x.itf);

        Code before = new Code(bufSlot);
        for (int i = args.length - 1; i >= 0; i--) {
            before.store(args[i], slots[i + 1]);
        }
        if (withReceiver) {
            before.store(OBJECT, slots[0]);
        }
        before.event(EntryPoint.EXT_CALL, mid, args.length + (withReceiver ? 1 : 0));
        if (withReceiver) {
            value(before, site, 0, OBJECT, slots[0]);
        }
        for (int i = 0; i < args.length; i++) {
            value(before, site, i + 1, args[i], slots[i + 1]);
        }
        if (withReceiver) {
            before.load(OBJECT, slots[0]);
        }
        for (int i = 0; i < args.length; i++) {
            before.load(args[i], slots[i + 1]);
        }
        if (JdkHooks.isExit(x)) {
            before.load(Type.INT_TYPE, slots[1]).call(EntryPoint.NOTE_EXIT);
        }
        before.event(EntryPoint.PARK);

        // The entry points after the call take the buffer back from the flusher first.
        Code after = new Code(bufSlot);
        JdkHooks.arrayWrites(site, after);
        JdkHooks.fieldWrites(site, after);
        Type r = Type.getReturnType(x.desc);
        if (ctor && resultOnStack) {
            after.op(DUP).buf().call(EntryPoint.S_EXT_NEW);
            JdkHooks.contents(site, false, after);
            if (JdkHooks.mayHoldContent(Type.getObjectType(x.owner))) {
                after.op(DUP).buf().call(EntryPoint.S_CONTENT);
            }
        } else if (r.getSort() == Type.VOID) {
            after.event(EntryPoint.EXT_RET_VOID);
            JdkHooks.contents(site, withReceiver, after);
        } else {
            after.store(r, resultSlot).buf().load(r, resultSlot).call(EntryPoint.Valued.EXT_RET, r);
            JdkHooks.contents(site, withReceiver, after);
            if (JdkHooks.mayHoldContent(r)) {
                JdkHooks.firstContent(after, resultSlot);
            }
            after.load(r, resultSlot);
        }
        InsnList in = m.instructions;
        in.insertBefore(x, before.list());
        in.insert(x, after.list());
    }

    /** The value of the receiver (index 0) or an argument, kept by the runtime if it may need CONTENT after an exception. */
    private static void value(Code c, JdkHooks.Site site, int index, Type t, int slot) {
        int changed = JdkHooks.contentAfter(site, index);
        if (changed < 0) {
            c.value(t, slot);
        } else {
            c.buf().load(t, slot).push(changed).call(EntryPoint.V_OBJECT_KEPT);
        }
    }
}
